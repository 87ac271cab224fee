//! `src dependents FILE [--depth 1|2] [--json]`: the files that mention FILE, with evidence, and
//! how complete that answer is (so "no dependents" is never confused with "not indexed").

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;

use super::budget::{Budget, Cut};
use crate::ctx::Ctx;
use crate::graph::dependents::{self, IndexState, Options, Source};
use crate::graph::{self, Edge};
use crate::index::{self, Freshness};
use crate::workspace::{GlobalOpts, Located};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The file, absolute or relative to the project root
    pub file: PathBuf,
    /// 1: direct dependents; 2: also the files that mention those
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub depth: u8,
    /// Output format: text, json, or the rows as tsv or csv (`--json` is `--format json`)
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print the answer as JSON
    #[arg(long)]
    pub json: bool,
    #[arg(long, value_name = "N", help = super::budget::HELP)]
    pub max_tokens: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    /// One row per mention (header row; notes go to stderr)
    Tsv,
    /// As tsv, RFC 4180
    Csv,
}

#[derive(Debug, Serialize)]
struct Dependent {
    src: String,
    line: u32,
    text: String,
    name: String,
    resolution: String,
    /// The kind of reference: path, file, name, import or use.
    kind: String,
    /// The file this one mentions on the way to FILE (depth 2 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    via: Option<String>,
}

#[derive(Debug, Serialize)]
struct Answer {
    file: String,
    /// `indexed`, `live-scan` (no index: the tree was scanned now) or `unindexed`.
    source: &'static str,
    freshness: Freshness,
    /// True when nothing below limits the answer.
    complete: bool,
    direct: Vec<Dependent>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    indirect: Vec<Dependent>,
    /// Dependents changed on disk since they were indexed (their mentions may differ now).
    stale_dependents: Vec<String>,
    /// Mentions of FILE's names that could not be attributed to one file (ties between
    /// same-named files): the answer leaves them out, so it is not complete.
    unattributed: u64,
    last_scan: Option<String>,
    /// Whether the stored graph could answer: fresh, stale, config-changed or absent.
    index_state: IndexState,
    notes: Vec<String>,
}

fn dependent(e: Edge, via: Option<String>) -> Dependent {
    Dependent {
        src: e.src,
        line: e.line,
        text: e.text,
        name: e.name,
        resolution: e.resolution,
        kind: e.kind,
        via,
    }
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let ctx = super::open_existing(g)?;
    let file = match ctx.ws.locate(&args.file) {
        Located::Inside(rel) => rel,
        Located::Outside(abs) => {
            return Err(crate::error::usage(format!(
                "{} is outside the project root {}",
                abs.display(),
                ctx.ws.root.display()
            )))
        }
    };
    let file = {
        let conn = ctx.store.conn()?;
        graph::locate_file(&conn, &ctx.ws.root, &file).map_err(crate::error::usage)?
    };
    let answer = answer(&ctx, &file, args.depth)?;
    let format = if args.json { Format::Json } else { args.format };
    print(&answer, format, Budget::new(args.max_tokens))?;
    Ok(ExitCode::SUCCESS)
}

/// What a cut answer leaves out, and how to get it.
const HOW: &str = "rerun without --max-tokens for all of them";

/// Prints the answer with as many rows (direct, then 2-hop) as `budget` allows. In tsv and csv
/// the notes and the marker go to stderr, so that stdout stays one table.
fn print(a: &Answer, format: Format, budget: Option<Budget>) -> Result<()> {
    let rows = a.direct.len() + a.indirect.len();
    let cut = |k: usize| budget.and_then(|b| b.cut(k, rows));
    let mut base = serde_json::Value::Null;
    if format == Format::Json {
        base = serde_json::to_value(a)?;
        for key in ["direct", "indirect"] {
            if let Some(rows) = base.get_mut(key) {
                *rows = serde_json::Value::Null;
            }
        }
    }
    let fitted = super::budget::fit(budget, rows, |k| {
        let mut buf = Vec::new();
        match format {
            Format::Text => print_text(&mut buf, a, k, cut(k))?,
            Format::Json => print_json(&mut buf, &base, a, k, cut(k))?,
            Format::Tsv | Format::Csv => print_table(&mut buf, a, k, format == Format::Csv)?,
        }
        Ok(String::from_utf8_lossy(&buf).into_owned())
    })?;
    let mut out = std::io::stdout().lock();
    out.write_all(fitted.text.as_bytes())?;
    out.flush()?;
    if matches!(format, Format::Tsv | Format::Csv) {
        for n in &a.notes {
            eprintln!("note: {n}");
        }
        if let Some(c) = cut(fitted.kept) {
            eprintln!("{}", c.message("rows", HOW));
        }
    }
    Ok(())
}

