//! Reader for the chip swimlane records file (`chip_swimlane_records.json` and its older
//! names `l2_swimlane_records.json`, `l2_perf_records*.json`, `perf_swimlane_*.json`), for the
//! analysis crate (joins, time base, views) and the worker.
//!
//! The variant is detected by content (runtime-formats.md §1.1): the level key is the first
//! present of `chip_swimlane_level`, `l2_swimlane_level`, `l2_perf_level`, else `version`; the
//! body is either the old object format (`tasks`: joined µs rows, "v1", §1.14) or the raw
//! cycle-domain format (`aicore_tasks` rows of 5, 6 or 7 integers, `aicpu_tasks` or newer
//! `scheduler_tasks.records`, scheduler phases from `aicpu_scheduler_phases` or newer
//! `scheduler_records.streams`). Rows are deserialised straight into columns; cycles stay
//! exact `u64`; ids that are negative are normalised with `& (2^64-1)`, times that are
//! negative (or backwards, or implausibly far) are skipped with a warning (`records_checks`).

use crate::columns::{CyclesColumn, KindColumn, NarrowU32Column, OptIdColumn, QueueDepthsColumn};
use crate::json_stream;
use crate::json_util::{json_error, Interner, Num, ObjectOnly};
use crate::FormatError;
use pypto_vocab::{Warning, WarningKind as K};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// Core type of an AICore (`core_types[core_id]`; missing entries are `Aiv`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, serde::Serialize, serde::Deserialize)]
pub enum CoreType {
    /// Cube core (`"aic"`).
    Aic,
    /// Vector core (`"aiv"`, the default).
    #[default]
    Aiv,
}

impl CoreType {
    /// `"aic"` (case-insensitive) is `Aic`, anything else `Aiv` (the reference default).
    pub fn from_name(name: &str) -> Self {
        if name.eq_ignore_ascii_case("aic") {
            Self::Aic
        } else {
            Self::Aiv
        }
    }

    /// `"aic"` / `"aiv"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Aic => "aic",
            Self::Aiv => "aiv",
        }
    }

    /// Lane prefix used by the reference converter: `"AIC"` / `"AIV"`.
    pub fn lane_prefix(self) -> &'static str {
        match self {
            Self::Aic => "AIC",
            Self::Aiv => "AIV",
        }
    }
}

/// File-level metadata (`metadata` object; v1 files hoist `core_to_thread` from the top level).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metadata {
    /// Device clock; always > 0 for raw files (0 = absent, allowed only in v1 files).
    pub clock_freq_hz: u64,
    /// `num_cores` (0 if absent).
    pub num_cores: u32,
    /// Index = core id. Use [`Metadata::core_type`] for the default past the end.
    pub core_types: Vec<CoreType>,
    /// Index = core id; value = scheduler thread, -1 = unassigned. May be shorter than
    /// `num_cores` or empty.
    pub core_to_thread: Vec<i32>,
    /// Newer upstream `metadata.runtime` (`tensormap_and_ringbuffer` | `host_build_graph`).
    pub runtime: Option<String>,
    /// `"host"` when the host orchestrated (§1.16).
    pub orchestrator_source: Option<String>,
    pub orchestrator_clock_domain: Option<String>,
    pub device_clock_domain: Option<String>,
    pub host_timestamp_resolution_ns: Option<u64>,
    pub host_timestamp_quantization_ns: Option<u64>,
    /// `host_orchestration_origin_ns` (or newer `host_timeline_origin_ns`).
    pub host_orchestration_origin_ns: Option<u64>,
    pub timeline_relation: Option<String>,
    pub host_capture: Option<HostCapture>,
    pub clock_anchors: Option<ClockAnchors>,
}

impl Metadata {
    /// `core_types[core_id]`, `Aiv` past the end (reference default).
    pub fn core_type(&self, core_id: u32) -> CoreType {
        self.core_types.get(core_id as usize).copied().unwrap_or_default()
    }

    /// Scheduler thread owning `core_id`, if assigned.
    pub fn thread_of_core(&self, core_id: u32) -> Option<u32> {
        self.core_to_thread.get(core_id as usize).and_then(|&t| u32::try_from(t).ok())
    }
}

/// `metadata.host_capture` (host-orchestrated captures).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct HostCapture {
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub expected_records: Option<u64>,
    #[serde(default)]
    pub recorded_records: Option<u64>,
    #[serde(default)]
    pub pool_records: Option<u64>,
    #[serde(default)]
    pub dropped_records: Option<u64>,
    #[serde(default)]
    pub error: Option<String>,
}

/// `metadata.clock_anchors`: host/device clock correlation samples.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClockAnchors {
    pub provider: Option<String>,
    /// `syscnt_cycles` | `device_uptime_us`.
    pub raw_device_timestamp_unit: Option<String>,
    pub samples: Vec<ClockSample>,
}

/// One clock-anchor sample.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClockSample {
    /// `pre_host_orchestration` | `post_device_execution`.
    pub position: String,
    pub sample_idx: u32,
    pub host_before_ns: Option<u64>,
    pub host_after_ns: Option<u64>,
    pub rtt_ns: Option<u64>,
    pub device_cycles: Option<u64>,
    /// True when the sample carried a non-null `error`.
    pub has_error: bool,
}

/// AICore timing rows (`aicore_tasks`), one entry per row, file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AicoreRows {
    pub core_id: Vec<u32>,
    /// `task_token_raw`: the task id (not unique per core).
    pub task_id: Vec<u64>,
    /// Per-core dispatch sequence (join key with the AICPU rows).
    pub reg_task_id: Vec<u64>,
    pub start_cycles: Vec<u64>,
    pub end_cycles: Vec<u64>,
    /// 0 for 5-column rows.
    pub receive_to_start_cycles: Vec<u64>,
    /// 0 for 5/6-column rows (see `columns`).
    pub run_epoch: Vec<u32>,
    /// Width of the rows (5, 6 or 7; 0 when there are no rows). Mixed widths give a warning
    /// and the width of the first row.
    pub columns: u8,
}

impl AicoreRows {
    pub fn len(&self) -> usize {
        self.core_id.len()
    }
    pub fn is_empty(&self) -> bool {
        self.core_id.is_empty()
    }
    /// True when rows carry `run_epoch` (7 columns): the join key includes it.
    pub fn has_run_epoch(&self) -> bool {
        self.columns == 7
    }
}

/// AICPU (scheduler-side) timing rows: `aicpu_tasks` (4 columns) or newer
/// `scheduler_tasks.records` (5 columns with `run_epoch`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AicpuRows {
    pub core_id: Vec<u32>,
    pub reg_task_id: Vec<u64>,
    pub dispatch_cycles: Vec<u64>,
    pub finish_cycles: Vec<u64>,
    /// 0 for 4-column rows.
    pub run_epoch: Vec<u32>,
    /// Row width (4 or 5; 0 when empty).
    pub columns: u8,
}

impl AicpuRows {
    pub fn len(&self) -> usize {
        self.core_id.len()
    }
    pub fn is_empty(&self) -> bool {
        self.core_id.is_empty()
    }
}

/// Scheduler phase kind (§1.6). Legacy `fanout` reads as `Resolve`, `prestage` as
/// `EarlyDispatch`; names this reader does not know are kept as `Unknown(name)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum SchedKind {
    Complete,
    Dispatch,
    Release,
    Dummy,
    EarlyDispatch,
    Resolve,
    DummyTask,
    Drain,
    DrainPrepare,
    DrainPublish,
    AsyncPoll,
    PredicatedSkip,
    GraphPrepare,
    /// Legacy idle record (dropped by the analyses; idle is reconstructed from gaps).
    Idle,
    /// Legacy scan record (dropped).
    Scan,
    /// Legacy completion scan that retired nothing.
    Poll,
    /// Legacy scheduler fanin wiring.
    Wire,
    StateProbe,
    Worksteal,
    Refill,
    /// `host_build_graph` standalone resolve (displayed as resolve on the main lane).
    ResolveStandalone,
    /// Any other name, including the writer's own `unknown`.
    Unknown(String),
}

