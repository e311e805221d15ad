//! Mouse and keyboard: wheel scrolls lanes (Ctrl+wheel zooms at the cursor, Shift+wheel or a
//! horizontal wheel pans), drag / Ctrl+drag pans, the overview strip drags the window, a click
//! on the time axis adds a marker, Alt+click twice or Alt+drag measures, Shift+drag (or `r`
//! then drag) selects an area, a click selects a bar, right-click opens the marker menu, the
//! gutter toggles groups and pins; keys w/s/a/d (configurable) move with acceleration while
//! held, `f` fits the selection, Esc clears.

use leptos::prelude::*;
use pypto_protocol::timeline::{BarRef, RangeStatsRequest};
use std::fmt::Write as _;
use wasm_bindgen::JsCast;

use super::layout::{RowKind, BAR_HEIGHT_PX, BAR_TOP_PAD_PX, GUTTER_WIDTH_PX, HEADER_HEIGHT_PX, OVERVIEW_HEIGHT_PX, ROW_PITCH_PX};
use super::{markers, ContextMenu, Drag, DragMode, KeyAction, Lane, SwimlaneRenderer};
use crate::browser::now_ms;
use crate::nav::PathMode;
use crate::shortcuts::{self, Action, Scope};

/// Pixels the pointer may move between press and release and still count as a click.
const CLICK_SLOP_PX: f64 = 4.0;

fn mouse_pos(container: &web_sys::HtmlElement, ev: &web_sys::MouseEvent) -> (f64, f64) {
    let rect = container.get_bounding_client_rect();
    (f64::from(ev.client_x()) - rect.left(), f64::from(ev.client_y()) - rect.top())
}

fn is_typing_target(ev: &web_sys::Event) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

/// Whether the event happened on the drawing (not on chrome inside the view, like the menu).
fn is_canvas_target(ev: &web_sys::Event) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "CANVAS" | "DIV") && el.closest(".context-menu").ok().flatten().is_none())
}

/// Adds the renderer's listeners.
pub(super) fn attach(r: &mut SwimlaneRenderer, container: &web_sys::HtmlElement) {
    let Some(window) = web_sys::window() else { return };
    let window: web_sys::EventTarget = window.into();
    let target: web_sys::EventTarget = container.clone().into();
    let kinds = [
        (&target, "mousedown"),
        (&target, "mousemove"),
        // Chromium: the pointer move as it arrives, before the mousemove it becomes, which is
        // held back to the next animation frame; the tooltip follows it without that wait.
        (&target, "pointerrawupdate"),
        (&target, "mouseleave"),
        (&target, "wheel"),
        (&target, "contextmenu"),
        (&window, "mousemove"),
        (&window, "mouseup"),
        (&window, "keydown"),
        (&window, "keyup"),
        (&window, "blur"),
    ];
    let lane = r.lane;
    for (on, kind) in kinds {
        let is_window = std::ptr::eq(on, &raw const window);
        // Not passive: the wheel and keys are handled here (prevent_default).
        let options = gloo::events::EventListenerOptions::enable_prevent_default();
        let listener = gloo::events::EventListener::new_with_options(on, kind, options, move |ev| on_event(lane, kind, is_window, ev));
        r.listeners.push(listener);
    }
}

