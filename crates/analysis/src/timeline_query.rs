//! Queries over a built [`Timeline`] and the [`RuntimeModel`]s it was built from (same order):
//! bar times and reference labels, bar details with the SPMD group, the dependency closure
//! of a bar's task at depth N with its arrows ([`crate::hb_violation::compute_edges`], SPMD
//! anchors of §1.11) and search. For the worker; none
//! of these needs the render columns (they may have been handed to the page already).
//!
//! Times come from the models, on each dataset's own axis ([`bar_times`]); what names a place
//! on the timeline's shared axis — a search hit's start, the order of hits — adds the
//! dataset's shift ([`bar_times_on_axis`], [`Timeline::alignment`]). A bar's details give the
//! dataset's own times and, when the dataset is shifted, a `Timeline shift` row saying by how
//! much and why.

#![allow(clippy::many_single_char_names, clippy::cast_possible_wrap, clippy::type_complexity, clippy::single_match_else)] // short loop names over columns; name lengths and arg indices are tiny

use crate::hb_violation;
use crate::host_phases::HostPhasesUs;
use crate::runtime_model::{DepsDetails, RuntimeModel};
use crate::task_kinds::{AnchorRef, PhaseFields, PhaseLookup, TaskKind};
use crate::tasks::{self, FuncIdOf};
use crate::timeline::{first_kernel, phase_name, Timeline, TrackKind, View};
use crate::worker_view::bar_start_us;
use pypto_vocab::TaskId;
use std::collections::{HashMap, HashSet};

/// Most arrows a dependency query returns (depth -1 on a large graph is cut here).
pub const MAX_ARROWS: usize = 20_000;

/// A bar: its track and index within the track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BarAt {
    pub track: u32,
    pub index: u32,
}

/// One dependency arrow between two bars.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ArrowAt {
    pub from: BarAt,
    pub to: BarAt,
    pub violation: bool,
}

fn model<'a>(t: &Timeline, models: &[&'a RuntimeModel], track: u32) -> Option<&'a RuntimeModel> {
    let d = t.tracks.get(track as usize)?.dataset;
    models.get(d as usize).copied()
}

fn at(t: &Timeline, bar: usize) -> Option<BarAt> {
    let track = t.track_of(bar)?;
    let first = *t.track_offsets.get(track as usize)? as usize;
    Some(BarAt { track, index: (bar - first) as u32 })
}

/// `(drawn start (setup start), start, end)` of a bar in µs, from the model.
pub fn bar_times(t: &Timeline, models: &[&RuntimeModel], bar: BarAt) -> Option<(f64, f64, f64)> {
    let g = t.bar_index(bar.track, bar.index)?;
    let src = t.source_of(g)? as usize;
    let m = model(t, models, bar.track)?;
    let tr = t.tracks.get(bar.track as usize)?;
    let pair = |s: Option<f64>, e: Option<f64>| {
        let s = s.unwrap_or(0.0);
        (s, s, e.unwrap_or(s))
    };
    Some(match tr.kind {
        TrackKind::Core { .. } => {
            let s = m.tasks.start_us(src)?;
            (bar_start_us(&m.tasks, src), s, m.tasks.end_us(src).unwrap_or(s))
        }
        TrackKind::SchedCore { .. } => pair(m.tasks.dispatch_us(src), m.tasks.finish_us(src)),
        TrackKind::Aicpu { .. } => pair(m.kinds.markers.start_us.get(src).copied(), m.kinds.markers.end_us.get(src).copied()),
        TrackKind::SchedThread { thread } => match m.phases.get(thread as usize)?.lookup(src)? {
            PhaseLookup::Here(p) => (p.start_us, p.start_us, p.end_us),
            // Detached (the analysis worker's copy): in the records file only.
            PhaseLookup::InFile { .. } => return None,
        },
        TrackKind::Orch { lane } => {
            let o = m.orch.get(lane as usize)?;
            let s = o.start_us.get(src).unwrap_or(0.0);
            (s, s, o.end_us.get(src).unwrap_or(s))
        }
        TrackKind::Uploads => pair(m.uploads.start_us.get(src).copied(), m.uploads.end_us.get(src).copied()),
        TrackKind::Graph { .. } => {
            let x = m.kinds.graphs.get(src)?;
            (x.prepare_start_us, x.prepare_start_us, x.execution_end_us)
        }
        TrackKind::HostPhase { .. } => pair(m.host_phases.start_us.get(src).copied(), m.host_phases.end_us.get(src).copied()),
    })
}

/// [`bar_times`] on the timeline's axis: shifted by the offset of the bar's dataset.
pub fn bar_times_on_axis(t: &Timeline, models: &[&RuntimeModel], bar: BarAt) -> Option<(f64, f64, f64)> {
    let o = t.offset_us_of_track(bar.track);
    bar_times(t, models, bar).map(|(a, b, c)| if o == 0.0 { (a, b, c) } else { (a + o, b + o, c + o) })
}

