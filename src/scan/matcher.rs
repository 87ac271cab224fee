//! Matching: where names occur in a file's bytes, with the boundary rules and the choice of the
//! leftmost-longest valid occurrences.
//!
//! Owns the byte-level rules (no I/O, no database). Invariant: a mention is an occurrence whose
//! byte before is not a name byte and whose byte after is not a name byte (`.` counts only when a
//! letter or digit follows it); mentions are, left to right, the longest *valid* occurrence at the
//! leftmost start, the next one starting at or after its end; every one of them
//! (`scan::mentions` keeps one per name and line).
//!
//! How: the Aho-Corasick automaton holds only the *tails* of names (the part after the last `/`),
//! which keeps it small; a name with a `/` is found by looking back from an occurrence of its tail
//! and checking the bytes before against a hash table. The result equals an overlapping search
//! over all names. For a few small files the hash table alone is used (no automaton to build).
//!
//! A valid tail occurrence starts where the byte before is no name byte (a name's own start, or
//! the `/` before a tail), so the automaton is walked anchored from those positions only: an
//! unanchored overlapping search would report every tail inside every longer word (`re` in
//! `return`), most of a code file's matches, only for the boundary check to drop them.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use aho_corasick::automaton::Automaton;
use aho_corasick::{dfa, nfa, Anchored, MatchKind, StartKind};
use anyhow::{Context, Result};

/// Evidence text is cut to this many characters.
pub const MAX_TEXT_CHARS: usize = 200;

/// Above this many tails a forced DFA costs more memory than it saves time.
const DFA_MAX_TAILS: usize = 12_000;

/// The capitalised forms under which a name is also found (`observer` -> `Observer`): for a
/// role noun of lower-case ASCII letters only (`refs::is_role_noun`), the only kind of name a
/// capitalised word may name bare. (A list head, `Brainstorming and x-y`, is found by
/// `scan::mentions` itself.)
///
/// A compound name in title case (`Security-Auditor`) is found in lower case.
///
/// A compound role noun (`meta-agent`, `bug-hunter`) is found in title case (`Meta-Agent`),
/// as titles and persona lists write an agent, and capitalised at a sentence's start
/// (`Bug-hunter, verifier and pr-creator are …`): no sentence starts a word of its own so.
pub fn capitalised(name: &str) -> Vec<String> {
    let b = name.as_bytes();
    // A compound name written in title case (`Security-Auditor`, an agent's file and
    // frontmatter name) is found as other files write it, in lower case
    // (`subagent_type="security-auditor"`).
    let title_word = |w: &str| {
        let wb = w.as_bytes();
        wb.first().is_some_and(u8::is_ascii_uppercase)
            && wb[1..]
                .iter()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    };
    if name.contains('-') && name.split('-').all(title_word) {
        return vec![name.to_ascii_lowercase()];
    }
    let first_up = |n: &str| {
        let mut c = n.to_string();
        c[..1].make_ascii_uppercase();
        c
    };
    if b.iter().all(u8::is_ascii_lowercase) {
        return if super::refs::is_role_noun(name) {
            vec![first_up(name)]
        } else {
            Vec::new()
        };
    }
    // Words of lower-case letters and digits, each starting with a letter, joined by `-`.
    let compound = b.contains(&b'-')
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-');
    let words: Vec<&str> = name.split('-').collect();
    let lettered = |w: &&str| w.as_bytes().first().is_some_and(u8::is_ascii_lowercase);
    if !compound || !words.iter().all(lettered) || !super::refs::is_role_noun(name) {
        return Vec::new();
    }
    let mut title = name.to_string();
    // Every word is ASCII: byte offsets are char boundaries.
    let mut at = 0;
    for w in &words {
        title[at..at + 1].make_ascii_uppercase();
        at += w.len() + 1;
    }
    vec![title, first_up(name)]
}

/// FNV-1a: names are short, SipHash's setup dominates for them.
#[derive(Default)]
pub struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

pub type FnvMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;

/// How occurrences are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// Aho-Corasick, letting the crate pick its representation (cheap to build).
    Automaton,
    /// Aho-Corasick with a forced DFA: slower to build, 2-3x faster on much text.
    Dfa,
    /// No automaton: look up every boundary-valid substring (for a few small files).
    Lookup,
}

/// One mention: name id, 1-based line, the evidence text (the part of the line around the
/// match), and where the match lies in the scanned bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    pub name: u32,
    pub line: u32,
    pub text: String,
    pub start: usize,
    pub end: usize,
}

