//! Chip Swimlane: every view the capture holds (Worker, Scheduler, AICPU Scheduler,
//! Orchestrator; one group per view and rank), drawn with instanced WebGL2 rectangles from the
//! columns of a timeline reply — and, in trace mode, any Chrome trace (the serving STRACE
//! swimlane). The renderer is plain Rust driven by `requestAnimationFrame` (no signal per bar)
//! and owned by the view's component; Leptos owns only the chrome: toolbar, settings, legend,
//! details, search results, markers and range statistics.
//!
//! State: [`SwimlaneUi`] outlives the component (provided once by [`init`], so switching views
//! keeps the loaded timeline and what the chrome shows); the renderer and its listeners are
//! the component's ([`Lane`]). It reads `nav` (datasets, focus, window, markers, highlight,
//! settings) and reports its window and selection back.
//!
//! Modules: [`data`] (columns + sub-lanes), [`layout`] (rows, groups, pins), [`draw`] (a frame),
//! [`input`] (mouse/keys), [`markers`] (marker colours), [`highlight`] (task-set dimming),
//! [`export`] (PNG export and the `window.__pyptoSwimlane` test API), [`perfetto`] (the Chrome
//! trace export), [`trace`] (the trace mode), [`ui`] (the chrome), [`compiler_links`] (the
//! toolbar's way to the case's pass dump: IR Pass Trace, Memory Map).

mod compiler_links;
pub mod data;
mod draw;
mod export;
pub mod highlight;
mod input;
pub mod layout;
pub mod markers;
pub mod perfetto;
pub mod trace;
pub mod ui;
mod words;

use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use pypto_protocol::compare::TaskMatchRequest;
use pypto_protocol::timeline::{
    Arrow, BarDetails, BarDetailsRequest, BarRef, DatasetAlignment, DependenciesRequest, LegendEntry, RangeStatsRow, SearchHit,
    SearchRequest, TimelineAlign, TimelineHeader, TimelineRequest, TraceTimelineInfo, TraceTimelineRequest,
};
use pypto_protocol::{DatasetKind, FileRole, TaskId, TimelineView, ViewKind};
use pypto_render::camera::TimeCamera;
use pypto_render::text::TextOverlay;
use pypto_render::{GlRenderer, LineInstance, RectInstance};
use wasm_bindgen::JsValue;

use crate::nav::{Focus, LanesNav, Nav, Outcome, Selected};
use crate::owned::{FrameRequest, Owned};
use crate::session::{DatasetRow, Session};
use crate::view_spec::ViewSpec;
use crate::worker_client::{Slot, WorkerClient, WorkerError};
use data::Timeline;
use layout::{Layout, RowKind, GUTTER_WIDTH_PX, HEADER_HEIGHT_PX};

pub use ui::SwimlaneView;

/// In a comparison (two runs on one axis): a selected task and its match in the other run.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareMatch {
    pub task: TaskId,
    /// 0: the task is run A's, 1: run B's.
    pub side: u8,
    pub other: Option<TaskId>,
    /// How it was matched: `id` (same function and task id) or `order` (the k-th execution).
    pub rule: Option<String>,
}

/// The registry's entry for the chip swimlane.
pub const CHIP_SPEC: ViewSpec = ViewSpec {
    kind: ViewKind::ChipSwimlane,
    title_id: "view-chip-swimlane",
    tooltip_id: "",
    dataset_kind: DatasetKind::Runtime,
    default: true,
    switchable: true,
    available: DatasetRow::has_records,
    init,
    component: || view! { <SwimlaneView/> }.into_any(),
    docked: crate::parts::perf_panel::docked,
};

/// The registry's entry for Chrome traces drawn as a swimlane.
pub const TRACE_SPEC: ViewSpec = ViewSpec {
    kind: ViewKind::TraceSwimlane,
    title_id: "view-trace",
    tooltip_id: "",
    dataset_kind: DatasetKind::ServingStrace,
    default: true,
    switchable: false,
    available: |row: &DatasetRow| row.kind() == DatasetKind::ServingStrace || row.info.files.iter().any(|f| f.role.is_chrome_trace()),
    init: crate::view_spec::no_init,
    component: || view! { <SwimlaneView/> }.into_any(),
    docked: crate::view_spec::nothing_docked,
};

/// A timeline reply on its way: the header, a Chrome trace's info, the columns.
type TimelineAnswer =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<(TimelineHeader, Option<TraceTimelineInfo>, JsValue), WorkerError>>>>;

/// Most search hits asked for at once.
pub const SEARCH_LIMIT: u32 = 500;

/// The selected bar's details: first the page's preview from its own columns (shown on the
/// click, `complete` false), then what the worker sent (`complete` true).
#[derive(Clone, Debug, PartialEq)]
pub struct BarDetailsView {
    pub bar: BarRef,
    pub title: String,
    pub fields: Vec<(String, String)>,
    pub group: Vec<BarRef>,
    /// The task the bar is of ("Show in graph" shows it).
    pub task: Option<TaskId>,
    /// The kernel (function name) a task's bar ran (the IR Pass Trace / Memory Map buttons
    /// open its IR function).
    pub kernel: Option<String>,
    /// False for the page's preview, true once the worker's reply replaced it.
    pub complete: bool,
}

/// Search state: the last results and the current hit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchState {
    pub query: String,
    pub total: u64,
    pub hits: Vec<SearchHit>,
    pub current: Option<usize>,
}

/// Area-selection statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeStatsView {
    pub start_us: f64,
    pub end_us: f64,
    pub rows: Vec<RangeStatsRow>,
}

/// A right-click menu on a bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContextMenu {
    pub x: f64,
    pub y: f64,
    pub bar: BarRef,
}

