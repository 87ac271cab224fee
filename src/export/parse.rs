//! Reads a `codebase-map.md` back, whoever wrote it, into entries plus the problems that make it
//! unparseable.
//!
//! Owns the grammar only (a title, `<!-- -->` header comments, `## path` sections with exactly
//! the four fields; a refs/refd_by list may end in `+N more`, the count of names not shown). It never fails: what it cannot read becomes a `Problem` with its line, and
//! what it can read is still returned so callers can diff or check the rest.

use super::Level;

/// A map as read.
#[derive(Debug, Clone, Default)]
pub struct ParsedMap {
    pub entries: Vec<ParsedEntry>,
    /// `<!-- Entry count: N -->`, when present and a number.
    pub entry_count: Option<usize>,
    /// `<!-- Pruned: N ... -->`, when present.
    pub pruned: Option<usize>,
    pub problems: Vec<Problem>,
    /// Lines in the file (as `wc -l` would count a file that ends with a newline).
    pub line_count: usize,
}

/// One `## path` section as read; a field that is absent or malformed is `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParsedEntry {
    /// 1-based line of the `##` header.
    pub line: usize,
    pub path: String,
    /// The names shown (without a trailing `+N more`).
    pub refs: Option<Vec<String>>,
    pub refd_by: Option<Vec<String>>,
    /// The N of a trailing `+N more`: names the list has but does not show.
    pub refs_more: usize,
    pub refd_by_more: usize,
    pub hotspot: Option<Level>,
    pub updated: Option<chrono::NaiveDate>,
}

/// Something that keeps the file from being parseable, at a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub message: String,
}

const FIELDS: [&str; 4] = ["refs", "refd_by", "hotspot", "updated"];

/// Parses map text; `today` bounds `updated` dates (the seed: must be <= today).
pub fn parse(text: &str, today: chrono::NaiveDate) -> ParsedMap {
    let mut m = ParsedMap {
        line_count: text.lines().count(),
        ..ParsedMap::default()
    };
    let mut seen: Vec<[bool; 4]> = Vec::new();
    let mut title = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end();
        let mut problem = |message: String| m.problems.push(Problem { line: n, message });
        if let Some(path) = line.strip_prefix("## ") {
            let path = path.trim();
            if path.is_empty() {
                problem("`## ` header without a path".into());
            } else if path.starts_with('/') {
                problem(format!(
                    "`{path}` is absolute; map paths are relative to the root"
                ));
            }
            m.entries.push(ParsedEntry {
                line: n,
                path: path.to_string(),
                ..ParsedEntry::default()
            });
            seen.push([false; 4]);
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let Some(entry) = m.entries.last_mut() else {
            if line.starts_with("# ") && !title {
                title = true;
            } else if let Some(c) = line
                .strip_prefix("<!--")
                .and_then(|c| c.strip_suffix("-->"))
            {
                header_comment(c.trim(), &mut m.entry_count, &mut m.pruned);
            } else {
                problem(format!(
                    "unexpected line before the first `## ` entry: `{}`",
                    clip(line)
                ));
            }
            continue;
        };
        let Some((key, value)) = line.split_once(':') else {
            problem(format!(
                "expected `refs:`, `refd_by:`, `hotspot:` or `updated:`, found `{}`",
                clip(line)
            ));
            continue;
        };
        let Some(k) = FIELDS.iter().position(|f| *f == key) else {
            problem(format!(
                "unknown field `{}` in entry `{}`",
                clip(key),
                entry.path
            ));
            continue;
        };
        let Some(flags) = seen.last_mut() else {
            continue;
        };
        if flags[k] {
            problem(format!("field `{key}` repeated in entry `{}`", entry.path));
            continue;
        }
        flags[k] = true;
        let value = value.trim();
        match k {
            0 | 1 => {
                let (names, more) = match list(value) {
                    Ok(l) => l,
                    Err(message) => {
                        problem(format!("{key} of `{}`: {message}", entry.path));
                        continue;
                    }
                };
                if k == 0 {
                    (entry.refs, entry.refs_more) = (Some(names), more);
                } else {
                    (entry.refd_by, entry.refd_by_more) = (Some(names), more);
                }
            }
            2 => match Level::parse(value) {
                Some(l) => entry.hotspot = Some(l),
                None => problem(format!(
                    "hotspot of `{}` is `{}`; expected low, medium or high",
                    entry.path,
                    clip(value)
                )),
            },
            _ => match chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d") {
                Ok(d) if d > today => problem(format!(
                    "updated of `{}` is {d}, after today ({today})",
                    entry.path
                )),
                Ok(d) => entry.updated = Some(d),
                Err(_) => problem(format!(
                    "updated of `{}` is `{}`; expected YYYY-MM-DD",
                    entry.path,
                    clip(value)
                )),
            },
        }
    }
    for (e, flags) in m.entries.iter().zip(&seen) {
        let missing: Vec<&str> = FIELDS
            .iter()
            .zip(flags)
            .filter(|(_, s)| !**s)
            .map(|(f, _)| *f)
            .collect();
        if !missing.is_empty() {
            m.problems.push(Problem {
                line: e.line,
                message: format!("entry `{}` lacks {}", e.path, missing.join(", ")),
            });
        }
    }
    if !title && m.entries.is_empty() && m.problems.is_empty() {
        m.problems.push(Problem {
            line: 1,
            message: "no `# ` title and no `## ` entries: not a codebase map".into(),
        });
    }
    m.problems.sort_by_key(|p| p.line);
    m
}

