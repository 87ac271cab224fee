//! `src doctor [--json]`: is the installation working, and at which degradation level.
//!
//! Owns the checks and the level (seed ADR-SRC-6 adapted): `full` = the recorder and the
//! SubagentStop hook configured and pointing at an existing executable, the database current and
//! the index present and at most 30% stale; `degraded` = hooks configured but the index missing
//! or staler (or the database not current/writable); `none` = hooks not configured. Invariant:
//! exits non-zero when the level is not `full` or any check failed; never ingests or migrates
//! before it has looked (it reports the state as found).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use rusqlite::Connection;
use serde::Serialize;

use crate::config::Delivery;
use crate::ctx::Ctx;
use crate::events::{self, settings, spill};
use crate::index::{self, Freshness};
use crate::store;
use crate::workspace::{GlobalOpts, Workspace};

/// Above this share of stale index entries the level drops to `degraded`.
const MAX_STALE: f64 = 0.30;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format: text or json (`--json` is the same as `--format json`)
    #[arg(long, value_enum, default_value_t = super::TextOrJson::Text)]
    pub format: super::TextOrJson,
    /// Print a JSON report (`level`, `reason`, `findings`)
    #[arg(long)]
    pub json: bool,
    /// Move a database SQLite cannot use aside (it is kept, renamed), create a new one, rebuild
    /// the index and bring back the events the hooks spilled meanwhile
    #[arg(long)]
    pub repair: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// ok, warn or error.
    pub status: &'static str,
    pub check: &'static str,
    pub message: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub level: &'static str,
    pub reason: String,
    pub findings: Vec<Finding>,
}

struct Checks(Vec<Finding>);

