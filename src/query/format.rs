//! Output formats for query results: an aligned table (for people at a terminal), TSV (the
//! default when piped), CSV (RFC 4180) and JSON (an array of objects with typed values).
//!
//! Owns the escaping rules; knows nothing about SQL. Invariant: TSV is one record per line with
//! a header row, and tab, newline, carriage return and backslash inside a value are written as
//! `\t`, `\n`, `\r`, `\\`; NULL is the empty string in TSV, CSV and the table, `null` in JSON.

use std::io::Write;

use anyhow::Result;
use rusqlite::types::ValueRef;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Tsv,
    Csv,
    Json,
}

/// Table cells longer than this are cut (the full value is one `--format tsv` away).
const TABLE_CELL_MAX: usize = 120;

/// Receives a result set row by row.
pub trait Sink {
    fn begin(&mut self, columns: &[String]) -> Result<()>;
    fn row(&mut self, values: &[ValueRef<'_>]) -> Result<()>;
    fn end(&mut self) -> Result<()>;
}

/// A sink writing `format` to `out`.
pub fn sink<'w>(format: Format, out: &'w mut dyn Write) -> Box<dyn Sink + 'w> {
    match format {
        Format::Tsv => Box::new(Delimited { out, csv: false }),
        Format::Csv => Box::new(Delimited { out, csv: true }),
        Format::Json => Box::new(Json {
            out,
            keys: Vec::new(),
            rows: 0,
        }),
        Format::Table => Box::new(Table {
            out,
            columns: Vec::new(),
            numeric: Vec::new(),
            rows: Vec::new(),
        }),
    }
}

/// The text of a value, before any format-specific escaping.
fn plain(v: &ValueRef<'_>) -> String {
    match v {
        ValueRef::Null => String::new(),
        ValueRef::Integer(n) => n.to_string(),
        ValueRef::Real(f) => f.to_string(),
        ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
        ValueRef::Blob(b) => hex(b),
    }
}

fn hex(b: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(b.len() * 2);
    for byte in b {
        let _ = write!(s, "{byte:02x}");
    }
    s
}

/// TSV escaping: `\t`, `\n`, `\r`, `\\`.
pub fn escape_tsv(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out
}

/// CSV quoting: a field holding a comma, quote, CR or LF is quoted, quotes doubled.
pub fn escape_csv(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

struct Delimited<'w> {
    out: &'w mut dyn Write,
    csv: bool,
}

impl Delimited<'_> {
    fn cell(&mut self, first: bool, text: &str) -> Result<()> {
        if !first {
            self.out.write_all(if self.csv { b"," } else { b"\t" })?;
        }
        // Plain cells (the common case) go out without an escaped copy.
        let needs = if self.csv {
            text.contains([',', '"', '\n', '\r'])
        } else {
            text.contains(['\t', '\n', '\r', '\\'])
        };
        if !needs {
            self.out.write_all(text.as_bytes())?;
        } else if self.csv {
            self.out.write_all(escape_csv(text).as_bytes())?;
        } else {
            self.out.write_all(escape_tsv(text).as_bytes())?;
        }
        Ok(())
    }

    fn eol(&mut self) -> Result<()> {
        self.out.write_all(if self.csv { b"\r\n" } else { b"\n" })?;
        Ok(())
    }
}

impl Sink for Delimited<'_> {
    fn begin(&mut self, columns: &[String]) -> Result<()> {
        for (i, c) in columns.iter().enumerate() {
            self.cell(i == 0, c)?;
        }
        self.eol()
    }
    fn row(&mut self, values: &[ValueRef<'_>]) -> Result<()> {
        for (i, v) in values.iter().enumerate() {
            match v {
                ValueRef::Text(t) => self.cell(i == 0, &String::from_utf8_lossy(t))?,
                other => self.cell(i == 0, &plain(other))?,
            }
        }
        self.eol()
    }
    fn end(&mut self) -> Result<()> {
        self.out.flush()?;
        Ok(())
    }
}

struct Json<'w> {
    out: &'w mut dyn Write,
    /// Column names as JSON strings, made unique (`path`, `path_2`) so no key is lost.
    keys: Vec<String>,
    rows: u64,
}

