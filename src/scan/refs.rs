//! Reference kinds: which of the files bearing a name a mention refers to, given how the name
//! was written (the mention's cue) and what each bearer is.
//!
//! Owns the rules of issue 13 (pure functions, no I/O but the `exists` probe handed in).
//! Invariant: the decision depends only on the mentioning path, the name, the cue, the bearers'
//! paths and which root-relative paths exist, so re-resolving a stored mention gives what a
//! rescan would.
//!
//! - A name written inside a path (`via` with a `/`) is matched as a path, after resolving it:
//!   relative to the mentioning file, then to the root (to `~` when the root is the home
//!   directory). A path that leads to another existing file refers to that file, not to a bearer;
//!   otherwise the written folders must agree with the bearer's own (one is a component suffix of
//!   the other; for a path outside the tree, `~/…`, `/…`, `$VAR/…`, the bearer's whole path
//!   must be the tail). URLs are not paths.
//! - A file name with its extension is a reference (unique or nearest, as before).
//! - A bare identifier (a stem or a skill's folder name) depends on what the bearer is: an
//!   agent's name counts when distinctive or a role noun; a command's, skill's or other file's
//!   name counts when distinctive, or with a cue (code span, quotes, `/name`, `p:name`, a key,
//!   the word agent/skill/command/hook next to it, a list or table row); a common-word stem of
//!   any other file (template, list, status) is no name at all. In source code a bare word is an
//!   identifier of that code: only imports count there.
//! - Plugins are boundaries: a bare name in `plugins/p/…` does not reach into `plugins/q/…`; a
//!   namespace `q:name`, a key or a path does, and a cued name of an agent or a skill that no
//!   other file bears.

use super::cue;
use super::resolve::{by_client, common_dirs, dir_of, resolve, Nearest, Resolution};

/// What kind of reference an edge is (the `edges.kind` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefKind {
    Path,
    File,
    Name,
    Import,
    Use,
}

impl RefKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RefKind::Path => "path",
            RefKind::File => "file",
            RefKind::Name => "name",
            RefKind::Import => "import",
            RefKind::Use => "use",
        }
    }
}

/// The outcome for one mention.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// A strong reference to one file.
    Edge(i64, Resolution, RefKind),
    /// Several files qualify equally (or the mentioning file is one of them): no edge, the
    /// mention is kept as unattributed.
    Tie,
    /// No file qualifies: a plain word, a path to something else, a URL. Kept as a weak mention.
    Weak,
}

/// The one other file of `dst`'s folder that defines what a bare name names along with it: a
/// variant of a skill or an agent declaring the same `name:` (`skills/x/SKILL.md` and
/// `skills/x/SKILL.v1-yolo.md`, both `x`; a symlink swaps which one the client reads). A
/// mention of the name names both; nothing tells one from the other. Only files that declare
/// the name (a frontmatter name, a skill's folder), not files sharing a stem (`x.sh` and
/// `x.ps1`, `x.md` and `x.txt`, of which writers mean one or both). Written as a folder
/// (`prds-get/` in a drawn tree), the name is the folder, which the skill's SKILL.md defines.
/// An invocation of a skill also names the command of its name (`invoked_command`).
pub fn twin(
    src: &str,
    name: &str,
    cue_bits: u64,
    dst: i64,
    bearers: &[(i64, &str)],
) -> Option<i64> {
    if name.contains(['.', '/']) || cue_bits & cue::FOLDER != 0 {
        return None;
    }
    let declares = |p: &str| declares_name(p, name);
    let (_, path) = bearers.iter().find(|(id, _)| *id == dst)?;
    if !declares(path) {
        return None;
    }
    let dir = dir_of(path);
    let mut others = bearers
        .iter()
        .filter(|(id, p)| *id != dst && dir_of(p) == dir && declares(p));
    if let Some(one) = others.next() {
        // (The variant itself speaking of its skill names the skill: no mention of itself.)
        return (others.next().is_none() && one.1 != src).then_some(one.0);
    }
    invoked_command(src, name, cue_bits, path, bearers)
}

/// The command an invocation (`/x`, `/p:x`) names along with the skill `x` it runs: the
/// client runs the skill, which takes precedence over a command of its name (`decide`), but
/// the command file is what the user types the invocation into and what forwards it, so
/// a change to either is a change to what `/x` does. Only the one command of the skill's unit
/// (`one_unit`); a bare name is the skill's alone.
fn invoked_command(
    src: &str,
    name: &str,
    cue_bits: u64,
    skill: &str,
    bearers: &[(i64, &str)],
) -> Option<i64> {
    if cue_bits & (cue::SLASH | cue::NAMESPACE) == 0 || entity_of(skill, name) != Entity::Skill {
        return None;
    }
    let mut commands = bearers
        .iter()
        .filter(|(_, p)| entity_of(p, name) == Entity::Command && one_unit(p, skill));
    let one = commands.next()?;
    (commands.next().is_none() && one.1 != src).then_some(one.0)
}

/// Whether the Markdown file at `path`, bearing the bare `name`, bears it as a name it declares
/// (its frontmatter's, its skill folder's), not as its stem (`twin`).
pub fn declares_name(path: &str, name: &str) -> bool {
    let (dir, base) = path.rsplit_once('/').unwrap_or(("", path));
    let md = base
        .rsplit_once('.')
        .is_some_and(|(_, x)| x.eq_ignore_ascii_case("md"));
    md && !super::names::stem_of(base).eq_ignore_ascii_case(name)
        && (!base.eq_ignore_ascii_case("SKILL.md") || dir.rsplit('/').next() == Some(name))
}

/// What the file at a root-relative path defines, by its folders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entity {
    Agent,
    Command,
    Skill,
    Other,
}

pub fn entity_of(path: &str, name: &str) -> Entity {
    // Called for every bearer of a name: no allocation.
    let (dir, base) = path.rsplit_once('/').unwrap_or(("", path));
    let parent = dir.rsplit('/').next().unwrap_or(dir);
    let md = base.ends_with(".md");
    // A documentation site mirrors the tree it documents (`docs/agents/x.md` beside
    // `agents/x.md`, `docs/commands/x.md`): its pages are about the things, not the things.
    let above = |folder: &str| {
        dir.split('/')
            .take_while(|c| *c != folder)
            .any(|c| c == "docs")
    };
    // OpenCode keeps them in singular folders (`.opencode/agent/`, `.opencode/command/`).
    let opencode = |kind: &str| parent == kind && dir.rsplit('/').nth(1) == Some(".opencode");
    if md && (parent == "agents" || opencode("agent")) && !above("agents") {
        return Entity::Agent;
    }
    // An agent in a folder of its own (`agents/engineer/AGENT.md`), or defined as data
    // (`agents/yaml/release-agent.yaml`, whose `name:` is its stem): named as any agent is.
    if (super::names::folder_agent(path) || super::names::defines_agent(Some(dir), base))
        && !above("agents")
    {
        return Entity::Agent;
    }
    if md && (dir.split('/').any(|c| c == "commands") || opencode("command")) && !above("commands")
    {
        return Entity::Command;
    }
    if above("skills") {
        return Entity::Other;
    }
    // A skill is known by its folder (`skills/<name>/SKILL.md`) or by its frontmatter `name:`:
    // the only bare names a SKILL.md bears are those two.
    if base.eq_ignore_ascii_case("SKILL.md") && (parent == name || !name.contains(['/', '.'])) {
        return Entity::Skill;
    }
    // A skill written as one file (`.claude/skills/tdd.md`), invoked as `/tdd` as a folder's is.
    if md && parent == "skills" && !base.eq_ignore_ascii_case("README.md") {
        return Entity::Skill;
    }
    Entity::Other
}

/// `entity_of`, and an agent also by its frontmatter (`name:` with `tools:`, `model:` or
/// `color:`): a collection that files its agents by category (`categories/04-qa/debugger.md`)
/// names them as any agent is named.
pub fn entity_on_disk(path: &str, name: &str, disk: &dyn Disk) -> Entity {
    match entity_of(path, name) {
        Entity::Other if may_declare_agent(path) && disk.is_agent(path) => Entity::Agent,
        e => e,
    }
}

/// Whether `/name` may invoke the Markdown file at `path` though it lies in no `commands/`
/// folder: its stem is the compound `name`, and no folder says it is another kind of file (a
/// rule is loaded, a reference read, a documentation page about the thing).
fn invoked_as_command(path: &str, name: &str) -> bool {
    const OTHER_KINDS: [&str; 6] = [
        "docs",
        "rules",
        "references",
        "templates",
        "hooks",
        "output-styles",
    ];
    let base = path.rsplit('/').next().unwrap_or(path);
    base.strip_suffix(".md") == Some(name)
        && name.contains(['-', '_'])
        && !path.split('/').any(|c| OTHER_KINDS.contains(&c))
}

/// Whether the file at `path` may be an agent by its frontmatter alone: Markdown that is no
/// skill's `SKILL.md`, lies in no `commands/` folder and is not directly in an `agents/` one
/// (those are known by their folder). The client finds agents in subfolders of `agents/` too
/// (`agents/quality-testing/debugger.md`), beside their guides: there the frontmatter says.
pub fn may_declare_agent(path: &str) -> bool {
    let (dir, base) = path.rsplit_once('/').unwrap_or(("", path));
    let parent = dir.rsplit('/').next().unwrap_or(dir);
    crate::scan::frontmatter::applies_to(path)
        && !base.eq_ignore_ascii_case("SKILL.md")
        && parent != "agents"
        && !dir.split('/').any(|c| c == "commands")
}

/// The plugin folder holding `path`: `…/plugins/p` for a path under `plugins/p/`, or the
/// nearest folder above with a manifest when that lies deeper.
pub fn plugin_of<'p>(path: &'p str, disk: &dyn Disk) -> Option<&'p str> {
    // A marketplace may keep its plugins anywhere (`./filament-specialist` in its
    // `marketplace.json`, `plugins/skills/dex-skill-x/` grouped by kind): a plugin is the
    // folder that holds a `.claude-plugin/plugin.json`.
    let manifest = disk.plugin_len(dir_of(path));
    let mut at = 0;
    let mut it = path.split('/');
    while let Some(c) = it.next() {
        at += c.len() + 1;
        if c == "plugins" {
            let p = it.next().filter(|_| it.clone().next().is_some())?;
            let n = (at + p.len()).max(manifest);
            return Some(&path[..n]);
        }
    }
    (manifest > 0).then(|| &path[..manifest])
}

/// Whether a mention's namespace (`/core:hatch`) is another plugin's than its writer's.
fn names_another_plugin(m: &Mention<'_>, disk: &dyn Disk) -> bool {
    let ns = m.via.and_then(|v| v.strip_suffix(':'));
    match (m.cue & cue::NAMESPACE != 0, ns, plugin_of(m.src, disk)) {
        (true, Some(ns), Some(own)) => !plugin_named(own, ns, disk) && is_plugin(own, ns, disk),
        _ => false,
    }
}

/// A plugin's name: its folder's.
fn plugin_name(folder: &str) -> &str {
    folder.rsplit('/').next().unwrap_or(folder)
}

/// Whether the plugin in `folder` is called `ns`: by its folder's name, or by the name its
/// manifest declares (`plugin/` declaring `"name": "claude-workflow"` is invoked as
/// `claude-workflow:planner`). (The index re-decides the names under a plugin whose manifest
/// is read again.)
fn plugin_named(folder: &str, ns: &str, disk: &dyn Disk) -> bool {
    plugin_name(folder) == ns
        || disk
            .text(&format!("{folder}/.claude-plugin/plugin.json"))
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .is_some_and(|v| v.get("name").and_then(|n| n.as_str()) == Some(ns))
}

/// Whether a plugin named `ns` sits beside the plugin folder `plugin` (`…/plugins/ns/`).
fn is_plugin(plugin: &str, ns: &str, disk: &dyn Disk) -> bool {
    let beside = match plugin.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{ns}"),
        None => ns.to_string(),
    };
    disk.at(&beside) == OnDisk::Dir
}

/// How long the path of the plugin folder holding `dir` is: the nearest folder above with a
/// `.claude-plugin/plugin.json`, not the root (a repository that is one plugin has no
/// boundaries within); 0 for none.
pub fn plugin_len_by<D: Disk + ?Sized>(disk: &D, dir: &str) -> usize {
    let mut d = dir;
    while !d.is_empty() {
        if disk.at(&format!("{d}/.claude-plugin/plugin.json")) == OnDisk::File {
            return d.len();
        }
        d = d.rsplit_once('/').map_or("", |(p, _)| p);
    }
    0
}

/// Whether `word` (any case) is a common English word, or the plural of one.
pub fn is_common_word(word: &str) -> bool {
    // Called for most mentions: lower-cased on the stack, no allocation.
    let mut buf = [0u8; 48];
    if word.len() >= buf.len() {
        return false;
    }
    let w = &mut buf[..word.len()];
    w.copy_from_slice(word.as_bytes());
    w.make_ascii_lowercase();
    let known = crate::store::is_listed_word;
    if known(w) {
        return true;
    }
    if let Some(s) = w.strip_suffix(b"ies") {
        let n = s.len();
        let mut y = [0u8; 48];
        y[..n].copy_from_slice(s);
        y[n] = b'y';
        if known(&y[..=n]) {
            return true;
        }
    }
    if w.strip_suffix(b"es").is_some_and(known) {
        return true;
    }
    if w.strip_suffix(b"s").is_some_and(known) {
        return true;
    }
    // A verb's -ing form is as common as the verb or its doer, which the list may hold alone
    // (`messaging` for message, `storytelling` for storyteller).
    match w.strip_suffix(b"ing") {
        Some(s) if s.len() >= 3 => {
            let n = s.len();
            let mut x = [0u8; 48];
            x[..n].copy_from_slice(s);
            x[n] = b'e';
            x[n + 1] = b'r';
            known(s) || known(&x[..=n]) || known(&x[..n + 2])
        }
        _ => false,
    }
}

/// Below this many characters a word without a separator is no distinctive name (`os`, `qa`,
/// `gen`, `cli`): such a stem names its file with a cue, an import or a path, never bare.
pub const MIN_DISTINCTIVE_CHARS: usize = 4;

/// A name made of words: with a separator or in camel case (`coding-style`, `tbTools`).
fn is_compound(name: &str) -> bool {
    name.contains(['-', '_', '.', ':']) || is_camel(name)
}

/// Words joined by hyphens (`stage-pause-and-reflect`): no identifier of any language the
/// index reads.
fn is_kebab(name: &str) -> bool {
    name.contains('-')
        && name
            .split('-')
            .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// A lower-case letter followed by an upper-case one (`tbTools`).
fn is_camel(name: &str) -> bool {
    name.as_bytes()
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
}

/// Capital letters and digits together (`US4`, `T01`, `ADR12`): a story's, task's or record's
/// identifier, never a word however short.
fn is_code_id(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() >= 3
        && b.iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && b.iter().any(u8::is_ascii_digit)
        && b.iter().any(u8::is_ascii_uppercase)
}

/// A name is distinctive when it has a separator, or is not a common word and not short.
pub fn is_distinctive(name: &str) -> bool {
    if name.contains(['-', '_', '.', ':']) || is_code_id(name) {
        return true;
    }
    if name.chars().count() < MIN_DISTINCTIVE_CHARS {
        return false;
    }
    is_camel(name) || !is_common_word(name)
}

/// An agentive noun (`analyst`, `reviewer`, `architect`): how an agent is spoken of.
pub fn is_role_noun(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "er", "or", "ist", "yst", "ian", "ant", "ect", "eer", "ent", "ee",
    ]
    .iter()
    .any(|s| n.len() > s.len() + 2 && n.ends_with(s))
}

/// What a decision may ask of the disk: whether a root-relative path is a file or a folder, and
/// whether a Markdown file declares an agent in its frontmatter (`frontmatter::declares_agent`).
pub trait Disk {
    fn at(&self, path: &str) -> OnDisk;
    fn is_agent(&self, _path: &str) -> bool {
        false
    }
    /// The text of a small file (a package's entry point), if it can be read.
    fn text(&self, _path: &str) -> Option<std::sync::Arc<str>> {
        None
    }
    /// `plugin_len_by` for the folder `dir`.
    fn plugin_len(&self, dir: &str) -> usize {
        plugin_len_by(self, dir)
    }
}

/// A bare probe: what a path is, no frontmatter.
impl<F: Fn(&str) -> OnDisk> Disk for F {
    fn at(&self, path: &str) -> OnDisk {
        self(path)
    }
}

/// The mention being decided.
#[derive(Debug, Clone, Copy)]
pub struct Mention<'a> {
    pub src: &'a str,
    pub name: &'a str,
    pub cue: u64,
    pub via: Option<&'a str>,
    /// The evidence: the line around the name (read for a `from P import …` line's names).
    pub text: &'a str,
}

/// What a root-relative path is on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnDisk {
    File,
    Dir,
    Missing,
}

/// Where the tree's root lies for `~/` paths: set when the root is the home directory.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tree {
    pub root_is_home: bool,
    /// The root is a user's client folder as kept in a repository (`settings.json`, `skills/`
    /// at the root, no `.claude/` of its own: installed as `~/.claude`). Its `CLAUDE.md` is
    /// the user's, read in every project: "the project's CLAUDE.md" is another file.
    pub root_is_client: bool,
}

/// Whether a mention in the file `src` is weak whatever files bear its name: a URL, a folder
/// inside a longer path, a bare word in source code (an identifier of that code), or a plain
/// common word with no cue that no kind of bearer takes bare (`bare_kind`: only an agent's role
/// noun, or a skill's name inside its own folder, would). Such mentions need not be kept to be
/// re-resolved when bearers change; most of a code tree's mentions are such words.
/// `distinctive()` says whether the name is distinctive, asked only when needed (a matcher
/// knows it per name: `Matcher::is_distinctive`).
pub fn never_an_edge(
    src: &str,
    name: &str,
    distinctive: impl FnOnce() -> bool,
    cue: u64,
    via: Option<&str>,
) -> bool {
    if cue & cue::NO_NAME != 0 {
        return true;
    }
    // A capitalised word is a title word or a sentence's first: only an agent's role noun, or
    // a name with a cue, may name a file by it; never as a path or an import (ours are written
    // as the file is named).
    if cue & cue::CAPITAL != 0
        && (via.is_some() || cue & cue::IMPORT != 0 || cue & cue::NAMED == 0 && !is_role_noun(name))
    {
        return true;
    }
    if cue & cue::FENCE != 0
        && cue & cue::IMPORT != 0
        && cue & cue::ENTRY == 0
        && via.is_some_and(|v| !fence_import_says_whose(v))
    {
        return true;
    }
    if via.is_some() || name.contains(['.', '/']) || cue & cue::IMPORT != 0 {
        return false;
    }
    // `npx ruv-swarm`, `pip install x`: the published package, whatever file shares its name.
    // (A script run by name is the file its command runs, read when decided.)
    if cue & cue::PACKAGE != 0 {
        return cue & cue::SCRIPT == 0;
    }
    // A package's `__init__.py` lists its submodules by name in strings (`lists_submodule`).
    if cue & cue::LITERAL != 0 && src.rsplit('/').next() == Some("__init__.py") {
        return false;
    }
    if cue & cue::CODE_FILE != 0 {
        return true;
    }
    cue & (cue::NAMED | cue::FOLDER | cue::ROOT | cue::CAPS | cue::ARG | cue::PROPER) == 0
        && !distinctive()
        && !is_role_noun(name)
        && !src.split('/').any(|c| c == name)
}

/// Decides one mention against `bearers` (`(id, path)`, every file bearing the name).
/// `exists.at(p)`: whether the root-relative path `p` is a file of the tree (indexed or not).
pub fn decide(m: &Mention<'_>, bearers: &[(i64, &str)], tree: Tree, exists: &dyn Disk) -> Decision {
    decide_with(m, bearers, tree, exists, None)
}

/// `decide`, with a prebuilt `Nearest` index over all `bearers` (for names borne by many files:
/// used when every bearer qualifies, the common case, in O(depth)).
pub fn decide_with(
    m: &Mention<'_>,
    bearers: &[(i64, &str)],
    tree: Tree,
    exists: &dyn Disk,
    nearest: Option<&Nearest>,
) -> Decision {
    decide_hinted(m, bearers, tree, exists, nearest, None)
}

/// What every bearer of a name has in common, worked out once per name (for names borne by
/// many files, where looking at each bearer for each mention is most of the cost).
#[derive(Debug, Clone, Copy)]
pub struct NameHint {
    /// Every bearer is a plain file (no agent, command or skill) outside any `plugins/` folder
    /// and any fixtures, and the name has no extension: a bare mention's decision is the same
    /// for all of them.
    pub plain: bool,
}

impl NameHint {
    pub fn of(name: &str, bearers: &[(i64, &str)], disk: &dyn Disk) -> NameHint {
        let plain = !name.contains(['.', '/'])
            && bearers.iter().all(|(_, p)| {
                entity_on_disk(p, name, disk) == Entity::Other
                    && plugin_of(p, disk).is_none()
                    && !is_template(p)
                    && fixture_root(p).is_none()
            });
        NameHint { plain }
    }
}

/// `decide_with`, with what is known of the name's bearers as a whole.
pub fn decide_hinted(
    m: &Mention<'_>,
    bearers: &[(i64, &str)],
    tree: Tree,
    exists: &dyn Disk,
    nearest: Option<&Nearest>,
    hint: Option<NameHint>,
) -> Decision {
    if m.cue & cue::NO_NAME != 0 || bearers.is_empty() {
        return Decision::Weak;
    }
    // (`bun run scripts/x.ts` runs a file by its path, decided as paths are.)
    if m.cue & cue::SCRIPT != 0 && m.via.is_none() && !m.name.contains('.') {
        return script_file(m, bearers, exists);
    }
    // A namespace not invoked is a plugin's or a folder's (`p:x`, `git:commit` for
    // `commands/git/`): one that is neither for any bearer of a plugin is another scheme's
    // (`"test:coverage"`, an npm script; `type:feature`, a label), not the command of the
    // plugin that keeps `coverage.md`. (Invoked, `/hub:status` may be a namespace the
    // command's own frontmatter declares.)
    if let Some(ns) = m.via.and_then(|v| v.strip_suffix(':')) {
        let fits = |p: &str| {
            p.split('/').any(|c| c == ns)
                || plugin_of(p, exists).is_none_or(|pl| plugin_named(pl, ns, exists))
        };
        // (A file's name before the colon is a mapping's, `"CLAUDE.md:UPSTREAM-CLAUDE.md"`.)
        if m.cue & (cue::NAMESPACE | cue::SLASH) == cue::NAMESPACE
            && !ns.contains('.')
            && !bearers.iter().any(|(_, p)| fits(p))
        {
            return Decision::Weak;
        }
    }
    // "Any `.claude/settings.json`", "each `.claude/CLAUDE.md`": a file every project keeps,
    // in the client's folder every project keeps, written as the kind of file. (A path with
    // folders of the tree's own after "a" names it: "add a `user/hooks/CLAUDE.md` section".)
    if m.cue & (cue::ANY | cue::OTHERS) == cue::ANY {
        let written = m.via.unwrap_or(m.name);
        if let Some((dir, base)) = written.rsplit_once('/') {
            let hidden = dir
                .split('/')
                .all(|c| c.starts_with('.') && c != "." && c != "..");
            if hidden && (is_client_file(base) || base.starts_with("settings.")) {
                return Decision::Weak;
            }
        }
    }
    // A name of one or two letters (`do`, `qa`, `os`) is a word a reader cannot tell from any
    // other, even invoked (`/do`, `` `qa` ``): only code's import of the module (`import os`,
    // `from app import db`) or a path with folders (`/en/skills/ba/`) names it. (The labelled
    // method lists no line for such a name: an edge there is one no reader would find.)
    if m.name.chars().count() < 3
        && m.cue & cue::IMPORT == 0
        && !m.via.is_some_and(|v| v.contains('/'))
    {
        return Decision::Weak;
    }
    if m.cue & cue::TAIL != 0 && !m.via.is_some_and(|v| v.contains('/')) {
        return Decision::Weak;
    }
    if m.cue & cue::ARG != 0 && m.via.is_none() {
        if let Some(d) = subcommand(m, bearers, exists) {
            return d;
        }
    }
    if m.cue & cue::SLASHED != 0 {
        return decide_slashed(m, bearers, tree, exists, nearest, hint);
    }
    let path_like = m
        .via
        .filter(|v| v.contains('/') || m.cue & cue::IMPORT != 0);
    if let Some(via) = path_like {
        // An example's import in a document names the example's own modules unless its
        // folders say which of ours (`from plugin_eval.models import …`).
        // (A member of the tree's own package, bound by its name, is asked of its entry.)
        if m.cue & cue::FENCE != 0
            && m.cue & cue::IMPORT != 0
            && m.cue & cue::ENTRY == 0
            && !fence_import_says_whose(via)
        {
            return Decision::Weak;
        }
        let kind = if m.cue & cue::QUALIFIED != 0 {
            RefKind::Use
        } else if m.cue & cue::IMPORT != 0 {
            RefKind::Import
        } else {
            RefKind::Path
        };
        let d = if m.cue & cue::ENTRY != 0 {
            decide_entry(m, via, kind, bearers, exists)
        } else {
            decide_path(m, via, kind, bearers, tree, exists)
        };
        let d = namesake_module(m, d, bearers);
        // An example's import by a bare name is of a module of code, never a document or a
        // skill named after the library (`import geopandas` beside a skill `geopandas`).
        if m.cue & (cue::FENCE | cue::IMPORT) == cue::FENCE | cue::IMPORT
            && !fence_import_has_folders(via)
        {
            if let Decision::Edge(id, ..) = d {
                let code = bearers.iter().any(|(b, p)| {
                    *b == id && cue::lang_of(p, b"").is_some_and(|l| l != cue::Lang::Shell)
                });
                if !code {
                    return Decision::Weak;
                }
            }
        }
        // A drawing whose root leads nowhere draws the writer's folder under another name,
        // when the entry is there beside the writer (an example project's `package.json`
        // drawn in a guide is no file of ours).
        if d == Decision::Weak && m.cue & cue::DRAWN != 0 {
            let beside = via.split_once('/').filter(|(_, rest)| {
                join_normal(dir_of(m.src), rest)
                    .is_some_and(|p| bearers.iter().any(|(_, b)| *b == p))
            });
            if let Some((_, rest)) = beside {
                let own = format!("./{rest}");
                let from_here = Mention {
                    via: Some(&own),
                    cue: m.cue & !cue::DRAWN,
                    ..*m
                };
                return decide_hinted(&from_here, bearers, tree, exists, nearest, hint);
            }
        }
        // An invocation's path of commands that leads nowhere (`/project:tm/learn`, the
        // command since moved): its last word, invoked.
        if d == Decision::Weak && m.cue & cue::SLASH != 0 && via.ends_with(m.name) {
            let invoked = Mention { via: None, ..*m };
            return decide_hinted(&invoked, bearers, tree, exists, nearest, hint);
        }
        return d;
    }
    // A name with folders is a path suffix even when written alone.
    if m.name.contains('/') {
        return decide_path(m, m.name, RefKind::Path, bearers, tree, exists);
    }
    // In prose, the name of a folder that holds the writer is that folder's topic
    // (`go/managed-agents/README.md` on "managed-agents flows"), not a file of the name
    // elsewhere (`curl/managed-agents.md`); an invocation, a namespace, a key or a kind said
    // beside it ("the memory skill" in `memory/exports/`) still says which. A file beside the
    // folder and named as it is owns it (`agents/x.md` and its `agents/x/evals/`): its name.
    // A documentation folder named after a command or an agent (`docs/specs/spot-check/`
    // beside the command `spot-check`) holds writings about that thing, its spec and plans:
    // the name is the thing. (A tool's folder so named, `tools/librarian-ask/`, is the tool.)
    // A value in data is no prose: `"entity_id": "design-skeptic"` in a record kept in
    // `variants/design-skeptic/` names the agent the folder's records are about.
    if m.via.is_none()
        && m.cue & (cue::SOURCE | cue::SLASH | cue::NAMESPACE | cue::KEY | cue::KINDS) == 0
        && !cue::is_data(m.src)
        && in_folder_named(m.src, m.name).is_some_and(|folder| {
            let about = dir_of(folder)
                .split('/')
                .any(|c| matches!(c, "docs" | "doc" | "specs" | "spec" | "plans"));
            !bearers.iter().any(|(_, p)| {
                is_within(p, folder)
                    || owns_folder(p, folder)
                    || about && matches!(entity_of(p, m.name), Entity::Command | Entity::Agent)
            })
        })
    {
        return Decision::Weak;
    }
    // A capitalised word without a cue names only an agent kept by a skill around it
    // (`bare_kind`); else it is a title's or a sentence's word, not even a self mention.
    if m.cue & cue::CAPITAL != 0
        && m.cue & cue::NAMED == 0
        && !bearers.iter().any(|(_, p)| kept_around(p, m.src))
    {
        return Decision::Weak;
    }
    // Plain files all decide alike: a bare word in code or a common word is no name of any of
    // them; a distinctive one names the nearest (the index answers self mentions as a tie).
    if let (Some(h), Some(idx), None) = (hint, nearest, m.via) {
        if h.plain && m.cue & cue::FOLDER == 0 {
            if idx.bears(m.src) {
                return Decision::Tie;
            }
            if m.cue & (cue::CODE_FILE | cue::SOURCE | cue::LOWERED) != 0
                || !is_distinctive(m.name)
                || m.cue & cue::CAPITAL != 0 && m.cue & cue::NAMED == 0
            {
                return Decision::Weak;
            }
            return match idx.resolve(m.src) {
                Some((id, res)) => Decision::Edge(id, res, RefKind::Name),
                None => Decision::Tie,
            };
        }
    }
    // A file that bears the name itself is not referring to another (a self mention), unless
    // it is a document about a thing of that name (a documentation page about a command says
    // `/saas-health` of the command). A program of the name is no such page: its usage text
    // (`#   ai-coding-usage --schema`) is its own, beside the skill that wraps it; invoked
    // (`/x`), the name is still the command's.
    // (`/core:hatch` in another plugin's `hatch` skill names core's: the namespace says whose.)
    // ("spawns the my-review agent" in the `my-review` skill: the agent of the name, which the
    // kind said beside it sets apart from the skill saying it.)
    // (Asked of self mentions only: it weighs every bearer's kind.)
    let kinds = m.cue & cue::KINDS;
    let another_kind = || {
        kinds != 0
            && is_distinctive(m.name)
            && kinds & kind_word(entity_on_disk(m.src, m.name, exists)) == 0
            && bearers.iter().any(|(_, p)| {
                *p != m.src && kinds & kind_word(entity_on_disk(p, m.name, exists)) != 0
            })
    };
    if bearers.iter().any(|(_, p)| *p == m.src)
        && !names_another_plugin(m, exists)
        && !another_kind()
    {
        let about_a_thing = !m.name.contains('.')
            && entity_on_disk(m.src, m.name, exists) == Entity::Other
            && (m.cue & (cue::SLASH | cue::NAMESPACE) != 0 || !is_program_file(m.src, m.name))
            && bearers
                .iter()
                .any(|(_, p)| *p != m.src && entity_on_disk(p, m.name, exists) != Entity::Other);
        if !about_a_thing {
            return Decision::Tie;
        }
    }
    // Per mention, not per bearer: a common word's check is a binary search over 40k words.
    let distinctive = is_distinctive(m.name);
    let only = bearers.len() == 1;
    let mut qualified: Vec<(i64, &str, RefKind)> = bearers
        .iter()
        .filter_map(|(id, p)| {
            bare_kind(m, p, distinctive, only, tree, exists).map(|k| (*id, *p, k))
        })
        .collect();
    // Between things of several kinds, the kind said beside the name decides ("the
    // `recover-context` skill" beside a command of the name). Alone, a thing keeps its name
    // whatever it is called: writers call an agent or a command a skill.
    if kinds != 0 {
        narrow(&mut qualified, |p| {
            kinds & kind_word(entity_on_disk(p, m.name, exists)) != 0
        });
    }
    // Run as a program (`session-metrics --compare a b`), a name is the script of that stem
    // that runs, not the skill or the agent that shares it.
    if m.cue & cue::RUN != 0 && qualified.len() > 1 {
        let scripts: Vec<_> = qualified
            .iter()
            .copied()
            .filter(|(_, p, _)| is_program_file(p, m.name))
            .collect();
        if scripts.len() == 1 {
            qualified = scripts;
        }
    }
    // A kind of file said after the name ("the issue-writer prompt") is the one of that name
    // kept in a folder of that kind (`tools/prompts/issue-writer.md`), not a skill of the name.
    // (Where that one is not named so here, in a comment of code, the name is no other's.)
    // Invoked (`/gsd:plan-phase Workflow`), the name is the command whatever is said after it.
    if let Some(noun) =
        cue::folder_noun(m.cue).filter(|_| m.cue & (cue::SLASH | cue::NAMESPACE) == 0)
    {
        let kept_as = |p: &str| {
            dir_of(p).split('/').any(|c| {
                let c = c.strip_suffix('s').unwrap_or(c);
                c.eq_ignore_ascii_case(noun)
            })
        };
        if bearers.iter().any(|(_, p)| kept_as(p)) && !qualified.iter().any(|q| kept_as(q.1)) {
            qualified.clear();
        }
        narrow(&mut qualified, kept_as);
    }
    // A thing's name (an agent's, a command's, a skill's) written bare names the thing, not a
    // document that bears the name too: a documentation page about it, a guide named after it.
    // (A file name with its extension names files alike.)
    if !m.name.contains('.') && !hint.is_some_and(|h| h.plain) {
        narrow(&mut qualified, |p| {
            entity_on_disk(p, m.name, exists) != Entity::Other
        });
    }
    // Written outside any plugin, a bare name of an agent, a skill or a command the tree keeps
    // both on its own and in a plugin (`project/.claude/agents/x.md`, `plugin/agents/x.md`
    // bundled for the marketplace) is the tree's own: the plugin's copy is installed with the
    // plugin, for others. (A path, a key or a namespace says otherwise; a file name borne in
    // many folders, `RESEARCH.md`, stays a tie; a folder of the writer's or a URL that names
    // one copy's says which: `by_folder`.)
    if m.via.is_none()
        && m.cue & cue::KEY == 0
        && qualified.len() > 1
        && !m.name.contains('.')
        && qualified
            .iter()
            .all(|q| entity_on_disk(q.1, m.name, exists) != Entity::Other)
        && plugin_of(m.src, exists).is_none()
        && by_folder(m, &qualified).is_none()
        // (A line naming a copy's plugin, by a link into it, means that one or says nothing.)
        && !names_a_bearers_plugin(m.text, qualified.iter().map(|q| q.1), exists)
    {
        narrow(&mut qualified, |p| plugin_of(p, exists).is_none());
    }
    // Of a thing kept twice, in the project's `.claude/` and as a source copy outside any
    // client's folder (`skills/x/` that an installer copies there; not `.gemini/`, another
    // client's), the name is the copy the client loads for this project, unless the writer is
    // inside the source copy's own folder. (Code reads either copy by its path, and a folder
    // written is either folder: no choice.)
    if m.via.is_none_or(|v| !v.contains('/'))
        && m.cue & (cue::SOURCE | cue::FOLDER) == 0
        && qualified.len() > 1
        && !m.name.contains('.')
        && qualified
            .iter()
            .filter(|q| q.1.starts_with(".claude/"))
            .count()
            == 1
        && qualified.iter().all(|q| {
            entity_on_disk(q.1, m.name, exists) != Entity::Other
                && (q.1.starts_with(".claude/")
                    || !q.1.split('/').any(|c| c.starts_with('.'))
                        && plugin_of(q.1, exists).is_none()
                        && !inside_folder_of(m.src, q.1))
        })
    {
        narrow(&mut qualified, |p| p.starts_with(".claude/"));
    }
    // A namespace names the plugin (`sdd:business-analyst`): among things of the name, the one
    // that plugin keeps, not a copy the repository keeps elsewhere (`agents/business-analyst.md`
    // synced for another client).
    if let Some(ns) = m.via.and_then(|v| v.strip_suffix(':')) {
        if m.cue & cue::NAMESPACE != 0 {
            narrow(&mut qualified, |p| {
                plugin_of(p, exists).is_some_and(|f| plugin_named(f, ns, exists))
            });
        }
    }
    // Invoked (`/omc-doctor`, `/plugin:omc-doctor`) where one unit keeps a skill and a
    // command of that name: the client runs the skill, which takes precedence over a command of
    // its name (and the command is named along with it: `invoked_command`).
    if m.cue & (cue::SLASH | cue::NAMESPACE) != 0 && qualified.len() > 1 {
        let of = |e: Entity| -> Vec<(i64, &str, RefKind)> {
            qualified
                .iter()
                .copied()
                .filter(|(_, p, _)| entity_on_disk(p, m.name, exists) == e)
                .collect()
        };
        let (skills, commands) = (of(Entity::Skill), of(Entity::Command));
        if let [skill] = skills.as_slice() {
            if skills.len() + commands.len() == qualified.len()
                && commands.iter().all(|c| one_unit(c.1, skill.1))
            {
                qualified = skills;
            }
        }
    }
    if let Some(idx) = nearest.filter(|_| qualified.len() == bearers.len()) {
        return match idx
            .resolve(m.src)
            .or_else(|| client_copy(m.src, &qualified))
            .or_else(|| by_folder(m, &qualified))
        {
            Some((id, res)) => {
                let kind = qualified
                    .iter()
                    .find(|q| q.0 == id)
                    .map_or(RefKind::Name, |q| q.2);
                Decision::Edge(id, res, kind)
            }
            None => Decision::Tie,
        };
    }
    pick(m, &qualified)
}

