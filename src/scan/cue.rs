//! Cues: what the bytes around an occurrence of a name say about how the name is used there.
//!
//! Owns the byte-level reading of one line around one occurrence (no I/O, no database, no
//! knowledge of which files bear the name). Invariant: a cue is a pure function of the mentioning
//! file's path and the line, so the same file always yields the same cues; resolution
//! (`scan::refs`) decides from cues and bearers alone.
//!
//! A cue is a set of bit flags plus, when the name was written as part of something longer, that
//! written form (`via`): a path (`../common/coding-style.md`, `~/.claude/agents/x.md`), a code
//! module (`plugin_eval/models` for `from plugin_eval.models import`), or a namespace
//! (`conductor:` for `/conductor:status`).

/// Inside a Markdown code span (`` `name` ``).
pub const CODE: u64 = 1;
/// Between matching quotes (`"name"`, `'name'`).
pub const QUOTED: u64 = 1 << 1;
/// Written as a command invocation: `/name` (not the tail of a path).
pub const SLASH: u64 = 1 << 2;
/// Written with a namespace: `plugin:name`; `via` holds `plugin:`.
pub const NAMESPACE: u64 = 1 << 3;
/// The value of a key that names an agent, skill, command or hook (`subagent_type: name`).
pub const KEY: u64 = 1 << 4;
/// Next to one of the words agent, skill, command, hook (or their plurals).
pub const ENTITY: u64 = 1 << 5;
/// The first thing in a list item or a table cell: a row of a list of such names.
pub const LIST: u64 = 1 << 6;
/// A code import, require, include or source of the module; `via` holds the module path.
pub const IMPORT: u64 = 1 << 7;
/// Part of a URL: never a reference to a file of the tree.
pub const URL: u64 = 1 << 8;
/// The mentioning file is source code: a bare word there is an identifier of that code.
pub const CODE_FILE: u64 = 1 << 9;

/// A folder inside a longer written path (`./hooks/run-hook.cmd` for `hooks`): the path names
/// another file.
pub const MIDPATH: u64 = 1 << 10;

/// A qualified use (`copy.deepcopy`) of the name an import bound in the file (with `IMPORT`).
pub const QUALIFIED: u64 = 1 << 11;

/// Written as a folder: `name/` with nothing after the slash, or followed by the word
/// directory, folder or dir. It names the folder, not a file with that stem.
pub const FOLDER: u64 = 1 << 12;

/// Said to be the root's: "the root CLAUDE.md", "the project's README.md".
pub const ROOT: u64 = 1 << 13;

/// The mentioning file is source code (any language whose imports are read), whatever part
/// of it the name is in: a module is named there by an import or a qualified use, not by a
/// word in a comment or a string ("the traceback", `"html"`).
pub const SOURCE: u64 = 1 << 14;

/// Inside a fenced code block of a Markdown file: an example, whose one-word or relative
/// imports (`from workflows import X`, `from . import models`) name the example's modules.
pub const FENCE: u64 = 1 << 15;

/// Written capitalised (`Observer` for the name `observer`): a title word or the start of a
/// sentence, which names a thing only when said to be one (`Planner Agent`, a list of names),
/// or for an agent inside the skill that keeps it (`scan::refs`).
pub const CAPITAL: u64 = 1 << 16;

/// With `ENTITY`: which word it is next to (agent or subagent, skill, command, hook). The word
/// says what kind of thing the name is: "agent sessions" is no `sessions` command.
pub const AS_AGENT: u64 = 1 << 17;
pub const AS_SKILL: u64 = 1 << 18;
pub const AS_COMMAND: u64 = 1 << 19;
pub const AS_HOOK: u64 = 1 << 20;

/// Written in a run of plain words joined by `/` (`bug-hunter/verifier subagents`,
/// `status/evolve/export`): a list of alternatives unless the run leads somewhere on disk,
/// which only resolution can ask. `via` holds the whole run.
pub const SLASHED: u64 = 1 << 21;

/// After another's ("your planner", "its own observer", "the layer's"): someone else's thing,
/// not the one the tree defines. (Also `ANY`.)
pub const OTHERS: u64 = 1 << 25;

/// In code, right after a `.`: an attribute, a file's extension (`".xlsx"`, `open("in.pdf")`)
/// or a dotted module's part; never an agent's, command's or skill's name.
pub const DOTTED: u64 = 1 << 26;

/// In code, a string literal that holds the name alone (`spec.id == "tdd-workflow"`,
/// `{"skill_id": "xlsx"}`): a value the code compares or sends, not prose about the thing.
pub const LITERAL: u64 = 1 << 27;

/// Followed by a word that says it is a program of its own ("the `linear` cli", "the x
/// binary", "the rdkit library"): software the text runs or installs, not an agent, command or
/// skill of the tree.
pub const PROGRAM: u64 = 1 << 28;

/// A bare word of a shell line (a script's, or a fenced shell example's), outside a comment or
/// a string: a program or its argument (`task-master parse-prd x.txt`).
pub const SHELL_WORD: u64 = 1 << 29;

/// A module named in a Python file's prose ("the termui module", "use xml.dom.minidom"), not
/// by an import statement: from the root as an import would be, else the package's own.
pub const PROSE_MODULE: u64 = 1 << 30;

/// Bound through a package's entry point (`const express = require('../')`, `import
/// {HTTPError} from '../source/index.js'`): the name is the module of that package bearing
/// it, which the entry exports.
pub const ENTRY: u64 = 1 << 31;

/// The line speaks of a template ("Use template: …", "templates (9): PLAN, REQUIREMENTS"): the
/// only place a template's bare name is the template's, not the file it renders.
pub const TEMPLATE: u64 = 1 << 32;

/// The line speaks of a style (`/output-style genui`, `"outputStyle": "genui"`): an output
/// style is named there, and its name elsewhere is a word (a project's name, often).
pub const STYLE: u64 = 1 << 33;

/// The package of a Python `from P import a, b` statement: it names `P`'s `__init__.py` only
/// where some name imported is not a module of `P` (`from distutils import log` names `log.py`).
pub const FROM_PACKAGE: u64 = 1 << 34;

/// Run or installed by a package manager (`npx ruv-swarm`, `uvx ruff`, `pip install x`, the
/// client's `/plugin install x`): a published package, never a file of the tree by its bare
/// name.
pub const PACKAGE: u64 = 1 << 35;

/// A script of a `package.json` run by name (`npm run gen`, `pnpm gen:check`): with
/// `PACKAGE`, the name is the script's, and the file it is is the one the script's command
/// runs (`"gen": "tsx scripts/gen.ts"`), read from the manifest (`scan::refs`).
pub const SCRIPT: u64 = 1 << 47;
/// With `SCRIPT`: the name goes on with `:` and a word (`pnpm gen:check`), a script of that
/// group, not the script of the name itself.
pub const SCRIPT_GROUP: u64 = 1 << 52;

/// Followed by a section sign (`CLAUDE.md §phase control`, "README.md §3"): a section of one
/// document the writer has at hand, this tree's, not the kind of file any folder keeps.
pub const SECTION: u64 = 1 << 53;

/// A class used by the name of the module it is reached through (`Agent(…)` after `from
/// strands import Agent` or `from ..agent import Agent`): where that module is a package
/// keeping a module of its own name (`agent/agent.py`), that module defines the class.
pub const NAMESAKE: u64 = 1 << 37;

/// Run as a program: the first word of a command line or of a code span, a flag after it
/// (`session-metrics --compare a b`). A script of the name is what runs.
pub const RUN: u64 = 1 << 36;

/// In a comment of source code (not a string): prose of the code's author about it, where a
/// hyphenated name is a file's (`// Used by stage-pause-and-reflect`), never an identifier.
pub const COMMENT: u64 = 1 << 38;
/// A word of four or more capital letters standing alone (`MANIFEST + REGISTRY`), as a
/// project writes the documents it names in capitals; not a label (`EXAMPLES:`), a heading of
/// its own, a word of a shouted phrase ("DO NOT EDIT THIS FILE"), a variable (`$ROADMAP`), a
/// bracketed label (`[REFERENCE 2]`, a diagram's `PLUG[PLUGIN]`, `A --> REPAIR`), a call
/// (`TODO(human)`) or one of a path's alternatives (`{a,SUMMARY}.md`). In documents only: in
/// code such a word is a constant, in data a value.
pub const CAPS: u64 = 1 << 39;

/// The file name that closes a longer written path, in which another file's whole path is
/// the longest name found (`./templates/claude/agents/x.md`, where `agents/x.md` is a file):
/// that path is the mention's, decided by where the written path leads. The file name is asked
/// only that: whether the written path leads straight to a file of its name (the plugin's own
/// `templates/claude/agents/x.md`).
pub const TAIL: u64 = 1 << 40;

/// An entry of a drawn folder tree under a root line that is no folder of the tree
/// (`agent-config/` over `├── settings.json`): where the drawn path leads nowhere, the drawing
/// is of the writer's own folder under another name, and the entry leads from there.
pub const DRAWN: u64 = 1 << 41;

/// Written in lower case, a name borne in title case (`security-auditor` for an agent
/// `Security-Auditor`): how the client's things are written and invoked; a document's title
/// (`Aima-Tower.md`, notes on a project) is not named by the project's lower-case identifier.
pub const LOWERED: u64 = 1 << 42;

/// The word after an invocation (`/chronicle stale`, `` `/impeccable craft` ``): the invoked
/// thing's subcommand, which a skill may keep in a file of that name (`scripts/stale.ts`,
/// `reference/craft.md`). Which invocation is read from the line (`scan::refs`).
pub const ARG: u64 = 1 << 43;
/// After "global" or "user-level": the user's own file of the name, not the project's.
pub const GLOBAL: u64 = 1 << 44;
/// A file name after a bare dot (`git add .gitlab-ci.yml`, "a matching .test.sh"): a dotfile's
/// name, or the closing part of many files' names; the file of the name only where it is a
/// template that renders the dotfile (`templates/gitlab-ci.yml`).
pub const DOTFILE: u64 = 1 << 45;
/// A name declared in title case written as declared within a sentence ("I want Advocate to
/// have a skill", "(Scout)"): a proper name, the persona an agent is (`name: "Advocate"`),
/// however common the word. (At a sentence's or an item's start, or in a heading, it may be
/// the word: "Spike testing" beside an agent `Spike`.)
pub const PROPER: u64 = 1 << 46;

/// Nouns for kinds of file that folders are named after (`prompts/`, `templates/`): said right
/// after a name ("the issue-writer prompt"), one says which of the files of that name is meant:
/// the one kept in such a folder. Stored in the cue as its place in this list, plus one
/// (`FOLDER_NOUN_SHIFT`), 0 for none.
const FOLDER_NOUNS: [&str; 12] = [
    "prompt",
    "template",
    "script",
    "rule",
    "reference",
    "schema",
    "guide",
    "example",
    "fixture",
    "workflow",
    "spec",
    "doc",
];
const FOLDER_NOUN_SHIFT: u32 = 48;
const FOLDER_NOUN_MASK: u64 = 0xF << FOLDER_NOUN_SHIFT;

/// The bits that say the folder noun `w` (`prompt`, `Templates`) follows a name, 0 for none.
fn folder_noun_bits(w: &[u8]) -> u64 {
    let w = w.strip_suffix(b"s").unwrap_or(w);
    FOLDER_NOUNS
        .iter()
        .position(|n| w.eq_ignore_ascii_case(n.as_bytes()))
        .map_or(0, |i| (i as u64 + 1) << FOLDER_NOUN_SHIFT)
}

/// The folder noun said right after the name, singular (`prompt`), if any.
pub fn folder_noun(bits: u64) -> Option<&'static str> {
    let i = ((bits & FOLDER_NOUN_MASK) >> FOLDER_NOUN_SHIFT) as usize;
    i.checked_sub(1).and_then(|i| FOLDER_NOUNS.get(i).copied())
}

/// Written in a glob (`rules/*/coding-style.md`): a pattern of many files, never an edge.
pub const GLOB: u64 = 1 << 23;

/// A file extension (`inactivity-warning.html`, "use .zip or .html") or a code fence's
/// language (```` ```html ````): a kind of file, not the name of one; also another program's
/// `+argument`. Never an edge.
pub const LABEL: u64 = 1 << 24;

/// After an indefinite determiner or another's ("a CLAUDE.md", "each SKILL.md", "its own
/// CLAUDE.md", "the layer's CLAUDE.md"): the kind of file, or another folder's, not the root's.
pub const ANY: u64 = 1 << 22;

/// Any of the words that say which kind of thing a name is.
pub const KINDS: u64 = AS_AGENT | AS_SKILL | AS_COMMAND | AS_HOOK;

/// Written where no file is named whatever the bearers: a URL, a folder inside a path, a glob,
/// an extension or a fence's language.
pub const NO_NAME: u64 = URL | MIDPATH | GLOB | LABEL;

/// Any cue that says the name is used as the name of a thing.
pub const NAMED: u64 = CODE | QUOTED | SLASH | NAMESPACE | KEY | ENTITY | LIST;

/// What a cue says about one occurrence.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cue {
    pub bits: u64,
    pub via: Option<String>,
}

/// Source languages whose imports are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Python,
    Script,
    Shell,
    C,
    /// Other source code: bare words are identifiers, no imports are read.
    Other,
}

/// The language of a file by its extension, `None` for prose, data and configuration. A file
/// without an extension is code when its first bytes say so (`#!`, `//`, `/*`), as scripts
/// and C++ standard headers do.
pub fn lang_of(path: &str, head: &[u8]) -> Option<Lang> {
    let base = path.rsplit('/').next().unwrap_or(path);
    let ext = match base.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => ext.to_ascii_lowercase(),
        _ => {
            let first = head.split(|b| *b == b'\n').next().unwrap_or(&[]);
            return if first.starts_with(b"#!") {
                if contains(first, b"python") {
                    Some(Lang::Python)
                } else if contains(first, b"node") {
                    Some(Lang::Script)
                } else if contains(first, b"sh") {
                    Some(Lang::Shell)
                } else {
                    Some(Lang::Other)
                }
            } else if head.starts_with(b"//") || head.starts_with(b"/*") {
                Some(Lang::C)
            } else {
                None
            };
        }
    };
    Some(match ext.as_str() {
        "py" | "pyi" => Lang::Python,
        "js" | "mjs" | "cjs" | "jsx" | "ts" | "tsx" | "mts" | "cts" => Lang::Script,
        // (A bats test file is a Bash script with `@test` blocks.)
        "sh" | "bash" | "zsh" | "bats" => Lang::Shell,
        "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" | "tcc" | "ipp" | "inl" | "tpp"
        | "m" | "mm" => Lang::C,
        // Prose, data and configuration: bare names of agents, skills and documents count here.
        "md" | "mdx" | "markdown" | "txt" | "text" | "rst" | "adoc" | "org" | "yaml" | "yml"
        | "json" | "jsonc" | "jsonl" | "toml" | "html" | "htm" | "xml" | "csv" | "tsv" | "ini"
        | "cfg" | "conf" | "env" | "lock" | "log" | "tex" | "svg" | "j2" | "jinja" | "tmpl"
        | "template" | "bak" | "orig" | "example" | "sample" => return None,
        // Everything else with an extension is source of some language: a bare word there is
        // an identifier of that code.
        _ => Lang::Other,
    })
}

/// The language of each part of a file: its own (`lang_of`), and in Markdown the language of
/// each fenced code block that names a programming language (```` ```python ````), whose lines
/// are code, not prose: `assert result["status"] == "ok"` in a style guide is no mention of a
/// `status` command, and `from myapp.models import User` is an import of another project.
/// Unlabelled fences and data or diagram fences (yaml, json, mermaid) stay prose.
#[derive(Debug, Clone, Default)]
pub struct FileLangs {
    base: Option<Lang>,
    /// `(start, end, lang)` byte ranges of fenced code, in order.
    fences: Vec<(usize, usize, Lang)>,
}

impl FileLangs {
    pub fn of(path: &str, bytes: &[u8]) -> FileLangs {
        let base = lang_of(path, &bytes[..bytes.len().min(256)]);
        let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        let markdown = matches!(ext.as_deref(), Some("md" | "mdx" | "markdown"));
        let fenced = memchr::memmem::find(bytes, b"```").is_some()
            || memchr::memmem::find(bytes, b"~~~").is_some();
        let fences = if base.is_none() && markdown && fenced {
            code_fences(bytes)
        } else {
            Vec::new()
        };
        FileLangs { base, fences }
    }

    /// The language at byte `at`.
    pub fn at(&self, at: usize) -> Option<Lang> {
        if self.fences.is_empty() {
            return self.base;
        }
        let i = self.fences.partition_point(|f| f.1 <= at);
        match self.fences.get(i) {
            Some(&(s, e, l)) if s <= at && at < e => Some(l),
            _ => self.base,
        }
    }

    /// The fenced code of a document: `(start, end, language)`, in order.
    pub fn fences(&self) -> &[(usize, usize, Lang)] {
        &self.fences
    }

    /// The file's own language.
    pub fn base(&self) -> Option<Lang> {
        self.base
    }

    /// The cue of the occurrence `bytes[s..e]` in this file (`cue_in` with the language of
    /// the part it is in, and `FENCE` inside fenced code).
    pub fn cue(&self, bytes: &[u8], s: usize, e: usize, is_data_file: bool) -> Cue {
        let lang = self.at(s);
        let mut c = cue_in(bytes, s, e, lang, is_data_file);
        if lang != self.base {
            c.bits |= FENCE;
        }
        c
    }
}

/// The programming language a fence's info string names, if any.
fn fence_lang(info: &[u8]) -> Option<Lang> {
    let word: Vec<u8> = info
        .iter()
        .copied()
        .skip_while(|b| matches!(b, b' ' | b'\t' | b'{' | b'.'))
        .take_while(|b| !matches!(b, b' ' | b'\t' | b'{' | b'}' | b',' | b'\r'))
        .map(|b| b.to_ascii_lowercase())
        .collect();
    Some(match word.as_slice() {
        b"python" | b"py" | b"python3" | b"pycon" | b"ipython" => Lang::Python,
        b"js" | b"javascript" | b"jsx" | b"ts" | b"typescript" | b"tsx" | b"mjs" | b"cjs"
        | b"node" => Lang::Script,
        b"sh" | b"bash" | b"shell" | b"zsh" | b"console" | b"shell-session" | b"fish" | b"ksh" => {
            Lang::Shell
        }
        b"c" | b"h" | b"cpp" | b"c++" | b"cc" | b"cxx" | b"hpp" | b"objc" | b"objective-c" => {
            Lang::C
        }
        b"go" | b"golang" | b"rust" | b"rs" | b"java" | b"kotlin" | b"kt" | b"swift" | b"ruby"
        | b"rb" | b"php" | b"scala" | b"cs" | b"csharp" | b"c#" | b"sql" | b"lua" | b"perl"
        | b"dart" | b"elixir" | b"haskell" | b"clojure" | b"groovy" | b"r" => Lang::Other,
        _ => return None,
    })
}

/// Fenced code blocks (CommonMark: three or more backticks or tildes, indented at most three
/// spaces, closed by a run of the same character at least as long) whose info string names a
/// programming language: `(first byte of the block's body, end of its body, language)`.
fn code_fences(bytes: &[u8]) -> Vec<(usize, usize, Lang)> {
    let mut out = Vec::new();
    // (fence char, run length, body start, language)
    let mut open: Option<(u8, usize, usize, Option<Lang>)> = None;
    let mut pos = 0;
    while pos < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
        let line = &bytes[pos..end];
        let indent = line.iter().take_while(|b| **b == b' ').count();
        let rest = &line[indent.min(line.len())..];
        let ch = rest.first().copied().filter(|c| *c == b'`' || *c == b'~');
        let run = ch.map_or(0, |c| rest.iter().take_while(|b| **b == c).count());
        let next = (end + 1).min(bytes.len());
        match (open, ch) {
            (Some((oc, olen, body, lang)), Some(c))
                if indent <= 3
                    && c == oc
                    && run >= olen
                    && rest[run..].iter().all(|b| b.is_ascii_whitespace()) =>
            {
                if let Some(l) = lang {
                    out.push((body, pos, l));
                }
                open = None;
            }
            (None, Some(c)) if indent <= 3 && run >= 3 => {
                let info = &rest[run..];
                // A backtick fence's info string holds no backtick.
                if c == b'~' || !info.contains(&b'`') {
                    open = Some((c, run, next, fence_lang(info)));
                }
            }
            _ => {}
        }
        pos = next;
        if end == bytes.len() {
            break;
        }
    }
    // An unclosed fence runs to the end of the file (CommonMark).
    if let Some((_, _, body, Some(l))) = open {
        out.push((body, bytes.len(), l));
    }
    out
}

const ENTITY_WORDS: &[(&str, u64)] = &[
    ("agent", AS_AGENT),
    ("agents", AS_AGENT),
    ("subagent", AS_AGENT),
    ("subagents", AS_AGENT),
    ("sub-agent", AS_AGENT),
    ("sub-agents", AS_AGENT),
    // Keys that take an agent's name (`subagent_type='planner'`), also in camel case
    // (`{ agentType: "p:reviewer" }`).
    ("subagent_type", AS_AGENT),
    ("agent_type", AS_AGENT),
    ("agent_name", AS_AGENT),
    ("skill_name", AS_SKILL),
    ("command_name", AS_COMMAND),
    ("subagentType", AS_AGENT),
    ("agentType", AS_AGENT),
    ("agentName", AS_AGENT),
    ("skillName", AS_SKILL),
    ("commandName", AS_COMMAND),
    ("skill", AS_SKILL),
    ("skills", AS_SKILL),
    ("command", AS_COMMAND),
    ("commands", AS_COMMAND),
    ("hook", AS_HOOK),
    ("hooks", AS_HOOK),
];

/// Nouns that, right after a name, say it names something that is no file of the tree.
const OTHER_KINDS: &[&str] = &[
    "job",
    "jobs",
    "target",
    "targets",
    "flag",
    "flags",
    "option",
    "options",
    "variable",
    "variables",
    "field",
    "fields",
    "column",
    "columns",
    "branch",
    "branches",
    "endpoint",
    "endpoints",
    "event",
    "events",
    "property",
    "properties",
    "parameter",
    "parameters",
    "argument",
    "arguments",
    "attribute",
    "attributes",
];

