//! Resolution: which file a mention of a name points at, given every file bearing that name.
//!
//! Owns the ambiguity rule only (pure function, no I/O). Invariant: never a fan-out; a file never
//! references itself; a unique bearer gives `unique`; among several bearers the one whose
//! directory shares the longest common prefix (whole components) with the mentioning file wins as
//! `nearest`, the project's own over a vendored copy when equally near; a tie gives no edge (the
//! mention stays, visible as ambiguous).

use std::collections::{HashMap, HashSet};

/// How an edge was resolved (the `edges.resolution` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    Unique,
    Nearest,
}

impl Resolution {
    pub fn as_str(self) -> &'static str {
        match self {
            Resolution::Unique => "unique",
            Resolution::Nearest => "nearest",
        }
    }
}

/// The directory components two root-relative file paths share, from the root.
pub fn common_dirs(a: &str, b: &str) -> usize {
    let (da, db) = (dir_of(a), dir_of(b));
    if da.is_empty() || db.is_empty() {
        return 0;
    }
    da.split('/')
        .zip(db.split('/'))
        .take_while(|(x, y)| x == y)
        .count()
}

/// `common_dirs`, but a vendored container both lie under in different projects
/// (`agents/external/wshobson/` and `agents/external/lst97/`) is no folder they share: each
/// project kept there is as far from another as from the tree's own files.
fn shared_dirs(a: &str, b: &str) -> usize {
    let n = common_dirs(a, b);
    let deeper = |p: &str| dir_of(p).split('/').count() > n;
    let last = n.checked_sub(1).and_then(|i| dir_of(a).split('/').nth(i));
    if last.is_some_and(|c| VENDORED.contains(&c)) && deeper(a) && deeper(b) {
        n - 1
    } else {
        n
    }
}

/// Whether the folder `p` is a vendored container (`…/external`).
fn is_vendor_container(p: &str) -> bool {
    p.rsplit('/').next().is_some_and(|c| VENDORED.contains(&c))
}

/// Whether a file name is a desktop's duplicate of another: its stem ends in a space and a
/// number, `copy`, or a number in parentheses (`x 2.md`, `x copy.md`, `x (1).md`), as Finder
/// and file managers name a copy made beside the original.
fn desktop_duplicate(base: &str) -> bool {
    let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
    let Some((head, tail)) = stem.rsplit_once(' ') else {
        return false;
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    !head.trim().is_empty()
        && (digits(tail)
            || tail.eq_ignore_ascii_case("copy")
            || tail
                .strip_prefix('(')
                .and_then(|t| t.strip_suffix(')'))
                .is_some_and(digits))
}

/// Folders that hold another project's files kept in this one (`agents/external/wshobson/`).
const VENDORED: [&str; 6] = [
    "external",
    "vendor",
    "vendored",
    "third_party",
    "third-party",
    "node_modules",
];

/// Whether the file at `path` lies in a vendored folder: a copy of someone else's, which the
/// project's own file of the same name outranks when they are equally near. So does a copy
/// kept as a backup (`_backup/`, `backup-pre-x/`, `x.backup/`), in an archive or for provenance
/// (`provenance/original-research/`), or a desktop's duplicate of a file beside it
/// (`cs-partnerships 2.md`, `notes copy.md`, `plan (1).md`): the live file is the one meant.
pub fn vendored(path: &str) -> bool {
    desktop_duplicate(path.rsplit('/').next().unwrap_or(path))
        || dir_of(path).split('/').any(|c| {
            VENDORED.contains(&c)
                || c.as_bytes()
                    .windows(6)
                    .any(|w| w.eq_ignore_ascii_case(b"backup"))
                || matches!(
                    c.to_ascii_lowercase().as_str(),
                    "archive" | "archived" | "_archive" | "provenance"
                )
        })
}

/// Whether the tests among `paths` yield to the rest: some are tests and some are not. A test
/// is named after what it tests (`test/unit/core/AxiosHeaders.js` after
/// `lib/core/AxiosHeaders.js`), as a fixture copies it: the name means the tested file,
/// however near the test lies.
fn tests_yield<'a>(paths: impl Iterator<Item = &'a str>) -> bool {
    let (mut tests, mut others) = (false, false);
    for p in paths {
        if is_test(p) {
            tests = true;
        } else {
            others = true;
        }
        if tests && others {
            return true;
        }
    }
    false
}

