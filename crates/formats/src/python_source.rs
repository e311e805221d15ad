//! A small Python tokenizer and outline reader for compiler pass snapshots
//! (compiler-formats.md §2), for the IR Pass Trace's function filter and the memory map.
//!
//! Snapshots are Python text printed by the PyPTO IR printer, raw (one statement per physical
//! line) or ruff-formatted (statements split over several lines inside brackets). Everything
//! here works on *logical lines*: a statement's tokens from its first to its last physical line,
//! found by tracking bracket nesting `()[]{}`, string literals (all prefixes, single and triple
//! quotes) and backslash continuations, so both layouts give the same statements. Line numbers
//! are the file's physical 1-based lines, as Python's `ast` reports them.
//!
//! [`outline`] lists the functions the way pypto's `ir_trace` delimits them with `ast`: every
//! top-level `def` (key `name`) and every `def` directly inside a top-level `class` (key
//! `Class.method`), from the first decorator line to the last line of the last body statement.

use crate::{FormatError, SnapshotProblemKind};

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// An identifier or keyword.
    Name,
    /// A numeric literal.
    Number,
    /// A string literal (with its prefix and quotes).
    Str,
    /// An operator or delimiter (`(`, `.`, `==`, `->`, …).
    Op,
}

/// One token with its byte span and physical position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    /// Byte range in the source text.
    pub start: u32,
    pub end: u32,
    /// 1-based physical line of the token's first byte.
    pub line: u32,
    /// Bracket nesting depth before this token (an opening bracket carries the outer depth,
    /// its closing bracket too).
    pub depth: u32,
}

/// One statement (logical line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogicalLine {
    /// Column (bytes) of the first token: the statement's indentation.
    pub indent: u32,
    /// 1-based physical line of the first token.
    pub first_line: u32,
    /// 1-based physical line of the last token (comments excluded).
    pub last_line: u32,
    /// Token index range in [`Tokens::tokens`].
    pub tokens: std::ops::Range<usize>,
}

/// A tokenized source: tokens and the statements they form.
#[derive(Debug, Clone, Default)]
pub struct Tokens<'a> {
    pub text: &'a str,
    pub tokens: Vec<Token>,
    pub lines: Vec<LogicalLine>,
}

impl<'a> Tokens<'a> {
    /// The source text of a token.
    pub fn text_of(&self, t: &Token) -> &'a str {
        self.text.get(t.start as usize..t.end as usize).unwrap_or("")
    }

    /// The tokens of one statement.
    pub fn line_tokens(&self, line: &LogicalLine) -> &[Token] {
        self.tokens.get(line.tokens.clone()).unwrap_or(&[])
    }
}

const THREE_CHAR_OPS: [&str; 5] = ["**=", "//=", ">>=", "<<=", "..."];
const TWO_CHAR_OPS: [&str; 19] =
    ["->", ":=", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "**", "//", "<<", ">>"];