/// The word after a pair (`` and `docker` jobs `` after `e2e`): the kind both are.
fn kind_after_pair(after: &[u8]) -> &[u8] {
    let w = first_word(after);
    if !one_of(w, &["and", "or"]) {
        return b"";
    }
    let rest = trim_decor_start(&after[w.len()..]);
    let other = first_word(rest);
    if other.is_empty() {
        return b"";
    }
    first_word(trim_decor_start(&rest[other.len()..]))
}

const KEY_WORDS: &[&str] = &[
    "subagent_type",
    "subagent",
    "agent",
    "agents",
    "agent_type",
    "agent_name",
    "skill_name",
    "command_name",
    "subagentType",
    "agentType",
    "agentName",
    "skillName",
    "commandName",
    "skill",
    "skills",
    "command",
    "commands",
    "hook",
    "hooks",
];

/// The key of an array that `before` (a line up to an item, its opening quote trimmed) is
/// inside, past its earlier items: `SKILLS+=("a" "` and `skills = ["a", ` give the variable.
fn array_key(before: &[u8]) -> Option<&[u8]> {
    let open = before.iter().rposition(|b| matches!(b, b'(' | b'['))?;
    let items = &before[open + 1..];
    let plain = |b: &u8| b.is_ascii_alphanumeric() || b"-_.:/ ,\"'".contains(b);
    if !items.iter().all(plain) || !items.iter().any(|b| matches!(b, b'"' | b'\'')) {
        return None;
    }
    let head = before[..open].trim_ascii_end();
    let head = head
        .strip_suffix(b"=")
        .or_else(|| head.strip_suffix(b":"))?;
    Some(trim_decor_end(head.strip_suffix(b"+").unwrap_or(head)))
}

/// The kind a variable's name ends with (`RECOMMENDED_SKILLS`, `reviewAgents`,
/// `pre_commit_hooks`), as its cue bit.
fn kind_named_variable(w: &[u8]) -> Option<u64> {
    let snake = w.iter().rposition(|b| *b == b'_').map(|i| &w[i + 1..]);
    let camel = w
        .iter()
        .rposition(|b| b.is_ascii_uppercase())
        .filter(|i| *i > 0 && w[..*i].iter().any(|b| b.is_ascii_lowercase()))
        .map(|i| &w[i..]);
    let kinds = [
        ("skills", AS_SKILL),
        ("agents", AS_AGENT),
        ("subagents", AS_AGENT),
        ("commands", AS_COMMAND),
        ("hooks", AS_HOOK),
    ];
    let last = snake.or(camel)?;
    kinds
        .iter()
        .find(|(k, _)| last.eq_ignore_ascii_case(k.as_bytes()))
        .map(|(_, bit)| *bit)
}

#[inline]
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

#[inline]
pub(crate) fn is_path_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'_' | b'-' | b'.' | b'/' | b'~' | b'$' | b'{' | b'}' | b'@' | b'+'
        )
}

/// The invoked word a word at `at` follows by one space (`/chronicle stale`,
/// `/marketing:impeccable craft`), if any: `/` opens the line, a span or a parenthesis, or
/// follows a blank (not a path's last folder, `src/lib stale`).
pub fn invoked_before(line: &[u8], at: usize) -> Option<&[u8]> {
    let b = at.checked_sub(1).filter(|b| line[*b] == b' ')?;
    let mut i = b;
    while i > 0 && (is_word_byte(line[i - 1]) || line[i - 1] == b':') {
        i -= 1;
    }
    let opens = |j: usize| {
        j == 0
            || matches!(
                line[j - 1],
                b' ' | b'\t' | b'`' | b'(' | b'"' | b'\'' | b'*' | b'['
            )
    };
    let word = &line[i..b];
    (i < b && i >= 1 && line[i - 1] == b'/' && opens(i - 1) && word[0].is_ascii_alphabetic())
        .then(|| word.rsplit(|c| *c == b':').next().unwrap_or(word))
        .filter(|w| !w.is_empty())
}

/// The cue of the occurrence `hay[s..e]` of a name, in a file whose language is `lang`.
#[cfg(test)]
pub fn cue_at(hay: &[u8], s: usize, e: usize, lang: Option<Lang>) -> Cue {
    cue_in(hay, s, e, lang, false)
}

/// Whether `line[s..e]` is one of a path's brace alternatives under a placeholder
/// (`<slug>/{spec,retro}.md`): inside `{…}` with a comma, of path bytes only, the braces joined
/// to a path that a placeholder for a folder heads.
fn in_brace_set(line: &[u8], s: usize, e: usize) -> bool {
    let set_byte =
        |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/' | b',');
    let Some(open) = line[..s].iter().rposition(|b| !set_byte(*b)) else {
        return false;
    };
    let Some(close) = line[e..].iter().position(|b| !set_byte(*b)).map(|i| e + i) else {
        return false;
    };
    if line[open] != b'{' || line[close] != b'}' {
        return false;
    }
    let set = &line[open + 1..close];
    let joined = open >= 1 && line[open - 1] == b'/'
        || matches!(line.get(close + 1), Some(b'.' | b'/' | b'-' | b'_'));
    // The path's start, left of the braces, under a placeholder (`<slug>/`).
    let mut ts = open;
    while ts > 0 && (is_path_byte(line[ts - 1]) && line[ts - 1] != b'{') {
        ts -= 1;
    }
    let placeholder = (ts..open).any(|i| placeholder_before(line, i).is_some());
    set.contains(&b',') && joined && placeholder
}

/// The path a brace alternative expands to, when `line[s..e]` is one whole alternative of a
/// set joined to a path (`agents/{plan-reviewer,code-reviewer}.md`, `skills/{a,b}/SKILL.md`):
/// the path's start left of the braces, the name, and what follows the braces, with where the
/// path starts. Only a path: a bare set (`{1,3}`, `{ts,tsx}` after a dot) is no file's.
fn brace_alternative(line: &[u8], s: usize, e: usize) -> Option<(usize, String)> {
    // (Alternatives may be spaced after their commas: `rules/{counting, stat-bars}`.)
    let set_byte =
        |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b',' | b' ');
    let before = line[..s].trim_ascii_end();
    let spaced = before.len() < s && before.last() == Some(&b',');
    if s == 0
        || !(matches!(line[s - 1], b'{' | b',') || spaced)
        || !matches!(line.get(e), Some(b',' | b'}'))
    {
        return None;
    }
    let open = line[..s].iter().rposition(|b| !set_byte(*b))?;
    let close = e + line[e..].iter().position(|b| !set_byte(*b))?;
    let set = &line[open + 1..close];
    let commas_only = set
        .windows(2)
        .all(|w| w[1] != b' ' || matches!(w[0], b',' | b' '));
    if line[open] != b'{'
        || line[close] != b'}'
        || !set.contains(&b',')
        || !commas_only
        || set.first() == Some(&b' ')
    {
        return None;
    }
    let plain = |b: u8| is_path_byte(b) && !matches!(b, b'{' | b'}');
    let mut ps = open;
    while ps > 0 && plain(line[ps - 1]) {
        ps -= 1;
    }
    let mut se = close + 1;
    while se < line.len() && plain(line[se]) {
        se += 1;
    }
    // (A sentence's full stop or a list's comma is no part of the path.)
    while se > close + 1 && matches!(line[se - 1], b'.' | b',') {
        se -= 1;
    }
    // A glob around the set (`{src,test}/**/*.ts`, `*.{js,ts}`) is a pattern of many files.
    if line.get(se) == Some(&b'*') || ps > 0 && line[ps - 1] == b'*' {
        return None;
    }
    let (prefix, suffix) = (&line[ps..open], &line[close + 1..se]);
    if !prefix.contains(&b'/') && !suffix.contains(&b'/') || suffix.ends_with(b"/") {
        return None;
    }
    let path = [prefix, &line[s..e], suffix].concat();
    Some((ps, String::from_utf8(path).ok()?))
}

/// Whether what follows a name places it at the root ("`CLAUDE.md` at project root", "… in
/// the repository root"), as "the project's" before it does.
fn at_project_root(after: &[u8]) -> bool {
    let after = trim_decor_start(after).trim_ascii_start();
    let mut words = after
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let end = w
                .iter()
                .rposition(u8::is_ascii_alphanumeric)
                .map_or(0, |i| i + 1);
            &w[..end]
        });
    let (Some(at), Some(mut w)) = (words.next(), words.next()) else {
        return false;
    };
    if !one_of(at, &["at", "in"]) {
        return false;
    }
    if one_of(w, &["the", "your"]) {
        let Some(n) = words.next() else { return false };
        w = n;
    }
    one_of(w, &["project", "repository", "repo"])
        && words.next().is_some_and(|r| one_of(r, &["root"]))
}

/// Where a placeholder written in angle or square brackets starts, when one ends right before
/// the path at `ts` (`<skill-base-dir>` before `/scripts/x.sh`): a word of name bytes only, so
/// a tag with attributes (`<a href>`), a link's text or a comparison is none.
fn placeholder_before(line: &[u8], ts: usize) -> Option<usize> {
    if line.get(ts) != Some(&b'/') || ts < 3 {
        return None;
    }
    let open = match line[ts - 1] {
        b'>' => b'<',
        b']' => b'[',
        _ => return None,
    };
    let mut p = ts - 1;
    while p > 0 && is_word_byte(line[p - 1]) {
        p -= 1;
    }
    if p == 0 || p == ts - 1 || line[p - 1] != open {
        return None;
    }
    // A whole folder's name, not part of one (`/tmp/run-<uid>/x`).
    if p >= 2 && is_path_byte(line[p - 2]) && line[p - 2] != b'/' {
        return None;
    }
    // An element that closes (`<string>/Users/x</string>` in a plist) is markup.
    let close = [b"</", &line[p..ts - 1], b">"].concat();
    (open == b'[' || !contains(line, &close)).then_some(p - 1)
}

/// Whether a line of a script is a comment line (`//`, `/*`, ` * `).
fn is_comment_line(line: &[u8]) -> bool {
    let t = line.trim_ascii_start();
    t.starts_with(b"//") || t.starts_with(b"/*") || t.starts_with(b"*")
}

/// Whether the token starting at `ts` follows an invocation's namespace: `/word:` right
/// before it, at the start of the line or after a space or decoration.
fn invoked_namespace(line: &[u8], ts: usize) -> bool {
    if ts < 3 || line[ts - 1] != b':' {
        return false;
    }
    let mut w = ts - 1;
    while w > 0 && is_word_byte(line[w - 1]) {
        w -= 1;
    }
    w < ts - 1
        && w >= 1
        && line[w - 1] == b'/'
        && (w == 1 || !is_path_byte(line[w - 2]) && line[w - 2] != b':')
}

/// Whether a path names a data file (JSON, YAML, TOML), whose quotes are syntax, not a cue.
pub fn is_data(path: &str) -> bool {
    let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    matches!(
        ext.as_deref(),
        Some("json" | "jsonc" | "jsonl" | "yaml" | "yml" | "toml")
    )
}

/// `cue_at`, knowing whether the file is a data file (see `is_data`).
pub fn cue_in(hay: &[u8], s: usize, e: usize, lang: Option<Lang>, is_data_file: bool) -> Cue {
    let ls = memchr::memrchr(b'\n', &hay[..s]).map_or(0, |i| i + 1);
    let le = memchr::memchr(b'\n', &hay[e..]).map_or(hay.len(), |i| e + i);
    let line = &hay[ls..le];
    let (s, e) = (s - ls, e - ls);
    let mut cue = Cue::default();
    // In source code, comments and string literals are prose: names count there as they do in
    // a document; elsewhere a bare word is an identifier of the code.
    // A name with a `-` is no identifier of most languages (`data-engineer`): a name there too.
    // A shell script's bare words are literals (arguments, `case` labels), not identifiers.
    if lang.is_some() {
        cue.bits |= SOURCE;
    }
    let prose = lang.and_then(|l| prose_at(line, s, e, l));
    if prose == Some(Prose::Comment) {
        cue.bits |= COMMENT;
    }
    if lang.is_some_and(|l| l != Lang::Shell) && prose.is_none() && !line[s..e].contains(&b'-') {
        cue.bits |= CODE_FILE;
    }
    if lang == Some(Lang::Shell) && prose.is_none() {
        cue.bits |= SHELL_WORD;
    }
    if lang.is_none() && !is_data_file && in_capitals(line, s, e) {
        cue.bits |= CAPS;
    }
    // (Words of code, most of a code tree's occurrences, name no template and no style.)
    if cue.bits & CODE_FILE == 0 {
        if says(line, &TEMPLATE_WORD) {
            cue.bits |= TEMPLATE;
        }
        if says(line, &STYLE_WORD) {
            cue.bits |= STYLE;
        }
    }
    if lang.is_some() && s >= 1 && line[s - 1] == b'.' {
        cue.bits |= DOTTED;
    }
    if lang.is_some()
        && s >= 1
        && matches!(line[s - 1], b'"' | b'\'')
        && line.get(e) == Some(&line[s - 1])
    {
        cue.bits |= LITERAL;
    }
    // The written token around the name: path bytes to the left, and whether a URL holds it.
    let mut ts = s;
    while ts > 0 && is_path_byte(line[ts - 1]) {
        ts -= 1;
    }
    // A variable with a default (`${CLAUDE_PLUGIN_ROOT:-.}/hooks/x.sh`) starts the path.
    if ts >= 1 && line[ts - 1] == b':' {
        let mut v = ts - 1;
        while v > 0 && (line[v - 1].is_ascii_alphanumeric() || line[v - 1] == b'_') {
            v -= 1;
        }
        if v >= 2 && line[v - 1] == b'{' && line[v - 2] == b'$' {
            ts = v - 2;
        }
    }
    // A placeholder for a folder (`<skill-base-dir>/scripts/x.sh`, `[SKILL_DIR]/x`) is part of
    // the path it heads, as a variable is; `{name}` is already a path's bytes.
    while let Some(p) = placeholder_before(line, ts) {
        ts = p;
        while ts > 0 && is_path_byte(line[ts - 1]) {
            ts -= 1;
        }
    }
    // A quoted path may hold spaces (`"My Notes/release plan.md"`): take it whole when the
    // quote closes right after the name.
    if let Some(q) = quoted_start(line, ts, e) {
        ts = q;
    }
    // The name is a URL's scheme (`http://…`): no file of the tree.
    if is_url(line, ts, s) || line[e..].starts_with(b"://") {
        cue.bits |= URL;
        return cue;
    }
    // An extension or a fence's language names a kind of file (in prose and data: in code,
    // `a.b` is an attribute, decided elsewhere).
    // A dotted name after the dot (`.gitlab-ci.yml`) is a dotfile's, decided below.
    if lang.is_none()
        && (s >= 1
            && line[s - 1] == b'.'
            && !line.get(e).is_some_and(|b| is_word_byte(*b))
            && !line[s..e].contains(&b'.')
            || line[..s].trim_ascii_start().starts_with(b"```"))
    {
        cue.bits |= LABEL;
        return cue;
    }
    if s >= 1
        && line[s - 1] == b'.'
        && (s == 1 || !is_path_byte(line[s - 2]))
        && line[s..e].contains(&b'.')
    {
        cue.bits |= DOTFILE;
    }
    // A glob with a wildcard among its folders or for a file name (`rules/*/coding-style.md`,
    // `.claude/rules/*.md`) is a pattern of many files, not one: no reference to any, and no
    // tie between them. A leading `*/` (`*/sympy/printing/x.py`) still ends in one path.
    if ts >= 2
        && line[ts - 1] == b'*'
        && line[ts - 2] == b'/'
        && matches!(line.get(ts), Some(b'/' | b'.'))
    {
        cue.bits |= GLOB;
        return cue;
    }
    // So is a set of alternatives in a path under a placeholder (`<slug>/{spec,retro}.md`):
    // brace expansion of a path that is no one's yet. (Under real folders,
    // `commands/{research,design}.md` names each of those files, read as the path it expands to.)
    if in_brace_set(line, s, e) {
        cue.bits |= GLOB;
        return cue;
    }
    let token = &line[ts..e];
    // `+name` in prose is another program's argument (`gws workflow +standup-report`), as
    // `--name` is a flag: a plus sign marks no file, agent or command of the tree.
    if lang.is_none() && ts + 1 == s && line[ts] == b'+' {
        cue.bits |= LABEL;
        return cue;
    }
    // A placeholder (`<PLANS_DIR>/<session-id>-outline.md`, `--skill <skill-name>`) stands for
    // a value to fill in, as a tag (`<example>`) is markup: no file of that name. (A component
    // or a type in camel case, `<ListSkeleton>`, `Array<Foo>`, is the thing of that name.)
    let word = &line[s..e];
    let camel =
        word.first().is_some_and(u8::is_ascii_uppercase) && word.iter().any(u8::is_ascii_lowercase);
    if s >= 1 && line[s - 1] == b'<' && line.get(e) == Some(&b'>') && !camel {
        cue.bits |= LABEL;
        return cue;
    }
    // So is a closing tag (`lines.push("</debug>")`): markup, not `/debug` invoked.
    if s >= 2 && line[s - 1] == b'/' && line[s - 2] == b'<' && line.get(e) == Some(&b'>') && !camel
    {
        cue.bits |= LABEL;
        return cue;
    }
    // A link to an anchor of the same page (`[Accessibility Testing](#accessibility-testing)`,
    // `href="#setup"`) names a heading there, not a file.
    if s >= 2 && line[s - 1] == b'#' && matches!(line[s - 2], b'(' | b'"' | b'\'') {
        cue.bits |= LABEL;
        return cue;
    }
    // In prose, before a colon and a word, a name is a namespace or a group of something
    // else's (`hygiene:quick`, an npm script; `docs:update`): a plugin or a folder of commands,
    // never the file of the name. (A file's line, `server.cjs:42`, and a key, `planner: plans`,
    // are not such; nor the middle of `a:b:c`, nor a module's object, `pkg.config:Base`, or
    // an entry point in data or code, `"cli:main"`. A script run by name, `pnpm gen:check`,
    // is a script's group, decided below.)
    if lang.is_none()
        && !is_data_file
        && line.get(e) == Some(&b':')
        && line.get(e + 1).is_some_and(u8::is_ascii_alphabetic)
        && !word.contains(&b'.')
        && (s == 0 || !matches!(line[s - 1], b':' | b'/' | b'.'))
        && !script_run(&line[..s])
    {
        cue.bits |= LABEL;
        return cue;
    }
    // Where the name's own decoration starts: `/name`, `p:name`, `/p:name`.
    let mut a = s;
    // In code, `a:b` is a slice or a label (`x[index:index]`), not a namespace.
    // (Nor is a file name's: `"CLAUDE.md:UPSTREAM-CLAUDE.md"` maps one file to another.)
    let namespace_at = |s: usize| {
        let mut ps = s - 1;
        while ps > 0 && is_word_byte(line[ps - 1]) {
            ps -= 1;
        }
        (ps == 0 || line[ps - 1] != b'.').then_some(ps)
    };
    let namespace = (s >= 2 && line[s - 1] == b':' && is_word_byte(line[s - 2]))
        .then(|| namespace_at(s))
        .flatten();
    if let Some(ps) = namespace.filter(|_| cue.bits & CODE_FILE == 0) {
        cue.bits |= NAMESPACE;
        cue.via = Some(format!("{}:", String::from_utf8_lossy(&line[ps..s - 1])));
        a = ps;
        if a >= 1 && line[a - 1] == b'/' && (a == 1 || !is_path_byte(line[a - 2])) {
            cue.bits |= SLASH;
            a -= 1;
        }
    } else if token.len() > e - s && token.contains(&b'/') {
        let lead_slash_only =
            token[0] == b'/' && token.len() == e - s + 1 && !token[1..].contains(&b'/');
        // The folder a shell substitution prints (`$(cd "$(dirname "$0")/.." && pwd)/x`).
        let subst = (token[0] == b'/')
            .then(|| substituted_folder(line, ts))
            .flatten();
        if let Some(folder) = subst {
            let path = String::from_utf8_lossy(token);
            // (The repository's folder: the path from the root, not an absolute one.)
            cue.via = Some(if folder.is_empty() {
                path.trim_start_matches('/').to_string()
            } else {
                format!("{folder}{path}")
            });
            a = ts;
        } else if lead_slash_only && (http_method_before(line, ts) || page_after(line, e)) {
            // `GET /projects`, `POST /emails`: a route of a web API, part of a URL.
            cue.bits |= URL;
            return cue;
        } else if lead_slash_only && !token[1..].contains(&b'.') {
            // `/librarian:ask`: the word before the colon is the command's namespace (a
            // plugin, a folder of commands), not an agent's or a skill's name; so is it before
            // a placeholder (`/sc:*`, `/sc:<command>`, `/sc:{name}`).
            if line.get(e) == Some(&b':')
                && line
                    .get(e + 1)
                    .is_some_and(|b| is_word_byte(*b) || matches!(b, b'*' | b'<' | b'{' | b'['))
            {
                cue.bits |= LABEL;
                return cue;
            }
            cue.bits |= SLASH;
            a = ts;
        } else if !lead_slash_only {
            let t = token.strip_prefix(b"@").unwrap_or(token);
            cue.via = Some(String::from_utf8_lossy(t).into_owned());
            a = ts;
            // `/project:tm/learn`: a path of commands after an invocation's namespace, as the
            // client once named a command in a subfolder; where it leads nowhere, its last
            // word is still the command invoked (`scan::refs`).
            if invoked_namespace(line, ts) {
                cue.bits |= SLASH;
            }
        }
    } else if token.len() == e - s && token.contains(&b'/') {
        // The name itself is a path (`skills/x/SKILL.md`).
        cue.via = Some(String::from_utf8_lossy(token).into_owned());
    } else if lang.is_none() && token.len() == e - s + 1 && token[0] == b'$' {
        // `$name` in prose or data is how Codex invokes a skill ("Use $msg to check my
        // inbox"), as `/name` is the client's: an invocation mark (a slash names no plain file).
        cue.bits |= SLASH;
        a = ts;
    }
    if a == s && cue.via.is_none() && invoked_before(line, s).is_some() {
        cue.bits |= ARG;
    }
    // One alternative of a path's brace set (`agents/{plan-reviewer,code-reviewer}.md`) is the
    // path it expands to: `agents/plan-reviewer.md`.
    if let Some((ps, path)) = brace_alternative(line, s, e) {
        cue.via = Some(path);
        a = ps;
    }
    // In a script, backticks outside a comment are a template literal (`` `sessions: ${n}` ``),
    // not a code span.
    let template_literal = lang == Some(Lang::Script) && !is_comment_line(line);
    if !template_literal && in_code_span(line, a, e) && code_span_is_one_word(line, a, e) {
        cue.bits |= CODE;
    }
    // Quotes, but not a key (`"scan": "pending"`), and not in a data file or source code, where
    // every string is quoted (`"keywords": ["review", …]`, `result["status"]`).
    if a >= 1
        && !is_data_file
        && lang.is_none()
        && e < line.len()
        && matches!(line[a - 1], b'"' | b'\'')
        && line[e] == line[a - 1]
        && line.get(e + 1) != Some(&b':')
    {
        cue.bits |= QUOTED;
    }
    // Code divides (`total/count`) and a code span holds a path (`swift/security`); prose lists
    // alternatives.
    // (Any code span: `"media_type": "application/pdf"` holds a type, not alternatives.)
    // A shell command's run of three or more words joined by `/` is a path
    // (`refs/heads/handoff/p/x`), whatever else it is in a comment.
    let shell_code = lang == Some(Lang::Shell) && !line.trim_ascii_start().starts_with(b"#");
    let slashed = slashed_run(line, ts, e).filter(|run| {
        let path = shell_code && run.iter().filter(|b| **b == b'/').count() >= 2;
        cue.bits & (CODE_FILE | CODE) == 0 && !path && !in_code_span(line, ts, e)
    });
    if let Some(run) = slashed {
        cue.bits |= SLASHED;
        cue.via = Some(String::from_utf8_lossy(run).into_owned());
    } else if line.get(e) == Some(&b'/') {
        if line.get(e + 1).is_some_and(|b| is_path_byte(*b)) {
            cue.bits |= MIDPATH;
        } else {
            cue.bits |= FOLDER;
        }
    }
    let before = trim_decor_end(&line[..a]);
    let key = before
        .strip_suffix(b":")
        .or_else(|| before.strip_suffix(b"="))
        .map(|k| trim_decor_end(k.strip_suffix(b"+").unwrap_or(k)))
        .or_else(|| array_key(before));
    if let Some(k) = key {
        let w = last_word(k);
        if KEY_WORDS
            .iter()
            .any(|kw| w.eq_ignore_ascii_case(kw.as_bytes()))
        {
            // The key says the kind too: `skill: x`, "### Command: `/x`".
            cue.bits |= KEY | entity_kind(w) & !ENTITY;
        } else if let Some(kind) = kind_named_variable(w) {
            // So does a variable named for the kind: `RECOMMENDED_SKILLS+=("x")`,
            // `const reviewAgents = ["x"]`.
            cue.bits |= KEY | kind;
        }
    }
    if after_package_manager(&line[..a]) {
        cue.bits |= PACKAGE;
    }
    if script_run(&line[..a]) {
        cue.bits |= PACKAGE | SCRIPT;
        if line.get(e) == Some(&b':') && line.get(e + 1).is_some_and(|b| !b.is_ascii_whitespace()) {
            cue.bits |= SCRIPT_GROUP;
        }
    }
    // In shell code, the first word of a command line is the program it runs, whatever
    // follows (`ai-coding-usage query "…"`).
    let lead = line[..a].trim_ascii();
    let shell_command = lang == Some(Lang::Shell)
        && lead
            .strip_prefix(b"$")
            .unwrap_or(lead)
            .trim_ascii()
            .is_empty()
        && (line[e..].is_empty() || line[e..].starts_with(b" "))
        && !is_comment_line(line);
    if run_as_program(&line[..a], &line[e..], !template_literal) || shell_command {
        cue.bits |= RUN;
    }
    // A name followed by a command line's options, run by a script (`workflow_cli.js
    // spec-review --choice`, `cli.js --root "$PWD" spec-review --choice`) or in a program's
    // argument list (`['spec-review', '--choice', …]`), is that program's subcommand: the
    // client's agents, skills and commands are no arguments of a program. Not an option's
    // value (`--agent reviewer --print`), nor a word after a subcommand (`gsd-tools.cjs
    // resolve-model gsd-debugger --raw`: the agent whose model it resolves), nor a name that
    // starts its command ("`register-mcp --force` restores it": the command run with its flag).
    if a == s
        && cue.via.is_none()
        && !option_value_before(&line[..s])
        && (lang.is_some() && argv_options_after(&line[e..])
            || options_after(&line[e..]) && subcommand_place(&line[..s]))
    {
        cue.bits |= PROGRAM;
    }
    let prev = last_word(before);
    // A kind in parentheses says it too (`/dead-code-auditor` (sub-agent)).
    let after = trim_decor_start(&line[e..]);
    let next = first_word(after.strip_prefix(b"(").unwrap_or(after));
    // What is spawned is an agent ("spawn `p:reviewer`"); what spawns may be anything.
    let spawned = if one_of(prev, &["spawn", "spawns", "spawning", "spawned"]) {
        AS_AGENT
    } else {
        0
    };
    cue.bits |= folder_noun_bits(next);
    let kinds = entity_kind(prev) | entity_kind(next) | row_kind(line, a) | spawned;
    if kinds != 0 {
        cue.bits |= ENTITY | kinds;
    }
    let owner = match before.strip_suffix(b"'s") {
        Some(b) => last_word(b),
        None => prev,
    };
    if one_of(
        owner,
        &["root", "top-level", "project", "repository", "repo"],
    ) || at_project_root(&line[e..])
    {
        cue.bits |= ROOT;
    }
    if one_of(next, &["directory", "folder", "dir"]) {
        cue.bits |= FOLDER;
    }
    // "the rdkit library", "the x package", "the security-scanner plugin": software of its
    // own, not a skill or an agent of the tree (a module or a package folder of the tree is no
    // agent, command or skill: these words do not unname a file otherwise, `scan::refs`).
    if one_of(
        next,
        &[
            "cli",
            "binary",
            "library",
            "libraries",
            "package",
            "sdk",
            "plugin",
        ],
    ) {
        cue.bits |= PROGRAM;
    }
    // `name@marketplace`: a plugin as the client installs it, not an agent, skill or command;
    // `name@1.0.0`, a package at a version. (Unless a key says which kind of thing is at that
    // version: `"prompt_version": "survival-classifier@1.0"`.)
    let versioned_kind = || {
        key.is_some_and(|k| {
            last_word(k)
                .split(|b| matches!(b, b'_' | b'-'))
                .any(|w| one_of(w, &["prompt", "skill", "agent", "command", "template"]))
        })
    };
    if line.get(e) == Some(&b'@')
        && line.get(e + 1).is_some_and(|b| is_word_byte(*b))
        && !(line.get(e + 1).is_some_and(u8::is_ascii_digit) && versioned_kind())
    {
        cue.bits |= PROGRAM;
    }
    // "The CLI `spec-review`": the program's subcommand, not a skill of the name (unless the
    // words say which kind: "the CLI's `reviewer` agent").
    let said = line[..a]
        .iter()
        .rposition(|b| !matches!(b, b' ' | b'`' | b'"' | b'*' | b':'))
        .map_or(&line[..0], |i| &line[..=i]);
    if one_of(last_word(said), &["cli"])
        && said.len() < a
        && cue.bits & (SLASH | NAMESPACE) == 0
        && kinds == 0
    {
        cue.bits |= PROGRAM;
    }
    // "the `e2e` job", "`e2e` and `docker` jobs", "the `hooks` field": a thing of another kind
    // (a CI job, a make target, a flag, a field), named as the words after it say.
    if one_of(next, OTHER_KINDS) || one_of(kind_after_pair(after), OTHER_KINDS) {
        cue.bits |= PROGRAM;
    }
    // "its own CLAUDE.md", "the layer's CLAUDE.md": another folder's, not the root's.
    // ("that's CLAUDE.md" is a contraction, not another's.)
    let someones = before.ends_with(b"'s")
        && cue.bits & ROOT == 0
        && !one_of(
            owner,
            &[
                "that", "it", "what", "here", "there", "who", "he", "she", "let",
            ],
        );
    let whose = ["your", "own", "its", "their"];
    let any = ["a", "an", "any", "each", "every"];
    if one_of(prev, &["global", "user-level"]) {
        cue.bits |= GLOBAL;
    }
    if section_after(&line[e..]) {
        cue.bits |= SECTION;
    }
    if someones || one_of(prev, &whose) {
        cue.bits |= ANY | OTHERS;
    } else if one_of(prev, &any) || one_of(next, &["files"]) {
        // ("CLAUDE.md files in other folders": the kind, as "a CLAUDE.md" is.)
        cue.bits |= ANY;
    }
    // A run's place in a list is the run's, not its words' (`| Auth/security | 100% |`).
    // … and an item that goes on as a sentence ("- check that the test fails") is a sentence.
    if starts_item(line, a)
        && slashed.is_none()
        && ends_item_head(&line[e..])
        && !defines_a_term(&line[s..e], &line[e..])
    {
        cue.bits |= LIST;
    }
    if let Some(lang) = lang {
        let via = import_via(lang, line, s, e, ts).or_else(|| {
            (lang == Lang::Python)
                .then(|| python_continued_import(hay, ls, s, e))
                .flatten()
        });
        if let Some(via) = via {
            cue.bits |= IMPORT;
            if lang == Lang::Python && names_from_package(line, s) {
                cue.bits |= FROM_PACKAGE;
            }
            cue.via = Some(via);
        } else if matches!(lang, Lang::Script | Lang::Python) {
            // A joined path is read whole, over the string's own folders.
            if let Some(p) = joined_path(line, s, e) {
                cue.via = Some(p);
            }
        }
    }
    cue
}

