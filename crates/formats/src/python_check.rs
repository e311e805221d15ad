//! Checks a compiler pass snapshot for what Python would reject in a truncated or damaged
//! file, for the IR Pass Trace (a mark on the pass, a banner above its diff) and the CLI's
//! `report`, which both get the problems from here through `pypto_analysis::pass_trace`.
//!
//! Found: bytes that are not UTF-8 ([`decode`]), null bytes, unterminated strings, unclosed,
//! unmatched or mismatched brackets, a file cut mid-statement (a dangling operator or keyword,
//! a trailing line continuation, a block header or decorator with nothing after it, a
//! `def`/`if`/… header without its `:`), a block header without an indented body, unexpected
//! or inconsistent dedents, and stray characters (`$`, `?`, `!`, a backslash not ending a line,
//! control and non-ASCII whitespace characters). This is not a parser: a cut that leaves valid
//! Python (right after a complete name, number or annotation) passes, and so does an invalid
//! statement whose tokens and brackets are in order (`x = = 1`). Non-ASCII characters other
//! than whitespace are not judged (Python's identifier rules need the Unicode tables).
//!
//! Each problem is a [`FormatError`]: the file name, the 1-based line, the 1-based column in
//! characters (as Python's `SyntaxError` counts, so it matches an editor), and a message
//! worded like Python's. A file gets at most one syntax problem (the first, as Python stops at
//! the first), plus one for undecodable bytes and one for null bytes.

use std::borrow::Cow;

use crate::python_source::{self, LogicalLine, Token, TokenKind, Tokens};
use crate::{FormatError, SnapshotProblemKind};

/// How the messages of a cut file begin.
pub const CUT: &str = "the file ends inside a statement (cut?)";

/// The text of `bytes` with undecodable bytes replaced by U+FFFD (as `String::from_utf8_lossy`),
/// and, when there were any, a problem at the first one: its line and column, its byte offset
/// in the file (0-based, as Python's codec error says "position") and how many bytes could not
/// be decoded. A UTF-8 byte order mark opening the file is not part of the text: Python reads
/// such a source as if it had none, so the snapshot reads (and diffs) as the same program.
pub fn decode<'a>(path: &str, bytes: &'a [u8]) -> (Cow<'a, str>, Option<FormatError>) {
    let bom = if bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let bytes = bytes.get(bom..).unwrap_or_default();
    let Err(e) = std::str::from_utf8(bytes) else {
        return (String::from_utf8_lossy(bytes), None);
    };
    let at = e.valid_up_to();
    let valid = bytes.get(..at).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or("");
    let (line, column) = position(valid, at);
    let first = bytes.get(at).copied().unwrap_or(0);
    let undecodable: usize = bytes.utf8_chunks().map(|c| c.invalid().len()).sum();
    let message = format!(
        "invalid UTF-8 at byte offset {} (0x{first:02X}; {undecodable} undecodable byte{} in the file, shown as U+FFFD)",
        at + bom,
        if undecodable == 1 { "" } else { "s" }
    );
    let problem = FormatError::snapshot(SnapshotProblemKind::InvalidUtf8, path, line, column, message)
        .text("offset", at + bom)
        .text("byte", format_args!("0x{first:02X}"))
        .count("count", undecodable);
    (String::from_utf8_lossy(bytes), Some(problem))
}

/// The problems of a decoded snapshot text: a null byte, then the first syntax problem.
pub fn check(path: &str, text: &str) -> Vec<FormatError> {
    let mut out = Vec::new();
    if let Some(at) = text.find('\0') {
        let (line, column) = position(text, at);
        let message = "null byte: Python source cannot contain null bytes (damaged file?)";
        out.push(FormatError::snapshot(SnapshotProblemKind::NullByte, path, line, column, message));
    }
    out.extend(syntax_problem(path, text));
    out
}

