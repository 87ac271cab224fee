//! `src hook …`: the entry points Claude Code runs, one per hook (JSON on stdin).
//!
//! Owns reading stdin, catching every failure and panic, and what reaches stdout. Invariant: a
//! hook always exits 0; `post-tool-use` never prints; `subagent-stop` and `deliver` print exactly
//! one JSON object. Errors go to the audit table and, when `SRC_DEBUG` names a file, to that file.

use std::io::{Read, Write};
use std::panic::AssertUnwindSafe;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::events::{self, Run};
use crate::workspace::{GlobalOpts, Workspace};

mod deliver;
pub mod input;
mod post_tool_use;
mod subagent_stop;
pub mod wire;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub hook: Hook,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Subcommand)]
pub enum Hook {
    /// Record an Edit/Write/MultiEdit/NotebookEdit call, or the files a Bash call changed
    /// (PostToolUse); prints nothing
    PostToolUse,
    /// Compute the impact alert when an implementer stops (SubagentStop); prints one JSON object
    SubagentStop,
    /// Deliver pending alerts to the lead (PostToolBatch; PostToolUse on Agent/Task and
    /// UserPromptSubmit for clients without it)
    Deliver,
}

impl Hook {
    pub fn name(self) -> &'static str {
        match self {
            Hook::PostToolUse => "post-tool-use",
            Hook::SubagentStop => "subagent-stop",
            Hook::Deliver => "deliver",
        }
    }
}

/// The JSON a hook prints when it has nothing to say (or failed).
pub const EMPTY: &str = "{}";

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let started = Instant::now();
    let hook = args.hook;
    let mut input = Vec::new();
    let _ = std::io::stdin().lock().read_to_end(&mut input);
    let result = std::panic::catch_unwind(AssertUnwindSafe(|| match hook {
        Hook::PostToolUse => post_tool_use::run(g, &input, started).map(|()| None),
        Hook::SubagentStop => subagent_stop::run(g, &input, started).map(Some),
        Hook::Deliver => deliver::run(g, &input, started).map(Some),
    }));
    let fallback = || (hook != Hook::PostToolUse).then(|| EMPTY.to_string());
    let out = match result {
        Ok(Ok(out)) => out,
        Ok(Err(err)) => {
            let msg = format!("{err:#}");
            debug(hook, &msg);
            let _ =
                std::panic::catch_unwind(AssertUnwindSafe(|| audit_error(g, hook, &msg, started)));
            fallback()
        }
        Err(_) => {
            debug(hook, "panic");
            fallback()
        }
    };
    if let Some(json) = out {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{json}");
        let _ = stdout.flush();
    }
    Ok(ExitCode::SUCCESS)
}

/// Appends a line to the file named by `SRC_DEBUG`, if any. Never fails. (Called on error,
/// spill and panic paths only, so the timestamp costs nothing on the hot path.)
pub fn debug(hook: Hook, msg: &str) {
    crate::trace::note(
        &format!("{} src hook {}", crate::clock::now(), hook.name()),
        msg,
    );
}

/// Records a failed run in the audit table when the database can be reached at all.
fn audit_error(g: &GlobalOpts, hook: Hook, msg: &str, started: Instant) {
    let Ok(ws) = Workspace::resolve(g) else {
        return;
    };
    let run = Run {
        event: hook.name(),
        outcome: "error",
        duration_us: micros(started),
        session_id: None,
        detail: Some(msg),
    };
    if let Err(e) = events::record::audit_only(&ws, hook_budget(&ws), &run) {
        debug(hook, &format!("audit failed: {e:#}"));
    }
}

pub fn micros(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// The context of `subagent-stop` and `deliver`: like `Ctx::open`, but config warnings are not
/// printed (a hook's stderr is noise) and the spill journal is ingested first all the same.
pub fn open_ctx(g: &GlobalOpts) -> Result<crate::ctx::Ctx> {
    let ctx = crate::ctx::Ctx::open_for_hook(Workspace::resolve(g)?)?;
    events::ingest_spill(&ctx.ws, &ctx.store)?;
    Ok(ctx)
}

/// Audits a run of `subagent-stop` or `deliver` on an opened context; failures only logged.
pub fn audit_ctx(
    ctx: &crate::ctx::Ctx,
    hook: Hook,
    outcome: &str,
    session: Option<&str>,
    detail: Option<&str>,
    started: Instant,
) {
    let res = ctx.store.conn().and_then(|conn| {
        events::audit(
            &conn,
            &Run {
                event: hook.name(),
                outcome,
                duration_us: micros(started),
                session_id: session,
                detail,
            },
            &crate::clock::now(),
        )
    });
    if let Err(e) = res {
        debug(hook, &format!("audit failed: {e:#}"));
    }
}

/// `{"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}`.
pub fn context_json(event: &str, text: &str) -> String {
    serde_json::json!({
        "hookSpecificOutput": {"hookEventName": event, "additionalContext": text}
    })
    .to_string()
}

/// `limits.hook_budget_ms`, reading the config only when the file exists.
pub fn hook_budget(ws: &Workspace) -> Duration {
    let default = crate::config::Limits::default().hook_budget_ms;
    let ms = if ws.config_path.is_file() {
        crate::config::load(&ws.config_path, crate::config::OnInvalid::Defaults)
            .map(|l| l.config.limits.hook_budget_ms)
            .unwrap_or(default)
    } else {
        default
    };
    Duration::from_millis(ms)
}
