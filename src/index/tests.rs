//! The index's central property: an incremental update (walk or given paths) leaves exactly the
//! tables a full rebuild of the same tree produces; plus rename and content-date rules.

use std::path::Path;
use std::time::{Duration, SystemTime};

use proptest::prelude::*;

use super::*;
use crate::workspace::Workspace;

/// Everything the graph is made of, by path, sorted: files, names, mentions, edges.
type Dump = (
    Vec<(String, String, i64)>,
    Vec<(String, String, String)>,
    Vec<(String, String, i64, String)>,
    Vec<(String, String, String, i64, String, String)>,
);

fn dump(ctx: &Ctx) -> Result<Dump> {
    let conn = ctx.store.conn()?;
    fn rows<T>(
        conn: &Connection,
        sql: &str,
        f: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> Result<Vec<T>> {
        let mut stmt = conn.prepare(sql)?;
        let out = stmt
            .query_map([], f)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(out)
    }
    let files = rows(
        &conn,
        "SELECT path, hash, size FROM files ORDER BY path",
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let names = rows(
        &conn,
        "SELECT f.path, n.name, n.kind FROM names n JOIN files f ON f.id = n.file_id ORDER BY 1, 2",
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let mentions = rows(
        &conn,
        "SELECT f.path, m.name, m.line, m.text || '|' || m.cue || '|' || coalesce(m.via, '') \
         || '|' || m.weak FROM mentions m JOIN files f ON f.id = m.src_id ORDER BY 1, 3, 2, 4",
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?;
    let edges = rows(
        &conn,
        "SELECT s.path, d.path, e.name, e.line, e.text, e.resolution || '|' || e.kind || '|' \
         || e.cue || '|' || coalesce(e.via, '') FROM edges e \
         JOIN files s ON s.id = e.src_id JOIN files d ON d.id = e.dst_id ORDER BY 1, 2, 4, 3",
        |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        },
    )?;
    Ok((files, names, mentions, edges))
}

fn ctx_with_db(root: &Path, db: &str) -> Result<Ctx> {
    let ws = Workspace::at(root)?;
    let ws = Workspace {
        db_path: ws.state_dir.join(db),
        ..ws
    };
    Ctx::open_ws(ws)
}

const PATHS: &[&str] = &[
    ".claude/skills/alpha/SKILL.md",
    ".claude/skills/beta/SKILL.md",
    ".claude/skills/gamma-x/SKILL.md",
    ".claude/skills/alpha/references/check.md",
    ".claude/skills/beta/references/check.md",
    ".claude/agents/alpha.md",
    ".claude/agents/core/AGENT.md",
    ".claude/tests/fixtures/REVIEW_ME.md",
    // A desktop's duplicate of an agent, which yields to it.
    ".claude/agents/alpha 2.md",
    // An agent named in title case, written in lower case elsewhere.
    ".claude/agents/Code-Judge.md",
    ".claude/agents/implementer.md",
    ".claude/agents/infra-implementer.md",
    ".claude/hooks/guard.sh",
    ".claude/settings.json",
    "CLAUDE.md",
    ".claude/agents/review.md",
    ".claude/commands/status.md",
    ".claude/plugins/p/agents/data-eng.md",
    ".claude/plugins/q/commands/run.md",
    ".claude/lib/helpers_lib.py",
    ".claude/tool.py",
    ".claude/docs/guide.mdx",
    // Packages: whether `import helpers_lib` reaches `.claude/lib/helpers_lib.py` depends on them.
    ".claude/lib/__init__.py",
    ".claude/__init__.py",
    // A plugin manifest decides where `${CLAUDE_PLUGIN_ROOT}` leads.
    ".claude/plugins/p/.claude-plugin/plugin.json",
    ".claude/plugins/p/hooks/guard.sh",
    // An agent by its frontmatter only (`tools:` in some of its contents), outside agents/.
    ".claude/crew/tester.md",
    // An agent a skill keeps for itself; an installed copy's source under a distinctive folder.
    ".claude/skills/alpha/agents/watcher.md",
    ".claude/tools/kit-x/conf.sh",
    // A folder's README, which a link to the folder shows (and names its documents by stem).
    ".claude/docs/README.md",
    ".claude/docs/setup.md",
    // A test naming its subject (`tool.py`) in strings; a record in a folder named for an
    // agent; a template rendering a dotfile; the root's README a hook's words may not mean.
    ".claude/tool.test.ts",
    ".claude/runs/alpha/meta.json",
    ".claude/templates/gitlab-ci.yml",
    "README.md",
    // A document named in capitals (`REGISTRY`), inside the skill only while `SKILL.md` is there.
    ".claude/skills/beta/REGISTRY.md",
    // An agent in a subfolder of agents/, by its frontmatter (`tools:` in some contents).
    ".claude/agents/team/tester.md",
    // A private submodule (`lib._x.run()`), and a module that may import it (`tags_mod._x`).
    ".claude/lib/_x.py",
    ".claude/lib/tags_mod.py",
    // Documentation pages about a command and an agent (no things themselves); a script and a
    // module it may bind.
    ".claude/docs/commands/status.md",
    ".claude/docs/agents/alpha.md",
    ".claude/app.js",
    ".claude/lib/helpers_lib.js",
    // A TypeScript source its importers name by the compiled `.js`.
    ".claude/lib/zeta_mod.ts",
    // A package's entry point, whose exports decide what a name bound through it is.
    ".claude/lib/index.js",
    // A conventional file, known bare only beside its writers and below; a folder's memory
    // beside the root's.
    ".claude/tools/kit-x/config.json",
    ".claude/docs/CLAUDE.md",
    // A plugin wherever a marketplace keeps it: the folder with the manifest.
    ".claude/tools/kit-x/.claude-plugin/plugin.json",
    // A folder named as a skill is, whose files speak of their own topic.
    ".claude/docs/gamma-x/notes.md",
    // A skill's script of the skill's name (run with a flag); a skill beside a command of its
    // name (invoked); a template of a compound name.
    ".claude/skills/gamma-x/scripts/gamma-x.py",
    ".claude/skills/status/SKILL.md",
    ".claude/templates/kit-x-base.md",
    // A package's manifest, which maps the paths of its namespace; an entry point above a
    // barrel (`lib/index.js`).
    ".claude/package.json",
    ".claude/index.js",
    // A plugin's copy of an agent under a path that ends in the agent's own path; a bats test
    // and the helper it loads; an agent defined in YAML.
    ".claude/plugins/p/templates/.claude/agents/alpha.md",
    ".claude/tests/t.bats",
    ".claude/tests/helpers.bash",
    ".claude/agents/yaml/omega-x.yaml",
    // A skill's variant, which names the skill when its frontmatter declares it.
    ".claude/skills/alpha/SKILL.v2.md",
    // A hidden conventional file; a skill's script for a subcommand (`/beta stale`); a
    // skill's own test, which may open its SKILL.md.
    ".claude/tools/kit-x/.mcp.json",
    ".claude/skills/beta/scripts/stale.sh",
    ".claude/skills/alpha/tests/test_alpha.py",
    // A step a skill keeps beside its SKILL.md; the root's rules. (Not a file out of scope,
    // such as a root `skills/`: a decision that consults one sees it come or go only when the
    // mentioning file is read again, as ARCHITECTURE.md says.)
    ".claude/skills/alpha/check.md",
    "CLAUDE.md",
    // A program's manifest in a skill's folder: its name run as a program is its own code.
    ".claude/skills/gamma-x/package.json",
    // A prompt named as a skill is: "the gamma-x prompt" picks it.
    ".claude/prompts/gamma-x.md",
];

const WORDS: &[&str] = &[
    "\nReceives from: Alpha agent (contracts)",
    "\nthe Core agent decides",
    "\nDelegate to agents (alpha, review) now",
    "\nsee fixtures/REVIEW_ME.md or REVIEW_ME.md",
    "\n### Dispatch — `check`",
    "\nthen spawns the alpha agent",
    "\nrun .claude/skills/beta/scripts/stale.{sh,ps1} and `.claude/agents/alpha.{md,txt}`",
    "\n\"test:beta\": \"vitest\", and .claude:beta or `alpha:beta`",
    "\nRECOMMENDED_SKILLS+=(\"gamma-x\" \"beta\")",
    "\nnpm run beta, `status:quick`, lines.push(\"</status>\")",
    "\n[[ $h == *.test.sh ]] || git add .gitlab-ci.yml",
    "\nupdate README.md and the global CLAUDE.md",
    "\n\"entity_id\": \"alpha\", describe(\"tool\")",
    "\nsee `setup` and `guide`",
    "\n```bash\ngamma-x --fast x\n```\nread `./CLAUDE.md`",
    "\nW=$(mktemp -d)\ncat > \"$W/.claude/agents/alpha.md\"\nbash \"$W/.claude/agents/alpha.md\"",
    "\nInstall the global `CLAUDE.md`, not the target repo's `CLAUDE.md`",
    "\nconfigured in `.mcp.json`",
    "\nor ../.mcp.json",
    "\nrun `/beta stale` now",
    "\np = SKILL_DIR / \"SKILL.md\"",
    "alpha",
    "beta",
    "gamma-x",
    "check.md",
    "alpha/SKILL.md",
    "beta/SKILL.md",
    "skills/alpha/SKILL.md",
    ".claude/skills/beta/references/check.md",
    "implementer",
    "infra-implementer",
    "implementer.md",
    "guard.sh",
    "settings.json",
    "settings.json.bak",
    "CLAUDE.md",
    "alpha.md",
    "SKILL.md",
    "status",
    "/status",
    "review",
    "subagent_type: review",
    "data-eng",
    "p:data-eng",
    "the `data-eng` agent",
    "../references/check.md",
    "./references/check.md",
    "~/.claude/agents/alpha.md",
    "\nimport helpers_lib\n",
    "\nfrom lib import helpers_lib\n",
    "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh",
    "helpers_lib.run()",
    "the skill",
    "https://x.io/alpha.md",
    "zeta-agent",
    "subagent_type: \"zeta-agent\"",
    "omega-x",
    "review-bot",
    // A capitalised sentence start heading a list of names.
    "REGISTRY",
    "./templates/.claude/agents/alpha.md",
    "\nload helpers\n",
    // A path's brace alternatives, a drawing under a root that is no folder.
    "`.claude/agents/{alpha,implementer}.md`",
    "\nmy-kit/\n├── .claude/\n│   └── settings.json\n",
    "\nask the code-judge agent",
    "\nReview and gamma-x",
    "\nImplementer, zeta-agent",
    // A drawn tree, a unit's own folder, a folder namespace, a data key, Python module strings
    // and uses of a module itself.
    "\nagents/\n├── alpha.md\n│   └── check.md\n",
    "references/check.md",
    "/references:check",
    "\"review\": {",
    "\"lib.helpers_lib\"",
    "helpers_lib._x",
    "helpers_lib.helpers_lib()",
    "(helpers_lib, 1)",
    "hand it to the tester",
    // A kind of file said after a name; a compound name a program's string holds; a dotfile.
    "\nuse the gamma-x prompt",
    "\nCASES = [{\"expect\": \"gamma-x\"}]\n",
    "\nThe `.mcp.json` template",
    // A script run by name; a capitalised word said to be a skill.
    "\nRun `pnpm gamma-x` first",
    "\nthe Alpha skill and the Beta command",
    // A subcommand a script runs, a cited section, paths through a placeholder and from a
    // root (in a plugin's file, its own `.claude/plugins/p/hooks/guard.sh`).
    "\nnode .claude/app.js gamma-x --choice x",
    "\nrun(['gamma-x', '--choice'])",
    "\nPer CLAUDE.md §3 the rule",
    "\nSave to .claude/runs/{id}/alpha/meta.json",
    "\nRun `hooks/guard.sh` now",
    // Capitalised words, kinds beside a name, the occurrence that says most, title-case
    // frontmatter names, an installed copy's path.
    "\nWatcher started",
    "the watcher",
    "\nImplementer is here",
    "Status",
    "the status agent, the status command",
    "a status, then `/status`",
    "Gamma Kit",
    "~/.claude/commands/kit-x/conf.sh",
    "[docs](./docs/)",
    "[docs](../docs/)",
    // Two paths of one name ending in other folders; runs of words joined by `/`; a kind of
    // file, not the root's.
    "alpha/SKILL.md beta/SKILL.md",
    "implementer/zeta-agent",
    "status/review",
    "a CLAUDE.md",
    "\n# use lib.helpers_lib instead\n",
    "the \"helpers_lib\" module",
    // A folder's file written without its folder (a link's target, a drawn tree's entry); a
    // namespace that names no plugin; an alternation; a manifest's keywords.
    "[x](SKILL.md)",
    "[x](../README.md)",
    "\nalpha/\n├── SKILL.md\n",
    "/sc:run",
    "\n- \"status|review\"",
    "\"keywords\": [\"gamma-x\", \"run\"]",
    // A hidden folder written without its dot; a `./` path from the root; code's own words.
    "./claude/agents/alpha.md",
    "/project:ops/status",
    "./.claude/commands/status.md",
    "\nx = f\"{helpers_lib.__all__}\" + \".gamma-x\"\n",
    // A compound role noun in title case; a role noun as a list item by itself; a class from
    // its package; a package on the way to a module; a docstring's prose; a private submodule.
    "\n### The Zeta-Agent\n",
    "\n- Implementer\n",
    "\nfrom lib import Helpers_lib\ny = Helpers_lib()\n",
    "\nfrom lib.helpers_lib import x\n",
    "\n\"\"\"Doc.\nuse lib.helpers_lib or the helpers_lib module\n\"\"\"\n",
    "\nimport lib\nlib._x.run()\n",
    // A name imported from a module used bare where the line shows the module's name; a class
    // reached through a package; an alias; another program's argument; a library; a one-word
    // document stem; a relative import leading nowhere.
    "\nfrom lib.helpers_lib import run\nrun(helpers_lib)\n",
    "\nimport lib\nlib.Helpers_lib()\n",
    "\nimport lib.helpers_lib as h\nh._x()\n",
    "gws +gamma-x",
    "the alpha library",
    "tool",
    "\nfrom .helpers_lib import x\n",
    // A module's import of its sibling, and a use through it.
    "\nfrom . import (\n    _x,\n)\n",
    "\nfrom lib import tags_mod\ntags_mod._x.run()\n",
    // A script's module bound under its name and used, declared again, or bound from a file.
    "\nconst helpers_lib = require('./lib/helpers_lib')\nhelpers_lib()\n",
    "\nimport helpers_lib from './helpers_lib.js'\nhelpers_lib(1)\n",
    "\nfunction f (helpers_lib) {}\n",
    "\n# /status\n",
    "\nimport {zeta_mod} from './lib/zeta_mod.js'\nzeta_mod()\n",
    "\n__all__ = [\"helpers_lib\", \"_x\"]\n",
    // An entry point's exports, and names bound through it (one over several lines).
    "\nmodule.exports = require('./helpers_lib')\n",
    "\nexport {zeta_mod} from './zeta_mod.js'\n",
    "\nconst helpers_lib = require('./lib/index.js')\nhelpers_lib()\n",
    "\nimport {\n  zeta_mod,\n} from './lib/index.js'\n// a zeta_mod test\n",
    // A package's manifest and a path of its namespace; a name through a folder's barrel; a
    // member an entry spreads from a folder's entry.
    "{\"name\": \"kit-x\", \"exports\": {\"./helpers_lib\": \"./lib/helpers_lib.js\"}}",
    "{\"name\": \"kit-x\", \"main\": \"lib/index.js\"}",
    "\nconst helpers_lib = require('kit-x/helpers_lib')\n",
    "kit-x/lib/helpers_lib.js",
    "\nimport { Engine } from './lib'\nf(Engine, helpers_lib)\n",
    "\nexport { Engine } from './lib'\n",
    "\nmodule.exports = {\n  ...require('./lib')\n}\n",
    "\nmodule.exports = {\n  helpers_lib: require('./helpers_lib')\n}\n",
    "\nconst kit = require('.')\nkit.helpers_lib()\n",
    "\n```js\nconst kit = require('kit-x')\nkit.helpers_lib()\n```\n",
    // A conventional file's name alone and after steps; a key that takes an agent; a
    // command's namespace; a parenthesised import over lines.
    "config.json",
    "${DIR}/../config.json",
    "subagent_type='alpha'",
    "/alpha:run",
    "\nfrom lib import (\n    helpers_lib,\n    _x as y,\n)\n",
    "\nimport { x } from '@/lib/helpers_lib'\n",
    "[m](../CLAUDE.md)",
    "[m](./CLAUDE.md)",
    // A table column of role nouns naming agents.
    "\n| a | b |\n|---|---|\n| x | Implementer |\n| y | Implementer |\n| z | Tester |\n",
    // A name a package re-exports from its module, and a line using it that shows the module.
    "\nfrom .helpers_lib import Engine as Engine\n",
    "\nfrom lib import Engine\nhelpers_lib = Engine()\n",
    "\nexport {Engine as Engine} from './helpers_lib.js'\n",
    "\nimport {Engine} from './lib/index.js'\nf(helpers_lib, Engine)\n",
    // Installs into the client's folders of a kind; lists of words; a namespace before a
    // placeholder; a plugin as installed; a name from a module that shares it.
    "~/.claude/scripts/conf.sh",
    "./.claude/rules/guard.sh",
    "help_words: [\"gamma-x\", \"x\"]",
    "/sc:*",
    "data-eng@market",
    "\nfrom lib.helpers_lib import (\n    helpers_lib,\n)\n",
    // A package run by a manager; a script run with a flag; a private name patched through a
    // dotted string (and one whose next word is a module of its own).
    "npx zeta-agent x",
    "kit-x-base.md",
    "\ngamma-x --fast\n",
    "\nmocker.patch(\"lib.helpers_lib._y\")\n",
    "\"lib._x._y\"",
    // A drawing rooted at a folder that is nowhere: its entries lead from the writer's folder.
    "\nkit-z/\n├── guide.mdx\n└── references/\n    └── check.md\n",
];

/// Frontmatter `name:` values: new names, names other files bear by their path, a short name
/// (a name that needs a cue), one too short to count.
const FM_NAMES: &[&str] = &[
    "zeta-agent",
    "omega-x",
    "review-bot",
    "alpha",
    "implementer",
    "helpers_lib",
    "ab",
    "a",
    "Gamma Kit",
];

/// A frontmatter block declaring `FM_NAMES[n]` in one of several spellings (some not a block).
fn frontmatter(n: usize, form: usize) -> String {
    let name = FM_NAMES[n];
    match form {
        0 => format!("---\nname: {name}\n---\n"),
        1 => format!("---\r\ndescription: d\r\nname: \"{name}\"\r\n---\r\n"),
        2 => format!("---\nname: '{name}' # note\ntools: Read\n...\n"),
        // Never closed: no frontmatter.
        _ => format!("---\nname: {name}\n"),
    }
}
const SEPS: &[&str] = &[" ", "\n", ".", "/", "x", " `", "-", ". ", "\"", "` "];

fn body() -> impl Strategy<Value = String> {
    prop::collection::vec((0..WORDS.len(), 0..SEPS.len()), 0..12).prop_map(|v| {
        v.into_iter()
            .map(|(w, s)| format!("{}{}", WORDS[w], SEPS[s]))
            .collect()
    })
}

/// A head of the file: none most often, else a frontmatter block.
fn head() -> impl Strategy<Value = Option<(usize, usize)>> {
    prop::option::weighted(0.4, (0..FM_NAMES.len(), 0..4usize))
}

fn content() -> impl Strategy<Value = String> {
    (head(), body()).prop_map(|(h, b)| match h {
        Some((n, form)) => frontmatter(n, form) + &b,
        None => b,
    })
}

/// One of the Markdown files of `PATHS` (the files frontmatter names apply to).
fn md_path() -> impl Strategy<Value = usize> {
    let md: Vec<usize> = (0..PATHS.len())
        .filter(|i| crate::scan::frontmatter::applies_to(PATHS[*i]))
        .collect();
    prop::sample::select(md)
}

/// A file for the frontmatter property: most often with a block, its body naming the
/// frontmatter names (and others) more densely than `content`.
fn fm_content() -> impl Strategy<Value = String> {
    let words = prop::collection::vec(
        (
            prop_oneof![
                3 => prop::sample::select(FM_NAMES).prop_map(str::to_string),
                1 => prop::sample::select(WORDS).prop_map(str::to_string),
            ],
            prop::sample::select(SEPS),
        ),
        0..8,
    );
    (
        prop::option::weighted(0.7, (0..FM_NAMES.len(), 0..4usize)),
        words,
    )
        .prop_map(|(h, ws)| {
            let body: String = ws.into_iter().map(|(w, s)| w + s).collect();
            h.map_or(String::new(), |(n, form)| frontmatter(n, form)) + &body
        })
}

/// Mostly frontmatter names set, changed and dropped on files that stay, so that names move
/// between files while their mentions elsewhere stay put.
fn fm_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (md_path(), prop::option::weighted(0.8, (0..FM_NAMES.len(), 0..4usize)))
            .prop_map(|(p, h)| Op::Retitle(p, h)),
        2 => (md_path(), fm_content()).prop_map(|(p, c)| Op::Write(p, c)),
        1 => md_path().prop_map(Op::Delete),
        1 => (md_path(), md_path()).prop_map(|(a, b)| Op::Rename(a, b)),
    ]
}

#[derive(Debug, Clone)]
enum Op {
    Write(usize, String),
    Delete(usize),
    Rename(usize, usize),
    Binary(usize),
    /// Replaces the frontmatter block of a file (if it exists) and keeps the rest.
    Retitle(usize, Option<(usize, usize)>),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..PATHS.len(), content()).prop_map(|(p, c)| Op::Write(p, c)),
        2 => (0..PATHS.len()).prop_map(Op::Delete),
        2 => (0..PATHS.len(), 0..PATHS.len()).prop_map(|(a, b)| Op::Rename(a, b)),
        1 => (0..PATHS.len()).prop_map(Op::Binary),
        3 => (0..PATHS.len(), head()).prop_map(|(p, h)| Op::Retitle(p, h)),
    ]
}

