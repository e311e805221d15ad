//! Task kinds of a capture (runtime-formats.md §1.9, §1.11): which task ids are regular
//! kernels, dummies, allocs, predicated skips, host-graph outer tasks or graph nodes; the
//! AICPU-lane markers the reference converter draws for the tasks that never ran on an
//! AICore; SPMD / MIX flags; Graph Execution envelopes; and the per-view anchor rows of
//! dependency arrows. For the Worker View, the dependency arrows ([`crate::hb_violation`])
//! and the CLI report.
//!
//! Classification of one task id (first rule that applies):
//! 1. `GraphOuter`: named by a `graph_prepare` record (ring 0).
//! 2. `GraphNode`: ring 1 with `(local >> 10)` equal to the local id of a graph outer task.
//! 3. `PredicatedSkip`: named by a `predicated_skip` record.
//! 4. `Dummy`: named by a `dummy_task` record, or listed in deps.json with all three
//!    `kernel_ids` < 0 (the reference warns when such a task has no `dummy_task` record:
//!    [`TaskKinds::dummy_without_record`]).
//! 5. `Regular`: has AICore rows, or is listed in deps.json `tasks` (some kernel id >= 0, or
//!    no valid `kernel_ids`: an old deps.json; the reference would call such a task without
//!    rows an alloc, we do not, since allocs are never in deps.json `tasks`).
//! 6. `Alloc`: everything else — an orchestrator submit id or a deps.json edge endpoint
//!    that is none of the above (`alloc_tensors()` calls appear as `creator` edge preds).
//!
//! Markers (pid 4 `AICPU_<lane>` slices of the reference): every `dummy_task` and
//! `predicated_skip` record on lane = its scheduler thread; every orchestrator submit record
//! of an `Alloc` id on lane = scheduler thread count + orchestrator thread index; drawn from
//! the record start for `max(end - start, 0.02)` µs. The scheduler thread count is
//! `max(core_to_thread ≥ 0 ∪ indices of non-empty phase lists) + 1`, else the number of
//! phase lists. Host-orchestrated captures use the non-empty host orchestrator threads.
//!
//! Anchors (§1.11): a task with AICore rows anchors on every row, except an SPMD task which
//! anchors on one row per resolved func id — Worker View: earliest bar start (receive, or
//! start), ties to the smaller core id, then the earlier row; Scheduler View: earliest
//! dispatch among rows with AICPU timing (rows without it sort last). A task without rows
//! anchors on its markers (Worker View only).

use crate::tasks::{self, FuncIdOf, JoinedTasks};
use crate::timebase::{Timebase, UsColumn};
use crate::worker_view::bar_start_us;
use pypto_formats::deps::Deps;
use pypto_formats::name_map::NameMap;
use pypto_formats::packed::{Code, Packed, PackedU32, PackedU64};
use pypto_formats::records::{ChipRecords, SchedKind};
use pypto_formats::{Warning, WarningKind};
use pypto_vocab::TaskId;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Width the reference gives zero-length AICPU markers (µs).
pub const MARKER_MIN_DUR_US: f64 = 0.02;

/// What a task id is (see the module doc for the rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum TaskKind {
    /// A kernel task (ran, or would run, on AICore).
    Regular,
    /// `submit_dummy_task()`: a dependency-only node, retired on the AICPU.
    Dummy,
    /// `alloc_tensors()`: only an orchestrator record and `creator` edges.
    Alloc,
    /// A kernel task whose dispatch predicate was false (retired inline, no AICore row).
    PredicatedSkip,
    /// A host-build-graph outer task (named by `graph_prepare`).
    GraphOuter,
    /// A node of a host graph (ring 1, `local = (outer_local << 10) | node`).
    GraphNode,
}

impl TaskKind {
    /// Every kind, in code order ([`KindCodes`]).
    pub const ALL: [TaskKind; 6] = [Self::Regular, Self::Dummy, Self::Alloc, Self::PredicatedSkip, Self::GraphOuter, Self::GraphNode];

    fn code(self) -> u32 {
        Self::ALL.iter().position(|&k| k == self).unwrap_or(0) as u32
    }

    /// Lower-case name (`regular`, `dummy`, `alloc`, `predicated_skip`, `graph_outer`,
    /// `graph_node`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Regular => "regular",
            Self::Dummy => "dummy",
            Self::Alloc => "alloc",
            Self::PredicatedSkip => "predicated_skip",
            Self::GraphOuter => "graph_outer",
            Self::GraphNode => "graph_node",
        }
    }
}

pub use pypto_formats::columns::{KindColumn, NarrowU32Column, OptIdColumn};

/// One scheduler thread's phase records in µs (file order).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SchedPhasesUs {
    pub kind: KindColumn,
    pub start_us: UsColumn,
    pub end_us: UsColumn,
    /// Loop iterations rise slowly along a thread: bit-packed, a few bits a record.
    pub loop_iter: PackedU32,
    pub tasks_processed: NarrowU32Column,
    pub pop_hit: NarrowU32Column,
    pub pop_miss: NarrowU32Column,
    pub task_id: OptIdColumn,
    /// Where the records are in the records file, when it was read slice by slice: every
    /// [`SCHED_OFFSET_STRIDE`]-th record's byte offset and the end of the last
    /// ([`pypto_formats::records::SchedThread::record_offsets`]). Lets [`SchedPhasesUs::detach`]
    /// drop the columns and a bar's details read its record back.
    pub file: Option<PhaseFile>,
}

/// Where a thread's records are in the records file (see [`SchedPhasesUs::file`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PhaseFile {
    pub offsets: PackedU64,
    pub end: u64,
    /// Set once the columns (all but the task ids) were dropped: the record count and the time
    /// base to read records back with.
    pub detached: Option<(usize, Box<Timebase>)>,
}

/// One phase record's fields, in µs.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseFields {
    pub kind: SchedKind,
    pub start_us: f64,
    pub end_us: f64,
    pub loop_iter: u32,
    pub tasks_processed: u32,
    pub pop_hit: u32,
    pub pop_miss: u32,
}

