//! Stored impact runs (`impact_runs`, migration 0004): writing a run and reading it back.
//!
//! Invariant: the stored L1 carries its own `impact_id`, and the stored L2 was rendered from that
//! same L1, so `src impact show ID` prints exactly what the run printed.

use anyhow::{Context, Result};
use rusqlite::{Connection, OptionalExtension};

use super::{render, ImpactL1};
use crate::store::sql::impact as sql;

/// A run as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRun {
    pub id: i64,
    pub created_at: String,
    pub session: Option<String>,
    pub input_kind: String,
    pub l1: ImpactL1,
    pub l2: String,
}

/// Stores `l1` (its `impact_id` is set here) and its L2; returns the completed run.
pub fn save(
    conn: &mut Connection,
    mut l1: ImpactL1,
    input_kind: &str,
    session: Option<&str>,
) -> Result<StoredRun> {
    let created_at = crate::clock::now();
    crate::store::write(conn, |tx| {
        // The id is only known after the insert; the row is completed in the same transaction.
        tx.execute(
            sql::INSERT_RUN,
            rusqlite::params![created_at, session, input_kind, l1.status, l1.confidence],
        )
        .context("storing the impact run")?;
        let id = tx.last_insert_rowid();
        l1.impact_id = Some(id);
        let l2 = render::l2(&l1);
        let json = serde_json::to_string(&l1).context("encoding the L1 as JSON")?;
        tx.execute(sql::COMPLETE_RUN, rusqlite::params![json, l2, id])
            .context("storing the impact run")?;
        Ok(StoredRun {
            id,
            created_at: created_at.clone(),
            session: session.map(str::to_string),
            input_kind: input_kind.to_string(),
            l1: l1.clone(),
            l2,
        })
    })
}

/// The run with this id, if any.
pub fn load(conn: &Connection, id: i64) -> Result<Option<StoredRun>> {
    let row = conn
        .query_row(sql::LOAD_RUN, [id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
            ))
        })
        .optional()
        .with_context(|| format!("reading impact run {id}"))?;
    let Some((created_at, session, input_kind, json, l2)) = row else {
        return Ok(None);
    };
    let l1: ImpactL1 = serde_json::from_str(&json)
        .with_context(|| format!("impact run {id}: stored L1 is not a valid document"))?;
    Ok(Some(StoredRun {
        id,
        created_at,
        session,
        input_kind,
        l1,
        l2,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn saved_run_loads_back_with_its_id() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        crate::store::migrate(&mut conn, Path::new(":memory:"))?;
        let l1 = ImpactL1 {
            schema_version: 1,
            impact_id: None,
            domain: "execution".into(),
            skill: "impact".into(),
            status: "skipped".into(),
            confidence: "high".into(),
            files_changed: 0,
            impact_candidates: 0,
            degradation_level: "full".into(),
            impacts: vec![],
            cascade_recommended: false,
            cascade_rationale: "nothing".into(),
            hubs: vec![],
            notes: vec![],
        };
        let run = save(&mut conn, l1, "files", None)?;
        assert_eq!(run.l1.impact_id, Some(run.id));
        let back = crate::impact::load_run(&conn, run.id)?;
        assert_eq!(back, Some(run.l1.clone()));
        assert!(load(&conn, run.id)?.is_some_and(|r| r.l2.contains("src impact show")));
        assert_eq!(crate::impact::load_run(&conn, run.id + 1)?, None);
        Ok(())
    }
}
