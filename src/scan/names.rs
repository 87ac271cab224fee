//! Names: the strings by which a file can be mentioned, derived from its root-relative path and,
//! for a Markdown file, the `name:` of its frontmatter.
//!
//! Owns the naming rules only (no I/O, no database). Invariant: the path is always a name; a
//! generic basename (`SKILL.md`, `mod.rs`, …) is no name by itself outside the root directory,
//! such a file is known by `parent/basename` and its parent directory's name instead; every name
//! appears once per file, with its most specific kind (a frontmatter name the path already gives
//! adds nothing).

use super::frontmatter;
use crate::config::Names;

/// How a name was derived from a path, most specific first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NameKind {
    Path,
    ParentBasename,
    Basename,
    Stem,
    Parent,
    /// The `name:` of a Markdown file's frontmatter (`scan::frontmatter`).
    Frontmatter,
}

impl NameKind {
    /// The value stored in `names.kind`.
    pub fn as_str(self) -> &'static str {
        match self {
            NameKind::Path => "path",
            NameKind::ParentBasename => "parent_basename",
            NameKind::Basename => "basename",
            NameKind::Stem => "stem",
            NameKind::Parent => "parent",
            NameKind::Frontmatter => "frontmatter",
        }
    }
}

/// The names of the file at root-relative `path` (with `/` separators), most specific first.
pub fn names_of(path: &str, cfg: &Names) -> Vec<(String, NameKind)> {
    let mut out: Vec<(String, NameKind)> = vec![(path.to_string(), NameKind::Path)];
    let mut push = |name: &str, kind: NameKind| {
        if !name.is_empty() && !out.iter().any(|(n, _)| n == name) {
            out.push((name.to_string(), kind));
        }
    };
    let (dir, base) = match path.rsplit_once('/') {
        Some((d, b)) => (Some(d), b),
        None => (None, path),
    };
    let generic = cfg.generic.iter().any(|g| g == base);
    match dir {
        Some(dir) if generic => {
            let parent = dir.rsplit('/').next().unwrap_or(dir);
            push(&format!("{parent}/{base}"), NameKind::ParentBasename);
            // The folder's name means the file that makes the folder a thing (a skill's
            // SKILL.md, a package's `__init__.py`), not one that only describes it: prose
            // naming a plugin or project means that, not its README.
            if (defines_folder(base) || folder_agent(path))
                && stem_ok(parent, cfg)
                && !parent.starts_with('.')
            {
                push(parent, NameKind::Parent);
            }
        }
        _ => {
            push(base, NameKind::Basename);
            let stem = stem_of(base);
            if stem != base
                && stem_ok(stem, cfg)
                && !renders(base, stem)
                && (!holds_data(base) || defines_agent(dir, base))
                && !member_script(base, stem)
            {
                push(stem, NameKind::Stem);
            }
        }
    }
    out
}

/// The names of the file at `path` whose head declares `frontmatter` as its `name:`: those of
/// the path, and the frontmatter name when it is new to them (see `frontmatter_name`).
pub fn names_with(path: &str, frontmatter: Option<&str>, cfg: &Names) -> Vec<(String, NameKind)> {
    let mut out = names_of(path, cfg);
    if let Some(n) = accepted(path, frontmatter, cfg) {
        if !out.iter().any(|(x, _)| x == n) {
            out.push((n.to_string(), NameKind::Frontmatter));
        }
    }
    out
}

/// The frontmatter name a file gets from its content (`bytes`: the whole file or at least its
/// first `frontmatter::HEAD_BYTES`), when `names_with` adds it: a Markdown file, a plausible
/// value, as long as a stem must be and not stoplisted, and not already a name of the path.
pub fn frontmatter_name(path: &str, bytes: &[u8], cfg: &Names) -> Option<String> {
    if !frontmatter::applies_to(path) {
        return None;
    }
    let declared = frontmatter::name_in(bytes).or_else(|| title_id(path, bytes));
    let n = accepted(path, declared, cfg)?;
    (!names_of(path, cfg).iter().any(|(x, _)| x == n)).then(|| n.to_string())
}

