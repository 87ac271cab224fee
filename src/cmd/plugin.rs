//! `src plugin export DIR`: writes the Claude Code plugin tree (`install::plugin::tree`).
//!
//! Owns the arguments, the safety rules for the target folder and the printing. Invariant: a
//! folder that is neither empty nor an earlier export of this plugin is refused untouched; a file
//! that already holds the right bytes is not rewritten; a file replaced inside a `src` project is
//! first copied under its `.src/backup/`; files the export does not know are left alone (and
//! named).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::install::plugin;
use crate::workspace::{GlobalOpts, Workspace};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Write the plugin (manifest, marketplace, hooks, skills) into DIR
    Export(ExportArgs),
}

#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// Folder to write (created if needed; an earlier export is updated in place)
    pub dir: PathBuf,
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let Action::Export(a) = &args.action;
    let dir = &a.dir;
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!("{} exists and is not a folder", dir.display());
    }
    let files = plugin::tree()?;
    let ours: Vec<PathBuf> = files.iter().map(|f| PathBuf::from(&f.path)).collect();
    let present = list_files(dir)?;
    if !present.is_empty() && !is_export(dir) {
        anyhow::bail!(
            "{} is not empty and holds no src plugin (no .claude-plugin/plugin.json named \
             \"{}\"): choose a new or empty folder; nothing was written",
            dir.display(),
            plugin::NAME
        );
    }
    // Replaced files are kept under the project's backups when the folder lies in a project.
    let abs_dir = dir
        .canonicalize()
        .or_else(|_| std::path::absolute(dir))
        .with_context(|| format!("resolving {}", dir.display()))?;
    let backup = Workspace::resolve(g).ok().and_then(|ws| {
        (abs_dir.starts_with(&ws.root) && ws.state_dir.is_dir())
            .then(|| (ws.root.clone(), crate::fsutil::backup_dir(&ws.state_dir)))
    });
    let mut out = std::io::stdout().lock();
    let (mut wrote, mut same) = (0, 0);
    for f in &files {
        let path = dir.join(&f.path);
        let old = std::fs::read(&path).ok();
        if old.as_deref() == Some(f.text.as_bytes()) {
            same += 1;
        } else {
            if old.is_some() {
                if let Some((root, bdir)) = &backup {
                    if let Some(b) = crate::fsutil::backup(root, bdir, &abs_dir.join(&f.path))? {
                        writeln!(out, "backup: {} kept as {}", path.display(), b.display())?;
                    }
                }
            }
            crate::fsutil::write_atomic(&path, f.text.as_bytes())?;
            writeln!(out, "wrote {}", path.display())?;
            wrote += 1;
        }
        if f.executable {
            set_executable(&path)?;
        }
    }
    for extra in present.iter().filter(|p| !ours.contains(p)) {
        writeln!(
            out,
            "left alone: {} (not part of the plugin)",
            dir.join(extra).display()
        )?;
    }
    writeln!(
        out,
        "plugin {} {}: {wrote} file(s) written, {same} unchanged in {}",
        plugin::NAME,
        env!("CARGO_PKG_VERSION"),
        dir.display()
    )?;
    writeln!(
        out,
        "install: claude plugin marketplace add {} && claude plugin install {}@{}",
        abs_dir.display(),
        plugin::NAME,
        plugin::MARKETPLACE
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Whether `dir` holds an earlier export: its manifest names our plugin.
fn is_export(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join(".claude-plugin/plugin.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .is_some_and(|v| v.get("name").and_then(|n| n.as_str()) == Some(plugin::NAME))
}

/// Every file under `dir`, relative to it (nothing when it does not exist).
fn list_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let entries = match std::fs::read_dir(dir.join(&rel)) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && rel.as_os_str().is_empty() => {
                return Ok(out)
            }
            Err(e) => {
                return Err(e).with_context(|| format!("reading {}", dir.join(&rel).display()))
            }
        };
        for entry in entries {
            let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
            let child = rel.join(entry.file_name());
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(child);
            } else {
                out.push(child);
            }
        }
    }
    out.sort();
    Ok(out)
}

fn set_executable(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mut perm = std::fs::metadata(path)
        .with_context(|| format!("reading {}", path.display()))?
        .permissions();
    // Executable for whoever may read it (the client runs it through `sh` anyway).
    let mode = perm.mode();
    perm.set_mode(mode | ((mode & 0o444) >> 2));
    std::fs::set_permissions(path, perm)
        .with_context(|| format!("making {} executable", path.display()))
}
