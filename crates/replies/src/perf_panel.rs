//! The Performance Analysis panel's first tables (overview, kernel statistics, setup
//! leaderboards) and the Function Performance table of one runtime dataset: computed by
//! [`PanelTables::compute`] — the same call `pypto-viewer report` makes for its
//! `functions`, `function_performance` and `performance_analysis` sections — and mapped to
//! the page's [`PerfPanelData`] by [`panel_data`].

use pypto_analysis::function_stats::{self, ConverterStats, FunctionPerf};
use pypto_analysis::perf_panel::overview::{self, Overview};
use pypto_analysis::perf_panel::setup_leaderboard::{self, SetupEntry, SetupLeaderboards};
use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::tasks::{FuncIdOf, JoinedTasks};
use pypto_formats::name_map::NameMap;
use pypto_formats::Warning;
use pypto_protocol::perf::{FunctionPerfRow, KernelStatsRow, PerfOverview, PerfPanelData, SetupRow};
use pypto_protocol::TaskId;

/// Rows the page gets per setup leaderboard.
pub const SETUP_TOP_ROWS: usize = 100;

/// The analyses behind the panel's first tables.
pub struct PanelTables {
    pub overview: Overview,
    /// The converter's "Task Statistics by Function" and its totals.
    pub stats: ConverterStats,
    /// Per function: count and max / min / avg duration (setup excluded).
    pub function_perf: Vec<FunctionPerf>,
    /// Each leaderboard's first `top_rows` rows.
    pub setup: SetupLeaderboards,
}

impl PanelTables {
    /// The tables of the joined tasks `joined` with their resolved func ids and names.
    pub fn compute(joined: &JoinedTasks, func_ids: &(impl FuncIdOf + ?Sized), names: Option<&NameMap>, top_rows: usize) -> Self {
        Self {
            overview: overview::overview(joined),
            stats: function_stats::converter_stats(joined, func_ids, names),
            function_perf: function_stats::function_perf(joined, func_ids, names),
            setup: setup_leaderboard::setup_leaderboards(joined, top_rows),
        }
    }
}

/// What a collection level allows the viewer to show, one sentence.
pub fn level_allows(level: u32) -> &'static str {
    match level {
        1 => "AICore timing only: Worker View and kernel durations; no dispatch/finish, so no Scheduler View, latency or overhead columns",
        2 => "AICore + AICPU timing: adds the Scheduler View, latency, head/tail overhead and the exec/latency ratio",
        3 => "adds scheduler phases: the AICPU Scheduler view and scheduler idle",
        4 => "full collection with orchestrator phases: every view, gap & blocker and early-dispatch analyses",
        _ => "unknown level: only what the records hold is shown",
    }
}

fn setup_rows(entries: &[SetupEntry]) -> Vec<SetupRow> {
    entries
        .iter()
        .map(|e| SetupRow {
            task_id: TaskId(e.task_id),
            core_id: e.core_id,
            setup_us: e.setup_us,
            exec_us: e.exec_us,
            setup_ratio: e.setup_ratio,
        })
        .collect()
}

/// `PerfPanel`: the tables of dataset `dataset_id` from its model, with the records' level
/// and warnings (the model's own warnings are added after them, each once).
pub fn panel_data(dataset_id: u32, model: &RuntimeModel, level: u32, records_warnings: &[Warning]) -> PerfPanelData {
    let tables = PanelTables::compute(&model.tasks, &model.func_ids, model.names.as_ref(), SETUP_TOP_ROWS);
    let mut warnings: Vec<Warning> = Vec::new();
    for w in records_warnings.iter().chain(&model.warnings) {
        if !warnings.iter().any(|kept| kept.message == w.message) {
            warnings.push(w.clone());
        }
    }
    let PanelTables { overview: ov, stats, function_perf, setup } = tables;
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
        function_perf: function_perf
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
        longest_setup: setup_rows(&setup.longest_setup),
        largest_setup_ratio: setup_rows(&setup.largest_ratio),
        rows_with_setup: setup.rows_with_setup as u64,
    }
}
