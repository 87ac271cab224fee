-- name: cycles
-- Mutual references: pairs that mention each other (length 2) and triangles (length 3).
-- Each cycle is listed once, rotated to start at its smallest path: "a -> b -> a" means a
-- mentions b and b mentions a.
WITH
    -- Straight on the edge table's primary key (src_id, dst_id, ...): no materialised copy.
    found(length, x, y, z) AS (
        SELECT DISTINCT 2, e1.src_id, e1.dst_id, NULL
        FROM edges AS e1
        WHERE e1.src_id < e1.dst_id
          AND EXISTS (SELECT 1 FROM edges AS e2
                      WHERE e2.src_id = e1.dst_id AND e2.dst_id = e1.src_id)
        UNION ALL
        SELECT DISTINCT 3, e1.src_id, e1.dst_id, e2.dst_id
        FROM edges AS e1
        JOIN edges AS e2 ON e2.src_id = e1.dst_id AND e2.dst_id > e1.src_id
        WHERE e1.src_id < e1.dst_id
          AND e2.dst_id <> e1.dst_id
          AND EXISTS (SELECT 1 FROM edges AS e3
                      WHERE e3.src_id = e2.dst_id AND e3.dst_id = e1.src_id)
    ),
    named(length, p, q, r) AS (
        SELECT length, fx.path, fy.path, fz.path
        FROM found
        JOIN files AS fx ON fx.id = x
        JOIN files AS fy ON fy.id = y
        LEFT JOIN files AS fz ON fz.id = z
    ),
    -- Rotate so the smallest path comes first (the direction of the cycle is kept).
    rotated(length, p, q, r) AS (
        SELECT length, min(p, q), max(p, q), NULL FROM named WHERE length = 2
        UNION ALL
        SELECT length,
               CASE WHEN p < q AND p < r THEN p WHEN q < r THEN q ELSE r END,
               CASE WHEN p < q AND p < r THEN q WHEN q < r THEN r ELSE p END,
               CASE WHEN p < q AND p < r THEN r WHEN q < r THEN p ELSE q END
        FROM named WHERE length = 3
    )
SELECT length,
       p || ' -> ' || q || coalesce(' -> ' || r, '') || ' -> ' || p AS cycle
FROM rotated
ORDER BY length, cycle
