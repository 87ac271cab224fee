//! Integration tests for `query` (filled in by its issue).
