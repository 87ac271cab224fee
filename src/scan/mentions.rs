//! One file's mentions with their cues: what both the index and the live scan read from a
//! file's bytes, so that a live answer equals the index's.
//!
//! Owns the per-file reading of mentions (matches, qualified uses, names listed together); no
//! I/O, no database, no decision about bearers (that is `scan::refs`). Invariant: a mention's
//! cue depends only on the file's bytes, its path and the matcher's names.

use super::cue::{self, Cue};
use super::matcher::Matcher;
use super::matcher::{evidence_around, FnvMap, Mention};
use super::resolve::dir_of;

/// Every mention of `matcher`'s names in `bytes` of the file at `path`, with its cue, ordered
/// by position: the matcher's matches, then (Python) the qualified uses of imported names.
/// Their `text` is empty: a caller cuts the evidence (`evidence`) of the ones it keeps.
pub fn mentions_in(matcher: &Matcher, bytes: &[u8], path: &str) -> Vec<(Mention, Cue)> {
    let langs = cue::FileLangs::of(path, bytes);
    let data = cue::is_data(path);
    let mut ms = matcher.every_span(bytes);
    let tails = path_tails(matcher, bytes, in_plugins_folder(path), &mut ms);
    ms.sort_by_key(|m| (m.start, m.end));
    if is_manifest(path) {
        ms.retain(|m| !declares_name(bytes, m.start));
    }
    // A file name closing a longer dotted one (`en.json` in `source-catalog.en.json`,
    // `config.json` in `app.config.json`) is that other file's name, not this one's. (A
    // Python module written with its package and its extension, `sympy.physics.actuator.py`,
    // is the module.)
    // Nor is one after a wildcard's dot (`*.test.sh`): the closing part of many files' names,
    // a pattern, not the file `test.sh`. (After a bare dot it may be a dotfile's name,
    // `.gitlab-ci.yml` rendered from a template `gitlab-ci.yml`.)
    ms.retain(|m| {
        let name = matcher.name(m.name);
        let after_dot = m.start >= 2 && bytes[m.start - 1] == b'.' && name.contains('.');
        !(after_dot
            && match bytes[m.start - 2] {
                b if crate::scan::matcher::is_name_byte(b) => !name.ends_with(".py"),
                b'*' => true,
                _ => false,
            })
    });
    // A document's own `name:` in its frontmatter declares its name: no mention of anything
    // (a skill's variant `SKILL.v1-yolo.md` declaring `name: x` does not name `x/SKILL.md`).
    let own_name = crate::scan::frontmatter::applies_to(path)
        .then(|| crate::scan::frontmatter::name_line(bytes))
        .flatten();
    if let Some(r) = own_name {
        ms.retain(|m| !r.contains(&m.start));
    }
    if data {
        ms.retain(|m| !in_keywords(bytes, m.start));
    } else {
        ms.retain(|m| !in_keyword_line(bytes, m.start));
    }
    // A plain word that is a data file's key (`"observer": {`, `observer:`), or a quoted key
    // anywhere (JSON in a Markdown example), names a field, not the file that bears the word.
    ms.retain(|m| {
        matcher.is_distinctive(m.name)
            || !(data && is_key(bytes, m.end) || is_quoted_key(bytes, m.start, m.end))
    });
    let mut out: Vec<(Mention, Cue)> = ms
        .into_iter()
        .map(|m| {
            let mut c = langs.cue(bytes, m.start, m.end, data);
            if tails.contains(&(m.start, m.name)) {
                c.bits |= cue::TAIL;
            }
            (m, c)
        })
        .collect();
    // A Python docstring's lines are prose, though no quote is on them: there a module may be
    // named as in a comment ("use xml.dom.minidom instead"), and so may a distinctive name
    // ("Linear Todo Sync Script"). Its plain words stay the code's (restored below): stored,
    // they cost the Python library a third more rows, and no file takes them bare there.
    let python = langs.base() == Some(cue::Lang::Python);
    let long_strings = if python {
        cue::python_long_strings(bytes)
    } else {
        Vec::new()
    };
    let mut in_docstrings: std::collections::HashSet<usize> = std::collections::HashSet::new();
    for (m, c) in out.iter_mut() {
        if c.bits & cue::CODE_FILE != 0 && cue::inside(&long_strings, m.start) {
            c.bits &= !cue::CODE_FILE;
            in_docstrings.insert(m.start);
        }
    }
    tree_entries(bytes, path, &mut out);
    capitalized_list_heads(matcher, bytes, &langs, data, &mut out);
    capitalised_kinds(matcher, bytes, &langs, data, &mut out);
    // A capitalised word heads list items, table cells and titles ("- Status: PASS", "##
    // Evolve Command", "Planner Agent" of another harness) and labels in code spans
    // (`` `Research → Plan → Execute` ``, `## Command: Status`) as a word, not a name: there its
    // place is no cue. It may still be a row of a list of names (`listed_together`).
    // Within a sentence, a capitalised role noun is a proper name ("that's Engineer", "(Designer)"),
    // as persona agents are written.
    // A compound in title case (`Meta-Agent`) is the name dressed for a title, not a word.
    for (m, c) in out.iter_mut() {
        let written_lower = matcher.name(m.name).as_bytes()[0].is_ascii_lowercase();
        if !written_lower && bytes[m.start].is_ascii_lowercase() {
            c.bits |= cue::LOWERED;
        }
        if bytes[m.start].is_ascii_uppercase()
            && matcher.name(m.name).bytes().any(|b| b.is_ascii_lowercase())
            && !written_lower
            && within_sentence(bytes, m.start)
        {
            c.bits |= cue::PROPER;
        }
        if written_lower
            && bytes[m.start].is_ascii_uppercase()
            && !bytes[m.start..m.end].contains(&b'-')
            && !within_sentence(bytes, m.start)
            && !whole_item(bytes, m.start, m.end)
        {
            c.bits |= cue::CAPITAL;
            // (The kind said right after it stays: "Planner Agent" is the planner agent.)
            let said = cue::kind_after(bytes, m.end) != 0;
            let entity = if said { 0 } else { cue::ENTITY };
            c.bits &= !(cue::LIST | entity | cue::CODE | cue::QUOTED | cue::KEY);
        }
    }
    name_columns(matcher, bytes, &mut out);
    listed_together(matcher, bytes, &mut out);
    foreign_columns(matcher, bytes, &mut out);
    slashed_lists(matcher, &mut out);
    folder_links(matcher, bytes, path, &mut out);
    generic_paths(matcher, bytes, path, &mut out);
    if langs.base() == Some(cue::Lang::Shell) {
        shell_variables(bytes, &mut out);
    }
    let code = langs.base().is_some_and(|l| l != cue::Lang::Shell);
    generic_near(matcher, bytes, path, code, &mut out);
    if langs.base() == Some(cue::Lang::Script) {
        script_uses(matcher, bytes, &mut out);
        path_joins(bytes, false, &mut out);
    }
    for &(s, e, lang) in langs.fences() {
        if lang == cue::Lang::Script {
            package_members(matcher, bytes, s, e, &mut out);
        }
    }
    if python {
        qualified(matcher, bytes, path, &long_strings, &mut out);
        dotted_module_strings(bytes, &mut out);
        if path == "__init__.py" || path.ends_with("/__init__.py") {
            exported_submodules(bytes, &mut out);
        }
        patched_internals(matcher, bytes, &mut out);
        path_joins(bytes, true, &mut out);
        modules_named_in_prose(bytes, &mut out);
        for (m, c) in out.iter_mut() {
            let plain = || !matcher.is_distinctive(m.name);
            if c.via.is_none() && in_docstrings.contains(&m.start) && plain() {
                c.bits |= cue::CODE_FILE;
            }
        }
    }
    one_per_line(matcher, bytes, path, &mut out);
    extension_braces(matcher, bytes, &mut out);
    out
}

/// A path closed by a set of extensions (`scripts/stow-claude.{sh,fish,ps1}`) is each file it
/// expands to, as a shell reads it: one mention per extension, each its own written path.
fn extension_braces(matcher: &Matcher, bytes: &[u8], found: &mut Vec<(Mention, Cue)>) {
    let set_at = |end: usize| {
        let rest = bytes[end..].strip_prefix(b".{")?;
        let close = rest.iter().position(|b| *b == b'}')?;
        let set = &rest[..close];
        let plain = set.iter().all(|b| b.is_ascii_alphanumeric() || *b == b',');
        (plain && set.contains(&b',')).then_some(set)
    };
    if !found.iter().any(|(m, _)| set_at(m.end).is_some()) {
        return;
    }
    let mut out = Vec::with_capacity(found.len());
    for (m, c) in found.drain(..) {
        let via = c.via.as_deref().filter(|v| {
            v.contains('/') && v.ends_with(matcher.name(m.name)) && !v.contains(['{', '*'])
        });
        match (via, set_at(m.end)) {
            (Some(via), Some(set)) => {
                let via = via.to_string();
                for ext in set.split(|b| *b == b',').filter(|e| !e.is_empty()) {
                    let ext = String::from_utf8_lossy(ext);
                    let cue = Cue {
                        bits: c.bits,
                        via: Some(format!("{via}.{ext}")),
                    };
                    out.push((m.clone(), cue));
                }
            }
            _ => out.push((m, c)),
        }
    }
    *found = out;
}

/// Adds to `ms` the file name closing each written path in which a shorter path, another
/// file's whole path, was the longest name found (`templates/claude/agents/x.md` holding
/// `agents/x.md`), and returns where they are (`cue::TAIL`). Not after `./` or `../`, or at a
/// path's start, where the name found is the path written: except in a plugin's file
/// (`plugin`), whose path from a root may lead to the plugin's own copy of the file
/// (`scan::refs::decide_path`), which the file name then names.
fn path_tails(
    matcher: &Matcher,
    bytes: &[u8],
    plugin: bool,
    ms: &mut Vec<Mention>,
) -> Vec<(usize, u32)> {
    let mut tails = Vec::new();
    for m in ms.iter() {
        let name = matcher.name(m.name);
        let Some((_, base)) = name.rsplit_once('/') else {
            continue;
        };
        let folder_before = m.start >= 2
            && bytes[m.start - 1] == b'/'
            && !matches!(
                bytes[m.start - 2],
                b'.' | b'/' | b' ' | b'\t' | b'"' | b'\'' | b'`' | b'('
            );
        let path_start = m.start == 0 || !cue::is_path_byte(bytes[m.start - 1]);
        if !(folder_before || plugin && path_start) {
            continue;
        }
        if let Some(id) = matcher.id_of(base) {
            tails.push(Mention {
                name: id,
                line: m.line,
                text: String::new(),
                start: m.end - base.len(),
                end: m.end,
            });
        }
    }
    let at: Vec<(usize, u32)> = tails.iter().map(|t| (t.start, t.name)).collect();
    ms.extend(tails);
    at
}

/// Whether the file at `path` lies in a marketplace's plugin folder (`plugins/<p>/…`), as far
/// as its path says (`refs::plugin_of` asking nothing of the disk: no I/O here).
fn in_plugins_folder(path: &str) -> bool {
    super::refs::plugin_of(path, &|_: &str| super::refs::OnDisk::Missing).is_some()
}

/// Whether the name at `start..end` is a list item all by itself, or with a parenthesis after
/// it (`- Builder`, `1. **Reviewer** (docs)`): an entry of a list of names, where a capital is
/// the list's style. (A table cell alone may be a column's title.)
fn whole_item(bytes: &[u8], start: usize, end: usize) -> bool {
    let ls = memchr::memrchr(b'\n', &bytes[..start]).map_or(0, |i| i + 1);
    let le = memchr::memchr(b'\n', &bytes[end..]).map_or(bytes.len(), |i| end + i);
    let line = &bytes[ls..le];
    if line.trim_ascii_start().starts_with(b"|") || !cue::starts_item(line, start - ls) {
        return false;
    }
    let tail = bytes[end..le].trim_ascii_end();
    let tail = &tail[tail
        .iter()
        .take_while(|b| matches!(b, b'*' | b'_' | b'`'))
        .count()..];
    tail.is_empty() || tail.starts_with(b" (") && tail.ends_with(b")")
}

/// Whether the word at `start` follows a lower-case word, a comma or an opening parenthesis
/// on its line: inside a sentence, not at its start, a title's or a list item's head, nor in a
/// title-case phrase.
fn within_sentence(bytes: &[u8], start: usize) -> bool {
    let before = &bytes[..start];
    let line = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(before, |i| &before[i + 1..]);
    if line.trim_ascii_start().starts_with(b"#") {
        return false;
    }
    let lead = line.trim_ascii_end();
    match lead.last() {
        // A lower-case word before it, not a title-case phrase ("a Product Planner", "VS Code
        // Debugger": another thing's name).
        Some(b) if b.is_ascii_lowercase() && line.ends_with(b" ") => {
            let word = lead.rsplit(|b| *b == b' ').next().unwrap_or(lead);
            word.iter()
                .find(|b| b.is_ascii_alphabetic())
                .is_some_and(|b| b.is_ascii_lowercase())
        }
        Some(b',' | b'(') => true,
        _ => false,
    }
}

/// The branch marks of a drawn directory tree (`├── x`, `└── x`, `|-- x`, `` `-- x ``).
const TREE_MARKS: [&[u8]; 4] = ["├── ".as_bytes(), "└── ".as_bytes(), b"|-- ", b"`-- "];

/// A file drawn in a directory tree is the file its branch leads to: its written form becomes
/// the path of the folders above it in the drawing (`common/` then `│   ├── testing.md` is
/// `common/testing.md`, under the tree's root line `rules/` if there is one). Resolution then
/// finds the file that path leads to, and no other file of that name: a tree of an imagined
/// plugin (`my-plugin/hooks/validate-write.sh`) names no real file.
fn tree_entries(bytes: &[u8], writer: &str, found: &mut [(Mention, Cue)]) {
    if found.is_empty()
        || !TREE_MARKS
            .iter()
            .any(|m| memchr::memmem::find(bytes, m).is_some())
    {
        return;
    }
    let entries = drawn_paths(bytes);
    if entries.is_empty() {
        return;
    }
    // A drawing whose root line holds the writer itself (`├── CLAUDE.md  # This file` under
    // `my-repo/`) draws the writer's folder, under whatever name: its entries lead from there.
    let own = writer.rsplit('/').next().unwrap_or(writer);
    let own_drawings: std::collections::HashSet<u32> = entries
        .iter()
        .filter_map(|e| {
            let (_, rest) = e.3.split_once('/')?;
            e.4.filter(|_| rest == own)
        })
        .collect();
    for (m, c) in found.iter_mut() {
        let Ok(i) = entries.binary_search_by_key(&m.line, |e| e.0) else {
            continue;
        };
        let (_, start, end, ref path, rooted) = entries[i];
        // The entry's own file name, written without folders of its own.
        if m.end == end
            && m.start >= start
            && (c.via.is_none() || c.via.as_deref() == std::str::from_utf8(&bytes[start..end]).ok())
        {
            c.via = Some(match (rooted, path.split_once('/')) {
                (Some(d), Some((_, rest))) if own_drawings.contains(&d) => format!("./{rest}"),
                (Some(_), Some(_)) => {
                    c.bits |= cue::DRAWN;
                    path.clone()
                }
                _ => path.clone(),
            });
        }
    }
}

