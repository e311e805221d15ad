//! Headline facts of a records file, matching the reference converter's "Performance Data"
//! block (`Task Count`, `Time Range: <min start> us - <max end> us (span: ...)`, scheduler
//! threads), for the sidebar summary and the CLI report.

use crate::tasks::JoinedTasks;
use pypto_formats::records::ChipRecords;
use pypto_formats::Warning;

/// Summary of one records file.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct RecordsFacts {
    pub level: u32,
    pub format: String,
    pub clock_freq_hz: u64,
    pub num_cores: u32,
    /// Joined task rows.
    pub task_count: usize,
    pub aicore_rows: usize,
    pub aicpu_rows: usize,
    /// Min task `start_us` (kernel start, not receive) — the reference's Time Range start.
    pub first_start_us: f64,
    /// Max task `end_us`.
    pub last_end_us: f64,
    pub span_us: f64,
    /// Number of scheduler thread lists (including empty capacity slots).
    pub scheduler_threads: usize,
    pub scheduler_records: usize,
    pub orchestrator_threads: usize,
    pub orchestrator_records: usize,
    pub host_mode: bool,
    /// Reader and join warnings.
    pub warnings: Vec<Warning>,
}

/// Computes the summary.
pub fn records_summary(records: &ChipRecords, tasks: &JoinedTasks) -> RecordsFacts {
    records_summary_with(records, tasks, record_counts(records))
}

/// AICore and AICPU rows, scheduler and orchestrator thread lists and their records, counted
/// before the model build takes those records out of the file's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RecordCounts {
    pub aicore_rows: usize,
    pub aicpu_rows: usize,
    pub sched_threads: usize,
    pub sched_records: usize,
    pub orch_threads: usize,
    pub orch_records: usize,
}

/// Counts the records of `records`.
pub fn record_counts(records: &ChipRecords) -> RecordCounts {
    let (sched_threads, sched_records, orch_threads, orch_records) = match &records.v1_tasks {
        Some(v1) => (
            v1.sched_threads.len(),
            v1.sched_threads.iter().map(|t| t.kind.len()).sum(),
            v1.orch_threads.len(),
            v1.orch_threads.iter().map(|t| t.phase.len()).sum(),
        ),
        None => (
            records.sched_threads.len(),
            records.sched_threads.iter().map(pypto_formats::records::SchedThread::len).sum(),
            records.orch_threads.len() + records.host_orch_threads.len(),
            records.orch_threads.iter().map(|t| t.submit_idx.len()).sum::<usize>()
                + records.host_orch_threads.iter().map(|t| t.submit_idx.len()).sum::<usize>(),
        ),
    };
    RecordCounts {
        aicore_rows: records.aicore_row_count(),
        aicpu_rows: records.aicpu.len(),
        sched_threads,
        sched_records,
        orch_threads,
        orch_records,
    }
}

/// [`records_summary`] with the record counts taken earlier ([`record_counts`]).
pub fn records_summary_with(records: &ChipRecords, tasks: &JoinedTasks, counts: RecordCounts) -> RecordsFacts {
    let first = tasks.starts_us().fold(f64::INFINITY, f64::min);
    let last = tasks.ends_us().fold(f64::NEG_INFINITY, f64::max);
    let (first, last) = if tasks.is_empty() { (0.0, 0.0) } else { (first, last) };
    let RecordCounts { aicore_rows, aicpu_rows, sched_threads, sched_records, orch_threads, orch_records } = counts;
    let mut warnings = records.warnings.clone();
    warnings.extend(tasks.warnings.iter().cloned());
    RecordsFacts {
        level: records.level,
        format: records.format.to_owned(),
        clock_freq_hz: records.metadata.clock_freq_hz,
        num_cores: records.metadata.num_cores,
        task_count: tasks.len(),
        aicore_rows,
        aicpu_rows,
        first_start_us: first,
        last_end_us: last,
        span_us: last - first,
        scheduler_threads: sched_threads,
        scheduler_records: sched_records,
        orchestrator_threads: orch_threads,
        orchestrator_records: orch_records,
        host_mode: records.is_host_mode(),
        warnings,
    }
}
