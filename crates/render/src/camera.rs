//! The horizontal time camera of a timeline view: which microsecond sits at which CSS pixel.
//!
//! Everything is `f64` microseconds. A trace of 1e9 µs (16 minutes) still resolves 1e-4 µs
//! (0.1 ns) per pixel (f64 spacing there is ~1e-7 µs, 0.1 % of such a pixel), because the camera stores the time at the left edge and
//! subtracts it *before* scaling; only the final pixel coordinate, which is small, is converted
//! to `f32` by the caller (see [`TimeCamera::us_to_px_f32`]).
//!
//! Zoom is clamped: at most [`MAX_PX_PER_US`] pixels per µs (1e-4 µs per pixel), and, once the
//! data extent is known ([`TimeCamera::fit`] or [`TimeCamera::set_extent`]), never further out
//! than the extent plus its margins. Panning keeps the view inside the extent plus margins.
//! Used by the app's timeline views, by [`crate::axis`] and by [`crate::lanes::emit_bars`].

/// Deepest zoom: 1e4 px per µs, i.e. 1e-4 µs (0.1 ns) per pixel.
pub const MAX_PX_PER_US: f64 = 1e4;

/// Margin on each side of the extent when fitting, as a fraction of the extent's length.
pub const FIT_MARGIN_FRACTION: f64 = 0.02;

/// Extents shorter than this (µs) are widened to it, so a single instant still fits.
const MIN_EXTENT_US: f64 = 1e-3;

/// Maps time (µs, `f64`) to horizontal CSS pixels of a view `width_px` wide.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeCamera {
    /// Time at the left edge of the view (x = 0), µs.
    pub start_us: f64,
    /// Zoom: CSS pixels per µs.
    pub px_per_us: f64,
    /// Width of the view in CSS pixels.
    pub width_px: f64,
    /// Time range of the data, `(start_us, end_us)`. When set, zoom-out and panning are limited
    /// so this range plus its margins stays the largest view. `None`: only the zoom-in limit.
    /// Set by [`TimeCamera::fit`] and [`TimeCamera::set_extent`].
    pub extent_us: Option<(f64, f64)>,
}

impl Default for TimeCamera {
    fn default() -> Self {
        TimeCamera { start_us: 0.0, px_per_us: 1.0, width_px: 1.0, extent_us: None }
    }
}

impl TimeCamera {
    /// A camera of `width_px` CSS pixels, 1 px per µs starting at 0, no extent.
    pub fn new(width_px: f64) -> Self {
        TimeCamera { width_px: sanitize_width(width_px), ..TimeCamera::default() }
    }

    /// Time → CSS pixel (x), `f64`.
    #[inline]
    pub fn us_to_px(&self, us: f64) -> f64 {
        (us - self.start_us) * self.px_per_us
    }

    /// Time → CSS pixel (x) as `f32` for instance buffers. The value is clamped to
    /// `[-1e6, width + 1e6]` so a bar far off-screen never turns into `inf` or loses the
    /// precision of the on-screen edge.
    #[inline]
    pub fn us_to_px_f32(&self, us: f64) -> f32 {
        self.us_to_px(us).clamp(-1e6, self.width_px + 1e6) as f32
    }

    /// CSS pixel (x) → time.
    #[inline]
    pub fn px_to_us(&self, px: f64) -> f64 {
        self.start_us + px / self.px_per_us
    }

    /// Width of one CSS pixel in µs.
    #[inline]
    pub fn us_per_px(&self) -> f64 {
        1.0 / self.px_per_us
    }

    /// The time range currently visible, `(left_us, right_us)`.
    pub fn visible_range_us(&self) -> (f64, f64) {
        (self.start_us, self.px_to_us(self.width_px))
    }

