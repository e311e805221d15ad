//! Setup tab (toolkit-features.md G6): the tasks with the longest setup (AICore receive →
//! start) and with the largest setup ratio (setup / (setup + exec)). A row locates and
//! selects its task (on its core) in the swimlane; ratios above one half are coloured.

use crate::i18n::{t, tr, tr_with, Arg};
use leptos::prelude::*;
use pypto_protocol::perf::SetupRow;

use super::Panel;
use crate::table::{Cell, Column, DataTable, TableData};

/// Ratio above which a row's ratio cell is coloured (setup dominates the kernel).
const HIGH_RATIO: f64 = 0.5;

fn setup_table(rows: &[SetupRow]) -> TableData {
    TableData {
        columns: vec![
            Column::num("rank", "col-n", 38.0),
            Column::text("task", "col-task", 80.0).tip("coltip-rxty"),
            Column::num("core", "col-core", 50.0),
            Column::num("setup_us", "col-setup-us", 92.0).tip("coltip-aicore-receive-start"),
            Column::num("exec_us", "col-exec-us", 92.0).tip("coltip-start-end"),
            Column::num("ratio_pct", "col-ratio-pct", 84.0).tip("coltip-setup-setup-exec"),
            Column::num("task_id", "col-task-id", 120.0).tip("coltip-raw-u64-task-id"),
        ],
        rows: rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let ratio = Cell::num(r.setup_ratio * 100.0, 2);
                vec![
                    Cell::count(i as u64 + 1),
                    Cell::text(r.task_id.to_string()),
                    Cell::int(i64::from(r.core_id)),
                    Cell::num(r.setup_us, 3),
                    Cell::num(r.exec_us, 3),
                    if r.setup_ratio > HIGH_RATIO { ratio.class("dt-warn") } else { ratio },
                    // Ids above 2^53 would lose digits as numbers: sort by value, show and export the exact text.
                    super::paths::raw_id_cell(r.task_id),
                ]
            })
            .collect(),
    }
}

#[component]
pub fn SetupTab() -> impl IntoView {
    let panel = Panel::get();
    let data = panel.data();
    let longest_rows = Memo::new(move |_| data.with(|d| d.as_ref().map(|d| d.longest_setup.clone()).unwrap_or_default()));
    let ratio_rows = Memo::new(move |_| data.with(|d| d.as_ref().map(|d| d.largest_setup_ratio.clone()).unwrap_or_default()));
    let longest = Signal::derive(move || longest_rows.with(|r| setup_table(r)));
    let ratio = Signal::derive(move || ratio_rows.with(|r| setup_table(r)));
    let pick = move |rows: Memo<Vec<SetupRow>>, r: usize| {
        if let Some((task, core)) = rows.with_untracked(|rows| rows.get(r).map(|x| (x.task_id, x.core_id))) {
            panel.select_task(task, Some(core));
        }
    };
    let note = move || {
        data.with(|d| match d {
            None => tr("pa-computing"),
            Some(d) if d.rows_with_setup == 0 => tr("pa-setup-none"),
            Some(d) => tr_with("pa-setup-note", &[("count", Arg::from(d.rows_with_setup)), ("top", Arg::from(d.longest_setup.len()))]),
        })
    };
    view! {
        <div class="perf-tables">
            <p class="hint" data-testid="setup-note">{note}</p>
            <div class="perf-table-slot">
                <DataTable data=longest testid="setup-longest" csv_name="setup_longest" title=t("pa-longest-setup")
                    on_row_click=Callback::new(move |r| pick(longest_rows, r))/>
            </div>
            <div class="perf-table-slot">
                <DataTable data=ratio testid="setup-ratio" csv_name="setup_largest_ratio" title=t("pa-largest-setup-ratio")
                    on_row_click=Callback::new(move |r| pick(ratio_rows, r))/>
            </div>
        </div>
    }
}
