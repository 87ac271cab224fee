-- Views for people (and agents) using the sqlite3 shell on .src/src.db: paths instead of ids.
-- Each view is documented by the comment block right above it (`src query --schema` prints it).

-- Resolved references with paths: src mentions dst by `pattern` at `line`; `evidence` is the line.
CREATE VIEW edge_paths AS
SELECT s.path AS src,
       d.path AS dst,
       e.name AS pattern,
       e.line AS line,
       e.text AS evidence,
       e.resolution AS resolution
FROM edges AS e
JOIN files AS s ON s.id = e.src_id
JOIN files AS d ON d.id = e.dst_id;

-- Who mentions whom, keyed by the mentioned file: `SELECT * FROM dependents WHERE file = 'x'`.
CREATE VIEW dependents AS
SELECT d.path AS file,
       s.path AS dependent,
       e.line AS line,
       e.name AS pattern,
       e.text AS evidence,
       e.resolution AS resolution
FROM edges AS e
JOIN files AS d ON d.id = e.dst_id
JOIN files AS s ON s.id = e.src_id;

-- Recorded edits with the indexed file they touched (NULL columns when the index lacks it) and
-- whether the edit is newer than the index's last read of that file.
CREATE VIEW event_paths AS
SELECT ev.id AS id,
       ev.ts AS ts,
       ev.session_id AS session_id,
       ev.tool_name AS tool,
       coalesce(nullif(ev.agent_type, ''), ev.agent_id, '') AS agent,
       coalesce(ev.path, ev.abs_path) AS path,
       ev.path IS NOT NULL AS inside_root,
       f.id AS file_id,
       f.scanned_at AS scanned_at,
       CASE WHEN f.id IS NULL THEN NULL
            ELSE julianday(ev.ts) > julianday(f.scanned_at) END AS after_scan,
       ev.source AS source
FROM events AS ev
LEFT JOIN files AS f ON f.path = ev.path;

-- Per-file counts: distinct dependents, distinct files it depends on (mentions), recorded edits.
CREATE VIEW file_stats AS
SELECT f.path AS path,
       f.size AS size,
       (SELECT count(DISTINCT e.src_id) FROM edges AS e WHERE e.dst_id = f.id) AS dependents,
       (SELECT count(DISTINCT e.dst_id) FROM edges AS e WHERE e.src_id = f.id) AS depends_on,
       (SELECT count(*) FROM events AS ev WHERE ev.path = f.path) AS edits,
       (SELECT max(ev.ts) FROM events AS ev WHERE ev.path = f.path) AS last_edit
FROM files AS f;

-- Raw mentions with the mentioning file's path, and how many indexed files bear the name now
-- (0: the named file is gone; more than 1: ambiguous).
CREATE VIEW mention_paths AS
SELECT f.path AS file,
       m.line AS line,
       m.name AS name,
       (SELECT count(*) FROM names AS n WHERE n.name = m.name) AS bearers,
       m.text AS evidence
FROM mentions AS m
JOIN files AS f ON f.id = m.src_id;
