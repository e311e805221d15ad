//! Early dispatch tab (toolkit-features.md I10): per early-dispatch target (a task whose
//! producers allow early dispatch, or that a scheduler `early_dispatch` phase staged), was it
//! dispatched before its predecessors' last FIN, and the maximum lead. A row click locates
//! and selects the task in the Scheduler View (dispatch → finish bars); "Draw lead" (or a
//! right-click on the row) places labelled markers at the first dispatch and the last
//! predecessor FIN. Esc restores the swimlane.
//!
//! Test ids: `early-note` (`data-targets`, `data-early`), `early-table`, `early-draw`.

use std::sync::Arc;

use crate::i18n::{t, tr, tr_with, Arg};
use leptos::prelude::*;
use pypto_protocol::perf::{EarlyDispatchRow, PerfPathsData};
use pypto_protocol::TimelineView;

use super::gaps::row_of_event;
use super::paths::{count_cell, draw_markers, esc_restores, raw_id_cell, show_interval, task_cell};
use super::Panel;
use crate::table::{Cell, Column, DataTable, TableData};

fn early_table(rows: &[EarlyDispatchRow]) -> TableData {
    let yes = |b: bool| tr(if b { "pa-yes" } else { "pa-no" });
    TableData {
        columns: vec![
            Column::text("task", "col-task", 84.0).tip("coltip-rxty"),
            Column::text("early", "col-before-last-fin", 110.0).tip("coltip-first-dispatch-the-latest-predecessor-fin"),
            Column::num("max_lead_us", "col-max-lead-us", 100.0).tip("coltip-last-predecessor-fin-first-dispatch"),
            Column::text("why", "col-target-because", 120.0)
                .tip("coltip-config-every-predecessor-allows-early-dispatch-phase-staged-by-a-scheduler-early-dispatch-phase"),
            Column::num("preds", "col-preds", 56.0),
            Column::num("blocks", "col-blocks", 60.0),
            Column::num("early_blocks", "col-early-blocks", 84.0),
            Column::text("last_pred", "col-last-pred", 84.0),
            Column::num("first_dispatch_us", "col-first-dispatch-us", 120.0),
            Column::num("last_fin_us", "col-last-pred-fin-us", 120.0),
            Column::num("task_id", "col-task-id", 120.0),
        ],
        rows: rows
            .iter()
            .map(|r| {
                let why = match (r.flagged, r.staged_in_phase) {
                    (true, true) => tr("pa-early-why-config-phase"),
                    (true, false) => tr("pa-early-why-config"),
                    (false, true) => tr("pa-early-why-phase"),
                    (false, false) => "-".to_owned(),
                };
                let early = Cell::text(yes(r.dispatched_early));
                vec![
                    task_cell(r.task_id),
                    if r.dispatched_early { early.class("dt-warn") } else { early },
                    Cell::num(r.max_lead_us, 3),
                    Cell::text(why),
                    count_cell(r.preds),
                    count_cell(r.blocks),
                    count_cell(r.early_blocks),
                    Cell::text(r.last_pred_task_id.map_or_else(|| "-".to_string(), |t| t.to_string())),
                    Cell::opt(r.first_dispatch_us, 3),
                    Cell::opt(r.last_pred_fin_us, 3),
                    raw_id_cell(r.task_id),
                ]
            })
            .collect(),
    }
}

/// "Draw Maximum Lead": markers at the first dispatch and the last predecessor FIN, shown in
/// the Scheduler View.
pub fn draw_lead(panel: Panel, r: &EarlyDispatchRow) {
    let (Some(a), Some(b)) = (r.lead_start_us, r.lead_end_us) else {
        let note = format!("{} was not dispatched before its predecessors' last FIN: no lead to draw", r.task_id);
        panel.select_in_noting(r.task_id, TimelineView::Scheduler, note);
        return;
    };
    let note = format!("drew the lead of {}: {:.3} µs (Scheduler View)", r.task_id, r.max_lead_us);
    panel.select_in_noting(r.task_id, TimelineView::Scheduler, note);
    let pred = r.last_pred_task_id.map(|t| t.to_string()).unwrap_or_default();
    draw_markers(
        panel,
        &[(a, format!("lead start: {} dispatched", r.task_id)), (b, format!("lead end: {pred} FIN (lead {:.3} µs)", r.max_lead_us))],
    );
    show_interval(panel, a, b);
}

#[component]
pub fn EarlyDispatchTab() -> impl IntoView {
    let panel = Panel::get();
    esc_restores(panel);
    let data = panel.paths();
    let selected = RwSignal::new(None::<usize>);
    let rows = Memo::new(move |_| data.with(|d| d.as_ref().map(Arc::clone)));
    let table = Signal::derive(move || {
        rows.with(|d: &Option<Arc<PerfPathsData>>| {
            d.as_ref().and_then(|d| d.early_dispatch.as_ref()).map(|r| early_table(r)).unwrap_or_default()
        })
    });
    let row_at = move |i: usize| rows.with_untracked(|d| d.as_ref().and_then(|d| d.early_dispatch.as_ref()?.get(i).cloned()));
    let pick = move |i: usize| {
        selected.set(Some(i));
        if let Some(r) = row_at(i) {
            panel.select_in(r.task_id, TimelineView::Scheduler);
        }
    };
    let draw = move |i: usize| {
        selected.set(Some(i));
        if let Some(r) = row_at(i) {
            draw_lead(panel, &r);
        }
    };
    let counts = move || {
        rows.with(|d| {
            d.as_ref().and_then(|d| d.early_dispatch.as_ref()).map(|r| (r.len(), r.iter().filter(|x| x.dispatched_early).count()))
        })
    };
    let note = move || {
        rows.with(|d| match d {
            None => tr("pa-computing"),
            Some(d) => match &d.early_dispatch {
                None => tr("pa-early-needs-deps"),
                Some(r) => tr_with(
                    "pa-early-note",
                    &[
                        ("targets", Arg::from(r.len())),
                        ("early", Arg::from(r.iter().filter(|x| x.dispatched_early).count())),
                        ("flagged", Arg::from(d.early_flagged_producers)),
                        ("phases", Arg::from(d.early_phase_records)),
                        ("blocks", Arg::from(d.early_phase_blocks)),
                    ],
                ),
            },
        })
    };
    view! {
        <div class="perf-tables">
            <p class="hint" data-testid="early-note"
                data-targets=move || counts().map_or(String::new(), |c| c.0.to_string())
                data-early=move || counts().map_or(String::new(), |c| c.1.to_string())>{note}</p>
            <div class="gap-controls">
                <button data-testid="early-draw" disabled=move || selected.get().is_none()
                    title=t("pa-markers-at-the-selected-row")
                    on:click=move |_| { if let Some(i) = selected.get_untracked() { draw(i); } }>{t("pa-draw-lead")}</button>
            </div>
            <div class="perf-table-slot" on:contextmenu=move |ev: web_sys::MouseEvent| {
                if let Some(i) = row_of_event(&ev) {
                    ev.prevent_default();
                    draw(i);
                }
            }>
                <DataTable data=table testid="early-table" csv_name="early_dispatch" title=t("pa-early-dispatch-targets")
                    on_row_click=Callback::new(pick) selected_row=Signal::derive(move || selected.get())/>
            </div>
        </div>
    }
}
