//! The comparison of two runtime captures (issue 19), for a kernel developer's daily loop of
//! change, run, compare: A is the baseline, B this run. The worker compares them
//! (`CompareRequest`, `pypto_replies::compare`, the same numbers `pypto-viewer compare` prints)
//! and this view shows, at once:
//!
//! - **Summary**: makespan, test time, AICore time, utilisation, exec/latency, the static and
//!   observed critical paths, stall by kind, task counts — A, B, Δ, Δ% — with regressions and
//!   improvements coloured (by which way each number is better);
//! - **Functions**: the reference converter's per-function table of both runs, matched by name
//!   (func id without names), sorted by the change in total exec; a row opens both swimlanes
//!   (A above B, one axis) searched for the function;
//! - **Tasks**: how many tasks matched (by function and task id, else as the k-th execution of
//!   their function), only in A, only in B; per function the histogram of per-task Δ exec; the
//!   tasks with the largest Δ, a row selecting the task in the swimlanes (its match in the other
//!   run highlighted).
//!
//! Every table sorts, resizes and downloads as CSV (`table.rs`). The function whose histogram is
//! shown is `nav`'s (`cfn=` in links).
//!
//! Test ids: `compare-runs` (`data-matched`, `data-only-a`, `data-only-b`), `compare-summary`,
//! `compare-functions`, `compare-top-tasks` (tables), `compare-notes`, `compare-task-counts`,
//! `compare-histogram` (`data-function`, `data-bins`), `compare-histogram-function`,
//! `compare-open-swimlanes`.

use std::sync::Arc;

use crate::i18n::{t, tr, tr_with, Arg};
use leptos::prelude::*;
use pypto_protocol::compare::{Better, CompareRequest, Comparison, FunctionTaskDeltas, SummaryRow};
use pypto_protocol::{DatasetKind, TimelineView, ViewKind};

use crate::nav::{Focus, Nav};
use crate::session::{DatasetRow, Session};
use crate::table::{Cell, Column, DataTable, TableData};
use crate::view_spec::{nothing_docked, ViewSpec};
use crate::worker_client::WorkerClient;

/// The registry's entry: a comparison's view (available for no single dataset; the view area
/// shows it for two compared captures).
pub const SPEC: ViewSpec = ViewSpec {
    kind: ViewKind::CompareRuns,
    title_id: "view-comparison",
    tooltip_id: "view-comparison-tip",
    dataset_kind: DatasetKind::Runtime,
    default: false,
    switchable: false,
    available: |_: &DatasetRow| false,
    init,
    component: || view! { <CompareRunsView/> }.into_any(),
    docked: nothing_docked,
};

/// The last comparison, kept across mounts (switching to the swimlanes and back does not ask
/// again): the pair and folder generation it is of.
#[derive(Clone, Copy)]
struct Compared {
    last: StoredValue<Option<(PairKey, Arc<Comparison>)>>,
}

/// A comparison's key: A, B and the folder's generation.
type PairKey = (u32, u32, u64);

/// SVG `text-anchor` values of the histogram's axis labels.
const ANCHOR_START: &str = "start";
const ANCHOR_MIDDLE: &str = "middle";
const ANCHOR_END: &str = "end";

fn init() {
    provide_context(Compared { last: StoredValue::new(None) });
}

/// A relative change is shown as a change above this (float noise of equal sums is not).
const SAME_EPSILON: f64 = 1e-9;

/// `b − a` and `(b − a) / |a| × 100` (`None` when a side is missing; the percentage also when
/// `a` is 0).
pub fn delta(a: Option<f64>, b: Option<f64>) -> (Option<f64>, Option<f64>) {
    match (a, b) {
        (Some(a), Some(b)) => {
            let d = b - a;
            (Some(d), (a != 0.0).then(|| d / a.abs() * 100.0))
        }
        _ => (None, None),
    }
}

/// The CSS class of a change that is better or worse (`None`: no change, or neither way is
/// better).
pub fn change_class(a: Option<f64>, b: Option<f64>, better: Better) -> Option<&'static str> {
    let (Some(a), Some(b)) = (a, b) else { return None };
    let scale = a.abs().max(b.abs()).max(1.0);
    if (b - a).abs() <= SAME_EPSILON * scale {
        return None;
    }
    match better {
        Better::Lower if b > a => Some("dt-worse"),
        Better::Higher if b < a => Some("dt-worse"),
        Better::Lower | Better::Higher => Some("dt-better"),
        Better::Neither => Some("dt-changed"),
    }
}

