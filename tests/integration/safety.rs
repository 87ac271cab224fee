//! Files the user owns and trees outside the project: nothing outside the root is read, a
//! database kept in a folder containing the tree does not hide the tree, copies of the project
//! (git worktrees) are not indexed as more files.

use crate::util::{stdout_of as stdout, Project};

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

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    let st = std::process::Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .unwrap_or_else(|e| panic!("cp: {e}"));
    assert!(st.success());
}

#[test]
fn uninstall_in_a_copy_never_touches_the_original() {
    let d = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let proj = d.path().join("proj");
    std::fs::create_dir_all(proj.join(".git")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir_all(proj.join(".claude")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(proj.join(".claude/settings.json"), "{\"model\": \"x\"}\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let at = |root: &std::path::Path| {
        let mut c = crate::util::src();
        c.current_dir(root).arg("--root").arg(root);
        c
    };
    at(&proj).args(["init", "--claude"]).assert().success();
    let settings_before = std::fs::read(proj.join(".claude/settings.json")).unwrap_or_default();
    let skill = proj.join(".claude/skills/execution-impact/SKILL.md");
    assert!(skill.is_file());
    let copy = d.path().join("proj2");
    copy_tree(&proj, &copy);
    let out = at(&copy)
        .args(["init", "--claude", "--uninstall"])
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "refused");
    assert!(
        err.contains("proj2") && err.contains("written for"),
        "{err}"
    );
    assert!(skill.is_file(), "the original's skill is still there");
    assert_eq!(
        std::fs::read(proj.join(".claude/settings.json")).unwrap_or_default(),
        settings_before
    );
    // The original uninstalls itself as before.
    at(&proj)
        .args(["init", "--claude", "--uninstall"])
        .assert()
        .success();
    assert!(!skill.exists());
}

#[cfg(unix)]
#[test]
fn force_keeps_a_copy_of_the_users_skill_and_uninstall_restores_it() {
    use std::os::unix::fs::PermissionsExt;
    let p = Project::empty();
    p.write(".claude/settings.json", "{}\n");
    std::fs::set_permissions(
        p.path(".claude/settings.json"),
        std::fs::Permissions::from_mode(0o664),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    p.write(".claude/skills/manage-codebase/SKILL.md", "my own skill\n");
    let out = stdout(p.src().args(["init", "--claude", "--force"]));
    assert!(
        out.contains("backup: .claude/skills/manage-codebase/SKILL.md kept as .src/backup/"),
        "{out}"
    );
    assert!(
        !p.path(".claude/settings.json.bak").exists(),
        "no .bak beside the user's file"
    );
    let mode = std::fs::metadata(p.path(".claude/settings.json"))
        .map(|m| m.permissions().mode() & 0o777)
        .unwrap_or(0);
    assert_eq!(mode, 0o664, "settings.json keeps its mode");
    let ours = std::fs::read_to_string(p.path(".claude/skills/manage-codebase/SKILL.md"))
        .unwrap_or_default();
    assert_ne!(ours, "my own skill\n");
    let out = stdout(p.src().args(["init", "--claude", "--uninstall"]));
    assert!(
        out.contains("restored: .claude/skills/manage-codebase/SKILL.md"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(p.path(".claude/skills/manage-codebase/SKILL.md"))
            .unwrap_or_default(),
        "my own skill\n"
    );
}

#[cfg(unix)]
#[test]
fn the_exported_map_is_created_with_the_users_umask() {
    use std::os::unix::fs::PermissionsExt;
    let p = Project::empty();
    p.write(".claude/a.md", "x\n");
    p.src().args(["index"]).assert().success();
    p.src().args(["export-map"]).assert().success();
    let map = p.path(".claude/agent-memory/analyst/codebase-map.md");
    assert!(map.is_file(), "the default map path");
    p.write("probe", "");
    let want = std::fs::metadata(p.path("probe"))
        .map(|m| m.permissions().mode() & 0o777)
        .unwrap_or(0);
    let got = std::fs::metadata(&map)
        .map(|m| m.permissions().mode() & 0o777)
        .unwrap_or(0);
    assert_eq!(got, want, "{}", map.display());
}

#[test]
fn read_only_commands_create_nothing_where_there_is_no_project() {
    let d = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    for args in [
        vec!["status"],
        vec!["doctor"],
        vec!["query", "files"],
        vec!["query", "--sql", "SELECT 1"],
        vec!["dependents", "x.md"],
        vec!["graph"],
        vec!["impact", "show", "1"],
        vec!["export-map", "--check"],
    ] {
        let out = crate::util::src()
            .current_dir(d.path())
            .arg("--root")
            .arg(d.path())
            .args(&args)
            .output()
            .unwrap_or_else(|e| panic!("run: {e}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("no src project here") || err.contains("does not exist"),
            "{args:?}: {err}"
        );
        assert!(!d.path().join(".src").exists(), "{args:?} created .src/");
    }
}

#[test]
fn a_corrupt_database_is_reported_at_once_and_repaired_with_its_events() {
    let p = Project::from_fixture("engine-basic");
    p.src().args(["index"]).assert().success();
    // A recorder event while the database is broken goes to the spill journal.
    std::fs::write(
        p.path(".src/src.db"),
        b"this is not a database, just bytes\n".repeat(300),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(p.path(".src/src.db-wal"));
    let _ = std::fs::remove_file(p.path(".src/src.db-shm"));
    let payload = serde_json::json!({
        "session_id": "s-corrupt", "hook_event_name": "PostToolUse", "tool_name": "Edit",
        "tool_use_id": "t1", "cwd": p.root(),
        "tool_input": {"file_path": p.path(".claude/agents/implementer.md")},
        "tool_response": {"success": true}
    });
    p.src()
        .args(["hook", "post-tool-use"])
        .write_stdin(payload.to_string())
        .assert()
        .success()
        .stdout("");
    let t = std::time::Instant::now();
    let out = p
        .src()
        .args(["status"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        t.elapsed() < std::time::Duration::from_secs(5),
        "no 10 s wait"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("src.db") && err.contains("src doctor --repair"),
        "{err}"
    );
    let doc = p
        .src()
        .args(["doctor"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(String::from_utf8_lossy(&doc.stdout).contains("cannot be used"));
    let rep = p
        .src()
        .args(["doctor", "--repair"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let rep = String::from_utf8_lossy(&rep.stdout).into_owned();
    assert!(rep.contains("moved") && rep.contains(".broken-"), "{rep}");
    let events = stdout(p.src().args(["query", "events", "--format", "tsv"]));
    assert!(
        events.contains("s-corrupt"),
        "the spilled event came back: {events}"
    );
    let kept = std::fs::read_dir(p.path(".src"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().contains(".broken-"));
    assert!(kept, "the broken file is kept");
}

#[test]
fn src_debug_off_values_write_no_file() {
    let p = Project::from_fixture("engine-basic");
    p.src().args(["index"]).assert().success();
    for v in ["0", "off", "false"] {
        // A failing hook run (not JSON) is the path that writes debug lines.
        p.src()
            .env("SRC_DEBUG", v)
            .env("CLAUDE_PROJECT_DIR", p.root())
            .args(["hook", "subagent-stop"])
            .write_stdin("not json")
            .assert()
            .success();
        p.src()
            .env("SRC_DEBUG", v)
            .args(["index"])
            .assert()
            .success();
        assert!(!p.path(v).exists(), "SRC_DEBUG={v} wrote a file named {v}");
    }
}

#[test]
fn init_covers_a_plugin_layout_and_doctor_warns_when_the_scope_does_not() {
    let p = Project::empty();
    p.write("agents/planner-bot.md", "Plans.\n");
    p.write("skills/deep-dive/SKILL.md", "Use planner-bot.\n");
    p.write(".claude-plugin/plugin.json", "{\"name\": \"x\"}\n");
    let out = stdout(p.src().arg("init"));
    assert!(
        out.contains("scope: a plugin or marketplace layout"),
        "{out}"
    );
    p.src().arg("index").assert().success();
    let edges = stdout(p.src().args(["query", "edges", "--format", "tsv"]));
    assert!(
        edges.contains("skills/deep-dive/SKILL.md\tagents/planner-bot.md"),
        "{edges}"
    );
    // A config that leaves them out draws a warning.
    p.write(".src/config.yaml", "scope:\n  include: [\".claude/**\"]\n");
    let doc = p
        .src()
        .args(["doctor"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8_lossy(&doc.stdout);
    assert!(
        text.contains("the scope leaves out agents/, skills/"),
        "{text}"
    );
}

#[test]
fn tracked_files_under_an_ignored_folder_are_indexed() {
    let git = crate::util::git_in;
    let p = Project::empty();
    let _ = std::fs::remove_dir_all(p.path(".git"));
    if !git(&p, &["init", "-q"]) {
        eprintln!("skipped: git is not installed");
        return;
    }
    p.write(".gitignore", ".claude/projects/\n");
    p.write(".claude/agents/planner-bot.md", "Plans.\n");
    p.write(
        ".claude/projects/home/memory/MEMORY.md",
        "Ask planner-bot first.\n",
    );
    p.write(
        ".claude/projects/home/memory/scratch.md",
        "Untracked: planner-bot.\n",
    );
    assert!(git(
        &p,
        &["add", "-f", ".claude/projects/home/memory/MEMORY.md"]
    ));
    assert!(git(&p, &["add", ".gitignore", ".claude/agents"]));
    assert!(git(&p, &["commit", "-q", "-m", "x"]));
    p.src().args(["index", "--full"]).assert().success();
    let edges = stdout(p.src().args(["query", "edges", "--format", "tsv"]));
    assert!(
        edges.contains(".claude/projects/home/memory/MEMORY.md\t.claude/agents/planner-bot.md"),
        "{edges}"
    );
    assert!(
        !edges.contains("scratch.md"),
        "an untracked ignored file stays out: {edges}"
    );
    // status says how many files in scope the ignore rules left out (scratch.md).
    let st = stdout(p.src().args(["status", "--format", "json"]));
    let st: serde_json::Value =
        serde_json::from_str(&st).unwrap_or_else(|e| panic!("status json: {e}\n{st}"));
    assert_eq!(st["ignored"], 1, "{st}");
    let text = stdout(p.src().args(["status"]));
    assert!(text.contains("ignored: 1 untracked file(s)"), "{text}");
    // A hook's refresh of the tracked file agrees with the walk.
    p.write(
        ".claude/projects/home/memory/MEMORY.md",
        "Ask planner-bot again.\n",
    );
    let out = stdout(p.src().args([
        "impact",
        ".claude/agents/planner-bot.md",
        "--format",
        "json",
    ]));
    assert!(out.contains("MEMORY.md"), "{out}");
}

#[test]
fn an_event_the_state_folder_cannot_take_goes_to_the_fallback_and_comes_back() {
    let p = Project::from_fixture("engine-basic");
    p.src().args(["index"]).assert().success();
    let fallback = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    // The database is broken and the journal cannot be written where it lives.
    std::fs::write(p.path(".src/src.db"), b"garbage".repeat(1000))
        .unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(p.path(".src/src.db-wal"));
    let _ = std::fs::remove_file(p.path(".src/spill.jsonl"));
    std::fs::create_dir_all(p.path(".src/spill.jsonl")).unwrap_or_else(|e| panic!("{e}"));
    let payload = serde_json::json!({
        "session_id": "s-full-disk", "hook_event_name": "PostToolUse", "tool_name": "Write",
        "tool_use_id": "t9", "cwd": p.root(),
        "tool_input": {"file_path": p.path(".claude/agents/implementer.md")},
        "tool_response": {"success": true}
    });
    p.src()
        .env("SRC_SPILL_FALLBACK", fallback.path())
        .env("CLAUDE_PROJECT_DIR", p.root())
        .args(["hook", "post-tool-use"])
        .write_stdin(payload.to_string())
        .assert()
        .success()
        .stdout("");
    let spilled: Vec<_> = walk_files(fallback.path());
    assert!(
        spilled.iter().any(|f| std::fs::read_to_string(f)
            .unwrap_or_default()
            .contains("s-full-disk")),
        "{spilled:?}"
    );
    // doctor names the fallback; once the folder is fixed, a command brings the event back.
    std::fs::remove_dir(p.path(".src/spill.jsonl")).unwrap_or_else(|e| panic!("{e}"));
    let doc = p
        .src()
        .env("SRC_SPILL_FALLBACK", fallback.path())
        .args(["doctor", "--repair"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(String::from_utf8_lossy(&doc.stdout).contains("fallback journal"));
    let events = stdout(
        p.src()
            .env("SRC_SPILL_FALLBACK", fallback.path())
            .args(["query", "events", "--format", "tsv"]),
    );
    assert!(events.contains("s-full-disk"), "{events}");
}

fn walk_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk_files(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[cfg(target_os = "linux")]
#[test]
fn file_names_that_are_not_utf8_are_counted_not_lost() {
    use std::os::unix::ffi::OsStrExt;
    let p = Project::empty();
    p.write(".claude/ok.md", "fine\n");
    let bad = p
        .path(".claude")
        .join(std::ffi::OsStr::from_bytes(b"bad-\xff-name.md"));
    std::fs::write(&bad, "x\n").unwrap_or_else(|e| panic!("{e}"));
    let out = stdout(p.src().args(["index", "--full", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v["skipped"]["non-utf8-name"], 1, "{out}");
    let st = stdout(p.src().args(["status", "--json"]));
    assert!(st.contains("non-utf8-name"), "{st}");
}

#[test]
fn a_failed_full_rebuild_leaves_the_previous_index_answering() {
    let p = Project::from_fixture("engine-basic");
    p.src().args(["index", "--full"]).assert().success();
    let before = stdout(p.src().args(["query", "edges", "--format", "tsv"]));
    let files_before = stdout(p.src().args(["query", "files", "--format", "tsv"]));
    assert!(before.lines().count() > 3, "{before}");
    // The tree changes, then a rebuild fails just before it would commit.
    p.write(
        ".claude/agents/extra-agent.md",
        "Mentions implementer.md.\n",
    );
    let out = p
        .src()
        .env("SRC_FAIL_AT", "before-commit")
        .args(["index", "--full"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("left as it was"), "{err}");
    assert_eq!(
        stdout(p.src().args(["query", "edges", "--format", "tsv"])),
        before
    );
    assert_eq!(
        stdout(p.src().args(["query", "files", "--format", "tsv"])),
        files_before
    );
    // No in-progress marker is left: the index is still complete, and a new run works.
    let st = stdout(p.src().args(["status", "--json"]));
    assert!(st.contains("\"built\": true"), "{st}");
    p.src().args(["index", "--full"]).assert().success();
    let after = stdout(p.src().args(["query", "edges", "--format", "tsv"]));
    assert!(after.contains("extra-agent.md"), "{after}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_rebuild_that_runs_out_of_space_changes_nothing() {
    let p = Project::from_fixture("engine-basic");
    p.src().args(["index", "--full"]).assert().success();
    let before = stdout(p.src().args(["query", "edges", "--format", "tsv"]));
    for i in 0..300 {
        p.write(
            &format!(".claude/notes/note-{i}.md"),
            &"See implementer.md and review/SKILL.md for the flow.\n".repeat(40),
        );
    }
    let db = std::fs::metadata(p.path(".src/src.db"))
        .map(|m| m.len())
        .unwrap_or(0);
    // A file-size limit a little above today's database: the WAL of the rebuild cannot fit.
    let blocks = db / 512 + 64;
    let bin = assert_cmd::cargo::cargo_bin("src");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f {blocks}; exec \"$0\" --root \"$1\" index --full"
        ))
        .arg(&bin)
        .arg(p.root())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!out.status.success(), "the rebuild should not fit");
    assert_eq!(
        stdout(p.src().args(["query", "edges", "--format", "tsv"])),
        before
    );
}

#[cfg(unix)]
#[test]
fn a_linked_folder_to_files_of_the_scope_is_not_a_second_copy_of_them() {
    let p = Project::empty();
    p.write(
        "src/skills/commit-pr/SKILL.md",
        "---\nname: commit-pr\n---\nCommits.\n",
    );
    p.write("docs/guide.md", "Use the commit-pr skill.\n");
    std::fs::create_dir_all(p.path(".claude/skills")).unwrap_or_else(|e| panic!("mkdir: {e}"));
    std::os::unix::fs::symlink(
        "../../src/skills/commit-pr",
        p.path(".claude/skills/commit-pr"),
    )
    .unwrap_or_else(|e| panic!("symlink: {e}"));
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\"src/**\", \"**/*.md\"]\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let files = stdout(p.src().args(["query", "files", "--format", "tsv"]));
    assert!(!files.contains(".claude/skills/commit-pr"), "{files}");
    // One file, one name: the skill's mention is an edge, not a tie with its second path.
    let edges = stdout(p.src().args(["query", "edges", "--format", "tsv"]));
    assert!(
        edges.contains("docs/guide.md\tsrc/skills/commit-pr/SKILL.md"),
        "{edges}"
    );
    // The file asked for by its second path is the file the index holds.
    let deps = stdout(
        p.src()
            .args(["dependents", ".claude/skills/commit-pr/SKILL.md"]),
    );
    assert!(deps.contains("src/skills/commit-pr/SKILL.md"), "{deps}");
    assert!(deps.contains("docs/guide.md"), "{deps}");
    let impact = stdout(
        p.src()
            .args(["impact", ".claude/skills/commit-pr/SKILL.md"]),
    );
    assert!(impact.contains("docs/guide.md"), "{impact}");
    // Where the scope leaves the folder's own path out, the link is the only way in.
    p.write(".src/config.yaml", "scope:\n  include: [\".claude/**\"]\n");
    p.src().args(["index", "--full"]).assert().success();
    let files = stdout(p.src().args(["query", "files", "--format", "tsv"]));
    assert!(
        files.contains(".claude/skills/commit-pr/SKILL.md"),
        "{files}"
    );
}

#[cfg(unix)]
#[test]
fn a_link_to_an_in_scope_file_bears_its_names_but_mentions_nothing_twice() {
    let p = Project::empty();
    p.write(".claude/agents/reviewer-bot.md", "Reviews.\n");
    p.write("AGENTS.md", "Hand reviews to reviewer-bot.\n");
    std::os::unix::fs::symlink("AGENTS.md", p.path("CLAUDE.md"))
        .unwrap_or_else(|e| panic!("symlink: {e}"));
    // The default scope holds CLAUDE.md, not AGENTS.md: the link is the only way its text is
    // in the index, and it is scanned.
    p.src().args(["index", "--full"]).assert().success();
    let edges = stdout(p.src().args(["query", "edges", "--format", "tsv"]));
    assert!(
        edges.contains("CLAUDE.md\t.claude/agents/reviewer-bot.md"),
        "{edges}"
    );
    // With AGENTS.md in scope, its mentions are its own, once; the link still bears its names.
    p.write(
        ".src/config.yaml",
        "scope:\n  include: [\".claude/**\", \"CLAUDE.md\", \"AGENTS.md\"]\n",
    );
    p.src().args(["index", "--full"]).assert().success();
    let edges = stdout(p.src().args(["query", "edges", "--format", "tsv"]));
    assert!(
        edges.contains("AGENTS.md\t.claude/agents/reviewer-bot.md"),
        "{edges}"
    );
    assert!(!edges.contains("CLAUDE.md\t.claude"), "{edges}");
    let files = stdout(p.src().args(["query", "files", "--format", "tsv"]));
    assert!(files.contains("CLAUDE.md"), "{files}");
}
