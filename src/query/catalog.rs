//! The registry of canned queries: every `queries/*.sql` embedded by `build.rs`
//! (`crate::store::QUERIES`), with its header comment parsed into a name, a description, notes
//! and typed parameters.
//!
//! Owns the header convention documented in `queries/README.md`; does not run anything.
//! Invariant: a query whose header is malformed is reported by name, never silently skipped.

use anyhow::{bail, Context, Result};

use crate::store::QUERIES;

/// How a parameter's value is checked and bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamType {
    /// Bound as text, as given.
    Text,
    /// Must parse as a 64-bit integer; bound as an integer.
    Int,
    /// A file path: mapped to the root-relative form the index stores, bound as text.
    Path,
}

impl ParamType {
    fn parse(s: &str) -> Option<ParamType> {
        match s {
            "text" => Some(ParamType::Text),
            "int" => Some(ParamType::Int),
            "path" => Some(ParamType::Path),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ParamType::Text => "text",
            ParamType::Int => "int",
            ParamType::Path => "path",
        }
    }
}

/// One `-- param: :NAME TYPE [= DEFAULT]  DESCRIPTION` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamSpec {
    /// Without the leading `:`.
    pub name: String,
    pub ty: ParamType,
    pub default: Option<String>,
    pub description: String,
}

impl ParamSpec {
    /// `:depth int = 3` or `:file path`, as `--list` shows it.
    pub fn signature(&self) -> String {
        match &self.default {
            Some(d) => format!(":{} {} = {}", self.name, self.ty.as_str(), d),
            None => format!(":{} {}", self.name, self.ty.as_str()),
        }
    }
}

/// A canned query with its parsed header.
#[derive(Debug, Clone)]
pub struct CannedQuery {
    pub name: String,
    /// The one-line description (first plain header line).
    pub description: String,
    /// Further plain header lines.
    pub notes: Vec<String>,
    pub params: Vec<ParamSpec>,
    pub sql: &'static str,
}

/// Every embedded canned query, sorted by name.
pub fn all() -> Result<Vec<CannedQuery>> {
    QUERIES
        .iter()
        .map(|(stem, sql)| parse(stem, sql).with_context(|| format!("in queries/{stem}.sql")))
        .collect()
}

/// The canned query called `name`, or a usage error listing the known names.
pub fn find(name: &str) -> Result<CannedQuery> {
    let all = all()?;
    let known: Vec<&str> = all.iter().map(|q| q.name.as_str()).collect();
    match all.iter().find(|q| q.name == name) {
        Some(q) => Ok(q.clone()),
        None => Err(crate::error::usage(format!(
            "no canned query named `{name}`; known: {} (see `src query --list`)",
            known.join(", ")
        ))),
    }
}

/// Parses the header of `queries/<stem>.sql`.
pub fn parse(stem: &str, sql: &'static str) -> Result<CannedQuery> {
    let mut lines = sql
        .lines()
        .map(str::trim)
        .take_while(|l| l.starts_with("--"))
        .map(|l| l.trim_start_matches('-').trim());
    let name = match lines.next().and_then(|l| l.strip_prefix("name:")) {
        Some(n) => n.trim().to_string(),
        None => bail!("the first line must be `-- name: {stem}`"),
    };
    if name != stem {
        bail!("header says `name: {name}` but the file is {stem}.sql");
    }
    let mut description = None;
    let mut notes = Vec::new();
    let mut params = Vec::new();
    for line in lines {
        if let Some(rest) = line.strip_prefix("param:") {
            params.push(parse_param(rest.trim())?);
        } else if let Some(rest) = line.strip_prefix("params:") {
            // `-- params: (none)` says so explicitly; otherwise the same form as `param:`.
            let rest = rest.trim();
            if !(rest.is_empty() || rest.eq_ignore_ascii_case("(none)") || rest == "none") {
                params.push(parse_param(rest)?);
            }
        } else if line.is_empty() {
            continue;
        } else if description.is_none() {
            description = Some(line.to_string());
        } else {
            notes.push(line.to_string());
        }
    }
    let Some(description) = description else {
        bail!("the header has no description line after `-- name: {stem}`");
    };
    Ok(CannedQuery {
        name,
        description,
        notes,
        params,
        sql,
    })
}

/// `:NAME TYPE [= DEFAULT]  DESCRIPTION`
fn parse_param(s: &str) -> Result<ParamSpec> {
    let Some(rest) = s.strip_prefix(':') else {
        bail!("parameter line `{s}` must start with `:NAME`");
    };
    let (name, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let rest = rest.trim_start();
    let (ty, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let Some(ty) = ParamType::parse(ty) else {
        bail!("parameter :{name} has type `{ty}`; expected text, int or path");
    };
    let mut rest = rest.trim_start();
    let mut default = None;
    if let Some(after) = rest.strip_prefix('=') {
        let after = after.trim_start();
        let (d, tail) = after.split_once(char::is_whitespace).unwrap_or((after, ""));
        if d.is_empty() {
            bail!("parameter :{name} has `=` but no default value");
        }
        if ty == ParamType::Int && d.parse::<i64>().is_err() {
            bail!("parameter :{name} is an int but its default `{d}` is not");
        }
        default = Some(d.to_string());
        rest = tail.trim_start();
    }
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        bail!("parameter name `:{name}` must be letters, digits and `_`");
    }
    Ok(ParamSpec {
        name: name.to_string(),
        ty,
        default,
        description: rest.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_with_params_and_notes_parses() -> Result<()> {
        let q = parse(
            "t",
            "-- name: t\n-- What it answers.\n-- A note.\n-- param: :file path  The file.\n\
             -- param: :depth int = 3  Hops.\nSELECT :file, :depth\n-- not header\n",
        )?;
        assert_eq!(q.description, "What it answers.");
        assert_eq!(q.notes, vec!["A note.".to_string()]);
        assert_eq!(q.params.len(), 2);
        assert_eq!(q.params[0].ty, ParamType::Path);
        assert_eq!(q.params[0].default, None);
        assert_eq!(q.params[0].description, "The file.");
        assert_eq!(q.params[1].signature(), ":depth int = 3");
        assert_eq!(q.params[1].description, "Hops.");
        let none = parse("n", "-- name: n\n-- What.\n-- params: (none)\nSELECT 1")?;
        assert!(none.params.is_empty() && none.notes.is_empty());
        Ok(())
    }

    #[test]
    fn malformed_headers_are_refused_with_the_reason() {
        let cases = [
            ("SELECT 1", "first line"),
            ("-- name: other\n-- d\nSELECT 1", "but the file is"),
            ("-- name: t\nSELECT 1", "no description"),
            (
                "-- name: t\n-- d\n-- param: :x float\nSELECT :x",
                "expected text, int or path",
            ),
            (
                "-- name: t\n-- d\n-- param: :x int = abc\nSELECT :x",
                "is not",
            ),
            (
                "-- name: t\n-- d\n-- param: x int\nSELECT :x",
                "must start with",
            ),
        ];
        for (sql, want) in cases {
            let err = parse("t", sql)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(err.contains(want), "{sql:?}: got {err:?}, want {want:?}");
        }
    }

    #[test]
    fn every_embedded_query_has_a_valid_header() -> Result<()> {
        let all = all()?;
        assert!(
            all.len() >= 13,
            "expected the canned queries, got {}",
            all.len()
        );
        for q in &all {
            assert!(!q.description.is_empty(), "{}", q.name);
        }
        Ok(())
    }
}
