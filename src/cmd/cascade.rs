//! `src cascade`: start, record, check, status and abort the iterative follow-up updates of an
//! impact (at most 3 iterations). Owns the arguments and the printing; the rules and the state
//! live in `crate::cascade`. Every subcommand but `start` picks its cascade with `--cascade ID`,
//! `--session ID`, or else the most recently started active one.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use crate::cascade::machine::Status;
use crate::cascade::{self, Selector, Shown, Source};
use crate::error::usage;
use crate::workspace::{GlobalOpts, Located};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: Sub,
}

#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Start a cascade from an impact run (or an L1 document): iteration 1 targets the DIRECT dependents
    Start(StartArgs),
    /// Record an implementer's outcome for FILE in the current iteration
    Record(RecordArgs),
    /// Run the convergence check: converged, partial, or the next iteration's targets
    Check(ShowArgs),
    /// Show the cascade: the L1 document, or the L2 log with --format md
    Status(ShowArgs),
    /// End the active cascade (status partial)
    Abort(ShowArgs),
}

#[derive(Debug, Clone, Copy, Default, clap::ValueEnum)]
pub enum Format {
    #[default]
    Yaml,
    Json,
    Md,
}

#[derive(Debug, clap::Args)]
pub struct StartArgs {
    /// The impact run to cascade from (its `impact_id`)
    #[arg(
        long,
        value_name = "ID",
        required_unless_present = "from",
        conflicts_with = "from"
    )]
    pub impact: Option<i64>,
    /// An execution-impact L1 document (YAML) to cascade from
    #[arg(long, value_name = "L1.yaml")]
    pub from: Option<PathBuf>,
    /// Bind the cascade to this session: only its edits count [default: every session's]
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// The L1 as YAML or JSON, or the L2 markdown log
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

#[derive(Debug, Clone, clap::Args)]
pub struct WhichArgs {
    /// Act on the active cascade of this session
    #[arg(long, value_name = "ID", conflicts_with = "cascade")]
    pub session: Option<String>,
    /// Act on this cascade
    #[arg(long, value_name = "ID")]
    pub cascade: Option<i64>,
}

impl WhichArgs {
    fn selector(&self) -> Selector {
        match (&self.cascade, &self.session) {
            (Some(id), _) => Selector::Cascade(*id),
            (None, Some(s)) => Selector::Session(s.clone()),
            (None, None) => Selector::Latest,
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pub which: WhichArgs,
    /// The L1 as YAML or JSON, or the L2 markdown log
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum OutcomeArg {
    Complete,
    Failed,
}

#[derive(Debug, clap::Args)]
pub struct RecordArgs {
    /// The file the outcome is about
    pub file: PathBuf,
    #[arg(long, value_enum)]
    pub status: OutcomeArg,
    /// Who updated (or failed to update) the file
    #[arg(long, value_name = "NAME")]
    pub implementer: Option<String>,
    #[command(flatten)]
    pub which: WhichArgs,
    /// Output format: text or json (`--json` is the same as `--format json`)
    #[arg(long, value_enum, default_value_t = super::TextOrJson::Text)]
    pub format: super::TextOrJson,
    /// Print {cascade_id, file, status, is_target, message} as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let ctx = super::open(g)?;
    match &args.command {
        Sub::Start(a) => {
            let source = match (&a.impact, &a.from) {
                (Some(id), _) => Source::Impact(*id),
                (None, Some(p)) => Source::From(p.clone()),
                (None, None) => return Err(usage("give --impact ID or --from L1.yaml")),
            };
            let shown = cascade::start(&ctx, &source, a.session.as_deref())?;
            print(&shown, a.format)?;
        }
        Sub::Record(a) => {
            let file = match ctx.ws.locate(Path::new(&a.file)) {
                Located::Inside(rel) => rel,
                Located::Outside(abs) => {
                    return Err(usage(format!(
                        "{} is outside the project root {}",
                        abs.display(),
                        ctx.ws.root.display()
                    )))
                }
            };
            let status = match a.status {
                OutcomeArg::Complete => Status::Complete,
                OutcomeArg::Failed => Status::Failed,
            };
            let (shown, is_target) = cascade::record(
                &ctx,
                &a.which.selector(),
                &file,
                status,
                a.implementer.as_deref(),
            )?;
            if !is_target {
                eprintln!(
                    "warning: {file} is not a target of the current iteration; it will not count in files_updated"
                );
            }
            let mut out = std::io::stdout().lock();
            if a.json || a.format == super::TextOrJson::Json {
                let v = serde_json::json!({
                    "cascade_id": shown.meta.id,
                    "file": file,
                    "status": match a.status {
                        OutcomeArg::Complete => "complete",
                        OutcomeArg::Failed => "failed",
                    },
                    "is_target": is_target,
                    "message": shown.message,
                });
                serde_json::to_writer_pretty(&mut out, &v)?;
                writeln!(out)?;
            } else {
                writeln!(
                    out,
                    "cascade {}: {}",
                    shown.meta.id,
                    shown.message.unwrap_or_default()
                )?;
            }
        }
        Sub::Check(a) => print(&cascade::check(&ctx, &a.which.selector())?, a.format)?,
        Sub::Status(a) => print(&cascade::status(&ctx, &a.which.selector())?, a.format)?,
        Sub::Abort(a) => print(&cascade::abort(&ctx, &a.which.selector())?, a.format)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn print(shown: &Shown, format: Format) -> Result<()> {
    let text = match format {
        Format::Yaml => serde_yaml::to_string(&shown.l1())?,
        Format::Json => serde_json::to_string_pretty(&shown.l1())? + "\n",
        Format::Md => shown.markdown(),
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    Ok(())
}
