-- The reference graph and the change-event log: the two things every other table builds on.
-- Paths are root-relative with '/' separators. Timestamps are ISO-8601 text with offset.

-- Key/value facts about the index: last_full_scan, last_incremental_scan, root, names_config.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;

-- Every file in scope that the index has read.
CREATE TABLE files (
    id                 INTEGER PRIMARY KEY,
    path               TEXT    NOT NULL UNIQUE,
    size               INTEGER NOT NULL,
    mtime_ns           INTEGER NOT NULL,
    hash               TEXT    NOT NULL,          -- blake3 of the content, hex
    scanned_at         TEXT    NOT NULL,          -- when the index last read the file
    content_changed_at TEXT    NOT NULL           -- when the index last saw the hash change
) STRICT;

-- The strings by which a file can be mentioned.
CREATE TABLE names (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    name    TEXT    NOT NULL,
    kind    TEXT    NOT NULL CHECK (kind IN ('path', 'basename', 'stem', 'parent', 'parent_basename')),
    PRIMARY KEY (file_id, name)
) STRICT, WITHOUT ROWID;
CREATE INDEX names_by_name ON names(name);

-- Unresolved mentions: boundary-valid occurrences of a known name that resolved to no file (a
-- resolved one is stored once, as an edge; see migration 0007). With the edges, every mention:
-- kept so that a name gaining or losing bearers re-resolves without re-reading files.
CREATE TABLE mentions (
    src_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    name   TEXT    NOT NULL,
    line   INTEGER NOT NULL,                      -- 1-based
    text   TEXT    NOT NULL,                      -- the line, trimmed, at most 200 chars
    PRIMARY KEY (src_id, line, name)
) STRICT, WITHOUT ROWID;
CREATE INDEX mentions_by_name ON mentions(name);

-- Resolved references: src mentions dst by `name` at `line`.
CREATE TABLE edges (
    src_id     INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    dst_id     INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    name       TEXT    NOT NULL,
    line       INTEGER NOT NULL,
    text       TEXT    NOT NULL,
    resolution TEXT    NOT NULL CHECK (resolution IN ('unique', 'nearest')),
    PRIMARY KEY (src_id, dst_id, line, name)
) STRICT, WITHOUT ROWID;
CREATE INDEX edges_by_dst ON edges(dst_id, src_id);

-- Files the walk saw in scope but did not read, and why (binary, too-large, unreadable).
CREATE TABLE skipped (
    path   TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    size   INTEGER
) STRICT;

-- One row per recorded edit (hook, spill journal, reconcile, import).
CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    session_id  TEXT NOT NULL,
    tool_name   TEXT NOT NULL,                    -- Edit, Write, MultiEdit, NotebookEdit, Reconcile, Import
    abs_path    TEXT NOT NULL,
    path        TEXT,                             -- root-relative when inside the root
    agent_id    TEXT,
    agent_type  TEXT,
    tool_use_id TEXT,
    cwd         TEXT,
    ts          TEXT NOT NULL,
    source      TEXT NOT NULL DEFAULT 'hook' CHECK (source IN ('hook', 'spill', 'reconcile', 'import', 'record'))
) STRICT;
CREATE INDEX events_by_session ON events(session_id, id);
CREATE INDEX events_by_path ON events(path);
-- Spill ingestion is idempotent: the same tool call is never recorded twice.
CREATE UNIQUE INDEX events_once ON events(session_id, tool_use_id, abs_path) WHERE tool_use_id IS NOT NULL;
