-- name: orphans
-- Indexed files that neither mention another file nor are mentioned by one.
-- Self mentions do not count (the index does not store them as edges).
SELECT f.path AS path,
       f.size AS size
FROM files AS f
WHERE NOT EXISTS (SELECT 1 FROM edges AS e WHERE e.src_id = f.id)
  AND NOT EXISTS (SELECT 1 FROM edges AS e WHERE e.dst_id = f.id)
ORDER BY f.path