/// The path a script builds from its own folder and string parts, when the occurrence
/// `line[s..e]` ends one: `path.join(__dirname, '..', 'lib', 'config-validator.js')`,
/// `os.path.join(os.path.dirname(__file__), "data", "x.json")` give `./../lib/…`, `./data/…`.
fn joined_path(line: &[u8], s: usize, e: usize) -> Option<String> {
    // The string holding the name, which may hold folders before it (`'/fixtures/x.js'`).
    let mut qs = s;
    while qs > 0 && !matches!(line[qs - 1], b'"' | b'\'') {
        if !matches!(line[qs - 1], b'/' | b'.' | b'-' | b'_')
            && !line[qs - 1].is_ascii_alphanumeric()
        {
            return None;
        }
        qs -= 1;
    }
    let q = *line.get(qs.checked_sub(1)?)?;
    if line.get(e) != Some(&q) {
        return None;
    }
    // The last part only: a folder on the way (`"data", "x.json"`) is no file named.
    if line[e + 1..].trim_ascii_start().first() != Some(&b')') {
        return None;
    }
    let folders = std::str::from_utf8(&line[qs..s]).ok()?.trim_matches('/');
    let head = &line[..qs - 1];
    let call = ["join(", "resolve("]
        .iter()
        .filter_map(|c| memchr::memmem::rfind(head, c.as_bytes()).map(|i| i + c.len()))
        .max()?;
    // The arguments before the last, split at commas outside parentheses.
    let mut args: Vec<&[u8]> = Vec::new();
    let (mut depth, mut from) = (0i32, call);
    for (i, &b) in head.iter().enumerate().skip(call) {
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b',' if depth == 0 => {
                args.push(head[from..i].trim_ascii());
                from = i + 1;
            }
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    if depth != 0 || !head[from..].trim_ascii().is_empty() {
        return None;
    }
    let (first, rest) = args.split_first()?;
    let own_folder = matches!(
        *first,
        b"__dirname" | b"import.meta.dirname" | b"os.path.dirname(__file__)"
    ) || first.ends_with(b"dirname(os.path.abspath(__file__))")
        || first.ends_with(b"dirname(os.path.realpath(__file__))");
    if !own_folder {
        return None;
    }
    let mut path = String::from(".");
    for a in rest {
        let inner = match a {
            [b'"', mid @ .., b'"'] | [b'\'', mid @ .., b'\''] => mid,
            _ => return None,
        };
        if inner.is_empty() || inner.contains(&b'"') || inner.contains(&b'\'') {
            return None;
        }
        path.push('/');
        path.push_str(std::str::from_utf8(inner).ok()?.trim_matches('/'));
    }
    if !folders.is_empty() {
        path.push('/');
        path.push_str(folders);
    }
    path.push('/');
    path.push_str(std::str::from_utf8(&line[s..e]).ok()?);
    Some(path)
}

/// Whether a Python line holds only names of an import's list (`    dev,`, `    a as b,`,
/// `)`), a comment after them allowed.
fn python_name_list(line: &[u8]) -> bool {
    let code = line.split(|b| *b == b'#').next().unwrap_or(line);
    code.iter().all(|b| {
        b.is_ascii_alphanumeric() || matches!(b, b'_' | b',' | b' ' | b'\t' | b'\r' | b')')
    })
}

/// The module a name on a later line of a parenthesised import stands for (`    dev,` after
/// `from structlog import (`: `structlog/dev`), as `import_via` reads it on one line. `s..e`
/// is the occurrence within the line that starts at `ls`.
fn python_continued_import(hay: &[u8], ls: usize, s: usize, e: usize) -> Option<String> {
    let le = memchr::memchr(b'\n', &hay[ls..]).map_or(hay.len(), |i| ls + i);
    let line = &hay[ls..le];
    if !python_name_list(line)
        || line[..s].contains(&b')')
        || line[..s].contains(&b'#')
        || ends_with_word(&line[..s], b"as")
        || !line[s..e]
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'_')
    {
        return None;
    }
    // Back over the list's earlier lines (a few dozen at most) to the line that opens it.
    let mut start = ls;
    for _ in 0..200 {
        let prev_end = start.checked_sub(1)?;
        let ps = memchr::memrchr(b'\n', &hay[..prev_end]).map_or(0, |i| i + 1);
        let prev = &hay[ps..prev_end];
        if let Some(open) = memchr::memmem::find(prev, b" import (") {
            let body = prev.trim_ascii_start();
            let module = body.strip_prefix(b"from ")?;
            let module_len = module.len().checked_sub(prev.len() - open)?;
            let module = std::str::from_utf8(&module[..module_len]).ok()?.trim();
            if prev[open..].contains(&b')') || !is_dotted(module) {
                return None;
            }
            let base = module_path(module);
            let name = std::str::from_utf8(&line[s..e]).ok()?;
            // A name the module shares (`__version__,` after `from .__version__ import (`) is
            // one of its members: the line imports from that module.
            if module.rsplit('.').next() == Some(name) {
                return Some(base);
            }
            let sep = if base.ends_with('/') { "" } else { "/" };
            return Some(format!("{base}{sep}{name}"));
        }
        if !python_name_list(prev) || prev.contains(&b')') {
            return None;
        }
        start = ps;
    }
    None
}

/// The run of plain words joined by `/` that holds `line[ts..e]`, when the name is written in
/// one: two to sixteen words (a team's roster runs long) of letters, digits, `-` and `_`, with
/// no extension, leading slash or variable (`bug-hunter/verifier`, not `/plan`, `a/b.md`,
/// `~/x/y`). A sentence's full stop or comma after it is not part of it.
fn slashed_run(line: &[u8], ts: usize, e: usize) -> Option<&[u8]> {
    let mut te = e;
    while te < line.len() && is_path_byte(line[te]) {
        te += 1;
    }
    while te > e && matches!(line[te - 1], b'.' | b',') {
        te -= 1;
    }
    let run = &line[ts..te];
    let words = run.split(|b| *b == b'/');
    let n = run.iter().filter(|b| **b == b'/').count() + 1;
    let plain = |w: &[u8]| {
        !w.is_empty()
            && w[0].is_ascii_alphanumeric()
            && w.iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
    };
    ((2..=16).contains(&n) && words.into_iter().all(plain)).then_some(run)
}

/// Whether `word` is one of `words`, in any case.
/// Whether a name between `before` and `after` on its line is run as a program: first on the
/// line or in its code span (after a prompt's `$`), with a flag next (`x --compare`, `` `x -v
/// a` ``); or first in a code span (`spans`: not a script's template string) holding a command
/// (`` `x query "SQL"` ``).
fn run_as_program(before: &[u8], after: &[u8], spans: bool) -> bool {
    let lead = before.trim_ascii();
    let lead = lead.strip_suffix(b"$").unwrap_or(lead).trim_ascii_end();
    // A table's cell opens with its own bar (`` | `x --help` | ``).
    let cell = lead.strip_prefix(b"|").unwrap_or(lead).trim_ascii_start();
    let span = cell == b"`" || lead.ends_with(b"`") && !lead.contains(&b' ');
    let first = lead.is_empty() || span;
    let Some(rest) = after.strip_prefix(b" ") else {
        return false;
    };
    let rest = rest.trim_ascii_start();
    let flag = rest.first() == Some(&b'-')
        && rest
            .get(1)
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'-');
    // A code span holding a command line (`` `x query "SQL"` ``): its first word runs.
    // (A span after a role, `` :ref:`validators <x>` ``, is a cross-reference.)
    let opened = lead
        .strip_suffix(b"`")
        .is_some_and(|o| o.last().is_none_or(|b| matches!(b, b' ' | b'|' | b'(')));
    // (Its next word is an argument: `` `spec-bug → plan-bug` `` is a route between names.)
    let argument = |b: &u8| b.is_ascii_alphanumeric() || b"-\"'$<[./@~{*".contains(b);
    let command_span =
        spans && opened && rest.first().is_some_and(argument) && rest.contains(&b'`');
    first && flag || command_span
}

/// Whether a name starting where `before` ends is a package a package manager runs or installs:
/// the first word after a runner (`npx -y x`), or any after an install verb (`npm install -D a
/// x`). Flags between are skipped; a runner's later words are its arguments (`npx tsx x.ts`).
fn after_package_manager(before: &[u8]) -> bool {
    const RUNNERS: &[&str] = &["npx", "bunx", "pnpx", "uvx"];
    const INSTALLS: &[(&str, &str)] = &[
        ("npm", "install"),
        ("npm", "i"),
        ("npm", "exec"),
        ("yarn", "add"),
        ("yarn", "dlx"),
        ("pnpm", "add"),
        ("pnpm", "dlx"),
        ("bun", "add"),
        ("pip", "install"),
        ("pip3", "install"),
        ("pipx", "install"),
        ("pipx", "run"),
        ("uv", "add"),
        ("poetry", "add"),
        ("cargo", "install"),
        ("gem", "install"),
        ("brew", "install"),
        // A script of the project's `package.json` (`npm run hygiene:quick`): the script's
        // name, not a command or a skill that shares it (16 labelled lines of 17 were not).
        ("npm", "run"),
        ("npm", "run-script"),
        ("pnpm", "run"),
        ("yarn", "run"),
        ("bun", "run"),
        // The client's own: a plugin installed or switched (`/plugin install pm-skills`,
        // `claude plugin enable x`) is the plugin, not a skill or a file that shares its name.
        ("plugin", "install"),
        ("plugin", "uninstall"),
        ("plugin", "enable"),
        ("plugin", "disable"),
        ("plugin", "update"),
    ];
    let Some(mut plain) = words_before(before) else {
        return false;
    };
    let Some(first) = plain.next() else {
        return false;
    };
    // (`execSync(\`npx x`: the word the token ends with.)
    if one_of(last_word(first), RUNNERS) {
        return true;
    }
    // After an install verb, every word up to the name is another package.
    let package = |w: &[u8]| {
        w.iter().all(|b| {
            is_word_byte(*b) || matches!(b, b'@' | b'/' | b'.' | b'=' | b'<' | b'>' | b'~' | b'^')
        })
    };
    let mut prev: &[u8] = first;
    // (A few packages at most lie between: prose would otherwise walk its whole line back.)
    for (between, w) in plain.take(6).enumerate() {
        let tool = last_word(w);
        if INSTALLS.iter().any(|(t, verb)| {
            tool.eq_ignore_ascii_case(t.as_bytes()) && prev.eq_ignore_ascii_case(verb.as_bytes())
        }) {
            // A script run takes arguments, not more scripts (`bun run evals strategy-doc`
            // runs the evals of the `strategy-doc` skill).
            let run = prev.eq_ignore_ascii_case(b"run") || prev.eq_ignore_ascii_case(b"run-script");
            return !run || between == 0;
        }
        if !package(prev) {
            return false;
        }
        prev = w;
    }
    false
}

/// The words before a name that follows a space, flags left out, nearest first.
fn words_before(before: &[u8]) -> Option<impl Iterator<Item = &[u8]>> {
    before.ends_with(b" ").then(|| {
        before
            .rsplit(|b| b.is_ascii_whitespace())
            .filter(|w| !w.is_empty() && !w.starts_with(b"-"))
    })
}

/// Whether a name right after `before` is a `package.json` script run by name: `npm run x`,
/// `npm run-script x`, `pnpm run x`, `yarn run x`, `bun run x`, or `pnpm x`, `yarn x` (the
/// managers that take a script's name as their first word), flags left out.
fn script_run(before: &[u8]) -> bool {
    let Some(mut words) = words_before(before) else {
        return false;
    };
    let Some(first) = words.next() else {
        return false;
    };
    let tool = |w: &[u8], names: &[&str]| one_of(last_word(w), names);
    if tool(first, &["pnpm", "yarn"]) {
        return true;
    }
    (first.eq_ignore_ascii_case(b"run") || first.eq_ignore_ascii_case(b"run-script"))
        && words
            .next()
            .is_some_and(|w| tool(w, &["npm", "pnpm", "yarn", "bun"]))
}

/// Whether a section sign follows a name, past its closing code span or quote and spaces.
fn section_after(after: &[u8]) -> bool {
    let a = after
        .strip_prefix(b"`")
        .or_else(|| after.strip_prefix(b"\""))
        .unwrap_or(after);
    a.trim_ascii_start().starts_with("§".as_bytes())
}

/// Whether a command line's long option follows a word (`` --choice``).
fn options_after(after: &[u8]) -> bool {
    after
        .strip_prefix(b" --")
        .and_then(|r| r.first())
        .is_some_and(u8::is_ascii_lowercase)
}

/// Whether the next string of an argument list is a long option (`', '--choice'`).
fn argv_options_after(after: &[u8]) -> bool {
    let Some(q) = after.first().filter(|q| matches!(q, b'\'' | b'"')) else {
        return false;
    };
    let rest = after[1..].strip_prefix(b",").map(<[u8]>::trim_ascii_start);
    rest.and_then(|r| r.strip_prefix(std::slice::from_ref(q)))
        .and_then(|r| r.strip_prefix(b"--"))
        .and_then(|r| r.first())
        .is_some_and(u8::is_ascii_lowercase)
}

