//! `src init`: writes a commented default config (if absent) and creates the database.
//! Idempotent: running it again changes nothing that exists.
//!
//! `src init --claude` is the one-command setup for a Claude Code project: config and database,
//! the hook entries in `.claude/settings.json` (none while the `src` plugin is enabled and
//! installed for the project: its hooks are the same, and both would run every hook twice), the
//! three skills, and the first full index; it prints what it did and how to undo it, and ends by
//! naming the project's own skills of our names that run no `src` command. `--uninstall` removes exactly what setup added, as
//! recorded in `.src/setup.json`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::ctx::Ctx;
use crate::events::settings;
use crate::index::{self, IndexOptions};
use crate::skills::{self, plugin, Step};
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

/// What `init --claude` added, so `--uninstall` removes exactly that. Paths are relative to
/// the root it was written for (`root`); a manifest of another root is refused, so that a copy
/// of a project never acts on the original (older manifests held absolute paths).
#[derive(Debug, Default, Serialize, Deserialize)]
struct Manifest {
    #[serde(default)]
    root: Option<PathBuf>,
    created_state_dir: bool,
    settings: Option<PathBuf>,
    skills: Vec<PathBuf>,
    execution_code: Option<PatchRecord>,
    /// Files src replaced, with the copy kept of each: `(path, backup)`, both root-relative.
    #[serde(default)]
    backups: Vec<(PathBuf, PathBuf)>,
}

#[derive(Debug, Serialize, Deserialize)]
struct PatchRecord {
    path: PathBuf,
    old_line: String,
    new_line: String,
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
    let ctx = Ctx::open_ws(ws)?;
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
    let mut manifest = read_manifest(&ctx.ws)?.unwrap_or_default();
    manifest.root = Some(canonical(&ctx.ws.root));
    manifest.created_state_dir |= created_state_dir;
    let backups = crate::fsutil::backup_dir(&ctx.ws.state_dir);
    let root = ctx.ws.root.clone();
    let kept = |m: &mut Manifest, out: &mut dyn Write, path: &Path| -> Result<()> {
        if let Some(b) = crate::fsutil::backup(&root, &backups, path)? {
            writeln!(
                out,
                "backup: {} kept as {}",
                shown(&ctx.ws, path),
                shown(&ctx.ws, &b)
            )?;
            m.backups.push((rel_to(&root, path), rel_to(&root, &b)));
        }
        Ok(())
    };

    if let Some(key) = plugin_hooks(&ctx.ws, &mut out, "runs")? {
        writeln!(
            out,
            "hooks: provided by the plugin {key}; no entries added to .claude/settings.json"
        )?;
    } else {
        let plan = hooks_plan(&ctx.ws, &ctx.config)?;
        for a in &plan.actions {
            writeln!(out, "hooks: {a}")?;
        }
        if plan.changed {
            if let Some(b) = settings::apply(&plan, &ctx.ws.root, &backups)? {
                writeln!(
                    out,
                    "backup: {} kept as {}",
                    shown(&ctx.ws, &plan.path),
                    shown(&ctx.ws, &b)
                )?;
            }
            writeln!(out, "hooks: wrote {}", plan.path.display())?;
        }
        manifest.settings = Some(rel_to(&ctx.ws.root, &plan.path));
    }

    let skill_plan = skills::plan(&ctx.ws.root, args.force);
    for p in &skill_plan {
        writeln!(
            out,
            "skill: {} {}",
            step_word(&p.step),
            shown(&ctx.ws, &p.path)
        )?;
        if matches!(p.step, Step::Overwrite) {
            kept(&mut manifest, &mut out, &p.path)?;
        }
    }
    for path in skills::apply(&skill_plan)? {
        let rel = rel_to(&ctx.ws.root, &path);
        if !manifest.skills.contains(&rel) {
            manifest.skills.push(rel);
        }
    }

