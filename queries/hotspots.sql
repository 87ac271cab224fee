-- name: hotspots
-- The most referenced files, with how often they were edited in the last :days days.
-- `dependents` counts distinct files that mention it, `mentions` the edges (lines); `edits` and
-- `last_edit` come from recorded events (hooks, spill, reconcile, import) newer than the window.
-- param: :days int = 7  How far back an edit counts as recent, in days.
-- param: :limit int = 20  How many files to list.
WITH
    refs(id, dependents, mentions) AS (
        SELECT dst_id, count(DISTINCT src_id), count(*)
        FROM edges
        GROUP BY dst_id
    ),
    recent(path, edits, last_edit) AS (
        SELECT path, count(*), max(ts)
        FROM events
        WHERE path IS NOT NULL
          AND julianday(ts) >= julianday('now') - :days
        GROUP BY path
    )
SELECT f.path AS path,
       r.dependents AS dependents,
       r.mentions AS mentions,
       coalesce(c.edits, 0) AS edits,
       c.last_edit AS last_edit
FROM refs AS r
JOIN files AS f ON f.id = r.id
LEFT JOIN recent AS c ON c.path = f.path
ORDER BY r.dependents DESC, coalesce(c.edits, 0) DESC, f.path
LIMIT :limit
