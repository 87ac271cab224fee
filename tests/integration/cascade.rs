//! Integration tests for `cascade` (filled in by its issue).
