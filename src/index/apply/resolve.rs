//! Resolution: which file each found mention leads to, against a fixed set of bearers.
//!
//! Owns `Bearers` (names and the files bearing them, read from the store or built early by a
//! full rebuild), the `Resolver` shared by the scanning threads, and re-resolving one name's
//! mentions after its bearers changed. Decisions themselves belong to `scan::refs`.
//! Invariant: a mention gets an edge exactly when `decide` says so against the bearers given.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::Instant;

use anyhow::Result;
use rusqlite::{params, Connection};

use super::{debug, engine_for, MANY_BEARERS};
use crate::index::read::{FileRead, Found};
use crate::scan::matcher::{Engine, FnvMap, Matcher};
use crate::scan::names::NameKind;
use crate::scan::refs::{
    decide_hinted, Decision, Disk, Mention as RefMention, NameHint, OnDisk, Tree,
};
use crate::scan::resolve::Nearest;
use crate::scan::walk::Entry;
use crate::scan::{agent_on_disk, frontmatter_of};
use crate::store::sql::index as sql;

/// Every name with its bearers: `name -> [file id]`, and `file id -> path`.
pub(crate) struct Bearers {
    pub(super) by_name: FnvMap<String, Vec<i64>>,
    pub(super) paths: FnvMap<i64, String>,
}

impl Bearers {
    /// The bearers of just these names.
    pub(super) fn for_names<'a>(
        conn: &Connection,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Result<Bearers> {
        let mut b = Bearers {
            by_name: FnvMap::default(),
            paths: FnvMap::default(),
        };
        let mut stmt = conn.prepare_cached(sql::BEARERS)?;
        for n in names {
            let mut ids = Vec::new();
            for row in stmt.query_map([n], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))? {
                let (id, path) = row?;
                ids.push(id);
                b.paths.insert(id, path);
            }
            b.by_name.insert(n.to_string(), ids);
        }
        Ok(b)
    }

    /// Every name and every file of the store.
    pub(super) fn load(conn: &Connection) -> Result<Bearers> {
        let mut paths: FnvMap<i64, String> = FnvMap::default();
        let mut stmt = conn.prepare_cached(sql::FILE_PATHS)?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            paths.insert(r.get(0)?, r.get(1)?);
        }
        let mut by_name: FnvMap<String, Vec<i64>> = FnvMap::default();
        let mut stmt = conn.prepare_cached(sql::ALL_NAMES)?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            by_name.entry(r.get(0)?).or_default().push(r.get(1)?);
        }
        Ok(Bearers { by_name, paths })
    }
}

/// A much-borne name's bearers as `(id, path)` and what they have in common.
type ManyBearers<'b> = (Vec<(i64, &'b str)>, NameHint);

/// Resolves the mentions of files against fixed bearers; shared by the scanning threads. A name
/// with many bearers gets a `Nearest` index, built once, by the first thread that needs it.
pub(super) struct Resolver<'b> {
    bearers: &'b Bearers,
    nearest: FnvMap<&'b str, OnceLock<Nearest>>,
    /// For names with many bearers: their `(id, path)` list and what they have in common,
    /// built once by the first thread that needs them.
    many: FnvMap<&'b str, OnceLock<ManyBearers<'b>>>,
    tree: Tree,
    /// The disk, each path asked once for this run: imports probe the same few paths (`os`,
    /// `sys`, a package's `__init__.py`) from thousands of files.
    disk: RootDisk<'b>,
}

