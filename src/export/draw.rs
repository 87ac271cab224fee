//! Pictures of the reference graph: the neighbourhood of a file, or the hotspots of the scope,
//! as a Mermaid flowchart or Graphviz DOT.
//!
//! Owns node selection (breadth-first to a depth, capped), id sanitising and label escaping.
//! Invariant: ids are `[A-Za-z0-9_]` and unique, every label is escaped for its format, and
//! whatever the node limit leaves out is named in a comment, never silently dropped.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use super::model::Graph;
use super::Level;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Mermaid,
    Dot,
}

#[derive(Debug, Clone)]
pub struct DrawOptions {
    /// Index of the file to centre on; `None` draws the hotspots.
    pub focus: Option<usize>,
    pub depth: usize,
    /// 0: no limit.
    pub max_nodes: usize,
    pub format: Format,
}

/// A drawing and what it holds (for callers and tests).
#[derive(Debug, Clone)]
pub struct Drawing {
    pub text: String,
    /// Paths of the nodes drawn.
    pub nodes: Vec<String>,
    /// (src path, dst path, label) of the edges drawn.
    pub edges: Vec<(String, String, String)>,
    /// Paths the node limit left out.
    pub left_out: Vec<String>,
}

/// Draws the graph; `levels` is the hotspot of each file.
pub fn draw(g: &Graph, levels: &[Level], opts: &DrawOptions) -> Drawing {
    let n = g.files.len();
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut degree_in = vec![0usize; n];
    for &(s, d) in g.links.keys() {
        adj[s].push(d);
        adj[d].push(s);
        degree_in[d] += 1;
    }
    let rank = |i: &usize| {
        (
            std::cmp::Reverse(levels[*i]),
            std::cmp::Reverse(degree_in[*i]),
            *i,
        )
    };
    let seeds: Vec<usize> = match opts.focus {
        Some(f) => vec![f],
        None => {
            let mut s: Vec<usize> = (0..n).filter(|&i| levels[i] >= Level::Medium).collect();
            if s.is_empty() {
                s = (0..n).filter(|&i| degree_in[i] > 0).collect();
            }
            s.sort_by_key(rank);
            s
        }
    };
    // Breadth-first over references in both directions.
    let mut dist: HashMap<usize, usize> = seeds.iter().map(|&s| (s, 0)).collect();
    let mut queue: VecDeque<usize> = seeds.iter().copied().collect();
    while let Some(x) = queue.pop_front() {
        let dx = dist[&x];
        if dx >= opts.depth {
            continue;
        }
        for &y in &adj[x] {
            if let std::collections::hash_map::Entry::Vacant(v) = dist.entry(y) {
                v.insert(dx + 1);
                queue.push_back(y);
            }
        }
    }
    let mut order: Vec<usize> = dist.keys().copied().collect();
    order.sort_by_key(|i| (dist[i], rank(i)));
    let limit = if opts.max_nodes == 0 {
        order.len()
    } else {
        opts.max_nodes
    };
    let left: Vec<usize> = order.split_off(limit.min(order.len()));
    let kept: HashSet<usize> = order.iter().copied().collect();
    let mut nodes = order;
    nodes.sort();
    let edges: Vec<(usize, usize, String)> = g
        .links
        .iter()
        .filter(|((s, d), _)| kept.contains(s) && kept.contains(d))
        .map(|(&(s, d), names)| (s, d, label(names.iter())))
        .collect();
    let dropped_edges = g
        .links
        .keys()
        .filter(|(s, d)| {
            kept.contains(s) != kept.contains(d) && (dist.contains_key(s) && dist.contains_key(d))
        })
        .count();
    let ids = ids(g, &nodes);
    let title = match opts.focus {
        Some(f) => format!(
            "src graph: neighbourhood of {} (depth {})",
            one_line(&g.files[f].path),
            opts.depth
        ),
        None => format!(
            "src graph: hotspots and their neighbours (depth {})",
            opts.depth
        ),
    };
    let mut left_out: Vec<String> = left.iter().map(|&i| g.files[i].path.clone()).collect();
    left_out.sort();
    let note = (!left_out.is_empty()).then(|| {
        let shown: Vec<&str> = left_out.iter().take(10).map(String::as_str).collect();
        format!(
            "left out {} nodes and {dropped_edges} edges (node limit {}): {}{}",
            left_out.len(),
            opts.max_nodes,
            one_line(&shown.join(", ")),
            if left_out.len() > 10 { ", …" } else { "" }
        )
    });
    let ctx = Ctx {
        g,
        levels,
        focus: opts.focus,
        nodes: &nodes,
        edges: &edges,
        ids: &ids,
        title: &title,
        note: note.as_deref(),
    };
    let text = match opts.format {
        Format::Mermaid => mermaid(&ctx),
        Format::Dot => dot(&ctx),
    };
    Drawing {
        text,
        nodes: nodes.iter().map(|&i| g.files[i].path.clone()).collect(),
        edges: edges
            .iter()
            .map(|(s, d, l)| {
                (
                    g.files[*s].path.clone(),
                    g.files[*d].path.clone(),
                    l.clone(),
                )
            })
            .collect(),
        left_out,
    }
}

