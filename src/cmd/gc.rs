//! `src gc [--days N] [--format text|json]`: prune events, alerts and hook runs older than the retention period.
//!
//! Owns only arguments and printing; the pruning is `events::prune`. Invariant: never run from a
//! hook; sessions with any recent activity keep all their rows.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use crate::workspace::GlobalOpts;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Keep this many days [default: retention.days from the config, 30]
    #[arg(long, value_name = "N")]
    pub days: Option<u32>,
    /// Output format: text or json (`--json` is the same as `--format json`)
    #[arg(long, value_enum, default_value_t = super::TextOrJson::Text)]
    pub format: super::TextOrJson,
    /// Print what was pruned as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let ctx = super::open(g)?;
    let days = args.days.unwrap_or(ctx.config.retention.days);
    let mut conn = ctx.store.conn()?;
    let p = crate::events::prune(&mut conn, days)?;
    let mut out = std::io::stdout().lock();
    if args.json || args.format == super::TextOrJson::Json {
        let v = serde_json::json!({
            "days": days,
            "events": p.events,
            "alerts": p.alerts,
            "watermarks": p.watermarks,
            "hook_runs": p.hook_runs,
        });
        serde_json::to_writer_pretty(&mut out, &v)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "pruned {} events, {} alerts, {} watermarks, {} hook runs (older than {days} days)",
        p.events, p.alerts, p.watermarks, p.hook_runs
    )?;
    Ok(ExitCode::SUCCESS)
}
