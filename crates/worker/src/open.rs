//! Opening a folder (`OpenFolder`, `OpenUrl` through a manifest), for the page's session:
//! forgets the previous folder, announces the datasets discovery finds, loads each one —
//! a runtime dataset in a load job (resident model, and the timeline of the first one the
//! page opens; a small one, up to [`IN_WORKER_LOAD_MAX_BYTES`] of files, here without a job),
//! a pass dump's files remembered, a serving STRACE file parsed — and announces
//! each summary, then the end of the load. The handlers answer the page's requests about
//! what this leaves in `store`, `pass_dumps` and `trace_store`.
//!
//! A source opened "as comparison" (the runs to compare with) is loaded beside the opened
//! folder instead: the folder stays, the previous comparison source is forgotten, and the new
//! one's entries are prefixed with its name (so every path stays unique: links name datasets by
//! path) and its datasets numbered from [`COMPARISON_ID_BASE`].
//!
//! The user's Cancel ([`cancel`]) stops the long work running: load jobs are terminated,
//! reads fail; the open goes on without loading — its runtime and STRACE datasets still to
//! load are announced [`DatasetSummary::cancelled`], pass dumps (read on demand) are kept — and
//! ends as usual, so whatever loaded stays usable.

use pypto_analysis::trace_timeline;
use pypto_formats::{discovery, manifest};
use pypto_protocol::datasets::{DatasetLoaded, DatasetSummary, Datasets, EntryMeta, FileError, LoadFinished, COMPARISON_ID_BASE};
use pypto_protocol::FromWorker;
use pypto_replies::datasets;
use wasm_bindgen::JsValue;

use crate::bench_log::bench_log;
use crate::clock::now_ms;
use crate::jobs::{self, FromJob, LoadedRuntime, RuntimeInputs, ToJob};
use crate::store::{Prebuilt, RuntimeDataset, SESSION};
use crate::{graph, job_work, layout_warm_up, pass_dumps, prebuilt, reading, trace_store, transport};

/// `OpenUrl`: fetches the dataset manifest at `url` (or `url/pypto-viewer-manifest.json`) and
/// opens the entries it lists as URLs beside it. Another open while the manifest is on its way
/// makes this one stop, silently.
pub(crate) async fn open_url(url: String, as_comparison: bool) {
    let started_ms = now_ms();
    let source = Source::begin(as_comparison);
    let manifest_url = if std::path::Path::new(&url).extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) {
        url.clone()
    } else {
        format!("{}/{}", url.trim_end_matches('/'), manifest::FILE_NAME)
    };
    let base = manifest_url.rsplit_once('/').map_or(String::new(), |(dir, _)| format!("{dir}/"));
    let fetched = reading::fetch_bytes(&manifest_url).await;
    if source.stale() {
        return;
    }
    let bytes = match fetched {
        Ok(bytes) => bytes,
        Err(message) => {
            // A read that failed (stalled, network): a file error with a Retry.
            let error = FileError {
                path: manifest_url.clone(),
                line: 0,
                column: 0,
                message: format!("could not load the dataset manifest: {message}"),
                read_failed: true,
            };
            transport::post(&FromWorker::SourceFailed(error), None);
            transport::post(&FromWorker::LoadFinished(LoadFinished { elapsed_ms: 0.0, comparison: source.comparison.is_some() }), None);
            return;
        }
    };
    match manifest::parse(&manifest_url, &bytes) {
        Ok(listed) => {
            let mut entries = Vec::with_capacity(listed.len());
            let mut sources = Vec::with_capacity(listed.len());
            for (path, size_bytes) in listed {
                let encoded: String = js_sys::encode_uri(&path).into();
                sources.push(JsValue::from_str(&format!("{base}{encoded}")));
                entries.push(EntryMeta { path, size_bytes });
            }
            load_entries(&source, started_ms, url, entries, sources).await;
        }
        Err(err) => {
            transport::post(&FromWorker::Error { message: format!("bad dataset manifest: {err}") }, None);
            transport::post(&FromWorker::LoadFinished(LoadFinished { elapsed_ms: 0.0, comparison: source.comparison.is_some() }), None);
        }
    }
}