fn header_comment(c: &str, entry_count: &mut Option<usize>, pruned: &mut Option<usize>) {
    if let Some(v) = c.strip_prefix("Entry count:") {
        *entry_count = v.trim().parse().ok();
    } else if let Some(v) = c.strip_prefix("Pruned:") {
        *pruned = v.split_whitespace().next().and_then(|n| n.parse().ok());
    }
}

/// `a, b,c` → [a, b, c]; empty items are dropped. A last item `+N more` is the count of names
/// not shown; anywhere else it is an error.
fn list(value: &str) -> Result<(Vec<String>, usize), String> {
    let mut names: Vec<String> = value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let more = |s: &str| {
        s.strip_prefix('+')
            .and_then(|r| r.strip_suffix(" more"))
            .and_then(|n| n.trim().parse::<usize>().ok())
    };
    let count = names.last().and_then(|l| more(l));
    if count.is_some() {
        names.pop();
    }
    if let Some(bad) = names.iter().find(|n| more(n).is_some()) {
        return Err(format!("`{bad}` must be the last item of the list"));
    }
    Ok((names, count.unwrap_or(0)))
}

/// Whether a list read back (`shown` and its `+N more`) is how `full` was written: its first
/// names, then the count of the rest (or all of it).
pub fn list_matches(shown: &[String], more: usize, full: &[String]) -> bool {
    shown.len() + more == full.len() && full.starts_with(shown)
}

fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> chrono::NaiveDate {
        chrono::NaiveDate::from_ymd_opt(2026, 2, 14).unwrap_or_default()
    }

    #[test]
    fn reads_the_seed_example() {
        let text = "# Codebase Dependency Map\n<!-- Entry count: 1 -->\n\n\
            ## .claude/skills/execution-code/SKILL.md\n\
            refs: orchestration-verify, execution-review, implementer.md\n\
            refd_by: manage-skills/SKILL.md, verify-consistency/SKILL.md, CLAUDE.md\n\
            hotspot: medium\nupdated: 2026-02-14\n";
        let m = parse(text, today());
        assert!(m.problems.is_empty(), "{:?}", m.problems);
        assert_eq!(m.entry_count, Some(1));
        let e = &m.entries[0];
        assert_eq!(e.line, 4);
        assert_eq!(e.refs.as_ref().map(Vec::len), Some(3));
        assert_eq!(e.hotspot, Some(Level::Medium));
    }

    #[test]
    fn reports_what_it_cannot_read() {
        let text =
            "# Map\n\n## a.md\nrefs: b\nhotspot: warm\nupdated: 2099-01-01\nnoise\n## b.md\n";
        let m = parse(text, today());
        let lines: Vec<usize> = m.problems.iter().map(|p| p.line).collect();
        // warm (5), future date (6), noise (7), a.md lacks fields (3), b.md lacks all (8).
        assert_eq!(lines, vec![3, 5, 6, 7, 8]);
        assert_eq!(m.entries.len(), 2);
    }

    #[test]
    fn a_capped_list_counts_what_it_does_not_show() {
        let text = "# M\n\n## a.md\nrefs: b, c, +3 more\nrefd_by: +2 more\nhotspot: low\n\
                    updated: 2026-01-01\n\n## b.md\nrefs: +1 more, c\nrefd_by:\nhotspot: low\n\
                    updated: 2026-01-01\n";
        let m = parse(text, today());
        let a = &m.entries[0];
        assert_eq!(a.refs, Some(vec!["b".to_string(), "c".to_string()]));
        assert_eq!((a.refs_more, a.refd_by_more), (3, 2));
        assert_eq!(a.refd_by, Some(Vec::new()));
        // `+N more` before a name is malformed.
        assert_eq!(m.problems.len(), 1, "{:?}", m.problems);
        assert!(m.problems[0].message.contains("must be the last item"));
        let full: Vec<String> = ["b", "c", "d", "e", "f"].map(String::from).to_vec();
        assert!(list_matches(&full[..2], 3, &full));
        assert!(!list_matches(&full[..2], 2, &full));
        assert!(list_matches(&full, 0, &full));
    }

    #[test]
    fn garbage_is_not_a_map() {
        assert!(!parse("\u{0}\u{1}binary", today()).problems.is_empty());
        assert!(!parse("", today()).problems.is_empty());
    }
}
