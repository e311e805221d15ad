//! Chrome-trace swimlanes in the worker: the serving STRACE file of a `ServingStrace`
//! dataset (parsed at open time, its summary in the sidebar) and any other Chrome trace of
//! the folder (`merged_swimlane*.json`, `CPM_*.json`; read on first request). Builds a
//! [`TraceTimeline`] (`ToWorker::TraceTimeline`), posts its columns like the chip swimlane's
//! and the STRACE statistics, and answers `BarDetails`, `Search` and `RangeStats` for the
//! timeline ids it built (the chip handlers answer the others).
//!
//! State is per opened folder (a generation): the folder's file handles by path (so a trace
//! can be read lazily), the parsed traces by path, the built timelines by id.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use pypto_analysis::strace_stats::{self, DurationStats, StraceStats};
use pypto_analysis::timeline_query::BarAt;
use pypto_analysis::trace_timeline::{self, TraceTimeline};
use pypto_formats::chrome_trace::{self, ParseOptions};
use pypto_formats::strace::{self, ServingStrace};
use pypto_protocol::datasets::Progress;
use pypto_protocol::datasets::{DatasetSummary, EntryMeta, FileError, TraceSummary};
use pypto_protocol::timeline::{
    BarDetails, BarDetailsRequest, BarRef, Dependencies, DependenciesRequest, DurationRow, LegendEntry, RangeStats, RangeStatsRequest,
    RangeStatsRow, SearchHit, SearchRequest, SearchResults, StraceStatsReply, TimelineHeader, TraceTimeline as TraceTimelineReply,
    TraceTimelineInfo, TraceTimelineRequest, TrackGroupInfo, TrackInfo,
};
use pypto_protocol::{FromWorker, TimelineView};
use wasm_bindgen::JsValue;

use crate::reading;
use crate::transport::{self, Reply};

#[derive(Default)]
struct Store {
    /// The folder's files by path.
    files: HashMap<String, JsValue>,
    /// Parsed traces by path.
    parsed: HashMap<String, Rc<ServingStrace>>,
    /// Built timelines by id: the trace and its layout.
    timelines: HashMap<u32, (Rc<ServingStrace>, TraceTimeline)>,
}

thread_local! {
    static STORE: RefCell<Store> = RefCell::new(Store::default());
}

/// A new folder: forget the old one, remember the new one's files (handles, not bytes).
pub(crate) fn reset(entries: &[EntryMeta], sources: &[JsValue]) {
    STORE.with_borrow_mut(|s| {
        *s = Store::default();
        for (e, src) in entries.iter().zip(sources) {
            s.files.insert(e.path.clone(), src.clone());
        }
    });
}

/// Reads and parses `path` (once per folder).
async fn load(path: &str) -> Result<Rc<ServingStrace>, FileError> {
    if let Some(t) = STORE.with_borrow(|s| s.parsed.get(path).cloned()) {
        return Ok(t);
    }
    let Some(source) = STORE.with_borrow(|s| s.files.get(path).cloned()) else {
        return Err(FileError { path: path.to_owned(), line: 0, column: 0, message: "the file is not in the opened folder".to_owned() });
    };
    let owned = path.to_owned();
    let mut on_progress = |done_bytes, total_bytes| {
        transport::post(&FromWorker::Progress(Progress { path: owned.clone(), done_bytes, total_bytes }), None);
    };
    let bytes = reading::read_bytes(&source, &mut on_progress).await.map_err(|m| FileError {
        path: path.to_owned(),
        line: 0,
        column: 0,
        message: format!("could not read the file: {m}"),
    })?;
    let trace = chrome_trace::parse_with(path, &bytes, ParseOptions { keep_args: true }).map_err(|e| FileError {
        path: e.path,
        line: e.line,
        column: e.column,
        message: e.message,
    })?;
    drop(bytes);
    let parsed = Rc::new(strace::from_trace(trace));
    STORE.with_borrow_mut(|s| s.parsed.insert(path.to_owned(), parsed.clone()));
    Ok(parsed)
}

