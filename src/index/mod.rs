//! The index: walks the scope, reads files, and keeps `files`, `names`, `mentions` and `edges`
//! equal to what a full scan would produce (stub; the reference-graph issue replaces this).

use std::collections::BTreeMap;

use anyhow::Result;
use serde::Serialize;

use crate::ctx::Ctx;

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
}

/// Walks the scope and brings the index up to date (`full` rebuilds it).
pub fn run(_ctx: &Ctx, _opts: &IndexOptions) -> Result<IndexReport> {
    anyhow::bail!("index::run is not implemented yet")
}

/// Refreshes exactly these root-relative paths without walking the tree: re-reads changed ones,
/// drops deleted ones, adds new ones that are in scope.
pub fn refresh_paths(_ctx: &Ctx, _paths: &[String]) -> Result<IndexReport> {
    anyhow::bail!("index::refresh_paths is not implemented yet")
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

/// Whether a full index has ever been built in this database.
pub fn is_built(_ctx: &Ctx) -> Result<bool> {
    anyhow::bail!("index::is_built is not implemented yet")
}

/// The freshness of each root-relative path (stat only; hashes only files whose stat differs).
pub fn freshness(_ctx: &Ctx, _paths: &[String]) -> Result<Vec<(String, Freshness)>> {
    anyhow::bail!("index::freshness is not implemented yet")
}
