//! The command line: global flags, one module per subcommand, one dispatch `match`.
//!
//! Commands are thin: they turn arguments into plain options, call the engine and print its
//! report. Clap types never reach the engine.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use crate::workspace::GlobalOpts;

pub mod budget;
pub mod cascade;
pub mod dependents;
pub mod doctor;
pub mod export_map;
pub mod gc;
pub mod graph;
pub mod hook;
pub mod hooks;
pub mod impact;
pub mod import_log;
pub mod index;
pub mod init;
pub mod plugin;
pub mod query;
pub mod status;
pub mod tour;
pub mod validate;

/// `--format` of the commands that print a report as text or JSON (`--json` is its alias).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum TextOrJson {
    #[default]
    Text,
    Json,
}

#[derive(Debug, Parser)]
#[command(
    name = "src",
    version,
    about = "Smart Reactive Codebase: which files became stale after an edit",
    propagate_version = true
)]
pub struct Cli {
    /// Project root [default: $CLAUDE_PROJECT_DIR, else the nearest ancestor with .src/, .git/ or .claude/]
    #[arg(long, global = true, env = "SRC_ROOT", value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Database file [default: <root>/.src/src.db]
    #[arg(long, global = true, env = "SRC_DB", value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Config file [default: <root>/.src/config.yaml]
    #[arg(long, global = true, env = "SRC_CONFIG", value_name = "PATH")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write a commented default config and create the database (idempotent)
    Init(init::Args),
    /// Index the files in scope (incremental; --full to rebuild)
    Index(index::Args),
    /// How fresh the index is, and what to run next
    Status(status::Args),
    /// Files that mention FILE, with evidence
    Dependents(dependents::Args),
    /// Run a canned query from queries/ or read-only SQL
    Query(query::Args),
    /// Hook entry points for Claude Code (read JSON on stdin)
    Hook(hook::Args),
    /// Install or remove the hook entries in .claude/settings.json
    Hooks(hooks::Args),
    /// Check the installation and report the degradation level
    Doctor(doctor::Args),
    /// Prune old events, alerts and hook runs
    Gc(gc::Args),
    /// Import the seed's TSV change logs as events
    ImportLog(import_log::Args),
    /// DIRECT and TRANSITIVE dependents of changed files (the seed's L1/L2)
    Impact(impact::Args),
    /// Validate an artifact (an impact L1 document)
    Validate(validate::Args),
    /// Iterative follow-up updates until convergence (at most 3 iterations)
    Cascade(cascade::Args),
    /// Render codebase-map.md from the database, or --check an existing map
    ExportMap(export_map::Args),
    /// Draw the reference graph as Mermaid or Graphviz DOT (or list it as JSON, TSV, CSV)
    Graph(graph::Args),
    /// Run the whole flow on a copy of the bundled sample
    Tour(tour::Args),
    /// The Claude Code plugin: export its tree (hooks, skills, marketplace)
    Plugin(plugin::Args),
}

impl Cli {
    pub fn global(&self) -> GlobalOpts {
        GlobalOpts {
            root: self.root.clone(),
            db: self.db.clone(),
            config: self.config.clone(),
        }
    }
}

pub fn run(cli: Cli) -> Result<ExitCode> {
    let g = cli.global();
    match &cli.command {
        Command::Init(a) => init::run(&g, a),
        Command::Index(a) => index::run(&g, a),
        Command::Status(a) => status::run(&g, a),
        Command::Dependents(a) => dependents::run(&g, a),
        Command::Query(a) => query::run(&g, a),
        Command::Hook(a) => hook::run(&g, a),
        Command::Hooks(a) => hooks::run(&g, a),
        Command::Doctor(a) => doctor::run(&g, a),
        Command::Gc(a) => gc::run(&g, a),
        Command::ImportLog(a) => import_log::run(&g, a),
        Command::Impact(a) => impact::run(&g, a),
        Command::Validate(a) => validate::run(&g, a),
        Command::Cascade(a) => cascade::run(&g, a),
        Command::ExportMap(a) => export_map::run(&g, a),
        Command::Graph(a) => graph::run(&g, a),
        Command::Tour(a) => tour::run(&g, a),
        Command::Plugin(a) => plugin::run(&g, a),
    }
}

/// `Ctx::open`, then the events hooks spilled to the journal are ingested, so every command
/// sees them (the context itself knows nothing of events).
pub(crate) fn open(g: &GlobalOpts) -> Result<crate::ctx::Ctx> {
    ingested(crate::ctx::Ctx::open(g)?)
}

/// `Ctx::open_existing`, then the spill journal ingested.
pub(crate) fn open_existing(g: &GlobalOpts) -> Result<crate::ctx::Ctx> {
    ingested(crate::ctx::Ctx::open_existing(g)?)
}

/// `Ctx::open_ws`, then the spill journal ingested.
pub(crate) fn open_ws(ws: crate::workspace::Workspace) -> Result<crate::ctx::Ctx> {
    ingested(crate::ctx::Ctx::open_ws(ws)?)
}

fn ingested(ctx: crate::ctx::Ctx) -> Result<crate::ctx::Ctx> {
    crate::events::ingest_spill(&ctx.ws, &ctx.store)?;
    Ok(ctx)
}
