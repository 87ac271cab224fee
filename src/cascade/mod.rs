//! The cascade (seed component 4, boundary 5): follow-up updates after an impact, iterated until
//! no new impacts appear, at most 3 iterations, with every bit of state in SQLite so that any
//! process can resume it.
//!
//! This module is the I/O shell: it reads the impact report, the recorded edit events and the
//! reference graph, feeds them to the pure state machine (`machine`) and persists the result
//! (`store`) in one `BEGIN IMMEDIATE` transaction per transition. It does not print (`cmd`
//! does) and does not edit files (implementers do). Invariant: a cascade's state only changes
//! through `machine::Cascade::transition`, and the stored state is always a whole, consistent one.

pub mod converge;
pub mod group;
pub mod machine;
pub mod plan;
pub mod report;
pub mod store;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rusqlite::{params, Connection};

use crate::clock::now;
use crate::ctx::Ctx;
use crate::error::usage;
use crate::store::sql::cascade as sql;
use crate::workspace::Located;
use machine::{Cascade, CheckResult, Dependent, Edit, Observation, Outcome, Reason, Status};
pub use store::{Meta, Selector};

/// Version of the cascade L1 layout; bumped on any breaking change.
pub const SCHEMA_VERSION: u32 = 1;

/// The active cascade of a session, if any: `(cascade_id, current_iteration)`. The
/// subagent-stop hook uses it to suppress new impact alerts while a cascade runs. An unbound
/// cascade (started without `--session`) applies to every session.
pub fn active_for_session(conn: &Connection, session_id: &str) -> Result<Option<(i64, u32)>> {
    store::active_for_session(conn, session_id)
}

/// Where `start` reads the impact from.
#[derive(Debug, Clone)]
pub enum Source {
    Impact(i64),
    From(PathBuf),
}

/// A cascade as loaded, plus the current iteration's edits so far and what the command did.
#[derive(Debug, Clone)]
pub struct Shown {
    pub meta: Meta,
    pub cascade: Cascade,
    pub edits: Vec<Edit>,
    pub message: Option<String>,
}

impl Shown {
    pub fn l1(&self) -> report::CascadeL1 {
        report::l1(&self.meta, &self.cascade, &self.edits, self.message.clone())
    }

    pub fn markdown(&self) -> String {
        report::markdown(&self.meta, &self.cascade, &self.edits)
    }
}

fn max_event_id(conn: &Connection) -> Result<i64> {
    Ok(conn
        .prepare_cached(sql::MAX_EVENT_ID)?
        .query_row([], |r| r.get(0))?)
}

/// Edits recorded in `session` (every session when `None`) with `after < id <= upto`.
fn edits_between(
    conn: &Connection,
    session: Option<&str>,
    after: i64,
    upto: i64,
) -> Result<Vec<Edit>> {
    let mut stmt = conn.prepare_cached(sql::EDITS_BETWEEN)?;
    let rows = stmt.query_map(params![after, upto, session], |r| {
        let kind: Option<String> = r.get(1)?;
        let id: Option<String> = r.get(2)?;
        Ok(Edit {
            file: r.get(0)?,
            implementer: match (kind, id) {
                (Some(k), Some(i)) => Some(format!("{k} ({i})")),
                (k, i) => k.or(i),
            },
        })
    })?;
    rows.collect::<rusqlite::Result<Vec<_>>>()
        .context("reading recorded edits")
}

fn not_found(sel: &Selector, active_only: bool) -> anyhow::Error {
    match sel {
        Selector::Cascade(id) => usage(format!("no cascade {id}")),
        Selector::Session(s) if active_only => {
            anyhow::anyhow!("no active cascade in session {s}")
        }
        Selector::Session(s) => anyhow::anyhow!("no cascade in session {s}"),
        Selector::Latest if active_only => {
            anyhow::anyhow!("no active cascade; start one with `src cascade start`")
        }
        Selector::Latest => anyhow::anyhow!("no cascade has been started"),
    }
}

fn load_selected(conn: &Connection, sel: &Selector, active_only: bool) -> Result<(Meta, Cascade)> {
    let id = store::select(conn, sel, active_only)?.ok_or_else(|| not_found(sel, active_only))?;
    store::load(conn, id)?.ok_or_else(|| not_found(sel, active_only))
}