/// The task id a bar stands for (task bars, markers, submits, graph envelopes).
pub fn bar_task(t: &Timeline, models: &[&RuntimeModel], bar: BarAt) -> Option<u64> {
    let g = t.bar_index(bar.track, bar.index)?;
    let src = t.source_of(g)? as usize;
    let m = model(t, models, bar.track)?;
    match t.tracks.get(bar.track as usize)?.kind {
        TrackKind::Core { .. } | TrackKind::SchedCore { .. } => m.tasks.task_id.get(src),
        TrackKind::Aicpu { .. } => m.kinds.markers.task_id.get(src).copied(),
        TrackKind::SchedThread { thread } => m.phases.get(thread as usize)?.task_id.get(src),
        TrackKind::Orch { lane } => m.orch.get(lane as usize)?.task_id.get(src),
        TrackKind::Uploads | TrackKind::HostPhase { .. } => None,
        TrackKind::Graph { .. } => m.kinds.graphs.get(src).map(|x| x.outer_task_id),
    }
}

fn is_spmd(m: &RuntimeModel, id: u64) -> bool {
    m.kinds.index_of(id).and_then(|k| m.kinds.spmd.get(k)).unwrap_or(false)
}

/// The reference's label of a bar (`qk_spmd(r1t5)`, `dummy(t3)`, `complete(4)`, `submit(t7)`).
pub fn bar_label(t: &Timeline, models: &[&RuntimeModel], bar: BarAt) -> String {
    let fallback = || {
        t.bar_index(bar.track, bar.index)
            .and_then(|g| t.name_index.get(g))
            .and_then(|n| t.names.get(n as usize))
            .cloned()
            .unwrap_or_default()
    };
    let (Some(g), Some(m), Some(tr)) = (t.bar_index(bar.track, bar.index), model(t, models, bar.track), t.tracks.get(bar.track as usize))
    else {
        return String::new();
    };
    let src = t.source_of(g).unwrap_or(0) as usize;
    match tr.kind {
        TrackKind::Core { .. } | TrackKind::SchedCore { .. } => {
            let id = m.tasks.task_id.get(src).unwrap_or(0);
            let fid = m.func_ids.func_id(src);
            let name = m.names.as_ref().and_then(|n| n.name(fid));
            tasks::task_label(id, fid, name, is_spmd(m, id))
        }
        TrackKind::Aicpu { .. } => {
            let id = m.kinds.markers.task_id.get(src).copied().unwrap_or(0);
            match m.kinds.markers.kind.get(src) {
                Some(TaskKind::PredicatedSkip) => {
                    let fid = first_kernel(m, id);
                    tasks::task_label(id, fid, m.names.as_ref().and_then(|n| n.name(fid)), is_spmd(m, id))
                }
                _ => m.kinds.marker_label(src, None, None),
            }
        }
        TrackKind::Orch { .. } => match bar_task(t, models, bar) {
            Some(id) => format!("submit({})", TaskId(id)),
            None => {
                let idx = m.orch.get(match tr.kind {
                    TrackKind::Orch { lane } => lane as usize,
                    _ => 0,
                });
                format!("submit({})", idx.and_then(|o| o.submit_idx.get(src)).unwrap_or(0))
            }
        },
        _ => fallback(),
    }
}

fn find_track(t: &Timeline, dataset: u32, kind: TrackKind) -> Option<u32> {
    t.tracks.iter().position(|x| x.dataset == dataset && x.kind == kind).map(|k| k as u32)
}

