//! One truth about dependents (issue 14): `dependents`, `impact`, the lead's alert and the
//! cascade's check all ask `graph::dependents::lookup`, so a config changed after indexing
//! (here: `dispatcher.md` excluded from the scope, no re-index) gives the same answer in each.
//! On `fixtures/impact-chain`, `courier.md` is mentioned by `dispatcher.md` and `auditor.md`.

use serde_json::Value;

use crate::util::{stdout_of, Project};

const COURIER: &str = ".claude/agents/courier.md";
const AUDITOR: &str = ".claude/agents/auditor.md";
const DISPATCHER: &str = ".claude/agents/dispatcher.md";
const SKILL: &str = ".claude/skills/alpha-gate/SKILL.md";
const SESSION: &str = "sess-truth-1";

/// impact-chain indexed, then `dispatcher.md` excluded in the config without re-indexing.
fn excluded_after_indexing() -> Project {
    let p = Project::from_fixture("impact-chain");
    p.src().arg("index").assert().success();
    p.write(
        ".src/config.yaml",
        &format!(
            "scope:\n  include: [\".claude/**\", \"/CLAUDE.md\"]\n  exclude: [\"{DISPATCHER}\"]\n"
        ),
    );
    p
}

fn json(out: &str) -> Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}"))
}

/// The implementer edits `rel` (the file changes, the recorder hook sees the Edit).
fn edit(p: &Project, rel: &str, n: u32) {
    let old = std::fs::read_to_string(p.path(rel)).unwrap_or_default();
    p.write(rel, &format!("{old}\nEdited.\n"));
    let abs = p.path(rel).display().to_string();
    let body = serde_json::json!({
        "session_id": SESSION,
        "hook_event_name": "PostToolUse",
        "cwd": p.root().display().to_string(),
        "agent_id": "a1b2c3d",
        "agent_type": "implementer",
        "tool_name": "Edit",
        "tool_input": {"file_path": abs, "old_string": "a", "new_string": "b"},
        "tool_response": {"filePath": abs},
        "tool_use_id": format!("toolu_truth_{n}"),
    });
    hook(p, "post-tool-use", body.to_string());
}

fn hook(p: &Project, which: &str, stdin: String) -> String {
    crate::util::run_hook(p, which, stdin)
}

#[test]
fn dependents_answers_for_the_current_config_and_says_so() {
    let p = excluded_after_indexing();
    edit(&p, COURIER, 1);
    let a = json(&stdout_of(p.src().args([
        "dependents",
        COURIER,
        "--format",
        "json",
    ])));
    let srcs: Vec<&str> = a["direct"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["src"].as_str())
        .collect();
    assert_eq!(srcs, vec![AUDITOR], "{a}");
    assert_eq!(a["index_state"]["state"], "config-changed", "{a}");
    assert_eq!(a["source"], "live-scan", "{a}");
    let notes = a["notes"].to_string();
    assert!(
        notes.contains("configuration or naming rules changed"),
        "{notes}"
    );
    let text = stdout_of(p.src().args(["dependents", COURIER]));
    assert!(!text.contains("complete as of the last scan"), "{text}");
    assert!(!text.contains(DISPATCHER), "{text}");
}

#[test]
fn impact_answers_for_the_current_config() {
    let p = excluded_after_indexing();
    edit(&p, COURIER, 1);
    let l1 = json(&stdout_of(
        p.src().args(["impact", COURIER, "--format", "json"]),
    ));
    let files: Vec<String> = l1["impacts"][0]["dependents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["file"].as_str().map(str::to_string))
        .collect();
    assert!(files.iter().any(|f| f.ends_with(AUDITOR)), "{l1}");
    assert!(!files.iter().any(|f| f.ends_with(DISPATCHER)), "{l1}");
}

#[test]
fn the_alert_answers_for_the_current_config() {
    let p = excluded_after_indexing();
    edit(&p, COURIER, 1);
    let stop = serde_json::json!({
        "session_id": SESSION,
        "hook_event_name": "SubagentStop",
        "cwd": p.root().display().to_string(),
        "agent_id": "a1b2c3d",
        "agent_type": "implementer",
        "stop_hook_active": false,
    });
    hook(&p, "subagent-stop", stop.to_string());
    let conn = rusqlite::Connection::open(p.path(".src/src.db"))
        .unwrap_or_else(|e| panic!("open db: {e}"));
    let text: String = conn
        .query_row(
            "SELECT text FROM alerts WHERE session_id = ?1 ORDER BY id DESC LIMIT 1",
            [SESSION],
            |r| r.get(0),
        )
        .unwrap_or_else(|e| panic!("no alert stored: {e}"));
    assert!(text.contains("auditor.md"), "{text}");
    assert!(!text.contains("dispatcher.md"), "{text}");
}

#[test]
fn the_cascade_check_answers_for_the_current_config() {
    let p = Project::from_fixture("impact-chain");
    p.src().arg("index").assert().success();
    let run = json(&stdout_of(
        p.src().args(["impact", SKILL, "--format", "json"]),
    ));
    let id = run["impact_id"]
        .as_i64()
        .unwrap_or_else(|| panic!("no impact_id: {run}"));
    stdout_of(p.src().args([
        "cascade",
        "start",
        "--impact",
        &id.to_string(),
        "--session",
        SESSION,
    ]));
    p.write(
        ".src/config.yaml",
        &format!(
            "scope:\n  include: [\".claude/**\", \"/CLAUDE.md\"]\n  exclude: [\"{DISPATCHER}\"]\n"
        ),
    );
    // Iteration 1 updates both direct dependents; courier.md's change reaches dispatcher.md
    // only under the old scope.
    edit(&p, COURIER, 1);
    edit(&p, AUDITOR, 2);
    let doc = json(&stdout_of(
        p.src().args(["cascade", "check", "--format", "json"]),
    ));
    let all = doc.to_string();
    assert!(!all.contains("dispatcher.md"), "{doc}");
    assert_eq!(doc["status"], "converged", "{doc}");
}
