//! The Performance Analysis panel (toolkit-features.md group I), docked right of the Chip
//! Swimlane: resizable (drag its left edge), closable, one tab per analysis. A part of its
//! own: its tables come from the per-dataset analyses, and what it does to the swimlane —
//! select a task, search a function, dim all but a critical path, highlight a chain, draw
//! markers, show an interval, restore (Esc) — are `nav` commands; the swimlane reports back
//! through `nav`'s outcome, which the status line shows. This module is the shell — its state
//! ([`Panel`]), the tab list ([`tabs`]), the links to the swimlane; each tab's body lives in
//! its own module.
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

use std::sync::Arc;

use crate::i18n::{t, timeline_view_title, tr_with, Arg};
use leptos::prelude::*;
use pypto_protocol::perf::{PerfPanelData, PerfPathsData};
use pypto_protocol::{TaskId, TimelineView, ViewKind};

use crate::analyses::Analyses;
use crate::nav::{Focus, Nav, Outcome, PanelTab};
use crate::session::Session;
use crate::worker_client::{Slot, WorkerClient};

/// The panel's state (provided by [`init`], kept while other views are shown).
#[derive(Clone, Copy)]
pub struct Panel {
    pub width_px: RwSignal<f64>,
    /// A line under the tabs: what a row click did ("no bar for task …").
    pub status: RwSignal<String>,
    /// The gap threshold as typed (µs) and the worker's check of it.
    pub threshold_text: RwSignal<String>,
    pub threshold: RwSignal<Option<paths::ThresholdCheck>>,
    /// The chain highlighted in the swimlane (index into the chains) and how many bars it lit.
    pub chain: RwSignal<Option<usize>>,
    pub chain_bars: RwSignal<usize>,
    /// The chain asked to be highlighted, until the swimlane says how it went.
    pending_chain: StoredValue<Option<usize>>,
    /// What a drawing row said it did, shown in place of "selected …" once the swimlane has
    /// selected the row's task.
    pending_note: StoredValue<Option<String>>,
    /// Marker ids the path tabs drew last (replaced by the next drawing).
    pub drawn_markers: RwSignal<Vec<u32>>,
    pub threshold_slot: Slot,
    pub client: WorkerClient,
    pub nav: Nav,
    pub analyses: Analyses,
}

/// Provides [`Panel`] (`parts::init_all`, in `App`).
pub fn init() {
    let (session, nav, client) = (Session::get(), Nav::get(), WorkerClient::get());
    let panel = Panel {
        // The remembered width (a setting: kept in localStorage).
        width_px: crate::settings::Settings::get().panel_width_px,
        status: RwSignal::new(String::new()),
        threshold_text: RwSignal::new(paths::DEFAULT_THRESHOLD_US.to_string()),
        threshold: RwSignal::new(None),
        chain: RwSignal::new(None),
        chain_bars: RwSignal::new(0),
        pending_chain: StoredValue::new(None),
        pending_note: StoredValue::new(None),
        drawn_markers: RwSignal::new(Vec::new()),
        threshold_slot: client.slot(),
        client,
        nav,
        analyses: Analyses::get(),
    };
    Effect::watch(
        move || session.generation.get(),
        move |_, _, _| {
            panel.status.set(String::new());
            panel.threshold.set(None);
            panel.chain.set(None);
            panel.drawn_markers.set(Vec::new());
        },
        false,
    );
    // What the swimlane did with the panel's last command.
    Effect::watch(move || nav.outcome.get(), move |outcome, _, _| panel.report(outcome.as_ref()), false);
    // The swimlane shows everything again (Esc there, or another dataset): no chain is lit.
    Effect::watch(
        move || nav.highlight.with(Option::is_none),
        move |cleared, _, _| {
            if *cleared {
                panel.chain.set(None);
            }
        },
        false,
    );
    provide_context(panel);
}

impl Panel {
    pub fn get() -> Self {
        expect_context::<Self>()
    }

    /// The shown dataset's tables (asked for when missing); `None` while they travel.
    pub fn data(self) -> Signal<Option<Arc<PerfPanelData>>> {
        Signal::derive(move || self.nav.dataset().and_then(|id| self.analyses.perf(id)))
    }