fn decimals(unit: &str) -> usize {
    match unit {
        "count" => 0,
        "%" => 2,
        _ => 3,
    }
}

/// `value` with its sign (`+1.500`, `-0.250`); below the printed precision it is no change
/// (`0.000`, never `-0.000`).
fn signed(value: f64, decimals: usize) -> String {
    let half_unit = 0.5 / 10f64.powi(i32::try_from(decimals).unwrap_or(i32::MAX));
    if value.abs() < half_unit {
        format!("{:.decimals$}", 0.0)
    } else if value > 0.0 {
        format!("+{value:.decimals$}")
    } else {
        format!("{value:.decimals$}")
    }
}

/// A Δ cell (signed), coloured by `class`.
fn delta_cell(d: Option<f64>, decimals: usize, class: Option<&'static str>) -> Cell {
    let cell = d.map_or_else(|| Cell::text("-"), |v| Cell { text: signed(v, decimals), value: Some(v), class: None });
    match class {
        Some(c) => cell.class(c),
        None => cell,
    }
}

fn percent_cell(p: Option<f64>, class: Option<&'static str>) -> Cell {
    let cell = p.map_or_else(|| Cell::text("-"), |v| Cell { text: format!("{}%", signed(v, 1)), value: Some(v), class: None });
    match class {
        Some(c) => cell.class(c),
        None => cell,
    }
}

/// A summary metric the worker names by key, and its message.
struct Metric {
    key: &'static str,
    label_id: &'static str,
}

const METRICS: &[Metric] = &[
    Metric { key: "makespan_us", label_id: "cmp-metric-makespan" },
    Metric { key: "total_test_time_us", label_id: "cmp-metric-total-test-time" },
    Metric { key: "aicore_time_us", label_id: "cmp-metric-aicore-time" },
    Metric { key: "utilisation_pct", label_id: "cmp-metric-utilisation" },
    Metric { key: "exec_latency_pct", label_id: "cmp-metric-exec-latency" },
    Metric { key: "static_path_us", label_id: "cmp-metric-static-path" },
    Metric { key: "observed_path_us", label_id: "cmp-metric-observed-path" },
    Metric { key: "stall_data_wait_us", label_id: "cmp-metric-stall-data-wait" },
    Metric { key: "stall_core_wait_us", label_id: "cmp-metric-stall-core-wait" },
    Metric { key: "stall_front_gap_us", label_id: "cmp-metric-stall-front-gap" },
    Metric { key: "tasks_total", label_id: "cmp-metric-tasks-total" },
    Metric { key: "aicore_rows", label_id: "cmp-metric-aicore-rows" },
];

/// A summary row's label in the page language (the worker's English label when unknown).
fn metric_label(key: &str, label: &str) -> String {
    if let Some(m) = METRICS.iter().find(|m| m.key == key) {
        return tr(m.label_id);
    }
    match key.strip_prefix("tasks_") {
        Some(kind) => {
            let kind = match kind {
                "regular" => tr("cmp-kind-regular"),
                "dummy" => tr("cmp-kind-dummy"),
                "alloc" => tr("cmp-kind-alloc"),
                "predicated_skip" => tr("cmp-kind-predicated-skip"),
                "graph_outer" => tr("cmp-kind-graph-outer"),
                "graph_node" => tr("cmp-kind-graph-node"),
                other => other.replace('_', " "),
            };
            tr_with("cmp-metric-tasks-kind", &[("kind", Arg::from(kind))])
        }
        None => label.to_owned(),
    }
}

