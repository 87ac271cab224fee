//! The three Claude Code skills backed by `src` (execution-impact, execution-cascade,
//! manage-codebase): their texts, frontmatter checks, and the plan to install or remove them.
//!
//! Owns the skill files only; hooks in settings.json belong to `install::settings`. Invariant: an
//! existing file is never overwritten without `force`, and removal only deletes a file whose
//! content is still exactly what we wrote.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// `(skill name, SKILL.md text)` of every skill we ship.
pub const TEMPLATES: &[(&str, &str)] = &[
    (
        "execution-impact",
        include_str!("templates/execution-impact.md"),
    ),
    (
        "execution-cascade",
        include_str!("templates/execution-cascade.md"),
    ),
    (
        "manage-codebase",
        include_str!("templates/manage-codebase.md"),
    ),
];

#[cfg(test)]
/// The seed's ADR-SRC-7 budget for one skill description (the hard limit is 1,024).
pub const DESCRIPTION_BUDGET: usize = 750;

#[cfg(test)]
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Frontmatter {
    pub name: String,
    pub description: String,
    #[serde(default, rename = "disable-model-invocation")]
    pub disable_model_invocation: bool,
}

#[cfg(test)]
/// Parses the YAML frontmatter between the leading `---` lines.
pub fn frontmatter(text: &str) -> Result<Frontmatter> {
    let rest = text
        .strip_prefix("---\n")
        .context("expected the file to start with a `---` frontmatter line")?;
    let end = rest
        .find("\n---\n")
        .context("expected a closing `---` line after the frontmatter")?;
    serde_yaml::from_str(&rest[..end]).context("parsing the skill frontmatter")
}

#[cfg(test)]
/// Every `src …` command line in a skill body: lines of ```sh blocks and inline `src …` spans.
pub fn command_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_sh = !in_sh && t == "```sh";
            continue;
        }
        if in_sh && t.starts_with("src ") {
            out.push(t.to_string());
        } else if !in_sh {
            for (i, span) in t.split('`').enumerate() {
                if i % 2 == 1 && span.starts_with("src ") {
                    out.push(span.to_string());
                }
            }
        }
    }
    out
}

/// What installing one skill would do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Create,
    Overwrite,
    /// A file of that name exists with other content and `force` was not given.
    KeepExisting,
    /// The file already holds exactly our text.
    Unchanged,
}

#[derive(Debug, Clone)]
pub struct Planned {
    pub path: PathBuf,
    pub text: &'static str,
    pub step: Step,
}

/// The path of a skill's SKILL.md under `root`.
pub fn skill_path(root: &Path, name: &str) -> PathBuf {
    root.join(".claude/skills").join(name).join("SKILL.md")
}

/// What installing the skills under `root` would do.
pub fn plan(root: &Path, force: bool) -> Vec<Planned> {
    TEMPLATES
        .iter()
        .map(|(name, text)| {
            let path = skill_path(root, name);
            let step = match std::fs::read_to_string(&path) {
                Ok(existing) if existing == *text => Step::Unchanged,
                Ok(_) if force => Step::Overwrite,
                Ok(_) => Step::KeepExisting,
                Err(_) if path.exists() && !force => Step::KeepExisting,
                Err(_) if path.exists() => Step::Overwrite,
                Err(_) => Step::Create,
            };
            Planned { path, text, step }
        })
        .collect()
}

/// Carries out a plan; returns the paths written.
pub fn apply(plan: &[Planned]) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for p in plan {
        if matches!(p.step, Step::Create | Step::Overwrite) {
            if let Some(dir) = p.path.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
            }
            crate::fsutil::write_atomic(&p.path, p.text.as_bytes())?;
            written.push(p.path.clone());
        }
    }
    Ok(written)
}

/// A project's skill file of one of our names, as found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    Missing,
    /// Exactly our text.
    Ours,
    /// Another text that still runs `src` (an older or an edited copy of ours).
    RunsSrc,
    /// A skill of that name that names no `src` command: the project will not use `src` for it.
    Foreign,
}