/// Which timeline is shown or asked for: its datasets, in trace mode the trace file, and how
/// several datasets are aligned ([`TimelineAlign::Auto`] for one dataset or a trace: never
/// shifted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimelineKey {
    pub datasets: Vec<u32>,
    pub trace_path: Option<String>,
    pub align: TimelineAlign,
}

impl TimelineKey {
    /// Whether `other` is the same timeline aligned another way.
    fn realigns(&self, other: &Self) -> bool {
        self.datasets == other.datasets && self.trace_path == other.trace_path && self.align != other.align
    }
}

/// How the shown timeline's datasets share its axis: the header's label and placements.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AlignmentView {
    pub label: String,
    pub datasets: Vec<DatasetAlignment>,
}

/// The view's state that outlives its component (provided by [`init`]): the loaded timeline,
/// what the chrome shows, the asks' slots, the frame statistics.
#[derive(Clone, Copy)]
pub struct SwimlaneUi {
    /// The timeline asked for last.
    pub key: RwSignal<Option<TimelineKey>>,
    /// The loaded timeline (its columns) and what it is of; bumps `version` when replaced.
    data: Owned<Option<(TimelineKey, Rc<Timeline>)>>,
    /// Bumped when a new timeline arrived.
    pub version: RwSignal<u64>,
    next_timeline_id: Owned<u32>,
    pub details: RwSignal<Option<BarDetailsView>>,
    pub search: RwSignal<SearchState>,
    pub range_stats: RwSignal<Option<RangeStatsView>>,
    /// The measured interval `(a, b)`, µs.
    pub measure: RwSignal<Option<(f64, f64)>>,
    pub legend: RwSignal<Vec<LegendEntry>>,
    /// `(has_static, has_observed, source)` of the critical paths.
    pub paths: RwSignal<(bool, bool, String)>,
    /// How the shown timeline's datasets are aligned (empty label: one dataset).
    pub alignment: RwSignal<AlignmentView>,
    pub context_menu: RwSignal<Option<ContextMenu>>,
    pub show_settings: RwSignal<bool>,
    /// A timeline request is in flight.
    pub loading: RwSignal<bool>,
    /// Facts of the Chrome-trace timeline shown (trace mode).
    pub trace: RwSignal<Option<TraceTimelineInfo>>,
    /// The STRACE statistics panel is open.
    pub show_trace_stats: RwSignal<bool>,
    /// What the last Perfetto export wrote.
    pub export_status: RwSignal<Option<String>>,
    /// The task-set highlight's mask over the shown timeline's bars.
    highlight: Owned<Option<highlight::Mask>>,
    /// In a comparison: the selected task's match in the other run, said (`None`: no task
    /// selected, or not comparing).
    pub compare_match: RwSignal<Option<CompareMatch>>,
    /// `draw()` CPU times for the bench (`frameStats()`), and how often a frame is prepared.
    frame_stats: Owned<export::FrameStats>,
    /// The mounted view, for the automation API (`window.__pyptoSwimlane`).
    mounted: Owned<Option<Lane>>,
    next_lane_id: Owned<u32>,
    timeline_slot: Slot,
    details_slot: Slot,
    match_slot: Slot,
    deps_slot: Slot,
    search_slot: Slot,
    range_slot: Slot,
    export_slot: Slot,
    client: WorkerClient,
    nav: Nav,
}

/// Provides [`SwimlaneUi`] (the registry calls it once, in `App`).
pub fn init() {
    let (client, nav, session) = (WorkerClient::get(), Nav::get(), Session::get());
    let ui = SwimlaneUi {
        key: RwSignal::new(None),
        data: Owned::new(None),
        version: RwSignal::new(0),
        next_timeline_id: Owned::new(1),
        details: RwSignal::new(None),
        search: RwSignal::new(SearchState::default()),
        range_stats: RwSignal::new(None),
        measure: RwSignal::new(None),
        legend: RwSignal::new(Vec::new()),
        paths: RwSignal::new((false, false, String::new())),
        alignment: RwSignal::new(AlignmentView::default()),
        context_menu: RwSignal::new(None),
        show_settings: RwSignal::new(false),
        loading: RwSignal::new(false),
        trace: RwSignal::new(None),
        show_trace_stats: RwSignal::new(true),
        export_status: RwSignal::new(None),
        compare_match: RwSignal::new(None),
        highlight: Owned::new(None),
        frame_stats: Owned::new(export::FrameStats::default()),
        mounted: Owned::new(None),
        next_lane_id: Owned::new(0),
        timeline_slot: client.slot(),
        details_slot: client.slot(),
        match_slot: client.slot(),
        deps_slot: client.slot(),
        search_slot: client.slot(),
        range_slot: client.slot(),
        export_slot: client.slot(),
        client,
        nav,
    };
    // Another folder: nothing of the old timeline is kept.
    Effect::watch(
        move || session.generation.get(),
        move |_, _, _| {
            ui.key.set(None);
            ui.data.with(|d| *d = None);
            ui.highlight.with(|h| *h = None);
            ui.trace.set(None);
            ui.reset();
            ui.version.update(|v| *v += 1);
        },
        false,
    );
    export::install_automation_api(ui);
    provide_context(ui);
}

impl SwimlaneUi {
    /// The swimlane's state (provided by [`init`]).
    pub fn get() -> Self {
        expect_context::<Self>()
    }

    /// Forgets the per-timeline state (a new timeline is coming).
    pub fn reset(&self) {
        self.details.set(None);
        self.search.set(SearchState::default());
        self.range_stats.set(None);
        self.measure.set(None);
        self.context_menu.set(None);
    }

    /// The loaded timeline.
    pub fn data(self) -> Option<Rc<Timeline>> {
        self.data.read(|d| d.as_ref().map(|(_, t)| Rc::clone(t))).flatten()
    }

