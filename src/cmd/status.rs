//! `src status [--json]`: how fresh the index is and what to run next.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use crate::workspace::GlobalOpts;

/// How many paths of each list the text output names.
const SHOW: usize = 10;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format: text or json (`--json` is the same as `--format json`)
    #[arg(long, value_enum, default_value_t = super::TextOrJson::Text)]
    pub format: super::TextOrJson,
    /// Print the status as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let ctx = super::open_existing(g)?;
    let st = crate::index::status(&ctx)?;
    let mut out = std::io::stdout().lock();
    if args.json || args.format == super::TextOrJson::Json {
        serde_json::to_writer_pretty(&mut out, &st)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "files indexed: {}", st.indexed)?;
    for (label, list) in [
        ("stale", &st.stale),
        ("missing", &st.missing),
        ("out of scope", &st.out_of_scope),
        ("new", &st.new),
    ] {
        writeln!(out, "{label}: {}", list.len())?;
        for p in list.iter().take(SHOW) {
            writeln!(out, "  {p}")?;
        }
        if list.len() > SHOW {
            writeln!(out, "  … and {} more", list.len() - SHOW)?;
        }
    }
    let skipped: u64 = st.skipped.values().sum();
    let parts: Vec<String> = st.skipped.iter().map(|(r, n)| format!("{n} {r}")).collect();
    if parts.is_empty() {
        writeln!(out, "skipped: 0")?;
    } else {
        writeln!(out, "skipped: {skipped} ({})", parts.join(", "))?;
    }
    if let Some(n) = st.ignored {
        writeln!(
            out,
            "ignored: {n} untracked file(s) in scope left out by ignore rules"
        )?;
    }
    let never = "never".to_string();
    writeln!(
        out,
        "last full scan: {}",
        st.last_full_scan.as_ref().unwrap_or(&never)
    )?;
    writeln!(
        out,
        "last incremental scan: {}",
        st.last_incremental_scan.as_ref().unwrap_or(&never)
    )?;
    writeln!(
        out,
        "recommendation: {} ({})",
        st.recommendation.as_str(),
        st.reason
    )?;
    Ok(ExitCode::SUCCESS)
}
