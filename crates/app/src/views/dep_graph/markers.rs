//! The graph's two static markers as drawn shapes, not emoji (which need an emoji font and
//! show as empty boxes without one): a flame ("early-dispatch capable", bit 1 of the
//! `markers` column) and a star ("every predecessor is early-dispatch capable", bit 2). One
//! polygon each in a unit box, drawn on the text canvas over a node, as inline SVG in the
//! legend and the details, and as `<path>`s in the SVG export — the same shape everywhere.

use std::fmt::Write as _;

use leptos::prelude::*;

/// Polygons (unit-box points) with their fill, back to front.
pub type Shapes = Vec<(Vec<(f32, f32)>, [u8; 4])>;

/// Marker bits of the `markers` column.
pub const FIRE: u8 = 1;
pub const STAR: u8 = 2;

/// Fill and outline of each marker.
pub const FIRE_RGBA: [u8; 4] = [234, 88, 12, 255];
pub const FIRE_INNER_RGBA: [u8; 4] = [253, 186, 62, 255];
pub const STAR_RGBA: [u8; 4] = [250, 204, 21, 255];
pub const OUTLINE_RGBA: [u8; 4] = [90, 40, 10, 255];

/// Flame outline in a unit box (x right, y down): a pointed top, a round base.
pub const FLAME: [(f32, f32); 14] = [
    (0.50, 0.00),
    (0.66, 0.18),
    (0.82, 0.36),
    (0.92, 0.58),
    (0.88, 0.78),
    (0.74, 0.93),
    (0.50, 1.00),
    (0.26, 0.93),
    (0.12, 0.78),
    (0.08, 0.58),
    (0.18, 0.40),
    (0.30, 0.50),
    (0.34, 0.30),
    (0.44, 0.14),
];

/// The flame's lighter core.
pub const FLAME_CORE: [(f32, f32); 7] = [(0.52, 0.42), (0.66, 0.62), (0.70, 0.80), (0.50, 0.92), (0.30, 0.80), (0.34, 0.62), (0.44, 0.58)];

/// A five-pointed star in a unit box, points up.
pub fn star() -> [(f32, f32); 10] {
    let mut p = [(0.0, 0.0); 10];
    for (k, q) in p.iter_mut().enumerate() {
        let r = if k % 2 == 0 { 0.5 } else { 0.21 };
        let a = std::f32::consts::PI * (k as f32 / 5.0) - std::f32::consts::FRAC_PI_2;
        *q = (0.5 + r * a.cos(), 0.53 + r * a.sin());
    }
    p
}

/// The polygons of a marker bit, each with its fill: `(points, rgba)` back to front.
pub fn shapes(bit: u8) -> Shapes {
    if bit == FIRE {
        vec![(FLAME.to_vec(), FIRE_RGBA), (FLAME_CORE.to_vec(), FIRE_INNER_RGBA)]
    } else {
        vec![(star().to_vec(), STAR_RGBA)]
    }
}

/// SVG path data of `points` scaled by `size` at `(x, y)`.
pub fn path_data(points: &[(f32, f32)], x: f32, y: f32, size: f32) -> String {
    let mut d = String::new();
    for (i, (px, py)) in points.iter().enumerate() {
        d.push(if i == 0 { 'M' } else { 'L' });
        let _ = write!(d, "{:.2} {:.2} ", x + px * size, y + py * size);
    }
    d.push('Z');
    d
}

/// CSS colour of `rgba`.
pub fn css(rgba: [u8; 4]) -> String {
    format!("rgb({},{},{})", rgba[0], rgba[1], rgba[2])
}

/// The `<path>` elements of marker `bit` at `(x, y)`, `size` px square (SVG export).
pub fn svg_paths(bit: u8, x: f32, y: f32, size: f32) -> String {
    let mut out = String::new();
    for (i, (pts, rgba)) in shapes(bit).iter().enumerate() {
        let stroke = if i == 0 { format!(r#" stroke="{}" stroke-width="{:.2}""#, css(OUTLINE_RGBA), size / 16.0) } else { String::new() };
        let name = if bit == FIRE { "fire" } else { "star" };
        let _ = write!(out, r#"<path class="marker-{name}" d="{}" fill="{}"{stroke}/>"#, path_data(pts, x, y, size), css(*rgba));
    }
    out
}

/// Draws marker `bit` at `(x, y)` (top-left), `size` CSS px square, on a 2D context.
pub fn draw(ctx: &web_sys::CanvasRenderingContext2d, bit: u8, x: f32, y: f32, size: f32) {
    for (i, (pts, rgba)) in shapes(bit).iter().enumerate() {
        ctx.begin_path();
        for (k, (px, py)) in pts.iter().enumerate() {
            let (cx, cy) = (f64::from(x + px * size), f64::from(y + py * size));
            if k == 0 {
                ctx.move_to(cx, cy);
            } else {
                ctx.line_to(cx, cy);
            }
        }
        ctx.close_path();
        ctx.set_fill_style_str(&css(*rgba));
        ctx.fill();
        if i == 0 {
            ctx.set_stroke_style_str(&css(OUTLINE_RGBA));
            ctx.set_line_width(f64::from((size / 14.0).max(0.6)));
            ctx.stroke();
        }
    }
}

/// The marker as an inline SVG icon (legend, details), `data-marker` = `fire` / `star`.
#[component]
pub fn MarkerIcon(bit: u8) -> impl IntoView {
    let name = if bit == FIRE { "fire" } else { "star" };
    let paths = shapes(bit)
        .into_iter()
        .enumerate()
        .map(|(i, (pts, rgba))| {
            let d = path_data(&pts, 0.0, 0.0, 12.0);
            let (stroke, width) = if i == 0 { (css(OUTLINE_RGBA), "0.8") } else { ("none".to_string(), "0") };
            view! { <path d=d fill=css(rgba) stroke=stroke stroke-width=width/> }
        })
        .collect_view();
    view! {
        <svg class="dep-marker-icon" data-marker=name width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">{paths}</svg>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_stay_in_their_box_and_paths_close() {
        for bit in [FIRE, STAR] {
            for (pts, _) in shapes(bit) {
                assert!(pts.len() >= 7);
                assert!(pts.iter().all(|&(x, y)| (0.0..=1.0).contains(&x) && (0.0..=1.0).contains(&y)));
            }
        }
        let d = path_data(&star(), 10.0, 20.0, 10.0);
        assert!(d.starts_with("M15.00 20.30 ") && d.ends_with('Z'), "{d}");
        assert_eq!(svg_paths(STAR, 0.0, 0.0, 12.0).matches("<path").count(), 1);
        assert_eq!(svg_paths(FIRE, 0.0, 0.0, 12.0).matches("<path").count(), 2);
    }
}
