//! Integration tests for `src impact` and `src validate impact`: the real binary on copies of
//! `fixtures/impact-chain` (a 3-hop chain), `fixtures/claude-tree` and `fixtures/impact-l1`.

use std::path::Path;

use src_engine::facts::ImpactL1;

use crate::util::{fixtures, src, stdout_of, Project};

const SKILL: &str = ".claude/skills/alpha-gate/SKILL.md";

/// A copy of the chain fixture with its index built.
fn chain() -> Project {
    let p = Project::from_fixture("impact-chain");
    p.src().arg("index").assert().success();
    p
}

fn canon(p: &Project) -> String {
    p.root()
        .canonicalize()
        .unwrap_or_else(|e| panic!("canonicalize: {e}"))
        .display()
        .to_string()
}

/// `src impact ARGS --format json`, parsed.
fn impact(p: &Project, args: &[&str]) -> ImpactL1 {
    let out = stdout_of(p.src().arg("impact").args(args).args(["--format", "json"]));
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("L1 json: {e}\n{out}"))
}

/// (dependent root-relative, type, hop, reference_pattern) of the first impact.
fn rows(p: &Project, l1: &ImpactL1) -> Vec<(String, String, u8, String)> {
    let root = format!("{}/", canon(p));
    l1.impacts[0]
        .dependents
        .iter()
        .map(|d| {
            (
                d.file.trim_start_matches(&root).to_string(),
                d.kind.clone(),
                d.hop_count,
                d.reference_pattern.clone(),
            )
        })
        .collect()
}

/// Every L1 the binary prints must pass its own validator.
fn assert_valid(p: &Project, l1: &ImpactL1) {
    let file = p.path("l1-check.yaml");
    std::fs::write(&file, serde_yaml::to_string(l1).unwrap_or_default())
        .unwrap_or_else(|e| panic!("write: {e}"));
    src()
        .args(["validate", "impact"])
        .arg(&file)
        .assert()
        .code(0);
}

#[test]
fn chain_gives_direct_and_transitive_with_intermediate() {
    let p = chain();
    let l1 = impact(&p, &[SKILL]);
    let rows = rows(&p, &l1);
    let files: Vec<(&str, &str, u8)> = rows
        .iter()
        .map(|r| (r.0.as_str(), r.1.as_str(), r.2))
        .collect();
    assert_eq!(
        files,
        vec![
            (".claude/agents/auditor.md", "DIRECT", 1),
            (".claude/agents/courier.md", "DIRECT", 1),
            (".claude/agents/dispatcher.md", "TRANSITIVE", 2),
        ]
    );
    assert!(rows[2].3.starts_with("courier"), "{}", rows[2].3);
    assert!(
        rows[2].3.ends_with(" via .claude/agents/courier.md"),
        "{}",
        rows[2].3
    );
    let ev = &l1.impacts[0].dependents[1].evidence;
    assert_eq!(
        ev,
        &format!(
            "{}/.claude/agents/courier.md:4:Before delivery, run the alpha-gate skill.",
            canon(&p)
        )
    );
    assert_eq!(l1.impacts[0].changed_file, format!("{}/{SKILL}", canon(&p)));
    assert_eq!(
        (l1.status.as_str(), l1.confidence.as_str()),
        ("complete", "high")
    );
    assert_eq!(l1.degradation_level, "full");
    assert_eq!((l1.files_changed, l1.impact_candidates), (1, 3));
    assert!(l1.cascade_recommended);
    assert_valid(&p, &l1);
}

#[test]
fn one_hop_further_up_the_chain() {
    // courier.md: DIRECT auditor and dispatcher, TRANSITIVE CLAUDE.md via dispatcher.md.
    let p = chain();
    let l1 = impact(&p, &[".claude/agents/courier.md"]);
    let kinds: Vec<&str> = l1.impacts[0]
        .dependents
        .iter()
        .map(|d| d.kind.as_str())
        .collect();
    assert_eq!(kinds, vec!["DIRECT", "DIRECT", "TRANSITIVE"]);
    assert!(l1.impacts[0].dependents[2].file.ends_with("/CLAUDE.md"));
    assert_valid(&p, &l1);
}

