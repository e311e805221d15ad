//! The Memory Reuse view (toolkit-features.md group O, issue #7 items 7–9) of a
//! `passes_dump` dataset: the worker's memory map of one snapshot (by default the
//! `*after_AllocateMemoryAddr.py` one; any snapshot can be chosen, and the IR Pass Trace's
//! pass list opens it on a pass) with the capacities of a chip (detected from the case,
//! assumed, or chosen in the selector).
//!
//! * "All Functions Buffer Usage Overview": a summary strip and a sortable table (CSV
//!   download) with one row per function and memory space: high-water mark, capacity,
//!   usage %, peak live bytes, boxes, bases; a row opens that function's map.
//! * A function's map ([`draw`], WebGL2): one band per space, x = address, y = dump line;
//!   zoom at the cursor (wheel; Shift = x only, Alt = y only), drag to pan, Fit (`F`);
//!   hover tooltip; click → details (name, aliases, space, base, address range hex and
//!   decimal, size, shape, producer, live range, defining and using lines, conflicts,
//!   address reuse). Beside it the function's source: a tile's live range, defining and
//!   using lines are marked and scrolled to; a click on a line highlights its tiles.
//!
//! A damaged snapshot (undecodable bytes, what Python would reject, a cut: as the IR Pass
//! Trace marks it) gets a banner naming file, line, column and problem above the map, which
//! is of the text as read.
//!
//! The snapshot, chip, open function and selected tile are `nav` state (so in the URL hash).
//!
//! Test ids: `mm-page`, `mm-function`,
//! `mm-snapshot`, `mm-chip`, `mm-chip-source`, `mm-error`, `mm-snapshot-problems` (items with
//! `data-file`, `data-line`, `data-column`), `mm-summary`, `mm-overview`
//! (the table), `mm-map` (`data-function`, `data-boxes`, `data-scale`, `data-selected`,
//! `data-line`, `data-highlighted`), `mm-fit`, `mm-zoom-in`, `mm-zoom-out`, `mm-details`,
//! `mm-source` (lines `data-line`, `data-mark` = `def` / `use` / `live`), `mm-tooltip`.
//! `mm-export-png` (the map as drawn, `memory-map-<snapshot>-<function>.png`), `mm-details-csv`
//! (the tile's details, `tile-details-<snapshot>-<function>-<tile>.csv`),
//! `mm-reserved` (`mm-reserved-row`, `mm-ring-tile`), `mm-reserved-tooltip`,
//! `mm-summary-reserved`. `window.__pyptoMemoryMap()` returns the drawn boxes' (and
//! reserved windows') viewport rectangles.

pub mod draw;

use std::sync::Arc;

use crate::i18n::{self, t, tr, tr_with, Arg};
use crate::nav::KeyMap;
use crate::shortcuts::{self, Action, Scope};
use leptos::prelude::*;
use pypto_protocol::memory_map::{MemBoxRow, MemFunctionMap, MemoryMapData, MemoryMapRequest};
use pypto_protocol::pass_trace::SnapshotProblem;
use pypto_protocol::{DatasetKind, Feature, ViewKind};
use pypto_render::text::TextOverlay;
use pypto_render::GlRenderer;
use wasm_bindgen::prelude::*;

use crate::compiler_note::{target_note, CompilerNote, TargetNote};
use crate::nav::{CompilerTarget, Nav};
use crate::owned::{FrameRequest, Owned};
use crate::session::{DatasetRow, Session};
use crate::table::{Cell, Column, DataTable, TableData};
use crate::view_spec::{no_init, nothing_docked, ViewSpec};
use crate::worker_client::WorkerClient;
use draw::{human_bytes, MapRenderer, XScale};

/// The registry's entry.
pub const SPEC: ViewSpec = ViewSpec {
    kind: ViewKind::MemoryReuse,
    title_id: "view-memory-reuse",
    tooltip_id: "view-memory-reuse-tip",
    dataset_kind: DatasetKind::PassDump,
    default: false,
    switchable: true,
    available: |row: &DatasetRow| row.enables(Feature::MemoryReuse),
    init: no_init,
    component: || view! { <MemoryMapView/> }.into_any(),
    docked: nothing_docked,
};

/// Height of a source-pane line (CSS px; `.mm-src-line` in style.css uses it).
const SRC_LINE_PX: f64 = 17.0;

/// The view's state: the snapshot, chip and function asked for (started from `nav` and written
/// back to it), the map the worker sent, the selection and what the pointer is over.
#[derive(Clone, Copy)]
pub struct MemoryMapUi {
    /// The snapshot asked for (`None` = the `AllocateMemoryAddr` one).
    pub file: RwSignal<Option<String>>,
    /// The chip asked for (`None` = detected, else assumed).
    pub chip: RwSignal<Option<String>>,
    pub data: RwSignal<Option<Arc<MemoryMapData>>>,
    pub loading: RwSignal<bool>,
    /// The function whose map is open (`None` = the overview).
    pub function: RwSignal<Option<String>>,
    pub selected_box: RwSignal<Option<usize>>,
    pub selected_line: RwSignal<Option<u32>>,
    pub x_scale: RwSignal<XScale>,
    /// Box under the pointer and the pointer position in the map (CSS px).
    hover: RwSignal<Option<(usize, f64, f64)>>,
    /// Reserved window under the pointer (no box there) and the pointer position.
    hover_reserved: RwSignal<Option<(usize, f64, f64)>>,
}

impl MemoryMapUi {
    /// The state `nav` describes.
    fn from_nav(nav: Nav) -> Self {
        let m = nav.memory.get_untracked();
        Self {
            file: RwSignal::new(m.snapshot),
            chip: RwSignal::new(m.chip),
            data: RwSignal::new(None),
            loading: RwSignal::new(false),
            function: RwSignal::new(m.function),
            selected_box: RwSignal::new(None),
            selected_line: RwSignal::new(None),
            x_scale: RwSignal::new(XScale::Used),
            hover: RwSignal::new(None),
            hover_reserved: RwSignal::new(None),
        }
    }
}

/// A map's answer arrived: keep the open function when the new map has it (a chip change),
/// select `tile` (a link's) in it.
fn take_data(ui: MemoryMapUi, data: MemoryMapData, tile: Option<&str>) {
    ui.loading.set(false);
    let function = ui.function.get_untracked().and_then(|f| data.functions.iter().find(|g| g.name == f));
    if function.is_none() {
        ui.function.set(None);
    }
    ui.selected_box.set(function.and_then(|f| tile.and_then(|t| f.boxes.iter().position(|b| b.name == t))));
    ui.selected_line.set(None);
    ui.data.set(Some(Arc::new(data)));
}

fn current_function(ui: MemoryMapUi) -> Option<MemFunctionMap> {
    let name = ui.function.get()?;
    ui.data.with(|d| d.as_ref().and_then(|d| d.functions.iter().find(|f| f.name == name).cloned()))
}

