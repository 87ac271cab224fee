//! The SQLite store: opening, per-connection pragmas, embedded migrations, write transactions.
//!
//! Owns the database file and its schema; knows nothing about what the tables mean to commands.
//! Invariant: every connection gets `busy_timeout` first, then WAL, `synchronous=NORMAL` and
//! `foreign_keys=ON`; writers use `BEGIN IMMEDIATE`; the file is never replaced while open.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags, TransactionBehavior};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}
pub use embedded::{sql, MIGRATIONS, QUERIES};

/// Whether `word` (lowercase) is in the embedded list of common words.
pub fn is_listed_word(word: &[u8]) -> bool {
    use embedded::{COMMON_WORDS_AT, COMMON_WORDS_TEXT};
    let text = COMMON_WORDS_TEXT.as_bytes();
    COMMON_WORDS_AT
        .binary_search_by(|&at| {
            let rest = &text[at as usize..];
            rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())].cmp(word)
        })
        .is_ok()
}

/// How long a normal command waits for another writer before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

pub type Pool = r2d2::Pool<SqliteConnectionManager>;
pub type PooledConn = r2d2::PooledConnection<SqliteConnectionManager>;

/// A schema problem a caller may want to branch on (the hook spills instead of failing).
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    #[error(
        "database {path} has schema version {found}, newer than this binary understands ({known}); \
         upgrade src or point --db at another file"
    )]
    TooNew {
        path: String,
        found: u32,
        known: u32,
    },
}

/// The newest schema version this binary knows.
pub fn latest_version() -> u32 {
    MIGRATIONS.iter().map(|m| m.0).max().unwrap_or(0)
}

/// Page size of a new database. The index writes about a million narrow rows into a few
/// B-trees: with 8 KiB pages a full rebuild took 8-15% less time than with SQLite's default
/// 4 KiB on the three benchmark trees (same run; BENCHMARKS.md). 16 KiB gained a little more on
/// the index but made every hook's one-event commit slower (more bytes per page to the WAL).
pub const PAGE_SIZE: i64 = 8 * 1024;

/// Applies the per-connection pragmas, `busy_timeout` first so the others can wait for a lock.
pub fn configure(conn: &Connection, busy: Duration) -> rusqlite::Result<()> {
    conn.busy_timeout(busy)?;
    // Takes effect only on a database not yet written (before WAL mode is recorded in it); an
    // existing one keeps its page size. See PAGE_SIZE.
    conn.pragma_update(None, "page_size", PAGE_SIZE)?;
    let _mode: String = conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(())
}

/// Reads through a memory map: a process that reads much of a big database (a stop, a query)
/// then pays page faults for the pages it touches instead of a pread and a copy per page. Not
/// for the recorder, which reads a handful of pages: mapping would cost more than it saves.
fn map_reads(conn: &Connection) -> rusqlite::Result<()> {
    conn.pragma_update(None, "mmap_size", MMAP_BYTES)
}

/// Upper bound of the read map (address space only; untouched pages cost nothing).
const MMAP_BYTES: i64 = 1 << 30;