impl<'b> Resolver<'b> {
    pub(super) fn new(bearers: &'b Bearers, root: &'b Path) -> Resolver<'b> {
        // Both built lazily, for the same names: those borne by many files.
        let much_borne = || {
            bearers
                .by_name
                .iter()
                .filter(|(_, ids)| ids.len() > MANY_BEARERS)
                .map(|(n, _)| n.as_str())
        };
        Resolver {
            bearers,
            nearest: much_borne().map(|n| (n, OnceLock::new())).collect(),
            many: much_borne().map(|n| (n, OnceLock::new())).collect(),
            tree: tree_of(root),
            disk: RootDisk::new(root),
        }
    }

    /// Fills `to` of each mention of a scanned file; other outcomes have none.
    pub(super) fn resolve_outcome(&self, o: &mut FileRead) {
        if let FileRead::Scanned { path, mentions, .. } = o {
            self.resolve_all(path, mentions);
        }
    }

    /// Fills `to` and `weak` of each mention found in the file at `src` (each written form
    /// resolved once).
    fn resolve_all(&self, src: &str, found: &mut [Found]) {
        let mut done: FnvMap<(&str, u64, Option<&str>, bool, bool), Decision> = FnvMap::default();
        let mut out = Vec::with_capacity(found.len());
        for m in found.iter() {
            // (A `from P import …` line's package is decided by the line's names, and an
            // import by whether its line is an import statement: `refs::import_statement`.)
            let statement = m.cue & crate::scan::cue::IMPORT != 0
                && crate::scan::refs::import_statement(&m.text);
            // (A tie or a nearest pick is decided by the line where it holds a URL: such a line
            // is decided alone, `refs::reads_line`.)
            let url = crate::scan::refs::has_url(&m.text);
            // (So is the choice between a thing's own copy and a plugin's by a line that names
            // the plugin.)
            let plugin = m.via.is_none() && self.names_a_bearers_plugin(&m.name, &m.text);
            let key = (
                m.name.as_str(),
                m.cue,
                m.via.as_deref(),
                statement,
                url || plugin,
            );
            let d = match done.get(&key) {
                Some(d)
                    // (A subcommand is decided by the invocation on its line.)
                    if m.cue & (crate::scan::cue::FROM_PACKAGE | crate::scan::cue::ARG) == 0
                        && !((url || plugin) && crate::scan::refs::reads_line(*d)) =>
                {
                    *d
                }
                _ => {
                    let d = self.decide(src, &m.name, m.cue, m.via.as_deref(), &m.text);
                    done.insert(key, d);
                    d
                }
            };
            out.push(d);
        }
        for (m, d) in found.iter_mut().zip(out) {
            set_decision(m, d);
            m.also = match d {
                Decision::Edge(dst, ..) => self.twin(src, &m.name, m.cue, dst),
                _ => None,
            };
        }
    }

    /// `refs::names_a_bearers_plugin` for the bearers of `name`: asked of a name few files
    /// bear, which a file keeps on its own and in plugins.
    fn names_a_bearers_plugin(&self, name: &str, text: &str) -> bool {
        let Some(ids) = self.bearers.by_name.get(name) else {
            return false;
        };
        if ids.len() < 2 || ids.len() > MANY_BEARERS || name.contains('.') {
            return false;
        }
        let paths = ids
            .iter()
            .filter_map(|b| self.bearers.paths.get(b).map(String::as_str));
        crate::scan::refs::names_a_bearers_plugin(text, paths, self)
    }

    /// `refs::twin` of an edge into `dst` by `name`.
    fn twin(&self, src: &str, name: &str, cue: u64, dst: i64) -> Option<i64> {
        let ids = self.bearers.by_name.get(name)?;
        let paths = &self.bearers.paths;
        // (Most edges are into a file that does not declare the name: asked before the
        // bearers are gathered, for names many files bear.)
        if ids.len() < 2
            || name.contains(['.', '/'])
            || !paths
                .get(&dst)
                .is_some_and(|p| crate::scan::refs::declares_name(p, name))
        {
            return None;
        }
        let with_paths: Vec<(i64, &str)> = ids
            .iter()
            .filter_map(|b| paths.get(b).map(|p| (*b, p.as_str())))
            .collect();
        crate::scan::refs::twin(src, name, cue, dst, &with_paths)
    }

    fn decide(&self, src: &str, name: &str, cue: u64, via: Option<&str>, text: &str) -> Decision {
        let Some(ids) = self.bearers.by_name.get(name) else {
            return Decision::Weak;
        };
        let paths = &self.bearers.paths;
        let collect = || -> Vec<(i64, &'b str)> {
            ids.iter()
                .filter_map(|b| paths.get(b).map(|p| (*b, p.as_str())))
                .collect()
        };
        let owned;
        let (with_paths, hint): (&[(i64, &str)], Option<NameHint>) = match self.many.get(name) {
            Some(cell) => {
                let (v, h) = cell.get_or_init(|| {
                    let v = collect();
                    let h = NameHint::of(name, &v, self);
                    (v, h)
                });
                (v.as_slice(), Some(*h))
            }
            None => {
                owned = collect();
                (owned.as_slice(), None)
            }
        };
        let nearest = self
            .nearest
            .get(name)
            .map(|idx| idx.get_or_init(|| Nearest::new(with_paths.iter().copied())));
        let m = RefMention {
            src,
            name,
            cue,
            via,
            text,
        };
        decide_hinted(&m, with_paths, self.tree, self, nearest, hint)
    }
}

