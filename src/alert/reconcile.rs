//! Reconcile: find indexed files that changed on disk without an event (Bash, editors, `git`).
//! Part of the stop (`alert::stop`), its only caller.
//!
//! Owns only the cheap comparison; the index decides what "changed" means. Invariant: stats
//! indexed files (in parallel) against the size and mtime the index stored, and asks the index
//! (`index::freshness`, which hashes) only about the few whose stat differs, so a file that was
//! merely touched is not reported. One call stats files for at most `limits.reconcile_budget_ms`,
//! in file-id order from a cursor kept in `meta`, so on a large tree successive stops cover it all
//! while each stays fast (a full `src index` or `src status` still sees everything at once).

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Result;
use rayon::prelude::*;
use rusqlite::Connection;

use crate::ctx::Ctx;
use crate::index::{self, Freshness};
use crate::store::sql::alert as sql;
use crate::store::PooledConn;

/// Compares with the index's own notion of a file's stat (`crate::scan::walk::stat_of`).
fn stat_differs(path: &Path, size: i64, mtime: i64) -> bool {
    match std::fs::metadata(path) {
        Ok(m) => {
            let (s, t) = crate::scan::walk::stat_of(&m);
            i64::try_from(s).ok() != Some(size) || t != mtime
        }
        Err(_) => true,
    }
}

/// `meta` key: the id of the last file the previous reconcile statted (0 = from the beginning).
const META_CURSOR: &str = "reconcile_cursor";

/// Files statted between two looks at the clock.
const CHUNK: usize = 2048;

/// What one reconcile found, and where the next one starts.
#[derive(Debug, Default)]
pub struct Drift {
    /// Root-relative paths of indexed files whose content changed or that disappeared.
    pub paths: Vec<String>,
    cursor: i64,
    next_cursor: i64,
}

impl Drift {
    /// Stores where the next reconcile starts (a write: the caller's transaction).
    pub fn save_cursor(&self, conn: &Connection) -> Result<()> {
        if self.next_cursor != self.cursor {
            crate::store::meta_set(conn, META_CURSOR, &self.next_cursor.to_string())?;
        }
        Ok(())
    }
}

/// A read transaction on a connection of its own, begun before the caller goes on to refresh the
/// index: reconcile then compares the disk with the index as it was before any refresh, so a
/// refresh running beside it (which may rescan a file edited behind the hooks' back) cannot
/// hide a drifted file. Rolled back when dropped.
pub struct Snapshot {
    conn: PooledConn,
    cursor: i64,
}

impl Snapshot {
    pub fn take(ctx: &Ctx) -> Result<Snapshot> {
        let conn = ctx.store.conn()?;
        conn.execute_batch("BEGIN DEFERRED")?;
        // The first read fixes the snapshot. The id of the last file statted; anything
        // unreadable (an older path cursor) starts over.
        let cursor = crate::store::meta_get(&conn, META_CURSOR)?
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        Ok(Snapshot { conn, cursor })
    }

    /// Finds the drifted files, leaving out `known` (files that already have an event).
    pub fn scan(self, ctx: &Ctx, known: &BTreeSet<String>) -> Result<Drift> {
        scan(&self.conn, self.cursor, ctx, known)
    }
}

impl Drop for Snapshot {
    fn drop(&mut self) {
        if !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }
}

fn scan(conn: &Connection, cursor: i64, ctx: &Ctx, known: &BTreeSet<String>) -> Result<Drift> {
    let started = Instant::now();
    let budget = Duration::from_millis(ctx.config.limits.reconcile_budget_ms);
    // A ring over the whole index in rowid order (the table's own order: no index lookups):
    // the files after the cursor, then those up to it. Read chunk by chunk, so a stop that runs
    // out of budget never loads the rest.
    let mut stmt = conn.prepare_cached(sql::RECONCILE_CHUNK)?;
    let root = &ctx.ws.root;
    let mut differ: Vec<String> = Vec::new();
    let mut next_cursor = 0i64;
    let mut statted = 0usize;
    let laps: &[(i64, Option<i64>)] = if cursor == 0 {
        &[(0, None)]
    } else {
        &[(cursor, None), (0, Some(cursor))]
    };
    'ring: for &(from, upto) in laps {
        let mut after = from;
        loop {
            let chunk: Vec<(i64, String, i64, i64)> = stmt
                .query_map(rusqlite::params![after, upto, CHUNK as i64], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })?
                .collect::<rusqlite::Result<_>>()?;
            let Some(last) = chunk.last().map(|r| r.0) else {
                break;
            };
            statted += chunk.len();
            differ.par_extend(
                chunk
                    .par_iter()
                    .filter(|(_, p, size, mtime)| {
                        !known.contains(p) && stat_differs(&root.join(p), *size, *mtime)
                    })
                    .map(|(_, p, ..)| p.clone()),
            );
            if chunk.len() < CHUNK {
                break;
            }
            if started.elapsed() >= budget {
                next_cursor = last;
                break 'ring;
            }
            after = last;
        }
    }
    crate::trace::note(
        "src reconcile",
        &format!(
            "{statted} statted in {:.1} ms, {} differ, cursor {next_cursor}",
            started.elapsed().as_secs_f64() * 1e3,
            differ.len()
        ),
    );
    let paths = if differ.is_empty() {
        differ
    } else {
        index::freshness_with(conn, root, &differ)?
            .into_iter()
            .filter(|(_, f)| matches!(f, Freshness::Stale | Freshness::Missing))
            .map(|(p, _)| p)
            .collect()
    };
    Ok(Drift {
        paths,
        cursor,
        next_cursor,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{self, IndexOptions};
    use crate::workspace::Workspace;

    #[test]
    fn a_snapshot_sees_the_index_as_it_was_when_taken() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let root = dir.path();
        std::fs::create_dir_all(root.join(".claude/agents"))?;
        std::fs::write(root.join(".claude/agents/planner.md"), "plans\n")?;
        std::fs::write(root.join(".claude/agents/other.md"), "other\n")?;
        let ctx = Ctx::open_ws(Workspace::at(root)?)?;
        index::run(&ctx, &IndexOptions::default())?;
        // Edited behind the hooks' back.
        std::fs::write(
            root.join(".claude/agents/planner.md"),
            "plans, longer now\n",
        )?;
        let snapshot = Snapshot::take(&ctx)?;
        // A refresh running beside reconcile brings the index up to date with the disk...
        index::refresh_paths(&ctx, &[".claude/agents/planner.md".to_string()])?;
        // ...yet the reconcile that began before it still sees the old entry.
        let drift = snapshot.scan(&ctx, &BTreeSet::new())?;
        assert_eq!(drift.paths, vec![".claude/agents/planner.md".to_string()]);
        // A reconcile begun now finds nothing.
        let drift = Snapshot::take(&ctx)?.scan(&ctx, &BTreeSet::new())?;
        assert!(drift.paths.is_empty(), "{:?}", drift.paths);
        Ok(())
    }
}