/// Whether the words before are a script run with its options so far: the name is its
/// subcommand (`node cli.js spec-review`, `cli.js --root "$PWD" spec-review`).
fn subcommand_place(before: &[u8]) -> bool {
    let Some(b) = before.strip_suffix(b" ") else {
        return false;
    };
    let tokens: Vec<&[u8]> = b
        .split(|c| c.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    let mut i = tokens.len();
    // Options and their values back to the script.
    while i >= 2 && tokens[i - 2].starts_with(b"--") && !tokens[i - 1].starts_with(b"-") {
        i -= 2;
    }
    while i >= 1 && tokens[i - 1].starts_with(b"--") {
        i -= 1;
    }
    i >= 1 && is_script_path(tokens[i - 1])
}

/// Whether the word before is an option that takes the name as its value (`--agent reviewer`,
/// `'--agent', 'reviewer'`, `--agent=reviewer`).
fn option_value_before(before: &[u8]) -> bool {
    if before.ends_with(b"=") {
        return true;
    }
    let b = before.trim_ascii_end();
    let b = b
        .strip_suffix(b"'")
        .or_else(|| b.strip_suffix(b"\""))
        .unwrap_or(b);
    let b = b.trim_ascii_end();
    let b = b.strip_suffix(b",").unwrap_or(b).trim_ascii_end();
    let b = b
        .strip_suffix(b"'")
        .or_else(|| b.strip_suffix(b"\""))
        .unwrap_or(b);
    let start = b
        .iter()
        .rposition(|c| c.is_ascii_whitespace() || matches!(c, b'[' | b'(' | b'\'' | b'"'))
        .map_or(0, |i| i + 1);
    b[start..].starts_with(b"-")
}

/// Whether a word is a script file's path (`utils/cli.js`, `gen.py`), a code span's
/// opening backtick aside.
fn is_script_path(w: &[u8]) -> bool {
    let w = w.strip_prefix(b"`").unwrap_or(w);
    std::str::from_utf8(w).is_ok_and(|w| {
        w.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty()
                && !stem.ends_with('/')
                && (is_script_ext(ext) || matches!(ext, "py" | "sh" | "rb"))
        })
    })
}

fn one_of(word: &[u8], words: &[&str]) -> bool {
    words
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w.as_bytes()))
}

/// Where a quoted or backticked path holding `line[ts..e]` starts, when it has spaces and its
/// closing quote follows `e`.
fn quoted_start(line: &[u8], ts: usize, e: usize) -> Option<usize> {
    let close = *line.get(e)?;
    if !matches!(close, b'"' | b'`' | b'\'') {
        return None;
    }
    let mut q = ts;
    while q > 0 && (is_path_byte(line[q - 1]) || line[q - 1] == b' ') {
        q -= 1;
    }
    // Not two paths in one span (`` `../a/x.md b/x.md` ``) nor a sentence (`` `alpha. x/y.md` ``):
    // the words before the last hold no dot (`My Notes/release plan.md`); nor a sentence
    // before an invocation or an absolute path ("… naar /dev-verify"), and an apostrophe in a
    // word opens no quote (`that's /x's job`).
    let whole_before = line[q..ts].contains(&b'.');
    let apostrophe = close == b'\'' && q >= 2 && line[q - 2].is_ascii_alphanumeric();
    let spaced_slash = line[q..e].windows(2).any(|w| w == b" /");
    // Nor an invocation and its argument (`` `/chronicle stale` ``).
    let invocation =
        line[q] == b'/' && !line[q + 1..e].contains(&b'/') && invoked_before(line, ts).is_some();
    (q < ts
        && !invocation
        && q > 0
        && line[q - 1] == close
        && line[q..e].contains(&b'/')
        && !whole_before
        && !apostrophe
        && !spaced_slash)
        .then_some(q)
}

/// Whether `line[s..e]` lies in a comment or a string literal of a line of `lang` (by the line
/// alone: a string or comment spanning lines is not seen, and reads as code).
pub(crate) fn in_comment_or_string(line: &[u8], s: usize, e: usize, lang: Lang) -> bool {
    prose_at(line, s, e, lang).is_some()
}

/// The prose of source code a span lies in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Prose {
    Comment,
    String,
}

/// Whether the word after `line[..e]` (a closing code span's backtick skipped) says it is a
/// web app's page (`/privacy page`, `` `/login` endpoint ``): a path of a URL. ("Route" is
/// not: a command is a route through a pipeline, and `/msbuild` routes work.)
fn page_after(line: &[u8], e: usize) -> bool {
    const PAGES: [&[u8]; 5] = [b"page", b"pages", b"endpoint", b"endpoints", b"screen"];
    let rest = &line[e.min(line.len())..];
    let rest = rest.strip_prefix(b"`").unwrap_or(rest);
    let Some(rest) = rest.strip_prefix(b" ") else {
        return false;
    };
    PAGES.iter().any(|p| {
        rest.len() >= p.len()
            && rest[..p.len()].eq_ignore_ascii_case(p)
            && rest.get(p.len()).is_none_or(|b| !is_word_byte(*b))
    })
}

/// Whether an HTTP method and one space come right before `ts` (`GET /projects`): a route.
fn http_method_before(line: &[u8], ts: usize) -> bool {
    const METHODS: [&[u8]; 7] = [
        b"GET", b"POST", b"PUT", b"PATCH", b"DELETE", b"HEAD", b"OPTIONS",
    ];
    let Some(before) = line[..ts].strip_suffix(b" ") else {
        return false;
    };
    METHODS.iter().any(|m| {
        before.ends_with(m)
            && (before.len() == m.len() || !is_word_byte(before[before.len() - m.len() - 1]))
    })
}

/// Whether `line[s..e]` is a word of at least four capital letters standing alone: not followed
/// by `:` (a label), not all its line's text (a heading), and with no capitalised word of two or
/// more letters beside it across one space (a shouted phrase, `MUST NOT`, an acronym's phrase).
fn in_capitals(line: &[u8], s: usize, e: usize) -> bool {
    let word = &line[s..e];
    if word.len() < 4
        || !word.iter().all(u8::is_ascii_uppercase)
        || matches!(line.get(e), Some(b':' | b'[' | b'(' | b'}'))
        || s >= 1 && matches!(line[s - 1], b'$' | b'{' | b'%' | b'@' | b'[' | b',')
    {
        return false;
    }
    let capitals = |w: &[u8]| {
        w.len() >= 2
            && w.iter()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
    };
    let is_word = |b: &u8| b.is_ascii_alphanumeric();
    if let Some(after) = line[e..].strip_prefix(b" ") {
        let n = after.iter().take_while(|b| is_word(b)).count();
        if capitals(&after[..n]) {
            return false;
        }
    }
    if let Some(before) = line[..s].strip_suffix(b" ") {
        let n = before.iter().rev().take_while(|b| is_word(b)).count();
        if capitals(&before[before.len() - n..]) {
            return false;
        }
    }
    // A diagram's node (`REPAIR --> RERUN`, a mermaid edge); a reading order in prose
    // (`SKILL.md -> MANIFEST -> orchestrator`) still names its documents.
    let arrow = |w: &[u8]| w.starts_with(b"-->") || w.starts_with(b"==>");
    if arrow(line[e..].trim_ascii_start()) || {
        let b = line[..s].trim_ascii_end();
        b.ends_with(b"-->") || b.ends_with(b"==>")
    } {
        return false;
    }
    let mut rest = line[..s].iter().chain(&line[e..]);
    !rest.all(|b| matches!(b, b'#' | b'*' | b'_' | b'=' | b'-' | b' ' | b'\t' | b'\r'))
}

/// Which prose of a line of `lang` holds `line[s..e]`, if any (see `in_comment_or_string`).
pub(crate) fn prose_at(line: &[u8], s: usize, e: usize, lang: Lang) -> Option<Prose> {
    let lead = line
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let body = &line[lead..];
    let hash_comments = matches!(lang, Lang::Python | Lang::Shell);
    let slash_comments = matches!(lang, Lang::Script | Lang::C | Lang::Other);
    if slash_comments
        && (body.starts_with(b"//")
            || body.starts_with(b"/*")
            || body.starts_with(b"* ")
            || body == b"*")
    {
        return Some(Prose::Comment);
    }
    // Quotes before the name, outside any comment marker seen first. The braces of a Python
    // f-string (`f"v{httpx.__version__}"`) and of a script's template literal (`${x.y}`) hold
    // code: `depth` counts the ones open in the current string.
    let mut in_quote: Option<u8> = None;
    let (mut interpolated, mut depth) = (false, 0usize);
    let mut i = 0;
    while i < s {
        let b = line[i];
        match in_quote {
            Some(q) if b == q && depth == 0 => in_quote = None,
            Some(_) if b == b'\\' => i += 1,
            Some(_) if interpolated && b == b'{' => {
                if depth == 0 && line.get(i + 1) == Some(&b'{') && lang == Lang::Python {
                    i += 1;
                } else {
                    depth += 1;
                }
            }
            Some(_) if interpolated && b == b'}' && depth > 0 => depth -= 1,
            Some(_) => {}
            None if matches!(b, b'"' | b'\'' | b'`') => {
                in_quote = Some(b);
                depth = 0;
                interpolated = match lang {
                    Lang::Python => {
                        // A prefix of at most two letters, one of them `f` (`f`, `rf`, `Fr`).
                        let prefix = line[..i]
                            .iter()
                            .rev()
                            .take_while(|c| c.is_ascii_alphabetic());
                        prefix.clone().count() <= 2
                            && prefix.into_iter().any(|c| c.eq_ignore_ascii_case(&b'f'))
                    }
                    Lang::Script => b == b'`',
                    _ => false,
                };
            }
            None if hash_comments && b == b'#' => return Some(Prose::Comment),
            None if lang == Lang::Other
                && b == b'#'
                && i == lead
                && matches!(line.get(i + 1), Some(b' ' | b'!')) =>
            {
                return Some(Prose::Comment)
            }
            None if slash_comments && b == b'/' && line.get(i + 1) == Some(&b'/') => {
                return Some(Prose::Comment)
            }
            None => {}
        }
        i += 1;
    }
    match in_quote {
        Some(_) if depth > 0 => None,
        Some(q) => line[e..].contains(&q).then_some(Prose::String),
        None => None,
    }
}

fn is_url(line: &[u8], ts: usize, s: usize) -> bool {
    // `scheme://` right before the token, or `www.` starting it.
    let t = &line[ts..s];
    if t.starts_with(b"www.") || t.starts_with(b"//") {
        return true;
    }
    ts >= 1 && line[ts - 1] == b':' && line[ts..].starts_with(b"//")
}

fn in_code_span(line: &[u8], a: usize, e: usize) -> bool {
    let ticks = memchr::memchr_iter(b'`', &line[..a]).count();
    ticks % 2 == 1 && memchr::memchr(b'`', &line[e..]).is_some()
}

/// Whether the code span holding `line[a..e]` is one word: the name as a code span
/// (`` `spec` ``, `` `/spec` ``, `` `Task(engineer)` ``), not a phrase or a command line that
/// holds the word (`` `chore: remove implemented spec` ``, `` `npm run check` ``).
fn code_span_is_one_word(line: &[u8], a: usize, e: usize) -> bool {
    let open = memchr::memrchr(b'`', &line[..a]).map_or(0, |i| i + 1);
    let close = memchr::memchr(b'`', &line[e..]).map_or(line.len(), |i| e + i);
    !line[open..close].trim_ascii().contains(&b' ')
}

fn trim_decor_end(b: &[u8]) -> &[u8] {
    let mut end = b.len();
    while end > 0
        && matches!(
            b[end - 1],
            b' ' | b'\t' | b'*' | b'`' | b'"' | b'\'' | b'(' | b'['
        )
    {
        end -= 1;
    }
    &b[..end]
}

fn trim_decor_start(b: &[u8]) -> &[u8] {
    let mut st = 0;
    while st < b.len()
        && matches!(
            b[st],
            b' ' | b'\t' | b'*' | b'`' | b'"' | b'\'' | b')' | b']'
        )
    {
        st += 1;
    }
    &b[st..]
}

fn last_word(b: &[u8]) -> &[u8] {
    let mut st = b.len();
    while st > 0 && is_word_byte(b[st - 1]) {
        st -= 1;
    }
    &b[st..]
}

fn first_word(b: &[u8]) -> &[u8] {
    let mut end = 0;
    while end < b.len() && is_word_byte(b[end]) {
        end += 1;
    }
    &b[..end]
}

/// The kind a row of names is headed by, for a name after the head: a table row whose first
/// cell is the kind (`| Commands (disabled, 17) | config, todo, … |`) or a list item headed by
/// it (`- **Agents**: code-reviewer, architect`). 0 for any other line or place.
fn row_kind(line: &[u8], a: usize) -> u64 {
    let t = line.trim_ascii_start();
    let lead = line.len() - t.len();
    let (body, sep) = if let Some(r) = t.strip_prefix(b"|") {
        (r, b'|')
    } else if let Some(r) = t.strip_prefix(b"- ").or_else(|| t.strip_prefix(b"* ")) {
        (r, b':')
    } else {
        return 0;
    };
    let body_at = lead + (t.len() - body.len());
    let Some(end) = memchr::memchr(sep, body) else {
        return 0;
    };
    if a <= body_at + end {
        return 0;
    }
    let head = trim_decor_start(&body[..end]);
    let w = first_word(head);
    // The head is the kind alone, with a count or a note in parentheses at most.
    let rest = trim_decor_start(&head[w.len()..]);
    if !(rest.is_empty() || rest.starts_with(b"(") && rest.trim_ascii_end().ends_with(b")")) {
        return 0;
    }
    entity_kind(w) & !AS_HOOK
}

/// The `AS_*` bit of the entity word right after a name ending at `e` ("Planner Agent",
/// "planner (subagent)"), 0 when the next word is none.
pub fn kind_after(line: &[u8], e: usize) -> u64 {
    let after = trim_decor_start(&line[e.min(line.len())..]);
    entity_kind(first_word(after.strip_prefix(b"(").unwrap_or(after)))
}

/// The `AS_*` bit of an entity word (`Skills` -> `AS_SKILL`), 0 for any other word.
pub(crate) fn entity_kind(w: &[u8]) -> u64 {
    if w.is_empty() {
        return 0;
    }
    ENTITY_WORDS
        .iter()
        .find(|(k, _)| w.eq_ignore_ascii_case(k.as_bytes()))
        .map_or(0, |(_, bit)| *bit)
}

/// Whether what follows a name heading a list item ends the head: the line, a separator
/// (`:`, a dash, `|`, `,`, `(`) or decoration, not a sentence going on ("check that …"). A `|`
/// against the next word is an alternation (`"test|qa|quality"`, a pattern), not a cell's end.
fn ends_item_head(rest: &[u8]) -> bool {
    let rest = trim_decor_start(rest).trim_ascii_start();
    match rest.first() {
        None => true,
        Some(b) => {
            matches!(b, b':' | b',' | b'(' | b'-' | b'.' | b';' | b'/' | b'[')
                || rest.starts_with(b"|") && !rest.get(1).is_some_and(|b| is_word_byte(*b))
                || rest.starts_with("—".as_bytes())
                || rest.starts_with("–".as_bytes())
                || rest.starts_with("→".as_bytes())
        }
    }
}

/// Whether `line` holds a word (`first`, then `tail` in lower or upper case) in lower, title or
/// upper case: a search for its tail, then a look at the letter before (for every mention).
fn says(line: &[u8], word: &Said) -> bool {
    word.tails.iter().any(|t| {
        t.find_iter(line)
            .any(|i| i > 0 && line[i - 1].eq_ignore_ascii_case(&word.first))
    })
}

/// A word `says` looks for: its first letter, and finders of the rest in lower and upper case
/// (built once: a finder per call cost a tenth of a code tree's scan).
struct Said {
    first: u8,
    tails: [memchr::memmem::Finder<'static>; 2],
}

static TEMPLATE_WORD: std::sync::LazyLock<Said> = std::sync::LazyLock::new(|| Said {
    first: b't',
    tails: [
        memchr::memmem::Finder::new(b"emplate"),
        memchr::memmem::Finder::new(b"EMPLATE"),
    ],
});

static STYLE_WORD: std::sync::LazyLock<Said> = std::sync::LazyLock::new(|| Said {
    first: b's',
    tails: [
        memchr::memmem::Finder::new(b"tyle"),
        memchr::memmem::Finder::new(b"TYLE"),
    ],
});

/// Whether a plain word heading a list item is a term the item defines (`- **research**:
/// Investigate the domain`, `6. **Changelog** — document changes`): a glossary's word, not a
/// row of a list of names (a distinctive name there is one: `- **startup-metrics** - Key
/// metrics`).
fn defines_a_term(name: &[u8], rest: &[u8]) -> bool {
    let rest = trim_decor_start(rest).trim_ascii_start();
    let described = [":", "—", "–", "- "]
        .iter()
        .find_map(|m| rest.strip_prefix(m.as_bytes()))
        .is_some_and(|d| {
            d.trim_ascii()
                .first()
                .is_some_and(|b| b.is_ascii_alphabetic())
        });
    described && std::str::from_utf8(name).is_ok_and(|n| !crate::scan::refs::is_distinctive(n))
}

/// Whether the name starting at `a` is the first thing of a list item or of a table cell.
pub(crate) fn starts_item(line: &[u8], a: usize) -> bool {
    let head = &line[..a];
    let lead = head
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let rest = &head[lead..];
    let item = if let Some(r) = rest
        .strip_prefix(b"- ")
        .or_else(|| rest.strip_prefix(b"* "))
        .or_else(|| rest.strip_prefix(b"+ "))
    {
        r
    } else if rest.first() == Some(&b'|') {
        // A table cell: what follows the last `|` before the name.
        let last = head.iter().rposition(|b| *b == b'|').unwrap_or(0);
        &head[last + 1..]
    } else {
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        match rest[digits..].strip_prefix(b". ") {
            Some(r) if digits > 0 => r,
            _ => return false,
        }
    };
    item.iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'*' | b'`' | b'[' | b'"' | b'\'' | b'_'))
}

