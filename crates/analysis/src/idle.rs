//! Scheduler idle reconstruction and the per-thread loop breakdown (runtime-formats.md §1.8,
//! `sched_overhead_analysis.py` part 5), for the Scheduler Phase view (idle gaps) and the
//! report.
//!
//! Per scheduler thread with at least one work record (`complete`, `async_poll`,
//! `dispatch`; everything else, legacy `idle`/`scan` included, is ignored): sort the work
//! records by start (stable); idle = Σ `max(0, start_i - max_end_so_far)`; time before the
//! first and after the last record is not counted. A phase's µs is the sum of its positive
//! durations; `total_us` = complete + `async_poll` + dispatch + idle and every `%` is of that
//! total. Loops = max `loop_iter`; FINs = Σ `complete.tasks_processed`; pops = Σ
//! `dispatch.pop_hit` / `pop_miss`. Logical tasks of a thread: joined tasks whose latest
//! finishing row (strictly later wins) is on a core that `core_to_thread` maps to it; when no
//! task maps at all, the FIN count.

use crate::task_kinds::{sched_phases_us, SchedPhasesUs};
use crate::tasks::JoinedTasks;
use crate::timebase::Timebase;
use pypto_formats::records::{ChipRecords, SchedKind};
use std::collections::HashMap;

/// One scheduler thread's numbers and idle gaps.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ThreadIdle {
    /// Scheduler thread index (position of its phase list).
    pub thread: u32,
    /// Max `loop_iter` over the work records.
    pub loops: u32,
    /// Logical tasks attributed to the thread (see the module doc).
    pub logical_tasks: u64,
    /// Σ `complete.tasks_processed` (FIN / retire count).
    pub fins: u64,
    pub pop_hit: u64,
    pub pop_miss: u64,
    /// `pop_hit / (pop_hit + pop_miss) * 100`, 0 when no pops.
    pub pop_hit_rate_pct: f64,
    pub complete_us: f64,
    pub async_poll_us: f64,
    pub dispatch_us: f64,
    pub idle_us: f64,
    pub total_us: f64,
    pub complete_pct: f64,
    pub async_poll_pct: f64,
    pub dispatch_pct: f64,
    pub idle_pct: f64,
    /// `total_us * 1000 / loops` (0 without loops).
    pub ns_per_loop: f64,
    /// Idle gaps `[gap_start_us[k], gap_end_us[k])`, ascending.
    pub gap_start_us: Vec<f64>,
    pub gap_end_us: Vec<f64>,
}

/// Sums over every thread with work records (the reference's "SUM" row and phase table).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct IdleTotals {
    pub loops: u64,
    pub logical_tasks: u64,
    pub fins: u64,
    pub pop_hit: u64,
    pub pop_miss: u64,
    pub pop_hit_rate_pct: f64,
    pub complete_us: f64,
    pub async_poll_us: f64,
    pub dispatch_us: f64,
    pub idle_us: f64,
    pub total_us: f64,
    pub complete_pct: f64,
    pub async_poll_pct: f64,
    pub dispatch_pct: f64,
    pub idle_pct: f64,
    /// Phase µs per logical task (the reference's "Avg/task (us)").
    pub complete_per_task_us: f64,
    pub async_poll_per_task_us: f64,
    pub dispatch_per_task_us: f64,
    pub idle_per_task_us: f64,
    /// `total_us * 1000 / loops`.
    pub ns_per_loop: f64,
}

/// The breakdown of one capture.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct IdleReport {
    /// Threads with at least one work record, ascending.
    pub threads: Vec<ThreadIdle>,
    pub totals: IdleTotals,
}

fn pct(part: f64, total: f64) -> f64 {
    if total > 0.0 {
        part / total * 100.0
    } else {
        0.0
    }
}

/// Reconstructs idle and the loop breakdown (`tasks` = [`crate::tasks::join`] of `records`).
pub fn compute(records: &ChipRecords, tasks: &JoinedTasks) -> IdleReport {
    let tb = tasks.timebase.clone().unwrap_or_else(|| Timebase::from_records(records));
    let phases = sched_phases_us(records, &tb);
    compute_from_phases(&phases, tasks, &records.metadata.core_to_thread)
}

