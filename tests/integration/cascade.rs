//! `src cascade` end to end: the real binary on copies of `fixtures/cascade-*`, implementers
//! simulated by writing files and recording the edit the way the PostToolUse hook does (a row
//! in `events`), or with `src cascade record`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

use crate::util::{fixtures, stdout_of, Project};

const SESSION: &str = "sess-cascade-1";

/// A copy of `fixture`, indexed.
fn project(fixture: &str) -> Project {
    let p = Project::from_fixture(fixture);
    p.src().arg("index").assert().success();
    p
}

/// An L1 document from `fixtures/cascade-l1/` (outside the project, so it is never scanned).
fn l1(name: &str) -> PathBuf {
    fixtures().join("cascade-l1").join(name)
}

fn parse(out: &str) -> Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}"))
}

/// `src cascade ARGS --format json`, parsed.
fn cascade(p: &Project, args: &[&str]) -> Value {
    parse(&stdout_of(
        p.src().arg("cascade").args(args).args(["--format", "json"]),
    ))
}

fn start(p: &Project, doc: &str) -> Value {
    let from = l1(doc);
    let from = from.to_str().unwrap_or_else(|| panic!("utf8 path"));
    cascade(p, &["start", "--from", from, "--session", SESSION])
}

/// A PostToolUse or SubagentStop payload as Claude Code sends it, from inside an implementer.
fn payload(p: &Project, event: &str, session: &str, extra: Value) -> String {
    let mut v = serde_json::json!({
        "session_id": session,
        "cwd": p.root().display().to_string(),
        "hook_event_name": event,
        "agent_id": "a1b2c3d",
        "agent_type": "implementer",
    });
    if let (Some(obj), Value::Object(more)) = (v.as_object_mut(), extra) {
        obj.extend(more);
    }
    v.to_string()
}

fn hook(p: &Project, which: &str, stdin: String) -> String {
    crate::util::run_hook(p, which, stdin)
}

static TOOL_USE: AtomicUsize = AtomicUsize::new(0);

/// An implementer edits `rel`: the file changes on disk and the recorder hook gets the
/// PostToolUse payload of the Edit, exactly as in a real session.
fn edit(p: &Project, rel: &str, session: &str) {
    let old = std::fs::read_to_string(p.path(rel)).unwrap_or_default();
    p.write(rel, &format!("{old}\nUpdated by the cascade.\n"));
    let abs = p.path(rel).display().to_string();
    let n = TOOL_USE.fetch_add(1, Ordering::Relaxed);
    let body = payload(
        p,
        "PostToolUse",
        session,
        serde_json::json!({
            "tool_name": "Edit",
            "tool_input": {"file_path": abs, "old_string": "a", "new_string": "b"},
            "tool_response": {"filePath": abs},
            "tool_use_id": format!("toolu_cascade_{n}"),
        }),
    );
    let out = hook(p, "post-tool-use", body);
    assert!(out.is_empty(), "the recorder prints nothing: {out}");
}

fn targets(doc: &Value) -> Vec<String> {
    let mut out: Vec<String> = doc["current"]["groups"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|g| g["targets"].as_array().into_iter().flatten())
        .filter_map(|t| t["file"].as_str().map(str::to_string))
        .collect();
    out.sort();
    out
}

