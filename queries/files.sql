-- name: files
-- Every indexed file, with its size, content hash and when the index last read it.
-- Stable columns (path first); the reference-graph benchmark reads them.
SELECT path,
       size,
       mtime_ns,
       hash,
       scanned_at,
       content_changed_at
FROM files
ORDER BY path
