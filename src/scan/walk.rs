//! The walk: which files are in scope, found with the `ignore` crate (hidden files included,
//! `.gitignore`, `.ignore` and `.srcignore` respected, `.git/` and the state directory never
//! entered), plus the same decision for a single path without walking.
//!
//! Owns scope decisions and file metadata; reads no file contents. Invariant: `in_scope` for one
//! path agrees with what a walk would yield for it; walk errors are counted, never fatal.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::UNIX_EPOCH;

use anyhow::{Context, Result};
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::{WalkBuilder, WalkState};

use super::git::{git_ls_files, tracked_but_ignored};
use crate::config::{Config, Scope};
use crate::workspace::{Workspace, STATE_DIR};

/// A file the walk found in scope: root-relative path, size, mtime in ns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub path: String,
    pub size: u64,
    pub mtime_ns: i64,
}

/// A file in scope that will not be read, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip {
    pub path: String,
    pub reason: &'static str,
    pub size: Option<u64>,
    pub mtime_ns: Option<i64>,
}

#[derive(Debug, Default)]
pub struct Walked {
    pub entries: Vec<Entry>,
    pub skipped: Vec<Skip>,
    /// Errors without a usable path (unreadable ignore files and the like).
    pub errors: u64,
}

/// Include/exclude globs, gitignore-style: a glob without `/` matches at any depth, a leading
/// `/` anchors to the root, a glob naming a directory covers what is under it.
pub struct ScopeMatcher {
    include: GlobSet,
    exclude: GlobSet,
    /// Literal leading directories of every include glob; `None` when one starts with a wildcard.
    prefixes: Option<Vec<String>>,
}

fn normalise_glob(pat: &str) -> String {
    let anchored = pat.starts_with('/');
    let p = pat.trim_start_matches('/').trim_end_matches('/');
    if !anchored && !p.contains('/') {
        format!("**/{p}")
    } else {
        p.to_string()
    }
}

fn build_set(globs: &[String]) -> Result<GlobSet> {
    let mut b = GlobSetBuilder::new();
    for g in globs {
        let glob = GlobBuilder::new(&normalise_glob(g))
            .literal_separator(true)
            .build()
            .with_context(|| format!("scope glob `{g}`"))?;
        b.add(glob);
    }
    Ok(b.build()?)
}

/// `dir/**` also names `dir` itself, so a walk can skip the directory whole.
fn with_dir_forms(globs: &[String]) -> Vec<String> {
    let mut out = globs.to_vec();
    for g in globs {
        if let Some(dir) = g.strip_suffix("/**") {
            // `dir/**` holds a `/`, so it is anchored; its directory form must stay anchored.
            let dir = dir.trim_start_matches('/');
            if !dir.is_empty() {
                out.push(format!("/{dir}"));
            }
        }
    }
    out
}

fn literal_prefix(glob: &str) -> String {
    glob.split('/')
        .take_while(|c| !c.contains(['*', '?', '[', '{', '\\']))
        .collect::<Vec<_>>()
        .join("/")
}

/// `rel` and each of its ancestors, longest first.
fn with_ancestors(rel: &str) -> impl Iterator<Item = &str> {
    std::iter::once(rel).chain(rel.rmatch_indices('/').map(move |(i, _)| &rel[..i]))
}

impl ScopeMatcher {
    pub fn new(scope: &Scope) -> Result<ScopeMatcher> {
        let prefixes: Vec<String> = scope
            .include
            .iter()
            .map(|g| literal_prefix(&normalise_glob(g)))
            .collect();
        let prefixes = (!prefixes.iter().any(String::is_empty)).then_some(prefixes);
        Ok(ScopeMatcher {
            include: build_set(&scope.include)?,
            exclude: build_set(&with_dir_forms(&scope.exclude))?,
            prefixes,
        })
    }