/// Whether the file at `path` is a test or a test's fixture: in a folder of tests
/// (`test/`, `tests/`, `__tests__/`, `spec/`) or named as one (`test_x.py`, `x_test.go`,
/// `x.test.ts`, `x.spec.js`, `conftest.py`).
pub fn is_test(path: &str) -> bool {
    // (Asked of every bearer a mention is decided among: no allocation.)
    let in_tests = dir_of(path).split('/').any(|c| {
        ["test", "tests", "__tests__", "spec", "specs"]
            .iter()
            .any(|t| c.eq_ignore_ascii_case(t))
    });
    let base = path.rsplit('/').next().unwrap_or(path);
    let stem = base.split('.').next().unwrap_or(base);
    in_tests
        || base == "conftest.py"
        || stem.starts_with("test_")
        || stem.ends_with("_test")
        || base.contains(".test.")
        || base.contains(".spec.")
}

/// The hidden folders where coding clients keep their agents, commands and skills: a
/// repository serving several clients keeps a copy of each for each.
const CLIENT_FOLDERS: [&str; 12] = [
    ".claude",
    ".gemini",
    ".codex",
    ".cursor",
    ".opencode",
    ".windsurf",
    ".agents",
    ".ai",
    ".kiro",
    ".roo",
    ".qwen",
    ".github",
];

/// The client folder a path lies in (its first component that is one), if any.
fn client_folder(path: &str) -> Option<&str> {
    dir_of(path).split('/').find(|c| CLIENT_FOLDERS.contains(c))
}

/// Whose words a file holds: the client whose folder it lies in, Gemini's for `GEMINI.md`;
/// else Claude Code's (the client `src` serves: its `CLAUDE.md`, a project's README and a
/// client-neutral `.ai/` source speak to it). `AGENTS.md` speaks to many clients: none.
fn writer_client(src: &str) -> Option<&str> {
    match client_folder(src) {
        Some(".ai") | None => {
            let base = src.rsplit('/').next().unwrap_or(src);
            if base.eq_ignore_ascii_case("GEMINI.md") {
                Some(".gemini")
            } else if base.eq_ignore_ascii_case("AGENTS.md") {
                None
            } else {
                Some(".claude")
            }
        }
        c => c,
    }
}

