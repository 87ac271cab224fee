//! Grouping an iteration's targets by proximity into at most two implementer groups (the seed's
//! "max 2 implementers per iteration").
//!
//! A leaf: it knows paths only, so the state machine can use it without reaching back into the
//! plan that feeds the machine. Invariant: every group number is 1 or [`MAX_GROUPS`].

use std::collections::BTreeSet;

/// The seed's "max 2 implementers per iteration".
pub const MAX_GROUPS: u32 = 2;

/// The group (1 or 2) of each file. Files are split at the first directory level where they
/// differ; the sorted buckets of that level are cut into two contiguous runs whose sizes are as
/// equal as possible. Files that all share one directory form one group.
pub fn group_by_proximity(files: &[String]) -> Vec<u32> {
    let dirs: Vec<Vec<&str>> = files
        .iter()
        .map(|f| {
            let mut parts: Vec<&str> = f.split('/').collect();
            parts.pop();
            parts
        })
        .collect();
    let Some(first) = dirs.first() else {
        return Vec::new();
    };
    let common = dirs.iter().fold(first.len(), |n, d| {
        n.min(d.iter().zip(first).take_while(|(a, b)| a == b).count())
    });
    let keys: Vec<&str> = dirs
        .iter()
        .map(|d| d.get(common).copied().unwrap_or(""))
        .collect();
    let buckets: BTreeSet<&str> = keys.iter().copied().collect();
    if buckets.len() < 2 {
        return vec![1; files.len()];
    }
    let sizes: Vec<(&str, usize)> = buckets
        .iter()
        .map(|b| (*b, keys.iter().filter(|k| *k == b).count()))
        .collect();
    let total = files.len();
    let mut best = (usize::MAX, 1);
    let mut left = 0;
    for (i, (_, size)) in sizes.iter().enumerate().take(sizes.len() - 1) {
        left += size;
        let diff = left.abs_diff(total - left);
        if diff < best.0 {
            best = (diff, i + 1);
        }
    }
    let first_group: BTreeSet<&str> = sizes[..best.1].iter().map(|(k, _)| *k).collect();
    keys.iter()
        .map(|k| {
            if first_group.contains(k) {
                1
            } else {
                MAX_GROUPS
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn one_directory_is_one_group() {
        assert_eq!(
            group_by_proximity(&s(&["a/x.md", "a/y.md", "a/z.md"])),
            vec![1, 1, 1]
        );
        assert_eq!(group_by_proximity(&s(&["x.md"])), vec![1]);
        assert!(group_by_proximity(&[]).is_empty());
    }

    #[test]
    fn splits_at_first_differing_directory_balanced() {
        let files = s(&[
            ".claude/agents/a.md",
            ".claude/agents/b.md",
            ".claude/skills/x/SKILL.md",
            ".claude/skills/y/SKILL.md",
            ".claude/z.md",
        ]);
        // Buckets: "" (z.md), agents (2), skills (2): cut after agents gives 3 | 2.
        let g = group_by_proximity(&files);
        assert_eq!(g, vec![1, 1, 2, 2, 1]);
        assert!(g.iter().all(|x| *x == 1 || *x == 2));
    }
}