/// The identifier a document without a frontmatter name gives itself in capitals in its title
/// (`# OWN-OG-PROD-ACK: …` in `own-og-prod-ack.md`, `# RFC-0007 …`): its compound stem as it
/// is written elsewhere, which no sentence spells so otherwise.
fn title_id<'a>(path: &str, bytes: &'a [u8]) -> Option<&'a str> {
    let stem = stem_of(path.rsplit('/').next().unwrap_or(path));
    let compound = stem.split('-').count() >= 2
        && stem.split('-').all(|w| {
            w.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        });
    if !compound {
        return None;
    }
    let head = &bytes[..bytes.len().min(frontmatter::HEAD_BYTES)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let first = head
        .split(|b| *b == b'\n')
        .find(|l| !l.trim_ascii().is_empty())?;
    let title = first.strip_prefix(b"# ")?.trim_ascii_start();
    let id = title.get(..stem.len())?;
    let ends = title
        .get(stem.len())
        .is_none_or(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')));
    (ends && id.eq_ignore_ascii_case(stem.as_bytes()) && id.iter().all(|b| !b.is_ascii_lowercase()))
        .then(|| std::str::from_utf8(id).ok())
        .flatten()
}

fn accepted<'a>(path: &str, frontmatter: Option<&'a str>, cfg: &Names) -> Option<&'a str> {
    frontmatter.filter(|n| {
        frontmatter::applies_to(path) && stem_ok(n, cfg) && (!n.contains(' ') || titled_by(path))
    })
}

/// Whether a file's title-case frontmatter name (`Hook Development`) is its name: a skill's,
/// an agent's or an output style's (`Marketing Strategist`), which the client shows by it.
/// Another page's title (an example command's `name: Test Commands`) is no name of the page.
fn titled_by(path: &str) -> bool {
    let (dir, base) = path.rsplit_once('/').unwrap_or(("", path));
    base.eq_ignore_ascii_case("SKILL.md")
        || matches!(dir.rsplit('/').next(), Some("agents" | "output-styles"))
        || folder_agent(path)
}

/// Whether the file at `path` is an agent kept in a folder of its own (`agents/engineer/AGENT.md`
/// beside the folder's per-client overlays): known by that folder's name, as a skill is by its.
pub fn folder_agent(path: &str) -> bool {
    let mut rev = path.rsplit('/');
    rev.next()
        .is_some_and(|b| b.eq_ignore_ascii_case("AGENT.md"))
        && rev.next().is_some()
        && rev.next() == Some("agents")
}

/// Whether a conventional file defines its folder as a unit that is spoken of by the folder's
/// name: a skill, a code package or module folder.
pub fn defines_folder(base: &str) -> bool {
    base.eq_ignore_ascii_case("SKILL.md")
        || matches!(
            base,
            "__init__.py" | "index.js" | "index.ts" | "index.mjs" | "index.cjs" | "mod.rs"
        )
}

/// Whether the file `base` is a template whose stem is the file it renders
/// (`nftables.conf.template`, `.env.example`), or a copy kept of a file (`settings.json.bak`,
/// `config.yaml.orig`): that name is the rendered or copied file's, not this one's.
fn renders(base: &str, stem: &str) -> bool {
    const TEMPLATE_EXTS: [&str; 13] = [
        "template", "tmpl", "tpl", "example", "sample", "dist", "j2", "bak", "backup", "orig",
        "old", "save", "prev",
    ];
    let ext = &base[stem.len() + 1..];
    stem.contains('.') && TEMPLATE_EXTS.iter().any(|e| ext.eq_ignore_ascii_case(e))
}

/// Whether a file is data (`ModelListParams.json`, `hooks-daemon.yaml`, `skills.csv`): its
/// stem is the name of what it holds (a schema's type, an agent's settings, a keyword), which
/// other files use as that thing; the file itself is named by its file name or a path. (Of 268
/// labelled lines in 56 public trees where a data file's stem stood alone, 3 meant the file.)
/// So is a patch: its stem is the change or the issue it carries (`django__django-11905`).
fn holds_data(base: &str) -> bool {
    let ext = base.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    matches!(
        ext.as_deref(),
        Some(
            "json"
                | "jsonc"
                | "jsonl"
                | "json5"
                | "yaml"
                | "yml"
                | "toml"
                | "csv"
                | "tsv"
                | "patch"
                | "diff"
        )
    )
}

