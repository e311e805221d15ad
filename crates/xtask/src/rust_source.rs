//! Just enough Rust lexing for the source checks (`check-layers`' module rules, `plumbing`):
//! blank out comments (and, when asked, string and char literals) so that what they say does
//! not count, and read the `.rs` files under a directory.
//!
//! Blanking keeps every newline (so line numbers stay right) and replaces each other character
//! with a space. Handled: `//` comments of every kind (`//`, `///`, `//!`), nested `/* */`
//! comments, `"…"` with escapes, raw strings `r"…"`, `r#"…"#` (and `b`/`br` forms), char
//! literals (`'x'`, `'\''`, `'"'`) as opposed to lifetimes and labels (`'a`, `'static`).

use std::path::Path;

/// What to blank besides comments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blank {
    /// Comments only; literals are kept as written.
    Comments,
    /// Comments and the contents of string and char literals (the quotes are kept).
    CommentsAndLiterals,
}

/// `text` with comments (and literal contents, per `what`) replaced by spaces, newlines kept.
pub fn blank(text: &str, what: Blank) -> String {
    let c: Vec<char> = text.chars().collect();
    let literals = what == Blank::CommentsAndLiterals;
    let mut out = String::with_capacity(text.len());
    let blank_char = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            let mut depth = 0usize;
            while i < c.len() {
                let pair = (c[i], c.get(i + 1).copied());
                if pair == ('/', Some('*')) {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if pair == ('*', Some('/')) {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank_char(c[i]));
                    i += 1;
                }
            }
        } else if ch == '"' {
            i = string(&c, i, None, literals, &mut out);
        } else if ch == '\'' {
            // A char literal is `'x'` or `'\…'`; anything else is a lifetime or a label.
            let end = if next == Some('\\') {
                (i + 3..c.len()).find(|&j| c[j] == '\'')
            } else if c.get(i + 2) == Some(&'\'') && next != Some('\n') {
                Some(i + 2)
            } else {
                None
            };
            out.push('\'');
            if let Some(end) = end {
                for &lit in &c[i + 1..end] {
                    out.push(if literals { blank_char(lit) } else { lit });
                }
                out.push('\'');
                i = end + 1;
            } else {
                i += 1;
            }
        } else if ch.is_ascii_alphabetic() || ch == '_' {
            if let Some((prefix, hashes)) = raw_string_start(&c, i) {
                out.extend(&c[i..i + prefix]);
                i = string(&c, i + prefix, Some(hashes), literals, &mut out);
            } else {
                while i < c.len() && (c[i].is_ascii_alphanumeric() || c[i] == '_') {
                    out.push(c[i]);
                    i += 1;
                }
            }
        } else {
            out.push(ch);
            i += 1;
        }
    }
    out
}

/// At an identifier start: whether a raw string (`r"`, `r#"`, `br##"`) begins here; returns the
/// length of the prefix before the opening quote and the number of `#`.
fn raw_string_start(c: &[char], i: usize) -> Option<(usize, usize)> {
    let r = match (c[i], c.get(i + 1)) {
        ('r', _) => i,
        ('b', Some('r')) => i + 1,
        _ => return None,
    };
    let hashes = c[r + 1..].iter().take_while(|&&h| h == '#').count();
    (c.get(r + 1 + hashes) == Some(&'"')).then_some((r + 1 + hashes - i, hashes))
}

/// A string literal whose opening quote is at `open`: with escapes, or raw (`raw_hashes`:
/// closed by `"` and that many `#`, no escapes). Writes it to `out` and returns the index
/// after it.
fn string(c: &[char], open: usize, raw_hashes: Option<usize>, blank_contents: bool, out: &mut String) -> usize {
    let raw = raw_hashes.is_some();
    let hashes = raw_hashes.unwrap_or(0);
    out.push('"');
    let mut i = open + 1;
    let keep = |ch: char, out: &mut String| out.push(if !blank_contents || ch == '\n' { ch } else { ' ' });
    while i < c.len() {
        if !raw && c[i] == '\\' {
            keep(c[i], out);
            if let Some(&escaped) = c.get(i + 1) {
                keep(escaped, out);
            }
            i += 2;
        } else if c[i] == '"' && c[i + 1..].iter().take(hashes).filter(|&&h| h == '#').count() == hashes {
            out.push('"');
            out.extend(std::iter::repeat_n('#', hashes));
            return i + 1 + hashes;
        } else {
            keep(c[i], out);
            i += 1;
        }
    }
    i
}

/// The `.rs` files under `dir` (relative to `root`), recursively, as (path relative to `root`
/// with `/` separators, text), sorted by path.
pub fn read_tree(root: &Path, dir: &str) -> Result<Vec<(String, String)>, String> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_string()];
    while let Some(rel) = pending.pop() {
        let path = root.join(&rel);
        let entries = std::fs::read_dir(&path).map_err(|e| format!("read {}: {e}", path.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("read {}: {e}", path.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let child = format!("{rel}/{name}");
            let kind = entry.file_type().map_err(|e| format!("read {}: {e}", entry.path().display()))?;
            if kind.is_dir() {
                pending.push(child);
            } else if Path::new(&name).extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(entry.path()).map_err(|e| format!("read {}: {e}", entry.path().display()))?;
                files.push((child, text));
            }
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> String {
        blank(text, Blank::CommentsAndLiterals)
    }

    #[test]
    fn comments_of_every_kind_are_blanked_and_lines_kept() {
        let text = "//! crate::views::a\n/// crate::views::b\nlet x = 1; // crate::views::c\n/* a /* nested */ crate::views::d\n */ y";
        let out = blank(text, Blank::Comments);
        assert!(!out.contains("views"), "{out}");
        assert_eq!(out.lines().count(), text.lines().count());
        assert_eq!(out.chars().count(), text.chars().count());
        assert!(out.contains("let x = 1;") && out.ends_with(" y"), "{out}");
    }

    #[test]
    fn strings_hide_comment_markers_and_can_be_blanked() {
        let text = r#"let u = "http://x/*"; f(crate::a);"#;
        assert_eq!(blank(text, Blank::Comments), text);
        let spaces = |n: usize| " ".repeat(n);
        assert_eq!(code(text), format!("let u = \"{}\"; f(crate::a);", spaces("http://x/*".len())));
        let escaped = r#"s("a \" // b"); g()"#;
        assert_eq!(code(escaped), format!("s(\"{}\"); g()", spaces(r#"a \" // b"#.len())));
    }

    #[test]
    fn raw_and_byte_strings() {
        let text = "let a = r#\"say \"hi\" // x\"#; let b = br\"//\"; let c = b\"//\"; ok";
        assert_eq!(blank(text, Blank::Comments), text);
        let out = code(text);
        assert!(out.ends_with("; ok") && !out.contains("say") && !out.contains("//"), "{out}");
    }

    #[test]
    fn char_literals_versus_lifetimes() {
        let text = "fn f<'a>(x: &'a str) -> char { if x == \"\" { '\"' } else { '{' } } // '\nlet q = '\\''; 'outer: loop {}";
        let out = code(text);
        assert!(out.contains("<'a>") && out.contains("&'a str") && out.contains("'outer: loop {}"), "{out}");
        assert!(out.contains("{ ' ' } else { ' ' }"), "{out}");
        assert!(out.contains("let q = '  ';"), "{out}");
        assert_eq!(out.lines().count(), 2);
    }

    #[test]
    fn raw_identifiers_are_not_strings() {
        assert_eq!(code("r#type + r + br"), "r#type + r + br");
    }
}
