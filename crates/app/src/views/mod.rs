//! The view area: one component per view, chosen by the selected dataset's kind.

pub mod dep_graph;
pub mod function_perf;
pub mod memory_map;
pub mod pass_trace;
pub mod swimlane;

use leptos::prelude::*;
use pypto_protocol::{DatasetKind, Feature, FileRole};

use crate::state::AppState;

#[component]
pub fn ViewArea() -> impl IntoView {
    let state = expect_context::<AppState>();
    // Only the selection and whether it has records decide the component: summaries of other
    // datasets arriving must not re-create a mounted canvas view.
    let selected_key = Memo::new(move |_| {
        let id = state.selected.get()?;
        state.datasets.with(|rows| {
            rows.iter().find(|r| r.info.dataset_id == id).map(|r| {
                let has_records = r.summary.as_ref().is_some_and(|s| s.records.is_some());
                (id, r.info.kind, has_records, state.swim.trace_path.with(Option::is_some))
            })
        })
    });
    let selected_row = move |id: u32| state.datasets.with_untracked(|rows| rows.iter().find(|r| r.info.dataset_id == id).cloned());
    let trace_mode = move || selected_key.get().is_some_and(|k| k.3);
    move || match selected_key.get().and_then(|(id, ..)| selected_row(id)) {
        None => view! {
            <div class="welcome">
                <h1>"PyPTO Trace Viewer"</h1>
                <p>"Open a folder holding runtime records (" <code>"dfx_outputs/"</code> ") or compiler pass dumps ("
                   <code>"passes_dump/"</code> "). Everything stays in this browser tab: nothing is uploaded."</p>
                <p>"Chip swimlane: " <kbd>"W"</kbd>"/"<kbd>"S"</kbd>" zoom, " <kbd>"A"</kbd>"/"<kbd>"D"</kbd>
                   " pan, Ctrl+wheel zooms at the cursor, drag pans, click a bar for its details."</p>
            </div>
        }
        .into_any(),
        // A Chrome trace (serving STRACE file, or a runtime dataset's merged_swimlane / CPM copy).
        Some(row) if row.info.kind == DatasetKind::ServingStrace || trace_mode() => view! { <swimlane::SwimlaneView/> }.into_any(),
        Some(row)
            if row.info.kind == DatasetKind::Runtime
                && row.info.files.iter().any(|f| f.role == FileRole::Deps)
                && state.perf.dataset_view.get() == swimlane::panel::DatasetView::TaskGraph =>
        {
            view! { <function_perf::ViewSwitcher/> <dep_graph::DepGraphView/> }.into_any()
        }
        Some(row)
            if row.info.kind == DatasetKind::Runtime
                && row.info.files.iter().any(|f| f.role == FileRole::NameMap)
                && state.perf.dataset_view.get() == swimlane::panel::DatasetView::FunctionPerformance =>
        {
            view! { <function_perf::ViewSwitcher/> <function_perf::FunctionPerfView/> }.into_any()
        }
        Some(row) if row.info.kind == DatasetKind::Runtime && row.summary.as_ref().is_some_and(|s| s.records.is_some()) => {
            view! { <function_perf::ViewSwitcher/> <swimlane::SwimlaneView/> }.into_any()
        }
        Some(row) if row.info.kind == DatasetKind::PassDump => {
            let id = row.info.dataset_id;
            let has_memory = row.info.views.contains(&Feature::MemoryReuse);
            if state.memory_map.active.get() == Some(id) {
                view! { <memory_map::PassDumpSwitcher dataset_id=id has_memory_snapshot=has_memory/> <memory_map::MemoryMapView dataset_id=id/> }.into_any()
            } else {
                view! { <memory_map::PassDumpSwitcher dataset_id=id has_memory_snapshot=has_memory/> <pass_trace::PassTraceView dataset_id=id/> }.into_any()
            }
        }
        Some(row) => {
            let title = if row.info.path.is_empty() { "(opened folder)".to_string() } else { row.info.path.clone() };
            view! {
                <function_perf::ViewSwitcher/>
                <div class="dataset-page">
                    <h1>{title}</h1>
                    <p>"Views of this dataset: " {row.info.views.iter().map(|v| v.title()).collect::<Vec<_>>().join(", ")}</p>
                    <p class="note">"These views arrive in the next releases of the viewer; the summary and file checks are in the sidebar."</p>
                    <ul class="file-list">
                        {row.info.files.iter().map(|f| view! { <li>{format!("{} — {} ({} bytes)", f.role, f.path, f.size_bytes)}</li> }).collect_view()}
                    </ul>
                </div>
            }
            .into_any()
        }
    }
}
