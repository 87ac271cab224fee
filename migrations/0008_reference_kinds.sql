-- Kinds of reference (issue 13). A mention now carries what the text around it says about how
-- the name is used (`cue`, bit flags of `scan::cue`) and, when the name was written as part of
-- a path, module or namespace, that written form (`via`: `../common/style.md`,
-- `plugin_eval/models`, `conductor:`). Resolution decides from these and the bearers, so a name
-- gaining or losing bearers still re-resolves without re-reading files.
-- An edge says what kind of reference it is: `path` (a written path, relative or from the root),
-- `file` (a file name with its extension), `name` (the name of what the file defines: an agent,
-- command, skill, or a distinctive stem), `import` (a code import of the module). Every edge is
-- a strong reference; a plain-word occurrence without a cue is kept as a weak mention
-- (`mentions.weak = 1`, `src query weak`) and reaches no alert, impact, cascade or map.
ALTER TABLE mentions ADD COLUMN cue INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mentions ADD COLUMN via TEXT;
ALTER TABLE mentions ADD COLUMN weak INTEGER NOT NULL DEFAULT 0 CHECK (weak IN (0, 1));
ALTER TABLE edges ADD COLUMN cue INTEGER NOT NULL DEFAULT 0;
ALTER TABLE edges ADD COLUMN via TEXT;
ALTER TABLE edges ADD COLUMN kind TEXT NOT NULL DEFAULT 'name'
    CHECK (kind IN ('path', 'file', 'name', 'import', 'use'));
-- An alert says how many mentions of the changed files could not be attributed (ties), and a
-- merged delivery must say it too.
ALTER TABLE alerts ADD COLUMN unattributed INTEGER NOT NULL DEFAULT 0;
-- Mentions are looked up by name and whether they are weak (ties are counted per file for every
-- answer): the index carries `weak`, and with the key it holds `src_id`, so the count reads the
-- index alone.
DROP INDEX IF EXISTS mentions_by_name;
CREATE INDEX mentions_by_name ON mentions(name, weak);
