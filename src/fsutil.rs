//! Writing files the user owns: atomically, keeping their mode, and with a copy kept first.
//!
//! Owns how `src` replaces or removes a user's file (settings, skills, the exported map).
//! Invariant: a replaced file is written to a temporary file in the same folder and renamed over
//! the old one, so a reader sees the old or the new bytes, never a mix; the new file keeps the
//! old one's permissions, and a file created new gets the user's umask (never 0600); a file
//! that `src` replaces or removes is first copied under `<state>/backup/<timestamp>/` at its
//! root-relative path, and the copy's path is returned so callers can say so and restore it.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Writes `bytes` to `path` atomically: a new file in the same folder (created like any file,
/// so the umask applies), the old file's permissions copied onto it, then a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let old_perm = std::fs::metadata(path).ok().map(|m| m.permissions());
    let base = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let mut n = 0u32;
    let (tmp, mut file) = loop {
        let cand = dir.join(format!(".{base}.src-tmp-{}-{n}", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&cand)
        {
            Ok(f) => break (cand, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => n += 1,
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("creating a temporary file in {}", dir.display()))
            }
        }
    };
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("writing {}", tmp.display()))
        .and_then(|()| match old_perm {
            Some(p) => std::fs::set_permissions(&tmp, p)
                .with_context(|| format!("keeping the mode of {}", path.display())),
            None => Ok(()),
        })
        .and_then(|()| {
            std::fs::rename(&tmp, path).with_context(|| format!("replacing {}", path.display()))
        });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The folder this run's backups go to: `<state>/backup/<UTC timestamp>`.
pub fn backup_dir(state_dir: &Path) -> PathBuf {
    state_dir.join("backup").join(crate::clock::stamp())
}

/// Copies `path` (a file under `root`) to `dir` at its root-relative path, before `src`
/// replaces or removes it. Returns the copy's path; `None` when there is no such file.
pub fn backup(root: &Path, dir: &Path, path: &Path) -> Result<Option<PathBuf>> {
    if !path.is_file() {
        return Ok(None);
    }
    let rel = path.strip_prefix(root).unwrap_or(path);
    let rel = rel.strip_prefix("/").unwrap_or(rel);
    let to = dir.join(rel);
    if let Some(d) = to.parent() {
        std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
    }
    std::fs::copy(path, &to)
        .with_context(|| format!("backing up {} to {}", path.display(), to.display()))?;
    Ok(Some(to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode_and_a_new_one_follows_the_umask() -> Result<()> {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir()?;
        let p = dir.path().join("settings.json");
        std::fs::write(&p, "{}")?;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o664))?;
        write_atomic(&p, b"{\"a\":1}")?;
        assert_eq!(std::fs::read_to_string(&p)?, "{\"a\":1}");
        assert_eq!(std::fs::metadata(&p)?.permissions().mode() & 0o777, 0o664);
        // A new file is created as any file is: same mode as one std creates here.
        let probe = dir.path().join("probe");
        std::fs::write(&probe, "")?;
        let want = std::fs::metadata(&probe)?.permissions().mode() & 0o777;
        let q = dir.path().join("map.md");
        write_atomic(&q, b"x")?;
        assert_eq!(std::fs::metadata(&q)?.permissions().mode() & 0o777, want);
        assert!(
            want != 0o600 || cfg!(not(unix)),
            "umask 077 here: test says nothing"
        );
        // No temporary file is left behind.
        let left: Vec<_> = std::fs::read_dir(dir.path())?
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().contains("src-tmp"))
            .collect();
        assert!(left.is_empty());
        Ok(())
    }

    #[test]
    fn backup_keeps_the_root_relative_path() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let root = dir.path();
        std::fs::create_dir_all(root.join(".claude/skills/x"))?;
        let f = root.join(".claude/skills/x/SKILL.md");
        std::fs::write(&f, "mine")?;
        let b = backup(root, &root.join(".src/backup/t"), &f)?;
        assert_eq!(
            b,
            Some(root.join(".src/backup/t/.claude/skills/x/SKILL.md"))
        );
        assert_eq!(
            std::fs::read_to_string(root.join(".src/backup/t/.claude/skills/x/SKILL.md"))?,
            "mine"
        );
        assert_eq!(
            backup(root, &root.join(".src/backup/t"), &root.join("none"))?,
            None
        );
        Ok(())
    }
}
