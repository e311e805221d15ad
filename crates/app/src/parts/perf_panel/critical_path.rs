//! Critical-path tab (toolkit-features.md H, I8): choose the static or the observed path —
//! read from the capture's `CPM_*.json` when present, computed otherwise, and the tab says
//! which — and the swimlane keeps the path's bars and dims the rest (Esc restores). Shows the
//! path's length and makespan share, the observed path's compute / stall tiling, stall by
//! kind and kernel families, and the path's tasks (a row locates and selects its task).
//!
//! Test ids: `cp-choose-{none,static,observed}`, `cp-source`, `cp-summary` (with
//! `data-tasks`, `data-length-us`, `data-makespan-pct`), `cp-stall`, `cp-families`,
//! `cp-tasks`.

use std::fmt::Write as _;

use crate::i18n::{t, tr, tr_with, Arg};
use leptos::prelude::*;
use pypto_protocol::perf::{CriticalPathInfo, FamilyShareRow, PerfPathsData, StallShareRow};
use pypto_protocol::TimelineView;

use super::paths::{count_cell, esc_restores, fmt_us, raw_id_cell, show_path, task_cell};
use super::Panel;
use crate::nav::PathMode;
use crate::table::{Cell, Column, DataTable, TableData};

/// Where the static or observed path came from, in the page language.
fn source_text(path: PathMode, p: &CriticalPathInfo) -> String {
    let (kind, cpm) = if path == PathMode::Static {
        (tr("pa-cp-kind-static"), "CPM_static*.json")
    } else {
        (tr("pa-cp-kind-observed"), "CPM_observed*.json")
    };
    match p.source.as_str() {
        "" => tr_with("pa-cp-source-unknown", &[("kind", Arg::from(kind))]),
        "computed" => tr_with("pa-cp-source-computed", &[("kind", Arg::from(kind)), ("file", Arg::from(cpm))]),
        file => tr_with("pa-cp-source-file", &[("kind", Arg::from(kind)), ("file", Arg::from(file))]),
    }
}

fn tasks_table(p: &CriticalPathInfo, observed: bool) -> TableData {
    let mut columns = vec![
        Column::num("pos", "col-n", 44.0),
        Column::text("task", "col-task", 90.0).tip("coltip-rxty"),
        Column::text("name", "col-kernel", 130.0),
        Column::num("start_us", "col-start-us", 100.0),
        Column::num("dur_us", "col-task-us", 90.0).tip("coltip-first-block-start-last-block-end"),
    ];
    if observed {
        columns.push(Column::num("compute_us", "col-compute-us", 100.0).tip("coltip-non-overlapped-compute-on-the-path"));
        columns.push(Column::num("stall_us", "col-stall-us", 90.0).tip("coltip-runtime-scheduling-stall-before-the-task"));
        columns.push(Column::text("kind", "col-stall-kind", 90.0));
    }
    columns.push(Column::num("task_id", "col-task-id", 120.0));
    let rows = p
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut row =
                vec![count_cell(i), task_cell(t.task_id), Cell::text(t.name.clone()), Cell::num(t.start_us, 3), Cell::num(t.dur_us, 3)];
            if observed {
                row.push(Cell::opt(t.compute_us, 3));
                row.push(Cell::opt(t.stall_us, 3));
                let kind = if t.stall_us.unwrap_or(0.0) > 0.0 { t.stall_kind.clone().unwrap_or_default() } else { String::new() };
                row.push(Cell::text(kind));
            }
            row.push(raw_id_cell(t.task_id));
            row
        })
        .collect();
    TableData { columns, rows }
}

fn stall_table(rows: &[StallShareRow]) -> TableData {
    TableData {
        columns: vec![
            Column::text("kind", "col-stall-kind", 110.0)
                .tip("coltip-data-wait-upstream-producer-core-wait-core-busy-front-gap-launch-delay"),
            Column::num("stall_us", "col-stall-us", 110.0),
            Column::num("pct", "col-pct-makespan", 100.0),
        ],
        rows: rows.iter().map(|s| vec![Cell::text(s.kind.clone()), Cell::num(s.stall_us, 3), Cell::num(s.makespan_pct, 2)]).collect(),
    }
}

fn families_table(rows: &[FamilyShareRow]) -> TableData {
    TableData {
        columns: vec![
            Column::text("family", "col-kernel-family", 150.0),
            Column::num("compute_us", "col-compute-us", 110.0),
            Column::num("pct", "col-pct-makespan", 100.0),
            Column::num("stall_us", "col-stall-us", 100.0),
            Column::num("on_path", "col-n-on-path", 80.0),
        ],
        rows: rows
            .iter()
            .map(|f| {
                vec![
                    Cell::text(f.family.clone()),
                    Cell::num(f.compute_us, 3),
                    Cell::num(f.makespan_pct, 2),
                    Cell::num(f.stall_us, 3),
                    count_cell(f.on_path),
                ]
            })
            .collect(),
    }
}

