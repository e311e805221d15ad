//! One frame of the swimlane: key-held motion, lanes (bars, setup regions, labels), pinned
//! lanes, selection and SPMD group outlines, dependency arrows, markers, measure and area
//! selection, the gutter, the overview strip and the detailed time axis.
//!
//! Work per frame is O(visible rows × visible pixel columns × log n): rows come from a binary
//! search of the layout, bars from one [`LaneIndex::visit_bars`] pass per visible sub-lane
//! (rects, setup regions and labels together; runs of bars that ended left of the view are
//! jumped a block at a time), markers from a per-column binary search, SPMD outlines only for
//! on-screen group members. Buffers are reused (no per-frame allocation in preparation).
//!
//! [`LaneIndex::visit_bars`]: pypto_render::lanes::LaneIndex::visit_bars

use leptos::prelude::*;
use pypto_protocol::timeline::{FLAG_OBSERVED_PATH, FLAG_SPMD, FLAG_STATIC_PATH};
use pypto_render::lanes::{LaneGeometry, VisitedBar};
use pypto_render::theme::{self, CanvasPalette};
use pypto_render::{axis, palette, LineInstance, RectInstance};

use super::data::Timeline;
use super::layout::{
    marker_span, RowKind, BAR_HEIGHT_PX, BAR_TOP_PAD_PX, GUTTER_WIDTH_PX, HEADER_HEIGHT_PX, MARKER_MIN_PX, OVERVIEW_HEIGHT_PX, ROW_PITCH_PX,
};
use super::{KeyAction, SwimlaneRenderer};
use crate::nav::{LabelMode, PathMode};
use pypto_protocol::TaskId;

const LABEL_FONT: &str = "11px system-ui, sans-serif";
const BOLD_FONT: &str = "600 11px system-ui, sans-serif";
/// Bars at least this wide get a text label.
const LABEL_MIN_PX: f64 = 28.0;
/// A lane with at most this many bars per pixel of view is drawn bar by bar; above it, from its
/// LOD pyramid (when the pyramid has a level of a pixel or less).
const EXACT_BARS_PER_PX: f64 = 1.0;

/// The canvas colours of the effective theme (`settings`), read once per frame.
fn colours() -> &'static CanvasPalette {
    crate::settings::canvas_palette()
}

/// The settings one frame reads.
#[derive(Clone, Copy)]
struct FrameSettings {
    label_mode: LabelMode,
    show_setup: bool,
    path: PathMode,
}

/// What [`SwimlaneRenderer::prepare_frame`] hands to the submission of the same frame.
struct PreparedFrame {
    data: std::rc::Rc<Timeline>,
    settings: FrameSettings,
    ticks: Vec<axis::Tick>,
    visible: std::ops::Range<usize>,
    t0: f64,
    t1: f64,
}

/// Whether a bar is de-emphasised by the selected critical path.
pub fn is_dimmed(path: PathMode, flags: u32) -> bool {
    match path {
        PathMode::None => false,
        PathMode::Static => flags & FLAG_STATIC_PATH == 0,
        PathMode::Observed => flags & FLAG_OBSERVED_PATH == 0,
    }
}

fn outline(lines: &mut Vec<LineInstance>, x0: f32, y0: f32, x1: f32, y1: f32, width: f32, rgba: [u8; 4]) {
    for (ax, ay, bx, by) in [(x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)] {
        lines.push(LineInstance { x0: ax, y0: ay, x1: bx, y1: by, width, rgba });
    }
}

/// Where bar `g`'s setup region (setup start to start) is on screen, `(x0, x1)` in pixels
/// without the gutter, when it is at least a pixel wide.
fn setup_span_px(data: &Timeline, cam: &pypto_render::camera::TimeCamera, g: usize) -> Option<(f64, f64)> {
    let (setup, s, _) = data.times(g).filter(|&(setup, s, _)| setup < s)?;
    let sx0 = cam.us_to_px(setup).max(-1.0);
    let sx1 = cam.us_to_px(s);
    (sx1 - sx0 >= 1.0).then_some((sx0, sx1))
}

