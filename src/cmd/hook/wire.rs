//! Wire types of the hook JSON that Claude Code writes on stdin, mirrored loosely.
//!
//! Every field is optional and tolerant: a field of an unexpected type reads as absent rather
//! than failing the whole payload, and unknown fields are ignored (the set changes between
//! client versions; see the reference notes). Only bytes that are not a JSON object are an error.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// The union of the fields our three hooks read, across PostToolUse, SubagentStop,
/// UserPromptSubmit and other events.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Payload {
    #[serde(deserialize_with = "string")]
    pub session_id: Option<String>,
    #[serde(deserialize_with = "string")]
    pub hook_event_name: Option<String>,
    #[serde(deserialize_with = "string")]
    pub cwd: Option<String>,
    #[serde(deserialize_with = "string")]
    pub tool_name: Option<String>,
    #[serde(deserialize_with = "object")]
    pub tool_input: Option<ToolInput>,
    #[serde(deserialize_with = "object")]
    pub tool_response: Option<ToolResponse>,
    #[serde(deserialize_with = "string")]
    pub tool_use_id: Option<String>,
    /// Present only inside a subagent (since Claude Code 2.1.69) and on SubagentStop.
    #[serde(deserialize_with = "string")]
    pub agent_id: Option<String>,
    /// May be `""` for internal forks (which bypass the settings matcher).
    #[serde(deserialize_with = "string")]
    pub agent_type: Option<String>,
    #[serde(deserialize_with = "boolean")]
    pub stop_hook_active: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ToolInput {
    #[serde(deserialize_with = "string")]
    pub file_path: Option<String>,
    /// NotebookEdit names its file here instead of `file_path`.
    #[serde(deserialize_with = "string")]
    pub notebook_path: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ToolResponse {
    #[serde(rename = "filePath", deserialize_with = "string")]
    pub file_path: Option<String>,
    /// Absent in real Edit/Write responses; only an explicit `false` skips the event.
    #[serde(deserialize_with = "boolean")]
    pub success: Option<bool>,
    /// Bash only (Claude Code 2.1.269, best effort): the files the command changed.
    #[serde(rename = "bashEditDiff", deserialize_with = "object")]
    pub bash_edit_diff: Option<BashEditDiff>,
}

/// `tool_response.bashEditDiff` as the client's schema has it: `files` (shown with hunks, at
/// most a few), `moreFiles` (how many changed files `files` leaves out), `changedFiles`
/// (absolute paths of every changed file known, at most 200), `unavailable` (no diff: then
/// `changedFiles` may still list the paths), `skipped`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct BashEditDiff {
    #[serde(deserialize_with = "list")]
    pub files: Vec<DiffFile>,
    #[serde(rename = "changedFiles", deserialize_with = "list")]
    pub changed_files: Vec<String>,
    #[serde(rename = "moreFiles", deserialize_with = "count")]
    pub more_files: u64,
    #[serde(deserialize_with = "boolean")]
    pub unavailable: Option<bool>,
    #[serde(deserialize_with = "boolean")]
    pub skipped: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DiffFile {
    #[serde(rename = "filePath", deserialize_with = "string")]
    pub file_path: Option<String>,
}

impl BashEditDiff {
    /// Every changed file the diff names, each once, in its order: `changedFiles` (complete up
    /// to its cap) and the paths of `files`.
    pub fn paths(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        let listed = self.changed_files.iter().map(String::as_str);
        let shown = self.files.iter().filter_map(|f| f.file_path.as_deref());
        for p in listed.chain(shown) {
            if !p.is_empty() && !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }

    /// How many changed files the diff says exist but does not name (left to reconcile).
    pub fn unnamed(&self) -> u64 {
        let named = self.paths().len() as u64;
        (self.files.len() as u64 + self.more_files).saturating_sub(named)
    }
}

/// Parses a payload; errors only when the bytes are not a JSON object.
pub fn parse(input: &[u8]) -> Result<Payload, serde_json::Error> {
    // Serde would also read a struct from an array; only an object is a payload.
    if input.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(serde::de::Error::custom("expected a JSON object"));
    }
    serde_json::from_slice(input)
}

impl Payload {
    /// A non-empty string field, or `None`.
    pub fn non_empty(v: &Option<String>) -> Option<&str> {
        v.as_deref().filter(|s| !s.is_empty())
    }
}

fn string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => Some(s),
        _ => None,
    })
}

fn boolean<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Bool(b) => Some(b),
        _ => None,
    })
}

/// The elements of an array that read as `T`; anything else reads as empty.
fn list<'de, D: Deserializer<'de>, T: serde::de::DeserializeOwned>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|v| serde_json::from_value(v).ok())
            .collect(),
        _ => Vec::new(),
    })
}

fn count<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Ok(Value::deserialize(d)?.as_u64().unwrap_or(0))
}

fn object<'de, D: Deserializer<'de>, T: serde::de::DeserializeOwned>(
    d: D,
) -> Result<Option<T>, D::Error> {
    let v = Value::deserialize(d)?;
    Ok(match v {
        Value::Object(_) => serde_json::from_value(v).ok(),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_types_read_as_absent() -> Result<(), serde_json::Error> {
        let p = parse(
            br#"{"session_id": 5, "tool_name": "Edit", "tool_input": "x",
                 "tool_response": {"success": "false", "filePath": "/a"}, "extra": [1]}"#,
        )?;
        assert_eq!(p.session_id, None);
        assert!(p.tool_input.is_none());
        let r = p.tool_response.unwrap_or_default();
        assert_eq!((r.success, r.file_path.as_deref()), (None, Some("/a")));
        Ok(())
    }

    #[test]
    fn bash_edit_diff_reads_tolerantly() -> Result<(), serde_json::Error> {
        let p = parse(
            br#"{"tool_name": "Bash", "tool_response": {"stdout": "", "bashEditDiff": {
                "files": [{"filePath": "/r/a.md", "hunks": []}, {"filePath": 3}, "x"],
                "changedFiles": ["/r/a.md", "/r/b.md", 7], "moreFiles": 3}}}"#,
        )?;
        let d = p
            .tool_response
            .and_then(|r| r.bash_edit_diff)
            .unwrap_or_default();
        assert_eq!(d.paths(), ["/r/a.md", "/r/b.md"]);
        // Two shown (one without a path) and three more: five changed, two named.
        assert_eq!(d.unnamed(), 3);
        let p = parse(br#"{"tool_response": {"bashEditDiff": "nope"}}"#)?;
        assert!(p.tool_response.is_some_and(|r| r.bash_edit_diff.is_none()));
        Ok(())
    }

    #[test]
    fn non_objects_are_errors() {
        assert!(parse(b"[]").is_err());
        assert!(parse(b"").is_err());
        assert!(parse(b"{\"a\":").is_err());
    }
}
