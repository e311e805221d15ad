//! The chip swimlane timeline: every track of every view of one or more runtime datasets,
//! laid out as the reference converter lays out `merged_swimlane.json` (runtime-formats.md
//! §6.4, §1.6, §1.9, §1.16), as flat columns for the worker to transfer to the page.
//!
//! Per dataset, one group per view that has bars (else an [`Absent`] entry with the reason):
//! - Worker View: `AIC_<core>` / `AIV_<core>` (core id order; one bar per joined row from
//!   receive (`setup_start_us`) / start to end), then `AICPU_<lane>` (dummy and predicated
//!   skip markers, alloc bars; [`crate::task_kinds::AicpuMarkers`]).
//! - Scheduler View: per core with AICPU timing, dispatch → finish per row; overlapping bars
//!   go to greedy sub-rows (`row` = the reference's overflow lane `base + k`).
//! - AICPU Scheduler: `Sched_<t>`; outer phases on row 0, `drain_prepare`/`drain_publish`
//!   on row 1 (nested under their drain), `resolve` on the next row (the reference's sibling
//!   lane `30000 + 10 t + 1`). `dummy_task` / `predicated_skip` go to the Worker View,
//!   legacy `idle` / `scan` and unknown kinds are dropped.
//! - Orchestrator: `Orch_<i>` (or `Host_<i>` in host mode) per-submit bars, `H2D` uploads,
//!   `Graph_<lane>` Graph Execution envelopes (prepare start → last node finish).
//! - Host Prepare (not in the reference's trace; only with `host_phase_records.jsonl`): one
//!   lane per prepare pass and thread, nested phases on deeper rows
//!   ([`crate::host_phases`]); a host-orchestrated capture without the file says so.
//!
//! Several datasets share one axis: each dataset's bars are shifted by its placement's offset
//! ([`crate::alignment`], [`TimelineBuilder::aligned`]; none for one dataset, so its columns are
//! exactly the dataset's own µs), in the render columns, `first_start_us` / `last_end_us`; the
//! queries ([`crate::timeline_query`]) read times from the models and add the same offset
//! where they name a place on the axis (search hits, the Perfetto export).
//!
//! A track's bars are laid out row by row (`Timeline::sublanes`), each row sorted by
//! `start_us`, so the page draws every row straight from the columns. Colour keys: the function id for task bars
//! ([`crate::worker_view::color_key`], a task-id hash when unresolved), else a constant
//! `COLOR_*` per phase / bar kind. Names: the function display name for task bars (the page
//! composes `name(rXtY)` from the `task_ring` / `task_local` columns), `<phase>(<n>)` for
//! phases, `submit`, `dummy`, `alloc`, the upload phase name, `GraphExecution(<tid>, N)`.

#![allow(clippy::many_single_char_names)] // short loop names over columns read best here

use crate::alignment::AlignmentPlan;
use crate::runtime_model::RuntimeModel;
use crate::task_kinds::{SchedPhasesUs, TaskKind};
use crate::tasks::FuncIdOf;
use crate::worker_view::{bar_start_us, color_key};
use pypto_formats::packed::PackedU32;
use pypto_formats::records::{CoreType, SchedKind};
use pypto_formats::Warning;
use pypto_vocab::TaskId;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Multiplicative hasher for the small integer keys of the per-bar caches (`SipHash` per bar
/// dominated the build).
#[derive(Default)]
struct IntHasher(u64);

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_i64(&mut self, i: i64) {
        self.write_u64(i as u64);
    }
}

type IntMap<K, V> = HashMap<K, V, BuildHasherDefault<IntHasher>>;

/// Bar flags (same bits as the protocol's `FLAG_*`).
pub const FLAG_STATIC_PATH: u32 = 1;
pub const FLAG_OBSERVED_PATH: u32 = 2;
pub const FLAG_MARKER: u32 = 4;
pub const FLAG_SPMD: u32 = 8;
pub const FLAG_TASK: u32 = 16;

/// Colour keys of non-function bars: `COLOR_PHASE_BASE + phase ordinal`, then fixed keys.
pub const COLOR_PHASE_BASE: u32 = 0x4000_0000;
pub const COLOR_SUBMIT: u32 = 0x4000_0100;
pub const COLOR_H2D: u32 = 0x4000_0101;
pub const COLOR_DUMMY: u32 = 0x4000_0102;
pub const COLOR_ALLOC: u32 = 0x4000_0103;
pub const COLOR_GRAPH: u32 = 0x4000_0104;
/// Host prepare phases: `COLOR_HOST_PHASE_BASE +` [`host_phase_ordinal`].
pub const COLOR_HOST_PHASE_BASE: u32 = 0x4000_0200;

/// "No task id" in the `task_ring` / `task_local` columns.
pub const NO_TASK: u32 = u32::MAX;

/// "No name kept" in [`Timeline::name_index`] ([`Timeline::compact_for_queries`]).
pub const NO_NAME: u32 = u32::MAX;

/// The views of the chip swimlane (the shared vocabulary's `TimelineView`).
pub use pypto_vocab::TimelineView as View;

/// What a track's bars are, and so what the `source` column indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TrackKind {
    /// Worker View AICore lane; source = joined row.
    Core { core_id: u32 },
    /// Worker View `AICPU_<lane>`; source = marker index.
    Aicpu { lane: u32 },
    /// Scheduler View core lane; source = joined row.
    SchedCore { core_id: u32 },
    /// `Sched_<thread>`; source = record index in `phases[thread]`.
    SchedThread { thread: u32 },
    /// `Orch_<i>` / `Host_<i>`; source = record index in `orch[i]`.
    Orch { lane: u32 },
    /// `H2D`; source = upload index.
    Uploads,
    /// `Graph_<lane>`; source = index into `kinds.graphs`.
    Graph { lane: u32 },
    /// A Host Prepare lane (`host_phases.lanes[lane]`); source = record index in
    /// `host_phases`.
    HostPhase { lane: u32 },
}

/// One track.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Track {
    pub label: String,
    pub view: View,
    pub group: u32,
    /// Position of the track's dataset in the `models` slice the timeline was built from.
    pub dataset: u32,
    pub rows: u32,
    pub core_type: Option<CoreType>,
    pub kind: TrackKind,
    /// Row of `resolve` bars (`Sched_<t>` tracks only).
    pub resolve_row: Option<u32>,
}