/// The module a code line imports, when the occurrence `line[s..e]` is part of its name.
fn import_via(lang: Lang, line: &[u8], s: usize, e: usize, ts: usize) -> Option<String> {
    let lead = line
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let body = &line[lead..];
    match lang {
        Lang::Python => python_import(line, python_lead(line), s, e),
        Lang::Script => {
            let quoted = s > ts && ts >= 1 && matches!(line[ts - 1], b'"' | b'\'' | b'`');
            let kw = contains(line, b"require(")
                || contains(line, b"import")
                || contains(line, b" from ");
            let spec = &line[ts..e];
            if !(quoted && kw) {
                return None;
            }
            if spec.starts_with(b".") {
                return Some(String::from_utf8_lossy(spec).into_owned());
            }
            // A bundler's or `tsconfig.json`'s alias for a source folder (`@/components/x`,
            // `~/lib/x`, `#/x`): the path after it, as a path's folders lead to a file wherever
            // the alias points (no scoped package: `@scope/pkg` has a name after the `@`).
            ["@/", "~/", "#/"]
                .iter()
                .find_map(|a| spec.strip_prefix(a.as_bytes()))
                .filter(|rest| rest.contains(&b'/'))
                .map(|rest| String::from_utf8_lossy(rest).into_owned())
        }
        Lang::Shell => {
            let src = body.starts_with(b"source ") || body.starts_with(b". ");
            // bats's `load helpers` (`load 'test_helper/common'`) sources `helpers.bash` from
            // the test file's own folder, whatever the working directory.
            let load = body.starts_with(b"load ");
            if load && ts >= lead + 5 && !matches!(line[ts], b'/' | b'$' | b'~') {
                let spec = String::from_utf8_lossy(&line[ts..e]);
                return Some(format!("./{}", spec.trim_start_matches("./")));
            }
            (src && ts >= lead).then(|| shell_path(line, ts, e))
        }
        Lang::C => {
            let after_hash = body.strip_prefix(b"#").unwrap_or(b"");
            let ws = after_hash
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count();
            let inc =
                after_hash[ws..].starts_with(b"include") || after_hash[ws..].starts_with(b"import");
            (inc && ts >= 1 && matches!(line[ts - 1], b'"' | b'<'))
                .then(|| String::from_utf8_lossy(&line[ts..e]).into_owned())
        }
        Lang::Other => None,
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(hay, needle).is_some()
}

/// The folder a shell command substitution ending right before `line[ts]` prints, as a path
/// from the script's folder (`.`, `./..`) or the root (`""`): `$(dirname "$0")`,
/// `$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)`, `$(git rev-parse --show-toplevel)`.
/// Another substitution's folder is unknown: `None`.
pub(crate) fn substituted_folder(line: &[u8], ts: usize) -> Option<String> {
    if ts < 3 || line[ts - 1] != b')' {
        return None;
    }
    // The `$(` that the `)` closes.
    let mut depth = 0usize;
    let mut open = None;
    for i in (0..ts - 1).rev() {
        match line[i] {
            b')' => depth += 1,
            b'(' if depth == 0 => {
                open = Some(i);
                break;
            }
            b'(' => depth -= 1,
            _ => {}
        }
    }
    let open = open.filter(|&o| o >= 1 && line[o - 1] == b'$')?;
    let inner = std::str::from_utf8(&line[open + 1..ts - 1]).ok()?.trim();
    let own = |arg: &str| {
        let arg = arg.trim_matches('"');
        arg.strip_prefix("$(dirname ")
            .and_then(|r| r.split_once(')'))
            .filter(|(of, _)| of.contains("$0") || of.contains("BASH_SOURCE"))
            .map(|(_, rest)| rest.trim_matches('"').to_string())
    };
    if inner == "git rev-parse --show-toplevel" {
        return Some(String::new());
    }
    if inner.starts_with("dirname ") {
        return own(&format!("$({inner})")).map(|_| ".".to_string());
    }
    let cd = inner.strip_prefix("cd ")?;
    let (arg, tail) = cd.split_once("&&").or_else(|| cd.split_once(';'))?;
    if tail.trim() != "pwd" && tail.trim() != "pwd -P" {
        return None;
    }
    let arg = arg.trim().trim_start_matches("-- ").trim();
    // (`cd "$(dirname "$0")" 2>/dev/null && pwd`: the redirection is no part of the folder.)
    let arg = arg
        .split(" 2>")
        .next()
        .unwrap_or(arg)
        .split(" >")
        .next()
        .unwrap_or(arg);
    own(arg.trim()).map(|rest| format!(".{rest}"))
}

/// The variable a shell word starts with (`$NAME`, `${NAME}`, `${NAME:-default}`, a default
/// holding braces of its own) and what follows it.
pub(crate) fn variable_at(word: &str) -> Option<(&str, &str)> {
    let w = word.strip_prefix('$')?;
    let (name, rest) = match w.strip_prefix('{') {
        Some(b) => {
            let mut depth = 0usize;
            let close = b.char_indices().find_map(|(i, c)| match c {
                '{' => {
                    depth += 1;
                    None
                }
                '}' if depth == 0 => Some(i),
                '}' => {
                    depth -= 1;
                    None
                }
                _ => None,
            })?;
            let inner = &b[..close];
            (
                inner.split([':', '-']).next().unwrap_or(inner),
                &b[close + 1..],
            )
        }
        None => {
            let n = w
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                .count();
            w.split_at(n)
        }
    };
    (!name.is_empty()).then_some((name, rest))
}

/// `$(dirname "$0")/x.sh`, `${DIR}/x.sh`, `"$SCRIPT_DIR/x.sh"`: the script's own folder.
fn shell_path(line: &[u8], ts: usize, e: usize) -> String {
    let t = String::from_utf8_lossy(&line[ts..e]).into_owned();
    let after_subst = ts >= 1 && matches!(line[ts - 1], b')' | b'}' | b'"');
    match t.find('/') {
        Some(i) if t.starts_with('$') => format!("./{}", &t[i + 1..]),
        Some(0) if after_subst => format!(".{t}"),
        _ => t,
    }
}

/// Where a Python line's statement starts: after its indentation and, in a doctest, after the
/// prompt (`>>> import types` in a docstring is an import the tests run).
fn python_lead(line: &[u8]) -> usize {
    let blank = |b: &u8| matches!(b, b' ' | b'\t');
    let lead = line.iter().take_while(|b| blank(b)).count();
    let rest = &line[lead..];
    if rest.starts_with(b">>> ") || rest.starts_with(b"... ") {
        return lead + 4 + rest[4..].iter().take_while(|b| blank(b)).count();
    }
    lead
}

/// `import a.b.c`, `from a.b import c`, `from . import x`, `from ..p import y`: the module path
/// (`/`-separated, `./` and `../` for relative imports) the occurrence `s..e` belongs to.
fn python_import(line: &[u8], lead: usize, s: usize, e: usize) -> Option<String> {
    let body = &line[lead..];
    let is_mod = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'.';
    let (from, rest_at) = if let Some(r) = body.strip_prefix(b"from ") {
        (true, lead + body.len() - r.len())
    } else if let Some(r) = body.strip_prefix(b"import ") {
        (false, lead + body.len() - r.len())
    } else {
        return None;
    };
    // The dotted token holding the occurrence.
    let mut ds = s;
    while ds > 0 && is_mod(line[ds - 1]) {
        ds -= 1;
    }
    let mut de = e;
    while de < line.len() && is_mod(line[de]) {
        de += 1;
    }
    if ds < rest_at {
        return None;
    }
    // The statement ends at a comment (`import x  # we want y to …`); a word after `as` is
    // the name bound, not a module (`import functools as _functools`); a `from` line without
    // ` import ` is prose (a docstring's "from command dispatch.").
    let end = memchr::memchr(b'#', line).unwrap_or(line.len());
    if ds >= end || ends_with_word(&line[rest_at..ds], b"as") {
        return None;
    }
    if from && memchr::memmem::find(&line[rest_at..end], b" import ").is_none() {
        return None;
    }
    // A package on the way to the module (`click` in `from click._compat import WIN`) is not
    // what the line names: the module is.
    let mod_end = if from {
        line[rest_at..]
            .iter()
            .position(|b| !is_mod(*b))
            .unwrap_or(line.len() - rest_at)
            + rest_at
    } else {
        de
    };
    if e < de && line[e] == b'.' && ds < mod_end {
        return None;
    }
    let dotted = std::str::from_utf8(&line[ds..e]).ok()?;
    if from {
        if ds < mod_end {
            return Some(module_path(dotted));
        }
        // After `import`: a name from the module, which may itself be a submodule.
        let module = std::str::from_utf8(&line[rest_at..mod_end]).ok()?;
        let after = &line[mod_end..];
        if de > line.len() || !after.windows(8).any(|w| w == b" import ") {
            return None;
        }
        let base = module_path(module);
        let sep = if base.ends_with('/') { "" } else { "/" };
        return Some(format!("{base}{sep}{dotted}"));
    }
    Some(module_path(dotted))
}

/// Whether the occurrence at `s` is the package of a `from P import …` line.
fn names_from_package(line: &[u8], s: usize) -> bool {
    let lead = python_lead(line);
    line[lead..].starts_with(b"from ")
        && memchr::memmem::find(&line[lead..], b" import ").is_some_and(|i| s < lead + i)
}

/// Whether `b`, less trailing blanks, ends with the whole word `w`.
fn ends_with_word(b: &[u8], w: &[u8]) -> bool {
    let t = trim_end_blank(b);
    t.ends_with(w) && (t.len() == w.len() || !is_word_byte(t[t.len() - w.len() - 1]))
}

fn trim_end_blank(b: &[u8]) -> &[u8] {
    let n = b
        .iter()
        .rev()
        .take_while(|c| matches!(c, b' ' | b'\t'))
        .count();
    &b[..b.len() - n]
}

/// `..a.b` -> `../a/b`, `.a` -> `./a`, `a.b` -> `a/b`, `.` -> `./`.
fn module_path(dotted: &str) -> String {
    let dots = dotted.bytes().take_while(|b| *b == b'.').count();
    let rest = dotted[dots..].replace('.', "/");
    match dots {
        0 => rest,
        1 => format!("./{rest}"),
        n => format!("{}{rest}", "../".repeat(n - 1)),
    }
}

/// A name a Python import binds in a file, and the module it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The name used in the code (`copy`, `np`).
    pub bound: String,
    /// The module path (`copy`, `numpy`, `os/path`, `./decoder`).
    pub module: String,
    /// Bound by `from p import m`: `module` is `p/m`, a module or a name `p` defines.
    pub from_import: bool,
}

/// A name a script binds to a module of its own tree by a relative require or import (or, for
/// `package_bindings`, to a package by its bare name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptBinding {
    /// The name used in the code (`context`, `only`).
    pub bound: String,
    /// The specifier as written (`../../test-helpers/context`, `./only.js`).
    pub spec: String,
    /// Where the binding's line starts in the file.
    pub line_start: usize,
    /// Where its statement ends (the end of its last line: `import {` may span lines).
    pub end: usize,
}

/// The names a script binds to relative modules, one line at a time: `const x =
/// require('./x')` (and `let`, `var`, a later declarator of a list), `const { a, b: c } =
/// require('./m')`, `import x from './x'`, `import * as x from './x'`, `import x, { a as b }
/// from './m'`. A require or import of a package (`require('node:test')`) binds nothing here:
/// no file of the tree is that package.
pub fn script_bindings(hay: &[u8]) -> Vec<ScriptBinding> {
    script_bindings_of(hay, is_relative)
}

/// The bindings of a package by its bare name (`const bodyParser = require('body-parser')`,
/// `import fs from 'fs-extra'`), as a document's example writes the package it documents.
pub fn package_bindings(hay: &[u8]) -> Vec<ScriptBinding> {
    script_bindings_of(hay, |s| {
        !s.is_empty() && !s.starts_with(['.', '/', '#', '~']) && !s.contains(':')
    })
}

fn script_bindings_of(hay: &[u8], wanted: impl Fn(&str) -> bool) -> Vec<ScriptBinding> {
    let mut out = Vec::new();
    for (ls, line) in lines_holding(hay, b"require(") {
        let mut from = 0;
        while let Some(i) = memchr::memmem::find(&line[from..], b"require(").map(|i| from + i) {
            from = i + 8;
            if i > 0 && (is_ident(line[i - 1]) || line[i - 1] == b'.') {
                continue;
            }
            let Some(spec) = quoted_at(line, from).filter(|s| wanted(s)) else {
                continue;
            };
            for bound in bound_before(&line[..i]) {
                out.push(ScriptBinding {
                    bound,
                    spec: spec.clone(),
                    line_start: ls,
                    end: ls + line.len(),
                });
            }
        }
    }
    for (ls, line) in lines_holding(hay, b"import ") {
        let line = import_statement(hay, ls, line);
        let body = line.trim_ascii_start();
        let Some(clause) = body.strip_prefix(b"import ") else {
            continue;
        };
        let Some(f) = memchr::memmem::rfind(clause, b" from ") else {
            continue;
        };
        let Some(spec) = quoted_at(clause, f + 6).filter(|s| wanted(s)) else {
            continue;
        };
        let mut names = clause[..f].trim_ascii();
        names = names.strip_prefix(b"type ").unwrap_or(names);
        let (default, braced) = match memchr::memchr(b'{', names) {
            Some(b) => (&names[..b], Some(&names[b..])),
            None => (names, None),
        };
        let mut bound: Vec<String> = Vec::new();
        let default = default.trim_ascii();
        let default = default.strip_suffix(b",").unwrap_or(default);
        let default = default
            .strip_prefix(b"* as ")
            .unwrap_or(default)
            .trim_ascii();
        if !default.is_empty() && default.iter().all(|b| is_ident(*b)) {
            bound.push(String::from_utf8_lossy(default).into_owned());
        }
        if let Some(b) = braced {
            bound.extend(braced_names(b, b" as "));
        }
        for bound in bound {
            out.push(ScriptBinding {
                bound,
                spec: spec.clone(),
                line_start: ls,
                end: ls + line.len(),
            });
        }
    }
    out
}

/// An import statement from its first line (`line`, starting at `ls`): the line, or up to
/// the line that closes its braces when it opens them without (`import {` on a line of its
/// own, one name a line, `} from './m.js'`).
fn import_statement<'h>(hay: &'h [u8], ls: usize, line: &'h [u8]) -> &'h [u8] {
    if !line.contains(&b'{') || line.contains(&b'}') {
        return line;
    }
    // A statement of names, not a block: a few dozen lines at most.
    let rest = &hay[ls..];
    let mut end = line.len();
    for _ in 0..100 {
        let Some(next) = memchr::memchr(b'\n', &rest[end..]).map(|i| end + i) else {
            return line;
        };
        let next_end =
            memchr::memchr(b'\n', &rest[next + 1..]).map_or(rest.len(), |i| next + 1 + i);
        let l = &rest[next + 1..next_end];
        if l.contains(&b'{') || l.contains(&b';') && !l.contains(&b'}') {
            return line;
        }
        end = next_end;
        if l.contains(&b'}') {
            return &rest[..end];
        }
    }
    line
}

/// An extension a script's specifier may carry (`./x.js`, `./x.mjs`).
pub fn is_script_ext(ext: &str) -> bool {
    matches!(
        ext,
        "js" | "mjs" | "cjs" | "jsx" | "ts" | "tsx" | "mts" | "cts"
    )
}

/// The code uses of `bound` in a script, outside the lines that bind it (`binding_lines`, by
/// their start): calls, member accesses, values. `None` when the file declares the name
/// again (`function f(bound)`, `const bound =`, `(bound) =>`): then its uses are not the
/// module's alone. With `prose`, the name in a comment or a string counts too (a test's
/// title, a doc comment's code span: said of a distinctive name such as `HTTPError`), unless
/// the string is a lower-case name alone.
pub fn script_uses_of(
    hay: &[u8],
    bound: &str,
    binding_lines: &std::collections::HashSet<usize>,
    prose: bool,
) -> Option<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(hay, bound.as_bytes()) {
        let end = at + bound.len();
        let before = at.checked_sub(1).map(|i| hay[i]);
        // A dot before is a member of something else (`x.bound`), unless it ends a spread
        // (`{...bound.adapters}`, `f(...bound)`).
        let spread = hay[..at].ends_with(b"...") && !hay[..at].ends_with(b"....");
        if before.is_some_and(|b| is_ident(b) || b == b'.' && !spread)
            || hay.get(end).is_some_and(|b| is_ident(*b))
        {
            continue;
        }
        let ls = memchr::memrchr(b'\n', &hay[..at]).map_or(0, |i| i + 1);
        let le = memchr::memchr(b'\n', &hay[at..]).map_or(hay.len(), |i| at + i);
        if binding_lines.contains(&ls) {
            continue;
        }
        let line = &hay[ls..le];
        let (s, e) = (at - ls, end - ls);
        if in_comment_or_string(line, s, e, Lang::Script) || in_regex(line, s) {
            // A string that is a lower-case name alone is a value (a view engine registered
            // as `'tmpl'`), not a sentence about the module; a class's (`name:
            // 'TimeoutError'`) is the class's name, as errors tell their type.
            let value = s > 0
                && matches!(line[s - 1], b'\'' | b'"' | b'`')
                && line.get(e) == Some(&line[s - 1])
                && !bound.starts_with(|c: char| c.is_ascii_uppercase());
            if prose && !value {
                out.push((at, end));
            }
            continue;
        }
        let after = line[e..].trim_ascii_start();
        let head = line[..s].trim_ascii_end();
        let declared = ["const", "let", "var", "function", "class"]
            .iter()
            .any(|k| head.ends_with(k.as_bytes()) && head.len() < s);
        // An assignment's target stands where a statement or an element starts (`tally = 3`),
        // not after a type annotation's colon (`const e: HTTPError = new HTTPError()`).
        let target = matches!(head.last(), None | Some(b';' | b'{' | b'}' | b',' | b'('));
        // A lone arrow parameter (`bound => …`) is declared; a return type before an arrow
        // (`(x): IgnoreLike =>`) is a use.
        let assigned = target && after.starts_with(b"=") && !after.starts_with(b"==")
            || after.starts_with(b"=>") && head.last() != Some(&b':');
        if declared || assigned || is_parameter(line, s, e) {
            return None;
        }
        // An object's key (`{ context: x }`) names a field.
        if after.starts_with(b":") {
            continue;
        }
        out.push((at, end));
    }
    Some(out)
}

/// Whether `line[s..]` starts inside a regular expression literal (`/--dashboard/`): a `/`
/// where a value begins (after `(`, `,`, `=`, `:` and the like) opens one, the next closes it.
fn in_regex(line: &[u8], s: usize) -> bool {
    let mut open = false;
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < s {
        match (line[i], quote) {
            (b'\\', _) => i += 1,
            (q, Some(open_q)) if q == open_q => quote = None,
            (_, Some(_)) => {}
            (b'/', _) if open => open = false,
            (q @ (b'\'' | b'"' | b'`'), None) if !open => quote = Some(q),
            (b'/', _) => {
                let prev = line[..i].trim_ascii_end().last().copied();
                open = prev.is_none_or(|p| b"(,=:[!&|?{};".contains(&p));
            }
            _ => {}
        }
        i += 1;
    }
    open
}

/// Whether `line[s..e]` lies in a parameter list: of a `function`, or of an arrow function
/// (`(a, bound) =>`).
fn is_parameter(line: &[u8], s: usize, e: usize) -> bool {
    // In a parameter's place: after `(` or `,` (or `...`), before `)`, `,`, `:`, `=` or `?`; a
    // type annotation (`error: HTTPError`) or a cast is no parameter of that name.
    let before = line[..s].trim_ascii_end();
    let before = before.strip_suffix(b"...").unwrap_or(before);
    let after = line[e..].trim_ascii_start();
    let placed = matches!(before.last(), Some(b'(' | b','))
        && matches!(after.first(), Some(b')' | b',' | b':' | b'=' | b'?'));
    if !placed {
        return false;
    }
    let open = memchr::memrchr(b'(', &line[..s]);
    let closed_before = open.is_some_and(|o| memchr::memchr(b')', &line[o..s]).is_some());
    let Some(o) = open.filter(|_| !closed_before) else {
        return false;
    };
    if contains(&line[..o], b"function") {
        return true;
    }
    match memchr::memchr(b')', &line[e..]) {
        Some(c) => line[e + c + 1..].trim_ascii_start().starts_with(b"=>"),
        None => false,
    }
}

/// Each relative module specifier a script writes (`from './x.js'`, `import './x.js'`,
/// `require('./x')`, `import('./x.js')`, `export * from './x.js'`): where its text starts in
/// `hay`, and the text.
pub fn script_specs(hay: &[u8]) -> Vec<(usize, String)> {
    let mut lines: Vec<(usize, &[u8])> = Vec::new();
    for needle in [&b"from "[..], b"require(", b"import"] {
        lines.extend(lines_holding(hay, needle));
    }
    lines.sort_by_key(|(ls, _)| *ls);
    lines.dedup_by_key(|(ls, _)| *ls);
    let mut out = Vec::new();
    for (ls, line) in lines {
        let mut i = 0;
        while let Some(q) = line[i..]
            .iter()
            .position(|b| matches!(b, b'\'' | b'"' | b'`'))
            .map(|q| i + q)
        {
            let Some(end) = memchr::memchr(line[q], &line[q + 1..]).map(|e| q + 1 + e) else {
                break;
            };
            i = end + 1;
            let head = line[..q].trim_ascii_end();
            let led = head.ends_with(b"from")
                || head.ends_with(b"import")
                || head.ends_with(b"require(")
                || head.ends_with(b"import(");
            let spec = String::from_utf8_lossy(&line[q + 1..end]);
            if led && is_relative(&spec) && !spec.contains('$') {
                out.push((ls + q + 1, spec.into_owned()));
            }
        }
    }
    out
}

/// A JavaScript identifier's byte (ASCII).
fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// A module specifier of the tree itself: relative to the file.
fn is_relative(spec: &str) -> bool {
    spec == "." || spec == ".." || spec.starts_with("./") || spec.starts_with("../")
}

/// The string quoted at `at` (after spaces) in `line`, if one is there and closes on the line.
fn quoted_at(line: &[u8], at: usize) -> Option<String> {
    let rest = line.get(at..)?.trim_ascii_start();
    let q = *rest.first().filter(|q| matches!(q, b'\'' | b'"' | b'`'))?;
    let end = memchr::memchr(q, &rest[1..])?;
    let s = &rest[1..1 + end];
    (!s.contains(&b'$')).then(|| String::from_utf8_lossy(s).into_owned())
}

/// The names a declaration before `= require(` binds: `x` of `const x =` (or of `, x =` in a
/// list), `a` and `c` of `const { a, b: c } =`. A property (`module.exports =`) binds none.
fn bound_before(before: &[u8]) -> Vec<String> {
    let t = before.trim_ascii_end();
    let Some(t) = t.strip_suffix(b"=") else {
        return Vec::new();
    };
    if t.last()
        .is_some_and(|b| matches!(b, b'=' | b'!' | b'<' | b'>'))
    {
        return Vec::new();
    }
    let t = t.trim_ascii_end();
    if t.ends_with(b"}") {
        return match memchr::memrchr(b'{', t) {
            Some(o) => braced_names(&t[o..], b":"),
            None => Vec::new(),
        };
    }
    let n = t.iter().rev().take_while(|b| is_ident(**b)).count();
    let (head, name) = t.split_at(t.len() - n);
    let head = head.trim_ascii_end();
    let declared = head.ends_with(b"const")
        || head.ends_with(b"let")
        || head.ends_with(b"var")
        || head.ends_with(b",");
    if n == 0 || !declared || name[0].is_ascii_digit() {
        return Vec::new();
    }
    vec![String::from_utf8_lossy(name).into_owned()]
}

/// The local names of a braced list (`{ a, b: c }` with `rename` `:`, `{ a, b as c }` with
/// ` as `): `a` and `c`.
fn braced_names(braced: &[u8], rename: &[u8]) -> Vec<String> {
    let inner = braced.strip_prefix(b"{").unwrap_or(braced);
    let inner = match memchr::memchr(b'}', inner) {
        Some(c) => &inner[..c],
        None => return Vec::new(),
    };
    inner
        .split(|b| *b == b',')
        .filter_map(|entry| {
            let entry = entry.trim_ascii();
            // TypeScript's inline type import (`{type Options}`).
            let entry = entry.strip_prefix(b"type ").unwrap_or(entry).trim_ascii();
            let local = match memchr::memmem::rfind(entry, rename) {
                Some(r) => &entry[r + rename.len()..],
                None => entry,
            };
            // A default value (`a = 1`) follows the name.
            let local = local
                .split(|b| *b == b'=')
                .next()
                .unwrap_or(b"")
                .trim_ascii();
            (!local.is_empty() && local.iter().all(|b| is_ident(*b)) && !local[0].is_ascii_digit())
                .then(|| String::from_utf8_lossy(local).into_owned())
        })
        .collect()
}

/// Each line of `hay` holding `needle`, once, in order: where it starts and its bytes.
fn lines_holding<'h>(hay: &'h [u8], needle: &'h [u8]) -> impl Iterator<Item = (usize, &'h [u8])> {
    let mut next_line = 0;
    memchr::memmem::find_iter(hay, needle).filter_map(move |at| {
        if at < next_line {
            return None;
        }
        let ls = memchr::memrchr(b'\n', &hay[..at]).map_or(0, |i| i + 1);
        let le = memchr::memchr(b'\n', &hay[at..]).map_or(hay.len(), |i| at + i);
        next_line = le + 1;
        Some((ls, &hay[ls..le]))
    })
}

