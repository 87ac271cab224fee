//! Persistence of a cascade in the tables of migration 0005, and choosing which cascade a
//! command acts on.
//!
//! Owns the mapping between [`Cascade`] and rows; not the rules (that is `machine`). Invariant:
//! `save` writes the whole state of one cascade inside the caller's transaction, so a process
//! that loads it afterwards sees exactly what the saver had (outcomes keep their first
//! `recorded_at`, iterations their `started_at`).

use anyhow::{Context, Result};
use rusqlite::{params, Connection, OptionalExtension};

use super::machine::{Cascade, Change, Iteration, Outcome, Reason, State, Status, Target, Warning};

/// The row facts of a cascade that the state machine does not need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    pub id: i64,
    /// `None`: bound to no session; it sees every session's edits.
    pub session_id: Option<String>,
    pub impact_id: Option<i64>,
    pub source: String,
    pub started_at: String,
    pub ended_at: Option<String>,
}

/// Which cascade a command acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    Cascade(i64),
    Session(String),
    /// The most recently started active cascade (for `status`: else the most recent one).
    Latest,
}

fn now() -> String {
    chrono::Local::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, false)
}

/// The active cascade that applies to `session`: its own, else an unbound one.
pub fn active_for_session(conn: &Connection, session: &str) -> Result<Option<(i64, u32)>> {
    let row = conn
        .query_row(
            "SELECT id, iteration FROM cascades WHERE state = 'active' \
             AND (session_id = ?1 OR session_id IS NULL) ORDER BY session_id IS NULL, id DESC LIMIT 1",
            [session],
            |r| Ok((r.get::<_, i64>(0)?, r.get::<_, u32>(1)?)),
        )
        .optional()
        .context("looking up the active cascade")?;
    Ok(row)
}

/// The active cascade with exactly this binding (`None`: the unbound one), for the
/// one-active-per-session rule.
pub fn active_with_binding(conn: &Connection, session: Option<&str>) -> Result<Option<i64>> {
    Ok(conn
        .query_row(
            "SELECT id FROM cascades WHERE state = 'active' AND coalesce(session_id, '') = coalesce(?1, '')",
            [session],
            |r| r.get(0),
        )
        .optional()?)
}

/// The cascade a command acts on. `active_only`: record/check/abort; otherwise (status) a
/// finished cascade may be chosen too.
pub fn select(conn: &Connection, sel: &Selector, active_only: bool) -> Result<Option<i64>> {
    let id = match sel {
        Selector::Cascade(id) => conn
            .query_row("SELECT id FROM cascades WHERE id = ?1", [id], |r| r.get(0))
            .optional()?,
        Selector::Session(s) => match active_for_session(conn, s)? {
            Some((id, _)) => Some(id),
            None if active_only => None,
            None => conn
                .query_row(
                    "SELECT id FROM cascades WHERE session_id = ?1 ORDER BY id DESC LIMIT 1",
                    [s],
                    |r| r.get(0),
                )
                .optional()?,
        },
        Selector::Latest => {
            let active = conn
                .query_row(
                    "SELECT id FROM cascades WHERE state = 'active' ORDER BY id DESC LIMIT 1",
                    [],
                    |r| r.get(0),
                )
                .optional()?;
            match active {
                Some(id) => Some(id),
                None if active_only => None,
                None => conn
                    .query_row("SELECT max(id) FROM cascades", [], |r| r.get(0))
                    .optional()?
                    .flatten(),
            }
        }
    };
    Ok(id)
}

fn state_row(state: State) -> Result<(&'static str, u32)> {
    match state {
        State::New => anyhow::bail!("a cascade that has not started cannot be stored"),
        State::Active { iteration } => Ok(("active", iteration)),
        other => Ok((other.name(), 0)),
    }
}

/// Inserts a new cascade row and its state; returns its id.
pub fn insert(tx: &Connection, meta: &Meta, c: &Cascade) -> Result<i64> {
    let (state, iteration) = state_row(c.state)?;
    let ended = c.state.is_terminal().then(now);
    tx.execute(
        "INSERT INTO cascades(session_id, state, iteration, impact_id, source, started_at, ended_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![meta.session_id, state, iteration, meta.impact_id, meta.source, meta.started_at, ended],
    )
    .context("inserting the cascade")?;
    let id = tx.last_insert_rowid();
    save_children(tx, id, c)?;
    Ok(id)
}

