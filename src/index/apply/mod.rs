//! Applying a plan: remove and add files, read and scan in parallel, write with one writer, then
//! repair what the reads revealed (files that turned out binary, unreadable or gone).
//!
//! Owns every write to `files`, `names`, `mentions`, `edges` and `skipped`. This file is the
//! orchestration; the phases are files: `delta` (the names a plan adds, removes or moves),
//! `rows` (every row write), `resolve` (bearers and resolution), `small` (a few files without
//! loading every name), `pass` (parallel reads, one writer), `guard` (a full rebuild's
//! transaction and pragmas). Invariant: after `apply`, the tables equal what a full scan of the
//! same tree would produce: a rescanned file's mentions use the current name set; an edge exists
//! for a mention exactly when `resolve` says so against the current bearers; names that
//! appeared are looked for in every other file, files mentioning names that vanished are
//! rescanned, names whose bearers changed are re-resolved.

mod delta;
mod guard;
mod pass;
mod resolve;
mod rows;
mod small;

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use anyhow::Result;
use rusqlite::Connection;

use super::plan::Plan;
use super::read::{Work, WorkKind};
use super::IndexReport;
use crate::ctx::Ctx;
use crate::scan::matcher::{Engine, Matcher};
use crate::scan::refs::is_entry_file;
use crate::store::sql::index as sql;
use delta::{indexed_files, mention_sources, without_bearers, NameDelta};
use resolve::{Bearers, EarlyBuild};

pub(crate) use guard::RebuildGuard;
pub(crate) use resolve::{root_is_client, tree_of, RootDisk};
#[cfg(test)]
pub(crate) use small::{
    LOOKUPS_PER_FILE, LOOKUPS_PER_FILE_DEFAULT, SMALL_FILES, SMALL_FILES_DEFAULT,
};

/// Page cache of the indexing connection, in KiB.
const CACHE_KIB: i64 = 64 * 1024;
/// Above this many bearers a name gets a `Nearest` index instead of a linear scan.
const MANY_BEARERS: usize = 16;
/// Results per write transaction.
const BATCH: usize = 512;
/// Above this many bytes to scan, a forced DFA pays for its build.
const DFA_MIN_BYTES: u64 = 64 * 1024 * 1024;

fn debug(what: &str, t0: Instant) {
    crate::trace::note(
        "src index",
        &format!("{what} at {} ms", t0.elapsed().as_millis()),
    );
}

/// The automaton for scanning `bytes` of content.
fn engine_for(bytes: u64) -> Engine {
    if bytes >= DFA_MIN_BYTES {
        Engine::Dfa
    } else {
        Engine::Automaton
    }
}

/// Mutable state of one apply, kept by the writer.
struct Run<'a> {
    ctx: &'a Ctx,
    /// A full rebuild: `left` is the previous index, not files that moved.
    full: bool,
    now: String,
    report: IndexReport,
    /// Files deleted because reading showed they do not belong (binary, unreadable, gone).
    excluded: HashMap<i64, String>,
    /// The names those files bore (read before they left: some come from their content).
    excluded_names: HashMap<i64, Vec<String>>,
    /// Hash -> content_changed_at of files that left the index (renames keep their date).
    left: HashMap<String, String>,
    /// Full rebuild: excluded files are deleted after the pass (indexes are back by then).
    deferred: Vec<i64>,
}

