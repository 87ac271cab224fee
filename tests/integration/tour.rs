//! The agent-facing surface: `src tour`, `src init --claude` and the seed's done definition
//! (001 §7B integration rows that need no live LLM, §7C non-regression), each as a test that
//! runs the real binary on a copy of the sample.

use serde_json::Value;

use crate::util::{stdout_of, Project};

const SESSION: &str = "done-def-session";

/// Feeds the recorder a PostToolUse payload for `rel` as an implementer subagent would.
fn record(p: &Project, rel: &str, tool: &str, n: u32) {
    let abs = p.path(rel);
    let payload = serde_json::json!({
        "session_id": SESSION,
        "hook_event_name": "PostToolUse",
        "tool_name": tool,
        "tool_input": {"file_path": abs},
        "tool_response": {"filePath": abs},
        "tool_use_id": format!("toolu_{n}"),
        "agent_id": "agent-1",
        "agent_type": "implementer",
        "cwd": p.root(),
    });
    p.src()
        .env("CLAUDE_PROJECT_DIR", p.root())
        .args(["hook", "post-tool-use"])
        .write_stdin(payload.to_string())
        .assert()
        .success()
        .stdout("");
}

fn edit(p: &Project, rel: &str, n: u32) {
    let old = std::fs::read_to_string(p.path(rel)).unwrap_or_default();
    p.write(rel, &format!("{old}\nedited {n}\n"));
    record(p, rel, "Edit", n);
}

fn indexed_sample() -> Project {
    let p = Project::from_fixture("claude-tree");
    p.src().arg("index").assert().success();
    p
}

fn yaml(text: &str) -> Value {
    serde_yaml::from_str(text).unwrap_or_else(|e| panic!("not YAML ({e}):\n{text}"))
}

#[test]
fn tour_runs_the_whole_flow_to_convergence() {
    let out = stdout_of(crate::util::src().arg("tour"));
    for expected in [
        "SRC IMPACT ALERT: 1 files changed, 1 potential dependents detected.",
        "cascade_recommended: true",
        "status: converged",
        "# Codebase Dependency Map",
        "flowchart",
    ] {
        assert!(
            out.contains(expected),
            "tour output lacks {expected:?}:\n{out}"
        );
    }
}

// --- seed 001 §7B, one test per row that runs without a live LLM ---

#[test]
fn done_7b_hook_fires_on_edit_and_write() {
    let p = indexed_sample();
    edit(&p, ".claude/agents/implementer.md", 1);
    p.write(".claude/skills/self-improve/notes.md", "new file\n");
    record(&p, ".claude/skills/self-improve/notes.md", "Write", 2);
    let events = stdout_of(p.src().args(["query", "events", "--format", "tsv"]));
    assert!(
        events.contains("Edit") && events.contains(".claude/agents/implementer.md"),
        "{events}"
    );
    assert!(
        events.contains("Write") && events.contains(".claude/skills/self-improve/notes.md"),
        "{events}"
    );
}

#[test]
fn done_7b_subagent_stop_produces_the_alert() {
    let p = indexed_sample();
    p.write(".src/config.yaml", "alerts:\n  delivery: subagent-stop\n");
    edit(&p, ".claude/skills/execution-code/SKILL.md", 1);
    let stop = serde_json::json!({"session_id": SESSION, "hook_event_name": "SubagentStop",
        "agent_id": "agent-1", "agent_type": "implementer", "stop_hook_active": false});
    let out = stdout_of(
        p.src()
            .env("CLAUDE_PROJECT_DIR", p.root())
            .args(["hook", "subagent-stop"])
            .write_stdin(stop.to_string()),
    );
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let text = v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default();
    assert!(
        text.starts_with("SRC IMPACT ALERT: 1 files changed,"),
        "{text}"
    );
    assert!(text.chars().count() <= 500, "{text}");
}