impl Track {
    /// A one-row track with no core type and no `resolve` row (AICPU, orchestrator, host,
    /// upload and graph lanes).
    fn flat(label: String, view: View, group: u32, dataset: u32, kind: TrackKind) -> Self {
        Self { label, view, group, dataset, rows: 1, core_type: None, kind, resolve_row: None }
    }
}

/// One group: one view of one dataset.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Group {
    pub label: String,
    pub view: View,
    pub dataset: u32,
    pub tracks: Vec<u32>,
}

/// A view a dataset cannot show, and why.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Absent {
    pub view: View,
    pub dataset: u32,
    pub reason: String,
}

/// The per-bar columns handed to the page (the worker moves them out after posting).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RenderColumns {
    pub start_us: Vec<f64>,
    pub end_us: Vec<f64>,
    pub setup_start_us: Vec<f64>,
    pub color_key: Vec<u32>,
    pub row: Vec<u32>,
    pub flags: Vec<u32>,
    /// Ring (bits 39:32) and local id of the bar's task, [`NO_TASK`] when none.
    pub task_ring: Vec<u32>,
    pub task_local: Vec<u32>,
}

/// The timeline (see the module doc). `track_offsets`, `source`, `name_index` and `names`
/// stay resident for the queries; [`RenderColumns`] may be taken away.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Timeline {
    pub groups: Vec<Group>,
    pub tracks: Vec<Track>,
    pub track_offsets: Vec<u32>,
    /// The rows of every track as global bar ranges, track by track (a track's bars are laid
    /// out row by row, each row by start): track `t`'s rows are
    /// `sublanes[track_sublanes[t]..track_sublanes[t + 1]]`.
    pub sublanes: Vec<std::ops::Range<u32>>,
    pub track_sublanes: Vec<u32>,
    /// Per bar: its row in the model's lane columns, and its name in `names` (bit-packed: see
    /// [`PackedU32`]).
    pub source: PackedU32,
    /// Per bar (see above); [`NO_NAME`] for the bars whose names the analysis worker never
    /// reads once [`Timeline::compact_for_queries`] ran (the page holds them all).
    pub name_index: PackedU32,
    /// Per track: its bars' distinct names and how many bars carry each, for the Worker View
    /// tracks (the search counts matches from it), once [`Timeline::compact_for_queries`] ran;
    /// else empty (see [`Timeline::names_of_track`]).
    pub name_counts: Vec<Vec<(u32, u64)>>,
    /// Per track: `Some(other)` when the track's bars have `other`'s sources, bar for bar
    /// (a Scheduler View lane in the order of its core's Worker View lane); their own
    /// entries in `source` are then 0. Read sources with [`Timeline::source_of`].
    pub source_alias: Vec<Option<u32>>,
    pub names: Vec<String>,
    pub columns: RenderColumns,
    /// `(color_key, name, bars)`, ascending key.
    pub legend: Vec<(u32, String, u64)>,
    pub absent: Vec<Absent>,
    pub first_start_us: f64,
    pub last_end_us: f64,
    pub has_static_path: bool,
    pub has_observed_path: bool,
    pub path_source: String,
    pub warnings: Vec<Warning>,
    /// Where each dataset sits on the axis (its bars' shift) and the timeline's label.
    pub alignment: AlignmentPlan,
}

#[derive(Clone, Copy)]
struct Bar {
    start: f64,
    end: f64,
    setup: f64,
    color: u32,
    name: u32,
    row: u32,
    flags: u32,
    source: u32,
    /// The bar's task id, [`NO_TASK_ID`] = none (a plain `u64`: a big track holds millions
    /// of bars while it is sorted, and `Option<u64>` would take 16 bytes).
    task: u64,
}

/// "No task" in [`Bar::task`].
const NO_TASK_ID: u64 = u64::MAX;

/// Where [`build_into`] writes the render columns, in pieces of at most [`SINK_CHUNK_BARS`]
/// as the tracks are laid out.
pub trait ColumnSink {
    /// The next bars, in drawing order (a track's, or part of one), after the ones before.
    fn bars(&mut self, columns: &RenderColumns);
}

/// The most bars [`ColumnSink::bars`] is given at once (a scheduler thread's track can hold
/// millions; a piece of this size is a few MB).
pub const SINK_CHUNK_BARS: usize = 1 << 16;

impl ColumnSink for RenderColumns {
    fn bars(&mut self, c: &RenderColumns) {
        self.start_us.extend_from_slice(&c.start_us);
        self.end_us.extend_from_slice(&c.end_us);
        self.setup_start_us.extend_from_slice(&c.setup_start_us);
        self.color_key.extend_from_slice(&c.color_key);
        self.row.extend_from_slice(&c.row);
        self.flags.extend_from_slice(&c.flags);
        self.task_ring.extend_from_slice(&c.task_ring);
        self.task_local.extend_from_slice(&c.task_local);
    }
}

impl RenderColumns {
    fn clear(&mut self) {
        self.start_us.clear();
        self.end_us.clear();
        self.setup_start_us.clear();
        self.color_key.clear();
        self.row.clear();
        self.flags.clear();
        self.task_ring.clear();
        self.task_local.clear();
    }

    fn reserve_exact(&mut self, bars: usize) {
        self.start_us.reserve_exact(bars);
        self.end_us.reserve_exact(bars);
        self.setup_start_us.reserve_exact(bars);
        self.color_key.reserve_exact(bars);
        self.row.reserve_exact(bars);
        self.flags.reserve_exact(bars);
        self.task_ring.reserve_exact(bars);
        self.task_local.reserve_exact(bars);
    }
}

struct Builder<'s> {
    t: Timeline,
    /// Receives the columns; `scratch` holds each piece meanwhile.
    sink: &'s mut dyn ColumnSink,
    scratch: RenderColumns,
    /// The shift of the dataset being laid out (added to every bar's times).
    offset_us: f64,
    first_us: f64,
    last_us: f64,
    name_ids: HashMap<String, u32>,
    /// `(phase ordinal, tasks_processed)` → name index of `<phase>(<n>)`.
    phase_names: IntMap<(u32, u32), u32>,
    legend: IntMap<u32, (u32, u64)>,
}

