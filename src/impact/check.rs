//! The L1 validator (seed 002's pattern): `{valid, errors[], warnings[]}`, each finding with a
//! stable `code`, the path of the offending key and a message.
//!
//! Owns the checks of an impact L1 document read as untyped YAML (JSON is YAML), so it can say
//! exactly which key is wrong. Unknown keys are tolerated silently (forward compatibility).
//! Invariant: codes are stable; adding a check adds a code, never renames one.

use std::collections::BTreeSet;

use serde::Serialize;
use serde_yaml::Value;

use super::decide;

/// One finding: `code` is stable, `path` like `impacts[0].dependents[2].hop_count`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub code: &'static str,
    pub path: String,
    pub message: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    pub valid: bool,
    pub errors: Vec<Finding>,
    pub warnings: Vec<Finding>,
}

pub const E_PARSE: &str = "E_PARSE";
pub const E_MISSING_FIELD: &str = "E_MISSING_FIELD";
pub const E_TYPE: &str = "E_TYPE";
pub const E_ENUM: &str = "E_ENUM";
pub const E_COUNT_MISMATCH: &str = "E_COUNT_MISMATCH";
pub const E_HOP_TYPE: &str = "E_HOP_TYPE";
pub const E_CASCADE_RULE: &str = "E_CASCADE_RULE";
pub const W_NOT_ABSOLUTE: &str = "W_NOT_ABSOLUTE";
pub const W_CANDIDATES_MISMATCH: &str = "W_CANDIDATES_MISMATCH";
pub const W_EVIDENCE_FORMAT: &str = "W_EVIDENCE_FORMAT";
pub const W_SCHEMA_VERSION: &str = "W_SCHEMA_VERSION";

#[derive(Default)]
struct Checker {
    r: Report,
}

impl Checker {
    fn err(&mut self, code: &'static str, path: impl Into<String>, message: impl Into<String>) {
        self.r.errors.push(Finding {
            code,
            path: path.into(),
            message: message.into(),
        });
    }

    fn warn(&mut self, code: &'static str, path: impl Into<String>, message: impl Into<String>) {
        self.r.warnings.push(Finding {
            code,
            path: path.into(),
            message: message.into(),
        });
    }

    /// The value at `key` of `map`, or an E_MISSING_FIELD.
    fn field<'a>(&mut self, map: &'a Value, at: &str, key: &str) -> Option<&'a Value> {
        let v = map.get(key);
        if v.is_none() {
            self.err(
                E_MISSING_FIELD,
                join(at, key),
                format!("required field `{key}` is missing"),
            );
        }
        v
    }

    fn string<'a>(&mut self, map: &'a Value, at: &str, key: &str) -> Option<&'a str> {
        let v = self.field(map, at, key)?;
        let s = v.as_str();
        if s.is_none() {
            self.err(
                E_TYPE,
                join(at, key),
                format!("expected a string, found {}", kind(v)),
            );
        }
        s
    }

    fn enumerated<'a>(
        &mut self,
        map: &'a Value,
        at: &str,
        key: &str,
        allowed: &[&str],
    ) -> Option<&'a str> {
        let s = self.string(map, at, key)?;
        if allowed.contains(&s) {
            Some(s)
        } else {
            self.err(
                E_ENUM,
                join(at, key),
                format!("`{s}` is not one of {}", allowed.join("|")),
            );
            None
        }
    }

    fn integer(&mut self, map: &Value, at: &str, key: &str) -> Option<u64> {
        let v = self.field(map, at, key)?;
        let n = v.as_u64();
        if n.is_none() {
            self.err(
                E_TYPE,
                join(at, key),
                format!("expected a non-negative integer, found {}", kind(v)),
            );
        }
        n
    }

    fn boolean(&mut self, map: &Value, at: &str, key: &str) -> Option<bool> {
        let v = self.field(map, at, key)?;
        let b = v.as_bool();
        if b.is_none() {
            self.err(
                E_TYPE,
                join(at, key),
                format!("expected true or false, found {}", kind(v)),
            );
        }
        b
    }

    fn sequence<'a>(&mut self, map: &'a Value, at: &str, key: &str) -> Option<&'a [Value]> {
        let v = self.field(map, at, key)?;
        let s = v.as_sequence().map(Vec::as_slice);
        if s.is_none() {
            self.err(
                E_TYPE,
                join(at, key),
                format!("expected a list, found {}", kind(v)),
            );
        }
        s
    }

    fn path(&mut self, map: &Value, at: &str, key: &str) {
        if let Some(p) = self.string(map, at, key) {
            if !p.starts_with('/') {
                self.warn(
                    W_NOT_ABSOLUTE,
                    join(at, key),
                    format!("`{p}` is not an absolute path"),
                );
            }
        }
    }
}

