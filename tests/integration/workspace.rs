//! Root, database and config resolution through the real binary.

use crate::util::Project;

#[test]
fn init_is_idempotent_and_writes_config_and_gitignore() {
    let p = Project::empty();
    p.src().arg("init").assert().success();
    let cfg = std::fs::read_to_string(p.path(".src/config.yaml")).unwrap_or_default();
    assert!(cfg.starts_with("# src configuration"), "{cfg}");
    assert_eq!(
        std::fs::read_to_string(p.path(".src/.gitignore")).unwrap_or_default(),
        "*\n"
    );
    assert!(p.path(".src/src.db").exists());
    // Second run keeps the config byte for byte.
    std::fs::write(p.path(".src/config.yaml"), "names:\n  min_stem_len: 5\n").unwrap_or_default();
    p.src().arg("init").assert().success();
    let kept = std::fs::read_to_string(p.path(".src/config.yaml")).unwrap_or_default();
    assert_eq!(kept, "names:\n  min_stem_len: 5\n");
}

#[test]
fn corrupt_config_is_a_clear_error_with_file_and_line() {
    let p = Project::empty();
    p.write(".src/config.yaml", "scope:\n  include: [unclosed\n");
    let out = p
        .src()
        .arg("init")
        .assert()
        .failure()
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&out);
    assert!(err.contains("config.yaml:"), "{err}");
}

#[test]
fn db_and_config_outside_the_root_leave_the_tree_untouched() {
    let p = Project::empty();
    let state = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    p.src()
        .arg("--db")
        .arg(state.path().join("x.db"))
        .arg("--config")
        .arg(state.path().join("c.yaml"))
        .arg("init")
        .assert()
        .success();
    assert!(state.path().join("x.db").exists());
    assert!(!p.path(".src/src.db").exists());
}
