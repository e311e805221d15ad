//! Kernel statistics tab: the reference converter's "Task Statistics by Function" (exec,
//! latency, overheads) and the extension's Kernel Statistics (count, max/min/avg duration,
//! setup excluded), both in the data table. A row runs the swimlane search for its function.

use crate::i18n::t;
use leptos::prelude::*;
use pypto_protocol::perf::KernelStatsRow;

use super::Panel;
use crate::analyses::function_perf_table;
use crate::table::{Cell, Column, DataTable, TableData};

/// The converter's per-function table.
pub fn converter_table(rows: &[KernelStatsRow]) -> TableData {
    TableData {
        columns: vec![
            Column::num("func_id", "col-func-id", 76.0),
            Column::text("name", "col-func-name", 150.0),
            Column::num("count", "col-count", 60.0),
            Column::num("avg_exec_us", "col-avg-exec-us", 115.0).tip("coltip-kernel-time-on-aicore"),
            Column::num("max_exec_us", "col-max-exec-us", 115.0),
            Column::num("min_exec_us", "col-min-exec-us", 115.0),
            Column::num("total_exec_us", "col-total-exec-us", 125.0),
            Column::num("avg_latency_us", "col-avg-latency-us", 135.0).tip("coltip-dispatch-finish-level-2"),
            Column::num("exec_pct", "col-exec-pct", 70.0).tip("coltip-exec-latency"),
            Column::num("avg_head_oh_us", "col-avg-head-oh-us", 140.0).tip("coltip-start-dispatch"),
            Column::num("avg_tail_oh_us", "col-avg-tail-oh-us", 135.0).tip("coltip-finish-end"),
            Column::num("avg_prop_us", "col-avg-prop-us", 115.0).tip("coltip-dispatch-aicore-receive"),
            Column::num("avg_local_us", "col-avg-local-us", 120.0).tip("coltip-receive-start-setup"),
        ],
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    Cell::int(r.func_id),
                    Cell::text(r.name.clone()),
                    Cell::count(r.count),
                    Cell::num(r.avg_exec_us, 2),
                    Cell::num(r.max_exec_us, 2),
                    Cell::num(r.min_exec_us, 2),
                    Cell::num(r.total_exec_us, 2),
                    Cell::opt(r.avg_latency_us, 2),
                    Cell::opt(r.exec_pct, 1),
                    Cell::opt(r.avg_head_oh_us, 2),
                    Cell::opt(r.avg_tail_oh_us, 2),
                    Cell::opt(r.avg_prop_us, 2),
                    Cell::opt(r.avg_local_us, 2),
                ]
            })
            .collect(),
    }
}

#[component]
pub fn KernelsTab() -> impl IntoView {
    let panel = Panel::get();
    let data = panel.data();
    let converter = Signal::derive(move || data.with(|d| d.as_ref().map(|d| converter_table(&d.kernel_stats)).unwrap_or_default()));
    let perf = Signal::derive(move || data.with(|d| d.as_ref().map(|d| function_perf_table(&d.function_perf)).unwrap_or_default()));
    let name_of = move |table: Signal<TableData>, row: usize| {
        table.with_untracked(|t| t.rows.get(row).and_then(|r| r.get(1)).map(|c| c.text.clone()))
    };
    let totals = move || {
        data.with(|d| {
            d.as_ref().map(|d| {
                let lat = d.kernel_total_latency_us.map_or_else(|| "-".to_string(), |v| format!("{v:.2}"));
                format!("TOTAL: {} tasks, Σ exec {:.2} µs, Σ latency {lat} µs", d.kernel_total_count, d.kernel_total_exec_us)
            })
        })
    };
    view! {
        <div class="perf-tables">
            <p class="hint">{t("pa-click-a-row-to-search")}</p>
            <div class="perf-table-slot">
                <DataTable data=perf testid="kernel-perf" csv_name="kernel_statistics" title=t("pa-kernel-statistics-setup-excluded")
                    on_row_click=Callback::new(move |r| if let Some(n) = name_of(perf, r) { panel.search_function(&n) })/>
            </div>
            <div class="perf-table-slot">
                <DataTable data=converter testid="kernel-converter" csv_name="task_statistics_by_function"
                    title=t("pa-task-statistics-by-function-converter")
                    on_row_click=Callback::new(move |r| if let Some(n) = name_of(converter, r) { panel.search_function(&n) })/>
            </div>
            <p class="hint" data-testid="kernel-totals">{totals}</p>
        </div>
    }
}
