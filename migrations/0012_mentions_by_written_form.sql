-- A line may name two files of one name by their folders (`common/coding-style.md` then
-- `golang/coding-style.md`; a language switcher linking every translated README.md): each
-- written path is a mention of its own. A mention is now keyed by its written form too, which
-- becomes NOT NULL ('' where the name was written bare), as a WITHOUT ROWID key must be.
-- The table is rebuilt (SQLite cannot change a key in place), keeping its rows; the view
-- reading it is recreated around it.
DROP VIEW mention_paths;

CREATE TABLE mentions_new (
    src_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    name   TEXT    NOT NULL,
    line   INTEGER NOT NULL,                      -- 1-based
    text   TEXT    NOT NULL,                      -- the line around the name, at most 200 chars
    cue    INTEGER NOT NULL DEFAULT 0,
    via    TEXT    NOT NULL DEFAULT '',           -- the written path, module or namespace; '' if none
    weak   INTEGER NOT NULL DEFAULT 0 CHECK (weak IN (0, 1)),
    PRIMARY KEY (src_id, line, name, via)
) STRICT, WITHOUT ROWID;
INSERT INTO mentions_new(src_id, name, line, text, cue, via, weak)
SELECT src_id, name, line, text, cue, coalesce(via, ''), weak FROM mentions;
DROP TABLE mentions;
ALTER TABLE mentions_new RENAME TO mentions;
CREATE INDEX mentions_by_name ON mentions(name, weak);

-- As in 0010.
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