#[test]
fn done_7b_impact_finds_a_direct_dependent_of_a_changed_skill() {
    let p = indexed_sample();
    edit(&p, ".claude/skills/execution-review/SKILL.md", 1);
    let l1 = yaml(&stdout_of(p.src().args(["impact", "--session", SESSION])));
    let deps = l1["impacts"][0]["dependents"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(deps.iter().any(|d| d["type"] == "DIRECT"), "{l1:#?}");
}

#[test]
fn done_7b_cascade_targets_the_inconsistent_file_with_its_evidence() {
    let p = indexed_sample();
    // The known inconsistency: draft-notes.md names a skill whose file just changed.
    edit(&p, ".claude/skills/changelog-draft/SKILL.md", 1);
    let l1 = yaml(&stdout_of(p.src().args(["impact", "--session", SESSION])));
    let id = l1["impact_id"].as_i64().unwrap_or_default().to_string();
    let c = yaml(&stdout_of(p.src().args([
        "cascade",
        "start",
        "--impact",
        &id,
        "--session",
        SESSION,
    ])));
    let target = &c["current"]["groups"][0]["targets"][0];
    assert_eq!(target["file"], ".claude/commands/draft-notes.md", "{c:#?}");
    let evidence = target["update_for"][0]["evidence"]
        .as_str()
        .unwrap_or_default();
    assert!(evidence.contains(":4:Invoke changelog-draft"), "{evidence}");
}

#[test]
fn done_7b_convergence_with_no_downstream_impact() {
    let p = indexed_sample();
    edit(&p, ".claude/skills/changelog-draft/SKILL.md", 1);
    let l1 = yaml(&stdout_of(p.src().args(["impact", "--session", SESSION])));
    let id = l1["impact_id"].as_i64().unwrap_or_default().to_string();
    p.src()
        .args(["cascade", "start", "--impact", &id, "--session", SESSION])
        .assert()
        .success();
    edit(&p, ".claude/commands/draft-notes.md", 2);
    let c = yaml(&stdout_of(p.src().args([
        "cascade",
        "check",
        "--session",
        SESSION,
    ])));
    assert_eq!(c["status"], "converged", "{c:#?}");
    assert_eq!(c["convergence"], true);
    assert_eq!(c["iterations"], 1);
}

#[test]
fn done_7b_non_convergence_is_handled_after_three_iterations() {
    let p = Project::empty();
    // A chain: each file names the next one's stem, so every update exposes a new dependent.
    for i in 1..=6 {
        let next = if i < 6 {
            format!("Uses chainlink-{}.\n", i + 1)
        } else {
            "End.\n".into()
        };
        p.write(&format!(".claude/agents/chainlink-{i}.md"), &next);
    }
    p.src().arg("index").assert().success();
    // chainlink-6 changes; chainlink-5 names it, chainlink-4 names 5, and so on.
    edit(&p, ".claude/agents/chainlink-6.md", 1);
    let l1 = yaml(&stdout_of(p.src().args(["impact", "--session", SESSION])));
    let id = l1["impact_id"].as_i64().unwrap_or_default().to_string();
    let mut c = yaml(&stdout_of(p.src().args([
        "cascade",
        "start",
        "--impact",
        &id,
        "--session",
        SESSION,
    ])));
    let mut n = 10;
    while c["status"] == "active" {
        let targets: Vec<String> = c["current"]["groups"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|g| g["targets"].as_array().cloned().unwrap_or_default())
            .filter_map(|t| t["file"].as_str().map(String::from))
            .collect();
        for t in targets {
            n += 1;
            edit(&p, &t, n);
        }
        c = yaml(&stdout_of(p.src().args([
            "cascade",
            "check",
            "--session",
            SESSION,
        ])));
    }
    assert_eq!(c["status"], "partial", "{c:#?}");
    assert_eq!(c["convergence"], false);
    assert_eq!(c["iterations"], 3);
    let warnings = serde_json::to_string(&c["warnings"]).unwrap_or_default();
    assert!(
        warnings.contains("chainlink-2"),
        "warnings name the unresolved file: {warnings}"
    );
}

#[test]
fn done_7b_map_has_more_than_50_entries() {
    let p = indexed_sample();
    let map = stdout_of(
        p.src()
            .args(["export-map", "--out", "-", "--max-lines", "0"]),
    );
    let entries = map.lines().filter(|l| l.starts_with("## ")).count();
    assert!(entries > 50, "{entries} entries");
    assert!(
        map.contains(&format!("<!-- Entry count: {entries} -->")),
        "{map}"
    );
}

#[test]
fn done_7b_degraded_mode_reports_medium_confidence() {
    let p = indexed_sample();
    edit(&p, ".claude/skills/changelog-draft/SKILL.md", 1);
    let full = yaml(&stdout_of(
        p.src()
            .args(["impact", ".claude/skills/changelog-draft/SKILL.md"]),
    ));
    std::fs::remove_file(p.path(".src/src.db")).unwrap_or_else(|e| panic!("{e}"));
    let degraded = yaml(&stdout_of(
        p.src()
            .args(["impact", ".claude/skills/changelog-draft/SKILL.md"]),
    ));
    assert_eq!(full["confidence"], "high");
    assert_eq!(degraded["confidence"], "medium", "{degraded:#?}");
    assert_eq!(degraded["degradation_level"], "degraded");
    let files = |v: &Value| -> Vec<String> {
        v["impacts"][0]["dependents"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|d| d["file"].as_str().map(String::from))
            .collect()
    };
    assert_eq!(files(&full), files(&degraded));
}

// --- setup and seed 001 §7C non-regression ---

#[test]
fn setup_installs_everything_keeps_other_hooks_and_uninstalls_exactly() {
    let p = Project::from_fixture("claude-tree");
    let settings_before =
        std::fs::read_to_string(p.path(".claude/settings.json")).unwrap_or_default();
    let existing_skill =
        std::fs::read_to_string(p.path(".claude/skills/execution-impact/SKILL.md"))
            .unwrap_or_default();
    let out = stdout_of(p.src().args(["init", "--claude"]));
    assert!(out.contains("undo with:"), "{out}");

    let after: Value = serde_json::from_str(
        &std::fs::read_to_string(p.path(".claude/settings.json")).unwrap_or_default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let before: Value = serde_json::from_str(&settings_before).unwrap_or_else(|e| panic!("{e}"));
    for event in ["SubagentStart", "PreCompact", "SessionStart"] {
        assert_eq!(
            after["hooks"][event], before["hooks"][event],
            "{event} changed"
        );
    }
    let text = serde_json::to_string(&after).unwrap_or_default();
    assert!(
        text.contains("hook post-tool-use") && text.contains("hook subagent-stop"),
        "{text}"
    );
    // An existing skill of the same name is kept; the others are written.
    assert_eq!(
        std::fs::read_to_string(p.path(".claude/skills/execution-impact/SKILL.md"))
            .unwrap_or_default(),
        existing_skill
    );
    let doctor = stdout_of(p.src().args(["doctor", "--json"]));
    let d: Value = serde_json::from_str(&doctor).unwrap_or_else(|e| panic!("{e}: {doctor}"));
    assert_eq!(d["level"], "full", "{doctor}");

    // Running it again changes nothing.
    let again = stdout_of(p.src().args(["init", "--claude"]));
    assert!(!again.contains("skill: create"), "{again}");

    stdout_of(p.src().args(["init", "--claude", "--uninstall"]));
    let restored: Value = serde_json::from_str(
        &std::fs::read_to_string(p.path(".claude/settings.json")).unwrap_or_default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(restored, before, "uninstall leaves settings.json as it was");
    assert!(
        !p.path(".src").exists(),
        "the state directory setup created is gone"
    );
    assert_eq!(
        std::fs::read_to_string(p.path(".claude/skills/execution-impact/SKILL.md"))
            .unwrap_or_default(),
        existing_skill
    );
}

#[test]
fn setup_writes_the_skills_into_a_bare_project_and_dry_run_writes_nothing() {
    let p = Project::empty();
    p.write(
        ".claude/settings.json",
        "{\"permissions\": {\"allow\": [\"Read\"]}}\n",
    );
    let dry = stdout_of(p.src().args(["init", "--claude", "--dry-run"]));
    assert!(
        dry.contains("would create .claude/skills/manage-codebase/SKILL.md"),
        "{dry}"
    );
    assert!(!p.path(".claude/skills").exists());
    assert!(!p.path(".src").exists());
    stdout_of(p.src().args(["init", "--claude"]));
    for name in ["execution-impact", "execution-cascade", "manage-codebase"] {
        let text = std::fs::read_to_string(p.path(&format!(".claude/skills/{name}/SKILL.md")))
            .unwrap_or_default();
        assert!(
            text.starts_with(&format!("---\nname: {name}\n")),
            "{name}: {text}"
        );
    }
    let settings = std::fs::read_to_string(p.path(".claude/settings.json")).unwrap_or_default();
    assert!(
        settings.contains("\"allow\""),
        "other keys kept: {settings}"
    );
}
