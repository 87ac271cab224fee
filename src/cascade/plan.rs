//! The first plan of a cascade: reading the impact L1 (a stored run or a `--from` document) and
//! taking its DIRECT dependents as targets with their reasons. It feeds the state machine
//! (`machine`), which groups the targets (`group`); the machine never reads a plan.
//!
//! Invariant: every target path is root-relative; paths outside the root are dropped with a
//! warning. TRANSITIVE dependents are informational and never become targets.

use std::collections::BTreeSet;

use serde::Deserialize;

use super::machine::{Dependent, Reason};
use crate::impact::ImpactL1;

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

#[cfg(test)]
mod tests {
    use super::*;

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