/// Where a phase record's fields are: here, or in the records file (`offset`, `len`, the
/// record's position among the records there).
#[derive(Debug, Clone, PartialEq)]
pub enum PhaseLookup {
    Here(PhaseFields),
    InFile { offset: u64, len: u32, position: usize },
}

impl SchedPhasesUs {
    pub fn len(&self) -> usize {
        match self.file.as_ref().and_then(|f| f.detached.as_ref()) {
            Some((n, _)) => *n,
            None => self.kind.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Whether the columns were dropped ([`SchedPhasesUs::detach`]).
    pub fn is_detached(&self) -> bool {
        self.file.as_ref().is_some_and(|f| f.detached.is_some())
    }
    /// Drops every column but the task ids when the records' places in the file are known (the
    /// analysis worker keeps the phases this way: a bar's details read its record back, and
    /// the timeline is built in a job from the file). No-op otherwise.
    pub fn detach(&mut self, tb: &Timebase) {
        if let Some(d) = self.detached_copy(tb) {
            *self = d;
        }
    }
    /// The phases as [`SchedPhasesUs::detach`] leaves them, `self` untouched; `None` when
    /// they cannot be detached (or already are).
    pub fn detached_copy(&self, tb: &Timebase) -> Option<Self> {
        let len = self.kind.len();
        let file = self.file.as_ref()?;
        if file.detached.is_some() || file.offsets.len() != len.div_ceil(SCHED_OFFSET_STRIDE) || file.end == 0 {
            return None;
        }
        let detached = Some((len, Box::new(Timebase { warnings: Vec::new(), ..tb.clone() })));
        Some(Self {
            task_id: self.task_id.clone(),
            file: Some(PhaseFile { offsets: file.offsets.clone(), end: file.end, detached }),
            ..Self::default()
        })
    }
    /// Record `i`'s fields, or where to read them.
    pub fn lookup(&self, i: usize) -> Option<PhaseLookup> {
        if i >= self.len() {
            return None;
        }
        if let Some(file) = self.file.as_ref().filter(|f| f.detached.is_some()) {
            let (offset, len, position) = pypto_formats::packed::strided_piece(|g| file.offsets.get(g), file.end, SCHED_OFFSET_STRIDE, i)?;
            return Some(PhaseLookup::InFile { offset, len, position });
        }
        Some(PhaseLookup::Here(PhaseFields {
            kind: self.kind.get(i)?.clone(),
            start_us: self.start_us.get(i).unwrap_or(0.0),
            end_us: self.end_us.get(i).unwrap_or(0.0),
            loop_iter: self.loop_iter.get(i).unwrap_or(0),
            tasks_processed: self.tasks_processed.get(i).unwrap_or(0),
            pop_hit: self.pop_hit.get(i).unwrap_or(0),
            pop_miss: self.pop_miss.get(i).unwrap_or(0),
        }))
    }
    /// The fields of the record at `position` of `bytes` (read from a [`PhaseLookup::InFile`]),
    /// in µs through the time base the columns had.
    pub fn read_back(&self, bytes: &[u8], position: usize) -> Option<PhaseFields> {
        let (_, tb) = self.file.as_ref()?.detached.as_ref()?;
        let r = pypto_formats::records::sched_records_at(bytes, position)?;
        Some(PhaseFields {
            kind: r.kind,
            start_us: tb.us(r.start_cycles),
            end_us: tb.us(r.end_cycles),
            loop_iter: r.loop_iter,
            tasks_processed: r.tasks_processed,
            pop_hit: r.pop_hit,
            pop_miss: r.pop_miss,
        })
    }
}

/// Records per entry of [`PhaseFile::offsets`].
pub use pypto_formats::records::SCHED_OFFSET_STRIDE;

/// Scheduler phase records of every thread list (empty capacity slots included), in µs.
pub fn sched_phases_us(records: &ChipRecords, tb: &Timebase) -> Vec<SchedPhasesUs> {
    match &records.v1_tasks {
        Some(v1) => v1.sched_threads.iter().map(v1_thread_phases_us).collect(),
        None => records.sched_threads.iter().map(|t| thread_phases_us(t, tb)).collect(),
    }
}

/// [`sched_phases_us`], taking the scheduler threads out of `records`: each thread's columns
/// move into its phases or are freed as soon as it is converted, so a big capture's raw and
/// converted phases never coexist whole.
pub fn take_sched_phases_us(records: &mut ChipRecords, tb: &Timebase) -> Vec<SchedPhasesUs> {
    match &mut records.v1_tasks {
        Some(v1) => std::mem::take(&mut v1.sched_threads).iter().map(v1_thread_phases_us).collect(),
        None => std::mem::take(&mut records.sched_threads).into_iter().map(|t| thread_phases_us_owned(t, tb)).collect(),
    }
}

fn v1_thread_phases_us(t: &pypto_formats::records::V1SchedThread) -> SchedPhasesUs {
    SchedPhasesUs {
        kind: t.kind.iter().collect(),
        start_us: t.start_us.clone().into(),
        end_us: t.end_us.clone().into(),
        loop_iter: paged(t.loop_iter.iter().copied()),
        tasks_processed: NarrowU32Column::from_slice(&t.tasks_processed),
        pop_hit: NarrowU32Column::zeros(t.kind.len()),
        pop_miss: NarrowU32Column::zeros(t.kind.len()),
        task_id: OptIdColumn::nones(t.kind.len()),
        file: None,
    }
}

/// A packed column of `values`.
fn paged(values: impl Iterator<Item = u32>) -> PackedU32 {
    values.collect()
}

/// One raw thread's phases, its columns copied (only those the phases keep).
fn thread_phases_us(t: &pypto_formats::records::SchedThread, tb: &Timebase) -> SchedPhasesUs {
    SchedPhasesUs {
        start_us: UsColumn::from_cycles(&t.start_cycles, tb),
        end_us: UsColumn::from_cycles(&t.end_cycles, tb),
        kind: t.kind.clone(),
        loop_iter: paged(t.loop_iter.iter()),
        tasks_processed: t.tasks_processed.clone(),
        pop_hit: t.pop_hit.clone(),
        pop_miss: t.pop_miss.clone(),
        task_id: t.task_id.clone(),
        file: phase_file(t),
    }
}

fn phase_file(t: &pypto_formats::records::SchedThread) -> Option<PhaseFile> {
    t.has_offsets().then(|| PhaseFile { offsets: t.record_offsets.iter().copied().collect(), end: t.records_end, detached: None })
}

/// [`thread_phases_us`], moving the columns the phases keep.
fn thread_phases_us_owned(t: pypto_formats::records::SchedThread, tb: &Timebase) -> SchedPhasesUs {
    let file = phase_file(&t);
    SchedPhasesUs {
        file,
        start_us: UsColumn::from_cycles(&t.start_cycles, tb),
        end_us: UsColumn::from_cycles(&t.end_cycles, tb),
        kind: t.kind,
        loop_iter: paged(t.loop_iter.iter()),
        tasks_processed: t.tasks_processed,
        pop_hit: t.pop_hit,
        pop_miss: t.pop_miss,
        task_id: t.task_id,
    }
}

/// Orchestrator submit records of one orchestrator lane, in µs.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OrchSubmitsUs {
    /// `None` when the file's id is negative (no task id; labelled by submit index).
    pub task_id: OptIdColumn,
    pub submit_idx: PackedU32,
    /// 4-byte cycle offsets on device lanes, µs on host and v1 lanes ([`UsColumn`]).
    pub start_us: UsColumn,
    pub end_us: UsColumn,
}

fn valid_id(raw: u64) -> Option<u64> {
    // A negative id in the file reads with the top bit set: the reference's `task_id < 0`.
    (raw >> 63 == 0).then_some(raw)
}

/// The orchestrator lanes the reference uses: host threads (non-empty only) in host mode
/// when present, else every AICPU orchestrator thread list; v1 files: `orch_submit`
/// (or, without any, `orch_fanin`) records.
pub fn orch_submits_us(records: &ChipRecords, tb: &Timebase) -> Vec<OrchSubmitsUs> {
    if let Some(v1) = &records.v1_tasks {
        return v1
            .orch_threads
            .iter()
            .map(|t| {
                let mut o = OrchSubmitsUs::default();
                let (mut start_us, mut end_us) = (Vec::new(), Vec::new());
                for i in 0..t.phase.len() {
                    let name = t.phase.get(i).and_then(|&p| t.phase_names.get(p as usize)).map_or("", String::as_str);
                    if name != "orch_submit" {
                        continue;
                    }
                    o.task_id.push(t.task_id.get(i).copied().and_then(valid_id));
                    o.submit_idx.push(t.submit_idx.get(i).copied().unwrap_or(0));
                    start_us.push(t.start_us.get(i).copied().unwrap_or(0.0));
                    end_us.push(t.end_us.get(i).copied().unwrap_or(0.0));
                }
                o.start_us = start_us.into();
                o.end_us = end_us.into();
                o
            })
            .collect();
    }
    let host: Vec<OrchSubmitsUs> = records
        .host_orch_threads
        .iter()
        .filter(|t| !t.submit_idx.is_empty())
        .map(|t| OrchSubmitsUs {
            task_id: t.task_id.iter().map(|&x| valid_id(x)).collect(),
            submit_idx: PackedU32::from(t.submit_idx.as_slice()),
            start_us: t.start_host_ns.iter().map(|&n| tb.host_us(n)).collect::<Vec<f64>>().into(),
            end_us: t.end_host_ns.iter().map(|&n| tb.host_us(n)).collect::<Vec<f64>>().into(),
        })
        .collect();
    if records.is_host_mode() && !host.is_empty() {
        return host;
    }
    records
        .orch_threads
        .iter()
        .map(|t| OrchSubmitsUs {
            task_id: t.task_id.iter().map(|&x| valid_id(x)).collect(),
            submit_idx: PackedU32::from(t.submit_idx.as_slice()),
            start_us: UsColumn::from_cycles(&t.start_cycles, tb),
            end_us: UsColumn::from_cycles(&t.end_cycles, tb),
        })
        .collect()
}

/// AICPU-lane markers (Worker View `AICPU_<lane>` slices), emission order of the reference:
/// scheduler records (thread by thread, file order), then alloc records.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AicpuMarkers {
    pub task_id: Vec<u64>,
    /// `Dummy`, `PredicatedSkip` or `Alloc`.
    pub kind: Vec<TaskKind>,
    /// AICPU lane index (trace tid `19000 + lane`).
    pub lane: Vec<u32>,
    pub start_us: Vec<f64>,
    /// `start + max(record duration, 0.02)`.
    pub end_us: Vec<f64>,
    /// The record's own end (start for dummy/predicated records on device).
    pub record_end_us: Vec<f64>,
}