/// [`compute`] over already converted phases.
pub fn compute_from_phases(phases: &[SchedPhasesUs], tasks: &JoinedTasks, core_to_thread: &[i32]) -> IdleReport {
    // Logical task -> (latest finish, thread).
    let mut last_finish: HashMap<u64, (f64, u32)> = HashMap::new();
    for i in 0..tasks.len() {
        let (Some(id), Some(core), Some(fin)) = (tasks.task_id.get(i), tasks.core_id.get(i), tasks.finish_us(i)) else {
            continue;
        };
        let Some(thread) = core_to_thread.get(core as usize).and_then(|&t| u32::try_from(t).ok()) else {
            continue;
        };
        let e = last_finish.entry(id).or_insert((fin, thread));
        if fin > e.0 {
            *e = (fin, thread);
        }
    }
    let mut tasks_by_thread: HashMap<u32, u64> = HashMap::new();
    for &(_, t) in last_finish.values() {
        *tasks_by_thread.entry(t).or_default() += 1;
    }

    let mut report = IdleReport::default();
    for (ti, p) in phases.iter().enumerate() {
        if let Some(mut t) = thread_idle(ti as u32, p) {
            t.logical_tasks = if last_finish.is_empty() { t.fins } else { tasks_by_thread.get(&t.thread).copied().unwrap_or(0) };
            report.threads.push(t);
        }
    }
    report.totals = totals(&report.threads);
    report
}

/// One thread's numbers (logical tasks left 0), `None` without work records.
fn thread_idle(thread: u32, p: &SchedPhasesUs) -> Option<ThreadIdle> {
    let mut work: Vec<usize> =
        (0..p.len()).filter(|&r| matches!(p.kind.get(r), Some(SchedKind::Complete | SchedKind::AsyncPoll | SchedKind::Dispatch))).collect();
    if work.is_empty() {
        return None;
    }
    let start = |r: usize| p.start_us.get(r).unwrap_or(0.0);
    work.sort_by(|&a, &b| start(a).total_cmp(&start(b)));
    let mut t = ThreadIdle { thread, ..ThreadIdle::default() };
    let mut prev_end: Option<f64> = None;
    for &r in &work {
        let s = start(r);
        let e = p.end_us.get(r).unwrap_or(s);
        if let Some(pe) = prev_end {
            if s > pe {
                t.idle_us += s - pe;
                t.gap_start_us.push(pe);
                t.gap_end_us.push(s);
            }
        }
        let dur = e - s;
        let kind = p.kind.get(r);
        if dur > 0.0 {
            match kind {
                Some(SchedKind::Complete) => t.complete_us += dur,
                Some(SchedKind::AsyncPoll) => t.async_poll_us += dur,
                _ => t.dispatch_us += dur,
            }
        }
        match kind {
            Some(SchedKind::Complete) => {
                t.fins += u64::from(p.tasks_processed.get(r).unwrap_or(0));
            }
            Some(SchedKind::Dispatch) => {
                t.pop_hit += u64::from(p.pop_hit.get(r).unwrap_or(0));
                t.pop_miss += u64::from(p.pop_miss.get(r).unwrap_or(0));
            }
            _ => {}
        }
        t.loops = t.loops.max(p.loop_iter.get(r).unwrap_or(0));
        if prev_end.is_none_or(|pe| e > pe) {
            prev_end = Some(e);
        }
    }
    t.total_us = t.complete_us + t.async_poll_us + t.dispatch_us + t.idle_us;
    t.complete_pct = pct(t.complete_us, t.total_us);
    t.async_poll_pct = pct(t.async_poll_us, t.total_us);
    t.dispatch_pct = pct(t.dispatch_us, t.total_us);
    t.idle_pct = pct(t.idle_us, t.total_us);
    t.pop_hit_rate_pct = pct(t.pop_hit as f64, (t.pop_hit + t.pop_miss) as f64);
    t.ns_per_loop = if t.loops > 0 { t.total_us * 1000.0 / f64::from(t.loops) } else { 0.0 };
    Some(t)
}

/// Sums in thread order, like the reference.
fn totals(threads: &[ThreadIdle]) -> IdleTotals {
    let mut s = IdleTotals::default();
    for t in threads {
        s.loops += u64::from(t.loops);
        s.logical_tasks += t.logical_tasks;
        s.fins += t.fins;
        s.pop_hit += t.pop_hit;
        s.pop_miss += t.pop_miss;
        s.complete_us += t.complete_us;
        s.async_poll_us += t.async_poll_us;
        s.dispatch_us += t.dispatch_us;
        s.idle_us += t.idle_us;
        s.total_us += t.total_us;
    }
    s.pop_hit_rate_pct = pct(s.pop_hit as f64, (s.pop_hit + s.pop_miss) as f64);
    s.complete_pct = pct(s.complete_us, s.total_us);
    s.async_poll_pct = pct(s.async_poll_us, s.total_us);
    s.dispatch_pct = pct(s.dispatch_us, s.total_us);
    s.idle_pct = pct(s.idle_us, s.total_us);
    let per_task = |v: f64| {
        if s.logical_tasks > 0 {
            v / s.logical_tasks as f64
        } else {
            0.0
        }
    };
    s.complete_per_task_us = per_task(s.complete_us);
    s.async_poll_per_task_us = per_task(s.async_poll_us);
    s.dispatch_per_task_us = per_task(s.dispatch_us);
    s.idle_per_task_us = per_task(s.idle_us);
    s.ns_per_loop = if s.loops > 0 { s.total_us * 1000.0 / s.loops as f64 } else { 0.0 };
    s
}
