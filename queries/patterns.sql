-- name: patterns
-- Every name by which every file can be mentioned (path, basename, stem, ...), with its kind.
-- Stable columns: file, pattern, kind. The reference-graph benchmark feeds `pattern` to ripgrep.
SELECT f.path AS file,
       n.name AS pattern,
       n.kind AS kind
FROM names AS n
JOIN files AS f ON f.id = n.file_id
ORDER BY f.path, n.name