#[test]
fn degraded_mode_without_database_finds_the_same_dependents() {
    let p = chain();
    let indexed = impact(&p, &[SKILL]);
    let db = p.path(".src/src.db");
    for suffix in ["", "-wal", "-shm"] {
        let f = format!("{}{suffix}", db.display());
        let _ = std::fs::remove_file(f);
    }
    let live = impact(&p, &[SKILL]);
    assert_eq!(rows(&p, &live), rows(&p, &indexed));
    assert_eq!(live.confidence, "medium");
    assert_eq!(live.degradation_level, "degraded");
    assert_eq!(live.status, "complete");
    assert!(
        live.notes.iter().any(|n| n.contains("live scan")),
        "{:?}",
        live.notes
    );
    assert_valid(&p, &live);
}

#[test]
fn stale_dependent_means_a_live_scan_and_medium_confidence() {
    let p = chain();
    // courier.md changes after indexing and is not among the changed files.
    p.write(
        ".claude/agents/courier.md",
        "# Courier\n\nStill runs alpha-gate first.\n",
    );
    let l1 = impact(&p, &[SKILL]);
    assert_eq!(l1.confidence, "medium");
    let courier = l1.impacts[0]
        .dependents
        .iter()
        .find(|d| d.file.ends_with("courier.md"))
        .unwrap_or_else(|| panic!("courier missing: {l1:?}"));
    assert!(
        courier
            .evidence
            .ends_with(":3:Still runs alpha-gate first."),
        "{}",
        courier.evidence
    );
}

#[test]
fn config_changed_since_indexing_means_a_live_scan() {
    let p = chain();
    let indexed = impact(&p, &[SKILL]);
    // Naming rules changed: the stored graph answers for other names until `src index`.
    p.write(".src/config.yaml", "names:\n  min_stem_len: 3\n");
    let l1 = impact(&p, &[SKILL]);
    assert_eq!(
        (l1.confidence.as_str(), l1.degradation_level.as_str()),
        ("medium", "degraded")
    );
    assert!(
        l1.notes.iter().any(|n| n.contains("naming rules changed")),
        "{:?}",
        l1.notes
    );
    assert_eq!(rows(&p, &l1), rows(&p, &indexed));
}

#[test]
fn edited_changed_file_is_refreshed_first() {
    let p = chain();
    // A new file mentioning the skill, given as changed together with the skill: it is changed,
    // so not a dependent, and the index learns it before the graph is read.
    p.write(
        ".claude/agents/newcomer.md",
        "# Newcomer\n\nUses alpha-gate too.\n",
    );
    let l1 = impact(&p, &[".claude/agents/newcomer.md", SKILL]);
    assert_eq!(l1.files_changed, 2);
    assert_eq!(l1.confidence, "high", "{:?}", l1.notes);
    let skill = l1
        .impacts
        .iter()
        .find(|i| i.changed_file.ends_with(SKILL))
        .unwrap_or_else(|| panic!("no skill impact: {l1:?}"));
    assert!(skill
        .dependents
        .iter()
        .all(|d| !d.file.ends_with("newcomer.md")));
}

#[test]
fn deleted_file_keeps_its_dependents_from_before_the_refresh() {
    let p = chain();
    std::fs::remove_file(p.path(".claude/agents/courier.md")).unwrap_or_else(|e| panic!("rm: {e}"));
    let l1 = impact(&p, &[".claude/agents/courier.md"]);
    let direct: Vec<&str> = l1.impacts[0]
        .dependents
        .iter()
        .filter(|d| d.kind == "DIRECT")
        .filter_map(|d| d.file.rsplit('/').next())
        .collect();
    assert_eq!(direct, vec!["auditor.md", "dispatcher.md"]);
    assert_eq!(l1.status, "complete");
    assert!(
        l1.notes.iter().any(|n| n.contains("deleted")),
        "{:?}",
        l1.notes
    );
}