/// Whether a data file in an `agents/` folder, or one folder below it, is an agent's definition
/// (`agents/yaml/release-agent.yaml`, whose `name:` is its stem): named by that name as an
/// agent written in Markdown is. (Deeper, it is a part of one: an agent folder's per-client
/// `agents/reviewer/codex/frontmatter.yaml`. Inside a skill, it is the skill's settings for a
/// client's agents, named after the client: `skills/x/agents/openai.yaml`.)
pub fn defines_agent(dir: Option<&str>, base: &str) -> bool {
    let ext = base.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    let dir = dir.unwrap_or("");
    let mut up = dir.rsplit('/');
    let (parent, grand) = (up.next(), up.next());
    matches!(ext.as_deref(), Some("yaml" | "yml" | "json"))
        && (parent == Some("agents") || grand == Some("agents"))
        && !dir.split('/').any(|c| c == "skills")
}

/// Whether a script's stem is dotted (`res.sendFile.js`, `app.listen.js`, `vite.config.ts`): it
/// is the member the script tests or configures, which code calls and prose names as that
/// member (`res.sendFile()`); the file is named with its extension. (Of 175 labelled lines in
/// 60 public trees where a dotted stem stood alone, 5 meant the file, none of them a script.)
fn member_script(base: &str, stem: &str) -> bool {
    let ext = &base[stem.len() + 1..];
    stem.contains('.')
        && matches!(
            ext.to_ascii_lowercase().as_str(),
            "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" | "jsx" | "tsx"
        )
}

/// The basename without its last extension; a leading dot does not start an extension.
pub fn stem_of(base: &str) -> &str {
    match base.rfind('.') {
        Some(0) | None => base,
        Some(i) => &base[..i],
    }
}