/// `OpenFolder`: the folder's `entries` with their `sources` (`File`s or URLs), as in the
/// module doc.
pub(crate) async fn open_entries(source_label: String, entries: Vec<EntryMeta>, sources: Vec<JsValue>, as_comparison: bool) {
    let started_ms = now_ms();
    let source = Source::begin(as_comparison);
    load_entries(&source, started_ms, source_label, entries, sources).await;
}

/// What is being opened: the folder (everything before is forgotten) or a comparison source
/// beside it, and the generations that make its load stop when something newer is opened.
struct Source {
    /// The folder's generation (a new folder stops a comparison load too).
    generation: u64,
    /// For a comparison source: its own generation (a newer comparison source stops it).
    comparison: Option<u64>,
    /// The cancel epoch when it began ([`reading::cancel_epoch`]).
    cancel_epoch: u64,
}

impl Source {
    /// Forgets what the new source replaces and returns it.
    fn begin(as_comparison: bool) -> Self {
        let cancel_epoch = reading::cancel_epoch();
        if as_comparison {
            let (generation, comparison) = forget_comparison();
            Self { generation, comparison: Some(comparison), cancel_epoch }
        } else {
            Self { generation: forget_previous(), comparison: None, cancel_epoch }
        }
    }

    /// Whether the user cancelled since it began (its loads stop; the open goes on).
    fn cancelled(&self) -> bool {
        reading::cancelled_since(self.cancel_epoch)
    }

    /// Whether something newer was opened since (this load must stop).
    fn stale(&self) -> bool {
        SESSION.with_borrow(|s| s.generation != self.generation || self.comparison.is_some_and(|c| c != s.comparison_generation))
    }

    /// The id of the `index`-th dataset discovery finds: the folder's from 0; a comparison
    /// source's from [`COMPARISON_ID_BASE`], in a block of its own per comparison generation,
    /// so an id never names two datasets in one folder's life (what a handler cached of an
    /// earlier comparison source is never taken for the new one's).
    fn dataset_id(&self, index: usize) -> u32 {
        match self.comparison {
            None => index as u32,
            Some(c) => {
                let blocks = (u32::MAX - COMPARISON_ID_BASE) / COMPARISON_BLOCK;
                COMPARISON_ID_BASE + (c as u32 % blocks) * COMPARISON_BLOCK + (index as u32).min(COMPARISON_BLOCK - 1)
            }
        }
    }
}

/// Forgets the previous folder and stops its load (its jobs end; its other reads, finishing
/// later, find the generation changed) and returns the new generation.
fn forget_previous() -> u64 {
    let generation = SESSION.with_borrow_mut(|s| {
        s.generation += 1;
        s.runtime.clear();
        s.timelines.clear();
        s.prebuilt.clear();
        s.generation
    });
    // The previous comparison source goes with its folder (the folder's own files are replaced
    // when its listing comes; a comparison source opened with it may come first).
    trace_store::forget_comparison();
    pass_dumps::forget(|id| *id >= COMPARISON_ID_BASE);
    jobs::cancel_all();
    generation
}

/// Ids per comparison source (`Source::dataset_id`); a source with more datasets than this
/// loads only this many.
const COMPARISON_BLOCK: u32 = 1 << 16;

/// Forgets the previous comparison source (its datasets, their timelines and pass dumps) and
/// returns the folder's generation and the new comparison generation.
fn forget_comparison() -> (u64, u64) {
    let is_comparison = |id: &u32| *id >= COMPARISON_ID_BASE;
    pass_dumps::forget(is_comparison);
    trace_store::forget_comparison();
    SESSION.with_borrow_mut(|s| {
        s.comparison_generation += 1;
        s.runtime.retain(|id, _| !is_comparison(id));
        s.prebuilt.retain(|id, _| !is_comparison(id));
        s.timelines.retain(|_, t| !t.dataset_ids.iter().any(is_comparison));
        (s.generation, s.comparison_generation)
    })
}