/// The bar of `source` on `track`, found by binary search on its start in each of the
/// track's rows.
fn bar_of_source(t: &Timeline, models: &[&RuntimeModel], track: u32, source: u32, start_us: f64) -> Option<BarAt> {
    let first = t.track_range(track).start;
    let bar = |g: usize| BarAt { track, index: (g - first) as u32 };
    let start_of = |g: usize| bar_times(t, models, bar(g)).map_or(f64::INFINITY, |x| x.1);
    let near = t.track_rows(track).find_map(|row| {
        // partition_point over the row (starts are sorted within a row).
        let (mut lo, mut hi) = (row.start, row.end);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if start_of(mid) < start_us {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (lo..row.end).take_while(|&g| start_of(g) <= start_us).find(|&g| t.source_of(g) == Some(source))
    });
    near.or_else(|| t.track_range(track).find(|&g| t.source_of(g) == Some(source))).map(bar)
}

/// The bar of a joined row in the Worker View (or Scheduler View).
pub fn bar_of_row(t: &Timeline, models: &[&RuntimeModel], dataset: u32, row: u32, scheduler: bool) -> Option<BarAt> {
    let m = models.get(dataset as usize)?;
    let core_id = m.tasks.core_id.get(row as usize)?;
    let (kind, start) = if scheduler {
        (TrackKind::SchedCore { core_id }, m.tasks.dispatch_us(row as usize)?)
    } else {
        (TrackKind::Core { core_id }, m.tasks.start_us(row as usize)?)
    };
    let track = find_track(t, dataset, kind)?;
    bar_of_source(t, models, track, row, start)
}

fn bar_of_anchor(t: &Timeline, models: &[&RuntimeModel], dataset: u32, a: AnchorRef, scheduler: bool) -> Option<BarAt> {
    match a {
        AnchorRef::Row(r) => bar_of_row(t, models, dataset, r, scheduler),
        AnchorRef::Marker(k) => {
            let m = models.get(dataset as usize)?;
            let lane = *m.kinds.markers.lane.get(k as usize)?;
            let track = find_track(t, dataset, TrackKind::Aicpu { lane })?;
            bar_of_source(t, models, track, k, *m.kinds.markers.start_us.get(k as usize)?)
        }
    }
}

/// Task ids of the dependency closure of `task_id` at `depth` (0 none, -1 all) and the
/// logical edges walked, grouped by predecessor.
pub fn closure(m: &RuntimeModel, task_id: u64, depth: i32) -> Vec<(u64, Vec<u64>)> {
    let mut edges: HashMap<u64, Vec<u64>> = HashMap::new();
    let Some(start) = m.kinds.index_of(task_id) else { return Vec::new() };
    if depth == 0 {
        return Vec::new();
    }
    let id_of = |k: u32| m.kinds.id_at(k as usize).unwrap_or(0);
    for successors in [false, true] {
        let mut seen: HashSet<u32> = HashSet::from([start as u32]);
        let mut frontier = vec![start as u32];
        let mut level = 0;
        while !frontier.is_empty() && (depth < 0 || level < depth) {
            let mut next = Vec::new();
            for &k in &frontier {
                for n in m.neighbours(k as usize, successors) {
                    let (p, s) = if successors { (k, n) } else { (n, k) };
                    edges.entry(id_of(p)).or_default().push(id_of(s));
                    if seen.insert(n) {
                        next.push(n);
                    }
                }
            }
            frontier = next;
            level += 1;
        }
    }
    let mut out: Vec<(u64, Vec<u64>)> = edges
        .into_iter()
        .map(|(p, mut v)| {
            v.sort_unstable();
            v.dedup();
            (p, v)
        })
        .collect();
    out.sort_by_key(|e| e.0);
    out
}

/// Dependency arrows around a bar at `depth` (both views' arrows: Worker View anchors and
/// Scheduler View dispatch anchors), at most [`MAX_ARROWS`].
pub fn dependencies(t: &Timeline, models: &[&RuntimeModel], bar: BarAt, depth: i32) -> Vec<ArrowAt> {
    let Some(task) = bar_task(t, models, bar) else { return Vec::new() };
    let Some(d) = t.tracks.get(bar.track as usize).map(|x| x.dataset) else { return Vec::new() };
    let Some(m) = models.get(d as usize) else { return Vec::new() };
    let edges = closure(m, task, depth);
    let hb = hb_violation::compute_edges(&m.tasks, &m.func_ids, &m.kinds, &edges);
    let mut out = Vec::new();
    let mut cache: HashMap<(AnchorRef, bool), Option<BarAt>> = HashMap::new();
    let mut look = |a: AnchorRef, s: bool| *cache.entry((a, s)).or_insert_with(|| bar_of_anchor(t, models, d, a, s));
    for (arrows, sched) in [(&hb.worker, false), (&hb.scheduler, true)] {
        for i in 0..arrows.len() {
            if out.len() >= MAX_ARROWS {
                return out;
            }
            let (Some(&pa), Some(&sa)) = (arrows.pred_anchor.get(i), arrows.succ_anchor.get(i)) else { continue };
            if let (Some(from), Some(to)) = (look(pa, sched), look(sa, sched)) {
                out.push(ArrowAt { from, to, violation: arrows.violation.get(i).copied().unwrap_or(false) });
            }
        }
    }
    out
}

/// All bars of the bar's SPMD group (same func id and task id) in the bar's view.
pub fn spmd_group(t: &Timeline, models: &[&RuntimeModel], bar: BarAt) -> Vec<BarAt> {
    let Some(tr) = t.tracks.get(bar.track as usize) else { return Vec::new() };
    let (d, sched) = match tr.kind {
        TrackKind::Core { .. } => (tr.dataset, false),
        TrackKind::SchedCore { .. } => (tr.dataset, true),
        _ => return vec![bar],
    };
    let (Some(m), Some(g)) = (models.get(d as usize), t.bar_index(bar.track, bar.index)) else { return Vec::new() };
    let row = t.source_of(g).unwrap_or(0);
    let id = m.tasks.task_id.get(row as usize).unwrap_or(0);
    let fid = m.func_ids.func_id(row as usize);
    m.kinds.rows_of(id).filter(|&r| m.func_ids.func_id(r as usize) == fid).filter_map(|r| bar_of_row(t, models, d, r, sched)).collect()
}

fn us(v: f64) -> String {
    format!("{v:.3} µs")
}

fn id_list(ids: &[u64]) -> String {
    const SHOWN: usize = 16;
    let listed: Vec<String> = ids.iter().take(SHOWN).map(|&id| TaskId(id).to_string()).collect();
    let more = if ids.len() > SHOWN { ", …" } else { "" };
    format!("{}: [{}{more}]", ids.len(), listed.join(", "))
}

/// Details of a bar: `(title, fields, SPMD group)`.
#[allow(clippy::too_many_lines)] // one field after the other, per bar kind
pub fn bar_details(t: &Timeline, models: &[&RuntimeModel], bar: BarAt) -> Option<(String, Vec<(String, String)>, Vec<BarAt>)> {
    bar_details_with(t, models, bar, &|_, _, _, _| None)
}

/// A file a bar's details read again: deps.json (a task's tensor arguments, when it was read
/// lean) or the records file (a scheduler phase record, when the phases are detached).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DetailFile {
    Deps,
    Records,
}

