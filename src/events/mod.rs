//! Change events: the `events` rows that hooks, the spill journal, reconcile and imports write,
//! plus the audit of hook runs and retention.
//!
//! Owns what an event is and how it is stored; knows nothing of hook payloads (`cmd::hook`
//! reduces those to an [`Event`]) nor of alerts, and depends on `store` and `workspace` only
//! (the leaf the recorder needs). Invariant: storing an event is idempotent — the
//! same tool call (same session, `tool_use_id` and path), or for calls without a `tool_use_id`
//! the same (session, tool, path, timestamp), is stored once however often it is offered.

use anyhow::{Context, Result};
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use crate::store::sql::events as sql;
use crate::store::Store;
use crate::workspace::Workspace;

pub mod import;
pub mod record;
pub mod spill;
pub mod worktree;

/// One recorded edit of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub session_id: String,
    /// Edit, Write, MultiEdit, NotebookEdit, Bash, Reconcile, or the tool named by an imported log.
    pub tool_name: String,
    /// Absolute path as the client sent it (lexically normalised), or for an edit in a linked
    /// worktree the root's file it corresponds to.
    pub abs_path: String,
    /// Root-relative path when the file is inside the root.
    #[serde(default)]
    pub path: Option<String>,
    #[serde(default)]
    pub agent_id: Option<String>,
    #[serde(default)]
    pub agent_type: Option<String>,
    #[serde(default)]
    pub tool_use_id: Option<String>,
    #[serde(default)]
    pub cwd: Option<String>,
    /// The linked worktree (absolute) the edit was made in, when it was not the root's own
    /// checkout; `path` and `abs_path` then name the root's file it corresponds to.
    #[serde(default)]
    pub worktree: Option<String>,
    /// ISO-8601 with offset (microseconds from hooks, as given by imports).
    pub ts: String,
}

/// Where an event came from (the `events.source` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Hook,
    Spill,
    Reconcile,
    Import,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Hook => "hook",
            Source::Spill => "spill",
            Source::Reconcile => "reconcile",
            Source::Import => "import",
        }
    }
}

/// Stores `ev` unless it is already there; returns whether a row was added. A hook's own insert
/// is new by construction; other sources (spill, import, reconcile) may offer an event again.
pub fn insert(conn: &Connection, ev: &Event, source: Source) -> Result<bool> {
    // The unique index `events_once` makes the same tool call a no-op (it ignores NULL ids);
    // without an id (spill, import, reconcile), an identical row is the duplicate to skip.
    let statement = if ev.tool_use_id.is_some() || source == Source::Hook {
        sql::INSERT_ONCE
    } else {
        sql::INSERT_UNLESS_SAME
    };
    let n = conn.prepare_cached(statement)?.execute(params![
        ev.session_id,
        ev.tool_name,
        ev.abs_path,
        ev.path,
        ev.agent_id,
        ev.agent_type,
        ev.tool_use_id,
        ev.cwd,
        ev.ts,
        source.as_str(),
        ev.worktree
    ])?;
    Ok(n > 0)
}

/// One row of the hook-run audit.
#[derive(Debug, Clone)]
pub struct Run<'a> {
    pub event: &'a str,
    pub outcome: &'a str,
    pub duration_us: u64,
    pub session_id: Option<&'a str>,
    pub detail: Option<&'a str>,
}

/// Appends a hook-run audit row; returns its id.
pub fn audit(conn: &Connection, run: &Run, ts: &str) -> Result<i64> {
    conn.prepare_cached(sql::AUDIT)?
        .execute(params![
            run.event,
            run.outcome,
            i64::try_from(run.duration_us).unwrap_or(i64::MAX),
            run.session_id,
            run.detail,
            ts
        ])
        .context("writing the hook-run audit")?;
    Ok(conn.last_insert_rowid())
}

/// The client event fired once after each batch of tool calls (Claude Code 2.1.118).
pub const BATCH_EVENT: &str = "PostToolBatch";

/// Whether a `deliver` run of `session` saw a PostToolBatch (from the lead or a subagent): the
/// session's client fires it after every batch of tool calls.
pub fn fires_post_tool_batch(conn: &Connection, session: &str) -> Result<bool> {
    Ok(conn
        .prepare_cached(sql::SAW_DELIVER_DETAIL)?
        .query_row(params![session, BATCH_EVENT], |r| r.get(0))?)
}

/// Moves events that hooks spilled to the journal into the database; returns how many were new.
/// Commands call it right after opening their context (`cmd::open`), so each sees every event.
pub fn ingest_spill(ws: &Workspace, store: &Store) -> Result<usize> {
    if !spill::has_backlog(ws) {
        return Ok(0);
    }
    let mut conn = store.conn()?;
    Ok(spill::ingest(ws, &mut conn)?.inserted)
}