/// What Python reads but the compiler never writes, so a snapshot that has it was cut short:
/// no statement at all (an empty file: cut at its first byte, or never written), or a last
/// line without its newline (cut mid-line; every snapshot the compiler writes ends with
/// one). For the pass trace, which asks only when [`check`] found nothing: a cut Python
/// rejects keeps Python's message.
pub fn cut_short(path: &str, text: &str) -> Option<FormatError> {
    const EMPTY: &str = "the file is empty: a pass snapshot holds the whole program (cut short, or never written?)";
    const MID_LINE: &str = "the file ends mid-line, without the final newline every snapshot has (cut short?)";
    if text.trim().is_empty() {
        return Some(FormatError::snapshot(SnapshotProblemKind::EmptyFile, path, 1, 1, EMPTY));
    }
    if text.ends_with('\n') {
        return None;
    }
    let (line, column) = position(text, text.len());
    Some(FormatError::snapshot(SnapshotProblemKind::EndsMidLine, path, line, column, MID_LINE))
}

/// [`decode`] then [`check`]: every problem of a snapshot file's bytes.
pub fn check_bytes(path: &str, bytes: &[u8]) -> Vec<FormatError> {
    let (text, undecodable) = decode(path, bytes);
    undecodable.into_iter().chain(check(path, &text)).collect()
}

/// 1-based line and character column of byte `at` of `text` (clamped to a char boundary).
fn position(text: &str, at: usize) -> (u64, u64) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = text.get(..at).unwrap_or("");
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.bytes().filter(|&b| b == b'\n').count() as u64 + 1;
    let column = text.get(line_start..at).unwrap_or("").chars().count() as u64 + 1;
    (line, column)
}

/// Byte offset of the start of 1-based line `line`.
fn line_start(text: &str, line: u64) -> usize {
    if line <= 1 {
        return 0;
    }
    text.match_indices('\n').nth((line - 2) as usize).map_or(text.len(), |(i, _)| i + 1)
}

fn syntax_problem(path: &str, text: &str) -> Option<FormatError> {
    match python_source::tokenize(path, text) {
        // The tokenizer counts columns in bytes; say them in characters.
        Err(e) if e.line > 0 && e.column > 0 => {
            let (line, column) = position(text, line_start(text, e.line) + (e.column - 1) as usize);
            Some(FormatError { line, column, ..e })
        }
        Err(e) => Some(e),
        Ok(toks) => Statements { path, text, toks: &toks }.first_problem(),
    }
}

