//! The IR Pass Trace view (toolkit-features.md group N) of a `passes_dump` dataset: the pass
//! list (+added / −removed lines, no-op and warning badges, Changed / No-op / All filters,
//! j/k and arrow keys) and the selected pass's diff against the snapshot before it, computed
//! by the worker: side-by-side (both panes scroll together) or stacked, unchanged runs folded
//! (expand one / all), changed tokens marked, both files' line numbers, light Python syntax
//! colouring, a function filter, and the pass's `.log` warnings (each position jumps to its
//! line). A snapshot that is not valid Python (cut mid-statement, unbalanced brackets,
//! undecodable bytes: the worker checks each) or cut short where Python would read it (empty,
//! a last line without its newline) marks its pass in the list, and its diff — still
//! shown, as read — gets a banner naming file, line, column and problem (each jumps to its
//! line), also when it is the snapshot a pass is compared with. Rows are virtualised: only the
//! visible ones are in the DOM. The selected pass, layout and function filter are `nav` state
//! (so in the URL hash); "▦ map" opens the Memory Reuse view on a snapshot (a `nav` command).
//! Opened from another view (`nav`'s [`CompilerTarget`]: the swimlane's selected kernel, a
//! memory-map tile) it filters to that function — a kernel's by `pypto_vocab::kernel_function`'s
//! rule — and jumps to the tile's defining line, and says so in a note (`compiler-note`,
//! `data-function`, `data-rule`, `data-outcome` = `one` | `several` | `none` | `dump`).
//!
//! Test ids: `pass-trace`, `pass-item` (`data-index`, `data-added`, `data-removed`,
//! `data-noop`, `data-warning`, `data-problem`, `data-snapshot-problem` = the first problem as
//! `file:line:column: message`, `data-selected`), `pass-filter-*`, `pass-layout-*`,
//! `pass-function`, `pass-expand-all`, `pass-diff` (`data-rows`, `data-display-rows`,
//! `data-added`, `data-removed`), `diff-fold`, `pass-warning-jump`, `snapshot-problems` (the
//! banner; items with `data-side` = `after` | `before`, `data-file`, `data-line`,
//! `data-column`), `snapshot-problem-jump`.

use std::collections::HashSet;
use std::sync::Arc;

use leptos::prelude::*;
use pypto_protocol::pass_trace::{PassDiffData, PassDiffRequest, PassListData, PassListRequest, SnapshotProblem};
use pypto_protocol::{DatasetKind, ViewKind};
use wasm_bindgen::JsCast;

use crate::compiler_note::{target_note, CompilerNote, TargetNote};
use crate::nav::{CompilerTarget, MemoryNav, Nav};
use crate::session::DatasetRow;
use crate::view_spec::{no_init, nothing_docked, ViewSpec};
use crate::worker_client::WorkerClient;

/// The registry's entry.
pub const SPEC: ViewSpec = ViewSpec {
    kind: ViewKind::PassTrace,
    title: "IR Pass Trace",
    tooltip: "",
    dataset_kind: DatasetKind::PassDump,
    default: true,
    switchable: true,
    // (asked for a runtime dataset — after "IR Pass Trace" — it is not available there)
    available: |row: &DatasetRow| row.kind() == DatasetKind::PassDump,
    init: no_init,
    component: || view! { <PassTraceView/> }.into_any(),
    docked: nothing_docked,
};

/// The frontend snapshot's file name (the first pass's before side).
const FRONTEND: &str = "00_frontend.py";

/// `file:line:column: message`, as the CLI's `report` prints a snapshot problem.
fn problem_text(p: &SnapshotProblem) -> String {
    format!("{}:{}:{}: {}", p.file, p.line, p.column, p.message)
}

/// Pixel height of a diff row (fixed, for virtualisation).
const ROW_H: f64 = 18.0;
/// Rows rendered beyond the visible ones on each side.
const OVERSCAN: usize = 20;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Filter {
    Changed,
    NoOp,
    All,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    SideBySide,
    Stacked,
}

