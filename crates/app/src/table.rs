//! A reusable data table for every tabular view of the page (Performance Analysis tabs,
//! Function Performance, …): sortable columns (click a header; numbers sort by value, text
//! case-insensitively), resizable columns (drag a header's right edge), a sticky header,
//! a full-screen toggle (Esc leaves it), CSV export (RFC 4180 quoting, downloaded through a
//! `Blob`), an optional row-click callback and per-cell colour classes.
//!
//! Rows are virtualised: only the rows inside the scrolled window (plus a few) are in the
//! DOM, each absolutely placed at `position × ROW_HEIGHT_PX`, so 10k+ rows stay responsive.
//! Stable `data-testid`s: the table (`{testid}`, with `data-rows` and `data-sort`), its
//! header cells (`{testid}-head`, `data-col`), rows (`{testid}-row`, `data-row` = index into
//! [`TableData::rows`]), cells (`data-col`), and the buttons `{testid}-csv` and
//! `{testid}-fullscreen`. `window.__pyptoTableBench(n)` mounts an n-row table for the
//! browser benchmark (tests/panel.test.mjs measures render, sort and scroll times with it).

use std::fmt::Write as _;

use crate::i18n::{t, tr, tr_with, Arg};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::nav::Nav;

/// Height of every body row (CSS px; `.dt-row` in style.css uses the same value).
pub const ROW_HEIGHT_PX: f64 = 24.0;
/// Rows rendered above and below the visible window.
const OVERSCAN_ROWS: usize = 6;
/// Narrowest a column can be dragged.
const MIN_COLUMN_PX: f64 = 36.0;

/// One column: `id` names it in test ids and `data-col`; `numeric` columns sort by value and
/// align right.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub id: String,
    pub title: String,
    pub numeric: bool,
    pub width_px: f64,
    /// Shown as the header's tooltip (what the column means, its unit).
    pub tooltip: String,
    /// The CSV header of the column when it is not the title: a key kept in English in every
    /// language (exports that scripts read).
    pub csv_header: Option<String>,
}

impl Column {
    /// A text column titled by the message `title_id` (in the page language, tracked: a table
    /// built in a reactive closure follows a language switch).
    pub fn text(id: &str, title_id: &str, width_px: f64) -> Self {
        Self::titled(id, tr(title_id), false, width_px)
    }

    /// A numeric column titled by the message `title_id`.
    pub fn num(id: &str, title_id: &str, width_px: f64) -> Self {
        Self::titled(id, tr(title_id), true, width_px)
    }

    /// A column with a title already in the page language.
    pub fn titled(id: &str, title: String, numeric: bool, width_px: f64) -> Self {
        Self { id: id.to_string(), title, numeric, width_px, tooltip: String::new(), csv_header: None }
    }

    /// The CSV export heads the column with its id (an English key) instead of its title.
    #[must_use]
    pub fn csv_by_id(mut self) -> Self {
        self.csv_header = Some(self.id.clone());
        self
    }

    /// The header's tooltip: the message `tooltip_id`.
    #[must_use]
    pub fn tip(mut self, tooltip_id: &str) -> Self {
        self.tooltip = tr(tooltip_id);
        self
    }
}

/// One cell: the displayed `text`; `value` (numbers) sorts and goes to the CSV at full
/// precision; `class` is an extra CSS class (colouring, e.g. `"dt-warn"`).
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub text: String,
    pub value: Option<f64>,
    pub class: Option<&'static str>,
}

impl Cell {
    pub fn text(text: impl Into<String>) -> Self {
        Self { text: text.into(), value: None, class: None }
    }

    /// A number shown with `decimals` decimals.
    pub fn num(value: f64, decimals: usize) -> Self {
        Self { text: format!("{value:.decimals$}"), value: Some(value), class: None }
    }

    /// An integer (ids).
    pub fn int(value: i64) -> Self {
        Self { text: value.to_string(), value: Some(value as f64), class: None }
    }