/// Applies `op` and returns the paths it touched. Every write gets a distinct mtime, so stat
/// comparison is meaningful even within one clock tick.
fn perform(root: &Path, op: &Op, tick: &mut u64) -> Vec<String> {
    let write = |rel: &str, bytes: &[u8], tick: &mut u64| {
        let p = root.join(rel);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).unwrap_or_else(|e| panic!("{e}"));
        }
        std::fs::write(&p, bytes).unwrap_or_else(|e| panic!("{e}"));
        *tick += 1;
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000 + *tick);
        let f = std::fs::File::options()
            .write(true)
            .open(&p)
            .unwrap_or_else(|e| panic!("{e}"));
        f.set_modified(t).unwrap_or_else(|e| panic!("{e}"));
    };
    match op {
        Op::Write(i, c) => {
            write(PATHS[*i], c.as_bytes(), tick);
            vec![PATHS[*i].to_string()]
        }
        Op::Retitle(i, h) => {
            let Ok(old) = std::fs::read_to_string(root.join(PATHS[*i])) else {
                return vec![PATHS[*i].to_string()];
            };
            // Everything after the first closing fence line, if the file starts with a block.
            let rest = old
                .strip_prefix("---")
                .and_then(|r| {
                    r.find("\n---")
                        .or_else(|| r.find("\n..."))
                        .map(|e| &r[e + 4..])
                })
                .map_or(old.as_str(), |r| r.trim_start_matches(['\r', '\n']));
            let new = h.map_or(String::new(), |(n, form)| frontmatter(n, form)) + rest;
            write(PATHS[*i], new.as_bytes(), tick);
            vec![PATHS[*i].to_string()]
        }
        Op::Binary(i) => {
            write(PATHS[*i], b"bin\0ary alpha", tick);
            vec![PATHS[*i].to_string()]
        }
        Op::Delete(i) => {
            let _ = std::fs::remove_file(root.join(PATHS[*i]));
            vec![PATHS[*i].to_string()]
        }
        Op::Rename(a, b) => {
            let from = root.join(PATHS[*a]);
            if a != b && from.is_file() {
                let to = root.join(PATHS[*b]);
                if let Some(d) = to.parent() {
                    std::fs::create_dir_all(d).unwrap_or_else(|e| panic!("{e}"));
                }
                std::fs::rename(&from, &to).unwrap_or_else(|e| panic!("{e}"));
            }
            vec![PATHS[*a].to_string(), PATHS[*b].to_string()]
        }
    }
}

