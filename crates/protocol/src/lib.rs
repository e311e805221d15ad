//! Messages between the viewer page (`pypto-app`) and its analysis worker (`pypto-worker`).
//!
//! The page never parses a file: it walks a folder into [`EntryMeta`]s, posts them with the
//! matching `File`s (or URLs for `?src=`), and asks the worker questions. The worker answers
//! with small serde messages ([`FromWorker`]) and, for views, with typed-array columns that
//! travel beside the message as transferred `ArrayBuffer`s (see [`TimelineHeader`]).
//!
//! Transport convention (both directions): a JS object `{ msg, files?, columns? }` where `msg`
//! is the serde value of [`ToWorker`] / [`FromWorker`], `files` (page → worker) is an array of
//! `File` or URL strings in the same order as the entries, and `columns` (worker → page) is an
//! object of named typed arrays whose buffers are in the transfer list.

use serde::{Deserialize, Serialize};

/// One file found while walking the opened folder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryMeta {
    /// Path relative to the opened folder, `/`-separated, without the folder's own name.
    pub path: String,
    pub size_bytes: u64,
}

/// Page → worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToWorker {
    /// A new folder: forget what was loaded, discover datasets, parse them.
    /// `files` beside the message holds one `File` (or URL string) per entry.
    OpenFolder { source_label: String, entries: Vec<EntryMeta> },
    /// A hosted dataset (`?src=`, the bundled demo): `url` is a manifest file
    /// (`…/pypto-viewer-manifest.json`) or a directory URL holding one. The worker fetches it.
    OpenUrl { url: String },
    /// All tracks of the chip swimlane (every view the captures hold) of one dataset, or of
    /// several (a multi-rank group: one track group per rank and view). Later queries name
    /// the timeline by `timeline_id`. Reply: [`FromWorker::Timeline`] with columns.
    Timeline { timeline_id: u32, dataset_ids: Vec<u32> },
    /// Details of one bar (a task, phase or marker) of a timeline.
    BarDetails { timeline_id: u32, bar: BarRef },
    /// Dependency arrows around a bar: `depth` levels of predecessors and successors
    /// (0 = none, -1 = all). Reply: [`FromWorker::Dependencies`].
    Dependencies { timeline_id: u32, bar: BarRef, depth: i32 },
    /// Fuzzy search by function name, exact by `rXtY` / `tY` / full task id.
    Search { timeline_id: u32, query: String, limit: u32 },
    /// Per-function statistics of the bars of `tracks` that overlap `[start_us, end_us]`.
    RangeStats { timeline_id: u32, tracks: Vec<u32>, start_us: f64, end_us: f64 },
    /// Perfetto export (Chrome Trace Event JSON) of a timeline: every bar, or the bars that
    /// start in `window_us` when given. Reply: [`FromWorker::TraceExport`] with a `json`
    /// byte column.
    ExportTrace { timeline_id: u32, window_us: Option<(f64, f64)> },
    /// The Performance Analysis panel's tables (overview, kernel statistics, setup) and the
    /// Function Performance table of one runtime dataset. Reply: [`FromWorker::PerfPanel`].
    PerfPanel { dataset_id: u32 },
    /// A swimlane of a Chrome trace file (`path`, relative to the opened folder) of a dataset:
    /// the serving STRACE file of a `ServingStrace` dataset, or a `merged_swimlane*.json` /
    /// `CPM_*.json` of a runtime one. Reply: [`FromWorker::TraceTimeline`] with the same
    /// columns as [`FromWorker::Timeline`]; `BarDetails`, `Search` and `RangeStats` then name
    /// it by `timeline_id`.
    TraceTimeline { timeline_id: u32, dataset_id: u32, path: String },
    /// The path tabs of the Performance Analysis panel (critical path, gap & blocker, early
    /// dispatch, single-dependency chains) of one runtime dataset. Reply:
    /// [`FromWorker::PerfPaths`].
    PerfPaths { dataset_id: u32 },
    /// Checks a gap threshold (µs, as typed) and lists the gap & blocker rows above it.
    /// Reply: [`FromWorker::GapThreshold`].
    GapThreshold { dataset_id: u32, text: String },
    /// The IR Pass Trace's pass list of a pass-dump dataset. Reply: [`FromWorker::PassList`].
    PassList { dataset_id: u32 },
    /// The diff of pass `pass` (position in the pass list) against the snapshot before it,
    /// restricted to one function (`Class.method` key) when given. Reply: [`FromWorker::PassDiff`].
    PassDiff { dataset_id: u32, pass: u32, function: Option<String> },
    /// The memory reuse map of one snapshot of a pass-dump dataset (`file`: its name in the
    /// dump; `None` = the `*after_AllocateMemoryAddr.py` one), with the capacities of `chip`
    /// (`Ascend910B` / `Ascend950`; `None` = detected from the case, else assumed).
    /// Reply: [`FromWorker::MemoryMap`].
    MemoryMap { dataset_id: u32, file: Option<String>, chip: Option<String> },
    /// Test hook for the crash-recovery path: the worker panics on purpose.
    DebugPanic,
    /// The task dependency graph of a runtime dataset in one edge mode (`full`, `reduced`,
    /// `omitted`, `reduced_dataflow`, `omitted_dataflow`), laid out top→bottom or left→right.
    DepGraph { request_id: u32, dataset_id: u32, mode: String, left_right: bool },
    /// One node of the last `DepGraph`: its tensor arguments and edge annotations.
    DepNodeDetails { dataset_id: u32, node: u32 },
    /// Search the last `DepGraph`'s nodes: `rXtY` exactly, else function names fuzzily.
    /// Reply: [`FromWorker::DepSearchHits`].
    DepSearch { dataset_id: u32, query: String },
}

