//! What can be wrong with a compiler pass snapshot (`pypto_formats::python_check` and the
//! Python tokenizer find them): one [`SnapshotProblemKind`] per sentence those checks write.
//!
//! The checks write each problem's message in English (Python's own wording where Python would
//! say it; the CLI's `report` prints it). Beside it a problem carries its kind and its
//! arguments (the line, the character, the keyword, the byte offset, … as
//! [`WarningArg`](crate::WarningArg)s, like a [`Warning`](crate::Warning)'s), so that the page
//! words it in the user's language: the catalogue's `snapshot-<kind key>` with those arguments,
//! whose English is the message word for word (a test in the CLI checks it on one damaged
//! snapshot per kind). A file cut mid-statement has a kind of its own per detail (`cut-…`): the
//! catalogue says the cut and the detail, both translated.

/// One sentence of the snapshot checks. [`SnapshotProblemKind::key`] is the stable name (the
/// catalogue's `snapshot-<key>`, the report's `kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum SnapshotProblemKind {
    /// Bytes that are not UTF-8: `offset` (byte, 0-based), `byte` (`0xFF`), `count` (how many).
    InvalidUtf8,
    /// A null byte.
    NullByte,
    /// Python's "unterminated string literal".
    UnterminatedString,
    /// Python's "unterminated triple-quoted string literal".
    UnterminatedTripleQuotedString,
    /// Python's "'`bracket`' was never closed".
    NeverClosed,
    /// Python's "closing parenthesis '`close`' does not match opening parenthesis '`open`'".
    MismatchedBracket,
    /// As [`Self::MismatchedBracket`], the opening bracket on another line (`line`).
    MismatchedBracketOnLine,
    /// Python's "unmatched '`bracket`'".
    UnmatchedBracket,
    /// Python's "too many nested parentheses".
    TooManyNested,
    /// Python's "expected an indented block after the ':' on line `line`".
    ExpectedIndentedBlock,
    /// Python's "unexpected indent".
    UnexpectedIndent,
    /// Python's "unindent does not match any outer indentation level".
    UnindentMismatch,
    /// A statement (not the file's last) ends with the operator or keyword `token`.
    StatementEndsWith,
    /// Python's "expected ':'" (a block header without it).
    ExpectedColon,
    /// A decorator followed by something other than `def` or `class`.
    DecoratorWithoutDef,
    /// The keyword `keyword` after a `.`, where a name belongs.
    KeywordAfterDot,
    /// Python's "invalid character '`char`' (`code_point`)".
    InvalidCharacter,
    /// Python's "unexpected character after line continuation character".
    CharacterAfterContinuation,
    /// Python's "invalid non-printable character `code_point`".
    NonPrintableCharacter,
    /// The file ends inside a statement: nothing follows `token`.
    CutNothingFollows,
    /// The file ends inside a statement: nothing follows the line continuation `\`.
    CutLineContinuation,
    /// The file ends inside a statement: a block header without its `:`.
    CutExpectedColon,
    /// The file ends inside a statement: no `def` or `class` follows the decorator on `line`.
    CutDecorator,
    /// The file ends inside a statement: the keyword `keyword` after a `.`.
    CutKeywordAfterDot,
    /// The file holds no statement.
    EmptyFile,
    /// The last line has no newline.
    EndsMidLine,
}

impl SnapshotProblemKind {
    /// Every kind, in declaration order.
    pub const ALL: &'static [Self] = &[
        Self::InvalidUtf8,
        Self::NullByte,
        Self::UnterminatedString,
        Self::UnterminatedTripleQuotedString,
        Self::NeverClosed,
        Self::MismatchedBracket,
        Self::MismatchedBracketOnLine,
        Self::UnmatchedBracket,
        Self::TooManyNested,
        Self::ExpectedIndentedBlock,
        Self::UnexpectedIndent,
        Self::UnindentMismatch,
        Self::StatementEndsWith,
        Self::ExpectedColon,
        Self::DecoratorWithoutDef,
        Self::KeywordAfterDot,
        Self::InvalidCharacter,
        Self::CharacterAfterContinuation,
        Self::NonPrintableCharacter,
        Self::CutNothingFollows,
        Self::CutLineContinuation,
        Self::CutExpectedColon,
        Self::CutDecorator,
        Self::CutKeywordAfterDot,
        Self::EmptyFile,
        Self::EndsMidLine,
    ];

    /// Stable kebab-case name (`cut-nothing-follows`).
    pub fn key(self) -> &'static str {
        match self {
            Self::InvalidUtf8 => "invalid-utf8",
            Self::NullByte => "null-byte",
            Self::UnterminatedString => "unterminated-string",
            Self::UnterminatedTripleQuotedString => "unterminated-triple-quoted-string",
            Self::NeverClosed => "never-closed",
            Self::MismatchedBracket => "mismatched-bracket",
            Self::MismatchedBracketOnLine => "mismatched-bracket-on-line",
            Self::UnmatchedBracket => "unmatched-bracket",
            Self::TooManyNested => "too-many-nested",
            Self::ExpectedIndentedBlock => "expected-indented-block",
            Self::UnexpectedIndent => "unexpected-indent",
            Self::UnindentMismatch => "unindent-mismatch",
            Self::StatementEndsWith => "statement-ends-with",
            Self::ExpectedColon => "expected-colon",
            Self::DecoratorWithoutDef => "decorator-without-def",
            Self::KeywordAfterDot => "keyword-after-dot",
            Self::InvalidCharacter => "invalid-character",
            Self::CharacterAfterContinuation => "character-after-continuation",
            Self::NonPrintableCharacter => "non-printable-character",
            Self::CutNothingFollows => "cut-nothing-follows",
            Self::CutLineContinuation => "cut-line-continuation",
            Self::CutExpectedColon => "cut-expected-colon",
            Self::CutDecorator => "cut-decorator",
            Self::CutKeywordAfterDot => "cut-keyword-after-dot",
            Self::EmptyFile => "empty-file",
            Self::EndsMidLine => "ends-mid-line",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_listed_once_with_its_own_key() {
        let keys: std::collections::BTreeSet<&str> = SnapshotProblemKind::ALL.iter().map(|k| k.key()).collect();
        assert_eq!(keys.len(), SnapshotProblemKind::ALL.len());
        assert!(keys.iter().all(|k| k.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')), "{keys:?}");
    }
}