impl Builder<'_> {
    fn intern(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.name_ids.get(s) {
            return i;
        }
        let i = self.t.names.len() as u32;
        self.t.names.push(s.to_owned());
        self.name_ids.insert(s.to_owned(), i);
        i
    }

    fn legend_name(&mut self, key: u32, name: &str) {
        if !self.legend.contains_key(&key) {
            let n = self.intern(name);
            self.legend.insert(key, (n, 0));
        }
    }

    /// Lays out a track from bars in any order: they are put in drawing order, by row and then
    /// by start (rows past the track's last are drawn on its last).
    fn push_track(&mut self, track: Track, mut bars: Vec<Bar>) {
        let last_row = track.rows.max(1) - 1;
        for bar in &mut bars {
            bar.row = bar.row.min(last_row);
        }
        let order = |a: &Bar, b: &Bar| a.row.cmp(&b.row).then(a.start.total_cmp(&b.start));
        // Most big tracks arrive in drawing order already; a stable sort would still take a
        // scratch buffer of half the track.
        if !bars.is_sorted_by(|a, b| order(a, b).is_le()) {
            bars.sort_by(order);
        }
        // Sorted by row, each row is one run: found by binary search, not a pass per row.
        let row_bars = |row: u32| {
            let lo = bars.partition_point(|b| b.row < row);
            let hi = bars.partition_point(|b| b.row <= row);
            bars.get(lo..hi).unwrap_or_default().iter().copied()
        };
        self.push_track_rows(track, true, row_bars);
    }

    /// [`Builder::push_track`] for bars made on the fly, one row at a time (`bars(row)` gives
    /// that row's bars): streamed when `sorted` (the caller checked each row comes in start
    /// order), so a lane of a million bars is never held whole.
    fn push_track_rows<I: Iterator<Item = Bar>>(&mut self, track: Track, sorted: bool, bars: impl Fn(u32) -> I) {
        let rows = track.rows.max(1);
        if !sorted {
            let all: Vec<Bar> = (0..rows).flat_map(&bars).collect();
            if !all.is_empty() {
                self.push_track(track, all);
            }
            return;
        }
        if (0..rows).all(|row| bars(row).next().is_none()) {
            return;
        }
        let ti = self.t.tracks.len() as u32;
        if let Some(g) = self.t.groups.get_mut(track.group as usize) {
            g.tracks.push(ti);
        }
        self.t.tracks.push(track);
        self.scratch.clear();
        let mut run: Option<(u32, u64)> = None;
        for row in 0..rows {
            let first = self.t.source.len() as u32;
            for mut b in bars(row) {
                b.row = row;
                self.push_bar(&b, &mut run);
            }
            self.t.sublanes.push(first..self.t.source.len() as u32);
        }
        if let Some((color, n)) = run {
            if let Some(e) = self.legend.get_mut(&color) {
                e.1 += n;
            }
        }
        self.sink.bars(&self.scratch);
        self.scratch.clear();
        self.t.track_offsets.push(self.t.source.len() as u32);
        self.t.track_sublanes.push(self.t.sublanes.len() as u32);
    }

    /// Appends one bar to the columns (handing a full piece to the sink first); `run` counts
    /// the bars of the current colour for the legend.
    fn push_bar(&mut self, b: &Bar, run: &mut Option<(u32, u64)>) {
        let c = &mut self.scratch;
        if c.start_us.len() == SINK_CHUNK_BARS {
            self.sink.bars(c);
            c.clear();
        }
        // Not shifted: the dataset's own µs, bit for bit.
        let (start, end, setup) = if self.offset_us == 0.0 {
            (b.start, b.end, b.setup)
        } else {
            (b.start + self.offset_us, b.end + self.offset_us, b.setup + self.offset_us)
        };
        self.first_us = self.first_us.min(setup);
        self.last_us = self.last_us.max(end);
        c.start_us.push(start);
        c.end_us.push(end);
        c.setup_start_us.push(setup);
        c.color_key.push(b.color);
        c.row.push(b.row);
        c.flags.push(b.flags);
        let task = Some(b.task).filter(|&id| id != NO_TASK_ID);
        c.task_ring.push(task.map_or(NO_TASK, |id| ((id >> 32) & 0xFF) as u32));
        c.task_local.push(task.map_or(NO_TASK, |id| (id & 0xFFFF_FFFF) as u32));
        self.t.source.push(b.source);
        self.t.name_index.push(b.name);
        match run {
            Some((color, n)) if *color == b.color => *n += 1,
            _ => {
                if let Some((color, n)) = *run {
                    if let Some(e) = self.legend.get_mut(&color) {
                        e.1 += n;
                    }
                }
                *run = Some((b.color, 1));
            }
        }
    }

    fn group(&mut self, prefix: &str, view: View, dataset: u32) -> u32 {
        self.t.groups.push(Group { label: format!("{prefix}{}", view.title()), view, dataset, tracks: Vec::new() });
        self.t.groups.len() as u32 - 1
    }

    /// Drops a group that received no tracks; returns whether it was kept.
    fn close_group(&mut self, g: u32) -> bool {
        if self.t.groups.get(g as usize).is_some_and(|x| x.tracks.is_empty()) && g as usize + 1 == self.t.groups.len() {
            self.t.groups.pop();
            return false;
        }
        true
    }
}

/// Phase ordinal for colour keys (stable across captures).
pub fn phase_ordinal(kind: &SchedKind) -> u32 {
    match kind {
        SchedKind::Complete => 0,
        SchedKind::Dispatch => 1,
        SchedKind::Release => 2,
        SchedKind::Dummy => 4,
        SchedKind::EarlyDispatch => 5,
        SchedKind::Resolve | SchedKind::ResolveStandalone => 6,
        SchedKind::DummyTask => 7,
        SchedKind::Drain => 8,
        SchedKind::DrainPrepare => 9,
        SchedKind::DrainPublish => 10,
        SchedKind::AsyncPoll => 11,
        SchedKind::PredicatedSkip => 12,
        SchedKind::GraphPrepare => 13,
        SchedKind::Idle => 14,
        SchedKind::Scan => 15,
        SchedKind::Poll => 16,
        SchedKind::Wire => 17,
        SchedKind::StateProbe => 18,
        SchedKind::Worksteal => 19,
        SchedKind::Refill => 20,
        SchedKind::Unknown(_) => 31,
    }
}