impl SchedKind {
    /// Maps a JSON kind name.
    pub fn from_name(name: &str) -> Self {
        match name {
            "complete" => Self::Complete,
            "dispatch" => Self::Dispatch,
            "release" => Self::Release,
            "dummy" => Self::Dummy,
            "early_dispatch" | "prestage" => Self::EarlyDispatch,
            "resolve" | "fanout" => Self::Resolve,
            "dummy_task" => Self::DummyTask,
            "drain" => Self::Drain,
            "drain_prepare" => Self::DrainPrepare,
            "drain_publish" => Self::DrainPublish,
            "async_poll" => Self::AsyncPoll,
            "predicated_skip" => Self::PredicatedSkip,
            "graph_prepare" => Self::GraphPrepare,
            "idle" => Self::Idle,
            "scan" => Self::Scan,
            "poll" => Self::Poll,
            "wire" => Self::Wire,
            "state_probe" => Self::StateProbe,
            "worksteal" => Self::Worksteal,
            "refill" => Self::Refill,
            "resolve_standalone" => Self::ResolveStandalone,
            other => Self::Unknown(other.to_owned()),
        }
    }

    /// The current JSON name.
    pub fn name(&self) -> &str {
        match self {
            Self::Complete => "complete",
            Self::Dispatch => "dispatch",
            Self::Release => "release",
            Self::Dummy => "dummy",
            Self::EarlyDispatch => "early_dispatch",
            Self::Resolve => "resolve",
            Self::DummyTask => "dummy_task",
            Self::Drain => "drain",
            Self::DrainPrepare => "drain_prepare",
            Self::DrainPublish => "drain_publish",
            Self::AsyncPoll => "async_poll",
            Self::PredicatedSkip => "predicated_skip",
            Self::GraphPrepare => "graph_prepare",
            Self::Idle => "idle",
            Self::Scan => "scan",
            Self::Poll => "poll",
            Self::Wire => "wire",
            Self::StateProbe => "state_probe",
            Self::Worksteal => "worksteal",
            Self::Refill => "refill",
            Self::ResolveStandalone => "resolve_standalone",
            Self::Unknown(s) => s,
        }
    }
}

/// One scheduler thread's phase records (raw, cycle domain), file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SchedThread {
    pub kind: KindColumn,
    /// 4-byte offsets while they fit ([`CyclesColumn`]).
    pub start_cycles: CyclesColumn,
    pub end_cycles: CyclesColumn,
    pub loop_iter: NarrowU32Column,
    pub tasks_processed: NarrowU32Column,
    /// 0 unless the record is a `dispatch` (or metrics supplied it).
    pub pop_hit: NarrowU32Column,
    pub pop_miss: NarrowU32Column,
    /// Present on `dummy_task`, `predicated_skip`, `graph_prepare`.
    pub task_id: OptIdColumn,
    /// Ready-queue depths `[aic, aiv, mix]`.
    pub shared_at_start: QueueDepthsColumn,
    pub shared_at_end: QueueDepthsColumn,
    pub run_epoch: NarrowU32Column,
    /// Where the records are in the file, when it was read slice by slice ([`RecordsStream`]):
    /// the byte offset of records 0, [`SCHED_OFFSET_STRIDE`], 2 · that, …, and just past the
    /// last one (`records_end`); empty otherwise. [`sched_records_at`] reads records back.
    pub record_offsets: Vec<u64>,
    pub records_end: u64,
}

/// Scheduler records per entry of [`SchedThread::record_offsets`].
pub const SCHED_OFFSET_STRIDE: usize = 64;

impl SchedThread {
    pub fn len(&self) -> usize {
        self.kind.len()
    }
    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }
    /// Whether every record's place in the file is known (see [`SchedThread::record_offsets`]).
    pub fn has_offsets(&self) -> bool {
        self.records_end > 0 && self.record_offsets.len() == self.len().div_ceil(SCHED_OFFSET_STRIDE)
    }
    /// The file bytes holding record `i` and the ones after it in its group: `(offset, len,
    /// position of record i among the records there)`.
    pub fn record_span(&self, i: usize) -> Option<(u64, u32, usize)> {
        if !self.has_offsets() || i >= self.len() {
            return None;
        }
        pypto_columns::strided_piece(|g| self.record_offsets.get(g).copied(), self.records_end, SCHED_OFFSET_STRIDE, i)
    }
}

/// One scheduler phase record read back from the file ([`sched_records_at`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchedRecord {
    pub kind: SchedKind,
    pub start_cycles: u64,
    pub end_cycles: u64,
    pub loop_iter: u32,
    pub tasks_processed: u32,
    pub pop_hit: u32,
    pub pop_miss: u32,
    pub task_id: Option<u64>,
}

/// The `k`-th raw scheduler record of `bytes`, a piece of a records file that starts at a
/// record of `aicpu_scheduler_phases` (as [`SchedThread::record_span`] gives it): records
/// separated by commas, read as the whole-file reader reads them. `None` when the piece does
/// not hold that many raw records.
pub fn sched_records_at(bytes: &[u8], k: usize) -> Option<SchedRecord> {
    use crate::json_fast::skip_ws;
    let mut sink = SchedSink::default();
    let mut at = 0usize;
    while sink.raw.len() <= k {
        at = skip_ws(bytes, at);
        let rest = bytes.get(at..)?;
        let n = match fast_sched_rec(rest) {
            Some((r, n)) => {
                sink.push(r);
                n
            }
            None => match json_stream::de_one(rest, |r, _| sink.push(r)) {
                json_stream::Elem::Done(n) => n,
                _ => return None,
            },
        };
        if !sink.v1.kind.is_empty() {
            return None;
        }
        at = skip_ws(bytes, at + n);
        if bytes.get(at) == Some(&b',') {
            at += 1;
        }
    }
    let t = &sink.raw;
    Some(SchedRecord {
        kind: t.kind.get(k)?.clone(),
        start_cycles: t.start_cycles.get(k)?,
        end_cycles: t.end_cycles.get(k)?,
        loop_iter: t.loop_iter.get(k)?,
        tasks_processed: t.tasks_processed.get(k)?,
        pop_hit: t.pop_hit.get(k)?,
        pop_miss: t.pop_miss.get(k)?,
        task_id: t.task_id.get(k),
    })
}

/// One AICPU orchestrator thread's per-submit records (cycle domain).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrchThread {
    pub submit_idx: Vec<u32>,
    /// Normalised to u64; a negative id in the file shows as a value with the top bit set.
    pub task_id: Vec<u64>,
    /// 4-byte offsets while they fit ([`CyclesColumn`]).
    pub start_cycles: CyclesColumn,
    pub end_cycles: CyclesColumn,
    pub run_epoch: Vec<u32>,
}

/// One host orchestrator thread (`host_build_graph`), host `CLOCK_MONOTONIC` ns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostOrchThread {
    pub submit_idx: Vec<u32>,
    pub task_id: Vec<u64>,
    pub start_host_ns: Vec<u64>,
    pub end_host_ns: Vec<u64>,
}

/// `host_device_uploads` records.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostUploads {
    /// Index into `phase_names`.
    pub phase: Vec<u32>,
    pub phase_names: Vec<String>,
    pub start_host_ns: Vec<u64>,
    pub end_host_ns: Vec<u64>,
    pub detail_bytes: Vec<u64>,
}

/// The object ("v1") format: already joined task rows in µs (§1.14).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct V1Tasks {
    pub task_id: Vec<u64>,
    /// Real func ids in this era (-1 if absent).
    pub func_id: Vec<i64>,
    pub core_id: Vec<u32>,
    pub core_type: Vec<CoreType>,
    pub ring_id: Vec<u32>,
    pub start_us: Vec<f64>,
    pub end_us: Vec<f64>,
    /// 0.0 when absent.
    pub dispatch_us: Vec<f64>,
    pub finish_us: Vec<f64>,
    pub sched_threads: Vec<V1SchedThread>,
    pub orch_threads: Vec<V1OrchThread>,
}

/// v1 scheduler phases of one thread (µs).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct V1SchedThread {
    pub kind: Vec<SchedKind>,
    pub start_us: Vec<f64>,
    pub end_us: Vec<f64>,
    pub loop_iter: Vec<u32>,
    pub tasks_processed: Vec<u32>,
}