/// The prefix of a comparison source's entries: its name (a folder's, or a URL's last path
/// segment), made unlike any path of the opened folder's `taken` (top-level names).
fn comparison_prefix(label: &str, taken: &[String]) -> String {
    let trimmed = label.trim_end_matches('/');
    let trimmed = trimmed.strip_suffix(manifest::FILE_NAME).map_or(trimmed, |t| t.trim_end_matches('/'));
    let name = trimmed.rsplit('/').next().filter(|n| !n.is_empty() && *n != "." && *n != "..").unwrap_or("comparison");
    let mut candidate = name.to_owned();
    let mut n = 2;
    while taken.iter().any(|t| t == &candidate) {
        candidate = format!("{name} ({n})");
        n += 1;
    }
    format!("{candidate}/")
}

/// Discovers the datasets of `entries`, announces them, then loads each, as in the module doc
/// (stops when another open begins).
async fn load_entries(source: &Source, started_ms: f64, source_label: String, mut entries: Vec<EntryMeta>, sources: Vec<JsValue>) {
    let comparison = source.comparison.is_some();
    if comparison {
        let prefix = comparison_prefix(&source_label, &trace_store::top_level_names());
        for e in &mut entries {
            e.path.insert_str(0, &prefix);
        }
        trace_store::add(&entries, &sources);
    } else {
        // The folder's own: a comparison source opened with it (`?src=…&compare=…`) may have
        // been listed first (its manifest came first) and stays.
        trace_store::reset(&entries, &sources);
        pass_dumps::forget(|id| *id < COMPARISON_ID_BASE);
    }
    let listing: Vec<(String, u64)> = entries.iter().map(|e| (e.path.clone(), e.size_bytes)).collect();
    let found = discovery::discover(&listing);
    let mut infos = datasets::dataset_infos(&found, &entries);
    for (index, info) in infos.iter_mut().enumerate() {
        info.dataset_id = source.dataset_id(index);
        info.comparison = comparison;
    }
    let announced = Datasets { source_label, datasets: infos, ignored_files: found.ignored_files, comparison };
    transport::post(&FromWorker::Datasets(announced), None);

    let mut prebuilt_one = comparison; // a comparison source's runs are shown beside the folder's, not alone

    // The first runtime dataset with a small enough deps.json: its graph is built when the
    // load ends, before the click (`graph::prebuild`).
    let mut graph_ahead = None;
    for (index, dataset) in found.datasets.iter().enumerate().take(if comparison { COMPARISON_BLOCK as usize } else { usize::MAX }) {
        if source.stale() {
            return;
        }
        let dataset_id = source.dataset_id(index);
        let summary = match dataset.kind {
            discovery::DatasetKind::Runtime | discovery::DatasetKind::ServingStrace if source.cancelled() => cancelled_summary(),
            discovery::DatasetKind::Runtime => {
                // The page opens the first dataset with records: its load job builds the
                // timeline too.
                let prebuild = !prebuilt_one && dataset.records.is_some();
                prebuilt_one |= prebuild;
                load_runtime(dataset_id, dataset, &entries, &sources, source, prebuild).await
            }
            discovery::DatasetKind::PassDump => {
                pass_dumps::remember(dataset_id, dataset, &entries, &sources);
                datasets::pass_dump_summary(dataset, &entries)
            }
            discovery::DatasetKind::ServingStrace => {
                let summary = load_strace(&dataset.path).await;
                if source.cancelled() {
                    cancelled_summary()
                } else {
                    summary
                }
            }
        };
        if source.stale() {
            return;
        }
        if graph_ahead.is_none() && !comparison && summary.deps.as_ref().is_some_and(|d| d.tasks <= graph::PREBUILD_MAX_TASKS) {
            graph_ahead = Some(dataset_id);
        }
        transport::post(&FromWorker::DatasetLoaded(DatasetLoaded { dataset_id, summary }), None);
    }
    transport::post(&FromWorker::LoadFinished(LoadFinished { elapsed_ms: now_ms() - started_ms, comparison }), None);
    if let Some(dataset_id) = graph_ahead.filter(|_| !source.stale() && !source.cancelled()) {
        let generation = source.generation;
        wasm_bindgen_futures::spawn_local(async move {
            after_timelines_taken(generation).await;
            if SESSION.with_borrow(|s| s.generation) == generation {
                graph::prebuild(dataset_id).await;
            }
        });
    }
}

