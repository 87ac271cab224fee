//! The Claude Code side of `src doctor`: our hook entries by either route (settings or the
//! plugin), other hooks whose script is missing, and our skills.

use std::path::{Path, PathBuf};

use super::{Checks, Status};
use crate::config::{Config, Delivery};
use crate::install::plugin::{self, Handler};
use crate::install::{settings, skills};
use crate::workspace::Workspace;

/// Lists each of our hook entries, from the settings or from the plugin, and the other hook
/// commands whose script is missing. Returns Err with why the level is `none`, and whether the
/// plugin's hooks run.
pub(super) fn check_hooks(
    ws: &Workspace,
    config: &Config,
    c: &mut Checks,
) -> (Result<(), String>, bool) {
    let wanted = settings::wanted(&config.alerts.implementer_types);
    let cfg_dir = plugin::claude_config_dir();
    // Our handlers in the project's settings files: (file, handler, binary).
    let mut ours: Vec<(String, Handler, String)> = Vec::new();
    // Other entries whose script is missing, reported after ours.
    let mut broken: Vec<String> = Vec::new();
    let mut files = vec![
        ws.root.join(".claude/settings.json"),
        ws.root.join(".claude/settings.local.json"),
    ];
    let user = cfg_dir.as_ref().map(|d| d.join("settings.json"));
    files.extend(user.clone());
    for path in &files {
        let shown = ws
            .relative(path)
            .unwrap_or_else(|| path.display().to_string());
        let doc = match settings::read(path) {
            Ok((doc, true)) => doc,
            Ok((_, false)) => continue,
            Err(e) if Some(path) == user.as_ref() => {
                c.add(Status::Warn, "settings", format!("{e:#}"));
                continue;
            }
            Err(e) => {
                c.add(Status::Error, "settings", format!("{e:#}"));
                continue;
            }
        };
        for h in plugin::handlers(&doc) {
            match settings::parse_ours(&h.command) {
                Some((bin, _)) => ours.push((shown.clone(), h, bin)),
                None => {
                    if let Some((word, abs)) = missing_script(&h.command, &ws.root) {
                        let resolved = if Path::new(&word) == abs {
                            String::new()
                        } else {
                            format!(" ({})", abs.display())
                        };
                        broken.push(format!(
                            "{} in {shown} runs {word}, which does not exist{resolved}: fix or \
                             remove that entry",
                            entry_name(&h.event, h.matcher.as_deref()),
                        ));
                    }
                }
            }
        }
    }
    let required = |sub: &str| sub != "deliver" || config.alerts.delivery == Delivery::Lead;
    // Subcommands with a working entry, by either route.
    let mut covered: Vec<String> = Vec::new();

    if !ours.is_empty() {
        let mut used = vec![false; ours.len()];
        for w in &wanted {
            let matches = |h: &Handler| {
                settings::parse_ours(&h.command).is_some_and(|(_, sub)| sub == w.sub)
                    && h.event == w.event
                    && (h.matcher == w.matcher || w.event == "SubagentStop")
            };
            // The same handler in several settings files runs once: all of them are this entry.
            for (i, (_, h, _)) in ours.iter().enumerate() {
                used[i] |= matches(h);
            }
            let mut name = entry_name(&w.event, w.matcher.as_deref());
            match ours.iter().position(|(_, h, _)| matches(h)) {
                Some(i) => {
                    let (file, h, bin) = &ours[i];
                    // A SubagentStop matcher the user changed is shown as it is.
                    name = entry_name(&h.event, h.matcher.as_deref());
                    if is_executable(Path::new(bin)) {
                        c.add(
                            Status::Ok,
                            "hooks",
                            format!("{name}: {bin} hook {} ({file})", w.sub),
                        );
                        covered.push(w.sub.clone());
                    } else {
                        c.add(
                            Status::Error,
                            "hooks",
                            format!(
                                "{name} ({file}): {bin} is not an executable file (run `src \
                                 hooks install`)"
                            ),
                        );
                    }
                }
                None if required(&w.sub) => c.add(
                    Status::Warn,
                    "hooks",
                    format!(
                        "{name}: no `src hook {}` entry (run `src hooks install`)",
                        w.sub
                    ),
                ),
                None => {}
            }
        }
        for (i, (file, h, _)) in ours.iter().enumerate() {
            if !used[i] {
                c.add(
                    Status::Warn,
                    "hooks",
                    format!(
                        "{} in {file}: `{}` is not an entry this src installs (`src hooks \
                         install --uninstall` then `src hooks install` puts back the current set)",
                        entry_name(&h.event, h.matcher.as_deref()),
                        h.command
                    ),
                );
            }
        }
    }

    let install = plugin::find_install(&ws.root, cfg_dir.as_deref());
    let mut plugin_runs = false;
    if let Some(inst) = &install {
        plugin_runs = check_plugin(inst, &wanted, &mut covered, c);
    }
    if plugin_runs && !ours.is_empty() {
        c.add(
            Status::Warn,
            "hooks",
            format!(
                "installed twice: by the plugin {} and in {}; every hook runs twice. Keep one: \
                 `src hooks install --uninstall` removes the settings entries",
                install
                    .as_ref()
                    .map(|i| i.key.as_str())
                    .unwrap_or(plugin::NAME),
                ours[0].0
            ),
        );
    }

    for b in broken {
        c.add(Status::Warn, "hooks", b);
    }
    let mut missing = Vec::new();
    for sub in ["post-tool-use", "subagent-stop", "deliver"] {
        if !required(sub) || covered.iter().any(|s| s == sub) {
            continue;
        }
        // An entry that exists but fails was reported above; say "not configured" only once.
        let listed = ours
            .iter()
            .any(|(_, h, _)| settings::parse_ours(&h.command).is_some_and(|(_, s)| s == sub));
        let plugin_listed = install.as_ref().is_some_and(plugin::Install::active);
        if !listed && !plugin_listed {
            c.add(
                Status::Error,
                "hooks",
                format!(
                    "`src hook {sub}` is not configured (run `src init --claude`, or install the \
                     plugin: `src plugin export DIR`, then `claude plugin marketplace add DIR` \
                     and `claude plugin install {}@{}`)",
                    plugin::NAME,
                    plugin::MARKETPLACE
                ),
            );
        }
        missing.push(sub);
    }
    let plugin_without_binary =
        install.as_ref().is_some_and(plugin::Install::active) && !plugin_runs;
    let level = match missing.first() {
        None => Ok(()),
        Some(_) if plugin_without_binary && ours.is_empty() => {
            Err("the plugin's hooks find no src binary".to_string())
        }
        Some(sub) => Err(format!(
            "hook `{sub}` is not configured or its binary is missing"
        )),
    };
    (level, plugin_runs)
}

