-- name: session-changes
-- Files changed in one session, by tool and agent, with the first and last time and the count.
-- `agent` is the subagent type (or id) that made the edit; empty for the main agent. `session`
-- may be `latest` for the session of the most recent event.
-- param: :session text  The session id (`session_id` of the hook events), or `latest`.
SELECT coalesce(path, abs_path) AS path,
       tool_name AS tool,
       coalesce(nullif(agent_type, ''), agent_id, '') AS agent,
       count(*) AS edits,
       min(ts) AS first_at,
       max(ts) AS last_at
FROM events
WHERE session_id = CASE
        WHEN :session = 'latest' THEN (SELECT session_id FROM events ORDER BY id DESC LIMIT 1)
        ELSE :session
    END
GROUP BY coalesce(path, abs_path), tool_name, agent
ORDER BY min(id)
