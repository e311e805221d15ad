//! The Task Dependency Graph view (toolkit-features.md group L, issue #6) of a runtime
//! dataset with a deps.json: the worker lays out the selected edge mode's edges (`graph.rs`
//! there); this view draws the nodes (colour by kind: AIC, AIV, MIX, ALLOC, DUMMY; SPMD
//! stacked with a `×N` badge), the edge polylines with arrow heads culled to the viewport
//! (WebGL2, `pypto_render`), and the labels `func_name` / `rXtY` only when legible. Pan by
//! drag, zoom at the cursor with the wheel, Fit; edge modes by buttons or keys 1–5 with a
//! HUD of node and edge counts; TB/LR; click selects a node and highlights its predecessors
//! and successors to a depth; search by `rXtY` (exact) or function name (fuzzy, the
//! swimlane's matcher, run by the worker: `ToWorker::DepSearch`), which selects and centres
//! the best match (Enter again steps through the others); "Show in swimlane" searches the Chip
//! Swimlane for the task and "Show in graph" there arrives as `nav`'s task focus, selected once
//! the graph is laid out (`nav` commands, not calls between views). Each node has an in-port on its incoming side and an
//! out-port on its outgoing side (the edges of the shown mode attach there), labelled with
//! the in / out degree when legible.
//!
//! Legible on opening: the worker packs disconnected components to the canvas's aspect ratio
//! (the request carries it); the first fit shows the whole graph only while its nodes stay at
//! least [`MIN_NODE_PX`] tall, else the largest component at that size, and a minimap
//! (`minimap`) shows the whole graph and the viewport whenever part of it is off screen. Fit
//! (F) shows everything. A wheel notch zooms by at most [`WHEEL_STEP_MAX`]. The 🔥 / ⭐
//! markers are drawn shapes (`markers`), no emoji font needed. Exports (`export`): PNG, SVG,
//! the nodes as CSV; the details' tables are `DataTable`s with their own CSV.
//!
//! Test hooks on `#dep-graph`: `data-nodes`, `data-mode`, `data-mode-counts` (comma list in
//! mode order), `data-visible-edges`, `data-selected` (`rXtY`), `data-highlight` (the
//! highlighted `rXtY`s), `data-selected-screen` (`x,y` of the selected node in CSS px),
//! `data-selected-layout` (its centre in layout units),
//! `data-marker-counts` (🔥 nodes, ⭐ nodes), `data-hover` (`rXtY` under the pointer),
//! `data-layout-ms` / `data-warmup-ms` (the worker's layout call and JIT warm-up times),
//! `data-search-total` (matches of the last search), `data-frame-ms` (the last frame's
//! CPU time), `data-scale`, `data-node-px` (a node's height on screen), `data-fit` (what the
//! last fit showed: `all`, `largest` or `link`), `data-components`, `data-minimap` (`1` while
//! the minimap shows), `data-markers-drawn` (flame, star shapes drawn in the last frame) and
//! `data-text-emoji` (drawn canvas strings holding an emoji: 0).
//!
//! Keyboard (`keyboard`): the canvas is focusable (`role="application"`, its keys in its
//! `aria-label`); `]` / `[` (n / p) step through the tasks in reading order, the arrows follow
//! the shown edges along the layers and move within a layer; the selection is revealed
//! (panned to, zoomed in when too small to see), highlighted as a click's, and announced in the
//! polite live region `dep-announce` (task, function, kind, shown degrees, position).

#![allow(clippy::many_single_char_names)] // geometry: x, y, w, h, s(cale), d(ata)

use std::collections::VecDeque;

use crate::i18n::{t, tr, tr_with, warning_message, Arg};
use crate::nav::KeyMap;
use crate::shortcuts::{self, Action, Scope};
use leptos::prelude::*;
use pypto_protocol::dep_graph::{columns as col, DepGraphHeader, DepGraphRequest, DepNodeDetailsRequest, DepSearchRequest, DEP_KIND_NAMES};
use pypto_protocol::{DatasetKind, EdgeMode, FileRole, TaskId, ViewKind};
use pypto_render::text::TextOverlay;
use pypto_render::{GlRenderer, LineInstance, RectInstance};
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;

mod export;
mod keyboard;
mod markers;
mod minimap;

use markers::{MarkerIcon, FIRE, STAR};
use minimap::Minimap;

use crate::nav::{Focus, GraphCamera, GraphNav, Nav, Selected};
use crate::owned::{FrameRequest, Owned};
use crate::session::{DatasetRow, Session};
use crate::table::{Cell, Column, DataTable, TableData};
use crate::view_spec::{no_init, nothing_docked, ViewSpec};
use crate::worker_client::{Slot, WorkerClient, WorkerError};

/// The registry's entry.
pub const SPEC: ViewSpec = ViewSpec {
    kind: ViewKind::TaskGraph,
    title_id: "view-task-dependency-graph",
    tooltip_id: "",
    dataset_kind: DatasetKind::Runtime,
    default: false,
    switchable: true,
    available: |row: &DatasetRow| row.has_file(FileRole::Deps),
    init: no_init,
    component: || view! { <DepGraphView/> }.into_any(),
    docked: nothing_docked,
};

/// The edge modes' names (message ids).
const MODE_LABELS: [&str; 5] = ["gr-mode-full", "gr-mode-reduced", "gr-mode-omitted", "gr-mode-reduced-df", "gr-mode-omitted-df"];
const NAME_FONT: &str = "600 11px system-ui, sans-serif";
const ID_FONT: &str = "10px ui-monospace, monospace";
/// Node height on screen from which labels are drawn.
const LABEL_MIN_PX: f32 = 22.0;
use pypto_protocol::dep_graph::{DEP_KIND_ALLOC as KIND_ALLOC, DEP_KIND_DUMMY as KIND_DUMMY, DEP_NODE_HEIGHT as NODE_LAYOUT_H};
/// Node height on screen from which edges get arrow heads.
const ARROW_MIN_NODE_PX: f32 = 4.0;

/// Slots of [`SegmentsDrawn`]'s table (a power of two).
const SEGMENT_SLOTS_LOG2: u32 = 18;

/// The segments drawn this frame while nodes are under a pixel, by the screen pixels of their
/// ends: a segment whose ends fall on the same pixels as one already drawn is drawn once (the
/// 1M-task graph's 1.7M edges, at Fit, collapse to the pixels they cover — the graph's level of
/// detail). A direct-mapped table: a collision only draws a segment twice, never drops one.
struct SegmentsDrawn(Vec<u64>);

impl SegmentsDrawn {
    fn clear(&mut self) {
        self.0.clear();
        self.0.resize(1 << SEGMENT_SLOTS_LOG2, u64::MAX);
    }

    /// Whether a segment from `from` to `to` (screen px) is the first on its pixels this frame.
    fn first(&mut self, from: (f32, f32), to: (f32, f32)) -> bool {
        let q = |v: f32| u64::from(v.round().clamp(0.0, 65534.0) as u16);
        let key = q(from.0) | (q(from.1) << 16) | (q(to.0) << 32) | (q(to.1) << 48);
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SEGMENT_SLOTS_LOG2)) as usize;
        match self.0.get_mut(slot) {
            Some(k) if *k == key => false,
            Some(k) => {
                *k = key;
                true
            }
            None => true,
        }
    }
}
/// In / out port size in layout units (along the node side, across it).
const PORT_LEN: f32 = 22.0;
const PORT_THICK: f32 = 12.0;
const PORT_FONT: &str = "600 9px system-ui, sans-serif";
/// Port thickness on screen from which the degree is written in it.
const PORT_TEXT_MIN_PX: f32 = 11.0;
/// The first fit keeps nodes at least this tall on screen (the labels' size).
pub const MIN_NODE_PX: f32 = LABEL_MIN_PX;
/// Most a wheel notch zooms (in; out by its inverse), whatever its delta.
pub const WHEEL_STEP_MAX: f32 = 1.25;
/// Node height on screen from which the markers are drawn.
const MARKER_MIN_NODE_PX: f32 = 10.0;
/// Margin of a fit, CSS px.
const FIT_MARGIN_PX: f32 = 24.0;

/// The zoom factor of one wheel event: its delta in px (lines of 16 px, pages of 800 px),
/// bounded to a step of [`WHEEL_STEP_MAX`].
pub fn wheel_factor(delta_y: f64, delta_mode: u32) -> f32 {
    let px = match delta_mode {
        1 => delta_y * 16.0,
        2 => delta_y * 800.0,
        _ => delta_y,
    };
    let f = (-px as f32 * 0.0015).exp();
    if f.is_finite() {
        f.clamp(1.0 / WHEEL_STEP_MAX, WHEEL_STEP_MAX)
    } else if px < 0.0 {
        WHEEL_STEP_MAX
    } else {
        1.0 / WHEEL_STEP_MAX
    }
}

/// Whether `text` holds an emoji (drawn as a box where no emoji font is installed).
fn has_emoji(text: &str) -> bool {
    text.chars().any(|c| matches!(c as u32, 0x1F000..=0x1FAFF | 0x2600..=0x27BF | 0x2B50 | 0x2B55 | 0xFE0F))
}

/// A laid-out graph as the worker sent it, plus adjacency for highlighting and details.
struct GraphData {
    header: DepGraphHeader,
    /// Per node: its task id as shown (`rXtY`).
    labels: Vec<String>,
    x: Vec<f32>,
    y: Vec<f32>,
    w: Vec<f32>,
    h: Vec<f32>,
    kind: Vec<u8>,
    /// Bit 1 🔥, bit 2 ⭐ (static early-dispatch markers).
    markers: Vec<u8>,
    block_num: Vec<u32>,
    name_index: Vec<u32>,
    pred: Vec<u32>,
    succ: Vec<u32>,
    point_offsets: Vec<u32>,
    points: Vec<f32>,
    /// Per shown edge `[min_x, min_y, max_x, max_y]` of its polyline.
    edge_box: Vec<[f32; 4]>,
    /// Current mode: out / in neighbours per node.
    out_adj: Vec<Vec<u32>>,
    in_adj: Vec<Vec<u32>>,
    /// Full graph: every unique edge, and out / in neighbours per node (the details' fan-in /
    /// fan-out), worked out when the details first need them ([`GraphData::full_adjacency`]).
    full_pred: Vec<u32>,
    full_succ: Vec<u32>,
    full_adj: std::cell::OnceCell<Adjacency>,
    bbox: [f32; 4],
    /// The box of the component with the most nodes (the whole graph's when it is one).
    largest: [f32; 4],
    /// The nodes in keyboard reading order (`keyboard::reading_order`), and each node's
    /// position in it: worked out when first needed (a key, an announcement), not before the
    /// first frame ([`GraphData::reading`]).
    reading: std::cell::OnceCell<(Vec<u32>, Vec<u32>)>,
    /// When this graph was asked for and arrived (`ClickTiming`), until its first frame logs it.
    timing: Option<ClickTiming>,
}

