//! Swimlane of any Chrome Trace Event JSON (the serving STRACE swimlane,
//! runtime-formats.md §7.3 and toolkit-features.md K; `merged_swimlane*.json`, the
//! `CPM_*.json` copies and whatever users used to open in Perfetto, §6.4), laid out as flat
//! columns of the same shape as the chip swimlane's [`crate::timeline::Timeline`], so the
//! worker can hand them to the page's WebGL swimlane unchanged. Also the queries on it the
//! worker answers: bar details (the event's arguments), search and range statistics.
//!
//! Layout rules:
//! - one group per process, labelled with its `process_name` (else `pid <pid>`), ordered by
//!   `process_sort_index`, a process without one sorting as its first-appearance position
//!   (so the STRACE process, whose sort index is the number of serving processes, comes
//!   after them), ties by first appearance;
//! - one track per thread that has drawable events, labelled with its `thread_name` (else
//!   `tid <tid>`), ordered the same way by `thread_sort_index` within the process; the STRACE
//!   process's lanes are its `device N` threads;
//! - `X` spans, and `B`/`E` pairs matched per thread (an unmatched `B` ends at the thread's
//!   last timestamp), nest into rows: a span goes to the first row whose last span ended at
//!   or before its start *below every still-open enclosing span* (a stack, the Chrome/Perfetto
//!   depth rule), so a row never holds two overlapping bars; ties in start put the longer
//!   span first (the parent);
//! - instants (`i`/`I`, and `X` of zero duration are spans) go to one extra row below the
//!   spans, flagged [`FLAG_MARKER`] (drawn as thin ticks at any zoom);
//! - counters, flows, async and object events are not drawn; they are counted in
//!   [`TraceTimeline::not_drawn`]; so are events whose time (`ts`, or `ts + dur`) lies
//!   beyond ±2^63 ns, which Perfetto cannot represent either (a warning says how many); an
//!   `X` span with a negative `dur` is drawn with zero length (a warning too);
//! - colour: by event name (K3) with a trailing `(…)` argument removed (`qk(r1t5)` → `qk`,
//!   `complete(4)` → `complete`, so one kernel or phase keeps one colour); bars of the STRACE
//!   device lanes (`"<tag> <callable> | <stage>"`) are coloured by their stage. Keys are the
//!   colour names in order of first appearance (legend order).
//!
//! Controller threads (the targets of the toolbar's "fold main threads", K4): in serving
//! processes, the thread named `MainThread` (or containing `controller`), or whose tid equals
//! the pid. Folding is done by the page (a track shows its first row only); every other lane
//! of the process stays.

#![allow(clippy::many_single_char_names, clippy::similar_names, clippy::cast_possible_wrap)] // short names over columns (t, s, g, e), as in `timeline`; positions are far below 2^63

use crate::timeline::{RenderColumns, FLAG_MARKER, NO_TASK};
use crate::timeline_query::{fuzzy_score, BarAt, Hit};
use pypto_formats::chrome_trace::{flags, ArgValue, ChromeTrace, TraceId};
use pypto_formats::strace::{self, ProcessKind, ServingStrace};
use pypto_formats::{Warning, WarningKind};
use std::collections::HashMap;
use std::fmt::Write as _;

/// One process group.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceGroup {
    pub label: String,
    /// Index into the trace's processes.
    pub process: u32,
    pub tracks: Vec<u32>,
}

/// One thread track.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceTrack {
    pub label: String,
    pub group: u32,
    /// Index into the trace's threads.
    pub thread: u32,
    /// Span rows plus the instant row (when the thread has instants).
    pub rows: u32,
    /// Row of the instants, when any.
    pub instant_row: Option<u32>,
    /// A controller / main thread of a serving process (see the module doc).
    pub controller: bool,
}

/// The built swimlane.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TraceTimeline {
    pub groups: Vec<TraceGroup>,
    pub tracks: Vec<TraceTrack>,
    /// `tracks + 1` offsets into the per-bar columns.
    pub track_offsets: Vec<u32>,
    /// Per bar: the event index (for `B`/`E` pairs, the `B`).
    pub event: Vec<u32>,
    /// Per bar: index into `names` (the event name).
    pub name_index: Vec<u32>,
    pub names: Vec<String>,
    /// Per bar: index into `names` of its colour name (range statistics group by it).
    pub color_name: Vec<u32>,
    pub columns: RenderColumns,
    /// `(color_key, colour name, bars)`, ascending key.
    pub legend: Vec<(u32, String, u64)>,
    pub first_start_us: f64,
    pub last_end_us: f64,
    pub spans: u64,
    pub instants: u64,
    /// Timed events that are not drawn (counters, flows, async, …; `E` without `B`).
    pub not_drawn: u64,
    pub warnings: Vec<Warning>,
}