/// `read(dataset, file, offset, len)`: those bytes of that dataset's file, or `None` when
/// they were not read (yet).
pub type ReadBack<'a> = dyn Fn(usize, DetailFile, u64, u32) -> Option<Vec<u8>> + 'a;

/// The fields of a scheduler phase bar's record: from the model, or read back with `read`.
fn phase_fields(m: &RuntimeModel, dataset: usize, thread: u32, src: usize, read: &ReadBack<'_>) -> Option<PhaseFields> {
    let p = m.phases.get(thread as usize)?;
    match p.lookup(src)? {
        PhaseLookup::Here(f) => Some(f),
        PhaseLookup::InFile { offset, len, position } => p.read_back(&read(dataset, DetailFile::Records, offset, len)?, position),
    }
}

/// Text of a detail row whose bytes were not read back (yet).
pub const NOT_READ: &str = "could not read it back from the file";

/// A task's arguments as detail rows (`Arg <idx>` → type, dtype, shape, offset, strides,
/// tensor) from deps task `i` of `d`.
fn arg_fields(d: &DepsDetails, i: usize, push: &mut dyn FnMut(&str, String)) {
    let a = d.arg_offsets.get(i).copied().unwrap_or(0) as usize;
    let b = d.arg_offsets.get(i + 1).copied().unwrap_or(a as u32) as usize;
    for j in a..b {
        let dtype = d.args.dtype.get(j).and_then(|&x| d.dtype_names.get(x as usize)).map_or("?", String::as_str);
        let shape = d.args.shape.get(j).map(|&r| d.dims_of(r).to_vec()).unwrap_or_default();
        let strides = d.args.strides.get(j).map(|&r| d.dims_of(r).to_vec()).unwrap_or_default();
        let ty = d.args.arg_type.get(j).copied().unwrap_or_default();
        let tensor = d.args.tensor_id.get(j).copied().flatten().map_or_else(|| "-".to_owned(), |x| x.to_string());
        push(
            &format!("Arg {}", d.args.idx.get(j).copied().unwrap_or(j as i32)),
            format!(
                "{ty:?} {dtype} shape {shape:?} offset {} strides {strides:?} tensor {tensor}",
                d.args.start_offset.get(j).copied().unwrap_or(0)
            ),
        );
    }
}

