//! From graph edges to the L1 rows: DIRECT (hop 1) and TRANSITIVE (hop 2) dependents per changed
//! file, the per-file limit, hub counts and the notes naming what was cut. Pure: no I/O.
//!
//! Invariants: a changed file is never a dependent; a file DIRECT for any changed file is never
//! TRANSITIVE; each (changed file, dependent) pair is one row, its evidence the first line that
//! matched; rows per changed file never exceed the limit (DIRECT first, TRANSITIVE fill the rest)
//! and anything cut is counted in a note and sets `truncated`; `dependent_count == len(rows)`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::graph::Edge;

use super::decide::{self, Facts};
use super::{Dependent, Hub, Impact, ImpactL1};

/// Hop 1: the DIRECT dependents of each changed file, before hop 2 is known.
#[derive(Debug, Clone)]
pub struct Hop1 {
    changed: Vec<String>,
    changed_set: BTreeSet<String>,
    /// Per changed file (same order as `changed`): kept DIRECT edges (one per dependent).
    kept: Vec<Vec<Edge>>,
    /// Per changed file: DIRECT dependents cut by the limit.
    cut: Vec<Vec<String>>,
    /// Every DIRECT dependent of any changed file, kept or cut.
    all_direct: BTreeSet<String>,
    limit: usize,
    /// Distinct mentioning files per changed file (before the limit).
    mentioned_by: BTreeMap<String, u64>,
}

/// Everything the L1 needs from the graph.
#[derive(Debug, Clone, Default)]
pub struct Assembled {
    pub impacts: Vec<Impact>,
    /// Unique dependent files listed.
    pub candidates: u64,
    /// DIRECT rows listed.
    pub direct_rows: u64,
    pub hubs: Vec<Hub>,
    pub notes: Vec<String>,
    pub truncated: bool,
}

/// Groups `edges` (into the changed files) into DIRECT rows, at most `limit` per changed file.
pub fn hop1(changed: &[String], edges: &[Edge], limit: usize) -> Hop1 {
    let changed_set: BTreeSet<String> = changed.iter().cloned().collect();
    let by_dst = first_edge_per_src(edges, &changed_set);
    let mut kept = Vec::new();
    let mut cut = Vec::new();
    let mut all_direct = BTreeSet::new();
    let mut mentioned_by = BTreeMap::new();
    for c in changed {
        let rows: Vec<Edge> = by_dst.get(c).cloned().unwrap_or_default();
        mentioned_by.insert(c.clone(), distinct_mentioners(edges, c));
        all_direct.extend(rows.iter().map(|e| e.src.clone()));
        let split = rows.len().min(limit);
        cut.push(rows[split..].iter().map(|e| e.src.clone()).collect());
        kept.push(rows[..split].to_vec());
    }
    Hop1 {
        changed: changed.to_vec(),
        changed_set,
        kept,
        cut,
        all_direct,
        limit,
        mentioned_by,
    }
}

impl Hop1 {
    /// The kept DIRECT dependents, whose own dependents are hop 2.
    pub fn intermediates(&self) -> Vec<String> {
        let set: BTreeSet<&String> = self.kept.iter().flatten().map(|e| &e.src).collect();
        set.into_iter().cloned().collect()
    }