/// The colour name of an event: its name without a trailing `(…)`, or the stage of a STRACE
/// device bar.
pub fn color_name(name: &str, device_lane: bool) -> &str {
    if device_lane {
        if let Some(bar) = strace::split_bar_name(name) {
            return bar.stage;
        }
    }
    match name.strip_suffix(')').and_then(|s| s.rfind('(').map(|i| (s, i))) {
        Some((s, i)) if i > 0 => s.get(..i).unwrap_or(name).trim_end(),
        _ => name,
    }
}

fn is_controller(kind: ProcessKind, pid: Option<&TraceId>, tid: Option<&TraceId>, name: Option<&str>) -> bool {
    if kind == ProcessKind::HostStrace {
        return false;
    }
    let by_name = name.is_some_and(|n| n == "MainThread" || n.to_ascii_lowercase().contains("controller"));
    let by_id = matches!((pid, tid), (Some(TraceId::Num(p)), Some(TraceId::Num(t))) if p == t);
    by_name || by_id
}

struct Item {
    start: f64,
    end: f64,
    event: u32,
    instant: bool,
}

#[derive(Default)]
struct Names {
    names: Vec<String>,
    ids: HashMap<String, u32>,
}

impl Names {
    fn intern(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.ids.get(s) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(s.to_owned());
        self.ids.insert(s.to_owned(), i);
        i
    }
}

/// `traceEvents[i] "name"`, for a warning's first example.
fn event_label(trace: &ChromeTrace, i: usize) -> String {
    let name = trace.events.name.get(i).and_then(|&n| trace.strings.get(n as usize)).map_or("", String::as_str);
    format!("traceEvents[{i}] {name:?}")
}

/// Groups the drawable events per thread: `X` spans, matched `B`/`E` pairs, instants.
fn items_per_thread(trace: &ChromeTrace, out: &mut TraceTimeline) -> Vec<Vec<Item>> {
    let ev = &trace.events;
    let mut per: Vec<Vec<Item>> = (0..trace.threads.len()).map(|_| Vec::new()).collect();
    let mut open: Vec<Vec<(u32, f64)>> = (0..trace.threads.len()).map(|_| Vec::new()).collect();
    let mut last_ts: Vec<f64> = vec![f64::NEG_INFINITY; trace.threads.len()];
    let mut unmatched_e = 0u64;
    // (count, first event) of `X` spans with a negative `dur`, of events out of time range.
    let (mut negative, mut out_of_range): ((u64, usize), (u64, usize)) = ((0, 0), (0, 0));
    let note = |c: &mut (u64, usize), i: usize| {
        if c.0 == 0 {
            c.1 = i;
        }
        c.0 += 1;
    };
    for i in 0..ev.len() {
        let ph = ev.ph.get(i).copied().unwrap_or(b'M');
        if ph == b'M' {
            continue;
        }
        let t = ev.thread.get(i).copied().unwrap_or(0) as usize;
        let ts = ev.ts_us.get(i).copied().unwrap_or(0.0);
        if !ev.in_time_range(i) {
            note(&mut out_of_range, i);
            out.not_drawn += 1;
            continue;
        }
        if ph == b'X' && ev.dur_us.get(i).is_some_and(|&d| d < 0.0) {
            note(&mut negative, i);
        }
        if let Some(l) = last_ts.get_mut(t) {
            *l = l.max(ev.end_us(i));
        }
        let Some(items) = per.get_mut(t) else { continue };
        match ph {
            b'X' => {
                let dur = ev.dur_us.get(i).copied().unwrap_or(0.0).max(0.0);
                items.push(Item { start: ts, end: ts + dur, event: i as u32, instant: false });
                out.spans += 1;
            }
            b'i' | b'I' => {
                items.push(Item { start: ts, end: ts, event: i as u32, instant: true });
                out.instants += 1;
            }
            b'B' => {
                if let Some(stack) = open.get_mut(t) {
                    stack.push((i as u32, ts));
                }
            }
            b'E' => {
                if let Some((b, start)) = open.get_mut(t).and_then(Vec::pop) {
                    items.push(Item { start, end: ts.max(start), event: b, instant: false });
                    out.spans += 1;
                } else {
                    unmatched_e += 1;
                    out.not_drawn += 1;
                }
            }
            _ => out.not_drawn += 1,
        }
    }
    let mut unmatched_b = 0u64;
    for (t, stack) in open.into_iter().enumerate() {
        let end = last_ts.get(t).copied().unwrap_or(0.0);
        for (b, start) in stack {
            unmatched_b += 1;
            if let Some(items) = per.get_mut(t) {
                items.push(Item { start, end: end.max(start), event: b, instant: false });
                out.spans += 1;
            }
        }
    }
    odd_event_warnings(trace, out, (unmatched_b, unmatched_e), negative, out_of_range);
    per
}

