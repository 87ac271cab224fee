//! Kinds of reference on `fixtures/refs/` (issue 13): each rule has its line there, and
//! `fixtures/refs.expected.tsv` is the exact set of edges with their kinds, plus the mentions
//! that must stay weak. Also: the evidence window, and `~/` when the root is the home directory.

use std::collections::BTreeSet;

use crate::util::{fixtures, stdout_of as stdout, Project};

fn rows(tsv: &str, cols: &[&str]) -> Vec<Vec<String>> {
    let mut lines = tsv.lines();
    let hdr: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let idx: Vec<usize> = cols
        .iter()
        .map(|c| {
            hdr.iter()
                .position(|h| h == c)
                .unwrap_or_else(|| panic!("no column {c} in {hdr:?}"))
        })
        .collect();
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            idx.iter().map(|i| f[*i].to_string()).collect()
        })
        .collect()
}

/// `src query edges` of `p` as `[src, dst, line]` rows.
fn edge_rows(p: &Project) -> Vec<Vec<String>> {
    rows(
        &stdout(p.src().args(["query", "edges", "--format", "tsv"])),
        &["src", "dst", "line"],
    )
}

/// An edge as `edge_rows` gives it.
fn edge(src: &str, dst: &str, line: &str) -> Vec<String> {
    vec![src.to_string(), dst.to_string(), line.to_string()]
}

/// `# PLAIN:` rows of the labels: `[src, line, name]` that are neither edges nor weak mentions.
fn plain() -> BTreeSet<Vec<String>> {
    let text = std::fs::read_to_string(fixtures().join("refs.expected.tsv"))
        .unwrap_or_else(|e| panic!("labels: {e}"));
    text.lines()
        .filter_map(|l| l.strip_prefix("# PLAIN: "))
        .map(|w| w.split_whitespace().take(3).map(String::from).collect())
        .collect()
}

fn expected() -> (BTreeSet<Vec<String>>, BTreeSet<Vec<String>>) {
    let text = std::fs::read_to_string(fixtures().join("refs.expected.tsv"))
        .unwrap_or_else(|e| panic!("labels: {e}"));
    let mut edges = BTreeSet::new();
    let mut weak = BTreeSet::new();
    for l in text.lines() {
        if let Some(w) = l.strip_prefix("# WEAK: ") {
            let f: Vec<String> = w.split_whitespace().take(3).map(String::from).collect();
            weak.insert(f);
        } else if !l.starts_with('#') && !l.trim().is_empty() {
            edges.insert(l.split('\t').map(String::from).collect());
        }
    }
    (edges, weak)
}

fn indexed() -> Project {
    let p = Project::from_fixture("refs");
    p.src().args(["index", "--full"]).assert().success();
    p
}

#[test]
fn every_rule_gives_exactly_the_expected_edges_and_kinds() {
    let p = indexed();
    let got: BTreeSet<Vec<String>> = rows(
        &stdout(p.src().args(["query", "edges", "--format", "tsv"])),
        &["src", "dst", "line", "kind"],
    )
    .into_iter()
    .collect();
    let (want, _) = expected();
    let extra: Vec<_> = got.difference(&want).collect();
    let missed: Vec<_> = want.difference(&got).collect();
    assert!(
        extra.is_empty() && missed.is_empty(),
        "false: {extra:#?}\nmissed: {missed:#?}"
    );
}

#[test]
fn plain_words_and_foreign_paths_stay_weak_mentions() {
    let p = indexed();
    let got: BTreeSet<Vec<String>> = rows(
        &stdout(p.src().args(["query", "weak", "--format", "tsv"])),
        &["file", "line", "name"],
    )
    .into_iter()
    .collect();
    let (_, want) = expected();
    let missing: Vec<_> = want.difference(&got).collect();
    assert!(missing.is_empty(), "not weak: {missing:#?}\nweak: {got:#?}");
    // Plain words no file could take bare are not kept at all (and are no edges: the exact
    // edge set is checked above).
    let plain = plain();
    assert_eq!(plain.len(), 25, "{plain:?}");
    let kept: Vec<_> = plain.intersection(&got).collect();
    assert!(kept.is_empty(), "kept as weak: {kept:#?}");
    // Weak mentions are no ties: `unresolved` does not list them.
    let unresolved = stdout(p.src().args(["query", "unresolved", "--format", "tsv"]));
    assert!(!unresolved.contains("notes.md\t2\treview"), "{unresolved}");
    // A file saying its own name is no tie, though another file bears the name too; nor is a
    // slash before a rule's name (`/coding-style` invokes a command or skill, and none is so
    // named).
    assert!(
        !unresolved.contains("python/coding-style.md\t2") && !unresolved.contains("notes.md\t44"),
        "{unresolved}"
    );
    // A tie is surfaced: a name two kinds of thing bear, said of neither.
    assert!(
        unresolved.contains("notes.md\t49\trelease-notes\tambiguous"),
        "{unresolved}"
    );
}

