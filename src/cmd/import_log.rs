//! `src import-log FILE… [--session ID]`: import the seed's TSV change logs as events.
//!
//! Owns arguments, per-file reporting and the transaction. Invariant: malformed lines are
//! reported on stderr as `FILE:LINE: why` and skipped; importing a log twice adds nothing.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::ctx::Ctx;
use crate::events::{self, import, Source};
use crate::workspace::GlobalOpts;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Change logs (`src-changes-{session}.log`: `{timestamp}\t{tool}\t{path}` per line)
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Session id for logs whose name does not carry one
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    // Check every session before writing anything.
    let mut jobs = Vec::new();
    for f in &args.files {
        let session = match (&args.session, import::session_from_name(f)) {
            (Some(s), _) => s.clone(),
            (None, Some(s)) => s,
            (None, None) => {
                return Err(crate::error::usage(format!(
                    "{}: cannot tell the session from the file name \
                     (expected src-changes-{{session}}.log); pass --session",
                    f.display()
                )))
            }
        };
        jobs.push((f, session));
    }
    let ctx = Ctx::open(g)?;
    let mut conn = ctx.store.conn()?;
    let mut out = std::io::stdout().lock();
    for (file, session) in jobs {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let (evs, bad) = import::parse(&ctx.ws, &session, &text);
        for b in &bad {
            eprintln!("{}:{}: {} (skipped)", file.display(), b.line, b.reason);
        }
        let added = crate::store::write(&mut conn, |tx| {
            let mut n = 0;
            for ev in &evs {
                n += usize::from(events::insert(tx, ev, Source::Import)?);
            }
            Ok(n)
        })?;
        writeln!(
            out,
            "{}: imported {added} events for session {session} ({} already present, {} malformed lines skipped)",
            file.display(),
            evs.len() - added,
            bad.len()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
