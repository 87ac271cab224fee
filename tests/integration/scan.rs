//! Integration tests for `scan` (filled in by its issue).