/// A subcommand of an invoked skill (`/chronicle stale`, `## Publish (/chronicle publish)`):
/// the file of that name the skill keeps, which the skill runs or reads for it
/// (`skills/chronicle/scripts/stale.ts`, `skills/impeccable/reference/craft.md`). `None` when
/// no invoked skill on the line keeps one (the word is then decided as any other).
fn subcommand(m: &Mention<'_>, bearers: &[(i64, &str)], exists: &dyn Disk) -> Option<Decision> {
    // (A file name says which file by itself: `/feature-lifecycle feature-spec.md`.)
    if m.name.contains('.') {
        return None;
    }
    let text = m.text.as_bytes();
    let invoked: Vec<&[u8]> = m
        .text
        .match_indices(m.name)
        .filter_map(|(i, _)| cue::invoked_before(text, i))
        .collect();
    let kept: Vec<(i64, &str)> = bearers
        .iter()
        .copied()
        .filter(|(_, p)| {
            // (Not the skill itself, whose `SKILL.md` may bear the word too: a variant's name.)
            !p.ends_with("/SKILL.md")
                && skill_folder(dir_of(p), exists).is_some_and(|f| {
                    let skill = f.rsplit('/').next().unwrap_or(f);
                    !f.is_empty()
                        && invoked
                            .iter()
                            .any(|w| w.eq_ignore_ascii_case(skill.as_bytes()))
                })
        })
        .collect();
    match kept.as_slice() {
        [] => None,
        // (The file itself, on its own subcommand: a self mention.)
        [(_, p)] if *p == m.src => Some(Decision::Tie),
        [(id, _)] => Some(Decision::Edge(*id, Resolution::Unique, RefKind::Name)),
        _ => Some(Decision::Tie),
    }
}

/// A name in a run of plain words joined by `/`. Where the run leads to a file or folder (from
/// the root or the mentioning file's folder), it is a path: its last word is decided as one,
/// the others are its folders. Where it leads nowhere, it is a list of alternatives
/// (`bug-hunter/verifier subagents`): a path's decision if that finds a file
/// (`agents/planner`), else the word's own (listed, `LIST`, when another name of the run is
/// distinctive: `mentions::slashed_lists`).
fn decide_slashed(
    m: &Mention<'_>,
    bearers: &[(i64, &str)],
    tree: Tree,
    exists: &dyn Disk,
    nearest: Option<&Nearest>,
    hint: Option<NameHint>,
) -> Decision {
    let run = m.via.unwrap_or(m.name);
    // (A name may hold folders itself: `bin/minify-md`, a file without an extension.)
    let last = run
        .strip_suffix(m.name)
        .is_some_and(|head| head.is_empty() || head.ends_with('/'));
    let as_path = Mention {
        cue: m.cue & !cue::SLASHED,
        ..*m
    };
    let dir = dir_of(m.src);
    let leads = exists.at(run) != OnDisk::Missing
        || join_normal(dir, run).is_some_and(|p| exists.at(&p) != OnDisk::Missing);
    if leads {
        return if last {
            decide_hinted(&as_path, bearers, tree, exists, nearest, hint)
        } else {
            Decision::Weak
        };
    }
    if last {
        let d = decide_hinted(&as_path, bearers, tree, exists, nearest, hint);
        if matches!(d, Decision::Edge(..)) {
            return d;
        }
    }
    // Only the name of a thing: pairs of words are mostly other things' names (`sst/opencode`,
    // a branch `claude/fix-x`, `deployment/runtime`), which a plain file's stem would take.
    let word = Mention {
        via: None,
        ..as_path
    };
    match decide_hinted(&word, bearers, tree, exists, nearest, hint) {
        Decision::Edge(id, _, _)
            if bearers
                .iter()
                .find(|b| b.0 == id)
                .is_none_or(|(_, p)| entity_on_disk(p, m.name, exists) == Entity::Other) =>
        {
            Decision::Weak
        }
        d => d,
    }
}

/// Keeps the bearers `keep` holds to, when some but not all of them are (one thing among
/// several; none said otherwise leaves the choice as it was).
fn narrow(qualified: &mut Vec<(i64, &str, RefKind)>, keep: impl Fn(&str) -> bool) {
    if qualified.len() < 2 {
        return;
    }
    let kept: Vec<_> = qualified.iter().copied().filter(|q| keep(q.1)).collect();
    if !kept.is_empty() && kept.len() < qualified.len() {
        *qualified = kept;
    }
}

/// Whether the file at `path` is a program that `name` runs: a script of that stem (Python,
/// JavaScript, shell, Ruby) or an executable without an extension of that name.
fn is_program_file(path: &str, name: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    let stem = crate::scan::names::stem_of(base);
    stem == name
        && (stem == base
            || matches!(
                base[stem.len() + 1..].to_ascii_lowercase().as_str(),
                "py" | "sh" | "bash" | "js" | "mjs" | "cjs" | "ts" | "rb"
            ))
}

/// Whether a command and a skill are of one unit, whose client folder installs both: one kit
/// (`plugins/p/commands/` and `plugins/p/skills/`), or the tree outside plugins, skills and
/// client folders (an installer may map a kit's `core/skills/` and the root's `commands/` into
/// one client folder). A command a skill keeps (`skills/road/…/commands/resume.md`) is that
/// skill's; one a project's `.claude/` keeps is that project's.
fn one_unit(a: &str, b: &str) -> bool {
    // (By folders alone, `plugins/<p>/`: `plugin_of` with no manifest on a bare probe.)
    let no_manifest = |_: &str| OnDisk::Missing;
    let outside = |p: &str| plugin_of(p, &no_manifest).is_none();
    // (A kit inside a client folder, `repos/app/.claude/`, is that project's, not the tree's.)
    let loose =
        |p: &str| kit_of(p).is_some_and(|k| !k.split('/').any(|c| c == "skills" || c == ".claude"));
    kit_of(a) == kit_of(b) || outside(a) && outside(b) && loose(a) && loose(b)
}

/// The folder that keeps the `commands/` or `skills/` folder holding `path` (`""` for the
/// root's, `plugins/p` for a plugin's, `.claude` for a project's): where the client looks
/// both up together.
fn kit_of(path: &str) -> Option<&str> {
    let comps: Vec<&str> = path.split('/').collect();
    let at = comps
        .iter()
        .rposition(|c| *c == "commands" || *c == "skills")?;
    let len: usize = comps[..at].iter().map(|c| c.len() + 1).sum();
    Some(&path[..len.saturating_sub(1)])
}

/// The word (`cue::AS_*`) that says a thing is of this kind.
fn kind_word(entity: Entity) -> u64 {
    match entity {
        Entity::Agent => cue::AS_AGENT,
        Entity::Skill => cue::AS_SKILL,
        Entity::Command => cue::AS_COMMAND,
        Entity::Other => cue::AS_HOOK,
    }
}

/// The nearest of the qualified bearers, as `resolve` decides among same-named files.
fn pick(m: &Mention<'_>, qualified: &[(i64, &str, RefKind)]) -> Decision {
    if qualified.is_empty() {
        return Decision::Weak;
    }
    let src = m.src;
    let pairs = || qualified.iter().map(|(id, p, _)| (*id, *p));
    match resolve(src, pairs())
        .or_else(|| client_copy(src, qualified))
        .or_else(|| by_folder(m, qualified))
        .or_else(|| module_not_barrel(src, qualified))
    {
        Some((id, res)) => {
            let kind = qualified
                .iter()
                .find(|q| q.0 == id)
                .map_or(RefKind::Name, |q| q.2);
            Decision::Edge(id, res, kind)
        }
        None => Decision::Tie,
    }
}

/// Whether the decision `d` may differ on another line of the same file with the same name,
/// cue and written form: a tie or a nearest bearer, which `by_folder` decides by a URL on the
/// line (`has_url`), so a file's decision for the name is no answer for its other lines that
/// hold one. (The writer's folders, its other evidence, are the file's.)
pub fn reads_line(d: Decision) -> bool {
    matches!(d, Decision::Tie | Decision::Edge(_, Resolution::Nearest, _))
}

/// Whether a line names the plugin of one of the name's bearers' paths (a link into it, its
/// name): of copies kept on their own and in plugins, such a line means that copy or says
/// nothing, so a file's decision for the name is no answer for it.
pub fn names_a_bearers_plugin<'p>(
    text: &str,
    mut bearers: impl Iterator<Item = &'p str>,
    disk: &dyn Disk,
) -> bool {
    bearers.any(|p| plugin_of(p, disk).is_some_and(|pl| text.contains(plugin_name(pl))))
}

/// Whether a line holds a URL, whose folders `by_folder` reads.
pub fn has_url(text: &str) -> bool {
    text.contains("://")
}

/// A tie decided by a folder only one bearer lies in, which the writer lies in too or a URL on
/// the line has: copies of a plugin's skill synced elsewhere
/// (`plugins/kaizen/skills/x/SKILL.md`, `skills/x/SKILL.md`) are told apart by `kaizen` in
/// the writer's folders (`guides/kaizen/usage.md`) or in a URL on the line
/// (`https://docs.example/plugins/kaizen/x`). Conventional folder names (`plugins`, `docs`) say
/// nothing of whose; imports are not decided so; never a self mention.
fn by_folder(m: &Mention<'_>, qualified: &[(i64, &str, RefKind)]) -> Option<(i64, Resolution)> {
    const CONVENTIONAL: [&str; 16] = [
        "plugins",
        "plugin",
        "skills",
        "agents",
        "commands",
        "hooks",
        "rules",
        "docs",
        "doc",
        "src",
        "lib",
        "references",
        "scripts",
        "templates",
        "examples",
        ".claude",
    ];
    // (Code names its modules by import paths, not by where a writer is.)
    let code = qualified
        .iter()
        .any(|q| matches!(q.2, RefKind::Import | RefKind::Use));
    if qualified.len() < 2 || code || qualified.iter().any(|q| q.1 == m.src) {
        return None;
    }
    fn folders(p: &str) -> Vec<&str> {
        dir_of(p).split('/').filter(|f| !f.is_empty()).collect()
    }
    let writer = folders(m.src);
    // A URL's folders (`https://docs.example/plugins/kaizen/x`), not a relative link's: that
    // one leads to its own file, whatever its text says.
    let urls: Vec<&str> = m
        .text
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '"' | '\'' | '<' | '>'))
        .filter(|t| has_url(t))
        .collect();
    let said = |f: &str| {
        writer.contains(&f)
            || urls
                .iter()
                .any(|u| u.split('/').skip(3).any(|seg| seg == f))
    };
    // How many bearers lie in a folder of each name: a folder one alone lies in is its own.
    let mut lying_in: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (_, p, _) in qualified {
        let mut fs = folders(p);
        fs.sort_unstable();
        fs.dedup();
        for f in fs {
            *lying_in.entry(f).or_default() += 1;
        }
    }
    let mut hits = qualified.iter().filter(|(_, p, _)| {
        folders(p).into_iter().any(|f| {
            !CONVENTIONAL.iter().any(|c| f.eq_ignore_ascii_case(c))
                && lying_in.get(f) == Some(&1)
                && said(f)
        })
    });
    let (id, _, _) = hits.next()?;
    hits.next().is_none().then_some((*id, Resolution::Nearest))
}

/// The file a path in a package's own namespace leads to (`body-parser/raw`, `@s/core/x`):
/// the package is the nearest `package.json` above the writer (or the root's) whose `name`
/// heads the path; its `exports` map the subpath (`"./raw": "./lib/types/raw.js"`, conditions
/// read `require`, `import`, `default` first), or, without a map, the subpath is a path in the
/// package's folder (the package alone: its `main`, else `index.js`).
fn own_package_file(src_dir: &str, via: &str, exists: &dyn Disk) -> Option<String> {
    // The package's name as the path heads with it (`@scope/name` is two components): a
    // manifest that does not hold it quoted is not parsed.
    let mut parts = via.splitn(3, '/');
    let head = match parts.next()? {
        scope if scope.starts_with('@') => format!("{scope}/{}", parts.next()?),
        name if name.is_empty() || name.starts_with(['.', '~', '$']) => return None,
        name => name.to_string(),
    };
    let quoted = format!("\"{head}\"");
    let (dir, manifest, sub) = dir_and_above(src_dir).find_map(|dir| {
        let text = exists
            .text(&module_in(dir, "package.json"))
            .filter(|t| t.contains(&quoted))?;
        let manifest: serde_json::Value = serde_json::from_str(&text).ok()?;
        let name = manifest.get("name")?.as_str()?;
        if name != head {
            return None;
        }
        let sub = via.strip_prefix(name)?;
        let sub = if sub.is_empty() {
            ""
        } else {
            sub.strip_prefix('/')?
        };
        Some((dir, manifest, sub.to_string()))
    })?;
    let key = if sub.is_empty() {
        ".".to_string()
    } else {
        format!("./{sub}")
    };
    let target = match manifest.get("exports") {
        Some(serde_json::Value::String(s)) if sub.is_empty() => Some(s.clone()),
        Some(serde_json::Value::Object(map)) if map.keys().any(|k| k.starts_with('.')) => {
            map.get(&key).and_then(condition_target).or_else(|| {
                map.iter().find_map(|(k, v)| {
                    let (head, tail) = k.split_once('*')?;
                    let star = key.strip_prefix(head)?.strip_suffix(tail)?;
                    Some(condition_target(v)?.replace('*', star))
                })
            })
        }
        Some(serde_json::Value::Object(map)) if sub.is_empty() => {
            condition_target(&serde_json::Value::Object(map.clone()))
        }
        Some(_) => None,
        None if sub.is_empty() => Some(
            manifest
                .get("main")
                .and_then(|m| m.as_str())
                .unwrap_or("index.js")
                .to_string(),
        ),
        None => Some(sub),
    }?;
    join_normal(dir, &target)
}

/// The path an `exports` entry gives a require or an import: the string, or under conditions
/// the first of `require`, `import`, `node`, `default` that holds one (types are no module).
fn condition_target(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Object(map) => ["require", "import", "node", "default"]
            .iter()
            .find_map(|k| map.get(*k).and_then(condition_target)),
        _ => None,
    }
}

/// A tie between a module and its folder's entry point, which bears the folder's name
/// (`TabPanel/TabPanel.tsx` and `TabPanel/index.ts`, whose barrel re-exports it): the name is
/// the module's, which defines it. Never a self mention.
fn module_not_barrel(src: &str, qualified: &[(i64, &str, RefKind)]) -> Option<(i64, Resolution)> {
    if qualified.iter().any(|q| q.1 == src) {
        return None;
    }
    let barrel = |p: &str| {
        ENTRY_FILES.contains(&p.rsplit('/').next().unwrap_or(p))
            && qualified
                .iter()
                .any(|q| q.1 != p && dir_of(q.1) == dir_of(p))
    };
    let mut rest = qualified.iter().filter(|q| !barrel(q.1));
    let (id, _, _) = rest.next()?;
    (rest.next().is_none() && qualified.len() > 1).then_some((*id, Resolution::Nearest))
}

/// A tie between clients' copies, decided for the writer's client (`resolve::by_client`);
/// never a self mention.
fn client_copy(src: &str, qualified: &[(i64, &str, RefKind)]) -> Option<(i64, Resolution)> {
    if qualified.iter().any(|q| q.1 == src) {
        return None;
    }
    by_client(src, qualified.iter().map(|(id, p, _)| (*id, *p)))
}

/// Whether a bare occurrence (no path written around it) refers to the bearer at `path`.
fn bare_kind(
    m: &Mention<'_>,
    path: &str,
    distinctive: bool,
    only: bool,
    tree: Tree,
    disk: &dyn Disk,
) -> Option<RefKind> {
    let base = path.rsplit('/').next().unwrap_or(path);
    let cue = m.cue;
    // Plugins are boundaries for bare names (file names too: a plugin is installed on its own
    // and cannot see another's files); a namespace, a key or a path crosses them. So does a
    // distinctive name of a skill or an agent no other file of the tree bears: a plugin that
    // depends on another invokes its skills and agents by name ("the `writing-claude-directives`
    // skill"). A command is the user's to run; another plugin's guide names it as an example.
    // (The bearer's plugin only when the writer is in one: most trees have none.)
    let plugins = plugin_of(m.src, disk).and_then(|sp| Some((sp, plugin_of(path, disk)?)));
    if let Some((sp, tp)) = plugins {
        let ns_ok = m
            .via
            .and_then(|v| v.strip_suffix(':'))
            .is_some_and(|ns| plugin_named(tp, ns, disk));
        let unique_thing = only
            && distinctive
            && !m.name.contains('.')
            && match entity_on_disk(path, m.name, disk) {
                Entity::Skill => cue & (cue::NAMED | cue::KINDS) != 0,
                Entity::Agent => {
                    cue & (cue::NAMED | cue::KINDS) != 0 || prose_agent(m, plugin_name(sp))
                }
                _ => false,
            };
        if sp != tp && !ns_ok && cue & cue::KEY == 0 && !unique_thing {
            return None;
        }
    }
    // A fixture's name alone is the kind of file it samples, or the real one it copies (66
    // labelled lines of 66 in two trees: `fixtures/repo-alpha/REVIEW_ME.md` named bare meant
    // every repository's `REVIEW_ME.md`). Its tests and its neighbours name the sample itself;
    // a path does wherever it is written.
    if let Some(root) = fixture_root(path) {
        if !is_within(m.src, root) && !super::resolve::is_test(m.src) {
            return None;
        }
    }
    // A template is named as the file it renders is (the project's `REQUIREMENTS.md`, a
    // task's `STATE.md`): its bare name is the template's only where the line speaks of one.
    // (A skill or an agent kept among templates, `templates/base/skills/docker/SKILL.md`, is
    // still that thing where the line names it as one, `` `docker` ``: a project set up from
    // them has it. Bare, its name is what the project's copy will answer to.)
    if is_template(path)
        && cue & cue::TEMPLATE == 0
        && (cue & cue::NAMED == 0 || entity_on_disk(path, m.name, disk) == Entity::Other)
        && !own_template_name(m.name, base)
    {
        return None;
    }
    // `/ns:name` with the folder that holds the file as its namespace: how the client names a
    // command in a subfolder (`commands/ns/name.md`, or a folder of commands installed there);
    // the namespace says which file, whatever its name is as a word.
    if cue & cue::NAMESPACE != 0 {
        let parent = path.rsplit('/').nth(1);
        if parent.is_some() && m.via.and_then(|v| v.strip_suffix(':')) == parent {
            return Some(RefKind::Name);
        }
    }
    if m.name == base && base.contains('.') {
        // `.test.sh` is no name of `test.sh`; `.gitlab-ci.yml` is the dotfile a template
        // `gitlab-ci.yml` renders.
        if cue & cue::DOTFILE != 0 && !is_template(path) {
            return None;
        }
        // The client's own instruction files exist at every level (`~/.claude/CLAUDE.md`, a
        // subfolder's, a plugin's): the bare name says which kind of file, not which one.
        // Only a root file names its root sibling by it; elsewhere it takes a path or "the
        // root …".
        // The project's own `.claude/` is the root's: there "read CLAUDE.md" is ours, "a
        // CLAUDE.md" still any (not when the root is the home, whose `.claude/` is the user's
        // for every project).
        let projects_own = m.src.starts_with(".claude/")
            && !tree.root_is_home
            && cue & cue::ANY == 0
            && !base.eq_ignore_ascii_case("README.md");
        // So do the files that define a folder (`index.js`, `__init__.py`): the root's is one
        // of many.
        let any_level = is_client_file(base) || super::names::defines_folder(base);
        // In a user's own client folder, "the global `CLAUDE.md`" is this root's; a section
        // cited (`CLAUDE.md §3`) is of a document at hand, the tree's own.
        let root = cue & (cue::ROOT | cue::SECTION) != 0
            || cue & cue::GLOBAL != 0 && (tree.root_is_client || tree.root_is_home);
        if !path.contains('/')
            && any_level
            && m.src.contains('/')
            && !root
            && !projects_own
            && !project_file_above(m, base, tree, disk)
        {
            return None;
        }
        // In a user's client folder, "the project's CLAUDE.md" ("root `settings.json`") is
        // the project's the user works in, not the user's own at this root; so it is in the
        // agents, skills and commands a kit ships for any project ("run the target repo's
        // `CLAUDE.md` check").
        let client_file = is_client_file(base) || base.starts_with("settings.");
        if !path.contains('/')
            && client_file
            && cue & cue::ROOT != 0
            && (tree.root_is_client || instructs_any_project(m.src, tree, disk))
        {
            return None;
        }
        // "Your own `CLAUDE.md`", "the global `CLAUDE.md`" (the user's), "each layer's
        // `settings.json`": another's than this project's, wherever said (in a user's own
        // client folder the user's is this root's).
        if !path.contains('/')
            && client_file
            && cue & (cue::OTHERS | cue::GLOBAL) != 0
            && !tree.root_is_client
            && !tree.root_is_home
        {
            return None;
        }
        // A string of code holding a file name is a file the code opens or runs, one of its
        // own tree's (`llm_dir / "anth.py"`) or the root's (`setup.py`); a file of its own
        // language under another top folder is a namesake (a test's `open("asyncio.py", "w")`
        // is no file of IPython's), as is one named by a word or a conventional capitalised
        // one (`ROADMAP.md`, which every project may keep), or any a test writes (its
        // fixtures). A distinctive one of another language is what the code runs or reads
        // (`("smart-ls.sh", …)` in a hook's table of tools, `"midjourney-prompt-syntax.md"`
        // in a script's list of documents).
        if cue & cue::LITERAL != 0
            && path.contains('/')
            && common_dirs(m.src, path) == 0
            && (cue::lang_of(m.src, b"") == cue::lang_of(path, b"")
                || {
                    let stem = super::names::stem_of(base);
                    !is_distinctive(stem) || stem.bytes().all(|b| b.is_ascii_uppercase())
                }
                || super::resolve::is_test(m.src))
        {
            return None;
        }
        // A file name with its extension: strong wherever it is written.
        return Some(RefKind::File);
    }
    // `name/`, "the name folder": the folder, not a file with that stem (a file known by its
    // folder, a skill's `SKILL.md`, is what the folder defines).
    if cue & cue::FOLDER != 0 && !folder_named(path, m.name) {
        return None;
    }
    // "The `/widgets` directory": a folder at some root, not an invocation, nor a skill's
    // folder (that one is `skills/widgets/`).
    if cue & cue::FOLDER != 0 && cue & cue::SLASH != 0 {
        return None;
    }
    // `best-practices/` where a folder of that name lies beside the writer or at the root, not
    // the thing's own: that folder, as a path written there would lead to it.
    if cue & cue::FOLDER != 0 && m.via.is_none() {
        let src_dir = dir_of(m.src);
        let own = path.rsplit_once('/').map(|(d, _)| d);
        let beside = (!src_dir.is_empty()).then(|| format!("{src_dir}/{}", m.name));
        let other = beside
            .iter()
            .map(String::as_str)
            .chain(std::iter::once(m.name))
            .any(|f| Some(f) != own && disk.at(f) == OnDisk::Dir);
        if other {
            return None;
        }
    }
    // Inside that folder, "the name directory" is where here is: it locates a neighbour
    // ("see x.md (in writing-skills directory)"), it does not name the folder's skill.
    if cue & cue::FOLDER != 0 && inside_folder_of(m.src, path) {
        return None;
    }
    // In source code a bare word is an identifier of that code.
    if cue & cue::CODE_FILE != 0 {
        return None;
    }
    // Another plugin's namespace names that plugin's command. One that names no plugin of the
    // tree is the plugin's own alias (SuperClaude's commands invoke each other as `/sc:name`):
    // within the plugin it names the plugin's command.
    if cue & cue::NAMESPACE != 0 {
        let ns = m.via.and_then(|v| v.strip_suffix(':'));
        if let (Some(ns), Some(tp)) = (ns, plugin_of(path, disk)) {
            if !plugin_named(tp, ns, disk)
                && (plugin_of(m.src, disk) != Some(tp) || is_plugin(tp, ns, disk))
            {
                return None;
            }
        }
    }
    let entity = entity_on_disk(path, m.name, disk);
    // The word next to a name says what kind of thing it is ("the planner agent", "the /plan
    // command"); a mention stored before the kinds were recorded says only that there was one.
    let kinds = cue & cue::KINDS;
    let kind_word = kind_word(entity);
    // Writers call a command or an agent a skill, but none of them a hook: "the `after-all`
    // hooks" are hooks of that name (the steps a command stores), not the command. (No slash:
    // `/x` is invoked whatever follows it.)
    if kinds == cue::AS_HOOK && entity != Entity::Other && cue & cue::SLASH == 0 {
        return None;
    }
    let entity_cue = cue & cue::ENTITY != 0 && (kinds == 0 || kinds & kind_word != 0);
    let named = cue & (cue::NAMED & !cue::ENTITY) != 0 || entity_cue;
    // Capitalised, a word names a thing only with a cue that it does ("Planner Agent"), or an
    // agent inside the skill that keeps it ("Observer started").
    if cue & cue::CAPITAL != 0 && !named {
        let agent = kept_around(path, m.src) && is_role_noun(m.name) && entity == Entity::Agent;
        return agent.then_some(RefKind::Name);
    }
    // In an agent's own file, the last word of its name capitalised is its own title ("GAN
    // Harness — Planner agent" in `gan-planner.md`), not the agent that word names. (Lower
    // case it may be the other: "the plain implementer handles the rest".)
    if cue & cue::CAPITAL != 0 && is_own_role(m.src, m.name, disk) {
        return None;
    }
    // Right after a dot in code, a word is an attribute or an extension (`".xlsx"`), not an
    // agent, command or skill (a module's dotted path is decided as a path); nor is a program
    // ("the `linear` cli": a tool of that name).
    if cue & (cue::DOTTED | cue::PROGRAM) != 0 && entity != Entity::Other {
        return None;
    }
    // A slash invokes (`/code-review`): a command or a skill, not a rule or a document of the
    // name. Except a Markdown file whose own compound stem is invoked, outside a documentation
    // site: a collection of commands kept in folders of its own (`tools/test-harness.md`,
    // installed into the client's commands folder) is invoked so; where a command of the name
    // exists too, that one is preferred (`decide_hinted`).
    if cue & cue::SLASH != 0 && entity == Entity::Other && !invoked_as_command(path, m.name) {
        return None;
    }
    // Nor an agent, which no slash invokes (`/design-review` beside an agent named so is the
    // command that dispatches it), unless the words beside it say agent.
    if cue & cue::SLASH != 0 && entity == Entity::Agent && cue & cue::AS_AGENT == 0 {
        return None;
    }
    // Inside a skill's own folder its name means the skill.
    // (By its folder's name: the rule `never_an_edge` relies on to drop plain words.)
    // Not from a skill kept inside it (a shelf's `storytelling/storytelling-with-data/`): its
    // files are that skill's, whose words are its own.
    // A title-case name written in lower case is a thing the client invokes, not a document.
    if cue & cue::LOWERED != 0 && entity == Entity::Other {
        return None;
    }
    let own_folder = folder_named(path, m.name)
        && inside_folder_of(m.src, path)
        && !in_nested_skill(m.src, dir_of(path), disk);
    let ok = match entity {
        // A role noun after another's is that one's ("your planner", "its own observer"), not
        // the agent; "the planner", "each implementer" and a bare "planner" are.
        Entity::Agent => {
            distinctive
                || named
                || cue & cue::PROPER != 0
                || is_role_noun(m.name)
                    && role_reaches(m.src, path)
                    && (kept_around(path, m.src)
                        || !in_skill_reference(m.src)
                        || same_plugin(m.src, path, disk))
                    && cue & cue::OTHERS == 0
        }
        // In code (a script, a fenced example) a string holding a one-word name alone is a
        // value the code works on (`from "remotion"`, `["git", "worktree"]`), and a common word
        // there is the code's, even in the skill's own scripts ("Usage: fill.py [input pdf]").
        // A compound name in a program's string is the skill's (`"expect": "work-superspeed"`,
        // `prog="sync-docs"`: 12 labelled lines of 12), not in a fenced example's. The name in
        // a comment or a sentence of a docstring is prose ("Shared utilities for skill-creator
        // scripts.").
        // Run as a program (`playwright-cli open x` in a shell example), the name is the
        // program a skill of that name wraps: a skill is invoked, never run. (Unless the skill
        // is that program's package: `skill-feedback review` runs the skill's own code.)
        Entity::Skill
            if cue & cue::RUN != 0
                && cue & (cue::NAMED & !cue::CODE) == 0
                && !keeps_a_program(dir_of(path), disk) =>
        {
            false
        }
        Entity::Skill => {
            named
                || cue & cue::FOLDER != 0
                || if cue & cue::SOURCE == 0 {
                    distinctive || own_folder
                } else {
                    distinctive
                        && (cue & cue::LITERAL == 0
                            || m.name.contains(['-', '_']) && cue & cue::FENCE == 0)
                }
        }
        // A command is invoked (`/changelog`, `` `changelog` ``): a one-word name alone is a
        // word of the trade or a product ("a changelog entry", "dependabot PRs").
        // On a shell line a bare command name is an argument of another program (`task-master
        // parse-prd x.txt`): the client invokes commands, not a shell. (A comment is prose.)
        // A command file a skill keeps (`skills/x/roles/coordinator/commands/resume.md`) is
        // that skill's step, named so only inside it: no client command of that name.
        // In quotes, a one-word name is what someone says or a value ("If the CEO says
        // "status""; `make('publish')`): 37 labelled lines of 37 were no command.
        Entity::Command => {
            (distinctive
                && m.name.contains(['-', '_', ':', '.'])
                && cue & cue::SHELL_WORD == 0
                && cue & (cue::SOURCE | cue::LITERAL) != cue::SOURCE | cue::LITERAL
                || cue & (cue::NAMED & !cue::ENTITY & !cue::QUOTED) != 0
                || entity_cue)
                && role_reaches(m.src, path)
        }
        // In source code a module, script or document is named by an import, a qualified
        // use, its file name or a path; a bare word in a comment or string is prose about it.
        // A one-word stem bare is the thing the document is about (a library, a database, a
        // runtime: `references/cuxfilter.md`), not the document; a compound one is the file's
        // own name, as an identifier is (`US4` for `tasks/US4.md`). An output style is chosen
        // by its name where the line speaks of a style (`/output-style genui`); elsewhere its
        // name is a word, often the project's own.
        // In a comment or a string of a script, a name in camel case is an identifier written
        // in prose: the class or component a file is named after (`NetworkError` in a test's
        // title, "Verify cause was wrapped in NonError"). (Not in Python: a library's docstring
        // names its own classes so, and one package's `OneOf` is not another's `OneOf.py`.)
        // Such an identifier is the code's, not a document named after it (`ensureSymlink` in
        // a test is the function, not `docs/ensureSymlink.md`).
        Entity::Other => {
            distinctive
                && (cue & cue::SOURCE == 0
                    && (named
                        || is_compound(m.name) && !others_phrase(m, path, disk)
                        || is_code_id(m.name)
                        || is_output_style(path) && cue & cue::STYLE != 0)
                    || cue & cue::SOURCE != 0
                        && is_camel(m.name)
                        && cue::lang_of(m.src, b"") == Some(cue::Lang::Script)
                        && cue::lang_of(path, b"").is_some()
                    || cue & cue::COMMENT != 0
                        && is_kebab(m.name)
                        && cue::lang_of(path, b"").is_some()
                        && !super::resolve::is_test(path))
                || cue & cue::LITERAL != 0 && lists_submodule(m.src, path, m.name)
                || cue & (cue::CODE | cue::SOURCE | cue::FENCE) == cue::CODE
                    && kept_beside_skill(m.src, path)
                || cue & cue::LITERAL != 0 && tests_subject(m.src, path, m.name)
                || cue & (cue::CAPS | cue::SOURCE | cue::FENCE | cue::CODE) == cue::CAPS
                    && !distinctive
                    && capital_document(path, m.name, m.src, disk)
                // Run as a program on a command line (`ai-coding-usage --schema` in a shell
                // example): the script of that hyphenated name, which no module of code bears
                // (`tmux attach` is the program, not `lib/tmux.ts`, a module driving it).
                || cue & cue::RUN != 0 && is_kebab(m.name) && is_program_file(path, m.name)
        }
    };
    ok.then_some(RefKind::Name)
}

/// Whether `path` is a document a skill keeps beside its `SKILL.md`, and `src` is that
/// `SKILL.md`: there a code span of the document's stem, even a word (`` `reviewer` `` beside
/// `reviewer.md`), is the step the skill dispatches to that file. So is a folder's `README.md`
/// listing the documents it introduces (`` `debugging`, `testing` `` in `rules/README.md`).
fn kept_beside_skill(src: &str, path: &str) -> bool {
    let (dir, base) = src.rsplit_once('/').unwrap_or(("", src));
    (base == "SKILL.md" || base.eq_ignore_ascii_case("README.md"))
        && path.ends_with(".md")
        && dir_of(path) == dir
        && !dir.is_empty()
}

/// Whether `src` is a test of the file at `path` and `name` is that file's stem, or its
/// folder's for a folder's entry (`describe("hot-tree")` in `hot-tree.test.ts` beside
/// `hot-tree.ts`; `name: "avoid-x"` in `avoid-x.test.ts` beside `avoid-x.md`): a test says
/// in its strings what it tests.
fn tests_subject(src: &str, path: &str, name: &str) -> bool {
    let (sdir, sbase) = src.rsplit_once('/').unwrap_or(("", src));
    let (pdir, pbase) = path.rsplit_once('/').unwrap_or(("", path));
    if sdir != pdir || !super::resolve::is_test(src) || super::resolve::is_test(path) {
        return false;
    }
    let stem = sbase.split('.').next().unwrap_or(sbase);
    let subject = if let Some(s) = stem.strip_prefix("test_") {
        s
    } else if let Some(s) = stem.strip_suffix("_test") {
        s
    } else if sbase.contains(".test.") || sbase.contains(".spec.") {
        stem
    } else {
        return false;
    };
    let target = pbase.split('.').next().unwrap_or(pbase);
    if subject == "index" {
        target == "index" && sdir.rsplit('/').next() == Some(name)
    } else {
        subject == name && target == name
    }
}

/// Whether the folder `dir` is a program's package (`package.json`, `pyproject.toml`,
/// `Cargo.toml`; the index re-decides a folder's names when one comes or goes).
fn keeps_a_program(dir: &str, disk: &dyn Disk) -> bool {
    ["package.json", "pyproject.toml", "Cargo.toml"]
        .iter()
        .any(|f| disk.at(&format!("{dir}/{f}")) != OnDisk::Missing)
}