/// One displayed row: a diff row (with the side shown in the stacked layout: 0 both,
/// 1 before, 2 after) or a folded run (block index, hidden row count).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Disp {
    Row(u32, u8),
    Fold(u32, u32),
}

fn display_rows(d: &PassDiffData, expanded: &HashSet<u32>, all: bool, layout: Layout) -> Vec<Disp> {
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

/// The code of one line as spans: syntax classes, changed ranges marked (a line longer than
/// [`LONG_LINE`]: one span, marked changed when any of it is).
fn code_view(line: &str, changed: &[(u32, u32)], side: u8) -> AnyView {
    if line.len() > LONG_LINE {
        let ch = match (changed.is_empty(), side) {
            (true, _) => "",
            (false, 1) => "tok-del",
            (false, _) => "tok-ins",
        };
        return view! { <span class=ch title=format!("{} characters: shown without colouring", line.chars().count())>{line.to_owned()}</span> }
            .into_any();
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
            let text = line.get(start..i).unwrap_or("").to_owned();
            let syn =
                ["", "syn-kw", "syn-str", "syn-com", "syn-num"].get(cls.get(start).copied().unwrap_or(0) as usize).copied().unwrap_or("");
            let ch = if is_changed(start) {
                if side == 1 {
                    " tok-del"
                } else {
                    " tok-ins"
                }
            } else {
                ""
            };
            spans.push(view! { <span class=format!("{syn}{ch}")>{text}</span> });
            start = i;
        }
        i += 1;
    }
    spans.into_any()
}

fn scroll_el(r: NodeRef<leptos::html::Div>) -> Option<web_sys::Element> {
    r.get_untracked().map(JsCast::unchecked_into::<web_sys::Element>)
}