/// Validates L1 text (YAML or JSON).
pub fn validate_str(text: &str) -> Report {
    match serde_yaml::from_str::<Value>(text) {
        Ok(v) => validate(&v),
        Err(e) => {
            let mut c = Checker::default();
            c.err(E_PARSE, "", format!("not YAML: {e}"));
            c.r
        }
    }
}

/// Validates a parsed L1 document.
pub fn validate(doc: &Value) -> Report {
    let mut c = Checker::default();
    if !doc.is_mapping() {
        c.err(
            E_PARSE,
            "",
            format!("expected a mapping at the top level, found {}", kind(doc)),
        );
        return c.r;
    }
    match doc.get("schema_version") {
        None => c.warn(
            W_SCHEMA_VERSION,
            "schema_version",
            "no schema_version: read as the seed's layout",
        ),
        Some(v) => match v.as_u64() {
            Some(n) if n <= u64::from(super::SCHEMA_VERSION) => {}
            Some(n) => c.warn(
                W_SCHEMA_VERSION,
                "schema_version",
                format!(
                    "schema_version {n} is newer than this validator ({})",
                    super::SCHEMA_VERSION
                ),
            ),
            None => c.err(
                E_TYPE,
                "schema_version",
                format!("expected a non-negative integer, found {}", kind(v)),
            ),
        },
    }
    if let Some(v) = doc.get("impact_id") {
        if v.as_i64().is_none() {
            c.err(
                E_TYPE,
                "impact_id",
                format!("expected an integer, found {}", kind(v)),
            );
        }
    }
    c.enumerated(doc, "", "domain", &["execution"]);
    c.enumerated(doc, "", "skill", &["impact"]);
    let status = c.enumerated(doc, "", "status", &["complete", "partial", "skipped"]);
    let confidence = c.enumerated(doc, "", "confidence", &["high", "medium", "low"]);
    c.integer(doc, "", "files_changed");
    let candidates = c.integer(doc, "", "impact_candidates");
    c.enumerated(doc, "", "degradation_level", &["full", "degraded"]);
    let recommended = c.boolean(doc, "", "cascade_recommended");
    c.string(doc, "", "cascade_rationale");
    let mut any_direct = false;
    let mut files = BTreeSet::new();
    for (i, imp) in c
        .sequence(doc, "", "impacts")
        .unwrap_or(&[])
        .iter()
        .enumerate()
    {
        let at = format!("impacts[{i}]");
        if !imp.is_mapping() {
            c.err(
                E_TYPE,
                &at,
                format!("expected a mapping, found {}", kind(imp)),
            );
            continue;
        }
        c.path(imp, &at, "changed_file");
        let count = c.integer(imp, &at, "dependent_count");
        let deps = c.sequence(imp, &at, "dependents");
        if let (Some(n), Some(d)) = (count, deps) {
            if n != d.len() as u64 {
                c.err(
                    E_COUNT_MISMATCH,
                    join(&at, "dependent_count"),
                    format!("dependent_count is {n} but dependents lists {}", d.len()),
                );
            }
        }
        for (j, dep) in deps.unwrap_or(&[]).iter().enumerate() {
            let at = format!("{at}.dependents[{j}]");
            if !dep.is_mapping() {
                c.err(
                    E_TYPE,
                    &at,
                    format!("expected a mapping, found {}", kind(dep)),
                );
                continue;
            }
            c.path(dep, &at, "file");
            if let Some(f) = dep.get("file").and_then(Value::as_str) {
                files.insert(f.to_string());
            }
            let ty = c.enumerated(dep, &at, "type", &["DIRECT", "TRANSITIVE"]);
            any_direct |= ty == Some("DIRECT");
            let hop = c.integer(dep, &at, "hop_count");
            match (ty, hop) {
                (_, Some(h)) if h != 1 && h != 2 => c.err(
                    E_ENUM,
                    join(&at, "hop_count"),
                    format!("hop_count {h} is not 1 or 2 (TRANSITIVE stops at 2 hops)"),
                ),
                (Some("DIRECT"), Some(2)) | (Some("TRANSITIVE"), Some(1)) => c.err(
                    E_HOP_TYPE,
                    join(&at, "hop_count"),
                    format!(
                        "hop_count {} does not match type {} (DIRECT is 1, TRANSITIVE is 2)",
                        hop.unwrap_or(0),
                        ty.unwrap_or("")
                    ),
                ),
                _ => {}
            }
            c.string(dep, &at, "reference_pattern");
            if let Some(ev) = c.string(dep, &at, "evidence") {
                if !evidence_shaped(ev) {
                    c.warn(
                        W_EVIDENCE_FORMAT,
                        join(&at, "evidence"),
                        format!("`{ev}` is not file:line_number:matched_line"),
                    );
                }
            }
        }
    }
    if let Some(n) = candidates {
        if c.r.errors.is_empty() && n != files.len() as u64 {
            c.warn(
                W_CANDIDATES_MISMATCH,
                "impact_candidates",
                format!(
                    "impact_candidates is {n} but {} unique dependent files are listed",
                    files.len()
                ),
            );
        }
    }
    if let (Some(s), Some(conf), Some(n), Some(got)) = (status, confidence, candidates, recommended)
    {
        let rule = decide::cascade_rule(s, conf, n, any_direct);
        if rule.recommended() != got {
            c.err(E_CASCADE_RULE, "cascade_recommended", format!("cascade_recommended is {got} but the decision table gives {} ({rule:?}: status {s}, confidence {conf}, impact_candidates {n}, DIRECT present: {any_direct})", rule.recommended()));
        }
    }
    c.r.valid = c.r.errors.is_empty();
    c.r
}

