//! The swimlane in Chrome-trace mode (the `TraceSwimlane` view, `nav`'s trace path): a serving
//! STRACE file (`*strace-swimlane*.json`, toolkit-features.md K) or any other Chrome trace of
//! the folder (`merged_swimlane*.json`, `CPM_*.json`) drawn by the chip swimlane's renderer
//! from the worker's trace timeline columns (one group per process, one lane per thread,
//! nested spans on sub-rows, instants as ticks on the last row).
//!
//! What this mode adds: per-lane folding (the ▸/▾ in the
//! gutter, or "Fold main threads" for every controller / main thread of the serving
//! processes): a folded lane keeps its first row and its instants, every other lane of the
//! process — the child lanes — stays; it is a live re-layout, no reload (K4, K5); and the
//! STRACE statistics panel (total duration; per serving worker process and `WorkerProcess.*`
//! span: count, avg/max/min; per `device N` lane; K7). The chip-only controls (labels by task
//! id, critical path, dependency depth, setup) are hidden by the toolbar in this mode (K6).

use crate::i18n::{t, tr, tr_with, Arg};
use leptos::prelude::*;
use pypto_protocol::timeline::DurationRow;
use pypto_protocol::ViewKind;
use pypto_render::axis;
use wasm_bindgen::prelude::*;

use super::{SwimlaneRenderer, SwimlaneUi};
use crate::browser;
use crate::nav::Nav;

/// Whether the swimlane shows a Chrome trace.
pub fn is_trace_mode(nav: Nav) -> bool {
    nav.view.get() == Some(ViewKind::TraceSwimlane)
}

/// A new timeline is shown: nothing folded (until nav's lanes are applied); the instant rows
/// from the trace facts.
pub(super) fn on_new_data(r: &mut SwimlaneRenderer) {
    let tracks = r.data.as_ref().map_or(0, |d| d.header.tracks.len());
    r.folded = vec![false; tracks];
    let id = r.data.as_ref().map(|d| d.header.timeline_id);
    r.instant_rows =
        r.ui.trace.with_untracked(|t| t.as_ref().filter(|i| Some(i.timeline_id) == id).map(|i| i.instant_rows.clone())).unwrap_or_default();
}

impl SwimlaneRenderer {
    /// The row a bar of sub-row `row` of `track` is drawn on: itself, or — on a folded
    /// track — row 0 for the first row and the instants, `None` (hidden) for nested rows.
    pub(super) fn drawn_row(&self, track: usize, row: u32) -> Option<u32> {
        if !self.folded.get(track).copied().unwrap_or(false) {
            return Some(row);
        }
        (row == 0 || self.instant_rows.get(track).copied().flatten() == Some(row)).then_some(0)
    }

    /// Folds or unfolds one lane (only lanes with more than one row fold).
    pub(super) fn toggle_fold(&mut self, track: usize) {
        let rows = self.data.as_ref().and_then(|d| d.header.tracks.get(track)).map_or(1, |t| t.rows);
        if rows <= 1 {
            return;
        }
        if let Some(f) = self.folded.get_mut(track) {
            *f = !*f;
        }
        self.relayout();
        self.report_lanes();
    }

    fn set_folded(&mut self, tracks: &[u32], fold: bool) {
        for &t in tracks {
            if let Some(f) = self.folded.get_mut(t as usize) {
                *f = fold;
            }
        }
        self.relayout();
        self.report_lanes();
    }
}

/// Folds (or unfolds) every controller / main thread lane of the shown trace.
pub fn fold_controllers(ui: SwimlaneUi, fold: bool) {
    let tracks = ui.trace.with_untracked(|t| t.as_ref().map(|i| i.controller_tracks.clone())).unwrap_or_default();
    if let Some(lane) = super::export::mounted(ui) {
        lane.with(|r| r.set_folded(&tracks, fold));
        lane.redraw();
    }
}

fn folded_js(ui: SwimlaneUi) -> JsValue {
    super::export::mounted(ui)
        .and_then(|lane| {
            lane.with(|r| {
                let out = js_sys::Array::new();
                for (t, &f) in r.folded.iter().enumerate() {
                    if f {
                        out.push(&JsValue::from(t as u32));
                    }
                }
                JsValue::from(out)
            })
        })
        .unwrap_or(JsValue::NULL)
}

