//! Perfetto export of a chip swimlane timeline: for users who want to take what the viewer
//! shows (records joined with deps.json and the name map) into Perfetto or `chrome://tracing`.
//!
//! Writes Chrome Trace Event JSON (`{"traceEvents": [...]}`, µs timestamps): one process per
//! track group (a view of a dataset, in timeline order), one thread per track (its label,
//! sorted as drawn), an `X` event per bar whose start lies in the requested window (name =
//! the swimlane's label, args = the details panel's fields), and one flow (`s` → `f`,
//! `cat "flow"`, name `dependency` or `hb_violation`) per dependency arrow between two
//! exported bars (tasks, dummy / alloc markers) of the Worker and Scheduler views — the same
//! anchors the swimlane draws. Tensor arguments that the worker re-reads from deps.json on
//! demand are not included (the details of lean-read datasets carry the rest). Timestamps are
//! on the timeline's axis (each dataset shifted by its alignment offset, as drawn); the args
//! keep the details' own times.

use std::collections::HashSet;
use std::io::Write;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::runtime_model::RuntimeModel;
use crate::timeline::{Timeline, TrackKind};
use crate::timeline_query::{self as query, BarAt};

/// What one export wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExportCounts {
    pub processes: usize,
    pub threads: usize,
    pub slices: usize,
    pub flows: usize,
}

#[derive(Serialize)]
struct Meta {
    ph: &'static str,
    pid: u32,
    tid: u32,
    name: &'static str,
    args: Map<String, Value>,
}

#[derive(Serialize)]
struct Slice<'a> {
    ph: &'static str,
    pid: u32,
    tid: u32,
    name: &'a str,
    cat: &'a str,
    ts: f64,
    dur: f64,
    args: Map<String, Value>,
}

#[derive(Serialize)]
struct FlowPoint<'a> {
    ph: &'static str,
    pid: u32,
    tid: u32,
    name: &'a str,
    cat: &'static str,
    id: u64,
    ts: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    bp: Option<&'static str>,
}

fn one_arg(key: &str, value: Value) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(key.to_owned(), value);
    m
}

/// Process id of group `g` (Perfetto reserves 0).
fn pid_of(group: u32) -> u32 {
    group + 1
}

/// Thread id of track `t`.
fn tid_of(track: u32) -> u32 {
    track + 1
}

fn is_task_track(kind: TrackKind) -> bool {
    matches!(kind, TrackKind::Core { .. } | TrackKind::SchedCore { .. } | TrackKind::Aicpu { .. })
}

/// Writes the export of the bars starting in `[window.0, window.1]` (all bars when `None`)
/// to `out`. Events appear as metadata, then slices, then flows.
///
/// # Errors
/// Only those of `out`.
pub fn write_chrome_trace(
    t: &Timeline,
    models: &[&RuntimeModel],
    window: Option<(f64, f64)>,
    out: &mut dyn Write,
) -> std::io::Result<ExportCounts> {
    let mut counts = ExportCounts::default();
    let mut first = true;
    let mut event = |out: &mut dyn Write, value: &dyn erased::Ser| -> std::io::Result<()> {
        out.write_all(if first { b"\n" } else { b",\n" })?;
        first = false;
        value.write(out)
    };
    out.write_all(b"{\"traceEvents\": [")?;
    for (g, group) in t.groups.iter().enumerate() {
        let pid = pid_of(g as u32);
        event(out, &Meta { ph: "M", pid, tid: 0, name: "process_name", args: one_arg("name", group.label.clone().into()) })?;
        event(out, &Meta { ph: "M", pid, tid: 0, name: "process_sort_index", args: one_arg("sort_index", g.into()) })?;
        counts.processes += 1;
        for (order, &track) in group.tracks.iter().enumerate() {
            let Some(tr) = t.tracks.get(track as usize) else { continue };
            let tid = tid_of(track);
            event(out, &Meta { ph: "M", pid, tid, name: "thread_name", args: one_arg("name", tr.label.clone().into()) })?;
            event(out, &Meta { ph: "M", pid, tid, name: "thread_sort_index", args: one_arg("sort_index", order.into()) })?;
            counts.threads += 1;
        }
    }
    let in_window = |start: f64| window.is_none_or(|(a, b)| start >= a && start <= b);
    let mut exported_task_bars: Vec<BarAt> = Vec::new();
    for (track, tr) in t.tracks.iter().enumerate() {
        let track = track as u32;
        let pid = pid_of(tr.group);
        let cat = tr.view.title();
        for index in 0..t.track_range(track).len() as u32 {
            let bar = BarAt { track, index };
            let Some((drawn_start, _, end)) = query::bar_times_on_axis(t, models, bar) else { continue };
            if !in_window(drawn_start) {
                continue;
            }
            let label = query::bar_label(t, models, bar);
            let mut args = Map::new();
            if let Some((_, fields, _)) = query::bar_details(t, models, bar) {
                for (k, v) in fields {
                    args.insert(k, Value::String(v));
                }
            }
            let dur = (end - drawn_start).max(0.0);
            event(out, &Slice { ph: "X", pid, tid: tid_of(track), name: &label, cat, ts: drawn_start, dur, args })?;
            counts.slices += 1;
            if is_task_track(tr.kind) {
                exported_task_bars.push(bar);
            }
        }
    }
    let exported: HashSet<BarAt> = exported_task_bars.iter().copied().collect();
    let mut seen: HashSet<(BarAt, BarAt)> = HashSet::new();
    let mut flow_id = 0u64;
    for &bar in &exported_task_bars {
        for arrow in query::dependencies(t, models, bar, 1) {
            if arrow.to != bar || !exported.contains(&arrow.from) || !seen.insert((arrow.from, arrow.to)) {
                continue;
            }
            let (Some(from_tr), Some(to_tr)) = (t.tracks.get(arrow.from.track as usize), t.tracks.get(arrow.to.track as usize)) else {
                continue;
            };
            let (Some((_, from_start, _)), Some((_, to_start, _))) =
                (query::bar_times_on_axis(t, models, arrow.from), query::bar_times_on_axis(t, models, arrow.to))
            else {
                continue;
            };
            flow_id += 1;
            let name = if arrow.violation { "hb_violation" } else { "dependency" };
            let s = FlowPoint {
                ph: "s",
                pid: pid_of(from_tr.group),
                tid: tid_of(arrow.from.track),
                name,
                cat: "flow",
                id: flow_id,
                ts: from_start,
                bp: None,
            };
            let f = FlowPoint {
                ph: "f",
                pid: pid_of(to_tr.group),
                tid: tid_of(arrow.to.track),
                name,
                cat: "flow",
                id: flow_id,
                ts: to_start,
                bp: Some("e"),
            };
            event(out, &s)?;
            event(out, &f)?;
            counts.flows += 1;
        }
    }
    out.write_all(b"\n]}\n")?;
    Ok(counts)
}

/// Object-safe serialisation of the event structs into a writer.
mod erased {
    pub trait Ser {
        fn write(&self, out: &mut dyn std::io::Write) -> std::io::Result<()>;
    }
    impl<T: serde::Serialize> Ser for T {
        fn write(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
            serde_json::to_writer(out, self).map_err(std::io::Error::other)
        }
    }
}
