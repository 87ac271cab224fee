//! Boundary and selection rules of the matcher, run against both engines.

use super::*;

fn found(names: &[&str], text: &[u8]) -> Vec<Vec<(String, u32)>> {
    [Engine::Automaton, Engine::Dfa, Engine::Lookup]
        .iter()
        .map(|&engine| {
            let m = Matcher::new(names, engine).unwrap_or_else(|e| panic!("{e}"));
            m.mentions(text)
                .into_iter()
                .map(|x| (m.name(x.name).to_string(), x.line))
                .collect()
        })
        .collect()
}

/// The mentions, asserting every engine agrees.
fn one(names: &[&str], text: &str) -> Vec<String> {
    bytes(names, text.as_bytes())
}

fn bytes(names: &[&str], text: &[u8]) -> Vec<String> {
    let all = found(names, text);
    for other in &all[1..] {
        assert_eq!(&all[0], other, "engines disagree on {text:?}");
    }
    all[0].iter().map(|(n, _)| n.clone()).collect()
}

#[test]
fn dot_after_name_counts_only_before_a_letter_or_digit() {
    let n = ["settings.json"];
    assert!(one(&n, "backup in settings.json.bak").is_empty());
    assert_eq!(one(&n, "see settings.json."), vec!["settings.json"]);
    assert_eq!(one(&n, "see settings.json.\nnext"), vec!["settings.json"]);
    assert_eq!(one(&n, "(settings.json)"), vec!["settings.json"]);
    assert_eq!(one(&n, "settings.json"), vec!["settings.json"]);
}

#[test]
fn name_inside_a_longer_word_is_not_a_mention() {
    let n = ["implementer", "infra-implementer"];
    assert_eq!(
        one(&n, "use infra-implementer now"),
        vec!["infra-implementer"]
    );
    assert_eq!(one(&n, "use implementer now"), vec!["implementer"]);
    assert!(one(&n, "implementers and reimplementer and implementer_x").is_empty());
    assert!(one(&["implementer"], "infra-implementer").is_empty());
}

#[test]
fn shorter_name_holds_when_the_longest_fails_its_boundary() {
    let n = ["execution-code", "execution-code/SKILL.md"];
    assert_eq!(
        one(&n, "see execution-code/SKILL.mdx"),
        vec!["execution-code"]
    );
    assert_eq!(
        one(&n, "see execution-code/SKILL.md here"),
        vec!["execution-code/SKILL.md"]
    );
}

#[test]
fn occurrence_inside_a_longer_valid_one_is_not_separate() {
    let n = [
        ".claude/agents/implementer.md",
        "implementer.md",
        "implementer",
        "agents",
    ];
    assert_eq!(
        one(&n, "run /home/u/p/.claude/agents/implementer.md please"),
        vec![".claude/agents/implementer.md"]
    );
    assert_eq!(
        one(&n, "implementer.md and implementer"),
        vec!["implementer.md", "implementer"]
    );
}

#[test]
fn paths_with_spaces_and_leading_dots() {
    let n = ["my notes/plan file.md", "plan file.md", ".claude/x.md"];
    assert_eq!(
        one(&n, "open \"my notes/plan file.md\" now"),
        vec!["my notes/plan file.md"]
    );
    assert_eq!(one(&n, "see plan file.md"), vec!["plan file.md"]);
    assert_eq!(one(&n, "at ~/.claude/x.md"), vec![".claude/x.md"]);
}

#[test]
fn non_utf8_bytes_are_fine() {
    let n = ["hooks.sh", "guard.sh"];
    let text = b"\xff\xfe guard.sh \x80\nline two hooks.sh\xc3";
    assert_eq!(bytes(&n, text), vec!["guard.sh", "hooks.sh"]);
    let m = Matcher::new(&n, Engine::Lookup).unwrap_or_else(|e| panic!("{e}"));
    let ms = m.mentions(text);
    assert_eq!(ms[0].line, 1);
    assert_eq!(ms[1].line, 2);
    assert!(ms[0].text.contains("guard.sh"));
}

#[test]
fn one_mention_per_name_and_line_with_trimmed_text() {
    let n = ["alpha.md"];
    let text = "  alpha.md alpha.md  \n\nx alpha.md";
    let m = Matcher::new(&n, Engine::Automaton).unwrap_or_else(|e| panic!("{e}"));
    let ms = m.mentions(text.as_bytes());
    assert_eq!(ms.len(), 2);
    assert_eq!((ms[0].line, ms[0].text.as_str()), (1, "alpha.md alpha.md"));
    assert_eq!((ms[1].line, ms[1].text.as_str()), (3, "x alpha.md"));
}

#[test]
fn evidence_is_cut_on_a_char_boundary() {
    let line = format!("{} name.md", "é".repeat(300));
    let t = evidence_around(line.as_bytes(), line.len() - 7, line.len());
    assert!(t.ends_with("name.md"), "{t}");
    assert!(
        t.chars().count() <= MAX_TEXT_CHARS + 1,
        "{}",
        t.chars().count()
    );
}

