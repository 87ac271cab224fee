-- name: co-change
-- Pairs of files edited in the same sessions, with how many sessions: temporal coupling.
-- `linked` is 1 when either file mentions the other, 0 when no text reference explains the
-- coupling (the interesting case). Counts every recorded event (hooks, spill, reconcile, import).
-- param: :min int = 2  Fewest shared sessions for a pair to be listed.
-- param: :limit int = 50  How many pairs to list.
WITH
    touched(session_id, path) AS (
        SELECT DISTINCT session_id, path FROM events WHERE path IS NOT NULL
    ),
    pairs(a, b, sessions) AS (
        SELECT t1.path, t2.path, count(*)
        FROM touched AS t1
        JOIN touched AS t2 ON t2.session_id = t1.session_id AND t2.path > t1.path
        GROUP BY t1.path, t2.path
        HAVING count(*) >= :min
    )
SELECT p.a AS a,
       p.b AS b,
       p.sessions AS sessions,
       EXISTS (
           SELECT 1
           FROM files AS fa
           JOIN files AS fb ON fb.path = p.b
           JOIN edges AS e
             ON (e.src_id = fa.id AND e.dst_id = fb.id) OR (e.src_id = fb.id AND e.dst_id = fa.id)
           WHERE fa.path = p.a
       ) AS linked
FROM pairs AS p
ORDER BY p.sessions DESC, p.a, p.b
LIMIT :limit