/// A bar of a timeline: its track and its index within the track's columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BarRef {
    pub track: u32,
    pub index: u32,
}

/// The views of the chip swimlane (runtime-formats.md §6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimelineView {
    /// AICore lanes (AIC/AIV) plus `AICPU_N` lanes with dummy / predicated-skip / alloc bars.
    Worker,
    /// Dispatch → finish per task, per core.
    Scheduler,
    /// Scheduler phases per `Sched_N` thread (outer phases, `resolve` sub-lane, drain nesting).
    AicpuScheduler,
    /// Orchestrator submits (AICPU or host) and host → device uploads.
    Orchestrator,
    /// A process of a Chrome trace (serving STRACE, `merged_swimlane*.json`, any trace).
    Trace,
}

impl TimelineView {
    pub const ALL: [TimelineView; 5] = [Self::Worker, Self::Scheduler, Self::AicpuScheduler, Self::Orchestrator, Self::Trace];

    pub fn title(self) -> &'static str {
        match self {
            Self::Worker => "Worker View",
            Self::Scheduler => "Scheduler View",
            Self::AicpuScheduler => "AICPU Scheduler",
            Self::Orchestrator => "Orchestrator",
            Self::Trace => "Trace",
        }
    }
}

/// One track (lane) of a timeline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrackInfo {
    /// Lane label as the reference names it (`AIC_0`, `AIV_12`, `AICPU_3`, `Sched_0`, `H2D`, ...).
    pub label: String,
    pub view: TimelineView,
    /// Index of the track's group in [`TimelineHeader::groups`].
    pub group: u32,
    /// Sub-rows of the track (nested phases, e.g. drain sub-phases or `resolve`): bars carry
    /// their row in the `row` column; 1 for flat tracks.
    pub rows: u32,
    /// `"AIC"` / `"AIV"` for AICore lanes.
    pub core_type: Option<String>,
}

/// A collapsible group of tracks: one view of one dataset (rank).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrackGroupInfo {
    /// E.g. `"Worker View"`, or `"rank0/d0 · Worker View"` in a multi-rank timeline.
    pub label: String,
    pub view: TimelineView,
    pub dataset_id: u32,
    /// Track indices of this group, in display order.
    pub tracks: Vec<u32>,
}