/// Each drawn tree entry that is a file: `(line, start, end, path, rooted)`, the path joined
/// from the folders drawn above it; `rooted` (the drawing's number) when it starts with the
/// drawing's root line (`my-plugin/` above the first branch).
fn drawn_paths(bytes: &[u8]) -> Vec<(u32, usize, usize, String, Option<u32>)> {
    let mut out = Vec::new();
    let mut rooted: Option<u32> = None;
    let mut drawings = 0u32;
    // Folders open above the current line: (column of the name, name).
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut prev_plain: Option<String> = None;
    let mut in_tree = false;
    let mut ls = 0usize;
    for (no, line) in bytes.split(|b| *b == b'\n').enumerate() {
        let line_start = ls;
        ls += line.len() + 1;
        let mark = TREE_MARKS
            .iter()
            .filter_map(|m| memchr::memmem::find(line, m).map(|i| i + m.len()))
            .min();
        let Some(col) = mark else {
            let t = line.trim_ascii();
            // A bar alone continues the drawing; anything else ends it, and a lone folder
            // (`rules/`) may be the root of the next one.
            let bar_only =
                !t.is_empty() && t.iter().all(|b| matches!(b, b'|' | b' ') || !b.is_ascii());
            if !bar_only {
                in_tree = false;
                stack.clear();
                prev_plain = std::str::from_utf8(t)
                    .ok()
                    .filter(|w| w.ends_with('/') && !w.contains(' ') && w.len() > 1)
                    .map(|w| w.trim_end_matches('/').to_string());
            }
            continue;
        };
        if !in_tree {
            in_tree = true;
            stack.clear();
            rooted = None;
            drawings += 1;
            if let Some(root) = prev_plain.take() {
                stack.push((0, root));
                rooted = Some(drawings);
            }
        }
        let rest = &line[col..];
        let len = rest
            .iter()
            .position(|b| b.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let token = &rest[..len];
        let Ok(name) = std::str::from_utf8(token) else {
            continue;
        };
        while stack.len() > 1 && stack.last().is_some_and(|(c, _)| *c >= col)
            || stack.len() == 1 && stack[0].0 >= col
        {
            stack.pop();
        }
        if let Some(dir) = name.strip_suffix('/') {
            stack.push((col, dir.to_string()));
            continue;
        }
        if name.is_empty() {
            continue;
        }
        let mut path: Vec<&str> = stack.iter().map(|(_, d)| d.as_str()).collect();
        path.push(name);
        out.push((
            no as u32 + 1,
            line_start + col,
            line_start + col + len,
            path.join("/"),
            rooted,
        ));
        // A name drawn without `/` may still be a folder: its children come deeper.
        stack.push((col, name.to_string()));
    }
    out
}

/// Whether the word at `start..end` is written as a JSON key: `"word":`.
fn is_quoted_key(bytes: &[u8], start: usize, end: usize) -> bool {
    start > 0 && bytes[start - 1] == b'"' && bytes[end..].starts_with(b"\":")
}

/// Whether the word ending at `end` is a key: a quote (if any), then `:`.
fn is_key(bytes: &[u8], end: usize) -> bool {
    let rest = &bytes[end..];
    let rest = rest
        .strip_prefix(b"\"")
        .or_else(|| rest.strip_prefix(b"'"))
        .unwrap_or(rest);
    rest.first() == Some(&b':')
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

/// Whether the occurrence at `start` is an item of a data file's `keywords` (or `tags`) list:
/// words to find a package or a page by (`"confidence-check"` among a plugin's keywords, `-
/// token-caching` under a doc index's `keywords:`), not references to the files of those names.
fn in_keywords(bytes: &[u8], start: usize) -> bool {
    // JSON or flow YAML: `"keywords": [ …, "x"`.
    if let Some(open) = memchr::memrchr2(b'[', b']', &bytes[..start]).filter(|i| bytes[*i] == b'[')
    {
        let before = bytes[..open].trim_ascii_end();
        let ls = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        if before
            .strip_suffix(b":")
            .is_some_and(|k| is_keyword_key(&k[ls.min(k.len())..]))
        {
            return true;
        }
    }
    // Block YAML: `keywords:` over a run of `- x` items at one indent.
    let ls = memchr::memrchr(b'\n', &bytes[..start]).map_or(0, |i| i + 1);
    let item = |line: &[u8]| line.trim_ascii_start().starts_with(b"- ");
    if !item(&bytes[ls..start]) {
        return false;
    }
    let mut end = ls;
    for _ in 0..200 {
        let Some(prev_end) = end.checked_sub(1) else {
            return false;
        };
        let ps = memchr::memrchr(b'\n', &bytes[..prev_end]).map_or(0, |i| i + 1);
        let prev = &bytes[ps..prev_end];
        if !item(prev) {
            return prev
                .trim_ascii_end()
                .strip_suffix(b":")
                .is_some_and(is_keyword_key);
        }
        end = ps;
    }
    false
}

/// A key whose list holds words, not names: `keywords`, `tags`, `help_words`.
fn is_keyword_key(key: &[u8]) -> bool {
    let key = key.trim_ascii();
    let key = key
        .strip_prefix(b"\"")
        .and_then(|k| k.strip_suffix(b"\""))
        .unwrap_or(key);
    key == b"keywords" || key == b"tags" || key.ends_with(b"_words")
}

/// Whether the mention at `start` of a document or a script is in a one-line list of words
/// (`keywords: ["understand", "explain"]`, `help_words: [...]`), as `in_keywords` for a data
/// file (only its line is read: a document holds few).
fn in_keyword_line(bytes: &[u8], start: usize) -> bool {
    let ls = memchr::memrchr(b'\n', &bytes[..start]).map_or(0, |i| i + 1);
    let line = &bytes[ls..start];
    let Some(open) = memchr::memrchr2(b'[', b']', line).filter(|i| line[*i] == b'[') else {
        return false;
    };
    let before = line[..open].trim_ascii_end();
    before.strip_suffix(b":").is_some_and(|k| {
        let ks = k
            .iter()
            .rposition(|b| matches!(b, b' ' | b'\t' | b'{' | b','))
            .map_or(0, |i| i + 1);
        is_keyword_key(&k[ks..])
    })
}

/// The evidence of a mention of `mentions_in`: the part of its line around it.
pub fn evidence(bytes: &[u8], m: &Mention) -> String {
    evidence_around(bytes, m.start, m.end)
}

/// A file mentions a name at most once per line: the occurrence that says most of how the name
/// is used speaks for the line (`telling`: an import or a qualified use over a bare word, `x =
/// copy  # copy.copy(y)`; `/plan` over "make a plan"), else the first one written. One
/// exception: where that occurrence is a written path, every other written path of the name
/// that ends in another folder is a mention of its own (`common/coding-style.md` then
/// `golang/coding-style.md`; `../pt-BR/README.md | ../zh-TW/README.md`), as it leads to another
/// file. Paths ending in the same folder (`common/x.md` and `../common/x.md`) stay one.
fn one_per_line(matcher: &Matcher, bytes: &[u8], path: &str, found: &mut Vec<(Mention, Cue)>) {
    // The kinds said beside any occurrence on the line ("the status agent, not the status
    // command", "the `e2e` job … `e2e` rebuilds") are said of the name there.
    const KINDS: u64 = cue::ENTITY | cue::KINDS | cue::PROGRAM;
    // One pass in the order written (most names occur once a line): the best occurrence so far
    // per (name, line), by rank and then position.
    let rank = |m: &Mention, c: &Cue| {
        // A glob names no one file, a program's word no thing of the tree:
        // any other occurrence speaks before them.
        if c.bits & (cue::GLOB | cue::PROGRAM) != 0 {
            return 10;
        }
        // A file name closing a longer path asks only where that path leads: any other
        // occurrence speaks for the name (and it is asked besides, below).
        if c.bits & cue::TAIL != 0 {
            return 11;
        }
        // A file name or a path is strong as written: where it is written twice, the first
        // speaks (a path around the second may lead out of the tree).
        // A name bound through a package's entry is a guess at which module: after any other
        // import of the name on the line.
        let guess = u8::from(c.bits & cue::ENTRY != 0);
        if c.bits & cue::IMPORT != 0 || !matcher.name(m.name).contains(['.', '/']) {
            telling(c) * 2 + guess
        } else if link_target(bytes, m, c) {
            // A link's target says where it leads; its text (`[x.md](./x.md)`) only shows it.
            1
        } else {
            2
        }
    };
    // Per (name, line): the index of the best occurrence so far, the kinds said on the line,
    // and whether the name occurs more than once there.
    let mut best: FnvMap<(u32, u32), (usize, u64, bool)> = FnvMap::default();
    for (i, (m, c)) in found.iter().enumerate() {
        let kinds = c.bits & KINDS;
        best.entry((m.name, m.line))
            .and_modify(|(j, k, many)| {
                let (pm, pc) = &found[*j];
                if (rank(m, c), m.start) < (rank(pm, pc), pm.start) {
                    *j = i;
                }
                *k |= kinds;
                *many = true;
            })
            .or_insert((i, kinds, false));
    }
    let mut kept: Vec<Option<u64>> = vec![None; found.len()];
    let dir = dir_of(path);
    // Per (name, line, last folder): the first other written path ending in that folder.
    let mut others: FnvMap<(u32, u32, String), usize> = FnvMap::default();
    for &(b, k, many) in best.values() {
        kept[b] = Some(k);
        if !many {
            continue;
        }
        let (bm, bc) = &found[b];
        let Some(own) = last_folder(matcher, bm, bc, dir) else {
            continue;
        };
        for (i, (m, c)) in found.iter().enumerate() {
            if i == b || m.name != bm.name || m.line != bm.line {
                continue;
            }
            if let Some(f) = last_folder(matcher, m, c, dir).filter(|f| *f != own) {
                others.entry((m.name, m.line, f)).or_insert(i);
            }
        }
    }
    for i in others.into_values() {
        kept[i] = Some(0);
    }
    // (Once per written form: a path written twice on a line is one mention.)
    let tails = found
        .iter()
        .zip(&kept)
        .any(|((_, c), k)| c.bits & cue::TAIL != 0 && k.is_none());
    let mut asked: std::collections::HashSet<(u32, u32, Option<&str>)> = found
        .iter()
        .zip(&kept)
        .filter(|(_, k)| tails && k.is_some())
        .map(|((m, c), _)| (m.name, m.line, c.via.as_deref()))
        .collect();
    for (i, (m, c)) in found.iter().enumerate() {
        if c.bits & cue::TAIL != 0
            && kept[i].is_none()
            && asked.insert((m.name, m.line, c.via.as_deref()))
        {
            kept[i] = Some(0);
        }
    }
    // Names a package re-exports, each a candidate its entry decides (`Retrying(stop=
    // tenacity.stop_after_attempt(1))` after `from tenacity import Retrying`: `stop` for
    // either): every one is asked, not just the first.
    for &(b, _, many) in best.values() {
        let (bm, bc) = &found[b];
        if !many || bc.bits & cue::ENTRY == 0 {
            continue;
        }
        let mut asked = vec![bc.via.as_deref()];
        for (i, (m, c)) in found.iter().enumerate() {
            if i != b
                && m.name == bm.name
                && m.line == bm.line
                && c.bits & cue::ENTRY != 0
                && !asked.contains(&c.via.as_deref())
            {
                asked.push(c.via.as_deref());
                kept[i] = Some(0);
            }
        }
    }
    let mut i = 0;
    found.retain_mut(|(_, c)| {
        let k = kept[i];
        i += 1;
        if let (Some(k), None) = (k, &c.via) {
            // A slash invokes a command, whatever another occurrence is called ("the `gen`
            // cli, then run `/gen`").
            c.bits |= if c.bits & cue::SLASH != 0 {
                k & !cue::PROGRAM
            } else {
                k
            };
        }
        k.is_some()
    });
    if !found.is_sorted_by_key(|(m, _)| (m.start, m.end)) {
        found.sort_by_key(|(m, _)| (m.start, m.end));
    }
}

/// Whether the occurrence is the end of a Markdown link's relative target (`](./x.md)`).
fn link_target(bytes: &[u8], m: &Mention, c: &Cue) -> bool {
    let Some(via) = c.via.as_deref() else {
        return false;
    };
    let relative = via.starts_with("./") || via.starts_with("../");
    let vs = m.end.checked_sub(via.len());
    relative
        && vs.is_some_and(|vs| {
            vs >= 2 && &bytes[vs - 2..vs] == b"](" && bytes.get(vs..m.end) == Some(via.as_bytes())
        })
}

/// The last folder of the path an occurrence of a file name or path was written in, relative
/// paths resolved from the mentioning file's folder `dir` (`../../README.md` from `docs/ru/`
/// ends in the root, ""); `None` for a name not written with folders.
fn last_folder(matcher: &Matcher, m: &Mention, c: &Cue, dir: &str) -> Option<String> {
    let via = c.via.as_deref().filter(|v| v.contains('/'))?;
    if !matcher.name(m.name).contains(['.', '/']) || c.bits & cue::IMPORT != 0 {
        return None;
    }
    let via = via.trim_end_matches('/');
    let joined = if via.starts_with("./") || via.starts_with("../") {
        super::refs::join_normal(dir, via)
    } else {
        None
    };
    let p = joined.as_deref().unwrap_or(via);
    let parent = dir_of(p);
    // The folder's own name: a quoted span's words before it (`` `alpha. refs/x.md` ``) are not.
    let folder = parent.rsplit_once('/').map_or(parent, |(_, f)| f);
    Some(folder.rsplit(' ').next().unwrap_or(folder).to_string())
}

/// How much an occurrence says of how its name is used, most first: an import, a written
/// path or namespace, a cue that it names a thing (`/plan` after "make a plan") or a path to
/// the folder of that name (the first of them: `~/.claude/sessions/` says nothing of
/// `/sessions` before it), then a word as written, then a capitalised one. An invocation says
/// as much as a path: the first of them speaks (`/arch --repos fixtures/arch/ts-only` invokes
/// `arch`; the path after it leads into a fixture folder named after it).
fn telling(c: &Cue) -> u8 {
    if c.bits & cue::IMPORT != 0 {
        0
    } else if c.bits & cue::LOWERED != 0 {
        // (A title-case name as written speaks before its lower-case form.)
        4
    } else if c.via.is_some() && c.bits & cue::FOLDER == 0
        || c.via.is_none() && c.bits & cue::SLASH != 0
    {
        1
    } else if c.bits & cue::NAMED != 0 || c.via.is_some() {
        2
    } else if c.bits & cue::CAPITAL == 0 {
        3
    } else {
        4
    }
}

/// A name in a run of words joined by `/` (`cue::SLASHED`) with another name of a file that is
/// distinctive (`bug-hunter/verifier`) is a row of a list of names, should the run lead
/// nowhere: it gets the `LIST` cue. Other words say nothing (`list/dict`, `read/write`).
fn slashed_lists(matcher: &Matcher, found: &mut [(Mention, Cue)]) {
    let runs: Vec<usize> = (0..found.len())
        .filter(|i| found[*i].1.bits & cue::SLASHED != 0)
        .collect();
    if runs.len() < 2 {
        return;
    }
    let listed: Vec<usize> = runs
        .iter()
        .copied()
        .filter(|&i| {
            let (m, c) = &found[i];
            runs.iter().any(|&j| {
                let (o, oc) = &found[j];
                j != i && o.line == m.line && oc.via == c.via && matcher.is_distinctive(o.name)
            })
        })
        .collect();
    for i in listed {
        found[i].1.bits |= cue::LIST;
    }
}

/// A name written in a run of names joined by `,`, `and`, `or`, `/` or `&` with a distinctive
/// one ("Brainstorming and systematic-debugging are …", "plan, review, ship-check") is a row
/// of a list of such names: it gets the `LIST` cue. Only bare names in prose count on either
/// side: a file name or a path says nothing of the words around it.
fn listed_together(matcher: &Matcher, bytes: &[u8], found: &mut [(Mention, Cue)]) {
    // (No word that names nothing, an extension or a glob's, joins a list: it is not kept, and
    // its name leaving the tree would not bring the file back to be scanned.)
    let bare = |m: &Mention, c: &Cue| {
        c.via.is_none()
            && c.bits & (cue::CODE_FILE | cue::NO_NAME | cue::IMPORT) == 0
            && !matcher.name(m.name).contains(['.', '/'])
    };
    let mut listed = vec![false; found.len()];
    let mut introduced = vec![0u64; found.len()];
    let distinct = |m: &Mention| matcher.is_distinctive(m.name);
    // Runs of names joined one to the next (`a, b and c`), as index ranges.
    let joined = |i: usize| {
        let (a, ca) = &found[i - 1];
        let (b, cb) = &found[i];
        a.line == b.line
            && a.end <= b.start
            && bare(a, ca)
            && bare(b, cb)
            && joins(&bytes[a.end..b.start])
    };
    let mut start = 0;
    for i in 1..=found.len() {
        if i < found.len() && joined(i) {
            continue;
        }
        let run = start..i;
        start = i;
        // A list the kind's word introduces ("agents (designer, frontend, core)", "Specialized
        // subagents: ai, core") names things of that kind, however common their names.
        if run.len() >= 2 {
            let first = &found[run.start].0;
            let ls = memchr::memrchr(b'\n', &bytes[..first.start]).map_or(0, |i| i + 1);
            let kind = introduced_by_kind(&bytes[ls..first.start]);
            if kind != 0 {
                for k in run.clone() {
                    introduced[k] = kind;
                }
            }
        }
        // A list of words that mostly are words ("resources, forms, tables, actions, widgets,
        // infolists": what a plugin generates) lists things, not names, though its one
        // distinctive word is a name: names are listed among names (a third at least:
        // "create, add-component, validate" are commands).
        let named = found[run.clone()]
            .iter()
            .filter(|(m, _)| distinct(m))
            .count();
        if run.len() < 2 || 3 * named < run.len() {
            continue;
        }
        for k in run.start + 1..run.end {
            if distinct(&found[k].0) {
                listed[k - 1] = true;
            }
            if distinct(&found[k - 1].0) {
                listed[k] = true;
            }
        }
    }
    for ((_, c), kind) in found.iter_mut().zip(&introduced) {
        if *kind != 0 && c.bits & cue::KINDS == 0 {
            c.bits |= cue::ENTITY | kind;
        }
    }
    for ((m, c), l) in found.iter_mut().zip(listed) {
        // A capitalised word heads a list only at the start of a sentence ("Brainstorming and
        // systematic-debugging are …"); in mid-sentence it is a title's or a proper noun's.
        let capital_mid = c.bits & cue::CAPITAL != 0 && {
            let ls = memchr::memrchr(b'\n', &bytes[..m.start]).map_or(0, |i| i + 1);
            !sentence_start(&bytes[ls..m.start])
        };
        if l && !capital_mid {
            c.bits |= cue::LIST;
        }
    }
}

/// The kind of thing (`cue::AS_*`) whose word ends `lead`, a line up to a list of names,
/// with an opening parenthesis or a colon between them ("agents (", "subagents: "), or 0.
fn introduced_by_kind(lead: &[u8]) -> u64 {
    let t = lead.trim_ascii_end();
    let t = t.strip_suffix(b"`").unwrap_or(t).trim_ascii_end();
    let Some(t) = t.strip_suffix(b"(").or_else(|| t.strip_suffix(b":")) else {
        return 0;
    };
    let t = t.trim_ascii_end();
    let deco = t
        .iter()
        .rev()
        .take_while(|b| matches!(b, b'*' | b'_'))
        .count();
    let t = &t[..t.len() - deco];
    let s = t
        .iter()
        .rposition(|b| !(b.is_ascii_alphabetic() || *b == b'-' || *b == b'_'))
        .map_or(0, |i| i + 1);
    cue::entity_kind(&t[s..])
}

/// A table row: its line number and its cells as byte ranges.
type Row = (u32, Vec<(usize, usize)>);

/// The Markdown tables of `bytes`: runs of lines that start with `|`, split into cells.
fn markdown_tables(bytes: &[u8]) -> Vec<Vec<Row>> {
    let mut tables: Vec<Vec<Row>> = Vec::new();
    let mut current: Vec<Row> = Vec::new();
    let (mut ls, mut n) = (0usize, 1u32);
    while ls < bytes.len() {
        let le = memchr::memchr(b'\n', &bytes[ls..]).map_or(bytes.len(), |i| ls + i);
        let line = &bytes[ls..le];
        let t = line.trim_ascii();
        if t.starts_with(b"|") && t.len() > 1 {
            let lead = line.len() - line.trim_ascii_start().len();
            let mut cells = Vec::new();
            let mut at = ls + lead + 1;
            for cell in t[1..].split(|b| *b == b'|') {
                cells.push((at, at + cell.len()));
                at += cell.len() + 1;
            }
            current.push((n, cells));
        } else if !current.is_empty() {
            tables.push(std::mem::take(&mut current));
        }
        ls = le + 1;
        n += 1;
    }
    if !current.is_empty() {
        tables.push(current);
    }
    tables
}

/// A table column whose one-word cells are mostly role nouns that name things of the tree
/// (`| Reviewer |`, `| Designer |` beside a column of `` `builder` ``) lists agents: a capital
/// there is the table's style, not a title's word.
fn name_columns(matcher: &Matcher, bytes: &[u8], found: &mut [(Mention, Cue)]) {
    if !found.iter().any(|(_, c)| c.bits & cue::CAPITAL != 0)
        || memchr::memchr(b'|', bytes).is_none()
    {
        return;
    }
    let word = |(s, e): (usize, usize)| -> Option<(usize, usize)> {
        let c = &bytes[s..e];
        let lead = c.len() - c.trim_ascii_start().len();
        let inner = c.trim_ascii();
        let deco = |b: &u8| matches!(b, b'*' | b'_');
        let front = inner.iter().take_while(|b| deco(b)).count();
        let back = inner.iter().rev().take_while(|b| deco(b)).count();
        let w = inner.get(front..inner.len().checked_sub(back)?)?;
        let ok = !w.is_empty()
            && w[0].is_ascii_alphabetic()
            && w.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-');
        ok.then_some((s + lead + front, s + lead + front + w.len()))
    };
    // Role nouns (`Reviewer`, `Designer`): the names agents go by. A column of phases
    // (`Research`, `Implement`) names steps, though a command may bear a phase's name.
    let names = |(s, e): (usize, usize)| {
        let w = std::str::from_utf8(&bytes[s..e]).unwrap_or("");
        crate::scan::refs::is_role_noun(w)
            && (matcher.id_of(&w.to_ascii_lowercase()).is_some() || matcher.id_of(w).is_some())
    };
    for rows in markdown_tables(bytes) {
        let width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
        for col in 0..width {
            let words: Vec<(u32, (usize, usize))> = rows
                .iter()
                .filter_map(|r| Some((r.0, word(*r.1.get(col)?)?)))
                .collect();
            let named = words.iter().filter(|(_, w)| names(*w)).count();
            if named < 3 || named * 2 < words.len() {
                continue;
            }
            for (m, c) in found.iter_mut() {
                let whole = words
                    .iter()
                    .any(|(line, (s, e))| *line == m.line && (*s, *e) == (m.start, m.end));
                if whole && c.bits & cue::CAPITAL != 0 {
                    c.bits = c.bits & !cue::CAPITAL | cue::LIST;
                }
            }
        }
    }
}

/// A table column of code spans that mostly name nothing of the tree (make targets, CI jobs,
/// flags: `| \`coverage-check\` | … |`) is a list of another kind of thing: a span there that
/// happens to bear a name (`e2e`, also a command) is one of those: its span is no cue, and it
/// names no agent, command or skill (`cue::PROGRAM`).
fn foreign_columns(matcher: &Matcher, bytes: &[u8], found: &mut [(Mention, Cue)]) {
    const NAMING: u64 = cue::CODE | cue::QUOTED | cue::LIST;
    if !found.iter().any(|(_, c)| c.bits & cue::CODE != 0) || memchr::memchr(b'|', bytes).is_none()
    {
        return;
    }
    let tables = markdown_tables(bytes);
    let span = |(s, e): (usize, usize)| -> Option<&[u8]> {
        let c = bytes[s..e].trim_ascii();
        let inner = c.strip_prefix(b"`")?.strip_suffix(b"`")?;
        (!inner.is_empty() && !inner.contains(&b'`')).then_some(inner)
    };
    for rows in &tables {
        let width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
        for col in 0..width {
            let spans: Vec<&[u8]> = rows
                .iter()
                .filter_map(|r| r.1.get(col).copied().and_then(span))
                .collect();
            // A slash invocation is a command's, whether the tree holds it or not; a span may
            // list several names (`planner,architect`).
            let named = spans
                .iter()
                .filter(|w| {
                    w.starts_with(b"/")
                        || w.split(|b| matches!(b, b',' | b' ' | b'/')).any(|part| {
                            std::str::from_utf8(part).is_ok_and(|p| matcher.id_of(p).is_some())
                        })
                })
                .count();
            // A column headed by an agent's or a skill's kind (`| Agent |`) lists things of
            // that kind, whether the tree holds them all or not. (`| Command |` heads a CLI's
            // commands as often as the client's.)
            let headed = rows.len() >= 2
                && rows[1].1.iter().all(|&(s, e)| {
                    bytes[s..e]
                        .trim_ascii()
                        .iter()
                        .all(|b| matches!(b, b'-' | b':'))
                })
                && rows[0].1.get(col).is_some_and(|&(s, e)| {
                    std::str::from_utf8(&bytes[s..e]).is_ok_and(|h| {
                        let h = h.trim().trim_matches(|c| matches!(c, '*' | '_'));
                        cue::entity_kind(h.as_bytes()) & (cue::AS_AGENT | cue::AS_SKILL) != 0
                    })
                });
            if spans.len() < 4 || named * 2 >= spans.len() || headed {
                continue;
            }
            for (m, c) in found.iter_mut() {
                let in_cell = rows.iter().any(|r| {
                    r.0 == m.line
                        && r.1
                            .get(col)
                            .is_some_and(|&(s, e)| s <= m.start && m.end <= e)
                });
                if in_cell && c.via.is_none() {
                    c.bits = c.bits & !NAMING | cue::PROGRAM;
                }
            }
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
            && c.bits & (cue::CODE_FILE | cue::NO_NAME | cue::IMPORT) == 0
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

/// A capitalised word said to be an agent ("Core agent (contracts)", "hand off to the
/// Frontend agent"), a skill or a command ("Setup skill") is the thing of its lower-case name,
/// however common the word: the matcher finds only role nouns capitalised (`Planner`), and the
/// kind said after it is the cue.
fn capitalised_kinds(
    matcher: &Matcher,
    bytes: &[u8],
    langs: &cue::FileLangs,
    data: bool,
    found: &mut Vec<(Mention, Cue)>,
) {
    // In code such a phrase is a string's or a comment's ("// Test agent configuration").
    if langs.base().is_some() {
        return;
    }
    let mut said: Vec<(Mention, Cue)> = Vec::new();
    for (s, e, lower) in kind_words(bytes) {
        let Some(id) = matcher.id_of(&lower) else {
            continue;
        };
        if found.iter().any(|(x, _)| x.start < e && s < x.end) {
            continue;
        }
        let line = memchr::memchr_iter(b'\n', &bytes[..s]).count() as u32 + 1;
        let mention = Mention {
            name: id,
            line,
            text: String::new(),
            start: s,
            end: e,
        };
        said.push((mention, langs.cue(bytes, s, e, data)));
    }
    if !said.is_empty() {
        found.extend(said);
        found.sort_by_key(|(m, _)| (m.start, m.end));
    }
}

/// Each capitalised word (`Frontend`: a capital, then lower-case letters or digits, three or
/// more bytes) followed by one space and an agent's kind word, or "skill" or "command" (after
/// no other capitalised word): its span and lower-case form.
/// The kind word is a word of prose (`agent`, `Agents`), not a file's name (`AGENTS.md`). At
/// a sentence's start a verb of work is an imperative ("Test agent mesh", "Check agent
/// output"), not the agent `test`.
fn kind_words(bytes: &[u8]) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    // From each "gent" (agent, Agents, subagent, sub-agent), "kill" (skill) and "ommand"
    // (command): the kind word, then the space. ("the Setup skill" is the skill `setup` as
    // "the Frontend agent" is the agent `frontend`.)
    let kinds = [(&b"gent"[..], b'a'), (b"kill", b's'), (b"ommand", b'c')];
    let starts = kinds.iter().flat_map(|(tail, first)| {
        memchr::memmem::find_iter(bytes, tail).filter_map(move |g| {
            let ks = g.checked_sub(1)?;
            bytes[ks].eq_ignore_ascii_case(first).then_some(ks)
        })
    });
    let mut starts: Vec<usize> = starts.collect();
    starts.sort_unstable();
    for mut ks in starts {
        for prefix in [&b"sub-"[..], b"sub"] {
            if ks >= prefix.len() && bytes[ks - prefix.len()..ks].eq_ignore_ascii_case(prefix) {
                ks -= prefix.len();
                break;
            }
        }
        let Some(at) = ks.checked_sub(1).filter(|&at| bytes[at] == b' ') else {
            continue;
        };
        let after = &bytes[ks..];
        let kind_end = after
            .iter()
            .position(|b| !b.is_ascii_alphabetic() && *b != b'-')
            .unwrap_or(after.len());
        let kind = &after[..kind_end];
        let file_name = after.get(kind_end) == Some(&b'.')
            && after
                .get(kind_end + 1)
                .is_some_and(u8::is_ascii_alphanumeric);
        // A skill or a command is said so alone ("the Setup skill", "**Hygiene Command**"): a
        // title's run ("Claude Code Command System", "Effective Python Skill") or a family
        // ("Spatial skills") is no one thing.
        let agent = cue::entity_kind(kind) == cue::AS_AGENT;
        let one = |k: &[u8]| k.eq_ignore_ascii_case(b"skill") || k.eq_ignore_ascii_case(b"command");
        if !agent && !one(kind)
            || file_name
            || kind.len() > 1 && kind[1..].iter().any(u8::is_ascii_uppercase)
        {
            continue;
        }
        let s = bytes[..at]
            .iter()
            .rposition(|b| !b.is_ascii_alphanumeric())
            .map_or(0, |i| i + 1);
        let w = &bytes[s..at];
        let word_before = s > 0 && is_word(bytes[s - 1]);
        if w.len() < 3 || word_before || !capitalised(w) {
            continue;
        }
        let Ok(t) = std::str::from_utf8(w) else {
            continue;
        };
        let lower = t.to_ascii_lowercase();
        let ls = memchr::memrchr(b'\n', &bytes[..s]).map_or(0, |i| i + 1);
        if IMPERATIVES.contains(&lower.as_str()) && sentence_start(&bytes[ls..s]) {
            continue;
        }
        // (A capitalised word before it makes a title's run: "Claude Code command".)
        let prev_capital = bytes[ls..s]
            .trim_ascii_end()
            .rsplit(|b| !b.is_ascii_alphanumeric())
            .next()
            .and_then(|w| w.first())
            .is_some_and(u8::is_ascii_uppercase);
        // (Nor one going on after the kind: "Quick Command Reference", "Release Command
        // System".)
        let next_capital = after[kind_end..]
            .strip_prefix(b" ")
            .and_then(|r| r.first())
            .is_some_and(u8::is_ascii_uppercase);
        if !agent && (prev_capital || next_capital) {
            continue;
        }
        out.push((s, at, lower));
    }
    out
}

/// Verbs of work that start a task's sentence ("Test agent delegation"), capitalised there.
const IMPERATIVES: [&str; 36] = [
    "add",
    "build",
    "call",
    "check",
    "configure",
    "create",
    "debug",
    "define",
    "delete",
    "deploy",
    "disable",
    "enable",
    "ensure",
    "fix",
    "implement",
    "improve",
    "install",
    "invoke",
    "launch",
    "load",
    "monitor",
    "read",
    "refactor",
    "register",
    "remove",
    "run",
    "set",
    "spawn",
    "start",
    "stop",
    "test",
    "update",
    "use",
    "validate",
    "verify",
    "write",
];

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

/// A Python string that is a whole dotted module path (`"flask.app"` in a warnings filter,
/// `"cliapp.factory"` handed to an importer, a logger's name) names that module as an import
/// would: the mention of its last word gets the path as its written form, and resolution keeps
/// it only where the path leads to a module (`"os.path"`, `"shutil.rmtree"` lead to none).
fn dotted_module_strings(bytes: &[u8], found: &mut [(Mention, Cue)]) {
    for (m, c) in found.iter_mut() {
        if c.via.is_some() || c.bits & cue::IMPORT != 0 {
            continue;
        }
        let Some(&q @ (b'"' | b'\'')) = bytes.get(m.end) else {
            continue;
        };
        let s = dotted_start(bytes, m.start);
        if s == 0 || bytes[s - 1] != q || bytes[s] == b'.' || bytes[s].is_ascii_digit() {
            continue;
        }
        let path = &bytes[s..m.end];
        // A file name (`llm_dir / "anth.py"`) is the file, not a module `anth.py`.
        let file_name = bytes[m.start..m.end].contains(&b'.');
        if !path.contains(&b'.') || path.windows(2).any(|w| w == b"..") || file_name {
            continue;
        }
        written_as_module(c, path);
        // A value the code passes on (a logger's name, a module to load): as an import.
        c.bits = (c.bits | cue::CODE_FILE) & !cue::PROSE_MODULE;
    }
}

/// The folders a shell script keeps in variables of its own: `SCRIPT_DIR="$(cd "$(dirname
/// "$0")" && pwd)"`, `LIB_DIR="$(cd "$SCRIPT_DIR/../lib" && pwd)"`, `ROOT="$(git rev-parse
/// --show-toplevel)"`. Each as the client's names for it that resolution reads (`$SCRIPT_DIR`,
/// `$SCRIPT_DIR/../lib`, `$CLAUDE_PROJECT_DIR`); a variable set to another value, or to two
/// folders, holds none (`None`).
fn shell_folders(bytes: &[u8]) -> FnvMap<String, Option<String>> {
    let mut out: FnvMap<String, Option<String>> = FnvMap::default();
    for line in bytes.split(|b| *b == b'\n') {
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        let mut l = line.trim_start();
        for kw in ["export ", "local ", "readonly ", "declare "] {
            l = l.strip_prefix(kw).unwrap_or(l).trim_start();
        }
        let n = l
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        let (name, rest) = l.split_at(n);
        let Some(value) = rest.strip_prefix('=') else {
            continue;
        };
        if n == 0 || name.as_bytes()[0].is_ascii_digit() {
            continue;
        }
        let value = value.trim_end();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value);
        let folder = folder_value(value, &out);
        match out.get(name) {
            Some(had) if *had != folder => {
                out.insert(name.to_string(), None);
            }
            Some(_) => {}
            None => {
                out.insert(name.to_string(), folder);
            }
        }
    }
    out
}

/// The folder a shell value names, as `shell_folders` writes it.
fn folder_value(value: &str, known: &FnvMap<String, Option<String>>) -> Option<String> {
    // A folder `mktemp` makes is a temporary one, whatever the script calls it.
    if value.starts_with("$(mktemp") {
        return Some(TEMPORARY.to_string());
    }
    if value.starts_with("$(") && value.ends_with(')') {
        let probe = format!("{value}/");
        if let Some(f) = cue::substituted_folder(probe.as_bytes(), value.len()) {
            return Some(match f.strip_prefix('.') {
                Some(up) => format!("$SCRIPT_DIR{up}"),
                None if f.is_empty() => "$CLAUDE_PROJECT_DIR".to_string(),
                None => return None,
            });
        }
        // `$(cd "$LIB/../x" && pwd)`: the folder that `cd` enters.
        let inner = value[2..value.len() - 1].trim().strip_prefix("cd ")?;
        let (arg, tail) = inner.split_once("&&")?;
        if !matches!(tail.trim(), "pwd" | "pwd -P") {
            return None;
        }
        let arg = arg.trim().trim_start_matches("-- ").trim();
        return folder_value(arg.trim_matches('"'), known);
    }
    let (name, rest) = cue::variable_at(value)?;
    if !rest.is_empty() && !rest.starts_with('/') {
        return None;
    }
    // (A script's own folder however it was found, `$(cd "$(dirname "$SOURCE")" && pwd)`
    // after following links: what `$SCRIPT_DIR/x` alone means too.)
    let base = match known.get(name) {
        Some(Some(f)) => f.clone(),
        _ if matches!(
            name,
            "SCRIPT_DIR" | "CLAUDE_PROJECT_DIR" | "BATS_TEST_DIRNAME"
        ) =>
        {
            format!("${name}")
        }
        _ => return None,
    };
    Some(format!("{base}{rest}"))
}

/// A path under a shell script's own folder variable (`"$LIB_DIR/is-docs-only.sh"`, `source
/// "$ROOT/lib/x.sh"`), written as the folder it holds (`shell_folders`).
fn shell_variables(bytes: &[u8], found: &mut [(Mention, Cue)]) {
    let folders = shell_folders(bytes);
    if folders.values().all(Option::is_none) {
        return;
    }
    for (m, c) in found.iter_mut() {
        let mut ts = m.start;
        while ts > 0 && cue::is_path_byte(bytes[ts - 1]) {
            ts -= 1;
        }
        if bytes[ts] != b'$' {
            continue;
        }
        let Ok(token) = std::str::from_utf8(&bytes[ts..m.end]) else {
            continue;
        };
        let Some((name, rest)) = cue::variable_at(token) else {
            continue;
        };
        let Some(Some(folder)) = folders.get(name) else {
            continue;
        };
        // (The whole path only: a folder in the middle of it is read with the rest.)
        if bytes
            .get(m.end)
            .is_some_and(|b| cue::is_path_byte(*b) && *b != b'.')
        {
            continue;
        }
        // A file under a temporary folder is the script's own copy only where the script
        // writes it (`cat > "$WORK/repo/x.json"`, a stub); one it runs or reads there may be
        // the tree's file copied in, named by its tail as before.
        if folder == TEMPORARY && !written_in(bytes, token) {
            continue;
        }
        if rest.starts_with('/') {
            c.via = Some(format!("{folder}{rest}"));
        }
    }
}

/// How `shell_folders` writes a folder `mktemp` made.
pub(crate) const TEMPORARY: &str = "$(mktemp)";

/// Whether a script writes the file `token` (`$WORK/x.json`) somewhere: a redirection into it
/// (`> "$WORK/x.json"`, `>>`), or `tee` or `touch` of it.
fn written_in(bytes: &[u8], token: &str) -> bool {
    memchr::memmem::find_iter(bytes, token.as_bytes()).any(|at| {
        let before = bytes[..at].trim_ascii_end();
        let before = before
            .strip_suffix(b"\"")
            .or_else(|| before.strip_suffix(b"'"))
            .unwrap_or(before)
            .trim_ascii_end();
        before.ends_with(b">") || before.ends_with(b" tee") || before.ends_with(b" touch")
    })
}

/// A package's `__all__` (`__all__ = ["cli", "engine", "sql"]` in its `__init__.py`) lists what
/// `from pkg import *` binds: a name there that is a submodule of the package (`engine/`,
/// `sql.py`) is that module, as `from . import engine` is; one that leads to no module is a
/// name the package defines.
fn exported_submodules(bytes: &[u8], found: &mut [(Mention, Cue)]) {
    let Some(at) = memchr::memmem::find(bytes, b"__all__") else {
        return;
    };
    let rest = &bytes[at + 7..];
    // `__all__ = [`, `__all__: list[str] = [`, `__all__ += [`: the list after the `=`.
    let line_end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
    let Some(eq) = memchr::memchr(b'=', &rest[..line_end]) else {
        return;
    };
    let head = rest[..eq].trim_ascii();
    let head = head.strip_suffix(b"+").unwrap_or(head).trim_ascii();
    if !(head.is_empty() || head.starts_with(b":")) {
        return;
    }
    let after_eq = &rest[eq + 1..];
    let lead = after_eq
        .iter()
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    let close = match after_eq.get(lead) {
        Some(b'[') => b']',
        Some(b'(') => b')',
        _ => return,
    };
    let open = at + 7 + eq + 1 + lead;
    let Some(len) = memchr::memchr(close, &bytes[open..]) else {
        return;
    };
    let span = open..open + len;
    for (m, c) in found.iter_mut() {
        let quoted = |i: usize| matches!(bytes.get(i), Some(b'"' | b'\''));
        if !span.contains(&m.start)
            || c.via.is_some()
            || m.start == 0
            || !quoted(m.start - 1)
            || bytes.get(m.end) != bytes.get(m.start - 1)
        {
            continue;
        }
        if let Ok(name) = std::str::from_utf8(&bytes[m.start..m.end]) {
            c.via = Some(format!("./{name}"));
            c.bits |= cue::IMPORT | cue::CODE_FILE;
        }
    }
}

/// A file name that ends a join of quoted folders is written with those folders: the path
/// they make. In Python a `pathlib` join (`BASE / "resources" / "fmt.py"`, with `slash`); in
/// Python and JavaScript the arguments of a join call (`os.path.join(root, "hooks", "x.json")`,
/// `path.join(PLUGIN_ROOT, 'hooks', 'hooks.json')`). (A join from the file's own folder,
/// `path.join(__dirname, …)`, is `cue::joined_path`'s, written with `./`.)
fn path_joins(bytes: &[u8], slash: bool, found: &mut [(Mention, Cue)]) {
    for (m, c) in found.iter_mut() {
        if c.via.is_none() {
            c.via = quoted_join(bytes, m.start, m.end, slash);
        }
    }
}

/// The path a join makes of the quoted file name at `bytes[start..end]` and the quoted folders
/// before it (`path_joins`), if it is one.
fn quoted_join(bytes: &[u8], start: usize, end: usize, slash: bool) -> Option<String> {
    let q = *bytes.get(start.checked_sub(1)?)?;
    if !matches!(q, b'"' | b'\'') || bytes.get(end) != Some(&q) {
        return None;
    }
    let mut folders: Vec<&[u8]> = Vec::new();
    let mut at = start - 1;
    let mut commas = false;
    loop {
        let before = bytes[..at].trim_ascii_end();
        let Some(before) = before
            .strip_suffix(b"/")
            .filter(|_| slash && !commas)
            .or_else(|| {
                let b = before.strip_suffix(b",")?;
                commas = true;
                Some(b)
            })
        else {
            break;
        };
        let before = before.trim_ascii_end();
        let Some(&close) = before.last() else {
            break;
        };
        if !matches!(close, b'"' | b'\'') {
            break;
        }
        let inner = &before[..before.len() - 1];
        let Some(open) = memchr::memrchr(close, inner) else {
            break;
        };
        let seg = &inner[open + 1..];
        if seg.is_empty()
            || !seg
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        {
            break;
        }
        folders.push(seg);
        at = open;
    }
    // Quoted words in a row are a list (`{"README.md", "x.csv"}`) unless a join takes them.
    if folders.is_empty() || commas && !in_join_call(bytes, at) {
        return None;
    }
    let via: Vec<_> = folders
        .iter()
        .rev()
        .chain([&&bytes[start..end]])
        .map(|w| String::from_utf8_lossy(w))
        .collect();
    Some(via.join("/"))
}

/// Whether the argument starting at `at` is one of a path-joining call's (`os.path.join(`,
/// `path.resolve(`, `.joinpath(`, `Path(`), opened on its line or up to three lines above
/// (`os.path.join(` then its arguments on the next line).
fn in_join_call(bytes: &[u8], at: usize) -> bool {
    let mut ls = at;
    for _ in 0..4 {
        ls = memchr::memrchr(b'\n', &bytes[..ls]).unwrap_or(0);
        if ls == 0 {
            break;
        }
    }
    let ls = if ls == 0 { 0 } else { ls + 1 };
    let mut depth = 0usize;
    let mut i = at;
    while i > ls {
        i -= 1;
        match bytes[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' if depth == 0 => {
                let mut s = i;
                while s > ls && (bytes[s - 1].is_ascii_alphanumeric() || bytes[s - 1] == b'_') {
                    s -= 1;
                }
                return matches!(
                    &bytes[s..i],
                    b"join" | b"resolve" | b"joinpath" | b"Path" | b"PurePath"
                );
            }
            b'(' | b'[' | b'{' => {
                if depth == 0 {
                    return false;
                }
                depth -= 1;
            }
            _ => {}
        }
    }
    false
}

/// Each Python string literal on one line that is a dotted name reaching a private word
/// (`"filelock._strict._HAS_LINK"`) as its words with their offsets. (Most files have no `._`
/// at all: they are not read further.)
fn dotted_strings(bytes: &[u8]) -> Vec<Vec<(usize, &[u8])>> {
    let mut out = Vec::new();
    if memchr::memmem::find(bytes, b"._").is_none() {
        return out;
    }
    let mut i = 0;
    while let Some(off) = memchr::memchr2(b'"', b'\'', &bytes[i..]) {
        let open = i + off;
        let q = bytes[open];
        let Some(len) = memchr::memchr2(q, b'\n', &bytes[open + 1..]) else {
            break;
        };
        let (s, e) = (open + 1, open + 1 + len);
        i = e + 1;
        let body = &bytes[s..e];
        if bytes[e] != q
            || memchr::memmem::find(body, b"._").is_none()
            || !body
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
        {
            continue;
        }
        let mut words = Vec::new();
        let mut at = s;
        for w in body.split(|b| *b == b'.') {
            words.push((at, w));
            at += w.len() + 1;
        }
        if words
            .iter()
            .all(|(_, w)| w.first().is_some_and(|b| !b.is_ascii_digit()))
        {
            out.push(words);
        }
    }
    out
}

/// A dotted path in a Python string that reaches a private name of a module
/// (`mocker.patch("filelock._strict._HAS_LINK", False)`): the module's internals, named as a
/// qualified use names them (`utils._sanitize(v)`), the first thing an edit of it breaks. The
/// module is the word before the first private word that names no file of its own
/// (`_soft_rw._async.os` reaches `_async`'s `os`, no private name). Resolution keeps it only where
/// the path leads to a module, as for an import.
/// (A public name after the module (`"mkdocs.commands.serve.serve"`) names it too, but is not
/// built: no name of the module occurs there as the candidate generator reads a line.)
fn patched_internals(matcher: &Matcher, bytes: &[u8], found: &mut Vec<(Mention, Cue)>) {
    let strings = dotted_strings(bytes);
    if strings.is_empty() {
        return;
    }
    let breaks: Vec<usize> = memchr::memchr_iter(b'\n', bytes).collect();
    let line_of = |at: usize| breaks.partition_point(|&p| p < at) as u32 + 1;
    let name = |w: &[u8]| std::str::from_utf8(w).ok().and_then(|w| matcher.id_of(w));
    for words in strings {
        let Some(k) = (0..words.len() - 1).find(|&k| {
            let next = words[k + 1].1;
            next.starts_with(b"_") && !next.starts_with(b"__") && name(next).is_none()
        }) else {
            continue;
        };
        let (start, word) = words[k];
        let Some(id) = name(word) else {
            continue;
        };
        let via = words[..=k]
            .iter()
            .map(|(_, w)| String::from_utf8_lossy(w))
            .collect::<Vec<_>>()
            .join("/");
        let bits = cue::IMPORT | cue::QUALIFIED;
        let use_ = code_mention(id, line_of(start), start, start + word.len(), bits, via);
        // (The matcher may have found the word as an attribute: it is this use instead.)
        match found
            .iter_mut()
            .find(|(m, _)| m.start == start && m.name == id)
        {
            Some(seen) => *seen = use_,
            None => found.push(use_),
        }
    }
}

/// Where the dotted name (`email.utils`) that ends with the word starting at `start` begins.
fn dotted_start(bytes: &[u8], start: usize) -> usize {
    bytes[..start]
        .iter()
        .rposition(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.')))
        .map_or(0, |i| i + 1)
}

/// Gives a mention the dotted module name `dotted` as its written form, resolved as an import.
fn written_as_module(c: &mut Cue, dotted: &[u8]) {
    if let Ok(p) = std::str::from_utf8(dotted) {
        c.via = Some(p.replace('.', "/"));
        c.bits |= cue::IMPORT | cue::PROSE_MODULE;
    }
}

/// Words before "module" that say which module without naming it.
const NOT_MODULE_NAMES: [&[u8]; 24] = [
    b"this", b"that", b"the", b"a", b"an", b"each", b"every", b"any", b"some", b"same", b"one",
    b"our", b"your", b"its", b"their", b"which", b"whole", b"other", b"own", b"new", b"old",
    b"test", b"main", b"sub",
];

/// In a Python file's prose, "the collections module", `the "code" module`, "the email.utils
/// package", ``:mod:`typing` `` and a module written with its package ("use xml.dom.minidom")
/// name a module by its import name: the mention gets the dotted name as its written form,
/// resolved as an import would be. Alone, such a word ("collections of tasks", "the typing of
/// arguments") is text.
fn modules_named_in_prose(bytes: &[u8], found: &mut [(Mention, Cue)]) {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    for (m, c) in found.iter_mut() {
        if c.via.is_some() || c.bits & cue::IMPORT != 0 {
            continue;
        }
        let s = dotted_start(bytes, m.start);
        // `.x`: an attribute; "the cgitb.py module": a file name, which names its file as such.
        if bytes[s..m.start].first() == Some(&b'.') || bytes[m.start..m.end].contains(&b'.') {
            continue;
        }
        // "the `code` module", `the "code" module`: quotes around the name are its, not a word.
        let quoted = s > 0
            && matches!(bytes[s - 1], b'"' | b'\'' | b'`')
            && bytes.get(m.end) == Some(&bytes[s - 1]);
        let (lead_end, after) = if quoted {
            (s - 1, &bytes[m.end + 1..])
        } else {
            (s, &bytes[m.end..])
        };
        let word_after = |w: &[u8]| {
            after
                .strip_prefix(b" ")
                .is_some_and(|a| a.starts_with(w) && a.get(w.len()).is_none_or(|b| !ident(*b)))
        };
        let role = bytes[..s].ends_with(b":mod:`") || bytes[..s].ends_with(b":mod:`~");
        // "a source module" is a kind of module; "the email package" names one ("use package
        // as …" does not).
        let lead = bytes[..lead_end].trim_ascii_end();
        let article = |w: &[u8]| {
            lead.len() >= w.len()
                && lead[lead.len() - w.len()..].eq_ignore_ascii_case(w)
                && (lead.len() == w.len() || !ident(lead[lead.len() - w.len() - 1]))
        };
        let indefinite = article(b"a") || article(b"an");
        // "the unix_events sub-module"; "the conv and pgen modules", a list's last.
        let listed_last = article(b"and") || article(b"or");
        let named = role && bytes.get(m.end) == Some(&b'`')
            || !indefinite
                && (word_after(b"module") || word_after(b"sub-module") || word_after(b"submodule"))
            || listed_last && word_after(b"modules")
            || article(b"the") && word_after(b"package");
        let word = &bytes[s..m.end];
        // A module written with its package in a comment or a string ("use xml.dom.minidom
        // instead", "to reduce importlib.util imports") names it; not a name reached through
        // it (`json.decoder.JSONDecodeError`) or a call (`os.path.join(…)`).
        // A full stop ends a sentence, before or after a closing quote (`x.y."""`,
        // `` `x.y`.""" ``); any other dot goes on (`"v.app."` is no module), but `x.y.*` is
        // all of it.
        let goes_on = match after {
            [b'.', rest @ ..] => {
                let closes = rest.starts_with(b"\"\"\"") || rest.starts_with(b"'''");
                let next_word = rest
                    .first()
                    .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'*');
                next_word && !quoted && !closes
            }
            _ => false,
        };
        let dotted = c.bits & cue::CODE_FILE == 0
            && word.contains(&b'.')
            && word[0].is_ascii_alphabetic()
            && !word.ends_with(b".")
            && !goes_on
            && after.first() != Some(&b'(');
        if dotted && !named {
            written_as_module(c, word);
            continue;
        }
        // "this module", "the test module": a determiner or a kind, not a module's name.
        if !named
            || !role
                && NOT_MODULE_NAMES
                    .iter()
                    .any(|w| word.eq_ignore_ascii_case(w))
        {
            continue;
        }
        written_as_module(c, word);
    }
}

/// Adds what a Python file's uses of its imports name beyond the import lines themselves, each
/// as a mention with the module's path as its written form. A line that uses the module itself
/// names it, on every such line:
/// - its namesake, the entity it is named after: `copy.copy(x)`, `datetime.datetime.now()`,
///   `email.message.Message`, and `Scaffold` in `class App(Scaffold):` after
///   `from .scaffold import Scaffold`;
/// - a private name of it (`utils._sanitize(v)`): the caller reaches into the module's
///   internals, the first thing an edit of it breaks;
/// - the module as a value (`swap_attr(support, …)`, `hasattr(logging.handlers, …)`).
///
/// A submodule that a use reaches through an imported package (`email.generator.X` after
/// `import email`) is named once per file, at its first use. Any other use of the imported
/// module (`copy.deepcopy(x)`, `types.MethodType`) adds nothing: the import line is the file's
/// reference to the module, and its public uses are that import's consequences (a row per call
/// made `os.py` 9,000 rows on the Python library, all saying what its 600 imports say). Only a
/// word used as a namespace or a value is a submodule: `unittest.main()` calls a function of the
/// package, `os.stat(p)` is no module `os/stat`. A use inside a string or a comment is text.
/// The names a Python file binds to modules. In a package's `__init__.py`, `from .unix_events
/// import *` also binds `unix_events` (importing a submodule sets it on its package):
/// `unix_events.__all__` is its use.
fn bindings_of(bytes: &[u8], path: &str) -> Vec<cue::Binding> {
    let mut bindings = cue::python_bindings(bytes);
    if path.rsplit('/').next() == Some("__init__.py") {
        let subs = cue::package_submodule_bindings(bytes);
        // (A name the file binds otherwise, `from .utils import utils`, is that binding.)
        let subs: Vec<_> = subs
            .into_iter()
            .filter(|s| !bindings.iter().any(|b| b.bound == s.bound))
            .collect();
        bindings.extend(subs);
    }
    bindings
}

fn qualified(
    matcher: &Matcher,
    bytes: &[u8],
    path: &str,
    long_strings: &[(usize, usize)],
    found: &mut Vec<(Mention, Cue)>,
) {
    let bindings = bindings_of(bytes, path);
    if bindings.is_empty() {
        return;
    }
    // The modules the file's imports name already (`import xml.dom.minidom` names its
    // packages too), and the submodules added so far.
    let mut named: std::collections::HashSet<String> = std::collections::HashSet::new();
    for via in found
        .iter()
        .filter(|(_, c)| c.bits & cue::IMPORT != 0)
        .filter_map(|(_, c)| c.via.as_deref())
    {
        let mut end = 0;
        for part in via.split('/') {
            end += part.len();
            named.insert(via[..end].to_string());
            end += 1;
        }
    }
    let imported = named.clone();
    let code = |at: &(usize, usize)| !cue::inside(long_strings, at.0);
    let breaks: Vec<usize> = memchr::memchr_iter(b'\n', bytes).collect();
    let line_of = |at: usize| breaks.partition_point(|&p| p < at) as u32 + 1;
    let mention = |id: u32, s: usize, end: usize, module: &str| {
        (
            Mention {
                name: id,
                line: line_of(s),
                text: String::new(),
                start: s,
                end,
            },
            Cue {
                bits: cue::CODE_FILE | cue::IMPORT | cue::QUALIFIED,
                via: Some(module.to_string()),
            },
        )
    };
    let namesake_use = |id: u32, s: usize, end: usize, module: &str| {
        let (m, mut c) = mention(id, s, end, module);
        c.bits |= cue::NAMESAKE;
        (m, c)
    };
    let mut added: Vec<(Mention, Cue)> = Vec::new();
    let mut guesses: Vec<(Mention, Cue)> = Vec::new();
    let mut showing: std::collections::HashMap<String, Vec<std::ops::Range<usize>>> =
        std::collections::HashMap::new();
    let mut roles: Option<Vec<(usize, usize)>> = None;
    for b in bindings {
        let (parent, last) = b.module.rsplit_once('/').unwrap_or(("", &b.module));
        let parent_last = parent.rsplit('/').next().unwrap_or(parent);
        let namesake = if parent_last.eq_ignore_ascii_case(last) {
            None
        } else {
            namesake_submodule(matcher, parent, last)
        };
        if let Some((id, sub)) = &namesake {
            let (id, sub) = (*id, sub.as_str());
            // `from jinja2 import Environment`: a class its package re-exports from the
            // submodule named after it (`jinja2/environment.py`); resolution keeps it only
            // where that submodule exists.
            for (s, e) in cue::bare_uses(bytes, &b.bound).into_iter().filter(code) {
                added.push(namesake_use(id, s, e, sub));
            }
        }
        if !parent_last.is_empty() && parent_last.eq_ignore_ascii_case(last) {
            // `from .scaffold import Scaffold`: the bound name is the module's namesake.
            if let Some(id) = matcher.id_of(parent_last) {
                let all_uses = cue::bare_uses(bytes, &b.bound);
                for &(s, e) in all_uses.iter().filter(|u| code(u)) {
                    added.push(namesake_use(id, s, e, parent));
                }
                // A package's namesake class (`from quart import Quart`) is defined in one of
                // its modules, as any name it re-exports.
                if b.from_import && !rebinds(bytes, &all_uses) {
                    let uses = all_uses.iter().copied().filter(|u| code(u));
                    reexported(matcher, bytes, &b, parent_last, uses, &line_of, &mut added);
                }
            }
        } else if b.from_import && matcher.id_of(last).is_none() {
            // A name a module defines, imported from it (`from .cookies import merge_cookies`)
            // and used in code: the line calls or names what that module defines.
            // Only a line that shows the module's name keeps such a use (below): those lines
            // are searched, not the file (a module's names are many, its lines few).
            if let Some(id) = matcher.id_of(parent_last) {
                let lines = showing
                    .entry(parent_last.to_string())
                    .or_insert_with(|| lines_showing(bytes, parent_last));
                let uses: Vec<(usize, usize)> = lines
                    .iter()
                    .flat_map(|l| cue::bare_uses_within(bytes, &b.bound, l.clone()))
                    .collect();
                // (Every use of the name is looked for only where it may matter: a class is what
                // a package re-exports most, `Quart`, `Response`. Only the text may decide: a
                // matcher over the names a file shows must give what one over all names does.)
                let package = b.bound.starts_with(|c: char| c.is_ascii_uppercase());
                if !uses.is_empty() || package {
                    let all_uses = cue::bare_uses(bytes, &b.bound);
                    if !rebinds(bytes, &all_uses) {
                        for (s, e) in uses.into_iter().filter(code) {
                            added.push(mention(id, s, e, parent));
                        }
                        if package {
                            let uses = all_uses.iter().copied().filter(|u| code(u));
                            reexported(matcher, bytes, &b, parent_last, uses, &line_of, &mut added);
                        }
                    }
                }
            }
        } else if let Some(id) = matcher.id_of(last).filter(|_| namesake.is_none()) {
            // The module itself as a value (`swap_attr(support, …)`), if it is one: resolution
            // keeps the bindings that lead to a module's file. A file that binds the name to
            // something else too (`def f(string):`, `mock = Mock()`) says nothing by the bare
            // name.
            let uses = cue::bare_uses(bytes, &b.bound);
            if !rebinds(bytes, &uses) {
                for &(s, e) in uses.iter().filter(|u| code(u)) {
                    if is_value(bytes, e) {
                        added.push(mention(id, s, e, &b.module));
                    }
                }
            }
        }
        // A docstring's cross-reference to a name the file imports from a module
        // (``:exc:`.BadSignature` `` after `from .exc import BadSignature`) points a reader at
        // that module, on a line that shows its name as a use in code does.
        if b.from_import && !parent_last.is_empty() && matcher.id_of(last).is_none() {
            if let Some(id) = matcher.id_of(parent_last) {
                let targets = roles.get_or_insert_with(|| role_targets(bytes));
                let refs: Vec<(usize, usize)> = targets
                    .iter()
                    .copied()
                    .filter(|&(s, e)| &bytes[s..e] == b.bound.as_bytes())
                    .filter(|(s, _)| cue::inside(long_strings, *s))
                    .collect();
                if !refs.is_empty() {
                    let lines = showing
                        .entry(parent_last.to_string())
                        .or_insert_with(|| lines_showing(bytes, parent_last));
                    for (s, e) in refs {
                        if lines.iter().any(|l| l.contains(&s)) {
                            added.push(mention(id, s, e, parent));
                        }
                    }
                }
            }
        }
        for (s, e) in cue::qualified_uses(bytes, &b.bound)
            .into_iter()
            .filter(code)
        {
            let words = chain_words(bytes, e);
            // `tenacity.stop_after_attempt(1)` after `import tenacity`: a name the package may
            // re-export from a module the line shows (`stop=`), as after `from tenacity
            // import stop_after_attempt` (`reexported`; resolution reads the `__init__.py`).
            if let Some(&(word, _)) = words.first() {
                // (A class of its submodule's name, `multiprocessing.Pool`, is that guess's.)
                if words.len() == 1
                    && !word.starts_with('_')
                    && matcher.id_of(word).is_none()
                    && namesake_submodule(matcher, &b.module, word).is_none()
                {
                    let skip = [b.bound.as_str(), last];
                    let via = format!("{}/{word}", b.module);
                    let on_line = names_on_use_lines(
                        matcher,
                        bytes,
                        [(s, e)].into_iter(),
                        cue::Lang::Python,
                        &skip,
                    );
                    for (id, a, z) in on_line {
                        let bits = cue::CODE_FILE | cue::IMPORT | cue::QUALIFIED | cue::ENTRY;
                        guesses.push(code_mention(id, line_of(a), a, z, bits, via.clone()));
                    }
                }
            }
            let (mut module, mut module_last) = (b.module.clone(), last.to_string());
            for (i, (word, end)) in words.iter().enumerate() {
                // The module's namesake (`copy.copy`) or a private name (`utils._sanitize`):
                // this line uses the module itself, as a dunder does (`os.__all__`). A dunder a
                // file bears may also be a submodule (`httpx.__version__`): that too.
                let dunder = word.starts_with("__") && word.ends_with("__");
                // A private name a file bears is that private submodule (`click._compat`),
                // used on this line as the module itself.
                if word.starts_with('_') && !dunder {
                    if let Some(id) = matcher.id_of(word) {
                        added.push(mention(id, s, *end, &format!("{module}/{word}")));
                        break;
                    }
                }
                if word.eq_ignore_ascii_case(&module_last) || word.starts_with('_') {
                    if let Some(id) = matcher.id_of(&module_last) {
                        added.push(mention(id, s, e, &module));
                    }
                    if !(dunder && matcher.id_of(word).is_some()) {
                        break;
                    }
                }
                // A class reached through a package (`wrappers.Response()`) is the class of
                // the submodule named after it, where that exists, as when imported from it.
                if let Some((id, sub)) = namesake_submodule(matcher, &module, word) {
                    guesses.push(namesake_use(id, s, *end, &sub));
                    break;
                }
                let submodule = format!("{module}/{word}");
                // A folder (`mime` in `email.mime.text.MIMEText`) bears no name; the chain
                // goes on through it.
                let id = matcher.id_of(word);
                if i + 1 == words.len() {
                    // The chain's last word: a submodule as a value (`hasattr(logging.handlers,
                    // …)`); a call or an index is the package's attribute (`unittest.main()`).
                    if let Some(id) = id.filter(|_| is_value(bytes, *end)) {
                        added.push(mention(id, s, *end, &submodule));
                    }
                    break;
                }
                // A submodule used as a namespace, which no import of the file names: once.
                if let Some(id) = id.filter(|_| named.insert(submodule.clone())) {
                    added.push(mention(id, s, *end, &submodule));
                }
                module = submodule;
                module_last = word.to_string();
            }
        }
    }
    // An import line names each class it imports from a package as well as the package (its
    // `__init__.py`, by the module path): a reader of `from .wrappers import Response` needs
    // `wrappers/response.py`.
    for (s, e, package) in cue::from_imports(bytes) {
        let class = std::str::from_utf8(&bytes[s..e]).unwrap_or("");
        if let Some((id, sub)) = namesake_submodule(matcher, &package, class) {
            guesses.push(namesake_use(id, s, e, &sub));
        }
    }
    // A use's line shows the module's name: under an alias (`sec._os_alt_seps` after `import
    // werkzeug.security as sec`) the line names no file, and the import line is the reference.
    let shows_name = |(m, _): &(Mention, Cue)| {
        let ls = memchr::memrchr(b'\n', &bytes[..m.start]).map_or(0, |i| i + 1);
        let le = memchr::memchr(b'\n', &bytes[m.start..]).map_or(bytes.len(), |i| m.start + i);
        shows_word(&bytes[ls..le], matcher.name(m.name).as_bytes(), false)
    };
    // Except the first use of a module no import line names (`email.generator.X` after
    // `import email`): the file's one reference to it.
    let mut reached = imported;
    let mut first_or_shown = |mc: &(Mention, Cue)| {
        let via = mc.1.via.clone().unwrap_or_default();
        let first = !reached.contains(&via);
        reached.insert(via);
        first || shows_name(mc)
    };
    added.sort_by_key(|(m, _)| m.start);
    added.retain(&mut first_or_shown);
    guesses.sort_by_key(|(m, _)| m.start);
    guesses.retain(&mut first_or_shown);
    // A line keeps one mention of a name: a guessed namesake submodule, which may not exist,
    // never displaces another (`distutils.core.Extension = setuptools.extension.Extension`).
    found.extend(added);
    // (A bare word of code is never an edge: it yields. Nor does a word a re-exported name's
    // line shows, `cue::ENTRY`, a candidate the package's entry decides, as a guess is.)
    let taken: std::collections::HashSet<(u32, u32)> = found
        .iter()
        .filter(|(_, c)| c.bits & (cue::CODE_FILE | cue::IMPORT) != cue::CODE_FILE)
        .filter(|(_, c)| c.bits & cue::ENTRY == 0)
        .map(|(m, _)| (m.line, m.name))
        .collect();
    found.extend(
        guesses
            .into_iter()
            .filter(|(m, _)| !taken.contains(&(m.line, m.name))),
    );
}

/// A script's uses of a module it binds under the module's own name (`const context =
/// require('../helpers/context')`, then `context()`, `new Context()` after `import Context
/// from './context.js'`): each names the module, as Python's qualified uses do. Under another
/// name (`const Koa = require('..')`) a line shows no name of the file, and the import line is
/// the reference. A file that declares the name again (a parameter, a local) says nothing by it.
fn script_uses(matcher: &Matcher, bytes: &[u8], found: &mut Vec<(Mention, Cue)>) {
    let compiled = compiled_specs(bytes);
    let bindings = cue::script_bindings(bytes);
    if compiled.is_empty() && bindings.is_empty() {
        return;
    }
    let breaks: Vec<usize> = memchr::memchr_iter(b'\n', bytes).collect();
    let line_of = |at: usize| breaks.partition_point(|&p| p < at) as u32 + 1;
    // A compiled module's name for a source of another extension: TypeScript imports
    // `./errors/HTTPError.js` to mean `HTTPError.ts`. Where no file bears the written file name,
    // its stem is the module's name, through the written path without the extension. Only
    // names the file shows decide, so an incremental scan finds the same. (An index file is
    // known by its path only, which the line does not show: `./lib/index.js` is not followed.)
    for (at, spec) in compiled {
        let (last, stem, bare) = spec_parts(&spec);
        if matcher.id_of(last).is_some() {
            continue;
        }
        // An index module is known by its folder (`../source/index.js`: `source`), which the
        // written path shows; the folder is the module's path.
        let (word, via) = if stem == "index" {
            let dir = bare[..bare.len() - stem.len()].trim_end_matches('/');
            let folder = dir.rsplit('/').next().unwrap_or("");
            if folder.is_empty() || folder.starts_with('.') {
                continue;
            }
            (folder, dir)
        } else {
            (stem, bare)
        };
        let Some(id) = matcher.id_of(word) else {
            continue;
        };
        let s = at + via.len() - word.len();
        // The word as the matcher found it there (a folder inside a longer path) is this.
        found.retain(|(o, _)| (o.start, o.name) != (s, id));
        let m = code_mention(
            id,
            line_of(s),
            s,
            s + word.len(),
            cue::IMPORT,
            via.to_string(),
        );
        found.push(m);
    }
    let binding_lines: std::collections::HashSet<usize> = bindings
        .iter()
        .flat_map(|b| {
            let inner = memchr::memchr_iter(b'\n', &bytes[b.line_start..b.end]);
            std::iter::once(b.line_start).chain(inner.map(|i| b.line_start + i + 1))
        })
        .collect();
    // A test suite titled with the name of a module the file requires (`describe('vhost', …)`
    // after `require('../../examples/vhost')`) is that module's suite: the title names it.
    for b in &bindings {
        let (_, stem, via) = spec_parts(&b.spec);
        if stem.is_empty() || stem == "index" {
            continue;
        }
        let Some(id) = matcher.id_of(stem) else {
            continue;
        };
        for q in ["'", "\"", "`"] {
            let needle = format!("describe({q}{stem}{q}");
            for at in memchr::memmem::find_iter(bytes, needle.as_bytes()) {
                let s = at + "describe(".len() + 1;
                let m = code_mention(id, line_of(s), s, s + stem.len(), cue::IMPORT, via.into());
                found.push(m);
            }
        }
    }
    for b in &bindings {
        let (last, stem, via) = spec_parts(&b.spec);
        let entry = is_entry(&b.spec);
        // A name imported from a path without an extension that is not its own (`import {
        // ListItem } from '../shared/ui'`) may come through that folder's entry point, a barrel
        // (`ui/index.ts`); resolution reads the folder, as for `..` (`refs::decide_entry`).
        let mut barrel = false;
        if !stem.eq_ignore_ascii_case(&b.bound) && !entry {
            barrel = !last.contains('.');
            // A name a module defines, imported from it (`import {type TaskOptions} from
            // './options.js'`) and used on a line that shows the module's name (`(options:
            // TaskOptions) =>`): the line uses what that module defines, as Python's.
            let uses = matcher.id_of(stem).and_then(|id| {
                Some((
                    id,
                    cue::script_uses_of(bytes, &b.bound, &binding_lines, false)?,
                ))
            });
            for (id, (s, e)) in uses
                .into_iter()
                .flat_map(|(id, u)| u.into_iter().map(move |at| (id, at)))
            {
                let ls = memchr::memrchr(b'\n', &bytes[..s]).map_or(0, |i| i + 1);
                let le = memchr::memchr(b'\n', &bytes[s..]).map_or(bytes.len(), |i| s + i);
                let shown =
                    !module_words(&bytes[ls..le], cue::Lang::Script, |w| w == stem.as_bytes())
                        .is_empty();
                if shown {
                    let bits = cue::IMPORT | cue::QUALIFIED;
                    found.push(code_mention(id, line_of(s), s, e, bits, via.to_string()));
                }
            }
            if !barrel {
                continue;
            }
        }
        // Through an entry point, a line using the name that shows another module's name
        // (`request: KyRequest` after `import type {KyRequest} from '../index.js'`): the module
        // the entry may re-export it from, as Python's (`reexported`); resolution reads the
        // entry (via `spec#Name`).
        if entry {
            if let Some(uses) = cue::script_uses_of(bytes, &b.bound, &binding_lines, false) {
                let via = format!("{via}#{}", b.bound);
                let lowered = lower_first(&b.bound);
                let skip = [b.bound.as_str(), lowered.as_str()];
                // And a member of the name (`bodyParser.raw()`): the module the entry sets it
                // from, if any (`exports.raw = require('./lib/types/raw')`). A whole word, as
                // the matcher bounds names (`x.raw.y` holds none).
                let members: Vec<(u32, usize, usize)> = uses
                    .iter()
                    .filter_map(|&(_, e)| {
                        let (word, end) = member_after(bytes, e)?;
                        Some((matcher.id_of(word)?, end - word.len(), end))
                    })
                    .collect();
                let words =
                    names_on_use_lines(matcher, bytes, uses.into_iter(), cue::Lang::Script, &skip);
                for (id, a, z) in words.into_iter().chain(members) {
                    let bits = cue::IMPORT | cue::QUALIFIED | cue::ENTRY;
                    found.push(code_mention(id, line_of(a), a, z, bits, via.clone()));
                }
            }
        }
        // Through an entry point the bound name is the module's own name, as written or
        // with a capital (`Command` from `command.js`).
        let lowered;
        let name = if !entry && !barrel {
            stem
        } else if matcher.id_of(&b.bound).is_some() {
            b.bound.as_str()
        } else {
            lowered = lower_first(&b.bound);
            lowered.as_str()
        };
        let Some(id) = matcher.id_of(name) else {
            continue;
        };
        // A distinctive name (`HTTPError`) is the module's in the file's prose too.
        let prose = matcher.is_distinctive(id);
        let Some(uses) = cue::script_uses_of(bytes, &b.bound, &binding_lines, prose) else {
            continue;
        };
        let entry = entry || barrel;
        let entry_bit = if entry { cue::ENTRY } else { 0 };
        if entry {
            // The binding line is the import: the line shows the module's name only there.
            if let Some(s) = word_at(&bytes[b.line_start..b.end], b.bound.as_bytes()) {
                let s = b.line_start + s;
                let bits = cue::IMPORT | entry_bit;
                found.push(code_mention(
                    id,
                    line_of(s),
                    s,
                    s + name.len(),
                    bits,
                    via.to_string(),
                ));
            }
        }
        // As Python's: a line where the name only heads a dotted word (`helpers.mixin(x)`) or
        // is part of a hyphenated one (`'missing-provenance'`) shows no name of the file
        // alone; the import line is the reference.
        let shows = |at: usize| {
            let ls = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
            let le = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
            shows_word(&bytes[ls..le], name.as_bytes(), true)
        };
        for (s, e) in uses.into_iter().filter(|(s, _)| shows(*s)) {
            let bits = cue::IMPORT | cue::QUALIFIED | entry_bit;
            found.push(code_mention(id, line_of(s), s, e, bits, via.to_string()));
        }
    }
}

/// In a document's example of script (`bytes[start..end]`), a member of a package bound by its
/// bare name (`bodyParser.raw()` after `const bodyParser = require('body-parser')`): the module
/// the package's entry sets it from, when the package is the tree's own (its `package.json`:
/// resolution reads it, `refs::decide_entry`, via `package#Name`).
fn package_members(
    matcher: &Matcher,
    bytes: &[u8],
    start: usize,
    end: usize,
    found: &mut Vec<(Mention, Cue)>,
) {
    let code = &bytes[start..end];
    let bindings = cue::package_bindings(code);
    if bindings.is_empty() {
        return;
    }
    let first_line = memchr::memchr_iter(b'\n', &bytes[..start]).count() as u32 + 1;
    let breaks: Vec<usize> = memchr::memchr_iter(b'\n', code).collect();
    let line_of = |at: usize| first_line + breaks.partition_point(|&p| p < at) as u32;
    for (b, word, w_end) in package_member_uses(code, &bindings) {
        let Some(id) = matcher.id_of(word) else {
            continue;
        };
        let via = format!("{}#{}", b.spec, b.bound);
        let (a, z) = (start + w_end - word.len(), start + w_end);
        let bits = cue::IMPORT | cue::QUALIFIED | cue::ENTRY | cue::FENCE;
        found.push(code_mention(id, line_of(w_end), a, z, bits, via));
    }
}

/// Each member used of a package bound by its bare name in `code` (`bodyParser.raw()`, not
/// `bodyParser.raw.x`): the binding, the member, where it ends.
fn package_member_uses<'c, 'b>(
    code: &'c [u8],
    bindings: &'b [cue::ScriptBinding],
) -> Vec<(&'b cue::ScriptBinding, &'c str, usize)> {
    let binding_lines: std::collections::HashSet<usize> =
        bindings.iter().map(|b| b.line_start).collect();
    let mut out = Vec::new();
    // (The package itself, `x` or `@scope/x`: a subpath is a path, `refs::own_package_file`.)
    let whole = |spec: &str| spec.matches('/').count() <= usize::from(spec.starts_with('@'));
    for b in bindings.iter().filter(|b| whole(&b.spec)) {
        let Some(uses) = cue::script_uses_of(code, &b.bound, &binding_lines, false) else {
            continue;
        };
        for (_, e) in uses {
            if let Some((word, w_end)) = member_after(code, e) {
                out.push((b, word, w_end));
            }
        }
    }
    out
}

/// The member used of a name ending at `end` (`raw` in `bodyParser.raw()`), a whole word:
/// not one a further dot follows (`x.raw.y`), as the matcher bounds names. With where it ends.
fn member_after(bytes: &[u8], end: usize) -> Option<(&str, usize)> {
    let &(word, w_end) = chain_words(bytes, end).first()?;
    (bytes.get(w_end) != Some(&b'.')).then_some((word, w_end))
}

/// The members `package_members` looks up in an example's `code` (which a probe for new names
/// must know: `chained_words`).
fn package_member_words(code: &[u8]) -> Vec<String> {
    let bindings = cue::package_bindings(code);
    package_member_uses(code, &bindings)
        .into_iter()
        .map(|(_, w, _)| w.to_string())
        .collect()
}

/// A name a package re-exports from a module of its own (`from quart import Quart`, which
/// `quart/__init__.py` imports from `.app`): a line using it that shows that module's name
/// (`app = Quart(__name__)`) uses the module. Which module is the package entry's content, read
/// at resolution (`refs::decide_entry`): each name of a file on such a line is a candidate
/// (`cue::ENTRY`, via `package/Name`).
fn reexported(
    matcher: &Matcher,
    bytes: &[u8],
    b: &cue::Binding,
    package_last: &str,
    uses: impl Iterator<Item = (usize, usize)>,
    line_of: &dyn Fn(usize) -> u32,
    added: &mut Vec<(Mention, Cue)>,
) {
    let skip = [b.bound.as_str(), package_last];
    for (id, s, e) in names_on_use_lines(matcher, bytes, uses, cue::Lang::Python, &skip) {
        let bits = cue::CODE_FILE | cue::IMPORT | cue::QUALIFIED | cue::ENTRY;
        added.push(code_mention(id, line_of(s), s, e, bits, b.module.clone()));
    }
}

/// The names of files a line of code shows as words of their own (`module_words`), on each
/// line holding one of `uses` (once a line), but `skip`'s: `(name id, start, end)`.
fn names_on_use_lines(
    matcher: &Matcher,
    bytes: &[u8],
    uses: impl Iterator<Item = (usize, usize)>,
    lang: cue::Lang,
    skip: &[&str],
) -> Vec<(u32, usize, usize)> {
    let known = |w: &[u8]| {
        std::str::from_utf8(w).is_ok_and(|w| !skip.contains(&w) && matcher.id_of(w).is_some())
    };
    let mut out = Vec::new();
    let mut last_line = usize::MAX;
    for (s, _) in uses {
        let ls = memchr::memrchr(b'\n', &bytes[..s]).map_or(0, |i| i + 1);
        if std::mem::replace(&mut last_line, ls) == ls {
            continue;
        }
        let le = memchr::memchr(b'\n', &bytes[s..]).map_or(bytes.len(), |i| s + i);
        for (ws, we) in module_words(&bytes[ls..le], lang, known) {
            let word = std::str::from_utf8(&bytes[ls + ws..ls + we]).unwrap_or("");
            if let Some(id) = matcher.id_of(word) {
                out.push((id, ls + ws, ls + we));
            }
        }
    }
    out
}

/// The targets of the Sphinx cross-references of a file (``:class:`.Name` ``, ``:exc:`~pkg.mod.
/// Name` ``, ``:func:`Name` ``): each target's last name, with its span (read once a file).
fn role_targets(bytes: &[u8]) -> Vec<(usize, usize)> {
    const ROLES: [&[u8]; 9] = [
        b"class", b"exc", b"func", b"meth", b"attr", b"data", b"obj", b"const", b"mod",
    ];
    let mut out = Vec::new();
    for p in memchr::memmem::find_iter(bytes, b":`") {
        let head = &bytes[..p];
        let role_start = head
            .iter()
            .rposition(|b| !b.is_ascii_alphabetic())
            .map_or(0, |q| q + 1);
        if role_start == 0 || head[role_start - 1] != b':' || !ROLES.contains(&&head[role_start..])
        {
            continue;
        }
        let start = p + 2;
        let Some(len) = bytes[start..].iter().position(|b| *b == b'`') else {
            continue;
        };
        let target = &bytes[start..start + len];
        if target.is_empty()
            || !target
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'~'))
        {
            continue;
        }
        let last = target
            .iter()
            .rposition(|b| matches!(b, b'.' | b'~'))
            .map_or(0, |q| q + 1);
        if last < len {
            out.push((start + last, start + len));
        }
    }
    out
}

