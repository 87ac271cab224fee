//! The small-refresh lookup engine: a few files scanned on this thread without loading every
//! name (a hook's refresh of the one file just edited).
//!
//! Owns the choice between per-candidate lookups and one read of every name, and nothing else:
//! reading is `read::read_file`, resolution `resolve`, writing `rows`. Invariant: the mentions
//! found equal those of a matcher over every name (the names that can occur in a file are among
//! its boundary-valid substrings), whichever way the candidates are checked.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Result;
use rusqlite::Connection;

use super::resolve::{Bearers, Resolver};
use super::rows::{max_name_len, write_outcome};
use super::Run;
use crate::index::read::{found_by, read_file, FileRead, Work};
use crate::scan::matcher::{candidates, for_each_candidate, Engine, Matcher};
use crate::store::sql::index as sql;

/// Files up to this many bytes look their candidate names up one query each; a bigger one may
/// read every name once instead (see `small_pass`). (A static so tests can force either way:
/// the result must be the same.)
pub(crate) static LOOKUPS_PER_FILE: AtomicUsize = AtomicUsize::new(LOOKUPS_PER_FILE_DEFAULT);
pub(crate) const LOOKUPS_PER_FILE_DEFAULT: usize = 1024;
/// Up to this many files and bytes, scanning looks names up instead of loading them all.
/// (A static so tests can force either path: the result must be the same.)
pub(crate) static SMALL_FILES: AtomicUsize = AtomicUsize::new(SMALL_FILES_DEFAULT);
pub(crate) const SMALL_FILES_DEFAULT: usize = 32;
const SMALL_BYTES: u64 = 128 * 1024;

/// Whether `files` files of `bytes` bytes in all are few enough for `small_pass`.
pub(super) fn is_small(files: usize, bytes: u64) -> bool {
    files <= SMALL_FILES.load(Ordering::Relaxed) && bytes <= SMALL_BYTES
}

/// Reads and scans a few files on this thread without loading every name: the names that can
/// occur in a file are among its boundary-valid substrings, so those are looked up in `names`
/// and a matcher over just the ones found gives the same mentions as one over all names.
pub(super) fn small_pass(run: &mut Run<'_>, conn: &mut Connection, work: &[Work]) -> Result<()> {
    let max = run.ctx.config.limits.max_file_bytes;
    let names_cfg = &run.ctx.config.names;
    let root = run.ctx.ws.root.clone();
    let max_len = max_name_len(conn)?;
    let mut outcomes = Vec::with_capacity(work.len());
    {
        let mut exists = conn.prepare_cached(sql::NAME_EXISTS)?;
        // A big file has tens of thousands of candidates (about two per byte): one query each
        // (about 1 us) costs more than reading every name once (about 0.25 us a name) past
        // names / 8 bytes, so a bigger file checks its candidates against the names in memory.
        let mut all_names: Option<foldhash::HashSet<Box<[u8]>>> = None;
        let mut name_count: Option<usize> = None;
        let aliases = crate::scan::walk::Aliases::new(&run.ctx.ws, &run.ctx.config);
        for w in work {
            outcomes.push(read_file(&root, w, max, names_cfg, None, |bytes| {
                if aliases.is_alias(&w.path) {
                    return Ok(Vec::new());
                }
                let floor = LOOKUPS_PER_FILE.load(Ordering::Relaxed);
                if all_names.is_none() && bytes.len() > floor {
                    let n = match name_count {
                        Some(n) => n,
                        None => {
                            let n: i64 = conn.query_row(sql::NAME_COUNT, [], |r| r.get(0))?;
                            *name_count.insert(n as usize)
                        }
                    };
                    if bytes.len() > n / 8 {
                        let mut stmt = conn.prepare_cached(sql::DISTINCT_NAMES)?;
                        let mut rows = stmt.query([])?;
                        let mut names = foldhash::HashSet::default();
                        while let Some(r) = rows.next()? {
                            names.insert(Box::<[u8]>::from(r.get_ref(0)?.as_bytes()?));
                        }
                        all_names = Some(names);
                    }
                }
                let mut found: Vec<&str> = Vec::new();
                match &all_names {
                    Some(names) => {
                        let mut seen: foldhash::HashSet<&[u8]> = foldhash::HashSet::default();
                        for_each_candidate(bytes, max_len, |c| {
                            if names.contains(c) && seen.insert(c) {
                                if let Ok(s) = std::str::from_utf8(c) {
                                    found.push(s);
                                }
                            }
                        });
                    }
                    None => {
                        for c in candidates(bytes, max_len) {
                            if let Ok(s) = std::str::from_utf8(c) {
                                if exists.exists([s])? {
                                    found.push(s);
                                }
                            }
                        }
                    }
                }
                // Submodule words of qualified uses and capitalised list heads are no
                // candidates (no whole name as written).
                let unseen = crate::scan::mentions::unseen_words(bytes, &w.path);
                for word in &unseen {
                    if exists.exists([word])? {
                        found.push(word);
                    }
                }
                Ok(found_by(
                    &Matcher::new(&found, Engine::Lookup)?.with_conventional(&names_cfg.generic),
                    bytes,
                    &w.path,
                ))
            })?);
        }
    }
    let mut names: HashSet<&str> = HashSet::new();
    for o in &outcomes {
        if let FileRead::Scanned { mentions, .. } = o {
            names.extend(mentions.iter().map(|m| m.name.as_str()));
        }
    }
    let bearers = Bearers::for_names(conn, names)?;
    let resolver = Resolver::new(&bearers, &root);
    for o in &mut outcomes {
        resolver.resolve_outcome(o);
    }
    crate::store::write(conn, |tx| {
        for o in outcomes {
            write_outcome(run, tx, o)?;
        }
        Ok(())
    })
}