/// The index of `p` in `PATHS`.
fn at(p: &str) -> usize {
    PATHS
        .iter()
        .position(|x| *x == p)
        .unwrap_or_else(|| panic!("{p}"))
}

/// How the incremental index scans: the small-refresh path up to `small` files, and each file
/// bigger than `lookups` bytes against every name read once (`apply::SMALL_FILES`,
/// `apply::LOOKUPS_PER_FILE`). The full index it is compared with always takes the big path.
#[derive(Clone, Copy)]
struct Knobs {
    small: usize,
    lookups: usize,
}

impl Default for Knobs {
    fn default() -> Knobs {
        Knobs {
            small: apply::SMALL_FILES_DEFAULT,
            lookups: apply::LOOKUPS_PER_FILE_DEFAULT,
        }
    }
}

/// Held while a test sets the knobs: they are process-wide, and tests run on parallel threads
/// (a setting flipped by another test mid-sequence once made a failure come and go).
static KNOBS: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn set_knobs(k: Knobs) {
    use std::sync::atomic::Ordering::Relaxed;
    apply::SMALL_FILES.store(k.small, Relaxed);
    apply::LOOKUPS_PER_FILE.store(k.lookups, Relaxed);
}

fn check_sequence(initial: &[(usize, String)], ops: &[Op], by_paths: bool) -> Result<()> {
    check_sequence_with(initial, ops, by_paths, Knobs::default())
}

