//! Streaming reader for Chrome Trace Event JSON (`merged_swimlane*.json`, `CPM_static*.json`,
//! `CPM_observed*.json`, `*strace-swimlane*.json`, any other Perfetto/Chrome trace), for the
//! CPM path read-back ([`crate::cpm`]), the serving STRACE model ([`crate::strace`]), the
//! worker's generic trace views and the CLI `bench`.
//!
//! The document is either `{"traceEvents": [...], ...}` (other top-level keys are kept when
//! small — `displayTimeUnit`, `metadata` — and skipped otherwise) or a bare event array
//! (runtime-formats.md §4.1, §6.4, §7.2, §7.3). The reader never builds a `serde_json::Value`
//! of the event list: a serde `DeserializeSeed` walks `traceEvents` one event at a time,
//! borrowing strings from the input, and hands each event to a sink:
//!
//! - [`for_each_event`] calls a closure with a borrowed [`EventRef`] (nothing is stored; the
//!   CPM read-back uses this on a 350 MB copy of the merged trace);
//! - [`parse`] / [`parse_with`] build a [`ChromeTrace`]: one column per field, interned
//!   names, a process table and a thread table (names and sort indices from `M` events).
//!
//! Per event the reader keeps `ph`, `name`, `cat`, `cname`, `pid`, `tid`, `ts` and `dur`
//! (µs, `f64`, as written), `id` and `bind_id` (flow ids, `u64`), `bp == "e"`, the instant
//! scope `s`, and the arguments the viewers need: `args.taskId` and `args.task_id` (`u64`,
//! exact even above 2^53; negative values are normalised with `& (2^64-1)`; a decimal string
//! is accepted), `args.name` and `args.sort_index` (for `M` events). With
//! [`ParseOptions::keep_args`] every argument is kept too (serving STRACE details).
//!
//! Errors are [`FormatError`]s with the line and column where the reader stopped and, for
//! problems inside an event, the event's index (`traceEvents[i]: ...`). Rules: `ph` must be
//! one of the Chrome phase letters (anything else is an error); `ts` is required on every
//! event except `M`; `dur` is required on `X`; `pid`/`tid` are integers or strings (a
//! missing `pid` is process 0, a missing `tid` is the process-level track); `name`, `cat`,
//! `cname`, `ph`, `bp` and `s` must be strings. Unknown keys are ignored. An argument that
//! is not an integer where an id is expected (`taskId`: `1.5`, `"t3"`) is not captured and is
//! counted in [`ChromeTrace::warnings`].

use crate::json_util::Interner;
use crate::FormatError;
use pypto_vocab::{Warning, WarningKind};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

/// The Chrome trace phase letters this reader accepts (`B E X i I C b n e S T p F s t f P O N
/// D M V v R c ( )`).
pub const KNOWN_PHASES: &[u8] = b"BEXiICbneSTpFstfPONDMVvRc()";

/// True when `ph` is a Chrome trace phase letter.
pub fn is_known_phase(ph: u8) -> bool {
    KNOWN_PHASES.contains(&ph)
}

/// The largest time (µs) of an event the views place: 2^63 ns (±292 years), the range of
/// Perfetto's nanosecond timestamps; a `ts` beyond it is damage (the views skip and count it).
pub const MAX_TIME_US: f64 = 9_223_372_036_854_776.0;

/// Bits of [`TraceEvents::flags`].
pub mod flags {
    /// The event has `ts`.
    pub const HAS_TS: u16 = 1;
    /// The event has `dur`.
    pub const HAS_DUR: u16 = 1 << 1;
    /// The event has `id`.
    pub const HAS_ID: u16 = 1 << 2;
    /// The event has `bind_id`.
    pub const HAS_BIND_ID: u16 = 1 << 3;
    /// `task_id` holds `args.taskId` (AICore task bars, Scheduler View bars).
    pub const TASK_ID: u16 = 1 << 4;
    /// `task_id` holds `args.task_id` (orchestrator, dummy and alloc bars); only set when
    /// `args.taskId` is absent.
    pub const TASK_ID_SNAKE: u16 = 1 << 5;
    /// `bp == "e"` (flow end binds to the enclosing slice).
    pub const BP_ENCLOSING: u16 = 1 << 6;
    /// Mask of the instant scope: 0 = absent, [`SCOPE_THREAD`], [`SCOPE_PROCESS`],
    /// [`SCOPE_GLOBAL`].
    pub const SCOPE_MASK: u16 = 0b11 << 7;
    /// `"s": "t"`.
    pub const SCOPE_THREAD: u16 = 1 << 7;
    /// `"s": "p"`.
    pub const SCOPE_PROCESS: u16 = 2 << 7;
    /// `"s": "g"`.
    pub const SCOPE_GLOBAL: u16 = 3 << 7;
}

/// "No string" in the optional interned columns (`cname`).
pub const NO_STRING: u32 = u32::MAX;

