//! Reader for `host_phase_records.jsonl` (runtime-formats.md §1.16, §7.1): the per-pass host
//! prepare records a `host_build_graph` runtime writes, one JSON object per line
//! `{"pid", "inv", "clock"?, "dropped"?, "records": [{"phase", "start_ns", "end_ns",
//! "detail"?, "tid"?}]}`. For the swimlane's Host Prepare lanes
//! (`pypto_analysis::host_phases` places them) and the CLI report.
//!
//! Behaviour follows the reference loader (`strace_timing.load_host_phase_records` and
//! `host_record_spans`): the file is appended to while a run is in flight, so a line that is
//! not JSON (a truncated tail), not an object, or whose `records` is not an array is skipped,
//! not fatal; so is a record without an integer `start_ns`/`end_ns` or without `phase`.
//! Every skip is reported in [`HostPhaseRecords::warnings`] as a [`Warning`] naming the
//! line (and column), and so is a pass whose `dropped` count is not 0, and a file with no
//! pass at all. Blank lines are ignored, and so is a leading byte order mark. Times stay
//! exact `u64` ns on the host `CLOCK_MONOTONIC` axis; a string of digits is accepted where
//! the reference's `int()` would accept it.

use crate::json_util::Interner;
use crate::FormatError;
use pypto_vocab::{Warning, WarningKind};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

/// One prepare pass per line, and its records as columns.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct HostPhaseRecords {
    /// Per pass: `pid` (OS process id), when an integer.
    pub pass_pid: Vec<Option<u64>>,
    /// Per pass: `inv` (invocation number), when an integer.
    pub pass_inv: Vec<Option<u64>>,
    /// Per pass: `clock` (e.g. `host_monotonic_ns`).
    pub pass_clock: Vec<Option<String>>,
    /// Per pass: `dropped` records count (0 when absent).
    pub pass_dropped: Vec<u64>,
    /// Per pass: 1-based line in the file.
    pub pass_line: Vec<u64>,
    /// Per pass: its records are `record_offsets[p]..record_offsets[p + 1]`
    /// (`passes + 1` entries).
    pub record_offsets: Vec<u32>,
    /// Per record: index into `phase_names`.
    pub phase: Vec<u32>,
    pub start_ns: Vec<u64>,
    pub end_ns: Vec<u64>,
    /// `detail` (a byte count or an id, meaning per phase; 0 when absent).
    pub detail: Vec<u64>,
    /// Producer Linux tid, when present and positive.
    pub tid: Vec<Option<u64>>,
    /// Interned phase names (`args`, `arena_build`, `host_orch`, `submit_task`, ...).
    pub phase_names: Vec<String>,
    /// Skipped lines and records, each with its line.
    pub warnings: Vec<Warning>,
}

impl HostPhaseRecords {
    /// Number of passes (lines kept).
    pub fn pass_count(&self) -> usize {
        self.pass_line.len()
    }
    /// Number of records over all passes.
    pub fn record_count(&self) -> usize {
        self.phase.len()
    }
    /// Phase name of record `r`.
    pub fn phase_name(&self, r: usize) -> &str {
        self.phase.get(r).and_then(|&p| self.phase_names.get(p as usize)).map_or("", String::as_str)
    }
    /// Record index range of pass `p`.
    pub fn records_of(&self, p: usize) -> std::ops::Range<usize> {
        let lo = self.record_offsets.get(p).copied().unwrap_or(0) as usize;
        let hi = self.record_offsets.get(p + 1).copied().unwrap_or(0) as usize;
        lo..hi.max(lo)
    }
    /// `max(0, end - start)` of record `r`, as the reference computes the span length.
    pub fn duration_ns(&self, r: usize) -> u64 {
        let s = self.start_ns.get(r).copied().unwrap_or(0);
        self.end_ns.get(r).copied().unwrap_or(0).saturating_sub(s)
    }
}

/// A JSON integer or digit string as u64 (the reference's `int(...)`); floats truncate.
#[derive(Clone, Copy)]
struct IntLike(Option<u64>);

