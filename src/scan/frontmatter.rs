//! Frontmatter: the `name:` a Markdown file declares in the YAML block at its start (an agent's
//! name, which `subagent_type:` uses; a skill's name beside its folder).
//!
//! Owns the reading of that one key, leniently: a `---` line, lines, a closing `---` (or `...`)
//! line, all within the first `HEAD_BYTES`; the first top-level `name:` line between the fences
//! gives the value, unquoted. Nothing else of the YAML is parsed, so bad YAML elsewhere in the
//! block costs nothing. Invariant: the answer depends only on the first `HEAD_BYTES` bytes, so a
//! head read before the scan and the whole file read by it agree.

use std::io::Read;
use std::path::Path;

/// How much of a file is looked at for its frontmatter (real blocks are well under 1 KiB).
pub const HEAD_BYTES: usize = 4096;

/// Longest value taken as a name.
const MAX_NAME_BYTES: usize = 100;

/// Whether files at this path can be known by a frontmatter name: Markdown (agents, skills,
/// commands are Markdown files).
pub fn applies_to(path: &str) -> bool {
    let ext = match path.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !stem.ends_with('/') => ext,
        _ => return false,
    };
    ext.eq_ignore_ascii_case("md") || ext.eq_ignore_ascii_case("mdx")
}

/// The plausible `name:` value of the frontmatter block that starts `bytes`, if any.
pub fn name_in(bytes: &[u8]) -> Option<&str> {
    let rest = block_lines(bytes)?
        .into_iter()
        .find_map(|line| line.strip_prefix(b"name:"))?;
    plausible(value(rest))
}