    /// The shown dataset's path tables (asked for when missing); `None` while they travel.
    pub fn paths(self) -> Signal<Option<Arc<PerfPathsData>>> {
        Signal::derive(move || self.nav.dataset().and_then(|id| self.analyses.paths(id)))
    }

    /// Selects `task` on core `core` in the Worker View (a Setup row); searches for it when it
    /// has no bar there.
    pub fn select_task(self, task: TaskId, core: Option<u32>) {
        self.pending_chain.set_value(None);
        self.pending_note.set_value(None);
        self.nav.focus(Focus::Task { task, view: TimelineView::Worker, core, search_if_missing: true });
    }

    /// Selects `task`'s earliest bar in `view` (a path-tab row).
    pub fn select_in(self, task: TaskId, view: TimelineView) {
        self.pending_chain.set_value(None);
        self.pending_note.set_value(None);
        self.nav.focus(Focus::Task { task, view, core: None, search_if_missing: false });
    }

    /// Selects `task` like [`Self::select_in`]; the status then says `note` (what was drawn)
    /// when the task is selected, and says why not otherwise.
    pub fn select_in_noting(self, task: TaskId, view: TimelineView, note: String) {
        self.select_in(task, view);
        self.status.set(note.clone());
        self.pending_note.set_value(Some(note));
    }

    /// Runs the swimlane search for `query` (a function name, `rXtY`).
    pub fn search_function(self, query: &str) {
        self.nav.focus(Focus::Search(query.to_string()));
    }

    /// Highlights chain `i`'s `tasks` (the status says how it went once the swimlane did it).
    pub fn highlight(self, i: usize, dataset_id: u32, tasks: Vec<TaskId>) {
        self.pending_chain.set_value(Some(i));
        self.nav.highlight.set(Some(crate::nav::Highlight { dataset_id, tasks: tasks.into(), matched: None }));
    }

    /// The status line for what the swimlane did.
    fn report(self, outcome: Option<&Outcome>) {
        let chain = self.pending_chain.get_value();
        let text = match outcome {
            None => return,
            Some(Outcome::Highlighted { tasks, bars }) => {
                let Some(i) = chain else { return };
                self.chain.set((*bars > 0).then_some(i));
                self.chain_bars.set(*bars);
                if *bars > 0 {
                    tr_with(
                        "pa-status-chain",
                        &[("chain", Arg::from(i.to_string())), ("tasks", Arg::from(*tasks)), ("bars", Arg::from(*bars))],
                    )
                } else {
                    tr_with("pa-status-chain-no-bars", &[("chain", Arg::from(i.to_string()))])
                }
            }
            // A chain's head is selected too: the chain's line stays.
            Some(_) if chain.is_some() => return,
            Some(Outcome::Selected { .. }) if self.pending_note.with_value(Option::is_some) => {
                self.pending_note.try_update_value(Option::take).flatten().unwrap_or_default()
            }
            Some(Outcome::Selected { task, view }) => {
                tr_with("pa-status-selected", &[("task", Arg::from(task.to_string())), ("view", Arg::from(timeline_view_title(*view)))])
            }
            Some(Outcome::NoBar { task, view }) => {
                tr_with("pa-status-no-bar", &[("task", Arg::from(task.to_string())), ("view", Arg::from(timeline_view_title(*view)))])
            }
            Some(Outcome::Searching { task, view }) => {
                tr_with("pa-status-searching", &[("task", Arg::from(task.to_string())), ("view", Arg::from(timeline_view_title(*view)))])
            }
        };
        self.status.set(text);
    }
}

/// A tab: its `nav` value, test id, title, and the function building its body.
pub struct Tab {
    pub kind: PanelTab,
    pub id: &'static str,
    pub title_id: &'static str,
    pub body: fn() -> AnyView,
}

