//! `src export-map`: render `codebase-map.md` from the database, or `--check` an existing map.
//!
//! Owns the arguments and the printing; the engine is `crate::export`. Invariant: a plain export
//! always rebuilds the whole map from the (refreshed) index, so a corrupt or missing map heals by
//! running it; the file is rewritten only when its bytes change.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

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
    /// Print the manage-codebase L1 health report (YAML)
    #[arg(long)]
    pub report: bool,
    /// Validate an existing map instead of writing one [default PATH: map.path]
    #[arg(long, value_name = "PATH", num_args = 0..=1)]
    pub check: Option<Option<PathBuf>>,
    /// Output format: text or json (`--json` is the same as `--format json`)
    #[arg(long, value_enum, default_value_t = super::TextOrJson::Text, requires = "check")]
    pub format: super::TextOrJson,
    /// With --check: print {valid, errors, warnings, staleness} as JSON
    #[arg(long, requires = "check")]
    pub json: bool,
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    // Checking a map only reads: no project here is said, not created.
    let ctx = if args.check.is_some() {
        Ctx::open_existing(g)?
    } else {
        Ctx::open(g)?
    };
    let max_lines = args.max_lines.unwrap_or(ctx.config.map.max_lines);
    match &args.check {
        Some(path) => run_check(&ctx, args, path.as_deref(), max_lines),
        None => run_export(&ctx, args, max_lines),
    }
}

fn today() -> chrono::NaiveDate {
    chrono::Local::now().date_naive()
}

fn run_export(ctx: &Ctx, args: &Args, max_lines: usize) -> Result<ExitCode> {
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
    let rendered = render::render(&header, entries, max_lines);
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
            eprint!("{}", h.to_yaml()?);
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
        write!(out, "{}", h.to_yaml()?)?;
    } else {
        let pruned = match rendered.pruned.len() {
            0 => String::new(),
            n => format!(", {n} pruned to stay within {max_lines} lines"),
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

fn run_check(ctx: &Ctx, args: &Args, path: Option<&Path>, max_lines: usize) -> Result<ExitCode> {
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
        write!(out, "{}", h.to_yaml()?)?;
    } else if args.json || args.format == super::TextOrJson::Json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
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