fn warnings(doc: &Value) -> String {
    doc["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect::<Vec<_>>()
        .join("\n")
}

const REVIEWER: &str = ".claude/agents/reviewer.md";

#[test]
fn convergent_in_one_iteration() {
    let p = project("cascade-basic");
    let doc = start(&p, "basic.yaml");
    assert_eq!(doc["status"], "active");
    assert_eq!(targets(&doc), vec![REVIEWER]);
    let target = &doc["current"]["groups"][0]["targets"][0];
    assert_eq!(doc["current"]["groups"][0]["implementer"], "implementer-1");
    assert_eq!(
        target["update_for"][0]["changed_file"],
        ".claude/skills/base/SKILL.md"
    );
    assert_eq!(
        target["update_for"][0]["reference_pattern"],
        "base/SKILL.md"
    );
    assert!(target["update_for"][0]["evidence"]
        .as_str()
        .is_some_and(|e| e.starts_with(".claude/agents/reviewer.md:3:")));

    edit(&p, REVIEWER, SESSION);
    let done = cascade(&p, &["check"]);
    assert_eq!(done["status"], "converged", "{done}");
    assert_eq!(done["convergence"], true);
    assert_eq!(done["iterations"], 1);
    assert_eq!(done["max_iterations"], 3);
    assert_eq!(done["files_updated"], 1);
    assert_eq!(done["files_skipped"], 0);
    assert_eq!(done["iteration_details"][0]["implementers_spawned"], 1);
    assert_eq!(done["iteration_details"][0]["files_changed"], 1);
    assert_eq!(done["iteration_details"][0]["new_impacts_detected"], 0);
    assert_eq!(warnings(&done), "");
    assert_eq!(done["schema_version"], 1);

    // The L1 in the default YAML, and the L2 log.
    let yaml = stdout_of(p.src().args(["cascade", "status"]));
    assert!(yaml.contains("status: converged") && yaml.contains("max_iterations: 3"));
    let md = stdout_of(p.src().args(["cascade", "status", "--format", "md"]));
    assert!(md.contains("## Iteration 1"), "{md}");
    assert!(md.contains("| .claude/agents/reviewer.md | implementer (a1b2c3d) | complete | yes |"));
    assert!(md.contains("Converged after 1 iteration"));
}

#[test]
fn chain_of_five_ends_partial_after_three_iterations() {
    let p = project("cascade-chain");
    let doc = start(&p, "chain.yaml");
    // TRANSITIVE charlie is informational: only delta is a target.
    assert_eq!(targets(&doc), vec![".claude/docs/chain-delta.md"]);
    for (file, next) in [
        ("delta", Some("charlie")),
        ("charlie", Some("bravo")),
        ("bravo", None),
    ] {
        edit(&p, &format!(".claude/docs/chain-{file}.md"), SESSION);
        let doc = cascade(&p, &["check"]);
        match next {
            Some(n) => {
                assert_eq!(doc["status"], "active", "{doc}");
                assert_eq!(targets(&doc), vec![format!(".claude/docs/chain-{n}.md")]);
            }
            None => {
                assert_eq!(doc["status"], "partial", "{doc}");
                assert_eq!(doc["convergence"], false);
                assert_eq!(doc["iterations"], 3);
                assert_eq!(doc["files_updated"], 3);
                let w = warnings(&doc);
                assert!(w.contains("not converged after 3 iterations"), "{w}");
                assert!(w.contains(".claude/docs/chain-alpha.md"), "{w}");
                assert_eq!(doc["iteration_details"][2]["new_impacts_detected"], 1);
            }
        }
    }
    // A finished cascade accepts no more input.
    p.src().args(["cascade", "check"]).assert().failure();
}

#[test]
fn failure_then_retry_success() {
    let p = project("cascade-basic");
    start(&p, "basic.yaml");
    p.src()
        .args(["cascade", "record", REVIEWER, "--status", "failed"])
        .args(["--implementer", "implementer-1", "--session", SESSION])
        .assert()
        .success();
    let doc = cascade(&p, &["check"]);
    assert_eq!(doc["status"], "active");
    assert_eq!(doc["current"]["iteration"], 2);
    assert_eq!(doc["current"]["groups"][0]["targets"][0]["retry"], true);
    // The retry succeeds; this edit was made outside the hooks, so it is recorded explicitly.
    p.write(REVIEWER, "# reviewer agent\n\nFollow base/SKILL.md.\n");
    p.src()
        .args(["cascade", "record", REVIEWER, "--status", "complete"])
        .assert()
        .success();
    let doc = cascade(&p, &["check"]);
    assert_eq!(doc["status"], "converged", "{doc}");
    assert_eq!(doc["iterations"], 2);
    assert_eq!(doc["files_updated"], 1);
    assert_eq!(doc["files_skipped"], 0);
}

#[test]
fn failure_twice_is_skipped() {
    let p = project("cascade-basic");
    start(&p, "basic.yaml");
    for _ in 0..2 {
        p.src()
            .args(["cascade", "record", REVIEWER, "--status", "failed"])
            .assert()
            .success();
        cascade(&p, &["check"]);
    }
    let doc = cascade(&p, &["status"]);
    assert_eq!(doc["files_skipped"], 1);
    assert_eq!(doc["files_updated"], 0);
    assert_eq!(doc["status"], "partial");
    assert_eq!(doc["convergence"], false);
    assert!(warnings(&doc).contains(".claude/agents/reviewer.md failed twice"));
}

#[test]
fn cycle_is_broken_with_a_warning() {
    let p = project("cascade-cycle");
    start(&p, "cycle.yaml");
    edit(&p, ".claude/docs/ping-doc.md", SESSION);
    let doc = cascade(&p, &["check"]);
    assert_eq!(targets(&doc), vec![".claude/docs/pong-doc.md"], "{doc}");
    edit(&p, ".claude/docs/pong-doc.md", SESSION);
    let doc = cascade(&p, &["check"]);
    assert_eq!(doc["status"], "converged", "{doc}");
    assert_eq!(doc["iterations"], 2);
    let w = warnings(&doc);
    assert!(w.contains("cycle: .claude/docs/ping-doc.md"), "{w}");
}

#[test]
fn no_direct_dependents_or_malformed_input_is_skipped() {
    let p = project("cascade-basic");
    let doc = start(&p, "transitive-only.yaml");
    assert_eq!(doc["status"], "skipped");
    assert_eq!(doc["iterations"], 0);
    assert!(warnings(&doc).contains("no DIRECT dependents"));
    // Recorded like any other: status shows it, and it blocks nothing.
    assert_eq!(
        cascade(&p, &["status", "--session", SESSION])["status"],
        "skipped"
    );

    let doc = start(&p, "malformed.yaml");
    assert_eq!(doc["status"], "skipped");
    assert!(warnings(&doc).contains("is not a valid impact L1"));
    assert!(doc["cascade_id"].as_i64() > Some(1));
}

#[test]
fn resumes_in_a_new_process_mid_iteration_two() {
    let p = project("cascade-chain");
    let id = start(&p, "chain.yaml")["cascade_id"].clone();
    edit(&p, ".claude/docs/chain-delta.md", SESSION);
    cascade(&p, &["check"]);
    // Iteration 2 is under way: its implementer has edited its target, nobody checked yet.
    edit(&p, ".claude/docs/chain-charlie.md", SESSION);
    // Each command is a new process: what it sees comes from the database only.
    let doc = cascade(&p, &["status", "--cascade", &id.to_string()]);
    assert_eq!(doc["status"], "active");
    assert_eq!(doc["iterations"], 2);
    assert_eq!(doc["current"]["iteration"], 2);
    assert_eq!(targets(&doc), vec![".claude/docs/chain-charlie.md"]);
    assert_eq!(
        doc["current"]["edited_so_far"][0],
        ".claude/docs/chain-charlie.md"
    );
    assert_eq!(doc["iteration_details"][0]["files_changed"], 1);
    let again = cascade(&p, &["status", "--session", SESSION]);
    assert_eq!(again, doc);
    // And it continues where it was.
    let next = cascade(&p, &["check", "--session", SESSION]);
    assert_eq!(next["current"]["iteration"], 3);
    assert_eq!(targets(&next), vec![".claude/docs/chain-bravo.md"]);
}

#[test]
fn check_without_edits_changes_nothing() {
    let p = project("cascade-basic");
    start(&p, "basic.yaml");
    // An edit in another session is not this cascade's.
    edit(&p, REVIEWER, "some-other-session");
    let before = cascade(&p, &["status"]);
    let doc = cascade(&p, &["check"]);
    assert!(doc["message"]
        .as_str()
        .is_some_and(|m| m.contains("no recorded edits or outcomes")));
    assert_eq!(doc["status"], "active");
    let after = cascade(&p, &["status"]);
    assert_eq!(before, after);
}

#[test]
fn one_active_cascade_per_session() {
    let p = project("cascade-basic");
    let id = start(&p, "basic.yaml")["cascade_id"].clone();
    let from = l1("basic.yaml");
    let out = p
        .src()
        .args(["cascade", "start", "--session", SESSION, "--from"])
        .arg(&from)
        .assert()
        .failure()
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&out);
    assert!(
        err.contains(&format!("cascade {id} is already active")),
        "{err}"
    );
    // Another session may run its own.
    p.src()
        .args(["cascade", "start", "--session", "sess-2", "--from"])
        .arg(&from)
        .assert()
        .success();
}

