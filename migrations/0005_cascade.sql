-- The cascade: its state machine and everything a new process needs to resume it exactly.
-- A cascade is rewritten as a whole (cascades row updated, child rows replaced) in one
-- BEGIN IMMEDIATE transaction per transition, so the tables always hold one consistent state.

-- One row per cascade: its state, current iteration, session and the impact run it came from.
CREATE TABLE cascades (
    id         INTEGER PRIMARY KEY,
    session_id TEXT,                                   -- NULL: bound to no session (sees every session's edits)
    state      TEXT    NOT NULL CHECK (state IN ('active', 'converged', 'partial', 'skipped')),
    iteration  INTEGER NOT NULL CHECK (iteration BETWEEN 0 AND 3),   -- I8: never above 3
    impact_id  INTEGER,                                -- the impact run it started from, if any
    source     TEXT    NOT NULL,                       -- 'impact 12' or the --from path
    started_at TEXT    NOT NULL,
    ended_at   TEXT
) STRICT;
-- One active cascade per session (and one unbound one).
CREATE UNIQUE INDEX cascades_one_active ON cascades(coalesce(session_id, '')) WHERE state = 'active';
CREATE INDEX cascades_by_session ON cascades(session_id, id);

-- One row per started iteration; `watermark` is the largest events.id when it began: edits
-- recorded after it (in the cascade's session) belong to this iteration.
CREATE TABLE cascade_iterations (
    cascade_id           INTEGER NOT NULL REFERENCES cascades(id) ON DELETE CASCADE,
    iteration            INTEGER NOT NULL CHECK (iteration BETWEEN 1 AND 3),
    watermark            INTEGER NOT NULL,
    implementers_spawned INTEGER NOT NULL,
    started_at           TEXT    NOT NULL,
    checked_at           TEXT,                         -- NULL while the iteration runs
    PRIMARY KEY (cascade_id, iteration)
) STRICT;

-- What each iteration asked implementers to update; `reasons` is a JSON array of
-- {changed_file, reference_pattern, evidence}.
CREATE TABLE cascade_targets (
    cascade_id INTEGER NOT NULL REFERENCES cascades(id) ON DELETE CASCADE,
    iteration  INTEGER NOT NULL,
    file       TEXT    NOT NULL,
    grp        INTEGER NOT NULL CHECK (grp IN (1, 2)), -- at most 2 implementers per iteration
    retry      INTEGER NOT NULL CHECK (retry IN (0, 1)),
    reasons    TEXT    NOT NULL,
    PRIMARY KEY (cascade_id, iteration, file)
) STRICT;

-- Outcomes recorded explicitly with `src cascade record`, in order.
CREATE TABLE cascade_outcomes (
    id          INTEGER PRIMARY KEY,
    cascade_id  INTEGER NOT NULL REFERENCES cascades(id) ON DELETE CASCADE,
    iteration   INTEGER NOT NULL,
    file        TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('complete', 'failed')),
    implementer TEXT,
    recorded_at TEXT    NOT NULL
) STRICT;

-- The iteration log, frozen by the convergence check: every file changed or failed.
CREATE TABLE cascade_changes (
    cascade_id  INTEGER NOT NULL REFERENCES cascades(id) ON DELETE CASCADE,
    iteration   INTEGER NOT NULL,
    file        TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('complete', 'failed')),
    implementer TEXT,
    target      INTEGER NOT NULL CHECK (target IN (0, 1)),
    edited      INTEGER NOT NULL CHECK (edited IN (0, 1)),
    PRIMARY KEY (cascade_id, iteration, file)
) STRICT;

-- New impacts found by each iteration's convergence check (after the last iteration: unresolved).
CREATE TABLE cascade_new_impacts (
    cascade_id INTEGER NOT NULL REFERENCES cascades(id) ON DELETE CASCADE,
    iteration  INTEGER NOT NULL,
    file       TEXT    NOT NULL,
    PRIMARY KEY (cascade_id, iteration, file)
) STRICT;

-- The state sets: original_impact_files, all_updated_files, files_skipped.
CREATE TABLE cascade_files (
    cascade_id INTEGER NOT NULL REFERENCES cascades(id) ON DELETE CASCADE,
    file       TEXT    NOT NULL,
    role       TEXT    NOT NULL CHECK (role IN ('original', 'updated', 'skipped')),
    PRIMARY KEY (cascade_id, role, file)
) STRICT;

-- Warnings raised along the way, in order (the L1 `warnings`).
CREATE TABLE cascade_warnings (
    cascade_id INTEGER NOT NULL REFERENCES cascades(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    iteration  INTEGER NOT NULL,
    text       TEXT    NOT NULL,
    PRIMARY KEY (cascade_id, seq)
) STRICT;