impl AicpuMarkers {
    pub fn len(&self) -> usize {
        self.task_id.len()
    }
    pub fn is_empty(&self) -> bool {
        self.task_id.is_empty()
    }
    fn push(&mut self, id: u64, kind: TaskKind, lane: u32, start: f64, end: f64) {
        self.task_id.push(id);
        self.kind.push(kind);
        self.lane.push(lane);
        self.start_us.push(start);
        self.end_us.push(start + (end - start).max(MARKER_MIN_DUR_US));
        self.record_end_us.push(end);
    }
}

/// One Graph Execution envelope (reference pid 5).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GraphExecution {
    /// The outer ring-0 task.
    pub outer_task_id: u64,
    /// Distinct node indices seen (AICore rows and dummy records).
    pub visible_nodes: u32,
    pub node_rows: u32,
    /// Earliest node dispatch (or bar start), or dummy record start.
    pub execution_start_us: f64,
    /// Latest node finish (or end), or dummy record end.
    pub execution_end_us: f64,
    pub prepare_start_us: f64,
    pub prepare_end_us: f64,
    pub prepare_duration_us: f64,
    pub prepare_slices: u32,
    /// Greedy lane (trace tid `5000 + lane`).
    pub lane: u32,
}

/// An anchor of a dependency arrow: a joined AICore row or an AICPU marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum AnchorRef {
    /// Index into the [`JoinedTasks`] columns.
    Row(u32),
    /// Index into [`AicpuMarkers`].
    Marker(u32),
}

