//! The cascade state machine: explicit states, the table of allowed transitions, and the inputs
//! that move it (start, record, check, abort). Pure: no I/O; callers pass in what they observed
//! (edits, dependents), and `store` persists the result.
//!
//! Invariants: every state change goes through [`Cascade::transition`], which rejects anything the
//! table does not allow; the iteration never exceeds [`MAX_ITERATIONS`] and is checked before a new
//! iteration starts (I8); a file is never a target after it was updated (I4).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use super::plan::group_by_proximity;

/// The seed's cap on iterations (boundary 5, invariant I8). Not configurable.
pub const MAX_ITERATIONS: u32 = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Not started yet (never persisted).
    New,
    /// Waiting for the implementers of `iteration`, then for `check`.
    Active {
        iteration: u32,
    },
    Converged,
    Partial,
    Skipped,
}

impl State {
    pub fn name(self) -> &'static str {
        match self {
            State::New => "new",
            State::Active { .. } => "active",
            State::Converged => "converged",
            State::Partial => "partial",
            State::Skipped => "skipped",
        }
    }

    pub fn is_terminal(self) -> bool {
        matches!(self, State::Converged | State::Partial | State::Skipped)
    }

    /// The state stored as `(state, iteration)` in the `cascades` table.
    pub fn from_row(name: &str, iteration: u32) -> Option<State> {
        Some(match name {
            "active" => State::Active { iteration },
            "converged" => State::Converged,
            "partial" => State::Partial,
            "skipped" => State::Skipped,
            _ => return None,
        })
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            State::Active { iteration } => write!(f, "active (iteration {iteration})"),
            other => f.write_str(other.name()),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TransitionError {
    #[error("illegal cascade transition: {from} -> {to}")]
    Illegal { from: State, to: State },
    #[error("iteration {next} would exceed the maximum of {MAX_ITERATIONS} iterations (I8)")]
    TooManyIterations { next: u32 },
    #[error("the cascade is {state}; `{what}` needs an active cascade")]
    NotActive { state: State, what: &'static str },
}

/// The transition table. `New` starts into iteration 1 or is skipped; an active iteration may
/// stay (an outcome recorded), advance by exactly one, converge or end partial; terminal states
/// have no successors.
pub fn check_transition(from: State, to: State) -> Result<(), TransitionError> {
    if let State::Active { iteration } = to {
        if iteration > MAX_ITERATIONS {
            return Err(TransitionError::TooManyIterations { next: iteration });
        }
    }
    let ok = match (from, to) {
        (State::New, State::Active { iteration }) => iteration == 1,
        (State::New, State::Skipped) => true,
        (State::Active { iteration: a }, State::Active { iteration: b }) => b == a || b == a + 1,
        (State::Active { .. }, State::Converged | State::Partial) => true,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(TransitionError::Illegal { from, to })
    }
}

/// Why a target must be updated: the seed's "what changed, what reference pattern to fix,
/// evidence line".
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Reason {
    pub changed_file: String,
    pub reference_pattern: String,
    pub evidence: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub file: String,
    /// 1 or 2: which implementer group it belongs to.
    pub group: u32,
    /// A second attempt after a failure in the previous iteration.
    pub retry: bool,
    pub reasons: Vec<Reason>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Complete,
    Failed,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Complete => "complete",
            Status::Failed => "failed",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "complete" => Some(Status::Complete),
            "failed" => Some(Status::Failed),
            _ => None,
        }
    }
}

/// An outcome recorded explicitly (`src cascade record`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub file: String,
    pub status: Status,
    pub implementer: Option<String>,
}

/// One entry of an iteration's log, frozen by the convergence check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub file: String,
    pub status: Status,
    pub implementer: Option<String>,
    /// The file was a target of this iteration.
    pub target: bool,
    /// The file was changed (recorded edit, or recorded complete), so its dependents were checked.
    pub edited: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Iteration {
    pub number: u32,
    /// Largest events.id when the iteration began; later events belong to it.
    pub watermark: i64,
    pub implementers: u32,
    pub targets: Vec<Target>,
    pub outcomes: Vec<Outcome>,
    pub checked: bool,
    pub changes: Vec<Change>,
    pub new_impacts: Vec<String>,
}

impl Iteration {
    fn new(number: u32, watermark: i64, mut targets: Vec<Target>) -> Iteration {
        targets.sort_by(|a, b| a.file.cmp(&b.file));
        let files: Vec<String> = targets.iter().map(|t| t.file.clone()).collect();
        let groups = group_by_proximity(&files);
        for (t, g) in targets.iter_mut().zip(&groups) {
            t.group = *g;
        }
        let implementers = groups.iter().collect::<BTreeSet<_>>().len() as u32;
        Iteration {
            number,
            watermark,
            implementers,
            targets,
            outcomes: Vec::new(),
            checked: false,
            changes: Vec::new(),
            new_impacts: Vec::new(),
        }
    }

    pub fn target(&self, file: &str) -> Option<&Target> {
        self.targets.iter().find(|t| t.file == file)
    }

    /// Files changed this iteration: recorded edits plus files recorded `complete`.
    pub fn changed_files(&self, edits: &[Edit]) -> BTreeSet<String> {
        let mut out: BTreeSet<String> = edits.iter().map(|e| e.file.clone()).collect();
        for (file, (status, _)) in self.latest_outcomes() {
            if status == Status::Complete {
                out.insert(file);
            }
        }
        out
    }

