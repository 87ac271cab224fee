//! Applying a plan: remove and add files, read and scan in parallel, write with one writer, then
//! repair what the reads revealed (files that turned out binary, unreadable or gone).
//!
//! Owns every write to `files`, `names`, `mentions`, `edges` and `skipped`. Invariant: after
//! `apply`, the tables equal what a full scan of the same tree would produce: a rescanned file's
//! mentions use the current name set; an edge exists for a mention exactly when `resolve` says so
//! against the current bearers; names that appeared are looked for in every other file, files
//! mentioning names that vanished are rescanned, names whose bearers changed are re-resolved.

use std::collections::{HashMap, HashSet};
use std::sync::{mpsc, Arc, OnceLock};

use anyhow::{Context, Result};
use rayon::prelude::*;
use rusqlite::{params, Connection};

use super::plan::{Plan, SkipUpdate};
use super::read::{found_by, read_file, Found, Outcome, Work, WorkKind};
use super::IndexReport;
use crate::ctx::Ctx;
use crate::graph::refs::{
    decide_hinted, decide_with, Decision, Mention as RefMention, NameHint, OnDisk, Tree,
};
use crate::graph::resolve::Nearest;
use crate::scan::frontmatter_of;
use crate::scan::matcher::{candidates, for_each_candidate, Engine, FnvMap, Matcher};
use crate::scan::names::{names_with, NameKind};

/// Page cache of the indexing connection, in KiB.
const CACHE_KIB: i64 = 64 * 1024;

fn debug(what: &str, t0: std::time::Instant) {
    crate::trace::note(
        "src index",
        &format!("{what} at {} ms", t0.elapsed().as_millis()),
    );
}

/// The secondary indexes of migration 0001, dropped during a full rebuild and recreated after
/// (same definitions; `IF NOT EXISTS` also repairs a rebuild that was interrupted).
const DROP_SECONDARY: &str = "DROP INDEX IF EXISTS names_by_name; \
     DROP INDEX IF EXISTS mentions_by_name; DROP INDEX IF EXISTS edges_by_dst;";
const CREATE_SECONDARY: &str = "CREATE INDEX IF NOT EXISTS names_by_name ON names(name); \
     CREATE INDEX IF NOT EXISTS mentions_by_name ON mentions(name, weak); \
     CREATE INDEX IF NOT EXISTS edges_by_dst ON edges(dst_id, src_id);";

/// Above this many bearers a name gets a `Nearest` index instead of a linear scan.
const MANY_BEARERS: usize = 16;

/// Results per write transaction.
const BATCH: usize = 512;
/// Files up to this many bytes look their candidate names up one query each; a bigger one may
/// read every name once instead (see `small_pass`). (A static so tests can force either way:
/// the result must be the same.)
pub(crate) static LOOKUPS_PER_FILE: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(1024);
/// Up to this many files and bytes, scanning looks names up instead of loading them all.
/// (A static so tests can force either path: the result must be the same.)
pub(crate) static SMALL_FILES: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(32);
const SMALL_BYTES: u64 = 128 * 1024;
/// Above this many bytes to scan, a forced DFA pays for its build.
const DFA_MIN_BYTES: u64 = 64 * 1024 * 1024;

/// The automaton for scanning `bytes` of content.
fn engine_for(bytes: u64) -> Engine {
    if bytes >= DFA_MIN_BYTES {
        Engine::Dfa
    } else {
        Engine::Automaton
    }
}

/// Every name with its bearers: `name -> [file id]`, and `file id -> path`.
pub(crate) struct Bearers {
    by_name: FnvMap<String, Vec<i64>>,
    paths: FnvMap<i64, String>,
}

impl Bearers {
    /// The bearers of just these names.
    fn for_names<'a>(
        conn: &Connection,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Result<Bearers> {
        let mut b = Bearers {
            by_name: FnvMap::default(),
            paths: FnvMap::default(),
        };
        let mut stmt = conn.prepare_cached(
            "SELECT n.file_id, f.path FROM names n JOIN files f ON f.id = n.file_id WHERE n.name = ?1",
        )?;
        for n in names {
            let mut ids = Vec::new();
            for row in stmt.query_map([n], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))? {
                let (id, path) = row?;
                ids.push(id);
                b.paths.insert(id, path);
            }
            b.by_name.insert(n.to_string(), ids);
        }
        Ok(b)
    }

    fn load(conn: &Connection) -> Result<Bearers> {
        let mut paths: FnvMap<i64, String> = FnvMap::default();
        let mut stmt = conn.prepare_cached("SELECT id, path FROM files")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            paths.insert(r.get(0)?, r.get(1)?);
        }
        let mut by_name: FnvMap<String, Vec<i64>> = FnvMap::default();
        let mut stmt = conn.prepare_cached("SELECT name, file_id FROM names")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            by_name.entry(r.get(0)?).or_default().push(r.get(1)?);
        }
        Ok(Bearers { by_name, paths })
    }
}

/// A much-borne name's bearers as `(id, path)` and what they have in common.
type ManyBearers<'b> = (Vec<(i64, &'b str)>, NameHint);

