//! Files the user owns and trees outside the project: nothing outside the root is read, a
//! database kept in a folder containing the tree does not hide the tree, copies of the project
//! (git worktrees) are not indexed as more files.

use crate::util::Project;

fn stdout(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("run: {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[cfg(unix)]
#[test]
fn symlinks_leading_out_of_the_root_are_not_followed() {
    let outside = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    std::fs::write(
        outside.path().join("secret.md"),
        "private words: CANARY-7731\n",
    )
    .unwrap_or_else(|e| panic!("write: {e}"));
    let p = Project::empty();
    p.write(".claude/a.md", "Read inner-doc.md.\n");
    p.write(".claude/docs/inner-doc.md", "Inside.\n");
    std::os::unix::fs::symlink(outside.path(), p.path(".claude/outlink"))
        .unwrap_or_else(|e| panic!("symlink: {e}"));
    std::os::unix::fs::symlink(p.path(".claude/docs"), p.path(".claude/inlink"))
        .unwrap_or_else(|e| panic!("symlink: {e}"));
    p.src().args(["index", "--full"]).assert().success();
    let files = stdout(p.src().args(["query", "files", "--format", "tsv"]));
    assert!(!files.contains("outlink"), "{files}");
    assert!(files.contains(".claude/docs/inner-doc.md"), "{files}");
    let dump = stdout(p.src().args([
        "query",
        "--sql",
        "SELECT text FROM mentions UNION ALL SELECT text FROM edges",
    ]));
    assert!(!dump.contains("CANARY"), "{dump}");
    // A hook naming the linked path does not read it either.
    let db = std::fs::read(p.path(".src/src.db")).unwrap_or_default();
    assert!(!String::from_utf8_lossy(&db).contains("CANARY"));
}

#[test]
fn a_database_in_a_folder_containing_the_tree_does_not_hide_it() {
    let d = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let tree = d.path().join("tree");
    std::fs::create_dir_all(tree.join(".claude")).unwrap_or_else(|e| panic!("mkdir: {e}"));
    std::fs::create_dir_all(tree.join(".git")).unwrap_or_else(|e| panic!("mkdir: {e}"));
    std::fs::write(tree.join(".claude/a-doc.md"), "Alpha.\n").unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(tree.join(".claude/b.md"), "See a-doc.md.\n").unwrap_or_else(|e| panic!("{e}"));
    let db = d.path().join("x.db");
    let src = || {
        let mut c = crate::util::src();
        c.current_dir(&tree)
            .arg("--root")
            .arg(&tree)
            .arg("--db")
            .arg(&db);
        c
    };
    src().args(["index", "--full"]).assert().success();
    std::fs::write(tree.join(".claude/a-doc.md"), "Alpha, edited.\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let impact = stdout(src().args(["impact", ".claude/a-doc.md", "--format", "json"]));
    assert!(!impact.contains("not in the index"), "{impact}");
    assert!(impact.contains(".claude/b.md"), "{impact}");
    let status = stdout(src().args(["status", "--json"]));
    let v: serde_json::Value =
        serde_json::from_str(&status).unwrap_or_else(|e| panic!("{e}: {status}"));
    assert!(
        !status.contains("\"new\": [\n    \".claude/a-doc.md\""),
        "{status}"
    );
    assert_ne!(v["new"].as_array().map(Vec::len), Some(2), "{status}");
}

#[test]
fn a_git_worktree_inside_the_project_is_not_indexed() {
    let p = Project::empty();
    p.write(".claude/agents/planner-x.md", "Plans.\n");
    p.write(
        ".claude/worktrees/agent-1/.git",
        "gitdir: ../../../.git/worktrees/agent-1\n",
    );
    p.write(
        ".claude/worktrees/agent-1/.claude/agents/planner-x.md",
        "Plans.\n",
    );
    p.write(".claude/copies/wt/.git", "gitdir: elsewhere\n");
    p.write(".claude/copies/wt/planner-x.md", "A copy.\n");
    p.src().args(["index", "--full"]).assert().success();
    let files = stdout(p.src().args(["query", "files", "--format", "tsv"]));
    assert!(!files.contains("worktrees"), "{files}");
    assert!(
        !files.contains("copies/wt"),
        "a folder with a .git file: {files}"
    );
    assert!(files.contains(".claude/agents/planner-x.md"), "{files}");
}