/// Page rectangle of a laid-out track `{x, y, w, h}` (the gutter label's row band), or null.
fn track_rect_js(ui: SwimlaneUi, track: u32) -> JsValue {
    super::export::mounted(ui)
        .and_then(|lane| {
            lane.with(|r| {
                let data = r.data.as_ref()?;
                let top = r.track_top(track as usize)?;
                let h = super::layout::track_height(data, track as usize, &r.folded);
                let rect = r.container.get_bounding_client_rect();
                let o = js_sys::Object::new();
                for (k, v) in [("x", rect.left()), ("y", rect.top() + top), ("w", r.css_width), ("h", h)] {
                    let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), &JsValue::from_f64(v));
                }
                Some(JsValue::from(o))
            })
        })
        .flatten()
        .unwrap_or(JsValue::NULL)
}

/// Adds `folded()` (folded track indices) and `trackRect(track)` to the automation API.
pub(super) fn install_api(ui: SwimlaneUi, api: &js_sys::Object) {
    let f = Closure::<dyn Fn() -> JsValue>::new(move || folded_js(ui));
    let _ = js_sys::Reflect::set(api, &JsValue::from_str("folded"), &f.into_js_value());
    let f = Closure::<dyn Fn(u32) -> JsValue>::new(move |t| track_rect_js(ui, t));
    let _ = js_sys::Reflect::set(api, &JsValue::from_str("trackRect"), &f.into_js_value());
}

/// The toolbar controls of the trace mode.
#[component]
pub fn TraceControls() -> impl IntoView {
    let (swim, nav) = (SwimlaneUi::get(), Nav::get());
    // Folded: every controller lane is (nav's lanes, so a link's folding shows here too).
    let folded = move || {
        let controllers = swim.trace.with(|t| t.as_ref().map(|i| i.controller_tracks.clone())).unwrap_or_default();
        !controllers.is_empty() && nav.lanes.with(|l| controllers.iter().all(|t| l.folded.contains(t)))
    };
    let has_controllers = move || swim.trace.with(|t| t.as_ref().is_some_and(|i| !i.controller_tracks.is_empty()));
    let is_strace = move || swim.trace.with(|t| t.as_ref().is_some_and(|i| i.serving_strace));
    view! {
        <button id="fold-controllers" disabled=move || !has_controllers()
            title=t("sw-fold-the-controller-main-thread")
            on:click=move |_| {
                fold_controllers(swim, !folded());
            }>{move || if folded() { tr("sw-unfold-main-threads") } else { tr("sw-fold-main-threads") }}</button>
        <Show when=is_strace>
            <button id="trace-stats-toggle" on:click=move |_| swim.show_trace_stats.update(|v| *v = !*v)>{t("sw-statistics")}</button>
        </Show>
        <span class="trace-facts">{move || swim.trace.with(|t| t.as_ref().map(|i| {
            let not_drawn = if i.not_drawn > 0 { format!(" · {}", tr_with("sw-trace-not-drawn", &[("count", Arg::from(i.not_drawn))])) } else { String::new() };
            let file = i.path.rsplit('/').next().unwrap_or(&i.path);
            let facts = tr_with("sw-trace-facts", &[("file", Arg::from(file)), ("spans", Arg::from(i.spans)), ("instants", Arg::from(i.instants))]);
            format!("{facts}{not_drawn}")
        }))}</span>
    }
}

fn us(v: f64) -> String {
    format!("{v:.3}")
}

/// One statistics table as CSV (full scope and span names, µs with 3 decimals), CRLF ends.
fn stat_csv(rows: &[DurationRow], first_col: &str) -> String {
    use crate::table::csv_field;
    use std::fmt::Write as _;
    let mut out = format!("{},span,count,avg_us,max_us,min_us,total_us\r\n", csv_field(first_col));
    for r in rows {
        let _ = write!(
            out,
            "{},{},{},{},{},{},{}\r\n",
            csv_field(&r.scope),
            csv_field(&r.name),
            r.count,
            us(r.avg_us),
            us(r.max_us),
            us(r.min_us),
            us(r.total_us)
        );
    }
    out
}

/// The STRACE statistics' tables: their class (test hook, CSV name) and first column.
#[derive(Clone, Copy)]
enum StatTable {
    Workers,
    Devices,
    WorkerSpans,
    Wait,
    SpanNames,
}

