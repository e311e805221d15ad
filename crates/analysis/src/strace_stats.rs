//! Serving STRACE statistics (toolkit-features.md K7, runtime-formats.md §7.3) over a
//! [`ServingStrace`], for the STRACE perf panel in the page and the CLI report.
//!
//! Computed, all durations in µs as written in the trace:
//!
//! - **total duration**: latest `ts + dur` minus earliest `ts` over every timed event (spans,
//!   instants and any other non-metadata event);
//! - **per `WorkerProcess`**: for each serving worker process (name `serving-worker-*`, or any
//!   other non-STRACE process that emitted `WorkerProcess.*` spans) and for each
//!   `WorkerProcess.*` span name: count, total, average, minimum and maximum of `dur`; also
//!   the same per span name over all workers together;
//! - **per span name**: the same over every `X` span of the serving processes (the STRACE
//!   device lanes are excluded: their bar names carry the step and callable, so they are
//!   reported per lane instead);
//! - **per `device N` lane**: the invocation root bars (`… | simpler_run`, or `… | chip.run`)
//!   — one per chip invocation, the "device lane" aggregate of the pypto-serving tools — and
//!   every stage separately (`bind`, `runner_run`, `validate`, …);
//! - **`scheduler.wait_worker_output`**: the same over all such spans of any process (the
//!   serving scheduler's wait for a worker step).

use pypto_formats::strace::{self, ProcessKind, ServingStrace, WORKER_SPAN_PREFIX};
use std::collections::BTreeMap;

/// The span name whose statistics are reported separately.
pub const WAIT_WORKER_OUTPUT: &str = "scheduler.wait_worker_output";

/// Count, total, average, minimum and maximum of a set of durations (all 0 when empty).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct DurationStats {
    pub count: u64,
    pub total_us: f64,
    pub avg_us: f64,
    pub min_us: f64,
    pub max_us: f64,
}

impl DurationStats {
    /// Adds one duration.
    pub fn add(&mut self, dur_us: f64) {
        if self.count == 0 {
            self.min_us = dur_us;
            self.max_us = dur_us;
        } else {
            self.min_us = self.min_us.min(dur_us);
            self.max_us = self.max_us.max(dur_us);
        }
        self.count += 1;
        self.total_us += dur_us;
        self.avg_us = self.total_us / self.count as f64;
    }

    /// Statistics of `durations`.
    pub fn of(durations: impl IntoIterator<Item = f64>) -> Self {
        let mut s = Self::default();
        for d in durations {
            s.add(d);
        }
        s
    }
}

/// Statistics of one span (or stage) name.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NamedStats {
    pub name: String,
    pub stats: DurationStats,
}

/// One serving worker process.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct WorkerProcessStats {
    /// Index into the trace's processes.
    pub process: u32,
    /// Process name (`serving-worker-0,1,…`).
    pub label: String,
    /// Devices from the name.
    pub devices: Vec<u32>,
    /// All its `WorkerProcess.*` spans together.
    pub all: DurationStats,
    /// Per `WorkerProcess.*` span name, sorted by name.
    pub spans: Vec<NamedStats>,
}

/// One `device N` lane of the host STRACE process.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DeviceLaneStats {
    pub device_id: u32,
    /// `device <id>`.
    pub label: String,
    /// Invocation root bars (`… | simpler_run` / `… | chip.run`).
    pub root: DurationStats,
    /// Every bar on the lane, whatever its stage.
    pub all_bars: DurationStats,
    /// Per stage (`simpler_run`, `bind`, `runner_run`, …), sorted by name. Bars whose name
    /// has no ` | ` count under their full name.
    pub stages: Vec<NamedStats>,
}

/// Everything the STRACE perf panel shows.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct StraceStats {
    pub total_duration_us: f64,
    pub first_ts_us: f64,
    pub last_end_us: f64,
    /// `X` events in the whole trace.
    pub span_count: u64,
    /// Instant events in the whole trace.
    pub instant_count: u64,
    /// Serving worker processes, trace order.
    pub worker_processes: Vec<WorkerProcessStats>,
    /// Per `WorkerProcess.*` span name over all workers, sorted by name.
    pub worker_span_names: Vec<NamedStats>,
    /// Per span name over the serving processes' spans (not the device lanes), sorted by name.
    pub span_names: Vec<NamedStats>,
    /// Device lanes, in lane order.
    pub device_lanes: Vec<DeviceLaneStats>,
    /// Root bars of all device lanes together.
    pub device_roots: DurationStats,
    /// `scheduler.wait_worker_output` spans of every process.
    pub wait_worker_output: DurationStats,
}

