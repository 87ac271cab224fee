//! The parallel pass: rayon workers read, scan and resolve files; this thread is the single
//! writer, committing their outcomes in batches.
//!
//! Owns the channel between the workers and the writer and the batch size; the rows themselves
//! are `rows`'. Invariant: every work item's outcome is written exactly once, in one of the
//! batches, and the first error stops the pass (the workers' sends then fail and they finish).

use std::sync::mpsc;

use anyhow::Result;
use rayon::prelude::*;
use rusqlite::Connection;

use super::resolve::{Bearers, Resolver};
use super::rows::write_outcome;
use super::{Run, BATCH};
use crate::index::read::{found_by, read_file, FileRead, Work};
use crate::scan::matcher::Matcher;

/// Reads and scans `work` in parallel; one writer (this thread) commits batches.
pub(super) fn pass(
    run: &mut Run<'_>,
    conn: &mut Connection,
    work: &[Work],
    matcher: &Matcher,
    probe: Option<&Matcher>,
    bearers: &Bearers,
    progress: Option<&indicatif::ProgressBar>,
) -> Result<()> {
    let max = run.ctx.config.limits.max_file_bytes;
    let names_cfg = &run.ctx.config.names;
    let root = &run.ctx.ws.root;
    let (tx, rx) = mpsc::sync_channel::<Result<FileRead>>(1024);
    let resolver = Resolver::new(bearers, root);
    let resolver = &resolver;
    let aliases = crate::scan::walk::Aliases::new(&run.ctx.ws, &run.ctx.config);
    let aliases = &aliases;
    std::thread::scope(|s| -> Result<()> {
        s.spawn(move || {
            // Resolution happens here, beside the scan: the writer is the bottleneck.
            work.par_iter().for_each_with(tx, |tx, w| {
                let o = read_file(root, w, max, names_cfg, probe, |b| {
                    if aliases.is_alias(&w.path) {
                        return Ok(Vec::new());
                    }
                    Ok(found_by(matcher, b, &w.path))
                })
                .map(|mut o| {
                    resolver.resolve_outcome(&mut o);
                    o
                });
                let _ = tx.send(o);
            });
        });
        let mut batch: Vec<Result<FileRead>> = Vec::with_capacity(BATCH);
        let mut rx_iter = rx.into_iter().peekable();
        while rx_iter.peek().is_some() {
            batch.clear();
            while batch.len() < BATCH {
                match rx_iter.next() {
                    Some(o) => batch.push(o),
                    None => break,
                }
            }
            let n = batch.len() as u64;
            crate::store::write(conn, |tx| {
                for o in batch.drain(..) {
                    write_outcome(run, tx, o?)?;
                }
                Ok(())
            })?;
            if let Some(bar) = progress {
                bar.inc(n);
            }
        }
        Ok(())
    })
}