/// Overview table: one row per (function, space); also the function of each row.
fn overview_table(d: &MemoryMapData) -> (TableData, Vec<String>) {
    let columns = vec![
        Column::text("function", "col-function", 240.0),
        Column::text("type", "col-type", 64.0),
        Column::text("space", "col-space", 84.0),
        Column::num("hwm", "col-high-water-b", 118.0).tip("coltip-max-offset-size-over-the-space-s-boxes-the-highest-address-in-use"),
        Column::num("capacity", "col-capacity-b", 112.0).tip("coltip-the-chip-s-capacity-of-the-space-compiler-formats-md-3-2"),
        Column::num("usage", "col-usage-pct", 84.0).tip("coltip-high-water-capacity-amber-80-pct-red-95-pct"),
        Column::num("peak_live", "col-peak-live-b", 112.0).tip("coltip-most-bytes-live-on-one-line-views-not-counted-twice"),
        Column::num("boxes", "col-boxes", 64.0),
        Column::num("bases", "col-bases", 64.0).tip("coltip-distinct-base-buffers"),
    ];
    let mut rows = Vec::new();
    let mut names = Vec::new();
    for f in &d.functions {
        for s in &f.spaces {
            let pct = if s.limit_bytes > 0 { s.hwm_bytes as f64 * 100.0 / s.limit_bytes as f64 } else { 0.0 };
            let mut usage = Cell::num(pct, 1);
            if pct >= 95.0 {
                usage = usage.class("dt-warn");
            } else if pct >= 80.0 {
                usage = usage.class("mm-amber");
            }
            let thousands = |v: i64| Cell { text: group_digits(v), value: Some(v as f64), class: None };
            rows.push(vec![
                Cell::text(f.name.clone()),
                Cell::text(f.ftype.clone()),
                Cell::text(s.space.clone()),
                thousands(s.hwm_bytes),
                if s.has_capacity { thousands(s.limit_bytes) } else { Cell::text("none") },
                usage,
                thousands(s.peak_live_bytes),
                Cell::count(u64::from(s.boxes)),
                Cell::count(u64::from(s.bases)),
            ]);
            names.push(f.name.clone());
        }
    }
    (TableData { columns, rows }, names)
}

/// `188416` → `188,416`.
fn group_digits(v: i64) -> String {
    let s = v.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    if v < 0 {
        format!("-{out}")
    } else {
        out
    }
}

#[component]
fn Overview(ui: MemoryMapUi) -> impl IntoView {
    let built = Memo::new(move |_| ui.data.with(|d| d.as_ref().map(|d| overview_table(d)).unwrap_or_default()));
    let table = Signal::derive(move || built.with(|b| b.0.clone()));
    let on_row = Callback::new(move |r: usize| {
        if let Some(name) = built.with_untracked(|b| b.1.get(r).cloned()) {
            ui.selected_box.set(None);
            ui.selected_line.set(None);
            ui.function.set(Some(name));
        }
    });
    let summary = move || {
        ui.data.with(|d| {
            let d = d.as_ref()?;
            let mut highest = (0.0f64, String::new());
            let (mut warn, mut danger) = (0, 0);
            let reserved: usize = d.functions.iter().map(|f| f.reserved.len()).sum();
            let ring: usize = d.functions.iter().map(|f| f.ring_tiles.len()).sum();
            for f in &d.functions {
                for s in &f.spaces {
                    let pct = if s.limit_bytes > 0 { s.hwm_bytes as f64 * 100.0 / s.limit_bytes as f64 } else { 0.0 };
                    if pct >= 95.0 {
                        danger += 1;
                    } else if pct >= 80.0 {
                        warn += 1;
                    }
                    if pct > highest.0 {
                        highest = (pct, format!("{} · {}", f.name, s.space));
                    }
                }
            }
            Some(view! {
                <div class="mm-summary" data-testid="mm-summary" data-functions=d.functions.len().to_string()
                    data-spaces=d.spaces.len().to_string() data-warning=warn.to_string() data-danger=danger.to_string()>
                    <span><b>{d.functions.len()}</b>" "{t("mm-compute-functions")}</span>
                    <span><b>{d.spaces.len()}</b>" "{t("mm-memory-spaces")} {d.spaces.join(", ")} ")"</span>
                    <span>{t("mm-highest-usage")}" " <b>{format!("{:.1}%", highest.0)}</b> " (" {highest.1} ")"</span>
                    <span class:mm-amber={warn > 0}>{tr_with("mm-cells-warn", &[("count", Arg::from(warn))])}</span>
                    <span class:dt-warn={danger > 0}>{tr_with("mm-cells-danger", &[("count", Arg::from(danger))])}</span>
                    {(reserved + ring > 0).then(|| view! {
                        <span data-testid="mm-summary-reserved" data-reserved=reserved.to_string() data-ring-tiles=ring.to_string()
                            title=t("mm-pl-system-reserve-buffer-windows")>
                            {tr_with("mm-reserved-summary", &[("reserved", Arg::from(reserved)), ("ring", Arg::from(ring))])}
                        </span>
                    })}
                </div>
            })
        })
    };
    let matrix = RwSignal::new(false);
    let open_fn = move |name: String| {
        ui.selected_box.set(None);
        ui.selected_line.set(None);
        ui.function.set(Some(name));
    };
    view! {
        <div class="mm-overview-page">
            {summary}
            <div class="mm-overview-bar">
                <span class="hint">{t("mm-all-functions-buffer-usage-overview")}</span>
                <span class="spacer"></span>
                <button data-testid="mm-overview-as-table" class:active=move || !matrix.get() on:click=move |_| matrix.set(false)>{t("mm-table")}</button>
                <button data-testid="mm-overview-as-matrix" class:active=move || matrix.get() on:click=move |_| matrix.set(true)>{t("mm-matrix")}</button>
            </div>
            {move || if matrix.get() {
                view! { <Matrix ui=ui on_open=Callback::new(open_fn)/> }.into_any()
            } else {
                view! {
                    <div class="mm-overview-table">
                        <DataTable data=table testid="mm-overview" csv_name="buffer_usage_overview" title=t("mm-buffer-usage") on_row_click=on_row/>
                    </div>
                }.into_any()
            }}
        </div>
    }
}