struct Tail {
    /// Its length in bytes: an anchored walk's match state also lists the tails that are
    /// suffixes of the bytes read (the automaton's failure links copy them), which did not
    /// start where the walk did.
    len: usize,
    /// The tail itself is a name (not only the end of longer ones).
    name: Option<u32>,
    /// Length of the longest name ending with `/` + this tail (0: none).
    max_long: usize,
}

pub struct Matcher {
    names: Vec<String>,
    lookup: FnvMap<Box<[u8]>, u32>,
    /// `has_len[n]`: some name is n bytes long.
    has_len: Vec<bool>,
    max_len: usize,
    ac: Option<Tails>,
    tails: Vec<Tail>,
    /// `first[b]`: some tail starts with byte `b`.
    first: [bool; 256],
    /// Whether each name is distinctive (`scan::refs::is_distinctive`), worked out on first
    /// use: mentions ask it per occurrence, and a common-word check is a binary search.
    distinctive: Vec<std::sync::OnceLock<bool>>,
    /// The file names with an extension that are the last part of longer names but no names
    /// themselves (`config.json`, `SKILL.md`: conventional names, `scan::names`), for
    /// `generic_spans`.
    generic: Vec<memchr::memmem::Finder<'static>>,
    /// The configured conventional file names (`with_conventional`).
    conventional: Vec<String>,
}

/// The tails' automaton, built for anchored searches only.
enum Tails {
    Dfa(dfa::DFA),
    Nfa(nfa::contiguous::NFA),
}

/// ASCII letters, digits, `_` and `-`.
#[inline]
pub const fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// `is_name_byte` as a table, for the per-byte loop of a walk.
const NAME_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = is_name_byte(b as u8);
        b += 1;
    }
    t
};

#[inline]
fn start_ok(hay: &[u8], s: usize) -> bool {
    s == 0 || !is_name_byte(hay[s - 1])
}

#[inline]
fn end_ok(hay: &[u8], e: usize) -> bool {
    match hay.get(e) {
        None => true,
        Some(&b'.') => !hay.get(e + 1).is_some_and(|b| b.is_ascii_alphanumeric()),
        Some(&b) => !is_name_byte(b),
    }
}

impl Matcher {
    /// A matcher over `names` (duplicates and empty strings are ignored).
    pub fn new<S: AsRef<str>>(names: &[S], engine: Engine) -> Result<Matcher> {
        let mut list: Vec<String> = Vec::with_capacity(names.len());
        let mut lookup: FnvMap<Box<[u8]>, u32> = FnvMap::default();
        for n in names {
            let n = n.as_ref();
            if n.is_empty() || lookup.contains_key(n.as_bytes()) {
                continue;
            }
            let id = u32::try_from(list.len()).context("too many names")?;
            lookup.insert(n.as_bytes().into(), id);
            list.push(n.to_string());
        }
        // A role noun is also found capitalised (`Observer`), as its own id: a sentence or a
        // title may start with it. Written names come first.
        let mut aliases: Vec<(String, u32)> = Vec::new();
        for (id, n) in list.iter().enumerate() {
            for cap in capitalised(n) {
                if !lookup.contains_key(cap.as_bytes()) {
                    lookup.insert(cap.as_bytes().into(), id as u32);
                    aliases.push((cap, id as u32));
                }
            }
        }
        let mut generic: Vec<String> = list
            .iter()
            .filter_map(|n| n.rsplit_once('/').map(|(_, t)| t))
            .filter(|t| t.contains('.') && !lookup.contains_key(t.as_bytes()))
            .map(str::to_string)
            .collect();
        generic.sort_unstable();
        generic.dedup();
        // Built once: a search per file and name would build each again.
        let generic = generic
            .iter()
            .map(|g| memchr::memmem::Finder::new(g.as_bytes()).into_owned())
            .collect();
        let max_len = list.iter().map(String::len).max().unwrap_or(0);
        let mut has_len = vec![false; max_len + 1];
        for n in &list {
            has_len[n.len()] = true;
        }
        let distinctive = (0..list.len())
            .map(|_| std::sync::OnceLock::new())
            .collect();
        let mut m = Matcher {
            names: list,
            lookup,
            has_len,
            max_len,
            ac: None,
            tails: Vec::new(),
            first: [false; 256],
            distinctive,
            generic,
            conventional: Vec::new(),
        };
        if engine != Engine::Lookup {
            m.build_automaton(engine, &aliases)?;
        }
        Ok(m)
    }

