//! Chrome-trace swimlanes' replies (a serving STRACE file, or any other Chrome trace beside a
//! capture): the sidebar summary, the [`TraceTimeline`]'s header and facts, the STRACE
//! statistics panel, and the answers about its bars (details, search, range statistics; a
//! trace has no dependency arrows).

use pypto_analysis::strace_stats::{self, DurationStats, StraceStats};
use pypto_analysis::trace_timeline::{self, TraceTimeline};
use pypto_formats::strace::ServingStrace;
use pypto_protocol::datasets::TraceSummary;
use pypto_protocol::timeline::{
    BarDetails, BarDetailsRequest, BarRef, Dependencies, DependenciesRequest, DurationRow, LegendEntry, RangeStats, RangeStatsRequest,
    RangeStatsRow, SearchHit, SearchRequest, SearchResults, StraceStatsReply, TimelineHeader, TraceTimelineInfo, TrackGroupInfo, TrackInfo,
};
use pypto_protocol::TimelineView;

use crate::timeline::{bar_at, no_bar};

/// The sidebar's summary of a parsed trace at `path` laid out as `t`.
pub fn summary(path: &str, s: &ServingStrace, t: &TraceTimeline) -> TraceSummary {
    TraceSummary {
        path: path.to_owned(),
        processes: t.groups.len() as u32,
        lanes: t.tracks.len() as u32,
        spans: t.spans,
        instants: t.instants,
        span_us: s.total_duration_us(),
    }
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

/// The STRACE statistics panel: per `WorkerProcess` (all its spans, then by name), per span
/// name over all workers, per device lane (its invocations, then its stages), per serving
/// span name, and the wait for worker output.
pub fn strace_stats(st: &StraceStats) -> StraceStatsReply {
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

/// The header of trace timeline `timeline_id` of dataset `dataset_id`.
pub fn header(timeline_id: u32, dataset_id: u32, t: &TraceTimeline) -> TimelineHeader {
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
        warnings: t.warnings.iter().map(|w| w.message.clone()).collect(),
        alignment: Vec::new(),
        alignment_label: String::new(),
    }
}

/// Whether `path` is a serving STRACE swimlane (`*strace-swimlane*`): it gets the
/// statistics panel.
pub fn is_serving_strace(path: &str) -> bool {
    path.rsplit('/').next().is_some_and(|n| n.contains("strace-swimlane"))
}

/// The facts beside a trace timeline's header: its lanes' kinds, counts, and the STRACE
/// statistics for a serving STRACE file.
pub fn info(timeline_id: u32, dataset_id: u32, path: &str, s: &ServingStrace, t: &TraceTimeline) -> TraceTimelineInfo {
    let serving_strace = is_serving_strace(path);
    TraceTimelineInfo {
        timeline_id,
        dataset_id,
        path: path.to_owned(),
        serving_strace,
        controller_tracks: t.controller_tracks(),
        instant_rows: t.tracks.iter().map(|x| x.instant_row).collect(),
        spans: t.spans,
        instants: t.instants,
        not_drawn: t.not_drawn,
        stats: serving_strace.then(|| strace_stats(&strace_stats::compute(s))),
    }
}

/// `BarDetails` of a trace timeline.
pub fn bar_details(r: &BarDetailsRequest, s: &ServingStrace, t: &TraceTimeline) -> Result<BarDetails, String> {
    let (title, fields) = trace_timeline::bar_details(t, s, bar_at(r.bar)).ok_or_else(|| no_bar(r.bar))?;
    Ok(BarDetails { timeline_id: r.timeline_id, bar: r.bar, title, fields, group: Vec::new(), task: None })
}

/// `Search` of a trace timeline.
pub fn search(r: &SearchRequest, t: &TraceTimeline) -> SearchResults {
    let (total, hits) = trace_timeline::search(t, &r.query, r.limit as usize);
    let hits = hits
        .into_iter()
        .map(|h| SearchHit { bar: BarRef { track: h.bar.track, index: h.bar.index }, label: h.label, start_us: h.start_us })
        .collect();
    SearchResults { timeline_id: r.timeline_id, query: r.query.clone(), total, hits }
}

/// `RangeStats` of a trace timeline.
pub fn range_stats(r: &RangeStatsRequest, t: &TraceTimeline) -> RangeStats {
    let rows = trace_timeline::range_stats(t, &r.tracks, r.start_us, r.end_us)
        .into_iter()
        .map(|x| RangeStatsRow { name: x.name, count: x.count, total_us: x.total_us, avg_us: x.avg_us, max_us: x.max_us })
        .collect();
    RangeStats { timeline_id: r.timeline_id, start_us: r.start_us, end_us: r.end_us, rows }
}

/// `Dependencies` of a trace timeline: a trace has none.
pub fn dependencies(r: &DependenciesRequest) -> Dependencies {
    Dependencies { timeline_id: r.timeline_id, bar: r.bar, depth: r.depth, arrows: Vec::new() }
}
