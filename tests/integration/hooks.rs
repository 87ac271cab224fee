//! Integration tests for the hooks: the recorder on every payload shape, the spill journal under
//! a held lock and under concurrency, subagent-stop and deliver output, `src hooks install`,
//! `src doctor`, `src gc` and `src import-log`, all through the real binary.

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use rusqlite::Connection;
use serde_json::Value;

use crate::util::{fixtures, src, stdout_of, Project};

pub(crate) const SESSION: &str = "9f3c2a61-4b7e-4d2a-b8c1-5e0f7a9d3b42";

/// A payload fixture with `$ROOT` and `$SESSION` filled in.
pub(crate) fn payload(p: &Project, name: &str) -> String {
    let path = fixtures().join("payloads").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.replace("$ROOT", &p.root().display().to_string())
        .replace("$SESSION", SESSION)
}

/// Runs `src hook <which>` as Claude Code does: project in CLAUDE_PROJECT_DIR, payload on stdin.
pub(crate) fn hook(p: &Project, which: &str, stdin: impl Into<Vec<u8>>) -> Output {
    src()
        .current_dir(p.root())
        .env("CLAUDE_PROJECT_DIR", p.root())
        .args(["hook", which])
        .write_stdin(stdin.into())
        .output()
        .unwrap_or_else(|e| panic!("running hook: {e}"))
}

pub(crate) fn db(p: &Project) -> Connection {
    Connection::open(p.path(".src/src.db")).unwrap_or_else(|e| panic!("open db: {e}"))
}

