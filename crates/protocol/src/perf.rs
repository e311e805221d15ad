//! The Performance Analysis panel's messages and the Function Performance table: the first
//! tabs' tables (overview, kernel statistics, setup leaderboards, per-function durations) and
//! the path tabs' (critical paths, gap & blocker, early dispatch, single-dependency chains).

use pypto_vocab::{TaskId, Warning};
use serde::{Deserialize, Serialize};

use crate::Request;

/// The panel's first tables and the Function Performance table of one runtime dataset.
/// Reply: [`PerfPanelData`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PerfPanelRequest {
    pub dataset_id: u32,
}

/// The path tabs (critical path, gap & blocker, early dispatch, single-dependency chains) of
/// one runtime dataset. Reply: [`PerfPathsData`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PerfPathsRequest {
    pub dataset_id: u32,
}

/// Checks a gap threshold (µs, as typed) and lists the gap & blocker rows above it.
/// Reply: [`GapThreshold`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GapThresholdRequest {
    pub dataset_id: u32,
    pub text: String,
}

/// A checked gap threshold: `error` (inline message) or the gap rows strictly above it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GapThreshold {
    pub dataset_id: u32,
    pub text: String,
    pub error: Option<String>,
    pub above: Vec<u32>,
}

crate::request!(PerfPanelRequest => PerfPanel(PerfPanelData));
crate::request!(PerfPathsRequest => PerfPaths(PerfPathsData));
crate::request!(GapThresholdRequest => GapThreshold(GapThreshold));

/// Overview tab of the Performance Analysis panel (analysis `perf_panel::overview` plus the
/// converter's totals and the records' level).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PerfOverview {
    /// Collection level 1..=4 and what it allows, one sentence.
    pub level: u32,
    pub level_allows: String,
    /// Joined rows (AICore executions) and distinct task ids.
    pub rows: u64,
    pub tasks: u64,
    pub first_start_us: f64,
    pub last_end_us: f64,
    /// Kernel-time span (last end − first start, setup excluded).
    pub task_time_us: f64,
    /// Σ kernel time over rows (setup excluded).
    pub aicore_time_us: f64,
    pub active_cores: u64,
    pub active_aic_cores: u64,
    pub active_aiv_cores: u64,
    pub utilisation_pct: f64,
    /// Earliest dispatch → latest finish (level ≥ 2).
    pub total_test_time_us: Option<f64>,
    /// Σ exec / Σ latency × 100 and the per-task means (level ≥ 2).
    pub exec_latency_pct: Option<f64>,
    pub avg_exec_us: Option<f64>,
    pub avg_latency_us: Option<f64>,
    /// Warnings of the readers and the model (each once; the page words them in its language).
    pub warnings: Vec<Warning>,
}

/// One row of the converter's "Task Statistics by Function" (analysis `function_stats`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelStatsRow {
    pub func_id: i64,
    pub name: String,
    pub count: u64,
    pub total_exec_us: f64,
    pub avg_exec_us: f64,
    pub max_exec_us: f64,
    pub min_exec_us: f64,
    pub avg_latency_us: Option<f64>,
    pub exec_pct: Option<f64>,
    pub avg_head_oh_us: Option<f64>,
    pub avg_tail_oh_us: Option<f64>,
    pub avg_prop_us: Option<f64>,
    pub avg_local_us: Option<f64>,
}

/// One row of the extension's Function Performance / Kernel Statistics table (setup excluded).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FunctionPerfRow {
    pub func_id: i64,
    pub name: String,
    pub count: u64,
    pub max_duration_us: f64,
    pub min_duration_us: f64,
    pub avg_duration_us: f64,
}

/// One row of a setup leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetupRow {
    pub task_id: TaskId,
    pub core_id: u32,
    pub setup_us: f64,
    pub exec_us: f64,
    /// setup / (setup + exec), 0..=1.
    pub setup_ratio: f64,
}

/// Everything the panel's first tabs and the Function Performance view show.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PerfPanelData {
    pub dataset_id: u32,
    pub overview: PerfOverview,
    pub kernel_stats: Vec<KernelStatsRow>,
    /// Σ count, Σ exec, Σ latency (level ≥ 2) of the converter's table.
    pub kernel_total_count: u64,
    pub kernel_total_exec_us: f64,
    pub kernel_total_latency_us: Option<f64>,
    pub function_perf: Vec<FunctionPerfRow>,
    pub longest_setup: Vec<SetupRow>,
    pub largest_setup_ratio: Vec<SetupRow>,
    /// Rows with a positive setup (0 when the capture has no receive time).
    pub rows_with_setup: u64,
}

