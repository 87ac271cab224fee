//! The hooks against what the client does since late 2026, with payloads the real client wrote:
//! edits made in a git worktree of the repository (worktree-isolated subagents), the files a
//! Bash command changed (`tool_response.bashEditDiff`), and one alert per batch of tool calls
//! (PostToolBatch, with PostToolUse on Agent and UserPromptSubmit as fallbacks).

use serde_json::{json, Value};

use crate::hooks::{
    context, count, db, edit_payload, hook, indexed_dependents, one_object, payload, SESSION,
};
use crate::util::Project;

const SKILL: &str = ".claude/skills/execution-code/SKILL.md";
/// The worktree the client made for the subagent whose payloads are in the fixtures.
const WORKTREE: &str = ".claude/worktrees/agent-a274b329712cd6a13";
const WORKTREE_BASH: &str = ".claude/worktrees/agent-a6b5178f79f367139";

use crate::util::git_in as git;

fn files_indexed(p: &Project) -> i64 {
    count(p, "SELECT count(*) FROM files")
}

/// `(tool_name, path, abs_path, worktree)` of every event, oldest first.
fn events(p: &Project) -> Vec<(String, Option<String>, String, Option<String>)> {
    let conn = db(p);
    let mut stmt = conn
        .prepare("SELECT tool_name, path, abs_path, worktree FROM events ORDER BY id")
        .unwrap_or_else(|e| panic!("{e}"));
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap_or_else(|e| panic!("{e}"));
    rows.map(|r| r.unwrap_or_else(|e| panic!("{e}"))).collect()
}

fn stop(p: &Project, agent_id: &str) -> Value {
    let body = json!({"session_id": SESSION, "hook_event_name": "SubagentStop",
        "agent_id": agent_id, "agent_type": "implementer", "stop_hook_active": false,
        "cwd": p.root()});
    one_object(&hook(p, "subagent-stop", body.to_string()))
}

#[test]
fn an_edit_in_a_worktree_of_the_repository_is_an_edit_of_the_repositorys_file() {
    let p = Project::from_fixture("claude-tree");
    let _ = std::fs::remove_dir_all(p.path(".git"));
    if !git(&p, &["init", "-q"]) {
        eprintln!("skipped: git is not installed");
        return;
    }
    assert!(git(&p, &["add", "-A"]) && git(&p, &["commit", "-qm", "fixture"]));
    p.src().arg("index").assert().success();
    let before = files_indexed(&p);
    // The client's worktree for an `isolation: "worktree"` subagent: a real linked worktree.
    for wt in [WORKTREE, WORKTREE_BASH] {
        assert!(
            git(&p, &["worktree", "add", "-q", wt]),
            "git worktree add {wt}"
        );
    }
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(
        files_indexed(&p),
        before,
        "worktree files entered the index"
    );
    // The subagent edits its copy; the repository's file does not change.
    let copy = p.path(&format!("{WORKTREE}/{SKILL}"));
    let mut text = std::fs::read_to_string(&copy).unwrap_or_default();
    text.push_str("\nEdited in the worktree.\n");
    std::fs::write(&copy, text).unwrap_or_else(|e| panic!("{e}"));
    for name in ["ptu-edit-worktree.json", "ptu-bash-diff-worktree.json"] {
        let out = hook(&p, "post-tool-use", payload(&p, name));
        assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    }
    let root = p.root().display().to_string();
    assert_eq!(
        events(&p),
        vec![
            (
                "Edit".to_string(),
                Some(SKILL.to_string()),
                format!("{root}/{SKILL}"),
                Some(format!("{root}/{WORKTREE}"))
            ),
            (
                "Bash".to_string(),
                Some(SKILL.to_string()),
                format!("{root}/{SKILL}"),
                Some(format!("{root}/{WORKTREE_BASH}"))
            ),
        ]
    );
    // The alert names the repository's file and its dependents.
    assert_eq!(stop(&p, "a274b329712cd6a13"), json!({}));
    let v = one_object(&hook(&p, "deliver", payload(&p, "dl-batch-lead.json")));
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "PostToolBatch");
    let alert = context(&v).unwrap_or_default();
    let expected = indexed_dependents(&p, SKILL);
    assert!(
        alert.starts_with(&format!(
            "SRC IMPACT ALERT: 1 files changed, {} potential dependents detected.\nChanged: execution-code/SKILL.md\n",
            expected.len()
        )),
        "{alert}"
    );
    assert!(!alert.contains("worktrees"), "{alert}");
    assert_eq!(
        count(
            &p,
            "SELECT count(*) FROM files WHERE path LIKE '.claude/worktrees/%'"
        ),
        0
    );
    // So does impact over the session.
    let l1 = crate::util::stdout_of(p.src().args(["impact", "--session", SESSION]));
    assert!(
        l1.contains(&format!("- changed_file: {root}/{SKILL}\n")),
        "{l1}"
    );
    assert!(!l1.contains("worktrees"), "{l1}");
}

