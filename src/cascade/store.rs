//! Persistence of a cascade as one row of `cascades` (migration 0011), and choosing which
//! cascade a command acts on.
//!
//! Owns the row: the columns statements filter on (`state`, `iteration`, the session) and the
//! rest of the [`Cascade`] as one serde JSON document in `doc`; not the rules (that is
//! `machine`). Invariant: `save` writes the whole state of one cascade inside the caller's
//! transaction, so a process that loads it afterwards sees exactly what the saver had.

use anyhow::{Context, Result};
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::machine::{Cascade, State};
use crate::clock::now;
use crate::store::sql::cascade as sql;

/// Layout version of the `doc` JSON, stored in it as `v`. A field added with a serde default
/// keeps it (older rows load, older binaries ignore the field); a change an older binary would
/// misread bumps it, and such a binary then refuses the row instead of misreading it.
pub const STATE_VERSION: u32 = 1;

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

/// The `doc` as written.
#[derive(Serialize)]
struct Stored<'a> {
    v: u32,
    #[serde(flatten)]
    cascade: &'a Cascade,
}

/// The `doc` as read: one without `v` is version 1.
#[derive(Deserialize)]
struct Loaded {
    #[serde(default = "first_version")]
    v: u32,
    #[serde(flatten)]
    cascade: Cascade,
}

fn first_version() -> u32 {
    1
}

/// The active cascade that applies to `session`: its own, else an unbound one.
pub fn active_for_session(conn: &Connection, session: &str) -> Result<Option<(i64, u32)>> {
    let row = conn
        .prepare_cached(sql::ACTIVE_FOR_SESSION)?
        .query_row([session], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, u32>(1)?))
        })
        .optional()
        .context("looking up the active cascade")?;
    Ok(row)
}

/// The active cascade with exactly this binding (`None`: the unbound one), for the
/// one-active-per-session rule.
pub fn active_with_binding(conn: &Connection, session: Option<&str>) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached(sql::ACTIVE_WITH_BINDING)?
        .query_row([session], |r| r.get(0))
        .optional()?)
}

fn one_id(conn: &Connection, statement: &str, param: impl rusqlite::Params) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached(statement)?
        .query_row(param, |r| r.get::<_, Option<i64>>(0))
        .optional()?
        .flatten())
}

