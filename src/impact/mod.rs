//! Impact analysis: DIRECT and 2-hop TRANSITIVE dependents of changed files, as the seed's L1
//! document and L2 report. The L1 types here are the contract with the cascade: field names and
//! order follow the seed's boundary 4 exactly; `schema_version`, `impact_id`, `hubs` and `notes`
//! are extra optional keys.
//!
//! Split: `decide` (status, confidence, cascade rule: pure), `assemble` (edges to rows, limits,
//! hubs: pure), `render` (L2 markdown), `check` (the L1 validator), `runs` (stored runs),
//! `analyze` (inputs, index refresh, graph reads, live-scan fallback). Invariant: every L1 this
//! module produces passes `check::validate` with no errors.

use anyhow::Result;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};

pub mod analyze;
pub mod assemble;
pub mod check;
pub mod decide;
pub mod render;
pub mod runs;

pub use analyze::{analyze, Input};

/// Version of the L1 document layout; bumped on any breaking change.
pub const SCHEMA_VERSION: u32 = 1;

/// The seed's execution-impact L1 document, plus `schema_version`, `impact_id`, `hubs`, `notes`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImpactL1 {
    pub schema_version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impact_id: Option<i64>,
    pub domain: String,
    pub skill: String,
    pub status: String,
    pub confidence: String,
    pub files_changed: u64,
    pub impact_candidates: u64,
    pub degradation_level: String,
    pub impacts: Vec<Impact>,
    pub cascade_recommended: bool,
    pub cascade_rationale: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hubs: Vec<Hub>,
    /// What was cut, skipped or degraded (the L2 "Notes" section, one line each).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Impact {
    pub changed_file: String,
    pub dependents: Vec<Dependent>,
    pub dependent_count: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dependent {
    pub file: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub hop_count: u8,
    pub reference_pattern: String,
    pub evidence: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hub {
    pub file: String,
    pub dependents: u64,
}

/// A stored impact run by id (`None` when there is no such run).
pub fn load_run(conn: &Connection, id: i64) -> Result<Option<ImpactL1>> {
    Ok(runs::load(conn, id)?.map(|r| r.l1))
}