/// A tie between copies for several clients (`.claude/commands/review.md`,
/// `.gemini/commands/review.md`), decided for the client the writer speaks to: the nearest of
/// the bearers outside other clients' folders. `None` when that leaves a tie too.
pub fn by_client<'a, I>(src: &str, bearers: I) -> Option<(i64, Resolution)>
where
    I: IntoIterator<Item = (i64, &'a str)>,
{
    let client = writer_client(src)?;
    let all: Vec<(i64, &str)> = bearers.into_iter().collect();
    let mine: Vec<(i64, &str)> = all
        .iter()
        .copied()
        .filter(|(_, p)| client_folder(p).is_none_or(|c| c == client))
        .collect();
    // Only where other clients' copies were what tied.
    if mine.is_empty() || mine.len() == all.len() {
        return None;
    }
    resolve(src, mine).map(|(id, _)| (id, Resolution::Nearest))
}

/// The bearer a mention in `src` resolves to, or `None` (self-mention or a tie).
pub fn resolve<'a, I>(src: &str, bearers: I) -> Option<(i64, Resolution)>
where
    I: IntoIterator<Item = (i64, &'a str)>,
{
    // The nearest score so far, and the bearers at it: all of them and the project's own.
    let mut best: Option<usize> = None;
    let (mut at_best, mut own) = (Tally::default(), Tally::default());
    let mut count = 0usize;
    let src_dir = dir_of(src);
    let bearers: Vec<(i64, &str)> = bearers.into_iter().collect();
    if bearers.iter().any(|(_, p)| *p == src) {
        return None;
    }
    let tested = tests_yield(bearers.iter().map(|b| b.1));
    for (id, path) in bearers {
        count += 1;
        if tested && is_test(path) {
            continue;
        }
        // Nearest: the longest shared folder prefix, and at that length a file in a folder
        // that holds `src` (a sibling, or one on the way up: the root's file from `scripts/`)
        // before files in other branches or below it.
        let score = 2 * shared_dirs(src, path) + usize::from(holds(dir_of(path), src_dir));
        match best {
            Some(b) if score < b => continue,
            Some(b) if score == b => {}
            _ => {
                best = Some(score);
                (at_best, own) = (Tally::default(), Tally::default());
            }
        }
        at_best.add(id);
        if !vendored(path) {
            own.add(id);
        }
    }
    match (count, at_best.sole(), own.sole()) {
        (1, Some(id), _) => Some((id, Resolution::Unique)),
        // Equally near: the project's own copy over vendored ones, if it is the only own one.
        (_, Some(id), _) | (_, None, Some(id)) => Some((id, Resolution::Nearest)),
        _ => None,
    }
}

/// How many bearers one place holds, and the first of them.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    n: u32,
    first: i64,
}

impl Tally {
    fn add(&mut self, id: i64) {
        if self.n == 0 {
            self.first = id;
        }
        self.n += 1;
    }

    /// The bearer, when it is the only one.
    fn sole(&self) -> Option<i64> {
        (self.n == 1).then_some(self.first)
    }
}

/// The bearers under one folder: all of them, and those outside vendored folders (`vendored`),
/// which break a tie.
#[derive(Debug, Clone, Copy, Default)]
struct Place {
    all: Tally,
    own: Tally,
}

impl Place {
    fn add(&mut self, id: i64, own: bool) {
        self.all.add(id);
        if own {
            self.own.add(id);
        }
    }
}

/// `resolve` for one name with many bearers, answered in O(depth) per mention: for every
/// directory prefix, how many bearers lie under it (and one of them). The nearest bearers of a
/// file are those under its longest directory prefix that holds any; one such bearer is a
/// strict winner, several are a tie.
pub struct Nearest {
    under: HashMap<String, Place>,
    /// Bearers directly in each folder: a sibling is nearer than a file below the folder.
    direct: HashMap<String, Place>,
    paths: HashSet<String>,
}

impl Nearest {
    pub fn new<'a>(bearers: impl IntoIterator<Item = (i64, &'a str)>) -> Nearest {
        let mut under: HashMap<String, Place> = HashMap::new();
        let mut direct: HashMap<String, Place> = HashMap::new();
        let mut paths = HashSet::new();
        let bearers: Vec<(i64, &str)> = bearers.into_iter().collect();
        let tested = tests_yield(bearers.iter().map(|b| b.1));
        for (id, path) in bearers {
            paths.insert(path.to_string());
            if tested && is_test(path) {
                continue;
            }
            let dir = dir_of(path);
            let own = !vendored(path);
            for prefix in dir_prefixes(dir) {
                under.entry(prefix.to_string()).or_default().add(id, own);
            }
            direct.entry(dir.to_string()).or_default().add(id, own);
        }
        Nearest {
            under,
            direct,
            paths,
        }
    }

    /// Whether `path` is one of the bearers.
    pub fn bears(&self, path: &str) -> bool {
        self.paths.contains(path)
    }

    pub fn resolve(&self, src: &str) -> Option<(i64, Resolution)> {
        if self.paths.contains(src) {
            return None;
        }
        let total = self.paths.len();
        let dir = dir_of(src);
        // A sibling; else under the deepest folder above that holds any, the one kept in that
        // very folder (on the way up) before those in its other branches.
        let place = match self.direct.get(dir) {
            Some(sibling) => sibling,
            None => {
                // (Not a vendored container the writer lies deeper in: `external/` holds other
                // projects, none nearer to another than to ours.)
                let (p, under) = dir_prefixes(dir)
                    .filter(|p| p.len() == dir.len() || !is_vendor_container(p))
                    .filter_map(|p| Some((p, self.under.get(p)?)))
                    .last()?;
                self.direct.get(p).unwrap_or(under)
            }
        };
        match (total, place.all.sole(), place.own.sole()) {
            (1, Some(id), _) => Some((id, Resolution::Unique)),
            // Equally near: the project's own copy over vendored ones.
            (_, Some(id), _) | (_, None, Some(id)) => Some((id, Resolution::Nearest)),
            _ => None,
        }
    }
}

/// Whether the folder `dir` is `src_dir` or one above it ("" holds every folder).
fn holds(dir: &str, src_dir: &str) -> bool {
    dir.is_empty()
        || src_dir.starts_with(dir)
            && matches!(src_dir.as_bytes().get(dir.len()), None | Some(b'/'))
}

