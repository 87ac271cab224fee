-- Statements of `src doctor`'s engine (`doctor/`). Each becomes `store::sql::doctor::NAME`; a test
-- prepares every one against the latest schema.

-- name: USER_VERSION
-- The schema version the database records (read without migrating).
PRAGMA user_version

-- name: FILE_PATHS
-- Every indexed path, for the staleness check.
SELECT path FROM files

-- name: EVENT_COUNT
-- How many events the database holds (said after a repair).
SELECT count(*) FROM events
