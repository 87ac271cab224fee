//! The Claude Code plugin of `src`: the tree `src plugin export` writes, and where the client
//! records that the plugin is installed and enabled.
//!
//! Owns the plugin's files (manifest, marketplace, `hooks/hooks.json`, the hook script, the three
//! skills) and the reading of the client's plugin records. Does not own the hook list (that is
//! `install::settings::wanted`) nor the skill texts (`skills::TEMPLATES`): both are read, never
//! copied. Invariant: the tree is a pure function of this binary (the checked-in `plugin/` equals
//! it, a test checks), and its hooks are exactly the entries `src init --claude` writes into the
//! settings, with the same events, matchers and timeouts.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::{json, Map, Value};

use super::settings::{self, Wanted};

/// The plugin's name (`src:execution-impact` is how its skills appear in the client).
pub const NAME: &str = "src";
/// The marketplace the tree declares, so `claude plugin install src@src` finds it.
pub const MARKETPLACE: &str = "src";
/// The script every plugin hook runs, relative to the plugin root.
pub const HOOK_SCRIPT: &str = "hooks/src-hook.sh";

const DESCRIPTION: &str = "Which files became stale after an edit: records what implementer \
subagents change and hands the lead the files that mention it (needs the src binary)";

/// One file of the plugin tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// Relative to the plugin root, `/`-separated.
    pub path: String,
    pub text: String,
    pub executable: bool,
}

/// The whole plugin tree, in a fixed order.
pub fn tree() -> Result<Vec<File>> {
    let file = |path: &str, text: String| File {
        path: path.into(),
        text,
        executable: false,
    };
    let pretty = |v: &Value| -> Result<String> {
        let mut s = serde_json::to_string_pretty(v).context("encoding the plugin's JSON")?;
        s.push('\n');
        Ok(s)
    };
    let manifest = json!({
        "name": NAME,
        "version": env!("CARGO_PKG_VERSION"),
        "description": DESCRIPTION,
        "author": {"name": "src"},
        "license": env!("CARGO_PKG_LICENSE"),
        "keywords": ["impact-analysis", "hooks", "subagents", "dependents"],
    });
    let marketplace = json!({
        "name": MARKETPLACE,
        "description": "The src plugin, from a clone of its repository",
        "owner": {"name": "src"},
        "plugins": [{"name": NAME, "source": "./", "description": DESCRIPTION}],
    });
    let wanted = settings::wanted(&crate::config::Config::default().alerts.implementer_types);
    let mut files = vec![
        file(".claude-plugin/plugin.json", pretty(&manifest)?),
        file(".claude-plugin/marketplace.json", pretty(&marketplace)?),
        file("hooks/hooks.json", pretty(&hooks_json(&wanted))?),
        File {
            path: HOOK_SCRIPT.into(),
            text: HOOK_SCRIPT_TEXT.into(),
            executable: true,
        },
    ];
    for (name, text) in super::skills::TEMPLATES {
        files.push(file(&format!("skills/{name}/SKILL.md"), text.to_string()));
    }
    files.push(file("README.md", README.into()));
    Ok(files)
}

/// The command a plugin hook runs for `src hook <sub>`. Through `sh`, so the script works
/// whatever mode the client's copy of the plugin gives it.
pub fn hook_command(sub: &str) -> String {
    format!("sh \"${{CLAUDE_PLUGIN_ROOT}}/{HOOK_SCRIPT}\" {sub}")
}

/// The `src hook` subcommand a plugin hook command runs, when it is ours.
pub fn parse_command(command: &str) -> Option<String> {
    let rest = command.trim().split_once(HOOK_SCRIPT)?.1;
    let sub = rest.trim_start_matches(['"', '\'']).trim();
    // Any one subcommand word: the script's path is what marks the command as ours.
    let word = !sub.is_empty() && sub.bytes().all(|b| b.is_ascii_lowercase() || b == b'-');
    word.then(|| sub.to_string())
}

