//! Status: how the stored index compares with the tree now, and what to run next.
//!
//! Owns the comparison for `src status`; writes nothing. Invariant: only indexed files can be
//! stale or missing (an untracked, ignored or out-of-scope file never is); a file is stale only
//! when its content hash differs, not merely its mtime.

use std::collections::BTreeMap;

use anyhow::Result;
use rayon::prelude::*;
use serde::Serialize;

use super::plan::load_files;
use super::{
    built, fingerprint, Freshness, META_FINGERPRINT, META_LAST_FULL, META_LAST_INCREMENTAL,
};
use crate::ctx::Ctx;
use crate::scan::walk;
use crate::store::meta_get;
use crate::store::sql::index as sql;

/// Above this share of stale files a full regeneration is recommended (the seed's 30%).
pub const FULL_REGEN_SHARE: f64 = 0.30;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Recommendation {
    None,
    Incremental,
    FullRegeneration,
}

impl Recommendation {
    pub fn as_str(self) -> &'static str {
        match self {
            Recommendation::None => "none",
            Recommendation::Incremental => "incremental",
            Recommendation::FullRegeneration => "full-regeneration",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Status {
    pub built: bool,
    /// The config's scope, names or limits, or the reference rules, differ from what the index
    /// was built with.
    pub config_changed: bool,
    pub indexed: u64,
    pub stale: Vec<String>,
    /// Indexed files that no longer exist.
    pub missing: Vec<String>,
    /// Indexed files that exist but the scope or ignore rules now leave out (the config
    /// changed since the index was built): not missing, and not dependents any more.
    pub out_of_scope: Vec<String>,
    pub new: Vec<String>,
    pub skipped: BTreeMap<String, u64>,
    /// Untracked files in scope that the ignore rules leave out (git's count; absent outside
    /// a repository). Tracked files are never ignored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignored: Option<u64>,
    pub last_full_scan: Option<String>,
    pub last_incremental_scan: Option<String>,
    pub recommendation: Recommendation,
    pub reason: String,
}

/// Walks the scope and compares it with the index (hashing only files whose stat moved).
pub fn status(ctx: &Ctx) -> Result<Status> {
    let conn = ctx.store.conn()?;
    let is_built = built(&conn)?;
    let config_changed = is_built
        && meta_get(&conn, META_FINGERPRINT)?.as_deref()
            != Some(fingerprint(&ctx.config, &ctx.ws.root).as_str());
    let mut stored = load_files(&conn)?;
    let walked = walk::walk(&ctx.ws, &ctx.config)?;
    let mut new = Vec::new();
    let mut moved = Vec::new();
    let skipped_paths: std::collections::HashSet<String> = {
        let mut stmt = conn.prepare_cached(sql::SKIPPED_PATHS)?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    for e in walked.entries {
        match stored.remove(&e.path) {
            Some(s) if (s.size, s.mtime_ns) != (e.size, e.mtime_ns) || s.hash.is_empty() => {
                moved.push((e.path, s))
            }
            Some(_) => {}
            None if skipped_paths.contains(&e.path) => {}
            None => new.push(e.path),
        }
    }
    let root = &ctx.ws.root;
    let mut stale: Vec<String> = moved
        .par_iter()
        .filter(|(p, s)| {
            super::file_freshness(root, p, u64::MAX, s.mtime_ns, &s.hash) == Freshness::Stale
        })
        .map(|(p, _)| p.clone())
        .collect();
    stale.sort();
    let (mut out_of_scope, mut missing): (Vec<String>, Vec<String>) = stored
        .into_keys()
        .partition(|p| std::fs::symlink_metadata(root.join(p)).is_ok_and(|m| m.is_file()));
    missing.sort();
    out_of_scope.sort();
    new.sort();
    let indexed = conn.query_row(sql::FILE_COUNT, [], |r| r.get::<_, i64>(0))? as u64;
    let mut skipped = BTreeMap::new();
    let mut stmt = conn.prepare_cached(sql::SKIPPED_BY_REASON)?;
    for row in stmt.query_map([], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64))
    })? {
        let (reason, n) = row?;
        skipped.insert(reason, n);
    }
    let (recommendation, reason) = if !is_built {
        (
            Recommendation::FullRegeneration,
            "no complete index yet".to_string(),
        )
    } else if config_changed {
        (
            Recommendation::FullRegeneration,
            "scope, names, limits or the reference rules changed since the index was built"
                .to_string(),
        )
    } else if indexed > 0 && stale.len() as f64 / indexed as f64 > FULL_REGEN_SHARE {
        (
            Recommendation::FullRegeneration,
            format!(
                "{} of {indexed} indexed files are stale (more than 30%)",
                stale.len()
            ),
        )
    } else if stale.is_empty() && missing.is_empty() && new.is_empty() && out_of_scope.is_empty() {
        (
            Recommendation::None,
            "the index matches the tree".to_string(),
        )
    } else {
        (
            Recommendation::Incremental,
            format!(
                "{} stale, {} missing, {} out of scope, {} new",
                stale.len(),
                missing.len(),
                out_of_scope.len(),
                new.len()
            ),
        )
    };
    Ok(Status {
        built: is_built,
        config_changed,
        indexed,
        stale,
        missing,
        out_of_scope,
        new,
        skipped,
        ignored: walk::ignored_in_scope(&ctx.ws.root, &ctx.config),
        last_full_scan: meta_get(&conn, META_LAST_FULL)?.map(|t| to_seconds(&t)),
        last_incremental_scan: meta_get(&conn, META_LAST_INCREMENTAL)?.map(|t| to_seconds(&t)),
        recommendation,
        reason,
    })
}

/// A stored RFC 3339 time shown to the second (`2026-11-24T22:36:54+00:00`): the nanoseconds
/// the index keeps for ordering say nothing to a reader.
pub fn to_seconds(t: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(t)
        .map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Secs, false))
        .unwrap_or_else(|_| t.to_string())
}

#[cfg(test)]
mod seconds_tests {
    #[test]
    fn times_are_shown_to_the_second() {
        assert_eq!(
            super::to_seconds("2026-11-24T22:36:54.441336289+00:00"),
            "2026-11-24T22:36:54+00:00"
        );
        assert_eq!(super::to_seconds("not a time"), "not a time");
    }
}
