//! Impact alerts: the text (`format`), computing one when an implementer stops (`stop`), and
//! storing, merging and delivering pending ones (this file).
//!
//! Owns the `alerts` and `alert_watermarks` tables. Invariant: a session's watermark only moves
//! forward, and it moves in the same `BEGIN IMMEDIATE` transaction that stores the alert that
//! reported the events below it; an alert is delivered at most once.

use anyhow::{Context, Result};
use rusqlite::{params, Connection, OptionalExtension};

pub mod format;
pub mod reconcile;
pub mod stop;

use crate::store::sql::alert as sql;
use format::{Analysis, Kind};

/// How far a session's events and failed recorder runs have been reported.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Watermark {
    pub event_id: i64,
    pub run_id: i64,
}

/// The watermark of `session` (zero when none was stored).
pub fn watermark(conn: &Connection, session: &str) -> Result<Watermark> {
    Ok(conn
        .query_row(sql::WATERMARK, [session], |r| {
            Ok(Watermark {
                event_id: r.get(0)?,
                run_id: r.get(1)?,
            })
        })
        .optional()?
        .unwrap_or_default())
}

/// Moves the watermark forward (never back).
pub fn advance(tx: &Connection, session: &str, to: Watermark) -> Result<()> {
    tx.execute(
        sql::ADVANCE_WATERMARK,
        params![session, to.event_id, to.run_id, crate::clock::now()],
    )
    .context("moving the alert watermark")?;
    Ok(())
}

/// The newest event and failed-recorder-run ids of a session (what a watermark can move to).
pub fn head(conn: &Connection, session: &str) -> Result<Watermark> {
    let event_id = conn.query_row(sql::HEAD_EVENT, [session], |r| r.get(0))?;
    let run_id = conn.query_row(sql::HEAD_FAILED_RUN, [session], |r| r.get(0))?;
    Ok(Watermark { event_id, run_id })
}

/// Stores an alert as pending for the session; returns its id.
pub fn save(
    tx: &Connection,
    session: &str,
    agent_id: Option<&str>,
    kind: Kind,
    text: &str,
    analysis: &Analysis,
) -> Result<i64> {
    tx.execute(
        sql::SAVE,
        params![
            session,
            agent_id,
            kind.as_str(),
            text,
            serde_json::to_string(&analysis.changed)?,
            serde_json::to_string(&analysis.dependents)?,
            analysis.timed_out,
            crate::clock::now(),
            analysis.unattributed as i64
        ],
    )
    .context("storing the alert")?;
    Ok(tx.last_insert_rowid())
}

/// Takes the pending alerts of a session, marks them delivered and returns one merged text in
/// the seed's format, or `None` when nothing was pending. One transaction: two concurrent
/// deliveries never both print the same alert.
pub fn take_pending(conn: &mut Connection, session: &str) -> Result<Option<String>> {
    crate::store::write(conn, |tx| {
        let mut rows = Vec::new();
        {
            let mut stmt = tx.prepare(sql::PENDING)?;
            let mut q = stmt.query([session])?;
            while let Some(r) = q.next()? {
                let id: i64 = r.get(0)?;
                let kind = Kind::parse(&r.get::<_, String>(1)?);
                let text: String = r.get(2)?;
                let analysis = Analysis {
                    changed: serde_json::from_str(&r.get::<_, String>(3)?).unwrap_or_default(),
                    dependents: serde_json::from_str(&r.get::<_, String>(4)?).unwrap_or_default(),
                    timed_out: r.get(5)?,
                    unattributed: r.get::<_, i64>(6)?.max(0) as u64,
                };
                rows.push((id, kind, text, analysis));
            }
        }
        if rows.is_empty() {
            return Ok(None);
        }
        let now = crate::clock::now();
        for (id, ..) in &rows {
            tx.execute(sql::MARK_DELIVERED, params![id, now])?;
        }
        Ok(Some(merged_text(&rows)))
    })
}

/// One text for several pending alerts: impact/none alerts merge into one; otherwise the most
/// informative of the rest (a suppression note, then "0 for 0", then "no changes").
fn merged_text(rows: &[(i64, Kind, String, Analysis)]) -> String {
    let analysed: Vec<&Analysis> = rows
        .iter()
        .filter(|r| matches!(r.1, Kind::Impact | Kind::None))
        .map(|r| &r.3)
        .collect();
    if !analysed.is_empty() {
        return format::render(&format::merge(analysed)).1;
    }
    if let Some(r) = rows.iter().rev().find(|r| r.1 == Kind::Suppressed) {
        return r.2.clone();
    }
    format::NO_CHANGES.to_string()
}

#[cfg(test)]
mod tests {
    use super::format::{Dependent, Named};
    use super::*;
    use crate::events::tests::mem_db;

    fn analysis(changed: &str, dep: &str) -> Analysis {
        Analysis {
            changed: vec![Named {
                path: changed.into(),
                name: changed.into(),
            }],
            dependents: vec![Dependent {
                path: dep.into(),
                name: dep.into(),
                refs: vec![changed.into()],
            }],
            timed_out: false,
            unattributed: 0,
        }
    }

    #[test]
    fn pending_alerts_merge_and_deliver_once() -> Result<()> {
        let mut conn = mem_db()?;
        crate::store::write(&mut conn, |tx| {
            for (c, d) in [("a.md", "x.md"), ("b.md", "y.md")] {
                let a = analysis(c, d);
                let (kind, text) = format::render(&a);
                save(tx, "s", Some("ag"), kind, &text, &a)?;
            }
            save(
                tx,
                "other",
                None,
                Kind::Empty,
                format::NO_CHANGES,
                &Analysis::default(),
            )?;
            Ok(())
        })?;
        let text = take_pending(&mut conn, "s")?.unwrap_or_default();
        assert!(
            text.starts_with("SRC IMPACT ALERT: 2 files changed, 2 potential dependents"),
            "{text}"
        );
        assert!(
            text.contains("x.md (refs a.md), y.md (refs b.md)"),
            "{text}"
        );
        assert_eq!(take_pending(&mut conn, "s")?, None);
        assert_eq!(
            take_pending(&mut conn, "other")?.as_deref(),
            Some(format::NO_CHANGES)
        );
        Ok(())
    }

    #[test]
    fn watermark_only_moves_forward() -> Result<()> {
        let mut conn = mem_db()?;
        crate::store::write(&mut conn, |tx| {
            advance(
                tx,
                "s",
                Watermark {
                    event_id: 5,
                    run_id: 2,
                },
            )?;
            advance(
                tx,
                "s",
                Watermark {
                    event_id: 3,
                    run_id: 4,
                },
            )?;
            Ok(())
        })?;
        assert_eq!(
            watermark(&conn, "s")?,
            Watermark {
                event_id: 5,
                run_id: 4
            }
        );
        Ok(())
    }
}
