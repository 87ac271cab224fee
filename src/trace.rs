//! Phase timings for `SRC_DEBUG=FILE`: appended to that file, never to stdout or stderr (the
//! hooks must stay silent). Costs one env lookup per call when unset.

use std::io::Write as _;
use std::time::Instant;

/// Appends `scope: msg` to the file named by `SRC_DEBUG`, if any. Never fails.
pub fn note(scope: &str, msg: &str) {
    let Some(path) = std::env::var_os("SRC_DEBUG").filter(|v| !v.is_empty()) else {
        return;
    };
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
    {
        let _ = f.write_all(format!("{scope}: {msg}\n").as_bytes());
    }
}

/// Notes how long `what` took since `since`, then restarts the clock.
pub fn lap(scope: &str, what: &str, since: &mut Instant) {
    note(
        scope,
        &format!("{what}: {:.1} ms", since.elapsed().as_secs_f64() * 1e3),
    );
    *since = Instant::now();
}