impl Disk for Resolver<'_> {
    fn at(&self, p: &str) -> OnDisk {
        self.disk.at(p)
    }

    fn is_agent(&self, p: &str) -> bool {
        self.disk.is_agent(p)
    }

    fn text(&self, p: &str) -> Option<Arc<str>> {
        self.disk.text(p)
    }

    fn plugin_len(&self, dir: &str) -> usize {
        self.disk.plugin_len(dir)
    }
}

/// `probe()` for the path `p`, asked of the disk once per run.
fn once_per_run<T: Copy>(
    known: &Mutex<FnvMap<String, T>>,
    p: &str,
    probe: impl FnOnce() -> T,
) -> T {
    let seen = known.lock().ok().and_then(|m| m.get(p).copied());
    seen.unwrap_or_else(|| {
        let v = probe();
        if let Ok(mut m) = known.lock() {
            m.insert(p.to_string(), v);
        }
        v
    })
}

/// The disk under a root, each path probed once for the life of the value (one re-resolution
/// pass, one live scan): a name borne by many files asks of each bearer for every mention.
pub(crate) struct RootDisk<'a> {
    root: &'a Path,
    probed: Mutex<FnvMap<String, OnDisk>>,
    agents: Mutex<FnvMap<String, bool>>,
    /// The plugin folder above each folder asked about (`Disk::plugin_len`).
    plugins: std::sync::RwLock<FnvMap<String, usize>>,
    texts: Texts,
}

/// Small files' texts read once per run (a package's entry point, which every test of the
/// package imports).
#[derive(Default)]
struct Texts(Mutex<FnvMap<String, Option<Arc<str>>>>);

impl Texts {
    /// Above this size a file is no entry point of re-exports.
    const MAX_BYTES: u64 = 256 * 1024;

    fn read(&self, root: &Path, p: &str) -> Option<Arc<str>> {
        if let Some(t) = self.0.lock().ok().and_then(|m| m.get(p).cloned()) {
            return t;
        }
        let t = (file_exists(root, p) == OnDisk::File)
            .then(|| std::fs::File::open(root.join(p)).ok())
            .flatten()
            .and_then(|f| {
                use std::io::Read;
                let mut buf = String::new();
                f.take(Self::MAX_BYTES).read_to_string(&mut buf).ok()?;
                Some(Arc::<str>::from(buf))
            });
        if let Ok(mut m) = self.0.lock() {
            m.insert(p.to_string(), t.clone());
        }
        t
    }
}

impl<'a> RootDisk<'a> {
    pub(crate) fn new(root: &'a Path) -> RootDisk<'a> {
        RootDisk {
            root,
            probed: Mutex::new(FnvMap::default()),
            agents: Mutex::new(FnvMap::default()),
            plugins: std::sync::RwLock::new(FnvMap::default()),
            texts: Texts::default(),
        }
    }
}

impl Disk for RootDisk<'_> {
    fn at(&self, p: &str) -> OnDisk {
        once_per_run(&self.probed, p, || file_exists(self.root, p))
    }

    fn is_agent(&self, p: &str) -> bool {
        once_per_run(&self.agents, p, || agent_on_disk(self.root, p))
    }

    fn text(&self, p: &str) -> Option<Arc<str>> {
        self.texts.read(self.root, p)
    }

    fn plugin_len(&self, dir: &str) -> usize {
        // Asked for every bearer a writer's mention weighs: read-locked, written once per folder.
        let known = self.plugins.read().ok().and_then(|m| m.get(dir).copied());
        known.unwrap_or_else(|| {
            // A folder's plugin is its own, or its parent's (asked once per folder).
            let n = if dir.is_empty() {
                0
            } else if self.at(&format!("{dir}/.claude-plugin/plugin.json")) == OnDisk::File {
                dir.len()
            } else {
                self.plugin_len(dir.rsplit_once('/').map_or("", |(p, _)| p))
            };
            if let Ok(mut m) = self.plugins.write() {
                m.insert(dir.to_string(), n);
            }
            n
        })
    }
}

/// Records a decision on a found mention.
fn set_decision(m: &mut Found, d: Decision) {
    match d {
        Decision::Edge(id, res, kind) => {
            m.to = Some((id, res, kind));
            m.weak = false;
        }
        Decision::Tie => {
            m.to = None;
            m.weak = false;
        }
        Decision::Weak => {
            m.to = None;
            m.weak = true;
        }
    }
}

