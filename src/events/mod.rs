//! Change events: recording, the spill journal, ingestion (stub; the hooks issue replaces this).

use anyhow::Result;

use crate::ctx::Ctx;

/// Moves events that hooks spilled to the journal into the database; returns how many.
pub fn ingest_spill(_ctx: &Ctx) -> Result<usize> {
    Ok(0)
}
