//! `export`: views of the reference graph for people and other tools — `codebase-map.md` (the
//! seed's boundary 6), its validator, and Mermaid/DOT pictures.
//!
//! The map is a rendering of the database, never its primary store: nothing here writes SQLite.
//! Owns: loading what a view needs (`model`), the map text and its atomic write (`render`),
//! reading any map back (`parse`), the validation contract and staleness report (`check`), the
//! manage-codebase L1 health report (`report`), and graph drawings (`draw`).
//! Invariant: the same database and options always give the same bytes (sorted, no clock).

pub mod check;
pub mod draw;
pub mod model;
pub mod parse;
pub mod render;
pub mod report;

use serde::Serialize;

/// The seed's hotspot score. Ordered so that pruning can drop the lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Low,
    Medium,
    High,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Low => "low",
            Level::Medium => "medium",
            Level::High => "high",
        }
    }

    pub fn parse(s: &str) -> Option<Level> {
        match s {
            "low" => Some(Level::Low),
            "medium" => Some(Level::Medium),
            "high" => Some(Level::High),
            _ => None,
        }
    }

    /// The level a `refd_by` count alone earns (recent changes may raise it to `high`).
    pub fn from_count(refd_by: usize, cfg: &crate::config::Hotspot) -> Level {
        if refd_by >= cfg.high_refd_by {
            Level::High
        } else if refd_by >= cfg.medium_refd_by {
            Level::Medium
        } else {
            Level::Low
        }
    }
}

/// One `## path` section of the map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Root-relative path.
    pub path: String,
    /// Display names of the files this file mentions, sorted, deduplicated.
    pub refs: Vec<String>,
    /// Display names of the files that mention this file, sorted, deduplicated.
    pub refd_by: Vec<String>,
    pub hotspot: Level,
    /// `YYYY-MM-DD`: when the index last saw the file's content change.
    pub updated: String,
}