/// The summary table: metric, A, B, Δ, Δ%.
pub fn summary_table(rows: &[SummaryRow]) -> TableData {
    let columns = vec![
        Column::text("metric", "col-metric", 230.0),
        Column::num("a", "col-a-baseline", 120.0),
        Column::num("b", "col-b-this-run", 120.0),
        Column::num("delta", "col-delta", 110.0).tip("coltip-b-a"),
        Column::num("delta_pct", "col-deltapct", 96.0).tip("coltip-b-a-a"),
    ];
    // Task kinds neither run has are left out (as the CLI leaves them out).
    let rows = rows
        .iter()
        .filter(|r| !(r.key.starts_with("tasks_") && r.key != "tasks_total" && r.a.unwrap_or(0.0) == 0.0 && r.b.unwrap_or(0.0) == 0.0))
        .map(|r| {
            let n = decimals(&r.unit);
            let (d, p) = delta(r.a, r.b);
            let class = change_class(r.a, r.b, r.better);
            let label = metric_label(&r.key, &r.label);
            let label = if r.unit == "us" { format!("{label} (µs)") } else { label };
            let side = |v: Option<f64>| match v {
                Some(v) if r.unit == "%" => Cell { text: format!("{v:.2}%"), value: Some(v), class: None },
                v => Cell::opt(v, n),
            };
            // A percentage changes by points (its relative change would read as a second percentage).
            let (d_cell, p_cell) = if r.unit == "%" {
                let cell = d.map_or_else(|| Cell::text("-"), |v| Cell { text: format!("{} pt", signed(v, 2)), value: Some(v), class });
                (cell, Cell::text(""))
            } else {
                (delta_cell(d, n, class), percent_cell(p, class))
            };
            vec![Cell::text(label), side(r.a), side(r.b), d_cell, p_cell]
        })
        .collect();
    TableData { columns, rows }
}

/// The function table: per function A, B (and Δ where it matters) of the converter's columns,
/// in the worker's order (|Δ total exec| descending).
pub fn functions_table(c: &Comparison) -> TableData {
    let mut columns = vec![Column::text("function", "col-function", 200.0)];
    let pair = |id: &str, title: &str, columns: &mut Vec<Column>| {
        columns.push(Column::titled(&format!("{id}_a"), format!("{} A", tr(title)), true, 96.0));
        columns.push(Column::titled(&format!("{id}_b"), format!("{} B", tr(title)), true, 96.0));
    };
    pair("count", "col-pair-count", &mut columns);
    pair("total_exec", "col-pair-total-exec", &mut columns);
    columns.push(Column::num("total_exec_delta", "col-delta-total-exec", 104.0).tip("coltip-b-a-us"));
    columns.push(Column::num("total_exec_delta_pct", "col-deltapct", 84.0));
    pair("avg_exec", "col-pair-avg-exec", &mut columns);
    columns.push(Column::num("avg_exec_delta", "col-delta-avg-exec", 96.0));
    pair("max_exec", "col-pair-max-exec", &mut columns);
    pair("min_exec", "col-pair-min-exec", &mut columns);
    pair("avg_latency", "col-pair-avg-latency", &mut columns);
    columns.push(Column::num("avg_latency_delta", "col-delta-avg-latency", 104.0));
    pair("head_oh", "col-pair-head-oh", &mut columns);
    pair("tail_oh", "col-pair-tail-oh", &mut columns);
    let rows = c
        .functions
        .iter()
        .map(|f| {
            let count = |v: Option<u64>| v.map_or_else(|| Cell::text("-"), Cell::count);
            let us = |v: Option<f64>| Cell::opt(v, 3);
            let [ta, tb] = f.total_exec_us;
            let (dt, pt) = delta(Some(ta.unwrap_or(0.0)), Some(tb.unwrap_or(0.0)));
            let total_class = change_class(Some(ta.unwrap_or(0.0)), Some(tb.unwrap_or(0.0)), Better::Lower);
            let [aa, ab] = f.avg_exec_us;
            let [la, lb] = f.avg_latency_us;
            vec![
                Cell::text(f.name.clone()),
                count(f.count[0]),
                count(f.count[1]),
                us(ta),
                us(tb),
                delta_cell(dt, 3, total_class),
                percent_cell(if ta.is_some() { pt } else { None }, total_class),
                us(aa),
                us(ab),
                delta_cell(delta(aa, ab).0, 3, change_class(aa, ab, Better::Lower)),
                us(f.max_exec_us[0]),
                us(f.max_exec_us[1]),
                us(f.min_exec_us[0]),
                us(f.min_exec_us[1]),
                us(la),
                us(lb),
                delta_cell(delta(la, lb).0, 3, change_class(la, lb, Better::Lower)),
                us(f.avg_head_oh_us[0]),
                us(f.avg_head_oh_us[1]),
                us(f.avg_tail_oh_us[0]),
                us(f.avg_tail_oh_us[1]),
            ]
        })
        .collect();
    TableData { columns, rows }
}

