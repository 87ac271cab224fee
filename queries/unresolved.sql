-- name: unresolved
-- Mentions of a file name that resolved to no edge, with why: `ambiguous` or `gone`.
-- `ambiguous`: several files bear the name and none was chosen. `gone`: no indexed file bears
-- the name any more (its file was deleted or renamed since the mention was scanned).
-- What it can tell: only names the scan knew when it read the mentioning file. A mention of a
-- file deleted before that scan, or of a path that never existed, is not recorded anywhere.
-- `gone` rows last until the mentioning file is read again (then the name is no longer known).
-- Self mentions (the file's own name, borne by it alone) are not listed.
WITH
    open_mention(src_id, name, line, text) AS (
        SELECT m.src_id, m.name, m.line, m.text
        FROM mentions AS m
        WHERE NOT EXISTS (
            SELECT 1 FROM edges AS e
            WHERE e.src_id = m.src_id AND e.line = m.line AND e.name = m.name
        )
    ),
    counted(src_id, name, line, text, bearers, self) AS (
        SELECT o.src_id, o.name, o.line, o.text,
               (SELECT count(*) FROM names AS n WHERE n.name = o.name),
               EXISTS (SELECT 1 FROM names AS n WHERE n.name = o.name AND n.file_id = o.src_id)
        FROM open_mention AS o
    )
SELECT f.path AS file,
       c.line AS line,
       c.name AS name,
       CASE
           WHEN c.bearers = 0 THEN 'gone'
           WHEN c.bearers > 1 THEN 'ambiguous'
           ELSE 'unresolved'
       END AS reason,
       c.bearers AS bearers,
       c.text AS evidence
FROM counted AS c
JOIN files AS f ON f.id = c.src_id
WHERE NOT (c.bearers = 1 AND c.self)
ORDER BY f.path, c.line, c.name
