//! The first plan of a cascade: reading the impact L1 (a stored run or a `--from` document),
//! taking its DIRECT dependents as targets with their reasons, and grouping targets by proximity
//! into at most two implementer groups (the seed's "max 2 implementers per iteration").
//!
//! Invariant: every target path is root-relative; paths outside the root are dropped with a
//! warning. TRANSITIVE dependents are informational and never become targets.

use std::collections::BTreeSet;

use serde::Deserialize;

use super::machine::{Dependent, Reason};
use crate::impact::ImpactL1;

/// The seed's "max 2 implementers per iteration".
pub const MAX_GROUPS: u32 = 2;

/// What `start` needs from an impact report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartPlan {
    /// original_impact_files: the changed files and their DIRECT dependents.
    pub original: BTreeSet<String>,
    pub direct: Vec<Dependent>,
    pub warnings: Vec<String>,
}

/// An impact L1 read leniently: the seed's document (no `schema_version`) and ours both parse;
/// only `impacts` with `changed_file` and `dependents[].file` are required.
#[derive(Debug, Deserialize)]
pub struct LooseL1 {
    #[serde(default)]
    pub skill: Option<String>,
    pub impacts: Vec<LooseImpact>,
}

#[derive(Debug, Deserialize)]
pub struct LooseImpact {
    pub changed_file: String,
    #[serde(default)]
    pub dependents: Vec<LooseDependent>,
}

#[derive(Debug, Deserialize)]
pub struct LooseDependent {
    pub file: String,
    #[serde(rename = "type", default)]
    pub kind: String,
    #[serde(default)]
    pub hop_count: Option<u8>,
    #[serde(default)]
    pub reference_pattern: String,
    #[serde(default)]
    pub evidence: String,
}

/// Parses a `--from` document; the error says why it is not an impact L1.
pub fn parse_l1(text: &str) -> Result<LooseL1, String> {
    let doc: LooseL1 = serde_yaml::from_str(text).map_err(|e| e.to_string())?;
    if let Some(skill) = &doc.skill {
        if skill != "impact" {
            return Err(format!("skill is {skill:?}, expected \"impact\""));
        }
    }
    Ok(doc)
}