/// The words of a line of code that may be a module's name: identifiers standing alone, not an
/// attribute (`self.app`) nor the head of a dotted word (`app.config`), outside strings and
/// comments.
/// `wanted` is asked first (a name of a file), the costlier comment test after.
fn module_words(
    line: &[u8],
    lang: cue::Lang,
    wanted: impl Fn(&[u8]) -> bool,
) -> Vec<(usize, usize)> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < line.len() {
        if !ident(line[i]) || i > 0 && ident(line[i - 1]) {
            i += 1;
            continue;
        }
        let mut e = i;
        while e < line.len() && ident(line[e]) {
            e += 1;
        }
        let attribute = i > 0 && line[i - 1] == b'.';
        let head = line.get(e) == Some(&b'.');
        // Bounded as the matcher bounds names (`check` in `check-status` is none): a file's
        // candidates must be the names its text shows, whichever names are loaded.
        let hyphened = i > 0 && line[i - 1] == b'-' || line.get(e) == Some(&b'-');
        if !attribute
            && !head
            && !hyphened
            && !line[i].is_ascii_digit()
            && wanted(&line[i..e])
            && !cue::in_comment_or_string(line, i, e, lang)
        {
            out.push((i, e));
        }
        i = e;
    }
    out
}

/// `Command` → `command`: a class's name as its module's file is often named.
fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_ascii_lowercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// Whether a specifier names a package's entry point, not a module: a folder (`..`, `../`,
/// `../..`) or its index (`../source/index.js`).
fn is_entry(spec: &str) -> bool {
    let (last, stem, _) = spec_parts(spec);
    matches!(last, "" | "." | "..") || stem == "index"
}

