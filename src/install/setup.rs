//! The setup `src init --claude` performs (hook entries or the plugin's, the skills, the
//! execution-code patch) and the `--uninstall` that undoes it, as recorded in `.src/setup.json`.
//!
//! Reports each step as a [`Note`] through a callback, in the order it happens, so the command
//! prints as it goes and says nothing itself of what was done. Does not create the config, the
//! database or the index (the command does, around it). Invariant: the manifest names paths
//! relative to the root it was written for, and a manifest of another root is refused, so a copy
//! of a project never acts on the original (older manifests held absolute paths).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::plugin;
use super::settings::{self, Action};
use super::skills::{self, Patch, Step};
use crate::config::Config;
use crate::workspace::Workspace;

/// What `init --claude` added, so `--uninstall` removes exactly that. Paths are relative to
/// the root it was written for (`root`).
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

/// How to set up.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Overwrite existing skill files of the same names.
    pub force: bool,
    /// Apply the execution-code patch instead of proposing it.
    pub patch_execution_code: bool,
    /// The state folder did not exist before this run (uninstall may then remove it).
    pub created_state_dir: bool,
    /// Report what would be done; change nothing.
    pub dry_run: bool,
}

/// One step of a setup or an uninstall, in the order it happened (or, dry, would happen).
#[derive(Debug)]
pub enum Note {
    /// The plugin's hooks run for this project, and this settings file still holds src's
    /// entries of an earlier setup (every hook runs twice).
    DuplicateHooks { settings: PathBuf, local: bool },
    /// The plugin provides the hooks: no settings entries are added.
    PluginHooks { key: String },
    /// One change to the settings' hook entries.
    Hook(Action),
    /// A file was copied before it was replaced.
    Backup { path: PathBuf, copy: PathBuf },
    /// The settings file was written.
    WroteSettings(PathBuf),
    /// What happens to one skill file.
    Skill { step: Step, path: PathBuf },
    /// The execution-code skill's `OUTPUT_TO` now names execution-impact.
    PatchApplied,
    /// The change to the execution-code skill, not applied.
    PatchProposed(Patch),
    /// Uninstall: a skill file removed.
    SkillRemoved(PathBuf),
    /// Uninstall: a skill file kept because it changed since setup.
    SkillKept(PathBuf),
    /// Uninstall: a file setup replaced, restored from its copy.
    Restored { path: PathBuf, copy: PathBuf },
    /// Uninstall: the execution-code patch reverted.
    PatchReverted(PathBuf),
    /// Uninstall: the state folder removed.
    StateRemoved(PathBuf),
    /// Uninstall: the state folder kept, and why.
    StateKept { dir: PathBuf, why: &'static str },
}

/// Sets up Claude Code for the project (or, with `dry_run`, reports what it would do), telling
/// `note` each step as it happens; records what it added in the manifest.
pub fn setup(
    ws: &Workspace,
    cfg: &Config,
    opts: &Options,
    note: &mut dyn FnMut(Note) -> Result<()>,
) -> Result<()> {
    let mut manifest = if opts.dry_run {
        Manifest::default()
    } else {
        read_manifest(ws)?.unwrap_or_default()
    };
    manifest.root = Some(canonical(&ws.root));
    manifest.created_state_dir |= opts.created_state_dir;
    let backups = crate::fsutil::backup_dir(&ws.state_dir);
    let root = ws.root.clone();
    let kept = |m: &mut Manifest, note: &mut dyn FnMut(Note) -> Result<()>, path: &Path| {
        if let Some(b) = crate::fsutil::backup(&root, &backups, path)? {
            m.backups.push((rel_to(&root, path), rel_to(&root, &b)));
            note(Note::Backup {
                path: path.to_path_buf(),
                copy: b,
            })?;
        }
        Ok::<_, anyhow::Error>(())
    };

    if let Some(key) = plugin_hooks(ws, note)? {
        note(Note::PluginHooks { key })?;
    } else {
        let plan = hooks_plan(ws, cfg)?;
        for a in &plan.actions {
            note(Note::Hook(a.clone()))?;
        }
        if plan.changed && !opts.dry_run {
            if let Some(b) = settings::apply(&plan, &ws.root, &backups)? {
                note(Note::Backup {
                    path: plan.path.clone(),
                    copy: b,
                })?;
            }
            note(Note::WroteSettings(plan.path.clone()))?;
        }
        manifest.settings = Some(rel_to(&ws.root, &plan.path));
    }

    let skill_plan = skills::plan(&ws.root, opts.force);
    for p in &skill_plan {
        note(Note::Skill {
            step: p.step.clone(),
            path: p.path.clone(),
        })?;
        if matches!(p.step, Step::Overwrite) && !opts.dry_run {
            kept(&mut manifest, note, &p.path)?;
        }
    }
    if opts.dry_run {
        if let Some(patch) = skills::execution_code_patch(&ws.root) {
            note(Note::PatchProposed(patch))?;
        }
        return Ok(());
    }
    for path in skills::apply(&skill_plan)? {
        let rel = rel_to(&ws.root, &path);
        if !manifest.skills.contains(&rel) {
            manifest.skills.push(rel);
        }
    }

    if let Some(patch) = skills::execution_code_patch(&ws.root) {
        if opts.patch_execution_code {
            kept(&mut manifest, note, &patch.path)?;
            crate::fsutil::write_atomic(&patch.path, patch.new_text.as_bytes())?;
            note(Note::PatchApplied)?;
            manifest.execution_code = Some(PatchRecord {
                path: rel_to(&ws.root, &patch.path),
                old_line: patch.old_line.clone(),
                new_line: patch.new_line.clone(),
            });
        } else {
            note(Note::PatchProposed(patch))?;
        }
    }
    write_manifest(ws, &manifest)
}

/// When the plugin's hooks run for this project: its key, after noting each settings file that
/// still holds entries of an earlier setup (then every hook would run twice).
fn plugin_hooks(
    ws: &Workspace,
    note: &mut dyn FnMut(Note) -> Result<()>,
) -> Result<Option<String>> {
    let Some(inst) = plugin::find_install(&ws.root, plugin::claude_config_dir().as_deref())
        .filter(plugin::Install::active)
    else {
        return Ok(None);
    };
    for name in ["settings.json", "settings.local.json"] {
        let path = ws.root.join(".claude").join(name);
        if let Ok((doc, true)) = settings::read(&path) {
            if !settings::installed(&doc).is_empty() {
                note(Note::DuplicateHooks {
                    settings: path,
                    local: name != "settings.json",
                })?;
            }
        }
    }
    Ok(Some(inst.key))
}

fn hooks_plan(ws: &Workspace, cfg: &Config) -> Result<settings::Plan> {
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

/// The project's own skills of our names that run no `src` command (`subcommands` tells a
/// command of ours from another).
pub fn foreign_skills(root: &Path, subcommands: &[String]) -> Vec<PathBuf> {
    skills::survey(root, subcommands)
        .into_iter()
        .filter(|(_, _, f)| *f == skills::Found::Foreign)
        .map(|(_, p, _)| p)
        .collect()
}

/// Removes exactly what setup added, telling `note` each step. `false` when there is no
/// manifest (nothing to undo).
pub fn uninstall(ws: &Workspace, note: &mut dyn FnMut(Note) -> Result<()>) -> Result<bool> {
    let Some(m) = read_manifest(ws)? else {
        return Ok(false);
    };
    let at = |p: &PathBuf| ws.root.join(p);
    let backups = crate::fsutil::backup_dir(&ws.state_dir);
    if let Some(path) = &m.settings {
        let path = at(path);
        let plan = settings::plan_uninstall(&path)?;
        for a in &plan.actions {
            note(Note::Hook(a.clone()))?;
        }
        if plan.changed {
            if let Some(b) = settings::apply(&plan, &ws.root, &backups)? {
                note(Note::Backup { path, copy: b })?;
            }
        }
    }
    for rel in &m.skills {
        let path = at(rel);
        if skills::remove_if_ours(&path)? {
            note(Note::SkillRemoved(path))?;
        } else if path.exists() {
            note(Note::SkillKept(path))?;
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
            note(Note::Restored { path, copy })?;
            restored.push(rel);
        }
    }
    if let Some(p) = &m.execution_code {
        revert_patch(p, ws, note)?;
    }
    if m.created_state_dir && ws.state_dir.starts_with(&ws.root) && m.backups.is_empty() {
        std::fs::remove_dir_all(&ws.state_dir)
            .with_context(|| format!("removing {}", ws.state_dir.display()))?;
        note(Note::StateRemoved(ws.state_dir.clone()))?;
    } else {
        std::fs::remove_file(manifest_path(ws)).ok();
        let why = if m.backups.is_empty() {
            "it existed before setup"
        } else {
            "it holds the backups of the files setup replaced"
        };
        note(Note::StateKept {
            dir: ws.state_dir.clone(),
            why,
        })?;
    }
    Ok(true)
}

fn revert_patch(
    p: &PatchRecord,
    ws: &Workspace,
    note: &mut dyn FnMut(Note) -> Result<()>,
) -> Result<()> {
    let path = ws.root.join(&p.path);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(());
    };
    if text.lines().any(|l| l == p.new_line) {
        crate::fsutil::write_atomic(&path, text.replacen(&p.new_line, &p.old_line, 1).as_bytes())?;
        note(Note::PatchReverted(path))?;
    }
    Ok(())
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

/// Where the setup manifest lives.
pub fn manifest_path(ws: &Workspace) -> PathBuf {
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
