-- name: dependents
-- Direct dependents of a file: every file that mentions it, where, with the line as evidence.
-- `resolution` is `unique`, or `nearest` when the name was shared and the closest bearer won.
-- param: :file path  The file, root-relative (an absolute path inside the root also works).
SELECT s.path AS src,
       e.line AS line,
       -- (A file named beside the writer by its conventional name, `settings.json`, was
       -- written as that name: its folder is the resolution's, not the line's.)
       CASE WHEN instr(e.text, e.name) = 0 AND e.via LIKE '%/_%'
                 AND instr(e.text, substr(e.via, length(rtrim(e.via, replace(e.via, '/', ''))) + 1)) > 0
            THEN substr(e.via, length(rtrim(e.via, replace(e.via, '/', ''))) + 1)
            ELSE e.name END AS pattern,
       e.text AS evidence,
       e.resolution AS resolution
FROM edges AS e
JOIN files AS s ON s.id = e.src_id
WHERE e.dst_id = (SELECT id FROM files WHERE path = :file)
ORDER BY s.path, e.line
