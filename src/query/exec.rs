//! Running one statement into a `Sink`: canned queries and ad-hoc SQL alike.
//!
//! Owns the read-only guard for ad-hoc SQL and the shape of SQL errors (the message, then the
//! failing SQL with a caret under the offending token when SQLite says where). The connection
//! is expected to be `store::open_readonly`; the guard here refuses writes before SQLite would,
//! so the message says why. Invariant: a statement that could write is never stepped.

use anyhow::Result;
use rusqlite::types::Value;
use rusqlite::{Connection, Statement};

use super::catalog::CannedQuery;
use super::format::Sink;
use super::params;
use crate::error::usage;

/// Runs a canned query with already resolved parameter values; returns the number of rows.
pub fn run_canned(
    conn: &Connection,
    q: &CannedQuery,
    values: &[(String, Value)],
    sink: &mut dyn Sink,
) -> Result<u64> {
    let mut stmt = prepare(conn, q.sql)?;
    params::bind(&mut stmt, values)?;
    stream(&mut stmt, q.sql, sink)
}

/// Runs ad-hoc SQL: one read-only statement whose named parameters come from `given` (as text).
pub fn run_adhoc(
    conn: &Connection,
    sql: &str,
    given: &[(String, String)],
    sink: &mut dyn Sink,
) -> Result<u64> {
    refuse_side_doors(sql)?;
    let mut stmt = prepare(conn, sql)?;
    if !stmt.readonly() {
        return Err(usage(format!(
            "refused: ad-hoc SQL is read-only and this statement would write; nothing was changed\n{}",
            indent(sql)
        )));
    }
    let used = params::used_names(&stmt)?;
    let specs: Vec<_> = used
        .iter()
        .map(|n| super::catalog::ParamSpec {
            name: n.clone(),
            ty: super::catalog::ParamType::Text,
            default: None,
            description: "a named parameter of the ad-hoc SQL".to_string(),
        })
        .collect();
    let values = params::resolve("the ad-hoc SQL", &specs, given, &|s| Ok(s.to_string()))?;
    params::bind(&mut stmt, &values)?;
    stream(&mut stmt, sql, sink)
}

/// `run_adhoc` stopped after `limit` (an endless recursive CTE would otherwise run until killed):
/// a timer thread interrupts the statement, which then fails with a message naming the limit.
pub fn run_adhoc_within(
    conn: &Connection,
    sql: &str,
    given: &[(String, String)],
    sink: &mut dyn Sink,
    limit: Option<std::time::Duration>,
) -> Result<u64> {
    let Some(limit) = limit else {
        return run_adhoc(conn, sql, given, sink);
    };
    let handle = conn.get_interrupt_handle();
    let (done, wait) = std::sync::mpsc::channel::<()>();
    let timer = std::thread::spawn(move || {
        if wait.recv_timeout(limit) == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
            handle.interrupt();
            return true;
        }
        false
    });
    let result = run_adhoc(conn, sql, given, sink);
    let _ = done.send(());
    let fired = timer.join().unwrap_or(false);
    match result {
        Err(_) if fired => Err(anyhow::anyhow!(
            "stopped: the SQL ran longer than the time limit of {} s (--time-limit SECS, 0 for \
             none; SRC_QUERY_TIME_LIMIT); nothing was changed",
            limit.as_secs()
        )),
        other => other,
    }
}

/// Pragmas that take an argument only to say what to read.
const READING_PRAGMAS: &[&str] = &[
    "table_info",
    "table_xinfo",
    "table_list",
    "index_list",
    "index_info",
    "index_xinfo",
    "foreign_key_list",
    "foreign_key_check",
    "integrity_check",
    "quick_check",
];

