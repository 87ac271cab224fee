//! Hook input reduced once: what a payload is to the hook that received it, as one [`Input`]
//! with one variant per kind (an edit with its files, a stop, a lead turn, or ignored with its
//! reason), built by [`Input::of`] from the parsed payload.
//!
//! Owns every decision that needs only the payload; what needs the project (the configured
//! implementer types, the session's delivery state) stays with the hook. Invariant: the
//! reduction reads nothing and writes nothing, so a hook that ignores its input touches no file.

use super::wire::Payload;
use super::Hook;
use crate::events::BATCH_EVENT;

/// The tools whose calls change a file.
pub const EDIT_TOOLS: &[&str] = &["Edit", "Write", "MultiEdit", "NotebookEdit"];

/// Events whose `hookSpecificOutput.additionalContext` is added to the model's context.
pub const CONTEXT_EVENTS: &[&str] = &[
    "PostToolUse",
    "PreToolUse",
    "UserPromptSubmit",
    "SessionStart",
    BATCH_EVENT,
];

/// What one payload is to the hook that received it.
#[derive(Debug, PartialEq)]
pub enum Input<'a> {
    /// PostToolUse of a call that changed files.
    Edit(Edit<'a>),
    /// SubagentStop of a subagent (whether it is an implementer needs the config).
    Stop(Stop<'a>),
    /// A lead-side event that can carry context to the main conversation.
    LeadTurn { session: &'a str, event: &'a str },
    /// Nothing to do, and why.
    Ignored(Ignored<'a>),
}

/// A call that changed files: Edit, Write, MultiEdit, NotebookEdit (one file), or Bash (the
/// files its `bashEditDiff` names).
#[derive(Debug, PartialEq)]
pub struct Edit<'a> {
    pub session: &'a str,
    pub tool: &'a str,
    pub files: Vec<&'a str>,
    /// How many changed files a Bash call's diff says exist but does not name.
    pub unnamed: u64,
    pub cwd: Option<&'a str>,
    pub agent_id: Option<&'a str>,
    pub agent_type: Option<&'a str>,
    pub tool_use_id: Option<&'a str>,
}

/// A subagent stopped.
#[derive(Debug, PartialEq)]
pub struct Stop<'a> {
    pub session: Option<&'a str>,
    pub agent_id: Option<&'a str>,
    /// `None` for an empty or missing type (an internal fork, which bypasses the matcher).
    pub agent_type: Option<&'a str>,
}

/// Why a payload is ignored.
#[derive(Debug, PartialEq)]
pub enum Ignored<'a> {
    /// The bytes are not a JSON object.
    NotJson,
    /// A Bash call whose response names no changed file: left to the stop-time reconcile,
    /// without opening anything.
    BashNamesNoFile,
    /// A tool that edits no file.
    NotAnEdit { session: Option<&'a str> },
    /// The call failed (an explicit `success: false`).
    Failed { session: Option<&'a str> },
    /// An edit without a session or without a file.
    Missing { session: Option<&'a str> },
    /// `stop_hook_active`: answering could feed a stop loop.
    StopLoop,
    /// A lead-side hook fired inside a subagent; `batch_session` when it was a PostToolBatch of
    /// a known session (which proves the client fires that event).
    FromSubagent { batch_session: Option<&'a str> },
    /// No session, or an event whose context does not reach the lead.
    NoContext,
}

impl Ignored<'_> {
    /// The outcome the audit table records for an ignored edit.
    pub fn outcome(&self) -> &'static str {
        match self {
            Ignored::NotAnEdit { .. } => "skipped-tool",
            Ignored::Failed { .. } => "skipped-failed",
            Ignored::Missing { .. } | Ignored::BashNamesNoFile => "skipped-missing",
            _ => "ignored",
        }
    }

    /// The session, when the payload named one.
    pub fn session(&self) -> Option<&str> {
        match self {
            Ignored::NotAnEdit { session }
            | Ignored::Failed { session }
            | Ignored::Missing { session } => *session,
            Ignored::FromSubagent { batch_session } => *batch_session,
            _ => None,
        }
    }
}

impl<'a> Input<'a> {
    /// Reduces the payload `hook` received (`None`: not a JSON object).
    pub fn of(hook: Hook, payload: Option<&'a Payload>) -> Input<'a> {
        let Some(p) = payload else {
            return Input::Ignored(Ignored::NotJson);
        };
        match hook {
            Hook::PostToolUse => edit(p),
            Hook::SubagentStop => stop(p),
            Hook::Deliver => lead_turn(p),
        }
    }
}

fn edit(p: &Payload) -> Input<'_> {
    let tool = Payload::non_empty(&p.tool_name);
    // Most Bash calls change no file, or run where the client lists none.
    let bash = (tool == Some("Bash")).then(|| bash_files(p));
    if let Some(None) = bash {
        return Input::Ignored(Ignored::BashNamesNoFile);
    }
    let session = Payload::non_empty(&p.session_id);
    let tool = match tool {
        Some(t) if EDIT_TOOLS.contains(&t) || t == "Bash" => t,
        _ => return Input::Ignored(Ignored::NotAnEdit { session }),
    };
    let response = p.tool_response.as_ref();
    if response.and_then(|r| r.success) == Some(false) {
        return Input::Ignored(Ignored::Failed { session });
    }
    let (files, unnamed) = match bash {
        Some(Some((paths, unnamed))) => (paths, unnamed),
        _ => {
            let input = p.tool_input.as_ref();
            let file = input
                .and_then(|i| {
                    Payload::non_empty(&i.file_path).or(Payload::non_empty(&i.notebook_path))
                })
                .or_else(|| response.and_then(|r| Payload::non_empty(&r.file_path)));
            (file.into_iter().collect(), 0)
        }
    };
    let Some(session) = session.filter(|_| !files.is_empty()) else {
        return Input::Ignored(Ignored::Missing { session });
    };
    Input::Edit(Edit {
        session,
        tool,
        files,
        unnamed,
        cwd: Payload::non_empty(&p.cwd),
        agent_id: Payload::non_empty(&p.agent_id),
        agent_type: Payload::non_empty(&p.agent_type),
        tool_use_id: Payload::non_empty(&p.tool_use_id),
    })
}

/// The files a Bash call's `bashEditDiff` names and how many changed files it leaves unnamed,
/// or `None` when it names none.
fn bash_files(p: &Payload) -> Option<(Vec<&str>, u64)> {
    let diff = p.tool_response.as_ref()?.bash_edit_diff.as_ref()?;
    // `unavailable` alone says nothing changed that the client could see; with `changedFiles`
    // it still names the files (the client lists paths when the diff itself failed).
    let paths = diff.paths();
    (!paths.is_empty()).then(|| (paths, diff.unnamed()))
}

fn stop(p: &Payload) -> Input<'_> {
    if p.stop_hook_active == Some(true) {
        return Input::Ignored(Ignored::StopLoop);
    }
    Input::Stop(Stop {
        session: Payload::non_empty(&p.session_id),
        agent_id: Payload::non_empty(&p.agent_id),
        agent_type: Payload::non_empty(&p.agent_type),
    })
}

