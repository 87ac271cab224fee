//! The seed's validation contract for any `codebase-map.md`, and its staleness report.
//!
//! Owns the checks and their stable codes; reads the filesystem (existence, mtimes) but never the
//! database, so a map written by someone else is judged by the same rules. Invariant: `valid` is
//! true exactly when `errors` is empty; codes never change meaning.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::parse::{self, ParsedMap};
use super::Level;
use crate::config::{Hotspot, Scope};
use crate::scan::walk::ScopeMatcher;

/// What a check compares the map against.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    pub root: PathBuf,
    /// The map's own root-relative path, which it must never list.
    pub map_rel: Option<String>,
    /// 0: no limit.
    pub max_lines: usize,
    pub hotspot: Hotspot,
    pub scope: Scope,
    pub today: chrono::NaiveDate,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Finding {
    pub code: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Staleness {
    pub total_entries: usize,
    pub stale_count: usize,
    pub missing_count: usize,
    pub recommendation: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    pub valid: bool,
    pub map_path: String,
    pub errors: Vec<Finding>,
    pub warnings: Vec<Finding>,
    pub staleness: Staleness,
}

/// The map file does not exist.
pub const E_MISSING_MAP: &str = "E_MISSING_MAP";
/// The file breaks the grammar (headers, the four fields, values).
pub const E_UNPARSEABLE: &str = "E_UNPARSEABLE";
/// Two sections for one path.
pub const E_DUPLICATE_ENTRY: &str = "E_DUPLICATE_ENTRY";
/// An entry's file does not exist (an orphan).
pub const E_MISSING_FILE: &str = "E_MISSING_FILE";
/// A refs/refd_by pair that only one side lists.
pub const E_ONE_SIDED_REF: &str = "E_ONE_SIDED_REF";
/// A hotspot that disagrees with the refd_by count.
pub const E_HOTSPOT: &str = "E_HOTSPOT";
/// An entry for a path outside the configured scope, or for the map itself.
pub const E_EXCLUDED_PATH: &str = "E_EXCLUDED_PATH";
/// More lines than the limit.
pub const E_TOO_LONG: &str = "E_TOO_LONG";
/// A ref that names no entry (pruned, out of scope, or unknown).
pub const W_UNRESOLVED_REF: &str = "W_UNRESOLVED_REF";
/// The header's entry count differs from the sections present.
pub const W_ENTRY_COUNT: &str = "W_ENTRY_COUNT";

/// Validates the map at `path` (absolute).
pub fn check_file(path: &Path, display: &str, opts: &CheckOptions) -> CheckReport {
    match std::fs::read(path) {
        Ok(bytes) => check_text(&String::from_utf8_lossy(&bytes), display, opts),
        Err(e) => {
            let code = if e.kind() == std::io::ErrorKind::NotFound {
                E_MISSING_MAP
            } else {
                E_UNPARSEABLE
            };
            CheckReport {
                valid: false,
                map_path: display.to_string(),
                errors: vec![Finding {
                    code,
                    line: None,
                    path: None,
                    message: format!("cannot read {display}: {e}; `src export-map` regenerates it"),
                }],
                warnings: Vec::new(),
                staleness: Staleness {
                    total_entries: 0,
                    stale_count: 0,
                    missing_count: 0,
                    recommendation: "full-regeneration",
                },
            }
        }
    }
}

/// Validates map text.
pub fn check_text(text: &str, display: &str, opts: &CheckOptions) -> CheckReport {
    let m = parse::parse(text, opts.today);
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let err = |code, line, path: Option<&str>, message| Finding {
        code,
        line,
        path: path.map(str::to_string),
        message,
    };
    for p in &m.problems {
        errors.push(err(E_UNPARSEABLE, Some(p.line), None, p.message.clone()));
    }
    if opts.max_lines > 0 && m.line_count > opts.max_lines {
        errors.push(err(
            E_TOO_LONG,
            None,
            None,
            format!(
                "{} lines, over the limit of {}",
                m.line_count, opts.max_lines
            ),
        ));
    }
    if let Some(n) = m.entry_count.filter(|n| *n != m.entries.len()) {
        warnings.push(err(
            W_ENTRY_COUNT,
            None,
            None,
            format!("header says {n} entries, the file has {}", m.entries.len()),
        ));
    }
    // The index's own matcher, so "excluded" means exactly what the walk skips.
    let scope = ScopeMatcher::new(&opts.scope).ok();
    let mut seen = BTreeSet::new();
    for e in &m.entries {
        let at = Some(e.line);
        let p = Some(e.path.as_str());
        if !seen.insert(e.path.as_str()) {
            errors.push(err(
                E_DUPLICATE_ENTRY,
                at,
                p,
                format!("`{}` has two sections", e.path),
            ));
        }
        if opts.map_rel.as_deref() == Some(e.path.as_str()) {
            errors.push(err(E_EXCLUDED_PATH, at, p, "the map lists itself".into()));
        } else if scope.as_ref().is_some_and(|s| !s.includes_file(&e.path)) {
            errors.push(err(
                E_EXCLUDED_PATH,
                at,
                p,
                format!("`{}` is outside the configured scope", e.path),
            ));
        }
        if !e.path.is_empty() && !opts.root.join(&e.path).is_file() {
            errors.push(err(
                E_MISSING_FILE,
                at,
                p,
                format!("`{}` does not exist (orphaned entry)", e.path),
            ));
        }
        if let (Some(h), Some(by)) = (e.hotspot, &e.refd_by) {
            // A capped list counts the names it does not show.
            let count = by.len() + e.refd_by_more;
            let want = Level::from_count(count, &opts.hotspot);
            // `high` may also mean "changed in the recent sessions", which a map cannot show.
            if h != want && h != Level::High {
                errors.push(err(
                    E_HOTSPOT,
                    at,
                    p,
                    format!(
                        "hotspot is {} but refd_by has {count} entries, which is {}",
                        h.as_str(),
                        want.as_str()
                    ),
                ));
            }
        }
    }
    bidirectional(&m, &mut errors, &mut warnings);
    let staleness = staleness(&m, opts, !m.problems.is_empty());
    CheckReport {
        valid: errors.is_empty(),
        map_path: display.to_string(),
        errors,
        warnings,
        staleness,
    }
}

/// How refs name entries, tier by tier: the exact path, a proper path suffix
/// (`execution-code/SKILL.md`), a stem (`implementer`), a directory (`execution-code` for
/// `skills/execution-code/SKILL.md`). The first tier that knows a name wins.
struct Resolver {
    tiers: [HashMap<String, Vec<usize>>; 4],
}

impl Resolver {
    fn new(m: &ParsedMap) -> Resolver {
        let mut tiers: [HashMap<String, Vec<usize>>; 4] = Default::default();
        for (i, e) in m.entries.iter().enumerate() {
            let p = e.path.as_str();
            tiers[0].entry(p.to_string()).or_default().push(i);
            for (cut, _) in p.match_indices('/') {
                tiers[1]
                    .entry(p[cut + 1..].to_string())
                    .or_default()
                    .push(i);
            }
            let base = p.rsplit('/').next().unwrap_or(p);
            let stem = base.split('.').next().unwrap_or(base);
            tiers[2].entry(stem.to_string()).or_default().push(i);
            if let Some(dir) = p.rsplit('/').nth(1) {
                tiers[3].entry(dir.to_string()).or_default().push(i);
            }
        }
        for tier in &mut tiers {
            for hits in tier.values_mut() {
                hits.dedup();
            }
        }
        Resolver { tiers }
    }

    fn resolve(&self, r: &str) -> Vec<usize> {
        self.tiers
            .iter()
            .find_map(|t| t.get(r))
            .cloned()
            .unwrap_or_default()
    }
}

fn bidirectional(m: &ParsedMap, errors: &mut Vec<Finding>, warnings: &mut Vec<Finding>) {
    let resolver = Resolver::new(m);
    let resolve_all = |list: &Option<Vec<String>>| -> Vec<(String, Vec<usize>)> {
        list.iter()
            .flatten()
            .map(|r| (r.clone(), resolver.resolve(r)))
            .collect()
    };
    let refs: Vec<_> = m.entries.iter().map(|e| resolve_all(&e.refs)).collect();
    let by: Vec<_> = m.entries.iter().map(|e| resolve_all(&e.refd_by)).collect();
    let lists = |side: &[Vec<(String, Vec<usize>)>], i: usize, j: usize| {
        side[i].iter().any(|(_, hits)| hits.contains(&j))
    };
    // Names a capped list (`+N more`) does not show: (entry, "refs" | "refd_by") → N.
    let more = |j: usize, field: &str| {
        let e = &m.entries[j];
        if field == "refs" {
            e.refs_more
        } else {
            e.refd_by_more
        }
    };
    // Entries that name j in one list while j's other list, capped, does not show them: at most
    // its `+N more` can be such names; more than that are one-sided refs.
    let mut hidden: BTreeMap<(usize, &str), Vec<String>> = BTreeMap::new();
    // One warning per unknown name (first line seen, how often), not one per mention: a pruned
    // map names its pruned files in many lists.
    let mut unresolved: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (i, e) in m.entries.iter().enumerate() {
        for (field, mine, theirs, other_field) in [
            ("refs", &refs, &by, "refd_by"),
            ("refd_by", &by, &refs, "refs"),
        ] {
            for (name, hits) in &mine[i] {
                if hits.is_empty() {
                    unresolved.entry(name).or_insert((e.line, 0)).1 += 1;
                } else if !hits.iter().any(|&j| lists(theirs, j, i)) {
                    if let Some(&j) = hits.iter().find(|&&j| more(j, other_field) > 0) {
                        hidden
                            .entry((j, other_field))
                            .or_default()
                            .push(e.path.clone());
                        continue;
                    }
                    let other = &m.entries[hits[0]].path;
                    errors.push(Finding {
                        code: E_ONE_SIDED_REF,
                        line: Some(e.line),
                        path: Some(e.path.clone()),
                        message: format!(
                            "`{}` has `{name}` in {field}, but `{other}` does not list it in {other_field}",
                            e.path
                        ),
                    });
                }
            }
        }
    }
    for ((j, field), claimers) in hidden {
        let e = &m.entries[j];
        let n = more(j, field);
        if claimers.len() > n {
            errors.push(Finding {
                code: E_ONE_SIDED_REF,
                line: Some(e.line),
                path: Some(e.path.clone()),
                message: format!(
                    "`{}` does not show {} entries that list it ({}) in its {field}, \
                     but its `+{n} more` counts only {n}",
                    e.path,
                    claimers.len(),
                    claimers.join(", ")
                ),
            });
        }
    }
    let mut found: Vec<Finding> = unresolved
        .into_iter()
        .map(|(name, (line, times))| Finding {
            code: W_UNRESOLVED_REF,
            line: Some(line),
            path: None,
            message: format!(
                "`{name}` is named in {times} refs/refd_by lists but has no entry \
                 (pruned, outside the map's scope, or unknown)"
            ),
        })
        .collect();
    found.sort_by_key(|f| f.line);
    warnings.extend(found);
}

fn staleness(m: &ParsedMap, opts: &CheckOptions, unparseable: bool) -> Staleness {
    // An entry is stale when its file changed after the date it records, never merely because
    // that date is old: on a quiet tree a map stays fresh, and `export-map` (which rewrites it
    // only when its bytes change) has nothing to clear.
    let mut stale = 0;
    let mut missing = 0;
    for e in &m.entries {
        let abs = opts.root.join(&e.path);
        let Ok(meta) = std::fs::metadata(&abs) else {
            missing += 1;
            continue;
        };
        let changed = meta
            .modified()
            .ok()
            .map(|t| chrono::DateTime::<chrono::Local>::from(t).date_naive());
        match e.updated {
            Some(u) if changed.is_some_and(|c| c > u) => stale += 1,
            Some(_) => {}
            None => stale += 1,
        }
    }
    let total = m.entries.len();
    let bad = stale + missing;
    let recommendation = if unparseable || (total > 0 && bad * 10 > total * 3) {
        "full-regeneration"
    } else if bad > 0 {
        "incremental"
    } else {
        "none"
    };
    Staleness {
        total_entries: total,
        stale_count: stale,
        missing_count: missing,
        recommendation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(root: &Path) -> CheckOptions {
        CheckOptions {
            root: root.to_path_buf(),
            map_rel: None,
            max_lines: 0,
            hotspot: Hotspot {
                high_refd_by: 10,
                medium_refd_by: 3,
                recent_sessions: 3,
            },
            scope: Scope {
                include: vec!["**".into()],
                exclude: Vec::new(),
            },
            today: chrono::NaiveDate::MAX,
        }
    }

    fn entry(path: &str, refs: &str, refd_by: &str, hotspot: &str) -> String {
        format!("\n## {path}\nrefs: {refs}\nrefd_by: {refd_by}\nhotspot: {hotspot}\nupdated: 2026-01-01\n")
    }

    fn codes(r: &CheckReport) -> Vec<&'static str> {
        r.errors.iter().map(|f| f.code).collect()
    }

    #[test]
    fn a_capped_list_is_accepted_and_still_checked() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        for f in ["hub.md", "a.md", "b.md", "c.md", "d.md"] {
            std::fs::write(dir.path().join(f), "x")?;
        }
        let o = opts(dir.path());
        let leaves = |refd: &str| {
            ["a.md", "b.md", "c.md", "d.md"]
                .iter()
                .map(|p| entry(p, "hub.md", refd, "low"))
                .collect::<String>()
        };
        // hub shows two of its four dependents and counts the other two: valid, and the count
        // (4) is what the hotspot is judged by.
        let capped = format!(
            "# M\n{}{}",
            entry("hub.md", "", "a.md, b.md, +2 more", "medium"),
            leaves("")
        );
        let r = check_text(&capped, "m", &o);
        assert!(r.valid, "{:?}", r.errors);
        // A count too small for the entries that name hub is a one-sided ref.
        let short = format!(
            "# M\n{}{}",
            entry("hub.md", "", "a.md, b.md, +1 more", "medium"),
            leaves("")
        );
        let r = check_text(&short, "m", &o);
        assert_eq!(codes(&r), vec![E_ONE_SIDED_REF], "{:?}", r.errors);
        assert!(r.errors[0].message.contains("c.md, d.md"), "{:?}", r.errors);
        // The hotspot counts the hidden names: 4 is medium, not low.
        let wrong = format!(
            "# M\n{}{}",
            entry("hub.md", "", "a.md, b.md, +2 more", "low"),
            leaves("")
        );
        assert_eq!(codes(&check_text(&wrong, "m", &o)), vec![E_HOTSPOT]);
        // A name shown in a capped list still needs its other side.
        let one_sided = format!(
            "# M\n{}{}",
            entry("hub.md", "a.md, +1 more", "", "low"),
            leaves("")
        );
        let r = check_text(&one_sided, "m", &o);
        assert!(codes(&r).contains(&E_ONE_SIDED_REF), "{:?}", r.errors);
        Ok(())
    }

    #[test]
    fn refs_resolve_by_path_suffix_stem_or_directory() {
        let text = "# M\n\n## .claude/skills/execution-code/SKILL.md\nrefs:\nrefd_by:\nhotspot: low\nupdated: 2026-01-01\n\n\
                    ## .claude/agents/implementer.md\nrefs:\nrefd_by:\nhotspot: low\nupdated: 2026-01-01\n";
        let m = parse::parse(text, chrono::NaiveDate::MAX);
        let r = Resolver::new(&m);
        assert_eq!(r.resolve("execution-code/SKILL.md"), vec![0]);
        assert_eq!(r.resolve("execution-code"), vec![0]);
        assert_eq!(r.resolve("implementer"), vec![1]);
        assert_eq!(r.resolve("implementer.md"), vec![1]);
        assert_eq!(r.resolve(".claude/agents/implementer.md"), vec![1]);
        assert!(r.resolve("nothing").is_empty());
    }
}
