//! One impact run end to end: resolve the input to a change manifest, refresh the index for it,
//! read hop 1 and hop 2 from the graph (or from a live scan when the index is missing or stale),
//! label the result and store it.
//!
//! Owns the order of reads, not the rules (`decide`) or the rows (`assemble`). Invariants: no
//! walk of the tree when the index is usable (one refresh, one `edges_into` per hop, stat-only
//! freshness checks); every input path that is not analysed is named in a note; a deleted file
//! that was indexed is analysed from the edges read before the refresh drops it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::ctx::Ctx;
use crate::error::usage;
use crate::graph::{self, Edge};
use crate::index::{self, Freshness};
use crate::scan;
use crate::workspace::Located;

use super::assemble::{self, name_some};
use super::runs::{self, StoredRun};

/// Where the change manifest comes from.
#[derive(Debug, Clone)]
pub enum Input {
    /// Paths given as arguments (absolute or root-relative).
    Files(Vec<PathBuf>),
    /// Paths read from stdin, one per line.
    Stdin(Vec<PathBuf>),
    /// The files a session's recorded events touched.
    Session(String),
    /// `git diff --name-only REV` in the root, plus untracked files.
    GitDiff(String),
}

impl Input {
    fn kind(&self) -> &'static str {
        match self {
            Input::Files(_) => "files",
            Input::Stdin(_) => "stdin",
            Input::Session(_) => "session",
            Input::GitDiff(_) => "git-diff",
        }
    }
}

/// Appends a phase timing to the file named by `SRC_DEBUG` (the hooks' convention), if any.
pub fn lap(what: &str, since: &mut Instant) {
    crate::trace::lap("src impact", what, since);
}

/// A finished, stored run and the input problems worth a line on stderr.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub run: StoredRun,
    pub warnings: Vec<String>,
}

/// Runs the analysis for `input` and stores it.
pub fn analyze(ctx: &Ctx, input: &Input) -> Result<Outcome> {
    let mut notes = Vec::new();
    let mut warnings = Vec::new();
    let raw = input_paths(ctx, input, &mut warnings)?;
    let mut manifest = BTreeSet::new();
    let mut outside = Vec::new();
    for p in raw {
        match ctx.ws.locate(&p) {
            Located::Inside(rel) => {
                manifest.insert(rel);
            }
            Located::Outside(abs) => outside.push(abs.display().to_string()),
        }
    }
    if !outside.is_empty() {
        outside.sort();
        outside.dedup();
        warnings.push(format!(
            "{} path(s) outside the root {}, not analysed: {}",
            outside.len(),
            ctx.ws.root.display(),
            name_some(&outside)
        ));
    }
    let manifest: Vec<String> = manifest.into_iter().collect();
    let files_changed = manifest.len() as u64;
    let graph = if index::is_built(ctx)? {
        from_index(ctx, &manifest, &mut warnings, &mut notes)?
    } else {
        notes.push(
            "the index is not built: answered by a live scan (grep-only mode); run `src index`"
                .into(),
        );
        from_live_scan(ctx, &manifest, &mut notes)?
    };
    // Input problems come first in the notes: they explain a `skipped` before anything else.
    let mut all_notes = warnings.clone();
    all_notes.extend(notes);
    let l1 = graph
        .assembled
        .into_l1(files_changed, graph.truncated, graph.live_scan, all_notes);
    let session = match input {
        Input::Session(s) => Some(s.as_str()),
        _ => None,
    };
    let mut t = Instant::now();
    let mut conn = ctx.store.conn()?;
    let run = runs::save(&mut conn, l1, input.kind(), session)?;
    lap("store", &mut t);
    Ok(Outcome { run, warnings })
}

/// The graph part of a run, however it was read.
struct GraphAnswer {
    assembled: assemble::Assembled,
    truncated: bool,
    live_scan: bool,
}

