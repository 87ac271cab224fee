//! Shared helpers: a temporary project made from a fixture, and the real `src` binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The repository's `fixtures/` directory.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// A temporary project directory; removed when dropped.
pub struct Project {
    pub dir: tempfile::TempDir,
}

impl Project {
    /// An empty project (with a `.git/` marker so root discovery stops here).
    pub fn empty() -> Project {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        std::fs::create_dir_all(dir.path().join(".git")).unwrap_or_else(|e| panic!("mkdir: {e}"));
        Project { dir }
    }

    /// A project holding a copy of `fixtures/<name>`.
    pub fn from_fixture(name: &str) -> Project {
        let p = Project::empty();
        copy_dir(&fixtures().join(name), p.root());
        p
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    /// Writes `content` to `rel`, creating parent directories.
    pub fn write(&self, rel: &str, content: &str) {
        let p = self.path(rel);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).unwrap_or_else(|e| panic!("mkdir {}: {e}", d.display()));
        }
        std::fs::write(&p, content).unwrap_or_else(|e| panic!("write {}: {e}", p.display()));
    }

    /// `src` with `--root` set to this project and no inherited SRC_*/CLAUDE_* environment.
    pub fn src(&self) -> Command {
        let mut cmd = src();
        cmd.current_dir(self.root()).arg("--root").arg(self.root());
        cmd
    }
}

/// The real binary with a clean environment.
pub fn src() -> Command {
    let mut cmd = Command::cargo_bin("src").unwrap_or_else(|e| panic!("binary: {e}"));
    for var in [
        "SRC_ROOT",
        "SRC_DB",
        "SRC_CONFIG",
        "CLAUDE_PROJECT_DIR",
        "SRC_DEBUG",
    ] {
        cmd.env_remove(var);
    }
    // The developer's own Claude Code settings and plugins stay out of the tests.
    cmd.env("CLAUDE_CONFIG_DIR", "/nonexistent/src-tests/claude-config");
    cmd
}

/// Recursively copies `from` into `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    let entries =
        std::fs::read_dir(from).unwrap_or_else(|e| panic!("read {}: {e}", from.display()));
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("mkdir {}: {e}", to.display()));
    for entry in entries.flatten() {
        let src = entry.path();
        let dst = to.join(entry.file_name());
        let ft = entry.file_type().unwrap_or_else(|e| panic!("stat: {e}"));
        if ft.is_dir() {
            copy_dir(&src, &dst);
        } else if ft.is_file() {
            std::fs::copy(&src, &dst).unwrap_or_else(|e| panic!("copy {}: {e}", src.display()));
        }
    }
}

/// Stdout of a successful run, as a string.
pub fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap_or_else(|e| panic!("utf8: {e}"))
}

/// Runs `src hook WHICH` the way Claude Code does (project in CLAUDE_PROJECT_DIR, JSON on
/// stdin), asserts it exits 0 and returns its stdout.
pub fn run_hook(p: &Project, which: &str, stdin: String) -> String {
    let out = src()
        .current_dir(p.root())
        .env("CLAUDE_PROJECT_DIR", p.root())
        .args(["hook", which])
        .write_stdin(stdin)
        .output()
        .unwrap_or_else(|e| panic!("running hook: {e}"));
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs git in the project (with a throwaway identity); false when git is missing or fails.
pub fn git_in(p: &Project, args: &[&str]) -> bool {
    std::process::Command::new("git")
        .arg("-C")
        .arg(p.root())
        .args(["-c", "user.email=t@example.invalid", "-c", "user.name=t"])
        .args(args)
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}
