//! The convergence check (seed boundary 5): classify the iteration's targets (updated, retried,
//! skipped), warn about non-target edits, compute the new impacts, detect cycles, and choose the
//! next state. Pure, like the rest of the machine.
//!
//! Invariants: new impacts exclude the iteration's changed files, every file updated in any
//! iteration, the original impact files and skipped files; the iteration counter is checked
//! before a new iteration starts (I8); every state change goes through `Cascade::transition`.

use std::collections::{BTreeMap, BTreeSet};

use super::machine::{
    group_name, merge_targets, Cascade, Change, CheckResult, Dependent, Iteration, Observation,
    State, Status, Target, TransitionError, MAX_ITERATIONS,
};

impl Cascade {
    /// The convergence check of the current iteration (seed boundary 5), then the next state.
    pub fn check(&mut self, obs: Observation) -> Result<CheckResult, TransitionError> {
        let it = self.current_mut("check")?.clone();
        let n = it.number;
        if obs.edits.is_empty() && it.outcomes.is_empty() {
            return Ok(CheckResult::NoProgress);
        }
        let changed = it.changed_files(&obs.edits);
        let latest = it.latest_outcomes();
        let mut last_editor: BTreeMap<&str, Option<String>> = BTreeMap::new();
        for e in &obs.edits {
            last_editor.insert(&e.file, e.implementer.clone());
        }
        let changed_before = self.changed_before(n);
        let failed_before = self.failed_before(n);

        let mut changes = Vec::new();
        let mut retries = Vec::new();
        let mut any_updated = false;
        for t in &it.targets {
            let outcome = latest.get(&t.file);
            let edited = last_editor.contains_key(t.file.as_str());
            let failed = match outcome {
                Some((Status::Failed, _)) => true,
                Some((Status::Complete, _)) => false,
                None => !edited,
            };
            let implementer = outcome
                .and_then(|o| o.1.clone())
                .or_else(|| last_editor.get(t.file.as_str()).cloned().flatten())
                .or_else(|| Some(group_name(t.group)));
            changes.push(Change {
                file: t.file.clone(),
                status: if failed {
                    Status::Failed
                } else {
                    Status::Complete
                },
                implementer,
                target: true,
                edited: changed.contains(&t.file),
            });
            if !failed {
                any_updated = true;
                self.updated.insert(t.file.clone());
                continue;
            }
            if outcome.is_none() {
                self.warn(
                    n,
                    format!(
                        "{} was a target of iteration {n} but was neither edited nor recorded: treated as failed",
                        t.file
                    ),
                );
            }
            if let Some(first) = failed_before.get(&t.file) {
                self.skipped.insert(t.file.clone());
                self.warn(
                    n,
                    format!(
                        "{} failed twice (iterations {first} and {n}): skipped",
                        t.file
                    ),
                );
            } else if n >= MAX_ITERATIONS {
                self.skipped.insert(t.file.clone());
                self.warn(
                    n,
                    format!(
                        "{} failed in iteration {n} and no iteration is left to retry it: skipped",
                        t.file
                    ),
                );
            } else {
                retries.push(Target {
                    retry: true,
                    ..t.clone()
                });
            }
        }
        for file in &changed {
            if it.target(file).is_some() {
                continue;
            }
            let implementer = latest
                .get(file)
                .and_then(|o| o.1.clone())
                .or_else(|| last_editor.get(file.as_str()).cloned().flatten());
            changes.push(Change {
                file: file.clone(),
                status: Status::Complete,
                implementer,
                target: false,
                edited: true,
            });
            self.warn(
                n,
                format!(
                    "{file} was edited in iteration {n} but was not a target: not counted in files_updated (its dependents are checked)"
                ),
            );
        }
        // Outcomes recorded as failed for files that were neither targets nor edited.
        for (file, (status, who)) in &latest {
            if *status == Status::Failed && it.target(file).is_none() && !changed.contains(file) {
                changes.push(Change {
                    file: file.clone(),
                    status: Status::Failed,
                    implementer: who.clone(),
                    target: false,
                    edited: false,
                });
                self.warn(
                    n,
                    format!("{file} was recorded as failed but was not a target of iteration {n}"),
                );
            }
        }

        let new_impacts = match obs.dependents {
            Ok(deps) => self.new_impacts(n, &changed, &changed_before, deps),
            Err(e) => {
                self.warn(
                    n,
                    format!("convergence check failed ({e}): treated as no new impacts"),
                );
                Vec::new()
            }
        };
        let mut next: BTreeMap<String, Target> = BTreeMap::new();
        for t in retries.into_iter().chain(new_impacts.iter().cloned()) {
            if self.updated.contains(&t.file) || self.skipped.contains(&t.file) {
                continue;
            }
            let entry = next.entry(t.file.clone()).or_insert_with(|| Target {
                reasons: Vec::new(),
                ..t.clone()
            });
            for r in t.reasons {
                if !entry.reasons.contains(&r) {
                    entry.reasons.push(r);
                }
            }
        }

        // The order `store` reads them back in: targets first, then by path.
        changes.sort_by(|a, b| b.target.cmp(&a.target).then_with(|| a.file.cmp(&b.file)));
        {
            let cur = self.current_mut("check")?;
            cur.checked = true;
            cur.changes = changes;
            cur.new_impacts = new_impacts.iter().map(|t| t.file.clone()).collect();
        }
        if next.is_empty() {
            if !any_updated && !it.targets.is_empty() {
                self.warn(
                    n,
                    format!("every target of iteration {n} failed: cascade ends partial"),
                );
                self.transition(State::Partial)?;
                return Ok(CheckResult::Partial);
            }
            self.transition(State::Converged)?;
            return Ok(CheckResult::Converged);
        }
        // I8: the counter is checked before a new iteration starts.
        if n >= MAX_ITERATIONS {
            let rest: Vec<&str> = next.keys().map(String::as_str).collect();
            self.warn(
                n,
                format!(
                    "not converged after {MAX_ITERATIONS} iterations; unresolved: {}",
                    rest.join(", ")
                ),
            );
            self.transition(State::Partial)?;
            return Ok(CheckResult::Partial);
        }
        self.transition(State::Active { iteration: n + 1 })?;
        self.iterations.push(Iteration::new(
            n + 1,
            obs.next_watermark,
            next.into_values().collect(),
        ));
        Ok(CheckResult::Next { iteration: n + 1 })
    }