fn json_value(v: &ValueRef<'_>) -> serde_json::Value {
    match v {
        ValueRef::Null => serde_json::Value::Null,
        ValueRef::Integer(n) => (*n).into(),
        ValueRef::Real(f) => serde_json::Number::from_f64(*f)
            .map(serde_json::Value::Number)
            .unwrap_or(serde_json::Value::Null),
        ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned().into(),
        ValueRef::Blob(b) => hex(b).into(),
    }
}

impl Sink for Json<'_> {
    fn begin(&mut self, columns: &[String]) -> Result<()> {
        let mut seen: Vec<String> = Vec::new();
        for c in columns {
            let mut key = c.clone();
            let mut n = 2;
            while seen.contains(&key) {
                key = format!("{c}_{n}");
                n += 1;
            }
            seen.push(key.clone());
            self.keys.push(serde_json::to_string(&key)?);
        }
        self.out.write_all(b"[")?;
        Ok(())
    }
    fn row(&mut self, values: &[ValueRef<'_>]) -> Result<()> {
        self.out
            .write_all(if self.rows == 0 { b"\n  {" } else { b",\n  {" })?;
        for (i, (k, v)) in self.keys.iter().zip(values).enumerate() {
            if i > 0 {
                self.out.write_all(b", ")?;
            }
            write!(self.out, "{k}: {}", json_value(v))?;
        }
        self.out.write_all(b"}")?;
        self.rows += 1;
        Ok(())
    }
    fn end(&mut self) -> Result<()> {
        self.out
            .write_all(if self.rows == 0 { b"]\n" } else { b"\n]\n" })?;
        self.out.flush()?;
        Ok(())
    }
}

struct Table<'w> {
    out: &'w mut dyn Write,
    columns: Vec<String>,
    /// Whether every non-NULL value of the column so far is a number (right-aligned).
    numeric: Vec<bool>,
    rows: Vec<Vec<String>>,
}

fn cut(s: String) -> String {
    if s.chars().count() <= TABLE_CELL_MAX {
        return s;
    }
    let mut t: String = s.chars().take(TABLE_CELL_MAX - 1).collect();
    t.push('…');
    t
}

impl Sink for Table<'_> {
    fn begin(&mut self, columns: &[String]) -> Result<()> {
        self.columns = columns.to_vec();
        self.numeric = vec![true; columns.len()];
        Ok(())
    }
    fn row(&mut self, values: &[ValueRef<'_>]) -> Result<()> {
        for (i, v) in values.iter().enumerate() {
            if !matches!(v, ValueRef::Null | ValueRef::Integer(_) | ValueRef::Real(_)) {
                self.numeric[i] = false;
            }
        }
        self.rows
            .push(values.iter().map(|v| cut(escape_tsv(&plain(v)))).collect());
        Ok(())
    }
    fn end(&mut self) -> Result<()> {
        let width = |s: &str| s.chars().count();
        let mut widths: Vec<usize> = self.columns.iter().map(|c| width(c)).collect();
        for row in &self.rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(width(cell));
            }
        }
        let mut line = |cells: &[String], rule: bool| -> Result<()> {
            let mut s = String::new();
            for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
                if i > 0 {
                    s.push_str("  ");
                }
                let pad = " ".repeat(w.saturating_sub(width(cell)));
                if rule {
                    s.push_str(&"-".repeat(*w));
                } else if self.numeric[i] {
                    s.push_str(&pad);
                    s.push_str(cell);
                } else {
                    s.push_str(cell);
                    s.push_str(&pad);
                }
            }
            writeln!(self.out, "{}", s.trim_end())?;
            Ok(())
        };
        let header = self.columns.clone();
        line(&header, false)?;
        line(&header, true)?;
        for row in &self.rows {
            line(row, false)?;
        }
        let n = self.rows.len();
        writeln!(self.out, "({n} row{})", if n == 1 { "" } else { "s" })?;
        self.out.flush()?;
        Ok(())
    }
}

