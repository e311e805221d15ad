//! Reads the critical-path task set back from `CPM_static*.json` / `CPM_observed*.json`
//! (runtime-formats.md §4.1), for the swimlane's path highlighting, the critical-path golden
//! tests and the CLI report.
//!
//! A CPM file is a full copy of the merged Perfetto trace in which every Worker View bar
//! (`ph == "X"`, `pid == 4`) carrying `args.taskId` whose task is NOT on the selected path was
//! renamed to `·(<display id>)` (U+00B7). Dummy and alloc bars (`args.task_id`, not `taskId`)
//! keep their names and are not part of the path. So the path is the set of `args.taskId` of
//! Worker View `X` events whose name does not start with `·`. The file is streamed with
//! [`crate::chrome_trace::for_each_event`]; nothing but the path is kept, so a 350 MB copy
//! costs no more memory than its task count.

use crate::chrome_trace::{self, EventRef};
use crate::FormatError;
use pypto_vocab::{Warning, WarningKind};
use std::collections::BTreeMap;

/// The Worker View process id of the reference converter (§6.4).
pub const WORKER_VIEW_PID: i64 = 4;

/// The prefix of an off-path bar name.
pub const OFF_PATH_PREFIX: char = '\u{b7}';

/// Which path a CPM file holds, from its file name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum CpmKind {
    /// `CPM_static*.json`: the longest duration-weighted dependency path.
    Static,
    /// `CPM_observed*.json`: the as-executed (blame-walk) path.
    Observed,
}

impl CpmKind {
    /// `CPM_static*.json` → `Static`, `CPM_observed*.json` → `Observed` (file name only).
    pub fn from_file_name(name: &str) -> Option<Self> {
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let ext_ok = base.rsplit_once('.').is_some_and(|(_, e)| e.eq_ignore_ascii_case("json"));
        if !ext_ok {
            None
        } else if base.starts_with("CPM_static") {
            Some(Self::Static)
        } else if base.starts_with("CPM_observed") {
            Some(Self::Observed)
        } else {
            None
        }
    }
}

/// The task set read back from one CPM file.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CpmPath {
    /// On-path task ids (raw `u64`), ordered by their first bar's start (then id): for the
    /// observed path this is the path order.
    pub task_ids: Vec<u64>,
    /// Per on-path task: earliest bar `ts` (µs), parallel to `task_ids`.
    pub first_ts_us: Vec<f64>,
    /// Per on-path task: latest bar end `ts + dur` (µs), parallel to `task_ids`.
    pub last_end_us: Vec<f64>,
    /// Worker View task bars seen (on and off the path).
    pub task_bars: u64,
    /// Worker View task bars renamed `·(...)` (off the path).
    pub off_path_bars: u64,
    /// Distinct task ids among the off-path bars.
    pub off_path_tasks: u64,
    /// Events read.
    pub event_count: u64,
    /// Non-fatal findings (a task with both renamed and kept bars, a file with no Worker
    /// View bars).
    pub warnings: Vec<Warning>,
}

impl CpmPath {
    /// True when `task_id` is on the path.
    pub fn contains(&self, task_id: u64) -> bool {
        self.task_ids.contains(&task_id)
    }
}

/// Reads the path task set from a CPM file (a Chrome trace object or bare event list).
pub fn read_path(path: &str, bytes: &[u8]) -> Result<CpmPath, FormatError> {
    // task id -> (on-path bars, off-path bars, first ts, last end)
    let mut tasks: BTreeMap<u64, (u32, u32, f64, f64)> = BTreeMap::new();
    let mut out = CpmPath::default();
    let doc = chrome_trace::for_each_event(path, bytes, false, |e: &EventRef<'_>| {
        if e.ph != b'X' || e.pid.and_then(chrome_trace::IdRef::as_i64) != Some(WORKER_VIEW_PID) {
            return Ok(());
        }
        let Some(task) = e.task_id else {
            return Ok(());
        };
        out.task_bars += 1;
        let ts = e.ts_us.unwrap_or(0.0);
        let end = ts + e.dur_us.unwrap_or(0.0);
        let entry = tasks.entry(task).or_insert((0, 0, ts, end));
        if e.name.starts_with(OFF_PATH_PREFIX) {
            out.off_path_bars += 1;
            entry.1 += 1;
        } else {
            entry.0 += 1;
            entry.2 = entry.2.min(ts);
            entry.3 = entry.3.max(end);
        }
        Ok(())
    })?;
    out.event_count = doc.event_count;
    let mut on: Vec<(f64, u64, f64)> = Vec::new();
    for (&task, &(on_bars, off_bars, first, last)) in &tasks {
        if on_bars > 0 {
            on.push((first, task, last));
            if off_bars > 0 {
                out.warnings.push(
                    Warning::new(
                        WarningKind::CpmTaskOnAndOffPath,
                        path,
                        format!("task {task}: {on_bars} bar(s) on the path and {off_bars} renamed off it; counted on the path"),
                    )
                    .text("task", task)
                    .count("on", on_bars)
                    .count("off", off_bars),
                );
            }
        } else {
            out.off_path_tasks += 1;
        }
    }
    if out.task_bars == 0 {
        out.warnings.push(
            Warning::new(
                WarningKind::CpmNoTaskBars,
                path,
                format!("no Worker View task bars (ph X, pid {WORKER_VIEW_PID}, args.taskId): empty path"),
            )
            .text("pid", WORKER_VIEW_PID),
        );
    }
    on.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for (first, task, last) in on {
        out.task_ids.push(task);
        out.first_ts_us.push(first);
        out.last_end_us.push(last);
    }
    Ok(out)
}