impl SwimlaneRenderer {
    /// The bar under a point (CSS px of the container), if any.
    #[allow(clippy::many_single_char_names)] // x/y/t/s/e: pixel and time coordinates
    pub(super) fn pick(&self, x: f64, y: f64) -> Option<BarRef> {
        let data = self.data.as_ref()?;
        let track = self.track_at(y)?;
        let top = self.track_top(track)?;
        let row_f = (y - top) / ROW_PITCH_PX;
        let row = row_f.floor().max(0.0) as u32;
        let within = y - top - f64::from(row) * ROW_PITCH_PX;
        if x < GUTTER_WIDTH_PX || !(BAR_TOP_PAD_PX - 2.0..=BAR_TOP_PAD_PX + BAR_HEIGHT_PX + 2.0).contains(&within) {
            return None;
        }
        let lanes = data.track_lanes.get(track)?.clone();
        let slop_us = 3.0 * self.camera.us_per_px();
        let t = self.camera.px_to_us(x - GUTTER_WIDTH_PX);
        // O(log n) per lane: binary search by start within the lane index's bound, then only
        // the bars overlapping the cursor's ±3 px window (ended bars skipped a block at a time).
        // A folded track draws its instant row over its first row: both are searched.
        let mut best: Option<(f64, f64, usize)> = None;
        for sub in lanes.filter_map(|l| data.lanes.get(l)).filter(|s| self.drawn_row(track, s.row) == Some(row)) {
            let (starts, ends) = data.lane_times(sub);
            sub.index.overlapping(starts, ends, t - slop_us, t + slop_us, |i| {
                let (Some(&s), Some(&e)) = (starts.get(i), ends.get(i)) else { return };
                let distance = if t < s {
                    s - t
                } else if t > e {
                    t - e
                } else {
                    0.0
                };
                // Prefer the innermost (shortest) bar among those under the pointer.
                let key = (distance, e - s);
                if distance <= slop_us && best.is_none_or(|(d, len, _)| key < (d, len)) {
                    best = Some((distance, e - s, sub.global(i).unwrap_or(0)));
                }
            });
        }
        data.bar_ref(best?.2)
    }

    /// The track at a screen y, pinned or scrolling.
    pub(super) fn track_at(&self, y: f64) -> Option<usize> {
        if y < HEADER_HEIGHT_PX {
            return None;
        }
        if y < self.lanes_top() {
            let py = y - HEADER_HEIGHT_PX;
            return self.layout.pinned.iter().find(|r| r.y <= py && py < r.y + r.h).and_then(|r| match r.kind {
                RowKind::Track(t) => Some(t),
                _ => None,
            });
        }
        match self.layout.row_at(y - self.lanes_top() + self.scroll_y_px)?.kind {
            RowKind::Track(t) => Some(t),
            _ => None,
        }
    }

    fn time_at(&self, x: f64) -> f64 {
        self.camera.px_to_us(x - GUTTER_WIDTH_PX)
    }

    fn overview_center(&mut self, x: f64) {
        let Some(d) = self.data.as_ref() else { return };
        let (first, last) = (d.header.first_start_us, d.header.last_end_us);
        let t = first + ((x - GUTTER_WIDTH_PX) / self.plot_width()).clamp(0.0, 1.0) * (last - first);
        let (t0, t1) = self.camera.visible_range_us();
        self.camera.pan_px((t - f64::midpoint(t0, t1)) * self.camera.px_per_us);
    }

    fn gutter_click(&mut self, x: f64, y: f64) {
        if y < HEADER_HEIGHT_PX {
            return;
        }
        if y >= self.lanes_top() {
            if let Some(row) = self.layout.row_at(y - self.lanes_top() + self.scroll_y_px) {
                if let RowKind::Group(gi) = row.kind {
                    if let Some(c) = self.collapsed.get_mut(gi) {
                        *c = !*c;
                    }
                    self.relayout();
                    return;
                }
            }
        }
        if let Some(track) = self.track_at(y) {
            if x >= GUTTER_WIDTH_PX - 28.0 {
                self.toggle_pin(track);
            } else if x < 14.0 {
                self.toggle_fold(track);
            }
        }
    }

    pub(super) fn toggle_pin(&mut self, track: usize) {
        if let Some(pos) = self.pinned.iter().position(|&t| t == track) {
            self.pinned.remove(pos);
        } else {
            self.pinned.push(track);
        }
        self.relayout();
        self.report_lanes();
    }

