//! The name delta: which names leave, arrive or move with a plan, read before anything is
//! written, and the reads that turn vanished or new names into files to scan.
//!
//! Owns the reads that decide the work; writes nothing. Invariant: every name whose set of
//! bearers a plan changes is in `removed_names`, `added_names` or `changed_names`, and a name
//! no file bore before is in `new_names` (incremental runs only: a full rebuild scans all).

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use rayon::prelude::*;
use rusqlite::{Connection, OptionalExtension};

use crate::index::plan::Plan;
use crate::scan::frontmatter_of;
use crate::scan::names::{names_with, NameKind};
use crate::store::sql::index as sql;

/// The frontmatter name of a checked (stat changed) Markdown file: the one stored, and the one
/// its head declares now.
pub(super) struct FmCheck {
    pub(super) id: i64,
    pub(super) old: Option<String>,
    pub(super) new: Option<String>,
}

/// What a plan does to the set of names, known before the pass.
pub(super) struct NameDelta {
    /// Names that leave with removed files or with a changed frontmatter name.
    pub(super) removed_names: HashSet<String>,
    /// The frontmatter name of each added file, by position (empty for a full rebuild until
    /// its early build has read them).
    pub(super) added_fm: Vec<Option<String>>,
    /// The names of each added file, by position (the early build shares them).
    pub(super) added_names: Arc<Vec<Vec<(String, NameKind)>>>,
    /// The frontmatter name each checked file has for this pass.
    pub(super) check_fm: HashMap<i64, Option<String>>,
    /// Checked files whose frontmatter name changed.
    pub(super) fm_changes: Vec<FmCheck>,
    /// The frontmatter names those files declare now.
    pub(super) changed_names: Vec<String>,
    /// Arriving names no file bore before: every other file is probed for them.
    pub(super) new_names: Vec<String>,
    /// Names borne below a folder that gains or loses its `__init__.py`, its plugin manifest
    /// (`.claude-plugin/plugin.json`), its `SKILL.md` or a program's manifest: whether an absolute import reaches
    /// them, where `${CLAUDE_PLUGIN_ROOT}` leads, and from where a document's name in capitals
    /// reaches it depend on them (`scan::refs`). Also the names of a read
    /// Markdown file that may be an agent by its frontmatter.
    pub(super) package_names: HashSet<String>,
}