#[test]
fn evidence_of_a_long_line_is_a_window_holding_the_match() {
    let p = indexed();
    let edges = rows(
        &stdout(p.src().args(["query", "edges", "--format", "tsv"])),
        &["line", "evidence", "pattern", "src"],
    );
    let long = edges
        .iter()
        .find(|r| r[0] == "16" && r[3] == ".claude/docs/notes.md")
        .unwrap_or_else(|| panic!("no edge on notes.md line 16: {edges:?}"));
    assert!(long[1].contains(&long[2]), "{long:?}");
    assert!(
        long[1].starts_with('…') && long[1].chars().count() <= 202,
        "{long:?}"
    );
    // Every shown evidence line holds its matched text: the name as written, capitalised
    // where it starts a sentence heading a list of names ("Brainstorming and code-audit") or in
    // title case where it is a compound role noun ("The Meta-Agent"), or
    // for a README the folder a link leads to (`./guide/` or `../kit` for `guide/README.md`), for
    // a page a documentation site links without `.md` its path so written (`[notes](notes#top)`),
    // and for a file every folder may hold, written without its folder (`[SKILL.md](SKILL.md)`),
    // its file name.
    for r in &edges {
        let capitalised = r[2]
            .get(..1)
            .map(|f| f.to_uppercase() + &r[2][1..])
            .unwrap_or_default();
        let title_case = r[2]
            .split('-')
            .map(|w| {
                w.get(..1)
                    .map(|f| f.to_uppercase() + &w[1..])
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join("-");
        let folder = r[2].strip_suffix("README.md").unwrap_or(&r[2]);
        // Written as a link's target: the folder without its slash, the page without `.md`.
        let link_target = r[2]
            .strip_suffix("/README.md")
            .or_else(|| r[2].strip_suffix(".md"))
            .filter(|_| r[1].contains("]("))
            .unwrap_or(&r[2]);
        // A conventional file's name shows only its file name (`SKILL.md`, `config.json`).
        let generic = ["SKILL.md", "README.md", "CLAUDE.md", "config.json"]
            .into_iter()
            .find(|g| r[2].ends_with(&format!("/{g}")))
            .unwrap_or(&r[2]);
        assert!(
            r[1].contains(&r[2])
                || r[1].contains(&capitalised)
                || r[1].contains(&title_case)
                || r[1].contains(folder)
                || r[1].contains(link_target)
                || r[1].contains(generic),
            "{r:?}"
        );
    }
}

#[test]
fn a_home_rooted_path_names_the_file_when_the_root_is_home() {
    let p = Project::empty();
    p.write("CLAUDE.md", "The user's memory.\n");
    p.write(".claude/agents/planner-bot.md", "Plans.\n");
    p.write(
        ".claude/docs/a.md",
        "Copy ~/.claude/agents/planner-bot.md as a start.\nRead ~/CLAUDE.md first.\n",
    );
    let run = |home: &std::path::Path| {
        p.src()
            .env("HOME", home)
            .args(["index", "--full"])
            .assert()
            .success();
        rows(
            &stdout(p.src().args(["query", "edges", "--format", "tsv"])),
            &["src", "dst", "line", "kind"],
        )
    };
    let row = |dst: &str, line: &str| -> Vec<String> {
        vec![
            ".claude/docs/a.md".into(),
            dst.into(),
            line.into(),
            "path".into(),
        ]
    };
    // Elsewhere, a path outside the tree names a file by its whole root-relative path only, and
    // a root file's name alone is too little (`~/CLAUDE.md` is the user's own).
    let elsewhere = run(std::path::Path::new("/nonexistent-home"));
    assert!(
        elsewhere.contains(&row(".claude/agents/planner-bot.md", "1")),
        "{elsewhere:?}"
    );
    assert!(!elsewhere.contains(&row("CLAUDE.md", "2")), "{elsewhere:?}");
    // When the root is the home directory, `~/` is the root.
    let home = run(p.root());
    assert!(
        home.contains(&row(".claude/agents/planner-bot.md", "1")),
        "{home:?}"
    );
    assert!(home.contains(&row("CLAUDE.md", "2")), "{home:?}");
}

#[test]
fn ties_are_counted_and_make_the_answer_incomplete() {
    let p = Project::empty();
    p.write(".claude/a/shared-note.md", "A.\n");
    // A file bearing the name mentions it too: its own, not an unattributed mention.
    p.write(".claude/b/shared-note.md", "B, as shared-note.md says.\n");
    p.write(".claude/c/reader.md", "Read shared-note.md first.\n");
    p.write(".claude/a/user.md", "Also shared-note.md here.\n");
    p.src().args(["index", "--full"]).assert().success();
    let json = stdout(
        p.src()
            .args(["dependents", ".claude/a/shared-note.md", "--json"]),
    );
    let v: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("json: {e}: {json}"));
    assert_eq!(v["unattributed"], 1, "{json}");
    assert_eq!(v["complete"], false, "{json}");
    assert_eq!(
        v["direct"][0]["src"], ".claude/a/user.md",
        "the nearest one resolves"
    );
    assert_eq!(v["direct"][0]["kind"], "file", "{json}");
    let text = stdout(p.src().args(["dependents", ".claude/a/shared-note.md"]));
    assert!(
        text.contains("1 mention(s) of .claude/a/shared-note.md's names could not be attributed"),
        "{text}"
    );
    assert!(text.contains("[file `shared-note.md`]"), "{text}");
    assert!(text.contains("answer: incomplete"), "{text}");
    let impact = stdout(
        p.src()
            .args(["impact", ".claude/a/shared-note.md", "--format", "json"]),
    );
    assert!(impact.contains("could not be attributed"), "{impact}");
    let report = stdout(p.src().args(["export-map", "--report", "--max-lines", "0"]));
    assert!(report.contains("unattributed_mentions: 1"), "{report}");
}

#[test]
fn file_arguments_are_files_a_unique_suffix_or_a_clear_error() {
    let p = indexed();
    let code = |args: &[&str]| {
        let out = p
            .src()
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (c, err) = code(&["dependents", "nope/missing.md"]);
    assert_eq!(c, Some(2), "{err}");
    assert!(err.contains("no such file"), "{err}");
    let (c, err) = code(&["dependents", ".claude/skills"]);
    assert_eq!(c, Some(2));
    assert!(err.contains("is a directory"), "{err}");
    // A suffix naming one indexed file is accepted, as `graph` and the map print them.
    let text = stdout(p.src().args(["dependents", "code-audit/SKILL.md"]));
    assert!(
        text.starts_with(".claude/skills/code-audit/SKILL.md:"),
        "{text}"
    );
    // An ambiguous suffix lists the candidates.
    let (c, err) = code(&["dependents", "coding-style.md"]);
    assert_eq!(c, Some(2));
    assert!(
        err.contains("ambiguous")
            && err.contains(".claude/rules/common/coding-style.md")
            && err.contains(".claude/rules/python/coding-style.md"),
        "{err}"
    );
    let (c, _) = code(&["query", "dependents", "-p", "file=nope.md"]);
    assert_eq!(c, Some(2));
}

#[test]
fn depth_two_lists_each_line_once_with_its_intermediates() {
    let p = Project::empty();
    p.write(".claude/agents/core-agent.md", "Core.\n");
    p.write(".claude/docs/one-doc.md", "Uses core-agent.\n");
    p.write(".claude/docs/two-doc.md", "Uses core-agent too.\n");
    p.write(
        ".claude/top.md",
        "Read one-doc.md and two-doc.md together.\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let text = stdout(
        p.src()
            .args(["dependents", ".claude/agents/core-agent.md", "--depth", "2"]),
    );
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(".claude/top.md:1:"))
        .collect();
    assert_eq!(rows.len(), 1, "{text}");
    assert!(
        rows[0].contains("(via .claude/docs/one-doc.md, .claude/docs/two-doc.md)"),
        "{text}"
    );
}

#[test]
fn format_json_is_the_same_as_json_everywhere_it_applies() {
    let p = indexed();
    for args in [
        vec!["status"],
        vec!["dependents", "code-audit/SKILL.md"],
        vec!["index"],
    ] {
        let a = stdout(p.src().args(&args).args(["--format", "json"]));
        let v: serde_json::Value =
            serde_json::from_str(&a).unwrap_or_else(|e| panic!("{args:?}: {e}: {a}"));
        assert!(v.is_object(), "{args:?}");
    }
    let a = stdout(p.src().args(["status", "--format", "json"]));
    let b = stdout(p.src().args(["status", "--json"]));
    assert_eq!(a, b);
}

#[test]
fn status_calls_an_excluded_file_out_of_scope_not_missing() {
    let p = indexed();
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\".claude/**\"]\n  exclude: [\".claude/docs/**\"]\n",
    );
    let v: serde_json::Value =
        serde_json::from_str(&stdout(p.src().args(["status", "--json"]))).unwrap_or_default();
    let out: Vec<&str> = v["out_of_scope"]
        .as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default();
    assert!(out.contains(&".claude/docs/notes.md"), "{v}");
    let missing = v["missing"].as_array().map(Vec::len).unwrap_or(99);
    assert_eq!(missing, 0, "{v}");
    assert_eq!(v["recommendation"], "full-regeneration", "{v}");
}

/// The live scan (no index yet) reads a file as the index does: for every file the rules give
/// dependents, the same `(src, line)` rows before and after indexing.
#[test]
fn a_live_scan_finds_what_the_index_finds() {
    let p = Project::from_fixture("refs");
    let (want, _) = expected();
    let targets: BTreeSet<&String> = want.iter().map(|e| &e[1]).collect();
    let ask = |p: &Project, t: &str| -> BTreeSet<Vec<String>> {
        rows(
            &stdout(p.src().args(["dependents", t, "--format", "tsv"])),
            &["src", "line"],
        )
        .into_iter()
        .collect()
    };
    p.src().arg("init").assert().success();
    let live: Vec<_> = targets.iter().map(|t| ask(&p, t)).collect();
    p.src().args(["index", "--full"]).assert().success();
    for (t, before) in targets.iter().zip(live) {
        assert!(!before.is_empty(), "{t}: the live scan found nothing");
        assert_eq!(before, ask(&p, t), "{t}: live scan vs index");
    }
}