/// The warnings of events not drawn as written: `B` without `E` and `E` without `B` (counts),
/// negative durations and times out of range (count, first event).
fn odd_event_warnings(
    trace: &ChromeTrace,
    out: &mut TraceTimeline,
    (unmatched_b, unmatched_e): (u64, u64),
    negative: (u64, usize),
    out_of_range: (u64, usize),
) {
    if unmatched_b > 0 {
        out.warnings.push(
            Warning::analysis(
                WarningKind::TraceUnmatchedBegin,
                format!("{unmatched_b} B event(s) without an E: drawn up to the thread's last timestamp"),
            )
            .count("count", unmatched_b),
        );
    }
    if unmatched_e > 0 {
        out.warnings.push(
            Warning::analysis(WarningKind::TraceUnmatchedEnd, format!("{unmatched_e} E event(s) without a B: not drawn"))
                .count("count", unmatched_e),
        );
    }
    if negative.0 > 0 {
        let first = event_label(trace, negative.1);
        out.warnings.push(
            Warning::analysis(
                WarningKind::TraceNegativeDuration,
                format!("{} X event(s) with a negative dur, drawn with zero length (first: {first})", negative.0),
            )
            .count("count", negative.0)
            .text("first", first),
        );
    }
    if out_of_range.0 > 0 {
        let first = event_label(trace, out_of_range.1);
        out.warnings.push(
            Warning::analysis(
                WarningKind::TraceTimeOutOfRange,
                format!(
                    "{} event(s) with a time beyond ±2^63 ns (±292 years, Perfetto's range), not drawn (first: {first})",
                    out_of_range.0
                ),
            )
            .count("count", out_of_range.0)
            .text("first", first),
        );
    }
}