/// Where `name` first stands as a word of its own in `line` (any case, not inside a longer
/// identifier nor after a dot).
fn word_at(line: &[u8], name: &[u8]) -> Option<usize> {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    memchr::memmem::find_iter(line, name).find(|&i| {
        let end = i + name.len();
        (i == 0 || !word(line[i - 1]) && line[i - 1] != b'.')
            && line.get(end).is_none_or(|b| !word(*b))
    })
}

/// A specifier's last component, its stem and the specifier without a script extension
/// (`../errors/HTTPError.js` → `HTTPError.js`, `HTTPError`, `../errors/HTTPError`); a last
/// component without one is its own stem (`./only`).
fn spec_parts(spec: &str) -> (&str, &str, &str) {
    let last = spec.rsplit('/').next().unwrap_or(spec);
    match last.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && cue::is_script_ext(ext) => {
            (last, stem, &spec[..spec.len() - ext.len() - 1])
        }
        _ => (last, last, spec),
    }
}

/// A script's relative specifiers written with a compiled extension (`./errors/HTTPError.js`,
/// `.mjs`, `.cjs`, `.jsx`), which TypeScript's source of the module is imported by: where each
/// starts, and the specifier.
fn compiled_specs(bytes: &[u8]) -> Vec<(usize, String)> {
    cue::script_specs(bytes)
        .into_iter()
        .filter(|(_, spec)| {
            let (last, stem, _) = spec_parts(spec);
            let ext = last.rsplit_once('.').map_or("", |(_, e)| e);
            stem != last && matches!(ext, "js" | "mjs" | "cjs" | "jsx")
        })
        .collect()
}