#[test]
fn a_name_tied_between_clients_copies_is_the_writers_clients_and_an_alias_import_leads_by_its_folders(
) {
    let p = Project::empty();
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\".claude/**\", \".gemini/**\", \"/*.md\", \"app/**\"]\n  exclude: []\n",
    );
    p.write(".claude/commands/code-review.md", "Review the diff.\n");
    p.write(".gemini/commands/code-review.md", "Review the diff.\n");
    p.write("CLAUDE.md", "After a change run `/code-review`.\n");
    p.write("GEMINI.md", "After a change run `/code-review`.\n");
    p.write("AGENTS.md", "After a change run `/code-review`.\n");
    // A bundler's alias (`@/` is `app/src/` here): the folders after it lead to the file.
    p.write(
        "app/src/components/ui/side-bar.tsx",
        "export const SideBar = 1\n",
    );
    p.write(
        "app/src/features/page.tsx",
        "import { SideBar } from \"@/components/ui/side-bar\"\nimport x from \"@/components/ui/nothing-here\"\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let edges = rows(
        &stdout(p.src().args(["query", "edges", "--format", "tsv"])),
        &["src", "dst", "line", "kind"],
    );
    let row = |s: &str, d: &str, l: &str, k: &str| -> Vec<String> {
        vec![s.into(), d.into(), l.into(), k.into()]
    };
    assert!(
        edges.contains(&row(
            "CLAUDE.md",
            ".claude/commands/code-review.md",
            "1",
            "name"
        )),
        "{edges:?}"
    );
    assert!(
        edges.contains(&row(
            "GEMINI.md",
            ".gemini/commands/code-review.md",
            "1",
            "name"
        )),
        "{edges:?}"
    );
    // AGENTS.md speaks to many clients: still a tie, counted as such.
    assert!(!edges.iter().any(|e| e[0] == "AGENTS.md"), "{edges:?}");
    let unresolved = stdout(p.src().args(["query", "unresolved", "--format", "tsv"]));
    assert!(
        unresolved.contains("AGENTS.md\t1\tcode-review"),
        "{unresolved}"
    );
    assert!(
        edges.contains(&row(
            "app/src/features/page.tsx",
            "app/src/components/ui/side-bar.tsx",
            "1",
            "import"
        )),
        "{edges:?}"
    );
    assert_eq!(
        edges
            .iter()
            .filter(|e| e[0] == "app/src/features/page.tsx")
            .count(),
        1,
        "{edges:?}"
    );
}

/// Plugins are boundaries for a broken relative link too: `../patterns/index.md` that leads
/// nowhere in plugin `a` is not plugin `b`'s file of that tail; a link to a sister plugin's
/// folder (its README) still reaches it.
#[test]
fn a_broken_relative_link_does_not_reach_into_another_plugin() {
    let p = Project::empty();
    p.write(".src/config.yaml", "scope:\n  include: [\"plugins/**\"]\n");
    p.write(
        "plugins/a/.claude-plugin/plugin.json",
        "{\"name\": \"a\"}\n",
    );
    p.write(
        "plugins/b/.claude-plugin/plugin.json",
        "{\"name\": \"b\"}\n",
    );
    p.write(
        "plugins/b/skills/b/library/x/patterns/index.md",
        "# b's patterns\n",
    );
    p.write("plugins/b/README.md", "# b\n");
    p.write(
        "plugins/a/skills/a/library/index.md",
        "- [Patterns](../patterns/index.md): patterns\n- [b](../../../../b/) sister plugin\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let edges = rows(
        &stdout(p.src().args(["query", "edges", "--format", "tsv"])),
        &["src", "dst", "line"],
    );
    let from_a: Vec<_> = edges
        .iter()
        .filter(|e| e[0] == "plugins/a/skills/a/library/index.md")
        .map(|e| (e[1].as_str(), e[2].as_str()))
        .collect();
    assert_eq!(from_a, [("plugins/b/README.md", "2")], "{edges:?}");
}

#[test]
fn in_a_users_client_folder_the_projects_claude_md_is_another_projects() {
    // A repository of the user's `~/.claude`: settings and skills at its root, no `.claude/`.
    let p = Project::empty();
    p.write("CLAUDE.md", "The user's rules, read in every project.\n");
    p.write("settings.json", "{}\n");
    p.write("skills/audit/SKILL.md", "---\nname: audit\n---\nAudit.\n");
    p.write(
        "docs/audit.md",
        "Read the project's `CLAUDE.md` and check it.\nThen see ~/.claude/CLAUDE.md for the user's.\n",
    );
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"docs/**\", \"skills/**\", \"CLAUDE.md\", \"settings.json\"]\n",
    );
    let edges = |p: &Project| {
        rows(
            &stdout(p.src().args(["query", "edges", "--format", "tsv"])),
            &["src", "dst", "line"],
        )
    };
    let row = |line: &str| vec!["docs/audit.md".into(), "CLAUDE.md".into(), line.into()];
    p.src().args(["index", "--full"]).assert().success();
    let client = edges(&p);
    assert!(!client.contains(&row("1")), "{client:?}");
    // Its `~/.claude/CLAUDE.md` is this root's file, installed.
    assert!(client.contains(&row("2")), "{client:?}");
    // Without the client's settings the root is a project: the project's CLAUDE.md is its
    // own (in its documents; a skill it ships works on any project), and an incremental run reads every file anew, as a full rebuild would.
    std::fs::remove_file(p.path("settings.json")).unwrap_or_else(|e| panic!("rm: {e}"));
    let out = stdout(p.src().args(["index"]));
    assert!(out.contains("full"), "{out}");
    let project = edges(&p);
    assert!(project.contains(&row("1")), "{project:?}");
    assert!(!project.contains(&row("2")), "{project:?}");
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(project, edges(&p));
}

#[test]
fn an_invocation_names_the_skill_and_the_command_that_forwards_to_it() {
    let p = Project::empty();
    p.write(
        "skills/arch-view/SKILL.md",
        "---\nname: arch-view\n---\nUser invokes `/arch-view`.\n",
    );
    p.write("commands/arch-view.md", "Invoke the arch-view skill.\n");
    p.write(
        "skills/arch-view/evals/evals.json",
        "{\"prompt\": \"/arch-view --repos tests/fixtures/arch-view/ts-only\"}\n",
    );
    p.write(
        "docs/guide.md",
        "Run `/arch-view` first.\nThe arch-view skill draws the map.\n",
    );
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"skills/**\", \"commands/**\", \"docs/**\"]\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let edges = rows(
        &stdout(p.src().args(["query", "edges", "--format", "tsv"])),
        &["src", "dst", "line"],
    );
    let has = |src: &str, dst: &str, line: &str| {
        edges.contains(&vec![src.to_string(), dst.to_string(), line.to_string()])
    };
    // The invocation runs the skill (which takes precedence) and is typed as the command.
    assert!(
        has("docs/guide.md", "skills/arch-view/SKILL.md", "1"),
        "{edges:?}"
    );
    assert!(
        has("docs/guide.md", "commands/arch-view.md", "1"),
        "{edges:?}"
    );
    // The bare name is the skill's alone.
    assert!(
        has("docs/guide.md", "skills/arch-view/SKILL.md", "2"),
        "{edges:?}"
    );
    assert!(
        !has("docs/guide.md", "commands/arch-view.md", "2"),
        "{edges:?}"
    );
    // An invocation before a path through a fixture folder of its name speaks for the line.
    let evals = "skills/arch-view/evals/evals.json";
    assert!(has(evals, "commands/arch-view.md", "1"), "{edges:?}");
}

#[test]
fn a_string_of_code_naming_a_distinctive_script_of_another_language_is_that_script() {
    let p = Project::empty();
    p.write("scripts/smart/smart-ls.sh", "#!/bin/sh\neza \"$@\"\n");
    p.write("rules/architecture.md", "# Architecture\n");
    p.write(
        "hooks/config.py",
        "TOOLS = {\n    r\"^ls\": (\"smart-ls.sh\", \"uses eza\"),\n}\nRULES = [\"architecture.md\"]\n",
    );
    p.write(
        "hooks/tests/test_config.py",
        "def test_x(tmp):\n    (tmp / \"smart-ls.sh\").write_text(\"\")\n",
    );
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"scripts/**\", \"rules/**\", \"hooks/**\"]\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let edges = rows(
        &stdout(p.src().args(["query", "edges", "--format", "tsv"])),
        &["src", "dst", "line"],
    );
    let row =
        |src: &str, dst: &str, line: &str| vec![src.to_string(), dst.to_string(), line.to_string()];
    assert!(
        edges.contains(&row("hooks/config.py", "scripts/smart/smart-ls.sh", "2")),
        "{edges:?}"
    );
    // A word's file name far away, and a test's fixture, are namesakes.
    assert!(
        !edges.contains(&row("hooks/config.py", "rules/architecture.md", "4")),
        "{edges:?}"
    );
    assert!(
        !edges.iter().any(|r| r[0] == "hooks/tests/test_config.py"),
        "{edges:?}"
    );
}