/// Open time, `ServingStrace` dataset: parse the file, summarise it (errors go to the
/// summary with their position).
pub(crate) async fn load_strace(path: &str) -> DatasetSummary {
    let mut summary = DatasetSummary::default();
    match load(path).await {
        Ok(s) => {
            let t = trace_timeline::build(&s);
            summary.trace = Some(TraceSummary {
                path: path.to_owned(),
                processes: t.groups.len() as u32,
                lanes: t.tracks.len() as u32,
                spans: t.spans,
                instants: t.instants,
                span_us: s.total_duration_us(),
            });
        }
        Err(e) => summary.errors.push(e),
    }
    summary
}

fn row(scope: &str, name: &str, d: &DurationStats) -> DurationRow {
    DurationRow {
        scope: scope.to_owned(),
        name: name.to_owned(),
        count: d.count,
        total_us: d.total_us,
        avg_us: d.avg_us,
        min_us: d.min_us,
        max_us: d.max_us,
    }
}

fn stats_reply(st: &StraceStats) -> StraceStatsReply {
    let mut workers = Vec::new();
    for w in &st.worker_processes {
        workers.push(row(&w.label, "all WorkerProcess.*", &w.all));
        workers.extend(w.spans.iter().map(|n| row(&w.label, &n.name, &n.stats)));
    }
    let mut device_lanes = Vec::new();
    for l in &st.device_lanes {
        device_lanes.push(row(&l.label, "invocations (root bars)", &l.root));
        device_lanes.extend(l.stages.iter().map(|n| row(&l.label, &n.name, &n.stats)));
    }
    StraceStatsReply {
        total_duration_us: st.total_duration_us,
        span_count: st.span_count,
        instant_count: st.instant_count,
        workers,
        worker_span_names: st.worker_span_names.iter().map(|n| row("all workers", &n.name, &n.stats)).collect(),
        device_lanes,
        span_names: st.span_names.iter().map(|n| row("serving", &n.name, &n.stats)).collect(),
        wait_worker_output: row("all processes", strace_stats::WAIT_WORKER_OUTPUT, &st.wait_worker_output),
    }
}

fn header(timeline_id: u32, dataset_id: u32, t: &TraceTimeline) -> TimelineHeader {
    TimelineHeader {
        timeline_id,
        dataset_ids: vec![dataset_id],
        groups: t
            .groups
            .iter()
            .map(|g| TrackGroupInfo { label: g.label.clone(), view: TimelineView::Trace, dataset_id, tracks: g.tracks.clone() })
            .collect(),
        tracks: t
            .tracks
            .iter()
            .map(|x| TrackInfo { label: x.label.clone(), view: TimelineView::Trace, group: x.group, rows: x.rows, core_type: None })
            .collect(),
        names: t.names.clone(),
        legend: t.legend.iter().map(|(k, n, b)| LegendEntry { color_key: *k, name: n.clone(), bars: *b }).collect(),
        absent: Vec::new(),
        bar_count: t.bar_count() as u64,
        first_start_us: t.first_start_us,
        last_end_us: t.last_end_us,
        has_static_path: false,
        has_observed_path: false,
        path_source: String::new(),
        warnings: t.warnings.clone(),
    }
}

