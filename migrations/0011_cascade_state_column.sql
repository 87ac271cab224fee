-- A cascade becomes one row: the columns other statements filter on, and the rest of its state
-- as one JSON document written and read by `cascade::store` (serde), instead of the eight tables
-- of 0005 that only that module read. Existing cascades are converted here, in SQL; the
-- timestamps of iterations and outcomes (never read by anything) are not kept.

DROP INDEX cascades_one_active;
DROP INDEX cascades_by_session;
ALTER TABLE cascades RENAME TO cascades_v10;

-- One row per cascade. `state` and `iteration` are its state (`iteration` is the running one
-- while active, else 0); `doc` is everything else the machine holds, as JSON: `v` (layout
-- version), `original`, `updated`, `skipped` (file sets), `iterations` (each with `number`,
-- `watermark` = largest events.id when it began, `implementers`, `targets`, `outcomes`,
-- `checked`, `changes`, `new_impacts`) and `warnings` (`{iteration, text}`, in order); a
-- missing field is empty, so `{}` is a cascade with nothing recorded yet.
-- A transition rewrites the row in one BEGIN IMMEDIATE transaction.
CREATE TABLE cascades (
    id         INTEGER PRIMARY KEY,
    session_id TEXT,                                   -- NULL: bound to no session (sees every session's edits)
    state      TEXT    NOT NULL CHECK (state IN ('active', 'converged', 'partial', 'skipped')),
    iteration  INTEGER NOT NULL CHECK (iteration BETWEEN 0 AND 3),   -- I8: never above 3
    impact_id  INTEGER,                                -- the impact run it started from, if any
    source     TEXT    NOT NULL,                       -- 'impact 12' or the --from path
    started_at TEXT    NOT NULL,
    ended_at   TEXT,
    doc        TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(doc))
) STRICT;
-- One active cascade per session (and one unbound one).
CREATE UNIQUE INDEX cascades_one_active ON cascades(coalesce(session_id, '')) WHERE state = 'active';
CREATE INDEX cascades_by_session ON cascades(session_id, id);

INSERT INTO cascades (id, session_id, state, iteration, impact_id, source, started_at, ended_at, doc)
SELECT c.id, c.session_id, c.state, c.iteration, c.impact_id, c.source, c.started_at, c.ended_at,
    json_object(
        'v', 1,
        'original', json((SELECT json_group_array(f.file ORDER BY f.file) FROM cascade_files f
                          WHERE f.cascade_id = c.id AND f.role = 'original')),
        'updated', json((SELECT json_group_array(f.file ORDER BY f.file) FROM cascade_files f
                         WHERE f.cascade_id = c.id AND f.role = 'updated')),
        'skipped', json((SELECT json_group_array(f.file ORDER BY f.file) FROM cascade_files f
                         WHERE f.cascade_id = c.id AND f.role = 'skipped')),
        'iterations', json((SELECT json_group_array(json_object(
            'number', i.iteration,
            'watermark', i.watermark,
            'implementers', i.implementers_spawned,
            'targets', json((SELECT json_group_array(json_object(
                    'file', t.file,
                    'group', t.grp,
                    'retry', json(iif(t.retry, 'true', 'false')),
                    'reasons', json(t.reasons)) ORDER BY t.file)
                FROM cascade_targets t WHERE t.cascade_id = c.id AND t.iteration = i.iteration)),
            'outcomes', json((SELECT json_group_array(json_object(
                    'file', o.file,
                    'status', o.status,
                    'implementer', o.implementer) ORDER BY o.id)
                FROM cascade_outcomes o WHERE o.cascade_id = c.id AND o.iteration = i.iteration)),
            'checked', json(iif(i.checked_at IS NULL, 'false', 'true')),
            'changes', json((SELECT json_group_array(json_object(
                    'file', ch.file,
                    'status', ch.status,
                    'implementer', ch.implementer,
                    'target', json(iif(ch.target, 'true', 'false')),
                    'edited', json(iif(ch.edited, 'true', 'false'))) ORDER BY ch.target DESC, ch.file)
                FROM cascade_changes ch WHERE ch.cascade_id = c.id AND ch.iteration = i.iteration)),
            'new_impacts', json((SELECT json_group_array(n.file ORDER BY n.file)
                FROM cascade_new_impacts n WHERE n.cascade_id = c.id AND n.iteration = i.iteration))
            ) ORDER BY i.iteration)
            FROM cascade_iterations i WHERE i.cascade_id = c.id)),
        'warnings', json((SELECT json_group_array(json_object('iteration', w.iteration, 'text', w.text) ORDER BY w.seq)
                          FROM cascade_warnings w WHERE w.cascade_id = c.id))
    )
FROM cascades_v10 c;

DROP TABLE cascade_iterations;
DROP TABLE cascade_targets;
DROP TABLE cascade_outcomes;
DROP TABLE cascade_changes;
DROP TABLE cascade_new_impacts;
DROP TABLE cascade_files;
DROP TABLE cascade_warnings;
DROP TABLE cascades_v10;
