//! `src import-log FILE… [--session ID] [--format text|json]`: import the seed's TSV change logs as events.
//!
//! Owns arguments, per-file reporting and the transaction. Invariant: malformed lines are
//! reported on stderr as `FILE:LINE: why` and skipped; importing a log twice adds nothing.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

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
    /// Output format: text, or json (one object per log: file, session, imported, present,
    /// malformed)
    #[arg(long, value_enum, default_value_t = super::TextOrJson::Text)]
    pub format: super::TextOrJson,
}

/// What one log gave.
#[derive(Debug, serde::Serialize)]
struct Imported {
    file: String,
    session: String,
    imported: usize,
    already_present: usize,
    malformed: usize,
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
    let ctx = super::open(g)?;
    let mut conn = ctx.store.conn()?;
    let mut out = std::io::stdout().lock();
    let mut reports = Vec::new();
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
        let r = Imported {
            file: file.display().to_string(),
            session,
            imported: added,
            already_present: evs.len() - added,
            malformed: bad.len(),
        };
        if args.format == super::TextOrJson::Text {
            writeln!(
                out,
                "{}: imported {} events for session {} ({} already present, {} malformed lines skipped)",
                r.file, r.imported, r.session, r.already_present, r.malformed
            )?;
        }
        reports.push(r);
    }
    if args.format == super::TextOrJson::Json {
        serde_json::to_writer_pretty(&mut out, &reports)?;
        writeln!(out)?;
    }
    Ok(ExitCode::SUCCESS)
}
