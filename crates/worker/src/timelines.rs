//! The chip swimlane's requests, for the page's swimlane view: a [`Timeline`] over one or
//! more runtime datasets (`ToWorker::Timeline`: the load job's prebuilt one, else one a job
//! builds from the files), its render columns handed to the page and only what the queries
//! need kept; `BarDetails` (reading a task's arguments or a phase's record back from the
//! file when the model does not keep them), `Dependencies`, `Search` from it and the
//! datasets' [`RuntimeModel`]s (the answers are `pypto_replies::timeline`'s); the Perfetto
//! export (`ExportTrace`), written by a job.

use pypto_analysis::alignment::{self, AlignmentPlan};
use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::timeline::Timeline;
use pypto_analysis::timeline_query::DetailFile;
use pypto_protocol::timeline::{
    BarDetailsRequest, Dependencies, DependenciesRequest, ExportTraceRequest, SearchRequest, SearchResults, TimelineAlign, TimelineRequest,
    TraceExport,
};
use pypto_replies::timeline as replies;

use crate::jobs::{self, FromJob, ToJob};
use crate::prebuilt::{built_timeline, hand_over};
use crate::reading;
use crate::store::{self, Prebuilt, SESSION};
use crate::transport::Reply;

/// `ToWorker::Timeline`: the load job's prebuilt timeline of one dataset (its columns handed
/// over once), else one a job builds from the datasets' files (the resident models keep no
/// scheduler phases to lay out), the datasets placed as [`alignment::plan`] says from the
/// resident models (a single dataset is never shifted); answers header + columns and keeps
/// the index.
pub(crate) fn timeline(request: TimelineRequest, reply: Reply<TimelineRequest>) {
    let TimelineRequest { timeline_id, dataset_ids, align } = request;
    // The load job's timeline of a single dataset: ready, or to be handed over when it comes.
    let mut reply = Some(reply);
    let prebuilt = match dataset_ids.as_slice() {
        [d] => SESSION.with_borrow_mut(|s| match s.prebuilt.get_mut(d) {
            Some(Prebuilt::Pending(waiting)) => {
                waiting.extend(reply.take().map(|r| (timeline_id, r)));
                Some(None)
            }
            Some(Prebuilt::Ready { .. }) => s.prebuilt.remove(d).map(Some),
            None => None,
        }),
        _ => None,
    };
    let Some(reply) = reply else { return }; // waiting for the load job's timeline
    if let Some(Some(Prebuilt::Ready { header, timeline, columns })) = prebuilt {
        return hand_over(timeline_id, &dataset_ids, header, timeline, &columns, reply);
    }
    if dataset_ids.is_empty() {
        return reply.fail("a timeline needs at least one dataset".to_string());
    }
    let (datasets, files) = match store::job_inputs(&dataset_ids) {
        Ok(inputs) => inputs,
        Err(message) => return reply.fail(message),
    };
    let alignment = plan_alignment(&dataset_ids, &align);
    let generation = store::generation();
    wasm_bindgen_futures::spawn_local(async move {
        let request = ToJob::Timeline { datasets, dataset_ids: dataset_ids.clone(), alignment };
        let answer = built_timeline(jobs::ask(&request, &files).await);
        if store::generation() != generation {
            return;
        }
        match answer {
            Ok((header, t, render)) => hand_over(timeline_id, &dataset_ids, header, t, &render, reply),
            Err(message) => reply.fail(format!("the timeline could not be built: {message}")),
        }
    });
}

/// Where `align` places datasets `ids` (their resident models; a dataset without one is not
/// shifted, but `store::job_inputs` refuses those first).
fn plan_alignment(ids: &[u32], align: &TimelineAlign) -> AlignmentPlan {
    SESSION.with_borrow(|s| {
        let models: Option<Vec<(&str, &RuntimeModel)>> =
            ids.iter().map(|id| s.runtime.get(id).and_then(|d| Some((d.inputs.path.as_str(), d.model.as_ref()?)))).collect();
        models.map_or_else(|| AlignmentPlan::unshifted(ids.len()), |m| alignment::plan(&m, align))
    })
}

/// Runs `f` with the timeline and its models; `Err` when the timeline is not built.
fn with_timeline<R>(timeline_id: u32, f: impl FnOnce(&Timeline, &[&RuntimeModel]) -> R) -> Result<R, String> {
    SESSION
        .with_borrow(|s| {
            let stored = s.timelines.get(&timeline_id)?;
            let models: Option<Vec<&RuntimeModel>> =
                stored.dataset_ids.iter().map(|id| s.runtime.get(id).and_then(|d| d.model.as_ref())).collect();
            Some(f(&stored.timeline, &models?))
        })
        .ok_or_else(|| format!("timeline {timeline_id} is not built (request Timeline first)"))
}