    /// The loaded timeline when it is `key`'s.
    fn data_of(self, key: &TimelineKey) -> Option<Rc<Timeline>> {
        self.data.read(|d| d.as_ref().filter(|(k, _)| k == key).map(|(_, t)| Rc::clone(t))).flatten()
    }

    /// The loaded timeline's id.
    pub fn timeline_id(self) -> Option<u32> {
        self.data.read(|d| d.as_ref().map(|(_, t)| t.header.timeline_id)).flatten()
    }

    /// The highlight's mask when it is timeline `timeline_id`'s.
    fn highlight_mask(self, timeline_id: u32) -> Option<Rc<Vec<bool>>> {
        self.highlight.read(|h| h.as_ref().and_then(|m| m.of(timeline_id))).flatten()
    }

    /// The mounted view.
    fn lane(self) -> Option<Lane> {
        self.mounted.read(|m| *m).flatten()
    }

    /// A fresh lane for a mounting view.
    fn new_lane(self) -> Lane {
        let id = self
            .next_lane_id
            .with(|n| {
                *n += 1;
                *n
            })
            .unwrap_or(0);
        Lane { id, renderer: Owned::new(None), frame: FrameRequest::new(), report: crate::owned::Delay::new(250), ui: self }
    }

    /// The lane `id` is no longer mounted.
    fn unmounted(self, id: u32) {
        self.mounted.with(|m| {
            if m.is_some_and(|l| l.id == id) {
                *m = None;
            }
        });
    }

    fn next_timeline_id(self) -> u32 {
        self.next_timeline_id
            .with(|id| {
                *id += 1;
                *id
            })
            .unwrap_or(0)
    }

    /// Asks for the timeline of `key` unless it is the one shown or asked for.
    fn request(self, key: TimelineKey) {
        if self.key.with_untracked(|k| k.as_ref() == Some(&key)) {
            return;
        }
        self.reset();
        self.trace.set(None);
        self.alignment.set(AlignmentView::default());
        // Realigned: the window of the old axis means nothing on the new one (fit instead).
        let realigned = self.key.with_untracked(|k| k.as_ref().is_some_and(|k| k.realigns(&key)));
        self.data.with(|d| *d = None);
        self.version.update(|v| *v += 1);
        self.loading.set(true);
        self.key.set(Some(key.clone()));
        let timeline_id = self.next_timeline_id();
        let (client, slot) = (self.client, self.timeline_slot);
        let answer: TimelineAnswer = match &key.trace_path {
            None => {
                let reply =
                    client.ask_columns(slot, TimelineRequest { timeline_id, dataset_ids: key.datasets.clone(), align: key.align.clone() });
                Box::pin(async move { reply.await.map(|(h, c)| (h, None, c)) })
            }
            Some(path) => {
                let dataset_id = key.datasets.first().copied().unwrap_or(0);
                let reply = client.ask_columns(slot, TraceTimelineRequest { timeline_id, dataset_id, path: path.clone() });
                Box::pin(async move { reply.await.map(|(t, c)| (t.header, Some(t.info), c)) })
            }
        };
        leptos::task::spawn_local(async move {
            match answer.await {
                Ok((header, info, columns)) => {
                    if realigned {
                        self.nav.window_us.set(None);
                    }
                    self.set_timeline(key, header, info, &columns);
                }
                Err(_) => self.loading.try_set(false).map_or((), drop),
            }
        });
    }

    /// Keeps the timeline that arrived (one copy into wasm memory).
    fn set_timeline(self, key: TimelineKey, mut header: TimelineHeader, info: Option<TraceTimelineInfo>, columns: &JsValue) {
        // Two compared runs: each group says which run it is ("A · path · Worker View").
        if let Some((a, b)) = self.nav.compared_untracked() {
            for g in &mut header.groups {
                let side = if g.dataset_id == a {
                    "A"
                } else if g.dataset_id == b {
                    "B"
                } else {
                    continue;
                };
                g.label = format!("{side} · {}", g.label);
            }
        }
        self.legend.set(header.legend.clone());
        self.paths.set((header.has_static_path, header.has_observed_path, header.path_source.clone()));
        self.alignment.set(AlignmentView { label: header.alignment_label.clone(), datasets: header.alignment.clone() });
        self.trace.set(info);
        self.loading.set(false);
        let timeline = Timeline::from_js(header, columns);
        self.data.with(|d| *d = Some((key, Rc::new(timeline))));
        self.version.update(|v| *v += 1);
    }

    /// Clears the search (an answer on its way is dropped).
    pub fn clear_search(self) {
        self.client.drop_slot(self.search_slot);
        self.search.set(SearchState::default());
    }

    /// Runs the search for `query` (the box shows it; the first hit is selected).
    pub fn search(self, query: String) {
        let Some(timeline_id) = self.timeline_id() else { return };
        self.search.set(SearchState { query: query.clone(), ..SearchState::default() });
        let (client, slot) = (self.client, self.search_slot);
        let reply = client.ask_in(slot, SearchRequest { timeline_id, query, limit: SEARCH_LIMIT });
        leptos::task::spawn_local(async move {
            let Ok(results) = reply.await else { return };
            let lane = self.lane();
            if let Some(lane) = lane {
                lane.learn_labels(&results.hits);
            }
            let first = results.hits.first().map(|h| h.bar);
            self.search.set(SearchState { query: results.query, total: results.total, current: first.map(|_| 0), hits: results.hits });
            if let (Some(bar), Some(lane)) = (first, lane) {
                lane.jump_to(bar);
            }
        });
    }
}

/// A bar label to draw after the rectangles: x, y (top), width, global bar index.
type Label = (f32, f32, f32, usize);

/// Which drag the pointer is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DragMode {
    Pan,
    Overview,
    Axis,
    Gutter,
    Area,
    Measure,
}

#[derive(Clone, Copy)]
struct Drag {
    mode: DragMode,
    start_x: f64,
    start_y: f64,
    last_x: f64,
    last_y: f64,
    moved: bool,
}

