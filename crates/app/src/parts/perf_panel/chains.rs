//! Continuous single-dependency chains tab (toolkit-features.md I7): chains of compute tasks
//! (AICPU-run, alloc and dummy tasks excluded) where each link has one predecessor and one
//! successor — merge candidates — with their length and time. A click highlights the chain in
//! the swimlane (its bars keep their colour, the rest is dimmed), selects its head in the
//! Worker View and shows the chain's span. Esc restores the swimlane.
//!
//! Test ids: `chains-note` (`data-count`), `chains-table`, `chains-highlight`
//! (`data-chain`, `data-bars`).

use std::sync::Arc;

use crate::i18n::{t, tr, tr_with, Arg};
use leptos::prelude::*;
use pypto_protocol::perf::{ChainRow, PerfPathsData};
use pypto_protocol::TimelineView;

use super::paths::{count_cell, esc_restores, fmt_us, show_interval};
use super::Panel;
use crate::table::{Cell, Column, DataTable, TableData};

/// Task labels listed in the table's "Tasks" cell.
const LISTED_TASKS: usize = 12;

fn chains_table(rows: &[ChainRow]) -> TableData {
    TableData {
        columns: vec![
            Column::num("pos", "col-n", 44.0),
            Column::num("length", "col-length", 60.0).tip("coltip-tasks-in-the-chain"),
            Column::num("exec_us", "col-exec-us", 100.0).tip("coltip-task-durations-first-block-start-last-block-end"),
            Column::num("span_us", "col-span-us", 100.0).tip("coltip-first-start-last-end"),
            Column::text("head", "col-head", 84.0),
            Column::text("tail", "col-tail", 84.0),
            Column::num("start_us", "col-start-us", 100.0),
            Column::text("tasks", "col-chain", 260.0),
        ],
        rows: rows
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut listed = c.task_ids.iter().take(LISTED_TASKS).map(ToString::to_string).collect::<Vec<_>>().join(" → ");
                if c.task_ids.len() > LISTED_TASKS {
                    listed.push_str(" → …");
                }
                let span = c.start_us.zip(c.end_us).map(|(s, e)| e - s);
                vec![
                    count_cell(i),
                    count_cell(c.task_ids.len()),
                    Cell::opt(c.exec_us, 3),
                    Cell::opt(span, 3),
                    Cell::text(c.task_ids.first().map(ToString::to_string).unwrap_or_default()),
                    Cell::text(c.task_ids.last().map(ToString::to_string).unwrap_or_default()),
                    Cell::opt(c.start_us, 3),
                    Cell::text(listed),
                ]
            })
            .collect(),
    }
}

/// Highlights chain `i` (its tasks' bars in every view of the dataset), selects its head in
/// the Worker View and shows its span; the status says how many bars it lit once the swimlane
/// did it.
pub fn highlight_chain(panel: Panel, i: usize, c: &ChainRow) {
    let Some(dataset_id) = panel.nav.datasets.with_untracked(|d| d.first().copied()) else { return };
    if let Some(&head) = c.task_ids.first() {
        panel.select_in(head, TimelineView::Worker);
    }
    panel.highlight(i, dataset_id, c.task_ids.clone());
    if let (Some(s), Some(e)) = (c.start_us, c.end_us) {
        show_interval(panel, s, e);
    }
}

#[component]
pub fn ChainsTab() -> impl IntoView {
    let panel = Panel::get();
    esc_restores(panel);
    let data = panel.paths();
    let bars = panel.chain_bars;
    let rows = Memo::new(move |_| data.with(|d| d.as_ref().map(Arc::clone)));
    let table = Signal::derive(move || {
        rows.with(|d: &Option<Arc<PerfPathsData>>| d.as_ref().and_then(|d| d.chains.as_ref()).map(|r| chains_table(r)).unwrap_or_default())
    });
    let pick = move |i: usize| {
        if let Some(c) = rows.with_untracked(|d| d.as_ref().and_then(|d| d.chains.as_ref()?.get(i).cloned())) {
            highlight_chain(panel, i, &c);
        }
    };
    let count = move || rows.with(|d| d.as_ref().and_then(|d| d.chains.as_ref()).map(Vec::len));
    let note = move || {
        rows.with(|d| match d {
            None => tr("pa-computing"),
            Some(d) => match &d.chains {
                None => tr("pa-chains-need-deps"),
                Some(c) => {
                    let tasks: usize = c.iter().map(|x| x.task_ids.len()).sum();
                    let exec: f64 = c.iter().filter_map(|x| x.exec_us).sum();
                    tr_with(
                        "pa-chains-note",
                        &[
                            ("chains", Arg::from(c.len())),
                            ("tasks", Arg::from(tasks)),
                            ("exec", Arg::from(fmt_us(Some(exec)))),
                            ("excluded", Arg::from(d.chains_excluded_tasks)),
                            ("edges", Arg::from(d.chains_compute_edges)),
                        ],
                    )
                }
            },
        })
    };
    let chain = panel.chain;
    view! {
        <div class="perf-tables">
            <p class="hint" data-testid="chains-note" data-count=move || count().map_or(String::new(), |c| c.to_string())>{note}</p>
            <p class="hint" data-testid="chains-highlight" data-chain=move || chain.get().map_or(String::new(), |c| c.to_string())
                data-bars=move || bars.get().to_string()>
                {move || chain.get().map_or_else(|| tr("pa-chain-hint"),
                    |c| tr_with("pa-chain-highlighted", &[("chain", Arg::from(c.to_string()))]))}
            </p>
            <div class="perf-table-slot">
                <DataTable data=table testid="chains-table" csv_name="single_dependency_chains" title=t("pa-continuous-single-dependency-chains")
                    on_row_click=Callback::new(pick) selected_row=Signal::derive(move || chain.get())/>
            </div>
        </div>
    }
}