/// The largest per-task changes.
pub fn top_tasks_table(c: &Comparison) -> TableData {
    let columns = vec![
        Column::text("function", "col-function", 180.0),
        Column::text("a_task", "col-a-task", 90.0),
        Column::text("b_task", "col-b-task", 90.0),
        Column::num("a_exec", "col-a-exec-us", 100.0).tip("coltip-last-end-first-start-over-the-task-s-aicore-rows"),
        Column::num("b_exec", "col-b-exec-us", 100.0),
        Column::num("delta", "col-delta-us", 96.0),
        Column::text("rule", "col-matched-by", 110.0).tip("coltip-id-same-function-and-task-id-order-the-k-th-execution-of-the-function"),
        Column::num("a_start", "col-a-start-us", 110.0),
        Column::num("b_start", "col-b-start-us", 110.0),
    ];
    let rows = c
        .tasks
        .top
        .iter()
        .map(|t| {
            let class = change_class(Some(t.a_exec_us), Some(t.b_exec_us), Better::Lower);
            vec![
                Cell::text(t.function.clone()),
                Cell::text(t.a_task.to_string()),
                Cell::text(t.b_task.to_string()),
                Cell::num(t.a_exec_us, 3),
                Cell::num(t.b_exec_us, 3),
                delta_cell(Some(t.delta_us), 3, class),
                Cell::text(tr(if t.rule == "order" { "cmp-rule-order" } else { "cmp-rule-task-id" })),
                Cell::num(t.a_start_us, 3),
                Cell::num(t.b_start_us, 3),
            ]
        })
        .collect();
    TableData { columns, rows }
}

/// A table's height: its rows (24 px each) under its bar and header, at most `max_px`.
fn fit_height(rows: usize, max_px: usize) -> String {
    format!("height:{}px", (64 + rows.max(1) * 24).min(max_px))
}

/// Histogram geometry (SVG user units).
const HIST_W: f64 = 520.0;
const HIST_H: f64 = 150.0;
const HIST_PAD_LEFT: f64 = 44.0;
const HIST_PAD_BOTTOM: f64 = 22.0;