/// Each of our skill names under `root` and what its file holds. `subcommands` are the names
/// of `src`'s subcommands (the CLI's; this module does not know it).
pub fn survey(root: &Path, subcommands: &[String]) -> Vec<(&'static str, PathBuf, Found)> {
    TEMPLATES
        .iter()
        .map(|(name, ours)| {
            let path = skill_path(root, name);
            let found = match std::fs::read(&path) {
                Err(_) if path.exists() => Found::Foreign,
                Err(_) => Found::Missing,
                Ok(bytes) if bytes == ours.as_bytes() => Found::Ours,
                Ok(bytes) if runs_src(&String::from_utf8_lossy(&bytes), subcommands) => {
                    Found::RunsSrc
                }
                Ok(_) => Found::Foreign,
            };
            (*name, path, found)
        })
        .collect()
}

/// Whether a text names a `src` command: `src` as a word of its own (not `./src`, `src/`,
/// `my-src`) followed by one of `subcommands`.
pub fn runs_src(text: &str, subcommands: &[String]) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || "_-./\\".contains(c);
    text.match_indices("src ").any(|(at, _)| {
        let before_ok = text[..at].chars().next_back().is_none_or(|c| !word(c));
        let next = text[at + 4..]
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .next()
            .unwrap_or_default();
        before_ok && subcommands.iter().any(|s| s == next)
    })
}

/// Removes a skill file we wrote, only if it still holds our text; returns whether it did.
/// An emptied skill directory is removed too.
pub fn remove_if_ours(path: &Path) -> Result<bool> {
    let Ok(existing) = std::fs::read_to_string(path) else {
        return Ok(false);
    };
    if !TEMPLATES.iter().any(|(_, t)| *t == existing) {
        return Ok(false);
    }
    std::fs::remove_file(path).with_context(|| format!("removing {}", path.display()))?;
    if let Some(dir) = path.parent() {
        let _ = std::fs::remove_dir(dir); // only succeeds when empty, which is what we want
    }
    Ok(true)
}

/// The seed's component-7 change to an existing execution-code skill: `execution-impact` added
/// to its `OUTPUT_TO` line. `None` when there is no such skill or it already names it.
pub fn execution_code_patch(root: &Path) -> Option<Patch> {
    let path = skill_path(root, "execution-code");
    let text = std::fs::read_to_string(&path).ok()?;
    let (idx, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("OUTPUT_TO:"))?;
    if line.contains("execution-impact") {
        return None;
    }
    let at = line.find("OUTPUT_TO:")? + "OUTPUT_TO:".len();
    let (head, tail) = line.split_at(at);
    let new_line = format!(
        "{head} execution-impact (file changes for impact analysis),{}",
        if tail.starts_with(' ') {
            tail.to_string()
        } else {
            format!(" {tail}")
        }
    );
    let new_text = text.replacen(line, &new_line, 1);
    Some(Patch {
        path,
        line_no: idx + 1,
        old_line: line.to_string(),
        new_line,
        new_text,
    })
}

#[derive(Debug, Clone)]
pub struct Patch {
    pub path: PathBuf,
    pub line_no: usize,
    pub old_line: String,
    pub new_line: String,
    pub new_text: String,
}

