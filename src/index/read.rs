//! Reading one file for the index: open, stat, read, reject binary or oversized content, hash,
//! and scan for mentions when needed. Runs on rayon workers; touches no database.
//!
//! Invariant: an outcome describes the bytes actually read (size, mtime and hash of the same
//! open file), so a file changing during the scan is caught on the next run.

use std::io::Read;
use std::path::Path;

use anyhow::Result;

use crate::config::Names;
use crate::scan::matcher::Matcher;
use crate::scan::names::frontmatter_name;
use crate::scan::refs::{never_an_edge, RefKind};
use crate::scan::resolve::Resolution;

/// Bytes inspected for a NUL to call a file binary.
pub const BINARY_SNIFF: usize = 8 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkKind {
    /// Read and scan.
    Scan,
    /// Stat changed: hash, and scan only when the content changed.
    Check,
    /// Unchanged: scan only when a newly added name occurs in it.
    Probe,
}

#[derive(Debug, Clone)]
pub struct Work {
    pub id: i64,
    pub path: String,
    pub kind: WorkKind,
    pub old_hash: Option<String>,
    /// The frontmatter name the index holds for the file during this pass (read from its head
    /// before the pass, or stored): the bytes read must declare the same.
    pub fm: Option<String>,
}

impl Work {
    pub fn new(
        id: i64,
        path: &str,
        kind: WorkKind,
        old_hash: Option<String>,
        fm: Option<String>,
    ) -> Work {
        Work {
            id,
            path: path.to_string(),
            kind,
            old_hash,
            fm,
        }
    }
}

pub enum FileRead {
    /// Nothing to write (a probe found none of the new names).
    Untouched,
    /// Same content; only the stat moved.
    Same { id: i64, size: u64, mtime_ns: i64 },
    /// The file no longer belongs in the index; `reason` None means it vanished.
    Excluded {
        id: i64,
        path: String,
        reason: Option<&'static str>,
        size: Option<u64>,
        mtime_ns: Option<i64>,
    },
    Scanned {
        id: i64,
        path: String,
        size: u64,
        mtime_ns: i64,
        hash: String,
        old_hash: Option<String>,
        mentions: Vec<Found>,
        /// The bytes declare another frontmatter name than the index holds (the file changed
        /// between the head read before the pass and this read): the names are stale, so the
        /// file is stored with an empty hash and the next run reads it again.
        names_stale: bool,
    },
}

/// One mention, name spelled out, its cue, and the file it resolves to (`None` until resolved,
/// and when it resolves to none: a self mention, a tie, a name no file bears, or a weak
/// mention, which `weak` tells apart).
pub struct Found {
    pub name: String,
    pub line: u32,
    pub text: String,
    pub cue: u64,
    pub via: Option<String>,
    pub to: Option<(i64, Resolution, RefKind)>,
    /// A second file the mention names with `to`'s: its variant declaring the same name
    /// (`scan::refs::twin`).
    pub also: Option<i64>,
    pub weak: bool,
}