/// Whether a bare compound name of a document is, outside the skill that keeps it, an English
/// phrase: common words joined by a preposition, a conjunction or an article
/// (`go-to-market.md` in a skill's `references/`, "our go-to-market motion" in another
/// skill's; `chain-of-thought`). Inside its skill it is that document ("Also add
/// defense-in-depth"). A coined name of common words (`scenario-checks`) is a name anywhere,
/// as is a script's (`collect-state.sh`).
fn others_phrase(m: &Mention<'_>, path: &str, disk: &dyn Disk) -> bool {
    const JOINERS: [&str; 16] = [
        "to", "of", "in", "on", "by", "for", "with", "and", "or", "the", "a", "an", "at", "from",
        "into", "over",
    ];
    // (Asked of every compound name in prose: no allocation before the cheap tests.)
    let n = m.name.split('-').count();
    // (Hyphens join a phrase's words; an underscore makes an identifier, `session_time`.)
    let phrase = n >= 3
        && !m.name.contains('_')
        && m.name
            .split('-')
            .skip(1)
            .take(n - 2)
            .any(|w| JOINERS.iter().any(|j| w.eq_ignore_ascii_case(j)))
        && m.name.split('-').all(is_common_word);
    if !phrase || cue::lang_of(path, b"").is_some() {
        return false;
    }
    // The skill keeping the document: the nearest folder above it with a SKILL.md.
    skill_folder(dir_of(path), disk).is_some_and(|d| !d.is_empty() && !is_within(m.src, d))
}

/// Whether `src`, inside the skill folder `skill_dir`, lies in a skill's folder below it: the
/// nearest folder with a `SKILL.md` above `src` is deeper.
fn in_nested_skill(src: &str, skill_dir: &str, disk: &dyn Disk) -> bool {
    skill_folder(dir_of(src), disk).is_some_and(|d| d.len() > skill_dir.len())
}

/// Whether a bare mention names an agent of another plugin, as agents of a collection name
/// their collaborators ("Work with security-engineer on threat modeling"): a compound name in
/// prose (in code or an example it is a value), which is not the writer's own plugin's name.
/// (A plugin being installed, `compliance-checker@market`, is no agent: `cue::PROGRAM`.)
fn prose_agent(m: &Mention<'_>, own_plugin: &str) -> bool {
    is_compound(m.name)
        && m.cue & (cue::SOURCE | cue::FENCE | cue::LITERAL) == 0
        && m.name != own_plugin
}

/// Whether `src` is an agent whose name ends with the word `name` (`gan-planner` for
/// "planner").
fn is_own_role(src: &str, name: &str, disk: &dyn Disk) -> bool {
    let base = src.rsplit('/').next().unwrap_or(src);
    let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
    let (sb, nb) = (stem.as_bytes(), name.as_bytes());
    let ends = sb.len() > nb.len() + 1
        && sb[sb.len() - nb.len()..].eq_ignore_ascii_case(nb)
        && matches!(sb[sb.len() - nb.len() - 1], b'-' | b'_');
    ends && entity_on_disk(src, stem, disk) == Entity::Agent
}

/// Whether an agent's role noun written bare in `src` reaches the agent at `path`: an agent a
/// skill keeps for itself (`skills/x/agents/observer.md`) is "the observer" only inside that
/// skill; elsewhere the word is another observer (a browser's, a framework's).
fn role_reaches(src: &str, path: &str) -> bool {
    unit_under(path, "skills").is_none() || kept_around(path, src)
}

/// Whether `src` and `path` lie in one plugin (a folder with a manifest, or one under
/// `plugins/`): a plugin's skills' references are written for its own agents ("spawn the
/// planner" in `plugin/skills/spec/references/x.md` beside `plugin/agents/planner.md`).
fn same_plugin(src: &str, path: &str, disk: &dyn Disk) -> bool {
    plugin_of(src, disk).is_some_and(|p| plugin_of(path, disk) == Some(p))
}

/// Whether `src` is a skill's reference material (`skills/x/references/…`, `docs/`,
/// `examples/`): documentation of the world the skill works in, copied or written for it,
/// whose "planner" is a query planner or a library's class, not an agent of the tree.
fn in_skill_reference(src: &str) -> bool {
    // (Below the skill's folder, wherever a catalog groups skills: `skills/<category>/x/`.)
    unit_under(src, "skills").is_some_and(|unit| {
        let rest = &src[unit.len()..];
        let folders = rest.rsplit_once('/').map_or("", |(d, _)| d);
        folders.split('/').any(|f| {
            matches!(
                f,
                "references" | "reference" | "resources" | "docs" | "examples"
            )
        })
    })
}

/// Whether the file at `path` lies in a skill folder (`…/skills/x/…`) that also holds `src`.
fn kept_around(path: &str, src: &str) -> bool {
    unit_under(path, "skills").is_some_and(|unit| is_within(src, unit))
}

/// Whether `src` is a Python package's `__init__.py` and `path` the module `name` beside it: a
/// string holding the name alone there lists the submodule (`__all__ = ["setters"]`, a table of
/// submodules imported lazily).
fn lists_submodule(src: &str, path: &str, name: &str) -> bool {
    let (src_dir, src_base) = src.rsplit_once('/').unwrap_or(("", src));
    let (dir, base) = path.rsplit_once('/').unwrap_or(("", path));
    src_base == "__init__.py" && dir == src_dir && base.strip_suffix(".py") == Some(name)
}

/// An output style (`.claude/output-styles/genui.md`): the client selects it by its name.
fn is_output_style(path: &str) -> bool {
    path.rsplit_once('/').is_some_and(|(dir, base)| {
        base.ends_with(".md") && dir.rsplit('/').next() == Some("output-styles")
    })
}

/// Instruction files the client reads at every level of a project and in the user's home.
const INSTRUCTION_FILES: [&str; 4] = ["CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "GEMINI.md"];

/// Files every project and plugin keeps by convention.
const PROJECT_FILES: [&str; 8] = [
    "README.md",
    "CHANGELOG.md",
    "CONTRIBUTING.md",
    "LICENSE",
    "LICENSE.md",
    "SECURITY.md",
    "CODE_OF_CONDUCT.md",
    ".gitignore",
];

/// Whether `path` is a document whose stem is the capitalised word `name` (`REGISTRY.md`,
/// `CONSTITUTION.md`): written so in a document's prose, a common word is that document, as a
/// project's own documents are spoken of ("MANIFEST + REGISTRY"). (An acronym in capitals is
/// the thing a document is about, `WCAG` for `references/WCAG.md`; in code a word in capitals
/// is a constant, and so is one in a code span, `` `REPAIR` ``.) Not a file every project or
/// folder keeps (`README`, `INDEX`, `CLAUDE`, `SKILL`, `TODO`, also a marker): written bare,
/// those are any folder's. A skill's or a plugin's own document is so named only inside it
/// (`ANALYSIS` elsewhere in a collection is the word).
fn capital_document(path: &str, name: &str, src: &str, disk: &dyn Disk) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    // (A tree that is one skill, its `SKILL.md` at the root, bounds nothing.)
    let skill = skill_folder(dir_of(path), disk).filter(|d| !d.is_empty());
    base.strip_suffix(".md") == Some(name)
        && !is_client_file(base)
        && !matches!(name, "SKILL" | "INDEX" | "TODO")
        && skill
            .or_else(|| plugin_of(path, disk))
            .is_none_or(|d| is_within(src, d))
}

/// Whether `base` is a file kept at any level: the client's instruction files and the
/// project files (the root's are found from below by `project_file_above`).
fn is_client_file(base: &str) -> bool {
    INSTRUCTION_FILES
        .iter()
        .chain(PROJECT_FILES.iter())
        .any(|c| base.eq_ignore_ascii_case(c))
}

/// Whether `src` instructs an agent at work on any project: an agent, skill or command (or a
/// skill's own file), or a hook, a kit ships. Not one of the project's own `.claude/` (there "the project"
/// is this one), unless the root is the home, whose `.claude/` serves every project. (A
/// subfolder's `CLAUDE.md` may be this repository's own, "the root `CLAUDE.md`" its root's.)
fn instructs_any_project(src: &str, tree: Tree, disk: &dyn Disk) -> bool {
    if src.starts_with(".claude/") && !tree.root_is_home {
        return false;
    }
    let base = src.rsplit('/').next().unwrap_or(src);
    entity_on_disk(src, base, disk) != Entity::Other
        || src.split('/').any(|c| c == "skills" || c == "hooks")
}

/// Whether the root's project file `base` (`CHANGELOG.md`, `README.md`, `LICENSE`) is the one a
/// bare mention in a subfolder means: a project keeps one, and "update CHANGELOG.md" in
/// `docs/release.md` is the project's. Not where a folder on the way up keeps its own (a
/// package's `CHANGELOG.md`, `docs/README.md`: that nearer one is meant), nor inside a plugin
/// (installed alone, it means its own), nor "a README.md" (any folder's), nor in a kit's
/// agent, skill, command or hook (at work on any project: "look for `README.md`" is that
/// project's), nor in a test's code (`git add README.md` in the repository it sets up; a spec
/// in prose is the project's own). The client's
/// instruction files exist at every level and stay out.
/// (A lint's allowlist of such names, `README.md, LICENSE, CHANGELOG.md`, speaks of any
/// project's; "git add README.md CLAUDE.md" of ours: a list alone does not tell them apart.)
fn project_file_above(m: &Mention<'_>, base: &str, tree: Tree, disk: &dyn Disk) -> bool {
    if !PROJECT_FILES.iter().any(|p| base.eq_ignore_ascii_case(p))
        || m.cue & cue::ANY != 0
        || plugin_of(m.src, disk).is_some()
        || instructs_any_project(m.src, tree, disk)
        || super::resolve::is_test(m.src) && cue::lang_of(m.src, b"").is_some()
    {
        return false;
    }
    let mut dir = dir_of(m.src);
    while !dir.is_empty() {
        if disk.at(&format!("{dir}/{base}")) != OnDisk::Missing {
            return false;
        }
        dir = dir_of(dir);
    }
    true
}

/// Whether the file `src` lies inside the folder that holds the file at `path`.
fn inside_folder_of(src: &str, path: &str) -> bool {
    path.rsplit_once('/').is_some_and(|(dir, _)| {
        src.starts_with(dir) && src.as_bytes().get(dir.len()) == Some(&b'/')
    })
}

/// Whether the file at `path` is known by its folder `name` (`skills/name/SKILL.md`).
/// Whether the file at `path` is what defines its folder, named `name` (a skill's SKILL.md, a
/// package's `__init__.py`): not any file of the folder that bears the folder's name otherwise
/// (an agent whose frontmatter `name:` is the folder's).
fn defines_named_folder(path: &str, name: &str) -> bool {
    folder_named(path, name)
        && (super::names::defines_folder(path.rsplit('/').next().unwrap_or(path))
            || super::names::folder_agent(path))
}

/// Whether the file at `path` is a code package's entry (`__init__.py`, `index.js`, `mod.rs`).
fn is_code_entry(path: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    super::names::defines_folder(base) && !base.eq_ignore_ascii_case("SKILL.md")
}

fn folder_named(path: &str, name: &str) -> bool {
    path.rsplit_once('/')
        .and_then(|(dir, _)| dir.rsplit('/').next())
        .is_some_and(|parent| parent == name)
}

/// Components of a written path, without the leading `./`, `../`, `~`, `$VAR`, `@` parts, and
/// whether it starts outside the tree (`~/`, `/`, `$VAR/`).
fn written_components(via: &str, tree: Tree) -> (Vec<&str>, bool) {
    let root_is_home = tree.root_is_home;
    // The user's client folder kept as the repository: `~/.claude/x` is its `x` installed.
    if tree.root_is_client {
        if let Some(rest) = via.strip_prefix("~/.claude/") {
            return (rest.split('/').filter(|c| !c.is_empty()).collect(), false);
        }
    }
    let mut outside = via.starts_with('/');
    let mut comps: Vec<&str> = via.split('/').filter(|c| !c.is_empty()).collect();
    while let Some(first) = comps.first() {
        match *first {
            "." | ".." => {
                comps.remove(0);
            }
            "~" => {
                outside = !root_is_home;
                comps.remove(0);
            }
            c if c.starts_with('$') || placeholder(c).is_some() => {
                outside = true;
                comps.remove(0);
            }
            _ => break,
        }
    }
    (comps, outside)
}

/// `dir/via` with `.` and `..` resolved; `None` when it climbs out of the root.
pub(crate) fn join_normal(dir: &str, via: &str) -> Option<String> {
    let mut out: Vec<&str> = dir.split('/').filter(|c| !c.is_empty()).collect();
    for c in via.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            c => out.push(c),
        }
    }
    Some(out.join("/"))
}

/// The files a package's folder is entered by, in the order Node and TypeScript try them.
const ENTRY_FILES: [&str; 6] = [
    "index.js",
    "index.ts",
    "index.mjs",
    "index.cjs",
    "index.tsx",
    "index.jsx",
];

/// Whether a `from P import a, b as c` line (`text`, its evidence) imports only modules of
/// the package folder `dir`: files `dir/a.py` or folders `dir/a`. A list the evidence cuts or
/// that goes on to other lines is not known whole: no.
fn imports_only_modules(text: &str, dir: &str, exists: &dyn Disk) -> bool {
    let Some(i) = text.find(" import ") else {
        return false;
    };
    let list = text[i + 8..].split('#').next().unwrap_or("").trim();
    let list = list
        .strip_prefix('(')
        .and_then(|l| l.strip_suffix(')'))
        .unwrap_or(list);
    if list.contains(['…', '(', ')', '\\']) {
        return false;
    }
    let module = |n: &str| is_module_on_disk(dir, n, exists);
    let names: Vec<&str> = list
        .split(',')
        .map(|n| n.split(" as ").next().unwrap_or("").trim())
        .filter(|n| !n.is_empty())
        .collect();
    !names.is_empty()
        && names
            .iter()
            .all(|n| n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') && module(n))
}

/// Whether the package folder `dir` holds a module `name`: a source file, a subpackage, or an
/// extension module by its stub or its source (`_speedups.pyi`, `_speedups.c`, `.pyx`), which
/// a scope of `**/*.py` leaves unindexed.
fn is_module_on_disk(dir: &str, name: &str, exists: &dyn Disk) -> bool {
    let p = module_in(dir, name);
    exists.at(&p) == OnDisk::Dir
        || exists.at(&format!("{p}.py")) == OnDisk::File
        || is_extension_module(dir, name, exists)
}

/// The path of module `name` in the package folder `dir`, without extension; any name in a
/// folder (`dir/name`, `name` at the root).
fn module_in(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// The folder `dir` and each folder above it, the root (`""`) last.
fn dir_and_above(dir: &str) -> impl Iterator<Item = &str> {
    std::iter::successors(Some(dir), |d| (!d.is_empty()).then(|| dir_of(d)))
}

/// The nearest folder at or above `dir` that holds a `SKILL.md` (`""` for the root), if any.
fn skill_folder<'d>(dir: &'d str, exists: &dyn Disk) -> Option<&'d str> {
    dir_and_above(dir).find(|d| {
        let skill = if d.is_empty() {
            "SKILL.md".to_string()
        } else {
            format!("{d}/SKILL.md")
        };
        exists.at(&skill) == OnDisk::File
    })
}

/// The entry point of the folder `dir` (`index.js`, `index.ts`, … in Node's order), if it has one.
fn folder_entry(dir: &str, exists: &dyn Disk) -> Option<String> {
    ENTRY_FILES
        .iter()
        .map(|f| module_in(dir, f))
        .find(|e| exists.at(e) == OnDisk::File)
}

/// Whether the package folder `dir` holds `name` as an extension module: no Python source,
/// but a stub or a source it is compiled from.
fn is_extension_module(dir: &str, name: &str, exists: &dyn Disk) -> bool {
    let p = module_in(dir, name);
    ["pyi", "pyx", "c"]
        .iter()
        .any(|x| exists.at(&format!("{p}.{x}")) == OnDisk::File)
        && exists.at(&format!("{p}.py")) == OnDisk::Missing
}

/// The attribute a qualified use reaches through the module written `dotted` on the line
/// (`_speedups` of `markupsafe._speedups`), if the line shows one.
fn attribute_after<'t>(text: &'t str, dotted: &str) -> Option<&'t str> {
    let at = text.find(&format!("{dotted}."))? + dotted.len() + 1;
    let rest = &text[at..];
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// Whether `path` is a Python package's `__init__.py` holding no code: blank lines and comments
/// only (a file that cannot be read counts as code).
pub fn is_empty_package(path: &str, disk: &dyn Disk) -> bool {
    path.rsplit('/').next() == Some("__init__.py")
        && disk.text(path).is_some_and(|t| {
            t.lines()
                .map(str::trim)
                .all(|l| l.is_empty() || l.starts_with('#'))
        })
}

/// Whether `path` is a package's entry point (`index.js`, `index.ts`, …).
pub fn is_entry_file(path: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    ENTRY_FILES.contains(&base) || base == "__init__.py"
}

/// A qualified use's module reached through a module file (`tags._manylinux`, `tags.py`
/// beside `_manylinux.py`): the one bearer beside that file whose other written folders agree.
fn through_module_file(
    m: &Mention<'_>,
    comps: &[&str],
    kind: RefKind,
    bearers: &[(i64, &str)],
    exists: &dyn Disk,
) -> Option<Decision> {
    if m.cue & cue::QUALIFIED == 0 || comps.len() < 2 {
        return None;
    }
    let (last, head) = comps.split_last()?;
    let (module, above) = head.split_last()?;
    let written: Vec<&str> = above
        .iter()
        .copied()
        .chain(std::iter::once(*last))
        .collect();
    // (`os.stat` is a function of `os.py`, beside `stat.py`: the module file must import it.)
    let mut hits = bearers.iter().filter(|(_, b)| {
        let dir = dir_of(b);
        let file = module_in(dir, &format!("{module}.py"));
        let stem = b.rsplit('/').next().and_then(|f| f.strip_suffix(".py"));
        // (An absolute `import openai` inside a package is the top-level one, not a sibling.)
        let absolute = exists.at(&module_in(dir, "__init__.py")) == OnDisk::Missing;
        // (Written in the module's own case: `pathlib.PosixPath` is a class, not `posixpath`.)
        stem.is_some_and(|st| st.eq_ignore_ascii_case(last) && m.text.contains(&format!(".{st}")))
            && agrees(&written, b, false, m.name)
            && exists.at(&module_in(dir, module)) != OnDisk::Dir
            && exists.at(&file) == OnDisk::File
            && exists
                .text(&file)
                .is_some_and(|t| imports_name(&t, last, absolute))
    });
    let (id, b) = hits.next()?;
    if hits.next().is_some() {
        return None;
    }
    Some(if *b == m.src {
        Decision::Tie
    } else {
        Decision::Edge(*id, Resolution::Unique, kind)
    })
}

/// Whether a Python file's import statements bind the module `name` beside it, under that
/// name: `from . import _manylinux, _musllinux` (over the lines of a parenthesised list), or
/// where `absolute` (the folder is no package) `import stat`. Not `import stat as st`.
fn imports_name(text: &str, name: &str, absolute: bool) -> bool {
    let binds = |list: &str| {
        list.split([',', '(', ')'])
            .filter_map(|n| n.split('#').next())
            .any(|n| n.trim() == name)
    };
    let mut open = false;
    for line in text.lines() {
        let t = line.trim();
        if open {
            if binds(t) {
                return true;
            }
            open = !t.contains(')');
            continue;
        }
        let list = if let Some(rest) = t.strip_prefix("import ").filter(|_| absolute) {
            rest
        } else if let Some((_, list)) = t
            .strip_prefix("from ")
            .and_then(|r| r.split_once(" import "))
            .filter(|(from, _)| from.trim() == "." || absolute && !from.starts_with('.'))
        {
            open = list.contains('(') && !list.contains(')');
            list
        } else {
            continue;
        };
        if binds(list) {
            return true;
        }
    }
    false
}

/// The source path a compiled path comes from (`build/lib/yerror` → `lib/yerror`): under the
/// `outDir` of a `tsconfig.json` in a folder above it, the same path under its `rootDir`
/// (that folder itself when none is given). The output folder must be absent from the tree.
fn compiled_from(p: &str, exists: &dyn Disk) -> Option<String> {
    for dir in dir_and_above(dir_of(p)) {
        let Some(text) = exists.text(&module_in(dir, "tsconfig.json")) else {
            continue;
        };
        let option = |key: &str| {
            let at = text.find(&format!("\"{key}\""))?;
            let value = text[at + key.len() + 2..].trim_start().strip_prefix(':')?;
            let value = value.trim_start().strip_prefix('"')?;
            let value = &value[..value.find('"')?];
            let value = value.trim_start_matches("./").trim_end_matches('/');
            (!value.contains("..")).then(|| value.to_string())
        };
        let out = option("outDir").filter(|o| !o.is_empty() && o != ".")?;
        let out = module_in(dir, &out);
        let rest = p.strip_prefix(&out)?.strip_prefix('/')?;
        if exists.at(&out) != OnDisk::Missing {
            return None;
        }
        let root = option("rootDir").unwrap_or_default();
        let root = if root.is_empty() || root == "." {
            dir.to_string()
        } else {
            module_in(dir, &root)
        };
        return Some(module_in(&root, rest));
    }
    None
}

/// Whether the entry point `text` (in the folder `dir`) exports the module at `module` as
/// `name` (in any case: `Command` is `command.js`'s): `module.exports =
/// require('./lib/express')` (the whole entry is the module), `export * from './x.js'`,
/// `export {HTTPError} from './errors/HTTPError.js'`, or a name the entry imports from the
/// module and exports again (`import { Command } from './lib/command.js'` … `export { Command,
/// Option }`).
fn exports(text: &str, dir: &str, module: &str, name: &str) -> bool {
    let leads_to_module = |spec: &str| spec_leads_to(dir, spec, module);
    let spec_of = |line: &str| line.split(['\'', '"']).nth(1).map(str::to_string);
    let lists_name = |line: &str| {
        line.split_once('{').is_some_and(|(_, rest)| {
            rest.split('}').next().unwrap_or("").split(',').any(|n| {
                n.split_whitespace()
                    .last()
                    .is_some_and(|w| w.eq_ignore_ascii_case(name))
            })
        })
    };
    let is_name = |w: &str| {
        w.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .eq_ignore_ascii_case(name)
    };
    // Whether the entry binds the name from the module (`import { Command } from
    // './lib/command.js'`, `import Command from …`, `const { Command } = require(…)`); read only
    // for an export that names no module of its own.
    let imported_from_module = || {
        text.lines()
            .map(str::trim_start)
            .filter(|l| {
                let head = if let Some(clause) = l.strip_prefix("import ") {
                    clause.split(" from ").next().unwrap_or("")
                } else if let Some((head, _)) = l.split_once("require(") {
                    head
                } else {
                    return false;
                };
                lists_name(head)
                    || head
                        .split([' ', ',', '='])
                        .filter(|w| !matches!(*w, "" | "const" | "let" | "var" | "type"))
                        .any(is_name)
            })
            .filter_map(spec_of)
            .any(|spec| leads_to_module(&spec))
    };
    text.lines().any(|line| {
        let line = line.trim_start();
        let whole = line.starts_with("module.exports") && line.contains("require(");
        // `export default Command;`, `module.exports = { Command, Option }`.
        let again = line
            .strip_prefix("export default ")
            .is_some_and(|rest| rest.split_whitespace().next().is_some_and(is_name))
            || line.starts_with("module.exports") && !whole && lists_name(line);
        let named = again
            || line.starts_with("export ") && (line.starts_with("export *") || lists_name(line));
        if !whole && !named {
            return false;
        }
        match spec_of(line) {
            Some(spec) => leads_to_module(&spec),
            // `export { Command, Option }`: from where the entry imported it.
            None => named && imported_from_module(),
        }
    })
}

/// A name bound through a package's entry point (`const express = require('../')` in `test/`,
/// `import {HTTPError} from '../source/index.js'`): the one script under the package's folder
/// whose stem is the name, the module the entry exports. Two such modules, or none: no edge
/// (which one the entry exports is the entry's content, not the name's).
fn decide_entry(
    m: &Mention<'_>,
    via: &str,
    kind: RefKind,
    bearers: &[(i64, &str)],
    exists: &dyn Disk,
) -> Decision {
    let src_dir = dir_of(m.src);
    if cue::lang_of(m.src, b"") == Some(cue::Lang::Python) {
        return decide_reexport(m, via, kind, bearers, exists);
    }
    // `spec#Name`: a word on a line using `Name`, bound through the entry (`mentions`): the
    // module bearing the word, which the entry exports as `Name`.
    let (via, exported) = match via.split_once('#') {
        Some((v, n)) => (v, n),
        None => (via, m.name),
    };
    // A package by its bare name (`require('body-parser')` in a document's example): the tree's
    // own, by its `package.json`, whose entry is read as a folder's is.
    let (dir, entry) = if via.starts_with('.') {
        let Some(p) = join_normal(src_dir, via) else {
            return Decision::Weak;
        };
        let dir = match p.rsplit_once('/') {
            Some((d, "index")) => d.to_string(),
            None if p == "index" => String::new(),
            _ => p,
        };
        let Some(entry) = folder_entry(&dir, exists) else {
            return Decision::Weak;
        };
        (dir, entry)
    } else {
        match own_package_file(src_dir, via, exists) {
            // (An entry point by its file name only: a change of one re-decides these.)
            Some(entry) if is_entry_file(&entry) && exists.at(&entry) == OnDisk::File => {
                (dir_of(&entry).to_string(), entry)
            }
            _ => return Decision::Weak,
        }
    };
    let dir = dir.as_str();
    let Some(text) = exists.text(&entry) else {
        return Decision::Weak;
    };
    let under = |b: &str| dir.is_empty() || b.strip_prefix(dir).is_some_and(|r| r.starts_with('/'));
    let stem_is_name = |b: &str| {
        let (folder, base) = b.rsplit_once('/').unwrap_or(("", b));
        base.rsplit_once('.')
            .is_some_and(|(stem, _)| stem == m.name)
            // An index module is known by its folder (`lib/remove/index.js`, `remove`).
            || is_entry_file(b) && folder.rsplit('/').next() == Some(m.name)
    };
    // `bodyParser.raw()`: the member the entry sets from a module (`exports.raw =
    // require('./lib/types/raw')`).
    let member = m.text.contains(&format!("{exported}.{}", m.name));
    let hits = bearers.iter().filter(|(_, b)| {
        under(b)
            && stem_is_name(b)
            && cue::lang_of(b, b"") == Some(cue::Lang::Script)
            && (exports_through(&text, dir, b, exported, exists)
                || member && member_module(&text, dir, m.name, exists, 1).as_deref() == Some(*b))
    });
    only_hit(m.src, hits, kind)
}

/// `exports`, or through one barrel more: the entry re-exports the name from a folder
/// (`export { ListItem } from './ListItem'`) whose own entry exports the module
/// (`ListItem/index.ts`: `export { ListItem } from './ListItem'`, for `ListItem/ListItem.tsx`).
/// One hop, since a component library's barrel of barrels is that deep; a change of any entry
/// decides every name bound through entries again (`index::apply`), so the hop stays exact.
fn exports_through(text: &str, dir: &str, module: &str, name: &str, exists: &dyn Disk) -> bool {
    if exports(text, dir, module, name) {
        return true;
    }
    text.lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("export "))
        .filter_map(|l| l.split(['\'', '"']).nth(1))
        .filter(|spec| spec.starts_with("./") || spec.starts_with("../"))
        .filter_map(|spec| join_normal(dir, spec))
        .filter(|sub| {
            module
                .strip_prefix(sub.as_str())
                .is_some_and(|r| r.starts_with('/'))
        })
        .any(|sub| {
            folder_entry(&sub, exists)
                .and_then(|e| exists.text(&e))
                .is_some_and(|t| exports(&t, &sub, module, name))
        })
}

/// The module a CommonJS entry `text` (in the folder `dir`) gives its member `name` from:
/// `exports.raw = require('./lib/types/raw')` (or `module.exports.raw = …`), a key of its
/// exported object (`move: u(require('./move'))`), or, `hops` deep, a module it spreads into
/// that object (`...require('./remove')`) which has the member: the module the spread one
/// gives it from, or the spread module itself where it defines it (`remove: u(remove)`).
fn member_module(text: &str, dir: &str, name: &str, exists: &dyn Disk, hops: u8) -> Option<String> {
    let required = |value: &str| {
        let spec = value.split_once("require(")?.1.trim_start();
        let spec = spec.strip_prefix(['\'', '"'])?;
        let spec = &spec[..spec.find(['\'', '"'])?];
        script_at(dir, spec, exists)
    };
    let mut spread = Vec::new();
    for line in text.lines().map(str::trim_start) {
        let keyed = line
            .strip_prefix("module.exports.")
            .or_else(|| line.strip_prefix("exports."))
            .and_then(|rest| rest.split_once('='))
            .or_else(|| line.split_once(':'));
        if let Some((key, value)) = keyed {
            if key.trim().trim_matches(['\'', '"']) == name && value.contains("require(") {
                return required(value);
            }
        }
        if let Some(value) = line.strip_prefix("...") {
            if value.starts_with("require(") {
                spread.extend(required(value));
            }
        }
    }
    if hops == 0 {
        return None;
    }
    // (Only a folder's entry point is read: a change of one decides every name bound through
    // entries again, `index::apply`.)
    spread
        .into_iter()
        .filter(|m| is_entry_file(m))
        .find_map(|module| {
            let text = exists.text(&module)?;
            let inner = member_module(&text, dir_of(&module), name, exists, hops - 1);
            inner.or_else(|| defines_member(&text, name).then_some(module))
        })
}

/// Whether a CommonJS module's text gives its exports the member `name` of its own:
/// `exports.name =`, or a key or shorthand of `module.exports = { name: …, name }`.
fn defines_member(text: &str, name: &str) -> bool {
    let mut in_exports = false;
    text.lines().map(str::trim).any(|line| {
        if let Some(rest) = line
            .strip_prefix("module.exports.")
            .or_else(|| line.strip_prefix("exports."))
        {
            return rest.split('=').next().is_some_and(|k| k.trim() == name);
        }
        let body = if let Some(rest) = line.strip_prefix("module.exports") {
            in_exports = true;
            rest.split_once('{').map_or("", |(_, b)| b)
        } else if in_exports {
            line
        } else {
            return false;
        };
        if body.contains('}') {
            in_exports = false;
        }
        body.split(['{', '}', ',']).any(|entry| {
            let key = entry.split(':').next().unwrap_or("").trim();
            key == name
        })
    })
}

/// The script a relative `spec` written in the folder `dir` loads: the file as written, with
/// a script extension, or a folder's entry point.
fn script_at(dir: &str, spec: &str, exists: &dyn Disk) -> Option<String> {
    if !(spec.starts_with("./") || spec.starts_with("../")) {
        return None;
    }
    let p = join_normal(dir, spec)?;
    match exists.at(&p) {
        OnDisk::File => return Some(p),
        OnDisk::Dir => return folder_entry(&p, exists),
        OnDisk::Missing => {}
    }
    ["js", "cjs", "mjs", "ts"]
        .iter()
        .map(|ext| format!("{p}.{ext}"))
        .find(|f| exists.at(f) == OnDisk::File)
}

/// Whether a script's relative import `spec`, written in the folder `dir`, loads the module
/// file `module` (`./lib/types/raw` or `./raw.js` for `lib/types/raw.js`).
fn spec_leads_to(dir: &str, spec: &str, module: &str) -> bool {
    let module = module.rsplit_once('.').map_or(module, |(m, _)| m);
    let spec = match spec.rsplit_once('.') {
        Some((stem, ext)) if !stem.ends_with('.') && cue::is_script_ext(ext) => stem,
        _ => spec,
    };
    (spec.starts_with("./") || spec.starts_with("../"))
        && join_normal(dir, spec).is_some_and(|p| p == module)
}

/// The one bearer an entry's content leads to (a self mention is a tie); two, or none: no edge.
fn only_hit<'b>(
    src: &str,
    mut hits: impl Iterator<Item = &'b (i64, &'b str)>,
    kind: RefKind,
) -> Decision {
    match (hits.next(), hits.next()) {
        (Some((_, b)), None) if *b == src => Decision::Tie,
        (Some((id, _)), None) => Decision::Edge(*id, Resolution::Unique, kind),
        _ => Decision::Weak,
    }
}

/// A word on a line using a name imported from a Python package (`via`: `quart/Quart`, or
/// `./pkg/Name` relative): the package's module bearing the word (`quart/app.py`), when the
/// package's `__init__.py` imports the name from it (`from .app import Quart as Quart`). One
/// such module, or no edge.
fn decide_reexport(
    m: &Mention<'_>,
    via: &str,
    kind: RefKind,
    bearers: &[(i64, &str)],
    exists: &dyn Disk,
) -> Decision {
    let Some((package, name)) = via.rsplit_once('/') else {
        return Decision::Weak;
    };
    let src_dir = dir_of(m.src);
    let relative = package.starts_with('.');
    let target_dir = if relative {
        match join_normal(src_dir, package) {
            Some(d) => Some(d),
            None => return Decision::Weak,
        }
    } else {
        None
    };
    let is_package = |dir: &str| match &target_dir {
        Some(t) => dir == t,
        None => dir == package || dir.ends_with(&format!("/{package}")),
    };
    let hits = bearers.iter().filter(|(_, b)| {
        let Some((dir, base)) = b.rsplit_once('/') else {
            return false;
        };
        base.strip_suffix(".py") == Some(m.name)
            && is_package(dir)
            && exists
                .text(&format!("{dir}/__init__.py"))
                .is_some_and(|t| reexports(&t, package, m.name, name))
    });
    only_hit(m.src, hits, kind)
}

/// Whether a package's `__init__.py` (`text`) imports `name` from its module `module`: `from
/// .module import name`, `from .module import (a, name as name)`, or by the package's absolute
/// path (`from quart.app import Quart`; `package` as written in the import, `a/b`).
fn reexports(text: &str, package: &str, module: &str, name: &str) -> bool {
    let relative = format!("from .{module} import");
    let absolute = (!package.starts_with('.'))
        .then(|| format!("from {}.{module} import", package.replace('/', ".")));
    let heads = std::iter::once(relative.as_str()).chain(absolute.as_deref());
    heads.into_iter().any(|head| {
        let mut rest = text;
        while let Some(i) = rest.find(head) {
            let after = &rest[i + head.len()..];
            // (Indented under `if TYPE_CHECKING:` too; not inside a comment or a string.)
            let at_line_start = rest[..i]
                .rsplit('\n')
                .next()
                .is_none_or(|l| l.trim().is_empty());
            let list = match after.trim_start().strip_prefix('(') {
                Some(inner) => inner.split(')').next().unwrap_or(""),
                None => after.split('\n').next().unwrap_or(""),
            };
            let listed = list.split(',').any(|item| {
                item.split('#')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .next()
                    == Some(name)
            });
            if at_line_start && listed {
                return true;
            }
            rest = after;
        }
        false
    })
}

/// Whether the last written component names the file `base`: as written, or without the
/// extension (`import x`, `require('./x')`), or as the package of an `__init__.py`/`index.js`.
fn last_matches(written: &str, comps: &[&str]) -> usize {
    // Returns how many trailing components of `comps` the last written component covers.
    let Some(base) = comps.last() else { return 0 };
    if *base == written {
        return 1;
    }
    let stem = base.rsplit_once('.').map_or(*base, |(s, _)| s);
    if !stem.is_empty() && stem == written {
        if matches!(stem, "__init__" | "index" | "mod") && comps.len() >= 2 {
            return 0;
        }
        return 1;
    }
    if matches!(stem, "__init__" | "index" | "mod")
        && comps.len() >= 2
        && comps[comps.len() - 2] == written
    {
        return 2;
    }
    0
}

/// Whether written components `w` (outside: must cover the whole bearer path) agree with the
/// bearer path's components.
fn agrees(w: &[&str], bearer: &str, outside: bool, name: &str) -> bool {
    let Some((last, wdirs)) = w.split_last() else {
        return false;
    };
    // Called for every bearer of a name: components are walked from the end, no allocation.
    let (bdir, base) = bearer.rsplit_once('/').unwrap_or(("", bearer));
    let parent = bdir.rsplit('/').next().unwrap_or(bdir);
    let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
    let package = matches!(stem, "__init__" | "index" | "mod") && !bdir.is_empty();
    // How many trailing components of the bearer the last written one covers.
    let covered = if base == *last || (!stem.is_empty() && stem == *last && !package) {
        1
    } else if (package || *last == name) && !bdir.is_empty() && parent == *last {
        2
    } else {
        return false;
    };
    let bdirs = if covered == 1 {
        bdir
    } else {
        bdir.rsplit_once('/').map_or("", |(d, _)| d)
    };
    let bcount = if bdirs.is_empty() {
        0
    } else {
        bdirs.split('/').count()
    };
    // Written folders beyond the bearer's own: the bearer must have a folder of its own that
    // agrees (`text/html` is no path to a root `html/__init__.py`).
    if wdirs.len() > bcount && bcount == 0 {
        return false;
    }
    let common = wdirs
        .iter()
        .rev()
        .zip(bdirs.rsplit('/').filter(|c| !c.is_empty()))
        .take_while(|(x, y)| *x == y)
        .count();
    if outside {
        // A path outside the tree names a file of it only by its whole path, and a file in the
        // root by its name alone is too little (`~/.claude/CLAUDE.md` is the user's own).
        return common == bcount && bearer.contains('/');
    }
    common == wdirs.len().min(bcount)
}

