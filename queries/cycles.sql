-- name: cycles
-- Mutual references: pairs that mention each other (length 2) and triangles (length 3).
-- Each cycle is listed once, rotated to start at its smallest path: "a -> b -> a" means a
-- mentions b and b mentions a.
WITH
    link(a, b) AS (SELECT DISTINCT src_id, dst_id FROM edges WHERE src_id <> dst_id),
    found(length, x, y, z) AS (
        SELECT 2, l1.a, l1.b, NULL
        FROM link AS l1
        JOIN link AS l2 ON l2.a = l1.b AND l2.b = l1.a
        WHERE l1.a < l1.b
        UNION ALL
        SELECT 3, l1.a, l1.b, l2.b
        FROM link AS l1
        JOIN link AS l2 ON l2.a = l1.b
        JOIN link AS l3 ON l3.a = l2.b AND l3.b = l1.a
        WHERE l1.a < l1.b AND l1.a < l2.b AND l2.b <> l1.a
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
