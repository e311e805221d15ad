//! The IR Pass Trace's messages: a pass dump's pass list and one pass's diff.

use pypto_vocab::{SnapshotProblemKind, WarningArg};
use serde::{Deserialize, Serialize};

use crate::Request;

/// The pass list of a pass-dump dataset. Reply: [`PassListData`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PassListRequest {
    pub dataset_id: u32,
}

/// The diff of pass `pass` (position in the pass list) against the snapshot before it,
/// restricted to one function (`Class.method` key) when given. Reply: [`PassDiffData`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PassDiffRequest {
    pub dataset_id: u32,
    pub pass: u32,
    pub function: Option<String>,
}

crate::request!(PassListRequest => PassList(PassListData));
crate::request!(PassDiffRequest => PassDiff(Box<PassDiffData>));

/// One pass of the IR Pass Trace's pass list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassRow {
    /// The snapshot's `NN`.
    pub index: u32,
    /// Pass name with `after_` stripped.
    pub name: String,
    pub file_name: String,
    /// The snapshot it is compared with.
    pub previous_file: String,
    pub added: u32,
    pub removed: u32,
    pub no_op: bool,
    /// A `.log` warnings file sits beside the snapshot.
    pub has_warning: bool,
    /// What is wrong with the snapshot file; empty when it is valid Python (the diff is shown
    /// either way).
    pub problems: Vec<SnapshotProblem>,
}

/// What is wrong with a snapshot file: bytes that are not UTF-8, a null byte, or what Python
/// would reject in it (a cut mid-statement, an unterminated string, unbalanced brackets, …).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotProblem {
    pub file: String,
    /// 1-based line in the file.
    pub line: u32,
    /// 1-based column in characters.
    pub column: u32,
    /// In English, as the CLI's `report` prints it.
    pub message: String,
    /// Which sentence `message` is (the page words it as the catalogue's `snapshot-<key>`
    /// with `args`); `None` from a worker that did not say, shown as `message`.
    #[serde(default)]
    pub kind: Option<SnapshotProblemKind>,
    /// The sentence's arguments by name (line numbers, the character, the keyword, …).
    #[serde(default)]
    pub args: Vec<(String, WarningArg)>,
}

/// The pass list of a pass-dump dataset (validation problems listed, the valid part shown).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassListData {
    pub dataset_id: u32,
    pub passes: Vec<PassRow>,
    pub problems: Vec<String>,
    /// `file: reason` of snapshots that could not be read.
    pub unreadable: Vec<String>,
    /// What is wrong with `00_frontend.py` (the first pass's before side).
    pub frontend_problems: Vec<SnapshotProblem>,
    /// Position of the first pass that changed something.
    pub first_changed: Option<u32>,
}

/// Changed byte ranges of a `Replace` row: `(row, before ranges, after ranges)`.
pub type LineChangeRow = (u32, Vec<(u32, u32)>, Vec<(u32, u32)>);

/// One warning header of a pass's `.log` file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassWarningRow {
    /// 1-based line in the `.log` text.
    pub log_line: u32,
    /// 1-based line / column in the snapshot, when given.
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
}

/// A snapshot's lines as one text and where each line starts: a million-line snapshot is one
/// string and one offset column, not a million strings (the page gets both as typed arrays,
/// [`PassDiffData::take_columns`]). Lines split like `ir_trace` (`\n`, a trailing `\r` dropped,
/// no empty last line).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotLines {
    /// The snapshot's text as read.
    pub text: String,
    /// Byte offset in `text` of each line's first byte.
    pub starts: Vec<u32>,
    /// The most characters in one line (the panes' width).
    pub max_chars: u32,
}