/// The histogram of one function's per-task Δ exec: bars, the zero line, axis labels (text).
#[component]
fn Histogram(deltas: FunctionTaskDeltas) -> impl IntoView {
    let bins = deltas.counts.len();
    let max = deltas.counts.iter().copied().max().unwrap_or(0).max(1) as f64;
    let (lo, hi) = (deltas.bin_edges_us.first().copied().unwrap_or(0.0), deltas.bin_edges_us.last().copied().unwrap_or(0.0));
    // Every Δ equal: one bar across the plot.
    let single = hi - lo <= f64::EPSILON * hi.abs().max(1.0);
    let span = if single { 1.0 } else { hi - lo };
    let plot_w = HIST_W - HIST_PAD_LEFT - 8.0;
    let plot_h = HIST_H - HIST_PAD_BOTTOM - 8.0;
    let x_of = move |us: f64| HIST_PAD_LEFT + (us - lo) / span * plot_w;
    let bars = deltas
        .counts
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(i, &n)| {
            let (e0, e1) = (deltas.bin_edges_us.get(i).copied().unwrap_or(lo), deltas.bin_edges_us.get(i + 1).copied().unwrap_or(hi));
            let (x0, x1) = if single { (x_of(lo), x_of(lo + span)) } else { (x_of(e0), x_of(e1)) };
            let h = n as f64 / max * plot_h;
            let mid = f64::midpoint(e0, e1);
            let class = if mid > 0.0 {
                "hist-bar hist-slower"
            } else if mid < 0.0 {
                "hist-bar hist-faster"
            } else {
                "hist-bar"
            };
            let title = tr_with(
                "cmp-hist-bin",
                &[("count", Arg::from(n)), ("from", Arg::from(format!("{e0:.3}"))), ("to", Arg::from(format!("{e1:.3}")))],
            );
            view! {
                <rect class=class x=format!("{x0:.2}") y=format!("{:.2}", 8.0 + plot_h - h) width=format!("{:.2}", (x1 - x0 - 1.0).max(1.0))
                    height=format!("{h:.2}")><title>{title}</title></rect>
            }
        })
        .collect_view();
    let zero = (lo < 0.0 && hi > 0.0).then(|| {
        let x = x_of(0.0);
        view! { <line class="hist-zero" x1=format!("{x:.2}") x2=format!("{x:.2}") y1="4" y2=format!("{:.2}", 8.0 + plot_h)/> }
    });
    let axis_y = 8.0 + plot_h;
    let label = |x: f64, text: String, anchor: &'static str| {
        view! { <text class="hist-label" x=format!("{x:.2}") y=format!("{:.2}", axis_y + 15.0) text-anchor=anchor>{text}</text> }
    };
    let count_label = format!("{}", max as u64);
    view! {
        <svg class="compare-histogram" data-testid="compare-histogram" data-function=deltas.function.clone() data-bins=bins.to_string()
            viewBox=format!("0 0 {HIST_W} {HIST_H}") role="img"
            aria-label=tr_with("cmp-histogram-label", &[("function", Arg::from(&deltas.function))])>
            <line class="hist-axis" x1=HIST_PAD_LEFT.to_string() x2=(HIST_W - 8.0).to_string() y1=axis_y.to_string() y2=axis_y.to_string()/>
            {bars}
            {zero}
            {if single {
                label(HIST_PAD_LEFT + plot_w / 2.0, tr_with("cmp-every-delta", &[("delta", Arg::from(format!("{lo:+.3}")))]), ANCHOR_MIDDLE).into_any()
            } else {
                view! { {label(HIST_PAD_LEFT, format!("{lo:+.3} µs"), ANCHOR_START)} {label(HIST_W - 8.0, format!("{hi:+.3} µs"), ANCHOR_END)} }.into_any()
            }}
            <text class="hist-label" x=(HIST_PAD_LEFT - 4.0).to_string() y="16" text-anchor="end">{count_label}</text>
            <text class="hist-label" x=(HIST_PAD_LEFT - 4.0).to_string() y=axis_y.to_string() text-anchor="end">"0"</text>
        </svg>
    }
}

