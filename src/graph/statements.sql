-- Statements of the graph module (`graph/mod.rs`): reads of `files`, `edges`, `names`,
-- `mentions` and `skipped` for other modules; the graph never writes. Each becomes
-- `store::sql::graph::NAME`; a test prepares every one against the latest schema.

-- name: EDGES_INTO
-- Every edge into the file at path ?1: (src, dst, name, line, text, resolution, kind).
SELECT s.path, d.path, e.name, e.line, e.text, e.resolution, e.kind
FROM files d JOIN edges e ON e.dst_id = d.id JOIN files s ON s.id = e.src_id
WHERE d.path = ?1

-- name: IS_INDEXED
-- A row when path ?1 is indexed.
SELECT 1 FROM files WHERE path = ?1

-- name: PATHS_LIKE
-- Up to 11 indexed paths matching the LIKE pattern ?1 (escape character `\`), sorted.
SELECT path FROM files WHERE path LIKE ?1 ESCAPE '\' ORDER BY path LIMIT 11

-- name: ALL_PATHS
-- Every indexed path, unsorted.
SELECT path FROM files

-- name: SKIPPED_REASON
-- Why the index skipped path ?1 (no row when it did not).
SELECT reason FROM skipped WHERE path = ?1

-- name: UNATTRIBUTED_COUNT
-- Mentions of a name that the file at path ?1 bears which resolved to no file because several
-- files qualified equally (ties), from files that do not bear the name themselves. Weak
-- mentions (plain words) are not counted. UNATTRIBUTED_MENTIONS lists the same rows.
-- Counted as all the name's mentions less those from its bearers (the file among them): a seek
-- per bearer, where testing each mention for its source bearing the name was a seek per mention.
SELECT coalesce(sum(
    (SELECT count(*) FROM mentions m WHERE m.name = n.name AND m.weak = 0)
  - (SELECT count(*) FROM names o CROSS JOIN mentions m
       ON m.name = o.name AND m.weak = 0 AND m.src_id = o.file_id
     WHERE o.name = n.name)), 0)
FROM names n WHERE n.file_id = (SELECT id FROM files WHERE path = ?1)

-- name: UNATTRIBUTED_MENTIONS
-- The mentions UNATTRIBUTED_COUNT counts, as (src_id, line, name).
SELECT m.src_id, m.line, m.name FROM names n JOIN mentions m ON m.name = n.name
WHERE n.file_id = (SELECT id FROM files WHERE path = ?1) AND m.weak = 0
  AND m.src_id <> n.file_id
  AND NOT EXISTS (SELECT 1 FROM names o WHERE o.file_id = m.src_id AND o.name = m.name)
