//! `src query --schema`: the latest schema, each table, view and index under the comment that
//! documents it in its migration.
//!
//! Owns the convention "the `--` comment block directly above a `CREATE` documents that object"
//! (a blank line breaks the block). The schema comes from an in-memory database migrated by this
//! binary, so it is the schema the binary writes whatever state the project's database is in.
//! Invariant: every table and view has a comment (a unit test enforces it).

use std::collections::HashMap;
use std::path::Path;

use anyhow::Result;
use rusqlite::Connection;

use crate::store::{self, MIGRATIONS};

/// One schema object and its documentation.
#[derive(Debug, Clone)]
pub struct SchemaObject {
    pub kind: String,
    pub name: String,
    pub sql: String,
    pub comment: Option<String>,
}

/// Comment blocks from every migration, keyed by the object name they sit above; a later
/// migration's comment replaces an earlier one (a view dropped and re-created).
pub fn comments() -> HashMap<String, String> {
    let mut out = HashMap::new();
    for (_, _, sql) in MIGRATIONS {
        let mut block: Vec<&str> = Vec::new();
        for line in sql.lines() {
            let t = line.trim();
            if let Some(c) = t.strip_prefix("--") {
                block.push(c.trim());
                continue;
            }
            if let Some(name) = created_name(t) {
                if !block.is_empty() {
                    out.insert(name, block.join("\n"));
                }
            }
            block.clear();
        }
    }
    out
}

/// The object name of a `CREATE [UNIQUE] {TABLE|VIEW|INDEX|TRIGGER} [IF NOT EXISTS] name` line.
fn created_name(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    if upper.first().map(String::as_str) != Some("CREATE") {
        return None;
    }
    let mut i = 1;
    while i < upper.len()
        && matches!(
            upper[i].as_str(),
            "UNIQUE" | "TEMP" | "TEMPORARY" | "TABLE" | "VIEW" | "INDEX" | "TRIGGER"
        )
    {
        i += 1;
    }
    if upper.get(i).map(String::as_str) == Some("IF") {
        i += 3; // IF NOT EXISTS
    }
    let name = words.get(i)?;
    let name = name.split('(').next().unwrap_or(name);
    let name = name.trim_matches(|c| c == '"' || c == '`' || c == '[' || c == ']');
    (!name.is_empty()).then(|| name.to_string())
}

/// Every table, view, index and trigger of the latest schema, tables first (each followed by its
/// indexes and triggers), then views.
pub fn objects() -> Result<Vec<SchemaObject>> {
    let mut conn = Connection::open_in_memory()?;
    store::migrate(&mut conn, Path::new(":memory:"))?;
    let comments = comments();
    let mut stmt = conn.prepare(store::sql::query::SCHEMA_OBJECTS)?;
    let rows = stmt.query_map([], |r| {
        Ok(SchemaObject {
            kind: r.get(0)?,
            name: r.get(1)?,
            sql: r.get(3)?,
            comment: None,
        })
    })?;
    let mut out = Vec::new();
    for row in rows {
        let mut o = row?;
        o.comment = comments.get(&o.name).cloned();
        out.push(o);
    }
    Ok(out)
}

/// The schema as SQL text, comments included, ready to print.
pub fn render() -> Result<String> {
    let mut s = format!(
        "-- Schema version {} of the src database: tables (each with its indexes), then views\n\
         -- for use from the sqlite3 shell. Paths are root-relative with '/'.\n",
        store::latest_version()
    );
    for o in objects()? {
        s.push('\n');
        match &o.comment {
            Some(c) => {
                for line in c.lines() {
                    s.push_str(format!("-- {line}").trim_end());
                    s.push('\n');
                }
            }
            None if o.kind == "table" || o.kind == "view" => {
                s.push_str("-- (undocumented)\n");
            }
            None => {}
        }
        s.push_str(o.sql.trim_end());
        s.push_str(";\n");
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_names_are_found() {
        assert_eq!(created_name("CREATE TABLE files ("), Some("files".into()));
        assert_eq!(
            created_name("CREATE UNIQUE INDEX events_once ON events(x)"),
            Some("events_once".into())
        );
        assert_eq!(
            created_name("create view if not exists \"v\" AS"),
            Some("v".into())
        );
        assert_eq!(created_name("SELECT 1"), None);
    }

    #[test]
    fn every_table_and_view_has_a_comment() -> Result<()> {
        let objects = objects()?;
        let missing: Vec<&str> = objects
            .iter()
            .filter(|o| (o.kind == "table" || o.kind == "view") && o.comment.is_none())
            .map(|o| o.name.as_str())
            .collect();
        assert!(objects.iter().any(|o| o.name == "edge_paths"));
        assert!(
            missing.is_empty(),
            "tables/views without a `--` comment right above their CREATE: {missing:?}"
        );
        Ok(())
    }

    #[test]
    fn render_shows_comment_above_create() -> Result<()> {
        let s = render()?;
        let i = s
            .find("CREATE TABLE files")
            .unwrap_or_else(|| panic!("no files table in {s}"));
        assert!(s[..i].ends_with("-- Every file in scope that the index has read.\n"));
        Ok(())
    }
}