/// Where the time from the ask to the first frame of a graph went (`performance.now()` ms), for
/// the `pypto-graph page: …` console line the browser benches read.
#[derive(Clone, Copy)]
#[allow(clippy::struct_field_names)] // the unit in each name, as everywhere
struct ClickTiming {
    asked_ms: f64,
    arrived_ms: f64,
    decoded_ms: f64,
}

/// The columns of a laid-out graph, as plain vectors (keys of `pypto_protocol::dep_graph::columns`).
#[derive(Default)]
struct Cols {
    x: Vec<f32>,
    y: Vec<f32>,
    w: Vec<f32>,
    h: Vec<f32>,
    kind: Vec<u8>,
    markers: Vec<u8>,
    block_num: Vec<u32>,
    name_index: Vec<u32>,
    pred: Vec<u32>,
    succ: Vec<u32>,
    point_offsets: Vec<u32>,
    points: Vec<f32>,
    full_pred: Vec<u32>,
    full_succ: Vec<u32>,
}

fn typed<T: JsCast>(columns: &JsValue, name: &str) -> Option<T> {
    js_sys::Reflect::get(columns, &JsValue::from_str(name)).ok().and_then(|v| v.dyn_into::<T>().ok())
}
fn col_f32(columns: &JsValue, name: &str) -> Vec<f32> {
    typed::<js_sys::Float64Array>(columns, name).map(|a| a.to_vec().into_iter().map(|v| v as f32).collect()).unwrap_or_default()
}
fn col_u32(columns: &JsValue, name: &str) -> Vec<u32> {
    typed::<js_sys::Uint32Array>(columns, name).map(|a| a.to_vec()).unwrap_or_default()
}

/// Out and in neighbours per node.
type Adjacency = (Vec<Vec<u32>>, Vec<Vec<u32>>);

fn adjacency(n: usize, from: &[u32], to: &[u32]) -> Adjacency {
    let mut out = vec![Vec::new(); n];
    let mut inn = vec![Vec::new(); n];
    for (&u, &v) in from.iter().zip(to) {
        if let (Some(o), Some(i)) = (out.get_mut(u as usize), inn.get_mut(v as usize)) {
            o.push(v);
            i.push(u);
        }
    }
    (out, inn)
}

impl GraphData {
    /// Node `n` as nav reports the selection: its task and function (a graph has no times).
    fn described(&self, n: usize) -> Option<Selected> {
        let task = *self.header.task_ids.get(n)?;
        let function = self.name_index.get(n).and_then(|&i| self.header.names.get(i as usize)).cloned();
        Some(Selected { task: Some(task), function, ..Selected::default() })
    }

    fn from_js(mut header: DepGraphHeader, columns: &JsValue) -> GraphData {
        // The task ids come as columns (the worker empties the header's list).
        let (lo, hi) = (col_u32(columns, col::TASK_ID_LO), col_u32(columns, col::TASK_ID_HI));
        if header.task_ids.is_empty() && lo.len() == hi.len() {
            header.task_ids = lo.iter().zip(&hi).map(|(&l, &h)| TaskId((u64::from(h) << 32) | u64::from(l))).collect();
        }
        let u8s = |name: &str| typed::<js_sys::Uint8Array>(columns, name).map(|a| a.to_vec()).unwrap_or_default();
        let cols = Cols {
            x: col_f32(columns, col::X),
            y: col_f32(columns, col::Y),
            w: col_f32(columns, col::W),
            h: col_f32(columns, col::H),
            kind: u8s(col::KIND),
            markers: u8s(col::MARKERS),
            block_num: col_u32(columns, col::BLOCK_NUM),
            name_index: col_u32(columns, col::NAME_INDEX),
            pred: col_u32(columns, col::PRED),
            succ: col_u32(columns, col::SUCC),
            point_offsets: col_u32(columns, col::POINT_OFFSETS),
            points: col_f32(columns, col::POINTS),
            full_pred: col_u32(columns, col::FULL_PRED),
            full_succ: col_u32(columns, col::FULL_SUCC),
        };
        Self::from_columns(header, cols)
    }

    fn from_columns(header: DepGraphHeader, c: Cols) -> GraphData {
        let Cols { x, y, w, h, kind, markers, block_num, name_index, pred, succ, point_offsets, points, full_pred, full_succ } = c;
        let n = x.len();
        let edge_box: Vec<[f32; 4]> = (0..pred.len())
            .map(|e| {
                let a = point_offsets.get(e).copied().unwrap_or(0) as usize;
                let b = point_offsets.get(e + 1).copied().unwrap_or(0) as usize;
                let mut bx = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
                for p in a..b {
                    let (px, py) = (points.get(2 * p).copied().unwrap_or(0.0), points.get(2 * p + 1).copied().unwrap_or(0.0));
                    bx = [bx[0].min(px), bx[1].min(py), bx[2].max(px), bx[3].max(py)];
                }
                bx
            })
            .collect();
        let (out_adj, in_adj) = adjacency(n, &pred, &succ);
        let mut bbox = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
        for (i, &cx) in x.iter().enumerate() {
            let cy = y.get(i).copied().unwrap_or(0.0);
            let (hw, hh) = (w.get(i).copied().unwrap_or(0.0) / 2.0, h.get(i).copied().unwrap_or(0.0) / 2.0);
            bbox = [bbox[0].min(cx - hw), bbox[1].min(cy - hh), bbox[2].max(cx + hw), bbox[3].max(cy + hh)];
        }
        for eb in &edge_box {
            bbox = [bbox[0].min(eb[0]), bbox[1].min(eb[1]), bbox[2].max(eb[2]), bbox[3].max(eb[3])];
        }
        if n == 0 {
            bbox = [0.0, 0.0, 1.0, 1.0];
        }
        let l = header.largest_component.map(|v| v as f32);
        let largest = if l[2] > l[0] && l[3] > l[1] { l } else { bbox };
        GraphData {
            labels: header.task_ids.iter().map(ToString::to_string).collect(),
            header,
            x,
            y,
            w,
            h,
            kind,
            markers,
            block_num,
            name_index,
            pred,
            succ,
            point_offsets,
            points,
            edge_box,
            out_adj,
            in_adj,
            full_pred,
            full_succ,
            full_adj: std::cell::OnceCell::new(),
            bbox,
            largest,
            reading: std::cell::OnceCell::new(),
            timing: None,
        }
    }

    /// Out / in neighbours per node in the full graph (worked out on the first call).
    fn full_adjacency(&self) -> &Adjacency {
        self.full_adj.get_or_init(|| adjacency(self.x.len(), &self.full_pred, &self.full_succ))
    }

    /// The keyboard's reading order and each node's rank in it (worked out on the first call).
    fn reading(&self) -> (&[u32], &[u32]) {
        let (order, rank) = self.reading.get_or_init(|| {
            let order = keyboard::reading_order(self);
            let rank = keyboard::ranks(&order);
            (order, rank)
        });
        (order, rank)
    }

    /// What the live region says of node `n`: task, function, kind, shown degrees, position.
    fn announcement(&self, n: usize) -> String {
        let kind = DEP_KIND_NAMES.get(self.kind.get(n).copied().unwrap_or(KIND_DUMMY) as usize).copied().unwrap_or("?");
        tr_with(
            "gr-announce",
            &[
                ("task", Arg::from(self.label(n))),
                ("function", Arg::from(self.name(n))),
                ("kind", Arg::from(kind)),
                ("preds", Arg::from(self.in_adj.get(n).map_or(0, Vec::len))),
                ("succs", Arg::from(self.out_adj.get(n).map_or(0, Vec::len))),
                ("n", Arg::from(self.reading().1.get(n).map_or(0, |&r| r as usize + 1))),
                ("total", Arg::from(self.x.len())),
            ],
        )
    }

    fn name(&self, node: usize) -> &str {
        self.name_index.get(node).and_then(|&i| self.header.names.get(i as usize)).map_or("", String::as_str)
    }
    fn label(&self, node: usize) -> &str {
        self.labels.get(node).map_or("", String::as_str)
    }
    fn point(&self, p: usize) -> (f32, f32) {
        (self.points.get(2 * p).copied().unwrap_or(0.0), self.points.get(2 * p + 1).copied().unwrap_or(0.0))
    }
}

/// The view's state, owned by its component: signals for the chrome, the renderer, what a
/// layout brought before the canvas existed, the search's matches, the asks' slots.
#[derive(Clone, Copy)]
struct GraphUi {
    renderer: Owned<Option<Renderer>>,
    /// A graph that arrived before the renderer was mounted.
    pending: Owned<Option<GraphData>>,
    /// The current search's matches and which one is shown.
    search_hits: Owned<(String, Vec<u32>, usize)>,
    frame: FrameRequest,
    client: WorkerClient,
    nav: Nav,
    /// Slots of the layout, node details and search asks (the newest of each counts).
    layout_slot: Slot,
    details_slot: Slot,
    search_slot: Slot,
    mode: RwSignal<usize>,
    left_right: RwSignal<bool>,
    depth: RwSignal<i32>,
    selected: RwSignal<Option<u32>>,
    /// Bumped when a new graph arrives.
    version: RwSignal<u64>,
    loading: RwSignal<bool>,
    /// The dataset whose layout the user cancelled (the progress bar's Cancel), to lay out again.
    cancelled: RwSignal<Option<u32>>,
    search: RwSignal<String>,
    search_msg: RwSignal<String>,
    /// The worker's tensor arguments and edge annotations of `(dataset, node)`.
    node_details: RwSignal<Option<NodeDetails>>,
    /// What the live region says (the selection, or why a key moved nothing).
    announce: RwSignal<String>,
}

/// Rows of the selected node's argument and edge-annotation tables.
#[derive(Clone, PartialEq)]
struct NodeDetails {
    dataset_id: u32,
    node: u32,
    args: Vec<Vec<String>>,
    edges: Vec<Vec<String>>,
}

/// Highlight flags per node.
const HL_PRED: u8 = 1;
const HL_SUCC: u8 = 2;

