-- name: unresolved
-- Mentions of a file name that resolved to no edge, with why: `ambiguous` or `gone`.
-- `ambiguous`: several files bear the name and none is nearer to the mentioning file (a tie).
-- `gone`: no indexed file bears the name any more (deleted or renamed since the mention was read).
-- What it can tell: only names the scan knew when it read the mentioning file. The index
-- rescans every file that mentioned a name when the name's last bearer goes (deleted or
-- renamed), so with a consistent index `gone` rows do not occur and a mention of a deleted file
-- or of a path that never existed is recorded nowhere; `gone` shows a database left mid-update.
-- A name borne by exactly one file always resolves to it (or is that file's own name, a self
-- mention, not listed), so only names with no bearer or several can leave a mention unresolved.
-- A mention is stored once (migration 0007): a row of `mentions` never has an edge beside it.
-- Weak mentions (a plain word, a path to another file: migration 0008) are in `weak`, not here.
WITH
    bearers(name, n) AS MATERIALIZED (
        SELECT name, count(*) FROM names GROUP BY name
    ),
    candidate(src_id, line, name, bearers, text) AS (
        SELECT m.src_id, m.line, m.name, b.n, m.text
        FROM bearers AS b
        JOIN mentions AS m ON m.name = b.name
        WHERE b.n > 1 AND m.weak = 0
          -- A file saying its own name (a command's usage of itself) is no tie.
          AND NOT EXISTS (SELECT 1 FROM names AS o WHERE o.file_id = m.src_id AND o.name = m.name)
        UNION ALL
        SELECT m.src_id, m.line, m.name, 0, m.text
        FROM mentions AS m
        WHERE m.weak = 0 AND NOT EXISTS (SELECT 1 FROM names AS n WHERE n.name = m.name)
    )
SELECT f.path AS file,
       c.line AS line,
       c.name AS name,
       CASE WHEN c.bearers = 0 THEN 'gone' ELSE 'ambiguous' END AS reason,
       c.bearers AS bearers,
       c.text AS evidence
FROM candidate AS c
JOIN files AS f ON f.id = c.src_id
ORDER BY f.path, c.line, c.name
