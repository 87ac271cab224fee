//! The hook entries of `.claude/settings.json`: plan, apply, and find ours for `src doctor`.
//!
//! Owns the merge of our entries into a settings document. Invariant: every key, hook and order
//! we did not write survives (serde_json with `preserve_order`); planning twice in a row yields
//! no change; invalid JSON is refused with the parse error and the file is left untouched; a
//! write keeps a backup of the previous file (under the state folder's `backup/`) and
//! replaces atomically.

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::{json, Map, Value};

/// The recorder's matcher: the file tools, and `Bash`, whose response may carry the files a
/// command changed (`bashEditDiff`, Claude Code 2.1.269); a Bash call without it costs one
/// process start and no database access.
pub const RECORDER_MATCHER: &str = "Edit|Write|MultiEdit|NotebookEdit|Bash";

/// Our hook subcommands, the events they are wired to, matchers and timeouts (seconds).
/// The recorder is synchronous with a short timeout: it takes milliseconds, and an async
/// recorder would race the SubagentStop hook (the last edit could miss the alert).
/// `deliver` runs on three lead-side events: PostToolBatch (once per batch of tool calls, so
/// several implementers of one batch give one alert) and, for clients without it, PostToolUse
/// on the subagent tool and UserPromptSubmit.
pub fn wanted(implementer_types: &[String]) -> Vec<Wanted> {
    let types = if implementer_types.is_empty() {
        "implementer".to_string()
    } else {
        implementer_types.join("|")
    };
    vec![
        Wanted::new("PostToolUse", Some(RECORDER_MATCHER), "post-tool-use", 5),
        Wanted::new("SubagentStop", Some(&types), "subagent-stop", 15),
        Wanted::new("PostToolUse", Some("Agent|Task"), "deliver", 10),
        Wanted::new("UserPromptSubmit", None, "deliver", 10),
        Wanted::new("PostToolBatch", None, "deliver", 10),
    ]
}

/// One entry we want in the settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    pub event: String,
    pub matcher: Option<String>,
    pub sub: String,
    pub timeout: u64,
}

impl Wanted {
    fn new(event: &str, matcher: Option<&str>, sub: &str, timeout: u64) -> Wanted {
        Wanted {
            event: event.into(),
            matcher: matcher.map(String::from),
            sub: sub.into(),
            timeout,
        }
    }
}

/// One change a plan makes (or would make).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Add {
        event: String,
        matcher: Option<String>,
        command: String,
    },
    Update {
        event: String,
        matcher: Option<String>,
        command: String,
    },
    Keep {
        event: String,
        matcher: Option<String>,
        command: String,
    },
    Remove {
        event: String,
        matcher: Option<String>,
        command: String,
    },
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (verb, event, matcher, command) = match self {
            Action::Add {
                event,
                matcher,
                command,
            } => ("add", event, matcher, command),
            Action::Update {
                event,
                matcher,
                command,
            } => ("update", event, matcher, command),
            Action::Keep {
                event,
                matcher,
                command,
            } => ("keep", event, matcher, command),
            Action::Remove {
                event,
                matcher,
                command,
            } => ("remove", event, matcher, command),
        };
        match matcher {
            Some(m) => write!(f, "{verb:<6} {event} [{m}]: {command}"),
            None => write!(f, "{verb:<6} {event}: {command}"),
        }
    }
}

/// What installing or uninstalling would do to one settings file.
#[derive(Debug, Clone)]
pub struct Plan {
    pub path: PathBuf,
    pub actions: Vec<Action>,
    /// The document after the change, pretty-printed.
    pub after: String,
    /// Whether the file has to be written at all.
    pub changed: bool,
    existed: bool,
}

/// The shell command for `bin hook sub` (the binary path single-quoted).
pub fn command(bin: &Path, sub: &str) -> String {
    let b = bin.to_string_lossy().replace('\'', r"'\''");
    format!("'{b}' hook {sub}")
}

