//! Embeds every `migrations/NNNN_*.sql` and `queries/*.sql` file at compile time, so adding a
//! migration or a canned query is adding a file: no list to keep in sync by hand.

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
    // `graph::refs::is_common_word`: a binary search over a static slice costs no start-up.
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
    code.push_str("/// Common English words and words of the trade, lowercase, sorted (SCOWL size 50 + ours).\n");
    code.push_str("pub const COMMON_WORDS: &[&str] = &[\n");
    for w in words {
        let _ = writeln!(code, "    {w:?},");
    }
    code.push_str("];\n");
    let out = Path::new(&env::var("OUT_DIR").unwrap_or_default()).join("embedded.rs");
    fs::write(out, code).unwrap_or_else(|e| panic!("writing embedded.rs: {e}"));
}
