//! PNG export of the diff panes as shown, for the IR Pass Trace and the pass comparison: the
//! panes are DOM, so the visible rows — the same [`row_cells`] and [`code_spans`] the DOM rows
//! are made of: line numbers, `+` / `-` marks, deleted / inserted backgrounds, changed tokens,
//! syntax colours, folded runs — are drawn onto an off-screen 2D canvas at twice the CSS size,
//! each pane at its scroll position, under a title strip (files, function, counts). No
//! external service, no `foreignObject`: the text is drawn by the canvas, so it is legible in
//! any browser.

use leptos::prelude::*;

use super::{code_spans, row_cells, scroll_el, DiffPanes, Disp, Layout, RowCells, ROW_H};

/// Device pixels per CSS pixel of the image.
const SCALE: f64 = 2.0;
/// Height of the title strip above the panes (CSS px).
const TITLE_PX: f64 = 24.0;
const CODE_FONT: &str = "12px ui-monospace, \"SF Mono\", Menlo, Consolas, \"DejaVu Sans Mono\", monospace";
const TITLE_FONT: &str = "600 12px system-ui, sans-serif";
/// Width of a line-number column (`.diff-row .ln`: 4.5em of 12px) and of the mark (1.2em).
const NUMBER_PX: f64 = 54.0;
const MARK_PX: f64 = 14.4;
/// Left padding of a fold row's text (`.diff-fold`: 6em of 13px).
const FOLD_PAD_PX: f64 = 78.0;

/// The row background of a [`RowCells::class`].
fn row_background(class: &str) -> &'static str {
    match class {
        "diff-row diff-del" => "#fdecec",
        "diff-row diff-ins" => "#e8f6ee",
        "diff-row diff-empty" => "#f3f3f6",
        _ => "#ffffff",
    }
}

/// Colour and font of a syntax class (`.syn-*` in style.css).
fn syntax_style(syntax: u8) -> (&'static str, &'static str) {
    match syntax {
        1 => ("#8a3ab9", "600 12px ui-monospace, \"SF Mono\", Menlo, Consolas, \"DejaVu Sans Mono\", monospace"),
        2 => ("#a3522c", CODE_FONT),
        3 => ("#6a7a6a", "italic 12px ui-monospace, \"SF Mono\", Menlo, Consolas, \"DejaVu Sans Mono\", monospace"),
        4 => ("#1a6d9a", CODE_FONT),
        _ => ("#1d1f27", CODE_FONT),
    }
}

/// `text` cut to at most `chars` characters (a 1 MB line is not measured whole).
fn prefix(text: &str, chars: usize) -> &str {
    text.char_indices().nth(chars).map_or(text, |(i, _)| text.get(..i).unwrap_or(text))
}

/// One pane's visible rows, drawn at the origin (the caller translates and clips): the pane is
/// `w` × `h` CSS px, scrolled to `(scroll_left, scroll_top)`; `side` as in [`row_cells`].
#[allow(clippy::too_many_arguments, clippy::many_single_char_names)] // the pane's geometry: x, y, w, h
fn draw_pane(
    ctx: &web_sys::CanvasRenderingContext2d,
    d: &pypto_protocol::pass_trace::PassDiffData,
    rows: &[Disp],
    side: u8,
    (w, h): (f64, f64),
    (scroll_left, scroll_top): (f64, f64),
) {
    let numbers_w = if side == 0 { 2.0 * NUMBER_PX } else { NUMBER_PX };
    // Characters that can show in the pane (12px monospace is wider than 6 px a character).
    let max_chars = ((scroll_left + w) / 6.0) as usize + 4;
    let first = (scroll_top / ROW_H).floor().max(0.0) as usize;
    let last = (((scroll_top + h) / ROW_H).ceil().max(0.0) as usize).min(rows.len());
    ctx.set_text_baseline("middle");
    for (i, r) in rows.iter().enumerate().take(last).skip(first) {
        let y = i as f64 * ROW_H - scroll_top;
        let mid = y + ROW_H / 2.0;
        match *r {
            Disp::Fold(_, n) => {
                ctx.set_fill_style_str("#e3eaf9");
                ctx.fill_rect(0.0, y, w, ROW_H);
                ctx.set_fill_style_str("#2d4f9e");
                ctx.set_font("12px system-ui, sans-serif");
                ctx.set_text_align("left");
                let _ = ctx.fill_text(
                    &crate::i18n::tr_with("pt-unchanged-lines-png", &[("count", crate::i18n::Arg::from(n))]),
                    FOLD_PAD_PX - scroll_left,
                    mid,
                );
            }
            Disp::Row(row, st_side) => {
                let RowCells { class, numbers: (n1, n2), mark, text, changed, show, .. } = row_cells(d, row, st_side, side);
                let background = row_background(class);
                ctx.set_fill_style_str(background);
                ctx.fill_rect(0.0, y, w, ROW_H);
                // The mark and the code scroll; the line numbers stay (sticky), drawn over them.
                ctx.set_text_align("left");
                ctx.set_font(CODE_FONT);
                ctx.set_fill_style_str("#656a7a");
                let _ = ctx.fill_text(mark, numbers_w - scroll_left, mid);
                let mut x = numbers_w + MARK_PX - scroll_left;
                let mut budget = max_chars;
                for span in code_spans(&text, &changed) {
                    if budget == 0 || x > w {
                        break;
                    }
                    let part = prefix(text.get(span.range.clone()).unwrap_or(""), budget);
                    budget = budget.saturating_sub(part.chars().count());
                    let (ink, font) = syntax_style(span.syntax);
                    ctx.set_font(font);
                    let width = ctx.measure_text(part).map_or(0.0, |m| m.width());
                    if span.changed {
                        ctx.set_fill_style_str(if show == 1 { "#f6b8b8" } else { "#a9e2bf" });
                        ctx.fill_rect(x, y + 1.0, width, ROW_H - 2.0);
                    }
                    ctx.set_fill_style_str(ink);
                    let _ = ctx.fill_text(part, x, mid);
                    x += width;
                }
                ctx.set_fill_style_str(background);
                ctx.fill_rect(0.0, y, numbers_w, ROW_H);
                ctx.set_font(CODE_FONT);
                ctx.set_text_align("right");
                ctx.set_fill_style_str("#9aa0b0");
                let _ = ctx.fill_text(&n1, NUMBER_PX - 6.0, mid);
                if side == 0 {
                    let _ = ctx.fill_text(&n2, 2.0 * NUMBER_PX - 6.0, mid);
                }
            }
        }
    }
}