/// Draws bars of a sub-lane's visible `window` again, over the lane's bars, one per pixel
/// column (the others starting in the same column are skipped with a galloping search):
/// `positions` are the bars' positions in the sub-lane, by start (marker bars, widened by
/// `span` to [`MARKER_MIN_PX`]; critical-path bars, widened to a pixel), so they stay visible at
/// any zoom. `color(g)` gives the colour of global bar `g`.
#[allow(clippy::too_many_arguments)] // the lane, which of its bars, the view and the output
fn emit_flagged(
    cam: &pypto_render::camera::TimeCamera,
    sub: &super::data::SubLane,
    (starts, ends): (&[f64], &[f64]),
    positions: &[u32],
    window: std::ops::Range<usize>,
    geometry: LaneGeometry,
    span: impl Fn(f64, f64) -> (f64, f64),
    color: impl Fn(usize) -> [u8; 4],
    out: &mut Vec<RectInstance>,
) {
    let start_of = |k: u32| starts.get(k as usize).copied().unwrap_or(f64::INFINITY);
    let lo = positions.partition_point(|&k| (k as usize) < window.start);
    let hi = positions.partition_point(|&k| (k as usize) < window.end);
    let flagged = positions.get(lo..hi).unwrap_or_default();
    let mut pos = 0;
    while let Some(&k) = flagged.get(pos) {
        let start = start_of(k);
        let end = ends.get(k as usize).copied().unwrap_or(start).max(start);
        let (x0, x1) = (cam.us_to_px(start), cam.us_to_px(end));
        if x0 > cam.width_px + MARKER_MIN_PX {
            break;
        }
        let (left, right) = span(x0, x1);
        if right >= -1.0 {
            let global = sub.global(k as usize).unwrap_or(0);
            let (left, right) = (left.max(-MARKER_MIN_PX), right.min(cam.width_px + MARKER_MIN_PX));
            out.push(RectInstance { x: left as f32, y: geometry.y, w: (right - left) as f32, h: geometry.h, rgba: color(global) });
        }
        // Galloping search for the first bar of the next pixel column (touches only the
        // bars near this one, not O(log n) of the whole lane's).
        let next_column = x0.floor() + 1.0;
        let tail = flagged.get(pos + 1..).unwrap_or_default();
        let in_column = |m: &u32| cam.us_to_px(start_of(*m)) < next_column;
        let (mut lo, mut step) = (0, 1);
        while step <= tail.len() && tail.get(step - 1).is_some_and(in_column) {
            lo = step;
            step *= 2;
        }
        let hi = step.min(tail.len());
        pos += 1 + lo + tail.get(lo..hi).unwrap_or_default().partition_point(in_column);
    }
}

impl SwimlaneRenderer {
    /// The `requestAnimationFrame` callback.
    pub(super) fn frame(&mut self, now_ms: f64) {
        let animating = self.animate_keys(now_ms);
        self.draw();
        if animating {
            self.lane.redraw();
        }
        self.report_window();
    }

    /// Reports the shown window to nav (and so to the URL hash), at most every 250 ms.
    fn report_window(&mut self) {
        if self.data.is_none() {
            return;
        }
        let (lane, nav) = (self.lane, self.nav);
        lane.report.schedule(move || {
            let Some(window) = lane.with(|r| {
                let window = r.camera.visible_range_us();
                r.last_reported_window = Some(window);
                window
            }) else {
                return;
            };
            if nav.window_us.get_untracked() != Some(window) {
                nav.window_us.set(Some(window));
            }
        });
    }

    /// Applies held navigation keys with acceleration; true while keys are held.
    fn animate_keys(&mut self, now_ms: f64) -> bool {
        if self.held.is_empty() {
            self.last_anim_ms = now_ms;
            return false;
        }
        let dt = (now_ms - self.last_anim_ms).clamp(0.0, 50.0) / 16.7;
        self.last_anim_ms = now_ms;
        let anchor = self.zoom_anchor();
        for (action, since) in self.held.clone() {
            let accel = 1.0 + ((now_ms - since).max(0.0) / 400.0).min(6.0);
            match action {
                KeyAction::PanLeft => self.camera.pan_px(-8.0 * accel * dt),
                KeyAction::PanRight => self.camera.pan_px(8.0 * accel * dt),
                KeyAction::ZoomIn => self.zoom_at(anchor, (0.02 * accel * dt).exp()),
                KeyAction::ZoomOut => self.zoom_at(anchor, (-0.02 * accel * dt).exp()),
            }
        }
        true
    }

    /// Prepares and submits one frame; its CPU time (`performance.now()` around the whole
    /// call, and the preparation part of it) goes into the frame-stats ring buffer
    /// (`window.__pyptoSwimlane.frameStats()`).
    pub(super) fn draw(&mut self) {
        let start = crate::browser::now_ms();
        let Some(frame) = self.prepare_frame() else {
            let end = crate::browser::now_ms();
            self.ui.record_frame_ms(end - start, end - start, end - start);
            return;
        };
        let prepared = crate::browser::now_ms();
        // Bench mode (`setPrepareRepeats(k)`): prepare the same frame k − 1 more times and keep
        // the fastest, the frame's CPU cost without preemption by other threads (the 2-core
        // machine runs the GPU process's software rasteriser beside this thread).
        let mut prepare_min_ms = prepared - start;
        for _ in 1..self.ui.prepare_repeats() {
            let t = crate::browser::now_ms();
            let _ = self.prepare_frame();
            prepare_min_ms = prepare_min_ms.min(crate::browser::now_ms() - t);
        }
        let submit_start = crate::browser::now_ms();
        self.submit_frame(&frame);
        let end = crate::browser::now_ms();
        self.ui.record_frame_ms((prepared - start) + (end - submit_start), prepared - start, prepare_min_ms);
    }