fn check_sequence_with(
    initial: &[(usize, String)],
    ops: &[Op],
    by_paths: bool,
    knobs: Knobs,
) -> Result<()> {
    let _held = KNOBS.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git"))?;
    let mut tick = 0;
    for (i, c) in initial {
        perform(root, &Op::Write(*i, c.clone()), &mut tick);
    }
    let inc = ctx_with_db(root, "inc.db")?;
    set_knobs(knobs);
    run(&inc, &IndexOptions::default())?;
    for op in ops {
        let touched = perform(root, op, &mut tick);
        set_knobs(knobs);
        if by_paths {
            refresh_paths(&inc, &touched)?;
        } else {
            run(&inc, &IndexOptions::default())?;
        }
        let full = ctx_with_db(root, "full.db")?;
        set_knobs(Knobs {
            small: 0,
            ..Knobs::default()
        });
        run(
            &full,
            &IndexOptions {
                full: true,
                progress: false,
            },
        )?;
        let (a, b) = (dump(&inc)?, dump(&full)?);
        assert_eq!(a.0, b.0, "files differ after {op:?}");
        assert_eq!(a.1, b.1, "names differ after {op:?}");
        assert_eq!(a.2, b.2, "mentions differ after {op:?}");
        assert_eq!(a.3, b.3, "edges differ after {op:?}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn incremental_equals_full(
        initial in prop::collection::vec((0..PATHS.len(), content()), 1..8),
        ops in prop::collection::vec(op(), 1..6),
        by_paths in any::<bool>(),
        small in any::<bool>(),
        in_memory in any::<bool>(),
    ) {
        // Either scanning path, and either way of looking names up, must give the tables of
        // a full index.
        let knobs = Knobs {
            small: if small { 32 } else { 0 },
            lookups: if in_memory { 0 } else { usize::MAX },
        };
        check_sequence_with(&initial, &ops, by_paths, knobs).unwrap_or_else(|e| panic!("{e:#}"));
    }

    #[test]
    fn frontmatter_names_incremental_equals_full(
        initial in prop::collection::vec((md_path(), fm_content()), 3..10),
        ops in prop::collection::vec(fm_op(), 1..6),
        by_paths in any::<bool>(),
        small in any::<bool>(),
    ) {
        let knobs = Knobs {
            small: if small { 32 } else { 0 },
            ..Knobs::default()
        };
        check_sequence_with(&initial, &ops, by_paths, knobs).unwrap_or_else(|e| panic!("{e:#}"));
    }
}

#[test]
fn a_folder_coming_or_going_re_decides_the_paths_written_through_it() -> Result<()> {
    // Found by the property above: `skills/…/infra-implementer` in `.claude/tool.py` names the
    // agent as a moved file once `.claude/skills/` exists, which a binary file (never a file
    // of the index, bearing no name the mention has) brings and takes away.
    let initial = [
        (16, "skills/alpha/SKILL.md/infra-implementer. ".to_string()),
        (7, String::new()),
    ];
    for by_paths in [false, true] {
        check_sequence(&initial, &[Op::Binary(1), Op::Delete(1)], by_paths)?;
    }
    Ok(())
}

#[test]
fn an_entry_point_changing_re_decides_the_names_bound_through_it() -> Result<()> {
    let (app, module, entry) = (
        at(".claude/app.js"),
        at(".claude/lib/helpers_lib.js"),
        at(".claude/lib/index.js"),
    );
    let exports = "module.exports = require('./helpers_lib')\n".to_string();
    let initial = vec![
        (
            app,
            "const helpers_lib = require('./lib/index.js')\nhelpers_lib()\n".to_string(),
        ),
        (module, "module.exports = 1\n".to_string()),
        (entry, exports.clone()),
    ];
    // The entry exports the module, then its own value, then the module again, then is gone:
    // only the entry changes, never the file that binds the name.
    for by_paths in [false, true] {
        let ops = [
            Op::Write(entry, "module.exports = 2\n".into()),
            Op::Write(entry, exports.clone()),
            Op::Delete(entry),
        ];
        check_sequence(&initial, &ops, by_paths)?;
    }
    // And the first state has the edge the rule gives (else the sequence proves nothing).
    assert_first_state_edge(&initial, ".claude/app.js", ".claude/lib/helpers_lib.js", 2)
}

#[test]
fn a_package_manifest_changing_re_decides_the_scripts_run_by_name() -> Result<()> {
    let (doc, module, other, manifest) = (
        at(".claude/docs/setup.md"),
        at(".claude/lib/helpers_lib.js"),
        at(".claude/lib/helpers_lib.py"),
        at(".claude/package.json"),
    );
    let runs = |p: &str| format!(r#"{{"scripts": {{"helpers_lib": "node {p}"}}}}"#);
    let initial = vec![
        (doc, "Run `pnpm helpers_lib` first.\n".to_string()),
        (module, "module.exports = 1\n".to_string()),
        (other, "X = 2\n".to_string()),
        (manifest, runs("lib/helpers_lib.js")),
    ];
    // The script runs the other file of the name, then none, then the first again, then the
    // manifest is gone.
    for by_paths in [false, true] {
        let ops = [
            Op::Write(manifest, runs("./lib/helpers_lib.py")),
            Op::Write(manifest, r#"{"scripts": {}}"#.into()),
            Op::Write(manifest, runs("lib/helpers_lib.js")),
            Op::Delete(manifest),
        ];
        check_sequence(&initial, &ops, by_paths)?;
    }
    assert_first_state_edge(
        &initial,
        ".claude/docs/setup.md",
        ".claude/lib/helpers_lib.js",
        1,
    )
}

#[test]
fn a_package_manifest_changing_re_decides_the_paths_of_its_namespace() -> Result<()> {
    let (app, module, manifest) = (
        at(".claude/app.js"),
        at(".claude/lib/helpers_lib.js"),
        at(".claude/package.json"),
    );
    let maps = r#"{"name": "kit-x", "exports": {"./helpers_lib": "./lib/helpers_lib.js"}}"#;
    let initial = vec![
        (
            app,
            "const helpers_lib = require('kit-x/helpers_lib')\nhelpers_lib()\n".to_string(),
        ),
        (module, "module.exports = 1\n".to_string()),
        (manifest, maps.to_string()),
    ];
    // The manifest maps the path, then maps nothing, then again, then is gone.
    for by_paths in [false, true] {
        let ops = [
            Op::Write(manifest, r#"{"name": "kit-x", "exports": {}}"#.into()),
            Op::Write(manifest, maps.into()),
            Op::Delete(manifest),
        ];
        check_sequence(&initial, &ops, by_paths)?;
    }
    assert_first_state_edge(&initial, ".claude/app.js", ".claude/lib/helpers_lib.js", 1)
}

/// Indexes `initial` in a new tree and asserts the edge `src -> dst` at `line` is there.
fn assert_first_state_edge(
    initial: &[(usize, String)],
    src: &str,
    dst: &str,
    line: i64,
) -> Result<()> {
    let _held = KNOBS.lock().unwrap_or_else(|e| e.into_inner());
    set_knobs(Knobs::default());
    let dir = tempfile::tempdir()?;
    let mut tick = 0;
    for (i, c) in initial {
        perform(dir.path(), &Op::Write(*i, c.clone()), &mut tick);
    }
    let ctx = ctx_with_db(dir.path(), "x.db")?;
    run(&ctx, &IndexOptions::default())?;
    let edges = dump(&ctx)?.3;
    assert!(
        edges
            .iter()
            .any(|e| e.0 == src && e.1 == dst && e.3 == line),
        "{edges:?}"
    );
    Ok(())
}

#[test]
fn a_projects_manifest_named_bare_is_the_one_beside_or_above() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git"))?;
    let files = [
        (".claude/skills/upload/tsconfig.json", "{}\n"),
        (
            ".claude/skills/upload/notes.md",
            "Run tsc with tsconfig.json.\n",
        ),
        (
            ".claude/skills/play/SKILL.md",
            "- Missing or misconfigured `tsconfig.json`\n",
        ),
    ];
    for (p, c) in files {
        std::fs::create_dir_all(root.join(p).parent().unwrap_or(root))?;
        std::fs::write(root.join(p), c)?;
    }
    let ctx = ctx_with_db(root, "x.db")?;
    run(&ctx, &IndexOptions::default())?;
    let edges = dump(&ctx)?.3;
    let into = |src: &str| {
        edges
            .iter()
            .any(|e| e.0 == src && e.1 == ".claude/skills/upload/tsconfig.json")
    };
    assert!(into(".claude/skills/upload/notes.md"), "{edges:?}");
    assert!(!into(".claude/skills/play/SKILL.md"), "{edges:?}");
    Ok(())
}

#[test]
fn a_conventional_name_before_dots_is_found_by_either_scanning_path() -> Result<()> {
    // Found by the property above, once its settings held still: a small refresh looked up
    // `settings.json..` (the run of name bytes less one dot), not `settings.json`, so it missed
    // the settings file the big path finds above the skill.
    let (skill, settings) = (
        at(".claude/skills/beta/SKILL.md"),
        at(".claude/settings.json"),
    );
    let initial = vec![
        (
            skill,
            "Review and gamma-x\"settings.json../x/guard.sh\"\n".to_string(),
        ),
        (settings, "{}\n".to_string()),
    ];
    let small = Knobs {
        small: 32,
        ..Knobs::default()
    };
    for by_paths in [false, true] {
        check_sequence_with(&initial, &[Op::Rename(11, 5)], by_paths, small)?;
    }
    assert_first_state_edge(
        &initial,
        ".claude/skills/beta/SKILL.md",
        ".claude/settings.json",
        1,
    )
}

#[test]
fn a_package_init_re_exporting_or_not_re_decides_the_names_used_through_it() -> Result<()> {
    let (tool, module, init) = (
        at(".claude/tool.py"),
        at(".claude/lib/helpers_lib.py"),
        at(".claude/lib/__init__.py"),
    );
    let reexport = "from .helpers_lib import Engine as Engine\n".to_string();
    let initial = vec![
        (
            tool,
            "from lib import Engine\n\nhelpers_lib = Engine()\n".to_string(),
        ),
        (module, "class Engine:\n    pass\n".to_string()),
        (init, reexport.clone()),
    ];
    // The package's file re-exports the class, then defines its own, then re-exports it again,
    // then is gone: only the package's file changes, never the one using the name.
    for by_paths in [false, true] {
        let ops = [
            Op::Write(init, "class Engine:\n    pass\n".into()),
            Op::Write(init, reexport.clone()),
            Op::Delete(init),
        ];
        check_sequence(&initial, &ops, by_paths)?;
    }
    assert_first_state_edge(&initial, ".claude/tool.py", ".claude/lib/helpers_lib.py", 3)
}

#[test]
fn a_conventional_file_coming_or_going_re_decides_its_bare_name_beside_it() -> Result<()> {
    let (conf, script, config) = (
        at(".claude/tools/kit-x/conf.sh"),
        at(".claude/settings.json"),
        at(".claude/tools/kit-x/config.json"),
    );
    let initial = vec![
        (conf, "echo \"config.json missing\"\n".to_string()),
        (script, "{\"x\": \"config.json\"}\n".to_string()),
    ];
    // The file named appears beside one writer (not the other's: another folder), changes,
    // and goes; the writers never change.
    for by_paths in [false, true] {
        let ops = [
            Op::Write(config, "{}\n".into()),
            Op::Write(config, "{\"a\": 1}\n".into()),
            Op::Delete(config),
        ];
        check_sequence(&initial, &ops, by_paths)?;
    }
    let dir = tempfile::tempdir()?;
    let mut tick = 0;
    for (i, c) in initial.iter().chain([(config, "{}\n".to_string())].iter()) {
        perform(dir.path(), &Op::Write(*i, c.clone()), &mut tick);
    }
    let ctx = ctx_with_db(dir.path(), "x.db")?;
    run(&ctx, &IndexOptions::default())?;
    let edges = dump(&ctx)?.3;
    let into: Vec<_> = edges
        .iter()
        .filter(|e| e.1 == ".claude/tools/kit-x/config.json")
        .collect();
    assert_eq!(into.len(), 1, "{edges:?}");
    assert_eq!(into[0].0, ".claude/tools/kit-x/conf.sh");
    Ok(())
}

#[test]
fn a_package_init_gaining_or_losing_code_re_decides_the_imports_through_it() -> Result<()> {
    let (tool, lib, init) = (
        at(".claude/tool.py"),
        at(".claude/lib/helpers_lib.py"),
        at(".claude/lib/__init__.py"),
    );
    let initial = vec![
        (tool, "from lib import helpers_lib, VERSION\n".to_string()),
        (lib, "x = 1\n".to_string()),
        (init, "VERSION = 1\n".to_string()),
    ];
    let into_init = |root: &Path| -> Result<bool> {
        let ctx = ctx_with_db(root, "x.db")?;
        run(&ctx, &IndexOptions::default())?;
        Ok(dump(&ctx)?
            .3
            .iter()
            .any(|e| e.0 == ".claude/tool.py" && e.1 == ".claude/lib/__init__.py"))
    };
    // The import reaches the package's file while it holds code, not once it holds none.
    let dir = tempfile::tempdir()?;
    let mut tick = 0;
    for (i, c) in &initial {
        perform(dir.path(), &Op::Write(*i, c.clone()), &mut tick);
    }
    assert!(into_init(dir.path())?);
    perform(
        dir.path(),
        &Op::Write(init, "# only a comment\n".into()),
        &mut tick,
    );
    std::fs::remove_file(dir.path().join(".src/x.db"))?;
    assert!(!into_init(dir.path())?);
    for by_paths in [false, true] {
        let ops = [
            Op::Write(init, "\n# empty\n".into()),
            Op::Write(init, "VERSION = 2\n".into()),
        ];
        check_sequence(&initial, &ops, by_paths)?;
    }
    Ok(())
}

#[test]
fn a_module_coming_or_going_re_decides_the_package_a_from_import_names() -> Result<()> {
    let (tool, lib, init) = (
        at(".claude/tool.py"),
        at(".claude/lib/helpers_lib.py"),
        at(".claude/lib/__init__.py"),
    );
    // `from lib import helpers_lib` names the module while it exists, else the package's file
    // (which then defines the name); only the module comes and goes.
    let initial = vec![
        (tool, "from lib import helpers_lib\n".to_string()),
        (lib, "x = 1\n".to_string()),
        (init, "VERSION = 1\nhelpers_lib = None\n".to_string()),
    ];
    for by_paths in [false, true] {
        let ops = [
            Op::Delete(lib),
            Op::Write(lib, "x = 2\n".into()),
            Op::Delete(lib),
        ];
        check_sequence(&initial, &ops, by_paths)?;
    }
    assert_first_state_edge(&initial, ".claude/tool.py", ".claude/lib/helpers_lib.py", 1)?;
    let into_init = |with_module: bool| -> Result<bool> {
        let dir = tempfile::tempdir()?;
        let mut tick = 0;
        for (i, c) in initial.iter().filter(|(i, _)| with_module || *i != lib) {
            perform(dir.path(), &Op::Write(*i, c.clone()), &mut tick);
        }
        let ctx = ctx_with_db(dir.path(), "x.db")?;
        run(&ctx, &IndexOptions::default())?;
        Ok(dump(&ctx)?
            .3
            .iter()
            .any(|e| e.0 == ".claude/tool.py" && e.1 == ".claude/lib/__init__.py"))
    };
    assert!(!into_init(true)?, "the module, not the package");
    assert!(into_init(false)?, "the package, which defines the name");
    Ok(())
}

#[test]
fn a_package_or_plugin_manifest_coming_or_going_re_decides_what_depends_on_it() -> Result<()> {
    let (agent, guard, manifest) = (
        at(".claude/plugins/p/agents/data-eng.md"),
        at(".claude/plugins/p/hooks/guard.sh"),
        at(".claude/plugins/p/.claude-plugin/plugin.json"),
    );
    // Out-of-scope files are no part of the property: the index does not see them come and go.
    let root_guard = at(".claude/hooks/guard.sh");
    let (tool, lib, init) = (
        at(".claude/tool.py"),
        at(".claude/lib/helpers_lib.py"),
        at(".claude/lib/__init__.py"),
    );
    let initial = vec![
        (
            agent,
            "Run ${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh first.".to_string(),
        ),
        (guard, "echo ok".to_string()),
        (root_guard, "echo root".to_string()),
        (tool, "import helpers_lib\n".to_string()),
        (lib, "x = 1".to_string()),
    ];
    for by_paths in [false, true] {
        let ops = [
            Op::Write(manifest, "{}".into()),
            Op::Write(init, String::new()),
            Op::Delete(manifest),
            Op::Delete(init),
        ];
        check_sequence(&initial, &ops, by_paths)?;
    }
    Ok(())
}

#[test]
fn a_skill_coming_or_going_re_decides_the_capitalised_names_of_its_documents() -> Result<()> {
    // `REGISTRY` names `beta/REGISTRY.md` from `alpha/` only while no `beta/SKILL.md` makes
    // the document a skill's own (`scan::refs::capital_document`).
    let (doc, skill, writer) = (
        at(".claude/skills/beta/REGISTRY.md"),
        at(".claude/skills/beta/SKILL.md"),
        at(".claude/skills/alpha/references/check.md"),
    );
    let initial = vec![
        (doc, "# Registry".to_string()),
        (writer, "Update MANIFEST + REGISTRY.".to_string()),
    ];
    for by_paths in [false, true] {
        let ops = [Op::Write(skill, "x".into()), Op::Delete(skill)];
        check_sequence(&initial, &ops, by_paths)?;
    }
    Ok(())
}

#[test]
fn a_module_coming_is_probed_for_in_uses_through_a_packages_own_submodule() -> Result<()> {
    // In a package's `__init__.py`, `from .helpers_lib import x` binds `helpers_lib` too:
    // `helpers_lib._x` is a use a new `_x.py` is looked for in, as a full scan finds it.
    let (init, x) = (at(".claude/lib/__init__.py"), at(".claude/lib/_x.py"));
    let initial = vec![(
        init,
        "helpers_lib._x-\nfrom .helpers_lib import x\n".to_string(),
    )];
    for by_paths in [false, true] {
        check_sequence(&initial, &[Op::Write(x, String::new())], by_paths)?;
    }
    Ok(())
}

#[test]
fn rename_is_counted_and_keeps_the_content_date() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    std::fs::create_dir_all(root.join(".claude/agents"))?;
    std::fs::write(root.join(".claude/agents/old-name.md"), "see helper.md")?;
    std::fs::write(root.join(".claude/agents/helper.md"), "x")?;
    let ctx = ctx_with_db(root, "src.db")?;
    run(&ctx, &IndexOptions::default())?;
    let conn = ctx.store.conn()?;
    let date = |p: &str| -> Result<String> {
        Ok(conn.query_row(
            "SELECT content_changed_at FROM files WHERE path = ?1",
            [p],
            |r| r.get(0),
        )?)
    };
    let before = date(".claude/agents/old-name.md")?;
    std::fs::rename(
        root.join(".claude/agents/old-name.md"),
        root.join(".claude/agents/new-name.md"),
    )?;
    let r = run(&ctx, &IndexOptions::default())?;
    assert_eq!((r.renamed, r.added, r.removed), (1, 1, 1));
    assert_eq!(date(".claude/agents/new-name.md")?, before);
    Ok(())
}

#[test]
fn touching_without_change_rereads_but_keeps_the_content_date() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    std::fs::create_dir_all(root.join(".claude"))?;
    let f = root.join(".claude/a.md");
    std::fs::write(&f, "see b.md")?;
    std::fs::write(root.join(".claude/b.md"), "x")?;
    let ctx = ctx_with_db(root, "src.db")?;
    run(&ctx, &IndexOptions::default())?;
    let t = SystemTime::now() + Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&f)?
        .set_modified(t)?;
    let r = run(&ctx, &IndexOptions::default())?;
    assert_eq!((r.files_read, r.changed), (1, 0));
    assert_eq!(
        freshness(&ctx, &[".claude/a.md".into()])?[0].1,
        Freshness::Fresh
    );
    Ok(())
}

