-- Statements of the query engine itself (`query/schema.rs`); the canned queries users run live
-- in `queries/`, and ad-hoc SQL comes from the user. Each becomes `store::sql::query::NAME`; a
-- test prepares every one against the latest schema.

-- name: SCHEMA_OBJECTS
-- Every table, view, index and trigger: (type, name, tbl_name, sql), tables first (each
-- followed by its indexes and triggers), then views.
SELECT type, name, tbl_name, sql FROM sqlite_master
WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
ORDER BY CASE type WHEN 'view' THEN 1 ELSE 0 END, tbl_name,
         CASE type WHEN 'table' THEN 0 ELSE 1 END, name
