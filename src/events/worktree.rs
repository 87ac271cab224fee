//! Which checkout an edited file lies in, read from git's own files (no `git` process: this runs
//! on the recorder's hot path).
//!
//! Owns the mapping of a path in a linked worktree of the root's repository (Claude Code puts a
//! worktree-isolated subagent in `.claude/worktrees/agent-*/`; any `git worktree add` checkout,
//! or the main checkout seen from a linked one, is the same case) to the root's own file.
//! Invariant: a checkout is another worktree of *our* repository only when git's metadata says
//! so — a `.git` file whose `gitdir:` has a `commondir` leading to the same git directory as the
//! root's — never because of a folder's name. A path in the root's own checkout costs one
//! `lstat` per directory between the file and the root, nothing else.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::workspace::Workspace;

/// Where an absolute path lies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// In the root's own checkout (or outside any checkout): the path stands as it is.
    Own,
    /// In a linked worktree of the root's repository: `abs` is the corresponding path in the
    /// root's checkout, `worktree` the top of the checkout the path was in.
    Worktree { abs: PathBuf, worktree: PathBuf },
}

/// Where `abs` (absolute, lexically normalised) lies relative to `root` (canonical).
pub fn place(root: &Path, abs: &Path) -> Place {
    let Some((top, dot_git)) = nearest_checkout(abs, root) else {
        return Place::Own;
    };
    // The root's own checkout (the root is its top or a folder in it).
    if root.starts_with(&top) {
        return Place::Own;
    }
    // The root in no repository: nothing is a worktree of it.
    let Some(ours) = checkout_of(root) else {
        return Place::Own;
    };
    // Another repository's checkout (a submodule, a nested repository, a worktree of some
    // other repository) is not mapped: its path stands, as any other.
    if common_dir(&top, &dot_git).as_ref() != Some(&ours.common) {
        return Place::Own;
    }
    // The root's own checkout reached through a symbolic link is no other worktree.
    if top.canonicalize().is_ok_and(|t| t == ours.top) {
        return Place::Own;
    }
    match abs.strip_prefix(&top) {
        Ok(rest) => Place::Worktree {
            abs: ours.top.join(rest),
            worktree: top,
        },
        Err(_) => Place::Own,
    }
}

/// The path columns of an event for the absolute, normalised path `abs`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventPath {
    /// Root-relative, when the file (or the root's file it corresponds to) is under the root.
    pub path: Option<String>,
    pub abs_path: String,
    /// The linked worktree the edit was made in.
    pub worktree: Option<String>,
}

/// Where an edit of `abs` is recorded: the root's file for a path in a linked worktree of the
/// repository, else the path itself.
pub fn event_path(ws: &Workspace, abs: &Path) -> EventPath {
    let lossy = |p: &Path| p.to_string_lossy().into_owned();
    match place(&ws.root, abs) {
        Place::Own => EventPath {
            path: ws.relative(abs),
            abs_path: lossy(abs),
            worktree: None,
        },
        Place::Worktree {
            abs: mapped,
            worktree,
        } => EventPath {
            path: ws.relative(&mapped),
            abs_path: lossy(&mapped),
            worktree: Some(lossy(&worktree)),
        },
    }
}

/// A checkout: its top directory and its repository's common git directory (canonical).
struct Checkout {
    top: PathBuf,
    common: PathBuf,
}

/// What a directory's `.git` entry is.
struct DotGit {
    is_file: bool,
}

/// The checkout holding `dir` itself or its nearest ancestor with a `.git` entry.
fn checkout_of(dir: &Path) -> Option<Checkout> {
    let (top, dot_git) = dir
        .ancestors()
        .find_map(|a| dot_git(a).map(|d| (a.to_path_buf(), d)))?;
    let common = common_dir(&top, &dot_git)?;
    Some(Checkout { top, common })
}

/// The nearest directory above the file `abs` that holds a `.git` entry. For a path under
/// `root` the search ends at the root: none found below it means the root's own checkout
/// (`None`, read as such by the caller).
fn nearest_checkout(abs: &Path, root: &Path) -> Option<(PathBuf, DotGit)> {
    let inside = abs.starts_with(root);
    for dir in abs.ancestors().skip(1) {
        if let Some(d) = dot_git(dir) {
            return Some((dir.to_path_buf(), d));
        }
        if inside && dir == root {
            return None;
        }
    }
    None
}

fn dot_git(dir: &Path) -> Option<DotGit> {
    let m = std::fs::symlink_metadata(dir.join(".git")).ok()?;
    Some(DotGit {
        is_file: m.is_file(),
    })
}

/// The common git directory of the checkout at `top`: its `.git` directory, or for a `.git`
/// file (`gitdir: <dir>`) that directory's `commondir` (a linked worktree) or the directory
/// itself (a submodule). Relative paths are resolved as git does, from the file that holds them.
fn common_dir(top: &Path, dot_git: &DotGit) -> Option<PathBuf> {
    let git = top.join(".git");
    if !dot_git.is_file {
        return git.canonicalize().ok();
    }
    let text = read_small(&git)?;
    let gitdir = text
        .lines()
        .find_map(|l| l.strip_prefix("gitdir:"))
        .map(str::trim)
        .filter(|g| !g.is_empty())?;
    // `..` is resolved by the filesystem (canonicalize), as git does, not lexically.
    let gitdir = top.join(gitdir);
    let common = match read_small(&gitdir.join("commondir")) {
        Some(c) if !c.trim().is_empty() => gitdir.join(c.trim()),
        _ => gitdir,
    };
    common.canonicalize().ok()
}

