//! The Function Performance view (toolkit-features.md group M), which the extension opens
//! from a `name_map*.json`: Func ID, function name, count, max/min/avg duration (µs, setup
//! excluded) per function, joined with the swimlane records beside the name map; sortable,
//! resizable, CSV. Without records beside the name map it says so. A row switches to the
//! Chip Swimlane and runs its search for the function.
//!
//! Also the view switcher above a runtime dataset's view (`Chip Swimlane | Function
//! Performance`), shown when the dataset has a name map. Test ids: `view-switch-swimlane`,
//! `view-switch-function-perf`, `function-perf` (the table), `function-perf-missing`.

use leptos::prelude::*;
use pypto_protocol::FileRole;

use crate::state::AppState;
use crate::table::DataTable;
use crate::views::swimlane::panel::{current_data, kernels::function_perf_table, search_function, DatasetView};

/// The selected dataset's name map path, if it has one.
fn name_map_path(state: &AppState) -> Option<String> {
    let id = state.selected.get()?;
    state.datasets.with(|rows| {
        rows.iter()
            .find(|r| r.info.dataset_id == id)
            .and_then(|r| r.info.files.iter().find(|f| f.role == FileRole::NameMap).map(|f| f.path.clone()))
    })
}

/// True when the selected dataset has a file of `role` (e.g. `Deps`).
fn has_file(state: &AppState, role: FileRole) -> bool {
    let Some(id) = state.selected.get() else { return false };
    state.datasets.with(|rows| rows.iter().any(|r| r.info.dataset_id == id && r.info.files.iter().any(|f| f.role == role)))
}

/// `Chip Swimlane | Function Performance | Task Dependency Graph` above the view (only with a name map).
#[component]
pub fn ViewSwitcher() -> impl IntoView {
    let state = expect_context::<AppState>();
    let view_sig = state.perf.dataset_view;
    move || {
        let has_map = name_map_path(&state).is_some();
        let has_deps = has_file(&state, FileRole::Deps);
        (has_map || has_deps).then(|| {
            view! {
                <div class="view-switcher" role="tablist">
                    <button data-testid="view-switch-swimlane" class:active=move || view_sig.get() == DatasetView::ChipSwimlane
                        on:click=move |_| view_sig.set(DatasetView::ChipSwimlane)>"Chip Swimlane"</button>
                    {has_map.then(|| view! {
                    <button data-testid="view-switch-function-perf" class:active=move || view_sig.get() == DatasetView::FunctionPerformance
                        on:click=move |_| view_sig.set(DatasetView::FunctionPerformance)>"Function Performance"</button>
                    })}
                    {has_deps.then(|| view! {
                    <button data-testid="view-switch-dep-graph" class:active=move || view_sig.get() == DatasetView::TaskGraph
                        on:click=move |_| view_sig.set(DatasetView::TaskGraph)>"Task Dependency Graph"</button>
                    })}
                </div>
            }
        })
    }
}

#[component]
pub fn FunctionPerfView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let has_records = move || {
        let Some(id) = state.selected.get() else { return false };
        state.datasets.with(|rows| rows.iter().any(|r| r.info.dataset_id == id && r.summary.as_ref().is_some_and(|s| s.records.is_some())))
    };
    let map = move || name_map_path(&state).unwrap_or_else(|| "(no name_map*.json)".to_string());
    view! {
        <div class="function-perf-page">
            <h2>"Function Performance " <span class="hint">{map}</span></h2>
            {move || if has_records() {
                let data = current_data();
                let table = Signal::derive(move || data.with(|d| d.as_ref().map(|d| function_perf_table(&d.function_perf)).unwrap_or_default()));
                let on_row = Callback::new(move |r: usize| {
                    let name: Option<String> = table.with_untracked(|t: &crate::table::TableData| t.rows.get(r).and_then(|row| row.get(1)).map(|c| c.text.clone()));
                    if let Some(name) = name {
                        state.perf.dataset_view.set(DatasetView::ChipSwimlane);
                        search_function(&state, &name);
                    }
                });
                view! {
                    <p class="hint">"Per function: AICore executions, start→end duration (setup excluded). Click a row to find the function in the Chip Swimlane."</p>
                    <div class="function-perf-table">
                        <DataTable data=table testid="function-perf" csv_name="function_performance" title="Functions" on_row_click=on_row/>
                    </div>
                }.into_any()
            } else {
                view! {
                    <p class="error-message" data-testid="function-perf-missing">
                        "No chip_swimlane_records.json beside " {map} ": the Function Performance table joins the name map's functions "
                        "with the swimlane records of the same directory. Put the records file next to the name map and open the folder again."
                    </p>
                }.into_any()
            }}
        </div>
    }
}
