//! The worker's session: what the last opened folder held, parsed and analysed, and the
//! handlers that answer the page's requests about it.

use std::cell::RefCell;
use std::collections::HashMap;

use pypto_analysis::runtime_model::RuntimeModel;
use pypto_formats::discovery;
use pypto_formats::{deps, manifest, name_map, records, FormatError};
use pypto_protocol::datasets::{DatasetLoaded, DatasetSummary, Datasets, EntryMeta, FileError, LoadFinished, Progress};
use pypto_protocol::FromWorker;
use pypto_replies::datasets::{self, read_error};
use wasm_bindgen::JsValue;

use crate::reading;
use crate::transport;

/// A runtime dataset: its path (group label prefix in multi-rank timelines) and its model
/// (absent when the records file is missing or unreadable).
pub(crate) struct RuntimeDataset {
    pub(crate) model: Option<RuntimeModel>,
    /// The deps.json `File` when it was read lean (task arguments re-read on demand).
    pub(crate) deps_source: Option<JsValue>,
    /// The records `File` (or URL): detached scheduler phases are read back from it.
    pub(crate) records_source: Option<JsValue>,
    /// The deps.json entry and `File` (or URL), re-read whole for the dependency graph.
    pub(crate) deps_file: Option<(EntryMeta, JsValue)>,
    /// The name map when no records model holds it (a folder with deps.json and a name map
    /// but no records: the dependency graph still names its functions).
    pub(crate) names: Option<name_map::NameMap>,
    /// The dataset's files, for the jobs that read them again (timelines, exports, paths).
    pub(crate) inputs: crate::jobs::RuntimeInputs,
    pub(crate) files: js_sys::Array,
}

#[derive(Default)]
pub(crate) struct Session {
    /// Bumped by every open; a load whose generation is stale stops.
    pub(crate) generation: u64,
    pub(crate) runtime: HashMap<u32, RuntimeDataset>,
    /// Built timelines by `timeline_id` (render columns already handed to the page).
    pub(crate) timelines: HashMap<u32, crate::timelines::StoredTimeline>,
    /// Single-dataset timelines the load jobs built, by dataset, until the page asks.
    pub(crate) prebuilt: HashMap<u32, crate::timelines::Prebuilt>,
}

thread_local! {
    pub(crate) static SESSION: RefCell<Session> = RefCell::new(Session::default());
}

pub(crate) fn now_ms() -> f64 {
    js_sys::Date::now()
}

pub(crate) async fn open_url(url: String) {
    let manifest_url = if std::path::Path::new(&url).extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) {
        url.clone()
    } else {
        format!("{}/{}", url.trim_end_matches('/'), manifest::FILE_NAME)
    };
    let base = manifest_url.rsplit_once('/').map_or(String::new(), |(dir, _)| format!("{dir}/"));
    let bytes = match reading::fetch_bytes(&manifest_url).await {
        Ok(bytes) => bytes,
        Err(message) => {
            transport::post(&FromWorker::Error { message: format!("could not load the dataset manifest: {message}") }, None);
            transport::post(&FromWorker::LoadFinished(LoadFinished { elapsed_ms: 0.0 }), None);
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
            open_entries(url, entries, sources).await;
        }
        Err(err) => {
            transport::post(&FromWorker::Error { message: format!("bad dataset manifest: {err}") }, None);
            transport::post(&FromWorker::LoadFinished(LoadFinished { elapsed_ms: 0.0 }), None);
        }
    }
}

pub(crate) async fn open_entries(source_label: String, entries: Vec<EntryMeta>, sources: Vec<JsValue>) {
    let started_ms = now_ms();
    let generation = SESSION.with_borrow_mut(|s| {
        s.generation += 1;
        s.runtime.clear();
        s.timelines.clear();
        s.prebuilt.clear();
        s.generation
    });
    crate::jobs::cancel_all();
    crate::traces::reset(&entries, &sources);
    crate::passes::reset();
    crate::memory_map::reset();
    let listing: Vec<(String, u64)> = entries.iter().map(|e| (e.path.clone(), e.size_bytes)).collect();
    let found = discovery::discover(&listing);
    let infos = datasets::dataset_infos(&found, &entries);
    transport::post(&FromWorker::Datasets(Datasets { source_label, datasets: infos, ignored_files: found.ignored_files }), None);

    let mut prebuilt_one = false;
    for (index, dataset) in found.datasets.iter().enumerate() {
        if SESSION.with_borrow(|s| s.generation) != generation {
            return;
        }
        let dataset_id = index as u32;
        let summary = match dataset.kind {
            discovery::DatasetKind::Runtime => {
                // The page opens the first dataset with records: its load job builds the
                // timeline too.
                let prebuild = !prebuilt_one && dataset.records.is_some();
                prebuilt_one |= prebuild;
                load_runtime(dataset_id, dataset, &entries, &sources, generation, prebuild).await
            }
            discovery::DatasetKind::PassDump => {
                crate::passes::remember(dataset_id, dataset, &entries, &sources);
                crate::memory_map::remember(dataset_id, dataset, &entries, &sources);
                datasets::pass_dump_summary(dataset, &entries)
            }
            discovery::DatasetKind::ServingStrace => crate::traces::load_strace(&dataset.path).await,
        };
        if SESSION.with_borrow(|s| s.generation) != generation {
            return;
        }
        transport::post(&FromWorker::DatasetLoaded(DatasetLoaded { dataset_id, summary }), None);
    }
    transport::post(&FromWorker::LoadFinished(LoadFinished { elapsed_ms: now_ms() - started_ms }), None);
}

