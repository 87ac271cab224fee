//! What happens when an implementer stops: collect the session's new edits, reconcile edits
//! made without a hook, refresh the index for exactly those files, find their dependents, and
//! store one alert (seed component 2, adapted: see ARCHITECTURE.md, "Hooks").
//!
//! Owns the order of those steps. Invariant: changed files are never their own or each other's
//! dependents; events at or below the watermark are never reported again, and the watermark
//! moves in the transaction that stores the alert; while a cascade is active no impact alert is
//! raised, only a suppression note.

use crate::store::sql::alert as sql;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use anyhow::Result;
use rusqlite::Connection;

use super::format::{self, Analysis, Dependent, Kind, Named};
use super::{advance, head, save, watermark, Watermark};
use crate::ctx::Ctx;
use crate::events::{self, Event, Source};
use crate::graph::dependents::{self, Options};
use crate::graph::DisplayNames;
use crate::store;

/// Who stopped.
#[derive(Debug, Clone)]
pub struct StopRequest {
    pub session_id: String,
    pub agent_id: Option<String>,
    /// Store a "no file changes" note too (false for stops of unknown agent type).
    pub store_empty: bool,
    /// The iteration of the cascade active for this session, if one is: no impact alert is
    /// raised then, only a suppression note. The caller asks the cascade (`alert` sits below
    /// `cascade` and does not reach up to it).
    pub cascade_iteration: Option<u32>,
}

/// The stored alert's pattern and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stopped {
    pub kind: Kind,
    pub text: String,
}

