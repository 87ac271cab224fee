//! `src graph`: draw the neighbourhood of a file, or the hotspots of the scope, as Mermaid or
//! Graphviz DOT, or list the same nodes and edges as JSON, TSV or CSV.
//!
//! Owns the arguments, resolving FILE, the list formats and fitting a token budget (fewer
//! nodes); drawing is `crate::export::draw`. Invariant: the picture is of the refreshed index,
//! with hotspots computed exactly as the map computes them.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use super::budget::{Budget, Cut};
use crate::ctx::Ctx;
use crate::export::draw::{self, DrawOptions, Drawing};
use crate::export::model::{self, Graph};
use crate::export::Level;
use crate::index::{self, IndexOptions};
use crate::workspace::{GlobalOpts, Located};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A Mermaid flowchart (renders on GitHub)
    Mermaid,
    /// Graphviz DOT
    Dot,
    /// {nodes, edges, left_out (a count), left_out_examples (without --max-tokens), cut}
    Json,
    /// The edges drawn, one per row: src, dst, names (header row)
    Tsv,
    /// As tsv, RFC 4180
    Csv,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// File to centre on (a path, or a unique path suffix); omitted: the hotspots of the scope
    pub file: Option<String>,
    /// How many references away from FILE (or the hotspots) to draw
    #[arg(long, default_value_t = 1)]
    pub depth: usize,
    #[arg(long, value_enum, default_value_t = Format::Mermaid)]
    pub format: Format,
    /// Most nodes to draw; the rest are named in a comment (0: no limit)
    #[arg(long, default_value_t = 40, value_name = "N")]
    pub max_nodes: usize,
    /// Draw at most about N tokens (estimated at 4 bytes each): the farthest, least referenced
    /// nodes are left out and a comment says how many and how to get them (0: no limit)
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<usize>,
}