pub(crate) fn count(p: &Project, sql: &str) -> i64 {
    db(p)
        .query_row(sql, [], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// Asserts the output is exactly one JSON object (one line) and returns it.
pub(crate) fn one_object(out: &Output) -> Value {
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 1, "expected one line, got {text:?}");
    let v: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert!(v.is_object(), "{v}");
    if let Some(ctx) = v
        .pointer("/hookSpecificOutput/additionalContext")
        .and_then(Value::as_str)
    {
        assert!(ctx.chars().count() <= 500, "{} chars", ctx.chars().count());
    }
    v
}

pub(crate) fn context(v: &Value) -> Option<String> {
    v.pointer("/hookSpecificOutput/additionalContext")
        .and_then(Value::as_str)
        .map(String::from)
}

#[test]
fn recorder_handles_every_payload_shape_silently() {
    let p = Project::empty();
    // (fixture, recorded?, root-relative path, agent_id)
    let cases: &[(&str, bool, Option<&str>, Option<&str>)] = &[
        (
            "ptu-edit-old.json",
            true,
            Some(".claude/skills/execution-code/SKILL.md"),
            None,
        ),
        (
            "ptu-edit-subagent.json",
            true,
            Some(".claude/agents/implementer.md"),
            Some("aa3301a4901cfde5e"),
        ),
        (
            "ptu-write-create.json",
            true,
            Some(".claude/hooks/new-hook.sh"),
            None,
        ),
        (
            "ptu-write-docs.json",
            true,
            Some(".claude/settings.json"),
            None,
        ),
        (
            "ptu-notebook.json",
            true,
            Some("notebooks/analysis.ipynb"),
            None,
        ),
        (
            "ptu-multiedit.json",
            true,
            Some(".claude/rules/style.md"),
            None,
        ),
        (
            "ptu-response-path-only.json",
            true,
            Some(".claude/skills/manage-skills/SKILL.md"),
            None,
        ),
        ("ptu-failed.json", false, None, None),
        ("ptu-missing-session.json", false, None, None),
        ("ptu-read.json", false, None, None),
    ];
    let mut expected = 0;
    for (name, recorded, path, agent) in cases {
        let out = hook(&p, "post-tool-use", payload(&p, name));
        assert_eq!(out.status.code(), Some(0), "{name}");
        assert!(
            out.stdout.is_empty() && out.stderr.is_empty(),
            "{name}: {out:?}"
        );
        let last: Option<(String, Option<String>)> = db(&p)
            .query_row(
                "SELECT path, agent_id FROM events ORDER BY id DESC LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .ok();
        if *recorded {
            expected += 1;
            let (got_path, got_agent) = last.unwrap_or_else(|| panic!("{name}: no event"));
            assert_eq!(Some(got_path.as_str()), *path, "{name}");
            assert_eq!(got_agent.as_deref(), *agent, "{name}");
        }
        assert_eq!(count(&p, "SELECT count(*) FROM events"), expected, "{name}");
    }
    // Every run is audited, skips included.
    assert_eq!(
        count(
            &p,
            "SELECT count(*) FROM hook_runs WHERE event = 'post-tool-use'"
        ),
        10
    );
    assert_eq!(
        count(
            &p,
            "SELECT count(*) FROM hook_runs WHERE outcome = 'skipped-failed'"
        ),
        1
    );
    // Replaying a call (same tool_use_id) does not record it twice.
    hook(&p, "post-tool-use", payload(&p, "ptu-edit-old.json"));
    assert_eq!(count(&p, "SELECT count(*) FROM events"), expected);
}

#[test]
fn locked_database_spills_within_budget_and_next_command_ingests() {
    let p = Project::empty();
    hook(&p, "post-tool-use", payload(&p, "ptu-edit-old.json"));
    let locker = db(&p);
    locker
        .execute_batch("BEGIN EXCLUSIVE")
        .unwrap_or_else(|e| panic!("lock: {e}"));
    let t = Instant::now();
    let out = hook(&p, "post-tool-use", payload(&p, "ptu-edit-subagent.json"));
    let took = t.elapsed();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    // Budget 250 ms plus process start-up on a busy machine.
    assert!(took < Duration::from_millis(1500), "took {took:?}");
    let spill = std::fs::read_to_string(p.path(".src/spill.jsonl")).unwrap_or_default();
    assert_eq!(spill.lines().count(), 1, "{spill}");
    assert!(spill.contains("toolu_01HkQ8v3ZpXo2mN7rT5yWc9E"));
    locker
        .execute_batch("ROLLBACK")
        .unwrap_or_else(|e| panic!("{e}"));
    drop(locker);
    // Any later command ingests the journal first.
    p.src().args(["gc"]).assert().success();
    assert_eq!(count(&p, "SELECT count(*) FROM events"), 2);
    assert_eq!(
        count(&p, "SELECT count(*) FROM events WHERE source = 'spill'"),
        1
    );
    assert_eq!(
        count(
            &p,
            "SELECT count(*) FROM hook_runs WHERE outcome = 'spilled'"
        ),
        1
    );
    // Ingesting again (the renamed journal is kept for a grace period) adds nothing.
    p.src().args(["gc"]).assert().success();
    assert_eq!(count(&p, "SELECT count(*) FROM events"), 2);
    // `src query events` lists the spilled event once, with the required columns.
    let tsv = crate::util::stdout_of(p.src().args(["query", "events", "--format", "tsv"]));
    let header: Vec<&str> = tsv.lines().next().unwrap_or_default().split('\t').collect();
    for col in ["session_id", "tool_name", "path", "agent_id", "ts"] {
        assert!(header.contains(&col), "{header:?}");
    }
    assert_eq!(
        tsv.matches("toolu_01HkQ8v3ZpXo2mN7rT5yWc9E").count(),
        1,
        "{tsv}"
    );
}

#[test]
fn corrupt_database_spills_too() {
    let p = Project::empty();
    p.write(
        ".src/src.db",
        "this is not a database, just text long enough to be read as a header\n",
    );
    let out = hook(&p, "post-tool-use", payload(&p, "ptu-edit-old.json"));
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    let spill = std::fs::read_to_string(p.path(".src/spill.jsonl")).unwrap_or_default();
    assert_eq!(spill.lines().count(), 1);
}

#[test]
fn concurrent_recorders_lose_nothing_while_indexing() {
    let p = Project::empty();
    for i in 0..50 {
        p.write(
            &format!(".claude/skills/s{i}/SKILL.md"),
            &format!("see s{} and s{}\n", i + 1, i + 2),
        );
    }
    hook(&p, "post-tool-use", payload(&p, "ptu-read.json")); // creates the database
    let root = p.root().to_path_buf();
    let index = src()
        .current_dir(&root)
        .args(["--root"])
        .arg(&root)
        .args(["index", "--full"])
        .timeout(Duration::from_secs(120))
        .output();
    let writers: Vec<_> = (0..32)
        .map(|w| {
            let root = root.clone();
            std::thread::spawn(move || {
                for i in 0..100 {
                    let body = format!(
                        r#"{{"session_id":"conc","tool_name":"Edit","tool_input":{{"file_path":"{}/f{w}.md"}},"tool_use_id":"t{w}-{i}"}}"#,
                        root.display()
                    );
                    let out = src()
                        .current_dir(&root)
                        .env("CLAUDE_PROJECT_DIR", &root)
                        .args(["hook", "post-tool-use"])
                        .write_stdin(body)
                        .output()
                        .unwrap_or_else(|e| panic!("{e}"));
                    assert_eq!(out.status.code(), Some(0));
                    assert!(out.stdout.is_empty() && out.stderr.is_empty());
                }
            })
        })
        .collect();
    for w in writers {
        w.join()
            .unwrap_or_else(|_| panic!("writer thread panicked"));
    }
    let _ = index;
    p.src().args(["gc"]).assert().success();
    assert_eq!(
        count(&p, "SELECT count(*) FROM events WHERE session_id = 'conc'"),
        3200
    );
}

#[test]
fn subagent_stop_filters_and_always_prints_one_object() {
    let p = Project::empty();
    for name in [
        "ss-old.json",
        "ss-implementer.json",
        "ss-empty-type.json",
        "ss-researcher.json",
        "ss-active.json",
        "ss-missing-session.json",
    ] {
        let v = one_object(&hook(&p, "subagent-stop", payload(&p, name)));
        // Lead delivery (the default) never prints context from SubagentStop.
        assert_eq!(v, serde_json::json!({}), "{name}");
    }
    // Stops of other agent types store nothing; stop_hook_active stores nothing.
    // Only the implementer's stop stores its "no changes" note: a stop of unknown type (old
    // clients, internal forks) would only add noise for the lead.
    assert_eq!(count(&p, "SELECT count(*) FROM alerts"), 1);
    assert_eq!(
        count(
            &p,
            "SELECT count(*) FROM hook_runs WHERE event = 'subagent-stop' AND outcome = 'ignored'"
        ),
        1
    );
}

#[test]
fn subagent_stop_delivery_mode_prints_the_seed_json() {
    let p = Project::empty();
    p.write(".src/config.yaml", "alerts:\n  delivery: subagent-stop\n");
    let v = one_object(&hook(
        &p,
        "subagent-stop",
        payload(&p, "ss-implementer.json"),
    ));
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SubagentStop");
    assert_eq!(
        context(&v).as_deref(),
        Some("SRC: No file changes detected.")
    );
    // Only failed edits: the seed's "0 for 0".
    hook(&p, "post-tool-use", payload(&p, "ptu-failed.json"));
    let v = one_object(&hook(
        &p,
        "subagent-stop",
        payload(&p, "ss-implementer.json"),
    ));
    assert_eq!(
        context(&v).as_deref(),
        Some("SRC: 0 impact candidates for 0 changed files.")
    );
    // A loop guard: never feed stop_hook_active.
    let v = one_object(&hook(&p, "subagent-stop", payload(&p, "ss-active.json")));
    assert_eq!(v, serde_json::json!({}));
}

#[test]
fn deliver_prints_pending_once_and_ignores_subagents() {
    let p = Project::empty();
    hook(&p, "subagent-stop", payload(&p, "ss-implementer.json"));
    let inside = one_object(&hook(&p, "deliver", payload(&p, "dl-inside-subagent.json")));
    assert_eq!(inside, serde_json::json!({}));
    let v = one_object(&hook(
        &p,
        "deliver",
        payload(&p, "dl-agent-foreground.json"),
    ));
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "PostToolUse");
    assert_eq!(
        context(&v).as_deref(),
        Some("SRC: No file changes detected.")
    );
    for name in [
        "dl-agent-foreground.json",
        "dl-user-prompt.json",
        "dl-task-background.json",
    ] {
        let again = one_object(&hook(&p, "deliver", payload(&p, name)));
        assert_eq!(again, serde_json::json!({}), "{name}");
    }
    hook(&p, "post-tool-use", payload(&p, "ptu-failed.json"));
    hook(&p, "subagent-stop", payload(&p, "ss-old.json"));
    let v = one_object(&hook(&p, "deliver", payload(&p, "dl-user-prompt.json")));
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "UserPromptSubmit");
    assert_eq!(
        context(&v).as_deref(),
        Some("SRC: 0 impact candidates for 0 changed files.")
    );
}

