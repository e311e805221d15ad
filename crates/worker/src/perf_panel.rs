//! The Performance Analysis panel's first tables (overview, kernel statistics, setup
//! leaderboards) and the Function Performance table of one runtime dataset, for the page.
//!
//! Built on the first request ([`post`]; the app asks when the panel opens) from the dataset's
//! model and the records' level and warnings kept at load ([`remember`]), with the same
//! analysis code as `pypto-viewer report` (`perf_panel::overview`,
//! `perf_panel::setup_leaderboard`, `function_stats`); the small result tables are kept
//! beside the dataset until the next folder opens.

use std::cell::RefCell;
use std::collections::HashMap;

use pypto_analysis::function_stats;
use pypto_analysis::perf_panel::{overview, setup_leaderboard};
use pypto_analysis::runtime_model::RuntimeModel;

use pypto_protocol::perf::{FunctionPerfRow, KernelStatsRow, PerfOverview, PerfPanelData, SetupRow};
use pypto_protocol::TaskId;

use crate::session::SESSION;

/// What the tables need of the records (the rest of the facts is in the model).
struct Facts {
    level: u32,
    warnings: Vec<String>,
}

#[derive(Default)]
struct Store {
    /// The session generation these entries belong to.
    generation: u64,
    facts: HashMap<u32, Facts>,
    built: HashMap<u32, PerfPanelData>,
}

thread_local! {
    static STORE: RefCell<Store> = RefCell::new(Store::default());
}

/// Keeps the records' level and warnings of a loaded dataset for a later [`post`].
pub(crate) fn remember(generation: u64, dataset_id: u32, level: u32, warnings: Vec<String>) {
    STORE.with_borrow_mut(|s| {
        if s.generation != generation {
            s.facts.clear();
            s.built.clear();
            s.generation = generation;
        }
        s.facts.insert(dataset_id, Facts { level, warnings });
    });
}

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
            task_id: TaskId(e.task_id),
            core_id: e.core_id,
            setup_us: e.setup_us,
            exec_us: e.exec_us,
            setup_ratio: e.setup_ratio,
        })
        .collect()
}

/// Computes the panel's tables from the model and the records' facts.
fn build(dataset_id: u32, model: &RuntimeModel, facts: &Facts) -> PerfPanelData {
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

/// `ToWorker::PerfPanel`: the tables of `dataset_id`, built on the first call.
pub(crate) fn tables(dataset_id: u32) -> Result<PerfPanelData, String> {
    tables_of(dataset_id).ok_or_else(|| format!("dataset {dataset_id} has no chip swimlane records: no performance analysis"))
}

fn tables_of(dataset_id: u32) -> Option<PerfPanelData> {
    let generation = SESSION.with_borrow(|s| s.generation);
    let cached = STORE.with_borrow(|s| if s.generation == generation { s.built.get(&dataset_id).cloned() } else { None });
    if cached.is_some() {
        return cached;
    }
    let data = SESSION.with_borrow(|s| {
        let model = s.runtime.get(&dataset_id)?.model.as_ref()?;
        STORE.with_borrow(|st| {
            let facts = st.facts.get(&dataset_id).filter(|_| st.generation == generation)?;
            Some(build(dataset_id, model, facts))
        })
    })?;
    STORE.with_borrow_mut(|s| {
        if s.generation == generation {
            s.built.insert(dataset_id, data.clone());
        }
    });
    Some(data)
}
