//! What every export view reads from the database: files, their references, recent sessions and
//! the scan dates, loaded once into memory and turned into map entries.
//!
//! Owns the SQL reads of `files`, `edges`, `events` and `meta` for exports and the hotspot rule.
//! Invariant: refs and refd_by are two views of one edge list, so they are bidirectional by
//! construction; every list is sorted, so the same database gives the same entries.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use anyhow::{Context, Result};
use rusqlite::Connection;

use super::{Entry, Level};
use crate::config::Hotspot;
use crate::graph::DisplayNames;
use crate::store::sql::export as sql;

/// An indexed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    pub path: String,
    /// `YYYY-MM-DD` of `content_changed_at`.
    pub updated: String,
}

/// The reference graph as the exports see it.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    /// Sorted by path.
    pub files: Vec<File>,
    /// (src, dst) → the names by which src mentions dst, sorted. Never src == dst.
    pub links: BTreeMap<(usize, usize), BTreeSet<String>>,
    /// Paths edited in the most recent sessions.
    pub recent: BTreeSet<String>,
    pub last_full_scan: Option<String>,
    /// Display name of each file (index into `files`).
    pub names: Vec<String>,
}

impl Graph {
    /// Reads the graph; `recent_sessions` is how many latest sessions count as "recent".
    pub fn load(conn: &Connection, recent_sessions: usize) -> Result<Graph> {
        let rows: Vec<(i64, String, String)> = query(conn, sql::FILES, [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .context("reading indexed files")?;
        let pos: HashMap<i64, usize> = rows.iter().enumerate().map(|(i, r)| (r.0, i)).collect();
        let mut links: BTreeMap<(usize, usize), BTreeSet<String>> = BTreeMap::new();
        let mut stmt = conn.prepare(sql::EDGES).context("reading edges")?;
        let mut it = stmt.query([]).context("reading edges")?;
        while let Some(r) = it.next().context("reading edges")? {
            let (s, d): (i64, i64) = (r.get(0)?, r.get(1)?);
            if let (Some(&s), Some(&d)) = (pos.get(&s), pos.get(&d)) {
                links.entry((s, d)).or_default().insert(r.get(2)?);
            }
        }
        let recent: Vec<String> = query(conn, sql::RECENT_PATHS, [recent_sessions as i64], |r| {
            r.get(0)
        })
        .context("reading recent sessions")?;
        let files = rows.into_iter().map(|(_, p, c)| (p, c)).collect();
        let mut g = Graph::assemble(files, links, recent.into_iter().collect());
        g.last_full_scan = crate::store::meta_get(conn, crate::index::META_LAST_FULL)?;
        Ok(g)
    }

    /// Builds a graph from plain rows: (path, content_changed_at) and (src, dst, name).
    /// Edges naming unknown files are dropped.
    #[cfg(test)]
    pub fn from_parts(
        mut files: Vec<(String, String)>,
        edges: Vec<(String, String, String)>,
        recent: BTreeSet<String>,
    ) -> Graph {
        files.sort();
        files.dedup_by(|a, b| a.0 == b.0);
        let index: HashMap<&str, usize> = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.0.as_str(), i))
            .collect();
        let mut links: BTreeMap<(usize, usize), BTreeSet<String>> = BTreeMap::new();
        for (s, d, name) in &edges {
            if let (Some(&s), Some(&d)) = (index.get(s.as_str()), index.get(d.as_str())) {
                if s != d {
                    links.entry((s, d)).or_default().insert(name.clone());
                }
            }
        }
        Graph::assemble(files, links, recent)
    }

