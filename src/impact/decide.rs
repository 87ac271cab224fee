//! The seed's status, confidence and `cascade_recommended` rules as pure functions.
//!
//! Owns the decision tables of boundary 4 and nothing else; the validator re-uses
//! `cascade_rule` so a document and its producer can never disagree. Invariant: the rules are
//! applied in the order of the table below, the first match wins.
//!
//! | # | condition                                   | cascade |
//! |---|---------------------------------------------|---------|
//! | 1 | `status == skipped`                         | false   |
//! | 2 | `status == partial` AND `confidence == low` | true    |
//! | 3 | `impact_candidates == 0`                    | false   |
//! | 4 | at least one DIRECT dependent               | true    |
//! | 5 | TRANSITIVE only                             | false   |

/// What an analysis found out about itself, before any label is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Facts {
    /// Changed files actually analysed (0 means there was nothing to analyse).
    pub analyzed: usize,
    /// A limit cut rows or files, or the live scan ran out of time.
    pub truncated: bool,
    /// The index was missing or stale for a file involved, so a live scan answered instead.
    pub live_scan: bool,
}

/// The labels the seed defines for a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Labels {
    pub status: &'static str,
    pub confidence: &'static str,
    pub degradation_level: &'static str,
}

/// status: skipped when nothing was analysed, partial when truncated, else complete.
/// confidence: low when truncated, medium when a live scan answered, else high.
/// degradation_level: degraded exactly when a live scan answered.
pub fn labels(f: Facts) -> Labels {
    let status = if f.analyzed == 0 {
        "skipped"
    } else if f.truncated {
        "partial"
    } else {
        "complete"
    };
    let confidence = if f.truncated {
        "low"
    } else if f.live_scan {
        "medium"
    } else {
        "high"
    };
    let degradation_level = if f.live_scan { "degraded" } else { "full" };
    Labels {
        status,
        confidence,
        degradation_level,
    }
}

/// Which row of the table decided, so the rationale can say why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    Skipped,
    PartialLow,
    NoCandidates,
    Direct,
    TransitiveOnly,
}

/// The seed's `cascade_recommended` table, first match wins.
pub fn cascade_rule(status: &str, confidence: &str, candidates: u64, any_direct: bool) -> Rule {
    if status == "skipped" {
        Rule::Skipped
    } else if status == "partial" && confidence == "low" {
        Rule::PartialLow
    } else if candidates == 0 {
        Rule::NoCandidates
    } else if any_direct {
        Rule::Direct
    } else {
        Rule::TransitiveOnly
    }
}

impl Rule {
    pub fn recommended(self) -> bool {
        matches!(self, Rule::PartialLow | Rule::Direct)
    }

    /// One sentence for `cascade_rationale`; `direct` counts DIRECT rows.
    pub fn rationale(self, candidates: u64, direct: u64) -> String {
        match self {
            Rule::Skipped => "Analysis was skipped (no changed files to analyse): nothing to cascade from.".into(),
            Rule::PartialLow => "Analysis was truncated (status partial, confidence low): undetected impacts are likely, so cascade for safety.".into(),
            Rule::NoCandidates => "No dependents were found: nothing to cascade.".into(),
            Rule::Direct => format!(
                "{direct} DIRECT dependent row(s) among {candidates} impact candidate(s) reference a changed file and likely need updating."
            ),
            Rule::TransitiveOnly => format!(
                "All {candidates} impact candidate(s) are TRANSITIVE only: informational, not actionable."
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::direct("complete", "high", 3, true, Rule::Direct, true)]
    #[case::transitive_only("complete", "high", 2, false, Rule::TransitiveOnly, false)]
    #[case::no_candidates("complete", "medium", 0, false, Rule::NoCandidates, false)]
    #[case::skipped("skipped", "high", 0, false, Rule::Skipped, false)]
    #[case::skipped_wins_over_candidates("skipped", "low", 4, true, Rule::Skipped, false)]
    #[case::partial_low("partial", "low", 0, false, Rule::PartialLow, true)]
    #[case::partial_low_transitive_only("partial", "low", 5, false, Rule::PartialLow, true)]
    #[case::partial_medium_falls_through(
        "partial",
        "medium",
        2,
        false,
        Rule::TransitiveOnly,
        false
    )]
    #[case::complete_low_falls_through("complete", "low", 0, false, Rule::NoCandidates, false)]
    fn cascade_table(
        #[case] status: &str,
        #[case] confidence: &str,
        #[case] candidates: u64,
        #[case] any_direct: bool,
        #[case] rule: Rule,
        #[case] recommended: bool,
    ) {
        let got = cascade_rule(status, confidence, candidates, any_direct);
        assert_eq!(got, rule);
        assert_eq!(got.recommended(), recommended);
        assert!(!got.rationale(candidates, 1).is_empty());
    }

    #[rstest]
    #[case::complete_fresh(1, false, false, "complete", "high", "full")]
    #[case::complete_live_scan(2, false, true, "complete", "medium", "degraded")]
    #[case::truncated(3, true, false, "partial", "low", "full")]
    #[case::truncated_live_scan(3, true, true, "partial", "low", "degraded")]
    #[case::nothing_analysed(0, false, false, "skipped", "high", "full")]
    #[case::nothing_analysed_no_index(0, false, true, "skipped", "medium", "degraded")]
    fn status_confidence_table(
        #[case] analyzed: usize,
        #[case] truncated: bool,
        #[case] live_scan: bool,
        #[case] status: &str,
        #[case] confidence: &str,
        #[case] degradation: &str,
    ) {
        let l = labels(Facts {
            analyzed,
            truncated,
            live_scan,
        });
        assert_eq!(
            (l.status, l.confidence, l.degradation_level),
            (status, confidence, degradation)
        );
    }
}
