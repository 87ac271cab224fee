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
    fn non_objects_are_errors() {
        assert!(parse(b"[]").is_err());
        assert!(parse(b"").is_err());
        assert!(parse(b"{\"a\":").is_err());
    }
}