/// The binary a command runs and its arguments, when it is ours: `(binary, sub)`.
pub fn parse_ours(command: &str) -> Option<(String, String)> {
    let c = command.trim();
    let (bin, rest) = if let Some(q) = c.strip_prefix('\'') {
        // Single-quoted, with `'\''` for embedded quotes.
        let mut bin = String::new();
        let mut rest = q;
        loop {
            let end = rest.find('\'')?;
            bin.push_str(&rest[..end]);
            rest = &rest[end + 1..];
            match rest.strip_prefix("\\''") {
                Some(r) => {
                    bin.push('\'');
                    rest = r;
                }
                None => break,
            }
        }
        (bin, rest)
    } else if let Some(q) = c.strip_prefix('"') {
        let end = q.find('"')?;
        (q[..end].to_string(), &q[end + 1..])
    } else {
        let end = c.find(char::is_whitespace)?;
        (c[..end].to_string(), &c[end..])
    };
    let sub = rest.trim().strip_prefix("hook ")?.trim();
    let base = Path::new(&bin).file_name()?.to_str()?;
    // `src`, and the names a build or a package gives it (`src-x86_64`, `src.exe`, `new-src`):
    // with the `hook <one of ours>` that follows, nothing else looks like this.
    let ours = base == "src"
        || base.starts_with("src.")
        || base.starts_with("src-")
        || base.ends_with("-src")
        || base.ends_with("_src");
    (ours && ["post-tool-use", "subagent-stop", "deliver"].contains(&sub))
        .then(|| (bin.clone(), sub.to_string()))
}

/// Reads a settings file: `{}` when missing or blank; invalid JSON is an error naming the place.
pub fn read(path: &Path) -> Result<(Value, bool)> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((json!({}), false)),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    if text.trim().is_empty() {
        return Ok((json!({}), true));
    }
    let v: Value = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}:{}:{}: invalid JSON ({e}); nothing was changed",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    if !v.is_object() {
        anyhow::bail!(
            "{}: expected a JSON object at the top level; nothing was changed",
            path.display()
        );
    }
    Ok((v, true))
}

fn obj_mut<'a>(v: &'a mut Value, what: &str) -> Result<&'a mut Map<String, Value>> {
    v.as_object_mut()
        .ok_or_else(|| anyhow::anyhow!("`{what}` is not a JSON object; nothing was changed"))
}

/// Plans adding our entries (or updating their binary path and timeout) to `path`.
pub fn plan_install(path: &Path, bin: &Path, wanted: &[Wanted]) -> Result<Plan> {
    let (before, existed) = read(path)?;
    let mut doc = before.clone();
    let mut actions = Vec::new();
    let root = obj_mut(&mut doc, "settings")?;
    let hooks = root.entry("hooks").or_insert_with(|| json!({}));
    let hooks = obj_mut(hooks, "hooks")?;
    for w in wanted {
        let cmd = command(bin, &w.sub);
        let arr = hooks.entry(w.event.clone()).or_insert_with(|| json!([]));
        let arr = arr.as_array_mut().ok_or_else(|| {
            anyhow::anyhow!("`hooks.{}` is not an array; nothing was changed", w.event)
        })?;
        let (event, matcher) = (w.event.clone(), w.matcher.clone());
        match find_ours(arr, w) {
            Some((mut g, mut h)) => {
                let mut changed = false;
                // An entry of an earlier release (the recorder before `Bash`) takes the current
                // matcher; a SubagentStop matcher the user narrowed stays theirs.
                if w.event != "SubagentStop" && group_matcher(&arr[g]) != w.matcher.as_deref() {
                    (g, h) = rematch(arr, g, h, w.matcher.as_deref());
                    changed = true;
                }
                let handler = &mut arr[g]["hooks"][h];
                if handler["command"] != json!(cmd) {
                    handler["command"] = json!(cmd);
                    changed = true;
                }
                if handler["timeout"] != json!(w.timeout) {
                    handler["timeout"] = json!(w.timeout);
                    changed = true;
                }
                actions.push(if changed {
                    Action::Update {
                        event,
                        matcher,
                        command: cmd,
                    }
                } else {
                    Action::Keep {
                        event,
                        matcher,
                        command: cmd,
                    }
                });
            }
            None => {
                let mut group = Map::new();
                if let Some(m) = &w.matcher {
                    group.insert("matcher".into(), json!(m));
                }
                group.insert(
                    "hooks".into(),
                    json!([{"type": "command", "command": cmd, "timeout": w.timeout}]),
                );
                arr.push(Value::Object(group));
                actions.push(Action::Add {
                    event,
                    matcher,
                    command: cmd,
                });
            }
        }
    }
    finish(path, before, doc, actions, existed)
}