/// How deep brackets may nest: `CPython`'s tokenizer refuses the 201st level (`MAXLEVEL`).
pub const MAX_NESTING: usize = 200;

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Splits `text` into tokens and logical lines. Errors (with file position) on an
/// unterminated string, an unbalanced bracket or brackets nested deeper than [`MAX_NESTING`].
#[allow(clippy::too_many_lines, clippy::many_single_char_names)] // one scanner loop
pub fn tokenize<'a>(path: &str, text: &'a str) -> Result<Tokens<'a>, FormatError> {
    let bytes = text.as_bytes();
    let mut out = Tokens { text, tokens: Vec::new(), lines: Vec::new() };
    let mut i = 0usize;
    let mut line = 1u32;
    let mut line_start = 0usize;
    let mut stack: Vec<(u8, u32, usize)> = Vec::new(); // (open byte, line, column)
    let mut stmt_first: Option<usize> = None; // token index where the current statement began
    let mut stmt_indent = 0u32;
    let mut same_indent = false; // the statement follows a `;` on the same line
    let col = |i: usize, ls: usize| (i - ls + 1) as u64;
    let finish = |out: &mut Tokens<'a>, first: &mut Option<usize>, indent: u32| {
        if let Some(f) = first.take() {
            let n = out.tokens.len();
            if n > f {
                let first_line = out.tokens.get(f).map_or(0, |t| t.line);
                let last_line = out.tokens.get(n - 1).map_or(0, |t| t.line);
                out.lines.push(LogicalLine { indent, first_line, last_line, tokens: f..n });
            }
        }
    };
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => {
                if stack.is_empty() {
                    finish(&mut out, &mut stmt_first, stmt_indent);
                    same_indent = false;
                }
                i += 1;
                line += 1;
                line_start = i;
            }
            b' ' | b'\t' | b'\r' | b'\x0c' => i += 1,
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'\\' if bytes.get(i + 1) == Some(&b'\n') || (bytes.get(i + 1) == Some(&b'\r') && bytes.get(i + 2) == Some(&b'\n')) => {
                i += if bytes.get(i + 1) == Some(&b'\n') { 2 } else { 3 };
                line += 1;
                line_start = i;
            }
            b';' if stack.is_empty() => {
                // `a; b` — two statements on one line; the second keeps the first's indent.
                finish(&mut out, &mut stmt_first, stmt_indent);
                same_indent = true;
                i += 1;
            }
            _ => {
                if stmt_first.is_none() {
                    stmt_first = Some(out.tokens.len());
                    if !same_indent {
                        stmt_indent = (i - line_start) as u32;
                    }
                    same_indent = false;
                }
                let start = i;
                let depth = stack.len() as u32;
                let tok_line = line;
                // `line_start` moves on inside a multi-line string; errors point at its start.
                let tok_line_start = line_start;
                let rest = text.get(i..).unwrap_or("");
                let c = rest.chars().next().unwrap_or('\0');
                let kind;
                if let Some(q) = string_start(rest) {
                    let (prefix_len, quote_len, quote) = q;
                    let mut j = i + prefix_len + quote_len;
                    loop {
                        let Some(&cb) = bytes.get(j) else {
                            let (kind, what) = if quote_len == 3 {
                                (SnapshotProblemKind::UnterminatedTripleQuotedString, "unterminated triple-quoted string literal")
                            } else {
                                (SnapshotProblemKind::UnterminatedString, "unterminated string literal")
                            };
                            return Err(FormatError::snapshot(kind, path, u64::from(tok_line), col(start, tok_line_start), what));
                        };
                        if cb == b'\\' {
                            // Even in raw strings a backslash keeps the next quote in the literal.
                            if bytes.get(j + 1) == Some(&b'\n') {
                                line += 1;
                                line_start = j + 2;
                            }
                            j += 2;
                            continue;
                        }
                        if cb == b'\n' {
                            if quote_len == 1 {
                                return Err(FormatError::snapshot(
                                    SnapshotProblemKind::UnterminatedString,
                                    path,
                                    u64::from(tok_line),
                                    col(start, tok_line_start),
                                    "unterminated string literal",
                                ));
                            }
                            line += 1;
                            line_start = j + 1;
                            j += 1;
                            continue;
                        }
                        if cb == quote && (quote_len == 1 || (bytes.get(j + 1) == Some(&quote) && bytes.get(j + 2) == Some(&quote))) {
                            j += quote_len;
                            break;
                        }
                        j += 1;
                    }
                    i = j;
                    kind = TokenKind::Str;
                } else if is_ident_start(c) {
                    let len: usize = rest.chars().take_while(|&c| is_ident_continue(c)).map(char::len_utf8).sum();
                    i += len;
                    kind = TokenKind::Name;
                } else if c.is_ascii_digit() || (c == '.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
                    i += 1;
                    while i < bytes.len() {
                        let d = bytes[i];
                        let exp_sign = (d == b'+' || d == b'-')
                            && matches!(bytes.get(i - 1), Some(b'e' | b'E'))
                            && !rest.starts_with("0x")
                            && !rest.starts_with("0X");
                        if d.is_ascii_alphanumeric() || d == b'_' || d == b'.' || exp_sign {
                            i += 1;
                        } else {
                            break;
                        }
                    }
                    kind = TokenKind::Number;
                } else {
                    let len = if THREE_CHAR_OPS.iter().any(|o| rest.starts_with(o)) {
                        3
                    } else if TWO_CHAR_OPS.iter().any(|o| rest.starts_with(o)) {
                        2
                    } else {
                        c.len_utf8()
                    };
                    match b {
                        b'(' | b'[' | b'{' => {
                            if stack.len() >= MAX_NESTING {
                                return Err(FormatError::snapshot(
                                    SnapshotProblemKind::TooManyNested,
                                    path,
                                    u64::from(line),
                                    col(i, line_start),
                                    "too many nested parentheses",
                                ));
                            }
                            stack.push((b, line, i - line_start + 1));
                        }
                        b')' | b']' | b'}' => {
                            let want = match b {
                                b')' => b'(',
                                b']' => b'[',
                                _ => b'{',
                            };
                            match stack.pop() {
                                Some((open, _, _)) if open == want => {}
                                Some((open, open_line, _)) => {
                                    // Python's wording, naming the opening bracket's line when it differs.
                                    let on = if open_line == line { String::new() } else { format!(" on line {open_line}") };
                                    let message = format!(
                                        "closing parenthesis '{}' does not match opening parenthesis '{}'{on}",
                                        b as char, open as char
                                    );
                                    let kind = if open_line == line {
                                        SnapshotProblemKind::MismatchedBracket
                                    } else {
                                        SnapshotProblemKind::MismatchedBracketOnLine
                                    };
                                    let e = FormatError::snapshot(kind, path, u64::from(line), col(i, line_start), message)
                                        .text("close", b as char)
                                        .text("open", open as char);
                                    return Err(if open_line == line { e } else { e.text("line", open_line) });
                                }
                                None => {
                                    return Err(FormatError::snapshot(
                                        SnapshotProblemKind::UnmatchedBracket,
                                        path,
                                        u64::from(line),
                                        col(i, line_start),
                                        format!("unmatched '{}'", b as char),
                                    )
                                    .text("bracket", b as char))
                                }
                            }
                        }
                        _ => {}
                    }
                    i += len;
                    kind = TokenKind::Op;
                }
                let depth = if matches!(b, b')' | b']' | b'}') && kind == TokenKind::Op { depth.saturating_sub(1) } else { depth };
                out.tokens.push(Token { kind, start: start as u32, end: i as u32, line: tok_line, depth });
            }
        }
    }
    if let Some(&(open, l, c)) = stack.last() {
        let message = format!("'{}' was never closed", open as char);
        return Err(
            FormatError::snapshot(SnapshotProblemKind::NeverClosed, path, u64::from(l), c as u64, message).text("bracket", open as char)
        );
    }
    finish(&mut out, &mut stmt_first, stmt_indent);
    Ok(out)
}

