//! Names and matching: which strings a file is known by, and where they occur in bytes
//! (stub; the reference-graph issue replaces this).

use std::time::Duration;

use anyhow::Result;

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
/// stopping when `budget` runs out.
pub fn live_dependents(
    _ws: &Workspace,
    _config: &Config,
    _targets: &[String],
    _budget: Duration,
) -> Result<LiveScan> {
    anyhow::bail!("scan::live_dependents is not implemented yet")
}
