//! `src init`: writes a commented default config (if absent) and creates the database.
//! Idempotent: running it again changes nothing that exists.
//!
//! `src init --claude` is the one-command setup for a Claude Code project: config and database,
//! then `install::setup` (the hook entries in `.claude/settings.json`, none while the `src`
//! plugin is enabled and installed for the project; the three skills), and the first full
//! index; it prints what it did and how to undo it, and ends by naming the project's own skills
//! of our names that run no `src` command. `--uninstall` removes exactly what setup added, as
//! recorded in `.src/setup.json`. Owns the arguments and the printing only.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::index::{self, IndexOptions};
use crate::install::setup::{self, Note, Options};
use crate::install::skills::Step;
use crate::workspace::{GlobalOpts, Workspace};
use crate::{config, store};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Also set up Claude Code: hooks, skills and the first full index
    #[arg(long)]
    pub claude: bool,
    /// With --claude: print what would be done; change nothing
    #[arg(long, requires = "claude")]
    pub dry_run: bool,
    /// With --claude: overwrite existing skill files of the same names
    #[arg(long, requires = "claude")]
    pub force: bool,
    /// With --claude: add execution-impact to the execution-code skill's OUTPUT_TO line
    #[arg(long, requires = "claude")]
    pub patch_execution_code: bool,
    /// With --claude: remove exactly what the setup added
    #[arg(long, requires = "claude", conflicts_with_all = ["dry_run", "force", "patch_execution_code"])]
    pub uninstall: bool,
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let ws = Workspace::resolve(g)?;
    let mut out = std::io::stdout().lock();
    if args.uninstall {
        return uninstall(&ws, &mut out);
    }
    if args.dry_run {
        return dry_run(&ws, args, &mut out);
    }
    let created_state_dir = !ws.state_dir.exists();
    ws.ensure_state_dir()?;
    write_config(&ws, &mut out)?;
    let ctx = super::open_ws(ws)?;
    writeln!(
        out,
        "database: {} (schema {})",
        ctx.ws.db_path.display(),
        store::latest_version()
    )?;
    writeln!(out, "root: {}", ctx.ws.root.display())?;
    if !args.claude {
        return Ok(ExitCode::SUCCESS);
    }
    let opts = Options {
        force: args.force,
        patch_execution_code: args.patch_execution_code,
        created_state_dir,
        dry_run: false,
    };
    setup::setup(&ctx.ws, &ctx.config, &opts, &mut |n| {
        print_note(&ctx.ws, &mut out, n, false)
    })?;

    let report = index::run(
        &ctx,
        &IndexOptions {
            full: true,
            progress: true,
        },
    )?;
    writeln!(
        out,
        "index: {} files, {} edges ({} ms)",
        report.files_in_scope, report.edges, report.duration_ms
    )?;
    writeln!(out, "done. Check with: src doctor")?;
    writeln!(out, "undo with:        src init --claude --uninstall")?;
    foreign_skills_note(&ctx.ws, &mut out)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints one step of setup or uninstall (`dry`: as what would be done).
fn print_note(ws: &Workspace, out: &mut impl Write, note: Note, dry: bool) -> Result<()> {
    let would = if dry { "would " } else { "" };
    match note {
        Note::DuplicateHooks { settings, local } => writeln!(
            out,
            "hooks: {} also holds src's entries from an earlier setup, so every hook \
             {} twice: remove them with `src hooks install --uninstall{}`",
            shown(ws, &settings),
            if dry { "would run" } else { "runs" },
            if local {
                format!(" --settings {}", shown(ws, &settings))
            } else {
                String::new()
            }
        )?,
        Note::PluginHooks { key } if dry => writeln!(
            out,
            "hooks: provided by the plugin {key}; would add no entries to .claude/settings.json"
        )?,
        Note::PluginHooks { key } => writeln!(
            out,
            "hooks: provided by the plugin {key}; no entries added to .claude/settings.json"
        )?,
        Note::Hook(a) => writeln!(out, "hooks: {would}{a}")?,
        Note::Backup { path, copy } => writeln!(
            out,
            "backup: {} kept as {}",
            shown(ws, &path),
            shown(ws, &copy)
        )?,
        Note::WroteSettings(path) => writeln!(out, "hooks: wrote {}", path.display())?,
        Note::Skill { step, path } => writeln!(
            out,
            "skill: {would}{} {}",
            step_word(&step),
            shown(ws, &path)
        )?,
        Note::PatchApplied => {
            writeln!(out, "execution-code: OUTPUT_TO now names execution-impact")?
        }
        Note::PatchProposed(patch) => {
            if dry {
                writeln!(
                    out,
                    "execution-code: proposed change (--patch-execution-code):"
                )?;
            } else {
                writeln!(
                    out,
                    "execution-code: proposed change (apply with --patch-execution-code):"
                )?;
            }
            write!(out, "{}", patch.diff(&shown(ws, &patch.path)))?;
        }
        Note::SkillRemoved(path) => writeln!(out, "skill: removed {}", shown(ws, &path))?,
        Note::SkillKept(path) => writeln!(
            out,
            "skill: kept {} (changed since setup)",
            shown(ws, &path)
        )?,
        Note::Restored { path, copy } => writeln!(
            out,
            "restored: {} (from {})",
            shown(ws, &path),
            shown(ws, &copy)
        )?,
        Note::PatchReverted(path) => writeln!(
            out,
            "execution-code: OUTPUT_TO restored in {}",
            shown(ws, &path)
        )?,
        Note::StateRemoved(dir) => writeln!(out, "state: removed {}", dir.display())?,
        Note::StateKept { dir, why } => writeln!(out, "state: kept {} ({why})", dir.display())?,
    }
    Ok(())
}

