//! Tests of the canned SQL itself: every query prepares against the latest schema with exactly
//! the parameters its header declares, and each returns the expected rows on a small graph
//! written with INSERTs (the integration tests check the same on an indexed fixture tree).

use std::path::Path;

use anyhow::Result;
use rusqlite::types::ValueRef;
use rusqlite::Connection;

use super::catalog::{self, CannedQuery};
use super::format::Sink;
use super::{exec, params};
use crate::store;

/// Collects rows as text (NULL as `∅`), for assertions.
#[derive(Default)]
pub struct Collect {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Sink for Collect {
    fn begin(&mut self, columns: &[String]) -> Result<()> {
        self.columns = columns.to_vec();
        Ok(())
    }
    fn row(&mut self, values: &[ValueRef<'_>]) -> Result<()> {
        self.rows.push(
            values
                .iter()
                .map(|v| match v {
                    ValueRef::Null => "∅".to_string(),
                    ValueRef::Integer(n) => n.to_string(),
                    ValueRef::Real(f) => f.to_string(),
                    ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
                    ValueRef::Blob(_) => "<blob>".to_string(),
                })
                .collect(),
        );
        Ok(())
    }
    fn end(&mut self) -> Result<()> {
        Ok(())
    }
}

fn migrated() -> Result<Connection> {
    let mut conn = Connection::open_in_memory()?;
    store::migrate(&mut conn, Path::new(":memory:"))?;
    Ok(conn)
}

#[test]
fn every_canned_query_prepares_and_declares_exactly_the_parameters_it_uses() -> Result<()> {
    let conn = migrated()?;
    let all = catalog::all()?;
    let names: Vec<&str> = all.iter().map(|q| q.name.as_str()).collect();
    for want in [
        "files",
        "patterns",
        "edges",
        "dependents",
        "references",
        "transitive",
        "hotspots",
        "session-changes",
        "stale",
        "orphans",
        "cycles",
        "co-change",
        "unresolved",
    ] {
        assert!(names.contains(&want), "missing canned query {want}");
    }
    for q in &all {
        let stmt = conn
            .prepare(q.sql)
            .unwrap_or_else(|e| panic!("queries/{}.sql does not prepare: {e}", q.name));
        assert!(stmt.readonly(), "queries/{}.sql would write", q.name);
        let mut used = params::used_names(&stmt)?;
        let mut declared: Vec<String> = q.params.iter().map(|p| p.name.clone()).collect();
        used.sort();
        declared.sort();
        assert_eq!(used, declared, "queries/{}.sql: used vs declared", q.name);
    }
    Ok(())
}

/// A small graph: a chain d -> c -> b -> a, a pair a <-> b, a triangle x/SKILL.md -> y/SKILL.md
/// -> e.md -> x/SKILL.md, an orphan, an ambiguous mention, a gone name, a self mention, and three
/// sessions of edits after the scan.
/// Edge rows `(src id, dst id, name, line)`, each with the text `see NAME`.
fn insert_edges(conn: &Connection, edges: &[(i64, i64, &str, i64)]) -> Result<()> {
    for (src, dst, name, line) in edges {
        conn.execute(
            "INSERT INTO edges(src_id, dst_id, name, line, text, resolution)
             VALUES (?1, ?2, ?3, ?4, 'see ' || ?3, 'unique')",
            rusqlite::params![src, dst, name, line],
        )?;
    }
    Ok(())
}

fn graph() -> Result<Connection> {
    let conn = migrated()?;
    let now = chrono::Utc::now();
    let ago = |mins: i64| (now - chrono::Duration::minutes(mins)).to_rfc3339();
    let scanned = ago(600);
    let files = [
        (1, "a.md"),
        (2, "b.md"),
        (3, "c.md"),
        (4, "d.md"),
        (5, "lonely.md"),
        (6, "x/SKILL.md"),
        (7, "y/SKILL.md"),
        (8, "e.md"),
    ];
    for (id, path) in files {
        conn.execute(
            "INSERT INTO files(id, path, size, mtime_ns, hash, scanned_at, content_changed_at)
             VALUES (?1, ?2, 10, 0, 'h', ?3, ?3)",
            rusqlite::params![id, path, scanned],
        )?;
        conn.execute(
            "INSERT INTO names(file_id, name, kind) VALUES (?1, ?2, 'path')",
            rusqlite::params![id, path],
        )?;
    }
    for id in [6, 7] {
        conn.execute(
            "INSERT INTO names(file_id, name, kind) VALUES (?1, 'SKILL.md', 'basename')",
            [id],
        )?;
    }
    let edges = [
        (2, 1, "a.md", 1),
        (3, 2, "b.md", 2),
        (4, 3, "c.md", 3),
        (1, 2, "b.md", 5),
        (6, 7, "y/SKILL.md", 1),
        (7, 8, "e.md", 1),
        (8, 6, "x/SKILL.md", 1),
    ];
    // A resolved mention is stored once, as an edge (migration 0007).
    insert_edges(&conn, &edges)?;
    for (src, name, line) in [(1, "SKILL.md", 9), (3, "old.md", 7), (1, "a.md", 1)] {
        conn.execute(
            "INSERT INTO mentions(src_id, name, line, text) VALUES (?1, ?2, ?3, 'x')",
            rusqlite::params![src, name, line],
        )?;
    }
    conn.execute(
        "INSERT INTO meta(key, value) VALUES ('last_full_scan', ?1)",
        [&scanned],
    )?;
    let events = [
        ("s1", "Edit", "a.md", Some("implementer"), 50),
        ("s1", "Edit", "b.md", None, 40),
        ("s1", "Write", "new.md", None, 30),
        ("s2", "Edit", "a.md", None, 20),
        ("s2", "MultiEdit", "b.md", None, 10),
        ("s3", "Edit", "a.md", None, 5),
    ];
    for (session, tool, path, agent, mins) in events {
        conn.execute(
            "INSERT INTO events(session_id, tool_name, abs_path, path, agent_type, ts)
             VALUES (?1, ?2, '/r/' || ?3, ?3, ?4, ?5)",
            rusqlite::params![session, tool, path, agent, ago(mins)],
        )?;
    }
    Ok(conn)
}

fn run(conn: &Connection, name: &str, given: &[(&str, &str)]) -> Result<Collect> {
    let q: CannedQuery = catalog::find(name)?;
    let given: Vec<(String, String)> = given
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let values = params::resolve(name, &q.params, &given, &|s| Ok(s.to_string()))?;
    let mut out = Collect::default();
    exec::run_canned(conn, &q, &values, &mut out)?;
    Ok(out)
}

/// The first `n` columns of every row.
fn cols(c: &Collect, n: usize) -> Vec<Vec<String>> {
    c.rows.iter().map(|r| r[..n].to_vec()).collect()
}

fn rows(want: &[&[&str]]) -> Vec<Vec<String>> {
    want.iter()
        .map(|r| r.iter().map(|s| s.to_string()).collect())
        .collect()
}

#[test]
fn stable_columns_of_files_patterns_edges() -> Result<()> {
    let conn = graph()?;
    let files = run(&conn, "files", &[])?;
    assert_eq!(files.columns[0], "path");
    assert_eq!(files.rows.len(), 8);
    let patterns = run(&conn, "patterns", &[])?;
    assert_eq!(patterns.columns, ["file", "pattern", "kind"]);
    assert!(patterns.rows.contains(&vec![
        "x/SKILL.md".into(),
        "SKILL.md".into(),
        "basename".into()
    ]));
    let edges = run(&conn, "edges", &[])?;
    assert_eq!(
        edges.columns,
        ["src", "dst", "pattern", "line", "evidence", "kind"]
    );
    assert_eq!(edges.rows.len(), 7);
    assert_eq!(
        edges.rows[0],
        ["a.md", "b.md", "b.md", "5", "see b.md", "name"]
    );
    Ok(())
}

#[test]
fn dependents_and_references_of_one_file() -> Result<()> {
    let conn = graph()?;
    let deps = run(&conn, "dependents", &[("file", "b.md")])?;
    assert_eq!(cols(&deps, 2), rows(&[&["a.md", "5"], &["c.md", "2"]]));
    let refs = run(&conn, "references", &[("file", "a.md")])?;
    assert_eq!(cols(&refs, 3), rows(&[&["b.md", "5", "b.md"]]));
    assert!(run(&conn, "dependents", &[("file", "nope.md")])?
        .rows
        .is_empty());
    Ok(())
}

#[test]
fn transitive_gives_each_dependent_once_with_its_shortest_chain() -> Result<()> {
    let conn = graph()?;
    let t = run(&conn, "transitive", &[("file", "a.md")])?;
    assert_eq!(t.columns, ["path", "depth", "chain"]);
    assert_eq!(
        t.rows,
        rows(&[
            &["b.md", "1", "b.md -> a.md"],
            &["c.md", "2", "c.md -> b.md -> a.md"],
            &["d.md", "3", "d.md -> c.md -> b.md -> a.md"],
        ])
    );
    let t = run(&conn, "transitive", &[("file", "a.md"), ("depth", "2")])?;
    assert_eq!(t.rows.len(), 2);
    // A cycle is walked once: from x/SKILL.md the triangle comes back to itself and stops.
    let t = run(
        &conn,
        "transitive",
        &[("file", "x/SKILL.md"), ("depth", "10")],
    )?;
    assert_eq!(cols(&t, 2), rows(&[&["e.md", "1"], &["y/SKILL.md", "2"]]));
    Ok(())
}

#[test]
fn hotspots_rank_by_dependents_then_recent_edits() -> Result<()> {
    let conn = graph()?;
    let h = run(&conn, "hotspots", &[("limit", "2")])?;
    assert_eq!(
        h.columns,
        ["path", "dependents", "mentions", "edits", "last_edit"]
    );
    assert_eq!(
        cols(&h, 4),
        rows(&[&["b.md", "2", "2", "2"], &["a.md", "1", "1", "3"]])
    );
    Ok(())
}

#[test]
fn session_changes_group_by_file_tool_and_agent() -> Result<()> {
    let conn = graph()?;
    let s = run(&conn, "session-changes", &[("session", "s1")])?;
    assert_eq!(
        cols(&s, 4),
        rows(&[
            &["a.md", "Edit", "implementer", "1"],
            &["b.md", "Edit", "", "1"],
            &["new.md", "Write", "", "1"],
        ])
    );
    let latest = run(&conn, "session-changes", &[("session", "latest")])?;
    assert_eq!(cols(&latest, 2), rows(&[&["a.md", "Edit"]]));
    Ok(())
}

#[test]
fn stale_lists_edits_newer_than_the_scan() -> Result<()> {
    let conn = graph()?;
    let s = run(&conn, "stale", &[])?;
    let mut got = cols(&s, 2);
    got.sort();
    assert_eq!(
        got,
        rows(&[
            &["a.md", "edited"],
            &["b.md", "edited"],
            &["new.md", "unindexed"]
        ])
    );
    // Once a.md is re-read after its last edit, it is no longer stale.
    conn.execute(
        "UPDATE files SET scanned_at = ?1 WHERE path = 'a.md'",
        [chrono::Utc::now().to_rfc3339()],
    )?;
    let s = run(&conn, "stale", &[])?;
    assert!(!s.rows.iter().any(|r| r[0] == "a.md"));
    Ok(())
}

#[test]
fn orphans_cycles_co_change_unresolved() -> Result<()> {
    let conn = graph()?;
    assert_eq!(
        run(&conn, "orphans", &[])?.rows,
        rows(&[&["lonely.md", "10"]])
    );
    assert_eq!(
        run(&conn, "cycles", &[])?.rows,
        rows(&[
            &["2", "a.md -> b.md -> a.md"],
            &["3", "e.md -> x/SKILL.md -> y/SKILL.md -> e.md"],
        ])
    );
    assert_eq!(
        run(&conn, "co-change", &[])?.rows,
        rows(&[&["a.md", "b.md", "2", "1"]])
    );
    let u = run(&conn, "unresolved", &[])?;
    assert_eq!(
        cols(&u, 5),
        rows(&[
            &["a.md", "9", "SKILL.md", "ambiguous", "2"],
            &["c.md", "7", "old.md", "gone", "0"],
        ])
    );
    Ok(())
}

#[test]
fn cycles_are_listed_once_when_a_pair_has_many_mentions() -> Result<()> {
    let conn = graph()?;
    // More lines mentioning the same files: several edge rows per (src, dst) pair.
    insert_edges(
        &conn,
        &[
            (1, 2, "b.md", 6),
            (1, 2, "b.md", 7),
            (2, 1, "a.md", 9),
            (6, 7, "y/SKILL.md", 2),
            (7, 8, "e.md", 3),
            (8, 6, "x/SKILL.md", 4),
        ],
    )?;
    assert_eq!(
        run(&conn, "cycles", &[])?.rows,
        rows(&[
            &["2", "a.md -> b.md -> a.md"],
            &["3", "e.md -> x/SKILL.md -> y/SKILL.md -> e.md"],
        ])
    );
    Ok(())
}

#[test]
fn views_answer_with_paths() -> Result<()> {
    let conn = graph()?;
    let n: i64 = conn.query_row(
        "SELECT count(*) FROM dependents WHERE file = 'b.md'",
        [],
        |r| r.get(0),
    )?;
    assert_eq!(n, 2);
    let (deps, on, edits): (i64, i64, i64) = conn.query_row(
        "SELECT dependents, depends_on, edits FROM file_stats WHERE path = 'a.md'",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    assert_eq!((deps, on, edits), (1, 1, 3));
    let after: i64 = conn.query_row(
        "SELECT count(*) FROM event_paths WHERE after_scan AND path = 'a.md'",
        [],
        |r| r.get(0),
    )?;
    assert_eq!(after, 3);
    let src: String = conn.query_row("SELECT src FROM edge_paths WHERE dst = 'a.md'", [], |r| {
        r.get(0)
    })?;
    assert_eq!(src, "b.md");
    Ok(())
}

#[test]
fn injection_through_a_parameter_is_inert() -> Result<()> {
    let conn = graph()?;
    let evil = "a.md'; DROP TABLE files; --";
    let d = run(&conn, "dependents", &[("file", evil)])?;
    assert!(d.rows.is_empty());
    let d = run(&conn, "dependents", &[("file", "x' OR '1'='1")])?;
    assert!(d.rows.is_empty());
    let n: i64 = conn.query_row("SELECT count(*) FROM files", [], |r| r.get(0))?;
    assert_eq!(n, 8);
    Ok(())
}
