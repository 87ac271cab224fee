//! `src init`: writes a commented default config (if absent) and creates the database.
//! Idempotent: running it again changes nothing that exists.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::config;
use crate::ctx::Ctx;
use crate::workspace::{GlobalOpts, Workspace};

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(g: &GlobalOpts, _args: &Args) -> Result<ExitCode> {
    let ws = Workspace::resolve(g)?;
    ws.ensure_state_dir()?;
    let mut out = std::io::stdout().lock();
    if ws.config_path.exists() {
        writeln!(out, "config: {} (kept)", ws.config_path.display())?;
    } else {
        if let Some(dir) = ws.config_path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        std::fs::write(&ws.config_path, config::default_yaml())
            .with_context(|| format!("writing {}", ws.config_path.display()))?;
        writeln!(out, "config: {} (written)", ws.config_path.display())?;
    }
    let ctx = Ctx::open_ws(ws)?;
    writeln!(
        out,
        "database: {} (schema {})",
        ctx.ws.db_path.display(),
        crate::store::latest_version()
    )?;
    writeln!(out, "root: {}", ctx.ws.root.display())?;
    Ok(ExitCode::SUCCESS)
}
