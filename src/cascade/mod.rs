//! The cascade: iteration state in SQLite, convergence check, at most 3 iterations (stub body;
//! the cascade issue fills it in).

use anyhow::Result;
use rusqlite::Connection;

/// The active cascade of a session, if any: `(cascade_id, current_iteration)`. The
/// subagent-stop hook uses it to suppress new impact alerts while a cascade runs.
pub fn active_for_session(_conn: &Connection, _session_id: &str) -> Result<Option<(i64, u32)>> {
    Ok(None)
}
