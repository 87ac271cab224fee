-- name: events
-- Recorded edit events (hooks, ingested spill journal, reconcile, import), oldest first.
-- params: (none)
SELECT session_id, tool_name, path, agent_id, agent_type, tool_use_id, abs_path, source, ts
FROM events
ORDER BY id