    /// Builds the frame's rect/line/label lists (prepare); `None` when there is no timeline
    /// (the empty message is drawn then). Idempotent for a given camera and state: it clears
    /// its buffers first, so the bench may repeat it.
    fn prepare_frame(&mut self) -> Option<PreparedFrame> {
        self.rects.clear();
        self.setup_rects.clear();
        self.pinned_rects.clear();
        self.lines.clear();
        self.arrow_lines.clear();
        self.labels.clear();
        self.lod_lanes = 0;
        let Some(data) = self.data.clone() else {
            self.gl.begin_frame(theme::clear_color(colours()));
            self.text.clear();
            self.draw_empty();
            return None;
        };
        // The few settings a frame needs, without cloning the whole `Settings` (its key map
        // holds strings): preparation allocates nothing per frame.
        let settings =
            self.nav.swimlane.with_untracked(|s| FrameSettings { label_mode: s.label_mode, show_setup: s.show_setup, path: s.path });
        let plot_w = self.plot_width();
        let (t0, t1) = self.camera.visible_range_us();
        let gutter = GUTTER_WIDTH_PX as f32;
        let lanes_top = self.lanes_top();

        // Grid lines at the axis ticks.
        let ticks = axis::time_ticks(t0, t1, plot_w, 110.0);
        for tick in &ticks {
            let x = gutter + self.camera.us_to_px_f32(tick.us);
            let alpha = if tick.major { 40 } else { 16 };
            self.lines.push(LineInstance {
                x0: x,
                y0: HEADER_HEIGHT_PX as f32,
                x1: x,
                y1: self.css_height as f32,
                width: 1.0,
                rgba: [0, 0, 0, alpha],
            });
        }

        // Scrolling rows.
        let visible = self.layout.visible(self.scroll_y_px, self.scroll_y_px + self.css_height - lanes_top);
        for ri in visible.clone() {
            let Some(row) = self.layout.rows.get(ri).copied() else { continue };
            let top = lanes_top + row.y - self.scroll_y_px;
            match row.kind {
                RowKind::Track(track) => self.emit_track(&data, settings, track, top, ri % 2 == 1, false),
                RowKind::Group(_) => self.rects.push(RectInstance {
                    x: 0.0,
                    y: top as f32,
                    w: self.css_width as f32,
                    h: row.h as f32,
                    rgba: colours().group_band,
                }),
                RowKind::Absent(_) => {}
            }
        }
        // Pinned rows.
        let pinned = std::mem::take(&mut self.layout.pinned);
        for (k, row) in pinned.iter().enumerate() {
            if let RowKind::Track(track) = row.kind {
                self.emit_track(&data, settings, track, HEADER_HEIGHT_PX + row.y, k % 2 == 1, true);
            }
        }
        self.layout.pinned = pinned;
        self.emit_selection(&data);
        self.emit_arrows(&data);
        self.emit_overlays();
        Some(PreparedFrame { data, settings, ticks, visible, t0, t1 })
    }

    /// Submits the prepared lists to GL and draws the text layer (submit).
    fn submit_frame(&mut self, frame: &PreparedFrame) {
        let PreparedFrame { data, settings, ticks, visible, t0, t1 } = frame;
        let (gutter, plot_w, lanes_top) = (GUTTER_WIDTH_PX as f32, self.plot_width(), self.lanes_top());
        self.gl.begin_frame(theme::clear_color(colours()));
        self.text.clear();
        let plot_h = (self.css_height - lanes_top) as f32;
        self.gl.set_scissor(Some((gutter, lanes_top as f32, plot_w as f32, plot_h)));
        self.gl.draw_rects(&self.setup_rects);
        self.gl.draw_rects(&self.rects);
        if self.layout.pinned_height > 0.0 {
            self.gl.set_scissor(Some((gutter, HEADER_HEIGHT_PX as f32, plot_w as f32, self.layout.pinned_height as f32)));
            self.gl.draw_rects(&self.pinned_rects);
        }
        self.gl.set_scissor(Some((gutter, HEADER_HEIGHT_PX as f32, plot_w as f32, (self.css_height - HEADER_HEIGHT_PX) as f32)));
        self.gl.draw_lines(&self.lines);
        self.gl.draw_arrows(&self.arrow_lines, 7.0);
        self.gl.set_scissor(None);

        self.draw_text(data, *settings, ticks, visible.clone());
        let _ = self.container.set_attribute("data-view-start-us", &format!("{t0:.3}"));
        let _ = self.container.set_attribute("data-view-end-us", &format!("{t1:.3}"));
        let _ = self.container.set_attribute("data-drawn-rects", &(self.rects.len() + self.pinned_rects.len()).to_string());
        let _ = self.container.set_attribute("data-lod-lanes", &self.lod_lanes.to_string());
        let _ = self.container.set_attribute("data-scheme", colours().scheme.key());
    }

