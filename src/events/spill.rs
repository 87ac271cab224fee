//! The spill journal: where a hook puts an event when the database cannot take it in time.
//!
//! Owns the journal files in the state directory (`spill.jsonl`, and `spill-*.ingesting` while
//! they are being moved into the database). Invariant: no line is ever lost. Writers append one
//! JSON line with a single `write` on an `O_APPEND` file (atomic for lines under `PIPE_BUF`).
//! The ingester first renames the journal to a unique name, so new writers start a fresh file;
//! a writer that opened the old file just before the rename still lands in the renamed file,
//! which is re-read (idempotently) on later runs and deleted only once it has been quiet for
//! [`GRACE`].

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use anyhow::{Context, Result};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use super::{audit, insert, Event, Run, Source};
use crate::workspace::Workspace;

/// How long a renamed journal must have been untouched before it is deleted after ingestion.
pub const GRACE: Duration = Duration::from_secs(60);

const INGESTING_PREFIX: &str = "spill-";
const INGESTING_SUFFIX: &str = ".ingesting";

/// One journal line: the event, and why and how long the hook tried before spilling.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Line {
    #[serde(flatten)]
    pub event: Event,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub duration_us: u64,
}

/// Where a spilled line goes when the state directory cannot take it (a full disk, a read-only
/// or broken `.src`): `$SRC_SPILL_FALLBACK`, else the user's state directory
/// (`$XDG_STATE_HOME/src/spill/<project>`, `~/.local/state/src/spill/<project>`), else the temp
/// directory, with `<project>` a hash of the root so that projects never mix. Every command
/// ingests it too; `src doctor` names it.
pub fn fallback_dir(ws: &Workspace) -> PathBuf {
    let root = fs::canonicalize(&ws.root).unwrap_or_else(|_| ws.root.clone());
    let key = blake3::hash(root.to_string_lossy().as_bytes()).to_hex()[..16].to_string();
    if let Some(dir) = std::env::var_os("SRC_SPILL_FALLBACK").filter(|v| !v.is_empty()) {
        return PathBuf::from(dir).join(key);
    }
    let state = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".local/state"))
        });
    match state {
        Some(s) => s.join("src").join("spill").join(key),
        None => std::env::temp_dir().join("src-spill").join(key),
    }
}

/// The directories holding journals: the state directory and, when it exists, the fallback.
fn journal_dirs(ws: &Workspace) -> Vec<PathBuf> {
    let mut dirs = vec![ws.state_dir.clone()];
    let fb = fallback_dir(ws);
    if fb.is_dir() {
        dirs.push(fb);
    }
    dirs
}

/// Appends one line to the journal with a single `write`, creating the state directory if
/// needed; when that fails, to the fallback journal (`fallback_dir`).
pub fn append(ws: &Workspace, line: &Line) -> Result<()> {
    let mut buf = serde_json::to_vec(line).context("encoding a spill line")?;
    buf.push(b'\n');
    match append_to(&ws.state_dir, &buf) {
        Ok(()) => Ok(()),
        Err(first) => {
            let fb = fallback_dir(ws);
            append_to(&fb, &buf).map_err(|e| {
                anyhow::anyhow!("{first:#}; and the fallback journal failed too: {e:#}")
            })
        }
    }
}

fn append_to(dir: &std::path::Path, buf: &[u8]) -> Result<()> {
    let path = dir.join("spill.jsonl");
    let open = || OpenOptions::new().append(true).create(true).open(&path);
    let mut file = match open() {
        Ok(f) => f,
        Err(_) => {
            fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            open().with_context(|| format!("opening {}", path.display()))?
        }
    };
    let n = file
        .write(buf)
        .with_context(|| format!("appending to {}", path.display()))?;
    if n != buf.len() {
        anyhow::bail!(
            "short write to {} ({n} of {} bytes)",
            path.display(),
            buf.len()
        );
    }
    Ok(())
}

/// Journal files waiting for ingestion in `dir`: the renamed ones.
fn pending_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(INGESTING_PREFIX) && name.ends_with(INGESTING_SUFFIX) {
            out.push(entry.path());
        }
    }
    out.sort();
    out
}

/// Whether anything waits in the journal (a stat and a directory read; cheap).
pub fn has_backlog(ws: &Workspace) -> bool {
    journal_dirs(ws).iter().any(|d| {
        fs::metadata(d.join("spill.jsonl")).is_ok_and(|m| m.len() > 0)
            || !pending_files(d).is_empty()
    })
}