/// The lines of the frontmatter block that starts `bytes` (between its fences), if the block
/// closes within the first `HEAD_BYTES`.
fn block_lines(bytes: &[u8]) -> Option<Vec<&[u8]>> {
    let truncated = bytes.len() > HEAD_BYTES;
    let head = &bytes[..bytes.len().min(HEAD_BYTES)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let mut lines = head.split(|b| *b == b'\n').peekable();
    if !is_fence(lines.next()?, false) {
        return None;
    }
    let mut block = Vec::new();
    while let Some(line) = lines.next() {
        // The last piece of a cut head may be the start of a longer line.
        if truncated && lines.peek().is_none() {
            return None;
        }
        if is_fence(line, true) {
            return Some(block);
        }
        block.push(line);
    }
    None
}

/// The byte range of the `name:` line of the frontmatter block that starts `bytes` (within the
/// first `HEAD_BYTES`): the line by which the file declares its own name.
pub fn name_line(bytes: &[u8]) -> Option<std::ops::Range<usize>> {
    let head = &bytes[..bytes.len().min(HEAD_BYTES)];
    let mut at = if head.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let mut lines = head[at..].split(|b| *b == b'\n');
    let first = lines.next()?;
    if !is_fence(first, false) {
        return None;
    }
    at += first.len() + 1;
    for line in lines {
        if is_fence(line, true) {
            return None;
        }
        if line.starts_with(b"name:") {
            return Some(at..at + line.len());
        }
        at += line.len() + 1;
    }
    None
}

/// Whether the frontmatter block that starts `bytes` declares an agent: a `name:` and one of
/// the keys only an agent's block has (`tools:`, `model:`, `color:`). A skill's block has
/// `allowed-tools:`, a command's rarely a `name:`.
pub fn declares_agent(bytes: &[u8]) -> bool {
    let Some(block) = block_lines(bytes) else {
        return false;
    };
    let has = |keys: &[&[u8]]| block.iter().any(|l| keys.iter().any(|k| l.starts_with(k)));
    has(&[b"name:"]) && has(&[b"tools:", b"model:", b"color:"])
}

/// The first `HEAD_BYTES` bytes of the file at `abs`, and one more when there are: enough for
/// `name_in` to answer as it would on the whole file. A full rebuild reads the head of every
/// Markdown file before its pass, so this is one `read` where it can be: a regular file's read is
/// short only at its end. (Were one short elsewhere, the pass, which reads the whole file, would
/// see another name and have the file read again by the next run.)
pub fn read_head(abs: &Path) -> std::io::Result<Vec<u8>> {
    let mut file = std::fs::File::open(abs)?;
    let mut head = vec![0u8; HEAD_BYTES + 1];
    let mut n = 0;
    while n < head.len() {
        match file.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => {
                let short = n + k < head.len();
                n += k;
                if short {
                    break;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    head.truncate(n);
    Ok(head)
}

/// `---` (or, closing, `...`), with trailing blanks or a CR.
fn is_fence(line: &[u8], closing: bool) -> bool {
    let t = line.trim_ascii_end();
    t == b"---" || (closing && t == b"...")
}

/// The value after `name:`: unquoted, without a trailing comment.
fn value(rest: &[u8]) -> &[u8] {
    let v = rest.trim_ascii();
    if let Some(q @ (b'"' | b'\'')) = v.first().copied() {
        let inner = &v[1..];
        return match memchr::memchr(q, inner) {
            Some(end) => &inner[..end],
            None => b"",
        };
    }
    // A YAML comment starts at a `#` after a blank.
    let cut = v
        .windows(2)
        .position(|w| w[0].is_ascii_whitespace() && w[1] == b'#')
        .unwrap_or(v.len());
    v[..cut].trim_ascii_end()
}

/// An identifier a file can be mentioned by: ASCII letters, digits, `_`, `-`, `.`, starting and
/// ending with a letter or digit, at most `MAX_NAME_BYTES` long; or a title-case name of a few
/// such words (`Hook Development`: how some skills are named, and shown by the client). No `/`:
/// names with folders are paths; a sentence (`Bug report`, `Runs the tests`) is no name.
fn plausible(v: &[u8]) -> Option<&str> {
    let word_ok = |w: &[u8]| {
        !w.is_empty()
            && w.first().is_some_and(u8::is_ascii_alphanumeric)
            && w.last().is_some_and(u8::is_ascii_alphanumeric)
            && w.iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
    };
    let words: Vec<&[u8]> = v.split(|b| *b == b' ').collect();
    let ok = v.len() <= MAX_NAME_BYTES
        && match words.as_slice() {
            [one] => word_ok(one),
            many => {
                many.len() <= MAX_TITLE_WORDS
                    && many
                        .iter()
                        .all(|w| word_ok(w) && (w[0].is_ascii_uppercase() || w[0].is_ascii_digit()))
            }
        };
    if ok {
        std::str::from_utf8(v).ok()
    } else {
        None
    }
}

/// Most words a title-case frontmatter name may have.
const MAX_TITLE_WORDS: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_block_has_a_name_and_an_agent_key() {
        assert!(declares_agent(
            b"---\nname: debugger\ndescription: d\ntools: Read\n---\nx\n"
        ));
        assert!(declares_agent(
            b"---\r\nname: x\r\nmodel: sonnet\r\n---\r\n"
        ));
        assert!(!declares_agent(b"---\nname: x\ndescription: d\n---\n"));
        assert!(!declares_agent(b"---\nname: x\nallowed-tools: Read\n---\n"));
        assert!(!declares_agent(b"---\nname: x\ntools: Read\n"));
        assert!(!declares_agent(b"name: x\ntools: Read\n---\n"));
    }

    fn name(text: &str) -> Option<&str> {
        name_in(text.as_bytes())
    }

    #[test]
    fn reads_the_name_between_the_fences() {
        assert_eq!(
            name("---\nname: incident-response-debugger\ndescription: x\n---\nbody\n"),
            Some("incident-response-debugger")
        );
        assert_eq!(name("---\ndescription: x\nname: late\n---\n"), Some("late"));
        // The first `name:` wins; a closing `...` ends the block too.
        assert_eq!(name("---\nname: one\nname: two\n...\n"), Some("one"));
        // A file that is only its frontmatter.
        assert_eq!(name("---\nname: solo\n---"), Some("solo"));
    }

    #[test]
    fn unquotes_and_drops_comments() {
        assert_eq!(
            name("---\nname: \"quoted-name\"\n---\n"),
            Some("quoted-name")
        );
        assert_eq!(name("---\nname: 'single'\n---\n"), Some("single"));
        assert_eq!(name("---\nname: plain # a comment\n---\n"), Some("plain"));
        assert_eq!(name("---\nname:   spaced   \n---\n"), Some("spaced"));
        assert_eq!(name("---\nname: \"open\n---\n"), None);
    }

    #[test]
    fn crlf_and_bom() {
        assert_eq!(
            name("---\r\nname: windows-agent\r\ndescription: x\r\n---\r\nbody\r\n"),
            Some("windows-agent")
        );
        assert_eq!(name("\u{feff}---\nname: bom\n---\n"), Some("bom"));
    }

    #[test]
    fn no_frontmatter_no_name() {
        assert_eq!(name("name: not-frontmatter\n"), None);
        assert_eq!(name("# Title\n---\nname: later\n---\n"), None);
        assert_eq!(name("\n---\nname: blank-first\n---\n"), None);
        assert_eq!(name(""), None);
        assert_eq!(name("---\n---\n"), None);
    }

    #[test]
    fn a_name_outside_the_fences_is_none() {
        assert_eq!(name("---\ndescription: x\n---\nname: body-line\n"), None);
        // Never closed: not frontmatter (a rule line at the top of a document).
        assert_eq!(name("---\nname: unclosed\nbody\n"), None);
    }

    #[test]
    fn indented_or_prefixed_keys_are_not_the_name() {
        assert_eq!(name("---\nmeta:\n  name: nested\n---\n"), None);
        assert_eq!(name("---\nnames: plural\n---\n"), None);
        assert_eq!(name("---\nfull_name: other\n---\n"), None);
    }

    #[test]
    fn implausible_values_are_no_names() {
        for v in [
            "Bug report",
            "Runs the tests",
            "One Two Three Four Five",
            "Two  Spaces",
            "",
            "a/b",
            ">-",
            "-dash",
            "dot.",
            "ünïcode",
            "[list]",
            "{a: b}",
        ] {
            assert_eq!(name(&format!("---\nname: {v}\n---\n")), None, "{v:?}");
        }
        let long = "a".repeat(MAX_NAME_BYTES + 1);
        assert_eq!(name(&format!("---\nname: {long}\n---\n")), None);
        let max = "a".repeat(MAX_NAME_BYTES);
        assert_eq!(
            name(&format!("---\nname: {max}\n---\n")),
            Some(max.as_str())
        );
        assert_eq!(name("---\nname: v1.2_x-y\n---\n"), Some("v1.2_x-y"));
    }

    #[test]
    fn a_title_case_name_of_a_few_words_is_a_name() {
        assert_eq!(
            name("---\nname: Hook Development\n---\n"),
            Some("Hook Development")
        );
        assert_eq!(
            name("---\nname: \"MCP Integration\"\n---\n"),
            Some("MCP Integration")
        );
        assert_eq!(
            name("---\nname: Step 2 Review\n---\n"),
            Some("Step 2 Review")
        );
    }

    #[test]
    fn only_the_head_counts() {
        let pad = "x".repeat(HEAD_BYTES);
        // Closed within the head, whatever follows.
        let text = format!("---\nname: early\n---\n{pad}");
        assert_eq!(name(&text), Some("early"));
        // The closing fence lies beyond the head: no frontmatter.
        let text = format!("---\nname: late-close\ndescription: {pad}\n---\n");
        assert_eq!(name(&text), None);
        // A line cut by the head's end may continue: `---x` is no fence.
        let filler = "d".repeat(HEAD_BYTES - "---\nname: cut\n".len() - 4);
        let text = format!("---\nname: cut\n{filler}\n---x\nbody");
        assert_eq!(text.find("\n---x"), Some(HEAD_BYTES - 4));
        assert_eq!(name(&text), None);
        // The same bytes ending the file are a closing fence.
        let text = format!("---\nname: cut\n{filler}\n---");
        assert_eq!(text.len(), HEAD_BYTES);
        assert_eq!(name(&text), Some("cut"));
    }

    #[test]
    fn the_head_read_answers_as_the_whole_file() -> std::io::Result<()> {
        let dir = tempfile::tempdir()?;
        let pad = "x".repeat(2 * HEAD_BYTES);
        for text in [
            "---\nname: small\n---\nbody".to_string(),
            format!("---\nname: big\n---\n{pad}"),
            format!("---\nname: never-closed\n{pad}\n---\n"),
            String::new(),
        ] {
            let p = dir.path().join("f.md");
            std::fs::write(&p, &text)?;
            let head = read_head(&p)?;
            assert!(head.len() <= HEAD_BYTES + 1);
            assert_eq!(
                name_in(&head),
                name_in(text.as_bytes()),
                "{}",
                &text[..text.len().min(30)]
            );
        }
        assert!(read_head(&dir.path().join("missing.md")).is_err());
        Ok(())
    }

    #[test]
    fn markdown_only() {
        assert!(applies_to(".claude/agents/a.md"));
        assert!(applies_to("docs/page.MDX"));
        assert!(applies_to("README.md"));
        assert!(!applies_to("a/b.txt"));
        assert!(!applies_to("a/.md"));
        assert!(!applies_to("md"));
        assert!(!applies_to("a/settings.json"));
    }
}