/// Applies `plan` on `conn`. A full plan must run inside a `RebuildGuard` (which holds its
/// transaction, foreign keys off and the secondary indexes dropped).
pub(crate) fn apply(
    ctx: &Ctx,
    conn: &mut Connection,
    plan: Plan,
    progress: Option<&indicatif::ProgressBar>,
) -> Result<IndexReport> {
    anyhow::ensure!(
        !plan.full || !conn.is_autocommit(),
        "a full rebuild runs inside its RebuildGuard"
    );
    // The index's inserts touch several B-trees at random; the default 2 MB page cache thrashes.
    conn.pragma_update(None, "cache_size", -CACHE_KIB)?;
    if plan.full {
        // A rebuild reads back most of a database it is writing: through the map, those pages
        // would count toward its resident memory. The page cache above bounds it instead.
        conn.pragma_update(None, "mmap_size", 0)?;
    } else {
        // Repairs a database whose rebuild an older binary left without its indexes.
        crate::store::write(
            conn,
            |tx| Ok(tx.execute_batch(sql::CREATE_SECONDARY_BATCH)?),
        )?;
    }
    let t0 = Instant::now();
    let mut run = Run {
        ctx,
        full: plan.full,
        now: crate::clock::now(),
        report: IndexReport::default(),
        excluded: HashMap::new(),
        excluded_names: HashMap::new(),
        left: plan.previous.clone(),
        deferred: Vec::new(),
    };
    let root = &ctx.ws.root;
    let mut delta = NameDelta::of(conn, root, &plan, &ctx.config.names, &mut run.left)?;
    let early_build = plan
        .full
        .then(|| EarlyBuild::spawn(&plan.added, &delta.added_names, root, &ctx.config.names, t0));
    let added_ids = rows::write_added(conn, &plan, &delta, &run.now)?;
    debug("files and names written", t0);
    let mut early = match early_build {
        Some(handle) => {
            let built = EarlyBuild::join(handle, &added_ids)?;
            rows::write_frontmatter_names(conn, &added_ids, &built.frontmatter)?;
            delta.added_fm = built.frontmatter;
            Some((built.bearers, built.matcher, built.engine))
        }
        None => None,
    };
    run.report.removed = plan.removed.len() as u64;
    run.report.added = plan.added.len() as u64;

    // Names that no longer have any bearer: files mentioning them must be rescanned.
    let gone = without_bearers(conn, delta.removed_names.iter())?;
    let mut work = first_work(conn, &plan, &delta, &gone, &added_ids)?;
    // A file whose text holds a name that comes or goes may find other mentions than before
    // (a longer name hides the words inside it, `alpha/SKILL.md` in a path): it is scanned
    // again. Names that come are looked for everywhere; so are those that go, whose mentions
    // a file need not have kept.
    let probing: Vec<String> = delta.new_names.iter().chain(&gone).cloned().collect();
    let probe = if probing.is_empty() {
        None
    } else {
        let names = crate::index::read::probe_names(&probing);
        Some(Matcher::new(&names, Engine::Automaton)?)
    };
    // Names whose set of bearers changed: their mentions resolve anew.
    let mut reresolve: HashSet<String> = if plan.full {
        HashSet::new()
    } else {
        delta.reresolve()
    };
    // The files that come, change or go (none asked of a full rebuild).
    let touched: Vec<&str> = if plan.full {
        Vec::new()
    } else {
        plan.added
            .iter()
            .map(|e| e.path.as_str())
            .chain(plan.removed.iter().map(|(_, p)| p.as_str()))
            .chain(plan.checks.iter().map(|(_, p, _)| p.as_str()))
            .collect()
    };
    // A package's entry point decides what a name bound through it is (`refs::decide_entry`):
    // when one comes, changes or goes, every such name is decided again.
    if touched.iter().any(|p| is_entry_file(p)) {
        reresolve.extend(delta::entry_names(conn)?);
    }
    // A package's manifest maps the paths of its namespace (`refs::own_package_file`).
    if touched
        .iter()
        .any(|p| p.rsplit('/').next() == Some("package.json"))
    {
        reresolve.extend(delta::package_path_names(conn)?);
    }
    // A Python module's imports of its siblings decide what a use through it names
    // (`tags._manylinux`, `refs::through_module_file`): when one comes, changes or goes, the
    // names it imported before and after are decided again.
    let modules: Vec<String> = touched
        .iter()
        .filter(|p| p.ends_with(".py"))
        .map(|p| p.to_string())
        .collect();
    for m in &modules {
        reresolve.extend(delta::sibling_import_names(conn, m)?);
    }
    // So does whether a package's `__init__.py` holds code (`refs::is_empty_package`): an
    // import through it is decided again when it changes. (Coming and going changes bearers.)
    for (id, path, _) in &plan.checks {
        if path.rsplit('/').next() == Some("__init__.py") {
            reresolve.extend(delta::own_names(conn, *id)?);
        }
    }
    let sizes: HashMap<&str, u64> = plan
        .added
        .iter()
        .map(|e| (e.path.as_str(), e.size))
        .collect();
    let mut first = true;
    while !work.is_empty() {
        let bytes: u64 = work
            .iter()
            .filter(|w| w.kind != WorkKind::Probe)
            .map(|w| sizes.get(w.path.as_str()).copied().unwrap_or(4096))
            .sum();
        let probing = if first { probe.as_ref() } else { None };
        let before: HashSet<i64> = run.excluded.keys().copied().collect();
        if let Some(bar) = progress {
            bar.inc_length(work.len() as u64);
        }
        if probing.is_none() && small::is_small(work.len(), bytes) {
            small::small_pass(&mut run, conn, &work)?;
        } else {
            let early = if first { early.take() } else { None };
            let (bearers, matcher, engine) = match early {
                Some(built) => built,
                None => {
                    let engine = engine_for(bytes);
                    let bearers = Bearers::load(conn)?;
                    let names: Vec<&str> = bearers.by_name.keys().map(String::as_str).collect();
                    debug("bearers loaded", t0);
                    let matcher = Matcher::new(&names, engine)?
                        .with_conventional(&run.ctx.config.names.generic);
                    (bearers, matcher, engine)
                }
            };
            debug(
                &format!("matcher built ({engine:?}, {} names)", matcher.len()),
                t0,
            );
            pass::pass(&mut run, conn, &work, &matcher, probing, &bearers, progress)?;
        }
        first = false;
        debug("pass done", t0);
        if run.full {
            rows::restore_and_delete_deferred(conn, &std::mem::take(&mut run.deferred))?;
            debug("indexes recreated", t0);
        }
        // Files dropped by this pass: their names leave; rescan whoever mentioned the vanished.
        let mut dropped_names: HashSet<String> = HashSet::new();
        for id in run.excluded.keys() {
            if !before.contains(id) {
                dropped_names.extend(run.excluded_names.get(id).into_iter().flatten().cloned());
            }
        }
        let gone = without_bearers(conn, dropped_names.iter())?;
        let next = mention_sources(conn, &gone)?;
        reresolve.extend(dropped_names);
        work = if next.is_empty() {
            Vec::new()
        } else {
            indexed_files(conn)?
                .into_iter()
                .filter(|(id, _, _, _)| next.contains(id))
                .map(|(id, path, hash, fm)| Work::new(id, &path, WorkKind::Scan, Some(hash), fm))
                .collect()
        };
    }
    for m in &modules {
        reresolve.extend(delta::sibling_import_names(conn, m)?);
    }
    if !reresolve.is_empty() {
        let mut names: Vec<String> = reresolve.into_iter().collect();
        names.sort();
        let disk = RootDisk::new(root);
        for chunk in names.chunks(BATCH) {
            crate::store::write(conn, |tx| {
                for n in chunk {
                    resolve::reresolve_name(tx, n, root, &disk)?;
                }
                Ok(())
            })?;
        }
    }
    debug("re-resolved", t0);
    // A new file that reading showed to be binary, unreadable or gone was never really added.
    let new_ids: HashSet<i64> = added_ids.iter().copied().collect();
    let dropped_new = run
        .excluded
        .keys()
        .filter(|id| new_ids.contains(id))
        .count() as u64;
    run.report.added = run.report.added.saturating_sub(dropped_new);
    Ok(run.report)
}