/// v1 orchestrator phases of one thread (µs).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct V1OrchThread {
    /// Index into `phase_names` (`orch_submit`, `orch_fanin`, ...).
    pub phase: Vec<u32>,
    pub phase_names: Vec<String>,
    pub start_us: Vec<f64>,
    pub end_us: Vec<f64>,
    pub submit_idx: Vec<u32>,
    pub task_id: Vec<u64>,
}

/// Everything one records file holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChipRecords {
    /// Collection level 1..4 (from the level key; inferred with a warning if absent).
    pub level: u32,
    /// Which level key and body shape were found, e.g. `"chip_swimlane_level (raw, 6 columns)"`.
    pub format: &'static str,
    pub metadata: Metadata,
    pub aicore: AicoreRows,
    pub aicpu: AicpuRows,
    /// One entry per scheduler thread (inner list), including empty capacity slots.
    pub sched_threads: Vec<SchedThread>,
    pub orch_threads: Vec<OrchThread>,
    pub host_orch_threads: Vec<HostOrchThread>,
    pub host_uploads: HostUploads,
    /// Set for the object ("v1", µs) format; then `aicore`/`aicpu` are empty.
    pub v1_tasks: Option<V1Tasks>,
    /// Non-fatal oddities found while reading.
    pub warnings: Vec<Warning>,
}

impl ChipRecords {
    /// Host-orchestrated capture (§1.16): `orchestrator_source == "host"`, host orchestrator
    /// records present, or a `host_capture` object.
    pub fn is_host_mode(&self) -> bool {
        self.metadata.orchestrator_source.as_deref() == Some("host")
            || self.host_orch_threads.iter().any(|t| !t.submit_idx.is_empty())
            || self.metadata.host_capture.is_some()
    }

    /// Trims the big columns' capacity to their length (they grow by doubling while a file
    /// is read; a million-task file left ~20% of its column bytes unused).
    pub fn shrink_to_fit(&mut self) {
        let a = &mut self.aicore;
        a.core_id.shrink_to_fit();
        a.task_id.shrink_to_fit();
        a.reg_task_id.shrink_to_fit();
        a.start_cycles.shrink_to_fit();
        a.end_cycles.shrink_to_fit();
        a.receive_to_start_cycles.shrink_to_fit();
        a.run_epoch.shrink_to_fit();
        let c = &mut self.aicpu;
        c.core_id.shrink_to_fit();
        c.reg_task_id.shrink_to_fit();
        c.dispatch_cycles.shrink_to_fit();
        c.finish_cycles.shrink_to_fit();
        c.run_epoch.shrink_to_fit();
        for t in &mut self.sched_threads {
            t.kind.shrink_to_fit();
            t.start_cycles.shrink_to_fit();
            t.end_cycles.shrink_to_fit();
            t.loop_iter.shrink_to_fit();
            t.tasks_processed.shrink_to_fit();
            t.pop_hit.shrink_to_fit();
            t.pop_miss.shrink_to_fit();
            t.task_id.shrink_to_fit();
            t.shared_at_start.shrink_to_fit();
            t.shared_at_end.shrink_to_fit();
            t.run_epoch.shrink_to_fit();
        }
        for t in &mut self.orch_threads {
            t.submit_idx.shrink_to_fit();
            t.task_id.shrink_to_fit();
            t.start_cycles.shrink_to_fit();
            t.end_cycles.shrink_to_fit();
            t.run_epoch.shrink_to_fit();
        }
    }

    /// Number of AICore rows (or v1 task rows).
    pub fn aicore_row_count(&self) -> usize {
        self.v1_tasks.as_ref().map_or(self.aicore.len(), |v| v.task_id.len())
    }
}

// ------------------------------------------------------------------------------------------
// Streaming sinks: a list of records deserialised straight into columns.

trait Sink<'de>: Default {
    type Rec: Deserialize<'de>;
    fn push(&mut self, rec: Self::Rec);
}

/// One JSON array of records into one sink.
struct One<S>(S);

impl<'de, S: Sink<'de>> Deserialize<'de> for One<S> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<S>(PhantomData<S>);
        impl<'de, S: Sink<'de>> Visitor<'de> for V<S> {
            type Value = One<S>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of records")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<One<S>, A::Error> {
                let mut s = S::default();
                while let Some(r) = seq.next_element::<S::Rec>()? {
                    s.push(r);
                }
                Ok(One(s))
            }
        }
        d.deserialize_seq(V(PhantomData))
    }
}

/// A JSON array of arrays of records (one inner list per thread).
struct ListOf<S>(Vec<S>);

impl<'de, S: Sink<'de>> Deserialize<'de> for ListOf<S> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<S>(PhantomData<S>);
        impl<'de, S: Sink<'de>> Visitor<'de> for V<S> {
            type Value = ListOf<S>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of per-thread record arrays")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ListOf<S>, A::Error> {
                let mut out = Vec::new();
                while let Some(One(s)) = seq.next_element::<One<S>>()? {
                    out.push(s);
                }
                Ok(ListOf(out))
            }
        }
        d.deserialize_seq(V(PhantomData))
    }
}

/// One AICore row: 5, 6 or 7 integers.
struct AicoreRow {
    vals: [u64; 7],
    width: u8,
}

impl<'de> Deserialize<'de> for AicoreRow {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = AicoreRow;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "an AICore row of 5, 6 or 7 integers [core_id, task_id, reg_task_id, \
                     start_cycles, end_cycles, receive_to_start_cycles, run_epoch]",
                )
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<AicoreRow, A::Error> {
                let mut vals = [0u64; 7];
                let mut n = 0usize;
                while let Some(Num(x)) = seq.next_element::<Num>()? {
                    match vals.get_mut(n) {
                        Some(slot) => *slot = x,
                        None => return Err(de::Error::invalid_length(n + 1, &self)),
                    }
                    n += 1;
                }
                if n < 5 {
                    return Err(de::Error::invalid_length(n, &self));
                }
                Ok(AicoreRow { vals, width: n as u8 })
            }
        }
        d.deserialize_seq(V)
    }
}

#[derive(Default)]
struct AicoreSink {
    rows: AicoreRows,
    mixed: bool,
    err: Option<String>,
}

impl Sink<'_> for AicoreSink {
    type Rec = AicoreRow;
    fn push(&mut self, r: AicoreRow) {
        let [core, task, reg, start, end, r2s, epoch] = r.vals;
        if self.rows.columns == 0 {
            self.rows.columns = r.width;
        } else if self.rows.columns != r.width {
            self.mixed = true;
        }
        let (Ok(core), Ok(epoch)) = (u32::try_from(core), u32::try_from(epoch)) else {
            self.err.get_or_insert_with(|| format!("AICore row {}: core_id or run_epoch does not fit in 32 bits", self.rows.len()));
            return;
        };
        self.rows.core_id.push(core);
        self.rows.task_id.push(task);
        self.rows.reg_task_id.push(reg);
        self.rows.start_cycles.push(start);
        self.rows.end_cycles.push(end);
        self.rows.receive_to_start_cycles.push(r2s);
        self.rows.run_epoch.push(epoch);
    }
}

/// One AICPU row: 4 or 5 integers.
struct AicpuRow {
    vals: [u64; 5],
    width: u8,
}

impl<'de> Deserialize<'de> for AicpuRow {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = AicpuRow;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "an AICPU row of 4 or 5 integers [core_id, reg_task_id, dispatch_cycles, \
                     finish_cycles, run_epoch]",
                )
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<AicpuRow, A::Error> {
                let mut vals = [0u64; 5];
                let mut n = 0usize;
                while let Some(Num(x)) = seq.next_element::<Num>()? {
                    match vals.get_mut(n) {
                        Some(slot) => *slot = x,
                        None => return Err(de::Error::invalid_length(n + 1, &self)),
                    }
                    n += 1;
                }
                if n < 4 {
                    return Err(de::Error::invalid_length(n, &self));
                }
                Ok(AicpuRow { vals, width: n as u8 })
            }
        }
        d.deserialize_seq(V)
    }
}

