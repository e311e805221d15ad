//! Early dispatch analysis (toolkit-features.md I10): did tasks that may be dispatched early
//! really leave the scheduler before their last predecessor's FIN, and by how much?
//!
//! Rules used here (the extension's "Early Dispatch configuration" is undocumented):
//!
//! - **Targets** are tasks in `deps.json` `tasks[]` with at least one predecessor (unique
//!   edges, self edges dropped) that either
//!   (a) match the static configuration — every predecessor is early-processable (an alloc
//!   task, or `early_dispatch: true`) and at least one is not an alloc: the ⭐ rule of
//!   runtime-formats.md §5.4 (`early_dispatch: true` on a producer lets its consumers be
//!   dispatched before it finishes) — [`EarlyDispatchRow::flagged`]; or
//!   (b) had a block dispatched inside a scheduler `early_dispatch` phase (the phase's
//!   `[start, end]` contains the AICPU dispatch time) — [`EarlyDispatchRow::staged_in_phase`].
//! - **FIN** of a predecessor = the latest AICPU `finish_us` over its joined rows (a dummy
//!   predecessor without rows: its `dummy_task` record time; an alloc: none — it completes at
//!   submit). **last predecessor FIN** = the largest of these.
//! - **dispatch** of the target = its joined rows' AICPU `dispatch_us`; the first (smallest)
//!   one is the task's dispatch.
//! - **dispatched early** iff first dispatch < last predecessor FIN; **maximum lead** =
//!   last predecessor FIN − first dispatch (0 when not early); `early_blocks` counts rows
//!   dispatched before that FIN. `lead_start_us`/`lead_end_us` are the "Draw Maximum Lead"
//!   markers (Scheduler View µs axis). A target without AICPU timing (level 1) or without any
//!   predecessor FIN has `dispatched_early == false` and no lead.

use crate::tasks::JoinedTasks;
use pypto_formats::deps::Deps;
use pypto_formats::records::{ChipRecords, SchedKind};
use std::collections::{HashMap, HashSet};

/// One target task.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EarlyDispatchRow {
    pub task_id: u64,
    /// Unique predecessors.
    pub preds: usize,
    /// Matches the static ⭐ configuration.
    pub flagged: bool,
    /// A block was dispatched inside a scheduler `early_dispatch` phase.
    pub staged_in_phase: bool,
    /// Joined rows with AICPU timing.
    pub blocks: usize,
    pub first_dispatch_us: Option<f64>,
    /// The predecessor with the latest FIN.
    pub last_pred_task_id: Option<u64>,
    pub last_pred_fin_us: Option<f64>,
    pub dispatched_early: bool,
    pub early_blocks: usize,
    pub max_lead_us: f64,
    pub lead_start_us: Option<f64>,
    pub lead_end_us: Option<f64>,
}

/// The analysis.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct EarlyDispatchAnalysis {
    /// Targets in `deps.json` task order.
    pub rows: Vec<EarlyDispatchRow>,
    /// Scheduler `early_dispatch` phase records and the blocks they staged.
    pub phase_records: usize,
    pub phase_blocks: u64,
    /// Tasks with `early_dispatch: true` in `deps.json`.
    pub flagged_producers: usize,
}

struct Windows {
    spans: Vec<(f64, f64)>,
}

impl Windows {
    fn contains(&self, t: f64) -> bool {
        self.spans.iter().any(|&(s, e)| s <= t && t <= e)
    }
}

