-- Statements of the index module (`index/mod.rs`, `plan.rs`, `status.rs`, `apply/`): the
-- `files`, `names`, `mentions`, `edges` and `skipped` tables. Each becomes
-- `store::sql::index::NAME`; a test prepares every one against the latest schema (a `…_BATCH`
-- runs instead: it holds several statements).

-- name: DROP_SECONDARY_BATCH
-- The secondary indexes of migration 0001, dropped for a full rebuild (bulk loading and sorting
-- afterwards beats random inserts into them).
DROP INDEX IF EXISTS names_by_name;
DROP INDEX IF EXISTS mentions_by_name;
DROP INDEX IF EXISTS edges_by_dst;

-- name: CREATE_SECONDARY_BATCH
-- The same definitions as migration 0001; `IF NOT EXISTS` makes it a no-op when they are there
-- and repairs a database whose rebuild was interrupted by an older binary.
CREATE INDEX IF NOT EXISTS names_by_name ON names(name);
CREATE INDEX IF NOT EXISTS mentions_by_name ON mentions(name, weak);
CREATE INDEX IF NOT EXISTS edges_by_dst ON edges(dst_id, src_id);

-- name: BEGIN_IMMEDIATE
-- Starts the one transaction of a full rebuild.
BEGIN IMMEDIATE

-- name: COMMIT
COMMIT

-- name: ROLLBACK
ROLLBACK

-- name: CLEAR_INDEX_BATCH
-- A full rebuild empties every table, children first: each then empties without per-row
-- foreign-key work.
DELETE FROM edges;
DELETE FROM mentions;
DELETE FROM names;
DELETE FROM files;

-- name: DELETE_META
-- Removes `meta` key ?1.
DELETE FROM meta WHERE key = ?1

-- name: FILE_COUNT
SELECT count(*) FROM files

-- name: EDGE_COUNT
SELECT count(*) FROM edges

-- name: SKIPPED_BY_REASON
-- `(reason, count)` of the skipped files.
SELECT reason, count(*) FROM skipped GROUP BY reason

-- name: SKIPPED_PATHS
SELECT path FROM skipped

-- name: SKIPPED_ROWS
-- `(path, reason, size, mtime_ns)` of every skipped file.
SELECT path, reason, size, mtime_ns FROM skipped

-- name: STAT_BY_PATH
-- `(size, mtime_ns, hash)` of the indexed file at path ?1.
SELECT size, mtime_ns, hash FROM files WHERE path = ?1

-- name: STORED_BY_PATH
-- `(id, size, mtime_ns, hash)` of the indexed file at path ?1.
SELECT id, size, mtime_ns, hash FROM files WHERE path = ?1

-- name: STORED_FILES
-- `(id, path, size, mtime_ns, hash)` of every indexed file.
SELECT id, path, size, mtime_ns, hash FROM files

-- name: CHANGE_DATES
-- `(hash, content_changed_at)` of every indexed file: a full rebuild keeps the dates.
SELECT hash, content_changed_at FROM files

-- name: CHANGE_DATE_OF
-- `(hash, content_changed_at)` of file ?1.
SELECT hash, content_changed_at FROM files WHERE id = ?1

-- name: INDEXED_FILES
-- `(id, path, hash, frontmatter name)` of every indexed file.
SELECT f.id, f.path, f.hash, n.name FROM files f
LEFT JOIN names n ON n.file_id = f.id AND n.kind = 'frontmatter'

-- name: FILE_PATHS
-- `(id, path)` of every indexed file.
SELECT id, path FROM files

-- name: ALL_NAMES
-- `(name, file_id)` of every name.
SELECT name, file_id FROM names

-- name: DISTINCT_NAMES
SELECT DISTINCT name FROM names

-- name: NAME_COUNT
SELECT count(*) FROM names

-- name: NAME_EXISTS
-- Whether some file bears name ?1.
SELECT 1 FROM names WHERE name = ?1 LIMIT 1

-- name: MAX_NAME_LEN
-- The byte length of the longest name (0 when none).
SELECT coalesce(max(length(CAST(name AS BLOB))), 0) FROM names

-- name: BEARERS
-- `(file_id, path)` of the files bearing name ?1.
SELECT n.file_id, f.path FROM names n JOIN files f ON f.id = n.file_id WHERE n.name = ?1

