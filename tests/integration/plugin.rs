//! The Claude Code plugin (`src plugin export`, the checked-in `plugin/` tree) and what `src
//! init --claude` and `src doctor` make of a plugin install, of the hook entries they own, of
//! other hooks' missing scripts and of a project's own skills of our names.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::util::{src, stdout_of, Project};

/// `Event [matcher]: ` (or `Event: `) of each entry src installs, as doctor names them.
fn wanted_names() -> Vec<String> {
    let types = src_engine::facts::Config::default()
        .alerts
        .implementer_types;
    src_engine::facts::wanted_hooks(&types)
        .into_iter()
        .map(|w| match w.matcher {
            Some(m) => format!("{} [{m}]: ", w.event),
            None => format!("{}: ", w.event),
        })
        .collect()
}

/// Every file under `dir`, relative, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let entries = std::fs::read_dir(dir.join(&rel))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.join(&rel).display()));
        for entry in entries.flatten() {
            let child = rel.join(entry.file_name());
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(child);
            } else {
                out.push(child);
            }
        }
    }
    out.sort();
    out
}

fn export(to: &Path) -> String {
    stdout_of(src().arg("plugin").arg("export").arg(to))
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `(event, matcher, sub, timeout)` of every handler whose command ends in `hook-ish <sub>`.
fn entries(
    doc: &Value,
    sub_of: impl Fn(&str) -> Option<String>,
) -> Vec<(String, String, String, u64)> {
    let mut out = Vec::new();
    for (event, groups) in doc["hooks"].as_object().into_iter().flatten() {
        for g in groups.as_array().into_iter().flatten() {
            let matcher = g["matcher"].as_str().unwrap_or_default().to_string();
            for h in g["hooks"].as_array().into_iter().flatten() {
                if let Some(sub) = h["command"].as_str().and_then(&sub_of) {
                    let t = h["timeout"].as_u64().unwrap_or(0);
                    out.push((event.clone(), matcher.clone(), sub, t));
                }
            }
        }
    }
    out.sort();
    out
}

fn last_word(cmd: &str) -> Option<String> {
    cmd.split_whitespace().last().map(String::from)
}

/// Findings of `src doctor --json` as `(status, check, message)`.
fn doctor(cmd: &mut assert_cmd::Command) -> (Value, Vec<(String, String, String)>) {
    let out = cmd
        .args(["doctor", "--json"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let rep: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    let findings = rep["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or_default().to_string();
            (s("status"), s("check"), s("message"))
        })
        .collect();
    (rep, findings)
}

#[test]
fn the_checked_in_plugin_is_what_export_writes() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("plugin");
    export(&out);
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin");
    let (ours, theirs) = (files_under(&out), files_under(&repo));
    assert_eq!(
        ours, theirs,
        "plugin/ differs from `src plugin export`: run `src plugin export plugin`"
    );
    for rel in &ours {
        assert_eq!(
            std::fs::read(out.join(rel)).unwrap_or_default(),
            std::fs::read(repo.join(rel)).unwrap_or_default(),
            "plugin/{} differs from `src plugin export`: run `src plugin export plugin`",
            rel.display()
        );
    }
    for want in [
        ".claude-plugin/plugin.json",
        ".claude-plugin/marketplace.json",
        "hooks/hooks.json",
        "skills/execution-impact/SKILL.md",
        "skills/execution-cascade/SKILL.md",
        "skills/manage-codebase/SKILL.md",
    ] {
        assert!(ours.contains(&PathBuf::from(want)), "{want} missing");
    }
    let manifest = read_json(&out.join(".claude-plugin/plugin.json"));
    assert_eq!(manifest["name"], "src");
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"));
    let market = read_json(&out.join(".claude-plugin/marketplace.json"));
    assert_eq!(market["plugins"][0]["name"], "src");
    assert_eq!(market["plugins"][0]["source"], "./");
    // The skills are the texts `src init --claude` installs.
    let p = Project::empty();
    p.src().args(["init", "--claude"]).assert().success();
    for name in ["execution-impact", "execution-cascade", "manage-codebase"] {
        assert_eq!(
            std::fs::read_to_string(out.join(format!("skills/{name}/SKILL.md"))).ok(),
            std::fs::read_to_string(p.path(&format!(".claude/skills/{name}/SKILL.md"))).ok(),
            "{name}"
        );
    }
}

#[test]
fn the_plugin_hooks_are_the_entries_init_installs() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    export(tmp.path());
    let plugin = entries(&read_json(&tmp.path().join("hooks/hooks.json")), |c| {
        c.contains("${CLAUDE_PLUGIN_ROOT}/hooks/src-hook.sh")
            .then(|| last_word(c))
            .flatten()
    });
    let p = Project::empty();
    p.src().args(["init", "--claude"]).assert().success();
    let installed = entries(&read_json(&p.path(".claude/settings.json")), |c| {
        c.contains("' hook ").then(|| last_word(c)).flatten()
    });
    assert!(installed.len() >= 4, "{installed:?}");
    assert_eq!(plugin, installed);
}

