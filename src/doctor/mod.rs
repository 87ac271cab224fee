//! `src doctor`'s engine: is the installation working, and at which degradation level, as a
//! typed [`Report`] of findings that the command prints (text or JSON).
//!
//! Owns the checks and the level (seed ADR-SRC-6 adapted): `full` = the recorder and the
//! SubagentStop hook configured (in the settings, or by the enabled `src` plugin, whose hooks
//! find a `src` binary) and pointing at an existing executable, the database current and
//! the index present and at most 30% stale; `degraded` = hooks configured but the index missing
//! or staler (or the database not current/writable); `none` = hooks not configured. Invariant:
//! never ingests or migrates before it has looked (it reports the state as found); lists every
//! hook entry of ours it finds and reports a hook missing once, whichever of the two routes
//! would provide it. `hooks.rs` checks the Claude Code side, `state.rs` the database and index.

use std::fmt;
use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use crate::config::{self, OnInvalid};
use crate::ctx::Ctx;
use crate::events::{self, spill};
use crate::index;
use crate::store;
use crate::store::sql::doctor as sql;
use crate::workspace::Workspace;

mod hooks;
mod state;

use hooks::{check_hooks, check_skills};
use state::{check_database, check_index, check_runs};

/// Above this share of stale index entries the level drops to `degraded`.
const MAX_STALE: f64 = 0.30;

/// How a finding went (`ok`, `warn`, `error` in the report).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Warn,
    Error,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Status::Ok => "ok",
            Status::Warn => "warn",
            Status::Error => "error",
        })
    }
}

/// The degradation level (`full`, `degraded`, `none` in the report).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Full,
    Degraded,
    None,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Level::Full => "full",
            Level::Degraded => "degraded",
            Level::None => "none",
        })
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub status: Status,
    pub check: &'static str,
    pub message: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub level: Level,
    pub reason: String,
    pub findings: Vec<Finding>,
}

impl Report {
    /// Whether something is wrong: the level is not `full` or a check failed.
    pub fn wrong(&self) -> bool {
        self.level != Level::Full || self.findings.iter().any(|f| f.status == Status::Error)
    }
}

struct Checks(Vec<Finding>);

impl Checks {
    fn add(&mut self, status: Status, check: &'static str, message: impl Into<String>) {
        self.0.push(Finding {
            status,
            check,
            message: message.into(),
        });
    }
}

/// One step of `--repair`, in the order it happened.
#[derive(Debug)]
pub enum Repaired {
    /// A file of the database moved aside (kept, renamed).
    MovedAside { from: PathBuf, to: PathBuf },
    /// The database is usable: nothing moved.
    Usable(PathBuf),
    /// The index was rebuilt; how many events the database holds.
    Rebuilt { files: u64, edges: u64, events: i64 },
}

/// `--repair`: a database SQLite cannot use is renamed aside (never deleted), a new one is
/// created and indexed, and the spill journal is ingested into it; each step goes to `note`.
pub fn repair(ws: &Workspace, note: &mut dyn FnMut(Repaired) -> Result<()>) -> Result<()> {
    if ws.db_path.exists() && store::probe_with(&ws.db_path, true).is_err() {
        let stamp = crate::clock::stamp();
        for suffix in ["", "-wal", "-shm"] {
            let from = PathBuf::from(format!("{}{suffix}", ws.db_path.display()));
            if from.exists() {
                let to = PathBuf::from(format!("{}.broken-{stamp}{suffix}", ws.db_path.display()));
                std::fs::rename(&from, &to).map_err(|e| {
                    anyhow::anyhow!("moving {} aside to {}: {e}", from.display(), to.display())
                })?;
                note(Repaired::MovedAside { from, to })?;
            }
        }
    } else {
        note(Repaired::Usable(ws.db_path.clone()))?;
    }
    let ctx = Ctx::open_ws(ws.clone())?;
    events::ingest_spill(&ctx.ws, &ctx.store)?;
    let report = index::run(
        &ctx,
        &index::IndexOptions {
            full: true,
            progress: false,
        },
    )?;
    let events: i64 = ctx
        .store
        .conn()?
        .query_row(sql::EVENT_COUNT, [], |r| r.get(0))?;
    note(Repaired::Rebuilt {
        files: report.files_in_scope,
        edges: report.edges,
        events,
    })
}

/// Runs every check and decides the level.
/// `subcommands` are the names of `src`'s subcommands (a skill that runs one of them uses src).
pub fn diagnose(ws: &Workspace, subcommands: &[String]) -> Result<Report> {
    let mut c = Checks(Vec::new());
    let loaded = config::load(&ws.config_path, OnInvalid::Defaults)?;
    for w in loaded.warnings {
        c.add(Status::Warn, "config", w);
    }
    if let Some(e) = loaded.invalid {
        c.add(Status::Error, "config", e);
    }
    let config = loaded.config;
    let (hooks_ok, plugin_runs) = check_hooks(ws, &config, &mut c);
    check_skills(ws, subcommands, plugin_runs, &mut c);
    let db_ok = check_database(ws, &mut c);
    let backlog = spill::backlog_lines(ws);
    if backlog > 0 {
        c.add(
            Status::Warn,
            "spill",
            format!(
                "{backlog} events wait in {} (the next src command ingests them)",
                ws.spill_path().display()
            ),
        );
    } else {
        c.add(Status::Ok, "spill", "no spill backlog");
    }
    c.add(
        Status::Ok,
        "spill",
        format!(
            "fallback journal (when {} cannot take an event): {}",
            ws.state_dir.display(),
            spill::fallback_dir(ws).display()
        ),
    );
    let index_ok = if db_ok {
        check_runs(ws, &mut c);
        check_index(ws, config, &mut c)
    } else {
        Err("the database is not usable".to_string())
    };
    let (level, reason) = match (&hooks_ok, db_ok, &index_ok) {
        (Err(why), ..) => (Level::None, why.clone()),
        (Ok(()), false, _) => (
            Level::Degraded,
            "the database is not current or not writable".into(),
        ),
        (Ok(()), true, Err(why)) => (Level::Degraded, why.clone()),
        (Ok(()), true, Ok(())) => (
            Level::Full,
            "hooks configured, database current, index fresh".into(),
        ),
    };
    Ok(Report {
        level,
        reason,
        findings: c.0,
    })
}
