//! `src hook …`: entry points for Claude Code hooks (stub; the hooks issue replaces this).
//!
//! Invariant: a hook always exits 0 and never blocks the agent.

use std::process::ExitCode;

use anyhow::Result;

use crate::workspace::GlobalOpts;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_g: &GlobalOpts, _args: &Args) -> Result<ExitCode> {
    Ok(ExitCode::SUCCESS)
}
