-- name: edges
-- Every resolved reference: `src` mentions `dst` by `pattern` at `line`; `evidence` is that line.
-- Stable columns: src, dst, pattern, line, evidence, then kind: `path` (a written path, relative
-- or from the root), `file` (a file name with its extension), `name` (what the file defines: an
-- agent, command, skill, or a distinctive stem), `import` (a code import of the module).
-- Unresolved mentions are in `unresolved`, plain-word mentions in `weak`.
SELECT s.path AS src,
       d.path AS dst,
       -- (A file named beside the writer by its conventional name, `settings.json`, was
       -- written as that name: its folder is the resolution's, not the line's.)
       CASE WHEN instr(e.text, e.name) = 0 AND e.via LIKE '%/_%'
                 AND instr(e.text, substr(e.via, length(rtrim(e.via, replace(e.via, '/', ''))) + 1)) > 0
            THEN substr(e.via, length(rtrim(e.via, replace(e.via, '/', ''))) + 1)
            ELSE e.name END AS pattern,
       e.line AS line,
       e.text AS evidence,
       e.kind AS kind
FROM edges AS e
JOIN files AS s ON s.id = e.src_id
JOIN files AS d ON d.id = e.dst_id
ORDER BY s.path, e.line, d.path