    /// The tails' automaton, with `aliases` (capitalised forms and their names' ids) as tails
    /// of their own.
    fn build_automaton(&mut self, engine: Engine, aliases: &[(String, u32)]) -> Result<()> {
        let mut tail_ids: FnvMap<&str, usize> = FnvMap::default();
        let mut pats: Vec<&str> = Vec::new();
        let mut tails: Vec<Tail> = Vec::new();
        for (id, n) in self.names.iter().enumerate() {
            let tail = n.rsplit('/').next().unwrap_or(n);
            if tail.is_empty() {
                continue;
            }
            let t = *tail_ids.entry(tail).or_insert_with(|| {
                pats.push(tail);
                tails.push(Tail {
                    len: tail.len(),
                    name: None,
                    max_long: 0,
                });
                pats.len() - 1
            });
            if tail.len() == n.len() {
                tails[t].name = Some(id as u32);
            } else {
                tails[t].max_long = tails[t].max_long.max(n.len());
            }
        }
        for (c, id) in aliases {
            if let Some(&t) = tail_ids.get(c.as_str()) {
                // Only the tail of longer names so far (`docs/Observer`).
                tails[t].name.get_or_insert(*id);
                continue;
            }
            pats.push(c);
            tails.push(Tail {
                len: c.len(),
                name: Some(*id),
                max_long: 0,
            });
        }
        let ac = if engine == Engine::Dfa && pats.len() <= DFA_MAX_TAILS {
            dfa::DFA::builder()
                .match_kind(MatchKind::Standard)
                .start_kind(StartKind::Anchored)
                .build(&pats)
                .map(Tails::Dfa)
        } else {
            nfa::contiguous::NFA::builder()
                .match_kind(MatchKind::Standard)
                .build(&pats)
                .map(Tails::Nfa)
        }
        .context("building the name automaton")?;
        for p in &pats {
            self.first[usize::from(p.as_bytes()[0])] = true;
        }
        self.ac = Some(ac);
        self.tails = tails;
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }

    /// Whether the name `id` is distinctive (`scan::refs::is_distinctive`), computed once.
    pub fn is_distinctive(&self, id: u32) -> bool {
        let name = self.name(id);
        match self.distinctive.get(id as usize) {
            Some(cell) => *cell.get_or_init(|| super::refs::is_distinctive(name)),
            None => super::refs::is_distinctive(name),
        }
    }

    /// The id of `name`, if the matcher knows it.
    pub fn id_of(&self, name: &str) -> Option<u32> {
        self.lookup.get(name.as_bytes()).copied()
    }

    /// Every boundary-valid occurrence `(start, end, name)`, in no particular order. With
    /// `first_only`, stops at the first one.
    fn occurrences(&self, hay: &[u8], first_only: bool) -> Vec<(usize, usize, u32)> {
        let mut out = Vec::new();
        if self.names.is_empty() {
            return out;
        }
        match &self.ac {
            Some(Tails::Dfa(a)) => self.walk(a, hay, first_only, &mut out),
            Some(Tails::Nfa(a)) => self.walk(a, hay, first_only, &mut out),
            None => {
                for s in 0..hay.len() {
                    if !start_ok(hay, s) {
                        continue;
                    }
                    let top = hay.len().min(s + self.max_len);
                    for e in s + 1..=top {
                        if end_ok(hay, e) {
                            self.try_span(hay, s, e, &mut out);
                        }
                    }
                    if first_only && !out.is_empty() {
                        return out;
                    }
                }
            }
        }
        out
    }

    /// The valid occurrences by an anchored walk of `a` from each position where a tail may
    /// start (see the module comment).
    fn walk<A: Automaton>(
        &self,
        a: &A,
        hay: &[u8],
        first_only: bool,
        out: &mut Vec<(usize, usize, u32)>,
    ) {
        let Ok(start) = a.start_state(Anchored::Yes) else {
            return;
        };
        let mut after_name = false;
        for (s, &c) in hay.iter().enumerate() {
            let boundary = !after_name;
            after_name = NAME_BYTE[usize::from(c)];
            if !boundary || !self.first[usize::from(c)] {
                continue;
            }
            let mut sid = start;
            for (i, &b) in hay[s..].iter().enumerate() {
                sid = a.next_state(Anchored::Yes, sid, b);
                if !a.is_special(sid) {
                    continue;
                }
                if a.is_dead(sid) {
                    break;
                }
                let e = s + i + 1;
                // Most tails found in code end inside a longer word (`re` in `return`).
                if a.is_match(sid) && end_ok(hay, e) {
                    for k in 0..a.match_len(sid) {
                        let tail = &self.tails[a.match_pattern(sid, k).as_usize()];
                        if tail.len == e - s {
                            self.tail_at(hay, s, e, tail, out);
                        }
                    }
                }
            }
            if first_only && !out.is_empty() {
                return;
            }
        }
    }

