-- Statements of the export module (`export/model.rs`): what every export view reads from
-- `files`, `edges` and `events`. Each becomes `store::sql::export::NAME`; a test prepares every
-- one against the latest schema.

-- name: FILES
-- Every indexed file: (id, path, content_changed_at), by path.
SELECT id, path, content_changed_at FROM files ORDER BY path

-- name: EDGES
-- Every edge between two different files: (src_id, dst_id, name). By id, unsorted: joining and
-- sorting 10^5 rows by path text costs more than a hash lookup.
SELECT src_id, dst_id, name FROM edges WHERE src_id <> dst_id

-- name: RECENT_PATHS
-- Paths edited in the ?1 sessions whose latest event is newest, sorted.
WITH s AS (SELECT session_id, MAX(ts) AS last FROM events
           GROUP BY session_id ORDER BY last DESC, session_id DESC LIMIT ?1)
SELECT DISTINCT path FROM events WHERE path IS NOT NULL
AND session_id IN (SELECT session_id FROM s) ORDER BY path