    /// Adds hop 2 (`edges` into the intermediates) and builds the rows, hubs and notes.
    /// `root` turns root-relative paths into the absolute paths of the L1.
    pub fn finish(self, edges: &[Edge], root: &Path, hub_threshold: usize) -> Assembled {
        let abs = |rel: &str| root.join(rel).display().to_string();
        // The first edge per (intermediate, dependent), dependents neither changed nor DIRECT.
        let mut excluded = self.changed_set.clone();
        excluded.extend(self.all_direct.iter().cloned());
        let into_mid = first_edge_per_src(edges, &excluded);
        let mut out = Assembled::default();
        let mut candidates = BTreeSet::new();
        for (i, c) in self.changed.iter().enumerate() {
            let kept = &self.kept[i];
            let mut rows: Vec<Dependent> = kept
                .iter()
                .map(|e| Dependent {
                    file: abs(&e.src),
                    kind: "DIRECT".into(),
                    hop_count: 1,
                    reference_pattern: e.name.clone(),
                    evidence: format!("{}:{}:{}", abs(&e.src), e.line, e.text),
                })
                .collect();
            out.direct_rows += rows.len() as u64;
            // Intermediates in path order; for each dependent the first intermediate wins.
            let mut trans: BTreeMap<&str, &Edge> = BTreeMap::new();
            for mid in kept {
                for e in into_mid.get(&mid.src).map(Vec::as_slice).unwrap_or(&[]) {
                    trans.entry(e.src.as_str()).or_insert(e);
                }
            }
            let room = self.limit.saturating_sub(rows.len());
            let trans_cut = trans.len().saturating_sub(room);
            rows.extend(trans.values().take(room).map(|e| Dependent {
                file: abs(&e.src),
                kind: "TRANSITIVE".into(),
                hop_count: 2,
                reference_pattern: format!("{} via {}", e.name, e.dst),
                evidence: format!("{}:{}:{}", abs(&e.src), e.line, e.text),
            }));
            candidates.extend(rows.iter().map(|d| d.file.clone()));
            let cut = &self.cut[i];
            if !cut.is_empty() {
                out.truncated = true;
                out.notes.push(format!(
                    "{c}: {} DIRECT dependent(s) beyond impact.max_direct_per_file = {} not listed: {}",
                    cut.len(),
                    self.limit,
                    name_some(cut)
                ));
            }
            // TRANSITIVE rows over the cap are cut with a note, but the answer stays whole: only
            // a DIRECT row cut makes it partial (every DIRECT dependent needs looking at).
            if trans_cut > 0 {
                out.notes.push(format!(
                    "{c}: {trans_cut} TRANSITIVE dependent(s) beyond impact.max_direct_per_file = {} counted, not listed",
                    self.limit
                ));
            }
            out.impacts.push(super::Impact {
                changed_file: abs(c),
                dependent_count: rows.len() as u64,
                dependents: rows,
            });
        }
        out.candidates = candidates.len() as u64;
        let mut hubs: Vec<(u64, String)> = self
            .mentioned_by
            .iter()
            .map(|(f, n)| (*n, f.clone()))
            .chain(
                self.intermediates()
                    .into_iter()
                    .map(|m| (distinct_mentioners(edges, &m), m)),
            )
            .filter(|(n, _)| hub_threshold > 0 && *n >= hub_threshold as u64)
            .collect();
        hubs.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        hubs.dedup_by(|a, b| a.1 == b.1);
        out.hubs = hubs
            .into_iter()
            .map(|(n, f)| Hub {
                file: abs(&f),
                dependents: n,
            })
            .collect();
        out
    }
}

impl Assembled {
    /// The L1 document: labels and the cascade rule from `decide`; `notes_before` go first.
    /// `truncated` and `live_scan` report what happened outside the rows (a cut of changed
    /// files, a live scan and its budget).
    pub fn into_l1(
        self,
        files_changed: u64,
        truncated: bool,
        live_scan: bool,
        notes_before: Vec<String>,
    ) -> ImpactL1 {
        let l = decide::labels(Facts {
            analyzed: self.impacts.len(),
            truncated: truncated || self.truncated,
            live_scan,
        });
        let rule = decide::cascade_rule(
            l.status,
            l.confidence,
            self.candidates,
            self.direct_rows > 0,
        );
        let mut notes = notes_before;
        notes.extend(self.notes);
        ImpactL1 {
            schema_version: super::SCHEMA_VERSION,
            impact_id: None,
            domain: "execution".into(),
            skill: "impact".into(),
            status: l.status.into(),
            confidence: l.confidence.into(),
            files_changed,
            impact_candidates: self.candidates,
            degradation_level: l.degradation_level.into(),
            impacts: self.impacts,
            cascade_recommended: rule.recommended(),
            cascade_rationale: rule.rationale(self.candidates, self.direct_rows),
            hubs: self.hubs,
            notes,
        }
    }
}

