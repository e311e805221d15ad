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

use pypto_analysis::trace_timeline::{self, TraceTimeline};
use pypto_formats::chrome_trace::{self, ParseOptions};
use pypto_formats::strace::{self, ServingStrace};
use pypto_protocol::datasets::{DatasetSummary, EntryMeta, FileError, Progress};
use pypto_protocol::timeline::{
    BarDetails, BarDetailsRequest, Dependencies, DependenciesRequest, RangeStats, RangeStatsRequest, SearchRequest, SearchResults,
    TraceTimeline as TraceTimelineReply, TraceTimelineRequest,
};
use pypto_protocol::FromWorker;
use pypto_replies::traces as replies;
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
            summary.trace = Some(replies::summary(path, &s, &t));
        }
        Err(e) => summary.errors.push(e),
    }
    summary
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
        let mut t = trace_timeline::build(&s);
        let info = replies::info(timeline_id, dataset_id, &path, &s, &t);
        let answer = TraceTimelineReply { header: replies::header(timeline_id, dataset_id, &t), info };
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

/// `BarDetails` of a trace timeline.
pub(crate) fn bar_details(r: &BarDetailsRequest) -> Result<BarDetails, String> {
    with(r.timeline_id, |s, t| replies::bar_details(r, s, t))?
}

/// `Search` of a trace timeline.
pub(crate) fn search(r: &SearchRequest) -> Result<SearchResults, String> {
    with(r.timeline_id, |_, t| replies::search(r, t))
}

/// `RangeStats` of a trace timeline.
pub(crate) fn range_stats(r: &RangeStatsRequest) -> Result<RangeStats, String> {
    with(r.timeline_id, |_, t| replies::range_stats(r, t))
}

/// `Dependencies` of a trace timeline (a trace has none): an empty answer.
pub(crate) fn dependencies(r: &DependenciesRequest) -> Result<Dependencies, String> {
    with(r.timeline_id, |_, _| replies::dependencies(r))
}