struct Ctx<'a> {
    g: &'a Graph,
    levels: &'a [Level],
    focus: Option<usize>,
    nodes: &'a [usize],
    edges: &'a [(usize, usize, String)],
    ids: &'a BTreeMap<usize, String>,
    title: &'a str,
    note: Option<&'a str>,
}

/// At most three names, then an ellipsis.
fn label<'a>(names: impl Iterator<Item = &'a String>) -> String {
    let all: Vec<&str> = names.map(String::as_str).collect();
    let mut s = all.iter().take(3).copied().collect::<Vec<_>>().join(", ");
    if all.len() > 3 {
        s.push_str(", …");
    }
    s
}

/// `n_` + the path with every other character as `_`; collisions get `_2`, `_3`…
fn ids(g: &Graph, nodes: &[usize]) -> BTreeMap<usize, String> {
    let mut used = HashSet::new();
    let mut out = BTreeMap::new();
    for &i in nodes {
        let base: String = "n_"
            .chars()
            .chain(
                g.files[i]
                    .path
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }),
            )
            .collect();
        let mut id = base.clone();
        let mut k = 2;
        while !used.insert(id.clone()) {
            id = format!("{base}_{k}");
            k += 1;
        }
        out.insert(i, id);
    }
    out
}

fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Mermaid text inside `"…"`: entity codes for the characters that end or break a label.
fn escape_mermaid(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '|' => out.push_str("#124;"),
            '`' => out.push_str("#96;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// DOT double-quoted string contents.
fn escape_dot(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn mermaid(c: &Ctx<'_>) -> String {
    let mut t = format!("%% {}\nflowchart LR\n", c.title);
    for &i in c.nodes {
        t.push_str(&format!(
            "    {}[\"{}\"]\n",
            c.ids[&i],
            escape_mermaid(&c.g.names[i])
        ));
    }
    for (s, d, l) in c.edges {
        t.push_str(&format!(
            "    {} -->|\"{}\"| {}\n",
            c.ids[s],
            escape_mermaid(l),
            c.ids[d]
        ));
    }
    t.push_str("    classDef high fill:#f8a5a5,stroke:#b00000,color:#000\n");
    t.push_str("    classDef medium fill:#fde2a7,stroke:#b07000,color:#000\n");
    t.push_str("    classDef focus stroke-width:4px\n");
    for (level, name) in [(Level::High, "high"), (Level::Medium, "medium")] {
        let members: Vec<&str> = c
            .nodes
            .iter()
            .filter(|&&i| c.levels[i] == level)
            .map(|i| c.ids[i].as_str())
            .collect();
        if !members.is_empty() {
            t.push_str(&format!("    class {} {name}\n", members.join(",")));
        }
    }
    if let Some(f) = c.focus.and_then(|f| c.ids.get(&f)) {
        t.push_str(&format!("    class {f} focus\n"));
    }
    if let Some(n) = c.note {
        t.push_str(&format!("    %% {n}\n"));
    }
    t
}

fn dot(c: &Ctx<'_>) -> String {
    let mut t = format!("// {}\ndigraph src {{\n", c.title);
    t.push_str("    rankdir=LR;\n");
    t.push_str("    node [shape=box, style=\"rounded,filled\", fillcolor=\"white\", fontname=\"Helvetica\"];\n");
    t.push_str("    edge [fontname=\"Helvetica\", fontsize=10];\n");
    for &i in c.nodes {
        let mut attrs = format!(
            "label=\"{}\", tooltip=\"{}\"",
            escape_dot(&c.g.names[i]),
            escape_dot(&c.g.files[i].path)
        );
        match c.levels[i] {
            Level::High => attrs.push_str(", fillcolor=\"#f8a5a5\""),
            Level::Medium => attrs.push_str(", fillcolor=\"#fde2a7\""),
            Level::Low => {}
        }
        if c.focus == Some(i) {
            attrs.push_str(", penwidth=3");
        }
        t.push_str(&format!("    {} [{attrs}];\n", c.ids[&i]));
    }
    for (s, d, l) in c.edges {
        t.push_str(&format!(
            "    {} -> {} [label=\"{}\"];\n",
            c.ids[s],
            c.ids[d],
            escape_dot(l)
        ));
    }
    if let Some(n) = c.note {
        t.push_str(&format!("    // {n}\n"));
    }
    t.push_str("}\n");
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Hotspot;
    use std::collections::BTreeSet;

    fn graph() -> Graph {
        let s = |v: &str| v.to_string();
        let files = ["a\"b.md", "hub.md", "x.md", "y.md", "far.md"]
            .iter()
            .map(|p| (s(p), s("2026-01-01")))
            .collect();
        let edges = vec![
            (s("a\"b.md"), s("hub.md"), s("hub")),
            (s("x.md"), s("hub.md"), s("hub")),
            (s("y.md"), s("hub.md"), s("hub")),
            (s("far.md"), s("x.md"), s("x|<y>")),
        ];
        Graph::from_parts(files, edges, BTreeSet::new())
    }

    fn levels(g: &Graph) -> Vec<Level> {
        let cfg = Hotspot {
            high_refd_by: 3,
            medium_refd_by: 2,
            recent_sessions: 3,
        };
        g.levels(&vec![true; g.files.len()], &cfg)
    }

    #[test]
    fn neighbourhood_respects_depth_and_limit() {
        let g = graph();
        let hub = g.index_of("hub.md").unwrap_or_default();
        let opts = DrawOptions {
            focus: Some(hub),
            depth: 1,
            max_nodes: 3,
            format: Format::Mermaid,
        };
        let d = draw(&g, &levels(&g), &opts);
        assert_eq!(d.nodes.len(), 3);
        assert_eq!(d.left_out.len(), 1, "{:?}", d.left_out);
        assert!(!d.nodes.contains(&"far.md".to_string()));
        assert!(d.text.contains("%% left out 1 nodes"));
        assert!(d.text.contains("class n_hub_md high"));
        // The quote in a path never reaches the output raw.
        assert!(!d.text.contains("a\"b"));
    }

    #[test]
    fn dot_escapes_and_labels_edges() {
        let g = graph();
        let opts = DrawOptions {
            focus: g.index_of("x.md"),
            depth: 2,
            max_nodes: 0,
            format: Format::Dot,
        };
        let d = draw(&g, &levels(&g), &opts);
        assert_eq!(d.nodes.len(), 5);
        assert!(
            d.text.contains("n_far_md -> n_x_md [label=\"x|<y>\"];"),
            "{}",
            d.text
        );
        assert!(d.text.contains("label=\"a\\\"b.md\""), "{}", d.text);
        assert!(d.text.trim_end().ends_with('}'));
    }
}
