//! The seed's L2 markdown report, rendered from an L1 document.
//!
//! Owns the layout only. Invariant: the headings, summary lines and table columns are the seed's
//! template verbatim; additions (hub callouts, "none" lines, the stored run id) are extra lines
//! that never change a template line. Table cells escape `|` so evidence cannot break a row.

use std::fmt::Write as _;

use super::ImpactL1;

/// The L2 report for `l1`.
pub fn l2(l1: &ImpactL1) -> String {
    l2_within(l1, usize::MAX, None)
}

/// Dependent rows in the L2 tables of `l1` (what `l2_within` can cut).
pub fn table_rows(l1: &ImpactL1) -> usize {
    l1.impacts.iter().map(|i| i.dependents.len()).sum()
}

/// The L2 report with only the first `rows` table rows (in document order), and `marker`, which
/// says what was left out, as the last note. A changed file whose rows are all cut keeps its
/// heading and count.
pub fn l2_within(l1: &ImpactL1, rows: usize, marker: Option<&str>) -> String {
    let mut left = rows;
    let mut s = String::new();
    // Writing to a String cannot fail; the results are ignored for brevity.
    let _ = writeln!(s, "# Execution Impact Analysis Report\n");
    let _ = writeln!(s, "## Summary");
    let _ = writeln!(s, "- Files changed: {}", l1.files_changed);
    let _ = writeln!(s, "- Impact candidates: {}", l1.impact_candidates);
    let _ = writeln!(s, "- Confidence: {}", l1.confidence);
    let _ = writeln!(s, "- Degradation level: {}", l1.degradation_level);
    let yes = if l1.cascade_recommended { "yes" } else { "no" };
    let _ = writeln!(s, "- Cascade recommended: {yes}\n");
    let _ = writeln!(s, "## Per-File Analysis\n");
    if l1.impacts.is_empty() {
        let _ = writeln!(s, "No changed files were analysed.\n");
    }
    for imp in &l1.impacts {
        let _ = writeln!(s, "### {}", imp.changed_file);
        if let Some(h) = l1.hubs.iter().find(|h| h.file == imp.changed_file) {
            let _ = writeln!(
                s,
                "> **Hub:** mentioned by {} files; a change here ripples widely.",
                h.dependents
            );
        }
        let _ = writeln!(s, "**Dependents ({}):**\n", imp.dependent_count);
        if imp.dependents.is_empty() {
            let _ = writeln!(s, "None.\n");
            continue;
        }
        let shown = left.min(imp.dependents.len());
        left -= shown;
        if shown == 0 {
            let _ = writeln!(s, "Rows cut (see the last note).\n");
            continue;
        }
        let _ = writeln!(
            s,
            "| Dependent | Type | Hop | Reference Pattern | Evidence |"
        );
        let _ = writeln!(
            s,
            "|-----------|------|-----|-------------------|----------|"
        );
        for d in &imp.dependents[..shown] {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} |",
                cell(&d.file),
                d.kind,
                d.hop_count,
                cell(&d.reference_pattern),
                cell(&d.evidence)
            );
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s, "## Cascade Recommendation");
    let _ = writeln!(s, "{}\n", l1.cascade_rationale);
    let _ = writeln!(s, "## Notes");
    let _ = writeln!(s, "- Status: {}.", l1.status);
    if let Some(id) = l1.impact_id {
        let _ = writeln!(s, "- Stored as impact run {id} (`src impact show {id}`).");
    }
    for h in &l1.hubs {
        let _ = writeln!(
            s,
            "- Hub: {} is mentioned by {} files.",
            h.file, h.dependents
        );
    }
    for n in &l1.notes {
        let _ = writeln!(s, "- {n}");
    }
    if let Some(m) = marker {
        let _ = writeln!(s, "- {m}");
    }
    s
}

/// A markdown table cell: `|` escaped, line breaks flattened.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impact::{Dependent, Hub, Impact};

    fn doc() -> ImpactL1 {
        ImpactL1 {
            schema_version: 1,
            impact_id: Some(4),
            domain: "execution".into(),
            skill: "impact".into(),
            status: "complete".into(),
            confidence: "high".into(),
            files_changed: 1,
            impact_candidates: 1,
            degradation_level: "full".into(),
            impacts: vec![Impact {
                changed_file: "/r/c.md".into(),
                dependents: vec![Dependent {
                    file: "/r/b.md".into(),
                    kind: "DIRECT".into(),
                    hop_count: 1,
                    reference_pattern: "c".into(),
                    evidence: "/r/b.md:3:a | c".into(),
                }],
                dependent_count: 1,
            }],
            cascade_recommended: true,
            cascade_rationale: "because".into(),
            hubs: vec![Hub {
                file: "/r/c.md".into(),
                dependents: 25,
            }],
            notes: vec!["cut x".into()],
        }
    }

    #[test]
    fn follows_the_template_and_escapes_cells() {
        let md = l2(&doc());
        for line in [
            "# Execution Impact Analysis Report",
            "- Cascade recommended: yes",
            "### /r/c.md",
            "**Dependents (1):**",
            "| Dependent | Type | Hop | Reference Pattern | Evidence |",
            "| /r/b.md | DIRECT | 1 | c | /r/b.md:3:a \\| c |",
            "## Cascade Recommendation\nbecause",
            "- cut x",
            "> **Hub:** mentioned by 25 files",
        ] {
            assert!(md.contains(line), "missing {line:?} in\n{md}");
        }
    }

    #[test]
    fn a_cut_report_keeps_headings_and_ends_with_the_marker() {
        let mut l1 = doc();
        let row = l1.impacts[0].dependents[0].clone();
        l1.impacts[0].dependents = vec![row.clone(), row.clone(), row];
        l1.impacts[0].dependent_count = 3;
        assert_eq!(table_rows(&l1), 3);
        let md = l2_within(&l1, 1, Some("cut: 2 of 3 rows left out"));
        assert_eq!(md.matches("| /r/b.md | DIRECT |").count(), 1, "{md}");
        assert!(md.contains("**Dependents (3):**"), "{md}");
        assert!(
            md.trim_end().ends_with("- cut: 2 of 3 rows left out"),
            "{md}"
        );
        let none = l2_within(&l1, 0, Some("cut"));
        assert!(none.contains("Rows cut (see the last note)."), "{none}");
        assert!(!none.contains("| Dependent |"), "{none}");
        assert_eq!(l2_within(&l1, usize::MAX, None), l2(&l1));
    }
}