    /// Whether the file at root-relative `rel` is in scope (by the globs alone).
    pub fn includes_file(&self, rel: &str) -> bool {
        with_ancestors(rel).any(|p| self.include.is_match(p)) && !self.excludes(rel)
    }

    fn excludes(&self, rel: &str) -> bool {
        with_ancestors(rel).any(|p| self.exclude.is_match(p))
    }

    /// Whether a walk should enter directory `rel`.
    pub fn may_enter(&self, rel: &str) -> bool {
        if self.exclude.is_match(rel) {
            return false;
        }
        match &self.prefixes {
            None => true,
            Some(ps) => ps.iter().any(|p| {
                p == rel
                    || p.strip_prefix(rel).is_some_and(|r| r.starts_with('/'))
                    || rel
                        .strip_prefix(p.as_str())
                        .is_some_and(|r| r.starts_with('/'))
            }),
        }
    }
}

/// The root-relative path of a file under `root` whose name is not UTF-8, spelled lossily (for
/// counting it); `None` for anything else.
fn non_utf8_rel(root: &Path, path: &Path) -> Option<String> {
    let rest = path.strip_prefix(root).ok()?;
    if rest.to_str().is_some() {
        return None;
    }
    Some(rest.to_string_lossy().replace('\\', "/"))
}

fn rel_of(root: &Path, path: &Path) -> Option<String> {
    // On Unix a walked path is the root's bytes, `/` and clean `/`-separated components: a
    // byte comparison and one UTF-8 check, instead of comparing and rebuilding components.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let (p, r) = (path.as_os_str().as_bytes(), root.as_os_str().as_bytes());
        let rest = p.strip_prefix(r).and_then(|rest| {
            if r.ends_with(b"/") {
                Some(rest)
            } else {
                rest.strip_prefix(b"/")
            }
        });
        if let Some(s) = rest.and_then(|b| std::str::from_utf8(b).ok()) {
            let clean = !s.is_empty()
                && !s.starts_with('/')
                && !s.ends_with('/')
                && !s.contains("//")
                && !s.starts_with("./")
                && !s.contains("/./")
                && s != "."
                && !s.ends_with("/.");
            if clean {
                return Some(s.to_string());
            }
        }
    }
    let rest = path.strip_prefix(root).ok()?;
    let parts: Option<Vec<&str>> = rest.iter().map(|c| c.to_str()).collect();
    let parts = parts?;
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Size and mtime (ns since the epoch) of a file's metadata.
pub fn stat_of(md: &std::fs::Metadata) -> (u64, i64) {
    let mtime = md
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX));
    (md.len(), mtime)
}

fn error_reason(err: &ignore::Error) -> (&'static str, Option<PathBuf>) {
    match err {
        ignore::Error::WithPath { path, err } => (error_reason(err).0, Some(path.clone())),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_reason(err)
        }
        ignore::Error::Loop { child, .. } => ("symlink-loop", Some(child.clone())),
        ignore::Error::Io(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            ("unreadable", None)
        }
        ignore::Error::Io(e) if e.kind() == std::io::ErrorKind::NotFound => {
            ("broken-symlink", None)
        }
        _ => ("walk-error", None),
    }
}

fn walk_builder(ws: &Workspace) -> WalkBuilder {
    let mut b = WalkBuilder::new(&ws.root);
    b.hidden(false)
        .parents(false)
        .git_global(false)
        .git_ignore(true)
        .git_exclude(true)
        .ignore(true)
        .require_git(false)
        .follow_links(true)
        .add_custom_ignore_filename(".srcignore");
    b
}