/// Brings the schema up to date in one `BEGIN IMMEDIATE` transaction; refuses a newer database.
pub fn migrate(conn: &mut Connection, path_for_errors: &Path) -> Result<()> {
    let current: u32 = conn.query_row(sql::store::USER_VERSION, [], |r| r.get(0))?;
    let known = latest_version();
    if current > known {
        return Err(SchemaError::TooNew {
            path: path_for_errors.display().to_string(),
            found: current,
            known,
        }
        .into());
    }
    if current == known {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    // Re-read inside the lock: another process may have migrated while we waited.
    let current: u32 = tx.query_row(sql::store::USER_VERSION, [], |r| r.get(0))?;
    for (num, name, sql) in MIGRATIONS.iter().filter(|m| m.0 > current) {
        tx.execute_batch(sql)
            .with_context(|| format!("applying migration {num:04}_{name}"))?;
        tx.pragma_update(None, "user_version", num)?;
    }
    tx.commit()?;
    Ok(())
}

/// A pooled handle on the database, for commands that may use several connections.
#[derive(Clone)]
pub struct Store {
    pool: Pool,
    path: PathBuf,
}

impl Store {
    /// Opens (creating if needed) and migrates the database at `path`.
    pub fn open(path: &Path) -> Result<Store> {
        Store::open_with(path, false)
    }

    /// `open` for a hook process: its connections skip the checkpoint SQLite runs when the last
    /// one closes (a checkpoint, an fsync and a WAL delete: most of a short process's cost).
    /// The WAL stays bounded by the automatic checkpoint and the next command's close.
    pub fn open_for_hook(path: &Path) -> Result<Store> {
        Store::open_with(path, true)
    }

    fn open_with(path: &Path, no_checkpoint_on_close: bool) -> Result<Store> {
        if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating directory {}", dir.display()))?;
            }
        }
        // A file that is no database (corrupt, truncated, a directory) is reported at once with
        // the way out; the pool would retry it until its connection timeout.
        if path.exists() {
            probe(path)?;
        }
        let manager = SqliteConnectionManager::file(path).with_init(move |c| {
            configure(c, BUSY_TIMEOUT)?;
            map_reads(c)?;
            if no_checkpoint_on_close {
                c.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
            }
            Ok(())
        });
        // min_idle 0: r2d2 otherwise opens connections before returning (max_size of them, or
        // keeps refilling the idle one from its thread while a command uses it); most commands
        // are short processes that need one, opened on first use and reused.
        let pool = r2d2::Pool::builder()
            .max_size(4)
            .min_idle(Some(0))
            // One worker thread instead of r2d2's three: most commands are short processes.
            .thread_pool(std::sync::Arc::new(
                scheduled_thread_pool::ScheduledThreadPool::new(1),
            ))
            .connection_timeout(Duration::from_secs(10))
            .build(manager)
            .with_context(|| format!("opening database {}", path.display()))?;
        let mut conn = pool
            .get()
            .with_context(|| format!("opening database {}", path.display()))?;
        migrate(&mut conn, path)?;
        drop(conn);
        Ok(Store {
            pool,
            path: path.to_path_buf(),
        })
    }

    pub fn conn(&self) -> Result<PooledConn> {
        self.pool
            .get()
            .with_context(|| format!("connecting to database {}", self.path.display()))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Opens `path` once and reads its schema: `Err` naming the file and the repair when SQLite
/// cannot use it.
pub fn probe(path: &Path) -> Result<()> {
    // Cheap enough for every command's start: the 16-byte header every SQLite file begins
    // with (random bytes, a truncated or foreign file fail here); an empty file is a new one.
    // Damage past the header is SQLite's to find, and its error comes at once.
    use std::io::Read;
    if path.is_dir() {
        return probe_with(path, false);
    }
    let mut head = [0u8; 16];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    if n == 0 || &head[..n.min(16)] == b"SQLite format 3\0" {
        return Ok(());
    }
    probe_with(path, false)
}

/// `probe`, and with `thorough` SQLite's `quick_check` too (reads every page: for `doctor`,
/// not for every command's start).
pub fn probe_with(path: &Path, thorough: bool) -> Result<()> {
    let broken = |e: &dyn std::fmt::Display| {
        anyhow::anyhow!(
            "database {} cannot be used ({e}): run `src doctor --repair` to move it aside \
             (it is kept), rebuild the index and bring back the spilled events",
            path.display()
        )
    };
    if path.is_dir() {
        return Err(broken(&"it is a directory"));
    }
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| broken(&e))?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| broken(&e))?;
    conn.query_row(sql::store::COUNT_SCHEMA_OBJECTS, [], |r| r.get::<_, i64>(0))
        .map_err(|e| broken(&e))?;
    if thorough {
        let check: String = conn
            .query_row(sql::store::QUICK_CHECK, [], |r| r.get(0))
            .map_err(|e| broken(&e))?;
        if check != "ok" {
            return Err(broken(&format!("quick_check: {check}")));
        }
    }
    Ok(())
}

/// One plain connection for short-lived processes (hooks): no pool thread, a caller-chosen busy
/// budget, and no checkpoint on close (the close-time checkpoint is most of a hook's cost).
/// Migrates only when the schema is behind.
pub fn open_fast(path: &Path, busy: Duration) -> Result<Connection> {
    let mut conn =
        Connection::open(path).with_context(|| format!("opening database {}", path.display()))?;
    configure(&conn, busy)?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
    migrate(&mut conn, path)?;
    Ok(conn)
}

/// A read-only connection (`PRAGMA query_only`, and the read-only open flag while another
/// process has the database open) for ad-hoc SQL. A read leaves no files behind: on a cleanly
/// closed database (no `-wal` beside it) the connection is opened read-write with `query_only`
/// on, so that closing it removes the `-wal` and `-shm` that opening created, as SQLite does for
/// the last connection; a read-only open could not remove them.
pub fn open_readonly(path: &Path) -> Result<Connection> {
    let wal = PathBuf::from(format!("{}-wal", path.display()));
    let flags = if wal.exists() {
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI
    } else {
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI
    };
    let conn = Connection::open_with_flags(path, flags)
        .with_context(|| format!("opening database {} read-only", path.display()))?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "query_only", "ON")?;
    map_reads(&conn)?;
    Ok(conn)
}

