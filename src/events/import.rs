//! Import of the seed's TSV change logs (`{timestamp}\t{tool}\t{path}`, one edit per line).
//!
//! Owns parsing those lines; storing goes through [`super::insert`], so importing the same log
//! twice adds nothing. Invariant: a malformed line is reported by number and skipped, never
//! half-imported.

use std::path::Path;

use crate::workspace::{normalize, Workspace};

use super::Event;

/// A line that could not be imported: its 1-based number and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    pub line: usize,
    pub reason: String,
}

/// The session id a seed log names in its file name (`src-changes-{session}.log`).
pub fn session_from_name(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let s = name.strip_prefix("src-changes-")?.strip_suffix(".log")?;
    (!s.is_empty()).then(|| s.to_string())
}

/// Parses a log's text into events of `session`, and the lines it had to skip.
pub fn parse(ws: &Workspace, session: &str, text: &str) -> (Vec<Event>, Vec<Malformed>) {
    let mut events = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match parse_line(ws, session, line) {
            Ok(ev) => events.push(ev),
            Err(reason) => bad.push(Malformed {
                line: i + 1,
                reason,
            }),
        }
    }
    (events, bad)
}

fn parse_line(ws: &Workspace, session: &str, line: &str) -> Result<Event, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [ts, tool, path] = fields[..] else {
        return Err(format!(
            "expected 3 tab-separated fields (timestamp, tool, path), found {}",
            fields.len()
        ));
    };
    let when = chrono::DateTime::parse_from_rfc3339(ts)
        .map_err(|e| format!("timestamp `{ts}` is not ISO-8601 with offset ({e})"))?;
    if tool.is_empty() || tool.contains(char::is_whitespace) {
        return Err(format!("tool `{tool}` is not a tool name"));
    }
    let p = Path::new(path);
    if !p.is_absolute() {
        return Err(format!("path `{path}` is not absolute"));
    }
    let at = super::worktree::event_path(ws, &normalize(p));
    Ok(Event {
        session_id: session.to_string(),
        tool_name: tool.to_string(),
        path: at.path,
        abs_path: at.abs_path,
        agent_id: None,
        agent_type: None,
        tool_use_id: None,
        cwd: None,
        worktree: at.worktree,
        ts: crate::clock::format(&when),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_seed_lines_and_reports_bad_ones() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        std::fs::create_dir_all(dir.path().join(".git"))?;
        let ws = Workspace::at(dir.path())?;
        let root = ws.root.display().to_string();
        let text = format!(
            "2026-02-14T15:30:42+09:00\tEdit\t{root}/.claude/a.md\n\
             garbage\n\
             \n\
             yesterday\tEdit\t/x\n\
             2026-02-14T15:30:45+09:00\tWrite\trelative/path\n\
             2026-02-14T15:31:02+09:00\tEdit\t/elsewhere/b.md\n"
        );
        let (events, bad) = parse(&ws, "s1", &text);
        assert_eq!(events.len(), 2);
        assert_eq!(events[0].path.as_deref(), Some(".claude/a.md"));
        assert_eq!(events[0].ts, "2026-02-14T15:30:42.000000+09:00");
        assert_eq!(events[1].path, None);
        let lines: Vec<usize> = bad.iter().map(|b| b.line).collect();
        assert_eq!(lines, vec![2, 4, 5]);
        assert_eq!(
            session_from_name(Path::new("/tmp/src-changes-abc-1.log")).as_deref(),
            Some("abc-1")
        );
        assert_eq!(session_from_name(Path::new("/tmp/other.log")), None);
        Ok(())
    }
}
