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
use std::time::Instant;

use anyhow::{Context, Result};

use crate::ctx::Ctx;
use crate::error::usage;
use crate::graph::dependents::{self, IndexState, Options, Source};
use crate::index::{self, Freshness};
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
pub struct Analyzed {
    pub run: StoredRun,
    pub warnings: Vec<String>,
}

/// Runs the analysis for `input` and stores it.
pub fn analyze(ctx: &Ctx, input: &Input) -> Result<Analyzed> {
    let mut notes = Vec::new();
    let mut warnings = Vec::new();
    let raw = input_paths(ctx, input, &mut warnings)?;
    let mut manifest = BTreeSet::new();
    let mut outside = Vec::new();
    {
        let conn = ctx.store.conn()?;
        for p in raw {
            match ctx.ws.locate(&p) {
                Located::Inside(rel) => {
                    // An edit through a linked folder is an edit of the file the index holds.
                    let own = crate::graph::own_path(&conn, &ctx.ws.root, &rel);
                    manifest.insert(own.unwrap_or(rel));
                }
                Located::Outside(abs) => outside.push(abs.display().to_string()),
            }
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
    let graph = from_index(ctx, &manifest, &mut warnings, &mut notes)?;
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
    Ok(Analyzed { run, warnings })
}

/// The graph part of a run, however it was read.
struct GraphAnswer {
    assembled: assemble::Assembled,
    truncated: bool,
    live_scan: bool,
}

/// Hop 1 and hop 2 through the one dependents lookup (`graph::dependents`): from the index
/// when it can answer, else by a live scan that says why.
fn from_index(
    ctx: &Ctx,
    manifest: &[String],
    warnings: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Result<GraphAnswer> {
    let mut t = Instant::now();
    let conn = ctx.store.conn()?;
    if IndexState::of(ctx, &conn)? != IndexState::Fresh {
        return from_live_scan(ctx, manifest, notes);
    }
    let before = index::freshness_with(&conn, &ctx.ws.root, manifest)?;
    lap("freshness before", &mut t);
    let filter = crate::scan::walk::PathFilter::new(&ctx.ws, &ctx.config)?;
    let (mut analyzable, mut deleted, mut unknown, mut absent) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (p, f) in before {
        match f {
            Freshness::Fresh | Freshness::Stale => analyzable.push(p),
            Freshness::Missing => {
                deleted.push(p.clone());
                analyzable.push(p);
            }
            Freshness::Unindexed if !ctx.ws.abs(&p).exists() => absent.push(p),
            Freshness::Unindexed if ctx.ws.abs(&p).is_file() && filter.in_scope(&p) => {
                analyzable.push(p)
            }
            Freshness::Unindexed => unknown.push(p),
        }
    }
    if !deleted.is_empty() {
        notes.push(format!(
            "{} changed file(s) were deleted; their dependents still mention them: {}",
            deleted.len(),
            name_some(&deleted)
        ));
    }
    analyzable.sort();
    let (analyzable, cut) = cap_changed(analyzable, ctx.config.impact.max_changed_files, notes);
    let opts = Options {
        refresh_targets: true,
        ..Options::reading(&ctx.config)
    };
    let hop1 = dependents::lookup(ctx, &conn, &analyzable, opts)?;
    lap("hop 1", &mut t);
    // A new file in scope that the refresh still left out (binary, too large) bears no names.
    let (analyzable, left_out): (Vec<String>, Vec<String>) = if hop1.source == Source::Index {
        let after = index::freshness_with(&conn, &ctx.ws.root, &analyzable)?;
        let out: Vec<String> = after
            .into_iter()
            .filter(|(p, f)| *f == Freshness::Unindexed && !deleted.contains(p))
            .map(|(p, _)| p)
            .collect();
        (
            analyzable
                .into_iter()
                .filter(|p| !out.contains(p))
                .collect(),
            out,
        )
    } else {
        (analyzable, Vec::new())
    };
    unknown.extend(left_out);
    note_unanalysed(&unknown, &absent, warnings);
    if !hop1.unattributed.is_empty() {
        let total: u64 = hop1.unattributed.iter().map(|(_, n)| n).sum();
        let files: Vec<String> = hop1
            .unattributed
            .iter()
            .map(|(f, n)| format!("{f} ({n})"))
            .collect();
        notes.push(format!(
            "{total} mention(s) of changed files' names could not be attributed (ties between \
             same-named files; `src query unresolved`): {}",
            name_some(&files)
        ));
    }
    let mut ans = both_hops(ctx, &conn, &analyzable, hop1, opts, notes)?;
    ans.truncated |= cut;
    lap("hop 2", &mut t);
    Ok(ans)
}

/// Hop 2 from hop 1 through the same lookup, and the assembled answer.
fn both_hops(
    ctx: &Ctx,
    conn: &rusqlite::Connection,
    changed: &[String],
    hop1: dependents::Dependents,
    opts: Options,
    notes: &mut Vec<String>,
) -> Result<GraphAnswer> {
    let cfg = &ctx.config.impact;
    let start = Instant::now();
    let h1 = assemble::hop1(changed, &hop1.edges, cfg.max_direct_per_file);
    let hop2 = dependents::lookup(
        ctx,
        conn,
        &h1.intermediates(),
        Options {
            refresh_targets: false,
            budget: opts.budget.saturating_sub(start.elapsed()),
            ..opts
        },
    )?;
    for n in hop1.notes.iter().chain(hop2.notes.iter()) {
        if !notes.contains(n) {
            notes.push(n.clone());
        }
    }
    let assembled = h1.finish(&hop2.edges, &ctx.ws.root, cfg.hub_threshold);
    Ok(GraphAnswer {
        assembled,
        truncated: hop1.truncated || hop2.truncated,
        live_scan: hop1.source == Source::LiveScan || hop2.source == Source::LiveScan,
    })
}

/// Degraded mode: no usable index, so the changed files that exist in scope are analysed by a
/// live scan of the tree (the lookup says why in its notes).
fn from_live_scan(ctx: &Ctx, manifest: &[String], notes: &mut Vec<String>) -> Result<GraphAnswer> {
    // The live scan resolves names against the files in scope, as the index does: a missing or
    // out-of-scope file bears no name there, so it cannot be analysed.
    let filter = crate::scan::walk::PathFilter::new(&ctx.ws, &ctx.config)?;
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
    let opts = Options::reading(&ctx.config);
    let conn = ctx.store.conn()?;
    let hop1 = dependents::lookup(ctx, &conn, &analyzable, opts)?;
    let mut ans = both_hops(ctx, &conn, &analyzable, hop1, opts, notes)?;
    ans.truncated |= cut;
    Ok(ans)
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
            let mut stmt = conn.prepare_cached(crate::store::sql::impact::SESSION_PATHS)?;
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