/// Waits until the page has taken the timelines the load built for it (`SESSION.prebuilt`
/// empty), at most [`GRAPH_AHEAD_WAIT_MS`], or until another folder is opened: the graph
/// built ahead of the click holds this one thread for a while (its read, its build and
/// layout), and the first swimlane must not wait for a graph nobody asked for yet.
async fn after_timelines_taken(generation: u64) {
    let started_ms = now_ms();
    while now_ms() - started_ms < GRAPH_AHEAD_WAIT_MS {
        let waiting = SESSION.with_borrow(|s| s.generation == generation && !s.prebuilt.is_empty());
        if !waiting {
            return;
        }
        gloo::timers::future::TimeoutFuture::new(GRAPH_AHEAD_POLL_MS).await;
    }
}

/// How long the graph built ahead of the click waits for the page to take its first timeline.
const GRAPH_AHEAD_WAIT_MS: f64 = 3000.0;

/// How often [`after_timelines_taken`] looks.
const GRAPH_AHEAD_POLL_MS: u32 = 20;

/// The user's Cancel (`ToWorker::Cancel`): reads under way fail, every running job is
/// terminated (its memory goes back to the browser; whoever waits for it gets
/// [`reading::CANCELLED`]), then the page is told (after every message of the stopped work).
pub(crate) fn cancel() {
    reading::cancel_reads();
    let stopped = jobs::cancel_all_because(reading::CANCELLED);
    bench_log(&format!("pypto-worker cancel: {stopped} job(s) terminated"));
    transport::post(&FromWorker::Cancelled { stopped_jobs: u32::try_from(stopped).unwrap_or(u32::MAX) }, None);
}

/// A dataset the user's Cancel left unloaded.
fn cancelled_summary() -> DatasetSummary {
    DatasetSummary { cancelled: true, ..DatasetSummary::default() }
}

/// Open time, `ServingStrace` dataset: parse the file, summarise it (errors go to the
/// summary with their position, warnings with their file).
async fn load_strace(path: &str) -> DatasetSummary {
    let mut summary = DatasetSummary::default();
    match trace_store::load(path).await {
        Ok(s) => {
            let timeline = trace_timeline::build(&s);
            summary.warnings = timeline.warnings.iter().map(|w| w.clone().in_file(path)).collect();
            summary.trace = Some(pypto_replies::traces::summary(path, &s, &timeline));
        }
        Err(e) => summary.errors.push(e),
    }
    summary
}

/// A runtime dataset whose files (records, deps.json, name map, CPM, host phases) weigh at most
/// this is loaded in the analysis worker itself: a job's start (a worker, its wasm instance) and
/// the model's encoding and decoding cost more than the load, and what the load peaks at —
/// a few times the files — is little to keep in the analysis worker's memory, which the next
/// loads reuse. Bigger ones load in a job, whose peak goes back to the browser.
pub(crate) const IN_WORKER_LOAD_MAX_BYTES: u64 = 16 << 20;

