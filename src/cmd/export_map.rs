//! `src export-map`: render `codebase-map.md` from the database, or `--check` an existing map.
//!
//! Owns the arguments and the printing; the engine is `crate::export`. Invariant: a plain export
//! always rebuilds the whole map from the (refreshed) index, so a corrupt or missing map heals by
//! running it; the file is rewritten only when its bytes change.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use super::budget::Budget;
use crate::clock::today;
use crate::ctx::Ctx;
use crate::export::check::{self, CheckOptions, CheckReport};
use crate::export::model::{self, Graph};
use crate::export::parse;
use crate::export::render::{self, Header};
use crate::export::report::Health;
use crate::index::{self, IndexOptions};
use crate::workspace::GlobalOpts;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to write the map, `-` for stdout [default: map.path from the config]
    #[arg(long, value_name = "PATH", conflicts_with = "check")]
    pub out: Option<String>,
    /// List only files whose root-relative path starts with PREFIX
    #[arg(long, value_name = "PREFIX", conflicts_with = "check")]
    pub scope: Option<String>,
    /// Line limit; over it the lowest-priority entries are pruned (0: no limit) [default: map.max_lines]
    #[arg(long, value_name = "N")]
    pub max_lines: Option<usize>,
    /// Names shown per refs/refd_by line; the rest are counted as `+N more` (0: all)
    #[arg(long, value_name = "N", default_value_t = 8, conflicts_with = "check")]
    pub max_refs: usize,
    /// Keep the map within about N tokens (estimated at 4 bytes each): the lowest-priority
    /// entries are pruned and the `Pruned` comment says how to list them (0: no limit)
    #[arg(long, value_name = "N", conflicts_with = "check")]
    pub max_tokens: Option<usize>,
    /// Print the manage-codebase L1 health report (YAML)
    #[arg(long)]
    pub report: bool,
    /// Validate an existing map instead of writing one [default PATH: map.path]
    #[arg(long, value_name = "PATH", num_args = 0..=1)]
    pub check: Option<Option<PathBuf>>,
    /// Format of what is printed about the map (the summary, --report, --check); the map
    /// itself is markdown. text is YAML for --report. `--json` is `--format json`
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print the summary, --report or --check as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    Yaml,
}

/// Prints a serialisable report as JSON or YAML.
fn structured(
    out: &mut impl std::io::Write,
    v: &impl serde::Serialize,
    format: Format,
) -> Result<()> {
    if format == Format::Json {
        serde_json::to_writer_pretty(&mut *out, v)?;
        writeln!(out)?;
    } else {
        write!(out, "{}", serde_yaml::to_string(v)?)?;
    }
    Ok(())
}

/// What `src export-map` wrote, as JSON or YAML.
#[derive(Debug, serde::Serialize)]
struct Summary<'a> {
    map_path: &'a str,
    written: bool,
    entries: usize,
    pruned: &'a [String],
    max_lines: usize,
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let format = if args.json { Format::Json } else { args.format };
    if args.out.as_deref() == Some("-") && !args.report && format != Format::Text {
        return Err(crate::error::usage(
            "--out - prints the map, which is markdown; --format applies to the summary, --report and --check",
        ));
    }
    // Checking a map only reads: no project here is said, not created.
    let ctx = if args.check.is_some() {
        super::open_existing(g)?
    } else {
        super::open(g)?
    };
    let max_lines = args.max_lines.unwrap_or(ctx.config.map.max_lines);
    match &args.check {
        Some(path) => run_check(&ctx, args, path.as_deref(), max_lines, format),
        None => run_export(&ctx, args, max_lines, format),
    }
}