#[test]
fn bytes_declaring_another_frontmatter_name_than_the_index_holds_are_stale_names() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    let rel = ".claude/agents/a.md";
    std::fs::create_dir_all(root.join(".claude/agents"))?;
    std::fs::write(root.join(rel), "---\nname: now-declared\n---\nbody\n")?;
    let hash = blake3::hash(&std::fs::read(root.join(rel))?)
        .to_hex()
        .to_string();
    let names = crate::config::Names::default();
    let outcome = |fm: Option<&str>| -> Result<read::FileRead> {
        // Same content as indexed (a check of a touched file): only the name can differ.
        let w = read::Work::new(
            1,
            rel,
            read::WorkKind::Check,
            Some(hash.clone()),
            fm.map(String::from),
        );
        read::read_file(root, &w, 1 << 20, &names, None, |_| Ok(Vec::new()))
    };
    assert!(matches!(
        outcome(Some("now-declared"))?,
        read::FileRead::Same { .. }
    ));
    for held in [Some("read-before"), None] {
        match outcome(held)? {
            read::FileRead::Scanned { names_stale, .. } => assert!(names_stale, "{held:?}"),
            _ => panic!("a file whose names are stale must be written again ({held:?})"),
        }
    }
    Ok(())
}

#[test]
fn a_file_stored_with_stale_names_is_repaired_by_the_next_run() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git"))?;
    std::fs::create_dir_all(root.join(".claude/agents"))?;
    std::fs::write(
        root.join(".claude/agents/a.md"),
        "---\nname: zeta-agent\n---\nbody\n",
    )?;
    std::fs::write(
        root.join(".claude/agents/b.md"),
        "subagent_type: \"zeta-agent\" and omega-x\n",
    )?;
    std::fs::write(root.join(".claude/agents/omega-x.md"), "x\n")?;
    let inc = ctx_with_db(root, "inc.db")?;
    run(&inc, &IndexOptions::default())?;
    // What a pass leaves when the file changed under it: the names of an earlier read, and an
    // empty hash.
    {
        let conn = inc.store.conn()?;
        conn.execute(
            "UPDATE names SET name = 'omega-x' WHERE kind = 'frontmatter'",
            [],
        )?;
        conn.execute(
            "UPDATE files SET hash = '' WHERE path = '.claude/agents/a.md'",
            [],
        )?;
    }
    run(&inc, &IndexOptions::default())?;
    let full = ctx_with_db(root, "full.db")?;
    run(
        &full,
        &IndexOptions {
            full: true,
            progress: false,
        },
    )?;
    assert_eq!(dump(&inc)?, dump(&full)?);
    Ok(())
}

