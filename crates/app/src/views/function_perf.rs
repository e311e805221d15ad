//! The Function Performance view (toolkit-features.md group M), which the extension opens
//! from a `name_map*.json`: Func ID, function name, count, max/min/avg duration (µs, setup
//! excluded) per function, joined with the swimlane records beside the name map; sortable,
//! resizable, CSV. Without records beside the name map it says so. A row shows the Chip
//! Swimlane searched for the function (a `nav` command).
//!
//! Test ids: `function-perf` (the table), `function-perf-missing`.

use crate::i18n::{t, tr_with, Arg};
use leptos::prelude::*;
use pypto_protocol::{DatasetKind, FileRole, ViewKind};

use crate::analyses::{function_perf_table, Analyses};
use crate::nav::{Focus, Nav};
use crate::session::{DatasetRow, Session};
use crate::table::{DataTable, TableData};
use crate::view_spec::{no_init, nothing_docked, ViewSpec};

/// The registry's entry.
pub const SPEC: ViewSpec = ViewSpec {
    kind: ViewKind::FunctionPerformance,
    title_id: "view-function-performance",
    tooltip_id: "",
    dataset_kind: DatasetKind::Runtime,
    default: false,
    switchable: true,
    available: |row: &DatasetRow| row.has_file(FileRole::NameMap),
    init: no_init,
    component: || view! { <FunctionPerfView/> }.into_any(),
    docked: nothing_docked,
};

#[component]
pub fn FunctionPerfView() -> impl IntoView {
    let (session, nav, analyses) = (Session::get(), Nav::get(), Analyses::get());
    let row = move || nav.dataset().and_then(|id| session.row(id));
    let has_records = move || row().is_some_and(|r| r.has_records());
    let map =
        move || row().and_then(|r| r.file(FileRole::NameMap).map(|f| f.path.clone())).unwrap_or_else(|| "(no name_map*.json)".to_string());
    view! {
        <div class="function-perf-page">
            <h2>{t("fp-function-performance")}" " <span class="hint">{map}</span></h2>
            {move || if has_records() {
                let table = Signal::derive(move || {
                    nav.dataset().and_then(|id| analyses.perf(id)).map(|d| function_perf_table(&d.function_perf)).unwrap_or_default()
                });
                let on_row = Callback::new(move |r: usize| {
                    let name: Option<String> = table.with_untracked(|t: &TableData| t.rows.get(r).and_then(|row| row.get(1)).map(|c| c.text.clone()));
                    if let Some(name) = name {
                        nav.show_with(ViewKind::ChipSwimlane, Focus::Search(name));
                    }
                });
                view! {
                    <p class="hint">{t("fp-per-function-aicore-executions-start")}</p>
                    <div class="function-perf-table">
                        <DataTable data=table testid="function-perf" csv_name="function_performance" title=t("fp-functions") on_row_click=on_row/>
                    </div>
                }.into_any()
            } else {
                view! {
                    <p class="error-message" data-testid="function-perf-missing">
                        {move || tr_with("fp-no-records", &[("map", Arg::from(map()))])}
                    </p>
                }.into_any()
            }}
        </div>
    }
}
