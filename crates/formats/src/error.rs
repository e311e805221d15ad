//! The one error type of every reader: file path, 1-based line and column (0 = unknown)
//! and a message, displayed as `path:line:column: message` for the UI and the CLI. A pass
//! snapshot's problem also says which sentence it is ([`FormatError::kind`]) and that
//! sentence's arguments, so the page can say it in its language.

use std::fmt;

use pypto_vocab::{SnapshotProblemKind, WarningArg};

/// A reader error with its position in the input file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FormatError {
    /// The file path as given to the reader.
    pub path: String,
    /// 1-based line, 0 when unknown.
    pub line: u64,
    /// 1-based column, 0 when unknown.
    pub column: u64,
    /// What was wrong and what was expected.
    pub message: String,
    /// The sentence `message` is, for the problems of a pass snapshot (`python_check`, the
    /// Python tokenizer); `None` for the other readers' errors.
    #[serde(default)]
    pub kind: Option<SnapshotProblemKind>,
    /// The sentence's arguments by name (the catalogue message's `{ $name }`s).
    #[serde(default)]
    pub args: Vec<(String, WarningArg)>,
}

impl FormatError {
    /// An error at a known position.
    pub fn at(path: &str, line: u64, column: u64, message: impl Into<String>) -> Self {
        Self { path: path.to_owned(), line, column, message: message.into(), kind: None, args: Vec::new() }
    }

    /// A pass snapshot's problem of `kind` at a known position (add its arguments with
    /// [`FormatError::count`] and [`FormatError::text`]).
    pub fn snapshot(kind: SnapshotProblemKind, path: &str, line: u64, column: u64, message: impl Into<String>) -> Self {
        Self { kind: Some(kind), ..Self::at(path, line, column, message) }
    }

    /// This error with the count `name` (formatted with the page language's digit grouping
    /// and plural rules).
    #[must_use]
    pub fn count<N: TryInto<u64>>(mut self, name: &str, n: N) -> Self {
        self.args.push((name.to_owned(), WarningArg::Count(n.try_into().unwrap_or(u64::MAX))));
        self
    }

    /// This error with the text `name` (a line number, a character, a keyword, as the
    /// message writes it).
    #[must_use]
    pub fn text(mut self, name: &str, value: impl fmt::Display) -> Self {
        self.args.push((name.to_owned(), WarningArg::Text(value.to_string())));
        self
    }

    /// An error without a position.
    pub fn new(path: &str, message: impl Into<String>) -> Self {
        Self::at(path, 0, 0, message)
    }

    /// An error at the first occurrence of `"key"` in `bytes` (0:0 if the key is absent).
    pub fn at_key(path: &str, bytes: &[u8], key: &str, message: impl Into<String>) -> Self {
        let (line, column) = crate::json_util::position_of_key(bytes, key);
        Self::at(path, line, column, message)
    }

    /// Converts a `serde_json` error, keeping its line and column and dropping the
    /// " at line L column C" suffix from the message. `serde_json` says column 0 when it
    /// stopped before the first byte of a line (an empty file, a cut right after a newline);
    /// that is reported as column 1, since 0 means "unknown" here.
    pub fn from_json(path: &str, err: &serde_json::Error) -> Self {
        let line = err.line() as u64;
        let raw_column = err.column() as u64;
        let column = if line > 0 { raw_column.max(1) } else { raw_column };
        let full = err.to_string();
        let suffix = format!(" at line {line} column {raw_column}");
        let message = full.strip_suffix(&suffix).unwrap_or(&full);
        let message = if err.is_eof() {
            format!("file ends early (truncated?): {message}")
        } else if message == "invalid unicode code point" {
            // serde_json's wording for a byte sequence that is not UTF-8 inside a string.
            "invalid UTF-8 in a string: the file must be UTF-8 text".to_owned()
        } else {
            message.to_owned()
        };
        Self::at(path, line, column, message)
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.path, self.line, self.column, self.message)
    }
}

impl std::error::Error for FormatError {}