/// `(prefix length, quote length 1|3, quote byte)` when `rest` starts a string literal.
fn string_start(rest: &str) -> Option<(usize, usize, u8)> {
    let b = rest.as_bytes();
    let mut p = 0;
    while p < 2 && b.get(p).is_some_and(|c| b"rRbBuUfFtT".contains(c)) {
        p += 1;
    }
    for prefix in (0..=p).rev() {
        let q = *b.get(prefix)?;
        if q == b'"' || q == b'\'' {
            let prefix_ok = match prefix {
                0 => true,
                1 => b"rRbBuUfFtT".contains(b.first()?),
                _ => {
                    let pr = rest.get(..2)?.to_ascii_lowercase();
                    matches!(pr.as_str(), "rb" | "br" | "fr" | "rf" | "tr" | "rt")
                }
            };
            if !prefix_ok {
                return None;
            }
            let triple = b.get(prefix + 1) == Some(&q) && b.get(prefix + 2) == Some(&q);
            return Some((prefix, if triple { 3 } else { 1 }, q));
        }
    }
    None
}

/// Python's hard keywords: never a variable name.
pub fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "False"
            | "None"
            | "True"
            | "and"
            | "as"
            | "assert"
            | "async"
            | "await"
            | "break"
            | "class"
            | "continue"
            | "def"
            | "del"
            | "elif"
            | "else"
            | "except"
            | "finally"
            | "for"
            | "from"
            | "global"
            | "if"
            | "import"
            | "in"
            | "is"
            | "lambda"
            | "nonlocal"
            | "not"
            | "or"
            | "pass"
            | "raise"
            | "return"
            | "try"
            | "while"
            | "with"
            | "yield"
    )
}

