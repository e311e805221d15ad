//! `pypto-render`: WebGL2 drawing for the trace viewer. Knows geometry, not `PyPTO`.
//!
//! * [`GlRenderer`] draws [`RectInstance`]s and [`LineInstance`]s (and arrows) with one
//!   instanced draw call per batch, in CSS pixels with the origin at the top left, onto a
//!   WebGL2 canvas. Buffers are reused: no allocation per frame after warm-up.
//! * [`camera::TimeCamera`] maps `f64` µs to pixels (exact at deep zoom on long traces),
//!   [`axis::time_ticks`] makes ruler ticks and labels, [`lanes`] culls and merges a lane's bars,
//!   [`lane_lod`] keeps a per-lane level-of-detail pyramid for zoomed-out frames,
//!   [`palette`] colours categories, [`theme`] holds the light and dark canvas palettes,
//!   [`text::TextOverlay`] draws labels on a `Canvas2D` overlay, [`svg::SvgDoc`] writes what a
//!   frame drew as SVG (text as text) for exports.
//!
//! The pure modules (`camera`, `axis`, `lanes`, `palette`) build and test natively; the web
//! modules compile natively too (web-sys does) but only work in a browser.

pub mod axis;
pub mod camera;
mod error;
mod gl;
pub mod lane_lod;
pub mod lanes;
pub mod palette;
pub mod svg;
pub mod text;
pub mod theme;

pub use error::RenderError;
pub use gl::{FrameStats, GlRenderer, LineInstance, RectInstance, MAX_INSTANCES_PER_DRAW};

/// A canvas size in CSS pixels and its device pixel ratio, sanitised (finite, ≥ 1 px, dpr > 0),
/// shared by the WebGL and the text layer so both size their backing stores the same way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CanvasSize {
    pub css_width: f32,
    pub css_height: f32,
    pub dpr: f32,
}

impl CanvasSize {
    pub fn new(css_width: f32, css_height: f32, device_pixel_ratio: f32) -> Self {
        let sane = |v: f32| if v.is_finite() { v.max(1.0) } else { 1.0 };
        let dpr = if device_pixel_ratio.is_finite() && device_pixel_ratio > 0.0 { device_pixel_ratio } else { 1.0 };
        Self { css_width: sane(css_width), css_height: sane(css_height), dpr }
    }

    /// Backing-store size in device pixels (rounded, at least 1).
    pub fn device_pixels(self) -> (u32, u32) {
        ((self.css_width * self.dpr).round().max(1.0) as u32, (self.css_height * self.dpr).round().max(1.0) as u32)
    }

    /// Sets the canvas' backing store to [`Self::device_pixels`] when it differs; returns it.
    pub fn apply_to(self, canvas: &web_sys::HtmlCanvasElement) -> (u32, u32) {
        let (w, h) = self.device_pixels();
        if canvas.width() != w {
            canvas.set_width(w);
        }
        if canvas.height() != h {
            canvas.set_height(h);
        }
        (w, h)
    }
}
