//! The user's configuration (`.src/config.yaml`): what is in scope, how names are made, limits.
//!
//! Owns parsing and validation only. Invariant: a missing file means the built-in defaults; a
//! file that sets some keys keeps the defaults for the others; unknown keys warn, invalid YAML or
//! values fail with the file, the line and what was expected.

use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Config {
    pub scope: Scope,
    pub names: Names,
    pub limits: Limits,
    pub alerts: Alerts,
    pub impact: ImpactCfg,
    pub hotspot: Hotspot,
    pub map: MapCfg,
    pub retention: Retention,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Scope {
    /// Globs relative to the root, gitignore-style.
    pub include: Vec<String>,
    pub exclude: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Names {
    /// A stem shorter than this is no name.
    pub min_stem_len: usize,
    /// Stems that say nothing about which file is meant.
    pub stoplist: Vec<String>,
    /// Basenames borne by many files by convention; such a file is known by its parent instead.
    pub generic: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Limits {
    pub max_file_bytes: u64,
    /// How long a hook may wait for the database before it spills.
    pub hook_budget_ms: u64,
    /// Time budget of a live scan when the index is missing.
    pub live_scan_budget_ms: u64,
    /// How long one SubagentStop may spend statting indexed files for edits no hook saw; the
    /// next stop continues where it stopped.
    pub reconcile_budget_ms: u64,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Delivery {
    /// Store the alert; a lead-side hook (`src hook deliver`) prints it to the main conversation.
    Lead,
    /// Print the alert from the SubagentStop hook itself (reaches the subagent in current clients).
    SubagentStop,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Alerts {
    pub delivery: Delivery,
    pub implementer_types: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct ImpactCfg {
    pub max_changed_files: usize,
    pub max_direct_per_file: usize,
    /// A file mentioned by at least this many dependents is called out as a hub.
    pub hub_threshold: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Hotspot {
    pub high_refd_by: usize,
    pub medium_refd_by: usize,
    /// A file changed in this many most recent sessions is `high`.
    pub recent_sessions: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct MapCfg {
    pub path: String,
    pub max_lines: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Retention {
    pub days: u32,
}

impl Default for Scope {
    fn default() -> Self {
        // The seed's phase-1 scope, generalised: the whole `.claude/` tree and a root CLAUDE.md.
        Scope {
            include: vec![".claude/**".into(), "/CLAUDE.md".into()],
            exclude: vec![
                ".claude/agent-memory/**".into(),
                ".claude/agent-memory-local/**".into(),
                ".claude/projects/*/memory/cc-reference/**".into(),
                // Claude Code's worktree-isolated subagents work in copies of the project here
                // (also left out wherever a folder holds a git worktree's `.git` file).
                ".claude/worktrees/**".into(),
            ],
        }
    }
}

impl Default for Names {
    fn default() -> Self {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect();
        Names {
            // Short stems (`os`, `re`, `qa`, `gen`) are names: an import or `/gen` is a
            // reference. Bare, they are not distinctive and need a cue (`scan::refs`).
            min_stem_len: 2,
            // Stems that name no particular file: conventional names every folder may hold.
            // Common words need no entry: a bare common word is no reference by the rules of
            // `scan::refs` (it needs a cue, an import or a path), and `types`, `utils` or
            // `json` must stay names so that imports of such modules are edges.
            stoplist: s(&[
                "README", "readme", "SKILL", "CLAUDE", "AGENT", "AGENTS", "LICENSE", "Makefile",
                "__init__", "__main__",
            ]),
            generic: s(&[
                "SKILL.md",
                "README.md",
                "README",
                "readme.md",
                "CLAUDE.md",
                "AGENTS.md",
                // An agent kept in a folder of its own (`agents/engineer/AGENT.md`).
                "AGENT.md",
                "index.md",
                "index.js",
                "index.ts",
                "index.html",
                "mod.rs",
                "lib.rs",
                "main.rs",
                "__init__.py",
                "__main__.py",
                "package.json",
                "plugin.json",
                "hooks.json",
                "LICENSE",
                "Makefile",
                "Cargo.toml",
                "config.yaml",
                "config.json",
                // Every `.claude/` and the user's own have one: named bare, it is the one
                // beside the writer or the kind of file ("add it to your settings.json").
                "settings.json",
                "settings.local.json",
                // Every project of its kind keeps one: named bare, the project's own (beside or
                // above the writer), not another project's a skill happens to ship
                // (`skills/r2-upload/tsconfig.json` for "a misconfigured `tsconfig.json`").
                // (Not a module, which imports name by its stem: `conftest.py`, `setup.py`.)
                "tsconfig.json",
                "jsconfig.json",
                "pyproject.toml",
                "setup.cfg",
                "requirements.txt",
                "tox.ini",
                "pytest.ini",
                "go.mod",
                "Gemfile",
                "pom.xml",
                "build.gradle",
                "Dockerfile",
                "docker-compose.yml",
                "docker-compose.yaml",
                ".gitignore",
                ".env",
                ".env.example",
                ".mcp.json",
                "vite.config.ts",
                "vite.config.js",
                "vitest.config.ts",
                "jest.config.js",
                "playwright.config.ts",
                "eslint.config.js",
                ".eslintrc.json",
                ".prettierrc",
                "babel.config.js",
                "webpack.config.js",
                "tailwind.config.js",
                "next.config.js",
                "mkdocs.yml",
            ]),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 1024 * 1024,
            hook_budget_ms: 250,
            live_scan_budget_ms: 10_000,
            reconcile_budget_ms: 40,
        }
    }
}

impl Default for Alerts {
    fn default() -> Self {
        Alerts {
            delivery: Delivery::Lead,
            implementer_types: vec!["implementer".into()],
        }
    }
}

impl Default for ImpactCfg {
    fn default() -> Self {
        ImpactCfg {
            max_changed_files: 50,
            max_direct_per_file: 30,
            hub_threshold: 20,
        }
    }
}

impl Default for Hotspot {
    fn default() -> Self {
        Hotspot {
            high_refd_by: 10,
            medium_refd_by: 4,
            recent_sessions: 3,
        }
    }
}

impl Default for MapCfg {
    fn default() -> Self {
        MapCfg {
            path: ".claude/agent-memory/analyst/codebase-map.md".into(),
            max_lines: 300,
        }
    }
}

impl Default for Retention {
    fn default() -> Self {
        Retention { days: 30 }
    }
}

/// A configuration and the warnings its loading produced (unknown keys).
#[derive(Debug, Clone)]
pub struct Loaded {
    pub config: Config,
    pub warnings: Vec<String>,
    /// With [`OnInvalid::Defaults`]: why the file could not be used (`config` is then the
    /// defaults).
    pub invalid: Option<String>,
}

/// How a reader takes a config file that cannot be read or does not parse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnInvalid {
    /// The error is the reader's error (commands and hooks: the file must be fixed first).
    Fail,
    /// The defaults, with the error's text in [`Loaded::invalid`] (`src doctor` reports it; a
    /// hook's time budget must not fail).
    Defaults,
}

/// The one config loader: the file at `path`, or the defaults when it does not exist. Unknown
/// keys are warnings; an invalid file is an error naming file, line and column (see
/// [`OnInvalid`] for readers that go on without it).
pub fn load(path: &Path, on_invalid: OnInvalid) -> Result<Loaded> {
    match read(path) {
        Err(e) if on_invalid == OnInvalid::Defaults => Ok(Loaded {
            invalid: Some(format!("{e:#}")),
            ..defaults()
        }),
        other => other,
    }
}

fn defaults() -> Loaded {
    Loaded {
        config: Config::default(),
        warnings: Vec::new(),
        invalid: None,
    }
}

fn read(path: &Path) -> Result<Loaded> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(defaults()),
        Err(e) => return Err(e).with_context(|| format!("reading config {}", path.display())),
    };
    parse(&text, &path.display().to_string())
}

/// Parses config text; `origin` names the file in messages.
pub fn parse(text: &str, origin: &str) -> Result<Loaded> {
    if text.trim().is_empty() {
        return Ok(defaults());
    }
    let mut warnings = Vec::new();
    let de = serde_yaml::Deserializer::from_str(text);
    let config: Config = serde_ignored::deserialize(de, |p| {
        warnings.push(format!("{origin}: unknown key `{p}` ignored"));
    })
    .map_err(|e| {
        // serde places a duplicate key at its mapping; the reader wants the repeated line.
        let msg = e.to_string();
        let dup = msg
            .contains("duplicate field")
            .then(|| duplicate_key(text))
            .flatten();
        let at = dup
            .or_else(|| e.location().map(|l| (l.line(), l.column())))
            .map(|(l, c)| format!("{l}:{c}"))
            .unwrap_or_else(|| "1:1".into());
        if text.bytes().any(|b| b == 0) {
            return anyhow::anyhow!(
                "{origin}:{at}: invalid config: not a text file (a YAML mapping was expected): {e}"
            );
        }
        anyhow::anyhow!("{origin}:{at}: invalid config: {e}")
    })?;
    validate(&config).map_err(|(key, msg)| {
        let at = key_location(text, key)
            .map(|(l, c)| format!(":{l}:{c}"))
            .unwrap_or_default();
        anyhow::anyhow!("{origin}{at}: invalid config: {msg}")
    })?;
    Ok(Loaded {
        config,
        warnings,
        invalid: None,
    })
}

/// Where the block-style key `dotted` (`limits.max_file_bytes`) is written: 1-based line and
/// column of its last part.
fn key_location(text: &str, dotted: &str) -> Option<(usize, usize)> {
    let mut want = dotted.split('.').peekable();
    let mut part = want.next()?;
    let mut min_indent = 0usize;
    for (i, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let body = line.trim_start();
        if body.starts_with('#') || indent < min_indent {
            continue;
        }
        if body
            .strip_prefix(part)
            .is_some_and(|r| r.trim_start().starts_with(':'))
        {
            match want.next() {
                Some(next) => {
                    part = next;
                    min_indent = indent + 1;
                }
                None => return Some((i + 1, indent + 1)),
            }
        }
    }
    None
}

/// The first key written twice in the same mapping: 1-based line and column of the repeat.
fn duplicate_key(text: &str) -> Option<(usize, usize)> {
    // (indent, keys seen at that indent under the current parent)
    let mut stack: Vec<(usize, Vec<String>)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let body = line.trim_start();
        if body.is_empty() || body.starts_with('#') || body.starts_with('-') {
            continue;
        }
        let indent = line.len() - body.len();
        let Some((key, _)) = body.split_once(':') else {
            continue;
        };
        let key = key.trim().to_string();
        while stack.last().is_some_and(|(d, _)| *d > indent) {
            stack.pop();
        }
        match stack.last_mut() {
            Some((d, keys)) if *d == indent => {
                if keys.contains(&key) {
                    return Some((i + 1, indent + 1));
                }
                keys.push(key);
            }
            _ => stack.push((indent, vec![key])),
        }
    }
    None
}

/// Checks values serde accepts but `src` cannot use; `Err((key, message))` names the key so the
/// message can point at its line.
fn validate(c: &Config) -> std::result::Result<(), (&'static str, String)> {
    for (key, globs) in [
        ("scope.include", &c.scope.include),
        ("scope.exclude", &c.scope.exclude),
    ] {
        for g in globs.iter() {
            globset::Glob::new(g.trim_start_matches('/'))
                .map_err(|e| (key, format!("{key}: `{g}` is not a valid glob ({e})")))?;
        }
    }
    if c.scope.include.is_empty() {
        return Err((
            "scope.include",
            "scope.include: expected at least one glob".into(),
        ));
    }
    if c.names.min_stem_len == 0 {
        return Err((
            "names.min_stem_len",
            "names.min_stem_len: expected a whole number of at least 1".into(),
        ));
    }
    if c.limits.max_file_bytes == 0 {
        return Err((
            "limits.max_file_bytes",
            "limits.max_file_bytes: expected a positive number of bytes".into(),
        ));
    }
    if c.hotspot.medium_refd_by > c.hotspot.high_refd_by {
        return Err((
            "hotspot.medium_refd_by",
            "hotspot.medium_refd_by: expected a value no larger than hotspot.high_refd_by".into(),
        ));
    }
    Ok(())
}

/// Folders at a project's root that hold Claude Code components the way plugins and
/// marketplaces lay them out (`agents/`, `skills/`, `plugins/<p>/…`), each with the glob that
/// covers it.
const LAYOUT_DIRS: &[(&str, &str)] = &[
    ("agents", "agents/**"),
    ("skills", "skills/**"),
    ("commands", "commands/**"),
    ("hooks", "hooks/**"),
    ("rules", "rules/**"),
    ("plugins", "plugins/**"),
    (".claude-plugin", ".claude-plugin/**"),
];

/// The default scope widened to the plugin or marketplace folders found at `root`, and the
/// folders found (empty: the default `.claude/` scope fits).
pub fn scope_for_tree(root: &Path) -> (Scope, Vec<String>) {
    let mut scope = Scope::default();
    let mut found = Vec::new();
    for (dir, glob) in LAYOUT_DIRS {
        if root.join(dir).is_dir() {
            scope.include.push((*glob).to_string());
            found.push(format!("{dir}/"));
        }
    }
    // A marketplace's plugins may lie anywhere its manifest says (`"source":
    // "./packages/plugins/handoff"`), not only under `plugins/`.
    for dir in marketplace_sources(root) {
        let covered = LAYOUT_DIRS
            .iter()
            .any(|(d, _)| dir == *d || dir.starts_with(&format!("{d}/")));
        if !covered && root.join(&dir).is_dir() {
            scope.include.push(format!("{dir}/**"));
            found.push(format!("{dir}/"));
        }
    }
    (scope, found)
}

/// The local folders `.claude-plugin/marketplace.json` gives as its plugins' sources, as
/// root-relative paths (`./packages/x` -> `packages/x`); a source that is a repository, or a
/// path that leaves the root, is none. An unreadable manifest gives none: `doctor` and the
/// index say what is wrong with it, not `init`.
fn marketplace_sources(root: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(root.join(".claude-plugin/marketplace.json")) else {
        return Vec::new();
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    let mut dirs: Vec<String> = Vec::new();
    let plugins = v.get("plugins").and_then(|p| p.as_array());
    for source in plugins
        .into_iter()
        .flatten()
        .filter_map(|p| p.get("source")?.as_str())
    {
        let mut parts: Vec<&str> = Vec::new();
        let mut inside = !source.starts_with('/');
        for c in source.split('/') {
            match c {
                "" | "." => {}
                ".." => inside = false,
                c => parts.push(c),
            }
        }
        let dir = parts.join("/");
        if inside && !dir.is_empty() && !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

/// The commented config file for `config`.
pub fn yaml_for(config: &Config) -> String {
    let body = serde_yaml::to_string(config).unwrap_or_default();
    format!(
        "# src configuration. Every key is optional: a key left out keeps its default.\n\
         # scope: globs relative to the project root, gitignore-style (include, then exclude).\n\
         # names: how files are known (min_stem_len, stoplist of stems, generic basenames).\n\
         # limits: max_file_bytes to read; hook_budget_ms before a hook spills to the journal;\n\
         #   live_scan_budget_ms without an index; reconcile_budget_ms a stop may stat files.\n\
         # alerts.delivery: lead (a lead-side hook delivers) or subagent-stop (print at once).\n\
         # impact: seed limits (50 changed files, 30 DIRECT per file) and the hub threshold.\n\
         # hotspot: refd_by thresholds for high/medium, and recent sessions counted as high.\n\
         # map: where `src export-map` writes and its line limit (0 = none).\n\
         # retention.days: events, alerts and hook runs older than this are pruned by `src gc`.\n\
         {body}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marketplace_s_plugin_folders_are_in_the_scope_it_fits() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let root = dir.path();
        for d in [
            "packages/plugins/handoff",
            "packages/tool",
            "plugins/a",
            ".claude-plugin",
        ] {
            std::fs::create_dir_all(root.join(d))?;
        }
        std::fs::write(
            root.join(".claude-plugin/marketplace.json"),
            r#"{"plugins": [
                {"name": "handoff", "source": "./packages/plugins/handoff"},
                {"name": "tool", "source": "packages/tool/"},
                {"name": "a", "source": "./plugins/a"},
                {"name": "gone", "source": "./packages/gone"},
                {"name": "out", "source": "../elsewhere"},
                {"name": "remote", "source": {"source": "github", "repo": "o/r"}}
            ]}"#,
        )?;
        let (scope, found) = scope_for_tree(root);
        let added: Vec<&str> = scope
            .include
            .iter()
            .map(String::as_str)
            .filter(|g| g.starts_with("packages"))
            .collect();
        assert_eq!(added, ["packages/plugins/handoff/**", "packages/tool/**"]);
        assert!(found.contains(&"packages/tool/".to_string()), "{found:?}");
        assert_eq!(
            scope
                .include
                .iter()
                .filter(|g| g.starts_with("plugins"))
                .count(),
            1
        );
        // No manifest, or one that is no JSON: the folders alone.
        std::fs::write(root.join(".claude-plugin/marketplace.json"), "{oops")?;
        assert!(scope_for_tree(root)
            .1
            .iter()
            .all(|f| !f.starts_with("packages")));
        Ok(())
    }

    #[test]
    fn partial_config_keeps_other_defaults() -> Result<()> {
        let l = parse("scope:\n  include: [\"**/*.py\"]\n", "c.yaml")?;
        assert_eq!(l.config.scope.include, vec!["**/*.py".to_string()]);
        assert_eq!(l.config.scope.exclude, Scope::default().exclude);
        assert_eq!(l.config.names.min_stem_len, 2);
        Ok(())
    }

    #[test]
    fn unknown_keys_warn() -> Result<()> {
        let l = parse("names:\n  min_stem_len: 5\n  colour: red\n", "c.yaml")?;
        assert_eq!(l.config.names.min_stem_len, 5);
        assert!(
            l.warnings.iter().any(|w| w.contains("names.colour")),
            "{:?}",
            l.warnings
        );
        Ok(())
    }

    #[test]
    fn every_config_error_names_file_line_and_column() {
        let err = |t: &str| match parse(t, "c.yaml") {
            Err(e) => e.to_string(),
            Ok(_) => panic!("accepted: {t:?}"),
        };
        let e = err("scope:\n  include: [\"[a-\"]\n");
        assert!(
            e.starts_with("c.yaml:2:3: invalid config: scope.include"),
            "{e}"
        );
        let e = err("# c\nlimits:\n  max_file_bytes: 0\n");
        assert!(
            e.starts_with("c.yaml:3:3: invalid config: limits.max_file_bytes"),
            "{e}"
        );
        let e = err("limits:\n  max_file_bytes: 5\n  max_file_bytes: 6\n");
        assert!(e.starts_with("c.yaml:3:3: invalid config"), "{e}");
        let e = err("\u{0}\u{1}binary");
        assert!(
            e.starts_with("c.yaml:1:1:") && e.contains("not a text file"),
            "{e}"
        );
    }

    #[test]
    fn bad_value_names_file_and_line() {
        let err = parse("names:\n  min_stem_len: lots\n", "c.yaml")
            .err()
            .map(|e| e.to_string());
        let err = err.unwrap_or_default();
        assert!(err.starts_with("c.yaml:2:"), "{err}");
    }

    #[test]
    fn bad_glob_is_refused() {
        let err = parse("scope:\n  include: [\"a/[\"]\n", "c.yaml")
            .err()
            .map(|e| e.to_string());
        assert!(err.unwrap_or_default().contains("scope.include"));
    }

    #[test]
    fn default_yaml_round_trips() -> Result<()> {
        let l = parse(&yaml_for(&Config::default()), "d.yaml")?;
        assert_eq!(l.config, Config::default());
        assert!(l.warnings.is_empty());
        Ok(())
    }
}