fn named(map: BTreeMap<String, DurationStats>) -> Vec<NamedStats> {
    map.into_iter().map(|(name, stats)| NamedStats { name, stats }).collect()
}

/// Computes the statistics.
pub fn compute(s: &ServingStrace) -> StraceStats {
    let trace = &s.trace;
    let mut out = StraceStats {
        total_duration_us: s.total_duration_us(),
        first_ts_us: s.first_ts_us,
        last_end_us: s.last_end_us,
        span_count: s.spans.len() as u64,
        instant_count: s.instants.len() as u64,
        ..StraceStats::default()
    };
    // Lane index by thread.
    let mut lane_of_thread: Vec<Option<usize>> = vec![None; trace.threads.len()];
    for (li, lane) in s.device_lanes.iter().enumerate() {
        if let Some(slot) = lane_of_thread.get_mut(lane.thread as usize) {
            *slot = Some(li);
        }
    }
    let mut lane_stats: Vec<(DurationStats, DurationStats, BTreeMap<String, DurationStats>)> =
        vec![Default::default(); s.device_lanes.len()];
    let mut per_worker: BTreeMap<u32, (DurationStats, BTreeMap<String, DurationStats>)> = BTreeMap::new();
    let mut worker_names: BTreeMap<String, DurationStats> = BTreeMap::new();
    let mut span_names: BTreeMap<String, DurationStats> = BTreeMap::new();
    for &e in &s.spans {
        let i = e as usize;
        let dur = trace.events.dur_us.get(i).copied().unwrap_or(0.0);
        let name = trace.event_name(i);
        let thread = trace.events.thread.get(i).copied().unwrap_or(u32::MAX);
        if let Some(li) = lane_of_thread.get(thread as usize).copied().flatten() {
            if let Some((root, all, stages)) = lane_stats.get_mut(li) {
                all.add(dur);
                let stage = strace::split_bar_name(name).map_or(name, |b| b.stage);
                if strace::is_root_stage(stage) {
                    root.add(dur);
                    out.device_roots.add(dur);
                }
                stages.entry(stage.to_owned()).or_default().add(dur);
            }
            continue;
        }
        let process = trace.threads.get(thread as usize).map(|t| t.process);
        let kind = process.and_then(|p| s.processes.get(p as usize)).map(|p| p.kind);
        if name == WAIT_WORKER_OUTPUT {
            out.wait_worker_output.add(dur);
        }
        if kind == Some(ProcessKind::HostStrace) {
            continue;
        }
        span_names.entry(name.to_owned()).or_default().add(dur);
        if let (Some(p), true) = (process, name.starts_with(WORKER_SPAN_PREFIX)) {
            let (all, names) = per_worker.entry(p).or_default();
            all.add(dur);
            names.entry(name.to_owned()).or_default().add(dur);
            worker_names.entry(name.to_owned()).or_default().add(dur);
        }
    }
    // Worker processes: every serving-worker process (even without spans), plus any process
    // that emitted WorkerProcess.* spans; trace order.
    for (pi, p) in s.processes.iter().enumerate() {
        let pi = pi as u32;
        let spans = per_worker.remove(&pi);
        if p.kind != ProcessKind::ServingWorker && spans.is_none() {
            continue;
        }
        let (all, names) = spans.unwrap_or_default();
        out.worker_processes.push(WorkerProcessStats {
            process: pi,
            label: p.label.clone(),
            devices: p.worker_devices.clone(),
            all,
            spans: named(names),
        });
    }
    out.worker_span_names = named(worker_names);
    out.span_names = named(span_names);
    out.device_lanes = s
        .device_lanes
        .iter()
        .zip(lane_stats)
        .map(|(lane, (root, all_bars, stages))| DeviceLaneStats {
            device_id: lane.device_id,
            label: lane.label.clone(),
            root,
            all_bars,
            stages: named(stages),
        })
        .collect();
    out
}