struct Renderer {
    container: web_sys::HtmlElement,
    gl: GlRenderer,
    text: TextOverlay,
    data: Option<GraphData>,
    scale: f32,
    ox: f32,
    oy: f32,
    css_w: f32,
    css_h: f32,
    drag: Option<(f32, f32, f32, f32, bool)>,
    selected: Option<u32>,
    /// The node under the pointer: highlighted like a selection while nothing is selected.
    hover: Option<u32>,
    highlight: Vec<u8>,
    rects: Vec<RectInstance>,
    lines: Vec<LineInstance>,
    arrows: Vec<LineInstance>,
    /// Screen pixels already covered by a sub-pixel node this frame.
    occupied: Vec<bool>,
    /// Edge segments already drawn this frame while nodes are under a pixel.
    segments_drawn: SegmentsDrawn,
    fit_pending: bool,
    /// Matches of the last search (the hits list is capped).
    search_total: u64,
    /// nav's graph state (the camera a link asks for; the camera reported back).
    graph_nav: RwSignal<GraphNav>,
    /// The camera last reported to (or applied from) nav.
    last_camera: Option<GraphCamera>,
    /// The overview in the corner, and whether it still shows an older graph.
    minimap: Option<Minimap>,
    minimap_stale: bool,
    /// What the last fit showed (`data-fit`).
    fit_kind: &'static str,
}

impl GraphUi {
    fn with<R>(self, f: impl FnOnce(&mut Renderer) -> R) -> Option<R> {
        self.renderer.with_some(f)
    }

    fn redraw(self) {
        self.with(Renderer::frame);
    }

    /// One frame at the next animation frame however many wheel / drag events arrive before it.
    fn redraw_later(self) {
        self.frame.request(move |_| self.redraw());
    }

    /// The node of `task` in the shown graph.
    fn node_of(self, task: TaskId) -> Option<u32> {
        self.with(|r| r.data.as_ref().and_then(|d| d.header.task_ids.iter().position(|t| *t == task))).flatten().map(|n| n as u32)
    }

    /// A laid-out graph arrived.
    fn on_graph(self, header: DepGraphHeader, columns: &JsValue, asked_ms: f64) {
        let arrived_ms = crate::browser::now_ms();
        let mut graph = GraphData::from_js(header, columns);
        graph.timing = Some(ClickTiming { asked_ms, arrived_ms, decoded_ms: crate::browser::now_ms() });
        let mut data = Some(graph);
        self.with(|r| {
            if let Some(data) = data.take() {
                let keep_view = r
                    .data
                    .as_ref()
                    .is_some_and(|d| d.header.left_right == data.header.left_right && d.header.dataset_id == data.header.dataset_id);
                r.data = Some(data);
                r.minimap_stale = true;
                r.fit_pending = r.fit_pending || !keep_view;
            }
        });
        if let Some(data) = data {
            self.pending.with(|p| *p = Some(data));
        }
        self.loading.set(false);
        self.search_hits.with(|h| *h = (String::new(), Vec::new(), 0));
        // A task to show ("Show in graph" from the swimlane).
        if let Focus::Task { task, .. } = self.nav.focus.get_untracked() {
            let node = self.with(|r| r.data.as_ref().and_then(|d| d.header.task_ids.iter().position(|t| *t == task))).flatten();
            if let Some(node) = node {
                self.with(|r| r.fit_pending = false);
                self.with(Renderer::first_fit);
                self.select(Some(node as u32), true);
            }
        }
        self.version.update(|v| *v += 1);
    }

    /// Width / height of the graph's canvas (of the window before the canvas is laid out).
    fn canvas_aspect(self) -> f64 {
        let canvas = self
            .with(|r| {
                r.resize();
                (r.css_w > 1.0 && r.css_h > 1.0).then(|| f64::from(r.css_w) / f64::from(r.css_h))
            })
            .flatten();
        canvas
            .or_else(|| {
                let w = web_sys::window()?;
                let (iw, ih) = (w.inner_width().ok()?.as_f64()?, w.inner_height().ok()?.as_f64()?);
                // The canvas is the window less the toolbars and the details below it.
                (iw > 1.0 && ih > 1.0).then(|| iw / (ih * 0.6))
            })
            .unwrap_or(16.0 / 9.0)
    }

    /// Asks for the layout of the current mode and direction.
    fn request(self, dataset_id: u32) {
        self.loading.set(true);
        self.cancelled.set(None);
        let mode = EdgeMode::ALL.get(self.mode.get_untracked()).copied().unwrap_or_default();
        let request = DepGraphRequest { dataset_id, mode, left_right: self.left_right.get_untracked(), aspect: self.canvas_aspect() };
        let asked_ms = crate::browser::now_ms();
        let reply = self.client.ask_columns(self.layout_slot, request);
        leptos::task::spawn_local(async move {
            match reply.await {
                Ok((header, columns)) => self.on_graph(header, &columns, asked_ms),
                // A newer ask is on its way (or the view went away): it says how it went.
                Err(WorkerError::Superseded) => {}
                Err(WorkerError::Cancelled) => {
                    let _ = self.loading.try_set(false);
                    let _ = self.cancelled.try_set(Some(dataset_id));
                }
                // The problem is listed in the sidebar; the graph shown before stays.
                Err(_) => {
                    let _ = self.loading.try_set(false);
                }
            }
        });
    }

    /// Selects `node` (or clears), recomputes the highlight, asks for its details, redraws.
    fn select(self, node: Option<u32>, centre: bool) {
        self.with(|r| {
            r.selected = node;
            r.compute_highlight(self.depth.get_untracked());
            if centre {
                if let Some(n) = node {
                    r.centre_on(n as usize);
                }
            }
        });
        self.selected.set(node);
        // nav's selection follows, once there is a graph (before, nav's is a link's, still to show).
        let task = self.with(|r| r.data.as_ref().map(|d| node.and_then(|n| d.header.task_ids.get(n as usize).copied()))).flatten();
        if let Some(task) = task {
            if self.nav.graph.with_untracked(|g| g.selected != task) {
                self.nav.graph.update(|g| g.selected = task);
            }
        }
        self.node_details.set(None);
        let said = node.and_then(|n| self.with(|r| r.data.as_ref().map(|d| d.announcement(n as usize))).flatten());
        self.announce.set(said.unwrap_or_default());
        let described = node.and_then(|n| self.with(|r| r.data.as_ref().and_then(|d| d.described(n as usize))).flatten());
        if self.nav.selected.with_untracked(|s| *s != described) {
            self.nav.selected.set(described);
        }
        let dataset = self.with(|r| r.data.as_ref().map(|d| d.header.dataset_id)).flatten();
        if let (Some(node), Some(dataset_id)) = (node, dataset) {
            let reply = self.client.ask_in(self.details_slot, DepNodeDetailsRequest { dataset_id, node });
            leptos::task::spawn_local(async move {
                if let Ok(d) = reply.await {
                    if self.selected.try_get_untracked() == Some(Some(node)) {
                        self.node_details.set(Some(NodeDetails { dataset_id, node, args: d.args, edges: d.edges }));
                    }
                }
            });
        }
        self.redraw();
    }

    /// A keyboard move (`keyboard`): selects the node it reaches, shown on screen, or says
    /// why there is none.
    fn step(self, m: keyboard::Move) {
        let reached = self
            .with(|r| {
                r.data.as_ref().map(|d| {
                    let (order, rank) = d.reading();
                    (keyboard::target(d, order, rank, r.selected, m), r.selected.map(|s| d.label(s as usize).to_string()))
                })
            })
            .flatten();
        let Some((reached, from)) = reached else { return };
        match reached {
            Ok(node) => {
                self.select(Some(node), false);
                self.with(|r| r.reveal(node as usize));
                self.redraw();
            }
            Err(miss) => {
                let id = match miss {
                    keyboard::Miss::Empty => "gr-announce-empty",
                    keyboard::Miss::NoSuccessor => "gr-announce-no-successor",
                    keyboard::Miss::NoPredecessor => "gr-announce-no-predecessor",
                    keyboard::Miss::LayerEnd => "gr-announce-layer-end",
                };
                self.announce.set(tr_with(id, &[("task", Arg::from(from.unwrap_or_default()))]));
            }
        }
    }

    /// Search: `rXtY` exact, else function names fuzzily — asked of the worker; Enter again with
    /// the same query steps to the next match.
    fn run_search(self) {
        let query = self.search.get_untracked().trim().to_string();
        if query.is_empty() {
            return;
        }
        let step = self.search_hits.with(|(q, hits, cur)| {
            (*q == query && !hits.is_empty()).then(|| {
                *cur = (*cur + 1) % hits.len();
                (
                    hits.get(*cur).copied().unwrap_or(0),
                    tr_with("gr-hit-of", &[("n", Arg::from(*cur + 1)), ("total", Arg::from(hits.len()))]),
                )
            })
        });
        if let Some(Some((node, msg))) = step {
            self.search_msg.set(msg);
            self.select(Some(node), true);
            return;
        }
        let Some(dataset_id) = self.with(|r| r.data.as_ref().map(|d| d.header.dataset_id)).flatten() else { return };
        self.search_msg.set(tr("gr-searching"));
        let reply = self.client.ask_in(self.search_slot, DepSearchRequest { dataset_id, query });
        leptos::task::spawn_local(async move {
            if let Ok(hits) = reply.await {
                self.on_search_hits(dataset_id, &hits.query, hits.nodes, hits.total);
            }
        });
    }

    /// A search's matches: selects and centres the best one.
    fn on_search_hits(self, dataset_id: u32, query: &str, nodes: Vec<u32>, total: u64) {
        if self.with(|r| r.data.as_ref().map(|d| d.header.dataset_id)).flatten() != Some(dataset_id) {
            return;
        }
        let first = nodes.first().copied();
        self.search_hits.with(|h| *h = (query.to_string(), nodes, 0));
        self.with(|r| r.search_total = total);
        self.search_msg.set(if first.is_some() {
            tr_with("gr-hit-of", &[("n", Arg::from(1usize)), ("total", Arg::from(total))])
        } else {
            tr_with("gr-no-match", &[("query", Arg::from(query))])
        });
        if first.is_some() {
            self.select(first, true);
        } else {
            self.redraw();
        }
    }
}

/// Scale and offset showing `bbox` in a `css_w` × `css_h` canvas (margins of
/// [`FIT_MARGIN_PX`]), at a scale of at least `min_scale` (at most 2): centred along an axis it
/// fits in; along the layers' axis (down, or right when `left_right`) from its first layer when
/// it does not, across them still centred (a layered graph's sources sit near the middle).
fn fit_box(bbox: [f32; 4], css_w: f32, css_h: f32, min_scale: f32, left_right: bool) -> (f32, f32, f32) {
    let [x0, y0, x1, y1] = bbox;
    let m = FIT_MARGIN_PX;
    let sx = (css_w - 2.0 * m) / (x1 - x0).max(1.0);
    let sy = (css_h - 2.0 * m) / (y1 - y0).max(1.0);
    let s = sx.min(sy).max(min_scale).clamp(1e-4, 2.0);
    let place = |lo: f32, hi: f32, room: f32, flow: bool| {
        if !flow || (hi - lo) * s <= room - 2.0 * m + 0.5 {
            room / 2.0 - f32::midpoint(lo, hi) * s
        } else {
            m - lo * s
        }
    };
    (s, place(x0, x1, css_w, left_right), place(y0, y1, css_h, !left_right))
}