    /// A count.
    pub fn count(value: u64) -> Self {
        Self { text: value.to_string(), value: Some(value as f64), class: None }
    }

    /// A number, or `-` when absent (sorts last).
    pub fn opt(value: Option<f64>, decimals: usize) -> Self {
        value.map_or_else(|| Self::text("-"), |v| Self::num(v, decimals))
    }

    #[must_use]
    pub fn class(mut self, class: &'static str) -> Self {
        self.class = Some(class);
        self
    }

    /// The CSV field: the full-precision value for numbers, the text otherwise; integers
    /// shown in full (ids above 2^53 that an f64 cannot hold) keep their exact text.
    fn csv_text(&self) -> String {
        match self.value {
            Some(v) if v.fract() == 0.0 && is_integer_text(&self.text) => self.text.clone(),
            Some(v) => format!("{v}"),
            None => self.text.clone(),
        }
    }
}

fn is_integer_text(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// What a table shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableData {
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Cell>>,
}

/// The sort state: column index and direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sort {
    pub column: usize,
    pub descending: bool,
}

/// Row order under `sort` (stable; rows without a value sort last in either direction).
pub fn sorted_order(data: &TableData, sort: Option<Sort>) -> Vec<u32> {
    let mut order: Vec<u32> = (0..data.rows.len() as u32).collect();
    let Some(Sort { column, descending }) = sort else { return order };
    let numeric = data.columns.get(column).is_some_and(|c| c.numeric);
    let cell = |r: u32| data.rows.get(r as usize).and_then(|row| row.get(column));
    if numeric {
        order.sort_by(|&a, &b| {
            let va = cell(a).and_then(|c| c.value);
            let vb = cell(b).and_then(|c| c.value);
            match (va, vb) {
                (Some(x), Some(y)) => {
                    let o = x.total_cmp(&y);
                    if descending {
                        o.reverse()
                    } else {
                        o
                    }
                }
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            }
        });
    } else {
        let keys: Vec<String> = (0..data.rows.len() as u32).map(|r| cell(r).map(|c| c.text.to_lowercase()).unwrap_or_default()).collect();
        order.sort_by(|&a, &b| {
            let o = keys.get(a as usize).cmp(&keys.get(b as usize));
            if descending {
                o.reverse()
            } else {
                o
            }
        });
    }
    order
}

/// One CSV field, quoted when it holds a comma, quote or line break (quotes doubled).
pub fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The table as CSV (header line, then rows in `order`), CRLF line ends.
pub fn to_csv(data: &TableData, order: &[u32]) -> String {
    let mut out = String::new();
    let header: Vec<String> = data.columns.iter().map(|c| csv_field(c.csv_header.as_ref().unwrap_or(&c.title))).collect();
    out.push_str(&header.join(","));
    out.push_str("\r\n");
    for &r in order {
        if let Some(row) = data.rows.get(r as usize) {
            let fields: Vec<String> = row.iter().map(|c| csv_field(&c.csv_text())).collect();
            out.push_str(&fields.join(","));
            out.push_str("\r\n");
        }
    }
    out
}

fn window_height_px() -> f64 {
    web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64()).unwrap_or(1000.0)
}

/// Row positions `[first, end)` to render for a scroll offset (the window's height bounds
/// the visible height, so no resize observer is needed).
fn visible_range(scroll_top_px: f64, total: usize) -> (usize, usize) {
    let first = ((scroll_top_px / ROW_HEIGHT_PX).floor().max(0.0) as usize).saturating_sub(OVERSCAN_ROWS);
    let shown = (window_height_px() / ROW_HEIGHT_PX).ceil() as usize + 2 * OVERSCAN_ROWS;
    (first.min(total), (first + shown).min(total))
}