/// Reads `w` under `root` and decides what the index should record; `scan` finds the mentions
/// (`(name, line, text)`) in the bytes when the file needs scanning.
pub fn read_file(
    root: &Path,
    w: &Work,
    max: u64,
    names: &Names,
    probe: Option<&Matcher>,
    scan: impl FnOnce(&[u8]) -> Result<Vec<Found>>,
) -> Result<FileRead> {
    let excluded = |reason, size, mtime_ns| {
        Ok(FileRead::Excluded {
            id: w.id,
            path: w.path.clone(),
            reason,
            size,
            mtime_ns,
        })
    };
    let file = match std::fs::File::open(root.join(&w.path)) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return excluded(None, None, None),
        Err(_) => return excluded(Some("unreadable"), None, None),
    };
    let (size, mtime_ns) = match file.metadata() {
        Ok(md) if md.is_file() => crate::scan::walk::stat_of(&md),
        Ok(_) => return excluded(None, None, None),
        Err(_) => return excluded(Some("unreadable"), None, None),
    };
    if size > max {
        return excluded(Some("too-large"), Some(size), Some(mtime_ns));
    }
    let mut bytes = Vec::with_capacity(size as usize + 1);
    if file.take(max + 1).read_to_end(&mut bytes).is_err() {
        return excluded(Some("unreadable"), Some(size), Some(mtime_ns));
    }
    if bytes.len() as u64 > max {
        return excluded(Some("too-large"), Some(bytes.len() as u64), Some(mtime_ns));
    }
    let sniff = &bytes[..bytes.len().min(BINARY_SNIFF)];
    if memchr::memchr(0, sniff).is_some() {
        return excluded(Some("binary"), Some(size), Some(mtime_ns));
    }
    let hash = blake3::hash(&bytes).to_hex().to_string();
    let same = w.old_hash.as_deref() == Some(hash.as_str());
    let names_stale = frontmatter_name(&w.path, &bytes, names) != w.fm;
    let mentions_probed = || probe.is_some_and(|p| may_mention(p, &bytes, &w.path));
    let needs_scan = match w.kind {
        WorkKind::Scan => true,
        WorkKind::Check => !same || names_stale || mentions_probed(),
        // A file read only for the names that come or go: scanned when it may mention one.
        // Another change of its own is its own check's (a refresh of some paths leaves the
        // rest as stale as it found them).
        WorkKind::Probe => mentions_probed(),
    };
    if !needs_scan {
        return Ok(match w.kind {
            WorkKind::Probe => FileRead::Untouched,
            _ => FileRead::Same {
                id: w.id,
                size,
                mtime_ns,
            },
        });
    }
    Ok(FileRead::Scanned {
        id: w.id,
        path: w.path.clone(),
        size,
        mtime_ns,
        hash,
        old_hash: w.old_hash.clone(),
        mentions: scan(&bytes)?,
        names_stale,
    })
}

/// Whether the file at `path` may mention one of the probe's (new) names: a whole name as
/// written or capitalised (the probe holds both forms, see `probe_names`), a submodule in
/// a qualified use's chain, the README of a folder link, or a folder's file written without
/// it (`mentions::generic_paths`; no whole names).
fn may_mention(probe: &Matcher, bytes: &[u8], path: &str) -> bool {
    use crate::scan::mentions::{chained_words, folder_link_names, generic_path_names};
    probe.any_valid(bytes)
        || knows_any(probe, &chained_words(bytes, path))
        || knows_any(probe, &folder_link_names(bytes, path))
        || knows_any(probe, &generic_path_names(bytes, path))
}

/// Whether the probe knows any of `words`.
fn knows_any<S: AsRef<str>>(probe: &Matcher, words: &[S]) -> bool {
    words.iter().any(|w| probe.id_of(w.as_ref()).is_some())
}

/// The names a probe for `new` names looks for: each as written and, when it starts with a
/// lower-case letter, capitalised (a list of names may start a sentence with one), and a
/// compound role noun in title case (`matcher::capitalised`).
pub fn probe_names(new: &[String]) -> Vec<String> {
    let mut out: Vec<String> = new.to_vec();
    for n in new {
        let mut c = n.chars();
        if let Some(f) = c.next().filter(char::is_ascii_lowercase) {
            out.push(f.to_ascii_uppercase().to_string() + c.as_str());
        }
        out.extend(
            crate::scan::matcher::capitalised(n)
                .into_iter()
                .filter(|t| t.contains('-')),
        );
    }
    out
}

/// The mentions of `matcher` in `bytes` of the file at `path`, with names as strings and cues
/// (`scan::mentions`), less those no set of bearers could make an edge (see `never_an_edge`).
pub fn found_by(matcher: &Matcher, bytes: &[u8], path: &str) -> Vec<Found> {
    crate::scan::mentions::mentions_in(matcher, bytes, path)
        .into_iter()
        .filter_map(|(m, c)| {
            let name = matcher.name(m.name);
            let distinctive = || matcher.is_distinctive(m.name);
            if never_an_edge(path, name, distinctive, c.bits, c.via.as_deref()) {
                return None;
            }
            Some(Found {
                name: name.to_string(),
                line: m.line,
                text: crate::scan::mentions::evidence(bytes, &m),
                cue: c.bits,
                via: c.via,
                to: None,
                also: None,
                weak: false,
            })
        })
        .collect()
}