impl NameDelta {
    /// Reads the delta of `plan`; the content dates of removed files go into `left` (a file
    /// that reappears under another path keeps its date).
    pub(super) fn of(
        conn: &Connection,
        root: &Path,
        plan: &Plan,
        names_cfg: &crate::config::Names,
        left: &mut HashMap<String, String>,
    ) -> Result<NameDelta> {
        let mut removed_names: HashSet<String> = HashSet::new();
        for (id, _) in &plan.removed {
            let mut stmt = conn.prepare_cached(sql::NAMES_OF_FILE)?;
            for n in stmt.query_map([id], |r| r.get::<_, String>(0))? {
                removed_names.insert(n?);
            }
            let mut stmt = conn.prepare_cached(sql::CHANGE_DATE_OF)?;
            let mut rows = stmt.query([id])?;
            if let Some(r) = rows.next()? {
                left.insert(r.get(0)?, r.get(1)?);
            }
        }
        // Names that come from content (a Markdown file's frontmatter `name:`) are known before
        // the pass from a read of the head of each file about to be read, so that the automaton
        // holds them and a changed name is a name delta like an added or removed file's. A full
        // rebuild reads them on the thread that builds its automaton, while the writer writes
        // the paths' names, and writes them after.
        let added_fm: Vec<Option<String>> = if plan.full {
            Vec::new()
        } else {
            plan.added
                .par_iter()
                .map(|e| frontmatter_of(root, &e.path, names_cfg))
                .collect()
        };
        let added_names: Arc<Vec<Vec<(String, NameKind)>>> = Arc::new(
            plan.added
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let fm = added_fm.get(i).and_then(Option::as_deref);
                    names_with(&e.path, fm, names_cfg)
                })
                .collect(),
        );
        let fm_checks = frontmatter_checks(conn, root, &plan.checks, names_cfg)?;
        let check_fm: HashMap<i64, Option<String>> =
            fm_checks.iter().map(|c| (c.id, c.new.clone())).collect();
        let fm_changes: Vec<FmCheck> = fm_checks.into_iter().filter(|c| c.old != c.new).collect();
        let mut changed_names: Vec<String> = Vec::new();
        for c in &fm_changes {
            removed_names.extend(c.old.iter().cloned());
            changed_names.extend(c.new.iter().cloned());
        }
        let mut new_names: Vec<String> = Vec::new();
        if !plan.full {
            let mut stmt = conn.prepare_cached(sql::NAME_EXISTS)?;
            let mut seen = HashSet::new();
            let arriving = added_names
                .iter()
                .flatten()
                .map(|(n, _)| n)
                .chain(&changed_names);
            for n in arriving {
                if seen.insert(n.as_str()) && !stmt.exists([n])? {
                    new_names.push(n.clone());
                }
            }
        }
        let mut package_names: HashSet<String> = HashSet::new();
        if !plan.full {
            let packages = plan
                .added
                .iter()
                .map(|e| e.path.as_str())
                .chain(plan.removed.iter().map(|(_, p)| p.as_str()))
                .filter_map(marked_folder);
            // A skipped file (a binary `__init__.py`) was never a file of the index: its
            // leaving shows only as its absence from the disk.
            let gone: Vec<String> = conn
                .prepare_cached(sql::SKIPPED_PATHS)?
                .query_map([], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<String>>>()?
                .into_iter()
                .filter(|p| std::fs::symlink_metadata(root.join(p)).is_err())
                .collect();
            package_names.extend(names_through_changed_folders(conn, plan, &gone)?);
            // Whether `from P import m` names `P`'s `__init__.py` depends on which modules `P`
            // holds (`scan::refs::imports_only_modules`): a Python file coming or going is a
            // module coming or going for each package folder above it.
            let modules = plan
                .added
                .iter()
                .map(|e| e.path.as_str())
                .chain(plan.removed.iter().map(|(_, p)| p.as_str()))
                .filter(|p| [".py", ".pyi", ".pyx", ".c"].iter().any(|x| p.ends_with(x)));
            for p in modules {
                for dir in p.match_indices('/').map(|(i, _)| &p[..i]) {
                    package_names.insert(dir.rsplit('/').next().unwrap_or(dir).to_string());
                }
            }
            // A written path leads to the file there before any bearer of the name it holds
            // (`scan::refs::decide_path`: `scripts/x.js` in a plugin's script is the plugin's
            // copy): a file coming or going under a longer path decides anew the mentions of
            // every shorter path it ends in.
            let arriving = plan.added.iter().map(|e| e.path.as_str());
            for p in arriving.chain(plan.removed.iter().map(|(_, p)| p.as_str())) {
                for (i, _) in p.match_indices('/') {
                    package_names.insert(p[i + 1..].to_string());
                }
            }
            let gone_dirs = gone.iter().map(String::as_str).filter_map(marked_folder);
            // A plugin's manifest read again may declare another name, which its things are
            // invoked by (`scan::refs::plugin_named`): the names under it are decided anew.
            let renamed = plan
                .checks
                .iter()
                .filter_map(|(_, p, _)| p.strip_suffix("/.claude-plugin/plugin.json"));
            let packages: Vec<&str> = packages.chain(gone_dirs).chain(renamed).collect();
            let mut stmt = conn.prepare_cached(sql::NAMES_UNDER)?;
            for dir in &packages {
                let (lo, hi) = (format!("{dir}/"), format!("{dir}0"));
                for n in stmt.query_map([lo, hi], |r| r.get::<_, String>(0))? {
                    package_names.insert(n?);
                }
            }
            // A plugin's manifest makes its folder a boundary (`scan::refs::plugin_of`) for
            // what its files mention as well as for what they bear.
            let manifests = plan
                .added
                .iter()
                .map(|e| e.path.as_str())
                .chain(plan.removed.iter().map(|(_, p)| p.as_str()))
                .chain(gone.iter().map(String::as_str))
                .filter_map(|p| p.strip_suffix("/.claude-plugin/plugin.json"));
            let mut stmt = conn.prepare_cached(sql::NAMES_MENTIONED_UNDER)?;
            for dir in manifests {
                let (lo, hi) = (format!("{dir}/"), format!("{dir}0"));
                for n in stmt.query_map([lo, hi], |r| r.get::<_, String>(0))? {
                    package_names.insert(n?);
                }
            }
        }
        // A Markdown file outside the agents' and commands' folders may become, or stop being,
        // an agent by an edit of its frontmatter (`scan::refs::entity_on_disk`): what its names
        // mean is decided anew whenever it is read again.
        if !plan.full {
            let mut stmt = conn.prepare_cached(sql::NAMES_OF_FILE)?;
            for (id, path, _) in &plan.checks {
                if crate::scan::refs::may_declare_agent(path) {
                    for n in stmt.query_map([id], |r| r.get::<_, String>(0))? {
                        package_names.insert(n?);
                    }
                }
            }
        }
        Ok(NameDelta {
            package_names,
            removed_names,
            added_fm,
            added_names,
            check_fm,
            fm_changes,
            changed_names,
            new_names,
        })
    }

    /// Names whose set of bearers changed (incremental runs): their mentions resolve anew.
    pub(super) fn reresolve(&self) -> HashSet<String> {
        let mut out: HashSet<String> = self.removed_names.clone();
        out.extend(self.added_names.iter().flatten().map(|(n, _)| n.clone()));
        out.extend(self.changed_names.iter().cloned());
        out.extend(self.package_names.iter().cloned());
        out
    }
}

