//! Drawing of one function's memory map with WebGL2 (`pypto_render`): one band per memory
//! space side by side, x = byte address inside the band (scaled to the space's high-water
//! mark or to its capacity), y = the function's dump lines growing downward; each box a
//! rectangle coloured by its tile name, views lighter with a dashed frame, conflicts with a
//! red frame and hatching; the capacity (red) and high-water (dark) lines of each band; the
//! source line picked in the source pane as a horizontal band; `reserve_buffer` windows
//! (cross-core pipe rings) as grey hatched bands over their address range for the whole
//! function. Text (band headers, line
//! numbers, box labels) goes on a `Canvas2D` overlay. Camera: separate x and y scales with
//! zoom at the cursor, pan, fit. Also the hit test and the box rectangles the automation
//! hook (`window.__pyptoMemoryMap`) reports.

#![allow(clippy::many_single_char_names)] // geometry: x, y, w, h

use pypto_protocol::memory_map::MemFunctionMap;
use pypto_render::palette::{color_for_name, text_color_on};
use pypto_render::text::{TextAlign, TextOverlay};
use pypto_render::theme::Scheme;
use pypto_render::{GlRenderer, LineInstance, RectInstance};

/// World width of one memory-space band.
const BAND_W: f64 = 1000.0;
/// World gap between bands.
const BAND_GAP: f64 = 90.0;
/// Screen margins (CSS px) around the map area: line numbers left, band headers on top.
pub const LEFT_PX: f64 = 52.0;
pub const TOP_PX: f64 = 44.0;
const RIGHT_PX: f64 = 14.0;
const BOTTOM_PX: f64 = 10.0;
const HEAD_FONT: &str = "600 12px system-ui, sans-serif";
const SUB_FONT: &str = "11px system-ui, sans-serif";
const LABEL_FONT: &str = "11px ui-monospace, monospace";
const AXIS_FONT: &str = "10px ui-monospace, monospace";

/// What the x axis of a band spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XScale {
    /// `[0, high-water mark]` (at least the capacity when the space is over it).
    Used,
    /// `[0, capacity]` (or the hwm when larger).
    Capacity,
}

/// One memory space's band.
struct Band {
    space: String,
    /// World x of address 0.
    x0: f64,
    /// Bytes the band's width spans.
    domain_bytes: f64,
    hwm_bytes: i64,
    limit_bytes: i64,
    has_capacity: bool,
}

/// Bytes as `24.3 KiB` / `512 B`.
pub fn human_bytes(b: i64) -> String {
    let v = b as f64;
    if b.abs() >= 1024 * 1024 {
        format!("{:.2} MiB", v / 1_048_576.0)
    } else if b.abs() >= 1024 {
        let k = v / 1024.0;
        if k.fract() == 0.0 {
            format!("{k:.0} KiB")
        } else {
            format!("{k:.1} KiB")
        }
    } else {
        format!("{b} B")
    }
}

/// A box's screen rectangle (CSS px, relative to the canvas).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScreenRect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

pub struct MapRenderer {
    pub container: web_sys::HtmlElement,
    gl: GlRenderer,
    text: TextOverlay,
    func: Option<MemFunctionMap>,
    bands: Vec<Band>,
    x_scale: XScale,
    /// Camera: screen = offset + world × scale, per axis.
    sx: f64,
    sy: f64,
    ox: f64,
    oy: f64,
    /// Scales of the last fit (zoom limits are relative to them).
    fit_sx: f64,
    fit_sy: f64,
    pub css_w: f64,
    pub css_h: f64,
    fit_pending: bool,
    pub selected: Option<usize>,
    pub hover: Option<usize>,
    /// The source line picked in the source pane: its live boxes are highlighted.
    pub line: Option<u32>,
    /// Pan in progress: pointer and offsets at its start, moved beyond the click slop.
    pub drag: Option<(f64, f64, f64, f64, bool)>,
    rects: Vec<RectInstance>,
    lines: Vec<LineInstance>,
}

fn band_of(bands: &[Band], space: &str) -> Option<usize> {
    bands.iter().position(|b| b.space == space)
}

