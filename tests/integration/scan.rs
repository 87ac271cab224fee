//! Reference detection measured against labelled fixtures, through the real binary.
//!
//! `fixtures/traps/` is indexed and its resolved edges (`src query edges --format tsv`) are
//! compared with the exact labels of `fixtures/traps.expected.tsv`: precision and recall over
//! distinct (src, dst) pairs must both reach 0.99. On `fixtures/claude-tree/` the expected edges
//! are derived from the fixture's own contents (settings.json hook commands, INPUT_FROM /
//! OUTPUT_TO lines), never hard-coded. The fixtures themselves are only ever copied.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{bail, ensure, Context, Result};

use crate::util::{fixtures, Project};

/// Stdout of a successful run; lossy, because evidence from a non-UTF-8 file may carry its bytes.
fn stdout_of(cmd: &mut assert_cmd::Command) -> String {
    String::from_utf8_lossy(&cmd.assert().success().get_output().stdout).into_owned()
}

/// One row of `src query edges --format tsv`.
#[derive(Debug, Clone)]
struct Edge {
    src: String,
    dst: String,
    pattern: String,
    line: usize,
    evidence: String,
}

type Pair = (String, String);

/// Undoes the TSV escaping of the query contract (`\t`, `\n`, `\\`).
fn unescape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut it = v.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some(o) => {
                out.push('\\');
                out.push(o);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Parses a TSV result with a header row into maps keyed by column name.
fn parse_tsv(text: &str) -> Result<Vec<BTreeMap<String, String>>> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines
        .next()
        .context("empty query output: no header row")?
        .split('\t')
        .collect();
    let mut rows = Vec::new();
    for (i, l) in lines.enumerate() {
        let cells: Vec<&str> = l.split('\t').collect();
        ensure!(
            cells.len() == header.len(),
            "query output line {}: {} cells, header has {}: {l:?}",
            i + 2,
            cells.len(),
            header.len()
        );
        rows.push(
            header
                .iter()
                .map(|h| h.to_string())
                .zip(cells.iter().map(|c| unescape(c)))
                .collect(),
        );
    }
    Ok(rows)
}

fn col(row: &BTreeMap<String, String>, name: &str) -> Result<String> {
    row.get(name)
        .cloned()
        .with_context(|| format!("query output has no `{name}` column: {row:?}"))
}

/// Indexes the project, then reads every resolved edge.
fn index_and_edges(p: &Project) -> Result<Vec<Edge>> {
    p.src().arg("index").assert().success();
    let text = stdout_of(p.src().args(["query", "edges", "--format", "tsv"]));
    parse_tsv(&text)?
        .iter()
        .map(|r| {
            Ok(Edge {
                src: col(r, "src")?,
                dst: col(r, "dst")?,
                pattern: col(r, "pattern")?,
                line: col(r, "line")?
                    .parse()
                    .context("edges: `line` is not a number")?,
                evidence: col(r, "evidence")?,
            })
        })
        .collect()
}

fn pairs(edges: &[Edge]) -> BTreeSet<Pair> {
    edges
        .iter()
        .map(|e| (e.src.clone(), e.dst.clone()))
        .collect()
}

/// The labelled edge set: `src<TAB>dst` lines; `#` comments, blank lines and the header skipped.
fn labels(path: &Path) -> Result<BTreeSet<Pair>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = BTreeSet::new();
    for (i, l) in text.lines().enumerate() {
        if l.trim().is_empty() || l.starts_with('#') || l == "src\tdst" {
            continue;
        }
        let Some((s, d)) = l.split_once('\t') else {
            bail!(
                "{}:{}: expected `src<TAB>dst`, got {l:?}",
                path.display(),
                i + 1
            );
        };
        out.insert((s.to_string(), d.to_string()));
    }
    Ok(out)
}

#[test]
fn traps_precision_and_recall_reach_099() -> Result<()> {
    let expected = labels(&fixtures().join("traps.expected.tsv"))?;
    ensure!(
        expected.len() >= 30,
        "label file lost its edges: {}",
        expected.len()
    );
    let p = Project::from_fixture("traps");
    let edges = index_and_edges(&p)?;
    let found = pairs(&edges);

    let tp = found.intersection(&expected).count() as f64;
    let precision = if found.is_empty() {
        0.0
    } else {
        tp / found.len() as f64
    };
    let recall = tp / expected.len() as f64;
    let mut report = format!(
        "traps: precision {precision:.3} ({tp}/{}), recall {recall:.3} ({tp}/{})\n",
        found.len(),
        expected.len()
    );
    for e in edges
        .iter()
        .filter(|e| !expected.contains(&(e.src.clone(), e.dst.clone())))
    {
        report += &format!(
            "  false positive: {} -> {} via {:?} at line {}: {:?}\n",
            e.src, e.dst, e.pattern, e.line, e.evidence
        );
    }
    for (s, d) in expected.difference(&found) {
        report += &format!("  missed: {s} -> {d}\n");
    }
    eprint!("{report}");
    ensure!(precision >= 0.99 && recall >= 0.99, "{report}");
    Ok(())
}

