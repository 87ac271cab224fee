//! Planning: compare what is on disk (a walk, or a list of paths) with what is stored, and decide
//! which files are added, removed, possibly changed, and which skipped rows change.
//!
//! Owns the comparison only; reads no file contents and writes nothing. Invariant: a file whose
//! size and mtime equal the stored ones is not in the plan (a fresh clone differs by mtime and is
//! checked by hash later, never rescanned for that alone).

use std::collections::{HashMap, HashSet};

use anyhow::Result;
use rusqlite::Connection;

use crate::ctx::Ctx;
use crate::scan::walk::{stat_of, Entry, PathFilter, Skip, Walked};
use crate::store::sql::index as sql;

/// What to do to the `skipped` table.
pub enum SkipUpdate {
    /// Replace every row (after a walk).
    Replace(Vec<Skip>),
    /// Clear these paths, then set these rows (refresh of given paths).
    Paths { clear: Vec<String>, set: Vec<Skip> },
}

pub struct Plan {
    pub full: bool,
    pub added: Vec<Entry>,
    pub removed: Vec<(i64, String)>,
    /// `(id, path, stored hash)` of indexed files whose stat differs.
    pub checks: Vec<(i64, String, String)>,
    pub skips: SkipUpdate,
    /// Full rebuild: hash -> content_changed_at of the previous index, so dates survive.
    pub previous: HashMap<String, String>,
}

pub struct Stored {
    pub id: i64,
    pub size: u64,
    pub mtime_ns: i64,
    pub hash: String,
}

/// Every indexed file by path. (foldhash: this map is on the path of every incremental run.)
pub fn load_files(conn: &Connection) -> Result<foldhash::HashMap<String, Stored>> {
    let mut stmt = conn.prepare_cached(sql::STORED_FILES)?;
    let mut rows = stmt.query([])?;
    let mut out = foldhash::HashMap::default();
    while let Some(r) = rows.next()? {
        out.insert(
            r.get::<_, String>(1)?,
            Stored {
                id: r.get(0)?,
                size: r.get::<_, i64>(2)? as u64,
                mtime_ns: r.get(3)?,
                hash: r.get(4)?,
            },
        );
    }
    Ok(out)
}

/// `path -> (reason, size, mtime)` of skipped files.
fn load_skipped(conn: &Connection) -> Result<foldhash::HashMap<String, Skip>> {
    let mut stmt = conn.prepare_cached(sql::SKIPPED_ROWS)?;
    let mut rows = stmt.query([])?;
    let mut out = foldhash::HashMap::default();
    while let Some(r) = rows.next()? {
        let path: String = r.get(0)?;
        let reason: String = r.get(1)?;
        let reason = match reason.as_str() {
            "binary" => "binary",
            "unreadable" => "unreadable",
            _ => continue,
        };
        out.insert(
            path.clone(),
            Skip {
                path,
                reason,
                size: r.get::<_, Option<i64>>(2)?.map(|s| s as u64),
                mtime_ns: r.get(3)?,
            },
        );
    }
    Ok(out)
}

/// A skipped binary or unreadable file whose stat did not move is not read again.
fn still_skipped(prev: Option<&Skip>, e: &Entry) -> Option<Skip> {
    let s = prev?;
    (s.size == Some(e.size) && s.mtime_ns == Some(e.mtime_ns)).then(|| s.clone())
}