/// Writes the state of cascade `id` (the row was inserted before).
pub fn save(tx: &Connection, id: i64, c: &Cascade) -> Result<()> {
    let (state, iteration) = state_row(c.state)?;
    tx.execute(
        "UPDATE cascades SET state = ?2, iteration = ?3, \
         ended_at = CASE WHEN ?2 = 'active' THEN NULL ELSE coalesce(ended_at, ?4) END WHERE id = ?1",
        params![id, state, iteration, now()],
    )
    .context("updating the cascade")?;
    save_children(tx, id, c)
}

fn save_children(tx: &Connection, id: i64, c: &Cascade) -> Result<()> {
    for table in [
        "cascade_targets",
        "cascade_changes",
        "cascade_new_impacts",
        "cascade_files",
        "cascade_warnings",
    ] {
        tx.execute(&format!("DELETE FROM {table} WHERE cascade_id = ?1"), [id])?;
    }
    let now = now();
    for it in &c.iterations {
        tx.execute(
            "INSERT INTO cascade_iterations(cascade_id, iteration, watermark, implementers_spawned, started_at, checked_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, CASE WHEN ?6 THEN ?5 END) \
             ON CONFLICT(cascade_id, iteration) DO UPDATE SET \
             checked_at = CASE WHEN ?6 THEN coalesce(checked_at, ?5) END",
            params![id, it.number, it.watermark, it.implementers, now, it.checked],
        )?;
        for t in &it.targets {
            let reasons = serde_json::to_string(&t.reasons)?;
            tx.execute(
                "INSERT INTO cascade_targets(cascade_id, iteration, file, grp, retry, reasons) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![id, it.number, t.file, t.group, t.retry, reasons],
            )?;
        }
        // Outcomes are append-only: keep the stored ones (and their time), add the new ones.
        let stored: i64 = tx.query_row(
            "SELECT count(*) FROM cascade_outcomes WHERE cascade_id = ?1 AND iteration = ?2",
            params![id, it.number],
            |r| r.get(0),
        )?;
        for o in it
            .outcomes
            .iter()
            .skip(usize::try_from(stored).unwrap_or(0))
        {
            tx.execute(
                "INSERT INTO cascade_outcomes(cascade_id, iteration, file, status, implementer, recorded_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![id, it.number, o.file, o.status.name(), o.implementer, now],
            )?;
        }
        for ch in &it.changes {
            tx.execute(
                "INSERT INTO cascade_changes(cascade_id, iteration, file, status, implementer, target, edited) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![id, it.number, ch.file, ch.status.name(), ch.implementer, ch.target, ch.edited],
            )?;
        }
        for f in &it.new_impacts {
            tx.execute(
                "INSERT INTO cascade_new_impacts(cascade_id, iteration, file) VALUES (?1, ?2, ?3)",
                params![id, it.number, f],
            )?;
        }
    }
    for (role, set) in [
        ("original", &c.original),
        ("updated", &c.updated),
        ("skipped", &c.skipped),
    ] {
        for f in set {
            tx.execute(
                "INSERT INTO cascade_files(cascade_id, file, role) VALUES (?1, ?2, ?3)",
                params![id, f, role],
            )?;
        }
    }
    for (seq, w) in c.warnings.iter().enumerate() {
        tx.execute(
            "INSERT INTO cascade_warnings(cascade_id, seq, iteration, text) VALUES (?1, ?2, ?3, ?4)",
            params![id, seq as i64, w.iteration, w.text],
        )?;
    }
    Ok(())
}