fn run_export(ctx: &Ctx, args: &Args, max_lines: usize, format: Format) -> Result<ExitCode> {
    index::run(
        ctx,
        &IndexOptions {
            full: false,
            progress: true,
        },
    )?;
    let conn = ctx.store.conn()?;
    let graph = Graph::load(&conn, ctx.config.hotspot.recent_sessions)?;
    let to_stdout = args.out.as_deref() == Some("-");
    let target: Option<PathBuf> = (!to_stdout).then(|| {
        let p = args.out.as_deref().unwrap_or(&ctx.config.map.path);
        let p = Path::new(p);
        if p.is_absolute() || args.out.is_some() {
            crate::workspace::normalize(&std::env::current_dir().unwrap_or_default().join(p))
        } else {
            ctx.ws.root.join(p)
        }
    });
    let map_rel = target.as_deref().and_then(|t| ctx.ws.relative(t));
    let scope = args.scope.as_deref().map(|s| s.trim_start_matches("./"));
    let selected = model::selection(&graph, scope, map_rel.as_deref());
    let entries = model::entries(&graph, &selected, &ctx.config.hotspot);
    let date = |v: &Option<String>| {
        v.as_deref()
            .map(model::date_of)
            .unwrap_or_else(|| "never".into())
    };
    let header = Header {
        last_full_scan: date(&graph.last_full_scan),
        last_incremental: model::last_change(&graph, &selected).unwrap_or_else(|| "never".into()),
        scope: match scope {
            Some(s) => s.to_string(),
            None => ctx.config.scope.include.join(", "),
        },
    };
    let limits = render::Limits {
        max_lines,
        max_bytes: Budget::new(args.max_tokens).map_or(0, Budget::bytes),
        max_refs: args.max_refs,
    };
    let rendered = render::render(&header, entries, &limits);
    let unattributed: u64 = if args.report {
        let conn = ctx.store.conn()?;
        let files: Vec<String> = rendered.kept.iter().map(|e| e.path.clone()).collect();
        crate::graph::unattributed_distinct(&conn, &files)?
    } else {
        0
    };
    let mut out = std::io::stdout().lock();
    let Some(target) = target else {
        out.write_all(rendered.text.as_bytes())?;
        if args.report {
            let mut h = Health::after_export(None, &rendered.kept, "-");
            h.unattributed_mentions = unattributed;
            structured(&mut std::io::stderr().lock(), &h, format)?;
        }
        return Ok(ExitCode::SUCCESS);
    };
    let shown = map_rel
        .clone()
        .unwrap_or_else(|| target.display().to_string());
    // The previous map is read back only for the report's counts.
    let previous = args
        .report
        .then(|| std::fs::read(&target).ok())
        .flatten()
        .map(|b| parse::parse(&String::from_utf8_lossy(&b), today()));
    let written = render::write_if_changed(&target, &rendered.text)?;
    if args.report {
        let mut h = Health::after_export(previous.as_ref(), &rendered.kept, &shown);
        h.unattributed_mentions = unattributed;
        structured(&mut out, &h, format)?;
    } else if format != Format::Text {
        let summary = Summary {
            map_path: &shown,
            written,
            entries: rendered.kept.len(),
            pruned: &rendered.pruned,
            max_lines,
        };
        structured(&mut out, &summary, format)?;
    } else {
        let within = match (max_lines, Budget::new(args.max_tokens)) {
            (0, Some(b)) => format!("--max-tokens {}", b.max_tokens),
            (n, Some(b)) => format!("{n} lines and --max-tokens {}", b.max_tokens),
            (n, None) => format!("{n} lines"),
        };
        let pruned = match rendered.pruned.len() {
            0 => String::new(),
            n => format!(", {n} pruned to stay within {within}"),
        };
        writeln!(
            out,
            "{} {shown}: {} entries{pruned}",
            if written { "wrote" } else { "unchanged" },
            rendered.kept.len()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_check(
    ctx: &Ctx,
    args: &Args,
    path: Option<&Path>,
    max_lines: usize,
    format: Format,
) -> Result<ExitCode> {
    if args.out.is_some() || args.scope.is_some() {
        return Err(crate::error::usage("--check takes no --out or --scope"));
    }
    let abs = match path {
        Some(p) => crate::workspace::normalize(&std::env::current_dir()?.join(p)),
        None => ctx.ws.root.join(&ctx.config.map.path),
    };
    let map_rel = ctx.ws.relative(&abs);
    let shown = map_rel.clone().unwrap_or_else(|| abs.display().to_string());
    let opts = CheckOptions {
        root: ctx.ws.root.clone(),
        map_rel,
        max_lines,
        hotspot: ctx.config.hotspot.clone(),
        scope: ctx.config.scope.clone(),
        today: today(),
    };
    let report = check::check_file(&abs, &shown, &opts);
    let mut out = std::io::stdout().lock();
    if args.report {
        let readable = !report
            .errors
            .iter()
            .any(|e| e.code == check::E_MISSING_MAP || e.code == check::E_UNPARSEABLE);
        let h = Health::after_check(
            report.staleness.total_entries,
            readable,
            report.staleness.clone(),
            &shown,
        );
        structured(&mut out, &h, format)?;
    } else if format != Format::Text {
        structured(&mut out, &report, format)?;
    } else {
        write_text(&mut out, &report)?;
    }
    Ok(if report.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn write_text(out: &mut impl std::io::Write, r: &CheckReport) -> Result<()> {
    writeln!(
        out,
        "{}: {} ({} errors, {} warnings)",
        r.map_path,
        if r.valid { "valid" } else { "INVALID" },
        r.errors.len(),
        r.warnings.len()
    )?;
    for (kind, list) in [("error", &r.errors), ("warning", &r.warnings)] {
        for f in list {
            let at = f.line.map(|l| format!(" line {l}")).unwrap_or_default();
            writeln!(out, "  {kind} {}{at}: {}", f.code, f.message)?;
        }
    }
    let s = &r.staleness;
    writeln!(
        out,
        "staleness: {} entries, {} stale, {} missing; recommendation: {}",
        s.total_entries, s.stale_count, s.missing_count, s.recommendation
    )?;
    if !r.valid {
        writeln!(out, "run `src export-map` to regenerate the map")?;
    }
    Ok(())
}