#[test]
fn an_agent_named_in_title_case_is_written_in_lower_case_elsewhere() {
    let p = Project::empty();
    p.write(
        "agents/Security-Auditor.md",
        "---\nname: Security-Auditor\ndescription: audits\n---\n# Security-Auditor\n",
    );
    p.write(
        "notes/Aima-Tower.md",
        "# Aima-Tower\nNotes on the tower project.\n",
    );
    p.write(
        "docs/guide.md",
        "Run the security-auditor agent.\nThe compose project is `aima-tower`.\n",
    );
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"agents/**\", \"notes/**\", \"docs/**\"]\n",
    );
    let edges = |p: &Project| {
        rows(
            &stdout(p.src().args(["query", "edges", "--format", "tsv"])),
            &["src", "dst", "line"],
        )
    };
    p.src().args(["index", "--full"]).assert().success();
    let full = edges(&p);
    let row = |dst: &str, line: &str| {
        vec![
            "docs/guide.md".to_string(),
            dst.to_string(),
            line.to_string(),
        ]
    };
    assert!(
        full.contains(&row("agents/Security-Auditor.md", "1")),
        "{full:?}"
    );
    // A document's title-case stem is not named by a lower-case identifier.
    assert!(!full.contains(&row("notes/Aima-Tower.md", "2")), "{full:?}");
    // An edit refreshed alone (the small pass) finds the lower-case form as a full run does.
    p.write(
        "docs/guide.md",
        "First line.\nRun the security-auditor agent.\nThe compose project is `aima-tower`.\n",
    );
    p.src().args(["index"]).assert().success();
    let incremental = edges(&p);
    assert!(
        incremental.contains(&row("agents/Security-Auditor.md", "2")),
        "{incremental:?}"
    );
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edges(&p));
}

#[test]
fn an_invoked_skills_argument_names_the_file_the_skill_keeps_for_it() {
    let p = Project::empty();
    p.write(
        "skills/chronicle/SKILL.md",
        "---\nname: chronicle\ndescription: a log\n---\n## Stale (/chronicle stale)\nRun `bun scripts/stale.ts`.\n",
    );
    p.write(
        "skills/chronicle/scripts/stale.ts",
        "export const days = 14;\n",
    );
    p.write(
        "skills/chronicle/tests/test_skill.py",
        "def test_size():\n    p = SKILL_DIR / \"SKILL.md\"\n",
    );
    p.write(
        "skills/ai-usage/SKILL.md",
        "---\nname: ai-usage\ndescription: usage stats\n---\nRun `ai-usage --schema`.\n",
    );
    p.write(
        "skills/ai-usage/scripts/ai-usage",
        "#!/bin/sh\n#   ai-usage --schema   # the schema\necho done\n",
    );
    p.write(
        "docs/plan.md",
        "- [x] `/chronicle stale` shows old items\nItems go stale after 14 days.\n",
    );
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"skills/**\", \"docs/**\"]\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let full = edge_rows(&p);
    let stale = "skills/chronicle/scripts/stale.ts";
    assert!(full.contains(&edge("docs/plan.md", stale, "1")), "{full:?}");
    assert!(
        full.contains(&edge("skills/chronicle/SKILL.md", stale, "5")),
        "{full:?}"
    );
    // The plain word is no name of the script.
    assert!(
        !full.contains(&edge("docs/plan.md", stale, "2")),
        "{full:?}"
    );
    // A skill's own test reads its SKILL.md.
    assert!(
        full.contains(&edge(
            "skills/chronicle/tests/test_skill.py",
            "skills/chronicle/SKILL.md",
            "2"
        )),
        "{full:?}"
    );
    // The program's usage text is its own, not the skill's that wraps it.
    assert!(
        !full
            .iter()
            .any(|r| r[0] == "skills/ai-usage/scripts/ai-usage"),
        "{full:?}"
    );
    // An edit refreshed alone decides the argument as a full run does.
    p.write(
        "docs/plan.md",
        "Plan.\n- [x] `/chronicle stale` shows old items\nItems go stale after 14 days.\n",
    );
    p.src().args(["index"]).assert().success();
    let incremental = edge_rows(&p);
    assert!(
        incremental.contains(&edge("docs/plan.md", stale, "2")),
        "{incremental:?}"
    );
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edge_rows(&p));
}

#[test]
fn a_fixture_is_named_by_its_path_and_an_agent_folder_by_its_name() {
    let p = Project::empty();
    p.write(
        "tracker/fixtures/repo-alpha/REVIEW_ME.md",
        "# Review me\n- [ ] id:0001 check the cache\n",
    );
    p.write(
        "tracker/fixtures/repo-alpha/expected.txt",
        "REVIEW_ME.md: 1 open box\n",
    );
    p.write(
        "tracker/tests/test_ledger.py",
        "def test_boxes():\n    p = FIX / \"REVIEW_ME.md\"\n",
    );
    p.write(
        "relay/SKILL.md",
        "---\nname: relay\ndescription: runs repos\n---\nEach repo keeps a REVIEW_ME.md of open boxes.\nSee `tracker/fixtures/repo-alpha/REVIEW_ME.md` for a sample.\nSpawn the engineer agent to apply it.\n",
    );
    p.write(
        "agents/engineer/AGENT.md",
        "---\nname: engineer\ndescription: applies changes\n---\nYou apply edits.\n",
    );
    p.write(
        "agents/engineer/claude/frontmatter.yaml",
        "tools: [Edit, Write]\n",
    );
    p.write("agents/yaml/release-agent.yaml", "name: release-agent\n");
    p.write(
        "scripts/convert.js",
        "const names = [\n  'release-agent',\n];\n",
    );
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"tracker/**\", \"relay/**\", \"agents/**\", \"scripts/**\"]\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let full = edge_rows(&p);
    let sample = "tracker/fixtures/repo-alpha/REVIEW_ME.md";
    // Every repository's file, not the sample; the sample by its path, beside it, in its test.
    assert!(
        !full.contains(&edge("relay/SKILL.md", sample, "5")),
        "{full:?}"
    );
    assert!(
        full.contains(&edge("relay/SKILL.md", sample, "6")),
        "{full:?}"
    );
    let expected = "tracker/fixtures/repo-alpha/expected.txt";
    assert!(full.contains(&edge(expected, sample, "1")), "{full:?}");
    let test = "tracker/tests/test_ledger.py";
    assert!(full.contains(&edge(test, sample, "2")), "{full:?}");
    // The agent kept in a folder is named by it; one written as data by its stem, in code too.
    let engineer = "agents/engineer/AGENT.md";
    assert!(
        full.contains(&edge("relay/SKILL.md", engineer, "7")),
        "{full:?}"
    );
    let release = "agents/yaml/release-agent.yaml";
    assert!(
        full.contains(&edge("scripts/convert.js", release, "2")),
        "{full:?}"
    );
    // An edit refreshed alone decides as a full run does.
    p.write(
        "relay/SKILL.md",
        "---\nname: relay\ndescription: runs repos\n---\nEach repo keeps a REVIEW_ME.md of open boxes.\nHand it to the engineer.\n",
    );
    p.src().args(["index"]).assert().success();
    let incremental = edge_rows(&p);
    assert!(
        incremental.contains(&edge("relay/SKILL.md", engineer, "6")),
        "{incremental:?}"
    );
    assert!(
        !incremental.contains(&edge("relay/SKILL.md", sample, "5")),
        "{incremental:?}"
    );
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edge_rows(&p));
}