/// A navigation key being held, for accelerated motion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KeyAction {
    ZoomIn,
    ZoomOut,
    PanLeft,
    PanRight,
}

/// The mounted view: its renderer (owned by the component) and its animation frame.
#[derive(Clone, Copy)]
pub struct Lane {
    /// Tells this mount from the next one (which may start before this one is cleaned up).
    id: u32,
    renderer: Owned<Option<SwimlaneRenderer>>,
    frame: FrameRequest,
    /// The throttled report of the window to nav.
    report: crate::owned::Delay,
    ui: SwimlaneUi,
}

impl Lane {
    /// Runs `f` on the renderer; `None` when there is none or it is busy (re-entrant call).
    fn with<R>(self, f: impl FnOnce(&mut SwimlaneRenderer) -> R) -> Option<R> {
        self.renderer.with_some(f)
    }

    /// Asks for a frame (one however often this is called before it).
    pub fn redraw(self) {
        self.frame.request(move |time| {
            self.with(|r| r.frame(time));
        });
    }

    /// Jumps to (and selects) a bar.
    pub fn jump_to(self, bar: BarRef) {
        self.with(|r| r.jump_to(bar));
        self.redraw();
    }

    /// Remembers task-id labels of bars (from search hits), for the `rXtY` label mode.
    fn learn_labels(self, hits: &[SearchHit]) {
        self.with(|r| {
            for h in hits {
                r.task_labels.insert(h.bar, h.label.clone());
            }
        });
    }

    /// Asks for a bar's details: a partial answer (its arguments still being read back from
    /// the file) shows first, then the full one.
    fn ask_details(self, request: BarDetailsRequest) {
        let (client, slot) = (self.ui.client, self.ui.details_slot);
        let bar = request.bar;
        let show = move |d: BarDetails| {
            let selected = self
                .with(|r| {
                    r.task_labels.insert(bar, d.title.clone());
                    if r.selected == Some(bar) {
                        r.group.clone_from(&d.group);
                    }
                    r.selected == Some(bar)
                })
                .unwrap_or(false);
            if selected {
                let BarDetails { title, fields, group, task, .. } = d;
                let kernel = self.ui.details.with_untracked(|v| v.as_ref().filter(|v| v.bar == bar).and_then(|v| v.kernel.clone()));
                self.ui.details.set(Some(BarDetailsView { bar, title, fields, group, task, kernel, complete: true }));
            }
            self.redraw();
        };
        let reply = client.ask_progressive(slot, request, show);
        leptos::task::spawn_local(async move {
            if let Ok(d) = reply.await {
                show(d);
            }
        });
    }

    /// In a comparison `(a, b)`: asks for the match of `task` (of dataset `dataset`) in the
    /// other run, says it (`compare_match`) and highlights both (the rest dimmed).
    fn ask_match(self, (a, b): (u32, u32), dataset: u32, task: TaskId) {
        let nav = self.ui.nav;
        let side = u8::from(dataset == b);
        let other_dataset = if side == 0 { b } else { a };
        let reply = self.ui.client.ask_in(self.ui.match_slot, TaskMatchRequest { baseline_id: a, current_id: b, side, task });
        leptos::task::spawn_local(async move {
            let Ok(m) = reply.await else { return };
            let other = m.other;
            self.ui.compare_match.try_set(Some(CompareMatch { task, side, other, rule: m.rule }));
            let matched = other.map(|o| (other_dataset, o));
            nav.highlight.try_set(Some(crate::nav::Highlight { dataset_id: dataset, tasks: Arc::from([task]), matched }));
        });
    }

    /// Asks for the dependency arrows around `bar` at the chosen depth (none at depth 0).
    fn ask_dependencies(self, timeline_id: u32, bar: BarRef) {
        let depth = self.ui.nav.swimlane.with_untracked(|s| s.depth);
        if depth == 0 {
            return;
        }
        let (client, slot) = (self.ui.client, self.ui.deps_slot);
        let reply = client.ask_in(slot, DependenciesRequest { timeline_id, bar, depth });
        leptos::task::spawn_local(async move {
            if let Ok(d) = reply.await {
                self.with(|r| {
                    if r.selected == Some(bar) {
                        r.arrows = d.arrows;
                    }
                });
                self.redraw();
            }
        });
    }

    /// Asks for the arrows again (the depth setting changed).
    pub fn refresh_dependencies(self) {
        let selected = self.with(|r| {
            r.arrows.clear();
            let d = r.data.as_ref()?;
            let bar = r.selected?;
            d.global(bar).is_some_and(|g| d.is_task(g)).then_some((d.header.timeline_id, bar))
        });
        if let Some(Some((timeline_id, bar))) = selected {
            self.ask_dependencies(timeline_id, bar);
        }
        self.redraw();
    }

    /// Carries out a focus nav asks for (see `Focus`) — while the swimlane is the view shown
    /// (a focus meant for another view, "Show in graph" say, is that view's).
    fn follow(self, focus: Focus) {
        let nav = self.ui.nav;
        if !matches!(nav.view.get_untracked(), None | Some(ViewKind::ChipSwimlane | ViewKind::TraceSwimlane)) {
            return;
        }
        match focus {
            Focus::None => {
                if self.with(|r| r.selected.is_some()) == Some(true) {
                    self.with(|r| r.select(None));
                    self.redraw();
                }
            }
            Focus::Bar(bar) => {
                let changed = self.with(|r| r.data.as_ref().is_some_and(|d| d.global(bar).is_some()) && r.selected != Some(bar));
                if changed == Some(true) {
                    self.jump_to(bar);
                }
            }
            Focus::Task { task, view, core, search_if_missing } => {
                let Some(data) = self.ui.data() else { return };
                let Some(dataset) = nav.datasets.with_untracked(|d| d.first().copied()) else { return };
                let found = match core {
                    Some(core) => data.find_task_bar(dataset, task, Some(core)),
                    None => data.find_bar(dataset, task, view),
                };
                match found {
                    Some(bar) => {
                        self.jump_to(bar);
                        nav.outcome.set(Some(Outcome::Selected { task, view }));
                    }
                    None if search_if_missing => {
                        nav.outcome.set(Some(Outcome::Searching { task, view }));
                        self.ui.search(task.to_string());
                    }
                    None => nav.outcome.set(Some(Outcome::NoBar { task, view })),
                }
            }
            Focus::Search(query) => self.ui.search(query),
        }
    }
}