/// Reads the entry at `entry_index`, or records why it could not be read.
pub(crate) async fn read_entry(
    entry_index: usize,
    entries: &[EntryMeta],
    sources: &[JsValue],
    errors: &mut Vec<FileError>,
) -> Option<(String, Vec<u8>)> {
    let entry = entries.get(entry_index)?;
    let source = sources.get(entry_index)?;
    let path = entry.path.clone();
    let mut on_progress = |done_bytes, total_bytes| {
        transport::post(&FromWorker::Progress(Progress { path: path.clone(), done_bytes, total_bytes }), None);
    };
    match reading::read_bytes(source, &mut on_progress).await {
        Ok(bytes) => Some((entry.path.clone(), bytes)),
        Err(message) => {
            errors.push(read_error(&entry.path, &message));
            None
        }
    }
}

/// The files of runtime datasets `ids` for a job: their inputs (in `ids` order) and every file,
/// one dataset's after the other's; `Err` names a dataset that is not a loaded runtime dataset.
pub(crate) fn job_inputs(ids: &[u32]) -> Result<(Vec<crate::jobs::RuntimeInputs>, js_sys::Array), String> {
    SESSION.with_borrow(|s| {
        let files = js_sys::Array::new();
        let mut inputs = Vec::with_capacity(ids.len());
        for id in ids {
            let d = s.runtime.get(id).ok_or_else(|| format!("dataset {id} is not a loaded runtime dataset"))?;
            if d.model.is_none() {
                return Err(format!("dataset {id} has no readable swimlane records"));
            }
            inputs.push(crate::jobs::RuntimeInputs { prebuild_timeline: false, ..d.inputs.clone() });
            for f in d.files.iter() {
                files.push(&f);
            }
        }
        Ok((inputs, files))
    })
}

/// Prints a progress line for the bench (`tests/bench/swimlane-bench.mjs` collects the
/// `pypto-worker …` lines), with the wasm memory size so far.
pub(crate) fn bench_log(line: &str) {
    let who = if crate::jobs::is_job() { " in the load job" } else { "" };
    let line = format!("{line} (wasm memory{who} {:.0} MiB)", crate::graph::wasm_memory_mib());
    if crate::jobs::is_job() {
        crate::jobs::log(&line);
    } else {
        web_sys::console::info_1(&JsValue::from_str(&line));
    }
}

/// Streams the entry at `entry_index` into `sink` (see [`reading::read_slices`]); `false` when
/// it could not be read (the reason is in `errors`).
async fn stream_entry(entry: &EntryMeta, source: &JsValue, sink: &mut dyn FnMut(&[u8]), errors: &mut Vec<FileError>) -> bool {
    let path = entry.path.clone();
    let mut on_progress = |done_bytes, total_bytes| {
        transport::post(&FromWorker::Progress(Progress { path: path.clone(), done_bytes, total_bytes }), None);
    };
    let started_ms = now_ms();
    match reading::read_slices(source, sink, &mut on_progress).await {
        Ok(t) => {
            // For the bench (`tests/bench/swimlane-bench.mjs` collects these lines).
            let line = format!(
                "pypto-worker read {}: {:.1} MB in {:.0} ms ({:.0} ms waiting for bytes in {} reads, {:.0} ms parsing)",
                entry.path,
                entry.size_bytes as f64 / 1e6,
                now_ms() - started_ms,
                t.wait_ms,
                t.reads,
                t.sink_ms
            );
            bench_log(&line);
            true
        }
        Err(message) => {
            errors.push(read_error(&entry.path, &message));
            false
        }
    }
}

/// Reads a deps.json: a large file slice by slice ([`deps::DepsStream`], its text is never held
/// whole), a small one (or one the stream gave up on, for the exact error position) whole.
pub(crate) async fn parse_deps(
    index: usize,
    entries: &[EntryMeta],
    sources: &[JsValue],
    errors: &mut Vec<FileError>,
) -> Option<(String, Result<deps::Deps, FormatError>)> {
    let entry = entries.get(index)?;
    let source = sources.get(index)?;
    if entry.size_bytes > reading::SLICE_BYTES {
        // The file (or URL, by a `Range` request) is re-read for one task's arguments when the
        // details ask, so the arguments are not kept.
        let mut stream = deps::DepsStream::lean();
        if !stream_entry(entry, source, &mut |b| stream.feed(b), errors).await {
            return None;
        }
        if let Some(parsed) = stream.finish() {
            return Some((entry.path.clone(), Ok(parsed)));
        }
    }
    let (path, bytes) = read_entry(index, entries, sources, errors).await?;
    let parsed = deps::parse(&path, &bytes);
    Some((path, parsed))
}

