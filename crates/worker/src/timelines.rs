//! The chip swimlane timeline requests: builds a [`Timeline`] over one or more runtime
//! datasets (`ToWorker::Timeline`), hands its render columns to the page (transferred typed
//! arrays) and keeps only what the queries need (tracks, offsets, per-bar source and name
//! index); answers `BarDetails`, `Dependencies`, `Search` and `RangeStats` from it and the
//! datasets' [`RuntimeModel`]s.

use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::timeline::{self, RenderColumns, Timeline};
use pypto_analysis::timeline_query::DetailFile;
use pypto_formats::packed::PackedU32;
use pypto_protocol::timeline::{
    BarDetailsRequest, Dependencies, DependenciesRequest, ExportTraceRequest, SearchRequest, SearchResults, TimelineHeader,
    TimelineRequest, TraceExport,
};
use pypto_replies::timeline as replies;

use crate::session::SESSION;
use crate::transport::{Columns, Reply};

/// A built timeline: the datasets it covers (in model order) and its resident index.
pub(crate) struct StoredTimeline {
    dataset_ids: Vec<u32>,
    timeline: Timeline,
}

/// The typed arrays the page draws a timeline from (chip swimlane and Chrome traces alike):
/// the track offsets and per-bar name indices beside the render columns `c`.
pub(crate) fn render_columns(track_offsets: &[u32], name_index: &[u32], c: &RenderColumns) -> Columns {
    let mut columns = Columns::new();
    columns.u32("track_offsets", track_offsets);
    columns.f64("start_us", &c.start_us);
    columns.f64("end_us", &c.end_us);
    columns.f64("setup_start_us", &c.setup_start_us);
    columns.u32("color_key", &c.color_key);
    columns.u32("name_index", name_index);
    columns.u32("row", &c.row);
    columns.u32("flags", &c.flags);
    columns.u32("task_ring", &c.task_ring);
    columns.u32("task_local", &c.task_local);
    columns
}

/// The render columns in JS typed arrays, filled piece by piece as the timeline is built
/// (so they never all sit in the worker's wasm memory), sized for `capacity` bars.
pub(crate) struct JsColumns {
    f64s: [js_sys::Float64Array; 3],
    u32s: [js_sys::Uint32Array; 5],
    bars: u32,
    capacity: u32,
}

