//! One file's mentions with their cues: what both the index and the live scan read from a
//! file's bytes, so that a live answer equals the index's.
//!
//! Owns the per-file reading of mentions (matches, qualified uses, names listed together); no
//! I/O, no database, no decision about bearers (that is `scan::refs`). Invariant: a mention's
//! cue depends only on the file's bytes, its path and the matcher's names.

use super::cue::{self, Cue};
use super::matcher::Matcher;
use super::matcher::{evidence_around, Mention};

/// Every mention of `matcher`'s names in `bytes` of the file at `path`, with its cue, ordered
/// by position: the matcher's matches, then (Python) the qualified uses of imported names.
/// Their `text` is empty: a caller cuts the evidence (`evidence`) of the ones it keeps.
pub fn mentions_in(matcher: &Matcher, bytes: &[u8], path: &str) -> Vec<(Mention, Cue)> {
    let langs = cue::FileLangs::of(path, bytes);
    let data = cue::is_data(path);
    let mut ms = matcher.spans(bytes);
    ms.sort_by_key(|m| (m.start, m.end));
    if is_manifest(path) {
        ms.retain(|m| !declares_name(bytes, m.start));
    }
    let mut out: Vec<(Mention, Cue)> = ms
        .into_iter()
        .map(|m| {
            let c = langs.cue(bytes, m.start, m.end, data);
            (m, c)
        })
        .collect();
    capitalized_list_heads(matcher, bytes, &langs, data, &mut out);
    listed_together(matcher, bytes, &mut out);
    if langs.base() == Some(cue::Lang::Python) {
        qualified(matcher, bytes, &mut out);
        one_per_line(&mut out);
    }
    out
}

/// A manifest (`plugin.json`, `marketplace.json`, `package.json`) declares names: its own, and
/// a marketplace its plugins'.
fn is_manifest(path: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    matches!(base, "plugin.json" | "marketplace.json" | "package.json")
}

/// Whether the occurrence at `start` is the value of a `"name"` key: the plugin or package is
/// called so, which refers to no file of that name (`"name": "c4-architecture"` is the plugin,
/// not its command `c4-architecture.md`).
fn declares_name(bytes: &[u8], start: usize) -> bool {
    let ls = memchr::memrchr(b'\n', &bytes[..start]).map_or(0, |i| i + 1);
    let before = bytes[ls..start].trim_ascii_end();
    let Some(before) = before.strip_suffix(b"\"") else {
        return false;
    };
    let before = before.trim_ascii_end();
    let Some(before) = before.strip_suffix(b":") else {
        return false;
    };
    before.trim_ascii_end().ends_with(b"\"name\"")
}

/// The evidence of a mention of `mentions_in`: the part of its line around it.
pub fn evidence(bytes: &[u8], m: &Mention) -> String {
    evidence_around(bytes, m.start, m.end)
}

/// A file mentions a name at most once per line (the index stores one mention per name and
/// line): an import or a qualified use of it wins over a bare word there (`x = copy  #
/// copy.copy(y)`), else the first one written.
fn one_per_line(found: &mut Vec<(Mention, Cue)>) {
    found.sort_by_key(|(m, c)| (m.name, m.line, c.bits & cue::IMPORT == 0, m.start));
    found.dedup_by_key(|(m, _)| (m.name, m.line));
    found.sort_by_key(|(m, _)| (m.start, m.end));
}

/// A name written in a run of names joined by `,`, `and`, `or`, `/` or `&` with a distinctive
/// one ("Brainstorming and systematic-debugging are …", "plan, review, ship-check") is a row
/// of a list of such names: it gets the `LIST` cue. Only bare names in prose count on either
/// side: a file name or a path says nothing of the words around it.
fn listed_together(matcher: &Matcher, bytes: &[u8], found: &mut [(Mention, Cue)]) {
    let bare = |m: &Mention, c: &Cue| {
        c.via.is_none()
            && c.bits & (cue::CODE_FILE | cue::URL | cue::MIDPATH | cue::IMPORT) == 0
            && !matcher.name(m.name).contains(['.', '/'])
    };
    let mut listed = vec![false; found.len()];
    for i in 1..found.len() {
        let (a, ca) = &found[i - 1];
        let (b, cb) = &found[i];
        if a.line != b.line || a.end > b.start || !bare(a, ca) || !bare(b, cb) {
            continue;
        }
        if !joins(&bytes[a.end..b.start]) {
            continue;
        }
        let distinct = |m: &Mention| matcher.is_distinctive(m.name);
        if distinct(b) {
            listed[i - 1] = true;
        }
        if distinct(a) {
            listed[i] = true;
        }
    }
    for ((_, c), l) in found.iter_mut().zip(listed) {
        if l {
            c.bits |= cue::LIST;
        }
    }
}

