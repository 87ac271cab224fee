-- name: dependents
-- Direct dependents of a file: every file that mentions it, where, with the line as evidence.
-- `resolution` is `unique`, or `nearest` when the name was shared and the closest bearer won.
-- param: :file path  The file, root-relative (an absolute path inside the root also works).
SELECT s.path AS src,
       e.line AS line,
       e.name AS pattern,
       e.text AS evidence,
       e.resolution AS resolution
FROM edges AS e
JOIN files AS s ON s.id = e.src_id
WHERE e.dst_id = (SELECT id FROM files WHERE path = :file)
ORDER BY s.path, e.line