/// Walks the scope: every file in it with its metadata, and what is skipped before reading.
pub fn walk(ws: &Workspace, config: &Config) -> Result<Walked> {
    let scope = std::sync::Arc::new(ScopeMatcher::new(&config.scope)?);
    let root = ws.root.clone();
    let state_dir = ws.state_dir.clone();
    let real_root =
        std::sync::Arc::new(std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone()));
    let max = config.limits.max_file_bytes;
    let mut builder = walk_builder(ws);
    // Linked folders met (root-relative): their files may be files of the scope again.
    let linked: std::sync::Arc<Mutex<Vec<String>>> = std::sync::Arc::default();
    {
        let scope = scope.clone();
        let root = root.clone();
        let real_root = real_root.clone();
        let linked = linked.clone();
        builder.filter_entry(move |e| {
            if e.depth() == 0 {
                return true;
            }
            // Nothing outside the root is read: a link is followed only while it stays inside.
            if e.path_is_symlink() && !stays_inside(&real_root, e.path()) {
                return false;
            }
            if !e.file_type().is_some_and(|t| t.is_dir()) {
                return true;
            }
            if e.path_is_symlink() {
                if let (Some(rel), Ok(mut l)) = (rel_of(&root, e.path()), linked.lock()) {
                    l.push(rel);
                }
            }
            if e.file_name() == ".git"
                || e.path() == state_dir
                || (e.depth() == 1 && e.file_name() == STATE_DIR)
                || is_other_checkout(e.path())
            {
                return false;
            }
            rel_of(&root, e.path()).is_some_and(|rel| scope.may_enter(&rel))
        });
    }
    let (tx, rx) = mpsc::channel::<Result<Entry, Skip>>();
    let errors = std::sync::atomic::AtomicU64::new(0);
    builder.threads(2).build_parallel().run(|| {
        let tx = tx.clone();
        let scope = scope.clone();
        let root = root.clone();
        let real_root = real_root.clone();
        let linked = linked.clone();
        let errors = &errors;
        Box::new(move |res| {
            let entry = match res {
                Ok(e) => e,
                Err(err) => {
                    let (reason, path) = error_reason(&err);
                    match path.as_deref().and_then(|p| rel_of(&root, p)) {
                        Some(rel) => {
                            let _ = tx.send(Err(Skip {
                                path: rel,
                                reason,
                                size: None,
                                mtime_ns: None,
                            }));
                        }
                        None => {
                            errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                    return WalkState::Continue;
                }
            };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                return WalkState::Continue;
            }
            let Some(rel) = rel_of(&root, entry.path()) else {
                // A name that is not UTF-8 cannot be a name of the index; it is counted, not
                // dropped without a word.
                if let Some(lossy) = non_utf8_rel(&root, entry.path()) {
                    if scope.includes_file(&lossy) {
                        let _ = tx.send(Err(Skip {
                            path: lossy,
                            reason: "non-utf8-name",
                            size: None,
                            mtime_ns: None,
                        }));
                    }
                }
                return WalkState::Continue;
            };
            if !scope.includes_file(&rel) {
                return WalkState::Continue;
            }
            // A file reached through a linked folder (`.claude/skills/x -> ../../src/skills/x`)
            // that the scope holds at its own path is walked there: one file, one path.
            let through_link = linked.lock().is_ok_and(|l| {
                l.iter().any(|d| {
                    rel.len() > d.len()
                        && rel.starts_with(d.as_str())
                        && rel.as_bytes()[d.len()] == b'/'
                })
            });
            if through_link && in_scope_elsewhere(&real_root, entry.path(), &rel, &scope) {
                return WalkState::Continue;
            }
            if rel.contains(['\n', '\r']) {
                let _ = tx.send(Err(Skip {
                    path: rel,
                    reason: "line-break-in-name",
                    size: None,
                    mtime_ns: None,
                }));
                return WalkState::Continue;
            }
            let msg = match entry.metadata() {
                Ok(md) => {
                    let (size, mtime_ns) = stat_of(&md);
                    if size > max {
                        Err(Skip {
                            path: rel,
                            reason: "too-large",
                            size: Some(size),
                            mtime_ns: Some(mtime_ns),
                        })
                    } else {
                        Ok(Entry {
                            path: rel,
                            size,
                            mtime_ns,
                        })
                    }
                }
                Err(_) => Err(Skip {
                    path: rel,
                    reason: "unreadable",
                    size: None,
                    mtime_ns: None,
                }),
            };
            let _ = tx.send(msg);
            WalkState::Continue
        })
    });
    drop(tx);
    let mut out = Walked::default();
    for m in rx {
        match m {
            Ok(e) => out.entries.push(e),
            Err(s) => out.skipped.push(s),
        }
    }
    out.errors = errors.into_inner();
    // As in git, `.gitignore` applies to untracked files only: tracked files under an ignored
    // folder (a project's `.claude/projects/<p>/memory/*.md`) are in scope like any other.
    for rel in tracked_but_ignored(&root) {
        let abs = root.join(&rel);
        let dirs_ok = rel
            .rmatch_indices('/')
            .map(|(i, _)| &rel[..i])
            .all(|d| scope.may_enter(d));
        if !scope.includes_file(&rel)
            || !dirs_ok
            || rel.split('/').any(|c| c == ".git" || c == STATE_DIR)
            || abs.starts_with(&ws.state_dir) && ws.state_dir.starts_with(&root)
            || rel.contains(['\n', '\r'])
        {
            continue;
        }
        match std::fs::symlink_metadata(&abs) {
            Ok(md) if md.is_file() => {
                let (size, mtime_ns) = stat_of(&md);
                if size > max {
                    out.skipped.push(Skip {
                        path: rel,
                        reason: "too-large",
                        size: Some(size),
                        mtime_ns: Some(mtime_ns),
                    });
                } else {
                    out.entries.push(Entry {
                        path: rel,
                        size,
                        mtime_ns,
                    });
                }
            }
            _ => {}
        }
    }
    out.entries.sort_by(|a, b| a.path.cmp(&b.path));
    out.entries.dedup_by(|a, b| a.path == b.path);
    out.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    out.skipped.dedup_by(|a, b| a.path == b.path);
    Ok(out)
}

