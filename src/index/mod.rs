//! The index: walks the scope, reads files, and keeps `files`, `names`, `mentions` and `edges`
//! equal to what a full scan would produce.
//!
//! Owns the write side of the reference graph (`walk` finds files, `plan` compares them with the
//! store, `read` reads and scans on workers, `apply` writes with one writer). Reads belong to
//! `graph`. Invariant: after `run` or `refresh_paths` returns, the tables equal those of
//! `src index --full` on the same tree (for `refresh_paths`: when only the given paths changed).

mod apply;
mod plan;
mod read;
mod status;

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::time::Instant;

use anyhow::Result;
use rusqlite::Connection;
use serde::Serialize;

use crate::ctx::Ctx;
// The walk is scanning's; `super::walk` in the phases below names it.
use crate::scan::walk;
use crate::store::sql::index as sql;
use crate::store::{meta_get, meta_set};

pub(crate) use apply::{root_is_client, tree_of, RootDisk};
pub use status::status;

/// `meta` keys written by the index.
pub const META_LAST_FULL: &str = "last_full_scan";
pub const META_LAST_INCREMENTAL: &str = "last_incremental_scan";
pub const META_FINGERPRINT: &str = "index_config";
pub const META_IN_PROGRESS: &str = "index_in_progress";

#[derive(Debug, Clone, Default)]
pub struct IndexOptions {
    /// Rebuild from nothing instead of comparing with what is stored.
    pub full: bool,
    /// Draw a progress bar on stderr (only when it is a terminal).
    pub progress: bool,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct IndexReport {
    pub mode: String,
    pub files_in_scope: u64,
    pub files_read: u64,
    pub added: u64,
    pub changed: u64,
    pub removed: u64,
    pub renamed: u64,
    pub edges: u64,
    pub skipped: BTreeMap<String, u64>,
    pub duration_ms: u64,
    /// Why the run did what it did (a full rebuild forced by a config change, …).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// What the index was built with: scope, naming rules, the size limit and the version of the
/// reference rules. A different value means the stored graph no longer follows them.
pub fn fingerprint(config: &crate::config::Config, root: &std::path::Path) -> String {
    let basis = serde_json::json!({
        // Whether the root is a user's client folder, which some rules read (`scan::refs`):
        // a root that becomes one, or stops being one, is read anew.
        "client_root": root_is_client(root),
        "scope": config.scope,
        "names": config.names,
        "max_file_bytes": config.limits.max_file_bytes,
        // The version of the reference rules: a binary whose rules decide differently rebuilds
        // the graph on its first run instead of keeping edges the old rules made. 3: a
        // Markdown file is also known by its frontmatter `name:`; 4: paths per folder, runs of
        // words, commands by invocation, a sibling nearest (issue 13, sixth pass); 5: agents in
        // subfolders, a folder's file by link or drawing, a skill's name in code (seventh); 6:
        // a Python import names its module, not the packages on the way (eighth); 7: a
        // document's one-word stem needs a cue, relative imports are exact (ninth); 8: a
        // documentation site's pages are no things, a thing's bare name is the thing's (tenth);
        // 9: names bound through a package's entry point, cued names across plugins, no slash
        // for an agent, things of another kind, empty packages (eleventh); 10: parenthesised
        // Python imports over lines, keys that take an agent, a command's namespace, a
        // conventional file's name beside it, clients' copies, alias imports (twelfth); 11:
        // plugins by the nearest manifest, a template's output name is not its name, a
        // namespace crosses a self mention (thirteenth); 12: names re-exported by a package,
        // a glossary's term, a template named as a template, camel case in code's prose;
        // 13: a re-export's candidate words bounded as names are; 14: `from P import m` of
        // modules only is no use of P's `__init__.py`, dotted imports from a folder holding
        // the importer, "the x sub-module", data files and dotted script stems by file name,
        // identifiers, installed skills, commands a skill keeps, link targets, suites
        // (fourteenth); 15: installs into the client's folder of a kind, a collection's
        // agents across plugins, a folder holding the writer, skills' reference material,
        // patches, quoted command words, word lists, namespace placeholders, a module's own
        // name in its import list, `skill_name` keys (fifteenth); 16: a package a package
        // manager runs or installs, a template's own compound file name, the skill invoked
        // where a command shares its name, a script run as a program, a
        // private name patched through a dotted string, a drawing of the writer's own folder
        // under another name, a namespace among copies, the client's plugin installs, pathlib
        // joins (sixteenth); 17: a placeholder for a folder heads a path, a backup
        // copy yields to the live file, extension modules, a join call's folders, rosters of
        // up to sixteen slashed names, a shell substitution's folder, an example's relative
        // import with folders, a path to an existing folder, a site's page paths, submodules a
        // package's `__init__.py` imports from, a broken relative path
        // kept inside its plugin (seventeenth); 18: a root project file named from below, a
        // folder on the way up nearer than another branch, a tie between copies by the
        // writer's or a URL's folder, a script's absolute import beside it, a brace set under
        // a placeholder, a vendored container shared by no two projects, short names, archived
        // copies, a moved file's folders (eighteenth); 19: a date or number is no stem, a
        // test yields to the file it is named after, a script's folder variable, a spread,
        // an annotated parameter's default, a class named after its package (nineteenth);
        // 20: a hyphenated module name in a comment of code, a module reached through a module
        // file that imports it, an import of compiled output by its `tsconfig.json`, names used
        // through a package (`tenacity.stop_x`, `bodyParser.raw`) asked of its entry, quoted
        // annotations (twentieth); 21: a name through a folder's barrel or a barrel of
        // barrels, a member an entry spreads from a folder's entry, a module before its
        // folder's barrel, a path of the tree's own package namespace by its `package.json`,
        // camel case in code is no document, a return type before an arrow, a command
        // line's program in a shell example (twenty-first); 22: a common word in capitals
        // names the document so named, a file owns the folder beside it named as it is, a
        // module's own folder in a template literal, the client's folder alone names no
        // installed copy, a quoted sentence is no path, a web API's route is no invocation
        // (twenty-second); 23: bats's `load`, an agent defined in YAML, a plugin manifest's
        // paths from its plugin, a file name closing a longer path, a shell script's own
        // folder variables, a package's `__all__` as imports, a shell command's run of words
        // as a path, a template's variable named after a kind of folder, a skill's variant
        // declaring its name is named with it, a document's own frontmatter `name:` line is
        // no mention, a file name inside a longer dotted one is not its own, a string of code
        // holding a command's name alone is a value (twenty-third); 24: a path's brace
        // alternatives, a documentation folder named after a command or an agent, a drawing
        // under a root that leads nowhere, a column headed by an agent's kind, a user's client
        // folder kept as the repository, a module with its package closing a quoted
        // sentence or standing for all of it (`tqdm.gui.*`) (twenty-fourth); 25: a desktop's
        // duplicate (`x 2.md`) yields to its original, `importlib.import_module("p.m")`
        // binds its module (twenty-fourth, later); 26: an invoked skill names the command of
        // its name too, an invocation speaks before a path through a folder of its name, a
        // string of code naming a distinctive file of another language is that file wherever
        // it is (twenty-fifth); 27: outside plugins, a bare name of a thing the tree keeps on
        // its own and in a plugin is its own copy (twenty-fifth, later); 28: a verb's -ing
        // form is as common as the verb, a skill's plain name is not its own from a skill kept
        // inside it, a document's phrase name (`go-to-market`) outside its skill is the phrase;
        // 29: a compound name in title case (`Security-Auditor`) is found in lower case, an
        // agent's, skill's or command's only (twenty-fifth, later); 30: `/x page` is a web
        // app's page, no invocation; 31: an invoked skill's argument is the file the skill
        // keeps of that name (`/chronicle stale`), a program of a name speaks of itself by it,
        // a skill's own tests name its SKILL.md (twenty-sixth); 32: a hidden conventional file
        // (`.mcp.json`) written alone is the one beside the writer, "that" after a verb of
        // checking opens a clause (twenty-sixth, later); 33: an example's bare import of a
        // distinctive module (`from audit_pdf_engine import`) is the tree's module; 34: a
        // path's brace set spaced after its commas (`rules/{a, b}`) expands as one unspaced;
        // 35: a fixture's bare name outside its fixtures and tests is no name of it, an agent
        // in a folder of its own (`agents/x/AGENT.md`) or as data (`agents/yaml/x.yaml`) is an
        // agent (twenty-seventh); 36: a capitalised word said to be an agent ("Core agent")
        // and a list the kind's word introduces ("agents (designer, core)") name agents;
        // OpenCode's singular `.opencode/agent/` and `.opencode/command/` hold its things, an
        // output style is named by its frontmatter title; 37: "any `.claude/settings.json`" is
        // the kind of file; 38: "the project's `CLAUDE.md`" in an agent, skill or command a
        // kit ships is any project's, "the global `CLAUDE.md`" and "your own `CLAUDE.md`" are
        // not the project's, a file names another kind of thing of its own name when the line
        // says which ("spawns the my-review agent"), what is spawned is an agent, a skill's
        // `SKILL.md` names the documents beside it by their stems in code spans
        // (twenty-eighth); 39: a skill's name run as a program is the program it wraps,
        // `./CLAUDE.md` in an agent at work on any project is that project's, a stub a script
        // writes in a folder `mktemp` made is its own, a route between names in a code span
        // (`` `a → b` ``) runs nothing; 40: a variable named for a kind
        // (`RECOMMENDED_SKILLS+=("x" "y")`) says its items are things of that kind; 41: a
        // namespace not invoked that no bearer is kept under is another scheme's
        // (`"test:coverage"`), a file name before a colon is no namespace; 42: a skill is a
        // program's package by its manifest only (`package.json`, `pyproject.toml`,
        // `Cargo.toml`), which the index re-decides its folder's names by; 43: a path closed
        // by a set of extensions (`scripts/x.{sh,ps1}`) is each file it expands to; 44
        // (twenty-ninth): a package script run (`npm run x`), a name before `:word`, a closing
        // tag and a name after a bare dot (`*.test.sh`) name no file; a test names its subject
        // in strings; a folder's `README.md` names its documents by stem in code spans; "the
        // global `CLAUDE.md`" in a client folder is the root's; a kit's, a hook's or a test's
        // `README.md` is not the root's; a value in data is no folder's topic; 45: a name
        // declared in title case, written so within a sentence, is a proper name (an agent's
        // persona, `name: "Advocate"`); a package script's arguments are no scripts; 46: a
        // plugin is called by its manifest's name as well as its folder's
        // (`claude-workflow:planner` for `plugin/`); a kit's `.gitignore` is its project's;
        // 47: a run of words joined by `/` that is the path of a file without an extension
        // (`bin/minify-md`) names it; 48: a script without an extension whose first line
        // says shell is a shell script (`$SCRIPT_DIR/lib/x.sh` is beside it); 49: a plugin's
        // skills' references name the plugin's agents by their role nouns.
        // 50: a kind of file said after a name (`the x prompt`) is the file kept in such a folder;
        // a `.claude/` copy over a source copy; a compound skill name in a program's string;
        // `.x.yml` in prose is a dotfile; a script folder found through links is the script's.
        // 51: "the Setup skill", "the Review command": a capitalised word said to be a skill or
        // a command is the thing; a script run by name (`pnpm gen`) is the file it runs.
        // 52: a name a script runs with options (`cli.js x --choice`), in an argument list,
        // or after "the CLI", is a program's subcommand; a path through a placeholder is no
        // moved file; a plugin's path from a root is the plugin's copy; `CLAUDE.md §3` cites
        // the tree's own. 53: a line naming a copy's plugin is decided by that line, not by
        // the decision a file's other line made for the name. 54: `name@1.0` is the thing at a
        // version, not a plugin installed from a marketplace. 55: keys that say the kind in
        // camel case (`agentType:`, `commandName:`).
        "rules": 55,
    });
    blake3::hash(basis.to_string().as_bytes()).to_hex()[..16].to_string()
}

/// A test hook: `SRC_FAIL_AT=NAME` makes the named point of an index run fail, so that the
/// all-or-nothing rebuild can be tested without filling a disk. Never set in normal use.
fn fail_point(name: &str) -> Result<()> {
    match std::env::var("SRC_FAIL_AT") {
        Ok(v) if v == name => anyhow::bail!("failure injected at `{name}` (SRC_FAIL_AT)"),
        _ => Ok(()),
    }
}

/// Walks the scope and brings the index up to date (`full` rebuilds it).
pub fn run(ctx: &Ctx, opts: &IndexOptions) -> Result<IndexReport> {
    let start = Instant::now();
    let mut conn = ctx.store.conn()?;
    let fp = fingerprint(&ctx.config, &ctx.ws.root);
    let mut notes = Vec::new();
    let mut full = opts.full;
    if !full && !built(&conn)? {
        full = true;
        notes.push("no complete index yet: full scan".to_string());
    } else if !full && meta_get(&conn, META_FINGERPRINT)?.as_deref() != Some(fp.as_str()) {
        full = true;
        notes.push(
            "scope, names, limits or the reference rules changed since the index was built: full rebuild".to_string(),
        );
    }
    let (plan, walk_errors) = plan::from_walk(&conn, || walk::walk(&ctx.ws, &ctx.config), full)?;
    let mut t = Instant::now();
    crate::trace::note(
        "src index",
        &format!("planned at {} ms", start.elapsed().as_millis()),
    );
    // A full rebuild is all or nothing: one transaction, so the previous index keeps answering
    // (other processes read their snapshot) until the new one commits, and a failure (a full
    // disk, a crash) leaves the previous one as it was. The guard holds that transaction and
    // the rebuild's pragmas, and restores the connection however the rebuild ends.
    let applied = if full {
        let mut guard = apply::RebuildGuard::begin(&mut conn)?;
        record(ctx, &mut guard, plan, opts, &fp, full).and_then(|r| {
            guard.commit()?;
            Ok(r)
        })
    } else {
        record(ctx, &mut conn, plan, opts, &fp, full)
    };
    let mut report =
        applied.map_err(|e| e.context("the index was left as it was before this run"))?;
    report.mode = if full { "full" } else { "incremental" }.to_string();
    if walk_errors > 0 {
        notes.push(format!(
            "{walk_errors} walk errors without a path (unreadable ignore files or directories)"
        ));
    }
    report.notes = notes;
    crate::trace::lap("src index", "applied", &mut t);
    finish(&conn, &mut report, start)?;
    crate::trace::lap("src index", "counted", &mut t);
    Ok(report)
}

/// Applies `plan` and records the run in `meta` (inside a full rebuild's transaction, if any).
fn record(
    ctx: &Ctx,
    conn: &mut Connection,
    plan: plan::Plan,
    opts: &IndexOptions,
    fp: &str,
    full: bool,
) -> Result<IndexReport> {
    if full {
        crate::store::write(conn, |tx| {
            meta_set(tx, META_IN_PROGRESS, &crate::clock::now())
        })?;
    }
    let progress = (opts.progress && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let report = apply::apply(ctx, conn, plan, progress.as_ref())?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    fail_point("before-commit")?;
    crate::store::write(conn, |tx| {
        let key = if full {
            META_LAST_FULL
        } else {
            META_LAST_INCREMENTAL
        };
        meta_set(tx, key, &crate::clock::now())?;
        meta_set(tx, META_FINGERPRINT, fp)?;
        tx.execute(sql::DELETE_META, [META_IN_PROGRESS])?;
        Ok(())
    })?;
    Ok(report)
}

fn finish(conn: &Connection, report: &mut IndexReport, start: Instant) -> Result<()> {
    report.files_in_scope = conn.query_row(sql::FILE_COUNT, [], |r| r.get::<_, i64>(0))? as u64;
    report.edges = conn.query_row(sql::EDGE_COUNT, [], |r| r.get::<_, i64>(0))? as u64;
    let mut stmt = conn.prepare_cached(sql::SKIPPED_BY_REASON)?;
    for row in stmt.query_map([], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64))
    })? {
        let (reason, n) = row?;
        report.skipped.insert(reason, n);
    }
    report.duration_ms = start.elapsed().as_millis() as u64;
    Ok(())
}