/// The plain-Rust renderer behind the component.
struct SwimlaneRenderer {
    lane: Lane,
    ui: SwimlaneUi,
    nav: Nav,
    container: web_sys::HtmlElement,
    gl: GlRenderer,
    text: TextOverlay,
    tooltip: web_sys::HtmlElement,
    measure_el: Option<web_sys::HtmlElement>,
    data: Option<Rc<Timeline>>,
    layout: Layout,
    collapsed: Vec<bool>,
    /// Per track: folded to its first row (Chrome-trace lanes; see `trace`).
    folded: Vec<bool>,
    /// Per track: the row of its instants, kept when folded (Chrome-trace lanes).
    instant_rows: Vec<Option<u32>>,
    pinned: Vec<usize>,
    camera: TimeCamera,
    scroll_y_px: f64,
    css_width: f64,
    css_height: f64,
    mouse: Option<(f64, f64)>,
    drag: Option<Drag>,
    selected: Option<BarRef>,
    /// The selected bar's SPMD group (from its details).
    group: Vec<BarRef>,
    arrows: Vec<Arrow>,
    /// Area selection being dragged or shown: `(t0, t1, y0, y1)` (CSS px for y).
    area: Option<(f64, f64, f64, f64)>,
    /// `r` was pressed: the next drag on the lanes selects an area.
    area_armed: bool,
    /// Alt+click measuring: the first point.
    measure_start: Option<f64>,
    /// Hovered track in the gutter (for the pin icon).
    hover_track: Option<usize>,
    held: Vec<(KeyAction, f64)>,
    last_anim_ms: f64,
    /// `timeStamp` of the last `pointerrawupdate` that updated the tooltip.
    last_raw_move_ms: f64,
    /// Task-id texts learnt from details and search replies (label mode `rXtY`).
    task_labels: std::collections::HashMap<BarRef, String>,
    rects: Vec<RectInstance>,
    setup_rects: Vec<RectInstance>,
    pinned_rects: Vec<RectInstance>,
    lines: Vec<LineInstance>,
    arrow_lines: Vec<LineInstance>,
    labels: Vec<Label>,
    /// Sub-lanes the last frame drew from their LOD pyramid (`data-lod-lanes`).
    lod_lanes: u32,
    /// The window last reported to nav (nav's window differing from it was asked by another part).
    last_reported_window: Option<(f64, f64)>,
    /// The renderer's event listeners (removed when it is dropped).
    listeners: Vec<gloo::events::EventListener>,
}

impl SwimlaneRenderer {
    fn plot_width(&self) -> f64 {
        (self.css_width - GUTTER_WIDTH_PX).max(1.0)
    }

    /// Top of the scrolling lane area.
    fn lanes_top(&self) -> f64 {
        HEADER_HEIGHT_PX + self.layout.pinned_height
    }

    fn clamp_scroll(&mut self) {
        let max = (self.layout.content_height - (self.css_height - self.lanes_top())).max(0.0);
        self.scroll_y_px = self.scroll_y_px.clamp(0.0, max);
    }

    fn relayout(&mut self) {
        if let Some(d) = &self.data {
            self.layout = Layout::build(d, &self.collapsed, &self.pinned, &self.folded);
        } else {
            self.layout = Layout::default();
        }
        self.clamp_scroll();
    }

    fn set_data(&mut self, data: Option<Rc<Timeline>>) {
        let same = match (&self.data, &data) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if same {
            return;
        }
        self.data = data;
        self.selected = None;
        self.group.clear();
        self.arrows.clear();
        self.area = None;
        self.scroll_y_px = 0.0;
        self.pinned.clear();
        self.task_labels.clear();
        self.collapsed = vec![false; self.data.as_ref().map_or(0, |d| d.header.groups.len())];
        trace::on_new_data(self);
        // nav's pinned and folded lanes (a link's, or what this timeline had before a view switch).
        let lanes = self.nav.lanes.get_untracked();
        self.apply_lanes(&lanes);
        self.relayout();
        self.last_reported_window = None;
        if let Some(d) = self.data.clone() {
            self.camera.set_width(self.plot_width());
            self.camera.set_extent(d.header.first_start_us, d.header.last_end_us);
            self.camera.fit(d.header.first_start_us, d.header.last_end_us);
            let _ = self.container.set_attribute("data-lanes", &d.header.tracks.len().to_string());
            let _ = self.container.set_attribute("data-bars", &d.header.bar_count.to_string());
            let _ = self.container.set_attribute("data-lod-bytes", &d.lod_bytes().to_string());
            let _ = self.container.set_attribute("data-timeline-id", &d.header.timeline_id.to_string());
            let labels: Vec<&str> = d.header.tracks.iter().map(|l| l.label.as_str()).collect();
            let _ = self.container.set_attribute("data-lane-labels", &labels.join(","));
            // How several datasets share the axis (empty for one dataset).
            let _ = self.container.set_attribute("data-alignment", &d.header.alignment_label);
            let offsets: Vec<String> = d.header.alignment.iter().map(|a| format!("{:.3}", a.offset_us)).collect();
            let _ = self.container.set_attribute("data-alignment-offsets-us", &offsets.join(","));
            // What nav says is shown (a link's window and selection, or the last ones).
            if let Some((t0, t1)) = self.nav.window_us.get_untracked() {
                self.set_window(t0, t1);
                self.last_reported_window = Some((t0, t1));
            }
            if let Focus::Bar(bar) = self.nav.focus.get_untracked() {
                if d.global(bar).is_some() {
                    self.select(Some(bar));
                }
            }
        } else {
            let _ = self.container.remove_attribute("data-lanes");
            let _ = self.container.remove_attribute("data-bars");
            let _ = self.container.remove_attribute("data-alignment");
            let _ = self.container.remove_attribute("data-alignment-offsets-us");
        }
    }