/// Builds the swimlane of `s` (any Chrome trace, classified by [`strace::from_trace`]).
#[allow(clippy::too_many_lines)] // groups, tracks, rows and columns in one pass reads best
pub fn build(s: &ServingStrace) -> TraceTimeline {
    let trace = &s.trace;
    let mut out = TraceTimeline { track_offsets: vec![0], ..TraceTimeline::default() };
    let mut per = items_per_thread(trace, &mut out);
    let mut names = Names::default();
    let mut color_keys: HashMap<u32, u32> = HashMap::new(); // colour-name index → key
    let mut legend: Vec<(u32, u32, u64)> = Vec::new(); // (key, name index, bars)
    let device_threads: Vec<u32> = s.device_lanes.iter().map(|l| l.thread).collect();
    // Processes: sort index, then first appearance.
    let mut procs: Vec<usize> = (0..trace.processes.len()).collect();
    procs.sort_by_key(|&p| (trace.processes.get(p).and_then(|x| x.sort_index).unwrap_or(p as i64), p));
    let mut first = f64::INFINITY;
    let mut last = f64::NEG_INFINITY;
    for p in procs {
        let Some(process) = trace.processes.get(p) else { continue };
        let kind = s.processes.get(p).map_or(ProcessKind::Serving, |x| x.kind);
        let mut threads: Vec<usize> = (0..trace.threads.len())
            .filter(|&t| trace.threads.get(t).is_some_and(|x| x.process as usize == p) && per.get(t).is_some_and(|v| !v.is_empty()))
            .collect();
        if threads.is_empty() {
            continue;
        }
        let position: HashMap<usize, i64> = threads.iter().enumerate().map(|(k, &t)| (t, k as i64)).collect();
        threads.sort_by_key(|&t| {
            (trace.threads.get(t).and_then(|x| x.sort_index).unwrap_or_else(|| position.get(&t).copied().unwrap_or(0)), t)
        });
        let group = out.groups.len() as u32;
        let label = match &process.name {
            Some(n) => format!("{n} · pid {}", process.pid),
            None => format!("pid {}", process.pid),
        };
        out.groups.push(TraceGroup { label, process: p as u32, tracks: Vec::new() });
        for t in threads {
            let Some(thread) = trace.threads.get(t) else { continue };
            let mut items = per.get_mut(t).map(std::mem::take).unwrap_or_default();
            items.sort_by(|a, b| a.start.total_cmp(&b.start).then(b.end.total_cmp(&a.end)).then(a.event.cmp(&b.event)));
            // Depth rows (stack rule), instants on the last row.
            let mut stack: Vec<f64> = Vec::new();
            let mut rows_of: Vec<u32> = Vec::with_capacity(items.len());
            let mut span_rows = 0u32;
            let mut has_instants = false;
            for it in &items {
                if it.instant {
                    has_instants = true;
                    rows_of.push(0);
                    continue;
                }
                while stack.last().is_some_and(|&end| end <= it.start) {
                    stack.pop();
                }
                let row = stack.len() as u32;
                stack.push(it.end);
                span_rows = span_rows.max(row + 1);
                rows_of.push(row);
            }
            let instant_row = has_instants.then_some(span_rows);
            let rows = span_rows + u32::from(has_instants);
            let device = device_threads.contains(&(t as u32));
            let track = out.tracks.len() as u32;
            let label = match (&thread.name, &thread.tid) {
                (Some(n), _) => n.clone(),
                (None, Some(tid)) => format!("tid {tid}"),
                (None, None) => "process".to_owned(),
            };
            let controller = is_controller(kind, Some(&process.pid), thread.tid.as_ref(), thread.name.as_deref());
            out.tracks.push(TraceTrack { label, group, thread: t as u32, rows: rows.max(1), instant_row, controller });
            if let Some(g) = out.groups.get_mut(group as usize) {
                g.tracks.push(track);
            }
            let c = &mut out.columns;
            for (it, row) in items.iter().zip(rows_of) {
                let e = it.event as usize;
                let name = trace.event_name(e);
                let n = names.intern(name);
                let cn = names.intern(color_name(name, device));
                let next = color_keys.len() as u32;
                let key = *color_keys.entry(cn).or_insert_with(|| {
                    legend.push((next, cn, 0));
                    next
                });
                if let Some(l) = legend.get_mut(key as usize) {
                    l.2 += 1;
                }
                first = first.min(it.start);
                last = last.max(it.end);
                c.start_us.push(it.start);
                c.end_us.push(it.end);
                c.setup_start_us.push(it.start);
                c.color_key.push(key);
                c.row.push(if it.instant { instant_row.unwrap_or(0) } else { row });
                c.flags.push(if it.instant || it.end <= it.start { FLAG_MARKER } else { 0 });
                c.task_ring.push(NO_TASK);
                c.task_local.push(NO_TASK);
                out.event.push(it.event);
                out.name_index.push(n);
                out.color_name.push(cn);
            }
            out.track_offsets.push(out.event.len() as u32);
        }
    }
    out.first_start_us = if first.is_finite() { first } else { 0.0 };
    out.last_end_us = if last.is_finite() { last } else { 0.0 };
    out.legend = legend.into_iter().map(|(k, n, bars)| (k, names.names.get(n as usize).cloned().unwrap_or_default(), bars)).collect();
    out.names = names.names;
    out.warnings.extend(trace.warnings.iter().cloned());
    out
}

impl TraceTimeline {
    pub fn bar_count(&self) -> usize {
        self.event.len()
    }

    /// Global bar index of `(track, index)`.
    pub fn bar_index(&self, bar: BarAt) -> Option<usize> {
        let a = *self.track_offsets.get(bar.track as usize)?;
        let b = *self.track_offsets.get(bar.track as usize + 1)?;
        let i = a.checked_add(bar.index)?;
        (i < b).then_some(i as usize)
    }

    fn range(&self, track: usize) -> std::ops::Range<usize> {
        match (self.track_offsets.get(track), self.track_offsets.get(track + 1)) {
            (Some(&a), Some(&b)) => a as usize..b as usize,
            _ => 0..0,
        }
    }

