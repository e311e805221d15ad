//! The graph's minimap, for a reader zoomed into part of a big graph: a small overview in the
//! canvas's bottom-right corner with every node (kind colours, at least a pixel each, drawn
//! once per graph into an `ImageData`) and the current viewport as a rectangle, shown only
//! while the viewport does not hold the whole graph. A press or a drag in it centres the view
//! on that place (the component's handlers call [`Minimap::to_layout`]).

use wasm_bindgen::Clamped;

use super::{GraphData, KIND_DUMMY};

/// Largest minimap, CSS px.
const MAX_W_PX: f32 = 220.0;
const MAX_H_PX: f32 = 150.0;
/// Padding inside the minimap around the graph, CSS px.
const PAD_PX: f32 = 4.0;

/// The minimap's elements and its layout → minimap transform.
pub(super) struct Minimap {
    pub(super) root: web_sys::HtmlElement,
    canvas: web_sys::HtmlCanvasElement,
    view_rect: web_sys::HtmlElement,
    /// Layout → minimap CSS px: `m = (l - origin) * scale + PAD_PX`.
    scale: f32,
    origin: (f32, f32),
    size: (f32, f32),
    pub(super) shown: bool,
    /// A press in the minimap is dragging the view.
    pub(super) drag: bool,
}

/// Minimap size (CSS px) and scale for a graph of `bbox` `[x0, y0, x1, y1]`.
pub(super) fn geometry(bbox: [f32; 4]) -> (f32, f32, f32) {
    let (gw, gh) = ((bbox[2] - bbox[0]).max(1.0), (bbox[3] - bbox[1]).max(1.0));
    let scale = ((MAX_W_PX - 2.0 * PAD_PX) / gw).min((MAX_H_PX - 2.0 * PAD_PX) / gh);
    (gw * scale + 2.0 * PAD_PX, gh * scale + 2.0 * PAD_PX, scale)
}

/// Whether `view` `[x0, y0, x1, y1]` (layout units) leaves part of `bbox` out.
pub(super) fn needed(view: [f32; 4], bbox: [f32; 4]) -> bool {
    let slack = 0.5;
    bbox[0] < view[0] - slack || bbox[1] < view[1] - slack || bbox[2] > view[2] + slack || bbox[3] > view[3] + slack
}

impl Minimap {
    pub(super) fn new(root: web_sys::HtmlElement, canvas: web_sys::HtmlCanvasElement, view_rect: web_sys::HtmlElement) -> Self {
        Self { root, canvas, view_rect, scale: 1.0, origin: (0.0, 0.0), size: (0.0, 0.0), shown: false, drag: false }
    }