impl SnapshotLines {
    /// The lines of `text`.
    pub fn new(text: &str) -> Self {
        let body = text.strip_suffix('\n').unwrap_or(text);
        let mut starts = Vec::new();
        if !text.is_empty() {
            starts.push(0);
            starts.extend(body.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i as u32 + 1));
        }
        let mut out = Self { text: text.to_owned(), starts, max_chars: 0 };
        out.max_chars = out.iter().map(|l| if l.is_ascii() { l.len() } else { l.chars().count() }).max().unwrap_or(0) as u32;
        out
    }

    /// Lines from a list of lines (each without its line end).
    pub fn from_lines<S: AsRef<str>>(lines: &[S]) -> Self {
        let mut text = String::new();
        for l in lines {
            text.push_str(l.as_ref());
            text.push('\n');
        }
        Self::new(&text)
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Line `i` (0-based), without its line end.
    pub fn get(&self, i: usize) -> Option<&str> {
        let start = *self.starts.get(i)? as usize;
        let end = self.starts.get(i + 1).map_or(self.text.len(), |&e| e as usize);
        let line = self.text.get(start..end)?;
        let line = line.strip_suffix('\n').unwrap_or(line);
        Some(line.strip_suffix('\r').unwrap_or(line))
    }

    /// Every line, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

/// The diff of one pass against the snapshot before it. Rows are columns: `kinds`
/// (0 equal, 1 delete, 2 insert, 3 replace), `before` / `after` 0-based line indices (-1 none).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassDiffData {
    pub dataset_id: u32,
    pub pass: u32,
    pub function: Option<String>,
    /// Function keys (`Class.method`) of both snapshots, for the filter; empty when the
    /// source could not be outlined.
    pub functions: Vec<String>,
    pub before_file: String,
    pub after_file: String,
    pub before_lines: SnapshotLines,
    pub after_lines: SnapshotLines,
    pub kinds: Vec<u8>,
    pub before: Vec<i32>,
    pub after: Vec<i32>,
    pub added: u32,
    pub removed: u32,
    /// Row ranges `(start, end, folded)` of unchanged runs folded with 3 context rows.
    pub blocks: Vec<(u32, u32, bool)>,
    /// Changed byte ranges of `Replace` rows: `(row, before ranges, after ranges)`.
    pub changes: Vec<LineChangeRow>,
    /// The `.log` text beside the snapshot and its warning headers.
    pub log: Option<String>,
    pub warnings: Vec<PassWarningRow>,
    /// Why the diff could not be made (unreadable file), when it could not.
    pub error: Option<String>,
}

/// The columns a [`PassDiffData`] travels with to the page (its big parts, as typed arrays).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct PassDiffColumns {
    pub before_text: Vec<u8>,
    pub before_starts: Vec<u32>,
    pub after_text: Vec<u8>,
    pub after_starts: Vec<u32>,
    pub kinds: Vec<u8>,
    pub before: Vec<i32>,
    pub after: Vec<i32>,
}

impl PassDiffColumns {
    /// The column names, in the order of the fields.
    pub const NAMES: [&'static str; 7] = ["before_text", "before_starts", "after_text", "after_starts", "kinds", "before", "after"];
}

impl PassDiffData {
    /// Moves the texts, line starts and row columns out (left empty), for the page's reply:
    /// what the message then holds is small.
    pub fn take_columns(&mut self) -> PassDiffColumns {
        let take = |l: &mut SnapshotLines| (std::mem::take(&mut l.text).into_bytes(), std::mem::take(&mut l.starts));
        let (before_text, before_starts) = take(&mut self.before_lines);
        let (after_text, after_starts) = take(&mut self.after_lines);
        PassDiffColumns {
            before_text,
            before_starts,
            after_text,
            after_starts,
            kinds: std::mem::take(&mut self.kinds),
            before: std::mem::take(&mut self.before),
            after: std::mem::take(&mut self.after),
        }
    }

    /// Puts columns taken by [`PassDiffData::take_columns`] back (text bytes that are not
    /// UTF-8 are shown with U+FFFD).
    pub fn put_columns(&mut self, c: PassDiffColumns) {
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        self.before_lines.text = text(c.before_text);
        self.before_lines.starts = c.before_starts;
        self.after_lines.text = text(c.after_text);
        self.after_lines.starts = c.after_starts;
        self.kinds = c.kinds;
        self.before = c.before;
        self.after = c.after;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_lines_split_like_ir_trace() {
        let l = SnapshotLines::new("a\r\nbé\n\nc");
        assert_eq!(l.iter().collect::<Vec<_>>(), vec!["a", "bé", "", "c"]);
        assert_eq!((l.len(), l.max_chars), (4, 2));
        assert_eq!(SnapshotLines::new("x\n").iter().collect::<Vec<_>>(), vec!["x"]);
        assert_eq!(SnapshotLines::new("\n").iter().collect::<Vec<_>>(), vec![""]);
        assert!(SnapshotLines::new("").is_empty());
        assert_eq!(SnapshotLines::new("a\n\n").iter().collect::<Vec<_>>(), vec!["a", ""]);
        assert_eq!(SnapshotLines::from_lines(&["p", "q"]).get(1), Some("q"));
        assert_eq!(l.get(4), None);
    }

    #[test]
    fn columns_go_out_and_back() {
        let mut d = PassDiffData {
            before_lines: SnapshotLines::new("a\nb\n"),
            after_lines: SnapshotLines::new("a\n"),
            kinds: vec![0, 1],
            before: vec![0, 1],
            after: vec![0, -1],
            ..PassDiffData::default()
        };
        let whole = d.clone();
        let c = d.take_columns();
        assert!(d.before_lines.text.is_empty() && d.kinds.is_empty());
        assert_eq!(d.before_lines.max_chars, 1, "the width stays in the message");
        d.put_columns(c);
        assert_eq!(d, whole);
    }
}