/// The displayed phase name (`resolve_standalone` shows as `resolve`).
pub fn phase_name(kind: &SchedKind) -> &str {
    match kind {
        SchedKind::ResolveStandalone => "resolve",
        k => k.name(),
    }
}

struct Ctx<'a> {
    m: &'a RuntimeModel,
    d: u32,
    /// func id → name index, for this dataset.
    func_names: IntMap<i64, u32>,
    spmd_rows: Vec<bool>,
}

impl Ctx<'_> {
    fn path_flags(&self, id: u64) -> u32 {
        let (s, o) = self.m.on_paths(id);
        (u32::from(s) * FLAG_STATIC_PATH) | (u32::from(o) * FLAG_OBSERVED_PATH)
    }
    fn func_name(&mut self, b: &mut Builder, fid: i64, key: u32) -> u32 {
        if let Some(&n) = self.func_names.get(&fid) {
            return n;
        }
        let name = self.m.function_name(fid);
        let n = b.intern(&name);
        if fid >= 0 {
            b.legend_name(key, &name);
        }
        self.func_names.insert(fid, n);
        n
    }
    fn row_bar(&mut self, b: &mut Builder, r: usize, scheduler: bool) -> Bar {
        let t = &self.m.tasks;
        let id = t.task_id.get(r).unwrap_or(0);
        let fid = self.m.func_ids.func_id(r);
        let color = color_key(id, fid);
        let name = self.func_name(b, fid, color);
        let spmd = self.spmd_rows.get(r).copied().unwrap_or(false);
        let flags = FLAG_TASK | (u32::from(spmd) * FLAG_SPMD) | self.path_flags(id);
        let (start, end, setup) = if scheduler {
            let d = t.dispatch_us(r).unwrap_or(0.0);
            (d, t.finish_us(r).unwrap_or(d), d)
        } else {
            let s = t.start_us(r).unwrap_or(0.0);
            (s, t.end_us(r).unwrap_or(s), bar_start_us(t, r))
        };
        Bar { start, end, setup, color, name, row: 0, flags, source: r as u32, task: id }
    }
}

/// Builds the timeline of `models` (one per dataset; `labels` are the dataset paths used as
/// group prefixes when there is more than one), render columns included.
pub fn build(models: &[(&str, &RuntimeModel)]) -> Timeline {
    let mut columns = RenderColumns::default();
    // One allocation per column: grown by doubling, the columns (~48 bytes a bar) would take
    // up to 3× their size while reallocating.
    columns.reserve_exact(bar_capacity(models));
    let mut t = build_into(models, &mut columns);
    t.columns = columns;
    t
}

/// At least the bars [`build`] draws from `models`.
pub fn bar_capacity(models: &[(&str, &RuntimeModel)]) -> usize {
    models.iter().map(|(_, m)| model_bar_capacity(m)).sum()
}

/// [`build`] with the datasets placed by `alignment` ([`crate::alignment::plan`]).
pub fn build_aligned(models: &[(&str, &RuntimeModel)], alignment: AlignmentPlan) -> Timeline {
    let mut columns = RenderColumns::default();
    columns.reserve_exact(bar_capacity(models));
    let mut builder = TimelineBuilder::new(&mut columns, models.len() > 1).aligned(alignment);
    for (label, m) in models {
        builder.add(label, m);
    }
    let mut t = builder.finish();
    t.columns = columns;
    t
}

/// [`build`] with the render columns written to `sink` piece by piece (left empty in the
/// returned timeline): the analysis worker copies them straight out of its memory, so a big
/// capture's render columns are never all in it at once.
pub fn build_into(models: &[(&str, &RuntimeModel)], sink: &mut dyn ColumnSink) -> Timeline {
    let mut builder = TimelineBuilder::new(sink, models.len() > 1);
    for (label, m) in models {
        builder.add(label, m);
    }
    builder.finish()
}

/// [`build_into`] one dataset at a time: [`TimelineBuilder::add`] each model in order (a
/// caller may load a model, add it and drop it before loading the next), then
/// [`TimelineBuilder::finish`].
pub struct TimelineBuilder<'s> {
    b: Builder<'s>,
    multi: bool,
    datasets: u32,
    sources: Vec<String>,
}

impl<'s> TimelineBuilder<'s> {
    /// A builder writing render columns to `sink`; `multi`: more than one dataset will be
    /// added (their groups and warnings are prefixed with the dataset labels).
    pub fn new(sink: &'s mut dyn ColumnSink, multi: bool) -> Self {
        let mut b = Builder {
            t: Timeline::default(),
            sink,
            scratch: RenderColumns::default(),
            offset_us: 0.0,
            first_us: f64::INFINITY,
            last_us: f64::NEG_INFINITY,
            name_ids: HashMap::default(),
            phase_names: IntMap::default(),
            legend: IntMap::default(),
        };
        b.t.track_offsets.push(0);
        b.t.track_sublanes.push(0);
        Self { b, multi, datasets: 0, sources: Vec::new() }
    }

    /// Places the datasets added next by `alignment` (dataset `k`'s bars shifted by its
    /// offset); without it none is shifted.
    #[must_use]
    pub fn aligned(mut self, alignment: AlignmentPlan) -> Self {
        self.b.t.alignment = alignment;
        self
    }

    /// Adds the tracks of the next dataset, `label` its path.
    pub fn add(&mut self, label: &str, m: &RuntimeModel) {
        let (b, multi) = (&mut self.b, self.multi);
        let d = self.datasets;
        self.datasets += 1;
        b.offset_us = b.t.alignment.offset_us(d);
        let prefix = if multi { format!("{label} · ") } else { String::new() };
        let mut cx = Ctx { m, d, func_names: IntMap::default(), spmd_rows: spmd_rows(m) };
        worker_view(b, &mut cx, &prefix);
        scheduler_view(b, &mut cx, &prefix);
        aicpu_scheduler(b, &cx, &prefix);
        orchestrator(b, &cx, &prefix);
        host_prepare(b, &cx, &prefix);
        b.t.has_static_path |= !m.static_path.is_empty();
        b.t.has_observed_path |= !m.observed_path.is_empty();
        if !m.path_source.is_empty() && !self.sources.contains(&m.path_source) {
            self.sources.push(m.path_source.clone());
        }
        for w in &m.warnings {
            b.t.warnings.push(if multi { Warning { message: format!("{label}: {}", w.message), ..w.clone() } } else { w.clone() });
        }
    }