/// `ToWorker::TraceTimeline`.
pub(crate) fn timeline(request: TraceTimelineRequest, reply: Reply<TraceTimelineRequest>) {
    let TraceTimelineRequest { timeline_id, dataset_id, path } = request;
    wasm_bindgen_futures::spawn_local(async move {
        let s = match load(&path).await {
            Ok(s) => s,
            Err(e) => {
                let at = if e.line > 0 { format!(" (line {}, column {})", e.line, e.column) } else { String::new() };
                return reply.fail(format!("{}{at}: {}", e.path, e.message));
            }
        };
        let serving_strace = path.rsplit('/').next().is_some_and(|n| n.contains("strace-swimlane"));
        let mut t = trace_timeline::build(&s);
        let info = TraceTimelineInfo {
            timeline_id,
            dataset_id,
            path: path.clone(),
            serving_strace,
            controller_tracks: t.controller_tracks(),
            instant_rows: t.tracks.iter().map(|x| x.instant_row).collect(),
            spans: t.spans,
            instants: t.instants,
            not_drawn: t.not_drawn,
            stats: serving_strace.then(|| stats_reply(&strace_stats::compute(&s))),
        };
        let answer = TraceTimelineReply { header: header(timeline_id, dataset_id, &t), info };
        // The queries need start, end and flags: keep those, hand the rest over.
        let c = std::mem::take(&mut t.columns);
        t.columns.start_us.clone_from(&c.start_us);
        t.columns.end_us.clone_from(&c.end_us);
        t.columns.flags.clone_from(&c.flags);
        let columns = crate::timelines::render_columns(&t.track_offsets, &t.name_index, &c);
        drop(c);
        reply.send_with(answer, columns);
        STORE.with_borrow_mut(|st| st.timelines.insert(timeline_id, (s, t)));
    });
}

/// Whether `timeline_id` is a Chrome-trace timeline (this module answers its queries).
pub(crate) fn owns(timeline_id: u32) -> bool {
    STORE.with_borrow(|st| st.timelines.contains_key(&timeline_id))
}

/// Runs `f` on a trace timeline; `Err` when `timeline_id` is not one of ours.
fn with<R>(timeline_id: u32, f: impl FnOnce(&ServingStrace, &TraceTimeline) -> R) -> Result<R, String> {
    STORE
        .with_borrow(|st| st.timelines.get(&timeline_id).map(|(s, t)| f(s, t)))
        .ok_or_else(|| format!("timeline {timeline_id} is not a Chrome-trace timeline"))
}

fn at(bar: BarRef) -> BarAt {
    BarAt { track: bar.track, index: bar.index }
}

/// `BarDetails` of a trace timeline.
pub(crate) fn bar_details(r: &BarDetailsRequest) -> Result<BarDetails, String> {
    let (title, fields) = with(r.timeline_id, |s, t| trace_timeline::bar_details(t, s, at(r.bar)))?
        .ok_or_else(|| format!("no bar at track {}, index {}", r.bar.track, r.bar.index))?;
    Ok(BarDetails { timeline_id: r.timeline_id, bar: r.bar, title, fields, group: Vec::new() })
}

/// `Search` of a trace timeline.
pub(crate) fn search(r: &SearchRequest) -> Result<SearchResults, String> {
    let (total, hits) = with(r.timeline_id, |_, t| trace_timeline::search(t, &r.query, r.limit as usize))?;
    let hits = hits
        .into_iter()
        .map(|h| SearchHit { bar: BarRef { track: h.bar.track, index: h.bar.index }, label: h.label, start_us: h.start_us })
        .collect();
    Ok(SearchResults { timeline_id: r.timeline_id, query: r.query.clone(), total, hits })
}

/// `RangeStats` of a trace timeline.
pub(crate) fn range_stats(r: &RangeStatsRequest) -> Result<RangeStats, String> {
    let rows = with(r.timeline_id, |_, t| trace_timeline::range_stats(t, &r.tracks, r.start_us, r.end_us))?;
    let rows = rows
        .into_iter()
        .map(|r| RangeStatsRow { name: r.name, count: r.count, total_us: r.total_us, avg_us: r.avg_us, max_us: r.max_us })
        .collect();
    Ok(RangeStats { timeline_id: r.timeline_id, start_us: r.start_us, end_us: r.end_us, rows })
}

/// `Dependencies` of a trace timeline (a trace has none): an empty answer.
pub(crate) fn dependencies(r: &DependenciesRequest) -> Result<Dependencies, String> {
    with(r.timeline_id, |_, _| ())?;
    Ok(Dependencies { timeline_id: r.timeline_id, bar: r.bar, depth: r.depth, arrows: Vec::new() })
}
