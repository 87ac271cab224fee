-- name: unresolved
-- Mentions of a file name that resolved to no edge, with why: `ambiguous` or `gone`.
-- `ambiguous`: several files bear the name and none is nearer to the mentioning file (a tie).
-- `gone`: no indexed file bears the name any more (deleted or renamed since the mention was read).
-- What it can tell: only names the scan knew when it read the mentioning file. The index
-- rescans every file that mentioned a name when the name's last bearer goes (deleted or
-- renamed), so with a consistent index `gone` rows do not occur and a mention of a deleted file
-- or of a path that never existed is recorded nowhere; `gone` shows a database left mid-update.
-- Self mentions (the file's own name, borne by it alone) are not listed.
WITH
    open_mention(src_id, line, name) AS (
        SELECT m.src_id, m.line, m.name
        FROM mentions AS m
        WHERE NOT EXISTS (
            SELECT 1 FROM edges AS e
            WHERE e.src_id = m.src_id AND e.line = m.line AND e.name = m.name
        )
    ),
    -- Bearer counts once per name (one pass over the name index), not once per mention.
    bearers(name, n) AS MATERIALIZED (
        SELECT name, count(*) FROM names GROUP BY name
    ),
    counted(src_id, line, name, bearers) AS MATERIALIZED (
        SELECT o.src_id, o.line, o.name, coalesce(b.n, 0)
        FROM open_mention AS o
        LEFT JOIN bearers AS b ON b.name = o.name
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
       m.text AS evidence
FROM counted AS c
JOIN files AS f ON f.id = c.src_id
JOIN mentions AS m ON m.src_id = c.src_id AND m.line = c.line AND m.name = c.name
WHERE NOT (c.bearers = 1
           AND EXISTS (SELECT 1 FROM names AS n WHERE n.file_id = c.src_id AND n.name = c.name))
ORDER BY f.path, c.line, c.name
