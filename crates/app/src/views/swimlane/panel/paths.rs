//! Shared state and swimlane links of the panel's path tabs (critical path, gap & blocker,
//! early dispatch, single-dependency chains): the worker's `PerfPaths` tables per dataset,
//! the gap-threshold check, locating a task in a given view, "draw gap / draw lead" markers,
//! chain highlighting and Esc (restores the swimlane: no path dimming, no highlight).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use leptos::prelude::*;
use pypto_protocol::perf::PerfPathsData;
use pypto_protocol::timeline::BarRef;
use pypto_protocol::{TaskId, TimelineView, ToWorker};

use super::super::{highlight, markers, with_view, PathMode, DATA};
use crate::state::AppState;
use crate::table::Cell;
use crate::worker_client;

/// The answer to the last gap-threshold check.
#[derive(Clone, Debug, PartialEq)]
pub struct ThresholdCheck {
    pub dataset_id: u32,
    pub text: String,
    /// The analysis' message for an invalid threshold.
    pub error: Option<String>,
    /// Gap rows strictly above the threshold.
    pub above: HashSet<u32>,
}

/// Reactive state of the path tabs.
#[derive(Clone, Copy)]
pub struct PathsUi {
    pub data: RwSignal<HashMap<u32, Arc<PerfPathsData>>>,
    pub requested: RwSignal<Vec<u32>>,
    /// The threshold as typed (µs).
    pub threshold_text: RwSignal<String>,
    pub threshold: RwSignal<Option<ThresholdCheck>>,
    /// The chain highlighted in the swimlane (index into the chains).
    pub chain: RwSignal<Option<usize>>,
    /// Marker ids the tabs drew last (replaced by the next drawing).
    pub drawn_markers: RwSignal<Vec<u32>>,
}

/// The threshold the gap tab starts with (µs).
pub const DEFAULT_THRESHOLD_US: &str = "1000";

impl PathsUi {
    pub fn new() -> Self {
        Self {
            data: RwSignal::new(HashMap::new()),
            requested: RwSignal::new(Vec::new()),
            threshold_text: RwSignal::new(DEFAULT_THRESHOLD_US.to_string()),
            threshold: RwSignal::new(None),
            chain: RwSignal::new(None),
            drawn_markers: RwSignal::new(Vec::new()),
        }
    }

    /// Forgets the previous folder's tables.
    pub fn reset(&self) {
        self.data.set(HashMap::new());
        self.requested.set(Vec::new());
        self.threshold.set(None);
        self.chain.set(None);
        self.drawn_markers.set(Vec::new());
        highlight::clear();
    }
}

impl Default for PathsUi {
    fn default() -> Self {
        Self::new()
    }
}

/// A `PerfPaths` reply.
pub fn on_data(state: &AppState, data: PerfPathsData) {
    let id = data.dataset_id;
    state.paths.data.update(|m| {
        m.insert(id, Arc::new(data));
    });
    // Colour the gaps with the current threshold.
    check_threshold(state, id, &state.paths.threshold_text.get_untracked());
}

/// A `GapThreshold` reply.
pub fn on_threshold(state: &AppState, dataset_id: u32, text: String, error: Option<String>, above: Vec<u32>) {
    if state.paths.threshold_text.get_untracked().trim() != text.trim() {
        return; // the user typed on; a newer answer is coming
    }
    state.paths.threshold.set(Some(ThresholdCheck { dataset_id, text, error, above: above.into_iter().collect() }));
}

/// Asks the worker whether `text` is a valid threshold and which gaps exceed it.
pub fn check_threshold(state: &AppState, dataset_id: u32, text: &str) {
    state.paths.threshold_text.set(text.to_string());
    worker_client::send(ToWorker::GapThreshold(pypto_protocol::perf::GapThresholdRequest { dataset_id, text: text.to_string() }), None);
}

/// The selected dataset's path tables (asked for once when missing); `None` while they travel.
pub fn current_paths() -> Signal<Option<Arc<PerfPathsData>>> {
    let state = expect_context::<AppState>();
    Signal::derive(move || {
        let id = state.selected.get()?;
        let found = state.paths.data.with(|m| m.get(&id).cloned());
        if found.is_none() && !state.paths.requested.with_untracked(|r| r.contains(&id)) {
            state.paths.requested.update(|r| r.push(id));
            worker_client::send(ToWorker::PerfPaths(pypto_protocol::perf::PerfPathsRequest { dataset_id: id }), None);
        }
        found
    })
}