/// The panel's tabs, in order. Add a tab here (and its module above).
pub fn tabs() -> Vec<Tab> {
    vec![
        Tab {
            kind: PanelTab::Overview,
            id: "overview",
            title_id: "pa-tab-overview",
            body: || view! { <overview::OverviewTab/> }.into_any(),
        },
        Tab { kind: PanelTab::Kernels, id: "kernels", title_id: "pa-tab-kernels", body: || view! { <kernels::KernelsTab/> }.into_any() },
        Tab { kind: PanelTab::Setup, id: "setup", title_id: "pa-tab-setup", body: || view! { <setup::SetupTab/> }.into_any() },
        Tab {
            kind: PanelTab::CriticalPath,
            id: "critical-path",
            title_id: "pa-tab-critical-path",
            body: || view! { <critical_path::CriticalPathTab/> }.into_any(),
        },
        Tab { kind: PanelTab::Gaps, id: "gaps", title_id: "pa-tab-gaps", body: || view! { <gaps::GapsTab/> }.into_any() },
        Tab {
            kind: PanelTab::EarlyDispatch,
            id: "early-dispatch",
            title_id: "pa-tab-early-dispatch",
            body: || view! { <early_dispatch::EarlyDispatchTab/> }.into_any(),
        },
        Tab { kind: PanelTab::Chains, id: "chains", title_id: "pa-tab-chains", body: || view! { <chains::ChainsTab/> }.into_any() },
    ]
}

/// The panel docked beside the chip swimlane (the registry's `docked`): shown while open and
/// the chip swimlane (not a trace) is shown.
pub fn docked() -> AnyView {
    view! { <PerfPanel/> }.into_any()
}

/// The panel (rendered only while open).
#[component]
pub fn PerfPanel() -> impl IntoView {
    let perf = Panel::get();
    let nav = perf.nav;
    let drag = StoredValue::new(None::<(f64, f64)>);
    let shown_tab = move || nav.panel.with(|p| p.tab);
    let tab_buttons = move || {
        tabs()
            .into_iter()
            .map(|t| {
                let (id, tab) = (t.id, t.kind);
                view! {
                    <button class="perf-tab" role="tab" data-testid=format!("perf-tab-{id}") class:active=move || shown_tab() == tab
                        on:click=move |_| { nav.panel.update(|p| p.tab = tab); perf.status.set(String::new()); }>{move || crate::i18n::tr(t.title_id)}</button>
                }
            })
            .collect_view()
    };
    let body = move || {
        let tab = shown_tab();
        tabs().into_iter().find(|t| t.kind == tab).map(|t| {
            view! { <div class="perf-body" data-testid=format!("perf-body-{}", t.id)>{(t.body)()}</div> }
        })
    };
    let shown = move || nav.panel.with(|p| p.open) && nav.view.get() != Some(ViewKind::TraceSwimlane);
    move || {
        shown().then(|| {
            view! {
                <aside class="perf-panel" data-testid="perf-panel" aria-label=t("pa-performance-analysis") style=move || format!("width:{}px", perf.width_px.get())>
                    <div class="perf-resize" title=t("pa-drag-to-resize")
                        on:pointerdown=move |ev: web_sys::PointerEvent| {
                            ev.prevent_default();
                            if let Some(t) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok()) {
                                let _ = t.set_pointer_capture(ev.pointer_id());
                            }
                            drag.set_value(Some((f64::from(ev.client_x()), perf.width_px.get_untracked())));
                        }
                        on:pointermove=move |ev: web_sys::PointerEvent| {
                            if let Some((x0, w0)) = drag.get_value() {
                                let (lo, hi) = crate::settings::PANEL_WIDTH_RANGE_PX;
                                perf.width_px.set((w0 - (f64::from(ev.client_x()) - x0)).clamp(lo, hi));
                            }
                        }
                        on:pointerup=move |_| drag.set_value(None)></div>
                    <div class="perf-head">
                        <h2 class="panel-title">{t("pa-performance-analysis")}</h2>
                        <span class="spacer"></span>
                        <button data-testid="perf-panel-close" title=t("pa-close-the-panel") on:click=move |_| nav.panel.update(|p| p.open = false)>"✕"</button>
                    </div>
                    <div class="perf-tabs" role="tablist">{tab_buttons()}</div>
                    <div class="perf-status" data-testid="perf-status">{move || perf.status.get()}</div>
                    {body}
                </aside>
            }
        })
    }
}
