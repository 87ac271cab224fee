//! Integration tests for `src export-map` and `src graph`: the map of a realistic tree, diff
//! stability, pruning, the validator on one broken map per error code, and the drawings.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::util::{fixtures, stdout_of, Project};

const MAP: &str = ".claude/agent-memory/analyst/codebase-map.md";

/// Every `YYYY-MM-DD` replaced, so snapshots do not depend on the day they run.
fn redact_dates(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    let is_date = |s: &[u8]| {
        s.len() >= 10
            && s[..10].iter().enumerate().all(|(k, c)| {
                if k == 4 || k == 7 {
                    *c == b'-'
                } else {
                    c.is_ascii_digit()
                }
            })
    };
    while i < b.len() {
        if is_date(&b[i..]) {
            out.push_str("YYYY-MM-DD");
            i += 10;
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The map fixture as a project (`src init` run: read-only commands need one).
fn map_tree() -> Project {
    let p = Project::from_fixture("map-tree");
    p.src().arg("init").assert().success();
    p
}

fn check_json(p: &Project, args: &[&str]) -> (i32, serde_json::Value) {
    let out = p
        .src()
        .args(["export-map", "--check"])
        .args(args)
        .arg("--json")
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("json: {e}: {}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code().unwrap_or(-1), v)
}

fn codes(v: &serde_json::Value, key: &str) -> BTreeSet<String> {
    v[key]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["code"].as_str().map(str::to_string))
        .collect()
}

/// (path, hotspot, updated) of each entry of a map text.
fn sections(text: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut cur: Option<(String, String, String)> = None;
    for line in text.lines() {
        if let Some(p) = line.strip_prefix("## ") {
            out.extend(cur.take());
            cur = Some((p.to_string(), String::new(), String::new()));
        } else if let (Some(c), Some(h)) = (cur.as_mut(), line.strip_prefix("hotspot: ")) {
            c.1 = h.to_string();
        } else if let (Some(c), Some(u)) = (cur.as_mut(), line.strip_prefix("updated: ")) {
            c.2 = u.to_string();
        }
    }
    out.extend(cur);
    out
}

#[test]
fn validator_accepts_the_valid_map() {
    let p = map_tree();
    let (code, v) = check_json(&p, &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["valid"], true);
    assert!(codes(&v, "errors").is_empty(), "{v}");
    assert!(codes(&v, "warnings").is_empty(), "{v}");
    assert_eq!(v["staleness"]["total_entries"], 4);
    assert_eq!(v["staleness"]["missing_count"], 0);
}

#[test]
fn validator_reports_one_code_per_broken_map() {
    let cases = [
        ("missing_file", "E_MISSING_FILE"),
        ("one_sided_ref", "E_ONE_SIDED_REF"),
        ("hotspot", "E_HOTSPOT"),
        ("excluded_path", "E_EXCLUDED_PATH"),
        ("too_long", "E_TOO_LONG"),
        ("unparseable", "E_UNPARSEABLE"),
        ("duplicate_entry", "E_DUPLICATE_ENTRY"),
    ];
    let p = map_tree();
    for (file, want) in cases {
        let broken = fixtures().join("map-broken").join(format!("{file}.md"));
        let (code, v) = check_json(&p, &[&broken.display().to_string()]);
        assert_eq!(code, 1, "{file}: {v}");
        assert_eq!(v["valid"], false, "{file}");
        let got = codes(&v, "errors");
        assert_eq!(got, BTreeSet::from([want.to_string()]), "{file}: {v}");
        let located = v["errors"][0]["line"].is_number() || want == "E_TOO_LONG";
        assert!(located, "{file}: errors name their line: {v}");
    }
}

#[test]
fn validator_text_output_and_missing_map() {
    let p = map_tree();
    std::fs::remove_file(p.path(MAP)).unwrap_or_else(|e| panic!("rm: {e}"));
    let out = p
        .src()
        .args(["export-map", "--check"])
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("E_MISSING_MAP"), "{text}");
    assert!(text.contains("recommendation: full-regeneration"), "{text}");
    // The map itself is markdown: a structured format for `--out -` is a usage error.
    p.src()
        .args(["export-map", "--out", "-", "--format", "json"])
        .assert()
        .code(2);
}

#[test]
fn check_report_is_the_l1_staleness_check() {
    let p = map_tree();
    let yaml = stdout_of(p.src().args(["export-map", "--check", "--report"]));
    let v: serde_json::Value =
        serde_yaml::from_str(&yaml).unwrap_or_else(|e| panic!("yaml: {e}: {yaml}"));
    assert_eq!(v["domain"], "homeostasis");
    assert_eq!(v["skill"], "manage-codebase");
    assert_eq!(v["mode"], "staleness-check");
    assert_eq!(v["entries"], 4);
    assert_eq!(v["staleness_report"]["total_entries"], 4);
    assert_eq!(v["map_path"], MAP);
}

#[test]
fn map_of_the_claude_tree() {
    let p = Project::from_fixture("claude-tree");
    let first = stdout_of(p.src().args(["export-map", "--report"]));
    let v: serde_json::Value = serde_yaml::from_str(&first).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["mode"], "full-generation", "{first}");
    let text = std::fs::read_to_string(p.path(MAP)).unwrap_or_else(|e| panic!("read: {e}"));
    insta::with_settings!({ prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("export__claude_tree_map", redact_dates(&text));
    });
    assert!(text.lines().count() <= 300);
    assert!(
        !text.contains(&format!("## {MAP}")),
        "the map never lists itself"
    );
    // What we write passes our own validator; the only warnings are names of pruned files.
    let (code, v) = check_json(&p, &[]);
    assert_eq!(code, 0, "{v}");
    let pruned: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("<!-- Pruned: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let warnings = v["warnings"].as_array().map(Vec::len).unwrap_or(0);
    assert!(
        warnings <= pruned,
        "{warnings} warnings for {pruned} pruned: {v}"
    );
    assert!(
        codes(&v, "warnings")
            .iter()
            .all(|c| c == "W_UNRESOLVED_REF"),
        "{v}"
    );
    // A second export with nothing changed: same bytes, file untouched.
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    set_mtime(&p.path(MAP), old);
    let again = stdout_of(p.src().args(["export-map", "--report"]));
    let v: serde_json::Value = serde_yaml::from_str(&again).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["mode"], "incremental-update");
    assert_eq!(
        (
            &v["new_entries_added"],
            &v["stale_entries_removed"],
            &v["entries_updated"]
        ),
        (&0.into(), &0.into(), &0.into())
    );
    let after = std::fs::read_to_string(p.path(MAP)).unwrap_or_else(|e| panic!("read: {e}"));
    assert_eq!(after, text);
    assert_eq!(
        mtime(&p.path(MAP)),
        old,
        "an unchanged map is not rewritten"
    );
}

#[test]
fn corrupt_map_is_reported_then_regenerated() {
    let p = map_tree();
    p.write(MAP, "\u{0}garbage, not a map\n## \n");
    let (code, v) = check_json(&p, &[]);
    assert_eq!(code, 1);
    assert!(codes(&v, "errors").contains("E_UNPARSEABLE"), "{v}");
    let yaml = stdout_of(p.src().args(["export-map", "--report"]));
    assert!(yaml.contains("mode: full-generation"), "{yaml}");
    let (code, v) = check_json(&p, &[]);
    assert_eq!(code, 0, "{v}");
}

#[test]
fn over_long_map_prunes_the_lowest_priority_entries() {
    let p = Project::empty();
    // 60 low topics, a medium agent (5 referrers) and a high one (12 referrers): 62 entries.
    for i in 0..60 {
        let mut body = format!("# topic {i:02}\n");
        if i < 12 {
            body.push_str("See central-hub for routing.\n");
        }
        if (20..25).contains(&i) {
            body.push_str("Ask middle-agent first.\n");
        }
        p.write(&format!(".claude/docs/topic-{i:02}.md"), &body);
    }
    p.write(".claude/agents/central-hub.md", "# hub\n");
    p.write(".claude/agents/middle-agent.md", "# middle\n");
    p.src()
        .args(["export-map", "--max-lines", "0"])
        .assert()
        .success();
    // Age seventeen topics to distinct old dates; the fourteen oldest must go.
    let db = rusqlite::Connection::open(p.path(".src/src.db")).unwrap_or_else(|e| panic!("{e}"));
    for k in 0..17 {
        db.execute(
            "UPDATE files SET content_changed_at = ?1 WHERE path = ?2",
            (
                format!("2025-01-{:02}T00:00:00+00:00", k + 1),
                format!(".claude/docs/topic-{:02}.md", 59 - k),
            ),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
    drop(db);
    let yaml = stdout_of(p.src().args(["export-map", "--report"]));
    let text = std::fs::read_to_string(p.path(MAP)).unwrap_or_else(|e| panic!("read: {e}"));
    // 6 header lines + the pruned comment + 6 per entry: 48 entries fit in 300 lines.
    assert!(text.lines().count() <= 300, "{}", text.lines().count());
    assert!(text.contains("<!-- Entry count: 48 -->"), "{text}");
    assert!(text.contains("<!-- Pruned: 14 entries"), "{text}");
    let kept: BTreeSet<String> = sections(&text).into_iter().map(|s| s.0).collect();
    let pruned: BTreeSet<String> = (0..14)
        .map(|k| format!(".claude/docs/topic-{:02}.md", 59 - k))
        .collect();
    assert!(kept.is_disjoint(&pruned), "{kept:?}");
    assert!(kept.contains(".claude/agents/central-hub.md"));
    assert!(kept.contains(".claude/agents/middle-agent.md"));
    let levels: Vec<String> = sections(&text)
        .into_iter()
        .filter(|s| s.0.contains("agents/"))
        .map(|s| s.1)
        .collect();
    assert_eq!(levels, vec!["high", "medium"]);
    assert!(yaml.contains("stale_entries_removed: 14"), "{yaml}");
    // --check honours the same limit; --max-lines 0 lifts it.
    let (code, _) = check_json(&p, &["--max-lines", "200"]);
    assert_eq!(code, 1);
    let (code, v) = check_json(&p, &["--max-lines", "0"]);
    assert_eq!(code, 0, "{v}");
}

#[test]
fn files_changed_in_the_last_sessions_are_hot() {
    let p = map_tree();
    let hook = ".claude/hooks/on-file-change.sh";
    let level = |p: &Project| {
        let text = stdout_of(p.src().args(["export-map", "--out", "-"]));
        sections(&text)
            .into_iter()
            .find(|s| s.0 == hook)
            .map(|s| s.1)
            .unwrap_or_default()
    };
    assert_eq!(level(&p), "low");
    let db = rusqlite::Connection::open(p.path(".src/src.db")).unwrap_or_else(|e| panic!("{e}"));
    let edit = |session: &str, path: &str, ts: &str| {
        db.execute(
            "INSERT INTO events(session_id, tool_name, abs_path, path, ts) VALUES (?1, 'Edit', ?2, ?2, ?3)",
            (session, path, ts),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    };
    edit("s1", hook, "2026-01-01T10:00:00+00:00");
    assert_eq!(level(&p), "high", "edited in the latest session");
    // Three newer sessions push it out of the last three.
    for (k, s) in ["s2", "s3", "s4"].iter().enumerate() {
        edit(
            s,
            ".claude/CLAUDE.md",
            &format!("2026-01-0{}T10:00:00+00:00", k + 2),
        );
    }
    assert_eq!(level(&p), "low", "no longer among the last 3 sessions");
}

#[test]
fn export_to_stdout_with_scope() {
    let p = map_tree();
    let text = stdout_of(
        p.src()
            .args(["export-map", "--out", "-", "--scope", ".claude/agents/"]),
    );
    let paths: Vec<String> = sections(&text).into_iter().map(|s| s.0).collect();
    assert_eq!(paths, vec![".claude/agents/implementer.md"]);
    assert!(text.contains("<!-- Scope: .claude/agents/ -->"), "{text}");
}

/// The node ids and `(src, dst)` edges of a Mermaid flowchart, checking its structure.
fn parse_mermaid(text: &str) -> (BTreeSet<String>, BTreeSet<(String, String)>) {
    let mut lines = text.lines().filter(|l| !l.trim_start().starts_with("%%"));
    assert_eq!(lines.next(), Some("flowchart LR"), "{text}");
    let (mut nodes, mut edges) = (BTreeSet::new(), BTreeSet::new());
    for line in lines {
        let l = line.trim();
        if let Some((id, rest)) = l.split_once("[\"") {
            assert!(
                rest.ends_with("\"]") && !rest[..rest.len() - 2].contains('"'),
                "{l}"
            );
            nodes.insert(id.to_string());
        } else if let Some((a, rest)) = l.split_once(" -->|\"") {
            let (label, b) = rest
                .split_once("\"| ")
                .unwrap_or_else(|| panic!("edge: {l}"));
            assert!(!label.contains('"') && !label.is_empty(), "{l}");
            edges.insert((a.to_string(), b.to_string()));
        } else {
            assert!(l.starts_with("classDef ") || l.starts_with("class "), "{l}");
        }
    }
    for (a, b) in &edges {
        assert!(
            nodes.contains(a) && nodes.contains(b),
            "undeclared node in {a} -> {b}"
        );
    }
    (nodes, edges)
}

/// The same for DOT: a `digraph`, statements ending in `;`, balanced quotes.
fn parse_dot(text: &str) -> (BTreeSet<String>, BTreeSet<(String, String)>) {
    let body: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .collect();
    assert_eq!(body.first(), Some(&"digraph src {"), "{text}");
    assert_eq!(body.last(), Some(&"}"), "{text}");
    let (mut nodes, mut edges) = (BTreeSet::new(), BTreeSet::new());
    for l in &body[1..body.len() - 1] {
        assert!(l.ends_with(';'), "{l}");
        let unescaped = l.replace("\\\\", "").replace("\\\"", "");
        assert_eq!(unescaped.matches('"').count() % 2, 0, "{l}");
        let head = l.split(" [").next().unwrap_or_default();
        if let Some((a, b)) = head.split_once(" -> ") {
            edges.insert((a.to_string(), b.to_string()));
        } else if head.starts_with("n_") {
            nodes.insert(head.to_string());
        }
    }
    for (a, b) in &edges {
        assert!(
            nodes.contains(a) && nodes.contains(b),
            "undeclared node in {a} -> {b}"
        );
    }
    (nodes, edges)
}

fn e(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

#[test]
fn graph_as_mermaid_and_dot() {
    let p = map_tree();
    let implementer = "n__claude_agents_implementer_md";
    let claude = "n__claude_CLAUDE_md";
    let skill = "n__claude_skills_execution_code_SKILL_md";
    let hook = "n__claude_hooks_on_file_change_sh";
    let mermaid = stdout_of(p.src().args(["graph", ".claude/agents/implementer.md"]));
    let (nodes, edges) = parse_mermaid(&mermaid);
    for n in [implementer, claude, skill, hook] {
        assert!(nodes.contains(n), "{n} missing from\n{mermaid}");
    }
    for edge in [
        e(claude, implementer),
        e(skill, implementer),
        e(implementer, hook),
    ] {
        assert!(edges.contains(&edge), "{edge:?} missing from\n{mermaid}");
    }
    assert!(
        mermaid.contains(&format!("class {implementer} focus")),
        "{mermaid}"
    );
    let dot =
        stdout_of(
            p.src()
                .args(["graph", ".claude/agents/implementer.md", "--format", "dot"]),
        );
    let (dot_nodes, dot_edges) = parse_dot(&dot);
    assert_eq!((&dot_nodes, &dot_edges), (&nodes, &edges));
    if let Some(svg) = render_svg(&dot) {
        assert!(svg.contains("<svg"), "dot -Tsvg produced no svg");
    }
    // The node limit says what it left out.
    let small =
        stdout_of(
            p.src()
                .args(["graph", ".claude/agents/implementer.md", "--max-nodes", "2"]),
        );
    let (nodes, _) = parse_mermaid(&small);
    assert_eq!(nodes.len(), 2);
    assert!(small.contains("%% left out 2 nodes"), "{small}");
    // Without FILE: the hotspots (here: the most referenced file) and their neighbours.
    let all = stdout_of(p.src().args(["graph", "--format", "dot"]));
    let (nodes, _) = parse_dot(&all);
    assert!(nodes.contains(implementer), "{all}");
    p.src().args(["graph", "no-such-file.md"]).assert().code(2);
}

/// `dot -Tsvg` of `text` when Graphviz is installed.
fn render_svg(text: &str) -> Option<String> {
    use std::io::Write as _;
    let mut child = std::process::Command::new("dot")
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(text.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    assert!(out.status.success(), "dot rejected:\n{text}");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn set_mtime(path: &Path, t: SystemTime) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .and_then(|f| f.set_modified(t))
        .unwrap_or_else(|e| panic!("set mtime {}: {e}", path.display()));
}

fn mtime(path: &Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or_else(|e| panic!("stat {}: {e}", path.display()))
}

#[test]
fn a_map_inside_the_scope_never_lists_itself() {
    let p = map_tree();
    p.write(
        ".src/config.yaml",
        "map:\n  path: .claude/codebase-map.md\n",
    );
    p.src().arg("export-map").assert().success();
    // The second run indexes the map written by the first; it must still leave itself out.
    p.src().arg("export-map").assert().success();
    let text = std::fs::read_to_string(p.path(".claude/codebase-map.md"))
        .unwrap_or_else(|e| panic!("read: {e}"));
    assert!(!sections(&text).is_empty());
    assert!(!text.contains("## .claude/codebase-map.md"), "{text}");
    assert!(
        !text.contains("codebase-map.md,"),
        "nor names itself in a list: {text}"
    );
    let (code, v) = check_json(&p, &[]);
    assert_eq!(code, 0, "{v}");
}

#[test]
fn an_old_entry_is_not_stale_while_its_file_is_unchanged() {
    let p = map_tree();
    p.src()
        .args(["export-map", "--max-lines", "0"])
        .assert()
        .success();
    let map = std::fs::read_to_string(p.path(MAP)).unwrap_or_default();
    let long_ago = (chrono::Local::now() - chrono::Duration::days(30)).format("%Y-%m-%d");
    let old: String = map
        .lines()
        .map(|l| {
            if l.starts_with("updated: ") {
                format!("updated: {long_ago}\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    p.write(MAP, &old);
    // Every file of the tree last changed before that date.
    let st = std::process::Command::new("sh")
        .arg("-c")
        .arg("find . -path ./.src -prune -o -type f -exec touch -d '40 days ago' {} +")
        .current_dir(p.root())
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(st.success());
    let (_, v) = check_json(&p, &["--max-lines", "0"]);
    assert_eq!(v["staleness"]["stale_count"], 0, "{v}");
    assert_eq!(v["staleness"]["recommendation"], "none", "{v}");
}