#[test]
fn non_target_edit_is_warned_not_counted() {
    let p = project("cascade-basic");
    start(&p, "basic.yaml");
    edit(&p, REVIEWER, SESSION);
    edit(&p, ".claude/agents/writer.md", SESSION);
    let doc = cascade(&p, &["check"]);
    assert_eq!(doc["status"], "converged", "{doc}");
    assert_eq!(doc["files_updated"], 1);
    assert_eq!(doc["iteration_details"][0]["files_changed"], 2);
    assert!(warnings(&doc)
        .contains(".claude/agents/writer.md was edited in iteration 1 but was not a target"));
}

#[test]
fn abort_ends_partial() {
    let p = project("cascade-basic");
    start(&p, "basic.yaml");
    let out = stdout_of(p.src().args(["cascade", "abort"]));
    assert!(out.contains("status: partial"), "{out}");
    assert!(out.contains("aborted during iteration 1"), "{out}");
    let err = p
        .src()
        .args(["cascade", "abort"])
        .assert()
        .failure()
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8_lossy(&err).contains("no active cascade"));
}

#[test]
fn seed_l1_with_absolute_paths_is_made_root_relative() {
    let p = project("cascade-basic");
    let root = p.root().display().to_string();
    let doc = format!(
        "domain: execution\nskill: impact\nimpacts:\n  - changed_file: {root}/.claude/skills/base/SKILL.md\n    dependents:\n      - file: {root}/{REVIEWER}\n        type: DIRECT\n        hop_count: 1\n        reference_pattern: base/SKILL.md\n        evidence: \"{root}/{REVIEWER}:3:Follow the output rules in base/SKILL.md\"\n    dependent_count: 1\n"
    );
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let path = dir.path().join("l1.yaml");
    std::fs::write(&path, doc).unwrap_or_else(|e| panic!("write: {e}"));
    let out = stdout_of(
        p.src()
            .args(["cascade", "start", "--format", "json", "--from"])
            .arg(&path),
    );
    let doc = parse(&out);
    assert_eq!(targets(&doc), vec![REVIEWER]);
    assert_eq!(
        doc["current"]["groups"][0]["targets"][0]["update_for"][0]["evidence"],
        format!("{REVIEWER}:3:Follow the output rules in base/SKILL.md")
    );
    // Started without --session: it is the latest active cascade, found without selectors.
    assert_eq!(cascade(&p, &["status"])["cascade_id"], doc["cascade_id"]);
}

