//! A Markdown file is also known by its frontmatter `name:` (`fixtures/fmnames/`): an agent by
//! the name `subagent_type:` uses, a skill by its declared name beside its folder. The edges are
//! exact; a changed frontmatter name gives the same graph incrementally as in a full rebuild;
//! the live scan (no index) knows the same names.

use crate::util::{stdout_of as stdout, Project};

const AGENT: &str = ".claude/plugins/incident-response/agents/debugger.md";
const FIX: &str = ".claude/plugins/incident-response/commands/smart-fix.md";
const SKILL: &str = ".claude/skills/postgresql/SKILL.md";
const REVIEWER: &str = ".claude/agents/schema-reviewer.md";
const KEEPER: &str = ".claude/agents/notes-keeper.md";
const DRAFT: &str = ".claude/commands/draft.md";

/// `src dst name line kind` of every edge, in the order of the output.
fn edges(p: &Project, db: &str) -> Vec<String> {
    let db = format!(".src/{db}");
    let tsv = stdout(
        p.src()
            .args(["--db", &db, "query", "edges", "--format", "tsv"]),
    );
    let mut lines = tsv.lines();
    let hdr: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let col = |name: &str| {
        hdr.iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name} in {hdr:?}"))
    };
    let cols = [
        col("src"),
        col("dst"),
        col("pattern"),
        col("line"),
        col("kind"),
    ];
    let mut out: Vec<String> = lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            cols.iter().map(|i| f[*i]).collect::<Vec<_>>().join(" ")
        })
        .collect();
    out.sort();
    out
}

fn edge(src: &str, dst: &str, name: &str, line: u32) -> String {
    format!("{src} {dst} {name} {line} name")
}

fn index(p: &Project, db: &str, full: bool) -> String {
    let mut cmd = p.src();
    cmd.args(["--db", &format!(".src/{db}"), "index"]);
    if full {
        cmd.arg("--full");
    }
    stdout(&mut cmd)
}

#[test]
fn frontmatter_names_are_names_of_agents_and_skills() {
    let p = Project::from_fixture("fmnames");
    index(&p, "a.db", true);
    let mut want = vec![
        // `description:` in the reviewer's own frontmatter, then a code span in its body.
        edge(REVIEWER, SKILL, "postgresql-table-design", 3),
        edge(REVIEWER, SKILL, "postgresql-table-design", 6),
        // The key the client reads, then the bare (distinctive) name in prose.
        edge(FIX, AGENT, "incident-response-debugger", 9),
        edge(FIX, AGENT, "incident-response-debugger", 11),
    ];
    want.sort();
    // `name: ghost-writer-bot` in notes-keeper's body is no frontmatter: draft.md names nothing.
    assert_eq!(edges(&p, "a.db"), want);
    let names = stdout(p.src().args([
        "--db",
        ".src/a.db",
        "query",
        "--format",
        "tsv",
        "--sql",
        "SELECT f.path, n.name FROM names n JOIN files f ON f.id = n.file_id \
         WHERE n.kind = 'frontmatter' ORDER BY 1",
    ]));
    assert_eq!(
        names.lines().skip(1).collect::<Vec<_>>(),
        vec![
            format!("{AGENT}\tincident-response-debugger"),
            format!("{SKILL}\tpostgresql-table-design"),
        ],
        "schema-reviewer's frontmatter name is its stem already: no second name\n{names}"
    );
}

#[test]
fn a_changed_frontmatter_name_gives_the_edges_of_a_full_rebuild() {
    let p = Project::from_fixture("fmnames");
    index(&p, "inc.db", true);
    // The agent takes another name: the command's mentions of the old one name nothing now.
    let agent = std::fs::read_to_string(p.path(AGENT)).unwrap_or_else(|e| panic!("{e}"));
    p.write(
        AGENT,
        &agent.replace("name: incident-response-debugger", "name: ir-debugger"),
    );
    // A name arrives that another file already mentions: that mention becomes an edge.
    p.write(
        KEEPER,
        "---\nname: ghost-writer-bot\ndescription: Keeps the team's notes.\n---\n",
    );
    let report = index(&p, "inc.db", false);
    assert!(report.contains("2 changed"), "{report}");
    index(&p, "full.db", true);
    let inc = edges(&p, "inc.db");
    assert_eq!(inc, edges(&p, "full.db"));
    let mut want = vec![
        edge(REVIEWER, SKILL, "postgresql-table-design", 3),
        edge(REVIEWER, SKILL, "postgresql-table-design", 6),
        edge(DRAFT, KEEPER, "ghost-writer-bot", 3),
    ];
    want.sort();
    assert_eq!(inc, want);
    // And back: the old name returns, the new one leaves.
    p.write(AGENT, &agent);
    index(&p, "inc.db", false);
    index(&p, "full2.db", true);
    let inc = edges(&p, "inc.db");
    assert_eq!(inc, edges(&p, "full2.db"));
    assert!(
        inc.contains(&edge(FIX, AGENT, "incident-response-debugger", 9)),
        "{inc:#?}"
    );
}