    /// The frame as drawn, as SVG (the export of the visible window): the same prepared
    /// rects, lines and arrows the GL layer draws (clipped like its scissors), then the text
    /// layer's drawing recorded as it draws (lane labels, bar labels, the axis and its tick
    /// labels as `<text>`). Redraws the frame on both canvases. `None` without a timeline.
    pub(super) fn frame_svg(&mut self, comment: &str) -> Option<String> {
        let frame = self.prepare_frame()?;
        let (w, h) = (self.css_width as f32, self.css_height as f32);
        let (gutter, plot_w, lanes_top) = (GUTTER_WIDTH_PX as f32, self.plot_width() as f32, self.lanes_top() as f32);
        let header = HEADER_HEIGHT_PX as f32;
        let mut doc = pypto_render::svg::SvgDoc::new(w, h);
        doc.comment(comment);
        let bg = colours().background;
        doc.background(bg);
        doc.begin_clip(gutter, lanes_top, plot_w, h - lanes_top);
        doc.rects(&self.setup_rects);
        doc.rects(&self.rects);
        doc.end_group();
        if self.layout.pinned_height > 0.0 {
            doc.begin_clip(gutter, header, plot_w, self.layout.pinned_height as f32);
            doc.rects(&self.pinned_rects);
            doc.end_group();
        }
        doc.begin_clip(gutter, header, plot_w, h - header);
        doc.lines(&self.lines);
        doc.arrows(&self.arrow_lines, 7.0);
        doc.end_group();
        self.text.start_recording(doc);
        self.submit_frame(&frame);
        self.text.take_recording().map(pypto_render::svg::SvgDoc::finish)
    }

    fn draw_empty(&mut self) {
        let msg = crate::i18n::tr(if self.ui.loading.get_untracked() { "sw-loading-timeline" } else { "sw-no-timeline" });
        self.text.fill_text(&msg, 16.0, 24.0, LABEL_FONT, colours().text_muted);
    }

