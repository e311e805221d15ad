//! Serving STRACE swimlane model (`serving-strace-swimlane.json`, any `*strace-swimlane*.json`;
//! runtime-formats.md §7.3, toolkit-features.md K), for the STRACE swimlane view, its detail
//! panel (instant and span arguments) and the serving statistics in
//! `pypto_analysis::strace_stats`.
//!
//! The file is a Chrome trace written by pypto-serving's `render_8lane.py`: the serving
//! recorder's events copied verbatim (processes `pypto-serving-api`, `pypto-serving-generate`,
//! `serving-worker-<device ids joined by ",">`, …; `X` spans such as `WorkerProcess.*`,
//! `scheduler.*`, `PyptoExecutor.*`; instants `ph: "i", "s": "t"`; `M` names) plus one
//! synthetic process named `Simpler host STRACE (<n> NPU lanes…)` whose threads are the NPU
//! lanes: tid = device id, thread name `device <id>`, bars named
//! `"<P###|D##> <callable> | <stage>"` (stage = STRACE name without `simpler_run.`, root stage
//! `simpler_run`; `chip.run` in newer naming).
//!
//! The events are read by [`crate::chrome_trace`] with every argument kept; this module only
//! classifies processes and lanes and indexes spans and instants. Rules: a process is a
//! serving worker when its name starts with `serving-worker` (the device list is parsed from
//! the suffix, unparsable parts are skipped); the STRACE process is the one whose name starts
//! with `Simpler host STRACE`; a lane's device id comes from its `device <id>` name, else from
//! its numeric tid. Everything else is a serving process.

use crate::chrome_trace::{self, ChromeTrace, ParseOptions, TraceId};
use crate::FormatError;

/// Prefix of the synthetic host STRACE process name.
pub const STRACE_PROCESS_PREFIX: &str = "Simpler host STRACE";
/// Prefix of serving worker process names.
pub const SERVING_WORKER_PREFIX: &str = "serving-worker";
/// Prefix of the serving worker spans counted by the Toolkit's perf panel.
pub const WORKER_SPAN_PREFIX: &str = "WorkerProcess.";

/// What a process of a serving STRACE trace is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ProcessKind {
    /// `serving-worker-*`.
    ServingWorker,
    /// The synthetic `Simpler host STRACE` process (NPU device lanes).
    HostStrace,
    /// Any other serving process (api, generate, the script's default name).
    Serving,
}

/// One process, parallel to [`ChromeTrace::processes`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StraceProcess {
    pub kind: ProcessKind,
    /// The process name, or `pid <pid>` when it has none.
    pub label: String,
    /// Devices of a serving worker (`serving-worker-0,1` → `[0, 1]`).
    pub worker_devices: Vec<u32>,
}

/// One NPU lane of the host STRACE process.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DeviceLane {
    /// Index into [`ChromeTrace::threads`].
    pub thread: u32,
    pub device_id: u32,
    /// `device <id>`.
    pub label: String,
    /// `thread_sort_index`, when given.
    pub sort_index: Option<i64>,
}

/// A parsed STRACE bar name `"<tag> <callable> | <stage>"` (the tag is optional: prefill bars
/// of the 8-lane script carry none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BarName<'a> {
    /// `P###` / `D##`, when present.
    pub tag: Option<&'a str>,
    pub callable: &'a str,
    pub stage: &'a str,
}

impl BarName<'_> {
    /// True for the invocation's root bar (`simpler_run`, or `chip.run` in newer naming).
    pub fn is_root(&self) -> bool {
        is_root_stage(self.stage)
    }
}

/// True for the root stage name (`simpler_run` / `chip.run`).
pub fn is_root_stage(stage: &str) -> bool {
    stage == "simpler_run" || stage == "chip.run"
}

fn is_step_tag(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some('P' | 'D')) && s.len() > 1 && chars.all(|c| c.is_ascii_digit())
}

/// Splits a STRACE lane bar name; `None` when it has no ` | `.
pub fn split_bar_name(name: &str) -> Option<BarName<'_>> {
    let (head, stage) = name.rsplit_once(" | ")?;
    let (tag, callable) = match head.split_once(' ') {
        Some((t, rest)) if is_step_tag(t) => (Some(t), rest),
        _ => (None, head),
    };
    Some(BarName { tag, callable, stage })
}

/// Devices of a `serving-worker-<ids>` process name (`serving-worker-0,1,2` → `[0, 1, 2]`).
pub fn worker_devices(name: &str) -> Vec<u32> {
    name.strip_prefix(SERVING_WORKER_PREFIX)
        .map(|s| s.trim_start_matches(['-', '_']))
        .map(|s| s.split(',').filter_map(|p| p.trim().parse::<u32>().ok()).collect())
        .unwrap_or_default()
}

