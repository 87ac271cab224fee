//! `src tour`: the whole seed flow on a copy of the bundled sample, in a temporary directory,
//! printed step by step as a user would see it. Every step runs this same binary as a child
//! process with the real arguments and stdin, so the tour cannot drift from the commands.
//!
//! Needs nothing but the binary: the sample tree is embedded at compile time.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use anyhow::{Context, Result};
use include_dir::{include_dir, Dir};

use crate::workspace::GlobalOpts;

static SAMPLE: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/fixtures/claude-tree");

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Keep the tour's project in DIR (created if needed) instead of a deleted temporary one
    #[arg(long, value_name = "DIR")]
    pub keep: Option<PathBuf>,
    /// Output format: text, or json (`{project, steps: [{type: heading|say|run, …}]}`, each run
    /// with its whole stdout and exit code); `--json` is `--format json`
    #[arg(long, value_enum, default_value_t = super::TextOrJson::Text)]
    pub format: super::TextOrJson,
    /// Print the tour as JSON
    #[arg(long)]
    pub json: bool,
}

/// A session id and agent id for the simulated implementer.
const SESSION: &str = "tour-session-0001";
const AGENT: &str = "agent-tour-impl-1";

pub fn run(_g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let tmp;
    let root = match &args.keep {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            dir.canonicalize()?
        }
        None => {
            tmp = tempfile::tempdir().context("creating a temporary directory")?;
            tmp.path().to_path_buf()
        }
    };
    SAMPLE
        .extract(&root)
        .with_context(|| format!("copying the sample into {}", root.display()))?;
    let json = args.json || args.format == super::TextOrJson::Json;
    let t = Tour::new(&root, json)?;
    let result = t.run_all();
    if json {
        // Printed even when a step failed: the steps so far show where.
        let v = serde_json::json!({"project": root, "steps": t.steps.take()});
        let mut out = std::io::stdout().lock();
        serde_json::to_writer_pretty(&mut out, &v)?;
        writeln!(out)?;
    }
    result?;
    Ok(ExitCode::SUCCESS)
}

struct Tour {
    root: PathBuf,
    exe: PathBuf,
    /// JSON output: steps are collected here instead of printed.
    json: bool,
    steps: std::cell::RefCell<Vec<serde_json::Value>>,
}

impl Tour {
    fn new(root: &Path, json: bool) -> Result<Tour> {
        Ok(Tour {
            root: root.to_path_buf(),
            exe: std::env::current_exe().context("locating the src binary")?,
            json,
            steps: std::cell::RefCell::default(),
        })
    }

    fn heading(&self, text: &str) -> Result<()> {
        if self.json {
            self.steps
                .borrow_mut()
                .push(serde_json::json!({"type": "heading", "text": text}));
            return Ok(());
        }
        let mut out = std::io::stdout().lock();
        writeln!(out, "\n=== {text}")?;
        Ok(())
    }

    fn say(&self, text: &str) -> Result<()> {
        if self.json {
            self.steps
                .borrow_mut()
                .push(serde_json::json!({"type": "say", "text": text}));
            return Ok(());
        }
        let mut out = std::io::stdout().lock();
        writeln!(out, "{text}")?;
        Ok(())
    }

    /// Runs `src ARGS` in the project with optional stdin; prints the command and its output
    /// (at most `max_lines` lines of it) and returns stdout.
    fn src(&self, args: &[&str], stdin: Option<&str>, max_lines: usize) -> Result<String> {
        let shown = args.join(" ");
        if !self.json {
            match stdin {
                Some(input) => self.say(&format!("$ echo '{}' | src {shown}", one_line(input)))?,
                None => self.say(&format!("$ src {shown}"))?,
            }
        }
        let mut child = Command::new(&self.exe)
            .args(args)
            .current_dir(&self.root)
            .env("SRC_ROOT", &self.root)
            .env("CLAUDE_PROJECT_DIR", &self.root)
            .env_remove("SRC_DB")
            .env_remove("SRC_CONFIG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("running src {shown}"))?;
        if let Some(mut pipe) = child.stdin.take() {
            if let Some(input) = stdin {
                pipe.write_all(input.as_bytes())?;
            }
        }
        let out = child.wait_with_output()?;
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        if self.json {
            self.steps.borrow_mut().push(serde_json::json!({
                "type": "run",
                "command": format!("src {shown}"),
                "stdin": stdin,
                "exit": out.status.code(),
                "stdout": stdout,
            }));
        } else {
            let lines: Vec<&str> = stdout.lines().collect();
            let mut w = std::io::stdout().lock();
            for l in lines.iter().take(max_lines) {
                writeln!(w, "  {l}")?;
            }
            if lines.len() > max_lines {
                writeln!(w, "  … ({} more lines)", lines.len() - max_lines)?;
            }
        }
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            anyhow::bail!("`src {shown}` failed ({}): {}", out.status, err.trim());
        }
        Ok(stdout)
    }

