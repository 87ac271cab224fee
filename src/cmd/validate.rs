//! `src validate impact FILE [--format text|json]`: checks an impact L1 document (YAML or JSON).
//!
//! Owns reading the file and printing the report; the checks are `impact::check`. Needs no
//! workspace or database. Exit codes: 0 valid, 1 invalid, 2 usage (unreadable file).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::error::usage;
use crate::impact::check;
use crate::workspace::GlobalOpts;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub artifact: Artifact,
}

#[derive(Debug, clap::Subcommand)]
pub enum Artifact {
    /// An impact L1 document (`src impact` output)
    Impact {
        /// The document (YAML or JSON)
        file: PathBuf,
        /// Output format: text or json (`--json` is the same as `--format json`)
        #[arg(long, value_enum, default_value_t = super::TextOrJson::Text)]
        format: super::TextOrJson,
        /// Print `{valid, errors[], warnings[]}` as JSON
        #[arg(long)]
        json: bool,
    },
}

pub fn run(_g: &GlobalOpts, args: &Args) -> Result<ExitCode> {
    let Artifact::Impact { file, format, json } = &args.artifact;
    let json = *json || *format == super::TextOrJson::Json;
    let text = std::fs::read_to_string(file)
        .map_err(|e| usage(format!("cannot read {}: {e}", file.display())))?;
    let report = check::validate_str(&text);
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        let verdict = if report.valid { "valid" } else { "invalid" };
        writeln!(
            out,
            "{}: {verdict} ({} error(s), {} warning(s))",
            file.display(),
            report.errors.len(),
            report.warnings.len()
        )?;
        for (level, list) in [("error", &report.errors), ("warning", &report.warnings)] {
            for f in list {
                let at = if f.path.is_empty() {
                    "document"
                } else {
                    &f.path
                };
                writeln!(out, "  {level} {} at {at}: {}", f.code, f.message)?;
            }
        }
    }
    Ok(if report.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