/// The names that Python imports in `hay` bind to modules: `import a.b` binds `a` to `a`;
/// `import a.b as x` binds `x` to `a/b`; `from p import m [as y]` binds `m` (`y`) to `p/m`,
/// which is a module only when such a file exists (resolution decides).
pub fn python_bindings(hay: &[u8]) -> Vec<Binding> {
    let mut out: Vec<Binding> = Vec::new();
    // Every import line holds `import ` (`from p import m` too): only those lines are read.
    for (ls, line) in lines_holding(hay, b"import ") {
        // A doctest's import (`>>> import x`) binds nothing here: its uses are examples, mixed
        // with their printed output (`<doctest test.test_pdb…>`).
        let lead = line
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        // Only an import line binds a name: most lines are not, and need no decoding.
        let head = &line[lead..];
        if !head.starts_with(b"import ") && !head.starts_with(b"from ") {
            continue;
        }
        let body = match std::str::from_utf8(head) {
            Ok(b) => b.trim_end(),
            Err(_) => continue,
        };
        let body = body.split('#').next().unwrap_or("").trim_end();
        if let Some(rest) = body.strip_prefix("import ") {
            for part in rest.split(',') {
                let mut words = part.split_whitespace();
                let Some(module) = words.next() else { continue };
                let alias = match (words.next(), words.next()) {
                    (Some("as"), Some(a)) => Some(a),
                    _ => None,
                };
                if !is_dotted(module) {
                    continue;
                }
                match alias {
                    Some(a) => push_binding(&mut out, a, module_path(module), false),
                    None => {
                        let top = module.split('.').next().unwrap_or(module);
                        push_binding(&mut out, top, module_path(top), false);
                    }
                }
            }
        } else if let Some(rest) = body.strip_prefix("from ") {
            let Some((module, names)) = rest.split_once(" import ") else {
                continue;
            };
            let module = module.trim();
            if !is_dotted(module) {
                continue;
            }
            let base = module_path(module);
            let sep = if base.ends_with('/') { "" } else { "/" };
            // A parenthesised list may go on over the next lines (`from p import (`).
            let names = if names.trim_start().starts_with('(') && !names.contains(')') {
                let rest = &hay[(ls + line.len()).min(hay.len())..];
                let close = memchr::memchr(b')', rest).unwrap_or(0);
                let more = std::str::from_utf8(&rest[..close]).unwrap_or("");
                let listed = more.lines().all(|l| python_name_list(l.as_bytes()));
                let more: String = more
                    .lines()
                    .map(|l| l.split('#').next().unwrap_or(""))
                    .collect::<Vec<_>>()
                    .join(" ");
                if listed {
                    format!("{names} {more}")
                } else {
                    names.to_string()
                }
            } else {
                names.to_string()
            };
            for part in names
                .trim_matches(|c| c == '(' || c == ')' || c == ' ')
                .split(',')
            {
                let mut words = part.split_whitespace();
                let Some(name) = words.next() else { continue };
                if name == "*" || !is_dotted(name) || name.contains('.') {
                    continue;
                }
                let bound = match (words.next(), words.next()) {
                    (Some("as"), Some(a)) => a,
                    _ => name,
                };
                push_binding(&mut out, bound, format!("{base}{sep}{name}"), true);
            }
        }
    }
    // `name = importlib.import_module("pkg.mod")` binds the module as `import pkg.mod as name`.
    for (_, line) in lines_holding(hay, b"import_module(") {
        if let Some((bound, module)) = import_module_call(line) {
            push_binding(&mut out, bound, module_path(module), false);
        }
    }
    out
}

/// `(name, "pkg.mod")` of a line `name = importlib.import_module("pkg.mod")` (or
/// `import_module('pkg.mod')`): an absolute module named by a literal, assigned to a name.
fn import_module_call(line: &[u8]) -> Option<(&str, &str)> {
    let line = std::str::from_utf8(line).ok()?.trim();
    let (bound, call) = line.split_once('=')?;
    let bound = bound.trim();
    let call = call.trim();
    let call = call.strip_prefix("importlib.").unwrap_or(call);
    let arg = call.strip_prefix("import_module(")?;
    let q = arg.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let (module, rest) = arg[1..].split_once(q)?;
    let closes = rest.trim_start().starts_with(')');
    let ident = !bound.is_empty()
        && bound
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !bound.as_bytes()[0].is_ascii_digit();
    (closes && ident && is_dotted(module)).then_some((bound, module))
}

/// The submodules a package's `__init__.py` imports from (`from .sub import x`, `from .sub.deep
/// import y`), each bound to its name as importing it binds it on the package.
pub fn package_submodule_bindings(hay: &[u8]) -> Vec<Binding> {
    let mut out = Vec::new();
    for (_, line) in lines_holding(hay, b"from .") {
        let Ok(body) = std::str::from_utf8(line.trim_ascii()) else {
            continue;
        };
        let Some((module, _)) = body
            .strip_prefix("from .")
            .and_then(|r| r.split_once(" import "))
        else {
            continue;
        };
        let sub = module.split('.').next().unwrap_or("");
        if !sub.is_empty() && !module.starts_with('.') {
            push_binding(&mut out, sub, format!("./{sub}"), false);
        }
    }
    out
}

fn push_binding(out: &mut Vec<Binding>, bound: &str, module: String, from_import: bool) {
    let ok = !bound.is_empty()
        && bound
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if ok && !out.iter().any(|b| b.bound == bound) {
        out.push(Binding {
            bound: bound.to_string(),
            module,
            from_import,
        });
    }
}

fn is_dotted(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
}

/// Every qualified use `bound.attr` of a binding in `hay`: `(start, end)` of `bound`, skipping
/// attribute chains (`x.copy.y`), longer identifiers and the import lines themselves.
pub fn qualified_uses(hay: &[u8], bound: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let needle = format!("{bound}.");
    for at in memchr::memmem::find_iter(hay, needle.as_bytes()) {
        let before = at.checked_sub(1).map(|i| hay[i]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.') {
            continue;
        }
        let after = hay.get(at + needle.len());
        if !after.is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_') {
            continue;
        }
        let ls = memchr::memrchr(b'\n', &hay[..at]).map_or(0, |i| i + 1);
        let head = &hay[ls..at];
        let lead = head
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        let body = &head[lead..];
        if body.starts_with(b"import ") || body.starts_with(b"from ") {
            continue;
        }
        // A comment or a string is text, not code (`sys.audit("http.client.connect")`).
        let le = memchr::memchr(b'\n', &hay[at..]).map_or(hay.len(), |i| at + i);
        if in_comment_or_string(&hay[ls..le], at - ls, at - ls + bound.len(), Lang::Python) {
            continue;
        }
        out.push((at, at + bound.len()));
    }
    out
}

/// The triple-quoted strings of a Python file (docstrings, long texts): `(start, end)` in
/// order. A line-by-line look cannot tell that `Message-ID: spam` is inside one.
pub fn python_long_strings(hay: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(j) = memchr::memchr3(b'#', b'"', b'\'', &hay[i..]) {
        let at = i + j;
        let q = hay[at];
        if q == b'#' {
            i = memchr::memchr(b'\n', &hay[at..]).map_or(hay.len(), |k| at + k);
            continue;
        }
        let triple = [q, q, q];
        if hay[at..].starts_with(&triple) {
            let end =
                memchr::memmem::find(&hay[at + 3..], &triple).map_or(hay.len(), |k| at + 6 + k);
            out.push((at, end));
            i = end;
            continue;
        }
        // A short string ends at its closing quote or the line's end.
        let mut k = at + 1;
        while k < hay.len() && hay[k] != q && hay[k] != b'\n' {
            k += if hay[k] == b'\\' { 2 } else { 1 };
        }
        i = (k + 1).min(hay.len());
    }
    out
}

/// Whether `at` lies inside one of `spans` (ordered, disjoint).
pub fn inside(spans: &[(usize, usize)], at: usize) -> bool {
    let i = spans.partition_point(|(s, _)| *s <= at);
    i > 0 && at < spans[i - 1].1
}

/// Every name a `from p import …` line lists, each with where it is written and the module
/// path of its package (`./wrappers`, `Response` in `from .wrappers import Response`): what
/// each import line itself imports, whichever binding of the name the file keeps.
pub fn from_imports(hay: &[u8]) -> Vec<(usize, usize, String)> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    for (at, line) in lines_holding(hay, b" import ") {
        let lead = line
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        let Some(rest) = line[lead..].strip_prefix(b"from ") else {
            continue;
        };
        let Some(i) = memchr::memmem::find(rest, b" import ") else {
            continue;
        };
        let module = std::str::from_utf8(&rest[..i]).unwrap_or("").trim();
        if !is_dotted(module) {
            continue;
        }
        let package = module_path(module);
        let names_at = at + lead + 5 + i + 8;
        let end = memchr::memchr(b'#', &hay[names_at..at + line.len()])
            .map_or(at + line.len(), |j| names_at + j);
        let mut k = names_at;
        while k < end {
            if !ident(hay[k]) {
                k += 1;
                continue;
            }
            let s = k;
            while k < end && ident(hay[k]) {
                k += 1;
            }
            let word = &hay[s..k];
            // `as y` renames the name before it: the alias is no name of the package.
            let before = hay[names_at..s].trim_ascii_end();
            if word != b"as" && !before.ends_with(b" as") && !before.ends_with(b"\tas") {
                out.push((s, k, package.clone()));
            }
        }
    }
    out
}

/// Every use of a bound name as a whole identifier in code (`Scaffold` in
/// `class App(Scaffold):`): `(start, end)`, skipping attributes (`x.Scaffold`), longer
/// identifiers, the import lines themselves, comments and strings.
pub fn bare_uses(hay: &[u8], bound: &str) -> Vec<(usize, usize)> {
    bare_uses_within(hay, bound, 0..hay.len())
}

/// `bare_uses` that start within `span` of `hay`.
pub fn bare_uses_within(
    hay: &[u8],
    bound: &str,
    span: std::ops::Range<usize>,
) -> Vec<(usize, usize)> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let from = span.start;
    let to = (span.end + bound.len()).min(hay.len());
    for at in memchr::memmem::find_iter(&hay[from..to], bound.as_bytes()).map(|i| from + i) {
        let end = at + bound.len();
        let before = at.checked_sub(1).map(|i| hay[i]);
        if before.is_some_and(|b| ident(b) || b == b'.') || hay.get(end).is_some_and(|b| ident(*b))
        {
            continue;
        }
        let ls = memchr::memrchr(b'\n', &hay[..at]).map_or(0, |i| i + 1);
        let body = hay[ls..at].trim_ascii_start();
        if body.starts_with(b"import ") || body.starts_with(b"from ") {
            continue;
        }
        let le = memchr::memchr(b'\n', &hay[at..]).map_or(hay.len(), |i| at + i);
        let line = &hay[ls..le];
        match prose_at(line, at - ls, end - ls, Lang::Python) {
            None => {}
            Some(Prose::String) if quoted_annotation(line, at - ls) => {}
            Some(_) => continue,
        }
        out.push((at, end));
    }
    out
}

