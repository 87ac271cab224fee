//! Names and matching: which strings a file is known by, and where they occur in bytes; plus the
//! degraded live scan used when no index exists.
//!
//! Owns the naming and matching rules; knows nothing of the database. Invariant: the index and
//! the live scan use exactly these rules, so a live answer equals what the index would say.

pub mod cue;
pub mod matcher;
pub mod names;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use rayon::prelude::*;

use self::matcher::{Engine, Matcher};
use crate::graph::refs::{decide, Decision, Mention as RefMention};

use crate::config::Config;
use crate::graph::Edge;
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
/// stopping when `budget` runs out. Mentions are found with an automaton of the targets' names
/// only, so a longer name of another file covering one of them is not seen (a rare
/// over-report); ambiguity is resolved against every file in scope, as the index does.
pub fn live_dependents(
    ws: &Workspace,
    config: &Config,
    targets: &[String],
    budget: Duration,
) -> Result<LiveScan> {
    let start = Instant::now();
    let walked = crate::index::walk::walk(ws, config)?;
    let wanted: HashSet<&str> = targets.iter().map(String::as_str).collect();
    let mut target_names: Vec<String> = Vec::new();
    for t in targets {
        target_names.extend(
            names::names_of(t, &config.names)
                .into_iter()
                .map(|(n, _)| n),
        );
    }
    let name_set: HashSet<&str> = target_names.iter().map(String::as_str).collect();
    // Every bearer of a target's name, so ambiguity resolves as in the index.
    let mut bearers: HashMap<String, Vec<(i64, String)>> = HashMap::new();
    for (i, e) in walked.entries.iter().enumerate() {
        for (n, _) in names::names_of(&e.path, &config.names) {
            if name_set.contains(n.as_str()) {
                bearers
                    .entry(n)
                    .or_default()
                    .push((i as i64, e.path.clone()));
            }
        }
    }
    let matcher = Matcher::new(&target_names, Engine::Automaton)?;
    let tree = crate::index::tree_of(&ws.root);
    let truncated = AtomicBool::new(false);
    let max = config.limits.max_file_bytes;
    let mut edges: Vec<Edge> = walked
        .entries
        .par_iter()
        .flat_map_iter(|e| {
            if start.elapsed() > budget {
                truncated.store(true, Ordering::Relaxed);
                return Vec::new();
            }
            let bytes = match std::fs::read(ws.abs(&e.path)) {
                Ok(b) if b.len() as u64 <= max => b,
                _ => return Vec::new(),
            };
            if memchr::memchr(0, &bytes[..bytes.len().min(8192)]).is_some() {
                return Vec::new();
            }
            let mut out = Vec::new();
            let langs = cue::FileLangs::of(&e.path, &bytes);
            for m in matcher.mentions(&bytes) {
                let name = matcher.name(m.name);
                let Some(bs) = bearers.get(name) else {
                    continue;
                };
                let cands: Vec<(i64, &str)> = bs.iter().map(|(id, p)| (*id, p.as_str())).collect();
                let c = langs.cue(&bytes, m.start, m.end, cue::is_data(&e.path));
                let rm = RefMention {
                    src: &e.path,
                    name,
                    cue: c.bits,
                    via: c.via.as_deref(),
                };
                let exists = |p: &str| crate::index::file_exists(&ws.root, p);
                if let Decision::Edge(dst, res, kind) = decide(&rm, &cands, tree, &exists) {
                    let dst = &walked.entries[dst as usize].path;
                    if wanted.contains(dst.as_str()) {
                        out.push(Edge {
                            src: e.path.clone(),
                            dst: dst.clone(),
                            name: name.to_string(),
                            line: m.line,
                            text: m.text,
                            resolution: res.as_str().to_string(),
                            kind: kind.as_str().to_string(),
                        });
                    }
                }
            }
            out
        })
        .collect();
    edges.sort();
    Ok(LiveScan {
        edges,
        truncated: truncated.into_inner(),
    })
}