    /// Edits `rel` on disk as an implementer would, then feeds the recorder the PostToolUse
    /// payload Claude Code would send.
    fn implementer_edit(&self, rel: &str, append: &str, tool: &str) -> Result<()> {
        let abs = self.root.join(rel);
        let mut text = std::fs::read_to_string(&abs).unwrap_or_default();
        text.push_str(append);
        std::fs::write(&abs, text).with_context(|| format!("editing {}", abs.display()))?;
        let payload = serde_json::json!({
            "session_id": SESSION,
            "transcript_path": "/tmp/tour/transcript.jsonl",
            "cwd": self.root,
            "permission_mode": "acceptEdits",
            "hook_event_name": "PostToolUse",
            "tool_name": tool,
            "tool_input": {"file_path": abs, "old_string": "", "new_string": append},
            "tool_response": {"filePath": abs},
            "tool_use_id": format!("toolu_tour_{}", rel.len() + append.len()),
            "agent_id": AGENT,
            "agent_type": "implementer",
        });
        self.src(&["hook", "post-tool-use"], Some(&payload.to_string()), 5)?;
        Ok(())
    }

    fn run_all(&self) -> Result<()> {
        self.say(&format!("Tour project: {}", self.root.display()))?;
        self.heading("1. Index the sample project")?;
        self.src(&["init"], None, 5)?;
        self.src(&["index"], None, 10)?;
        self.src(&["dependents", CHANGED[0]], None, 8)?;
        self.steps_after_index()
    }
}

/// The file the tour's implementer changes: a skill used by one command and nothing else, so
/// the cascade that follows converges (the seed's "no downstream impact" case).
const CHANGED: &[&str] = &[".claude/skills/changelog-draft/SKILL.md"];

impl Tour {
    fn steps_after_index(&self) -> Result<()> {
        self.heading(
            "2. An implementer edits a skill (PostToolUse -> src hook post-tool-use, silent)",
        )?;
        for rel in CHANGED {
            self.implementer_edit(
                rel,
                "\nDrafts now group entries by pipeline domain.\n",
                "Edit",
            )?;
        }
        self.heading("3. The implementer stops (SubagentStop -> src hook subagent-stop)")?;
        self.say(
            "The alert is stored for the lead; in the default delivery mode the hook prints {}.",
        )?;
        let stop = serde_json::json!({
            "session_id": SESSION,
            "hook_event_name": "SubagentStop",
            "stop_hook_active": false,
            "agent_id": AGENT,
            "agent_type": "implementer",
            "agent_transcript_path": "/tmp/tour/subagents/agent-tour.jsonl",
            "last_assistant_message": "Done.",
        });
        self.src(&["hook", "subagent-stop"], Some(&stop.to_string()), 5)?;

        self.heading("4. The lead's next event delivers the alert (PostToolUse on Agent -> src hook deliver)")?;
        let lead = serde_json::json!({
            "session_id": SESSION,
            "hook_event_name": "PostToolUse",
            "tool_name": "Agent",
            "tool_input": {"subagent_type": "implementer", "prompt": "..."},
            "tool_response": {"status": "completed"},
            "tool_use_id": "toolu_tour_agent",
        });
        let delivered = self.src(&["hook", "deliver"], Some(&lead.to_string()), 3)?;
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&delivered) {
            if let Some(text) = v["hookSpecificOutput"]["additionalContext"].as_str() {
                self.say("The lead reads:")?;
                for l in text.lines() {
                    self.say(&format!("  | {l}"))?;
                }
            }
        }
        self.src(&["hook", "deliver"], Some(&lead.to_string()), 3)?;
        self.say("(delivered once: the second call prints {})")?;

        self.heading("5. The lead runs execution-impact (src impact)")?;
        let l1 = self.src(&["impact", "--session", SESSION], None, 30)?;
        let doc: serde_json::Value =
            serde_yaml::from_str(&l1).context("reading the impact L1 document")?;
        let impact_id = doc["impact_id"]
            .as_i64()
            .context("the L1 has no impact_id")?;

        self.heading("6. cascade_recommended -> execution-cascade (src cascade)")?;
        let id = impact_id.to_string();
        let mut state = self.src(
            &["cascade", "start", "--impact", &id, "--session", SESSION],
            None,
            25,
        )?;
        for round in 1..=3 {
            let doc: serde_json::Value =
                serde_yaml::from_str(&state).context("reading the cascade L1 document")?;
            if doc["status"].as_str() != Some("active") {
                break;
            }
            let targets = cascade_targets(&doc);
            self.say(&format!(
                "Simulated implementers update {} target(s) of iteration {round}:",
                targets.len()
            ))?;
            for t in &targets {
                self.implementer_edit(t, "\nUpdated for the changed skill.\n", "Edit")?;
            }
            state = self.src(&["cascade", "check", "--session", SESSION], None, 25)?;
        }
        self.src(
            &["cascade", "status", "--session", SESSION, "--format", "md"],
            None,
            20,
        )?;

        self.heading("7. manage-codebase: export the map (src export-map)")?;
        self.src(&["export-map", "--out", "-"], None, 14)?;
        self.src(&["export-map", "--report"], None, 12)?;

        self.heading("8. A picture of the neighbourhood (src graph, Mermaid)")?;
        self.src(
            &["graph", CHANGED[0], "--depth", "2", "--format", "mermaid"],
            None,
            30,
        )?;
        self.say(
            "\nDone. Every step above ran the real src binary on a copy of the bundled sample.",
        )?;
        Ok(())
    }
}

/// The target files of the cascade's current iteration.
fn cascade_targets(doc: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    for g in doc["current"]["groups"].as_array().into_iter().flatten() {
        for t in g["targets"].as_array().into_iter().flatten() {
            if let Some(f) = t["file"].as_str() {
                out.push(f.to_string());
            }
        }
    }
    out
}

/// The payload on one line, shortened for display.
fn one_line(s: &str) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > 100 {
        format!("{}…", flat.chars().take(100).collect::<String>())
    } else {
        flat
    }
}