/// The overview as the Toolkit draws it: one row per function, one cell per space present
/// anywhere (`hwm / capacity`, percentage, a bar; `—` where the function does not use it).
#[component]
fn Matrix(ui: MemoryMapUi, on_open: Callback<String>) -> impl IntoView {
    move || {
        ui.data.with(|d| {
            let d = d.as_ref()?;
            let head = d.spaces.iter().map(|s| view! { <th>{s.clone()}</th> }).collect_view();
            let rows = d
                .functions
                .iter()
                .map(|f| {
                    let name = f.name.clone();
                    let cells = d
                        .spaces
                        .iter()
                        .map(|sp| match f.spaces.iter().find(|u| &u.space == sp) {
                            None => view! { <td class="mm-cell-empty" data-space=sp.clone()>"—"</td> }.into_any(),
                            Some(u) => {
                                let pct = if u.limit_bytes > 0 { u.hwm_bytes as f64 * 100.0 / u.limit_bytes as f64 } else { 0.0 };
                                let level = if pct >= 95.0 { "mm-danger" } else if pct >= 80.0 { "mm-warning" } else { "mm-ok" };
                                view! {
                                    <td class=format!("mm-cell {level}") data-space=sp.clone() data-hwm=u.hwm_bytes.to_string() data-limit=u.limit_bytes.to_string()>
                                        <div class="mm-cell-text">{format!("{} / {}", human_bytes(u.hwm_bytes), human_bytes(u.limit_bytes))}<b>{format!(" {pct:.1}%")}</b></div>
                                        <div class="mm-bar"><div class="mm-bar-fill" style=format!("width:{:.2}%", pct.min(100.0))></div></div>
                                    </td>
                                }
                                .into_any()
                            }
                        })
                        .collect_view();
                    view! {
                        <tr data-testid="mm-matrix-row" data-function=f.name.clone() on:click=move |_| on_open.run(name.clone())>
                            <th class="mm-fn">{f.name.clone()} <span class="hint">{f.ftype.clone()}</span></th>
                            {cells}
                        </tr>
                    }
                })
                .collect_view();
            Some(view! {
                <div class="mm-matrix-scroll">
                    <table class="mm-matrix" data-testid="mm-matrix">
                        <thead><tr><th>{t("mm-function")}</th>{head}</tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            })
        })
    }
}

/// The function map's renderer (owned by its component) and its pending animation frame.
#[derive(Clone, Copy)]
struct MapHandle {
    renderer: Owned<Option<MapRenderer>>,
    frame: FrameRequest,
}

impl MapHandle {
    fn new() -> Self {
        Self { renderer: Owned::new(None), frame: FrameRequest::new() }
    }

    fn with<R>(self, f: impl FnOnce(&mut MapRenderer) -> R) -> Option<R> {
        self.renderer.with_some(f)
    }

    fn redraw(self) {
        self.with(MapRenderer::frame);
    }

    /// One frame at the next animation frame however many wheel / drag events arrive before it.
    fn redraw_later(self) {
        self.frame.request(move |_| self.redraw());
    }
}

fn set_js(obj: &js_sys::Object, k: &str, v: &JsValue) {
    let _ = js_sys::Reflect::set(obj, &JsValue::from_str(k), v);
}

/// `window.__pyptoMemoryMap()`: the open function, scales, selection and every box's
/// rectangle in viewport CSS px (`visible` when it intersects the map area).
fn install_hook(map: MapHandle) {
    let Some(window) = web_sys::window() else { return };
    let hook = Closure::<dyn Fn() -> JsValue>::new(move || {
        map.with(|r| {
            r.frame();
            let out = js_sys::Object::new();
            let rect = r.container.get_bounding_client_rect();
            let (sx, sy) = r.scales();
            set_js(&out, "function", &JsValue::from_str(&r.container.get_attribute("data-function").unwrap_or_default()));
            set_js(&out, "sx", &JsValue::from_f64(sx));
            set_js(&out, "sy", &JsValue::from_f64(sy));
            let boxes = js_sys::Array::new();
            let names: Vec<String> =
                r.container.get_attribute("data-box-names").unwrap_or_default().split('\u{1f}').map(str::to_owned).collect();
            for i in 0..r.box_count() {
                let Some(b) = r.box_rect(i) else { continue };
                let o = js_sys::Object::new();
                set_js(&o, "index", &JsValue::from_f64(i as f64));
                set_js(&o, "name", &JsValue::from_str(names.get(i).map_or("", String::as_str)));
                set_js(&o, "x", &JsValue::from_f64(rect.left() + b.x));
                set_js(&o, "y", &JsValue::from_f64(rect.top() + b.y));
                set_js(&o, "w", &JsValue::from_f64(b.w));
                set_js(&o, "h", &JsValue::from_f64(b.h));
                let visible = b.x + b.w > draw::LEFT_PX && b.x < r.css_w && b.y + b.h > draw::TOP_PX && b.y < r.css_h;
                set_js(&o, "visible", &JsValue::from_bool(visible));
                boxes.push(&o);
            }
            set_js(&out, "boxes", &boxes);
            let reserved = js_sys::Array::new();
            for i in 0..r.reserved_count() {
                let Some(b) = r.reserved_rect(i) else { continue };
                let o = js_sys::Object::new();
                set_js(&o, "index", &JsValue::from_f64(i as f64));
                set_js(&o, "x", &JsValue::from_f64(rect.left() + b.x));
                set_js(&o, "y", &JsValue::from_f64(rect.top() + b.y));
                set_js(&o, "w", &JsValue::from_f64(b.w));
                set_js(&o, "h", &JsValue::from_f64(b.h));
                reserved.push(&o);
            }
            set_js(&out, "reserved", &reserved);
            JsValue::from(out)
        })
        .unwrap_or(JsValue::NULL)
    });
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str("__pyptoMemoryMap"), hook.as_ref());
    hook.forget();
}

/// Scrolls the source pane so dump line `line` is in view (a third from the top).
fn scroll_source_to(src: NodeRef<leptos::html::Div>, start: u32, line: u32) {
    if let Some(el) = src.get_untracked() {
        let el: web_sys::Element = el.into();
        let top = f64::from(line.saturating_sub(start)) * SRC_LINE_PX - f64::from(el.client_height()) / 3.0;
        el.set_scroll_top(top.max(0.0) as i32);
    }
}

