//! The `src` binary: parse, call the library, map the result to an exit code.
//! A broken pipe is success; a usage error exits 2; any other error exits 1 with its causes.

use std::process::ExitCode;

use clap::Parser;
use src_engine::cmd::{self, Cli};
use src_engine::error::UsageError;

fn main() -> ExitCode {
    // Hooks must never show a panic to the agent; other commands print one line instead of a trace.
    std::panic::set_hook(Box::new(|info| {
        if std::env::args().nth(1).as_deref() != Some("hook") {
            eprintln!("src: internal error: {info}");
        }
    }));
    let cli = Cli::parse();
    match std::panic::catch_unwind(|| cmd::run(cli)) {
        Ok(Ok(code)) => code,
        Ok(Err(err)) => report(&err),
        Err(_) => ExitCode::from(1),
    }
}

fn report(err: &anyhow::Error) -> ExitCode {
    let broken_pipe = err.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    });
    if broken_pipe {
        return ExitCode::SUCCESS;
    }
    eprintln!("src: {err:#}");
    if err.downcast_ref::<UsageError>().is_some() {
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    }
}
