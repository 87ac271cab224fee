//! `src hooks install [--settings PATH] [--dry-run] [--uninstall] [--format text|json]`: wire our hooks into Claude
//! Code's settings, or take them out again.
//!
//! Owns only the arguments and the printing; the merge is `install::settings`. Invariant: the
//! commands name this binary by its absolute path, so hooks work whatever the hook's working
//! directory and PATH are; the project is found through `CLAUDE_PROJECT_DIR`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::install::settings;
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
    /// Output format: text or json (`--json` is the same as `--format json`)
    #[arg(long, value_enum, default_value_t = super::TextOrJson::Text)]
    pub format: super::TextOrJson,
    /// Print the plan and what was written as JSON
    #[arg(long)]
    pub json: bool,
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
        let loaded = crate::config::load(&ws.config_path, crate::config::OnInvalid::Fail)?;
        for w in &loaded.warnings {
            eprintln!("warning: {w}");
        }
        let bin = std::env::current_exe()
            .and_then(|p| p.canonicalize())
            .context("finding the path of this src binary")?;
        let wanted = settings::wanted(&loaded.config.alerts.implementer_types);
        settings::plan_install(&path, &bin, &wanted)?
    };
    let backup = if plan.changed && !a.dry_run {
        settings::apply(&plan, &ws.root, &crate::fsutil::backup_dir(&ws.state_dir))?
    } else {
        None
    };
    let mut out = std::io::stdout().lock();
    if a.json || a.format == super::TextOrJson::Json {
        let actions: Vec<serde_json::Value> = plan.actions.iter().map(action_json).collect();
        let v = serde_json::json!({
            "settings": path,
            "actions": actions,
            "changed": plan.changed,
            "dry_run": a.dry_run,
            "written": plan.changed && !a.dry_run,
            "backup": backup,
            "after": (plan.changed && a.dry_run).then_some(&plan.after),
        });
        serde_json::to_writer_pretty(&mut out, &v)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    for action in &plan.actions {
        writeln!(out, "{action}")?;
    }
    if !plan.changed {
        writeln!(out, "{} is up to date", path.display())?;
    } else if a.dry_run {
        writeln!(out, "would write {}:", path.display())?;
        write!(out, "{}", plan.after)?;
    } else {
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

/// One planned change as `{action, event, matcher, command}`.
fn action_json(a: &settings::Action) -> serde_json::Value {
    use settings::Action::{Add, Keep, Remove, Update};
    let (verb, event, matcher, command) = match a {
        Add {
            event,
            matcher,
            command,
        } => ("add", event, matcher, command),
        Update {
            event,
            matcher,
            command,
        } => ("update", event, matcher, command),
        Keep {
            event,
            matcher,
            command,
        } => ("keep", event, matcher, command),
        Remove {
            event,
            matcher,
            command,
        } => ("remove", event, matcher, command),
    };
    serde_json::json!({"action": verb, "event": event, "matcher": matcher, "command": command})
}
