//! The Performance Analysis panel beside the Chip Swimlane (toolkit-features.md group I):
//! docked right, resizable (drag its left edge), closable, one tab per analysis. This module
//! is the shell — state ([`PerfUi`]), the tab list ([`tabs`]), the data request to the worker
//! and the link back to the swimlane ([`select_task`], [`search_function`]); each tab's body
//! lives in its own module.
//!
//! Test ids: `perf-panel-toggle` (the swimlane toolbar button), `perf-panel`,
//! `perf-panel-close`, `perf-tab-{id}` (tab buttons), `perf-body-{id}` (the shown body).

mod chains;
mod critical_path;
mod early_dispatch;
mod gaps;
pub mod kernels;
mod overview;
pub mod paths;
mod setup;

use std::collections::HashMap;

use leptos::prelude::*;
use pypto_protocol::perf::PerfPanelData;
use pypto_protocol::timeline::BarRef;
use pypto_protocol::{TimelineView, ToWorker};

use super::{jump_to, DATA};
use crate::state::AppState;
use crate::worker_client;

/// Which view of a runtime dataset the view area shows (the view switcher above it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DatasetView {
    ChipSwimlane,
    FunctionPerformance,
    /// The Task Dependency Graph (`views::dep_graph`), for a dataset with a deps.json.
    TaskGraph,
}

/// The panel's reactive state.
#[derive(Clone, Copy)]
pub struct PerfUi {
    pub open: RwSignal<bool>,
    pub width_px: RwSignal<f64>,
    /// Id of the shown tab (see [`tabs`]).
    pub tab: RwSignal<&'static str>,
    /// Panel tables per dataset id, as the worker sent them.
    pub data: RwSignal<HashMap<u32, PerfPanelData>>,
    /// Datasets whose tables were asked for (not asked twice).
    pub requested: RwSignal<Vec<u32>>,
    /// Chip Swimlane or Function Performance.
    pub dataset_view: RwSignal<DatasetView>,
    /// A line under the tabs: what a row click did ("no bar for task …").
    pub status: RwSignal<String>,
}

impl PerfUi {
    pub fn new() -> Self {
        Self {
            open: RwSignal::new(false),
            width_px: RwSignal::new(520.0),
            tab: RwSignal::new("overview"),
            data: RwSignal::new(HashMap::new()),
            requested: RwSignal::new(Vec::new()),
            dataset_view: RwSignal::new(DatasetView::ChipSwimlane),
            status: RwSignal::new(String::new()),
        }
    }

    /// Forgets the tables of the previous folder.
    pub fn reset(&self) {
        self.data.set(HashMap::new());
        self.requested.set(Vec::new());
        self.status.set(String::new());
        self.dataset_view.set(DatasetView::ChipSwimlane);
    }
}

impl Default for PerfUi {
    fn default() -> Self {
        Self::new()
    }
}

/// A tab: `id` (test ids, the `tab` signal), `title`, and the function building its body.
pub struct Tab {
    pub id: &'static str,
    pub title: &'static str,
    pub body: fn() -> AnyView,
}

/// The panel's tabs, in order. Add a tab here (and its module above).
pub fn tabs() -> Vec<Tab> {
    vec![
        Tab { id: "overview", title: "Overview", body: || view! { <overview::OverviewTab/> }.into_any() },
        Tab { id: "kernels", title: "Kernel statistics", body: || view! { <kernels::KernelsTab/> }.into_any() },
        Tab { id: "setup", title: "Setup", body: || view! { <setup::SetupTab/> }.into_any() },
        Tab { id: "critical-path", title: "Critical path", body: || view! { <critical_path::CriticalPathTab/> }.into_any() },
        Tab { id: "gaps", title: "Gap and blocker", body: || view! { <gaps::GapsTab/> }.into_any() },
        Tab { id: "early-dispatch", title: "Early dispatch", body: || view! { <early_dispatch::EarlyDispatchTab/> }.into_any() },
        Tab { id: "chains", title: "Single-dependency chains", body: || view! { <chains::ChainsTab/> }.into_any() },
    ]
}

/// Asks the worker for a dataset's panel tables once.
pub fn request(state: &AppState, dataset_id: u32) {
    let perf = state.perf;
    if perf.requested.with_untracked(|r| r.contains(&dataset_id)) {
        return;
    }
    perf.requested.update(|r| r.push(dataset_id));
    worker_client::send(ToWorker::PerfPanel(pypto_protocol::perf::PerfPanelRequest { dataset_id }), None);
}

/// Stores a `PerfPanel` reply.
pub fn on_data(state: &AppState, data: PerfPanelData) {
    state.perf.data.update(|m| {
        m.insert(data.dataset_id, data);
    });
}

/// The selected dataset's tables (asked for when missing); `None` while they travel.
pub fn current_data() -> Signal<Option<PerfPanelData>> {
    let state = expect_context::<AppState>();
    Signal::derive(move || {
        let id = state.selected.get()?;
        let found = state.perf.data.with(|m| m.get(&id).cloned());
        if found.is_none() {
            request(&state, id);
        }
        found
    })
}