fn arbitrary_stdin() -> impl Strategy<Value = Vec<u8>> {
    let field = prop_oneof![
        Just("session_id"),
        Just("tool_name"),
        Just("tool_input"),
        Just("tool_response"),
        Just("agent_type"),
        Just("agent_id"),
        Just("stop_hook_active"),
        Just("hook_event_name"),
    ];
    let value = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        ".{0,40}".prop_map(Value::String),
        prop_oneof![
            Just("Edit"),
            Just("Write"),
            Just("Bash"),
            Just("SubagentStop"),
            Just("PostToolUse"),
            Just("PostToolBatch"),
            Just("implementer")
        ]
        .prop_map(|s| Value::String(s.into())),
        ".{0,20}".prop_map(|s| serde_json::json!({"file_path": s, "success": false})),
        (".{0,20}", any::<i64>(), any::<bool>()).prop_map(|(s, n, u)| serde_json::json!(
            {"bashEditDiff": {"files": [{"filePath": s}, 1], "changedFiles": [s, null],
                              "moreFiles": n, "unavailable": u}}
        )),
    ];
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..300),
        proptest::collection::btree_map(field, value, 0..8).prop_map(|m| {
            let obj: serde_json::Map<String, Value> =
                m.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            serde_json::to_vec(&obj).unwrap_or_default()
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20, ..ProptestConfig::default() })]

    #[test]
    fn hooks_survive_arbitrary_stdin(input in arbitrary_stdin()) {
        let p = Project::empty();
        p.write(".src/config.yaml", "alerts:\n  delivery: subagent-stop\n");
        let out = hook(&p, "post-tool-use", input.clone());
        prop_assert_eq!(out.status.code(), Some(0));
        prop_assert!(out.stdout.is_empty() && out.stderr.is_empty());
        for which in ["subagent-stop", "deliver"] {
            let out = hook(&p, which, input.clone());
            one_object(&out);
        }
    }
}