#[test]
fn an_agent_of_a_common_word_is_named_when_said_to_be_one() {
    let p = Project::empty();
    for a in ["core", "frontend", "designer"] {
        p.write(
            &format!("agents/{a}.md"),
            &format!(
                "---\nname: {a}\ndescription: the {a} role\nmodel: sonnet\n---\nYou are {a}.\n"
            ),
        );
    }
    p.write("docs/core.md", "# Core\nThe core library.\n");
    p.write(
        "docs/flow.md",
        "# Flow\n- **Receives from**: Core agent (contracts)\n- Delegate to agents (designer, frontend) when needed\n- The core library is stable.\n",
    );
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"agents/**\", \"docs/**\"]\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let full = edge_rows(&p);
    let flow = "docs/flow.md";
    assert!(
        full.contains(&edge(flow, "agents/core.md", "2")),
        "{full:?}"
    );
    assert!(
        full.contains(&edge(flow, "agents/frontend.md", "3")),
        "{full:?}"
    );
    // The word alone is a word; said to be an agent, it is no document of the name.
    assert!(
        !full.iter().any(|r| r[0] == flow && r[2] == "4"),
        "{full:?}"
    );
    assert!(!full.iter().any(|r| r[1] == "docs/core.md"), "{full:?}");
    // An edit refreshed alone decides as a full run does.
    p.write(
        flow,
        "# Flow\n\n- **Receives from**: Core agent (contracts)\n- Delegate to agents (designer, frontend) when needed\n",
    );
    p.src().args(["index"]).assert().success();
    let incremental = edge_rows(&p);
    assert!(
        incremental.contains(&edge(flow, "agents/core.md", "3")),
        "{incremental:?}"
    );
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edge_rows(&p));
}

#[test]
fn a_kit_speaks_of_the_project_it_works_on_and_of_the_steps_its_skills_keep() {
    let p = Project::empty();
    p.write("CLAUDE.md", "# Rules of this kit\n");
    p.write(
        "plugins/w/.claude-plugin/plugin.json",
        "{\"name\": \"w\"}\n",
    );
    p.write(
        "plugins/w/agents/merger.md",
        "---\nname: merger\ndescription: merges\n---\nRun the target repo's `CLAUDE.md` done-check.\n",
    );
    p.write(
        "plugins/w/agents/my-review.md",
        "---\nname: my-review\ndescription: reviews a diff\n---\nReview.\n",
    );
    p.write(
        "plugins/w/skills/my-review/SKILL.md",
        "---\nname: my-review\ndescription: picks a model, then spawns the my-review agent\n---\nSteps: `check`, then `report`.\n### Dispatch — `check`\n",
    );
    p.write("plugins/w/skills/my-review/check.md", "# check\n");
    p.write(
        "README.md",
        "Edit CLAUDE.md here.\nInstall the global `CLAUDE.md` too.\n",
    );
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"plugins/**\", \"CLAUDE.md\", \"README.md\"]\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let full = edge_rows(&p);
    let skill = "plugins/w/skills/my-review/SKILL.md";
    // The project an agent of the kit works on keeps its own CLAUDE.md; so does the user.
    assert!(
        !full.iter().any(|r| r[0] == "plugins/w/agents/merger.md"),
        "{full:?}"
    );
    assert!(
        full.contains(&edge("README.md", "CLAUDE.md", "1")),
        "{full:?}"
    );
    assert!(
        !full.contains(&edge("README.md", "CLAUDE.md", "2")),
        "{full:?}"
    );
    // The skill names the agent of its own name, said to be one, and the step it keeps.
    let agent = "plugins/w/agents/my-review.md";
    assert!(full.contains(&edge(skill, agent, "3")), "{full:?}");
    let check = "plugins/w/skills/my-review/check.md";
    assert!(full.contains(&edge(skill, check, "5")), "{full:?}");
    assert!(full.contains(&edge(skill, check, "6")), "{full:?}");
    // An edit refreshed alone decides as a full run does.
    p.write(
        skill,
        "---\nname: my-review\ndescription: picks a model, then spawns the my-review agent\n---\n\nSteps: `check`, then `report`.\n",
    );
    p.src().args(["index"]).assert().success();
    let incremental = edge_rows(&p);
    assert!(
        incremental.contains(&edge(skill, agent, "3")),
        "{incremental:?}"
    );
    assert!(
        incremental.contains(&edge(skill, check, "6")),
        "{incremental:?}"
    );
    assert!(
        !incremental.contains(&edge(skill, check, "5")),
        "{incremental:?}"
    );
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edge_rows(&p));
}

#[test]
fn a_program_a_skill_wraps_the_working_folders_file_and_a_tests_stub_are_no_files_of_the_tree() {
    let p = Project::empty();
    p.write("CLAUDE.md", "# Rules of this kit\n");
    p.write(
        "skills/browse-cli/SKILL.md",
        "---\nname: browse-cli\ndescription: drive a browser with the browse-cli program\n---\nSee [mocking](references/mocking.md).\n",
    );
    p.write(
        "skills/browse-cli/references/mocking.md",
        "# Mocking\n\n```bash\nbrowse-cli unroute\n```\n\nUse the browse-cli skill for this.\n",
    );
    p.write(
        "agents/reviewer.md",
        "---\nname: reviewer\ndescription: reviews\n---\nRead `./CLAUDE.md` first.\n",
    );
    p.write(
        "tests/test_skill.sh",
        "#!/bin/bash\nWORK=$(mktemp -d)\ncat > \"$WORK/repo/skills/browse-cli/SKILL.md\" <<EOF\nstub\nEOF\nbash \"$WORK/repo/skills/browse-cli/SKILL.md\"\ncat skills/browse-cli/SKILL.md\n",
    );
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"skills/**\", \"agents/**\", \"tests/**\", \"CLAUDE.md\"]\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let full = edge_rows(&p);
    let skill = "skills/browse-cli/SKILL.md";
    let mocking = "skills/browse-cli/references/mocking.md";
    // The program run in a shell example is no skill; said to be the skill, it is.
    assert!(!full.contains(&edge(mocking, skill, "4")), "{full:?}");
    assert!(full.contains(&edge(mocking, skill, "7")), "{full:?}");
    // The working folder's CLAUDE.md, in an agent at work on any project, is that project's.
    assert!(
        !full.iter().any(|r| r[0] == "agents/reviewer.md"),
        "{full:?}"
    );
    // The test's stub in its temporary folder is its own; the tree's file by path is ours.
    let test = "tests/test_skill.sh";
    assert!(!full.contains(&edge(test, skill, "3")), "{full:?}");
    assert!(!full.contains(&edge(test, skill, "6")), "{full:?}");
    assert!(full.contains(&edge(test, skill, "7")), "{full:?}");
    // An edit refreshed alone decides as a full run does.
    p.write(
        test,
        "#!/bin/bash\nWORK=$(mktemp -d)\nbash \"$WORK/repo/skills/browse-cli/SKILL.md\"\n",
    );
    p.src().args(["index"]).assert().success();
    let incremental = edge_rows(&p);
    assert!(
        incremental.contains(&edge(test, skill, "3")),
        "{incremental:?}"
    );
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edge_rows(&p));
}

#[test]
fn a_variable_named_for_a_kind_names_the_things_it_lists() {
    let p = Project::empty();
    for s in ["using-the-use-hook", "using-context-api"] {
        p.write(
            &format!("skills/{s}/SKILL.md"),
            &format!("---\nname: {s}\ndescription: x\n---\nBody.\n"),
        );
    }
    p.write(
        "scripts/suggest.sh",
        "#!/bin/bash\nRECOMMENDED_SKILLS+=(\"using-context-api\" \"using-the-use-hook\")\nif [ \"$x\" = \"using-the-use-hook\" ]; then :; fi\n",
    );
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"skills/**\", \"scripts/**\"]\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let full = edge_rows(&p);
    let script = "scripts/suggest.sh";
    for s in ["using-the-use-hook", "using-context-api"] {
        let skill = format!("skills/{s}/SKILL.md");
        assert!(full.contains(&edge(script, &skill, "2")), "{full:?}");
    }
    // So does a value the script compares the skill's name with (labelled trees: 12 lines of
    // 12 where a program's string held a compound skill name alone, a shell test's
    // `expect_eq … "rigorous-refactor"` among them).
    assert!(
        full.contains(&edge(script, "skills/using-the-use-hook/SKILL.md", "3")),
        "{full:?}"
    );
    p.write(
        script,
        "#!/bin/bash\n\nRECOMMENDED_SKILLS+=(\"using-the-use-hook\")\n",
    );
    p.src().args(["index"]).assert().success();
    let incremental = edge_rows(&p);
    let hook = "skills/using-the-use-hook/SKILL.md";
    assert!(
        incremental.contains(&edge(script, hook, "3")),
        "{incremental:?}"
    );
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edge_rows(&p));
}