/// A process or thread id as written: an integer, or a string (`MindStudio Insight` traces use
/// string pids; an integer above `i64::MAX` is kept as its decimal text).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum TraceId {
    Num(i64),
    Text(String),
}

impl TraceId {
    /// The integer value, if numeric.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Self::Num(n) => Some(*n),
            Self::Text(_) => None,
        }
    }
}

impl fmt::Display for TraceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Num(n) => write!(f, "{n}"),
            Self::Text(s) => f.write_str(s),
        }
    }
}

/// A borrowed process or thread id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdRef<'a> {
    Num(i64),
    Text(Cow<'a, str>),
}

impl IdRef<'_> {
    /// The integer value, if numeric.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Self::Num(n) => Some(*n),
            Self::Text(_) => None,
        }
    }
    fn to_owned_id(&self) -> TraceId {
        match self {
            Self::Num(n) => TraceId::Num(*n),
            Self::Text(s) => TraceId::Text(s.as_ref().to_owned()),
        }
    }
}

/// A borrowed argument value (only with [`ParseOptions::keep_args`] / `want_args`).
#[derive(Debug, Clone, PartialEq)]
pub enum ArgRef<'a> {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Str(Cow<'a, str>),
    /// An array or object, as compact JSON text.
    Json(String),
}

impl ArgRef<'_> {
    /// An exact integer id: a non-negative or negative (normalised with `& (2^64-1)`) JSON
    /// integer, or a decimal string of one. Floats, booleans and other strings are `None`.
    pub fn as_id(&self) -> Option<u64> {
        match self {
            Self::U64(v) => Some(*v),
            Self::I64(v) => Some(*v as u64),
            Self::Str(s) => {
                let t = s.trim();
                t.parse::<u64>().ok().or_else(|| t.parse::<i64>().ok().map(|v| v as u64))
            }
            _ => None,
        }
    }

    /// A number as `f64`.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Self::U64(v) => Some(*v as f64),
            Self::I64(v) => Some(*v as f64),
            Self::F64(v) => Some(*v),
            _ => None,
        }
    }

    /// The string value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// One event as the streaming reader sees it; strings borrow from the input when they have
/// no escapes.
#[derive(Debug, Clone, PartialEq)]
pub struct EventRef<'a> {
    /// Index in `traceEvents` (file order).
    pub index: u64,
    /// Phase letter (one of [`KNOWN_PHASES`]).
    pub ph: u8,
    /// `""` when absent.
    pub name: &'a str,
    /// `""` when absent.
    pub cat: &'a str,
    pub cname: Option<&'a str>,
    pub pid: Option<&'a IdRef<'a>>,
    pub tid: Option<&'a IdRef<'a>>,
    pub ts_us: Option<f64>,
    pub dur_us: Option<f64>,
    pub id: Option<u64>,
    pub bind_id: Option<u64>,
    /// `bp == "e"`.
    pub bp_enclosing: bool,
    /// Instant scope `s` (`b't'`, `b'p'`, `b'g'`).
    pub scope: Option<u8>,
    /// `args.taskId`.
    pub task_id: Option<u64>,
    /// `args.task_id`.
    pub task_id_snake: Option<u64>,
    /// `args.name` when a string (process/thread names of `M` events).
    pub arg_name: Option<&'a str>,
    /// `args.sort_index` when an integral number.
    pub arg_sort_index: Option<i64>,
    /// Every argument in file order; empty unless arguments were requested.
    pub args: &'a [(Cow<'a, str>, ArgRef<'a>)],
    /// Number of `args` entries whose id-like value (`taskId`, `task_id`) was not an
    /// integer and was therefore not captured.
    pub bad_task_ids: u8,
}

/// Top-level facts of a trace document (everything except the events).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct TraceDocument {
    /// True when the file is a bare event array.
    pub bare_array: bool,
    /// `displayTimeUnit` (`"ms"` / `"ns"`), when a string.
    pub display_time_unit: Option<String>,
    /// The top-level `metadata` object (host-mode `timeline_metadata`, serving sources).
    pub metadata: Option<serde_json::Value>,
    /// Number of events read.
    pub event_count: u64,
}

/// How [`parse_with`] stores events.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Keep every argument of every event ([`ChromeTrace::args`]). Off for merged traces
    /// (their hint strings would double the memory), on for serving STRACE files.
    pub keep_args: bool,
}

/// A stored argument value; strings are indices into [`ChromeTrace::strings`].
#[derive(Debug, Clone, PartialEq)]
pub enum ArgValue {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Str(u32),
    /// An array or object, as compact JSON text.
    Json(String),
}

/// All arguments of all events: event `e` owns entries `offsets[e]..offsets[e + 1]`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TraceArgs {
    /// `events + 1` entries.
    pub offsets: Vec<u32>,
    /// Interned key.
    pub key: Vec<u32>,
    pub value: Vec<ArgValue>,
}