/// Runs the analysis (see the module doc).
#[allow(clippy::too_many_lines)] // one pass per rule, in order
pub fn early_dispatch(tasks: &JoinedTasks, deps: &Deps, records: &ChipRecords) -> EarlyDispatchAnalysis {
    let mut out = EarlyDispatchAnalysis::default();
    // Scheduler phases: early_dispatch windows and dummy_task times, in µs.
    let mut win = Windows { spans: Vec::new() };
    let mut dummy_at: HashMap<u64, f64> = HashMap::new();
    if let Some(v1) = &records.v1_tasks {
        for th in &v1.sched_threads {
            for ((k, &s), &e) in th.kind.iter().zip(&th.start_us).zip(&th.end_us) {
                if *k == SchedKind::EarlyDispatch {
                    win.spans.push((s, e));
                }
            }
            for (k, &n) in th.kind.iter().zip(&th.tasks_processed) {
                if *k == SchedKind::EarlyDispatch {
                    out.phase_records += 1;
                    out.phase_blocks += u64::from(n);
                }
            }
        }
    } else if let Some(tb) = &tasks.timebase {
        for th in &records.sched_threads {
            for i in 0..th.len() {
                let (Some(k), Some(st), Some(en)) = (th.kind.get(i), th.start_cycles.get(i), th.end_cycles.get(i)) else {
                    continue;
                };
                match k {
                    SchedKind::EarlyDispatch => {
                        win.spans.push((tb.us(st), tb.us(en)));
                        out.phase_records += 1;
                        out.phase_blocks += u64::from(th.tasks_processed.get(i).unwrap_or(0));
                    }
                    SchedKind::DummyTask => {
                        if let Some(id) = th.task_id.get(i) {
                            let at = tb.us(st);
                            let slot = dummy_at.entry(id).or_insert(at);
                            *slot = slot.max(at);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    // Per task: FIN (max finish) and dispatches of rows with AICPU timing.
    let mut fin: HashMap<u64, f64> = HashMap::new();
    let mut dispatches: HashMap<u64, Vec<f64>> = HashMap::new();
    for i in 0..tasks.len() {
        if !tasks.has_aicpu(i) {
            continue;
        }
        let (Some(id), Some(d), Some(f)) = (tasks.task_id.get(i), tasks.dispatch_us(i), tasks.finish_us(i)) else {
            continue;
        };
        let slot = fin.entry(id).or_insert(f);
        *slot = slot.max(f);
        dispatches.entry(id).or_default().push(d);
    }
    for (id, v) in dummy_at {
        fin.entry(id).or_insert(v);
    }

    // Graph.
    let in_tasks: HashSet<u64> = deps.tasks.task_id.iter().copied().collect();
    let mut early_flag: HashMap<u64, bool> = HashMap::new();
    for (&id, &e) in deps.tasks.task_id.iter().zip(&deps.tasks.early_dispatch) {
        early_flag.insert(id, e);
    }
    out.flagged_producers = early_flag.values().filter(|&&e| e).count();
    let mut preds: HashMap<u64, Vec<u64>> = HashMap::new();
    let mut seen: HashSet<(u64, u64)> = HashSet::new();
    for (&p, &s) in deps.edges.pred.iter().zip(&deps.edges.succ) {
        if p != s && seen.insert((p, s)) {
            preds.entry(s).or_default().push(p);
        }
    }

    let mut done: HashSet<u64> = HashSet::new();
    for &id in &deps.tasks.task_id {
        if !done.insert(id) {
            continue;
        }
        let Some(ps) = preds.get(&id) else {
            continue;
        };
        let is_alloc = |p: &u64| !in_tasks.contains(p);
        let flagged = ps.iter().all(|p| is_alloc(p) || early_flag.get(p).copied().unwrap_or(false)) && ps.iter().any(|p| !is_alloc(p));
        let ds = dispatches.get(&id).map_or(&[][..], Vec::as_slice);
        let staged = ds.iter().any(|&d| win.contains(d));
        if !flagged && !staged {
            continue;
        }
        let mut last: Option<(u64, f64)> = None;
        for p in ps {
            if let Some(&f) = fin.get(p) {
                if last.is_none_or(|(_, lf)| f > lf) {
                    last = Some((*p, f));
                }
            }
        }
        let first = ds.iter().copied().reduce(f64::min);
        let (early, lead, early_blocks) = match (first, last) {
            (Some(d), Some((_, f))) if d < f => (true, f - d, ds.iter().filter(|&&x| x < f).count()),
            _ => (false, 0.0, 0),
        };
        out.rows.push(EarlyDispatchRow {
            task_id: id,
            preds: ps.len(),
            flagged,
            staged_in_phase: staged,
            blocks: ds.len(),
            first_dispatch_us: first,
            last_pred_task_id: last.map(|(p, _)| p),
            last_pred_fin_us: last.map(|(_, f)| f),
            dispatched_early: early,
            early_blocks,
            max_lead_us: lead,
            lead_start_us: early.then_some(first).flatten(),
            lead_end_us: if early { last.map(|(_, f)| f) } else { None },
        });
    }
    out
}
