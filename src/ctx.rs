//! The opened workspace a command works in: paths, configuration and the store.
//!
//! Owns the order of start-up (resolve paths, load config, open and migrate the database).
//! Knows nothing of events: commands ingest the spill journal right after (`cmd::open`). Hooks
//! do not use it: their hot path opens only what it needs.

use anyhow::Result;

use crate::config::{self, Config};
use crate::store::Store;
use crate::workspace::{GlobalOpts, Workspace};

pub struct Ctx {
    pub ws: Workspace,
    pub config: Config,
    pub store: Store,
}

impl Ctx {
    /// Resolves the workspace, loads the config (warnings to stderr) and opens the store.
    pub fn open(opts: &GlobalOpts) -> Result<Ctx> {
        let ws = Workspace::resolve(opts)?;
        Ctx::open_ws(ws)
    }

    /// `open` for commands that only read: where no database exists yet (no project here) it
    /// says so and creates nothing, instead of leaving a `.src/` behind wherever it was run.
    pub fn open_existing(opts: &GlobalOpts) -> Result<Ctx> {
        let ws = Workspace::resolve(opts)?;
        if !ws.db_path.exists() {
            anyhow::bail!(
                "no src project here ({}: no {}): run `src init`",
                ws.root.display(),
                ws.db_path.display()
            );
        }
        Ctx::open_ws(ws)
    }

    pub fn open_ws(ws: Workspace) -> Result<Ctx> {
        Ctx::open_as(ws, false)
    }

    /// The context of `subagent-stop` and `deliver`: config warnings are not printed (a hook's
    /// stderr is noise) and the store's connections skip the close-time checkpoint.
    pub fn open_for_hook(ws: Workspace) -> Result<Ctx> {
        Ctx::open_as(ws, true)
    }

    fn open_as(ws: Workspace, hook: bool) -> Result<Ctx> {
        let loaded = config::load(&ws.config_path, config::OnInvalid::Fail)?;
        if !hook {
            for w in &loaded.warnings {
                eprintln!("warning: {w}");
            }
        }
        ws.ensure_state_dir()?;
        let store = if hook {
            Store::open_for_hook(&ws.db_path)?
        } else {
            Store::open(&ws.db_path)?
        };
        Ok(Ctx {
            ws,
            config: loaded.config,
            store,
        })
    }
}