/// The plugin's state and, when it runs, each of its hook entries. Returns whether its hooks
/// run; adds the subcommands it serves to `covered`.
fn check_plugin(
    inst: &plugin::Install,
    wanted: &[settings::Wanted],
    covered: &mut Vec<String>,
    c: &mut Checks,
) -> bool {
    let key = &inst.key;
    match &inst.enabled {
        Some((false, scope, file)) => {
            c.add(
                Status::Ok,
                "plugin",
                format!(
                    "{key} is disabled in the {} settings ({})",
                    scope.word(),
                    file.display()
                ),
            );
            return false;
        }
        None => {
            c.add(
                Status::Warn,
                "plugin",
                format!("{key} is installed but not enabled (`claude plugin enable {key}`)"),
            );
            return false;
        }
        Some((true, ..)) if !inst.active() => {
            c.add(
                Status::Warn,
                "plugin",
                format!(
                    "{key} is enabled but not installed in the client's plugin folder \
                     (`claude plugin install {key}`)"
                ),
            );
            return false;
        }
        Some((true, scope, file)) => {
            let version = inst.version.as_deref().unwrap_or("unknown version");
            let at = inst
                .install_path
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            c.add(
                Status::Ok,
                "plugin",
                format!(
                    "{key} {version} enabled in the {} settings ({}), installed at {at}",
                    scope.word(),
                    file.display()
                ),
            );
            if inst.version.as_deref() != Some(env!("CARGO_PKG_VERSION")) {
                c.add(
                    Status::Warn,
                    "plugin",
                    format!(
                        "the installed plugin is {version}, this src is {}: update it (`claude \
                         plugin marketplace update {}` then `claude plugin update {key}`)",
                        env!("CARGO_PKG_VERSION"),
                        plugin::MARKETPLACE
                    ),
                );
            }
        }
    }
    let Some(handlers) = inst.handlers() else {
        c.add(
            Status::Error,
            "plugin",
            format!("{key}: its hooks/hooks.json cannot be read (`claude plugin update {key}`)"),
        );
        return false;
    };
    let bin = plugin::hook_binary();
    match &bin {
        Some(b) => c.add(
            Status::Ok,
            "plugin",
            format!("its hooks run {}", b.display()),
        ),
        None => c.add(
            Status::Error,
            "plugin",
            "its hooks find no src binary (none named by SRC_BIN, on PATH or in ~/.cargo/bin): \
             install src (`cargo install --path .` in its repository)",
        ),
    }
    for w in wanted {
        let name = entry_name(&w.event, w.matcher.as_deref());
        // The SubagentStop matcher comes from the project's config, which a plugin cannot read.
        let found = handlers.iter().find(|h| {
            h.event == w.event
                && (h.matcher == w.matcher || w.event == "SubagentStop")
                && plugin::parse_command(&h.command).as_deref() == Some(w.sub.as_str())
        });
        match found {
            Some(h) if h.matcher != w.matcher => {
                c.add(
                    Status::Warn,
                    "hooks",
                    format!(
                        "{}: the plugin {key} stops only for `{}`, but alerts.implementer_types \
                         names `{}`: a plugin cannot follow one project's config, so use the \
                         settings hooks here (`claude plugin disable {key} --scope local`, then \
                         `src hooks install`)",
                        entry_name(&h.event, h.matcher.as_deref()),
                        h.matcher.as_deref().unwrap_or("every agent"),
                        w.matcher.as_deref().unwrap_or("every agent")
                    ),
                );
                if bin.is_some() {
                    covered.push(w.sub.clone());
                }
            }
            Some(_) => {
                c.add(
                    Status::Ok,
                    "hooks",
                    format!("{name}: src hook {} (plugin {key})", w.sub),
                );
                if bin.is_some() {
                    covered.push(w.sub.clone());
                }
            }
            None => c.add(
                Status::Warn,
                "hooks",
                format!(
                    "{name}: the plugin {key} has no `src hook {}` entry; it is older than this \
                     src (`claude plugin update {key}`)",
                    w.sub
                ),
            ),
        }
    }
    bin.is_some()
}

