//! Errors that decide the exit code: a usage error exits 2, everything else 1.

/// The user asked for something that cannot be done as asked (bad SQL, unknown parameter,
/// malformed arguments). `main` maps it to exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Shorthand for returning a usage error from a command.
pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    UsageError(msg.into()).into()
}
