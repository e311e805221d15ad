//! The chip swimlane's replies: a built [`Timeline`]'s header (its render columns travel
//! beside it, filled by the worker), and the answers about its bars — details, dependency
//! arrows, search hits — from the timeline's query index and the datasets' [`RuntimeModel`]s.

use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::timeline::{Timeline, TrackKind};
use pypto_analysis::timeline_query::{self as query, BarAt, ReadBack};
use pypto_protocol::timeline::{
    AbsentView, Arrow, BarDetails, BarRef, DatasetAlignment, Dependencies, DependenciesRequest, LegendEntry, SearchHit, SearchRequest,
    SearchResults, TimelineHeader, TrackGroupInfo, TrackInfo,
};
use pypto_protocol::TaskId;

/// The header of timeline `timeline_id` built over `dataset_ids` (in model order).
pub fn header(timeline_id: u32, dataset_ids: &[u32], t: &Timeline) -> TimelineHeader {
    let ds = |d: u32| dataset_ids.get(d as usize).copied().unwrap_or(0);
    TimelineHeader {
        timeline_id,
        dataset_ids: dataset_ids.to_vec(),
        groups: t
            .groups
            .iter()
            .map(|g| TrackGroupInfo { label: g.label.clone(), view: g.view, dataset_id: ds(g.dataset), tracks: g.tracks.clone() })
            .collect(),
        tracks: t
            .tracks
            .iter()
            .map(|x| TrackInfo {
                label: x.label.clone(),
                view: x.view,
                group: x.group,
                rows: x.rows,
                core_type: x.core_type.map(|c| c.as_str().to_ascii_uppercase()),
            })
            .collect(),
        names: t.names.clone(),
        legend: t.legend.iter().map(|(k, n, b)| LegendEntry { color_key: *k, name: n.clone(), bars: *b }).collect(),
        absent: t.absent.iter().map(|a| AbsentView { view: a.view, dataset_id: ds(a.dataset), reason: a.reason.clone() }).collect(),
        bar_count: t.bar_count() as u64,
        first_start_us: t.first_start_us,
        last_end_us: t.last_end_us,
        has_static_path: t.has_static_path,
        has_observed_path: t.has_observed_path,
        path_source: t.path_source.clone(),
        warnings: t.warnings.iter().map(|w| w.message.clone()).collect(),
        alignment: t
            .alignment
            .placements
            .iter()
            .zip(dataset_ids)
            .map(|(p, &dataset_id)| DatasetAlignment { dataset_id, offset_us: p.offset_us, aligned_by: p.by })
            .collect(),
        alignment_label: t.alignment.label.clone(),
    }
}

/// The analysis' name of a bar the page names.
pub fn bar_at(bar: BarRef) -> BarAt {
    BarAt { track: bar.track, index: bar.index }
}

/// The page's name of a bar.
pub fn bar_ref(bar: BarAt) -> BarRef {
    BarRef { track: bar.track, index: bar.index }
}

/// Why there are no details: no such bar.
pub fn no_bar(bar: BarRef) -> String {
    format!("no bar at track {}, index {}", bar.track, bar.index)
}

/// The `Arguments` row of a task whose arguments are being read back from deps.json (sent
/// in a partial reply before the full one).
pub const ARGUMENTS_BEING_READ: &str = "reading the task's arguments from deps.json…";

/// `BarDetails`: the bar's title, fields and SPMD group. `read(dataset, file, offset, len)`
/// gives the bytes of the files the details read back (a task's arguments from a lean
/// deps.json, a detached scheduler phase's record); a row whose bytes it does not give says
/// so ([`query::NOT_READ`]). `Err` when there is no such bar.
pub fn bar_details(
    timeline_id: u32,
    bar: BarRef,
    t: &Timeline,
    models: &[&RuntimeModel],
    read: &ReadBack<'_>,
) -> Result<BarDetails, String> {
    let (title, fields, group) = query::bar_details_with(t, models, bar_at(bar), read).ok_or_else(|| no_bar(bar))?;
    // The task its `Task` row names (a scheduler phase names none: its record is the subject).
    let names_task =
        t.tracks.get(bar.track as usize).is_some_and(|x| !matches!(x.kind, TrackKind::SchedThread { .. } | TrackKind::Uploads));
    let task = names_task.then(|| query::bar_task(t, models, bar_at(bar))).flatten().map(TaskId);
    Ok(BarDetails { timeline_id, bar, title, fields, group: group.into_iter().map(bar_ref).collect(), task })
}

/// Marks the `Arguments` row not read yet as being read ([`ARGUMENTS_BEING_READ`]).
pub fn mark_arguments_being_read(details: &mut BarDetails) {
    for f in &mut details.fields {
        if f.0 == "Arguments" && f.1 == query::NOT_READ {
            ARGUMENTS_BEING_READ.clone_into(&mut f.1);
        }
    }
}

/// `Dependencies`: the arrows `r.depth` levels around the bar.
pub fn dependencies(r: &DependenciesRequest, t: &Timeline, models: &[&RuntimeModel]) -> Dependencies {
    let arrows = query::dependencies(t, models, bar_at(r.bar), r.depth)
        .into_iter()
        .map(|a| Arrow { from: bar_ref(a.from), to: bar_ref(a.to), violation: a.violation })
        .collect();
    Dependencies { timeline_id: r.timeline_id, bar: r.bar, depth: r.depth, arrows }
}

/// `Search`: the first `r.limit` hits and the total.
pub fn search(r: &SearchRequest, t: &Timeline, models: &[&RuntimeModel]) -> SearchResults {
    let (total, hits) = query::search(t, models, &r.query, r.limit as usize);
    let hits = hits.into_iter().map(|h| SearchHit { bar: bar_ref(h.bar), label: h.label, start_us: h.start_us }).collect();
    SearchResults { timeline_id: r.timeline_id, query: r.query.clone(), total, hits }
}