    /// `files` sorted by path; `links` indexes into it.
    fn assemble(
        files: Vec<(String, String)>,
        links: BTreeMap<(usize, usize), BTreeSet<String>>,
        recent: BTreeSet<String>,
    ) -> Graph {
        let display = DisplayNames::new(files.iter().map(|f| f.0.as_str()));
        let names = files.iter().map(|f| display.get(&f.0)).collect();
        Graph {
            files: files
                .into_iter()
                .map(|(path, changed)| File {
                    path,
                    updated: date_of(&changed),
                })
                .collect(),
            links,
            recent,
            last_full_scan: None,
            names,
        }
    }

    pub fn index_of(&self, path: &str) -> Option<usize> {
        self.files
            .binary_search_by(|f| f.path.as_str().cmp(path))
            .ok()
    }

    /// Hotspot of each file among `selected` (refd_by counted within the selection).
    pub fn levels(&self, selected: &[bool], cfg: &Hotspot) -> Vec<Level> {
        let mut count = vec![0usize; self.files.len()];
        for &(s, d) in self.links.keys() {
            if selected[s] && selected[d] {
                count[d] += 1;
            }
        }
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let by_count = Level::from_count(count[i], cfg);
                if self.recent.contains(&f.path) {
                    Level::High
                } else {
                    by_count
                }
            })
            .collect()
    }
}

/// Which files a map lists: those under `prefix` (a plain string prefix), never `exclude` (the
/// map file itself).
pub fn selection(g: &Graph, prefix: Option<&str>, exclude: Option<&str>) -> Vec<bool> {
    g.files
        .iter()
        .map(|f| prefix.is_none_or(|p| f.path.starts_with(p)) && Some(f.path.as_str()) != exclude)
        .collect()
}

/// The map entries of the selected files, sorted by path. References to files outside the
/// selection are left out so that every listed name has its own entry.
pub fn entries(g: &Graph, selected: &[bool], cfg: &Hotspot) -> Vec<Entry> {
    let levels = g.levels(selected, cfg);
    let mut refs: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); g.files.len()];
    let mut refd_by: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); g.files.len()];
    for &(s, d) in g.links.keys() {
        if selected[s] && selected[d] {
            refs[s].insert(&g.names[d]);
            refd_by[d].insert(&g.names[s]);
        }
    }
    let own = |set: &BTreeSet<&str>| set.iter().map(|s| s.to_string()).collect();
    g.files
        .iter()
        .enumerate()
        .filter(|(i, _)| selected[*i])
        .map(|(i, f)| Entry {
            path: f.path.clone(),
            refs: own(&refs[i]),
            refd_by: own(&refd_by[i]),
            hotspot: levels[i],
            updated: f.updated.clone(),
        })
        .collect()
}

/// The newest `updated` date among the selected files: the last day the index saw content in
/// the map's scope change. The map's "Last incremental" line uses it instead of the time of the
/// last index run, so re-running an export on another day does not churn the file.
pub fn last_change(g: &Graph, selected: &[bool]) -> Option<String> {
    g.files
        .iter()
        .zip(selected)
        .filter(|(_, s)| **s)
        .map(|(f, _)| f.updated.clone())
        .max()
}

/// `YYYY-MM-DD` of an ISO timestamp as stored (its own offset's date, so it never moves).
pub fn date_of(ts: &str) -> String {
    ts.get(..10).unwrap_or(ts).to_string()
}

