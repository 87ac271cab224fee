//! `src hook deliver`: hand the session's pending alerts to the lead.
//!
//! Runs on lead-side events whose `additionalContext` reaches the main conversation:
//! PostToolBatch (once after a batch of tool calls, before the next model call: several
//! implementers that stopped in one batch give one merged alert), and for clients without it
//! PostToolUse on `Agent`/`Task` (a foreground subagent returned) and UserPromptSubmit
//! (background subagents). Invariant: prints exactly one JSON object; payloads carrying
//! `agent_id` come from inside a subagent and get `{}`; each alert is delivered once; once the
//! session's client is known to fire PostToolBatch, PostToolUse leaves the delivery to it (the
//! batch's hook follows in the same batch).

use std::time::Instant;

use anyhow::Result;

use super::input::{Ignored, Input};
use super::wire;
use super::{audit_ctx, context_json, debug, hook_budget, micros, open_ctx, Hook, EMPTY};
use crate::events::{self, Run, BATCH_EVENT};
use crate::workspace::{GlobalOpts, Workspace};

pub fn run(g: &GlobalOpts, input: &[u8], started: Instant) -> Result<String> {
    let payload = wire::parse(input).ok();
    let (session, event) = match Input::of(Hook::Deliver, payload.as_ref()) {
        Input::LeadTurn { session, event } => (session, event),
        Input::Ignored(Ignored::FromSubagent {
            batch_session: Some(s),
        }) => {
            // A subagent's batch proves that this client fires PostToolBatch, before the lead's
            // PostToolUse on the subagent tool runs: noted once per session.
            if let Err(e) = note_batch(g, s, started) {
                debug(Hook::Deliver, &format!("noting PostToolBatch: {e:#}"));
            }
            return Ok(EMPTY.into());
        }
        _ => return Ok(EMPTY.into()),
    };
    let ctx = open_ctx(g)?;
    let mut conn = ctx.store.conn()?;
    if event == "PostToolUse" && events::fires_post_tool_batch(&conn, session)? {
        drop(conn);
        audit_ctx(
            &ctx,
            Hook::Deliver,
            "deferred",
            Some(session),
            Some(event),
            started,
        );
        return Ok(EMPTY.into());
    }
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

/// Records (once per session) that a PostToolBatch arrived from inside a subagent. Like the
/// recorder: one plain connection within the hook budget, and only to an existing database.
fn note_batch(g: &GlobalOpts, session: &str, started: Instant) -> Result<()> {
    let ws = Workspace::resolve(g)?;
    if !ws.db_path.is_file() {
        return Ok(());
    }
    let conn = crate::store::open_fast(&ws.db_path, hook_budget(&ws))?;
    if events::fires_post_tool_batch(&conn, session)? {
        return Ok(());
    }
    events::audit(
        &conn,
        &Run {
            event: Hook::Deliver.name(),
            outcome: "batch-seen",
            duration_us: micros(started),
            session_id: Some(session),
            detail: Some(BATCH_EVENT),
        },
        &crate::clock::now(),
    )?;
    Ok(())
}