/// Number of lines in the live journals, i.e. events no command has ingested yet.
pub fn backlog_lines(ws: &Workspace) -> usize {
    journal_dirs(ws)
        .iter()
        .map(|d| {
            fs::read(d.join("spill.jsonl"))
                .map(|b| b.iter().filter(|&&c| c == b'\n').count())
                .unwrap_or(0)
        })
        .sum()
}

/// What one ingestion did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ingested {
    pub lines: usize,
    pub inserted: usize,
    pub malformed: usize,
}

/// Moves every journal line into `events` (idempotently), then deletes renamed journals that
/// have been quiet for [`GRACE`].
pub fn ingest(ws: &Workspace, conn: &mut Connection) -> Result<Ingested> {
    let mut total = Ingested::default();
    for dir in journal_dirs(ws) {
        let got = ingest_dir(&dir, conn)?;
        total.lines += got.lines;
        total.inserted += got.inserted;
        total.malformed += got.malformed;
    }
    Ok(total)
}

fn ingest_dir(dir: &std::path::Path, conn: &mut Connection) -> Result<Ingested> {
    let live = dir.join("spill.jsonl");
    if fs::metadata(&live).is_ok_and(|m| m.len() > 0) {
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let target = dir.join(format!(
            "{INGESTING_PREFIX}{nanos:024}-{}{INGESTING_SUFFIX}",
            std::process::id()
        ));
        // Losing the race to another ingester (NotFound) is fine: it ingests instead.
        match fs::rename(&live, &target) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("renaming {}", live.display())),
        }
    }
    let mut total = Ingested::default();
    for file in pending_files(dir) {
        let quiet = fs::metadata(&file)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= GRACE);
        let Ok(bytes) = fs::read(&file) else {
            continue; // deleted by a concurrent ingester
        };
        let got = ingest_bytes(conn, &bytes)?;
        total.lines += got.lines;
        total.inserted += got.inserted;
        total.malformed += got.malformed;
        if quiet {
            let _ = fs::remove_file(&file);
        }
    }
    Ok(total)
}

/// Inserts the lines of one journal in one transaction.
fn ingest_bytes(conn: &mut Connection, bytes: &[u8]) -> Result<Ingested> {
    let now = crate::clock::now();
    crate::store::write(conn, |tx| {
        let mut got = Ingested::default();
        for raw in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            got.lines += 1;
            let Ok(line) = serde_json::from_slice::<Line>(raw) else {
                got.malformed += 1;
                continue;
            };
            if insert(tx, &line.event, Source::Spill)? {
                got.inserted += 1;
                let detail = format!("spilled: {}", line.reason);
                audit(
                    tx,
                    &Run {
                        event: "post-tool-use",
                        outcome: "spilled",
                        duration_us: line.duration_us,
                        session_id: Some(&line.event.session_id),
                        detail: Some(&detail),
                    },
                    &now,
                )?;
            }
        }
        Ok(got)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::tests::ev;
    use std::path::Path;

    fn ws_in(dir: &Path) -> Result<Workspace> {
        fs::create_dir_all(dir.join(".git"))?;
        Workspace::at(dir)
    }

    #[test]
    fn append_then_ingest_moves_every_line_once() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let ws = ws_in(dir.path())?;
        for i in 0..5 {
            let line = Line {
                event: ev("s", &format!("f{i}.md"), Some(&format!("t{i}"))),
                reason: "locked".into(),
                duration_us: 7,
            };
            append(&ws, &line)?;
        }
        let mut conn = crate::events::tests::mem_db()?;
        let got = ingest(&ws, &mut conn)?;
        assert_eq!((got.lines, got.inserted), (5, 5));
        // The renamed journal stays during the grace period; re-reading it adds nothing.
        let again = ingest(&ws, &mut conn)?;
        assert_eq!((again.lines, again.inserted), (5, 0));
        let n: i64 = conn.query_row(
            "SELECT count(*) FROM events WHERE source = 'spill'",
            [],
            |r| r.get(0),
        )?;
        assert_eq!(n, 5);
        // A line written after the rename goes to a fresh journal and is ingested too.
        append(
            &ws,
            &Line {
                event: ev("s", "late.md", None),
                reason: "locked".into(),
                duration_us: 1,
            },
        )?;
        assert_eq!(ingest(&ws, &mut conn)?.inserted, 1);
        Ok(())
    }

    #[test]
    fn malformed_lines_are_counted_and_skipped() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let ws = ws_in(dir.path())?;
        fs::create_dir_all(&ws.state_dir)?;
        fs::write(ws.spill_path(), b"not json\n{\"x\":1}\n")?;
        let mut conn = crate::events::tests::mem_db()?;
        let got = ingest(&ws, &mut conn)?;
        assert_eq!((got.lines, got.malformed, got.inserted), (2, 2, 0));
        Ok(())
    }
}