    /// Indices of the controller tracks.
    pub fn controller_tracks(&self) -> Vec<u32> {
        (0..self.tracks.len() as u32).filter(|&t| self.tracks.get(t as usize).is_some_and(|x| x.controller)).collect()
    }
}

fn fmt_us(us: f64) -> String {
    format!("{us:.3} µs")
}

/// An argument value as text (strings unquoted, objects as compact JSON).
pub fn arg_text(trace: &ChromeTrace, v: &ArgValue) -> String {
    match v {
        ArgValue::Null => "null".to_owned(),
        ArgValue::Bool(b) => b.to_string(),
        ArgValue::U64(n) => n.to_string(),
        ArgValue::I64(n) => n.to_string(),
        ArgValue::F64(x) => x.to_string(),
        ArgValue::Str(i) => trace.string(*i).to_owned(),
        ArgValue::Json(j) => j.clone(),
    }
}

/// Details of a bar: title (the event name) and ordered `(label, value)` fields — process,
/// thread, phase, category, start/end/duration, the STRACE bar name's parts on device lanes,
/// then every argument (`args.<key>`).
pub fn bar_details(t: &TraceTimeline, s: &ServingStrace, bar: BarAt) -> Option<(String, Vec<(String, String)>)> {
    let g = t.bar_index(bar)?;
    let e = *t.event.get(g)? as usize;
    let trace = &s.trace;
    let track = t.tracks.get(bar.track as usize)?;
    let group = t.groups.get(track.group as usize)?;
    let name = trace.event_name(e).to_owned();
    let start = t.columns.start_us.get(g).copied().unwrap_or(0.0);
    let end = t.columns.end_us.get(g).copied().unwrap_or(start);
    let ph = trace.events.ph.get(e).copied().unwrap_or(b'?');
    let phase = match ph {
        b'X' => "X (complete span)".to_owned(),
        b'B' => "B/E (span)".to_owned(),
        b'i' | b'I' => {
            let scope = match trace.events.flags.get(e).copied().unwrap_or(0) & flags::SCOPE_MASK {
                flags::SCOPE_GLOBAL => "global",
                flags::SCOPE_PROCESS => "process",
                _ => "thread",
            };
            format!("{} (instant, {scope} scope)", ph as char)
        }
        other => (other as char).to_string(),
    };
    let mut f: Vec<(String, String)> =
        vec![("Process".to_owned(), group.label.clone()), ("Thread".to_owned(), track.label.clone()), ("Phase".to_owned(), phase)];
    let cat = trace.events.cat.get(e).map_or("", |&c| trace.string(c));
    if !cat.is_empty() {
        f.push(("Category".to_owned(), cat.to_owned()));
    }
    f.push(("Start".to_owned(), fmt_us(start)));
    if ph != b'i' && ph != b'I' {
        f.push(("End".to_owned(), fmt_us(end)));
        f.push(("Duration".to_owned(), fmt_us(end - start)));
    }
    if s.device_lanes.iter().any(|l| l.thread == track.thread) {
        if let Some(b) = strace::split_bar_name(&name) {
            if let Some(tag) = b.tag {
                f.push(("Step".to_owned(), tag.to_owned()));
            }
            f.push(("Callable".to_owned(), b.callable.to_owned()));
            f.push(("Stage".to_owned(), b.stage.to_owned()));
        }
    }
    let cname = trace.events.cname.get(e).copied().unwrap_or(u32::MAX);
    if cname != u32::MAX {
        f.push(("cname".to_owned(), trace.string(cname).to_owned()));
    }
    let mut args = 0;
    for (k, v) in trace.event_args(e) {
        f.push((format!("args.{k}"), arg_text(trace, v)));
        args += 1;
    }
    if args == 0 && trace.args.is_some() {
        f.push(("args".to_owned(), "(none)".to_owned()));
    }
    Some((name, f))
}

