//! Resolution: which file a mention of a name points at, given every file bearing that name.
//!
//! Owns the ambiguity rule only (pure function, no I/O). Invariant: never a fan-out; a file never
//! references itself; a unique bearer gives `unique`; among several bearers the one whose
//! directory shares the longest common prefix (whole components) with the mentioning file wins as
//! `nearest`; a tie gives no edge (the mention stays, visible as ambiguous).

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
    let da = a.rsplit_once('/').map_or("", |(d, _)| d);
    let db = b.rsplit_once('/').map_or("", |(d, _)| d);
    if da.is_empty() || db.is_empty() {
        return 0;
    }
    da.split('/')
        .zip(db.split('/'))
        .take_while(|(x, y)| x == y)
        .count()
}

/// The bearer a mention in `src` resolves to, or `None` (self-mention or a tie).
pub fn resolve<'a, I>(src: &str, bearers: I) -> Option<(i64, Resolution)>
where
    I: IntoIterator<Item = (i64, &'a str)>,
{
    let mut best: Option<(i64, usize)> = None;
    let mut tie = false;
    let mut count = 0usize;
    for (id, path) in bearers {
        if path == src {
            return None;
        }
        count += 1;
        let score = common_dirs(src, path);
        match best {
            Some((_, b)) if score < b => {}
            Some((_, b)) if score == b => tie = true,
            _ => {
                best = Some((id, score));
                tie = false;
            }
        }
    }
    match (best, count) {
        (Some((id, _)), 1) => Some((id, Resolution::Unique)),
        (Some((id, _)), _) if !tie => Some((id, Resolution::Nearest)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn common_dirs_counts_whole_components() {
        assert_eq!(common_dirs("ab/c/x", "ab/cd/y"), 1);
        assert_eq!(common_dirs("x", "a/y"), 0);
        assert_eq!(common_dirs("a/b/x", "a/b/y"), 2);
    }
}
