//! Who depends on these files: the one lookup behind `dependents`, `impact`, the lead's alert
//! and the cascade's check, so that all four give the same answer for the same tree.
//!
//! Owns deciding whether the stored graph can answer (`IndexState`) and what to do when it
//! cannot: refresh the files involved, or answer by a live scan of the tree. Invariant: an
//! answer read from the index is only given when the index was built with the current config
//! and every file in it (targets and dependents) is fresh; otherwise the answer comes from a
//! refresh or a live scan and says so in `notes`. Edges into a deleted target are read before a
//! refresh drops it, and kept.

use std::collections::BTreeSet;
use std::time::Duration;

use anyhow::{Context, Result};
use rusqlite::Connection;
use serde::Serialize;

use super::Edge;
use crate::ctx::Ctx;
use crate::index::{self, Freshness};

/// Whether the stored graph can answer a question about some files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "state", content = "files")]
pub enum IndexState {
    /// Built with the current config, and every file involved is as indexed.
    Fresh,
    /// Built with the current config, but these files changed since they were read.
    Stale(Vec<String>),
    /// Built with another scope, other naming rules or limits: it answers another question.
    ConfigChanged,
    /// No complete index (never built, or a rebuild is half done).
    Absent,
}

impl IndexState {
    /// The state of the index as a whole (`Fresh` until files say otherwise).
    pub fn of(ctx: &Ctx, conn: &Connection) -> Result<IndexState> {
        if !index::is_built_on(conn)? {
            return Ok(IndexState::Absent);
        }
        let fp = crate::store::meta_get(conn, index::META_FINGERPRINT)?;
        if fp.as_deref() != Some(index::fingerprint(&ctx.config, &ctx.ws.root).as_str()) {
            return Ok(IndexState::ConfigChanged);
        }
        Ok(IndexState::Fresh)
    }

    /// The note an answer carries when it is not read from a fresh index.
    fn note(&self) -> Option<String> {
        match self {
            IndexState::Fresh => None,
            IndexState::Absent => Some(
                "the index is not built: answered by a live scan (grep-only mode); run `src index`"
                    .into(),
            ),
            IndexState::ConfigChanged => Some(
                "the configuration or naming rules changed since the index was built: answered by a live scan (grep-only mode); run `src index`"
                    .into(),
            ),
            IndexState::Stale(files) => Some(format!(
                "{} indexed file(s) changed since they were indexed: answered by a live scan (grep-only mode); run `src index`: {}",
                files.len(),
                super::name_some(files)
            )),
        }
    }
}

/// How the lookup may bring the answer up to date.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Re-read targets that changed, dropped or appeared (a write to the index, no walk).
    pub refresh_targets: bool,
    /// Re-read dependents that changed since indexed instead of answering by a live scan.
    pub refresh_dependents: bool,
    /// Without a usable index: build it (true) or answer by a live scan (false).
    pub build_when_unusable: bool,
    /// The live scan's time budget.
    pub budget: Duration,
    /// Count the mentions no one file could be credited with, per target (a query per target:
    /// callers that count ties their own way, or not at all, skip it).
    pub count_ties: bool,
}

impl Options {
    /// Read only: no refresh, no build, the configured live-scan budget, ties counted. Callers
    /// that may write say which of that they change (`Options { refresh_targets: true, ..}`).
    pub fn reading(config: &crate::config::Config) -> Options {
        Options {
            refresh_targets: false,
            refresh_dependents: false,
            build_when_unusable: false,
            budget: Duration::from_millis(config.limits.live_scan_budget_ms),
            count_ties: true,
        }
    }
}

/// Where the answer came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    Index,
    LiveScan,
}

/// The files that mention the targets, and how far the answer can be trusted.
#[derive(Debug, Clone)]
pub struct Dependents {
    /// The index as the lookup found it (before any refresh).
    pub state: IndexState,
    pub source: Source,
    /// Edges into the targets, sorted by (dst, src, line); never from a target into a target
    /// that mentions itself.
    pub edges: Vec<Edge>,
    /// Mentions of each target's names that no one file could be credited with (ties).
    pub unattributed: Vec<(String, u64)>,
    /// The live scan ran out of time before it read every file.
    pub truncated: bool,
    /// What a reader must know about this answer (why it is not from a fresh index).
    pub notes: Vec<String>,
}