#[test]
fn deleted_file_survives_the_live_scan_fallback() {
    let p = chain();
    std::fs::remove_file(p.path(".claude/agents/courier.md")).unwrap_or_else(|e| panic!("rm: {e}"));
    // CLAUDE.md (TRANSITIVE via dispatcher.md) changed after indexing: the answer needs a live
    // scan, which cannot resolve mentions of a deleted file; the edges read before the refresh
    // still count.
    p.write(
        "CLAUDE.md",
        "# Project\n\nAsk the dispatcher agent first.\n",
    );
    let l1 = impact(&p, &[".claude/agents/courier.md"]);
    assert_eq!(l1.confidence, "medium", "{:?}", l1.notes);
    let files: Vec<&str> = l1.impacts[0]
        .dependents
        .iter()
        .filter_map(|d| d.file.rsplit('/').next())
        .collect();
    assert!(files.contains(&"dispatcher.md"), "{files:?}");
    assert!(files.contains(&"auditor.md"), "{files:?}");
    assert!(files.contains(&"CLAUDE.md"), "{files:?}");
}

#[test]
fn limits_cut_rows_and_say_so() {
    let p = chain();
    p.write(".src/config.yaml", "impact:\n  max_direct_per_file: 1\n");
    let l1 = impact(&p, &[SKILL]);
    assert_eq!(l1.impacts[0].dependent_count, 1);
    assert_eq!(l1.impacts[0].dependents.len(), 1);
    assert_eq!(
        (l1.status.as_str(), l1.confidence.as_str()),
        ("partial", "low")
    );
    assert!(l1.cascade_recommended);
    assert!(
        l1.notes
            .iter()
            .any(|n| n.contains("max_direct_per_file") && n.contains("courier.md")),
        "{:?}",
        l1.notes
    );
    assert_valid(&p, &l1);

    p.write(".src/config.yaml", "impact:\n  max_changed_files: 1\n");
    let l1 = impact(&p, &[SKILL, ".claude/agents/courier.md"]);
    assert_eq!(l1.files_changed, 2);
    assert_eq!(l1.impacts.len(), 1);
    assert_eq!(l1.status, "partial");
    assert!(
        l1.notes.iter().any(|n| n.contains("max_changed_files")),
        "{:?}",
        l1.notes
    );
}

#[test]
fn hubs_are_called_out() {
    let p = chain();
    p.write(".src/config.yaml", "impact:\n  hub_threshold: 2\n");
    let l1 = impact(&p, &[SKILL]);
    let hubs: Vec<(String, u64)> = l1
        .hubs
        .iter()
        .map(|h| {
            (
                h.file.rsplit('/').next().unwrap_or("").to_string(),
                h.dependents,
            )
        })
        .collect();
    assert!(hubs.contains(&("SKILL.md".to_string(), 2)), "{hubs:?}");
    assert!(hubs.contains(&("courier.md".to_string(), 2)), "{hubs:?}");
    let md = stdout_of(p.src().args(["impact", SKILL, "--format", "md"]));
    assert!(md.contains("> **Hub:** mentioned by 2 files"), "{md}");
}