/// Search by event name: fuzzy ([`fuzzy_score`]: exact > prefix > substring > subsequence),
/// ranked by score then start. Returns `(total, hits)`.
pub fn search(t: &TraceTimeline, query: &str, limit: usize) -> (u64, Vec<Hit>) {
    let q = query.trim().to_lowercase();
    let scores: Vec<Option<i64>> = t.names.iter().map(|n| fuzzy_score(n, &q)).collect();
    let mut found: Vec<(i64, f64, BarAt)> = Vec::new();
    for track in 0..t.tracks.len() {
        let r = t.range(track);
        let first = r.start;
        for g in r {
            let Some(&Some(score)) = t.name_index.get(g).and_then(|&n| scores.get(n as usize)) else { continue };
            let start = t.columns.start_us.get(g).copied().unwrap_or(0.0);
            found.push((score, start, BarAt { track: track as u32, index: (g - first) as u32 }));
        }
    }
    let total = found.len() as u64;
    found.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
    found.truncate(limit);
    let hits = found
        .into_iter()
        .map(|(_, start_us, bar)| {
            let label =
                t.bar_index(bar).and_then(|g| t.name_index.get(g)).and_then(|&n| t.names.get(n as usize)).cloned().unwrap_or_default();
            Hit { bar, label, start_us }
        })
        .collect();
    (total, hits)
}

/// One row of range statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct RangeRow {
    pub name: String,
    pub count: u64,
    pub total_us: f64,
    pub avg_us: f64,
    pub max_us: f64,
}

/// Per colour name (event name without `(…)`, device-lane stage): spans of `tracks`
/// overlapping `[start_us, end_us]` — count, total/avg/max duration; sorted by total
/// descending. Instants are not counted.
pub fn range_stats(t: &TraceTimeline, tracks: &[u32], start_us: f64, end_us: f64) -> Vec<RangeRow> {
    let mut acc: HashMap<u32, (u64, f64, f64)> = HashMap::new();
    for &k in tracks {
        for g in t.range(k as usize) {
            let (Some(&s), Some(&e)) = (t.columns.start_us.get(g), t.columns.end_us.get(g)) else { continue };
            if s > end_us || e < start_us || t.columns.flags.get(g).is_some_and(|f| f & FLAG_MARKER != 0) {
                continue;
            }
            let n = t.color_name.get(g).copied().unwrap_or(0);
            let a = acc.entry(n).or_insert((0, 0.0, 0.0));
            a.0 += 1;
            a.1 += e - s;
            a.2 = a.2.max(e - s);
        }
    }
    let mut rows: Vec<RangeRow> = acc
        .into_iter()
        .map(|(n, (count, total, max))| RangeRow {
            name: t.names.get(n as usize).cloned().unwrap_or_default(),
            count,
            total_us: total,
            avg_us: if count > 0 { total / count as f64 } else { 0.0 },
            max_us: max,
        })
        .collect();
    rows.sort_by(|a, b| b.total_us.total_cmp(&a.total_us).then(a.name.cmp(&b.name)));
    rows
}