/// A view the capture cannot show, and why (e.g. level 1 has no scheduler timing).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbsentView {
    pub view: TimelineView,
    pub dataset_id: u32,
    pub reason: String,
}

/// One legend entry: a colour key and what it stands for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegendEntry {
    pub color_key: u32,
    pub name: String,
    pub bars: u64,
}

/// Header of a timeline. Columns travel beside it (transferred), one entry per bar, bars of
/// track `t` at `[track_offsets[t], track_offsets[t+1])`. The chip timeline lays a track out
/// row by row, each row sorted by start (the page draws each row straight from the columns);
/// the STRACE timeline sorts a track by start, rows interleaved:
/// `track_offsets: Uint32Array` (tracks + 1), `start_us`, `end_us`, `setup_start_us`
/// (`Float64Array`; the AICore receive time — equal to `start_us` when there is no setup),
/// `color_key`, `name_index` (into `names`), `row` (sub-row within the track), `flags`
/// (`Uint32Array`, bits [`FLAG_STATIC_PATH`] ...).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimelineHeader {
    pub timeline_id: u32,
    pub dataset_ids: Vec<u32>,
    pub groups: Vec<TrackGroupInfo>,
    pub tracks: Vec<TrackInfo>,
    /// Bar names (function names for tasks, phase names for phases).
    pub names: Vec<String>,
    pub legend: Vec<LegendEntry>,
    pub absent: Vec<AbsentView>,
    pub bar_count: u64,
    pub first_start_us: f64,
    pub last_end_us: f64,
    /// Whether a static / observed critical path is known (read from `CPM_*.json` or computed).
    pub has_static_path: bool,
    pub has_observed_path: bool,
    /// Where the paths came from (`"CPM_static.json"`, `"computed"`).
    pub path_source: String,
    pub warnings: Vec<String>,
}

/// Bar flag: the bar's task is on the static critical path.
pub const FLAG_STATIC_PATH: u32 = 1;
/// Bar flag: the bar's task is on the observed critical path.
pub const FLAG_OBSERVED_PATH: u32 = 2;
/// Bar flag: an instant marker (dummy task, predicated skip): drawn with a minimum width.
pub const FLAG_MARKER: u32 = 4;
/// Bar flag: the bar belongs to an SPMD task (several blocks share func + task id).
pub const FLAG_SPMD: u32 = 8;
/// Bar flag: the bar is a task (has details, dependencies); phases and envelopes do not.
pub const FLAG_TASK: u32 = 16;

/// One dependency arrow between two bars.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Arrow {
    pub from: BarRef,
    pub to: BarRef,
    /// The successor started before the predecessor ended (`hb_violation`).
    pub violation: bool,
}

/// A search hit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchHit {
    pub bar: BarRef,
    pub label: String,
    pub start_us: f64,
}

/// One row of [`FromWorker::RangeStats`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RangeStatsRow {
    pub name: String,
    pub count: u64,
    pub total_us: f64,
    pub avg_us: f64,
    pub max_us: f64,
}

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
    /// Warnings of the readers and the model.
    pub warnings: Vec<String>,
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

/// One row of a setup leaderboard. `task_id` is the decimal u64 (ids can exceed 2^53).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetupRow {
    pub task_id: String,
    /// `rXtY` form.
    pub task_label: String,
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

/// Count and total/average/minimum/maximum duration of a set of spans (µs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DurationRow {
    /// What the row is about: a worker process, a `device N` lane, `all`.
    pub scope: String,
    /// Span (or stage) name.
    pub name: String,
    pub count: u64,
    pub total_us: f64,
    pub avg_us: f64,
    pub min_us: f64,
    pub max_us: f64,
}

