//! `src doctor [--json]`: is the installation working, and at which degradation level.
//!
//! Owns the checks and the level (seed ADR-SRC-6 adapted): `full` = the recorder and the
//! SubagentStop hook configured (in the settings, or by the enabled `src` plugin, whose hooks
//! find a `src` binary) and pointing at an existing executable, the database current and
//! the index present and at most 30% stale; `degraded` = hooks configured but the index missing
//! or staler (or the database not current/writable); `none` = hooks not configured. Invariant:
//! exits non-zero when the level is not `full` or any check failed; never ingests or migrates
//! before it has looked (it reports the state as found); lists every hook entry of ours it finds
//! and reports a hook missing once, whichever of the two routes would provide it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use rusqlite::Connection;
use serde::Serialize;

use crate::config::Delivery;
use crate::ctx::Ctx;
use crate::events::{self, spill};
use crate::index::{self, Freshness};
use crate::install::plugin::{self, Handler};
use crate::install::settings;
use crate::install::skills;
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
    let ctx = super::open_ws(ws.clone())?;
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
    let (hooks_ok, plugin_runs) = check_hooks(ws, &config, &mut c);
    check_skills(ws, plugin_runs, &mut c);
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

/// Lists each of our hook entries, from the settings or from the plugin, and the other hook
/// commands whose script is missing. Returns Err with why the level is `none`, and whether the
/// plugin's hooks run.
fn check_hooks(
    ws: &Workspace,
    config: &crate::config::Config,
    c: &mut Checks,
) -> (Result<(), String>, bool) {
    let wanted = settings::wanted(&config.alerts.implementer_types);
    let cfg_dir = plugin::claude_config_dir();
    // Our handlers in the project's settings files: (file, handler, binary).
    let mut ours: Vec<(String, Handler, String)> = Vec::new();
    // Other entries whose script is missing, reported after ours.
    let mut broken: Vec<String> = Vec::new();
    let mut files = vec![
        ws.root.join(".claude/settings.json"),
        ws.root.join(".claude/settings.local.json"),
    ];
    let user = cfg_dir.as_ref().map(|d| d.join("settings.json"));
    files.extend(user.clone());
    for path in &files {
        let shown = ws
            .relative(path)
            .unwrap_or_else(|| path.display().to_string());
        let doc = match settings::read(path) {
            Ok((doc, true)) => doc,
            Ok((_, false)) => continue,
            Err(e) if Some(path) == user.as_ref() => {
                c.add("warn", "settings", format!("{e:#}"));
                continue;
            }
            Err(e) => {
                c.add("error", "settings", format!("{e:#}"));
                continue;
            }
        };
        for h in plugin::handlers(&doc) {
            match settings::parse_ours(&h.command) {
                Some((bin, _)) => ours.push((shown.clone(), h, bin)),
                None => {
                    if let Some((word, abs)) = missing_script(&h.command, &ws.root) {
                        let resolved = if Path::new(&word) == abs {
                            String::new()
                        } else {
                            format!(" ({})", abs.display())
                        };
                        broken.push(format!(
                            "{} in {shown} runs {word}, which does not exist{resolved}: fix or \
                             remove that entry",
                            entry_name(&h.event, h.matcher.as_deref()),
                        ));
                    }
                }
            }
        }
    }
    let required = |sub: &str| sub != "deliver" || config.alerts.delivery == Delivery::Lead;
    // Subcommands with a working entry, by either route.
    let mut covered: Vec<String> = Vec::new();

    if !ours.is_empty() {
        let mut used = vec![false; ours.len()];
        for w in &wanted {
            let matches = |h: &Handler| {
                settings::parse_ours(&h.command).is_some_and(|(_, sub)| sub == w.sub)
                    && h.event == w.event
                    && (h.matcher == w.matcher || w.event == "SubagentStop")
            };
            // The same handler in several settings files runs once: all of them are this entry.
            for (i, (_, h, _)) in ours.iter().enumerate() {
                used[i] |= matches(h);
            }
            let mut name = entry_name(&w.event, w.matcher.as_deref());
            match ours.iter().position(|(_, h, _)| matches(h)) {
                Some(i) => {
                    let (file, h, bin) = &ours[i];
                    // A SubagentStop matcher the user changed is shown as it is.
                    name = entry_name(&h.event, h.matcher.as_deref());
                    if is_executable(Path::new(bin)) {
                        c.add(
                            "ok",
                            "hooks",
                            format!("{name}: {bin} hook {} ({file})", w.sub),
                        );
                        covered.push(w.sub.clone());
                    } else {
                        c.add(
                            "error",
                            "hooks",
                            format!(
                                "{name} ({file}): {bin} is not an executable file (run `src \
                                 hooks install`)"
                            ),
                        );
                    }
                }
                None if required(&w.sub) => c.add(
                    "warn",
                    "hooks",
                    format!(
                        "{name}: no `src hook {}` entry (run `src hooks install`)",
                        w.sub
                    ),
                ),
                None => {}
            }
        }
        for (i, (file, h, _)) in ours.iter().enumerate() {
            if !used[i] {
                c.add(
                    "warn",
                    "hooks",
                    format!(
                        "{} in {file}: `{}` is not an entry this src installs (`src hooks \
                         install --uninstall` then `src hooks install` puts back the current set)",
                        entry_name(&h.event, h.matcher.as_deref()),
                        h.command
                    ),
                );
            }
        }
    }

    let install = plugin::find_install(&ws.root, cfg_dir.as_deref());
    let mut plugin_runs = false;
    if let Some(inst) = &install {
        plugin_runs = check_plugin(inst, &wanted, &mut covered, c);
    }
    if plugin_runs && !ours.is_empty() {
        c.add(
            "warn",
            "hooks",
            format!(
                "installed twice: by the plugin {} and in {}; every hook runs twice. Keep one: \
                 `src hooks install --uninstall` removes the settings entries",
                install
                    .as_ref()
                    .map(|i| i.key.as_str())
                    .unwrap_or(plugin::NAME),
                ours[0].0
            ),
        );
    }

    for b in broken {
        c.add("warn", "hooks", b);
    }
    let mut missing = Vec::new();
    for sub in ["post-tool-use", "subagent-stop", "deliver"] {
        if !required(sub) || covered.iter().any(|s| s == sub) {
            continue;
        }
        // An entry that exists but fails was reported above; say "not configured" only once.
        let listed = ours
            .iter()
            .any(|(_, h, _)| settings::parse_ours(&h.command).is_some_and(|(_, s)| s == sub));
        let plugin_listed = install.as_ref().is_some_and(plugin::Install::active);
        if !listed && !plugin_listed {
            c.add(
                "error",
                "hooks",
                format!(
                    "`src hook {sub}` is not configured (run `src init --claude`, or install the \
                     plugin: `src plugin export DIR`, then `claude plugin marketplace add DIR` \
                     and `claude plugin install {}@{}`)",
                    plugin::NAME,
                    plugin::MARKETPLACE
                ),
            );
        }
        missing.push(sub);
    }
    let plugin_without_binary =
        install.as_ref().is_some_and(plugin::Install::active) && !plugin_runs;
    let level = match missing.first() {
        None => Ok(()),
        Some(_) if plugin_without_binary && ours.is_empty() => {
            Err("the plugin's hooks find no src binary".to_string())
        }
        Some(sub) => Err(format!(
            "hook `{sub}` is not configured or its binary is missing"
        )),
    };
    (level, plugin_runs)
}