    /// The timeline of the datasets added.
    pub fn finish(self) -> Timeline {
        let mut b = self.b;
        let datasets = self.datasets as usize;
        if b.t.alignment.placements.len() != datasets {
            // No plan (or one for other datasets): nothing was shifted that it does not say.
            let label = std::mem::take(&mut b.t.alignment.label);
            let mut placements = std::mem::take(&mut b.t.alignment.placements);
            placements.resize(datasets, crate::alignment::Placement::UNSHIFTED);
            b.t.alignment = AlignmentPlan { placements, label };
        }
        b.t.path_source = self.sources.join(", ");
        b.t.source.shrink_to_fit();
        b.t.name_index.shrink_to_fit();
        b.t.first_start_us = if b.first_us.is_finite() { b.first_us } else { 0.0 };
        b.t.last_end_us = if b.last_us.is_finite() { b.last_us } else { 0.0 };
        let names = &b.t.names;
        let mut legend: Vec<(u32, String, u64)> = b
            .legend
            .iter()
            .filter(|(_, (_, n))| *n > 0)
            .map(|(&k, &(name, n))| (k, names.get(name as usize).cloned().unwrap_or_default(), n))
            .collect();
        legend.sort_by_key(|e| e.0);
        b.t.legend = legend;
        b.t
    }
}

/// At least the bars [`build`] draws from `m` (every task twice, every marker, scheduler phase,
/// orchestrator record, upload and graph envelope).
fn model_bar_capacity(m: &RuntimeModel) -> usize {
    2 * m.tasks.len()
        + m.kinds.markers.len()
        + m.phases.iter().map(SchedPhasesUs::len).sum::<usize>()
        + m.orch.iter().map(|o| o.start_us.len()).sum::<usize>()
        + m.uploads.start_us.len()
        + m.kinds.graphs.len()
        + m.host_phases.len()
}

fn spmd_rows(m: &RuntimeModel) -> Vec<bool> {
    // The task ids decoded once: a binary search of the packed column per row was a large
    // share of the build.
    let ids = m.kinds.task_id.to_vec();
    m.tasks.task_id.iter().map(|id| ids.binary_search(&id).ok().and_then(|k| m.kinds.spmd.get(k)).unwrap_or(false)).collect()
}

fn absent(b: &mut Builder, view: View, d: u32, reason: String) {
    b.t.absent.push(Absent { view, dataset: d, reason });
}

fn worker_view(b: &mut Builder, cx: &mut Ctx<'_>, prefix: &str) {
    let m = cx.m;
    let t = &m.tasks;
    let g = b.group(prefix, View::Worker, cx.d);
    let cores: Vec<u32> = t.core_id.to_vec();
    let mut order: Vec<u32> = (0..t.len() as u32).collect();
    order.sort_by_key(|&i| cores.get(i as usize).copied().unwrap_or(0));
    let mut k = 0;
    while let Some(&first) = order.get(k) {
        let core = cores.get(first as usize).copied().unwrap_or(0);
        let ct = t.core_type(first as usize).unwrap_or_default();
        let mut bars = Vec::new();
        while let Some(&r) = order.get(k) {
            if cores.get(r as usize).copied().unwrap_or(0) != core {
                break;
            }
            bars.push(cx.row_bar(b, r as usize, false));
            k += 1;
        }
        let track = Track {
            label: format!("{}_{core}", ct.lane_prefix()),
            view: View::Worker,
            group: g,
            dataset: cx.d,
            rows: 1,
            core_type: Some(ct),
            kind: TrackKind::Core { core_id: core },
            resolve_row: None,
        };
        b.push_track(track, bars);
    }
    // AICPU lanes.
    let mk = &m.kinds.markers;
    let mut by_lane: Vec<u32> = (0..mk.len() as u32).collect();
    by_lane.sort_by_key(|&i| mk.lane.get(i as usize).copied().unwrap_or(0));
    let mut k = 0;
    while let Some(&first) = by_lane.get(k) {
        let lane = mk.lane.get(first as usize).copied().unwrap_or(0);
        let mut bars = Vec::new();
        while let Some(&i) = by_lane.get(k) {
            if mk.lane.get(i as usize).copied().unwrap_or(0) != lane {
                break;
            }
            k += 1;
            let i = i as usize;
            let id = mk.task_id.get(i).copied().unwrap_or(0);
            let start = mk.start_us.get(i).copied().unwrap_or(0.0);
            let end = mk.end_us.get(i).copied().unwrap_or(start);
            let (color, name, marker) = match mk.kind.get(i) {
                Some(TaskKind::Alloc) => {
                    b.legend_name(COLOR_ALLOC, "alloc");
                    (COLOR_ALLOC, b.intern("alloc"), false)
                }
                Some(TaskKind::PredicatedSkip) => {
                    let fid = first_kernel(m, id);
                    let color = color_key(id, fid);
                    (color, cx.func_name(b, fid, color), true)
                }
                _ => {
                    b.legend_name(COLOR_DUMMY, "dummy");
                    (COLOR_DUMMY, b.intern("dummy"), true)
                }
            };
            let spmd = m.kinds.index_of(id).and_then(|k| m.kinds.spmd.get(k)).unwrap_or(false);
            let flags = FLAG_TASK | (u32::from(marker) * FLAG_MARKER) | (u32::from(spmd) * FLAG_SPMD) | cx.path_flags(id);
            bars.push(Bar { start, end, setup: start, color, name, row: 0, flags, source: i as u32, task: id });
        }
        let track = Track::flat(format!("AICPU_{lane}"), View::Worker, g, cx.d, TrackKind::Aicpu { lane });
        b.push_track(track, bars);
    }
    if !b.close_group(g) {
        absent(b, View::Worker, cx.d, "the capture has no AICore task rows".to_owned());
    }
}

