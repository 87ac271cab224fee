//! `src hook post-tool-use`: reduce the payload to one event and record it (seed component 1).
//!
//! Owns the decision which calls are edits. Invariant: records Edit, Write, MultiEdit and
//! NotebookEdit calls that name a session and a file; skips an explicit `success: false`; does
//! nothing else (no config beyond the budget, no scan).

use std::path::Path;
use std::time::Instant;

use anyhow::Result;

use super::wire::{self, Payload};
use super::{debug, hook_budget, micros, Hook};
use crate::events::record::{self, Outcome};
use crate::events::{Event, Run};
use crate::workspace::{normalize, GlobalOpts, Workspace};

/// The tools whose calls change a file.
pub const EDIT_TOOLS: &[&str] = &["Edit", "Write", "MultiEdit", "NotebookEdit"];

/// What to do with one payload.
#[derive(Debug, PartialEq)]
pub enum Decision {
    Record(Event),
    /// Audit outcome and the session when known.
    Skip(&'static str, Option<String>),
}

pub fn run(g: &GlobalOpts, input: &[u8], started: Instant) -> Result<()> {
    let ws = Workspace::resolve(g)?;
    let budget = hook_budget(&ws);
    let payload = wire::parse(input);
    match decide(&ws, payload.as_ref().ok()) {
        Decision::Record(ev) => match record::record(&ws, budget, &ev, started)? {
            Outcome::Recorded => {}
            Outcome::Spilled(why) => debug(Hook::PostToolUse, &format!("spilled: {why}")),
        },
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

/// Reduces a payload (`None`: not a JSON object) to an event or a reason to skip.
pub fn decide(ws: &Workspace, payload: Option<&Payload>) -> Decision {
    let Some(p) = payload else {
        return Decision::Skip("ignored", None);
    };
    let session = Payload::non_empty(&p.session_id).map(String::from);
    let tool = match Payload::non_empty(&p.tool_name) {
        Some(t) if EDIT_TOOLS.contains(&t) => t,
        _ => return Decision::Skip("skipped-tool", session),
    };
    let response = p.tool_response.as_ref();
    if response.and_then(|r| r.success) == Some(false) {
        return Decision::Skip("skipped-failed", session);
    }
    let input = p.tool_input.as_ref();
    let file = input
        .and_then(|i| Payload::non_empty(&i.file_path).or(Payload::non_empty(&i.notebook_path)))
        .or_else(|| response.and_then(|r| Payload::non_empty(&r.file_path)));
    let (Some(session_id), Some(file)) = (session.clone(), file) else {
        return Decision::Skip("skipped-missing", session);
    };
    let cwd = Payload::non_empty(&p.cwd);
    // Paths are absolute in current clients; an old relative one is taken from the cwd.
    let abs = {
        let f = Path::new(file);
        if f.is_absolute() {
            normalize(f)
        } else {
            normalize(&cwd.map(Path::new).unwrap_or(&ws.root).join(f))
        }
    };
    Decision::Record(Event {
        session_id,
        tool_name: tool.to_string(),
        path: ws.relative(&abs),
        abs_path: abs.to_string_lossy().into_owned(),
        agent_id: Payload::non_empty(&p.agent_id).map(String::from),
        agent_type: Payload::non_empty(&p.agent_type).map(String::from),
        tool_use_id: Payload::non_empty(&p.tool_use_id).map(String::from),
        cwd: cwd.map(String::from),
        ts: crate::events::now_ts(),
    })
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
            Decision::Record(ev) => {
                assert_eq!(ev.path.as_deref(), Some("a/b.md"));
                assert_eq!(ev.agent_id.as_deref(), Some("ab1"));
                assert_eq!(ev.tool_use_id.as_deref(), Some("t"));
            }
            other => panic!("{other:?}"),
        }
        let nb = r#"{"session_id":"s","tool_name":"NotebookEdit","tool_input":{"notebook_path":"/x/n.ipynb"}}"#;
        assert!(
            matches!(decide_json(&ws, nb), Decision::Record(e) if e.path.is_none() && e.abs_path == "/x/n.ipynb")
        );
        let resp =
            r#"{"session_id":"s","tool_name":"Write","tool_response":{"filePath":"/x/w.md"}}"#;
        assert!(matches!(decide_json(&ws, resp), Decision::Record(e) if e.abs_path == "/x/w.md"));
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
