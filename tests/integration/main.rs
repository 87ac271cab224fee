//! One integration-test crate (fewer link steps): each module runs the real binary on copies of
//! fixtures in temporary directories.

mod util;

mod budget;
mod cascade;
mod export;
mod fmnames;
mod hooks;
mod hooks_late;
mod impact;
mod index;
mod plugin;
mod query;
mod refs;
mod safety;
mod scan;
mod tour;
mod truth;
mod workspace;