/// A task kind per task, bit-packed (a few bits a task).
pub type KindCodes = Packed<TaskKind>;

/// A flag per task, bit-packed (runs of equal flags take no bits).
pub type Flags = Packed<bool>;

/// A kind's code is its position in [`TaskKind::ALL`] (an unknown code reads as `Regular`).
impl Code for TaskKind {
    fn encode(self) -> u64 {
        u64::from(self.code())
    }
    fn decode(code: u64) -> Self {
        usize::try_from(code).ok().and_then(|c| TaskKind::ALL.get(c).copied()).unwrap_or(TaskKind::Regular)
    }
}

/// Task kinds of one capture (columns, one entry per task id, ascending).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TaskKinds {
    /// Ascending (bit-packed: a few bits a task; [`TaskKinds::index_of`] searches it).
    pub task_id: PackedU64,
    pub kind: KindCodes,
    /// SPMD (§1.11: deps `block_num > 1`, else several same-type rows).
    pub spmd: Flags,
    /// MIX: rows of more than one core type, or more than one active kernel slot.
    pub mix: Flags,
    /// Rows of task `k` are `row_index[row_offsets[k]..row_offsets[k + 1]]` (joined order);
    /// `row_index` is empty when it would be `0, 1, 2, …` (the joined rows are sorted by task
    /// id, as the join leaves them in a single-epoch capture): then the rows are the range
    /// itself ([`TaskKinds::rows_of`]).
    pub row_offsets: PackedU32,
    pub row_index: PackedU32,
    /// Markers of task `k` are `marker_index[marker_offsets[k]..marker_offsets[k + 1]]`.
    pub marker_offsets: PackedU32,
    pub marker_index: PackedU32,
    pub markers: AicpuMarkers,
    pub graphs: Vec<GraphExecution>,
    /// Scheduler threads as the reference counts them (first orchestrator AICPU lane).
    pub scheduler_thread_count: u32,
    /// AICPU lanes drawn (scheduler threads + orchestrator lanes).
    pub aicpu_lane_count: u32,
    /// deps.json dummies without a `dummy_task` record (the reference warns and draws none).
    pub dummy_without_record: Vec<u64>,
    pub warnings: Vec<Warning>,
}

fn is_ring1(id: u64) -> bool {
    (id >> 32) & 0xFFFF_FFFF == 1
}

/// Decodes a ring-1 graph node id into `(outer local id, node index)`.
pub fn decode_graph_node(id: u64) -> Option<(u64, u64)> {
    is_ring1(id).then(|| {
        let local = id & 0xFFFF_FFFF;
        (local >> 10, local & 0x3FF)
    })
}

/// The scheduler thread count of the reference (see the module doc).
pub fn scheduler_thread_count(records: &ChipRecords, phases: &[SchedPhasesUs]) -> u32 {
    let mut max: Option<u32> = None;
    for &t in &records.metadata.core_to_thread {
        if let Ok(t) = u32::try_from(t) {
            max = Some(max.map_or(t, |m| m.max(t)));
        }
    }
    for (i, p) in phases.iter().enumerate() {
        if !p.is_empty() {
            let i = i as u32;
            max = Some(max.map_or(i, |m| m.max(i)));
        }
    }
    max.map_or(phases.len() as u32, |m| m + 1)
}

impl TaskKinds {
    /// Index of `task_id` in the columns.
    pub fn index_of(&self, task_id: u64) -> Option<usize> {
        self.task_id.binary_search(task_id).ok()
    }

    /// Task id of kinds task `k`.
    pub fn id_at(&self, k: usize) -> Option<u64> {
        self.task_id.get(k)
    }

    /// Kind of a task id (None when the capture never mentions it).
    pub fn kind_of(&self, task_id: u64) -> Option<TaskKind> {
        self.index_of(task_id).and_then(|k| self.kind.get(k))
    }