/// Statements that `sqlite3_stmt_readonly` calls read-only yet reach outside the database file
/// or change the connection: ATTACH/DETACH (another file), VACUUM (`VACUUM INTO` writes a new
/// file) and pragma assignments (`PRAGMA query_only = 0`). Decided on SQL tokens, not text:
/// quoted names (`PRAGMA [query_only]=0`, ``PRAGMA `writable_schema`=ON``) are names too.
fn refuse_side_doors(sql: &str) -> Result<()> {
    let toks = tokens(sql);
    let word = |i: usize| match toks.get(i) {
        Some(Tok::Word(w)) => Some(w.to_ascii_uppercase()),
        _ => None,
    };
    let refused = match word(0).as_deref() {
        Some(w @ ("ATTACH" | "DETACH" | "VACUUM")) => Some(w.to_string()),
        Some("PRAGMA") => {
            // PRAGMA [schema .] name [= value | (value)]
            let (name, next) = match (toks.get(1), toks.get(2), toks.get(3)) {
                (Some(Tok::Word(_)), Some(Tok::Punct('.')), Some(Tok::Word(n))) => (n.clone(), 4),
                (Some(Tok::Word(n)), ..) => (n.clone(), 2),
                _ => (String::new(), 1),
            };
            let sets = match toks.get(next) {
                Some(Tok::Punct('=')) => true,
                Some(Tok::Punct('(')) => {
                    !READING_PRAGMAS.contains(&name.to_ascii_lowercase().as_str())
                }
                _ => false,
            };
            sets.then(|| format!("setting PRAGMA {name}"))
        }
        _ => None,
    };
    match refused {
        Some(what) => Err(usage(format!(
            "refused: {what} is not allowed in ad-hoc SQL (read-only, this database only); \
             nothing was changed\n{}",
            indent(sql)
        ))),
        None => Ok(()),
    }
}

/// An SQL token: a keyword or name (quoted names unquoted), a literal, or one punctuation mark.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word(String),
    Literal,
    Punct(char),
}

/// SQLite's lexical rules, as far as the guard needs them: comments skipped, `"x"`, `[x]` and
/// `` `x` `` are names, `'x'` is a string (doubled quotes escape), numbers and blobs literals.
fn tokens(sql: &str) -> Vec<Tok> {
    let b: Vec<char> = sql.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '-' && b.get(i + 1) == Some(&'-') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && b.get(i + 1) == Some(&'*') {
            i += 2;
            while i < b.len() && !(b[i] == '*' && b.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if matches!(c, '"' | '`' | '\'' | '[') {
            let close = if c == '[' { ']' } else { c };
            let mut text = String::new();
            i += 1;
            while i < b.len() {
                if b[i] == close {
                    if close != ']' && b.get(i + 1) == Some(&close) {
                        text.push(close);
                        i += 2;
                        continue;
                    }
                    break;
                }
                text.push(b[i]);
                i += 1;
            }
            i += 1;
            out.push(if c == '\'' {
                Tok::Literal
            } else {
                Tok::Word(text)
            });
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let st = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_' || b[i] == '$') {
                i += 1;
            }
            let w: String = b[st..i].iter().collect();
            if w.starts_with(|ch: char| ch.is_ascii_digit()) {
                out.push(Tok::Literal);
            } else {
                out.push(Tok::Word(w));
            }
        } else {
            out.push(Tok::Punct(c));
            i += 1;
        }
    }
    out
}

fn prepare<'c>(conn: &'c Connection, sql: &str) -> Result<Statement<'c>> {
    if sql.trim().is_empty() {
        return Err(usage("the SQL is empty"));
    }
    conn.prepare(sql).map_err(|e| sql_error(&e, sql))
}

fn stream(stmt: &mut Statement<'_>, sql: &str, sink: &mut dyn Sink) -> Result<u64> {
    let columns: Vec<String> = stmt.column_names().iter().map(|c| c.to_string()).collect();
    let n = columns.len();
    sink.begin(&columns)?;
    let mut rows = stmt.raw_query();
    let mut count = 0;
    loop {
        let row = match rows.next() {
            Ok(Some(row)) => row,
            Ok(None) => break,
            Err(e) => return Err(runtime_error(&e, sql)),
        };
        let values: Vec<_> = (0..n)
            .map(|i| row.get_ref(i))
            .collect::<rusqlite::Result<_>>()?;
        sink.row(&values)?;
        count += 1;
    }
    sink.end()?;
    Ok(count)
}

