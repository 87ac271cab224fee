//! Integration tests for `tour` (filled in by its issue).
