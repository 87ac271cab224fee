//! Integration tests for `src index`, `src status` and `src dependents`: the real binary on
//! copies of `fixtures/engine-basic` and on temporary trees.

use std::time::{Duration, SystemTime};

use serde_json::Value;

use crate::util::{stdout_of, Project};

/// Edges as `src -> dst (name:line, resolution)`, read straight from the database.
fn edges(p: &Project) -> Vec<String> {
    let conn = rusqlite::Connection::open(p.path(".src/src.db")).unwrap_or_else(|e| panic!("{e}"));
    let mut stmt = conn
        .prepare(
            "SELECT s.path, d.path, e.name, e.line, e.resolution FROM edges e \
             JOIN files s ON s.id = e.src_id JOIN files d ON d.id = e.dst_id ORDER BY 1, 2, 4, 3",
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let rows = stmt
        .query_map([], |r| {
            Ok(format!(
                "{} -> {} ({}:{}, {})",
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, String>(4)?
            ))
        })
        .unwrap_or_else(|e| panic!("{e}"));
    rows.map(|r| r.unwrap_or_else(|e| panic!("{e}"))).collect()
}

fn json(p: &Project, args: &[&str]) -> Value {
    let out = stdout_of(p.src().args(args));
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// Sets a distinct mtime so a same-size edit within one clock tick is still seen.
fn bump_mtime(p: &Project, rel: &str, secs: u64) {
    let f = std::fs::File::options()
        .write(true)
        .open(p.path(rel))
        .unwrap_or_else(|e| panic!("{e}"));
    f.set_modified(SystemTime::now() + Duration::from_secs(secs))
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn dependents_show_evidence_and_respect_boundaries() {
    let p = Project::from_fixture("engine-basic");
    p.src().arg("index").assert().success();
    let out = stdout_of(
        p.src()
            .args(["dependents", ".claude/agents/implementer.md"]),
    );
    assert!(
        out.contains(".claude/skills/execution-code/SKILL.md:10:1. Spawn the implementer agent"),
        "{out}"
    );
    // `infra-implementer` in review/SKILL.md is not a mention of implementer.
    assert!(!out.contains("review/SKILL.md"), "{out}");
    // infra-implementer.md mentions "implementer" as a word of its own.
    assert!(
        out.contains(".claude/agents/infra-implementer.md:5:"),
        "{out}"
    );
    // The count is of files; each evidence line is a mention.
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("  ")).collect();
    let files: std::collections::BTreeSet<&str> = lines
        .iter()
        .filter_map(|l| l.trim_start().split(':').next())
        .collect();
    assert!(
        lines.len() > files.len(),
        "a file with several mentions: {out}"
    );
    let header = format!(
        ".claude/agents/implementer.md: {} direct dependent(s), {} mention(s)",
        files.len(),
        lines.len()
    );
    assert_eq!(out.lines().next(), Some(header.as_str()), "{out}");
    let abs = p.path(".claude/agents/implementer.md");
    let again = stdout_of(p.src().arg("dependents").arg(&abs));
    assert_eq!(
        out, again,
        "absolute and root-relative FILE give the same answer"
    );
}

#[test]
fn ambiguous_names_resolve_to_the_nearest_or_to_nothing() {
    let p = Project::from_fixture("engine-basic");
    p.src().arg("index").assert().success();
    let e = edges(&p);
    // `references/checklist.md` is a written path: it leads to exactly one file.
    assert!(e.contains(&".claude/skills/review/SKILL.md -> .claude/skills/review/references/checklist.md (checklist.md:8, unique)".to_string()), "{e:#?}");
    assert!(e.contains(&".claude/skills/audit/SKILL.md -> .claude/skills/audit/references/checklist.md (checklist.md:7, nearest)".to_string()), "{e:#?}");
    assert!(
        !e.iter()
            .any(|x| x.starts_with("CLAUDE.md -> ") && x.contains("checklist")),
        "a tie makes no edge: {e:#?}"
    );
    assert!(
        !e.iter()
            .any(|x| x.contains("infra-implementer.md -> .claude/agents/infra-implementer.md")),
        "no self edges"
    );
    assert!(
        !e.iter().any(
            |x| x.contains("references/checklist.md -> .claude/settings.json") && x.contains(":4")
        ),
        "settings.json.bak is not settings.json: {e:#?}"
    );
}

#[test]
fn depth_two_names_the_intermediate() {
    let p = Project::from_fixture("engine-basic");
    p.src().arg("index").assert().success();
    let v = json(
        &p,
        &[
            "dependents",
            ".claude/hooks/guard.sh",
            "--depth",
            "2",
            "--json",
        ],
    );
    assert_eq!(v["source"], "indexed");
    assert_eq!(v["complete"], true);
    let direct: Vec<&str> = v["direct"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["src"].as_str())
        .collect();
    assert!(
        direct.contains(&".claude/skills/execution-code/SKILL.md"),
        "{v}"
    );
    let indirect = v["indirect"].as_array().cloned().unwrap_or_default();
    assert!(
        indirect.iter().any(
            |d| d["src"] == "CLAUDE.md" && d["via"] == ".claude/skills/execution-code/SKILL.md"
        ),
        "{v}"
    );
    assert!(
        indirect
            .iter()
            .all(|d| d["src"] != ".claude/hooks/guard.sh"),
        "FILE itself is no 2-hop dependent"
    );
}

#[test]
fn unindexed_file_is_never_reported_as_having_no_dependents() {
    let p = Project::from_fixture("engine-basic");
    p.src().arg("init").assert().success();
    // A project with no index yet: a live scan answers and says so.
    let v = json(
        &p,
        &["dependents", ".claude/agents/implementer.md", "--json"],
    );
    assert_eq!(v["source"], "live-scan");
    assert!(v["direct"].as_array().is_some_and(|d| !d.is_empty()), "{v}");
    p.src().arg("index").assert().success();
    p.write(".claude/agents/newcomer.md", "new agent\n");
    let out = stdout_of(p.src().args(["dependents", ".claude/agents/newcomer.md"]));
    assert!(out.contains("is not indexed"), "{out}");
    assert!(out.contains("incomplete"), "{out}");
}

#[test]
fn incremental_edit_delete_and_rename_equal_a_full_rebuild() {
    let p = Project::from_fixture("engine-basic");
    p.src().arg("index").assert().success();
    // Edit: a new mention appears.
    p.write(
        ".claude/agents/implementer.md",
        "---\nname: implementer\n---\nFollow execution-code and ask the audit skill.\n",
    );
    bump_mtime(&p, ".claude/agents/implementer.md", 10);
    // Delete: edges into and out of it go.
    std::fs::remove_file(p.path(".claude/hooks/guard.sh")).unwrap_or_else(|e| panic!("{e}"));
    // Rename: same content under a new name.
    std::fs::rename(
        p.path(".claude/skills/audit/references/checklist.md"),
        p.path(".claude/skills/audit/references/audit-list.md"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let r = json(&p, &["index", "--json"]);
    assert_eq!(r["mode"], "incremental");
    assert_eq!(r["renamed"], 1, "{r}");
    assert_eq!(r["removed"], 2, "{r}");
    assert_eq!(r["changed"], 1, "{r}");
    let incremental = edges(&p);
    assert!(incremental
        .iter()
        .any(|e| e.starts_with(".claude/agents/implementer.md -> .claude/skills/audit/SKILL.md")));
    assert!(
        !incremental.iter().any(|e| e.contains("guard")),
        "{incremental:#?}"
    );
    // checklist.md is no longer ambiguous for CLAUDE.md: it now resolves uniquely.
    assert!(
        incremental.iter().any(|e| e
            .starts_with("CLAUDE.md -> .claude/skills/review/references/checklist.md")
            && e.ends_with("unique)")),
        "{incremental:#?}"
    );
    let r = json(&p, &["index", "--full", "--json"]);
    assert_eq!(r["mode"], "full");
    assert_eq!(incremental, edges(&p));
}

#[test]
fn status_recommends_by_share_of_stale_files() {
    let p = Project::empty();
    for i in 0..10 {
        p.write(
            &format!(".claude/agents/agent-{i}.md"),
            &format!("agent {i}\n"),
        );
    }
    p.write(".gitignore", ".claude/agents/ignored.md\n");
    p.write(".claude/agents/ignored.md", "ignored\n");
    p.src().arg("init").assert().success();
    let v = json(&p, &["status", "--json"]);
    assert_eq!(v["recommendation"], "full-regeneration", "{v}");
    p.src().arg("index").assert().success();
    let v = json(&p, &["status", "--json"]);
    assert_eq!(v["recommendation"], "none", "{v}");
    assert_eq!(v["indexed"], 10);
    // An ignored file changing is never stale; a touched but unchanged file is not stale.
    p.write(".claude/agents/ignored.md", "changed\n");
    bump_mtime(&p, ".claude/agents/agent-0.md", 20);
    let v = json(&p, &["status", "--json"]);
    assert_eq!(v["recommendation"], "none", "{v}");
    p.write(".claude/agents/agent-1.md", "edited agent\n");
    p.write(".claude/agents/agent-new.md", "new\n");
    let v = json(&p, &["status", "--json"]);
    assert_eq!(v["recommendation"], "incremental", "{v}");
    assert_eq!(v["stale"], serde_json::json!([".claude/agents/agent-1.md"]));
    assert_eq!(v["new"], serde_json::json!([".claude/agents/agent-new.md"]));
    for i in 2..6 {
        p.write(
            &format!(".claude/agents/agent-{i}.md"),
            "rewritten entirely\n",
        );
    }
    let v = json(&p, &["status", "--json"]);
    assert_eq!(v["recommendation"], "full-regeneration", "{v}");
    let text = stdout_of(p.src().arg("status"));
    assert!(text.contains("recommendation: full-regeneration"), "{text}");
}

#[test]
fn bad_input_is_counted_never_fatal() {
    let p = Project::from_fixture("engine-basic");
    // Invalid UTF-8 still yields mentions.
    std::fs::write(
        p.path(".claude/agents/latin1.md"),
        b"caf\xe9 uses guard.sh \xff\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // Binary content is skipped.
    std::fs::write(p.path(".claude/hooks/blob.bin"), b"\0\0guard.sh")
        .unwrap_or_else(|e| panic!("{e}"));
    // A symlink loop.
    #[cfg(unix)]
    std::os::unix::fs::symlink("..", p.path(".claude/skills/up")).unwrap_or_else(|e| panic!("{e}"));
    // An unreadable file (chmod is no barrier for root: then it is simply read).
    let locked = p.path(".claude/agents/locked.md");
    std::fs::write(&locked, "guard.sh").unwrap_or_else(|e| panic!("{e}"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let unreadable = std::fs::read(&locked).is_err();
    let r = json(&p, &["index", "--json"]);
    assert_eq!(r["skipped"]["binary"], 1, "{r}");
    #[cfg(unix)]
    assert_eq!(r["skipped"]["symlink-loop"], 1, "{r}");
    if unreadable {
        assert_eq!(r["skipped"]["unreadable"], 1, "{r}");
    }
    let e = edges(&p);
    assert!(
        e.iter()
            .any(|x| x.starts_with(".claude/agents/latin1.md -> .claude/hooks/guard.sh")),
        "{e:#?}"
    );
    assert!(!e.iter().any(|x| x.starts_with(".claude/hooks/blob.bin")));
    // Running again changes nothing and reads nothing.
    let r = json(&p, &["index", "--json"]);
    assert_eq!(r["files_read"], 0, "{r}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o644));
    }
}

#[test]
fn corrupt_config_fails_clearly_and_leaves_the_index_alone() {
    let p = Project::from_fixture("engine-basic");
    p.src().arg("index").assert().success();
    let before = edges(&p);
    p.write(".src/config.yaml", "names:\n  min_stem_len: lots\n");
    let out = p
        .src()
        .arg("index")
        .assert()
        .failure()
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&out);
    assert!(err.contains("config.yaml:2:"), "{err}");
    assert_eq!(before, edges(&p));
    // A valid config that changes the naming rules forces a full rebuild, said out loud.
    p.write(".src/config.yaml", "names:\n  min_stem_len: 6\n");
    let r = json(&p, &["index", "--json"]);
    assert_eq!(r["mode"], "full", "{r}");
    assert!(r["notes"].to_string().contains("changed"), "{r}");
    assert!(
        !edges(&p).iter().any(|e| e.contains("(guard:")),
        "stem `guard` is now too short"
    );
}

#[test]
fn state_dir_is_never_scanned_even_with_the_database_elsewhere() {
    let p = Project::empty();
    p.write("docs/a.md", "see b.md\n");
    p.write("docs/b.md", "plain\n");
    p.write(".src/leftover.md", "see b.md\n");
    let elsewhere = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let config = elsewhere.path().join("config.yaml");
    std::fs::write(&config, "scope:\n  include: [\"**/*.md\"]\n").unwrap_or_else(|e| panic!("{e}"));
    let db = elsewhere.path().join("src.db");
    let out = stdout_of(
        p.src()
            .arg("--db")
            .arg(&db)
            .arg("--config")
            .arg(&config)
            .args(["index", "--json"]),
    );
    let r: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r["files_in_scope"], 2, "{r}");
    let out = stdout_of(
        p.src()
            .arg("--db")
            .arg(&db)
            .arg("--config")
            .arg(&config)
            .args(["dependents", "docs/b.md"]),
    );
    assert!(out.contains("docs/a.md:1:see b.md"), "{out}");
    assert!(!out.contains("leftover"), "{out}");
}

#[test]
fn index_prunes_sessions_older_than_the_retention_once_a_day() {
    let p = crate::util::Project::from_fixture("claude-tree");
    let old = (chrono::Local::now() - chrono::Duration::days(40)).format("%Y-%m-%dT%H:%M:%S%:z");
    let new = chrono::Local::now().format("%Y-%m-%dT%H:%M:%S%:z");
    let abs = p.path(".claude/agents/analyst.md");
    p.write(
        "logs/src-changes-old-session.log",
        &format!("{old}\tEdit\t{}\n", abs.display()),
    );
    p.write(
        "logs/src-changes-new-session.log",
        &format!("{new}\tEdit\t{}\n", abs.display()),
    );
    for f in [
        "logs/src-changes-old-session.log",
        "logs/src-changes-new-session.log",
    ] {
        p.src().arg("import-log").arg(p.path(f)).assert().success();
    }
    let count = |p: &crate::util::Project| {
        crate::util::stdout_of(p.src().args([
            "query",
            "--sql",
            "SELECT group_concat(DISTINCT session_id) FROM events",
            "--format",
            "tsv",
        ]))
    };
    assert!(count(&p).contains("old-session"), "{}", count(&p));
    p.src().arg("index").assert().success();
    let after = count(&p);
    assert!(
        !after.contains("old-session") && after.contains("new-session"),
        "{after}"
    );
}

#[test]
fn a_new_file_that_turns_out_binary_is_not_counted_as_added() {
    let p = crate::util::Project::empty();
    p.write(".claude/agents/reader.md", "reads things\n");
    p.write(".claude/agents/blob.md", "text\0with a NUL\n");
    let out = crate::util::stdout_of(p.src().args(["index", "--json"]));
    let r: serde_json::Value = serde_json::from_str(&out).unwrap_or_default();
    assert_eq!(r["added"], 1, "{out}");
    assert_eq!(r["skipped"]["binary"], 1, "{out}");
}