impl JsColumns {
    const F64_NAMES: [&'static str; 3] = ["start_us", "end_us", "setup_start_us"];
    const U32_NAMES: [&'static str; 5] = ["color_key", "row", "flags", "task_ring", "task_local"];

    pub(crate) fn new(capacity: usize) -> Self {
        let n = capacity as u32;
        let f = || js_sys::Float64Array::new_with_length(n);
        let u = || js_sys::Uint32Array::new_with_length(n);
        Self { f64s: [f(), f(), f()], u32s: [u(), u(), u(), u(), u()], bars: 0, capacity: n }
    }

    /// Room for `more` bars (the capacity is an upper bound of the bars built; should it
    /// ever fall short, the arrays grow rather than a write failing).
    fn reserve(&mut self, more: u32) {
        let need = self.bars + more;
        if need <= self.capacity {
            return;
        }
        let n = need.max(self.capacity.saturating_mul(2));
        for a in &mut self.f64s {
            let bigger = js_sys::Float64Array::new_with_length(n);
            bigger.set(a, 0);
            *a = bigger;
        }
        for a in &mut self.u32s {
            let bigger = js_sys::Uint32Array::new_with_length(n);
            bigger.set(a, 0);
            *a = bigger;
        }
        self.capacity = n;
    }

    /// The columns cut to the bars written, beside the track offsets and name indices.
    pub(crate) fn into_columns(self, track_offsets: &[u32], name_index: &PackedU32) -> Columns {
        let mut columns = Columns::new();
        columns.u32("track_offsets", track_offsets);
        for (name, a) in Self::F64_NAMES.iter().zip(&self.f64s) {
            columns.js(name, &a.slice(0, self.bars));
        }
        columns.u32_packed("name_index", name_index);
        for (name, a) in Self::U32_NAMES.iter().zip(&self.u32s) {
            columns.js(name, &a.slice(0, self.bars));
        }
        columns
    }
}

impl timeline::ColumnSink for JsColumns {
    fn bars(&mut self, c: &RenderColumns) {
        let (at, n) = (self.bars, c.start_us.len() as u32);
        self.reserve(n);
        for (a, v) in self.f64s.iter().zip([&c.start_us, &c.end_us, &c.setup_start_us]) {
            a.subarray(at, at + n).copy_from(v);
        }
        for (a, v) in self.u32s.iter().zip([&c.color_key, &c.row, &c.flags, &c.task_ring, &c.task_local]) {
            a.subarray(at, at + n).copy_from(v);
        }
        self.bars += n;
    }
}

/// A single-dataset timeline a load job builds after its first answer: pending (the requests
/// the page made meanwhile, answered when it comes), or its header, query index and render
/// columns (JS typed arrays), kept until the page asks.
#[allow(clippy::large_enum_variant)] // one per loaded dataset
pub(crate) enum Prebuilt {
    Pending(Vec<(u32, Reply<TimelineRequest>)>),
    Ready { header: TimelineHeader, timeline: Timeline, columns: wasm_bindgen::JsValue },
}

/// Answers a timeline request with a built timeline and keeps its index.
fn hand_over(
    timeline_id: u32,
    dataset_ids: &[u32],
    mut header: TimelineHeader,
    t: Timeline,
    columns: &wasm_bindgen::JsValue,
    reply: Reply<TimelineRequest>,
) {
    header.timeline_id = timeline_id;
    reply.send_object(header, columns);
    SESSION.with_borrow_mut(|s| {
        s.timelines.insert(timeline_id, StoredTimeline { dataset_ids: dataset_ids.to_vec(), timeline: t });
    });
}

/// A timeline job's answer read: the header, the query index and the render columns.
fn built_timeline(
    answer: Result<(crate::jobs::FromJob, wasm_bindgen::JsValue), String>,
) -> Result<(TimelineHeader, Timeline, wasm_bindgen::JsValue), String> {
    let (reply, columns) = answer?;
    let crate::jobs::FromJob::TimelineBuilt { header } = reply else { return Err("the job built no timeline".to_owned()) };
    let index = crate::jobs::decode_at::<Timeline>(&columns, "index")?;
    let render = js_sys::Reflect::get(&columns, &wasm_bindgen::JsValue::from_str("timeline")).unwrap_or(wasm_bindgen::JsValue::UNDEFINED);
    Ok((header, index, render))
}

/// Waits for a load job's timeline ([`Prebuilt`]): handed to the page at once when it asked
/// for it meanwhile (the last request; the page superseded the earlier ones), else kept until
/// it does.
pub(crate) async fn receive_prebuilt(generation: u64, dataset_id: u32, done: js_sys::Promise) {
    let answer = built_timeline(crate::jobs::answer(done).await);
    let waiting = SESSION.with_borrow_mut(|s| {
        if s.generation != generation {
            return None;
        }
        match s.prebuilt.remove(&dataset_id) {
            Some(Prebuilt::Pending(waiting)) => Some(waiting),
            _ => None,
        }
    });
    let Some(mut waiting) = waiting else { return };
    match answer {
        Ok((header, t, render)) => {
            crate::session::bench_log(&format!(
                "pypto-worker timeline of dataset {dataset_id}: {} bars, built by the load job",
                t.source.len()
            ));
            match waiting.pop() {
                Some((timeline_id, reply)) => hand_over(timeline_id, &[dataset_id], header, t, &render, reply),
                None => SESSION.with_borrow_mut(|s| {
                    s.prebuilt.insert(dataset_id, Prebuilt::Ready { header, timeline: t, columns: render });
                }),
            }
        }
        Err(message) => {
            if let Some((_, reply)) = waiting.pop() {
                reply.fail(format!("the timeline could not be built: {message}"));
            }
        }
    }
}

/// Builds the timeline of `models` with its render columns in JS typed arrays (filled piece by
/// piece, so they never all sit in wasm memory).
pub(crate) fn build_columns(models: &[(&str, &RuntimeModel)]) -> (Timeline, js_sys::Object) {
    let started_ms = crate::graph::now_ms();
    let mut sink = JsColumns::new(timeline::bar_capacity(models));
    let t = timeline::build_into(models, &mut sink);
    crate::session::bench_log(&format!(
        "pypto-worker timeline built: {} bars in {:.0} ms",
        t.source.len(),
        crate::graph::now_ms() - started_ms
    ));
    let columns = sink.into_columns(&t.track_offsets, &t.name_index).into_object();
    (t, columns)
}

/// `ToWorker::Timeline`: the load job's prebuilt timeline of one dataset (its columns handed
/// over once), else one a job builds from the datasets' files (the resident models keep no
/// scheduler phases to lay out); answers header + columns and keeps the index.
pub(crate) fn timeline(request: TimelineRequest, reply: Reply<TimelineRequest>) {
    let TimelineRequest { timeline_id, dataset_ids } = request;
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
    let (datasets, files) = match crate::session::job_inputs(&dataset_ids) {
        Ok(inputs) => inputs,
        Err(message) => return reply.fail(message),
    };
    let generation = SESSION.with_borrow(|s| s.generation);
    wasm_bindgen_futures::spawn_local(async move {
        let request = crate::jobs::ToJob::Timeline { datasets, dataset_ids: dataset_ids.clone() };
        let answer = built_timeline(crate::jobs::ask(&request, &files).await);
        if SESSION.with_borrow(|s| s.generation) != generation {
            return;
        }
        match answer {
            Ok((header, t, render)) => hand_over(timeline_id, &dataset_ids, header, t, &render, reply),
            Err(message) => reply.fail(format!("the timeline could not be built: {message}")),
        }
    });
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
    let generation = SESSION.with_borrow(|s| s.generation);
    let reads: Vec<_> = wanted.iter().map(|&(d, f, o, l)| ((d, f, o, l), source_of(d, f))).collect();
    wasm_bindgen_futures::spawn_local(async move {
        let mut got = Vec::with_capacity(reads.len());
        for (key, source) in reads {
            let bytes = match source {
                Some(source) => crate::reading::read_range(&source, key.2, key.3).await,
                None => None,
            };
            got.push((key, bytes));
        }
        if SESSION.with_borrow(|s| s.generation) != generation {
            return;
        }
        let read = |d: usize, f: DetailFile, o: u64, l: u32| got.iter().find(|(k, _)| *k == (d, f, o, l)).and_then(|(_, b)| b.clone());
        match with_timeline(timeline_id, |t, m| replies::bar_details(timeline_id, bar, t, m, &read)) {
            Ok(result) => reply.answer(result),
            Err(message) => reply.fail(message),
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
    let Some(dataset_ids) = SESSION.with_borrow(|s| s.timelines.get(&timeline_id).map(|t| t.dataset_ids.clone())) else {
        return reply.fail(format!("timeline {timeline_id} is not built (request Timeline first)"));
    };
    let (datasets, files) = match crate::session::job_inputs(&dataset_ids) {
        Ok(inputs) => inputs,
        Err(message) => return reply.fail(message),
    };
    let generation = SESSION.with_borrow(|s| s.generation);
    wasm_bindgen_futures::spawn_local(async move {
        let answer = crate::jobs::ask(&crate::jobs::ToJob::ExportTrace { datasets, window_us }, &files).await;
        if SESSION.with_borrow(|s| s.generation) != generation {
            return;
        }
        match answer {
            Ok((crate::jobs::FromJob::TraceExported { slices, flows }, columns)) => {
                let file_name = if window_us.is_some() { "pypto-swimlane-window.perfetto.json" } else { "pypto-swimlane.perfetto.json" };
                reply.send_object(TraceExport { timeline_id, file_name: file_name.to_owned(), slices, flows }, &columns);
            }
            Ok(_) => reply.fail("the export job answered something else".to_owned()),
            Err(message) => reply.fail(format!("Perfetto export failed: {message}")),
        }
    });
}
