//! The Chrome-trace swimlane's requests, for the page's swimlane view: the serving STRACE
//! file of a `ServingStrace` dataset and any other Chrome trace of the folder
//! (`merged_swimlane*.json`, `CPM_*.json`; read on first request, kept in `trace_store`).
//! Builds a [`TraceTimeline`] (`ToWorker::TraceTimeline`), posts its columns like the chip
//! swimlane's and the STRACE statistics, and answers `BarDetails`, `Search`, `RangeStats`
//! and `Dependencies` for the timeline ids it built (the chip handlers answer the others);
//! the answers are `pypto_replies::traces`'.

use pypto_analysis::trace_timeline::{self, TraceTimeline};
use pypto_formats::strace::ServingStrace;
use pypto_protocol::timeline::{
    BarDetails, BarDetailsRequest, Dependencies, DependenciesRequest, RangeStats, RangeStatsRequest, SearchRequest, SearchResults,
    TraceTimeline as TraceTimelineReply, TraceTimelineRequest,
};
use pypto_replies::traces as replies;

use crate::transport::Reply;
use crate::{render_columns, trace_store};

/// `ToWorker::TraceTimeline`.
pub(crate) fn timeline(request: TraceTimelineRequest, reply: Reply<TraceTimelineRequest>) {
    let TraceTimelineRequest { timeline_id, dataset_id, path } = request;
    wasm_bindgen_futures::spawn_local(async move {
        let s = match trace_store::load(&path).await {
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
        let columns = render_columns::render_columns(&t.track_offsets, &t.name_index, &c);
        drop(c);
        reply.send_with(answer, columns);
        trace_store::keep_timeline(timeline_id, s, t);
    });
}

/// Whether `timeline_id` is a Chrome-trace timeline (this module answers its queries).
pub(crate) fn owns(timeline_id: u32) -> bool {
    trace_store::has_timeline(timeline_id)
}

/// Runs `f` on a trace timeline; `Err` when `timeline_id` is not one of ours.
fn with<R>(timeline_id: u32, f: impl FnOnce(&ServingStrace, &TraceTimeline) -> R) -> Result<R, String> {
    trace_store::with_timeline(timeline_id, f).ok_or_else(|| format!("timeline {timeline_id} is not a Chrome-trace timeline"))
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
