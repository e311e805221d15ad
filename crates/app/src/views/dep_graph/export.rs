//! The graph view's exports, for whoever takes the graph elsewhere: PNG (the canvases as
//! drawn, like the swimlane's), SVG of the whole graph (nodes as `<rect>`s, edges as `<path>`s
//! with arrow heads, the markers as the same drawn shapes, labels as real `<text>`) and CSV of
//! the graph's nodes (task, function, kind, SPMD blocks, markers, in / out degree of the shown
//! edges, position; `table::to_csv`'s quoting). The SVG and CSV builders are plain Rust,
//! tested natively.

use std::fmt::Write as _;

use pypto_protocol::dep_graph::DEP_KIND_NAMES;
use wasm_bindgen::JsCast;

use super::markers::{self, FIRE, STAR};
use super::{GraphData, Renderer, KIND_ALLOC, KIND_DUMMY};
use crate::table::{to_csv, Cell, Column, TableData};

/// Margin around the drawing in the SVG, layout px.
const SVG_MARGIN: f32 = 16.0;

/// Saves the canvases as drawn (GL drawing, then the text and markers over it) as a PNG.
pub(super) fn export_png(r: &mut Renderer) {
    // Draw now so the GL drawing buffer holds this frame while it is copied.
    r.frame();
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let (gl_canvas, text_canvas) = (r.gl.canvas(), r.text.canvas());
    let Some(out) = document.create_element("canvas").ok().and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok()) else { return };
    out.set_width(gl_canvas.width());
    out.set_height(gl_canvas.height());
    let Some(ctx) = out.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok()) else {
        return;
    };
    let (w, h) = (f64::from(out.width()), f64::from(out.height()));
    ctx.set_fill_style_str("#fbfbfc");
    ctx.fill_rect(0.0, 0.0, w, h);
    let _ = ctx.draw_image_with_html_canvas_element_and_dw_and_dh(gl_canvas, 0.0, 0.0, w, h);
    let _ = ctx.draw_image_with_html_canvas_element_and_dw_and_dh(text_canvas, 0.0, 0.0, w, h);
    if let Ok(url) = out.to_data_url_with_type("image/png") {
        crate::browser::download_url("pypto-task-graph.png", &url);
    }
}

fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// `text` cut to about `max_px` at `char_px` per character, with an ellipsis when cut.
fn fitted(text: &str, max_px: f32, char_px: f32) -> String {
    let room = (max_px / char_px).floor().max(1.0) as usize;
    if text.chars().count() <= room {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(room.saturating_sub(1)).collect();
        s.push('…');
        s
    }
}

fn rgb(c: [u8; 4]) -> String {
    format!("rgb({},{},{})", c[0], c[1], c[2])
}