const SEED_SETTINGS: &str = r#"{
  "hooks": {
    "SubagentStart": [{"matcher": "", "hooks": [{"type": "command", "command": "/home/p/.claude/hooks/on-subagent-start.sh", "timeout": 10, "statusMessage": "Injecting team context to new agent"}]}],
    "PreCompact": [{"matcher": "", "hooks": [{"type": "command", "command": "/home/p/.claude/hooks/on-pre-compact.sh", "timeout": 30}]}],
    "SessionStart": [{"matcher": "compact", "hooks": [{"type": "command", "command": "/home/p/.claude/hooks/on-session-compact.sh", "timeout": 15, "once": true}]}]
  },
  "env": {"X": "1"}
}
"#;

#[test]
fn hooks_install_merges_idempotently_and_uninstalls_exactly() {
    let p = Project::empty();
    p.write(".claude/settings.json", SEED_SETTINGS);
    let dry = crate::util::stdout_of(p.src().args(["hooks", "install", "--dry-run"]));
    assert!(dry.contains("would write"), "{dry}");
    assert_eq!(
        std::fs::read_to_string(p.path(".claude/settings.json")).unwrap_or_default(),
        SEED_SETTINGS
    );
    let said = crate::util::stdout_of(p.src().args(["hooks", "install"]));
    let first = std::fs::read_to_string(p.path(".claude/settings.json")).unwrap_or_default();
    // The previous file is kept under the state folder, never as a `.bak` beside it.
    assert!(!p.path(".claude/settings.json.bak").exists());
    let kept = said
        .split("previous file kept as ")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .unwrap_or_else(|| panic!("no backup named: {said}"));
    assert!(kept.contains("/.src/backup/"), "{kept}");
    assert_eq!(
        std::fs::read_to_string(kept).unwrap_or_default(),
        SEED_SETTINGS
    );
    let again = crate::util::stdout_of(p.src().args(["hooks", "install"]));
    assert!(again.contains("up to date"), "{again}");
    assert_eq!(
        std::fs::read_to_string(p.path(".claude/settings.json")).unwrap_or_default(),
        first
    );
    let doc: Value = serde_json::from_str(&first).unwrap_or_default();
    for kept in ["SubagentStart", "PreCompact", "SessionStart"] {
        assert!(doc["hooks"][kept].is_array(), "{kept} lost");
    }
    let rec = &doc["hooks"]["PostToolUse"][0];
    assert_eq!(rec["matcher"], "Edit|Write|MultiEdit|NotebookEdit|Bash");
    assert_eq!(rec["hooks"][0]["timeout"], 5);
    assert!(
        rec["hooks"][0].get("async").is_none(),
        "the recorder must be synchronous"
    );
    let cmd = rec["hooks"][0]["command"].as_str().unwrap_or_default();
    let bin = cmd.split('\'').nth(1).unwrap_or_default();
    assert!(
        Path::new(bin).is_absolute() && Path::new(bin).is_file(),
        "{cmd}"
    );
    assert_eq!(doc["hooks"]["SubagentStop"][0]["matcher"], "implementer");
    // One alert per batch of tool calls: deliver on PostToolBatch (no matcher: it has none).
    let batch = &doc["hooks"]["PostToolBatch"][0];
    assert!(batch.get("matcher").is_none(), "{batch}");
    assert!(batch["hooks"][0]["command"]
        .as_str()
        .is_some_and(|c| c.ends_with("hook deliver")));
    // doctor sees the hooks (no index yet: degraded, non-zero exit).
    let out = p
        .src()
        .args(["doctor", "--json"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let rep: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(rep["level"], "degraded", "{rep}");
    assert_ne!(out.status.code(), Some(0));
    // Uninstall restores the seed's document.
    p.src()
        .args(["hooks", "install", "--uninstall"])
        .assert()
        .success();
    let back: Value = serde_json::from_str(
        &std::fs::read_to_string(p.path(".claude/settings.json")).unwrap_or_default(),
    )
    .unwrap_or_default();
    let seed: Value = serde_json::from_str(SEED_SETTINGS).unwrap_or_default();
    assert_eq!(back, seed);
    let none = p
        .src()
        .args(["doctor", "--json"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let rep: Value = serde_json::from_slice(&none.stdout).unwrap_or_default();
    assert_eq!(rep["level"], "none");
}

#[test]
fn hooks_install_refuses_invalid_json() {
    let p = Project::empty();
    p.write(".claude/settings.json", "{\"hooks\": {,}}");
    p.src()
        .args(["hooks", "install"])
        .assert()
        .failure()
        .stderr(predicates::str::contains("invalid JSON"));
    assert_eq!(
        std::fs::read_to_string(p.path(".claude/settings.json")).unwrap_or_default(),
        "{\"hooks\": {,}}"
    );
    assert!(!p.path(".claude/settings.json.bak").exists());
}

#[test]
fn import_log_reports_malformed_lines_and_is_idempotent() {
    let p = Project::empty();
    let root = p.root().display().to_string();
    p.write(
        "logs/src-changes-abc.log",
        &format!(
            "2026-02-14T15:30:42+09:00\tEdit\t{root}/.claude/a.md\nnot a line\n2026-02-14T15:30:45+09:00\tWrite\t{root}/.claude/b.md\n"
        ),
    );
    let out = p
        .src()
        .args(["import-log", "logs/src-changes-abc.log"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("src-changes-abc.log:2:"),
        "{out:?}"
    );
    assert_eq!(
        count(
            &p,
            "SELECT count(*) FROM events WHERE session_id = 'abc' AND source = 'import'"
        ),
        2
    );
    // Again, as JSON: nothing new, both already present, the bad line counted.
    let again =
        stdout_of(
            p.src()
                .args(["import-log", "logs/src-changes-abc.log", "--format", "json"]),
        );
    let v: Value = serde_json::from_str(&again).unwrap_or_else(|e| panic!("{e}: {again}"));
    assert_eq!(v[0]["imported"], 0, "{v}");
    assert_eq!(v[0]["already_present"], 2, "{v}");
    assert_eq!(v[0]["malformed"], 1, "{v}");
    assert_eq!(v[0]["session"], "abc", "{v}");
    assert_eq!(count(&p, "SELECT count(*) FROM events"), 2);
    p.write("other.log", "");
    p.src().args(["import-log", "other.log"]).assert().code(2);
}

#[test]
fn gc_prunes_old_sessions_only() {
    let p = Project::empty();
    hook(&p, "post-tool-use", payload(&p, "ptu-edit-old.json"));
    db(&p)
        .execute_batch(
            "INSERT INTO events (session_id, tool_name, abs_path, ts) VALUES ('old', 'Edit', '/x', '2020-01-01T00:00:00.000+00:00');",
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let out = crate::util::stdout_of(p.src().args(["gc"]));
    assert!(out.contains("pruned 1 events"), "{out}");
    assert_eq!(count(&p, "SELECT count(*) FROM events"), 1);
}

/// An Edit of `rel` made inside the implementer subagent.
pub(crate) fn edit_payload(p: &Project, rel: &str, tool_use_id: &str) -> String {
    serde_json::json!({
        "session_id": SESSION,
        "hook_event_name": "PostToolUse",
        "cwd": p.root(),
        "agent_id": "aa3301a4901cfde5e",
        "agent_type": "implementer",
        "tool_name": "Edit",
        "tool_input": {"file_path": p.path(rel), "old_string": "a", "new_string": "b"},
        "tool_response": {"filePath": p.path(rel)},
        "tool_use_id": tool_use_id,
    })
    .to_string()
}

/// Dependents of `rel` according to the edge table (the expectation, computed independently).
pub(crate) fn indexed_dependents(p: &Project, rel: &str) -> Vec<String> {
    let conn = db(p);
    let mut stmt = conn
        .prepare(
            "SELECT DISTINCT s.path FROM edges e JOIN files s ON s.id = e.src_id
             JOIN files d ON d.id = e.dst_id WHERE d.path = ?1 AND s.path != ?1 ORDER BY s.path",
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let rows = stmt
        .query_map([rel], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{e}"));
    rows.map(|r| r.unwrap_or_else(|e| panic!("{e}"))).collect()
}

#[test]
fn end_to_end_on_the_claude_tree() {
    let p = Project::from_fixture("claude-tree");
    // Installing edits .claude/settings.json, an indexed file: install first, then index.
    p.src().args(["hooks", "install"]).assert().success();
    p.src().args(["index"]).assert().success();
    // Hooks installed, database current, index fresh: doctor says `full` and exits 0.
    let out = p
        .src()
        .args(["doctor", "--json"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let rep: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(rep["level"], "full", "{rep}");
    assert_eq!(out.status.code(), Some(0), "{rep}");
    let common = ".claude/hooks/hook-common.sh";
    let expected = indexed_dependents(&p, common);
    assert!(expected.len() >= 5, "{expected:?}");
    hook(&p, "post-tool-use", edit_payload(&p, common, "toolu_e2e_1"));
    // The lead-mode stop prints `{}` and stores the alert.
    assert_eq!(
        one_object(&hook(
            &p,
            "subagent-stop",
            payload(&p, "ss-implementer.json")
        )),
        serde_json::json!({})
    );
    let v = one_object(&hook(
        &p,
        "deliver",
        payload(&p, "dl-agent-foreground.json"),
    ));
    let text = context(&v).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "SRC IMPACT ALERT: 1 files changed, {} potential dependents detected.",
            expected.len()
        )
    );
    assert_eq!(lines[1], "Changed: hook-common.sh");
    for hook_file in [
        "on-file-change.sh",
        "on-implementer-done.sh",
        "on-pre-compact.sh",
        "on-session-compact.sh",
        "on-subagent-start.sh",
    ] {
        assert!(
            lines[2].contains(&format!("{hook_file} (refs hook-common.sh)")),
            "{text}"
        );
    }
    assert_eq!(
        lines.last().copied(),
        Some("Action: Consider running /execution-impact for full analysis.")
    );
    // Delivered once.
    assert_eq!(
        one_object(&hook(&p, "deliver", payload(&p, "dl-user-prompt.json"))),
        serde_json::json!({})
    );

    // A second stop does not re-alert the same edit; a later edit of the same file is new.
    hook(&p, "subagent-stop", payload(&p, "ss-implementer.json"));
    let v = one_object(&hook(&p, "deliver", payload(&p, "dl-user-prompt.json")));
    assert_eq!(
        context(&v).as_deref(),
        Some("SRC: No file changes detected.")
    );
    hook(&p, "post-tool-use", edit_payload(&p, common, "toolu_e2e_2"));
    hook(&p, "subagent-stop", payload(&p, "ss-implementer.json"));
    let v = one_object(&hook(&p, "deliver", payload(&p, "dl-user-prompt.json")));
    assert!(context(&v)
        .unwrap_or_default()
        .contains("Changed: hook-common.sh"));

    // A Bash edit has no event: reconcile finds it by stat and records it.
    let target = p.path(".claude/agents/implementer.md");
    let mut body = std::fs::read_to_string(&target).unwrap_or_default();
    body.push_str("\nEdited by a shell command.\n");
    std::fs::write(&target, body).unwrap_or_else(|e| panic!("{e}"));
    hook(&p, "subagent-stop", payload(&p, "ss-implementer.json"));
    assert_eq!(count(&p, "SELECT count(*) FROM events WHERE tool_name = 'Reconcile' AND path = '.claude/agents/implementer.md'"), 1);
    let v = one_object(&hook(&p, "deliver", payload(&p, "dl-user-prompt.json")));
    let text = context(&v).unwrap_or_default();
    assert!(
        text.starts_with("SRC IMPACT ALERT: 1 files changed"),
        "{text}"
    );
    assert!(text.contains("Changed: implementer.md"), "{text}");
}

#[test]
fn debug_timings_go_to_the_named_file_never_to_stderr() {
    // SRC_DEBUG names a file; the stop (which refreshes the index) must stay silent on stderr.
    let p = Project::from_fixture("claude-tree");
    p.src().args(["index"]).assert().success();
    let f = ".claude/hooks/hook-common.sh";
    // The edit changes the file, so the stop has something to refresh.
    let old = std::fs::read_to_string(p.path(f)).unwrap_or_default();
    p.write(f, &format!("{old}\n# edited\n"));
    hook(&p, "post-tool-use", edit_payload(&p, f, "toolu_dbg"));
    let log = p.path("debug.log");
    let out = src()
        .current_dir(p.root())
        .env("CLAUDE_PROJECT_DIR", p.root())
        .env("SRC_DEBUG", &log)
        .args(["hook", "subagent-stop"])
        .write_stdin(payload(&p, "ss-implementer.json"))
        .output()
        .unwrap_or_else(|e| panic!("running hook: {e}"));
    one_object(&out);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    for phase in ["src reconcile", "src index", "analyse", "done"] {
        assert!(text.contains(phase), "no {phase:?} in {text}");
    }
}

#[test]
fn concurrent_stops_report_each_edit_once() {
    let p = Project::from_fixture("claude-tree");
    p.src().args(["index"]).assert().success();
    let files = [
        ".claude/hooks/hook-common.sh",
        ".claude/agents/implementer.md",
        ".claude/skills/execution-code/SKILL.md",
    ];
    for (i, f) in files.iter().enumerate() {
        hook(
            &p,
            "post-tool-use",
            edit_payload(&p, f, &format!("toolu_c{i}")),
        );
    }
    let stops: Vec<_> = (0..3)
        .map(|_| {
            let body = payload(&p, "ss-implementer.json");
            let root = p.root().to_path_buf();
            std::thread::spawn(move || {
                src()
                    .current_dir(&root)
                    .env("CLAUDE_PROJECT_DIR", &root)
                    .args(["hook", "subagent-stop"])
                    .write_stdin(body)
                    .output()
            })
        })
        .collect();
    for s in stops {
        let out = s
            .join()
            .unwrap_or_else(|_| panic!("thread"))
            .unwrap_or_else(|e| panic!("{e}"));
        one_object(&out);
    }
    let conn = db(&p);
    let mut stmt = conn
        .prepare("SELECT changed FROM alerts")
        .unwrap_or_else(|e| panic!("{e}"));
    let mut seen: Vec<String> = Vec::new();
    let rows = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .unwrap_or_else(|e| panic!("{e}"));
    for r in rows {
        let changed: Vec<Value> = serde_json::from_str(&r.unwrap_or_default()).unwrap_or_default();
        seen.extend(
            changed
                .iter()
                .filter_map(|c| c["path"].as_str().map(String::from)),
        );
    }
    seen.sort();
    let mut want: Vec<String> = files.iter().map(|f| f.to_string()).collect();
    want.sort();
    assert_eq!(seen, want, "each edit reported exactly once");
}

#[test]
fn without_an_index_subagent_stop_degrades_to_a_live_scan() {
    let p = Project::from_fixture("claude-tree");
    p.write(".src/config.yaml", "alerts:\n  delivery: subagent-stop\n");
    hook(
        &p,
        "post-tool-use",
        edit_payload(&p, ".claude/hooks/hook-common.sh", "toolu_live"),
    );
    let v = one_object(&hook(
        &p,
        "subagent-stop",
        payload(&p, "ss-implementer.json"),
    ));
    let text = context(&v).unwrap_or_default();
    assert!(
        text.starts_with("SRC IMPACT ALERT: 1 files changed"),
        "{text}"
    );
    assert!(
        text.contains("on-file-change.sh (refs hook-common.sh)"),
        "{text}"
    );
}

#[test]
fn active_cascade_suppresses_the_impact_alert() {
    let p = Project::from_fixture("claude-tree");
    p.src().args(["index"]).assert().success();
    p.write(".src/config.yaml", "alerts:\n  delivery: subagent-stop\n");
    db(&p)
        .execute(
            "INSERT INTO cascades (session_id, state, iteration, source, started_at)
             VALUES (?1, 'active', 2, 'test', '2026-01-01T00:00:00+00:00')",
            [SESSION],
        )
        .unwrap_or_else(|e| panic!("{e}"));
    hook(
        &p,
        "post-tool-use",
        edit_payload(&p, ".claude/hooks/hook-common.sh", "toolu_casc"),
    );
    let v = one_object(&hook(
        &p,
        "subagent-stop",
        payload(&p, "ss-implementer.json"),
    ));
    assert_eq!(
        context(&v).as_deref(),
        Some("SRC: impact alert suppressed during active cascade (iteration 2).")
    );
    assert_eq!(
        count(&p, "SELECT count(*) FROM alerts WHERE kind = 'impact'"),
        0
    );
    // The cascade's own edits are not alerted later either.
    db(&p)
        .execute("UPDATE cascades SET state = 'converged'", [])
        .unwrap_or_else(|e| panic!("{e}"));
    let v = one_object(&hook(
        &p,
        "subagent-stop",
        payload(&p, "ss-implementer.json"),
    ));
    assert_eq!(
        context(&v).as_deref(),
        Some("SRC: No file changes detected.")
    );
}

#[test]
fn a_file_edited_behind_the_hooks_back_is_reported_beside_a_hook_recorded_one() {
    // A new file (recorded by the hook) adds a name; a file edited by Bash now mentions that
    // name, so the index refresh of the new file rescans it too, while reconcile stats the
    // files on another thread. Both are reported. (That reconcile compares with the index as it
    // was before the refresh, whatever the timing, is a unit test in events::reconcile.)
    let p = crate::util::Project::empty();
    for i in 0..300 {
        p.write(&format!(".claude/notes/n{i:04}.md"), "note\n");
    }
    let bash = ".claude/zz/handoff.md";
    p.write(bash, "Nobody yet.\n");
    p.src().arg("index").assert().success();
    let new = ".claude/agents/release-warden.md";
    p.write(new, "# Release warden\nGuards releases.\n");
    hook(&p, "post-tool-use", edit_payload(&p, new, "toolu_new"));
    p.write(bash, "Hand releases to release-warden.\n");
    let stop = serde_json::json!({"session_id": SESSION, "hook_event_name": "SubagentStop",
        "agent_type": "implementer", "stop_hook_active": false});
    one_object(&hook(&p, "subagent-stop", stop.to_string()));
    assert_eq!(
        count(
            &p,
            &format!(
                "SELECT count(*) FROM events WHERE tool_name = 'Reconcile' AND path = '{bash}'"
            )
        ),
        1
    );
    let (text, changed): (String, String) = db(&p)
        .query_row(
            "SELECT text, changed FROM alerts ORDER BY id DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    // Changed files are never each other's dependents.
    assert_eq!(text, "SRC: 0 impact candidates for 2 changed files.");
    assert!(changed.contains(bash) && changed.contains(new), "{changed}");
}

#[test]
fn reconcile_is_bounded_per_stop_and_resumes_where_it_stopped() {
    let p = crate::util::Project::empty();
    // More files than one reconcile chunk (2,048), and a zero budget: one chunk per stop.
    for i in 0..2100 {
        p.write(&format!(".claude/notes/n{i:04}.md"), "note\n");
    }
    p.write(".claude/zz/last.md", "the last file in path order\n");
    p.write(".src/config.yaml", "limits:\n  reconcile_budget_ms: 0\n");
    p.src().arg("index").assert().success();
    // Changed without a hook (as Bash would): only reconcile can notice.
    p.write(
        ".claude/zz/last.md",
        "changed behind the hooks' back, longer now\n",
    );
    let stop = serde_json::json!({"session_id": "s-reconcile", "hook_event_name": "SubagentStop",
        "agent_type": "implementer", "stop_hook_active": false});
    let reconciled = |p: &crate::util::Project| {
        crate::util::stdout_of(p.src().args(["query", "--sql",
            "SELECT count(*) FROM events WHERE tool_name = 'Reconcile' AND path = '.claude/zz/last.md'",
            "--format", "tsv"]))
    };
    let run_stop = |p: &crate::util::Project| {
        p.src()
            .env("CLAUDE_PROJECT_DIR", p.root())
            .args(["hook", "subagent-stop"])
            .write_stdin(stop.to_string())
            .assert()
            .success();
    };
    run_stop(&p);
    assert!(
        reconciled(&p).ends_with("0\n"),
        "first stop stats only the first chunk: {}",
        reconciled(&p)
    );
    run_stop(&p);
    assert!(
        reconciled(&p).ends_with("1\n"),
        "second stop resumes and finds it: {}",
        reconciled(&p)
    );
}