/// Whether `root/p` is a regular file inside the root (a written path may lead to a file the
/// index does not hold: out of scope, ignored).
pub(crate) fn file_exists(root: &Path, p: &str) -> OnDisk {
    if p.is_empty() || p.split('/').any(|c| c == "..") {
        return OnDisk::Missing;
    }
    match std::fs::symlink_metadata(root.join(p)) {
        Ok(m) if m.is_file() => OnDisk::File,
        Ok(m) if m.is_dir() => OnDisk::Dir,
        _ => OnDisk::Missing,
    }
}

/// `~/` means the root when the root is the user's home directory; the root is a user's
/// client folder when it keeps the client's settings and folders of things at its top, and no
/// `.claude/` of its own.
pub(crate) fn tree_of(root: &Path) -> Tree {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let canon = |p: &Path| std::fs::canonicalize(p).ok();
    Tree {
        root_is_home: home.is_some_and(|h| canon(&h).is_some() && canon(&h) == canon(root)),
        root_is_client: root_is_client(root),
    }
}

/// Whether the root is a user's client folder kept as a repository (`Tree::root_is_client`):
/// a few stats, read by the index's fingerprint too.
pub(crate) fn root_is_client(root: &Path) -> bool {
    root.join("settings.json").is_file()
        && !root.join(".claude").is_dir()
        && ["agents", "skills", "commands", "hooks"]
            .iter()
            .any(|d| root.join(d).is_dir())
}

/// What a full rebuild builds beside writing files and names: bearers by position in the
/// added list (not yet ids), the paths in that order, and the matcher over every name.
pub(super) struct EarlyBuild {
    by_position: FnvMap<String, Vec<i64>>,
    paths: Vec<String>,
    /// The frontmatter name of each added file, by position (read here, off the writer's path).
    frontmatter: Vec<Option<String>>,
    matcher: Matcher,
    engine: Engine,
}

/// What the early build gives the first pass once ids are known.
pub(super) struct Built {
    pub(super) bearers: Bearers,
    pub(super) matcher: Matcher,
    pub(super) engine: Engine,
    /// The frontmatter name of each added file, in the order of the ids.
    pub(super) frontmatter: Vec<Option<String>>,
}

impl EarlyBuild {
    /// A full rebuild knows every name before writing any: its bearers (by position in
    /// `added`, ids come with the insert) and its matcher are built on another thread while
    /// files and names are written, instead of being read back and built after. The
    /// frontmatter names are read here too, on this one thread: the writer has the other core,
    /// and the reads end before it.
    pub(super) fn spawn(
        added: &[Entry],
        names: &Arc<Vec<Vec<(String, NameKind)>>>,
        root: &Path,
        cfg: &crate::config::Names,
        t0: Instant,
    ) -> JoinHandle<Result<EarlyBuild>> {
        let paths: Vec<String> = added.iter().map(|e| e.path.clone()).collect();
        let bytes: u64 = added.iter().map(|e| e.size).sum();
        let all_names = Arc::clone(names);
        let (root, cfg) = (root.to_path_buf(), cfg.clone());
        std::thread::spawn(move || -> Result<EarlyBuild> {
            let frontmatter: Vec<Option<String>> = paths
                .iter()
                .map(|p| frontmatter_of(&root, p, &cfg))
                .collect();
            debug("frontmatter read (early build)", t0);
            let mut by_name: FnvMap<String, Vec<i64>> = FnvMap::default();
            for (i, (names, fm)) in all_names.iter().zip(&frontmatter).enumerate() {
                for n in names.iter().map(|(n, _)| n).chain(fm) {
                    by_name.entry(n.clone()).or_default().push(i as i64);
                }
            }
            let engine = engine_for(bytes);
            let names: Vec<&str> = by_name.keys().map(String::as_str).collect();
            let matcher = Matcher::new(&names, engine)?.with_conventional(&cfg.generic);
            Ok(EarlyBuild {
                by_position: by_name,
                paths,
                frontmatter,
                matcher,
                engine,
            })
        })
    }

