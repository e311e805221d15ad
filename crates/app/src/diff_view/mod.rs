//! The diff panes the IR Pass Trace and the pass-dump comparison share (one diff view for a
//! pass against the snapshot before it, and for a pass's snapshot in run A against the same
//! pass's in run B): a worker-computed [`PassDiffData`] drawn side by side (both panes scroll
//! together) or stacked, unchanged runs folded (expand one or all), both files' line numbers,
//! changed tokens marked, light Python syntax colouring, and a jump to a line (marked until the
//! next jump). Rows are virtualised: only the visible ones are in the DOM.
//!
//! A view makes one [`DiffPanes`] (its signals: the diff, layout, folds, jump, scroll), sets
//! its `diff`, and places [`DiffPanes::view`] where the diff goes; the panes' container carries
//! the test id it is given and `data-rows`, `data-display-rows`, `data-added`, `data-removed`,
//! `data-function`, `data-pass`; fold rows are `diff-fold`. [`DiffPanes::png_button`] downloads
//! the diff as shown as a PNG (`png`).

mod png;

use std::collections::HashSet;
use std::sync::Arc;

use crate::i18n::{t, tr, tr_with, Arg};
use leptos::prelude::*;
use pypto_protocol::pass_trace::{PassDiffColumns, PassDiffData};
use wasm_bindgen::{JsCast, JsValue};

/// Pixel height of a diff row (fixed, for virtualisation).
const ROW_H: f64 = 18.0;
/// Rows rendered beyond the visible ones on each side.
const OVERSCAN: usize = 20;

/// Side by side (both panes scroll together) or stacked (one pane).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    SideBySide,
    Stacked,
}

/// One displayed row: a diff row (with the side shown in the stacked layout: 0 both,
/// 1 before, 2 after) or a folded run (block index, hidden row count).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Disp {
    Row(u32, u8),
    Fold(u32, u32),
}

/// `d` with the texts, line starts and row columns that came beside it as typed arrays (the
/// worker moves them out of the message, `PassDiffData::take_columns`); a reply without
/// columns is returned as it came.
pub fn with_columns(mut d: PassDiffData, columns: &JsValue) -> PassDiffData {
    let get = |name: &str| js_sys::Reflect::get(columns, &JsValue::from_str(name)).ok().filter(|v| !v.is_undefined());
    let names = PassDiffColumns::NAMES;
    if get(names[4]).is_none() {
        return d;
    }
    let bytes = |n: &str| get(n).and_then(|v| v.dyn_into::<js_sys::Uint8Array>().ok()).map(|a| a.to_vec()).unwrap_or_default();
    let u32s = |n: &str| get(n).and_then(|v| v.dyn_into::<js_sys::Uint32Array>().ok()).map(|a| a.to_vec()).unwrap_or_default();
    let i32s = |n: &str| get(n).and_then(|v| v.dyn_into::<js_sys::Int32Array>().ok()).map(|a| a.to_vec()).unwrap_or_default();
    d.put_columns(PassDiffColumns {
        before_text: bytes(names[0]),
        before_starts: u32s(names[1]),
        after_text: bytes(names[2]),
        after_starts: u32s(names[3]),
        kinds: bytes(names[4]),
        before: i32s(names[5]),
        after: i32s(names[6]),
    });
    d
}

pub fn display_rows<S: std::hash::BuildHasher>(d: &PassDiffData, expanded: &HashSet<u32, S>, all: bool, layout: Layout) -> Vec<Disp> {
    let mut out = Vec::new();
    for (bi, &(s, e, folded)) in d.blocks.iter().enumerate() {
        if folded && !all && !expanded.contains(&(bi as u32)) {
            out.push(Disp::Fold(bi as u32, e - s));
            continue;
        }
        for r in s..e {
            let kind = d.kinds.get(r as usize).copied().unwrap_or(0);
            match (layout, kind) {
                (Layout::Stacked, 1) => out.push(Disp::Row(r, 1)),
                (Layout::Stacked, 2) => out.push(Disp::Row(r, 2)),
                (Layout::Stacked, 3) => {
                    out.push(Disp::Row(r, 1));
                    out.push(Disp::Row(r, 2));
                }
                _ => out.push(Disp::Row(r, 0)),
            }
        }
    }
    out
}

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except",
    "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
    "while", "with", "yield",
];