    /// Appends the rects (bars, setup regions) and labels of one track whose top is at `top`.
    #[allow(clippy::many_single_char_names)] // x/y/a/b/g/s: pixel, time and bar coordinates
    fn emit_track(&mut self, data: &Timeline, settings: FrameSettings, track: usize, top: f64, stripe: bool, pinned: bool) {
        let gutter = GUTTER_WIDTH_PX as f32;
        let h = super::layout::track_height(data, track, &self.folded);
        if top + h < HEADER_HEIGHT_PX || top > self.css_height {
            return;
        }
        let out = if pinned { &mut self.pinned_rects } else { &mut self.rects };
        let p = colours();
        if pinned {
            out.push(RectInstance { x: 0.0, y: top as f32, w: self.css_width as f32, h: h as f32, rgba: p.pinned_row });
        } else if stripe {
            out.push(RectInstance { x: 0.0, y: top as f32, w: self.css_width as f32, h: h as f32, rgba: p.lane_stripe });
        }
        let (t0, t1) = self.camera.visible_range_us();
        let Some(lanes) = data.track_lanes.get(track).cloned() else { return };
        for lane in lanes {
            let Some(sub) = data.lanes.get(lane) else { continue };
            let Some(row) = self.drawn_row(track, sub.row) else { continue };
            let y = (top + f64::from(row) * ROW_PITCH_PX + BAR_TOP_PAD_PX) as f32;
            let (starts, ends) = data.lane_times(sub);
            let window = sub.index.visible_range(starts, ends, t0, t1);
            let geometry = LaneGeometry { y, h: BAR_HEIGHT_PX as f32 };
            let path = settings.path;
            let hl = self.ui.highlight_mask(data.header.timeline_id);
            let hl = hl.as_deref().map(Vec::as_slice);
            let color = |g: usize| {
                let c = palette::color_for_key(p.scheme, data.color_key_of(g));
                if super::highlight::dimmed(path, hl, data.flags_of(g), g) {
                    theme::dim(p, c)
                } else {
                    c
                }
            };
            // The colour of a LOD bucket comes from its tag (no look-up of the bar's columns);
            // the LOD is not used while a task highlight is set (its mask is per bar).
            let tag_color = |tag: u16| {
                let (key, flags) = super::data::lod_tag_parts(tag);
                let c = palette::color_for_key(p.scheme, key);
                if is_dimmed(path, flags) {
                    theme::dim(p, c)
                } else {
                    c
                }
            };
            // One pass over the lane: bar rects (sub-pixel runs merged), setup regions and the
            // labels of bars wide enough to show one.
            let cam = self.camera;
            let width = cam.width_px;
            let show_setup = settings.show_setup;
            let (out, setup_out) = if pinned { (&mut self.pinned_rects, None) } else { (&mut self.rects, Some(&mut self.setup_rects)) };
            let mut setup_out = setup_out;
            let mut setup_inline: Vec<RectInstance> = Vec::new(); // pinned + setup only; no allocation otherwise
            let labels = &mut self.labels;
            let mut on_bar = |bar: VisitedBar, tag: Option<u16>| {
                let g = sub.global(bar.index).unwrap_or(0);
                let (a, b) = (bar.x0.max(-1.0), bar.x1.min(width + 1.0));
                let rgba = tag.map_or_else(|| color(g), tag_color);
                out.push(RectInstance { x: gutter + a as f32, y: geometry.y, w: (b - a) as f32, h: geometry.h, rgba });
                if bar.merged {
                    return;
                }
                if let Some((sx0, sx1)) = show_setup.then(|| setup_span_px(data, &cam, g)).flatten() {
                    let c = palette::color_for_key(p.scheme, data.color_key_of(g));
                    let c = if super::highlight::dimmed(path, hl, data.flags_of(g), g) {
                        theme::dim(p, c)
                    } else {
                        theme::toward_background(p, c)
                    };
                    let rect =
                        RectInstance { x: gutter + sx0 as f32, y: y + 3.0, w: (sx1 - sx0) as f32, h: BAR_HEIGHT_PX as f32 - 6.0, rgba: c };
                    match setup_out.as_deref_mut() {
                        Some(v) => v.push(rect),
                        None => setup_inline.push(rect),
                    }
                }
                if bar.x1 - bar.x0 >= LABEL_MIN_PX {
                    labels.push((gutter + bar.x0 as f32, y, (bar.x1 - bar.x0) as f32, g));
                }
            };
            // Many bars per pixel: the LOD pyramid (O(pixels)); few: the exact bars.
            let lod = sub.lod.as_ref().filter(|_| hl.is_none() && window.len() as f64 > width * EXACT_BARS_PER_PX);
            let by_lod = lod.is_some_and(|lod| lod.visit(&cam, starts, ends, &sub.index, window.clone(), 1.0, |b| on_bar(b.bar, b.tag)));
            if by_lod {
                self.lod_lanes += 1;
            } else {
                sub.index.visit_bars(&cam, starts, ends, window.clone(), 1.0, |bar| on_bar(bar, None));
            }
            let first_overlay = out.len();
            // Bars on the shown critical path over the (dimmed) rest, one per pixel column.
            let path_bars = match path {
                _ if hl.is_some() => &[][..],
                PathMode::None => &[][..],
                PathMode::Static => &sub.static_path[..],
                PathMode::Observed => &sub.observed_path[..],
            };
            emit_flagged(&cam, sub, (starts, ends), path_bars, window.clone(), geometry, |x0, x1| (x0, x1.max(x0 + 1.0)), color, out);
            emit_flagged(&cam, sub, (starts, ends), &sub.markers, window, geometry, marker_span, color, out);
            for rect in out.get_mut(first_overlay..).unwrap_or_default() {
                rect.x += gutter;
            }
            // Pinned lanes draw their setup regions over the bars (one buffer), as before.
            out.append(&mut setup_inline);
        }
    }

    fn emit_selection(&mut self, data: &Timeline) {
        let p = colours();
        let gutter = GUTTER_WIDTH_PX as f32;
        let clamp = |x: f64| x.clamp(f64::from(gutter) - 4.0, self.css_width + 4.0) as f32;
        // No per-frame copy of the group; off-screen members are culled before their outline.
        let group = std::mem::take(&mut self.group);
        for bar in group.iter().filter(|b| Some(**b) != self.selected) {
            if let Some((x0, y, x1, h)) = self.bar_rect(*bar) {
                if x1 < f64::from(gutter) - 4.0 || x0 > self.css_width + 4.0 || y + h < HEADER_HEIGHT_PX || y > self.css_height {
                    continue;
                }
                outline(&mut self.lines, clamp(x0), y as f32 - 1.0, clamp(x1), (y + h) as f32 + 1.0, 1.5, p.warm);
            }
        }
        self.group = group;
        if let Some(bar) = self.selected {
            if let Some((x0, y, x1, h)) = self.bar_rect(bar) {
                outline(&mut self.lines, clamp(x0), y as f32 - 1.5, clamp(x1), (y + h) as f32 + 1.5, 2.0, p.selection);
            }
            let spmd = data.global(bar).is_some_and(|g| data.flags_of(g) & FLAG_SPMD != 0);
            let _ = self.container.set_attribute("data-selected-spmd", if spmd { "true" } else { "false" });
        }
    }

