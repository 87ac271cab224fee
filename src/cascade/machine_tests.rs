//! Unit tests of the pure cascade state machine, including the proptest properties (at most 3
//! iterations; no file is a target after it was updated).

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;

use super::*;

fn reason(changed: &str) -> Reason {
    Reason {
        changed_file: changed.into(),
        reference_pattern: changed.into(),
        evidence: format!("x:1:{changed}"),
    }
}

fn dep(file: &str, changed: &str) -> Dependent {
    Dependent {
        file: file.into(),
        reason: reason(changed),
    }
}

fn edit(file: &str) -> Edit {
    Edit {
        file: file.into(),
        implementer: Some("implementer".into()),
    }
}

/// `graph[x]` = files that mention x.
fn obs(edits: &[&str], graph: &BTreeMap<&str, Vec<&str>>) -> Observation {
    let edits: Vec<Edit> = edits.iter().map(|f| edit(f)).collect();
    let deps = edits
        .iter()
        .flat_map(|e| {
            graph
                .get(e.file.as_str())
                .into_iter()
                .flatten()
                .map(|d| dep(d, &e.file))
        })
        .collect();
    Observation {
        edits,
        dependents: Ok(deps),
        next_watermark: 0,
    }
}

fn started(changed: &str, direct: &[&str]) -> Cascade {
    let mut c = Cascade::new();
    let mut original: BTreeSet<String> = direct.iter().map(|f| f.to_string()).collect();
    original.insert(changed.into());
    c.start(
        original,
        direct.iter().map(|f| dep(f, changed)).collect(),
        Vec::new(),
        0,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    c
}

fn warned(c: &Cascade, needle: &str) -> bool {
    c.warnings.iter().any(|w| w.text.contains(needle))
}

#[test]
fn transition_table_rejects_illegal_moves() {
    let a = |n| State::Active { iteration: n };
    assert!(check_transition(State::New, a(1)).is_ok());
    assert!(check_transition(State::New, State::Skipped).is_ok());
    assert!(check_transition(a(1), a(2)).is_ok());
    assert!(check_transition(a(2), a(2)).is_ok());
    assert!(check_transition(a(3), State::Partial).is_ok());
    assert!(check_transition(State::New, a(2)).is_err());
    assert!(check_transition(State::New, State::Converged).is_err());
    assert!(check_transition(a(1), a(3)).is_err());
    assert!(check_transition(a(2), a(1)).is_err());
    assert_eq!(
        check_transition(a(3), a(4)),
        Err(TransitionError::TooManyIterations { next: 4 })
    );
    for t in [State::Converged, State::Partial, State::Skipped] {
        for to in [a(1), State::Converged, State::Partial, State::Skipped] {
            assert!(check_transition(t, to).is_err(), "{t} -> {to}");
        }
    }
}

#[test]
fn convergent_in_one_iteration() {
    let mut c = started("x.md", &["a.md"]);
    assert_eq!(c.state, State::Active { iteration: 1 });
    let r = c.check(obs(&["a.md"], &BTreeMap::new()));
    assert_eq!(r, Ok(CheckResult::Converged));
    assert_eq!(c.iteration_count(), 1);
    assert!(c.updated.contains("a.md"));
    assert!(c
        .record(Outcome {
            file: "a.md".into(),
            status: Status::Complete,
            implementer: None
        })
        .is_err());
}

#[test]
fn no_progress_changes_nothing() {
    let mut c = started("x.md", &["a.md"]);
    let before = c.clone();
    assert_eq!(
        c.check(obs(&[], &BTreeMap::new())),
        Ok(CheckResult::NoProgress)
    );
    assert_eq!(c, before);
}

#[test]
fn no_direct_dependents_is_skipped() {
    let c = started("x.md", &[]);
    assert_eq!(c.state, State::Skipped);
    assert!(warned(&c, "no DIRECT dependents"));
}

#[test]
fn chain_ends_partial_after_three_iterations() {
    // f1 mentions f2, f2 mentions f3, ...; f5 changed, f4 is the DIRECT dependent.
    let graph: BTreeMap<&str, Vec<&str>> = [
        ("f5", vec!["f4"]),
        ("f4", vec!["f3"]),
        ("f3", vec!["f2"]),
        ("f2", vec!["f1"]),
    ]
    .into_iter()
    .collect();
    let mut c = started("f5", &["f4"]);
    assert_eq!(
        c.check(obs(&["f4"], &graph)),
        Ok(CheckResult::Next { iteration: 2 })
    );
    assert_eq!(c.current().map(|i| i.targets[0].file.as_str()), Some("f3"));
    assert_eq!(
        c.check(obs(&["f3"], &graph)),
        Ok(CheckResult::Next { iteration: 3 })
    );
    assert_eq!(c.check(obs(&["f2"], &graph)), Ok(CheckResult::Partial));
    assert_eq!(c.iteration_count(), 3);
    assert!(warned(&c, "unresolved: f1"));
    assert_eq!(c.iterations[2].new_impacts, vec!["f1".to_string()]);
}

#[test]
fn failure_is_retried_once_then_skipped() {
    let mut c = started("x", &["a"]);
    let fail = || Outcome {
        file: "a".into(),
        status: Status::Failed,
        implementer: Some("implementer-1".into()),
    };
    assert_eq!(c.record(fail()), Ok(true));
    assert_eq!(
        c.check(obs(&[], &BTreeMap::new())),
        Ok(CheckResult::Next { iteration: 2 })
    );
    assert!(c.current().is_some_and(|i| i.targets[0].retry));
    let mut retry_ok = c.clone();
    assert_eq!(
        retry_ok.check(obs(&["a"], &BTreeMap::new())),
        Ok(CheckResult::Converged)
    );
    assert!(retry_ok.updated.contains("a") && retry_ok.skipped.is_empty());

    assert_eq!(c.record(fail()), Ok(true));
    assert_eq!(
        c.check(obs(&[], &BTreeMap::new())),
        Ok(CheckResult::Partial)
    );
    assert!(c.skipped.contains("a"));
    assert!(warned(&c, "a failed twice"));
}

#[test]
fn untouched_target_counts_as_failure() {
    let mut c = started("x", &["a", "b"]);
    assert_eq!(
        c.check(obs(&["a"], &BTreeMap::new())),
        Ok(CheckResult::Next { iteration: 2 })
    );
    assert!(warned(
        &c,
        "b was a target of iteration 1 but was neither edited"
    ));
    assert_eq!(c.current().map(|i| i.targets.len()), Some(1));
}

#[test]
fn cycle_is_marked_updated_and_not_reprocessed() {
    // a and b mention each other; a mentions x.
    let graph: BTreeMap<&str, Vec<&str>> = [("x", vec!["a"]), ("a", vec!["b"]), ("b", vec!["a"])]
        .into_iter()
        .collect();
    let mut c = started("x", &["a"]);
    assert_eq!(
        c.check(obs(&["a"], &graph)),
        Ok(CheckResult::Next { iteration: 2 })
    );
    assert_eq!(c.check(obs(&["b"], &graph)), Ok(CheckResult::Converged));
    assert!(warned(&c, "cycle: a (changed in iteration 1)"));
    assert!(c.updated.contains("a") && c.updated.contains("b"));
}

#[test]
fn non_target_edit_is_warned_and_its_dependents_checked() {
    let graph: BTreeMap<&str, Vec<&str>> = [("n", vec!["m"])].into_iter().collect();
    let mut c = started("x", &["a"]);
    assert_eq!(
        c.check(obs(&["a", "n"], &graph)),
        Ok(CheckResult::Next { iteration: 2 })
    );
    assert!(!c.updated.contains("n"));
    assert!(warned(
        &c,
        "n was edited in iteration 1 but was not a target"
    ));
    assert_eq!(c.current().map(|i| i.targets[0].file.as_str()), Some("m"));
}

#[test]
fn lookup_failure_is_no_new_impacts_with_warning() {
    let mut c = started("x", &["a"]);
    let mut o = obs(&["a"], &BTreeMap::new());
    o.dependents = Err("index unavailable".into());
    assert_eq!(c.check(o), Ok(CheckResult::Converged));
    assert!(warned(&c, "convergence check failed (index unavailable)"));
}

#[test]
fn abort_ends_partial() {
    let mut c = started("x", &["a"]);
    assert_eq!(c.abort(), Ok(()));
    assert_eq!(c.state, State::Partial);
    assert!(warned(&c, "aborted during iteration 1; unresolved: a"));
    assert!(c.abort().is_err());
}

#[derive(Debug, Clone)]
enum Op {
    Edit(usize),
    Record(usize, bool),
    Check,
    Abort,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..8usize).prop_map(Op::Edit),
        2 => (0..8usize, any::<bool>()).prop_map(|(f, ok)| Op::Record(f, ok)),
        3 => Just(Op::Check),
        1 => Just(Op::Abort),
    ]
}

