//! `src query`: run a canned query from `queries/`, list them, print the schema, or run ad-hoc
//! read-only SQL.
//!
//! Canned queries open the full context first (`cmd::open`: migrations, spill ingestion) so they
//! see every recorded event; ad-hoc SQL only resolves paths and opens the database read-only, so
//! it never changes the file. Both then read through `store::open_readonly`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::ValueEnum;

use super::budget::Budget;
use crate::error::usage;
use crate::query::{self, catalog, params, schema, Collected, Format};
use crate::store;
use crate::workspace::{GlobalOpts, Located, Workspace};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    /// An aligned table (`text` is the same)
    #[value(alias = "text")]
    Table,
    /// Tab-separated, header row; tab, newline, CR and backslash escaped
    Tsv,
    /// RFC 4180
    Csv,
    /// An array of objects with typed values
    Json,
}

#[derive(Debug, clap::Args)]
#[command(group(
    clap::ArgGroup::new("what")
        .required(true)
        .args(["name", "list", "schema", "sql", "sql_file"]),
))]
pub struct Args {
    /// Canned query to run (see --list)
    pub name: Option<String>,
    /// A parameter for the query, e.g. --param file=skills/x/SKILL.md (repeatable)
    #[arg(long = "param", short = 'p', value_name = "NAME=VALUE", value_parser = params::parse_pair)]
    pub params: Vec<(String, String)>,
    /// Output format [default: table on a terminal, tsv otherwise]
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<FormatArg>,
    /// List the canned queries with their parameters and descriptions
    #[arg(long)]
    pub list: bool,
    /// With --list: also show each query's notes
    #[arg(long, short = 'v', requires = "list")]
    pub verbose: bool,
    /// Print the database schema, each table and view with its comment
    #[arg(long)]
    pub schema: bool,
    /// Run this SQL (one read-only statement; named parameters come from --param)
    #[arg(long, value_name = "SQL")]
    pub sql: Option<String>,
    /// Run the SQL in this file (as --sql)
    #[arg(long, value_name = "FILE")]
    pub sql_file: Option<PathBuf>,
    /// Stop ad-hoc SQL that runs longer than this many seconds (0: no limit)
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 30,
        env = "SRC_QUERY_TIME_LIMIT"
    )]
    pub time_limit: u64,
    #[arg(long, value_name = "N", help = super::budget::HELP)]
    pub max_tokens: Option<usize>,
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let stdout = std::io::stdout();
    let format = match args.format {
        Some(FormatArg::Table) => Format::Table,
        Some(FormatArg::Tsv) => Format::Tsv,
        Some(FormatArg::Csv) => Format::Csv,
        Some(FormatArg::Json) => Format::Json,
        None if stdout.is_terminal() => Format::Table,
        None => Format::Tsv,
    };
    // Block-buffered: a locked stdout is line-buffered, one write(2) per row of a large result.
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    if args.schema {
        out.write_all(schema::render()?.as_bytes())?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.list {
        list(&mut out, format, args.verbose)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(name) = &args.name {
        let q = catalog::find(name)?;
        let ctx = super::open_existing(g)?;
        let conn = ctx.store.conn()?;
        let locate = |raw: &str| {
            let rel = locate(&ctx.ws, raw)?;
            crate::graph::locate_file(&conn, &ctx.ws.root, &rel).map_err(usage)
        };
        let values = params::resolve(
            &format!("query `{}`", q.name),
            &q.params,
            &args.params,
            &locate,
        )?;
        let conn = store::open_readonly(&ctx.ws.db_path)?;
        query::tune_for_reads(&conn)?;
        let Some(budget) = Budget::new(args.max_tokens) else {
            let mut sink = query::sink(format, &mut out);
            query::run_canned(&conn, &q, &values, sink.as_mut())?;
            return Ok(ExitCode::SUCCESS);
        };
        let mut rows = Collected::new(budget.bytes());
        query::run_canned(&conn, &q, &values, &mut rows)?;
        print_within(&mut out, &rows, format, budget)?;
        return Ok(ExitCode::SUCCESS);
    }
    let sql = match (&args.sql, &args.sql_file) {
        (Some(s), _) => s.clone(),
        (None, Some(f)) => std::fs::read_to_string(f)
            .with_context(|| format!("reading SQL file {}", f.display()))?,
        (None, None) => return Err(usage("nothing to do: give a query NAME, --sql or --list")),
    };
    let ws = Workspace::resolve(g)?;
    let conn = open_existing(&ws.db_path)?;
    query::tune_for_reads(&conn)?;
    let limit = (args.time_limit > 0).then(|| std::time::Duration::from_secs(args.time_limit));
    let Some(budget) = Budget::new(args.max_tokens) else {
        let mut sink = query::sink(format, &mut out);
        query::run_adhoc_within(&conn, &sql, &args.params, sink.as_mut(), limit)?;
        return Ok(ExitCode::SUCCESS);
    };
    let mut rows = Collected::new(budget.bytes());
    query::run_adhoc_within(&conn, &sql, &args.params, &mut rows, limit)?;
    print_within(&mut out, &rows, format, budget)?;
    Ok(ExitCode::SUCCESS)
}

/// What a cut query leaves out, and how to get it.
const HOW: &str =
    "rerun without --max-tokens for all, or narrow the query (-p, or --sql with WHERE/LIMIT)";

/// Prints the most rows of `rows` that fit `budget`. The marker is the table's last line; TSV,
/// CSV and JSON stay parseable, so there it goes to stderr.
fn print_within(
    out: &mut dyn Write,
    rows: &Collected,
    format: Format,
    budget: Budget,
) -> Result<()> {
    let in_band = format == Format::Table;
    let render = |k: usize| -> Result<String> {
        let mut buf = Vec::new();
        rows.replay(format, k, &mut buf)?;
        let mut text = String::from_utf8_lossy(&buf).into_owned();
        if let (true, Some(cut)) = (in_band, budget.cut(k, rows.total)) {
            text.push_str(&cut.message("rows", HOW));
            text.push('\n');
        }
        Ok(text)
    };
    let fitted = super::budget::fit(Some(budget), rows.rows.len(), render)?;
    out.write_all(fitted.text.as_bytes())?;
    out.flush()?;
    if let (false, Some(cut)) = (in_band, budget.cut(fitted.kept, rows.total)) {
        eprintln!("{}", cut.message("rows", HOW));
    }
    Ok(())
}

/// A `path` parameter as the index stores it: root-relative, `/`-separated.
fn locate(ws: &Workspace, raw: &str) -> Result<String> {
    if raw.is_empty() {
        return Err(usage("a path parameter is empty"));
    }
    match ws.locate(Path::new(raw)) {
        Located::Inside(rel) => Ok(rel),
        Located::Outside(abs) => Err(usage(format!(
            "{} is outside the project root {}; paths are looked up root-relative",
            abs.display(),
            ws.root.display()
        ))),
    }
}

/// Ad-hoc SQL never creates the database: a missing file is an ordinary failure.
fn open_existing(db: &Path) -> Result<rusqlite::Connection> {
    if !db.is_file() {
        anyhow::bail!(
            "no src project here (no database at {}): run `src init` and `src index` first",
            db.display()
        );
    }
    store::open_readonly(db)
}

fn list(out: &mut dyn Write, format: Format, verbose: bool) -> Result<()> {
    use rusqlite::types::ValueRef;
    let mut cols = vec!["name".to_string(), "params".into(), "description".into()];
    if verbose {
        cols.push("notes".into());
    }
    let mut sink = query::sink(format, out);
    sink.begin(&cols)?;
    for q in catalog::all()? {
        let params: Vec<String> = q.params.iter().map(catalog::ParamSpec::signature).collect();
        let params = params.join(", ");
        let notes = q.notes.join(" ");
        let mut row = vec![
            ValueRef::Text(q.name.as_bytes()),
            ValueRef::Text(params.as_bytes()),
            ValueRef::Text(q.description.as_bytes()),
        ];
        if verbose {
            row.push(ValueRef::Text(notes.as_bytes()));
        }
        sink.row(&row)?;
    }
    sink.end()
}