    fn resize(&mut self) {
        let rect = self.container.get_bounding_client_rect();
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        self.css_width = rect.width().max(1.0);
        self.css_height = rect.height().max(1.0);
        self.gl.resize(self.css_width as f32, self.css_height as f32, dpr as f32);
        self.text.resize(self.css_width as f32, self.css_height as f32, dpr as f32);
        self.camera.set_width(self.plot_width());
        self.clamp_scroll();
    }

    /// Screen y (CSS px, container-relative) of a track's top, if laid out.
    fn track_top(&self, track: usize) -> Option<f64> {
        match self.layout.track_pos.get(track).copied().flatten()? {
            (true, y) => Some(HEADER_HEIGHT_PX + y),
            (false, y) => Some(self.lanes_top() + y - self.scroll_y_px),
        }
    }

    /// Screen rectangle of a bar `(x0, y, x1, h)`, CSS px relative to the container.
    fn bar_rect(&self, bar: BarRef) -> Option<(f64, f64, f64, f64)> {
        let data = self.data.as_ref()?;
        let global = data.global(bar)?;
        let (setup, start, end) = data.times(global)?;
        let top = self.track_top(bar.track as usize)?;
        let row = data.row_of(global).unwrap_or(0);
        let row = self.drawn_row(bar.track as usize, row).unwrap_or(0);
        let y = top + f64::from(row) * layout::ROW_PITCH_PX + layout::BAR_TOP_PAD_PX;
        let show_setup = self.nav.swimlane.with_untracked(|st| st.show_setup);
        let start_draw = if show_setup { setup } else { start };
        let x0 = GUTTER_WIDTH_PX + self.camera.us_to_px(start_draw);
        let x1 = (GUTTER_WIDTH_PX + self.camera.us_to_px(end)).max(x0 + 1.0);
        let (x0, x1) = if data.is_marker(global) { layout::marker_span(x0, x1) } else { (x0, x1) };
        Some((x0, y, x1, layout::BAR_HEIGHT_PX))
    }

    /// Selects a bar (or clears the selection): nav's focus follows, the page's preview shows
    /// at once, and the worker is asked for the full details and the dependency arrows.
    fn select(&mut self, bar: Option<BarRef>) {
        self.selected = bar;
        self.group.clear();
        self.arrows.clear();
        let preview = bar.and_then(|bar| self.details_preview(bar));
        self.ui.details.set(preview);
        let focus = bar.map_or(Focus::None, Focus::Bar);
        if self.nav.focus.with_untracked(|f| *f != focus) {
            self.nav.focus.set(focus);
        }
        let selected = bar.and_then(|bar| self.described(bar));
        if self.nav.selected.with_untracked(|s| *s != selected) {
            self.nav.selected.set(selected);
        }
        let compared = self.nav.compared_untracked();
        if compared.is_some() {
            self.ui.compare_match.set(None);
        }
        let (Some(bar), Some(d)) = (bar, self.data.as_ref()) else {
            // Nothing selected: the comparison's match highlight goes too.
            if compared.is_some() && self.nav.highlight.with_untracked(|h| h.as_ref().is_some_and(|h| h.matched.is_some())) {
                self.nav.highlight.set(None);
            }
            return;
        };
        let lane = self.lane;
        if let (Some(pair), Some(g)) = (compared, d.global(bar)) {
            let dataset = d.header.tracks.get(bar.track as usize).and_then(|t| d.header.groups.get(t.group as usize)).map(|g| g.dataset_id);
            let task = d.task_of(g).map(|(ring, local)| TaskId::from_parts(ring, local));
            if let (Some(dataset), Some(task), true) = (dataset, task, d.is_task(g)) {
                lane.ask_match(pair, dataset, task);
            }
        }
        lane.ask_details(BarDetailsRequest { timeline_id: d.header.timeline_id, bar });
        if d.global(bar).is_some_and(|g| d.is_task(g)) {
            lane.ask_dependencies(d.header.timeline_id, bar);
        }
    }

    /// A bar as nav reports the selection: its task, name, lane and times.
    fn described(&self, bar: BarRef) -> Option<Selected> {
        let d = self.data.as_ref()?;
        let g = d.global(bar)?;
        let (_, start, end) = d.times(g)?;
        let name = d.name_of(g);
        Some(Selected {
            task: d.task_of(g).map(|(ring, local)| TaskId::from_parts(ring, local)),
            function: (!name.is_empty()).then(|| name.to_owned()),
            lane: d.header.tracks.get(bar.track as usize).map(|t| t.label.clone()),
            start_us: Some(start),
            end_us: Some(end),
        })
    }