/// The folder of a root-relative path, "" for the root.
pub fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// `""`, then each directory prefix of `dir` by whole components, shortest first.
fn dir_prefixes(dir: &str) -> impl Iterator<Item = &str> {
    let inner = dir.match_indices('/').map(move |(i, _)| &dir[..i]);
    let full = (!dir.is_empty()).then_some(dir);
    std::iter::once("").chain(inner).chain(full)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_yields_to_the_file_it_is_named_after() {
        let b = [
            (1, "lib/core/AxiosHeaders.js"),
            (2, "test/unit/core/AxiosHeaders.js"),
        ];
        for src in [
            "test/specs/instance.spec.js",
            "test/unit/core/x.js",
            "README.md",
        ] {
            assert_eq!(resolve(src, b).map(|r| r.0), Some(1), "{src}");
            assert_eq!(Nearest::new(b).resolve(src).map(|r| r.0), Some(1), "{src}");
        }
        // The test itself says nothing by its name; tests alone are what the name has.
        assert_eq!(resolve("test/unit/core/AxiosHeaders.js", b), None);
        assert_eq!(
            Nearest::new(b).resolve("test/unit/core/AxiosHeaders.js"),
            None
        );
        let only = [(2, "tests/a/conftest.py"), (3, "tests/b/conftest.py")];
        assert_eq!(resolve("tests/a/test_x.py", only).map(|r| r.0), Some(2));
        for (p, t) in [
            ("tests/fixtures/.claude/agents/x.md", true),
            ("src/x.test.ts", true),
            ("pkg/test_io.py", true),
            ("cmd/run_test.go", true),
            ("src/contest.py", false),
            ("latest/x.md", false),
        ] {
            assert_eq!(is_test(p), t, "{p}");
        }
    }

    #[test]
    fn a_tie_between_clients_copies_is_the_writers_clients() {
        let b = [
            (1, ".claude/commands/review.md"),
            (2, ".gemini/commands/review.md"),
        ];
        assert_eq!(resolve("README.md", b), None);
        assert_eq!(by_client("README.md", b).map(|r| r.0), Some(1));
        assert_eq!(by_client("GEMINI.md", b).map(|r| r.0), Some(2));
        assert_eq!(by_client("docs/.gemini/x.md", b).map(|r| r.0), Some(2));
        assert_eq!(by_client(".ai/agents/x.md", b).map(|r| r.0), Some(1));
        // AGENTS.md speaks to many clients; a tie among one client's own copies stays one.
        assert_eq!(by_client("AGENTS.md", b), None);
        let own = [(1, ".claude/a/review.md"), (2, ".claude/b/review.md")];
        assert_eq!(by_client("README.md", own), None);
    }

    #[test]
    fn nearest_index_agrees_with_resolve() {
        let bearers = [
            (1, "s/a/ref/check.md"),
            (2, "s/b/ref/check.md"),
            (3, "s/b/other/check.md"),
            (4, "check.md"),
            (5, "t/check.md"),
            (6, "s/b/check.md"),
            (7, "u/check.md"),
            (8, "u/v/check.md"),
            (9, "w/external/x/check.md"),
            (10, "w/mine/check.md"),
            (11, "z/vendor/check.md"),
            (12, "z/vendor/b/check.md"),
        ];
        let idx = Nearest::new(bearers);
        for src in [
            "s/a/SKILL.md",
            "s/b/SKILL.md",
            "s/b/ref/x.md",
            "s/c/SKILL.md",
            "top.md",
            "t/x.md",
            "t/u/v/x.md",
            "u/x.md",
            "u/v/x.md",
            "u/w/x.md",
            "s/a/ref/check.md",
            "check.md",
            "w/x.md",
            "w/external/y.md",
            "z/x.md",
        ] {
            assert_eq!(idx.resolve(src), resolve(src, bearers), "{src}");
        }
        for n in 1..=2 {
            let some = &bearers[..n];
            let idx = Nearest::new(some.iter().copied());
            for src in ["s/a/x.md", "x.md", "s/b/ref/check.md"] {
                assert_eq!(
                    idx.resolve(src),
                    resolve(src, some.iter().copied()),
                    "{src}"
                );
            }
        }
    }

    #[test]
    fn unique_nearest_tie_and_self() {
        let one = [(1, "a/x.md")];
        assert_eq!(resolve("b/y.md", one), Some((1, Resolution::Unique)));
        assert_eq!(
            resolve("a/x.md", one),
            None,
            "a file never references itself"
        );
        let two = [(1, "s/a/ref/check.md"), (2, "s/b/ref/check.md")];
        assert_eq!(resolve("s/a/SKILL.md", two), Some((1, Resolution::Nearest)));
        assert_eq!(resolve("s/c/SKILL.md", two), None, "tie: no edge");
        assert_eq!(resolve("top.md", two), None, "tie at the root");
        // Equally near, the project's own copy outranks a vendored one; two own copies tie.
        let vendored = [
            (1, ".claude/agents/external/wshobson/debugger.md"),
            (2, ".claude/agents/quality-testing/debugger.md"),
        ];
        let src = ".claude/agents/agent-organizer.md";
        assert_eq!(resolve(src, vendored), Some((2, Resolution::Nearest)));
        let within = ".claude/agents/external/wshobson/README.md";
        assert_eq!(resolve(within, vendored), Some((1, Resolution::Nearest)));
        let three = [
            vendored[0],
            vendored[1],
            (3, ".claude/agents/core/debugger.md"),
        ];
        assert_eq!(resolve(src, three), None);
        // A desktop's duplicate beside the original is outranked too.
        let dup = [
            (1, "agents/cs-partnerships 2.md"),
            (2, "agents/cs-partnerships.md"),
        ];
        assert_eq!(resolve("docs/a.md", dup), Some((2, Resolution::Nearest)));
        assert!(desktop_duplicate("notes copy.md") && desktop_duplicate("plan (1).md"));
        assert!(!desktop_duplicate("Chapter.md") && !desktop_duplicate(" 2.md"));
        // A backup copy is outranked as a vendored one is, except from within the backup.
        let backup = [(1, "work/_backup-pre-x/recipe.md"), (2, "work/recipe.md")];
        assert_eq!(
            resolve("notes/a.md", backup),
            Some((2, Resolution::Nearest))
        );
        let inside = "work/_backup-pre-x/SKILL.md";
        assert_eq!(resolve(inside, backup), Some((1, Resolution::Nearest)));
        let plain = [(1, "work/backing/recipe.md"), (2, "work/recipe.md")];
        assert_eq!(resolve("notes/a.md", plain), None, "no backup: a tie");
        // So are a copy kept in an archive or for provenance.
        for kept in [
            "archive/research/SYNTHESIS.md",
            "spec/provenance/SYNTHESIS.md",
        ] {
            let copies = [(1, kept), (2, "design/research/SYNTHESIS.md")];
            assert_eq!(
                resolve("notes/a.md", copies),
                Some((2, Resolution::Nearest))
            );
        }
        // A file in the mentioning file's own folder is nearer than one below it, the root's
        // for a root file (`tokenize.py` from `token.py`, not `lib2to3/pgen2/tokenize.py`).
        let root = [(1, "lib2to3/pgen2/tokenize.py"), (2, "tokenize.py")];
        assert_eq!(resolve("token.py", root), Some((2, Resolution::Nearest)));
        let deep = [(1, "s/a/ref/check.md"), (2, "s/a/check.md")];
        assert_eq!(
            resolve("s/a/SKILL.md", deep),
            Some((2, Resolution::Nearest))
        );
    }

    #[test]
    fn a_file_on_the_way_up_is_nearer_than_one_in_another_branch() {
        let b = [(1, "README.md"), (2, "docs/README.md")];
        let c = [
            (1, "skills/foo.md"),
            (2, "skills/b/foo.md"),
            (3, "skills/a/deep/foo.md"),
        ];
        let idx = (Nearest::new(b), Nearest::new(c));
        for (src, bearers, nearest, want) in [
            ("scripts/gen.py", &b[..], &idx.0, Some(1)),
            ("docs/guides/a.md", &b[..], &idx.0, Some(2)),
            // At the same shared depth the folder above wins; a file below the writer's own
            // folder is nearer still.
            ("skills/c/x.md", &c[..], &idx.1, Some(1)),
            ("skills/a/x.md", &c[..], &idx.1, Some(3)),
        ] {
            let got = resolve(src, bearers.iter().copied()).map(|r| r.0);
            assert_eq!(got, want, "resolve from {src}");
            assert_eq!(
                nearest.resolve(src).map(|r| r.0),
                want,
                "Nearest from {src}"
            );
        }
    }

    #[test]
    fn a_vendored_project_is_no_nearer_to_another_than_to_ours() {
        let b = [
            (1, ".claude/agents/external/lst97/infra/security-auditor.md"),
            (2, ".claude/agents/security/security-auditor.md"),
        ];
        let src = ".claude/agents/external/wshobson/README.md";
        assert_eq!(resolve(src, b).map(|r| r.0), Some(2));
        assert_eq!(Nearest::new(b).resolve(src).map(|r| r.0), Some(2));
        // Within one vendored project, its own copy is still the nearest.
        let src = ".claude/agents/external/lst97/README.md";
        assert_eq!(resolve(src, b).map(|r| r.0), Some(1));
        assert_eq!(Nearest::new(b).resolve(src).map(|r| r.0), Some(1));
    }

    #[test]
    fn common_dirs_counts_whole_components() {
        assert_eq!(common_dirs("ab/c/x", "ab/cd/y"), 1);
        assert_eq!(common_dirs("x", "a/y"), 0);
        assert_eq!(common_dirs("a/b/x", "a/b/y"), 2);
    }
}