/// The serving STRACE statistics panel (toolkit-features.md K7).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StraceStatsReply {
    /// Latest end minus earliest start over all timed events.
    pub total_duration_us: f64,
    pub span_count: u64,
    pub instant_count: u64,
    /// Per serving worker process: one `all WorkerProcess.*` row, then one per span name.
    pub workers: Vec<DurationRow>,
    /// Per `WorkerProcess.*` span name over all workers.
    pub worker_span_names: Vec<DurationRow>,
    /// Per `device N` lane: the invocation root bars, then one row per stage.
    pub device_lanes: Vec<DurationRow>,
    /// Per span name over the serving processes (not the device lanes).
    pub span_names: Vec<DurationRow>,
    /// `scheduler.wait_worker_output` spans of every process.
    pub wait_worker_output: DurationRow,
}

/// What the page needs beside a Chrome-trace timeline's header.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceTimelineInfo {
    pub timeline_id: u32,
    pub dataset_id: u32,
    /// The trace file, relative to the opened folder.
    pub path: String,
    /// Opened in the serving STRACE mode (a `*strace-swimlane*.json`).
    pub serving_strace: bool,
    /// Tracks of controller / main threads of serving processes (the "fold main threads"
    /// targets).
    pub controller_tracks: Vec<u32>,
    /// Per track: the row holding its instants, if any (a folded track keeps it).
    pub instant_rows: Vec<Option<u32>>,
    pub spans: u64,
    pub instants: u64,
    /// Timed events not drawn (counters, flows, …).
    pub not_drawn: u64,
    /// The STRACE statistics (serving STRACE mode only).
    pub stats: Option<StraceStatsReply>,
}

/// Facts of a parsed Chrome trace file (serving STRACE datasets).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceSummary {
    pub path: String,
    pub processes: u32,
    pub lanes: u32,
    pub spans: u64,
    pub instants: u64,
    pub span_us: f64,
}

/// One task of a critical path (task ids are decimal u64 strings, labels `rXtY`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathTaskRow {
    pub task_id: String,
    pub label: String,
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
    pub task_id: String,
    pub label: String,
    pub name: String,
    pub start_us: f64,
    pub end_us: f64,
    pub gap_us: f64,
    /// The "draw gap" markers (swimlane µs axis).
    pub gap_start_us: f64,
    pub gap_end_us: f64,
    /// `same-core` | `predecessor` | `launch`.
    pub cause: String,
    pub blocker_task_id: Option<String>,
    pub blocker_label: Option<String>,
    pub stall_us: f64,
}

/// One row of the early-dispatch table (a target task).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EarlyDispatchRow {
    pub task_id: String,
    pub label: String,
    pub preds: u64,
    /// Matches the static early-dispatch configuration (`early_dispatch` producers).
    pub flagged: bool,
    /// A block was dispatched inside a scheduler `early_dispatch` phase.
    pub staged_in_phase: bool,
    pub blocks: u64,
    pub first_dispatch_us: Option<f64>,
    pub last_pred_task_id: Option<String>,
    pub last_pred_label: Option<String>,
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
    pub task_ids: Vec<String>,
    pub labels: Vec<String>,
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

/// What a dataset is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DatasetKind {
    /// A directory of runtime DFX records (swimlane records, deps.json, name maps, traces).
    Runtime,
    /// A `passes_dump*` directory of compiler snapshots.
    PassDump,
    /// A serving STRACE swimlane (Chrome trace JSON).
    ServingStrace,
}

/// One dataset as discovery found it, before parsing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DatasetInfo {
    pub dataset_id: u32,
    pub kind: DatasetKind,
    /// Directory (or file for STRACE) relative to the opened folder; `""` for the root.
    pub path: String,
    /// Parent grouping for multi-rank trees (`dfx_outputs` for `dfx_outputs/rank0/d0`).
    pub group: Option<String>,
    /// Files of this dataset by role, relative to the opened folder.
    pub files: Vec<DatasetFile>,
    /// Views this dataset enables, by name (`"Worker View"`, `"Task Dependency Graph"`, ...).
    pub views: Vec<String>,
    /// What the user loses because a sibling is missing, one sentence each.
    pub missing: Vec<String>,
    /// Informational notes (which of several candidate files was chosen, ...).
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetFile {
    pub role: String,
    pub path: String,
    pub size_bytes: u64,
}