/// First active kernel slot of a deps.json task (-1 if none): the func id of a row-less task.
pub fn first_kernel(m: &RuntimeModel, task_id: u64) -> i64 {
    let Some(d) = &m.deps else { return -1 };
    m.kinds.index_of(task_id).and_then(|k| m.deps_task(k)).and_then(|i| d.first_kernel.get(i)).unwrap_or(-1)
}

fn scheduler_view(b: &mut Builder, cx: &mut Ctx<'_>, prefix: &str) {
    let t = &cx.m.tasks;
    let g = b.group(prefix, View::Scheduler, cx.d);
    // (core, dispatch, row) of the rows with AICPU timing, each decoded once, sorted stably
    // by core and dispatch.
    let mut order: Vec<(u32, f64, u32)> = (0..t.len() as u32)
        .filter(|&i| t.has_aicpu(i as usize))
        .map(|i| (t.core_id.get(i as usize).unwrap_or(0), t.dispatch_us(i as usize).unwrap_or(0.0), i))
        .collect();
    order.sort_by(|a, c| a.0.cmp(&c.0).then(a.1.total_cmp(&c.1)));
    let mut k = 0;
    while let Some(&(core, _, first)) = order.get(k) {
        let ct = t.core_type(first as usize).unwrap_or_default();
        let mut bars = Vec::new();
        let mut lane_finish: Vec<f64> = Vec::new();
        while let Some(&(c, _, r)) = order.get(k) {
            if c != core {
                break;
            }
            let mut bar = cx.row_bar(b, r as usize, true);
            let row = lane_finish.iter().position(|&f| f <= bar.start).unwrap_or(lane_finish.len());
            if row == lane_finish.len() {
                lane_finish.push(bar.end);
            } else if let Some(f) = lane_finish.get_mut(row) {
                *f = bar.end;
            }
            bar.row = row as u32;
            bars.push(bar);
            k += 1;
        }
        let track = Track {
            label: format!("{}_{core}", ct.lane_prefix()),
            view: View::Scheduler,
            group: g,
            dataset: cx.d,
            rows: lane_finish.len().max(1) as u32,
            core_type: Some(ct),
            kind: TrackKind::SchedCore { core_id: core },
            resolve_row: None,
        };
        b.push_track(track, bars);
    }
    if !b.close_group(g) {
        let reason = if cx.m.level < 2 {
            format!("level {} captures hold AICore timing only: no AICPU dispatch/finish (needs level ≥ 2)", cx.m.level)
        } else {
            "no task has AICPU dispatch/finish timing".to_owned()
        };
        absent(b, View::Scheduler, cx.d, reason);
    }
}

fn aicpu_scheduler(b: &mut Builder, cx: &Ctx<'_>, prefix: &str) {
    let g = b.group(prefix, View::AicpuScheduler, cx.d);
    for (thread, p) in cx.m.phases.iter().enumerate() {
        let has_sub = p.kind.iter().any(|k| matches!(k, SchedKind::DrainPrepare | SchedKind::DrainPublish));
        let resolve_row = 1 + u32::from(has_sub);
        // The row of phase `i` (`None`: not drawn on this lane).
        let row_of = |i: usize| match p.kind.get(i)? {
            SchedKind::DummyTask | SchedKind::PredicatedSkip | SchedKind::Idle | SchedKind::Scan | SchedKind::Unknown(_) => None,
            SchedKind::Resolve => Some(resolve_row),
            SchedKind::DrainPrepare | SchedKind::DrainPublish => Some(1),
            _ => Some(0),
        };
        // First pass: names and legend entries, whether a resolve row exists, and whether
        // the drawn phases come in start order (then the lane is streamed).
        let (mut has_resolve, mut sorted, mut last_start) = (false, true, f64::NEG_INFINITY);
        for i in 0..p.len() {
            let (Some(_), Some(kind)) = (row_of(i), p.kind.get(i)) else { continue };
            has_resolve |= matches!(kind, SchedKind::Resolve);
            let start = p.start_us.get(i).unwrap_or(0.0);
            sorted &= last_start.total_cmp(&start).is_le();
            last_start = start;
            let color = COLOR_PHASE_BASE + phase_ordinal(kind);
            b.legend_name(color, phase_name(kind));
            let n = p.tasks_processed.get(i).unwrap_or(0);
            if !b.phase_names.contains_key(&(color, n)) {
                let x = b.intern(&format!("{}({n})", phase_name(kind)));
                b.phase_names.insert((color, n), x);
            }
        }
        let rows = if has_resolve { resolve_row + 1 } else { 1 + u32::from(has_sub) };
        let track = Track {
            label: format!("Sched_{thread}"),
            view: View::AicpuScheduler,
            group: g,
            dataset: cx.d,
            rows,
            core_type: None,
            kind: TrackKind::SchedThread { thread: thread as u32 },
            resolve_row: has_resolve.then_some(resolve_row),
        };
        let owned_names = std::mem::take(&mut b.phase_names);
        let names = &owned_names;
        let bars = |want: u32| {
            (0..p.len()).filter_map(move |i| {
                let row = row_of(i).filter(|&r| r == want)?;
                let color = COLOR_PHASE_BASE + phase_ordinal(p.kind.get(i)?);
                let start = p.start_us.get(i).unwrap_or(0.0);
                let end = p.end_us.get(i).unwrap_or(start);
                let name = names.get(&(color, p.tasks_processed.get(i).unwrap_or(0))).copied().unwrap_or(0);
                let task = p.task_id.get(i).unwrap_or(NO_TASK_ID);
                Some(Bar { start, end, setup: start, color, name, row, flags: 0, source: i as u32, task })
            })
        };
        b.push_track_rows(track, sorted, bars);
        b.phase_names = owned_names;
    }
    if !b.close_group(g) {
        let reason = if cx.m.level < 3 {
            format!("level {} captures hold no scheduler phases (needs level ≥ 3)", cx.m.level)
        } else {
            "the capture holds no scheduler phase records".to_owned()
        };
        absent(b, View::AicpuScheduler, cx.d, reason);
    }
}

