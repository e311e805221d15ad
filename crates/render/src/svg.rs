//! SVG export of what a view draws, for whoever exports a canvas view as a vector image (the
//! swimlane's "SVG" button): [`SvgDoc`] collects rectangles, lines, arrows and text — text as
//! `<text>` elements, never as paths — in CSS pixels with the origin at the top left, the same
//! coordinates [`crate::GlRenderer`] and [`crate::text::TextOverlay`] draw in, and clip groups
//! for the GL scissor rectangles. [`crate::text::TextOverlay`] can record its drawing into one
//! (`start_recording` / `take_recording`), so the export shows exactly what the frame drew.
//! Pure string building: tested natively.

use std::fmt::Write as _;

use crate::text::TextAlign;
use crate::{LineInstance, RectInstance};

/// An SVG document being built: elements in drawing order (later ones on top).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SvgDoc {
    width_px: f32,
    height_px: f32,
    defs: String,
    body: String,
    clips: u32,
    open_groups: u32,
}

/// Escapes `&`, `<`, `>`, `"` and `'` for text and attribute values, and drops the control
/// characters XML 1.0 does not allow.
pub fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}

/// A number as SVG wants it: at most 2 decimals, no trailing zeros, `0` for non-finite values.
fn num(v: f32) -> String {
    if !v.is_finite() {
        return "0".to_owned();
    }
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" || s.is_empty() {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

/// `fill="rgb(r,g,b)"` plus `fill-opacity` when not opaque (attribute `name`).
fn paint(name: &str, [r, g, b, a]: [u8; 4]) -> String {
    if a == 255 {
        format!(r#"{name}="rgb({r},{g},{b})""#)
    } else {
        format!(r#"{name}="rgb({r},{g},{b})" {name}-opacity="{:.3}""#, f32::from(a) / 255.0)
    }
}

impl SvgDoc {
    /// An empty document `width_px` × `height_px` (CSS px; also its `viewBox`).
    pub fn new(width_px: f32, height_px: f32) -> Self {
        Self { width_px, height_px, ..Self::default() }
    }

    /// Fills the whole document with `rgba`.
    pub fn background(&mut self, rgba: [u8; 4]) {
        self.rect(0.0, 0.0, self.width_px, self.height_px, rgba);
    }

    /// A filled rectangle; empty or transparent ones are left out.
    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, rgba: [u8; 4]) {
        if w <= 0.0 || h <= 0.0 || rgba[3] == 0 {
            return;
        }
        let _ =
            writeln!(self.body, r#"<rect x="{}" y="{}" width="{}" height="{}" {}/>"#, num(x), num(y), num(w), num(h), paint("fill", rgba));
    }

    /// The instanced rectangles the GL renderer draws.
    pub fn rects(&mut self, rects: &[RectInstance]) {
        for r in rects {
            self.rect(r.x, r.y, r.w, r.h, r.rgba);
        }
    }

    /// A line segment `width` px thick (butt ends).
    pub fn line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, width: f32, rgba: [u8; 4]) {
        if rgba[3] == 0 || width <= 0.0 {
            return;
        }
        let _ = writeln!(
            self.body,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke-width="{}" {}/>"#,
            num(x0),
            num(y0),
            num(x1),
            num(y1),
            num(width),
            paint("stroke", rgba)
        );
    }

    /// The GL renderer's lines.
    pub fn lines(&mut self, lines: &[LineInstance]) {
        for l in lines {
            self.line(l.x0, l.y0, l.x1, l.y1, l.width, l.rgba);
        }
    }

    /// Arrows as the GL renderer draws them: a shaft that stops where a filled head
    /// `head_len` px long (as wide) begins at `(x1, y1)`.
    pub fn arrows(&mut self, arrows: &[LineInstance], head_len: f32) {
        for a in arrows {
            let (dx, dy) = (a.x1 - a.x0, a.y1 - a.y0);
            let len = dx.hypot(dy);
            if len <= f32::EPSILON {
                continue;
            }
            let head = head_len.min(len);
            let (ux, uy) = (dx / len, dy / len);
            let (bx, by) = (a.x1 - ux * head, a.y1 - uy * head);
            self.line(a.x0, a.y0, bx, by, a.width, a.rgba);
            let (px, py) = (-uy * head / 2.0, ux * head / 2.0);
            let _ = writeln!(
                self.body,
                r#"<polygon points="{},{} {},{} {},{}" {}/>"#,
                num(a.x1),
                num(a.y1),
                num(bx + px),
                num(by + py),
                num(bx - px),
                num(by - py),
                paint("fill", a.rgba)
            );
        }
    }

    /// Text left-, centre- or right-anchored at `x`, vertically centred on `y` (as the text
    /// overlay draws it), in the CSS font `css_font` (e.g. `600 11px system-ui, sans-serif`).
    #[allow(clippy::too_many_arguments)] // the overlay's call, one to one
    pub fn text(&mut self, text: &str, x: f32, y: f32, css_font: &str, rgba: [u8; 4], align: TextAlign) {
        if text.is_empty() || rgba[3] == 0 {
            return;
        }
        let anchor = match align {
            TextAlign::Left => "start",
            TextAlign::Center => "middle",
            TextAlign::Right => "end",
        };
        let _ = writeln!(
            self.body,
            r#"<text x="{}" y="{}" dominant-baseline="central" text-anchor="{anchor}" style="font: {}; white-space: pre" {}>{}</text>"#,
            num(x),
            num(y),
            escape_xml(css_font),
            paint("fill", rgba),
            escape_xml(text)
        );
    }

    /// Starts a group clipped to the rectangle (the GL scissor); close it with [`Self::end_group`].
    pub fn begin_clip(&mut self, x: f32, y: f32, w: f32, h: f32) {
        self.clips += 1;
        let id = format!("clip{}", self.clips);
        let _ = writeln!(
            self.defs,
            r#"<clipPath id="{id}"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath>"#,
            num(x),
            num(y),
            num(w.max(0.0)),
            num(h.max(0.0))
        );
        let _ = writeln!(self.body, r#"<g clip-path="url(#{id})">"#);
        self.open_groups += 1;
    }

    /// Closes the innermost group (no-op when none is open).
    pub fn end_group(&mut self) {
        if self.open_groups > 0 {
            self.body.push_str("</g>\n");
            self.open_groups -= 1;
        }
    }

    /// A comment (what the export shows: view, dataset, time range), escaped.
    pub fn comment(&mut self, text: &str) {
        let _ = writeln!(self.body, "<!-- {} -->", escape_xml(text).replace("--", "- -"));
    }

    /// The document as SVG 1.1 text (open groups closed).
    pub fn finish(mut self) -> String {
        while self.open_groups > 0 {
            self.end_group();
        }
        let (w, h) = (num(self.width_px), num(self.height_px));
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n<defs>\n{}</defs>\n{}</svg>\n",
            self.defs, self.body
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_drops_control_characters() {
        assert_eq!(escape_xml(r#"a<b>&"c"'d'"#), "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;");
        assert_eq!(escape_xml("x\u{1}y\u{7}z"), "xyz");
        assert_eq!(escape_xml("µs 中文 ▾"), "µs 中文 ▾");
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.256), "1.26");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(f32::NAN), "0");
        assert_eq!(num(150.5), "150.5");
    }

    #[test]
    fn document_holds_shapes_text_and_clips_in_order() {
        let mut d = SvgDoc::new(200.0, 100.0);
        d.background([250, 250, 252, 255]);
        d.begin_clip(10.0, 0.0, 190.0, 100.0);
        d.rects(&[RectInstance { x: 12.0, y: 4.0, w: 30.0, h: 16.0, rgba: [200, 10, 20, 128] }]);
        d.rect(0.0, 0.0, 0.0, 10.0, [0, 0, 0, 255]); // empty: left out
        d.arrows(&[LineInstance { x0: 0.0, y0: 10.0, x1: 100.0, y1: 10.0, width: 1.5, rgba: [1, 2, 3, 255] }], 7.0);
        d.end_group();
        d.text("AIC_0 <x>", 4.0, 11.0, "600 11px system-ui, sans-serif", [30, 70, 160, 255], TextAlign::Left);
        let s = d.finish();
        assert!(s.starts_with("<?xml"));
        assert!(s.contains(r#"width="200" height="100" viewBox="0 0 200 100""#));
        assert!(s.contains(r#"<clipPath id="clip1"><rect x="10" y="0" width="190" height="100"/></clipPath>"#));
        assert!(s.contains(r#"<rect x="12" y="4" width="30" height="16" fill="rgb(200,10,20)" fill-opacity="0.502"/>"#));
        assert_eq!(s.matches("<rect ").count(), 3, "background, bar, clip rect: {s}");
        assert!(s.contains(r#"<line x1="0" y1="10" x2="93" y2="10""#), "shaft stops at the head: {s}");
        assert!(s.contains(r#"<polygon points="100,10 93,13.5 93,6.5""#), "{s}");
        assert!(s.contains(">AIC_0 &lt;x&gt;</text>"));
        let (g, text) = (s.find("</g>").unwrap_or(usize::MAX), s.find("<text").unwrap_or(0));
        assert!(g < text, "text after the clipped shapes");
        assert!(s.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn finish_closes_open_groups() {
        let mut d = SvgDoc::new(10.0, 10.0);
        d.begin_clip(0.0, 0.0, 5.0, 5.0);
        d.begin_clip(0.0, 0.0, 2.0, 2.0);
        d.end_group();
        let s = d.finish();
        assert_eq!(s.matches("<g ").count(), s.matches("</g>").count());
    }
}