/// `Event [matcher]` as the findings name an entry.
fn entry_name(event: &str, matcher: Option<&str>) -> String {
    match matcher {
        Some(m) => format!("{event} [{m}]"),
        None => event.to_string(),
    }
}

/// The script a hook command runs, when it is a path that does not exist: `(as written,
/// resolved)`. The script is the first word, or the first argument of an interpreter (`bash x`,
/// `python3 x`); `$CLAUDE_PROJECT_DIR` is the root, `~` and `$HOME` the home folder, and a
/// relative path is taken from the root (hooks run in the project). Words with other variables,
/// and bare command names, are not judged.
fn missing_script(command: &str, root: &Path) -> Option<(String, PathBuf)> {
    const INTERPRETERS: &[&str] = &[
        "sh", "bash", "zsh", "dash", "python", "python3", "node", "ruby", "perl", "bun", "deno",
    ];
    let words = shell_words(command);
    let mut it = words
        .iter()
        .skip_while(|w| w.contains('=') && !w.starts_with(['/', '.', '~', '$']));
    let first = it.next()?;
    let word = if INTERPRETERS.contains(&first.rsplit('/').next().unwrap_or(first)) {
        it.find(|w| !w.starts_with('-'))?
    } else {
        first
    };
    let home = std::env::var("HOME").ok().filter(|h| !h.is_empty());
    let root_s = root.to_string_lossy();
    let mut p = word
        .replace("${CLAUDE_PROJECT_DIR}", &root_s)
        .replace("$CLAUDE_PROJECT_DIR", &root_s);
    if let Some(h) = &home {
        p = p.replace("${HOME}", h).replace("$HOME", h);
        if let Some(rest) = p.strip_prefix("~/") {
            p = format!("{h}/{rest}");
        }
    }
    if p.contains('$') || p.starts_with('~') || !p.contains('/') {
        return None;
    }
    let abs = root.join(&p);
    (!abs.exists()).then(|| (word.clone(), abs))
}

/// A command line split into words: whitespace outside quotes separates, single and double
/// quotes group, a backslash escapes the next character outside single quotes.
fn shell_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    let mut quote: Option<char> = None;
    while let Some(ch) = chars.next() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => cur.push(c),
            (_, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(ch);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, ';' | '&' | '|') => break,
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// Our three skills in the project: a file of one of their names that runs no `src` command
/// means the project does not use `src` there.
pub(super) fn check_skills(ws: &Workspace, subs: &[String], plugin_runs: bool, c: &mut Checks) {
    let (mut fine, mut missing) = (Vec::new(), Vec::new());
    for (name, path, found) in skills::survey(&ws.root, subs) {
        let shown = ws
            .relative(&path)
            .unwrap_or_else(|| path.display().to_string());
        match found {
            skills::Found::Ours => fine.push(name.to_string()),
            skills::Found::RunsSrc => fine.push(format!("{name} (edited, runs src)")),
            skills::Found::Missing if plugin_runs => {
                fine.push(format!("{}:{name} (plugin)", plugin::NAME))
            }
            skills::Found::Missing => missing.push(shown),
            skills::Found::Foreign => c.add(
                Status::Warn,
                "skills",
                format!(
                    "{shown} is the project's own `{name}` skill and names no src command, so \
                     the project does not use src there: replace it with `src init --claude \
                     --force` (the old file is kept under .src/backup/ and put back by `src \
                     init --claude --uninstall`)"
                ),
            ),
        }
    }
    if !fine.is_empty() {
        c.add(Status::Ok, "skills", fine.join(", "));
    }
    if !missing.is_empty() {
        c.add(
            Status::Warn,
            "skills",
            format!("missing: {} (run `src init --claude`)", missing.join(", ")),
        );
    }
}

pub(super) fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