fn indent(sql: &str) -> String {
    sql.trim_end()
        .lines()
        .map(|l| format!("  | {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A preparation error: a usage error (exit 2) showing the SQL and, when known, where.
fn sql_error(e: &rusqlite::Error, sql: &str) -> anyhow::Error {
    match e {
        rusqlite::Error::MultipleStatement => usage(format!(
            "give one statement at a time (found more after the first `;`)\n{}",
            indent(sql)
        )),
        rusqlite::Error::SqlInputError { msg, offset, .. } => {
            usage(format!("SQL error: {msg}\n{}", caret(sql, *offset)))
        }
        other => usage(format!("SQL error: {other}\n{}", indent(sql))),
    }
}

/// An error while stepping: a readonly refusal is still the user's doing (exit 2); anything else
/// (a busy database, I/O) is an ordinary failure (exit 1). Both show the SQL.
fn runtime_error(e: &rusqlite::Error, sql: &str) -> anyhow::Error {
    let code = e.sqlite_error_code();
    let msg = format!("SQLite error while running: {e}\n{}", indent(sql));
    match code {
        Some(rusqlite::ErrorCode::ReadOnly) => usage(format!(
            "refused: the database is open read-only; nothing was changed\n{}",
            indent(sql)
        )),
        Some(rusqlite::ErrorCode::ApiMisuse) | None => usage(msg),
        Some(_) => anyhow::anyhow!(msg),
    }
}

/// The SQL with a `^` under byte `offset`.
fn caret(sql: &str, offset: i32) -> String {
    let offset = usize::try_from(offset).unwrap_or(0).min(sql.len());
    let mut out = Vec::new();
    let mut start = 0;
    for line in sql.trim_end().split('\n') {
        out.push(format!("  | {line}"));
        let end = start + line.len();
        if (start..=end).contains(&offset) && !out.iter().any(|l: &String| l.contains('^')) {
            let col = sql[start..offset].chars().count();
            out.push(format!("  | {}^", " ".repeat(col)));
        }
        start = end + 1;
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_skip_comments_and_unquote_names() {
        let t = tokens("  -- x\n /* y */ attach 'a' as [b c]");
        assert_eq!(t[0], Tok::Word("attach".into()));
        assert_eq!(t[1], Tok::Literal);
        assert_eq!(t[3], Tok::Word("b c".into()));
        assert!(tokens("").is_empty());
        assert!(refuse_side_doors("  -- x\n /* y */ attach 'a' as b").is_err());
    }

    #[test]
    fn quoted_pragma_names_are_names() {
        for sql in [
            "PRAGMA [query_only]=0",
            "PRAGMA `writable_schema`=ON",
            "PRAGMA \"locking_mode\"=EXCLUSIVE",
            "PRAGMA main.[query_only] = 0",
            "-- x\n PRAGMA \"query_only\"(0)",
        ] {
            assert!(refuse_side_doors(sql).is_err(), "{sql}");
        }
        assert!(refuse_side_doors("SELECT '[PRAGMA x=1]' AS t").is_ok());
        assert!(refuse_side_doors("PRAGMA \"table_info\"(files)").is_ok());
    }

    #[test]
    fn pragma_assignments_are_refused_and_reads_allowed() {
        for sql in [
            "PRAGMA query_only = 0",
            "pragma main.foreign_keys=OFF",
            "PRAGMA query_only(0)",
            "/* c */ PRAGMA user_version = 3",
            "attach 'x' as y",
            "VACUUM INTO 'x'",
        ] {
            assert!(refuse_side_doors(sql).is_err(), "{sql}");
        }
        for sql in [
            "PRAGMA user_version",
            "PRAGMA table_info(files)",
            "PRAGMA main.index_list('edges')",
            "SELECT 1",
        ] {
            assert!(refuse_side_doors(sql).is_ok(), "{sql}");
        }
    }

    #[test]
    fn caret_points_at_the_offset() {
        let c = caret("SELECT *\nFROM nope WHERE", 14);
        assert_eq!(c, "  | SELECT *\n  | FROM nope WHERE\n  |      ^");
    }
}