/// The plugin's state and, when it runs, each of its hook entries. Returns whether its hooks
/// run; adds the subcommands it serves to `covered`.
fn check_plugin(
    inst: &plugin::Install,
    wanted: &[settings::Wanted],
    covered: &mut Vec<String>,
    c: &mut Checks,
) -> bool {
    let key = &inst.key;
    match &inst.enabled {
        Some((false, scope, file)) => {
            c.add(
                "ok",
                "plugin",
                format!(
                    "{key} is disabled in the {} settings ({})",
                    scope.word(),
                    file.display()
                ),
            );
            return false;
        }
        None => {
            c.add(
                "warn",
                "plugin",
                format!("{key} is installed but not enabled (`claude plugin enable {key}`)"),
            );
            return false;
        }
        Some((true, ..)) if !inst.active() => {
            c.add(
                "warn",
                "plugin",
                format!(
                    "{key} is enabled but not installed in the client's plugin folder \
                     (`claude plugin install {key}`)"
                ),
            );
            return false;
        }
        Some((true, scope, file)) => {
            let version = inst.version.as_deref().unwrap_or("unknown version");
            let at = inst
                .install_path
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            c.add(
                "ok",
                "plugin",
                format!(
                    "{key} {version} enabled in the {} settings ({}), installed at {at}",
                    scope.word(),
                    file.display()
                ),
            );
            if inst.version.as_deref() != Some(env!("CARGO_PKG_VERSION")) {
                c.add(
                    "warn",
                    "plugin",
                    format!(
                        "the installed plugin is {version}, this src is {}: update it (`claude \
                         plugin marketplace update {}` then `claude plugin update {key}`)",
                        env!("CARGO_PKG_VERSION"),
                        plugin::MARKETPLACE
                    ),
                );
            }
        }
    }
    let Some(handlers) = inst.handlers() else {
        c.add(
            "error",
            "plugin",
            format!("{key}: its hooks/hooks.json cannot be read (`claude plugin update {key}`)"),
        );
        return false;
    };
    let bin = plugin::hook_binary();
    match &bin {
        Some(b) => c.add("ok", "plugin", format!("its hooks run {}", b.display())),
        None => c.add(
            "error",
            "plugin",
            "its hooks find no src binary (none named by SRC_BIN, on PATH or in ~/.cargo/bin): \
             install src (`cargo install --path .` in its repository)",
        ),
    }
    for w in wanted {
        let name = entry_name(&w.event, w.matcher.as_deref());
        // The SubagentStop matcher comes from the project's config, which a plugin cannot read.
        let found = handlers.iter().find(|h| {
            h.event == w.event
                && (h.matcher == w.matcher || w.event == "SubagentStop")
                && plugin::parse_command(&h.command).as_deref() == Some(w.sub.as_str())
        });
        match found {
            Some(h) if h.matcher != w.matcher => {
                c.add(
                    "warn",
                    "hooks",
                    format!(
                        "{}: the plugin {key} stops only for `{}`, but alerts.implementer_types \
                         names `{}`: a plugin cannot follow one project's config, so use the \
                         settings hooks here (`claude plugin disable {key} --scope local`, then \
                         `src hooks install`)",
                        entry_name(&h.event, h.matcher.as_deref()),
                        h.matcher.as_deref().unwrap_or("every agent"),
                        w.matcher.as_deref().unwrap_or("every agent")
                    ),
                );
                if bin.is_some() {
                    covered.push(w.sub.clone());
                }
            }
            Some(_) => {
                c.add(
                    "ok",
                    "hooks",
                    format!("{name}: src hook {} (plugin {key})", w.sub),
                );
                if bin.is_some() {
                    covered.push(w.sub.clone());
                }
            }
            None => c.add(
                "warn",
                "hooks",
                format!(
                    "{name}: the plugin {key} has no `src hook {}` entry; it is older than this \
                     src (`claude plugin update {key}`)",
                    w.sub
                ),
            ),
        }
    }
    bin.is_some()
}