/// The first pass's work: every added file, every checked file (scanned when it mentions a name
/// that vanished), and the other indexed files that mention a vanished name (scanned) or might
/// mention a new one (probed).
fn first_work(
    conn: &Connection,
    plan: &Plan,
    delta: &NameDelta,
    gone: &[String],
    added_ids: &[i64],
) -> Result<Vec<Work>> {
    let mut rescan: HashSet<i64> = mention_sources(conn, gone)?;
    for (id, _) in &plan.removed {
        rescan.remove(id);
    }
    let mut work: Vec<Work> = Vec::new();
    for (i, (e, id)) in plan.added.iter().zip(added_ids).enumerate() {
        let fm = delta.added_fm.get(i).cloned().flatten();
        work.push(Work::new(*id, &e.path, WorkKind::Scan, None, fm));
    }
    for (id, path, hash) in &plan.checks {
        // A file mentioning a vanished name is rescanned even when its content is the same.
        let kind = if rescan.remove(id) {
            WorkKind::Scan
        } else {
            WorkKind::Check
        };
        let fm = delta.check_fm.get(id).cloned().flatten();
        work.push(Work::new(*id, path, kind, Some(hash.clone()), fm));
    }
    let probing = !delta.new_names.is_empty() || !gone.is_empty();
    let indexed = if rescan.is_empty() && !probing {
        Vec::new()
    } else {
        indexed_files(conn)?
    };
    let in_work: HashSet<i64> = work.iter().map(|w| w.id).collect();
    for (id, path, hash, fm) in &indexed {
        if in_work.contains(id) {
            continue;
        }
        let (hash, fm) = (Some(hash.clone()), fm.clone());
        if rescan.contains(id) {
            work.push(Work::new(*id, path, WorkKind::Scan, hash, fm));
        } else if probing {
            work.push(Work::new(*id, path, WorkKind::Probe, hash, fm));
        }
    }
    Ok(work)
}