    /// Arrow geometry `(x0, y0, x1, y1)` of a dependency: predecessor end → successor start.
    pub(super) fn arrow_geometry(&self, arrow: &pypto_protocol::timeline::Arrow) -> Option<(f64, f64, f64, f64)> {
        let (fx0, fy, fx1, fh) = self.bar_rect(arrow.from)?;
        let (tx0, ty, _, th) = self.bar_rect(arrow.to)?;
        let _ = fx0;
        Some((fx1, fy + fh / 2.0, tx0, ty + th / 2.0))
    }

    fn emit_arrows(&mut self, _data: &Timeline) {
        for arrow in &self.arrows {
            let Some((x0, y0, x1, y1)) = self.arrow_geometry(arrow) else { continue };
            let rgba = if arrow.violation { colours().danger } else { colours().arrow };
            self.arrow_lines.push(LineInstance { x0: x0 as f32, y0: y0 as f32, x1: x1 as f32, y1: y1 as f32, width: 1.5, rgba });
        }
    }

    /// Markers, measure and area selection lines/shades.
    fn emit_overlays(&mut self) {
        let p = colours();
        let gutter = GUTTER_WIDTH_PX;
        let h = self.css_height as f32;
        let top = HEADER_HEIGHT_PX as f32;
        let markers = self.nav.markers.get_untracked();
        for m in &markers {
            let x = (gutter + self.camera.us_to_px(m.t_us)) as f32;
            self.lines.push(LineInstance { x0: x, y0: top, x1: x, y1: h, width: 1.5, rgba: super::markers::rgba(m) });
        }
        let measure = self.ui.measure.get_untracked().or_else(|| self.measure_start.map(|a| (a, a)));
        if let Some((a, b)) = measure {
            for t in [a, b] {
                let x = (gutter + self.camera.us_to_px(t)) as f32;
                self.lines.push(LineInstance { x0: x, y0: top, x1: x, y1: h, width: 1.0, rgba: p.measure });
            }
            let xa = (gutter + self.camera.us_to_px(a.min(b))) as f32;
            let xb = (gutter + self.camera.us_to_px(a.max(b))) as f32;
            self.rects.push(RectInstance { x: xa, y: top, w: (xb - xa).max(0.0), h: h - top, rgba: p.measure_fill });
        }
        if let Some((a, b, y0, y1)) = self.area {
            let xa = (gutter + self.camera.us_to_px(a.min(b))) as f32;
            let xb = (gutter + self.camera.us_to_px(a.max(b))) as f32;
            let (ya, yb) = (y0.min(y1) as f32, y0.max(y1) as f32);
            self.rects.push(RectInstance { x: xa, y: ya, w: (xb - xa).max(1.0), h: (yb - ya).max(1.0), rgba: p.area_fill });
            outline(&mut self.lines, xa, ya, xb, yb, 1.0, p.area_edge);
        }
    }

    pub(super) fn bar_label(&self, data: &Timeline, mode: LabelMode, g: usize) -> String {
        let name = data.name_of(g);
        if mode == LabelMode::Function {
            return name.to_string();
        }
        let id = if data.has_task_ids() {
            data.task_of(g).map(|(ring, local)| TaskId::from_parts(ring, local).to_string())
        } else {
            // No task-id columns (older worker): use the ids learnt from details / search.
            // Reference labels look like `func(r1t5)`: the task id is the part in parentheses.
            data.bar_ref(g)
                .and_then(|b| self.task_labels.get(&b))
                .map(|l| l.rfind('(').and_then(|i| l.get(i + 1..).map(|r| r.trim_end_matches(')'))).unwrap_or(l.as_str()).to_string())
        };
        match (mode, id) {
            (LabelMode::Function, _) | (LabelMode::TaskId | LabelMode::Both, None) => name.to_string(),
            (LabelMode::TaskId, Some(id)) => id,
            (LabelMode::Both, Some(id)) => format!("{name} {id}"),
        }
    }