/// Runs `f` inside a `BEGIN IMMEDIATE` transaction and commits it.
///
/// Inside an outer transaction (a full rebuild runs as one, so that it is all or nothing) the
/// unit is a savepoint instead: it still applies whole or not at all within the outer one.
pub fn write<T>(conn: &mut Connection, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
    if !conn.is_autocommit() {
        let sp = conn.savepoint()?;
        let out = f(&sp)?;
        sp.commit()?;
        return Ok(out);
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let out = f(&tx)?;
    tx.commit()?;
    Ok(out)
}

/// Reads a `meta` value.
pub fn meta_get(conn: &Connection, key: &str) -> Result<Option<String>> {
    use rusqlite::OptionalExtension;
    Ok(conn
        .query_row(sql::store::META_GET, [key], |r| r.get(0))
        .optional()?)
}

/// Writes a `meta` value.
pub fn meta_set(conn: &Connection, key: &str, value: &str) -> Result<()> {
    conn.execute(sql::store::META_SET, [key, value])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word list is searched whole: its first and last words, one between, and words
    /// that sort before, after and between them are not in it.
    #[test]
    fn listed_words_are_found_from_first_to_last() {
        for w in ["a", "aardvark", "template", "zygotes"] {
            assert!(is_listed_word(w.as_bytes()), "{w}");
        }
        for w in ["", "0", "aardvarkz", "templatex", "zzzz", "Template"] {
            assert!(!is_listed_word(w.as_bytes()), "{w}");
        }
    }

    /// Every engine statement (`src/<module>/statements.sql`) against the latest schema, in
    /// file order: a `CREATE_…` statement or a `…_BATCH` runs (later ones may need what it
    /// makes; a batch cannot be prepared), every other one is prepared. A schema change that
    /// breaks a statement fails here, not in a user's command.
    #[test]
    fn every_engine_statement_fits_the_latest_schema() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        migrate(&mut conn, Path::new(":memory:"))?;
        let mut count = 0;
        for (module, statements) in sql::ALL {
            for (name, text) in *statements {
                let checked = if name.starts_with("CREATE_") || name.ends_with("_BATCH") {
                    conn.execute_batch(text)
                } else {
                    conn.prepare(text).map(drop)
                };
                checked.with_context(|| format!("src/{module}/statements.sql: {name}"))?;
                count += 1;
            }
        }
        assert!(count > 0, "no statements were found");
        Ok(())
    }

    /// Engine SQL has one home, `src/<module>/statements.sql`: no string literal in non-test code
    /// under `src/` may start with SELECT, INSERT, UPDATE, DELETE or WITH. Test code (a file
    /// named `tests.rs`, an item under `#[cfg(test)]`) keeps its own SQL; SQL typed by the user
    /// arrives as input, not as a literal.
    #[test]
    fn engine_sql_lives_only_in_statements_files() -> Result<()> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        rust_files(&root.join("src"), &mut files)?;
        files.sort();
        assert!(files.len() > 20, "src/ has too few .rs files: {files:?}");
        let mut found = Vec::new();
        for file in &files {
            let rel = file
                .strip_prefix(root)?
                .to_string_lossy()
                .replace('\\', "/");
            if rel.ends_with("/tests.rs") {
                continue;
            }
            let text = std::fs::read_to_string(file).with_context(|| rel.clone())?;
            for (line, literal) in literals(&without_test_items(&text)) {
                if starts_with_sql(&literal) {
                    found.push(format!("{rel}:{line}: {}", literal.trim()));
                }
            }
        }
        assert!(
            found.is_empty(),
            "SQL outside src/<module>/statements.sql:\n{}",
            found.join("\n")
        );
        Ok(())
    }

    /// The scanner itself: what counts as SQL, what is test code, what is a literal.
    #[test]
    fn the_sql_scanner_sees_literals_and_skips_tests() {
        assert!(starts_with_sql("SELECT 1"));
        assert!(starts_with_sql(
            "\\n   WITH s AS (SELECT 1) SELECT * FROM s"
        ));
        assert!(!starts_with_sql("selected files"));
        assert!(!starts_with_sql("Update the index first"));
        let code = "let a = \"x\"; // \"SELECT 1\"\n\
                    let b = r#\"\n  DELETE FROM t\"#; let c = '\"'; fn f<'a>() {}\n\
                    #[cfg(test)]\nmod tests {\n    \"SELECT 2\"\n}\n\
                    let d = \"INSERT \\\" x\";\n";
        let lits: Vec<(usize, String)> = literals(&without_test_items(code));
        let sql: Vec<usize> = lits
            .iter()
            .filter(|(_, l)| starts_with_sql(l))
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(sql, vec![2, 8], "{lits:?}");
    }

    /// Whether `literal` (as written in the source) begins, after blanks and `\n` escapes,
    /// with a statement keyword in capitals followed by a blank: how this project writes SQL,
    /// and unlike any message it prints.
    fn starts_with_sql(literal: &str) -> bool {
        let mut s = literal.trim_start();
        while let Some(rest) = s.strip_prefix("\\n") {
            s = rest.trim_start();
        }
        ["SELECT", "INSERT", "UPDATE", "DELETE", "WITH"]
            .iter()
            .any(|k| {
                s.strip_prefix(k)
                    .is_some_and(|rest| rest.starts_with(|c: char| c.is_whitespace() || c == '\\'))
            })
    }

    /// Every `.rs` file under `dir`.
    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
        for entry in std::fs::read_dir(dir).with_context(|| dir.display().to_string())? {
            let path = entry?.path();
            if path.is_dir() {
                rust_files(&path, out)?;
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
        Ok(())
    }

    /// `text` with each item under `#[cfg(test)]` blanked (lines kept, so line numbers hold):
    /// a `mod x;` line, or everything up to the `}` at the attribute's indentation (rustfmt's
    /// layout).
    fn without_test_items(text: &str) -> String {
        let mut out = Vec::new();
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            out.push(line);
            if line.trim() != "#[cfg(test)]" {
                continue;
            }
            let close = format!("{}}}", &line[..line.len() - line.trim_start().len()]);
            for (n, item) in lines.by_ref().enumerate() {
                out.push("");
                let one_line = n == 0 && item.trim_end().ends_with(';') && !item.contains('{');
                if one_line || item == close {
                    break;
                }
            }
        }
        out.join("\n")
    }

    /// `(line, text)` of each string literal in `code` (plain, raw, byte), outside comments and
    /// with char literals and lifetimes told apart; the text is as written, escapes kept.
    fn literals(code: &str) -> Vec<(usize, String)> {
        let c: Vec<char> = code.chars().collect();
        let mut out = Vec::new();
        let (mut i, mut line) = (0, 1);
        let newlines = |s: &[char]| s.iter().filter(|&&ch| ch == '\n').count();
        while i < c.len() {
            let at = |k: usize| c.get(k).copied().unwrap_or('\0');
            match c[i] {
                '\n' => line += 1,
                '/' if at(i + 1) == '/' => {
                    while i < c.len() && c[i] != '\n' {
                        i += 1;
                    }
                    continue;
                }
                '/' if at(i + 1) == '*' => {
                    let start = i;
                    i += 2;
                    while i < c.len() && !(c[i] == '*' && at(i + 1) == '/') {
                        i += 1;
                    }
                    i += 2;
                    line += newlines(&c[start..i.min(c.len())]);
                    continue;
                }
                '\'' if at(i + 1) == '\\' => {
                    i += 3;
                    while i < c.len() && c[i] != '\'' {
                        i += 1;
                    }
                }
                '\'' if at(i + 2) == '\'' => i += 2,
                'r' if (at(i + 1) == '"' || at(i + 1) == '#')
                    && (i == 0
                        || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_')
                        || c[i - 1] == 'b') =>
                {
                    let mut j = i + 1;
                    while at(j) == '#' {
                        j += 1;
                    }
                    if at(j) == '"' {
                        let hashes = j - i - 1;
                        let start = j + 1;
                        let mut k = start;
                        while k < c.len()
                            && !(c[k] == '"' && (1..=hashes).all(|h| at(k + h) == '#'))
                        {
                            k += 1;
                        }
                        out.push((line, c[start..k.min(c.len())].iter().collect()));
                        line += newlines(&c[start..k.min(c.len())]);
                        i = k + 1 + hashes;
                        continue;
                    }
                }
                '"' => {
                    let start = i + 1;
                    let mut k = start;
                    while k < c.len() && c[k] != '"' {
                        k += if c[k] == '\\' { 2 } else { 1 };
                    }
                    out.push((line, c[start..k.min(c.len())].iter().collect()));
                    line += newlines(&c[start..k.min(c.len())]);
                    i = k + 1;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        out
    }

    #[test]
    fn migrations_apply_and_reapply_is_a_noop() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        migrate(&mut conn, Path::new(":memory:"))?;
        let v: u32 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        assert_eq!(v, latest_version());
        migrate(&mut conn, Path::new(":memory:"))?;
        let v2: u32 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        assert_eq!(v, v2);
        Ok(())
    }

    #[test]
    fn migration_7_keeps_one_copy_of_each_mention() -> Result<()> {
        // A version-6 database stored every mention in `mentions`, resolved ones again in `edges`.
        let mut conn = Connection::open_in_memory()?;
        for (num, _, sql) in MIGRATIONS.iter().filter(|m| m.0 <= 6) {
            conn.execute_batch(sql)?;
            conn.pragma_update(None, "user_version", num)?;
        }
        conn.execute_batch(
            "INSERT INTO files(id, path, size, mtime_ns, hash, scanned_at, content_changed_at)
                 VALUES (1, 'a.md', 1, 1, 'h', 't', 't'), (2, 'b.md', 1, 1, 'h', 't', 't');
             INSERT INTO mentions(src_id, name, line, text)
                 VALUES (1, 'b.md', 3, 'see b.md'), (1, 'a.md', 4, 'I am a.md');
             INSERT INTO edges(src_id, dst_id, name, line, text, resolution)
                 VALUES (1, 2, 'b.md', 3, 'see b.md', 'unique');",
        )?;
        migrate(&mut conn, Path::new(":memory:"))?;
        let left: Vec<String> = conn
            .prepare("SELECT name FROM mentions")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        assert_eq!(
            left,
            vec!["a.md".to_string()],
            "the self mention stays, the copy goes"
        );
        let all: i64 = conn.query_row("SELECT count(*) FROM mention_paths", [], |r| r.get(0))?;
        assert_eq!(all, 2, "the view still lists every mention");
        Ok(())
    }

    #[test]
    fn migration_12_keys_mentions_by_their_written_form() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        for (num, _, sql) in MIGRATIONS.iter().filter(|m| m.0 <= 11) {
            conn.execute_batch(sql)?;
            conn.pragma_update(None, "user_version", num)?;
        }
        conn.execute_batch(
            "INSERT INTO files(id, path, size, mtime_ns, hash, scanned_at, content_changed_at)
                 VALUES (1, 'a.md', 1, 1, 'h', 't', 't');
             INSERT INTO mentions(src_id, name, line, text, cue, via, weak)
                 VALUES (1, 'x.md', 3, 'see x.md', 0, NULL, 1);",
        )?;
        migrate(&mut conn, Path::new(":memory:"))?;
        let via: String = conn.query_row("SELECT via FROM mentions", [], |r| r.get(0))?;
        assert_eq!(
            via, "",
            "a bare mention keeps its row, its written form empty"
        );
        // Two written paths of one name on one line are two mentions.
        conn.execute_batch(
            "INSERT INTO mentions(src_id, name, line, text, cue, via, weak)
                 VALUES (1, 'x.md', 3, 'see x.md', 0, 'a/x.md', 1),
                        (1, 'x.md', 3, 'see x.md', 0, 'b/x.md', 1);",
        )?;
        let n: i64 = conn.query_row("SELECT count(*) FROM mention_paths", [], |r| r.get(0))?;
        assert_eq!(n, 3);
        Ok(())
    }

    #[test]
    fn new_database_gets_the_page_size_an_existing_one_keeps_its_own() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let fresh = dir.path().join("fresh.db");
        Store::open(&fresh)?;
        let size: i64 =
            Connection::open(&fresh)?.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        assert_eq!(size, PAGE_SIZE);
        // A database written with 4 KiB pages (before this setting) opens and stays readable.
        let old = dir.path().join("old.db");
        {
            let c = Connection::open(&old)?;
            c.pragma_update(None, "page_size", 4096)?;
            c.execute_batch(
                "PRAGMA journal_mode=WAL; CREATE TABLE t(x); INSERT INTO t VALUES (7);",
            )?;
        }
        let store = Store::open(&old)?;
        let conn = store.conn()?;
        let size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        assert_eq!(size, 4096);
        let x: i64 = conn.query_row("SELECT x FROM t", [], |r| r.get(0))?;
        assert_eq!(x, 7);
        Ok(())
    }

    #[test]
    fn newer_database_is_refused() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        conn.pragma_update(None, "user_version", latest_version() + 1)?;
        let err = migrate(&mut conn, Path::new("x.db"))
            .err()
            .map(|e| e.to_string());
        assert!(err.unwrap_or_default().contains("newer than this binary"));
        Ok(())
    }

    #[test]
    fn migrations_are_numbered_uniquely() {
        let mut nums: Vec<u32> = MIGRATIONS.iter().map(|m| m.0).collect();
        let before = nums.len();
        nums.dedup();
        assert_eq!(before, nums.len(), "two migrations share a number");
    }
}