proptest! {
    #[test]
    fn iterations_bounded_and_updated_files_never_retargeted(
        edges in proptest::collection::vec((0..8usize, 0..8usize), 0..24),
        direct in proptest::collection::btree_set(1..8usize, 0..4),
        ops in proptest::collection::vec(op(), 0..40),
    ) {
        let name = |i: usize| format!("f{i}");
        let mut graph: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (from, to) in edges {
            // `from` mentions `to`.
            graph.entry(name(to)).or_default().push(name(from));
        }
        let mut c = Cascade::new();
        let mut original: BTreeSet<String> = direct.iter().map(|i| name(*i)).collect();
        original.insert(name(0));
        c.start(original, direct.iter().map(|i| dep(&name(*i), "f0")).collect(), Vec::new(), 0)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut pending: Vec<Edit> = Vec::new();
        for op in ops {
            let before = c.clone();
            let updated_before = c.updated.clone();
            let res = match op {
                Op::Edit(f) => {
                    pending.push(edit(&name(f)));
                    Ok(())
                }
                Op::Record(f, ok) => c
                    .record(Outcome {
                        file: name(f),
                        status: if ok { Status::Complete } else { Status::Failed },
                        implementer: None,
                    })
                    .map(|_| ()),
                Op::Abort => c.abort(),
                Op::Check => {
                    let changed: Vec<String> = c
                        .current()
                        .map(|it| it.changed_files(&pending).into_iter().collect())
                        .unwrap_or_default();
                    let deps = changed
                        .iter()
                        .flat_map(|f| {
                            graph.get(f).into_iter().flatten().map(move |d| dep(d, f))
                        })
                        .collect();
                    let r = c.check(Observation {
                        edits: std::mem::take(&mut pending),
                        dependents: Ok(deps),
                        next_watermark: 0,
                    });
                    r.map(|_| ())
                }
            };
            if res.is_err() {
                // A rejected input leaves the cascade exactly as it was.
                prop_assert_eq!(&c, &before);
                prop_assert!(before.state.is_terminal());
            }
            prop_assert!(c.iteration_count() <= MAX_ITERATIONS);
            if let State::Active { iteration } = c.state {
                prop_assert!(iteration <= MAX_ITERATIONS);
            }
            // A newly started iteration never targets a file updated before it began.
            if c.iterations.len() > before.iterations.len() {
                if let Some(it) = c.iterations.last() {
                    for t in &it.targets {
                        prop_assert!(!updated_before.contains(&t.file), "{} retargeted", t.file);
                        prop_assert!(!c.updated.contains(&t.file), "{} retargeted", t.file);
                    }
                    prop_assert!(it.implementers >= 1 && it.implementers <= 2);
                }
            }
        }
    }
}