    #[allow(clippy::too_many_lines)] // the text layer in drawing order reads best in one place
    fn draw_text(&mut self, data: &Timeline, settings: FrameSettings, ticks: &[axis::Tick], visible: std::ops::Range<usize>) {
        let p = colours();
        let w = self.css_width as f32;
        let h = self.css_height as f32;
        let gutter = GUTTER_WIDTH_PX as f32;
        let header = HEADER_HEIGHT_PX as f32;
        let lanes_top = self.lanes_top() as f32;
        // Bar labels, clipped to the bar and the plot.
        let labels = std::mem::take(&mut self.labels);
        let hl = self.ui.highlight_mask(data.header.timeline_id);
        for &(x, y, width, g) in &labels {
            let pinned_bar = data.bar_ref(g).is_some_and(|b| self.pinned.contains(&(b.track as usize)));
            let min_y = if pinned_bar { header } else { lanes_top };
            if y < min_y - 1.0 {
                continue;
            }
            let visible_x = x.max(gutter);
            let room = (x + width).min(w) - visible_x - 6.0;
            if room >= 14.0 {
                let c = palette::color_for_key(p.scheme, data.color_key_of(g));
                let dimmed = super::highlight::dimmed(settings.path, hl.as_deref().map(Vec::as_slice), data.flags_of(g), g);
                let ink = if dimmed { p.dim_text } else { palette::text_color_on(c) };
                let label = self.bar_label(data, settings.label_mode, g);
                self.text.fill_text_fitted(&label, visible_x + 3.0, y + BAR_HEIGHT_PX as f32 / 2.0 + 0.5, room, LABEL_FONT, ink);
            }
        }
        self.labels = labels;
        // Gutter.
        self.text.fill_rect(0.0, header, gutter, h - header, p.surface);
        self.text.line(gutter, header, gutter, h, 1.0, p.rule);
        let scroll = self.scroll_y_px as f32;
        for ri in visible {
            let Some(row) = self.layout.rows.get(ri).copied() else { continue };
            let top = lanes_top + row.y as f32 - scroll;
            if top + (row.h as f32) < lanes_top {
                continue;
            }
            let mid = top.max(lanes_top) + 11.0;
            match row.kind {
                RowKind::Group(gi) => {
                    let Some(group) = data.header.groups.get(gi) else { continue };
                    let collapsed = self.collapsed.get(gi).copied().unwrap_or(false);
                    self.text.fill_rect(0.0, top.max(lanes_top), w, row.h as f32, p.group_heading);
                    let text = super::words::group_heading(group, collapsed);
                    self.text.fill_text(&text, 6.0, mid, BOLD_FONT, p.group_text);
                }
                RowKind::Absent(ai) => {
                    let Some(a) = data.header.absent.get(ai) else { continue };
                    let text = crate::i18n::tr_with(
                        "swd-absent",
                        &[
                            ("view", crate::i18n::Arg::from(super::words::view_title(a.view))),
                            ("reason", crate::i18n::Arg::from(super::words::absent_reason(&a.reason))),
                        ],
                    );
                    self.text.fill_text_fitted(&text, 10.0, mid, w - 20.0, "italic 11px system-ui, sans-serif", p.absent_text);
                }
                RowKind::Track(track) => self.draw_track_label(data, track, top, lanes_top),
            }
        }
        // Pinned area.
        if self.layout.pinned_height > 0.0 {
            let ph = self.layout.pinned_height as f32;
            self.text.fill_rect(0.0, header, gutter, ph, p.pinned_gutter);
            let pinned = std::mem::take(&mut self.layout.pinned);
            for row in &pinned {
                if let RowKind::Track(track) = row.kind {
                    self.draw_track_label(data, track, header + row.y as f32, header);
                }
            }
            self.layout.pinned = pinned;
            self.text.line(0.0, header + ph - 2.0, w, header + ph - 2.0, 2.0, p.pinned_rule);
        }
        self.draw_markers_text();
        self.draw_axis(data, ticks);
    }

    fn draw_track_label(&mut self, data: &Timeline, track: usize, top: f32, clip_top: f32) {
        let Some(info) = data.header.tracks.get(track) else { return };
        let y = top + ROW_PITCH_PX as f32 / 2.0 + 0.5;
        if y < clip_top + 5.0 {
            return;
        }
        let p = colours();
        let color = match info.core_type.as_deref() {
            Some("AIC") => p.lane_aic,
            Some("AIV") => p.lane_aiv,
            _ => p.lane_other,
        };
        let gutter = GUTTER_WIDTH_PX as f32;
        if info.rows > 1 && info.view == pypto_protocol::TimelineView::Trace {
            let folded = self.folded.get(track).copied().unwrap_or(false);
            self.text.fill_text(if folded { "▸" } else { "▾" }, 3.0, y, LABEL_FONT, p.text_muted);
        }
        self.text.fill_text_fitted(&info.label, 14.0, y, gutter - 36.0, LABEL_FONT, color);
        let pinned = self.pinned.contains(&track);
        if pinned || self.hover_track == Some(track) {
            let ink = if pinned { p.warm } else { p.pin_hover };
            self.text.fill_text("📌", gutter - 20.0, y, LABEL_FONT, ink);
        }
    }