/// A word that names nothing (`_x` after a dot: an extension's place) joins no list: when its
/// file comes and goes, the file that writes it is not scanned again, so it must not have
/// made `/status` beside it a listed name (found by the proptest).
#[test]
fn a_word_that_names_nothing_lists_no_name_beside_it() -> Result<()> {
    let initial = vec![(
        at(".claude/commands/status.md"),
        "helpers_lib._x /status ".to_string(),
    )];
    let ops = [
        Op::Write(at(".claude/lib/_x.py"), String::new()),
        Op::Delete(at(".claude/lib/_x.py")),
    ];
    check_sequence(&initial, &ops, false)
}

#[test]
fn a_title_taken_by_a_third_file_keeps_each_mention_once() -> Result<()> {
    // Found by the frontmatter property.
    let initial = [
        (8, "---\nname: Gamma Kit\n---\n".to_string()),
        (0, "Gamma Kit ".to_string()),
        (5, "---\nname: Gamma Kit\n---\n".to_string()),
        (9, String::new()),
    ];
    for by_paths in [false, true] {
        check_sequence(&initial, &[Op::Retitle(9, Some((8, 0)))], by_paths)?;
    }
    Ok(())
}

#[test]
fn a_skill_becoming_a_programs_package_re_decides_its_name_run() -> Result<()> {
    let beta = PATHS
        .iter()
        .position(|p| *p == ".claude/skills/gamma-x/SKILL.md");
    let pkg = PATHS
        .iter()
        .position(|p| *p == ".claude/skills/gamma-x/package.json");
    let agent = PATHS.iter().position(|p| *p == ".claude/agents/alpha.md");
    let (Some(beta), Some(pkg), Some(agent)) = (beta, pkg, agent) else {
        anyhow::bail!("paths");
    };
    let initial = [
        (beta, "---\nname: gamma-x\n---\nGamma.\n".to_string()),
        (agent, "```bash\ngamma-x --fast x\n```\n".to_string()),
    ];
    for by_paths in [false, true] {
        let ops = [Op::Write(pkg, "{}".to_string()), Op::Delete(pkg)];
        check_sequence(&initial, &ops, by_paths)?;
    }
    Ok(())
}
