//! `src impact [FILES…|-] [--session ID] [--git-diff REV]` and `src impact show ID`: the seed's
//! L1 document (yaml or json) or L2 report (md) for changed files.
//!
//! Owns argument parsing, reading stdin for `-` (stdin is never read otherwise) and printing; the
//! analysis is `impact::analyze`. Invariant: every run is stored before anything is printed, so
//! the printed `impact_id` always names a run `show` can reprint.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::budget::Budget;
use crate::ctx::Ctx;
use crate::error::usage;
use crate::impact::{self, runs, ImpactL1, Input};
use crate::workspace::GlobalOpts;

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub show: Option<Sub>,
    /// Changed files, absolute or root-relative; `-` reads paths from stdin, one per line
    #[arg(value_name = "FILES", conflicts_with_all = ["session", "git_diff"])]
    pub files: Vec<PathBuf>,
    /// The files a recorded session edited; `latest` is the session of the newest recorded event
    #[arg(long, value_name = "ID", conflicts_with = "git_diff")]
    pub session: Option<String>,
    /// The files changed since a git revision (plus untracked files)
    #[arg(long, value_name = "REV")]
    pub git_diff: Option<String>,
    /// The L1 document as yaml or json, or the L2 report as md
    #[arg(long, value_enum, default_value_t = Format::Yaml)]
    pub format: Format,
    /// Also write the L2 markdown report to PATH
    #[arg(long, value_name = "PATH")]
    pub l2: Option<PathBuf>,
    /// With --format md: print at most about N tokens (4 bytes each); table rows are cut from
    /// the end and the last note says how many and how to get them (0: no limit)
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<usize>,
}

#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Print a stored impact run again
    Show {
        /// The run's `impact_id`
        id: i64,
        /// The L1 document as yaml or json, or the L2 report as md
        #[arg(long, value_enum, default_value_t = Format::Yaml)]
        format: Format,
        /// With --format md: print at most about N tokens (4 bytes each), as for `src impact`
        #[arg(long, value_name = "N")]
        max_tokens: Option<usize>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The L1 document as YAML (the seed's layout)
    Yaml,
    /// The L1 document as JSON
    Json,
    /// The L2 markdown report
    Md,
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    if let Some(Sub::Show {
        id,
        format,
        max_tokens,
    }) = &args.show
    {
        let budget = budget_for(*format, *max_tokens)?;
        return show(g, *id, *format, budget);
    }
    let budget = budget_for(args.format, args.max_tokens)?;
    let input = input(args)?;
    let mut t = std::time::Instant::now();
    let ctx = super::open(g)?;
    impact::analyze::lap("open", &mut t);
    let input = latest_session(&ctx, input)?;
    // A FILE argument that names nothing is a usage error (exit 2), not "0 dependents"; a
    // unique path suffix names its file, as in `graph`.
    let input = match input {
        Input::Files(paths) => {
            let conn = ctx.store.conn()?;
            let mut out = Vec::with_capacity(paths.len());
            for p in paths {
                match ctx.ws.locate(&p) {
                    crate::workspace::Located::Inside(rel) => {
                        let rel =
                            crate::graph::locate_file(&conn, &ctx.ws.root, &rel).map_err(usage)?;
                        out.push(ctx.ws.root.join(rel));
                    }
                    crate::workspace::Located::Outside(_) => out.push(p),
                }
            }
            Input::Files(out)
        }
        other => other,
    };
    let outcome = impact::analyze(&ctx, &input)?;
    for w in &outcome.warnings {
        eprintln!("warning: {w}");
    }
    if let Some(path) = &args.l2 {
        std::fs::write(path, &outcome.run.l2)
            .with_context(|| format!("writing the L2 report to {}", path.display()))?;
    }
    print(&outcome.run.l1, &outcome.run.l2, args.format, budget)?;
    Ok(ExitCode::SUCCESS)
}

/// The L1 document is a contract (`dependent_count` equals its rows, `src validate impact`
/// checks it), so only the L2 report is ever cut.
fn budget_for(format: Format, max_tokens: Option<usize>) -> Result<Option<Budget>> {
    let budget = Budget::new(max_tokens);
    if budget.is_some() && format != Format::Md {
        return Err(usage(
            "--max-tokens cuts the L2 report only: add --format md (the L1 document is never cut)",
        ));
    }
    Ok(budget)
}

fn show(g: &GlobalOpts, id: i64, format: Format, budget: Option<Budget>) -> Result<ExitCode> {
    let ctx = super::open_existing(g)?;
    let conn = ctx.store.conn()?;
    let Some(run) = runs::load(&conn, id)? else {
        return Err(usage(format!(
            "no impact run {id} in {}",
            ctx.store.path().display()
        )));
    };
    print(&run.l1, &run.l2, format, budget)?;
    Ok(ExitCode::SUCCESS)
}

fn input(args: &Args) -> Result<Input> {
    if let Some(s) = &args.session {
        return Ok(Input::Session(s.clone()));
    }
    if let Some(rev) = &args.git_diff {
        return Ok(Input::GitDiff(rev.clone()));
    }
    if args.files.is_empty() {
        return Err(usage(
            "nothing to analyse: give FILES, `-` to read paths from stdin, --session ID or --git-diff REV",
        ));
    }
    let dash = PathBuf::from("-");
    if !args.files.contains(&dash) {
        return Ok(Input::Files(args.files.clone()));
    }
    let mut paths: Vec<PathBuf> = args.files.iter().filter(|p| **p != dash).cloned().collect();
    for line in std::io::stdin().lock().lines() {
        let line = line.context("reading paths from stdin")?;
        let line = line.trim();
        if !line.is_empty() {
            paths.push(PathBuf::from(line));
        }
    }
    Ok(Input::Stdin(paths))
}

/// Resolves `--session latest` (an agent rarely knows its session id) to the session of the
/// newest recorded event.
fn latest_session(ctx: &Ctx, input: Input) -> Result<Input> {
    match input {
        Input::Session(s) if s == "latest" => {
            let conn = ctx.store.conn()?;
            let id = crate::events::latest_session(&conn)?;
            match id {
                Some(id) => Ok(Input::Session(id)),
                None => Err(usage("--session latest: no events have been recorded yet")),
            }
        }
        other => Ok(other),
    }
}

fn print(l1: &ImpactL1, l2: &str, format: Format, budget: Option<Budget>) -> Result<()> {
    let mut out = std::io::stdout().lock();
    if let (Format::Md, Some(b)) = (format, budget) {
        let rows = impact::render::table_rows(l1);
        let how = match l1.impact_id {
            Some(id) => format!(
                "`src impact show {id} --format md` prints them all (`--format yaml`: the L1)"
            ),
            None => "rerun without --max-tokens for all of them".to_string(),
        };
        let fitted = super::budget::fit(Some(b), rows, |k| {
            let marker = b.cut(k, rows).map(|c| c.message("rows", &how));
            Ok(impact::render::l2_within(l1, k, marker.as_deref()))
        })?;
        out.write_all(fitted.text.as_bytes())?;
        return Ok(());
    }
    match format {
        Format::Yaml => write!(
            out,
            "{}",
            serde_yaml::to_string(l1).context("encoding YAML")?
        )?,
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(l1)?)?,
        Format::Md => write!(out, "{l2}")?,
    }
    Ok(())
}