impl Checks {
    fn add(&mut self, status: &'static str, check: &'static str, message: impl Into<String>) {
        self.0.push(Finding {
            status,
            check,
            message: message.into(),
        });
    }
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let ws = Workspace::resolve(g)?;
    if !ws.state_dir.exists() && !ws.db_path.exists() {
        anyhow::bail!(
            "no src project here ({}: no {}): run `src init`",
            ws.root.display(),
            ws.db_path.display()
        );
    }
    if args.repair {
        repair(&ws)?;
    }
    let report = diagnose(&ws)?;
    let mut out = std::io::stdout().lock();
    if args.json || args.format == super::TextOrJson::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        writeln!(out, "level: {} ({})", report.level, report.reason)?;
        for f in &report.findings {
            writeln!(out, "{:<5} {}: {}", f.status, f.check, f.message)?;
        }
    }
    let wrong = report.level != "full" || report.findings.iter().any(|f| f.status == "error");
    Ok(if wrong {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `--repair`: a database SQLite cannot use is renamed aside (never deleted), a new one is
/// created and indexed, and the spill journal is ingested by opening it.
fn repair(ws: &Workspace) -> Result<()> {
    let mut out = std::io::stdout().lock();
    if ws.db_path.exists() && store::probe_with(&ws.db_path, true).is_err() {
        let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
        for suffix in ["", "-wal", "-shm"] {
            let from = std::path::PathBuf::from(format!("{}{suffix}", ws.db_path.display()));
            if from.exists() {
                let to = std::path::PathBuf::from(format!(
                    "{}.broken-{stamp}{suffix}",
                    ws.db_path.display()
                ));
                std::fs::rename(&from, &to).map_err(|e| {
                    anyhow::anyhow!("moving {} aside to {}: {e}", from.display(), to.display())
                })?;
                writeln!(
                    out,
                    "repair: moved {} aside to {}",
                    from.display(),
                    to.display()
                )?;
            }
        }
    } else {
        writeln!(
            out,
            "repair: {} is usable; nothing moved",
            ws.db_path.display()
        )?;
    }
    let ctx = Ctx::open_ws(ws.clone())?;
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
        .query_row("SELECT count(*) FROM events", [], |r| r.get(0))?;
    writeln!(
        out,
        "repair: index rebuilt ({} files, {} edges); {events} event(s) in the database",
        report.files_in_scope, report.edges
    )?;
    Ok(())
}

/// Runs every check and decides the level.
pub fn diagnose(ws: &Workspace) -> Result<Report> {
    let mut c = Checks(Vec::new());
    let config = match crate::config::load(&ws.config_path) {
        Ok(l) => {
            for w in l.warnings {
                c.add("warn", "config", w);
            }
            l.config
        }
        Err(e) => {
            c.add("error", "config", format!("{e:#}"));
            crate::config::Config::default()
        }
    };
    let hooks_ok = check_settings(ws, config.alerts.delivery, &mut c);
    let db_ok = check_database(ws, &mut c);
    let backlog = spill::backlog_lines(ws);
    if backlog > 0 {
        c.add(
            "warn",
            "spill",
            format!(
                "{backlog} events wait in {} (the next src command ingests them)",
                ws.spill_path().display()
            ),
        );
    } else {
        c.add("ok", "spill", "no spill backlog");
    }
    c.add(
        "ok",
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
        (Err(why), ..) => ("none", why.clone()),
        (Ok(()), false, _) => (
            "degraded",
            "the database is not current or not writable".into(),
        ),
        (Ok(()), true, Err(why)) => ("degraded", why.clone()),
        (Ok(()), true, Ok(())) => (
            "full",
            "hooks configured, database current, index fresh".into(),
        ),
    };
    Ok(Report {
        level,
        reason,
        findings: c.0,
    })
}

/// Our hook entries in the project's settings files; Err says why the level is `none`.
fn check_settings(ws: &Workspace, delivery: Delivery, c: &mut Checks) -> Result<(), String> {
    let mut found = Vec::new();
    for name in ["settings.json", "settings.local.json"] {
        let path = ws.root.join(".claude").join(name);
        match settings::read(&path) {
            Ok((doc, true)) => found.extend(settings::installed(&doc)),
            Ok((_, false)) => {}
            Err(e) => c.add("error", "settings", format!("{e:#}")),
        }
    }
    let mut missing = Vec::new();
    for (sub, required) in [
        ("post-tool-use", true),
        ("subagent-stop", true),
        ("deliver", delivery == Delivery::Lead),
    ] {
        let mine: Vec<_> = found.iter().filter(|(_, s, _)| s == sub).collect();
        let Some((event, _, bin)) = mine.first() else {
            if required {
                c.add(
                    "error",
                    "hooks",
                    format!("`src hook {sub}` is not configured (run `src hooks install`)"),
                );
                missing.push(sub);
            }
            continue;
        };
        if is_executable(Path::new(bin)) {
            c.add("ok", "hooks", format!("{event}: {bin} hook {sub}"));
        } else {
            c.add(
                "error",
                "hooks",
                format!("{event}: {bin} is not an executable file (run `src hooks install`)"),
            );
            if required {
                missing.push(sub);
            }
        }
    }
    match missing.first() {
        None => Ok(()),
        Some(sub) => Err(format!(
            "hook `{sub}` is not configured or its binary is missing"
        )),
    }
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Schema version and writability, without migrating. True when both are fine.
fn check_database(ws: &Workspace, c: &mut Checks) -> bool {
    if ws.db_path.exists() {
        if let Err(e) = store::probe_with(&ws.db_path, true) {
            c.add("error", "database", format!("{e:#}"));
            return false;
        }
    }
    if !ws.db_path.is_file() {
        c.add(
            "warn",
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
        let v: u32 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        let writable = conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK").is_ok();
        Ok((v, writable))
    };
    match probe() {
        Ok((v, writable)) => {
            let known = store::latest_version();
            let current = v == known;
            match v.cmp(&known) {
                std::cmp::Ordering::Equal => {
                    c.add("ok", "migrations", format!("schema version {v} is current"))
                }
                std::cmp::Ordering::Less => c.add(
                    "warn",
                    "migrations",
                    format!(
                        "schema version {v}, {known} available (the next src command migrates)"
                    ),
                ),
                std::cmp::Ordering::Greater => c.add(
                    "error",
                    "migrations",
                    format!("schema version {v} is newer than this binary ({known}); upgrade src"),
                ),
            }
            if writable {
                c.add(
                    "ok",
                    "database",
                    format!("{} is writable", ws.db_path.display()),
                );
            } else {
                c.add(
                    "error",
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
                "error",
                "database",
                format!("{}: {e:#}", ws.db_path.display()),
            );
            false
        }
    }
}

/// Last run and last failure of each hook, from the audit table.
fn check_runs(ws: &Workspace, c: &mut Checks) {
    let Ok(conn) = store::open_readonly(&ws.db_path) else {
        return;
    };
    for hook in ["post-tool-use", "subagent-stop", "deliver"] {
        match events::last_runs(&conn, hook) {
            Ok((None, _)) => c.add("warn", "runs", format!("{hook}: never ran")),
            Ok((Some((ts, outcome)), failed)) => {
                let tail = failed
                    .map(|(fts, what)| format!("; last failure {fts}: {what}"))
                    .unwrap_or_default();
                c.add(
                    "ok",
                    "runs",
                    format!("{hook}: last run {ts} ({outcome}){tail}"),
                );
            }
            Err(e) => c.add("warn", "runs", format!("{hook}: {e:#}")),
        }
    }
}

/// Warns when folders of a plugin or marketplace layout lie at the root but the scope leaves
/// them out (the index then holds a handful of files and every answer is empty).
fn check_scope_fits(ws: &Workspace, config: &crate::config::Config, c: &mut Checks) {
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
        "warn",
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
fn check_index(
    ws: &Workspace,
    config: crate::config::Config,
    c: &mut Checks,
) -> Result<(), String> {
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
            "warn",
            "index",
            "no index built (run `src index`); hooks fall back to a live scan",
        );
        return Err("the index is missing".into());
    }
    let paths: Vec<String> = ctx
        .store
        .conn()
        .and_then(|conn| {
            let mut stmt = conn.prepare("SELECT path FROM files")?;
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
        c.add("warn", "index", format!("{msg}; run `src index`"));
        Err(format!("the index is {:.0}% stale", share * 100.0))
    } else {
        c.add("ok", "index", msg);
        Ok(())
    }
}
