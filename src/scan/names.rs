//! Names: the strings by which a file can be mentioned, derived from its root-relative path.
//!
//! Owns the naming rules only (no I/O, no database). Invariant: the path is always a name; a
//! generic basename (`SKILL.md`, `mod.rs`, …) is no name by itself outside the root directory,
//! such a file is known by `parent/basename` and its parent directory's name instead; every name
//! appears once per file, with its most specific kind.

use crate::config::Names;

/// How a name was derived from a path, most specific first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NameKind {
    Path,
    ParentBasename,
    Basename,
    Stem,
    Parent,
}

impl NameKind {
    /// The value stored in `names.kind`.
    pub fn as_str(self) -> &'static str {
        match self {
            NameKind::Path => "path",
            NameKind::ParentBasename => "parent_basename",
            NameKind::Basename => "basename",
            NameKind::Stem => "stem",
            NameKind::Parent => "parent",
        }
    }
}

/// The names of the file at root-relative `path` (with `/` separators), most specific first.
pub fn names_of(path: &str, cfg: &Names) -> Vec<(String, NameKind)> {
    let mut out: Vec<(String, NameKind)> = vec![(path.to_string(), NameKind::Path)];
    let mut push = |name: &str, kind: NameKind| {
        if !name.is_empty() && !out.iter().any(|(n, _)| n == name) {
            out.push((name.to_string(), kind));
        }
    };
    let (dir, base) = match path.rsplit_once('/') {
        Some((d, b)) => (Some(d), b),
        None => (None, path),
    };
    let generic = cfg.generic.iter().any(|g| g == base);
    match dir {
        Some(dir) if generic => {
            let parent = dir.rsplit('/').next().unwrap_or(dir);
            push(&format!("{parent}/{base}"), NameKind::ParentBasename);
            // The folder's name means the file that makes the folder a thing (a skill's
            // SKILL.md, a package's `__init__.py`), not one that only describes it: prose
            // naming a plugin or project means that, not its README.
            if defines_folder(base) && stem_ok(parent, cfg) && !parent.starts_with('.') {
                push(parent, NameKind::Parent);
            }
        }
        _ => {
            push(base, NameKind::Basename);
            let stem = stem_of(base);
            if stem != base && stem_ok(stem, cfg) {
                push(stem, NameKind::Stem);
            }
        }
    }
    out
}

/// Whether a conventional file defines its folder as a unit that is spoken of by the folder's
/// name: a skill, a code package or module folder.
fn defines_folder(base: &str) -> bool {
    base.eq_ignore_ascii_case("SKILL.md")
        || matches!(
            base,
            "__init__.py" | "index.js" | "index.ts" | "index.mjs" | "index.cjs" | "mod.rs"
        )
}

/// The basename without its last extension; a leading dot does not start an extension.
pub fn stem_of(base: &str) -> &str {
    match base.rfind('.') {
        Some(0) | None => base,
        Some(i) => &base[..i],
    }
}

fn stem_ok(stem: &str, cfg: &Names) -> bool {
    stem.chars().count() >= cfg.min_stem_len && !cfg.stoplist.iter().any(|s| s == stem)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(path: &str) -> Vec<(String, &'static str)> {
        names_of(path, &Names::default())
            .into_iter()
            .map(|(n, k)| (n, k.as_str()))
            .collect()
    }

    #[test]
    fn plain_file_has_path_basename_and_stem() {
        assert_eq!(
            names(".claude/agents/implementer.md"),
            vec![
                (".claude/agents/implementer.md".into(), "path"),
                ("implementer.md".into(), "basename"),
                ("implementer".into(), "stem"),
            ]
        );
    }

    #[test]
    fn generic_basename_is_known_by_its_parent() {
        assert_eq!(
            names(".claude/skills/execution-code/SKILL.md"),
            vec![
                (".claude/skills/execution-code/SKILL.md".into(), "path"),
                ("execution-code/SKILL.md".into(), "parent_basename"),
                ("execution-code".into(), "parent"),
            ]
        );
    }

    #[test]
    fn a_readme_is_not_named_by_its_folder() {
        // "plugin-eval" in prose means the plugin, not its README.
        assert_eq!(
            names("plugins/plugin-eval/README.md"),
            vec![
                ("plugins/plugin-eval/README.md".into(), "path"),
                ("plugin-eval/README.md".into(), "parent_basename"),
            ]
        );
        assert!(names("pkg/models/__init__.py").contains(&("models".into(), "parent")));
    }

    #[test]
    fn generic_basename_in_root_is_a_name() {
        assert_eq!(
            names("CLAUDE.md"),
            vec![("CLAUDE.md".into(), "path")],
            "the stem CLAUDE is stoplisted, the basename equals the path"
        );
    }

    #[test]
    fn hidden_or_short_parent_is_no_name() {
        let n = names(".claude/SKILL.md");
        assert_eq!(
            n,
            vec![(".claude/SKILL.md".into(), "path")],
            "parent/basename equals the path; `.claude` starts with a dot"
        );
        let n = names("a/abc/mod.rs");
        assert!(n.iter().all(|(name, _)| name != "abc"), "{n:?}");
        assert!(n.contains(&("abc/mod.rs".into(), "parent_basename")));
    }

    #[test]
    fn short_and_stoplisted_stems_are_no_names() {
        let n = names("x/ab.md");
        assert!(n.iter().all(|(name, _)| name != "ab"), "{n:?}");
        let n = names("x/SKILL.txt");
        assert!(n.iter().all(|(name, _)| name != "SKILL"), "{n:?}");
        assert!(n.contains(&("SKILL.txt".into(), "basename")));
        // Common words stay names (an import of `types` must find types.py); whether a bare
        // occurrence refers to the file is decided by `graph::refs`.
        let n = names("x/types.py");
        assert!(n.contains(&("types".into(), "stem")), "{n:?}");
    }

    #[test]
    fn stem_rules() {
        assert_eq!(stem_of("a.tar.gz"), "a.tar");
        assert_eq!(stem_of(".gitignore"), ".gitignore");
        assert_eq!(stem_of("Makefile"), "Makefile");
    }
}
