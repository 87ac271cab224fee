//! `src query` through the real binary: read-only enforcement (the database file is byte for
//! byte unchanged), parameter errors and exit codes, injection through `--param`, output
//! formats, path parameters, `--list` and `--schema`.
//!
//! Tests that need rows write them with INSERTs into a database `src init` created, so they do
//! not depend on the scanner; the indexed-fixture tests check the same queries end to end.

use std::path::Path;

use rusqlite::Connection;

use crate::util::{stdout_of, Project};

/// A project whose database holds a three-file chain c -> b -> a and one recorded edit.
fn seeded() -> Project {
    let p = Project::empty();
    p.write("a.md", "a\n");
    p.src().arg("init").assert().success();
    let conn = Connection::open(p.path(".src/src.db")).unwrap_or_else(|e| panic!("open: {e}"));
    conn.execute_batch(
        "INSERT INTO files(id, path, size, mtime_ns, hash, scanned_at, content_changed_at) VALUES
           (1, 'a.md', 2, 0, 'h', '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00'),
           (2, 'b.md', 2, 0, 'h', '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00'),
           (3, 'c.md', 2, 0, 'h', '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00');
         INSERT INTO names(file_id, name, kind) VALUES (1, 'a.md', 'path'), (2, 'b.md', 'path'),
           (3, 'c.md', 'path');
         INSERT INTO edges(src_id, dst_id, name, line, text, resolution) VALUES
           (2, 1, 'a.md', 4, 'see a.md	(tab)', 'unique'),
           (3, 2, 'b.md', 1, 'see b.md', 'unique');
         INSERT INTO events(session_id, tool_name, abs_path, path, ts) VALUES
           ('s1', 'Edit', '/x/a.md', 'a.md', '2026-01-02T00:00:00+00:00');",
    )
    .unwrap_or_else(|e| panic!("seed: {e}"));
    drop(conn);
    p
}