#[component]
#[allow(clippy::too_many_lines)] // canvas, its handlers, tooltip, details and source pane share the signals
fn FunctionMap(ui: MemoryMapUi) -> impl IntoView {
    let session = Session::get();
    let map = MapHandle::new();
    let container = NodeRef::<leptos::html::Div>::new();
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let overlay = NodeRef::<leptos::html::Canvas>::new();
    let src = NodeRef::<leptos::html::Div>::new();
    let func = Memo::new(move |_| current_function(ui));
    Effect::new(move |_| {
        let (Some(div), Some(gl_canvas), Some(text_canvas)) = (container.get(), canvas.get(), overlay.get()) else { return };
        if !map.renderer.is_some() {
            let el: web_sys::HtmlElement = div.into();
            match (GlRenderer::new(&gl_canvas), TextOverlay::new(&text_canvas)) {
                (Ok(gl), Ok(text)) => {
                    map.renderer.with(|r| *r = Some(MapRenderer::new(el, gl, text)));
                    install_hook(map);
                }
                (Err(e), _) => session.problem(tr_with("mm-cannot-draw", &[("error", Arg::from(e.to_string()))])),
                (_, Err(_)) => session.problem(tr("mm-cannot-draw-text")),
            }
        }
        let f = func.get();
        let names: Vec<String> = f.as_ref().map(|f| f.boxes.iter().map(|b| b.name.clone()).collect()).unwrap_or_default();
        map.with(|r| {
            let _ = r.container.set_attribute("data-box-names", &names.join("\u{1f}"));
            r.set_function(f, ui.x_scale.get_untracked());
        });
        map.redraw();
    });
    // Another theme: the map's palette changes (read at each frame).
    let prefs = crate::settings::Settings::get();
    Effect::new(move |_| {
        prefs.scheme.track();
        map.redraw_later();
    });
    Effect::new(move |_| {
        let (sel, line, xs) = (ui.selected_box.get(), ui.selected_line.get(), ui.x_scale.get());
        map.with(|r| {
            r.selected = sel;
            r.line = line;
            r.set_x_scale(xs);
        });
        map.redraw();
    });
    // a picked tile: scroll the source to its first defining line
    Effect::new(move |_| {
        let Some(i) = ui.selected_box.get() else { return };
        let Some(f) = func.get_untracked() else { return };
        if let Some(b) = f.boxes.get(i) {
            let first = b.defined.first().map_or(b.start_line, |d| d.0);
            scroll_source_to(src, f.src_start, first);
        }
    });
    // keep the canvas sized to its box
    let resize = window_event_listener(leptos::ev::resize, move |_| map.redraw_later());
    on_cleanup(move || resize.remove());

    let pos = |ev: &web_sys::MouseEvent| (f64::from(ev.offset_x()), f64::from(ev.offset_y()));
    let on_down = move |ev: web_sys::MouseEvent| {
        let (x, y) = pos(&ev);
        map.with(|r| {
            let (ox, oy) = r.offsets();
            r.drag = Some((x, y, ox, oy, false));
        });
        if let Some(el) = container.get_untracked() {
            let _ = el.focus();
        }
    };
    let on_move = move |ev: web_sys::MouseEvent| {
        let (x, y) = pos(&ev);
        let (dragging, hit) = map
            .with(|r| {
                if let Some((x0, y0, ox, oy, moved)) = r.drag {
                    let far = moved || (x - x0).abs() + (y - y0).abs() > 3.0;
                    if far {
                        r.pan(ox + x - x0, oy + y - y0);
                        r.drag = Some((x0, y0, ox, oy, true));
                    }
                    (far, None)
                } else {
                    let hit = r.box_at(x, y);
                    let changed = hit != r.hover;
                    r.hover = hit;
                    (changed, hit)
                }
            })
            .unwrap_or((false, None));
        ui.hover.set(hit.map(|i| (i, x, y)));
        let reserved = if hit.is_none() { map.with(|r| r.reserved_at(x, y)).flatten() } else { None };
        ui.hover_reserved.set(reserved.map(|i| (i, x, y)));
        if dragging || hit.is_some() {
            map.redraw_later();
        }
    };
    let on_up = move |ev: web_sys::MouseEvent| {
        let (x, y) = pos(&ev);
        let click = map
            .with(|r| {
                let d = r.drag.take();
                d.is_some_and(|d| !d.4).then(|| r.box_at(x, y))
            })
            .flatten();
        if let Some(hit) = click {
            ui.selected_line.set(None);
            ui.selected_box.set(hit);
        }
    };
    let on_leave = move |_: web_sys::MouseEvent| {
        map.with(|r| {
            r.drag = None;
            r.hover = None;
        });
        ui.hover.set(None);
        ui.hover_reserved.set(None);
        map.redraw_later();
    };
    let on_wheel = move |ev: web_sys::WheelEvent| {
        ev.prevent_default();
        let k = (-ev.delta_y() * 0.0015).exp();
        let (fx, fy) = if ev.shift_key() {
            (k, 1.0)
        } else if ev.alt_key() {
            (1.0, k)
        } else {
            (k, k)
        };
        map.with(|r| r.zoom_at(f64::from(ev.offset_x()), f64::from(ev.offset_y()), fx, fy));
        map.redraw_later();
    };
    let zoom_centre = move |k: f64| {
        map.with(|r| {
            let (cx, cy) = (f64::midpoint(draw::LEFT_PX, r.css_w), f64::midpoint(draw::TOP_PX, r.css_h));
            r.zoom_at(cx, cy, k, k);
        });
        map.redraw();
    };
    let fit = move || {
        map.with(MapRenderer::fit);
        map.redraw();
    };
    let on_key = move |ev: web_sys::KeyboardEvent| match shortcuts::action(Scope::MemoryMap, &ev.key(), &ev.code(), &KeyMap::default()) {
        Some(Action::Fit) => fit(),
        Some(Action::ZoomIn) => zoom_centre(1.5),
        Some(Action::ZoomOut) => zoom_centre(1.0 / 1.5),
        Some(Action::Clear) => {
            ui.selected_box.set(None);
            ui.selected_line.set(None);
        }
        _ => {}
    };

    let reserved_tooltip = move || {
        let (i, x, y) = ui.hover_reserved.get()?;
        let f = func.get()?;
        let w = f.reserved.get(i)?.clone();
        let (cw, ch) =
            container.get_untracked().map_or((f64::MAX, f64::MAX), |c| (f64::from(c.client_width()), f64::from(c.client_height())));
        let (left, tx) = if x + 320.0 > cw { (x - 12.0, "-100%") } else { (x + 14.0, "0") };
        let (top, ty) = if y + 80.0 > ch { (y - 12.0, "-100%") } else { (y + 14.0, "0") };
        let base = w.base_bytes.unwrap_or(0);
        Some(view! {
            <div class="mm-tooltip" data-testid="mm-reserved-tooltip" data-name=w.name.clone() style=format!("left:{left}px;top:{top}px;transform:translate({tx},{ty})")>
                <div class="mm-tip-name">{tr_with("mm-reserved-name", &[("name", Arg::from(&w.name))])}</div>
                <div>{format!("{} · 0x{:X}–0x{:X} ({}–{}) · {}", w.space, base, base + w.size_bytes - 1, base, base + w.size_bytes - 1, human_bytes(w.size_bytes))}</div>
                <div>{tr_with("mm-reserved-line", &[("line", Arg::from(w.line.to_string()))])}</div>
            </div>
        })
    };
    let tooltip = move || {
        let (i, x, y) = ui.hover.get()?;
        let f = func.get()?;
        let b = f.boxes.get(i)?.clone();
        // flip to the cursor's left / top near the right / bottom edge
        let (w, h) =
            container.get_untracked().map_or((f64::MAX, f64::MAX), |c| (f64::from(c.client_width()), f64::from(c.client_height())));
        let (left, tx) = if x + 320.0 > w { (x - 12.0, "-100%") } else { (x + 14.0, "0") };
        let (top, ty) = if y + 80.0 > h { (y - 12.0, "-100%") } else { (y + 14.0, "0") };
        Some(view! {
            <div class="mm-tooltip" data-testid="mm-tooltip" style=format!("left:{left}px;top:{top}px;transform:translate({tx},{ty})")>
                <div class="mm-tip-name">{b.name.clone()} {(!b.aliases.is_empty()).then(|| format!(" {}", tr_with("mm-aliases-more", &[("count", Arg::from(b.aliases.len()))])))}</div>
                <div>{format!("{} · {} · {}", b.space, b.base, address_range(&b))}</div>
                <div>{format!("{} · {}", human_bytes(b.size_bytes), tr_with("mm-lines", &[("start", Arg::from(b.start_line.to_string())), ("end", Arg::from(b.end_line.to_string()))]))}
                    {b.view.then(|| format!(" · {}", tr("mm-view")))} {b.conflict.then(|| format!(" · {}", tr("mm-conflict").to_uppercase()))}</div>
            </div>
        })
    };

    // `memory-map-<snapshot>-<function>.png`.
    let export_png = move || {
        let snapshot = ui.data.with_untracked(|d| d.as_ref().map(|d| d.file.clone())).unwrap_or_default();
        let function = ui.function.get_untracked().unwrap_or_default();
        let name = crate::exports::file_name("memory-map", &[&snapshot, &function], "png");
        map.with(|r| r.export_png(&name));
    };
    view! {
        <div class="mm-body">
            <div class="mm-map-col">
                <div class="mm-map-bar">
                    <span class="mm-xscale" role="group" title=t("mm-what-a-band-s-width")>
                        "x: "
                        <button data-testid="mm-xscale-used" class:active=move || ui.x_scale.get() == XScale::Used on:click=move |_| ui.x_scale.set(XScale::Used)>{t("mm-used")}</button>
                        <button data-testid="mm-xscale-capacity" class:active=move || ui.x_scale.get() == XScale::Capacity on:click=move |_| ui.x_scale.set(XScale::Capacity)>{t("mm-capacity")}</button>
                    </span>
                    <button data-testid="mm-fit" title=t("mm-fit-f") on:click=move |_| fit()>{t("mm-fit")}</button>
                    <button data-testid="mm-zoom-in" title=t("mm-zoom-in") on:click=move |_| zoom_centre(1.5)>"+"</button>
                    <button data-testid="mm-zoom-out" title=t("mm-zoom-out") on:click=move |_| zoom_centre(1.0 / 1.5)>"−"</button>
                    <button data-testid="mm-export-png" title=t("mm-download-the-map-as-drawn") on:click=move |_| export_png()>"PNG"</button>
                    <span class="mm-legend">
                        <span class="mm-sw mm-sw-box"></span>{t("mm-tile")}
                        <span class="mm-sw mm-sw-view"></span>{t("mm-view")}
                        <span class="mm-sw mm-sw-conflict"></span>{t("mm-conflict")}
                        <span class="mm-sw mm-sw-cap"></span>{t("mm-capacity")}
                        <span class="mm-sw mm-sw-hwm"></span>{t("mm-high-water")}
                        {move || func.with(|f| f.as_ref().is_some_and(|f| !f.reserved.is_empty())).then(|| view! {
                            <span class="mm-sw mm-sw-reserved" data-testid="mm-legend-reserved"></span>{t("mm-reserved")}
                        })}
                    </span>
                </div>
                <div class="mm-map" data-testid="mm-map" tabindex="0" node_ref=container
                    title=t("mm-wheel-zooms-at-the-cursor")
                    on:mousedown=on_down on:mousemove=on_move on:mouseup=on_up on:mouseleave=on_leave on:wheel=on_wheel on:keydown=on_key>
                    <canvas class="gl-layer" node_ref=canvas></canvas>
                    <canvas class="text-layer" node_ref=overlay></canvas>
                    {tooltip}
                    {reserved_tooltip}
                </div>
            </div>
            <div class="mm-side">
                <Details ui=ui func=func src=src/>
                <SourcePane ui=ui func=func src=src/>
            </div>
        </div>
    }
}

