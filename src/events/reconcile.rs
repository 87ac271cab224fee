//! Reconcile: find indexed files that changed on disk without an event (Bash, editors, `git`).
//!
//! Owns only the cheap comparison; the index decides what "changed" means. Invariant: stats
//! indexed files (in parallel) against the size and mtime the index stored, and asks the index
//! (`index::freshness`, which hashes) only about the few whose stat differs, so a file that was
//! merely touched is not reported. One call stats files for at most `limits.reconcile_budget_ms`,
//! in path order from a cursor kept in `meta`, so on a large tree successive stops cover it all
//! while each stays fast (a full `src index` or `src status` still sees everything at once).

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

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

/// `meta` key: the last path the previous reconcile statted ("" = start from the beginning).
const META_CURSOR: &str = "reconcile_cursor";

/// Files statted between two looks at the clock.
const CHUNK: usize = 2048;

/// Root-relative paths of indexed files whose content changed or that disappeared, leaving out
/// `known` (files that already have an event).
pub fn drifted(ctx: &Ctx, conn: &Connection, known: &BTreeSet<String>) -> Result<Vec<String>> {
    let started = Instant::now();
    let budget = Duration::from_millis(ctx.config.limits.reconcile_budget_ms);
    let cursor = crate::store::meta_get(conn, META_CURSOR)?.unwrap_or_default();
    // A ring over the whole index: the paths after the cursor, then those up to it. Read chunk
    // by chunk along the path index, so a stop that runs out of budget never loads the rest.
    let mut stmt = conn.prepare_cached(
        "SELECT path, size, mtime_ns FROM files
         WHERE path > ?1 AND (?2 IS NULL OR path <= ?2) ORDER BY path LIMIT ?3",
    )?;
    let root = &ctx.ws.root;
    let mut differ: Vec<String> = Vec::new();
    let mut next_cursor = String::new();
    let mut statted = 0usize;
    let laps: &[(&str, Option<&str>)] = if cursor.is_empty() {
        &[("", None)]
    } else {
        &[(cursor.as_str(), None), ("", Some(cursor.as_str()))]
    };
    'ring: for &(from, upto) in laps {
        let mut after = from.to_string();
        loop {
            let chunk: Vec<(String, i64, i64)> = stmt
                .query_map(rusqlite::params![after, upto, CHUNK as i64], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })?
                .collect::<rusqlite::Result<_>>()?;
            let Some(last) = chunk.last().map(|r| r.0.clone()) else {
                break;
            };
            statted += chunk.len();
            differ.par_extend(
                chunk
                    .par_iter()
                    .filter(|(p, size, mtime)| {
                        !known.contains(p) && stat_differs(&root.join(p), *size, *mtime)
                    })
                    .map(|(p, ..)| p.clone()),
            );
            if chunk.len() < CHUNK {
                break;
            }
            if started.elapsed() >= budget {
                next_cursor = last;
                break 'ring;
            }
            after = last;
        }
    }
    crate::trace::note(
        "src reconcile",
        &format!(
            "{statted} statted in {:.1} ms, {} differ, cursor {next_cursor:?}",
            started.elapsed().as_secs_f64() * 1e3,
            differ.len()
        ),
    );
    if next_cursor != cursor {
        crate::store::meta_set(conn, META_CURSOR, &next_cursor)?;
    }
    if differ.is_empty() {
        return Ok(differ);
    }
    Ok(index::freshness(ctx, &differ)?
        .into_iter()
        .filter(|(_, f)| matches!(f, Freshness::Stale | Freshness::Missing))
        .map(|(p, _)| p)
        .collect())
}