#[test]
fn a_namespace_of_another_scheme_names_no_command_of_a_plugin() {
    let p = Project::empty();
    p.write(
        "plugins/ts/.claude-plugin/plugin.json",
        "{\"name\": \"ts\"}\n",
    );
    p.write(
        "plugins/ts/commands/coverage.md",
        "---\ndescription: runs coverage\n---\nRun it.\n",
    );
    p.write(
        "plugins/ts/commands/scaffold.md",
        "---\ndescription: scaffolds\n---\n```json\n\"test:coverage\": \"vitest run --coverage\"\n```\nThen run `ts:coverage`.\n",
    );
    p.write(".src/config.yaml", "scope:\n  include: [\"plugins/**\"]\n");
    p.src().args(["index", "--full"]).assert().success();
    let full = edge_rows(&p);
    let (src, dst) = (
        "plugins/ts/commands/scaffold.md",
        "plugins/ts/commands/coverage.md",
    );
    assert!(!full.contains(&edge(src, dst, "5")), "{full:?}");
    assert!(full.contains(&edge(src, dst, "7")), "{full:?}");
}

#[test]
fn a_path_closed_by_a_set_of_extensions_names_each_file() {
    let p = Project::empty();
    p.write("scripts/stow-x.sh", "#!/bin/sh\n");
    p.write("scripts/stow-x.ps1", "Write-Host x\n");
    p.write("tools/unit-x.sh", "#!/bin/sh\n");
    p.write(
        "docs/setup.md",
        "Run `scripts/stow-x.{sh,ps1}` first.\nInstall `tools/unit-x.{service,timer}` too.\n",
    );
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"scripts/**\", \"tools/**\", \"docs/**\"]\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let full = edge_rows(&p);
    let doc = "docs/setup.md";
    assert!(
        full.contains(&edge(doc, "scripts/stow-x.sh", "1")),
        "{full:?}"
    );
    assert!(
        full.contains(&edge(doc, "scripts/stow-x.ps1", "1")),
        "{full:?}"
    );
    // The units of a script's name are not the script.
    assert!(
        !full.contains(&edge(doc, "tools/unit-x.sh", "2")),
        "{full:?}"
    );
}

#[test]
fn patterns_scripts_tags_and_kits_name_no_file_and_tests_and_readmes_name_theirs() {
    let p = Project::empty();
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"**\"]\n  exclude: [\".src/**\"]\n",
    );
    p.write("README.md", "# Kit\n");
    p.write("test.sh", "#!/bin/sh\n");
    p.write("rules/debugging.md", "# Debugging\n");
    p.write("scripts/hot-tree.ts", "export const x = 1\n");
    p.write("templates/gitlab-ci.yml", "stages: []\n");
    p.write("commands/hygiene.md", "Check hygiene.\n");
    p.write("commands/debug.md", "Debug it.\n");
    p.write(
        "agents/design-skeptic.md",
        "---\nname: design-skeptic\ndescription: finds faults\n---\nBody.\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    // The writers come after the first index: the incremental run decides them.
    p.write("rules/README.md", "Always on: `discipline`, `debugging`.\n");
    p.write(
        "scripts/hot-tree.test.ts",
        "describe(\"hot-tree\", () => {})\n",
    );
    p.write(
        "hooks/check.sh",
        "[[ \"$h\" == *.test.sh ]] && continue\n# Look for README.md in the project\n",
    );
    p.write(
        "docs/ci.md",
        "```bash\ngit add .gitlab-ci.yml\n```\nRun `npm run hygiene`, then `hygiene:quick`.\nUpdate README.md.\n",
    );
    p.write("scripts/out.ts", "lines.push(\"</debug>\")\n");
    p.write(
        "skills/map/SKILL.md",
        "---\nname: map\ndescription: maps\n---\nLook for docs in `README.md`.\n",
    );
    p.write(
        "variants/design-skeptic/v1/meta.json",
        "{\n  \"entity_id\": \"design-skeptic\"\n}\n",
    );
    p.src().arg("index").assert().success();
    let incremental = edge_rows(&p);
    for (src, dst, line) in [
        ("rules/README.md", "rules/debugging.md", "1"),
        ("scripts/hot-tree.test.ts", "scripts/hot-tree.ts", "1"),
        ("docs/ci.md", "templates/gitlab-ci.yml", "2"),
        ("docs/ci.md", "README.md", "5"),
        (
            "variants/design-skeptic/v1/meta.json",
            "agents/design-skeptic.md",
            "2",
        ),
    ] {
        assert!(
            incremental.contains(&edge(src, dst, line)),
            "{src}:{line} -> {dst}: {incremental:?}"
        );
    }
    for (src, dst) in [
        ("hooks/check.sh", "test.sh"),
        ("hooks/check.sh", "README.md"),
        ("docs/ci.md", "commands/hygiene.md"),
        ("scripts/out.ts", "commands/debug.md"),
        ("skills/map/SKILL.md", "README.md"),
    ] {
        assert!(
            !incremental.iter().any(|r| r[0] == src && r[1] == dst),
            "{src} -> {dst}: {incremental:?}"
        );
    }
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edge_rows(&p));
}

#[test]
fn an_agent_declared_in_title_case_is_named_mid_sentence_as_a_proper_name() {
    let p = Project::empty();
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"**\"]\n  exclude: [\".src/**\"]\n",
    );
    p.write(
        "docs/council.md",
        "I want Advocate to review it.\nAdvocate testing is a phase.\nA devil's advocate.\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    // The agent arrives after the document: the incremental run decides the mentions anew.
    p.write(
        "agents/council-advocate.md",
        "---\nname: \"Advocate\"\ndescription: user lens\n---\nYou are Advocate.\n",
    );
    p.src().arg("index").assert().success();
    let incremental = edge_rows(&p);
    let (src, dst) = ("docs/council.md", "agents/council-advocate.md");
    assert!(
        incremental.contains(&edge(src, dst, "1")),
        "{incremental:?}"
    );
    assert!(
        !incremental.contains(&edge(src, dst, "2")),
        "{incremental:?}"
    );
    assert!(
        !incremental.contains(&edge(src, dst, "3")),
        "{incremental:?}"
    );
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edge_rows(&p));
}

#[test]
fn a_plugin_is_called_by_the_name_its_manifest_declares() {
    let p = Project::empty();
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"**\"]\n  exclude: [\".src/**\"]\n",
    );
    p.write(
        "plugin/.claude-plugin/plugin.json",
        "{\"name\": \"claude-workflow\"}\n",
    );
    p.write(
        "plugin/agents/planner.md",
        "---\nname: planner\ndescription: plans\n---\nPlan.\n",
    );
    p.write(
        "plugin/skills/spec/SKILL.md",
        "---\nname: spec\ndescription: specs\n---\nTask({ subagent_type: \"claude-workflow:planner\" })\nthen `test:planner` runs\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let full = edge_rows(&p);
    let (src, dst) = ("plugin/skills/spec/SKILL.md", "plugin/agents/planner.md");
    assert!(full.contains(&edge(src, dst, "5")), "{full:?}");
    // Another scheme's namespace names no agent of the plugin.
    assert!(!full.contains(&edge(src, dst, "6")), "{full:?}");
    // The manifest renamed: the incremental run decides the names under it anew.
    p.write(
        "plugin/.claude-plugin/plugin.json",
        "{\"name\": \"renamed-kit\"}\n",
    );
    p.src().arg("index").assert().success();
    let incremental = edge_rows(&p);
    assert!(
        !incremental.contains(&edge(src, dst, "5")),
        "{incremental:?}"
    );
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edge_rows(&p));
}