fn set_attr(el: &web_sys::HtmlElement, k: &str, v: &str) {
    let _ = el.set_attribute(k, v);
}

impl Renderer {
    fn resize(&mut self) {
        let rect = self.container.get_bounding_client_rect();
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()) as f32;
        let (w, h) = (rect.width().max(1.0) as f32, rect.height().max(1.0) as f32);
        if (w - self.css_w).abs() > 0.5 || (h - self.css_h).abs() > 0.5 {
            self.css_w = w;
            self.css_h = h;
            self.gl.resize(w, h, dpr);
            self.text.resize(w, h, dpr);
        }
    }

    /// Shows the whole graph (Fit, F), however small its nodes get.
    fn fit(&mut self) {
        let Some(d) = &self.data else { return };
        let (scale, ox, oy) = fit_box(d.bbox, self.css_w, self.css_h, 1e-4, d.header.left_right);
        (self.scale, self.ox, self.oy) = (scale, ox, oy);
        self.fit_kind = "all";
    }

    /// The first fit of a graph: the whole graph while its nodes stay [`MIN_NODE_PX`] tall,
    /// else the largest component at no less than that (its start when it does not fit).
    fn first_fit(&mut self) {
        self.fit();
        let Some(d) = &self.data else { return };
        let min_scale = MIN_NODE_PX / NODE_LAYOUT_H;
        if self.scale >= min_scale {
            return;
        }
        let left_right = d.header.left_right;
        let (scale, mut ox, mut oy) = fit_box(d.largest, self.css_w, self.css_h, min_scale, left_right);
        // Across the flow, show where the component's first screenful of layers lies (a wide
        // component's middle may be empty there).
        let (flow, across, room_flow, room_across) =
            if left_right { (&d.x, &d.y, self.css_w, self.css_h) } else { (&d.y, &d.x, self.css_h, self.css_w) };
        let [x0, y0, x1, y1] = d.largest;
        let (flow_lo, (across_lo, across_hi)) = if left_right { (x0, (y0, y1)) } else { (y0, (x0, x1)) };
        let band_hi = flow_lo + room_flow / scale;
        let in_band = flow.iter().zip(across.iter()).filter(|&(&f, &a)| f >= flow_lo && f <= band_hi && a >= across_lo && a <= across_hi);
        let (lo, hi) = in_band.fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), (_, &a)| (lo.min(a), hi.max(a)));
        if lo <= hi {
            // Centres to outlines: half a node's width (150 layout px) and a little.
            let (lo, hi) = (lo - 100.0, hi + 100.0);
            let offset = if (hi - lo) * scale <= room_across - 2.0 * FIT_MARGIN_PX {
                room_across / 2.0 - f32::midpoint(lo, hi) * scale
            } else {
                FIT_MARGIN_PX - lo * scale
            };
            if left_right {
                oy = offset;
            } else {
                ox = offset;
            }
        }
        (self.scale, self.ox, self.oy) = (scale, ox, oy);
        self.fit_kind = "largest";
    }

    fn centre_on(&mut self, node: usize) {
        let Some(d) = &self.data else { return };
        let (cx, cy) = (d.x.get(node).copied().unwrap_or(0.0), d.y.get(node).copied().unwrap_or(0.0));
        self.scale = self.scale.max(0.8);
        self.ox = self.css_w / 2.0 - cx * self.scale;
        self.oy = self.css_h / 2.0 - cy * self.scale;
    }

    /// Brings `node` on screen for a keyboard move: centred when any of it is off screen,
    /// zoomed in to [`MIN_NODE_PX`] first when it is too small to see its outline.
    fn reveal(&mut self, node: usize) {
        let Some(d) = &self.data else { return };
        let (cx, cy) = (d.x.get(node).copied().unwrap_or(0.0), d.y.get(node).copied().unwrap_or(0.0));
        let (hw, hh) = (d.w.get(node).copied().unwrap_or(0.0) / 2.0, d.h.get(node).copied().unwrap_or(0.0) / 2.0);
        let zoom = NODE_LAYOUT_H * self.scale < ARROW_MIN_NODE_PX;
        if zoom {
            self.scale = MIN_NODE_PX / NODE_LAYOUT_H;
        }
        let (s, m) = (self.scale, FIT_MARGIN_PX);
        let (x0, y0, x1, y1) = ((cx - hw) * s + self.ox, (cy - hh) * s + self.oy, (cx + hw) * s + self.ox, (cy + hh) * s + self.oy);
        if zoom || x0 < m || y0 < m || x1 > self.css_w - m || y1 > self.css_h - m {
            self.centre_at(cx, cy);
        }
    }

    /// Centres the view on layout point `(x, y)` (the minimap's press and drag).
    fn centre_at(&mut self, x: f32, y: f32) {
        self.ox = self.css_w / 2.0 - x * self.scale;
        self.oy = self.css_h / 2.0 - y * self.scale;
    }

    fn zoom_at(&mut self, sx: f32, sy: f32, factor: f32) {
        let s = (self.scale * factor).clamp(1e-4, 8.0);
        let k = s / self.scale;
        self.ox = sx - (sx - self.ox) * k;
        self.oy = sy - (sy - self.oy) * k;
        self.scale = s;
    }

    /// Shows `c` (the layout point at the centre, the zoom).
    fn apply_camera(&mut self, c: GraphCamera) {
        self.fit_kind = "link";
        self.scale = c.scale.clamp(1e-4, 8.0);
        self.ox = self.css_w / 2.0 - c.cx * self.scale;
        self.oy = self.css_h / 2.0 - c.cy * self.scale;
        self.last_camera = Some(c);
    }

    /// Tells nav the camera (for links) when it moved.
    fn report_camera(&mut self) {
        if self.css_w <= 0.0 || self.data.is_none() {
            return;
        }
        let c =
            GraphCamera { cx: (self.css_w / 2.0 - self.ox) / self.scale, cy: (self.css_h / 2.0 - self.oy) / self.scale, scale: self.scale };
        if self.last_camera != Some(c) {
            self.last_camera = Some(c);
            self.graph_nav.update(|g| g.camera = Some(c));
        }
    }

    fn node_at(&self, sx: f32, sy: f32) -> Option<u32> {
        let d = self.data.as_ref()?;
        let (wx, wy) = ((sx - self.ox) / self.scale, (sy - self.oy) / self.scale);
        (0..d.x.len()).find(|&i| (wx - d.x[i]).abs() <= d.w[i] / 2.0 && (wy - d.y[i]).abs() <= d.h[i] / 2.0).map(|i| i as u32)
    }

    /// BFS from the selection over the current mode's edges, `depth` steps (−1 = all).
    fn compute_highlight(&mut self, depth: i32) {
        let Some(d) = &self.data else { return };
        let n = d.x.len();
        self.highlight = vec![0; n];
        let Some(sel) = self.selected.or(self.hover).filter(|&s| (s as usize) < n) else { return };
        if depth == 0 {
            return;
        }
        for (flag, adj) in [(HL_PRED, &d.in_adj), (HL_SUCC, &d.out_adj)] {
            let mut queue = VecDeque::from([(sel, 0i32)]);
            let mut seen = vec![false; n];
            seen[sel as usize] = true;
            while let Some((u, k)) = queue.pop_front() {
                if depth >= 0 && k >= depth {
                    continue;
                }
                for &v in adj.get(u as usize).map_or(&[][..], Vec::as_slice) {
                    if !seen[v as usize] {
                        seen[v as usize] = true;
                        self.highlight[v as usize] |= flag;
                        queue.push_back((v, k + 1));
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_lines)] // one pass each: edges, nodes, labels, test attributes
    fn frame(&mut self) {
        let perf = web_sys::window().and_then(|w| w.performance());
        let started = perf.as_ref().map_or(0.0, web_sys::Performance::now);
        let timing = self.data.as_mut().and_then(|d| d.timing.take());
        self.resize();
        if self.fit_pending && self.data.is_some() {
            self.fit_pending = false;
            match self.graph_nav.with_untracked(|g| g.camera) {
                Some(c) => self.apply_camera(c),
                None => self.first_fit(),
            }
        }
        // The effective theme's colours (`settings`), read once per frame; predecessors warm,
        // successors accent, the selection and SPMD frames danger-red.
        let p = crate::settings::canvas_palette();
        let (pred_rgba, succ_rgba) = (p.warm, p.accent);
        self.gl.begin_frame(pypto_render::theme::clear_color(p));
        self.text.clear();
        self.rects.clear();
        self.lines.clear();
        self.arrows.clear();
        let Some(d) = &self.data else { return };
        let (s, ox, oy) = (self.scale, self.ox, self.oy);
        let view = [-ox / s, -oy / s, (self.css_w - ox) / s, (self.css_h - oy) / s];
        let sel = self.selected.or(self.hover);
        let has_hl = sel.is_some();
        let hl = |i: u32| self.highlight.get(i as usize).copied().unwrap_or(0) | if Some(i) == sel { HL_PRED | HL_SUCC } else { 0 };
        let mut visible_edges = 0u64;
        let line_w = (1.2 * s.sqrt()).clamp(0.6, 2.0);
        let node_px = NODE_LAYOUT_H * s;
        // Nodes under a pixel: an unhighlighted segment on the pixels of one drawn is skipped.
        let tiny_edges = node_px < 1.5;
        if tiny_edges {
            self.segments_drawn.clear();
        }
        for e in 0..d.pred.len() {
            let bx = d.edge_box[e];
            if bx[2] < view[0] || bx[0] > view[2] || bx[3] < view[1] || bx[1] > view[3] {
                continue;
            }
            visible_edges += 1;
            // Zoomed far out, an edge within one pixel is hidden under its nodes anyway.
            if (bx[2] - bx[0]) * s < 1.0 && (bx[3] - bx[1]) * s < 1.0 {
                continue;
            }
            let (u, v) = (d.pred[e], d.succ[e]);
            let (hu, hv) = (hl(u), hl(v));
            let rgba = if !has_hl {
                p.edge
            } else if hv & HL_PRED != 0 && hu & HL_PRED != 0 && Some(u) != sel {
                pred_rgba
            } else if hu & HL_SUCC != 0 && hv & HL_SUCC != 0 && Some(v) != sel {
                succ_rgba
            } else {
                p.edge_dim
            };
            let highlighted = rgba == pred_rgba || rgba == succ_rgba;
            let width = if highlighted { line_w * 1.8 } else { line_w };
            let once_per_pixels = tiny_edges && !highlighted;
            let a = d.point_offsets[e] as usize;
            let b = d.point_offsets.get(e + 1).copied().unwrap_or(0) as usize;
            if b < a + 2 {
                continue;
            }
            // Screen-space simplification: a point closer than a pixel to the last one drawn
            // is skipped (zoomed out, a long edge's dummies collapse into a few segments;
            // zoomed in nothing changes). The last segment carries the arrow head.
            let (px0, py0) = d.point(a);
            let mut from = (px0 * s + ox, py0 * s + oy);
            for p in a + 1..b - 1 {
                let (x, y) = d.point(p);
                let to = (x * s + ox, y * s + oy);
                if (to.0 - from.0).abs() + (to.1 - from.1).abs() >= 1.0 {
                    if !once_per_pixels || self.segments_drawn.first(from, to) {
                        self.lines.push(LineInstance { x0: from.0, y0: from.1, x1: to.0, y1: to.1, width, rgba });
                    }
                    from = to;
                }
            }
            let (x, y) = d.point(b - 1);
            let last = LineInstance { x0: from.0, y0: from.1, x1: x * s + ox, y1: y * s + oy, width, rgba };
            // Arrow heads only while nodes are big enough to tell where an edge ends.
            if node_px >= ARROW_MIN_NODE_PX {
                self.arrows.push(last);
            } else if !once_per_pixels || self.segments_drawn.first((last.x0, last.y0), (last.x1, last.y1)) {
                self.lines.push(last);
            }
        }
        let show_labels = NODE_LAYOUT_H * s >= LABEL_MIN_PX;
        let show_markers = NODE_LAYOUT_H * s >= MARKER_MIN_NODE_PX;
        let mut labels: Vec<(usize, f32, f32, f32)> = Vec::new();
        let mut marked: Vec<(u8, f32, f32)> = Vec::new();
        let mut outlines: Vec<LineInstance> = Vec::new();
        let mut ports: Vec<RectInstance> = Vec::new();
        let mut port_labels: Vec<(usize, f32, f32)> = Vec::new();
        // Zoomed far out, nodes are sub-pixel: one rectangle per screen pixel is enough.
        let (grid_w, grid_h) = (self.css_w.max(1.0) as usize + 1, self.css_h.max(1.0) as usize + 1);
        let tiny = node_px < 1.5;
        if tiny {
            self.occupied.clear();
            self.occupied.resize(grid_w * grid_h, false);
        }
        for i in 0..d.x.len() {
            let (hw, hh) = (d.w[i] / 2.0, d.h[i] / 2.0);
            if d.x[i] + hw < view[0] || d.x[i] - hw > view[2] || d.y[i] + hh < view[1] || d.y[i] - hh > view[3] {
                continue;
            }
            let (x, y, w, h) = ((d.x[i] - hw) * s + ox, (d.y[i] - hh) * s + oy, d.w[i] * s, d.h[i] * s);
            if tiny && w < 1.5 && h < 1.5 {
                let cell = (y.max(0.0) as usize).min(grid_h - 1) * grid_w + (x.max(0.0) as usize).min(grid_w - 1);
                if std::mem::replace(&mut self.occupied[cell], true) && self.selected != Some(i as u32) {
                    continue;
                }
            }
            let kind = d.kind.get(i).copied().unwrap_or(KIND_DUMMY);
            let mut rgba = p.node_kinds.get(kind as usize).copied().unwrap_or(p.node_kinds[4]);
            let flags = hl(i as u32);
            if has_hl && flags == 0 {
                rgba = pypto_render::theme::dim_node(p, rgba);
            }
            let blocks = d.block_num.get(i).copied().unwrap_or(1);
            if blocks > 1 && w >= 3.0 {
                let off = (3.0 * s).clamp(1.0, 4.0);
                for k in [2.0, 1.0] {
                    self.rects.push(RectInstance {
                        x: x + k * off,
                        y: y - k * off,
                        w,
                        h,
                        rgba: pypto_render::theme::toward_background(p, rgba),
                    });
                }
            }
            if kind == KIND_ALLOC || kind == KIND_DUMMY {
                // Hollow look: a light fill inside a kind-coloured frame.
                self.rects.push(RectInstance { x, y, w, h, rgba });
                let inset = (2.0 * s).clamp(1.0, 3.0);
                self.rects.push(RectInstance {
                    x: x + inset,
                    y: y + inset,
                    w: (w - 2.0 * inset).max(0.0),
                    h: (h - 2.0 * inset).max(0.0),
                    rgba: p.node_hollow,
                });
            } else {
                self.rects.push(RectInstance { x, y, w, h, rgba });
            }
            let border = if Some(i as u32) == sel {
                Some((p.danger, 3.0))
            } else if flags & HL_PRED != 0 {
                Some((pred_rgba, 2.0))
            } else if flags & HL_SUCC != 0 {
                Some((succ_rgba, 2.0))
            } else if blocks > 1 {
                Some((p.danger, 1.5))
            } else {
                None
            };
            if let Some((c, bw)) = border {
                for (ax, ay, bx2, by) in [(x, y, x + w, y), (x + w, y, x + w, y + h), (x + w, y + h, x, y + h), (x, y + h, x, y)] {
                    outlines.push(LineInstance { x0: ax, y0: ay, x1: bx2, y1: by, width: bw, rgba: c });
                }
            }
            // In-port on the incoming side, out-port on the outgoing side (where this mode's
            // edges attach), when they are at least two pixels thick.
            let (p_len, p_thick) = (PORT_LEN * s, PORT_THICK * s);
            if p_thick >= 2.0 {
                let (cx, cy) = (x + w / 2.0, y + h / 2.0);
                let degrees = [d.in_adj.get(i).map_or(0, Vec::len), d.out_adj.get(i).map_or(0, Vec::len)];
                for (side, degree) in degrees.into_iter().enumerate() {
                    if degree == 0 {
                        continue;
                    }
                    let out = side == 1;
                    // A tab just inside the node's side, so arrow heads end on it, visible.
                    let (px, py, pw, ph) = if d.header.left_right {
                        (if out { x + w - p_thick } else { x }, cy - p_len / 2.0, p_thick, p_len)
                    } else {
                        (cx - p_len / 2.0, if out { y + h - p_thick } else { y }, p_len, p_thick)
                    };
                    ports.push(RectInstance { x: px, y: py, w: pw, h: ph, rgba: p.port });
                    if p_thick >= PORT_TEXT_MIN_PX && p_len >= PORT_TEXT_MIN_PX * 1.6 {
                        port_labels.push((degree, px + pw / 2.0, py + ph / 2.0));
                    }
                }
            }
            if show_labels {
                labels.push((i, x, y, w));
            } else if show_markers && d.markers.get(i).is_some_and(|&m| m != 0) {
                marked.push((d.markers[i], x, y));
            }
        }
        let head = (7.0 * s.sqrt()).clamp(3.0, 9.0);
        let instances_ms = crate::browser::now_ms();
        self.gl.draw_lines(&self.lines);
        self.gl.draw_rects(&self.rects);
        self.gl.draw_lines(&outlines);
        self.gl.draw_rects(&ports);
        self.gl.draw_arrows(&self.arrows, head);
        let uploaded_ms = crate::browser::now_ms();
        for (degree, px, py) in port_labels {
            self.text.fill_text_aligned(&degree.to_string(), px, py, PORT_FONT, p.port_text, pypto_render::text::TextAlign::Center);
        }
        let h_px = NODE_LAYOUT_H * s;
        let icon_px = (h_px * 0.3).clamp(7.0, 14.0);
        let mut emoji_texts = 0u32;
        let mut marker_counts = [0u32; 2];
        // The markers at a node's top left (labels follow them); returns the room they took.
        let mut paint_markers = |text: &TextOverlay, marks: u8, x: f32, y: f32| -> f32 {
            let mut at = x + 4.0;
            for (k, bit) in [FIRE, STAR].into_iter().enumerate() {
                if marks & bit != 0 {
                    markers::draw(text.context(), bit, at, y + h_px * 0.32 - icon_px / 2.0, icon_px);
                    marker_counts[k] += 1;
                    at += icon_px + 2.0;
                }
            }
            at - x - 4.0
        };
        for &(marks, x, y) in &marked {
            paint_markers(&self.text, marks, x, y);
        }
        for (i, x, y, w) in labels {
            let kind = d.kind.get(i).copied().unwrap_or(KIND_DUMMY);
            let hollow = kind == KIND_ALLOC || kind == KIND_DUMMY;
            let fg = if hollow { p.node_hollow_text } else { p.node_text };
            let blocks = d.block_num.get(i).copied().unwrap_or(1);
            let room = paint_markers(&self.text, d.markers.get(i).copied().unwrap_or(0), x, y);
            let name = d.name(i);
            emoji_texts += u32::from(has_emoji(name)) + u32::from(has_emoji(d.label(i)));
            self.text.fill_text_fitted(name, x + 5.0 + room, y + h_px * 0.32, w - 10.0 - room, NAME_FONT, fg);
            self.text.fill_text_fitted(d.label(i), x + 5.0, y + h_px * 0.72, w - 10.0, ID_FONT, fg);
            if blocks > 1 {
                let badge = format!("×{blocks}");
                self.text.fill_text_aligned(
                    &badge,
                    x + w - 4.0,
                    y + h_px * 0.72,
                    NAME_FONT,
                    p.badge_text,
                    pypto_render::text::TextAlign::Right,
                );
            }
        }
        let c = &self.container;
        set_attr(c, "data-nodes", &d.x.len().to_string());
        set_attr(c, "data-mode", d.header.mode.as_str());
        set_attr(c, "data-direction", if d.header.left_right { "LR" } else { "TB" });
        set_attr(c, "data-mode-counts", &d.header.mode_counts.iter().map(u64::to_string).collect::<Vec<_>>().join(","));
        set_attr(c, "data-visible-edges", &visible_edges.to_string());
        set_attr(c, "data-scale", &format!("{s:.6}"));
        set_attr(c, "data-node-px", &format!("{h_px:.2}"));
        set_attr(c, "data-fit", self.fit_kind);
        set_attr(c, "data-components", &d.header.component_count.to_string());
        set_attr(c, "data-markers-drawn", &format!("{},{}", marker_counts[0], marker_counts[1]));
        set_attr(c, "data-text-emoji", &emoji_texts.to_string());
        if let Some(m) = self.minimap.as_mut() {
            if std::mem::take(&mut self.minimap_stale) {
                m.set_graph(d);
            }
            m.update(view, d.bbox);
            set_attr(c, "data-minimap", if m.shown { "1" } else { "0" });
        }
        let count = |bit: u8| d.markers.iter().filter(|&&m| m & bit != 0).count();
        set_attr(c, "data-marker-counts", &format!("{},{}", count(FIRE), count(STAR)));
        if let Some(i) = self.selected.map(|i| i as usize).filter(|&i| i < d.x.len()) {
            set_attr(c, "data-selected", d.label(i));
            set_attr(c, "data-selected-screen", &format!("{:.1},{:.1}", d.x[i] * s + ox, d.y[i] * s + oy));
            set_attr(c, "data-selected-layout", &format!("{:.1},{:.1}", d.x[i], d.y[i]));
        } else {
            let _ = c.remove_attribute("data-selected");
            let _ = c.remove_attribute("data-selected-screen");
            let _ = c.remove_attribute("data-selected-layout");
        }
        set_attr(c, "data-hover", self.hover.map_or("", |h| d.label(h as usize)));
        let hl_ids: Vec<String> = self
            .highlight
            .iter()
            .enumerate()
            .filter(|(_, &f)| f != 0)
            .map(|(j, &f)| format!("{}{}", if f & HL_PRED != 0 { "<" } else { ">" }, d.label(j)))
            .collect();
        set_attr(c, "data-highlight", &hl_ids.join(","));
        let doc = web_sys::window().and_then(|w| w.document());
        if let Some(hud) = doc.and_then(|d| d.query_selector(".dep-hud-visible").ok().flatten()) {
            hud.set_text_content(Some(&tr_with("gr-edges-on-screen", &[("count", Arg::from(visible_edges))])));
        }
        set_attr(c, "data-layout-ms", &format!("{:.2}", d.header.layout_ms));
        set_attr(c, "data-warmup-ms", &format!("{:.2}", d.header.warmup_ms));
        set_attr(c, "data-search-total", &self.search_total.to_string());
        if let Some(p) = &perf {
            set_attr(c, "data-frame-ms", &format!("{:.2}", p.now() - started));
        }
        if let Some(t) = timing {
            let line = format!(
                "pypto-graph page: {} nodes, {} edges; reply in {:.0} ms after the ask, decoded in {:.0} ms; first frame {:.0} ms after that: waited {:.0} ms, instances {:.0} ms ({} rects, {} lines), uploaded and drawn {:.0} ms, text and attributes {:.0} ms",
                d.x.len(),
                d.pred.len(),
                t.arrived_ms - t.asked_ms,
                t.decoded_ms - t.arrived_ms,
                crate::browser::now_ms() - t.decoded_ms,
                started - t.decoded_ms,
                instances_ms - started,
                self.rects.len(),
                self.lines.len(),
                uploaded_ms - instances_ms,
                crate::browser::now_ms() - uploaded_ms,
            );
            web_sys::console::info_1(&line.into());
        }
        self.report_camera();
    }
}

fn mount(
    ui: GraphUi,
    container: &web_sys::HtmlElement,
    canvas: &web_sys::HtmlCanvasElement,
    overlay: &web_sys::HtmlCanvasElement,
    minimap: Option<Minimap>,
) -> Result<(), String> {
    let context_asked_ms = crate::browser::now_ms();
    let gl = GlRenderer::new(canvas).map_err(|e| format!("the dependency graph cannot draw: {e}"))?;
    let line = format!("pypto-graph page: the canvas's WebGL2 context in {:.0} ms", crate::browser::now_ms() - context_asked_ms);
    web_sys::console::info_1(&line.into());
    let text = TextOverlay::new(overlay).map_err(|_| "the dependency graph cannot draw text (no 2D canvas)".to_string())?;
    let r = Renderer {
        container: container.clone(),
        gl,
        text,
        data: ui.pending.with(Option::take).flatten(),
        scale: 1.0,
        ox: 0.0,
        oy: 0.0,
        css_w: 0.0,
        css_h: 0.0,
        drag: None,
        selected: None,
        hover: None,
        highlight: Vec::new(),
        rects: Vec::new(),
        lines: Vec::new(),
        arrows: Vec::new(),
        occupied: Vec::new(),
        segments_drawn: SegmentsDrawn(Vec::new()),
        fit_pending: true,
        search_total: 0,
        graph_nav: ui.nav.graph,
        last_camera: None,
        minimap,
        minimap_stale: true,
        fit_kind: "all",
    };
    ui.renderer.with(|v| *v = Some(r));
    Ok(())
}

#[allow(clippy::too_many_lines)] // the toolbar, HUD, canvas and their handlers
#[component]
pub fn DepGraphView() -> impl IntoView {
    let (session, nav, client, prefs) = (Session::get(), Nav::get(), WorkerClient::get(), crate::settings::Settings::get());
    let ui = GraphUi {
        renderer: Owned::new(None),
        pending: Owned::new(None),
        search_hits: Owned::new((String::new(), Vec::new(), 0)),
        frame: FrameRequest::new(),
        client,
        nav,
        layout_slot: client.slot(),
        details_slot: client.slot(),
        search_slot: client.slot(),
        mode: RwSignal::new(nav.graph.with_untracked(|g| g.mode.index())),
        left_right: RwSignal::new(nav.graph.with_untracked(|g| g.left_right)),
        depth: RwSignal::new(nav.graph.with_untracked(|g| g.depth)),
        selected: RwSignal::new(None),
        version: RwSignal::new(0),
        loading: RwSignal::new(false),
        cancelled: RwSignal::new(None),
        search: RwSignal::new(String::new()),
        search_msg: RwSignal::new(String::new()),
        node_details: RwSignal::new(None),
        announce: RwSignal::new(String::new()),
    };
    let container = NodeRef::<leptos::html::Div>::new();
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let overlay = NodeRef::<leptos::html::Canvas>::new();
    let mm_root = NodeRef::<leptos::html::Div>::new();
    let mm_canvas = NodeRef::<leptos::html::Canvas>::new();
    let mm_view = NodeRef::<leptos::html::Div>::new();
    let dataset = move || nav.dataset();
    // Mount once the canvases exist.
    Effect::new(move |_| {
        let (Some(div), Some(gl_canvas), Some(text_canvas)) = (container.get(), canvas.get(), overlay.get()) else { return };
        if !ui.renderer.is_some() {
            let minimap = match (mm_root.get(), mm_canvas.get(), mm_view.get()) {
                (Some(root), Some(c), Some(v)) => Some(Minimap::new(root.into(), c, v.into())),
                _ => None,
            };
            if let Err(message) = mount(ui, &div.into(), &gl_canvas, &text_canvas, minimap) {
                session.problem(message);
            }
        }
        ui.redraw();
    });
    // Another theme: the graph's palette changes (read at each frame).
    Effect::new(move |_| {
        prefs.scheme.track();
        ui.redraw_later();
    });
    // Ask for a layout whenever the dataset, mode or direction changes.
    Effect::new(move |_| {
        let _ = (ui.mode.get(), ui.left_right.get());
        if let Some(id) = dataset() {
            ui.request(id);
        }
    });
    // A new graph: nav's selected task (a link's), else the node selected before.
    Effect::new(move |_| {
        ui.version.track();
        let linked = nav.graph.with_untracked(|g| g.selected).and_then(|task| ui.node_of(task));
        let keep = linked.or_else(|| ui.selected.get_untracked());
        ui.select(keep, false);
    });
    // The toolbar's mode, direction and depth are nav's (links, back / forward)…
    Effect::new(move |_| {
        let (mode, left_right, depth) =
            (EdgeMode::ALL.get(ui.mode.get()).copied().unwrap_or_default(), ui.left_right.get(), ui.depth.get());
        let g = nav.graph.get_untracked();
        if (g.mode, g.left_right, g.depth) != (mode, left_right, depth) {
            // Another direction: the camera of the old one means nothing.
            let camera = if g.left_right == left_right { g.camera } else { None };
            nav.graph.set(GraphNav { mode, left_right, depth, camera, ..g });
        }
    });
    // …and nav's (a link's, back / forward) are shown: settings, selection, camera.
    Effect::new(move |_| {
        let g = nav.graph.get();
        if ui.mode.get_untracked() != g.mode.index() {
            ui.mode.set(g.mode.index());
        }
        if ui.left_right.get_untracked() != g.left_right {
            ui.left_right.set(g.left_right);
        }
        if ui.depth.get_untracked() != g.depth {
            ui.depth.set(g.depth);
        }
        let node = g.selected.and_then(|task| ui.node_of(task));
        if node != ui.selected.get_untracked() && (node.is_some() || g.selected.is_none()) {
            ui.select(node, false);
        }
        if let Some(c) = g.camera {
            if ui.with(|r| r.data.is_some() && r.last_camera != Some(c)) == Some(true) {
                ui.with(|r| r.apply_camera(c));
                ui.redraw();
            }
        }
    });
    // A task asked for while the graph is shown (a layout arriving later selects it itself).
    Effect::watch(
        move || nav.focus.get(),
        move |focus, _, _| {
            let Focus::Task { task, .. } = focus else { return };
            let node = ui.with(|r| r.data.as_ref().and_then(|d| d.header.task_ids.iter().position(|t| t == task))).flatten();
            if let Some(node) = node {
                ui.select(Some(node as u32), true);
            }
        },
        false,
    );
    Effect::new(move |_| {
        let depth = ui.depth.get();
        ui.with(|r| r.compute_highlight(depth));
        ui.redraw();
    });
    let on_down = move |ev: web_sys::MouseEvent| {
        let (x, y) = (ev.offset_x() as f32, ev.offset_y() as f32);
        ui.with(|r| r.drag = Some((x, y, r.ox, r.oy, false)));
        if let Some(el) = container.get_untracked() {
            let _ = el.focus();
        }
    };
    let on_move = move |ev: web_sys::MouseEvent| {
        let (x, y) = (ev.offset_x() as f32, ev.offset_y() as f32);
        let moved = ui.with(|r| {
            let Some((x0, y0, ox, oy, moved)) = r.drag else {
                // Hover: highlight the node under the pointer while nothing is selected.
                let hit = r.node_at(x, y);
                if hit != r.hover {
                    r.hover = hit;
                    if r.selected.is_none() {
                        r.compute_highlight(ui.depth.get_untracked());
                        return true;
                    }
                }
                return false;
            };
            let far = moved || (x - x0).abs() + (y - y0).abs() > 3.0;
            if far {
                r.ox = ox + x - x0;
                r.oy = oy + y - y0;
                r.drag = Some((x0, y0, ox, oy, true));
            }
            far
        });
        if moved == Some(true) {
            ui.redraw_later();
        }
    };
    let on_up = move |ev: web_sys::MouseEvent| {
        let (x, y) = (ev.offset_x() as f32, ev.offset_y() as f32);
        let click = ui
            .with(|r| {
                let d = r.drag.take();
                d.is_some_and(|d| !d.4).then(|| r.node_at(x, y))
            })
            .flatten();
        if let Some(hit) = click {
            ui.select(hit, false);
        }
    };
    let on_leave = move |_: web_sys::MouseEvent| {
        ui.with(|r| {
            r.drag = None;
            r.hover = None;
            r.compute_highlight(ui.depth.get_untracked());
        });
        ui.redraw_later();
    };
    let on_wheel = move |ev: web_sys::WheelEvent| {
        ev.prevent_default();
        let factor = wheel_factor(ev.delta_y(), ev.delta_mode());
        ui.with(|r| r.zoom_at(ev.offset_x() as f32, ev.offset_y() as f32, factor));
        ui.redraw_later();
    };
    let fit = move || {
        ui.with(Renderer::fit);
        ui.redraw();
    };
    // The minimap: a press or a drag centres the view there; nothing reaches the canvas below.
    let mm_centre = move |ev: &web_sys::MouseEvent| {
        ui.with(|r| {
            let Some(m) = r.minimap.as_ref() else { return };
            let (cx, cy) = m.client_origin();
            let (x, y) = m.to_layout(ev.client_x() as f32 - cx, ev.client_y() as f32 - cy);
            r.centre_at(x, y);
        });
        ui.redraw_later();
    };
    let mm_down = move |ev: web_sys::MouseEvent| {
        ev.stop_propagation();
        ev.prevent_default();
        ui.with(|r| r.minimap.as_mut().map(|m| m.drag = true));
        mm_centre(&ev);
    };
    let mm_move = move |ev: web_sys::MouseEvent| {
        ev.stop_propagation();
        if ui.with(|r| r.minimap.as_ref().is_some_and(|m| m.drag)) == Some(true) {
            mm_centre(&ev);
        }
    };
    let mm_end = move |ev: web_sys::MouseEvent| {
        ev.stop_propagation();
        ui.with(|r| r.minimap.as_mut().map(|m| m.drag = false));
    };
    let export_png = move |_| {
        ui.with(export::export_png);
    };
    let export_svg = move |_| {
        if let Some(svg) = ui.with(|r| r.data.as_ref().map(export::to_svg)).flatten() {
            crate::browser::download_text("pypto-task-graph.svg", "image/svg+xml", &svg);
        }
    };
    let export_csv = move |_| {
        if let Some(csv) = ui.with(|r| r.data.as_ref().map(export::nodes_csv)).flatten() {
            crate::browser::download_text("pypto-task-graph-nodes.csv", "text/csv;charset=utf-8", &format!("\u{feff}{csv}"));
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let key = ev.key();
        let action = shortcuts::action(Scope::Graph, &key, &ev.code(), &KeyMap::default());
        let step = match action {
            Some(Action::NextItem) => Some(keyboard::Move::Next),
            Some(Action::PreviousItem) => Some(keyboard::Move::Previous),
            Some(Action::MoveDown) => Some(keyboard::Move::Down),
            Some(Action::MoveUp) => Some(keyboard::Move::Up),
            Some(Action::MoveLeft) => Some(keyboard::Move::Left),
            Some(Action::MoveRight) => Some(keyboard::Move::Right),
            _ => None,
        };
        if let Some(m) = step {
            // Arrows would scroll the page.
            ev.prevent_default();
            ui.step(m);
            return;
        }
        match action {
            Some(Action::EdgeMode) => {
                if let Some(m) = key.parse::<usize>().ok().filter(|m| (1..=5).contains(m)) {
                    ui.mode.set(m - 1);
                }
            }
            Some(Action::Fit) => fit(),
            Some(Action::Clear) => {
                ui.select(None, false);
                ui.announce.set(tr("gr-announce-cleared"));
            }
            _ => {}
        }
    };
    // The canvas's name for assistive technology: what it is and its keys, by the layout's direction.
    let canvas_label = move || {
        ui.version.track();
        let nodes = ui.with(|r| r.data.as_ref().map_or(0, |d| d.x.len())).unwrap_or(0);
        let (along, back, across) = if ui.left_right.get() { ("→", "←", "↑ ↓") } else { ("↓", "↑", "← →") };
        tr_with(
            "gr-canvas-label",
            &[
                ("nodes", Arg::from(nodes)),
                ("successor", Arg::from(along)),
                ("predecessor", Arg::from(back)),
                ("across", Arg::from(across)),
            ],
        )
    };
    let show_in_swimlane = move |(): ()| {
        let Some(label) = ui.with(|r| r.selected.and_then(|s| r.data.as_ref().map(|d| d.label(s as usize).to_string()))).flatten() else {
            return;
        };
        nav.show_with(ViewKind::ChipSwimlane, Focus::Search(label));
    };
    let hud = move || {
        ui.version.track();
        ui.with(|r| {
            r.data.as_ref().map(|d| {
                let counts: Vec<String> = MODE_LABELS.iter().zip(&d.header.mode_counts).map(|(l, c)| format!("{} {c}", tr(l))).collect();
                tr_with(
                    "gr-hud",
                    &[
                        ("nodes", Arg::from(d.header.node_count)),
                        ("edges", Arg::from(counts.join(" | "))),
                        ("layout_ms", Arg::from(format!("{:.0}", d.header.layout_ms))),
                        ("crossings", Arg::from(d.header.crossings)),
                    ],
                )
            })
        })
        .flatten()
        .unwrap_or_default()
    };
    let warnings = move || {
        ui.version.track();
        ui.with(|r| {
            r.data.as_ref().map(|d| {
                let h = &d.header;
                let reversed = (h.reversed_edges > 0).then(|| tr_with("graph-reversed-edges", &[("count", Arg::from(h.reversed_edges))]));
                h.warnings.iter().map(warning_message).chain(reversed).collect::<Vec<_>>().join("; ")
            })
        })
        .flatten()
        .unwrap_or_default()
    };
    view! {
        <div class="dep-graph-page">
            <div class="dep-toolbar">
                <span class="dep-modes" role="group" aria-label=t("gr-edge-mode")>
                    {MODE_LABELS.iter().enumerate().map(|(i, l)| view! {
                        <button data-testid=format!("dep-mode-{}", EdgeMode::ALL[i].as_str()) class:active=move || ui.mode.get() == i
                            title=move || tr_with("gr-mode-title", &[("mode", Arg::from(EdgeMode::ALL[i].as_str())), ("key", Arg::from(i + 1))])
                            on:click=move |_| ui.mode.set(i)>{move || format!("{} {}", i + 1, tr(l))}</button>
                    }).collect_view()}
                </span>
                <button data-testid="dep-direction" title=t("gr-layers-top-bottom-or-left")
                    on:click=move |_| ui.left_right.update(|v| *v = !*v)>{move || if ui.left_right.get() { "LR" } else { "TB" }}</button>
                <button data-testid="dep-fit" title=t("gr-fit-the-whole-graph-to") on:click=move |_| fit()>{t("gr-fit")}</button>
                <span class="dep-exports">
                    <button data-testid="dep-export-png" title=t("gr-save-the-graph-as-drawn") on:click=export_png>"PNG"</button>
                    <button data-testid="dep-export-svg" title=t("gr-save-the-whole-graph-as") on:click=export_svg>"SVG"</button>
                    <button data-testid="dep-export-csv" title=t("gr-save-the-graph-s-nodes") on:click=export_csv>"CSV"</button>
                </span>
                <label class="dep-depth">{t("gr-depth")}" "
                    <select data-testid="dep-depth" prop:value=move || ui.depth.get().to_string()
                        on:change=move |ev| ui.depth.set(event_target_value(&ev).parse().unwrap_or(1))>
                        <option value="0">{t("gr-0-off")}</option>
                        <option value="1">"1"</option>
                        <option value="2">"2"</option>
                        <option value="3">"3"</option>
                        <option value="-1">{t("gr-all")}</option>
                    </select>
                </label>
                <input data-testid="dep-search" class="dep-search" placeholder=t("gr-search-rxty-or-function-name")
                    prop:value=move || ui.search.get()
                    on:input=move |ev| { ui.client.drop_slot(ui.search_slot); ui.search.set(event_target_value(&ev)); }
                    on:keydown=move |ev: web_sys::KeyboardEvent| { ev.stop_propagation(); if ev.key() == "Enter" { ui.run_search(); } }/>
                <span class="hint" data-testid="dep-search-msg">{move || ui.search_msg.get()}</span>
                {move || ui.loading.get().then(|| view! { <span class="hint" data-testid="dep-loading">{t("gr-laying-out")}</span> })}
            </div>
            <div class="dep-hud" data-testid="dep-hud">
                <span>{hud}</span> " · " <span class="dep-hud-visible"></span>
                <span class="dep-legend">
                    {move || DEP_KIND_NAMES.iter().zip(prefs.scheme.get().palette().node_kinds).map(|(k, c)| view! {
                        <span class="dep-swatch" style=format!("background: rgb({},{},{})", c[0], c[1], c[2])></span>{*k}
                    }).collect_view()}
                    <span class="dep-swatch spmd"></span>"SPMD ×N"
                    <span class="dep-markers" data-testid="dep-legend-markers" title=t("gr-static-properties-of-the-graph")>
                        <MarkerIcon bit=FIRE/>" "{t("gr-early-dispatch-capable")}" "<MarkerIcon bit=STAR/>" "{t("gr-all-preds-early-static")}</span>
                </span>
            </div>
            {move || { let w = warnings(); (!w.is_empty()).then(|| view! { <div class="dep-warning">{w}</div> }) }}
            <div id="dep-graph" class="dep-graph" tabindex="0" role="application" aria-label=canvas_label
                aria-roledescription=t("gr-canvas-role") node_ref=container
                on:mousedown=on_down on:mousemove=on_move on:mouseup=on_up on:mouseleave=on_leave on:wheel=on_wheel on:keydown=on_key>
                <canvas class="gl-layer" node_ref=canvas></canvas>
                <canvas class="text-layer" node_ref=overlay></canvas>
                <div class="dep-minimap" data-testid="dep-minimap" node_ref=mm_root style="display:none"
                    title=t("gr-the-whole-graph-press-or")
                    on:mousedown=mm_down on:mousemove=mm_move on:mouseup=mm_end on:mouseleave=mm_end
                    on:click=|ev: web_sys::MouseEvent| ev.stop_propagation()
                    on:wheel=|ev: web_sys::WheelEvent| { ev.stop_propagation(); ev.prevent_default(); }>
                    <canvas node_ref=mm_canvas></canvas>
                    <div class="dep-minimap-view" data-testid="dep-minimap-view" node_ref=mm_view></div>
                </div>
                // A layout the user cancelled: said where the graph would be, with a way to start it again.
                {move || ui.cancelled.get().map(|id| view! {
                    <div class="dep-notice" data-testid="dep-cancelled"
                        on:mousedown=|ev: web_sys::MouseEvent| ev.stop_propagation() on:keydown=|ev: web_sys::KeyboardEvent| ev.stop_propagation()>
                        {t("gr-layout-cancelled")}" "
                        <button data-testid="dep-layout-again" on:click=move |_| ui.request(id)>{t("gr-layout-again")}</button>
                    </div>
                })}
            </div>
            // What the keyboard selected, said by screen readers (] [ and the arrows move it).
            <div class="sr-only" aria-live="polite" data-testid="dep-announce">{move || ui.announce.get()}</div>
            <DetailsPanel ui=ui on_show=Callback::new(show_in_swimlane)/>
        </div>
    }
}

#[component]
fn DetailsPanel(ui: GraphUi, on_show: Callback<()>) -> impl IntoView {
    let (session, nav) = (Session::get(), Nav::get());
    let name_map_path = move || {
        nav.dataset()
            .and_then(|id| session.row(id))
            .and_then(|r| r.file(FileRole::NameMap).map(|f| f.path.clone()))
            .unwrap_or_else(|| tr("gr-no-name-map"))
    };
    let body = move || {
        ui.version.track();
        let sel = ui.selected.get()?;
        ui.with(|r| {
            let d = r.data.as_ref()?;
            let i = sel as usize;
            let list = |ids: &[u32]| {
                let mut v: Vec<&str> = ids.iter().map(|&j| d.label(j as usize)).collect();
                let more = v.len().saturating_sub(60);
                v.truncate(60);
                let mut s = v.join(", ");
                if more > 0 {
                    s += " … (+";
                    s += &more.to_string();
                    s += ")";
                }
                s
            };
            let (full_out, full_in) = d.full_adjacency();
            let fin = full_in.get(i).map_or(&[][..], Vec::as_slice);
            let fout = full_out.get(i).map_or(&[][..], Vec::as_slice);
            let kind = DEP_KIND_NAMES.get(d.kind.get(i).copied().unwrap_or(KIND_DUMMY) as usize).copied().unwrap_or("?");
            let marks = d.markers.get(i).copied().unwrap_or(0);
            let marker_text = match marks {
                3 => tr("gr-marker-early-and-preds"),
                1 => tr("gr-marker-early"),
                2 => tr("gr-marker-preds"),
                _ => tr("gr-marker-none"),
            };
            Some(vec![
                (tr("gr-field-func-name"), d.name(i).to_string(), 0),
                (tr("gr-field-task"), d.label(i).to_string(), 0),
                (tr("gr-field-kind"), kind.to_string(), 0),
                (tr("gr-field-block-num"), d.block_num.get(i).copied().unwrap_or(1).to_string(), 0),
                (tr("gr-field-markers"), marker_text, marks),
                (tr_with("gr-field-fan-in", &[("count", Arg::from(fin.len()))]), list(fin), 0),
                (tr_with("gr-field-fan-out", &[("count", Arg::from(fout.len()))]), list(fout), 0),
            ])
        })
        .flatten()
    };
    view! {
        <div class="details-panel dep-details" data-testid="dep-details">
            {move || match body() {
                None => view! { <span class="hint">{t("gr-hover-or-click-a-task")}" "
                    {move || tr_with("gr-names-from", &[("path", Arg::from(name_map_path()))])}</span> }.into_any(),
                Some(rows) => view! {
                    <button data-testid="dep-show-swimlane" on:click=move |_: web_sys::MouseEvent| on_show.run(())>{t("gr-show-in-swimlane")}</button>
                    <table class="details">
                        {rows.into_iter().map(|(k, v, marks)| view! { <tr><th>{k}</th><td data-testid=(marks != 0).then_some("dep-details-markers")>
                            {(marks & FIRE != 0).then(|| view! { <MarkerIcon bit=FIRE/> })}
                            {(marks & STAR != 0).then(|| view! { <MarkerIcon bit=STAR/> })}
                            {if marks != 0 { " " } else { "" }}{v}</td></tr> }).collect_view()}
                    </table>
                    {move || ui.node_details.get().map(|nd| {
                        let task = ui.with(|r| r.data.as_ref().map(|d| d.label(nd.node as usize).to_string())).flatten().unwrap_or_default();
                        view! {
                            <DetailTable testid="dep-args" csv_name=format!("{task}-arguments") title=tr_with("gr-tensor-arguments", &[("count", Arg::from(nd.args.len()))])
                                head=ARG_COLUMNS rows=nd.args/>
                            <DetailTable testid="dep-edges" csv_name=format!("{task}-edges") title=tr_with("gr-edge-annotations", &[("count", Arg::from(nd.edges.len()))])
                                head=EDGE_COLUMNS rows=nd.edges/>
                        }
                    })}
                }.into_any(),
            }}
        </div>
    }
}

/// The tensor-argument table's columns: (key, title message id). The key is the column's id
/// and its CSV header (English in every language: scripts read the export).
const ARG_COLUMNS: &[(&str, &str)] = &[
    ("index", "col-dep-index"),
    ("type", "col-dep-type"),
    ("tensor", "col-dep-tensor"),
    ("dtype", "col-dep-dtype"),
    ("shape", "col-dep-shape"),
    ("strides", "col-dep-strides"),
    ("offset", "col-dep-offset"),
];

/// The edge-annotation table's columns, as [`ARG_COLUMNS`].
const EDGE_COLUMNS: &[(&str, &str)] = &[
    ("edge", "col-dep-edge"),
    ("peer", "col-dep-peer"),
    ("source", "col-dep-source"),
    ("flags", "col-dep-flags"),
    ("arg", "col-dep-arg"),
    ("tensor", "col-dep-tensor"),
    ("overlap", "col-dep-overlap"),
];

/// One of the selected node's tables, a `DataTable` (sort, CSV of its rows: `{testid}-csv`).
#[component]
fn DetailTable(
    testid: &'static str,
    csv_name: String,
    title: String,
    head: &'static [(&'static str, &'static str)],
    rows: Vec<Vec<String>>,
) -> impl IntoView {
    let data = TableData {
        columns: head
            .iter()
            .map(|&(key, title_id)| Column::text(key, title_id, if key == "shape" || key == "strides" { 120.0 } else { 72.0 }).csv_by_id())
            .collect(),
        rows: rows.into_iter().map(|r| r.into_iter().map(Cell::text).collect()).collect(),
    };
    view! {
        <div class="dep-detail-table">
            <DataTable data=Signal::derive(move || data.clone()) testid=testid csv_name=csv_name title=title/>
        </div>
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact layout values
mod tests {
    use super::*;

    /// Three nodes (an SPMD AIC with the flame, an AIV with the star, an alloc) and two edges.
    pub(super) fn sample_graph() -> GraphData {
        let header = DepGraphHeader {
            dataset_id: 1,
            mode: EdgeMode::Full,
            left_right: false,
            task_ids: vec![TaskId(1), TaskId(2), TaskId(3)],
            names: vec!["qk <matmul>".into(), "softmax".into(), "alloc".into()],
            mode_counts: vec![2, 2, 2, 2, 2],
            node_count: 3,
            crossings: 0,
            component_count: 1,
            largest_component: [0.0; 4],
            layout_ms: 1.0,
            warmup_ms: 0.0,
            warnings: vec![],
            reversed_edges: 0,
        };
        GraphData::from_columns(
            header,
            Cols {
                x: vec![75.0, 75.0, 245.0],
                y: vec![18.0, 102.0, 18.0],
                w: vec![150.0; 3],
                h: vec![36.0; 3],
                kind: vec![0, 1, 3],
                markers: vec![FIRE, STAR, 0],
                block_num: vec![4, 1, 1],
                name_index: vec![0, 1, 2],
                pred: vec![0, 2],
                succ: vec![1, 1],
                point_offsets: vec![0, 2, 4],
                points: vec![75.0, 36.0, 75.0, 84.0, 245.0, 36.0, 75.0, 84.0],
                full_pred: vec![0, 2],
                full_succ: vec![1, 1],
            },
        )
    }

    #[test]
    fn wheel_steps_are_bounded_whatever_the_delta() {
        for (dy, mode) in [(-1e9, 0), (-300.0, 0), (-3.0, 1), (-1.0, 2), (f64::NEG_INFINITY, 0)] {
            let f = wheel_factor(dy, mode);
            assert!((1.0..=WHEEL_STEP_MAX).contains(&f), "{dy} {mode}: {f}");
        }
        for (dy, mode) in [(1e9, 0), (300.0, 0), (3.0, 1), (1.0, 2)] {
            let f = wheel_factor(dy, mode);
            assert!((1.0 / WHEEL_STEP_MAX..=1.0).contains(&f), "{dy} {mode}: {f}");
        }
        assert!((wheel_factor(-100.0, 0) - 0.15f32.exp()).abs() < 1e-5, "small deltas zoom smoothly");
        assert!((wheel_factor(0.0, 0) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn fit_box_keeps_a_minimum_scale_and_starts_at_the_top_left() {
        // Fits: centred.
        let (s, ox, oy) = fit_box([0.0, 0.0, 100.0, 50.0], 248.0, 148.0, 0.1, false);
        assert!((s - 2.0).abs() < 1e-6 && (ox - 24.0).abs() < 1e-3 && (oy - 24.0).abs() < 1e-3, "{s} {ox} {oy}");
        // Too big at the minimum scale: the minimum, from its first layer, centred across.
        let bbox = [100.0, 200.0, 100_100.0, 10_200.0];
        let (s, ox, oy) = fit_box(bbox, 1000.0, 600.0, 0.5, false);
        assert!((s - 0.5).abs() < 1e-6);
        assert!((ox - (500.0 - 50_100.0 * 0.5)).abs() < 1e-2 && (oy - (24.0 - 100.0)).abs() < 1e-3, "top to bottom: {ox} {oy}");
        let (_, ox, oy) = fit_box(bbox, 1000.0, 600.0, 0.5, true);
        assert!((ox - (24.0 - 50.0)).abs() < 1e-3 && (oy - (300.0 - 5_200.0 * 0.5)).abs() < 1e-2, "left to right: {ox} {oy}");
    }

    #[test]
    fn emoji_are_recognised() {
        assert!(has_emoji("🔥 qk") && has_emoji("⭐") && !has_emoji("qk_matmul ×16 rXtY →"));
    }

    #[test]
    fn sample_graph_box_and_largest_component() {
        let d = sample_graph();
        assert_eq!(d.bbox, [0.0, 0.0, 320.0, 120.0]);
        assert_eq!(d.largest, d.bbox, "no component box: the whole graph");
    }
}