#[derive(Default)]
struct AicpuSink {
    rows: AicpuRows,
    mixed: bool,
    err: Option<String>,
}

impl Sink<'_> for AicpuSink {
    type Rec = AicpuRow;
    fn push(&mut self, r: AicpuRow) {
        let [core, reg, dispatch, finish, epoch] = r.vals;
        if self.rows.columns == 0 {
            self.rows.columns = r.width;
        } else if self.rows.columns != r.width {
            self.mixed = true;
        }
        let (Ok(core), Ok(epoch)) = (u32::try_from(core), u32::try_from(epoch)) else {
            self.err.get_or_insert_with(|| format!("AICPU row {}: core_id or run_epoch does not fit in 32 bits", self.rows.len()));
            return;
        };
        self.rows.core_id.push(core);
        self.rows.reg_task_id.push(reg);
        self.rows.dispatch_cycles.push(dispatch);
        self.rows.finish_cycles.push(finish);
        self.rows.run_epoch.push(epoch);
    }
}

/// A scheduler phase record, raw (`kind`, `*_cycles`) or v1 (`phase`, `*_time_us`).
#[derive(Deserialize)]
#[serde(expecting = "a scheduler phase record object")]
struct SchedRec<'a> {
    #[serde(borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    phase: Option<Cow<'a, str>>,
    #[serde(default)]
    start_cycles: Option<Num>,
    #[serde(default)]
    end_cycles: Option<Num>,
    #[serde(default)]
    start_time_us: Option<f64>,
    #[serde(default)]
    end_time_us: Option<f64>,
    #[serde(default)]
    loop_iter: Option<Num>,
    #[serde(default)]
    tasks_processed: Option<Num>,
    #[serde(default)]
    pop_hit: Option<Num>,
    #[serde(default)]
    pop_miss: Option<Num>,
    #[serde(default)]
    task_id: Option<Num>,
    #[serde(default)]
    shared_at_start: Option<[i32; 3]>,
    #[serde(default)]
    shared_at_end: Option<[i32; 3]>,
    #[serde(default)]
    run_epoch: Option<Num>,
}

/// [`SchedRec`] of the common raw shape read by [`crate::json_fast`] (`kind`/`phase`
/// without escapes, integer counters and cycles, `shared_at_*` of three integers; every other
/// key skipped and validated), with the element's length; `None` for anything else (floats,
/// `null`s, the v1 µs form, repeated keys, a cut element), which serde then reads.
#[allow(clippy::many_single_char_names, clippy::too_many_lines)] // a byte scanner, key by key
fn fast_sched_rec(b: &[u8]) -> Option<(SchedRec<'_>, usize)> {
    use crate::json_fast::{plain_string, skip_value, skip_ws, small_int};
    let mut r = SchedRec {
        kind: None,
        phase: None,
        start_cycles: None,
        end_cycles: None,
        start_time_us: None,
        end_time_us: None,
        loop_iter: None,
        tasks_processed: None,
        pop_hit: None,
        pop_miss: None,
        task_id: None,
        shared_at_start: None,
        shared_at_end: None,
        run_epoch: None,
    };
    let mut j = skip_ws(b, 0);
    if *b.get(j)? != b'{' {
        return None;
    }
    j = skip_ws(b, j + 1);
    if *b.get(j)? != b'}' {
        loop {
            let (key, after) = plain_string(b, j)?;
            j = skip_ws(b, after);
            if *b.get(j)? != b':' {
                return None;
            }
            j = skip_ws(b, j + 1);
            let num = match key {
                b"start_cycles" => Some(&mut r.start_cycles),
                b"end_cycles" => Some(&mut r.end_cycles),
                b"loop_iter" => Some(&mut r.loop_iter),
                b"tasks_processed" => Some(&mut r.tasks_processed),
                b"pop_hit" => Some(&mut r.pop_hit),
                b"pop_miss" => Some(&mut r.pop_miss),
                b"task_id" => Some(&mut r.task_id),
                b"run_epoch" => Some(&mut r.run_epoch),
                _ => None,
            };
            if let Some(slot) = num {
                if slot.is_some() {
                    return None;
                }
                let (v, end) = small_int(b, j)?;
                *slot = Some(Num(v as u64));
                j = end;
            } else {
                match key {
                    b"kind" | b"phase" => {
                        let slot = if key == b"kind" { &mut r.kind } else { &mut r.phase };
                        if slot.is_some() {
                            return None;
                        }
                        let (text, end) = plain_string(b, j)?;
                        *slot = Some(Cow::Borrowed(std::str::from_utf8(text).ok()?));
                        j = end;
                    }
                    b"shared_at_start" | b"shared_at_end" => {
                        let slot = if key == b"shared_at_start" { &mut r.shared_at_start } else { &mut r.shared_at_end };
                        if slot.is_some() || *b.get(j)? != b'[' {
                            return None;
                        }
                        let mut v = [0i32; 3];
                        let mut k = skip_ws(b, j + 1);
                        for (n, x) in v.iter_mut().enumerate() {
                            let (i, end) = small_int(b, k)?;
                            *x = i32::try_from(i).ok()?;
                            k = skip_ws(b, end);
                            match (*b.get(k)?, n) {
                                (b',', 0 | 1) => k = skip_ws(b, k + 1),
                                (b']', 2) => k += 1,
                                _ => return None,
                            }
                        }
                        *slot = Some(v);
                        j = k;
                    }
                    b"start_time_us" | b"end_time_us" => return None,
                    _ => j = skip_value(b, j)?,
                }
            }
            j = skip_ws(b, j);
            match *b.get(j)? {
                b',' => j = skip_ws(b, j + 1),
                b'}' => break,
                _ => return None,
            }
        }
    }
    let n = j + 1;
    // As `json_stream::de_one`: a value reaching the end of the bytes may be cut.
    (n < b.len()).then_some((r, n))
}

#[derive(Default)]
struct SchedSink {
    raw: SchedThread,
    v1: V1SchedThread,
}

impl<'de> Sink<'de> for SchedSink {
    type Rec = SchedRec<'de>;
    fn push(&mut self, r: SchedRec<'de>) {
        let name = r.kind.as_deref().or(r.phase.as_deref()).unwrap_or("unknown");
        let kind = SchedKind::from_name(name);
        let loop_iter = r.loop_iter.map_or(0, |n| n.0 as u32);
        let tasks = r.tasks_processed.map_or(0, |n| n.0 as u32);
        if r.start_cycles.is_none() && (r.start_time_us.is_some() || r.end_time_us.is_some()) {
            self.v1.kind.push(kind);
            self.v1.start_us.push(r.start_time_us.unwrap_or(0.0));
            self.v1.end_us.push(r.end_time_us.unwrap_or(0.0));
            self.v1.loop_iter.push(loop_iter);
            self.v1.tasks_processed.push(tasks);
            return;
        }
        let t = &mut self.raw;
        t.kind.push(kind);
        t.start_cycles.push(r.start_cycles.map_or(0, |n| n.0));
        t.end_cycles.push(r.end_cycles.map_or(0, |n| n.0));
        t.loop_iter.push(loop_iter);
        t.tasks_processed.push(tasks);
        t.pop_hit.push(r.pop_hit.map_or(0, |n| n.0 as u32));
        t.pop_miss.push(r.pop_miss.map_or(0, |n| n.0 as u32));
        t.task_id.push(r.task_id.map(|n| n.0));
        t.shared_at_start.push(r.shared_at_start.unwrap_or_default());
        t.shared_at_end.push(r.shared_at_end.unwrap_or_default());
        t.run_epoch.push(r.run_epoch.map_or(0, |n| n.0 as u32));
    }
}

/// An orchestrator record, raw (`*_cycles`) or v1 (`phase`, `*_time_us`).
#[derive(Deserialize)]
#[serde(expecting = "an orchestrator phase record object")]
struct OrchRec<'a> {
    #[serde(borrow, default)]
    phase: Option<Cow<'a, str>>,
    #[serde(default)]
    submit_idx: Option<Num>,
    #[serde(default)]
    task_id: Option<Num>,
    #[serde(default)]
    start_cycles: Option<Num>,
    #[serde(default)]
    end_cycles: Option<Num>,
    #[serde(default)]
    start_time_us: Option<f64>,
    #[serde(default)]
    end_time_us: Option<f64>,
    #[serde(default)]
    run_epoch: Option<Num>,
}

