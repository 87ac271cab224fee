//! Reads of the reference graph: edges into and out of files, display names; and the rule that
//! turns a mention into an edge (`resolve`).
//!
//! Owns reading `edges`/`files` for other modules; never writes (the index does). Invariant:
//! every returned edge has a real `dst` file; results are sorted, so output is deterministic.

pub mod dependents;
pub mod live;

use std::collections::{HashMap, HashSet};

use anyhow::Result;
use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;

use crate::store::sql::graph as sql;

/// One resolved reference: `src` mentions `dst` by `name` at `line`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Edge {
    pub src: String,
    pub dst: String,
    pub name: String,
    pub line: u32,
    pub text: String,
    /// `unique`, or `nearest` for an ambiguous name resolved to the closest bearer.
    pub resolution: String,
    /// The kind of reference: `path`, `file`, `name`, `import` or `use` (`scan::refs`).
    pub kind: String,
}

fn row_edge(r: &rusqlite::Row<'_>) -> rusqlite::Result<Edge> {
    Ok(Edge {
        src: r.get(0)?,
        dst: r.get(1)?,
        name: r.get(2)?,
        line: r.get(3)?,
        text: r.get(4)?,
        resolution: r.get(5)?,
        kind: r.get(6)?,
    })
}

/// The indexed path of a file that `rel` reaches through a linked folder (`.claude/skills/x/
/// SKILL.md` through `.claude/skills/x -> ../../src/skills/x`): the index holds such a file
/// under its own path only. `None` when `rel` is indexed itself or leads to no indexed file.
pub fn own_path(conn: &Connection, root: &std::path::Path, rel: &str) -> Option<String> {
    let indexed = |p: &str| -> bool { conn.query_row(sql::IS_INDEXED, [p], |_| Ok(())).is_ok() };
    if indexed(rel) {
        return None;
    }
    let real_root = std::fs::canonicalize(root).ok()?;
    let own = crate::scan::walk::own_rel(&real_root, &root.join(rel))?;
    (own != rel && indexed(&own)).then_some(own)
}

/// What a file argument names, decided once for every command (`dependents`, `impact`,
/// `graph`, `query -p file=`): the root-relative path of a file on disk or in the index, else
/// the one indexed file whose path ends with it (`execution-code/SKILL.md`, as the map and the
/// graph print them). `Err` says why not: a directory, nothing by that name, or several files
/// (listed).
pub fn locate_file(conn: &Connection, root: &std::path::Path, rel: &str) -> Result<String, String> {
    let rel = rel.trim_start_matches("./").trim_end_matches('/');
    let abs = root.join(rel);
    if abs.is_dir() {
        return Err(format!("{rel} is a directory, not a file"));
    }
    let indexed = |p: &str| -> bool { conn.query_row(sql::IS_INDEXED, [p], |_| Ok(())).is_ok() };
    if indexed(rel) {
        return Ok(rel.to_string());
    }
    if abs.is_file() {
        return Ok(own_path(conn, root, rel).unwrap_or_else(|| rel.to_string()));
    }
    let suffix = format!(
        "%/{}",
        rel.replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    );
    let hits: Vec<String> = conn
        .prepare_cached(sql::PATHS_LIKE)
        .and_then(|mut st| {
            st.query_map([&suffix], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<String>>>()
        })
        .map_err(|e| format!("looking up {rel}: {e}"))?;
    // LIKE is case-insensitive for ASCII: keep exact suffixes only.
    let hits: Vec<String> = hits
        .into_iter()
        .filter(|p| p.ends_with(&format!("/{rel}")))
        .collect();
    match hits.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(format!(
            "{rel}: no such file (not on disk under {}, not in the index)",
            root.display()
        )),
        many => Err(format!(
            "{rel} is ambiguous: it ends {} indexed paths: {}{}",
            many.len(),
            many.iter().take(10).cloned().collect::<Vec<_>>().join(", "),
            if many.len() > 10 { ", …" } else { "" }
        )),
    }
}

/// Why the index skipped `path` (too large, binary, …), or `None` when it did not.
pub fn skipped_reason(conn: &Connection, path: &str) -> Result<Option<String>> {
    Ok(conn
        .query_row(sql::SKIPPED_REASON, [path], |r| r.get(0))
        .optional()?)
}