fn in_cascade(id: i64) -> impl Fn(machine::TransitionError) -> anyhow::Error {
    move |e| anyhow::anyhow!("cascade {id}: {e}")
}

/// Starts a cascade from an impact run or an L1 document. A malformed document, or one without
/// DIRECT dependents, gives a `skipped` cascade (recorded like any other).
pub fn start(ctx: &Ctx, source: &Source, session: Option<&str>) -> Result<Shown> {
    let mut conn = ctx.store.conn()?;
    let (doc, source_name, impact_id) = match source {
        Source::Impact(id) => {
            let l1 = crate::impact::load_run(&conn, *id)
                .with_context(|| format!("loading impact run {id}"))?
                .ok_or_else(|| usage(format!("no impact run {id}")))?;
            (
                Ok(plan::LooseL1::from(&l1)),
                format!("impact {id}"),
                Some(*id),
            )
        }
        Source::From(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            let doc = plan::parse_l1(&text).map_err(|e| {
                format!(
                    "{} is not a valid impact L1 ({e}): cascade skipped",
                    path.display()
                )
            });
            (doc, path.display().to_string(), None)
        }
    };
    let start_plan = match &doc {
        Ok(doc) => plan::start_plan(doc, |p| match ctx.ws.locate(Path::new(p)) {
            Located::Inside(rel) => Some(rel),
            Located::Outside(_) => None,
        }),
        Err(w) => plan::StartPlan {
            warnings: vec![w.clone()],
            ..plan::StartPlan::default()
        },
    };
    let shown = crate::store::write(&mut conn, |tx| {
        if let Some(active) = store::active_with_binding(tx, session)? {
            let whose = session.map_or("unbound".to_string(), |s| format!("session {s}"));
            anyhow::bail!(
                "cascade {active} is already active ({whose}); finish it with `src cascade check --cascade {active}` or `src cascade abort --cascade {active}`"
            );
        }
        let mut c = Cascade::new();
        c.start(
            start_plan.original.clone(),
            start_plan.direct.clone(),
            start_plan.warnings.clone(),
            max_event_id(tx)?,
        )?;
        let mut meta = Meta {
            id: 0,
            session_id: session.map(str::to_string),
            impact_id,
            source: source_name.clone(),
            started_at: now(),
            ended_at: None,
        };
        meta.id = store::insert(tx, &meta, &c)?;
        let message = match c.current() {
            Some(it) => format!(
                "iteration 1 started: spawn {} implementer(s), one per group below; then run `src cascade check`",
                it.implementers
            ),
            None => "cascade skipped: nothing to update".to_string(),
        };
        Ok(Shown {
            meta,
            cascade: c,
            edits: Vec::new(),
            message: Some(message),
        })
    })?;
    Ok(shown)
}

/// Records an explicit outcome for root-relative `file` in the current iteration; returns the
/// cascade and whether the file is a target.
pub fn record(
    ctx: &Ctx,
    sel: &Selector,
    file: &str,
    status: Status,
    implementer: Option<&str>,
) -> Result<(Shown, bool)> {
    let mut conn = ctx.store.conn()?;
    crate::store::write(&mut conn, |tx| {
        let (meta, mut c) = load_selected(tx, sel, true)?;
        let is_target = c
            .record(Outcome {
                file: file.to_string(),
                status,
                implementer: implementer.map(str::to_string),
            })
            .map_err(in_cascade(meta.id))?;
        store::save(tx, meta.id, &c)?;
        let n = c.current().map_or(0, |i| i.number);
        let message = format!(
            "recorded {file} {} in iteration {n}{}",
            status.name(),
            if is_target { "" } else { " (not a target)" }
        );
        Ok((
            Shown {
                meta,
                cascade: c,
                edits: Vec::new(),
                message: Some(message),
            },
            is_target,
        ))
    })
}