impl Patch {
    /// A unified-style diff of the one changed line.
    pub fn diff(&self, shown_path: &str) -> String {
        format!(
            "--- {shown_path}\n+++ {shown_path}\n@@ -{n} +{n} @@\n-{}\n+{}\n",
            self.old_line,
            self.new_line,
            n = self.line_no
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn frontmatter_is_valid_and_within_budget() -> Result<()> {
        for (name, text) in TEMPLATES {
            let fm = frontmatter(text)?;
            assert_eq!(fm.name, *name);
            assert!(
                fm.description.len() <= DESCRIPTION_BUDGET,
                "{name}: {}",
                fm.description.len()
            );
            assert!(fm.description.contains("INPUT_FROM:"), "{name}");
            assert!(fm.description.contains("OUTPUT_TO:"), "{name}");
            assert_eq!(
                fm.disable_model_invocation,
                *name == "manage-codebase",
                "{name}"
            );
        }
        Ok(())
    }

    #[test]
    fn every_src_command_in_the_skills_parses_with_our_cli() {
        let mut seen = 0;
        for (name, text) in TEMPLATES {
            for line in command_lines(text) {
                let words: Vec<&str> = line.split_whitespace().collect();
                if let Err(e) = crate::cmd::Cli::try_parse_from(&words) {
                    panic!("{name}: `{line}` does not parse:\n{e}");
                }
                seen += 1;
            }
        }
        assert!(
            seen >= 12,
            "expected the skills to name many commands, saw {seen}"
        );
    }

    #[test]
    fn plan_never_overwrites_without_force() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let p = skill_path(dir.path(), "execution-impact");
        std::fs::create_dir_all(p.parent().unwrap_or(dir.path()))?;
        std::fs::write(&p, "mine")?;
        let steps: Vec<Step> = plan(dir.path(), false)
            .into_iter()
            .map(|p| p.step)
            .collect();
        assert_eq!(steps, vec![Step::KeepExisting, Step::Create, Step::Create]);
        let forced: Vec<Step> = plan(dir.path(), true).into_iter().map(|p| p.step).collect();
        assert_eq!(forced[0], Step::Overwrite);
        apply(&plan(dir.path(), false))?;
        assert_eq!(std::fs::read_to_string(&p)?, "mine");
        assert!(plan(dir.path(), false)[1..]
            .iter()
            .all(|p| p.step == Step::Unchanged));
        assert!(!remove_if_ours(&p)?, "a file we did not write stays");
        assert!(remove_if_ours(&skill_path(dir.path(), "manage-codebase"))?);
        Ok(())
    }

    #[test]
    fn a_skill_runs_src_only_when_it_names_a_src_command() {
        let subs: Vec<String> = ["impact", "dependents", "cascade", "index"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(runs_src("Run `src impact --session latest`.", &subs));
        assert!(runs_src("src dependents x.md\n", &subs));
        assert!(!runs_src("Read the src folder and ./src impact.sh", &subs));
        assert!(!runs_src("my-src impact; src/ cascade", &subs));
        assert!(!runs_src(
            "Spawn a researcher to classify dependents.",
            &subs
        ));
        for (_, text) in TEMPLATES {
            assert!(
                runs_src(text, &subs),
                "our own skills run src: {}",
                &text[..40]
            );
        }
    }

    #[test]
    fn survey_tells_ours_from_the_projects_own() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let subs = vec!["impact".to_string()];
        let write = |name: &str, text: &str| -> Result<()> {
            let p = skill_path(dir.path(), name);
            std::fs::create_dir_all(p.parent().unwrap_or(dir.path()))?;
            Ok(std::fs::write(p, text)?)
        };
        write(
            "execution-impact",
            "---\nname: execution-impact\n---\nSpawn a researcher.\n",
        )?;
        write("execution-cascade", TEMPLATES[1].1)?;
        let found: Vec<Found> = survey(dir.path(), &subs)
            .into_iter()
            .map(|(_, _, f)| f)
            .collect();
        assert_eq!(found, vec![Found::Foreign, Found::Ours, Found::Missing]);
        write("execution-impact", "Run `src impact` first.\n")?;
        assert_eq!(survey(dir.path(), &subs)[0].2, Found::RunsSrc);
        Ok(())
    }

    #[test]
    fn execution_code_patch_adds_execution_impact_once() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let p = skill_path(dir.path(), "execution-code");
        std::fs::create_dir_all(p.parent().unwrap_or(dir.path()))?;
        std::fs::write(
            &p,
            "---\nname: execution-code\ndescription: |\n  Code.\n  OUTPUT_TO: execution-review (implementation artifacts for review), verify domain (completed code).\n---\nbody\n",
        )?;
        let patch = execution_code_patch(dir.path()).ok_or_else(|| anyhow::anyhow!("no patch"))?;
        assert_eq!(
            patch.new_line,
            "  OUTPUT_TO: execution-impact (file changes for impact analysis), execution-review (implementation artifacts for review), verify domain (completed code)."
        );
        assert!(patch.diff("x").contains("\n-  OUTPUT_TO: execution-review"));
        std::fs::write(&p, &patch.new_text)?;
        assert!(execution_code_patch(dir.path()).is_none());
        Ok(())
    }
}