/// The database file and its WAL (an absent WAL hashes as an empty one: a read-only reader may
/// leave an empty `-wal` and a `-shm` behind, which hold no data).
fn db_hash(p: &Project) -> String {
    let mut h = blake3::Hasher::new();
    for f in [".src/src.db", ".src/src.db-wal"] {
        let bytes = std::fs::read(p.path(f)).unwrap_or_default();
        h.update(f.as_bytes());
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    h.finalize().to_hex().to_string()
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn writes_through_sql_are_refused_and_change_nothing() {
    let p = seeded();
    let before = db_hash(&p);
    for sql in [
        "INSERT INTO meta(key, value) VALUES ('k', 'v')",
        "UPDATE files SET size = 0",
        "DELETE FROM edges",
        "DROP TABLE events",
        "CREATE TABLE t(x)",
        "ATTACH DATABASE 'other.db' AS other",
        "PRAGMA user_version = 99",
        "PRAGMA query_only = OFF",
        "PRAGMA journal_mode = DELETE",
        "VACUUM INTO 'copy.db'",
        "WITH x AS (SELECT 1) DELETE FROM files",
        "PRAGMA [query_only]=0",
        "PRAGMA `writable_schema`=ON",
        "PRAGMA \"locking_mode\"=EXCLUSIVE",
    ] {
        let out = p.src().args(["query", "--sql", sql]).output();
        let out = out.unwrap_or_else(|e| panic!("run: {e}"));
        assert_eq!(out.status.code(), Some(2), "{sql}: {}", stderr_of(&out));
        let err = stderr_of(&out);
        assert!(err.contains("refused"), "{sql}: {err}");
        assert!(err.contains(sql), "the message shows the SQL: {err}");
        assert_eq!(db_hash(&p), before, "{sql} changed the database");
    }
    assert!(!p.path("other.db").exists() && !p.path("copy.db").exists());
    // The same file still answers reads.
    let rows = stdout_of(
        p.src()
            .args(["query", "--sql", "SELECT count(*) AS n FROM files"]),
    );
    assert_eq!(rows, "n\n3\n");
    assert_eq!(db_hash(&p), before);
}

#[test]
fn a_read_leaves_no_files_and_an_endless_query_is_stopped() {
    let p = seeded();
    let wal = p.path(".src/src.db-wal");
    let shm = p.path(".src/src.db-shm");
    assert!(!wal.exists() && !shm.exists(), "cleanly closed");
    stdout_of(p.src().args(["query", "--sql", "SELECT 1"]));
    assert!(!wal.exists() && !shm.exists(), "a read leaves no -wal/-shm");
    let t = std::time::Instant::now();
    let out = p
        .src()
        .args([
            "query",
            "--time-limit",
            "1",
            "--sql",
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c",
        ])
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    assert!(t.elapsed() < std::time::Duration::from_secs(8));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr_of(&out).contains("time limit of 1 s"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn bad_sql_is_exit_2_with_the_failing_sql() {
    let p = seeded();
    let out = p
        .src()
        .args(["query", "--sql", "SELECT path FROM filez"])
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(err.contains("no such table: filez"), "{err}");
    assert!(err.contains("SELECT path FROM filez"), "{err}");
    // Missing database for ad-hoc SQL: an ordinary failure, and no database is created.
    let q = Project::empty();
    let out = q
        .src()
        .args(["query", "--sql", "SELECT 1"])
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains("no database"));
    assert!(!q.path(".src/src.db").exists());
}

#[test]
fn sql_file_and_named_parameters() {
    let p = seeded();
    p.write(
        "q.sql",
        "-- dependents by hand\nSELECT src FROM edge_paths WHERE dst = :f\n",
    );
    let rows = stdout_of(
        p.src()
            .args(["query", "--sql-file", "q.sql", "--param", "f=a.md"]),
    );
    assert_eq!(rows, "src\nb.md\n");
}

#[test]
fn parameter_errors_are_clear_and_exit_2() {
    let p = seeded();
    let cases: &[(&[&str], &str)] = &[
        (&["query", "dependents"], "needs --param file="),
        (
            &["query", "dependents", "-p", "file=a.md", "-p", "fil=b"],
            "unknown parameter `fil`",
        ),
        (
            &["query", "transitive", "-p", "file=a.md", "-p", "depth=deep"],
            "must be an integer, got `deep`",
        ),
        (
            &["query", "no-such-query"],
            "no canned query named `no-such-query`",
        ),
        (
            &["query", "dependents", "-p", "file"],
            "expected NAME=VALUE",
        ),
        (
            &["query", "--sql", "SELECT :a", "-p", "b=1"],
            "unknown parameter `b`",
        ),
    ];
    for (args, want) in cases {
        let out = p
            .src()
            .args(*args)
            .output()
            .unwrap_or_else(|e| panic!("run: {e}"));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr_of(&out);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn injection_through_a_param_value_is_inert() {
    let p = seeded();
    for evil in [
        "a.md'; DROP TABLE files; --",
        "x' OR '1'='1",
        "a.md\" OR 1=1 --",
    ] {
        // A value naming no file is a usage error; it never reaches SQL as text.
        let out = p
            .src()
            .args(["query", "dependents", "--param"])
            .arg(format!("file={evil}"))
            .output()
            .unwrap_or_else(|e| panic!("run: {e}"));
        assert_eq!(out.status.code(), Some(2), "{evil}");
        assert!(stderr_of(&out).contains("no such file"), "{evil}");
    }
    let n = stdout_of(
        p.src()
            .args(["query", "--sql", "SELECT count(*) FROM files"]),
    );
    assert_eq!(n.lines().nth(1), Some("3"));
}

#[test]
fn formats_tsv_by_default_json_typed_csv_quoted() {
    let p = seeded();
    let tsv = stdout_of(p.src().args(["query", "dependents", "-p", "file=a.md"]));
    assert_eq!(
        tsv,
        "src\tline\tpattern\tevidence\tresolution\nb.md\t4\ta.md\tsee a.md\\t(tab)\tunique\n"
    );
    let json = stdout_of(p.src().args(["query", "edges", "--format", "json"]));
    let v: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("json: {e}: {json}"));
    assert_eq!(
        v[0],
        serde_json::json!({"src": "b.md", "dst": "a.md", "pattern": "a.md", "line": 4,
                           "evidence": "see a.md\t(tab)", "kind": "name"})
    );
    let csv = stdout_of(p.src().args(["query", "files", "--format", "csv"]));
    assert!(csv.starts_with("path,size,mtime_ns,hash,scanned_at,content_changed_at\r\n"));
    let table = stdout_of(
        p.src()
            .args(["query", "transitive", "-p", "file=a.md", "-f", "table"]),
    );
    assert!(table.contains("c.md -> b.md -> a.md"), "{table}");
    assert!(table.ends_with("(2 rows)\n"), "{table}");
}

#[test]
fn absolute_path_parameter_maps_to_root_relative() {
    let p = seeded();
    let abs = p.path("a.md");
    let rows = stdout_of(
        p.src()
            .args(["query", "dependents", "--param"])
            .arg(format!("file={}", abs.display())),
    );
    assert!(rows.contains("\nb.md\t4\t"), "{rows}");
    let out = p
        .src()
        .args(["query", "dependents", "--param", "file=/elsewhere/a.md"])
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_of(&out).contains("outside the project root"));
}

#[test]
fn list_and_schema_document_themselves() {
    let p = Project::empty();
    let list = stdout_of(p.src().args(["query", "--list"]));
    let mut names = Vec::new();
    for line in list.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 3, "{line}");
        assert!(!cols[2].is_empty(), "no description: {line}");
        names.push(cols[0]);
    }
    assert!(names.contains(&"transitive"));
    assert!(list.contains("transitive\t:file path, :depth int = 3\t"));
    let schema = stdout_of(p.src().args(["query", "--schema"]));
    for view in [
        "edge_paths",
        "dependents",
        "event_paths",
        "file_stats",
        "mention_paths",
    ] {
        let at = schema
            .find(&format!("CREATE VIEW {view} "))
            .unwrap_or_else(|| panic!("no view {view} in schema"));
        let before = schema[..at].trim_end();
        let last = before.lines().last().unwrap_or_default();
        assert!(last.starts_with("-- "), "{view} has no comment: {last}");
    }
    // Neither command needs a database.
    assert!(!Path::new(&p.path(".src/src.db")).exists());
}

// ---- End to end: the query-basic fixture indexed by the real engine, edits recorded by the
// ---- real hook. Expected rows follow from the graph described in fixtures/query-basic/README.md.

/// Records one Edit through `src hook post-tool-use`, as Claude Code would send it.
fn record_edit(p: &Project, session: &str, rel: &str, agent: Option<&str>, n: u32) {
    let mut payload = serde_json::json!({
        "session_id": session,
        "hook_event_name": "PostToolUse",
        "cwd": p.root(),
        "tool_name": "Edit",
        "tool_input": {"file_path": p.path(rel)},
        "tool_response": {"filePath": p.path(rel)},
        "tool_use_id": format!("toolu_{session}_{n}"),
    });
    if let Some(a) = agent {
        payload["agent_id"] = serde_json::json!(format!("agent-{a}"));
        payload["agent_type"] = serde_json::json!(a);
    }
    crate::util::src()
        .current_dir(p.root())
        .env("CLAUDE_PROJECT_DIR", p.root())
        .args(["hook", "post-tool-use"])
        .write_stdin(payload.to_string())
        .assert()
        .success();
}

fn indexed() -> Project {
    let p = Project::from_fixture("query-basic");
    p.src().arg("index").assert().success();
    p
}

/// Rows of a canned query (TSV), without the header, each cut to its first `n` columns.
fn query_rows(p: &Project, args: &[&str], n: usize) -> Vec<String> {
    let out = stdout_of(p.src().arg("query").args(args));
    out.lines()
        .skip(1)
        .map(|l| l.split('\t').take(n).collect::<Vec<_>>().join(" "))
        .collect()
}

const PLANNER: &str = ".claude/agents/planner.md";
const BUILDER: &str = ".claude/agents/builder.md";
const REVIEWER: &str = ".claude/agents/reviewer.md";
const STYLE: &str = ".claude/rules/style-guide.md";
const H: &str = ".claude/hooks/";

#[test]
fn graph_queries_on_an_indexed_tree() {
    let p = indexed();
    let file = |f: &str| format!("file={f}");
    assert_eq!(
        query_rows(&p, &["dependents", "-p", &file(BUILDER)], 2),
        [format!("{PLANNER} 4"), format!("{REVIEWER} 4")]
    );
    assert_eq!(
        query_rows(&p, &["references", "-p", &file(REVIEWER)], 1),
        [BUILDER, STYLE]
    );
    assert_eq!(
        query_rows(&p, &["transitive", "-p", &file(STYLE)], 3),
        [
            format!("{BUILDER} 1 {BUILDER} -> {STYLE}"),
            format!("{REVIEWER} 1 {REVIEWER} -> {STYLE}"),
            format!("{PLANNER} 2 {PLANNER} -> {BUILDER} -> {STYLE}"),
            format!("CLAUDE.md 3 CLAUDE.md -> {PLANNER} -> {BUILDER} -> {STYLE}"),
        ]
    );
    assert_eq!(
        query_rows(&p, &["transitive", "-p", &file(STYLE), "-p", "depth=1"], 1).len(),
        2
    );
    assert_eq!(
        query_rows(&p, &["cycles"], 2),
        [
            format!("2 {BUILDER} -> {PLANNER} -> {BUILDER}"),
            format!(
                "3 {H}first-step.sh -> {H}second-step.sh -> {H}third-step.sh -> {H}first-step.sh"
            ),
        ]
    );
    assert_eq!(
        query_rows(&p, &["orphans"], 1),
        [
            ".claude/docs/checklist.md",
            ".claude/notes/lonely-note.md",
            ".claude/rules/checklist.md"
        ]
    );
    assert_eq!(
        query_rows(&p, &["unresolved"], 5),
        [format!("{REVIEWER} 5 checklist.md ambiguous 2")]
    );
    // The stable `edges` contract agrees with the per-file view.
    let edges = query_rows(&p, &["edges"], 2);
    assert!(
        edges.contains(&format!("{REVIEWER} {BUILDER}")),
        "{edges:?}"
    );
    let patterns = query_rows(&p, &["patterns"], 3);
    assert!(patterns.contains(&format!("{BUILDER} builder.md basename")));
}

#[test]
fn event_queries_on_recorded_edits() {
    let p = indexed();
    record_edit(&p, "s1", BUILDER, Some("implementer"), 1);
    record_edit(&p, "s1", BUILDER, Some("implementer"), 2);
    record_edit(&p, "s1", PLANNER, None, 3);
    record_edit(&p, "s1", ".claude/notes/lonely-note.md", None, 4);
    record_edit(&p, "s2", PLANNER, None, 1);
    record_edit(&p, "s2", BUILDER, None, 2);
    record_edit(&p, "s2", ".claude/notes/lonely-note.md", None, 3);
    record_edit(&p, "s2", ".claude/notes/new-idea.md", None, 4);

    assert_eq!(
        query_rows(&p, &["session-changes", "-p", "session=s1"], 4),
        [
            format!("{BUILDER} Edit implementer 2"),
            format!("{PLANNER} Edit  1"),
            ".claude/notes/lonely-note.md Edit  1".to_string(),
        ]
    );
    assert_eq!(
        query_rows(&p, &["session-changes", "-p", "session=latest"], 1).len(),
        4
    );
    // Pairs edited together in both sessions; only planner/builder mention each other.
    assert_eq!(
        query_rows(&p, &["co-change"], 4),
        [
            format!("{BUILDER} {PLANNER} 2 1"),
            format!("{BUILDER} .claude/notes/lonely-note.md 2 0"),
            format!("{PLANNER} .claude/notes/lonely-note.md 2 0"),
        ]
    );
    let hot = query_rows(&p, &["hotspots", "-p", "limit=2"], 4);
    assert_eq!(
        hot,
        [format!("{BUILDER} 2 2 3"), format!("{PLANNER} 2 3 2")]
    );
    // Edited after the scan: the three indexed files, and the new note the index never read.
    let mut stale = query_rows(&p, &["stale"], 3);
    stale.sort();
    assert_eq!(stale.len(), 4, "{stale:?}");
    assert!(stale[0].starts_with(".claude/agents/builder.md edited "));
    assert!(stale
        .iter()
        .any(|r| r == ".claude/notes/new-idea.md unindexed "));
    // Really changing builder.md and re-indexing reads it again: it is no longer stale.
    p.write(BUILDER, "---\nname: builder\n---\nBuilds.\n");
    p.src().arg("index").assert().success();
    let stale = query_rows(&p, &["stale"], 1);
    assert!(!stale.iter().any(|r| r == BUILDER), "{stale:?}");
    assert!(stale.iter().any(|r| r == PLANNER), "{stale:?}");
}
