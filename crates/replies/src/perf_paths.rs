//! The path tabs of the Performance Analysis panel (critical path, gap & blocker, early
//! dispatch, continuous single-dependency chains): the analysis' [`PathTables`]
//! (`pypto_analysis::perf_panel::paths`, which `pypto-viewer report` runs too) mapped to the
//! page's [`PerfPathsData`], and the gap threshold check of the gap & blocker tab.

use pypto_analysis::perf_panel::gap_blocker::{self, GapBlockerTable};
use pypto_analysis::perf_panel::paths::{self, PathInfo, PathTables};
use pypto_analysis::runtime_model::CpmInputs;
use pypto_analysis::tasks;
use pypto_formats::deps::Deps;
use pypto_formats::name_map::NameMap;
use pypto_formats::records::ChipRecords;
use pypto_protocol::perf::{
    ChainRow, CriticalPathInfo, EarlyDispatchRow, FamilyShareRow, GapRow, GapThreshold, PathTaskRow, PerfPathsData, StallShareRow,
};
use pypto_protocol::TaskId;

/// The path tables of a capture from its records, deps.json, name map and `CPM_*.json` paths
/// (deps.json is dropped as soon as the critical path is computed, before the join: what a
/// path job peaks at).
pub fn path_tables(records: &ChipRecords, deps: Option<Deps>, names: Option<&NameMap>, cpm: &CpmInputs) -> PathTables {
    let prepared = paths::prepare(records, deps.as_ref(), names, cpm);
    drop(deps);
    let joined = tasks::join(records);
    prepared.finish(&joined, records)
}

/// `GapThreshold`: `text` checked by the analysis' own rule, and the rows of the gap table
/// (its `gap_us` column) strictly above it.
pub fn gap_threshold(dataset_id: u32, text: String, gaps: &GapBlockerTable) -> GapThreshold {
    let (error, above) = match gap_blocker::parse_threshold_us(&text).map(|t| gaps.above(t)) {
        Ok(rows) => (None, rows.into_iter().map(|r| r as u32).collect()),
        Err(message) => (Some(message), Vec::new()),
    };
    GapThreshold { dataset_id, text, error, above }
}

fn path_info(p: PathInfo) -> CriticalPathInfo {
    CriticalPathInfo {
        source: p.source,
        tasks: p
            .tasks
            .into_iter()
            .map(|t| PathTaskRow {
                task_id: TaskId(t.task_id),
                name: t.name,
                start_us: t.start_us,
                end_us: t.end_us,
                dur_us: t.dur_us,
                compute_us: t.compute_us,
                stall_us: t.stall_us,
                stall_kind: t.stall_kind.map(str::to_string),
            })
            .collect(),
        length_us: p.length_us,
        makespan_pct: p.makespan_pct,
        note: p.note,
    }
}

/// `PerfPaths`: the tables of dataset `dataset_id`.
pub fn to_protocol(dataset_id: u32, t: PathTables) -> PerfPathsData {
    let g = &t.gap_blocker;
    let gap_rows = (0..g.len())
        .map(|i| {
            let blocker = g.blocker_task_id.get(i).copied().flatten();
            GapRow {
                task_id: TaskId(g.task_id.get(i).copied().unwrap_or(0)),
                name: g.name.get(i).cloned().unwrap_or_default(),
                start_us: g.start_us.get(i).copied().unwrap_or(0.0),
                end_us: g.end_us.get(i).copied().unwrap_or(0.0),
                gap_us: g.gap_us.get(i).copied().unwrap_or(0.0),
                gap_start_us: g.gap_start_us.get(i).copied().unwrap_or(0.0),
                gap_end_us: g.gap_end_us.get(i).copied().unwrap_or(0.0),
                cause: g.cause.get(i).map_or("", |c| c.as_str()).to_string(),
                blocker_task_id: blocker.map(TaskId),
                stall_us: g.stall_us.get(i).copied().unwrap_or(0.0),
            }
        })
        .collect();
    let early = t.early_dispatch.as_ref();
    let early_rows = early.map(|e| {
        e.rows
            .iter()
            .map(|r| EarlyDispatchRow {
                task_id: TaskId(r.task_id),
                preds: r.preds as u64,
                flagged: r.flagged,
                staged_in_phase: r.staged_in_phase,
                blocks: r.blocks as u64,
                first_dispatch_us: r.first_dispatch_us,
                last_pred_task_id: r.last_pred_task_id.map(TaskId),
                last_pred_fin_us: r.last_pred_fin_us,
                dispatched_early: r.dispatched_early,
                early_blocks: r.early_blocks as u64,
                max_lead_us: r.max_lead_us,
                lead_start_us: r.lead_start_us,
                lead_end_us: r.lead_end_us,
            })
            .collect()
    });
    let chains = t.chains.as_ref().map(|c| {
        (0..c.len())
            .map(|i| {
                let ids = c.chain(i);
                let timing = t.chain_timing.get(i);
                ChainRow {
                    task_ids: ids.iter().copied().map(TaskId).collect(),
                    exec_us: timing.and_then(|x| x.exec_us),
                    start_us: timing.and_then(|x| x.start_us),
                    end_us: timing.and_then(|x| x.end_us),
                }
            })
            .collect()
    });
    PerfPathsData {
        dataset_id,
        critical_path_error: t.critical_path_error,
        makespan_us: t.makespan_us,
        static_path: path_info(t.static_path),
        observed_path: path_info(t.observed_path),
        compute_us: t.compute_us,
        stall_us: t.stall_us,
        tiling_exact: t.tiling_exact,
        stall_by_kind: t
            .stall_by_kind
            .into_iter()
            .map(|s| StallShareRow { kind: s.kind.to_string(), stall_us: s.stall_us, makespan_pct: s.makespan_pct })
            .collect(),
        families: t
            .families
            .into_iter()
            .map(|f| FamilyShareRow {
                family: f.family,
                compute_us: f.compute_us,
                makespan_pct: f.makespan_pct,
                stall_us: f.stall_us,
                on_path: f.on_path as u64,
            })
            .collect(),
        gap_rows,
        early_dispatch: early_rows,
        early_phase_records: early.map_or(0, |e| e.phase_records as u64),
        early_phase_blocks: early.map_or(0, |e| e.phase_blocks),
        early_flagged_producers: early.map_or(0, |e| e.flagged_producers as u64),
        chains,
        chains_excluded_tasks: t.chains.as_ref().map_or(0, |c| c.excluded_tasks as u64),
        chains_compute_edges: t.chains.as_ref().map_or(0, |c| c.compute_edges as u64),
        warnings: t.warnings.into_iter().map(|w| w.message).collect(),
    }
}