/// The whole graph as SVG in layout coordinates (1 unit = 1 px at zoom 1).
pub(super) fn to_svg(d: &GraphData) -> String {
    let [x0, y0, x1, y1] = d.bbox;
    let (vx, vy) = (x0 - SVG_MARGIN, y0 - SVG_MARGIN);
    let (vw, vh) = (x1 - x0 + 2.0 * SVG_MARGIN, y1 - y0 + 2.0 * SVG_MARGIN);
    let mut s = String::with_capacity(256 + d.x.len() * 400 + d.points.len() * 8);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{vx:.1} {vy:.1} {vw:.1} {vh:.1}" width="{vw:.0}" height="{vh:.0}" font-family="system-ui, sans-serif">"#
    );
    let _ = write!(
        s,
        r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10Z" fill="{}"/></marker></defs>"#,
        rgb(crate::settings::canvas_palette().edge)
    );
    let _ = write!(s, r##"<rect x="{vx:.1}" y="{vy:.1}" width="{vw:.1}" height="{vh:.1}" fill="#fbfbfc"/>"##);
    s.push_str(r#"<g class="edges" fill="none" stroke-width="1.2" stroke=""#);
    s.push_str(&rgb(crate::settings::canvas_palette().edge));
    s.push_str(r#"">"#);
    for e in 0..d.pred.len() {
        let a = d.point_offsets.get(e).copied().unwrap_or(0) as usize;
        let b = d.point_offsets.get(e + 1).copied().unwrap_or(0) as usize;
        if b < a + 2 {
            continue;
        }
        s.push_str(r#"<path d=""#);
        for p in a..b {
            let (x, y) = d.point(p);
            let _ = write!(s, "{}{x:.1} {y:.1}", if p == a { 'M' } else { 'L' });
        }
        s.push_str(r#"" marker-end="url(#arrow)"/>"#);
    }
    s.push_str("</g><g class=\"nodes\">");
    for i in 0..d.x.len() {
        let (w, h) = (d.w[i], d.h[i]);
        let (x, y) = (d.x[i] - w / 2.0, d.y[i] - h / 2.0);
        let kind = d.kind.get(i).copied().unwrap_or(KIND_DUMMY);
        let fill = crate::settings::canvas_palette().node_kinds.get(kind as usize).copied().unwrap_or([128, 128, 128, 255]);
        let hollow = kind == KIND_ALLOC || kind == KIND_DUMMY;
        let blocks = d.block_num.get(i).copied().unwrap_or(1);
        let _ = write!(s, r#"<g class="node" data-task="{}">"#, xml_escape(d.label(i)));
        if blocks > 1 {
            for k in [2.0f32, 1.0] {
                let _ = write!(
                    s,
                    r#"<rect x="{:.1}" y="{:.1}" width="{w:.1}" height="{h:.1}" fill="{}"/>"#,
                    x + 3.0 * k,
                    y - 3.0 * k,
                    rgb([fill[0] / 2 + 100, fill[1] / 2 + 100, fill[2] / 2 + 100, 255])
                );
            }
        }
        let (body, stroke) = if hollow {
            ("rgb(250,248,240)".to_string(), format!(r#" stroke="{}" stroke-width="2""#, rgb(fill)))
        } else if blocks > 1 {
            (rgb(fill), format!(r#" stroke="{}" stroke-width="1.5""#, rgb(crate::settings::canvas_palette().danger)))
        } else {
            (rgb(fill), String::new())
        };
        let _ = write!(s, r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{body}"{stroke}/>"#);
        let marks = d.markers.get(i).copied().unwrap_or(0);
        let icon = (h * 0.3).clamp(8.0, 12.0);
        let mut tx = x + 5.0;
        for bit in [FIRE, STAR] {
            if marks & bit != 0 {
                s.push_str(&markers::svg_paths(bit, tx, y + h * 0.32 - icon / 2.0, icon));
                tx += icon + 2.0;
            }
        }
        let fg = if hollow { "rgb(40,40,40)" } else { "#fff" };
        let _ = write!(
            s,
            r#"<text x="{tx:.1}" y="{:.1}" font-size="11" font-weight="600" fill="{fg}" dominant-baseline="middle">{}</text>"#,
            y + h * 0.32,
            xml_escape(&fitted(d.name(i), x + w - 5.0 - tx, 6.4))
        );
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="10" font-family="ui-monospace, monospace" fill="{fg}" dominant-baseline="middle">{}</text>"#,
            x + 5.0,
            y + h * 0.72,
            xml_escape(d.label(i))
        );
        if blocks > 1 {
            let _ = write!(
                s,
                r#"<text x="{:.1}" y="{:.1}" font-size="11" font-weight="600" fill="rgb(255,235,235)" text-anchor="end" dominant-baseline="middle">×{blocks}</text>"#,
                x + w - 4.0,
                y + h * 0.72
            );
        }
        s.push_str("</g>");
    }
    s.push_str("</g></svg>\n");
    s
}

/// The graph's nodes as a table (the CSV export).
pub(super) fn node_table(d: &GraphData) -> TableData {
    let columns = vec![
        Column::text("task", "task", 80.0),
        Column::text("function", "function", 160.0),
        Column::text("kind", "kind", 60.0),
        Column::num("block_num", "block_num", 70.0),
        Column::text("markers", "markers", 90.0),
        Column::num("in", "in-degree", 70.0),
        Column::num("out", "out-degree", 70.0),
        Column::num("x", "x", 70.0),
        Column::num("y", "y", 70.0),
    ];
    let rows = (0..d.x.len())
        .map(|i| {
            let m = d.markers.get(i).copied().unwrap_or(0);
            let marks: Vec<&str> =
                [(FIRE, "early-dispatch"), (STAR, "all-preds-early")].iter().filter(|(b, _)| m & b != 0).map(|(_, n)| *n).collect();
            vec![
                Cell::text(d.label(i)),
                Cell::text(d.name(i)),
                Cell::text(DEP_KIND_NAMES.get(d.kind.get(i).copied().unwrap_or(KIND_DUMMY) as usize).copied().unwrap_or("?")),
                Cell::count(u64::from(d.block_num.get(i).copied().unwrap_or(1))),
                Cell::text(marks.join(" ")),
                Cell::count(d.in_adj.get(i).map_or(0, Vec::len) as u64),
                Cell::count(d.out_adj.get(i).map_or(0, Vec::len) as u64),
                Cell::num(f64::from(d.x[i]), 1),
                Cell::num(f64::from(d.y[i]), 1),
            ]
        })
        .collect();
    TableData { columns, rows }
}

/// The nodes CSV (header row, then one row per node in node order).
pub(super) fn nodes_csv(d: &GraphData) -> String {
    let t = node_table(d);
    let order: Vec<u32> = (0..t.rows.len() as u32).collect();
    to_csv(&t, &order)
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample_graph;
    use super::*;

    #[test]
    fn svg_has_nodes_edges_and_text_labels() {
        let d = sample_graph();
        let svg = to_svg(&d);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(svg.matches("<g class=\"node\"").count(), 3);
        assert_eq!(svg.matches("marker-end=\"url(#arrow)\"").count(), 2, "one path per edge");
        assert!(svg.contains(">t1</text>") && svg.contains(">qk &lt;matmul&gt;</text>"), "labels are escaped text");
        assert!(svg.contains(">×4</text>"), "SPMD badge");
        assert_eq!(svg.matches("class=\"marker-fire\"").count(), 2, "the fire marker: outline and core");
        assert_eq!(svg.matches("class=\"marker-star\"").count(), 1);
        assert!(!svg.contains('🔥') && !svg.contains('⭐'));
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn csv_has_a_header_and_a_row_per_node() {
        let csv = nodes_csv(&sample_graph());
        let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
        assert_eq!(lines[0], "task,function,kind,block_num,markers,in-degree,out-degree,x,y");
        assert_eq!(lines.len(), 4);
        assert!(lines[1].starts_with("t1,qk <matmul>,AIC,4,early-dispatch,0,1,"), "{}", lines[1]);
        assert!(lines[2].starts_with("t2,softmax,AIV,1,all-preds-early,2,0,"), "{}", lines[2]);
    }

    #[test]
    fn long_names_are_cut() {
        assert_eq!(fitted("abcdef", 100.0, 10.0), "abcdef");
        assert_eq!(fitted("abcdefghijklmnop", 50.0, 10.0), "abcd…");
    }
}