    /// Joined rows of a task id.
    pub fn rows_of(&self, task_id: u64) -> RowsOf<'_> {
        let Some(k) = self.index_of(task_id) else { return RowsOf::InOrder(0..0) };
        let range = span_of(&self.row_offsets, k);
        if self.row_index.is_empty() {
            return RowsOf::InOrder(range.start as u32..range.end as u32);
        }
        RowsOf::Listed(&self.row_index, range)
    }

    /// Markers of a task id.
    pub fn markers_of(&self, task_id: u64) -> impl ExactSizeIterator<Item = u32> + '_ {
        let range = self.index_of(task_id).map_or(0..0, |k| span_of(&self.marker_offsets, k));
        self.marker_index.range(range)
    }

    /// Count of task ids of a kind.
    pub fn count(&self, kind: TaskKind) -> usize {
        self.kind.iter().filter(|&k| k == kind).count()
    }

    /// Task ids of a kind, ascending.
    pub fn ids_of_kind(&self, kind: TaskKind) -> Vec<u64> {
        self.task_id.iter().zip(self.kind.iter()).filter(|&(_, k)| k == kind).map(|(id, _)| id).collect()
    }

    fn is_spmd(&self, task_id: u64) -> bool {
        self.index_of(task_id).and_then(|k| self.spmd.get(k)).unwrap_or(false)
    }

    /// Worker View anchors of a task (see the module doc). `func_ids` per joined row.
    pub fn worker_anchors(&self, tasks: &JoinedTasks, func_ids: &(impl FuncIdOf + ?Sized), task_id: u64) -> Vec<AnchorRef> {
        let rows = self.rows_of(task_id);
        if rows.len() == 0 {
            return self.markers_of(task_id).map(AnchorRef::Marker).collect();
        }
        let key = |r: u32| (bar_start_us(tasks, r as usize), tasks.core_id.get(r as usize).unwrap_or(0));
        self.pick_anchors(rows, func_ids, task_id, |a, b| {
            let (sa, ca) = key(a);
            let (sb, cb) = key(b);
            sa < sb || (sa.total_cmp(&sb).is_eq() && ca < cb)
        })
        .into_iter()
        .map(AnchorRef::Row)
        .collect()
    }

    /// Scheduler View anchors of a task: joined rows only (may include rows without AICPU
    /// timing for non-SPMD tasks; the arrow code skips those).
    pub fn scheduler_anchors(&self, tasks: &JoinedTasks, func_ids: &(impl FuncIdOf + ?Sized), task_id: u64) -> Vec<u32> {
        let rows = self.rows_of(task_id);
        let key = |r: u32| {
            let i = r as usize;
            let d = tasks.dispatch_us(i).unwrap_or(-1.0);
            let s = if tasks.has_aicpu(i) { d } else { f64::INFINITY };
            (s, tasks.core_id.get(i).unwrap_or(0))
        };
        self.pick_anchors(rows, func_ids, task_id, |a, b| {
            let (sa, ca) = key(a);
            let (sb, cb) = key(b);
            sa < sb || (sa.total_cmp(&sb).is_eq() && ca < cb)
        })
    }

    fn pick_anchors(
        &self,
        rows: RowsOf<'_>,
        func_ids: &(impl FuncIdOf + ?Sized),
        task_id: u64,
        better: impl Fn(u32, u32) -> bool,
    ) -> Vec<u32> {
        if !self.is_spmd(task_id) {
            return rows.collect();
        }
        // Insertion-ordered groups by func id, like the reference's dict.
        let mut groups: Vec<(i64, u32)> = Vec::new();
        for r in rows {
            let f = func_ids.func_id(r as usize);
            match groups.iter_mut().find(|(g, _)| *g == f) {
                Some(slot) => {
                    if better(r, slot.1) {
                        slot.1 = r;
                    }
                }
                None => groups.push((f, r)),
            }
        }
        groups.into_iter().map(|(_, r)| r).collect()
    }

    /// Worker View slice of an anchor: `(start_us, end_us)` (bar start = receive or start).
    pub fn anchor_span_us(&self, tasks: &JoinedTasks, a: AnchorRef) -> (f64, f64) {
        match a {
            AnchorRef::Row(r) => {
                let i = r as usize;
                let s = bar_start_us(tasks, i);
                (s, tasks.end_us(i).unwrap_or(s))
            }
            AnchorRef::Marker(m) => {
                let i = m as usize;
                let s = self.markers.start_us.get(i).copied().unwrap_or(0.0);
                (s, self.markers.end_us.get(i).copied().unwrap_or(s))
            }
        }
    }

    /// The label the reference gives a marker: `dummy(rXtY)`, `alloc(rXtY)`, or the task's
    /// normal label for a predicated skip (func id = first active kernel slot).
    pub fn marker_label(&self, m: usize, deps: Option<&Deps>, names: Option<&NameMap>) -> String {
        let id = self.markers.task_id.get(m).copied().unwrap_or(0);
        match self.markers.kind.get(m) {
            Some(TaskKind::Alloc) => format!("alloc({})", TaskId(id)),
            Some(TaskKind::PredicatedSkip) => {
                let fid = first_active_kernel(deps, id);
                tasks::task_label(id, fid, names.and_then(|n| n.name(fid)), self.is_spmd(id))
            }
            _ => format!("dummy({})", TaskId(id)),
        }
    }
}

/// Entries `offsets[k]..offsets[k + 1]` of a CSR list (empty when out of bounds).
fn span_of(offsets: &PackedU32, k: usize) -> std::ops::Range<usize> {
    match (offsets.get(k), offsets.get(k + 1)) {
        (Some(a), Some(b)) if a <= b => a as usize..b as usize,
        _ => 0..0,
    }
}

/// First kernel id >= 0 of a deps task (-1 if none): the func id of a row-less task.
pub fn first_active_kernel(deps: Option<&Deps>, task_id: u64) -> i64 {
    let Some(d) = deps else { return -1 };
    d.tasks
        .task_id
        .iter()
        .position(|&t| t == task_id)
        .filter(|&i| d.tasks.has_kernel_ids.get(i).copied().unwrap_or(false))
        .and_then(|i| d.tasks.kernel_ids.get(i))
        .and_then(|k| k.iter().copied().find(|&x| x >= 0))
        .unwrap_or(-1)
}

/// What classification gathers per task id, one byte of flags each (a `BTreeMap` of
/// per-id structs cost ~100 bytes a task on a million-task capture, at the model build's
/// peak).
mod seen {
    pub const IN_DEPS: u8 = 1;
    /// deps.json has valid kernel ids for the task; [`DEPS_DUMMY`] then says whether all are < 0.
    pub const DEPS_KERNELS: u8 = 2;
    pub const DEPS_DUMMY: u8 = 4;
    pub const DUMMY_RECORD: u8 = 8;
    pub const PREDICATED_RECORD: u8 = 16;
    pub const GRAPH_PREPARE: u8 = 32;
}

/// The joined rows of one task ([`TaskKinds::rows_of`]), in joined order, without copying
/// them: a range when the rows are in task order, else a slice of the row index.
#[derive(Debug, Clone)]
pub enum RowsOf<'a> {
    InOrder(std::ops::Range<u32>),
    /// Entries `range` of the row index.
    Listed(&'a PackedU32, std::ops::Range<usize>),
}

impl Iterator for RowsOf<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        match self {
            Self::InOrder(r) => r.next(),
            Self::Listed(index, r) => r.next().and_then(|j| index.get(j)),
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Self::InOrder(r) => r.size_hint(),
            Self::Listed(_, r) => r.size_hint(),
        }
    }
}

impl ExactSizeIterator for RowsOf<'_> {}

/// The sorted distinct task ids and a lookup into them.
struct IdIndex(Vec<u64>);

impl IdIndex {
    fn get(&self, id: u64) -> Option<usize> {
        self.0.binary_search(&id).ok()
    }
}