#[test]
fn a_script_without_an_extension_sources_the_library_beside_it() {
    let p = Project::empty();
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"**\"]\n  exclude: [\".src/**\"]\n",
    );
    p.write("plugin/bin/lib/common.sh", "x=1\n");
    p.write("plugin/scripts/lib/common.sh", "x=1\n");
    p.write(
        "plugin/bin/status",
        "#!/usr/bin/env bash\nSCRIPT_DIR=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\nsource \"$SCRIPT_DIR/lib/common.sh\"\n",
    );
    p.write(
        "package.json",
        "{\n  \"scripts\": {\n    \"status\": \"plugin/bin/status --all\"\n  }\n}\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let full = edge_rows(&p);
    // Of two libraries of the name, the one beside the script (its `$SCRIPT_DIR`).
    let script = "plugin/bin/status";
    assert!(
        full.contains(&edge(script, "plugin/bin/lib/common.sh", "3")),
        "{full:?}"
    );
    assert!(
        !full.contains(&edge(script, "plugin/scripts/lib/common.sh", "3")),
        "{full:?}"
    );
    // A run of words that is the script's path names it.
    assert!(
        full.contains(&edge("package.json", script, "3")),
        "{full:?}"
    );
}

#[test]
fn a_plugins_skill_references_name_its_agents_by_their_roles() {
    let p = Project::empty();
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"**\"]\n  exclude: [\".src/**\"]\n",
    );
    p.write("plugin/.claude-plugin/plugin.json", "{\"name\": \"kit\"}\n");
    p.write(
        "plugin/skills/spec/references/planning.md",
        "Spawn the planner for steps 1 and 2.\n",
    );
    p.write(
        "skills/postgres/references/explain.md",
        "The planner picks an index scan.\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    // The agents arrive after the references: the incremental run decides them.
    for agent in ["plugin/agents/planner.md", "agents/planner.md"] {
        p.write(
            agent,
            "---\nname: planner\ndescription: plans\n---\nPlan.\n",
        );
    }
    p.src().arg("index").assert().success();
    let incremental = edge_rows(&p);
    let own = "plugin/skills/spec/references/planning.md";
    assert!(
        incremental.contains(&edge(own, "plugin/agents/planner.md", "1")),
        "{incremental:?}"
    );
    // Outside a plugin, a skill's reference material is the world the skill works in.
    let world = "skills/postgres/references/explain.md";
    assert!(
        !incremental.iter().any(|r| r[0] == world),
        "{incremental:?}"
    );
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edge_rows(&p));
}

#[test]
fn kinds_said_after_names_copies_the_client_loads_and_names_in_programs_strings() {
    let p = Project::empty();
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"**\"]\n  exclude: [\".src/**\"]\n",
    );
    p.write("templates/gitlab-ci.yml", "stages: []\n");
    p.write("shared/lib/expand.sh", "echo expand\n");
    p.write(
        "docs/ci.md",
        "The `.gitlab-ci.yml` template carries the gate.\n",
    );
    p.write(
        "tool",
        "#!/usr/bin/env bash\nSCRIPT_DIR=\"$(cd \"$(dirname \"$SOURCE\")\" && pwd)\"\nLIB_DIR=\"$SCRIPT_DIR/shared/lib\"\nbash \"$LIB_DIR/expand.sh\"\n",
    );
    p.write(
        "contracts/routing.py",
        "CASES = [{\"phrase\": \"fan out\", \"expect\": \"work-superspeed\"}]\nimport_from = [\"git\", \"worktree\"]\n",
    );
    p.write(
        "README.md",
        "Expand with the issue-writer prompt.\nRun `/issue-writer` for one issue.\nThen `/implement-ready`.\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    // The bearers arrive after the writers: the incremental run decides them.
    for (path, name) in [
        ("skills/work-superspeed/SKILL.md", "work-superspeed"),
        ("skills/worktree/SKILL.md", "worktree"),
        ("skills/issue-writer/SKILL.md", "issue-writer"),
        ("skills/implement-ready/SKILL.md", "implement-ready"),
        (".claude/skills/implement-ready/SKILL.md", "implement-ready"),
    ] {
        p.write(
            path,
            &format!("---\nname: {name}\ndescription: does {name}\n---\nBody.\n"),
        );
    }
    p.write("tools/prompts/issue-writer.md", "You write issues.\n");
    p.src().arg("index").assert().success();
    let incremental = edge_rows(&p);
    for (src, dst, line) in [
        // A dotted name after its dot in prose is a dotfile's, which the template renders.
        ("docs/ci.md", "templates/gitlab-ci.yml", "1"),
        // A script's own folder found through its links still leads beside it.
        ("tool", "shared/lib/expand.sh", "4"),
        // A compound skill name a program's string holds alone is the skill.
        (
            "contracts/routing.py",
            "skills/work-superspeed/SKILL.md",
            "1",
        ),
        // "the issue-writer prompt" is the prompt; invoked, the name is the skill.
        ("README.md", "tools/prompts/issue-writer.md", "1"),
        ("README.md", "skills/issue-writer/SKILL.md", "2"),
        // Of a skill kept in `.claude/` and as a source copy, the copy the client loads.
        ("README.md", ".claude/skills/implement-ready/SKILL.md", "3"),
    ] {
        assert!(
            incremental.contains(&edge(src, dst, line)),
            "{src}:{line} -> {dst}: {incremental:?}"
        );
    }
    for (src, dst, line) in [
        ("README.md", "skills/issue-writer/SKILL.md", "1"),
        ("README.md", "tools/prompts/issue-writer.md", "2"),
        ("README.md", "skills/implement-ready/SKILL.md", "3"),
        // A one-word name in a program's string is the program's value.
        ("contracts/routing.py", "skills/worktree/SKILL.md", "2"),
    ] {
        assert!(
            !incremental.contains(&edge(src, dst, line)),
            "{src}:{line} -> {dst}: {incremental:?}"
        );
    }
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edge_rows(&p));
}

#[test]
fn a_script_run_by_name_is_the_file_its_command_runs_and_a_capitalised_kind_names_the_thing() {
    let p = Project::empty();
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"**\"]\n  exclude: [\".src/**\"]\n",
    );
    p.write("scripts/gen.ts", "// Run `pnpm gen` to write.\nexport {}\n");
    p.write("scripts/build.ts", "export {}\n");
    p.write("tools/gen.ts", "export {}\n");
    p.write(
        "package.json",
        "{\n  \"scripts\": {\n    \"gen\": \"tsx scripts/gen.ts\",\n    \"gen:check\": \"tsx scripts/gen.ts --check\"\n  }\n}\n",
    );
    p.write(
        "docs/a.md",
        "Run `pnpm gen`.\nThen `npm run gen:check`.\nThe gen step.\nRun `bun run scripts/build.ts`.\n",
    );
    p.write(
        "setup/SKILL.md",
        "---\nname: setup-kit\ndescription: sets up\n---\nBody.\n",
    );
    p.write(
        "docs/b.md",
        "this step. Setup skill detects it.\nSetup Step 4b.\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let full = edge_rows(&p);
    for (src, dst, line) in [
        ("docs/a.md", "scripts/gen.ts", "1"),
        ("docs/a.md", "scripts/gen.ts", "2"),
        ("docs/a.md", "scripts/build.ts", "4"),
        ("docs/b.md", "setup/SKILL.md", "1"),
    ] {
        assert!(
            full.contains(&edge(src, dst, line)),
            "{src}:{line} -> {dst}: {full:?}"
        );
    }
    for (src, dst, line) in [
        // A plain word, and the script's own file saying how it is run.
        ("docs/a.md", "scripts/gen.ts", "3"),
        ("scripts/gen.ts", "scripts/gen.ts", "1"),
        // A capitalised word with no kind after it is a word.
        ("docs/b.md", "setup/SKILL.md", "2"),
    ] {
        assert!(
            !full.contains(&edge(src, dst, line)),
            "{src}:{line} -> {dst}: {full:?}"
        );
    }
    // The script comes to run another file of the name: its runs are decided again.
    p.write(
        "package.json",
        "{\n  \"scripts\": {\n    \"gen\": \"tsx tools/gen.ts\",\n    \"gen:check\": \"tsx tools/gen.ts --check\"\n  }\n}\n",
    );
    p.src().arg("index").assert().success();
    let incremental = edge_rows(&p);
    assert!(
        incremental.contains(&edge("docs/a.md", "tools/gen.ts", "1")),
        "{incremental:?}"
    );
    assert!(
        !incremental.contains(&edge("docs/a.md", "scripts/gen.ts", "1")),
        "{incremental:?}"
    );
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edge_rows(&p));
}

