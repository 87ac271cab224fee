-- Statements of the store (`store/mod.rs`, and the recorder's checkpoint in `events/record.rs`):
-- the `meta` table and the pragmas that are read as queries. Pragmas that only set a
-- connection's mode go through rusqlite's `pragma_update`. Each statement becomes
-- `store::sql::store::NAME`; a test prepares every one against the latest schema.

-- name: META_GET
-- ?1 key → its value.
SELECT value FROM meta WHERE key = ?1

-- name: META_SET
-- Sets (?1 key, ?2 value), replacing an older value.
INSERT INTO meta(key, value) VALUES (?1, ?2)
ON CONFLICT(key) DO UPDATE SET value = excluded.value

-- name: USER_VERSION
-- The schema version the migrations recorded.
PRAGMA user_version

-- name: COUNT_SCHEMA_OBJECTS
-- Reads the schema: the cheapest statement that fails on a file SQLite cannot use.
SELECT count(*) FROM sqlite_master

-- name: QUICK_CHECK
-- SQLite's page check, stopping at the first problem: `ok` when none.
PRAGMA quick_check(1)

-- name: CHECKPOINT_TRUNCATE
-- Checkpoints the WAL and truncates it; returns a row, so it is read as a query.
PRAGMA wal_checkpoint(TRUNCATE)
