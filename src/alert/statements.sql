-- Statements of the alert module (`alert/mod.rs`, `alert/stop.rs`, `alert/reconcile.rs`): the
-- `alerts` and `alert_watermarks` tables, and reconcile's read of `files`. Each becomes `store::sql::alert::NAME`; a test prepares every one
-- against the latest schema.

-- name: WATERMARK
-- ?1 session → how far its events and failed recorder runs were reported.
SELECT last_event_id, last_run_id FROM alert_watermarks WHERE session_id = ?1

-- name: ADVANCE_WATERMARK
-- Moves a session's watermark forward, never back: (?1 session, ?2 event id, ?3 run id, ?4 now).
INSERT INTO alert_watermarks (session_id, last_event_id, last_run_id, updated_at)
VALUES (?1, ?2, ?3, ?4)
ON CONFLICT(session_id) DO UPDATE SET
  last_event_id = max(last_event_id, excluded.last_event_id),
  last_run_id = max(last_run_id, excluded.last_run_id),
  updated_at = excluded.updated_at

-- name: HEAD_EVENT
-- The newest event id of session ?1 (0 when none).
SELECT coalesce(max(id), 0) FROM events WHERE session_id = ?1

-- name: HEAD_FAILED_RUN
-- The newest failed recorder run of session ?1 (0 when none).
SELECT coalesce(max(id), 0) FROM hook_runs WHERE session_id = ?1 AND outcome = 'skipped-failed'

-- name: SAVE
-- Stores a pending alert.
INSERT INTO alerts (session_id, agent_id, kind, text, changed, dependents, timed_out, created_at, unattributed)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)

-- name: PENDING
-- Session ?1's alerts not yet delivered, oldest first.
SELECT id, kind, text, changed, dependents, timed_out, unattributed FROM alerts
WHERE session_id = ?1 AND delivered_at IS NULL ORDER BY id

-- name: MARK_DELIVERED
UPDATE alerts SET delivered_at = ?2 WHERE id = ?1

-- name: CHANGED_PATHS
-- Distinct paths of session ?1's events with ?2 < id <= ?3.
SELECT DISTINCT path FROM events
WHERE session_id = ?1 AND id > ?2 AND id <= ?3 AND path IS NOT NULL

-- name: FAILED_RUNS_AFTER
-- Recorder runs of session ?1 skipped for `success: false` after run id ?2.
SELECT count(*) FROM hook_runs
WHERE session_id = ?1 AND outcome = 'skipped-failed' AND id > ?2

-- name: RECONCILE_CHUNK
-- Reconcile's ring over the index in rowid order: up to ?3 files after id ?1 (and up to id ?2
-- when not NULL).
SELECT id, path, size, mtime_ns FROM files
WHERE id > ?1 AND (?2 IS NULL OR id <= ?2) ORDER BY id LIMIT ?3