/// The first `k` rows: direct ones first, then 2-hop ones.
fn shown(a: &Answer, k: usize) -> (&[Dependent], &[Dependent]) {
    let d = k.min(a.direct.len());
    let i = (k - d).min(a.indirect.len());
    (&a.direct[..d], &a.indirect[..i])
}

/// `base`: the answer as JSON with its rows left as `null` (serialised once, not per fit).
fn print_json(
    out: &mut impl Write,
    base: &serde_json::Value,
    a: &Answer,
    k: usize,
    cut: Option<Cut>,
) -> Result<()> {
    let mut v = base.clone();
    let (direct, indirect) = shown(a, k);
    if let Some(obj) = v.as_object_mut() {
        obj.insert("direct".into(), serde_json::to_value(direct)?);
        if !a.indirect.is_empty() {
            obj.insert("indirect".into(), serde_json::to_value(indirect)?);
        }
        if let Some(c) = cut {
            let mut cv = serde_json::to_value(c)?;
            if let Some(o) = cv.as_object_mut() {
                o.insert("message".into(), c.message("rows", HOW).into());
            }
            obj.insert("cut".into(), cv);
        }
    }
    serde_json::to_writer_pretty(&mut *out, &v)?;
    writeln!(out)?;
    Ok(())
}

fn print_table(out: &mut impl Write, a: &Answer, k: usize, csv: bool) -> Result<()> {
    use crate::query::format::{escape_csv, escape_tsv};
    let (sep, eol) = if csv { (",", "\r\n") } else { ("\t", "\n") };
    let esc = |s: &str| if csv { escape_csv(s) } else { escape_tsv(s) };
    let head = [
        "depth",
        "src",
        "line",
        "name",
        "kind",
        "resolution",
        "via",
        "text",
    ];
    write!(out, "{}{eol}", head.join(sep))?;
    let (direct, indirect) = shown(a, k);
    for (depth, d) in direct
        .iter()
        .map(|d| (1, d))
        .chain(indirect.iter().map(|d| (2, d)))
    {
        let cells = [
            depth.to_string(),
            esc(&d.src),
            d.line.to_string(),
            esc(&d.name),
            esc(&d.kind),
            esc(&d.resolution),
            esc(d.via.as_deref().unwrap_or("")),
            esc(&d.text),
        ];
        write!(out, "{}{eol}", cells.join(sep))?;
    }
    Ok(())
}