#[test]
fn bad_paths_are_reported_and_skip_when_nothing_is_left() {
    let p = chain();
    // A path outside the root is named and skipped.
    let out = p
        .src()
        .args(["impact", "/etc/hostname", "--format", "json"])
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("/etc/hostname") && stderr.contains("outside the root"),
        "{stderr}"
    );
    let l1: ImpactL1 =
        serde_json::from_slice(&out.get_output().stdout).unwrap_or_else(|e| panic!("json: {e}"));
    assert_eq!(l1.status, "skipped");
    assert!(!l1.cascade_recommended);
    assert_valid(&p, &l1);

    // A file argument that names nothing is a usage error (exit 2), and no run is stored.
    let runs_before =
        stdout_of(
            p.src()
                .args(["query", "--sql", "SELECT count(*) FROM impact_runs"]),
        );
    let out = p
        .src()
        .args(["impact", SKILL, "no/such/file.md", "--format", "json"])
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no/such/file.md: no such file"), "{err}");
    let runs_after =
        stdout_of(
            p.src()
                .args(["query", "--sql", "SELECT count(*) FROM impact_runs"]),
        );
    assert_eq!(runs_before, runs_after);
    // A directory says it is one.
    let out = p
        .src()
        .args(["impact", ".claude"])
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a directory"));

    // A good path alongside one the index knows nothing of (README.md exists but is out of
    // scope): analysed, the other named.
    let l1 = impact(&p, &[SKILL, "README.md"]);
    assert_eq!(l1.status, "complete");
    assert_eq!(l1.files_changed, 2);
    assert_eq!(l1.impacts.len(), 1);
    assert!(
        l1.notes
            .iter()
            .any(|n| n.contains("not in the index") && n.contains("README.md")),
        "{:?}",
        l1.notes
    );
}

#[test]
fn unknown_session_is_skipped_with_a_message() {
    let p = chain();
    let out = p
        .src()
        .args(["impact", "--session", "nope-123", "--format", "json"])
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("nope-123") && stderr.contains("no recorded events"),
        "{stderr}"
    );
    let l1: ImpactL1 =
        serde_json::from_slice(&out.get_output().stdout).unwrap_or_else(|e| panic!("json: {e}"));
    assert_eq!(l1.status, "skipped");
}

#[test]
fn session_events_are_the_manifest() {
    let p = chain();
    let db = p.path(".src/src.db");
    let conn = rusqlite::Connection::open(&db).unwrap_or_else(|e| panic!("db: {e}"));
    let abs = format!("{}/{SKILL}", canon(&p));
    for tool in ["Edit", "Write"] {
        conn.execute(
            "INSERT INTO events(session_id, tool_name, abs_path, path, ts) VALUES ('s-1', ?1, ?2, ?3, '2026-01-01T00:00:00+00:00')",
            [tool, abs.as_str(), SKILL],
        )
        .unwrap_or_else(|e| panic!("insert: {e}"));
    }
    drop(conn);
    let l1 = impact(&p, &["--session", "s-1"]);
    assert_eq!(l1.files_changed, 1);
    assert_eq!(l1.impacts[0].dependent_count, 3);
}

#[test]
fn session_recorded_by_the_real_hook() {
    let p = chain();
    let root = canon(&p);
    for (i, file) in [SKILL, ".claude/agents/idle.md", SKILL].iter().enumerate() {
        let payload = serde_json::json!({
            "session_id": "hook-s",
            "hook_event_name": "PostToolUse",
            "tool_name": "Edit",
            "tool_input": {"file_path": format!("{root}/{file}")},
            "tool_use_id": format!("t{i}"),
            "cwd": root,
        });
        src()
            .current_dir(p.root())
            .env("CLAUDE_PROJECT_DIR", p.root())
            .args(["hook", "post-tool-use"])
            .write_stdin(payload.to_string())
            .assert()
            .success();
    }
    let l1 = impact(&p, &["--session", "hook-s"]);
    assert_eq!(l1.files_changed, 2);
    let counts: Vec<(String, u64)> = l1
        .impacts
        .iter()
        .map(|i| {
            (
                i.changed_file.trim_start_matches(&root).to_string(),
                i.dependent_count,
            )
        })
        .collect();
    assert_eq!(
        counts,
        vec![
            ("/.claude/agents/idle.md".to_string(), 0),
            (format!("/{SKILL}"), 3)
        ]
    );
    assert_valid(&p, &l1);
}

