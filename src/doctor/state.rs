//! The state side of `src doctor`: the database (schema, writability, without migrating), the
//! hooks' last runs, the scope against the tree's layout, and the index's staleness.

use std::time::Duration;

use anyhow::Result;
use rusqlite::Connection;

use super::{sql, Checks, Status, MAX_STALE};
use crate::config::Config;
use crate::ctx::Ctx;
use crate::events;
use crate::index::{self, Freshness};
use crate::store;
use crate::workspace::Workspace;

/// Schema version and writability, without migrating. True when both are fine.
pub(super) fn check_database(ws: &Workspace, c: &mut Checks) -> bool {
    if ws.db_path.exists() {
        if let Err(e) = store::probe_with(&ws.db_path, true) {
            c.add(Status::Error, "database", format!("{e:#}"));
            return false;
        }
    }
    if !ws.db_path.is_file() {
        c.add(
            Status::Warn,
            "database",
            format!(
                "{} does not exist yet (run `src index`)",
                ws.db_path.display()
            ),
        );
        return false;
    }
    let probe = || -> Result<(u32, bool)> {
        let conn = Connection::open(&ws.db_path)?;
        conn.busy_timeout(Duration::from_secs(1))?;
        let v: u32 = conn.query_row(sql::USER_VERSION, [], |r| r.get(0))?;
        let writable = conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK").is_ok();
        Ok((v, writable))
    };
    match probe() {
        Ok((v, writable)) => {
            let known = store::latest_version();
            let current = v == known;
            match v.cmp(&known) {
                std::cmp::Ordering::Equal => c.add(
                    Status::Ok,
                    "migrations",
                    format!("schema version {v} is current"),
                ),
                std::cmp::Ordering::Less => c.add(
                    Status::Warn,
                    "migrations",
                    format!(
                        "schema version {v}, {known} available (the next src command migrates)"
                    ),
                ),
                std::cmp::Ordering::Greater => c.add(
                    Status::Error,
                    "migrations",
                    format!("schema version {v} is newer than this binary ({known}); upgrade src"),
                ),
            }
            if writable {
                c.add(
                    Status::Ok,
                    "database",
                    format!("{} is writable", ws.db_path.display()),
                );
            } else {
                c.add(
                    Status::Error,
                    "database",
                    format!(
                        "{} is not writable (locked or read-only)",
                        ws.db_path.display()
                    ),
                );
            }
            current && writable
        }
        Err(e) => {
            c.add(
                Status::Error,
                "database",
                format!("{}: {e:#}", ws.db_path.display()),
            );
            false
        }
    }
}

/// Last run and last failure of each hook, from the audit table.
pub(super) fn check_runs(ws: &Workspace, c: &mut Checks) {
    let Ok(conn) = store::open_readonly(&ws.db_path) else {
        return;
    };
    for hook in ["post-tool-use", "subagent-stop", "deliver"] {
        match events::last_runs(&conn, hook) {
            Ok((None, _)) => c.add(Status::Warn, "runs", format!("{hook}: never ran")),
            Ok((Some((ts, outcome)), failed)) => {
                let tail = failed
                    .map(|(fts, what)| format!("; last failure {fts}: {what}"))
                    .unwrap_or_default();
                c.add(
                    Status::Ok,
                    "runs",
                    format!("{hook}: last run {ts} ({outcome}){tail}"),
                );
            }
            Err(e) => c.add(Status::Warn, "runs", format!("{hook}: {e:#}")),
        }
    }
}

/// Warns when folders of a plugin or marketplace layout lie at the root but the scope leaves
/// them out (the index then holds a handful of files and every answer is empty).
fn check_scope_fits(ws: &Workspace, config: &Config, c: &mut Checks) {
    let (_, found) = crate::config::scope_for_tree(&ws.root);
    let covered = |dir: &str| {
        let d = dir.trim_end_matches('/');
        config.scope.include.iter().any(|g| {
            let g = g.trim_start_matches('/');
            g.starts_with("**") || g == d || g.starts_with(&format!("{d}/"))
        })
    };
    let left_out: Vec<&String> = found.iter().filter(|d| !covered(d)).collect();
    if left_out.is_empty() {
        return;
    }
    let names: Vec<&str> = left_out.iter().map(|d| d.as_str()).collect();
    c.add(
        Status::Warn,
        "scope",
        format!(
            "the scope leaves out {} at the root (a plugin or marketplace layout): add them to \
             scope.include in {} (e.g. \"{}**\") and run `src index`",
            names.join(", "),
            ws.config_path.display(),
            names[0]
        ),
    );
}

/// Index presence and staleness; Err says why the level is `degraded`.
pub(super) fn check_index(ws: &Workspace, config: Config, c: &mut Checks) -> Result<(), String> {
    let store = match store::Store::open(&ws.db_path) {
        Ok(s) => s,
        Err(e) => return Err(format!("{e:#}")),
    };
    let ctx = Ctx {
        ws: ws.clone(),
        config,
        store,
    };
    check_scope_fits(ws, &ctx.config, c);
    if !index::is_built(&ctx).unwrap_or(false) {
        c.add(
            Status::Warn,
            "index",
            "no index built (run `src index`); hooks fall back to a live scan",
        );
        return Err("the index is missing".into());
    }
    let paths: Vec<String> = ctx
        .store
        .conn()
        .and_then(|conn| {
            let mut stmt = conn.prepare(sql::FILE_PATHS)?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            Ok(rows.collect::<rusqlite::Result<Vec<String>>>()?)
        })
        .map_err(|e| format!("{e:#}"))?;
    let fresh = index::freshness(&ctx, &paths).map_err(|e| format!("{e:#}"))?;
    let stale = fresh
        .iter()
        .filter(|(_, f)| matches!(f, Freshness::Stale | Freshness::Missing))
        .count();
    let share = if paths.is_empty() {
        0.0
    } else {
        stale as f64 / paths.len() as f64
    };
    let msg = format!(
        "{} files indexed, {stale} stale ({:.0}%)",
        paths.len(),
        share * 100.0
    );
    if share > MAX_STALE {
        c.add(Status::Warn, "index", format!("{msg}; run `src index`"));
        Err(format!("the index is {:.0}% stale", share * 100.0))
    } else {
        c.add(Status::Ok, "index", msg);
        Ok(())
    }
}
