//! Reads of the reference graph: edges into and out of files, display names; and the rule that
//! turns a mention into an edge (`resolve`).
//!
//! Owns reading `edges`/`files` for other modules; never writes (the index does). Invariant:
//! every returned edge has a real `dst` file; results are sorted, so output is deterministic.

pub mod resolve;

use std::collections::HashMap;

use anyhow::Result;
use rusqlite::Connection;
use serde::Serialize;

/// One resolved reference: `src` mentions `dst` by `name` at `line`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Edge {
    pub src: String,
    pub dst: String,
    pub name: String,
    pub line: u32,
    pub text: String,
    /// `unique`, or `nearest` for an ambiguous name resolved to the closest bearer.
    pub resolution: String,
}

const EDGES_INTO: &str = "SELECT s.path, d.path, e.name, e.line, e.text, e.resolution \
     FROM files d JOIN edges e ON e.dst_id = d.id JOIN files s ON s.id = e.src_id \
     WHERE d.path = ?1";

const EDGES_FROM: &str = "SELECT s.path, d.path, e.name, e.line, e.text, e.resolution \
     FROM files s JOIN edges e ON e.src_id = s.id JOIN files d ON d.id = e.dst_id \
     WHERE s.path = ?1";

fn row_edge(r: &rusqlite::Row<'_>) -> rusqlite::Result<Edge> {
    Ok(Edge {
        src: r.get(0)?,
        dst: r.get(1)?,
        name: r.get(2)?,
        line: r.get(3)?,
        text: r.get(4)?,
        resolution: r.get(5)?,
    })
}

/// Every edge whose `dst` is one of `dsts` (root-relative paths), sorted by (dst, src, line).
pub fn edges_into(conn: &Connection, dsts: &[String]) -> Result<Vec<Edge>> {
    let mut stmt = conn.prepare_cached(EDGES_INTO)?;
    let mut out = Vec::new();
    for d in dsts {
        for e in stmt.query_map([d], row_edge)? {
            out.push(e?);
        }
    }
    out.sort_by(|a, b| (&a.dst, &a.src, a.line, &a.name).cmp(&(&b.dst, &b.src, b.line, &b.name)));
    out.dedup();
    Ok(out)
}

/// Every edge whose `src` is `src`, sorted by (dst, line).
pub fn edges_from(conn: &Connection, src: &str) -> Result<Vec<Edge>> {
    let mut stmt = conn.prepare_cached(EDGES_FROM)?;
    let mut out = stmt
        .query_map([src], row_edge)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    out.sort_by(|a, b| (&a.dst, a.line, &a.name).cmp(&(&b.dst, b.line, &b.name)));
    Ok(out)
}

/// Shortest unique path suffix of each indexed file (`execution-code/SKILL.md`, `implementer.md`).
pub struct DisplayNames {
    names: HashMap<String, String>,
}

impl DisplayNames {
    /// Display names unique among `paths`.
    pub fn new<'a>(paths: impl IntoIterator<Item = &'a str>) -> DisplayNames {
        let paths: Vec<&str> = paths.into_iter().collect();
        let mut count: HashMap<&str, usize> = HashMap::new();
        for p in &paths {
            for s in suffixes(p) {
                *count.entry(s).or_default() += 1;
            }
        }
        let names = paths
            .iter()
            .map(|p| {
                let short = suffixes(p).find(|s| count.get(s) == Some(&1)).unwrap_or(p);
                (p.to_string(), short.to_string())
            })
            .collect();
        DisplayNames { names }
    }

    /// Display names unique among all indexed files.
    pub fn load(conn: &Connection) -> Result<DisplayNames> {
        let mut stmt = conn.prepare_cached("SELECT path FROM files")?;
        let paths = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(DisplayNames::new(paths.iter().map(String::as_str)))
    }

    /// The display name of `path` (the path itself when unknown).
    pub fn get(&self, path: &str) -> String {
        self.names
            .get(path)
            .cloned()
            .unwrap_or_else(|| path.to_string())
    }
}

/// Whole-component suffixes of `path`, shortest first, ending with the path itself.
fn suffixes(path: &str) -> impl Iterator<Item = &str> {
    let cuts = path.rmatch_indices('/').map(|(i, _)| &path[i + 1..]);
    cuts.chain(std::iter::once(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_are_shortest_unique_suffixes() {
        let d = DisplayNames::new([
            ".claude/skills/execution-code/SKILL.md",
            ".claude/skills/review/SKILL.md",
            ".claude/agents/implementer.md",
            "a/x/same.md",
            "b/x/same.md",
        ]);
        assert_eq!(
            d.get(".claude/skills/execution-code/SKILL.md"),
            "execution-code/SKILL.md"
        );
        assert_eq!(d.get(".claude/agents/implementer.md"), "implementer.md");
        assert_eq!(d.get("a/x/same.md"), "a/x/same.md");
        assert_eq!(d.get("unknown/file"), "unknown/file");
    }
}