/// [`bar_details`] for models whose files are read back: `read(dataset, file, offset, len)`
/// returns those bytes of that dataset's deps.json (a lean read: the task's tensor arguments)
/// or records file (detached scheduler phases: the bar's record). A row whose bytes `read`
/// does not give says so ([`NOT_READ`]).
#[allow(clippy::type_complexity, clippy::too_many_lines)] // one field list per lane kind
pub fn bar_details_with(
    t: &Timeline,
    models: &[&RuntimeModel],
    bar: BarAt,
    read: &ReadBack<'_>,
) -> Option<(String, Vec<(String, String)>, Vec<BarAt>)> {
    let g = t.bar_index(bar.track, bar.index)?;
    let tr = t.tracks.get(bar.track as usize)?;
    let m = model(t, models, bar.track)?;
    let src = t.source_of(g)? as usize;
    let dataset = tr.dataset as usize;
    let phase = match tr.kind {
        TrackKind::SchedThread { thread } => Some(phase_fields(m, dataset, thread, src, read)),
        _ => None,
    };
    let (start, end, title) = match &phase {
        Some(Some(p)) => (p.start_us, p.end_us, format!("{}({})", phase_name(&p.kind), p.tasks_processed)),
        Some(None) => (0.0, 0.0, tr.label.clone()),
        None => {
            let (_, start, end) = bar_times(t, models, bar)?;
            (start, end, bar_label(t, models, bar))
        }
    };
    let mut f: Vec<(String, String)> = Vec::new();
    let mut push = |k: &str, v: String| f.push((k.to_owned(), v));
    push("Lane", format!("{} · {}", tr.view.title(), tr.label));
    if let Some(p) = t.alignment.placements.get(dataset).filter(|p| p.offset_us != 0.0) {
        let why = match p.by {
            pypto_vocab::AlignedBy::ClockAnchors => "clock anchors".to_owned(),
            pypto_vocab::AlignedBy::FirstDispatch => "first dispatch".to_owned(),
            pypto_vocab::AlignedBy::Task(id) => format!("task {id}"),
            pypto_vocab::AlignedBy::NotAligned => "not aligned".to_owned(),
        };
        push(
            "Timeline shift",
            format!("{:+.3} µs ({why}): drawn at the times below + shift; the times below are the dataset's own", p.offset_us),
        );
    }
    let task = bar_task(t, models, bar);
    match tr.kind {
        TrackKind::Core { .. } | TrackKind::SchedCore { .. } => {
            let tk = &m.tasks;
            let fid = m.func_ids.func_id(src);
            let id = tk.task_id.get(src).unwrap_or(0);
            let s = tk.start_us(src).unwrap_or(0.0);
            let e = tk.end_us(src).unwrap_or(s);
            let r = tk.receive_us(src).unwrap_or(s);
            push("Function", m.function_name(fid));
            push("Func ID", if fid < 0 { "unresolved".into() } else { fid.to_string() });
            push("Task", TaskId(id).to_string());
            push("Ring ID", ((id >> 32) & 0xFF).to_string());
            push("Task ID (raw)", id.to_string());
            let ct = tk.core_type(src).unwrap_or_default();
            push("Core", format!("{}_{} (core {})", ct.lane_prefix(), tk.core_id.get(src).unwrap_or(0), tk.core_id.get(src).unwrap_or(0)));
            push("Start", us(s));
            push("End", us(e));
            push("Duration (end − start)", us(e - s));
            push("Receive", us(r));
            push("Setup (receive → start)", us(s - r));
            if tk.has_aicpu(src) {
                let d = tk.dispatch_us(src).unwrap_or(0.0);
                let fi = tk.finish_us(src).unwrap_or(0.0);
                push("Dispatch", us(d));
                push("Finish", us(fi));
                push("Head overhead (start − dispatch)", us(s - d));
                push("Tail overhead (finish − end)", us(fi - e));
                push("Latency (finish − dispatch)", us(fi - d));
                push("Propagation (receive − dispatch)", us(r - d));
            }
        }
        TrackKind::SchedThread { thread } => match &phase {
            Some(Some(p)) => {
                push("Phase", phase_name(&p.kind).to_owned());
                push("Thread", format!("Sched_{thread}"));
                push("Start", us(start));
                push("End", us(end));
                push("Duration", us(end - start));
                push("Loop iteration", p.loop_iter.to_string());
                push("Tasks processed", p.tasks_processed.to_string());
                let (h, mi) = (p.pop_hit, p.pop_miss);
                if h + mi > 0 {
                    push("Pop hit / miss", format!("{h} / {mi}"));
                }
            }
            _ => {
                push("Thread", format!("Sched_{thread}"));
                push("Record", NOT_READ.to_owned());
            }
        },
        TrackKind::HostPhase { .. } => host_phase_fields(m, src, start, end, &mut push),
        TrackKind::Uploads => {
            push("Phase", m.uploads.name.get(src).cloned().unwrap_or_default());
            push("Bytes", m.uploads.bytes.get(src).copied().unwrap_or(0).to_string());
            push("Start", us(start));
            push("End", us(end));
            push("Duration", us(end - start));
        }
        TrackKind::Aicpu { .. } | TrackKind::Orch { .. } | TrackKind::Graph { .. } => {
            if let Some(id) = task {
                push("Task", TaskId(id).to_string());
                push("Task ID (raw)", id.to_string());
                if let Some(k) = m.kinds.kind_of(id) {
                    push("Kind", k.as_str().to_owned());
                    if k == TaskKind::PredicatedSkip {
                        let fid = first_kernel(m, id);
                        push("Function", m.function_name(fid));
                        push("Func ID", fid.to_string());
                        push("Predicated pass", "false".into());
                    }
                }
            }
            if let (TrackKind::Orch { .. }, Some(o)) = (tr.kind, m.orch.get(tr_lane(tr.kind) as usize)) {
                push("Submit index", o.submit_idx.get(src).unwrap_or(0).to_string());
            }
            push("Start", us(start));
            push("End", us(end));
            push("Duration", us(end - start));
        }
    }
    if let (Some(id), Some(d)) = (task, &m.deps) {
        let k = m.kinds.index_of(id);
        let ids = |succ: bool| -> Vec<u64> {
            k.map(|k| m.neighbours(k, succ).filter_map(|n| m.kinds.id_at(n as usize)).collect()).unwrap_or_default()
        };
        let di = k.and_then(|k| m.deps_task(k));
        if let Some(i) = di {
            push("block_num", d.block_num.get(i).unwrap_or(1).to_string());
        }
        push("Fan-in", id_list(&ids(false)));
        push("Fan-out", id_list(&ids(true)));
        if let Some(i) = di {
            if d.args_on_demand() {
                let one = d
                    .task_span(i)
                    .and_then(|(off, len, k)| Some((read(dataset, DetailFile::Deps, off, len)?, k)))
                    .and_then(|(bytes, k)| pypto_formats::deps::parse_task_at(&bytes, k));
                match one {
                    Some(one) => arg_fields(&DepsDetails::from_deps(one), 0, &mut push),
                    None => push("Arguments", NOT_READ.to_owned()),
                }
            } else {
                arg_fields(d, i, &mut push);
            }
        }
    }
    if let Some(id) = task {
        let (s, o) = m.on_paths(id);
        if s || o {
            push("Critical path", [(s, "static"), (o, "observed")].iter().filter(|x| x.0).map(|x| x.1).collect::<Vec<_>>().join(", "));
        }
    }
    let group = spmd_group(t, models, bar);
    Some((title, f, group))
}