/// Lists per id in CSR form, each list in push order: `(id index, value)` pairs sorted stably
/// by id index (a counting sort). Also the model's adjacency ([`crate::runtime_model`]).
pub(crate) fn csr_by_id(n: usize, pairs: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    csr_of(n, pairs.iter().copied())
}

/// [`csr_by_id`] over `(key, value)` pairs given by an iterator (walked twice).
pub(crate) fn csr_of(n: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) -> (Vec<u32>, Vec<u32>) {
    let mut offsets = vec![0u32; n + 1];
    let mut len = 0usize;
    for (k, _) in pairs.clone() {
        if let Some(c) = offsets.get_mut(k as usize + 1) {
            *c += 1;
        }
        len += 1;
    }
    for k in 0..n {
        let prev = offsets.get(k).copied().unwrap_or(0);
        if let Some(c) = offsets.get_mut(k + 1) {
            *c += prev;
        }
    }
    let mut fill = offsets.clone();
    let mut values = vec![0u32; len];
    for (k, v) in pairs {
        if let Some(at) = fill.get_mut(k as usize) {
            if let Some(slot) = values.get_mut(*at as usize) {
                *slot = v;
            }
            *at += 1;
        }
    }
    (offsets, values)
}

/// Classifies every task id of a capture (`tasks` = [`crate::tasks::join`] of `records`).
pub fn classify(records: &ChipRecords, tasks: &JoinedTasks, deps: Option<&Deps>) -> TaskKinds {
    let tb = tasks.timebase.clone().unwrap_or_else(|| Timebase::from_records(records));
    let phases = sched_phases_us(records, &tb);
    let orch = orch_submits_us(records, &tb);
    classify_with(records, tasks, deps, &phases, &orch)
}

/// deps.json edges naming tasks that neither its task list, the records' rows, the
/// orchestrator's submits nor the scheduler's records hold (`ends` sorted, unique).
fn edge_ends_warning(ends: &[u64], listed_tasks: usize) -> Warning {
    const NAMED: usize = 5;
    let shown: Vec<String> = ends.iter().take(NAMED).map(|&id| TaskId(id).to_string()).collect();
    let more_tasks = ends.len().saturating_sub(NAMED);
    let more = if more_tasks > 0 { format!(", and {more_tasks} more") } else { String::new() };
    let list = shown.join(", ");
    Warning::new(
        WarningKind::DepsEdgeToUnlistedTask,
        "",
        format!(
            "deps.json edges name {} task(s) that neither its task list ({listed_tasks} tasks) nor the records hold: {list}{more}",
            ends.len(),
        ),
    )
    .count("count", ends.len())
    .count("listed", listed_tasks)
    .text("tasks", list)
    .count("more", more_tasks)
}