impl<'de> Deserialize<'de> for IntLike {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = IntLike;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<IntLike, E> {
                Ok(IntLike(Some(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<IntLike, E> {
                Ok(IntLike(u64::try_from(v).ok()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<IntLike, E> {
                Ok(IntLike(((0.0..1.8e19).contains(&v)).then(|| v.trunc() as u64)))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<IntLike, E> {
                Ok(IntLike(Some(u64::from(v))))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<IntLike, E> {
                Ok(IntLike(v.trim().parse::<u64>().ok()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<IntLike, E> {
                Ok(IntLike(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<IntLike, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(IntLike(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<IntLike, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(IntLike(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// A value kept only when it is a string or a number (`phase`, `clock`; the reference applies
/// `str()` to `phase`); anything else is consumed and dropped.
#[derive(Clone)]
struct Text(Option<String>);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text, E> {
                Ok(Text(Some(v.to_owned())))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Text, E> {
                Ok(Text(Some(v.to_string())))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Text, E> {
                Ok(Text(Some(v.to_string())))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Text, E> {
                Ok(Text(Some(v.to_string())))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Text, E> {
                Ok(Text(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Text, E> {
                Ok(Text(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Text, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Text(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Text, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Text(None))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Default)]
struct RawRecord {
    phase: Option<String>,
    start_ns: Option<u64>,
    end_ns: Option<u64>,
    detail: Option<u64>,
    tid: Option<u64>,
}

/// One element of `records`: an object (read leniently, like the reference's
/// `try: int(record["start_ns"]) ...`) or anything else (`None`, skipped).
struct LenientRecord(Option<RawRecord>);

impl<'de> Deserialize<'de> for LenientRecord {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LenientRecord;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a record object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<LenientRecord, A::Error> {
                let mut r = RawRecord::default();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match key.as_ref() {
                        "phase" => r.phase = map.next_value::<Text>()?.0,
                        "start_ns" => r.start_ns = map.next_value::<IntLike>()?.0,
                        "end_ns" => r.end_ns = map.next_value::<IntLike>()?.0,
                        "detail" => r.detail = map.next_value::<IntLike>()?.0,
                        "tid" => r.tid = map.next_value::<IntLike>()?.0,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(LenientRecord(Some(r)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<LenientRecord, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(LenientRecord(None))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<LenientRecord, E> {
                Ok(LenientRecord(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<LenientRecord, E> {
                Ok(LenientRecord(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<LenientRecord, E> {
                Ok(LenientRecord(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<LenientRecord, E> {
                Ok(LenientRecord(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<LenientRecord, E> {
                Ok(LenientRecord(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<LenientRecord, E> {
                Ok(LenientRecord(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// `records`: kept only when it is an array.
enum RawRecords {
    List(Vec<Option<RawRecord>>),
    NotAList,
}

#[derive(Default)]
struct RawPass {
    pid: Option<u64>,
    inv: Option<u64>,
    clock: Option<String>,
    dropped: Option<u64>,
    records: Option<RawRecords>,
}

/// A line: a pass object, or anything else (`None`, skipped).
struct LenientPass(Option<RawPass>);

impl<'de> Deserialize<'de> for LenientPass {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LenientPass;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a pass object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<LenientPass, A::Error> {
                let mut p = RawPass::default();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match key.as_ref() {
                        "pid" => p.pid = map.next_value::<IntLike>()?.0,
                        "inv" => p.inv = map.next_value::<IntLike>()?.0,
                        "clock" => p.clock = map.next_value::<Text>()?.0,
                        "dropped" => p.dropped = map.next_value::<IntLike>()?.0,
                        "records" => p.records = Some(map.next_value::<RecordsDe>()?.0),
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(LenientPass(Some(p)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<LenientPass, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(LenientPass(None))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<LenientPass, E> {
                Ok(LenientPass(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<LenientPass, E> {
                Ok(LenientPass(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<LenientPass, E> {
                Ok(LenientPass(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<LenientPass, E> {
                Ok(LenientPass(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<LenientPass, E> {
                Ok(LenientPass(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<LenientPass, E> {
                Ok(LenientPass(None))
            }
        }
        d.deserialize_any(V)
    }
}

struct RecordsDe(RawRecords);

impl<'de> Deserialize<'de> for RecordsDe {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RecordsDe;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("`records` as an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RecordsDe, A::Error> {
                let mut out = Vec::new();
                while let Some(r) = seq.next_element::<LenientRecord>()? {
                    out.push(r.0);
                }
                Ok(RecordsDe(RawRecords::List(out)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RecordsDe, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(RecordsDe(RawRecords::NotAList))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<RecordsDe, E> {
                Ok(RecordsDe(RawRecords::NotAList))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<RecordsDe, E> {
                Ok(RecordsDe(RawRecords::NotAList))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<RecordsDe, E> {
                Ok(RecordsDe(RawRecords::NotAList))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<RecordsDe, E> {
                Ok(RecordsDe(RawRecords::NotAList))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<RecordsDe, E> {
                Ok(RecordsDe(RawRecords::NotAList))
            }
            fn visit_unit<E: de::Error>(self) -> Result<RecordsDe, E> {
                // `records: null`: the reference's `isinstance(None, list)` is false.
                Ok(RecordsDe(RawRecords::NotAList))
            }
        }
        d.deserialize_any(V)
    }
}

/// Reads the file. Never fails on content: malformed lines and records are skipped and
/// listed in `warnings` (the reference skips them silently).
pub fn parse(path: &str, bytes: &[u8]) -> Result<HostPhaseRecords, FormatError> {
    let mut out = HostPhaseRecords::default();
    let mut phases = Interner::default();
    out.record_offsets.push(0);
    let mut line_no = 0u64;
    // A byte order mark is not content (the lines after it read the same).
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    for raw_line in bytes.split(|&b| b == b'\n') {
        line_no += 1;
        let line = raw_line.trim_ascii();
        if line.is_empty() {
            continue;
        }
        let lead = (raw_line.len() - raw_line.trim_ascii_start().len()) as u64;
        // `reason` selects the catalogue's sentence (the page's words); `msg` is the English.
        let warn = |out: &mut HostPhaseRecords, column: u64, reason: &str, msg: String| {
            out.warnings.push(Warning::at(WarningKind::HostPhaseSkipped, path, line_no, column, msg).text("reason", reason));
        };
        let pass = match serde_json::from_slice::<LenientPass>(line) {
            Err(e) => {
                let (reason, what) =
                    if e.is_eof() { ("truncated", "line ends early (truncated?)") } else { ("not-json", "not valid JSON") };
                warn(&mut out, lead + e.column() as u64, reason, format!("{what}, pass skipped"));
                continue;
            }
            Ok(LenientPass(None)) => {
                warn(
                    &mut out,
                    lead + 1,
                    "not-a-pass",
                    "expected a pass object `{\"pid\", \"inv\", \"records\": [...]}`, line skipped".to_owned(),
                );
                continue;
            }
            Ok(LenientPass(Some(p))) => p,
        };
        let records = match pass.records {
            None => Vec::new(),
            Some(RawRecords::List(r)) => r,
            Some(RawRecords::NotAList) => {
                warn(&mut out, lead + 1, "records-not-array", "`records` is not an array, pass skipped".to_owned());
                continue;
            }
        };
        for (k, rec) in records.into_iter().enumerate() {
            let parsed = rec.and_then(|r| Some((r.phase?, r.start_ns?, r.end_ns?, r.detail, r.tid)));
            let Some((phase, start, end, detail, tid)) = parsed else {
                out.warnings.push(
                    Warning::at(
                        WarningKind::HostPhaseSkipped,
                        path,
                        line_no,
                        lead + 1,
                        format!("records[{k}]: expected `phase` and integer `start_ns`/`end_ns`, record skipped"),
                    )
                    .text("reason", "bad-record")
                    .text("index", k),
                );
                continue;
            };
            out.phase.push(phases.intern(&phase));
            out.start_ns.push(start);
            out.end_ns.push(end);
            out.detail.push(detail.unwrap_or(0));
            out.tid.push(tid.filter(|&t| t > 0));
        }
        if let Some(dropped) = pass.dropped.filter(|&d| d > 0) {
            out.warnings.push(
                Warning::at(
                    WarningKind::HostPhaseRecordsDropped,
                    path,
                    line_no,
                    lead + 1,
                    format!("the recorder dropped {dropped} record(s) of this pass: its phases are incomplete"),
                )
                .count("count", dropped),
            );
        }
        out.pass_pid.push(pass.pid);
        out.pass_inv.push(pass.inv);
        out.pass_clock.push(pass.clock);
        out.pass_dropped.push(pass.dropped.unwrap_or(0));
        out.pass_line.push(line_no);
        let n = u32::try_from(out.phase.len()).map_err(|_| FormatError::at(path, line_no, 0, "more than 2^32 records"))?;
        out.record_offsets.push(n);
    }
    out.phase_names = phases.names;
    if out.pass_line.is_empty() && out.warnings.is_empty() {
        out.warnings.push(
            Warning::at(
                WarningKind::HostPhaseSkipped,
                path,
                1,
                1,
                "the file holds no prepare pass (empty): no host prepare phases to show",
            )
            .text("reason", "empty"),
        );
    }
    Ok(out)
}