#[test]
fn bad_git_revision_is_a_clear_usage_error() {
    let p = chain();
    let _ = std::fs::remove_dir_all(p.path(".git"));
    git(p.root(), &["init", "-q"]);
    let out = p
        .src()
        .args(["impact", "--git-diff", "no-such-rev"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("no-such-rev") && stderr.contains("git diff"),
        "{stderr}"
    );
}

#[test]
fn git_diff_and_stdin_name_the_changed_files() {
    let p = chain();
    let _ = std::fs::remove_dir_all(p.path(".git"));
    git(p.root(), &["init", "-q"]);
    git(p.root(), &["add", "-A"]);
    git(
        p.root(),
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "base",
        ],
    );
    p.write(SKILL, "# Alpha gate\n\nChecks a release twice.\n");
    // Untracked files count as changed (a new file is a change); ignored ones do not.
    p.write(".claude/agents/fresh.md", "# Fresh\n\nNew agent.\n");
    p.write(".gitignore", ".src/\n.claude/agents/ignored.md\n");
    p.write(".claude/agents/ignored.md", "# Ignored\n");
    let l1 = impact(&p, &["--git-diff", "HEAD"]);
    let changed: Vec<&str> = l1.impacts.iter().map(|i| i.changed_file.as_str()).collect();
    let root = canon(&p);
    assert_eq!(
        changed,
        vec![
            format!("{root}/.claude/agents/fresh.md"),
            format!("{root}/{SKILL}")
        ]
    );

    let out = p
        .src()
        .args(["impact", "-", "--format", "json"])
        .write_stdin(format!("{SKILL}\n\n"))
        .assert()
        .success();
    let l1: ImpactL1 =
        serde_json::from_slice(&out.get_output().stdout).unwrap_or_else(|e| panic!("json: {e}"));
    assert_eq!(l1.impacts.len(), 1);
    assert_eq!(l1.impacts[0].dependent_count, 3);
}

#[test]
fn runs_are_stored_and_shown_again() {
    let p = chain();
    let l2 = p.path("report.md");
    let yaml = stdout_of(p.src().args(["impact", SKILL, "--l2"]).arg(&l2));
    let l1: ImpactL1 = serde_yaml::from_str(&yaml).unwrap_or_else(|e| panic!("yaml: {e}"));
    let id = l1
        .impact_id
        .unwrap_or_else(|| panic!("no impact_id in {yaml}"));
    let again = stdout_of(p.src().args(["impact", "show", &id.to_string()]));
    assert_eq!(again, yaml);
    let md = stdout_of(
        p.src()
            .args(["impact", "show", &id.to_string(), "--format", "md"]),
    );
    let written = std::fs::read_to_string(&l2).unwrap_or_else(|e| panic!("read l2: {e}"));
    assert_eq!(md, written);
    assert!(md.starts_with("# Execution Impact Analysis Report"));
    p.src().args(["impact", "show", "999"]).assert().code(2);
    p.src().arg("impact").assert().code(2);
}

#[test]
fn snapshots_of_yaml_json_and_md() {
    let p = chain();
    let root = canon(&p);
    let redact = |s: String| s.replace(&root, "[ROOT]");
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for (fmt, name) in [
            ("yaml", "impact__chain_yaml"),
            ("json", "impact__chain_json"),
            ("md", "impact__chain_md"),
        ] {
            let out = stdout_of(p.src().args(["impact", SKILL, "--format", fmt]));
            if fmt == "yaml" {
                // The YAML round-trips into the seed's schema.
                let l1: ImpactL1 =
                    serde_yaml::from_str(&out).unwrap_or_else(|e| panic!("yaml: {e}"));
                assert_eq!(serde_yaml::to_string(&l1).unwrap_or_default(), out);
            }
            insta::assert_snapshot!(name, redact(out));
        }
    });
}

#[test]
fn skill_change_in_claude_tree_has_a_direct_dependent() {
    let tree = fixtures().join("claude-tree");
    if !tree.exists() {
        panic!("fixtures/claude-tree is missing (merge main)");
    }
    let p = Project::from_fixture("claude-tree");
    p.src().arg("index").assert().success();
    let skills = p.path(".claude/skills");
    let mut any = false;
    for entry in std::fs::read_dir(&skills).unwrap_or_else(|e| panic!("read skills: {e}")) {
        let skill = entry
            .unwrap_or_else(|e| panic!("entry: {e}"))
            .path()
            .join("SKILL.md");
        if !skill.exists() {
            continue;
        }
        let l1 = impact(&p, &[skill.to_str().unwrap_or_default()]);
        assert_valid(&p, &l1);
        any |= l1.impacts[0].dependents.iter().any(|d| d.kind == "DIRECT");
    }
    assert!(any, "no SKILL.md in the tree has a DIRECT dependent");
}