#[test]
fn starts_from_a_stored_impact_run() {
    let p = project("cascade-basic");
    let out =
        stdout_of(
            p.src()
                .args(["impact", ".claude/skills/base/SKILL.md", "--format", "json"]),
        );
    let impact = parse(&out);
    let id = impact["impact_id"]
        .as_i64()
        .unwrap_or_else(|| panic!("no impact_id: {out}"));
    let doc = cascade(&p, &["start", "--impact", &id.to_string()]);
    assert_eq!(doc["status"], "active", "{doc}");
    assert_eq!(targets(&doc), vec![REVIEWER]);
    let md = stdout_of(p.src().args(["cascade", "status", "--format", "md"]));
    assert!(md.contains(&format!("- Source: impact {id}")), "{md}");
    // An unknown run is a usage error.
    p.src()
        .args(["cascade", "start", "--impact", "999"])
        .assert()
        .code(2);
}

#[test]
fn subagent_stop_is_suppressed_while_the_cascade_runs() {
    let p = project("cascade-basic");
    p.write(".src/config.yaml", "alerts:\n  delivery: subagent-stop\n");
    start(&p, "basic.yaml");
    edit(&p, REVIEWER, SESSION);
    let out = hook(
        &p,
        "subagent-stop",
        payload(&p, "SubagentStop", SESSION, serde_json::json!({})),
    );
    assert!(
        out.contains("suppressed during active cascade (iteration 1)"),
        "{out}"
    );
    // Once it has converged, alerts are back.
    assert_eq!(cascade(&p, &["check"])["status"], "converged");
    edit(&p, REVIEWER, SESSION);
    let out = hook(
        &p,
        "subagent-stop",
        payload(&p, "SubagentStop", SESSION, serde_json::json!({})),
    );
    assert!(!out.contains("suppressed"), "{out}");
}