/// Whether the string holding `line[s..]` is a quoted annotation, a type written ahead of its
/// definition (`stop: "StopBaseT | object" = _unset`, `-> "Retrying"`): code, as the names a
/// file imports under `TYPE_CHECKING` are used. Its content is a type expression alone.
fn quoted_annotation(line: &[u8], s: usize) -> bool {
    let Some(q) = line[..s].iter().rposition(|b| matches!(b, b'"' | b'\'')) else {
        return false;
    };
    let quote = line[q];
    let Some(close) = line[q + 1..].iter().position(|b| *b == quote) else {
        return false;
    };
    let typed = line[q + 1..q + 1 + close]
        .iter()
        .all(|b| b.is_ascii_alphanumeric() || b" _.|[],".contains(b));
    let head = line[..q].trim_ascii_end();
    let annotated = head.ends_with(b"->")
        || head.strip_suffix(b":").is_some_and(|h| {
            h.last()
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        });
    typed && annotated
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_binds_relative_modules_by_require_and_import() {
        let src = b"const only = require('./only')\n\
var a = require('x'), helpers = require(\"../lib/helpers\")\n\
const { mixin, b: tally } = require('./util')\n\
module.exports = require('./lib/express')\n\
if (x == require('./eq')) {}\n\
import context from '../test-helpers/context.js'\n\
import * as ns from './ns'\n\
import def, { one, two as three } from './m'\n\
import pkg from 'pkg'\n";
        let got: Vec<(String, String)> = script_bindings(src)
            .into_iter()
            .map(|b| (b.bound, b.spec))
            .collect();
        let want: Vec<(String, String)> = [
            ("only", "./only"),
            ("helpers", "../lib/helpers"),
            ("mixin", "./util"),
            ("tally", "./util"),
            ("context", "../test-helpers/context.js"),
            ("ns", "./ns"),
            ("def", "./m"),
            ("one", "./m"),
            ("three", "./m"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn a_script_writes_its_module_specifiers() {
        let src = b"import {A} from '../errors/A.js';\n\
export * from './b.js'\n\
import './side.js'\n\
const c = await import('./c.js')\n\
const d = require(\"./d\")\n\
const s = 'from ./not-a-spec.js'\n\
import pkg from 'pkg'\n";
        let got: Vec<String> = script_specs(src)
            .into_iter()
            .map(|(at, s)| {
                assert_eq!(&src[at..at + s.len()], s.as_bytes());
                s
            })
            .collect();
        assert_eq!(
            got,
            ["../errors/A.js", "./b.js", "./side.js", "./c.js", "./d"]
        );
    }

    #[test]
    fn a_script_uses_its_binding_unless_it_declares_the_name_again() {
        let lines: std::collections::HashSet<usize> = [0].into_iter().collect();
        let src = b"const tally = require('./tally')\n\
x = tally(1) + new tally.T()\n\
y = { tally: 1 }; z = o.tally\n\
// tally(2)\n\
s = 'tally'\n\
assert.match(out, /--tally/)\n\
app.all('/x/:id{/:op}', tally)\n";
        let got = script_uses_of(src, "tally", &lines, false).unwrap_or_default();
        let at: Vec<&[u8]> = got.iter().map(|(s, e)| &src[*s..*e]).collect();
        assert_eq!(got.len(), 3, "{got:?}");
        // A spread is the binding's use; a member of something else is not.
        let spread =
            b"import tally from './tally'\nconst s = {...tally.all}; f(...tally); g(a.tally)\n";
        let got = script_uses_of(spread, "tally", &lines, false).map(|u| u.len());
        assert_eq!(got, Some(2));
        assert!(at.iter().all(|w| *w == b"tally"));
        for shadow in [
            &b"const tally = require('./tally')\nfunction f (a, tally) {}\n"[..],
            b"const tally = require('./tally')\nlist.map((tally) => tally)\n",
            b"const tally = require('./tally')\nlet tally = 2\n",
            b"const tally = require('./tally')\ntally = 3\n",
            b"import {tally} from './tally.js'\nconst f = (x, tally: T) => x\n",
        ] {
            assert_eq!(
                script_uses_of(shadow, "tally", &lines, false),
                None,
                "{shadow:?}"
            );
        }
        // A type annotation or a cast in a parameter list names the module's class.
        for typed in [
            &b"import {Tally} from './Tally.js'\nconst f = (e: Tally) => e instanceof Tally\n"[..],
            b"import {Tally} from './Tally.js'\nfunction f (e = new Tally()) { return e as Tally }\n",
            b"import {Tally} from './Tally.js'\nconst e: Tally = new Tally()\n",
            // A return type before an arrow.
            b"import {Tally} from './Tally.js'\nconst f = (x: Tally): Tally =>\n  x\n",
        ] {
            assert_eq!(
                script_uses_of(typed, "Tally", &lines, false).map(|u| u.len()),
                Some(2),
                "{typed:?}"
            );
        }
    }

    #[test]
    fn an_import_over_several_lines_binds_each_name_it_lists() {
        let src = b"import {\n  HTTPError,\n  type Options,\n} from '../source/index.js';\nx()\n";
        let got: Vec<(String, String, usize)> = script_bindings(src)
            .into_iter()
            .map(|b| (b.bound, b.spec, b.end))
            .collect();
        let end = src.iter().position(|b| *b == b';').unwrap_or(0) + 1;
        assert_eq!(
            got,
            vec![
                ("HTTPError".into(), "../source/index.js".into(), end),
                ("Options".into(), "../source/index.js".into(), end),
            ]
        );
        // A block that opens braces is no import statement.
        assert!(script_bindings(b"import x from './x'\nif (a) {\n}\n").len() == 1);
    }

    #[test]
    fn a_distinctive_name_counts_in_a_scripts_prose_too() {
        let src = b"import {HTTPError} from './HTTPError.js'\n\
                    test('HTTPError handles it', t => {})\n\
                    // thrown as HTTPError\n\
                    const n = 'HTTPError'\n\
                    const v = 'tmpl'\n";
        let lines: std::collections::HashSet<usize> = [0].into_iter().collect();
        let count = |name: &str, prose| script_uses_of(src, name, &lines, prose).map(|u| u.len());
        assert_eq!(count("HTTPError", false), Some(0));
        // The title, the comment, the class's name as a string.
        assert_eq!(count("HTTPError", true), Some(3));
        // A lower-case name alone in a string is a value.
        assert_eq!(count("tmpl", true), Some(0));
    }

    #[test]
    fn a_from_import_lists_its_names() {
        let hay =
            b"from .wrappers import Response\n  from .x import (Rule as R, Map)  # y\nResponse()\n";
        let got: Vec<(&[u8], String)> = from_imports(hay)
            .into_iter()
            .map(|(s, e, p)| (&hay[s..e], p))
            .collect();
        let want: Vec<(&[u8], String)> = vec![
            (b"Response", "./wrappers".into()),
            (b"Rule", "./x".into()),
            (b"Map", "./x".into()),
        ];
        assert_eq!(got, want);
        assert_eq!(bare_uses(hay, "Response"), vec![(70, 78)]);
    }

    #[test]
    fn long_strings_are_found_past_comments_and_short_strings() {
        let hay = b"x = '\"\"\"'  # '''\ny = \"\"\"doc\nMessage-ID\"\"\"\nz = 1\n";
        let spans = python_long_strings(hay);
        assert_eq!(spans.len(), 1, "{spans:?}");
        let at = |s: &str| memchr::memmem::find(hay, s.as_bytes()).unwrap_or(usize::MAX);
        assert!(inside(&spans, at("Message")));
        assert!(!inside(&spans, at("z = 1")));
        assert!(!inside(&spans, at("x = ")));
    }

    #[test]
    fn a_section_sign_after_a_name_cites_a_section() {
        for line in [
            "Plans follow CLAUDE.md §3.",
            "See `CLAUDE.md` § Plans.",
            "(CLAUDE.md §문서 구조)",
        ] {
            assert!(has(&cue(line, "CLAUDE.md", "a.md"), SECTION), "{line}");
        }
        for line in ["Read CLAUDE.md first.", "CLAUDE.md, § 3 of the guide"] {
            assert!(!has(&cue(line, "CLAUDE.md", "a.md"), SECTION), "{line}");
        }
    }

    #[test]
    fn a_name_a_script_runs_with_options_is_its_subcommand() {
        for (line, path) in [
            ("node utils/cli.js spec-review --choice x", "a.md"),
            ("`workflow_cli.js spec-review --choice`", "a.md"),
            ("run(['spec-review', '--choice', 'x'])", "t.js"),
            (
                "help(['--project-id', 'X', 'spec-review', '--help'])",
                "t.js",
            ),
            ("The CLI `spec-review` rejects it.", "a.md"),
            ("$ node cli.js spec-review --choice x", "a.sh"),
            ("node cli.js --root \"$PWD\" spec-review --choice x", "a.sh"),
        ] {
            assert!(has(&cue(line, "spec-review", path), PROGRAM), "{line}");
        }
        for (line, path) in [
            // Invoked; run with its flag, its slash left out (in prose, a shell line or a
            // program's message); a word after a subcommand; an option's value; the word after
            // an invocation; no options; the CLI's thing of a kind.
            ("Run `/spec-review --check-upgrade`.", "a.md"),
            ("Where `spec-review --choice` took over a name", "a.md"),
            ("spec-review --choice x", "a.sh"),
            ("print(\"before \" \"spec-review --force\")", "a.py"),
            ("node gsd-tools.cjs resolve-model spec-review --raw", "a.sh"),
            ("plan-phase spec-review --gaps handles fixes", "a.md"),
            ("claude --agent spec-review --print", "a.sh"),
            ("run(['--skill', 'spec-review', '--fast'])", "t.js"),
            ("run --skill=spec-review --fast", "a.sh"),
            ("`/delegate spec-review --fast`", "a.md"),
            ("Then `spec-review` lints the specs.", "a.md"),
            ("the CLI's `spec-review` agent", "a.md"),
            ("the landed CLI (spec-review runbook)", "a.md"),
        ] {
            assert!(!has(&cue(line, "spec-review", path), PROGRAM), "{line}");
        }
    }

    fn cue(line: &str, name: &str, path: &str) -> Cue {
        let s = line
            .find(name)
            .unwrap_or_else(|| panic!("{name} in {line}"));
        cue_at(
            line.as_bytes(),
            s,
            s + name.len(),
            lang_of(path, line.as_bytes()),
        )
    }

    fn has(c: &Cue, bit: u64) -> bool {
        c.bits & bit != 0
    }

    #[test]
    fn a_brace_alternative_of_a_path_is_the_path_it_expands_to() {
        let line = "- `agents/{plan-reviewer,code-reviewer,architecture-reviewer}.md:5` — x";
        for (name, path) in [
            ("plan-reviewer", "agents/plan-reviewer.md"),
            ("code-reviewer", "agents/code-reviewer.md"),
            ("architecture-reviewer", "agents/architecture-reviewer.md"),
        ] {
            let c = cue(line, name, "a.md");
            assert_eq!(c.via.as_deref(), Some(path), "{name}");
            assert!(!has(&c, GLOB) && !has(&c, MIDPATH), "{c:?}");
        }
        let c = cue("See skills/{alpha,beta-two}/SKILL.md.", "beta-two", "a.md");
        assert_eq!(c.via.as_deref(), Some("skills/beta-two/SKILL.md"));
        // A set that is no path's, or a glob's, or a folder's, expands to no file.
        let alt = |line: &str, name: &str| {
            let s = line
                .rfind(name)
                .unwrap_or_else(|| panic!("{name} in {line}"));
            brace_alternative(line.as_bytes(), s, s + name.len())
        };
        assert_eq!(alt("ranges {1,3} here", "3"), None);
        assert_eq!(
            alt("\"eslint \\\"{src,apps,test}/**/*.ts\\\" --fix\"", "test"),
            None
        );
        assert_eq!(alt("files *.{js,ts}", "ts"), None);
        assert_eq!(alt("skills/{a,b}/ then", "b"), None);
        // Part of an alternative is no alternative.
        assert_eq!(alt("agents/{plan-reviewer,code}.md", "reviewer"), None);
        let whole = alt("agents/{plan-reviewer,code}.md", "code");
        assert_eq!(whole, Some((0, "agents/code.md".to_string())));
        // Spaced after the commas, and with no extension after the set.
        let spaced = "`rules/{counting-scale, stat-bars}` |";
        assert_eq!(
            alt(spaced, "stat-bars"),
            Some((1, "rules/stat-bars".to_string()))
        );
        assert_eq!(
            alt(spaced, "counting-scale"),
            Some((1, "rules/counting-scale".to_string()))
        );
        // A space elsewhere in the braces is a sentence's, not a set's.
        assert_eq!(
            alt("rules/{see the counting-scale, x}", "counting-scale"),
            None
        );
    }

    #[test]
    fn a_file_name_before_a_colon_is_no_namespace() {
        let line = "FILES=(\"CLAUDE.md:UPSTREAM-CLAUDE.md\")";
        let c = cue(line, "UPSTREAM-CLAUDE.md", "a.sh");
        assert!(!has(&c, NAMESPACE), "{c:?}");
        let c = cue("use `core:hatch` now", "hatch", "a.md");
        assert!(
            has(&c, NAMESPACE) && c.via.as_deref() == Some("core:"),
            "{c:?}"
        );
    }

    #[test]
    fn a_variable_named_for_a_kind_says_its_items_are_of_that_kind() {
        for (line, name, kind) in [
            ("  RECOMMENDED_SKILLS+=(\"use-hook\")", "use-hook", AS_SKILL),
            ("  SKILLS+=(\"ctx-api\" \"use-hook\")", "use-hook", AS_SKILL),
            (
                "const reviewAgents = [\"a-x\", \"code-rev\"];",
                "code-rev",
                AS_AGENT,
            ),
            ("pre_commit_hooks: ['fmt-x']", "fmt-x", AS_HOOK),
        ] {
            let c = cue(line, name, "a.sh");
            assert!(has(&c, KEY) && has(&c, kind), "{line}");
        }
        // A value compared, an array of another name, a sentence's brackets: no key.
        for (line, name) in [
            ("if [ \"$x\" = \"use-hook\" ]; then", "use-hook"),
            ("NAMES=(\"use-hook\")", "use-hook"),
            ("see [the \"use-hook\" skill]", "use-hook"),
            ("skillsets = [\"use-hook\"]", "use-hook"),
        ] {
            assert!(!has(&cue(line, name, "a.sh"), KEY), "{line}");
        }
    }

    #[test]
    fn a_route_between_names_in_a_code_span_is_no_command() {
        let run = "run `spec-bug investigate` now";
        assert!(has(&cue(run, "spec-bug", "a.md"), RUN));
        for line in [
            "a `spec-bug → plan-bug` move",
            "pair (`lazy-batch ↔ lazy-bug`)",
        ] {
            let name = line.split('`').nth(1).and_then(|s| s.split(' ').next());
            let name = name.unwrap_or_default();
            assert!(!has(&cue(line, name, "a.md"), RUN), "{line}");
        }
    }

    #[test]
    fn the_global_file_and_a_spawned_name_are_said_so() {
        for line in [
            "Install the global `CLAUDE.md` first",
            "the user-level CLAUDE.md",
        ] {
            assert!(has(&cue(line, "CLAUDE.md", "a.md"), GLOBAL), "{line}");
        }
        assert!(!has(
            &cue("read CLAUDE.md globally", "CLAUDE.md", "a.md"),
            GLOBAL
        ));
        // What is spawned is an agent; what spawns is not said to be one.
        let spawn = "then spawn **`p:my-review`** (model: x)";
        assert!(has(&cue(spawn, "my-review", "a.md"), AS_AGENT));
        let spawns = "the reviewer `/my-review` spawns";
        assert!(!has(&cue(spawns, "my-review", "a.md"), AS_AGENT));
    }

    #[test]
    fn a_file_said_to_be_at_the_project_root_is_the_roots() {
        for line in [
            "read `settings.json` at project root.",
            "if CLAUDE.md in the repository root exists",
            "the CLAUDE.md at the project root)",
        ] {
            let name = if line.contains("settings") {
                "settings.json"
            } else {
                "CLAUDE.md"
            };
            assert!(has(&cue(line, name, "a.md"), ROOT), "{line}");
        }
        for line in ["CLAUDE.md at project level", "CLAUDE.md in the root folder"] {
            assert!(!has(&cue(line, "CLAUDE.md", "a.md"), ROOT), "{line}");
        }
    }

    #[test]
    fn a_word_in_capitals_standing_alone_is_marked_in_documents_only() {
        for line in [
            "- MANIFEST + REGISTRY = no blockers",
            "registration requirements (MANIFEST, REGISTRY)",
            "boundary (already policy — GOVERNANCE three-condition gate).",
            "### 1.3 REGISTRY Gate References",
            "SKILL.md -> REGISTRY -> orchestrator",
        ] {
            let name = if line.contains("REGISTRY") {
                "REGISTRY"
            } else {
                "GOVERNANCE"
            };
            assert!(has(&cue(line, name, "a.md"), CAPS), "{line}");
        }
        for (line, name) in [
            ("EXAMPLES:", "EXAMPLES"),
            ("## REGISTRY", "REGISTRY"),
            ("DO NOT EDIT THIS FILE", "EDIT"),
            ("sed -i x \"$ROADMAP\"", "ROADMAP"),
            ("[REFERENCE 2]", "REFERENCE"),
            ("PLUG[PLUGIN]", "PLUG"),
            ("use TODO(human) markers", "TODO"),
            ("transcripts/{scope,SUMMARY}.md", "SUMMARY"),
            ("REPAIR --> RERUN", "REPAIR"),
            ("HUMAN --> REPAIR", "REPAIR"),
            ("the Registry", "Registry"),
            ("the API docs", "API"),
        ] {
            assert!(!has(&cue(line, name, "a.md"), CAPS), "{line}");
        }
        // Code's capitals are constants, data's are values.
        assert!(!has(&cue("x = REGISTRY", "REGISTRY", "a.py"), CAPS));
        let data = cue_in(b"[\"SPEC\", 1]", 2, 6, lang_of("a.json", b""), true);
        assert!(!has(&data, CAPS));
    }

    #[test]
    fn a_brace_set_in_a_path_is_a_pattern() {
        let c = |t: &str, n: &str| cue(t, n, "a.md");
        assert!(has(
            &c("`Glob <slug>/{spec,tests,retro}.md`", "retro"),
            GLOB
        ));
        // Under real folders, the files the set expands to.
        assert!(!has(&c("hooks/{pre,post}-commit.sh", "pre"), GLOB));
        // Braces that are no set of a path's alternatives: a placeholder, code, a list.
        assert!(!has(&c("`{retro}` and {retro, spec}", "retro"), GLOB));
        assert!(!has(&c("import {retro,spec} from './x'", "retro"), GLOB));
    }

    #[test]
    fn a_glob_is_a_pattern_bold_is_not() {
        assert!(has(
            &cue("see `rules/*/style.md`", "style.md", "a.md"),
            GLOB
        ));
        assert!(!has(&cue("see **style.md** now", "style.md", "a.md"), GLOB));
        // A leading wildcard still ends in one path.
        assert!(!has(&cue("r'*/pkg/style.py'", "style.py", "a.md"), GLOB));
    }

    #[test]
    fn words_joined_by_slashes_are_a_run_paths_are_not() {
        let c = cue(
            "prevents bug-hunter/verifier subagents.",
            "bug-hunter",
            "a.md",
        );
        assert!(has(&c, SLASHED) && !has(&c, MIDPATH), "{c:?}");
        assert_eq!(c.via.as_deref(), Some("bug-hunter/verifier"));
        let c = cue("prevents bug-hunter/verifier.", "verifier", "a.md");
        assert_eq!(
            c.via.as_deref(),
            Some("bug-hunter/verifier"),
            "the full stop is the sentence's"
        );
        // A team's roster runs long (`CTO + infra-architect/…/incident-responder`).
        let roster = "a-b/c-d/e-f/g-h/i-j/k-l/m-n/incident-responder";
        let c = cue(&format!("CTO + {roster}"), "incident-responder", "a.md");
        assert_eq!(c.via.as_deref(), Some(roster), "{c:?}");
        // A file, a leading slash, a home path, a code span, code: paths or division.
        for (line, name) in [
            ("see rules/style.md", "style.md"),
            ("run /plan/x", "plan"),
            ("in ~/.claude/agents", "agents"),
            ("rules `swift/security`", "security"),
        ] {
            assert!(!has(&cue(line, name, "a.md"), SLASHED), "{line}");
        }
        assert!(!has(&cue("x = total/count", "count", "a.py"), SLASHED));
        let git = "git rev-parse refs/heads/handoff/p/claude";
        assert!(!has(&cue(git, "handoff", "t.bats"), SLASHED));
        assert!(has(
            &cue("# the lint/review hooks", "review", "t.sh"),
            SLASHED
        ));
        // A run's place in a table is not its words'.
        assert!(!has(
            &cue("| Auth/security | 100% |", "security", "a.md"),
            LIST
        ));
    }

    #[test]
    fn a_path_after_an_invocations_namespace_is_invoked() {
        let has = |c: &Cue, bit| c.bits & bit != 0;
        let c = cue("run `/project:tm/learn` now", "learn", "a.md");
        assert!(has(&c, SLASH), "{c:?}");
        assert_eq!(c.via.as_deref(), Some("tm/learn"));
        assert!(!has(&cue("see tm/learn here", "learn", "a.md"), SLASH));
        assert!(!has(
            &cue("at http://host:tm/learn", "learn", "a.md"),
            SLASH
        ));
    }

    #[test]
    fn a_shell_lines_bare_words_are_its_own() {
        let has = |c: &Cue, bit| c.bits & bit != 0;
        assert!(has(
            &cue("task-master parse-prd x.txt", "parse-prd", "a.sh"),
            SHELL_WORD
        ));
        assert!(!has(
            &cue("# then parse-prd runs", "parse-prd", "a.sh"),
            SHELL_WORD
        ));
        assert!(!has(
            &cue("echo \"use parse-prd\"", "parse-prd", "a.sh"),
            SHELL_WORD
        ));
        assert!(!has(
            &cue("x = parse_prd(1)", "parse_prd", "a.py"),
            SHELL_WORD
        ));
    }

    #[test]
    fn interpolations_in_strings_are_code() {
        let at = |line: &str, name: &str, lang| {
            let s = line
                .rfind(name)
                .unwrap_or_else(|| panic!("{name} in {line}"));
            in_comment_or_string(line.as_bytes(), s, s + name.len(), lang)
        };
        assert!(!at("u = f\"v/{pkg.ver}\"", "pkg", Lang::Python));
        assert!(!at("u = rf'{pkg}'", "pkg", Lang::Python));
        assert!(at("u = \"v/{pkg}\"", "pkg", Lang::Python));
        assert!(at("u = f\"{{pkg}}\"", "pkg", Lang::Python));
        assert!(!at("const u = `v/${lib.ver}`;", "lib", Lang::Script));
        assert!(at("const u = `v/lib`;", "lib", Lang::Script));
    }

    #[test]
    fn in_code_a_dot_or_a_lone_string_says_the_word_is_the_codes() {
        let has = |c: &Cue, bit| c.bits & bit != 0;
        assert!(has(
            &cue("ok = p.suffix in {\".xlsx\"}", "xlsx", "a.py"),
            DOTTED
        ));
        assert!(has(&cue("cat in.pdf | wc", "pdf", "a.sh"), DOTTED));
        assert!(!has(&cue("See in.pdf for it.", "pdf", "a.md"), DOTTED));
        assert!(has(
            &cue("if s == \"tdd-flow\":", "tdd-flow", "a.py"),
            LITERAL
        ));
        assert!(!has(
            &cue("\"\"\"Helpers for tdd-flow runs.\"\"\"", "tdd-flow", "a.py"),
            LITERAL
        ));
        assert!(!has(
            &cue("Run \"tdd-flow\" now", "tdd-flow", "a.md"),
            LITERAL
        ));
        // A multi-word code span holds code: a slash there is a type's or a path's, not a run
        // of alternatives.
        let span = "Send `{\"type\": \"text/tdd-flow\"}` first";
        assert!(!has(&cue(span, "tdd-flow", "a.md"), SLASHED));
        assert!(has(
            &cue("the tester/tdd-flow agents", "tdd-flow", "a.md"),
            SLASHED
        ));
    }

    #[test]
    fn code_span_quote_slash_namespace() {
        assert!(has(&cue("invoke the `scan` skill", "scan", "a.md"), CODE));
        assert!(has(&cue("invoke the `scan` skill", "scan", "a.md"), ENTITY));
        assert!(has(&cue("run \"review\" now", "review", "a.md"), QUOTED));
        let line = "  \"keywords\": [\"review\", \"x\"]";
        let s = line.find("review").unwrap_or(0);
        assert!(!has(&cue_in(line.as_bytes(), s, s + 6, None, true), QUOTED));
        let c = cue("Run /plan next", "plan", "a.md");
        assert!(has(&c, SLASH) && c.via.is_none(), "{c:?}");
        let c = cue("- Run /conductor:status {id}", "status", "a.md");
        assert!(has(&c, SLASH) && has(&c, NAMESPACE), "{c:?}");
        assert_eq!(c.via.as_deref(), Some("conductor:"));
        let c = cue("make a plan for it", "plan", "a.md");
        assert_eq!(c.bits & NAMED, 0, "{c:?}");
    }

    #[test]
    fn paths_are_written_forms() {
        let c = cue(
            "see [x](../common/coding-style.md)",
            "coding-style.md",
            "a/b.md",
        );
        assert_eq!(c.via.as_deref(), Some("../common/coding-style.md"));
        let c = cue("@docs/guide.md", "guide.md", "a.md");
        assert_eq!(c.via.as_deref(), Some("docs/guide.md"));
        let c = cue("cat ~/.claude/agents/x.md", "x.md", "a.md");
        assert_eq!(c.via.as_deref(), Some("~/.claude/agents/x.md"));
        let c = cue("see https://example.com/docs/x.md", "x.md", "a.md");
        assert!(has(&c, URL), "{c:?}");
        let c = cue("plain x.md here", "x.md", "a.md");
        assert!(c.via.is_none());
        // A placeholder heads the path it stands in, a whole folder's name in any bracket;
        // markup that closes, or part of a folder's name, is none.
        for (line, via) in [
            (
                "run <skill-dir>/scripts/x.sh now",
                "<skill-dir>/scripts/x.sh",
            ),
            ("run [BASE]/scripts/x.sh now", "[BASE]/scripts/x.sh"),
            ("run {baseDir}/scripts/x.sh now", "{baseDir}/scripts/x.sh"),
            ("read roles/<role>/x.sh", "roles/<role>/x.sh"),
            ("<string>/home/u/x.sh</string>", "/home/u/x.sh"),
            ("see /tmp/run-<uid>/bin/x.sh", "/bin/x.sh"),
        ] {
            assert_eq!(
                cue(line, "x.sh", "a.md").via.as_deref(),
                Some(via),
                "{line}"
            );
        }
        // A shell substitution's folder heads the path it prints: the script's, above it, the
        // repository's; another's is unknown.
        for (line, via) in [
            (
                r#"A="$(cd "$(dirname "$0")/.." && pwd)/lib/x.sh""#,
                Some("./../lib/x.sh"),
            ),
            (
                r#"A="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/x.sh""#,
                Some("./lib/x.sh"),
            ),
            (
                r#"A="$(git rev-parse --show-toplevel)/lib/x.sh""#,
                Some("lib/x.sh"),
            ),
            (r#"A="$(mktemp -d)/lib/x.sh""#, Some("/lib/x.sh")),
        ] {
            assert_eq!(cue(line, "x.sh", "t/a.sh").via.as_deref(), via, "{line}");
        }
        // Another program's `+argument` names nothing of the tree; a sum in code is code's.
        let c = cue(
            "run `gws workflow +standup-report` daily",
            "standup-report",
            "a.md",
        );
        assert!(has(&c, LABEL), "{c:?}");
        let c = cue("total = base +standup", "standup", "a.py");
        assert!(!has(&c, LABEL), "{c:?}");
        // A closing tag is markup; a name before a colon and a word is another's namespace
        // or group (an npm script), not the file of the name.
        for (line, name) in [
            (r#"lines.push("</debug>")"#, "debug"),
            (
                "- Included in `hygiene:quick` and `commit:check` scripts",
                "hygiene",
            ),
        ] {
            assert!(has(&cue(line, name, "a.md"), LABEL), "{line}");
        }
        // A module's object and an entry point in code or data are the module's.
        let c = cue("# ``xml.sax.saxutils:escape``", "saxutils", "a.py");
        assert!(!has(&c, LABEL), "{c:?}");
        let line = r#"main = "cli:main""#;
        let s = line.find("cli").unwrap_or(0);
        let c = cue_in(line.as_bytes(), s, s + 3, None, true);
        assert!(!has(&c, LABEL), "{c:?}");
        for (line, name) in [
            ("run `/debug` now", "debug"),
            ("- planner: plans the work", "planner"),
            ("see server.cjs:42", "server.cjs"),
            ("use `/sc:hygiene` here", "hygiene"),
            ("the <ListSkeleton/> and </ListSkeleton>", "ListSkeleton"),
        ] {
            assert!(!has(&cue(line, name, "a.md"), LABEL), "{line}");
        }
        // A file name before "files" is the kind of file, as after "a" or "each".
        let c = cue("Scan all folders for CLAUDE.md files", "CLAUDE.md", "a.md");
        assert!(has(&c, ANY), "{c:?}");
        let c = cue("Read CLAUDE.md first", "CLAUDE.md", "a.md");
        assert!(!has(&c, ANY), "{c:?}");
        // A placeholder or a tag names no file.
        let c = cue(
            "write `<PLANS_DIR>/<session-id>-outline.md`",
            "session-id",
            "a.md",
        );
        assert!(has(&c, LABEL), "{c:?}");
        let c = cue("see session-id.js", "session-id", "a.md");
        assert!(!has(&c, LABEL), "{c:?}");
        let c = cue(
            "// The <ListSkeleton> mirrors the list",
            "ListSkeleton",
            "a.tsx",
        );
        assert!(!has(&c, LABEL), "{c:?}");
        // A link to an anchor of the page names a heading; a link to the file, the file.
        let c = cue(
            "- [A11y](#accessibility-testing)",
            "accessibility-testing",
            "a.md",
        );
        assert!(has(&c, LABEL), "{c:?}");
        let c = cue("<a href=\"#setup-guide\">", "setup-guide", "a.md");
        assert!(has(&c, LABEL), "{c:?}");
        let c = cue(
            "- [A11y](accessibility-testing.md)",
            "accessibility-testing.md",
            "a.md",
        );
        assert!(!has(&c, LABEL), "{c:?}");
        // A thing of another kind, named as the words after it say (alone or in a pair).
        let c = cue("the `e2e` job failed", "e2e", "a.md");
        assert!(has(&c, PROGRAM), "{c:?}");
        let c = cue("the `e2e` and `docker` jobs", "e2e", "a.md");
        assert!(has(&c, PROGRAM), "{c:?}");
        let c = cue("run `e2e` and `docker` later", "e2e", "a.md");
        assert!(!has(&c, PROGRAM), "{c:?}");
        // A kind said in parentheses after the name, hyphenated too.
        let c = cue("use `/dead-code` (sub-agent) or not", "dead-code", "a.md");
        assert!(has(&c, AS_AGENT), "{c:?}");
        let c = cue("use `/dead-code` (weekly) or not", "dead-code", "a.md");
        assert!(!has(&c, AS_AGENT), "{c:?}");
        let c = cue(
            "see \"My Notes/release plan.md\".",
            "release plan.md",
            "a.md",
        );
        assert_eq!(c.via.as_deref(), Some("My Notes/release plan.md"));
        // A web API's route is no invocation.
        for line in [
            "`GET /projects`",
            "| **Single** (`POST /emails`) |",
            "DELETE /projects",
            "- Missing /projects page",
            "the `/projects` endpoint",
        ] {
            let name = line.rsplit('/').next().unwrap_or(line);
            let name: String = name
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            let c = cue(line, &name, "a.md");
            assert!(has(&c, URL) && !has(&c, SLASH), "{line}");
        }
        assert!(has(&cue("run /projects now", "projects", "a.md"), SLASH));
        // A command is a route through a pipeline: "route" says nothing.
        assert!(has(
            &cue("the `/projects` route", "projects", "a.md"),
            SLASH
        ));
        // Not a sentence before an invocation, nor a word's apostrophe.
        for line in [
            "\"Voorkomt dat naar /game-build\"",
            "(that's /game-build's job)",
        ] {
            let c = cue(line, "game-build", "a.md");
            assert_eq!(c.via.as_deref(), None, "{line}");
            assert!(has(&c, SLASH), "{line}");
        }
        // Two paths in one span are two: the second is written from its own start.
        let line = "see `../refs/x.md refs/x.md` here";
        let s = line.rfind("x.md").unwrap_or_default();
        let c = cue_at(line.as_bytes(), s, s + 4, None);
        assert_eq!(c.via.as_deref(), Some("refs/x.md"));
    }

    #[test]
    fn a_program_is_run_with_a_flag_after_it() {
        for line in [
            "session-metrics --compare A.jsonl B.jsonl",
            "  $ session-metrics -v",
            "`session-metrics --compare a b` produces a paired comparison",
            "| `session-metrics --help` | Detailed help |",
            "3. Execute queries with `session-metrics query \"SQL\"`",
        ] {
            assert!(has(&cue(line, "session-metrics", "a.md"), RUN), "{line}");
        }
        for line in [
            "run session-metrics --compare",
            "session-metrics - the skill",
            "session-metrics records costs",
            "the `session-metrics` skill",
            "use `session-metrics`-style names",
            "(for example, :ref:`session-metrics <x>`)",
        ] {
            assert!(!has(&cue(line, "session-metrics", "a.md"), RUN), "{line}");
        }
        // In a shell example, the first word of a command runs, whatever follows.
        for text in [
            "```bash\nsession-metrics query \"x\"\n```\n",
            "```sh\n$ session-metrics\n```\n",
        ] {
            let s = text.find("session-metrics").unwrap_or(0);
            let langs = FileLangs::of("a.md", text.as_bytes());
            let c = langs.cue(text.as_bytes(), s, s + "session-metrics".len(), false);
            assert!(has(&c, RUN), "{text}");
        }
        let text = "```bash\necho session-metrics query\n# session-metrics x\n```\n";
        let langs = FileLangs::of("a.md", text.as_bytes());
        for (s, _) in text.match_indices("session-metrics") {
            let c = langs.cue(text.as_bytes(), s, s + "session-metrics".len(), false);
            assert!(!has(&c, RUN), "{text} at {s}");
        }
    }

    #[test]
    fn a_package_manager_runs_or_installs_a_package() {
        for (line, name) in [
            ("npx ruv-swarm hook pre-task", "ruv-swarm"),
            ("run `npx -y ecc-agentshield scan`", "ecc-agentshield"),
            ("uvx ruff check .", "ruff"),
            ("pip install -U requests httpx-sse", "httpx-sse"),
            ("npm install --save-dev eslint ruv-swarm", "ruv-swarm"),
            ("execSync(`npx ruv-swarm status`)", "ruv-swarm"),
            ("<code>claude /plugin install pm-skills</code>", "pm-skills"),
            ("/plugin install pm-skills@claude-code-skills", "pm-skills"),
            ("- **Command**: `npm test && npm run hygiene`", "hygiene"),
            ("bun run --silent evals", "evals"),
        ] {
            assert!(has(&cue(line, name, "a.md"), PACKAGE), "{line}");
        }
        // A script's argument is no script.
        let line = "- [ ] `bun run evals strategy-doc` passes";
        assert!(!has(&cue(line, "strategy-doc", "a.md"), PACKAGE), "{line}");
        // A script run by its name, which the manifest maps to a file (`scan::refs`); its
        // `:` suffix is the script's, no namespace.
        for (line, name) in [
            ("Run `pnpm gen` to write", "gen"),
            ("`pnpm gen:check` fails CI", "gen"),
            ("npm run --silent gen", "gen"),
            ("yarn lint", "lint"),
        ] {
            let c = cue(line, name, "a.md");
            assert!(has(&c, SCRIPT) && !has(&c, LABEL), "{line}");
            assert_eq!(has(&c, SCRIPT_GROUP), line.contains(":check"), "{line}");
        }
        for (line, name) in [
            ("npx gen", "gen"),
            ("pnpm add gen", "gen"),
            ("the gen step", "gen"),
        ] {
            assert!(!has(&cue(line, name, "a.md"), SCRIPT), "{line}");
        }
        for (line, name) in [
            // A runner's argument, a word before it, a chain of commands.
            ("npx tsx on-edit.ts", "on-edit"),
            ("ruv-swarm is run by npx", "ruv-swarm"),
            ("npm install && ruv-swarm init", "ruv-swarm"),
            ("use the ruv-swarm hooks", "ruv-swarm"),
        ] {
            assert!(!has(&cue(line, name, "a.md"), PACKAGE), "{line}");
        }
    }

    #[test]
    fn software_of_its_own_is_said_by_the_next_word() {
        for line in [
            "the `linear` cli",
            "Requires rdkit library",
            "the gget package",
            "the security-scanner plugin",
        ] {
            let name = line.split_whitespace().nth(1).unwrap_or_default();
            let name = name.trim_matches('`');
            assert!(has(&cue(line, name, "a.md"), PROGRAM), "{line}");
        }
        assert!(!has(&cue("run rdkit first", "rdkit", "a.md"), PROGRAM));
        let install = "/plugin install compliance-checker@market";
        assert!(has(&cue(install, "compliance-checker", "a.md"), PROGRAM));
        // At a version, a package, unless a key says the kind: a prompt's version in a record.
        let record = r#"{"prompt_version": "compliance-checker@1.0", "stage": "plan"}"#;
        assert!(!has(&cue(record, "compliance-checker", "a.jsonl"), PROGRAM));
        let package = "installPackages(['compliance-checker@1.0.0'])";
        assert!(has(&cue(package, "compliance-checker", "a.ts"), PROGRAM));
        let measured = r#""measured_against": "compliance-checker@4.0 (PNG)""#;
        assert!(has(&cue(measured, "compliance-checker", "a.json"), PROGRAM));
    }

    #[test]
    fn folders_are_written_with_a_slash_or_named_so() {
        assert!(has(
            &cue("    defense-in-depth/", "defense-in-depth", "a.md"),
            FOLDER
        ));
        assert!(has(
            &cue("(in writing-skills directory)", "writing-skills", "a.md"),
            FOLDER
        ));
        let c = cue("see defense-in-depth/x.md", "defense-in-depth", "a.md");
        assert!(has(&c, MIDPATH) && !has(&c, FOLDER), "{c:?}");
        assert!(!has(
            &cue("use defense-in-depth here", "defense-in-depth", "a.md"),
            FOLDER
        ));
    }

    #[test]
    fn fenced_code_in_markdown_is_code_of_its_language() {
        let doc = "Intro `status`.\n\n```python\nassert r[\"status\"] == 1\n```\n\n```\nRun /status\n```\n~~~bash\nrun x\n~~~\n";
        let f = FileLangs::of("a/guide.md", doc.as_bytes());
        let at = |needle: &str| doc.find(needle).unwrap_or(0);
        assert_eq!(f.at(at("Intro")), None);
        assert_eq!(f.at(at("assert")), Some(Lang::Python));
        assert_eq!(
            f.at(at("Run /status")),
            None,
            "an unlabelled fence stays prose"
        );
        assert_eq!(f.at(at("run x")), Some(Lang::Shell));
        let py = FileLangs::of("a/x.py", b"```python\nx\n```\n");
        assert_eq!(py.at(0), Some(Lang::Python));
        let open = FileLangs::of("a/b.md", b"```js\nimport x from './y'\n");
        assert_eq!(
            open.at(8),
            Some(Lang::Script),
            "an unclosed fence runs to the end"
        );
    }

    #[test]
    fn keys_lists_and_tables() {
        assert!(has(
            &cue("  subagent_type: \"data-eng\"", "data-eng", "a.md"),
            KEY
        ));
        assert!(has(&cue("agent: analyst", "analyst", "a.md"), KEY));
        assert!(!has(&cue("status: analyst", "analyst", "a.md"), KEY));
        // The same keys in camel case, saying the kind.
        let spawn = "{ agentType: \"p:analyst\", prompt }";
        assert!(has(&cue(spawn, "analyst", "a.md"), KEY | AS_AGENT));
        let run = "commandName: 'analyst',";
        assert!(has(&cue(run, "analyst", "a.ts"), KEY | AS_COMMAND));
        assert!(has(
            &cue("- **startup-x** - what", "startup-x", "a.md"),
            LIST
        ));
        assert!(has(&cue("| `/eval` | Score |", "eval", "a.md"), LIST));
        assert!(!has(&cue("- use the status field", "status", "a.md"), LIST));
        assert!(has(&cue("1. review", "review", "a.md"), LIST));
        // A plain word an item defines is a glossary's term; a distinctive one is a name.
        let term = "- **research**: Investigate the domain";
        assert!(!has(&cue(term, "research", "a.md"), LIST));
        assert!(!has(
            &cue("6. **Status** — Shows it", "Status", "a.md"),
            LIST
        ));
        assert!(has(
            &cue("- **deep-research**: Investigate", "deep-research", "a.md"),
            LIST
        ));
        assert!(has(
            &cue("- research: (the command)", "research", "a.md"),
            LIST
        ));
    }

    #[test]
    fn a_parenthesised_import_names_each_module_on_its_own_line() {
        let text = "from structlog import (\n    dev,  # the console\n    testing as t,\n)\nx = (\n    dev,\n)\n";
        let at = |needle: &str, nth: usize| {
            text.match_indices(needle)
                .nth(nth)
                .map(|(i, _)| i)
                .unwrap_or_else(|| panic!("{needle}"))
        };
        let py = Some(Lang::Python);
        let c = cue_in(text.as_bytes(), at("dev", 0), at("dev", 0) + 3, py, false);
        assert_eq!(c.via.as_deref(), Some("structlog/dev"));
        assert!(has(&c, IMPORT));
        let t = at("testing", 0);
        let c = cue_in(text.as_bytes(), t, t + 7, py, false);
        assert_eq!(c.via.as_deref(), Some("structlog/testing"));
        // After `as`, the name bound; after the list closes, a tuple of the code's.
        let a = at(" t,", 0) + 1;
        assert_eq!(cue_in(text.as_bytes(), a, a + 1, py, false).via, None);
        let d = at("dev", 1);
        assert_eq!(cue_in(text.as_bytes(), d, d + 3, py, false).via, None);
        let b = python_bindings(text.as_bytes());
        assert!(b
            .iter()
            .any(|b| b.bound == "dev" && b.module == "structlog/dev"));
        assert!(b
            .iter()
            .any(|b| b.bound == "t" && b.module == "structlog/testing"));
        // A member the module shares its name with: the module itself.
        let text = "from .__version__ import (\n    __title__,\n    __version__,\n)\n";
        let v = text.rfind("__version__,").unwrap_or_default();
        let c = cue_in(text.as_bytes(), v, v + 11, py, false);
        assert_eq!(c.via.as_deref(), Some("./__version__"));
    }

    #[test]
    fn a_key_that_takes_an_agent_says_the_kind_and_a_namespace_names_nothing() {
        let c = cue(
            "Use `subagent_type='shadow-advisor'` to query",
            "shadow-advisor",
            "a.md",
        );
        assert!(has(&c, KEY) && has(&c, AS_AGENT));
        let c = cue("  \"skill_name\": \"revops\",", "revops", "evals.json");
        assert!(has(&c, KEY) && has(&c, AS_SKILL), "{c:?}");
        let c = cue("- `/librarian:ask create` - ask", "librarian", "a.md");
        assert!(has(&c, LABEL) && !has(&c, SLASH), "{c:?}");
        for line in ["which `/sc:*` command", "run /sc:<command>", "`/sc:{name}`"] {
            let c = cue(line, "sc", "a.md");
            assert!(has(&c, LABEL) && !has(&c, SLASH), "{line}: {c:?}");
        }
        let c = cue("- `/librarian:ask create` - ask", "ask", "a.md");
        assert!(has(&c, NAMESPACE) && has(&c, SLASH));
    }

    #[test]
    fn an_alias_import_is_the_path_after_the_alias_and_a_scoped_package_is_none() {
        let c = cue(
            "import { SideBar } from \"@/components/ui/side-bar\"",
            "side-bar",
            "app/page.tsx",
        );
        assert!(has(&c, IMPORT));
        assert_eq!(c.via.as_deref(), Some("components/ui/side-bar"));
        let c = cue("import x from '~/lib/side-bar'", "side-bar", "app/page.ts");
        assert_eq!(c.via.as_deref(), Some("lib/side-bar"));
        let c = cue("import x from '@scope/side-bar'", "side-bar", "app/page.ts");
        assert!(!has(&c, IMPORT));
    }

    #[test]
    fn a_path_joined_from_the_scripts_folder_is_that_path() {
        let c = cue(
            "const file = path.join(__dirname, '..', 'lib', 'config-validator.js')",
            "config-validator.js",
            "build/build.js",
        );
        assert_eq!(c.via.as_deref(), Some("./../lib/config-validator.js"));
        let c = cue(
            "p = os.path.join(os.path.dirname(__file__), \"data\", \"cases.json\")",
            "cases.json",
            "tests/t.py",
        );
        assert_eq!(c.via.as_deref(), Some("./data/cases.json"));
        let c = cue(
            "fork(join(__dirname, '/fixtures/child.js'), { silent: true })",
            "child.js",
            "test/t.js",
        );
        assert_eq!(c.via.as_deref(), Some("./fixtures/child.js"));
        // From another folder than the script's own, a variable's part, a folder on the way:
        // no path known.
        for line in [
            "path.join(__dirname, 'config-validator.js', 'x')",
            "path.join(root, 'lib', 'config-validator.js')",
            "path.join(__dirname, dir, 'config-validator.js')",
        ] {
            assert_eq!(
                cue(line, "config-validator.js", "b/x.js").via,
                None,
                "{line}"
            );
        }
    }

    #[test]
    fn a_row_headed_by_a_kind_names_things_of_that_kind() {
        let c = cue(
            "| Commands (disabled, 17) | config, todo, help |",
            "todo",
            "d.md",
        );
        assert!(has(&c, ENTITY) && has(&c, AS_COMMAND), "{c:?}");
        let c = cue(
            "- **Agents**: code-reviewer, architect",
            "architect",
            "d.md",
        );
        assert!(has(&c, ENTITY) && has(&c, AS_AGENT), "{c:?}");
        // Not the head itself, not a head that says more, not hooks (events, not files).
        assert!(!has(
            &cue("- **todo**: Commands to run", "todo", "d.md"),
            AS_COMMAND
        ));
        let c = cue("| Commands we dropped | todo |", "todo", "d.md");
        assert!(!has(&c, AS_COMMAND), "{c:?}");
        assert!(!has(&cue("| Hooks | stop |", "stop", "d.md"), AS_HOOK));
    }

    #[test]
    fn python_imports() {
        let c = cue("from plugin_eval.models import X", "models", "p/judge.py");
        assert!(has(&c, IMPORT));
        assert_eq!(c.via.as_deref(), Some("plugin_eval/models"));
        let c = cue(
            "from .decoder import JSONDecoder",
            "decoder",
            "json/__init__.py",
        );
        assert_eq!(c.via.as_deref(), Some("./decoder"));
        let c = cue("from email import utils", "utils", "x.py");
        assert_eq!(c.via.as_deref(), Some("email/utils"));
        assert!(!has(&c, FROM_PACKAGE), "a name imported is no package");
        let c = cue("from email import utils", "email", "x.py");
        assert!(has(&c, FROM_PACKAGE) && has(&c, IMPORT));
        assert!(!has(&cue("import email", "email", "x.py"), FROM_PACKAGE));
        let c = cue("import types", "types", "x.py");
        assert_eq!(c.via.as_deref(), Some("types"));
        let c = cue("    x = types.thing", "types", "x.py");
        assert!(!has(&c, IMPORT) && has(&c, CODE_FILE));
        let c = cue("from .. import util", "util", "a/b/c.py");
        assert_eq!(c.via.as_deref(), Some("../util"));
        // A comment after the statement, an alias and a docstring's "from … " are no modules.
        let c = cue(
            "import threading  # we want threading to install",
            "install",
            "x.py",
        );
        assert!(!has(&c, IMPORT), "{c:?}");
        let c = cue("import functools as _functools", "_functools", "x.py");
        assert!(!has(&c, IMPORT), "{c:?}");
        let c = cue("from a import b as helpers", "helpers", "x.py");
        assert!(!has(&c, IMPORT), "{c:?}");
        let c = cue("    >>> import types", "types", "x.py");
        assert_eq!(c.via.as_deref(), Some("types"), "a doctest's import");
        let c = cue("from command dispatch.", "command", "x.py");
        assert!(!has(&c, IMPORT), "{c:?}");
        let c = cue("from a import b as c, helpers", "helpers", "x.py");
        assert_eq!(c.via.as_deref(), Some("a/helpers"));
        // A package on the way to the module is not what the line imports.
        let c = cue("from click._compat import WIN", "click", "t.py");
        assert!(!has(&c, IMPORT), "{c:?}");
        let c = cue("import xml.dom.minidom", "dom", "t.py");
        assert!(!has(&c, IMPORT), "{c:?}");
        let c = cue("import xml.dom.minidom", "minidom", "t.py");
        assert_eq!(c.via.as_deref(), Some("xml/dom/minidom"));
        let c = cue("from click import _compat", "click", "t.py");
        assert_eq!(c.via.as_deref(), Some("click"));
    }

    #[test]
    fn script_shell_and_c_includes() {
        let c = cue("const x = require('./lib/util')", "util", "a.js");
        assert!(has(&c, IMPORT));
        assert_eq!(c.via.as_deref(), Some("./lib/util"));
        let c = cue("import React from 'react'", "react", "a.ts");
        assert!(!has(&c, IMPORT));
        let c = cue("source \"$(dirname \"$0\")/lib.sh\"", "lib.sh", "a.sh");
        assert!(has(&c, IMPORT), "{c:?}");
        // bats loads a helper from the test's folder, with or without its `.bash`.
        let c = cue("load helpers", "helpers", "t/a.bats");
        assert_eq!(c.via.as_deref(), Some("./helpers"), "{c:?}");
        let c = cue("  load 'test_helper/common'", "common", "t/a.bats");
        assert_eq!(c.via.as_deref(), Some("./test_helper/common"), "{c:?}");
        let c = cue("echo load helpers", "helpers", "t/a.bats");
        assert!(!has(&c, IMPORT), "{c:?}");
        let c = cue("#include <sys/types.h>", "types.h", "a.c");
        assert!(has(&c, IMPORT));
        assert_eq!(c.via.as_deref(), Some("sys/types.h"));
    }

    #[test]
    fn python_bindings_and_uses() {
        let src = b"import copy\nimport numpy as np, os.path\nfrom email import utils as u\nfrom . import decoder\nx = copy.deepcopy(y)\nz = w.copy()\n# copy.x in a comment\nnp.array(u.quote(1))\n";
        let b = python_bindings(src);
        let pairs: Vec<(&str, &str)> = b
            .iter()
            .map(|b| (b.bound.as_str(), b.module.as_str()))
            .collect();
        assert_eq!(
            pairs,
            vec![
                ("copy", "copy"),
                ("np", "numpy"),
                ("os", "os"),
                ("u", "email/utils"),
                ("decoder", "./decoder")
            ]
        );
        let uses = qualified_uses(src, "copy");
        assert_eq!(
            uses.len(),
            1,
            "x.copy() and the comment are no uses: {uses:?}"
        );
        assert_eq!(&src[uses[0].0..uses[0].1], b"copy");
        assert_eq!(qualified_uses(src, "np").len(), 1);
        // A module imported by name at run time is bound as an import binds it; a name built
        // at run time, a relative name or another call's result binds nothing.
        let src = b"i18n = importlib.import_module(\"humanize.i18n\")\nlz = import_module('lzma')\nm = importlib.import_module(name)\nr = importlib.import_module('.x', 'pkg')\nk = other.import_module('y').z\n";
        let pairs: Vec<(String, String)> = python_bindings(src)
            .into_iter()
            .map(|b| (b.bound, b.module))
            .collect();
        assert_eq!(
            pairs,
            [
                ("i18n".to_string(), "humanize/i18n".to_string()),
                ("lz".to_string(), "lzma".to_string())
            ]
        );
    }

    #[test]
    fn a_quoted_annotation_uses_the_type_a_string_elsewhere_does_not() {
        let uses = |src: &str| bare_uses(src.as_bytes(), "StopBaseT").len();
        // Types written ahead of their definition, as `TYPE_CHECKING` imports are used.
        assert_eq!(uses("def f(stop: \"StopBaseT | object\" = _unset): ..."), 1);
        assert_eq!(uses("def f(x) -> 'StopBaseT': ..."), 1);
        assert_eq!(uses("    stop: \"t.Optional[StopBaseT]\""), 1);
        // A value, a dict's, a sentence, a comment: no use.
        assert_eq!(uses("kind = \"StopBaseT\""), 0);
        assert_eq!(uses("d = {\"stop\": \"StopBaseT\"}"), 0);
        assert_eq!(uses("def f(x: \"see StopBaseT: a base\"): ..."), 0);
        assert_eq!(uses("x = 1  # stop: \"StopBaseT\""), 0);
    }

    #[test]
    fn comments_and_strings_in_code_are_prose() {
        assert!(has(&cue("x = status + 1", "status", "a.py"), CODE_FILE));
        assert!(!has(
            &cue("# the implementer runs", "implementer", "a.sh"),
            CODE_FILE
        ));
        assert!(!has(
            &cue(
                "[ \"$a\" = \"implementer\" ] || exit",
                "implementer",
                "a.sh"
            ),
            CODE_FILE
        ));
        assert!(!has(
            &cue("  // see the data-engineer", "data-engineer", "a.ts"),
            CODE_FILE
        ));
        // Shell words are literals (`case` labels): names, not identifiers.
        assert!(!has(
            &cue("case $x in analyst|researcher) ;;", "analyst", "a.sh"),
            CODE_FILE
        ));
        // A name with a `-` is no identifier.
        assert!(!has(
            &cue("x = infra-implementer", "infra-implementer", "a.py"),
            CODE_FILE
        ));
        // A comment is told from a string: only the comment is the author's prose.
        let name = "cost-tracker";
        for (line, file) in [
            ("  // never race cost-tracker", "a.ts"),
            (" * cost-tracker's usage scan", "a.ts"),
            ("x = 1  # cost-tracker reads it", "a.py"),
            ("f() // the cost-tracker", "a.js"),
        ] {
            assert!(has(&cue(line, name, file), COMMENT), "{line}");
        }
        for (line, file) in [
            ("h = get('cost-tracker')", "a.ts"),
            ("x = \"# cost-tracker\"", "a.py"),
            ("url = 'http://x//cost-tracker'", "a.js"),
            ("# cost-tracker", "notes.md"),
        ] {
            assert!(!has(&cue(line, name, file), COMMENT), "{line}");
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        let hay = b"\xff\xfe`x`/:\n:x \"x\" |x| - x";
        for s in 0..hay.len() {
            for e in s + 1..=hay.len() {
                let _ = cue_at(hay, s, e, Some(Lang::Python));
                let _ = cue_at(hay, s, e, None);
            }
        }
    }

    #[test]
    fn the_word_after_an_invocation_is_its_argument() {
        let at = |line: &str, word: &str| {
            let s = line.find(word).unwrap_or(0);
            cue_at(line.as_bytes(), s, s + word.len(), None)
        };
        for line in [
            "/chronicle stale              # Show",
            "- [x] `/chronicle stale` shows old items",
            "## Stale (/chronicle stale)",
            "run /me:chronicle stale for details",
        ] {
            let c = at(line, "stale");
            assert!(has(&c, ARG) && c.via.is_none(), "{line}: {c:?}");
        }
        assert_eq!(
            invoked_before(b"run /me:chronicle stale", 18),
            Some(&b"chronicle"[..])
        );
        // A path's last folder, a URL's, or no invocation at all: no argument.
        for line in [
            "see src/lib stale",
            "http://x.io/chronicle stale",
            "the stale items",
        ] {
            assert!(!has(&at(line, "stale"), ARG), "{line}");
        }
    }
}
