//! `src hook post-tool-use`: the edit a payload reduces to (`input`), as events, recorded (seed
//! component 1).
//!
//! Owns turning an edit into events (paths, worktrees). Invariant: records Edit, Write,
//! MultiEdit and NotebookEdit calls that name a session and a file, and one event per file a
//! Bash call's `bashEditDiff` names; skips an explicit `success: false`; a Bash call that names
//! no file is left to the stop-time reconcile without opening anything. An edit in a linked
//! worktree of the repository is recorded as an edit of the root's file (`events::worktree`).
//! Does nothing else (no config beyond the budget, no scan).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;

use super::input::{Ignored, Input};
use super::wire;
use super::{debug, hook_budget, micros, Hook};
use crate::events::record::{self, Recorded};
use crate::events::worktree::event_path;
use crate::events::{Event, Run};
use crate::workspace::{normalize, GlobalOpts, Workspace};

/// What to do with one payload.
#[derive(Debug, PartialEq)]
pub enum Decision {
    /// The events (one per file) and an audit detail.
    Record(Vec<Event>, Option<String>),
    /// Audit outcome and the session when known.
    Skip(&'static str, Option<String>),
}

pub fn run(g: &GlobalOpts, input: &[u8], started: Instant) -> Result<()> {
    let payload = wire::parse(input);
    // Nothing to record and nothing worth a database write (reconcile is the backstop).
    let reduced = Input::of(Hook::PostToolUse, payload.as_ref().ok());
    if reduced == Input::Ignored(Ignored::BashNamesNoFile) {
        return Ok(());
    }
    let ws = Workspace::resolve(g)?;
    let budget = hook_budget(&ws);
    match decide_input(&ws, reduced) {
        Decision::Record(evs, detail) => {
            match record::record(&ws, budget, &evs, detail.as_deref(), started)? {
                Recorded::Stored => {}
                Recorded::Spilled(why) => debug(Hook::PostToolUse, &format!("spilled: {why}")),
            }
        }
        Decision::Skip(outcome, session) => {
            let detail = payload.err().map(|e| format!("invalid input: {e}"));
            record::audit_only(
                &ws,
                budget,
                &Run {
                    event: Hook::PostToolUse.name(),
                    outcome,
                    duration_us: micros(started),
                    session_id: session.as_deref(),
                    detail: detail.as_deref(),
                },
            )?;
        }
    }
    Ok(())
}

/// Reduces a payload (`None`: not a JSON object) to events or a reason to skip (`run` reduces
/// once and calls `decide_input`).
#[cfg(test)]
pub fn decide(ws: &Workspace, payload: Option<&wire::Payload>) -> Decision {
    decide_input(ws, Input::of(Hook::PostToolUse, payload))
}

fn decide_input(ws: &Workspace, input: Input<'_>) -> Decision {
    let e = match input {
        Input::Edit(e) => e,
        Input::Ignored(why) => {
            return Decision::Skip(why.outcome(), why.session().map(String::from))
        }
        // A PostToolUse payload reduces to an edit or nothing.
        Input::Stop(_) | Input::LeadTurn { .. } => return Decision::Skip("ignored", None),
    };
    let detail = (e.unnamed > 0).then(|| {
        format!(
            "Bash: {} more changed file(s) not named (reconcile)",
            e.unnamed
        )
    });
    let ts = crate::clock::now();
    let events = e
        .files
        .iter()
        .map(|file| {
            let at = event_path(ws, &absolute(ws, e.cwd, file));
            Event {
                session_id: e.session.to_string(),
                tool_name: e.tool.to_string(),
                path: at.path,
                abs_path: at.abs_path,
                agent_id: e.agent_id.map(String::from),
                agent_type: e.agent_type.map(String::from),
                tool_use_id: e.tool_use_id.map(String::from),
                cwd: e.cwd.map(String::from),
                worktree: at.worktree,
                ts: ts.clone(),
            }
        })
        .collect();
    Decision::Record(events, detail)
}

/// Paths are absolute in current clients; an old relative one is taken from the cwd.
fn absolute(ws: &Workspace, cwd: Option<&str>, file: &str) -> PathBuf {
    let f = Path::new(file);
    if f.is_absolute() {
        normalize(f)
    } else {
        normalize(&cwd.map(Path::new).unwrap_or(&ws.root).join(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide_json(ws: &Workspace, json: &str) -> Decision {
        let p = wire::parse(json.as_bytes()).ok();
        decide(ws, p.as_ref())
    }

    #[test]
    fn decisions() -> Result<()> {
        let dir = tempfile::tempdir()?;
        std::fs::create_dir_all(dir.path().join(".git"))?;
        let ws = Workspace::at(dir.path())?;
        let root = ws.root.display().to_string();
        let edit = format!(
            r#"{{"session_id":"s","tool_name":"Edit","tool_input":{{"file_path":"{root}/a/b.md"}},"tool_use_id":"t","agent_id":"ab1","agent_type":"implementer"}}"#
        );
        match decide_json(&ws, &edit) {
            Decision::Record(evs, _) => {
                let ev = &evs[0];
                assert_eq!(ev.path.as_deref(), Some("a/b.md"));
                assert_eq!(ev.agent_id.as_deref(), Some("ab1"));
                assert_eq!(ev.tool_use_id.as_deref(), Some("t"));
            }
            other => panic!("{other:?}"),
        }
        let nb = r#"{"session_id":"s","tool_name":"NotebookEdit","tool_input":{"notebook_path":"/x/n.ipynb"}}"#;
        assert!(
            matches!(decide_json(&ws, nb), Decision::Record(e, _) if e[0].path.is_none() && e[0].abs_path == "/x/n.ipynb")
        );
        let resp =
            r#"{"session_id":"s","tool_name":"Write","tool_response":{"filePath":"/x/w.md"}}"#;
        assert!(
            matches!(decide_json(&ws, resp), Decision::Record(e, _) if e[0].abs_path == "/x/w.md")
        );
        let failed = r#"{"session_id":"s","tool_name":"Edit","tool_input":{"file_path":"/x"},"tool_response":{"success":false}}"#;
        assert_eq!(
            decide_json(&ws, failed),
            Decision::Skip("skipped-failed", Some("s".into()))
        );
        let read = r#"{"session_id":"s","tool_name":"Read","tool_input":{"file_path":"/x"}}"#;
        assert_eq!(
            decide_json(&ws, read),
            Decision::Skip("skipped-tool", Some("s".into()))
        );
        let nosession = r#"{"tool_name":"Edit","tool_input":{"file_path":"/x"}}"#;
        assert_eq!(
            decide_json(&ws, nosession),
            Decision::Skip("skipped-missing", None)
        );
        assert_eq!(decide_json(&ws, "garbage"), Decision::Skip("ignored", None));
        Ok(())
    }
}
