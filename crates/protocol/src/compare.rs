//! Comparing two runtime captures of the same workload (issue 19): A is the baseline, B this
//! run. The messages of the page's comparison (`CompareRequest` → [`Comparison`]: summary
//! numbers, the per-function table of both sides, the task matching) and of its task
//! highlighting (`TaskMatchRequest` → [`TaskMatch`]: a selected task's partner in the other
//! run). Computed by `pypto_replies::compare`, which `pypto-viewer compare` prints too.
//!
//! Every per-side value is an `[A, B]` pair of `Option`s: `None` where a side lacks the
//! function or the number (a level-1 capture has no latency, a capture without critical path
//! no path length).

use pypto_vocab::TaskId;
use serde::{Deserialize, Serialize};

use crate::Request;

/// Compares runtime dataset `current_id` (B) with `baseline_id` (A). Reply: [`Comparison`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareRequest {
    pub baseline_id: u32,
    pub current_id: u32,
}

/// The partner of one task in the other run of a comparison (the matching of the last
/// [`CompareRequest`] of the same pair). Reply: [`TaskMatch`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskMatchRequest {
    pub baseline_id: u32,
    pub current_id: u32,
    /// 0: `task` is A's (the baseline's), 1: B's.
    pub side: u8,
    pub task: TaskId,
}

crate::request!(CompareRequest => Compare(Box<Comparison>));
crate::request!(TaskMatchRequest => TaskMatch(TaskMatch));

/// A task's partner in the other run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskMatch {
    /// The side of `task` (0 = A, 1 = B), as asked.
    pub side: u8,
    pub task: TaskId,
    /// The matched task of the other side; `None`: unmatched (or not a task with AICore rows).
    pub other: Option<TaskId>,
    /// How: `"id"` (same function and task id) or `"order"` (k-th execution of the function).
    pub rule: Option<String>,
}

/// Which way a summary number is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Better {
    Lower,
    Higher,
    /// Neither (task counts): a change is only a change.
    Neither,
}

/// One number of both runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// Stable key (`makespan_us`, `stall_data_wait_us`, `tasks_regular`, …; the CLI's JSON
    /// keys).
    pub key: String,
    pub label: String,
    /// `us` | `%` | `count`.
    pub unit: String,
    pub a: Option<f64>,
    pub b: Option<f64>,
    pub better: Better,
}

/// One function of the reference converter's "Task Statistics by Function" in both runs:
/// each side's values are exactly that capture's row (what `pypto-viewer report` prints).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FunctionDelta {
    /// The converter's function name (name map entry, else `func_<id>_<letters>`).
    pub name: String,
    pub func_id: [Option<i64>; 2],
    /// AICore rows (SPMD / MIX blocks count individually); `None`: the side lacks the function.
    pub count: [Option<u64>; 2],
    pub total_exec_us: [Option<f64>; 2],
    pub avg_exec_us: [Option<f64>; 2],
    pub max_exec_us: [Option<f64>; 2],
    pub min_exec_us: [Option<f64>; 2],
    /// Level ≥ 2 only (dispatch → finish).
    pub avg_latency_us: [Option<f64>; 2],
    pub exec_pct: [Option<f64>; 2],
    pub avg_head_oh_us: [Option<f64>; 2],
    pub avg_tail_oh_us: [Option<f64>; 2],
    pub avg_prop_us: [Option<f64>; 2],
    pub avg_local_us: [Option<f64>; 2],
}

/// Per function: the per-task Δ exec (B − A, µs) of its matched tasks.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FunctionTaskDeltas {
    /// The task's function: its kernel's name, or a MIX task's kernels' names joined by ` + `.
    pub function: String,
    pub matched: u64,
    pub only_a: u64,
    pub only_b: u64,
    /// `None` without matched tasks.
    pub mean_delta_us: Option<f64>,
    pub median_delta_us: Option<f64>,
    /// Histogram of the Δs: `counts[i]` Δs in `[bin_edges_us[i], bin_edges_us[i + 1])` (the
    /// last bin includes its upper edge); empty without matched tasks.
    pub bin_edges_us: Vec<f64>,
    pub counts: Vec<u64>,
}

/// One matched task pair with a large |Δ exec|.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskDelta {
    pub function: String,
    pub a_task: TaskId,
    pub b_task: TaskId,
    /// A task's exec: last end − first start over its AICore rows (all blocks).
    pub a_exec_us: f64,
    pub b_exec_us: f64,
    /// `b_exec_us − a_exec_us`.
    pub delta_us: f64,
    /// `"id"` | `"order"`.
    pub rule: String,
    /// First kernel start, each on its run's µs axis (the swimlane's).
    pub a_start_us: f64,
    pub b_start_us: f64,
}

/// The task matching of the two runs. A task is one task id with AICore rows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskMatching {
    /// Tasks with AICore rows in A and in B.
    pub tasks: [u64; 2],
    pub matched: u64,
    pub only_a: u64,
    pub only_b: u64,
    pub matched_by_id: u64,
    pub matched_by_order: u64,
    /// By function name.
    pub per_function: Vec<FunctionTaskDeltas>,
    /// The matched pairs of largest |Δ exec|, largest first.
    pub top: Vec<TaskDelta>,
}

/// The comparison of two runtime captures (see the module doc).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub baseline_id: u32,
    pub current_id: u32,
    pub summary: Vec<SummaryRow>,
    /// How functions were paired: `"name"` (both sides have a name map) or `"func_id"`
    /// (names derived from func ids on at least one side; see `notes`).
    pub function_key: String,
    /// Sorted by |Δ total exec| descending (a missing side counts 0), then name.
    pub functions: Vec<FunctionDelta>,
    pub tasks: TaskMatching,
    /// What the reader should know: different clocks or levels, unresolved func ids, critical
    /// paths not available and why.
    pub notes: Vec<pypto_vocab::RunsNote>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FromWorker, ToWorker};

    #[test]
    fn requests_travel_tagged_and_task_ids_as_strings() {
        let json = serde_json::to_string(&CompareRequest { baseline_id: 1, current_id: 2 }.into_message()).unwrap_or_default();
        assert_eq!(json, r#"{"type":"compare","baseline_id":1,"current_id":2}"#);
        let m = TaskMatchRequest { baseline_id: 1, current_id: 2, side: 1, task: TaskId(u64::MAX) }.into_message();
        let json = serde_json::to_string(&m).unwrap_or_default();
        assert!(json.starts_with(r#"{"type":"task_match""#) && json.contains(r#""task":"18446744073709551615""#), "{json}");
        let back: Option<ToWorker> = serde_json::from_str(&json).ok();
        assert_eq!(back, Some(m));
        let reply = TaskMatch { side: 0, task: TaskId(5), other: Some(TaskId(7)), rule: Some("order".into()) };
        let msg = TaskMatchRequest::reply_message(reply.clone());
        assert!(matches!(&msg, FromWorker::TaskMatch(_)));
        assert_eq!(TaskMatchRequest::reply_of(msg), Ok(reply));
        let c = Box::new(Comparison { baseline_id: 1, current_id: 2, ..Comparison::default() });
        assert_eq!(CompareRequest::reply_of(CompareRequest::reply_message(c.clone())), Ok(c));
        assert_eq!(serde_json::to_string(&Better::Neither).unwrap_or_default(), r#""neither""#);
    }
}
