//! Wiring `src` into Claude Code, one concept: the hook entries of `.claude/settings.json`
//! (`settings`), the three skills (`skills`), the plugin tree and the client's records of it
//! (`plugin`), and the setup `src init --claude` performs and `--uninstall` undoes (`setup`, with
//! its manifest `.src/setup.json`).
//!
//! Knows nothing of the command line: `cmd/init.rs`, `cmd/hooks.rs`, `cmd/plugin.rs` and
//! `cmd/doctor.rs` parse flags and print what this module reports. Invariant: every file it
//! replaces is backed up first and written atomically, and `--uninstall` removes exactly what
//! the manifest says setup added.

pub mod plugin;
pub mod settings;
pub mod setup;
pub mod skills;