fn answer(ctx: &Ctx, file: &str, depth: u8) -> Result<Answer> {
    // The same lookup as `impact`, the alert and the cascade; this command only reads, so it
    // refreshes nothing: a stale dependent or a changed config means a live scan.
    let opts = Options::reading(&ctx.config);
    let conn = ctx.store.conn()?;
    let found = dependents::lookup(ctx, &conn, &[file.to_string()], opts)?;
    let root = &ctx.ws.root;
    let usable = matches!(found.state, IndexState::Fresh | IndexState::Stale(_));
    let freshness = if usable {
        index::freshness_with(&conn, root, &[file.to_string()])?
            .pop()
            .map_or(Freshness::Unindexed, |(_, f)| f)
    } else {
        Freshness::Unindexed
    };
    let mut notes = Vec::new();
    match freshness {
        Freshness::Unindexed if usable => {
            notes.push(match graph::skipped_reason(&conn, file)? {
                Some(reason) => format!("{file} is not indexed: skipped ({reason})"),
                None if root.join(file).is_file() => format!(
                    "{file} is not indexed (new since the last scan, or out of scope): run `src index`"
                ),
                None => format!("{file} does not exist and is not indexed"),
            });
        }
        Freshness::Stale => notes.push(format!(
            "{file} changed since it was indexed (its names are those of the last scan)"
        )),
        Freshness::Missing => notes.push(format!("{file} was indexed but no longer exists")),
        _ => {}
    }
    let own_notes_empty = notes.is_empty();
    notes.extend(found.notes.iter().cloned());
    let unattributed = found.unattributed.first().map_or(0, |(_, n)| *n);
    let own_notes_empty = own_notes_empty && unattributed == 0;
    if unattributed > 0 {
        notes.push(format!(
            "{unattributed} mention(s) of {file}'s names could not be attributed: other files \
             bear the same name and none is nearer (`src query unresolved` lists them)"
        ));
    }
    let srcs: BTreeSet<String> = found.edges.iter().map(|e| e.src.clone()).collect();
    let mut indirect = Vec::new();
    let mut source = found.source;
    if depth >= 2 && !srcs.is_empty() {
        let srcs_vec: Vec<String> = srcs.iter().cloned().collect();
        let hop2 = dependents::lookup(ctx, &conn, &srcs_vec, opts)?;
        for n in hop2.notes {
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
        if hop2.source == Source::LiveScan {
            source = Source::LiveScan;
        }
        for e in hop2.edges {
            if e.src != file && !srcs.contains(&e.src) {
                let via = e.dst.clone();
                indirect.push(dependent(e, Some(via)));
            }
        }
        indirect.sort_by(|a, b| (&a.src, a.line, &a.via).cmp(&(&b.src, b.line, &b.via)));
        // One row per `src:line`, its intermediate files listed together.
        let mut merged: Vec<Dependent> = Vec::with_capacity(indirect.len());
        for d in indirect {
            match merged.last_mut() {
                Some(last) if last.src == d.src && last.line == d.line => {
                    if let (Some(v), Some(new)) = (last.via.as_mut(), d.via) {
                        if !v.split(", ").any(|x| x == new) {
                            v.push_str(", ");
                            v.push_str(&new);
                        }
                    }
                }
                _ => merged.push(d),
            }
        }
        indirect = merged;
    }
    let last_scan = [index::META_LAST_INCREMENTAL, index::META_LAST_FULL]
        .iter()
        .filter_map(|k| crate::store::meta_get(&conn, k).ok().flatten())
        .max();
    let stale_dependents = match &found.state {
        IndexState::Stale(f) => f.clone(),
        _ => Vec::new(),
    };
    Ok(Answer {
        file: file.to_string(),
        source: match source {
            Source::LiveScan => "live-scan",
            Source::Index if freshness == Freshness::Unindexed => "unindexed",
            Source::Index => "indexed",
        },
        // The lookup's own notes say where the answer came from (a live scan is as complete
        // as the tree now); what is left out of it is a cut, a tie or the target's own state.
        complete: own_notes_empty && !found.truncated,
        freshness,
        direct: found
            .edges
            .into_iter()
            .map(|e| dependent(e, None))
            .collect(),
        indirect,
        stale_dependents,
        unattributed,
        last_scan,
        index_state: found.state,
        notes,
    })
}

fn print_text(out: &mut impl Write, a: &Answer, k: usize, cut: Option<Cut>) -> Result<()> {
    let (direct, indirect) = shown(a, k);
    // A file mentioning FILE on several lines is one dependent with several mentions.
    let files = |rows: &[Dependent]| -> usize {
        let srcs: std::collections::BTreeSet<&str> = rows.iter().map(|d| d.src.as_str()).collect();
        srcs.len()
    };
    writeln!(
        out,
        "{}: {} direct dependent(s), {} mention(s)",
        a.file,
        files(&a.direct),
        a.direct.len()
    )?;
    for d in direct {
        writeln!(
            out,
            "  {}:{}:{}  [{} `{}`]",
            d.src, d.line, d.text, d.kind, d.name
        )?;
    }
    if !a.indirect.is_empty() {
        writeln!(
            out,
            "2-hop dependent(s): {}, {} mention(s)",
            files(&a.indirect),
            a.indirect.len()
        )?;
        for d in indirect {
            let via = d.via.as_deref().unwrap_or("?");
            writeln!(
                out,
                "  {}:{}:{}  [{} `{}`] (via {via})",
                d.src, d.line, d.text, d.kind, d.name
            )?;
        }
    }
    for p in &a.stale_dependents {
        writeln!(out, "stale: {p}")?;
    }
    for n in &a.notes {
        writeln!(out, "note: {n}")?;
    }
    let completeness = if a.complete && a.source == "live-scan" {
        "complete (a live scan of the tree now)"
    } else if a.complete {
        "complete as of the last scan"
    } else {
        "incomplete (see notes)"
    };
    writeln!(out, "answer: {completeness}")?;
    if let Some(c) = cut {
        writeln!(out, "{}", c.message("rows", HOW))?;
    }
    Ok(())
}