#[derive(Default)]
struct OrchSink {
    raw: OrchThread,
    v1: V1OrchThread,
    v1_phases: Interner,
}

impl<'de> Sink<'de> for OrchSink {
    type Rec = OrchRec<'de>;
    fn push(&mut self, r: OrchRec<'de>) {
        let submit = r.submit_idx.map_or(0, |n| n.0 as u32);
        let task = r.task_id.map_or(u64::MAX, |n| n.0);
        if r.start_cycles.is_none() && (r.start_time_us.is_some() || r.end_time_us.is_some()) {
            let p = self.v1_phases.intern(r.phase.as_deref().unwrap_or("orch_submit"));
            self.v1.phase.push(p);
            self.v1.start_us.push(r.start_time_us.unwrap_or(0.0));
            self.v1.end_us.push(r.end_time_us.unwrap_or(0.0));
            self.v1.submit_idx.push(submit);
            self.v1.task_id.push(task);
            return;
        }
        self.raw.submit_idx.push(submit);
        self.raw.task_id.push(task);
        self.raw.start_cycles.push(r.start_cycles.map_or(0, |n| n.0));
        self.raw.end_cycles.push(r.end_cycles.map_or(0, |n| n.0));
        self.raw.run_epoch.push(r.run_epoch.map_or(0, |n| n.0 as u32));
    }
}

#[derive(Deserialize)]
#[serde(expecting = "a host orchestrator record object")]
struct HostOrchRec {
    #[serde(default)]
    submit_idx: Option<Num>,
    #[serde(default)]
    task_id: Option<Num>,
    start_host_ns: Num,
    end_host_ns: Num,
}

#[derive(Default)]
struct HostOrchSink(HostOrchThread);

impl Sink<'_> for HostOrchSink {
    type Rec = HostOrchRec;
    fn push(&mut self, r: HostOrchRec) {
        self.0.submit_idx.push(r.submit_idx.map_or(0, |n| n.0 as u32));
        self.0.task_id.push(r.task_id.map_or(u64::MAX, |n| n.0));
        self.0.start_host_ns.push(r.start_host_ns.0);
        self.0.end_host_ns.push(r.end_host_ns.0);
    }
}

#[derive(Deserialize)]
#[serde(expecting = "a host upload record object")]
struct UploadRec<'a> {
    #[serde(borrow, default)]
    phase: Option<Cow<'a, str>>,
    start_host_ns: Num,
    end_host_ns: Num,
    #[serde(default)]
    detail: Option<Num>,
}

#[derive(Default)]
struct UploadSink {
    up: HostUploads,
    names: Interner,
}

impl<'de> Sink<'de> for UploadSink {
    type Rec = UploadRec<'de>;
    fn push(&mut self, r: UploadRec<'de>) {
        let p = self.names.intern(r.phase.as_deref().unwrap_or("unknown"));
        self.up.phase.push(p);
        self.up.start_host_ns.push(r.start_host_ns.0);
        self.up.end_host_ns.push(r.end_host_ns.0);
        self.up.detail_bytes.push(r.detail.map_or(0, |n| n.0));
    }
}

#[derive(Deserialize)]
#[serde(expecting = "a task object (object format)")]
struct V1TaskRec<'a> {
    task_id: Num,
    #[serde(default)]
    func_id: Option<i64>,
    #[serde(default)]
    core_id: Option<Num>,
    #[serde(borrow, default)]
    core_type: Option<Cow<'a, str>>,
    #[serde(default)]
    ring_id: Option<Num>,
    start_time_us: f64,
    end_time_us: f64,
    #[serde(default)]
    dispatch_time_us: Option<f64>,
    #[serde(default)]
    finish_time_us: Option<f64>,
}

#[derive(Default)]
struct V1Sink(V1Tasks);

impl<'de> Sink<'de> for V1Sink {
    type Rec = V1TaskRec<'de>;
    fn push(&mut self, r: V1TaskRec<'de>) {
        let t = &mut self.0;
        t.task_id.push(r.task_id.0);
        t.func_id.push(r.func_id.unwrap_or(-1));
        t.core_id.push(r.core_id.map_or(0, |n| n.0 as u32));
        t.core_type.push(r.core_type.as_deref().map_or(CoreType::Aiv, CoreType::from_name));
        t.ring_id.push(r.ring_id.map_or_else(|| ((r.task_id.0 >> 32) & 0xFFFF_FFFF) as u32, |n| n.0 as u32));
        t.start_us.push(r.start_time_us);
        t.end_us.push(r.end_time_us);
        t.dispatch_us.push(r.dispatch_time_us.unwrap_or(0.0));
        t.finish_us.push(r.finish_time_us.unwrap_or(0.0));
    }
}

impl crate::json_util::Described for RawMetadata<'_> {
    const WHAT: &'static str = "the `metadata` object";
}

#[derive(Deserialize)]
#[serde(expecting = "the `metadata` object")]
struct RawMetadata<'a> {
    /// Wider than u64 so that a negative clock is reported as such (not normalised).
    #[serde(default)]
    clock_freq_hz: Option<i128>,
    #[serde(default)]
    num_cores: Option<Num>,
    #[serde(borrow, default)]
    core_types: Option<Vec<Cow<'a, str>>>,
    #[serde(default)]
    core_to_thread: Option<Vec<i32>>,
    #[serde(default)]
    runtime: Option<String>,
    #[serde(default)]
    orchestrator_source: Option<String>,
    #[serde(default)]
    orchestrator_clock_domain: Option<String>,
    #[serde(default)]
    device_clock_domain: Option<String>,
    #[serde(default)]
    host_timestamp_resolution_ns: Option<u64>,
    #[serde(default)]
    host_timestamp_quantization_ns: Option<u64>,
    #[serde(default)]
    host_orchestration_origin_ns: Option<u64>,
    #[serde(default)]
    host_timeline_origin_ns: Option<u64>,
    #[serde(default)]
    timeline_relation: Option<String>,
    #[serde(default)]
    host_capture: Option<HostCapture>,
    #[serde(default)]
    clock_anchors: Option<RawClockAnchors>,
}

/// Clock anchors as in the file; `error` is kept as "present and non-null".
#[derive(Deserialize)]
struct RawClockAnchors {
    #[serde(default)]
    provider: Option<String>,
    #[serde(default)]
    raw_device_timestamp_unit: Option<String>,
    #[serde(default)]
    samples: Vec<RawClockSample>,
}

#[derive(Deserialize)]
struct RawClockSample {
    #[serde(default)]
    position: String,
    #[serde(default)]
    sample_idx: u32,
    #[serde(default)]
    host_before_ns: Option<u64>,
    #[serde(default)]
    host_after_ns: Option<u64>,
    #[serde(default)]
    rtt_ns: Option<u64>,
    #[serde(default)]
    device_cycles: Option<u64>,
    #[serde(default)]
    error: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
struct RawSchedulerTasks {
    #[serde(default)]
    records: Option<One<AicpuSink>>,
}

#[derive(Deserialize)]
struct RawMetric {
    record_index: usize,
    #[serde(default)]
    pop_hit: Option<Num>,
    #[serde(default)]
    pop_miss: Option<Num>,
    #[serde(default)]
    shared_at_start: Option<[i32; 3]>,
    #[serde(default)]
    shared_at_end: Option<[i32; 3]>,
}

#[derive(Deserialize)]
struct RawStream {
    #[serde(default)]
    scheduler_id: Option<u32>,
    #[serde(default)]
    records: Option<One<SchedSink>>,
    #[serde(default)]
    metrics: Vec<RawMetric>,
}

#[derive(Deserialize)]
struct RawSchedulerRecords {
    #[serde(default)]
    streams: Vec<RawStream>,
}

impl crate::json_util::Described for RawFile<'_> {
    const WHAT: &'static str = "a chip swimlane records JSON object";
}

