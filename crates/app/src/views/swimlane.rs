//! Chip Swimlane, Worker View: one lane per `AICore` (AIC/AIV), one bar per task, drawn with
//! instanced WebGL2 rectangles from the columns the worker sent. Pan (drag, A/D, shift+wheel),
//! zoom around the cursor (Ctrl+wheel, W/S), vertical scroll (wheel), click a bar for details.
//!
//! Work per frame is O(visible lanes × log bars + emitted rects): each lane binary-searches the
//! visible window and bars narrower than a pixel merge into one rectangle per pixel column.
//! No signal per bar: the renderer is plain Rust driven by `requestAnimationFrame`.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use pypto_protocol::{ToWorker, WorkerViewColumns};
use pypto_render::camera::TimeCamera;
use pypto_render::text::TextOverlay;
use pypto_render::lanes::{emit_bars, LaneGeometry, LaneIndex};
use pypto_render::{axis, palette, GlRenderer, LineInstance, RectInstance};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::state::AppState;
use crate::worker_client;

const AXIS_HEIGHT_PX: f64 = 28.0;
const GUTTER_WIDTH_PX: f64 = 132.0;
const LANE_HEIGHT_PX: f64 = 18.0;
const LANE_PITCH_PX: f64 = 24.0;
const LABEL_FONT: &str = "11px system-ui, sans-serif";
const BACKGROUND_RGBA: [f32; 4] = [0.985, 0.985, 0.99, 1.0];
/// Pixels the pointer may move between press and release and still count as a click.
const CLICK_SLOP_PX: f64 = 4.0;

/// The Worker View columns of the selected dataset, as the worker sent them.
pub struct LaneData {
    pub header: WorkerViewColumns,
    pub lane_offsets: Vec<u32>,
    pub start_us: Vec<f64>,
    pub end_us: Vec<f64>,
    pub color_index: Vec<u32>,
    pub name_index: Vec<u32>,
    /// Per-lane culling index (longest bar: how far before the window a visible bar may start).
    pub lane_index: Vec<LaneIndex>,
}

impl LaneData {
    fn lane_range(&self, lane: usize) -> std::ops::Range<usize> {
        let start = self.lane_offsets.get(lane).copied().unwrap_or(0) as usize;
        let end = self.lane_offsets.get(lane + 1).copied().unwrap_or(0) as usize;
        start.min(self.start_us.len())..end.min(self.start_us.len())
    }
}

thread_local! {
    static DATA: RefCell<Option<Rc<LaneData>>> = const { RefCell::new(None) };
    static VIEW: RefCell<Option<SwimlaneRenderer>> = const { RefCell::new(None) };
}

fn typed_vec_f64(columns: &JsValue, name: &str) -> Vec<f64> {
    js_sys::Reflect::get(columns, &JsValue::from_str(name))
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::Float64Array>().ok())
        .map(|a| a.to_vec())
        .unwrap_or_default()
}

fn typed_vec_u32(columns: &JsValue, name: &str) -> Vec<u32> {
    js_sys::Reflect::get(columns, &JsValue::from_str(name))
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::Uint32Array>().ok())
        .map(|a| a.to_vec())
        .unwrap_or_default()
}

/// Stores the columns that arrived from the worker (one copy into wasm memory).
pub fn set_columns(header: WorkerViewColumns, columns: &JsValue) {
    let lane_offsets = typed_vec_u32(columns, "lane_offsets");
    let start_us = typed_vec_f64(columns, "start_us");
    let end_us = typed_vec_f64(columns, "end_us");
    let lane_count = lane_offsets.len().saturating_sub(1);
    let mut data = LaneData {
        header,
        lane_offsets,
        start_us,
        end_us,
        color_index: typed_vec_u32(columns, "color_index"),
        name_index: typed_vec_u32(columns, "name_index"),
        lane_index: Vec::new(),
    };
    data.lane_index = (0..lane_count)
        .map(|lane| {
            let range = data.lane_range(lane);
            LaneIndex::new(data.start_us.get(range.clone()).unwrap_or_default(), data.end_us.get(range).unwrap_or_default())
        })
        .collect();
    DATA.with_borrow_mut(|d| *d = Some(Rc::new(data)));
}

/// A bar the user picked: lane and index within the lane.
#[derive(Clone, Copy, PartialEq)]
struct Pick {
    lane: usize,
    index: usize,
}

struct Drag {
    start_x: f64,
    start_y: f64,
    last_x: f64,
    last_y: f64,
    moved: bool,
}

