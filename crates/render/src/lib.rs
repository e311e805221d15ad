//! `pypto-render`: WebGL2 drawing for the trace viewer. Knows geometry, not `PyPTO`.
//!
//! * [`GlRenderer`] draws [`RectInstance`]s and [`LineInstance`]s (and arrows) with one
//!   instanced draw call per batch, in CSS pixels with the origin at the top left, onto a
//!   WebGL2 canvas. Buffers are reused: no allocation per frame after warm-up.
//! * [`camera::TimeCamera`] maps `f64` µs to pixels (exact at deep zoom on long traces),
//!   [`axis::time_ticks`] makes ruler ticks and labels, [`lanes`] culls and merges a lane's bars,
//!   [`palette`] colours categories, [`text::TextOverlay`] draws labels on a `Canvas2D` overlay.
//!
//! The pure modules (`camera`, `axis`, `lanes`, `palette`) build and test natively; the web
//! modules compile natively too (web-sys does) but only work in a browser.

pub mod axis;
pub mod camera;
mod error;
mod gl;
pub mod lanes;
pub mod palette;
pub mod text;

pub use error::RenderError;
pub use gl::{FrameStats, GlRenderer, LineInstance, RectInstance, MAX_INSTANCES_PER_DRAW};
