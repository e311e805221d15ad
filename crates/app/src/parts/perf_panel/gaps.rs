//! Gap and blocker tab (toolkit-features.md I9): every task on the observed critical path
//! with its preceding gap, the cause (same-core task, awaited predecessor, or launch for the
//! head) and the blocker. A threshold (µs, checked by the worker with the analysis' own rule;
//! an invalid one gets an inline message) colours the gaps above it. A row click locates and
//! selects the task; "Draw gap" (or a right-click on the row) places two labelled markers at
//! the gap's ends and shows the interval. Esc restores the swimlane.
//!
//! Test ids: `gap-threshold`, `gap-threshold-error`, `gap-above` (`data-count`), `gap-table`,
//! `gap-draw`.

use std::sync::Arc;

use crate::i18n::{t, tr, tr_with, Arg};
use leptos::prelude::*;
use pypto_protocol::perf::{GapRow, PerfPathsData};
use pypto_protocol::TimelineView;
use wasm_bindgen::JsCast;

use super::paths::{check_threshold, count_cell, draw_markers, esc_restores, raw_id_cell, show_interval, task_cell};
use super::Panel;
use crate::table::{Cell, Column, DataTable, TableData};

/// A gap's cause (the worker's key: `same-core`, `predecessor`, `launch`) in the page language.
fn cause_text(cause: &str) -> String {
    match cause {
        "same-core" => tr("pa-cause-same-core"),
        "predecessor" => tr("pa-cause-predecessor"),
        "launch" => tr("pa-cause-launch"),
        other => other.to_owned(),
    }
}

fn gap_table(rows: &[GapRow], above: Option<&std::collections::HashSet<u32>>) -> TableData {
    TableData {
        columns: vec![
            Column::num("pos", "col-n", 40.0),
            Column::text("task", "col-task", 84.0).tip("coltip-rxty"),
            Column::text("name", "col-kernel", 110.0),
            Column::num("gap_us", "col-gap-us", 96.0).tip("coltip-blocker-release-task-start-red-above-the-threshold"),
            Column::text("cause", "col-cause", 96.0)
                .tip("coltip-same-core-another-task-held-the-core-predecessor-waited-for-a-data-predecessor-launch-path-head"),
            Column::text("blocker", "col-blocker", 84.0),
            Column::num("start_us", "col-start-us", 100.0),
            Column::num("stall_us", "col-stall-us", 90.0).tip("coltip-the-report-s-tiling-stall-gap"),
            Column::num("task_id", "col-task-id", 120.0),
        ],
        rows: rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let gap = Cell::num(r.gap_us, 3);
                let hot = above.is_some_and(|a| a.contains(&(i as u32)));
                vec![
                    count_cell(i),
                    task_cell(r.task_id),
                    Cell::text(r.name.clone()),
                    if hot { gap.class("dt-warn") } else { gap },
                    Cell::text(cause_text(&r.cause)),
                    Cell::text(r.blocker_task_id.map_or_else(|| "-".to_string(), |t| t.to_string())),
                    Cell::num(r.start_us, 3),
                    Cell::num(r.stall_us, 3),
                    raw_id_cell(r.task_id),
                ]
            })
            .collect(),
    }
}

/// "Draw Preceding Gap": markers at the blocker's release and at the task's start.
pub fn draw_gap(panel: Panel, r: &GapRow) {
    let label = r.task_id;
    panel.select_in_noting(label, TimelineView::Worker, format!("drew the gap before {label}: {:.3} µs", r.gap_us));
    let from = match r.blocker_task_id {
        Some(b) => format!("gap start: {b} releases {label}"),
        None => format!("gap start: capture start (before {label})"),
    };
    let to = format!("gap end: {label} starts (Δ {:.3} µs, {})", r.gap_us, r.cause);
    draw_markers(panel, &[(r.gap_start_us, from), (r.gap_end_us, to)]);
    show_interval(panel, r.gap_start_us, r.end_us);
}

