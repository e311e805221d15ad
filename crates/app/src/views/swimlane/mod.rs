//! Chip Swimlane: every view the capture holds (Worker, Scheduler, AICPU Scheduler,
//! Orchestrator; one group per view and rank), drawn with instanced WebGL2 rectangles from the
//! columns of a `Timeline` reply. The renderer is plain Rust driven by `requestAnimationFrame`
//! (no signal per bar); Leptos owns only the chrome: toolbar, settings, legend, details,
//! search results, markers and range statistics.
//!
//! Modules: [`data`] (columns + sub-lanes), [`layout`] (rows, groups, pins), [`draw`] (a frame),
//! [`input`] (mouse/keys), [`markers`] (markers and measuring), [`url_state`] (hash state),
//! [`export`] (PNG export and the `window.__pyptoSwimlane` test API), [`ui`] (the chrome).

pub mod data;
mod draw;
mod export;
pub mod highlight;
mod input;
pub mod layout;
pub mod markers;
pub mod panel;
pub mod perfetto;
pub mod trace;
pub mod ui;
pub mod url_state;

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use pypto_protocol::timeline::{Arrow, BarRef, LegendEntry, RangeStatsRow, SearchHit, TimelineHeader};
use pypto_protocol::ToWorker;
use pypto_render::camera::TimeCamera;
use pypto_render::text::TextOverlay;
use pypto_render::{GlRenderer, LineInstance, RectInstance};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::state::AppState;
use crate::worker_client;
use data::Timeline;
use layout::{Layout, GUTTER_WIDTH_PX, HEADER_HEIGHT_PX};
use markers::Marker;

pub use ui::SwimlaneView;

/// How bars are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelMode {
    Function,
    TaskId,
    Both,
}

/// Which critical path de-emphasises the other bars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathMode {
    None,
    Static,
    Observed,
}

/// Keys of the keyboard navigation (matched against `KeyboardEvent.key`, lower case, or
/// `KeyboardEvent.code`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyMap {
    pub zoom_in: String,
    pub zoom_out: String,
    pub pan_left: String,
    pub pan_right: String,
}

/// Rendering settings (the settings panel).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub label_mode: LabelMode,
    /// Draw the setup region (receive → start).
    pub show_setup: bool,
    /// Durations shown include the setup.
    pub setup_in_duration: bool,
    pub path: PathMode,
    /// Dependency depth: 0 none, N levels, -1 all.
    pub depth: i32,
    pub keys: KeyMap,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            label_mode: LabelMode::Function,
            show_setup: true,
            setup_in_duration: false,
            path: PathMode::None,
            depth: 1,
            keys: KeyMap { zoom_in: "w".into(), zoom_out: "s".into(), pan_left: "a".into(), pan_right: "d".into() },
        }
    }
}

/// The selected bar's details: first the page's preview from its own columns (shown on the
/// click, `complete` false), then what the worker sent (`complete` true).
#[derive(Clone, Debug, PartialEq)]
pub struct BarDetailsView {
    pub bar: BarRef,
    pub title: String,
    pub fields: Vec<(String, String)>,
    pub group: Vec<BarRef>,
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

/// The chrome's reactive state (small values only; the bars live in [`Timeline`]).
#[derive(Clone, Copy)]
pub struct SwimlaneUi {
    /// Datasets of the timeline being shown (one, or a multi-rank group).
    pub timeline_ids: RwSignal<Vec<u32>>,
    pub settings: RwSignal<Settings>,
    pub details: RwSignal<Option<BarDetailsView>>,
    pub search: RwSignal<SearchState>,
    pub range_stats: RwSignal<Option<RangeStatsView>>,
    pub markers: RwSignal<Vec<Marker>>,
    /// The measured interval `(a, b)`, µs.
    pub measure: RwSignal<Option<(f64, f64)>>,
    pub legend: RwSignal<Vec<LegendEntry>>,
    /// `(has_static, has_observed, source)` of the critical paths.
    pub paths: RwSignal<(bool, bool, String)>,
    pub context_menu: RwSignal<Option<ContextMenu>>,
    pub show_settings: RwSignal<bool>,
    /// A timeline request is in flight.
    pub loading: RwSignal<bool>,
    /// The Chrome trace file shown (`None`: the chip swimlane). Set when requested.
    pub trace_path: RwSignal<Option<String>>,
    /// Facts of the Chrome-trace timeline shown (arrive with it; `trace` module).
    pub trace: RwSignal<Option<pypto_protocol::timeline::TraceTimelineInfo>>,
    /// The STRACE statistics panel is open.
    pub show_trace_stats: RwSignal<bool>,
}

impl SwimlaneUi {
    pub fn new() -> Self {
        SwimlaneUi {
            timeline_ids: RwSignal::new(Vec::new()),
            settings: RwSignal::new(Settings::default()),
            details: RwSignal::new(None),
            search: RwSignal::new(SearchState::default()),
            range_stats: RwSignal::new(None),
            markers: RwSignal::new(Vec::new()),
            measure: RwSignal::new(None),
            legend: RwSignal::new(Vec::new()),
            paths: RwSignal::new((false, false, String::new())),
            context_menu: RwSignal::new(None),
            show_settings: RwSignal::new(false),
            loading: RwSignal::new(false),
            trace_path: RwSignal::new(None),
            trace: RwSignal::new(None),
            show_trace_stats: RwSignal::new(true),
        }
    }