/// What a cut picture leaves out, and how to get it.
const HOW: &str = "rerun without --max-tokens, or with a smaller --depth or a FILE to centre on";

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let ctx = super::open_existing(g)?;
    index::run(
        &ctx,
        &IndexOptions {
            full: false,
            progress: true,
        },
    )?;
    let conn = ctx.store.conn()?;
    let graph = Graph::load(&conn, ctx.config.hotspot.recent_sessions)?;
    let focus = match &args.file {
        Some(f) => Some(resolve(&ctx, &graph, f)?),
        None => None,
    };
    let map_rel = ctx.ws.relative(&ctx.ws.root.join(&ctx.config.map.path));
    let selected = model::selection(&graph, None, map_rel.as_deref());
    let levels = graph.levels(&selected, &ctx.config.hotspot);
    let opts = DrawOptions {
        focus,
        depth: args.depth,
        max_nodes: args.max_nodes,
        format: match args.format {
            Format::Dot => draw::Format::Dot,
            _ => draw::Format::Mermaid,
        },
    };
    let budget = Budget::new(args.max_tokens);
    // Nodes are the rows: the budget lowers the node limit (the first node always stays, since
    // a limit of 0 means none).
    let total = match budget {
        Some(_) => draw::draw(&graph, &levels, &opts).nodes.len(),
        // Without a budget the drawing is made once, with the node limit as given.
        None => 0,
    };
    let extra = total.saturating_sub(1);
    let fitted = super::budget::fit(budget, extra, |k| {
        let opts = DrawOptions {
            max_nodes: if k < extra { k + 1 } else { opts.max_nodes },
            ..opts.clone()
        };
        let d = draw::draw(&graph, &levels, &opts);
        let cut = budget.and_then(|b| b.cut(d.nodes.len(), total));
        render(&graph, &levels, &d, args.format, cut)
    })?;
    let mut out = std::io::stdout().lock();
    out.write_all(fitted.text.as_bytes())?;
    if let (Format::Tsv | Format::Csv, Some(b)) = (args.format, budget) {
        if let Some(c) = b.cut((fitted.kept + 1).min(total), total) {
            eprintln!("{}", c.message("nodes", HOW));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `text` without the drawing's own note on what its node limit left out: under a budget that
/// note (up to ten paths) would take most of a small budget, and the marker counts those nodes.
fn without_note(text: &str, prefix: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with(prefix))
        .flat_map(|l| [l, "\n"])
        .collect()
}

/// The drawing in `format`, with the budget's marker where the format has comments (in JSON
/// as `cut`; tsv and csv get it on stderr).
fn render(
    graph: &Graph,
    levels: &[Level],
    d: &Drawing,
    format: Format,
    cut: Option<Cut>,
) -> Result<String> {
    let marker = cut.map(|c| c.message("nodes", HOW));
    Ok(match format {
        Format::Mermaid => match marker {
            Some(m) => without_note(&d.text, "    %% left out ") + &format!("    %% {m}\n"),
            None => d.text.clone(),
        },
        Format::Dot => match marker {
            Some(m) => {
                let mut t = without_note(&d.text, "    // left out ");
                // Inside the graph's braces, before the closing one.
                let end = t.trim_end().len().saturating_sub(1);
                t.insert_str(end, &format!("    // {m}\n"));
                t
            }
            None => d.text.clone(),
        },
        Format::Json => {
            let nodes: Vec<serde_json::Value> = d
                .nodes
                .iter()
                .map(|p| {
                    let i = graph.index_of(p);
                    serde_json::json!({
                        "path": p,
                        "name": i.map(|i| graph.names[i].as_str()),
                        "hotspot": i.map(|i| levels[i].as_str()),
                    })
                })
                .collect();
            let edges: Vec<serde_json::Value> = d
                .edges
                .iter()
                .map(|(s, t, names)| serde_json::json!({"src": s, "dst": t, "names": names}))
                .collect();
            let mut v = serde_json::json!({
                "nodes": nodes,
                "edges": edges,
                "left_out": d.left_out.len(),
            });
            if let (None, Some(o)) = (cut, v.as_object_mut()) {
                let examples: Vec<&String> = d.left_out.iter().take(10).collect();
                o.insert("left_out_examples".into(), serde_json::to_value(examples)?);
            }
            if let (Some(c), Some(m), Some(o)) = (cut, marker, v.as_object_mut()) {
                let mut cv = serde_json::to_value(c)?;
                if let Some(co) = cv.as_object_mut() {
                    co.insert("message".into(), m.into());
                }
                o.insert("cut".into(), cv);
            }
            serde_json::to_string_pretty(&v)? + "\n"
        }
        Format::Tsv | Format::Csv => {
            use crate::query::format::{escape_csv, escape_tsv};
            let csv = format == Format::Csv;
            let (sep, eol) = if csv { (",", "\r\n") } else { ("\t", "\n") };
            let esc = |s: &str| if csv { escape_csv(s) } else { escape_tsv(s) };
            let mut t = format!("src{sep}dst{sep}names{eol}");
            for (s, dst, names) in &d.edges {
                t.push_str(&format!(
                    "{}{sep}{}{sep}{}{eol}",
                    esc(s),
                    esc(dst),
                    esc(names)
                ));
            }
            t
        }
    })
}

/// A path (absolute, or relative to the root or the working directory), else a unique suffix.
fn resolve(ctx: &Ctx, graph: &Graph, file: &str) -> Result<usize> {
    if let Located::Inside(rel) = ctx.ws.locate(Path::new(file)) {
        if let Some(i) = graph.index_of(&rel) {
            return Ok(i);
        }
    }
    let suffix = format!("/{}", file.trim_start_matches("./"));
    let hits: Vec<usize> = (0..graph.files.len())
        .filter(|&i| graph.files[i].path.ends_with(&suffix) || graph.names[i] == file)
        .collect();
    match hits.as_slice() {
        [i] => Ok(*i),
        [] => Err(crate::error::usage(format!(
            "`{file}` is not an indexed file (run `src index`, or check the scope)"
        ))),
        many => Err(crate::error::usage(format!(
            "`{file}` matches {} files: {}",
            many.len(),
            many.iter()
                .take(5)
                .map(|&i| graph.files[i].path.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}
