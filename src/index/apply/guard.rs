//! The full rebuild's transaction and the connection state it needs, as one value.
//!
//! Owns `BEGIN`/`COMMIT`/`ROLLBACK` of a full rebuild, its `foreign_keys` pragma and the dropping
//! of the secondary indexes; writes no rows. Invariant: once a `RebuildGuard` is gone, however
//! the rebuild ended (commit, `?`, early return, panic), the connection is out of any
//! transaction, has foreign keys on, and every secondary index exists.

use std::ops::{Deref, DerefMut};

use anyhow::{Context, Result};
use rusqlite::Connection;

use crate::store::sql::index as sql;

/// A full rebuild in progress on `conn`: foreign keys off (a rebuild empties every table itself
/// and inserts only rows whose parents exist, so the per-row checks are pure cost), one
/// transaction (the previous index keeps answering other readers until the commit, and a
/// failure leaves it as it was), secondary indexes dropped (bulk loading then building them
/// beats random inserts into them). Dropping the guard without `commit` rolls back.
pub(crate) struct RebuildGuard<'c> {
    conn: &'c mut Connection,
}

impl<'c> RebuildGuard<'c> {
    /// Sets the rebuild state up. The pragma comes first: it cannot change inside a transaction.
    pub(crate) fn begin(conn: &'c mut Connection) -> Result<RebuildGuard<'c>> {
        conn.pragma_update(None, "foreign_keys", "OFF")?;
        // From here on, `Drop` restores whatever was set, whichever step fails.
        let guard = RebuildGuard { conn };
        guard
            .conn
            .execute_batch(sql::BEGIN_IMMEDIATE)
            .context("starting the full rebuild")?;
        guard.conn.execute_batch(sql::DROP_SECONDARY_BATCH)?;
        Ok(guard)
    }

    /// Builds the secondary indexes (when the rebuild has not yet) and commits.
    pub(crate) fn commit(self) -> Result<()> {
        self.conn.execute_batch(sql::CREATE_SECONDARY_BATCH)?;
        self.conn
            .execute_batch(sql::COMMIT)
            .context("committing the full rebuild")?;
        Ok(())
    }
}

impl Drop for RebuildGuard<'_> {
    fn drop(&mut self) {
        // Errors here have nowhere to go; each step is tried regardless of the one before.
        if !self.conn.is_autocommit() {
            // Undoes the index drops too: they were made inside the transaction.
            let _ = self.conn.execute_batch(sql::ROLLBACK);
        }
        let _ = self.conn.execute_batch(sql::CREATE_SECONDARY_BATCH);
        let _ = self.conn.pragma_update(None, "foreign_keys", "ON");
    }
}

impl Deref for RebuildGuard<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl DerefMut for RebuildGuard<'_> {
    fn deref_mut(&mut self) -> &mut Connection {
        self.conn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn migrated() -> Result<Connection> {
        let mut conn = Connection::open_in_memory()?;
        crate::store::migrate(&mut conn, Path::new(":memory:"))?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        Ok(conn)
    }

    fn foreign_keys(conn: &Connection) -> Result<i64> {
        Ok(conn.query_row("PRAGMA foreign_keys", [], |r| r.get(0))?)
    }

    fn secondary_indexes(conn: &Connection) -> Result<Vec<String>> {
        let mut stmt = conn.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'index' \
             AND name IN ('names_by_name', 'mentions_by_name', 'edges_by_dst') ORDER BY name",
        )?;
        let names = stmt
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(names)
    }

    const ALL: [&str; 3] = ["edges_by_dst", "mentions_by_name", "names_by_name"];

    #[test]
    fn an_error_inside_the_guard_restores_foreign_keys_indexes_and_rows() -> Result<()> {
        let mut conn = migrated()?;
        conn.execute(
            "INSERT INTO files(path, size, mtime_ns, hash, scanned_at, content_changed_at) \
             VALUES ('a.md', 1, 1, 'h', 't', 't')",
            [],
        )?;
        let failed = (|| -> Result<()> {
            let guard = RebuildGuard::begin(&mut conn)?;
            assert_eq!(
                foreign_keys(&guard)?,
                0,
                "a rebuild runs with foreign keys off"
            );
            assert!(
                secondary_indexes(&guard)?.is_empty(),
                "and without its indexes"
            );
            guard.execute_batch(sql::CLEAR_INDEX_BATCH)?;
            anyhow::bail!("injected failure halfway through the rebuild")
        })();
        assert!(failed.is_err());
        assert_eq!(foreign_keys(&conn)?, 1);
        assert_eq!(secondary_indexes(&conn)?, ALL);
        assert!(conn.is_autocommit(), "no transaction is left open");
        let files: i64 = conn.query_row("SELECT count(*) FROM files", [], |r| r.get(0))?;
        assert_eq!(files, 1, "the rows cleared inside the guard are back");
        Ok(())
    }

    #[test]
    fn a_committed_rebuild_keeps_its_rows_and_restores_the_connection() -> Result<()> {
        let mut conn = migrated()?;
        let guard = RebuildGuard::begin(&mut conn)?;
        guard.execute(
            "INSERT INTO files(path, size, mtime_ns, hash, scanned_at, content_changed_at) \
             VALUES ('a.md', 1, 1, 'h', 't', 't')",
            [],
        )?;
        guard.commit()?;
        assert_eq!(foreign_keys(&conn)?, 1);
        assert_eq!(secondary_indexes(&conn)?, ALL);
        let files: i64 = conn.query_row("SELECT count(*) FROM files", [], |r| r.get(0))?;
        assert_eq!(files, 1);
        Ok(())
    }
}
