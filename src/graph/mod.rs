//! Reads of the reference graph: dependents, references, display names (stub; the
//! reference-graph issue replaces this).

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

/// Every edge whose `dst` is one of `dsts` (root-relative paths), sorted by (dst, src, line).
pub fn edges_into(_conn: &Connection, _dsts: &[String]) -> Result<Vec<Edge>> {
    anyhow::bail!("graph::edges_into is not implemented yet")
}

/// Every edge whose `src` is `src`, sorted by (dst, line).
pub fn edges_from(_conn: &Connection, _src: &str) -> Result<Vec<Edge>> {
    anyhow::bail!("graph::edges_from is not implemented yet")
}

/// Shortest unique path suffix of each indexed file (`execution-code/SKILL.md`, `implementer.md`).
pub struct DisplayNames;

impl DisplayNames {
    /// Display names unique among `paths`.
    pub fn new<'a>(_paths: impl IntoIterator<Item = &'a str>) -> DisplayNames {
        DisplayNames
    }

    /// Display names unique among all indexed files.
    pub fn load(_conn: &Connection) -> Result<DisplayNames> {
        anyhow::bail!("DisplayNames::load is not implemented yet")
    }

    /// The display name of `path` (the path itself when unknown).
    pub fn get(&self, path: &str) -> String {
        path.to_string()
    }
}