#[test]
fn bash_edits_are_recorded_per_file_and_reconcile_adds_only_the_rest() {
    let p = Project::from_fixture("claude-tree");
    p.src().arg("index").assert().success();
    // One command changed three files; the client names two (`changedFiles`) and counts the
    // third (`moreFiles`).
    let named = [
        ".claude/agents/implementer.md",
        ".claude/agents/reviewer.md",
    ];
    let unnamed = ".claude/agents/analyst.md";
    for rel in named.iter().chain([&unnamed]) {
        let mut text = std::fs::read_to_string(p.path(rel)).unwrap_or_default();
        text.push_str("\nRenamed by a shell command.\n");
        p.write(rel, &text);
    }
    let out = hook(&p, "post-tool-use", payload(&p, "ptu-bash-paths-only.json"));
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    let got: Vec<(String, Option<String>)> = events(&p).into_iter().map(|e| (e.0, e.1)).collect();
    let want: Vec<(String, Option<String>)> = named
        .iter()
        .map(|n| ("Bash".to_string(), Some(n.to_string())))
        .collect();
    assert_eq!(got, want);
    let detail: String = db(&p)
        .query_row(
            "SELECT detail FROM hook_runs WHERE event = 'post-tool-use' ORDER BY id DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        detail.contains("1 more changed file(s) not named"),
        "{detail}"
    );
    // The same call offered again is not a second edit.
    hook(&p, "post-tool-use", payload(&p, "ptu-bash-paths-only.json"));
    assert_eq!(count(&p, "SELECT count(*) FROM events"), 2);
    // At the stop, reconcile finds the file the diff did not name, and only that one.
    stop(&p, "a4bd144fd7e1f4a51");
    assert_eq!(
        count(
            &p,
            "SELECT count(*) FROM events WHERE tool_name = 'Reconcile'"
        ),
        1
    );
    assert_eq!(
        count(
            &p,
            &format!(
                "SELECT count(*) FROM events WHERE tool_name = 'Reconcile' AND path = '{unnamed}'"
            )
        ),
        1
    );
    let changed: String = db(&p)
        .query_row("SELECT changed FROM alerts", [], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{e}"));
    let changed: Vec<Value> = serde_json::from_str(&changed).unwrap_or_default();
    let mut paths: Vec<&str> = changed.iter().filter_map(|c| c["path"].as_str()).collect();
    paths.sort();
    assert_eq!(paths, [unnamed, named[0], named[1]]);
    let v = one_object(&hook(&p, "deliver", payload(&p, "dl-user-prompt.json")));
    assert!(
        context(&v)
            .unwrap_or_default()
            .starts_with("SRC IMPACT ALERT: 3 files changed"),
        "{v}"
    );
}

#[test]
fn a_bash_call_that_names_no_file_records_nothing_and_opens_nothing() {
    let p = Project::empty();
    for name in ["ptu-bash-plain.json", "ptu-bash-unavailable.json"] {
        let out = hook(&p, "post-tool-use", payload(&p, name));
        assert_eq!(out.status.code(), Some(0), "{name}");
        assert!(
            out.stdout.is_empty() && out.stderr.is_empty(),
            "{name}: {out:?}"
        );
        // Not even the database is created: the call never reached it.
        assert!(!p.path(".src").exists(), "{name}");
    }
    let out = hook(&p, "post-tool-use", payload(&p, "ptu-bash-diff.json"));
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    let root = p.root().display().to_string();
    assert_eq!(
        events(&p),
        vec![(
            "Bash".to_string(),
            Some(SKILL.to_string()),
            format!("{root}/{SKILL}"),
            None
        )]
    );
    let runs = count(&p, "SELECT count(*) FROM hook_runs");
    hook(&p, "post-tool-use", payload(&p, "ptu-bash-plain.json"));
    assert_eq!(count(&p, "SELECT count(*) FROM hook_runs"), runs);
    assert_eq!(count(&p, "SELECT count(*) FROM events"), 1);
}

#[test]
fn parallel_implementers_get_one_merged_alert_after_their_batch() {
    let p = Project::from_fixture("claude-tree");
    p.src().arg("index").assert().success();
    let common = ".claude/hooks/hook-common.sh";
    // Two implementers of one batch: each edits, its batch hook runs inside it, it stops.
    hook(&p, "post-tool-use", edit_payload(&p, SKILL, "toolu_par_1"));
    assert_eq!(
        one_object(&hook(&p, "deliver", payload(&p, "dl-batch-subagent.json"))),
        json!({})
    );
    assert_eq!(stop(&p, "a2fe1cdf999301e39"), json!({}));
    hook(&p, "post-tool-use", edit_payload(&p, common, "toolu_par_2"));
    assert_eq!(stop(&p, "a1b4c1886d743816d"), json!({}));
    assert_eq!(
        count(&p, "SELECT count(*) FROM alerts WHERE kind = 'impact'"),
        2
    );
    // The lead's PostToolUse for each Agent call leaves the delivery to the batch's hook.
    for _ in 0..2 {
        let v = one_object(&hook(
            &p,
            "deliver",
            payload(&p, "dl-agent-foreground.json"),
        ));
        assert_eq!(v, json!({}));
    }
    let v = one_object(&hook(&p, "deliver", payload(&p, "dl-batch-lead.json")));
    let text = context(&v).unwrap_or_default();
    assert!(text.chars().count() <= 500);
    assert!(
        text.starts_with("SRC IMPACT ALERT: 2 files changed"),
        "{text}"
    );
    assert!(
        text.contains("Changed: hook-common.sh, execution-code/SKILL.md\n"),
        "{text}"
    );
    assert!(text.contains("(refs hook-common.sh)"), "{text}");
    assert!(text.contains("(refs execution-code/SKILL.md)"), "{text}");
    // Delivered once, by whichever event comes next.
    for name in [
        "dl-batch-lead.json",
        "dl-user-prompt.json",
        "dl-agent-foreground.json",
    ] {
        assert_eq!(
            one_object(&hook(&p, "deliver", payload(&p, name))),
            json!({}),
            "{name}"
        );
    }
    assert_eq!(
        count(&p, "SELECT count(*) FROM alerts WHERE delivered_at IS NULL"),
        0
    );
    assert_eq!(
        count(
            &p,
            "SELECT count(*) FROM hook_runs WHERE event = 'deliver' AND outcome = 'delivered'"
        ),
        1
    );
}

#[test]
fn without_post_tool_batch_the_fallbacks_deliver_and_the_batch_takes_over_once_seen() {
    let p = Project::from_fixture("claude-tree");
    p.src().arg("index").assert().success();
    let common = ".claude/hooks/hook-common.sh";
    // A client without PostToolBatch: PostToolUse on Agent delivers, as before.
    hook(&p, "post-tool-use", edit_payload(&p, common, "toolu_fb_1"));
    stop(&p, "aa3301a4901cfde5e");
    let v = one_object(&hook(
        &p,
        "deliver",
        payload(&p, "dl-agent-foreground.json"),
    ));
    assert!(
        context(&v)
            .unwrap_or_default()
            .contains("Changed: hook-common.sh"),
        "{v}"
    );
    // Once the lead's batch hook has run in the session, PostToolUse defers to it; a prompt
    // still delivers whatever is pending (background subagents).
    assert_eq!(
        one_object(&hook(&p, "deliver", payload(&p, "dl-batch-lead.json"))),
        json!({})
    );
    hook(&p, "post-tool-use", edit_payload(&p, SKILL, "toolu_fb_2"));
    stop(&p, "aa3301a4901cfde5e");
    assert_eq!(
        one_object(&hook(
            &p,
            "deliver",
            payload(&p, "dl-agent-foreground.json")
        )),
        json!({})
    );
    let v = one_object(&hook(&p, "deliver", payload(&p, "dl-user-prompt.json")));
    assert!(
        context(&v)
            .unwrap_or_default()
            .contains("Changed: execution-code/SKILL.md"),
        "{v}"
    );
    // Another session of another client is not affected.
    let other = payload(&p, "dl-agent-foreground.json").replace(SESSION, "other-session");
    let edit = edit_payload(&p, common, "toolu_fb_3").replace(SESSION, "other-session");
    hook(&p, "post-tool-use", edit);
    let body = json!({"session_id": "other-session", "hook_event_name": "SubagentStop",
        "agent_type": "implementer", "stop_hook_active": false});
    one_object(&hook(&p, "subagent-stop", body.to_string()));
    let v = one_object(&hook(&p, "deliver", other));
    assert!(context(&v).is_some(), "{v}");
}
