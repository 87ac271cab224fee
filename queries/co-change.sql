-- name: co-change
-- Pairs of files edited in the same sessions, with how many sessions: temporal coupling.
-- `linked` is 1 when either file mentions the other, 0 when no text reference explains the
-- coupling (the interesting case). Counts every recorded event (hooks, spill, reconcile, import).
-- param: :min int = 2  Fewest shared sessions for a pair to be listed.
-- param: :limit int = 50  How many pairs to list.
WITH
    -- Small integer ids for the edited paths, so pairs are grouped by integers, not strings.
    paths(pid, path) AS MATERIALIZED (
        SELECT row_number() OVER (ORDER BY path), path
        FROM (SELECT DISTINCT path FROM events WHERE path IS NOT NULL)
    ),
    touched(session_id, pid) AS MATERIALIZED (
        SELECT DISTINCT ev.session_id, p.pid
        FROM events AS ev
        JOIN paths AS p ON p.path = ev.path
    ),
    pairs(a, b, sessions) AS (
        SELECT t1.pid, t2.pid, count(*)
        FROM touched AS t1
        JOIN touched AS t2 ON t2.session_id = t1.session_id AND t2.pid > t1.pid
        GROUP BY t1.pid, t2.pid
        HAVING count(*) >= :min
    ),
    top(a, b, sessions) AS (
        SELECT pa.path, pb.path, pairs.sessions
        FROM pairs
        JOIN paths AS pa ON pa.pid = pairs.a
        JOIN paths AS pb ON pb.pid = pairs.b
        ORDER BY pairs.sessions DESC, pa.path, pb.path
        LIMIT :limit
    )
SELECT t.a AS a,
       t.b AS b,
       t.sessions AS sessions,
       EXISTS (
           SELECT 1
           FROM files AS fa
           JOIN files AS fb ON fb.path = t.b
           JOIN edges AS e
             ON (e.src_id = fa.id AND e.dst_id = fb.id) OR (e.src_id = fb.id AND e.dst_id = fa.id)
           WHERE fa.path = t.a
       ) AS linked
FROM top AS t
ORDER BY t.sessions DESC, t.a, t.b