/// A file that could not be read or parsed: shown to the user, the rest still loads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileError {
    pub path: String,
    /// 1-based line and column of the problem when known (0 when not applicable).
    pub line: u64,
    pub column: u64,
    pub message: String,
}

/// Facts of a parsed chip swimlane records file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordsSummary {
    pub path: String,
    /// Collection level 1..=4 (`chip_swimlane_level` and its older names).
    pub level: u32,
    /// Which key or shape carried the level (`chip_swimlane_level`, `version`, ...).
    pub format: String,
    pub clock_freq_hz: u64,
    pub num_cores: u32,
    /// Joined tasks (`AICore` rows matched with scheduler rows; all `AICore` rows at level 1).
    pub task_count: u64,
    pub aicore_rows: u64,
    pub first_start_us: f64,
    pub last_end_us: f64,
    pub span_us: f64,
    pub scheduler_threads: u32,
    pub warnings: Vec<String>,
}

/// Facts of a parsed deps.json.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepsSummary {
    pub path: String,
    pub tasks: u64,
    pub edges: u64,
    pub tensors: u64,
}

/// Facts of a pass dump directory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassDumpSummary {
    /// Snapshots after passes (not counting `00_frontend.py`).
    pub pass_count: u32,
    pub has_frontend: bool,
    /// Validation problems (`ir_trace` rules); empty when valid.
    pub problems: Vec<String>,
}

/// Everything known about one dataset after parsing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DatasetSummary {
    pub records: Option<RecordsSummary>,
    pub deps: Option<DepsSummary>,
    pub name_map_entries: Option<u64>,
    pub pass_dump: Option<PassDumpSummary>,
    /// A parsed serving STRACE trace.
    #[serde(default)]
    pub trace: Option<TraceSummary>,
    pub errors: Vec<FileError>,
}

/// Header of a laid-out dependency graph. Columns beside it: per node `x`, `y`, `w`, `h`
/// (`Float64Array`, centre and size in layout px), `kind` (`Uint8Array`, [`DEP_KIND_NAMES`]
/// index), `markers` (`Uint8Array`, bit 1 🔥, bit 2 ⭐, runtime-formats.md §5.4), `block_num`,
/// `name_index` (`Uint32Array`, into `names`); per shown edge `pred`,
/// `succ` (node indices) and `point_offsets` (edges + 1 entries into `points`, flat x, y
/// `Float64Array`); every unique edge of the full graph `full_pred`, `full_succ`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepGraphHeader {
    pub request_id: u32,
    pub dataset_id: u32,
    pub mode: String,
    pub left_right: bool,
    /// Per node: `rXtY` (ring X, local task id Y).
    pub task_ids: Vec<String>,
    /// Distinct function names (`name_map`, else `func_<id>`; `alloc`, `dummy`).
    pub names: Vec<String>,
    /// Edges shown per mode, in [`DEP_MODE_NAMES`] order.
    pub mode_counts: Vec<u64>,
    pub node_count: u64,
    pub crossings: u64,
    /// Time of the layout call in the worker (`performance.now()` around it).
    pub layout_ms: f64,
    /// Time of the one-off JIT warm-up layout run before this request's file read (0 when
    /// none ran for it; see the worker's `graph.rs`).
    pub warmup_ms: f64,
    pub warnings: Vec<String>,
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
/// Edge modes in button / number-key order.
pub const DEP_MODE_NAMES: [&str; 5] = ["full", "reduced", "omitted", "reduced_dataflow", "omitted_dataflow"];

