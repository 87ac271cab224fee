//! Integration tests for `export` (filled in by its issue).
