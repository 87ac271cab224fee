-- name: edges
-- Every resolved reference: `src` mentions `dst` by `pattern` at `line`; `evidence` is that line.
-- Stable columns: src, dst, pattern, line, evidence. Unresolved mentions are in `unresolved`.
SELECT s.path AS src,
       d.path AS dst,
       e.name AS pattern,
       e.line AS line,
       e.text AS evidence
FROM edges AS e
JOIN files AS s ON s.id = e.src_id
JOIN files AS d ON d.id = e.dst_id
ORDER BY s.path, e.line, d.path
