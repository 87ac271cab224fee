//! `src`: tells a coding agent, or a person, which files became stale after an edit.
//!
//! The engine (store, scan, index, graph, events, alert, impact, cascade, export, query) knows
//! nothing about the command line; `cmd` turns arguments into calls to it.

pub mod alert;
pub mod cascade;
pub mod clock;
pub mod cmd;
pub mod config;
pub mod ctx;
pub mod doctor;
pub mod error;
pub mod events;
pub mod export;
pub mod fsutil;
pub mod graph;
pub mod impact;
pub mod index;
pub mod install;
pub mod query;
pub mod scan;
pub mod store;
pub mod trace;
pub mod workspace;
