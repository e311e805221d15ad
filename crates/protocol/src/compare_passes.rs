//! The "Compiler runs" comparison's messages: two pass-dump datasets (A = the baseline, B =
//! this run) side by side — the aligned pass lists with what differs per pass, the diff of A's
//! snapshot against B's at one place (shown in the IR Pass Trace's diff view, so the reply is
//! its [`PassDiffData`]), and the memory high-water marks per function × space.

use serde::{Deserialize, Serialize};

use crate::pass_trace::{PassDiffData, SnapshotProblem};
use crate::Request;

/// The pass lists of two pass dumps aligned and compared. Reply: [`PassComparison`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PassCompareRequest {
    pub baseline_id: u32,
    pub current_id: u32,
}

/// A's snapshot (before side) diffed against B's (after side), whole file or one function
/// (`Class.method`). `a_pass` / `b_pass` are positions in each pass list, `None` =
/// `00_frontend.py` — a [`PassPairRow`]'s `a_snapshot` / `b_snapshot`. Reply: the diff view's
/// [`PassDiffData`] (`dataset_id` = `current_id`, `pass` = `b_pass`, `u32::MAX` for B's
/// frontend; `before_file` / `after_file` = `A: <file>` / `B: <file>`; no `.log`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PassCrossDiffRequest {
    pub baseline_id: u32,
    pub current_id: u32,
    pub a_pass: Option<u32>,
    pub b_pass: Option<u32>,
    pub function: Option<String>,
}

/// Per function × memory space, the high-water marks of A's and B's memory maps (each dump's
/// `*after_AllocateMemoryAddr.py`, as the Memory Reuse view maps it), with the capacities of
/// `chip` (`None`: the chip B's case names, else assumed). Reply: [`MemoryComparison`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryCompareRequest {
    pub baseline_id: u32,
    pub current_id: u32,
    pub chip: Option<String>,
}

crate::request!(PassCompareRequest => PassCompare / PassComparison(PassComparison));
crate::request!(PassCrossDiffRequest => PassCrossDiff / PassDiff(Box<PassDiffData>));
crate::request!(MemoryCompareRequest => MemoryCompare / MemoryComparison(Box<MemoryComparison>));

/// How a row of the aligned pass lists came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PassPairing {
    /// The same pass name at this place in both.
    Same,
    /// Different names paired in a changed run of the alignment (renamed or replaced).
    Renamed,
    /// Only in A (dropped in B).
    OnlyBaseline,
    /// Only in B (added in B).
    OnlyCurrent,
}

/// One side's pass of a row, as the IR Pass Trace lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassSideRow {
    /// Position in that dump's pass list (what [`PassCrossDiffRequest`] takes).
    pub position: u32,
    /// The snapshot's `NN`.
    pub index: u32,
    pub name: String,
    pub file_name: String,
    /// Lines added / removed against that dump's previous snapshot.
    pub added: u32,
    pub removed: u32,
    pub no_op: bool,
}

/// One row of the compared pass lists.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassPairRow {
    pub a: Option<PassSideRow>,
    pub b: Option<PassSideRow>,
    pub pairing: PassPairing,
    /// The pass changed the program differently in A and B: the multisets of statements its
    /// diff removed and added (whitespace, line wrapping, trailing commas and quote style
    /// normalised; statements on both sides of its diff cancelled) differ — or, for a
    /// one-sided row, the pass is not a no-op.
    pub effect_differs: bool,
    /// The snapshots compared at this row, positions in each pass list (`None` =
    /// `00_frontend.py`); for a one-sided row the other side's latest snapshot before it.
    pub a_snapshot: Option<u32>,
    pub b_snapshot: Option<u32>,
    /// Those two snapshots' texts differ.
    pub snapshots_differ: bool,
    /// Lines of B's snapshot not in A's / of A's not in B's (the cross diff's size).
    pub cross_added: u32,
    pub cross_removed: u32,
}

/// What is wrong with one of the compared dumps (as the IR Pass Trace reports it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DumpProblems {
    /// The listing's validation problems (gaps, duplicates, …).
    pub problems: Vec<String>,
    /// `file: reason` of snapshots that could not be read.
    pub unreadable: Vec<String>,
    /// What is wrong with its snapshot files (frontend first).
    pub snapshot_problems: Vec<SnapshotProblem>,
}