/// Refreshes exactly these root-relative paths without walking the tree: re-reads changed ones,
/// drops deleted ones, adds new ones that are in scope. Does nothing (and says so in `notes`)
/// when no index is built or the config changed since it was.
pub fn refresh_paths(ctx: &Ctx, paths: &[String]) -> Result<IndexReport> {
    let start = Instant::now();
    let mut conn = ctx.store.conn()?;
    let mut report = IndexReport {
        mode: "paths".into(),
        ..IndexReport::default()
    };
    if !built(&conn)? {
        report.notes.push("no index yet: run `src index`".into());
    } else if meta_get(&conn, META_FINGERPRINT)?.as_deref()
        != Some(fingerprint(&ctx.config, &ctx.ws.root).as_str())
    {
        report
            .notes
            .push("config changed since the index was built: run `src index`".into());
    } else {
        let plan = plan::from_paths(ctx, &conn, paths)?;
        report = apply::apply(ctx, &mut conn, plan, None)?;
        report.mode = "paths".into();
    }
    finish(&conn, &mut report, start)?;
    Ok(report)
}

/// How a file's index entry compares with the file on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Freshness {
    /// Indexed and unchanged since.
    Fresh,
    /// Indexed, but the file changed since it was read.
    Stale,
    /// Indexed, but the file no longer exists.
    Missing,
    /// Not in the index (new, out of scope, or never indexed).
    Unindexed,
}

