//! What the views' exports share (the swimlane's PNG and SVG, the memory map's PNG, the diff
//! panes' PNG, the details panels' CSV): download file names that say what they are — view,
//! dataset, range — ([`file_name`], [`range_part`], [`dataset_name`]), a details panel as a
//! two-column CSV ([`fields_csv`], quoting through [`crate::table::csv_field`], the one CSV
//! quoting of the page), and a PNG of stacked canvases ([`download_canvas_png`]). The name
//! and CSV builders are pure and tested natively.

use wasm_bindgen::JsCast;

use crate::session::Session;
use crate::table::csv_field;

/// Longest slug of one file-name part (chars).
const MAX_PART_CHARS: usize = 60;

/// `text` as a file-name part: ASCII letters, digits, `.`, `_`, `+` and `-` kept, runs of
/// anything else one `_`, no leading `_` or `.`, no trailing `_`, `.` or `-`, at most 60
/// characters.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-') {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    // A leading `-` stays: a negative time (`--3078.876-157022.676us`: −3078.876 to 157022.676).
    let trimmed: String = out.trim_start_matches(['_', '.']).trim_end_matches(['_', '.', '-']).chars().take(MAX_PART_CHARS).collect();
    trimmed.trim_end_matches(['_', '.', '-']).to_owned()
}