/// The tasks section: matching counts, a function's histogram, the largest changes.
#[component]
fn TasksSection(c: Arc<Comparison>) -> impl IntoView {
    let nav = Nav::get();
    let tasks = &c.tasks;
    let counts = tr_with(
        "cmp-task-counts",
        &[
            ("matched", Arg::from(tasks.matched)),
            ("by_id", Arg::from(tasks.matched_by_id)),
            ("by_order", Arg::from(tasks.matched_by_order)),
            ("only_a", Arg::from(tasks.only_a)),
            ("only_b", Arg::from(tasks.only_b)),
            ("tasks_a", Arg::from(tasks.tasks[0])),
            ("tasks_b", Arg::from(tasks.tasks[1])),
        ],
    );
    // The function shown: nav's, else the one whose total changed most, else the first.
    let first_function = c
        .functions
        .iter()
        .find_map(|f| tasks.per_function.iter().find(|d| d.function == f.name && d.matched > 0))
        .or_else(|| tasks.per_function.iter().find(|d| d.matched > 0))
        .map(|d| d.function.clone());
    let per_function = tasks.per_function.clone();
    let shown = Memo::new(move |_| nav.compare.with(|cmp| cmp.function.clone()).or_else(|| first_function.clone()));
    let options = per_function.iter().map(|d| (d.function.clone(), d.matched)).collect::<Vec<_>>();
    let histogram = {
        let per_function = per_function.clone();
        move || {
            let name = shown.get()?;
            let d = per_function.iter().find(|d| d.function == name)?.clone();
            let stats = tr_with(
                "cmp-histogram-stats",
                &[
                    ("function", Arg::from(&d.function)),
                    ("matched", Arg::from(d.matched)),
                    ("only_a", Arg::from(d.only_a)),
                    ("only_b", Arg::from(d.only_b)),
                    ("mean", Arg::from(d.mean_delta_us.map_or_else(|| "-".to_owned(), |v| signed(v, 3)))),
                    ("median", Arg::from(d.median_delta_us.map_or_else(|| "-".to_owned(), |v| signed(v, 3)))),
                ],
            );
            Some(view! {
                <p class="hint" data-testid="compare-histogram-stats">{stats}</p>
                {(!d.counts.is_empty()).then(|| view! { <Histogram deltas=d/> })}
            })
        }
    };
    let on_function = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        nav.compare.update(|cmp| cmp.function = (!v.is_empty()).then_some(v));
    };
    let top = c.clone();
    let table = Signal::derive(move || top_tasks_table(&top));
    let picked = c.clone();
    let on_task = Callback::new(move |r: usize| {
        let Some(task) = picked.tasks.top.get(r) else { return };
        let focus = Focus::Task { task: task.a_task, view: TimelineView::Worker, core: None, search_if_missing: true };
        nav.show_with(ViewKind::ChipSwimlane, focus);
    });
    view! {
        <section class="compare-section compare-tasks">
            <h3>{t("cmp-tasks")}</h3>
            <p data-testid="compare-task-counts">{counts}</p>
            <label class="compare-function-pick">{t("cmp-per-task-exec-of")}" "
                <select data-testid="compare-histogram-function" on:change=on_function prop:value=move || shown.get().unwrap_or_default()>
                    {options.into_iter().map(|(f, n)| {
                        let label = tr_with("cmp-function-matched", &[("function", Arg::from(&f)), ("count", Arg::from(n))]);
                        let value = f.clone();
                        let selected = move || shown.get().as_deref() == Some(f.as_str());
                        view! { <option value=value selected=selected>{label}</option> }
                    }).collect_view()}
                </select>
            </label>
            {histogram}
            <p class="hint">{t("cmp-the-largest-per-task-changes")}</p>
            <div class="compare-table compare-top" style=fit_height(c.tasks.top.len(), 420)>
                <DataTable data=table testid="compare-top-tasks" csv_name="compare_tasks" title=t("cmp-largest-per-task-changes") on_row_click=on_task/>
            </div>
        </section>
    }
}

