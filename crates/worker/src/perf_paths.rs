//! The path tabs of the Performance Analysis panel (critical path, gap & blocker, early
//! dispatch, continuous single-dependency chains) for the page: computed by
//! `pypto_analysis::perf_panel::paths` on the first `ToWorker::PerfPaths` of a runtime dataset
//! (the app asks when a path tab opens), not at load — the analyses need the raw records and
//! `deps.json`, which the worker drops once the model is built, so a job reads them again then
//! ([`crate::job_work::path_tables`]) — and kept as small result tables until the next folder
//! opens. Answers `ToWorker::PerfPaths` and `ToWorker::GapThreshold`.

use std::cell::RefCell;
use std::collections::HashMap;

use pypto_analysis::perf_panel::gap_blocker::{self, GapBlockerTable};
use pypto_analysis::perf_panel::paths::{PathInfo, PathTables};
use pypto_protocol::perf::{
    ChainRow, CriticalPathInfo, EarlyDispatchRow, FamilyShareRow, GapRow, GapThreshold, GapThresholdRequest, PathTaskRow, PerfPathsData,
    PerfPathsRequest, StallShareRow,
};
use pypto_protocol::TaskId;

use crate::session::SESSION;
use crate::transport::Reply;

/// One dataset's tables: what the page gets, and the gap column the threshold check reads.
struct Stored {
    data: PerfPathsData,
    gaps: GapBlockerTable,
}

#[derive(Default)]
struct Store {
    /// The session generation these tables belong to.
    generation: u64,
    /// Datasets whose tables a job is computing, with the requests waiting for them: the
    /// tables' and the gap-threshold checks'.
    pending: HashMap<u32, Waiting>,
    datasets: HashMap<u32, Stored>,
}

/// Requests that wait for a dataset's tables.
#[derive(Default)]
struct Waiting {
    tables: Vec<Reply<PerfPathsRequest>>,
    thresholds: Vec<(String, Reply<GapThresholdRequest>)>,
}

thread_local! {
    static STORE: RefCell<Store> = RefCell::new(Store::default());
}

/// Computes the tables in a job ([`crate::job_work::path_tables`]: the records, deps.json and
/// CPM files read again) and keeps them.
async fn compute(generation: u64, dataset_id: u32) -> Result<PerfPathsData, String> {
    let (mut datasets, files) = crate::session::job_inputs(&[dataset_id])?;
    let inputs = datasets.pop().ok_or("no dataset")?;
    let (reply, columns) = crate::jobs::ask(&crate::jobs::ToJob::PerfPaths(inputs), &files).await?;
    if !matches!(reply, crate::jobs::FromJob::PathTables) {
        return Err("the path job answered something else".to_owned());
    }
    let result: crate::job_work::PathResult = crate::jobs::decode_at(&columns, "tables")?;
    if SESSION.with_borrow(|s| s.generation) != generation {
        return Err("a new folder was opened".to_string());
    }
    let gaps = GapBlockerTable { gap_us: result.gap_us, ..GapBlockerTable::default() };
    STORE.with_borrow_mut(|s| {
        if s.generation != generation {
            *s = Store { generation, ..Store::default() };
        }
        s.datasets.insert(dataset_id, Stored { data: result.data.clone(), gaps });
    });
    Ok(result.data)
}

fn with_stored<R>(dataset_id: u32, f: impl FnOnce(&Stored) -> R) -> Option<R> {
    let generation = SESSION.with_borrow(|s| s.generation);
    STORE.with_borrow(|s| if s.generation == generation { s.datasets.get(&dataset_id).map(f) } else { None })
}

/// `ToWorker::PerfPaths`: the stored tables, or computes them (once; a request while they are
/// computed is answered when they are done).
pub(crate) fn paths(dataset_id: u32, reply: Reply<PerfPathsRequest>) {
    if let Some(data) = with_stored(dataset_id, |s| s.data.clone()) {
        return reply.send(data);
    }
    let generation = SESSION.with_borrow(|s| s.generation);
    let has_model = SESSION.with_borrow(|s| s.runtime.get(&dataset_id).is_some_and(|d| d.model.is_some()));
    if !has_model {
        return reply.fail(format!("dataset {dataset_id} has no path analyses (no readable swimlane records)"));
    }
    let start = STORE.with_borrow_mut(|s| {
        if s.generation != generation {
            *s = Store { generation, ..Store::default() };
        }
        let start = !s.pending.contains_key(&dataset_id);
        s.pending.entry(dataset_id).or_default().tables.push(reply);
        start
    });
    if !start {
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let result = compute(generation, dataset_id).await;
        let waiting = STORE.with_borrow_mut(|s| s.pending.remove(&dataset_id)).unwrap_or_default();
        if SESSION.with_borrow(|s| s.generation) != generation {
            return;
        }
        for reply in waiting.tables {
            reply.answer(result.clone());
        }
        for (text, reply) in waiting.thresholds {
            reply.answer(threshold(dataset_id, text));
        }
    });
}

/// `ToWorker::GapThreshold`: the analysis' own validation and row filter (answered once the
/// tables are computed when they are being computed).
pub(crate) fn gap_threshold(request: GapThresholdRequest, reply: Reply<GapThresholdRequest>) {
    let GapThresholdRequest { dataset_id, text } = request;
    let waiting = STORE.with_borrow_mut(|s| match s.pending.get_mut(&dataset_id) {
        Some(w) => {
            w.thresholds.push((text.clone(), reply));
            None
        }
        None => Some(reply),
    });
    if let Some(reply) = waiting {
        reply.answer(threshold(dataset_id, text));
    }
}

fn threshold(dataset_id: u32, text: String) -> Result<GapThreshold, String> {
    let result = with_stored(dataset_id, |s| gap_blocker::parse_threshold_us(&text).map(|t| s.gaps.above(t)))
        .ok_or_else(|| format!("dataset {dataset_id} has no gap table"))?;
    let (error, above) = match result {
        Ok(rows) => (None, rows.into_iter().map(|r| r as u32).collect()),
        Err(message) => (Some(message), Vec::new()),
    };
    Ok(GapThreshold { dataset_id, text, error, above })
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

pub(crate) fn to_protocol(dataset_id: u32, t: PathTables) -> PerfPathsData {
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
        warnings: t.warnings,
    }
}