/// The device id of a lane named `device <id>`.
pub fn lane_device(name: &str) -> Option<u32> {
    name.strip_prefix("device ")?.trim().parse().ok()
}

/// A serving STRACE trace with its processes classified and its spans indexed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServingStrace {
    /// All events, with arguments.
    pub trace: ChromeTrace,
    /// Parallel to `trace.processes`.
    pub processes: Vec<StraceProcess>,
    /// NPU lanes, sorted by (sort index, device id).
    pub device_lanes: Vec<DeviceLane>,
    /// Event indices of `X` spans, file order.
    pub spans: Vec<u32>,
    /// Event indices of instants (`i` / `I`), file order.
    pub instants: Vec<u32>,
    /// Number of `M` events.
    pub metadata_events: u32,
    /// Number of events that are none of `X`, `i`, `I`, `M` (flows, counters, …).
    pub other_events: u32,
    /// Earliest `ts` over the timed (non-`M`) events within the time range
    /// ([`chrome_trace::MAX_TIME_US`]), 0 when there are none.
    pub first_ts_us: f64,
    /// Latest `ts + dur` over the timed events, 0 when there are none.
    pub last_end_us: f64,
}

impl ServingStrace {
    /// `last_end_us - first_ts_us`.
    pub fn total_duration_us(&self) -> f64 {
        self.last_end_us - self.first_ts_us
    }

    /// Kind of event `i`'s process.
    pub fn event_process_kind(&self, i: usize) -> Option<ProcessKind> {
        let t = self.trace.event_thread(i)?;
        self.processes.get(t.process as usize).map(|p| p.kind)
    }

    /// Device lane of event `i`, if it is on one.
    pub fn event_device_lane(&self, i: usize) -> Option<&DeviceLane> {
        let t = *self.trace.events.thread.get(i)?;
        self.device_lanes.iter().find(|l| l.thread == t)
    }
}

/// Reads a serving STRACE file.
pub fn parse(path: &str, bytes: &[u8]) -> Result<ServingStrace, FormatError> {
    let trace = chrome_trace::parse_with(path, bytes, ParseOptions { keep_args: true })?;
    Ok(from_trace(trace))
}

/// Classifies an already read trace.
pub fn from_trace(trace: ChromeTrace) -> ServingStrace {
    let processes: Vec<StraceProcess> = trace
        .processes
        .iter()
        .map(|p| {
            let label = p.name.clone().unwrap_or_else(|| format!("pid {}", p.pid));
            let kind = if label.starts_with(SERVING_WORKER_PREFIX) {
                ProcessKind::ServingWorker
            } else if label.starts_with(STRACE_PROCESS_PREFIX) {
                ProcessKind::HostStrace
            } else {
                ProcessKind::Serving
            };
            let worker_devices = if kind == ProcessKind::ServingWorker { worker_devices(&label) } else { Vec::new() };
            StraceProcess { kind, label, worker_devices }
        })
        .collect();
    let mut device_lanes = Vec::new();
    for (ti, t) in trace.threads.iter().enumerate() {
        let is_strace = processes.get(t.process as usize).is_some_and(|p| p.kind == ProcessKind::HostStrace);
        if !is_strace {
            continue;
        }
        let from_name = t.name.as_deref().and_then(lane_device);
        let from_tid = match &t.tid {
            Some(TraceId::Num(n)) => u32::try_from(*n).ok(),
            _ => None,
        };
        let device = if t.name.is_some() {
            from_name
        } else if t.event_count > 0 {
            from_tid
        } else {
            None
        };
        if let Some(device_id) = device {
            device_lanes.push(DeviceLane {
                thread: ti as u32,
                device_id,
                label: t.name.clone().unwrap_or_else(|| format!("device {device_id}")),
                sort_index: t.sort_index,
            });
        }
    }
    device_lanes.sort_by_key(|l| (l.sort_index.unwrap_or(i64::MAX), l.device_id));
    let mut s = ServingStrace { processes, device_lanes, ..ServingStrace::default() };
    let mut first = f64::INFINITY;
    let mut last = f64::NEG_INFINITY;
    for (i, &ph) in trace.events.ph.iter().enumerate() {
        let idx = i as u32;
        match ph {
            b'X' => s.spans.push(idx),
            b'i' | b'I' => s.instants.push(idx),
            b'M' => {
                s.metadata_events += 1;
                continue;
            }
            _ => s.other_events += 1,
        }
        if !trace.events.in_time_range(i) {
            continue; // not placed by the views (a warning of theirs says so)
        }
        let ts = trace.events.ts_us.get(i).copied().unwrap_or(0.0);
        first = first.min(ts);
        last = last.max(trace.events.end_us(i));
    }
    if first.is_finite() && last.is_finite() {
        s.first_ts_us = first;
        s.last_end_us = last;
    }
    s.trace = trace;
    s
}