/// The first bar (earliest start) of `task_id` in `view` of dataset `dataset_id` in the shown
/// timeline.
pub fn find_bar(dataset_id: u32, task_id: u64, view: TimelineView) -> Option<BarRef> {
    let (ring, local) = highlight::ring_local(task_id);
    DATA.with_borrow(|d| {
        let t = d.as_ref()?;
        let mut best: Option<(f64, usize)> = None;
        for g in t.header.groups.iter().filter(|g| g.view == view && g.dataset_id == dataset_id) {
            let lanes = g.tracks.iter().filter_map(|&track| t.track_lanes.get(track as usize)).flat_map(Clone::clone);
            for sub in lanes.filter_map(|l| t.lanes.get(l)) {
                let hit = (0..sub.len()).filter_map(|k| sub.global(k)).find(|&gi| t.task_of(gi) == Some((ring, local)));
                // A sub-lane is sorted by start: its first hit is its earliest.
                if let Some(gi) = hit {
                    let s = t.start_us.get(gi).copied().unwrap_or(f64::INFINITY);
                    if best.is_none_or(|(b, _)| s < b) {
                        best = Some((s, gi));
                    }
                }
            }
        }
        t.bar_ref(best?.1)
    })
}

/// Locates and selects `task` in `view`; reports what happened on the panel's status line.
/// Returns the bar.
pub fn select_in(state: &AppState, task: TaskId, view: TimelineView) -> Option<BarRef> {
    let dataset_id = state.selected.get_untracked()?;
    let label = task.to_string();
    let bar = find_bar(dataset_id, task.raw(), view);
    match bar {
        Some(bar) => {
            super::super::jump_to(bar);
            state.perf.status.set(format!("selected {label} in the {}", view.title()));
        }
        None => state.perf.status.set(format!("{label}: no bar in the {}", view.title())),
    }
    bar
}

/// Shows `[t0, t1]` (µs) with a margin, keeping the selection.
pub fn show_interval(t0: f64, t1: f64) {
    let pad = ((t1 - t0).abs() * 0.25).max(1.0);
    with_view(|r| r.set_window(t0.min(t1) - pad, t0.max(t1) + pad));
    super::super::redraw();
}

/// Replaces the markers the tabs drew last with `new` (`(t_us, label)`), returning their ids.
pub fn draw_markers(state: &AppState, new: &[(f64, String)]) {
    let old = state.paths.drawn_markers.get_untracked();
    state.swim.markers.update(|m| m.retain(|x| !old.contains(&x.id)));
    let before: HashSet<u32> = state.swim.markers.with_untracked(|m| m.iter().map(|x| x.id).collect());
    for (t, label) in new {
        markers::add(state, *t, label);
    }
    let ids = state.swim.markers.with_untracked(|m| m.iter().map(|x| x.id).filter(|id| !before.contains(id)).collect());
    state.paths.drawn_markers.set(ids);
}

/// Dims everything but `path` (static / observed critical path), clearing a chain highlight.
pub fn show_path(state: &AppState, path: PathMode) {
    highlight::clear();
    state.paths.chain.set(None);
    state.swim.settings.update(|s| s.path = path);
}

/// Esc: the swimlane shows everything again (no path dimming, no chain highlight).
pub fn restore(state: &AppState) {
    show_path(state, PathMode::None);
    state.perf.status.set("swimlane restored (Esc)".to_string());
}

/// Installs the panel's Esc handler for the life of the calling component.
pub fn esc_restores(state: &AppState) {
    let state = *state;
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.key() == "Escape" {
            restore(&state);
        }
    });
    on_cleanup(move || handle.remove());
}

/// `12.345` µs with 3 decimals, `-` when absent.
pub fn fmt_us(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"))
}

/// A count as a table cell.
pub fn count_cell(n: impl TryInto<i64>) -> Cell {
    Cell::int(n.try_into().unwrap_or(i64::MAX))
}

/// A raw task id as a cell: the exact decimal text, sorted by value (ids above 2^53 sort
/// approximately, show and export exactly).
pub fn raw_id_cell(task: TaskId) -> Cell {
    Cell { text: task.raw().to_string(), value: Some(task.raw() as f64), class: None }
}

/// A task as a cell: `rXtY`.
pub fn task_cell(task: TaskId) -> Cell {
    Cell::text(task.to_string())
}
