//! Reconcile: find indexed files that changed on disk without an event (Bash, editors, `git`).
//!
//! Owns only the cheap comparison; the index decides what "changed" means. Invariant: stats
//! every indexed file once (in parallel) against the size and mtime the index stored, and asks
//! the index (`index::freshness`, which hashes) only about the few whose stat differs, so a file
//! that was merely touched is not reported.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::Result;
use rayon::prelude::*;
use rusqlite::Connection;

use crate::ctx::Ctx;
use crate::index::{self, Freshness};

/// Compares with the index's own notion of a file's stat (`index::walk::stat_of`).
fn stat_differs(path: &Path, size: i64, mtime: i64) -> bool {
    match std::fs::metadata(path) {
        Ok(m) => {
            let (s, t) = index::walk::stat_of(&m);
            i64::try_from(s).ok() != Some(size) || t != mtime
        }
        Err(_) => true,
    }
}

/// Root-relative paths of indexed files whose content changed or that disappeared, leaving out
/// `known` (files that already have an event).
pub fn drifted(ctx: &Ctx, conn: &Connection, known: &BTreeSet<String>) -> Result<Vec<String>> {
    let mut stmt = conn.prepare("SELECT path, size, mtime_ns FROM files")?;
    let rows: Vec<(String, i64, i64)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let root = &ctx.ws.root;
    let differ: Vec<String> = rows
        .par_iter()
        .filter(|(p, size, mtime)| !known.contains(p) && stat_differs(&root.join(p), *size, *mtime))
        .map(|(p, ..)| p.clone())
        .collect();
    if differ.is_empty() {
        return Ok(differ);
    }
    Ok(index::freshness(ctx, &differ)?
        .into_iter()
        .filter(|(_, f)| matches!(f, Freshness::Stale | Freshness::Missing))
        .map(|(p, _)| p)
        .collect())
}
