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
    pub before_lines: Vec<String>,
    pub after_lines: Vec<String>,
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
