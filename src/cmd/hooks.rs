//! `src hooks install [--settings PATH] [--dry-run] [--uninstall]`: wire our hooks into Claude
//! Code's settings, or take them out again.
//!
//! Owns only the arguments and the printing; the merge is `events::settings`. Invariant: the
//! commands name this binary by its absolute path, so hooks work whatever the hook's working
//! directory and PATH are; the project is found through `CLAUDE_PROJECT_DIR`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::events::settings;
use crate::workspace::{GlobalOpts, Workspace};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Merge the hook entries into .claude/settings.json (idempotent, keeps a .bak)
    Install(InstallArgs),
}

#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    /// Settings file [default: <root>/.claude/settings.json]
    #[arg(long, value_name = "PATH")]
    pub settings: Option<PathBuf>,
    /// Print what would change; write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Remove exactly our entries instead
    #[arg(long)]
    pub uninstall: bool,
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let Action::Install(a) = &args.action;
    let ws = Workspace::resolve(g)?;
    let path = a
        .settings
        .clone()
        .unwrap_or_else(|| ws.root.join(".claude").join("settings.json"));
    let plan = if a.uninstall {
        settings::plan_uninstall(&path)?
    } else {
        let loaded = crate::config::load(&ws.config_path)?;
        for w in &loaded.warnings {
            eprintln!("warning: {w}");
        }
        let bin = std::env::current_exe()
            .and_then(|p| p.canonicalize())
            .context("finding the path of this src binary")?;
        let wanted = settings::wanted(&loaded.config.alerts.implementer_types);
        settings::plan_install(&path, &bin, &wanted)?
    };
    let mut out = std::io::stdout().lock();
    for action in &plan.actions {
        writeln!(out, "{action}")?;
    }
    if !plan.changed {
        writeln!(out, "{} is up to date", path.display())?;
    } else if a.dry_run {
        writeln!(out, "would write {}:", path.display())?;
        write!(out, "{}", plan.after)?;
    } else {
        let backup = settings::apply(&plan, &ws.root, &crate::fsutil::backup_dir(&ws.state_dir))?;
        match backup {
            Some(b) => writeln!(
                out,
                "wrote {} (previous file kept as {})",
                path.display(),
                b.display()
            )?,
            None => writeln!(out, "wrote {}", path.display())?,
        }
    }
    Ok(ExitCode::SUCCESS)
}