/// Runs the whole flow; `deadline` bounds the live scan (the seed gives the hook 15 s).
pub fn on_stop(ctx: &Ctx, req: &StopRequest, deadline: Instant) -> Result<Stopped> {
    let session = req.session_id.as_str();
    let agent = req.agent_id.as_deref();
    let mut t = Instant::now();
    let mut conn = ctx.store.conn()?;
    let start = watermark(&conn, session)?;

    if let Some(iteration) = req.cascade_iteration {
        let text = format::suppressed(iteration);
        store::write(&mut conn, |tx| {
            let h = head(tx, session)?;
            advance(tx, session, h)?;
            save(
                tx,
                session,
                agent,
                Kind::Suppressed,
                &text,
                &Analysis::default(),
            )?;
            Ok(())
        })?;
        return Ok(Stopped {
            kind: Kind::Suppressed,
            text,
        });
    }

    // The index answers only when built with the current config (`graph::dependents`); a
    // changed scope or naming rules means a live scan, as for every other answer.
    let built = {
        let conn = ctx.store.conn()?;
        dependents::IndexState::of(ctx, &conn).unwrap_or(dependents::IndexState::Absent)
            == dependents::IndexState::Fresh
    };
    // With an index: the files the session's events name are refreshed and looked up while
    // reconcile stats the rest of the index on another thread (both are most of a stop).
    let mut looked_up = Lookup::default();
    if built {
        let known = changed_paths(&conn, session, start.event_id, i64::MAX)?;
        let known_vec: Vec<String> = known.iter().cloned().collect();
        let snapshot = super::reconcile::Snapshot::take(ctx)?;
        let (first, drift) = std::thread::scope(|s| {
            let reconcile = s.spawn(|| snapshot.scan(ctx, &known));
            let first = look_up(ctx, &known_vec, deadline);
            let drift = reconcile
                .join()
                .unwrap_or_else(|_| Err(anyhow::anyhow!("reconcile panicked")));
            (first, drift)
        });
        looked_up = first?;
        let drift = drift?;
        let ts = crate::clock::now();
        store::write(&mut conn, |tx| {
            for rel in &drift.paths {
                let ev = Event {
                    session_id: session.to_string(),
                    tool_name: "Reconcile".into(),
                    abs_path: ctx.ws.abs(rel).to_string_lossy().into_owned(),
                    path: Some(rel.clone()),
                    agent_id: req.agent_id.clone(),
                    agent_type: None,
                    tool_use_id: None,
                    cwd: None,
                    worktree: None,
                    ts: ts.clone(),
                };
                events::insert(tx, &ev, Source::Reconcile)?;
            }
            drift.save_cursor(tx)
        })?;
        lap("known files and reconcile", &mut t);
    }

    let reached = head(&conn, session)?;
    let paths: Vec<String> = changed_paths(&conn, session, start.event_id, reached.event_id)?
        .into_iter()
        .collect();
    let analysis = if paths.is_empty() {
        None
    } else if built {
        // Reconciled files and events recorded meanwhile are looked up now.
        let rest: Vec<String> = paths
            .iter()
            .filter(|p| !looked_up.paths.contains(*p))
            .cloned()
            .collect();
        let mut pairs = looked_up.pairs;
        let mut timed_out = looked_up.timed_out;
        if !rest.is_empty() {
            let more = look_up(ctx, &rest, deadline)?;
            pairs.extend(more.pairs);
            timed_out |= more.timed_out;
        }
        let involved = paths
            .iter()
            .map(String::as_str)
            .chain(pairs.iter().map(|(src, _)| src.as_str()));
        let names = DisplayNames::load_for(&conn, involved)?;
        let pairs = pairs.iter().map(|(s, d)| (s.as_str(), d.as_str()));
        let mut a = build(&paths, pairs, timed_out, &names);
        a.unattributed = crate::graph::unattributed_distinct(&conn, &paths)?;
        Some(a)
    } else {
        Some(live(ctx, &paths, deadline)?)
    };
    lap("analyse", &mut t);

    store::write(&mut conn, |tx| {
        let now = watermark(tx, session)?;
        let mut analysis = analysis;
        if now.event_id > start.event_id {
            // A concurrent stop already reported some of these events: keep only the rest.
            let still = changed_paths(tx, session, now.event_id, reached.event_id)?;
            analysis = analysis.map(|a| restrict(a, &still));
        }
        let failed_since = failed_runs(tx, session, now.run_id.max(start.run_id))?;
        let (kind, text) = match &analysis {
            Some(a) if !a.changed.is_empty() => format::render(a),
            _ if failed_since > 0 => format::render(&Analysis::default()),
            _ => (Kind::Empty, format::NO_CHANGES.to_string()),
        };
        if kind == Kind::Empty && !req.store_empty {
            return Ok(Stopped { kind, text });
        }
        advance(
            tx,
            session,
            Watermark {
                event_id: reached.event_id,
                run_id: reached.run_id,
            },
        )?;
        save(
            tx,
            session,
            agent,
            kind,
            &text,
            &analysis.unwrap_or_default(),
        )?;
        Ok(Stopped { kind, text })
    })
}

fn lap(what: &str, t: &mut Instant) {
    crate::trace::lap("src hook subagent-stop", what, t);
}

