-- The index remembers the size and mtime of a skipped file, so an unchanged binary or unreadable
-- file is not read again on every incremental run.
ALTER TABLE skipped ADD COLUMN mtime_ns INTEGER;