/// [`classify`] with the scheduler phases and orchestrator submits already converted
/// ([`sched_phases_us`], [`orch_submits_us`]; the records' own may have been taken).
#[allow(clippy::too_many_lines)] // one pass per source, in the reference's order
pub fn classify_with(
    records: &ChipRecords,
    tasks: &JoinedTasks,
    deps: Option<&Deps>,
    phases: &[SchedPhasesUs],
    orch: &[OrchSubmitsUs],
) -> TaskKinds {
    let sched_count = scheduler_thread_count(records, phases);
    // Every task id the capture names: rows, deps.json tasks and edge ends, orchestrator
    // submits, and the scheduler records that carry one.
    let phase_ids = || {
        phases.iter().flat_map(|p| {
            (0..p.len()).filter_map(|r| {
                let id = p.task_id.get(r)?;
                match p.kind.get(r)? {
                    SchedKind::DummyTask | SchedKind::PredicatedSkip => Some(id),
                    SchedKind::GraphPrepare if id >> 32 == 0 => Some(id),
                    _ => None,
                }
            })
        })
    };
    let mut ids: Vec<u64> = tasks.task_id.to_vec();
    let mut unlisted_edge_ends = None;
    if let Some(d) = deps {
        ids.extend_from_slice(&d.tasks.task_id);
    }
    ids.extend(orch.iter().flat_map(|t| t.task_id.iter().flatten()));
    ids.extend(phase_ids());
    ids.sort_unstable();
    ids.dedup();
    if let Some(d) = deps {
        // Edge ends are nearly always tasks already listed: look them up before adding.
        let mut extra: Vec<u64> = d.edges.pred.iter().chain(&d.edges.succ).copied().filter(|id| ids.binary_search(id).is_err()).collect();
        if !extra.is_empty() {
            extra.sort_unstable();
            extra.dedup();
            unlisted_edge_ends = Some(edge_ends_warning(&extra, d.tasks.task_id.len()));
            ids.append(&mut extra);
            ids.sort_unstable();
            ids.dedup();
        }
    }
    ids.shrink_to_fit();
    let index = IdIndex(ids);
    let n = index.0.len();
    let mut flags = vec![0u8; n];
    let mut active_slots = vec![0u8; n];
    let row_pairs: Vec<(u32, u32)> =
        tasks.task_id.iter().enumerate().filter_map(|(i, id)| Some((index.get(id)? as u32, i as u32))).collect();
    let (row_offsets, row_index) = csr_by_id(n, &row_pairs);
    drop(row_pairs);
    if let Some(d) = deps {
        for i in 0..d.tasks.len() {
            let Some(k) = d.tasks.task_id.get(i).and_then(|&id| index.get(id)) else {
                continue;
            };
            let (Some(f), Some(slots)) = (flags.get_mut(k), active_slots.get_mut(k)) else { continue };
            *f |= seen::IN_DEPS;
            if d.tasks.has_kernel_ids.get(i).copied().unwrap_or(false) {
                let kernels = d.tasks.kernel_ids.get(i).copied().unwrap_or([-1; 3]);
                *f &= !seen::DEPS_DUMMY;
                *f |= seen::DEPS_KERNELS;
                if kernels.iter().all(|&x| x < 0) {
                    *f |= seen::DEPS_DUMMY;
                }
                *slots = kernels.iter().filter(|&&x| x >= 0).count() as u8;
            }
        }
    }
    let mut markers = AicpuMarkers::default();
    // `(id index, marker)` in marker order.
    let mut marker_pairs: Vec<(u32, u32)> = Vec::new();
    let mut graph_outer_locals: HashSet<u64> = HashSet::default();
    for (thread, p) in phases.iter().enumerate() {
        for r in 0..p.len() {
            let Some(id) = p.task_id.get(r) else {
                continue;
            };
            let start = p.start_us.get(r).unwrap_or(0.0);
            let end = p.end_us.get(r).unwrap_or(start);
            let (kind, flag) = match p.kind.get(r) {
                Some(SchedKind::DummyTask) => (TaskKind::Dummy, seen::DUMMY_RECORD),
                Some(SchedKind::PredicatedSkip) => (TaskKind::PredicatedSkip, seen::PREDICATED_RECORD),
                Some(SchedKind::GraphPrepare) if id >> 32 == 0 => {
                    if let Some(f) = index.get(id).and_then(|k| flags.get_mut(k)) {
                        *f |= seen::GRAPH_PREPARE;
                    }
                    graph_outer_locals.insert(id & 0xFFFF_FFFF);
                    continue;
                }
                _ => continue,
            };
            let Some(k) = index.get(id) else { continue };
            if let Some(f) = flags.get_mut(k) {
                *f |= flag;
            }
            marker_pairs.push((k as u32, markers.len() as u32));
            markers.push(id, kind, thread as u32, start, end);
        }
    }

    let kind_of = |id: u64, k: usize| -> TaskKind {
        let f = flags.get(k).copied().unwrap_or(0);
        let has_rows = row_offsets.get(k) != row_offsets.get(k + 1);
        if f & seen::GRAPH_PREPARE != 0 {
            TaskKind::GraphOuter
        } else if decode_graph_node(id).is_some_and(|(o, _)| graph_outer_locals.contains(&o)) {
            TaskKind::GraphNode
        } else if f & seen::PREDICATED_RECORD != 0 {
            TaskKind::PredicatedSkip
        } else if f & seen::DUMMY_RECORD != 0 || f & (seen::DEPS_KERNELS | seen::DEPS_DUMMY) == seen::DEPS_KERNELS | seen::DEPS_DUMMY {
            TaskKind::Dummy
        } else if has_rows || f & seen::IN_DEPS != 0 {
            TaskKind::Regular
        } else {
            TaskKind::Alloc
        }
    };

    // Alloc markers, in orchestrator record order.
    for (oi, t) in orch.iter().enumerate() {
        let lane = sched_count + oi as u32;
        for r in 0..t.task_id.len() {
            let Some(id) = t.task_id.get(r) else {
                continue;
            };
            let Some(k) = index.get(id) else { continue };
            if kind_of(id, k) != TaskKind::Alloc {
                continue;
            }
            let start = t.start_us.get(r).unwrap_or(0.0);
            let end = t.end_us.get(r).unwrap_or(start);
            marker_pairs.push((k as u32, markers.len() as u32));
            markers.push(id, TaskKind::Alloc, lane, start, end);
        }
    }
    let (marker_offsets, marker_index) = csr_by_id(n, &marker_pairs);
    drop(marker_pairs);

    let spmd_ids = tasks::spmd_task_ids(tasks, deps);
    let mut out =
        TaskKinds { scheduler_thread_count: sched_count, aicpu_lane_count: sched_count + orch.len() as u32, ..TaskKinds::default() };
    for (k, &id) in index.0.iter().enumerate() {
        let kind = kind_of(id, k);
        out.kind.push(kind);
        out.spmd.push(spmd_ids.contains(&id));
        let (a, b) = (row_offsets.get(k).copied().unwrap_or(0) as usize, row_offsets.get(k + 1).copied().unwrap_or(0) as usize);
        let rows = row_index.get(a..b).unwrap_or(&[]);
        let mut types = rows.iter().filter_map(|&r| tasks.core_type(r as usize));
        let first = types.next();
        let mixed_rows = first.is_some_and(|f| types.any(|t| t != f));
        out.mix.push(mixed_rows || active_slots.get(k).copied().unwrap_or(0) > 1);
        let f = flags.get(k).copied().unwrap_or(0);
        let deps_dummy = f & (seen::DEPS_KERNELS | seen::DEPS_DUMMY) == seen::DEPS_KERNELS | seen::DEPS_DUMMY;
        if kind == TaskKind::Dummy && deps_dummy && f & seen::DUMMY_RECORD == 0 {
            out.dummy_without_record.push(id);
        }
    }
    out.task_id = index.0.iter().copied().collect();
    drop(index);
    out.row_offsets = PackedU32::from(row_offsets.as_slice());
    // Rows already in task order need no index.
    let in_order = row_index.iter().enumerate().all(|(i, &r)| r as usize == i);
    out.row_index = if in_order { PackedU32::default() } else { PackedU32::from(row_index.as_slice()) };
    out.marker_offsets = PackedU32::from(marker_offsets.as_slice());
    out.marker_index = PackedU32::from(marker_index.as_slice());
    out.warnings.extend(unlisted_edge_ends);
    if !out.dummy_without_record.is_empty() && records.level >= 3 {
        let list = out.dummy_without_record.iter().take(8).map(|&id| TaskId(id).to_string()).collect::<Vec<_>>().join(", ");
        out.warnings.push(
            Warning::analysis(
                WarningKind::DummyTaskWithoutRecord,
                format!(
                    "{} dummy task(s) in deps.json without a dummy_task scheduler record (not drawn): {list}",
                    out.dummy_without_record.len(),
                ),
            )
            .count("count", out.dummy_without_record.len())
            .text("tasks", list),
        );
    }
    out.markers = markers;
    out.graphs = graph_executions(tasks, phases);
    out
}