impl DiffPanes {
    /// Downloads the diff as shown (the visible rows of each pane at its scroll position, in
    /// the current layout) as a PNG named `file_name`.
    pub fn export_png(self, file_name: &str) {
        let Some(d) = self.diff.get_untracked() else { return };
        let rows = self.disp.get_untracked();
        let panes: Vec<(u8, web_sys::Element)> = if self.layout.get_untracked() == Layout::Stacked {
            scroll_el(self.left).map(|e| (0, e)).into_iter().collect()
        } else {
            [(1, self.left), (2, self.right)].into_iter().filter_map(|(s, r)| scroll_el(r).map(|e| (s, e))).collect()
        };
        // Each pane's box (its border included) and its client (scrolled) area.
        let boxes: Vec<(f64, f64, f64)> = panes
            .iter()
            .map(|(_, e)| (e.get_bounding_client_rect().width(), f64::from(e.client_width()), f64::from(e.client_height())))
            .collect();
        let total_w = boxes.iter().map(|b| b.0).sum::<f64>().max(200.0);
        let panes_h = boxes.iter().map(|b| b.2).fold(ROW_H, f64::max);
        let Some((canvas, ctx)) =
            crate::exports::offscreen_canvas((total_w * SCALE).ceil() as u32, ((panes_h + TITLE_PX) * SCALE).ceil() as u32)
        else {
            return;
        };
        let _ = ctx.scale(SCALE, SCALE);
        ctx.set_fill_style_str("#ffffff");
        ctx.fill_rect(0.0, 0.0, total_w, panes_h + TITLE_PX);
        // The title strip: both files, the function, the counts.
        ctx.set_fill_style_str("#f1f2f6");
        ctx.fill_rect(0.0, 0.0, total_w, TITLE_PX);
        ctx.set_text_baseline("middle");
        ctx.set_text_align("left");
        ctx.set_font(TITLE_FONT);
        ctx.set_fill_style_str("#1d1f27");
        let function = d.function.as_deref().map(|f| format!(" · {f}")).unwrap_or_default();
        let title = format!("{} ⇄ {}{function}   +{} −{}", d.before_file, d.after_file, d.added, d.removed);
        let _ = ctx.fill_text(&title, 8.0, TITLE_PX / 2.0);
        let mut x0 = 0.0;
        for ((side, el), (box_w, client_w, client_h)) in panes.iter().zip(&boxes) {
            ctx.save();
            ctx.begin_path();
            ctx.rect(x0, TITLE_PX, *client_w, *client_h);
            ctx.clip();
            let _ = ctx.translate(x0, TITLE_PX);
            draw_pane(&ctx, &d, &rows, *side, (*client_w, *client_h), (f64::from(el.scroll_left()), f64::from(el.scroll_top())));
            ctx.restore();
            // The pane's right border.
            ctx.set_fill_style_str("#d8dbe4");
            ctx.fill_rect(x0 + box_w - 1.0, TITLE_PX, 1.0, panes_h);
            x0 += box_w;
        }
        crate::exports::download_png(file_name, &canvas);
    }
}