    /// Draws `d`'s nodes into the minimap (once per graph).
    pub(super) fn set_graph(&mut self, d: &GraphData) {
        let (w, h, scale) = geometry(d.bbox);
        self.scale = scale;
        self.origin = (d.bbox[0], d.bbox[1]);
        self.size = (w, h);
        let style = self.root.style();
        let _ = style.set_property("width", &format!("{w:.0}px"));
        let _ = style.set_property("height", &format!("{h:.0}px"));
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).clamp(1.0, 3.0) as f32;
        let (pw, ph) = ((w * dpr).round().max(1.0) as u32, (h * dpr).round().max(1.0) as u32);
        self.canvas.set_width(pw);
        self.canvas.set_height(ph);
        let mut px = vec![0u8; (pw * ph * 4) as usize];
        for p in px.chunks_exact_mut(4) {
            p.copy_from_slice(&[255, 255, 255, 235]);
        }
        let k = scale * dpr;
        for i in 0..d.x.len() {
            let (hw, hh) = (d.w[i] / 2.0, d.h[i] / 2.0);
            let x0 = ((d.x[i] - hw - self.origin.0) * k + PAD_PX * dpr).floor().max(0.0) as u32;
            let y0 = ((d.y[i] - hh - self.origin.1) * k + PAD_PX * dpr).floor().max(0.0) as u32;
            let x1 = (((d.x[i] + hw - self.origin.0) * k + PAD_PX * dpr).ceil() as u32).max(x0 + 1).min(pw);
            let y1 = (((d.y[i] + hh - self.origin.1) * k + PAD_PX * dpr).ceil() as u32).max(y0 + 1).min(ph);
            let c = crate::settings::canvas_palette()
                .node_kinds
                .get(d.kind.get(i).copied().unwrap_or(KIND_DUMMY) as usize)
                .copied()
                .unwrap_or([128, 128, 128, 255]);
            for y in y0..y1 {
                for x in x0..x1 {
                    let o = ((y * pw + x) * 4) as usize;
                    if let Some(p) = px.get_mut(o..o + 4) {
                        p.copy_from_slice(&c);
                    }
                }
            }
        }
        let image = web_sys::ImageData::new_with_u8_clamped_array_and_sh(Clamped(&px[..]), pw, ph);
        let ctx = self
            .canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| wasm_bindgen::JsCast::dyn_into::<web_sys::CanvasRenderingContext2d>(c).ok());
        if let (Ok(image), Some(ctx)) = (image, ctx) {
            let _ = ctx.put_image_data(&image, 0.0, 0.0);
        }
    }

    /// Shows or hides the minimap and places the viewport rectangle (`view` in layout units).
    pub(super) fn update(&mut self, view: [f32; 4], bbox: [f32; 4]) {
        let show = needed(view, bbox);
        if show != self.shown {
            self.shown = show;
            let _ = self.root.style().set_property("display", if show { "block" } else { "none" });
        }
        if !show {
            return;
        }
        let (ax, ay) = self.to_minimap(view[0], view[1]);
        let (bx, by) = self.to_minimap(view[2], view[3]);
        let (x0, y0) = (ax.clamp(0.0, self.size.0), ay.clamp(0.0, self.size.1));
        let (x1, y1) = (bx.clamp(0.0, self.size.0), by.clamp(0.0, self.size.1));
        let style = self.view_rect.style();
        let _ = style.set_property("left", &format!("{x0:.1}px"));
        let _ = style.set_property("top", &format!("{y0:.1}px"));
        let _ = style.set_property("width", &format!("{:.1}px", (x1 - x0).max(2.0)));
        let _ = style.set_property("height", &format!("{:.1}px", (y1 - y0).max(2.0)));
    }

    fn to_minimap(&self, x: f32, y: f32) -> (f32, f32) {
        ((x - self.origin.0) * self.scale + PAD_PX, (y - self.origin.1) * self.scale + PAD_PX)
    }

    /// The layout point under minimap CSS px `(mx, my)`.
    pub(super) fn to_layout(&self, mx: f32, my: f32) -> (f32, f32) {
        ((mx - PAD_PX) / self.scale + self.origin.0, (my - PAD_PX) / self.scale + self.origin.1)
    }

    /// The minimap's top-left corner in the page (client px).
    pub(super) fn client_origin(&self) -> (f32, f32) {
        let r = self.root.get_bounding_client_rect();
        (r.left() as f32, r.top() as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_keeps_the_graph_aspect_within_bounds() {
        let (w, h, s) = geometry([0.0, 0.0, 4000.0, 1000.0]);
        assert!((w - MAX_W_PX).abs() < 1e-3 && h < MAX_H_PX, "{w} {h}");
        assert!(((w - 2.0 * PAD_PX) / (h - 2.0 * PAD_PX) - 4.0).abs() < 1e-3);
        assert!((s - (MAX_W_PX - 2.0 * PAD_PX) / 4000.0).abs() < 1e-6);
        let (w, h, _) = geometry([0.0, 0.0, 100.0, 5000.0]);
        assert!((h - MAX_H_PX).abs() < 1e-3 && w < MAX_W_PX);
    }

    #[test]
    fn needed_when_the_view_leaves_part_out() {
        let bbox = [0.0, 0.0, 100.0, 100.0];
        assert!(!needed([-10.0, -10.0, 110.0, 110.0], bbox));
        assert!(needed([-10.0, -10.0, 90.0, 110.0], bbox));
        assert!(needed([20.0, 20.0, 50.0, 50.0], bbox));
    }
}