/// A sink that keeps the first rows of a result and counts them all, so that a caller can print
/// any prefix of it in any format (a token budget). Rows are kept while their cell text stays
/// within `max_bytes`: every format prints at least that text (a table cell at most 120
/// characters of it), so a later row could never fit a budget of that size.
#[derive(Debug, Default)]
pub struct Collected {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<rusqlite::types::Value>>,
    /// Rows in the whole result.
    pub total: usize,
    max_bytes: usize,
    bytes: usize,
}

impl Collected {
    pub fn new(max_bytes: usize) -> Collected {
        Collected {
            max_bytes,
            ..Collected::default()
        }
    }

    /// Writes the columns and the first `k` kept rows in `format`.
    pub fn replay(&self, format: Format, k: usize, out: &mut dyn Write) -> Result<()> {
        let mut s = sink(format, out);
        s.begin(&self.columns)?;
        for row in self.rows.iter().take(k) {
            let refs: Vec<ValueRef<'_>> = row.iter().map(ValueRef::from).collect();
            s.row(&refs)?;
        }
        s.end()
    }
}

/// An owned copy of a value (text is printed lossily as UTF-8 anyway).
fn owned(v: &ValueRef<'_>) -> rusqlite::types::Value {
    use rusqlite::types::Value;
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(n) => Value::Integer(*n),
        ValueRef::Real(f) => Value::Real(*f),
        ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    }
}

impl Sink for Collected {
    fn begin(&mut self, columns: &[String]) -> Result<()> {
        self.columns = columns.to_vec();
        Ok(())
    }
    fn row(&mut self, values: &[ValueRef<'_>]) -> Result<()> {
        self.total += 1;
        if self.bytes <= self.max_bytes {
            self.bytes += values
                .iter()
                .map(|v| plain(v).len().min(TABLE_CELL_MAX))
                .sum::<usize>();
            self.rows.push(values.iter().map(owned).collect());
        }
        Ok(())
    }
    fn end(&mut self) -> Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(format: Format) -> Result<String> {
        let mut buf = Vec::new();
        {
            let mut s = sink(format, &mut buf);
            s.begin(&["path".into(), "n".into(), "path".into()])?;
            s.row(&[
                ValueRef::Text(b"a\tb\nc\\d"),
                ValueRef::Integer(3),
                ValueRef::Null,
            ])?;
            s.row(&[
                ValueRef::Text(b"x,\"y\""),
                ValueRef::Real(1.5),
                ValueRef::Blob(b"\x01"),
            ])?;
            s.end()?;
        }
        Ok(String::from_utf8(buf)?)
    }

    #[test]
    fn tsv_escapes_tab_newline_backslash_and_has_a_header() -> Result<()> {
        assert_eq!(
            render(Format::Tsv)?,
            "path\tn\tpath\na\\tb\\nc\\\\d\t3\t\nx,\"y\"\t1.5\t01\n"
        );
        Ok(())
    }

    #[test]
    fn csv_quotes_what_needs_quoting() -> Result<()> {
        assert_eq!(
            render(Format::Csv)?,
            "path,n,path\r\n\"a\tb\nc\\d\",3,\r\n\"x,\"\"y\"\"\",1.5,01\r\n"
        );
        Ok(())
    }

    #[test]
    fn json_is_an_array_of_typed_objects_with_unique_keys() -> Result<()> {
        let v: serde_json::Value = serde_json::from_str(&render(Format::Json)?)?;
        assert_eq!(
            v,
            serde_json::json!([
                {"path": "a\tb\nc\\d", "n": 3, "path_2": null},
                {"path": "x,\"y\"", "n": 1.5, "path_2": "01"}
            ])
        );
        let mut buf = Vec::new();
        {
            let mut s = sink(Format::Json, &mut buf);
            s.begin(&["a".into()])?;
            s.end()?;
        }
        assert_eq!(String::from_utf8(buf)?, "[]\n");
        Ok(())
    }

    #[test]
    fn table_aligns_columns_and_counts_rows() -> Result<()> {
        let t = render(Format::Table)?;
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "path          n  path");
        assert_eq!(lines[1], "----------  ---  ----");
        assert_eq!(lines[2], "a\\tb\\nc\\\\d    3");
        assert_eq!(lines[3], "x,\"y\"       1.5  01");
        assert_eq!(lines[4], "(2 rows)");
        Ok(())
    }
}