/// Distinct root-relative paths of the session's events with `after < id <= upto`.
fn changed_paths(
    conn: &Connection,
    session: &str,
    after: i64,
    upto: i64,
) -> Result<BTreeSet<String>> {
    let mut stmt = conn.prepare_cached(sql::CHANGED_PATHS)?;
    let rows = stmt.query_map(rusqlite::params![session, after, upto], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Recorder runs of the session skipped for `success: false` after run id `after`.
fn failed_runs(conn: &Connection, session: &str, after: i64) -> Result<i64> {
    Ok(conn.query_row(
        sql::FAILED_RUNS_AFTER,
        rusqlite::params![session, after],
        |r| r.get(0),
    )?)
}

/// Files refreshed in the index, and the `(src, dst)` pairs into them before and after the
/// refresh (the alert names files, not lines: no evidence is read).
#[derive(Default)]
struct Lookup {
    paths: BTreeSet<String>,
    pairs: Vec<(String, String)>,
    timed_out: bool,
}

/// Refreshes the index for exactly `paths` and collects the files mentioning them, through
/// the one dependents lookup (`graph::dependents`). Mentions of a deleted file vanish with the
/// refresh, those of a new file appear: both are kept.
fn look_up(ctx: &Ctx, paths: &[String], deadline: Instant) -> Result<Lookup> {
    if paths.is_empty() {
        return Ok(Lookup::default());
    }
    let conn = ctx.store.conn()?;
    let found = dependents::lookup(ctx, &conn, paths, options(ctx, deadline))?;
    Ok(Lookup {
        paths: paths.iter().cloned().collect(),
        pairs: found.edges.into_iter().map(|e| (e.src, e.dst)).collect(),
        timed_out: found.truncated,
    })
}

/// The stop refreshes what it looks up (its changes are new by definition); without a usable
/// index the lookup answers by a live scan bounded by the hook's deadline.
fn options(ctx: &Ctx, deadline: Instant) -> Options {
    let read = Options::reading(&ctx.config);
    Options {
        refresh_targets: true,
        refresh_dependents: true,
        budget: read
            .budget
            .min(deadline.saturating_duration_since(Instant::now())),
        count_ties: false,
        ..read
    }
}

/// Without a usable index: the dependents of `paths` from a live scan bounded by the deadline.
fn live(ctx: &Ctx, paths: &[String], deadline: Instant) -> Result<Analysis> {
    let conn = ctx.store.conn()?;
    let live = dependents::lookup(ctx, &conn, paths, options(ctx, deadline))?;
    let involved: BTreeSet<&str> = paths
        .iter()
        .map(String::as_str)
        .chain(live.edges.iter().map(|e| e.src.as_str()))
        .collect();
    let names = DisplayNames::new(involved.iter().copied());
    let pairs = live.edges.iter().map(|e| (e.src.as_str(), e.dst.as_str()));
    Ok(build(paths, pairs, live.truncated, &names))
}

/// Groups `(src, dst)` pairs by the mentioning file, leaving out changed files.
fn build<'a>(
    paths: &[String],
    pairs: impl Iterator<Item = (&'a str, &'a str)>,
    timed_out: bool,
    names: &DisplayNames,
) -> Analysis {
    // Position of each changed file; a changed file is never a dependent.
    let position: BTreeMap<&str, usize> = paths
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i))
        .collect();
    let mut by_src: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
    for (src, dst) in pairs {
        if position.contains_key(src) {
            continue;
        }
        if let Some(&i) = position.get(dst) {
            by_src.entry(src).or_default().insert(i);
        }
    }
    Analysis {
        changed: paths
            .iter()
            .map(|p| Named {
                path: p.clone(),
                name: names.get(p),
            })
            .collect(),
        dependents: by_src
            .into_iter()
            .map(|(src, refs)| Dependent {
                path: src.to_string(),
                name: names.get(src),
                refs: refs.into_iter().map(|i| paths[i].clone()).collect(),
            })
            .collect(),
        timed_out,
        unattributed: 0,
    }
}

/// Keeps only the changed files in `still` and the dependents that still refer to one.
fn restrict(mut a: Analysis, still: &BTreeSet<String>) -> Analysis {
    a.changed.retain(|c| still.contains(&c.path));
    for d in &mut a.dependents {
        d.refs.retain(|r| still.contains(r));
    }
    a.dependents.retain(|d| !d.refs.is_empty());
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_files_are_never_dependents_and_refs_follow_changed_order() {
        let paths = vec!["a.md".to_string(), "b.md".to_string()];
        let pairs = [
            ("b.md", "a.md"),
            ("z.md", "b.md"),
            ("z.md", "a.md"),
            ("z.md", "a.md"),
            ("y.md", "other.md"),
        ];
        let a = build(
            &paths,
            pairs.into_iter(),
            false,
            &DisplayNames::new(["a.md"]),
        );
        assert_eq!(a.dependents.len(), 1);
        assert_eq!(a.dependents[0].path, "z.md");
        assert_eq!(
            a.dependents[0].refs,
            vec!["a.md".to_string(), "b.md".to_string()]
        );
        let r = restrict(a, &BTreeSet::from(["b.md".to_string()]));
        assert_eq!(r.changed.len(), 1);
        assert_eq!(r.dependents[0].refs, vec!["b.md".to_string()]);
    }
}