#[test]
fn export_updates_its_own_folder_and_refuses_any_other() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let dir = tmp.path().join("p");
    let first = export(&dir);
    assert!(first.contains("8 file(s) written"), "{first}");
    let again = export(&dir);
    assert!(again.contains("0 file(s) written, 8 unchanged"), "{again}");
    // A changed file is put back; a file of the user's is named and left alone.
    let hooks = dir.join("hooks/hooks.json");
    let want = std::fs::read_to_string(&hooks).unwrap_or_default();
    std::fs::write(&hooks, "{}").unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("NOTES.md"), "mine").unwrap_or_else(|e| panic!("{e}"));
    let fixed = export(&dir);
    assert!(fixed.contains("1 file(s) written"), "{fixed}");
    assert!(
        fixed.contains("left alone:") && fixed.contains("NOTES.md"),
        "{fixed}"
    );
    assert_eq!(std::fs::read_to_string(&hooks).unwrap_or_default(), want);
    assert_eq!(
        std::fs::read_to_string(dir.join("NOTES.md")).unwrap_or_default(),
        "mine"
    );
    // The hook script can be run directly.
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(dir.join("hooks/src-hook.sh"))
        .map(|m| m.permissions().mode())
        .unwrap_or(0);
    assert_ne!(mode & 0o100, 0, "{mode:o}");
    // Any other non-empty folder is refused untouched.
    let other = tmp.path().join("other");
    std::fs::create_dir_all(&other).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(other.join("a.txt"), "x").unwrap_or_else(|e| panic!("{e}"));
    let out = src()
        .arg("plugin")
        .arg("export")
        .arg(&other)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("holds no src plugin"), "{err}");
    assert_eq!(files_under(&other), vec![PathBuf::from("a.txt")]);
}

#[test]
fn an_export_inside_a_project_keeps_what_it_replaces() {
    let p = Project::empty();
    p.src().args(["init"]).assert().success();
    let dir = p.path("plugin");
    stdout_of(p.src().arg("plugin").arg("export").arg(&dir));
    std::fs::write(dir.join("README.md"), "edited\n").unwrap_or_else(|e| panic!("{e}"));
    let out = stdout_of(p.src().arg("plugin").arg("export").arg(&dir));
    let kept = out
        .lines()
        .find_map(|l| l.strip_prefix("backup: "))
        .and_then(|l| l.split(" kept as ").nth(1))
        .unwrap_or_else(|| panic!("no backup named: {out}"));
    assert!(kept.contains("/.src/backup/"), "{kept}");
    assert_eq!(
        std::fs::read_to_string(kept).unwrap_or_default(),
        "edited\n"
    );
}