/// `hooks/hooks.json` for the wanted entries: one group per entry, events in first-seen order.
pub fn hooks_json(wanted: &[Wanted]) -> Value {
    let mut events = Map::new();
    for w in wanted {
        let mut group = Map::new();
        if let Some(m) = &w.matcher {
            group.insert("matcher".into(), json!(m));
        }
        group.insert(
            "hooks".into(),
            json!([{"type": "command", "command": hook_command(&w.sub), "timeout": w.timeout}]),
        );
        if let Some(arr) = events
            .entry(w.event.clone())
            .or_insert_with(|| json!([]))
            .as_array_mut()
        {
            arr.push(Value::Object(group));
        }
    }
    json!({
        "description": "src: record edits, store the impact alert when an implementer stops, \
                        deliver it to the lead",
        "hooks": events,
    })
}

/// One hook handler of a settings file or a `hooks.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handler {
    pub event: String,
    /// `None` for no matcher or an empty one.
    pub matcher: Option<String>,
    pub command: String,
    pub timeout: Option<u64>,
}

/// Every command handler in a document holding a `hooks` object.
pub fn handlers(doc: &Value) -> Vec<Handler> {
    let mut out = Vec::new();
    let Some(hooks) = doc.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    for (event, groups) in hooks {
        for group in groups.as_array().into_iter().flatten() {
            let matcher = group
                .get("matcher")
                .and_then(Value::as_str)
                .filter(|m| !m.is_empty())
                .map(String::from);
            for h in group
                .get("hooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(command) = h.get("command").and_then(Value::as_str) {
                    out.push(Handler {
                        event: event.clone(),
                        matcher: matcher.clone(),
                        command: command.to_string(),
                        timeout: h.get("timeout").and_then(Value::as_u64),
                    });
                }
            }
        }
    }
    out
}

/// Which settings file enabled or disabled the plugin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Local,
    Project,
    User,
}

impl Scope {
    pub fn word(self) -> &'static str {
        match self {
            Scope::Local => "local",
            Scope::Project => "project",
            Scope::User => "user",
        }
    }
}

/// What the client's files say about the plugin for one project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Install {
    /// `src@<marketplace>`, the key of `enabledPlugins` and of the install records.
    pub key: String,
    /// The value of the settings file that decides (local over project over user), and that file.
    pub enabled: Option<(bool, Scope, PathBuf)>,
    /// The installed copy that applies to this project, from `plugins/installed_plugins.json`.
    pub install_path: Option<PathBuf>,
    pub version: Option<String>,
}

impl Install {
    /// Enabled and present in the client's plugin cache: its hooks run.
    pub fn active(&self) -> bool {
        matches!(self.enabled, Some((true, ..)))
            && self.install_path.as_ref().is_some_and(|p| p.is_dir())
    }

    /// The installed copy's hook handlers; `None` when its `hooks/hooks.json` is unreadable.
    pub fn handlers(&self) -> Option<Vec<Handler>> {
        let path = self.install_path.as_ref()?.join("hooks/hooks.json");
        let text = std::fs::read_to_string(path).ok()?;
        serde_json::from_str(&text).ok().map(|v| handlers(&v))
    }
}

/// The client's configuration folder: `CLAUDE_CONFIG_DIR`, else `~/.claude`.
pub fn claude_config_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("CLAUDE_CONFIG_DIR").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(d));
    }
    std::env::var_os("HOME")
        .filter(|v| !v.is_empty())
        .map(|h| PathBuf::from(h).join(".claude"))
}