/// The plan for a walk: `full` rebuilds everything. The walk runs on its own thread while the
/// stored state is loaded, so an incremental run costs about the walk alone.
pub fn from_walk(
    conn: &Connection,
    walk: impl FnOnce() -> Result<Walked> + Send,
    full: bool,
) -> Result<(Plan, u64)> {
    let (walked, stored, skipped) = std::thread::scope(|s| -> Result<_> {
        let handle = s.spawn(walk);
        let loaded = if full {
            None
        } else {
            Some((load_files(conn), load_skipped(conn)))
        };
        let walked = handle
            .join()
            .map_err(|_| anyhow::anyhow!("the walk thread panicked"))??;
        Ok(match loaded {
            None => (walked, Default::default(), Default::default()),
            Some((f, k)) => (walked, f?, k?),
        })
    })?;
    let errors = walked.errors;
    if full {
        let mut previous = HashMap::new();
        let mut stmt = conn.prepare_cached(sql::CHANGE_DATES)?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            previous.insert(r.get(0)?, r.get(1)?);
        }
        let plan = Plan {
            full,
            added: walked.entries,
            removed: Vec::new(),
            checks: Vec::new(),
            skips: SkipUpdate::Replace(walked.skipped),
            previous,
        };
        return Ok((plan, errors));
    }
    let mut stored = stored;
    let mut skips = walked.skipped;
    let mut added = Vec::new();
    let mut checks = Vec::new();
    for e in walked.entries {
        match stored.remove(&e.path) {
            Some(s) => {
                if s.size != e.size || s.mtime_ns != e.mtime_ns || s.hash.is_empty() {
                    checks.push((s.id, e.path, s.hash));
                }
            }
            None => match still_skipped(skipped.get(&e.path), &e) {
                Some(skip) => skips.push(skip),
                None => added.push(e),
            },
        }
    }
    let mut removed: Vec<(i64, String)> = stored.into_iter().map(|(p, s)| (s.id, p)).collect();
    removed.sort();
    let plan = Plan {
        full,
        added,
        removed,
        checks,
        skips: SkipUpdate::Replace(skips),
        previous: HashMap::new(),
    };
    Ok((plan, errors))
}

/// The plan for exactly these root-relative paths (no walk).
pub fn from_paths(ctx: &Ctx, conn: &Connection, paths: &[String]) -> Result<Plan> {
    let filter = PathFilter::new(&ctx.ws, &ctx.config)?;
    let max = ctx.config.limits.max_file_bytes;
    let mut one = conn.prepare_cached(sql::STORED_BY_PATH)?;
    let skipped = load_skipped(conn)?;
    let mut plan = Plan {
        full: false,
        added: Vec::new(),
        removed: Vec::new(),
        checks: Vec::new(),
        skips: SkipUpdate::Replace(Vec::new()),
        previous: HashMap::new(),
    };
    let (mut clear, mut set) = (Vec::new(), Vec::new());
    let mut seen = HashSet::new();
    for p in paths {
        if !seen.insert(p.as_str()) {
            continue;
        }
        let md = std::fs::metadata(ctx.ws.abs(p))
            .ok()
            .filter(|m| m.is_file() && filter.in_scope(p));
        let prev = {
            use rusqlite::OptionalExtension;
            one.query_row([p], |r| {
                Ok(Stored {
                    id: r.get(0)?,
                    size: r.get::<_, i64>(1)? as u64,
                    mtime_ns: r.get(2)?,
                    hash: r.get(3)?,
                })
            })
            .optional()?
        };
        let Some(md) = md else {
            if let Some(s) = prev {
                plan.removed.push((s.id, p.clone()));
            }
            clear.push(p.clone());
            continue;
        };
        let (size, mtime_ns) = stat_of(&md);
        let e = Entry {
            path: p.clone(),
            size,
            mtime_ns,
        };
        if size > max {
            if let Some(s) = prev {
                plan.removed.push((s.id, p.clone()));
            }
            clear.push(p.clone());
            set.push(Skip {
                path: p.clone(),
                reason: "too-large",
                size: Some(size),
                mtime_ns: Some(mtime_ns),
            });
            continue;
        }
        match prev {
            Some(s) => {
                if s.size != size || s.mtime_ns != mtime_ns || s.hash.is_empty() {
                    plan.checks.push((s.id, p.clone(), s.hash));
                }
            }
            None => {
                if still_skipped(skipped.get(p), &e).is_none() {
                    clear.push(p.clone());
                    plan.added.push(e);
                }
            }
        }
    }
    plan.skips = SkipUpdate::Paths { clear, set };
    Ok(plan)
}
