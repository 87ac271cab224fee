-- An agent is also known by the name the client's `@agent-<name>` mention uses
-- (`agent-debugger` for `agents/debugger.md`): names.kind gains 'invocation'. SQLite cannot
-- change a CHECK in place, so the table is rebuilt as in 0010, keeping its rows.
DROP VIEW mention_paths;

CREATE TABLE names_new (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    name    TEXT    NOT NULL,
    kind    TEXT    NOT NULL CHECK (kind IN ('path', 'basename', 'stem', 'parent',
                                             'parent_basename', 'frontmatter', 'invocation')),
    PRIMARY KEY (file_id, name)
) STRICT, WITHOUT ROWID;
INSERT INTO names_new(file_id, name, kind) SELECT file_id, name, kind FROM names;
DROP TABLE names;
ALTER TABLE names_new RENAME TO names;
CREATE INDEX names_by_name ON names(name);

-- As in 0012.
CREATE VIEW mention_paths AS
SELECT f.path AS file,
       m.line AS line,
       m.name AS name,
       (SELECT count(*) FROM names AS n WHERE n.name = m.name) AS bearers,
       m.text AS evidence
FROM (
    SELECT src_id, line, name, text FROM mentions
    UNION ALL
    SELECT src_id, line, name, text FROM edges
) AS m
JOIN files AS f ON f.id = m.src_id;
