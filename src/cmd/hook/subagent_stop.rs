//! `src hook subagent-stop`: compute and store the impact alert when an implementer stops.
//!
//! Owns the payload filters and what is printed. Invariant: prints exactly one JSON object —
//! `{}` in `lead` delivery mode (a lead-side hook delivers; SubagentStop output would reach the
//! subagent and keep it running), the seed's `hookSpecificOutput` in `subagent-stop` mode — and
//! `{}` whenever `stop_hook_active` is true, so it never feeds a stop loop.

use std::time::{Duration, Instant};

use anyhow::Result;

use super::input::Input;
use super::wire;
use super::{audit_ctx, context_json, open_ctx, Hook, EMPTY};
use crate::alert::format::{Kind, NO_CHANGES};
use crate::alert::stop::{self, StopRequest};
use crate::config::{Config, Delivery};
use crate::workspace::GlobalOpts;

/// The seed gives the hook 15 s; leave room for start-up and the final write.
const ANALYSIS_DEADLINE: Duration = Duration::from_secs(12);

/// Whether an agent type is one of the configured implementers (`plugin:implementer` too).
pub fn is_implementer(config: &Config, agent_type: &str) -> bool {
    config.alerts.implementer_types.iter().any(|t| {
        agent_type == t
            || agent_type
                .rsplit_once(':')
                .is_some_and(|(_, name)| name == t)
    })
}

pub fn run(g: &GlobalOpts, input: &[u8], started: Instant) -> Result<String> {
    let payload = wire::parse(input).ok();
    let Input::Stop(stop) = Input::of(Hook::SubagentStop, payload.as_ref()) else {
        return Ok(EMPTY.into());
    };
    let ctx = open_ctx(g)?;
    crate::trace::note(
        "src hook subagent-stop",
        &format!("opened: {:.1} ms", started.elapsed().as_secs_f64() * 1e3),
    );
    let print = |text: &str| match ctx.config.alerts.delivery {
        Delivery::Lead => EMPTY.to_string(),
        Delivery::SubagentStop => context_json("SubagentStop", text),
    };
    if let Some(t) = stop.agent_type {
        if !is_implementer(&ctx.config, t) {
            audit_ctx(
                &ctx,
                Hook::SubagentStop,
                "ignored",
                payload.as_ref().and_then(|p| p.session_id.as_deref()),
                Some(t),
                started,
            );
            return Ok(EMPTY.into());
        }
    }
    let Some(session) = stop.session else {
        audit_ctx(
            &ctx,
            Hook::SubagentStop,
            "skipped-missing",
            None,
            None,
            started,
        );
        return Ok(print(NO_CHANGES));
    };
    let req = StopRequest {
        session_id: session.to_string(),
        agent_id: stop.agent_id.map(String::from),
        // An empty agent type is an internal fork (it bypasses the matcher): it may report
        // edits, but a "no changes" note from it would only be noise for the lead.
        store_empty: stop.agent_type.is_some(),
        cascade_iteration: crate::cascade::active_for_session(&*ctx.store.conn()?, session)?
            .map(|(_, iteration)| iteration),
    };
    let stopped = stop::on_stop(&ctx, &req, started + ANALYSIS_DEADLINE)?;
    let outcome = match stopped.kind {
        Kind::Impact | Kind::None => "alerted",
        Kind::Suppressed => "suppressed",
        Kind::Empty => "nothing",
    };
    audit_ctx(
        &ctx,
        Hook::SubagentStop,
        outcome,
        Some(session),
        None,
        started,
    );
    crate::trace::note(
        "src hook subagent-stop",
        &format!("done: {:.1} ms", started.elapsed().as_secs_f64() * 1e3),
    );
    Ok(print(&stopped.text))
}