/// Hop 1 and hop 2 from the index; falls back to a live scan when a file involved is stale.
fn from_index(
    ctx: &Ctx,
    manifest: &[String],
    warnings: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Result<GraphAnswer> {
    let cfg = &ctx.config.impact;
    let mut t = Instant::now();
    let before = index::freshness(ctx, manifest)?;
    lap("freshness before", &mut t);
    let deleted: Vec<String> = before
        .iter()
        .filter(|(_, f)| *f == Freshness::Missing)
        .map(|(p, _)| p.clone())
        .collect();
    let conn = ctx.store.conn()?;
    // The refresh drops a deleted file and its edges: read who mentioned it first.
    let mut hop1_edges = if deleted.is_empty() {
        Vec::new()
    } else {
        graph::edges_into(&conn, &deleted)?
    };
    // An index built under another scope or other naming rules answers a different question.
    let fp = crate::store::meta_get(&conn, index::META_FINGERPRINT)?;
    if fp.as_deref() != Some(index::fingerprint(&ctx.config).as_str()) {
        notes.push(
            "the configuration or naming rules changed since the index was built: answered by a live scan (grep-only mode); run `src index`"
                .into(),
        );
        return from_live_scan(ctx, manifest, notes);
    }
    // Only paths whose entry differs from the disk need the refresh (it costs a read of the
    // file table); a fresh changed file is already what a refresh would make it.
    // An unindexed file only needs it when it exists and is in scope (a new file).
    let filter = crate::index::walk::PathFilter::new(&ctx.ws, &ctx.config)?;
    let to_refresh: Vec<String> = before
        .iter()
        .filter(|(p, f)| match f {
            Freshness::Fresh => false,
            Freshness::Stale | Freshness::Missing => true,
            Freshness::Unindexed => ctx.ws.abs(p).is_file() && filter.in_scope(p),
        })
        .map(|(p, _)| p.clone())
        .collect();
    if !to_refresh.is_empty() {
        let report = index::refresh_paths(ctx, &to_refresh)
            .context("refreshing the index for the changed files")?;
        if !report.notes.is_empty() {
            notes.push(format!(
                "the index could not be refreshed ({}): answered by a live scan (grep-only mode)",
                report.notes.join("; ")
            ));
            return from_live_scan(ctx, manifest, notes);
        }
        lap("refresh", &mut t);
    }
    let present: Vec<String> = manifest
        .iter()
        .filter(|p| !deleted.contains(p))
        .cloned()
        .collect();
    let mut analyzable = deleted.clone();
    let mut stale = Vec::new();
    let (mut unknown, mut absent) = (Vec::new(), Vec::new());
    for (p, f) in index::freshness(ctx, &present)? {
        match f {
            Freshness::Fresh => analyzable.push(p),
            Freshness::Stale => {
                stale.push(p.clone());
                analyzable.push(p);
            }
            Freshness::Unindexed | Freshness::Missing if ctx.ws.abs(&p).exists() => unknown.push(p),
            Freshness::Unindexed | Freshness::Missing => absent.push(p),
        }
    }
    note_unanalysed(&unknown, &absent, warnings);
    if !deleted.is_empty() {
        notes.push(format!(
            "{} changed file(s) were deleted; their dependents still mention them: {}",
            deleted.len(),
            name_some(&deleted)
        ));
    }
    analyzable.sort();
    let (analyzable, cut) = cap_changed(analyzable, cfg.max_changed_files, notes);
    if !stale.is_empty() {
        return fallback(ctx, &analyzable, hop1_edges, cut, &stale, notes);
    }
    lap("freshness after", &mut t);
    // The live scan cannot see a deleted file: keep the edges read before the refresh.
    let deleted_edges = hop1_edges.clone();
    hop1_edges.extend(graph::edges_into(&conn, &analyzable)?);
    // Mentions that could not be attributed (ties) are named, never dropped silently.
    let ties = graph::unattributed(&conn, &analyzable)?;
    if !ties.is_empty() {
        let total: u64 = ties.iter().map(|(_, n)| n).sum();
        let files: Vec<String> = ties.iter().map(|(f, n)| format!("{f} ({n})")).collect();
        notes.push(format!(
            "{total} mention(s) of changed files' names could not be attributed (ties between \
             same-named files; `src query unresolved`): {}",
            name_some(&files)
        ));
    }
    lap("hop 1", &mut t);
    let h1 = assemble::hop1(&analyzable, &hop1_edges, cfg.max_direct_per_file);
    let hop2_edges = graph::edges_into(&conn, &h1.intermediates())?;
    lap("hop 2", &mut t);
    let assembled = h1.finish(&hop2_edges, &ctx.ws.root, cfg.hub_threshold);
    // Confidence high needs every file in the answer fresh; one stale file means a live scan.
    let involved: BTreeSet<String> = assembled
        .impacts
        .iter()
        .flat_map(|i| i.dependents.iter())
        .filter_map(|d| ctx.ws.relative(Path::new(&d.file)))
        .collect();
    let involved: Vec<String> = involved.into_iter().collect();
    let stale: Vec<String> = index::freshness(ctx, &involved)?
        .into_iter()
        .filter(|(_, f)| *f != Freshness::Fresh)
        .map(|(p, _)| p)
        .collect();
    lap("assemble and freshness of dependents", &mut t);
    if !stale.is_empty() {
        return fallback(ctx, &analyzable, deleted_edges, cut, &stale, notes);
    }
    Ok(GraphAnswer {
        assembled,
        truncated: cut,
        live_scan: false,
    })
}

/// The index is stale for files in the answer: answer the same question by a live scan.
fn fallback(
    ctx: &Ctx,
    analyzable: &[String],
    deleted_edges: Vec<Edge>,
    cut: bool,
    stale: &[String],
    notes: &mut Vec<String>,
) -> Result<GraphAnswer> {
    notes.push(format!(
        "{} indexed file(s) changed since they were indexed: answered by a live scan (grep-only mode); run `src index`: {}",
        stale.len(),
        name_some(stale)
    ));
    let mut ans = live(ctx, analyzable, deleted_edges, notes)?;
    ans.truncated |= cut;
    Ok(ans)
}

/// Degraded mode: no usable index, so the changed files that exist in scope are analysed by a
/// live scan of the tree.
fn from_live_scan(ctx: &Ctx, manifest: &[String], notes: &mut Vec<String>) -> Result<GraphAnswer> {
    // The live scan resolves names against the files in scope, as the index does: a missing or
    // out-of-scope file bears no name there, so it cannot be analysed.
    let filter = crate::index::walk::PathFilter::new(&ctx.ws, &ctx.config)?;
    let (mut analyzable, mut unknown, mut absent) = (Vec::new(), Vec::new(), Vec::new());
    for p in manifest {
        if !ctx.ws.abs(p).is_file() {
            absent.push(p.clone());
        } else if filter.in_scope(p) {
            analyzable.push(p.clone());
        } else {
            unknown.push(p.clone());
        }
    }
    note_unanalysed(&unknown, &absent, notes);
    let (analyzable, cut) = cap_changed(analyzable, ctx.config.impact.max_changed_files, notes);
    let mut ans = live(ctx, &analyzable, Vec::new(), notes)?;
    ans.truncated |= cut;
    Ok(ans)
}

/// Both hops by live scans sharing one time budget; `known` are hop-1 edges read before (into
/// deleted files, which no scan can resolve).
fn live(
    ctx: &Ctx,
    changed: &[String],
    mut known: Vec<Edge>,
    notes: &mut Vec<String>,
) -> Result<GraphAnswer> {
    let cfg = &ctx.config.impact;
    let budget = Duration::from_millis(ctx.config.limits.live_scan_budget_ms);
    let start = Instant::now();
    let mut truncated = false;
    let mut scan = |targets: &[String]| -> Result<Vec<Edge>> {
        if targets.is_empty() {
            return Ok(Vec::new());
        }
        let left = budget.saturating_sub(start.elapsed());
        let s = scan::live_dependents(&ctx.ws, &ctx.config, targets, left)
            .context("scanning the tree for dependents")?;
        truncated |= s.truncated;
        Ok(s.edges)
    };
    known.extend(scan(changed)?);
    let h1 = assemble::hop1(changed, &known, cfg.max_direct_per_file);
    let hop2 = scan(&h1.intermediates())?;
    let assembled = h1.finish(&hop2, &ctx.ws.root, cfg.hub_threshold);
    if truncated {
        notes.push(format!(
            "the live scan ran out of its budget (limits.live_scan_budget_ms = {}): some files were not read",
            ctx.config.limits.live_scan_budget_ms
        ));
    }
    Ok(GraphAnswer {
        assembled,
        truncated,
        live_scan: true,
    })
}

/// Keeps the first `max` changed files (path order); names the rest in a note.
fn cap_changed(mut files: Vec<String>, max: usize, notes: &mut Vec<String>) -> (Vec<String>, bool) {
    if files.len() <= max {
        return (files, false);
    }
    let rest = files.split_off(max);
    notes.push(format!(
        "{} changed file(s) beyond impact.max_changed_files = {max} not analysed: {}",
        rest.len(),
        name_some(&rest)
    ));
    (files, true)
}

fn note_unanalysed(unknown: &[String], absent: &[String], warnings: &mut Vec<String>) {
    if !unknown.is_empty() {
        warnings.push(format!(
            "{} path(s) not in the index or out of scope (or binary, or too large), not analysed: {}",
            unknown.len(),
            name_some(unknown)
        ));
    }
    if !absent.is_empty() {
        warnings.push(format!(
            "{} path(s) do not exist and are not in the index, not analysed: {}",
            absent.len(),
            name_some(absent)
        ));
    }
}

/// The raw paths an input names.
fn input_paths(ctx: &Ctx, input: &Input, warnings: &mut Vec<String>) -> Result<Vec<PathBuf>> {
    match input {
        Input::Files(p) | Input::Stdin(p) => Ok(p.clone()),
        Input::Session(id) => {
            let conn = ctx.store.conn()?;
            let mut stmt = conn.prepare_cached(
                "SELECT DISTINCT abs_path FROM events WHERE session_id = ?1 ORDER BY abs_path",
            )?;
            let paths = stmt
                .query_map([id], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<String>>>()
                .with_context(|| format!("reading the events of session {id}"))?;
            if paths.is_empty() {
                warnings.push(format!(
                    "session `{id}` has no recorded events: nothing to analyse"
                ));
            }
            Ok(paths.into_iter().map(PathBuf::from).collect())
        }
        Input::GitDiff(rev) => git_changed(&ctx.ws.root, rev),
    }
}

/// `git diff --name-only REV` (tracked changes since REV, staged or not) plus untracked files not
/// ignored: a new file is a change whose name may now resolve mentions. Paths come back relative
/// to the root (`--relative`), so files of the repository outside the root are left out.
fn git_changed(root: &Path, rev: &str) -> Result<Vec<PathBuf>> {
    if rev.starts_with('-') {
        return Err(usage(format!("--git-diff: `{rev}` is not a revision")));
    }
    let diff = git(
        root,
        &["diff", "--name-only", "-z", "--relative", rev, "--"],
        rev,
    )?;
    let untracked = git(
        root,
        &["ls-files", "--others", "--exclude-standard", "-z"],
        rev,
    )?;
    Ok(diff
        .split('\0')
        .chain(untracked.split('\0'))
        .filter(|s| !s.is_empty())
        .map(|s| root.join(s))
        .collect())
}

fn git(root: &Path, args: &[&str], rev: &str) -> Result<String> {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .map_err(|e| usage(format!("--git-diff {rev}: cannot run git ({e})")))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let first = err.lines().next().unwrap_or("").trim();
        return Err(usage(format!(
            "--git-diff {rev}: `git {}` failed in {}: {first}",
            args.first().copied().unwrap_or(""),
            root.display()
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