/// Two pass dumps' pass lists aligned by pass name, with what differs per pass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassComparison {
    pub baseline_id: u32,
    pub current_id: u32,
    pub rows: Vec<PassPairRow>,
    /// The two `00_frontend.py` differ (the programs differ before any pass) and by how much.
    pub frontends_differ: bool,
    pub frontend_cross_added: u32,
    pub frontend_cross_removed: u32,
    /// Row of the first pass whose output (snapshot) differs.
    pub first_output_difference: Option<u32>,
    /// Row of the first pass whose effect differs.
    pub first_effect_difference: Option<u32>,
    /// Rows whose snapshots differ / whose effects differ.
    pub output_differences: u32,
    pub effect_differences: u32,
    /// Rows only in A / only in B.
    pub only_baseline: u32,
    pub only_current: u32,
    pub baseline: DumpProblems,
    pub current: DumpProblems,
}

/// One function × memory space of the memory comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryCompareRow {
    pub function: String,
    pub space: String,
    /// High-water mark in A / in B; `None` where the function does not use the space (or does
    /// not exist) in that dump.
    pub a_hwm_bytes: Option<i64>,
    pub b_hwm_bytes: Option<i64>,
    /// `b_hwm_bytes − a_hwm_bytes`, an absent side counted 0.
    pub delta_bytes: i64,
    /// Capacity of the space on the comparison's chip (`None`: the chip has no such space).
    pub limit_bytes: Option<i64>,
}

/// The memory high-water marks of two dumps, per function (matched by name) × space, sorted
/// by |Δ| descending (then function, then space order).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryComparison {
    pub baseline_id: u32,
    pub current_id: u32,
    /// The snapshots mapped (empty when a dump has none).
    pub a_file: String,
    pub b_file: String,
    /// The chip whose capacities are the limits, and each dump's own (with what named it).
    pub chip: String,
    pub a_chip: String,
    pub b_chip: String,
    pub a_chip_source: pypto_vocab::ChipSource,
    pub b_chip_source: pypto_vocab::ChipSource,
    pub rows: Vec<MemoryCompareRow>,
    /// Why a dump has no map (`A: …` / `B: …`).
    pub errors: Vec<String>,
    /// What the reader should know (chips differ or assumed, …).
    pub notes: Vec<pypto_vocab::MemoryNote>,
    /// What is wrong with the two mapped snapshots.
    pub snapshot_problems: Vec<SnapshotProblem>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FromWorker;

    #[test]
    fn compare_messages_are_tagged_and_the_cross_diff_answers_as_a_pass_diff() {
        let req = PassCrossDiffRequest { baseline_id: 1, current_id: 2, a_pass: None, b_pass: Some(3), function: None };
        let json = serde_json::to_string(&req.into_message()).unwrap_or_default();
        assert_eq!(json, r#"{"type":"pass_cross_diff","baseline_id":1,"current_id":2,"a_pass":null,"b_pass":3,"function":null}"#);
        let diff = PassDiffData { dataset_id: 2, pass: 3, ..PassDiffData::default() };
        assert_eq!(PassCrossDiffRequest::reply_of(FromWorker::PassDiff(Box::new(diff.clone()))), Ok(Box::new(diff)));
        let json = serde_json::to_string(&PassCompareRequest { baseline_id: 1, current_id: 2 }.into_message()).unwrap_or_default();
        assert!(json.starts_with(r#"{"type":"pass_compare""#), "{json}");
        let json =
            serde_json::to_string(&MemoryCompareRequest { baseline_id: 1, current_id: 2, chip: None }.into_message()).unwrap_or_default();
        assert!(json.starts_with(r#"{"type":"memory_compare""#), "{json}");
        let reply = MemoryCompareRequest::reply_message(Box::default());
        assert!(serde_json::to_string(&reply).unwrap_or_default().starts_with(r#"{"type":"memory_comparison""#));
        assert_eq!(serde_json::to_string(&PassPairing::OnlyBaseline).unwrap_or_default(), r#""only_baseline""#);
    }
}