/// Syntax class per byte: 0 plain, 1 keyword, 2 string, 3 comment, 4 number.
fn syntax_classes(line: &str) -> Vec<u8> {
    let bytes = line.as_bytes();
    let mut cls = vec![0u8; bytes.len()];
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes.get(i).copied().unwrap_or(0);
        if c == b'#' {
            cls.iter_mut().skip(i).for_each(|x| *x = 3);
            break;
        }
        if c == b'"' || c == b'\'' {
            let mut j = i + 1;
            while j < bytes.len() && bytes.get(j) != Some(&c) {
                j += if bytes.get(j) == Some(&b'\\') { 2 } else { 1 };
            }
            let end = (j + 1).min(bytes.len());
            cls.iter_mut().take(end).skip(i).for_each(|x| *x = 2);
            i = end;
            continue;
        }
        if c.is_ascii_alphanumeric() || c == b'_' {
            let mut j = i;
            while j < bytes.len()
                && bytes.get(j).is_some_and(|&d| d.is_ascii_alphanumeric() || d == b'_' || (c.is_ascii_digit() && d == b'.'))
            {
                j += 1;
            }
            let word = line.get(i..j).unwrap_or("");
            let k = if c.is_ascii_digit() { 4 } else { u8::from(KEYWORDS.contains(&word)) };
            cls.iter_mut().take(j).skip(i).for_each(|x| *x = k);
            i = j;
            continue;
        }
        i += 1;
    }
    cls
}

/// Lines longer than this (bytes) are shown as one plain span: colouring a 1 MB line of
/// `0, 0, …` made 700 000 spans, which took the page 12 s to build on every render.
const LONG_LINE: usize = 4096;

/// One span of a line's code: its byte range, syntax class (0 plain, 1 keyword, 2 string,
/// 3 comment, 4 number) and whether it is in a changed range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeSpan {
    pub range: std::ops::Range<usize>,
    pub syntax: u8,
    pub changed: bool,
}

/// The code of one line as spans of one syntax class and changed state (a line longer than
/// [`LONG_LINE`]: one plain span, changed when any of it is).
pub fn code_spans(line: &str, changed: &[(u32, u32)]) -> Vec<CodeSpan> {
    if line.len() > LONG_LINE {
        return vec![CodeSpan { range: 0..line.len(), syntax: 0, changed: !changed.is_empty() }];
    }
    let cls = syntax_classes(line);
    let is_changed = |i: usize| changed.iter().any(|&(s, e)| (s as usize) <= i && i < e as usize);
    let mut spans = Vec::new();
    let mut start = 0;
    let n = line.len();
    let mut i = 0;
    while i <= n {
        let boundary =
            i == n || (line.is_char_boundary(i) && i > start && (cls.get(i) != cls.get(start) || is_changed(i) != is_changed(start)));
        if boundary && i > start {
            spans.push(CodeSpan { range: start..i, syntax: cls.get(start).copied().unwrap_or(0), changed: is_changed(start) });
            start = i;
        }
        i += 1;
    }
    spans
}

