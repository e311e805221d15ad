//! The Memory Reuse view's message: one snapshot's memory map (per function and memory
//! space: boxes, reserved windows, ring tiles, totals) with a chip's capacities.

use serde::{Deserialize, Serialize};

use crate::pass_trace::SnapshotProblem;
use crate::Request;

/// The memory reuse map of one snapshot of a pass-dump dataset (`file`: its name in the dump;
/// `None` = the `*after_AllocateMemoryAddr.py` one), with the capacities of `chip`
/// (`Ascend910B` / `Ascend950`; `None` = detected from the case, else assumed).
/// Reply: [`MemoryMapData`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryMapRequest {
    pub dataset_id: u32,
    pub file: Option<String>,
    pub chip: Option<String>,
}

crate::request!(MemoryMapRequest => MemoryMap(Box<MemoryMapData>));

/// Per-space totals of one function's memory map.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MemSpaceRow {
    pub space: String,
    /// High-water mark: `max(offset + size)` over the space's boxes.
    pub hwm_bytes: i64,
    /// Chip capacity of the space (the hwm when the chip has no such space).
    pub limit_bytes: i64,
    /// Whether `limit_bytes` is a chip capacity (false: the chip has no such space).
    pub has_capacity: bool,
    /// Most bytes live on one line (views not counted twice).
    pub peak_live_bytes: i64,
    pub boxes: u32,
    pub bases: u32,
}

/// One rectangle of a memory map: alias tiles sharing a slot while live.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MemBoxRow {
    pub name: String,
    pub aliases: Vec<String>,
    pub space: String,
    pub base: String,
    pub offset_bytes: i64,
    pub size_bytes: i64,
    pub shape: Vec<i64>,
    pub dtype: String,
    /// Producer op (`tile.load`), `param` for a parameter.
    pub op: String,
    /// Live range, 1-based dump lines, inclusive.
    pub start_line: u32,
    pub end_line: u32,
    /// A narrower box on the same base overlapping another (drawn dashed).
    pub view: bool,
    /// Overlaps a box of another base in bytes while both are live (drawn red).
    pub conflict: bool,
    /// Defining statements of its names: `(first, last)` dump lines.
    pub defined: Vec<(u32, u32)>,
    /// Lines reading any of its names, ascending.
    pub used: Vec<u32>,
}

/// One compute function's map and source.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MemFunctionMap {
    pub name: String,
    /// `AIC`, `AIV` or `InCore`.
    pub ftype: String,
    /// The function's first (decorator) and last dump lines, 1-based.
    pub src_start: u32,
    pub src_end: u32,
    /// Lines `src_start..=src_end` of the dump.
    pub source: Vec<String>,
    pub spaces: Vec<MemSpaceRow>,
    pub boxes: Vec<MemBoxRow>,
    /// `pl.system.reserve_buffer` windows (cross-core pipe rings): drawn hatched, not boxes.
    #[serde(default)]
    pub reserved: Vec<MemReservedRow>,
    /// Tiles popped from the other core without a `MemRef` (they live in a ring).
    #[serde(default)]
    pub ring_tiles: Vec<MemRingTileRow>,
}

/// A reserved window of a function's memory map (compiler-formats.md §3.1).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MemReservedRow {
    pub name: String,
    pub space: String,
    /// How the space was decided (`tpop tiles`, `name (c2v)`, `function type AIV`).
    pub space_from: String,
    /// `None` before `AllocateMemoryAddr` assigns it.
    pub base_bytes: Option<i64>,
    pub size_bytes: i64,
    /// Dump line of the `reserve_buffer` statement.
    pub line: u32,
}

/// A tile popped with `tpop_from_aic` / `tpop_from_aiv` that has no `MemRef`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MemRingTileRow {
    pub name: String,
    pub space: String,
    pub shape: Vec<i64>,
    pub dtype: String,
    pub op: String,
    pub line: u32,
}

/// The memory reuse map of one snapshot (`error` set when it has none).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MemoryMapData {
    pub dataset_id: u32,
    /// The snapshot's file name in the dump.
    pub file: String,
    pub pass_name: String,
    /// Chip whose capacities are used (`Ascend910B`), its arch (`a2a3`), whether it was
    /// determined (else assumed) and from where (`ptoas/x.pto`, `compiled_meta.json`, `chosen`).
    pub chip: String,
    pub arch: String,
    pub chip_detected: bool,
    pub chip_source: pypto_vocab::ChipSource,
    /// Chips a selector offers.
    pub chips: Vec<String>,
    /// Snapshots of the dump a selector offers (file names, pass order).
    pub snapshots: Vec<String>,
    /// Spaces present in any function, in panel order.
    pub spaces: Vec<String>,
    pub functions: Vec<MemFunctionMap>,
    /// Why there is no map: names the file (and line when known).
    pub error: Option<String>,
    /// What is wrong with the snapshot (as the IR Pass Trace marks it: undecodable bytes, what
    /// Python would reject, a cut): the map, if any, is of the text as read.
    pub snapshot_problems: Vec<SnapshotProblem>,
}