/// Worker → page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromWorker {
    /// The worker's wasm is initialised and listening.
    Ready,
    /// Reading progress of one file, for large files.
    Progress { path: String, done_bytes: u64, total_bytes: u64 },
    /// Discovery result for an `OpenFolder`.
    Datasets { source_label: String, datasets: Vec<DatasetInfo>, ignored_files: u64 },
    /// One dataset finished parsing.
    DatasetLoaded { dataset_id: u32, summary: DatasetSummary },
    /// All datasets of the last `OpenFolder` are parsed.
    LoadFinished { elapsed_ms: f64 },
    /// Timeline columns (typed arrays beside the message).
    Timeline(TimelineHeader),
    /// A Chrome-trace timeline: the same header and columns as `Timeline`, plus its facts.
    TraceTimeline { header: TimelineHeader, info: TraceTimelineInfo },
    /// Details of a bar: ordered fields, plus the bars of its SPMD group (same func + task).
    BarDetails { timeline_id: u32, bar: BarRef, title: String, fields: Vec<(String, String)>, group: Vec<BarRef> },
    /// Arrows around a bar.
    Dependencies { timeline_id: u32, bar: BarRef, depth: i32, arrows: Vec<Arrow> },
    /// Search results, best first; `total` counts all matches.
    SearchResults { timeline_id: u32, query: String, total: u64, hits: Vec<SearchHit> },
    /// Per-function statistics of a time range.
    RangeStats { timeline_id: u32, start_us: f64, end_us: f64, rows: Vec<RangeStatsRow> },
    /// A Perfetto export: the JSON bytes travel as the `json` column (a `Uint8Array`).
    TraceExport { timeline_id: u32, file_name: String, slices: u64, flows: u64 },
    /// The Performance Analysis panel's tables of a dataset.
    PerfPanel(PerfPanelData),
    /// The path tabs of the Performance Analysis panel.
    PerfPaths(PerfPathsData),
    /// A checked gap threshold: `error` (inline message) or the gap rows strictly above it.
    GapThreshold { dataset_id: u32, text: String, error: Option<String>, above: Vec<u32> },
    /// The IR Pass Trace's pass list.
    PassList(PassListData),
    /// One pass's diff.
    PassDiff(Box<PassDiffData>),
    /// A snapshot's memory reuse map (or why there is none).
    MemoryMap(Box<MemoryMapData>),
    /// A laid-out task dependency graph (typed arrays beside the message, see [`DepGraphHeader`]).
    DepGraph(DepGraphHeader),
    /// Rows of preformatted cells: `args` (index, type, tensor, dtype, shape, strides, offset),
    /// `edges` (direction, peer `rXtY`, source, flags, arg, tensor, overlap), file order.
    DepNodeDetails { dataset_id: u32, node: u32, args: Vec<Vec<String>>, edges: Vec<Vec<String>> },
    /// Matches of a `DepSearch`, best first (at most 10 000 of `total`).
    DepSearchHits { dataset_id: u32, query: String, nodes: Vec<u32>, total: u64 },
    /// A request could not be answered.
    Error { message: String },
    /// The worker panicked; the page must restart it.
    Panic { message: String },
}

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
}

/// The pass list of a pass-dump dataset (validation problems listed, the valid part shown).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassListData {
    pub dataset_id: u32,
    pub passes: Vec<PassRow>,
    pub problems: Vec<String>,
    /// `file: reason` of snapshots that could not be read.
    pub unreadable: Vec<String>,
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
    pub chip_source: String,
    /// Chips a selector offers.
    pub chips: Vec<String>,
    /// Snapshots of the dump a selector offers (file names, pass order).
    pub snapshots: Vec<String>,
    /// Spaces present in any function, in panel order.
    pub spaces: Vec<String>,
    pub functions: Vec<MemFunctionMap>,
    /// Why there is no map: names the file (and line when known).
    pub error: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_tagged_by_type() {
        let json = serde_json::to_string(&ToWorker::PerfPanel { dataset_id: 3 }).unwrap_or_default();
        assert_eq!(json, r#"{"type":"perf_panel","dataset_id":3}"#);
        let back: FromWorker = serde_json::from_str(r#"{"type":"ready"}"#).unwrap_or(FromWorker::Error { message: String::new() });
        assert_eq!(back, FromWorker::Ready);
    }
}