/// One process of the trace (first appearance order).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TraceProcess {
    pub pid: TraceId,
    /// From the `process_name` metadata event.
    pub name: Option<String>,
    /// From `process_sort_index`.
    pub sort_index: Option<i64>,
}

/// One thread (track) of the trace (first appearance order). `tid == None` is the
/// process-level track of events without `tid` (process metadata, some counters).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TraceThread {
    /// Index into [`ChromeTrace::processes`].
    pub process: u32,
    pub tid: Option<TraceId>,
    /// From the `thread_name` metadata event.
    pub name: Option<String>,
    /// From `thread_sort_index`.
    pub sort_index: Option<i64>,
    /// Events on this track that are not `M`.
    pub event_count: u32,
}

/// Event columns, file order. Columns without a value for an event hold 0 (see `flags`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TraceEvents {
    /// Phase letter.
    pub ph: Vec<u8>,
    /// Interned `name` (`""` when absent).
    pub name: Vec<u32>,
    /// Interned `cat` (`""` when absent).
    pub cat: Vec<u32>,
    /// Interned `cname`, [`NO_STRING`] when absent.
    pub cname: Vec<u32>,
    /// Index into [`ChromeTrace::threads`].
    pub thread: Vec<u32>,
    pub ts_us: Vec<f64>,
    pub dur_us: Vec<f64>,
    pub id: Vec<u64>,
    pub bind_id: Vec<u64>,
    /// `args.taskId` or `args.task_id` (see [`flags::TASK_ID`], [`flags::TASK_ID_SNAKE`]).
    pub task_id: Vec<u64>,
    /// [`flags`] bits.
    pub flags: Vec<u16>,
}

impl TraceEvents {
    pub fn len(&self) -> usize {
        self.ph.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ph.is_empty()
    }
    fn flag(&self, i: usize, bit: u16) -> bool {
        self.flags.get(i).is_some_and(|f| f & bit != 0)
    }
    /// `args.taskId` of event `i`.
    pub fn task_id_of(&self, i: usize) -> Option<u64> {
        self.flag(i, flags::TASK_ID).then(|| self.task_id.get(i).copied()).flatten()
    }
    /// `args.task_id` of event `i` (only when it has no `args.taskId`).
    pub fn task_id_snake_of(&self, i: usize) -> Option<u64> {
        self.flag(i, flags::TASK_ID_SNAKE).then(|| self.task_id.get(i).copied()).flatten()
    }
    /// `id` of event `i`.
    pub fn id_of(&self, i: usize) -> Option<u64> {
        self.flag(i, flags::HAS_ID).then(|| self.id.get(i).copied()).flatten()
    }
    /// `bind_id` of event `i`.
    pub fn bind_id_of(&self, i: usize) -> Option<u64> {
        self.flag(i, flags::HAS_BIND_ID).then(|| self.bind_id.get(i).copied()).flatten()
    }
    /// `ts + dur` of event `i` (µs; `ts` for events without `dur`).
    pub fn end_us(&self, i: usize) -> f64 {
        self.ts_us.get(i).copied().unwrap_or(0.0) + self.dur_us.get(i).copied().unwrap_or(0.0)
    }

    /// Event `i`'s `ts` and `ts + dur` lie within ±[`MAX_TIME_US`] (the views skip it else).
    pub fn in_time_range(&self, i: usize) -> bool {
        let ok = |v: f64| v.abs() <= MAX_TIME_US; // false for NaN too
        ok(self.ts_us.get(i).copied().unwrap_or(0.0)) && ok(self.end_us(i))
    }
}

/// A whole trace in columns.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChromeTrace {
    pub document: TraceDocument,
    /// Interned strings (event names, categories, colour names, argument keys and string
    /// values).
    pub strings: Vec<String>,
    pub processes: Vec<TraceProcess>,
    pub threads: Vec<TraceThread>,
    pub events: TraceEvents,
    /// Present with [`ParseOptions::keep_args`].
    pub args: Option<TraceArgs>,
    /// Non-fatal findings (e.g. non-integer task ids that were skipped).
    pub warnings: Vec<Warning>,
}

impl ChromeTrace {
    /// The interned string `i` (`""` for [`NO_STRING`] or out of range).
    pub fn string(&self, i: u32) -> &str {
        self.strings.get(i as usize).map_or("", String::as_str)
    }

    /// Name of event `i`.
    pub fn event_name(&self, i: usize) -> &str {
        self.events.name.get(i).map_or("", |&n| self.string(n))
    }

    /// Thread of event `i`.
    pub fn event_thread(&self, i: usize) -> Option<&TraceThread> {
        self.events.thread.get(i).and_then(|&t| self.threads.get(t as usize))
    }

    /// Process of event `i`.
    pub fn event_process(&self, i: usize) -> Option<&TraceProcess> {
        self.event_thread(i).and_then(|t| self.processes.get(t.process as usize))
    }

