//! Integration tests for `hooks` (filled in by its issue).
