//! The swimlane's messages: a timeline's header and render columns (chip captures and
//! Chrome traces alike), and the questions about its bars (details, dependency arrows,
//! search, range statistics, Perfetto export).
//!
//! Columns travel beside [`TimelineHeader`] under the keys of [`columns`].

pub use pypto_vocab::{AlignedBy, TimelineAlign};
use pypto_vocab::{TaskId, TimelineView};
use serde::{Deserialize, Serialize};

use crate::Request;

/// Keys of the render columns beside a [`TimelineHeader`] (and of a [`TraceExport`]'s bytes).
pub mod columns {
    /// `Uint32Array`, tracks + 1 offsets into the bar columns.
    pub const TRACK_OFFSETS: &str = "track_offsets";
    /// `Float64Array` per bar.
    pub const START_US: &str = "start_us";
    pub const END_US: &str = "end_us";
    /// The AICore receive time: equal to `start_us` when there is no setup.
    pub const SETUP_START_US: &str = "setup_start_us";
    /// `Uint32Array` per bar.
    pub const COLOR_KEY: &str = "color_key";
    /// Into [`super::TimelineHeader::names`].
    pub const NAME_INDEX: &str = "name_index";
    /// Sub-row within the track.
    pub const ROW: &str = "row";
    /// Bits [`super::FLAG_STATIC_PATH`] …
    pub const FLAGS: &str = "flags";
    /// Ring and local id of the bar's task (`u32::MAX` ring: none).
    pub const TASK_RING: &str = "task_ring";
    pub const TASK_LOCAL: &str = "task_local";
    /// A Perfetto export's JSON bytes (`Uint8Array`).
    pub const JSON: &str = "json";
}

/// All tracks of the chip swimlane (every view the captures hold) of one dataset, or of
/// several (a multi-rank group, compared runs: one track group per dataset and view, the
/// datasets placed on one axis by `align`; a single dataset is never shifted). Later queries
/// name the timeline by `timeline_id`. Reply: [`TimelineHeader`] with columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimelineRequest {
    pub timeline_id: u32,
    pub dataset_ids: Vec<u32>,
    /// How several datasets share the axis (default [`TimelineAlign::Auto`]).
    #[serde(default)]
    pub align: TimelineAlign,
}

/// A swimlane of a Chrome trace file (`path`, relative to the opened folder) of a dataset:
/// the serving STRACE file of a `ServingStrace` dataset, or a `merged_swimlane*.json` /
/// `CPM_*.json` of a runtime one. Reply: [`TraceTimeline`] with the same columns as a chip
/// timeline; details, search and range statistics then name it by `timeline_id`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceTimelineRequest {
    pub timeline_id: u32,
    pub dataset_id: u32,
    pub path: String,
}

/// Details of one bar (a task, phase or marker) of a timeline. Reply: [`BarDetails`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BarDetailsRequest {
    pub timeline_id: u32,
    pub bar: BarRef,
}

/// Dependency arrows around a bar: `depth` levels of predecessors and successors (0 = none,
/// -1 = all). Reply: [`Dependencies`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DependenciesRequest {
    pub timeline_id: u32,
    pub bar: BarRef,
    pub depth: i32,
}

/// Fuzzy search by function name, exact by `rXtY` / `tY` / full task id. Reply: [`SearchResults`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchRequest {
    pub timeline_id: u32,
    pub query: String,
    pub limit: u32,
}

/// Per-function statistics of the bars of `tracks` that overlap `[start_us, end_us]` (Chrome
/// traces; a chip timeline's are computed by the page from its columns). Reply: [`RangeStats`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RangeStatsRequest {
    pub timeline_id: u32,
    pub tracks: Vec<u32>,
    pub start_us: f64,
    pub end_us: f64,
}

/// Perfetto export (Chrome Trace Event JSON) of a timeline: every bar, or the bars that start
/// in `window_us` when given. Reply: [`TraceExport`] with a [`columns::JSON`] byte column.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportTraceRequest {
    pub timeline_id: u32,
    pub window_us: Option<(f64, f64)>,
}

/// A Chrome-trace timeline: the same header and columns as a chip one, plus its facts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceTimeline {
    pub header: TimelineHeader,
    pub info: TraceTimelineInfo,
}

/// Details of a bar: ordered fields, plus the bars of its SPMD group (same func + task), and
/// the task it is of (what "Show in graph" shows).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BarDetails {
    pub timeline_id: u32,
    pub bar: BarRef,
    pub title: String,
    pub fields: Vec<(String, String)>,
    pub group: Vec<BarRef>,
    #[serde(default)]
    pub task: Option<TaskId>,
}

/// Arrows around a bar.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dependencies {
    pub timeline_id: u32,
    pub bar: BarRef,
    pub depth: i32,
    pub arrows: Vec<Arrow>,
}

/// Search results, best first; `total` counts all matches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchResults {
    pub timeline_id: u32,
    pub query: String,
    pub total: u64,
    pub hits: Vec<SearchHit>,
}

/// Per-function statistics of a time range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RangeStats {
    pub timeline_id: u32,
    pub start_us: f64,
    pub end_us: f64,
    pub rows: Vec<RangeStatsRow>,
}

/// A Perfetto export: the JSON bytes travel as the [`columns::JSON`] column (a `Uint8Array`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceExport {
    pub timeline_id: u32,
    pub file_name: String,
    pub slices: u64,
    pub flows: u64,
}

crate::request!(TimelineRequest => Timeline(TimelineHeader));
crate::request!(TraceTimelineRequest => TraceTimeline(TraceTimeline));
crate::request!(BarDetailsRequest => BarDetails(BarDetails));
crate::request!(DependenciesRequest => Dependencies(Dependencies));
crate::request!(SearchRequest => Search / SearchResults(SearchResults));
crate::request!(RangeStatsRequest => RangeStats(RangeStats));
crate::request!(ExportTraceRequest => ExportTrace / TraceExport(TraceExport));

/// A bar of a timeline: its track and its index within the track's columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BarRef {
    pub track: u32,
    pub index: u32,
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
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
    /// Per dataset (in `dataset_ids` order): its shift on this timeline's axis and why. Every
    /// bar time of the columns, `first_start_us`, `last_end_us` and search hits are on the
    /// shared axis (a dataset's own µs + its `offset_us`); bar details give the dataset's own
    /// times (and a `Timeline shift` row when shifted).
    #[serde(default)]
    pub alignment: Vec<DatasetAlignment>,
    /// How the datasets are placed, for people: `aligned by clock anchors (host
    /// CLOCK_MONOTONIC)`, `aligned at first dispatch: rank1/d0 has no calibrated clock
    /// anchors`, `aligned at task r2t17`, …; empty for one dataset.
    #[serde(default)]
    pub alignment_label: String,
}

/// Where one dataset of a timeline sits on its axis.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DatasetAlignment {
    pub dataset_id: u32,
    /// Added to the dataset's own µs.
    pub offset_us: f64,
    pub aligned_by: AlignedBy,
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

/// One row of [`RangeStats`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RangeStatsRow {
    pub name: String,
    pub count: u64,
    pub total_us: f64,
    pub avg_us: f64,
    pub max_us: f64,
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
