//! Gap and blocker analysis of the observed critical path (toolkit-features.md I9; the
//! observed path of runtime-formats.md §4.4, computed by [`crate::critical_path`] — no
//! `CPM_observed.json` needed).
//!
//! For every task on the observed path, head first:
//!
//! - **blocker** = the task the backward blame walk chose for it, i.e. the previous task on the
//!   path; **cause** = how it gated the start: [`GapCause::SameCore`] when it is the same-core
//!   predecessor whose slice occupied the core (`core-wait`), [`GapCause::Predecessor`] when it
//!   is a data predecessor the task waited for (`data-wait`). The head has no blocker
//!   ([`GapCause::Launch`], `front-gap`).
//! - **preceding gap** = `start − blocker_end`, where `blocker_end` is what the walk scored: the
//!   same-core slice end (core occupancy) or the predecessor's end (its last block); for the
//!   head, `start − t0` (the earliest start of the capture). Clamped at 0 (the walk tolerates
//!   `tol` ticks of overlap). The gap is the idle time between the blocker releasing the task
//!   and the task starting: dispatch/scheduling latency.
//! - **stall** = the tiling stall of the report (`start − frontier`); it equals the gap unless an
//!   earlier path task ended later than the blocker (then stall < gap).
//! - `gap_start_us` / `gap_end_us` are on the Worker View µs axis (the capture's time base), so
//!   the UI can draw the "Draw Preceding Gap" markers; rows above a threshold are the red ones
//!   ([`GapBlockerTable::above`], threshold checked by [`parse_threshold_us`]).

use crate::critical_path::{CriticalPath, StallKind, TaskGraph};

/// Why a path task did not start earlier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum GapCause {
    /// Another task occupied the same core (`core-wait`).
    SameCore,
    /// Waiting for a predecessor to finish (`data-wait`).
    Predecessor,
    /// Path head: launch/dispatch delay (`front-gap`).
    Launch,
}

impl GapCause {
    fn of(kind: StallKind) -> Self {
        match kind {
            StallKind::CoreWait => Self::SameCore,
            StallKind::DataWait => Self::Predecessor,
            StallKind::FrontGap => Self::Launch,
        }
    }
    /// `same-core` | `predecessor` | `launch`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SameCore => "same-core",
            Self::Predecessor => "predecessor",
            Self::Launch => "launch",
        }
    }
}

/// The table as columns, one row per observed-path task, head first.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct GapBlockerTable {
    pub task_id: Vec<u64>,
    pub name: Vec<String>,
    pub start_us: Vec<f64>,
    pub end_us: Vec<f64>,
    pub gap_us: Vec<f64>,
    pub gap_start_us: Vec<f64>,
    pub gap_end_us: Vec<f64>,
    pub cause: Vec<GapCause>,
    pub blocker_task_id: Vec<Option<u64>>,
    pub stall_us: Vec<f64>,
}

impl GapBlockerTable {
    pub fn len(&self) -> usize {
        self.task_id.len()
    }
    pub fn is_empty(&self) -> bool {
        self.task_id.is_empty()
    }
    /// Rows whose gap is strictly above `threshold_us`.
    pub fn above(&self, threshold_us: f64) -> Vec<usize> {
        self.gap_us.iter().enumerate().filter(|(_, &g)| g > threshold_us).map(|(i, _)| i).collect()
    }
}

/// Validates a user-entered gap threshold in µs: a finite number ≥ 0.
pub fn parse_threshold_us(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        Ok(_) => Err(format!("gap threshold `{}` must be a finite number of µs ≥ 0", text.trim())),
        Err(_) => Err(format!("gap threshold `{}` is not a number (µs, e.g. 10 or 2.5)", text.trim())),
    }
}

/// Builds the table from the graph and its analysed critical path.
pub fn gap_blocker(g: &TaskGraph, cp: &CriticalPath) -> GapBlockerTable {
    let p = &cp.observed;
    let mut t = GapBlockerTable::default();
    for i in 0..p.len() {
        let ti = p.task_index.get(i).copied().unwrap_or(0) as usize;
        let start = g.start_ticks.get(ti).copied().unwrap_or(0);
        let end = g.end_ticks.get(ti).copied().unwrap_or(0);
        let kind = p.kind.get(i).copied().unwrap_or(StallKind::FrontGap);
        let from = p.blocker_end_ticks.get(i).copied().flatten().unwrap_or(g.t0_ticks);
        let gap_from = from.min(start);
        t.task_id.push(p.task_id.get(i).copied().unwrap_or(0));
        t.name.push(p.name.get(i).cloned().unwrap_or_default());
        t.start_us.push(g.abs_us(start));
        t.end_us.push(g.abs_us(end));
        t.gap_us.push(g.us(start - gap_from));
        t.gap_start_us.push(g.abs_us(gap_from));
        t.gap_end_us.push(g.abs_us(start));
        t.cause.push(GapCause::of(kind));
        t.blocker_task_id.push(p.blocker_task_id.get(i).copied().flatten());
        t.stall_us.push(g.us(p.stall_ticks.get(i).copied().unwrap_or(0)));
    }
    t
}