fn built(conn: &Connection) -> Result<bool> {
    Ok(meta_get(conn, META_LAST_FULL)?.is_some() && meta_get(conn, META_IN_PROGRESS)?.is_none())
}

/// `is_built` on an open connection.
pub fn is_built_on(conn: &Connection) -> Result<bool> {
    built(conn)
}

/// Whether a full index has ever been built in this database (and none is half done).
pub fn is_built(ctx: &Ctx) -> Result<bool> {
    let conn = ctx.store.conn()?;
    built(&conn)
}

/// The freshness of each root-relative path (stat only; hashes only files whose stat differs).
pub fn freshness(ctx: &Ctx, paths: &[String]) -> Result<Vec<(String, Freshness)>> {
    let conn = ctx.store.conn()?;
    freshness_with(&conn, &ctx.ws.root, paths)
}

/// `freshness` on an open connection.
pub fn freshness_with(
    conn: &Connection,
    root: &std::path::Path,
    paths: &[String],
) -> Result<Vec<(String, Freshness)>> {
    use rusqlite::OptionalExtension;
    let mut stmt = conn.prepare_cached(sql::STAT_BY_PATH)?;
    let mut out = Vec::with_capacity(paths.len());
    for p in paths {
        let row: Option<(i64, i64, String)> = stmt
            .query_row([p], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()?;
        let f = match row {
            None => Freshness::Unindexed,
            Some((size, mtime, hash)) => file_freshness(root, p, size as u64, mtime, &hash),
        };
        out.push((p.clone(), f));
    }
    Ok(out)
}

/// Compares one indexed file with the disk: stat first, the hash only when the stat differs.
pub(crate) fn file_freshness(
    root: &std::path::Path,
    rel: &str,
    size: u64,
    mtime_ns: i64,
    hash: &str,
) -> Freshness {
    let abs = root.join(rel);
    match std::fs::metadata(&abs) {
        Ok(md) if md.is_file() => {
            if walk::stat_of(&md) == (size, mtime_ns) {
                return Freshness::Fresh;
            }
            match std::fs::read(&abs) {
                Ok(bytes) if blake3::hash(&bytes).to_hex().as_str() == hash => Freshness::Fresh,
                Ok(_) => Freshness::Stale,
                Err(_) => Freshness::Missing,
            }
        }
        _ => Freshness::Missing,
    }
}

#[cfg(test)]
mod tests;