/// Resolves the mentions of files against fixed bearers; shared by the scanning threads. A name
/// with many bearers gets a `Nearest` index, built once, by the first thread that needs it.
struct Resolver<'b> {
    bearers: &'b Bearers,
    nearest: FnvMap<&'b str, OnceLock<Nearest>>,
    /// For names with many bearers: their `(id, path)` list and what they have in common,
    /// built once by the first thread that needs them.
    many: FnvMap<&'b str, OnceLock<ManyBearers<'b>>>,
    root: &'b std::path::Path,
    tree: Tree,
}

impl<'b> Resolver<'b> {
    fn new(bearers: &'b Bearers, root: &'b std::path::Path) -> Resolver<'b> {
        let nearest = bearers
            .by_name
            .iter()
            .filter(|(_, ids)| ids.len() > MANY_BEARERS)
            .map(|(n, _)| (n.as_str(), OnceLock::new()))
            .collect();
        let many = bearers
            .by_name
            .iter()
            .filter(|(_, ids)| ids.len() > MANY_BEARERS)
            .map(|(n, _)| (n.as_str(), OnceLock::new()))
            .collect();
        Resolver {
            bearers,
            nearest,
            many,
            root,
            tree: tree_of(root),
        }
    }

    /// Fills `to` of each mention of a scanned file; other outcomes have none.
    fn resolve_outcome(&self, o: &mut Outcome) {
        if let Outcome::Scanned { path, mentions, .. } = o {
            self.resolve_all(path, mentions);
        }
    }

    /// Fills `to` and `weak` of each mention found in the file at `src` (each written form
    /// resolved once).
    fn resolve_all(&self, src: &str, found: &mut [Found]) {
        let mut done: FnvMap<(&str, u16, Option<&str>), Decision> = FnvMap::default();
        let mut out = Vec::with_capacity(found.len());
        for m in found.iter() {
            let key = (m.name.as_str(), m.cue, m.via.as_deref());
            let d = match done.get(&key) {
                Some(d) => *d,
                None => {
                    let d = self.decide(src, &m.name, m.cue, m.via.as_deref());
                    done.insert(key, d);
                    d
                }
            };
            out.push(d);
        }
        for (m, d) in found.iter_mut().zip(out) {
            set_decision(m, d);
        }
    }

    fn decide(&self, src: &str, name: &str, cue: u16, via: Option<&str>) -> Decision {
        let Some(ids) = self.bearers.by_name.get(name) else {
            return Decision::Weak;
        };
        let paths = &self.bearers.paths;
        let collect = || -> Vec<(i64, &'b str)> {
            ids.iter()
                .filter_map(|b| paths.get(b).map(|p| (*b, p.as_str())))
                .collect()
        };
        let owned;
        let (with_paths, hint): (&[(i64, &str)], Option<NameHint>) = match self.many.get(name) {
            Some(cell) => {
                let (v, h) = cell.get_or_init(|| {
                    let v = collect();
                    let h = NameHint::of(name, &v);
                    (v, h)
                });
                (v.as_slice(), Some(*h))
            }
            None => {
                owned = collect();
                (owned.as_slice(), None)
            }
        };
        let nearest = self
            .nearest
            .get(name)
            .map(|idx| idx.get_or_init(|| Nearest::new(with_paths.iter().copied())));
        let m = RefMention {
            src,
            name,
            cue,
            via,
        };
        let exists = |p: &str| file_exists(self.root, p);
        decide_hinted(&m, with_paths, self.tree, &exists, nearest, hint)
    }
}

/// Records a decision on a found mention.
fn set_decision(m: &mut Found, d: Decision) {
    match d {
        Decision::Edge(id, res, kind) => {
            m.to = Some((id, res, kind));
            m.weak = false;
        }
        Decision::Tie => {
            m.to = None;
            m.weak = false;
        }
        Decision::Weak => {
            m.to = None;
            m.weak = true;
        }
    }
}

/// Whether `root/p` is a regular file inside the root (a written path may lead to a file the
/// index does not hold: out of scope, ignored).
pub(crate) fn file_exists(root: &std::path::Path, p: &str) -> OnDisk {
    if p.is_empty() || p.split('/').any(|c| c == "..") {
        return OnDisk::Missing;
    }
    match std::fs::symlink_metadata(root.join(p)) {
        Ok(m) if m.is_file() => OnDisk::File,
        Ok(m) if m.is_dir() => OnDisk::Dir,
        _ => OnDisk::Missing,
    }
}

/// `~/` means the root when the root is the user's home directory.
pub(crate) fn tree_of(root: &std::path::Path) -> Tree {
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let canon = |p: &std::path::Path| std::fs::canonicalize(p).ok();
    Tree {
        root_is_home: home.is_some_and(|h| canon(&h).is_some() && canon(&h) == canon(root)),
    }
}