/// Loads cascade `id` exactly as it was saved.
pub fn load(conn: &Connection, id: i64) -> Result<Option<(Meta, Cascade)>> {
    let row = conn
        .query_row(
            "SELECT session_id, state, iteration, impact_id, source, started_at, ended_at FROM cascades WHERE id = ?1",
            [id],
            |r| {
                Ok((
                    Meta {
                        id,
                        session_id: r.get(0)?,
                        impact_id: r.get(3)?,
                        source: r.get(4)?,
                        started_at: r.get(5)?,
                        ended_at: r.get(6)?,
                    },
                    r.get::<_, String>(1)?,
                    r.get::<_, u32>(2)?,
                ))
            },
        )
        .optional()
        .with_context(|| format!("reading cascade {id}"))?;
    let Some((meta, state, iteration)) = row else {
        return Ok(None);
    };
    let state = State::from_row(&state, iteration)
        .with_context(|| format!("cascade {id} has an unknown state {state:?}"))?;
    let mut c = Cascade::new();
    c.state = state;

    let mut stmt = conn.prepare(
        "SELECT iteration, watermark, implementers_spawned, checked_at IS NOT NULL \
         FROM cascade_iterations WHERE cascade_id = ?1 ORDER BY iteration",
    )?;
    let rows = stmt.query_map([id], |r| {
        Ok(Iteration {
            number: r.get(0)?,
            watermark: r.get(1)?,
            implementers: r.get(2)?,
            checked: r.get(3)?,
            targets: Vec::new(),
            outcomes: Vec::new(),
            changes: Vec::new(),
            new_impacts: Vec::new(),
        })
    })?;
    for it in rows {
        c.iterations.push(it?);
    }
    for it in &mut c.iterations {
        load_iteration(conn, id, it)?;
    }

    let mut stmt = conn.prepare("SELECT file, role FROM cascade_files WHERE cascade_id = ?1")?;
    let rows = stmt.query_map([id], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })?;
    for row in rows {
        let (file, role) = row?;
        match role.as_str() {
            "original" => c.original.insert(file),
            "updated" => c.updated.insert(file),
            _ => c.skipped.insert(file),
        };
    }
    let mut stmt = conn.prepare(
        "SELECT iteration, text FROM cascade_warnings WHERE cascade_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([id], |r| {
        Ok(Warning {
            iteration: r.get(0)?,
            text: r.get(1)?,
        })
    })?;
    for w in rows {
        c.warnings.push(w?);
    }
    Ok(Some((meta, c)))
}

fn status_of(s: &str) -> rusqlite::Result<Status> {
    Status::parse(s).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            0,
            rusqlite::types::Type::Text,
            format!("unknown outcome status {s:?}").into(),
        )
    })
}