/// Says plainly, last, which of our skill names the project already uses for skills that run
/// no `src` command: until they are replaced, the project does not use `src` there.
fn foreign_skills_note(ws: &Workspace, out: &mut impl Write) -> Result<()> {
    let foreign = setup::foreign_skills(&ws.root, &src_subcommands());
    if foreign.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "note: this project has its own skills of these names, which run no src command, so it \
         will not use src for them:"
    )?;
    for p in &foreign {
        writeln!(out, "  {}", shown(ws, p))?;
    }
    writeln!(
        out,
        "replace them with: src init --claude --force (the old files are kept under \
         .src/backup/, and `src init --claude --uninstall` puts them back)"
    )?;
    Ok(())
}

fn write_config(ws: &Workspace, out: &mut impl Write) -> Result<()> {
    if ws.config_path.exists() {
        writeln!(out, "config: {} (kept)", ws.config_path.display())?;
        return Ok(());
    }
    if let Some(dir) = ws.config_path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    // A plugin or a marketplace keeps its components at the root, not under `.claude/`: the
    // scope covers what is there, and says so.
    let (scope, found) = config::scope_for_tree(&ws.root);
    let cfg = config::Config {
        scope,
        ..config::Config::default()
    };
    std::fs::write(&ws.config_path, config::yaml_for(&cfg))
        .with_context(|| format!("writing {}", ws.config_path.display()))?;
    writeln!(out, "config: {} (written)", ws.config_path.display())?;
    if !found.is_empty() {
        writeln!(
            out,
            "scope: a plugin or marketplace layout ({}): included beside .claude/",
            found.join(", ")
        )?;
    }
    Ok(())
}

fn dry_run(ws: &Workspace, args: &Args, out: &mut impl Write) -> Result<ExitCode> {
    let loaded = config::load(&ws.config_path, config::OnInvalid::Fail)?;
    let verb = if ws.config_path.exists() {
        "keep"
    } else {
        "write"
    };
    writeln!(out, "config: would {verb} {}", ws.config_path.display())?;
    writeln!(
        out,
        "database: would create or migrate {}",
        ws.db_path.display()
    )?;
    let opts = Options {
        force: args.force,
        dry_run: true,
        ..Options::default()
    };
    setup::setup(ws, &loaded.config, &opts, &mut |n| {
        print_note(ws, out, n, true)
    })?;
    writeln!(out, "index: would run a full index of the scope")?;
    if !args.force {
        foreign_skills_note(ws, out)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn uninstall(ws: &Workspace, out: &mut impl Write) -> Result<ExitCode> {
    if !setup::uninstall(ws, &mut |n| print_note(ws, out, n, false))? {
        writeln!(
            out,
            "nothing to undo: no {} found",
            setup::manifest_path(ws).display()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The names of `src`'s subcommands, for telling a skill that runs `src` from one that does not.
pub(crate) fn src_subcommands() -> Vec<String> {
    use clap::CommandFactory;
    super::Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect()
}

fn step_word(step: &Step) -> &'static str {
    match step {
        Step::Create => "create",
        Step::Overwrite => "overwrite",
        Step::KeepExisting => "keep existing (use --force to overwrite)",
        Step::Unchanged => "unchanged",
    }
}

fn shown(ws: &Workspace, path: &Path) -> String {
    ws.relative(path)
        .unwrap_or_else(|| path.display().to_string())
}