#[allow(clippy::too_many_lines)] // orchestrator lanes, uploads and graph envelopes in order
fn orchestrator(b: &mut Builder, cx: &Ctx<'_>, prefix: &str) {
    let m = cx.m;
    let g = b.group(prefix, View::Orchestrator, cx.d);
    let lane_prefix = if m.host_mode { "Host" } else { "Orch" };
    b.legend_name(COLOR_SUBMIT, "submit");
    let submit = b.intern("submit");
    for (lane, o) in m.orch.iter().enumerate() {
        let sorted = o.start_us.iter().is_sorted_by(|a, b| a.total_cmp(b).is_le());
        let bars = |_row: u32| {
            (0..o.start_us.len()).map(|i| {
                let start = o.start_us.get(i).unwrap_or(0.0);
                let task = o.task_id.get(i);
                Bar {
                    start,
                    end: o.end_us.get(i).unwrap_or(start),
                    setup: start,
                    color: COLOR_SUBMIT,
                    name: submit,
                    row: 0,
                    flags: task.map_or(0, |id| cx.path_flags(id)),
                    source: i as u32,
                    task: task.unwrap_or(NO_TASK_ID),
                }
            })
        };
        let track = Track::flat(format!("{lane_prefix}_{lane}"), View::Orchestrator, g, cx.d, TrackKind::Orch { lane: lane as u32 });
        b.push_track_rows(track, sorted, bars);
    }
    let up = &m.uploads;
    let mut bars = Vec::new();
    for i in 0..up.start_us.len() {
        let start = up.start_us.get(i).copied().unwrap_or(0.0);
        let name = up.name.get(i).map_or("upload", String::as_str);
        b.legend_name(COLOR_H2D, "H2D upload");
        let name = b.intern(name);
        bars.push(Bar {
            start,
            end: up.end_us.get(i).copied().unwrap_or(start),
            setup: start,
            color: COLOR_H2D,
            name,
            row: 0,
            flags: 0,
            source: i as u32,
            task: NO_TASK_ID,
        });
    }
    let track = Track::flat("H2D".to_owned(), View::Orchestrator, g, cx.d, TrackKind::Uploads);
    b.push_track(track, bars);
    let graphs = &m.kinds.graphs;
    let mut lanes: Vec<u32> = graphs.iter().map(|x| x.lane).collect();
    lanes.sort_unstable();
    lanes.dedup();
    for lane in lanes {
        let mut bars = Vec::new();
        for (i, x) in graphs.iter().enumerate().filter(|(_, x)| x.lane == lane) {
            b.legend_name(COLOR_GRAPH, "GraphExecution");
            let name = b.intern(&format!("GraphExecution({}, {} visible nodes)", TaskId(x.outer_task_id), x.visible_nodes));
            bars.push(Bar {
                start: x.prepare_start_us,
                end: x.execution_end_us,
                setup: x.prepare_start_us,
                color: COLOR_GRAPH,
                name,
                row: 0,
                flags: 0,
                source: i as u32,
                task: x.outer_task_id,
            });
        }
        let track = Track::flat(format!("Graph_{lane}"), View::Orchestrator, g, cx.d, TrackKind::Graph { lane });
        b.push_track(track, bars);
    }
    if !b.close_group(g) {
        let reason = if m.level < 4 {
            format!("level {} captures hold no orchestrator records (needs level 4)", m.level)
        } else {
            "the capture holds no orchestrator records".to_owned()
        };
        absent(b, View::Orchestrator, cx.d, reason);
    }
}

/// A stable colour ordinal per host prepare phase name (the phases `host_build_graph` writes
/// first, then a hash of the name).
pub fn host_phase_ordinal(phase: &str) -> u32 {
    const KNOWN: [&str; 14] = [
        "args",
        "arena_build",
        "static_arena",
        "gm_heap",
        "runtime_init",
        "host_orch",
        "submit_task",
        "graph_submit",
        "record_node",
        "build_definition",
        "graph_upload",
        "shared_mem",
        "arena_h2d",
        "host_view_close",
    ];
    match KNOWN.iter().position(|&k| k == phase) {
        Some(i) => i as u32,
        None => 16 + phase.bytes().fold(0u32, |h, c| h.wrapping_mul(31).wrapping_add(u32::from(c))) % 112,
    }
}

fn host_prepare(b: &mut Builder, cx: &Ctx<'_>, prefix: &str) {
    let m = cx.m;
    let h = &m.host_phases;
    if h.lanes.is_empty() {
        if m.host_mode {
            let reason = "no host_phase_records.jsonl beside the records (a host_build_graph run writes it)".to_owned();
            absent(b, View::HostPrepare, cx.d, reason);
        }
        return;
    }
    let g = b.group(prefix, View::HostPrepare, cx.d);
    let names: Vec<(u32, u32)> = h
        .phase_names
        .iter()
        .map(|name| {
            let color = COLOR_HOST_PHASE_BASE + host_phase_ordinal(name);
            b.legend_name(color, name);
            (color, b.intern(name))
        })
        .collect();
    for (lane, l) in h.lanes.iter().enumerate() {
        let bars = (l.first..l.end)
            .map(|r| {
                let r = r as usize;
                let (color, name) = h.phase.get(r).and_then(|&p| names.get(p as usize)).copied().unwrap_or((COLOR_HOST_PHASE_BASE, 0));
                let start = h.start_us.get(r).copied().unwrap_or(0.0);
                let end = h.end_us.get(r).copied().unwrap_or(start);
                let row = h.row.get(r).copied().unwrap_or(0);
                Bar { start, end, setup: start, color, name, row, flags: 0, source: r as u32, task: NO_TASK_ID }
            })
            .collect();
        let track = Track {
            label: h.lane_label(l),
            view: View::HostPrepare,
            group: g,
            dataset: cx.d,
            rows: l.rows.max(1),
            core_type: None,
            kind: TrackKind::HostPhase { lane: lane as u32 },
            resolve_row: None,
        };
        b.push_track(track, bars);
    }
    b.close_group(g);
}

impl Timeline {
    pub fn bar_count(&self) -> usize {
        self.source.len()
    }

    /// Global bar index of `(track, index)`.
    pub fn bar_index(&self, track: u32, index: u32) -> Option<usize> {
        let a = *self.track_offsets.get(track as usize)?;
        let b = *self.track_offsets.get(track as usize + 1)?;
        let i = a.checked_add(index)?;
        (i < b).then_some(i as usize)
    }

