//! The Performance Analysis panel's first tables (overview, kernel statistics, setup
//! leaderboards) and the Function Performance table of one runtime dataset, for the page.
//!
//! Built once at load time (while the joined tasks and the records' facts are at hand) with
//! the same analysis code as `pypto-viewer report` (`perf_panel::overview`,
//! `perf_panel::setup_leaderboard`, `function_stats`), kept as small result tables beside the
//! dataset's model, and sent on request ([`post`]).

use pypto_analysis::function_stats;
use pypto_analysis::perf_panel::{overview, setup_leaderboard};
use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::summary::RecordsFacts;
use pypto_analysis::tasks;
use pypto_protocol::{FromWorker, FunctionPerfRow, KernelStatsRow, PerfOverview, PerfPanelData, SetupRow};

use crate::session::SESSION;
use crate::transport;

/// Rows kept per setup leaderboard.
pub(crate) const SETUP_TOP_ROWS: usize = 100;

/// What a collection level allows the viewer to show, one sentence.
pub(crate) fn level_allows(level: u32) -> &'static str {
    match level {
        1 => "AICore timing only: Worker View and kernel durations; no dispatch/finish, so no Scheduler View, latency or overhead columns",
        2 => "AICore + AICPU timing: adds the Scheduler View, latency, head/tail overhead and the exec/latency ratio",
        3 => "adds scheduler phases: the AICPU Scheduler view and scheduler idle",
        4 => "full collection with orchestrator phases: every view, gap & blocker and early-dispatch analyses",
        _ => "unknown level: only what the records hold is shown",
    }
}

fn setup_rows(entries: &[setup_leaderboard::SetupEntry]) -> Vec<SetupRow> {
    entries
        .iter()
        .map(|e| SetupRow {
            task_id: e.task_id.to_string(),
            task_label: tasks::task_id_display(e.task_id),
            core_id: e.core_id,
            setup_us: e.setup_us,
            exec_us: e.exec_us,
            setup_ratio: e.setup_ratio,
        })
        .collect()
}

/// Computes the panel's tables from the model and the records' facts.
pub(crate) fn build(dataset_id: u32, model: &RuntimeModel, facts: &RecordsFacts) -> PerfPanelData {
    let joined = &model.tasks;
    let names = model.names.as_ref();
    let ov = overview::overview(joined);
    let stats = function_stats::converter_stats(joined, &model.func_ids, names);
    let perf = function_stats::function_perf(joined, &model.func_ids, names);
    let boards = setup_leaderboard::setup_leaderboards(joined, SETUP_TOP_ROWS);
    let mut warnings = facts.warnings.clone();
    for w in &model.warnings {
        if !warnings.contains(w) {
            warnings.push(w.clone());
        }
    }
    let level = facts.level;
    PerfPanelData {
        dataset_id,
        overview: PerfOverview {
            level,
            level_allows: level_allows(level).to_string(),
            rows: ov.rows as u64,
            tasks: ov.tasks as u64,
            first_start_us: ov.first_start_us,
            last_end_us: ov.last_end_us,
            task_time_us: ov.task_time_us,
            aicore_time_us: ov.aicore_time_us,
            active_cores: ov.active_cores as u64,
            active_aic_cores: ov.active_aic_cores as u64,
            active_aiv_cores: ov.active_aiv_cores as u64,
            utilisation_pct: ov.utilisation_pct,
            total_test_time_us: stats.total_test_time_us,
            exec_latency_pct: stats.exec_vs_overhead.map(|x| x.exec_latency_pct),
            avg_exec_us: stats.exec_vs_overhead.map(|x| x.avg_exec_us),
            avg_latency_us: stats.exec_vs_overhead.map(|x| x.avg_latency_us),
            warnings,
        },
        kernel_stats: stats
            .rows
            .iter()
            .map(|r| KernelStatsRow {
                func_id: r.func_id,
                name: r.name.clone(),
                count: r.count as u64,
                total_exec_us: r.total_exec_us,
                avg_exec_us: r.avg_exec_us,
                max_exec_us: r.max_exec_us,
                min_exec_us: r.min_exec_us,
                avg_latency_us: r.avg_latency_us,
                exec_pct: r.exec_pct,
                avg_head_oh_us: r.avg_head_oh_us,
                avg_tail_oh_us: r.avg_tail_oh_us,
                avg_prop_us: r.avg_prop_us,
                avg_local_us: r.avg_local_us,
            })
            .collect(),
        kernel_total_count: stats.total_count as u64,
        kernel_total_exec_us: stats.total_exec_us,
        kernel_total_latency_us: stats.total_latency_us,
        function_perf: perf
            .into_iter()
            .map(|p| FunctionPerfRow {
                func_id: p.func_id,
                name: p.name,
                count: p.count as u64,
                max_duration_us: p.max_duration_us,
                min_duration_us: p.min_duration_us,
                avg_duration_us: p.avg_duration_us,
            })
            .collect(),
        longest_setup: setup_rows(&boards.longest_setup),
        largest_setup_ratio: setup_rows(&boards.largest_ratio),
        rows_with_setup: boards.rows_with_setup as u64,
    }
}

/// Answers `PerfPanel { dataset_id }`.
pub(crate) fn post(dataset_id: u32) {
    let data = SESSION.with_borrow(|s| s.runtime.get(&dataset_id).and_then(|d| d.perf_panel.clone()));
    match data {
        Some(data) => transport::post(&FromWorker::PerfPanel(data), None),
        None => transport::post(
            &FromWorker::Error {
                message: format!("dataset {dataset_id} has no chip swimlane records: no performance analysis"),
            },
            None,
        ),
    }
}