/// The names of mentions written through a folder that comes into being or goes in this pass.
/// Whether a written path leads somewhere depends on its folders (a moved file's first folder,
/// a run of words joined by `/` that is a folder after all: `scan::refs`), and no bearer of the
/// name need change with them. A folder counts as there while any indexed or skipped file
/// lies below it; one outside the scope is not seen.
/// The folder a marker file at `p` makes what it is: a package (`__init__.py`), a plugin
/// (`.claude-plugin/plugin.json`), a skill (`SKILL.md`) or a program's package
/// (`package.json`, `pyproject.toml`, `Cargo.toml`: whether a skill's name run as a program
/// is the skill's own code, `scan::refs::keeps_a_program`).
fn marked_folder(p: &str) -> Option<&str> {
    p.strip_suffix("/__init__.py")
        .or_else(|| p.strip_suffix("/.claude-plugin/plugin.json"))
        .or_else(|| p.strip_suffix("/SKILL.md"))
        .or_else(|| p.strip_suffix("/package.json"))
        .or_else(|| p.strip_suffix("/pyproject.toml"))
        .or_else(|| p.strip_suffix("/Cargo.toml"))
}

fn names_through_changed_folders(
    conn: &Connection,
    plan: &Plan,
    gone_skips: &[String],
) -> Result<HashSet<String>> {
    let mut delta: HashMap<&str, i64> = HashMap::new();
    let ancestors = |p: &str| -> Vec<usize> { p.match_indices('/').map(|(i, _)| i).collect() };
    for e in &plan.added {
        for i in ancestors(&e.path) {
            *delta.entry(&e.path[..i]).or_default() += 1;
        }
    }
    for p in plan.removed.iter().map(|(_, p)| p).chain(gone_skips) {
        for i in ancestors(p) {
            *delta.entry(&p[..i]).or_default() -= 1;
        }
    }
    let mut out = HashSet::new();
    if delta.is_empty() {
        return Ok(out);
    }
    let mut under = conn.prepare_cached(sql::FILES_UNDER)?;
    let mut through = conn.prepare_cached(sql::NAMES_WRITTEN_THROUGH)?;
    let mut folders: HashSet<&str> = HashSet::new();
    for (dir, d) in delta {
        let before: i64 = under.query_row([format!("{dir}/"), format!("{dir}0")], |r| r.get(0))?;
        if (before == 0) != (before + d <= 0) {
            folders.insert(dir.rsplit('/').next().unwrap_or(dir));
        }
    }
    for f in folders {
        // A name written as a folder (`best-practices/`) is that folder where one lies beside
        // the writer or at the root (`scan::refs`): its mentions are decided again.
        out.insert(f.to_string());
        let esc = f
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        for n in through.query_map([format!("%{esc}/%")], |r| r.get::<_, String>(0))? {
            out.insert(n?);
        }
    }
    Ok(out)
}