    if let Some(patch) = skills::execution_code_patch(&ctx.ws.root) {
        if args.patch_execution_code {
            kept(&mut manifest, &mut out, &patch.path)?;
            crate::fsutil::write_atomic(&patch.path, patch.new_text.as_bytes())?;
            writeln!(out, "execution-code: OUTPUT_TO now names execution-impact")?;
            manifest.execution_code = Some(PatchRecord {
                path: rel_to(&ctx.ws.root, &patch.path),
                old_line: patch.old_line.clone(),
                new_line: patch.new_line.clone(),
            });
        } else {
            writeln!(
                out,
                "execution-code: proposed change (apply with --patch-execution-code):"
            )?;
            write!(out, "{}", patch.diff(&shown(&ctx.ws, &patch.path)))?;
        }
    }
    write_manifest(&ctx.ws, &manifest)?;

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

/// When the plugin's hooks run for this project: its key, after saying whether the settings
/// still hold entries of an earlier setup (then every hook would run twice).
fn plugin_hooks(ws: &Workspace, out: &mut impl Write, runs: &str) -> Result<Option<String>> {
    let Some(inst) = plugin::find_install(&ws.root, plugin::claude_config_dir().as_deref())
        .filter(plugin::Install::active)
    else {
        return Ok(None);
    };
    for name in ["settings.json", "settings.local.json"] {
        let path = ws.root.join(".claude").join(name);
        if let Ok((doc, true)) = settings::read(&path) {
            if !settings::installed(&doc).is_empty() {
                writeln!(
                    out,
                    "hooks: {} also holds src's entries from an earlier setup, so every hook \
                     {runs} twice: remove them with `src hooks install --uninstall{}`",
                    shown(ws, &path),
                    if name == "settings.json" {
                        String::new()
                    } else {
                        format!(" --settings {}", shown(ws, &path))
                    }
                )?;
            }
        }
    }
    Ok(Some(inst.key))
}

/// Says plainly, last, which of our skill names the project already uses for skills that run
/// no `src` command: until they are replaced, the project does not use `src` there.
fn foreign_skills_note(ws: &Workspace, out: &mut impl Write) -> Result<()> {
    let foreign: Vec<PathBuf> = skills::survey(&ws.root, &src_subcommands())
        .into_iter()
        .filter(|(_, _, f)| *f == skills::Found::Foreign)
        .map(|(_, p, _)| p)
        .collect();
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

fn hooks_plan(ws: &Workspace, cfg: &config::Config) -> Result<settings::Plan> {
    let path = ws.root.join(".claude").join("settings.json");
    let bin = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .context("finding the path of this src binary")?;
    settings::plan_install(
        &path,
        &bin,
        &settings::wanted(&cfg.alerts.implementer_types),
    )
}

fn dry_run(ws: &Workspace, args: &Args, out: &mut impl Write) -> Result<ExitCode> {
    let loaded = config::load(&ws.config_path)?;
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
    if let Some(key) = plugin_hooks(ws, out, "would run")? {
        writeln!(
            out,
            "hooks: provided by the plugin {key}; would add no entries to .claude/settings.json"
        )?;
    } else {
        let plan = hooks_plan(ws, &loaded.config)?;
        for a in &plan.actions {
            writeln!(out, "hooks: would {a}")?;
        }
    }
    for p in skills::plan(&ws.root, args.force) {
        writeln!(
            out,
            "skill: would {} {}",
            step_word(&p.step),
            shown(ws, &p.path)
        )?;
    }
    if let Some(patch) = skills::execution_code_patch(&ws.root) {
        writeln!(
            out,
            "execution-code: proposed change (--patch-execution-code):"
        )?;
        write!(out, "{}", patch.diff(&shown(ws, &patch.path)))?;
    }
    writeln!(out, "index: would run a full index of the scope")?;
    if !args.force {
        foreign_skills_note(ws, out)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn uninstall(ws: &Workspace, out: &mut impl Write) -> Result<ExitCode> {
    let Some(m) = read_manifest(ws)? else {
        writeln!(
            out,
            "nothing to undo: no {} found",
            manifest_path(ws).display()
        )?;
        return Ok(ExitCode::SUCCESS);
    };
    let at = |p: &PathBuf| ws.root.join(p);
    let backups = crate::fsutil::backup_dir(&ws.state_dir);
    if let Some(path) = &m.settings {
        let path = at(path);
        let plan = settings::plan_uninstall(&path)?;
        for a in &plan.actions {
            writeln!(out, "hooks: {a}")?;
        }
        if plan.changed {
            if let Some(b) = settings::apply(&plan, &ws.root, &backups)? {
                writeln!(
                    out,
                    "backup: {} kept as {}",
                    shown(ws, &path),
                    shown(ws, &b)
                )?;
            }
        }
    }
    for rel in &m.skills {
        let path = at(rel);
        if skills::remove_if_ours(&path)? {
            writeln!(out, "skill: removed {}", shown(ws, &path))?;
        } else if path.exists() {
            writeln!(
                out,
                "skill: kept {} (changed since setup)",
                shown(ws, &path)
            )?;
        }
    }
    // Files setup replaced come back from their copies (the first copy of each: the original).
    let mut restored: Vec<&PathBuf> = Vec::new();
    for (rel, copy) in &m.backups {
        if restored.contains(&rel) || m.execution_code.as_ref().is_some_and(|p| &p.path == rel) {
            continue;
        }
        let (path, copy) = (at(rel), at(copy));
        if !path.exists() && copy.is_file() {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
            }
            std::fs::copy(&copy, &path)
                .with_context(|| format!("restoring {} from {}", path.display(), copy.display()))?;
            writeln!(
                out,
                "restored: {} (from {})",
                shown(ws, &path),
                shown(ws, &copy)
            )?;
            restored.push(rel);
        }
    }
    if let Some(p) = &m.execution_code {
        revert_patch(p, ws, out)?;
    }
    if m.created_state_dir && ws.state_dir.starts_with(&ws.root) && m.backups.is_empty() {
        std::fs::remove_dir_all(&ws.state_dir)
            .with_context(|| format!("removing {}", ws.state_dir.display()))?;
        writeln!(out, "state: removed {}", ws.state_dir.display())?;
    } else {
        std::fs::remove_file(manifest_path(ws)).ok();
        let why = if m.backups.is_empty() {
            "it existed before setup"
        } else {
            "it holds the backups of the files setup replaced"
        };
        writeln!(out, "state: kept {} ({why})", ws.state_dir.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn revert_patch(p: &PatchRecord, ws: &Workspace, out: &mut impl Write) -> Result<()> {
    let path = ws.root.join(&p.path);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(());
    };
    if text.lines().any(|l| l == p.new_line) {
        crate::fsutil::write_atomic(&path, text.replacen(&p.new_line, &p.old_line, 1).as_bytes())?;
        writeln!(
            out,
            "execution-code: OUTPUT_TO restored in {}",
            shown(ws, &path)
        )?;
    }
    Ok(())
}

/// The names of `src`'s subcommands, for telling a skill that runs `src` from one that does not.
pub(crate) fn src_subcommands() -> Vec<String> {
    use clap::CommandFactory;
    super::Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect()
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// `path` relative to `root` (as recorded in the manifest); kept whole if outside it.
fn rel_to(root: &Path, path: &Path) -> PathBuf {
    path.strip_prefix(root)
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| path.to_path_buf())
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

fn manifest_path(ws: &Workspace) -> PathBuf {
    ws.state_dir.join("setup.json")
}

/// The setup manifest, with every path made relative to this root. A manifest written for
/// another root (a copy of a project carries its original's) is refused, naming both, and so is
/// an old one holding an absolute path outside this root: acting on it would change files of
/// another project.
fn read_manifest(ws: &Workspace) -> Result<Option<Manifest>> {
    let path = manifest_path(ws);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    let mut m: Manifest = serde_json::from_str(&text)
        .with_context(|| format!("reading {}: not a setup manifest", path.display()))?;
    let here = canonical(&ws.root);
    let refuse = |other: &Path| {
        anyhow::anyhow!(
            "{} was written for the project at {}, not this one at {}: refusing to act on it \
             (a copy of a project keeps its original's manifest); remove it to start afresh",
            path.display(),
            other.display(),
            here.display()
        )
    };
    if let Some(r) = &m.root {
        if canonical(r) != here {
            return Err(refuse(r));
        }
    }
    let fix = |p: &mut PathBuf| -> Result<()> {
        if p.is_absolute() {
            let rel = p
                .strip_prefix(&here)
                .or_else(|_| p.strip_prefix(&ws.root))
                .map_err(|_| refuse(p.parent().unwrap_or(p)))?;
            *p = rel.to_path_buf();
        }
        Ok(())
    };
    if let Some(s) = m.settings.as_mut() {
        fix(s)?;
    }
    for s in m.skills.iter_mut() {
        fix(s)?;
    }
    if let Some(p) = m.execution_code.as_mut() {
        fix(&mut p.path)?;
    }
    Ok(Some(m))
}

fn write_manifest(ws: &Workspace, m: &Manifest) -> Result<()> {
    let path = manifest_path(ws);
    crate::fsutil::write_atomic(&path, serde_json::to_string_pretty(m)?.as_bytes())
}