/// Per `dst`, the first edge (lowest line, then name) from each `src`, sources sorted by path;
/// self-references and sources in `excluded` dropped.
fn first_edge_per_src(edges: &[Edge], excluded: &BTreeSet<String>) -> BTreeMap<String, Vec<Edge>> {
    let mut best: BTreeMap<(&str, &str), &Edge> = BTreeMap::new();
    for e in edges {
        if e.src == e.dst || excluded.contains(&e.src) {
            continue;
        }
        let slot = best.entry((e.dst.as_str(), e.src.as_str())).or_insert(e);
        if (e.line, &e.name) < (slot.line, &slot.name) {
            *slot = e;
        }
    }
    let mut out: BTreeMap<String, Vec<Edge>> = BTreeMap::new();
    for ((dst, _), e) in best {
        out.entry(dst.to_string()).or_default().push(e.clone());
    }
    out
}

/// Distinct files other than `dst` itself with an edge into `dst`.
fn distinct_mentioners(edges: &[Edge], dst: &str) -> u64 {
    edges
        .iter()
        .filter(|e| e.dst == dst && e.src != dst)
        .map(|e| e.src.as_str())
        .collect::<BTreeSet<_>>()
        .len() as u64
}

pub use crate::graph::name_some;

#[cfg(test)]
mod tests {
    use super::*;