    fn draw_markers_text(&mut self) {
        let w = self.css_width as f32;
        let header = HEADER_HEIGHT_PX as f32;
        let markers = self.nav.markers.get_untracked();
        // The axis band is drawn after; marker labels go just below it, over the lanes.
        for m in &markers {
            let x = (GUTTER_WIDTH_PX + self.camera.us_to_px(m.t_us)) as f32;
            if x < GUTTER_WIDTH_PX as f32 || x > w {
                continue;
            }
            let text = format!("{} {}", m.label, axis::format_duration_us(m.t_us));
            let tw = self.text.measure(&text, LABEL_FONT) + 8.0;
            let x0 = x.min(w - tw);
            let fill = super::markers::rgba(m);
            self.text.fill_rect(x0, header + 1.0, tw, 15.0, fill);
            self.text.fill_text(&text, x0 + 4.0, header + 9.0, LABEL_FONT, palette::text_color_on(fill));
        }
        let measure = self.ui.measure.get_untracked();
        let text = measure.map(|(a, b)| format!("Δt = {}", axis::format_duration_us((b - a).abs())));
        if let (Some((a, b)), Some(text)) = (measure, text.as_ref()) {
            let xa = (GUTTER_WIDTH_PX + self.camera.us_to_px(a.min(b))) as f32;
            let xb = (GUTTER_WIDTH_PX + self.camera.us_to_px(a.max(b))) as f32;
            let tw = self.text.measure(text, BOLD_FONT) + 10.0;
            let x0 = (f32::midpoint(xa, xb) - tw / 2.0).clamp(GUTTER_WIDTH_PX as f32, (w - tw).max(GUTTER_WIDTH_PX as f32));
            let y = header + 20.0;
            self.text.fill_rect(x0, y, tw, 16.0, colours().measure_label);
            self.text.fill_text(text, x0 + 5.0, y + 8.0, BOLD_FONT, colours().on_strong);
        }
        if let Some(el) = &self.measure_el {
            el.set_inner_text(text.as_deref().unwrap_or(""));
            match measure {
                Some((a, b)) => {
                    let _ = el.set_attribute("data-delta-us", &format!("{:.3}", (b - a).abs()));
                }
                None => {
                    let _ = el.remove_attribute("data-delta-us");
                }
            }
        }
    }

    fn draw_axis(&mut self, data: &Timeline, ticks: &[axis::Tick]) {
        let p = colours();
        let w = self.css_width as f32;
        let gutter = GUTTER_WIDTH_PX as f32;
        let header = HEADER_HEIGHT_PX as f32;
        let ov = OVERVIEW_HEIGHT_PX as f32;
        let plot_w = self.plot_width() as f32;
        // Overview strip: the whole capture, the visible window highlighted.
        self.text.fill_rect(0.0, 0.0, w, ov, p.overview);
        let (first, last) = (data.header.first_start_us, data.header.last_end_us);
        let span = (last - first).max(1e-9);
        let (t0, t1) = self.camera.visible_range_us();
        let ox = |t: f64| gutter + (((t - first) / span) as f32 * plot_w);
        let (wa, wb) = (ox(t0).clamp(gutter, w), ox(t1).clamp(gutter, w));
        self.text.fill_rect(wa, 1.0, (wb - wa).max(2.0), ov - 2.0, p.overview_window);
        for m in self.nav.markers.get_untracked() {
            let x = ox(m.t_us);
            self.text.line(x, 0.0, x, ov, 1.0, super::markers::rgba(&m));
        }
        self.text.fill_text(
            &crate::i18n::tr_with("sw-total", &[("duration", crate::i18n::Arg::from(axis::format_duration_us(span)))]),
            6.0,
            ov / 2.0 + 0.5,
            LABEL_FONT,
            p.text,
        );
        // Detailed axis.
        self.text.fill_rect(gutter, ov, w - gutter, header - ov, p.axis_band);
        self.text.line(0.0, header, w, header, 1.0, p.rule);
        self.text.line(0.0, ov, w, ov, 1.0, p.rule);
        for tick in ticks {
            let x = gutter + self.camera.us_to_px_f32(tick.us);
            if x < gutter || x > w {
                continue;
            }
            let tick_h = if tick.major { 8.0 } else { 4.0 };
            self.text.line(x, header - tick_h, x, header, 1.0, p.tick);
            if !tick.label.is_empty() {
                self.text.fill_text(&tick.label, x + 3.0, ov + 9.0, LABEL_FONT, p.text);
            }
        }
        self.text.fill_rect(0.0, ov, gutter, header - ov, p.overview);
        let window = crate::i18n::tr_with("sw-window", &[("duration", crate::i18n::Arg::from(axis::format_duration_us(t1 - t0)))]);
        self.text.fill_text_fitted(&window, 6.0, ov + 13.0, gutter - 10.0, BOLD_FONT, p.text);
    }
}