fn decide_path(
    m: &Mention<'_>,
    via: &str,
    kind: RefKind,
    bearers: &[(i64, &str)],
    tree: Tree,
    exists: &dyn Disk,
) -> Decision {
    let import = matches!(kind, RefKind::Import | RefKind::Use);
    let src_dir = dir_of(m.src);
    // The word of a command line that holds the path (`source ~/x/config.sh`); a sentence in
    // quotes that only holds a slash elsewhere ("CI/CD … workflows") stays what it is.
    let token = Some(written_token(via, m.name))
        .filter(|t| t.contains('/'))
        .unwrap_or(via);
    let expanded = match placeholder_path(m.src, token, exists) {
        Held::Path(p) => Some(p),
        Held::Pattern => return Decision::Weak,
        Held::Outside => client_root_path(m.src, token, exists),
    };
    // A path from a script's own folder (`"$SCRIPT_DIR/x.sh"`, `$(dirname "$0")/x.sh`) leads
    // to one place: where nothing is there (an archived hook whose sibling moved), it names
    // no file of that name elsewhere.
    let from_own_folder = expanded.is_some()
        && (token.starts_with("$(dirname ")
            || cue::variable_at(token).is_some_and(|(v, _)| SCRIPT_FOLDER_VARS.contains(&v)));
    let via = expanded.as_deref().unwrap_or(token);
    if in_temporary_folder(via) {
        return Decision::Weak;
    }
    // `./CLAUDE.md` in an agent or skill at work on any project (or in a user's client folder)
    // is the working folder's, the project's: as "the project's `CLAUDE.md`" is.
    if let Some(base) = via.strip_prefix("./") {
        if !base.contains('/')
            && is_client_file(base)
            && (tree.root_is_client || instructs_any_project(m.src, tree, exists))
        {
            return Decision::Weak;
        }
    }
    let relative = via.starts_with("./") || via.starts_with("../") || via == "." || via == "..";
    let (comps, outside) = written_components(via, tree);
    // The importing file's language (`same_lang` below, a script's import beside it).
    let src_lang = if import {
        cue::lang_of(m.src, b"")
    } else {
        None
    };
    // The exact files the written path can lead to: relative to the mentioning file, then from
    // the root. An absolute Python import is from the package root, never the file's folder.
    let mut exact: Vec<String> = Vec::new();
    if !outside {
        if relative || !import {
            if let Some(p) = join_normal(src_dir, via) {
                exact.push(p);
            }
        }
        // A plugin's manifest (`.claude-plugin/plugin.json`) writes its paths from the plugin's
        // folder: `"./agents/x.md"` is the plugin's `agents/x.md`.
        if relative {
            if let Some(plugin) = src_dir.strip_suffix(".claude-plugin") {
                if let Some(p) = join_normal(plugin.trim_end_matches('/'), via) {
                    exact.push(p);
                }
            }
        }
        // `./dir/x` in a prompt is as often from the project's root, where the client runs, as
        // from the file's folder (a Markdown link's is the file's: tried first). A lone
        // `./x.sh` is the nearest file of the name, as a file name is.
        // A plugin is installed alone: a path its files write from a root
        // (`exists('scripts/x.js')` in its own scripts) is the plugin's file where it holds one
        // (a folder there is probed as written, below).
        // (Not one a variable says is the project's: `$CLAUDE_PROJECT_DIR/scripts/x.sh`.)
        if !relative && !import && comps.len() >= 2 && expanded.is_none() {
            let own = plugin_of(m.src, exists).and_then(|p| join_normal(p, via));
            if let Some(p) = own.filter(|p| exists.at(p) == OnDisk::File) {
                exact.push(p);
            }
        }
        if !relative || via.starts_with("./") && comps.len() >= 2 {
            exact.push(comps.join("/"));
        }
        // A script's absolute import (`from validators import X` in `scripts/office/pack.py`,
        // a folder no `__init__.py` makes a package): Python puts the script's folder first on
        // its path, so a module beside it is the one imported.
        if import
            && !relative
            && !src_dir.is_empty()
            && m.cue & cue::PROSE_MODULE == 0
            && src_lang == Some(cue::Lang::Python)
            && exists.at(&format!("{src_dir}/__init__.py")) == OnDisk::Missing
        {
            if let Some(p) = join_normal(src_dir, via) {
                exact.push(p);
            }
        }
        // A module named in prose ("the termui module" in a docstring of `click/`), not by an
        // import statement: from the root as an import would be, else the package's own.
        if import && !relative && m.cue & cue::PROSE_MODULE != 0 {
            if let Some(p) = join_normal(src_dir, via) {
                exact.push(p);
            }
        }
    }
    // A hidden folder written without its dot (`./claude/commands/commit.md`) where no such
    // plain folder exists: the hidden one. Probed only once the paths as written led nowhere.
    let dotless = |exact: &[String]| -> Vec<String> {
        exact
            .iter()
            .filter_map(|p| {
                let (first, rest) = p.split_once('/')?;
                (!first.starts_with('.')
                    && exists.at(first) == OnDisk::Missing
                    && exists.at(&format!(".{first}")) == OnDisk::Dir)
                    .then(|| format!(".{first}/{rest}"))
            })
            .collect()
    };
    // The written path leads straight to a bearer (or a module file of it), or to another
    // existing file: a reference to that one, not a bearer.
    // A Python or JavaScript import names a module of its own language (`from .x import y`
    // is not `x.js`), whichever of the two the index met first.
    let same_lang = |b: &str| match src_lang {
        Some(l @ (cue::Lang::Python | cue::Lang::Script)) => cue::lang_of(b, b"") == Some(l),
        _ => true,
    };
    // `from distutils import log`: the line names the package's modules, not its `__init__.py`.
    let modules_only = |b: &str| {
        b.ends_with("__init__.py")
            && (m.cue & cue::FROM_PACKAGE != 0 && imports_only_modules(m.text, dir_of(b), exists)
                // `markupsafe._speedups` goes through the package to an extension module
                // (a submodule of Python source is a mention of its own; `httpx.__version__`
                // is the package's, which binds the name over its submodule's).
                || m.cue & cue::QUALIFIED != 0
                    && attribute_after(m.text, &via.replace('/', "."))
                        .is_some_and(|a| is_extension_module(dir_of(b), a, exists)))
    };
    let lead = |p: &String| -> Option<Decision> {
        if p.is_empty() {
            return None;
        }
        let hit = bearers.iter().find(|(_, b)| {
            // (A package's folder in prose is the folder: its entry only by an import.)
            *b == p
                || (import || !p.contains('.') && !is_code_entry(b))
                    && module_of(b) == Some(p.as_str())
                    && same_lang(b)
        });
        match hit {
            Some((_, b)) if *b == m.src => Some(Decision::Tie),
            // An import through an empty package (`from docs_src.terminating import
            // tutorial001`) uses nothing of its `__init__.py`: the submodule is what it names.
            Some((_, b)) if import && is_empty_package(b, exists) => Some(Decision::Weak),
            // `from distutils import log`: the line names the package's modules, not its
            // `__init__.py`.
            Some((_, b)) if modules_only(b) => Some(Decision::Weak),
            Some((id, _)) => Some(Decision::Edge(*id, Resolution::Unique, kind)),
            None => (exists.at(p) == OnDisk::File).then_some(Decision::Weak),
        }
    };
    if let Some(d) = exact.iter().find_map(lead) {
        // (A file whose whole path ends the written one is found by that path, a mention of
        // its own: the file name closing it says nothing more.)
        if let (Decision::Edge(id, ..), true) = (d, m.cue & cue::TAIL != 0) {
            let own = bearers
                .iter()
                .find(|(b, _)| *b == id)
                .is_some_and(|(_, p)| {
                    token
                        .strip_suffix(*p)
                        .is_some_and(|head| head.is_empty() || head.ends_with('/'))
                });
            if own {
                return Decision::Weak;
            }
        }
        return d;
    }
    if let Some(d) = dotless(&exact).iter().find_map(lead) {
        return d;
    }
    // So does `~/.claude/x` where the root is the user's client folder: the root's `x` or
    // nothing (a state file the client writes there, `~/.claude/self-audit-completed.json`, is
    // not `ledger/self-audit-completed.json`).
    let installed_here = tree.root_is_client && token.starts_with("~/.claude/");
    if (from_own_folder || installed_here) && exact.iter().all(|p| exists.at(p) == OnDisk::Missing)
    {
        return Decision::Weak;
    }
    // (The file name closing a longer path names only the file that path leads to.)
    if m.cue & cue::TAIL != 0 {
        return Decision::Weak;
    }
    // An import of the compiled output (`../build/lib/yerror.js`), which the tree does not
    // keep: the source its `tsconfig.json` compiles there (`lib/yerror.ts`).
    if import && relative {
        let sources: Vec<String> = exact
            .iter()
            .filter(|p| exists.at(p) == OnDisk::Missing)
            .filter_map(|p| compiled_from(p, exists))
            .collect();
        if let Some(d) = sources.iter().find_map(lead) {
            return d;
        }
    }
    // A path in the namespace of a package the tree is (`require('body-parser/raw')`,
    // `fs-extra/esm` in its README): the file its `package.json` maps the subpath to.
    if !relative && !outside {
        if let Some(p) = own_package_file(src_dir, via, exists) {
            if let Some(d) = lead(&p) {
                return d;
            }
        }
    }
    if let Some((id, page)) = site_page(via, bearers).filter(|_| !import) {
        // (A page's own `permalink:` is its name, not a mention.)
        return if page == m.src {
            Decision::Tie
        } else {
            Decision::Edge(id, Resolution::Unique, kind)
        };
    }
    // An example's relative import names ours only where it leads from the document.
    if import && relative && m.cue & cue::FENCE != 0 {
        return Decision::Weak;
    }
    // A Python or JavaScript relative import is exact (`from .. import Child`,
    // `require('./util')`): where it leads nowhere it names no other file of that name. (A
    // shell `source "$DIR/x.sh"` is read as the script's own folder, a guess.)
    let exact_import = import
        && relative
        && matches!(
            cue::lang_of(m.src, b""),
            Some(cue::Lang::Python | cue::Lang::Script)
        );
    // So is a path a program builds from its own folder (`path.join(__dirname, 'lib',
    // 'x.js')`, `cue::joined_path`): a string of code, not a writer's shorthand.
    let exact_code = relative
        && m.cue & (cue::SOURCE | cue::LITERAL) == cue::SOURCE | cue::LITERAL
        && m.cue & cue::FENCE == 0;
    if comps.is_empty() || exact_import || exact_code {
        return Decision::Weak;
    }
    // A relative link to a plain word that leads nowhere (`[Widgets](../widgets)` in pages
    // copied from another site) is that word, not the folder of a thing named so elsewhere.
    if relative
        && comps.len() == 1
        && !comps[0].contains('.')
        && !is_distinctive(comps[0])
        && exact.iter().all(|p| exists.at(p) == OnDisk::Missing)
    {
        return Decision::Weak;
    }
    // Written as a folder (`./guide/`): the file that defines the folder, if any (a skill's
    // SKILL.md, a package's `__init__.py`), not a file with the folder's name as its stem.
    // So is a path that leads to an existing folder without its slash (`[kit](../review-kit)`):
    // the folder, not a file in it that bears its name otherwise.
    // The folders the written path leads to (probed once): written as a folder, a thing
    // elsewhere of the folder's name is not the one meant (`href="../secure-auth/"` in a
    // site's page is the page's folder, not the `secure-auth` skill).
    let mut dirs: Vec<&str> = exact
        .iter()
        .map(String::as_str)
        .filter(|p| !p.is_empty() && exists.at(p) == OnDisk::Dir)
        .collect();
    let folder = m.cue & cue::FOLDER != 0 || !import && !dirs.is_empty();
    if !folder {
        dirs.clear();
    }
    // `tags._manylinux` after `from packaging import tags`: a module reached through a
    // module file (`tags.py`, no package) is one that file imported, its sibling.
    if let Some(d) = through_module_file(m, &comps, kind, bearers, exists) {
        return d;
    }
    let mut qualified: Vec<(i64, &str, RefKind)> = bearers
        .iter()
        // (A code package's folder written as a path is the folder, where its modules are:
        // not its `__init__.py` or `index.js`, which an import names.)
        .filter(|(_, b)| !folder || defines_named_folder(b, m.name) && !is_code_entry(b))
        .filter(|(_, b)| dirs.is_empty() || dirs.contains(&dir_of(b)))
        .filter(|(_, b)| !import || same_lang(b))
        .filter(|(_, b)| agrees(&comps, b, outside, m.name))
        .filter(|(_, b)| {
            !import
                || relative
                || import_root_ok(b, &comps, exists)
                || import_statement(m.text)
                    && own_folder_root(m.src, b, &comps)
                    && !bearers.iter().any(|(_, o)| {
                        o != b
                            && same_lang(o)
                            && agrees(&comps, o, outside, m.name)
                            && import_root_ok(o, &comps, exists)
                    })
        })
        .filter(|(_, b)| import || relative || outside || within_own_unit(m.src, &comps, b))
        // A relative path to a file that leads nowhere is broken where it is written: it does
        // not reach into another plugin by its tail (plugins are boundaries). A link to a
        // folder (its README) may still name a sister plugin whose place moved.
        .filter(|(_, b)| {
            !relative || import || b.rsplit('/').next() == Some("README.md") || {
                let (sp, bp) = (plugin_of(m.src, exists), plugin_of(b, exists));
                sp.is_none() || bp.is_none() || sp == bp
            }
        })
        // (Last: it may read the file.)
        .filter(|(_, b)| !import || !is_empty_package(b, exists) && !modules_only(b))
        .map(|(id, b)| (*id, *b, kind))
        .collect();
    // A path into this tree that leads nowhere (a file moved since it was written: the first
    // folder exists here) still names the file its last component names.
    let last_distinctive = comps
        .last()
        .is_some_and(|l| is_distinctive(l.rsplit_once('.').map_or(l, |(s, _)| s)));
    // Two plain words joined by one slash are alternatives ("xml/html", "read/write"), not a
    // path: a file name, a separator or a third component says path.
    let path_shaped = comps.len() >= 3 || comps.last().is_some_and(|l| l.contains(['.', '-', '_']));
    // A path that leads to a folder (`./plugins/unit-testing` in a marketplace) names that
    // folder: it was not moved.
    // (From the mentioning file or the root: a marketplace's `./plugins/x` is the root's.)
    // Probed last: only a path that could be a moved file's.
    let to_folder = || {
        let from_root = comps.join("/");
        exact
            .iter()
            .chain(std::iter::once(&from_root))
            .any(|p| !p.is_empty() && exists.at(p) == OnDisk::Dir)
    };
    // (A placeholder among its folders, `kaola-workflow/{project}/.cache/x.md`, makes it a
    // pattern of files a run writes, not a moved file's old path.)
    if qualified.is_empty()
        && !outside
        && !import
        && comps.len() >= 2
        && last_distinctive
        && path_shaped
        && !comps.iter().any(|c| placeholder(c).is_some())
        && !to_folder()
    {
        let first = comps[0];
        let joined = if src_dir.is_empty() {
            first.to_string()
        } else {
            format!("{src_dir}/{first}")
        };
        if exists.at(first) == OnDisk::Dir || exists.at(&joined) == OnDisk::Dir {
            let last = comps[comps.len() - 1];
            qualified = bearers
                .iter()
                // Written as a folder, it is still a folder: a moved skill's, not a stem's.
                .filter(|(_, b)| !folder || defines_named_folder(b, m.name))
                // A template's name is its output's: `production/stage-report.md`, not yet
                // written, is what the template at `docs/templates/stage-report.md` renders.
                .filter(|(_, b)| !is_template(b))
                .filter(|(_, b)| {
                    let bc: Vec<&str> = b.split('/').collect();
                    last_matches(last, &bc) > 0 || bc.len() >= 2 && bc[bc.len() - 2] == last
                })
                .map(|(id, b)| (*id, *b, kind))
                .collect();
            // A moved file keeps its folders' names: `skills/storybook/references/x.md` moved
            // under `skills/archive/` is the one still in a `storybook` folder, not another
            // skill's `references/x.md`.
            let kept = |b: &str| {
                let folders: Vec<&str> = dir_of(b).split('/').collect();
                comps[..comps.len() - 1]
                    .iter()
                    .filter(|c| folders.contains(c))
                    .count()
            };
            if let Some(most) = qualified.iter().map(|q| kept(q.1)).max() {
                qualified.retain(|q| kept(q.1) == most);
            }
        }
    }
    // A project's own install of a skill (`./.claude/skills/memory/cli.js`) that is not here:
    // the skill's copy the tree keeps elsewhere, as for the user's (`~/.claude/skills/…`).
    let project_install = || {
        let shaped = match comps.as_slice() {
            [".claude", "skills", _, _, ..] => true,
            [".claude", kind, _] => CLIENT_KINDS.contains(kind),
            _ => false,
        };
        shaped && exact.iter().all(|p| exists.at(p) == OnDisk::Missing)
    };
    if qualified.is_empty() && (outside || !import && project_install()) {
        qualified = installed_copy(&comps, bearers, kind, exists, project_variable(via));
    }
    // A path into the user's client folder, to a distinctive file name one file of the
    // writer's plugin bears (`~/.claude/config/telegram-poll.sh` where the plugin keeps
    // `files/telegram-poll.sh` to install there): that file, wherever its install puts it.
    // (Not a path that leads nowhere in the tree: an output the plugin writes,
    // `C4-Documentation/c4-context.md`, is no copy of its agent `c4-context.md`.)
    let client_home = ["~/.claude/", "$HOME/.claude/", "${HOME}/.claude/"]
        .iter()
        .any(|h| via.starts_with(h));
    if qualified.is_empty() && !import && outside && client_home {
        qualified = plugins_own_copy(m, &comps, bearers, kind, exists);
    }
    if qualified.iter().any(|q| q.1 == m.src) {
        return Decision::Tie;
    }
    pick(m, &qualified)
}

/// The one file of the writer's plugin named as the written path's file name, when that name
/// is distinctive and no other file in the tree bears it (`scan::refs::decide_path`).
fn plugins_own_copy<'b>(
    m: &Mention<'_>,
    comps: &[&str],
    bearers: &[(i64, &'b str)],
    kind: RefKind,
    exists: &dyn Disk,
) -> Vec<(i64, &'b str, RefKind)> {
    let Some(file) = comps.last() else {
        return Vec::new();
    };
    if !is_distinctive(super::names::stem_of(file)) {
        return Vec::new();
    }
    let Some((id, b)) = sole_bearer_named(bearers, file) else {
        return Vec::new();
    };
    match (plugin_of(m.src, exists), plugin_of(b, exists)) {
        (Some(own), Some(theirs)) if own == theirs => vec![(id, b, kind)],
        _ => Vec::new(),
    }
}

/// The one bearer whose file name is `file`, if exactly one is.
fn sole_bearer_named<'b>(bearers: &[(i64, &'b str)], file: &str) -> Option<(i64, &'b str)> {
    let mut named = bearers
        .iter()
        .filter(|(_, b)| b.rsplit('/').next() == Some(file));
    let one = named.next().copied();
    named.next().is_none().then_some(one).flatten()
}

/// A class used by its package's name (`cue::NAMESAKE`: `Agent(…)` after `from strands import
/// Agent`, which reaches `strands/agent/`) is defined by the package's module of its own name
/// where there is one (`strands/agent/agent.py`), not by the `__init__.py` that re-exports it.
///
/// So is a script's use of what it binds from a component's folder (`<ListItem …>` after
/// `import { ListItem } from "../ListItem"`): the folder's `index.ts` re-exports it, and
/// `ListItem/ListItem.tsx` defines it. The import line itself still names the `index.ts` it
/// loads.
fn namesake_module(m: &Mention<'_>, d: Decision, bearers: &[(i64, &str)]) -> Decision {
    let Decision::Edge(id, res, kind) = d else {
        return d;
    };
    // (Looked up only where it may apply: a bearer list may be long.)
    let script = || cue::lang_of(m.src, b"") == Some(cue::Lang::Script);
    if m.cue & cue::NAMESAKE == 0 && !(kind == RefKind::Use && script()) {
        return d;
    }
    let Some(path) = bearers.iter().find(|b| b.0 == id).map(|b| b.1) else {
        return d;
    };
    let (dir, base) = path.rsplit_once('/').unwrap_or(("", path));
    let last = dir.rsplit('/').next().unwrap_or(dir);
    let inner: Vec<String> = if m.cue & cue::NAMESAKE != 0 && base == "__init__.py" {
        vec![format!("{dir}/{last}.py")]
    } else if kind == RefKind::Use && ENTRY_FILES.contains(&base) && !last.is_empty() {
        ["tsx", "ts", "jsx", "js", "mjs"]
            .iter()
            .map(|x| format!("{dir}/{last}.{x}"))
            .collect()
    } else {
        return d;
    };
    match bearers.iter().find(|b| inner.iter().any(|i| i == b.1)) {
        Some(b) if b.1 != m.src => Decision::Edge(b.0, res, kind),
        _ => d,
    }
}

/// Whether a dotted import (`from utils.cli_utils import` in `scripts/core/x.py`) reaches the
/// module at `bearer` (`scripts/utils/cli_utils.py`) from a folder that holds the importing
/// file: a script putting its own folders on the path, packages or not. Asked only where no
/// module is reached from a root (a vendored copy's `parso.python.token` is the real parso's).
fn own_folder_root(src: &str, bearer: &str, comps: &[&str]) -> bool {
    comps.len() >= 2
        && import_root(bearer, comps).is_some_and(|root| is_within(src, &root.join("/")))
}

/// The folders above the module at `bearer` that an absolute import written as `comps` must
/// start from (`scripts` for `utils/cli_utils` in `scripts/utils/cli_utils.py`); `None` when
/// the module is no deeper than the import (it starts at the root) or is no module.
fn import_root<'b>(bearer: &'b str, comps: &[&str]) -> Option<Vec<&'b str>> {
    let module = module_of(bearer)?;
    let depth = module.split('/').count();
    (depth > comps.len()).then(|| module.split('/').take(depth - comps.len()).collect())
}

/// Whether a line (its evidence) is a Python import statement, not a string or prose that
/// spells a module (`"latex.lark"`, "the `parso.python.token` fork").
pub fn import_statement(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("from ") || t.starts_with("import ")
}

/// Whether `name`, written for the template whose file name is `base`, is the template's own
/// name and not what it renders to: its whole file name, compound (`prp_mcp_base.md`,
/// `pitch-document.md`) or with a template's extension (`observation.md.tmpl`). An output is
/// named plainly (`STATE.md`, `comments.xml`), and that name stays the output's.
fn own_template_name(name: &str, base: &str) -> bool {
    const TEMPLATE_EXTS: &[&str] = &[
        "tmpl", "tpl", "template", "j2", "jinja", "hbs", "mustache", "ejs",
    ];
    name == base
        && (crate::scan::names::stem_of(base).contains(['-', '_'])
            || base
                .rsplit_once('.')
                .is_some_and(|(_, x)| TEMPLATE_EXTS.iter().any(|t| x.eq_ignore_ascii_case(t))))
}

/// Whether the file at `path` is a template: kept in a `templates/` folder.
fn is_template(path: &str) -> bool {
    path.rsplit('/')
        .skip(1)
        .any(|c| c.eq_ignore_ascii_case("templates") || c.eq_ignore_ascii_case("template"))
}

/// The bearer a path outside the tree is an installed copy of: `~/.claude/commands/
/// subagent-catalog/config.sh` is the tree's `tools/subagent-catalog/config.sh` when the last
/// folders written agree with the bearer's and one of them is a distinctive name (no folder
/// every unit holds, `agents/`, `scripts/`): the longest such agreement, held by one bearer only.
/// A file name alone, or with a conventional folder, says nothing of which copy. A skill's
/// folder is installed by its name: `~/.claude/skills/telegram/scripts/x.py` is the tree's
/// `skills/messaging/telegram/scripts/x.py` when that `telegram/` holds a SKILL.md.
///
/// The client's own folder (`.claude`) is no distinctive folder here: every project and the
/// home have one.
///
/// Under a script's variable for one of its folders (`$SCRIPTS_DIR/pr/resolve_thread.py`,
/// `variable`), a distinctive file name whose every written folder the bearer has, last to
/// first, is that file: the variable stands for the folders above.
fn installed_copy<'b>(
    comps: &[&str],
    bearers: &[(i64, &'b str)],
    kind: RefKind,
    exists: &dyn Disk,
    variable: bool,
) -> Vec<(i64, &'b str, RefKind)> {
    let agreed = |b: &str| {
        let n = comps
            .iter()
            .rev()
            .zip(b.rsplit('/'))
            .take_while(|(w, c)| *w == c)
            .count();
        // The folders of the agreement: all of it but the file name.
        let first = comps.len() - n;
        let folders = first..comps.len() - 1;
        // The written skill folder (after the last `skills/`), where the agreement holds it.
        let skill = || {
            let Some(k) = comps[..comps.len() - 1]
                .iter()
                .rposition(|c| *c == "skills")
            else {
                return false;
            };
            let folder = k + 1;
            if folder < first || folder >= comps.len() - 1 {
                return false;
            }
            let tail = comps[folder..].join("/");
            let through = b.len() - tail.len() + comps[folder].len();
            exists.at(&format!("{}/SKILL.md", &b[..through])) == OnDisk::File
        };
        let whole = || {
            variable
                && n == comps.len()
                && is_distinctive(super::names::stem_of(comps[comps.len() - 1]))
        };
        // The client's own folder (`.claude/settings.json`) is in every project and in the
        // home: agreeing on it says nothing of which copy (`~/.claude/settings.json` is not a
        // project template's `project/.claude/settings.json`, nor `/some/project/.claude/…`).
        let named = n >= 2
            && (comps[folders]
                .iter()
                .any(|f| !UNIT_FOLDERS.contains(f) && is_distinctive(f) && *f != ".claude")
                || skill()
                || whole());
        if named {
            n
        } else {
            0
        }
    };
    // The client's own folder of a kind (`~/.claude/scripts/register-hook.sh`,
    // `./.claude/rules/document-governance.md`): where an install puts the one file of that
    // distinctive name, wherever the tree keeps it (a plugin's `scripts/`, a rules repo's root).
    let client_kind = match comps {
        [".claude", kind, file] if CLIENT_KINDS.contains(kind) => {
            Some(*file).filter(|f| is_distinctive(super::names::stem_of(f)))
        }
        _ => None,
    };
    if let Some((id, b)) = client_kind.and_then(|file| sole_bearer_named(bearers, file)) {
        return vec![(id, b, kind)];
    }
    let scored: Vec<(usize, i64, &str)> = bearers
        .iter()
        .map(|(id, b)| (agreed(b), *id, *b))
        .filter(|(n, _, _)| *n > 0)
        .collect();
    let Some(best) = scored.iter().map(|s| s.0).max() else {
        return Vec::new();
    };
    let top: Vec<_> = scored.iter().filter(|s| s.0 == best).collect();
    match top.as_slice() {
        [one] => vec![(one.1, one.2, kind)],
        _ => Vec::new(),
    }
}

/// Whether a written path leads through folders of a folder `mktemp` made, into a file the
/// script writes (`cat > "$WORK/repo/x.json"` after `WORK=$(mktemp -d)`, `scan::mentions`): a
/// stub a test made there, not this repository's file, whatever its tail is. (One it runs
/// there may be the tree's file copied in; a literal `/tmp/claude-config/x.py` may be a
/// checkout of this very repository.)
fn in_temporary_folder(via: &str) -> bool {
    via.strip_prefix(super::mentions::TEMPORARY)
        .and_then(|r| r.strip_prefix('/'))
        .is_some_and(|r| r.contains('/'))
}

/// Whether a written path starts with a variable a script names one of its folders by
/// (`$SCRIPTS_DIR/…`, `${ROOT}/…`), not the home or a temporary folder's.
fn project_variable(via: &str) -> bool {
    let Some(rest) = via.strip_prefix('$') else {
        return false;
    };
    let rest = rest.strip_prefix('{').unwrap_or(rest);
    let name: &str = rest
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .next()
        .unwrap_or("");
    !name.is_empty()
        && !matches!(name, "HOME" | "USERPROFILE" | "TMPDIR" | "TMP" | "TEMP")
        && !name.starts_with("XDG_")
}

/// The client's folders a file is installed into by its kind (skills go by their folder).
const CLIENT_KINDS: [&str; 6] = [
    "agents",
    "commands",
    "rules",
    "hooks",
    "scripts",
    "output-styles",
];

/// The folders every skill or plugin may hold: a path that starts with one, written inside a
/// skill or a plugin, is that unit's own (`references/patterns.md` in a skill's SKILL.md).
const UNIT_FOLDERS: [&str; 10] = [
    "references",
    "reference",
    "resources",
    "scripts",
    "examples",
    "assets",
    "templates",
    "agents",
    "commands",
    "hooks",
];

/// The skill (`…/skills/x`) or plugin (`…/plugins/p`) folder holding `path`, if any.
fn unit_of(path: &str) -> Option<&str> {
    unit_under(path, "skills").or_else(|| unit_under(path, "plugins"))
}

/// The folder `…/<folder>/x` holding `path` below its own level (the last such), if any.
fn unit_under<'p>(path: &'p str, folder: &str) -> Option<&'p str> {
    let comps: Vec<&str> = path.split('/').collect();
    let at = comps
        .iter()
        .rposition(|c| *c == folder)
        .filter(|i| i + 2 < comps.len())?;
    let len: usize = comps[..at + 2].iter().map(|c| c.len() + 1).sum::<usize>() - 1;
    Some(&path[..len])
}

/// Whether the file at `path` lies beside `folder` with the folder's name as its stem
/// (`agents/x.md` beside `agents/x/`): the folder is the file's own.
fn owns_folder(path: &str, folder: &str) -> bool {
    let (dir, base) = path.rsplit_once('/').unwrap_or(("", path));
    let (fdir, fname) = folder.rsplit_once('/').unwrap_or(("", folder));
    dir == fdir && super::names::stem_of(base) == fname
}

/// The folder holding `path` whose own name is `name` (the deepest), if any.
fn in_folder_named<'p>(path: &'p str, name: &str) -> Option<&'p str> {
    let dir = dir_of(path);
    let at = dir
        .match_indices(name)
        .map(|(i, _)| i)
        .filter(|&i| {
            let end = i + name.len();
            (i == 0 || dir.as_bytes()[i - 1] == b'/')
                && (end == dir.len() || dir.as_bytes()[end] == b'/')
        })
        .last()?;
    Some(&dir[..at + name.len()])
}

/// The folder of samples that holds `path` (`tests/fixtures`, `testdata`), if any: a fixture is
/// a copy of a kind of file (`fixtures/repo-alpha/REVIEW_ME.md`), kept for the tests to read.
fn fixture_root(path: &str) -> Option<&str> {
    // (Asked of every bearer a bare mention is decided among: no allocation.)
    const SAMPLES: [&str; 6] = [
        "fixtures",
        "fixture",
        "__fixtures__",
        "test-fixtures",
        "test_fixtures",
        "testdata",
    ];
    let mut at = 0;
    for c in dir_of(path).split('/') {
        at += c.len();
        if SAMPLES.iter().any(|f| c.eq_ignore_ascii_case(f)) {
            return Some(&path[..at]);
        }
        at += 1;
    }
    None
}

/// Whether `path` lies inside the folder `unit`.
fn is_within(path: &str, unit: &str) -> bool {
    path.len() > unit.len() && path.starts_with(unit) && path.as_bytes()[unit.len()] == b'/'
}

/// Whether a bearer may be what a path written as `comps` in `src` leads to: a path that starts
/// with a unit's own folder and ends in a plain word (`references/patterns.md`), written inside
/// a skill or plugin, leads into that unit only. An example layout in one skill is not another
/// skill's file of that name; a distinctive name (`references/model-catalog.md` after "see
/// `finetuning-method-selection`'s") is the one file that bears it, whichever unit holds it.
fn within_own_unit(src: &str, comps: &[&str], bearer: &str) -> bool {
    let plain_last = comps
        .last()
        .is_some_and(|l| !is_distinctive(l.rsplit_once('.').map_or(l, |(s, _)| s)));
    let own =
        plain_last && comps.len() >= 2 && comps.first().is_some_and(|c| UNIT_FOLDERS.contains(c));
    unit_of(src)
        .filter(|_| own)
        .is_none_or(|unit| is_within(bearer, unit))
}

/// Whether an absolute import written as `comps` (`gc`, `plugin_eval/models`) can reach the
/// module at `bearer` from a folder on Python's path: the folder above the written module (the
/// root, `src/`, a scripts folder) must be neither a package nor inside one. `import gc` in
/// `test/test_x.py` is the built-in module, not `test/dtracedata/gc.py` (`test/` is a package).
/// Adding or removing an `__init__.py` re-resolves the names below it (`index::apply::delta`).
pub fn import_root_ok(bearer: &str, comps: &[&str], exists: &dyn Disk) -> bool {
    let Some(root) = import_root(bearer, comps) else {
        return true;
    };
    let is_package = |dirs: &[&str]| {
        !dirs.is_empty() && exists.at(&format!("{}/__init__.py", dirs.join("/"))) == OnDisk::File
    };
    !is_package(&root) && !is_package(&root[..root.len() - 1])
}

/// The one word of a written form that holds the name (a code span `bash x/run.sh` is a
/// command line: its path is the word `x/run.sh`), without quotes around it.
fn written_token<'v>(via: &'v str, name: &str) -> &'v str {
    if !via.contains([' ', '\t']) {
        return via;
    }
    via.split_whitespace()
        .rfind(|w| w.contains(name))
        .map_or(via, |w| w.trim_matches(|c| matches!(c, '"' | '\'' | '`')))
}

/// A shell script's names for its own folder (a test's, in bats).
const SCRIPT_FOLDER_VARS: [&str; 6] = [
    "SCRIPT_DIR",
    "SCRIPTDIR",
    "SCRIPT_PATH",
    "HERE",
    "DIR",
    "BATS_TEST_DIRNAME",
];

/// A path under the client's own variables, as a root-relative path: `$CLAUDE_PROJECT_DIR/x`
/// is the project's `x`; `${CLAUDE_PLUGIN_ROOT}/x` is `x` in the plugin holding the mentioning
/// file (the nearest folder above it with `.claude-plugin/plugin.json`, else the root).
fn client_root_path(src: &str, via: &str, exists: &dyn Disk) -> Option<String> {
    // Called for every written path: no allocation unless it starts with a variable.
    if !via.starts_with('$') {
        return None;
    }
    let src_dir = dir_of(src);
    // (A script without an extension says so on its first line: `#!/usr/bin/env bash`.)
    let shell = src.ends_with(".sh")
        || src.ends_with(".bash")
        || src.ends_with(".zsh")
        || src.ends_with(".bats")
        || cue::lang_of(src, b"") == Some(cue::Lang::Shell)
        || !src.rsplit('/').next().unwrap_or(src).contains('.')
            && exists
                .text(src)
                .is_some_and(|t| cue::lang_of(src, t.as_bytes()) == Some(cue::Lang::Shell));
    // `$(dirname "$0")/x`, `$(dirname "${BASH_SOURCE[0]}")/x`: the script's own folder.
    if let Some(rest) = via.strip_prefix("$(dirname ") {
        let (arg, rest) = rest.split_once(")/")?;
        let own = arg.contains("$0") || arg.contains("BASH_SOURCE");
        return (shell && own).then(|| join_normal(src_dir, rest)).flatten();
    }
    // `$NAME/…`, `${NAME}/…`, `${NAME:-default}/…`.
    let (name, rest) = cue::variable_at(via)?;
    let rest = rest.strip_prefix('/')?;
    match name {
        "CLAUDE_PROJECT_DIR" => Some(rest.to_string()),
        // The project's `.claude/` by the names scripts give it (`PARSER="$CLAUDE_DIR/hooks/…"`).
        "CLAUDE_DIR" | "CLAUDE_CONFIG_DIR" => Some(format!(".claude/{rest}")),
        // The plugin holding the file (the nearest folder above with a manifest), else the root.
        "CLAUDE_PLUGIN_ROOT" | "PLUGIN_ROOT" | "PLUGIN_DIR" => {
            let n = exists.plugin_len(src_dir);
            Some(if n > 0 {
                format!("{}/{rest}", &src[..n])
            } else {
                rest.to_string()
            })
        }
        // The skill holding the file (`${CLAUDE_SKILL_DIR}/references/x.md` in a skill or its
        // references): the nearest folder above with a SKILL.md.
        "CLAUDE_SKILL_DIR" | "SKILL_DIR" => join_normal(skill_folder(src_dir, exists)?, rest),
        // A script's names for its own folder (a test's, in bats).
        v if shell && SCRIPT_FOLDER_VARS.contains(&v) => join_normal(src_dir, rest),
        // A module's own folder in a template literal (`${import.meta.dir}/x.ts`, Bun's and
        // Node's names, `${__dirname}/x.js`).
        "__dirname" | "import.meta.dir" | "import.meta.dirname"
            if cue::lang_of(src, b"") == Some(cue::Lang::Script) =>
        {
            join_normal(src_dir, rest)
        }
        _ => None,
    }
}