#[derive(Deserialize)]
#[serde(expecting = "a chip swimlane records JSON object")]
struct RawFile<'a> {
    #[serde(default)]
    chip_swimlane_level: Option<i64>,
    #[serde(default)]
    l2_swimlane_level: Option<i64>,
    #[serde(default)]
    l2_perf_level: Option<i64>,
    #[serde(default)]
    version: Option<i64>,
    #[serde(borrow, default)]
    metadata: Option<ObjectOnly<RawMetadata<'a>>>,
    #[serde(default)]
    tasks: Option<One<V1Sink>>,
    #[serde(default)]
    aicore_tasks: Option<One<AicoreSink>>,
    #[serde(default)]
    aicpu_tasks: Option<One<AicpuSink>>,
    #[serde(default)]
    scheduler_tasks: Option<RawSchedulerTasks>,
    #[serde(default)]
    aicpu_scheduler_phases: Option<ListOf<SchedSink>>,
    #[serde(default)]
    scheduler_records: Option<RawSchedulerRecords>,
    #[serde(default)]
    aicpu_orchestrator_phases: Option<ListOf<OrchSink>>,
    #[serde(default)]
    host_orchestrator_phases: Option<ListOf<HostOrchSink>>,
    #[serde(default)]
    host_device_uploads: Option<One<UploadSink>>,
    /// v1 files keep it at the top level.
    #[serde(default)]
    core_to_thread: Option<Vec<i32>>,
}

#[derive(Clone, Copy)]
enum LevelKey {
    Chip,
    L2Swimlane,
    L2Perf,
    Version,
    None,
}

#[derive(Clone, Copy)]
enum Shape {
    Object,
    Raw(u8),
}

fn format_name(key: LevelKey, shape: Shape) -> &'static str {
    match (key, shape) {
        (LevelKey::Chip, Shape::Object) => "chip_swimlane_level (object tasks, µs)",
        (LevelKey::Chip, Shape::Raw(5)) => "chip_swimlane_level (raw, 5 columns)",
        (LevelKey::Chip, Shape::Raw(7)) => "chip_swimlane_level (raw, 7 columns)",
        (LevelKey::Chip, Shape::Raw(_)) => "chip_swimlane_level (raw, 6 columns)",
        (LevelKey::L2Swimlane, Shape::Object) => "l2_swimlane_level (object tasks, µs)",
        (LevelKey::L2Swimlane, Shape::Raw(5)) => "l2_swimlane_level (raw, 5 columns)",
        (LevelKey::L2Swimlane, Shape::Raw(7)) => "l2_swimlane_level (raw, 7 columns)",
        (LevelKey::L2Swimlane, Shape::Raw(_)) => "l2_swimlane_level (raw, 6 columns)",
        (LevelKey::L2Perf, Shape::Object) => "l2_perf_level (object tasks, µs)",
        (LevelKey::L2Perf, Shape::Raw(5)) => "l2_perf_level (raw, 5 columns)",
        (LevelKey::L2Perf, Shape::Raw(7)) => "l2_perf_level (raw, 7 columns)",
        (LevelKey::L2Perf, Shape::Raw(_)) => "l2_perf_level (raw, 6 columns)",
        (LevelKey::Version, Shape::Object) => "version (object tasks, µs)",
        (LevelKey::Version, Shape::Raw(5)) => "version (raw, 5 columns)",
        (LevelKey::Version, Shape::Raw(7)) => "version (raw, 7 columns)",
        (LevelKey::Version, Shape::Raw(_)) => "version (raw, 6 columns)",
        (LevelKey::None, Shape::Object) => "no level key (object tasks, µs)",
        (LevelKey::None, Shape::Raw(5)) => "no level key (raw, 5 columns)",
        (LevelKey::None, Shape::Raw(7)) => "no level key (raw, 7 columns)",
        (LevelKey::None, Shape::Raw(_)) => "no level key (raw, 6 columns)",
    }
}

fn take_sink_error(path: &str, bytes: &[u8], key: &str, err: Option<String>) -> Result<(), FormatError> {
    match err {
        Some(msg) => Err(FormatError::at_key(path, bytes, key, msg)),
        None => Ok(()),
    }
}

fn convert_metadata(m: RawMetadata<'_>) -> Metadata {
    Metadata {
        clock_freq_hz: m.clock_freq_hz.and_then(|n| u64::try_from(n).ok()).unwrap_or(0),
        num_cores: m.num_cores.map_or(0, |n| n.0 as u32),
        core_types: m.core_types.map(|v| v.iter().map(|s| CoreType::from_name(s)).collect()).unwrap_or_default(),
        core_to_thread: m.core_to_thread.unwrap_or_default(),
        runtime: m.runtime,
        orchestrator_source: m.orchestrator_source,
        orchestrator_clock_domain: m.orchestrator_clock_domain,
        device_clock_domain: m.device_clock_domain,
        host_timestamp_resolution_ns: m.host_timestamp_resolution_ns,
        host_timestamp_quantization_ns: m.host_timestamp_quantization_ns,
        host_orchestration_origin_ns: m.host_orchestration_origin_ns.or(m.host_timeline_origin_ns),
        timeline_relation: m.timeline_relation,
        host_capture: m.host_capture,
        clock_anchors: m.clock_anchors.map(|a| ClockAnchors {
            provider: a.provider,
            raw_device_timestamp_unit: a.raw_device_timestamp_unit,
            samples: a
                .samples
                .into_iter()
                .map(|s| ClockSample {
                    position: s.position,
                    sample_idx: s.sample_idx,
                    host_before_ns: s.host_before_ns,
                    host_after_ns: s.host_after_ns,
                    rtt_ns: s.rtt_ns,
                    device_cycles: s.device_cycles,
                    has_error: s.error.is_some(),
                })
                .collect(),
        }),
    }
}

/// Re-indexes newer `scheduler_records.streams` by `scheduler_id` and merges `metrics`.
fn streams_to_threads(path: &str, streams: Vec<RawStream>, warnings: &mut Vec<Warning>) -> Vec<SchedThread> {
    let mut out: Vec<SchedThread> = Vec::new();
    for (pos, s) in streams.into_iter().enumerate() {
        let id = s.scheduler_id.map_or(pos, |i| i as usize);
        if id > 4096 {
            warnings.push(
                Warning::new(K::RecordsStreamIdTooLarge, path, format!("scheduler stream id {id} is implausibly large; stream skipped"))
                    .text("id", id),
            );
            continue;
        }
        if out.len() <= id {
            out.resize_with(id + 1, SchedThread::default);
        }
        let mut t = s.records.map(|o| o.0.raw).unwrap_or_default();
        for m in s.metrics {
            if m.record_index >= t.len() {
                warnings.push(
                    Warning::new(
                        K::RecordsMetricOutOfRange,
                        path,
                        format!("scheduler stream {id}: metric for record {} out of range", m.record_index),
                    )
                    .text("stream", id)
                    .text("record", m.record_index),
                );
                continue;
            }
            let i = m.record_index;
            if let Some(v) = m.pop_hit {
                t.pop_hit.set(i, v.0 as u32);
            }
            if let Some(v) = m.pop_miss {
                t.pop_miss.set(i, v.0 as u32);
            }
            if let Some(v) = m.shared_at_start {
                t.shared_at_start.set(i, v);
            }
            if let Some(v) = m.shared_at_end {
                t.shared_at_end.set(i, v);
            }
        }
        if let Some(slot) = out.get_mut(id) {
            if !slot.is_empty() {
                warnings.push(
                    Warning::new(K::RecordsStreamIdRepeated, path, format!("scheduler stream id {id} appears twice; later stream kept"))
                        .text("id", id),
                );
            }
            *slot = t;
        }
    }
    out
}

/// Parses a records file. `path` is only used in errors.
pub fn parse(path: &str, bytes: &[u8]) -> Result<ChipRecords, FormatError> {
    let ObjectOnly(raw): ObjectOnly<RawFile<'_>> = serde_json::from_slice(bytes).map_err(|e| json_error(path, bytes, &e))?;
    from_raw(path, bytes, raw).map(|mut r| {
        r.shrink_to_fit();
        r
    })
}

