//! Time as `src` writes it. Every stored or shown timestamp has one format (`now`, `format`);
//! a file name gets a compact UTC stamp (`stamp`), which sorts by time and holds no `:`.
//!
//! Owns nothing but the formats; a leaf (no other module of the crate).

use chrono::{DateTime, Local, SecondsFormat, TimeZone, Utc};

/// The current time as stored in every timestamp column: RFC 3339 with the local offset and
/// microseconds (so two events without a `tool_use_id` practically never share one; SQLite's
/// `julianday` reads it, offset included).
pub fn now() -> String {
    format(&Local::now())
}

/// A time in the stored format.
pub fn format<Tz: TimeZone>(t: &DateTime<Tz>) -> String
where
    Tz::Offset: std::fmt::Display,
{
    t.to_rfc3339_opts(SecondsFormat::Micros, false)
}

/// The current UTC time for a file or folder name: `20261125T201500.123Z`.
pub fn stamp() -> String {
    Utc::now().format("%Y%m%dT%H%M%S%.3fZ").to_string()
}

/// Today's local date (shown as `2026-11-25`).
pub fn today() -> chrono::NaiveDate {
    Local::now().date_naive()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_times_read_back_and_stamps_sort() {
        let t = now();
        let parsed = DateTime::parse_from_rfc3339(&t).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert_eq!(format(&parsed), t, "the format round-trips");
        assert_eq!(t.split('.').nth(1).map(|f| f.len() >= 6), Some(true), "{t}");
        let (a, b) = (stamp(), stamp());
        assert!(a <= b && !a.contains(':') && a.ends_with('Z'), "{a} {b}");
        assert_eq!(today().to_string().len(), 10);
    }
}
