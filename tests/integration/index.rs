//! Integration tests for `index` (filled in by its issue).