/// The table. `data` may change (the sort and scroll position are kept; a new column set
/// resets widths and sort); `on_row_click` receives the index into `data.rows`. Its sort is
/// `nav`'s entry for `testid` (by column id; so a link sorts it), when the page has a `nav`.
#[allow(clippy::too_many_lines)] // one component: its bar, header and rows share the signals
#[component]
pub fn DataTable(
    #[prop(into)] data: Signal<TableData>,
    /// Prefix of the test ids.
    #[prop(into)]
    testid: String,
    /// File name of the CSV export (`.csv` added when missing).
    #[prop(into)]
    csv_name: String,
    #[prop(optional)] on_row_click: Option<Callback<usize>>,
    /// Shown in the table's bar.
    #[prop(optional, into)]
    title: Signal<String>,
    /// Rows with this index are marked selected (`dt-selected`), e.g. the task selected in
    /// the swimlane; the table also marks the last clicked row itself.
    #[prop(optional, into)]
    selected_row: Option<Signal<Option<usize>>>,
) -> impl IntoView {
    // Read once per change of the caller's signal (a derived signal would rebuild the rows on
    // every read, i.e. on every scroll event).
    let data = Memo::new(move |_| data.get());
    let sort = RwSignal::new(None::<Sort>);
    let widths = RwSignal::new(Vec::<f64>::new());
    let scroll_top = RwSignal::new(0.0f64);
    let fullscreen = RwSignal::new(false);
    let clicked = RwSignal::new(None::<usize>);
    let drag = StoredValue::new(None::<(usize, f64, f64)>);
    let scroller = NodeRef::<leptos::html::Div>::new();

    // The sort lives in nav (so in links) when the page has one, by column id.
    let nav = use_context::<Nav>();
    let table_key = StoredValue::new(testid.clone());
    // Column widths follow the columns' declared widths when the column set changes (a table
    // getting its first columns keeps its sort: a link's).
    Effect::new(move |prev: Option<Vec<String>>| {
        let ids: Vec<String> = data.with(|d| d.columns.iter().map(|c| c.id.clone()).collect());
        if prev.as_ref() != Some(&ids) {
            widths.set(data.with_untracked(|d| d.columns.iter().map(|c| c.width_px).collect()));
            if prev.is_some_and(|p| !p.is_empty()) {
                sort.set(None);
                if let Some(nav) = nav {
                    table_key.with_value(|k| nav.set_table_sort(k, None));
                }
            }
        }
        ids
    });
    // nav's sort (a link's, or back / forward) once the table has that column.
    Effect::new(move |_| {
        let Some(nav) = nav else { return };
        let wanted = match table_key.with_value(|k| nav.table_sort(k)) {
            None => None,
            Some(w) => match data.with(|d| d.columns.iter().position(|c| c.id == w.column)) {
                Some(column) => Some(Sort { column, descending: w.descending }),
                // Not that column (yet): the data may still be on its way.
                None => return,
            },
        };
        if sort.get_untracked() != wanted {
            sort.set(wanted);
        }
    });
    let order = Memo::new(move |_| {
        let s = sort.get();
        data.with(|d| sorted_order(d, s))
    });
    let total = move || order.with(Vec::len);
    let width_of = move |c: usize| widths.with(|w| w.get(c).copied().unwrap_or(100.0));
    let total_width = move || widths.with(|w| w.iter().sum::<f64>());

    let testid_head = format!("{testid}-head");
    let testid_row = format!("{testid}-row");
    let testid_csv = format!("{testid}-csv");
    let testid_full = format!("{testid}-fullscreen");
    let csv_file = if csv_name.to_ascii_lowercase().ends_with(".csv") { csv_name } else { format!("{csv_name}.csv") };

    let on_header_click = move |c: usize| {
        sort.update(|s| {
            *s = match *s {
                Some(Sort { column, descending: false }) if column == c => Some(Sort { column: c, descending: true }),
                Some(Sort { column, descending: true }) if column == c => None,
                _ => Some(Sort { column: c, descending: false }),
            };
        });
        if let Some(nav) = nav {
            let s =
                sort.get_untracked().and_then(|s| data.with_untracked(|d| d.columns.get(s.column).map(|c| (c.id.clone(), s.descending))));
            table_key.with_value(|k| nav.set_table_sort(k, s));
        }
    };
    let export_csv = move |_| {
        let text = order.with_untracked(|o| data.with_untracked(|d| to_csv(d, o)));
        crate::browser::download_text(&csv_file, "text/csv;charset=utf-8", &format!("\u{feff}{text}"));
    };
    let sort_attr = move || match sort.get() {
        None => String::new(),
        Some(s) => {
            let id = data.with(|d| d.columns.get(s.column).map(|c| c.id.clone()).unwrap_or_default());
            format!("{id}:{}", if s.descending { "desc" } else { "asc" })
        }
    };
    let on_scroll = move |_| {
        if let Some(el) = scroller.get() {
            scroll_top.set(f64::from(el.scroll_top()));
        }
    };
    let header = move || {
        data.with(|d| {
            d.columns
                .iter()
                .enumerate()
                .map(|(c, col)| {
                    let arrow = move || match sort.get() {
                        Some(Sort { column, descending }) if column == c => {
                            if descending {
                                " ▼"
                            } else {
                                " ▲"
                            }
                        }
                        _ => "",
                    };
                    let tip = tr_with("app-click-to-sort", &[("column", Arg::from(if col.tooltip.is_empty() { &col.title } else { &col.tooltip }))]);
                    view! {
                        <div class="dt-th" class:dt-num=col.numeric role="columnheader" data-testid=testid_head.clone() data-col=col.id.clone()
                            title=tip style=move || format!("width:{}px", width_of(c)) on:click=move |_| on_header_click(c)>
                            <span class="dt-th-label">{col.title.clone()}</span><span class="dt-sort-arrow">{arrow}</span>
                            <span class="dt-resize" title=t("app-drag-to-resize")
                                on:click=|ev: web_sys::MouseEvent| ev.stop_propagation()
                                on:pointerdown=move |ev: web_sys::PointerEvent| {
                                    ev.stop_propagation();
                                    ev.prevent_default();
                                    if let Some(t) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                                        let _ = t.set_pointer_capture(ev.pointer_id());
                                    }
                                    drag.set_value(Some((c, f64::from(ev.client_x()), width_of(c))));
                                }
                                on:pointermove=move |ev: web_sys::PointerEvent| {
                                    if let Some((col, x0, w0)) = drag.get_value() {
                                        let w = (w0 + f64::from(ev.client_x()) - x0).max(MIN_COLUMN_PX);
                                        widths.update(|ws| if let Some(x) = ws.get_mut(col) { *x = w; });
                                    }
                                }
                                on:pointerup=move |ev: web_sys::PointerEvent| {
                                    if let Some(t) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                                        let _ = t.release_pointer_capture(ev.pointer_id());
                                    }
                                    drag.set_value(None);
                                }></span>
                        </div>
                    }
                })
                .collect_view()
        })
    };
    // Data generation: part of the row keys, so changed data re-creates the shown rows.
    let generation = Memo::new(move |prev: Option<&u64>| {
        data.track();
        prev.map_or(0, |g| g + 1)
    });
    // Shown rows as (position, row index, generation); keyed, so scrolling by a few rows only
    // creates the rows that came into view.
    let visible = move || {
        let (first, end) = visible_range(scroll_top.get(), total());
        let g = generation.get();
        order.with(|o| (first..end).filter_map(|pos| Some((pos, *o.get(pos)? as usize, g))).collect::<Vec<_>>())
    };
    let row_view = move |(pos, r, _): (usize, usize, u64)| {
        let cells = data.with_untracked(|d| {
            d.rows
                .get(r)
                .map(|row| {
                    row.iter()
                        .enumerate()
                        .map(|(c, cell)| {
                            let col = d.columns.get(c);
                            let class = format!(
                                "dt-td{}{}",
                                if col.is_some_and(|x| x.numeric) { " dt-num" } else { "" },
                                cell.class.map(|k| format!(" {k}")).unwrap_or_default()
                            );
                            view! {
                                <div class=class role="cell" data-col=col.map(|x| x.id.clone()).unwrap_or_default()
                                    title=cell.text.clone() style=format!("width:var(--dt-w{c})")>{cell.text.clone()}</div>
                            }
                        })
                        .collect_view()
                })
                .unwrap_or_default()
        });
        let top = pos as f64 * ROW_HEIGHT_PX;
        let selected = move || selected_row.and_then(|s| s.get()) == Some(r) || clicked.get() == Some(r);
        view! {
            <div class="dt-row" class:dt-selected=selected class:dt-clickable=on_row_click.is_some() role="row"
                aria-selected=move || selected().to_string()
                tabindex=on_row_click.is_some().then_some("0")
                data-testid=testid_row.clone() data-row=r.to_string() style=format!("top:{top}px")
                on:click=move |_| {
                    clicked.set(Some(r));
                    if let Some(cb) = on_row_click {
                        cb.run(r);
                    }
                }
                // Keyboard: Enter or Space does what a click does; ↑/↓ move to the next row.
                on:keydown=move |ev: web_sys::KeyboardEvent| match ev.key().as_str() {
                    "Enter" | " " => {
                        ev.prevent_default();
                        clicked.set(Some(r));
                        if let Some(cb) = on_row_click {
                            cb.run(r);
                        }
                    }
                    "ArrowDown" | "ArrowUp" => {
                        use wasm_bindgen::JsCast;
                        let Some(row) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
                        let next = if ev.key() == "ArrowDown" { row.next_element_sibling() } else { row.previous_element_sibling() };
                        if let Some(next) = next.and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok()) {
                            ev.prevent_default();
                            let _ = next.focus();
                        }
                    }
                    _ => {}
                }>{cells}</div>
        }
    };
    // Column widths as CSS variables on the table: cells use `var(--dt-wN)`, so a resize
    // touches one style, not every cell.
    let width_vars = move || {
        widths.with(|w| {
            w.iter().enumerate().fold(String::new(), |mut out, (c, px)| {
                let _ = write!(out, "--dt-w{c}:{px}px;");
                out
            })
        })
    };
    view! {
        <div class="dt" class:dt-fullscreen=move || fullscreen.get() data-testid=testid data-rows=move || total().to_string()
            data-sort=sort_attr style=width_vars
            on:keydown=move |ev: web_sys::KeyboardEvent| if ev.key() == "Escape" && fullscreen.get_untracked() { fullscreen.set(false); }>
            <div class="dt-bar">
                <span class="dt-title">{title}</span>
                <span class="dt-count">{move || tr_with("app-table-rows", &[("count", Arg::from(total()))])}</span>
                <span class="spacer"></span>
                <button class="dt-btn" data-testid=testid_csv title=t("app-export-the-table-in-its") on:click=export_csv>"CSV"</button>
                <button class="dt-btn" data-testid=testid_full title=t("app-full-screen-esc-leaves")
                    on:click=move |_| fullscreen.update(|f| *f = !*f)>{move || tr(if fullscreen.get() { "app-exit-full-screen" } else { "app-full-screen" })}</button>
            </div>
            <div class="dt-scroll" node_ref=scroller on:scroll=on_scroll tabindex="0">
                <div class="dt-inner" role="table" aria-label=move || title.get() aria-rowcount=move || (total() + 1).to_string()
                    style=move || format!("width:{}px", total_width())>
                    // A row of no header cells (columns still to come) would be an invalid ARIA row.
                    <div class="dt-head" role=move || data.with(|d| (!d.columns.is_empty()).then_some("row"))>{header}</div>
                    <div class="dt-body" role="rowgroup" style=move || format!("height:{}px", total() as f64 * ROW_HEIGHT_PX)>
                        <For each=visible key=|k| *k children=row_view/>
                    </div>
                </div>
            </div>
        </div>
    }
}