    /// Numeric pid of event `i`.
    pub fn event_pid(&self, i: usize) -> Option<i64> {
        self.event_process(i).and_then(|p| p.pid.as_i64())
    }

    /// Numeric tid of event `i`.
    pub fn event_tid(&self, i: usize) -> Option<i64> {
        self.event_thread(i).and_then(|t| t.tid.as_ref()).and_then(TraceId::as_i64)
    }

    /// Arguments of event `i` as `(key, value)` pairs (empty without `keep_args`).
    pub fn event_args(&self, i: usize) -> impl Iterator<Item = (&str, &ArgValue)> + '_ {
        let range = self.args.as_ref().and_then(|a| {
            let lo = *a.offsets.get(i)? as usize;
            let hi = *a.offsets.get(i + 1)? as usize;
            Some((a, lo..hi))
        });
        range.into_iter().flat_map(move |(a, r)| {
            a.key.get(r.clone()).unwrap_or(&[]).iter().zip(a.value.get(r).unwrap_or(&[])).map(move |(&k, v)| (self.string(k), v))
        })
    }

    /// Argument `key` of event `i` (needs `keep_args`).
    pub fn event_arg(&self, i: usize, key: &str) -> Option<&ArgValue> {
        self.event_args(i).find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// Number of events with phase `ph`.
    pub fn count_phase(&self, ph: u8) -> usize {
        #[allow(clippy::naive_bytecount)] // not hot; no extra dependency for it
        self.events.ph.iter().filter(|&&p| p == ph).count()
    }

    /// Index of the process with numeric pid `pid`.
    pub fn process_index(&self, pid: i64) -> Option<usize> {
        self.processes.iter().position(|p| p.pid == TraceId::Num(pid))
    }
}

// ----------------------------------------------------------------------------------------
// Streaming core
// ----------------------------------------------------------------------------------------

/// Receives events one at a time.
trait EventSink {
    fn wants_args(&self) -> bool;
    fn event(&mut self, e: &EventRef<'_>) -> Result<(), String>;
}

struct ClosureSink<F> {
    want_args: bool,
    f: F,
}

impl<F: FnMut(&EventRef<'_>) -> Result<(), String>> EventSink for ClosureSink<F> {
    fn wants_args(&self) -> bool {
        self.want_args
    }
    fn event(&mut self, e: &EventRef<'_>) -> Result<(), String> {
        (self.f)(e)
    }
}

struct State<'de, 's, S> {
    sink: &'s mut S,
    index: u64,
    in_event: bool,
    seen_events: bool,
    document: TraceDocument,
    args: Vec<(Cow<'de, str>, ArgRef<'de>)>,
}

/// Streams every event of a trace to `f` without storing them. `want_args` fills
/// [`EventRef::args`]. `f` may stop the read by returning an error message (it is reported
/// with the event's index and position). Returns the document's top-level facts.
pub fn for_each_event<F>(path: &str, bytes: &[u8], want_args: bool, f: F) -> Result<TraceDocument, FormatError>
where
    F: FnMut(&EventRef<'_>) -> Result<(), String>,
{
    let mut sink = ClosureSink { want_args, f };
    run(path, bytes, &mut sink)
}

fn run<S: EventSink>(path: &str, bytes: &[u8], sink: &mut S) -> Result<TraceDocument, FormatError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut state = State { sink, index: 0, in_event: false, seen_events: false, document: TraceDocument::default(), args: Vec::new() };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let result = TopSeed { state: &mut state }.deserialize(&mut de).and_then(|()| de.end());
    match result {
        Ok(()) => {
            let mut doc = state.document;
            doc.event_count = state.index;
            Ok(doc)
        }
        Err(e) => {
            let mut err = FormatError::from_json(path, &e);
            if state.in_event {
                err.message = format!("traceEvents[{}]: {}", state.index, err.message);
            }
            Err(err)
        }
    }
}

struct TopSeed<'r, 'de, 's, S> {
    state: &'r mut State<'de, 's, S>,
}

impl<'de, S: EventSink> DeserializeSeed<'de> for TopSeed<'_, 'de, '_, S> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, S: EventSink> Visitor<'de> for TopSeed<'_, 'de, '_, S> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a Chrome trace: an object with a `traceEvents` array, or an event array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        self.state.document.bare_array = true;
        self.state.seen_events = true;
        EventsSeed { state: self.state }.visit_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<CowStr<'de>>()? {
            match key.0.as_ref() {
                "traceEvents" => {
                    if self.state.seen_events {
                        return Err(de::Error::custom("duplicate `traceEvents`"));
                    }
                    self.state.seen_events = true;
                    map.next_value_seed(EventsSeed { state: &mut *self.state })?;
                }
                "displayTimeUnit" => {
                    let v: serde_json::Value = map.next_value()?;
                    self.state.document.display_time_unit = v.as_str().map(str::to_owned);
                }
                "metadata" => {
                    self.state.document.metadata = Some(map.next_value()?);
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if !self.state.seen_events {
            return Err(de::Error::custom(
                "missing `traceEvents`: expected a Chrome trace object with a `traceEvents` \
                 array, or a bare event array",
            ));
        }
        Ok(())
    }
}