/// The details of host prepare record `r`: its phase, process, invocation and thread, times,
/// `detail` (named by what it means for the phase) and where it is in the file.
fn host_phase_fields(m: &RuntimeModel, r: usize, start: f64, end: f64, push: &mut impl FnMut(&str, String)) {
    let h = &m.host_phases;
    let phase = h.phase_name(r);
    push("Phase", phase.to_owned());
    let lane = h.lane_of(r);
    let pass = lane.and_then(|l| h.passes.get(l.pass as usize));
    let num = |v: Option<u64>| v.map_or_else(|| "unknown".to_owned(), |v| v.to_string());
    push("Process (pid)", num(pass.and_then(|p| p.pid)));
    push("Invocation", num(pass.and_then(|p| p.inv)));
    push("Thread (tid)", num(lane.and_then(|l| l.tid)));
    push("Start", us(start));
    push("End", us(end));
    push("Duration", us(end - start));
    let detail = h.detail.get(r).copied().unwrap_or(0);
    match HostPhasesUs::detail_meaning(phase) {
        Some(meaning) => push(&format!("Detail ({meaning})"), detail.to_string()),
        None => push("Detail", detail.to_string()),
    }
    if let Some(clock) = pass.and_then(|p| p.clock.clone()) {
        push("Clock", clock);
    }
    if let Some(p) = pass.filter(|p| p.dropped > 0) {
        push("Dropped records (pass)", p.dropped.to_string());
    }
    let record = h.record.get(r).copied().unwrap_or(0);
    push("Record", format!("{} line {} records[{record}]", h.path, pass.map_or(0, |p| p.line)));
}

fn tr_lane(k: TrackKind) -> u32 {
    match k {
        TrackKind::Orch { lane } => lane,
        _ => 0,
    }
}

/// Fuzzy subsequence score of `name` for the lower-case query `q` (None = no match):
/// exact > prefix > substring > subsequence, shorter gaps and names rank higher.
pub fn fuzzy_score(name: &str, q: &str) -> Option<i64> {
    let n = name.to_lowercase();
    if q.is_empty() {
        return None;
    }
    if n == q {
        return Some(1_000_000);
    }
    if n.starts_with(q) {
        return Some(500_000 - n.len() as i64);
    }
    if let Some(p) = n.find(q) {
        return Some(250_000 - p as i64 * 10 - n.len() as i64);
    }
    let mut it = n.char_indices();
    let mut gaps = 0i64;
    let mut last: Option<usize> = None;
    for c in q.chars() {
        let (i, _) = it.by_ref().find(|&(_, x)| x == c)?;
        if let Some(l) = last {
            gaps += (i - l - 1) as i64;
        }
        last = Some(i);
    }
    Some(100_000 - gaps * 100 - n.len() as i64)
}