/// Graph Execution envelopes (§1.9), lanes assigned greedily by prepare start.
pub fn graph_executions(tasks: &JoinedTasks, phases: &[SchedPhasesUs]) -> Vec<GraphExecution> {
    // outer id -> (prepare start min, end max, duration sum, slices), insertion ordered.
    let mut prepares: Vec<(u64, f64, f64, f64, u32)> = Vec::new();
    let mut dummies: HashMap<u64, Vec<(f64, f64, u64)>> = HashMap::default();
    for p in phases {
        for r in 0..p.len() {
            let Some(id) = p.task_id.get(r) else {
                continue;
            };
            let s = p.start_us.get(r).unwrap_or(0.0);
            let e = p.end_us.get(r).unwrap_or(s);
            match p.kind.get(r) {
                Some(SchedKind::GraphPrepare) if id >> 32 == 0 => {
                    if let Some(g) = prepares.iter_mut().find(|g| g.0 == id) {
                        g.1 = g.1.min(s);
                        g.2 = g.2.max(e);
                        g.3 += e - s;
                        g.4 += 1;
                    } else {
                        prepares.push((id, s, e, e - s, 1));
                    }
                }
                Some(SchedKind::DummyTask) => {
                    if let Some((outer, node)) = decode_graph_node(id) {
                        dummies.entry(outer).or_default().push((s, e, node));
                    }
                }
                _ => {}
            }
        }
    }
    if prepares.is_empty() {
        return Vec::new();
    }
    let mut rows: HashMap<u64, Vec<(usize, u64)>> = HashMap::default();
    for (i, id) in tasks.task_id.iter().enumerate() {
        if let Some((outer, node)) = decode_graph_node(id) {
            rows.entry(outer).or_default().push((i, node));
        }
    }
    let mut out: Vec<GraphExecution> = Vec::new();
    for (outer, ps, pe, pd, n) in prepares {
        let r = rows.get(&outer).map_or(&[][..], Vec::as_slice);
        let d = dummies.get(&outer).map_or(&[][..], Vec::as_slice);
        if r.is_empty() && d.is_empty() {
            continue;
        }
        let mut nodes: HashSet<u64> = r.iter().map(|&(_, n)| n).collect();
        nodes.extend(d.iter().map(|&(_, _, n)| n));
        let mut start = f64::INFINITY;
        let mut end = f64::NEG_INFINITY;
        for &(i, _) in r {
            let disp = tasks.dispatch_us(i).unwrap_or(-1.0);
            start = start.min(if disp >= 0.0 { disp } else { bar_start_us(tasks, i) });
            let fin = tasks.finish_us(i).unwrap_or(0.0);
            end = end.max(if fin > 0.0 { fin } else { tasks.end_us(i).unwrap_or(0.0) });
        }
        for &(s, e, _) in d {
            start = start.min(s);
            end = end.max(e);
        }
        out.push(GraphExecution {
            outer_task_id: outer,
            visible_nodes: nodes.len() as u32,
            node_rows: r.len() as u32,
            execution_start_us: start,
            execution_end_us: end,
            prepare_start_us: ps,
            prepare_end_us: pe,
            prepare_duration_us: pd,
            prepare_slices: n,
            lane: 0,
        });
    }
    out.sort_by(|a, b| a.prepare_start_us.total_cmp(&b.prepare_start_us));
    let mut lane_finish: Vec<f64> = Vec::new();
    for g in &mut out {
        let lane = lane_finish.iter().position(|&f| f <= g.prepare_start_us).unwrap_or(lane_finish.len());
        if lane == lane_finish.len() {
            lane_finish.push(0.0);
        }
        if let Some(f) = lane_finish.get_mut(lane) {
            *f = g.execution_end_us;
        }
        g.lane = lane as u32;
    }
    out
}

#[cfg(test)]
mod rows_of_tests {
    use super::*;

    #[test]
    fn rows_of_reads_the_index_or_the_range() {
        // Tasks 10, 20, 30; joined rows 0..5 belong to 20, 10, 20, 30, 10 (two epochs).
        let mut k = TaskKinds { task_id: [10, 20, 30].into_iter().collect(), ..TaskKinds::default() };
        let pairs = [(1u32, 0u32), (0, 1), (1, 2), (2, 3), (0, 4)];
        let (offsets, index) = csr_by_id(3, &pairs);
        (k.row_offsets, k.row_index) = (PackedU32::from(offsets.as_slice()), PackedU32::from(index.as_slice()));
        let rows = |id: u64| k.rows_of(id).collect::<Vec<u32>>();
        assert_eq!((rows(10), rows(20), rows(30)), (vec![1, 4], vec![0, 2], vec![3]));
        assert_eq!(k.rows_of(99).len(), 0);
        // Rows in task order: no index, the offsets' ranges are the rows.
        k.row_offsets = PackedU32::from([0, 2, 4, 5].as_slice());
        k.row_index = PackedU32::default();
        let rows = |id: u64| k.rows_of(id).collect::<Vec<u32>>();
        assert_eq!((rows(10), rows(20), rows(30)), (vec![0, 1], vec![2, 3], vec![4]));
        assert_eq!(k.rows_of(20).len(), 2);
    }
}

#[cfg(test)]
mod kind_codes_tests {
    use super::*;

    #[test]
    fn kinds_and_flags_read_back_and_unknown_codes_read_regular() {
        let kinds: Vec<TaskKind> = (0..1000).map(|i| TaskKind::ALL[(i * 7 / 5) % TaskKind::ALL.len()]).collect();
        let packed: KindCodes = kinds.iter().copied().collect();
        assert_eq!(packed.to_vec(), kinds);
        assert_eq!(packed.get(999), kinds.last().copied());
        assert_eq!(packed.get(1000), None);
        assert_eq!(TaskKind::decode(TaskKind::ALL.len() as u64), TaskKind::Regular);
        assert_eq!(TaskKind::decode(u64::MAX), TaskKind::Regular);
        let flags: Vec<bool> = (0..300).map(|i| i % 3 == 0 || i > 200).collect();
        let packed: Flags = flags.iter().copied().collect();
        assert_eq!(packed.iter().collect::<Vec<_>>(), flags);
    }
}