/// What a full rebuild builds beside writing files and names: bearers by position in the
/// added list (not yet ids), the paths in that order, and the matcher over every name.
struct EarlyBuild {
    by_position: FnvMap<String, Vec<i64>>,
    paths: Vec<String>,
    /// The frontmatter name of each added file, by position (read here, off the writer's path).
    frontmatter: Vec<Option<String>>,
    matcher: Matcher,
    engine: Engine,
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

pub(crate) fn apply(
    ctx: &Ctx,
    conn: &mut Connection,
    plan: Plan,
    progress: Option<&indicatif::ProgressBar>,
) -> Result<IndexReport> {
    // The index's inserts touch several B-trees at random; the default 2 MB page cache thrashes.
    conn.pragma_update(None, "cache_size", -CACHE_KIB)?;
    // A rebuild reads back most of a database it is writing: through the map, those pages
    // would count toward its resident memory. The page cache above bounds it instead.
    if plan.full {
        conn.pragma_update(None, "mmap_size", 0)?;
    }
    if !plan.full {
        crate::store::write(conn, |tx| Ok(tx.execute_batch(CREATE_SECONDARY)?))?;
    }
    let t0 = std::time::Instant::now();
    let mut run = Run {
        ctx,
        full: plan.full,
        now: chrono::Utc::now().to_rfc3339(),
        report: IndexReport::default(),
        excluded: HashMap::new(),
        excluded_names: HashMap::new(),
        left: plan.previous.clone(),
        deferred: Vec::new(),
    };
    let names_cfg = &ctx.config.names;
    // Names that leave with removed files, and names that arrive with added ones.
    let mut removed_names: HashSet<String> = HashSet::new();
    for (id, _) in &plan.removed {
        let mut stmt = conn.prepare_cached("SELECT name FROM names WHERE file_id = ?1")?;
        for n in stmt.query_map([id], |r| r.get::<_, String>(0))? {
            removed_names.insert(n?);
        }
        let mut stmt =
            conn.prepare_cached("SELECT hash, content_changed_at FROM files WHERE id = ?1")?;
        let mut rows = stmt.query([id])?;
        if let Some(r) = rows.next()? {
            run.left.insert(r.get(0)?, r.get(1)?);
        }
    }
    // Names that come from content (a Markdown file's frontmatter `name:`) are known before the
    // pass from a read of the head of each file about to be read, so that the automaton holds
    // them and a changed name is a name delta like an added or removed file's. A full rebuild
    // reads them on the thread that builds its automaton, while the writer writes the paths'
    // names, and writes them after.
    let root = &ctx.ws.root;
    let mut added_fm: Vec<Option<String>> = if plan.full {
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
    // The frontmatter name each checked file has for this pass.
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
        let mut stmt = conn.prepare_cached("SELECT 1 FROM names WHERE name = ?1 LIMIT 1")?;
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
    // A full rebuild knows every name before writing any: its bearers (by position in
    // `plan.added`, ids come with the insert) and its matcher are built on another thread while
    // files and names are written, instead of being read back and built after.
    let early_build = plan.full.then(|| {
        let paths: Vec<String> = plan.added.iter().map(|e| e.path.clone()).collect();
        let bytes: u64 = plan.added.iter().map(|e| e.size).sum();
        let all_names = Arc::clone(&added_names);
        let (root, cfg) = (root.clone(), names_cfg.clone());
        std::thread::spawn(move || -> Result<EarlyBuild> {
            // On this one thread: the writer has the other core, and the reads end before it.
            let frontmatter: Vec<Option<String>> = paths
                .iter()
                .map(|p| frontmatter_of(&root, p, &cfg))
                .collect();
            debug("frontmatter read (early build)", t0);
            let mut by_name: FnvMap<String, Vec<i64>> = FnvMap::default();
            for (i, (names, fm)) in all_names.iter().zip(&frontmatter).enumerate() {
                for n in names.iter().map(|(n, _)| n).chain(fm) {
                    by_name.entry(n.clone()).or_default().push(i as i64);
                }
            }
            let engine = engine_for(bytes);
            let names: Vec<&str> = by_name.keys().map(String::as_str).collect();
            let matcher = Matcher::new(&names, engine)?;
            Ok(EarlyBuild {
                by_position: by_name,
                paths,
                frontmatter,
                matcher,
                engine,
            })
        })
    });
    // One transaction: removals, additions (placeholder hash), skipped rows.
    let mut added_ids: Vec<i64> = Vec::with_capacity(plan.added.len());
    // A full rebuild empties every table itself, so foreign keys only cost time (and keep
    // SQLite from truncating tables whole); they are back on before anything is deleted singly.
    if plan.full {
        conn.pragma_update(None, "foreign_keys", "OFF")?;
    }
    let written = crate::store::write(conn, |tx| {
        if plan.full {
            // Children first: each table then empties without per-row foreign-key work.
            tx.execute_batch(
                "DELETE FROM edges; DELETE FROM mentions; DELETE FROM names; DELETE FROM files;",
            )?;
            // Bulk loading into sorted-afterwards indexes beats random inserts into them.
            tx.execute_batch(DROP_SECONDARY)?;
        }
        for (id, _) in &plan.removed {
            delete_file(tx, *id)?;
        }
        for c in &fm_changes {
            set_frontmatter_name(tx, c)?;
        }
        let mut ins = tx.prepare_cached(
            "INSERT INTO files(path, size, mtime_ns, hash, scanned_at, content_changed_at) \
             VALUES (?1, ?2, ?3, '', ?4, ?4)",
        )?;
        let mut ins_name =
            tx.prepare_cached("INSERT INTO names(file_id, name, kind) VALUES (?1, ?2, ?3)")?;
        for (e, names) in plan.added.iter().zip(added_names.iter()) {
            ins.execute(params![e.path, e.size as i64, e.mtime_ns, run.now])?;
            let id = tx.last_insert_rowid();
            for (n, k) in names {
                ins_name.execute(params![id, n, k.as_str()])?;
            }
            added_ids.push(id);
        }
        write_skips(tx, &plan.skips)?;
        // Names only grow this bound; a removed long name leaves it loose, never wrong.
        let added_max = added_names
            .iter()
            .flatten()
            .map(|(n, _)| n)
            .chain(&changed_names)
            .map(String::len)
            .max()
            .unwrap_or(0);
        let bound = if plan.full {
            added_max
        } else {
            added_max.max(max_name_len(tx)?)
        };
        crate::store::meta_set(tx, META_MAX_NAME_LEN, &bound.to_string())?;
        Ok(())
    });
    if plan.full {
        conn.pragma_update(None, "foreign_keys", "ON")?;
    }
    written?;
    debug("files and names written", t0);
    // The positions of the early build become the ids just assigned.
    let mut early = match early_build {
        Some(handle) => {
            let built = handle
                .join()
                .map_err(|_| anyhow::anyhow!("building the matcher panicked"))??;
            anyhow::ensure!(
                built.paths.len() == added_ids.len(),
                "the early build saw {} files, {} were written",
                built.paths.len(),
                added_ids.len()
            );
            let mut by_name = built.by_position;
            for ids in by_name.values_mut() {
                for x in ids.iter_mut() {
                    *x = added_ids[*x as usize];
                }
            }
            write_frontmatter_names(conn, &added_ids, &built.frontmatter)?;
            added_fm = built.frontmatter;
            let paths = built
                .paths
                .into_iter()
                .zip(&added_ids)
                .map(|(p, id)| (*id, p))
                .collect();
            Some((Bearers { by_name, paths }, built.matcher, built.engine))
        }
        None => None,
    };
    run.report.removed = plan.removed.len() as u64;
    run.report.added = plan.added.len() as u64;

    // Names that no longer have any bearer: files mentioning them must be rescanned.
    let gone = without_bearers(conn, removed_names.iter())?;
    let mut rescan: HashSet<i64> = mention_sources(conn, &gone)?;
    for (id, _) in &plan.removed {
        rescan.remove(id);
    }
    let mut work: Vec<Work> = Vec::new();
    for (i, (e, id)) in plan.added.iter().zip(&added_ids).enumerate() {
        let fm = added_fm.get(i).cloned().flatten();
        work.push(Work::new(*id, &e.path, WorkKind::Scan, None, fm));
    }
    for (id, path, hash) in &plan.checks {
        // A file mentioning a vanished name is rescanned even when its content is the same.
        let kind = if rescan.remove(id) {
            WorkKind::Scan
        } else {
            WorkKind::Check
        };
        let fm = check_fm.get(id).cloned().flatten();
        work.push(Work::new(*id, path, kind, Some(hash.clone()), fm));
    }
    let indexed = if rescan.is_empty() && new_names.is_empty() {
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
        } else if !new_names.is_empty() {
            work.push(Work::new(*id, path, WorkKind::Probe, hash, fm));
        }
    }
    let probe = if new_names.is_empty() {
        None
    } else {
        Some(Matcher::new(&new_names, Engine::Automaton)?)
    };

    // Names whose set of bearers changed: their mentions resolve anew.
    let mut reresolve: HashSet<String> = HashSet::new();
    if !plan.full {
        reresolve.extend(removed_names);
        reresolve.extend(added_names.iter().flatten().map(|(n, _)| n.clone()));
        reresolve.extend(changed_names);
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
        if probing.is_none()
            && work.len() <= SMALL_FILES.load(std::sync::atomic::Ordering::Relaxed)
            && bytes <= SMALL_BYTES
        {
            small_pass(&mut run, conn, &work)?;
        } else {
            let early = if first { early.take() } else { None };
            let (bearers, matcher, engine) = match early {
                Some(built) => built,
                None => {
                    let engine = engine_for(bytes);
                    let bearers = Bearers::load(conn)?;
                    let names: Vec<&str> = bearers.by_name.keys().map(String::as_str).collect();
                    debug("bearers loaded", t0);
                    let matcher = Matcher::new(&names, engine)?;
                    (bearers, matcher, engine)
                }
            };
            debug(
                &format!("matcher built ({engine:?}, {} names)", matcher.len()),
                t0,
            );
            // A full rebuild inserts only rows whose parents exist (excluded files are deleted
            // after the pass, with foreign keys back on, so their edges cascade): the
            // per-row foreign-key lookups are pure cost there.
            let no_fk = run.full;
            if no_fk {
                conn.pragma_update(None, "foreign_keys", "OFF")?;
            }
            let passed = pass(&mut run, conn, &work, &matcher, probing, &bearers, progress);
            if no_fk {
                conn.pragma_update(None, "foreign_keys", "ON")?;
            }
            passed?;
        }
        first = false;
        debug("pass done", t0);
        if run.full {
            let deferred = std::mem::take(&mut run.deferred);
            crate::store::write(conn, |tx| {
                tx.execute_batch(CREATE_SECONDARY)?;
                for id in &deferred {
                    delete_file(tx, *id)?;
                }
                Ok(())
            })?;
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
    if run.full {
        crate::store::write(conn, |tx| Ok(tx.execute_batch(CREATE_SECONDARY)?))?;
    }
    if !reresolve.is_empty() {
        let mut names: Vec<String> = reresolve.into_iter().collect();
        names.sort();
        for chunk in names.chunks(BATCH) {
            crate::store::write(conn, |tx| {
                for n in chunk {
                    reresolve_name(tx, n, &run.ctx.ws.root)?;
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

const INSERT_MENTION: &str = "INSERT INTO mentions(src_id, name, line, text, cue, via, weak) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
const INSERT_EDGE: &str =
    "INSERT INTO edges(src_id, dst_id, name, line, text, resolution, cue, via, kind) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";

/// Deletes an indexed file. The mentions resolved to it (stored only as edges) become unresolved
/// mentions first, so they are not lost with the cascade and re-resolve with the name.
fn delete_file(tx: &Connection, id: i64) -> Result<()> {
    tx.prepare_cached(
        "INSERT OR IGNORE INTO mentions(src_id, name, line, text, cue, via) \
         SELECT src_id, name, line, text, cue, via FROM edges WHERE dst_id = ?1 AND src_id <> ?1",
    )?
    .execute([id])?;
    // The children by name, not by cascade: a full rebuild runs with foreign keys off.
    tx.prepare_cached("DELETE FROM edges WHERE src_id = ?1 OR dst_id = ?1")?
        .execute([id])?;
    tx.prepare_cached("DELETE FROM mentions WHERE src_id = ?1")?
        .execute([id])?;
    tx.prepare_cached("DELETE FROM names WHERE file_id = ?1")?
        .execute([id])?;
    tx.prepare_cached("DELETE FROM files WHERE id = ?1")?
        .execute([id])?;
    Ok(())
}

/// `meta` key: an upper bound of the byte length of every name (exact after a full rebuild).
const META_MAX_NAME_LEN: &str = "max_name_len";

/// The stored bound, or the exact value when none is stored.
fn max_name_len(conn: &Connection) -> Result<usize> {
    if let Some(v) = crate::store::meta_get(conn, META_MAX_NAME_LEN)? {
        if let Ok(n) = v.parse() {
            return Ok(n);
        }
    }
    let n = conn.query_row(
        "SELECT coalesce(max(length(CAST(name AS BLOB))), 0) FROM names",
        [],
        |r| r.get::<_, i64>(0),
    )?;
    Ok(n as usize)
}

/// Reads and scans a few files on this thread without loading every name: the names that can
/// occur in a file are among its boundary-valid substrings, so those are looked up in `names`
/// and a matcher over just the ones found gives the same mentions as one over all names.
fn small_pass(run: &mut Run<'_>, conn: &mut Connection, work: &[Work]) -> Result<()> {
    let max = run.ctx.config.limits.max_file_bytes;
    let names_cfg = &run.ctx.config.names;
    let root = run.ctx.ws.root.clone();
    let max_len = max_name_len(conn)?;
    let mut outcomes = Vec::with_capacity(work.len());
    {
        let mut exists = conn.prepare_cached("SELECT 1 FROM names WHERE name = ?1 LIMIT 1")?;
        // A big file has tens of thousands of candidates (about two per byte): one query each
        // (about 1 us) costs more than reading every name once (about 0.25 us a name) past
        // names / 8 bytes, so a bigger file checks its candidates against the names in memory.
        let mut all_names: Option<foldhash::HashSet<Box<[u8]>>> = None;
        let mut name_count: Option<usize> = None;
        for w in work {
            outcomes.push(read_file(&root, w, max, names_cfg, None, |bytes| {
                let floor = LOOKUPS_PER_FILE.load(std::sync::atomic::Ordering::Relaxed);
                if all_names.is_none() && bytes.len() > floor {
                    let n = match name_count {
                        Some(n) => n,
                        None => {
                            let n: i64 =
                                conn.query_row("SELECT count(*) FROM names", [], |r| r.get(0))?;
                            *name_count.insert(n as usize)
                        }
                    };
                    if bytes.len() > n / 8 {
                        let mut stmt = conn.prepare_cached("SELECT DISTINCT name FROM names")?;
                        let mut rows = stmt.query([])?;
                        let mut names = foldhash::HashSet::default();
                        while let Some(r) = rows.next()? {
                            names.insert(Box::<[u8]>::from(r.get_ref(0)?.as_bytes()?));
                        }
                        all_names = Some(names);
                    }
                }
                let mut found: Vec<&str> = Vec::new();
                match &all_names {
                    Some(names) => {
                        let mut seen: foldhash::HashSet<&[u8]> = foldhash::HashSet::default();
                        for_each_candidate(bytes, max_len, |c| {
                            if names.contains(c) && seen.insert(c) {
                                if let Ok(s) = std::str::from_utf8(c) {
                                    found.push(s);
                                }
                            }
                        });
                    }
                    None => {
                        for c in candidates(bytes, max_len) {
                            if let Ok(s) = std::str::from_utf8(c) {
                                if exists.exists([s])? {
                                    found.push(s);
                                }
                            }
                        }
                    }
                }
                // Submodule words of qualified uses are no whole names, so no candidates.
                for word in crate::scan::mentions::chained_words(bytes, &w.path) {
                    if exists.exists([word])? {
                        found.push(word);
                    }
                }
                Ok(found_by(
                    &Matcher::new(&found, Engine::Lookup)?,
                    bytes,
                    &w.path,
                ))
            })?);
        }
    }
    let mut names: HashSet<&str> = HashSet::new();
    for o in &outcomes {
        if let Outcome::Scanned { mentions, .. } = o {
            names.extend(mentions.iter().map(|m| m.name.as_str()));
        }
    }
    let bearers = Bearers::for_names(conn, names)?;
    let resolver = Resolver::new(&bearers, &root);
    for o in &mut outcomes {
        resolver.resolve_outcome(o);
    }
    crate::store::write(conn, |tx| {
        for o in outcomes {
            write_outcome(run, tx, o)?;
        }
        Ok(())
    })
}

/// Reads and scans `work` in parallel; one writer (this thread) commits batches.
fn pass(
    run: &mut Run<'_>,
    conn: &mut Connection,
    work: &[Work],
    matcher: &Matcher,
    probe: Option<&Matcher>,
    bearers: &Bearers,
    progress: Option<&indicatif::ProgressBar>,
) -> Result<()> {
    let max = run.ctx.config.limits.max_file_bytes;
    let names_cfg = &run.ctx.config.names;
    let root = &run.ctx.ws.root;
    let (tx, rx) = mpsc::sync_channel::<Result<Outcome>>(1024);
    let resolver = Resolver::new(bearers, root);
    let resolver = &resolver;
    std::thread::scope(|s| -> Result<()> {
        s.spawn(move || {
            // Resolution happens here, beside the scan: the writer is the bottleneck.
            work.par_iter().for_each_with(tx, |tx, w| {
                let o = read_file(root, w, max, names_cfg, probe, |b| {
                    Ok(found_by(matcher, b, &w.path))
                })
                .map(|mut o| {
                    resolver.resolve_outcome(&mut o);
                    o
                });
                let _ = tx.send(o);
            });
        });
        let mut batch: Vec<Result<Outcome>> = Vec::with_capacity(BATCH);
        let mut rx_iter = rx.into_iter().peekable();
        while rx_iter.peek().is_some() {
            batch.clear();
            while batch.len() < BATCH {
                match rx_iter.next() {
                    Some(o) => batch.push(o),
                    None => break,
                }
            }
            let n = batch.len() as u64;
            crate::store::write(conn, |tx| {
                for o in batch.drain(..) {
                    write_outcome(run, tx, o?)?;
                }
                Ok(())
            })?;
            if let Some(bar) = progress {
                bar.inc(n);
            }
        }
        Ok(())
    })
}

fn write_outcome(run: &mut Run<'_>, tx: &Connection, o: Outcome) -> Result<()> {
    match o {
        Outcome::Untouched => {}
        Outcome::Same { id, size, mtime_ns } => {
            run.report.files_read += 1;
            tx.prepare_cached("UPDATE files SET size = ?2, mtime_ns = ?3 WHERE id = ?1")?
                .execute(params![id, size as i64, mtime_ns])?;
        }
        Outcome::Excluded {
            id,
            path,
            reason,
            size,
            mtime_ns,
        } => {
            run.excluded_names.insert(id, names_of_file(tx, id)?);
            if run.full {
                run.deferred.push(id);
            } else {
                delete_file(tx, id)?;
            }
            if let Some(reason) = reason {
                tx.prepare_cached(
                    "INSERT OR REPLACE INTO skipped(path, reason, size, mtime_ns) VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![path, reason, size.map(|s| s as i64), mtime_ns])?;
            }
            run.excluded.insert(id, path);
        }
        Outcome::Scanned {
            id,
            size,
            mtime_ns,
            hash,
            old_hash,
            mentions,
            names_stale,
            ..
        } => {
            run.report.files_read += 1;
            if old_hash.is_some() {
                // A file just added has no mentions or edges yet.
                tx.prepare_cached("DELETE FROM mentions WHERE src_id = ?1")?
                    .execute([id])?;
                tx.prepare_cached("DELETE FROM edges WHERE src_id = ?1")?
                    .execute([id])?;
            }
            let mut ins_m = tx.prepare_cached(INSERT_MENTION)?;
            let mut ins_e = tx.prepare_cached(INSERT_EDGE)?;
            for m in &mentions {
                // A mention is stored once: as an edge when it resolves, else in `mentions`.
                // An edge into a file this pass excluded waits as a mention: the excluded
                // file's names are re-resolved after the pass, against the bearers left.
                match m.to {
                    Some((dst, res, kind)) if !run.excluded.contains_key(&dst) => {
                        ins_e.execute(params![
                            id,
                            dst,
                            m.name,
                            m.line,
                            m.text,
                            res.as_str(),
                            m.cue,
                            m.via,
                            kind.as_str()
                        ])?;
                    }
                    _ => {
                        ins_m.execute(params![id, m.name, m.line, m.text, m.cue, m.via, m.weak])?;
                    }
                }
            }
            let changed_at = match &old_hash {
                Some(h) if *h == hash => None,
                Some(h) if !h.is_empty() => {
                    run.report.changed += 1;
                    Some(run.now.clone())
                }
                _ => match run.left.get(&hash) {
                    Some(at) => {
                        if !run.full {
                            run.report.renamed += 1;
                        }
                        Some(at.clone())
                    }
                    None => Some(run.now.clone()),
                },
            };
            tx.prepare_cached(
                "UPDATE files SET size = ?2, mtime_ns = ?3, hash = ?4, scanned_at = ?5, \
                 content_changed_at = coalesce(?6, content_changed_at) WHERE id = ?1",
            )?
            .execute(params![
                id,
                size as i64,
                mtime_ns,
                if names_stale { "" } else { hash.as_str() },
                run.now,
                changed_at
            ])?;
        }
    }
    Ok(())
}

fn write_skips(tx: &Connection, skips: &SkipUpdate) -> Result<()> {
    match skips {
        SkipUpdate::Replace(all) => {
            tx.execute("DELETE FROM skipped", [])?;
            for s in all {
                insert_skip(tx, s)?;
            }
        }
        SkipUpdate::Paths { clear, set } => {
            let mut del = tx.prepare_cached("DELETE FROM skipped WHERE path = ?1")?;
            for p in clear {
                del.execute([p])?;
            }
            for s in set {
                insert_skip(tx, s)?;
            }
        }
    }
    Ok(())
}

fn insert_skip(tx: &Connection, s: &super::walk::Skip) -> Result<()> {
    tx.prepare_cached(
        "INSERT OR REPLACE INTO skipped(path, reason, size, mtime_ns) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![
        s.path,
        s.reason,
        s.size.map(|x| x as i64),
        s.mtime_ns
    ])?;
    Ok(())
}

/// The frontmatter name of a checked (stat changed) Markdown file: the one stored, and the one
/// its head declares now.
struct FmCheck {
    id: i64,
    old: Option<String>,
    new: Option<String>,
}

/// Reads the head of each checked Markdown file (in parallel) and compares its frontmatter name
/// with the stored one.
fn frontmatter_checks(
    conn: &Connection,
    root: &std::path::Path,
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
    let mut stmt = conn.prepare_cached(
        "SELECT name FROM names WHERE file_id = ?1 AND kind = 'frontmatter' LIMIT 1",
    )?;
    let mut out = Vec::with_capacity(md.len());
    for ((id, _, _), new) in md.into_iter().zip(now) {
        use rusqlite::OptionalExtension;
        let old: Option<String> = stmt.query_row([id], |r| r.get(0)).optional()?;
        out.push(FmCheck { id: *id, old, new });
    }
    Ok(out)
}

/// Gives a file that stays in the index another frontmatter name. The mentions resolved to it by
/// the old name (stored only as edges) become unresolved mentions first, so they re-resolve
/// with the name (or are rescanned when no file bears it any more).
fn set_frontmatter_name(tx: &Connection, c: &FmCheck) -> Result<()> {
    if let Some(old) = &c.old {
        tx.prepare_cached(
            "INSERT OR IGNORE INTO mentions(src_id, name, line, text, cue, via) \
             SELECT src_id, name, line, text, cue, via FROM edges WHERE dst_id = ?1 AND name = ?2",
        )?
        .execute(params![c.id, old])?;
        tx.prepare_cached("DELETE FROM edges WHERE dst_id = ?1 AND name = ?2")?
            .execute(params![c.id, old])?;
        tx.prepare_cached("DELETE FROM names WHERE file_id = ?1 AND name = ?2")?
            .execute(params![c.id, old])?;
    }
    if let Some(new) = &c.new {
        tx.prepare_cached("INSERT INTO names(file_id, name, kind) VALUES (?1, ?2, ?3)")?
            .execute(params![c.id, new, NameKind::Frontmatter.as_str()])?;
    }
    Ok(())
}

/// The names file `id` bears now.
fn names_of_file(tx: &Connection, id: i64) -> Result<Vec<String>> {
    let mut stmt = tx.prepare_cached("SELECT name FROM names WHERE file_id = ?1")?;
    let names = stmt
        .query_map([id], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(names)
}

type IndexedFile = (i64, String, String, Option<String>);

/// A full rebuild's frontmatter names (`frontmatter[i]` of the file `ids[i]`), read while the
/// paths' names were written; the name length bound grows with them.
fn write_frontmatter_names(
    conn: &mut Connection,
    ids: &[i64],
    frontmatter: &[Option<String>],
) -> Result<()> {
    crate::store::write(conn, |tx| {
        let mut ins =
            tx.prepare_cached("INSERT INTO names(file_id, name, kind) VALUES (?1, ?2, ?3)")?;
        let mut longest = 0;
        for (id, name) in ids.iter().zip(frontmatter) {
            if let Some(n) = name {
                ins.execute(params![id, n, NameKind::Frontmatter.as_str()])?;
                longest = longest.max(n.len());
            }
        }
        if longest > max_name_len(tx)? {
            crate::store::meta_set(tx, META_MAX_NAME_LEN, &longest.to_string())?;
        }
        Ok(())
    })
}

/// Of `names`, those no file bears any more.
fn without_bearers<'a>(
    conn: &Connection,
    names: impl Iterator<Item = &'a String>,
) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached("SELECT 1 FROM names WHERE name = ?1 LIMIT 1")?;
    let mut out = Vec::new();
    for n in names {
        if !stmt.exists([n])? {
            out.push(n.clone());
        }
    }
    Ok(out)
}

/// Ids of files with a mention of one of `names`.
fn mention_sources(conn: &Connection, names: &[String]) -> Result<HashSet<i64>> {
    let mut stmt = conn.prepare_cached("SELECT DISTINCT src_id FROM mentions WHERE name = ?1")?;
    let mut out = HashSet::new();
    for n in names {
        for id in stmt.query_map([n], |r| r.get::<_, i64>(0))? {
            out.insert(id?);
        }
    }
    Ok(out)
}

/// `(id, path, hash, frontmatter name)` of every indexed file.
fn indexed_files(conn: &Connection) -> Result<Vec<IndexedFile>> {
    let mut stmt = conn.prepare_cached(
        "SELECT f.id, f.path, f.hash, n.name FROM files f \
         LEFT JOIN names n ON n.file_id = f.id AND n.kind = 'frontmatter'",
    )?;
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()
        .context("listing indexed files")?;
    Ok(rows)
}

/// Recomputes every edge made by a mention of `name` from `mentions` and the current bearers.
fn reresolve_name(tx: &Connection, name: &str, root: &std::path::Path) -> Result<()> {
    let mut bearers: Vec<(i64, String)> = Vec::new();
    {
        let mut stmt = tx.prepare_cached(
            "SELECT n.file_id, f.path FROM names n JOIN files f ON f.id = n.file_id WHERE n.name = ?1",
        )?;
        for r in stmt.query_map([name], |r| Ok((r.get(0)?, r.get(1)?)))? {
            bearers.push(r?);
        }
    }
    // Every mention of the name: the unresolved ones, and the resolved ones, which are edges
    // into a current bearer (an edge into a file that left became a mention when it left).
    type Row = (i64, String, i64, String, u16, Option<String>);
    let row = |r: &rusqlite::Row<'_>| -> rusqlite::Result<Row> {
        Ok((
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
        ))
    };
    let mut rows: Vec<Row> = tx
        .prepare_cached(
            "SELECT m.src_id, f.path, m.line, m.text, m.cue, m.via FROM mentions m \
             JOIN files f ON f.id = m.src_id WHERE m.name = ?1",
        )?
        .query_map([name], row)?
        .collect::<rusqlite::Result<_>>()?;
    {
        let mut stmt = tx.prepare_cached(
            "SELECT e.src_id, f.path, e.line, e.text, e.cue, e.via FROM edges e \
             JOIN files f ON f.id = e.src_id WHERE e.dst_id = ?1 AND e.name = ?2",
        )?;
        for (id, _) in &bearers {
            for r in stmt.query_map(params![id, name], row)? {
                rows.push(r?);
            }
        }
    }
    let mut del_e =
        tx.prepare_cached("DELETE FROM edges WHERE src_id = ?1 AND name = ?2 AND line = ?3")?;
    let mut del_m =
        tx.prepare_cached("DELETE FROM mentions WHERE src_id = ?1 AND name = ?2 AND line = ?3")?;
    let mut ins_e = tx.prepare_cached(INSERT_EDGE)?;
    let mut ins_m = tx.prepare_cached(INSERT_MENTION)?;
    let with_paths: Vec<(i64, &str)> = bearers.iter().map(|(id, p)| (*id, p.as_str())).collect();
    let idx = (with_paths.len() > MANY_BEARERS).then(|| Nearest::new(with_paths.iter().copied()));
    let tree = tree_of(root);
    let exists = |p: &str| file_exists(root, p);
    for (src, path, line, text, cue, via) in rows {
        del_e.execute(params![src, name, line])?;
        del_m.execute(params![src, name, line])?;
        let m = RefMention {
            src: &path,
            name,
            cue,
            via: via.as_deref(),
        };
        match decide_with(&m, &with_paths, tree, &exists, idx.as_ref()) {
            Decision::Edge(dst, res, kind) => {
                ins_e.execute(params![
                    src,
                    dst,
                    name,
                    line,
                    text,
                    res.as_str(),
                    cue,
                    via,
                    kind.as_str()
                ])?;
            }
            d => {
                ins_m.execute(params![
                    src,
                    name,
                    line,
                    text,
                    cue,
                    via,
                    d == Decision::Weak
                ])?;
            }
        }
    }
    Ok(())
}