/// The plugin's hook script runs `src hook`, and without any src it exits 0 silently.
#[test]
fn the_plugin_hook_script_runs_src_or_nothing() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let plug = tmp.path().join("plug");
    export(&plug);
    let p = Project::from_fixture("claude-tree");
    p.src().args(["index"]).assert().success();
    let target = p.path(".claude/skills/execution-code/SKILL.md");
    let payload = |id: &str| {
        json!({
            "session_id": "s-plugin", "hook_event_name": "PostToolUse", "cwd": p.root(),
            "agent_id": "a1", "agent_type": "implementer", "tool_name": "Edit",
            "tool_input": {"file_path": target, "old_string": "a", "new_string": "b"},
            "tool_response": {"filePath": target}, "tool_use_id": id,
        })
        .to_string()
    };
    let script = plug.join("hooks/src-hook.sh");
    let bin = assert_cmd::cargo::cargo_bin("src");
    let run = |id: &str, env: &[(&str, &Path)]| {
        let mut cmd = std::process::Command::new("sh");
        cmd.arg(&script)
            .arg("post-tool-use")
            .current_dir(p.root())
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", tmp.path())
            .env("CLAUDE_PROJECT_DIR", p.root())
            .env("CLAUDE_CONFIG_DIR", tmp.path().join("no-claude"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().unwrap_or_else(|e| panic!("{e}"));
        if let Some(mut stdin) = child.stdin.take() {
            use std::io::Write;
            let _ = stdin.write_all(payload(id).as_bytes());
        }
        child.wait_with_output().unwrap_or_else(|e| panic!("{e}"))
    };
    let events = |id: &str| {
        stdout_of(p.src().args([
            "query",
            "--sql",
            "SELECT tool_use_id FROM events",
            "--format",
            "tsv",
        ]))
        .lines()
        .filter(|l| *l == id)
        .count()
    };
    // No src anywhere: nothing recorded, nothing printed, exit 0.
    let none = run("toolu_plugin_0", &[]);
    assert_eq!(none.status.code(), Some(0), "{none:?}");
    assert!(none.stdout.is_empty() && none.stderr.is_empty(), "{none:?}");
    assert_eq!(events("toolu_plugin_0"), 0);
    // SRC_BIN names it; cargo's bin folder under HOME is found too.
    let named = run("toolu_plugin_1", &[("SRC_BIN", bin.as_path())]);
    assert_eq!(named.status.code(), Some(0), "{named:?}");
    assert_eq!(events("toolu_plugin_1"), 1);
    let cargo_home = tmp.path().join("cargo");
    std::fs::create_dir_all(cargo_home.join("bin")).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(&bin, cargo_home.join("bin/src")).unwrap_or_else(|e| panic!("{e}"));
    let cargo = run("toolu_plugin_2", &[("CARGO_HOME", cargo_home.as_path())]);
    assert_eq!(cargo.status.code(), Some(0), "{cargo:?}");
    assert_eq!(events("toolu_plugin_2"), 1);
}

/// A fake client configuration with the plugin installed (user scope) from an export.
fn client_with_plugin(cfg: &Path, plugin_dir: &Path, enabled: bool) {
    let cache = cfg
        .join("plugins/cache/src/src")
        .join(env!("CARGO_PKG_VERSION"));
    export(&cache);
    std::fs::write(
        cfg.join("settings.json"),
        json!({
            "extraKnownMarketplaces": {"src": {"source": {"source": "directory", "path": plugin_dir}}},
            "enabledPlugins": {"src@src": enabled},
        })
        .to_string(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        cfg.join("plugins/installed_plugins.json"),
        json!({"version": 2, "plugins": {"src@src": [{
            "scope": "user", "installPath": cache, "version": env!("CARGO_PKG_VERSION"),
        }]}})
        .to_string(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn with_the_plugin_installed_init_adds_no_settings_hooks_and_doctor_is_full() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let cfg = tmp.path().join("claude");
    client_with_plugin(&cfg, &tmp.path().join("plug"), true);
    let bin = assert_cmd::cargo::cargo_bin("src");
    let p = Project::empty();
    p.write(".claude/settings.json", "{\"model\": \"opus\"}\n");
    let with = |cmd: &mut assert_cmd::Command| {
        cmd.env("CLAUDE_CONFIG_DIR", &cfg).env("SRC_BIN", &bin);
    };
    let mut init = p.src();
    with(&mut init);
    let out = stdout_of(init.args(["init", "--claude"]));
    assert!(
        out.contains("hooks: provided by the plugin src@src; no entries added"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(p.path(".claude/settings.json")).unwrap_or_default(),
        "{\"model\": \"opus\"}\n"
    );
    let mut d = p.src();
    with(&mut d);
    let (rep, f) = doctor(&mut d);
    assert_eq!(rep["level"], "full", "{rep}");
    assert!(!f.iter().any(|(s, ..)| s == "error"), "{f:?}");
    let plugin_entries: Vec<&String> = f
        .iter()
        .filter(|(s, c, m)| s == "ok" && c == "hooks" && m.ends_with("(plugin src@src)"))
        .map(|(.., m)| m)
        .collect();
    assert_eq!(plugin_entries.len(), wanted_names().len(), "{f:?}");
    for want in wanted_names() {
        assert!(
            plugin_entries.iter().any(|m| m.starts_with(&want)),
            "{want} in {f:?}"
        );
    }
    assert!(
        f.iter().any(|(s, c, m)| s == "ok"
            && c == "plugin"
            && m.contains(bin.to_string_lossy().as_ref())),
        "{f:?}"
    );

    // Settings entries as well: both run, and doctor says so.
    p.src().args(["hooks", "install"]).assert().success();
    let mut d = p.src();
    with(&mut d);
    let (_, f) = doctor(&mut d);
    assert!(
        f.iter()
            .any(|(s, _, m)| s == "warn" && m.contains("installed twice")),
        "{f:?}"
    );
    let mut init = p.src();
    with(&mut init);
    let out = stdout_of(init.args(["init", "--claude"]));
    assert!(out.contains("src hooks install --uninstall"), "{out}");
    p.src()
        .args(["hooks", "install", "--uninstall"])
        .assert()
        .success();

    // The plugin disabled for this project: one "not configured" per hook, not two.
    p.write(
        ".claude/settings.local.json",
        "{\"enabledPlugins\": {\"src@src\": false}}",
    );
    let mut d = p.src();
    with(&mut d);
    let (rep, f) = doctor(&mut d);
    assert_eq!(rep["level"], "none", "{rep}");
    let missing: Vec<&String> = f
        .iter()
        .filter(|(s, _, m)| s == "error" && m.contains("is not configured"))
        .map(|(.., m)| m)
        .collect();
    assert_eq!(missing.len(), 3, "{f:?}");
}

#[test]
fn a_plugin_whose_hooks_find_no_src_is_one_error() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let cfg = tmp.path().join("claude");
    client_with_plugin(&cfg, &tmp.path().join("plug"), true);
    let p = Project::empty();
    p.src().args(["init"]).assert().success();
    let (rep, f) = doctor(
        p.src()
            .env("CLAUDE_CONFIG_DIR", &cfg)
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", tmp.path())
            .env_remove("SRC_BIN")
            .env_remove("CARGO_HOME"),
    );
    assert_eq!(rep["level"], "none", "{rep}");
    assert_eq!(
        rep["reason"], "the plugin's hooks find no src binary",
        "{rep}"
    );
    let errors: Vec<&String> = f
        .iter()
        .filter(|(s, ..)| s == "error")
        .map(|(.., m)| m)
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("find no src binary"), "{errors:?}");
}

#[test]
fn doctor_lists_every_entry_it_installed_and_the_hooks_whose_script_is_gone() {
    let p = Project::from_fixture("claude-tree");
    std::fs::create_dir_all(p.path(".claude/hooks")).unwrap_or_else(|e| panic!("{e}"));
    p.write(".claude/hooks/present.sh", "#!/bin/sh\n");
    let mut doc = read_json(&p.path(".claude/settings.json"));
    let extra = |cmd: &str| json!({"hooks": [{"type": "command", "command": cmd}]});
    doc["hooks"]["Stop"] = json!([
        extra("\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/gone.sh --flag"),
        extra("python3 ${CLAUDE_PROJECT_DIR}/.claude/hooks/gone.py"),
        extra("$CLAUDE_PROJECT_DIR/.claude/hooks/present.sh"),
        extra("bash .claude/hooks/present.sh"),
        extra("echo done | tee /tmp/x"),
        extra("$SOME_TOOL/run.sh"),
    ]);
    p.write(
        ".claude/settings.json",
        &serde_json::to_string_pretty(&doc).unwrap_or_default(),
    );
    p.src().args(["init", "--claude"]).assert().success();
    let (rep, f) = doctor(&mut p.src());
    assert_eq!(rep["level"], "full", "{rep}");
    let ours: Vec<&String> = f
        .iter()
        .filter(|(s, c, m)| s == "ok" && c == "hooks" && m.contains(" hook "))
        .map(|(.., m)| m)
        .collect();
    // Every entry, each once: the two `deliver` entries used to show as one.
    let wanted = wanted_names();
    assert!(wanted.len() >= 4, "{wanted:?}");
    for want in &wanted {
        assert_eq!(
            ours.iter().filter(|m| m.starts_with(want.as_str())).count(),
            1,
            "{want} in {ours:?}"
        );
    }
    assert_eq!(ours.len(), wanted.len(), "{ours:?}");
    let gone: Vec<&String> = f
        .iter()
        .filter(|(s, _, m)| s == "warn" && m.contains("which does not exist"))
        .map(|(.., m)| m)
        .collect();
    // The fixture's five absolute /home/dev/project scripts, and the two of Stop.
    assert_eq!(gone.len(), 7, "{gone:?}");
    assert!(
        gone.iter().any(|m| m.starts_with(
            "Stop in .claude/settings.json runs \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/gone.sh"
        ) || m.contains(".claude/hooks/gone.sh, which")),
        "{gone:?}"
    );
    assert!(gone.iter().any(|m| m.contains("gone.py")), "{gone:?}");
    assert!(
        !gone
            .iter()
            .any(|m| m.contains("present.sh") || m.contains("run.sh") || m.contains("tee")),
        "{gone:?}"
    );
}

#[test]
fn a_projects_own_skills_of_our_names_are_said_plainly_and_replaced_with_force() {
    let p = Project::from_fixture("claude-tree");
    let out = stdout_of(p.src().args(["init", "--claude"]));
    let tail: Vec<&str> = out.lines().rev().take(5).collect();
    assert!(
        tail.iter()
            .any(|l| l.starts_with("note: this project has its own skills")),
        "{out}"
    );
    assert!(
        out.trim_end()
            .ends_with("`src init --claude --uninstall` puts them back)"),
        "{out}"
    );
    for name in ["execution-impact", "execution-cascade", "manage-codebase"] {
        assert!(
            out.contains(&format!("  .claude/skills/{name}/SKILL.md\n")),
            "{out}"
        );
    }
    let (_, f) = doctor(&mut p.src());
    let foreign: Vec<&String> = f
        .iter()
        .filter(|(s, c, m)| s == "warn" && c == "skills" && m.contains("names no src command"))
        .map(|(.., m)| m)
        .collect();
    assert_eq!(foreign.len(), 3, "{f:?}");
    assert!(
        foreign
            .iter()
            .all(|m| m.contains("`src init --claude --force`")),
        "{foreign:?}"
    );
    let before = std::fs::read_to_string(p.path(".claude/skills/execution-impact/SKILL.md"))
        .unwrap_or_default();
    let forced = stdout_of(p.src().args(["init", "--claude", "--force"]));
    assert!(
        !forced.contains("note: this project has its own skills"),
        "{forced}"
    );
    let (_, f) = doctor(&mut p.src());
    assert!(
        !f.iter().any(|(s, c, _)| s == "warn" && c == "skills"),
        "{f:?}"
    );
    stdout_of(p.src().args(["init", "--claude", "--uninstall"]));
    assert_eq!(
        std::fs::read_to_string(p.path(".claude/skills/execution-impact/SKILL.md"))
            .unwrap_or_default(),
        before
    );
}