/// `0x2080–0x409F (8320–16543)`.
fn address_range(b: &MemBoxRow) -> String {
    let end = b.offset_bytes + b.size_bytes - 1;
    format!("0x{:X}–0x{:X} ({}–{})", b.offset_bytes, end, b.offset_bytes, end)
}

fn overlaps_bytes(a: &MemBoxRow, b: &MemBoxRow) -> bool {
    a.space == b.space && a.offset_bytes < b.offset_bytes + b.size_bytes && b.offset_bytes < a.offset_bytes + a.size_bytes
}

fn overlaps_lines(a: &MemBoxRow, b: &MemBoxRow) -> bool {
    a.start_line <= b.end_line && b.start_line <= a.end_line
}

/// Box `i`'s details as the details table shows them, as `(field, value)` rows for the CSV
/// (every use line, not the first 200; no links).
fn tile_fields(boxes: &[MemBoxRow], i: usize) -> Vec<(String, String)> {
    let Some(b) = boxes.get(i) else { return Vec::new() };
    let others: Vec<&MemBoxRow> = boxes.iter().enumerate().filter(|(j, o)| *j != i && overlaps_bytes(b, o)).map(|(_, o)| o).collect();
    let conflicts: Vec<String> = others.iter().filter(|o| o.base != b.base && overlaps_lines(b, o)).map(|o| o.name.clone()).collect();
    let reused: Vec<String> =
        others.iter().filter(|o| !overlaps_lines(b, o)).map(|o| format!("{} ({}–{})", o.name, o.start_line, o.end_line)).collect();
    let join = |v: &[String]| if v.is_empty() { "—".to_owned() } else { v.join(", ") };
    let lines = |v: Vec<String>| v.join(", ");
    let flags = match (b.view, b.conflict) {
        (true, _) => "view: a narrower box on the same base inside a wider one",
        (_, true) => "CONFLICT: overlaps a box of another base while both are live",
        _ => "—",
    };
    vec![
        ("tile".to_owned(), b.name.clone()),
        (format!("aliases ({})", b.aliases.len()), join(&b.aliases)),
        ("space · base".to_owned(), format!("{} · {}", b.space, b.base)),
        ("address".to_owned(), address_range(b)),
        ("size".to_owned(), format!("{} B (0x{:X}, {})", b.size_bytes, b.size_bytes, human_bytes(b.size_bytes))),
        ("shape".to_owned(), format!("[{}] {}", b.shape.iter().map(i64::to_string).collect::<Vec<_>>().join(", "), b.dtype)),
        ("producer".to_owned(), b.op.clone()),
        ("live".to_owned(), format!("lines {}–{} ({} lines)", b.start_line, b.end_line, b.end_line - b.start_line + 1)),
        ("defined at".to_owned(), lines(b.defined.iter().map(|&(s, e)| if s == e { s.to_string() } else { format!("{s}–{e}") }).collect())),
        (format!("used at ({})", b.used.len()), lines(b.used.iter().map(u32::to_string).collect())),
        ("flags".to_owned(), flags.to_owned()),
        ("conflicts with".to_owned(), join(&conflicts)),
        ("address reused by".to_owned(), join(&reused)),
    ]
}