/// The stems of `compiled_specs`: names a script shows only before an extension, which no
/// matcher finds as whole names (an incremental scan must know them: `chained_words`).
fn compiled_stems(bytes: &[u8]) -> Vec<String> {
    compiled_specs(bytes)
        .iter()
        .map(|(_, spec)| spec_parts(spec).1.to_string())
        .collect()
}

/// A mention a code file makes through a module path `via` (an import, a use), its text filled
/// in later.
fn code_mention(
    id: u32,
    line: u32,
    start: usize,
    end: usize,
    bits: u64,
    via: String,
) -> (Mention, Cue) {
    let mention = Mention {
        name: id,
        line,
        text: String::new(),
        start,
        end,
    };
    let cue = Cue {
        bits: cue::CODE_FILE | bits,
        via: Some(via),
    };
    (mention, cue)
}

/// Whether `line` shows `name` (any case) as a word of its own: not inside a longer one, nor
/// the head of a dotted word (`types.UnionType` shows a name of `types`, not the module's name
/// alone).
/// With `hyphens`, a hyphen joins words too (`missing-provenance` is one).
fn shows_word(line: &[u8], name: &[u8], hyphens: bool) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || hyphens && b == b'-';
    (0..(line.len() + 1).saturating_sub(name.len())).any(|i| {
        let end = i + name.len();
        let dotted = line.get(end) == Some(&b'.')
            && line.get(end + 1).is_some_and(|b| b.is_ascii_alphanumeric());
        !name.is_empty()
            && line[i..end].eq_ignore_ascii_case(name)
            && (i == 0 || !word(line[i - 1]))
            && line.get(end).is_none_or(|b| !word(*b))
            && !dotted
    })
}

/// The lines of `bytes` that show `name` as a word of its own (`shows_word`).
fn lines_showing(bytes: &[u8], name: &str) -> Vec<std::ops::Range<usize>> {
    let finder = memchr::memmem::Finder::new(name.as_bytes());
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    // As the module is named (`self.cookies`): a use's line is found by the module's own
    // spelling.
    for at in finder.find_iter(bytes) {
        let ls = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
        if out.last().is_some_and(|l| l.start == ls) {
            continue;
        }
        let le = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
        if shows_word(&bytes[ls..le], name.as_bytes(), false) {
            out.push(ls..le);
        }
    }
    out
}

/// The submodule a class imported from a package is named after (`Environment` from `jinja2`:
/// `jinja2/environment`), when some file bears that name: its id and module path.
fn namesake_submodule(matcher: &Matcher, package: &str, class: &str) -> Option<(u32, String)> {
    let first = class.as_bytes().first()?;
    if package.is_empty() || !first.is_ascii_uppercase() {
        return None;
    }
    let lower = class.to_ascii_lowercase();
    let id = matcher.id_of(&lower)?;
    let sep = if package.ends_with('/') { "" } else { "/" };
    Some((id, format!("{package}{sep}{lower}")))
}

/// Whether a Python file binds a name other than by importing it, judged at its bare uses
/// (`cue::bare_uses`): an assignment (`name =`, `name: T =`), a parameter (on a `def` or
/// `lambda` line), a loop or `with … as` target.
fn rebinds(bytes: &[u8], uses: &[(usize, usize)]) -> bool {
    uses.iter().any(|&(s, e)| {
        let le = memchr::memchr(b'\n', &bytes[e..]).map_or(bytes.len(), |i| e + i);
        let rest = bytes[e..le].trim_ascii_start();
        // `a, name = …` unpacks into it; `name: T = …` annotates it.
        let unpacked = || {
            memchr::memchr(b'=', rest)
                .is_some_and(|i| rest.get(i + 1) != Some(&b'=') && !rest[..i].contains(&b'('))
        };
        let ls = memchr::memrchr(b'\n', &bytes[..s]).map_or(0, |i| i + 1);
        let lead = bytes[ls..s].trim_ascii_start();
        // After a colon the name is an annotation (`align: AlignMethod = "center"`), whatever
        // follows it: the parameter is assigned, not the name.
        let annotation = lead.trim_ascii_end().ends_with(b":");
        let assigned = !annotation
            && match rest.first() {
                Some(b'=') => rest.get(1) != Some(&b'='),
                Some(b':') => rest.get(1) != Some(&b'='),
                Some(b',') => unpacked(),
                _ => false,
            };
        let target =
            lead.ends_with(b"for ") || lead.ends_with(b"as ") || lead.ends_with(b"global ");
        // A parameter's name, not its annotation (`def f(self, app: Quart)` uses `Quart`).
        let param = (lead.starts_with(b"def ")
            || lead.starts_with(b"async def ")
            || memchr::memmem::find(lead, b"lambda").is_some())
            && matches!(
                bytes[ls..s].trim_ascii_end().last(),
                Some(b'(' | b',' | b'*') | None
            )
            || lead.ends_with(b"lambda ");
        assigned && !lead.contains(&b'(') || target || param
    })
}

