//! The recorder's hot path: a call's events into the database within a time budget, else the
//! journal.
//!
//! Owns only the decision "database or spill". Invariant: `record` either commits the events of
//! one tool call (one, or one per file a Bash command changed) and their audit row in one short
//! `BEGIN IMMEDIATE` transaction, or appends each to the spill journal (one line each);
//! it never scans, never parses more configuration than the budget, and migrates only when the
//! database is behind (which for an existing database means never).

use std::time::{Duration, Instant};

use anyhow::Result;

use super::spill::{self, Line};
use super::{audit, insert, Event, Run, Source};
use crate::store;
use crate::workspace::Workspace;

/// What became of an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    /// In the database.
    Stored,
    /// Written to the journal; the reason the database could not take it.
    Spilled(String),
}

fn micros(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// Stores the events of one tool call within `budget`, or spills them; `detail` goes to the
/// audit row. Errors only when both the database and the journal failed (the events are then
/// lost, and the caller can only log it).
pub fn record(
    ws: &Workspace,
    budget: Duration,
    evs: &[Event],
    detail: Option<&str>,
    started: Instant,
) -> Result<Recorded> {
    let Some(first) = evs.first() else {
        return Ok(Recorded::Stored);
    };
    match write_db(ws, budget, evs, first, detail, started) {
        Ok(()) => Ok(Recorded::Stored),
        Err(e) => {
            let reason = format!("{e:#}");
            for ev in evs {
                spill::append(
                    ws,
                    &Line {
                        event: ev.clone(),
                        reason: reason.clone(),
                        duration_us: micros(started),
                    },
                )?;
            }
            Ok(Recorded::Spilled(reason))
        }
    }
}

fn write_db(
    ws: &Workspace,
    budget: Duration,
    evs: &[Event],
    first: &Event,
    detail: Option<&str>,
    started: Instant,
) -> Result<()> {
    if !ws.state_dir.is_dir() {
        ws.ensure_state_dir()?;
    }
    let mut conn = store::open_fast(&ws.db_path, budget)?;
    let wrote = store::write(&mut conn, |tx| {
        for ev in evs {
            insert(tx, ev, Source::Hook)?;
        }
        audit(
            tx,
            &Run {
                event: "post-tool-use",
                outcome: "recorded",
                duration_us: micros(started),
                session_id: Some(&first.session_id),
                detail,
            },
            &first.ts,
        )?;
        Ok(())
    });
    wrote?;
    keep_wal_small(ws, &conn);
    Ok(())
}

/// Hooks close without a checkpoint, so the next process opening the database re-reads the
/// whole WAL to rebuild its index: the recorder's cost grows with the WAL. Once it passes
/// [`WAL_LIMIT`], checkpoint and truncate it (one fsync every few dozen events; a busy reader
/// just makes it a no-op until next time).
fn keep_wal_small(ws: &Workspace, conn: &rusqlite::Connection) {
    let mut wal = ws.db_path.as_os_str().to_os_string();
    wal.push("-wal");
    if std::fs::metadata(&wal).is_ok_and(|m| m.len() > WAL_LIMIT) {
        // The pragma returns a row, so it must be read as a query: `execute_batch` steps it
        // once and reports an error, leaving the WAL in place and re-checkpointing every call.
        let _ = conn.query_row(crate::store::sql::store::CHECKPOINT_TRUNCATE, [], |r| {
            r.get::<_, i64>(0)
        });
    }
}

/// WAL size above which the recorder checkpoints (bytes).
pub const WAL_LIMIT: u64 = 256 * 1024;

/// Audits a hook run that stored no event. Best effort: only when the database already exists,
/// and a busy database just drops the row.
pub fn audit_only(ws: &Workspace, budget: Duration, run: &Run) -> Result<()> {
    if !ws.db_path.is_file() {
        return Ok(());
    }
    let conn = store::open_fast(&ws.db_path, budget)?;
    audit(&conn, run, &crate::clock::now())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::tests::ev;

    #[test]
    fn records_into_a_new_database_and_spills_when_locked() -> Result<()> {
        let dir = tempfile::tempdir()?;
        std::fs::create_dir_all(dir.path().join(".git"))?;
        let ws = Workspace::at(dir.path())?;
        let budget = Duration::from_millis(50);
        assert_eq!(
            record(
                &ws,
                budget,
                &[ev("s", "a.md", Some("t1"))],
                None,
                Instant::now()
            )?,
            Recorded::Stored
        );
        let locker = rusqlite::Connection::open(&ws.db_path)?;
        locker.execute_batch("BEGIN EXCLUSIVE")?;
        let t = Instant::now();
        let out = record(
            &ws,
            budget,
            &[ev("s", "b.md", Some("t2")), ev("s", "c.md", Some("t2"))],
            None,
            Instant::now(),
        )?;
        assert!(matches!(out, Recorded::Spilled(_)), "{out:?}");
        assert!(t.elapsed() < Duration::from_secs(2));
        locker.execute_batch("ROLLBACK")?;
        assert!(spill::has_backlog(&ws));
        // One line per event of the call.
        let journal = std::fs::read_to_string(ws.spill_path())?;
        assert_eq!(journal.lines().count(), 2, "{journal}");
        Ok(())
    }
}