    /// Forgets the per-timeline state (a new timeline is coming).
    pub fn reset(&self) {
        self.details.set(None);
        self.search.set(SearchState::default());
        self.range_stats.set(None);
        self.markers.set(Vec::new());
        self.measure.set(None);
        self.context_menu.set(None);
    }
}

impl Default for SwimlaneUi {
    fn default() -> Self {
        Self::new()
    }
}

thread_local! {
    static DATA: RefCell<Option<Rc<Timeline>>> = const { RefCell::new(None) };
    static VIEW: RefCell<Option<SwimlaneRenderer>> = const { RefCell::new(None) };
    static NEXT_TIMELINE_ID: RefCell<u32> = const { RefCell::new(1) };
}

/// A fresh timeline id for a request.
pub fn next_timeline_id() -> u32 {
    NEXT_TIMELINE_ID.with_borrow_mut(|id| {
        *id += 1;
        *id
    })
}

/// Stores the timeline that arrived from the worker (one copy into wasm memory).
pub fn set_timeline(state: &AppState, header: TimelineHeader, columns: &JsValue) {
    state.swim.legend.set(header.legend.clone());
    state.swim.paths.set((header.has_static_path, header.has_observed_path, header.path_source.clone()));
    state.swim.loading.set(false);
    let timeline = Timeline::from_js(header, columns);
    DATA.with_borrow_mut(|d| *d = Some(Rc::new(timeline)));
}

/// The current timeline id, if a timeline is shown.
pub fn current_timeline_id() -> Option<u32> {
    DATA.with_borrow(|d| d.as_ref().map(|t| t.header.timeline_id))
}

/// A `BarDetails` reply: highlight the SPMD group and show the fields.
pub fn on_bar_details(state: &AppState, details: BarDetailsView) {
    let group = details.group.clone();
    with_view(|r| {
        r.task_labels.insert(details.bar, details.title.clone());
        if r.selected == Some(details.bar) {
            r.group = group;
        }
    });
    if with_view_ret(|r| r.selected == Some(details.bar)).unwrap_or(false) {
        state.swim.details.set(Some(details));
    }
    request_frame();
}

/// A `Dependencies` reply.
pub fn on_dependencies(bar: BarRef, arrows: Vec<Arrow>) {
    with_view(|r| {
        if r.selected == Some(bar) {
            r.arrows = arrows;
        }
    });
    request_frame();
}

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

/// An event listener the renderer added (target, event name, callback), removed on unmount.
type Listener = (web_sys::EventTarget, &'static str, Closure<dyn FnMut(web_sys::Event)>);
/// The resize observer of the view and its callback.
type ResizeWatch = (web_sys::ResizeObserver, Closure<dyn FnMut(js_sys::Array)>);

/// A bar label to draw after the rectangles: x, y (top), width, global bar index.
type Label = (f32, f32, f32, usize);

/// The plain-Rust renderer behind the component.
struct SwimlaneRenderer {
    state: AppState,
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
    /// The selected bar's SPMD group (from `BarDetails`).
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
    /// Task-id texts learnt from details and search replies (label mode `rXtY`).
    task_labels: std::collections::HashMap<BarRef, String>,
    rects: Vec<RectInstance>,
    setup_rects: Vec<RectInstance>,
    pinned_rects: Vec<RectInstance>,
    lines: Vec<LineInstance>,
    arrow_lines: Vec<LineInstance>,
    labels: Vec<Label>,
    frame_pending: bool,
    url_pending: bool,
    listeners: Vec<Listener>,
    frame_closure: Option<Closure<dyn FnMut(f64)>>,
    resize_observer: Option<ResizeWatch>,
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
        self.relayout();
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
            url_state::restore(self, &d);
        } else {
            let _ = self.container.remove_attribute("data-lanes");
            let _ = self.container.remove_attribute("data-bars");
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
        let show_setup = self.state.swim.settings.with_untracked(|st| st.show_setup);
        let start_draw = if show_setup { setup } else { start };
        let x0 = GUTTER_WIDTH_PX + self.camera.us_to_px(start_draw);
        let x1 = (GUTTER_WIDTH_PX + self.camera.us_to_px(end)).max(x0 + 1.0);
        let (x0, x1) = if data.is_marker(global) { layout::marker_span(x0, x1) } else { (x0, x1) };
        Some((x0, y, x1, layout::BAR_HEIGHT_PX))
    }

    /// Selects a bar (or clears the selection) and asks the worker for its details and arrows.
    fn select(&mut self, bar: Option<BarRef>) {
        self.selected = bar;
        self.group.clear();
        self.arrows.clear();
        let preview = bar.and_then(|bar| self.details_preview(bar));
        self.state.swim.details.set(preview);
        let (Some(bar), Some(d)) = (bar, self.data.as_ref()) else { return };
        let timeline_id = d.header.timeline_id;
        worker_client::send(ToWorker::BarDetails(pypto_protocol::timeline::BarDetailsRequest { timeline_id, bar }), None);
        let depth = self.state.swim.settings.with_untracked(|s| s.depth);
        if depth != 0 && d.global(bar).is_some_and(|g| d.is_task(g)) {
            worker_client::send(ToWorker::Dependencies(pypto_protocol::timeline::DependenciesRequest { timeline_id, bar, depth }), None);
        }
    }

    /// What the page knows of a bar without asking the worker (its name, task id, lane and
    /// times), shown the moment it is clicked; the worker's full details replace it.
    fn details_preview(&self, bar: BarRef) -> Option<BarDetailsView> {
        let d = self.data.as_ref()?;
        let g = d.global(bar)?;
        let (setup, start, end) = d.times(g)?;
        let name = d.name_of(g);
        let task = d.task_id_label(g);
        let title = match &task {
            Some(id) => format!("{name}({id})"),
            None => name.to_owned(),
        };
        let mut fields = Vec::new();
        if let Some(tr) = d.header.tracks.get(bar.track as usize) {
            fields.push(("Lane".to_owned(), format!("{} · {}", tr.view.title(), tr.label)));
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
        Some(BarDetailsView { bar, title, fields, group: Vec::new(), complete: false })
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

    /// Sets the window to exactly `[t0, t1]`.
    fn set_window(&mut self, t0: f64, t1: f64) {
        if t1 > t0 && t0.is_finite() && t1.is_finite() {
            self.camera.start_us = t0;
            self.camera.px_per_us = self.plot_width() / (t1 - t0);
        }
    }
}

/// Asks for a frame. Safe to call while the renderer is borrowed (an event handler calling
/// into the chrome): then the handler's own redraw covers it.
fn request_frame() {
    VIEW.with(|cell| {
        let Ok(mut view) = cell.try_borrow_mut() else { return };
        let Some(r) = view.as_mut() else { return };
        if r.frame_pending {
            return;
        }
        r.frame_pending = true;
        if let (Some(window), Some(closure)) = (web_sys::window(), r.frame_closure.as_ref()) {
            let _ = window.request_animation_frame(closure.as_ref().unchecked_ref());
        }
    });
}

/// Runs `f` on the renderer; skipped when there is none or it is busy (re-entrant call).
fn with_view(f: impl FnOnce(&mut SwimlaneRenderer)) {
    with_view_ret(f);
}

fn with_view_ret<T>(f: impl FnOnce(&mut SwimlaneRenderer) -> T) -> Option<T> {
    VIEW.with(|cell| cell.try_borrow_mut().ok()?.as_mut().map(f))
}

/// Jumps to (and selects) a bar: used by the search results list.
pub fn jump_to(bar: BarRef) {
    with_view(|r| r.jump_to(bar));
    request_frame();
}

/// Redraws (after a settings, marker or measure change in the chrome).
pub fn redraw() {
    request_frame();
}

/// Requests dependencies again (the depth setting changed).
pub fn refresh_dependencies() {
    with_view(|r| {
        let sel = r.selected;
        r.arrows.clear();
        let Some(d) = r.data.as_ref() else { return };
        let depth = r.state.swim.settings.with_untracked(|s| s.depth);
        if let Some(bar) = sel {
            if depth != 0 && d.global(bar).is_some_and(|g| d.is_task(g)) {
                worker_client::send(
                    ToWorker::Dependencies(pypto_protocol::timeline::DependenciesRequest { timeline_id: d.header.timeline_id, bar, depth }),
                    None,
                );
            }
        }
    });
    request_frame();
}

/// Remembers task-id labels of bars (from search hits), for the `rXtY` label mode.
pub fn learn_labels(hits: &[SearchHit]) {
    with_view(|r| {
        for h in hits {
            r.task_labels.insert(h.bar, h.label.clone());
        }
    });
}

/// Markers at a bar's start/end, or at its SPMD group's bounds.
pub fn markers_for_bar(state: &AppState, bar: BarRef, group_bounds: bool) {
    let times = with_view_ret(|r| {
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
    if let Some((lo, hi)) = times {
        let what = if group_bounds { "group" } else { "task" };
        markers::add(state, lo, &format!("{what} start"));
        markers::add(state, hi, &format!("{what} end"));
    }
    state.swim.context_menu.set(None);
}

/// Exports the current view as a PNG download.
pub fn export_png() {
    with_view(export::export_png);
}

fn mount(
    state: &AppState,
    container: &web_sys::HtmlElement,
    canvas: &web_sys::HtmlCanvasElement,
    overlay: &web_sys::HtmlCanvasElement,
    tooltip: web_sys::HtmlElement,
) {
    let state = *state;
    let gl = match GlRenderer::new(canvas) {
        Ok(gl) => gl,
        Err(err) => {
            state.general_errors.update(|e| e.push(format!("the swimlane cannot draw: {err}")));
            return;
        }
    };
    let Ok(text) = TextOverlay::new(overlay) else {
        state.general_errors.update(|e| e.push("the swimlane cannot draw text (no 2D canvas)".to_string()));
        return;
    };
    let measure_el = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("swimlane-measure"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    let mut renderer = SwimlaneRenderer {
        state,
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
        task_labels: std::collections::HashMap::new(),
        rects: Vec::new(),
        setup_rects: Vec::new(),
        pinned_rects: Vec::new(),
        lines: Vec::new(),
        arrow_lines: Vec::new(),
        labels: Vec::new(),
        frame_pending: false,
        url_pending: false,
        listeners: Vec::new(),
        frame_closure: Some(Closure::new(|time: f64| with_view(|r| r.frame(time)))),
        resize_observer: None,
    };
    input::attach(&mut renderer, container);
    let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(|_entries: js_sys::Array| {
        with_view(SwimlaneRenderer::resize);
        request_frame();
    });
    if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        observer.observe(container);
        renderer.resize_observer = Some((observer, on_resize));
    }
    renderer.resize();
    VIEW.with_borrow_mut(|v| *v = Some(renderer));
    export::install_automation_api();
}

fn unmount() {
    let old = VIEW.with_borrow_mut(Option::take);
    if let Some(mut r) = old {
        // A frame may still be requested: its callback must outlive the view (it finds no
        // view and does nothing) instead of being invoked after being dropped.
        if let Some(frame) = r.frame_closure.take() {
            frame.forget();
        }
        for (target, kind, closure) in &r.listeners {
            let _ = target.remove_event_listener_with_callback(kind, closure.as_ref().unchecked_ref());
        }
        if let Some((observer, _)) = &r.resize_observer {
            observer.disconnect();
        }
    }
}