/// Whether a name ending at `end` is used as a value: not called, indexed or assigned to.
fn is_value(bytes: &[u8], end: usize) -> bool {
    let rest = bytes[end..].trim_ascii_start();
    match rest.first() {
        None => true,
        Some(b'(' | b'[' | b'.') => false,
        Some(b'=') => rest.get(1) == Some(&b'='),
        Some(_) => true,
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

/// The words a file may name a module by that are not written as whole names: in Python, the
/// words of qualified uses' chains (`generator` in `email.generator.X`, a private `_x` in
/// `m._x-`), and the submodules its imported classes may be namesakes of (`environment` for
/// `from jinja2 import Environment`, `process` for `multiprocessing.Process`,
/// `namesake_submodule`); in a script, the stems of compiled names (`compiled_stems`).
pub fn chained_words(bytes: &[u8], path: &str) -> Vec<String> {
    let langs = cue::FileLangs::of(path, bytes);
    match langs.base() {
        Some(cue::Lang::Python) => {}
        Some(cue::Lang::Script) => return compiled_stems(bytes),
        // A document's examples: the members of packages they bind (`package_members`).
        _ => {
            let mut out = Vec::new();
            for &(s, e, lang) in langs.fences() {
                if lang == cue::Lang::Script {
                    out.extend(package_member_words(&bytes[s..e]));
                }
            }
            return out;
        }
    }
    let upper = |w: &str| w.as_bytes().first().is_some_and(u8::is_ascii_uppercase);
    let mut out = Vec::new();
    // The words of dotted strings: `patched_internals` looks each up.
    for words in dotted_strings(bytes) {
        out.extend(
            words
                .iter()
                .filter_map(|(_, w)| std::str::from_utf8(w).ok().map(str::to_string)),
        );
    }
    // (The bindings `qualified` reads, a package's submodules too.)
    for b in bindings_of(bytes, path) {
        let last = b.module.rsplit('/').next().unwrap_or_default();
        if upper(last) {
            out.push(last.to_ascii_lowercase());
        }
        // Every word of a chain: `qualified` looks each up (a namespace, a private name, the
        // last word as a value), so a matcher built from a file's own words needs them all.
        for (_, e) in cue::qualified_uses(bytes, &b.bound) {
            for (w, _) in chain_words(bytes, e) {
                out.push(w.to_string());
                if upper(w) {
                    out.push(w.to_ascii_lowercase());
                }
            }
        }
    }
    out
}

/// A Markdown link to a folder (`[guide](./security-guidance/)`) shows the folder's README: it
/// is a mention of `<folder>/README.md` written as that path, when the name is known.
fn folder_links(matcher: &Matcher, bytes: &[u8], path: &str, found: &mut Vec<(Mention, Cue)>) {
    // Links come in order: lines are counted from the previous one.
    let (mut line, mut counted_to) = (1u32, 0usize);
    for (start, end, name, via) in folder_link_targets(bytes, path) {
        let Some(id) = matcher.id_of(&name) else {
            continue;
        };
        line += memchr::memchr_iter(b'\n', &bytes[counted_to..start]).count() as u32;
        counted_to = start;
        let mention = unwritten(id, line, start, end);
        let cue = Cue {
            bits: 0,
            via: Some(via),
        };
        found.push((mention, cue));
    }
}

/// A mention of the name `id` whose written form is not the name itself (a link's target, a
/// drawn entry): its evidence is cut later, as any mention's.
fn unwritten(id: u32, line: u32, start: usize, end: usize) -> Mention {
    Mention {
        name: id,
        line,
        text: String::new(),
        start,
        end,
    }
}

/// `(start, end)` of each Markdown link target of a Markdown file (`[t](target)`), up to its
/// `)`, space, line end, anchor or query.
fn link_targets(bytes: &[u8], path: &str) -> Vec<(usize, usize)> {
    if !crate::scan::frontmatter::applies_to(path) {
        return Vec::new();
    }
    memchr::memmem::find_iter(bytes, b"](")
        .filter_map(|at| {
            let start = at + 2;
            let len = bytes[start..]
                .iter()
                .position(|b| matches!(b, b')' | b' ' | b'\n' | b'#' | b'?'))?;
            Some((start, start + len))
        })
        .collect()
}

/// The links of a Markdown file to a folder or to a page written without its extension:
/// `(start, end)` of each target, a name it leads to and the path written for it. A folder
/// (`./security-guidance/`, or `crates/miden-tx` without its slash) shows its README; a
/// documentation site links a page by its path without `.md` (`[notes](note)`), which
/// resolution finds only where that file exists. No URL, anchor or `..` alone.
fn folder_link_targets(bytes: &[u8], path: &str) -> Vec<(usize, usize, String, String)> {
    let mut out = Vec::new();
    for (start, end) in link_targets(bytes, path) {
        let target = &bytes[start..end];
        if !matches!(bytes[end], b')' | b'#')
            || target.is_empty()
            || memchr::memmem::find(target, b"://").is_some()
            || target.contains(&b':')
        {
            continue;
        }
        let Ok(t) = std::str::from_utf8(target) else {
            continue;
        };
        let slash = t.ends_with('/');
        let last = t
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or_default();
        if last.is_empty() || last == "." || last == ".." || !slash && last.contains('.') {
            continue;
        }
        let dir = t.trim_end_matches('/');
        out.push((
            start,
            end,
            format!("{last}/README.md"),
            format!("{dir}/README.md"),
        ));
        if !slash {
            // Relative as written: the page beside the mentioning file, or none.
            let rel = if t.starts_with("./") || t.starts_with("../") {
                String::new()
            } else {
                "./".to_string()
            };
            out.push((start, end, format!("{last}.md"), format!("{rel}{t}.md")));
        }
    }
    out
}

/// A file every folder may hold (`SKILL.md`, `README.md`) is known by its folder, not its name
/// alone: the matcher has no name for `SKILL.md`. Written as a Markdown link's target
/// (`[SKILL.md](SKILL.md)`, `[back](../README.md)`) or as an entry of a drawn tree under a
/// folder (`cloudflare-manager/` then `├── SKILL.md`), it is a path all the same: a mention of
/// the name its folder and file make (`cloudflare-manager/SKILL.md`), written as that path.
fn generic_paths(matcher: &Matcher, bytes: &[u8], path: &str, found: &mut Vec<(Mention, Cue)>) {
    for (start, end, name, via) in generic_path_targets(bytes, path) {
        let written = bytes[start..end]
            .rsplit(|b| *b == b'/')
            .next()
            .unwrap_or_default();
        // A name of its own leads there by the matcher's mention, unless it is only the root's
        // file's (`README.md`): a link to another folder's is that folder's.
        let known_alone = std::str::from_utf8(written)
            .is_ok_and(|w| matcher.id_of(w).is_some() && !matcher.is_conventional(w));
        let Some(id) = matcher.id_of(&name).filter(|_| !known_alone) else {
            continue;
        };
        let line = memchr::memchr_iter(b'\n', &bytes[..start]).count() as u32 + 1;
        let cue = Cue {
            bits: 0,
            via: Some(via),
        };
        found.push((unwritten(id, line, start, end), cue));
    }
}

/// A conventional file name written alone (`config.json`) means the file of that name beside
/// the writer or in a folder above it ("next to it", as the rubric reads a sibling file);
/// after `./` or `../` steps, the file those lead to. Resolution keeps the one that exists.
/// In a program (`code`) a bare file name is a value the program works on (a test writes a
/// `'__main__.py'` of its own): only a written step says it is the program's neighbour.
fn generic_near(
    matcher: &Matcher,
    bytes: &[u8],
    path: &str,
    code: bool,
    found: &mut Vec<(Mention, Cue)>,
) {
    let spans = matcher.generic_spans(bytes);
    if spans.is_empty() {
        return;
    }
    let own_base = path.rsplit('/').next().unwrap_or(path);
    // A document's or a folder's defining file written bare is mostly the kind of file ("each
    // skill has a SKILL.md", "keep SKILL.md under 500 lines"), not the one beside the writer.
    // (Python's `__main__.py` too: a role, not a file.)
    let kind_of_file = |base: &str| {
        crate::scan::names::defines_folder(base)
            || base.starts_with("__")
            || base
                .rsplit_once('.')
                .is_some_and(|(_, x)| x.eq_ignore_ascii_case("md"))
    };
    let prose = crate::scan::frontmatter::applies_to(path);
    let own_tests = std::cell::OnceCell::new();
    for (s, e, base, steps) in spans {
        // Except a skill's own SKILL.md, written bare in a document of its folders ("Read
        // SKILL.md for full instructions", "(SKILL.md)"): the nearest above, not a kind of
        // file unless a determiner says so ("a SKILL.md", "each skill's SKILL.md").
        // A skill's own tests that open its SKILL.md (`SKILL_DIR / "SKILL.md"`) test it ("Test
        // that SKILL.md is under 500 lines"): there too it is the skill's. (A test of a hook
        // that fires for any SKILL.md opens none.)
        let own_skill = steps.is_none()
            && (prose || code && *own_tests.get_or_init(|| opens_skill_md(bytes, path)))
            && base.eq_ignore_ascii_case("SKILL.md")
            && !own_base.eq_ignore_ascii_case("SKILL.md")
            && !determined(&bytes[..s], path)
            && !file_kind_after(&bytes[e..])
            && !drawn_entry(bytes, s);
        if steps.is_none() && (code || kind_of_file(base)) && !own_skill {
            continue;
        }
        let line = memchr::memchr_iter(b'\n', &bytes[..s]).count() as u32 + 1;
        for (name, via) in generic_near_names(path, base, steps.as_deref()) {
            if steps.is_none() && via == format!("./{own_base}") {
                continue;
            }
            // (Not from deeper than two folders below it, a copy of others' pages; nor in a
            // skill about skills, whose subject is every skill's SKILL.md.)
            if own_skill && (via.matches("../").count() > 2 || about_skills(&name)) {
                break;
            }
            if let Some(id) = matcher.id_of(&name) {
                let cue = Cue {
                    bits: 0,
                    via: Some(via),
                };
                found.push((unwritten(id, line, s, e), cue));
                if own_skill {
                    break;
                }
            }
        }
    }
}

/// Whether the program at `path` is a test that opens a SKILL.md it joins onto a folder
/// (`skill_dir / "SKILL.md"`, `join(dir, 'SKILL.md')`).
fn opens_skill_md(bytes: &[u8], path: &str) -> bool {
    crate::scan::resolve::is_test(path)
        && ["\"SKILL.md\"", "'SKILL.md'"].iter().any(|q| {
            memchr::memmem::find_iter(bytes, q.as_bytes())
                .any(|at| matches!(bytes[..at].trim_ascii_end().last(), Some(b'/' | b',')))
        })
}

/// Whether the text at `at` is an entry of a drawn folder tree (`├── SKILL.md`), which leads
/// where the drawing's folders do (`generic_paths`), not to the writer's neighbour.
fn drawn_entry(bytes: &[u8], at: usize) -> bool {
    let ls = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
    std::str::from_utf8(&bytes[ls..at]).is_ok_and(|head| head.contains(['├', '└', '│']))
}

/// Whether the skill whose SKILL.md is `name` (`folder/SKILL.md`) is about skills
/// (`skill-creator`, `writing-skills`): there a SKILL.md written bare is any skill's.
fn about_skills(name: &str) -> bool {
    let folder = name.rsplit_once('/').map_or("", |(f, _)| f);
    folder
        .split(['-', '_'])
        .any(|w| w.eq_ignore_ascii_case("skill") || w.eq_ignore_ascii_case("skills"))
}

/// Whether the word after a file name makes it a kind of file ("SKILL.md format", "SKILL.md
/// files").
fn file_kind_after(after: &[u8]) -> bool {
    let t = after.strip_prefix(b"`").unwrap_or(after).trim_ascii_start();
    let end = t
        .iter()
        .position(|b| !b.is_ascii_alphabetic())
        .unwrap_or(t.len());
    let w = t[..end].to_ascii_lowercase();
    matches!(
        w.as_slice(),
        b"files" | b"format" | b"formats" | b"standard" | b"spec" | b"specification" | b"schema"
    )
}

/// Whether the text before a file name ends with a word that makes it a kind of file or
/// another's: a determiner ("a", "each", "its own"), a possessive ("the skill's"), a name
/// ("the repo-equip-engine SKILL.md") other than a folder holding the writer (`path`), what
/// holds or lacks one ("contain SKILL.md").
fn determined(before: &[u8], path: &str) -> bool {
    let t = before.trim_ascii_end();
    let t = t.strip_suffix(b"`").unwrap_or(t).trim_ascii_end();
    let word_start = t
        .iter()
        .rposition(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'\'' | b'-' | b'_')))
        .map_or(0, |i| i + 1);
    let w = t[word_start..].to_ascii_lowercase();
    let own_folder = || {
        let dir = crate::scan::resolve::dir_of(path);
        dir.split('/')
            .any(|f| f.as_bytes().eq_ignore_ascii_case(&w))
    };
    let named = w.first().is_some_and(u8::is_ascii_alphanumeric)
        && w.last().is_some_and(u8::is_ascii_alphanumeric)
        && w.iter().any(|b| matches!(b, b'-' | b'_'));
    // After a verb of checking, "that" opens a clause ("Test that SKILL.md is short"), it
    // points at no other file.
    if w == b"that" {
        let head = t[..word_start].trim_ascii_end();
        let verb_start = head
            .iter()
            .rposition(|b| !b.is_ascii_alphabetic())
            .map_or(0, |i| i + 1);
        let verb = head[verb_start..].to_ascii_lowercase();
        let stem = verb.strip_suffix(b"s").unwrap_or(&verb);
        if matches!(
            stem,
            b"test"
                | b"check"
                | b"verify"
                | b"verifie"
                | b"ensure"
                | b"assert"
                | b"confirm"
                | b"validate"
                | b"sure"
        ) {
            return false;
        }
    }
    w.ends_with(b"'s")
        || w.ends_with(b"s'")
        || named && !own_folder()
        || matches!(
            w.as_slice(),
            b"a" | b"an"
                | b"each"
                | b"every"
                | b"any"
                | b"its"
                | b"their"
                | b"your"
                | b"own"
                | b"per"
                | b"no"
                | b"one"
                | b"new"
                | b"another"
                | b"other"
                | b"that"
                | b"whose"
                | b"contain"
                | b"contains"
                | b"has"
                | b"have"
                | b"missing"
                | b"lacks"
        )
}

/// The names (`folder/base`) and relative paths `generic_near` may take for `base` written in
/// the file at `path`: after `steps`, the one it leads to; alone, one for each folder from the
/// file's own up to (not including) the root.
fn generic_near_names(path: &str, base: &str, steps: Option<&str>) -> Vec<(String, String)> {
    let dir = crate::scan::resolve::dir_of(path);
    let mut out = Vec::new();
    match steps {
        Some(steps) => {
            let via = if steps.is_empty() {
                format!("./{base}")
            } else {
                format!("{steps}{base}")
            };
            if let Some(resolved) = crate::scan::refs::join_normal(dir, &via) {
                if let Some((folder_path, _)) = resolved.rsplit_once('/') {
                    let folder = folder_path.rsplit('/').next().unwrap_or(folder_path);
                    out.push((format!("{folder}/{base}"), via));
                }
            }
        }
        None => {
            let mut d = dir;
            for up in 0.. {
                if d.is_empty() {
                    break;
                }
                let folder = d.rsplit('/').next().unwrap_or(d);
                let steps = if up == 0 {
                    "./".to_string()
                } else {
                    "../".repeat(up)
                };
                out.push((format!("{folder}/{base}"), format!("{steps}{base}")));
                d = d.rsplit_once('/').map_or("", |(p, _)| p);
            }
        }
    }
    out
}

/// Every name `generic_near` could take in the file at `path`, for a matcher that knows only
/// the names the file holds: those of each written file name (`stem.ext`, alone or after
/// relative steps), whatever the tree's conventional names are.
fn generic_near_words(bytes: &[u8], path: &str) -> Vec<String> {
    let file_byte = |b: u8| crate::scan::matcher::is_name_byte(b) || b == b'.';
    let mut tokens: std::collections::HashSet<(&str, Option<String>)> =
        std::collections::HashSet::new();
    let mut hidden: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut i = 0;
    while i < bytes.len() {
        if !file_byte(bytes[i]) || bytes[i] == b'.' {
            i += 1;
            continue;
        }
        let s = i;
        while i < bytes.len() && file_byte(bytes[i]) {
            i += 1;
        }
        // (A hidden file's name, `.mcp.json`, starts at its dot; after steps too, `../.env`:
        // looked up for every folder above, as a name written alone is.)
        let hidden_start = s == 1 || s > 1 && !file_byte(bytes[s - 2]);
        if s > 0 && bytes[s - 1] == b'.' && hidden_start {
            // (Each prefix before a dot too, as below: `.env` in `.env.example`.)
            if let Ok(t) = std::str::from_utf8(&bytes[s - 1..i]) {
                let cuts = t.match_indices('.').map(|(k, _)| k).skip(1);
                for end in cuts.chain([t.len()]) {
                    hidden.insert(t[..end].to_string());
                }
            }
        }
        if s > 0 && file_byte(bytes[s - 1]) {
            continue;
        }
        let mut p = s;
        while p > 0 && matches!(bytes[p - 1], b'.' | b'/') {
            p -= 1;
        }
        let steps = std::str::from_utf8(&bytes[p..s]).unwrap_or("");
        let steps = steps.strip_prefix('/').unwrap_or(steps);
        // A conventional name ends where the run does or before a dot (`settings.json..`,
        // `config.json.bak`): each such prefix that has a dot of its own.
        let run = &bytes[s..i];
        let ends = run
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'.')
            .map(|(k, _)| k)
            .chain([run.len()]);
        for end in ends {
            let tok = &run[..end];
            if !tok.contains(&b'.') {
                continue;
            }
            let Ok(t) = std::str::from_utf8(tok) else {
                continue;
            };
            tokens.insert((t, None));
            if !steps.is_empty() {
                tokens.insert((t, Some(steps.to_string())));
            }
        }
    }
    tokens
        .into_iter()
        .flat_map(|(t, steps)| generic_near_names(path, t, steps.as_deref()))
        .chain(
            hidden
                .iter()
                .flat_map(|t| generic_near_names(path, t, None)),
        )
        .map(|(name, _)| name)
        .collect()
}

/// The targets of `generic_paths` in a Markdown file: `(start, end, name, via)` of each link
/// target with no folder of its own (`x.md`, `./x.md`, `../x.md`) and each drawn tree entry under
/// a folder; `name` is the last folder and the file name of the path it leads to, `via` that
/// path as written (relative to the file) or drawn.
fn generic_path_targets(bytes: &[u8], path: &str) -> Vec<(usize, usize, String, String)> {
    let mut out = Vec::new();
    for (start, end) in link_targets(bytes, path) {
        let Ok(target) = std::str::from_utf8(&bytes[start..end]) else {
            continue;
        };
        let parts: Vec<&str> = target.split('/').collect();
        let Some((base, folders)) = parts.split_last() else {
            continue;
        };
        if base.is_empty()
            || !base.contains('.')
            || target.contains("://")
            || !folders.iter().all(|f| matches!(*f, "." | ".."))
        {
            continue;
        }
        let Some(resolved) = crate::scan::refs::join_normal(dir_of(path), target) else {
            continue;
        };
        let mut comps = resolved.rsplit('/');
        let (Some(b), Some(folder)) = (comps.next(), comps.next()) else {
            continue;
        };
        let via = if folders.is_empty() {
            format!("./{target}")
        } else {
            target.to_string()
        };
        out.push((start, end, format!("{folder}/{b}"), via));
    }
    if TREE_MARKS
        .iter()
        .any(|m| memchr::memmem::find(bytes, m).is_some())
    {
        for (_, start, end, drawn, _) in drawn_paths(bytes) {
            let mut comps = drawn.rsplit('/');
            if let (Some(b), Some(folder)) = (comps.next(), comps.next()) {
                // A package's marker (`__init__.py`, `index.js`) is drawn in every package of
                // an example project's tree: structure, not a file the drawing points to.
                let stem = b.split('.').next().unwrap_or(b);
                if b.contains('.') && !matches!(stem, "__init__" | "__main__" | "index" | "mod") {
                    out.push((start, end, format!("{folder}/{b}"), drawn.clone()));
                }
            }
        }
    }
    out
}

/// The names of the READMEs a Markdown file's folder links lead to (see `folder_links`): no
/// candidates of `matcher::for_each_candidate`, as they are not written.
pub fn folder_link_names(bytes: &[u8], path: &str) -> Vec<String> {
    folder_link_targets(bytes, path)
        .into_iter()
        .map(|(_, _, n, _)| n)
        .collect()
}

/// The names `generic_paths` may take (no candidates of `matcher::for_each_candidate`: they
/// are not written whole).
pub fn generic_path_names(bytes: &[u8], path: &str) -> Vec<String> {
    generic_path_targets(bytes, path)
        .into_iter()
        .map(|(_, _, n, _)| n)
        .collect()
}