struct EventsSeed<'r, 'de, 's, S> {
    state: &'r mut State<'de, 's, S>,
}

impl<'de, S: EventSink> DeserializeSeed<'de> for EventsSeed<'_, 'de, '_, S> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, S: EventSink> Visitor<'de> for EventsSeed<'_, 'de, '_, S> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("the `traceEvents` array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        loop {
            self.state.in_event = true;
            let more = seq.next_element_seed(EventSeed { state: &mut *self.state })?;
            self.state.in_event = false;
            if more.is_none() {
                return Ok(());
            }
            self.state.index += 1;
        }
    }
}

struct EventSeed<'r, 'de, 's, S> {
    state: &'r mut State<'de, 's, S>,
}

impl<'de, S: EventSink> DeserializeSeed<'de> for EventSeed<'_, 'de, '_, S> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, S: EventSink> Visitor<'de> for EventSeed<'_, 'de, '_, S> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a trace event object")
    }

    #[allow(clippy::too_many_lines)] // one flat key dispatch reads best as one function
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let state = self.state;
        let want_args = state.sink.wants_args();
        state.args.clear();
        let mut ph: Option<u8> = None;
        let mut name: Option<Cow<'de, str>> = None;
        let mut cat: Option<Cow<'de, str>> = None;
        let mut cname: Option<Cow<'de, str>> = None;
        let mut pid: Option<IdRef<'de>> = None;
        let mut tid: Option<IdRef<'de>> = None;
        let mut ts_us = None;
        let mut dur_us = None;
        let mut id = None;
        let mut bind_id = None;
        let mut bp_enclosing = false;
        let mut scope = None;
        let mut args = ArgsFound::default();
        while let Some(key) = map.next_key::<CowStr<'de>>()? {
            match key.0.as_ref() {
                "ph" => {
                    let s = map.next_value_seed(StrSeed("ph"))?;
                    match s.as_bytes() {
                        [c] if is_known_phase(*c) => ph = Some(*c),
                        _ => {
                            return Err(de::Error::custom(format!(
                                "unknown ph {s:?}: expected one of the Chrome phase letters \
                                 B E X i I C b n e S T p F s t f P O N D M V v R c ( )"
                            )))
                        }
                    }
                }
                "name" => name = Some(map.next_value_seed(StrSeed("name"))?),
                "cat" => cat = Some(map.next_value_seed(StrSeed("cat"))?),
                "cname" => cname = Some(map.next_value_seed(StrSeed("cname"))?),
                "pid" => pid = Some(map.next_value_seed(IdSeed("pid"))?),
                "tid" => tid = Some(map.next_value_seed(IdSeed("tid"))?),
                "ts" => ts_us = Some(map.next_value_seed(NumSeed("ts"))?),
                "dur" => dur_us = Some(map.next_value_seed(NumSeed("dur"))?),
                "id" => id = map.next_value_seed(FlowIdSeed("id"))?,
                "bind_id" => bind_id = map.next_value_seed(FlowIdSeed("bind_id"))?,
                "bp" => bp_enclosing = map.next_value_seed(StrSeed("bp"))? == "e",
                "s" => {
                    let s = map.next_value_seed(StrSeed("s"))?;
                    scope = s.as_bytes().first().copied();
                }
                "args" => {
                    args = map.next_value_seed(ArgsSeed { want_all: want_args, out: &mut state.args })?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let Some(ph) = ph else {
            return Err(de::Error::custom("event without `ph`"));
        };
        if ph != b'M' && ts_us.is_none() {
            return Err(de::Error::custom(format!("`{}` event without `ts`", char::from(ph))));
        }
        if ph == b'X' && dur_us.is_none() {
            return Err(de::Error::custom("`X` event without `dur`"));
        }
        let event = EventRef {
            index: state.index,
            ph,
            name: name.as_deref().unwrap_or(""),
            cat: cat.as_deref().unwrap_or(""),
            cname: cname.as_deref(),
            pid: pid.as_ref(),
            tid: tid.as_ref(),
            ts_us,
            dur_us,
            id,
            bind_id,
            bp_enclosing,
            scope,
            task_id: args.task_id,
            task_id_snake: args.task_id_snake,
            arg_name: args.name.as_deref(),
            arg_sort_index: args.sort_index,
            args: &state.args,
            bad_task_ids: args.bad_task_ids,
        };
        state.sink.event(&event).map_err(de::Error::custom)
    }
}

#[derive(Default)]
struct ArgsFound<'de> {
    task_id: Option<u64>,
    task_id_snake: Option<u64>,
    name: Option<Cow<'de, str>>,
    sort_index: Option<i64>,
    bad_task_ids: u8,
}

