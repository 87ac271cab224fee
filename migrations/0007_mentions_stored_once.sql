-- A mention is stored once: as an edge when it resolves to a file, else in `mentions` (an
-- unresolved mention: a self mention, a tie between same-named files, or a name no file bears).
-- A full rebuild wrote every mention twice before this; the copies of resolved ones go.
DELETE FROM mentions
WHERE EXISTS (
    SELECT 1 FROM edges AS e
    WHERE e.src_id = mentions.src_id AND e.line = mentions.line AND e.name = mentions.name
);

DROP VIEW mention_paths;

-- Every mention, resolved or not, with the mentioning file's path, and how many indexed files
-- bear the name now (0: the named file is gone; more than 1: ambiguous).
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