/// A time in µs for a file name: at most 3 decimals, no trailing zeros.
fn us_part(t_us: f64) -> String {
    if !t_us.is_finite() {
        return "0".to_owned();
    }
    let s = format!("{t_us:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

/// A time range for a file name: `12.5-40us`.
pub fn range_part(t0_us: f64, t1_us: f64) -> String {
    format!("{}-{}us", us_part(t0_us), us_part(t1_us))
}

/// `view-part-part.ext`: each part slugged ([`slug`]), empty parts left out.
pub fn file_name(view: &str, parts: &[&str], ext: &str) -> String {
    let mut name = slug(view);
    for p in parts {
        let s = slug(p);
        if !s.is_empty() {
            name.push('-');
            name.push_str(&s);
        }
    }
    format!("{name}.{ext}")
}

/// The name of dataset `id` for a file name: the last part of its path in the folder (the
/// folder itself when the dataset is its root), `dataset` when unknown.
pub fn dataset_name(session: Session, id: Option<u32>) -> String {
    let path = id.and_then(|id| session.with_row(id, |r| r.info.path.clone())).unwrap_or_default();
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or_default();
    if last.is_empty() {
        "dataset".to_owned()
    } else {
        last.to_owned()
    }
}

/// A details panel as CSV: the header `field,value`, the title as a first `title` row when
/// given, then one row per field (multi-line values stay one quoted field). CRLF line ends.
pub fn fields_csv(title: Option<&str>, fields: &[(String, String)]) -> String {
    let mut out = String::from("field,value\r\n");
    let mut row = |k: &str, v: &str| {
        out.push_str(&csv_field(k));
        out.push(',');
        out.push_str(&csv_field(v));
        out.push_str("\r\n");
    };
    if let Some(t) = title {
        row("title", t);
    }
    for (k, v) in fields {
        row(k, v);
    }
    out
}

/// Downloads a CSV text (UTF-8 with a byte-order mark, so spreadsheet programs read it as
/// UTF-8).
pub fn download_csv(file_name: &str, csv: &str) {
    crate::browser::download_text(file_name, "text/csv;charset=utf-8", &format!("\u{feff}{csv}"));
}

/// A new off-screen canvas `w` × `h` device px and its 2D context.
pub fn offscreen_canvas(w: u32, h: u32) -> Option<(web_sys::HtmlCanvasElement, web_sys::CanvasRenderingContext2d)> {
    let document = web_sys::window()?.document()?;
    let out = document.create_element("canvas").ok()?.dyn_into::<web_sys::HtmlCanvasElement>().ok()?;
    out.set_width(w.max(1));
    out.set_height(h.max(1));
    let ctx = out.get_context("2d").ok().flatten()?.dyn_into::<web_sys::CanvasRenderingContext2d>().ok()?;
    Some((out, ctx))
}

/// Downloads `canvas` as a PNG named `file_name`.
pub fn download_png(file_name: &str, canvas: &web_sys::HtmlCanvasElement) {
    if let Ok(url) = canvas.to_data_url_with_type("image/png") {
        crate::browser::download_url(file_name, &url);
    }
}

/// Downloads `layers` (stacked canvases of one view, bottom first, e.g. its WebGL canvas and
/// its text overlay) as one PNG of the first layer's size on `background` (a CSS colour). Call
/// it right after drawing the WebGL layer: its drawing buffer is read in the same task.
pub fn download_canvas_png(file_name: &str, layers: &[&web_sys::HtmlCanvasElement], background: &str) {
    let Some(first) = layers.first() else { return };
    let Some((out, ctx)) = offscreen_canvas(first.width(), first.height()) else { return };
    let (w, h) = (f64::from(out.width()), f64::from(out.height()));
    ctx.set_fill_style_str(background);
    ctx.fill_rect(0.0, 0.0, w, h);
    for layer in layers {
        let _ = ctx.draw_image_with_html_canvas_element_and_dw_and_dh(layer, 0.0, 0.0, w, h);
    }
    download_png(file_name, &out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_keep_safe_characters_only() {
        assert_eq!(slug("a2a3sim-L4-TestPagedAttention_CaseMediumLocal"), "a2a3sim-L4-TestPagedAttention_CaseMediumLocal");
        assert_eq!(slug("dfx_outputs/rank0/d0"), "dfx_outputs_rank0_d0");
        assert_eq!(slug("  kernel  (r1t5) : µs/中文 "), "kernel_r1t5_s");
        assert_eq!(slug("../../etc/passwd"), "etc_passwd");
        assert_eq!(slug("___"), "");
        assert_eq!(slug(&"x".repeat(200)).len(), MAX_PART_CHARS);
    }

    #[test]
    fn ranges_are_short_and_exact_to_the_nanosecond() {
        assert_eq!(range_part(0.0, 1250.5), "0-1250.5us");
        assert_eq!(range_part(12.345_67, 40.0), "12.346-40us");
        assert_eq!(range_part(-0.000_1, f64::NAN), "0-0us");
        assert_eq!(file_name("swimlane", &["run", &range_part(-3078.876, 15.0)], "png"), "swimlane-run--3078.876-15us.png");
    }

    #[test]
    fn file_names_say_view_dataset_and_range() {
        let range = range_part(10.0, 250.25);
        assert_eq!(file_name("swimlane", &["a2a3sim-L4-Test", &range], "svg"), "swimlane-a2a3sim-L4-Test-10-250.25us.svg");
        assert_eq!(file_name("memory-map", &["", "kernel main", "tile"], "png"), "memory-map-kernel_main-tile.png");
    }

    #[test]
    fn fields_csv_quotes_commas_quotes_and_newlines() {
        let fields = vec![
            ("Function".to_owned(), "QK_matmul".to_owned()),
            ("Fan-in".to_owned(), "r0t1, r0t2".to_owned()),
            ("Arg 0".to_owned(), "In \"fp16\" shape [1, 2]".to_owned()),
            ("Note".to_owned(), "two\nlines".to_owned()),
            ("名前".to_owned(), "µs".to_owned()),
        ];
        let csv = fields_csv(Some("QK_matmul (r0t3)"), &fields);
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(lines.first(), Some(&"field,value"));
        assert_eq!(lines.get(1), Some(&"title,QK_matmul (r0t3)"));
        assert_eq!(lines.get(2), Some(&"Function,QK_matmul"));
        assert_eq!(lines.get(3), Some(&"Fan-in,\"r0t1, r0t2\""));
        assert_eq!(lines.get(4), Some(&"Arg 0,\"In \"\"fp16\"\" shape [1, 2]\""));
        assert_eq!(lines.get(5), Some(&"Note,\"two\nlines\""));
        assert_eq!(lines.get(6), Some(&"名前,µs"));
        assert_eq!(lines.get(7), Some(&""));
        assert_eq!(lines.len(), 8);
        assert_eq!(fields_csv(None, &[]), "field,value\r\n");
    }
}
