//! Text (and a few thin shapes) on a `Canvas2D` overlay above the WebGL canvas.
//!
//! [`TextOverlay`] wraps a second, transparent `<canvas>` stacked over the GL canvas (the page
//! positions it; the overlay sets `pointer-events: none` so mouse input reaches the view below).
//! Coordinates are CSS pixels, origin top-left; the context carries the device-pixel-ratio
//! transform so text is sharp on `HiDPI` screens. Text is drawn with `textBaseline = "middle"`:
//! `y` is the vertical centre of the text, which suits labels centred in bars and rulers.
//! The font and colour strings are cached and only sent to the context when they change.
//!
//! This is the simple, robust path for the first views (labels, ruler text, tooltips drawn on
//! canvas). A GPU glyph atlas drawn by [`crate::GlRenderer`] may replace it later when label
//! counts make `Canvas2D` the bottleneck.

use std::fmt::Write as _;

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::error::{js_text, RenderError};

/// Horizontal anchor of text relative to its `x`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TextAlign {
    /// `x` is the left edge.
    #[default]
    Left,
    /// `x` is the centre.
    Center,
    /// `x` is the right edge.
    Right,
}

impl TextAlign {
    fn as_css(self) -> &'static str {
        match self {
            TextAlign::Left => "left",
            TextAlign::Center => "center",
            TextAlign::Right => "right",
        }
    }
}

/// A `Canvas2D` overlay for text. See the module docs.
pub struct TextOverlay {
    canvas: HtmlCanvasElement,
    ctx: CanvasRenderingContext2d,
    css_width: f32,
    css_height: f32,
    dpr: f32,
    font: String,
    fill: Option<[u8; 4]>,
    stroke: Option<[u8; 4]>,
    line_width: f32,
    align: TextAlign,
    style_buf: String,
    fit_buf: String,
    /// While recording (an SVG export), every text, rectangle and line drawn also goes here.
    recording: Option<crate::svg::SvgDoc>,
}

impl TextOverlay {
    /// Takes the 2D context of `canvas` and makes the canvas ignore pointer events.
    pub fn new(canvas: &HtmlCanvasElement) -> Result<TextOverlay, RenderError> {
        let ctx = match canvas.get_context("2d") {
            Ok(Some(obj)) => obj
                .dyn_into::<CanvasRenderingContext2d>()
                .map_err(|v| RenderError::Context(format!("not a 2D context: {}", js_text(&v))))?,
            Ok(None) => return Err(RenderError::Canvas2dUnavailable),
            Err(e) => return Err(RenderError::Context(js_text(&e))),
        };
        // Best effort: a missing style only means the page must set it itself.
        canvas.style().set_property("pointer-events", "none").ok();
        let mut overlay = TextOverlay {
            canvas: canvas.clone(),
            ctx,
            css_width: canvas.width().max(1) as f32,
            css_height: canvas.height().max(1) as f32,
            dpr: 1.0,
            font: String::new(),
            fill: None,
            stroke: None,
            line_width: -1.0,
            align: TextAlign::Left,
            style_buf: String::with_capacity(32),
            fit_buf: String::new(),
            recording: None,
        };
        overlay.reset_state();
        Ok(overlay)
    }

    /// Sizes the backing store to `css × dpr` device pixels and scales the context so drawing
    /// stays in CSS pixels. Resizing a canvas resets its context state; the caches follow.
    pub fn resize(&mut self, css_width: f32, css_height: f32, device_pixel_ratio: f32) {
        let size = crate::CanvasSize::new(css_width, css_height, device_pixel_ratio);
        let (css_width, css_height, dpr) = (size.css_width, size.css_height, size.dpr);
        size.apply_to(&self.canvas);
        self.css_width = css_width;
        self.css_height = css_height;
        self.dpr = dpr;
        self.reset_state();
    }

    fn reset_state(&mut self) {
        let sx = f64::from(self.canvas.width()) / f64::from(self.css_width);
        let sy = f64::from(self.canvas.height()) / f64::from(self.css_height);
        self.ctx.set_transform(sx, 0.0, 0.0, sy, 0.0, 0.0).ok();
        self.ctx.set_text_baseline("middle");
        self.ctx.set_text_align(TextAlign::Left.as_css());
        self.font.clear();
        self.fill = None;
        self.stroke = None;
        self.line_width = -1.0;
        self.align = TextAlign::Left;
    }

    /// Clears the whole overlay to transparent.
    pub fn clear(&mut self) {
        self.ctx.clear_rect(0.0, 0.0, f64::from(self.css_width), f64::from(self.css_height));
    }

    /// Draws `text` left-aligned at `x`, vertically centred on `y`, in `css_font`
    /// (e.g. `"12px system-ui, sans-serif"`).
    pub fn fill_text(&mut self, text: &str, x: f32, y: f32, css_font: &str, rgba: [u8; 4]) {
        self.fill_text_aligned(text, x, y, css_font, rgba, TextAlign::Left);
    }