/// Loads a runtime dataset in a job (`jobs`; a small one here, [`IN_WORKER_LOAD_MAX_BYTES`])
/// and keeps what it hands back: the resident model, the deps.json source when it was read
/// lean, the name map, and the single-dataset timeline (its query index, and its render
/// columns until the page asks).
async fn load_runtime(
    dataset_id: u32,
    dataset: &discovery::Dataset,
    entries: &[EntryMeta],
    sources: &[JsValue],
    source: &Source,
    prebuild_timeline: bool,
) -> DatasetSummary {
    let generation = source.generation;
    let deps_file = dataset.deps.and_then(|i| Some((entries.get(i)?.clone(), sources.get(i)?.clone())));
    // A big task graph: warm the layout's JIT now, while the rest loads (see graph.rs).
    if let Some((entry, _)) = &deps_file {
        layout_warm_up::warm_up_for(entry.size_bytes);
    }
    // The dataset's own files, in the order the job's indices name them.
    let mut inputs = RuntimeInputs {
        dataset_id,
        path: dataset.path.clone(),
        entries: Vec::new(),
        records: None,
        deps: None,
        name_map: None,
        host_phases: None,
        cpm: Vec::new(),
        prebuild_timeline,
    };
    let files = js_sys::Array::new();
    let mut take = |index: usize| -> Option<usize> {
        let (entry, source) = (entries.get(index)?, sources.get(index)?);
        inputs.entries.push(entry.clone());
        files.push(source);
        Some(inputs.entries.len() - 1)
    };
    let records = dataset.records.and_then(&mut take);
    let deps = dataset.deps.and_then(&mut take);
    let name_map = dataset.name_map.and_then(&mut take);
    let mut cpm = Vec::new();
    for file in &dataset.files {
        let is_static = match file.role {
            discovery::FileRole::CpmStatic => true,
            discovery::FileRole::CpmObserved => false,
            _ => continue,
        };
        if let Some(i) = take(file.entry_index) {
            cpm.push((i, is_static));
        }
    }
    let host_phases = dataset.files.iter().find(|f| f.role == discovery::FileRole::HostPhaseRecords).and_then(|f| take(f.entry_index));
    (inputs.records, inputs.deps, inputs.name_map, inputs.cpm, inputs.host_phases) = (records, deps, name_map, cpm, host_phases);
    let failed = |message: String| {
        let path = records.and_then(|i| inputs.entries.get(i)).map_or_else(|| dataset.path.clone(), |e| e.path.clone());
        DatasetSummary { errors: vec![FileError { path, line: 0, column: 0, message, read_failed: false }], ..DatasetSummary::default() }
    };
    let input_bytes: u64 = inputs.entries.iter().map(|e| e.size_bytes).sum();
    let loaded = if input_bytes <= IN_WORKER_LOAD_MAX_BYTES {
        load_here(&inputs, &files, source).await
    } else {
        load_in_job(&inputs, &files, source).await
    };
    let (summary, mut state, timeline) = match loaded {
        Ok(loaded) => loaded,
        Err(Unloaded::Cancelled) => return cancelled_summary(),
        Err(Unloaded::Failed(message)) => return failed(message),
        Err(Unloaded::Undecodable(mut summary, message)) => {
            summary.errors.push(FileError { path: dataset.path.clone(), line: 0, column: 0, message, read_failed: false });
            return *summary;
        }
    };
    if let Some(m) = state.model.as_mut() {
        m.shrink();
    }
    let records_facts = summary.records.as_ref().map(|r| (r.level, summary.warnings.clone()));
    let deps_source = if state.deps_lean { dataset.deps.and_then(|i| sources.get(i)).cloned() } else { None };
    // Without a model there is no timeline to wait for (a job built none).
    let timeline = if prebuild_timeline && state.model.is_some() { timeline } else { TimelineComing::Nothing };
    let current = !source.stale();
    SESSION.with_borrow_mut(|s| {
        if current {
            let records_source = dataset.records.and_then(|i| sources.get(i)).cloned();
            s.runtime.insert(
                dataset_id,
                RuntimeDataset {
                    model: state.model,
                    records_facts,
                    deps_source,
                    records_source,
                    deps_file,
                    names: state.names,
                    inputs,
                    files,
                },
            );
            if matches!(timeline, TimelineComing::FromJob(_)) {
                s.prebuilt.insert(dataset_id, Prebuilt::Pending(Vec::new()));
            }
        }
    });
    if let TimelineComing::FromJob(done) = timeline {
        wasm_bindgen_futures::spawn_local(prebuilt::receive_prebuilt(generation, dataset_id, done));
    } else if let (TimelineComing::Built(built), true) = (timeline, current) {
        let (header, t, columns) = *built;
        bench_log(&format!("pypto-worker timeline of dataset {dataset_id}: {} bars, built in the analysis worker", t.source.len()));
        SESSION.with_borrow_mut(|s| {
            s.prebuilt.insert(dataset_id, Prebuilt::Ready { header, timeline: t, columns });
        });
    }
    summary
}