#[component]
#[allow(clippy::too_many_lines)] // the view's signals, handlers and markup read best in one place
pub fn PassTraceView() -> impl IntoView {
    let (nav, client) = (Nav::get(), WorkerClient::get());
    let dataset_id = nav.datasets.with_untracked(|d| d.first().copied()).unwrap_or(0);
    let list: RwSignal<Option<Arc<PassListData>>> = RwSignal::new(None);
    let diff: RwSignal<Option<Arc<PassDiffData>>> = RwSignal::new(None);
    let selected: RwSignal<Option<u32>> = RwSignal::new(None);
    let filter = RwSignal::new(Filter::All);
    // Layout and function filter start from nav (a link's) and are written back to it.
    let at_open = nav.pass_trace.get_untracked();
    let layout = RwSignal::new(if at_open.stacked { Layout::Stacked } else { Layout::SideBySide });
    let function: RwSignal<Option<String>> = RwSignal::new(at_open.function);
    let expanded: RwSignal<HashSet<u32>> = RwSignal::new(HashSet::new());
    let expand_all = RwSignal::new(false);
    // The line (side 1 before / 2 after, 0-based line) a warning or problem jumped to, marked
    // until the next jump.
    let jump_line: RwSignal<Option<(u8, i32)>> = RwSignal::new(None);
    let scroll_top = RwSignal::new(0.0f64);
    let view_h = RwSignal::new(800.0f64);
    let left: NodeRef<leptos::html::Div> = NodeRef::new();
    let right: NodeRef<leptos::html::Div> = NodeRef::new();
    let (list_slot, diff_slot) = (client.slot(), client.slot());
    let reply = client.ask_in(list_slot, PassListRequest { dataset_id });
    leptos::task::spawn_local(async move {
        if let Ok(l) = reply.await {
            list.try_set(Some(Arc::new(l)));
        }
    });
    let linked_pass = StoredValue::new(at_open.pass);
    // Opened from another view: what to show first, and the note saying what was found.
    let target = StoredValue::new(nav.compiler_target.try_update(Option::take).flatten());
    let note: RwSignal<Option<TargetNote>> = RwSignal::new(None);
    let pending_line: StoredValue<Option<(String, u32)>> = StoredValue::new(None);

    // nav's pass (a link's), else the first changed pass, on open.
    Effect::new(move |_| {
        if let Some(l) = list.get() {
            if selected.get_untracked().is_none() && !l.passes.is_empty() {
                let linked = linked_pass.get_value().and_then(|f| l.passes.iter().position(|p| p.file_name == f));
                selected.set(Some(linked.map_or(l.first_changed.unwrap_or(0), |i| i as u32)));
            }
        }
    });
    // The view's state in nav (and so in the URL hash), once a pass is chosen.
    Effect::new(move |_| {
        let (sel, lay, func) = (selected.get(), layout.get(), function.get());
        let pass = list.with(|l| l.as_ref().and_then(|l| sel.and_then(|i| l.passes.get(i as usize)).map(|p| p.file_name.clone())));
        if pass.is_some() {
            nav.pass_trace.set(crate::nav::PassTraceNav { pass, stacked: lay == Layout::Stacked, function: func });
        }
    });
    // A new pass or function: ask for its diff.
    Effect::new(move |_| {
        if let Some(pass) = selected.get() {
            let function = function.get();
            expanded.set(HashSet::new());
            let reply = client.ask_in(diff_slot, PassDiffRequest { dataset_id, pass, function });
            leptos::task::spawn_local(async move {
                if let Ok(d) = reply.await {
                    diff.try_set(Some(Arc::from(d)));
                }
            });
        }
    });
    // A new diff: back to the top.
    Effect::new(move |_| {
        diff.track();
        jump_line.set(None);
        scroll_top.set(0.0);
        for r in [left, right] {
            if let Some(e) = scroll_el(r) {
                e.set_scroll_top(0);
            }
        }
    });

    let visible_passes = Memo::new(move |_| {
        let f = filter.get();
        list.with(|l| {
            l.as_ref()
                .map(|l| {
                    l.passes
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| match f {
                            Filter::Changed => !p.no_op,
                            Filter::NoOp => p.no_op,
                            Filter::All => true,
                        })
                        .map(|(i, _)| i as u32)
                        .collect::<Vec<u32>>()
                })
                .unwrap_or_default()
        })
    });
    let step = move |delta: i32| {
        let vis = visible_passes.get_untracked();
        if vis.is_empty() {
            return;
        }
        let cur = selected.get_untracked();
        let pos = cur.and_then(|c| vis.iter().position(|&v| v == c));
        let next = match pos {
            Some(p) => {
                if delta < 0 {
                    p.saturating_sub(1)
                } else {
                    (p + 1).min(vis.len() - 1)
                }
            }
            None => 0,
        };
        if let Some(&v) = vis.get(next) {
            if Some(v) != cur {
                selected.set(Some(v));
            }
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.query_selector(&format!("[data-testid=pass-item][data-pos='{v}']")).ok().flatten())
            {
                el.scroll_into_view_with_bool(false);
            }
        }
    };
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        let tag = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|e| e.tag_name()).unwrap_or_default();
        if tag == "INPUT" || tag == "SELECT" || tag == "TEXTAREA" {
            return;
        }
        match ev.key().as_str() {
            "j" | "ArrowDown" => {
                ev.prevent_default();
                step(1);
            }
            "k" | "ArrowUp" => {
                ev.prevent_default();
                step(-1);
            }
            _ => {}
        }
    });
    on_cleanup(move || keys.remove());

    let disp = Memo::new(move |_| {
        let lay = layout.get();
        let all = expand_all.get();
        diff.with(|d| d.as_ref().map(|d| expanded.with(|e| display_rows(d, e, all, lay))).unwrap_or_default())
    });

    // Scrolls so that line `line` (1-based) of side `side` (1 before, 2 after) is visible,
    // unfolding its run.
    let jump_to = move |side: u8, line: u32| {
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
    };

    // The target, once the first diff lists the functions; its line once its function's diff is here.
    Effect::new(move |_| {
        let Some(d) = diff.get() else { return };
        if let Some(t) = target.try_update_value(Option::take).flatten() {
            let (chosen, shown) = target_note(&t, &d.functions);
            if let CompilerTarget::Line { line, .. } = &t {
                pending_line.set_value(Some((chosen.clone().unwrap_or_default(), *line)));
            }
            note.set(Some(shown));
            if chosen.is_some() && chosen != d.function {
                function.set(chosen);
                return;
            }
        }
        let due = pending_line.with_value(|p| p.as_ref().is_some_and(|(f, _)| f.is_empty() || d.function.as_deref() == Some(f.as_str())));
        if due {
            if let Some((_, line)) = pending_line.try_update_value(Option::take).flatten() {
                jump_to(2, line);
            }
        }
    });

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
                                {format!("⋯ {n} unchanged lines (click to expand)")}
                            </div>
                        }
                        .into_any(),
                        Disp::Row(row, st_side) => {
                            let kind = d.kinds.get(row as usize).copied().unwrap_or(0);
                            let b = d.before.get(row as usize).copied().unwrap_or(-1);
                            let a = d.after.get(row as usize).copied().unwrap_or(-1);
                            // `changes` is in row order.
                            let ch = d.changes.binary_search_by_key(&row, |c| c.0).ok().and_then(|k| d.changes.get(k));
                            // Which file this pane row shows.
                            let show = if side == 0 {
                                if st_side == 1 {
                                    1
                                } else {
                                    2
                                }
                            } else {
                                side
                            };
                            let idx = if show == 1 { b } else { a };
                            let text = if idx < 0 {
                                String::new()
                            } else if show == 1 {
                                d.before_lines.get(idx as usize).cloned().unwrap_or_default()
                            } else {
                                d.after_lines.get(idx as usize).cloned().unwrap_or_default()
                            };
                            let changed: Vec<(u32, u32)> =
                                ch.map(|c| if show == 1 { c.1.clone() } else { c.2.clone() }).unwrap_or_default();
                            let cls = match (kind, idx < 0, show) {
                                (0, ..) => "diff-row",
                                (_, true, _) => "diff-row diff-empty",
                                (_, false, 1) => "diff-row diff-del",
                                _ => "diff-row diff-ins",
                            };
                            let num = |v: i32| if v < 0 { String::new() } else { (v + 1).to_string() };
                            let (n1, n2) = if side == 0 {
                                (if st_side == 2 { String::new() } else { num(b) }, if st_side == 1 { String::new() } else { num(a) })
                            } else {
                                (num(idx), String::new())
                            };
                            let mark = match cls {
                                "diff-row diff-del" => "-",
                                "diff-row diff-ins" => "+",
                                _ => " ",
                            };
                            let code_side = if show == 1 { 1 } else { 2 };
                            // (a stacked unchanged row is both sides' line)
                            let jump = jump_line.get_untracked();
                            let jumped =
                                (idx >= 0 && jump == Some((show, idx))) || (st_side == 0 && side == 0 && b >= 0 && jump == Some((1, b)));
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
                    let m = |v: &Vec<String>| v.iter().map(|s| s.chars().count()).max().unwrap_or(0);
                    if side == 1 {
                        m(&d.before_lines)
                    } else if side == 2 {
                        m(&d.after_lines)
                    } else {
                        m(&d.before_lines).max(m(&d.after_lines))
                    }
                })
            })
        };
        view! {
            <div class="diff-pane" node_ref=node on:scroll=move |_| on_scroll(node, other)>
                <div class="diff-inner" style=move || format!("height:{}px;min-width:calc({}ch + 9em)", disp.with(Vec::len) as f64 * ROW_H, width_ch())>
                    {rows_view}
                </div>
            </div>
        }
    };

    let pass_items = move || {
        let l = list.get();
        let sel = selected.get();
        visible_passes
            .get()
            .into_iter()
            .filter_map(|i| {
                let p = l.as_ref()?.passes.get(i as usize)?.clone();
                let is_sel = sel == Some(i);
                // "memory map" on the AllocateMemoryAddr snapshot and on the selected one
                let map_file = (p.name == "AllocateMemoryAddr" || is_sel).then(|| p.file_name.clone());
                let damaged = !p.problems.is_empty();
                let first_problem = p.problems.first().map(problem_text).unwrap_or_default();
                let problem_title = format!(
                    "Damaged or cut short (the diff shows the file as read):\n{}",
                    p.problems.iter().map(problem_text).collect::<Vec<_>>().join("\n")
                );
                Some(view! {
                    <li data-testid="pass-item" data-pos=i.to_string() data-index=p.index.to_string() data-name=p.name.clone()
                        data-added=p.added.to_string() data-removed=p.removed.to_string()
                        data-noop=p.no_op.to_string() data-warning=p.has_warning.to_string() data-selected=is_sel.to_string()
                        data-problem=damaged.to_string() data-snapshot-problem=damaged.then_some(first_problem)
                        class:selected=is_sel class:noop=p.no_op class:damaged=damaged
                        on:click=move |_| selected.set(Some(i))>
                        <span class="pass-num">{format!("{:02}", p.index)}</span>
                        <span class="pass-name" title=p.file_name.clone()>{p.name.clone()}</span>
                        {damaged.then(|| view! { <span class="badge badge-problem" title=problem_title>"invalid"</span> })}
                        {p.has_warning.then(|| view! { <span class="badge badge-warn" title="warnings (.log)">"⚠"</span> })}
                        {map_file.map(|f| view! {
                            <button class="pass-mm" data-testid="pass-memory-map" title="Open the memory reuse map of this snapshot"
                                on:click=move |ev| {
                                    ev.stop_propagation();
                                    nav.memory.update(|m| *m = MemoryNav { snapshot: Some(f.clone()), chip: m.chip.take(), ..MemoryNav::default() });
                                    nav.show(ViewKind::MemoryReuse);
                                }>"▦ map"</button>
                        })}
                        {if p.no_op {
                            view! { <span class="badge badge-noop">"no-op"</span> }.into_any()
                        } else {
                            view! { <span class="pass-counts"><span class="plus">{format!("+{}", p.added)}</span> <span class="minus">{format!("−{}", p.removed)}</span></span> }.into_any()
                        }}
                    </li>
                })
            })
            .collect::<Vec<_>>()
    };

    let filter_btn = move |f: Filter, label: &'static str, id: &'static str| {
        view! { <button data-testid=id class:active=move || filter.get() == f on:click=move |_| filter.set(f)>{label}</button> }
    };
    let layout_btn = move |l: Layout, label: &'static str, id: &'static str| {
        view! { <button data-testid=id class:active=move || layout.get() == l on:click=move |_| layout.set(l)>{label}</button> }
    };

    let problems = move || {
        list.with(|l| {
            l.as_ref().map(|l| {
                let frontend = l.frontend_problems.iter().map(problem_text);
                let items: Vec<String> = l.problems.iter().chain(l.unreadable.iter()).cloned().chain(frontend).collect();
                (!items.is_empty()).then(|| {
                    view! { <ul class="pass-problems" data-testid="pass-problems">{items.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul> }
                })
            })
        })
    };

    let header = move || {
        diff.with(|d| {
            d.as_ref().map(|d| {
                let title = if d.before_file.is_empty() { d.after_file.clone() } else { format!("{} → {}", d.before_file, d.after_file) };
                view! {
                    <span class="diff-title">{title}</span>
                    <span class="pass-counts"><span class="plus">{format!("+{}", d.added)}</span> " " <span class="minus">{format!("−{}", d.removed)}</span></span>
                    {d.error.clone().map(|e| view! { <span class="error">{e}</span> })}
                }
            })
        })
    };

    // The selected pass's snapshot problems (side 2) and those of the snapshot it is compared
    // with (side 1: the previous pass's, or the frontend's).
    let shown_problems = move || -> Vec<(u8, SnapshotProblem)> {
        let sel = selected.get();
        list.with(|l| {
            let Some((l, p)) = l.as_ref().and_then(|l| Some((l, l.passes.get(sel? as usize)?))) else { return Vec::new() };
            let before: &[SnapshotProblem] = if p.previous_file == FRONTEND {
                &l.frontend_problems
            } else {
                l.passes.iter().find(|q| q.file_name == p.previous_file).map_or(&[], |q| q.problems.as_slice())
            };
            p.problems.iter().map(|x| (2, x.clone())).chain(before.iter().map(|x| (1, x.clone()))).collect()
        })
    };
    let problem_banner = move || {
        let problems = shown_problems();
        (!problems.is_empty()).then(|| {
            let after = problems.iter().any(|(side, _)| *side == 2);
            let lead = if after {
                "This snapshot is damaged or cut short: the diff shows it as read."
            } else {
                "The snapshot this pass is compared with is damaged or cut short: the diff shows it as read."
            };
            let items = problems
                .into_iter()
                .map(|(side, p)| {
                    let label = format!("{}:{}:{}", p.file, p.line, p.column);
                    let line = p.line;
                    let note = if side == 1 && after { " (compared with)" } else { "" };
                    view! {
                        <li data-side=if side == 1 { "before" } else { "after" } data-file=p.file.clone()
                            data-line=p.line.to_string() data-column=p.column.to_string()>
                            <button data-testid="snapshot-problem-jump" title="Show this line in the diff"
                                on:click=move |_| jump_to(side, line)>{label}</button>
                            {format!(" {}{note}", p.message)}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <div class="snapshot-problems" data-testid="snapshot-problems" role="alert">
                    <strong>{lead}</strong>
                    <ul>{items}</ul>
                </div>
            }
        })
    };

    let functions = move || diff.with(|d| d.as_ref().map(|d| d.functions.clone()).unwrap_or_default());
    // The function the shown diff is restricted to (a chosen function the pass lacks shows
    // the whole file; the choice applies again to passes that have it).
    let shown_function = move || diff.with(|d| d.as_ref().and_then(|d| d.function.clone()));
    let on_function = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        function.set(if v.is_empty() { None } else { Some(v) });
    };

    let warnings = move || {
        diff.with(|d| {
            let d = d.as_ref()?;
            let log = d.log.clone()?;
            let jumps = d
                .warnings
                .iter()
                .map(|w| {
                    let line = w.line;
                    let label = match (w.line, w.column) {
                        (Some(l), Some(c)) => format!("{}:{l}:{c}", d.after_file),
                        (Some(l), None) => format!("{}:{l}", d.after_file),
                        _ => d.after_file.clone(),
                    };
                    let msg = w.message.clone();
                    view! {
                        <li>
                            <button data-testid="pass-warning-jump" disabled=line.is_none()
                                on:click=move |_| if let Some(l) = line { jump_to(2, l) }>{label}</button>
                            " " {msg}
                        </li>
                    }
                })
                .collect_view();
            Some(view! {
                <div class="pass-warnings" data-testid="pass-warnings">
                    <h3>"Warnings"</h3>
                    <ul>{jumps}</ul>
                    <pre class="pass-log">{log}</pre>
                </div>
            })
        })
    };

    view! {
        <div class="pass-trace" data-testid="pass-trace">
            <div class="pass-side">
                <div class="pass-filters">
                    {filter_btn(Filter::Changed, "Changed", "pass-filter-changed")}
                    {filter_btn(Filter::NoOp, "No-op", "pass-filter-noop")}
                    {filter_btn(Filter::All, "All", "pass-filter-all")}
                </div>
                {problems}
                <ol class="pass-list" data-testid="pass-list">{pass_items}</ol>
                {warnings}
            </div>
            <div class="pass-main">
                <div class="diff-toolbar">
                    {header}
                    <span class="spacer"></span>
                    <select data-testid="pass-function" on:change=on_function prop:value=move || shown_function().unwrap_or_default()>
                        <option value="">"All functions"</option>
                        {move || functions().into_iter().map(|f| view! { <option value=f.clone() selected=shown_function().as_deref() == Some(f.as_str())>{f.clone()}</option> }).collect_view()}
                    </select>
                    {layout_btn(Layout::SideBySide, "Side by side", "pass-layout-side")}
                    {layout_btn(Layout::Stacked, "Stacked", "pass-layout-stacked")}
                    <button data-testid="pass-expand-all" on:click=move |_| expand_all.update(|v| *v = !*v)>
                        {move || if expand_all.get() { "Fold unchanged" } else { "Expand all" }}
                    </button>
                </div>
                <CompilerNote note=note/>
                {problem_banner}
                <div class="pass-diff" data-testid="pass-diff"
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
            </div>
        </div>
    }
}
