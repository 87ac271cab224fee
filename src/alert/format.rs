//! The alert text of seed boundary 3, patterns 1–4, at most 500 characters.
//!
//! Owns the exact wording and the truncation rules; knows nothing of where the data comes from.
//! Invariant: every text returned here is at most [`MAX_CHARS`] characters; the header and the
//! `Action:` line are always present in an impact alert; the `Changed:` list is cut with
//! `... and {K} more`, the `Dependents:` list with `... and {K} more. Run /execution-impact for
//! full list.` and the action line then becomes the full-list one (the seed's pattern 4). The
//! budget is split as the reference script does (`on-implementer-done.sh`, `fit_list`).

use serde::{Deserialize, Serialize};

/// The seed's limit on `additionalContext`.
pub const MAX_CHARS: usize = 500;
/// Pattern 2.
pub const NO_CHANGES: &str = "SRC: No file changes detected.";
/// The time-budget signal, distinct from the 500-character truncation.
pub const TIMEOUT: &str = "... analysis truncated (timeout)";
const ACTION_FULL: &str = "Action: Consider running /execution-impact for full analysis.";
const ACTION_TRUNC: &str = "Action: Run /execution-impact for full list.";
const MORE_DEPS: &str = ". Run /execution-impact for full list.";

/// A file and the name it is shown by (its shortest unique path suffix).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Named {
    pub path: String,
    pub name: String,
}

/// A file that mentions changed files: `refs` holds the changed paths it mentions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dependent {
    pub path: String,
    pub name: String,
    pub refs: Vec<String>,
}

/// What one analysis found (root-relative paths).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    pub changed: Vec<Named>,
    pub dependents: Vec<Dependent>,
    pub timed_out: bool,
    /// Mentions of the changed files' names that could not be attributed (ties between
    /// same-named files): said in the alert, never dropped silently.
    #[serde(default)]
    pub unattributed: u64,
}

/// The pattern a text follows (the `alerts.kind` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Patterns 1 and 4.
    Impact,
    /// Pattern 3 (and "0 changed files" when only failed calls were seen).
    None,
    /// Pattern 2.
    Empty,
    /// No alert while a cascade runs.
    Suppressed,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Impact => "impact",
            Kind::None => "none",
            Kind::Empty => "empty",
            Kind::Suppressed => "suppressed",
        }
    }

    pub fn parse(s: &str) -> Kind {
        match s {
            "impact" => Kind::Impact,
            "none" => Kind::None,
            "suppressed" => Kind::Suppressed,
            _ => Kind::Empty,
        }
    }
}

/// The note stored instead of an alert while a cascade is active.
pub fn suppressed(iteration: u32) -> String {
    format!("SRC: impact alert suppressed during active cascade (iteration {iteration}).")
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// The first `max` characters of `s`.
fn cut(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// The text and its pattern for an analysis.
pub fn render(a: &Analysis) -> (Kind, String) {
    let n = a.changed.len();
    let mut timeout = if a.timed_out {
        format!("\n{TIMEOUT}")
    } else {
        String::new()
    };
    // Ties ride with the timeout line: both say the list may be short, and both are kept
    // whole when the lists are cut to fit 500 characters.
    if a.unattributed > 0 {
        timeout = format!(
            "\n{} mention(s) not attributed (same-named files): src query unresolved{timeout}",
            a.unattributed
        );
    }
    if a.dependents.is_empty() {
        let text = format!("SRC: 0 impact candidates for {n} changed files.{timeout}");
        return (Kind::None, cut(&text, MAX_CHARS));
    }
    let name_of = |path: &str| {
        a.changed
            .iter()
            .find(|c| c.path == path)
            .map(|c| c.name.clone())
            .unwrap_or_else(|| path.to_string())
    };
    let l1 = format!(
        "SRC IMPACT ALERT: {n} files changed, {} potential dependents detected.",
        a.dependents.len()
    );
    let names: Vec<String> = a.changed.iter().map(|c| c.name.clone()).collect();
    let items: Vec<String> = a
        .dependents
        .iter()
        .map(|d| {
            let refs: Vec<String> = d.refs.iter().map(|r| name_of(r)).collect();
            format!("{} (refs {})", d.name, refs.join(", "))
        })
        .collect();
    let l2 = format!("Changed: {}", names.join(", "));
    let l3 = format!("Dependents: {}", items.join(", "));
    let text = format!("{l1}\n{l2}\n{l3}{timeout}\n{ACTION_FULL}");
    if chars(&text) <= MAX_CHARS {
        return (Kind::Impact, text);
    }
    // Pattern 4: share what is left between the two lists, Dependents cut first.
    let avail = MAX_CHARS as i64
        - chars(&l1) as i64
        - chars(ACTION_TRUNC) as i64
        - 3
        - chars(&timeout) as i64;
    let mut cap2 = avail / 2;
    if avail - (chars(&l3) as i64) > cap2 {
        cap2 = avail - chars(&l3) as i64;
    }
    let l2 = fit_list("Changed: ", cap2, |k| format!("... and {k} more"), &names);
    let l3 = fit_list(
        "Dependents: ",
        avail - chars(&l2) as i64,
        |k| format!("... and {k} more{MORE_DEPS}"),
        &items,
    );
    let text = format!("{l1}\n{l2}\n{l3}{timeout}\n{ACTION_TRUNC}");
    if chars(&text) <= MAX_CHARS {
        return (Kind::Impact, text);
    }
    // Only reachable with absurdly long names: keep the header and action, cut the middle.
    let tail = format!("{timeout}\n{ACTION_TRUNC}");
    let head_room = MAX_CHARS.saturating_sub(chars(&tail));
    let middle = cut(&format!("{l1}\n{l2}\n{l3}"), head_room);
    (Kind::Impact, cut(&format!("{middle}{tail}"), MAX_CHARS))
}

/// `prefix` + the items joined with ", " when that fits in `cap` characters; otherwise the
/// longest run of leading items followed by `", " + more(left out)` that fits, or at least
/// `prefix + more(all)`.
fn fit_list(prefix: &str, cap: i64, more: impl Fn(usize) -> String, items: &[String]) -> String {
    let full = format!("{prefix}{}", items.join(", "));
    if chars(&full) as i64 <= cap {
        return full;
    }
    let n = items.len();
    let mut fit = format!("{prefix}{}", more(n));
    let mut body = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            body.push_str(", ");
        }
        body.push_str(item);
        let cand = format!("{prefix}{body}, {}", more(n - i - 1));
        if chars(&cand) as i64 > cap {
            break;
        }
        fit = cand;
    }
    fit
}