impl MapRenderer {
    pub fn new(container: web_sys::HtmlElement, gl: GlRenderer, text: TextOverlay) -> Self {
        Self {
            container,
            gl,
            text,
            func: None,
            bands: Vec::new(),
            x_scale: XScale::Used,
            sx: 1.0,
            sy: 1.0,
            ox: LEFT_PX,
            oy: TOP_PX,
            fit_sx: 1.0,
            fit_sy: 1.0,
            css_w: 0.0,
            css_h: 0.0,
            fit_pending: true,
            selected: None,
            hover: None,
            line: None,
            drag: None,
            rects: Vec::new(),
            lines: Vec::new(),
        }
    }

    /// Shows `func` (fits the view when it is a different function).
    pub fn set_function(&mut self, func: Option<MemFunctionMap>, x_scale: XScale) {
        let same = func.as_ref().map(|f| (&f.name, f.src_start)) == self.func.as_ref().map(|f| (&f.name, f.src_start));
        self.func = func;
        self.x_scale = x_scale;
        self.layout();
        if !same {
            self.fit_pending = true;
            self.hover = None;
        }
    }

    pub fn set_x_scale(&mut self, x_scale: XScale) {
        if self.x_scale != x_scale {
            self.x_scale = x_scale;
            self.layout();
        }
    }

    fn layout(&mut self) {
        self.bands.clear();
        let Some(f) = &self.func else { return };
        // a reserved window in a space without boxes still gets a band
        let mut spaces: Vec<(String, i64, i64, bool)> =
            f.spaces.iter().map(|s| (s.space.clone(), s.hwm_bytes, s.limit_bytes, s.has_capacity)).collect();
        for w in &f.reserved {
            if !spaces.iter().any(|s| s.0 == w.space) {
                let end = w.base_bytes.unwrap_or(0) + w.size_bytes;
                spaces.push((w.space.clone(), 0, end, false));
            }
        }
        for (i, (space, hwm_bytes, limit_bytes, has_capacity)) in spaces.into_iter().enumerate() {
            let hwm = hwm_bytes.max(1) as f64;
            let cap = limit_bytes.max(1) as f64;
            let window_end = f
                .reserved
                .iter()
                .filter(|w| w.space == space)
                .map(|w| (w.base_bytes.unwrap_or(0) + w.size_bytes) as f64)
                .fold(0.0, f64::max);
            let domain = match self.x_scale {
                // a little room right of the hwm line; the capacity when over it
                XScale::Used => {
                    if hwm > cap {
                        hwm
                    } else {
                        (hwm * 1.04).min(cap)
                    }
                }
                XScale::Capacity => cap.max(hwm),
            }
            .max(window_end);
            self.bands.push(Band {
                space,
                x0: i as f64 * (BAND_W + BAND_GAP),
                domain_bytes: domain.max(1.0),
                hwm_bytes,
                limit_bytes,
                has_capacity,
            });
        }
    }

    fn rows(&self) -> f64 {
        self.func.as_ref().map_or(1.0, |f| f64::from(f.src_end.saturating_sub(f.src_start) + 1))
    }

    fn world_w(&self) -> f64 {
        let n = self.bands.len().max(1) as f64;
        n * BAND_W + (n - 1.0) * BAND_GAP
    }