impl StatTable {
    fn class(self) -> &'static str {
        match self {
            Self::Workers => "workers",
            Self::Devices => "devices",
            Self::WorkerSpans => "worker-spans",
            Self::Wait => "wait",
            Self::SpanNames => "span-names",
        }
    }

    /// The first column's heading, in the page language.
    fn first_column(self) -> String {
        match self {
            Self::Workers => tr("sw-col-worker-process"),
            Self::Devices => tr("sw-col-lane"),
            Self::WorkerSpans | Self::Wait | Self::SpanNames => tr("sw-col-scope"),
        }
    }
}

fn stat_rows(rows: Vec<DurationRow>, table: StatTable) -> impl IntoView {
    let (first_col, class) = (table.first_column(), table.class());
    let csv = stat_csv(&rows, &first_col);
    let download = move |_| browser::download_text(&format!("strace-{class}.csv"), "text/csv;charset=utf-8", &format!("\u{feff}{csv}"));
    view! {
        <button class="trace-stats-csv" data-table=class title=t("sw-download-this-table-as-csv") on:click=download>"CSV"</button>
        <table class=format!("details trace-stats {class}")>
            <tr><th>{first_col}</th><th>{t("sw-span")}</th><th>{t("sw-count")}</th><th>{t("sw-avg-s")}</th><th>{t("sw-max-s")}</th><th>{t("sw-min-s")}</th><th>{t("sw-total-s")}</th></tr>
            {rows.into_iter().scan(String::new(), |last, r| {
                // The scope once per block, span names without the `WorkerProcess.` prefix: the
                // numbers fit the panel; the data-* attributes keep the full texts.
                let scope = if *last == r.scope { String::new() } else { r.scope.clone() };
                last.clone_from(&r.scope);
                let name = r.name.strip_prefix("WorkerProcess.").map_or_else(|| r.name.clone(), |s| format!("…{s}"));
                Some(view! {
                    <tr class="stat-row" data-scope=r.scope data-name=r.name data-count=r.count.to_string()
                        data-avg-us=us(r.avg_us) data-max-us=us(r.max_us) data-min-us=us(r.min_us)>
                        <td>{scope}</td><td>{name}</td><td>{r.count}</td><td>{us(r.avg_us)}</td><td>{us(r.max_us)}</td><td>{us(r.min_us)}</td><td>{us(r.total_us)}</td>
                    </tr>
                })
            }).collect_view()}
        </table>
    }
}

/// The STRACE statistics panel (beside the swimlane, serving STRACE mode only).
#[component]
pub fn TraceStatsPanel() -> impl IntoView {
    let swim = SwimlaneUi::get();
    move || {
        if !swim.show_trace_stats.get() {
            return None;
        }
        let numbers = swim.trace.with(|t| t.as_ref().and_then(|i| i.stats.clone()))?;
        let wait = numbers.wait_worker_output.clone();
        Some(view! {
            <aside id="trace-stats" class="trace-stats-panel" aria-label=t("sw-serving-strace-statistics") data-total-us=us(numbers.total_duration_us)
                data-spans=numbers.span_count.to_string() data-instants=numbers.instant_count.to_string()>
                <div class="trace-stats-head">
                    <h2 class="panel-title">{t("sw-serving-strace-statistics")}</h2>
                    <button class="close" title=t("sw-close") on:click=move |_| swim.show_trace_stats.set(false)>"✕"</button>
                </div>
                <p class="fact">{tr_with("sw-trace-total", &[("duration", Arg::from(axis::format_duration_us(numbers.total_duration_us))), ("spans", Arg::from(numbers.span_count)), ("instants", Arg::from(numbers.instant_count))])}</p>
                <h3>{t("sw-workerprocess")}</h3>
                {if numbers.workers.is_empty() { Some(view! { <p class="hint">{t("sw-no-serving-worker-process-in")}</p> }) } else { None }}
                {stat_rows(numbers.workers, StatTable::Workers)}
                <h3>{t("sw-device-lanes")}</h3>
                {stat_rows(numbers.device_lanes, StatTable::Devices)}
                <h3>{t("sw-all-workers-per-span")}</h3>
                {stat_rows(numbers.worker_span_names, StatTable::WorkerSpans)}
                <h3>{wait.name.clone()}</h3>
                {stat_rows(vec![wait], StatTable::Wait)}
                <h3>{t("sw-serving-spans-by-name")}</h3>
                {stat_rows(numbers.span_names, StatTable::SpanNames)}
            </aside>
        })
    }
}