/// The comparison of the two shown captures.
#[component]
pub fn CompareRunsView() -> impl IntoView {
    let (session, nav, client) = (Session::get(), Nav::get(), WorkerClient::get());
    let kept = expect_context::<Compared>();
    let comparison: RwSignal<Option<Arc<Comparison>>> = RwSignal::new(None);
    let error: RwSignal<Option<String>> = RwSignal::new(None);
    let slot = client.slot();
    Effect::new(move |_| {
        let Some((a, b)) = nav.compared() else { return };
        let key = (a, b, session.generation.get());
        if let Some(c) = kept.last.with_value(|l| l.as_ref().filter(|(k, _)| *k == key).map(|(_, c)| c.clone())) {
            comparison.set(Some(c));
            return;
        }
        comparison.set(None);
        error.set(None);
        let reply = client.ask_in(slot, CompareRequest { baseline_id: a, current_id: b });
        leptos::task::spawn_local(async move {
            match reply.await {
                Ok(c) => {
                    let c: Arc<Comparison> = Arc::from(c);
                    kept.last.set_value(Some((key, c.clone())));
                    comparison.try_set(Some(c));
                }
                Err(crate::worker_client::WorkerError::Failed(message)) => {
                    error.try_set(Some(message));
                }
                Err(_) => {}
            }
        });
    });
    let body = move || {
        if let Some(message) = error.get() {
            return view! { <p class="error-message" data-testid="compare-error">{tr_with("cmp-error", &[("message", Arg::from(message))])}</p> }
                .into_any();
        }
        let Some(c) = comparison.get() else {
            return view! { <p class="hint" data-testid="compare-loading">{t("cmp-comparing-the-runs-their-critical")}</p> }.into_any();
        };
        let notes = (!c.notes.is_empty()).then(|| {
            view! {
                <ul class="compare-notes" data-testid="compare-notes">
                    {c.notes.iter().map(|n| view! { <li>{crate::note_words::runs_note(n)}</li> }).collect_view()}
                </ul>
            }
        });
        let summary_rows = summary_table(&c.summary).rows.len();
        let summary = {
            let c = c.clone();
            Signal::derive(move || summary_table(&c.summary))
        };
        let functions = {
            let c = c.clone();
            Signal::derive(move || functions_table(&c))
        };
        let names: Vec<String> = c.functions.iter().map(|f| f.name.clone()).collect();
        let on_function = Callback::new(move |r: usize| {
            if let Some(name) = names.get(r) {
                // The function's per-task deltas here, and both swimlanes searched for it.
                nav.compare.update(|cmp| cmp.function = Some(name.clone()));
                nav.show_with(ViewKind::ChipSwimlane, Focus::Search(name.clone()));
            }
        });
        let by = if c.function_key == "func_id" { tr("cmp-by-func-id") } else { tr("cmp-by-name") };
        view! {
            <div class="compare-runs" data-testid="compare-runs" data-matched=c.tasks.matched.to_string()
                data-only-a=c.tasks.only_a.to_string() data-only-b=c.tasks.only_b.to_string()>
                {notes}
                <section class="compare-section compare-summary">
                    <h3>{t("cmp-summary")}</h3>
                    <div class="compare-table compare-summary-table" style=fit_height(summary_rows, 560)>
                        <DataTable data=summary testid="compare-summary" csv_name="compare_summary" title=t("cmp-a-against-b")/>
                    </div>
                </section>
                <section class="compare-section compare-functions">
                    <h3>{t("cmp-functions")}</h3>
                    <p class="hint">{tr_with("cmp-functions-hint", &[("by", Arg::from(by))])}</p>
                    <div class="compare-table compare-functions-table" style=fit_height(c.functions.len(), 420)>
                        <DataTable data=functions testid="compare-functions" csv_name="compare_functions" title=t("cmp-per-function") on_row_click=on_function/>
                    </div>
                </section>
                <TasksSection c=c.clone()/>
                <p>
                    <button data-testid="compare-open-swimlanes" on:click=move |_| nav.show(ViewKind::ChipSwimlane)>
                        {t("cmp-open-both-swimlanes-a-over")}</button>
                </p>
            </div>
        }
        .into_any()
    };
    view! { <div class="compare-page">{body}</div> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_and_their_colours() {
        assert_eq!(delta(Some(10.0), Some(12.5)), (Some(2.5), Some(25.0)));
        assert_eq!(delta(Some(-4.0), Some(-2.0)), (Some(2.0), Some(50.0)));
        assert_eq!(delta(Some(0.0), Some(1.0)), (Some(1.0), None));
        assert_eq!(delta(None, Some(1.0)), (None, None));
        assert_eq!(change_class(Some(10.0), Some(12.0), Better::Lower), Some("dt-worse"));
        assert_eq!(change_class(Some(10.0), Some(8.0), Better::Lower), Some("dt-better"));
        assert_eq!(change_class(Some(50.0), Some(40.0), Better::Higher), Some("dt-worse"));
        assert_eq!(change_class(Some(3.0), Some(4.0), Better::Neither), Some("dt-changed"));
        // float noise of equal sums is no change
        assert_eq!(change_class(Some(0.1 + 0.2), Some(0.3), Better::Lower), None);
        assert_eq!(change_class(None, Some(1.0), Better::Lower), None);
        assert_eq!(signed(-0.000_1, 3), "0.000");
        assert_eq!(signed(2.0, 3), "+2.000");
        assert_eq!(signed(-0.25, 2), "-0.25");
    }

    #[test]
    fn the_summary_table_says_delta_and_percent() {
        let rows = vec![SummaryRow {
            key: "makespan_us".into(),
            label: "Makespan".into(),
            unit: "us".into(),
            a: Some(100.0),
            b: Some(150.0),
            better: Better::Lower,
        }];
        let t = summary_table(&rows);
        let row = &t.rows[0];
        let texts: Vec<&str> = row.iter().map(|c| c.text.as_str()).collect();
        // The label comes from the catalogue by the row's key, not from the worker's text.
        assert_eq!(texts, ["Makespan (first kernel start → last kernel end) (µs)", "100.000", "150.000", "+50.000", "+50.0%"]);
        assert_eq!(row[3].class, Some("dt-worse"));
    }
}