/// The row index of a right-clicked table row (`data-row` of the closest row element).
pub fn row_of_event(ev: &web_sys::MouseEvent) -> Option<usize> {
    let el = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let row = el.closest("[data-row]").ok().flatten()?;
    row.get_attribute("data-row")?.parse().ok()
}

#[component]
pub fn GapsTab() -> impl IntoView {
    let panel = Panel::get();
    esc_restores(panel);
    let data = panel.paths();
    let selected = RwSignal::new(None::<usize>);
    let check = Memo::new(move |_| {
        let id = panel.nav.dataset()?;
        panel.threshold.get().filter(|c| c.dataset_id == id)
    });
    // The tables arrived (or another dataset's): colour the gaps with the threshold as typed.
    Effect::new(move |_| {
        if data.with(Option::is_some) {
            if let Some(id) = panel.nav.dataset() {
                check_threshold(panel, id, &panel.threshold_text.get_untracked());
            }
        }
    });
    let rows = Memo::new(move |_| data.with(|d| d.as_ref().map(Arc::clone)));
    let table = Signal::derive(move || {
        let above = check.with(|c| c.as_ref().filter(|c| c.error.is_none()).map(|c| c.above.clone()));
        rows.with(|d: &Option<Arc<PerfPathsData>>| d.as_ref().map(|d| gap_table(&d.gap_rows, above.as_ref())).unwrap_or_default())
    });
    let row_at = move |i: usize| rows.with_untracked(|d| d.as_ref().and_then(|d| d.gap_rows.get(i).cloned()));
    let pick = move |i: usize| {
        selected.set(Some(i));
        if let Some(r) = row_at(i) {
            panel.select_in(r.task_id, TimelineView::Worker);
        }
    };
    let draw = move |i: usize| {
        selected.set(Some(i));
        if let Some(r) = row_at(i) {
            draw_gap(panel, &r);
        }
    };
    let on_input = move |ev: web_sys::Event| {
        let text = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).map(|i| i.value()).unwrap_or_default();
        if let Some(id) = panel.nav.datasets.with_untracked(|d| d.first().copied()) {
            check_threshold(panel, id, &text);
        }
    };
    let note = move || {
        data.with(|d| match d {
            None => tr("pa-computing"),
            Some(d) if d.critical_path_error.is_some() => d.critical_path_error.clone().unwrap_or_default(),
            Some(d) => tr_with("pa-gaps-note", &[("count", Arg::from(d.gap_rows.len())), ("source", Arg::from(&d.observed_path.source))]),
        })
    };
    let above_count = move || check.with(|c| c.as_ref().filter(|c| c.error.is_none()).map_or(0, |c| c.above.len()));
    view! {
        <div class="perf-tables">
            <p class="hint" data-testid="gap-note">{note}</p>
            <div class="gap-controls">
                <label>{t("pa-gap-threshold-s")}" "
                    <input data-testid="gap-threshold" class="gap-threshold" type="text" inputmode="decimal"
                        prop:value=move || panel.threshold_text.get() on:input=on_input/>
                </label>
                <span class="hint" data-testid="gap-above" data-count=move || above_count().to_string()>
                    " "{move || tr_with("pa-gaps-above", &[("count", Arg::from(above_count()))])}</span>
                <button data-testid="gap-draw" disabled=move || selected.get().is_none()
                    title=t("pa-markers-at-the-selected-row-2")
                    on:click=move |_| { if let Some(i) = selected.get_untracked() { draw(i); } }>{t("pa-draw-gap")}</button>
            </div>
            {move || check.with(|c| c.as_ref().and_then(|c| c.error.clone())).map(|e| view! {
                <p class="inline-error" data-testid="gap-threshold-error" role="alert">{e}</p>
            })}
            <div class="perf-table-slot" on:contextmenu=move |ev: web_sys::MouseEvent| {
                if let Some(i) = row_of_event(&ev) {
                    ev.prevent_default();
                    draw(i);
                }
            }>
                <DataTable data=table testid="gap-table" csv_name="gap_blocker" title=t("pa-gap-and-blocker-observed-path")
                    on_row_click=Callback::new(pick) selected_row=Signal::derive(move || selected.get())/>
            </div>
        </div>
    }
}