    fn finish_area(&mut self) {
        let Some((a, b, y0, y1)) = self.area else { return };
        let Some(d) = self.data.as_ref() else { return };
        let (ya, yb) = (y0.min(y1), y0.max(y1));
        let mut tracks: Vec<u32> = Vec::new();
        for track in 0..d.header.tracks.len() {
            let Some(top) = self.track_top(track) else { continue };
            let h = super::layout::track_height(d, track, &self.folded);
            if top < yb && top + h > ya {
                tracks.push(track as u32);
            }
        }
        let (start_us, end_us) = (a.min(b), a.max(b));
        let ui = self.ui;
        ui.range_stats.set(None);
        if ui.trace.with_untracked(Option::is_some) {
            // A Chrome trace's statistics group by its colour names: the worker's trace model.
            let request = RangeStatsRequest { timeline_id: d.header.timeline_id, tracks, start_us, end_us };
            let (client, slot) = (ui.client, ui.range_slot);
            let reply = client.ask_in(slot, request);
            leptos::task::spawn_local(async move {
                if let Ok(rs) = reply.await {
                    ui.range_stats.set(Some(super::RangeStatsView { start_us: rs.start_us, end_us: rs.end_us, rows: rs.rows }));
                }
            });
        } else {
            let rows = d.range_stats(&tracks, start_us, end_us);
            ui.range_stats.set(Some(super::RangeStatsView { start_us, end_us, rows }));
        }
    }

    /// The held (repeating) action of a key, per the shortcut table (remapped keys included).
    fn key_action(&self, k: &web_sys::KeyboardEvent) -> Option<KeyAction> {
        match self.shortcut(k)? {
            Action::ZoomIn => Some(KeyAction::ZoomIn),
            Action::ZoomOut => Some(KeyAction::ZoomOut),
            Action::PanLeft => Some(KeyAction::PanLeft),
            Action::PanRight => Some(KeyAction::PanRight),
            _ => None,
        }
    }

    /// What a key means in the swimlane (the shortcut table).
    fn shortcut(&self, k: &web_sys::KeyboardEvent) -> Option<Action> {
        let keys = self.nav.swimlane.with_untracked(|s| s.keys.clone());
        shortcuts::action(Scope::Swimlane, &k.key(), &k.code(), &keys)
    }
}

