//! `src doctor [--json] [--repair]`: is the installation working, and at which degradation
//! level. Owns the flags and the printing; the checks and the level are `doctor`'s report.
//! Invariant: exits non-zero when the level is not `full` or any check failed.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use crate::doctor::{self, Repaired};
use crate::workspace::{GlobalOpts, Workspace};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format: text or json (`--json` is the same as `--format json`)
    #[arg(long, value_enum, default_value_t = super::TextOrJson::Text)]
    pub format: super::TextOrJson,
    /// Print a JSON report (`level`, `reason`, `findings`)
    #[arg(long)]
    pub json: bool,
    /// Move a database SQLite cannot use aside (it is kept, renamed), create a new one, rebuild
    /// the index and bring back the events the hooks spilled meanwhile
    #[arg(long)]
    pub repair: bool,
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let ws = Workspace::resolve(g)?;
    if !ws.state_dir.exists() && !ws.db_path.exists() {
        anyhow::bail!(
            "no src project here ({}: no {}): run `src init`",
            ws.root.display(),
            ws.db_path.display()
        );
    }
    let mut out = std::io::stdout().lock();
    if args.repair {
        doctor::repair(&ws, &mut |step| {
            match step {
                Repaired::MovedAside { from, to } => writeln!(
                    out,
                    "repair: moved {} aside to {}",
                    from.display(),
                    to.display()
                )?,
                Repaired::Usable(db) => {
                    writeln!(out, "repair: {} is usable; nothing moved", db.display())?
                }
                Repaired::Rebuilt {
                    files,
                    edges,
                    events,
                } => writeln!(
                    out,
                    "repair: index rebuilt ({files} files, {edges} edges); {events} event(s) in \
                     the database"
                )?,
            }
            Ok(())
        })?;
    }
    let report = doctor::diagnose(&ws, &super::init::src_subcommands())?;
    if args.json || args.format == super::TextOrJson::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        writeln!(out, "level: {} ({})", report.level, report.reason)?;
        for f in &report.findings {
            writeln!(out, "{:<5} {}: {}", f.status, f.check, f.message)?;
        }
    }
    Ok(if report.wrong() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