/// Test/benchmark hook: `window.__pyptoTableBench(n)` mounts an n-row table (ids, names,
/// numbers) in a fixed overlay with test id `bench-table`; `window.__pyptoTableBench(0)`
/// removes it.
pub fn install_bench_hook() {
    let hook = Closure::<dyn Fn(u32)>::new(|n: u32| {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
        if let Some(old) = document.get_element_by_id("table-bench") {
            old.remove();
        }
        if n == 0 {
            return;
        }
        let Some(host) = document.create_element("div").ok().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) else { return };
        host.set_id("table-bench");
        let _ = host.set_attribute("class", "table-bench");
        if let Some(body) = document.body() {
            let _ = body.append_child(&host);
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let data = TableData {
            columns: vec![
                Column::num("id", "col-id", 80.0),
                Column::text("name", "col-name", 160.0),
                Column::num("count", "col-count", 80.0),
                Column::num("avg", "col-avg-us", 110.0),
                Column::num("max", "col-max-us", 110.0),
            ],
            rows: (0..n)
                .map(|i| {
                    let avg = next() * 1000.0;
                    vec![
                        Cell::int(i64::from(i)),
                        Cell::text(format!("kernel_{}", (next() * 1e6) as u64)),
                        Cell::int((next() * 500.0) as i64),
                        Cell::num(avg, 3),
                        Cell::num(avg * (1.0 + next()), 3),
                    ]
                })
                .collect(),
        };
        let handle = leptos::mount::mount_to(host, move || {
            view! { <DataTable data=Signal::derive(move || data.clone()) testid="bench-table" csv_name="bench" title=t("app-benchmark")/> }
        });
        handle.forget();
    });
    if let Some(window) = web_sys::window() {
        let _ = js_sys::Reflect::set(&window, &JsValue::from_str("__pyptoTableBench"), hook.as_ref());
    }
    hook.forget();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> TableData {
        TableData {
            columns: vec![Column::text("name", "col-name", 100.0), Column::num("v", "col-value-us", 80.0)],
            rows: vec![
                vec![Cell::text("b"), Cell::num(2.5, 1)],
                vec![Cell::text("A, \"quoted\""), Cell::opt(None, 1)],
                vec![Cell::text("c"), Cell::num(-1.0, 1)],
            ],
        }
    }

    #[test]
    fn numbers_sort_by_value_and_missing_values_last() {
        let d = sample();
        assert_eq!(sorted_order(&d, Some(Sort { column: 1, descending: false })), vec![2, 0, 1]);
        assert_eq!(sorted_order(&d, Some(Sort { column: 1, descending: true })), vec![0, 2, 1]);
        assert_eq!(sorted_order(&d, Some(Sort { column: 0, descending: false })), vec![1, 0, 2]);
        assert_eq!(sorted_order(&d, None), vec![0, 1, 2]);
    }

    #[test]
    fn csv_quotes_and_keeps_full_precision() {
        let mut d = sample();
        if let Some(row) = d.rows.get_mut(0) {
            row[1] = Cell::num(502.534_062_499_999_55, 3);
        }
        let csv = to_csv(&d, &[0, 1]);
        assert_eq!(csv, "Name,Value (µs)\r\nb,502.53406249999955\r\n\"A, \"\"quoted\"\"\",-\r\n");
        assert_eq!(csv_field("a\nb"), "\"a\nb\"");
        let id = Cell { text: "18446744073709551615".into(), value: Some(u64::MAX as f64), class: None };
        assert_eq!(id.csv_text(), "18446744073709551615");
        assert_eq!(Cell::num(2.5, 0).csv_text(), "2.5");
    }
}
