//! What git says about the files under the root: `git ls-files` run once per question, so the
//! walk can follow git's own ignore rules where they differ from the ignore files'.
//!
//! Owns the two questions the walk asks of git; never fails (no repository or no git is an
//! empty answer, and ignore files decide, as without git).

use std::path::Path;

/// `git -C root ls-files -z ARGS` when `root` lies in a repository and git answers.
pub(crate) fn git_ls_files(root: &Path, args: &[&str]) -> Option<Vec<u8>> {
    if !root.join(".git").exists() && !root.ancestors().skip(1).any(|a| a.join(".git").exists()) {
        return None;
    }
    std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z"])
        .args(args)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| o.stdout)
}

/// Files git tracks under `root` that its ignore rules would leave out, root-relative: asked of
/// git itself (`git ls-files --cached --ignored --exclude-standard`), which lists just these, so
/// the cost is one read of git's index. Empty when `root` is not in a repository or git is
/// missing: then ignore files decide, as before.
pub fn tracked_but_ignored(root: &Path) -> Vec<String> {
    let Some(listed) = git_ls_files(
        root,
        &["--cached", "--ignored", "--exclude-standard", "--full-name"],
    ) else {
        return Vec::new();
    };
    // `--full-name` paths are relative to the repository's top; make them relative to `root`.
    let top = std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["rev-parse", "--show-prefix"])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    listed
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .filter_map(|p| std::str::from_utf8(p).ok())
        .filter_map(|p| p.strip_prefix(top.as_str()).map(str::to_string))
        .collect()
}
