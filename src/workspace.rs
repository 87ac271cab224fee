//! Where things are: the project root, the database, the config file and the state directory.
//!
//! Owns path resolution only; opens nothing. Invariant: root-relative paths use `/` and never
//! start with `./`; the state directory (`.src/` by default) is never part of the scanned tree.

use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result};

/// Paths chosen on the command line or in the environment; `None` means "work it out".
#[derive(Debug, Clone, Default)]
pub struct GlobalOpts {
    pub root: Option<PathBuf>,
    pub db: Option<PathBuf>,
    pub config: Option<PathBuf>,
}

#[derive(Debug, Clone)]
pub struct Workspace {
    /// Absolute, canonical project root.
    pub root: PathBuf,
    pub db_path: PathBuf,
    pub config_path: PathBuf,
    /// Directory beside the database holding the spill journal and other state.
    pub state_dir: PathBuf,
}

/// Where a user-given path lands relative to the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Located {
    /// Inside the root: the root-relative path.
    Inside(String),
    /// Outside the root: the absolute path as given (lexically normalised).
    Outside(PathBuf),
}

pub const STATE_DIR: &str = ".src";

impl Workspace {
    /// Resolves the root (`--root`/`SRC_ROOT`, then `CLAUDE_PROJECT_DIR`, then the nearest
    /// ancestor of the working directory holding `.src/`, `.git/` or `.claude/`, else the working
    /// directory) and the database and config paths.
    pub fn resolve(opts: &GlobalOpts) -> Result<Workspace> {
        let cwd = std::env::current_dir().context("reading the working directory")?;
        let root = match &opts.root {
            Some(r) => cwd.join(r),
            None => match std::env::var_os("CLAUDE_PROJECT_DIR").filter(|v| !v.is_empty()) {
                Some(dir) => cwd.join(dir),
                None => find_root(&cwd).unwrap_or_else(|| cwd.clone()),
            },
        };
        let root = root.canonicalize().with_context(|| {
            format!(
                "project root {} is not a readable directory",
                root.display()
            )
        })?;
        if !root.is_dir() {
            anyhow::bail!("project root {} is not a directory", root.display());
        }
        let db_path = match &opts.db {
            Some(p) => normalize(&cwd.join(p)),
            None => root.join(STATE_DIR).join("src.db"),
        };
        let config_path = match &opts.config {
            Some(p) => normalize(&cwd.join(p)),
            None => root.join(STATE_DIR).join("config.yaml"),
        };
        let state_dir = db_path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| root.join(STATE_DIR));
        Ok(Workspace {
            root,
            db_path,
            config_path,
            state_dir,
        })
    }

    /// A workspace rooted at `root` with the default `.src/` layout (tests, the tour).
    pub fn at(root: &Path) -> Result<Workspace> {
        Workspace::resolve(&GlobalOpts {
            root: Some(root.to_path_buf()),
            ..GlobalOpts::default()
        })
    }

    /// Creates the state directory and its `.gitignore` of `*`.
    pub fn ensure_state_dir(&self) -> Result<()> {
        std::fs::create_dir_all(&self.state_dir)
            .with_context(|| format!("creating {}", self.state_dir.display()))?;
        let ignore = self.state_dir.join(".gitignore");
        if !ignore.exists() && self.state_dir.starts_with(&self.root) {
            std::fs::write(&ignore, "*\n")
                .with_context(|| format!("writing {}", ignore.display()))?;
        }
        Ok(())
    }

    /// The append-only journal that hooks write to when the database cannot take an event.
    pub fn spill_path(&self) -> PathBuf {
        self.state_dir.join("spill.jsonl")
    }

    /// The absolute path of a root-relative path.
    pub fn abs(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// The root-relative form of `path` (absolute, or relative to the working directory), or
    /// `Outside` when it is not under the root. Works for paths that no longer exist.
    pub fn locate(&self, path: &Path) -> Located {
        let abs = if path.is_absolute() {
            normalize(path)
        } else {
            let under_root = normalize(&self.root.join(path));
            let from_cwd = std::env::current_dir()
                .map(|c| normalize(&c.join(path)))
                .unwrap_or_else(|_| under_root.clone());
            // Root-relative reading wins when it names an existing file or the other does not.
            if under_root.exists() || !from_cwd.exists() {
                under_root
            } else {
                from_cwd
            }
        };
        match self.relative(&abs) {
            Some(rel) => Located::Inside(rel),
            None => Located::Outside(abs),
        }
    }

    /// The root-relative string of an absolute path under the root. Tries the path as given,
    /// then with its existing ancestor canonicalised (symlinked roots such as /tmp on macOS).
    pub fn relative(&self, abs: &Path) -> Option<String> {
        if let Ok(rest) = abs.strip_prefix(&self.root) {
            return to_rel_string(rest);
        }
        let mut existing = abs.to_path_buf();
        let mut tail = Vec::new();
        while !existing.exists() {
            tail.push(existing.file_name()?.to_os_string());
            existing = existing.parent()?.to_path_buf();
        }
        let mut canon = existing.canonicalize().ok()?;
        for part in tail.iter().rev() {
            canon.push(part);
        }
        canon.strip_prefix(&self.root).ok().and_then(to_rel_string)
    }
}

fn to_rel_string(rest: &Path) -> Option<String> {
    let parts: Vec<&str> = rest
        .components()
        .map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    if parts.is_empty() {
        return None;
    }
    Some(parts.join("/"))
}

/// The nearest ancestor (or `start` itself) that holds `.src/`, `.git/` or `.claude/`.
fn find_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| {
            [STATE_DIR, ".git", ".claude"]
                .iter()
                .any(|m| dir.join(m).exists())
        })
        .map(Path::to_path_buf)
}

/// Lexical normalisation: drops `.` and folds `..` without touching the filesystem.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for comp in path.components() {
        match comp {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_inside_and_outside() -> Result<()> {
        let dir = tempfile::tempdir()?;
        std::fs::create_dir_all(dir.path().join("a/b"))?;
        std::fs::write(dir.path().join("a/b/c.md"), "x")?;
        let ws = Workspace::at(dir.path())?;
        assert_eq!(
            ws.locate(&ws.root.join("a/b/c.md")),
            Located::Inside("a/b/c.md".into())
        );
        assert_eq!(
            ws.locate(Path::new("a/b/c.md")),
            Located::Inside("a/b/c.md".into())
        );
        // A deleted file under the root is still inside.
        assert_eq!(
            ws.locate(&ws.root.join("a/gone.md")),
            Located::Inside("a/gone.md".into())
        );
        assert!(matches!(
            ws.locate(Path::new("/etc/hostname")),
            Located::Outside(_)
        ));
        Ok(())
    }
}