/// Reads the head of each checked Markdown file (in parallel) and compares its frontmatter name
/// with the stored one.
fn frontmatter_checks(
    conn: &Connection,
    root: &Path,
    checks: &[(i64, String, String)],
    cfg: &crate::config::Names,
) -> Result<Vec<FmCheck>> {
    let md: Vec<&(i64, String, String)> = checks
        .iter()
        .filter(|(_, p, _)| crate::scan::frontmatter::applies_to(p))
        .collect();
    if md.is_empty() {
        return Ok(Vec::new());
    }
    let now: Vec<Option<String>> = md
        .par_iter()
        .map(|(_, p, _)| frontmatter_of(root, p, cfg))
        .collect();
    let mut stmt = conn.prepare_cached(sql::FRONTMATTER_NAME)?;
    let mut out = Vec::with_capacity(md.len());
    for ((id, _, _), new) in md.into_iter().zip(now) {
        let old: Option<String> = stmt.query_row([id], |r| r.get(0)).optional()?;
        out.push(FmCheck { id: *id, old, new });
    }
    Ok(out)
}

/// Of `names`, those no file bears any more.
pub(super) fn without_bearers<'a>(
    conn: &Connection,
    names: impl Iterator<Item = &'a String>,
) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(sql::NAME_EXISTS)?;
    let mut out = Vec::new();
    for n in names {
        if !stmt.exists([n])? {
            out.push(n.clone());
        }
    }
    Ok(out)
}

/// Ids of files with a mention of one of `names`.
pub(super) fn mention_sources(conn: &Connection, names: &[String]) -> Result<HashSet<i64>> {
    let mut stmt = conn.prepare_cached(sql::MENTION_SOURCES)?;
    let mut out = HashSet::new();
    for n in names {
        for id in stmt.query_map([n], |r| r.get::<_, i64>(0))? {
            out.insert(id?);
        }
    }
    Ok(out)
}

/// The names a statement `query` lists (its first column) for `params`; `what` names the list
/// in an error.
fn names_by(
    conn: &Connection,
    query: &str,
    params: impl rusqlite::Params,
    what: &str,
) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(query)?;
    let names = stmt
        .query_map(params, |r| r.get(0))?
        .collect::<rusqlite::Result<Vec<String>>>()
        .with_context(|| format!("listing {what}"))?;
    Ok(names)
}

/// The names bound through a package's entry point, in mentions and edges.
pub(super) fn entry_names(conn: &Connection) -> Result<Vec<String>> {
    names_by(
        conn,
        sql::ENTRY_NAMES,
        [],
        "names bound through entry points",
    )
}

/// The names written through a bare path, which a package's manifest may map.
pub(super) fn package_path_names(conn: &Connection) -> Result<Vec<String>> {
    names_by(
        conn,
        sql::PACKAGE_PATH_NAMES,
        [],
        "names written through bare paths",
    )
}

/// The names of the modules beside the Python module at `path` that it references (its
/// imports of siblings, `from . import _manylinux`): a use through it (`tags._manylinux`) is
/// decided by reading those imports (`refs::through_module_file`). Asked before a change is
/// scanned and after, so that an import that comes or goes is decided again.
pub(super) fn sibling_import_names(conn: &Connection, path: &str) -> Result<Vec<String>> {
    let dir = crate::scan::resolve::dir_of(path);
    let mut stmt = conn.prepare_cached(sql::EDGE_NAMES_FROM_PATH)?;
    let rows = stmt
        .query_map([path], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })?
        .collect::<rusqlite::Result<Vec<(String, String)>>>()
        .context("listing a module's references")?;
    Ok(rows
        .into_iter()
        .filter(|(_, dst)| dst.ends_with(".py") && crate::scan::resolve::dir_of(dst) == dir)
        .map(|(name, _)| name)
        .collect())
}

/// The names file `id` bears, but its basename (which every package's `__init__.py` bears).
pub(super) fn own_names(conn: &Connection, id: i64) -> Result<Vec<String>> {
    names_by(conn, sql::OWN_NAMES, [id], "a file's names")
}

/// `(id, path, hash, frontmatter name)` of an indexed file.
pub(super) type IndexedFile = (i64, String, String, Option<String>);

/// Every indexed file.
pub(super) fn indexed_files(conn: &Connection) -> Result<Vec<IndexedFile>> {
    let mut stmt = conn.prepare_cached(sql::INDEXED_FILES)?;
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()
        .context("listing indexed files")?;
    Ok(rows)
}
