//! Integration tests for token budgets (`--max-tokens`) and the one output flag (`--format`):
//! each budgeted output fits, is cut at whole rows and says what it left out; each format a
//! command gained is parsed back (serde_json, csv, serde_yaml).

use serde_json::Value;

use crate::util::{fixtures, src, stdout_of, Project};

const HUB: &str = ".claude/agents/implementer.md";

/// The bundled sample, indexed.
fn sample() -> Project {
    let p = Project::from_fixture("claude-tree");
    p.src().arg("index").assert().success();
    p
}

/// Stdout and stderr of a successful run.
fn run(cmd: &mut assert_cmd::Command) -> (String, String) {
    let out = cmd.assert().success().get_output().clone();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("json: {e}: {text}"))
}

/// `cut: N of M <unit> left out …` → (N, M), from the first line that holds it.
fn cut_counts(text: &str, unit: &str) -> (usize, usize) {
    let line = text
        .lines()
        .find_map(|l| l.split_once("cut: ").map(|(_, rest)| rest))
        .unwrap_or_else(|| panic!("no marker in {text}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.get(1), Some(&"of"), "{line}");
    assert_eq!(words.get(3), Some(&unit), "{line}");
    let n = |w: Option<&&str>| -> usize {
        w.and_then(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("{line}"))
    };
    (n(words.first()), n(words.get(2)))
}

fn csv_rows(text: &str) -> Vec<csv::StringRecord> {
    csv::Reader::from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap_or_else(|e| panic!("csv: {e}: {text}")))
        .collect()
}

#[test]
fn query_cuts_whole_rows_in_every_format_and_counts_the_rest() {
    let p = sample();
    let all = stdout_of(p.src().args(["query", "edges", "--format", "tsv"]));
    let total = all.lines().count() - 1;
    assert!(total > 100, "{total}");
    // TSV stays one table (every row whole); the marker goes to stderr.
    let (tsv, err) = run(p
        .src()
        .args(["query", "edges", "-f", "tsv", "--max-tokens", "300"]));
    assert!(tsv.len() <= 1200, "{} bytes", tsv.len());
    let kept = tsv.lines().count() - 1;
    assert!(kept > 0 && kept < total, "{kept} of {total}");
    for line in tsv.lines() {
        assert_eq!(line.split('\t').count(), 6, "{line}");
        assert!(all.contains(line), "a cut row: {line}");
    }
    assert_eq!(cut_counts(&err, "rows"), (total - kept, total));
    assert!(err.contains("without --max-tokens"), "{err}");
    // CSV parses, with as many rows as the budget kept.
    let (csv_out, err) = run(p
        .src()
        .args(["query", "edges", "-f", "csv", "--max-tokens", "300"]));
    let rows = csv_rows(&csv_out);
    assert!(csv_out.len() <= 1200);
    assert_eq!(cut_counts(&err, "rows"), (total - rows.len(), total));
    // JSON stays an array.
    let (js, err) = run(p
        .src()
        .args(["query", "edges", "-f", "json", "--max-tokens", "300"]));
    let arr = json(&js);
    let n = arr.as_array().map_or(0, Vec::len);
    assert!(js.len() <= 1200 && n > 0);
    assert_eq!(cut_counts(&err, "rows"), (total - n, total));
    // The table carries its marker as its last line, within the budget.
    let (table, _) = run(p
        .src()
        .args(["query", "edges", "-f", "table", "--max-tokens", "300"]));
    assert!(table.len() <= 1200, "{} bytes", table.len());
    let last = table.lines().last().unwrap_or_default();
    assert!(last.starts_with("cut: "), "{table}");
    // Ad-hoc SQL takes the same budget; a budget that holds everything prints everything.
    let (sql, err) = run(p.src().args([
        "query",
        "--sql",
        "SELECT path FROM files ORDER BY path",
        "-f",
        "tsv",
        "--max-tokens",
        "20",
    ]));
    assert!(sql.len() <= 80 && err.contains("cut: "), "{sql}{err}");
    let (whole, err) =
        run(p
            .src()
            .args(["query", "edges", "-f", "tsv", "--max-tokens", "1000000"]));
    assert_eq!(whole, all);
    assert!(err.is_empty(), "{err}");
}

#[test]
fn dependents_text_json_and_tables_fit_the_budget() {
    let p = sample();
    let full = json(&stdout_of(p.src().args([
        "dependents",
        HUB,
        "--format",
        "json",
    ])));
    let total = full["direct"].as_array().map_or(0, Vec::len);
    assert!(total > 10, "{full}");
    let (text, _) = run(p.src().args(["dependents", HUB, "--max-tokens", "250"]));
    assert!(text.len() <= 1000, "{} bytes:\n{text}", text.len());
    let rows = text.lines().filter(|l| l.starts_with("  ")).count();
    assert!(rows > 0 && rows < total, "{text}");
    assert!(text.lines().last().unwrap_or_default().starts_with("cut: "));
    assert_eq!(cut_counts(&text, "rows"), (total - rows, total));
    // JSON: the shown rows, and a `cut` object saying what is missing.
    let (js, _) = run(p
        .src()
        .args(["dependents", HUB, "--json", "--max-tokens", "250"]));
    assert!(js.len() <= 1000, "{} bytes", js.len());
    let v = json(&js);
    let shown = v["direct"].as_array().map_or(0, Vec::len);
    assert_eq!(v["cut"]["kept"], shown);
    assert_eq!(v["cut"]["total"], total);
    assert_eq!(v["cut"]["left_out"], total - shown);
    assert_eq!(v["direct"][0], full["direct"][0]);
    // CSV and TSV: one row per mention, the same rows as JSON.
    let csv_out = stdout_of(p.src().args(["dependents", HUB, "--format", "csv"]));
    let rows = csv_rows(&csv_out);
    assert_eq!(rows.len(), total);
    assert_eq!(
        &rows[0][1],
        full["direct"][0]["src"].as_str().unwrap_or("?")
    );
    assert_eq!(
        &rows[0][7],
        full["direct"][0]["text"].as_str().unwrap_or("?")
    );
    let tsv = stdout_of(
        p.src()
            .args(["dependents", HUB, "--format", "tsv", "--depth", "2"]),
    );
    let mut lines = tsv.lines();
    assert_eq!(
        lines.next(),
        Some("depth\tsrc\tline\tname\tkind\tresolution\tvia\ttext")
    );
    let depth2 = lines.filter(|l| l.starts_with("2\t")).count();
    assert!(depth2 > 0, "{tsv}");
}

#[test]
fn impact_md_is_cut_at_table_rows_and_points_to_the_stored_run() {
    let p = sample();
    let (md, _) = run(p
        .src()
        .args(["impact", HUB, "--format", "md", "--max-tokens", "500"]));
    assert!(md.len() <= 2000, "{} bytes", md.len());
    assert!(md.starts_with("# Execution Impact Analysis Report"), "{md}");
    let marker = md.lines().last().unwrap_or_default();
    assert!(marker.starts_with("- cut: "), "{md}");
    assert!(marker.contains("--format md` prints them all"), "{marker}");
    // The stored run is whole: `impact show` without a budget prints every row.
    let id: String = marker
        .split("src impact show ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_default()
        .to_string();
    let whole = stdout_of(p.src().args(["impact", "show", &id, "--format", "md"]));
    let (left, total) = cut_counts(&md, "rows");
    let rows = |t: &str| t.lines().filter(|l| l.starts_with("| /")).count();
    assert_eq!(rows(&whole), total);
    assert_eq!(rows(&md), total - left);
    let (again, _) = run(p.src().args([
        "impact",
        "show",
        &id,
        "--format",
        "md",
        "--max-tokens",
        "500",
    ]));
    assert_eq!(again, md);
    // The L1 document is a contract and is never cut.
    p.src()
        .args(["impact", HUB, "--max-tokens", "500"])
        .assert()
        .code(2);
}

#[test]
fn graph_leaves_out_nodes_in_every_format() {
    let p = sample();
    let full = json(&stdout_of(p.src().args(["graph", HUB, "--format", "json"])));
    let total = full["nodes"].as_array().map_or(0, Vec::len);
    assert!(total > 5, "{full}");
    let (m, _) = run(p.src().args(["graph", HUB, "--max-tokens", "300"]));
    assert!(m.len() <= 1200, "{} bytes:\n{m}", m.len());
    assert!(m.starts_with("%% src graph"), "{m}");
    assert!(m.contains("    %% cut: "), "{m}");
    let (left, of) = cut_counts(&m, "nodes");
    assert_eq!(of, total);
    let drawn = m.lines().filter(|l| l.contains("[\"")).count();
    assert_eq!(drawn, total - left, "{m}");
    let (dot, _) = run(p
        .src()
        .args(["graph", HUB, "--format", "dot", "--max-tokens", "300"]));
    assert!(dot.len() <= 1200 && dot.trim_end().ends_with('}'), "{dot}");
    assert!(dot.contains("    // cut: "), "{dot}");
    let (js, _) = run(p
        .src()
        .args(["graph", HUB, "--format", "json", "--max-tokens", "300"]));
    let v = json(&js);
    let nodes = v["nodes"].as_array().map_or(0, Vec::len);
    assert_eq!(v["cut"]["kept"], nodes);
    assert_eq!(v["cut"]["total"], total);
    assert!(js.len() <= 1200, "{js}");
    // Every edge of the JSON joins two drawn nodes.
    let paths: Vec<&str> = v["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| n["path"].as_str())
        .collect();
    for e in v["edges"].as_array().into_iter().flatten() {
        for end in ["src", "dst"] {
            assert!(paths.contains(&e[end].as_str().unwrap_or("?")), "{e}");
        }
    }
    // The edge list as a table.
    let csv_out = stdout_of(p.src().args(["graph", HUB, "--format", "csv"]));
    let rows = csv_rows(&csv_out);
    assert_eq!(rows.len(), full["edges"].as_array().map_or(0, Vec::len));
    let tsv = stdout_of(p.src().args(["graph", HUB, "--format", "tsv"]));
    assert_eq!(tsv.lines().next(), Some("src\tdst\tnames"));
    assert_eq!(tsv.lines().count(), rows.len() + 1);
}

#[test]
fn the_map_keeps_short_lines_fits_a_budget_and_passes_its_own_check() {
    let p = sample();
    let full = stdout_of(
        p.src()
            .args(["export-map", "--out", "-", "--max-lines", "0"]),
    );
    let uncapped = stdout_of(p.src().args([
        "export-map",
        "--out",
        "-",
        "--max-lines",
        "0",
        "--max-refs",
        "0",
    ]));
    let longest = |t: &str| t.lines().map(str::len).max().unwrap_or(0);
    assert!(full.contains(" more\n"), "no capped list");
    assert!(
        longest(&full) < longest(&uncapped) / 2,
        "{}",
        longest(&full)
    );
    // Capped lists: at most 8 names, then the count of the rest.
    for l in full.lines().filter(|l| l.starts_with("ref")) {
        let items = l.split(", ").count();
        assert!(items <= 9, "{l}");
    }
    // The capped map (all entries, and the default one) passes its own check.
    p.src()
        .args(["export-map", "--out", "all.md", "--max-lines", "0"])
        .assert()
        .success();
    let v = json(&stdout_of(p.src().args([
        "export-map",
        "--check",
        "all.md",
        "--max-lines",
        "0",
        "--json",
    ])));
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["errors"], serde_json::json!([]), "{v}");
    p.src().arg("export-map").assert().success();
    p.src().args(["export-map", "--check"]).assert().success();
    // A budget prunes whole entries by priority and says how to get them.
    let (map, _) = run(p
        .src()
        .args(["export-map", "--out", "-", "--max-tokens", "1000"]));
    assert!(map.len() <= 4000, "{} bytes", map.len());
    assert!(map.contains("without --max-tokens"), "{map}");
    assert!(map.contains("<!-- Pruned: "), "{map}");
    p.src()
        .args(["export-map", "--out", "small.md", "--max-tokens", "1000"])
        .assert()
        .success();
    p.src()
        .args(["export-map", "--check", "small.md"])
        .assert()
        .success();
}

#[test]
fn the_check_still_finds_one_sided_refs_in_capped_lists() {
    let p = sample();
    p.src()
        .args(["export-map", "--out", "all.md", "--max-lines", "0"])
        .assert()
        .success();
    let text = std::fs::read_to_string(p.path("all.md")).unwrap_or_default();
    // Shrink one `+N more` count: the entries it hid now name a file that does not list them.
    let line = text
        .lines()
        .find(|l| l.starts_with("refd_by: ") && l.ends_with(" more") && !l.ends_with("+1 more"))
        .unwrap_or_else(|| panic!("no capped refd_by line in\n{text}"))
        .to_string();
    let (head, _) = line.rsplit_once(", +").unwrap_or_default();
    p.write(
        "all.md",
        &text.replacen(&line, &format!("{head}, +1 more"), 1),
    );
    let out = p
        .src()
        .args([
            "export-map",
            "--check",
            "all.md",
            "--max-lines",
            "0",
            "--json",
        ])
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    assert_eq!(out.status.code(), Some(1));
    let v = json(&String::from_utf8_lossy(&out.stdout));
    let codes: Vec<&str> = v["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["code"].as_str())
        .collect();
    assert!(codes.contains(&"E_ONE_SIDED_REF"), "{v}");
}

/// A PostToolUse payload of the implementer editing `rel`.
fn edit_payload(p: &Project, rel: &str, n: usize) -> String {
    let path = fixtures().join("payloads").join("ptu-edit-subagent.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    text.replace(
        "$ROOT/.claude/agents/implementer.md",
        &format!("$ROOT/{rel}"),
    )
    .replace("$ROOT", &p.root().display().to_string())
    .replace("$SESSION", "budget-session")
    .replace(
        "toolu_01HkQ8v3ZpXo2mN7rT5yWc9E",
        &format!("toolu_budget_{n}"),
    )
}

fn hook(p: &Project, which: &str, stdin: String) -> String {
    crate::util::run_hook(p, which, stdin)
}

#[test]
fn the_alert_for_many_hubs_stays_within_500_characters() {
    let p = sample();
    let hubs = [
        HUB,
        ".claude/skills/execution-code/SKILL.md",
        ".claude/skills/execution-impact/SKILL.md",
        ".claude/skills/execution-cascade/SKILL.md",
        ".claude/skills/manage-codebase/SKILL.md",
        ".claude/agents/analyst.md",
    ];
    for (n, rel) in hubs.iter().enumerate() {
        let abs = p.path(rel);
        let mut text = std::fs::read_to_string(&abs).unwrap_or_else(|e| panic!("{rel}: {e}"));
        text.push_str("\nChanged for the budget test.\n");
        p.write(rel, &text);
        assert_eq!(hook(&p, "post-tool-use", edit_payload(&p, rel, n)), "");
    }
    let stop = std::fs::read_to_string(fixtures().join("payloads/ss-implementer.json"))
        .unwrap_or_default()
        .replace("$ROOT", &p.root().display().to_string())
        .replace("$SESSION", "budget-session");
    hook(&p, "subagent-stop", stop);
    let lead = std::fs::read_to_string(fixtures().join("payloads/dl-agent-foreground.json"))
        .unwrap_or_default()
        .replace("$ROOT", &p.root().display().to_string())
        .replace("$SESSION", "budget-session");
    let v = json(hook(&p, "deliver", lead).trim());
    let ctx = v
        .pointer("/hookSpecificOutput/additionalContext")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no alert: {v}"));
    assert!(
        ctx.chars().count() <= 500,
        "{} chars: {ctx}",
        ctx.chars().count()
    );
    assert!(ctx.starts_with("SRC"), "{ctx}");
    assert!(ctx.contains("implementer.md"), "{ctx}");
}

#[test]
fn every_data_command_has_a_format_flag_whose_output_parses() {
    let p = sample();
    // export-map: the summary, the report and the check.
    let v = json(&stdout_of(p.src().args(["export-map", "--format", "json"])));
    assert_eq!(v["written"], true);
    assert!(v["entries"].as_u64().unwrap_or(0) > 0, "{v}");
    let v = json(&stdout_of(p.src().args([
        "export-map",
        "--report",
        "--json",
    ])));
    assert_eq!(v["skill"], "manage-codebase");
    let yaml = stdout_of(p.src().args(["export-map", "--check", "--format", "yaml"]));
    let v: Value = serde_yaml::from_str(&yaml).unwrap_or_else(|e| panic!("{e}: {yaml}"));
    assert_eq!(v["valid"], true, "{yaml}");
    // validate: an L1 document from impact.
    let l1 = stdout_of(p.src().args(["impact", HUB]));
    p.write("l1.yaml", &l1);
    let v = json(&stdout_of(
        p.src()
            .args(["validate", "impact", "l1.yaml", "--format", "json"]),
    ));
    assert_eq!(v["valid"], true, "{v}");
    // cascade: record and abort as JSON.
    let id: Value = serde_yaml::from_str(&l1).unwrap_or_default();
    let id = id["impact_id"].to_string();
    stdout_of(p.src().args(["cascade", "start", "--impact", &id]));
    let v = json(&stdout_of(p.src().args([
        "cascade",
        "record",
        ".claude/agents/planner.md",
        "--status",
        "complete",
        "--format",
        "json",
    ])));
    assert_eq!(v["file"], ".claude/agents/planner.md");
    assert_eq!(v["status"], "complete");
    assert!(v["cascade_id"].is_i64(), "{v}");
    let v = json(&stdout_of(
        p.src().args(["cascade", "abort", "--format", "json"]),
    ));
    assert_eq!(v["status"], "partial", "{v}");
    // gc and hooks install.
    let v = json(&stdout_of(p.src().args(["gc", "--format", "json"])));
    assert!(v["events"].is_u64() && v["days"].is_u64(), "{v}");
    let v = json(&stdout_of(p.src().args([
        "hooks",
        "install",
        "--dry-run",
        "--json",
    ])));
    assert_eq!(v["dry_run"], true);
    assert_eq!(v["written"], false);
    let actions = v["actions"].as_array().cloned().unwrap_or_default();
    assert!(actions.iter().any(|a| a["action"] == "add"), "{v}");
    assert!(json(v["after"].as_str().unwrap_or("null")).is_object());
    // query: `text` is the table.
    let t = stdout_of(p.src().args(["query", "orphans", "--format", "text"]));
    assert!(
        t.lines().nth(1).unwrap_or_default().starts_with("---"),
        "{t}"
    );
}

#[test]
fn tour_as_json_lists_every_step_with_its_output() {
    let v = json(&stdout_of(src().args(["tour", "--format", "json"])));
    let steps = v["steps"].as_array().cloned().unwrap_or_default();
    let runs: Vec<&Value> = steps.iter().filter(|s| s["type"] == "run").collect();
    assert!(runs.len() > 10, "{v}");
    assert!(runs.iter().all(|r| r["exit"] == 0), "{v}");
    assert!(runs.iter().any(|r| r["command"] == "src index"));
    assert!(steps.iter().any(|s| s["type"] == "heading"));
}