/// Parses `rXtY`, `tY` or a decimal raw id.
pub fn parse_task_query(q: &str) -> Option<u64> {
    let q = q.trim().to_ascii_lowercase();
    if let Some(rest) = q.strip_prefix('r') {
        let (r, l) = rest.split_once('t')?;
        let r: u64 = r.parse().ok()?;
        let l: u64 = l.parse().ok()?;
        return (r <= 0xFF && l <= 0xFFFF_FFFF).then_some((r << 32) | l);
    }
    if let Some(l) = q.strip_prefix('t') {
        return l.parse::<u32>().ok().map(u64::from);
    }
    q.parse().ok()
}

/// One search hit.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub bar: BarAt,
    pub label: String,
    pub start_us: f64,
}

/// Search over the Worker View task bars: exact by `rXtY` / `tY` / raw id (every bar of the
/// task), else fuzzy by function name (ranked by score, then execution start). Returns
/// `(total, hits)`.
pub fn search(t: &Timeline, models: &[&RuntimeModel], query: &str, limit: usize) -> (u64, Vec<Hit>) {
    let task_tracks: Vec<u32> =
        (0..t.tracks.len() as u32).filter(|&k| t.tracks.get(k as usize).is_some_and(|x| x.view == View::Worker)).collect();
    let mut found: Vec<(i64, f64, BarAt)> = Vec::new();
    if let Some(id) = parse_task_query(query) {
        for (d, m) in models.iter().enumerate() {
            let d = d as u32;
            for r in m.kinds.rows_of(id) {
                if let Some(b) = bar_of_row(t, models, d, r, false) {
                    found.push((0, bar_times_on_axis(t, models, b).map_or(0.0, |x| x.1), b));
                }
            }
            for k in m.kinds.markers_of(id) {
                if let Some(b) = bar_of_anchor(t, models, d, AnchorRef::Marker(k), false) {
                    found.push((0, bar_times_on_axis(t, models, b).map_or(0.0, |x| x.1), b));
                }
            }
        }
    }
    let mut total = found.len() as u64;
    if found.is_empty() {
        let q = query.trim().to_lowercase();
        let scores: Vec<Option<i64>> = t.names.iter().map(|n| fuzzy_score(n, &q)).collect();
        if scores.iter().any(Option::is_some) {
            let (count, hits) = fuzzy_hits(t, models, &task_tracks, &scores, limit);
            total = count;
            found = hits;
        }
    }
    let cmp = |a: &(i64, f64, BarAt), b: &(i64, f64, BarAt)| b.0.cmp(&a.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2));
    if found.len() > limit && limit > 0 {
        found.select_nth_unstable_by(limit - 1, cmp);
        found.truncate(limit);
    }
    found.sort_by(cmp);
    found.truncate(limit);
    let hits = found
        .into_iter()
        .map(|(_, _, b)| Hit { bar: b, label: bar_label(t, models, b), start_us: bar_times_on_axis(t, models, b).map_or(0.0, |x| x.0) })
        .collect();
    (total, hits)
}