/// A metadata file's text (they are one line; anything over 4 KiB is not git's).
fn read_small(path: &Path) -> Option<String> {
    let mut buf = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(4096)
        .read_to_string(&mut buf)
        .ok()?;
    Some(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Result;
    use std::fs;

    /// A repository at `root` with a linked worktree at `wt`, laid out as `git worktree add`
    /// writes it (absolute `gitdir:`, relative `commondir`).
    fn linked(root: &Path, wt: &Path, name: &str) -> Result<()> {
        let meta = root.join(".git/worktrees").join(name);
        fs::create_dir_all(&meta)?;
        fs::create_dir_all(wt)?;
        fs::write(meta.join("commondir"), "../..\n")?;
        fs::write(
            meta.join("gitdir"),
            format!("{}\n", wt.join(".git").display()),
        )?;
        fs::write(wt.join(".git"), format!("gitdir: {}\n", meta.display()))?;
        Ok(())
    }

    #[test]
    fn worktrees_of_the_repository_map_to_the_roots_files() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let base = dir.path().canonicalize()?;
        let root = base.join("proj");
        fs::create_dir_all(root.join(".git"))?;
        let inner = root.join(".claude/worktrees/agent-a1");
        linked(&root, &inner, "agent-a1")?;
        let outer = base.join("elsewhere/wt");
        linked(&root, &outer, "wt")?;
        let file = ".claude/skills/x/SKILL.md";
        for wt in [&inner, &outer] {
            fs::create_dir_all(wt.join(".claude/skills/x"))?;
            assert_eq!(
                place(&root, &wt.join(file)),
                Place::Worktree {
                    abs: root.join(file),
                    worktree: wt.clone()
                }
            );
        }
        // The root's own files, a file outside any checkout, a deleted file's path.
        assert_eq!(place(&root, &root.join(file)), Place::Own);
        assert_eq!(place(&root, &base.join("loose.txt")), Place::Own);
        assert_eq!(place(&root, &root.join("gone/never.md")), Place::Own);
        Ok(())
    }

    #[test]
    fn relative_gitdirs_and_a_root_that_is_itself_a_linked_worktree() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let base = dir.path().canonicalize()?;
        let main = base.join("main");
        fs::create_dir_all(main.join(".git/worktrees/feature"))?;
        let feature = base.join("feature");
        fs::create_dir_all(feature.join("sub/docs"))?;
        // `worktree.useRelativePaths`: both pointers relative.
        fs::write(main.join(".git/worktrees/feature/commondir"), "../..\n")?;
        fs::write(
            feature.join(".git"),
            "gitdir: ../main/.git/worktrees/feature\n",
        )?;
        // The root is a folder of the linked worktree; the edit is in the main checkout.
        let root = feature.join("sub");
        fs::create_dir_all(main.join("sub/docs"))?;
        assert_eq!(
            place(&root, &main.join("sub/docs/a.md")),
            Place::Worktree {
                abs: feature.join("sub/docs/a.md"),
                worktree: main.clone()
            }
        );
        assert_eq!(place(&root, &feature.join("sub/docs/a.md")), Place::Own);
        Ok(())
    }

    #[test]
    fn other_repositories_checkouts_and_lookalike_folders_are_not_worktrees() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let base = dir.path().canonicalize()?;
        let root = base.join("proj");
        fs::create_dir_all(root.join(".git/modules/lib"))?;
        // A submodule: `gitdir:` without a `commondir`.
        fs::create_dir_all(root.join("lib/src"))?;
        fs::write(root.join("lib/.git"), "gitdir: ../.git/modules/lib\n")?;
        assert_eq!(place(&root, &root.join("lib/src/a.rs")), Place::Own);
        // A worktree of another repository, copied into the tree.
        let other = base.join("other");
        fs::create_dir_all(other.join(".git"))?;
        linked(&other, &root.join("vendor/o"), "o")?;
        assert_eq!(place(&root, &root.join("vendor/o/x.md")), Place::Own);
        // A `.git` file that says nothing git would read, and a folder merely named like one.
        fs::create_dir_all(root.join("junk"))?;
        fs::write(root.join("junk/.git"), "not git\n")?;
        assert_eq!(place(&root, &root.join("junk/x.md")), Place::Own);
        fs::create_dir_all(root.join(".claude/worktrees/agent-fake"))?;
        assert_eq!(
            place(&root, &root.join(".claude/worktrees/agent-fake/x.md")),
            Place::Own
        );
        // A nested repository with a `.git` directory is part of the tree.
        fs::create_dir_all(root.join("nested/.git"))?;
        assert_eq!(place(&root, &root.join("nested/x.md")), Place::Own);
        Ok(())
    }
}
