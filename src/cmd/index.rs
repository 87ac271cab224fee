//! `src index [--full] [--json]`: brings the index up to date and prints what it did.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use crate::ctx::Ctx;
use crate::index::{self, IndexOptions};
use crate::workspace::GlobalOpts;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rebuild the index from nothing instead of updating it
    #[arg(long)]
    pub full: bool,
    /// Output format: text or json (`--json` is the same as `--format json`)
    #[arg(long, value_enum, default_value_t = super::TextOrJson::Text)]
    pub format: super::TextOrJson,
    /// Print the report as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let ctx = super::open(g)?;
    let report = index::run(
        &ctx,
        &IndexOptions {
            full: args.full,
            progress: !(args.json || args.format == super::TextOrJson::Json),
        },
    )?;
    prune_now_and_then(&ctx)?;
    let mut out = std::io::stdout().lock();
    if args.json || args.format == super::TextOrJson::Json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    for note in &report.notes {
        writeln!(out, "note: {note}")?;
    }
    writeln!(
        out,
        "{} index: {} files in scope, {} read, {} added, {} changed, {} removed, {} renamed; {} edges ({} ms)",
        report.mode,
        report.files_in_scope,
        report.files_read,
        report.added,
        report.changed,
        report.removed,
        report.renamed,
        report.edges,
        report.duration_ms
    )?;
    if !report.skipped.is_empty() {
        let parts: Vec<String> = report
            .skipped
            .iter()
            .map(|(reason, n)| format!("{n} {reason}"))
            .collect();
        writeln!(out, "skipped: {}", parts.join(", "))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Retention, opportunistically: at most once a day, `src index` prunes events, alerts and hook
/// runs of sessions older than `retention.days` (never on the hook hot path).
fn prune_now_and_then(ctx: &Ctx) -> Result<()> {
    const KEY: &str = "last_prune";
    let mut conn = ctx.store.conn()?;
    let today = crate::clock::today().to_string();
    if crate::store::meta_get(&conn, KEY)?.as_deref() == Some(today.as_str()) {
        return Ok(());
    }
    crate::events::prune(&mut conn, ctx.config.retention.days)?;
    crate::store::meta_set(&conn, KEY, &today)?;
    Ok(())
}
