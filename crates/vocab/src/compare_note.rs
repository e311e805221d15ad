//! What a comparison notes for the reader, as data — two runtime captures ([`RunsNote`]: clocks
//! or levels that differ, unresolved func ids, missing name maps or critical paths) and the
//! memory of two pass dumps ([`MemoryNote`]: chips that differ, unknown or assumed) — and what
//! named a memory map's chip ([`ChipSource`]). The CLI prints the English
//! [`Display`](std::fmt::Display) text; the page words each note in its own language.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One side of a comparison: A (the baseline) or B (this run).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    A,
    B,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::A, Side::B];

    /// `A` or `B` (the same letter in every language).
    pub fn letter(self) -> &'static str {
        match self {
            Self::A => "A",
            Self::B => "B",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

/// What named the chip whose capacities a memory map uses.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChipSource {
    /// No file of the case names a chip: `Ascend910B` is assumed.
    #[default]
    Assumed,
    /// The user chose it.
    Chosen,
    /// The file at `path` names it (`ptoas/*.pto`, `kernels/*/*.pto`, `compiled_meta.json`).
    File { path: String },
}

impl fmt::Display for ChipSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Assumed => f.write_str("assumed: no ptoas/*.pto, kernels/*/*.pto or compiled_meta.json names the chip"),
            Self::Chosen => f.write_str("chosen"),
            Self::File { path } => f.write_str(path),
        }
    }
}

/// A note of the comparison of two runtime captures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunsNote {
    /// The two captures' clocks differ (Hz; 0 = none): times are compared in µs.
    ClocksDiffer { a_hz: u64, b_hz: u64 },
    /// The collection levels differ: numbers one level lacks are left empty.
    LevelsDiffer { a: u32, b: u32 },
    /// A side has no `AICore` rows.
    NoAicoreRows { side: Side },
    /// `unresolved` of a side's `rows` `AICore` rows have no resolved func id.
    UnresolvedFuncIds { side: Side, unresolved: usize, rows: usize },
    /// A side has no critical paths, and why (the analysis's words).
    NoCriticalPaths { side: Side, why: String },
    /// A side's critical path was not computed, and why (the analysis's words).
    CriticalPathNotComputed { side: Side, why: String },
    /// A side has no name map: its function names are derived from func ids.
    NoNameMap { side: Side },
    /// One side has a name map and the other not.
    NameMapOnOneSide,
    /// A function name stands for several func ids on one side.
    SharedFunctionNames,
}

impl fmt::Display for RunsNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ClocksDiffer { a_hz, b_hz } => write!(f, "the clocks differ (A {a_hz} Hz, B {b_hz} Hz): times are compared in µs"),
            Self::LevelsDiffer { a, b } => {
                write!(f, "the collection levels differ (A {a}, B {b}): numbers one level lacks are left empty")
            }
            Self::NoAicoreRows { side } => write!(f, "{side} has no AICore rows"),
            Self::UnresolvedFuncIds { side, unresolved, rows } => write!(
                f,
                "{side}: {unresolved} of {rows} AICore rows have no resolved func id (no deps.json kernel ids): they count as one function, func_-1_"
            ),
            Self::NoCriticalPaths { side, why } => write!(f, "{side}: no critical paths: {why}"),
            Self::CriticalPathNotComputed { side, why } => write!(f, "{side}: critical path not computed: {why}"),
            Self::NoNameMap { side } => {
                write!(f, "{side} has no name map: its function names are derived from func ids (func_<id>_<letters>)")
            }
            Self::NameMapOnOneSide => {
                f.write_str("one side has a name map and the other not: a named function and its unnamed counterpart are listed apart")
            }
            Self::SharedFunctionNames => f.write_str(
                "a function name stands for several func ids on one side: its k-th func id is paired with the other side's k-th",
            ),
        }
    }
}

/// A note of the memory comparison of two pass dumps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MemoryNote {
    /// The chip asked for is unknown: the limits are `chip`'s.
    UnknownChip { requested: String, chip: String },
    /// The two cases name different chips: the limits are `chip`'s.
    ChipsDiffer { a_chip: String, a_source: ChipSource, b_chip: String, b_source: ChipSource, chip: String },
    /// A side's chip is assumed (no file of its case names one).
    ChipAssumed { side: Side, source: ChipSource },
}

impl fmt::Display for MemoryNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownChip { requested, chip } => write!(f, "unknown chip {requested:?}: the limits are {chip}'s"),
            Self::ChipsDiffer { a_chip, a_source, b_chip, b_source, chip } => {
                write!(f, "A's case names {a_chip} ({a_source}), B's {b_chip} ({b_source}): the limits are {chip}'s")
            }
            Self::ChipAssumed { side, source } => write!(f, "{side}: {source}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_travel_as_data_and_print_in_english() -> Result<(), serde_json::Error> {
        let n = RunsNote::UnresolvedFuncIds { side: Side::B, unresolved: 3, rows: 10 };
        assert_eq!(serde_json::from_str::<RunsNote>(&serde_json::to_string(&n)?)?, n);
        assert!(n.to_string().starts_with("B: 3 of 10 AICore rows"));
        let m = MemoryNote::ChipsDiffer {
            a_chip: "Ascend910B".into(),
            a_source: ChipSource::File { path: "ptoas/a.pto".into() },
            b_chip: "Ascend950".into(),
            b_source: ChipSource::Chosen,
            chip: "Ascend950".into(),
        };
        assert_eq!(serde_json::from_str::<MemoryNote>(&serde_json::to_string(&m)?)?, m);
        assert_eq!(m.to_string(), "A's case names Ascend910B (ptoas/a.pto), B's Ascend950 (chosen): the limits are Ascend950's");
        assert!(MemoryNote::ChipAssumed { side: Side::A, source: ChipSource::Assumed }.to_string().starts_with("A: assumed: no ptoas"));
        Ok(())
    }
}
