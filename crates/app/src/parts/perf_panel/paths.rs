//! Shared pieces of the panel's path tabs (critical path, gap & blocker, early dispatch,
//! single-dependency chains): the gap-threshold check, "draw gap / draw lead" markers, the
//! critical-path mode, showing an interval and Esc (restores the swimlane: no path dimming, no
//! highlight) — all `nav` commands — and the tables' cell helpers.

use std::collections::HashSet;

use leptos::prelude::*;
use pypto_protocol::perf::GapThresholdRequest;
use pypto_protocol::TaskId;

use super::Panel;
use crate::nav::PathMode;
use crate::table::Cell;

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

/// The threshold the gap tab starts with (µs).
pub const DEFAULT_THRESHOLD_US: &str = "1000";

/// Asks the worker whether `text` is a valid threshold and which gaps exceed it.
pub fn check_threshold(panel: Panel, dataset_id: u32, text: &str) {
    panel.threshold_text.set(text.to_string());
    let request = GapThresholdRequest { dataset_id, text: text.to_string() };
    let reply = panel.client.ask_in(panel.threshold_slot, request);
    leptos::task::spawn_local(async move {
        let Ok(reply) = reply.await else { return };
        let above = reply.above.into_iter().collect();
        panel.threshold.set(Some(ThresholdCheck { dataset_id: reply.dataset_id, text: reply.text, error: reply.error, above }));
    });
}

/// Shows `[t0, t1]` (µs) in the swimlane with a margin, keeping the selection.
pub fn show_interval(panel: Panel, t0: f64, t1: f64) {
    let pad = ((t1 - t0).abs() * 0.25).max(1.0);
    panel.nav.show_window(t0.min(t1) - pad, t0.max(t1) + pad);
}

/// Replaces the markers the tabs drew last with `new` (`(t_us, label)`).
pub fn draw_markers(panel: Panel, new: &[(f64, String)]) {
    let nav = panel.nav;
    let old = panel.drawn_markers.get_untracked();
    nav.markers.update(|m| m.retain(|x| !old.contains(&x.id)));
    let ids = new.iter().map(|(t, label)| nav.add_marker(*t, label)).collect();
    panel.drawn_markers.set(ids);
}

/// Dims everything but `path` (static / observed critical path), clearing a chain highlight.
pub fn show_path(panel: Panel, path: PathMode) {
    panel.nav.highlight.set(None);
    panel.nav.swimlane.update(|s| s.path = path);
}

/// Esc: the swimlane shows everything again (no path dimming, no chain highlight).
pub fn restore(panel: Panel) {
    show_path(panel, PathMode::None);
    panel.status.set("swimlane restored (Esc)".to_string());
}

/// Installs the panel's Esc handler for the life of the calling component.
pub fn esc_restores(panel: Panel) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.key() == "Escape" {
            restore(panel);
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