/// How many distinct mentions could not be attributed among all of `files` (a tie between two
/// of them counts once). Mentions of a name a file bears that resolved to no file because
/// several files qualified equally (ties), from files that do not bear the name themselves:
/// what an answer about that file's dependents could not attribute (`UNATTRIBUTED_COUNT`).
pub fn unattributed_distinct(conn: &Connection, files: &[String]) -> Result<u64> {
    let mut stmt = conn.prepare_cached(sql::UNATTRIBUTED_MENTIONS)?;
    let mut seen: HashSet<(i64, i64, String)> = HashSet::new();
    for f in files {
        for r in stmt.query_map([f], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))? {
            seen.insert(r?);
        }
    }
    Ok(seen.len() as u64)
}

/// How many mentions of each of `files` could not be attributed (see `unattributed_distinct`);
/// files with none are left out.
pub fn unattributed(conn: &Connection, files: &[String]) -> Result<Vec<(String, u64)>> {
    let mut stmt = conn.prepare_cached(sql::UNATTRIBUTED_COUNT)?;
    let mut out = Vec::new();
    for f in files {
        let n: i64 = stmt.query_row([f], |r| r.get(0))?;
        if n > 0 {
            out.push((f.clone(), n as u64));
        }
    }
    Ok(out)
}

/// How many items a note names before "and N more".
const NAMED_IN_NOTE: usize = 10;

/// "a, b, c" or "a, b, … and N more".
pub fn name_some(items: &[String]) -> String {
    let shown: Vec<&str> = items
        .iter()
        .take(NAMED_IN_NOTE)
        .map(String::as_str)
        .collect();
    let mut s = shown.join(", ");
    if items.len() > NAMED_IN_NOTE {
        s.push_str(&format!(" and {} more", items.len() - NAMED_IN_NOTE));
    }
    s
}

/// Every edge whose `dst` is one of `dsts` (root-relative paths), sorted by (dst, src, line).
pub fn edges_into(conn: &Connection, dsts: &[String]) -> Result<Vec<Edge>> {
    let mut stmt = conn.prepare_cached(sql::EDGES_INTO)?;
    let mut out = Vec::new();
    for d in dsts {
        for e in stmt.query_map([d], row_edge)? {
            out.push(e?);
        }
    }
    out.sort_by(|a, b| (&a.dst, &a.src, a.line, &a.name).cmp(&(&b.dst, &b.src, b.line, &b.name)));
    out.dedup();
    Ok(out)
}

/// Shortest unique path suffix of each indexed file (`execution-code/SKILL.md`, `implementer.md`).
pub struct DisplayNames {
    names: HashMap<String, String>,
}

impl DisplayNames {
    /// Display names unique among `paths`.
    pub fn new<'a>(paths: impl IntoIterator<Item = &'a str>) -> DisplayNames {
        let paths: Vec<&str> = paths.into_iter().collect();
        let mut count: HashMap<&str, usize> = HashMap::new();
        for p in &paths {
            for s in suffixes(p) {
                *count.entry(s).or_default() += 1;
            }
        }
        let names = paths
            .iter()
            .map(|p| {
                let short = suffixes(p).find(|s| count.get(s) == Some(&1)).unwrap_or(p);
                (p.to_string(), short.to_string())
            })
            .collect();
        DisplayNames { names }
    }

    /// Display names of `wanted`, unique among all indexed files and `wanted` itself.
    ///
    /// Two paths share a whole-component suffix only if they share a basename, so one pass over
    /// the indexed paths keeps just the rivals of the wanted ones, and each wanted path narrows
    /// its own rivals suffix by suffix: a stop that names 100 files of 50,000 does not count the
    /// suffixes of all 50,000.
    pub fn load_for<'a>(
        conn: &Connection,
        wanted: impl IntoIterator<Item = &'a str>,
    ) -> Result<DisplayNames> {
        let wanted: HashSet<&str> = wanted.into_iter().collect();
        let mut groups: HashMap<&str, Vec<String>> = HashMap::new();
        for p in &wanted {
            groups.entry(basename(p)).or_default().push(p.to_string());
        }
        let mut stmt = conn.prepare_cached(sql::ALL_PATHS)?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            // Borrowed: only the rivals are copied out of SQLite.
            let path = row.get_ref(0)?.as_str()?;
            if let Some(g) = groups.get_mut(basename(path)) {
                if !wanted.contains(path) {
                    g.push(path.to_string());
                }
            }
        }
        let names = wanted
            .iter()
            .map(|&p| {
                let group = groups.get(basename(p)).map_or(&[][..], Vec::as_slice);
                // Every rival shares the basename; longer suffixes narrow them down.
                let mut rivals: Vec<&str> = Vec::new();
                let mut short = p;
                for (i, s) in suffixes(p).enumerate() {
                    if i == 0 {
                        rivals.extend(group.iter().map(String::as_str).filter(|q| *q != p));
                    } else {
                        rivals.retain(|q| has_suffix(q, s));
                    }
                    if rivals.is_empty() {
                        short = s;
                        break;
                    }
                }
                (p.to_string(), short.to_string())
            })
            .collect();
        Ok(DisplayNames { names })
    }

    /// The display name of `path` (the path itself when unknown).
    pub fn get(&self, path: &str) -> String {
        self.names
            .get(path)
            .cloned()
            .unwrap_or_else(|| path.to_string())
    }
}