/// `Event [matcher]` as the findings name an entry.
fn entry_name(event: &str, matcher: Option<&str>) -> String {
    match matcher {
        Some(m) => format!("{event} [{m}]"),
        None => event.to_string(),
    }
}

/// The script a hook command runs, when it is a path that does not exist: `(as written,
/// resolved)`. The script is the first word, or the first argument of an interpreter (`bash x`,
/// `python3 x`); `$CLAUDE_PROJECT_DIR` is the root, `~` and `$HOME` the home folder, and a
/// relative path is taken from the root (hooks run in the project). Words with other variables,
/// and bare command names, are not judged.
fn missing_script(command: &str, root: &Path) -> Option<(String, PathBuf)> {
    const INTERPRETERS: &[&str] = &[
        "sh", "bash", "zsh", "dash", "python", "python3", "node", "ruby", "perl", "bun", "deno",
    ];
    let words = shell_words(command);
    let mut it = words
        .iter()
        .skip_while(|w| w.contains('=') && !w.starts_with(['/', '.', '~', '$']));
    let first = it.next()?;
    let word = if INTERPRETERS.contains(&first.rsplit('/').next().unwrap_or(first)) {
        it.find(|w| !w.starts_with('-'))?
    } else {
        first
    };
    let home = std::env::var("HOME").ok().filter(|h| !h.is_empty());
    let root_s = root.to_string_lossy();
    let mut p = word
        .replace("${CLAUDE_PROJECT_DIR}", &root_s)
        .replace("$CLAUDE_PROJECT_DIR", &root_s);
    if let Some(h) = &home {
        p = p.replace("${HOME}", h).replace("$HOME", h);
        if let Some(rest) = p.strip_prefix("~/") {
            p = format!("{h}/{rest}");
        }
    }
    if p.contains('$') || p.starts_with('~') || !p.contains('/') {
        return None;
    }
    let abs = root.join(&p);
    (!abs.exists()).then(|| (word.clone(), abs))
}

/// A command line split into words: whitespace outside quotes separates, single and double
/// quotes group, a backslash escapes the next character outside single quotes.
fn shell_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    let mut quote: Option<char> = None;
    while let Some(ch) = chars.next() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => cur.push(c),
            (_, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(ch);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, ';' | '&' | '|') => break,
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// Our three skills in the project: a file of one of their names that runs no `src` command
/// means the project does not use `src` there.
fn check_skills(ws: &Workspace, plugin_runs: bool, c: &mut Checks) {
    let subs = super::init::src_subcommands();
    let (mut fine, mut missing) = (Vec::new(), Vec::new());
    for (name, path, found) in skills::survey(&ws.root, &subs) {
        let shown = ws
            .relative(&path)
            .unwrap_or_else(|| path.display().to_string());
        match found {
            skills::Found::Ours => fine.push(name.to_string()),
            skills::Found::RunsSrc => fine.push(format!("{name} (edited, runs src)")),
            skills::Found::Missing if plugin_runs => {
                fine.push(format!("{}:{name} (plugin)", plugin::NAME))
            }
            skills::Found::Missing => missing.push(shown),
            skills::Found::Foreign => c.add(
                "warn",
                "skills",
                format!(
                    "{shown} is the project's own `{name}` skill and names no src command, so \
                     the project does not use src there: replace it with `src init --claude \
                     --force` (the old file is kept under .src/backup/ and put back by `src \
                     init --claude --uninstall`)"
                ),
            ),
        }
    }
    if !fine.is_empty() {
        c.add("ok", "skills", fine.join(", "));
    }
    if !missing.is_empty() {
        c.add(
            "warn",
            "skills",
            format!("missing: {} (run `src init --claude`)", missing.join(", ")),
        );
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