/// One function of a snapshot, as `ir_trace` keys and delimits it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FunctionOutline {
    /// `Class.method` for a method of a top-level class, `name` for a top-level function.
    pub key: String,
    pub name: String,
    /// The owning top-level class, if any.
    pub class: Option<String>,
    /// First line: the first decorator's line, or the `def` line (1-based, inclusive).
    pub start_line: u32,
    /// The `def` statement's first line.
    pub def_line: u32,
    /// Last line of the last body statement (1-based, inclusive).
    pub end_line: u32,
    /// Index of the `def` statement in [`Tokens::lines`].
    pub def_stmt: usize,
    /// Index range in [`Tokens::lines`] of the decorators (before `def_stmt`).
    pub decorators: std::ops::Range<usize>,
    /// Index range in [`Tokens::lines`] of the body statements.
    pub body: std::ops::Range<usize>,
}

/// The first name of a statement, if it is a Name token.
fn head<'a>(toks: &Tokens<'a>, line: &LogicalLine) -> Option<&'a str> {
    let t = toks.line_tokens(line).first()?;
    (t.kind == TokenKind::Name).then(|| toks.text_of(t))
}

/// `def NAME` / `async def NAME`: the function name.
fn def_name<'a>(toks: &Tokens<'a>, line: &LogicalLine) -> Option<&'a str> {
    let ts = toks.line_tokens(line);
    let skip = usize::from(head(toks, line) == Some("async"));
    let d = ts.get(skip)?;
    let n = ts.get(skip + 1)?;
    (toks.text_of(d) == "def" && n.kind == TokenKind::Name).then(|| toks.text_of(n))
}

/// `class NAME`: the class name.
fn class_name<'a>(toks: &Tokens<'a>, line: &LogicalLine) -> Option<&'a str> {
    let ts = toks.line_tokens(line);
    let n = ts.get(1)?;
    (head(toks, line) == Some("class") && n.kind == TokenKind::Name).then(|| toks.text_of(n))
}

fn is_decorator(toks: &Tokens<'_>, line: &LogicalLine) -> bool {
    toks.line_tokens(line).first().is_some_and(|t| toks.text_of(t) == "@")
}

/// Index one past the last statement of the block that follows statement `at` (statements
/// indented deeper than `indent`).
fn block_end(toks: &Tokens<'_>, at: usize, indent: u32) -> usize {
    let mut j = at + 1;
    while toks.lines.get(j).is_some_and(|l| l.indent > indent) {
        j += 1;
    }
    j
}

fn function_at(toks: &Tokens<'_>, decorators_from: usize, at: usize, class: Option<&str>) -> Option<FunctionOutline> {
    let stmt = toks.lines.get(at)?;
    let name = def_name(toks, stmt)?;
    let end = block_end(toks, at, stmt.indent);
    let end_line = if end > at + 1 {
        toks.lines.get(end - 1)?.last_line
    } else {
        stmt.last_line // one-line body `def f(): pass`
    };
    let start_line = toks.lines.get(decorators_from)?.first_line;
    Some(FunctionOutline {
        key: class.map_or_else(|| name.to_owned(), |c| format!("{c}.{name}")),
        name: name.to_owned(),
        class: class.map(str::to_owned),
        start_line,
        def_line: stmt.first_line,
        end_line,
        def_stmt: at,
        decorators: decorators_from..at,
        body: at + 1..end,
    })
}

/// Top-level functions and direct methods of top-level classes, in file order.
pub fn outline(toks: &Tokens<'_>) -> Vec<FunctionOutline> {
    let mut out = Vec::new();
    let mut stmt = 0;
    let count = toks.lines.len();
    while stmt < count {
        let Some(line) = toks.lines.get(stmt) else {
            break;
        };
        if line.indent != 0 {
            stmt += 1;
            continue;
        }
        let def_at = skip_decorators(toks, stmt, 0);
        let Some(head_line) = toks.lines.get(def_at) else {
            break;
        };
        if let Some(f) = function_at(toks, stmt, def_at, None) {
            stmt = f.body.end;
            out.push(f);
        } else if let Some(cls) = class_name(toks, head_line) {
            let end = block_end(toks, def_at, 0);
            let member_indent = toks.lines.get(def_at + 1).map_or(0, |x| x.indent);
            let mut member = def_at + 1;
            while member < end {
                let Some(member_line) = toks.lines.get(member) else {
                    break;
                };
                if member_line.indent != member_indent {
                    member += 1;
                    continue;
                }
                let member_def = skip_decorators(toks, member, member_indent);
                if let Some(f) = function_at(toks, member, member_def, Some(cls)) {
                    member = f.body.end;
                    out.push(f);
                } else {
                    member = member_def.max(member) + 1;
                }
            }
            stmt = end;
        } else {
            stmt = def_at + 1;
        }
    }
    out
}