/// Merges several analyses of one session into one (the seed: the lead acts on the last, most
/// complete alert, so one alert holding everything is what it needs). Changed files are never
/// listed as dependents; lists are sorted by path, refs in changed order.
pub fn merge<'a>(parts: impl IntoIterator<Item = &'a Analysis>) -> Analysis {
    use std::collections::BTreeMap;
    let mut changed: BTreeMap<String, String> = BTreeMap::new();
    let mut deps: BTreeMap<String, (String, Vec<String>)> = BTreeMap::new();
    let mut timed_out = false;
    let mut unattributed = 0;
    for a in parts {
        timed_out |= a.timed_out;
        unattributed = unattributed.max(a.unattributed);
        for c in &a.changed {
            changed
                .entry(c.path.clone())
                .or_insert_with(|| c.name.clone());
        }
        for d in &a.dependents {
            let e = deps
                .entry(d.path.clone())
                .or_insert_with(|| (d.name.clone(), Vec::new()));
            for r in &d.refs {
                if !e.1.contains(r) {
                    e.1.push(r.clone());
                }
            }
        }
    }
    let order: Vec<&String> = changed.keys().collect();
    let dependents = deps
        .into_iter()
        .filter(|(path, _)| !changed.contains_key(path))
        .map(|(path, (name, mut refs))| {
            refs.sort_by_key(|r| order.iter().position(|o| *o == r));
            Dependent { path, name, refs }
        })
        .collect();
    Analysis {
        changed: changed
            .into_iter()
            .map(|(path, name)| Named { path, name })
            .collect(),
        dependents,
        timed_out,
        unattributed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unattributed_mentions_are_said_within_the_limit() {
        let mut a = Analysis {
            changed: vec![named("a/x.md", "x.md")],
            dependents: vec![dep("b.md", "b.md", &["a/x.md"])],
            timed_out: false,
            unattributed: 3,
        };
        let (_, text) = render(&a);
        assert!(text.contains("3 mention(s) not attributed"), "{text}");
        // With lists far too long for 500 characters, the line is still there.
        a.dependents = (0..200)
            .map(|i| Dependent {
                path: format!("d/{i}.md"),
                name: format!("dependent-number-{i}.md"),
                refs: vec!["a/x.md".into()],
            })
            .collect();
        let (_, text) = render(&a);
        assert!(text.chars().count() <= 500, "{}", text.chars().count());
        assert!(text.contains("3 mention(s) not attributed"), "{text}");
    }

    fn named(path: &str, name: &str) -> Named {
        Named {
            path: path.into(),
            name: name.into(),
        }
    }

    fn dep(path: &str, name: &str, refs: &[&str]) -> Dependent {
        Dependent {
            path: path.into(),
            name: name.into(),
            refs: refs.iter().map(|r| r.to_string()).collect(),
        }
    }

    /// The seed's "sample full output", reproduced from the same data.
    #[test]
    fn seed_sample_full() {
        let a = Analysis {
            changed: vec![
                named(
                    ".claude/skills/execution-code/SKILL.md",
                    "execution-code/SKILL.md",
                ),
                named(".claude/settings.json", "settings.json"),
            ],
            dependents: vec![
                dep(
                    ".claude/skills/manage-skills/SKILL.md",
                    "manage-skills/SKILL.md",
                    &[".claude/skills/execution-code/SKILL.md"],
                ),
                dep(
                    ".claude/skills/verify-consistency/SKILL.md",
                    "verify-consistency/SKILL.md",
                    &[".claude/skills/execution-code/SKILL.md"],
                ),
                dep(
                    ".claude/hooks/on-subagent-start.sh",
                    "on-subagent-start.sh",
                    &[".claude/settings.json"],
                ),
                dep("CLAUDE.md", "CLAUDE.md", &[".claude/settings.json"]),
            ],
            timed_out: false,
            unattributed: 0,
        };
        let (kind, text) = render(&a);
        assert_eq!(kind, Kind::Impact);
        assert_eq!(
            text,
            "SRC IMPACT ALERT: 2 files changed, 4 potential dependents detected.\n\
             Changed: execution-code/SKILL.md, settings.json\n\
             Dependents: manage-skills/SKILL.md (refs execution-code/SKILL.md), verify-consistency/SKILL.md (refs execution-code/SKILL.md), on-subagent-start.sh (refs settings.json), CLAUDE.md (refs settings.json)\n\
             Action: Consider running /execution-impact for full analysis."
        );
    }

    fn big(n_changed: usize, n_deps: usize) -> Analysis {
        let changed: Vec<Named> = (0..n_changed)
            .map(|i| named(&format!("c/file-{i}.md"), &format!("file-{i}.md")))
            .collect();
        let dependents = (0..n_deps)
            .map(|i| {
                dep(
                    &format!("d/dep-{i:02}/SKILL.md"),
                    &format!("dep-{i:02}/SKILL.md"),
                    &["c/file-0.md"],
                )
            })
            .collect();
        Analysis {
            changed,
            dependents,
            timed_out: false,
            unattributed: 0,
        }
    }

    #[test]
    fn truncation_follows_pattern_4() {
        let (kind, text) = render(&big(8, 23));
        assert_eq!(kind, Kind::Impact);
        assert!(
            text.chars().count() <= MAX_CHARS,
            "{}",
            text.chars().count()
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "SRC IMPACT ALERT: 8 files changed, 23 potential dependents detected."
        );
        assert!(lines[1].starts_with("Changed: file-0.md"), "{}", lines[1]);
        assert!(lines[2].starts_with("Dependents: dep-00/SKILL.md (refs file-0.md)"));
        assert!(
            lines[2].ends_with("more. Run /execution-impact for full list."),
            "{}",
            lines[2]
        );
        assert_eq!(lines[3], "Action: Run /execution-impact for full list.");
        // The numbers left out add up.
        let left: usize = lines[2]
            .rsplit("... and ")
            .next()
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let shown = lines[2].matches(" (refs ").count();
        assert_eq!(shown + left, 23);
    }

    #[test]
    fn long_changed_list_is_cut_too() {
        let (_, text) = render(&big(60, 3));
        assert!(text.chars().count() <= MAX_CHARS);
        assert!(
            text.lines().nth(1).is_some_and(|l| l.contains("more")),
            "{text}"
        );
        assert!(text.ends_with("Action: Run /execution-impact for full list."));
    }

    #[test]
    fn timeout_and_empty_patterns() {
        let mut a = big(2, 0);
        assert_eq!(
            render(&a).1,
            "SRC: 0 impact candidates for 2 changed files."
        );
        a.timed_out = true;
        assert_eq!(
            render(&a).1,
            "SRC: 0 impact candidates for 2 changed files.\n... analysis truncated (timeout)"
        );
        let mut b = big(40, 40);
        b.timed_out = true;
        let (_, text) = render(&b);
        assert!(text.chars().count() <= MAX_CHARS);
        assert!(text.contains(
            "\n... analysis truncated (timeout)\nAction: Run /execution-impact for full list."
        ));
        assert_eq!(
            render(&Analysis::default()).1,
            "SRC: 0 impact candidates for 0 changed files."
        );
    }

    #[test]
    fn absurd_names_still_fit() {
        let mut a = big(1, 1);
        a.changed[0].name = "x".repeat(2000);
        let (_, text) = render(&a);
        assert!(text.chars().count() <= MAX_CHARS);
        assert!(text.starts_with("SRC IMPACT ALERT: 1 files changed"));
        assert!(text.ends_with("Action: Run /execution-impact for full list."));
    }

    #[test]
    fn merge_unions_and_drops_changed_from_dependents() {
        let a = Analysis {
            changed: vec![named("a.md", "a.md")],
            dependents: vec![
                dep("b.md", "b.md", &["a.md"]),
                dep("x.md", "x.md", &["a.md"]),
            ],
            timed_out: false,
            unattributed: 0,
        };
        let b = Analysis {
            changed: vec![named("b.md", "b.md")],
            dependents: vec![dep("x.md", "x.md", &["b.md"])],
            timed_out: true,
            unattributed: 0,
        };
        let m = merge([&b, &a]);
        assert_eq!(m.changed.len(), 2);
        assert_eq!(m.dependents, vec![dep("x.md", "x.md", &["a.md", "b.md"])]);
        assert!(m.timed_out);
        assert_eq!(
            render(&m).1,
            "SRC IMPACT ALERT: 2 files changed, 1 potential dependents detected.\n\
             Changed: a.md, b.md\nDependents: x.md (refs a.md, b.md)\n\
             ... analysis truncated (timeout)\n\
             Action: Consider running /execution-impact for full analysis."
        );
    }
}