    /// The names a valid occurrence `hay[s..e]` of `tail` completes: the tail itself, and the
    /// longer names ending with `/` + it.
    #[inline]
    fn tail_at(
        &self,
        hay: &[u8],
        s: usize,
        e: usize,
        tail: &Tail,
        out: &mut Vec<(usize, usize, u32)>,
    ) {
        if let Some(id) = tail.name {
            out.push((s, e, id));
        }
        if tail.max_long > 0 && s > 0 && hay[s - 1] == b'/' {
            let lowest = e.saturating_sub(tail.max_long);
            for st in (lowest..s - 1).rev() {
                self.try_span(hay, st, e, out);
            }
        }
    }

    #[inline]
    fn try_span(&self, hay: &[u8], s: usize, e: usize, out: &mut Vec<(usize, usize, u32)>) {
        if self.has_len[e - s] && start_ok(hay, s) {
            if let Some(&id) = self.lookup.get(&hay[s..e]) {
                out.push((s, e, id));
            }
        }
    }

    /// Whether `base` is a conventional file name (`names.generic`: `README.md`, `SKILL.md`),
    /// which a file in a folder is not known by alone, though the root's file of the name is.
    pub fn is_conventional(&self, base: &str) -> bool {
        self.conventional.iter().any(|g| g == base)
    }

    /// The configured conventional file names (`names.generic`), for `is_conventional`.
    pub fn with_conventional(mut self, names: &[String]) -> Matcher {
        self.conventional = names.to_vec();
        self
    }

    /// Each occurrence of a conventional file name that is no name by itself (see `generic`),
    /// written alone or after a relative folder (`config.json`, `../config.json`,
    /// `${DIR}/../config.json`): `(start, end, file name, relative folder)`, the folder `None`
    /// when none is written. After another folder the file name is a path's, which the longer
    /// names decide.
    pub fn generic_spans(&self, hay: &[u8]) -> Vec<(usize, usize, &str, Option<String>)> {
        let mut out = Vec::new();
        for finder in &self.generic {
            let Ok(g) = std::str::from_utf8(finder.needle()) else {
                continue;
            };
            for s in finder.find_iter(hay) {
                let e = s + g.len();
                if !end_ok(hay, e) || s > 0 && (is_name_byte(hay[s - 1]) || hay[s - 1] == b'.') {
                    continue;
                }
                let mut p = s;
                while p > 0 && matches!(hay[p - 1], b'.' | b'/') {
                    p -= 1;
                }
                let rel = &hay[p..s];
                if rel.is_empty() {
                    out.push((s, e, g, None));
                    continue;
                }
                // Only `./` and `../` steps, from the text's start, a quote or a variable
                // (`${DIR}`, `$(dirname "$0")`): the file's own folder.
                // (`{}` is a format's placeholder, not a variable.)
                let from_var =
                    p > 0 && matches!(hay[p - 1], b'}' | b')') && !(p > 1 && hay[p - 2] == b'{');
                let after_var = p > 0 && is_name_byte(hay[p - 1]) && {
                    let mut v = p;
                    while v > 0 && is_name_byte(hay[v - 1]) {
                        v -= 1;
                    }
                    v > 0 && hay[v - 1] == b'$'
                };
                let own = p == 0 || !is_name_byte(hay[p - 1]) && !matches!(hay[p - 1], b'~' | b'@');
                if !(own || from_var || after_var) {
                    continue;
                }
                let steps = std::str::from_utf8(rel).unwrap_or("");
                // `/config.json` alone is the root's, which is a name of its own.
                if steps.starts_with('/') && !(from_var || after_var) {
                    continue;
                }
                let steps = steps.strip_prefix('/').unwrap_or(steps);
                let valid = steps.split_terminator('/').all(|c| c == "." || c == "..");
                if valid && (steps.is_empty() || steps.ends_with('/')) {
                    out.push((s, e, g, Some(steps.to_string())));
                }
            }
        }
        out.sort_unstable_by_key(|x| x.0);
        out
    }

    /// Whether any name occurs validly in `hay` (the check for names added to the index), or
    /// a conventional file name of one.
    pub fn any_valid(&self, hay: &[u8]) -> bool {
        // A conventional file's name alone (`config.json`) is a new `kit/config.json` beside
        // the writer (`scan::mentions::generic_near`).
        !self.occurrences(hay, true).is_empty() || !self.generic_spans(hay).is_empty()
    }

