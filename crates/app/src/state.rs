//! The page's reactive state: worker status, the datasets of the opened folder with their
//! summaries, file errors, the selection. Big data (view columns) lives outside signals.

use leptos::prelude::*;
use pypto_protocol::datasets::{DatasetInfo, DatasetSummary, FileError};

use crate::views::swimlane::SwimlaneUi;

/// Lifecycle of the analysis worker as the page sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerState {
    Starting,
    Ready,
    /// The worker crashed and was started again.
    Restarted,
}

impl WorkerState {
    pub fn as_str(self) -> &'static str {
        match self {
            WorkerState::Starting => "starting",
            WorkerState::Ready => "ready",
            WorkerState::Restarted => "restarted",
        }
    }
}

/// Whether a folder is being loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadState {
    Idle,
    Loading,
    Done,
}

/// One dataset row of the sidebar.
#[derive(Clone, Debug, PartialEq)]
pub struct DatasetRow {
    pub info: DatasetInfo,
    pub summary: Option<DatasetSummary>,
}

/// All page state, `Copy` so components can capture it freely.
#[derive(Clone, Copy)]
pub struct AppState {
    pub worker_state: RwSignal<WorkerState>,
    pub load_state: RwSignal<LoadState>,
    pub source_label: RwSignal<String>,
    pub datasets: RwSignal<Vec<DatasetRow>>,
    pub ignored_files: RwSignal<u64>,
    /// File errors of all datasets (path, line, column, message).
    pub file_errors: RwSignal<Vec<FileError>>,
    /// Errors not tied to a file (manifest fetch failed, worker error replies).
    pub general_errors: RwSignal<Vec<String>>,
    pub crash_message: RwSignal<Option<String>>,
    pub progress: RwSignal<Option<String>>,
    pub selected: RwSignal<Option<u32>>,
    /// Bumped when a new timeline arrived (columns are in `views::swimlane`).
    pub swimlane_version: RwSignal<u64>,
    pub load_elapsed_ms: RwSignal<Option<f64>>,
    /// The chip swimlane's chrome state.
    pub swim: SwimlaneUi,
    /// The Performance Analysis panel and the Function Performance view.
    pub perf: crate::views::swimlane::panel::PerfUi,
    /// The panel's path tabs (critical path, gaps, early dispatch, chains).
    pub paths: crate::views::swimlane::panel::paths::PathsUi,
    /// The Memory Reuse view of pass dumps.
    pub memory_map: crate::views::memory_map::MemoryMapUi,
}

impl AppState {
    pub fn new() -> Self {
        Self {
            worker_state: RwSignal::new(WorkerState::Starting),
            load_state: RwSignal::new(LoadState::Idle),
            source_label: RwSignal::new(String::new()),
            datasets: RwSignal::new(Vec::new()),
            ignored_files: RwSignal::new(0),
            file_errors: RwSignal::new(Vec::new()),
            general_errors: RwSignal::new(Vec::new()),
            crash_message: RwSignal::new(None),
            progress: RwSignal::new(None),
            selected: RwSignal::new(None),
            swimlane_version: RwSignal::new(0),
            load_elapsed_ms: RwSignal::new(None),
            swim: SwimlaneUi::new(),
            perf: crate::views::swimlane::panel::PerfUi::new(),
            paths: crate::views::swimlane::panel::paths::PathsUi::new(),
            memory_map: crate::views::memory_map::MemoryMapUi::new(),
        }
    }

    /// Forget the previous folder before a new one loads.
    pub fn reset_for_open(&self, label: &str) {
        self.load_state.set(LoadState::Loading);
        self.source_label.set(label.to_string());
        self.datasets.set(Vec::new());
        self.file_errors.set(Vec::new());
        self.general_errors.set(Vec::new());
        self.selected.set(None);
        self.swim.timeline_ids.set(Vec::new());
        self.swim.reset();
        self.perf.reset();
        self.paths.reset();
        self.memory_map.reset();
        self.progress.set(None);
        self.load_elapsed_ms.set(None);
    }
}

impl Default for AppState {
    fn default() -> Self {
        Self::new()
    }
}