#[test]
fn a_name_run_with_options_is_a_programs_subcommand_a_cited_section_is_the_trees_and_paths_lead_where_written(
) {
    let p = Project::empty();
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"**\"]\n  exclude: [\".src/**\"]\n",
    );
    p.write(
        "skills/spec-review/SKILL.md",
        "---\nname: spec-review\ndescription: lints specs\n---\nBody.\n",
    );
    p.write("utils/cli.js", "// the workflow CLI\n");
    p.write(
        "docs/a.md",
        "Run `/spec-review` weekly.\n\
         Approve with `spec-review --choice approve`.\n\
         node utils/cli.js spec-review --choice x\n\
         The CLI `spec-review` rejects it.\n\
         Then `spec-review` lints the specs.\n",
    );
    p.write(
        "tests/cli.test.js",
        "run(['spec-review', '--choice', 'x'])\nrun(['--skill', 'spec-review', '--fast'])\n",
    );
    p.write(
        "agents/docs-lookup.md",
        "---\nname: docs-lookup\n---\nLooks up docs.\n",
    );
    p.write("runs/README.md", "Runs land here.\n");
    p.write(
        "commands/research.md",
        "Save to runs/{project}/.cache/docs-lookup.md.\nOr runs/old/agents/docs-lookup.md.\n",
    );
    p.write("CLAUDE.md", "# Rules\n## 3. Plans\n");
    p.write(
        "commands/_prompts/survival-classifier.md",
        "Classify survival.\n",
    );
    // A skill and an agent of one name: a key that says the kind picks one.
    p.write(
        "agents/judge-x.md",
        "---\nname: judge-x\ndescription: judges\ntools: Read\n---\nBody.\n",
    );
    p.write(
        "skills/judge-x/SKILL.md",
        "---\nname: judge-x\ndescription: judging\n---\nBody.\n",
    );
    p.write("docs/spawn.md", "{ agentType: \"judge-x\", prompt }\n");
    p.write(
        "docs/survival.jsonl",
        "{\"prompt_version\": \"survival-classifier@1.0\", \"outcome\": \"addressed\"}\n\
         {\"install\": \"/plugin install survival-classifier@market\"}\n",
    );
    p.write(
        "docs/plans.md",
        "Plans follow CLAUDE.md §3.\nRead CLAUDE.md first.\nSee `CLAUDE.md` § Plans.\n",
    );
    p.write("scripts/sink.js", "// root copy\n");
    p.write(
        "plugins/kw/scripts/check.js",
        "assert(exists('scripts/sink.js'))\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let full = edge_rows(&p);
    let skill = "skills/spec-review/SKILL.md";
    for (src, dst, line) in [
        ("docs/a.md", skill, "1"),
        ("docs/a.md", skill, "5"),
        // An option's value is the thing the option names.
        ("tests/cli.test.js", skill, "2"),
        // A moved file's old path still names it.
        ("commands/research.md", "agents/docs-lookup.md", "2"),
        // A key in camel case that says the kind picks the thing of that kind.
        ("docs/spawn.md", "agents/judge-x.md", "1"),
        // A thing at a version is the thing.
        (
            "docs/survival.jsonl",
            "commands/_prompts/survival-classifier.md",
            "1",
        ),
        // A section cited is of the document at hand.
        ("docs/plans.md", "CLAUDE.md", "1"),
        ("docs/plans.md", "CLAUDE.md", "3"),
    ] {
        assert!(
            full.contains(&edge(src, dst, line)),
            "{src}:{line} -> {dst}: {full:?}"
        );
    }
    for (src, dst, line) in [
        ("docs/a.md", skill, "2"),
        ("docs/a.md", skill, "3"),
        ("docs/a.md", skill, "4"),
        ("tests/cli.test.js", skill, "1"),
        // A path through a placeholder is an output a run writes.
        ("commands/research.md", "agents/docs-lookup.md", "1"),
        // A plugin installed from a marketplace is no thing of the tree.
        (
            "docs/survival.jsonl",
            "commands/_prompts/survival-classifier.md",
            "2",
        ),
        // The client's instruction file by its name alone: any folder's.
        ("docs/plans.md", "CLAUDE.md", "2"),
    ] {
        assert!(
            !full.contains(&edge(src, dst, line)),
            "{src}:{line} -> {dst}: {full:?}"
        );
    }
    // Without a copy of its own, the plugin's script checks the root's (once: its file name
    // is asked, and names the file the whole path does); with one, not.
    let checks = |rows: &[Vec<String>]| {
        rows.iter()
            .filter(|r| r[0] == "plugins/kw/scripts/check.js")
            .count()
    };
    assert!(
        full.contains(&edge("plugins/kw/scripts/check.js", "scripts/sink.js", "1")),
        "{full:?}"
    );
    assert_eq!(checks(&full), 1, "{full:?}");
    p.write("plugins/kw/scripts/sink.js", "// the plugin's copy\n");
    p.src().arg("index").assert().success();
    let incremental = edge_rows(&p);
    assert!(
        !incremental.contains(&edge("plugins/kw/scripts/check.js", "scripts/sink.js", "1")),
        "{incremental:?}"
    );
    assert!(
        incremental.contains(&edge(
            "plugins/kw/scripts/check.js",
            "plugins/kw/scripts/sink.js",
            "1"
        )),
        "{incremental:?}"
    );
    assert_eq!(checks(&incremental), 1, "{incremental:?}");
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edge_rows(&p));
}

#[test]
fn a_line_naming_a_copys_plugin_is_decided_by_that_line_not_by_the_files_other_lines() {
    let p = Project::empty();
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"**\"]\n  exclude: [\".src/**\"]\n",
    );
    p.write("commands/workflow-next.md", "# next\n");
    p.write("plugins/gl/commands/workflow-next.md", "# next, for gl\n");
    p.write(
        "docs/plan.md",
        "Task 1: `commands/workflow-next.md` (GitHub workflow-next).\n\
         Task 3: `plugins/gl/commands/workflow-next.md` (gl workflow-next).\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let full = edge_rows(&p);
    // Written outside any plugin, the bare name is the tree's own copy...
    assert!(
        full.contains(&edge("docs/plan.md", "commands/workflow-next.md", "1")),
        "{full:?}"
    );
    // ...except on a line that names the plugin's copy, whatever the file's other lines say.
    assert!(
        !full.contains(&edge("docs/plan.md", "commands/workflow-next.md", "2")),
        "{full:?}"
    );
    // Decided again alone (a manifest's change re-decides names written through bare
    // paths), the line gives the same answer.
    p.write("package.json", "{\"name\": \"kit\"}\n");
    p.src().arg("index").assert().success();
    let incremental = edge_rows(&p);
    p.src().args(["index", "--full"]).assert().success();
    assert_eq!(incremental, edge_rows(&p));
}