/// A group's matcher; empty reads as none (both match everything).
fn group_matcher(group: &Value) -> Option<&str> {
    group
        .get("matcher")
        .and_then(Value::as_str)
        .filter(|m| !m.is_empty())
}

/// The group and handler index of our handler for `w` in an event's array: the same subcommand
/// (each of ours appears once per event), in a group with `w`'s matcher when there is one.
fn find_ours(arr: &[Value], w: &Wanted) -> Option<(usize, usize)> {
    let mut found: Vec<(usize, usize, bool)> = Vec::new();
    for (g, group) in arr.iter().enumerate() {
        let same_matcher = group_matcher(group) == w.matcher.as_deref();
        let hs = group.get("hooks").and_then(Value::as_array);
        for (h, handler) in hs.into_iter().flatten().enumerate() {
            let ours = handler
                .get("command")
                .and_then(Value::as_str)
                .and_then(parse_ours)
                .is_some_and(|(_, sub)| sub == w.sub);
            if ours {
                found.push((g, h, same_matcher));
            }
        }
    }
    found
        .iter()
        .find(|f| f.2)
        .or(found.first())
        .map(|&(g, h, _)| (g, h))
}

/// Gives our handler at `(g, h)` the matcher `matcher`: the group's own when the handler is
/// alone in it, else a group of its own (a foreign handler keeps its group and matcher).
fn rematch(arr: &mut Vec<Value>, g: usize, h: usize, matcher: Option<&str>) -> (usize, usize) {
    let alone = arr[g]["hooks"].as_array().is_some_and(|hs| hs.len() == 1);
    if alone {
        if let Some(group) = arr[g].as_object_mut() {
            match matcher {
                Some(m) => {
                    group.insert("matcher".into(), json!(m));
                }
                None => {
                    group.remove("matcher");
                }
            }
        }
        return (g, h);
    }
    let handler = match arr[g]["hooks"].as_array_mut() {
        Some(hs) => hs.remove(h),
        None => return (g, h),
    };
    let mut group = Map::new();
    if let Some(m) = matcher {
        group.insert("matcher".into(), json!(m));
    }
    group.insert("hooks".into(), json!([handler]));
    arr.push(Value::Object(group));
    (arr.len() - 1, 0)
}

/// Plans removing exactly our handlers (and groups or event lists left empty by that).
pub fn plan_uninstall(path: &Path) -> Result<Plan> {
    let (before, existed) = read(path)?;
    let mut doc = before.clone();
    let mut actions = Vec::new();
    let root = obj_mut(&mut doc, "settings")?;
    if let Some(hooks) = root.get_mut("hooks").and_then(Value::as_object_mut) {
        for (event, arr) in hooks.iter_mut() {
            let Some(groups) = arr.as_array_mut() else {
                continue;
            };
            groups.retain_mut(|group| {
                let matcher = group
                    .get("matcher")
                    .and_then(Value::as_str)
                    .map(String::from);
                let Some(hs) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                    return true;
                };
                let before_len = hs.len();
                hs.retain(|h| {
                    let cmd = h.get("command").and_then(Value::as_str).unwrap_or_default();
                    if parse_ours(cmd).is_some() {
                        actions.push(Action::Remove {
                            event: event.clone(),
                            matcher: matcher.clone(),
                            command: cmd.to_string(),
                        });
                        false
                    } else {
                        true
                    }
                });
                !(hs.is_empty() && before_len > 0)
            });
        }
        hooks.retain(|_, arr| !arr.as_array().is_some_and(|a| a.is_empty()));
        if hooks.is_empty() && !actions.is_empty() {
            root.remove("hooks");
        }
    }
    finish(path, before, doc, actions, existed)
}