/// Parsed ignore files by (root-relative directory, file name); `None` when there is none.
type IgnoreCache = HashMap<(String, &'static str), Option<Arc<Gitignore>>>;

/// Decides for one root-relative path what a walk would: in scope by the globs, not under
/// `.git/` or the state directory, not ignored by an ignore file of an ancestor directory.
pub struct PathFilter {
    scope: ScopeMatcher,
    root: PathBuf,
    state_dir: PathBuf,
    /// Parsed ignore files by (directory, file name): paths of one stop share ancestors, and a
    /// missing file is remembered too (most directories have none).
    ignores: Mutex<IgnoreCache>,
    /// Tracked files that ignore rules would leave out (asked of git once, when first needed).
    tracked_ignored: std::sync::OnceLock<std::collections::HashSet<String>>,
}

impl PathFilter {
    pub fn new(ws: &Workspace, config: &Config) -> Result<PathFilter> {
        Ok(PathFilter {
            scope: ScopeMatcher::new(&config.scope)?,
            root: ws.root.clone(),
            state_dir: ws.state_dir.clone(),
            ignores: Mutex::new(HashMap::new()),
            tracked_ignored: std::sync::OnceLock::new(),
        })
    }

    /// The ignore file `file` of root-relative directory `dir` ("" = the root), parsed once.
    fn ignore_file(&self, dir: &str, file: &'static str) -> Option<Arc<Gitignore>> {
        let key = (dir.to_string(), file);
        if let Ok(cache) = self.ignores.lock() {
            if let Some(hit) = cache.get(&key) {
                return hit.clone();
            }
        }
        let base = if dir.is_empty() {
            self.root.clone()
        } else {
            self.root.join(dir)
        };
        let parsed = load_ignore(&base, file).map(Arc::new);
        if let Ok(mut cache) = self.ignores.lock() {
            cache.insert(key, parsed.clone());
        }
        parsed
    }

    pub fn in_scope(&self, rel: &str) -> bool {
        if !self.scope.includes_file(rel)
            || rel.split('/').any(|c| c == ".git")
            || rel.contains(['\n', '\r'])
        {
            return false;
        }
        let abs = self.root.join(rel);
        // The state directory is left out only when it lies inside the root: a database kept in
        // a folder that contains the tree must not exclude the tree.
        let state_inside = self.state_dir.starts_with(&self.root) && self.state_dir != self.root;
        if (state_inside && abs.starts_with(&self.state_dir))
            || abs.starts_with(self.root.join(STATE_DIR))
        {
            return false;
        }
        let dirs: Vec<&str> = rel.rmatch_indices('/').map(|(i, _)| &rel[..i]).collect();
        if dirs.iter().any(|d| !self.scope.may_enter(d)) {
            return false;
        }
        // Nothing outside the root: a path through a link that leaves it is not ours.
        let real_root = std::fs::canonicalize(&self.root).unwrap_or_else(|_| self.root.clone());
        let target = std::fs::canonicalize(&abs).ok();
        if target.as_ref().is_some_and(|p| !p.starts_with(&real_root)) {
            return false;
        }
        // A path through a linked folder to a file the scope holds at its own path is that
        // file's second path, as the walk leaves it (a file that is itself a link is another).
        let own = target.as_deref().and_then(|t| rel_under(&real_root, t));
        if own.is_some_and(|own| held_elsewhere(&own, rel, &self.scope))
            && !std::fs::symlink_metadata(&abs).is_ok_and(|m| m.file_type().is_symlink())
        {
            return false;
        }
        if dirs
            .iter()
            .any(|d| !d.is_empty() && is_other_checkout(&self.root.join(d)))
        {
            return false;
        }
        // Deepest directory first; in each, .srcignore over .ignore over .gitignore.
        for dir in dirs.iter().copied().chain(std::iter::once("")) {
            let sub = if dir.is_empty() {
                rel
            } else {
                &rel[dir.len() + 1..]
            };
            let mut files = vec![".srcignore", ".ignore", ".gitignore"];
            if dir.is_empty() {
                files.push(".git/info/exclude");
            }
            for f in files {
                let Some(gi) = self.ignore_file(dir, f) else {
                    continue;
                };
                let m = gi.matched_path_or_any_parents(sub, false);
                if m.is_ignore() {
                    // Ignore rules apply to untracked files only, as in git.
                    return self
                        .tracked_ignored
                        .get_or_init(|| tracked_but_ignored(&self.root).into_iter().collect())
                        .contains(rel);
                }
                if m.is_whitelist() {
                    return true;
                }
            }
        }
        true
    }
}

/// How many untracked files in scope git's ignore rules leave out (`git ls-files --others
/// --ignored --exclude-standard`); `None` when `root` is not in a repository or git is missing.
/// A count for `status`, so that "indexed: N" is never mistaken for every file in scope.
pub fn ignored_in_scope(root: &Path, config: &Config) -> Option<u64> {
    let scope = ScopeMatcher::new(&config.scope).ok()?;
    let out = git_ls_files(root, &["--others", "--ignored", "--exclude-standard"])?;
    let n = out
        .split(|b| *b == 0)
        .filter_map(|p| std::str::from_utf8(p).ok())
        .filter(|p| !p.is_empty() && !p.split('/').any(|c| c == STATE_DIR))
        .filter(|p| {
            scope.includes_file(p) && p.rmatch_indices('/').all(|(i, _)| scope.may_enter(&p[..i]))
        })
        .count();
    Some(n as u64)
}

/// Which files are another in-scope file under a second name: a symlink inside the tree to a
/// file the scope holds (`CLAUDE.md -> AGENTS.md` when both are in scope). Such a file bears
/// its names (mentions of `CLAUDE.md` are of it, and an edit through it is recorded), but its
/// text is its target's, whose mentions the target gives once: it is not scanned. A link to a
/// file out of scope is the only way its text is in the index: it is scanned.
pub struct Aliases {
    root: PathBuf,
    scope: Scope,
    /// The canonical root and the scope's matcher, built at the first link met (most trees
    /// have none: a hook's refresh of one file pays one `lstat`).
    resolved: std::sync::OnceLock<Option<(PathBuf, ScopeMatcher)>>,
}

impl Aliases {
    pub fn new(ws: &Workspace, config: &Config) -> Aliases {
        Aliases {
            root: ws.root.clone(),
            scope: config.scope.clone(),
            resolved: std::sync::OnceLock::new(),
        }
    }

    /// Whether the file at root-relative `rel` is a link to another file the scope holds.
    pub fn is_alias(&self, rel: &str) -> bool {
        let abs = self.root.join(rel);
        if !std::fs::symlink_metadata(&abs).is_ok_and(|m| m.file_type().is_symlink()) {
            return false;
        }
        let resolved = self.resolved.get_or_init(|| {
            let real_root = std::fs::canonicalize(&self.root).unwrap_or_else(|_| self.root.clone());
            // (The walk built this scope already: an error here is none there.)
            ScopeMatcher::new(&self.scope).ok().map(|m| (real_root, m))
        });
        let Some((real_root, scope)) = resolved else {
            return false;
        };
        let Some(target_rel) = own_rel(real_root, &abs) else {
            return false;
        };
        target_rel != rel && abs.is_file() && scope.includes_file(&target_rel)
    }
}

/// The root-relative path of the file `abs` leads to, links resolved (`real_root` is the
/// canonical root); `None` when it leads nowhere or out of the root.
pub fn own_rel(real_root: &Path, abs: &Path) -> Option<String> {
    rel_under(real_root, &std::fs::canonicalize(abs).ok()?)
}

/// The root-relative path of the canonical path `target`; `None` outside the root.
fn rel_under(real_root: &Path, target: &Path) -> Option<String> {
    let rel = target.strip_prefix(real_root).ok()?.to_str()?;
    Some(rel.replace(std::path::MAIN_SEPARATOR, "/"))
}

/// Whether the file at `abs` (root-relative `rel`, reached through a linked folder) is a file
/// of the scope under its own, other path.
fn in_scope_elsewhere(real_root: &Path, abs: &Path, rel: &str, scope: &ScopeMatcher) -> bool {
    own_rel(real_root, abs).is_some_and(|own| held_elsewhere(&own, rel, scope))
}

/// Whether `own`, the path a file reached as `rel` really has, is another path the scope holds.
fn held_elsewhere(own: &str, rel: &str, scope: &ScopeMatcher) -> bool {
    own != rel
        && scope.includes_file(own)
        && own
            .rmatch_indices('/')
            .all(|(i, _)| scope.may_enter(&own[..i]))
}

/// Whether `path` (a symlink) resolves to somewhere under `real_root` (the canonical root).
pub fn stays_inside(real_root: &Path, path: &Path) -> bool {
    std::fs::canonicalize(path).is_ok_and(|p| p.starts_with(real_root))
}

/// A directory holding a `.git` *file* is another checkout of a repository: a git worktree
/// (Claude Code puts a worktree-isolated subagent's in `.claude/worktrees/agent-*/`) or a
/// submodule. Its files are copies of the project's, never the project's own.
pub fn is_other_checkout(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(".git")).is_ok_and(|m| m.is_file())
}