    fn e(src: &str, dst: &str, name: &str, line: u32) -> Edge {
        Edge {
            kind: "name".into(),
            src: src.into(),
            dst: dst.into(),
            name: name.into(),
            line,
            text: format!("see {name}"),
            resolution: "unique".into(),
        }
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn chain_gives_direct_then_transitive_with_intermediate() {
        // c.md <- b.md <- a.md: b is DIRECT, a TRANSITIVE via b.
        let h = hop1(&s(&["c.md"]), &[e("b.md", "c.md", "c", 3)], 30);
        assert_eq!(h.intermediates(), s(&["b.md"]));
        let a = h.finish(&[e("a.md", "b.md", "b", 7)], Path::new("/r"), 20);
        let rows = &a.impacts[0].dependents;
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].kind, "DIRECT");
        assert_eq!(rows[0].evidence, "/r/b.md:3:see c");
        assert_eq!(rows[1].kind, "TRANSITIVE");
        assert_eq!(rows[1].hop_count, 2);
        assert_eq!(rows[1].reference_pattern, "b via b.md");
        assert_eq!(rows[1].file, "/r/a.md");
        assert_eq!(a.candidates, 2);
        assert_eq!(a.direct_rows, 1);
        assert!(!a.truncated);
    }

    #[test]
    fn changed_and_direct_files_are_never_transitive() {
        let changed = s(&["c.md", "d.md"]);
        let hop1_edges = [
            e("b.md", "c.md", "c", 1),
            e("x.md", "d.md", "d", 1),
            e("d.md", "c.md", "c", 2),
        ];
        let h = hop1(&changed, &hop1_edges, 30);
        // x mentions b (x is DIRECT for d), d mentions b (d is changed), y mentions b.
        let hop2 = [
            e("x.md", "b.md", "b", 1),
            e("d.md", "b.md", "b", 1),
            e("y.md", "b.md", "b", 4),
        ];
        let a = h.finish(&hop2, Path::new("/r"), 20);
        let files: Vec<(&str, &str)> = a.impacts[0]
            .dependents
            .iter()
            .map(|d| (d.file.as_str(), d.kind.as_str()))
            .collect();
        assert_eq!(
            files,
            vec![("/r/b.md", "DIRECT"), ("/r/y.md", "TRANSITIVE")]
        );
    }

    #[test]
    fn evidence_is_the_first_line_per_dependent() {
        let h = hop1(
            &s(&["c.md"]),
            &[e("b.md", "c.md", "c", 9), e("b.md", "c.md", "cc", 2)],
            30,
        );
        let a = h.finish(&[], Path::new("/r"), 20);
        assert_eq!(a.impacts[0].dependents.len(), 1);
        assert_eq!(a.impacts[0].dependents[0].evidence, "/r/b.md:2:see cc");
    }

    #[test]
    fn limit_cuts_direct_then_transitive_and_says_so() {
        let hop1_edges: Vec<Edge> = (0..5)
            .map(|i| e(&format!("d{i}.md"), "c.md", "c", 1))
            .collect();
        let h = hop1(&s(&["c.md"]), &hop1_edges, 3);
        assert_eq!(h.intermediates().len(), 3);
        let a = h.finish(&[e("t.md", "d0.md", "d0", 1)], Path::new("/r"), 20);
        assert!(a.truncated);
        assert_eq!(a.impacts[0].dependent_count, 3);
        assert_eq!(a.impacts[0].dependents.len(), 3);
        assert!(a
            .notes
            .iter()
            .any(|n| n.contains("2 DIRECT") && n.contains("d4.md")));
        assert!(a.notes.iter().any(|n| n.contains("1 TRANSITIVE")));
    }

    #[test]
    fn only_a_direct_cut_makes_the_answer_partial() {
        let hop1_edges: Vec<Edge> = (0..3)
            .map(|i| e(&format!("d{i}.md"), "c.md", "c", 1))
            .collect();
        let h = hop1(&s(&["c.md"]), &hop1_edges, 3);
        let hop2: Vec<Edge> = (0..4)
            .map(|i| e(&format!("t{i}.md"), "d0.md", "d0", 1))
            .collect();
        let a = h.finish(&hop2, Path::new("/r"), 20);
        assert!(!a.truncated, "no DIRECT row was cut");
        assert!(
            a.notes.iter().any(|n| n.contains("4 TRANSITIVE")),
            "{:?}",
            a.notes
        );
    }

    #[test]
    fn hubs_count_distinct_mentioners_before_the_limit() {
        let hop1_edges: Vec<Edge> = (0..4)
            .flat_map(|i| {
                [
                    e(&format!("d{i}.md"), "c.md", "c", 1),
                    e(&format!("d{i}.md"), "c.md", "c", 2),
                ]
            })
            .collect();
        let a = hop1(&s(&["c.md"]), &hop1_edges, 2).finish(&[], Path::new("/r"), 3);
        assert_eq!(
            a.hubs,
            vec![Hub {
                file: "/r/c.md".into(),
                dependents: 4
            }]
        );
        assert_eq!(a.impacts[0].dependent_count, 2);
    }

    proptest::proptest! {
        /// Whatever the graph, the document passes the validator and keeps its invariants.
        #[test]
        fn every_document_validates(
            hop1_raw in proptest::collection::vec((0u8..12, 0u8..4, 1u32..5), 0..40),
            hop2_raw in proptest::collection::vec((0u8..12, 0u8..12, 1u32..5), 0..60),
            limit in 1usize..6,
            cut in proptest::bool::ANY,
            live in proptest::bool::ANY,
        ) {
            let f = |i: u8| format!("f{i}.md");
            let changed: Vec<String> = (0..4).map(|i| format!("c{i}.md")).collect();
            let hop1_edges: Vec<Edge> = hop1_raw.iter().map(|(s, d, l)| e(&f(*s), &changed[*d as usize], "n", *l)).collect();
            let h = hop1(&changed, &hop1_edges, limit);
            let hop2_edges: Vec<Edge> = hop2_raw.iter().map(|(s, d, l)| e(&f(*s), &f(*d), "m", *l)).collect();
            let l1 = h.finish(&hop2_edges, Path::new("/r"), 3).into_l1(4, cut, live, vec![]);
            let text = serde_yaml::to_string(&l1).unwrap_or_default();
            let report = crate::impact::check::validate_str(&text);
            proptest::prop_assert!(report.valid, "{:?}\n{}", report, text);
            proptest::prop_assert!(report.warnings.is_empty(), "{:?}", report);
            for imp in &l1.impacts {
                proptest::prop_assert!(imp.dependents.len() <= limit);
                proptest::prop_assert!(imp.dependents.iter().all(|d| !d.file.contains("/c")));
            }
        }
    }

    #[test]
    fn names_are_capped_in_notes() {
        let items: Vec<String> = (0..12).map(|i| format!("f{i}")).collect();
        assert!(name_some(&items).ends_with("and 2 more"));
    }
}
