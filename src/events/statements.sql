-- Statements of the events module (`events/mod.rs`): the `events` and `hook_runs` tables, and
-- retention across `events`, `alerts` and `alert_watermarks`. Each becomes
-- `store::sql::events::NAME`; a test prepares every one against the latest schema.

-- name: INSERT_ONCE
-- Stores an event; the unique index `events_once` makes the same tool call a no-op.
-- (?1 session, ?2 tool, ?3 abs_path, ?4 path, ?5 agent_id, ?6 agent_type, ?7 tool_use_id,
-- ?8 cwd, ?9 ts, ?10 source, ?11 worktree)
INSERT OR IGNORE INTO events
  (session_id, tool_name, abs_path, path, agent_id, agent_type, tool_use_id, cwd, ts, source, worktree)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)

-- name: INSERT_UNLESS_SAME
-- Stores an event without a tool_use_id unless an identical row (same session, tool, path and
-- timestamp) is there; parameters as INSERT_ONCE.
INSERT INTO events
  (session_id, tool_name, abs_path, path, agent_id, agent_type, tool_use_id, cwd, ts, source, worktree)
SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11
WHERE NOT EXISTS (SELECT 1 FROM events WHERE session_id = ?1 AND tool_use_id IS NULL
                  AND abs_path = ?3 AND tool_name = ?2 AND ts = ?9)

-- name: LATEST_SESSION
-- The session of the newest recorded event.
SELECT session_id FROM events ORDER BY id DESC LIMIT 1

-- name: AUDIT
-- Appends a hook-run audit row: (?1 event, ?2 outcome, ?3 duration_us, ?4 session, ?5 detail, ?6 ts).
INSERT INTO hook_runs (event, outcome, duration_us, session_id, detail, ts)
VALUES (?1, ?2, ?3, ?4, ?5, ?6)

-- name: SAW_DELIVER_DETAIL
-- Whether a `deliver` run of session ?1 recorded detail ?2 (the PostToolBatch event).
SELECT EXISTS (SELECT 1 FROM hook_runs
               WHERE session_id = ?1 AND event = 'deliver' AND detail = ?2)

-- name: LAST_RUN
-- The last run of hook event ?1: (ts, outcome).
SELECT ts, outcome FROM hook_runs WHERE event = ?1 ORDER BY id DESC LIMIT 1

-- name: LAST_FAILED_RUN
-- The last failed or spilled run of hook event ?1: (ts, detail or outcome).
SELECT ts, coalesce(detail, outcome) FROM hook_runs
WHERE event = ?1 AND outcome IN ('error', 'spilled') ORDER BY id DESC LIMIT 1

-- name: CREATE_OLD_SESSIONS
-- Retention's scratch list of sessions to drop (connection-local).
CREATE TEMP TABLE IF NOT EXISTS old_sessions (session_id TEXT PRIMARY KEY)

-- name: CLEAR_OLD_SESSIONS
DELETE FROM old_sessions

-- name: FIND_OLD_SESSIONS
-- A session is old when neither its events nor its alerts are newer than ?1 (`-N days`).
INSERT INTO old_sessions
SELECT session_id FROM (
  SELECT session_id, max(julianday(ts)) AS last FROM events GROUP BY session_id
  UNION ALL
  SELECT session_id, max(julianday(created_at)) FROM alerts GROUP BY session_id)
GROUP BY session_id
HAVING max(last) < julianday('now', ?1)

-- name: PRUNE_EVENTS
DELETE FROM events WHERE session_id IN (SELECT session_id FROM old_sessions)

-- name: PRUNE_ALERTS
DELETE FROM alerts WHERE session_id IN (SELECT session_id FROM old_sessions)

-- name: PRUNE_WATERMARKS
DELETE FROM alert_watermarks WHERE session_id IN (SELECT session_id FROM old_sessions)

-- name: PRUNE_HOOK_RUNS
-- Hook runs older than ?1 (`-N days`).
DELETE FROM hook_runs WHERE julianday(ts) < julianday('now', ?1)