    /// The mentions in `hay`: leftmost-longest among valid occurrences, the first one per
    /// (name, line), with their evidence (`scan::mentions` picks per line by cue instead).
    #[cfg(test)]
    pub fn mentions(&self, hay: &[u8]) -> Vec<Mention> {
        let mut out = self.every_span(hay);
        let mut seen: foldhash::HashSet<(u32, u32)> = foldhash::HashSet::default();
        out.retain(|m| seen.insert((m.name, m.line)));
        for m in &mut out {
            m.text = evidence_around(hay, m.start, m.end);
        }
        out
    }

    /// The leftmost-longest valid occurrences, left to right, every one of them (a name may
    /// occur more than once on a line: the caller picks which occurrence speaks for the line),
    /// without their evidence (`text` empty): a caller that drops most of them (a code file's
    /// identifiers) cuts the text only of those it keeps.
    pub fn every_span(&self, hay: &[u8]) -> Vec<Mention> {
        let mut occ = self.occurrences(hay, false);
        occ.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        let mut out = Vec::new();
        let (mut cursor, mut line, mut counted_to) = (0usize, 1u32, 0usize);
        for (s, e, id) in occ {
            if s < cursor {
                continue;
            }
            cursor = e;
            line += memchr::memchr_iter(b'\n', &hay[counted_to..s]).count() as u32;
            counted_to = s;
            out.push(Mention {
                name: id,
                line,
                text: String::new(),
                start: s,
                end: e,
            });
        }
        out
    }
}

/// Every boundary-valid substring of `hay` at most `max_len` bytes long and without a line
/// break: the only strings that can be mentions of names of that length (paths never hold a
/// line break; the walk skips any that does).
pub fn candidates(hay: &[u8], max_len: usize) -> foldhash::HashSet<&[u8]> {
    // foldhash: a big file yields tens of thousands of slices, SipHash was most of the cost.
    let mut out = foldhash::HashSet::default();
    for_each_candidate(hay, max_len, |c| {
        out.insert(c);
    });
    out
}

/// Calls `f` with each candidate of `candidates`, repeats included, without collecting them.
pub fn for_each_candidate<'h>(hay: &'h [u8], max_len: usize, mut f: impl FnMut(&'h [u8])) {
    for s in 0..hay.len() {
        if !start_ok(hay, s) || hay[s] == b'\n' {
            continue;
        }
        let top = hay.len().min(s + max_len);
        for e in s + 1..=top {
            if hay[e - 1] == b'\n' {
                break;
            }
            if end_ok(hay, e) {
                f(&hay[s..e]);
            }
        }
    }
}

/// The part of the line holding `hay[s..e]` around it: the whole line, trimmed, when it has at
/// most `MAX_TEXT_CHARS` characters; else a window of that many characters holding the match,
/// with `…` where the line was cut. The match is always inside the text shown.
pub fn evidence_around(hay: &[u8], s: usize, e: usize) -> String {
    let ls = memchr::memrchr(b'\n', &hay[..s]).map_or(0, |i| i + 1);
    let le = memchr::memchr(b'\n', &hay[e..]).map_or(hay.len(), |i| e + i);
    let line = &hay[ls..le];
    let (ms, me) = (s - ls, e - ls);
    // Trim the line's whitespace, in bytes, keeping the match inside.
    let mut a = 0;
    while a < ms && line[a].is_ascii_whitespace() {
        a += 1;
    }
    let mut b = line.len();
    while b > me && line[b - 1].is_ascii_whitespace() {
        b -= 1;
    }
    let before = String::from_utf8_lossy(&line[a..ms]);
    let matched = String::from_utf8_lossy(&line[ms..me]);
    let after = String::from_utf8_lossy(&line[me..b]);
    let (nb, nm, na) = (
        before.chars().count(),
        matched.chars().count(),
        after.chars().count(),
    );
    if nb + nm + na <= MAX_TEXT_CHARS {
        return format!("{before}{matched}{after}");
    }
    // Room left beside the match, shared: a third before, the rest after (text reads forward).
    let room = MAX_TEXT_CHARS.saturating_sub(nm + 2);
    let mut keep_b = (room / 3).min(nb);
    let keep_a = (room - keep_b).min(na);
    keep_b = (room - keep_a).min(nb);
    let mut out = String::with_capacity(MAX_TEXT_CHARS * 4);
    if keep_b < nb {
        out.push('…');
    }
    out.extend(before.chars().skip(nb - keep_b));
    out.push_str(&matched);
    out.extend(after.chars().take(keep_a));
    if keep_a < na {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests;