/// The cascade a command acts on. `active_only`: record/check/abort; otherwise (status) a
/// finished cascade may be chosen too.
pub fn select(conn: &Connection, sel: &Selector, active_only: bool) -> Result<Option<i64>> {
    let id = match sel {
        Selector::Cascade(id) => one_id(conn, sql::EXISTS, [id])?,
        Selector::Session(s) => match active_for_session(conn, s)? {
            Some((id, _)) => Some(id),
            None if active_only => None,
            None => one_id(conn, sql::LATEST_IN_SESSION, [s])?,
        },
        Selector::Latest => match one_id(conn, sql::LATEST_ACTIVE, [])? {
            Some(id) => Some(id),
            None if active_only => None,
            None => one_id(conn, sql::LATEST, [])?,
        },
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

fn to_json(c: &Cascade) -> Result<String> {
    serde_json::to_string(&Stored {
        v: STATE_VERSION,
        cascade: c,
    })
    .context("serialising the cascade")
}

/// Inserts a new cascade row and its state; returns its id.
pub fn insert(tx: &Connection, meta: &Meta, c: &Cascade) -> Result<i64> {
    let (state, iteration) = state_row(c.state)?;
    let ended = c.state.is_terminal().then(now);
    tx.prepare_cached(sql::INSERT)?
        .execute(params![
            meta.session_id,
            state,
            iteration,
            meta.impact_id,
            meta.source,
            meta.started_at,
            ended,
            to_json(c)?
        ])
        .context("inserting the cascade")?;
    Ok(tx.last_insert_rowid())
}

/// Writes the state of cascade `id` (the row was inserted before).
pub fn save(tx: &Connection, id: i64, c: &Cascade) -> Result<()> {
    let (state, iteration) = state_row(c.state)?;
    tx.prepare_cached(sql::SAVE)?
        .execute(params![id, state, iteration, now(), to_json(c)?])
        .with_context(|| format!("saving cascade {id}"))?;
    Ok(())
}

/// Loads cascade `id` exactly as it was saved.
pub fn load(conn: &Connection, id: i64) -> Result<Option<(Meta, Cascade)>> {
    let row = conn
        .prepare_cached(sql::LOAD)?
        .query_row([id], |r| {
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
                r.get::<_, String>(7)?,
            ))
        })
        .optional()
        .with_context(|| format!("reading cascade {id}"))?;
    let Some((meta, state, iteration, json)) = row else {
        return Ok(None);
    };
    let state = State::from_row(&state, iteration)
        .with_context(|| format!("cascade {id} has an unknown state {state:?}"))?;
    let loaded: Loaded = serde_json::from_str(&json)
        .with_context(|| format!("cascade {id}: its stored state is not a cascade"))?;
    if loaded.v > STATE_VERSION {
        anyhow::bail!(
            "cascade {id} was stored by a newer src (state layout {}, this binary reads up to {STATE_VERSION}): upgrade src",
            loaded.v
        );
    }
    let mut c = loaded.cascade;
    c.state = state;
    Ok(Some((meta, c)))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use super::*;
    use crate::cascade::machine::{Dependent, Edit, Observation, Outcome, Status};

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

    /// A version-10 database holding the cascades the old store wrote (`fixtures/cascade-v10`).
    fn version_10() -> Result<Connection> {
        let mut conn = Connection::open_in_memory()?;
        for (num, _, sql) in crate::store::MIGRATIONS.iter().filter(|m| m.0 <= 10) {
            conn.execute_batch(sql)?;
            conn.pragma_update(None, "user_version", num)?;
        }
        conn.execute_batch(include_str!("../../fixtures/cascade-v10/rows.sql"))?;
        crate::store::migrate(&mut conn, Path::new(":memory:"))?;
        Ok(conn)
    }

    #[test]
    fn migration_11_converts_every_cascade_exactly() -> Result<()> {
        let conn = version_10()?;
        let mut got = String::new();
        for id in 1..=4 {
            let (m, c) = load(&conn, id)?.with_context(|| format!("cascade {id}"))?;
            got.push_str(&format!("{m:#?}\n{c:#?}\n"));
            // The SQL conversion writes the very document `save` would.
            let doc: String =
                conn.query_row("SELECT doc FROM cascades WHERE id = ?1", [id], |r| r.get(0))?;
            assert_eq!(doc, to_json(&c)?, "cascade {id}");
        }
        // What the version-10 binary loaded from the same rows, field by field.
        assert_eq!(got, include_str!("../../fixtures/cascade-v10/states.txt"));
        let old: i64 = conn.query_row(
            "SELECT count(*) FROM sqlite_master WHERE name LIKE 'cascade%' AND name <> 'cascades' \
             AND name NOT IN ('cascades_one_active', 'cascades_by_session')",
            [],
            |r| r.get(0),
        )?;
        assert_eq!(old, 0, "the eight tables of 0005 are gone");
        // The columns the hooks and selectors filter on survive the conversion.
        assert_eq!(active_for_session(&conn, "s1")?, Some((1, 3)));
        assert_eq!(active_for_session(&conn, "s9")?, None);
        assert_eq!(select(&conn, &Selector::Latest, false)?, Some(1));
        assert_eq!(
            select(&conn, &Selector::Session("s2".into()), false)?,
            Some(2)
        );
        Ok(())
    }

    #[test]
    fn a_converted_cascade_goes_on_where_it_stopped() -> Result<()> {
        let mut conn = version_10()?;
        let (_, mut c) = load(&conn, 1)?.context("cascade 1")?;
        c.record(Outcome {
            file: ".claude/docs/chain-bravo.md".into(),
            status: Status::Complete,
            implementer: None,
        })?;
        let tx = conn.transaction()?;
        save(&tx, 1, &c)?;
        tx.commit()?;
        assert_eq!(load(&conn, 1)?.map(|x| x.1), Some(c));
        Ok(())
    }

    #[test]
    fn state_rows_take_defaults_for_missing_fields_and_ignore_unknown_ones() -> Result<()> {
        let conn = version_10()?;
        // A row as a later version might write it (a field this one does not know), and one
        // as an earlier layout might have (fields missing): both load.
        conn.execute(
            "UPDATE cascades SET doc = ?1 WHERE id = 4",
            [r#"{"v":1,"original":["a.md"],"later":{"x":1},"iterations":[{"number":1,"watermark":3,"implementers":1,"checked":true,"later":[]}]}"#],
        )?;
        let (_, c) = load(&conn, 4)?.context("cascade 4")?;
        assert_eq!(c.state, State::Converged);
        assert_eq!(c.original, BTreeSet::from(["a.md".to_string()]));
        assert!(c.updated.is_empty() && c.warnings.is_empty());
        assert_eq!(c.iterations.len(), 1);
        assert!(c.iterations[0].checked && c.iterations[0].targets.is_empty());
        // A layout this binary does not know is refused, not misread.
        conn.execute("UPDATE cascades SET doc = '{\"v\":2}' WHERE id = 4", [])?;
        let err = load(&conn, 4)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("cascade 4 was stored by a newer src"), "{err}");
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