/// The code of one line as DOM spans: syntax classes, changed ranges marked (`side` 1: the
/// before file's, deleted; else inserted).
fn code_view(line: &str, changed: &[(u32, u32)], side: u8) -> AnyView {
    let ch = if side == 1 { "tok-del" } else { "tok-ins" };
    if line.len() > LONG_LINE {
        let ch = if changed.is_empty() { "" } else { ch };
        return view! { <span class=ch title=tr_with("pt-long-line", &[("count", Arg::from(line.chars().count()))])>{line.to_owned()}</span> }
            .into_any();
    }
    code_spans(line, changed)
        .into_iter()
        .map(|sp| {
            let syn = ["", "syn-kw", "syn-str", "syn-com", "syn-num"].get(sp.syntax as usize).copied().unwrap_or("");
            let class = match (syn.is_empty(), sp.changed) {
                (_, false) => syn.to_owned(),
                (true, true) => ch.to_owned(),
                (false, true) => format!("{syn} {ch}"),
            };
            view! { <span class=class>{line.get(sp.range).unwrap_or("").to_owned()}</span> }
        })
        .collect_view()
        .into_any()
}

/// What one pane row of a diff row shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowCells {
    /// `diff-row` plus `diff-del`, `diff-ins` or `diff-empty`.
    pub class: &'static str,
    /// Line numbers (1-based; empty where the file has no line): the pane's file, or before
    /// and after in the stacked pane.
    pub numbers: (String, String),
    /// `-`, `+` or a space.
    pub mark: &'static str,
    pub text: String,
    /// Changed byte ranges of `text`.
    pub changed: Vec<(u32, u32)>,
    /// The file shown: 1 before, 2 after.
    pub show: u8,
    /// 0-based line of the shown file (−1 none) and of the before file.
    pub line: i32,
    pub before_line: i32,
}

/// Diff row `row` in pane `side` (1 before, 2 after, 0 stacked, where `st_side` says which
/// side the display row shows: 0 both, 1 before, 2 after).
pub fn row_cells(d: &PassDiffData, row: u32, st_side: u8, side: u8) -> RowCells {
    let kind = d.kinds.get(row as usize).copied().unwrap_or(0);
    let b = d.before.get(row as usize).copied().unwrap_or(-1);
    let a = d.after.get(row as usize).copied().unwrap_or(-1);
    // `changes` is in row order.
    let ch = d.changes.binary_search_by_key(&row, |c| c.0).ok().and_then(|k| d.changes.get(k));
    // Which file this pane row shows.
    let show = match (side, st_side) {
        (0, 1) => 1,
        (0, _) => 2,
        _ => side,
    };
    let idx = if show == 1 { b } else { a };
    let lines = if show == 1 { &d.before_lines } else { &d.after_lines };
    let text = usize::try_from(idx).ok().and_then(|i| lines.get(i)).unwrap_or_default().to_owned();
    let changed: Vec<(u32, u32)> = ch.map(|c| if show == 1 { c.1.clone() } else { c.2.clone() }).unwrap_or_default();
    let class = match (kind, idx < 0, show) {
        (0, ..) => "diff-row",
        (_, true, _) => "diff-row diff-empty",
        (_, false, 1) => "diff-row diff-del",
        _ => "diff-row diff-ins",
    };
    let num = |v: i32| if v < 0 { String::new() } else { (v + 1).to_string() };
    let numbers = if side == 0 {
        (if st_side == 2 { String::new() } else { num(b) }, if st_side == 1 { String::new() } else { num(a) })
    } else {
        (num(idx), String::new())
    };
    let mark = match class {
        "diff-row diff-del" => "-",
        "diff-row diff-ins" => "+",
        _ => " ",
    };
    RowCells { class, numbers, mark, text, changed, show, line: idx, before_line: b }
}

/// A file's name without its directory and `.py`.
fn file_stem(path: &str) -> &str {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    name.strip_suffix(".py").unwrap_or(name)
}

fn scroll_el(r: NodeRef<leptos::html::Div>) -> Option<web_sys::Element> {
    r.get_untracked().map(JsCast::unchecked_into::<web_sys::Element>)
}

