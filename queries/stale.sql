-- name: stale
-- Files edited after the index last read them, as far as the database can tell.
-- It compares recorded events with `files.scanned_at` (and, for files not in the index, with the
-- last scan): `edited` = an event newer than the file's scan; `unindexed` = an event newer than
-- the last scan for a path the index does not hold (new, or out of scope). Edits no hook saw
-- (an editor, git checkout) are invisible here: `src status` stats the disk for those.
SELECT coalesce(f.path, ev.path) AS path,
       CASE WHEN f.id IS NULL THEN 'unindexed' ELSE 'edited' END AS state,
       f.scanned_at AS scanned_at,
       count(*) AS edits_since,
       max(ev.ts) AS last_edit
FROM events AS ev
LEFT JOIN files AS f ON f.path = ev.path
WHERE ev.path IS NOT NULL
  AND julianday(ev.ts) > coalesce(
        julianday(f.scanned_at),
        (SELECT max(julianday(value)) FROM meta
         WHERE key IN ('last_full_scan', 'last_incremental_scan')),
        0)
GROUP BY ev.path
ORDER BY max(ev.ts) DESC, ev.path
