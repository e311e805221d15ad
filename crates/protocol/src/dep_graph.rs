//! The Task Dependency Graph's messages: a laid-out graph (header, node and edge columns
//! under the keys of [`columns`]), one node's details, and the node search.

use pypto_vocab::{EdgeMode, TaskId, Warning};
use serde::{Deserialize, Serialize};

use crate::Request;

/// Keys of the columns beside a [`DepGraphHeader`].
pub mod columns {
    /// `Float64Array` per node: centre and size in layout px.
    pub const X: &str = "x";
    pub const Y: &str = "y";
    pub const W: &str = "w";
    pub const H: &str = "h";
    /// `Uint8Array` per node: [`super::DEP_KIND_NAMES`] index.
    pub const KIND: &str = "kind";
    /// `Uint8Array` per node: bit 1 🔥, bit 2 ⭐.
    pub const MARKERS: &str = "markers";
    /// `Uint32Array` per node.
    pub const BLOCK_NUM: &str = "block_num";
    pub const NAME_INDEX: &str = "name_index";
    /// `Uint32Array` per shown edge: node indices.
    pub const PRED: &str = "pred";
    pub const SUCC: &str = "succ";
    /// `Uint32Array`, shown edges + 1 offsets into `points`.
    pub const POINT_OFFSETS: &str = "point_offsets";
    /// `Float64Array`, flat x, y.
    pub const POINTS: &str = "points";
    /// `Uint32Array` per unique edge of the full graph.
    pub const FULL_PRED: &str = "full_pred";
    pub const FULL_SUCC: &str = "full_succ";
    /// `Uint32Array` per node: the low and high 32 bits of its task id. The header's
    /// `task_ids` travel here (a typed array moves in no time; a list of 100k numbers took
    /// ~300 ms to serialise), empty in the header, put back by the page.
    pub const TASK_ID_LO: &str = "task_id_lo";
    pub const TASK_ID_HI: &str = "task_id_hi";
}

/// The task dependency graph of a runtime dataset in one edge mode, laid out top→bottom or
/// left→right. Reply: [`DepGraphHeader`] with columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepGraphRequest {
    pub dataset_id: u32,
    pub mode: EdgeMode,
    pub left_right: bool,
    /// Width / height of the canvas the graph is shown on: the worker packs the graph's
    /// disconnected components to it (0: no packing, components side by side).
    #[serde(default)]
    pub aspect: f64,
}

/// One node of the last graph: its tensor arguments and edge annotations. Reply: [`DepNodeDetails`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepNodeDetailsRequest {
    pub dataset_id: u32,
    pub node: u32,
}

/// Search the last graph's nodes: `rXtY` exactly, else function names fuzzily. Reply: [`DepSearchHits`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepSearchRequest {
    pub dataset_id: u32,
    pub query: String,
}

/// Rows of preformatted cells: `args` (index, type, tensor, dtype, shape, strides, offset),
/// `edges` (direction, peer `rXtY`, source, flags, arg, tensor, overlap), file order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepNodeDetails {
    pub dataset_id: u32,
    pub node: u32,
    pub args: Vec<Vec<String>>,
    pub edges: Vec<Vec<String>>,
}

/// Matches of a [`DepSearchRequest`], best first (at most 10 000 of `total`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepSearchHits {
    pub dataset_id: u32,
    pub query: String,
    pub nodes: Vec<u32>,
    pub total: u64,
}

crate::request!(DepGraphRequest => DepGraph(DepGraphHeader));
crate::request!(DepNodeDetailsRequest => DepNodeDetails(DepNodeDetails));
crate::request!(DepSearchRequest => DepSearch / DepSearchHits(DepSearchHits));

/// Header of a laid-out dependency graph. Columns beside it: per node `x`, `y`, `w`, `h`
/// (`Float64Array`, centre and size in layout px), `kind` (`Uint8Array`, [`DEP_KIND_NAMES`]
/// index), `markers` (`Uint8Array`, bit 1 🔥, bit 2 ⭐, runtime-formats.md §5.4), `block_num`,
/// `name_index` (`Uint32Array`, into `names`); per shown edge `pred`,
/// `succ` (node indices) and `point_offsets` (edges + 1 entries into `points`, flat x, y
/// `Float64Array`); every unique edge of the full graph `full_pred`, `full_succ`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepGraphHeader {
    pub dataset_id: u32,
    pub mode: EdgeMode,
    pub left_right: bool,
    /// Per node: its task id (on the way to the page: empty, in the `task_id_lo` / `task_id_hi`
    /// columns).
    pub task_ids: Vec<TaskId>,
    /// Distinct function names (`name_map`, else `func_<id>`; `alloc`, `dummy`).
    pub names: Vec<String>,
    /// Edges shown per mode, in [`EdgeMode::ALL`] order.
    pub mode_counts: Vec<u64>,
    pub node_count: u64,
    pub crossings: u64,
    /// Weakly-connected components of the shown edges.
    #[serde(default)]
    pub component_count: u64,
    /// Box of the component with the most nodes, `[min_x, min_y, max_x, max_y]` in layout px
    /// (the whole graph's when it is one component; zeros when empty).
    #[serde(default)]
    pub largest_component: [f64; 4],
    /// Time of the layout call in the worker (`performance.now()` around it).
    pub layout_ms: f64,
    /// Time of the one-off JIT warm-up layout run before this request's file read (0 when
    /// none ran for it; see the worker's `graph.rs`).
    pub warmup_ms: f64,
    /// deps.json's warnings (the first five) and an edge mode's fallback for a cycle; the page
    /// words them in its language.
    pub warnings: Vec<Warning>,
    /// Edges the layout drew reversed to lay out a cycle (0: none).
    #[serde(default)]
    pub reversed_edges: u64,
}

/// Node kinds of [`DepGraphHeader`]'s `kind` column.
pub const DEP_KIND_NAMES: [&str; 5] = ["AIC", "AIV", "MIX", "ALLOC", "DUMMY"];

/// Values of the `kind` column (indices into [`DEP_KIND_NAMES`]).
pub const DEP_KIND_AIC: u8 = 0;

pub const DEP_KIND_AIV: u8 = 1;

pub const DEP_KIND_MIX: u8 = 2;

pub const DEP_KIND_ALLOC: u8 = 3;

pub const DEP_KIND_DUMMY: u8 = 4;

/// Node height of the dependency graph layout, in layout units (the page's level of detail
/// compares it with the zoom).
pub const DEP_NODE_HEIGHT: f32 = 36.0;