fn query<T, P: rusqlite::Params>(
    conn: &Connection,
    sql: &str,
    params: P,
    f: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>> {
    let mut stmt = conn.prepare(sql)?;
    let rows = stmt.query_map(params, f)?;
    Ok(rows.collect::<rusqlite::Result<Vec<T>>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> String {
        v.to_string()
    }

    #[test]
    fn display_names_are_the_graph_modules() {
        let paths = [
            s(".claude/CLAUDE.md"),
            s(".claude/agents/implementer.md"),
            s(".claude/skills/a/SKILL.md"),
            s(".claude/skills/b/SKILL.md"),
            s("CLAUDE.md"),
        ];
        let g = Graph::from_parts(
            paths.iter().map(|p| (p.clone(), s("2026-01-01"))).collect(),
            Vec::new(),
            BTreeSet::new(),
        );
        assert_eq!(
            g.names,
            vec![
                s(".claude/CLAUDE.md"),
                s("implementer.md"),
                s("a/SKILL.md"),
                s("b/SKILL.md"),
                s("CLAUDE.md"),
            ]
        );
    }

    #[test]
    fn entries_are_bidirectional_and_exclude_the_map() {
        let files = vec![
            (s("a.md"), s("2026-01-02T10:00:00+00:00")),
            (s("b.md"), s("2026-01-03T10:00:00+00:00")),
            (s("map.md"), s("2026-01-03T10:00:00+00:00")),
        ];
        let edges = vec![
            (s("a.md"), s("b.md"), s("b")),
            (s("map.md"), s("a.md"), s("a")),
            (s("a.md"), s("a.md"), s("a")),
        ];
        let g = Graph::from_parts(files, edges, BTreeSet::new());
        let sel = selection(&g, None, Some("map.md"));
        let e = entries(&g, &sel, &Hotspot::default());
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].refs, vec![s("b.md")]);
        assert!(e[0].refd_by.is_empty(), "the map's own edge must not count");
        assert_eq!(e[1].refd_by, vec![s("a.md")]);
        assert_eq!(e[1].updated, "2026-01-03");
    }

    #[test]
    fn hotspot_counts_and_recency() {
        let cfg = Hotspot {
            high_refd_by: 3,
            medium_refd_by: 2,
            recent_sessions: 3,
        };
        let mut files = vec![
            (s("hub.md"), s("2026-01-01")),
            (s("new.md"), s("2026-01-01")),
        ];
        let mut edges = Vec::new();
        for i in 0..3 {
            files.push((format!("r{i}.md"), s("2026-01-01")));
            edges.push((format!("r{i}.md"), s("hub.md"), s("hub")));
        }
        let g = Graph::from_parts(files, edges, [s("new.md")].into_iter().collect());
        let sel = selection(&g, None, None);
        let e = entries(&g, &sel, &cfg);
        let level = |p: &str| e.iter().find(|x| x.path == p).map(|x| x.hotspot);
        assert_eq!(level("hub.md"), Some(Level::High));
        assert_eq!(level("new.md"), Some(Level::High));
        assert_eq!(level("r0.md"), Some(Level::Low));
        // Within a narrower selection the hub has only two referrers left.
        let sel = selection(&g, Some("r0"), None);
        assert_eq!(entries(&g, &sel, &cfg).len(), 1);
    }

    #[test]
    fn loads_from_the_database() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        crate::store::migrate(&mut conn, std::path::Path::new(":memory:"))?;
        conn.execute_batch(
            "INSERT INTO files VALUES (1,'a.md',1,1,'h','2026-01-01T00:00:00Z','2026-01-01T00:00:00Z');
             INSERT INTO files VALUES (2,'b.md',1,1,'h','2026-01-01T00:00:00Z','2026-01-05T00:00:00Z');
             INSERT INTO edges(src_id, dst_id, name, line, text, resolution) VALUES (1,2,'b',3,'see b','unique');
             INSERT INTO events(session_id,tool_name,abs_path,path,ts) VALUES
               ('s1','Edit','/r/a.md','a.md','2026-01-01T00:00:00Z'),
               ('s2','Edit','/r/b.md','b.md','2026-01-02T00:00:00Z');
             INSERT INTO meta VALUES ('last_full_scan','2026-01-04T09:00:00+00:00');",
        )?;
        let g = Graph::load(&conn, 1)?;
        assert_eq!(g.files.len(), 2);
        assert_eq!(g.links.len(), 1);
        assert_eq!(g.recent, [s("b.md")].into_iter().collect());
        assert_eq!(
            g.last_full_scan.as_deref().map(date_of),
            Some(s("2026-01-04"))
        );
        Ok(())
    }
}