#[component]
#[allow(clippy::too_many_lines)] // one table of the tile's facts and its links
fn Details(ui: MemoryMapUi, func: Memo<Option<MemFunctionMap>>, src: NodeRef<leptos::html::Div>) -> impl IntoView {
    let goto_line = move |line: u32| {
        ui.selected_box.set(None);
        ui.selected_line.set(Some(line));
        if let Some(f) = func.get_untracked() {
            scroll_source_to(src, f.src_start, line);
        }
    };
    let line_btn = move |l: u32, label: String| view! { <button class="mm-link" data-line=l.to_string() on:click=move |_| goto_line(l)>{label}</button> };
    // The tile in the pass trace: its snapshot, its function, the line that defines it.
    let show_in_trace = move |b: &MemBoxRow, function: String| {
        let nav = Nav::get();
        let snapshot = ui.data.with_untracked(|d| d.as_ref().map(|d| d.file.clone())).unwrap_or_default();
        let line = b.defined.first().map_or(b.start_line, |d| d.0);
        let target = CompilerTarget::Line { snapshot, function, line, tile: b.name.clone() };
        move |_| {
            if let Some(id) = nav.datasets.with_untracked(|d| d.first().copied()) {
                nav.show_compiler(id, ViewKind::PassTrace, target.clone());
            }
        }
    };
    let box_btn = move |i: usize, label: String| view! { <button class="mm-link" data-box=i.to_string() on:click=move |_| { ui.selected_line.set(None); ui.selected_box.set(Some(i)); }>{label}</button> };
    let body = move || {
        let f = func.get()?;
        if let Some(i) = ui.selected_box.get() {
            let b = f.boxes.get(i)?.clone();
            let others: Vec<(usize, &MemBoxRow)> = f.boxes.iter().enumerate().filter(|(j, o)| *j != i && overlaps_bytes(&b, o)).collect();
            let conflicts: Vec<(usize, String)> =
                others.iter().filter(|(_, o)| o.base != b.base && overlaps_lines(&b, o)).map(|(j, o)| (*j, o.name.clone())).collect();
            let reused: Vec<(usize, String)> = others
                .iter()
                .filter(|(_, o)| !overlaps_lines(&b, o))
                .map(|(j, o)| (*j, format!("{} ({}–{})", o.name, o.start_line, o.end_line)))
                .collect();
            let defined =
                b.defined.iter().map(|&(s, e)| line_btn(s, if s == e { s.to_string() } else { format!("{s}–{e}") })).collect_view();
            let used = b.used.iter().take(200).map(|&l| line_btn(l, l.to_string())).collect_view();
            let more = b.used.len().saturating_sub(200);
            let flags = match (b.view, b.conflict) {
                (true, _) => tr("mm-flag-view"),
                (_, true) => tr("mm-flag-conflict"),
                _ => "—".to_owned(),
            };
            let shape = format!("[{}] {}", b.shape.iter().map(i64::to_string).collect::<Vec<_>>().join(", "), b.dtype);
            let csv = crate::exports::fields_csv(None, &tile_fields(&f.boxes, i));
            let csv_name = {
                let snapshot = ui.data.with_untracked(|d| d.as_ref().map(|d| d.file.clone())).unwrap_or_default();
                crate::exports::file_name("tile-details", &[&snapshot, &f.name, &b.name], "csv")
            };
            return Some(view! {
                <button class="details-csv" data-testid="mm-details-csv" title=t("mm-download-these-details-as-csv")
                    on:click=move |_| crate::exports::download_csv(&csv_name, &csv)>"CSV"</button>
                <table class="details mm-details-table" data-testid="mm-details-table" data-name=b.name.clone()
                    data-offset=b.offset_bytes.to_string() data-size=b.size_bytes.to_string()
                    data-start=b.start_line.to_string() data-end=b.end_line.to_string() data-space=b.space.clone()>
                    <tr><th>{t("mm-tile")}</th><td class="mm-tile-name">{b.name.clone()}</td></tr>
                    <tr><th>{tr_with("mm-aliases-count", &[("count", Arg::from(b.aliases.len()))])}</th><td>{if b.aliases.is_empty() { "—".to_owned() } else { b.aliases.join(", ") }}</td></tr>
                    <tr><th>{t("mm-space-base")}</th><td>{format!("{} · {}", b.space, b.base)}</td></tr>
                    <tr><th>{t("mm-address")}</th><td data-testid="mm-detail-address">{address_range(&b)}</td></tr>
                    <tr><th>{t("mm-size")}</th><td data-testid="mm-detail-size">{format!("{} B (0x{:X}, {})", b.size_bytes, b.size_bytes, human_bytes(b.size_bytes))}</td></tr>
                    <tr><th>{t("mm-shape")}</th><td>{shape}</td></tr>
                    <tr><th>{t("mm-producer")}</th><td>{b.op.clone()}</td></tr>
                    <tr><th>{t("mm-live")}</th><td data-testid="mm-detail-live">{tr_with("mm-lines-count", &[("start", Arg::from(b.start_line.to_string())), ("end", Arg::from(b.end_line.to_string())), ("count", Arg::from(b.end_line - b.start_line + 1))])}</td></tr>
                    <tr><th>{t("mm-defined-at")}</th><td data-testid="mm-detail-defined">{defined}
                        <button class="mm-link" data-testid="mm-show-in-trace" title=t("mm-open-the-ir-pass-trace")
                            on:click=show_in_trace(&b, f.name.clone())>{t("mm-ir-pass-trace")}</button></td></tr>
                    <tr><th>{tr_with("mm-used-at", &[("count", Arg::from(b.used.len()))])}</th><td data-testid="mm-detail-used">{used}{(more > 0).then(|| format!(" … +{more}"))}</td></tr>
                    <tr><th>{t("mm-flags")}</th><td class:dt-warn=b.conflict>{flags}</td></tr>
                    {(!conflicts.is_empty()).then(|| view! { <tr><th>{t("mm-conflicts-with")}</th><td>{conflicts.into_iter().map(|(j, n)| box_btn(j, n)).collect_view()}</td></tr> })}
                    {(!reused.is_empty()).then(|| view! { <tr><th>{t("mm-address-reused-by")}</th><td>{reused.into_iter().map(|(j, n)| box_btn(j, n)).collect_view()}</td></tr> })}
                </table>
            }
            .into_any());
        }
        if let Some(l) = ui.selected_line.get() {
            let text = f.source.get(l.saturating_sub(f.src_start) as usize).cloned().unwrap_or_default();
            let touched: Vec<(usize, String)> = f
                .boxes
                .iter()
                .enumerate()
                .filter(|(_, b)| b.used.contains(&l) || b.defined.iter().any(|&(s, e)| s <= l && l <= e))
                .map(|(i, b)| (i, b.name.clone()))
                .collect();
            let live: Vec<(usize, String)> = f
                .boxes
                .iter()
                .enumerate()
                .filter(|(_, b)| b.start_line <= l && l <= b.end_line)
                .map(|(i, b)| (i, format!("{} ({} {})", b.name, b.space, human_bytes(b.size_bytes))))
                .collect();
            let live_bytes: i64 = f.boxes.iter().filter(|b| !b.view && b.start_line <= l && l <= b.end_line).map(|b| b.size_bytes).sum();
            return Some(view! {
                <table class="details" data-testid="mm-line-details" data-line=l.to_string()>
                    <tr><th>{t("mm-line")}</th><td>{l.to_string()}</td></tr>
                    <tr><th>{t("mm-code")}</th><td class="mm-code-cell">{text.trim().to_owned()}</td></tr>
                    <tr><th>{tr_with("mm-tiles-here", &[("count", Arg::from(touched.len()))])}</th><td>{touched.into_iter().map(|(j, n)| box_btn(j, n)).collect_view()}</td></tr>
                    <tr><th>{tr_with("mm-live-count", &[("count", Arg::from(live.len()))])}</th><td>{live.into_iter().map(|(j, n)| box_btn(j, n)).collect_view()}</td></tr>
                    <tr><th>{t("mm-live-bytes")}</th><td>{format!("{live_bytes} B ({})", human_bytes(live_bytes))}</td></tr>
                </table>
            }
            .into_any());
        }
        None
    };
    view! {
        <div class="mm-details" data-testid="mm-details">
            {move || body().unwrap_or_else(|| view! {
                <span class="hint">{t("mm-hover-a-tile-for-its")}</span>
            }.into_any())}
            {move || func.get().map(|f| view! { <ReservedList f=f line_btn=Callback::new(move |l: u32| goto_line(l))/> })}
        </div>
    }
}