/// What a runtime dataset's load left: its summary, the resident state and its timeline.
type Loaded = (DatasetSummary, LoadedRuntime, TimelineComing);

/// Why a runtime dataset's load left nothing to keep.
enum Unloaded {
    /// The user cancelled it.
    Cancelled,
    /// The job could not run or failed (the dataset's error).
    Failed(String),
    /// The job's state could not be decoded (an error added to its summary).
    Undecodable(Box<DatasetSummary>, String),
}

/// A small dataset's load, here ([`job_work::load_runtime_here`]).
async fn load_here(inputs: &RuntimeInputs, files: &js_sys::Array, source: &Source) -> Result<Loaded, Unloaded> {
    let started_ms = now_ms();
    let sources: Vec<JsValue> = files.iter().collect();
    let (summary, state, built) = job_work::load_runtime_here(inputs, &sources, &|| source.cancelled()).await;
    if source.cancelled() {
        return Err(Unloaded::Cancelled);
    }
    bench_log(&format!("pypto-worker model {}: loaded in the analysis worker in {:.0} ms", inputs.path, now_ms() - started_ms));
    Ok((summary, state, built.map_or(TimelineComing::Nothing, |b| TimelineComing::Built(Box::new(b)))))
}

/// A dataset's load in a job: its first answer (summary and encoded state) decoded; its
/// timeline, if asked for, follows while the page takes the summary.
async fn load_in_job(inputs: &RuntimeInputs, files: &js_sys::Array, source: &Source) -> Result<Loaded, Unloaded> {
    let started = jobs::start(&ToJob::LoadRuntime(inputs.clone()), files).map_err(Unloaded::Failed)?;
    let (summary, columns) = match jobs::answer(started.part).await {
        Ok((FromJob::RuntimeLoaded { summary }, columns)) => (summary, columns),
        Ok(_) => return Err(Unloaded::Failed("the load job answered something else".to_owned())),
        Err(_) if source.cancelled() => return Err(Unloaded::Cancelled),
        Err(message) => return Err(Unloaded::Failed(message)),
    };
    let decoded_from_ms = now_ms();
    let state = match jobs::decode_at::<LoadedRuntime>(&columns, "state") {
        Ok(state) => state,
        Err(message) => return Err(Unloaded::Undecodable(Box::new(summary), message)),
    };
    bench_log(&format!("pypto-worker model {}: decoded from the load job in {:.0} ms", inputs.path, now_ms() - decoded_from_ms));
    Ok((summary, state, TimelineComing::FromJob(started.done)))
}

/// The timeline of the dataset the page opens first, as its load leaves it.
enum TimelineComing {
    /// None asked for, or no model to build it from.
    Nothing,
    /// The load job's final answer, to come ([`prebuilt::receive_prebuilt`]).
    FromJob(jobs::Answer),
    /// Built with the load, here.
    Built(Box<job_work::BuiltTimeline>),
}