/// Dependents of `changed`, through the one dependents lookup (`graph::dependents`): the
/// changed files are refreshed first (a deleted one is looked up before the refresh drops it);
/// without a usable index (never built, or built with another config) the index is built, since
/// a cascade checks again and again.
fn dependents_of(ctx: &Ctx, changed: &[String]) -> Result<Vec<Dependent>> {
    let conn = ctx.store.conn()?;
    let found = crate::graph::dependents::lookup(
        ctx,
        &conn,
        changed,
        crate::graph::dependents::Options {
            refresh_targets: true,
            refresh_dependents: true,
            build_when_unusable: true,
            count_ties: false,
            ..crate::graph::dependents::Options::reading(&ctx.config)
        },
    )?;
    Ok(found
        .edges
        .into_iter()
        .map(|e| Dependent {
            reason: Reason {
                changed_file: e.dst,
                reference_pattern: e.name,
                evidence: format!("{}:{}:{}", e.src, e.line, e.text),
            },
            file: e.src,
        })
        .collect())
}

/// The convergence check of the current iteration, then the next state.
pub fn check(ctx: &Ctx, sel: &Selector) -> Result<Shown> {
    let mut conn = ctx.store.conn()?;
    let (meta, c) = load_selected(&conn, sel, true)?;
    let Some(it) = c.current() else {
        anyhow::bail!("cascade {}: is {}, not active", meta.id, c.state);
    };
    let (n, outcomes) = (it.number, it.outcomes.len());
    // Edits up to `upto` belong to this iteration; later ones to the next (its watermark).
    let upto = max_event_id(&conn)?;
    let edits = edits_between(&conn, meta.session_id.as_deref(), it.watermark, upto)?;
    if edits.is_empty() && it.outcomes.is_empty() {
        return Ok(Shown {
            message: Some(format!(
                "iteration {n} has no recorded edits or outcomes yet: nothing changed (let its implementers finish, or `src cascade record`, then check again)"
            )),
            meta,
            cascade: c,
            edits,
        });
    }
    let changed: Vec<String> = it.changed_files(&edits).into_iter().collect();
    let dependents = dependents_of(ctx, &changed).map_err(|e| format!("{e:#}"));
    crate::store::write(&mut conn, |tx| {
        let (meta, mut c) = store::load(tx, meta.id)?.ok_or_else(|| not_found(sel, true))?;
        let same = c
            .current()
            .is_some_and(|i| i.number == n && i.outcomes.len() == outcomes);
        if !same {
            anyhow::bail!(
                "cascade {} changed while it was being checked; run `src cascade check` again",
                meta.id
            );
        }
        let result = c
            .check(Observation {
                edits: edits.clone(),
                dependents,
                next_watermark: upto,
            })
            .map_err(in_cascade(meta.id))?;
        store::save(tx, meta.id, &c)?;
        let message = match result {
            CheckResult::NoProgress => format!("iteration {n}: nothing recorded"),
            CheckResult::Next { iteration } => format!(
                "not converged after iteration {n}: iteration {iteration} started with {} target(s) (new impacts and retries); spawn one implementer per group below, then check again",
                c.current().map_or(0, |i| i.targets.len())
            ),
            CheckResult::Converged => format!("converged after iteration {n}: no new impacts"),
            CheckResult::Partial => format!("ended partial after iteration {n}"),
        };
        Ok(Shown {
            meta,
            cascade: c,
            edits: Vec::new(),
            message: Some(message),
        })
    })
}

/// Ends the active cascade as `partial`.
pub fn abort(ctx: &Ctx, sel: &Selector) -> Result<Shown> {
    let mut conn = ctx.store.conn()?;
    crate::store::write(&mut conn, |tx| {
        let (meta, mut c) = load_selected(tx, sel, true)?;
        c.abort().map_err(in_cascade(meta.id))?;
        store::save(tx, meta.id, &c)?;
        Ok(Shown {
            message: Some(format!("cascade {} aborted", meta.id)),
            meta,
            cascade: c,
            edits: Vec::new(),
        })
    })
}

/// The selected cascade as stored, with the current iteration's edits so far.
pub fn status(ctx: &Ctx, sel: &Selector) -> Result<Shown> {
    let conn = ctx.store.conn()?;
    let (meta, c) = load_selected(&conn, sel, false)?;
    let edits = match c.current() {
        Some(it) => {
            let upto = max_event_id(&conn)?;
            edits_between(&conn, meta.session_id.as_deref(), it.watermark, upto)?
        }
        None => Vec::new(),
    };
    Ok(Shown {
        meta,
        cascade: c,
        edits,
        message: None,
    })
}
