//! `src graph`: draw the neighbourhood of a file, or the hotspots of the scope, as Mermaid or
//! Graphviz DOT.
//!
//! Owns the arguments and resolving FILE; drawing is `crate::export::draw`. Invariant: the
//! picture is of the refreshed index, with hotspots computed exactly as the map computes them.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use crate::ctx::Ctx;
use crate::export::draw::{self, DrawOptions};
use crate::export::model::{self, Graph};
use crate::index::{self, IndexOptions};
use crate::workspace::{GlobalOpts, Located};

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Format {
    Mermaid,
    Dot,
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
}

pub fn run(g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let ctx = Ctx::open_existing(g)?;
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
    let drawing = draw::draw(
        &graph,
        &levels,
        &DrawOptions {
            focus,
            depth: args.depth,
            max_nodes: args.max_nodes,
            format: match args.format {
                Format::Mermaid => draw::Format::Mermaid,
                Format::Dot => draw::Format::Dot,
            },
        },
    );
    let mut out = std::io::stdout().lock();
    out.write_all(drawing.text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
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