-- name: NAMES_OF_FILE
SELECT name FROM names WHERE file_id = ?1

-- name: FILES_UNDER
-- How many indexed and skipped files lie in [?1, ?2): below a folder `F` with ?1 = 'F/' and
-- ?2 = 'F0'.
SELECT (SELECT count(*) FROM files WHERE path >= ?1 AND path < ?2)
     + (SELECT count(*) FROM skipped WHERE path >= ?1 AND path < ?2)

-- name: NAMES_WRITTEN_THROUGH
-- The names of mentions and edges whose written path holds a folder matching the LIKE
-- pattern ?1 (`%name/%`, `\` escaping).
SELECT name FROM mentions WHERE via LIKE ?1 ESCAPE '\'
UNION
SELECT name FROM edges WHERE via LIKE ?1 ESCAPE '\'

-- name: NAMES_UNDER
-- The names borne by files whose path lies in [?1, ?2): every file below a folder `F` with
-- ?1 = 'F/' and ?2 = 'F0' ('0' follows '/').
SELECT DISTINCT n.name FROM files f JOIN names n ON n.file_id = f.id
WHERE f.path >= ?1 AND f.path < ?2

-- name: NAMES_MENTIONED_UNDER
-- The names that files whose path lies in [?1, ?2) mention or reach by an edge: a plugin
-- manifest coming or going above them moves the boundary their mentions are decided across.
SELECT DISTINCT m.name FROM files f JOIN mentions m ON m.src_id = f.id
WHERE f.path >= ?1 AND f.path < ?2
UNION
SELECT DISTINCT e.name FROM files f JOIN edges e ON e.src_id = f.id
WHERE f.path >= ?1 AND f.path < ?2

-- name: FRONTMATTER_NAME
-- The frontmatter name file ?1 bears, if any.
SELECT name FROM names WHERE file_id = ?1 AND kind = 'frontmatter' LIMIT 1

-- name: MENTION_SOURCES
-- Ids of files with an unresolved mention of name ?1.
SELECT DISTINCT src_id FROM mentions WHERE name = ?1

-- name: OWN_NAMES
-- The names file ?1 bears, but its basename.
SELECT name FROM names WHERE file_id = ?1 AND kind != 'basename'

-- name: ENTRY_NAMES
-- The names of mentions and edges bound through a package's entry point (`cue::ENTRY`, bit 31).
SELECT name FROM mentions WHERE cue & 2147483648 != 0
UNION
SELECT name FROM edges WHERE cue & 2147483648 != 0

-- name: PACKAGE_PATH_NAMES
-- The names of mentions and edges written through a bare path (`body-parser/raw`), which a
-- `package.json` may map into the tree (`refs::own_package_file`), and of scripts run by name
-- (`cue::SCRIPT`, bit 47: `refs::script_file` reads what the script runs).
SELECT name FROM mentions WHERE via != '' AND substr(via, 1, 1) NOT IN ('.', '/', '~', '$')
  OR cue & 140737488355328 != 0
UNION
SELECT name FROM edges WHERE via != '' AND substr(via, 1, 1) NOT IN ('.', '/', '~', '$')
  OR cue & 140737488355328 != 0

-- name: EDGE_NAMES_FROM_PATH
-- `(name, dst path)` of the edges of the file at path ?1 (none when it is not indexed).
SELECT e.name, d.path FROM edges e JOIN files d ON d.id = e.dst_id
WHERE e.src_id = (SELECT id FROM files WHERE path = ?1)

-- name: MENTIONS_OF_NAME
-- `(src_id, src path, line, text, cue, via)` of the unresolved mentions of name ?1 (`via` is
-- stored as '' where none was written).
SELECT m.src_id, f.path, m.line, m.text, m.cue, nullif(m.via, '') FROM mentions m
JOIN files f ON f.id = m.src_id WHERE m.name = ?1

-- name: EDGES_OF_NAME_INTO
-- `(src_id, src path, line, text, cue, via)` of the edges into file ?1 made by name ?2.
SELECT e.src_id, f.path, e.line, e.text, e.cue, e.via FROM edges e
JOIN files f ON f.id = e.src_id WHERE e.dst_id = ?1 AND e.name = ?2

-- name: INSERT_FILE
-- A file just added: (?1 path, ?2 size, ?3 mtime_ns, ?4 now); its hash stays empty until read.
INSERT INTO files(path, size, mtime_ns, hash, scanned_at, content_changed_at)
VALUES (?1, ?2, ?3, '', ?4, ?4)

-- name: INSERT_NAME
-- (?1 file_id, ?2 name, ?3 kind).
INSERT INTO names(file_id, name, kind) VALUES (?1, ?2, ?3)

-- name: INSERT_MENTION
-- An unresolved mention: (?1 src_id, ?2 name, ?3 line, ?4 text, ?5 cue, ?6 via, ?7 weak).
INSERT INTO mentions(src_id, name, line, text, cue, via, weak)
VALUES (?1, ?2, ?3, ?4, ?5, coalesce(?6, ''), ?7)

-- name: INSERT_EDGE
-- A resolved mention: (?1 src_id, ?2 dst_id, ?3 name, ?4 line, ?5 text, ?6 resolution, ?7 cue,
-- ?8 via, ?9 kind). Two written paths of one line lead to two files; should two ever lead to
-- the same one, the first written stays (the key has no place for the second).
INSERT OR IGNORE INTO edges(src_id, dst_id, name, line, text, resolution, cue, via, kind)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)

-- name: INSERT_SKIP
-- (?1 path, ?2 reason, ?3 size, ?4 mtime_ns).
INSERT OR REPLACE INTO skipped(path, reason, size, mtime_ns) VALUES (?1, ?2, ?3, ?4)

-- name: CLEAR_SKIPPED
DELETE FROM skipped

-- name: DELETE_SKIP
DELETE FROM skipped WHERE path = ?1

-- name: SET_STAT
-- Same content, new stat: (?1 id, ?2 size, ?3 mtime_ns).
UPDATE files SET size = ?2, mtime_ns = ?3 WHERE id = ?1

-- name: SET_SCANNED
-- A file read and scanned: (?1 id, ?2 size, ?3 mtime_ns, ?4 hash, ?5 now, ?6 content changed
-- at, NULL to keep it).
UPDATE files SET size = ?2, mtime_ns = ?3, hash = ?4, scanned_at = ?5,
content_changed_at = coalesce(?6, content_changed_at) WHERE id = ?1

-- name: UNRESOLVE_EDGES_INTO
-- The edges into file ?1 (not its own) become unresolved mentions before it leaves.
INSERT OR IGNORE INTO mentions(src_id, name, line, text, cue, via)
SELECT src_id, name, line, text, cue, coalesce(via, '') FROM edges WHERE dst_id = ?1 AND src_id <> ?1

-- name: UNRESOLVE_EDGES_BY_NAME
-- The edges into file ?1 made by name ?2 become unresolved mentions (the file loses the name).
INSERT OR IGNORE INTO mentions(src_id, name, line, text, cue, via)
SELECT src_id, name, line, text, cue, coalesce(via, '') FROM edges WHERE dst_id = ?1 AND name = ?2

-- name: DELETE_EDGES_OF_FILE
-- Edges from or into file ?1.
DELETE FROM edges WHERE src_id = ?1 OR dst_id = ?1

-- name: DELETE_EDGES_FROM
DELETE FROM edges WHERE src_id = ?1

-- name: DELETE_MENTIONS_FROM
DELETE FROM mentions WHERE src_id = ?1

-- name: DELETE_NAMES_OF_FILE
DELETE FROM names WHERE file_id = ?1

-- name: DELETE_FILE
DELETE FROM files WHERE id = ?1

-- name: DELETE_EDGES_BY_NAME
-- Edges into file ?1 made by name ?2.
DELETE FROM edges WHERE dst_id = ?1 AND name = ?2

-- name: DELETE_NAME
-- Name ?2 of file ?1.
DELETE FROM names WHERE file_id = ?1 AND name = ?2

-- name: DELETE_EDGE_AT
-- The edge of mention (?1 src_id, ?2 name, ?3 line, ?4 via).
DELETE FROM edges WHERE src_id = ?1 AND name = ?2 AND line = ?3 AND via IS ?4

-- name: DELETE_MENTION_AT
-- The unresolved mention (?1 src_id, ?2 name, ?3 line, ?4 via).
DELETE FROM mentions WHERE src_id = ?1 AND name = ?2 AND line = ?3 AND via = coalesce(?4, '')