/// The Worker View bar of `task_id` in the shown timeline (dataset `dataset_id`), on core
/// `core_id` when given (an SPMD task has one bar per block), else its first bar.
pub fn find_task_bar(dataset_id: u32, task_id: u64, core_id: Option<u32>) -> Option<BarRef> {
    let ring = ((task_id >> 32) & 0xFF) as u32;
    let local = (task_id & 0xFFFF_FFFF) as u32;
    DATA.with_borrow(|d| {
        let t = d.as_ref()?;
        let mut fallback = None;
        for g in t.header.groups.iter().filter(|g| g.view == TimelineView::Worker && g.dataset_id == dataset_id) {
            for &track in &g.tracks {
                let Some(info) = t.header.tracks.get(track as usize) else { continue };
                let on_core =
                    core_id.is_none_or(|c| info.core_type.is_some() && info.label.rsplit('_').next() == Some(c.to_string().as_str()));
                for gi in t.track_range(track as usize) {
                    if t.task_of(gi) == Some((ring, local)) {
                        let Some(bar) = t.bar_ref(gi) else { continue };
                        if on_core {
                            return Some(bar);
                        }
                        fallback.get_or_insert(bar);
                    }
                }
            }
        }
        fallback
    })
}

/// Locates and selects a task in the swimlane (a panel row naming it was clicked). Falls
/// back to the swimlane search by `rXtY` when the bar is not found directly.
pub fn select_task(state: &AppState, task_id: u64, core_id: Option<u32>) {
    let Some(dataset_id) = state.selected.get_untracked() else { return };
    let label = pypto_task_label(task_id);
    if let Some(bar) = find_task_bar(dataset_id, task_id, core_id) {
        state.perf.status.set(format!("selected {label} in the Worker View"));
        jump_to(bar);
    } else {
        state.perf.status.set(format!("{label}: no Worker View bar; searching"));
        search_function(state, &label);
    }
}

/// `r{ring}t{local}` (ring 0: `t{local}`), as the swimlane labels tasks.
pub fn pypto_task_label(task_id: u64) -> String {
    let ring = (task_id >> 32) & 0xFF;
    let local = task_id & 0xFFFF_FFFF;
    if ring == 0 {
        format!("t{local}")
    } else {
        format!("r{ring}t{local}")
    }
}

/// Runs the swimlane search for `query` (a function name, `rXtY`): the search box shows it,
/// the results list fills and the first hit is selected.
pub fn search_function(state: &AppState, query: &str) {
    state.swim.search.set(super::SearchState { query: query.to_string(), ..super::SearchState::default() });
    if let Some(timeline_id) = super::current_timeline_id() {
        worker_client::send(
            ToWorker::Search(pypto_protocol::timeline::SearchRequest { timeline_id, query: query.to_string(), limit: 500 }),
            None,
        );
    }
}

/// The toolbar button opening and closing the panel.
#[component]
pub fn PerfPanelToggle() -> impl IntoView {
    let state = expect_context::<AppState>();
    let open = state.perf.open;
    view! {
        <button id="perf-panel-toggle" data-testid="perf-panel-toggle" class:active=move || open.get()
            title="Performance Analysis: overview, kernel statistics, setup, critical path, gaps"
            on:click=move |_| open.update(|o| *o = !*o)>"Performance Analysis"</button>
    }
}

/// The panel (rendered only while open).
#[component]
pub fn PerfPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let perf = state.perf;
    let drag = StoredValue::new(None::<(f64, f64)>);
    let tab_buttons = move || {
        tabs()
            .into_iter()
            .map(|t| {
                let id = t.id;
                view! {
                    <button class="perf-tab" role="tab" data-testid=format!("perf-tab-{id}") class:active=move || perf.tab.get() == id
                        on:click=move |_| { perf.tab.set(id); perf.status.set(String::new()); }>{t.title}</button>
                }
            })
            .collect_view()
    };
    let body = move || {
        let id = perf.tab.get();
        tabs().into_iter().find(|t| t.id == id).map(|t| {
            view! { <div class="perf-body" data-testid=format!("perf-body-{id}")>{(t.body)()}</div> }
        })
    };
    move || {
        perf.open.get().then(|| {
            view! {
                <aside class="perf-panel" data-testid="perf-panel" style=move || format!("width:{}px", perf.width_px.get())>
                    <div class="perf-resize" title="drag to resize"
                        on:pointerdown=move |ev: web_sys::PointerEvent| {
                            ev.prevent_default();
                            if let Some(t) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok()) {
                                let _ = t.set_pointer_capture(ev.pointer_id());
                            }
                            drag.set_value(Some((f64::from(ev.client_x()), perf.width_px.get_untracked())));
                        }
                        on:pointermove=move |ev: web_sys::PointerEvent| {
                            if let Some((x0, w0)) = drag.get_value() {
                                perf.width_px.set((w0 - (f64::from(ev.client_x()) - x0)).clamp(280.0, 1600.0));
                            }
                        }
                        on:pointerup=move |_| drag.set_value(None)></div>
                    <div class="perf-head">
                        <strong>"Performance Analysis"</strong>
                        <span class="spacer"></span>
                        <button data-testid="perf-panel-close" title="Close the panel" on:click=move |_| perf.open.set(false)>"✕"</button>
                    </div>
                    <div class="perf-tabs" role="tablist">{tab_buttons()}</div>
                    <div class="perf-status" data-testid="perf-status">{move || perf.status.get()}</div>
                    {body}
                </aside>
            }
        })
    }
}
