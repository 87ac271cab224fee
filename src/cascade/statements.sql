-- Statements of the cascade module (`cascade/store.rs`, `cascade/mod.rs`): the `cascades` table
-- (migration 0011) and the recorded edits a cascade reads from `events`. Each becomes
-- `store::sql::cascade::NAME`; a test prepares every one against the latest schema.

-- name: ACTIVE_FOR_SESSION
-- ?1 session → the active cascade that applies to it: its own, else an unbound one.
SELECT id, iteration FROM cascades
WHERE state = 'active' AND (session_id = ?1 OR session_id IS NULL)
ORDER BY session_id IS NULL, id DESC LIMIT 1

-- name: ACTIVE_WITH_BINDING
-- The active cascade bound to session ?1 exactly (NULL: the unbound one).
SELECT id FROM cascades WHERE state = 'active' AND coalesce(session_id, '') = coalesce(?1, '')

-- name: EXISTS
SELECT id FROM cascades WHERE id = ?1

-- name: LATEST_IN_SESSION
-- The most recently started cascade of session ?1, finished or not.
SELECT id FROM cascades WHERE session_id = ?1 ORDER BY id DESC LIMIT 1

-- name: LATEST_ACTIVE
SELECT id FROM cascades WHERE state = 'active' ORDER BY id DESC LIMIT 1

-- name: LATEST
SELECT max(id) FROM cascades

-- name: INSERT
-- (?1 session, ?2 state, ?3 iteration, ?4 impact id, ?5 source, ?6 started at, ?7 ended at,
-- ?8 the rest of the cascade as JSON).
INSERT INTO cascades (session_id, state, iteration, impact_id, source, started_at, ended_at, doc)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)

-- name: SAVE
-- Rewrites cascade ?1: ?2 state, ?3 iteration, ?4 now (the end, when it first ends), ?5 doc.
UPDATE cascades SET state = ?2, iteration = ?3,
  ended_at = CASE WHEN ?2 = 'active' THEN NULL ELSE coalesce(ended_at, ?4) END,
  doc = ?5
WHERE id = ?1

-- name: LOAD
SELECT session_id, state, iteration, impact_id, source, started_at, ended_at, doc
FROM cascades WHERE id = ?1

-- name: MAX_EVENT_ID
-- The largest events.id (0 when none): an iteration's watermark.
SELECT coalesce(max(id), 0) FROM events

-- name: EDITS_BETWEEN
-- Edits with ?1 < id <= ?2 in session ?3 (every session when NULL), oldest first.
SELECT path, agent_type, agent_id FROM events
WHERE id > ?1 AND id <= ?2 AND path IS NOT NULL AND (?3 IS NULL OR session_id = ?3)
ORDER BY id