    /// The last recorded outcome of each file.
    pub fn latest_outcomes(&self) -> BTreeMap<String, (Status, Option<String>)> {
        let mut out = BTreeMap::new();
        for o in &self.outcomes {
            out.insert(o.file.clone(), (o.status, o.implementer.clone()));
        }
        out
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// 0 for warnings raised at start.
    pub iteration: u32,
    pub text: String,
}

/// An edit recorded in the session since the iteration began.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub file: String,
    pub implementer: Option<String>,
}

/// A file that mentions a changed file (`reason.changed_file`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dependent {
    pub file: String,
    pub reason: Reason,
}

/// What the caller observed for a convergence check.
#[derive(Debug, Clone)]
pub struct Observation {
    pub edits: Vec<Edit>,
    /// Dependents of this iteration's changed files, or why they could not be looked up.
    pub dependents: Result<Vec<Dependent>, String>,
    /// Watermark for the next iteration, should one start.
    pub next_watermark: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckResult {
    /// No edits and no outcomes in this iteration: nothing changed.
    NoProgress,
    Next {
        iteration: u32,
    },
    Converged,
    Partial,
}

/// The whole cascade: state plus the seed's state items (iteration_count is in `state` and
/// `iterations`, all_updated_files is `updated`, iteration_log is `iterations`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cascade {
    pub state: State,
    pub original: BTreeSet<String>,
    pub updated: BTreeSet<String>,
    pub skipped: BTreeSet<String>,
    pub iterations: Vec<Iteration>,
    pub warnings: Vec<Warning>,
}

impl Default for Cascade {
    fn default() -> Self {
        Cascade::new()
    }
}

impl Cascade {
    pub fn new() -> Cascade {
        Cascade {
            state: State::New,
            original: BTreeSet::new(),
            updated: BTreeSet::new(),
            skipped: BTreeSet::new(),
            iterations: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The only way the state changes.
    pub fn transition(&mut self, to: State) -> Result<(), TransitionError> {
        check_transition(self.state, to)?;
        self.state = to;
        Ok(())
    }

    pub fn current(&self) -> Option<&Iteration> {
        match self.state {
            State::Active { iteration } => self.iterations.iter().find(|i| i.number == iteration),
            _ => None,
        }
    }

    fn current_mut(&mut self, what: &'static str) -> Result<&mut Iteration, TransitionError> {
        let state = self.state;
        match state {
            State::Active { iteration } => self
                .iterations
                .iter_mut()
                .find(|i| i.number == iteration)
                .ok_or(TransitionError::NotActive { state, what }),
            _ => Err(TransitionError::NotActive { state, what }),
        }
    }

    fn warn(&mut self, iteration: u32, text: String) {
        self.warnings.push(Warning { iteration, text });
    }

    /// Starts from the original impact: `direct` are the DIRECT dependents with their reasons.
    /// No DIRECT dependents ⇒ `skipped`.
    pub fn start(
        &mut self,
        original: BTreeSet<String>,
        direct: Vec<Dependent>,
        warnings: Vec<String>,
        watermark: i64,
    ) -> Result<(), TransitionError> {
        check_transition(self.state, State::Skipped)?;
        for w in warnings {
            self.warn(0, w);
        }
        self.original = original;
        let targets = merge_targets(direct, false);
        if targets.is_empty() {
            self.warn(
                0,
                "no DIRECT dependents in the impact report: cascade skipped".into(),
            );
            return self.transition(State::Skipped);
        }
        self.transition(State::Active { iteration: 1 })?;
        self.iterations.push(Iteration::new(1, watermark, targets));
        Ok(())
    }

    /// Records an explicit outcome in the current iteration; returns whether FILE is a target.
    pub fn record(&mut self, outcome: Outcome) -> Result<bool, TransitionError> {
        let same = self.state;
        check_transition(same, same)?;
        let it = self.current_mut("record")?;
        let is_target = it.target(&outcome.file).is_some();
        it.outcomes.push(outcome);
        self.transition(same)?;
        Ok(is_target)
    }

    /// Ends an active cascade as `partial`, naming the targets left unresolved.
    pub fn abort(&mut self) -> Result<(), TransitionError> {
        let it = self.current_mut("abort")?;
        let n = it.number;
        let open: Vec<String> = it.targets.iter().map(|t| t.file.clone()).collect();
        self.transition(State::Partial)?;
        let open: Vec<String> = open
            .into_iter()
            .filter(|f| !self.updated.contains(f))
            .collect();
        let tail = if open.is_empty() {
            String::new()
        } else {
            format!("; unresolved: {}", open.join(", "))
        };
        self.warn(n, format!("cascade aborted during iteration {n}{tail}"));
        Ok(())
    }

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

    /// Number of iterations started (the L1 `iterations`).
    pub fn iteration_count(&self) -> u32 {
        self.iterations.len() as u32
    }
}

/// The display name of implementer group `g`.
pub fn group_name(g: u32) -> String {
    format!("implementer-{g}")
}

/// One target per file, its reasons merged and sorted, in path order.
fn merge_targets(deps: Vec<Dependent>, retry: bool) -> Vec<Target> {
    let mut by_file: BTreeMap<String, BTreeSet<Reason>> = BTreeMap::new();
    for d in deps {
        by_file.entry(d.file).or_default().insert(d.reason);
    }
    by_file
        .into_iter()
        .map(|(file, reasons)| Target {
            file,
            group: 1,
            retry,
            reasons: reasons.into_iter().collect(),
        })
        .collect()
}

#[cfg(test)]
#[path = "machine_tests.rs"]
mod tests;
