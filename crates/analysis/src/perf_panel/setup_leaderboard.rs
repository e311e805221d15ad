//! Setup leaderboards of the performance panel (toolkit-features.md G6/I6), over the joined
//! task rows (one per AICore execution):
//!
//! - **setup** = `start_us − receive_us` (the AICore receive→start interval, §1.5);
//! - **setup ratio** = setup / (`end_us − receive_us`), i.e. setup over setup + exec;
//! - only rows with setup > 0 take part (5-column and v1 captures have no receive time, so
//!   both boards are empty and [`SetupLeaderboards::rows_with_setup`] is 0);
//! - each board is sorted by its value, largest first, ties by `(task_id, core_id)` ascending,
//!   and cut to `top` rows.

use crate::tasks::JoinedTasks;

/// One leaderboard entry.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SetupEntry {
    /// Index into the [`JoinedTasks`] columns.
    pub row: u32,
    pub task_id: u64,
    pub core_id: u32,
    pub setup_us: f64,
    pub exec_us: f64,
    /// setup / (setup + exec), 0..=1.
    pub setup_ratio: f64,
}

/// Both boards.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct SetupLeaderboards {
    pub longest_setup: Vec<SetupEntry>,
    pub largest_ratio: Vec<SetupEntry>,
    pub rows_with_setup: usize,
}

/// Builds the boards with `top` rows each.
pub fn setup_leaderboards(t: &JoinedTasks, top: usize) -> SetupLeaderboards {
    let mut all: Vec<SetupEntry> = Vec::new();
    for i in 0..t.len() {
        let (Some(s), Some(e), Some(r)) = (t.start_us(i), t.end_us(i), t.receive_us(i)) else {
            continue;
        };
        let setup = s - r;
        if setup <= 0.0 || !setup.is_finite() {
            continue;
        }
        let total = e - r;
        all.push(SetupEntry {
            row: i as u32,
            task_id: t.task_id.get(i).unwrap_or(0),
            core_id: t.core_id.get(i).unwrap_or(0),
            setup_us: setup,
            exec_us: e - s,
            setup_ratio: if total > 0.0 { setup / total } else { 0.0 },
        });
    }
    let rows_with_setup = all.len();
    let key = |a: &SetupEntry, b: &SetupEntry| (a.task_id, a.core_id).cmp(&(b.task_id, b.core_id));
    let mut longest = all.clone();
    longest.sort_by(|a, b| b.setup_us.total_cmp(&a.setup_us).then_with(|| key(a, b)));
    longest.truncate(top);
    all.sort_by(|a, b| b.setup_ratio.total_cmp(&a.setup_ratio).then_with(|| key(a, b)));
    all.truncate(top);
    SetupLeaderboards { longest_setup: longest, largest_ratio: all, rows_with_setup }
}