/// The plugin as the client sees it for the project at `root`: enabled by `enabledPlugins` in
/// the project's local or shared settings or the user's, and installed per the user's install
/// records. `None` when no file names it. Unreadable files count as saying nothing (the settings
/// check reports them).
pub fn find_install(root: &Path, config_dir: Option<&Path>) -> Option<Install> {
    let claude = root.join(".claude");
    let mut files = vec![
        (Scope::Local, claude.join("settings.local.json")),
        (Scope::Project, claude.join("settings.json")),
    ];
    if let Some(d) = config_dir {
        files.push((Scope::User, d.join("settings.json")));
    }
    let docs: Vec<(Scope, PathBuf, Value)> = files
        .into_iter()
        .filter_map(|(s, p)| {
            let (doc, _) = settings::read(&p).ok()?;
            Some((s, p, doc))
        })
        .collect();
    let records = config_dir
        .and_then(|d| std::fs::read_to_string(d.join("plugins/installed_plugins.json")).ok())
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .unwrap_or(Value::Null);
    let ours = |k: &String| k.split_once('@').is_some_and(|(name, _)| name == NAME);
    let mut keys: Vec<String> = docs
        .iter()
        .filter_map(|(_, _, d)| d.get("enabledPlugins")?.as_object())
        .flat_map(|o| o.keys().cloned())
        .chain(
            records
                .get("plugins")
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(|o| o.keys().cloned()),
        )
        .filter(ours)
        .collect();
    keys.sort();
    keys.dedup();
    let here = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let installs = keys.into_iter().map(|key| {
        let enabled = docs.iter().find_map(|(s, p, d)| {
            let v = d.get("enabledPlugins")?.get(&key)?;
            // An array of version constraints also means enabled (older clients wrote them).
            Some((v.as_bool().unwrap_or(!v.is_null()), *s, p.clone()))
        });
        let record = records
            .get("plugins")
            .and_then(|p| p.get(&key))
            .and_then(Value::as_array)
            .and_then(|entries| {
                entries.iter().find(|e| {
                    match e.get("projectPath").and_then(Value::as_str) {
                        // A project-scoped install applies to its own project only.
                        Some(p) => Path::new(p).canonicalize().ok().as_deref() == Some(&here),
                        None => true,
                    }
                })
            });
        Install {
            key,
            enabled,
            install_path: record
                .and_then(|r| r.get("installPath")?.as_str())
                .map(PathBuf::from),
            version: record
                .and_then(|r| r.get("version")?.as_str())
                .map(String::from),
        }
    });
    // The one that runs, else the one that is enabled, else any record that applies here (a
    // project-scoped install of another project does not).
    installs
        .filter(|i| i.enabled.is_some() || i.install_path.is_some())
        .max_by_key(|i| {
            (
                i.active(),
                matches!(i.enabled, Some((true, ..))),
                i.install_path.is_some(),
            )
        })
}

/// The binary the plugin's hook script runs, found as the script finds it: `SRC_BIN`, `src` on
/// PATH, then cargo's bin folder.
pub fn hook_binary() -> Option<PathBuf> {
    let exe = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let named = std::env::var_os("SRC_BIN").filter(|v| !v.is_empty());
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .filter(|d| !d.as_os_str().is_empty())
            .map(|d| d.join("src"))
            .find(|p| exe(p))
    });
    let cargo = std::env::var_os("CARGO_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .map(|c| c.join("bin/src"));
    named
        .map(PathBuf::from)
        .into_iter()
        .chain(on_path)
        .chain(cargo)
        .find(|p| exe(p))
}

/// The script behind every plugin hook (POSIX sh).
const HOOK_SCRIPT_TEXT: &str = r#"#!/bin/sh
# The src plugin's hooks run `src hook <name>` through this script. src is a native binary
# installed apart from the plugin (`cargo install`); Claude Code runs hooks with its own PATH,
# which need not hold cargo's bin folder, so that is tried too. SRC_BIN names the binary outright.
# Without src the hook reads its input and exits 0: a hook never fails the session.
if [ -n "${SRC_BIN:-}" ] && [ -f "$SRC_BIN" ] && [ -x "$SRC_BIN" ]; then
  exec "$SRC_BIN" hook "$@"
fi
if command -v src >/dev/null 2>&1; then
  exec src hook "$@"
fi
bin=${CARGO_HOME:-$HOME/.cargo}/bin/src
if [ -f "$bin" ] && [ -x "$bin" ]; then
  exec "$bin" hook "$@"
fi
cat >/dev/null 2>&1
exit 0
"#;

const README: &str = r#"# The src plugin for Claude Code

Generated by `src plugin export plugin` (do not edit: a test compares this folder with the
export). It wires src's hooks into Claude Code and adds its three skills
(`src:execution-impact`, `src:execution-cascade`, `src:manage-codebase`).

The hooks run the `src` binary, which this plugin does not contain: install it first
(`cargo install --path .` from a clone puts it in `~/.cargo/bin`, which the hooks also look in;
`SRC_BIN=/path/to/src` names it outright).