#[test]
fn validator_reports_each_error_code() {
    let dir = fixtures().join("impact-l1");
    for (file, code) in [
        ("e_parse.yaml", "E_PARSE"),
        ("e_missing_field.yaml", "E_MISSING_FIELD"),
        ("e_enum.yaml", "E_ENUM"),
        ("e_type.yaml", "E_TYPE"),
        ("e_count_mismatch.yaml", "E_COUNT_MISMATCH"),
        ("e_hop_type.yaml", "E_HOP_TYPE"),
        ("e_cascade_rule.yaml", "E_CASCADE_RULE"),
    ] {
        let out = src()
            .args(["validate", "impact", "--json"])
            .arg(dir.join(file))
            .assert()
            .code(1);
        let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout)
            .unwrap_or_else(|e| panic!("{file}: json: {e}"));
        assert_eq!(v["valid"], false, "{file}");
        let codes: Vec<&str> = v["errors"]
            .as_array()
            .map(|a| a.iter().filter_map(|e| e["code"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(codes, vec![code], "{file}");
    }
}

#[test]
fn validator_accepts_the_valid_document_and_reads_text() {
    let valid = fixtures().join("impact-l1/valid.yaml");
    let out = src()
        .args(["validate", "impact", "--json"])
        .arg(&valid)
        .assert()
        .code(0);
    let v: serde_json::Value =
        serde_json::from_slice(&out.get_output().stdout).unwrap_or_else(|e| panic!("json: {e}"));
    assert_eq!(v["valid"], true);
    assert_eq!(v["errors"], serde_json::json!([]));
    let text = stdout_of(src().args(["validate", "impact"]).arg(&valid));
    assert!(text.contains("valid (0 error(s)"), "{text}");
    let bad = fixtures().join("impact-l1/e_hop_type.yaml");
    let out = src()
        .args(["validate", "impact"])
        .arg(&bad)
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        text.contains("error E_HOP_TYPE at impacts[0].dependents[1].hop_count"),
        "{text}"
    );
    src()
        .args(["validate", "impact", "/no/such/file.yaml"])
        .assert()
        .code(2);
}

fn git(dir: &Path, args: &[&str]) {
    let ok = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .status()
        .unwrap_or_else(|e| panic!("git: {e}"))
        .success();
    assert!(ok, "git {args:?} failed");
}

#[test]
fn session_latest_is_the_session_of_the_newest_event() {
    let p = crate::util::Project::from_fixture("claude-tree");
    p.src().arg("index").assert().success();
    p.src()
        .args(["impact", "--session", "latest"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "no events have been recorded yet",
        ));
    for (session, rel) in [
        ("older", ".claude/agents/analyst.md"),
        ("newer", ".claude/skills/self-improve/SKILL.md"),
    ] {
        let abs = p.path(rel);
        let payload = serde_json::json!({"session_id": session, "tool_name": "Edit",
            "tool_input": {"file_path": abs}, "tool_use_id": format!("t-{session}")});
        p.src()
            .env("CLAUDE_PROJECT_DIR", p.root())
            .args(["hook", "post-tool-use"])
            .write_stdin(payload.to_string())
            .assert()
            .success();
    }
    let out =
        crate::util::stdout_of(
            p.src()
                .args(["impact", "--session", "latest", "--format", "json"]),
        );
    let l1: serde_json::Value = serde_json::from_str(&out).unwrap_or_default();
    let changed = l1["impacts"][0]["changed_file"]
        .as_str()
        .unwrap_or_default();
    assert!(
        changed.ends_with(".claude/skills/self-improve/SKILL.md"),
        "{out}"
    );
    assert_eq!(l1["files_changed"], 1);
}
