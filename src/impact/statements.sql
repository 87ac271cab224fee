-- Statements of the impact module (`impact/analyze.rs`, `impact/runs.rs`): the stored runs
-- (`impact_runs`) and the events a `--session` input names. Each becomes
-- `store::sql::impact::NAME`; a test prepares every one against the latest schema.

-- name: SESSION_PATHS
-- The distinct absolute paths that session ?1 edited, sorted.
SELECT DISTINCT abs_path FROM events WHERE session_id = ?1 ORDER BY abs_path

-- name: INSERT_RUN
-- A new run with an empty L1 and L2 (its id is known only after the insert; COMPLETE_RUN
-- fills them): (?1 created_at, ?2 session, ?3 input_kind, ?4 status, ?5 confidence).
INSERT INTO impact_runs(created_at, session, input_kind, status, confidence, l1, l2)
VALUES (?1, ?2, ?3, ?4, ?5, '{}', '')

-- name: COMPLETE_RUN
-- (?1 L1 JSON, ?2 L2 text) of run ?3.
UPDATE impact_runs SET l1 = ?1, l2 = ?2 WHERE id = ?3

-- name: LOAD_RUN
-- Run ?1: (created_at, session, input_kind, l1, l2).
SELECT created_at, session, input_kind, l1, l2 FROM impact_runs WHERE id = ?1