    /// Waits for the build; the positions become the ids just assigned (`ids[i]` is the file
    /// at position `i`).
    pub(super) fn join(handle: JoinHandle<Result<EarlyBuild>>, ids: &[i64]) -> Result<Built> {
        let built = handle
            .join()
            .map_err(|_| anyhow::anyhow!("building the matcher panicked"))??;
        anyhow::ensure!(
            built.paths.len() == ids.len(),
            "the early build saw {} files, {} were written",
            built.paths.len(),
            ids.len()
        );
        let mut by_name = built.by_position;
        for of_name in by_name.values_mut() {
            for x in of_name.iter_mut() {
                *x = ids[*x as usize];
            }
        }
        let paths = built
            .paths
            .into_iter()
            .zip(ids)
            .map(|(p, id)| (*id, p))
            .collect();
        Ok(Built {
            bearers: Bearers { by_name, paths },
            matcher: built.matcher,
            engine: built.engine,
            frontmatter: built.frontmatter,
        })
    }
}

/// Recomputes every edge made by a mention of `name` from `mentions` and the current bearers.
pub(super) fn reresolve_name(
    tx: &Connection,
    name: &str,
    root: &Path,
    disk: &RootDisk<'_>,
) -> Result<()> {
    let mut bearers: Vec<(i64, String)> = Vec::new();
    {
        let mut stmt = tx.prepare_cached(sql::BEARERS)?;
        for r in stmt.query_map([name], |r| Ok((r.get(0)?, r.get(1)?)))? {
            bearers.push(r?);
        }
    }
    // Every mention of the name: the unresolved ones, and the resolved ones, which are edges
    // into a current bearer (an edge into a file that left became a mention when it left).
    type Row = (i64, String, i64, String, u64, Option<String>);
    let row = |r: &rusqlite::Row<'_>| -> rusqlite::Result<Row> {
        Ok((
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            // Stored as SQLite's signed integer (the bits fit in 63).
            r.get::<_, i64>(4)? as u64,
            r.get(5)?,
        ))
    };
    let mut rows: Vec<Row> = tx
        .prepare_cached(sql::MENTIONS_OF_NAME)?
        .query_map([name], row)?
        .collect::<rusqlite::Result<_>>()?;
    {
        let mut stmt = tx.prepare_cached(sql::EDGES_OF_NAME_INTO)?;
        for (id, _) in &bearers {
            for r in stmt.query_map(params![id, name], row)? {
                rows.push(r?);
            }
        }
    }
    let mut del_e = tx.prepare_cached(sql::DELETE_EDGE_AT)?;
    let mut del_m = tx.prepare_cached(sql::DELETE_MENTION_AT)?;
    let mut ins_e = tx.prepare_cached(sql::INSERT_EDGE)?;
    let mut ins_m = tx.prepare_cached(sql::INSERT_MENTION)?;
    let with_paths: Vec<(i64, &str)> = bearers.iter().map(|(id, p)| (*id, p.as_str())).collect();
    let idx = (with_paths.len() > MANY_BEARERS).then(|| Nearest::new(with_paths.iter().copied()));
    // What the bearers have in common, as the pass works it out for a much-borne name.
    let hint = idx.as_ref().map(|_| NameHint::of(name, &with_paths, disk));
    let tree = tree_of(root);
    // Every row goes before any comes back: two written paths of one line are two rows, and
    // one must not meet the other's old edge.
    for (src, _, line, _, _, via) in &rows {
        del_e.execute(params![src, name, line, via])?;
        del_m.execute(params![src, name, line, via])?;
    }
    rows.sort_by(|a, b| (a.0, a.2, &a.5).cmp(&(b.0, b.2, &b.5)));
    // One mention made two edges when its file had a twin (`x 2.md` beside `x.md`): it is
    // decided once.
    rows.dedup_by(|a, b| (a.0, a.2, &a.5) == (b.0, b.2, &b.5));
    for (src, path, line, text, cue, via) in rows {
        let m = RefMention {
            src: &path,
            name,
            cue,
            via: via.as_deref(),
            text: &text,
        };
        match decide_hinted(&m, &with_paths, tree, disk, idx.as_ref(), hint) {
            Decision::Edge(dst, res, kind) => {
                let twin = crate::scan::refs::twin(&path, name, cue, dst, &with_paths);
                for dst in std::iter::once(dst).chain(twin) {
                    ins_e.execute(params![
                        src,
                        dst,
                        name,
                        line,
                        text,
                        res.as_str(),
                        cue as i64,
                        via,
                        kind.as_str()
                    ])?;
                }
            }
            d => {
                ins_m.execute(params![
                    src,
                    name,
                    line,
                    text,
                    cue as i64,
                    via,
                    d == Decision::Weak
                ])?;
            }
        }
    }
    Ok(())
}