/// Reads a records file slice by slice ([`records::RecordsStream`], which also notes where
/// each scheduler record is, so the resident model can read one back instead of keeping it),
/// or whole when the stream gave up (for the exact error position).
pub(crate) async fn parse_records(
    index: usize,
    entries: &[EntryMeta],
    sources: &[JsValue],
    errors: &mut Vec<FileError>,
) -> Option<(String, Result<records::ChipRecords, FormatError>)> {
    let entry = entries.get(index)?;
    let mut stream = records::RecordsStream::new();
    if !stream_entry(entry, sources.get(index)?, &mut |b| stream.feed(b), errors).await {
        return None;
    }
    if let Some(parsed) = stream.finish(&entry.path) {
        return Some((entry.path.clone(), Ok(parsed)));
    }
    let (path, bytes) = read_entry(index, entries, sources, errors).await?;
    let parsed = records::parse(&path, &bytes);
    Some((path, parsed))
}

/// Loads a runtime dataset in a job ([`crate::jobs`]) and keeps what it hands back: the
/// resident model, the deps.json source when it was read lean, the name map, and the
/// single-dataset timeline (its query index, and its render columns until the page asks).
async fn load_runtime(
    dataset_id: u32,
    dataset: &discovery::Dataset,
    entries: &[EntryMeta],
    sources: &[JsValue],
    generation: u64,
    prebuild_timeline: bool,
) -> DatasetSummary {
    let deps_file = dataset.deps.and_then(|i| Some((entries.get(i)?.clone(), sources.get(i)?.clone())));
    // A big task graph: warm the layout's JIT now, while the rest loads (see graph.rs).
    if let Some((entry, _)) = &deps_file {
        crate::graph::warm_up_for(entry.size_bytes);
    }
    // The dataset's own files, in the order the job's indices name them.
    let mut inputs = crate::jobs::RuntimeInputs {
        dataset_id,
        path: dataset.path.clone(),
        entries: Vec::new(),
        records: None,
        deps: None,
        name_map: None,
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
    inputs.records = records;
    inputs.deps = deps;
    inputs.name_map = name_map;
    inputs.cpm = cpm;
    let failed = |message: String| {
        let path = records.and_then(|i| inputs.entries.get(i)).map_or_else(|| dataset.path.clone(), |e| e.path.clone());
        DatasetSummary { errors: vec![FileError { path, line: 0, column: 0, message }], ..DatasetSummary::default() }
    };
    let started = match crate::jobs::start(&crate::jobs::ToJob::LoadRuntime(inputs.clone()), &files) {
        Ok(started) => started,
        Err(message) => return failed(message),
    };
    // The job's first answer: the summary and the resident state (its timeline, if asked for,
    // follows while the page takes the summary).
    let (mut summary, columns) = match crate::jobs::answer(started.part).await {
        Ok((crate::jobs::FromJob::RuntimeLoaded { summary }, columns)) => (summary, columns),
        Ok(_) => return failed("the load job answered something else".to_owned()),
        Err(message) => return failed(message),
    };
    let decoded_from_ms = now_ms();
    let state: crate::jobs::LoadedRuntime = match crate::jobs::decode_at::<crate::jobs::LoadedRuntime>(&columns, "state") {
        Ok(mut state) => {
            if let Some(m) = state.model.as_mut() {
                m.shrink();
            }
            state
        }
        Err(message) => {
            summary.errors.push(FileError { path: dataset.path.clone(), line: 0, column: 0, message });
            return summary;
        }
    };
    bench_log(&format!("pypto-worker model {}: decoded from the load job in {:.0} ms", dataset.path, now_ms() - decoded_from_ms));
    if let Some(r) = &summary.records {
        crate::perf_panel::remember(generation, dataset_id, r.level, r.warnings.clone());
    }
    let deps_source = if state.deps_lean { dataset.deps.and_then(|i| sources.get(i)).cloned() } else { None };
    let prebuilding = prebuild_timeline && state.model.is_some();
    SESSION.with_borrow_mut(|s| {
        if s.generation == generation {
            let records_source = dataset.records.and_then(|i| sources.get(i)).cloned();
            s.runtime.insert(
                dataset_id,
                RuntimeDataset { model: state.model, deps_source, records_source, deps_file, names: state.names, inputs, files },
            );
            if prebuilding {
                s.prebuilt.insert(dataset_id, crate::timelines::Prebuilt::Pending(Vec::new()));
            }
        }
    });
    if prebuilding {
        wasm_bindgen_futures::spawn_local(crate::timelines::receive_prebuilt(generation, dataset_id, started.done));
    }
    summary
}
