-- Impact alerts, their per-session watermark, and the audit of hook runs.
-- Timestamps are ISO-8601 text with offset; paths are root-relative with '/' separators.

-- One row per alert that `src hook subagent-stop` computed. `kind` is the seed pattern:
-- impact (pattern 1/4), none (pattern 3), empty (pattern 2), suppressed (cascade active).
-- `changed` and `dependents` keep the structured result so `src hook deliver` can merge alerts.
CREATE TABLE alerts (
    id           INTEGER PRIMARY KEY,
    session_id   TEXT    NOT NULL,
    agent_id     TEXT,
    kind         TEXT    NOT NULL CHECK (kind IN ('impact', 'none', 'empty', 'suppressed')),
    text         TEXT    NOT NULL,                -- the seed-format text, at most 500 chars
    changed      TEXT    NOT NULL DEFAULT '[]',   -- JSON array of root-relative paths
    dependents   TEXT    NOT NULL DEFAULT '[]',   -- JSON array of {path, refs: [changed path]}
    timed_out    INTEGER NOT NULL DEFAULT 0,      -- the analysis hit its time budget
    created_at   TEXT    NOT NULL,
    delivered_at TEXT                             -- NULL while pending
) STRICT;
CREATE INDEX alerts_pending ON alerts(session_id, id) WHERE delivered_at IS NULL;

-- How far a session's events have been reported: events with id <= last_event_id and failed
-- recorder runs with id <= last_run_id are never alerted again.
CREATE TABLE alert_watermarks (
    session_id    TEXT    PRIMARY KEY,
    last_event_id INTEGER NOT NULL,
    last_run_id   INTEGER NOT NULL DEFAULT 0,
    updated_at    TEXT    NOT NULL
) STRICT;

-- One row per hook run: which hook, what it did, how long it took.
-- outcome: recorded, spilled, skipped-tool, skipped-failed, skipped-missing, ignored, alerted,
-- suppressed, delivered, nothing, error.
CREATE TABLE hook_runs (
    id          INTEGER PRIMARY KEY,
    event       TEXT    NOT NULL,                 -- post-tool-use, subagent-stop, deliver
    outcome     TEXT    NOT NULL,
    duration_us INTEGER NOT NULL,
    session_id  TEXT,
    detail      TEXT,
    ts          TEXT    NOT NULL
) STRICT;
CREATE INDEX hook_runs_by_event ON hook_runs(event, id);
CREATE INDEX hook_runs_by_session ON hook_runs(session_id, id);