    /// New impacts: dependents of the changed files minus themselves, files updated in any
    /// iteration, the original impact files and skipped files. A dependent already changed in an
    /// earlier iteration is a cycle: marked updated, not re-processed, warned (I4).
    fn new_impacts(
        &mut self,
        n: u32,
        changed: &BTreeSet<String>,
        changed_before: &BTreeMap<String, u32>,
        deps: Vec<Dependent>,
    ) -> Vec<Target> {
        let mut cycles: BTreeMap<String, (u32, String)> = BTreeMap::new();
        let mut found = Vec::new();
        for d in deps {
            if !changed.contains(&d.reason.changed_file)
                || d.file == d.reason.changed_file
                || changed.contains(&d.file)
            {
                continue;
            }
            if let Some(k) = changed_before.get(&d.file) {
                cycles
                    .entry(d.file.clone())
                    .or_insert((*k, d.reason.changed_file.clone()));
                continue;
            }
            if self.updated.contains(&d.file)
                || self.original.contains(&d.file)
                || self.skipped.contains(&d.file)
            {
                continue;
            }
            found.push(d);
        }
        for (file, (k, via)) in cycles {
            self.updated.insert(file.clone());
            self.warn(
                n,
                format!(
                    "cycle: {file} (changed in iteration {k}) is again a dependent of {via}: marked updated, not re-processed (I4)"
                ),
            );
        }
        merge_targets(found, false)
    }

    /// Files changed in iterations before `n`, with the first iteration that changed them.
    fn changed_before(&self, n: u32) -> BTreeMap<String, u32> {
        let mut out = BTreeMap::new();
        for it in self.iterations.iter().filter(|i| i.number < n) {
            for c in it.changes.iter().filter(|c| c.edited) {
                out.entry(c.file.clone()).or_insert(it.number);
            }
        }
        out
    }

    /// Targets that failed in iterations before `n`, with the iteration of the failure.
    fn failed_before(&self, n: u32) -> BTreeMap<String, u32> {
        let mut out = BTreeMap::new();
        for it in self.iterations.iter().filter(|i| i.number < n) {
            for c in it
                .changes
                .iter()
                .filter(|c| c.target && c.status == Status::Failed)
            {
                out.entry(c.file.clone()).or_insert(it.number);
            }
        }
        out
    }
}