/// Whether an example's import says which module of ours it is: by folders of its own
/// (`fence_import_has_folders`), or by a distinctive module name (`from audit_pdf_engine import
/// generate`, where the tree keeps `skills/shared/audit_pdf_engine.py`: 9 labelled lines of
/// one tree), which no example invents; a word's (`from models import`) is the example's.
fn fence_import_says_whose(via: &str) -> bool {
    fence_import_has_folders(via) || {
        let bare = via.trim_start_matches(['.', '/']);
        !bare.contains('/') && is_distinctive(bare)
    }
}

/// Whether an example's import names folders of its own (`from plugin_eval.models import`,
/// `require('../../lib/project-profile')`), which say which of ours it is: after the steps up
/// (`./`, `../`), a folder and a module. `./Button`, `from .models import` name the example's.
fn fence_import_has_folders(via: &str) -> bool {
    let mut rest = via;
    while let Some(r) = rest.strip_prefix("./").or_else(|| rest.strip_prefix("../")) {
        rest = r;
    }
    rest.trim_start_matches('.').contains('/')
}

/// A `package.json` script run by name (`pnpm gen`, `npm run gen:check`) is the file its
/// command runs (`"gen": "tsx scripts/gen.ts"`): in the nearest manifest above the writer that
/// has a script of the name (or, written with a `:` suffix, of the name's group: `gen:check`),
/// a word of the command that leads, from the manifest's folder, to a bearer. Else the name is
/// the script's, no file's.
fn script_file(m: &Mention<'_>, bearers: &[(i64, &str)], disk: &dyn Disk) -> Decision {
    let quoted = format!("\"{}", m.name);
    let scripts = dir_and_above(dir_of(m.src)).find_map(|dir| {
        let text = disk
            .text(&module_in(dir, "package.json"))
            .filter(|t| t.contains(&quoted))?;
        let manifest: serde_json::Value = serde_json::from_str(&text).ok()?;
        let scripts = manifest.get("scripts")?.as_object()?;
        let runs: Vec<String> = scripts
            .iter()
            .filter(|(k, _)| {
                if m.cue & cue::SCRIPT_GROUP == 0 {
                    k.as_str() == m.name
                } else {
                    k.strip_prefix(m.name).is_some_and(|r| r.starts_with(':'))
                }
            })
            .filter_map(|(_, v)| v.as_str().map(str::to_string))
            .collect();
        (!runs.is_empty()).then(|| (dir.to_string(), runs))
    });
    let Some((dir, runs)) = scripts else {
        return Decision::Weak;
    };
    let mut hits = runs
        .iter()
        .flat_map(|cmd| cmd.split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|')))
        .map(|w| w.trim_matches(|c| matches!(c, '"' | '\'' | '`')))
        .filter(|w| !w.is_empty() && !w.starts_with('-'))
        .filter_map(|w| join_normal(&dir, w))
        .filter_map(|p| bearers.iter().find(|(_, b)| *b == p))
        .map(|(id, _)| *id)
        .collect::<Vec<_>>();
    hits.sort_unstable();
    hits.dedup();
    match hits.as_slice() {
        // (The script's own file saying how it is run is a self mention.)
        [id] if bearers.iter().any(|(b, p)| b == id && *p == m.src) => Decision::Tie,
        [id] => Decision::Edge(*id, Resolution::Unique, RefKind::Path),
        _ => Decision::Weak,
    }
}

/// The page a site's path is built from (`/en/skills/x/`, a permalink in a link or a
/// `lang_peer:`): the Markdown file at that path in the site's source, `docs/` or the root
/// (`docs/en/skills/x.md`, `docs/en/skills/x/index.md`), when one of the bearers is it.
fn site_page<'b>(via: &str, bearers: &[(i64, &'b str)]) -> Option<(i64, &'b str)> {
    let p = via.strip_prefix('/').filter(|p| !p.starts_with('/'))?;
    let p = p.trim_end_matches('/');
    let last = p.rsplit('/').next()?;
    if p.is_empty() || last.contains('.') || !p.contains('/') {
        return None;
    }
    let page = |b: &str| {
        let b = b.strip_prefix("docs/").unwrap_or(b);
        b.strip_suffix(".md")
            .map(|s| s.strip_suffix("/index").unwrap_or(s))
            == Some(p)
    };
    let mut hits = bearers.iter().filter(|(_, b)| page(b));
    match (hits.next(), hits.next()) {
        (Some(hit), None) => Some(*hit),
        _ => None,
    }
}