    /// Bars of a track as a global index range.
    pub fn track_range(&self, track: u32) -> std::ops::Range<usize> {
        match (self.track_offsets.get(track as usize), self.track_offsets.get(track as usize + 1)) {
            (Some(&a), Some(&b)) => a as usize..b as usize,
            _ => 0..0,
        }
    }

    /// The rows of a track as global bar ranges (each sorted by start), row 0 first.
    pub fn track_rows(&self, track: u32) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        let first = self.track_sublanes.get(track as usize).copied().unwrap_or(0) as usize;
        let end = self.track_sublanes.get(track as usize + 1).copied().unwrap_or(0) as usize;
        self.sublanes.get(first..end.max(first)).unwrap_or_default().iter().map(|r| r.start as usize..r.end as usize)
    }

    /// The source of a global bar (its row in the model's lane columns), through
    /// [`Timeline::source_alias`].
    pub fn source_of(&self, bar: usize) -> Option<u32> {
        if self.source_alias.is_empty() {
            return self.source.get(bar);
        }
        let track = self.track_of(bar)?;
        match self.source_alias.get(track as usize).copied().flatten() {
            Some(other) => {
                let index = bar - self.track_range(track).start;
                let own = self.track_range(other);
                (index < own.len()).then(|| self.source.get(own.start + index)).flatten()
            }
            None => self.source.get(bar),
        }
    }

    /// The distinct names of a track's bars with their bar counts, ascending by name index.
    pub fn names_of_track(&self, track: u32) -> Vec<(u32, u64)> {
        if let Some(kept) = self.name_counts.get(track as usize) {
            return kept.clone();
        }
        let mut counts: Vec<(u32, u64)> = Vec::new();
        for n in self.name_index.range(self.track_range(track)) {
            match counts.binary_search_by_key(&n, |x| x.0) {
                Ok(i) => {
                    if let Some(c) = counts.get_mut(i) {
                        c.1 += 1;
                    }
                }
                Err(i) => counts.insert(i, (n, 1)),
            }
        }
        counts
    }

    /// Drops what the analysis worker's copy never reads, once the render columns are out:
    /// the names of Scheduler View, AICPU Scheduler and Orchestrator bars (their details
    /// name them from the model), and the sources of Scheduler View lanes whose bars are
    /// their core's Worker View bars in the same order (an alias instead).
    pub fn compact_for_queries(&mut self) {
        let n = self.tracks.len();
        let mut alias: Vec<Option<u32>> = vec![None; n];
        for (k, tr) in self.tracks.iter().enumerate() {
            let TrackKind::SchedCore { core_id } = tr.kind else { continue };
            let Some(core) = self.tracks.iter().position(|x| x.dataset == tr.dataset && x.kind == TrackKind::Core { core_id }) else {
                continue;
            };
            let (mine, theirs) = (self.track_range(k as u32), self.track_range(core as u32));
            if mine.len() == theirs.len() && mine.clone().zip(theirs).all(|(a, b)| self.source.get(a) == self.source.get(b)) {
                alias[k] = Some(core as u32);
            }
        }
        let unread = |tr: &Track| matches!(tr.kind, TrackKind::SchedCore { .. } | TrackKind::SchedThread { .. } | TrackKind::Orch { .. });
        let mut source = PackedU32::new();
        let mut name_index = PackedU32::new();
        for (k, tr) in self.tracks.iter().enumerate() {
            for g in self.track_range(k as u32) {
                source.push(if alias[k].is_some() { 0 } else { self.source.get(g).unwrap_or(0) });
                name_index.push(if unread(tr) { NO_NAME } else { self.name_index.get(g).unwrap_or(NO_NAME) });
            }
        }
        source.shrink_to_fit();
        name_index.shrink_to_fit();
        (self.source, self.name_index) = (source, name_index);
        self.name_counts = (0..n as u32)
            .map(|k| if self.tracks.get(k as usize).is_some_and(|x| x.view == View::Worker) { self.names_of_track(k) } else { Vec::new() })
            .collect();
        self.source_alias = if alias.iter().any(Option::is_some) { alias } else { Vec::new() };
    }

    /// The shift of the datasets of `track` on this timeline's axis (0 when none).
    pub fn offset_us_of_track(&self, track: u32) -> f64 {
        self.tracks.get(track as usize).map_or(0.0, |x| self.alignment.offset_us(x.dataset))
    }

    /// Track of a global bar index.
    pub fn track_of(&self, bar: usize) -> Option<u32> {
        let k = self.track_offsets.partition_point(|&o| o as usize <= bar);
        (k >= 1 && k < self.track_offsets.len()).then(|| k as u32 - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records the pieces a sink is given.
    #[derive(Default)]
    struct Pieces {
        columns: RenderColumns,
        largest: usize,
        count: usize,
    }

    impl ColumnSink for Pieces {
        fn bars(&mut self, c: &RenderColumns) {
            self.largest = self.largest.max(c.start_us.len());
            self.count += 1;
            self.columns.bars(c);
        }
    }

    #[test]
    fn a_long_track_reaches_the_sink_in_pieces_in_drawing_order() {
        let n = SINK_CHUNK_BARS * 2 + 7;
        let mut m = RuntimeModel::default();
        let t = &mut m.tasks;
        for i in 0..n {
            let start_us = (n - i) as f64; // file order reversed: the track sorts by start
            t.push_us(i as u64, 0, CoreType::Aiv, [start_us, start_us + 0.5, 0.0, 0.0, start_us]);
        }
        let whole = build(&[("", &m)]);
        let mut pieces = Pieces::default();
        let streamed = build_into(&[("", &m)], &mut pieces);
        assert_eq!(whole.bar_count(), n);
        assert_eq!(pieces.columns, whole.columns);
        assert_eq!((streamed.source, streamed.track_offsets), (whole.source, whole.track_offsets));
        assert!(pieces.count >= 3 && pieces.largest <= SINK_CHUNK_BARS, "{} pieces, largest {}", pieces.count, pieces.largest);
        assert!(pieces.columns.start_us.windows(2).all(|w| w[0] <= w[1]));
    }
}