/// A sentence may start with a name capitalised ("Brainstorming and systematic-debugging are
/// …"): names are matched as written, so such a word is no mention, except as the head of a
/// list of names. A capitalised word at the start of a sentence, joined to a bare distinctive
/// name the way `listed_together` joins items, is a mention of its lower-case name (with the
/// cue of its place; `listed_together` then marks it a list row). Alone ("Implementer is …", a
/// title `# Checklist`), a capitalised word stays text.
fn capitalized_list_heads(
    matcher: &Matcher,
    bytes: &[u8],
    langs: &cue::FileLangs,
    data: bool,
    found: &mut Vec<(Mention, Cue)>,
) {
    let mut heads: Vec<(Mention, Cue)> = Vec::new();
    for (m, c) in found.iter() {
        let bare = c.via.is_none()
            && c.bits & (cue::CODE_FILE | cue::URL | cue::MIDPATH | cue::IMPORT) == 0
            && !matcher.name(m.name).contains(['.', '/']);
        if !bare || !matcher.is_distinctive(m.name) {
            continue;
        }
        let ls = memchr::memrchr(b'\n', &bytes[..m.start]).map_or(0, |i| i + 1);
        let Some((s, e)) = list_head_before(&bytes[ls..m.start]) else {
            continue;
        };
        let (s, e) = (ls + s, ls + e);
        let Ok(word) = std::str::from_utf8(&bytes[s..e]) else {
            continue;
        };
        let Some(id) = matcher.id_of(&word.to_ascii_lowercase()) else {
            continue;
        };
        if found.iter().any(|(x, _)| x.name == id && x.line == m.line) {
            continue;
        }
        let cue = langs.cue(bytes, s, e, data);
        let mention = Mention {
            name: id,
            line: m.line,
            text: String::new(),
            start: s,
            end: e,
        };
        heads.push((mention, cue));
    }
    if !heads.is_empty() {
        found.extend(heads);
        found.sort_by_key(|(m, _)| (m.start, m.end));
        found.dedup_by_key(|(m, _)| (m.name, m.line, m.start));
    }
}

/// In `before` (a line up to a name), the capitalised word (`Brainstorming`: a capital, then
/// no other) that starts the sentence and is joined to the name by a list joiner: its span.
fn list_head_before(before: &[u8]) -> Option<(usize, usize)> {
    let gap_start = |mut i: usize| {
        while i > 0 && !is_word(before[i - 1]) {
            i -= 1;
        }
        i
    };
    let word_start = |e: usize| {
        before[..e]
            .iter()
            .rposition(|b| !is_word(*b))
            .map_or(0, |i| i + 1)
    };
    let mut e = gap_start(before.len());
    let mut s = word_start(e);
    if matches!(&before[s..e], b"and" | b"or") {
        e = gap_start(s);
        s = word_start(e);
    }
    (capitalised(&before[s..e]) && joins(&before[e..]) && sentence_start(&before[..s]))
        .then_some((s, e))
}

/// `Brainstorming`: a capital, then no other.
fn capitalised(word: &[u8]) -> bool {
    word.len() >= 2
        && word[0].is_ascii_uppercase()
        && word[1..].iter().all(|b| !b.is_ascii_uppercase())
}

/// A byte of a word a list head may be: letters, digits, `-`, `_`.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_')
}