/// A stem is a name when long enough, not on the stoplist, and spelled with a letter: a
/// date or a number (`2025-11-18.md`, `001.sql`) written alone is that date or number.
fn stem_ok(stem: &str, cfg: &Names) -> bool {
    stem.chars().count() >= cfg.min_stem_len
        && stem
            .bytes()
            .any(|b| b.is_ascii_alphabetic() || !b.is_ascii())
        && !cfg.stoplist.iter().any(|s| s == stem)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(path: &str) -> Vec<(String, &'static str)> {
        names_of(path, &Names::default())
            .into_iter()
            .map(|(n, k)| (n, k.as_str()))
            .collect()
    }

    #[test]
    fn plain_file_has_path_basename_and_stem() {
        assert_eq!(
            names(".claude/agents/implementer.md"),
            vec![
                (".claude/agents/implementer.md".into(), "path"),
                ("implementer.md".into(), "basename"),
                ("implementer".into(), "stem"),
            ]
        );
    }

    #[test]
    fn a_date_or_a_number_is_no_stem() {
        for p in [
            "sessions/log/2025-11-18.md",
            "migrations/001.sql",
            "notes/1.2.3.md",
        ] {
            let got = names(p);
            assert_eq!(got.len(), 2, "{got:?}");
            assert_eq!(got[1].1, "basename");
        }
        assert_eq!(names("log/2025-11-18-retro.md").len(), 3);
    }

    #[test]
    fn a_data_file_is_known_by_its_file_name_not_its_stem() {
        assert_eq!(
            names("schemas/v2/ModelListParams.json"),
            vec![
                ("schemas/v2/ModelListParams.json".into(), "path"),
                ("ModelListParams.json".into(), "basename"),
            ]
        );
        assert_eq!(names(".claude/hooks-daemon.yaml").len(), 2);
        // An agent defined in YAML is named as the agent, by its stem.
        assert_eq!(
            names("agents/yaml/release-agent.yaml").last(),
            Some(&("release-agent".into(), "stem"))
        );
        assert_eq!(names("config/agents.yaml").len(), 2);
        // A part of an agent kept in a folder (its per-client overlay) is no agent, nor a
        // skill's settings for a client's agents.
        assert_eq!(names("src/agents/reviewer/codex/frontmatter.yaml").len(), 2);
        assert_eq!(names("skills/jira-task/agents/openai.yaml").len(), 2);
        assert_eq!(names("test/res.sendFile.js").len(), 2);
        assert_eq!(
            names(".claude/settings.json.bak").len(),
            2,
            "a backup is not its original"
        );
        assert_eq!(
            names("docs/notes.v2.md").len(),
            3,
            "a document's dotted stem stays"
        );
        assert_eq!(names("data/skills.CSV").len(), 2);
        assert_eq!(names("results/django__django-11905.patch").len(), 2);
    }

    #[test]
    fn generic_basename_is_known_by_its_parent() {
        assert_eq!(
            names(".claude/skills/execution-code/SKILL.md"),
            vec![
                (".claude/skills/execution-code/SKILL.md".into(), "path"),
                ("execution-code/SKILL.md".into(), "parent_basename"),
                ("execution-code".into(), "parent"),
            ]
        );
        // An agent kept in a folder of its own is known by that folder, as a skill is.
        assert_eq!(
            names("src/agents/engineer/AGENT.md").last(),
            Some(&("engineer".into(), "parent"))
        );
        assert_eq!(names("docs/AGENT.md").len(), 1, "no agent outside agents/");
    }

    #[test]
    fn a_readme_is_not_named_by_its_folder() {
        // "plugin-eval" in prose means the plugin, not its README.
        assert_eq!(
            names("plugins/plugin-eval/README.md"),
            vec![
                ("plugins/plugin-eval/README.md".into(), "path"),
                ("plugin-eval/README.md".into(), "parent_basename"),
            ]
        );
        assert!(names("pkg/models/__init__.py").contains(&("models".into(), "parent")));
    }

    #[test]
    fn generic_basename_in_root_is_a_name() {
        assert_eq!(
            names("CLAUDE.md"),
            vec![("CLAUDE.md".into(), "path")],
            "the stem CLAUDE is stoplisted, the basename equals the path"
        );
    }

    #[test]
    fn hidden_or_short_parent_is_no_name() {
        let n = names(".claude/SKILL.md");
        assert_eq!(
            n,
            vec![(".claude/SKILL.md".into(), "path")],
            "parent/basename equals the path; `.claude` starts with a dot"
        );
        let n = names("a/b/mod.rs");
        assert!(n.iter().all(|(name, _)| name != "b"), "{n:?}");
        assert!(n.contains(&("b/mod.rs".into(), "parent_basename")));
    }

    #[test]
    fn short_and_stoplisted_stems_are_no_names() {
        let n = names("x/a.md");
        assert!(n.iter().all(|(name, _)| name != "a"), "{n:?}");
        // A short stem is a name (`import os`, `/gen`); `scan::refs` wants a cue for it bare.
        let n = names("x/os.py");
        assert!(n.contains(&("os".into(), "stem")), "{n:?}");
        let n = names("x/SKILL.txt");
        assert!(n.iter().all(|(name, _)| name != "SKILL"), "{n:?}");
        assert!(n.contains(&("SKILL.txt".into(), "basename")));
        // Common words stay names (an import of `types` must find types.py); whether a bare
        // occurrence refers to the file is decided by `scan::refs`.
        let n = names("x/types.py");
        assert!(n.contains(&("types".into(), "stem")), "{n:?}");
    }

    #[test]
    fn a_document_titled_by_its_stem_in_capitals_is_known_so() {
        let cfg = Names::default();
        let card = "cards/own-og-prod-ack.md";
        let got = |text: &[u8]| frontmatter_name(card, text, &cfg);
        assert_eq!(
            got(b"# OWN-OG-PROD-ACK: final ack card\n").as_deref(),
            Some("OWN-OG-PROD-ACK")
        );
        assert_eq!(
            got(b"\n# OWN-OG-PROD-ACK\n").as_deref(),
            Some("OWN-OG-PROD-ACK")
        );
        // Another title, the stem as written, a longer word, a later heading: none.
        for text in [
            &b"# Final ack card\n"[..],
            b"# own-og-prod-ack\n",
            b"# OWN-OG-PROD-ACK-2\n",
            b"Intro\n# OWN-OG-PROD-ACK\n",
        ] {
            assert_eq!(got(text), None, "{text:?}");
        }
        // One word is a word in capitals (`# STATUS`); a frontmatter name speaks first.
        assert_eq!(frontmatter_name("x/status.md", b"# STATUS\n", &cfg), None);
        let fm = b"---\nname: ack-card\n---\n# OWN-OG-PROD-ACK\n";
        assert_eq!(got(fm).as_deref(), Some("ack-card"));
    }

    #[test]
    fn a_frontmatter_name_is_a_name_when_new() {
        let cfg = Names::default();
        let agent = "plugins/incident-response/agents/debugger.md";
        let text = b"---\nname: incident-response-debugger\n---\n";
        assert_eq!(
            frontmatter_name(agent, text, &cfg).as_deref(),
            Some("incident-response-debugger")
        );
        let n = names_with(agent, Some("incident-response-debugger"), &cfg);
        assert_eq!(
            n.last(),
            Some(&(
                "incident-response-debugger".to_string(),
                NameKind::Frontmatter
            ))
        );
        assert_eq!(n.len(), 4, "{n:?}");
        // The same as a path name: nothing new.
        assert_eq!(
            frontmatter_name(agent, b"---\nname: debugger\n---\n", &cfg),
            None
        );
        assert_eq!(
            names_with(agent, Some("debugger"), &cfg),
            names_of(agent, &cfg)
        );
        let skill = "skills/postgresql/SKILL.md";
        assert_eq!(
            frontmatter_name(skill, b"---\nname: postgresql-table-design\n---\n", &cfg).as_deref(),
            Some("postgresql-table-design")
        );
        assert_eq!(
            frontmatter_name(skill, b"---\nname: postgresql\n---\n", &cfg),
            None
        );
    }

    #[test]
    fn frontmatter_names_follow_the_stem_rules_and_markdown_only() {
        let cfg = Names::default();
        // Too short, stoplisted.
        assert_eq!(
            frontmatter_name("a/x.md", b"---\nname: a\n---\n", &cfg),
            None
        );
        assert_eq!(
            frontmatter_name("a/x.md", b"---\nname: SKILL\n---\n", &cfg),
            None
        );
        // Not Markdown: a YAML file's `name:` is data.
        let yaml = b"---\nname: some-service\n---\n";
        assert_eq!(frontmatter_name("a/x.yaml", yaml, &cfg), None);
        assert_eq!(
            names_with("a/x.yaml", Some("some-service"), &cfg),
            names_of("a/x.yaml", &cfg)
        );
    }

    #[test]
    fn a_title_case_name_names_a_skill_an_agent_or_a_style_only() {
        let cfg = Names::default();
        let head = b"---\nname: Hook Development\n---\n";
        assert_eq!(
            frontmatter_name("p/skills/hook-development/SKILL.md", head, &cfg).as_deref(),
            Some("Hook Development")
        );
        assert_eq!(
            frontmatter_name("p/agents/x.md", head, &cfg).as_deref(),
            Some("Hook Development")
        );
        // An output style is chosen by its title.
        let style = b"---\nname: Marketing Strategist\n---\n";
        assert_eq!(
            frontmatter_name("output-styles/marketing-strategist.md", style, &cfg).as_deref(),
            Some("Marketing Strategist")
        );
        // An example page's title is no name of the page.
        assert_eq!(
            frontmatter_name("p/skills/x/references/testing.md", head, &cfg),
            None
        );
    }

    #[test]
    fn a_template_is_not_named_by_the_file_it_renders() {
        let n = names("state/docker/nftables.conf.template");
        assert!(!n.iter().any(|(x, _)| x == "nftables.conf"), "{n:?}");
        assert!(n.iter().any(|(x, _)| x == "nftables.conf.template"));
        assert!(!names(".env.example").iter().any(|(x, _)| x == ".env"));
        // Only a stem that is itself a file name: `Dockerfile.template` is still "Dockerfile".
        assert!(names("docker/Dockerfile.template")
            .iter()
            .any(|(x, k)| x == "Dockerfile" && *k == "stem"));
        assert!(names("lib/parser.tab.c")
            .iter()
            .any(|(x, _)| x == "parser.tab"));
    }

    #[test]
    fn stem_rules() {
        assert_eq!(stem_of("a.tar.gz"), "a.tar");
        assert_eq!(stem_of(".gitignore"), ".gitignore");
        assert_eq!(stem_of("Makefile"), "Makefile");
    }
}