    pub fn resize(&mut self) {
        let rect = self.container.get_bounding_client_rect();
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()) as f32;
        let (w, h) = (rect.width().max(1.0), rect.height().max(1.0));
        if (w - self.css_w).abs() > 0.5 || (h - self.css_h).abs() > 0.5 {
            let refit = self.css_w < 2.0;
            self.css_w = w;
            self.css_h = h;
            self.gl.resize(w as f32, h as f32, dpr);
            self.text.resize(w as f32, h as f32, dpr);
            self.fit_pending |= refit;
        }
    }

    pub fn fit(&mut self) {
        let avail_w = (self.css_w - LEFT_PX - RIGHT_PX).max(50.0);
        let avail_h = (self.css_h - TOP_PX - BOTTOM_PX).max(50.0);
        self.sx = avail_w / self.world_w();
        self.sy = (avail_h / self.rows()).clamp(0.5, 40.0);
        self.ox = LEFT_PX;
        self.oy = TOP_PX;
        self.fit_sx = self.sx;
        self.fit_sy = self.sy;
    }

    /// Zooms by `fx` / `fy` keeping the world point under `(px, py)` in place.
    pub fn zoom_at(&mut self, px: f64, py: f64, fx: f64, fy: f64) {
        let nsx = (self.sx * fx).clamp(self.fit_sx * 0.25, self.fit_sx * 5000.0);
        let nsy = (self.sy * fy).clamp((self.fit_sy * 0.25).min(0.5), 400.0);
        self.ox = px - (px - self.ox) * (nsx / self.sx);
        self.oy = py - (py - self.oy) * (nsy / self.sy);
        self.sx = nsx;
        self.sy = nsy;
    }

    pub fn pan(&mut self, ox: f64, oy: f64) {
        self.ox = ox;
        self.oy = oy;
    }

    pub fn offsets(&self) -> (f64, f64) {
        (self.ox, self.oy)
    }

    pub fn scales(&self) -> (f64, f64) {
        (self.sx, self.sy)
    }

    fn x_of(&self, band: &Band, bytes: f64) -> f64 {
        self.ox + (band.x0 + bytes / band.domain_bytes * BAND_W) * self.sx
    }

    fn y_of(&self, line: f64) -> f64 {
        let start = self.func.as_ref().map_or(0.0, |f| f64::from(f.src_start));
        self.oy + (line - start) * self.sy
    }

    /// Screen rectangle of box `i` (at least 2 px each way, so 64 B of 184 KiB stays visible).
    pub fn box_rect(&self, i: usize) -> Option<ScreenRect> {
        let f = self.func.as_ref()?;
        let b = f.boxes.get(i)?;
        let band = self.bands.get(band_of(&self.bands, &b.space)?)?;
        let x = self.x_of(band, b.offset_bytes as f64);
        let w = (self.x_of(band, (b.offset_bytes + b.size_bytes) as f64) - x).max(2.0);
        let y = self.y_of(f64::from(b.start_line));
        let h = (self.y_of(f64::from(b.end_line) + 1.0) - y).max(2.0);
        Some(ScreenRect { x, y, w, h })
    }

    /// Screen rectangle of reserved window `i` (its address range × the whole function);
    /// `None` when its base is not known.
    pub fn reserved_rect(&self, i: usize) -> Option<ScreenRect> {
        let f = self.func.as_ref()?;
        let r = f.reserved.get(i)?;
        let base = r.base_bytes?;
        let band = self.bands.get(band_of(&self.bands, &r.space)?)?;
        let x = self.x_of(band, base as f64);
        let w = (self.x_of(band, (base + r.size_bytes) as f64) - x).max(2.0);
        let y = self.y_of(f64::from(f.src_start));
        let h = (self.y_of(f64::from(f.src_end) + 1.0) - y).max(2.0);
        Some(ScreenRect { x, y, w, h })
    }

    pub fn reserved_count(&self) -> usize {
        self.func.as_ref().map_or(0, |f| f.reserved.len())
    }

    /// The reserved window under `(x, y)` (for the tooltip when no box is there).
    pub fn reserved_at(&self, x: f64, y: f64) -> Option<usize> {
        if x < LEFT_PX || y < TOP_PX {
            return None;
        }
        (0..self.reserved_count())
            .rev()
            .find(|&i| self.reserved_rect(i).is_some_and(|r| x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h))
    }

    pub fn box_count(&self) -> usize {
        self.func.as_ref().map_or(0, |f| f.boxes.len())
    }

    /// The box under `(x, y)`: views and later boxes first (they are drawn on top).
    pub fn box_at(&self, x: f64, y: f64) -> Option<usize> {
        let f = self.func.as_ref()?;
        if x < LEFT_PX || y < TOP_PX {
            return None;
        }
        let inside = |i: usize| self.box_rect(i).is_some_and(|r| x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h);
        let n = f.boxes.len();
        (0..n).rev().filter(|&i| f.boxes[i].view).find(|&i| inside(i)).or_else(|| (0..n).rev().find(|&i| inside(i)))
    }

    /// The dump line at screen `y`.
    pub fn line_at(&self, y: f64) -> Option<u32> {
        let f = self.func.as_ref()?;
        let l = ((y - self.oy) / self.sy).floor() + f64::from(f.src_start);
        (l >= f64::from(f.src_start) && l <= f64::from(f.src_end)).then_some(l as u32)
    }

    /// Boxes live on the picked source line (used or defined there: 2, live: 1).
    pub fn line_marks(&self) -> Vec<u8> {
        let Some(f) = &self.func else { return Vec::new() };
        let Some(l) = self.line else { return vec![0; f.boxes.len()] };
        f.boxes
            .iter()
            .map(|b| {
                if b.used.contains(&l) || b.defined.iter().any(|&(s, e)| s <= l && l <= e) {
                    2
                } else {
                    u8::from(b.start_line <= l && l <= b.end_line)
                }
            })
            .collect()
    }

    fn outline(out: &mut Vec<LineInstance>, r: ScreenRect, width: f32, rgba: [u8; 4], dash: Option<f64>) {
        let (x, y, w, h) = (r.x, r.y, r.w, r.h);
        for (ax, ay, bx, by) in [(x, y, x + w, y), (x + w, y, x + w, y + h), (x + w, y + h, x, y + h), (x, y + h, x, y)] {
            match dash {
                None => out.push(LineInstance { x0: ax as f32, y0: ay as f32, x1: bx as f32, y1: by as f32, width, rgba }),
                Some(d) => {
                    let len = (bx - ax).hypot(by - ay);
                    let n = (len / (2.0 * d)).ceil().min(400.0) as usize;
                    for k in 0..n {
                        let t0 = (2 * k) as f64 * d / len.max(1e-9);
                        let t1 = (((2 * k + 1) as f64 * d) / len.max(1e-9)).min(1.0);
                        if t0 >= 1.0 {
                            break;
                        }
                        out.push(LineInstance {
                            x0: (ax + (bx - ax) * t0) as f32,
                            y0: (ay + (by - ay) * t0) as f32,
                            x1: (ax + (bx - ax) * t1) as f32,
                            y1: (ay + (by - ay) * t1) as f32,
                            width,
                            rgba,
                        });
                    }
                }
            }
        }
    }

    /// 45° hatching inside `r` every `step` px (lines `u + v = c` clipped to the rectangle).
    fn hatch(out: &mut Vec<LineInstance>, r: ScreenRect, step: f64, rgba: [u8; 4]) {
        let mut c = step;
        let mut n = 0;
        while c < r.w + r.h && n < 600 {
            let u0 = c.min(r.w);
            let u1 = (c - r.h).max(0.0);
            out.push(LineInstance {
                x0: (r.x + u0) as f32,
                y0: (r.y + c - u0) as f32,
                x1: (r.x + u1) as f32,
                y1: (r.y + c - u1) as f32,
                width: 1.0,
                rgba,
            });
            c += step;
            n += 1;
        }
    }

    /// Grid step (lines) so labelled rows are at least `min_px` apart.
    fn line_step(&self, min_px: f64) -> u32 {
        let mut step = 1u32;
        for s in [1u32, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] {
            step = s;
            if f64::from(s) * self.sy >= min_px {
                break;
            }
        }
        step
    }

    /// Downloads the map as drawn (the WebGL boxes and the text layer: bands, axis, labels) as
    /// a PNG named `file_name`, at device pixels.
    pub fn export_png(&mut self, file_name: &str) {
        // Draw now so the GL drawing buffer holds this frame while it is copied.
        self.frame();
        let [red, green, blue, _] = crate::settings::canvas_palette().background;
        crate::exports::download_canvas_png(file_name, &[self.gl.canvas(), self.text.canvas()], &format!("rgb({red},{green},{blue})"));
    }

    #[allow(clippy::too_many_lines)] // bands, grid, boxes, marks, then the text layer
    pub fn frame(&mut self) {
        self.resize();
        if self.fit_pending && self.func.is_some() {
            self.fit_pending = false;
            self.fit();
        }
        // The effective theme's colours (`settings`), read once per frame.
        let p = crate::settings::canvas_palette();
        self.gl.begin_frame(pypto_render::theme::clear_color(p));
        self.text.clear();
        let Some(f) = self.func.clone() else { return };
        let (w, h) = (self.css_w, self.css_h);
        let map_top = self.y_of(f64::from(f.src_start)).max(TOP_PX);
        let map_bottom = self.y_of(f64::from(f.src_end) + 1.0).min(h);
        self.rects.clear();
        self.lines.clear();
        self.gl.set_scissor(Some((LEFT_PX as f32, TOP_PX as f32, (w - LEFT_PX).max(1.0) as f32, (h - TOP_PX).max(1.0) as f32)));
        // bands (and the part beyond capacity, when the space is over it)
        for b in &self.bands {
            let x0 = self.x_of(b, 0.0);
            let x1 = self.x_of(b, b.domain_bytes);
            self.rects.push(RectInstance {
                x: x0 as f32,
                y: map_top as f32,
                w: (x1 - x0) as f32,
                h: (map_bottom - map_top).max(0.0) as f32,
                rgba: p.band,
            });
            if b.has_capacity && (b.limit_bytes as f64) < b.domain_bytes {
                let xc = self.x_of(b, b.limit_bytes as f64);
                self.rects.push(RectInstance {
                    x: xc as f32,
                    y: map_top as f32,
                    w: (x1 - xc) as f32,
                    h: (map_bottom - map_top).max(0.0) as f32,
                    rgba: p.band_over,
                });
            }
        }
        // grid lines every `step` dump lines
        let step = self.line_step(18.0);
        let first_visible = self.line_at(TOP_PX).unwrap_or(f.src_start);
        let mut l = first_visible - first_visible % step;
        while l <= f.src_end {
            let y = self.y_of(f64::from(l));
            if y > h {
                break;
            }
            if l >= f.src_start && y >= TOP_PX {
                for b in &self.bands {
                    self.lines.push(LineInstance {
                        x0: self.x_of(b, 0.0) as f32,
                        y0: y as f32,
                        x1: self.x_of(b, b.domain_bytes) as f32,
                        y1: y as f32,
                        width: 1.0,
                        rgba: p.grid,
                    });
                }
            }
            l += step;
        }
        // reserved windows: grey, hatched, framed, under the boxes
        let mut reserved_labels: Vec<(usize, ScreenRect)> = Vec::new();
        for i in 0..f.reserved.len() {
            let Some(r) = self.reserved_rect(i) else { continue };
            let r = ScreenRect { y: r.y.max(map_top), h: (r.y + r.h).min(map_bottom) - r.y.max(map_top), ..r };
            if r.h <= 0.0 || r.x > w || r.x + r.w < LEFT_PX {
                continue;
            }
            self.rects.push(RectInstance { x: r.x as f32, y: r.y as f32, w: r.w as f32, h: r.h as f32, rgba: p.reserved_fill });
            let step = ((r.w + r.h) / 600.0).max(9.0);
            Self::hatch(&mut self.lines, r, step, p.reserved_hatch);
            Self::outline(&mut self.lines, r, 1.0, p.reserved_edge, Some(3.0));
            reserved_labels.push((i, r));
        }
        self.gl.draw_rects(&self.rects);
        self.gl.draw_lines(&self.lines);
        // boxes: ordinary first, views on top
        let marks = self.line_marks();
        let dim_others = self.line.is_some();
        let mut order: Vec<usize> = (0..f.boxes.len()).filter(|&i| !f.boxes[i].view).collect();
        order.extend((0..f.boxes.len()).filter(|&i| f.boxes[i].view));
        self.rects.clear();
        let mut frames: Vec<LineInstance> = Vec::new();
        let mut labels: Vec<(usize, ScreenRect, [u8; 4])> = Vec::new();
        for &i in &order {
            let Some(r) = self.box_rect(i) else { continue };
            if r.x > w || r.x + r.w < LEFT_PX || r.y > h || r.y + r.h < TOP_PX {
                continue;
            }
            let b = &f.boxes[i];
            let mut rgba = color_for_name(p.scheme, &b.name);
            if b.view {
                // a view box: its colour washed halfway to the background
                rgba = pypto_render::theme::toward_background(p, rgba);
            }
            if dim_others && marks.get(i).copied().unwrap_or(0) == 0 {
                rgba = pypto_render::theme::dim(p, rgba);
            }
            self.rects.push(RectInstance { x: r.x as f32, y: r.y as f32, w: r.w as f32, h: r.h as f32, rgba });
            let edge = match p.scheme {
                Scheme::Light => [rgba[0] / 2, rgba[1] / 2, rgba[2] / 2, 255],
                // on dark boxes, a lighter frame (alpha stays 255)
                Scheme::Dark => rgba.map(|c| u16::midpoint(u16::from(c), 255) as u8),
            };
            if b.conflict {
                Self::hatch(&mut frames, r, 7.0, [p.danger[0], p.danger[1], p.danger[2], 200]);
                Self::outline(&mut frames, r, 2.0, p.danger, None);
            } else if b.view {
                Self::outline(&mut frames, r, 1.5, p.view_frame, Some(4.0));
            } else {
                Self::outline(&mut frames, r, 1.0, edge, None);
            }
            if marks.get(i).copied().unwrap_or(0) == 2 {
                Self::outline(&mut frames, r, 2.5, p.accent, None);
            }
            labels.push((i, r, rgba));
        }
        if let Some(r) = self.hover.filter(|h| Some(*h) != self.selected).and_then(|i| self.box_rect(i)) {
            Self::outline(&mut frames, r, 2.0, p.selection, None);
        }
        if let Some(r) = self.selected.and_then(|i| self.box_rect(i)) {
            Self::outline(&mut frames, ScreenRect { x: r.x - 1.5, y: r.y - 1.5, w: r.w + 3.0, h: r.h + 3.0 }, 3.0, p.accent, None);
        }
        // capacity and high-water lines
        let mut marks_lines: Vec<LineInstance> = Vec::new();
        for b in &self.bands {
            let xh = self.x_of(b, b.hwm_bytes as f64) as f32;
            marks_lines.push(LineInstance { x0: xh, y0: map_top as f32, x1: xh, y1: map_bottom as f32, width: 1.5, rgba: p.hwm });
            if b.has_capacity && (b.limit_bytes as f64) <= b.domain_bytes {
                let xc = self.x_of(b, b.limit_bytes as f64) as f32;
                marks_lines.push(LineInstance { x0: xc, y0: map_top as f32, x1: xc, y1: map_bottom as f32, width: 2.0, rgba: p.danger });
            }
        }
        // the picked source line
        let mut pick: Vec<RectInstance> = Vec::new();
        if let Some(l) = self.line {
            let (y0, y1) = (self.y_of(f64::from(l)), self.y_of(f64::from(l) + 1.0));
            pick.push(RectInstance {
                x: LEFT_PX as f32,
                y: y0 as f32,
                w: (w - LEFT_PX) as f32,
                h: (y1 - y0).max(2.0) as f32,
                rgba: p.line_pick,
            });
        }
        self.gl.draw_rects(&self.rects);
        self.gl.draw_lines(&frames);
        self.gl.draw_lines(&marks_lines);
        self.gl.draw_rects(&pick);
        self.gl.set_scissor(None);

        // reserved window labels at the top of the visible part
        for (i, r) in reserved_labels {
            let left = r.x.max(LEFT_PX);
            let right = (r.x + r.w).min(w);
            if right - left < 40.0 {
                continue;
            }
            let res = &f.reserved[i];
            let label = format!("reserved: {} ({})", res.name, human_bytes(res.size_bytes));
            let y = r.y.max(TOP_PX) + 10.0;
            self.text.fill_rect(
                (left + 2.0) as f32,
                (y - 7.0) as f32,
                ((right - left - 4.0).min(8.0 + 6.5 * label.len() as f64)) as f32,
                14.0,
                p.reserved_label,
            );
            self.text.fill_text_fitted(&label, (left + 4.0) as f32, y as f32, (right - left - 8.0) as f32, LABEL_FONT, p.reserved_text);
        }
        // text: box labels (clipped to the map area by skipping what does not fit)
        for (i, r, rgba) in labels {
            let b = &f.boxes[i];
            let top = r.y.max(TOP_PX);
            let bottom = (r.y + r.h).min(h);
            let left = r.x.max(LEFT_PX);
            let right = (r.x + r.w).min(w);
            if bottom - top < 13.0 || right - left < 24.0 {
                continue;
            }
            let label = if b.aliases.is_empty() { b.name.clone() } else { format!("{} +{}", b.name, b.aliases.len()) };
            let fg = text_color_on(rgba);
            self.text.fill_text_fitted(&label, (left + 3.0) as f32, (top + 8.0) as f32, (right - left - 6.0) as f32, LABEL_FONT, fg);
            if bottom - top >= 28.0 {
                let sub = format!(
                    "{} · {}",
                    human_bytes(b.size_bytes),
                    if b.view {
                        crate::i18n::tr("mm-box-view")
                    } else if b.conflict {
                        crate::i18n::tr("mm-box-conflict")
                    } else {
                        b.op.clone()
                    }
                );
                self.text.fill_text_fitted(&sub, (left + 3.0) as f32, (top + 21.0) as f32, (right - left - 6.0) as f32, LABEL_FONT, fg);
            }
        }
        // band headers over the top margin
        self.text.fill_rect(0.0, 0.0, w as f32, TOP_PX as f32, p.surface);
        self.text.line(0.0, TOP_PX as f32 - 0.5, w as f32, TOP_PX as f32 - 0.5, 1.0, p.grid);
        for b in &self.bands {
            let x0 = self.x_of(b, 0.0).max(LEFT_PX);
            let x1 = self.x_of(b, b.domain_bytes).min(w);
            if x1 - x0 < 20.0 {
                continue;
            }
            let pct = if b.limit_bytes > 0 { b.hwm_bytes as f64 * 100.0 / b.limit_bytes as f64 } else { 0.0 };
            let cap = if b.has_capacity { human_bytes(b.limit_bytes) } else { crate::i18n::tr("mm-no-capacity-on-this-chip") };
            let head_rgba = if pct >= 95.0 {
                p.head_danger
            } else if pct >= 80.0 {
                p.head_warn
            } else {
                p.text
            };
            self.text.fill_text_fitted(&b.space, (x0 + 2.0) as f32, 12.0, (x1 - x0 - 4.0) as f32, HEAD_FONT, head_rgba);
            let sub = format!("{pct:.1}% · hwm {} / {cap}", human_bytes(b.hwm_bytes));
            self.text.fill_text_fitted(&sub, (x0 + 2.0) as f32, 29.0, (x1 - x0 - 4.0) as f32, SUB_FONT, p.text_muted);
        }
        // line numbers in the left margin
        self.text.fill_rect(0.0, TOP_PX as f32, LEFT_PX as f32 - 2.0, (h - TOP_PX) as f32, p.surface);
        let step = self.line_step(16.0);
        let mut l = first_visible - first_visible % step;
        while l <= f.src_end {
            let y = self.y_of(f64::from(l) + 0.5);
            if y > h {
                break;
            }
            if l >= f.src_start && y >= TOP_PX + 4.0 {
                let rgba = if Some(l) == self.line { p.accent } else { p.text_muted };
                self.text.fill_text_aligned(&l.to_string(), (LEFT_PX - 6.0) as f32, y as f32, AXIS_FONT, rgba, TextAlign::Right);
            }
            l += step;
        }
        self.text.fill_text_aligned(&crate::i18n::tr("mm-line"), (LEFT_PX - 6.0) as f32, 29.0, AXIS_FONT, p.text_muted, TextAlign::Right);
        // test attributes
        let c = &self.container;
        let set = |k: &str, v: &str| {
            let _ = c.set_attribute(k, v);
        };
        set("data-function", &f.name);
        set("data-boxes", &f.boxes.len().to_string());
        set("data-reserved", &f.reserved.len().to_string());
        set("data-scale", &format!("{:.5},{:.4}", self.sx, self.sy));
        set("data-selected", &self.selected.and_then(|i| f.boxes.get(i)).map(|b| b.name.clone()).unwrap_or_default());
        set("data-line", &self.line.map(|l| l.to_string()).unwrap_or_default());
        let hl: Vec<&str> =
            marks.iter().enumerate().filter(|(_, &m)| m > 0).filter_map(|(i, _)| f.boxes.get(i).map(|b| b.name.as_str())).collect();
        set("data-highlighted", &hl.join(","));
    }
}
