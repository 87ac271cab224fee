//! Integration tests for `impact` (filled in by its issue).