/// The diff panes' state: `Copy` handles, made once per mounted view.
#[derive(Clone, Copy)]
pub struct DiffPanes {
    /// The diff shown (`None`: nothing yet).
    pub diff: RwSignal<Option<Arc<PassDiffData>>>,
    pub layout: RwSignal<Layout>,
    /// Folded runs (block indices) the user expanded.
    pub expanded: RwSignal<HashSet<u32>>,
    pub expand_all: RwSignal<bool>,
    /// The line (side 1 before / 2 after, 0-based line) a jump went to, marked until the next.
    pub jump_line: RwSignal<Option<(u8, i32)>>,
    scroll_top: RwSignal<f64>,
    view_h: RwSignal<f64>,
    left: NodeRef<leptos::html::Div>,
    right: NodeRef<leptos::html::Div>,
    /// The displayed rows of the diff under the layout and folds.
    pub disp: Memo<Vec<Disp>>,
}

impl DiffPanes {
    /// Panes in `layout`; a new diff scrolls them back to the top (and forgets the jump).
    pub fn new(layout: Layout) -> Self {
        let diff: RwSignal<Option<Arc<PassDiffData>>> = RwSignal::new(None);
        let layout = RwSignal::new(layout);
        let expanded: RwSignal<HashSet<u32>> = RwSignal::new(HashSet::new());
        let expand_all = RwSignal::new(false);
        let disp = Memo::new(move |_| {
            let lay = layout.get();
            let all = expand_all.get();
            diff.with(|d| d.as_ref().map(|d| expanded.with(|e| display_rows(d, e, all, lay))).unwrap_or_default())
        });
        let panes = Self {
            diff,
            layout,
            expanded,
            expand_all,
            jump_line: RwSignal::new(None),
            scroll_top: RwSignal::new(0.0),
            view_h: RwSignal::new(800.0),
            left: NodeRef::new(),
            right: NodeRef::new(),
            disp,
        };
        Effect::new(move |_| {
            diff.track();
            panes.jump_line.set(None);
            panes.scroll_top.set(0.0);
            for r in [panes.left, panes.right] {
                if let Some(e) = scroll_el(r) {
                    e.set_scroll_top(0);
                }
            }
        });
        panes
    }

    /// Shows `diff` (folds closed again).
    pub fn show(self, diff: PassDiffData) {
        self.expanded.set(HashSet::new());
        self.diff.try_set(Some(Arc::new(diff)));
    }

    /// Scrolls so that line `line` (1-based) of side `side` (1 before, 2 after) is visible,
    /// unfolding its run.
    pub fn jump_to(self, side: u8, line: u32) {
        let Self { diff, jump_line, expanded, disp, left, right, scroll_top, .. } = self;
        let Some(d) = diff.get_untracked() else { return };
        let target = line.saturating_sub(1).cast_signed();
        jump_line.set(Some((side, target)));
        let lines = if side == 1 { &d.before } else { &d.after };
        let Some(row) = lines.iter().position(|&a| a == target) else { return };
        let row = row as u32;
        if let Some(bi) = d.blocks.iter().position(|&(s, e, f)| f && s <= row && row < e) {
            expanded.update(|x| {
                x.insert(bi as u32);
            });
        }
        let rows = disp.get_untracked();
        // The row's display row (stacked: the line's own side, 1 or 2, or 0 for both).
        let other = 3 - side;
        let Some(pos) = rows.iter().position(|r| matches!(r, Disp::Row(x, s) if *x == row && *s != other)) else { return };
        let top = (pos as f64 * ROW_H - 3.0 * ROW_H).max(0.0);
        set_timeout(
            move || {
                for r in [left, right] {
                    if let Some(e) = scroll_el(r) {
                        e.set_scroll_top(top as i32);
                    }
                }
                scroll_top.set(top);
            },
            std::time::Duration::ZERO,
        );
    }

