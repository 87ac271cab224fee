-- name: transitive
-- Transitive dependents of a file up to :depth hops, each with its shortest chain of mentions.
-- `chain` reads "a -> b -> file": a mentions b, which mentions the file. Each dependent appears
-- once, at its smallest depth; among equally short chains the one through the smallest file id
-- is shown. Cycles are harmless: a file reached again is not expanded again at a larger depth.
-- param: :file path  The file, root-relative (an absolute path inside the root also works).
-- param: :depth int = 3  Maximum number of hops (1 = direct dependents only).
WITH RECURSIVE
    target(id) AS (SELECT id FROM files WHERE path = :file),
    -- Reachability by (file, depth); bounded by files x depth rows, whatever the graph's shape.
    reach(id, depth) AS (
        SELECT id, 0 FROM target
        UNION
        SELECT e.src_id, r.depth + 1
        FROM reach AS r
        JOIN edges AS e ON e.dst_id = r.id
        WHERE r.depth < :depth
    ),
    best(id, depth) AS (SELECT id, min(depth) FROM reach GROUP BY id),
    -- One parent per file: a file it mentions that sits one hop closer to the target.
    parent(id, depth, next) AS (
        SELECT b.id, b.depth,
               (SELECT min(e.dst_id)
                FROM edges AS e
                JOIN best AS p ON p.id = e.dst_id AND p.depth = b.depth - 1
                WHERE e.src_id = b.id)
        FROM best AS b
        WHERE b.depth > 0
    ),
    -- Walk each dependent's parents down to the target, writing the chain as it goes.
    walk(start, cur, chain) AS (
        SELECT p.id, p.id, f.path
        FROM parent AS p JOIN files AS f ON f.id = p.id
        UNION ALL
        SELECT w.start, p.next, w.chain || ' -> ' || f.path
        FROM walk AS w
        JOIN parent AS p ON p.id = w.cur
        JOIN files AS f ON f.id = p.next
    )
SELECT f.path AS path,
       b.depth AS depth,
       w.chain AS chain
FROM walk AS w
JOIN target AS t ON t.id = w.cur
JOIN best AS b ON b.id = w.start
JOIN files AS f ON f.id = w.start
ORDER BY b.depth, f.path
