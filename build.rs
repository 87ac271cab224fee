//! Embeds every `migrations/NNNN_*.sql` and `queries/*.sql` file at compile time, so adding a
//! migration or a canned query is adding a file: no list to keep in sync by hand. Each engine
//! module's own statements live in `src/<module>/statements.sql`, one `-- name: NAME` block per
//! statement, and become `store::sql::<module>::NAME` constants (see `statements`).

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn sql_files(dir: &str) -> Vec<(String, String)> {
    println!("cargo:rerun-if-changed={dir}");
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("sql") {
            continue;
        }
        println!("cargo:rerun-if-changed={}", path.display());
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let abs = fs::canonicalize(&path).unwrap_or(path);
        out.push((stem, abs.display().to_string()));
    }
    out.sort();
    out
}

fn main() {
    // The tour embeds the sample tree; rebuild when any of its files changes.
    println!("cargo:rerun-if-changed=fixtures/claude-tree");
    let mut code = String::new();
    code.push_str("/// `(number, name, sql)` of every migration, in order.\n");
    code.push_str("pub const MIGRATIONS: &[(u32, &str, &str)] = &[\n");
    for (stem, path) in sql_files("migrations") {
        let (num, name) = stem.split_once('_').unwrap_or((&stem, ""));
        let num: u32 = num
            .parse()
            .unwrap_or_else(|_| panic!("migration {stem}: name must start with a number"));
        let _ = writeln!(code, "    ({num}, {name:?}, include_str!({path:?})),");
    }
    code.push_str("];\n");
    code.push_str("/// `(name, sql)` of every canned query in `queries/`, sorted by name.\n");
    code.push_str("pub const QUERIES: &[(&str, &str)] = &[\n");
    for (stem, path) in sql_files("queries") {
        let _ = writeln!(code, "    ({stem:?}, include_str!({path:?})),");
    }
    code.push_str("];\n");
    // Common English words (SCOWL, size 50: see data/common-words.COPYRIGHT), sorted, for
    // `scan::refs::is_common_word`: one string and the offsets of its words. A slice of `&str`
    // would hold a pointer per word, each relocated when the binary loads (70,000 relocations:
    // a millisecond of every command's start-up, the hooks' included).
    println!("cargo:rerun-if-changed=data/common-words.txt");
    println!("cargo:rerun-if-changed=data/common-tech-words.txt");
    let mut text = fs::read_to_string("data/common-words.txt").unwrap_or_default();
    text.push('\n');
    text.push_str(&fs::read_to_string("data/common-tech-words.txt").unwrap_or_default());
    let mut words: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|w| !w.is_empty() && !w.starts_with('#'))
        .collect();
    words.sort_unstable();
    words.dedup();
    let mut joined = String::new();
    let mut at = Vec::with_capacity(words.len());
    for w in &words {
        at.push(joined.len());
        joined.push_str(w);
        joined.push('\n');
    }
    code.push_str("/// Common English words and words of the trade, lowercase, sorted (SCOWL size 50 + ours),\n");
    code.push_str("/// each ended by a newline.\n");
    let _ = writeln!(code, "pub const COMMON_WORDS_TEXT: &str = {joined:?};");
    code.push_str("/// Where each word of `COMMON_WORDS_TEXT` starts.\n");
    code.push_str("pub const COMMON_WORDS_AT: &[u32] = &[");
    for a in at {
        let _ = write!(code, "{a},");
    }
    code.push_str("];\n");
    statements(&mut code);
    let out = Path::new(&env::var("OUT_DIR").unwrap_or_default()).join("embedded.rs");
    fs::write(out, code).unwrap_or_else(|e| panic!("writing embedded.rs: {e}"));
}

/// Generates `pub mod sql { pub mod <module> { pub const NAME: &str = "…"; … ALL } … ALL }` from
/// every `src/<module>/statements.sql`. A block starts at a line `-- name: NAME` (upper snake
/// case); the `--` lines right after it are its doc comment; the rest up to the next block is the
/// statement. `ALL` lists them so one test can prepare each against the migrated schema.
fn statements(code: &mut String) {
    println!("cargo:rerun-if-changed=src");
    let mut modules: Vec<(String, String)> = Vec::new();
    if let Ok(entries) = fs::read_dir("src") {
        for entry in entries.flatten() {
            let file = entry.path().join("statements.sql");
            if file.is_file() {
                println!("cargo:rerun-if-changed={}", file.display());
                let name = entry.file_name().to_string_lossy().into_owned();
                let text = fs::read_to_string(&file)
                    .unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
                modules.push((name, text));
            }
        }
    }
    modules.sort();
    code.push_str("/// Each engine module's named statements (`src/<module>/statements.sql`).\n");
    code.push_str("pub mod sql {\n");
    for (module, text) in &modules {
        let _ = writeln!(code, "    pub mod {module} {{");
        let mut names: Vec<String> = Vec::new();
        for (name, doc, sql) in blocks(module, text) {
            for d in doc {
                let _ = writeln!(code, "        /// {d}");
            }
            let _ = writeln!(code, "        pub const {name}: &str = {sql:?};");
            names.push(name);
        }
        code.push_str("        /// Every statement of this module, by name.\n");
        code.push_str("        #[allow(dead_code)]\n");
        code.push_str("        pub const ALL: &[(&str, &str)] = &[\n");
        for n in &names {
            let _ = writeln!(code, "            ({n:?}, {n}),");
        }
        code.push_str("        ];\n    }\n");
    }
    code.push_str("    /// `(module, statements)` of every module.\n");
    code.push_str("    #[allow(dead_code)]\n");
    code.push_str("    pub const ALL: &[(&str, &[(&str, &str)])] = &[\n");
    for (module, _) in &modules {
        let _ = writeln!(code, "        ({module:?}, {module}::ALL),");
    }
    code.push_str("    ];\n}\n");
}

/// `(name, doc lines, sql)` of each `-- name: NAME` block; text before the first block is the
/// file's header and belongs to no statement.
fn blocks(module: &str, text: &str) -> Vec<(String, Vec<String>, String)> {
    let mut out: Vec<(String, Vec<String>, String)> = Vec::new();
    let mut in_doc = false;
    for line in text.lines() {
        if let Some(name) = line.trim().strip_prefix("-- name:") {
            let name = name.trim().to_string();
            let ok = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
            if !ok {
                panic!("src/{module}/statements.sql: `-- name: {name}` must be UPPER_SNAKE_CASE");
            }
            if out.iter().any(|(n, _, _)| *n == name) {
                panic!("src/{module}/statements.sql: statement {name} is defined twice");
            }
            out.push((name, Vec::new(), String::new()));
            in_doc = true;
            continue;
        }
        let Some((_, doc, sql)) = out.last_mut() else {
            continue;
        };
        if in_doc {
            if let Some(d) = line.trim().strip_prefix("--") {
                doc.push(d.trim().to_string());
                continue;
            }
            in_doc = false;
        }
        sql.push_str(line);
        sql.push('\n');
    }
    for (name, _, sql) in &mut out {
        *sql = sql.trim().to_string();
        if sql.is_empty() {
            panic!("src/{module}/statements.sql: statement {name} is empty");
        }
    }
    out
}