/// `dependents FILE --format json`: its source and its direct dependents as `src line name`.
fn dependents(p: &Project, file: &str) -> (String, Vec<String>) {
    let out = stdout(p.src().args(["dependents", file, "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let direct = v["direct"]
        .as_array()
        .unwrap_or_else(|| panic!("no direct list: {out}"))
        .iter()
        .map(|d| format!("{} {} {}", d["src"], d["line"], d["name"]).replace('"', ""))
        .collect();
    (v["source"].as_str().unwrap_or_default().to_string(), direct)
}

#[test]
fn the_live_scan_knows_the_same_frontmatter_names() {
    let p = Project::from_fixture("fmnames");
    // A second bearer of the skill's frontmatter name, itself known by it only through its own
    // frontmatter: the live scan must see it to resolve as the index does.
    p.write(
        ".claude/agents/pg.md",
        "---\nname: postgresql-table-design\n---\nDesigns tables.\n",
    );
    p.src().arg("index").assert().success();
    let indexed: Vec<_> = [AGENT, SKILL, ".claude/agents/pg.md"]
        .iter()
        .map(|f| dependents(&p, f))
        .collect();
    assert!(indexed.iter().all(|(s, _)| s == "indexed"), "{indexed:?}");
    assert_eq!(
        indexed[0].1,
        vec![
            format!("{FIX} 9 incident-response-debugger"),
            format!("{FIX} 11 incident-response-debugger"),
        ]
    );
    // Another scope than the index was built with (leaving out a file that names none of these):
    // the answer comes from a live scan, and it is the same.
    p.write(
        ".src/config.yaml",
        &format!("scope:\n  include: [\".claude/**\"]\n  exclude: [\"{DRAFT}\"]\n"),
    );
    for (f, (_, want)) in [AGENT, SKILL, ".claude/agents/pg.md"].iter().zip(&indexed) {
        let (source, got) = dependents(&p, f);
        assert_eq!(source, "live-scan", "{f}");
        assert_eq!(&got, want, "{f}");
    }
}

#[test]
fn a_skills_variant_declaring_its_name_is_named_with_it_incrementally_as_in_full() {
    let p = Project::empty();
    let skill = ".claude/skills/prds-get/SKILL.md";
    let yolo = ".claude/skills/prds-get/SKILL.v1-yolo.md";
    let doc = ".claude/commands/plan.md";
    p.write(skill, "---\nname: prds-get\n---\nFetch the open PRDs.\n");
    p.write(doc, "Run `/prds-get` first.\nThen the prds-get/ folder.\n");
    index(&p, "inc.db", true);
    assert_eq!(
        edges(&p, "inc.db"),
        vec![
            format!("{doc} {skill} prds-get 1 name"),
            format!("{doc} {skill} prds-get 2 name")
        ]
    );
    // The variant arrives: the invocation names both files of the skill; the folder written
    // as a folder stays the SKILL.md's, which defines it.
    p.write(
        yolo,
        "---\nname: prds-get\n---\nFetch them, without asking.\n",
    );
    index(&p, "inc.db", false);
    index(&p, "full.db", true);
    let inc = edges(&p, "inc.db");
    assert_eq!(inc, edges(&p, "full.db"));
    assert_eq!(
        inc,
        vec![
            format!("{doc} {skill} prds-get 1 name"),
            format!("{doc} {skill} prds-get 2 name"),
            format!("{doc} {yolo} prds-get 1 name"),
        ]
    );
    let out = stdout(p.src().args(["--db", ".src/inc.db", "dependents", yolo]));
    assert!(out.contains(&format!("{doc}:1:")), "{out}");
    assert!(!out.contains(&format!("{doc}:2:")), "{out}");
    // It declares another name: the skill alone again.
    p.write(yolo, "---\nname: prds-get-yolo\n---\n");
    index(&p, "inc.db", false);
    index(&p, "full2.db", true);
    assert_eq!(edges(&p, "inc.db"), edges(&p, "full2.db"));
    assert_eq!(edges(&p, "inc.db").len(), 2);
}