fn lead_turn(p: &Payload) -> Input<'_> {
    let session = Payload::non_empty(&p.session_id);
    let event = Payload::non_empty(&p.hook_event_name);
    if Payload::non_empty(&p.agent_id).is_some() {
        let batch_session = session.filter(|_| event == Some(BATCH_EVENT));
        return Input::Ignored(Ignored::FromSubagent { batch_session });
    }
    match (session, event.filter(|e| CONTEXT_EVENTS.contains(e))) {
        (Some(session), Some(event)) => Input::LeadTurn { session, event },
        _ => Input::Ignored(Ignored::NoContext),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::hook::wire;

    fn of(hook: Hook, json: &str) -> String {
        let p = wire::parse(json.as_bytes()).ok();
        format!("{:?}", Input::of(hook, p.as_ref()))
    }

    #[test]
    fn each_hook_reads_its_kind_of_input() {
        let stop = r#"{"session_id":"s","agent_type":"implementer","agent_id":"a"}"#;
        assert_eq!(
            of(Hook::SubagentStop, stop),
            r#"Stop(Stop { session: Some("s"), agent_id: Some("a"), agent_type: Some("implementer") })"#
        );
        let looping = r#"{"session_id":"s","stop_hook_active":true}"#;
        assert_eq!(of(Hook::SubagentStop, looping), "Ignored(StopLoop)");
        let turn = r#"{"session_id":"s","hook_event_name":"UserPromptSubmit"}"#;
        assert_eq!(
            of(Hook::Deliver, turn),
            r#"LeadTurn { session: "s", event: "UserPromptSubmit" }"#
        );
        let stop_event = r#"{"session_id":"s","hook_event_name":"Stop"}"#;
        assert_eq!(of(Hook::Deliver, stop_event), "Ignored(NoContext)");
        let inside = r#"{"session_id":"s","hook_event_name":"PostToolBatch","agent_id":"a"}"#;
        assert_eq!(
            of(Hook::Deliver, inside),
            r#"Ignored(FromSubagent { batch_session: Some("s") })"#
        );
        let bash = r#"{"session_id":"s","tool_name":"Bash","tool_response":{"stdout":""}}"#;
        assert_eq!(of(Hook::PostToolUse, bash), "Ignored(BashNamesNoFile)");
        for hook in [Hook::PostToolUse, Hook::SubagentStop, Hook::Deliver] {
            assert_eq!(of(hook, "[]"), "Ignored(NotJson)");
        }
    }
}