struct ArgsSeed<'r, 'de> {
    want_all: bool,
    out: &'r mut Vec<(Cow<'de, str>, ArgRef<'de>)>,
}

impl<'de> DeserializeSeed<'de> for ArgsSeed<'_, 'de> {
    type Value = ArgsFound<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ArgsFound<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ArgsSeed<'_, 'de> {
    type Value = ArgsFound<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("`args` as an object")
    }
    fn visit_unit<E: de::Error>(self) -> Result<ArgsFound<'de>, E> {
        Ok(ArgsFound::default())
    }
    fn visit_none<E: de::Error>(self) -> Result<ArgsFound<'de>, E> {
        Ok(ArgsFound::default())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ArgsFound<'de>, A::Error> {
        let mut found = ArgsFound::default();
        while let Some(key) = map.next_key::<CowStr<'de>>()? {
            let key = key.0;
            let special = matches!(key.as_ref(), "taskId" | "task_id" | "name" | "sort_index");
            if !special && !self.want_all {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let value = map.next_value::<ArgRefDe<'de>>()?.0;
            match key.as_ref() {
                "taskId" | "task_id" => {
                    let v = value.as_id();
                    if v.is_none() && !matches!(value, ArgRef::Null) {
                        found.bad_task_ids = found.bad_task_ids.saturating_add(1);
                    }
                    if key == "taskId" {
                        found.task_id = v;
                    } else {
                        found.task_id_snake = v;
                    }
                }
                "name" => {
                    if let ArgRef::Str(s) = &value {
                        found.name = Some(s.clone());
                    }
                }
                "sort_index" => {
                    found.sort_index = match value {
                        ArgRef::U64(v) => i64::try_from(v).ok(),
                        ArgRef::I64(v) => Some(v),
                        ArgRef::F64(v) if v.fract() == 0.0 && v.abs() < 9.0e15 => Some(v as i64),
                        _ => None,
                    };
                }
                _ => {}
            }
            if self.want_all {
                self.out.push((key, value));
            }
        }
        Ok(found)
    }
}

/// A string that borrows from the input when it has no escapes.
struct CowStr<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for CowStr<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(StrSeed("key")).map(CowStr)
    }
}

/// A string field; the name goes into the "expected" part of type errors.
struct StrSeed(&'static str);

impl<'de> DeserializeSeed<'de> for StrSeed {
    type Value = Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for StrSeed {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "`{}` as a string", self.0)
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }
}

/// A number field (`ts`, `dur`) as `f64` µs.
struct NumSeed(&'static str);

impl<'de> DeserializeSeed<'de> for NumSeed {
    type Value = f64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<f64, D::Error> {
        d.deserialize_any(self)
    }
}

impl Visitor<'_> for NumSeed {
    type Value = f64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "`{}` as a number (µs)", self.0)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }
}