/// The function's reserved windows and the tiles popped into a ring without a `MemRef`
/// (they are not boxes: `memory_map` ignores both).
#[component]
fn ReservedList(f: MemFunctionMap, line_btn: Callback<u32>) -> impl IntoView {
    if f.reserved.is_empty() && f.ring_tiles.is_empty() {
        return ().into_any();
    }
    let link = move |l: u32| view! { <button class="mm-link" data-line=l.to_string() on:click=move |_| line_btn.run(l)>{tr_with("mm-line-n", &[("line", Arg::from(l.to_string()))])}</button> };
    let windows = f
        .reserved
        .iter()
        .map(|w| {
            let range = w.base_bytes.map_or_else(
                || "base not assigned yet".to_owned(),
                |b| format!("0x{:X}–0x{:X} ({}–{})", b, b + w.size_bytes - 1, b, b + w.size_bytes - 1),
            );
            view! {
                <tr data-testid="mm-reserved-row" data-name=w.name.clone() data-space=w.space.clone()
                    data-base=w.base_bytes.map(|b| b.to_string()).unwrap_or_default() data-size=w.size_bytes.to_string()>
                    <th>{t("mm-reserved")}</th>
                    <td><b>{w.name.clone()}</b>{format!(" · {} ({}) · {range} · {} · ", w.space, w.space_from, human_bytes(w.size_bytes))}{link(w.line)}</td>
                </tr>
            }
        })
        .collect_view();
    let ring = f
        .ring_tiles
        .iter()
        .map(|tile| {
            let shape = format!("[{}] {}", tile.shape.iter().map(i64::to_string).collect::<Vec<_>>().join(", "), tile.dtype);
            view! {
                <tr data-testid="mm-ring-tile" data-name=tile.name.clone()>
                    <th>{t("mm-in-ring-no-memref")}</th>
                    <td><b>{tile.name.clone()}</b>{format!(" · {} · {shape} · {} · ", tile.space, tile.op)}{link(tile.line)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="details mm-reserved" data-testid="mm-reserved" data-windows=f.reserved.len().to_string() data-ring-tiles=f.ring_tiles.len().to_string()>
            {windows}
            {ring}
        </table>
    }
    .into_any()
}

#[component]
fn SourcePane(ui: MemoryMapUi, func: Memo<Option<MemFunctionMap>>, src: NodeRef<leptos::html::Div>) -> impl IntoView {
    let lines = move || {
        let f = func.get()?;
        let sel = ui.selected_box.get().and_then(|i| f.boxes.get(i).cloned());
        let picked = ui.selected_line.get();
        Some(
            f.source
                .iter()
                .enumerate()
                .map(|(k, text)| {
                    let n = f.src_start + k as u32;
                    let mark = sel.as_ref().map_or("", |b| {
                        if b.defined.iter().any(|&(s, e)| s <= n && n <= e) {
                            "def"
                        } else if b.used.binary_search(&n).is_ok() {
                            "use"
                        } else if b.start_line <= n && n <= b.end_line {
                            "live"
                        } else {
                            ""
                        }
                    });
                    view! {
                        <div class="mm-src-line" class:mm-def=mark == "def" class:mm-use=mark == "use" class:mm-live=mark == "live"
                            class:mm-picked=picked == Some(n) data-line=n.to_string() data-mark=mark
                            on:click=move |_| { ui.selected_box.set(None); ui.selected_line.set(Some(n)); }>
                            <span class="ln">{n.to_string()}</span><span class="code">{text.clone()}</span>
                        </div>
                    }
                })
                .collect_view(),
        )
    };
    view! {
        <div class="mm-source" data-testid="mm-source" node_ref=src>{lines}</div>
    }
}

/// The banner over the map of a damaged snapshot (as the pass trace marks it: the map, if
/// any, is of the text as read): each problem with file, line and column.
#[component]
fn SnapshotProblems(problems: Vec<SnapshotProblem>) -> impl IntoView {
    let items = problems
        .into_iter()
        .map(|p| {
            let label = format!("{}:{}:{}", p.file, p.line, p.column);
            let (file, line, column) = (p.file.clone(), p.line.to_string(), p.column.to_string());
            // Said in the page language, following a switch.
            let message = move || format!(" {}", i18n::snapshot_problem_message(&p));
            view! {
                <li data-file=file data-line=line data-column=column>
                    <code>{label}</code>{message}
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="snapshot-problems" data-testid="mm-snapshot-problems" role="alert">
            <strong>{t("mm-this-snapshot-is-damaged-or")}</strong>
            <ul>{items}</ul>
        </div>
    }
}

/// Asks for the map of the snapshot and chip `ui` names, again when they change. The first map
/// takes nav's tile (a link's) and the target of the view that opened this one (a kernel's
/// function); later ones (another chip, snapshot) start unselected.
fn ask_maps(ui: MemoryMapUi, dataset_id: u32, note: RwSignal<Option<TargetNote>>) {
    let (nav, client) = (Nav::get(), WorkerClient::get());
    let slot = client.slot();
    let linked_tile = StoredValue::new(nav.memory.with_untracked(|m| m.tile.clone()));
    let target = StoredValue::new(nav.compiler_target.try_update(Option::take).flatten());
    Effect::new(move |_| {
        let (file, chip) = (ui.file.get(), ui.chip.get());
        ui.loading.set(true);
        let reply = client.ask_in(slot, MemoryMapRequest { dataset_id, file, chip });
        leptos::task::spawn_local(async move {
            if let Ok(data) = reply.await {
                let tile = linked_tile.try_update_value(Option::take).flatten();
                if let Some(t) = target.try_update_value(Option::take).flatten() {
                    open_target(ui, note, &t, &data);
                }
                take_data(ui, *data, tile.as_deref());
            }
        });
    });
}

/// Opened from the swimlane: opens the function `t` names (a kernel's, by its rule) and says so.
fn open_target(ui: MemoryMapUi, note: RwSignal<Option<TargetNote>>, t: &CompilerTarget, data: &MemoryMapData) {
    let names: Vec<String> = data.functions.iter().map(|f| f.name.clone()).collect();
    let (chosen, shown) = target_note(t, &names);
    if chosen.is_some() {
        ui.function.set(chosen);
    }
    note.set(Some(shown));
}

/// The Memory Reuse view of a pass-dump dataset.
#[component]
pub fn MemoryMapView() -> impl IntoView {
    let nav = Nav::get();
    let dataset_id = nav.datasets.with_untracked(|d| d.first().copied()).unwrap_or(0);
    let ui = MemoryMapUi::from_nav(nav);
    let note: RwSignal<Option<TargetNote>> = RwSignal::new(None);
    ask_maps(ui, dataset_id, note);
    let data = move || ui.data.get();
    // The view's state in nav (and so in the URL hash), once a map is shown.
    Effect::new(move |_| {
        let (file, function, chip, sel) = (ui.file.get(), ui.function.get(), ui.chip.get(), ui.selected_box.get());
        let Some((shown, tile)) = ui.data.with(|d| {
            let d = d.as_ref()?;
            let tile = function
                .as_ref()
                .and_then(|n| d.functions.iter().find(|f| &f.name == n))
                .and_then(|f| sel.and_then(|i| f.boxes.get(i)))
                .map(|b| b.name.clone());
            Some(((!d.file.is_empty()).then(|| d.file.clone()), tile))
        }) else {
            return;
        };
        nav.memory.set(crate::nav::MemoryNav { snapshot: file, shown_snapshot: shown, function, chip, tile });
    });
    // memos: a new map (chip) or another function keeps the mounted canvas
    let has_map = Memo::new(move |_| ui.data.with(|d| d.as_ref().is_some_and(|d| d.error.is_none())));
    let has_function = Memo::new(move |_| ui.function.with(Option::is_some));
    let function_options = move || {
        let d = data()?;
        let cur = ui.function.get();
        Some(
            d.functions
                .iter()
                .map(|f| {
                    let label = format!("{} ({})", f.name, f.ftype);
                    view! { <option value=f.name.clone() selected=cur.as_deref() == Some(f.name.as_str())>{label}</option> }
                })
                .collect_view(),
        )
    };
    let snapshot_options = move || {
        let d = data()?;
        Some(d.snapshots.iter().map(|s| view! { <option value=s.clone() selected=*s == d.file>{s.clone()}</option> }).collect_view())
    };
    let chip_options = move || {
        let d = data()?;
        let chosen = ui.chip.get();
        let auto = if chosen.is_some() {
            tr("mm-chip-auto")
        } else if d.chip_detected {
            tr_with("mm-chip-auto-detected", &[("chip", Arg::from(&d.chip))])
        } else {
            tr_with("mm-chip-auto-assumed", &[("chip", Arg::from(&d.chip))])
        };
        Some(view! {
            <option value="" selected=chosen.is_none()>{auto}</option>
            {d.chips.iter().map(|c| view! { <option value=c.clone() selected=chosen.as_deref() == Some(c.as_str())>{c.clone()}</option> }).collect_view()}
        })
    };
    let chip_source =
        move || data().map(|d| format!("{} ({}) · {}", d.chip, d.arch, crate::note_words::chip_source(&d.chip_source))).unwrap_or_default();
    let error = move || {
        data().and_then(|d| d.error.clone()).map(|e| view! { <div class="mm-error error-message" data-testid="mm-error">{e}</div> })
    };
    let problems =
        move || data().map(|d| d.snapshot_problems.clone()).filter(|p| !p.is_empty()).map(|p| view! { <SnapshotProblems problems=p/> });
    view! {
        <div class="mm-page" data-testid="mm-page" data-file=move || data().map(|d| d.file.clone()).unwrap_or_default()
            data-chip=move || data().map(|d| d.chip.clone()).unwrap_or_default() data-loading=move || ui.loading.get().to_string()>
            <div class="mm-toolbar">
                <select data-testid="mm-function" aria-label=t("mm-function") on:change=move |ev| {
                    let v = event_target_value(&ev);
                    ui.selected_box.set(None);
                    ui.selected_line.set(None);
                    ui.function.set(if v.is_empty() { None } else { Some(v) });
                }>
                    <option value="" selected=move || ui.function.get().is_none()>{t("mm-all-functions-buffer-usage-overview-2")}</option>
                    {function_options}
                </select>
                <label>{t("mm-snapshot")}" " <select data-testid="mm-snapshot" on:change=move |ev| ui.file.set(Some(event_target_value(&ev)))>{snapshot_options}</select></label>
                <label>{t("mm-chip")}" " <select data-testid="mm-chip" on:change=move |ev| { let v = event_target_value(&ev); ui.chip.set(if v.is_empty() { None } else { Some(v) }); }>{chip_options}</select></label>
                <span class="hint" data-testid="mm-chip-source">{chip_source}</span>
                {move || ui.loading.get().then(|| view! { <span class="hint">{t("mm-building-the-map")}</span> })}
            </div>
            <CompilerNote note=note/>
            {problems}
            {error}
            {move || {
                match (has_map.get(), has_function.get()) {
                    (false, _) => ().into_any(),
                    (true, false) => view! { <Overview ui=ui/> }.into_any(),
                    (true, true) => view! { <FunctionMap ui=ui/> }.into_any(),
                }
            }}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(name: &str, base: &str, offset_bytes: i64, size_bytes: i64, lines: (u32, u32)) -> MemBoxRow {
        MemBoxRow {
            name: name.to_owned(),
            space: "UB".to_owned(),
            base: base.to_owned(),
            offset_bytes,
            size_bytes,
            start_line: lines.0,
            end_line: lines.1,
            ..MemBoxRow::default()
        }
    }

    #[test]
    fn tile_fields_are_the_details_table() {
        let mut a = tile("a_tile", "mem_0", 0, 256, (10, 20));
        a.aliases = vec!["a, alias".to_owned()];
        a.shape = vec![16, 8];
        a.dtype = "fp16".to_owned();
        a.op = "tile.load".to_owned();
        a.defined = vec![(10, 10), (11, 12)];
        a.used = (13..=230).collect();
        let boxes = vec![a, tile("b_tile", "mem_1", 128, 256, (15, 30)), tile("c_tile", "mem_0", 0, 64, (25, 40))];
        let f: std::collections::HashMap<String, String> = tile_fields(&boxes, 0).into_iter().collect();
        assert_eq!(f["tile"], "a_tile");
        assert_eq!(f["aliases (1)"], "a, alias");
        assert_eq!(f["address"], "0x0–0xFF (0–255)");
        assert_eq!(f["shape"], "[16, 8] fp16");
        assert_eq!(f["defined at"], "10, 11–12");
        assert_eq!(f["used at (218)"].split(", ").count(), 218, "every use, not the table's first 200");
        assert_eq!(f["conflicts with"], "b_tile");
        assert_eq!(f["address reused by"], "c_tile (25–40)");
        assert!(tile_fields(&boxes, 9).is_empty());
    }
}