    /// What the page knows of a bar without asking the worker (its name, task id, lane and
    /// times), shown the moment it is clicked; the worker's full details replace it.
    fn details_preview(&self, bar: BarRef) -> Option<BarDetailsView> {
        let d = self.data.as_ref()?;
        let g = d.global(bar)?;
        let (setup, start, end) = d.times(g)?;
        // The dataset's own times, as the worker's details give them (the columns are shifted).
        let shift = d.alignment_of_track(bar.track).filter(|a| a.offset_us != 0.0).map(|a| a.offset_us);
        let own = |t: f64| t - shift.unwrap_or(0.0);
        let (setup, start, end) = (own(setup), own(start), own(end));
        let name = d.name_of(g);
        let task_id = d.task_of(g).map(|(ring, local)| TaskId::from_parts(ring, local));
        let task = task_id.map(|t| t.to_string());
        let title = match &task {
            Some(id) => format!("{name}({id})"),
            None => name.to_owned(),
        };
        let mut fields = Vec::new();
        if let Some(tr) = d.header.tracks.get(bar.track as usize) {
            fields.push(("Lane".to_owned(), format!("{} · {}", tr.view.title(), tr.label)));
        }
        if let Some(shift) = shift {
            fields.push((
                "Timeline shift".to_owned(),
                crate::i18n::tr_with("swd-shift-value", &[("shift", crate::i18n::Arg::from(format!("{shift:+.3}")))]),
            ));
        }
        if let Some(id) = task {
            fields.push(("Task".to_owned(), id));
        }
        fields.push(("Start".to_owned(), format!("{start:.3} µs")));
        fields.push(("End".to_owned(), format!("{end:.3} µs")));
        fields.push(("Duration".to_owned(), format!("{:.3} µs", end - start)));
        if setup < start {
            fields.push(("Setup".to_owned(), format!("{:.3} µs", start - setup)));
        }
        let kernel = (task_id.is_some() && !name.is_empty()).then(|| name.to_owned());
        Some(BarDetailsView { bar, title, fields, group: Vec::new(), task: task_id, kernel, complete: false })
    }

    /// Centres the camera on a bar (fits it when wider than the view), scrolls its track into
    /// view (expanding its group) and selects it.
    fn jump_to(&mut self, bar: BarRef) {
        let Some(d) = self.data.clone() else { return };
        let Some(g) = d.global(bar) else { return };
        let Some((setup, s, e)) = d.times(g) else { return };
        if let Some(info) = d.header.tracks.get(bar.track as usize) {
            if let Some(c) = self.collapsed.get_mut(info.group as usize) {
                if *c {
                    *c = false;
                    self.relayout();
                }
            }
        }
        let (t0, t1) = self.camera.visible_range_us();
        if e - setup > (t1 - t0) * 0.8 {
            self.camera.fit(setup, e);
        } else {
            let mid = f64::midpoint(s, e);
            self.camera.pan_px(self.camera.us_to_px(mid) - self.plot_width() / 2.0);
        }
        if let Some((false, y)) = self.layout.track_pos.get(bar.track as usize).copied().flatten() {
            let view_h = self.css_height - self.lanes_top();
            if y < self.scroll_y_px || y + layout::ROW_PITCH_PX > self.scroll_y_px + view_h {
                self.scroll_y_px = y - view_h / 3.0;
                self.clamp_scroll();
            }
        }
        self.select(Some(bar));
    }

    /// Keyboard: the next (`delta` 1) or previous (-1) bar on the selected bar's lane, else
    /// the first bar of the first shown lane; brought into view and selected.
    fn step_bar(&mut self, delta: isize) {
        let Some(d) = self.data.clone() else { return };
        let target = match self.selected {
            Some(bar) => {
                let len = d.track_range(bar.track as usize).len();
                (bar.index as usize)
                    .checked_add_signed(delta)
                    .filter(|&index| index < len)
                    .map(|index| BarRef { track: bar.track, index: index as u32 })
            }
            None => self.shown_tracks().into_iter().find(|&t| !d.track_range(t).is_empty()).map(|t| BarRef { track: t as u32, index: 0 }),
        };
        if let Some(bar) = target {
            self.jump_to(bar);
        }
    }

    /// Keyboard: the bar nearest in time on the next (`delta` 1) or previous (-1) shown lane
    /// with bars.
    fn step_lane(&mut self, delta: isize) {
        let Some(d) = self.data.clone() else { return };
        let Some(bar) = self.selected else { return self.step_bar(1) };
        let Some(at_us) = d.global(bar).and_then(|g| d.start_us.get(g).copied()) else { return };
        let tracks: Vec<usize> = self.shown_tracks().into_iter().filter(|&t| !d.track_range(t).is_empty()).collect();
        let Some(pos) = tracks.iter().position(|&t| t == bar.track as usize) else { return };
        let Some(&track) = pos.checked_add_signed(delta).and_then(|p| tracks.get(p)) else { return };
        let range = d.track_range(track);
        let starts = &d.start_us[range.clone()];
        let k = starts.partition_point(|&s| s < at_us);
        let nearest = [k.saturating_sub(1), k.min(starts.len() - 1)]
            .into_iter()
            .min_by(|&a, &b| (starts[a] - at_us).abs().total_cmp(&(starts[b] - at_us).abs()))
            .unwrap_or(0);
        self.jump_to(BarRef { track: track as u32, index: nearest as u32 });
    }