/// The variant detection and checks over a deserialised file (`bytes` locates keys in errors).
#[allow(clippy::too_many_lines)] // the variant detection reads best as one sequence of steps
fn from_raw(path: &str, bytes: &[u8], raw: RawFile<'_>) -> Result<ChipRecords, FormatError> {
    let mut warnings = Vec::new();

    let (key, level_raw) = if let Some(l) = raw.chip_swimlane_level {
        (LevelKey::Chip, Some(l))
    } else if let Some(l) = raw.l2_swimlane_level {
        (LevelKey::L2Swimlane, Some(l))
    } else if let Some(l) = raw.l2_perf_level {
        (LevelKey::L2Perf, Some(l))
    } else if let Some(v) = raw.version {
        (LevelKey::Version, Some(v))
    } else {
        (LevelKey::None, None)
    };
    let key_name = match key {
        LevelKey::Chip => "chip_swimlane_level",
        LevelKey::L2Swimlane => "l2_swimlane_level",
        LevelKey::L2Perf => "l2_perf_level",
        LevelKey::Version => "version",
        LevelKey::None => "",
    };
    if let Some(l) = level_raw {
        if l < 0 || l > i64::from(u32::MAX) {
            return Err(FormatError::at_key(path, bytes, key_name, format!("`{key_name}` is {l}; expected a level 1..4")));
        }
    }

    let clock_in_file = raw.metadata.as_ref().and_then(|m| m.0.clock_freq_hz);
    let mut metadata = raw.metadata.map(|m| convert_metadata(m.0)).unwrap_or_default();
    if metadata.core_to_thread.is_empty() {
        if let Some(c2t) = raw.core_to_thread {
            metadata.core_to_thread = c2t;
        }
    }

    let mut sched_sinks = raw.aicpu_scheduler_phases.map(|l| l.0).unwrap_or_default();
    let orch_sinks = raw.aicpu_orchestrator_phases.map(|l| l.0).unwrap_or_default();
    let host_orch_threads: Vec<HostOrchThread> =
        raw.host_orchestrator_phases.map(|l| l.0.into_iter().map(|s| s.0).collect()).unwrap_or_default();
    let host_uploads = raw.host_device_uploads.map_or_else(HostUploads::default, |o| {
        let mut up = o.0.up;
        up.phase_names = o.0.names.names;
        up
    });

    let mut out = ChipRecords { level: 0, format: "", metadata, host_orch_threads, host_uploads, ..ChipRecords::default() };

    if let Some(tasks) = raw.tasks {
        // Object ("v1") format: µs rows, already joined.
        let mut v1 = tasks.0 .0;
        v1.sched_threads = sched_sinks.drain(..).map(|s| s.v1).collect();
        v1.orch_threads = orch_sinks
            .into_iter()
            .map(|s| {
                let mut t = s.v1;
                t.phase_names = s.v1_phases.names;
                t
            })
            .collect();
        if raw.aicore_tasks.is_some() {
            warnings.push(Warning::new(
                K::RecordsTwoTaskShapes,
                path,
                "both `tasks` and `aicore_tasks` present; read `tasks` (object format)",
            ));
        }
        out.format = format_name(key, Shape::Object);
        out.level = match level_raw {
            Some(l) if !matches!(key, LevelKey::Version) => l as u32,
            _ => {
                let inferred = if v1.orch_threads.iter().any(|t| !t.start_us.is_empty()) {
                    4
                } else if !v1.sched_threads.is_empty() {
                    3
                } else if v1.finish_us.iter().any(|&f| f > 0.0) {
                    2
                } else {
                    1
                };
                if matches!(key, LevelKey::None) {
                    warnings.push(
                        Warning::new(K::RecordsLevelInferred, path, format!("no level key; level {inferred} inferred from the content"))
                            .text("shape", "object")
                            .text("level", inferred),
                    );
                }
                inferred
            }
        };
        out.v1_tasks = Some(v1);
        out.warnings = warnings;
        return Ok(out);
    }

    let Some(aicore) = raw.aicore_tasks else {
        return Err(FormatError::at(
            path,
            1,
            1,
            "unknown records shape: expected `aicore_tasks` (raw rows) or `tasks` (object format) at the top level",
        ));
    };
    let aicore = aicore.0;
    take_sink_error(path, bytes, "aicore_tasks", aicore.err)?;
    if aicore.mixed {
        warnings.push(
            Warning::new(
                K::RecordsMixedWidths,
                path,
                format!("`aicore_tasks` rows have mixed widths; read as {} columns", aicore.rows.columns),
            )
            .text("table", "aicore_tasks")
            .count("columns", aicore.rows.columns),
        );
    }
    out.aicore = aicore.rows;

    if out.metadata.clock_freq_hz == 0 {
        let (what, key) = match clock_in_file {
            Some(n) => (format!("is {n}"), "clock_freq_hz"),
            None => ("is missing".to_owned(), "metadata"),
        };
        let mut e = FormatError::at_key(
            path,
            bytes,
            key,
            format!(
                "`metadata.clock_freq_hz` {what}: a positive device clock in Hz is required to convert \
                 cycles to µs (a2a3 = 50000000, a5 = 1000000000)"
            ),
        );
        if e.line == 0 {
            e.line = 1;
            e.column = 1;
        }
        return Err(e);
    }

    match (raw.scheduler_tasks, raw.aicpu_tasks) {
        (Some(st), other) => {
            if other.is_some() {
                warnings.push(Warning::new(
                    K::RecordsTwoSchedulerShapes,
                    path,
                    "both `scheduler_tasks` and `aicpu_tasks` present; read `scheduler_tasks`",
                ));
            }
            if let Some(rec) = st.records {
                take_sink_error(path, bytes, "scheduler_tasks", rec.0.err)?;
                if rec.0.mixed {
                    warnings.push(
                        Warning::new(K::RecordsMixedWidths, path, "`scheduler_tasks.records` rows have mixed widths")
                            .text("table", "scheduler_tasks.records"),
                    );
                }
                out.aicpu = rec.0.rows;
            }
        }
        (None, Some(a)) => {
            take_sink_error(path, bytes, "aicpu_tasks", a.0.err)?;
            if a.0.mixed {
                warnings
                    .push(Warning::new(K::RecordsMixedWidths, path, "`aicpu_tasks` rows have mixed widths").text("table", "aicpu_tasks"));
            }
            out.aicpu = a.0.rows;
        }
        (None, None) => {}
    }

    out.sched_threads = match raw.scheduler_records {
        Some(sr) => streams_to_threads(path, sr.streams, &mut warnings),
        None => sched_sinks.into_iter().map(|s| s.raw).collect(),
    };
    out.orch_threads = orch_sinks.into_iter().map(|s| s.raw).collect();

    let unknown: usize = out.sched_threads.iter().map(|t| t.kind.iter().filter(|k| matches!(k, SchedKind::Unknown(_))).count()).sum();
    if unknown > 0 {
        warnings.push(
            Warning::new(
                K::RecordsUnknownPhaseKind,
                path,
                format!("{unknown} scheduler phase record(s) of unknown kind (kept, not drawn)"),
            )
            .count("count", unknown),
        );
    }

    out.format = format_name(key, Shape::Raw(out.aicore.columns));
    out.level = match (key, level_raw) {
        (LevelKey::Version | LevelKey::None, _) | (_, None) => {
            let inferred = if out.orch_threads.iter().any(|t| !t.submit_idx.is_empty())
                || out.host_orch_threads.iter().any(|t| !t.submit_idx.is_empty())
            {
                4
            } else if !out.sched_threads.is_empty() {
                3
            } else if !out.aicpu.is_empty() {
                2
            } else {
                1
            };
            warnings.push(
                Warning::new(K::RecordsLevelInferred, path, format!("no swimlane level key; level {inferred} inferred from the content"))
                    .text("shape", "raw")
                    .text("level", inferred),
            );
            inferred
        }
        (_, Some(l)) => l as u32,
    };
    if out.level > 4 {
        warnings
            .push(Warning::new(K::RecordsLevelAbove4, path, format!("level {} is above 4; read as 4", out.level)).text("level", out.level));
    }
    if out.is_host_mode() && out.orch_threads.iter().any(|t| !t.submit_idx.is_empty()) {
        warnings.push(Warning::new(
            K::RecordsHostAndDeviceOrchestrator,
            path,
            "host-orchestrated capture also has AICPU orchestrator records (ambiguous clocks)",
        ));
    }
    out.warnings = warnings;
    crate::records_checks::check_times(path, &mut out);
    Ok(out)
}