/// `file:line:text` with a numeric line.
fn evidence_shaped(ev: &str) -> bool {
    let mut parts = ev.splitn(3, ':');
    let (Some(file), Some(line), Some(_)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    !file.is_empty() && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit())
}

fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_string()
    } else {
        format!("{at}.{key}")
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a float",
        Value::Number(n) if n.as_i64().is_some_and(|i| i < 0) => "a negative number",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALID: &str = "schema_version: 1\ndomain: execution\nskill: impact\nstatus: complete\n\
        confidence: high\nfiles_changed: 1\nimpact_candidates: 1\ndegradation_level: full\n\
        impacts:\n  - changed_file: /r/c.md\n    dependents:\n      - file: /r/b.md\n        \
        type: DIRECT\n        hop_count: 1\n        reference_pattern: c\n        \
        evidence: \"/r/b.md:3:see c\"\n    dependent_count: 1\ncascade_recommended: true\n\
        cascade_rationale: direct\nextra_key: tolerated\n";

    fn codes(text: &str) -> Vec<&'static str> {
        validate_str(text).errors.iter().map(|f| f.code).collect()
    }

    #[test]
    fn valid_document_passes_and_unknown_keys_are_tolerated() {
        let r = validate_str(VALID);
        assert!(r.valid, "{r:?}");
        assert!(r.warnings.is_empty(), "{r:?}");
    }

    #[test]
    fn each_error_code_fires() {
        assert_eq!(codes("[1, 2"), vec![E_PARSE]);
        assert_eq!(
            codes(&VALID.replace("skill: impact\n", "")),
            vec![E_MISSING_FIELD]
        );
        assert_eq!(
            codes(&VALID.replace("status: complete", "status: done")),
            vec![E_ENUM]
        );
        assert_eq!(
            codes(&VALID.replace("files_changed: 1", "files_changed: one")),
            vec![E_TYPE]
        );
        assert_eq!(
            codes(&VALID.replace("dependent_count: 1", "dependent_count: 2")),
            vec![E_COUNT_MISMATCH]
        );
        assert_eq!(
            codes(&VALID.replace("hop_count: 1", "hop_count: 2")),
            vec![E_HOP_TYPE]
        );
        assert_eq!(
            codes(&VALID.replace("cascade_recommended: true", "cascade_recommended: false")),
            vec![E_CASCADE_RULE]
        );
    }

    #[test]
    fn warnings_do_not_invalidate() {
        let r = validate_str(&VALID.replace("- changed_file: /r/c.md", "- changed_file: c.md"));
        assert!(r.valid);
        assert_eq!(r.warnings[0].code, W_NOT_ABSOLUTE);
        assert_eq!(r.warnings[0].path, "impacts[0].changed_file");
    }
}
