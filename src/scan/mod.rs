//! Names and matching: which strings a file is known by, and where they occur in bytes; and the
//! walk, which says which files are in scope (`walk`, with what git says about them in `git`).
//!
//! Owns the naming and matching rules and the scope; knows nothing of the database nor of the
//! graph (the live scan that resolves mentions without an index is `graph::live`). Invariant: the index and
//! the live scan use exactly these rules, so a live answer equals what the index would say.

pub mod cue;
pub mod frontmatter;
mod git;
pub mod matcher;
pub mod mentions;
pub mod names;
pub mod refs;
pub mod resolve;
pub mod walk;

use std::path::Path;

/// The frontmatter name of the file at root-relative `path`, from a read of its head only (none
/// for a file that is not Markdown or cannot be read). The index reads it before its pass so
/// that the automaton holds it.
pub fn frontmatter_of(root: &Path, path: &str, cfg: &crate::config::Names) -> Option<String> {
    if !frontmatter::applies_to(path) {
        return None;
    }
    let head = frontmatter::read_head(&root.join(path)).ok()?;
    names::frontmatter_name(path, &head, cfg)
}

/// Whether the file at root-relative `path` declares an agent in its frontmatter
/// (`frontmatter::declares_agent`), from a read of its head only.
pub fn agent_on_disk(root: &Path, path: &str) -> bool {
    frontmatter::applies_to(path)
        && frontmatter::read_head(&root.join(path)).is_ok_and(|h| frontmatter::declares_agent(&h))
}