// ------------------------------------------------------------------------------------------
// Slice-by-slice reading (the worker's path for large files).

/// Streamed sinks, one per big top-level array (see [`RecordsStream`]).
#[derive(Default)]
struct StreamSinks {
    v1: Option<V1Sink>,
    aicore: Option<AicoreSink>,
    aicpu: Option<AicpuSink>,
    sched: Option<Vec<SchedSink>>,
    orch: Option<Vec<OrchSink>>,
    host_orch: Option<Vec<HostOrchSink>>,
    uploads: Option<UploadSink>,
}

fn push_into<S: for<'a> Sink<'a>>(sink: Option<&mut S>, bytes: &[u8]) -> json_stream::Elem {
    match sink {
        Some(s) => json_stream::de_one(bytes, |r, _| s.push(r)),
        None => json_stream::Elem::Fail,
    }
}

impl json_stream::Target for StreamSinks {
    fn layout(&self, key: &[u8]) -> Option<(usize, json_stream::Layout)> {
        use json_stream::Layout::{Flat, Nested};
        Some(match key {
            b"tasks" => (0, Flat),
            b"aicore_tasks" => (1, Flat),
            b"aicpu_tasks" => (2, Flat),
            b"aicpu_scheduler_phases" => (3, Nested),
            b"aicpu_orchestrator_phases" => (4, Nested),
            b"host_orchestrator_phases" => (5, Nested),
            b"host_device_uploads" => (6, Flat),
            _ => return None,
        })
    }
    fn open(&mut self, slot: usize) {
        match slot {
            0 => self.v1 = Some(V1Sink::default()),
            1 => self.aicore = Some(AicoreSink::default()),
            2 => self.aicpu = Some(AicpuSink::default()),
            3 => self.sched = Some(Vec::new()),
            4 => self.orch = Some(Vec::new()),
            5 => self.host_orch = Some(Vec::new()),
            _ => self.uploads = Some(UploadSink::default()),
        }
    }
    fn group(&mut self, slot: usize) {
        match slot {
            3 => self.sched.get_or_insert_with(Vec::new).push(SchedSink::default()),
            4 => self.orch.get_or_insert_with(Vec::new).push(OrchSink::default()),
            _ => self.host_orch.get_or_insert_with(Vec::new).push(HostOrchSink::default()),
        }
    }
    fn element(&mut self, slot: usize, bytes: &[u8], offset: u64) -> json_stream::Elem {
        match slot {
            0 => push_into(self.v1.as_mut(), bytes),
            1 => push_into(self.aicore.as_mut(), bytes),
            2 => push_into(self.aicpu.as_mut(), bytes),
            3 => {
                let Some(sink) = self.sched.as_mut().and_then(|v| v.last_mut()) else { return json_stream::Elem::Fail };
                let before = sink.raw.len();
                let done = match fast_sched_rec(bytes) {
                    Some((r, n)) => {
                        sink.push(r);
                        json_stream::Elem::Done(n)
                    }
                    None => push_into(Some(&mut *sink), bytes),
                };
                // Where raw records are, for reading one back later (the bar details).
                if let json_stream::Elem::Done(n) = done {
                    let t = &mut sink.raw;
                    if t.len() > before {
                        if before % SCHED_OFFSET_STRIDE == 0 {
                            t.record_offsets.push(offset);
                        }
                        t.records_end = offset + n as u64;
                    }
                }
                done
            }
            4 => push_into(self.orch.as_mut().and_then(|v| v.last_mut()), bytes),
            5 => push_into(self.host_orch.as_mut().and_then(|v| v.last_mut()), bytes),
            _ => push_into(self.uploads.as_mut(), bytes),
        }
    }
}

/// A records file read slice by slice: [`RecordsStream::feed`] each slice in order, then
/// [`RecordsStream::finish`]. The big arrays go straight into columns as their elements
/// complete, so the file's text is never held whole. The result equals [`parse`]'s; when the
/// file is malformed in any way `finish` returns `None` and the caller parses the whole file
/// with [`parse`] for the exact error position.
#[derive(Default)]
pub struct RecordsStream {
    split: json_stream::Splitter,
    sinks: StreamSinks,
}

impl RecordsStream {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds the next slice.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.split.feed(bytes, &mut self.sinks);
    }

    /// The parsed records, or `None` if the file must be parsed whole for its error.
    pub fn finish(self, path: &str) -> Option<ChipRecords> {
        let side = self.split.finish()?;
        let ObjectOnly(mut raw): ObjectOnly<RawFile<'_>> = serde_json::from_slice(&side).ok()?;
        let s = self.sinks;
        // A streamed key never reaches the side document, so these are all `None` here.
        raw.tasks = s.v1.map(One).or(raw.tasks);
        raw.aicore_tasks = s.aicore.map(One).or(raw.aicore_tasks);
        raw.aicpu_tasks = s.aicpu.map(One).or(raw.aicpu_tasks);
        raw.aicpu_scheduler_phases = s.sched.map(ListOf).or(raw.aicpu_scheduler_phases);
        raw.aicpu_orchestrator_phases = s.orch.map(ListOf).or(raw.aicpu_orchestrator_phases);
        raw.host_orchestrator_phases = s.host_orch.map(ListOf).or(raw.host_orchestrator_phases);
        raw.host_device_uploads = s.uploads.map(One).or(raw.host_device_uploads);
        let mut records = from_raw(path, &side, raw).ok()?;
        records.shrink_to_fit();
        Some(records)
    }
}

#[cfg(test)]
mod fast_sched_tests {
    use super::*;

    fn cols(r: &SchedRec<'_>) -> String {
        format!(
            "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
            r.kind,
            r.phase,
            r.start_cycles,
            r.end_cycles,
            r.start_time_us,
            r.end_time_us,
            r.loop_iter,
            r.tasks_processed,
            r.pop_hit,
            r.pop_miss,
            r.task_id,
            r.shared_at_start,
            r.shared_at_end,
            r.run_epoch
        )
    }

    /// Where the fast path answers, it answers what serde answers; the odd shapes go to serde.
    #[test]
    fn fast_sched_rec_equals_serde() {
        let cases: [&[u8]; 8] = [
            br#"{"kind": "dispatch", "start_cycles": 100290560761, "end_cycles": 100290560840, "loop_iter": 1, "tasks_processed": 1, "pop_hit": 1, "pop_miss": 3, "shared_at_start": [0,0,0], "shared_at_end": [0,-1,2], "extra": {"a": [1.5, "x"]}},"#,
            br#"{"kind":"dummy_task","task_id":-5,"run_epoch":2} ]"#,
            br"{},",
            br#"{"kind": "x", "kind": "y"},"#,
            br#"{"phase": "a", "start_time_us": 1.5},"#,
            br#"{"start_cycles": null},"#,
            br#"{"shared_at_start": [1, 2]},"#,
            br#"{"loop_iter": 1.0},"#,
        ];
        for (i, c) in cases.iter().enumerate() {
            let fast = fast_sched_rec(c).map(|(r, n)| (cols(&r), n));
            let mut slow = None;
            if let json_stream::Elem::Done(_) = json_stream::de_one(c, |r: SchedRec<'_>, n| slow = Some((cols(&r), n))) {}
            if fast.is_some() {
                assert_eq!(fast, slow, "case {i}");
            }
            assert_eq!(fast.is_some(), i < 3, "case {i}");
        }
        assert!(fast_sched_rec(br#"{"kind": "dispatch", "start_cycles": 1"#).is_none());
        assert!(fast_sched_rec(br#"{"kind": "dispatch"}"#).is_none());
    }
}