```sh
claude plugin marketplace add ./plugin     # from a clone of the src repository
claude plugin install src@src              # --scope project to share it through .claude/settings.json
cd your-project && src init --claude       # config, database, first index; no settings hooks
src doctor                                 # recognises the plugin's hooks
```
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_hooks_are_the_settings_hooks() -> Result<()> {
        let files = tree()?;
        let hooks = files
            .iter()
            .find(|f| f.path == "hooks/hooks.json")
            .context("no hooks.json")?;
        let doc: Value = serde_json::from_str(&hooks.text)?;
        type Entry = (String, Option<String>, Option<String>, Option<u64>);
        let mut got: Vec<Entry> = handlers(&doc)
            .into_iter()
            .map(|h| (h.event, h.matcher, parse_command(&h.command), h.timeout))
            .collect();
        let mut want: Vec<Entry> =
            settings::wanted(&crate::config::Config::default().alerts.implementer_types)
                .into_iter()
                .map(|w| (w.event, w.matcher, Some(w.sub), Some(w.timeout)))
                .collect();
        got.sort();
        want.sort();
        assert_eq!(got, want);
        Ok(())
    }

    #[test]
    fn hook_commands_round_trip_and_foreign_ones_are_not_ours() {
        for sub in ["post-tool-use", "subagent-stop", "deliver"] {
            assert_eq!(parse_command(&hook_command(sub)).as_deref(), Some(sub));
        }
        assert_eq!(parse_command("sh /x/hooks/src-hook.sh two words"), None);
        assert_eq!(parse_command("sh /x/hooks/other.sh deliver"), None);
        assert_eq!(parse_command("'/usr/bin/src' hook deliver"), None);
    }

    #[test]
    fn an_install_is_found_by_scope_precedence() -> Result<()> {
        let home = tempfile::tempdir()?;
        let proj = tempfile::tempdir()?;
        let cfg = home.path().join(".claude");
        let cache = cfg.join("plugins/cache/src/src/0.1.0");
        std::fs::create_dir_all(&cache)?;
        std::fs::write(
            cfg.join("settings.json"),
            r#"{"enabledPlugins": {"src@src": true, "other@src": true}}"#,
        )?;
        std::fs::write(
            cfg.join("plugins/installed_plugins.json"),
            json!({"version": 2, "plugins": {"src@src": [
                {"scope": "project", "installPath": "/elsewhere", "projectPath": "/nope"},
                {"scope": "user", "installPath": cache, "version": "0.1.0"}
            ]}})
            .to_string(),
        )?;
        let found = find_install(proj.path(), Some(&cfg)).context("not found")?;
        assert_eq!(found.key, "src@src");
        assert!(found.active(), "{found:?}");
        assert_eq!(found.install_path.as_deref(), Some(cache.as_path()));
        assert!(matches!(found.enabled, Some((true, Scope::User, _))));
        // The project's local settings disable it for this project only.
        std::fs::create_dir_all(proj.path().join(".claude"))?;
        std::fs::write(
            proj.path().join(".claude/settings.local.json"),
            r#"{"enabledPlugins": {"src@src": false}}"#,
        )?;
        let off = find_install(proj.path(), Some(&cfg)).context("not found")?;
        assert!(!off.active());
        assert!(matches!(off.enabled, Some((false, Scope::Local, _))));
        // Without the user's folder only the project's word is known.
        let local = find_install(proj.path(), None).context("not found")?;
        assert_eq!(local.install_path, None);
        // No client files at all: nothing.
        let bare = tempfile::tempdir()?;
        assert_eq!(find_install(bare.path(), None), None);
        // Installed for another project only: nothing here.
        std::fs::remove_file(cfg.join("settings.json"))?;
        std::fs::write(
            cfg.join("plugins/installed_plugins.json"),
            json!({"version": 2, "plugins": {"src@src": [
                {"scope": "project", "installPath": cache, "projectPath": "/nope"}
            ]}})
            .to_string(),
        )?;
        assert_eq!(find_install(bare.path(), Some(&cfg)), None);
        Ok(())
    }
}
