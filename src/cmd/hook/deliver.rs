//! `src hook deliver`: hand the session's pending alerts to the lead.
//!
//! Runs on lead-side events whose `additionalContext` reaches the main conversation: PostToolUse
//! on `Agent`/`Task` (a foreground subagent returned) and the lead's later events such as
//! UserPromptSubmit (background subagents). Invariant: prints exactly one JSON object; payloads
//! carrying `agent_id` come from inside a subagent and get `{}`; each alert is delivered once.

use std::time::Instant;

use anyhow::Result;

use super::wire::{self, Payload};
use super::{audit_ctx, context_json, open_ctx, Hook, EMPTY};
use crate::workspace::GlobalOpts;

/// Events whose `hookSpecificOutput.additionalContext` is added to the model's context.
pub const CONTEXT_EVENTS: &[&str] = &[
    "PostToolUse",
    "PreToolUse",
    "UserPromptSubmit",
    "SessionStart",
    "PostToolBatch",
];

pub fn run(g: &GlobalOpts, input: &[u8], started: Instant) -> Result<String> {
    let Ok(p) = wire::parse(input) else {
        return Ok(EMPTY.into());
    };
    if Payload::non_empty(&p.agent_id).is_some() {
        return Ok(EMPTY.into());
    }
    let (Some(session), Some(event)) = (
        Payload::non_empty(&p.session_id),
        Payload::non_empty(&p.hook_event_name).filter(|e| CONTEXT_EVENTS.contains(e)),
    ) else {
        return Ok(EMPTY.into());
    };
    let ctx = open_ctx(g)?;
    let mut conn = ctx.store.conn()?;
    let taken = crate::alert::take_pending(&mut conn, session)?;
    drop(conn);
    let (outcome, out) = match taken {
        Some(text) => ("delivered", context_json(event, &text)),
        None => ("nothing", EMPTY.to_string()),
    };
    audit_ctx(
        &ctx,
        Hook::Deliver,
        outcome,
        Some(session),
        Some(event),
        started,
    );
    Ok(out)
}