/// A one-line description of the trace for summaries: processes, threads, spans, instants.
pub fn describe(t: &TraceTimeline) -> String {
    let mut text = format!("{} processes · {} lanes · {} spans · {} instants", t.groups.len(), t.tracks.len(), t.spans, t.instants);
    if t.not_drawn > 0 {
        let _ = write!(text, " · {} other events not drawn", t.not_drawn);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> ServingStrace {
        let trace = pypto_formats::chrome_trace::parse_with(
            "t.json",
            json.as_bytes(),
            pypto_formats::chrome_trace::ParseOptions { keep_args: true },
        );
        strace::from_trace(trace.unwrap_or_default())
    }

    #[test]
    fn nests_spans_into_rows_and_puts_instants_last() {
        let s = parse(
            r#"{"traceEvents":[
            {"ph":"M","name":"process_name","pid":1,"args":{"name":"serving-worker-0"}},
            {"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"MainThread"}},
            {"ph":"X","name":"outer","pid":1,"tid":1,"ts":0,"dur":100},
            {"ph":"X","name":"inner","pid":1,"tid":1,"ts":10,"dur":20},
            {"ph":"X","name":"inner","pid":1,"tid":1,"ts":40,"dur":20},
            {"ph":"X","name":"deep","pid":1,"tid":1,"ts":45,"dur":5},
            {"ph":"X","name":"next","pid":1,"tid":1,"ts":100,"dur":10},
            {"ph":"i","s":"t","name":"tick","pid":1,"tid":1,"ts":50,"args":{"k":7}},
            {"ph":"X","name":"other","pid":1,"tid":2,"ts":0,"dur":5},
            {"ph":"C","name":"ctr","pid":1,"ts":0,"args":{"v":1}}
        ]}"#,
        );
        let t = build(&s);
        assert_eq!(t.groups.len(), 1);
        assert_eq!(t.tracks.len(), 2);
        let main = &t.tracks[0];
        assert_eq!(main.label, "MainThread");
        assert!(main.controller);
        assert!(!t.tracks[1].controller);
        assert_eq!(main.rows, 4, "3 span rows + the instant row");
        assert_eq!(main.instant_row, Some(3));
        let rows: Vec<(String, u32)> =
            (0..t.track_offsets[1] as usize).map(|g| (t.names[t.name_index[g] as usize].clone(), t.columns.row[g])).collect();
        assert_eq!(rows, [("outer", 0), ("inner", 1), ("inner", 1), ("deep", 2), ("tick", 3), ("next", 0)].map(|(n, r)| (n.to_owned(), r)));
        assert_eq!((t.spans, t.instants, t.not_drawn), (6, 1, 1));
        let tick = BarAt { track: 0, index: 4 };
        assert_ne!(t.columns.flags[4] & FLAG_MARKER, 0);
        let (title, fields) = bar_details(&t, &s, tick).unwrap_or_default();
        assert_eq!(title, "tick");
        assert!(fields.contains(&("args.k".to_owned(), "7".to_owned())), "{fields:?}");
        let (total, hits) = search(&t, "inn", 10);
        assert_eq!(total, 2);
        assert!((hits[0].start_us - 10.0).abs() < 1e-9);
        let stats = range_stats(&t, &[0, 1], 0.0, 60.0);
        let inner = stats.iter().find(|r| r.name == "inner").map(|r| (r.count, r.total_us));
        assert_eq!(inner, Some((2, 40.0)));
        assert!(stats.iter().all(|r| r.name != "tick"));
    }

    #[test]
    fn negative_durations_and_times_out_of_range_are_warned() {
        let s = parse(
            r#"[{"ph":"X","name":"ok","pid":1,"tid":1,"ts":0,"dur":5},
                {"ph":"X","name":"back","pid":1,"tid":1,"ts":10,"dur":-4},
                {"ph":"X","name":"far","pid":1,"tid":1,"ts":123456789012345678901234567890,"dur":1},
                {"ph":"i","name":"late","pid":1,"tid":1,"ts":-1e19}]"#,
        );
        let t = build(&s);
        assert_eq!((t.spans, t.instants, t.not_drawn), (2, 0, 2));
        assert_eq!(t.columns.start_us[..2], [0.0, 10.0]);
        assert_eq!(t.columns.end_us[..2], [5.0, 10.0]);
        let got: Vec<(WarningKind, &str)> = t.warnings.iter().map(|w| (w.kind, w.message.as_str())).collect();
        assert_eq!(
            got,
            [
                (
                    WarningKind::TraceNegativeDuration,
                    "1 X event(s) with a negative dur, drawn with zero length (first: traceEvents[1] \"back\")"
                ),
                (
                    WarningKind::TraceTimeOutOfRange,
                    "2 event(s) with a time beyond ±2^63 ns (±292 years, Perfetto's range), not drawn (first: traceEvents[2] \"far\")"
                ),
            ]
        );
    }

    #[test]
    fn pairs_begin_end_and_colours_by_name_without_arguments() {
        let s = parse(
            r#"[{"ph":"B","name":"a","pid":"core0","tid":"p","ts":1},
                {"ph":"E","pid":"core0","tid":"p","ts":4},
                {"ph":"B","name":"b","pid":"core0","tid":"p","ts":5},
                {"ph":"X","name":"qk(r1t5)","pid":"core0","tid":"q","ts":0,"dur":3},
                {"ph":"X","name":"qk(r1t6)","pid":"core0","tid":"q","ts":3,"dur":3}]"#,
        );
        let t = build(&s);
        assert_eq!(t.spans, 4);
        assert_eq!(t.warnings.len(), 1, "{:?}", t.warnings);
        assert_eq!(t.columns.start_us[..2], [1.0, 5.0]);
        assert_eq!(t.columns.end_us[..2], [4.0, 5.0]);
        let keys: Vec<u32> = t.columns.color_key.clone();
        assert_eq!(keys[2], keys[3], "qk(r1t5) and qk(r1t6) share a colour");
        assert!(t.legend.iter().any(|(_, n, bars)| n == "qk" && *bars == 2));
        assert_eq!(color_name("D07 decode.main | runner_run", true), "runner_run");
        assert_eq!(color_name("complete(4)", false), "complete");
        assert_eq!(color_name("(x)", false), "(x)");
    }
}