/// The fuzzy matches of a search: `(total, hits)`, the best `limit` by (score desc, execution
/// start asc, bar), in that order. Matches are counted from each track's name counts
/// ([`Timeline::names_of_track`]); bars scoring below the `limit`-th best score are only
/// counted; each row of a track (sorted by execution start) is read until it gave its first
/// `limit` bars of each score that can still be taken, and the rows are merged by start
/// score by score, so a query matching a function of 300k bars reads the names of
/// `rows × limit` bars and times about `limit + rows` of them.
fn fuzzy_hits(
    t: &Timeline,
    models: &[&RuntimeModel],
    task_tracks: &[u32],
    scores: &[Option<i64>],
    limit: usize,
) -> (u64, Vec<(i64, f64, BarAt)>) {
    let score_of_name = |n: u32| scores.get(n as usize).copied().flatten();
    // 1. Count the matches per score (names are few, bars many: a name-index lookup per bar,
    // the packed names read a block at a time).
    let mut per_score: Vec<(i64, u64)> = Vec::new();
    let mut add = |s: i64, count: u64| match per_score.iter_mut().find(|(x, _)| *x == s) {
        Some((_, n)) => *n += count,
        None => per_score.push((s, count)),
    };
    // Per track, the bars of each name (kept beside a compacted index), else counted here.
    let counts: Vec<Vec<(u32, u64)>> = task_tracks.iter().map(|&k| t.names_of_track(k)).collect();
    for names in &counts {
        for &(n, count) in names {
            if let Some(s) = score_of_name(n) {
                add(s, count);
            }
        }
    }
    let total: u64 = per_score.iter().map(|(_, n)| n).sum();
    // 2. The threshold: the lowest score that still reaches into the best `limit`.
    per_score.sort_by_key(|x| std::cmp::Reverse(x.0));
    let mut threshold = i64::MIN;
    let mut above = 0u64;
    for &(s, n) in &per_score {
        threshold = s;
        above += n;
        if above >= limit as u64 {
            break;
        }
    }
    // 3. Candidates: per row (sorted by start), its bars scoring at least the threshold, at
    // most the first `limit` of each score; no times decoded yet.
    let mut rows: Vec<(u32, usize, Vec<(i64, usize)>)> = Vec::new();
    for (&k, names) in task_tracks.iter().zip(&counts) {
        let first = t.track_range(k).start;
        // The scores this track can give at least the threshold: a row is read until each has
        // its `limit` bars (or the row ends).
        let mut wanted: Vec<i64> = names.iter().filter_map(|&(n, _)| score_of_name(n)).filter(|&s| s >= threshold).collect();
        wanted.sort_unstable();
        wanted.dedup();
        if wanted.is_empty() {
            continue;
        }
        for row in t.track_rows(k) {
            let mut list: Vec<(i64, usize)> = Vec::new();
            let mut taken: Vec<(i64, usize)> = Vec::new();
            let mut full = 0usize;
            for (g, n) in row.clone().zip(t.name_index.range(row)) {
                if full == wanted.len() {
                    break;
                }
                let Some(s) = score_of_name(n).filter(|&s| s >= threshold) else { continue };
                let pos = taken.iter().position(|(x, _)| *x == s).unwrap_or_else(|| {
                    taken.push((s, 0));
                    taken.len() - 1
                });
                if let Some((_, count)) = taken.get_mut(pos).filter(|(_, c)| *c < limit) {
                    *count += 1;
                    full += usize::from(*count == limit);
                    list.push((s, g));
                }
            }
            if !list.is_empty() {
                rows.push((k, first, list));
            }
        }
    }
    // 4. The best `limit`, score by score: the rows' bars of that score merged by start (each
    // row's are in start order), so only the bars taken and the rows' next ones are timed.
    let mut found = Vec::new();
    let starts: Vec<_> = rows.iter().map(|&(k, _, _)| start_reader(t, models, k)).collect();
    for &(s, _) in per_score.iter().filter(|x| x.0 >= threshold) {
        let of_score: Vec<Vec<usize>> = rows.iter().map(|(_, _, l)| l.iter().filter(|x| x.0 == s).map(|x| x.1).collect()).collect();
        let head = |r: usize, at: usize| -> Option<Head> {
            let (k, first, _) = rows.get(r)?;
            let g = *of_score.get(r)?.get(at)?;
            let bar = BarAt { track: *k, index: (g - first) as u32 };
            Some(Head { start: starts.get(r)?(g, bar), bar, row: r, at })
        };
        let mut queue: std::collections::BinaryHeap<Head> = (0..rows.len()).filter_map(|r| head(r, 0)).collect();
        while found.len() < limit {
            let Some(h) = queue.pop() else { break };
            found.push((s, h.start, h.bar));
            if let Some(next) = head(h.row, h.at + 1) {
                queue.push(next);
            }
        }
    }
    (total, found)
}

/// A row's next candidate in the merge of [`fuzzy_hits`]: the heap pops the earliest start
/// (then the lowest bar), as the search orders hits.
struct Head {
    start: f64,
    bar: BarAt,
    row: usize,
    at: usize,
}

impl Ord for Head {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.start.total_cmp(&self.start).then(other.bar.cmp(&self.bar))
    }
}

impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Head {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Head {}

/// The execution start of the bars of `track` (global bar, its reference) on the timeline's
/// axis: decoding only the start for Worker View task and marker lanes (the search's
/// candidates), else [`bar_times`]; plus the track's dataset's shift.
fn start_reader<'a>(t: &'a Timeline, models: &'a [&'a RuntimeModel], track: u32) -> impl Fn(usize, BarAt) -> f64 + 'a {
    let own = t.source_alias.get(track as usize).copied().flatten().is_none();
    let kind = t.tracks.get(track as usize).map(|x| x.kind);
    let m = model(t, models, track);
    let offset_us = t.offset_us_of_track(track);
    move |g: usize, b: BarAt| {
        let direct = match (kind, m, own) {
            (Some(TrackKind::Core { .. }), Some(m), true) => t.source.get(g).and_then(|src| m.tasks.start_us(src as usize)),
            (Some(TrackKind::Aicpu { .. }), Some(m), true) => {
                t.source.get(g).and_then(|src| m.kinds.markers.start_us.get(src as usize).copied())
            }
            _ => None,
        };
        direct.or_else(|| bar_times(t, models, b).map(|x| x.1)).unwrap_or(0.0) + offset_us
    }
}

/// Global bar index → `(track, index)`.
pub fn bar_at(t: &Timeline, bar: usize) -> Option<BarAt> {
    at(t, bar)
}