/// An event listener the renderer added (target, event name, callback), removed on unmount.
type Listener = (web_sys::EventTarget, &'static str, Closure<dyn FnMut(web_sys::Event)>);
/// The resize observer of the view and its callback.
type ResizeWatch = (web_sys::ResizeObserver, Closure<dyn FnMut(js_sys::Array)>);

/// The plain-Rust renderer behind the component.
struct SwimlaneRenderer {
    state: AppState,
    container: web_sys::HtmlElement,
    gl: GlRenderer,
    text: TextOverlay,
    tooltip: web_sys::HtmlElement,
    data: Option<Rc<LaneData>>,
    camera: TimeCamera,
    scroll_y_px: f64,
    css_width: f64,
    css_height: f64,
    mouse: Option<(f64, f64)>,
    drag: Option<Drag>,
    selected: Option<Pick>,
    rects: Vec<RectInstance>,
    lines: Vec<LineInstance>,
    frame_pending: bool,
    listeners: Vec<Listener>,
    frame_closure: Option<Closure<dyn FnMut(f64)>>,
    resize_observer: Option<ResizeWatch>,
}

fn rgba_u8(r: u8, g: u8, b: u8, a: u8) -> [u8; 4] {
    [r, g, b, a]
}

impl SwimlaneRenderer {
    fn lane_count(&self) -> usize {
        self.data.as_ref().map_or(0, |d| d.header.lanes.len())
    }

    fn plot_width(&self) -> f64 {
        (self.css_width - GUTTER_WIDTH_PX).max(1.0)
    }

    fn content_height(&self) -> f64 {
        self.lane_count() as f64 * LANE_PITCH_PX + 8.0
    }

    fn clamp_scroll(&mut self) {
        let max = (self.content_height() - (self.css_height - AXIS_HEIGHT_PX)).max(0.0);
        self.scroll_y_px = self.scroll_y_px.clamp(0.0, max);
    }

    fn set_data(&mut self, data: Option<Rc<LaneData>>) {
        self.data = data;
        self.selected = None;
        self.scroll_y_px = 0.0;
        if let Some(d) = &self.data {
            self.camera.set_width(self.plot_width());
            self.camera.set_extent(d.header.first_start_us, d.header.last_end_us);
            self.camera.fit(d.header.first_start_us, d.header.last_end_us);
            let _ = self.container.set_attribute("data-lanes", &d.header.lanes.len().to_string());
            let _ = self.container.set_attribute("data-bars", &d.header.bar_count.to_string());
            let labels: Vec<&str> = d.header.lanes.iter().map(|l| l.label.as_str()).collect();
            let _ = self.container.set_attribute("data-lane-labels", &labels.join(","));
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

    fn lane_top(&self, lane: usize) -> f64 {
        AXIS_HEIGHT_PX + 4.0 + lane as f64 * LANE_PITCH_PX - self.scroll_y_px
    }

    /// The bar under a point in CSS pixels of the container, if any.
    #[allow(clippy::many_single_char_names)] // x/y/t/s/e: pixel and time coordinates
    fn pick(&self, x: f64, y: f64) -> Option<Pick> {
        let data = self.data.as_ref()?;
        if x < GUTTER_WIDTH_PX || y < AXIS_HEIGHT_PX {
            return None;
        }
        let lane_f = (y - AXIS_HEIGHT_PX - 4.0 + self.scroll_y_px) / LANE_PITCH_PX;
        if lane_f < 0.0 {
            return None;
        }
        let lane = lane_f as usize;
        if lane >= data.header.lanes.len() || (lane_f - lane as f64) * LANE_PITCH_PX > LANE_HEIGHT_PX {
            return None;
        }
        let range = data.lane_range(lane);
        let starts = data.start_us.get(range.clone())?;
        let ends = data.end_us.get(range.clone())?;
        let slop_us = 3.0 * self.camera.us_per_px();
        let t = self.camera.px_to_us(x - GUTTER_WIDTH_PX);
        let index = data.lane_index.get(lane).copied().unwrap_or_default();
        let window = index.visible_range(starts, ends, t - slop_us, t + slop_us);
        let mut best: Option<(f64, usize)> = None;
        for i in window {
            let (s, e) = (starts.get(i).copied()?, ends.get(i).copied()?);
            let distance = if t < s { s - t } else if t > e { t - e } else { 0.0 };
            if distance <= slop_us && best.is_none_or(|(d, _)| distance < d) {
                best = Some((distance, i));
            }
        }
        best.map(|(_, index)| Pick { lane, index })
    }

    fn draw(&mut self) {
        self.frame_pending = false;
        self.gl.begin_frame(BACKGROUND_RGBA);
        self.text.clear();
        self.rects.clear();
        self.lines.clear();
        let Some(data) = self.data.clone() else { return };
        let plot_w = self.plot_width();
        let (t0, t1) = self.camera.visible_range_us();
        let lane_count = data.header.lanes.len();
        let first_lane = (((self.scroll_y_px - 4.0) / LANE_PITCH_PX).floor().max(0.0)) as usize;
        let last_lane = ((((self.scroll_y_px + self.css_height - AXIS_HEIGHT_PX) / LANE_PITCH_PX).ceil()) as usize + 1).min(lane_count);
        let gutter = GUTTER_WIDTH_PX as f32;
        let mut labels: Vec<(f32, f32, f32, u32)> = Vec::new();

        // Grid lines at the axis ticks.
        let ticks = axis::time_ticks(t0, t1, plot_w, 110.0);
        for tick in &ticks {
            let x = gutter + self.camera.us_to_px_f32(tick.us);
            let alpha = if tick.major { 40 } else { 18 };
            self.lines.push(LineInstance { x0: x, y0: AXIS_HEIGHT_PX as f32, x1: x, y1: self.css_height as f32, width: 1.0, rgba: rgba_u8(0, 0, 0, alpha) });
        }

        for lane in first_lane..last_lane {
            let top = self.lane_top(lane) as f32;
            if lane % 2 == 1 {
                self.rects.push(RectInstance { x: 0.0, y: top - 3.0, w: self.css_width as f32, h: LANE_PITCH_PX as f32, rgba: rgba_u8(0, 0, 40, 10) });
            }
            let range = data.lane_range(lane);
            let (Some(starts), Some(ends)) = (data.start_us.get(range.clone()), data.end_us.get(range.clone())) else { continue };
            let index = data.lane_index.get(lane).copied().unwrap_or_default();
            let window = index.visible_range(starts, ends, t0, t1);
            let base = range.start;
            let first_rect = self.rects.len();
            let geometry = LaneGeometry { y: top, h: LANE_HEIGHT_PX as f32 };
            let colors = &data.color_index;
            emit_bars(&self.camera, starts, ends, window.clone(), geometry, |i| palette::color_for_key(colors.get(base + i).copied().unwrap_or(0)), &mut self.rects);
            for rect in self.rects.get_mut(first_rect..).unwrap_or_default() {
                rect.x += gutter;
            }
            // Labels only for bars wide enough to hold text.
            let min_label_us = 36.0 * self.camera.us_per_px();
            if index.max_duration_us < min_label_us {
                continue;
            }
            for i in window {
                let (Some(&s), Some(&e)) = (starts.get(i), ends.get(i)) else { continue };
                if e - s >= min_label_us {
                    let x0 = GUTTER_WIDTH_PX + self.camera.us_to_px(s);
                    let x1 = GUTTER_WIDTH_PX + self.camera.us_to_px(e);
                    labels.push((x0 as f32, top, (x1 - x0) as f32, data.name_index.get(base + i).copied().unwrap_or(u32::MAX)));
                }
            }
        }
        // Selection outline.
        if let Some(pick) = self.selected {
            let range = data.lane_range(pick.lane);
            if let (Some(&s), Some(&e)) = (data.start_us.get(range.start + pick.index), data.end_us.get(range.start + pick.index)) {
                let x0 = (GUTTER_WIDTH_PX + self.camera.us_to_px(s)) as f32;
                let x1 = (GUTTER_WIDTH_PX + self.camera.us_to_px(e)).max(f64::from(x0) + 1.0) as f32;
                let y0 = self.lane_top(pick.lane) as f32 - 1.5;
                let y1 = y0 + LANE_HEIGHT_PX as f32 + 3.0;
                let ink = rgba_u8(20, 20, 20, 255);
                for (ax, ay, bx, by) in [(x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)] {
                    self.lines.push(LineInstance { x0: ax, y0: ay, x1: bx, y1: by, width: 2.0, rgba: ink });
                }
            }
        }
        self.gl.set_scissor(Some((gutter, AXIS_HEIGHT_PX as f32, plot_w as f32, (self.css_height - AXIS_HEIGHT_PX) as f32)));
        self.gl.draw_rects(&self.rects);
        self.gl.draw_lines(&self.lines);
        self.gl.set_scissor(None);

        self.draw_text(&data, &ticks, &labels, first_lane, last_lane);
        let _ = self.container.set_attribute("data-view-start-us", &format!("{t0:.3}"));
        let _ = self.container.set_attribute("data-view-end-us", &format!("{t1:.3}"));
        let _ = self.container.set_attribute("data-drawn-rects", &self.rects.len().to_string());
    }

    fn draw_text(&mut self, data: &LaneData, ticks: &[axis::Tick], labels: &[(f32, f32, f32, u32)], first_lane: usize, last_lane: usize) {
        let camera = self.camera;
        let lane_tops: Vec<f32> = (first_lane..last_lane).map(|lane| self.lane_top(lane) as f32).collect();
        let text = &mut self.text;
        let w = self.css_width as f32;
        let h = self.css_height as f32;
        let gutter = GUTTER_WIDTH_PX as f32;
        let axis_h = AXIS_HEIGHT_PX as f32;
        // Bar labels, clipped to the bar.
        for &(x, y, width, name) in labels {
            let Some(label) = data.header.names.get(name as usize) else { continue };
            let visible_x = x.max(gutter);
            let room = (x + width).min(w) - visible_x - 6.0;
            if room >= 14.0 {
                text.fill_text_fitted(label, visible_x + 3.0, y + 13.0, room, LABEL_FONT, [255, 255, 255, 235]);
            }
        }
        // Gutter with lane labels.
        text.fill_rect(0.0, axis_h, gutter, h - axis_h, [246, 246, 249, 255]);
        text.line(gutter, axis_h, gutter, h, 1.0, [200, 200, 210, 255]);
        for (lane, top) in (first_lane..last_lane).zip(lane_tops) {
            if let Some(info) = data.header.lanes.get(lane) {
                let y = top + 13.0;
                if y > axis_h + 6.0 {
                    let color = if info.core_type == "AIC" { [30, 70, 160, 255] } else { [20, 120, 80, 255] };
                    text.fill_text_fitted(&info.label, 8.0, y, gutter - 12.0, LABEL_FONT, color);
                }
            }
        }
        // Time axis.
        text.fill_rect(0.0, 0.0, w, axis_h, [236, 237, 242, 255]);
        text.line(0.0, axis_h, w, axis_h, 1.0, [190, 190, 200, 255]);
        for tick in ticks {
            let x = gutter + camera.us_to_px_f32(tick.us);
            if x < gutter || x > w {
                continue;
            }
            let tick_h = if tick.major { 9.0 } else { 5.0 };
            text.line(x, axis_h - tick_h, x, axis_h, 1.0, [90, 90, 100, 255]);
            if !tick.label.is_empty() {
                text.fill_text(&tick.label, x + 3.0, 16.0, LABEL_FONT, [40, 40, 50, 255]);
            }
        }
        text.fill_rect(0.0, 0.0, gutter, axis_h, [226, 228, 236, 255]);
        text.fill_text("Worker View", 8.0, 17.0, "600 11px system-ui, sans-serif", [40, 40, 50, 255]);
    }

    #[allow(clippy::many_single_char_names)] // x/y/s/e/p: pixel and time coordinates
    fn show_tooltip(&self, x: f64, y: f64) {
        let style = self.tooltip.style();
        let pick = self.pick(x, y);
        let content = pick.and_then(|p| {
            let data = self.data.as_ref()?;
            let i = data.lane_range(p.lane).start + p.index;
            let (s, e) = (data.start_us.get(i).copied()?, data.end_us.get(i).copied()?);
            let name = data.name_index.get(i).and_then(|&n| data.header.names.get(n as usize)).cloned().unwrap_or_default();
            let lane = data.header.lanes.get(p.lane).map(|l| l.label.clone()).unwrap_or_default();
            Some(format!("{name}\n{lane}\n{s:.3} → {e:.3} µs\n{:.3} µs (receive → end)", e - s))
        });
        match content {
            Some(text) => {
                self.tooltip.set_inner_text(&text);
                let _ = style.set_property("display", "block");
                let _ = style.set_property("left", &format!("{}px", (x + 14.0).min(self.css_width - 180.0)));
                let _ = style.set_property("top", &format!("{}px", y + 14.0));
            }
            None => {
                let _ = style.set_property("display", "none");
            }
        }
    }

    fn zoom_at(&mut self, anchor_css_x: f64, factor: f64) {
        let anchor = (anchor_css_x - GUTTER_WIDTH_PX).clamp(0.0, self.plot_width());
        self.camera.zoom_at(anchor, factor);
    }

    fn zoom_anchor(&self) -> f64 {
        match self.mouse {
            Some((x, _)) if x >= GUTTER_WIDTH_PX => x,
            _ => GUTTER_WIDTH_PX + self.plot_width() / 2.0,
        }
    }
}

fn request_frame() {
    VIEW.with_borrow_mut(|view| {
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

fn with_view(f: impl FnOnce(&mut SwimlaneRenderer)) {
    VIEW.with_borrow_mut(|view| {
        if let Some(r) = view.as_mut() {
            f(r);
        }
    });
}

fn mouse_pos(container: &web_sys::HtmlElement, ev: &web_sys::MouseEvent) -> (f64, f64) {
    let rect = container.get_bounding_client_rect();
    (f64::from(ev.client_x()) - rect.left(), f64::from(ev.client_y()) - rect.top())
}

fn is_typing_target(ev: &web_sys::Event) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

#[allow(clippy::too_many_lines)] // one match arm per event kind reads best in one place
fn on_event(kind: &str, ev: &web_sys::Event) {
    let mut redraw = false;
    let mut details: Option<(AppState, u32, Pick)> = None;
    with_view(|r| {
        match kind {
            "mousedown" => {
                let Some(m) = ev.dyn_ref::<web_sys::MouseEvent>() else { return };
                if m.button() != 0 {
                    return;
                }
                let (x, y) = mouse_pos(&r.container, m);
                r.drag = Some(Drag { start_x: x, start_y: y, last_x: x, last_y: y, moved: false });
                let _ = r.container.focus();
                ev.prevent_default();
            }
            "mousemove" => {
                let Some(m) = ev.dyn_ref::<web_sys::MouseEvent>() else { return };
                let (x, y) = mouse_pos(&r.container, m);
                r.mouse = Some((x, y));
                if let Some(drag) = r.drag.as_mut() {
                    let (dx, dy) = (x - drag.last_x, y - drag.last_y);
                    if (x - drag.start_x).abs() > CLICK_SLOP_PX || (y - drag.start_y).abs() > CLICK_SLOP_PX {
                        drag.moved = true;
                    }
                    drag.last_x = x;
                    drag.last_y = y;
                    if drag.moved {
                        r.camera.pan_px(-dx);
                        r.scroll_y_px -= dy;
                        r.clamp_scroll();
                        redraw = true;
                    }
                } else {
                    r.show_tooltip(x, y);
                }
            }
            "mouseup" => {
                let Some(drag) = r.drag.take() else { return };
                if !drag.moved {
                    let pick = r.pick(drag.start_x, drag.start_y);
                    r.selected = pick;
                    redraw = true;
                    if let (Some(p), Some(d)) = (pick, r.data.as_ref()) {
                        details = Some((r.state, d.header.dataset_id, p));
                    } else {
                        r.state.task_details.set(None);
                    }
                }
            }
            "mouseleave" => {
                r.mouse = None;
                let _ = r.tooltip.style().set_property("display", "none");
            }
            "wheel" => {
                let Some(w) = ev.dyn_ref::<web_sys::WheelEvent>() else { return };
                ev.prevent_default();
                let (x, _) = mouse_pos(&r.container, w);
                let scale = if w.delta_mode() == 1 { 16.0 } else { 1.0 };
                let (dx, dy) = (w.delta_x() * scale, w.delta_y() * scale);
                if w.ctrl_key() || w.meta_key() {
                    r.zoom_at(x, (-dy * 0.002).exp());
                } else if w.shift_key() || dx.abs() > dy.abs() {
                    r.camera.pan_px(if dx.abs() > dy.abs() { dx } else { dy });
                } else {
                    r.scroll_y_px += dy;
                    r.clamp_scroll();
                }
                redraw = true;
            }
            "keydown" => {
                let Some(k) = ev.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                if is_typing_target(ev) || k.ctrl_key() || k.meta_key() || k.alt_key() {
                    return;
                }
                let step = r.plot_width() * 0.15;
                let anchor = r.zoom_anchor();
                match k.key().to_ascii_lowercase().as_str() {
                    "a" | "arrowleft" => r.camera.pan_px(-step),
                    "d" | "arrowright" => r.camera.pan_px(step),
                    "w" => r.zoom_at(anchor, 1.4),
                    "s" => r.zoom_at(anchor, 1.0 / 1.4),
                    "f" | "0" => {
                        if let Some(d) = r.data.clone() {
                            r.camera.fit(d.header.first_start_us, d.header.last_end_us);
                        }
                    }
                    "escape" => {
                        r.selected = None;
                        r.state.task_details.set(None);
                    }
                    _ => return,
                }
                ev.prevent_default();
                redraw = true;
            }
            _ => {}
        }
    });
    if let Some((state, dataset_id, pick)) = details {
        state.task_details.set(None);
        worker_client::send(ToWorker::TaskDetails { dataset_id, lane: pick.lane as u32, index: pick.index as u32 }, None);
    }
    if redraw {
        request_frame();
    }
}

fn mount(state: AppState, container: &web_sys::HtmlElement, canvas: &web_sys::HtmlCanvasElement, overlay: &web_sys::HtmlCanvasElement, tooltip: web_sys::HtmlElement) {
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
    let mut renderer = SwimlaneRenderer {
        state,
        container: container.clone(),
        gl,
        text,
        tooltip,
        data: None,
        camera: TimeCamera::new(1.0),
        scroll_y_px: 0.0,
        css_width: 1.0,
        css_height: 1.0,
        mouse: None,
        drag: None,
        selected: None,
        rects: Vec::new(),
        lines: Vec::new(),
        frame_pending: false,
        listeners: Vec::new(),
        frame_closure: Some(Closure::new(|_time: f64| with_view(SwimlaneRenderer::draw))),
        resize_observer: None,
    };
    let window: web_sys::EventTarget = match web_sys::window() {
        Some(w) => w.into(),
        None => return,
    };
    let target: web_sys::EventTarget = container.clone().into();
    for (on, kind) in [(&target, "mousedown"), (&target, "mousemove"), (&target, "mouseleave"), (&target, "wheel"), (&window, "mouseup"), (&window, "keydown")] {
        let closure = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| on_event(kind, &ev));
        let options = web_sys::AddEventListenerOptions::new();
        options.set_passive(false);
        let _ = on.add_event_listener_with_callback_and_add_event_listener_options(kind, closure.as_ref().unchecked_ref(), &options);
        renderer.listeners.push((on.clone(), kind, closure));
    }
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
}

fn unmount() {
    let old = VIEW.with_borrow_mut(Option::take);
    if let Some(r) = old {
        for (target, kind, closure) in &r.listeners {
            let _ = target.remove_event_listener_with_callback(kind, closure.as_ref().unchecked_ref());
        }
        if let Some((observer, _)) = &r.resize_observer {
            observer.disconnect();
        }
    }
}

#[component]
pub fn SwimlaneView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let container = NodeRef::<leptos::html::Div>::new();
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let overlay = NodeRef::<leptos::html::Canvas>::new();
    let tooltip = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        state.swimlane_version.track();
        let (Some(div), Some(gl_canvas), Some(text_canvas), Some(tip)) = (container.get(), canvas.get(), overlay.get(), tooltip.get()) else {
            return;
        };
        if VIEW.with_borrow(Option::is_none) {
            mount(state, &div.into(), &gl_canvas, &text_canvas, tip.into());
        }
        let data = DATA.with_borrow(Clone::clone);
        let matches = data.as_ref().is_some_and(|d| Some(d.header.dataset_id) == state.selected.get_untracked());
        with_view(|r| {
            r.resize();
            r.set_data(if matches { data } else { None });
        });
        request_frame();
    });
    on_cleanup(unmount);
    let details = move || state.task_details.get();
    view! {
        <div class="swimlane-page">
            <div id="swimlane" class="swimlane" tabindex="0" node_ref=container>
                <canvas id="swimlane-gl" class="gl-layer" node_ref=canvas></canvas>
                <canvas class="text-layer" node_ref=overlay></canvas>
                <div class="tooltip" node_ref=tooltip></div>
            </div>
            <div id="task-details" class="details-panel">
                {move || match details() {
                    None => view! { <p class="hint">"Click a bar for its details. W/S zoom, A/D pan, F fits, Ctrl+wheel zooms at the cursor."</p> }.into_any(),
                    Some(reply) => view! {
                        <table class="details">
                            {reply.fields.into_iter().map(|(label, value)| view! { <tr><th>{label}</th><td>{value}</td></tr> }).collect_view()}
                        </table>
                    }.into_any(),
                }}
            </div>
        </div>
    }
}