    /// The tracks in the order the lanes are shown (pinned first), each once.
    fn shown_tracks(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for row in self.layout.pinned.iter().chain(&self.layout.rows) {
            if let RowKind::Track(t) = row.kind {
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
        out
    }

    fn zoom_at(&mut self, anchor_css_x: f64, factor: f64) {
        let anchor = (anchor_css_x - GUTTER_WIDTH_PX).clamp(0.0, self.plot_width());
        self.camera.zoom_at(anchor, factor);
    }

    fn zoom_anchor(&self) -> f64 {
        match self.mouse {
            Some((x, y)) if x >= GUTTER_WIDTH_PX && y >= 0.0 => x,
            _ => GUTTER_WIDTH_PX + self.plot_width() / 2.0,
        }
    }

    /// Fits the selection (with its setup), or everything.
    fn fit(&mut self) {
        let Some(d) = self.data.clone() else { return };
        let range = self.selected.and_then(|b| d.global(b)).and_then(|g| d.times(g));
        match range {
            Some((setup, _, e)) => {
                let pad = ((e - setup) * 0.1).max(0.01);
                self.camera.fit(setup - pad, e + pad);
            }
            None => self.camera.fit(d.header.first_start_us, d.header.last_end_us),
        }
    }

    /// Pins and folds the lanes `lanes` names (tracks the timeline has); true when that changed
    /// anything (then laid out again).
    fn apply_lanes(&mut self, lanes: &LanesNav) -> bool {
        let Some(tracks) = self.data.as_ref().map(|d| d.header.tracks.len()) else { return false };
        let mut pinned: Vec<usize> = Vec::new();
        for t in lanes.pinned.iter().map(|&t| t as usize).filter(|&t| t < tracks) {
            if !pinned.contains(&t) {
                pinned.push(t);
            }
        }
        let mut folded = vec![false; tracks];
        for &t in &lanes.folded {
            if let Some(f) = folded.get_mut(t as usize) {
                *f = true;
            }
        }
        if pinned == self.pinned && folded == self.folded {
            return false;
        }
        self.pinned = pinned;
        self.folded = folded;
        self.relayout();
        true
    }

    /// Tells nav which lanes are pinned and folded (for links).
    fn report_lanes(&self) {
        let lanes = LanesNav {
            pinned: self.pinned.iter().map(|&t| t as u32).collect(),
            folded: self.folded.iter().enumerate().filter(|(_, &f)| f).map(|(t, _)| t as u32).collect(),
        };
        if self.nav.lanes.with_untracked(|l| *l != lanes) {
            self.nav.lanes.set(lanes);
        }
    }

    /// Sets the window to exactly `[t0, t1]`.
    fn set_window(&mut self, t0: f64, t1: f64) {
        if t1 > t0 && t0.is_finite() && t1.is_finite() {
            self.camera.start_us = t0;
            self.camera.px_per_us = self.plot_width() / (t1 - t0);
        }
    }
}

/// Markers at a bar's start/end, or at its SPMD group's bounds.
pub fn markers_for_bar(lane: Lane, bar: BarRef, group_bounds: bool) {
    let times = lane
        .with(|r| {
            let d = r.data.clone()?;
            let mut bars = vec![bar];
            if group_bounds && r.selected == Some(bar) {
                bars.extend(r.group.iter().copied());
            }
            let mut lo = f64::INFINITY;
            let mut hi = f64::NEG_INFINITY;
            for b in bars {
                let (_, s, e) = d.global(b).and_then(|g| d.times(g))?;
                lo = lo.min(s);
                hi = hi.max(e);
            }
            Some((lo, hi))
        })
        .flatten();
    let ui = lane.ui;
    if let Some((lo, hi)) = times {
        let what = if group_bounds { "group" } else { "task" };
        markers::add(ui.nav, lo, &format!("{what} start"));
        markers::add(ui.nav, hi, &format!("{what} end"));
    }
    ui.context_menu.set(None);
}

/// Mounts the renderer on the view's canvases and starts its listeners.
fn mount(
    ui: SwimlaneUi,
    lane: Lane,
    container: &web_sys::HtmlElement,
    canvas: &web_sys::HtmlCanvasElement,
    overlay: &web_sys::HtmlCanvasElement,
    tooltip: web_sys::HtmlElement,
) -> Result<(), String> {
    // The view area may hand a new mount the previous one's elements: nothing of its timeline
    // stays on them.
    for stale in ["data-lanes", "data-bars", "data-lod-bytes", "data-timeline-id", "data-lane-labels", "data-selected-spmd"] {
        let _ = container.remove_attribute(stale);
    }
    let gl = GlRenderer::new(canvas).map_err(|err| format!("the swimlane cannot draw: {err}"))?;
    let text = TextOverlay::new(overlay).map_err(|_| "the swimlane cannot draw text (no 2D canvas)".to_string())?;
    let measure_el = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("swimlane-measure"))
        .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok());
    let mut renderer = SwimlaneRenderer {
        lane,
        ui,
        nav: ui.nav,
        container: container.clone(),
        gl,
        text,
        tooltip,
        measure_el,
        data: None,
        layout: Layout::default(),
        collapsed: Vec::new(),
        folded: Vec::new(),
        instant_rows: Vec::new(),
        pinned: Vec::new(),
        camera: TimeCamera::new(1.0),
        scroll_y_px: 0.0,
        css_width: 1.0,
        css_height: 1.0,
        mouse: None,
        drag: None,
        selected: None,
        group: Vec::new(),
        arrows: Vec::new(),
        area: None,
        area_armed: false,
        measure_start: None,
        hover_track: None,
        held: Vec::new(),
        last_anim_ms: 0.0,
        last_raw_move_ms: f64::NAN,
        task_labels: std::collections::HashMap::new(),
        rects: Vec::new(),
        setup_rects: Vec::new(),
        pinned_rects: Vec::new(),
        lines: Vec::new(),
        arrow_lines: Vec::new(),
        labels: Vec::new(),
        lod_lanes: 0,
        last_reported_window: None,
        listeners: Vec::new(),
    };
    input::attach(&mut renderer, container);
    renderer.resize();
    lane.renderer.with(|r| *r = Some(renderer));
    ui.mounted.with(|m| *m = Some(lane));
    Ok(())
}

/// The dataset's first file of `role`, if it has one (for the chrome).
pub fn has_file(session: Session, dataset: Option<u32>, role: FileRole) -> bool {
    dataset.and_then(|id| session.with_row(id, |r| r.has_file(role))).unwrap_or(false)
}

/// Whether `focus` names a task the graph can show (for "Show in graph").
pub fn graph_focus(task: TaskId) -> Focus {
    Focus::Task { task, view: TimelineView::Worker, core: None, search_if_missing: false }
}