#[test]
fn check_builds_the_index_when_there_is_none() {
    // No `src index` first: the check must still see charlie mentioning delta.
    let p = Project::from_fixture("cascade-chain");
    start(&p, "chain.yaml");
    edit(&p, ".claude/docs/chain-delta.md", SESSION);
    let doc = cascade(&p, &["check"]);
    assert_eq!(doc["status"], "active", "{doc}");
    assert_eq!(targets(&doc), vec![".claude/docs/chain-charlie.md"]);
}

#[test]
fn deleted_file_still_has_its_dependents_checked() {
    let p = project("cascade-chain");
    start(&p, "chain.yaml");
    // The implementer removes the target instead of editing it (recorded by the hook as a Write
    // of the path; the file is gone when the check runs).
    edit(&p, ".claude/docs/chain-delta.md", SESSION);
    std::fs::remove_file(p.path(".claude/docs/chain-delta.md"))
        .unwrap_or_else(|e| panic!("rm: {e}"));
    let doc = cascade(&p, &["check"]);
    assert_eq!(
        targets(&doc),
        vec![".claude/docs/chain-charlie.md"],
        "{doc}"
    );
}

/// A database of version 10 (before migration 0011) holding the cascades the old store wrote,
/// from `fixtures/cascade-v10`: after the binary migrates it, `src cascade status` prints exactly
/// what the version-10 binary printed for each of them.
#[test]
fn cascades_of_a_version_10_database_read_the_same_after_migration() {
    let p = Project::from_fixture("cascade-chain");
    let dir = fixtures().join("cascade-v10");
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    {
        std::fs::create_dir_all(p.path(".src")).unwrap_or_else(|e| panic!("mkdir .src: {e}"));
        let conn = rusqlite::Connection::open(p.path(".src/src.db"))
            .unwrap_or_else(|e| panic!("open: {e}"));
        for (num, name, sql) in src_engine::facts::MIGRATIONS.iter().filter(|m| m.0 <= 10) {
            conn.execute_batch(sql)
                .and_then(|()| conn.pragma_update(None, "user_version", num))
                .unwrap_or_else(|e| panic!("migration {num} {name}: {e}"));
        }
        conn.execute_batch(&read("rows.sql"))
            .unwrap_or_else(|e| panic!("rows.sql: {e}"));
    }
    let status = |args: &[&str]| stdout_of(p.src().args(["cascade", "status"]).args(args));
    for id in ["1", "2", "3", "4"] {
        for format in ["yaml", "json", "md"] {
            assert_eq!(
                status(&["--cascade", id, "--format", format]),
                read(&format!("status-{id}.{format}")),
                "cascade {id} as {format}"
            );
        }
    }
    assert_eq!(status(&["--format", "md"]), read("status-latest.md"));
    assert_eq!(
        status(&["--session", "s1", "--format", "json"]),
        read("status-s1.json")
    );
    // The converted active cascade takes new input where it stopped.
    p.src()
        .args(["cascade", "record", ".claude/docs/chain-bravo.md"])
        .args(["--status", "complete", "--session", "s1"])
        .assert()
        .success();
    let doc = cascade(&p, &["status", "--session", "s1"]);
    assert_eq!(
        doc["current"]["recorded_so_far"][2]["file"],
        ".claude/docs/chain-bravo.md"
    );
}