fn finish(
    path: &Path,
    before: Value,
    doc: Value,
    actions: Vec<Action>,
    existed: bool,
) -> Result<Plan> {
    let mut after = serde_json::to_string_pretty(&doc).context("encoding settings")?;
    after.push('\n');
    let changed =
        doc != before || !existed && actions.iter().any(|a| matches!(a, Action::Add { .. }));
    Ok(Plan {
        path: path.to_path_buf(),
        actions,
        after,
        changed,
        existed,
    })
}

/// Writes a plan: a copy of the previous file under `backup_dir` (at its path relative to
/// `root`; never a `.bak` beside it, which would be one more file of the user's tree), then an
/// atomic replace that keeps the file's mode. Returns the backup path.
pub fn apply(plan: &Plan, root: &Path, backup_dir: &Path) -> Result<Option<PathBuf>> {
    if !plan.changed {
        return Ok(None);
    }
    let backup = if plan.existed {
        crate::fsutil::backup(root, backup_dir, &plan.path)?
    } else {
        None
    };
    crate::fsutil::write_atomic(&plan.path, plan.after.as_bytes())?;
    Ok(backup)
}

/// Our handlers found in a settings document: `(event, sub, binary)`.
pub fn installed(doc: &Value) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let Some(hooks) = doc.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    for (event, arr) in hooks {
        for group in arr.as_array().into_iter().flatten() {
            for h in group
                .get("hooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some((bin, sub)) = h
                    .get("command")
                    .and_then(Value::as_str)
                    .and_then(parse_ours)
                {
                    out.push((event.clone(), sub, bin));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = r#"{
  "model": "opus",
  "hooks": {
    "SubagentStart": [{"matcher": "", "hooks": [{"type": "command", "command": "/h/on-subagent-start.sh", "timeout": 10}]}],
    "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/h/audit.sh"}]}],
    "PreCompact": [{"matcher": "", "hooks": [{"type": "command", "command": "/h/on-pre-compact.sh", "timeout": 30}]}],
    "SessionStart": [{"matcher": "compact", "hooks": [{"type": "command", "command": "/h/on-session-compact.sh", "once": true}]}]
  },
  "permissions": {"allow": ["Bash(ls:*)"]}
}"#;

    #[test]
    fn install_is_idempotent_and_uninstall_restores() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("settings.json");
        std::fs::write(&path, SEED)?;
        let bin = Path::new("/opt/my tools/src");
        let want = wanted(&["implementer".to_string()]);
        let plan = plan_install(&path, bin, &want)?;
        assert!(plan.changed);
        assert_eq!(
            plan.actions
                .iter()
                .filter(|a| matches!(a, Action::Add { .. }))
                .count(),
            5
        );
        apply(&plan, dir.path(), &dir.path().join(".src/backup/t"))?;
        assert!(!dir.path().join("settings.json.bak").exists());
        assert!(dir.path().join(".src/backup/t/settings.json").exists());
        let again = plan_install(&path, bin, &want)?;
        assert!(!again.changed, "{:?}", again.actions);
        assert!(again
            .actions
            .iter()
            .all(|a| matches!(a, Action::Keep { .. })));
        let (doc, _) = read(&path)?;
        // Key order and foreign hooks survive.
        let keys: Vec<&String> = doc
            .as_object()
            .map(|o| o.keys().collect())
            .unwrap_or_default();
        assert_eq!(keys, ["model", "hooks", "permissions"]);
        assert_eq!(installed(&doc).len(), 5);
        assert_eq!(doc["hooks"]["PostToolBatch"][0].get("matcher"), None);
        assert_eq!(doc["hooks"]["PostToolUse"][0]["matcher"], "Bash");
        // A moved binary is an update, not a second entry.
        let moved = plan_install(&path, Path::new("/usr/bin/src"), &want)?;
        assert_eq!(
            moved
                .actions
                .iter()
                .filter(|a| matches!(a, Action::Update { .. }))
                .count(),
            5
        );
        let un = plan_uninstall(&path)?;
        assert_eq!(un.actions.len(), 5);
        let restored: Value = serde_json::from_str(&un.after)?;
        let seed: Value = serde_json::from_str(SEED)?;
        assert_eq!(restored, seed);
        Ok(())
    }

    #[test]
    fn an_earlier_install_takes_the_current_matchers_in_place() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("settings.json");
        // What the previous release wrote: the recorder without Bash (its group shared with a
        // user's handler here), no PostToolBatch entry, and a SubagentStop matcher the user
        // narrowed.
        std::fs::write(
            &path,
            r#"{"hooks": {
  "PostToolUse": [
    {"matcher": "Edit|Write|MultiEdit|NotebookEdit", "hooks": [
      {"type": "command", "command": "'/b/src' hook post-tool-use", "timeout": 5},
      {"type": "command", "command": "/h/audit.sh"}]},
    {"matcher": "Agent|Task", "hooks": [{"type": "command", "command": "'/b/src' hook deliver", "timeout": 10}]}],
  "SubagentStop": [{"matcher": "^implementer$", "hooks": [{"type": "command", "command": "'/b/src' hook subagent-stop", "timeout": 15}]}],
  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "'/b/src' hook deliver", "timeout": 10}]}]
}}"#,
        )?;
        let want = wanted(&["implementer".to_string()]);
        let plan = plan_install(&path, Path::new("/b/src"), &want)?;
        let adds: Vec<&Action> = plan
            .actions
            .iter()
            .filter(|a| matches!(a, Action::Add { .. }))
            .collect();
        assert_eq!(adds.len(), 1, "{adds:?}");
        assert!(adds[0].to_string().contains("PostToolBatch"), "{adds:?}");
        let doc: Value = serde_json::from_str(&plan.after)?;
        let ptu = doc["hooks"]["PostToolUse"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        // The user's handler keeps its group and matcher; ours moved to a group of its own.
        assert_eq!(ptu[0]["matcher"], "Edit|Write|MultiEdit|NotebookEdit");
        assert_eq!(ptu[0]["hooks"].as_array().map(Vec::len), Some(1));
        assert_eq!(ptu[0]["hooks"][0]["command"], "/h/audit.sh");
        assert_eq!(ptu[2]["matcher"], RECORDER_MATCHER);
        assert_eq!(ptu[2]["hooks"][0]["command"], "'/b/src' hook post-tool-use");
        assert_eq!(ptu[1]["matcher"], "Agent|Task");
        assert_eq!(doc["hooks"]["SubagentStop"][0]["matcher"], "^implementer$");
        assert_eq!(installed(&doc).len(), 5);
        // Applied, a second plan changes nothing.
        apply(&plan, dir.path(), &dir.path().join(".src/backup/t"))?;
        let again = plan_install(&path, Path::new("/b/src"), &want)?;
        assert!(!again.changed, "{:?}", again.actions);
        Ok(())
    }

    #[test]
    fn invalid_json_is_refused() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("settings.json");
        std::fs::write(&path, "{\"hooks\": [}")?;
        let err = plan_install(&path, Path::new("/src"), &wanted(&[]))
            .err()
            .map(|e| e.to_string());
        assert!(err.unwrap_or_default().contains("invalid JSON"));
        assert_eq!(std::fs::read_to_string(&path)?, "{\"hooks\": [}");
        Ok(())
    }

    #[test]
    fn recognises_our_commands_only() {
        assert_eq!(
            parse_ours("'/tmp/new-src' hook deliver").map(|(_, s)| s),
            Some("deliver".to_string()),
            "a renamed build is still ours, so setup never adds it twice"
        );
        assert_eq!(
            parse_ours("'/a b/src' hook deliver"),
            Some(("/a b/src".into(), "deliver".into()))
        );
        assert_eq!(
            parse_ours(&command(Path::new("/x/it's/src"), "post-tool-use")),
            Some(("/x/it's/src".into(), "post-tool-use".into()))
        );
        assert!(parse_ours("/h/on-file-change.sh").is_none());
        assert!(parse_ours("/usr/bin/srcery hook deliver").is_none());
        assert!(parse_ours("/usr/bin/src hook other").is_none());
    }
}