/// The words `mentions_in` may take as names that are no candidates of
/// `matcher::for_each_candidate`: the words of qualified uses' chains in a Python file (no
/// whole names: followed by `.` and a letter), the READMEs of folder links, the lower-cased
/// form of every capitalised word
/// (`Observer`: the matcher finds a one-word name capitalised, `matcher::capitalised`), and of
/// a capitalised word that may head a list of names (`capitalized_list_heads`). A matcher built
/// from only the names a file holds must include these to find what a matcher over all names
/// finds.
pub fn unseen_words(bytes: &[u8], path: &str) -> Vec<String> {
    let mut out: Vec<String> = chained_words(bytes, path);
    out.extend(kind_words(bytes).into_iter().map(|(_, _, w)| w));
    out.extend(folder_link_names(bytes, path));
    out.extend(generic_path_names(bytes, path));
    out.extend(generic_near_words(bytes, path));
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
            let Ok(w) = std::str::from_utf8(word) else {
                continue;
            };
            let lower = w.to_ascii_lowercase();
            // `Observer`, `Meta-Agent`: the forms the matcher finds of `observer`, `meta-agent`.
            if word.first().is_some_and(u8::is_ascii_uppercase)
                && crate::scan::matcher::capitalised(&lower)
                    .iter()
                    .any(|c| c == w)
            {
                out.push(lower);
                continue;
            }
            // `security-auditor`: the form the matcher finds of `Security-Auditor`.
            if word.contains(&b'-') && w == lower {
                let title: String = w
                    .split('-')
                    .map(|p| {
                        let mut t = p.to_string();
                        if let Some(f) = t.get_mut(..1) {
                            f.make_ascii_uppercase();
                        }
                        t
                    })
                    .collect::<Vec<_>>()
                    .join("-");
                if crate::scan::matcher::capitalised(&title)
                    .iter()
                    .any(|c| c == w)
                {
                    out.push(title);
                }
                continue;
            }
            if !capitalised(word) {
                continue;
            }
            // A superset of the list heads: a capitalised word that starts a sentence and is
            // followed by a list joiner.
            if !sentence_start(&line[..s]) {
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
                out.push(lower);
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
    fn found(names: &[&str], text: &str, path: &str) -> Vec<(String, u32, u64, Option<String>)> {
        let m = Matcher::new(names, Engine::Automaton).unwrap_or_else(|e| panic!("{e}"));
        mentions_in(&m, text.as_bytes(), path)
            .into_iter()
            .map(|(x, c)| (m.name(x.name).to_string(), x.line, c.bits, c.via))
            .collect()
    }

    /// The lines and written forms of `got`'s mentions of `name`.
    fn lines_of<'g>(
        got: &'g [(String, u32, u64, Option<String>)],
        name: &str,
    ) -> Vec<(u32, Option<&'g str>)> {
        got.iter()
            .filter(|g| g.0 == name)
            .map(|g| (g.1, g.3.as_deref()))
            .collect()
    }

    fn listed(names: &[&str], text: &str, name: &str) -> bool {
        found(names, text, "a.md")
            .iter()
            .any(|(n, _, bits, _)| n == name && bits & cue::LIST != 0)
    }

    #[test]
    fn a_file_name_closing_a_longer_path_than_the_name_found_is_asked_too() {
        let names = ["agents/aws.md", "aws.md"];
        let tails = |text: &str| -> Vec<(String, Option<String>)> {
            found(&names, text, "plugins/p/.claude-plugin/plugin.json")
                .into_iter()
                .filter(|(_, _, bits, _)| bits & cue::TAIL != 0)
                .map(|(n, _, _, via)| (n, via))
                .collect()
        };
        assert_eq!(
            tails(r#"  "./templates/claude/agents/aws.md","#),
            vec![(
                "aws.md".to_string(),
                Some("./templates/claude/agents/aws.md".to_string())
            )]
        );
        // The name found is the path written: nothing more to ask, except in a plugin's
        // file, whose path from a root may lead to the plugin's own copy.
        for text in ["[x](./agents/aws.md)", "../agents/aws.md"] {
            assert!(tails(text).is_empty(), "{text}");
        }
        assert_eq!(tails("see agents/aws.md").len(), 1);
        let outside = found(&names, "see agents/aws.md", "docs/a.md");
        assert!(outside.iter().all(|(_, _, bits, _)| bits & cue::TAIL == 0));
    }

    #[test]
    fn a_title_case_name_within_a_sentence_is_a_proper_name() {
        let proper = |text: &str| {
            found(&["Advocate"], text, "a.md")
                .iter()
                .any(|(_, _, bits, _)| bits & cue::PROPER != 0)
        };
        assert!(proper("I want Advocate to have a skill\n"));
        assert!(proper("is given (Advocate). Both: no\n"));
        // At a sentence's or an item's start, in a heading, or written lower: no more than
        // the word.
        assert!(!proper("Advocate already lists a11y\n"));
        assert!(!proper("- Advocate testing in /tmp\n"));
        assert!(!proper("## Skill Addition to Advocate\n"));
        assert!(!proper("a devil's advocate here\n"));
        // A name declared in lower case, capitalised, is a capitalised word.
        let got = found(&["advocate"], "I want Advocate here\n", "a.md");
        assert!(got.iter().all(|(_, _, bits, _)| bits & cue::PROPER == 0));
    }

    #[test]
    fn a_capitalised_word_said_to_be_a_skill_or_a_command_is_found() {
        let lines = |text: &str| -> Vec<u32> {
            found(&["setup"], text, "a.md")
                .iter()
                .map(|g| g.1)
                .collect()
        };
        assert_eq!(
            lines("x. Setup skill detects it.\nUse the Setup command.\nSetup Step 4b.\n"),
            vec![1, 2]
        );
        // Not a file's name after it, nor a kind written in capitals inside (`SKILL.md`).
        assert!(lines("Setup SKILL.md here\nSetup skills.md\n").is_empty());
        // A title's run or a family is no one thing.
        assert!(
            lines("The Claude Setup command system\n# Effective Setup Skill\nSetup skills\n")
                .is_empty()
        );
        assert!(lines("## Setup Command Reference\n").is_empty());
        assert_eq!(lines("# Setup Command - Specification\n"), vec![1]);
    }

    #[test]
    fn a_kind_of_file_said_after_a_name_and_a_dotfile_in_prose_are_read() {
        let one = |names: &[&str], text: &str, path: &str| -> u64 {
            found(names, text, path).first().map_or(0, |g| g.2)
        };
        let said = |text: &str| cue::folder_noun(one(&["issue-writer"], text, "a.md"));
        assert_eq!(said("the issue-writer prompt\n"), Some("prompt"));
        assert_eq!(said("`issue-writer` Templates here\n"), Some("template"));
        assert_eq!(said("the issue-writer skill\n"), None);
        assert_eq!(said("issue-writer prompts the user\n"), Some("prompt"));
        // In prose a dotted name after its dot is a dotfile's, no kind of file (`.md`).
        let dot = one(
            &["gitlab-ci.yml"],
            "The `.gitlab-ci.yml` template\n",
            "a.md",
        );
        assert!(dot & cue::DOTFILE != 0 && dot & cue::LABEL == 0, "{dot:b}");
        assert!(one(&["md"], "any `.md` file\n", "a.md") & cue::LABEL != 0);
    }

    #[test]
    fn a_script_folder_found_through_links_is_the_scripts_own() {
        let script = "#!/usr/bin/env bash\nSCRIPT_DIR=\"$(cd \"$(dirname \"$SOURCE\")\" && pwd)\"\nLIB_DIR=\"$SCRIPT_DIR/shared/lib\"\nbash \"$LIB_DIR/expand.sh\"\n";
        let got = found(&["expand.sh"], script, "tool");
        assert_eq!(
            lines_of(&got, "expand.sh"),
            vec![(4, Some("$SCRIPT_DIR/shared/lib/expand.sh"))]
        );
    }

    #[test]
    fn a_file_name_inside_a_longer_dotted_one_is_not_its_own() {
        let names = ["en.json", "helpers_lib"];
        let got = found(&names, "write source-catalog.en.json and en.json\n", "a.md");
        assert_eq!(got.len(), 1, "{got:?}");
        let got = found(
            &["actuator.py"],
            "Tests for ``sympy.mechanics.actuator.py``",
            "t.py",
        );
        assert_eq!(got.len(), 1, "{got:?}");
        // (A module after its package's dot is still found: `lib.helpers_lib`.)
        let got = found(&names, "x = \"lib.helpers_lib\"\n", "t.py");
        assert_eq!(got.len(), 1, "{got:?}");
        // After a wildcard's dot, a name closes a pattern of many files' names; after a bare
        // dot it may be a dotfile's.
        for text in [
            "[[ \"$(basename \"$h\")\" == *.test.sh ]] && continue\n",
            "for t in \"${REPO}/hooks/\"*.test.sh; do\n",
        ] {
            assert!(found(&["test.sh"], text, "h.sh").is_empty(), "{text}");
        }
        for text in [
            "run ./test.sh\n",
            "run ../test.sh\n",
            "run test.sh\n",
            "add .test.sh\n",
        ] {
            assert_eq!(found(&["test.sh"], text, "h.sh").len(), 1, "{text}");
        }
    }

    #[test]
    fn a_path_closed_by_a_set_of_extensions_is_each_file_it_expands_to() {
        let text = "see `scripts/stow-x.{sh,fish}` and scripts/stow-x.sh\n\
                    units tools/stow-x.{service,timer} here\n\
                    glob scripts/stow-x.{sh}\n";
        let got = found(&["stow-x"], text, "README.md");
        let vias: Vec<(u32, Option<&str>)> =
            got.iter().map(|(_, l, _, v)| (*l, v.as_deref())).collect();
        assert!(vias.contains(&(1, Some("scripts/stow-x.sh"))), "{vias:?}");
        assert!(vias.contains(&(1, Some("scripts/stow-x.fish"))), "{vias:?}");
        assert!(
            vias.contains(&(2, Some("tools/stow-x.service"))),
            "{vias:?}"
        );
        assert!(vias.contains(&(2, Some("tools/stow-x.timer"))), "{vias:?}");
        // One extension in braces is no set.
        assert!(!vias
            .iter()
            .any(|(l, v)| *l == 3 && v.is_some_and(|v| v.ends_with(".sh"))));
    }

    #[test]
    fn a_file_a_script_writes_in_a_folder_mktemp_made_is_its_own() {
        let text = "WORK=$(mktemp -d)\n\
                    T=\"$(mktemp -d)\"\n\
                    cat > \"$WORK/repo/p/plugin.json\" <<EOF\n\
                    jq . \"$WORK/repo/p/plugin.json\"\n\
                    bash \"$T/hooks/plugin.json\"\n";
        let got = found(&["plugin.json"], text, "tests/t.sh");
        let vias: Vec<(u32, Option<&str>)> =
            got.iter().map(|(_, l, _, v)| (*l, v.as_deref())).collect();
        assert_eq!(
            vias,
            vec![
                (3, Some("$(mktemp)/repo/p/plugin.json")),
                (4, Some("$(mktemp)/repo/p/plugin.json")),
                // One the script only runs there may be the tree's, copied in.
                (5, Some("$T/hooks/plugin.json")),
            ]
        );
        assert!(written_in(b"echo x >> '$W/a/b.md'", "$W/a/b.md"));
        assert!(written_in(b"echo x | tee $W/a/b.md", "$W/a/b.md"));
        assert!(!written_in(b"cat \"$W/a/b.md\"", "$W/a/b.md"));
    }

    #[test]
    fn a_scripts_own_folder_variables_lead_where_they_were_set() {
        let text = "SCRIPT_DIR=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n\
                    LIB_DIR=\"$(cd \"$SCRIPT_DIR/../lib\" && pwd)\"\n\
                    ROOT=\"$(git rev-parse --show-toplevel)\"\n\
                    OUT=\"$HOME/out\"\n\
                    echo x | \"$LIB_DIR/check.sh\"\n\
                    source \"${ROOT}/scripts/common.sh\"\n\
                    cat \"$OUT/check.sh\"\n";
        let got = found(&["check.sh", "common.sh"], text, "hooks/git/checks/pre.sh");
        let vias: Vec<(&str, u32, Option<&str>)> = got
            .iter()
            .map(|(n, l, _, v)| (n.as_str(), *l, v.as_deref()))
            .collect();
        assert_eq!(
            vias,
            vec![
                ("check.sh", 5, Some("$SCRIPT_DIR/../lib/check.sh")),
                (
                    "common.sh",
                    6,
                    Some("$CLAUDE_PROJECT_DIR/scripts/common.sh")
                ),
                // A folder the script does not know stays as written.
                ("check.sh", 7, Some("$OUT/check.sh")),
            ]
        );
    }

    #[test]
    fn a_packages_all_lists_its_submodules_as_imports() {
        let text = "from .sql import Token\n__all__ = [\n    \"engine\", 'sql',\n    \"parse\"]\nx = \"engine\"\n";
        let got = found(&["engine", "sql", "parse"], text, "pkg/__init__.py");
        let imported: Vec<(&str, u32, Option<&str>)> = got
            .iter()
            .filter(|(_, _, bits, _)| bits & cue::IMPORT != 0)
            .map(|(n, l, _, v)| (n.as_str(), *l, v.as_deref()))
            .collect();
        assert_eq!(
            imported,
            vec![
                ("sql", 1, Some("./sql")),
                ("engine", 3, Some("./engine")),
                ("sql", 3, Some("./sql")),
                ("parse", 4, Some("./parse")),
            ]
        );
        // Annotated, or extended.
        for text in [
            "__all__: list[str] = [\"engine\"]\n",
            "__all__ += ('engine',)\n",
        ] {
            let got = found(&["engine"], text, "pkg/__init__.py");
            assert!(
                got.iter().any(|(_, _, bits, via)| bits & cue::IMPORT != 0
                    && via.as_deref() == Some("./engine")),
                "{text}: {got:?}"
            );
        }
        // Only a package's own list: a module's `__all__` names what it defines.
        let got = found(&["engine"], "__all__ = ['engine']\n", "pkg/mod.py");
        assert!(got.iter().all(|(_, _, bits, _)| bits & cue::IMPORT == 0));
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
    fn a_link_to_a_folder_leads_to_its_readme() {
        let text =
            b"[a](./guide/) [b](../x/y/) [c](https://h.io/z/) [d](../) [e](./f/#top) [g](h.md)";
        let got: Vec<String> = folder_link_targets(text, "docs/a.md")
            .into_iter()
            .map(|(s, e, n, _)| format!("{}={n}", String::from_utf8_lossy(&text[s..e])))
            .collect();
        assert_eq!(
            got,
            [
                "./guide/=guide/README.md",
                "../x/y/=y/README.md",
                "./f/=f/README.md"
            ]
        );
        // Without its slash a target may be a folder or a page written without `.md`.
        let text = b"[a](crates/tx) [b](note#inputs) [c](LICENSE.txt) [d](mailto:x)";
        let got: Vec<String> = folder_link_targets(text, "a.md")
            .into_iter()
            .map(|(_, _, n, via)| format!("{n}@{via}"))
            .collect();
        assert_eq!(
            got,
            [
                "tx/README.md@crates/tx/README.md",
                "tx.md@./crates/tx.md",
                "note/README.md@note/README.md",
                "note.md@./note.md"
            ]
        );
        // Only a Markdown file's links.
        assert!(folder_link_targets(text, "docs/a.py").is_empty());
    }

    #[test]
    fn a_list_item_holding_only_a_name_is_an_entry() {
        let item = |text: &str, name: &str| {
            let s = text.find(name).unwrap_or(0);
            whole_item(text.as_bytes(), s, s + name.len())
        };
        assert!(item("x\n- Builder\ny", "Builder"));
        assert!(item("  1. **Reviewer** (docs)", "Reviewer"));
        assert!(item("* `Planner`", "Planner"));
        assert!(!item("- Builder: builds it", "Builder"));
        assert!(!item("| Builder |", "Builder"));
        assert!(!item("Builder", "Builder"));
        assert!(!item("- the Builder", "Builder"));
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
        // Alone, in mid-sentence, or a title: the capitalised word is found, but with no cue
        // that it names a thing (`refs::never_an_edge` drops it unless it is a role noun).
        for text in [
            "Implementer is capitalised here.",
            "# Checklist",
            "We like Brainstorming and systematic-debugging.",
            "Brainstorming then systematic-debugging.",
        ] {
            let got = found(&names, text, "a.md");
            assert!(
                got.iter()
                    .filter(|(n, _, _, _)| ["brainstorming", "implementer", "checklist"]
                        .contains(&n.as_str()))
                    .all(|(_, _, bits, _)| bits & cue::CAPITAL != 0 && bits & cue::NAMED == 0),
                "{text}: {got:?}"
            );
        }
        // A title that says the kind right after the name keeps it said ("Planner Agent").
        let got = found(&["planner"], "#### 5. Planner Agent\n", "a.md");
        let bits = got.first().map_or(0, |g| g.2);
        assert!(
            bits & cue::CAPITAL != 0 && bits & cue::ENTITY != 0,
            "{got:?}"
        );
        assert!(bits & cue::AS_AGENT != 0, "{got:?}");
        let got = found(&["planner"], "#### 5. Planner Overview\n", "a.md");
        assert!(got.iter().all(|g| g.2 & cue::ENTITY == 0), "{got:?}");
    }

    #[test]
    fn a_word_said_to_be_an_agent_or_listed_after_the_kind_is_named_as_one() {
        let names = ["core", "frontend", "designer", "read", "test"];
        let kinds = |got: &[(String, u32, u64, Option<String>)], name: &str, line: u32| {
            got.iter()
                .find(|g| g.0 == name && g.1 == line)
                .map(|g| g.2 & (cue::ENTITY | cue::AS_AGENT))
        };
        // Capitalised before the kind's word: found, and said to be an agent.
        let text = "Receives from: Core agent (contracts).\n\
                    Hand off to the Frontend agent.\n\
                    The Core team decides.\n\
                    - Test agent mesh is tested.\n\
                    Core AGENTS.md\n";
        let got = found(&names, text, "a.md");
        let said = Some(cue::ENTITY | cue::AS_AGENT);
        assert_eq!(kinds(&got, "core", 1), said, "{got:?}");
        assert_eq!(kinds(&got, "frontend", 2), said, "{got:?}");
        assert_eq!(kinds(&got, "core", 3), None, "no kind said: {got:?}");
        assert_eq!(kinds(&got, "test", 4), None, "an imperative: {got:?}");
        assert_eq!(kinds(&got, "core", 5), None, "a file's name: {got:?}");
        // The small pass looks the lower-case word up.
        let unseen = unseen_words(text.as_bytes(), "a.md");
        assert!(unseen.contains(&"frontend".to_string()), "{unseen:?}");
        // Not in code, where it is a string's or a comment's.
        let code = found(&names, "// Hand off to the Frontend agent\n", "a.js");
        assert_eq!(kinds(&code, "frontend", 1), None, "{code:?}");
        // A list the kind's word introduces.
        let text = "Delegate to agents (designer, frontend, core) when needed.\n\
                    Specialized subagents: core, frontend\n\
                    Tools (read, core, frontend)\n";
        let got = found(&names, text, "a.md");
        for name in ["designer", "frontend", "core"] {
            assert_eq!(kinds(&got, name, 1), said, "{name}: {got:?}");
        }
        assert_eq!(kinds(&got, "core", 2), said, "{got:?}");
        assert_eq!(kinds(&got, "read", 3), Some(0), "{got:?}");
        assert_eq!(kinds(&got, "core", 3), Some(0), "{got:?}");
    }

    #[test]
    fn a_skill_documents_own_skill_md_is_the_one_above_them() {
        let names = [
            "my-tool/SKILL.md",
            "skills/SKILL.md",
            "skill-creator/SKILL.md",
        ];
        let text = "Read SKILL.md for details.\nEach skill has a SKILL.md.\n\
                    See the other-tool SKILL.md.\nSKILL.md files are short.\n\
                    Then the my-tool SKILL.md again.\nCheck that SKILL.md stays short.\n\
                    Then open that SKILL.md.\n";
        let got = found(&names, text, "skills/my-tool/references/x.md");
        let at = lines_of(&got, "my-tool/SKILL.md");
        assert_eq!(
            at,
            [
                (1, Some("../SKILL.md")),
                (5, Some("../SKILL.md")),
                (6, Some("../SKILL.md"))
            ],
            "{got:?}"
        );
        assert!(got.iter().all(|g| g.0 != "skills/SKILL.md"), "{got:?}");
        // In the SKILL.md itself, in a skill about skills, in code: none.
        for (path, text) in [
            ("skills/my-tool/SKILL.md", "Read SKILL.md for details.\n"),
            (
                "skills/skill-creator/references/x.md",
                "Read SKILL.md for details.\n",
            ),
            ("skills/my-tool/scripts/check.py", "p = 'SKILL.md'\n"),
            ("skills/my-tool/README.md", "other/\n├── SKILL.md\n"),
        ] {
            let got = found(&names, text, path);
            assert!(
                got.iter().all(|g| !g.0.ends_with("/SKILL.md")),
                "{path}: {got:?}"
            );
        }
    }

    #[test]
    fn a_hidden_conventional_file_written_alone_is_the_one_beside_the_writer() {
        // (Alone, each folder's from the writer's up: resolution keeps the nearest.)
        let names = ["plug/.mcp.json", "other/.mcp.json", "sub/.mcp.json"];
        let text = "Servers (configured in `.mcp.json`):\nSee .mcp.json.\nOr ../.mcp.json\n";
        let got = found(&names, text, "sub/plug/README.md");
        let at: Vec<(&str, u32, Option<&str>)> = got
            .iter()
            .map(|g| (g.0.as_str(), g.1, g.3.as_deref()))
            .collect();
        assert_eq!(
            at,
            [
                ("plug/.mcp.json", 1, Some("./.mcp.json")),
                ("sub/.mcp.json", 1, Some("../.mcp.json")),
                ("plug/.mcp.json", 2, Some("./.mcp.json")),
                ("sub/.mcp.json", 2, Some("../.mcp.json")),
                ("sub/.mcp.json", 3, Some("../.mcp.json"))
            ],
            "{got:?}"
        );
        // The words an edit refreshed alone looks up hold it too (the small pass).
        let words = unseen_words(text.as_bytes(), "sub/plug/README.md");
        for name in ["plug/.mcp.json", "sub/.mcp.json"] {
            assert!(words.iter().any(|w| w == name), "{words:?}");
        }
    }

    #[test]
    fn a_skills_own_tests_name_its_skill_md() {
        let names = ["my-tool/SKILL.md", "other/SKILL.md"];
        let text = "def test_size():\n    \"\"\"Test that SKILL.md is short.\"\"\"\n    \
                    p = SKILL_DIR / \"SKILL.md\"\n";
        let got = found(&names, text, "skills/my-tool/tests/test_tool.py");
        let at = lines_of(&got, "my-tool/SKILL.md");
        assert_eq!(
            at,
            [(2, Some("../SKILL.md")), (3, Some("../SKILL.md"))],
            "{got:?}"
        );
        // A program that is not a test works on SKILL.md files as values; a test that opens
        // no SKILL.md (of a hook firing for any) speaks of the kind of file.
        for (path, text) in [
            ("skills/my-tool/scripts/lint.py", text),
            (
                "skills/my-tool/tests/test_hook.py",
                "assert_equal(\"SKILL.md fires\", run(\"/p/skills/x/SKILL.md\"))\n",
            ),
        ] {
            let got = found(&names, text, path);
            assert!(got.iter().all(|g| !g.0.ends_with("/SKILL.md")), "{got:?}");
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

    /// `(name, line, via)` of the mentions whose cue holds `bit`.
    fn carrying(
        got: &[(String, u32, u64, Option<String>)],
        bit: u64,
    ) -> Vec<(&str, u32, Option<&str>)> {
        got.iter()
            .filter(|(_, _, bits, _)| bits & bit != 0)
            .map(|(n, l, _, v)| (n.as_str(), *l, v.as_deref()))
            .collect()
    }

    #[test]
    fn a_member_of_a_package_in_a_documents_example_is_asked_of_its_entry() {
        let text = "# x\n\n```js\nconst bodyParser = require('body-parser')\n\napp.use(bodyParser.raw())\nconst raw = 1\n```\n\nbodyParser.raw again\n";
        let got = found(&["raw"], text, "README.md");
        assert_eq!(
            carrying(&got, cue::ENTRY),
            [("raw", 6, Some("body-parser#bodyParser"))],
            "{got:?}"
        );
        // A relative or node: import, or a subpath, binds no package member.
        let text = "```js\nconst fs = require('node:fs')\nfs.raw()\n```\n";
        let got = found(&["raw"], text, "README.md");
        assert!(carrying(&got, cue::ENTRY).is_empty(), "{got:?}");
    }

    #[test]
    fn a_name_imported_from_a_folder_is_asked_of_its_barrel() {
        // `import { ListItem } from '../shared/ui'`: the folder's entry may re-export it.
        let text = "import { ListItem } from '../shared/ui'\nconst x = <ListItem a={1} />\n";
        let got = found(&["ListItem"], text, "src/a/Item.tsx");
        assert_eq!(
            carrying(&got, cue::ENTRY),
            [
                ("ListItem", 1, Some("../shared/ui")),
                ("ListItem", 2, Some("../shared/ui"))
            ],
            "{got:?}"
        );
        // A module written with its extension is that module, no folder.
        let text = "import { ListItem } from '../shared/ui.js'\nconst x = <ListItem />\n";
        let got = found(&["ListItem"], text, "src/a/Item.tsx");
        assert!(carrying(&got, cue::ENTRY).is_empty(), "{got:?}");
    }

    #[test]
    fn a_name_used_through_a_package_is_asked_of_the_package_entry() {
        // Python: `tenacity.stop_after_attempt(1)` after `import tenacity`, on a line showing
        // `stop`; beside the candidate of `Retrying`, bound from the package too: both asked.
        let text = "import tenacity\nfrom tenacity import Retrying\n\ndef f():\n    r = Retrying(stop=tenacity.stop_after_attempt(1))\n";
        let got = found(&["stop", "tenacity"], text, "tests/test_t.py");
        let mut asked = carrying(&got, cue::ENTRY);
        asked.sort();
        assert_eq!(
            asked,
            [
                ("stop", 5, Some("tenacity/Retrying")),
                ("stop", 5, Some("tenacity/stop_after_attempt"))
            ],
            "{got:?}"
        );
        // A class of its submodule's name is that guess's (`multiprocessing.Pool`), and a
        // private name or a submodule goes its own way.
        let text = "import multiprocessing\npool = multiprocessing.Pool(4)\n";
        let got = found(&["pool"], text, "t.py");
        assert!(carrying(&got, cue::ENTRY).is_empty(), "{got:?}");
        // JavaScript: a member of a name bound through the entry (`bodyParser.raw()`).
        let text = "const bodyParser = require('..')\nconst p = bodyParser.raw()\nconst q = bodyParser.raw.x\n";
        let got = found(&["raw"], text, "test/raw.js");
        assert_eq!(
            carrying(&got, cue::ENTRY),
            [("raw", 2, Some("..#bodyParser"))],
            "{got:?}"
        );
    }

    #[test]
    fn a_drawing_holding_the_writer_draws_the_writer_s_folder() {
        let names = ["guide-x.md"];
        let own =
            "```\nmy-repo/\n├── CLAUDE.md   # This file\n└── docs/\n    └── guide-x.md\n```\n";
        let via = |text: &str, path: &str| {
            found(&names, text, path)
                .into_iter()
                .find(|(n, ..)| n == "guide-x.md")
                .and_then(|(.., v)| v)
        };
        assert_eq!(via(own, "CLAUDE.md").as_deref(), Some("./docs/guide-x.md"));
        // Another file's drawing (a folder to make, an example's plugin): as drawn, marked
        // as drawn under its root, which resolution reads as the writer's folder where the
        // drawn path leads nowhere (`scan::refs`).
        assert_eq!(
            via(own, "GUIDE.md").as_deref(),
            Some("my-repo/docs/guide-x.md")
        );
        let bits = |text: &str, path: &str| {
            found(&names, text, path)
                .into_iter()
                .find(|(n, ..)| n == "guide-x.md")
                .map_or(0, |(_, _, b, _)| b)
        };
        assert!(bits(own, "GUIDE.md") & cue::DRAWN != 0);
        assert!(bits(own, "CLAUDE.md") & cue::DRAWN == 0);
        let unrooted = "```\n├── CLAUDE.md\n└── docs/\n    └── guide-x.md\n```\n";
        assert!(bits(unrooted, "GUIDE.md") & cue::DRAWN == 0);
    }

    #[test]
    fn a_column_headed_by_an_agent_lists_agents_the_tree_may_not_hold() {
        let names = ["reverse-engineer"];
        let rows = "| `ci-expert` | x |\n| `code-explorer` | x |\n| `optimizer` | x |\n| `reverse-engineer` | x |\n";
        let table = |head: &str| format!("| {head} | Purpose |\n| --- | --- |\n{rows}");
        let cued = |text: &str| {
            found(&names, text, "README.md")
                .iter()
                .any(|(n, _, b, _)| n == "reverse-engineer" && b & cue::CODE != 0)
        };
        assert!(cued(&table("Agent")));
        assert!(cued(&table("**Sub-agents**")));
        // Under another heading, a column of spans naming mostly nothing of the tree is
        // another kind of thing's (a CLI's commands, make targets).
        assert!(!cued(&table("Target")));
        assert!(!cued(&table("Command")));
    }

    #[test]
    fn a_pathlib_join_writes_the_folders_of_its_file() {
        let names = ["fmt-x.py"];
        let text = "path = BASE / \"resources\" / 'fmt-x.py'\nother = BASE / name / \"fmt-x.py\"\n";
        let got = found(&names, text, "gen.py");
        let vias: Vec<_> = got.iter().map(|(_, l, _, v)| (*l, v.as_deref())).collect();
        assert!(vias.contains(&(1, Some("resources/fmt-x.py"))), "{got:?}");
        // A variable between: its folders are unknown.
        assert!(!vias.iter().any(|(l, v)| *l == 2 && v.is_some()), "{got:?}");
        // A join call's quoted arguments, in Python and in JavaScript; a list of names is no
        // path, nor are arguments of another call.
        let text = "p = os.path.join(ROOT, \"hooks\", \"fmt-x.py\")\nxs = [\"hooks\", \"fmt-x.py\"]\nf(\"a\", \"fmt-x.py\")\n";
        let got = found(&names, text, "gen.py");
        let vias: Vec<_> = got.iter().map(|(_, l, _, v)| (*l, v.as_deref())).collect();
        assert_eq!(
            vias,
            [(1, Some("hooks/fmt-x.py")), (2, None), (3, None)],
            "{got:?}"
        );
        let text = "const p = path.join(ROOT, 'lib', 'fmt-x.py');\n";
        let got = found(&names, text, "gen.js");
        assert_eq!(got[0].3.as_deref(), Some("lib/fmt-x.py"), "{got:?}");
        // The call's arguments on the lines after it; a list over lines is still a list.
        let text = "P = os.path.join(\n    ROOT, \"docs\", \"schema\", \"fmt-x.py\"\n)\nxs = [\n    \"hooks\", \"fmt-x.py\"]\n";
        let got = found(&names, text, "gen.py");
        let vias: Vec<_> = got.iter().map(|(_, l, _, v)| (*l, v.as_deref())).collect();
        assert_eq!(
            vias,
            [(2, Some("docs/schema/fmt-x.py")), (5, None)],
            "{got:?}"
        );
    }

    #[test]
    fn a_packages_init_binds_the_submodules_it_imports_from() {
        let names = ["unix_events"];
        let text = "from .unix_events import *\n__all__ = unix_events.__all__\n";
        let on_line_2 = |path: &str| {
            found(&names, text, path)
                .into_iter()
                .filter(|(_, l, _, _)| *l == 2)
                .map(|(_, _, _, v)| v)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            on_line_2("asyncio/__init__.py"),
            [Some("./unix_events".to_string())]
        );
        // Elsewhere the import binds only what it lists.
        assert!(on_line_2("asyncio/base.py").iter().all(Option::is_none));
    }

    #[test]
    fn a_patched_private_name_names_its_module() {
        let names = ["_strict", "_soft_rw", "_async", "serve"];
        let text = "def test(mocker):\n    mocker.patch(\"filelock._strict._HAS_LINK\", False)\n    mocker.patch(\"filelock._soft_rw._async.os.getpid\")\n    mock.patch('mkdocs.commands.serve.serve')\n    f\"filelock._strict.{x}\"\n";
        let got = found(&names, text, "tests/test_x.py");
        // The private name's module; not a package on the way to another module (whose next
        // word is public), nor a public name (not built), nor a formatted string.
        assert_eq!(
            carrying(&got, cue::QUALIFIED),
            [("_strict", 2, Some("filelock/_strict"))],
            "{got:?}"
        );
    }

    #[test]
    fn a_qualified_use_names_the_submodule_it_goes_through_once() {
        let text = "import email\n\ngen = email.generator.BytesGenerator(buf)\nb = email.generator.flatten(buf)\n";
        let got = found(&["email", "generator"], text, "mailbox.py");
        let uses: Vec<_> = got
            .iter()
            .filter(|(_, _, bits, _)| bits & cue::QUALIFIED != 0)
            .collect();
        // Once, at its first use: the file's reference to the submodule, not one per call.
        assert_eq!(
            uses,
            [&(
                "generator".to_string(),
                3,
                cue::CODE_FILE | cue::IMPORT | cue::QUALIFIED,
                Some("email/generator".to_string())
            )],
            "{got:?}"
        );
        // Through a folder that bears no name (`mime`) to the module below it.
        let text = "import email\nm = email.mime.text.MIMEText(s)\n";
        let got = found(&["email", "text"], text, "a.py");
        assert_eq!(
            carrying(&got, cue::QUALIFIED),
            [("text", 2, Some("email/mime/text"))],
            "{got:?}"
        );
    }

    #[test]
    fn a_use_of_the_imported_module_itself_adds_no_mention() {
        // The import line is the reference; `copy.deepcopy(x)` is its consequence.
        let text = "import copy\nimport os\ny = copy.deepcopy(x)\nos.stat(p)\n";
        let got = found(&["copy", "os", "stat"], text, "a.py");
        assert_eq!(
            got.iter()
                .filter(|(n, _, _, _)| n != "stat")
                .map(|(n, l, _, _)| (n.as_str(), *l))
                .collect::<Vec<_>>(),
            [("copy", 1), ("os", 2)],
            "{got:?}"
        );
        assert!(
            got.iter().all(|(_, _, bits, _)| bits & cue::QUALIFIED == 0),
            "{got:?}"
        );
        // A chain's last word that is called is the package's function, not a submodule
        // (`unittest.main()`); one used as a value may be a module (resolution decides).
        let text = "import unittest\nunittest.main()\nx = unittest.mock\nif hasattr(unittest.case, 'X'): pass\n";
        let got = found(&["unittest", "main", "mock", "case"], text, "t.py");
        let uses = carrying(&got, cue::QUALIFIED);
        assert_eq!(
            uses,
            [
                ("mock", 3, Some("unittest/mock")),
                ("case", 4, Some("unittest/case"))
            ],
            "{got:?}"
        );
        // A submodule the file imports itself is named by that import already.
        let text = "import xml.dom.minidom\nd = xml.dom.minidom.parseString(s)\n";
        let got = found(&["minidom", "dom", "xml"], text, "t.py");
        assert!(got.iter().all(|(_, l, _, _)| *l == 1), "{got:?}");
    }

    #[test]
    fn a_use_of_the_entity_a_module_is_named_after_names_the_module() {
        let text = "import copy\ny = copy.copy(x)\nz = copy.deepcopy(x)\n";
        let got = found(&["copy"], text, "a.py");
        let uses = carrying(&got, cue::QUALIFIED);
        assert_eq!(uses, [("copy", 2, Some("copy"))], "{got:?}");
        // A class imported from the module named after it, used in code: every line using it,
        // a quoted annotation among them (`x: "Scaffold"`, a type written ahead).
        let text = "from .scaffold import Scaffold\n\nclass App(Scaffold):\n    # Scaffold sets up\n    x: \"Scaffold\"\n    y = other.Scaffold\n    \"\"\"A long text:\n    Scaffold-ID: 1\n\"\"\"\ndef f(s: Scaffold) -> None: ...\nz = \"Scaffold\"\n";
        let got = found(&["scaffold"], text, "pkg/app.py");
        let uses = carrying(&got, cue::QUALIFIED);
        assert_eq!(
            uses,
            [
                ("scaffold", 3, Some("./scaffold")),
                ("scaffold", 5, Some("./scaffold")),
                ("scaffold", 10, Some("./scaffold"))
            ],
            "{got:?}"
        );
        // A private name of the module, or the module as a value, is a use of the module
        // itself; a keyword argument or a call of the name is not.
        let text = "from email import utils\nif utils._has_surrogates(v): pass\nswap(utils, 'x')\nf(utils=1)\nutils.formatdate()\n";
        let got = found(&["utils", "email"], text, "a.py");
        let uses = carrying(&got, cue::QUALIFIED);
        assert_eq!(
            uses,
            [
                ("utils", 2, Some("email/utils")),
                ("utils", 3, Some("email/utils"))
            ],
            "{got:?}"
        );
        // A file that also binds the name otherwise says nothing by it alone.
        let text = "import string\ndef f(string):\n    return g(string)\n";
        let got = found(&["string"], text, "a.py");
        assert!(
            got.iter().all(|(_, _, bits, _)| bits & cue::QUALIFIED == 0),
            "{got:?}"
        );
        // A parameter's annotation uses the class; a parameter of its name rebinds it.
        let text = "from .app import Quart\ndef get(self, app: Quart) -> bool: ...\n";
        let got = found(&["app"], text, "pkg/sessions.py");
        let uses = carrying(&got, cue::QUALIFIED);
        assert_eq!(uses, [("app", 2, Some("./app"))], "{got:?}");
        // A class named after a submodule, imported from its package or its module, is used
        // as that (`cue::NAMESAKE`: resolution looks for the package's module of its name).
        for text in [
            "from strands import Agent\nx = Agent()\n",
            "from ..agent import Agent\nx = Agent()\n",
        ] {
            let got = found(&["agent", "strands"], text, "pkg/sub/t.py");
            let line2: Vec<_> = got.iter().filter(|g| g.0 == "agent" && g.1 == 2).collect();
            assert!(
                !line2.is_empty() && line2.iter().all(|g| g.2 & cue::NAMESAKE != 0),
                "{text}: {got:?}"
            );
        }
        // An annotated parameter with a default (a signature over several lines) too.
        let text = "from .app import Quart\ndef get(\n    self,\n    app: Quart = None,\n): ...\n";
        let got = found(&["app"], text, "pkg/sessions.py");
        let uses = carrying(&got, cue::QUALIFIED);
        assert_eq!(uses, [("app", 4, Some("./app"))], "{got:?}");
        let text = "from .app import Quart\ndef get(self, app, Quart=None): ...\n";
        let got = found(&["app"], text, "pkg/sessions.py");
        assert!(
            got.iter().all(|(_, _, bits, _)| bits & cue::QUALIFIED == 0),
            "{got:?}"
        );
        // A name imported from a package, used on a line that shows a module's name: a
        // candidate module the package may re-export it from (resolution reads the entry);
        // not an attribute, nor a word in a string.
        let text = "from quart import Quart\napp = Quart(__name__)\nx = Quart(self.app, 'app')\n";
        let got = found(&["app", "quart"], text, "tests/t.py");
        let entries = carrying(&got, cue::ENTRY);
        assert_eq!(entries, [("app", 2, Some("quart/Quart"))], "{got:?}");
        // A script's name imported from a module, on a line showing the module's name.
        let text = "import {type TaskOptions} from './options.js';\nconst f = (options: TaskOptions) => 1;\nconst g = (x: TaskOptions) => 2;\n";
        let got = found(&["options"], text, "source/index.ts");
        let uses = carrying(&got, cue::QUALIFIED);
        assert_eq!(uses, [("options", 2, Some("./options"))], "{got:?}");
        // The same through a script's entry point: `spec#Name`.
        let text = "import type {KyRequest} from '../index.js';\nexport type H = {\n\trequest: KyRequest; // request\n};\n";
        let got = found(&["request"], text, "source/types/hooks.ts");
        let entries = carrying(&got, cue::ENTRY);
        assert_eq!(
            entries,
            [("request", 3, Some("../index#KyRequest"))],
            "{got:?}"
        );
        // A docstring's cross-reference to an imported name, on a line showing its module.
        let text = "from .exc import BadSignature\ndef f():\n    \"\"\"Raises :exc:`.BadSignature`.\n    See :class:`BadSignature` too.\n    \"\"\"\n";
        let got = found(&["exc"], text, "pkg/timed.py");
        let uses = carrying(&got, cue::QUALIFIED);
        assert_eq!(uses, [("exc", 3, Some("./exc"))], "{got:?}");
        // Any other name the import binds is no namesake.
        let text = "from typing import List\nx: List[int] = []\n";
        let got = found(&["typing"], text, "a.py");
        assert!(
            got.iter().all(|(_, _, bits, _)| bits & cue::QUALIFIED == 0),
            "{got:?}"
        );
    }

    #[test]
    fn a_dotted_module_path_in_a_string_is_written_as_an_import() {
        let text = "warnings.filterwarnings(\"ignore\", module=\"flask.app\")\nx = ('cliapp.factory', 'app')\ny = \"app\"\nz = \"v.app.\"\n";
        let got = found(&["app", "factory"], text, "tests/t.py");
        let imports = carrying(&got, cue::IMPORT);
        assert_eq!(
            imports,
            [
                ("app", 1, Some("flask/app")),
                ("factory", 2, Some("cliapp/factory"))
            ],
            "{got:?}"
        );
    }

    #[test]
    fn a_drawn_tree_gives_each_file_the_path_of_its_branches() {
        let text = "Layout:\n\nrules/\n|-- common/\n|   |-- testing.md   # always\n|   `-- hooks.md\n`-- go/\n    `-- testing.md\nafter the tree: testing.md\n";
        let got: Vec<(u32, String)> = drawn_paths(text.as_bytes())
            .into_iter()
            .map(|(l, _, _, p, _)| (l, p))
            .collect();
        assert_eq!(
            got,
            [
                (5, "rules/common/testing.md".to_string()),
                (6, "rules/common/hooks.md".to_string()),
                (8, "rules/go/testing.md".to_string())
            ]
        );
        let got = found(&["testing.md"], text, "docs/a.md");
        let vias: Vec<_> = got.iter().map(|(_, l, _, v)| (*l, v.clone())).collect();
        assert_eq!(
            vias,
            [
                (5, Some("rules/common/testing.md".to_string())),
                (8, Some("rules/go/testing.md".to_string())),
                (9, None)
            ]
        );
    }

    #[test]
    fn a_test_suite_titled_after_a_required_module_is_that_module_s() {
        let text = "var app = require('../../examples/vhost');\n\ndescribe('vhost', function(){\n  it('vhost works')\n";
        let got = found(&["vhost"], text, "test/acceptance/vhost.js");
        // (A test's own title, `it('vhost works')`, stays a word.)
        let at: Vec<(u32, Option<&str>)> = got.iter().map(|f| (f.1, f.3.as_deref())).collect();
        assert_eq!(
            at,
            [
                (1, Some("../../examples/vhost")),
                (3, Some("../../examples/vhost")),
                (4, None)
            ],
            "{got:?}"
        );
    }

    #[test]
    fn a_link_speaks_by_its_target_not_its_text() {
        let got = found(
            &["self-hosting.md"],
            "See [self-hosting.md](./self-hosting.md) for:\n",
            "t/SKILL.md",
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].3.as_deref(), Some("./self-hosting.md"), "{got:?}");
    }

    #[test]
    fn a_data_file_s_keywords_name_no_file() {
        let names = ["token-caching", "confidence-check"];
        let yaml =
            "doc:\n  keywords:\n  - caching\n  - token-caching\n  related:\n  - token-caching\n";
        let lines: Vec<u32> = found(&names, yaml, "index.yaml")
            .iter()
            .map(|f| f.1)
            .collect();
        assert_eq!(lines, [6]);
        let json = "{\n  \"tags\": [\n    \"confidence-check\",\n    \"x\"\n  ],\n  \"see\": \"confidence-check\"\n}\n";
        let lines: Vec<u32> = found(&names, json, "index.json")
            .iter()
            .map(|f| f.1)
            .collect();
        assert_eq!(lines, [6]);
        // Prose keeps its lists: only a data file's key says what its items are; but a
        // one-line list of words under such a key is words in any file.
        let md = "keywords:\n- token-caching\n";
        assert_eq!(found(&names, md, "notes.md").len(), 1);
        let md = "  help_words: [\"token-caching\", \"x\"]\n  keywords: [a, confidence-check]\n  related: [token-caching]\n";
        let lines: Vec<u32> = found(&names, md, "cmd.md").iter().map(|f| f.1).collect();
        assert_eq!(lines, [3]);
    }

    #[test]
    fn a_module_named_in_prose_is_written_as_its_import_name() {
        let text = "# needs the collections module\n\"\"\"Copied from :mod:`email.utils` here.\"\"\"\n# collections of tasks; the utils package\n# a collections module, use utils package\n# see the conv and pgen modules\n# the pgen sub-module; many pgen modules\n";
        let got = found(&["collections", "utils", "pgen"], text, "a.py");
        let named = carrying(&got, cue::IMPORT);
        assert_eq!(
            named,
            [
                ("collections", 1, Some("collections")),
                ("utils", 2, Some("email/utils")),
                ("utils", 3, Some("utils")),
                ("pgen", 5, Some("pgen")),
                ("pgen", 6, Some("pgen"))
            ],
            "{got:?}"
        );
    }

    #[test]
    fn a_module_with_its_package_ends_a_sentence_or_stands_for_all_of_it() {
        let text = "\"\"\"Test `tqdm.gui`.\"\"\"\n\"\"\"Tests for tqdm.gui.\"\"\"\nw = \"Please use `tqdm.gui.*` instead\"\nm = \"use `tqdm.gui.tqdm(...)` now\"\nz = \"tqdm.gui.\"\n";
        let got = found(&["gui"], text, "tests/t.py");
        let named = carrying(&got, cue::IMPORT);
        // A name reached through it, and a string going on past it, are not it.
        assert_eq!(
            named,
            [
                ("gui", 1, Some("tqdm/gui")),
                ("gui", 2, Some("tqdm/gui")),
                ("gui", 3, Some("tqdm/gui"))
            ],
            "{got:?}"
        );
    }

    #[test]
    fn a_name_is_mentioned_once_per_line_its_import_first() {
        let text = "import helpers_lib  # helpers_lib does it\n";
        let got = found(&["helpers_lib"], text, "a.py");
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].2 & cue::IMPORT != 0, "{got:?}");
    }

    #[test]
    fn an_invocation_speaks_before_a_path_through_a_folder_of_its_name() {
        let text = "\"prompt\": \"/arch-view --repos tests/fixtures/arch-view/ts-only\"\n";
        let got = found(&["arch-view"], text, "skills/arch-view/evals/evals.json");
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].2 & cue::SLASH != 0 && got[0].3.is_none(), "{got:?}");
        // A path written first still speaks first.
        let text = "see tests/fixtures/arch-view/x.md, then run /arch-view\n";
        let got = found(&["arch-view"], text, "a.md");
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].3.is_some(), "{got:?}");
    }

    #[test]
    fn an_f_strings_braces_hold_code_and_a_dunder_a_file_bears_is_a_submodule() {
        let text = "import pkg\nua = f\"v/{pkg.__version__}\"\nn = f\"{{pkg.__version__}}\"\nd = pkg.__all__\n";
        let got = found(&["pkg", "__version__"], text, "a.py");
        let uses = |name: &str| -> Vec<u32> {
            got.iter()
                .filter(|(n, _, bits, _)| n == name && bits & cue::QUALIFIED != 0)
                .map(|(_, l, _, _)| *l)
                .collect()
        };
        // Line 2: the package used and its submodule; line 3: `{{` is a literal brace, text;
        // line 4: a dunder no file bears is the package's own.
        assert_eq!(uses("__version__"), vec![2], "{got:?}");
        assert_eq!(uses("pkg"), vec![2, 4], "{got:?}");
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
