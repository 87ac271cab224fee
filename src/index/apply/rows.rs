//! Row writes: every insert, update and delete of `files`, `names`, `mentions`, `edges` and
//! `skipped` that applying a plan makes, outside re-resolution (`resolve::reresolve_name`).
//!
//! Owns how an outcome, an added file, a removed file and a changed frontmatter name become
//! rows; decides nothing about what to read or how a mention resolves. Invariant: a mention is
//! stored once, as an edge when it resolves (to a file still in the index), else in `mentions`;
//! a file leaves with its children named explicitly (a full rebuild runs with foreign keys off),
//! its incoming edges turned back into mentions first.

use anyhow::{Context, Result};
use rusqlite::{params, Connection};

use super::delta::{FmCheck, NameDelta};
use super::Run;
use crate::index::plan::{Plan, SkipUpdate};
use crate::index::read::FileRead;
use crate::scan::names::NameKind;
use crate::scan::walk::Skip;
use crate::store::sql::index as sql;

/// `meta` key: an upper bound of the byte length of every name (exact after a full rebuild).
const META_MAX_NAME_LEN: &str = "max_name_len";

/// The plan's first transaction: a full rebuild empties every table; removals, changed
/// frontmatter names, additions (placeholder hash) with their path names, skipped rows, and the
/// name length bound. Returns the ids of the added files, in the plan's order.
pub(super) fn write_added(
    conn: &mut Connection,
    plan: &Plan,
    delta: &NameDelta,
    now: &str,
) -> Result<Vec<i64>> {
    let mut added_ids: Vec<i64> = Vec::with_capacity(plan.added.len());
    crate::store::write(conn, |tx| {
        if plan.full {
            tx.execute_batch(sql::CLEAR_INDEX_BATCH)?;
        }
        for (id, _) in &plan.removed {
            delete_file(tx, *id)?;
        }
        for c in &delta.fm_changes {
            set_frontmatter_name(tx, c)?;
        }
        let mut ins = tx.prepare_cached(sql::INSERT_FILE)?;
        let mut ins_name = tx.prepare_cached(sql::INSERT_NAME)?;
        for (e, names) in plan.added.iter().zip(delta.added_names.iter()) {
            ins.execute(params![e.path, e.size as i64, e.mtime_ns, now])?;
            let id = tx.last_insert_rowid();
            for (n, k) in names {
                ins_name.execute(params![id, n, k.as_str()])?;
            }
            added_ids.push(id);
        }
        write_skips(tx, &plan.skips)?;
        // Names only grow this bound; a removed long name leaves it loose, never wrong.
        let added_max = delta
            .added_names
            .iter()
            .flatten()
            .map(|(n, _)| n)
            .chain(&delta.changed_names)
            .map(String::len)
            .max()
            .unwrap_or(0);
        let bound = if plan.full {
            added_max
        } else {
            added_max.max(max_name_len(tx)?)
        };
        crate::store::meta_set(tx, META_MAX_NAME_LEN, &bound.to_string())?;
        Ok(())
    })?;
    Ok(added_ids)
}

/// A full rebuild's frontmatter names (`frontmatter[i]` of the file `ids[i]`), read while the
/// paths' names were written; the name length bound grows with them.
pub(super) fn write_frontmatter_names(
    conn: &mut Connection,
    ids: &[i64],
    frontmatter: &[Option<String>],
) -> Result<()> {
    crate::store::write(conn, |tx| {
        let mut ins = tx.prepare_cached(sql::INSERT_NAME)?;
        let mut longest = 0;
        for (id, name) in ids.iter().zip(frontmatter) {
            if let Some(n) = name {
                ins.execute(params![id, n, NameKind::Frontmatter.as_str()])?;
                longest = longest.max(n.len());
            }
        }
        if longest > max_name_len(tx)? {
            crate::store::meta_set(tx, META_MAX_NAME_LEN, &longest.to_string())?;
        }
        Ok(())
    })
}

/// After a full rebuild's pass: the secondary indexes come back (the deletes below and every
/// later pass look rows up by name and by target), then the files the pass excluded leave.
pub(super) fn restore_and_delete_deferred(conn: &mut Connection, deferred: &[i64]) -> Result<()> {
    crate::store::write(conn, |tx| {
        tx.execute_batch(sql::CREATE_SECONDARY_BATCH)?;
        for id in deferred {
            delete_file(tx, *id)?;
        }
        Ok(())
    })
}

