//! Performance panel overview (toolkit-features.md I3; metric definitions of §3.4, "the PyPTO
//! toolkit definitions"), over the joined task rows (one row per AICore execution, so an SPMD
//! task counts once per block):
//!
//! - **Task Time** = last row `end_us` − first row `start_us` (kernel start; setup excluded).
//! - **AICore Time** = Σ over rows of `max(0, end_us − start_us)` (busy kernel time, setup
//!   excluded).
//! - **AICore utilisation** = AICore Time / (Task Time × active cores) × 100 %, where active
//!   cores = distinct `core_id`s with at least one row; 0 when Task Time or the core count is 0.

use crate::tasks::JoinedTasks;
use pypto_formats::records::CoreType;
use std::collections::BTreeSet;

/// The overview block.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Overview {
    /// Joined rows (AICore executions).
    pub rows: usize,
    /// Distinct task ids.
    pub tasks: usize,
    pub first_start_us: f64,
    pub last_end_us: f64,
    pub task_time_us: f64,
    pub aicore_time_us: f64,
    pub active_cores: usize,
    pub active_aic_cores: usize,
    pub active_aiv_cores: usize,
    pub utilisation_pct: f64,
}

/// Computes the overview (all zero for an empty table).
pub fn overview(t: &JoinedTasks) -> Overview {
    if t.is_empty() {
        return Overview::default();
    }
    let first = t.starts_us().fold(f64::INFINITY, f64::min);
    let last = t.ends_us().fold(f64::NEG_INFINITY, f64::max);
    let busy: f64 = t.starts_us().zip(t.ends_us()).map(|(s, e)| (e - s).max(0.0)).sum();
    let mut cores: BTreeSet<(u32, CoreType)> = BTreeSet::new();
    for (c, ct) in t.core_id.iter().zip(t.core_types()) {
        cores.insert((c, ct));
    }
    let ids: BTreeSet<u64> = t.task_id.iter().collect();
    let task_time = (last - first).max(0.0);
    let active = cores.iter().map(|(c, _)| *c).collect::<BTreeSet<u32>>().len();
    let util = if task_time > 0.0 && active > 0 { busy / (task_time * active as f64) * 100.0 } else { 0.0 };
    Overview {
        rows: t.len(),
        tasks: ids.len(),
        first_start_us: first,
        last_end_us: last,
        task_time_us: task_time,
        aicore_time_us: busy,
        active_cores: active,
        active_aic_cores: cores.iter().filter(|(_, t)| *t == CoreType::Aic).count(),
        active_aiv_cores: cores.iter().filter(|(_, t)| *t == CoreType::Aiv).count(),
        utilisation_pct: util,
    }
}