#[test]
fn generic_tail_alone_is_not_a_mention() {
    let n = ["skills/review/SKILL.md", "review/SKILL.md", "review"];
    assert!(one(&n, "every SKILL.md file").is_empty());
    assert_eq!(one(&n, "see review/SKILL.md"), vec!["review/SKILL.md"]);
    assert_eq!(
        one(&n, "see skills/review/SKILL.md"),
        vec!["skills/review/SKILL.md"]
    );
    assert_eq!(one(&n, "the review skill"), vec!["review"]);
}

#[test]
fn any_valid_sees_only_valid_occurrences() {
    let m = Matcher::new(&["settings.json"], Engine::Automaton).unwrap_or_else(|e| panic!("{e}"));
    assert!(!m.any_valid(b"settings.json.bak"));
    assert!(m.any_valid(b"x settings.json"));
}

#[test]
fn a_tail_ending_inside_a_longer_tail_is_no_occurrence() {
    // The automaton's state after `ab` also lists `b` (a suffix); it did not start at `a`.
    for engine in [Engine::Automaton, Engine::Dfa] {
        let m = Matcher::new(&["ab", "b", "x/b"], engine).unwrap_or_else(|e| panic!("{e}"));
        let ab = m.id_of("ab").unwrap_or(u32::MAX);
        assert_eq!(m.occurrences(b"ab", false), vec![(0, 2, ab)]);
        assert!(!m.any_valid(b"zab"));
        let mut got = m.occurrences(b"ab x/b", false);
        got.sort_unstable();
        let (b, xb) = (m.id_of("b"), m.id_of("x/b"));
        assert_eq!(
            got,
            vec![(0, 2, ab), (3, 6, xb.unwrap_or(0)), (5, 6, b.unwrap_or(0))]
        );
    }
}

#[test]
fn a_role_noun_is_found_capitalised_too() {
    let n = ["observer", "gen", "code-review", "Readme", "status"];
    // Capitalised: the lower-case name, on every engine.
    assert_eq!(one(&n, "Observer started."), vec!["observer"]);
    // Only the first letter: `OBSERVER` and `ObServer` are other words.
    assert!(one(&n, "OBSERVER ObServer").is_empty());
    // No role noun (the only name a capitalised word may name bare), or not one word.
    assert!(one(&n, "Gen Code-review Status").is_empty());
    // A written name keeps its own case.
    assert_eq!(one(&n, "see Readme"), vec!["Readme"]);
    // Whole words only, as for any name.
    assert!(one(&n, "Observers ObserverX").is_empty());
}

#[test]
fn a_compound_role_noun_is_found_in_title_case() {
    let n = [
        "meta-agent",
        "trend-researcher",
        "code-review",
        "ai2-engineer",
    ];
    assert_eq!(one(&n, "### The Meta-Agent"), vec!["meta-agent"]);
    assert_eq!(
        one(&n, "- Trend-Researcher: validate"),
        vec!["trend-researcher"]
    );
    assert_eq!(one(&n, "Ai2-Engineer"), vec!["ai2-engineer"]);
    // At a sentence's start, the first letter only.
    assert_eq!(one(&n, "Meta-agent writes them."), vec!["meta-agent"]);
    // Not a role noun, or neither form.
    assert!(one(&n, "Code-Review Code-review META-AGENT MeTa-agent").is_empty());
}

#[test]
fn a_conventional_file_name_is_found_alone_or_after_relative_steps_only() {
    let m = Matcher::new(&["kit/config.json", "notes.md"], Engine::Automaton)
        .unwrap_or_else(|e| panic!("{e}"));
    let spans = |t: &str| -> Vec<(String, Option<String>)> {
        m.generic_spans(t.as_bytes())
            .into_iter()
            .map(|(s, e, g, steps)| {
                assert_eq!(&t[s..e], g);
                (g.to_string(), steps)
            })
            .collect()
    };
    let c = || "config.json".to_string();
    assert_eq!(spans("put it in `config.json`."), vec![(c(), None)]);
    assert_eq!(
        spans("\"${DIR}/../config.json\""),
        vec![(c(), Some("../".into()))]
    );
    assert_eq!(spans("$DIR/config.json"), vec![(c(), Some(String::new()))]);
    assert_eq!(spans("./config.json"), vec![(c(), Some("./".into()))]);
    // Another folder's, a root path, a longer word, a name of its own: none.
    for t in [
        "kit/config.json",
        "/config.json",
        "'{}/config.json'",
        "myconfig.json",
        "config.jsonx",
        "notes.md",
    ] {
        assert!(spans(t).is_empty(), "{t}");
    }
}

#[test]
fn a_compound_name_in_title_case_is_found_in_lower_case() {
    let n = ["Security-Auditor", "Builder", "Doc-writer"];
    assert_eq!(
        one(&n, "subagent_type=\"security-auditor\""),
        vec!["Security-Auditor"]
    );
    assert_eq!(one(&n, "the Security-Auditor"), vec!["Security-Auditor"]);
    // One word, or a name not in title case, keeps its own case.
    assert!(one(&n, "builder doc-writer SECURITY-AUDITOR").is_empty());
}
