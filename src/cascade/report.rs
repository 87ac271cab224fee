//! What the cascade shows: the seed's L1 document (plus `schema_version`, `cascade_id` and, while
//! active, the current iteration's targets) and the L2 markdown log of every iteration.
//!
//! Owns presentation only; every number here is derived from the persisted [`Cascade`].

use std::fmt::Write as _;

use serde::Serialize;

use super::machine::{group_name, Cascade, Edit, Reason, State, MAX_ITERATIONS};
use super::store::Meta;
use super::SCHEMA_VERSION;

/// The seed's execution-cascade L1 (boundary 5), field order as in the seed.
#[derive(Debug, Clone, Serialize)]
pub struct CascadeL1 {
    pub schema_version: u32,
    pub cascade_id: i64,
    pub domain: &'static str,
    pub skill: &'static str,
    /// converged | partial | skipped, or `active` while iterations run.
    pub status: &'static str,
    pub iterations: u32,
    pub max_iterations: u32,
    pub files_updated: u64,
    pub files_skipped: u64,
    pub convergence: bool,
    pub iteration_details: Vec<IterationDetail>,
    pub warnings: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current: Option<Current>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct IterationDetail {
    pub iteration: u32,
    pub implementers_spawned: u32,
    pub files_changed: u64,
    pub new_impacts_detected: u64,
}

/// The running iteration: the implementer instructions and what was recorded so far.
#[derive(Debug, Clone, Serialize)]
pub struct Current {
    pub iteration: u32,
    pub groups: Vec<Group>,
    pub edited_so_far: Vec<String>,
    pub recorded_so_far: Vec<Recorded>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Group {
    pub implementer: String,
    pub targets: Vec<TargetOut>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TargetOut {
    pub file: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub retry: bool,
    /// What changed, the reference pattern to fix and the evidence line.
    pub update_for: Vec<Reason>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Recorded {
    pub file: String,
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub implementer: Option<String>,
}

/// The L1 of `c`; `edits` are the current iteration's edits so far (empty when not active).
pub fn l1(meta: &Meta, c: &Cascade, edits: &[Edit], message: Option<String>) -> CascadeL1 {
    let current = c.current().map(|it| {
        let mut groups: Vec<Group> = Vec::new();
        for t in &it.targets {
            let name = group_name(t.group);
            let target = TargetOut {
                file: t.file.clone(),
                retry: t.retry,
                update_for: t.reasons.clone(),
            };
            match groups.iter_mut().find(|g| g.implementer == name) {
                Some(g) => g.targets.push(target),
                None => groups.push(Group {
                    implementer: name,
                    targets: vec![target],
                }),
            }
        }
        groups.sort_by(|a, b| a.implementer.cmp(&b.implementer));
        let mut edited: Vec<String> = edits.iter().map(|e| e.file.clone()).collect();
        edited.sort();
        edited.dedup();
        Current {
            iteration: it.number,
            groups,
            edited_so_far: edited,
            recorded_so_far: it
                .outcomes
                .iter()
                .map(|o| Recorded {
                    file: o.file.clone(),
                    status: o.status.name(),
                    implementer: o.implementer.clone(),
                })
                .collect(),
        }
    });
    let active = c.current().map(|i| i.number);
    CascadeL1 {
        schema_version: SCHEMA_VERSION,
        cascade_id: meta.id,
        domain: "execution",
        skill: "cascade",
        status: c.state.name(),
        iterations: c.iteration_count(),
        max_iterations: MAX_ITERATIONS,
        files_updated: c.updated.len() as u64,
        files_skipped: c.skipped.len() as u64,
        convergence: c.state == State::Converged,
        iteration_details: c
            .iterations
            .iter()
            .filter(|i| Some(i.number) != active)
            .map(|i| IterationDetail {
                iteration: i.number,
                implementers_spawned: i.implementers,
                files_changed: i.changes.iter().filter(|ch| ch.edited).count() as u64,
                new_impacts_detected: i.new_impacts.len() as u64,
            })
            .collect(),
        warnings: c.warnings.iter().map(|w| w.text.clone()).collect(),
        current,
        message,
    }
}

fn list(items: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let v: Vec<String> = items
        .into_iter()
        .map(|s| format!("`{}`", s.as_ref()))
        .collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The L2 log: every iteration (targets, what was updated and by whom, new impacts), warnings
/// and the final status.
pub fn markdown(meta: &Meta, c: &Cascade, edits: &[Edit]) -> String {
    let doc = l1(meta, c, edits, None);
    let mut s = String::new();
    let _ = writeln!(s, "# Execution Cascade Report\n\n## Summary");
    let _ = writeln!(s, "- Cascade: {}", meta.id);
    let _ = writeln!(
        s,
        "- Session: {}",
        meta.session_id.as_deref().unwrap_or("any (unbound)")
    );
    let _ = writeln!(s, "- Source: {}", meta.source);
    let _ = writeln!(s, "- Status: {}", doc.status);
    let _ = writeln!(
        s,
        "- Iterations: {} of {}",
        doc.iterations, doc.max_iterations
    );
    let _ = writeln!(
        s,
        "- Files updated: {} ({})",
        doc.files_updated,
        list(&c.updated)
    );
    let _ = writeln!(
        s,
        "- Files skipped: {} ({})",
        doc.files_skipped,
        list(&c.skipped)
    );
    let _ = writeln!(s, "- Original impact files: {}", list(&c.original));
    let _ = writeln!(
        s,
        "- Convergence: {}",
        if doc.convergence { "yes" } else { "no" }
    );
    for it in &c.iterations {
        let _ = writeln!(s, "\n## Iteration {}\n", it.number);
        let _ = writeln!(
            s,
            "Targets ({} implementer(s)):\n\n| Implementer | Target | Changed file | Reference pattern | Evidence |\n|---|---|---|---|---|",
            it.implementers
        );
        for t in &it.targets {
            for r in &t.reasons {
                let retry = if t.retry { " (retry)" } else { "" };
                let _ = writeln!(
                    s,
                    "| {} | {}{retry} | {} | {} | {} |",
                    group_name(t.group),
                    cell(&t.file),
                    cell(&r.changed_file),
                    cell(&r.reference_pattern),
                    cell(&r.evidence)
                );
            }
        }
        if it.checked {
            let _ = writeln!(
                s,
                "\nOutcomes (what was updated, by whom):\n\n| File | By | Status | Target |\n|---|---|---|---|"
            );
            for ch in &it.changes {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} |",
                    cell(&ch.file),
                    cell(ch.implementer.as_deref().unwrap_or("unknown")),
                    ch.status.name(),
                    if ch.target { "yes" } else { "no" }
                );
            }
            let _ = writeln!(
                s,
                "\nNew impacts detected: {} ({})",
                it.new_impacts.len(),
                list(&it.new_impacts)
            );
        } else if Some(it.number) == c.current().map(|i| i.number) {
            let _ = writeln!(
                s,
                "\nIn progress: edited so far {}; recorded {}",
                list(doc.current.iter().flat_map(|cur| cur.edited_so_far.iter())),
                list(
                    it.outcomes
                        .iter()
                        .map(|o| format!("{} {}", o.file, o.status.name()))
                )
            );
        } else {
            let _ = writeln!(
                s,
                "\nNot checked (the cascade ended during this iteration)."
            );
        }
    }
    let _ = writeln!(s, "\n## Warnings\n");
    if c.warnings.is_empty() {
        let _ = writeln!(s, "None.");
    }
    for w in &c.warnings {
        let when = if w.iteration == 0 {
            "start".to_string()
        } else {
            format!("iteration {}", w.iteration)
        };
        let _ = writeln!(s, "- ({when}) {}", w.text);
    }
    let _ = writeln!(s, "\n## Final status\n");
    let _ = match c.state {
        State::Active { iteration } => writeln!(
            s,
            "Active: iteration {iteration} of {MAX_ITERATIONS} is running; run `src cascade check` when its implementers are done."
        ),
        State::Converged => writeln!(
            s,
            "Converged after {} iteration(s): no new impacts.",
            doc.iterations
        ),
        State::Partial => writeln!(
            s,
            "Partial: did not converge; review the files named in the warnings."
        ),
        State::Skipped => writeln!(s, "Skipped: nothing to cascade."),
        State::New => writeln!(s, "Not started."),
    };
    s
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::cascade::machine::{Dependent, Observation, Outcome, Status};

    fn dep(file: &str, changed: &str) -> Dependent {
        Dependent::mentioning(file, changed, 3)
    }

    /// A cascade with one failure, a retry, a new impact and a cycle, ended at iteration 2.
    fn sample() -> Result<(Meta, Cascade), crate::cascade::machine::TransitionError> {
        let mut c = Cascade::new();
        let original: BTreeSet<String> = ["x.md", "a/p.md", "b/q.md"].map(String::from).into();
        c.start(
            original,
            vec![dep("a/p.md", "x.md"), dep("b/q.md", "x.md")],
            vec![],
            0,
        )?;
        c.record(Outcome {
            file: "b/q.md".into(),
            status: Status::Failed,
            implementer: Some("implementer-2".into()),
        })?;
        let edit = |f: &str| Edit {
            file: f.into(),
            implementer: Some("implementer (a1)".into()),
        };
        c.check(Observation {
            edits: vec![edit("a/p.md")],
            dependents: Ok(vec![dep("r.md", "a/p.md")]),
            next_watermark: 4,
        })?;
        c.check(Observation {
            edits: vec![edit("b/q.md"), edit("r.md")],
            dependents: Ok(vec![dep("a/p.md", "r.md")]),
            next_watermark: 9,
        })?;
        let meta = Meta {
            id: 7,
            session_id: Some("s1".into()),
            impact_id: None,
            source: "impact.yaml".into(),
            started_at: "t".into(),
            ended_at: None,
        };
        Ok((meta, c))
    }

    #[test]
    fn l1_and_l2_snapshots() -> Result<(), Box<dyn std::error::Error>> {
        let (meta, c) = sample()?;
        assert_eq!(c.state, State::Converged);
        insta::assert_snapshot!(
            "cascade_l1",
            serde_yaml::to_string(&l1(&meta, &c, &[], None))?
        );
        insta::assert_snapshot!("cascade_l2", markdown(&meta, &c, &[]));
        Ok(())
    }
}