/// The session of the newest recorded event, if any (`--session latest`).
pub fn latest_session(conn: &Connection) -> Result<Option<String>> {
    Ok(conn
        .query_row(sql::LATEST_SESSION, [], |r| r.get(0))
        .optional()?)
}

/// What [`prune`] removed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Pruned {
    pub events: usize,
    pub alerts: usize,
    pub watermarks: usize,
    pub hook_runs: usize,
}

/// Deletes events, alerts and watermarks of sessions whose latest activity is older than `days`
/// days, and hook runs older than that. Never called on a hook's hot path.
pub fn prune(conn: &mut Connection, days: u32) -> Result<Pruned> {
    let cutoff = format!("-{days} days");
    crate::store::write(conn, |tx| {
        // A session is old when neither its events nor its alerts are recent.
        tx.execute(sql::CREATE_OLD_SESSIONS, [])?;
        tx.execute(sql::CLEAR_OLD_SESSIONS, [])?;
        tx.execute(sql::FIND_OLD_SESSIONS, [&cutoff])?;
        let events = tx.execute(sql::PRUNE_EVENTS, [])?;
        let alerts = tx.execute(sql::PRUNE_ALERTS, [])?;
        let watermarks = tx.execute(sql::PRUNE_WATERMARKS, [])?;
        let hook_runs = tx.execute(sql::PRUNE_HOOK_RUNS, [&cutoff])?;
        tx.execute(sql::CLEAR_OLD_SESSIONS, [])?;
        Ok(Pruned {
            events,
            alerts,
            watermarks,
            hook_runs,
        })
    })
}

/// A hook run as `src doctor` shows it: `(ts, outcome or detail)`.
pub type RunSummary = (String, String);

/// The last run of `event`, and its last failed or spilled run.
pub fn last_runs(
    conn: &Connection,
    event: &str,
) -> Result<(Option<RunSummary>, Option<RunSummary>)> {
    let last = conn
        .query_row(sql::LAST_RUN, [event], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let failed = conn
        .query_row(sql::LAST_FAILED_RUN, [event], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?;
    Ok((last, failed))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::path::Path;

    pub(crate) fn mem_db() -> Result<Connection> {
        let mut conn = Connection::open_in_memory()?;
        crate::store::migrate(&mut conn, Path::new(":memory:"))?;
        Ok(conn)
    }

    pub(crate) fn ev(session: &str, path: &str, tuid: Option<&str>) -> Event {
        Event {
            session_id: session.into(),
            tool_name: "Edit".into(),
            abs_path: format!("/r/{path}"),
            path: Some(path.into()),
            agent_id: None,
            agent_type: None,
            tool_use_id: tuid.map(String::from),
            cwd: None,
            worktree: None,
            ts: "2026-02-14T15:30:42.000+09:00".into(),
        }
    }

    fn count(conn: &Connection, table: &str) -> Result<i64> {
        Ok(conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))?)
    }

    #[test]
    fn insert_is_idempotent_with_and_without_tool_use_id() -> Result<()> {
        let conn = mem_db()?;
        assert!(insert(&conn, &ev("s", "a.md", Some("t1")), Source::Hook)?);
        assert!(!insert(&conn, &ev("s", "a.md", Some("t1")), Source::Spill)?);
        assert!(insert(&conn, &ev("s", "a.md", None), Source::Spill)?);
        assert!(!insert(&conn, &ev("s", "a.md", None), Source::Spill)?);
        let mut later = ev("s", "a.md", None);
        later.ts = "2026-02-14T15:30:43.000+09:00".into();
        assert!(insert(&conn, &later, Source::Spill)?);
        assert_eq!(count(&conn, "events")?, 3);
        // Two hook runs are two edits, even when nothing tells them apart.
        assert!(insert(&conn, &ev("h", "a.md", None), Source::Hook)?);
        assert!(insert(&conn, &ev("h", "a.md", None), Source::Hook)?);
        Ok(())
    }

    #[test]
    fn prune_drops_only_old_sessions() -> Result<()> {
        let mut conn = mem_db()?;
        let mut old = ev("old", "a.md", None);
        old.ts = "2020-01-01T00:00:00.000+00:00".into();
        insert(&conn, &old, Source::Hook)?;
        let mut recent = ev("new", "a.md", None);
        recent.ts = crate::clock::now();
        insert(&conn, &recent, Source::Hook)?;
        audit(
            &conn,
            &Run {
                event: "post-tool-use",
                outcome: "recorded",
                duration_us: 1,
                session_id: Some("old"),
                detail: None,
            },
            "2020-01-01T00:00:00.000+00:00",
        )?;
        let p = prune(&mut conn, 30)?;
        assert_eq!((p.events, p.hook_runs), (1, 1));
        let left: String = conn.query_row("SELECT session_id FROM events", [], |r| r.get(0))?;
        assert_eq!(left, "new");
        Ok(())
    }
}
