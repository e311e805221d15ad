//! Worker View render columns (runtime-formats.md §6.4, pid 4): one lane per AICore that ran
//! at least one task, ordered by core id like the reference converter's thread ids
//! (`10000 + 10 * core`), named `AIC_<core>` / `AIV_<core>`; one bar per joined task from
//! receive (or start) to end, sorted by start within each lane. For the worker, which hands
//! these columns to the page as typed arrays.

use crate::tasks::{FuncIdOf, JoinedTasks};
use pypto_formats::records::CoreType;

/// Colour keys at or above this value come from a task id hash (unresolved func id).
pub const UNRESOLVED_COLOR_BASE: u32 = 0x8000_0000;

/// One Worker View lane.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WorkerLane {
    pub core_id: u32,
    pub core_type: CoreType,
    /// `AIC_<core>` / `AIV_<core>`.
    pub label: String,
}

/// Flattened Worker View bars: lane `l` owns bars `lane_offsets[l]..lane_offsets[l + 1]`.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct WorkerView {
    pub lanes: Vec<WorkerLane>,
    /// `lanes.len() + 1` entries.
    pub lane_offsets: Vec<u32>,
    pub start_us: Vec<f64>,
    pub end_us: Vec<f64>,
    /// Index into the [`JoinedTasks`] columns.
    pub task_row: Vec<u32>,
    /// func id when resolved (< 2^31), else [`UNRESOLVED_COLOR_BASE`] | hash(task id).
    pub color_index: Vec<u32>,
    pub first_start_us: f64,
    pub last_end_us: f64,
}

fn mix(mut x: u64) -> u64 {
    // splitmix64 finaliser: a stable, well-spread hash of the task id.
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Colour key of a row.
pub fn color_key(task_id: u64, func_id: i64) -> u32 {
    if (0..i64::from(UNRESOLVED_COLOR_BASE)).contains(&func_id) {
        func_id as u32
    } else {
        UNRESOLVED_COLOR_BASE | (mix(task_id) as u32 & 0x7FFF_FFFF)
    }
}

/// Bar start of a row: the receive time (which equals the start for 5-column rows and v1
/// files). A receive of exactly 0.0 is the earliest event, not "absent": the reference
/// draws it from 0.0 too (checked against the L1 fixtures).
pub fn bar_start_us(tasks: &JoinedTasks, i: usize) -> f64 {
    let start = tasks.start_us(i).unwrap_or(0.0);
    tasks.receive_us(i).unwrap_or(start)
}

/// Builds the Worker View columns. `func_ids` is [`crate::tasks::func_ids`] (may be shorter:
/// missing entries count as unresolved).
pub fn build(tasks: &JoinedTasks, func_ids: &(impl FuncIdOf + ?Sized)) -> WorkerView {
    let mut order: Vec<u32> = (0..tasks.len() as u32).collect();
    let start_of = |i: u32| bar_start_us(tasks, i as usize);
    let core_of = |i: u32| tasks.core_id.get(i as usize).unwrap_or(0);
    order.sort_by(|&a, &b| core_of(a).cmp(&core_of(b)).then(start_of(a).total_cmp(&start_of(b))));
    let mut v = WorkerView::default();
    let mut first = f64::INFINITY;
    let mut last = f64::NEG_INFINITY;
    for &i in &order {
        let core = core_of(i);
        if v.lanes.last().is_none_or(|l| l.core_id != core) {
            let ct = tasks.core_type(i as usize).unwrap_or_default();
            v.lane_offsets.push(v.start_us.len() as u32);
            v.lanes.push(WorkerLane { core_id: core, core_type: ct, label: format!("{}_{core}", ct.lane_prefix()) });
        }
        let s = start_of(i);
        let e = tasks.end_us(i as usize).unwrap_or(s);
        first = first.min(s);
        last = last.max(e);
        v.start_us.push(s);
        v.end_us.push(e);
        v.task_row.push(i);
        let tid = tasks.task_id.get(i as usize).unwrap_or(0);
        v.color_index.push(color_key(tid, func_ids.func_id(i as usize)));
    }
    v.lane_offsets.push(v.start_us.len() as u32);
    if v.start_us.is_empty() {
        first = 0.0;
        last = 0.0;
    }
    v.first_start_us = first;
    v.last_end_us = last;
    v
}
