//! Messages between the viewer page (`pypto-app`) and its analysis worker (`pypto-worker`).
//!
//! The page never parses a file: it walks a folder into [`EntryMeta`]s, posts them with the
//! matching `File`s (or URLs for `?src=`), and asks the worker questions. The worker answers
//! with small serde messages ([`FromWorker`]) and, for views, with typed-array columns that
//! travel beside the message as transferred `ArrayBuffer`s (see [`WorkerViewColumns`]).
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
    /// Columns of the chip swimlane's Worker View for one dataset.
    WorkerViewColumns { dataset_id: u32 },
    /// Details of one task bar (lane and index within the lane's columns).
    TaskDetails { dataset_id: u32, lane: u32, index: u32 },
    /// Test hook for the crash-recovery path: the worker panics on purpose.
    DebugPanic,
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
    pub errors: Vec<FileError>,
}

/// One lane of the Worker View.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaneInfo {
    pub core_id: u32,
    /// `"AIC"` or `"AIV"`.
    pub core_type: String,
    /// Display label, e.g. `"AIC 0 (core 0)"`.
    pub label: String,
}

/// Header of the Worker View columns. The typed arrays travel beside it under `columns`:
/// `lane_offsets: Uint32Array` (lanes + 1 entries; lane i owns `[off[i], off[i+1])`),
/// `start_us: Float64Array`, `end_us: Float64Array` (sorted by start within a lane),
/// `color_index: Uint32Array` (function/kernel colour key per bar),
/// `name_index: Uint32Array` (index into `names`: the bar's function name).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkerViewColumns {
    pub dataset_id: u32,
    pub lanes: Vec<LaneInfo>,
    /// Distinct function display names (`func_0_a`, names from `name_map`, `task`).
    pub names: Vec<String>,
    pub bar_count: u64,
    pub first_start_us: f64,
    pub last_end_us: f64,
}

/// One task's details for the details panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskDetailsReply {
    pub dataset_id: u32,
    pub lane: u32,
    pub index: u32,
    /// Ordered (label, value) rows, values already formatted for display.
    pub fields: Vec<(String, String)>,
}

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
    /// Worker View columns (typed arrays beside the message).
    WorkerView(WorkerViewColumns),
    TaskDetails(TaskDetailsReply),
    /// A request could not be answered.
    Error { message: String },
    /// The worker panicked; the page must restart it.
    Panic { message: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_tagged_by_type() {
        let json = serde_json::to_string(&ToWorker::WorkerViewColumns { dataset_id: 3 }).unwrap_or_default();
        assert_eq!(json, r#"{"type":"worker_view_columns","dataset_id":3}"#);
        let back: FromWorker = serde_json::from_str(r#"{"type":"ready"}"#).unwrap_or(FromWorker::Error { message: String::new() });
        assert_eq!(back, FromWorker::Ready);
    }
}