/// `ToWorker::BarDetails`. Some details live in the files, not in memory: a task's tensor
/// arguments (deps.json read lean) and a scheduler phase's record (detached phases). Those
/// bytes are read without blocking (`reading::read_range`: a slice of the `File`, or a `Range`
/// request) and the details answered with them; when only the arguments are missing, the rest
/// is sent at once first as a partial reply, the arguments marked as being read.
pub(crate) fn bar_details(request: &BarDetailsRequest, reply: Reply<BarDetailsRequest>) {
    let BarDetailsRequest { timeline_id, bar } = *request;
    // Per dataset of the timeline: its deps.json (read lean) and records sources.
    let sources: Vec<[Option<wasm_bindgen::JsValue>; 2]> = SESSION.with_borrow(|s| {
        s.timelines.get(&timeline_id).map_or_else(Vec::new, |st| {
            st.dataset_ids
                .iter()
                .map(|id| s.runtime.get(id).map_or([None, None], |d| [d.deps_source.clone(), d.records_source.clone()]))
                .collect()
        })
    });
    let source_of =
        |dataset: usize, file: DetailFile| sources.get(dataset).and_then(|s| s[usize::from(file == DetailFile::Records)].clone());
    // The first pass records which bytes the details want.
    let wanted: std::cell::RefCell<Vec<(usize, DetailFile, u64, u32)>> = std::cell::RefCell::new(Vec::new());
    let note = |dataset: usize, file: DetailFile, offset: u64, len: u32| {
        if source_of(dataset, file).is_some() {
            wanted.borrow_mut().push((dataset, file, offset, len));
        }
        None
    };
    let mut details = match with_timeline(timeline_id, |t, m| replies::bar_details(timeline_id, bar, t, m, &note)) {
        Ok(Ok(details)) => details,
        Ok(Err(message)) | Err(message) => return reply.fail(message),
    };
    let wanted = wanted.into_inner();
    if wanted.is_empty() {
        return reply.send(details);
    }
    if !wanted.iter().any(|w| w.1 == DetailFile::Records) {
        replies::mark_arguments_being_read(&mut details);
        reply.partial(details);
    }
    let generation = store::generation();
    let reads: Vec<_> = wanted.iter().map(|&(d, f, o, l)| ((d, f, o, l), source_of(d, f))).collect();
    wasm_bindgen_futures::spawn_local(async move {
        let mut got = Vec::with_capacity(reads.len());
        let mut failures: Vec<String> = Vec::new();
        for (key, source) in reads {
            let bytes = match source {
                Some(source) => reading::read_range(&source, key.2, key.3).await.map_err(|e| failures.push(e)).ok(),
                None => None,
            };
            got.push((key, bytes));
        }
        if store::generation() != generation {
            return;
        }
        let read = |d: usize, f: DetailFile, o: u64, l: u32| got.iter().find(|(k, _)| *k == (d, f, o, l)).and_then(|(_, b)| b.clone());
        match with_timeline(timeline_id, |t, m| replies::bar_details(timeline_id, bar, t, m, &read)) {
            Ok(Ok(mut details)) => {
                // Why a row says it was not read back (a stall, a failed request); clicking the
                // bar again reads again.
                for why in failures {
                    details.fields.push(("Read back".to_owned(), format!("{why} (click the bar again to retry)")));
                }
                reply.send(details);
            }
            Ok(Err(message)) | Err(message) => reply.fail(message),
        }
    });
}

/// `ToWorker::Dependencies`.
pub(crate) fn dependencies(r: &DependenciesRequest) -> Result<Dependencies, String> {
    with_timeline(r.timeline_id, |t, m| replies::dependencies(r, t, m))
}

/// `ToWorker::Search`.
pub(crate) fn search(r: &SearchRequest) -> Result<SearchResults, String> {
    with_timeline(r.timeline_id, |t, m| replies::search(r, t, m))
}

/// `ToWorker::ExportTrace`: the timeline as Chrome Trace Event JSON (Perfetto), written by a
/// job from the datasets' files, bytes moved to the page as the `json` column.
pub(crate) fn export_trace(request: &ExportTraceRequest, reply: Reply<ExportTraceRequest>) {
    let ExportTraceRequest { timeline_id, window_us } = *request;
    let stored = SESSION.with_borrow(|s| s.timelines.get(&timeline_id).map(|t| (t.dataset_ids.clone(), t.timeline.alignment.clone())));
    let Some((dataset_ids, alignment)) = stored else {
        return reply.fail(format!("timeline {timeline_id} is not built (request Timeline first)"));
    };
    let (datasets, files) = match store::job_inputs(&dataset_ids) {
        Ok(inputs) => inputs,
        Err(message) => return reply.fail(message),
    };
    let generation = store::generation();
    wasm_bindgen_futures::spawn_local(async move {
        let answer = jobs::ask(&ToJob::ExportTrace { datasets, window_us, alignment }, &files).await;
        if store::generation() != generation {
            return;
        }
        match answer {
            Ok((FromJob::TraceExported { slices, flows }, columns)) => {
                let file_name = if window_us.is_some() { "pypto-swimlane-window.perfetto.json" } else { "pypto-swimlane.perfetto.json" };
                reply.send_object(TraceExport { timeline_id, file_name: file_name.to_owned(), slices, flows }, &columns);
            }
            Ok(_) => reply.fail("the export job answered something else".to_owned()),
            Err(message) => reply.fail(format!("Perfetto export failed: {message}")),
        }
    });
}