/// Writes what reading one file found.
pub(super) fn write_outcome(run: &mut Run<'_>, tx: &Connection, o: FileRead) -> Result<()> {
    match o {
        FileRead::Untouched => {}
        FileRead::Same { id, size, mtime_ns } => {
            run.report.files_read += 1;
            tx.prepare_cached(sql::SET_STAT)?
                .execute(params![id, size as i64, mtime_ns])?;
        }
        FileRead::Excluded {
            id,
            path,
            reason,
            size,
            mtime_ns,
        } => {
            run.excluded_names.insert(id, names_of_file(tx, id)?);
            if run.full {
                run.deferred.push(id);
            } else {
                delete_file(tx, id)?;
            }
            if let Some(reason) = reason {
                tx.prepare_cached(sql::INSERT_SKIP)?.execute(params![
                    path,
                    reason,
                    size.map(|s| s as i64),
                    mtime_ns
                ])?;
            }
            run.excluded.insert(id, path);
        }
        FileRead::Scanned {
            id,
            size,
            mtime_ns,
            hash,
            old_hash,
            mentions,
            names_stale,
            ..
        } => {
            run.report.files_read += 1;
            if old_hash.is_some() {
                // A file just added has no mentions or edges yet.
                tx.prepare_cached(sql::DELETE_MENTIONS_FROM)?
                    .execute([id])?;
                tx.prepare_cached(sql::DELETE_EDGES_FROM)?.execute([id])?;
            }
            let mut ins_m = tx.prepare_cached(sql::INSERT_MENTION)?;
            let mut ins_e = tx.prepare_cached(sql::INSERT_EDGE)?;
            for m in &mentions {
                // A mention is stored once: as an edge when it resolves, else in `mentions`.
                // An edge into a file this pass excluded waits as a mention: the excluded
                // file's names are re-resolved after the pass, against the bearers left.
                match m.to {
                    Some((dst, res, kind)) if !run.excluded.contains_key(&dst) => {
                        // (A twin this pass excluded gets its edge when its names are
                        // re-resolved after the pass.)
                        let twin = m.also.filter(|t| !run.excluded.contains_key(t));
                        for dst in std::iter::once(dst).chain(twin) {
                            ins_e.execute(params![
                                id,
                                dst,
                                m.name,
                                m.line,
                                m.text,
                                res.as_str(),
                                m.cue as i64,
                                m.via,
                                kind.as_str()
                            ])?;
                        }
                    }
                    _ => {
                        ins_m.execute(params![
                            id,
                            m.name,
                            m.line,
                            m.text,
                            m.cue as i64,
                            m.via,
                            m.weak
                        ])?;
                    }
                }
            }
            let changed_at = match &old_hash {
                Some(h) if *h == hash => None,
                Some(h) if !h.is_empty() => {
                    run.report.changed += 1;
                    Some(run.now.clone())
                }
                _ => match run.left.get(&hash) {
                    Some(at) => {
                        if !run.full {
                            run.report.renamed += 1;
                        }
                        Some(at.clone())
                    }
                    None => Some(run.now.clone()),
                },
            };
            tx.prepare_cached(sql::SET_SCANNED)?.execute(params![
                id,
                size as i64,
                mtime_ns,
                if names_stale { "" } else { hash.as_str() },
                run.now,
                changed_at
            ])?;
        }
    }
    Ok(())
}

fn write_skips(tx: &Connection, skips: &SkipUpdate) -> Result<()> {
    match skips {
        SkipUpdate::Replace(all) => {
            tx.execute(sql::CLEAR_SKIPPED, [])?;
            for s in all {
                insert_skip(tx, s)?;
            }
        }
        SkipUpdate::Paths { clear, set } => {
            let mut del = tx.prepare_cached(sql::DELETE_SKIP)?;
            for p in clear {
                del.execute([p])?;
            }
            for s in set {
                insert_skip(tx, s)?;
            }
        }
    }
    Ok(())
}

fn insert_skip(tx: &Connection, s: &Skip) -> Result<()> {
    tx.prepare_cached(sql::INSERT_SKIP)?.execute(params![
        s.path,
        s.reason,
        s.size.map(|x| x as i64),
        s.mtime_ns
    ])?;
    Ok(())
}

/// Deletes an indexed file. The mentions resolved to it (stored only as edges) become unresolved
/// mentions first, so they are not lost with the cascade and re-resolve with the name.
fn delete_file(tx: &Connection, id: i64) -> Result<()> {
    tx.prepare_cached(sql::UNRESOLVE_EDGES_INTO)?
        .execute([id])?;
    // The children by name, not by cascade: a full rebuild runs with foreign keys off.
    tx.prepare_cached(sql::DELETE_EDGES_OF_FILE)?
        .execute([id])?;
    tx.prepare_cached(sql::DELETE_MENTIONS_FROM)?
        .execute([id])?;
    tx.prepare_cached(sql::DELETE_NAMES_OF_FILE)?
        .execute([id])?;
    tx.prepare_cached(sql::DELETE_FILE)?.execute([id])?;
    Ok(())
}

/// Gives a file that stays in the index another frontmatter name. The mentions resolved to it by
/// the old name (stored only as edges) become unresolved mentions first, so they re-resolve
/// with the name (or are rescanned when no file bears it any more).
fn set_frontmatter_name(tx: &Connection, c: &FmCheck) -> Result<()> {
    if let Some(old) = &c.old {
        tx.prepare_cached(sql::UNRESOLVE_EDGES_BY_NAME)?
            .execute(params![c.id, old])?;
        tx.prepare_cached(sql::DELETE_EDGES_BY_NAME)?
            .execute(params![c.id, old])?;
        tx.prepare_cached(sql::DELETE_NAME)?
            .execute(params![c.id, old])?;
    }
    if let Some(new) = &c.new {
        tx.prepare_cached(sql::INSERT_NAME)?.execute(params![
            c.id,
            new,
            NameKind::Frontmatter.as_str()
        ])?;
    }
    Ok(())
}

/// The names file `id` bears now.
fn names_of_file(tx: &Connection, id: i64) -> Result<Vec<String>> {
    let mut stmt = tx.prepare_cached(sql::NAMES_OF_FILE)?;
    let names = stmt
        .query_map([id], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<_>>>()
        .with_context(|| format!("reading the names of file {id}"))?;
    Ok(names)
}

/// The stored bound, or the exact value when none is stored.
pub(super) fn max_name_len(conn: &Connection) -> Result<usize> {
    if let Some(v) = crate::store::meta_get(conn, META_MAX_NAME_LEN)? {
        if let Ok(n) = v.parse() {
            return Ok(n);
        }
    }
    let n = conn.query_row(sql::MAX_NAME_LEN, [], |r| r.get::<_, i64>(0))?;
    Ok(n as usize)
}