    /// Moves the view by `dx` CSS pixels: positive `dx` shows later times (content moves left),
    /// as when dragging the content with `dx = -mouse_dx`. Clamped to the extent plus margins.
    pub fn pan_px(&mut self, dx: f64) {
        if dx.is_finite() {
            self.start_us += dx / self.px_per_us;
        }
        self.clamp_pan();
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the time under `anchor_px` where it is.
    /// The zoom is clamped to [`TimeCamera::zoom_limits`]; the anchor stays fixed unless the
    /// clamp to the extent has to move the view (fully zoomed out).
    pub fn zoom_at(&mut self, anchor_px: f64, factor: f64) {
        if !(factor.is_finite() && factor > 0.0 && anchor_px.is_finite()) {
            return;
        }
        let anchor_us = self.px_to_us(anchor_px);
        let (lo, hi) = self.zoom_limits();
        self.px_per_us = (self.px_per_us * factor).clamp(lo, hi);
        self.start_us = anchor_us - anchor_px / self.px_per_us;
        self.clamp_pan();
    }

    /// Shows `[start_us, end_us]` plus [`FIT_MARGIN_FRACTION`] on each side, and records it as
    /// the extent. An empty or reversed range is widened around its start.
    pub fn fit(&mut self, start_us: f64, end_us: f64) {
        self.set_extent(start_us, end_us);
        let (lo, hi) = self.padded_extent().unwrap_or((start_us, start_us + MIN_EXTENT_US));
        self.px_per_us = (self.width_px / (hi - lo)).min(MAX_PX_PER_US);
        self.start_us = lo;
        self.clamp_pan();
    }

    /// Records the data extent without moving the view more than the clamps require.
    pub fn set_extent(&mut self, start_us: f64, end_us: f64) {
        if !(start_us.is_finite() && end_us.is_finite()) {
            self.extent_us = None;
            return;
        }
        let end_us = end_us.max(start_us + MIN_EXTENT_US);
        self.extent_us = Some((start_us, end_us));
    }

    /// Changes the view width (after a resize) keeping the left edge and the zoom, then clamps.
    pub fn set_width(&mut self, width_px: f64) {
        self.width_px = sanitize_width(width_px);
        let (lo, hi) = self.zoom_limits();
        self.px_per_us = self.px_per_us.clamp(lo, hi);
        self.clamp_pan();
    }

    /// Allowed range of `px_per_us`: (whole extent plus margins fits, [`MAX_PX_PER_US`]).
    pub fn zoom_limits(&self) -> (f64, f64) {
        let lo = match self.padded_extent() {
            Some((a, b)) => (self.width_px / (b - a)).min(MAX_PX_PER_US),
            None => f64::MIN_POSITIVE,
        };
        (lo, MAX_PX_PER_US)
    }

    fn padded_extent(&self) -> Option<(f64, f64)> {
        self.extent_us.map(|(a, b)| {
            let margin = (b - a) * FIT_MARGIN_FRACTION;
            (a - margin, b + margin)
        })
    }

    /// Keeps the visible window inside the padded extent; centres it when it is wider.
    fn clamp_pan(&mut self) {
        if !self.px_per_us.is_finite() || self.px_per_us <= 0.0 {
            self.px_per_us = 1.0;
        }
        let Some((lo, hi)) = self.padded_extent() else {
            return;
        };
        let view_us = self.width_px / self.px_per_us;
        if view_us >= hi - lo {
            self.start_us = lo - (view_us - (hi - lo)) / 2.0;
        } else {
            self.start_us = self.start_us.clamp(lo, hi - view_us);
        }
    }
}

fn sanitize_width(width_px: f64) -> f64 {
    if width_px.is_finite() && width_px >= 1.0 {
        width_px
    } else {
        1.0
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact values are the point of these checks
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn round_trip() {
        let cam = TimeCamera { start_us: 100.0, px_per_us: 2.0, width_px: 800.0, extent_us: None };
        assert_eq!(cam.us_to_px(150.0), 100.0);
        assert_eq!(cam.px_to_us(100.0), 150.0);
        assert_eq!(cam.visible_range_us(), (100.0, 500.0));
    }

    #[test]
    fn fit_adds_margins_and_sets_extent() {
        let mut cam = TimeCamera::new(1000.0);
        cam.fit(0.0, 1000.0);
        let (a, b) = cam.visible_range_us();
        assert!(close(a, -20.0, 1e-9), "{a}");
        assert!(close(b, 1020.0, 1e-9), "{b}");
        assert_eq!(cam.extent_us, Some((0.0, 1000.0)));
    }

    #[test]
    fn zoom_keeps_anchor_fixed() {
        let mut cam = TimeCamera::new(1000.0);
        cam.fit(0.0, 1_000_000.0);
        let anchor = 321.5;
        let before = cam.px_to_us(anchor);
        for _ in 0..20 {
            cam.zoom_at(anchor, 1.7);
            let after = cam.px_to_us(anchor);
            assert!(close(before, after, 1e-6 * cam.us_per_px().max(1e-9)), "{before} {after}");
        }
        // and back out a bit
        cam.zoom_at(anchor, 0.5);
        assert!(close(cam.px_to_us(anchor), before, 1e-6));
    }

    #[test]
    fn deep_zoom_at_1e9_stays_exact() {
        let mut cam = TimeCamera::new(1000.0);
        cam.fit(0.0, 1e9);
        let anchor = 500.0;
        for _ in 0..200 {
            cam.zoom_at(anchor, 2.0);
        }
        assert_eq!(cam.px_per_us, MAX_PX_PER_US);
        // One pixel is 1e-4 µs and neighbouring pixels are distinct times.
        let t0 = cam.px_to_us(10.0);
        let t1 = cam.px_to_us(11.0);
        // f64 spacing near 5e8 µs is ~6e-8 µs: under 0.1 % of a pixel here.
        assert!(close(t1 - t0, 1e-4, 1e-7), "{}", t1 - t0);
        // Pixel of a time near 5e8 µs is exact to a thousandth of a pixel.
        let t = cam.px_to_us(123.0);
        assert!(close(cam.us_to_px(t), 123.0, 1e-3));
        assert!(close(f64::from(cam.us_to_px_f32(t)), 123.0, 1e-3));
    }

    #[test]
    fn zoom_out_is_clamped_to_extent() {
        let mut cam = TimeCamera::new(1000.0);
        cam.fit(0.0, 1000.0);
        let fitted = cam;
        for _ in 0..50 {
            cam.zoom_at(10.0, 0.5);
        }
        assert!(close(cam.px_per_us, fitted.px_per_us, 1e-12));
        assert!(close(cam.start_us, fitted.start_us, 1e-9));
    }

    #[test]
    fn pan_is_clamped() {
        let mut cam = TimeCamera::new(1000.0);
        cam.fit(0.0, 1000.0);
        cam.zoom_at(500.0, 10.0);
        cam.pan_px(1e9);
        let (_, b) = cam.visible_range_us();
        assert!(close(b, 1020.0, 1e-6), "{b}");
        cam.pan_px(-1e9);
        assert!(close(cam.start_us, -20.0, 1e-6));
        // unclamped camera pans freely
        let mut free = TimeCamera::new(100.0);
        free.pan_px(100.0);
        assert_eq!(free.start_us, 100.0);
    }

    #[test]
    fn bad_input_is_ignored() {
        let mut cam = TimeCamera::new(f64::NAN);
        assert_eq!(cam.width_px, 1.0);
        cam.zoom_at(0.0, f64::NAN);
        cam.zoom_at(0.0, 0.0);
        cam.pan_px(f64::INFINITY);
        assert_eq!(cam, TimeCamera::new(1.0));
        cam.fit(5.0, 5.0);
        assert!(cam.px_per_us.is_finite() && cam.px_per_us > 0.0);
    }
}