/// Looks up the dependents of `targets` (root-relative paths).
/// `conn` is the caller's connection (one open per command: it costs as much as the reads).
pub fn lookup(
    ctx: &Ctx,
    conn: &Connection,
    targets: &[String],
    opts: Options,
) -> Result<Dependents> {
    let mut state = IndexState::of(ctx, conn)?;
    if state != IndexState::Fresh && opts.build_when_unusable {
        index::run(ctx, &index::IndexOptions::default()).context("building the index")?;
        state = IndexState::of(ctx, conn)?;
    }
    if targets.is_empty() {
        // Nothing to look up: no walk, no note (the state is still said).
        return Ok(Dependents {
            state,
            source: Source::Index,
            edges: Vec::new(),
            unattributed: Vec::new(),
            truncated: false,
            notes: Vec::new(),
        });
    }
    if state != IndexState::Fresh {
        return live(ctx, targets, Vec::new(), state, opts.budget);
    }
    // One connection for the whole lookup: opening one costs as much as the reads here.
    let before = index::freshness_with(conn, &ctx.ws.root, targets)?;
    let gone: Vec<String> = before
        .iter()
        .filter(|(_, f)| *f == Freshness::Missing)
        .map(|(p, _)| p.clone())
        .collect();
    // A refresh drops a deleted file and its edges: read who mentioned it first.
    let gone_edges = super::edges_into(conn, &gone)?;
    let changed: Vec<String> = before
        .iter()
        .filter(|(p, f)| match f {
            Freshness::Fresh => false,
            Freshness::Stale | Freshness::Missing => true,
            // A new file bears names now: mentions of them may resolve to it.
            Freshness::Unindexed => ctx.ws.abs(p).is_file(),
        })
        .map(|(p, _)| p.clone())
        .collect();
    // A target's own content does not decide who mentions it: without a refresh the stored
    // edges into it still answer (the caller says what changed about the target itself).
    if !changed.is_empty() && opts.refresh_targets {
        if let Some(why) = refresh(ctx, &changed)? {
            let mut ans = live(
                ctx,
                targets,
                gone_edges,
                IndexState::Stale(changed),
                opts.budget,
            )?;
            ans.notes.insert(0, why);
            return Ok(ans);
        }
    }
    let present: Vec<String> = targets
        .iter()
        .filter(|p| !gone.contains(p))
        .cloned()
        .collect();
    let mut edges = read(conn, &present, &gone_edges)?;
    // Dependents that changed since they were read may mention the targets differently now.
    let srcs: Vec<String> = edges
        .iter()
        .map(|e| e.src.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let stale: Vec<String> = index::freshness_with(conn, &ctx.ws.root, &srcs)?
        .into_iter()
        .filter(|(_, f)| *f != Freshness::Fresh)
        .map(|(p, _)| p)
        .collect();
    if !stale.is_empty() {
        let refreshed = opts.refresh_dependents && refresh(ctx, &stale)?.is_none();
        if !refreshed {
            return live(
                ctx,
                targets,
                gone_edges,
                IndexState::Stale(stale),
                opts.budget,
            );
        }
        edges = read(conn, &present, &gone_edges)?;
    }
    Ok(Dependents {
        state,
        source: Source::Index,
        unattributed: if opts.count_ties {
            super::unattributed(conn, &present)?
        } else {
            Vec::new()
        },
        edges,
        truncated: false,
        notes: Vec::new(),
    })
}

/// Edges into `present` now, plus those read before a refresh dropped deleted targets.
fn read(conn: &Connection, present: &[String], gone_edges: &[Edge]) -> Result<Vec<Edge>> {
    let mut edges = gone_edges.to_vec();
    edges.extend(super::edges_into(conn, present)?);
    edges.sort_by(|a, b| (&a.dst, &a.src, a.line, &a.name).cmp(&(&b.dst, &b.src, b.line, &b.name)));
    edges.dedup();
    Ok(edges)
}

/// Refreshes `paths`; `Some(why)` when the index could not be refreshed.
fn refresh(ctx: &Ctx, paths: &[String]) -> Result<Option<String>> {
    match index::refresh_paths(ctx, paths) {
        Ok(r) if r.notes.is_empty() => Ok(None),
        Ok(r) => Ok(Some(format!(
            "the index could not be refreshed ({})",
            r.notes.join("; ")
        ))),
        // A read-only database, a full disk: the live scan still answers.
        Err(e) => Ok(Some(format!("the index could not be refreshed ({e:#})"))),
    }
}

/// The answer by a live scan; `known` are edges read before (into deleted targets, which no
/// scan can resolve).
fn live(
    ctx: &Ctx,
    targets: &[String],
    known: Vec<Edge>,
    state: IndexState,
    budget: Duration,
) -> Result<Dependents> {
    let scan = super::live::live_dependents(&ctx.ws, &ctx.config, targets, budget)
        .context("scanning the tree for dependents")?;
    let mut edges = known;
    edges.extend(scan.edges);
    edges.sort_by(|a, b| (&a.dst, &a.src, a.line, &a.name).cmp(&(&b.dst, &b.src, b.line, &b.name)));
    edges.dedup();
    let mut notes: Vec<String> = state.note().into_iter().collect();
    if scan.truncated {
        notes.push(format!(
            "the live scan ran out of its budget ({} ms): some files were not read",
            budget.as_millis()
        ));
    }
    Ok(Dependents {
        state,
        source: Source::LiveScan,
        edges,
        unattributed: Vec::new(),
        truncated: scan.truncated,
        notes,
    })
}