/// The name inside a placeholder a writer puts for a folder: `<skill-base-dir>`, `{baseDir}`,
/// `[PLUGIN_ROOT]` (not a shell variable's `${NAME}`).
fn placeholder(component: &str) -> Option<&str> {
    let inner = component
        .strip_prefix('<')
        .and_then(|c| c.strip_suffix('>'))
        // A template's variable (`{{scripts_path}}`, `{{ skill_dir }}`).
        .or_else(|| Some(component.strip_prefix("{{")?.strip_suffix("}}")?.trim()))
        .or_else(|| component.strip_prefix('{')?.strip_suffix('}'))
        .or_else(|| component.strip_prefix('[')?.strip_suffix(']'))?;
    (!inner.is_empty()
        && inner
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
    .then_some(inner)
}

/// What a path headed by a placeholder stands for.
enum Held {
    /// The root-relative path it leads to.
    Path(String),
    /// Some folder's file of that name (`<plugin>/README.md`, `{run_dir}/report.md`): a
    /// pattern of many files, or of files not written yet.
    Pattern,
    /// No placeholder, or one for a folder outside the tree, as a variable's is.
    Outside,
}

/// The path `<name>/rest` stands for. A placeholder that says whose folder it is stands for
/// that one where `rest` is there (the skill's, the plugin's, the project's, as the client's
/// variables do); any (`<session>`, `{FAKE_ROOT}`, `{baseDir}` in a command) for the nearest
/// folder above the writer where `rest`, with its folders, leads to something: the writer's
/// own tree is what its instructions are about.
fn placeholder_path(src: &str, token: &str, exists: &dyn Disk) -> Held {
    let Some((name, rest)) = token
        .split_once('/')
        .and_then(|(first, rest)| Some((placeholder(first)?, rest)))
    else {
        return Held::Outside;
    };
    let there = |p: &str| !p.is_empty() && exists.at(p) != OnDisk::Missing;
    let key = name.to_ascii_lowercase().replace(['-', '_'], "");
    let var = if key.contains("skill") || key == "basedir" {
        Some("CLAUDE_SKILL_DIR")
    } else if key.contains("plugin") {
        // Written outside any plugin, `<plugin>/x` is any plugin's.
        let root_plugin = || exists.at(".claude-plugin/plugin.json") == OnDisk::File;
        (exists.plugin_len(dir_of(src)) > 0 || root_plugin()).then_some("CLAUDE_PLUGIN_ROOT")
    } else if matches!(
        key.as_str(),
        "projectroot" | "projectdir" | "repo" | "reporoot"
    ) {
        Some("CLAUDE_PROJECT_DIR")
    } else {
        None
    };
    if let Some(p) = var
        .and_then(|v| client_root_path(src, &format!("${{{v}}}/{rest}"), exists))
        .filter(|p| there(p))
    {
        return Held::Path(p);
    }
    // One named after a kind of folder (`{{scripts_path}}/load-context.mjs`,
    // `<references_dir>/x.md`): that folder of the nearest unit above the writer holding it.
    let kind = [
        ("script", "scripts"),
        ("reference", "references"),
        ("asset", "assets"),
        ("template", "templates"),
    ]
    .iter()
    .find_map(|(word, folder)| key.contains(word).then_some(*folder));
    // The nearest folder above the writer where `rel` leads to something.
    let above = |rel: &str| {
        let mut d = dir_of(src);
        loop {
            if let Some(p) = join_normal(d, rel).filter(|p| there(p)) {
                return Some(p);
            }
            if d.is_empty() {
                return None;
            }
            d = dir_of(d);
        }
    };
    if let Some(p) = kind.and_then(|folder| above(&format!("{folder}/{rest}"))) {
        return Held::Path(p);
    }
    // A file name alone under it (`{run_dir}/report.md`) is whatever that run writes.
    if !rest.trim_end_matches('/').contains('/') {
        return Held::Pattern;
    }
    above(rest).map_or(Held::Outside, Held::Path)
}

/// The module path of a source file: `a/b.py` -> `a/b`, `a/b/__init__.py` -> `a/b`.
fn module_of(path: &str) -> Option<&str> {
    let (dir, base) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = base.rsplit_once('.').map(|(s, _)| s)?;
    if matches!(stem, "__init__" | "index" | "mod") {
        return Some(dir);
    }
    Some(&path[..path.len() - (base.len() - stem.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(src: &str, name: &str, cue_bits: u64, via: Option<&str>, bearers: &[&str]) -> Decision {
        d_with(src, name, cue_bits, via, bearers, &[])
    }

    fn d_with(
        src: &str,
        name: &str,
        cue_bits: u64,
        via: Option<&str>,
        bearers: &[&str],
        others: &[&str],
    ) -> Decision {
        d_text(src, name, cue_bits, via, "", bearers, others)
    }

    fn d_text(
        src: &str,
        name: &str,
        cue_bits: u64,
        via: Option<&str>,
        text: &str,
        bearers: &[&str],
        others: &[&str],
    ) -> Decision {
        let b: Vec<(i64, &str)> = bearers
            .iter()
            .enumerate()
            .map(|(i, p)| (i as i64 + 1, *p))
            .collect();
        let m = Mention {
            src,
            name,
            cue: cue_bits,
            via,
            text,
        };
        let exists = |p: &str| {
            if bearers.contains(&p) || others.contains(&p) {
                OnDisk::File
            } else if bearers
                .iter()
                .chain(others)
                .any(|b| b.starts_with(&format!("{p}/")))
            {
                OnDisk::Dir
            } else {
                OnDisk::Missing
            }
        };
        decide(&m, &b, Tree::default(), &exists)
    }

    fn edge_to(dec: Decision) -> Option<(i64, RefKind)> {
        match dec {
            Decision::Edge(id, _, k) => Some((id, k)),
            _ => None,
        }
    }

    #[test]
    fn a_kind_said_after_a_name_picks_the_file_kept_as_that_kind() {
        let prompt = "tools/prompts/issue-writer.md";
        let skill = "skills/issue-writer/SKILL.md";
        let b = [skill, prompt];
        let noun = |text: &str, path: &str| {
            let names = ["issue-writer"];
            let m =
                crate::scan::matcher::Matcher::new(&names, crate::scan::matcher::Engine::Automaton)
                    .unwrap_or_else(|e| panic!("{e}"));
            crate::scan::mentions::mentions_in(&m, text.as_bytes(), path)
                .first()
                .map_or(0, |(_, c)| c.bits)
        };
        let said = noun("the issue-writer prompt\n", "README.md");
        assert_eq!(
            edge_to(d("README.md", "issue-writer", said, None, &b)),
            Some((2, RefKind::Name))
        );
        assert_eq!(
            edge_to(d("README.md", "issue-writer", 0, None, &b)),
            Some((1, RefKind::Name))
        );
        // Invoked, the name is the skill whatever follows it.
        let invoked = noun("/issue-writer prompt\n", "README.md");
        assert_eq!(
            edge_to(d("README.md", "issue-writer", invoked, None, &b)),
            Some((1, RefKind::Name))
        );
        // In a comment of code, where the prompt is not named so, the name is no skill's.
        let comment = noun("// Load issue-writer prompt\n", "tools/expand.ts");
        assert_eq!(
            d("tools/expand.ts", "issue-writer", comment, None, &b),
            Decision::Weak
        );
    }

    #[test]
    fn a_thing_kept_in_the_projects_client_folder_and_as_a_source_copy_is_the_loaded_one() {
        let loaded = ".claude/skills/implement-ready/SKILL.md";
        let source = "skills/implement-ready/SKILL.md";
        let b = [source, loaded];
        for src in ["docs/guide.md", "skills/implement-next/SKILL.md"] {
            assert_eq!(
                edge_to(d(src, "implement-ready", cue::SLASH, None, &b)),
                Some((2, RefKind::Name)),
                "{src}"
            );
        }
        // Inside the source copy's own folder, its own; code reads either copy; a folder
        // written is either folder.
        assert_eq!(
            edge_to(d(
                "skills/implement-ready/references/x.md",
                "implement-ready",
                cue::CODE,
                None,
                &b
            )),
            Some((1, RefKind::Name))
        );
        let lit = cue::SOURCE | cue::LITERAL;
        assert_eq!(
            d("test/x.test.mjs", "implement-ready", lit, None, &b),
            Decision::Tie
        );
        assert_eq!(
            d("docs/x.md", "implement-ready", cue::FOLDER, None, &b),
            Decision::Tie
        );
    }

    #[test]
    fn a_compound_skill_name_alone_in_a_programs_string_is_the_skill() {
        let lit = cue::SOURCE | cue::LITERAL;
        let b = ["skills/work-superspeed/SKILL.md"];
        assert!(edge_to(d("contracts/routing.py", "work-superspeed", lit, None, &b)).is_some());
        // Not in a fenced example, and not a one-word name (`["git", "worktree"]`).
        let fenced = lit | cue::FENCE;
        assert_eq!(
            d("docs/x.md", "work-superspeed", fenced, None, &b),
            Decision::Weak
        );
        let one = ["skills/remotion/SKILL.md"];
        assert_eq!(d("src/x.ts", "remotion", lit, None, &one), Decision::Weak);
    }

    #[test]
    fn an_invoked_skills_subcommand_is_the_file_the_skill_keeps_for_it() {
        let stale = "skills/chronicle/scripts/stale.ts";
        let skill = ["skills/chronicle/SKILL.md"];
        let sub =
            |src: &str, text: &str| d_text(src, "stale", cue::ARG, None, text, &[stale], &skill);
        for (src, text) in [
            ("skills/chronicle/SKILL.md", "## Stale (/chronicle stale)"),
            (
                "backlog/plan.md",
                "- [x] `/chronicle stale` shows old items",
            ),
            ("docs/x.md", "run /me:chronicle stale for details"),
        ] {
            assert_eq!(edge_to(sub(src, text)), Some((1, RefKind::Name)), "{text}");
        }
        // The file itself, on its own subcommand: a self mention.
        assert_eq!(sub(stale, "// run /chronicle stale"), Decision::Tie);
        // The skill's own SKILL.md bearing the word too (a variant's name) is not its file.
        let both = [stale, "skills/chronicle/SKILL.md"];
        assert_eq!(
            edge_to(d_text(
                "a.md",
                "stale",
                cue::ARG,
                None,
                "/chronicle stale",
                &both,
                &[]
            )),
            Some((1, RefKind::Name))
        );
        // Another invocation's word, or a skill that keeps no such file: the plain word.
        assert_eq!(sub("docs/x.md", "run /review stale"), Decision::Weak);
        assert_eq!(
            d_text(
                "docs/x.md",
                "stale",
                cue::ARG,
                None,
                "/chronicle stale",
                &[stale],
                &[]
            ),
            Decision::Weak
        );
    }

    #[test]
    fn a_program_named_as_a_skill_speaks_of_itself_by_the_name() {
        let tool = "skills/ai-usage/scripts/ai-usage";
        let b = ["skills/ai-usage/SKILL.md", tool];
        // Its own usage text: a self mention, not the skill that wraps it.
        assert_eq!(d(tool, "ai-usage", 0, None, &b), Decision::Tie);
        // Invoked, the name is still the skill's.
        assert_eq!(
            edge_to(d(tool, "ai-usage", cue::SLASH, None, &b)).map(|e| e.0),
            Some(1)
        );
        // A document of the name about the skill still names it.
        let doc = ["skills/ai-usage/SKILL.md", "docs/ai-usage.md"];
        assert_eq!(
            edge_to(d("docs/ai-usage.md", "ai-usage", 0, None, &doc)).map(|e| e.0),
            Some(1)
        );
    }

    #[test]
    fn a_dotted_import_reaches_a_package_under_a_folder_holding_the_importer() {
        let b = [
            "p/scripts/utils/cli_utils.py",
            "q/scripts/utils/cli_utils.py",
        ];
        let inits = [
            "p/scripts/__init__.py",
            "q/scripts/__init__.py",
            "p/scripts/utils/__init__.py",
            "q/scripts/utils/__init__.py",
        ];
        let bits = cue::IMPORT | cue::CODE_FILE;
        let via = Some("utils/cli_utils");
        let line = "from utils.cli_utils import add_base_dir_argument";
        let from =
            |src| edge_to(d_text(src, "cli_utils", bits, via, line, &b, &inits)).map(|e| e.0);
        assert_eq!(from("p/scripts/core/x.py"), Some(1));
        assert_eq!(from("q/scripts/x.py"), Some(2));
        // Not a string or prose that spells the module (`"utils.cli_utils"`).
        let spelt = d_text(
            "p/scripts/core/x.py",
            "cli_utils",
            bits,
            via,
            "\"utils.cli_utils\"",
            &b,
            &inits,
        );
        assert_eq!(edge_to(spelt), None);
        // Not from elsewhere, where `scripts/` is a package no path holds; nor one word.
        assert_eq!(from("p/other/x.py"), None);
        let one = d_with(
            "p/scripts/x.py",
            "cli_utils",
            bits,
            Some("cli_utils"),
            &b,
            &inits,
        );
        assert_eq!(edge_to(one), None);
        // A module reached from a root is what the import means: a vendored copy around the
        // importer is not (`libcst/_parser/parso/` beside the real `parso/`).
        let b = [
            "parso/python/token.py",
            "libcst/_parser/parso/python/token.py",
        ];
        let inits = [
            "libcst/__init__.py",
            "libcst/_parser/__init__.py",
            "parso/__init__.py",
        ];
        let src = "libcst/_parser/parso/python/py_token.py";
        let got = d_with(src, "token", bits, Some("parso/python/token"), &b, &inits);
        assert_eq!(edge_to(got).map(|e| e.0), Some(1));
    }

    #[test]
    fn a_from_import_of_modules_names_them_not_the_package() {
        let b = [(1, "distutils/__init__.py")];
        let files = [
            "distutils/__init__.py",
            "distutils/log.py",
            "distutils/command/build.py",
        ];
        let exists = |p: &str| {
            if files.contains(&p) {
                OnDisk::File
            } else if files.iter().any(|f| f.starts_with(&format!("{p}/"))) {
                OnDisk::Dir
            } else {
                OnDisk::Missing
            }
        };
        let at = |text| {
            let m = Mention {
                src: "x.py",
                name: "distutils",
                cue: cue::IMPORT | cue::CODE_FILE | cue::FROM_PACKAGE,
                via: Some("distutils"),
                text,
            };
            edge_to(decide(&m, &b, Tree::default(), &exists))
        };
        assert_eq!(at("from distutils import log"), None);
        assert_eq!(at("from distutils import log, command as c  # x"), None);
        assert_eq!(at("from distutils import (log)"), None);
        // A name the package itself defines, or a list not seen whole: the package too.
        assert!(at("from distutils import log, DistutilsError").is_some());
        assert!(at("from distutils import (").is_some());
        assert!(at("from distutils import log, comm…").is_some());
    }

    #[test]
    fn agents_in_subfolders_of_agents_are_known_by_their_frontmatter() {
        // Directly in agents/: by the folder; a subfolder's guide may be anything.
        assert!(!may_declare_agent(".claude/agents/analyst.md"));
        assert!(may_declare_agent(
            ".claude/agents/quality-testing/debugger.md"
        ));
        assert!(!may_declare_agent(".claude/commands/agents/x.md"));
        struct Fm;
        impl Disk for Fm {
            fn at(&self, _: &str) -> OnDisk {
                OnDisk::File
            }
            fn is_agent(&self, p: &str) -> bool {
                p.ends_with("debugger.md")
            }
        }
        let nested = ".claude/agents/quality-testing/debugger.md";
        assert_eq!(entity_on_disk(nested, "debugger", &Fm), Entity::Agent);
        let guide = ".claude/agents/quality-testing/guide.md";
        assert_eq!(entity_on_disk(guide, "guide", &Fm), Entity::Other);
        // A distinctive agent name in a shell example is the agent.
        let m = Mention {
            src: ".claude/agents/wfgy/README.md",
            name: "boundary-guardian",
            cue: cue::SOURCE | cue::FENCE,
            via: None,
            text: "",
        };
        let b = [(1, ".claude/agents/wfgy/boundary-guardian.md")];
        struct All;
        impl Disk for All {
            fn at(&self, _: &str) -> OnDisk {
                OnDisk::File
            }
            fn is_agent(&self, _: &str) -> bool {
                true
            }
        }
        let d = decide(
            &m,
            &b,
            Tree {
                root_is_home: false,
                root_is_client: false,
            },
            &All,
        );
        assert_eq!(edge_to(d), Some((1, RefKind::Name)), "{d:?}");
    }

    #[test]
    fn a_folder_named_after_a_command_holds_writings_about_it() {
        let cmd = ["p/commands/spot-check.md"];
        let spec = "p/docs/specs/spot-check/SPEC.md";
        assert!(edge_to(d(spec, "spot-check", cue::CODE, None, &cmd)).is_some());
        assert!(edge_to(d(spec, "spot-check", 0, None, &cmd)).is_some());
        // A document elsewhere on the folder's topic is still not what the topic's name means.
        let doc = ["p/docs/guides/spot-check.md"];
        assert_eq!(d(spec, "spot-check", 0, None, &doc), Decision::Weak);
    }

    #[test]
    fn a_drawing_under_a_root_that_leads_nowhere_is_of_the_writers_folder() {
        let via = Some("agent-config/settings.json");
        let b = ["settings.json"];
        let got = d("README.md", "settings.json", cue::DRAWN, via, &b);
        assert_eq!(edge_to(got), Some((1, RefKind::Path)), "{got:?}");
        // Only where the entry is beside the writer: an example project's file drawn in a
        // guide is none of ours, though a file of its path's tail exists elsewhere.
        let b = ["charts/templates/deployment.yaml"];
        let via = Some("mychart/templates/deployment.yaml");
        let got = d(
            "skills/helm/SKILL.md",
            "deployment.yaml",
            cue::DRAWN,
            via,
            &b,
        );
        assert_eq!(edge_to(got), None, "{got:?}");
    }

    #[test]
    fn a_kits_or_a_tests_readme_is_the_project_it_works_on() {
        let b = ["README.md"];
        // "update README.md" in a document of the repository is the root's.
        let got = d("docs/release.md", "README.md", 0, None, &b);
        assert!(edge_to(got).is_some(), "{got:?}");
        // "Look for existing docs in `README.md`" in a skill, a hook's comment, and
        // `git add README.md` in a test: the project's at work, the test's own repository.
        for src in [
            "skills/mapping/SKILL.md",
            "hooks/governing.sh",
            "hooks/memory.test.sh",
            "tests/test_cli.py",
        ] {
            assert_eq!(edge_to(d(src, "README.md", 0, None, &b)), None, "{src}");
        }
        // A design spec kept in `docs/specs/` is no test.
        let got = d("docs/specs/rename.md", "README.md", 0, None, &b);
        assert!(edge_to(got).is_some(), "{got:?}");
        // So is the `.gitignore` every project keeps: "append to `.gitignore`" in a skill.
        let ignore = [".gitignore"];
        let got = d(
            "skills/spec/SKILL.md",
            ".gitignore",
            cue::CODE,
            None,
            &ignore,
        );
        assert_eq!(edge_to(got), None, "{got:?}");
        let got = d("docs/setup.md", ".gitignore", cue::CODE, None, &ignore);
        assert!(edge_to(got).is_some(), "{got:?}");
    }

    #[test]
    fn in_a_users_client_folder_the_projects_claude_md_is_another_file() {
        let m = |cue_bits| Mention {
            src: "skills/audit/SKILL.md",
            name: "CLAUDE.md",
            cue: cue_bits,
            via: None,
            text: "",
        };
        let b = [(1, "CLAUDE.md")];
        let exists = |p: &str| {
            if p == "CLAUDE.md" || p == "skills/audit/SKILL.md" {
                OnDisk::File
            } else {
                OnDisk::Missing
            }
        };
        let client = Tree {
            root_is_home: false,
            root_is_client: true,
        };
        // "The global CLAUDE.md" there is the root's; in a project, the user's own.
        let got = decide(&m(cue::GLOBAL), &b, client, &exists);
        assert_eq!(edge_to(got), Some((1, RefKind::File)), "{got:?}");
        let got = decide(&m(cue::GLOBAL), &b, Tree::default(), &exists);
        assert_eq!(edge_to(got), None, "{got:?}");
        // "Read the project's CLAUDE.md": a project's, where the root is the user's folder.
        let root = cue::ROOT | cue::CODE;
        assert_eq!(edge_to(decide(&m(root), &b, client, &exists)), None);
        // In a project, so is it in a skill the project ships for others; in the project's
        // own `.claude/` the project's is the root's.
        assert_eq!(
            edge_to(decide(&m(root), &b, Tree::default(), &exists)),
            None
        );
        let own = Mention {
            src: ".claude/skills/audit/SKILL.md",
            ..m(root)
        };
        let got = decide(&own, &b, Tree::default(), &exists);
        assert_eq!(edge_to(got), Some((1, RefKind::File)), "{got:?}");
        // `~/.claude/x` is the root's `x`, or nothing: not a file of that name elsewhere.
        let installed = |name, via| Mention {
            src: "skills/audit/SKILL.md",
            name,
            cue: 0,
            via: Some(via),
            text: "",
        };
        let got = decide(
            &installed("CLAUDE.md", "~/.claude/CLAUDE.md"),
            &b,
            client,
            &exists,
        );
        assert_eq!(edge_to(got), Some((1, RefKind::Path)), "{got:?}");
        let state = [(2, "ledger/self-audit.json")];
        let m2 = installed("self-audit.json", "~/.claude/self-audit.json");
        assert_eq!(edge_to(decide(&m2, &state, client, &exists)), None);
    }

    #[test]
    fn a_path_leading_nowhere_names_its_plugins_one_file_of_that_name() {
        let b = ["plugins/telegram/files/telegram-poll.sh"];
        let installed = Some("~/.claude/config/telegram-poll.sh");
        let got = d(
            "plugins/telegram/install.sh",
            "telegram-poll.sh",
            0,
            installed,
            &b,
        );
        assert_eq!(edge_to(got), Some((1, RefKind::Path)), "{got:?}");
        // Not a path into the tree that leads nowhere (an output the plugin writes):
        let output = Some("C4-Documentation/telegram-poll.sh");
        let got = d(
            "plugins/telegram/README.md",
            "telegram-poll.sh",
            0,
            output,
            &b,
        );
        assert_eq!(edge_to(got), None);
        // Not from another plugin, not a plain name, not one of two.
        let other = d(
            "plugins/slack/install.sh",
            "telegram-poll.sh",
            0,
            installed,
            &b,
        );
        assert_eq!(edge_to(other), None);
        let plain = ["plugins/telegram/files/run.sh"];
        let got = d(
            "plugins/telegram/install.sh",
            "run.sh",
            0,
            Some("~/.claude/x/run.sh"),
            &plain,
        );
        assert_eq!(edge_to(got), None);
        let two = [
            "plugins/telegram/files/telegram-poll.sh",
            "plugins/telegram/old/telegram-poll.sh",
        ];
        let got = d(
            "plugins/telegram/install.sh",
            "telegram-poll.sh",
            0,
            installed,
            &two,
        );
        assert_eq!(edge_to(got), None);
    }

    #[test]
    fn a_path_from_a_scripts_own_folder_that_leads_nowhere_names_nothing_else() {
        let src = "hooks/archive/old/pre-commit.sh";
        let via = Some("$SCRIPT_DIR/is-docs-only.sh");
        let moved = ["hooks/git/lib/is-docs-only.sh"];
        assert_eq!(edge_to(d(src, "is-docs-only.sh", 0, via, &moved)), None);
        let beside = ["hooks/archive/old/is-docs-only.sh"];
        let got = d(src, "is-docs-only.sh", 0, via, &beside);
        assert_eq!(edge_to(got), Some((1, RefKind::Path)), "{got:?}");
        let via = Some("$(dirname \"$0\")/is-docs-only.sh");
        assert_eq!(edge_to(d(src, "is-docs-only.sh", 0, via, &moved)), None);
    }

    #[test]
    fn common_and_distinctive_words() {
        assert!(is_common_word("status") && is_common_word("templates"));
        assert!(is_common_word("Workflows") || !is_common_word("workflows"));
        assert!(!is_distinctive("status") && !is_distinctive("lists"));
        assert!(is_distinctive("data-engineer") && is_distinctive("paypal"));
        // An identifier of capitals and digits, however short; not a word with a digit.
        assert!(is_distinctive("US4") && is_distinctive("T01") && is_distinctive("ADR12"));
        assert!(!is_distinctive("v2") && !is_distinctive("md5") && !is_distinctive("API"));
        // A verb's -ing form is as common as its verb or its doer.
        assert!(is_common_word("messaging") && is_common_word("storytelling"));
        assert!(!is_common_word("paypaling") && !is_distinctive("scrolling"));
        let story = ["plans/028/tasks/US4.md", "plans/029/tasks/US4.md"];
        let got = d("plans/028/tasks/index.md", "US4", 0, None, &story);
        assert_eq!(edge_to(got).map(|e| e.0), Some(1), "the plan's own story");
    }

    #[test]
    fn a_skills_plain_name_inside_it_is_not_from_a_skill_kept_within() {
        let shelf = ["skills/shelves/storytelling/SKILL.md"];
        let nested = ["skills/shelves/storytelling/with-data/SKILL.md"];
        let own = "skills/shelves/storytelling/notes.md";
        assert!(edge_to(d_with(own, "storytelling", 0, None, &shelf, &nested)).is_some());
        let inner = "skills/shelves/storytelling/with-data/guide.md";
        assert_eq!(
            d_with(inner, "storytelling", 0, None, &shelf, &nested),
            Decision::Weak
        );
    }

    #[test]
    fn a_title_case_name_written_in_lower_case_is_an_agents_not_a_documents() {
        let lowered = cue::LOWERED;
        let agent = ["agents/Security-Auditor.md"];
        let to = edge_to(d("docs/a.md", "Security-Auditor", lowered, None, &agent));
        assert!(to.is_some());
        let doc = ["notes/Aima-Tower.md"];
        assert_eq!(
            d("docs/a.md", "Aima-Tower", lowered | cue::CODE, None, &doc),
            Decision::Weak
        );
        assert!(edge_to(d("docs/a.md", "Aima-Tower", 0, None, &doc)).is_some());
    }

    #[test]
    fn a_documents_phrase_name_outside_its_skill_is_the_phrase() {
        let doc = ["skills/chasm/references/go-to-market.md"];
        let skill = ["skills/chasm/SKILL.md"];
        let other = "skills/sticky/references/curse.md";
        assert_eq!(
            d_with(other, "go-to-market", 0, None, &doc, &skill),
            Decision::Weak
        );
        // Inside its skill, with a cue, or as a coined name or a script's, it is the file.
        let own = "skills/chasm/SKILL.md";
        assert!(edge_to(d_with(own, "go-to-market", 0, None, &doc, &skill)).is_some());
        assert!(edge_to(d_with(other, "go-to-market", cue::CODE, None, &doc, &skill)).is_some());
        let coined = ["skills/chasm/references/scenario-checks.md"];
        assert!(edge_to(d_with(other, "scenario-checks", 0, None, &coined, &skill)).is_some());
        let script = ["skills/chasm/scripts/state-of-play.sh"];
        assert!(edge_to(d_with(other, "state-of-play", 0, None, &script, &skill)).is_some());
    }

    #[test]
    fn a_command_a_skill_keeps_is_named_inside_that_skill_only() {
        let cmd = [".claude/skills/road/roles/coordinator/commands/resume.md"];
        let inside = ".claude/skills/road/roles/coordinator/role.md";
        let outside = ".claude/skills/other/roles/coordinator/role.md";
        let span = cue::CODE;
        assert!(edge_to(d(inside, "resume", span, None, &cmd)).is_some());
        assert_eq!(d(outside, "resume", span, None, &cmd), Decision::Weak);
        // In quotes a one-word name is a word someone says, or a value.
        assert_eq!(d(inside, "resume", cue::QUOTED, None, &cmd), Decision::Weak);
        assert_eq!(d(outside, "resume", cue::SLASH, None, &cmd), Decision::Weak);
    }

    #[test]
    fn plain_words_are_weak_names_with_cues_are_edges() {
        let cmd = ["plugins/c/commands/status.md"];
        let src = "plugins/c/commands/manage.md";
        assert_eq!(d(src, "status", 0, None, &cmd), Decision::Weak);
        assert_eq!(
            edge_to(d(
                src,
                "status",
                cue::SLASH | cue::NAMESPACE,
                Some("c:"),
                &cmd
            )),
            Some((1, RefKind::Name))
        );
        assert_eq!(
            edge_to(d(src, "status", cue::CODE, None, &cmd)),
            Some((1, RefKind::Name))
        );
        let tpl = ["a/templates/template.html"];
        assert_eq!(
            d("a/x.md", "template", cue::CODE, None, &tpl),
            Decision::Weak
        );
        // A compound file name, or a template's extension, is the template's own; a plain
        // one is what it renders to.
        let own = [
            "PRPs/templates/prp_mcp_base.md",
            "t/templates/observation.md.tmpl",
        ];
        for name in ["prp_mcp_base.md", "observation.md.tmpl"] {
            assert!(
                edge_to(d("PRPs/INITIAL.md", name, 0, None, &own)).is_some(),
                "{name}"
            );
        }
        assert_eq!(
            d("PRPs/INITIAL.md", "prp_mcp_base", 0, None, &own),
            Decision::Weak,
            "(its stem alone)"
        );
        let plain = ["t/templates/STATE.md"];
        assert_eq!(d("a/x.md", "STATE.md", 0, None, &plain), Decision::Weak);
        // (Its own name says template: the line speaks of one.)
        assert_eq!(
            edge_to(d("a/x.md", "template.html", cue::TEMPLATE, None, &tpl)),
            Some((1, RefKind::File))
        );
    }

    #[test]
    fn agents_are_named_bare_as_role_nouns() {
        let ag = [".claude/agents/analyst.md"];
        assert!(edge_to(d("CLAUDE.md", "analyst", 0, None, &ag)).is_some());
        let rev = ["p/agents/review.md"];
        assert_eq!(d("p/x.md", "review", 0, None, &rev), Decision::Weak);
        assert!(edge_to(d("p/x.md", "review", cue::KEY, None, &rev)).is_some());
        // A skill's reference material is about the world: its "planner" is no agent of ours.
        let p = [".claude/agents/planner.md"];
        let doc = "skills/fsdp/references/api.md";
        assert_eq!(d(doc, "planner", 0, None, &p), Decision::Weak);
        let grouped = "skills/ai/fsdp/references/other.md";
        assert_eq!(d(grouped, "planner", 0, None, &p), Decision::Weak);
        assert!(edge_to(d("skills/fsdp/SKILL.md", "planner", 0, None, &p)).is_some());
        assert!(edge_to(d(doc, "planner", cue::ENTITY, None, &p)).is_some());
        // An agent a skill keeps for itself is its role noun only inside that skill.
        let own = ["skills/learn/agents/observer.md"];
        assert!(edge_to(d("skills/learn/agents/run.sh", "observer", 0, None, &own)).is_some());
        assert_eq!(
            d("skills/slides/SKILL.md", "observer", 0, None, &own),
            Decision::Weak
        );
        assert!(edge_to(d(
            "skills/slides/SKILL.md",
            "observer",
            cue::ENTITY,
            None,
            &own
        ))
        .is_some());
    }

    #[test]
    fn an_agent_in_a_folder_of_its_own_or_written_as_data_is_an_agent() {
        // OpenCode's singular folders hold its agents and commands.
        let oc = ".opencode/agent/backend-developer.md";
        assert_eq!(entity_of(oc, "backend-developer"), Entity::Agent);
        let occ = ".opencode/command/implement-trd.md";
        assert_eq!(entity_of(occ, "implement-trd"), Entity::Command);
        assert_eq!(entity_of("docs/agent/x.md", "x"), Entity::Other);
        let folder = "src/agents/engineer/AGENT.md";
        assert_eq!(entity_of(folder, "engineer"), Entity::Agent);
        let data = "agents/yaml/helm-chart-specialist.yaml";
        assert_eq!(entity_of(data, "helm-chart-specialist"), Entity::Agent);
        // A part of an agent's folder is none; nor is an `AGENT.md` outside `agents/`.
        let overlay = "src/agents/reviewer/codex/frontmatter.yaml";
        assert_eq!(entity_of(overlay, "frontmatter"), Entity::Other);
        assert_eq!(entity_of("docs/AGENT.md", "docs"), Entity::Other);
        let config = "skills/jira-task/agents/openai.yaml";
        assert_eq!(entity_of(config, "openai"), Entity::Other);
        // Named as any agent is: its role noun bare, its distinctive name in a string of code.
        let doc = "src/skills/deploying-infra/SKILL.md";
        assert!(edge_to(d(doc, "engineer", 0, None, &[folder])).is_some());
        let lit = cue::SOURCE | cue::LITERAL;
        let script = "scripts/convert-agent-md-to-yaml.js";
        assert!(edge_to(d(script, "helm-chart-specialist", lit, None, &[data])).is_some());
    }

    #[test]
    fn a_fixtures_bare_name_is_the_kind_it_samples_outside_its_fixtures_and_tests() {
        let fixture = ["tracker/fixtures/repo-alpha/REVIEW_ME.md"];
        let name = "REVIEW_ME.md";
        assert_eq!(d("relay/SKILL.md", name, 0, None, &fixture), Decision::Weak);
        let script = "relay/scripts/gate.mjs";
        assert_eq!(d(script, name, cue::SOURCE, None, &fixture), Decision::Weak);
        assert_eq!(
            d("relay/SKILL.md", "REVIEW_ME", 0, None, &fixture),
            Decision::Weak
        );
        // Beside it and in the tests that read it, the sample itself; by a path, anywhere.
        let beside = "tracker/fixtures/repo-alpha/expected.txt";
        assert!(edge_to(d(beside, name, 0, None, &fixture)).is_some());
        let test = "tracker/tests/test_ledger.py";
        assert!(edge_to(d(test, name, cue::SOURCE, None, &fixture)).is_some());
        let via = Some("fixtures/repo-alpha/REVIEW_ME.md");
        assert!(edge_to(d("relay/SKILL.md", name, 0, via, &fixture)).is_some());
        // A file of the name outside any fixtures is named by it.
        let real = ["tracker/REVIEW_ME.md"];
        assert!(edge_to(d("relay/SKILL.md", name, 0, None, &real)).is_some());
    }

    #[test]
    fn a_capitalised_word_names_only_with_a_list_or_inside_its_skill() {
        let root = [".claude/agents/planner.md"];
        let cap = cue::CAPITAL;
        assert_eq!(d("x.md", "planner", cap, None, &root), Decision::Weak);
        assert!(edge_to(d("x.md", "planner", cap | cue::LIST, None, &root)).is_some());
        let kept = ["skills/learn/agents/observer.md"];
        assert!(edge_to(d("skills/learn/run.sh", "observer", cap, None, &kept)).is_some());
        assert_eq!(
            d("skills/other/a.md", "observer", cap, None, &kept),
            Decision::Weak
        );
        // Not even a self mention: a title of the file itself.
        let checklist = ["docs/checklist.md", "rules/checklist.md"];
        assert_eq!(
            d("docs/checklist.md", "checklist", cap, None, &checklist),
            Decision::Weak
        );
        // In an agent's own file, its name's last word capitalised is its own title.
        let planner = ["agents/planner.md"];
        let titled = cap | cue::LIST;
        let own = "agents/gan-planner.md";
        assert_eq!(d(own, "planner", titled, None, &planner), Decision::Weak);
        assert!(edge_to(d("agents/x.md", "planner", titled, None, &planner)).is_some());
        assert!(edge_to(d(own, "planner", 0, None, &planner)).is_some());
    }

    #[test]
    fn the_word_beside_a_name_says_what_kind_of_thing_it_is() {
        let cmd = [".claude/commands/status.md"];
        let beside = |kind| cue::ENTITY | kind;
        assert!(edge_to(d("x.md", "status", beside(cue::AS_COMMAND), None, &cmd)).is_some());
        assert_eq!(
            d("x.md", "status", beside(cue::AS_AGENT), None, &cmd),
            Decision::Weak
        );
        // A mention stored before kinds were recorded: any entity word.
        assert!(edge_to(d("x.md", "status", cue::ENTITY, None, &cmd)).is_some());
        // A hook is no command (a distinctive name bare would be): hooks of that name.
        let after = [".claude/commands/after-all.md"];
        assert!(edge_to(d("x.md", "after-all", 0, None, &after)).is_some());
        assert_eq!(
            d("x.md", "after-all", beside(cue::AS_HOOK), None, &after),
            Decision::Weak
        );
        let invoked = beside(cue::AS_HOOK) | cue::SLASH;
        assert!(edge_to(d("x.md", "after-all", invoked, None, &after)).is_some());
    }

    #[test]
    fn an_examples_import_with_folders_may_name_ours() {
        assert!(fence_import_has_folders("../../lib/project-profile"));
        assert!(fence_import_has_folders("plugin_eval/models"));
        assert!(!fence_import_has_folders("./Button"));
        assert!(!fence_import_has_folders("../models"));
        assert!(!fence_import_has_folders("models"));
        assert!(fence_import_says_whose("audit_pdf_engine"));
        assert!(!fence_import_says_whose("models"));
        assert!(!fence_import_says_whose("./Button"));
        // Written where it leads from the document: ours; leading nowhere: the example's.
        let disk = |p: &str| {
            if p == "lib/profile.js" {
                OnDisk::File
            } else {
                OnDisk::Missing
            }
        };
        let bearers = [(1, "lib/profile.js"), (2, "other/lib/profile.js")];
        let at = |src: &str, via: &str| {
            let m = Mention {
                src,
                name: "profile",
                via: Some(via),
                cue: cue::IMPORT | cue::FENCE | cue::SOURCE,
                text: "",
            };
            decide(&m, &bearers, Tree::default(), &disk)
        };
        assert!(matches!(
            at("docs/how/test.md", "../../lib/profile"),
            Decision::Edge(1, ..)
        ));
        assert_eq!(at("docs/test.md", "./src/lib/profile"), Decision::Weak);
        // A distinctive module imported bare is the tree's one; a word's is the example's.
        let py = |name: &str, bearer: &str| {
            let m = Mention {
                src: "skills/geo-pdf/SKILL.md",
                name,
                via: Some(name),
                cue: cue::IMPORT | cue::FENCE | cue::SOURCE,
                text: "",
            };
            let probe = |p: &str| {
                if p == bearer {
                    OnDisk::File
                } else {
                    OnDisk::Missing
                }
            };
            decide(&m, &[(3, bearer)], Tree::default(), &probe)
        };
        assert!(matches!(
            py("audit_pdf_engine", "skills/shared/audit_pdf_engine.py"),
            Decision::Edge(3, ..)
        ));
        assert_eq!(py("models", "skills/shared/models.py"), Decision::Weak);
        assert_eq!(py("geopandas", "skills/geopandas/SKILL.md"), Decision::Weak);
    }

    #[test]
    fn a_path_to_an_existing_folder_names_what_that_folder_holds() {
        let disk = |p: &str| match p {
            "secure-auth/SKILL.md" | "docs/secure-auth/index.html" => OnDisk::File,
            "secure-auth" | "docs/secure-auth" | "docs/api" => OnDisk::Dir,
            _ => OnDisk::Missing,
        };
        let bearers = [(1, "secure-auth/SKILL.md")];
        let at = |src: &str, via: &str| {
            let m = Mention {
                src,
                name: "secure-auth",
                via: Some(via),
                cue: cue::FOLDER,
                text: "",
            };
            decide(&m, &bearers, Tree::default(), &disk)
        };
        // A site's page links to its sibling page's folder, not the skill of that name.
        assert_eq!(at("docs/api/index.html", "../secure-auth/"), Decision::Weak);
        // The skill's own folder, from anywhere.
        assert!(matches!(
            at("docs/api/index.html", "../../secure-auth/"),
            Decision::Edge(1, ..)
        ));
        assert!(matches!(
            at("README.md", "./secure-auth/"),
            Decision::Edge(1, ..)
        ));
    }

    #[test]
    fn a_sites_path_names_the_page_it_is_built_from() {
        let bearers = [
            (1, "docs/en/skills/ba.md"),
            (2, "skills/ba/SKILL.md"),
            (3, "docs/en/guide/index.md"),
        ];
        assert_eq!(site_page("/en/skills/ba/", &bearers), Some(bearers[0]));
        assert_eq!(site_page("/en/skills/ba", &bearers), Some(bearers[0]));
        assert_eq!(site_page("/en/guide/", &bearers), Some(bearers[2]));
        // A file's path, a URL's, a one-word path: no page.
        for via in [
            "/en/skills/ba.html",
            "//cdn/en/skills/ba",
            "/ba/",
            "en/skills/ba/",
        ] {
            assert_eq!(site_page(via, &bearers), None, "{via}");
        }
        // A page's own permalink is its name: a self mention.
        let m = Mention {
            src: "docs/en/skills/ba.md",
            name: "ba",
            via: Some("/en/skills/ba"),
            cue: cue::FOLDER,
            text: "permalink: /en/skills/ba/",
        };
        let disk = |_: &str| OnDisk::Missing;
        assert_eq!(decide(&m, &bearers, Tree::default(), &disk), Decision::Tie);
        let m = Mention {
            src: "docs/ja/skills/ba.md",
            ..m
        };
        assert!(matches!(
            decide(&m, &bearers, Tree::default(), &disk),
            Decision::Edge(1, ..)
        ));
    }

    #[test]
    fn an_extension_module_is_a_module_of_its_package() {
        let disk = |p: &str| match p {
            "pkg/_native.py" | "pkg/_speedups.c" | "pkg/_speedups.pyi" | "pkg/__init__.py" => {
                OnDisk::File
            }
            _ => OnDisk::Missing,
        };
        // `from pkg import _speedups` names a module, not the package's `__init__.py`.
        assert!(imports_only_modules(
            "from pkg import _speedups",
            "pkg",
            &disk
        ));
        assert!(imports_only_modules(
            "from pkg import _native, _speedups",
            "pkg",
            &disk
        ));
        assert!(!imports_only_modules(
            "from pkg import escape",
            "pkg",
            &disk
        ));
        assert!(is_extension_module("pkg", "_speedups", &disk));
        assert!(
            !is_extension_module("pkg", "_native", &disk),
            "Python source"
        );
        assert_eq!(
            attribute_after("Extension(\"pkg._speedups\", [])", "pkg"),
            Some("_speedups")
        );
        assert_eq!(attribute_after("import pkg", "pkg"), None);
    }

    #[test]
    fn a_placeholder_for_a_folder_leads_where_its_path_is() {
        let disk = |p: &str| match p {
            "kit/.claude-plugin/plugin.json"
            | "kit/skills/rev/SKILL.md"
            | "kit/skills/rev/scripts/run.sh"
            | "kit/scripts/tool.py"
            | "kit/skills/rev/wisdom/tips.md"
            | "README.md" => OnDisk::File,
            "kit/skills/rev" | "kit/skills/rev/wisdom" => OnDisk::Dir,
            _ => OnDisk::Missing,
        };
        let held = |src: &str, token: &str| match placeholder_path(src, token, &disk) {
            Held::Path(p) => Some(p),
            Held::Pattern => Some("pattern".to_string()),
            Held::Outside => None,
        };
        let skill = "kit/skills/rev/SKILL.md";
        // Whose folder it says: the skill's, the plugin's, in any bracket.
        for token in [
            "<skill-base-dir>/scripts/run.sh",
            "{baseDir}/scripts/run.sh",
            "[SKILL_DIR]/scripts/run.sh",
        ] {
            assert_eq!(
                held(skill, token).as_deref(),
                Some("kit/skills/rev/scripts/run.sh")
            );
        }
        assert_eq!(
            held(skill, "<PLUGIN_ROOT>/scripts/tool.py").as_deref(),
            Some("kit/scripts/tool.py")
        );
        // A template's variable named after a kind of folder: that folder of the nearest
        // unit above the writer holding the file.
        for token in ["{{scripts_path}}/run.sh", "{{ scripts_dir }}/run.sh"] {
            assert_eq!(
                held("kit/skills/rev/reference/teach.md", token).as_deref(),
                Some("kit/skills/rev/scripts/run.sh"),
                "{token}"
            );
        }
        assert_eq!(
            held("kit/skills/rev/SKILL.md", "{{scripts_path}}/gone.sh").as_deref(),
            Some("pattern")
        );
        // `{baseDir}` in a command is the folder above where the path is.
        assert_eq!(
            held("kit/commands/c.md", "{baseDir}/skills/rev/scripts/run.sh").as_deref(),
            Some("kit/skills/rev/scripts/run.sh")
        );
        // Any other: the nearest folder above the writer where its folders lead.
        assert_eq!(
            held("kit/skills/rev/roles/a/role.md", "<session>/wisdom/tips.md").as_deref(),
            Some("kit/skills/rev/wisdom/tips.md")
        );
        assert_eq!(
            held("kit/tests/t.py", "{FAKE_ROOT}/scripts/tool.py").as_deref(),
            Some("kit/scripts/tool.py")
        );
        // A file name alone under one, or a plugin's outside any plugin: a pattern.
        assert_eq!(
            held("kit/commands/c.md", "{run_dir}/README.md").as_deref(),
            Some("pattern")
        );
        assert_eq!(
            held("CONTRIBUTING.md", "<plugin>/README.md").as_deref(),
            Some("pattern")
        );
        // Folders that lead nowhere here: outside the tree, as a variable's; no placeholder
        // at the head (`${X}` is a variable's, `roles/<role>/x.md` a pattern's folders).
        assert_eq!(held(skill, "<target>/docs/x.md"), None);
        assert_eq!(held(skill, "${CLAUDE_SKILL_DIR}/scripts/run.sh"), None);
        assert_eq!(held(skill, "roles/<role>/role.md"), None);
    }

    #[test]
    fn a_scripts_variables_for_known_folders_lead_there() {
        let disk = |p: &str| match p {
            "kit/.claude-plugin/plugin.json" | "kit/skills/rev/SKILL.md" => OnDisk::File,
            _ => OnDisk::Missing,
        };
        let at = |src: &str, via: &str| client_root_path(src, via, &disk);
        // A skill's own folder, from the skill or its references.
        let v = "${CLAUDE_SKILL_DIR}/references/list.md";
        for src in [
            "kit/skills/rev/SKILL.md",
            "kit/skills/rev/references/a/b.md",
        ] {
            assert_eq!(
                at(src, v).as_deref(),
                Some("kit/skills/rev/references/list.md")
            );
        }
        assert_eq!(at("kit/docs/a.md", v), None);
        // A repository that is one skill keeps its SKILL.md at the root.
        let root_skill = |p: &str| {
            if p == "SKILL.md" {
                OnDisk::File
            } else {
                OnDisk::Missing
            }
        };
        let got = client_root_path("references/a.md", v, &root_skill);
        assert_eq!(got.as_deref(), Some("references/list.md"));
        assert_eq!(
            at("a.md", "$CLAUDE_PROJECT_DIR/x.sh").as_deref(),
            Some("x.sh")
        );
        assert_eq!(
            at(".claude/hooks/a.sh", "$CLAUDE_DIR/hooks/lib/p.py").as_deref(),
            Some(".claude/hooks/lib/p.py")
        );
        for via in [
            "${CLAUDE_PLUGIN_ROOT}/hooks/s.sh",
            "${CLAUDE_PLUGIN_ROOT:-.}/hooks/s.sh",
            "$PLUGIN_DIR/hooks/s.sh",
        ] {
            assert_eq!(
                at("kit/hooks/hooks.json", via).as_deref(),
                Some("kit/hooks/s.sh")
            );
        }
        assert_eq!(
            at("kit/tests/t.bats", "${BATS_TEST_DIRNAME}/../hooks/s.sh").as_deref(),
            Some("kit/hooks/s.sh")
        );
        assert_eq!(
            at("kit/scripts/lint.sh", "$SCRIPT_DIR/check.py").as_deref(),
            Some("kit/scripts/check.py")
        );
        for via in ["${import.meta.dir}/check.ts", "${__dirname}/check.ts"] {
            let own = at("kit/scripts/check.test.ts", via);
            assert_eq!(own.as_deref(), Some("kit/scripts/check.ts"), "{via}");
            assert_eq!(at("kit/docs/a.md", via), None, "{via}");
        }
        // Outside a shell script `$SCRIPT_DIR` is no folder known; other variables never.
        assert_eq!(at("kit/docs/a.md", "$SCRIPT_DIR/check.py"), None);
        assert_eq!(at("kit/scripts/lint.sh", "$TARGET/check.py"), None);
    }

    #[test]
    fn a_plugin_is_a_folder_with_a_manifest_wherever_the_marketplace_keeps_it() {
        let disk = |p: &str| match p {
            "kit/.claude-plugin/plugin.json"
            | "lab/.claude-plugin/plugin.json"
            | "plugins/skills/dex-x/.claude-plugin/plugin.json" => OnDisk::File,
            "kit" | "lab" => OnDisk::Dir,
            _ => OnDisk::Missing,
        };
        assert_eq!(plugin_of("kit/commands/publish.md", &disk), Some("kit"));
        assert_eq!(plugin_of("plugins/p/agents/x.md", &disk), Some("plugins/p"));
        // Plugins grouped by kind under `plugins/`: the manifest's folder is the plugin.
        assert_eq!(
            plugin_of("plugins/skills/dex-x/skills/x/SKILL.md", &disk),
            Some("plugins/skills/dex-x")
        );
        assert_eq!(plugin_of("docs/x.md", &disk), None);
        let b = ["kit/commands/publish.md"];
        let dec = |src: &str, bits: u64, via: Option<&str>| {
            let m = Mention {
                src,
                name: "publish",
                cue: bits,
                via,
                text: "",
            };
            let bearers: Vec<(i64, &str)> =
                b.iter().enumerate().map(|(i, p)| (i as i64, *p)).collect();
            decide(&m, &bearers, Tree::default(), &disk)
        };
        let ns = cue::NAMESPACE | cue::CODE;
        // Another plugin's command by a namespace that names no plugin (`vendor:publish`, a
        // program's): not reached; by the plugin's own namespace, or from inside it: reached.
        assert_eq!(dec("lab/docs/x.md", ns, Some("vendor:")), Decision::Weak);
        assert!(edge_to(dec("lab/docs/x.md", ns, Some("kit:"))).is_some());
        assert!(edge_to(dec("kit/docs/x.md", cue::CODE, None)).is_some());
        // In another plugin's command of the same name, the namespace says whose: kit's; its
        // own namespace is a self mention.
        let both: Vec<(i64, &str)> = vec![
            (0, "kit/commands/publish.md"),
            (1, "lab/commands/publish.md"),
        ];
        let from_lab = |via| Mention {
            src: "lab/commands/publish.md",
            name: "publish",
            cue: ns | cue::SLASH,
            via: Some(via),
            text: "",
        };
        let d = decide(&from_lab("kit:"), &both, Tree::default(), &disk);
        assert_eq!(edge_to(d).map(|(id, _)| id), Some(0), "{d:?}");
        assert_eq!(
            decide(&from_lab("lab:"), &both, Tree::default(), &disk),
            Decision::Tie
        );
    }

    #[test]
    fn a_module_reached_through_a_module_file_is_the_one_that_file_imports() {
        // `tags._manylinux` after `from packaging import tags`: `tags.py` imported its sibling.
        struct Tree2(&'static str);
        impl Disk for Tree2 {
            fn at(&self, p: &str) -> OnDisk {
                match p {
                    "src/packaging/tags.py" | "src/packaging/__init__.py" | "util.py" => {
                        OnDisk::File
                    }
                    _ => OnDisk::Missing,
                }
            }
            fn text(&self, _: &str) -> Option<std::sync::Arc<str>> {
                Some(self.0.into())
            }
        }
        let b: Vec<(i64, &str)> = vec![(1, "src/packaging/_manylinux.py")];
        let m = |via, text| Mention {
            src: "tests/test_tags.py",
            name: "_manylinux",
            cue: cue::CODE_FILE | cue::IMPORT | cue::QUALIFIED,
            via: Some(via),
            text,
        };
        let use_line = "monkeypatch.setattr(tags._manylinux, \"x\", f)";
        let via = "packaging/tags/_manylinux";
        let imports = "import re\nfrom . import (\n    _manylinux,  # glibc\n    _musllinux,\n)\n";
        let d = decide(&m(via, use_line), &b, Tree::default(), &Tree2(imports));
        assert_eq!(edge_to(d), Some((1, RefKind::Use)), "{d:?}");
        // Not imported by the file, or bound under another name: an attribute of the module.
        for text in ["import re\n", "from . import _manylinux as ml\n"] {
            let d = decide(&m(via, use_line), &b, Tree::default(), &Tree2(text));
            assert_eq!(d, Decision::Weak, "{text}");
        }
        // Inside a package an absolute import is the top-level module, not the sibling.
        let d = decide(
            &m(via, use_line),
            &b,
            Tree::default(),
            &Tree2("import _manylinux\n"),
        );
        assert_eq!(d, Decision::Weak);
        // Outside one (a root of scripts) it is the sibling; written in another case it is a
        // class (`util.Helpers`), never the module.
        let b: Vec<(i64, &str)> = vec![(1, "helpers.py")];
        let m = |text| Mention {
            src: "test/test_util.py",
            name: "helpers",
            cue: cue::CODE_FILE | cue::IMPORT | cue::QUALIFIED,
            via: Some("util/helpers"),
            text,
        };
        let disk = Tree2("import abc\nimport helpers\n");
        assert!(edge_to(decide(&m("x = util.helpers"), &b, Tree::default(), &disk)).is_some());
        assert_eq!(
            decide(&m("x = util.Helpers"), &b, Tree::default(), &disk),
            Decision::Weak
        );
        let disk = Tree2("import helpers as h\n");
        assert_eq!(
            decide(&m("x = util.helpers"), &b, Tree::default(), &disk),
            Decision::Weak
        );
    }

    #[test]
    fn an_import_of_compiled_output_is_of_the_source_compiled_there() {
        struct Ts(&'static str, &'static str);
        impl Disk for Ts {
            fn at(&self, p: &str) -> OnDisk {
                match p {
                    "tsconfig.json" | "pkg/tsconfig.json" => OnDisk::File,
                    p if p == self.1 => OnDisk::Dir,
                    _ => OnDisk::Missing,
                }
            }
            fn text(&self, p: &str) -> Option<std::sync::Arc<str>> {
                (p == "tsconfig.json").then(|| self.0.into())
            }
        }
        let yargs = "{\n  \"compilerOptions\": {\n    \"outDir\": \"build\",\n    \"rootDir\": \".\"\n  }\n}";
        let disk = Ts(yargs, "");
        assert_eq!(
            compiled_from("build/lib/yerror", &disk).as_deref(),
            Some("lib/yerror")
        );
        let src = Ts(
            "{\"compilerOptions\": {\"outDir\": \"./dist/\", \"rootDir\": \"./src\"}}",
            "",
        );
        assert_eq!(
            compiled_from("dist/cli/x", &src).as_deref(),
            Some("src/cli/x")
        );
        // Not under the output folder; an output folder the tree keeps; no such option.
        assert_eq!(compiled_from("lib/yerror", &disk), None);
        assert_eq!(compiled_from("build/lib/yerror", &Ts(yargs, "build")), None);
        assert_eq!(compiled_from("build/x", &Ts("{}", "")), None);
        // Resolution: the import names the TypeScript source.
        let b: Vec<(i64, &str)> = vec![(1, "lib/yerror.ts")];
        let m = Mention {
            src: "test/usage.mjs",
            name: "yerror",
            cue: cue::IMPORT | cue::CODE_FILE,
            via: Some("../build/lib/yerror"),
            text: "import {YError} from '../build/lib/yerror.js';",
        };
        let d = decide(&m, &b, Tree::default(), &disk);
        assert_eq!(edge_to(d).map(|(id, _)| id), Some(1), "{d:?}");
        assert_eq!(
            decide(&m, &b, Tree::default(), &Ts(yargs, "build")),
            Decision::Weak
        );
    }

    #[test]
    fn a_package_re_exports_a_name_its_init_imports_from_its_module() {
        let init = "\"\"\"Doc: from .app import Quart\"\"\"\nfrom .app import Quart as Quart\nfrom .ctx import (\n    after_this_request,\n    AppContext,  # the app's\n)\nif TYPE_CHECKING:\n    from quart.wrappers import Request\n";
        assert!(reexports(init, "quart", "app", "Quart"));
        assert!(reexports(init, "quart", "ctx", "AppContext"));
        assert!(reexports(init, "quart", "wrappers", "Request"));
        assert!(!reexports(init, "quart", "ctx", "Quart"));
        assert!(!reexports(init, "quart", "app", "App"));
        // Relative to the writer, no absolute form: `from .wrappers import` only.
        assert!(!reexports(init, "./quart", "wrappers", "Request"));
        // Resolution: the module of the package the writer imports from, whose entry says so.
        struct Pkg;
        impl Disk for Pkg {
            fn at(&self, p: &str) -> OnDisk {
                if p == "src/quart/__init__.py" {
                    OnDisk::File
                } else {
                    OnDisk::Missing
                }
            }
            fn text(&self, p: &str) -> Option<std::sync::Arc<str>> {
                (p == "src/quart/__init__.py").then(|| "from .app import Quart as Quart\n".into())
            }
        }
        let b: Vec<(i64, &str)> = vec![(1, "src/quart/app.py"), (2, "src/quart/testing/app.py")];
        let m = |via| Mention {
            src: "tests/test_basic.py",
            name: "app",
            cue: cue::CODE_FILE | cue::IMPORT | cue::QUALIFIED | cue::ENTRY,
            via: Some(via),
            text: "",
        };
        let d = decide(&m("quart/Quart"), &b, Tree::default(), &Pkg);
        assert_eq!(edge_to(d), Some((1, RefKind::Use)), "{d:?}");
        assert_eq!(
            decide(&m("quart/Blueprint"), &b, Tree::default(), &Pkg),
            Decision::Weak
        );
        assert_eq!(
            decide(&m("other/Quart"), &b, Tree::default(), &Pkg),
            Decision::Weak
        );
    }

    #[test]
    fn a_class_named_after_its_package_is_the_packages_module_of_its_name() {
        let b = [
            "src/strands/agent/__init__.py",
            "src/strands/agent/agent.py",
        ];
        let use_of = cue::CODE_FILE | cue::IMPORT | cue::QUALIFIED;
        let at = |bits, src| edge_to(d(src, "agent", bits, Some("strands/agent"), &b));
        // `Agent(…)` after `from strands import Agent`: agent/agent.py defines it.
        let namesake = use_of | cue::NAMESAKE;
        assert_eq!(at(namesake, "tests/t.py").map(|e| e.0), Some(2));
        // The package itself (`strands.agent.x`), or no module of its name: the package.
        assert_eq!(at(use_of, "tests/t.py").map(|e| e.0), Some(1));
        let only = ["src/strands/agent/__init__.py"];
        let got = d(
            "tests/t.py",
            "agent",
            namesake,
            Some("strands/agent"),
            &only,
        );
        assert_eq!(edge_to(got).map(|e| e.0), Some(1));
        // A component's folder: its uses are the module of its name, its import the index.
        let b = ["ui/ListItem/index.ts", "ui/ListItem/ListItem.tsx"];
        let src = "ui/ListView/ListView.tsx";
        let at = |bits| edge_to(d(src, "ListItem", bits, Some("../ListItem"), &b));
        assert_eq!(at(use_of).map(|e| e.0), Some(2));
        assert_eq!(at(cue::CODE_FILE | cue::IMPORT).map(|e| e.0), Some(1));
    }

    #[test]
    fn a_folder_holding_the_writer_is_named_by_its_own_name() {
        let b = ["skills/api/curl/managed-agents.md"];
        let src = "skills/api/go/managed-agents/README.md";
        assert_eq!(d(src, "managed-agents", 0, None, &b), Decision::Weak);
        assert_eq!(
            in_folder_named(src, "managed-agents"),
            Some("skills/api/go/managed-agents")
        );
        assert_eq!(in_folder_named("a/agents-x/b.md", "agents"), None);
        // Elsewhere the file's; a file inside that folder is still named; code and an
        // invocation say which.
        assert!(edge_to(d("skills/api/SKILL.md", "managed-agents", 0, None, &b)).is_some());
        let inner = ["skills/api/go/managed-agents/managed-agents.md"];
        assert!(edge_to(d(src, "managed-agents", 0, None, &inner)).is_some());
        // So is the file that owns the folder, beside it and named as it is (an agent's evals).
        let owner = ["agents/strategy-adversary.md"];
        let w = "agents/strategy-adversary/evals/README.md";
        assert!(edge_to(d(w, "strategy-adversary", 0, None, &owner)).is_some());
        assert!(!owns_folder(
            "agents/strategy-adversary.md",
            "x/strategy-adversary"
        ));
        let cmd = ["commands/librarian-ask.md"];
        let w = "tools/librarian-ask/notes.md";
        assert!(edge_to(d(w, "librarian-ask", cue::SLASH, None, &cmd)).is_some());
        assert_eq!(d(w, "librarian-ask", 0, None, &cmd), Decision::Weak);
        let skill = ["src/skills/memory-store/SKILL.md"];
        let w = "memory-store/exports/notes.md";
        let said = cue::ENTITY | cue::AS_SKILL;
        assert!(edge_to(d(w, "memory-store", said, None, &skill)).is_some());
    }

    #[test]
    fn outside_plugins_a_thing_the_tree_keeps_on_its_own_is_its_own_copy() {
        let b = [
            "project/.claude/agents/test-strategist.md",
            "plugins/kit/agents/test-strategist.md",
        ];
        let to = |src: &str, bits: u64, via: Option<&str>| {
            edge_to(d(src, "test-strategist", bits, via, &b)).map(|e| e.0)
        };
        assert_eq!(to("docs/audit.md", 0, None), Some(1));
        assert_eq!(to("docs/audit.md", cue::CODE, None), Some(1));
        // A namespace names the plugin's; inside the plugin its own is nearest.
        assert_eq!(to("docs/audit.md", cue::NAMESPACE, Some("kit:")), Some(2));
        assert_eq!(to("plugins/kit/README.md", 0, None), Some(2));
        // A file name borne in many folders stays a tie.
        let f = ["specs/a/RESEARCH.md", "plugins/kit/specs/RESEARCH.md"];
        assert_eq!(
            d("docs/b/SPEC.md", "RESEARCH.md", 0, None, &f),
            Decision::Tie
        );
    }

    #[test]
    fn plugins_are_boundaries_for_bare_names() {
        // (A compound agent name crosses in prose: `a_cued_name_of_a_unique_agent_…`.)
        let s = ["plugins/a/skills/data-pipeline/SKILL.md"];
        assert_eq!(
            d("plugins/b/x.md", "data-pipeline", 0, None, &s),
            Decision::Weak
        );
        let b = ["plugins/a/agents/data-engineer.md"];
        assert!(edge_to(d("plugins/a/x.md", "data-engineer", 0, None, &b)).is_some());
        assert!(edge_to(d("plugins/b/x.md", "data-engineer", cue::KEY, None, &b)).is_some());
        assert!(edge_to(d(
            "plugins/b/x.md",
            "data-engineer",
            cue::NAMESPACE,
            Some("a:"),
            &b
        ))
        .is_some());
    }

    #[test]
    fn an_empty_package_init_is_no_module_an_import_uses() {
        struct Init(&'static str);
        impl Disk for Init {
            fn at(&self, _: &str) -> OnDisk {
                OnDisk::File
            }
            fn text(&self, _: &str) -> Option<std::sync::Arc<str>> {
                Some(self.0.into())
            }
        }
        assert!(is_empty_package("p/__init__.py", &Init("")));
        assert!(is_empty_package("p/__init__.py", &Init("\n# licence\n\n")));
        assert!(!is_empty_package(
            "p/__init__.py",
            &Init("from .x import y\n")
        ));
        assert!(!is_empty_package("p/x.py", &Init("")));
    }

    #[test]
    fn no_slash_invokes_an_agent_unless_said_so() {
        let b = [".claude/agents/dead-code.md"];
        assert_eq!(
            d("a.md", "dead-code", cue::SLASH | cue::CODE, None, &b),
            Decision::Weak
        );
        let said = cue::SLASH | cue::CODE | cue::ENTITY | cue::AS_AGENT;
        assert!(edge_to(d("a.md", "dead-code", said, None, &b)).is_some());
    }

    #[test]
    fn a_folder_written_as_a_folder_is_the_file_that_defines_it() {
        assert!(defines_named_folder("skills/x/SKILL.md", "x"));
        assert!(defines_named_folder("pkg/x/__init__.py", "x"));
        // An agent in the folder whose frontmatter name is the folder's does not define it.
        assert!(!defines_named_folder("x/x-agent.md", "x"));
        assert!(!defines_named_folder("skills/y/SKILL.md", "x"));
    }

    #[test]
    fn an_entry_point_exports_a_module_as_a_whole_by_name_or_all() {
        let e = "'use strict'\nmodule.exports = require('./lib/express')\n";
        assert!(exports(e, "", "lib/express.js", "express"));
        assert!(!exports(e, "", "lib/router.js", "router"));
        let ts = "export {HTTPError} from './errors/HTTPError.js';\n\
                  export type {KyInstance} from './types/ky.js';\nexport * from './utils/all.js';\n";
        assert!(exports(
            ts,
            "source",
            "source/errors/HTTPError.ts",
            "HTTPError"
        ));
        // A type the entry re-exports under another name is no export of `ky`.
        assert!(!exports(ts, "source", "source/types/ky.ts", "ky"));
        assert!(exports(ts, "source", "source/utils/all.ts", "all"));
        // An import of the entry's own is no export; imported, then exported again, it is (in
        // any case: `Command` is `command.js`'s).
        assert!(!exports("import {x} from './x.js'\n", "", "x.js", "x"));
        let again = "import { Command } from './lib/command.js';\nexport { Command, Help };\n";
        assert!(exports(again, "", "lib/command.js", "command"));
        assert!(!exports(again, "", "lib/help.js", "help"));
        // A default export of an imported name; CommonJS's object of required names.
        let default = "import Router from './router.js'\nexport default Router;\n";
        assert!(exports(default, "", "router.js", "router"));
        let cjs = "const { Command } = require('./lib/command')\n\
                   const Help = require('./lib/help')\nmodule.exports = { Command, Help }\n";
        assert!(exports(cjs, "", "lib/command.js", "command"));
        assert!(exports(cjs, "", "lib/help.js", "help"));
        assert!(!exports(cjs, "", "lib/option.js", "option"));
    }

    #[test]
    fn a_name_bound_through_an_entry_point_is_the_module_it_exports() {
        struct Pkg(&'static str);
        impl Disk for Pkg {
            fn at(&self, p: &str) -> OnDisk {
                match p {
                    "index.js" | "lib/express.js" | "lib/view.js" => OnDisk::File,
                    "lib" | "test" => OnDisk::Dir,
                    _ => OnDisk::Missing,
                }
            }
            fn text(&self, p: &str) -> Option<std::sync::Arc<str>> {
                (p == "index.js").then(|| self.0.into())
            }
        }
        let m = |name| Mention {
            src: "test/app.js",
            name,
            cue: cue::CODE_FILE | cue::IMPORT | cue::ENTRY,
            via: Some(".."),
            text: "",
        };
        let b = [
            (1, "lib/express.js"),
            (2, "lib/view.js"),
            (3, "examples/view.js"),
        ];
        let pkg = Pkg("module.exports = require('./lib/express')\n");
        let dec = |name, disk: &Pkg| decide_entry(&m(name), "..", RefKind::Import, &b, disk);
        assert_eq!(
            dec("express", &pkg),
            Decision::Edge(1, Resolution::Unique, RefKind::Import)
        );
        // The entry does not export view.js: the name is the entry's own.
        assert_eq!(dec("view", &pkg), Decision::Weak);
        // No entry, or one that exports its own value.
        assert_eq!(dec("express", &Pkg("module.exports = 2\n")), Decision::Weak);
        // A word on a line using a name the entry re-exports (`..#View`, `view` shown): the
        // module it is exported from, whatever its own stem.
        let pkg = Pkg("export {View as View} from './lib/view.js'\n");
        let via = "..#View";
        let d = decide_entry(&m("view"), via, RefKind::Use, &b, &pkg);
        assert_eq!(d, Decision::Edge(2, Resolution::Unique, RefKind::Use));
        let d = decide_entry(&m("express"), via, RefKind::Use, &b, &pkg);
        assert_eq!(d, Decision::Weak);
        // A member the CommonJS entry sets from a module (`bodyParser.raw()` after
        // `exports.raw = require('./lib/view')`): that module, only written as the member.
        let pkg = Pkg("exports = module.exports = f\nexports.view = require('./lib/view')\n");
        let member = |text| Mention { text, ..m("view") };
        let via = "..#bodyParser";
        let used = member("const p = bodyParser.view()");
        let d = decide_entry(&used, via, RefKind::Use, &b, &pkg);
        assert_eq!(d, Decision::Edge(2, Resolution::Unique, RefKind::Use));
        let shown = member("const view = bodyParser.json()");
        let d = decide_entry(&shown, via, RefKind::Use, &b, &pkg);
        assert_eq!(d, Decision::Weak);
        let at = |text, name| member_module(text, "", name, &pkg, 0);
        let view = Some("lib/view.js".to_string());
        assert_eq!(
            at("module.exports.view = require(\"./lib/view.js\")", "view"),
            view
        );
        assert_eq!(
            at(
                "module.exports = {\n  view: u(require('./lib/view'))\n}",
                "view"
            ),
            view
        );
        assert_eq!(at("exports.view = require('view-engine')", "view"), None);
        assert_eq!(at("exports.view = require('./lib/view')", "json"), None);
        // A package of a few files: `lib/` a folder, each text as given.
        struct Files(&'static [(&'static str, &'static str)]);
        impl Disk for Files {
            fn at(&self, p: &str) -> OnDisk {
                match p {
                    "lib" => OnDisk::Dir,
                    "lib/view.js" => OnDisk::File,
                    _ if self.0.iter().any(|(f, _)| *f == p) => OnDisk::File,
                    _ => OnDisk::Missing,
                }
            }
            fn text(&self, p: &str) -> Option<std::sync::Arc<str>> {
                self.0
                    .iter()
                    .find(|(f, _)| *f == p)
                    .map(|(_, t)| (*t).into())
            }
        }
        // Through a barrel of barrels: `export { View } from './lib'`, whose own entry
        // exports `./view`.
        let barrels = Files(&[
            ("index.js", "export { View, type P } from './lib';\n"),
            ("lib/index.js", "export { View } from './view';\n"),
        ]);
        let d = decide_entry(&m("view"), "..#View", RefKind::Use, &b, &barrels);
        assert_eq!(d, Decision::Edge(2, Resolution::Unique, RefKind::Use));
        // The outer barrel alone says nothing of the module.
        assert!(!exports(
            "export { View } from './lib';\n",
            "",
            "lib/view.js",
            "view"
        ));
        // A member spread into the entry's exports from a folder's entry (`...require('./lib')`,
        // fs-extra's): the module that entry gives it from, or the entry where it defines it.
        let spread = Files(&[
            (
                "index.js",
                "module.exports = {\n  ...require('./fs'),\n  ...require('./lib')\n}\n",
            ),
            (
                "lib/index.js",
                "function json () {}\nmodule.exports = {\n  view: require('./view'),\n  json\n}\n",
            ),
        ]);
        let entry = "module.exports = {\n  ...require('./fs'),\n  ...require('./lib')\n}\n";
        let found = |name| member_module(entry, "", name, &spread, 1);
        assert_eq!(found("view"), view);
        assert_eq!(found("json"), Some("lib/index.js".to_string()));
        assert_eq!(found("other"), None);
        // Not deeper than asked.
        assert_eq!(member_module(entry, "", "view", &spread, 0), None);
        let used = Mention {
            text: "fse.json(x)",
            ..m("json")
        };
        let b = [(1, "lib/index.js"), (2, "lib/view.js")];
        let d = decide_entry(&used, "..#fse", RefKind::Use, &b, &spread);
        assert_eq!(
            d,
            Decision::Weak,
            "the entry's name is its folder's, not `json`"
        );
        let used = Mention {
            text: "fse.view(x)",
            ..m("view")
        };
        let d = decide_entry(&used, "..#fse", RefKind::Use, &b, &spread);
        assert_eq!(d, Decision::Edge(2, Resolution::Unique, RefKind::Use));
    }

    #[test]
    fn a_path_of_a_packages_own_namespace_is_the_file_its_manifest_maps() {
        struct Manifests;
        impl Disk for Manifests {
            fn at(&self, p: &str) -> OnDisk {
                match p {
                    "package.json" | "packages/core/package.json" => OnDisk::File,
                    _ => OnDisk::Missing,
                }
            }
            fn text(&self, p: &str) -> Option<std::sync::Arc<str>> {
                match p {
                    "package.json" => Some(
                        r#"{"name": "body-parser", "exports": {".": "./index.js",
                        "./raw": {"types": "./raw.d.ts", "require": "./lib/types/raw.js"},
                        "./x/*": "./lib/x/*.js"}}"#
                            .into(),
                    ),
                    "packages/core/package.json" => {
                        Some(r#"{"name": "@kit/core", "main": "dist/main.js"}"#.into())
                    }
                    _ => None,
                }
            }
        }
        let f = |dir, via| own_package_file(dir, via, &Manifests);
        assert_eq!(f("", "body-parser/raw"), Some("lib/types/raw.js".into()));
        assert_eq!(f("test", "body-parser"), Some("index.js".into()));
        assert_eq!(f("docs/a", "body-parser/x/y"), Some("lib/x/y.js".into()));
        // A subpath the map does not export; another package; a name it only begins with.
        assert_eq!(f("", "body-parser/json"), None);
        assert_eq!(f("", "express/raw"), None);
        assert_eq!(f("", "body-parser-x/raw"), None);
        // The nearest manifest above the writer: a workspace's package, scoped, without a map.
        assert_eq!(
            f("packages/core/src", "@kit/core"),
            Some("packages/core/dist/main.js".into())
        );
        assert_eq!(
            f("packages/core/src", "@kit/core/src/a.ts"),
            Some("packages/core/src/a.ts".into())
        );
        assert_eq!(f("", "@kit/core"), None, "not above the root's writer");
    }

    #[test]
    fn a_script_run_by_name_is_the_file_the_nearest_manifest_runs_for_it() {
        struct Manifests;
        impl Disk for Manifests {
            fn at(&self, _: &str) -> OnDisk {
                OnDisk::File
            }
            fn text(&self, p: &str) -> Option<std::sync::Arc<str>> {
                match p {
                    "package.json" => Some(
                        r#"{"scripts": {"gen": "tsx scripts/gen.ts", "gen:check": "tsx scripts/gen.ts --check", "lint": "eslint . && node ./tools/lint.js"}}"#
                            .into(),
                    ),
                    "site/package.json" => {
                        Some(r#"{"scripts": {"gen": "node build/gen.mjs"}}"#.into())
                    }
                    _ => None,
                }
            }
        }
        let bearers = [
            (1, "scripts/gen.ts"),
            (2, "site/build/gen.mjs"),
            (3, "tools/lint.js"),
        ];
        let run = |src, name| {
            let m = Mention {
                src,
                name,
                cue: cue::PACKAGE | cue::SCRIPT | cue::CODE,
                via: None,
                text: "",
            };
            script_file(&m, &bearers, &Manifests)
        };
        assert!(matches!(run("docs/a.md", "gen"), Decision::Edge(1, ..)));
        let group = Mention {
            src: "docs/a.md",
            name: "lint",
            cue: cue::PACKAGE | cue::SCRIPT | cue::SCRIPT_GROUP,
            via: None,
            text: "",
        };
        // `pnpm lint:fix`: no script of that group, though one of the name.
        assert_eq!(script_file(&group, &bearers, &Manifests), Decision::Weak);
        let group = Mention {
            name: "gen",
            ..group
        };
        assert!(matches!(
            script_file(&group, &bearers, &Manifests),
            Decision::Edge(1, ..)
        ));
        // The nearest manifest above the writer, read from its own folder.
        assert!(matches!(
            run("site/docs/a.md", "gen"),
            Decision::Edge(2, ..)
        ));
        // A word of a chain of commands, written with `./`.
        assert!(matches!(run("README.md", "lint"), Decision::Edge(3, ..)));
        // A script no manifest has; the script's own file.
        assert_eq!(run("docs/a.md", "test"), Decision::Weak);
        assert_eq!(run("scripts/gen.ts", "gen"), Decision::Tie);
    }

    #[test]
    fn a_module_is_named_before_its_folders_barrel() {
        let q = |ps: &[&'static str]| -> Vec<(i64, &'static str, RefKind)> {
            ps.iter()
                .enumerate()
                .map(|(i, p)| (i as i64, *p, RefKind::Name))
                .collect()
        };
        let both = q(&["ui/TabPanel/TabPanel.tsx", "ui/TabPanel/index.ts"]);
        assert_eq!(
            module_not_barrel("app/x.tsx", &both),
            Some((0, Resolution::Nearest))
        );
        // Not the writer's own; not two modules; an index alone is no tie.
        assert_eq!(module_not_barrel("ui/TabPanel/TabPanel.tsx", &both), None);
        let two = q(&["a/T/T.tsx", "b/T/T.tsx", "a/T/index.ts"]);
        assert_eq!(module_not_barrel("x.ts", &two), None);
        assert_eq!(module_not_barrel("x.ts", &q(&["a/T/index.ts"])), None);
    }

    #[test]
    fn a_folder_name_written_as_a_folder_is_the_folder_beside_or_at_the_root() {
        let s = ["src/skills/best-practices/SKILL.md"];
        let f = cue::CODE | cue::FOLDER;
        let docs = ["best-practices/guide.md"];
        let got = d_with("docs/guide.md", "best-practices", f, None, &s, &docs);
        assert_eq!(got, Decision::Weak);
        assert!(edge_to(d("docs/guide.md", "best-practices", f, None, &s)).is_some());
    }

    #[test]
    fn an_output_style_is_named_where_the_line_speaks_of_a_style() {
        let s = [".claude/output-styles/poneglyph.md"];
        let styled = cue::STYLE;
        assert!(edge_to(d("CLAUDE.md", "poneglyph", styled, None, &s)).is_some());
        assert_eq!(d("CLAUDE.md", "poneglyph", 0, None, &s), Decision::Weak);
    }

    #[test]
    fn a_camel_case_name_in_a_comment_of_code_names_the_file_it_is_named_after() {
        let b = ["source/errors/NetworkError.ts"];
        let prose = cue::SOURCE;
        assert!(edge_to(d("test/hooks.ts", "NetworkError", prose, None, &b)).is_some());
        // As an identifier of the code, it is the code's; a capitalised word is no camel case.
        let code = cue::SOURCE | cue::CODE_FILE;
        assert_eq!(
            d("test/hooks.ts", "NetworkError", code, None, &b),
            Decision::Weak
        );
        let o = ["source/core/Options.ts"];
        assert_eq!(
            d("test/hooks.ts", "Options", prose, None, &o),
            Decision::Weak
        );
        // Not in Python's prose.
        let one = ["cfnlint/rules/OneOf.py"];
        assert_eq!(
            d("libcst/matchers/base.py", "OneOf", prose, None, &one),
            Decision::Weak
        );
    }

    #[test]
    fn a_cued_name_of_a_unique_agent_or_skill_crosses_plugins() {
        let b = ["plugins/a/agents/data-engineer.md"];
        let code = cue::CODE | cue::AS_AGENT;
        assert!(edge_to(d("plugins/b/x.md", "data-engineer", code, None, &b)).is_some());
        // Bare in prose, a compound agent name no other file bears crosses too, as agents of a
        // collection name their collaborators; not in code, not as the writer's own plugin's
        // name, not a plugin installed by it; a plain word stays in its plugin.
        assert!(edge_to(d("plugins/b/x.md", "data-engineer", 0, None, &b)).is_some());
        for (src, c) in [
            ("plugins/b/x.md", cue::FENCE),
            ("plugins/b/x.py", cue::SOURCE),
            ("plugins/data-engineer/README.md", 0),
        ] {
            assert_eq!(
                d(src, "data-engineer", c, None, &b),
                Decision::Weak,
                "{src}"
            );
        }
        let got = d("plugins/b/x.md", "data-engineer", cue::PROGRAM, None, &b);
        assert_eq!(got, Decision::Weak);
        let analyst = ["plugins/a/agents/analyst.md"];
        assert_eq!(
            d("plugins/b/x.md", "analyst", 0, None, &analyst),
            Decision::Weak
        );
        // Borne twice, neither copy is meant; a command is not invoked across.
        let two = [
            "plugins/a/agents/data-engineer.md",
            "plugins/c/agents/data-engineer.md",
        ];
        assert!(edge_to(d("plugins/b/x.md", "data-engineer", code, None, &two)).is_none());
        let cmd = ["plugins/a/commands/publish-site.md"];
        assert_eq!(
            d("plugins/b/x.md", "publish-site", cue::CODE, None, &cmd),
            Decision::Weak
        );
    }

    #[test]
    fn a_namespace_that_names_no_plugin_is_the_plugins_own_alias() {
        let b = ["plugins/superclaude/commands/test.md"];
        let ns = |src, via| d(src, "test", cue::SLASH | cue::NAMESPACE, Some(via), &b);
        // `/sc:test` inside the plugin: its own command.
        assert!(edge_to(ns("plugins/superclaude/commands/help.md", "sc:")).is_some());
        // From another plugin, or where a plugin of that name exists, it is that one's.
        assert_eq!(ns("plugins/other/x.md", "sc:"), Decision::Weak);
        let with_other = |via| {
            d_with(
                "plugins/superclaude/commands/help.md",
                "test",
                cue::SLASH | cue::NAMESPACE,
                Some(via),
                &b,
                &["plugins/hookify/commands/list.md"],
            )
        };
        assert_eq!(with_other("hookify:"), Decision::Weak);
        assert!(edge_to(with_other("superclaude:")).is_some());
    }

    #[test]
    fn a_skill_is_a_skill_by_its_frontmatter_name_too() {
        assert_eq!(
            entity_of("skills/postgresql/SKILL.md", "postgresql"),
            Entity::Skill
        );
        assert_eq!(
            entity_of("skills/postgresql/SKILL.md", "table-design"),
            Entity::Skill
        );
        // A common word as a skill's declared name counts with a cue, as a folder name does.
        let b = ["skills/x/SKILL.md"];
        assert!(edge_to(d("a/b.md", "plan", cue::CODE, None, &b)).is_some());
        assert_eq!(d("a/b.md", "plan", 0, None, &b), Decision::Weak);
    }

    #[test]
    fn a_documentation_site_mirrors_things_without_being_them() {
        assert_eq!(entity_of("agents/cs-ux.md", "cs-ux"), Entity::Agent);
        assert_eq!(entity_of("docs/agents/cs-ux.md", "cs-ux"), Entity::Other);
        assert_eq!(
            entity_of("docs/commands/saas-health.md", "saas-health"),
            Entity::Other
        );
        assert_eq!(entity_of("site/docs/skills/x/SKILL.md", "x"), Entity::Other);
        // A folder named docs below the things' own is one of their folders.
        assert_eq!(entity_of("commands/docs/x.md", "x"), Entity::Command);
        // The bare name is the thing's, from anywhere and from the page about it (id 2); a
        // file name with its extension is any file's (the nearest, id 1).
        let b = ["docs/commands/saas-health.md", "commands/saas-health.md"];
        let to = |src: &str, name: &str| edge_to(d(src, name, cue::CODE, None, &b)).map(|e| e.0);
        assert_eq!(to("docs/index.md", "saas-health"), Some(2));
        assert_eq!(to("docs/commands/saas-health.md", "saas-health"), Some(2));
        assert_eq!(to("docs/index.md", "saas-health.md"), Some(1));
        // A thing's own file saying its name is no reference.
        assert_eq!(
            d(
                "commands/saas-health.md",
                "saas-health",
                cue::CODE,
                None,
                &b
            ),
            Decision::Tie
        );
    }

    #[test]
    fn an_import_names_a_module_of_its_own_language() {
        let bits = cue::IMPORT | cue::CODE_FILE;
        for b in [
            ["lib/helpers_lib.js", "lib/helpers_lib.py"],
            ["lib/helpers_lib.py", "lib/helpers_lib.js"],
        ] {
            let py = b
                .iter()
                .position(|p| p.ends_with(".py"))
                .map(|i| i as i64 + 1);
            let js = b
                .iter()
                .position(|p| p.ends_with(".js"))
                .map(|i| i as i64 + 1);
            let via = Some("./helpers_lib");
            let to = |src: &str| edge_to(d(src, "helpers_lib", bits, via, &b)).map(|e| e.0);
            assert_eq!(to("lib/_x.py"), py, "{b:?}");
            assert_eq!(to("lib/app.js"), js, "{b:?}");
        }
    }

    #[test]
    fn a_slash_invokes_a_markdown_file_of_a_compound_stem_outside_commands() {
        let invoked = |name: &str, bearer: &str| d("README.md", name, cue::SLASH, None, &[bearer]);
        assert!(edge_to(invoked("test-harness", "tools/test-harness.md")).is_some());
        // A one-word stem, a documentation page, a file that is no Markdown: not invoked.
        assert_eq!(invoked("pandoc", "tools/pandoc.md"), Decision::Weak);
        assert_eq!(
            invoked("test-harness", "docs/test-harness.md"),
            Decision::Weak
        );
        assert_eq!(
            invoked("test-harness", "tools/test-harness.py"),
            Decision::Weak
        );
        // A command of the name is preferred.
        let b = ["tools/test-harness.md", "commands/test-harness.md"];
        let to = edge_to(d("README.md", "test-harness", cue::SLASH, None, &b)).map(|e| e.0);
        assert_eq!(to, Some(2));
    }

    #[test]
    fn a_string_of_code_holding_a_commands_name_alone_is_a_value() {
        let b = ["commands/gsd/plan-phase.md"];
        let lit = cue::SOURCE | cue::LITERAL;
        // `case 'plan-phase':` in a CLI, `writeCommand(root, "review-pr")` in a test.
        assert_eq!(
            d("bin/tools.cjs", "plan-phase", lit, None, &b),
            Decision::Weak
        );
        // In a comment or a sentence of a string it is prose; in a document, the command.
        assert!(edge_to(d("bin/tools.cjs", "plan-phase", cue::SOURCE, None, &b)).is_some());
        assert!(edge_to(d("README.md", "plan-phase", 0, None, &b)).is_some());
    }

    #[test]
    fn a_package_lists_its_submodules_by_name() {
        let lit = cue::SOURCE | cue::LITERAL;
        let b = ["pkg/filters.py"];
        assert!(edge_to(d("pkg/__init__.py", "filters", lit, None, &b)).is_some());
        // Not another package's, nor a module's own strings.
        assert_eq!(
            d("other/__init__.py", "filters", lit, None, &b),
            Decision::Weak
        );
        assert_eq!(d("pkg/core.py", "filters", lit, None, &b), Decision::Weak);
        assert!(!never_an_edge(
            "pkg/__init__.py",
            "filters",
            || false,
            lit,
            None
        ));
        assert!(never_an_edge("pkg/core.py", "filters", || false, lit, None));
    }

    #[test]
    fn a_namespace_picks_the_plugin_s_own_among_copies() {
        let b = [
            "agents/business-analyst.md",
            "plugins/sdd/agents/business-analyst.md",
        ];
        let src = "skills/launch/SKILL.md";
        let ns = cue::NAMESPACE | cue::CODE;
        let to = edge_to(d(src, "business-analyst", ns, Some("sdd:"), &b)).map(|e| e.0);
        assert_eq!(to, Some(2));
        // Bare, outside the plugin, the tree's own copy.
        let to = edge_to(d(src, "business-analyst", cue::CODE, None, &b)).map(|e| e.0);
        assert_eq!(to, Some(1));
    }

    #[test]
    fn a_name_run_as_a_program_is_the_script() {
        let b = [
            ".claude/skills/session-metrics/SKILL.md",
            ".claude/skills/session-metrics/scripts/session-metrics.py",
        ];
        let src = ".claude/skills/session-metrics/references/x.md";
        let to = |bits| edge_to(d(src, "session-metrics", bits, None, &b)).map(|e| e.0);
        assert_eq!(to(cue::RUN | cue::FENCE), Some(2));
        assert_eq!(to(cue::FENCE), Some(1), "(the skill, said bare)");
        // From outside the skill, a script without an extension, in a shell example.
        let b = [
            ".claude/skills/acu/SKILL.md",
            ".claude/skills/acu/scripts/acu-tool",
        ];
        let src = ".claude/agents/curator.md";
        let shell = cue::RUN | cue::FENCE | cue::SOURCE;
        let to = |bits| edge_to(d(src, "acu-tool", bits, None, &b)).map(|e| e.0);
        assert_eq!(to(shell), Some(2));
        // A module named after the program it drives is not what runs (`tmux attach`).
        let b = ["scripts/lib/tmux.ts"];
        assert_eq!(edge_to(d("docs/ops.md", "tmux", shell, None, &b)), None);
    }

    #[test]
    fn an_invoked_name_is_the_skill_where_a_command_shares_it() {
        let b = ["commands/omc-doctor.md", "skills/omc-doctor/SKILL.md"];
        for (bits, via) in [
            (cue::SLASH, None),
            (cue::SLASH | cue::NAMESPACE, Some("omc:")),
        ] {
            let to = edge_to(d("README.md", "omc-doctor", bits, via, &b)).map(|e| e.0);
            assert_eq!(to, Some(2), "{bits}");
        }
        // Another folder's command is another thing: still a tie.
        let apart = [
            "plugins/a/commands/omc-doctor.md",
            "plugins/b/skills/omc-doctor/SKILL.md",
        ];
        assert!(edge_to(d("README.md", "omc-doctor", cue::SLASH, None, &apart)).is_none());
        // A kit's skills and the root's commands are installed together; a project's
        // client folder is that project's.
        let kit = ["commands/omc-doctor.md", "core/skills/omc-doctor/SKILL.md"];
        let to = edge_to(d("README.md", "omc-doctor", cue::SLASH, None, &kit)).map(|e| e.0);
        assert_eq!(to, Some(2));
        let project = [
            "repos/app/.claude/commands/omc-doctor.md",
            "user/skills/omc-doctor/SKILL.md",
        ];
        assert!(edge_to(d("README.md", "omc-doctor", cue::SLASH, None, &project)).is_none());
        assert_eq!(kit_of("plugins/a/commands/x.md"), Some("plugins/a"));
        assert_eq!(kit_of("skills/x/SKILL.md"), Some(""));
        assert_eq!(kit_of("docs/x.md"), None);
    }

    #[test]
    fn a_package_run_or_installed_is_no_file_of_the_tree() {
        // `npx ruv-swarm …` beside `src/cli/commands/ruv-swarm.ts`: the published package,
        // distinctive as the name is; a path written after the manager is still the path.
        let pkg = cue::PACKAGE | cue::CODE;
        assert!(never_an_edge("a.md", "ruv-swarm", || true, pkg, None));
        assert!(!never_an_edge(
            "a.md",
            "ruv-swarm",
            || true,
            pkg,
            Some("src/ruv-swarm.ts")
        ));
        assert!(!never_an_edge(
            "a.md",
            "ruv-swarm",
            || true,
            cue::CODE,
            None
        ));
    }

    #[test]
    fn file_names_do_not_reach_into_another_plugin() {
        let b = ["plugins/a/src/models.py"];
        assert_eq!(
            d("plugins/b/x.md", "models.py", 0, None, &b),
            Decision::Weak
        );
        assert!(edge_to(d("plugins/a/x.md", "models.py", 0, None, &b)).is_some());
        assert!(edge_to(d("README.md", "models.py", 0, None, &b)).is_some());
    }

    #[test]
    fn a_root_instruction_file_is_named_bare_only_beside_it() {
        let c = ["CLAUDE.md"];
        assert_eq!(d("skills/x/a.md", "CLAUDE.md", 0, None, &c), Decision::Weak);
        // A section of it cited (`CLAUDE.md §3`) is of the document at hand, the root's.
        assert!(edge_to(d("skills/x/a.md", "CLAUDE.md", cue::SECTION, None, &c)).is_some());
        assert!(edge_to(d("README.md", "CLAUDE.md", 0, None, &c)).is_some());
        assert!(edge_to(d(
            "skills/x/a.md",
            "CLAUDE.md",
            0,
            Some("../../CLAUDE.md"),
            &c
        ))
        .is_some());
    }

    #[test]
    fn the_project_a_shipped_agent_works_on_keeps_its_own_instruction_file() {
        let c = ["CLAUDE.md"];
        let root = cue::ROOT | cue::CODE;
        // "the target repo's `CLAUDE.md`" in an agent or skill a kit ships: any project's.
        for src in [
            "plugins/w/agents/merger.md",
            "skills/x/SKILL.md",
            "skills/x/references/y.md",
            "commands/git.md",
        ] {
            assert_eq!(d(src, "CLAUDE.md", root, None, &c), Decision::Weak, "{src}");
        }
        // In the project's own `.claude/` and in its documents, the project is this one.
        assert!(edge_to(d(".claude/agents/a.md", "CLAUDE.md", root, None, &c)).is_some());
        assert!(edge_to(d("README.md", "CLAUDE.md", root, None, &c)).is_some());
        // (As is a subfolder's `CLAUDE.md` speaking of "the root `CLAUDE.md`".)
        assert!(edge_to(d("docs/CLAUDE.md", "CLAUDE.md", root, None, &c)).is_some());
    }

    #[test]
    fn a_global_or_anothers_instruction_file_is_not_the_projects() {
        let c = ["CLAUDE.md"];
        // "Install the global `CLAUDE.md`", "write your own `CLAUDE.md`" in the root README.
        assert_eq!(
            d("README.md", "CLAUDE.md", cue::GLOBAL | cue::CODE, None, &c),
            Decision::Weak
        );
        let others = cue::ANY | cue::OTHERS | cue::CODE;
        assert_eq!(
            d("README.md", "CLAUDE.md", others, None, &c),
            Decision::Weak
        );
        assert!(edge_to(d("README.md", "CLAUDE.md", cue::CODE, None, &c)).is_some());
        // A file of another kind after "global" keeps its name.
        let g = ["docs/global-setup.md"];
        assert!(edge_to(d("README.md", "global-setup.md", cue::GLOBAL, None, &g)).is_some());
    }

    #[test]
    fn a_file_names_another_kind_of_thing_of_its_own_name_when_said() {
        let b = ["p/agents/my-review.md", "p/skills/my-review/SKILL.md"];
        // "then spawns the my-review agent", in the skill of the same name.
        let src = "p/skills/my-review/SKILL.md";
        let agent = cue::ENTITY | cue::AS_AGENT;
        assert_eq!(
            edge_to(d(src, "my-review", agent, None, &b)),
            Some((1, RefKind::Name))
        );
        // Bare, or said to be a skill, it is the skill's own name.
        assert_eq!(d(src, "my-review", 0, None, &b), Decision::Tie);
        let skill = cue::ENTITY | cue::AS_SKILL;
        assert_eq!(d(src, "my-review", skill, None, &b), Decision::Tie);
        // A common word is a word: "the audit skills" in the `audit` command.
        let a = ["commands/audit.md", "skills/audit/SKILL.md"];
        let plural = cue::ENTITY | cue::AS_SKILL;
        assert_eq!(
            d("commands/audit.md", "audit", plural, None, &a),
            Decision::Tie
        );
    }

    #[test]
    fn a_skill_names_the_documents_beside_it_by_their_stems_in_code() {
        let b = ["skills/git/reviewer.md"];
        let src = "skills/git/SKILL.md";
        // "Dispatch — `reviewer`", "`ship`, `reviewer`, and `merge` load their dispatch".
        assert!(edge_to(d(src, "reviewer", cue::CODE, None, &b)).is_some());
        // Not as a word, not in a fenced example, not from another file of the folder, not
        // a document elsewhere.
        assert_eq!(d(src, "reviewer", 0, None, &b), Decision::Weak);
        let fenced = cue::CODE | cue::FENCE;
        assert_eq!(d(src, "reviewer", fenced, None, &b), Decision::Weak);
        let other = "skills/git/ship.md";
        assert_eq!(d(other, "reviewer", cue::CODE, None, &b), Decision::Weak);
        let far = ["skills/git/references/reviewer.md"];
        assert_eq!(d(src, "reviewer", cue::CODE, None, &far), Decision::Weak);
    }

    #[test]
    fn an_agent_declared_in_title_case_is_named_as_a_proper_name_mid_sentence() {
        let b = ["agents/council-advocate.md"];
        let got = d("x.md", "Advocate", cue::PROPER, None, &b);
        assert!(edge_to(got).is_some(), "{got:?}");
        // Without the cue (a sentence's first word), a common word is no name.
        assert_eq!(d("x.md", "Advocate", 0, None, &b), Decision::Weak);
        // A document of the name is no persona.
        let doc = ["docs/Advocate.md"];
        assert_eq!(
            d("x.md", "Advocate", cue::PROPER, None, &doc),
            Decision::Weak
        );
    }

    #[test]
    fn a_run_of_words_that_is_the_path_of_a_file_without_extension_names_it() {
        let b = ["bin/minify-md"];
        // `"format:check": "bin/minify-md --check"`: the run leads to the file.
        let slashed = cue::SLASHED;
        let via = Some("bin/minify-md");
        let got = d("package.json", "bin/minify-md", slashed, via, &b);
        assert!(edge_to(got).is_some(), "{got:?}");
        // A run that only passes through it (`bin/minify-md/x`) does not.
        let through = Some("bin/minify-md/x");
        let got = d("package.json", "bin/minify-md", slashed, through, &b);
        assert_eq!(edge_to(got), None, "{got:?}");
    }

    #[test]
    fn a_plugins_skill_references_name_its_agents_by_their_roles() {
        // "Spawn the planner for Steps 1 and 2" in a plugin's skill's references.
        let own = ["plugins/kit/agents/planner.md"];
        let src = "plugins/kit/skills/spec/references/planning.md";
        let got = d(src, "planner", 0, None, &own);
        assert!(edge_to(got).is_some(), "{got:?}");
        // Outside a plugin, a skill's references are the world it works in: a query planner.
        let root = ["agents/planner.md"];
        let src = "skills/postgres/references/explain.md";
        assert_eq!(d(src, "planner", 0, None, &root), Decision::Weak);
    }

    #[test]
    fn a_folders_readme_names_its_documents_by_stem_in_code() {
        let b = ["rules/debugging.md"];
        // "**Always-on** - `discipline`, `debugging`, `security`" in `rules/README.md`.
        let got = d("rules/README.md", "debugging", cue::CODE, None, &b);
        assert!(edge_to(got).is_some(), "{got:?}");
        // A word, or another folder's README, says nothing of the file.
        assert_eq!(
            d("rules/README.md", "debugging", 0, None, &b),
            Decision::Weak
        );
        let far = d("docs/README.md", "debugging", cue::CODE, None, &b);
        assert_eq!(far, Decision::Weak);
    }

    #[test]
    fn a_test_names_its_subject_in_its_strings() {
        let lit = cue::LITERAL | cue::SOURCE;
        // `describe("hot-tree")` in `scripts/hot-tree.test.ts`, beside `scripts/hot-tree.ts`.
        let b = ["scripts/hot-tree.ts"];
        let got = d("scripts/hot-tree.test.ts", "hot-tree", lit, None, &b);
        assert!(edge_to(got).is_some(), "{got:?}");
        // `name: "avoid-x"` in a pattern's test, beside the pattern's document.
        let doc = ["patterns/avoid-x.md"];
        let got = d("patterns/avoid-x.test.ts", "avoid-x", lit, None, &doc);
        assert!(edge_to(got).is_some(), "{got:?}");
        // A folder's entry is tested by the folder's name.
        let entry = ["hooks/skill-suggester/index.ts"];
        let got = d(
            "hooks/skill-suggester/index.test.ts",
            "skill-suggester",
            lit,
            None,
            &entry,
        );
        assert!(edge_to(got).is_some(), "{got:?}");
        // Another file's test, or a test elsewhere, names no subject so.
        let other = d("scripts/cold-tree.test.ts", "hot-tree", lit, None, &b);
        assert_eq!(other, Decision::Weak);
        let far = d("tests/hot-tree.test.ts", "hot-tree", lit, None, &b);
        assert_eq!(far, Decision::Weak);
    }

    #[test]
    fn a_dotfile_is_no_file_of_its_name_but_the_one_a_template_renders() {
        let dot = cue::DOTFILE | cue::SOURCE;
        // "every hook has a matching .test.sh" is no name of the root's `test.sh`.
        assert_eq!(
            d("tests/a.sh", "test.sh", dot, None, &["test.sh"]),
            Decision::Weak
        );
        // `git add .gitlab-ci.yml`: the file a template renders.
        let t = ["templates/gitlab-ci.yml"];
        let got = d("docs/a.md", "gitlab-ci.yml", dot, None, &t);
        assert!(edge_to(got).is_some(), "{got:?}");
    }

    #[test]
    fn a_value_in_data_is_no_topic_of_the_folder_holding_it() {
        let b = ["agents/design-skeptic.md"];
        // `"entity_id": "design-skeptic"` in `variants/design-skeptic/v1/meta.json`.
        let src = "variants/design-skeptic/v1/meta.json";
        let got = d(src, "design-skeptic", 0, None, &b);
        assert!(edge_to(got).is_some(), "{got:?}");
        // In prose there, the name is the folder's topic.
        let prose = "variants/design-skeptic/v1/notes.md";
        assert_eq!(d(prose, "design-skeptic", 0, None, &b), Decision::Weak);
    }

    #[test]
    fn a_skill_run_as_a_program_is_the_program_it_wraps() {
        let b = ["skills/playwright-cli/SKILL.md"];
        let src = "skills/playwright-cli/references/mocking.md";
        // `playwright-cli unroute` in a shell example; "Run `playwright-cli snapshot`".
        let shell = cue::RUN | cue::SOURCE | cue::FENCE | cue::SHELL_WORD;
        assert_eq!(d(src, "playwright-cli", shell, None, &b), Decision::Weak);
        assert_eq!(d(src, "playwright-cli", cue::RUN, None, &b), Decision::Weak);
        // Said to be the skill, or invoked, it is.
        let said = cue::RUN | cue::ENTITY | cue::AS_SKILL;
        assert!(edge_to(d(src, "playwright-cli", said, None, &b)).is_some());
        assert!(edge_to(d(src, "playwright-cli", cue::CODE, None, &b)).is_some());
        // A skill that is the program's package runs its own code.
        let pkg = ["skills/playwright-cli/package.json"];
        let got = d_with(src, "playwright-cli", cue::RUN, None, &b, &pkg);
        assert!(edge_to(got).is_some(), "{got:?}");
    }

    #[test]
    fn the_working_folders_instruction_file_is_the_projects_at_work() {
        let c = ["CLAUDE.md"];
        let here = Some("./CLAUDE.md");
        // `./CLAUDE.md` in an agent or skill a kit ships: the project it is at work on.
        assert_eq!(d("agents/rev.md", "CLAUDE.md", 0, here, &c), Decision::Weak);
        assert_eq!(
            d("skills/x/SKILL.md", "CLAUDE.md", 0, here, &c),
            Decision::Weak
        );
        // Beside the root file, and in the project's own `.claude/`, it is this one.
        assert!(edge_to(d("README.md", "CLAUDE.md", 0, here, &c)).is_some());
        assert!(edge_to(d(".claude/agents/rev.md", "CLAUDE.md", 0, here, &c)).is_some());
    }

    #[test]
    fn a_stub_a_script_writes_in_a_temporary_folder_is_not_the_trees() {
        let b = ["plugins/w/.claude-plugin/plugin.json"];
        let src = "tests/test_sync.sh";
        let stub = Some("$(mktemp)/repo/plugins/w/.claude-plugin/plugin.json");
        assert_eq!(d(src, "plugin.json", 0, stub, &b), Decision::Weak);
        // A folder of its own the script names keeps the tail's file, as before.
        let kept = Some("$WORK/repo/plugins/w/.claude-plugin/plugin.json");
        assert!(edge_to(d(src, "plugin.json", 0, kept, &b)).is_some());
    }

    #[test]
    fn a_namespace_no_bearer_is_kept_under_is_another_schemes() {
        let b = ["plugins/ccfg-ts/commands/coverage.md"];
        let src = "plugins/ccfg-ts/commands/scaffold.md";
        // `"test:coverage": "vitest run --coverage"`: an npm script.
        let ns = cue::NAMESPACE | cue::QUOTED;
        assert_eq!(d(src, "coverage", ns, Some("test:"), &b), Decision::Weak);
        // The plugin's own namespace, a folder's, or an invocation names the command.
        assert!(edge_to(d(src, "coverage", ns, Some("ccfg-ts:"), &b)).is_some());
        let git = ["commands/git/commit.md"];
        assert!(edge_to(d("README.md", "commit", ns, Some("git:"), &git)).is_some());
        let invoked = cue::NAMESPACE | cue::SLASH;
        assert!(edge_to(d(src, "coverage", invoked, Some("hub:"), &b)).is_some());
        // Outside plugins a namespace is the client's for an installed plugin's things.
        let root = ["skills/brainstorming/SKILL.md"];
        let got = d(
            "README.md",
            "brainstorming",
            ns,
            Some("superpowers:"),
            &root,
        );
        assert!(edge_to(got).is_some(), "{got:?}");
    }

    #[test]
    fn a_kept_everywhere_file_after_a_determiner_is_the_kind_with_its_folders_too() {
        let b = ["claude/.claude/settings.json"];
        let src = "claude/.claude/skills/review-permissions/SKILL.md";
        let via = Some(".claude/settings.json");
        // "in any `.claude/settings.json`"
        assert_eq!(
            d(src, ".claude/settings.json", cue::ANY, via, &b),
            Decision::Weak
        );
        assert!(edge_to(d(src, ".claude/settings.json", 0, via, &b)).is_some());
        // "its own `.claude/settings.json`" is another's, decided as before; any other file
        // after a determiner is still the one its path leads to.
        let others = cue::ANY | cue::OTHERS;
        assert!(edge_to(d(src, ".claude/settings.json", others, via, &b)).is_some());
        let script = ["scripts/gate.sh"];
        let via = Some("scripts/gate.sh");
        assert!(edge_to(d("README.md", "scripts/gate.sh", cue::ANY, via, &script)).is_some());
        // Nor is a path through the tree's own folders ("add a `user/hooks/CLAUDE.md` section").
        let own = ["user/hooks/CLAUDE.md"];
        let via = Some("user/hooks/CLAUDE.md");
        assert!(edge_to(d(
            "docs/plan.md",
            "user/hooks/CLAUDE.md",
            cue::ANY,
            via,
            &own
        ))
        .is_some());
    }

    #[test]
    fn a_root_project_file_is_named_bare_from_below_unless_a_nearer_one_is() {
        let txt = |src, name: &str, text| {
            let readmes = ["README.md", "docs/README.md"];
            let b: &[&str] = if name == "README.md" {
                &readmes
            } else {
                &["CHANGELOG.md"]
            };
            d_text(src, name, 0, None, text, b, &[])
        };
        // The project keeps one changelog: "update CHANGELOG.md" in its docs is that one.
        let up = "### 3. Update CHANGELOG.md";
        assert_eq!(
            edge_to(txt("docs/release.md", "CHANGELOG.md", up)).map(|e| e.0),
            Some(1)
        );
        assert_eq!(
            edge_to(txt("scripts/gen.py", "README.md", "README.md")).map(|e| e.0),
            Some(1)
        );
        // A folder on the way up keeps its own: that one, not the root's.
        assert_eq!(
            edge_to(txt("docs/guides/a.md", "README.md", "README.md")).map(|e| e.0),
            Some(2)
        );
        // A plugin, installed alone, means its own.
        assert_eq!(
            txt("plugins/p/skills/s/SKILL.md", "CHANGELOG.md", up),
            Decision::Weak
        );
        // "A CHANGELOG.md" is any project's.
        let any = d_text(
            "docs/a.md",
            "CHANGELOG.md",
            cue::ANY,
            None,
            "a CHANGELOG.md",
            &["CHANGELOG.md"],
            &[],
        );
        assert_eq!(any, Decision::Weak);
    }

    #[test]
    fn a_tie_between_copies_goes_to_the_one_whose_folder_the_writer_or_a_url_names() {
        let c = [
            "plugins/kaizen/skills/root-cause-tracing/SKILL.md",
            "skills/root-cause-tracing/SKILL.md",
        ];
        let to = |src, text| {
            edge_to(d_text(
                src,
                "root-cause-tracing",
                cue::SLASH,
                None,
                text,
                &c,
                &[],
            ))
            .map(|e| e.0)
        };
        // Under a folder named as one copy's: that copy.
        assert_eq!(
            to("guides/kaizen/usage.md", "`/root-cause-tracing`"),
            Some(1)
        );
        // A URL on the line with that folder.
        let url =
            "- [/root-cause-tracing](https://docs.example/cek/plugins/kaizen/root-cause-tracing)";
        assert_eq!(to("README.md", url), Some(1));
        // Nothing says which: the tree's own copy, outside the plugin. A conventional folder
        // (`plugins`) says nothing; a relative link into the plugin leads to its own file,
        // but no longer to the tree's.
        assert_eq!(to("docs/guide.md", "`/root-cause-tracing`"), Some(2));
        assert_eq!(to("guides/plugins/x.md", "`/root-cause-tracing`"), Some(2));
        assert_eq!(
            to(
                "docs/a.md",
                "[root-cause-tracing](plugins/kaizen/root-cause-tracing.md)"
            ),
            None
        );
    }

    #[test]
    fn a_scripts_absolute_import_finds_the_module_beside_it() {
        let c = [
            "skills/docx/scripts/office/validators/__init__.py",
            "skills/xlsx/scripts/office/validators/__init__.py",
        ];
        let text = "from validators import DOCXSchemaValidator";
        let imp = cue::IMPORT | cue::CODE_FILE;
        // (`docx/scripts/` is a package, so `office/` is no import root by the package rules:
        // without the script's own folder, the import would take xlsx's copy.)
        let got = d_text(
            "skills/docx/scripts/office/pack.py",
            "validators",
            imp,
            Some("validators"),
            text,
            &c,
            &["skills/docx/scripts/__init__.py"],
        );
        assert_eq!(edge_to(got).map(|e| e.0), Some(1));
        // Inside a package (its folder has an `__init__.py`), an absolute import is from the
        // package root: no module beside it is meant.
        let pkg = ["app/validators/__init__.py", "app/__init__.py"];
        let got = d_text(
            "app/main.py",
            "validators",
            imp,
            Some("validators"),
            text,
            &pkg[..1],
            &pkg[1..],
        );
        assert_eq!(got, Decision::Weak);
    }

    #[test]
    fn a_moved_file_is_the_one_still_in_its_folders() {
        let c = [
            "skills/archive/storybook/references/tips-and-tricks.md",
            "skills/figma/references/tips-and-tricks.md",
        ];
        let via = "skills/storybook/references/tips-and-tricks.md";
        let got = d(
            "docs/plan.md",
            "tips-and-tricks.md",
            cue::CODE,
            Some(via),
            &c,
        );
        assert_eq!(edge_to(got).map(|e| e.0), Some(1));
    }

    #[test]
    fn a_name_of_two_letters_is_named_only_by_an_import_or_a_path() {
        let skill = ["skills/do/SKILL.md"];
        assert_eq!(
            d("README.md", "do", cue::SLASH, None, &skill),
            Decision::Weak
        );
        assert_eq!(
            d("README.md", "do", cue::CODE, None, &skill),
            Decision::Weak
        );
        let m = ["app/db.py"];
        let imp = cue::IMPORT | cue::CODE_FILE;
        assert!(edge_to(d("app/main.py", "db", imp, Some("app/db"), &m)).is_some());
        // Three letters are a name as before.
        let skill = ["skills/gen/SKILL.md"];
        assert!(edge_to(d("README.md", "gen", cue::SLASH, None, &skill)).is_some());
    }

    #[test]
    fn a_root_file_that_defines_a_folder_is_named_bare_only_beside_it() {
        // Every folder of a code tree may hold an `index.js`: a bare one elsewhere is any.
        let i = ["index.js"];
        let src = "examples/cn/index.js";
        assert_eq!(d(src, "index.js", 0, None, &i), Decision::Weak);
        assert!(edge_to(d("main.js", "index.js", 0, None, &i)).is_some());
        assert!(edge_to(d(src, "index.js", 0, Some("../../index.js"), &i)).is_some());
    }

    #[test]
    fn a_file_name_in_a_string_of_code_is_one_of_its_own_tree() {
        let lit = cue::SOURCE | cue::LITERAL;
        let far = ["site-packages/IPython/asyncio.py"];
        assert_eq!(
            d("test/t.py", "asyncio.py", lit, None, &far),
            Decision::Weak
        );
        let near = ["test/data/asyncio.py"];
        assert!(edge_to(d("test/t.py", "asyncio.py", lit, None, &near)).is_some());
        // The root's files are everyone's; a comment is prose, as in a document.
        assert!(edge_to(d("test/t.py", "setup.py", lit, None, &["setup.py"])).is_some());
        let comment = cue::SOURCE;
        assert!(edge_to(d("test/t.py", "asyncio.py", comment, None, &far)).is_some());
        // A distinctive file of another language is what the code runs or reads, wherever
        // it is; not a word's, a conventional capitalised one's, nor one a test writes.
        let tool = ["scripts/smart/smart-ls.sh"];
        assert!(edge_to(d("hooks/config.py", "smart-ls.sh", lit, None, &tool)).is_some());
        assert_eq!(
            d("hooks/tests/t.py", "smart-ls.sh", lit, None, &tool),
            Decision::Weak
        );
        let word = ["rules/architecture.md"];
        assert_eq!(
            d("scripts/init.sh", "architecture.md", lit, None, &word),
            Decision::Weak
        );
        let caps = ["docs/features/ROADMAP.md"];
        assert_eq!(
            d("user/scripts/state.py", "ROADMAP.md", lit, None, &caps),
            Decision::Weak
        );
    }

    #[test]
    fn a_hyphenated_name_in_a_comment_of_code_is_the_module_of_that_name() {
        let m = ["src/handlers/stage-pause-and-reflect.ts"];
        let comment = cue::SOURCE | cue::COMMENT;
        let src = "src/orchestrator.ts";
        let name = "stage-pause-and-reflect";
        assert!(edge_to(d(src, name, comment, None, &m)).is_some());
        // In a string the code holds it as a value (`getHandler('x-y')`, a type's name).
        assert_eq!(d(src, name, cue::SOURCE, None, &m), Decision::Weak);
        assert_eq!(
            d(src, name, cue::SOURCE | cue::LITERAL, None, &m),
            Decision::Weak
        );
        // A test is named after what it tests ("// one rate-limit event"); a document's
        // compound stem in a comment is a concept as often.
        let t = ["test/rate-limit.ts"];
        assert_eq!(d(src, "rate-limit", comment, None, &t), Decision::Weak);
        let doc = ["docs/stage-pause.md"];
        assert_eq!(d(src, "stage-pause", comment, None, &doc), Decision::Weak);
        // One word is a word, in a comment as in a string.
        let w = ["src/queue.ts"];
        assert_eq!(d(src, "queue", comment, None, &w), Decision::Weak);
    }

    #[test]
    fn a_folder_is_not_the_file_with_its_stem() {
        let f = ["skills/debug/defense-in-depth.md"];
        assert_eq!(
            d("skills/w/a.md", "defense-in-depth", cue::FOLDER, None, &f),
            Decision::Weak
        );
        assert!(edge_to(d("skills/w/a.md", "defense-in-depth", 0, None, &f)).is_some());
        let s = ["skills/brainstorming/SKILL.md"];
        assert!(edge_to(d("x/a.md", "brainstorming", cue::FOLDER, None, &s)).is_some());
        // From inside the folder, "the brainstorming directory" locates a neighbour.
        assert_eq!(
            d(
                "skills/brainstorming/notes.md",
                "brainstorming",
                cue::FOLDER,
                None,
                &s
            ),
            Decision::Weak
        );
    }

    #[test]
    fn relative_paths_resolve_against_the_mentioning_file() {
        let b = ["rules/common/coding-style.md", "rules/py/coding-style.md"];
        let got = d(
            "rules/py/x.md",
            "coding-style.md",
            0,
            Some("../common/coding-style.md"),
            &b,
        );
        assert_eq!(edge_to(got), Some((1, RefKind::Path)));
        // Without the path the nearest one wins.
        assert_eq!(
            edge_to(d("rules/py/x.md", "coding-style.md", 0, None, &b)),
            Some((2, RefKind::File))
        );
    }

    #[test]
    fn a_file_name_closing_a_longer_path_names_only_the_file_it_leads_to() {
        let b = ["docs/facts.json", "kit/templates/docs/facts.json"];
        let at = |via| edge_to(d("kit/lib.mjs", "facts.json", cue::TAIL, Some(via), &b));
        // Led straight to the kit's own copy: that one.
        assert_eq!(at("./templates/docs/facts.json"), Some((2, RefKind::Path)));
        // The root's file ends the written path: its own, longer mention decides it.
        assert_eq!(at("<repoRoot>/docs/facts.json"), None);
        // Led nowhere: no guess by the file name.
        assert_eq!(at("./vendor/x/docs/facts.json"), None);
        assert_eq!(
            edge_to(d("kit/lib.mjs", "facts.json", cue::TAIL, None, &b)),
            None
        );
    }

    #[test]
    fn a_variant_declaring_a_skills_name_beside_its_skill_md_is_its_twin() {
        let b = [
            (1, "skills/x/SKILL.md"),
            (2, "skills/x/SKILL.v1-yolo.md"),
            (3, "other/x/notes.md"),
        ];
        assert_eq!(twin("a.md", "x", 0, 1, &b), Some(2));
        assert_eq!(twin("a.md", "x", 0, 2, &b), Some(1));
        assert_eq!(twin("skills/x/SKILL.v1-yolo.md", "x", 0, 1, &b), None);
        // Written as a folder, the name is the folder SKILL.md defines; a file name or a
        // path names its own file.
        assert_eq!(twin("a.md", "x", cue::FOLDER, 1, &b), None);
        assert_eq!(twin("a.md", "SKILL.md", 0, 1, &b), None);
        // Files that share a stem are no twins (`x.sh`, `x.ps1`), nor is a third in the way.
        let stems = [(1, "hooks/x.sh"), (2, "hooks/x.ps1")];
        assert_eq!(twin("a.md", "x", 0, 1, &stems), None);
        let three = [
            (1, "skills/x/SKILL.md"),
            (2, "skills/x/SKILL.a.md"),
            (3, "skills/x/SKILL.b.md"),
        ];
        assert_eq!(twin("a.md", "x", 0, 1, &three), None);
    }

    #[test]
    fn an_invoked_skill_names_the_command_of_its_name_in_its_unit() {
        let b = [
            (1, "skills/arch/SKILL.md"),
            (2, "commands/arch.md"),
            (3, "plugins/p/commands/arch.md"),
        ];
        assert_eq!(twin("docs/a.md", "arch", cue::SLASH, 1, &b), Some(2));
        assert_eq!(twin("docs/a.md", "arch", cue::NAMESPACE, 1, &b), Some(2));
        // The bare name is the skill's alone; the command speaking of itself names no twin.
        assert_eq!(twin("docs/a.md", "arch", 0, 1, &b), None);
        assert_eq!(twin("commands/arch.md", "arch", cue::SLASH, 1, &b), None);
        // A kit's skills beside the root's commands (an installer maps both into one client
        // folder); not a project's client folder, nor another plugin.
        let kit = [(1, "core/skills/arch/SKILL.md"), (2, "commands/arch.md")];
        assert_eq!(twin("README.md", "arch", cue::SLASH, 1, &kit), Some(2));
        let project = [
            (1, "user/skills/arch/SKILL.md"),
            (2, "repos/app/.claude/commands/arch.md"),
        ];
        assert_eq!(twin("README.md", "arch", cue::SLASH, 1, &project), None);
        let plugin = [
            (1, "plugins/q/skills/arch/SKILL.md"),
            (3, "plugins/p/commands/arch.md"),
        ];
        assert_eq!(twin("README.md", "arch", cue::SLASH, 1, &plugin), None);
    }

    #[test]
    fn a_plugin_manifest_writes_its_paths_from_the_plugins_folder() {
        let b = ["agents/aws.md", "plugins/p/templates/agents/aws.md"];
        let at = |src| edge_to(d(src, "aws.md", 0, Some("./templates/agents/aws.md"), &b));
        assert_eq!(
            at("plugins/p/.claude-plugin/plugin.json"),
            Some((2, RefKind::Path))
        );
    }

    #[test]
    fn a_dot_slash_path_with_folders_may_be_from_the_root_and_a_hidden_folder_lose_its_dot() {
        let b = [".claude/commands/commit.md", "tools/x/commit.md"];
        let at = |via| edge_to(d(".claude/commands/wt.md", "commit.md", 0, Some(via), &b));
        assert_eq!(at("./.claude/commands/commit.md"), Some((1, RefKind::Path)));
        assert_eq!(at("./claude/commands/commit.md"), Some((1, RefKind::Path)));
        // A plain folder of that name exists: the path means it, and leads nowhere.
        let with_plain = d_with(
            ".claude/commands/wt.md",
            "commit.md",
            0,
            Some("./claude/commands/commit.md"),
            &b,
            &["claude/README.md"],
        );
        assert_eq!(edge_to(with_plain), None, "{with_plain:?}");
    }

    #[test]
    fn paths_to_other_files_or_other_folders_are_not_references() {
        let b = ["agents/architect.md"];
        let v = "~/.claude/.ccg/prompts/codex/architect.md";
        assert_eq!(d("x.md", "architect.md", 0, Some(v), &b), Decision::Weak);
        let v = "~/.claude/agents/architect.md";
        assert!(edge_to(d("x.md", "architect.md", 0, Some(v), &b)).is_some());
        let v = "$TARGET/rules/common/coding-style.md";
        let r = ["rules/common/coding-style.md"];
        assert!(edge_to(d("x.md", "coding-style.md", 0, Some(v), &r)).is_some());
        // A path to an existing file that is not the bearer (out of scope, say).
        let s = ["skills/x/SKILL.md"];
        let got = d_with(
            "a.md",
            "x/SKILL.md",
            0,
            Some(".agents/skills/x/SKILL.md"),
            &s,
            &[".agents/skills/x/SKILL.md"],
        );
        assert_eq!(got, Decision::Weak);
        assert!(edge_to(d("a.md", "x/SKILL.md", 0, Some("skills/x/SKILL.md"), &s)).is_some());
    }

    #[test]
    fn an_installed_copy_names_the_file_its_distinctive_folder_holds() {
        let v = "~/.claude/commands/subagent-catalog/config.sh";
        let b = ["tools/subagent-catalog/config.sh", "tools/other/config.sh"];
        assert_eq!(
            edge_to(d("x.md", "config.sh", 0, Some(v), &b)).map(|e| e.0),
            Some(1)
        );
        // A conventional folder says nothing of which copy; nor does a file name alone.
        let b = ["plugins/p/agents/architect.md"];
        let v = "~/.claude/agents/architect.md";
        assert_eq!(d("x.md", "architect.md", 0, Some(v), &b), Decision::Weak);
        // Two copies agreeing as far: no answer.
        let b = [
            "a/subagent-catalog/config.sh",
            "b/subagent-catalog/config.sh",
        ];
        let v = "~/.claude/commands/subagent-catalog/config.sh";
        assert_eq!(d("x.md", "config.sh", 0, Some(v), &b), Decision::Weak);
        // The client's own folder says nothing of which copy: the home's settings are not a
        // project template's, nor is another project's.
        let b = ["template/.claude/settings.json"];
        let at = |v| edge_to(d("docs/x.md", "settings.json", 0, Some(v), &b)).map(|e| e.0);
        assert_eq!(at("~/.claude/settings.json"), None);
        assert_eq!(at("/some/project/.claude/settings.json"), None);
        // (Its whole path at a path's tail is the file, wherever the path starts.)
        assert_eq!(at("/srv/template/.claude/settings.json"), Some(1));
        let b = ["kit/.claude/hooks/guard-x.sh"];
        let v = "~/.claude/hooks/guard-x.sh";
        assert!(edge_to(d("docs/x.md", "guard-x.sh", 0, Some(v), &b)).is_some());
        // A skill installed by its folder's name, whatever folders hold it in the tree.
        let b = ["skills/chat/telegram/scripts/memory.py"];
        let skill = ["skills/chat/telegram/SKILL.md"];
        let v = "~/.claude/skills/telegram/scripts/memory.py";
        let got = d_with("commands/t.md", "memory.py", 0, Some(v), &b, &skill);
        assert_eq!(edge_to(got).map(|e| e.0), Some(1));
        assert_eq!(
            d("commands/t.md", "memory.py", 0, Some(v), &b),
            Decision::Weak
        );
        // A script's variable for a folder above: a distinctive file under the folders
        // written, when one bearer has them all. Not a plain name, a folder that disagrees,
        // two such bearers, or the home's variable.
        let b = [
            ".claude/skills/gh/scripts/pr/resolve_thread.py",
            "pr/other.py",
        ];
        let at = |v: &str, b: &[&str]| edge_to(d("a.md", "resolve_thread.py", 0, Some(v), b));
        assert_eq!(
            at("$SCRIPTS_DIR/pr/resolve_thread.py", &b).map(|e| e.0),
            Some(1)
        );
        assert_eq!(at("${GH}/pr/resolve_thread.py", &b).map(|e| e.0), Some(1));
        assert_eq!(at("$SCRIPTS_DIR/issue/resolve_thread.py", &b), None);
        assert_eq!(at("$HOME/pr/resolve_thread.py", &b), None);
        let two = [b[0], "src/copy/pr/resolve_thread.py"];
        assert_eq!(at("$SCRIPTS_DIR/pr/resolve_thread.py", &two), None);
        let plain = ["scripts/pr/review.py"];
        let got = d("a.md", "review.py", 0, Some("$S/pr/review.py"), &plain);
        assert_eq!(edge_to(got), None);
        // The client's folder of a kind holds the one file of a distinctive name, wherever
        // the tree keeps it; a plain name, or two files of the name, say nothing.
        for (v, b) in [
            (
                "~/.claude/scripts/register-hook.sh",
                "plugin/scripts/register-hook.sh",
            ),
            ("$HOME/.claude/rules/doc-rules.md", "doc-rules.md"),
            ("./.claude/rules/doc-rules.md", "doc-rules.md"),
        ] {
            let name = v.rsplit('/').next().unwrap_or(v);
            let got = d("README.md", name, 0, Some(v), &[b]);
            assert_eq!(edge_to(got).map(|e| e.0), Some(1), "{v}");
            let two = [b, "other/doc-rules.md", "other/register-hook.sh"];
            assert_eq!(
                d("README.md", name, 0, Some(v), &two),
                Decision::Weak,
                "{v}"
            );
        }
        let v = "~/.claude/rules/style.md";
        assert_eq!(
            d("x.md", "style.md", 0, Some(v), &["style.md"]),
            Decision::Weak
        );
        // Also where the copy's `skills/` agrees with the tree's own; and a project's install.
        let b = ["src/skills/memory/cli.js", "src/skills/other/cli.js"];
        let skill = ["src/skills/memory/SKILL.md"];
        for v in [
            "~/.claude/skills/memory/cli.js",
            "./.claude/skills/memory/cli.js",
        ] {
            let got = d_with("docs/x.md", "cli.js", 0, Some(v), &b, &skill);
            assert_eq!(edge_to(got).map(|e| e.0), Some(1), "{v}");
        }
    }

    #[test]
    fn imports_resolve_as_modules() {
        let b = ["plugins/p/src/plugin_eval/models.py"];
        let got = d(
            "plugins/p/src/plugin_eval/layers/judge.py",
            "models",
            cue::IMPORT | cue::CODE_FILE,
            Some("plugin_eval/models"),
            &b,
        );
        assert_eq!(edge_to(got), Some((1, RefKind::Import)));
        let j = ["json/decoder.py", "other/decoder.py"];
        let got = d(
            "json/__init__.py",
            "decoder",
            cue::IMPORT | cue::CODE_FILE,
            Some("./decoder"),
            &j,
        );
        assert_eq!(edge_to(got), Some((1, RefKind::Import)));
        let e = ["email/__init__.py"];
        let got = d(
            "x.py",
            "email",
            cue::IMPORT | cue::CODE_FILE,
            Some("email"),
            &e,
        );
        assert_eq!(edge_to(got), Some((1, RefKind::Import)));
        // A bare word in code is no reference.
        let c = ["copy.py"];
        assert_eq!(d("x.py", "copy", cue::CODE_FILE, None, &c), Decision::Weak);
        // A module named in prose inside a package is the package's own when the root has none
        // ("the termui module"); an import statement, even a docstring's example, is absolute.
        let t = ["src/click/termui.py"];
        let inits = ["src/click/__init__.py"];
        let prose = cue::IMPORT | cue::PROSE_MODULE;
        let src = "src/click/_termui_impl.py";
        let got = d_with(src, "termui", prose, Some("termui"), &t, &inits);
        assert_eq!(edge_to(got), Some((1, RefKind::Import)));
        let j = ["src/flask/json/__init__.py"];
        let inits = ["src/flask/__init__.py"];
        let got = d_with(
            "src/flask/config.py",
            "json",
            cue::IMPORT,
            Some("json"),
            &j,
            &inits,
        );
        assert_eq!(got, Decision::Weak);
    }

    #[test]
    fn stale_paths_into_the_tree_still_name_the_file() {
        let s = ["skills/systematic-debugging/SKILL.md"];
        let v = "skills/debugging/systematic-debugging";
        assert!(edge_to(d("a.md", "systematic-debugging", 0, Some(v), &s)).is_some());
        // Not when the path is of another project's layout.
        let v = "myapp/debugging/systematic-debugging";
        assert_eq!(
            d("a.md", "systematic-debugging", 0, Some(v), &s),
            Decision::Weak
        );
        // Nor through a placeholder: a pattern of files a run writes, not a moved file.
        let v = "skills/{run}/systematic-debugging";
        assert_eq!(
            d("a.md", "systematic-debugging", 0, Some(v), &s),
            Decision::Weak
        );
        // An absolute import reaches a module only from a folder on the path: not from a
        // folder inside a package.
        let g = ["test/dtracedata/gc.py"];
        let pkg = ["test/__init__.py"];
        assert_eq!(
            d_with("test/test_x.py", "gc", cue::IMPORT, Some("gc"), &g, &pkg),
            Decision::Weak
        );
        assert!(edge_to(d("test/test_x.py", "gc", cue::IMPORT, Some("gc"), &g)).is_some());
        let m = ["plugins/p/src/plugin_eval/models.py"];
        let inits = ["plugins/p/src/plugin_eval/__init__.py"];
        let v = Some("plugin_eval/models");
        assert!(edge_to(d_with(
            "plugins/p/tests/t.py",
            "models",
            cue::IMPORT,
            v,
            &m,
            &inits
        ))
        .is_some());
        // The client's variables: the project root, and the root of the plugin holding the
        // mentioning file.
        let sh = ["plugins/p/scripts/run.sh", "scripts/run.sh"];
        let manifest = ["plugins/p/.claude-plugin/plugin.json"];
        let v = Some("${CLAUDE_PLUGIN_ROOT}/scripts/run.sh");
        let from_hooks = d_with("plugins/p/hooks/hooks.json", "run.sh", 0, v, &sh, &manifest);
        assert_eq!(edge_to(from_hooks).map(|e| e.0), Some(1));
        let v = Some("bash $CLAUDE_PLUGIN_ROOT/scripts/run.sh --x");
        assert_eq!(
            edge_to(d_with("plugins/p/c/go.md", "run.sh", 0, v, &sh, &manifest)).map(|e| e.0),
            Some(1)
        );
        let v = Some("$CLAUDE_PROJECT_DIR/scripts/run.sh");
        assert_eq!(
            edge_to(d_with("plugins/p/c/go.md", "run.sh", 0, v, &sh, &manifest)).map(|e| e.0),
            Some(2)
        );
        // A path written from a root in a plugin's own file is the plugin's, where it keeps
        // one: installed alone, the plugin is its root. (Not the root's copy of that path.)
        let root_copy = ["scripts/run.sh"];
        let plugin_copy = [
            "plugins/p/scripts/run.sh",
            "plugins/p/.claude-plugin/plugin.json",
        ];
        let v = Some("scripts/run.sh");
        let lit = cue::LITERAL | cue::SOURCE;
        let check = "plugins/p/scripts/check.js";
        let written = d_with(check, "scripts/run.sh", lit, v, &root_copy, &plugin_copy);
        assert_eq!(written, Decision::Weak);
        let alone = d_with(check, "scripts/run.sh", lit, v, &root_copy, &manifest);
        assert!(edge_to(alone).is_some());
        // A path to an existing folder names the folder, not a file with its name elsewhere.
        let t = ["plugins/b/skills/t/resources/unit-testing.md"];
        let folder = ["plugins/unit-testing/README.md"];
        let v = Some("./plugins/unit-testing");
        assert_eq!(
            d_with(
                ".claude-plugin/marketplace.json",
                "unit-testing",
                0,
                v,
                &t,
                &folder
            ),
            Decision::Weak
        );
        // A path leading nowhere under a folder that exists names a moved file, but not a
        // template: a template's name is its output's (`production/stage-report.md`, the
        // report a skill writes from `docs/templates/stage-report.md`).
        let src = ".claude/skills/s/SKILL.md";
        let v = Some("production/stage-report.md");
        let made = ["production/session.md"];
        let t = [".claude/docs/templates/stage-report.md"];
        assert_eq!(
            d_with(src, "stage-report.md", 0, v, &t, &made),
            Decision::Weak
        );
        let moved = [".claude/docs/guides/stage-report.md"];
        assert!(edge_to(d_with(src, "stage-report.md", 0, v, &moved, &made)).is_some());
        // Two words joined by a slash are alternatives, not a moved path (`xml/` exists).
        let h = ["html/__init__.py"];
        assert_eq!(
            d_with(
                "difflib.py",
                "html",
                0,
                Some("xml/html"),
                &h,
                &["xml/dom.py"]
            ),
            Decision::Weak
        );
        // A root file is not named by a path outside the tree.
        let c = ["CLAUDE.md"];
        assert_eq!(
            d("a/b.md", "CLAUDE.md", 0, Some("~/.claude/CLAUDE.md"), &c),
            Decision::Weak
        );
    }

    #[test]
    fn a_skill_is_named_bare_inside_its_own_folder() {
        let s = ["skills/brainstorming/SKILL.md"];
        assert!(edge_to(d(
            "skills/brainstorming/companion.md",
            "brainstorming",
            0,
            None,
            &s
        ))
        .is_some());
        assert_eq!(
            d("skills/other/SKILL.md", "brainstorming", 0, None, &s),
            Decision::Weak
        );
    }

    #[test]
    fn a_folder_written_as_a_root_path_or_a_broken_link_to_a_word_is_no_skill() {
        let w = ["p/skills/widgets/SKILL.md"];
        let src = "p/skills/docs/references/general/pages.md";
        // "a view in the `/widgets` directory": a folder at some root, not the skill.
        let bits = cue::CODE | cue::SLASH | cue::FOLDER;
        assert_eq!(d(src, "widgets", bits, None, &w), Decision::Weak);
        assert!(edge_to(d(src, "widgets", cue::CODE | cue::SLASH, None, &w)).is_some());
        // `[Widgets](../widgets)` leading nowhere: the word; a distinctive name still leads.
        assert_eq!(d(src, "widgets", 0, Some("../widgets"), &w), Decision::Weak);
        let g = ["p/skills/stats-widgets/SKILL.md"];
        let v = Some("../stats-widgets");
        assert!(edge_to(d(src, "stats-widgets", 0, v, &g)).is_some());
        // A code package's folder written as a path is the folder, not its `__init__.py`; a
        // skill's folder is the skill.
        let v = Some("plugin/hooks/skill_handlers/");
        let pkg = ["plugin/hooks/skill_handlers/__init__.py"];
        let bits = cue::CODE | cue::FOLDER;
        assert_eq!(
            d("docs/a.md", "skill_handlers", bits, v, &pkg),
            Decision::Weak
        );
        let v = Some("p/skills/widgets/");
        assert!(edge_to(d("docs/a.md", "widgets", bits, v, &w)).is_some());
    }

    #[test]
    fn a_template_is_named_bare_only_where_the_line_speaks_of_a_template() {
        let t = ["templates/REQUIREMENTS.md"];
        let out = d("commands/init.md", "REQUIREMENTS.md", cue::CODE, None, &t);
        assert_eq!(out, Decision::Weak);
        let said = cue::CODE | cue::TEMPLATE;
        assert!(edge_to(d("commands/init.md", "REQUIREMENTS.md", said, None, &t)).is_some());
        // A path through its folder needs no word.
        let v = Some("templates/REQUIREMENTS.md");
        assert!(edge_to(d("commands/init.md", "REQUIREMENTS.md", 0, v, &t)).is_some());
    }

    #[test]
    fn a_common_word_in_capitals_names_the_document_so_named() {
        let caps = cue::CAPS;
        let b = [".claude/REGISTRY.md"];
        let to = |src, bits| edge_to(d(src, "REGISTRY", bits, None, &b)).map(|e| e.0);
        assert_eq!(to(".claude/commands/x.md", caps), Some(1));
        // Without capitals' cue (a label, a shouted phrase), in code, a fence or a code span
        // (a constant), the word is no name.
        assert_eq!(to(".claude/commands/x.md", 0), None);
        for bits in [cue::SOURCE, cue::FENCE, cue::CODE] {
            assert_eq!(to(".claude/commands/x.md", caps | bits), None);
        }
        // Not a file every folder keeps, nor a marker.
        for (name, path) in [("INDEX", "docs/INDEX.md"), ("TODO", "TODO.md")] {
            assert_eq!(
                edge_to(d("a.md", name, caps, None, &[path])),
                None,
                "{name}"
            );
        }
        // A skill's own document is so named inside the skill only.
        let b = ["skills/x/ANALYSIS.md"];
        let o = ["skills/x/SKILL.md", "skills/y/SKILL.md"];
        let to = |src| edge_to(d_with(src, "ANALYSIS", caps, None, &b, &o)).map(|e| e.0);
        assert_eq!(to("skills/x/SKILL.md"), Some(1));
        assert_eq!(to("skills/y/SKILL.md"), None);
        // An acronym is what a document is about (`references/WCAG.md`), not the document.
        let b = ["skills/x/references/WCAG.md"];
        assert_eq!(
            edge_to(d("skills/x/SKILL.md", "WCAG", caps, None, &b)),
            None
        );
    }

    #[test]
    fn self_mentions_and_ties() {
        let b = ["a/x.md", "b/x.md"];
        assert_eq!(d("a/x.md", "x.md", 0, None, &b), Decision::Tie);
        assert_eq!(d("c/y.md", "x.md", 0, None, &b), Decision::Tie);
    }
}