/// Operators that need something after them: a statement cannot end with one.
const DANGLING_OPS: [&str; 39] = [
    "**=", "//=", ">>=", "<<=", "->", ":=", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "**", "//", "<<",
    ">>", "+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "=", ".", "(", "[",
];

/// Keywords a statement can end with (every other hard keyword needs something after it).
const ENDING_KEYWORDS: [&str; 9] = ["True", "False", "None", "return", "pass", "break", "continue", "raise", "yield"];

/// Keywords that start a compound statement's header, which needs a `:`.
const HEADER_KEYWORDS: [&str; 11] = ["def", "class", "if", "elif", "else", "for", "while", "with", "try", "except", "finally"];

/// The statement checks over a tokenized text.
struct Statements<'s, 't> {
    path: &'s str,
    text: &'s str,
    toks: &'s Tokens<'t>,
}

impl Statements<'_, '_> {
    fn at_byte(&self, byte: usize, kind: SnapshotProblemKind, message: impl Into<String>) -> FormatError {
        let (line, column) = position(self.text, byte);
        FormatError::snapshot(kind, self.path, line, column, message)
    }

    fn text_of(&self, t: &Token) -> &str {
        self.toks.text_of(t)
    }

    fn first_problem(&self) -> Option<FormatError> {
        let lines = &self.toks.lines;
        let mut indents: Vec<u32> = vec![0];
        // The header (a statement ending in `:`) whose body the next statement must be.
        let mut open_header: Option<u32> = None;
        for (k, line) in lines.iter().enumerate() {
            let is_last = k + 1 == lines.len();
            let ts = self.toks.line_tokens(line);
            let (Some(first), Some(last)) = (ts.first(), ts.last()) else { continue };
            if let Some(p) = self.indentation(line, first, &mut indents, open_header.take()) {
                return Some(p);
            }
            if let Some(p) = ts.iter().find_map(|t| self.stray_character(t)) {
                return Some(p);
            }
            if let Some(p) = self.keyword_after_dot(ts, is_last) {
                return Some(p);
            }
            if let Some(p) = self.ending(line, ts, last, is_last) {
                return Some(p);
            }
            if self.text_of(last) == ":" && last.kind == TokenKind::Op {
                open_header = Some(line.first_line);
            }
            let next = lines.get(k + 1).and_then(|n| self.toks.line_tokens(n).first());
            if self.text_of(first) == "@" && next.is_some_and(|n| !matches!(self.text_of(n), "@" | "def" | "class" | "async")) {
                let message = "invalid syntax: a decorator must be followed by def or class";
                return Some(self.at_byte(first.start as usize, SnapshotProblemKind::DecoratorWithoutDef, message));
            }
        }
        self.trailing_continuation()
    }

    /// Python's INDENT/DEDENT rules on the statement's first token.
    fn indentation(&self, line: &LogicalLine, first: &Token, indents: &mut Vec<u32>, header: Option<u32>) -> Option<FormatError> {
        let top = indents.last().copied().unwrap_or(0);
        if let Some(header_line) = header {
            if line.indent <= top {
                let message = format!("expected an indented block after the ':' on line {header_line}");
                return Some(
                    self.at_byte(first.start as usize, SnapshotProblemKind::ExpectedIndentedBlock, message).text("line", header_line),
                );
            }
            indents.push(line.indent);
        } else if line.indent > top {
            return Some(self.at_byte(first.start as usize, SnapshotProblemKind::UnexpectedIndent, "unexpected indent"));
        } else {
            while indents.last().is_some_and(|&i| i > line.indent) {
                indents.pop();
            }
            if indents.last().copied().unwrap_or(0) != line.indent {
                let message = "unindent does not match any outer indentation level";
                return Some(self.at_byte(first.start as usize, SnapshotProblemKind::UnindentMismatch, message));
            }
        }
        None
    }

    /// A character Python's tokenizer refuses outside strings and comments.
    fn stray_character(&self, t: &Token) -> Option<FormatError> {
        if t.kind != TokenKind::Op {
            return None;
        }
        let s = self.text_of(t);
        let mut chars = s.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else { return None };
        let at = t.start as usize;
        // Only for a refused character: this runs on every one-character operator.
        let code_point = || format!("U+{:04X}", u32::from(c));
        Some(match c {
            '\\' => {
                let rest = self.text.get(t.end as usize..).unwrap_or("");
                if rest.trim().is_empty() {
                    self.at_byte(at, SnapshotProblemKind::CutLineContinuation, format!("{CUT}: nothing follows the line continuation '\\'"))
                } else {
                    let message = "unexpected character after line continuation character";
                    self.at_byte(at, SnapshotProblemKind::CharacterAfterContinuation, message)
                }
            }
            '$' | '?' | '!' | '`' => self
                .at_byte(at, SnapshotProblemKind::InvalidCharacter, format!("invalid character '{c}' ({})", code_point()))
                .text("character", c)
                .text("code_point", code_point()),
            '\0' => return None, // reported once for the whole file by `check`
            c if c.is_ascii_control() || (!c.is_ascii() && c.is_whitespace()) => self
                .at_byte(at, SnapshotProblemKind::NonPrintableCharacter, format!("invalid non-printable character {}", code_point()))
                .text("code_point", code_point()),
            _ => return None,
        })
    }

    /// `pl.yield` (a name cut short into a keyword): a keyword cannot follow `.`, except the
    /// `import` of `from . import x`.
    fn keyword_after_dot(&self, ts: &[Token], is_last: bool) -> Option<FormatError> {
        let at = ts.windows(2).position(|w| {
            let (dot, word) = (&w[0], &w[1]);
            let s = self.text_of(word);
            dot.kind == TokenKind::Op
                && self.text_of(dot) == "."
                && word.kind == TokenKind::Name
                && python_source::is_keyword(s)
                && s != "import"
        })?;
        let word = ts.get(at + 1)?;
        let s = self.text_of(word);
        if is_last && at + 2 == ts.len() {
            let message = format!("{CUT}: '{s}' is a keyword, not a name after '.'");
            return Some(self.at_byte(word.end as usize, SnapshotProblemKind::CutKeywordAfterDot, message).text("keyword", s));
        }
        let message = format!("invalid syntax: '{s}' is a keyword, not a name after '.'");
        Some(self.at_byte(word.start as usize, SnapshotProblemKind::KeywordAfterDot, message).text("keyword", s))
    }

    /// What the statement ends with: a dangling operator or keyword, a header without `:`.
    fn ending(&self, line: &LogicalLine, ts: &[Token], last: &Token, is_last: bool) -> Option<FormatError> {
        let end = last.end as usize;
        let s = self.text_of(last);
        let after_import = ts.len() >= 2 && ts.get(ts.len() - 2).is_some_and(|t| self.text_of(t) == "import");
        let dangling = match last.kind {
            TokenKind::Op => (DANGLING_OPS.contains(&s) && !(s == "*" && after_import)) || (s == ":" && is_last),
            TokenKind::Name => python_source::is_keyword(s) && !ENDING_KEYWORDS.contains(&s),
            _ => false,
        };
        if dangling {
            let problem = if is_last {
                self.at_byte(end, SnapshotProblemKind::CutNothingFollows, format!("{CUT}: nothing follows '{s}'"))
            } else {
                let message = format!("invalid syntax: the statement ends with '{s}'");
                self.at_byte(last.start as usize, SnapshotProblemKind::StatementEndsWith, message)
            };
            return Some(problem.text("token", s));
        }
        let first = ts.first()?;
        let head = match self.text_of(first) {
            "async" => ts.get(1).map_or("", |t| self.text_of(t)),
            h => h,
        };
        let has_colon = ts.iter().any(|t| t.depth == 0 && t.kind == TokenKind::Op && self.text_of(t) == ":");
        if first.kind == TokenKind::Name && HEADER_KEYWORDS.contains(&head) && !has_colon {
            return Some(if is_last {
                self.at_byte(end, SnapshotProblemKind::CutExpectedColon, format!("{CUT}: expected ':'"))
            } else {
                self.at_byte(end, SnapshotProblemKind::ExpectedColon, "expected ':'")
            });
        }
        if is_last && self.text_of(first) == "@" {
            let message = format!("{CUT}: no def or class follows the decorator on line {}", line.first_line);
            return Some(self.at_byte(end, SnapshotProblemKind::CutDecorator, message).text("line", line.first_line));
        }
        None
    }

    /// A line continuation `\` + newline with nothing after it: Python's "unexpected EOF".
    fn trailing_continuation(&self) -> Option<FormatError> {
        let body = self.text.strip_suffix('\n').map_or(self.text, |b| b.strip_suffix('\r').unwrap_or(b));
        if body.len() == self.text.len() || !body.ends_with('\\') {
            return None; // `\` without a newline is a token, judged by `stray_character`
        }
        let slash = body.len() - 1;
        // Past the last token (a `\` in a string would be part of it) and not in a comment.
        let last_end = self.toks.tokens.last().map_or(0, |t| t.end as usize);
        let from = last_end.max(body.rfind('\n').map_or(0, |i| i + 1));
        let in_comment = self.text.get(from..slash).is_some_and(|s| s.contains('#'));
        (slash >= last_end && !in_comment).then(|| {
            self.at_byte(slash, SnapshotProblemKind::CutLineContinuation, format!("{CUT}: nothing follows the line continuation '\\'"))
        })
    }
}

#[cfg(test)]
#[allow(clippy::expect_used, clippy::unwrap_used)]
mod tests {
    use super::*;

    /// `(line, column, message)` of each problem.
    fn got(text: &str) -> Vec<(u64, u64, String)> {
        check_bytes("t.py", text.as_bytes()).into_iter().map(|e| (e.line, e.column, e.message)).collect()
    }

    fn got_bytes(bytes: &[u8]) -> Vec<(u64, u64, String)> {
        check_bytes("t.py", bytes).into_iter().map(|e| (e.line, e.column, e.message)).collect()
    }

    fn one(text: &str) -> (u64, u64, String) {
        let g = got(text);
        assert_eq!(g.len(), 1, "{text:?}: {g:?}");
        g.into_iter().next().unwrap()
    }

    #[test]
    fn cut_mid_string_and_mid_bracket() {
        assert_eq!(one("x = 1\ny = 'abc"), (2, 5, "unterminated string literal".to_owned()));
        assert_eq!(one("x = \"\"\"doc\nmore\n"), (1, 5, "unterminated triple-quoted string literal".to_owned()));
        assert_eq!(one("a: pl.Tile[[16, 1], pl.FP32] = pl.tile.load(x, [0, 0],\n"), (1, 44, "'(' was never closed".to_owned()));
        // ruff layout: the bracket opened lines before the cut
        assert_eq!(one("def f(\n    a: int,\n    b: pl.Tensor[[16"), (3, 18, "'[' was never closed".to_owned()));
        assert_eq!(one("x = (1]\n"), (1, 7, "closing parenthesis ']' does not match opening parenthesis '('".to_owned()));
        assert_eq!(one("x = 1]\n"), (1, 6, "unmatched ']'".to_owned()));
        // columns count characters, not bytes
        assert_eq!(one("s = 'é' + (1,\n"), (1, 11, "'(' was never closed".to_owned()));
    }

    #[test]
    fn cut_mid_statement() {
        let cut = |detail: &str| format!("{CUT}: {detail}");
        assert_eq!(one("x = 1\ny = a +"), (2, 8, cut("nothing follows '+'")));
        assert_eq!(one("x = 1\ny = a.\n"), (2, 7, cut("nothing follows '.'")));
        assert_eq!(one("y = a if b else\n"), (1, 16, cut("nothing follows 'else'")));
        assert_eq!(one("y: pl.Tile[[16], pl.FP32] =\n"), (1, 28, cut("nothing follows '='")));
        assert_eq!(one("class P:\n    def f(self):\n"), (2, 17, cut("nothing follows ':'")));
        assert_eq!(one("class P:\n    def f(self) -> pl.Tensor[[16], pl.FP32]\n"), (2, 44, cut("expected ':'")));
        assert_eq!(one("class P:\n    @pl.function(type=1)\n"), (2, 25, cut("no def or class follows the decorator on line 2")));
        assert_eq!(one("x = 1 \\\n"), (1, 7, cut("nothing follows the line continuation '\\'")));
        assert_eq!(one("x = 1 + \\"), (1, 9, cut("nothing follows the line continuation '\\'")));
        assert_eq!(one("x = 1\n\\\n"), (2, 1, cut("nothing follows the line continuation '\\'")));
        assert_eq!(one("x = pl.yield"), (1, 13, cut("'yield' is a keyword, not a name after '.'")));
    }

    #[test]
    fn damage_inside_the_file() {
        assert_eq!(one("def f():\nx = 1\n"), (2, 1, "expected an indented block after the ':' on line 1".to_owned()));
        assert_eq!(one("x = 1\n    y = 2\n"), (2, 5, "unexpected indent".to_owned()));
        assert_eq!(one("if x:\n    a = 1\n  b = 2\n"), (3, 3, "unindent does not match any outer indentation level".to_owned()));
        assert_eq!(one("x = a +\ny = 2\n"), (1, 7, "invalid syntax: the statement ends with '+'".to_owned()));
        assert_eq!(one("def f(x)\n    pass\n"), (1, 9, "expected ':'".to_owned()));
        assert_eq!(one("@dec\nx = 1\n"), (1, 1, "invalid syntax: a decorator must be followed by def or class".to_owned()));
        assert_eq!(one("x = pl.if_(1)\ny = pl.if(1)\n"), (2, 8, "invalid syntax: 'if' is a keyword, not a name after '.'".to_owned()));
        assert_eq!(one("x = $y\n"), (1, 5, "invalid character '$' (U+0024)".to_owned()));
        assert_eq!(one("x = 1 \\ # c\n"), (1, 7, "unexpected character after line continuation character".to_owned()));
        assert_eq!(one("x = 1\u{a0}\n"), (1, 6, "invalid non-printable character U+00A0".to_owned()));
        assert_eq!(one("x = 1\u{1}\n"), (1, 6, "invalid non-printable character U+0001".to_owned()));
    }

    #[test]
    fn undecodable_and_null_bytes() {
        // `é` is two bytes: the bad byte is at offset 13, column 7.
        let bytes = b"a = 1\nb = '\xc3\xa9\xff\xfe'\n";
        let p = check_bytes("t.py", bytes);
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!((p[0].path.as_str(), p[0].line, p[0].column), ("t.py", 2, 7));
        assert_eq!(p[0].message, "invalid UTF-8 at byte offset 13 (0xFF; 2 undecodable bytes in the file, shown as U+FFFD)");
        let (text, _) = decode("t.py", bytes);
        assert_eq!(text, "a = 1\nb = 'é\u{fffd}\u{fffd}'\n");
        // a U+FFFD outside a string is not blamed on the syntax
        assert_eq!(check_bytes("t.py", b"x = \xff\n").len(), 1);
        // a byte order mark opening the file is not text (Python skips it); offsets count it
        let (text, e) = decode("t.py", b"\xEF\xBB\xBFx = 1\n");
        assert_eq!((text.as_ref(), e), ("x = 1\n", None));
        let p = check_bytes("t.py", b"\xEF\xBB\xBFx = '\xff'\n");
        assert_eq!((p[0].line, p[0].column), (1, 6));
        assert_eq!(p[0].message, "invalid UTF-8 at byte offset 8 (0xFF; 1 undecodable byte in the file, shown as U+FFFD)");
        // UTF-16 (its BOM is not UTF-8): undecodable from the first byte, and full of null bytes
        let utf16: Vec<u8> = [0xFF, 0xFE].into_iter().chain("x = 1\n".encode_utf16().flat_map(u16::to_le_bytes)).collect();
        let p = got_bytes(&utf16);
        assert_eq!(p[0].0, 1);
        assert_eq!(p[0].1, 1);
        assert!(p[0].2.starts_with("invalid UTF-8 at byte offset 0 (0xFF"), "{p:?}");
        assert!(p.iter().any(|x| x.2.starts_with("null byte")), "{p:?}");
        // zero-filled tail (a crash while writing)
        let p = got("x = 1\n\0\0\0\0");
        assert_eq!(p, vec![(2, 1, "null byte: Python source cannot contain null bytes (damaged file?)".to_owned())]);
    }

    #[test]
    fn valid_python_passes() {
        for ok in [
            "",
            "\n",
            "from m import *\n",
            "x = 1,\n",
            "x = 1;\n",
            "x: int\n",
            "x = ...\n",
            "class P: pass\n",
            "if x: y = 1; z = 2\nelse:\n    pass\n",
            "def f():\n    # only a comment\n    return\n",
            "x = 1 \\\n\n",
            "x = 1 # c \\\n",
            "x = 1 \\\n  + 2\n",
            "s = '''a\\\nb'''\n",
            "async def f():\n    await g()\n",
            "@a\n@b\ndef f(): ...\n",
            "lambda: 0\n",
            "while True:\n    break\nelse:\n    pass\n",
            "try:\n    pass\nexcept E as e:\n    raise\nfinally:\n    pass\n",
            "x = [\n    1,\n]  # trailing\n",
            "\u{feff}x = 1\n",
            "x = 'é€'\n",
            "from . import m\nfrom .. import n\n",
            "if a:\n\tb = 1\n",
        ] {
            assert_eq!(got(ok), Vec::new(), "{ok:?}");
        }
    }

    #[test]
    fn cut_short_snapshots() {
        let cut = |t: &str| cut_short("t.py", t).map(|e| (e.line, e.column, e.message));
        assert_eq!(cut("x = 1\ny = 2\n"), None);
        let (line, column, message) = cut("x = 1\ny = pl.tile.lo").expect("cut mid-line");
        assert_eq!((line, column), (2, 15));
        assert!(message.contains("without the final newline"), "{message}");
        assert_eq!(cut("").map(|c| (c.0, c.1)), Some((1, 1)));
        assert_eq!(cut(" \n\n").map(|c| (c.0, c.1)), Some((1, 1)));
        assert!(cut("").is_some_and(|c| c.2.starts_with("the file is empty")));
        // columns count characters
        assert_eq!(cut("s = 'é'").map(|c| (c.0, c.1)), Some((1, 8)));
    }

    /// Every `.py` in the pass-dump fixtures (raw and ruff-formatted snapshots, the hand-made
    /// `bad-*` dumps) is valid Python: none is flagged.
    #[test]
    fn no_fixture_is_flagged() {
        fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for e in std::fs::read_dir(dir).expect("fixtures") {
                let p = e.expect("entry").path();
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|x| x == "py") {
                    out.push(p);
                }
            }
        }
        let mut files = Vec::new();
        walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/passes"), &mut files);
        assert!(files.len() > 150, "{} files", files.len());
        for f in files {
            let bytes = std::fs::read(&f).expect("read");
            assert_eq!(check_bytes("f.py", &bytes), Vec::new(), "{}", f.display());
            assert_eq!(cut_short("f.py", &decode("f.py", &bytes).0), None, "{}", f.display());
        }
    }
}