fn summary(d: &PerfPathsData, path: PathMode) -> (String, String, String, String) {
    let p = if path == PathMode::Static { &d.static_path } else { &d.observed_path };
    let mut text = tr_with(
        "pa-cp-summary",
        &[
            ("tasks", Arg::from(p.tasks.len())),
            ("length", Arg::from(fmt_us(Some(p.length_us)))),
            ("pct", Arg::from(format!("{:.2}", p.makespan_pct))),
            ("makespan", Arg::from(fmt_us(Some(d.makespan_us)))),
        ],
    );
    if path == PathMode::Observed {
        let pct = |v: f64| if d.makespan_us > 0.0 { v / d.makespan_us * 100.0 } else { 0.0 };
        let tiling = tr_with(
            "pa-cp-summary-observed",
            &[
                ("compute", Arg::from(fmt_us(Some(d.compute_us)))),
                ("compute_pct", Arg::from(format!("{:.1}", pct(d.compute_us)))),
                ("stall", Arg::from(fmt_us(Some(d.stall_us)))),
                ("stall_pct", Arg::from(format!("{:.1}", pct(d.stall_us)))),
            ],
        );
        let _ = write!(text, " · {tiling}{}", if d.tiling_exact { format!(" {}", tr("pa-cp-exact-tiling")) } else { String::new() });
    }
    (text, p.tasks.len().to_string(), format!("{:.3}", p.length_us), format!("{:.4}", p.makespan_pct))
}

#[component]
pub fn CriticalPathTab() -> impl IntoView {
    let panel = Panel::get();
    esc_restores(panel);
    let data = panel.paths();
    let mode = Memo::new(move |_| panel.nav.swimlane.with(|s| s.path));
    // The path whose tables are shown: the dimmed one, else the observed path.
    let shown = Memo::new(move |_| if mode.get() == PathMode::Static { PathMode::Static } else { PathMode::Observed });
    let task_rows = Memo::new(move |_| {
        data.with(|d| d.as_ref().map(|d| if shown.get() == PathMode::Static { d.static_path.clone() } else { d.observed_path.clone() }))
    });
    let tasks = Signal::derive(move || {
        task_rows.with(|p| p.as_ref().map(|p| tasks_table(p, shown.get() == PathMode::Observed)).unwrap_or_default())
    });
    let stall = Signal::derive(move || data.with(|d| d.as_ref().map(|d| stall_table(&d.stall_by_kind)).unwrap_or_default()));
    let families = Signal::derive(move || data.with(|d| d.as_ref().map(|d| families_table(&d.families)).unwrap_or_default()));
    let pick = move |r: usize| {
        if let Some(id) = task_rows.with_untracked(|p| p.as_ref().and_then(|p| p.tasks.get(r).map(|t| t.task_id))) {
            panel.select_in(id, TimelineView::Worker);
        }
    };
    let choose = move |path: PathMode| show_path(panel, path);
    let button = move |id: &'static str, title: fn() -> String, path: PathMode, enabled: Box<dyn Fn() -> bool + Send + Sync>| {
        view! {
            <button data-testid=id class="cp-choose" class:active=move || mode.get() == path disabled=move || !enabled()
                on:click=move |_| choose(path)>{title}</button>
        }
    };
    let has = move |f: fn(&PerfPathsData) -> bool| move || data.with(|d| d.as_ref().is_some_and(|d| f(d)));
    view! {
        <div class="perf-tables">
            {move || data.with(|d| match d {
                None => view! { <p class="hint">{t("pa-computing")}</p> }.into_any(),
                Some(d) => match &d.critical_path_error {
                    Some(e) => view! { <p class="hint dt-warn" data-testid="cp-error">{e.clone()}</p> }.into_any(),
                    None => view! {
                        <p class="hint" data-testid="cp-source">{source_text(PathMode::Static, &d.static_path)}<br/>{source_text(PathMode::Observed, &d.observed_path)}</p>
                        {[d.static_path.note.clone(), d.observed_path.note.clone()].into_iter().flatten().map(|n| view! { <p class="hint dt-warn">{n}</p> }).collect_view()}
                    }.into_any(),
                },
            })}
            <div class="cp-choice">
                {t("pa-swimlane")}" "
                {button("cp-choose-none", || tr("pa-cp-everything"), PathMode::None, Box::new(|| true))}
                {button("cp-choose-static", || tr("pa-cp-static-path"), PathMode::Static, Box::new(has(|d| !d.static_path.tasks.is_empty())))}
                {button("cp-choose-observed", || tr("pa-cp-observed-path"), PathMode::Observed, Box::new(has(|d| !d.observed_path.tasks.is_empty())))}
                <span class="hint">" "{t("pa-off-path-bars-dimmed-esc")}</span>
            </div>
            {move || data.with(|d| d.as_ref().filter(|d| d.critical_path_error.is_none()).map(|d| {
                let (text, n, len, pct) = summary(d, shown.get());
                let which = if shown.get() == PathMode::Static { "static" } else { "observed" };
                view! { <p class="hint" data-testid="cp-summary" data-path=which data-tasks=n data-length-us=len data-makespan-pct=pct>
                    <strong>{if which == "static" { tr("pa-cp-static-path-label") } else { tr("pa-cp-observed-path-label") }}" "</strong>{text}</p> }
            }))}
            <div class="perf-table-slot">
                <DataTable data=tasks testid="cp-tasks" csv_name="critical_path_tasks" title=t("pa-path-tasks") on_row_click=Callback::new(pick)/>
            </div>
            <div class="cp-small">
                <div class="perf-table-slot"><DataTable data=stall testid="cp-stall" csv_name="critical_path_stall_by_kind" title=t("pa-observed-stall-by-kind")/></div>
                <div class="perf-table-slot"><DataTable data=families testid="cp-families" csv_name="critical_path_kernel_families" title=t("pa-observed-path-by-kernel-family")/></div>
            </div>
        </div>
    }
}