/// Whether `lead` (a line up to a word) puts the word at the start of a sentence: nothing but
/// list, quote, heading or emphasis markup before it, or the end of a sentence.
fn sentence_start(lead: &[u8]) -> bool {
    let markup = |b: &u8| {
        matches!(
            b,
            b' ' | b'\t' | b'-' | b'*' | b'+' | b'>' | b'#' | b'_' | b'`' | b'|' | b'.' | b')'
        ) || b.is_ascii_digit()
    };
    if lead.iter().all(markup) {
        return true;
    }
    let t = lead.trim_ascii_end();
    let t = &t[..t.len()
        - t.iter()
            .rev()
            .take_while(|b| matches!(b, b'*' | b'_' | b'`'))
            .count()];
    t.len() < lead.len() && matches!(t.last(), Some(b'.' | b'!' | b'?' | b':'))
}

/// Whether the bytes between two names join them as items of one list.
fn joins(gap: &[u8]) -> bool {
    let Ok(gap) = std::str::from_utf8(gap) else {
        return false;
    };
    let words =
        gap.trim_matches(|c: char| c.is_whitespace() || matches!(c, '`' | '*' | '_' | '"' | '\''));
    let lower = words.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "," | "and" | "or" | "/" | "&" | ", and" | ", or" | "+"
    ) || matches!(
        lower.trim_start_matches([',', ' ', '`', '*', '_', '"', '\'']),
        "and" | "or"
    ) && lower.starts_with(',')
}

/// Adds the qualified uses (`copy.deepcopy`) of the names the file's imports bind, each as a
/// mention of the module's name with the module as its written form; a use through a
/// submodule (`email.generator.BytesGenerator` after `import email`) also names the
/// submodule (`email/generator`). The matcher finds none of them: a name followed by `.` and a
/// letter is no whole name. A use inside a string or a comment is text, not a use.
///
/// A file keeps one mention of a name per line, so direct uses go first: a chain's word only
/// names a submodule on a line with no direct use of that name (`os.stat(p)` beside
/// `stat.S_IEXEC` is `stat`'s use, not a submodule `os/stat`).
fn qualified(matcher: &Matcher, bytes: &[u8], found: &mut Vec<(Mention, Cue)>) {
    // An import line's own mention counts; a bare identifier (`glob` in `glob.glob(p)`) does not.
    let mut seen: std::collections::HashSet<(u32, u32)> = found
        .iter()
        .filter(|(_, c)| c.bits & cue::IMPORT != 0)
        .map(|(m, _)| (m.name, m.line))
        .collect();
    let mut chained: Vec<(Mention, Cue)> = Vec::new();
    let mention = |id: u32, line: u32, s: usize, end: usize, module: String| {
        (
            Mention {
                name: id,
                line,
                text: String::new(),
                start: s,
                end,
            },
            Cue {
                bits: cue::CODE_FILE | cue::IMPORT | cue::QUALIFIED,
                via: Some(module),
            },
        )
    };
    let bindings = cue::python_bindings(bytes);
    if bindings.is_empty() {
        return;
    }
    // Line breaks once for all bindings: a use's line is how many come before it, plus one.
    let breaks: Vec<usize> = memchr::memchr_iter(b'\n', bytes).collect();
    for b in bindings {
        let last = b.module.rsplit('/').next().unwrap_or(&b.module);
        let top = matcher.id_of(last);
        for (s, e) in cue::qualified_uses(bytes, &b.bound) {
            let line = breaks.partition_point(|&p| p < s) as u32 + 1;
            if let Some(id) = top {
                if seen.insert((id, line)) {
                    found.push(mention(id, line, s, e, b.module.clone()));
                }
            }
            // Each submodule the chain names whose name some file bears: the decision keeps
            // the ones that lead to a file (`os.path` leads to none).
            let mut module = b.module.clone();
            for (word, end) in chain_words(bytes, e) {
                module = format!("{module}/{word}");
                if let Some(id) = matcher.id_of(word) {
                    chained.push(mention(id, line, s, end, module.clone()));
                }
            }
        }
    }
    for (m, c) in chained {
        if seen.insert((m.name, m.line)) {
            found.push((m, c));
        }
    }
}

/// The words after a qualified use's name (`generator`, `BytesGenerator` after `email` in
/// `email.generator.BytesGenerator`), each with where it ends.
fn chain_words(bytes: &[u8], mut end: usize) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    while bytes.get(end) == Some(&b'.') {
        let word_end = end
            + 1
            + bytes[end + 1..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
        match std::str::from_utf8(&bytes[end + 1..word_end]) {
            Ok(word) if !word.is_empty() => out.push((word, word_end)),
            _ => break,
        }
        end = word_end;
    }
    out
}

