//! The cascade state machine: explicit states, the table of allowed transitions, and the inputs
//! that move it (start, record and abort here; the convergence check in `converge`). Pure: no
//! I/O; callers pass in what they observed (edits, dependents), and `store` persists the result.
//!
//! Invariants: every state change goes through [`Cascade::transition`], which rejects anything the
//! table does not allow; the iteration never exceeds [`MAX_ITERATIONS`] and is checked before a new
//! iteration starts (I8); a file is never a target after it was updated (I4).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use super::group::group_by_proximity;

/// The seed's cap on iterations (boundary 5, invariant I8). Not configurable.
pub const MAX_ITERATIONS: u32 = 3;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum State {
    /// Not started yet (never persisted).
    #[default]
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    pub file: String,
    /// 1 or 2: which implementer group it belongs to.
    pub group: u32,
    /// A second attempt after a failure in the previous iteration.
    pub retry: bool,
    pub reasons: Vec<Reason>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
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
}

/// An outcome recorded explicitly (`src cascade record`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub file: String,
    pub status: Status,
    pub implementer: Option<String>,
}

/// One entry of an iteration's log, frozen by the convergence check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    pub file: String,
    pub status: Status,
    pub implementer: Option<String>,
    /// The file was a target of this iteration.
    pub target: bool,
    /// The file was changed (recorded edit, or recorded complete), so its dependents were checked.
    pub edited: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
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
    pub(super) fn new(number: u32, watermark: i64, mut targets: Vec<Target>) -> Iteration {
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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

#[cfg(test)]
impl Dependent {
    /// A test dependent: `file` mentions `changed` by its path at `line`.
    pub fn mentioning(file: &str, changed: &str, line: u32) -> Dependent {
        Dependent {
            file: file.into(),
            reason: Reason {
                changed_file: changed.into(),
                reference_pattern: changed.into(),
                evidence: format!("{file}:{line}:see {changed}"),
            },
        }
    }
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
///
/// Stored by `store` as JSON (serde); `state` has columns of its own. Unknown fields
/// are ignored and missing ones take their default, so a field added later (with a default)
/// still loads older rows; a change older binaries would misread bumps `store::STATE_VERSION`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cascade {
    #[serde(skip)]
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

    pub(super) fn current_mut(
        &mut self,
        what: &'static str,
    ) -> Result<&mut Iteration, TransitionError> {
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

    pub(super) fn warn(&mut self, iteration: u32, text: String) {
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
pub(super) fn merge_targets(deps: Vec<Dependent>, retry: bool) -> Vec<Target> {
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