#[allow(clippy::too_many_lines)] // one match arm per event kind reads best in one place
fn on_event(lane: Lane, kind: &str, is_window: bool, ev: &web_sys::Event) {
    let mut redraw = false;
    lane.with(|r| {
        match (kind, is_window) {
            ("mousedown", _) => {
                let Some(m) = ev.dyn_ref::<web_sys::MouseEvent>() else { return };
                if m.button() != 0 || !is_canvas_target(ev) {
                    return; // e.g. a click on the context menu's buttons
                }
                r.ui.context_menu.set(None);
                let (x, y) = mouse_pos(&r.container, m);
                let mode = if y < OVERVIEW_HEIGHT_PX && x >= GUTTER_WIDTH_PX {
                    r.overview_center(x);
                    redraw = true;
                    DragMode::Overview
                } else if y < HEADER_HEIGHT_PX {
                    DragMode::Axis
                } else if x < GUTTER_WIDTH_PX {
                    DragMode::Gutter
                } else if m.alt_key() {
                    DragMode::Measure
                } else if m.shift_key() || r.area_armed {
                    r.area_armed = false;
                    let t = r.time_at(x);
                    r.area = Some((t, t, y, y));
                    DragMode::Area
                } else {
                    DragMode::Pan
                };
                r.drag = Some(Drag { mode, start_x: x, start_y: y, last_x: x, last_y: y, moved: false });
                let _ = r.container.focus();
                ev.prevent_default();
            }
            ("pointerrawupdate", _) => {
                let Some(mouse) = ev.dyn_ref::<web_sys::MouseEvent>() else { return };
                if r.drag.is_some() || mouse.buttons() != 0 {
                    return; // drags follow the (frame-aligned) mousemove
                }
                let (x, y) = mouse_pos(&r.container, mouse);
                r.mouse = Some((x, y));
                r.show_tooltip(x, y);
                r.last_raw_move_ms = ev.time_stamp();
            }
            ("mousemove", from_window) => {
                let Some(mouse) = ev.dyn_ref::<web_sys::MouseEvent>() else { return };
                let (x, y) = mouse_pos(&r.container, mouse);
                // The same move already seen as a `pointerrawupdate` (same timestamp).
                #[allow(clippy::float_cmp)] // identical timestamps of one input, not arithmetic
                let tooltip_done = !from_window && r.last_raw_move_ms == ev.time_stamp();
                if !from_window {
                    r.mouse = Some((x, y));
                }
                if let Some(drag) = r.drag.as_mut() {
                    if !from_window {
                        return; // the window listener handles drags (also outside the view)
                    }
                    let (dx, dy) = (x - drag.last_x, y - drag.last_y);
                    if (x - drag.start_x).abs() > CLICK_SLOP_PX || (y - drag.start_y).abs() > CLICK_SLOP_PX {
                        drag.moved = true;
                    }
                    drag.last_x = x;
                    drag.last_y = y;
                    let drag = *drag;
                    if !drag.moved {
                        return;
                    }
                    match drag.mode {
                        DragMode::Pan | DragMode::Axis => {
                            r.camera.pan_px(-dx);
                            r.scroll_y_px -= dy;
                            r.clamp_scroll();
                        }
                        DragMode::Overview => r.overview_center(x),
                        DragMode::Area => {
                            if let Some(area) = r.area.as_mut() {
                                area.1 = r.camera.px_to_us(x - GUTTER_WIDTH_PX);
                                area.3 = y;
                            }
                        }
                        DragMode::Measure => {
                            let start = r.time_at(drag.start_x);
                            let end = r.time_at(x);
                            r.ui.measure.set(Some((start, end)));
                        }
                        DragMode::Gutter => {}
                    }
                    redraw = true;
                } else if !from_window {
                    let hover = if x < GUTTER_WIDTH_PX { r.track_at(y) } else { None };
                    if hover != r.hover_track {
                        r.hover_track = hover;
                        redraw = true;
                    }
                    if !tooltip_done {
                        r.show_tooltip(x, y);
                    }
                }
            }
            ("mouseup", _) => {
                let Some(drag) = r.drag.take() else { return };
                match drag.mode {
                    DragMode::Area => {
                        if drag.moved {
                            r.finish_area();
                        } else {
                            r.area = None;
                        }
                    }
                    DragMode::Measure if !drag.moved => {
                        let t = r.time_at(drag.start_x);
                        if let Some(start) = r.measure_start.take() {
                            r.ui.measure.set(Some((start, t)));
                        } else {
                            r.ui.measure.set(None);
                            r.measure_start = Some(t);
                        }
                    }
                    DragMode::Axis if !drag.moved && drag.start_x >= GUTTER_WIDTH_PX => {
                        let t = r.time_at(drag.start_x);
                        markers::add(r.nav, t, "");
                    }
                    DragMode::Gutter if !drag.moved => r.gutter_click(drag.start_x, drag.start_y),
                    DragMode::Pan if !drag.moved => {
                        let pick = r.pick(drag.start_x, drag.start_y);
                        r.area = None;
                        r.select(pick);
                    }
                    _ => {}
                }
                redraw = true;
            }
            ("contextmenu", _) => {
                let Some(m) = ev.dyn_ref::<web_sys::MouseEvent>() else { return };
                let (x, y) = mouse_pos(&r.container, m);
                if let Some(bar) = r.pick(x, y) {
                    ev.prevent_default();
                    if r.selected != Some(bar) {
                        r.select(Some(bar));
                    }
                    r.ui.context_menu.set(Some(ContextMenu { x, y, bar }));
                    redraw = true;
                }
            }
            ("mouseleave", _) => {
                r.mouse = None;
                r.hover_track = None;
                let _ = r.tooltip.style().set_property("display", "none");
                redraw = true;
            }
            ("wheel", _) => {
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
            ("keydown", _) => {
                let Some(k) = ev.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                if is_typing_target(ev) || k.ctrl_key() || k.meta_key() || k.alt_key() || r.data.is_none() {
                    return;
                }
                if let Some(action) = r.key_action(k) {
                    ev.prevent_default();
                    if !r.held.iter().any(|(a, _)| *a == action) {
                        let now = now_ms();
                        r.held.push((action, now));
                        r.last_anim_ms = now;
                        // One immediate step so a tap moves too.
                        let step = r.plot_width() * 0.05;
                        let anchor = r.zoom_anchor();
                        match action {
                            KeyAction::PanLeft => r.camera.pan_px(-step),
                            KeyAction::PanRight => r.camera.pan_px(step),
                            KeyAction::ZoomIn => r.zoom_at(anchor, 1.15),
                            KeyAction::ZoomOut => r.zoom_at(anchor, 1.0 / 1.15),
                        }
                    }
                    redraw = true;
                    return;
                }
                match r.shortcut(k) {
                    Some(Action::Fit) => r.fit(),
                    Some(Action::ArmAreaSelect) => r.area_armed = true,
                    Some(Action::NextItem) => r.step_bar(1),
                    Some(Action::PreviousItem) => r.step_bar(-1),
                    Some(Action::NextLane) => r.step_lane(1),
                    Some(Action::PreviousLane) => r.step_lane(-1),
                    Some(Action::Clear) => {
                        r.select(None);
                        r.area = None;
                        r.area_armed = false;
                        r.measure_start = None;
                        r.ui.measure.set(None);
                        r.ui.context_menu.set(None);
                        r.nav.swimlane.update(|s| s.path = PathMode::None);
                        r.nav.highlight.set(None);
                    }
                    _ => return,
                }
                ev.prevent_default();
                redraw = true;
            }
            ("keyup", _) => {
                let Some(k) = ev.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                if let Some(action) = r.key_action(k) {
                    r.held.retain(|(a, _)| *a != action);
                }
            }
            ("blur", _) => r.held.clear(),
            _ => {}
        }
    });
    if redraw {
        lane.redraw();
    }
}

impl SwimlaneRenderer {
    #[allow(clippy::many_single_char_names)] // x/y/s/e: pixel and time coordinates
    fn show_tooltip(&self, x: f64, y: f64) {
        let style = self.tooltip.style();
        let content = self.pick(x, y).and_then(|bar| {
            let d = self.data.as_ref()?;
            let g = d.global(bar)?;
            let (setup, s, e) = d.times(g)?;
            let name = d.name_of(g);
            let lane = d.header.tracks.get(bar.track as usize).map(|l| l.label.clone()).unwrap_or_default();
            let with_setup = self.nav.swimlane.with_untracked(|st| st.setup_in_duration);
            let duration = if with_setup { e - setup } else { e - s };
            let what = if with_setup && setup < s { format!(" {}", crate::i18n::tr("sw-with-setup")) } else { String::new() };
            let mut text = format!("{name}\n{lane}\n{s:.3} → {e:.3} µs\n{duration:.3} µs{what}");
            if setup < s {
                let _ = write!(
                    text,
                    "\n{}",
                    crate::i18n::tr_with("sw-tooltip-setup", &[("setup", crate::i18n::Arg::from(format!("{:.3}", s - setup)))])
                );
            }
            if let Some(id) = self.task_labels.get(&bar) {
                text.push('\n');
                text.push_str(id);
            }
            Some(text)
        });
        match content {
            Some(text) => {
                self.tooltip.set_inner_text(&text);
                let _ = style.set_property("display", "block");
                let _ = style.set_property("left", &format!("{}px", (x + 14.0).min(self.css_width - 200.0)));
                let _ = style.set_property("top", &format!("{}px", (y + 14.0).min(self.css_height - 90.0)));
            }
            None => {
                let _ = style.set_property("display", "none");
            }
        }
    }
}