#[test]
fn traps_edge_evidence_points_at_the_mentioning_line() -> Result<()> {
    let p = Project::from_fixture("traps");
    let edges = index_and_edges(&p)?;
    ensure!(!edges.is_empty(), "no edges at all");
    for e in &edges {
        ensure!(e.src != e.dst, "self edge: {e:?}");
        let bytes = std::fs::read(p.path(&e.src)).with_context(|| format!("reading {}", e.src))?;
        let line = bytes
            .split(|b| *b == b'\n')
            .nth(e.line.wrapping_sub(1))
            .with_context(|| format!("{e:?}: {} has no line {}", e.src, e.line))?;
        let pat = e.pattern.as_bytes();
        ensure!(
            line.windows(pat.len().max(1)).any(|w| w == pat),
            "{e:?}: line {} of {} does not contain the pattern",
            e.line,
            e.src
        );
        ensure!(
            e.evidence.contains(&e.pattern),
            "{e:?}: evidence lacks the pattern"
        );
    }
    Ok(())
}

#[test]
fn traps_skipped_files_are_not_indexed() -> Result<()> {
    let p = Project::from_fixture("traps");
    p.src().arg("index").assert().success();
    let text = stdout_of(p.src().args(["query", "files", "--format", "tsv"]));
    let files: BTreeSet<String> = parse_tsv(&text)?
        .iter()
        .map(|r| col(r, "path"))
        .collect::<Result<_>>()?;
    for present in [
        "CLAUDE.md",
        ".claude/agents/legacy-latin1.md",
        ".claude/references/My Notes/release plan.md",
    ] {
        ensure!(
            files.contains(present),
            "{present} should be indexed; files: {files:?}"
        );
    }
    // The binary blob.bin may be recorded as skipped; its edges are judged by the precision test.
    for absent in [
        ".claude/scratch/draft.md",
        ".claude/agent-memory/analyst/notes.md",
        ".claude/agent-memory-local/x.md",
        ".claude/projects/demo/memory/cc-reference/hooks-ref.md",
        ".srcignore",
    ] {
        ensure!(
            !files.contains(absent),
            "{absent} must not be indexed; files: {files:?}"
        );
    }
    Ok(())
}

/// Every `command` string under `hooks` in a Claude Code settings file.
fn hook_commands(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("command", serde_json::Value::String(s)) => out.push(s.clone()),
                    _ => hook_commands(x, out),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| hook_commands(x, out)),
        _ => {}
    }
}

#[test]
fn claude_tree_settings_json_has_an_edge_to_each_hook_it_names() -> Result<()> {
    let p = Project::from_fixture("claude-tree");
    let settings = std::fs::read_to_string(p.path(".claude/settings.json"))
        .context("reading settings.json")?;
    let mut commands = Vec::new();
    hook_commands(
        &serde_json::from_str(&settings).context("parsing settings.json")?,
        &mut commands,
    );
    // "/home/dev/project/.claude/hooks/x.sh" names the project file ".claude/hooks/x.sh".
    let scripts: Vec<String> = commands
        .iter()
        .filter_map(|c| c.find("/.claude/").map(|i| c[i + 1..].to_string()))
        .collect();
    ensure!(scripts.len() >= 5, "fixture lost its hooks: {commands:?}");
    let found = pairs(&index_and_edges(&p)?);
    for s in &scripts {
        ensure!(
            p.path(s).is_file(),
            "fixture: {s} named by settings.json does not exist"
        );
        let pair = (".claude/settings.json".to_string(), s.clone());
        ensure!(
            found.contains(&pair),
            "missing edge .claude/settings.json -> {s}"
        );
    }
    Ok(())
}

/// Skill names on the `INPUT_FROM:` / `OUTPUT_TO:` lines of a SKILL.md: `a (why), b (why).`
fn flow_skills(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for l in text.lines() {
        let l = l.trim();
        let Some(rest) = l
            .strip_prefix("INPUT_FROM:")
            .or_else(|| l.strip_prefix("OUTPUT_TO:"))
        else {
            continue;
        };
        for item in rest.split(',') {
            let name: String = item
                .trim()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

#[test]
fn claude_tree_input_from_and_output_to_become_skill_edges() -> Result<()> {
    let p = Project::from_fixture("claude-tree");
    let found = pairs(&index_and_edges(&p)?);
    let mut checked = 0;
    let skills = p.path(".claude/skills");
    for entry in std::fs::read_dir(&skills).context("reading skills/")? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        let me = format!(".claude/skills/{name}/SKILL.md");
        let Ok(text) = std::fs::read_to_string(p.path(&me)) else {
            continue;
        };
        for other in flow_skills(&text) {
            let dst = format!(".claude/skills/{other}/SKILL.md");
            if other == name || !p.path(&dst).is_file() {
                continue;
            }
            ensure!(
                found.contains(&(me.clone(), dst.clone())),
                "missing edge {me} -> {dst}"
            );
            checked += 1;
        }
    }
    ensure!(
        checked >= 40,
        "fixture has too few INPUT_FROM/OUTPUT_TO skill names: {checked}"
    );
    Ok(())
}

#[test]
fn claude_tree_excluded_content_gives_no_edges_and_hubs_exist() -> Result<()> {
    let p = Project::from_fixture("claude-tree");
    let edges = index_and_edges(&p)?;
    let excluded = |f: &str| {
        f.starts_with(".claude/agent-memory/")
            || f.starts_with(".claude/agent-memory-local/")
            || f.contains("/memory/cc-reference/")
    };
    for e in &edges {
        ensure!(
            !excluded(&e.src) && !excluded(&e.dst),
            "edge touches excluded content: {e:?}"
        );
    }
    // The fixture promises hubs (README): each mentioned by more than 10 files.
    let found = pairs(&edges);
    for hub in [
        ".claude/agents/implementer.md",
        ".claude/skills/execution-code/SKILL.md",
    ] {
        let n = found.iter().filter(|(_, d)| d == hub).count();
        ensure!(n > 10, "{hub} has only {n} dependents");
    }
    Ok(())
}
