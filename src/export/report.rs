//! The seed's manage-codebase L1 health report: what an export did to the map, or what a check
//! found, as YAML.
//!
//! Owns the report type and the diff of the previous map against the new entries. Invariant: the
//! counts describe the file on disk before and after (entries pruned count as removed).

use std::collections::BTreeMap;

use serde::Serialize;

use super::check::Staleness;
use super::parse::ParsedMap;
use super::Entry;

#[derive(Debug, Clone, Serialize)]
pub struct Health {
    pub domain: &'static str,
    pub skill: &'static str,
    /// `complete`, or `partial` when the map could not be fully produced or read.
    pub status: &'static str,
    /// `full-generation`, `incremental-update` or `staleness-check`.
    pub mode: &'static str,
    pub entries: usize,
    pub stale_entries_removed: usize,
    pub new_entries_added: usize,
    pub entries_updated: usize,
    pub map_path: String,
    /// Mentions of the listed files that could not be attributed (ties between same-named
    /// files): their refd_by lists may be short by that much.
    pub unattributed_mentions: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub staleness_report: Option<Staleness>,
}

impl Health {
    fn new(mode: &'static str, map_path: &str) -> Health {
        Health {
            domain: "homeostasis",
            skill: "manage-codebase",
            status: "complete",
            mode,
            entries: 0,
            stale_entries_removed: 0,
            new_entries_added: 0,
            entries_updated: 0,
            map_path: map_path.to_string(),
            unattributed_mentions: 0,
            staleness_report: None,
        }
    }

    /// After an export: `previous` is the map that was replaced (`None`: none, or unreadable,
    /// which makes this a full generation).
    pub fn after_export(previous: Option<&ParsedMap>, kept: &[Entry], map_path: &str) -> Health {
        let usable = previous.filter(|p| p.problems.is_empty());
        let mode = if usable.is_some() {
            "incremental-update"
        } else {
            "full-generation"
        };
        let mut h = Health::new(mode, map_path);
        h.entries = kept.len();
        let old: BTreeMap<&str, _> = previous
            .map(|p| p.entries.iter().map(|e| (e.path.as_str(), e)).collect())
            .unwrap_or_default();
        let new: BTreeMap<&str, &Entry> = kept.iter().map(|e| (e.path.as_str(), e)).collect();
        h.stale_entries_removed = old.keys().filter(|p| !new.contains_key(*p)).count();
        h.new_entries_added = new.keys().filter(|p| !old.contains_key(*p)).count();
        h.entries_updated = new
            .iter()
            .filter(|(p, e)| {
                old.get(*p).is_some_and(|o| {
                    // A list read back may be capped (`+N more`).
                    let same = |shown: &Option<Vec<String>>, more, full: &[String]| {
                        shown
                            .as_ref()
                            .is_some_and(|s| super::parse::list_matches(s, more, full))
                    };
                    !same(&o.refs, o.refs_more, &e.refs)
                        || !same(&o.refd_by, o.refd_by_more, &e.refd_by)
                        || o.hotspot != Some(e.hotspot)
                        || o.updated.map(|d| d.to_string()) != Some(e.updated.clone())
                })
            })
            .count();
        h
    }

    /// After `--check`: nothing written, the staleness report attached.
    pub fn after_check(
        entries: usize,
        readable: bool,
        staleness: Staleness,
        map_path: &str,
    ) -> Health {
        let mut h = Health::new("staleness-check", map_path);
        h.entries = entries;
        if !readable {
            h.status = "partial";
        }
        h.staleness_report = Some(staleness);
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{parse, Level};

    fn entry(path: &str, refd_by: &[&str]) -> Entry {
        Entry {
            path: path.into(),
            refs: Vec::new(),
            refd_by: refd_by.iter().map(|s| s.to_string()).collect(),
            hotspot: Level::Low,
            updated: "2026-01-01".into(),
        }
    }

    #[test]
    fn diffs_against_the_previous_map() -> anyhow::Result<()> {
        let old = "# M\n\n## a\nrefs:\nrefd_by:\nhotspot: low\nupdated: 2026-01-01\n\n\
                   ## b\nrefs:\nrefd_by:\nhotspot: low\nupdated: 2026-01-01\n\n\
                   ## gone\nrefs:\nrefd_by:\nhotspot: low\nupdated: 2026-01-01\n";
        let prev = parse::parse(old, chrono::NaiveDate::MAX);
        let kept = vec![entry("a", &[]), entry("b", &["c"]), entry("c", &[])];
        let h = Health::after_export(Some(&prev), &kept, "m.md");
        assert_eq!(
            (
                h.mode,
                h.entries,
                h.stale_entries_removed,
                h.new_entries_added,
                h.entries_updated
            ),
            ("incremental-update", 3, 1, 1, 1)
        );
        let yaml = serde_yaml::to_string(&h)?;
        assert!(
            yaml.starts_with("domain: homeostasis\nskill: manage-codebase\n"),
            "{yaml}"
        );
        assert!(!yaml.contains("staleness_report"));
        let fresh = Health::after_export(None, &kept, "m.md");
        assert_eq!(
            (fresh.mode, fresh.new_entries_added),
            ("full-generation", 3)
        );
        Ok(())
    }
}
