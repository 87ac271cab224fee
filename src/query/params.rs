//! Parameters: checking `--param k=v` pairs against what a statement declares, converting each
//! value to its type, and binding it by name.
//!
//! Owns the rules "unknown, missing, duplicated or ill-typed parameter = usage error (exit 2)".
//! Invariant: values are only ever bound (`sqlite3_bind_*`), never spliced into SQL text, so no
//! value can change what a statement does.

use rusqlite::types::Value;
use rusqlite::Statement;

use anyhow::Result;

use super::catalog::{ParamSpec, ParamType};
use crate::error::usage;

/// Parses `k=v` (a leading `:` on the key is accepted and dropped).
pub fn parse_pair(s: &str) -> std::result::Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().trim_start_matches(':').is_empty() => {
            Ok((k.trim().trim_start_matches(':').to_string(), v.to_string()))
        }
        _ => Err(format!("expected NAME=VALUE, got `{s}`")),
    }
}

/// Checks `given` against `specs` and converts each value to its type; `locate` maps a `path`
/// value to the root-relative form. Defaults fill in what was not given. `what` names the
/// statement in messages ("query `dependents`", "the ad-hoc SQL").
pub fn resolve(
    what: &str,
    specs: &[ParamSpec],
    given: &[(String, String)],
    locate: &dyn Fn(&str) -> Result<String>,
) -> Result<Vec<(String, Value)>> {
    let declared = || {
        if specs.is_empty() {
            "it takes none".to_string()
        } else {
            let sigs: Vec<String> = specs.iter().map(ParamSpec::signature).collect();
            format!("it takes {}", sigs.join(", "))
        }
    };
    for (i, (k, _)) in given.iter().enumerate() {
        if !specs.iter().any(|s| &s.name == k) {
            return Err(usage(format!(
                "unknown parameter `{k}` for {what}; {}",
                declared()
            )));
        }
        if given[..i].iter().any(|(prev, _)| prev == k) {
            return Err(usage(format!("parameter `{k}` is given twice")));
        }
    }
    let mut out = Vec::with_capacity(specs.len());
    for spec in specs {
        let raw = match given.iter().find(|(k, _)| k == &spec.name) {
            Some((_, v)) => v.clone(),
            None => match &spec.default {
                Some(d) => d.clone(),
                None => {
                    return Err(usage(format!(
                        "{what} needs --param {}=… ({}: {})",
                        spec.name,
                        spec.ty.as_str(),
                        spec.description
                    )))
                }
            },
        };
        let value = match spec.ty {
            ParamType::Text => Value::Text(raw),
            ParamType::Int => match raw.trim().parse::<i64>() {
                Ok(n) => Value::Integer(n),
                Err(_) => {
                    return Err(usage(format!(
                        "parameter `{}` must be an integer, got `{raw}`",
                        spec.name
                    )))
                }
            },
            ParamType::Path => Value::Text(locate(&raw)?),
        };
        out.push((spec.name.clone(), value));
    }
    Ok(out)
}

/// The named parameters a prepared statement uses, without the `:`/`@`/`$` sigil. A positional
/// `?` parameter is a usage error: values are matched by name.
pub fn used_names(stmt: &Statement<'_>) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for i in 1..=stmt.parameter_count() {
        match stmt.parameter_name(i) {
            Some(n) if n.len() > 1 && !n.starts_with('?') => {
                let bare = n[1..].to_string();
                if !names.contains(&bare) {
                    names.push(bare);
                }
            }
            _ => {
                return Err(usage(format!(
                    "parameter {i} is positional (`?`); use a named parameter like `:file` \
                     and pass --param file=…"
                )))
            }
        }
    }
    Ok(names)
}

/// Binds every named parameter of `stmt` from `values` (which `resolve` made complete).
pub fn bind(stmt: &mut Statement<'_>, values: &[(String, Value)]) -> Result<()> {
    for i in 1..=stmt.parameter_count() {
        let name = stmt.parameter_name(i).unwrap_or("?").to_string();
        let bare = name.get(1..).unwrap_or("");
        let Some((_, v)) = values.iter().find(|(k, _)| k == bare) else {
            return Err(usage(format!("no value for parameter `{name}`")));
        };
        stmt.raw_bind_parameter(i, v)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs() -> Vec<ParamSpec> {
        vec![
            ParamSpec {
                name: "file".into(),
                ty: ParamType::Path,
                default: None,
                description: "The file.".into(),
            },
            ParamSpec {
                name: "depth".into(),
                ty: ParamType::Int,
                default: Some("3".into()),
                description: "Hops.".into(),
            },
        ]
    }

    fn same(s: &str) -> Result<String> {
        Ok(format!("rel/{s}"))
    }

    fn err_of(given: &[(&str, &str)]) -> String {
        let given: Vec<(String, String)> = given
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        match resolve("query `q`", &specs(), &given, &same) {
            Ok(v) => panic!("expected an error, got {v:?}"),
            Err(e) => {
                assert!(e.downcast_ref::<crate::error::UsageError>().is_some());
                e.to_string()
            }
        }
    }

    #[test]
    fn values_are_typed_and_defaults_fill_in() -> Result<()> {
        let v = resolve("q", &specs(), &[("file".into(), "a.md".into())], &same)?;
        assert_eq!(v[0], ("file".into(), Value::Text("rel/a.md".into())));
        assert_eq!(v[1], ("depth".into(), Value::Integer(3)));
        let given = [("file".into(), "a".into()), ("depth".into(), "7".into())];
        let v = resolve("query `q`", &specs(), &given, &same)?;
        assert_eq!(v[1].1, Value::Integer(7));
        Ok(())
    }

    #[test]
    fn unknown_missing_duplicate_and_ill_typed_are_usage_errors() {
        assert!(err_of(&[("file", "a"), ("fiel", "b")]).contains("unknown parameter `fiel`"));
        assert!(err_of(&[]).contains("needs --param file="));
        assert!(err_of(&[("file", "a"), ("depth", "two")]).contains("must be an integer"));
        assert!(err_of(&[("file", "a"), ("file", "b")]).contains("twice"));
    }

    #[test]
    fn pairs_parse_with_or_without_colon() {
        assert_eq!(parse_pair(":a=b=c"), Ok(("a".into(), "b=c".into())));
        assert_eq!(parse_pair("a="), Ok(("a".into(), String::new())));
        assert!(parse_pair("novalue").is_err());
        assert!(parse_pair("=x").is_err());
    }
}