impl From<&ImpactL1> for LooseL1 {
    fn from(l1: &ImpactL1) -> LooseL1 {
        LooseL1 {
            skill: Some(l1.skill.clone()),
            impacts: l1
                .impacts
                .iter()
                .map(|i| LooseImpact {
                    changed_file: i.changed_file.clone(),
                    dependents: i
                        .dependents
                        .iter()
                        .map(|d| LooseDependent {
                            file: d.file.clone(),
                            kind: d.kind.clone(),
                            hop_count: Some(d.hop_count),
                            reference_pattern: d.reference_pattern.clone(),
                            evidence: d.evidence.clone(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

fn is_direct(d: &LooseDependent) -> bool {
    d.kind.eq_ignore_ascii_case("direct") || (d.kind.is_empty() && d.hop_count == Some(1))
}

/// The start plan of `l1`; `locate` maps a path as written (absolute or root-relative) to its
/// root-relative form, `None` when it is outside the root.
pub fn start_plan(l1: &LooseL1, locate: impl Fn(&str) -> Option<String>) -> StartPlan {
    let mut plan = StartPlan::default();
    let mut outside = BTreeSet::new();
    let rel = |p: &str, outside: &mut BTreeSet<String>| {
        let r = locate(p);
        if r.is_none() {
            outside.insert(p.to_string());
        }
        r
    };
    for imp in &l1.impacts {
        let Some(changed) = rel(&imp.changed_file, &mut outside) else {
            continue;
        };
        plan.original.insert(changed.clone());
        for d in imp.dependents.iter().filter(|d| is_direct(d)) {
            let Some(file) = rel(&d.file, &mut outside) else {
                continue;
            };
            plan.original.insert(file.clone());
            // Evidence names the dependent as the L1 wrote it (absolute): make it root-relative.
            let evidence = match d.evidence.strip_prefix(&d.file) {
                Some(rest) if rest.starts_with(':') => format!("{file}{rest}"),
                _ => d.evidence.clone(),
            };
            plan.direct.push(Dependent {
                file,
                reason: Reason {
                    changed_file: changed.clone(),
                    reference_pattern: d.reference_pattern.clone(),
                    evidence,
                },
            });
        }
    }
    for p in outside {
        plan.warnings
            .push(format!("{p} is outside the project root: ignored"));
    }
    plan
}

/// The group (1 or 2) of each file. Files are split at the first directory level where they
/// differ; the sorted buckets of that level are cut into two contiguous runs whose sizes are as
/// equal as possible. Files that all share one directory form one group.
pub fn group_by_proximity(files: &[String]) -> Vec<u32> {
    let dirs: Vec<Vec<&str>> = files
        .iter()
        .map(|f| {
            let mut parts: Vec<&str> = f.split('/').collect();
            parts.pop();
            parts
        })
        .collect();
    let Some(first) = dirs.first() else {
        return Vec::new();
    };
    let common = dirs.iter().fold(first.len(), |n, d| {
        n.min(d.iter().zip(first).take_while(|(a, b)| a == b).count())
    });
    let keys: Vec<&str> = dirs
        .iter()
        .map(|d| d.get(common).copied().unwrap_or(""))
        .collect();
    let buckets: BTreeSet<&str> = keys.iter().copied().collect();
    if buckets.len() < 2 {
        return vec![1; files.len()];
    }
    let sizes: Vec<(&str, usize)> = buckets
        .iter()
        .map(|b| (*b, keys.iter().filter(|k| *k == b).count()))
        .collect();
    let total = files.len();
    let mut best = (usize::MAX, 1);
    let mut left = 0;
    for (i, (_, size)) in sizes.iter().enumerate().take(sizes.len() - 1) {
        left += size;
        let diff = left.abs_diff(total - left);
        if diff < best.0 {
            best = (diff, i + 1);
        }
    }
    let first_group: BTreeSet<&str> = sizes[..best.1].iter().map(|(k, _)| *k).collect();
    keys.iter()
        .map(|k| {
            if first_group.contains(k) {
                1
            } else {
                MAX_GROUPS
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn one_directory_is_one_group() {
        assert_eq!(
            group_by_proximity(&s(&["a/x.md", "a/y.md", "a/z.md"])),
            vec![1, 1, 1]
        );
        assert_eq!(group_by_proximity(&s(&["x.md"])), vec![1]);
        assert!(group_by_proximity(&[]).is_empty());
    }

    #[test]
    fn splits_at_first_differing_directory_balanced() {
        let files = s(&[
            ".claude/agents/a.md",
            ".claude/agents/b.md",
            ".claude/skills/x/SKILL.md",
            ".claude/skills/y/SKILL.md",
            ".claude/z.md",
        ]);
        // Buckets: "" (z.md), agents (2), skills (2): cut after agents gives 3 | 2.
        let g = group_by_proximity(&files);
        assert_eq!(g, vec![1, 1, 2, 2, 1]);
        assert!(g.iter().all(|x| *x == 1 || *x == 2));
    }

    #[test]
    fn plan_takes_direct_only_and_records_originals() -> Result<(), String> {
        let doc = parse_l1(
            "impacts:\n  - changed_file: /r/a.md\n    dependents:\n      - {file: /r/b.md, type: DIRECT, hop_count: 1, reference_pattern: a.md, evidence: '/r/b.md:3:see a.md'}\n      - {file: /r/c.md, type: TRANSITIVE, hop_count: 2, reference_pattern: b.md, evidence: 'c.md:1:b.md'}\n      - {file: /elsewhere/d.md, type: DIRECT, hop_count: 1, reference_pattern: a.md, evidence: ''}\n",
        )?;
        let plan = start_plan(&doc, |p| p.strip_prefix("/r/").map(str::to_string));
        assert_eq!(plan.direct.len(), 1);
        assert_eq!(plan.direct[0].file, "b.md");
        assert_eq!(plan.direct[0].reason.evidence, "b.md:3:see a.md");
        assert_eq!(
            plan.original,
            ["a.md", "b.md"].iter().map(|x| x.to_string()).collect()
        );
        assert_eq!(plan.warnings.len(), 1);
        Ok(())
    }

    #[test]
    fn malformed_documents_are_rejected() {
        assert!(parse_l1("impacts: [").is_err());
        assert!(parse_l1("domain: execution\n").is_err());
        assert!(parse_l1("skill: cascade\nimpacts: []\n").is_err());
        assert!(parse_l1("impacts: []\n").is_ok());
    }
}