fn load_ignore(dir: &Path, file: &str) -> Option<Gitignore> {
    let path = dir.join(file);
    if !path.is_file() {
        return None;
    }
    let mut b = GitignoreBuilder::new(dir);
    b.add(&path);
    b.build().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rel_of_gives_clean_slash_separated_paths() {
        let root = Path::new("/r");
        let rel = |p: &str| rel_of(root, Path::new(p));
        assert_eq!(rel("/r/a/b.md").as_deref(), Some("a/b.md"));
        assert_eq!(rel("/r//a///b.md").as_deref(), Some("a/b.md"));
        assert_eq!(rel("/r/./a/./b.md").as_deref(), Some("a/b.md"));
        assert_eq!(rel("/r/a/").as_deref(), Some("a"));
        assert_eq!(rel("/r"), None);
        assert_eq!(rel("/elsewhere/a"), None);
        assert_eq!(rel("/rx/a"), None);
        assert_eq!(
            rel_of(Path::new("/r/"), Path::new("/r/a/b")).as_deref(),
            Some("a/b")
        );
    }

    fn scope(include: &[&str], exclude: &[&str]) -> ScopeMatcher {
        let s = Scope {
            include: include.iter().map(|s| s.to_string()).collect(),
            exclude: exclude.iter().map(|s| s.to_string()).collect(),
        };
        ScopeMatcher::new(&s).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn default_scope() {
        let s = ScopeMatcher::new(&Scope::default()).unwrap_or_else(|e| panic!("{e}"));
        assert!(s.includes_file(".claude/skills/a/SKILL.md"));
        assert!(s.includes_file("CLAUDE.md"));
        assert!(!s.includes_file("sub/CLAUDE.md"), "anchored to the root");
        assert!(!s.includes_file(".claude/agent-memory/x/notes.md"));
        assert!(!s.includes_file(".claude/projects/p/memory/cc-reference/a.md"));
        assert!(s.includes_file(".claude/projects/p/memory/other.md"));
        assert!(s.may_enter(".claude"));
        assert!(s.may_enter(".claude/skills"));
        assert!(!s.may_enter("node_modules"));
        assert!(!s.may_enter(".claude/agent-memory"));
    }

    #[test]
    fn unanchored_globs_match_at_any_depth() {
        let s = scope(&["*.py"], &["build"]);
        assert!(s.includes_file("a/b/c.py"));
        assert!(s.includes_file("c.py"));
        assert!(!s.includes_file("a/build/c.py"));
        let s = scope(&["**/*.py"], &["build/**"]);
        assert!(!s.may_enter("build"));
        assert!(s.may_enter("a/build"), "`build/**` is anchored to the root");
        assert!(s.includes_file("a/build/c.py"));
        assert!(!s.includes_file("a/c.rs"));
        assert!(s.may_enter("anything"));
    }

    #[test]
    fn walk_finds_hidden_respects_ignores_and_skips_state() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let root = dir.path();
        for (p, c) in [
            (".claude/a.md", "x"),
            (".claude/.hidden.md", "x"),
            (".claude/ignored.md", "x"),
            (".claude/srcignored.md", "x"),
            (".claude/big.md", "0123456789"),
            (".gitignore", ".claude/ignored.md\n"),
            (".srcignore", "srcignored.md\n"),
            ("other/b.md", "x"),
        ] {
            let path = root.join(p);
            std::fs::create_dir_all(path.parent().unwrap_or(root))?;
            std::fs::write(path, c)?;
        }
        let ws = Workspace::at(root)?;
        ws.ensure_state_dir()?;
        let mut config = Config::default();
        config.limits.max_file_bytes = 5;
        let w = walk(&ws, &config)?;
        let paths: Vec<&str> = w.entries.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, vec![".claude/.hidden.md", ".claude/a.md"]);
        assert_eq!(w.skipped.len(), 1);
        assert_eq!(w.skipped[0].reason, "too-large");
        let f = PathFilter::new(&ws, &config)?;
        assert!(f.in_scope(".claude/a.md"));
        assert!(f.in_scope(".claude/new.md"));
        assert!(!f.in_scope(".claude/ignored.md"));
        assert!(!f.in_scope(".claude/srcignored.md"));
        assert!(!f.in_scope("other/b.md"));
        Ok(())
    }
}
