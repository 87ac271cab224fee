//! `src graph`: not implemented yet (stub; the owning issue replaces this file).

use std::process::ExitCode;

use anyhow::Result;

use crate::workspace::GlobalOpts;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_g: &GlobalOpts, _args: &Args) -> Result<ExitCode> {
    anyhow::bail!("`src graph` is not implemented yet")
}
