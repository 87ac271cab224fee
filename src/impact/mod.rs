//! Impact analysis: DIRECT and 2-hop TRANSITIVE dependents of changed files, as the seed's L1
//! document (stub body; the impact issue fills it in). The L1 types here are the contract with
//! the cascade: field names and order follow the seed's boundary 4 exactly.

use anyhow::Result;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};

/// Version of the L1 document layout; bumped on any breaking change.
pub const SCHEMA_VERSION: u32 = 1;

/// The seed's execution-impact L1 document, plus `schema_version`, `impact_id` and `hubs`.
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
pub fn load_run(_conn: &Connection, _id: i64) -> Result<Option<ImpactL1>> {
    anyhow::bail!("impact::load_run is not implemented yet")
}