    /// Like [`TextOverlay::fill_text`] with a horizontal anchor.
    pub fn fill_text_aligned(&mut self, text: &str, x: f32, y: f32, css_font: &str, rgba: [u8; 4], align: TextAlign) {
        self.set_font(css_font);
        self.set_fill(rgba);
        self.set_align(align);
        self.ctx.fill_text(text, f64::from(x), f64::from(y)).ok();
        if let Some(doc) = &mut self.recording {
            doc.text(text, x, y, css_font, rgba, align);
        }
    }

    /// Draws as much of `text` as fits in `max_width` CSS px, ending with "…" when cut; draws
    /// nothing if not even one character and the ellipsis fit. Returns whether anything was
    /// drawn. O(log len) measurements.
    pub fn fill_text_fitted(&mut self, text: &str, x: f32, y: f32, max_width: f32, css_font: &str, rgba: [u8; 4]) -> bool {
        if max_width <= 0.0 || text.is_empty() {
            return false;
        }
        if self.measure(text, css_font) <= max_width {
            self.fill_text(text, x, y, css_font, rgba);
            return true;
        }
        // Binary search the longest prefix (in chars) whose "prefix…" fits; no allocation
        // beyond the reused buffer.
        let prefix_end = |chars: usize| text.char_indices().nth(chars).map_or(text.len(), |(i, _)| i);
        let (mut lo, mut hi) = (0usize, text.chars().count() - 1);
        let mut buf = std::mem::take(&mut self.fit_buf);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            buf.clear();
            buf.push_str(&text[..prefix_end(mid)]);
            buf.push('…');
            if self.measure(&buf, css_font) <= max_width {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let drawn = lo > 0;
        if drawn {
            buf.clear();
            buf.push_str(&text[..prefix_end(lo)]);
            buf.push('…');
            self.fill_text(&buf, x, y, css_font, rgba);
        }
        self.fit_buf = buf;
        drawn
    }

    /// Width of `text` in `css_font`, CSS px.
    pub fn measure(&mut self, text: &str, css_font: &str) -> f32 {
        self.set_font(css_font);
        self.ctx.measure_text(text).map_or(0.0, |m| m.width() as f32)
    }

    /// Fills a rectangle (CSS px).
    pub fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, rgba: [u8; 4]) {
        self.set_fill(rgba);
        self.ctx.fill_rect(f64::from(x), f64::from(y), f64::from(w), f64::from(h));
        if let Some(doc) = &mut self.recording {
            doc.rect(x, y, w, h, rgba);
        }
    }

    /// Strokes a line segment `width` CSS px thick.
    pub fn line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, width: f32, rgba: [u8; 4]) {
        self.set_stroke(rgba);
        if (self.line_width - width).abs() > f32::EPSILON {
            self.ctx.set_line_width(f64::from(width));
            self.line_width = width;
        }
        self.ctx.begin_path();
        self.ctx.move_to(f64::from(x0), f64::from(y0));
        self.ctx.line_to(f64::from(x1), f64::from(y1));
        self.ctx.stroke();
        if let Some(doc) = &mut self.recording {
            doc.line(x0, y0, x1, y1, width, rgba);
        }
    }

    /// Records everything drawn from now on into `doc` as well (text as `<text>`), until
    /// [`TextOverlay::take_recording`].
    pub fn start_recording(&mut self, doc: crate::svg::SvgDoc) {
        self.recording = Some(doc);
    }

    /// Stops recording and returns the document.
    pub fn take_recording(&mut self) -> Option<crate::svg::SvgDoc> {
        self.recording.take()
    }

    /// The overlay canvas.
    pub fn canvas(&self) -> &HtmlCanvasElement {
        &self.canvas
    }

    /// The 2D context, for drawing this helper does not cover (keep the transform).
    pub fn context(&self) -> &CanvasRenderingContext2d {
        &self.ctx
    }

    fn set_font(&mut self, css_font: &str) {
        if self.font != css_font {
            self.ctx.set_font(css_font);
            self.font.clear();
            self.font.push_str(css_font);
        }
    }

    fn set_align(&mut self, align: TextAlign) {
        if self.align != align {
            self.ctx.set_text_align(align.as_css());
            self.align = align;
        }
    }

    fn set_fill(&mut self, rgba: [u8; 4]) {
        if self.fill != Some(rgba) {
            css_rgba(&mut self.style_buf, rgba);
            self.ctx.set_fill_style_str(&self.style_buf);
            self.fill = Some(rgba);
        }
    }

    fn set_stroke(&mut self, rgba: [u8; 4]) {
        if self.stroke != Some(rgba) {
            css_rgba(&mut self.style_buf, rgba);
            self.ctx.set_stroke_style_str(&self.style_buf);
            self.stroke = Some(rgba);
        }
    }
}

/// Writes `rgba(r,g,b,a)` with alpha in 0..1 into `out`.
fn css_rgba(out: &mut String, [r, g, b, a]: [u8; 4]) {
    out.clear();
    write!(out, "rgba({r},{g},{b},{:.3})", f32::from(a) / 255.0).ok();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgba_strings() {
        let mut s = String::new();
        css_rgba(&mut s, [255, 0, 10, 255]);
        assert_eq!(s, "rgba(255,0,10,1.000)");
        css_rgba(&mut s, [1, 2, 3, 0]);
        assert_eq!(s, "rgba(1,2,3,0.000)");
    }
}