/// A `pid` / `tid`: an integer (integral floats accepted) or a string.
struct IdSeed(&'static str);

impl<'de> DeserializeSeed<'de> for IdSeed {
    type Value = IdRef<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<IdRef<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for IdSeed {
    type Value = IdRef<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "`{}` as an integer or a string", self.0)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<IdRef<'de>, E> {
        Ok(i64::try_from(v).map_or_else(|_| IdRef::Text(Cow::Owned(v.to_string())), IdRef::Num))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<IdRef<'de>, E> {
        Ok(IdRef::Num(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<IdRef<'de>, E> {
        if v.fract() == 0.0 && v.abs() < 9.0e15 {
            Ok(IdRef::Num(v as i64))
        } else {
            Err(E::invalid_value(de::Unexpected::Float(v), &self))
        }
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<IdRef<'de>, E> {
        Ok(IdRef::Text(Cow::Borrowed(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<IdRef<'de>, E> {
        Ok(IdRef::Text(Cow::Owned(v.to_owned())))
    }
}

/// A flow `id` / `bind_id`: an integer (negative normalised), a decimal or `0x` hex string,
/// or any other string (hashed with FNV-1a, stable). `null` is absent.
struct FlowIdSeed(&'static str);

impl<'de> DeserializeSeed<'de> for FlowIdSeed {
    type Value = Option<u64>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<u64>, D::Error> {
        d.deserialize_any(self)
    }
}

fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

impl Visitor<'_> for FlowIdSeed {
    type Value = Option<u64>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "`{}` as an integer or a string", self.0)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Option<u64>, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<u64>, E> {
        Ok(Some(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Option<u64>, E> {
        Ok(Some(v as u64))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Option<u64>, E> {
        if v.fract() == 0.0 && (0.0..1.8e19).contains(&v) {
            Ok(Some(v as u64))
        } else {
            Err(E::invalid_value(de::Unexpected::Float(v), &self))
        }
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<u64>, E> {
        let t = v.trim();
        let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None => t.parse::<u64>().ok(),
        };
        Ok(Some(parsed.unwrap_or_else(|| fnv1a(v))))
    }
}

/// Any argument value, strings borrowed.
struct ArgRefDe<'de>(ArgRef<'de>);

impl<'de> Deserialize<'de> for ArgRefDe<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ArgRefVisitor)
    }
}

struct ArgRefVisitor;

impl<'de> Visitor<'de> for ArgRefVisitor {
    type Value = ArgRefDe<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an argument value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(ArgRefDe(ArgRef::Null))
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(ArgRefDe(ArgRef::Null))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(ArgRefDe(ArgRef::Bool(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(ArgRefDe(ArgRef::U64(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(ArgRefDe(ArgRef::I64(v)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(ArgRefDe(ArgRef::F64(v)))
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(ArgRefDe(ArgRef::Str(Cow::Borrowed(v))))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(ArgRefDe(ArgRef::Str(Cow::Owned(v.to_owned()))))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(ArgRefDe(ArgRef::Str(Cow::Owned(v))))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let v = serde_json::Value::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
        Ok(ArgRefDe(ArgRef::Json(v.to_string())))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let v = serde_json::Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
        Ok(ArgRefDe(ArgRef::Json(v.to_string())))
    }
}

// ----------------------------------------------------------------------------------------
// Column builder
// ----------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum TidKey {
    None,
    Num(i64),
    Text(u32),
}

struct Builder {
    keep_args: bool,
    strings: Interner,
    id_texts: Interner,
    processes: Vec<TraceProcess>,
    process_by_num: HashMap<i64, u32>,
    process_by_text: HashMap<u32, u32>,
    threads: Vec<TraceThread>,
    thread_by_key: HashMap<(u32, TidKey), u32>,
    last_thread: Option<(Option<i64>, Option<i64>, u32)>,
    events: TraceEvents,
    args: TraceArgs,
    bad_task_ids: u64,
}

fn to_u32(n: usize, what: &str) -> Result<u32, String> {
    u32::try_from(n).map_err(|_| format!("too many {what} (more than 2^32)"))
}

impl Builder {
    fn process_of(&mut self, pid: Option<&IdRef<'_>>) -> Result<u32, String> {
        let next = to_u32(self.processes.len(), "processes")?;
        let (slot, owned) = match pid {
            None => (self.process_by_num.entry(0), TraceId::Num(0)),
            Some(IdRef::Num(n)) => (self.process_by_num.entry(*n), TraceId::Num(*n)),
            Some(IdRef::Text(s)) => {
                let k = self.id_texts.intern(s);
                let idx = *self.process_by_text.entry(k).or_insert(next);
                if idx == next {
                    self.processes.push(TraceProcess { pid: TraceId::Text(s.as_ref().to_owned()), name: None, sort_index: None });
                }
                return Ok(idx);
            }
        };
        let idx = *slot.or_insert(next);
        if idx == next {
            self.processes.push(TraceProcess { pid: owned, name: None, sort_index: None });
        }
        Ok(idx)
    }

    fn thread_of(&mut self, pid: Option<&IdRef<'_>>, tid: Option<&IdRef<'_>>) -> Result<u32, String> {
        let pid_num = match pid {
            None => Some(0),
            Some(p) => p.as_i64(),
        };
        let tid_num = tid.and_then(IdRef::as_i64);
        let numeric = pid_num.is_some() && (tid.is_none() || tid_num.is_some());
        if numeric {
            if let Some((p, t, idx)) = self.last_thread {
                if p == pid_num && t == tid_num {
                    return Ok(idx);
                }
            }
        }
        let process = self.process_of(pid)?;
        let key = match tid {
            None => TidKey::None,
            Some(IdRef::Num(n)) => TidKey::Num(*n),
            Some(IdRef::Text(s)) => TidKey::Text(self.id_texts.intern(s)),
        };
        let next = to_u32(self.threads.len(), "threads")?;
        let idx = *self.thread_by_key.entry((process, key)).or_insert(next);
        if idx == next {
            self.threads.push(TraceThread { process, tid: tid.map(IdRef::to_owned_id), name: None, sort_index: None, event_count: 0 });
        }
        if numeric {
            self.last_thread = Some((pid_num, tid_num, idx));
        }
        Ok(idx)
    }

    fn apply_metadata(&mut self, e: &EventRef<'_>, thread: u32) {
        let Some(t) = self.threads.get_mut(thread as usize) else {
            return;
        };
        match e.name {
            "process_name" => {
                if let (Some(p), Some(n)) = (self.processes.get_mut(t.process as usize), e.arg_name) {
                    p.name = Some(n.to_owned());
                }
            }
            "process_sort_index" => {
                if let (Some(p), Some(s)) = (self.processes.get_mut(t.process as usize), e.arg_sort_index) {
                    p.sort_index = Some(s);
                }
            }
            "thread_name" => {
                if let Some(n) = e.arg_name {
                    t.name = Some(n.to_owned());
                }
            }
            "thread_sort_index" if e.arg_sort_index.is_some() => {
                t.sort_index = e.arg_sort_index;
            }
            _ => {}
        }
    }

    fn finish(self, document: TraceDocument) -> ChromeTrace {
        let mut warnings = Vec::new();
        if self.bad_task_ids > 0 {
            warnings.push(
                Warning::analysis(
                    WarningKind::TraceBadTaskIds,
                    format!("{} args.taskId/args.task_id values were not integers and were ignored", self.bad_task_ids),
                )
                .count("count", self.bad_task_ids),
            );
        }
        let mut args = self.args;
        args.offsets.push(args.key.len() as u32);
        ChromeTrace {
            document,
            strings: self.strings.names,
            processes: self.processes,
            threads: self.threads,
            events: self.events,
            args: self.keep_args.then_some(args),
            warnings,
        }
    }
}

impl EventSink for Builder {
    fn wants_args(&self) -> bool {
        self.keep_args
    }

    fn event(&mut self, e: &EventRef<'_>) -> Result<(), String> {
        let thread = self.thread_of(e.pid, e.tid)?;
        if e.ph == b'M' {
            self.apply_metadata(e, thread);
        } else if let Some(t) = self.threads.get_mut(thread as usize) {
            t.event_count = t.event_count.saturating_add(1);
        }
        let mut fl = 0u16;
        let ev = &mut self.events;
        ev.ph.push(e.ph);
        ev.name.push(self.strings.intern(e.name));
        ev.cat.push(self.strings.intern(e.cat));
        ev.cname.push(e.cname.map_or(NO_STRING, |c| self.strings.intern(c)));
        ev.thread.push(thread);
        if e.ts_us.is_some() {
            fl |= flags::HAS_TS;
        }
        ev.ts_us.push(e.ts_us.unwrap_or(0.0));
        if e.dur_us.is_some() {
            fl |= flags::HAS_DUR;
        }
        ev.dur_us.push(e.dur_us.unwrap_or(0.0));
        if e.id.is_some() {
            fl |= flags::HAS_ID;
        }
        ev.id.push(e.id.unwrap_or(0));
        if e.bind_id.is_some() {
            fl |= flags::HAS_BIND_ID;
        }
        ev.bind_id.push(e.bind_id.unwrap_or(0));
        if let Some(t) = e.task_id {
            fl |= flags::TASK_ID;
            ev.task_id.push(t);
        } else if let Some(t) = e.task_id_snake {
            fl |= flags::TASK_ID_SNAKE;
            ev.task_id.push(t);
        } else {
            ev.task_id.push(0);
        }
        if e.bp_enclosing {
            fl |= flags::BP_ENCLOSING;
        }
        fl |= match e.scope {
            Some(b't') => flags::SCOPE_THREAD,
            Some(b'p') => flags::SCOPE_PROCESS,
            Some(b'g') => flags::SCOPE_GLOBAL,
            _ => 0,
        };
        ev.flags.push(fl);
        self.bad_task_ids += u64::from(e.bad_task_ids);
        if self.keep_args {
            self.args.offsets.push(to_u32(self.args.key.len(), "arguments")?);
            for (k, v) in e.args {
                self.args.key.push(self.strings.intern(k));
                let stored = match v {
                    ArgRef::Null => ArgValue::Null,
                    ArgRef::Bool(b) => ArgValue::Bool(*b),
                    ArgRef::U64(x) => ArgValue::U64(*x),
                    ArgRef::I64(x) => ArgValue::I64(*x),
                    ArgRef::F64(x) => ArgValue::F64(*x),
                    ArgRef::Str(s) => ArgValue::Str(self.strings.intern(s)),
                    ArgRef::Json(j) => ArgValue::Json(j.clone()),
                };
                self.args.value.push(stored);
            }
        }
        Ok(())
    }
}

/// Reads a whole trace into columns (arguments other than the captured ones are dropped).
pub fn parse(path: &str, bytes: &[u8]) -> Result<ChromeTrace, FormatError> {
    parse_with(path, bytes, ParseOptions::default())
}

/// Reads a whole trace into columns with `options`.
pub fn parse_with(path: &str, bytes: &[u8], options: ParseOptions) -> Result<ChromeTrace, FormatError> {
    let mut b = Builder {
        keep_args: options.keep_args,
        strings: Interner::default(),
        id_texts: Interner::default(),
        processes: Vec::new(),
        process_by_num: HashMap::new(),
        process_by_text: HashMap::new(),
        threads: Vec::new(),
        thread_by_key: HashMap::new(),
        last_thread: None,
        events: TraceEvents::default(),
        args: TraceArgs::default(),
        bad_task_ids: 0,
    };
    b.strings.intern("");
    let document = run(path, bytes, &mut b)?;
    Ok(b.finish(document))
}
