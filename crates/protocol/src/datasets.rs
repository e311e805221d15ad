//! Opening a folder and what the worker announces about it: the entries the page walked,
//! the datasets discovery found in them, each dataset's parsed summary and file errors, and
//! the load's progress. These messages feed the page's `session`; none of them names a view.

use pypto_vocab::{DatasetKind, Feature, FileRole, Warning};
use serde::{Deserialize, Serialize};

/// A new folder: forget what was loaded, discover datasets, parse them. `files` beside the
/// message holds one `File` (or URL string) per entry. Answered by [`Datasets`], then one
/// [`DatasetLoaded`] per dataset and [`LoadFinished`] (unsolicited messages).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpenFolder {
    pub source_label: String,
    pub entries: Vec<EntryMeta>,
    /// How long a read may go without a byte before it fails, ms (`None`: the worker's
    /// default, 30 s; the page's `?stall_ms=` sets it, for tests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stall_timeout_ms: Option<u32>,
    /// Open it beside the opened folder as the comparison source (the runs to compare with),
    /// replacing an earlier comparison source, instead of forgetting what is open. Its
    /// datasets' paths are prefixed with its name and their ids start at
    /// [`COMPARISON_ID_BASE`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub as_comparison: bool,
}

/// The first dataset id of a comparison source (a folder or URL opened "as comparison"): far
/// above any folder's own ids, so both sources' ids never meet whatever order they load in.
pub const COMPARISON_ID_BASE: u32 = 1 << 20;

/// A hosted dataset (`?src=`, the bundled demo): `url` is a manifest file
/// (`…/pypto-viewer-manifest.json`) or a directory URL holding one. The worker fetches it;
/// the answers are [`OpenFolder`]'s.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpenUrl {
    pub url: String,
    /// As [`OpenFolder::stall_timeout_ms`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stall_timeout_ms: Option<u32>,
    /// As [`OpenFolder::as_comparison`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub as_comparison: bool,
}

/// Progress of the worker's long work, for the page's progress bar: `stage` says what runs,
/// `path` names the file (or the dataset, or a layout's phase), `done_bytes` of `total_bytes`
/// — bytes while a file is read (and parsed as it streams in), steps in the other stages
/// ([`ProgressStage::counts_bytes`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub path: String,
    pub done_bytes: u64,
    pub total_bytes: u64,
    #[serde(default)]
    pub stage: ProgressStage,
}

/// What long work a [`Progress`] reports. The page names the stage in its own language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProgressStage {
    /// A file read (records and deps.json are parsed while they stream in): bytes.
    #[default]
    Read,
    /// A runtime dataset's model built from its parsed files: steps.
    Model,
    /// A swimlane timeline laid out: steps.
    Timeline,
    /// The task graph laid out (`path` is the layout phase): steps.
    Layout,
    /// A big diff of two snapshots computed: steps.
    Diff,
}

impl ProgressStage {
    /// `done_bytes`/`total_bytes` count bytes (else steps).
    pub fn counts_bytes(self) -> bool {
        self == Self::Read
    }

    /// Its stable key (test ids, the catalogue's `progress-stage-<key>`).
    pub fn key(self) -> &'static str {
        match self {
            Self::Read => "read",
            Self::Model => "model",
            Self::Timeline => "timeline",
            Self::Layout => "layout",
            Self::Diff => "diff",
        }
    }
}

/// Stop the long work running (announcement, no reply): the running load jobs are
/// terminated (their memory goes back to the browser), reads in flight fail, the datasets of
/// the open still to load are left unloaded and marked [`DatasetSummary::cancelled`]; what
/// is loaded stays usable. A request whose work was stopped is answered with an error.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Cancel {}

/// What an error message of work the user cancelled ends with (the page does not list such
/// an error as a problem).
pub const CANCELLED: &str = "cancelled by the user";

/// Discovery's result for an [`OpenFolder`] / [`OpenUrl`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Datasets {
    pub source_label: String,
    pub datasets: Vec<DatasetInfo>,
    pub ignored_files: u64,
    /// These are a comparison source's datasets: they replace the previous comparison
    /// source's, beside the opened folder's (which stay).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub comparison: bool,
}

/// One dataset finished parsing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DatasetLoaded {
    pub dataset_id: u32,
    pub summary: DatasetSummary,
}

/// Every dataset of the last open is parsed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadFinished {
    pub elapsed_ms: f64,
    /// It is the comparison source's load that finished (not the folder's).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub comparison: bool,
}

/// One file found while walking the opened folder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryMeta {
    /// Path relative to the opened folder, `/`-separated, without the folder's own name.
    pub path: String,
    pub size_bytes: u64,
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
    /// What this dataset's files make possible (the sidebar lists their titles).
    pub views: Vec<Feature>,
    /// What the user loses because a sibling is missing, one sentence each.
    pub missing: Vec<String>,
    /// Informational notes (which of several candidate files was chosen, ...).
    pub notes: Vec<pypto_vocab::DiscoveryNote>,
    /// A runtime dataset's pass dumps of the same case (their `path`s), the one to open first
    /// (discovery's rule: same directory, parent, beside `dfx_outputs`; newest first).
    #[serde(default)]
    pub pass_dumps: Vec<String>,
    /// It belongs to the comparison source (opened "as comparison"), not the opened folder.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub comparison: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetFile {
    pub role: FileRole,
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
    /// The file's bytes could not be read (a stall, a network or permission error), as opposed
    /// to read and found wrong: opening the source again may help (the sidebar offers Retry).
    #[serde(default)]
    pub read_failed: bool,
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

/// What a dataset's `host_phase_records.jsonl` held and what of it is drawn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HostPhasesSummary {
    pub path: String,
    pub passes: u64,
    /// Records drawn (the rest are named by the dataset's warnings).
    pub drawn: u64,
    pub lanes: u64,
}

/// Everything known about one dataset after parsing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DatasetSummary {
    pub records: Option<RecordsSummary>,
    pub deps: Option<DepsSummary>,
    pub name_map_entries: Option<u64>,
    /// `host_phase_records.jsonl`: prepare passes read, and records drawn in the swimlane's
    /// Host Prepare lanes.
    #[serde(default)]
    pub host_phases: Option<HostPhasesSummary>,
    pub pass_dump: Option<PassDumpSummary>,
    /// A parsed serving STRACE trace.
    #[serde(default)]
    pub trace: Option<TraceSummary>,
    pub errors: Vec<FileError>,
    /// What the readers and analyses warned about, each naming its file and record — the list
    /// `pypto-viewer report` prints for the dataset.
    #[serde(default)]
    pub warnings: Vec<Warning>,
    /// The user cancelled its load ([`Cancel`]): nothing of it was kept; opening the folder
    /// again loads it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cancelled: bool,
}
