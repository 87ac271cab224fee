//! SQL for ad-hoc dependency questions: the canned queries of `queries/`, read-only ad-hoc SQL,
//! the documented schema, and the output formats they share.
//!
//! Owns running statements and shaping their results; does not open the database (callers pass
//! a `store::open_readonly` connection) and knows nothing of the command line. Invariant: every
//! value reaches SQLite as a bound parameter; ad-hoc SQL that could write is never run.

pub mod catalog;
pub mod exec;
pub mod format;
pub mod params;
pub mod schema;

pub use catalog::{CannedQuery, ParamSpec, ParamType};
pub use exec::{run_adhoc, run_canned};
pub use format::{sink, Format, Sink};

#[cfg(test)]
mod tests;