fn load_iteration(conn: &Connection, id: i64, it: &mut Iteration) -> Result<()> {
    let n = it.number;
    let mut stmt = conn.prepare(
        "SELECT file, grp, retry, reasons FROM cascade_targets WHERE cascade_id = ?1 AND iteration = ?2 ORDER BY file",
    )?;
    let rows = stmt.query_map(params![id, n], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, u32>(1)?,
            r.get::<_, bool>(2)?,
            r.get::<_, String>(3)?,
        ))
    })?;
    for row in rows {
        let (file, group, retry, reasons) = row?;
        let reasons: Vec<Reason> = serde_json::from_str(&reasons)
            .with_context(|| format!("cascade {id}: reasons of target {file}"))?;
        it.targets.push(Target {
            file,
            group,
            retry,
            reasons,
        });
    }
    let mut stmt = conn.prepare(
        "SELECT file, status, implementer FROM cascade_outcomes WHERE cascade_id = ?1 AND iteration = ?2 ORDER BY id",
    )?;
    let rows = stmt.query_map(params![id, n], |r| {
        Ok(Outcome {
            file: r.get(0)?,
            status: status_of(&r.get::<_, String>(1)?)?,
            implementer: r.get(2)?,
        })
    })?;
    for o in rows {
        it.outcomes.push(o?);
    }
    let mut stmt = conn.prepare(
        "SELECT file, status, implementer, target, edited FROM cascade_changes \
         WHERE cascade_id = ?1 AND iteration = ?2 ORDER BY target DESC, file",
    )?;
    let rows = stmt.query_map(params![id, n], |r| {
        Ok(Change {
            file: r.get(0)?,
            status: status_of(&r.get::<_, String>(1)?)?,
            implementer: r.get(2)?,
            target: r.get(3)?,
            edited: r.get(4)?,
        })
    })?;
    for ch in rows {
        it.changes.push(ch?);
    }
    let mut stmt = conn.prepare(
        "SELECT file FROM cascade_new_impacts WHERE cascade_id = ?1 AND iteration = ?2 ORDER BY file",
    )?;
    let rows = stmt.query_map(params![id, n], |r| r.get::<_, String>(0))?;
    for f in rows {
        it.new_impacts.push(f?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use super::*;
    use crate::cascade::machine::{Dependent, Edit, Observation};

    fn dep(file: &str, changed: &str) -> Dependent {
        Dependent::mentioning(file, changed, 2)
    }

    #[test]
    fn save_then_load_is_exact_and_one_active_per_session() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        crate::store::migrate(&mut conn, Path::new(":memory:"))?;
        let mut c = Cascade::new();
        let original: BTreeSet<String> = ["x.md", "a/b.md", "c/d.md"].map(String::from).into();
        c.start(
            original,
            vec![dep("a/b.md", "x.md"), dep("c/d.md", "x.md")],
            vec!["w0".into()],
            7,
        )?;
        c.record(Outcome {
            file: "c/d.md".into(),
            status: Status::Failed,
            implementer: Some("implementer-2".into()),
        })?;
        c.check(Observation {
            edits: vec![Edit {
                file: "a/b.md".into(),
                implementer: None,
            }],
            dependents: Ok(vec![dep("e.md", "a/b.md")]),
            next_watermark: 9,
        })?;
        let meta = Meta {
            id: 0,
            session_id: Some("s1".into()),
            impact_id: Some(3),
            source: "impact 3".into(),
            started_at: "t".into(),
            ended_at: None,
        };
        let tx = conn.transaction()?;
        let id = insert(&tx, &meta, &c)?;
        tx.commit()?;
        let (m, loaded) = load(&conn, id)?.context("stored cascade")?;
        assert_eq!(loaded, c);
        assert_eq!(m.session_id.as_deref(), Some("s1"));
        assert_eq!(active_for_session(&conn, "s1")?, Some((id, 2)));
        assert_eq!(active_for_session(&conn, "s2")?, None);
        // The partial unique index refuses a second active cascade in the session.
        let tx = conn.transaction()?;
        assert!(insert(&tx, &meta, &c).is_err());
        drop(tx);
        // An unbound cascade applies to every session, after the session's own.
        let unbound = Meta {
            session_id: None,
            ..meta
        };
        let tx = conn.transaction()?;
        let free = insert(&tx, &unbound, &c)?;
        tx.commit()?;
        assert_eq!(active_for_session(&conn, "s2")?, Some((free, 2)));
        assert_eq!(active_for_session(&conn, "s1")?, Some((id, 2)));
        assert_eq!(active_with_binding(&conn, None)?, Some(free));
        assert_eq!(select(&conn, &Selector::Latest, true)?, Some(free));
        assert_eq!(
            select(&conn, &Selector::Session("s1".into()), true)?,
            Some(id)
        );
        Ok(())
    }

    proptest::proptest! {
        /// Whatever sequence of inputs, what a new process loads is exactly what was saved.
        #[test]
        fn any_state_round_trips(
            direct in proptest::collection::btree_set(1..6usize, 1..4),
            edges in proptest::collection::vec((0..6usize, 0..6usize), 0..12),
            ops in proptest::collection::vec((0..3u8, 0..6usize), 0..12),
        ) {
            let name = |i: usize| format!("d{}/f{i}.md", i % 2);
            let mut conn = Connection::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
            crate::store::migrate(&mut conn, Path::new(":memory:")).unwrap_or_else(|e| panic!("{e}"));
            let mut c = Cascade::new();
            let original: BTreeSet<String> = direct.iter().map(|i| name(*i)).collect();
            c.start(original, direct.iter().map(|i| dep(&name(*i), &name(0))).collect(), vec![], 0)
                .unwrap_or_else(|e| panic!("{e}"));
            let meta = Meta {
                id: 0,
                session_id: None,
                impact_id: None,
                source: "p".into(),
                started_at: "t".into(),
                ended_at: None,
            };
            let tx = conn.transaction().unwrap_or_else(|e| panic!("{e}"));
            let id = insert(&tx, &meta, &c).unwrap_or_else(|e| panic!("{e}"));
            tx.commit().unwrap_or_else(|e| panic!("{e}"));
            let mut pending = Vec::new();
            for (kind, f) in ops {
                let _ = match kind {
                    0 => {
                        pending.push(Edit { file: name(f), implementer: None });
                        Ok(())
                    }
                    1 => c
                        .record(Outcome {
                            file: name(f),
                            status: if f % 2 == 0 { Status::Complete } else { Status::Failed },
                            implementer: Some("i".into()),
                        })
                        .map(|_| ()),
                    _ => {
                        let deps = edges
                            .iter()
                            .filter(|(_, to)| pending.iter().any(|e: &Edit| e.file == name(*to)))
                            .map(|(from, to)| dep(&name(*from), &name(*to)))
                            .collect();
                        c.check(Observation {
                            edits: std::mem::take(&mut pending),
                            dependents: Ok(deps),
                            next_watermark: 1,
                        })
                        .map(|_| ())
                    }
                };
                let tx = conn.transaction().unwrap_or_else(|e| panic!("{e}"));
                save(&tx, id, &c).unwrap_or_else(|e| panic!("{e}"));
                tx.commit().unwrap_or_else(|e| panic!("{e}"));
                let loaded = load(&conn, id).unwrap_or_else(|e| panic!("{e}")).map(|x| x.1);
                proptest::prop_assert_eq!(loaded.as_ref(), Some(&c));
            }
        }
    }
}