/// Whether `suffix` is a whole-component suffix of `path`.
fn has_suffix(path: &str, suffix: &str) -> bool {
    path == suffix
        || path.ends_with(suffix) && path.as_bytes()[path.len() - suffix.len() - 1] == b'/'
}

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Whole-component suffixes of `path`, shortest first, ending with the path itself.
fn suffixes(path: &str) -> impl Iterator<Item = &str> {
    let cuts = path.rmatch_indices('/').map(|(i, _)| &path[i + 1..]);
    cuts.chain(std::iter::once(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_are_shortest_unique_suffixes() {
        let d = DisplayNames::new([
            ".claude/skills/execution-code/SKILL.md",
            ".claude/skills/review/SKILL.md",
            ".claude/agents/implementer.md",
            "a/x/same.md",
            "b/x/same.md",
        ]);
        assert_eq!(
            d.get(".claude/skills/execution-code/SKILL.md"),
            "execution-code/SKILL.md"
        );
        assert_eq!(d.get(".claude/agents/implementer.md"), "implementer.md");
        assert_eq!(d.get("a/x/same.md"), "a/x/same.md");
        assert_eq!(d.get("unknown/file"), "unknown/file");
    }

    /// An in-memory `files` table holding `paths`.
    fn files_table<'a>(paths: impl IntoIterator<Item = &'a str>) -> Result<Connection> {
        let conn = Connection::open_in_memory()?;
        conn.execute_batch("CREATE TABLE files (path TEXT PRIMARY KEY)")?;
        for p in paths {
            conn.execute("INSERT INTO files VALUES (?1)", [p])?;
        }
        Ok(conn)
    }

    #[test]
    fn names_for_some_paths_equal_names_among_all() -> Result<()> {
        let all = [
            ".claude/skills/execution-code/SKILL.md",
            ".claude/skills/review/SKILL.md",
            ".claude/agents/implementer.md",
            "a/x/same.md",
            "b/x/same.md",
            "c/y/same.md",
            "same.md",
            "d/other.md",
        ];
        let conn = files_table(all)?;
        let global = DisplayNames::new(all);
        let wanted = [
            "a/x/same.md",
            "c/y/same.md",
            ".claude/skills/review/SKILL.md",
        ];
        let some = DisplayNames::load_for(&conn, wanted)?;
        for p in wanted {
            assert_eq!(some.get(p), global.get(p), "{p}");
        }
        assert_eq!(some.get("c/y/same.md"), "y/same.md");
        // A wanted path that is no longer indexed (a deleted changed file) still gets a name
        // unique among the indexed ones.
        let gone = DisplayNames::load_for(&conn, ["e/x/same.md"])?;
        assert_eq!(gone.get("e/x/same.md"), "e/x/same.md");
        let gone = DisplayNames::load_for(&conn, ["e/z/implementer.md"])?;
        assert_eq!(gone.get("e/z/implementer.md"), "z/implementer.md");
        Ok(())
    }

    proptest::proptest! {
        #[test]
        fn load_for_agrees_with_counting_every_suffix(
            indexed in proptest::collection::btree_set("[ab]{1,2}(/[ab]{1,2}){0,3}", 0..40),
            extra in proptest::collection::btree_set("[ab]{1,2}(/[ab]{1,2}){0,3}", 0..5),
            pick in proptest::collection::vec(proptest::bool::ANY, 40),
        ) {
            let fail = |e: anyhow::Error| proptest::test_runner::TestCaseError::fail(e.to_string());
            let conn = files_table(indexed.iter().map(String::as_str)).map_err(fail)?;
            let wanted: Vec<&str> = indexed
                .iter()
                .zip(pick.iter().cycle())
                .filter(|(_, k)| **k)
                .map(|(p, _)| p.as_str())
                .chain(extra.iter().map(String::as_str))
                .collect();
            let global = DisplayNames::new(indexed.union(&extra).map(String::as_str));
            let some = DisplayNames::load_for(&conn, wanted.iter().copied()).map_err(fail)?;
            for p in &wanted {
                proptest::prop_assert_eq!(some.get(p), global.get(p), "{}", p);
            }
        }
    }
}
