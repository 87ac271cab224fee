//! SQL for ad-hoc dependency questions: the canned queries of `queries/`, read-only ad-hoc SQL,
//! the documented schema, and the output formats they share.
//!
//! Owns running statements and shaping their results; does not open the database (callers pass
//! a `store::open_readonly` connection) and knows nothing of the command line. Invariant: every
//! value reaches SQLite as a bound parameter; ad-hoc SQL that could write is never run.

pub mod catalog;
pub mod exec;
pub mod format;
pub mod params;
pub mod schema;

pub use exec::{run_adhoc_within, run_canned};
pub use format::{sink, Collected, Format};

/// Read-side tuning for a query connection: memory-mapped reads (whole-graph aggregations on a
/// 100 MB database spend more time in `read` syscalls than in SQL otherwise), a larger page
/// cache, and sorts in memory. All per-connection; nothing on disk changes.
pub fn tune_for_reads(conn: &rusqlite::Connection) -> anyhow::Result<()> {
    let _mmap: i64 = conn.pragma_update_and_check(None, "mmap_size", 268_435_456, |r| r.get(0))?;
    conn.pragma_update(None, "cache_size", -32768)?;
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    Ok(())
}

#[cfg(test)]
mod tests;
