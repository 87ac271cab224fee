-- name: weak
-- Weak mentions: a name of a file occurring where it is no reference to it (a plain word without
-- a cue, a path that leads elsewhere, a URL), kept to be asked about; never an edge.
-- `via` is the written form around the name (a path, module or namespace) when there was one;
-- `cue` the bit flags of what the text around it said (see `scan::cue`).
SELECT f.path AS file,
       m.line AS line,
       m.name AS name,
       nullif(m.via, '') AS via,
       m.cue AS cue,
       m.text AS evidence
FROM mentions AS m
JOIN files AS f ON f.id = m.src_id
WHERE m.weak = 1
ORDER BY f.path, m.line, m.name
