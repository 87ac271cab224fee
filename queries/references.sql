-- name: references
-- What a file mentions: every file it references, where, with the line as evidence.
-- param: :file path  The file, root-relative (an absolute path inside the root also works).
SELECT d.path AS dst,
       e.line AS line,
       e.name AS pattern,
       e.text AS evidence,
       e.resolution AS resolution
FROM edges AS e
JOIN files AS d ON d.id = e.dst_id
WHERE e.src_id = (SELECT id FROM files WHERE path = :file)
ORDER BY e.line, d.path