/// The words of qualified uses' chains in a Python file (`generator` in
/// `email.generator.X`): no whole names, followed by `.` and a letter.
pub fn chained_words<'h>(bytes: &'h [u8], path: &str) -> Vec<&'h str> {
    if cue::FileLangs::of(path, bytes).base() != Some(cue::Lang::Python) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for b in cue::python_bindings(bytes) {
        for (_, e) in cue::qualified_uses(bytes, &b.bound) {
            out.extend(chain_words(bytes, e).into_iter().map(|(w, _)| w));
        }
    }
    out
}

/// The words `mentions_in` may take as names that are no candidates of
/// `matcher::for_each_candidate`: the words of qualified uses' chains in a Python file (no
/// whole names: followed by `.` and a letter), and the lower-cased form of a capitalised word
/// that may head a list of names (`capitalized_list_heads`). A matcher built from only the
/// names a file holds must include these to find what a matcher over all names finds.
pub fn unseen_words(bytes: &[u8], path: &str) -> Vec<String> {
    let mut out: Vec<String> = chained_words(bytes, path)
        .into_iter()
        .map(str::to_string)
        .collect();
    // A superset of the list heads: every capitalised word that starts a sentence and is
    // followed by a list joiner.
    for line in bytes.split(|b| *b == b'\n') {
        let mut i = 0;
        while i < line.len() {
            if !is_word(line[i]) {
                i += 1;
                continue;
            }
            let s = i;
            while i < line.len() && is_word(line[i]) {
                i += 1;
            }
            let word = &line[s..i];
            if !capitalised(word) || !sentence_start(&line[..s]) {
                continue;
            }
            let rest = &line[i..];
            let rest = &rest[rest
                .iter()
                .take_while(|b| matches!(b, b'*' | b'_' | b'`' | b'"' | b'\''))
                .count()..];
            let joined = [&b","[..], b" and ", b" or ", b" /", b"/", b" &", b" +"]
                .iter()
                .any(|j| rest.starts_with(j));
            if joined {
                if let Ok(w) = std::str::from_utf8(word) {
                    out.push(w.to_ascii_lowercase());
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::matcher::Engine;

    /// `(name, line, cue bits, via)` of every mention of `names` in `text` of a file at `path`.
    fn found(names: &[&str], text: &str, path: &str) -> Vec<(String, u32, u16, Option<String>)> {
        let m = Matcher::new(names, Engine::Automaton).unwrap_or_else(|e| panic!("{e}"));
        mentions_in(&m, text.as_bytes(), path)
            .into_iter()
            .map(|(x, c)| (m.name(x.name).to_string(), x.line, c.bits, c.via))
            .collect()
    }

    fn listed(names: &[&str], text: &str, name: &str) -> bool {
        found(names, text, "a.md")
            .iter()
            .any(|(n, _, bits, _)| n == name && bits & cue::LIST != 0)
    }

    #[test]
    fn a_word_listed_with_a_distinctive_name_is_a_row_of_that_list() {
        let names = ["brainstorming", "systematic-debugging", "plan"];
        assert!(listed(
            &names,
            "Use brainstorming and systematic-debugging first.",
            "brainstorming"
        ));
        assert!(listed(
            &names,
            "see systematic-debugging, brainstorming",
            "brainstorming"
        ));
        assert!(listed(
            &names,
            "`brainstorming` / `systematic-debugging`",
            "brainstorming"
        ));
        assert!(listed(
            &names,
            "systematic-debugging, or brainstorming",
            "brainstorming"
        ));
        // Other words between them, or two plain words: no list of such names.
        assert!(!listed(
            &names,
            "brainstorming, writing and systematic-debugging",
            "brainstorming"
        ));
        assert!(!listed(&names, "brainstorming and plan", "brainstorming"));
        assert!(!listed(
            &names,
            "brainstorming then systematic-debugging",
            "brainstorming"
        ));
        // A file name beside it says nothing of the word.
        let names = ["brainstorming", "systematic-debugging.md"];
        assert!(!listed(
            &names,
            "brainstorming and systematic-debugging.md",
            "brainstorming"
        ));
    }

    #[test]
    fn a_capitalised_sentence_start_heads_a_list_of_names() {
        let names = [
            "brainstorming",
            "systematic-debugging",
            "implementer",
            "checklist",
        ];
        let text = "Brainstorming and systematic-debugging are first.";
        assert!(listed(&names, text, "brainstorming"));
        assert!(listed(
            &names,
            "- **Brainstorming**, `systematic-debugging`: both",
            "brainstorming"
        ));
        assert!(listed(
            &names,
            "Done. Brainstorming or systematic-debugging next.",
            "brainstorming"
        ));
        // Alone, in mid-sentence, or a title: the capitalised word stays text.
        for text in [
            "Implementer is capitalised here.",
            "# Checklist",
            "We like Brainstorming and systematic-debugging.",
            "Brainstorming then systematic-debugging.",
        ] {
            let got = found(&names, text, "a.md");
            assert!(
                got.iter().all(|(n, _, _, _)| n != "brainstorming"
                    && n != "implementer"
                    && n != "checklist"),
                "{text}: {got:?}"
            );
        }
    }

    #[test]
    fn a_manifest_declares_its_names() {
        let names = ["c4-architecture", "helper-x"];
        let text = "{\n  \"name\": \"c4-architecture\",\n  \"description\": \"uses helper-x\"\n}\n";
        let got = found(&names, text, ".claude-plugin/marketplace.json");
        assert!(
            got.iter().all(|(n, _, _, _)| n != "c4-architecture"),
            "{got:?}"
        );
        assert!(got.iter().any(|(n, _, _, _)| n == "helper-x"), "{got:?}");
        // Elsewhere a `name` key may well refer to an agent (a team's config).
        let got = found(&names, text, "team/config.json");
        assert!(
            got.iter().any(|(n, _, _, _)| n == "c4-architecture"),
            "{got:?}"
        );
    }

    #[test]
    fn a_qualified_use_names_the_submodule_it_goes_through() {
        let text = "import email\n\ngen = email.generator.BytesGenerator(buf)\n";
        let got = found(&["email", "generator"], text, "mailbox.py");
        assert!(got.contains(&(
            "generator".into(),
            3,
            cue::CODE_FILE | cue::IMPORT | cue::QUALIFIED,
            Some("email/generator".into())
        )));
        assert!(got
            .iter()
            .any(|(n, l, _, v)| n == "email" && *l == 3 && v.as_deref() == Some("email")));
        // `os.stat` leads to no file `os/stat`; it does not hide the use of `stat` beside it.
        let text = "import os\nimport stat\nm = os.stat(p).st_mode | stat.S_IEXEC\nif stat.S_ISSOCK(os.stat(p).st_mode): pass\n";
        let got = found(&["os", "stat"], text, "zipapp.py");
        for line in [3, 4] {
            assert!(
                got.iter()
                    .any(|(n, l, _, v)| n == "stat" && *l == line && v.as_deref() == Some("stat")),
                "{got:?}"
            );
        }
    }

    #[test]
    fn a_name_is_mentioned_once_per_line_its_use_first() {
        // A distinctive name in a comment is kept as prose; its qualified use on the same line
        // is the one mention of that line.
        let text = "import helpers_lib\nx = helpers_lib.run()  # helpers_lib does it\n";
        let got = found(&["helpers_lib"], text, "a.py");
        let on_2: Vec<_> = got.iter().filter(|(_, l, _, _)| *l == 2).collect();
        assert_eq!(on_2.len(), 1, "{got:?}");
        assert!(on_2[0].2 & cue::QUALIFIED != 0, "{got:?}");
    }

    #[test]
    fn a_qualified_name_in_a_string_or_comment_is_no_use() {
        let text = "import http\nsys.audit(\"http.client.connect\", h)\n# http.client is used\nx = http.client.HTTPConnection\n";
        let got = found(&["http", "client"], text, "a.py");
        let lines: Vec<u32> = got
            .iter()
            .filter(|(_, _, bits, _)| bits & cue::QUALIFIED != 0)
            .map(|(_, l, _, _)| *l)
            .collect();
        assert!(
            !lines.is_empty() && lines.iter().all(|l| *l == 4),
            "{got:?}"
        );
    }
}