/// One task of a critical path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathTaskRow {
    pub task_id: TaskId,
    pub name: String,
    pub start_us: f64,
    pub end_us: f64,
    pub dur_us: f64,
    /// Observed path: non-overlapped compute, stall before the task and its kind
    /// (`data-wait` / `core-wait` / `front-gap`).
    pub compute_us: Option<f64>,
    pub stall_us: Option<f64>,
    pub stall_kind: Option<String>,
}

/// The static or the observed critical path.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CriticalPathInfo {
    /// `CPM_static.json`-style file name or `computed`; empty when no path is known.
    pub source: String,
    pub tasks: Vec<PathTaskRow>,
    /// Σ task durations on the path and its share of the makespan.
    pub length_us: f64,
    pub makespan_pct: f64,
    /// Set when a CPM file's task set differs from the computed path.
    pub note: Option<String>,
}

/// Stall of one kind on the observed path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StallShareRow {
    pub kind: String,
    pub stall_us: f64,
    pub makespan_pct: f64,
}

/// One kernel family on the observed path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FamilyShareRow {
    pub family: String,
    pub compute_us: f64,
    pub makespan_pct: f64,
    pub stall_us: f64,
    pub on_path: u64,
}

/// One row of the gap & blocker table (an observed-path task).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GapRow {
    pub task_id: TaskId,
    pub name: String,
    pub start_us: f64,
    pub end_us: f64,
    pub gap_us: f64,
    /// The "draw gap" markers (swimlane µs axis).
    pub gap_start_us: f64,
    pub gap_end_us: f64,
    /// `same-core` | `predecessor` | `launch`.
    pub cause: String,
    pub blocker_task_id: Option<TaskId>,
    pub stall_us: f64,
}

/// One row of the early-dispatch table (a target task).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EarlyDispatchRow {
    pub task_id: TaskId,
    pub preds: u64,
    /// Matches the static early-dispatch configuration (`early_dispatch` producers).
    pub flagged: bool,
    /// A block was dispatched inside a scheduler `early_dispatch` phase.
    pub staged_in_phase: bool,
    pub blocks: u64,
    pub first_dispatch_us: Option<f64>,
    pub last_pred_task_id: Option<TaskId>,
    pub last_pred_fin_us: Option<f64>,
    pub dispatched_early: bool,
    pub early_blocks: u64,
    pub max_lead_us: f64,
    /// The "draw lead" markers (swimlane µs axis).
    pub lead_start_us: Option<f64>,
    pub lead_end_us: Option<f64>,
}

/// One continuous single-dependency chain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChainRow {
    pub task_ids: Vec<TaskId>,
    /// Σ task durations (AICore, all blocks) and first start → last end; `None` when a task
    /// has no AICore rows.
    pub exec_us: Option<f64>,
    pub start_us: Option<f64>,
    pub end_us: Option<f64>,
}

/// Everything the panel's path tabs show for one dataset.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PerfPathsData {
    pub dataset_id: u32,
    /// Why the critical path could not be computed.
    pub critical_path_error: Option<String>,
    pub makespan_us: f64,
    pub static_path: CriticalPathInfo,
    pub observed_path: CriticalPathInfo,
    pub compute_us: f64,
    pub stall_us: f64,
    pub tiling_exact: bool,
    pub stall_by_kind: Vec<StallShareRow>,
    pub families: Vec<FamilyShareRow>,
    pub gap_rows: Vec<GapRow>,
    /// `None` without `deps.json` (the analysis needs its edges).
    pub early_dispatch: Option<Vec<EarlyDispatchRow>>,
    pub early_phase_records: u64,
    pub early_phase_blocks: u64,
    pub early_flagged_producers: u64,
    /// `None` without `deps.json`.
    pub chains: Option<Vec<ChainRow>>,
    pub chains_excluded_tasks: u64,
    pub chains_compute_edges: u64,
    pub warnings: Vec<String>,
}