    /// A "PNG" button (test id `testid`) that downloads the diff as shown:
    /// `<view_name>-<before>-vs-<after>[-<function>].png`.
    pub fn png_button(self, testid: &'static str, view_name: &'static str) -> impl IntoView {
        let on_click = move |_| {
            let name = self.diff.with_untracked(|d| {
                d.as_ref().map(|d| {
                    let function = d.function.as_deref().unwrap_or("");
                    crate::exports::file_name(view_name, &[file_stem(&d.before_file), "vs", file_stem(&d.after_file), function], "png")
                })
            });
            if let Some(name) = name {
                self.export_png(&name);
            }
        };
        view! {
            <button data-testid=testid title=t("app-download-the-diff-as-shown") disabled=move || self.diff.with(Option::is_none)
                on:click=on_click>"PNG"</button>
        }
    }

    /// The panes (side by side or stacked), in a container with test id `testid`.
    #[allow(clippy::too_many_lines)] // the panes' rows, scrolling and markup read best in one place
    pub fn view(self, testid: &'static str) -> impl IntoView {
        let Self { diff, layout, expanded, jump_line, scroll_top, view_h, left, right, disp, .. } = self;
        let on_scroll = move |from: NodeRef<leptos::html::Div>, other: NodeRef<leptos::html::Div>| {
            if let Some(e) = scroll_el(from) {
                let (t, l) = (e.scroll_top(), e.scroll_left());
                view_h.set(f64::from(e.client_height()).max(100.0));
                scroll_top.set(f64::from(t));
                if let Some(o) = scroll_el(other) {
                    if o.scroll_top() != t {
                        o.set_scroll_top(t);
                    }
                    if o.scroll_left() != l {
                        o.set_scroll_left(l);
                    }
                }
            }
        };

        // One pane: `side` 1 = before, 2 = after (side-by-side), 0 = stacked.
        let pane = move |side: u8, node: NodeRef<leptos::html::Div>, other: NodeRef<leptos::html::Div>| {
            let rows_view = move || {
                let rows = disp.get();
                jump_line.track();
                let Some(d) = diff.get() else { return Vec::new() };
                let first = ((scroll_top.get() / ROW_H) as usize).saturating_sub(OVERSCAN);
                let count = (view_h.get() / ROW_H) as usize + 2 * OVERSCAN;
                rows.iter()
                    .enumerate()
                    .skip(first)
                    .take(count)
                    .map(|(i, r)| {
                        let top = format!("top:{}px", i as f64 * ROW_H);
                        match *r {
                            Disp::Fold(bi, n) => view! {
                                <div class="diff-row diff-fold" data-testid="diff-fold" style=top
                                    on:click=move |_| expanded.update(|x| { x.insert(bi); })>
                                    {tr_with("pt-unchanged-lines", &[("count", Arg::from(n))])}
                                </div>
                            }
                            .into_any(),
                            Disp::Row(row, st_side) => {
                                let RowCells { class: cls, numbers: (n1, n2), mark, text, changed, show, line: idx, before_line: b } =
                                    row_cells(&d, row, st_side, side);
                                let code_side = if show == 1 { 1 } else { 2 };
                                // (a stacked unchanged row is both sides' line)
                                let jump = jump_line.get_untracked();
                                let jumped = (idx >= 0 && jump == Some((show, idx)))
                                    || (st_side == 0 && side == 0 && b >= 0 && jump == Some((1, b)));
                                view! {
                                    <div class=cls class:diff-jump=jumped style=top data-line=(idx + 1).to_string()>
                                        <span class="ln">{n1}</span>
                                        {(side == 0).then(|| view! { <span class="ln">{n2}</span> })}
                                        <span class="mk">{mark}</span>
                                        <span class="code">{code_view(&text, &changed, code_side)}</span>
                                    </div>
                                }
                                .into_any()
                            }
                        }
                    })
                    .collect::<Vec<_>>()
            };
            let width_ch = move || {
                diff.with(|d| {
                    d.as_ref().map_or(80, |d| {
                        let (b, a) = (d.before_lines.max_chars, d.after_lines.max_chars);
                        match side {
                            1 => b,
                            2 => a,
                            _ => b.max(a),
                        }
                    })
                })
            };
            view! {
                // Focusable, so the keyboard scrolls it too (arrows, Page Up/Down).
                <div class="diff-pane" node_ref=node tabindex="0" role="region"
                    aria-label=move || tr(match side {
                        1 => "app-diff-pane-before",
                        2 => "app-diff-pane-after",
                        _ => "app-diff-pane-stacked",
                    })
                    on:scroll=move |_| on_scroll(node, other)>
                    <div class="diff-inner" style=move || format!("height:{}px;min-width:calc({}ch + 9em)", disp.with(Vec::len) as f64 * ROW_H, width_ch())>
                        {rows_view}
                    </div>
                </div>
            }
        };

        view! {
            <div class="pass-diff" data-testid=testid
                class:stacked=move || layout.get() == Layout::Stacked
                data-rows=move || diff.with(|d| d.as_ref().map_or(0, |d| d.kinds.len())).to_string()
                data-display-rows=move || disp.with(Vec::len).to_string()
                data-added=move || diff.with(|d| d.as_ref().map_or(0, |d| d.added)).to_string()
                data-removed=move || diff.with(|d| d.as_ref().map_or(0, |d| d.removed)).to_string()
                data-function=move || diff.with(|d| d.as_ref().and_then(|d| d.function.clone()).unwrap_or_default())
                data-pass=move || diff.with(|d| d.as_ref().map_or(-1, |d| i64::from(d.pass))).to_string()>
                {move || if layout.get() == Layout::SideBySide {
                    view! { {pane(1, left, right)} {pane(2, right, left)} }.into_any()
                } else {
                    view! { {pane(0, left, right)} }.into_any()
                }}
            </div>
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pypto_protocol::pass_trace::SnapshotLines;

    #[test]
    fn spans_split_at_syntax_and_changes() {
        let line = "x = load(a, 'k')";
        let spans = code_spans(line, &[(4, 8)]);
        let text: Vec<(&str, u8, bool)> = spans.iter().map(|s| (&line[s.range.clone()], s.syntax, s.changed)).collect();
        assert_eq!(text.first(), Some(&("x = ", 0, false)));
        assert!(text.contains(&("load", 0, true)), "{text:?}");
        assert!(text.contains(&("'k'", 2, false)), "{text:?}");
        assert_eq!(spans.iter().map(|s| s.range.len()).sum::<usize>(), line.len());
        let long = "0, ".repeat(LONG_LINE);
        assert_eq!(code_spans(&long, &[(0, 1)]), vec![CodeSpan { range: 0..long.len(), syntax: 0, changed: true }]);
    }

    #[test]
    fn row_cells_name_lines_marks_and_sides() {
        let d = PassDiffData {
            before_file: "a.py".to_owned(),
            after_file: "b.py".to_owned(),
            before_lines: SnapshotLines::from_lines(&["keep", "old"]),
            after_lines: SnapshotLines::from_lines(&["keep", "new", "added"]),
            kinds: vec![0, 3, 2],
            before: vec![0, 1, -1],
            after: vec![0, 1, 2],
            ..PassDiffData::default()
        };
        let c = row_cells(&d, 1, 0, 1);
        assert_eq!((c.class, c.mark, c.text.as_str(), c.numbers.0.as_str()), ("diff-row diff-del", "-", "old", "2"));
        let c = row_cells(&d, 2, 0, 1);
        assert_eq!((c.class, c.text.as_str(), c.numbers.0.as_str()), ("diff-row diff-empty", "", ""));
        let c = row_cells(&d, 2, 2, 0);
        assert_eq!((c.class, c.mark, c.text.as_str()), ("diff-row diff-ins", "+", "added"));
        assert_eq!(c.numbers, (String::new(), "3".to_owned()));
        let c = row_cells(&d, 0, 0, 0);
        assert_eq!((c.class, c.mark, c.numbers.clone()), ("diff-row", " ", ("1".to_owned(), "1".to_owned())));
        assert_eq!(file_stem("dump/12_after_Pass.py"), "12_after_Pass");
    }
}
