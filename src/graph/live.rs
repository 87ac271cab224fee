//! The degraded live scan: the dependents of some files found without an index, by one walk and
//! one read of each file, within a time budget.
//!
//! Owns nothing of the rules: names, matching and cues are `scan`'s (`scan::mentions`, the same
//! reading the index does), resolution is `scan::refs`'s, so a live answer equals what the
//! index would say (but for a frontmatter name of a file other than the targets beside a
//! target's name, which can make a list of names: the reads learn those too late).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use rayon::prelude::*;

use crate::config::Config;
use crate::graph::Edge;
use crate::scan::matcher::{self, Engine, Matcher};
use crate::scan::refs::{decide, Decision, Mention as RefMention};
use crate::scan::{cue, frontmatter_of, names, walk};
use crate::workspace::Workspace;

/// The result of scanning the tree without an index (degraded mode).
#[derive(Debug, Clone, Default)]
pub struct LiveScan {
    /// Edges into the target files found by the scan.
    pub edges: Vec<Edge>,
    /// The time budget ran out before every file was read.
    pub truncated: bool,
}

/// Scans the scope for mentions of `targets` (root-relative paths) without using the index,
/// stopping when `budget` runs out. Mentions are found with an automaton of every file's names
/// (from their paths; frontmatter names only of the targets), as the index finds them;
/// ambiguity is resolved against every file in scope, as the index does.
///
/// Each file is read once: the read finds the targets' names in it and its frontmatter name
/// (which may make it a bearer of one of them); mentions are resolved after every read, when all
/// bearers are known.
pub fn live_dependents(
    ws: &Workspace,
    config: &Config,
    targets: &[String],
    budget: Duration,
) -> Result<LiveScan> {
    let start = Instant::now();
    let walked = walk::walk(ws, config)?;
    let wanted: HashSet<&str> = targets.iter().map(String::as_str).collect();
    let mut target_names: Vec<String> = Vec::new();
    for t in targets {
        let fm = frontmatter_of(&ws.root, t, &config.names);
        target_names.extend(
            names::names_with(t, fm.as_deref(), &config.names)
                .into_iter()
                .map(|(n, _)| n),
        );
    }
    let name_set: HashSet<&str> = target_names.iter().map(String::as_str).collect();
    // The other files' names too, as the index's matcher has them: a name's cue may depend on
    // the names beside it (`mentions::listed_together`), and a longer name covering a target's
    // is then seen as the index sees it. Frontmatter names, known only after the reads, are
    // the one difference.
    let path_names: Vec<Vec<String>> = walked
        .entries
        .iter()
        .map(|e| {
            names::names_of(&e.path, &config.names)
                .into_iter()
                .map(|(n, _)| n)
                .collect()
        })
        .collect();
    let mut all_names = target_names.clone();
    all_names.extend(path_names.iter().flatten().cloned());
    let matcher =
        Matcher::new(&all_names, Engine::Automaton)?.with_conventional(&config.names.generic);
    let truncated = AtomicBool::new(false);
    let max = config.limits.max_file_bytes;
    let aliases = crate::scan::walk::Aliases::new(ws, config);
    // What one read of a file yields: `None` when it was not read (out of time, binary, too
    // large, unreadable), which also means it bears no name, as in the index.
    struct Read {
        fm: Option<String>,
        found: Vec<(matcher::Mention, cue::Cue)>,
    }
    let reads: Vec<Option<Read>> = walked
        .entries
        .par_iter()
        .map(|e| {
            if start.elapsed() > budget {
                truncated.store(true, Ordering::Relaxed);
                return None;
            }
            let bytes = match std::fs::read(ws.abs(&e.path)) {
                Ok(b) if b.len() as u64 <= max => b,
                _ => return None,
            };
            if memchr::memchr(0, &bytes[..bytes.len().min(8192)]).is_some() {
                return None;
            }
            // Another in-scope file under a second name mentions nothing of its own.
            if aliases.is_alias(&e.path) {
                return Some(Read {
                    fm: names::frontmatter_name(&e.path, &bytes, &config.names),
                    found: Vec::new(),
                });
            }
            // Only the targets' names can make an answer: the others are dropped here, the
            // kept ones get their evidence while the bytes are at hand.
            let found = crate::scan::mentions::mentions_in(&matcher, &bytes, &e.path)
                .into_iter()
                .filter(|(m, _)| name_set.contains(matcher.name(m.name)))
                .map(|(mut m, c)| {
                    m.text = crate::scan::mentions::evidence(&bytes, &m);
                    (m, c)
                })
                .collect();
            Some(Read {
                fm: names::frontmatter_name(&e.path, &bytes, &config.names),
                found,
            })
        })
        .collect();
    // Every bearer of a target's name, so ambiguity resolves as in the index.
    let mut bearers: HashMap<String, Vec<(i64, String)>> = HashMap::new();
    // A file's names: those of its path, and the frontmatter name its read found (which
    // `names::frontmatter_name` gives only when `names_with` would add it).
    for (i, ((e, r), own)) in walked
        .entries
        .iter()
        .zip(&reads)
        .zip(&path_names)
        .enumerate()
    {
        let fm = r.as_ref().and_then(|r| r.fm.as_ref());
        for n in own.iter().chain(fm) {
            if name_set.contains(n.as_str()) {
                bearers
                    .entry(n.clone())
                    .or_default()
                    .push((i as i64, e.path.clone()));
            }
        }
    }
    let tree = crate::index::tree_of(&ws.root);
    let disk = crate::index::RootDisk::new(&ws.root);
    let mut edges = Vec::new();
    for (e, r) in walked.entries.iter().zip(reads) {
        let Some(r) = r else { continue };
        for (m, c) in r.found {
            let name = matcher.name(m.name);
            let Some(bs) = bearers.get(name) else {
                continue;
            };
            let cands: Vec<(i64, &str)> = bs.iter().map(|(id, p)| (*id, p.as_str())).collect();
            let rm = RefMention {
                src: &e.path,
                name,
                cue: c.bits,
                via: c.via.as_deref(),
                text: &m.text,
            };
            if let Decision::Edge(dst, res, kind) = decide(&rm, &cands, tree, &disk) {
                let twin = crate::scan::refs::twin(&e.path, name, c.bits, dst, &cands);
                for dst in std::iter::once(dst).chain(twin) {
                    let dst = &walked.entries[dst as usize].path;
                    if wanted.contains(dst.as_str()) {
                        edges.push(Edge {
                            src: e.path.clone(),
                            dst: dst.clone(),
                            name: name.to_string(),
                            line: m.line,
                            text: m.text.clone(),
                            resolution: res.as_str().to_string(),
                            kind: kind.as_str().to_string(),
                        });
                    }
                }
            }
        }
    }
    edges.sort();
    Ok(LiveScan {
        edges,
        truncated: truncated.into_inner(),
    })
}
