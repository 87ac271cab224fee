//! `src`: tells a coding agent, or a person, which files became stale after an edit.
//!
//! The engine (store, scan, index, graph, events, alert, impact, cascade, export, query,
//! install, doctor) knows nothing about the command line; `cmd` turns arguments into calls to
//! it. Every module is `pub(crate)`: the binary needs `cmd` and `error` only, so the compiler
//! reports any engine item nothing uses.

pub(crate) mod alert;
pub(crate) mod cascade;
pub(crate) mod clock;
pub mod cmd;
pub(crate) mod config;
pub(crate) mod ctx;
pub(crate) mod doctor;
pub mod error;
pub(crate) mod events;
pub(crate) mod export;
pub(crate) mod fsutil;
pub(crate) mod graph;
pub(crate) mod impact;
pub(crate) mod index;
pub(crate) mod install;
pub(crate) mod query;
pub(crate) mod scan;
pub(crate) mod store;
pub(crate) mod trace;
pub(crate) mod workspace;

/// What the integration tests read of the library besides the binary: the shapes they parse
/// and the facts they check outputs against.
pub mod facts {
    pub use crate::config::Config;
    pub use crate::impact::ImpactL1;
    pub use crate::install::settings::wanted as wanted_hooks;
    pub use crate::store::MIGRATIONS;
}
