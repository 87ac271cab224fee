//! Phase timings for `SRC_DEBUG=FILE`: appended to that file, never to stdout or stderr (the
//! hooks must stay silent). Costs one env lookup per call when unset.

use std::io::Write as _;
use std::time::Instant;

/// Where `SRC_DEBUG` says to write: nothing when unset, empty, `0`, `off`, `false` or `no`
/// (Claude Code passes a settings `env` value of `0` to hooks: that is "off", not a file named
/// `0`); the temp folder's `src-debug.log` for `1`, `on`, `true` or `yes`; else the file named.
pub fn target(value: Option<std::ffi::OsString>) -> Option<std::path::PathBuf> {
    let v = value?;
    let s = v.to_string_lossy().trim().to_ascii_lowercase();
    match s.as_str() {
        "" | "0" | "off" | "false" | "no" => None,
        "1" | "on" | "true" | "yes" => Some(std::env::temp_dir().join("src-debug.log")),
        _ => Some(std::path::PathBuf::from(v)),
    }
}

/// Appends `scope: msg` to the file `SRC_DEBUG` names (see `target`), if any. Never fails.
pub fn note(scope: &str, msg: &str) {
    let Some(path) = target(std::env::var_os("SRC_DEBUG")) else {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_values_write_nothing_and_on_values_no_file_named_like_them() {
        for off in ["", "0", "off", "OFF", "false", "no", " 0 "] {
            assert_eq!(target(Some(off.into())), None, "{off:?}");
        }
        assert_eq!(target(None), None);
        for on in ["1", "true", "on", "yes"] {
            let t = target(Some(on.into()));
            assert_eq!(
                t,
                Some(std::env::temp_dir().join("src-debug.log")),
                "{on:?}"
            );
        }
        assert_eq!(
            target(Some("/tmp/x.log".into())),
            Some(std::path::PathBuf::from("/tmp/x.log"))
        );
    }
}