/// The first statement at or after `from` that is not a decorator at `indent`.
fn skip_decorators(toks: &Tokens<'_>, from: usize, indent: u32) -> usize {
    let mut at = from;
    while toks.lines.get(at).is_some_and(|x| is_decorator(toks, x) && x.indent == indent) {
        at += 1;
    }
    at
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn logical_lines_span_brackets_and_strings() {
        let src = "a: pl.Tile[\n    [1, 2], pl.FP32\n] = f(x, 's)', \"\"\"x\ny\"\"\")  # c\nb = 1; c = 2\nd = \\\n  3\n";
        let t = tokenize("t.py", src).expect("ok");
        let spans: Vec<(u32, u32, u32)> = t.lines.iter().map(|l| (l.first_line, l.last_line, l.indent)).collect();
        assert_eq!(spans, vec![(1, 4, 0), (5, 5, 0), (5, 5, 0), (6, 7, 0)]);
    }

    #[test]
    fn errors_name_the_position() {
        let e = tokenize("t.py", "x = (1,\ny = 'abc\n").expect_err("bad");
        assert_eq!((e.line, e.column), (2, 5), "{e}");
        let e = tokenize("t.py", "x = (1,\ny = 2\n").expect_err("bad");
        assert_eq!((e.line, e.column), (1, 5), "{e}");
        let e = tokenize("t.py", "x = 1)\n").expect_err("bad");
        assert_eq!((e.line, e.column), (1, 6), "{e}");
        let e = tokenize("t.py", "x = (\n  1]\n").expect_err("bad");
        assert_eq!(
            (e.line, e.column, e.message.as_str()),
            (2, 4, "closing parenthesis ']' does not match opening parenthesis '(' on line 1")
        );
        // A string cut after it spans lines: its start, not the start of the last line.
        let e = tokenize("t.py", "x = 1\ny = \"\"\"doc\nmore\n").expect_err("bad");
        assert_eq!((e.line, e.column, e.message.as_str()), (2, 5, "unterminated triple-quoted string literal"));
        let e = tokenize("t.py", "y = 'a\\\nb\n").expect_err("bad");
        assert_eq!((e.line, e.column, e.message.as_str()), (1, 5, "unterminated string literal"));
    }

    #[test]
    fn nesting_is_limited_like_cpython() {
        let nested = |n: usize| format!("x = {}0{}\n", "(".repeat(n), ")".repeat(n));
        assert!(tokenize("t.py", &nested(MAX_NESTING)).is_ok());
        let e = tokenize("t.py", &nested(4000)).expect_err("too deep");
        assert_eq!((e.line, e.column, e.message.as_str()), (1, 5 + MAX_NESTING as u64, "too many nested parentheses"));
    }

    #[test]
    fn outline_keys_and_ranges() {
        let src = "import x\n\n@dec\ndef top(a):\n    return a\n\n\nclass P:\n    @pl.function(type=1)\n    def m(\n        self,\n    ) -> int:\n        if a:\n            b = 1\n        # trailing comment\n\n    def n(self): pass\n    class Inner:\n        def hidden(self):\n            pass\ny = 2\n";
        let t = tokenize("t.py", src).expect("ok");
        let o = outline(&t);
        let got: Vec<(&str, u32, u32)> = o.iter().map(|f| (f.key.as_str(), f.start_line, f.end_line)).collect();
        assert_eq!(got, vec![("top", 3, 5), ("P.m", 9, 14), ("P.n", 17, 17)]);
    }
}
