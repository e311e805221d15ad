//! What a job does (the job instance's side of `jobs`): read and analyse runtime datasets
//! from their files — a dataset's load (summary, resident model, its timeline's render
//! columns), a timeline of one or more datasets, a Perfetto export, the Performance Analysis
//! path tables — or lay out a big dependency graph or diff a big pass from the input the
//! analysis worker encoded, and post its answer to the analysis worker that started it
//! ([`handle`], the job's entry). Each runs in a job's own wasm instance, so what it peaks at is given back
//! when the job ends — except a small runtime dataset's load, which `open` runs in the analysis
//! worker itself ([`load_runtime_here`]: starting a job would cost more than the load).

use pypto_analysis::alignment::AlignmentPlan;
use pypto_analysis::runtime_model::{CpmInputs, RuntimeModel};
use pypto_analysis::timeline::{self, Timeline, TimelineBuilder};
use pypto_formats::host_phase_records::{self, HostPhaseRecords};
use pypto_formats::{cpm, deps, name_map, FormatError, Warning};
use pypto_protocol::datasets::{DatasetSummary, EntryMeta, FileError, HostPhasesSummary, Progress, ProgressStage};
use pypto_protocol::pass_trace::SnapshotLines;
use pypto_protocol::timeline::TimelineHeader;
use pypto_replies::datasets::{self, file_error, WarningSources};
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};

use crate::bench_log::bench_log;
use crate::clock::now_ms;
use crate::entries::{parse_deps, parse_records, read_entry};
use crate::jobs::{self, FromJob, LoadedRuntime, PathResult, RuntimeInputs, ToJob};
use crate::reading;
use crate::render_columns::{self, JsColumns};

/// The steps `RuntimeModel::build_owned_with` reports (its `step` calls).
const MODEL_STEPS: u64 = 7;

/// Tells the page how far this job's `stage` is (`done` of `total` steps of `path`).
fn progress(stage: ProgressStage, path: &str, done: u64, total: u64) {
    let progress = Progress { path: path.to_owned(), done_bytes: done, total_bytes: total, stage };
    crate::transport::post(&pypto_protocol::FromWorker::Progress(progress), None);
}

/// A step counter for `stage` of `path` that tells the page at the first and last step and
/// at most every [`STEP_POST_MS`] between (a pass list steps once per snapshot).
fn stepper(stage: ProgressStage, path: &str) -> impl FnMut(u64, u64) + '_ {
    let mut last_ms = f64::NEG_INFINITY;
    move |done, total| {
        let now = now_ms();
        if done == 0 || done >= total || now - last_ms >= STEP_POST_MS {
            last_ms = now;
            progress(stage, path, done, total);
        }
    }
}

/// The shortest time between two posted steps of one piece of work.
const STEP_POST_MS: f64 = 100.0;

/// Handles the `{ job }` message that makes this instance a job: runs it and posts its answer.
pub(crate) fn handle(data: &JsValue, files: js_sys::Array) {
    jobs::become_job();
    let stall_timeout_ms = js_sys::Reflect::get(data, &JsValue::from_str(jobs::STALL_TIMEOUT_KEY)).ok().and_then(|v| v.as_f64());
    reading::set_stall_timeout_ms(stall_timeout_ms.map(|ms| ms as u32));
    let job = js_sys::Reflect::get(data, &JsValue::from_str("job")).unwrap_or(JsValue::UNDEFINED);
    let request = match serde_wasm_bindgen::from_value::<ToJob>(job) {
        Ok(request) => request,
        Err(e) => return jobs::post(&FromJob::Failed { message: format!("unreadable job request: {e}") }, &js_sys::Object::new()),
    };
    let input = js_sys::Reflect::get(data, &JsValue::from_str(jobs::INPUT_KEY)).ok().and_then(|v| v.dyn_into::<js_sys::Array>().ok());
    wasm_bindgen_futures::spawn_local(async move {
        let sources: Vec<JsValue> = files.iter().collect();
        let (reply, columns) = match request {
            ToJob::LoadRuntime(inputs) => load_runtime(&inputs, &sources).await,
            ToJob::Timeline { datasets, dataset_ids, alignment } => build_timeline(&datasets, &dataset_ids, alignment, &sources).await,
            ToJob::ExportTrace { datasets, window_us, alignment } => export_trace(&datasets, window_us, alignment, &sources).await,
            ToJob::PerfPaths(inputs) => path_tables(&inputs, &sources).await,
            ToJob::LayoutGraph { node_count, left_right, aspect, quiet } => lay_out_graph(node_count, left_right, aspect, quiet, input),
            ToJob::PassDiff => diff_pass(input),
            ToJob::PassList => list_passes(input),
            ToJob::ParseDeps { entry } => parse_deps_job(entry, &sources).await,
        };
        jobs::post(&reply, &columns);
    });
}

/// Reads and analyses one runtime dataset: its summary (file errors included) and the model.
/// A big deps.json is parsed in a job of its own ([`parse_deps_job`]) while this one parses
/// the records: two cores. Otherwise local files (`File`s) of deps.json and the records are
/// read at the same time, so the waits for their bytes overlap; over HTTP too when both are
/// at most a slice ([`reading::SLICE_BYTES`]: each read is then mostly a round trip), else one
/// after the other (two big streams at once were slower: the server and the browser share the
/// machine's cores with the parser). When no file of the dataset is above a slice, the name
/// map, the CPM files (at most [`CPM_READS_IN_FLIGHT`] at a time) and the host phases are read
/// meanwhile, so a small dataset's files are all in flight at once; else after them.
///
/// `should_stop` says whether to stop after a read (the user cancelled a load running in the
/// analysis worker: nothing of it may be said after the `Cancelled`); a job never stops so (it
/// is terminated).
async fn read_dataset(inputs: &RuntimeInputs, sources: &[JsValue], should_stop: &dyn Fn() -> bool) -> (DatasetSummary, LoadedRuntime) {
    let mut summary = DatasetSummary::default();
    let mut deps_model = None;
    let mut deps_lean = false;
    // A small capture's files (none above a slice: each read is little more than a round trip,
    // and none posts read progress) are all asked for at once, each parsed as it arrives on this
    // one thread; a bigger one's extras are read after deps.json and the records, so the progress
    // bar follows one file at a time.
    let (mut names_errors, mut cpm_errors, mut cpm_warnings, mut host_errors) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let all_at_once = inputs.entries.iter().all(|e| e.size_bytes <= reading::SLICE_BYTES);
    let ((deps_read, mut deps_errors, records_read, mut records_errors), names_read, cpm_inputs, host_read) = if all_at_once {
        futures_util::future::join4(
            read_deps_and_records(inputs, sources),
            read_name_map(inputs, sources, &mut names_errors),
            read_cpm(inputs, sources, &mut cpm_errors, &mut cpm_warnings),
            read_host_phases(inputs, sources, &mut host_errors),
        )
        .await
    } else {
        let main_files = read_deps_and_records(inputs, sources).await;
        let names_read = read_name_map(inputs, sources, &mut names_errors).await;
        let cpm_inputs = read_cpm(inputs, sources, &mut cpm_errors, &mut cpm_warnings).await;
        (main_files, names_read, cpm_inputs, read_host_phases(inputs, sources, &mut host_errors).await)
    };
    if should_stop() {
        return (summary, LoadedRuntime::default());
    }
    // In the order the files were read one after the other before.
    summary.errors.append(&mut deps_errors);
    // Each file's warnings with its path, for the dataset's list (`datasets::runtime_warnings`).
    let (mut deps_warnings, mut names_warnings, mut records_warnings, mut host_warnings) = (None, None, None, None);
    let mut analysis_warnings = Vec::new();
    if let Some((path, parsed)) = deps_read {
        match parsed {
            Ok(parsed) => {
                deps_warnings = Some((path.clone(), parsed.warnings.clone()));
                summary.deps = Some(datasets::deps_summary(path, &parsed));
                deps_lean = !parsed.task_offsets.is_empty();
                deps_model = Some(parsed);
            }
            Err(err) => summary.errors.push(file_error(err)),
        }
    }
    summary.errors.append(&mut names_errors);
    let mut names_model = None;
    if let Some((path, parsed)) = names_read {
        names_warnings = Some((path, parsed.warnings.clone()));
        summary.name_map_entries = Some(parsed.entries.len() as u64);
        names_model = Some(parsed);
    }
    summary.errors.append(&mut cpm_errors);
    summary.warnings.append(&mut cpm_warnings);
    summary.errors.append(&mut host_errors);
    let mut state = LoadedRuntime { deps_lean, cpm: cpm_inputs.clone(), ..Default::default() };
    summary.errors.append(&mut records_errors);
    if let Some((path, parsed)) = records_read {
        match parsed {
            Ok(parsed) => {
                let build_started_ms = now_ms();
                let mut last_ms = build_started_ms;
                let mut steps_done = 0u64;
                let mut step = |name: &str| {
                    let now = now_ms();
                    bench_log(&format!("pypto-worker model step {name}: {:.0} ms", now - last_ms));
                    last_ms = now;
                    steps_done += 1;
                    progress(ProgressStage::Model, &inputs.path, steps_done.min(MODEL_STEPS), MODEL_STEPS);
                };
                progress(ProgressStage::Model, &inputs.path, 0, MODEL_STEPS);
                let (built, facts) = RuntimeModel::build_owned_with(parsed, deps_model.take(), names_model.take(), cpm_inputs, &mut step);
                bench_log(&format!("pypto-worker model {path}: built in {:.0} ms", now_ms() - build_started_ms));
                records_warnings = Some((path.clone(), facts.warnings.clone()));
                analysis_warnings.clone_from(&built.warnings);
                if built.deps.is_some() {
                    analysis_warnings.extend(datasets::edge_mode_warnings(built.has_dependency_cycle()));
                }
                summary.records = Some(datasets::records_summary(path, &facts));
                let mut built = built;
                if let Some((path, parsed)) = &host_read {
                    host_warnings = Some(attach_host_phases(path, parsed, &mut built, &mut summary));
                }
                state.model = Some(built);
            }
            Err(err) => summary.errors.push(file_error(err)),
        }
    }
    if state.model.is_none() {
        state.names = names_model;
    }
    // The CPM files' warnings (`read_cpm`) name their files; they follow the analyses'.
    analysis_warnings.append(&mut summary.warnings);
    summary.warnings = datasets::runtime_warnings(&WarningSources {
        deps: file_warnings(deps_warnings.as_ref()),
        name_map: file_warnings(names_warnings.as_ref()),
        records: file_warnings(records_warnings.as_ref()),
        host_phases: file_warnings(host_warnings.as_ref()),
        analyses: &analysis_warnings,
    });
    (summary, state)
}

/// A parse of deps.json or of the records: its path and what it gave.
type Parsed<T> = Option<(String, Result<T, FormatError>)>;

/// Parses the dataset's deps.json and records (each with its read errors), at the same time
/// where that is faster (see [`read_dataset`]).
async fn read_deps_and_records(
    inputs: &RuntimeInputs,
    sources: &[JsValue],
) -> (Parsed<deps::Deps>, Vec<FileError>, Parsed<pypto_formats::records::ChipRecords>, Vec<FileError>) {
    let entries = &inputs.entries;
    let (mut deps_errors, mut records_errors) = (Vec::new(), Vec::new());
    let is_url = |i: Option<usize>| i.and_then(|i| sources.get(i)).is_some_and(JsValue::is_string);
    let deps_alone = inputs.deps.and_then(|i| Some((entries.get(i)?, sources.get(i)?))).filter(|(e, _)| e.size_bytes >= DEPS_JOB_MIN_BYTES);
    let read_deps = async {
        match (deps_alone, inputs.deps) {
            (Some((entry, source)), _) => deps_in_a_job(entry, source, &mut deps_errors).await,
            (None, Some(index)) => parse_deps(index, entries, sources, &mut deps_errors).await,
            (None, None) => None,
        }
    };
    let read_records = async {
        match inputs.records {
            Some(index) => parse_records(index, entries, sources, &mut records_errors).await,
            None => None,
        }
    };
    // Over HTTP, one after the other when either is more than a slice (see [`read_dataset`]).
    let big = |i: Option<usize>| i.and_then(|i| entries.get(i)).is_some_and(|e| e.size_bytes > reading::SLICE_BYTES);
    let one_after_other = (is_url(inputs.deps) || is_url(inputs.records)) && (big(inputs.deps) || big(inputs.records));
    let (deps_read, records_read) = if deps_alone.is_none() && one_after_other {
        let d = read_deps.await;
        (d, read_records.await)
    } else {
        // Polled together (one thread: while one waits for bytes — or for the deps job —, the
        // other parses).
        futures_util::future::join(read_deps, read_records).await
    };
    (deps_read, deps_errors, records_read, records_errors)
}

/// A deps.json at least this big is parsed in a job of its own beside the records' parse
/// (below it, starting a job costs more than the parse).
const DEPS_JOB_MIN_BYTES: u64 = 64 * 1024 * 1024;

/// Parses a big deps.json in a job of its own ([`ToJob::ParseDeps`]) and waits for it: what
/// [`parse_deps`] gives, its read errors into `errors`. Its progress goes to the page as this
/// job's does; terminating this job terminates it.
async fn deps_in_a_job(
    entry: &EntryMeta,
    source: &JsValue,
    errors: &mut Vec<FileError>,
) -> Option<(String, Result<deps::Deps, FormatError>)> {
    let files = js_sys::Array::of1(source);
    let fail = |message: String| FileError { path: entry.path.clone(), line: 0, column: 0, message, read_failed: false };
    let answer = match jobs::start(&ToJob::ParseDeps { entry: entry.clone() }, &files) {
        Ok(started) => jobs::answer(started.done).await,
        Err(message) => Err(message),
    };
    let decoded_from_ms = now_ms();
    let parsed = match answer {
        Ok((FromJob::DepsParsed, columns)) => jobs::decode_at::<jobs::DepsParsed>(&columns, jobs::DEPS_KEY),
        Ok(_) => Err("the deps.json job answered something else".to_owned()),
        Err(message) => Err(message),
    };
    match parsed {
        Ok(mut parsed) => {
            bench_log(&format!("pypto-worker deps {}: decoded from its job in {:.0} ms", entry.path, now_ms() - decoded_from_ms));
            errors.append(&mut parsed.errors);
            parsed.read
        }
        Err(message) => {
            errors.push(fail(message));
            None
        }
    }
}

/// Reads the dataset's name map, when it has one (an unreadable file is an error in `errors`).
async fn read_name_map(inputs: &RuntimeInputs, sources: &[JsValue], errors: &mut Vec<FileError>) -> Option<(String, name_map::NameMap)> {
    let (path, bytes) = read_entry(inputs.name_map?, &inputs.entries, sources, errors).await?;
    match name_map::parse(&path, &bytes) {
        Ok(parsed) => Some((path, parsed)),
        Err(err) => {
            errors.push(file_error(err));
            None
        }
    }
}

/// The deps.json job ([`ToJob::ParseDeps`]): parses its one file as the load would
/// ([`parse_deps`]) and answers a [`jobs::DepsParsed`].
async fn parse_deps_job(entry: EntryMeta, sources: &[JsValue]) -> (FromJob, js_sys::Object) {
    let mut errors = Vec::new();
    let read = parse_deps(0, std::slice::from_ref(&entry), sources, &mut errors).await;
    let encoded_from_ms = now_ms();
    let answer = encoded_answer(FromJob::DepsParsed, jobs::DEPS_KEY, &jobs::DepsParsed { read, errors });
    bench_log(&format!("pypto-worker deps {}: encoded in {:.0} ms", entry.path, now_ms() - encoded_from_ms));
    answer
}

/// Reads the dataset's `host_phase_records.jsonl`, when it has one (an unreadable file is an
/// error in `errors`).
async fn read_host_phases(inputs: &RuntimeInputs, sources: &[JsValue], errors: &mut Vec<FileError>) -> Option<(String, HostPhaseRecords)> {
    let (path, bytes) = read_entry(inputs.host_phases?, &inputs.entries, sources, errors).await?;
    match host_phase_records::parse(&path, &bytes) {
        Ok(parsed) => Some((path, parsed)),
        Err(err) => {
            errors.push(file_error(err));
            None
        }
    }
}

/// Places the host phases read from `path` on `model`'s timeline and says so in `summary`;
/// returns the file's path and warnings (its reader's, then what could not be placed).
fn attach_host_phases(
    path: &str,
    parsed: &HostPhaseRecords,
    model: &mut RuntimeModel,
    summary: &mut DatasetSummary,
) -> (String, Vec<Warning>) {
    let mut warnings = parsed.warnings.clone();
    warnings.extend(model.attach_host_phases(path, parsed));
    let h = &model.host_phases;
    summary.host_phases = Some(HostPhasesSummary {
        path: path.to_owned(),
        passes: parsed.pass_count() as u64,
        drawn: h.len() as u64,
        lanes: h.lanes.len() as u64,
    });
    (path.to_owned(), warnings)
}

/// A file's path and warnings, borrowed.
fn file_warnings(w: Option<&(String, Vec<Warning>)>) -> Option<(&str, &[Warning])> {
    w.map(|(p, ws)| (p.as_str(), ws.as_slice()))
}

/// How many of a dataset's `CPM_*.json` files are being read at once ([`read_cpm`]).
const CPM_READS_IN_FLIGHT: usize = 2;

/// The dataset's `CPM_*.json` paths (the first of each kind), their errors in `errors` and
/// warnings in `warnings`, in the files' order. [`CPM_READS_IN_FLIGHT`] are read at a time,
/// each parsed as it arrives.
async fn read_cpm(inputs: &RuntimeInputs, sources: &[JsValue], errors: &mut Vec<FileError>, warnings: &mut Vec<Warning>) -> CpmInputs {
    use futures_util::StreamExt;
    let mut cpm_inputs = CpmInputs::default();
    let parsed_files: Vec<_> = futures_util::stream::iter(inputs.cpm.iter().copied())
        .map(|(index, is_static)| async move {
            let mut read_errors = Vec::new();
            let parsed = read_entry(index, &inputs.entries, sources, &mut read_errors).await.map(|(path, bytes)| {
                let parsed = cpm::read_path(&path, &bytes);
                (path, parsed)
            });
            (is_static, parsed, read_errors)
        })
        .buffered(CPM_READS_IN_FLIGHT)
        .collect()
        .await;
    for (is_static, read, mut read_errors) in parsed_files {
        errors.append(&mut read_errors);
        if let Some((path, parsed)) = read {
            match parsed {
                Ok(parsed) => {
                    warnings.extend(parsed.warnings.iter().cloned());
                    let name = path.rsplit('/').next().unwrap_or(&path).to_string();
                    let slot = if is_static { &mut cpm_inputs.static_path } else { &mut cpm_inputs.observed_path };
                    if slot.is_none() {
                        *slot = Some((name, parsed));
                    }
                }
                Err(err) => errors.push(file_error(err)),
            }
        }
    }
    cpm_inputs
}

fn set(object: &js_sys::Object, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(object, &JsValue::from_str(key), value);
}

/// Encodes `value` into `columns[key]`, or says why it could not.
fn put_encoded<T: Serialize>(columns: &js_sys::Object, key: &str, value: &T) -> Result<(), String> {
    let started_ms = now_ms();
    let chunks = jobs::encode(value)?;
    set(columns, key, &chunks);
    bench_log(&format!("pypto-worker load job: {key} encoded in {:.0} ms", now_ms() - started_ms));
    Ok(())
}

/// [`ToJob::LoadRuntime`]: the dataset read and analysed. First posted (a part,
/// [`jobs::post_part`]): its summary and encoded state, the model's scheduler phases
/// detached — the dataset counts as loaded. Then, when asked (`inputs.prebuild_timeline`: the
/// page will open it first), its timeline: the render columns in `columns.timeline`, the
/// query index encoded in `columns.index`.
async fn load_runtime(inputs: &RuntimeInputs, sources: &[JsValue]) -> (FromJob, js_sys::Object) {
    let (summary, mut state) = read_dataset(inputs, sources, &|| false).await;
    // Detached copies of the phases go to the analysis worker; the whole ones stay for the
    // timeline.
    let whole_phases = state.model.as_mut().map(|m| {
        let detached = m.detached_phases();
        std::mem::replace(&mut m.phases, detached)
    });
    let part = js_sys::Object::new();
    if let Err(message) = put_encoded(&part, "state", &state) {
        return (FromJob::Failed { message }, js_sys::Object::new());
    }
    jobs::post_part(&FromJob::RuntimeLoaded { summary }, &part);
    let Some(mut model) = state.model.take().filter(|_| inputs.prebuild_timeline) else { return (FromJob::Done, js_sys::Object::new()) };
    if let Some(whole) = whole_phases {
        model.phases = whole;
    }
    progress(ProgressStage::Timeline, &inputs.path, 0, 1);
    let (mut t, timeline_columns) = render_columns::build_columns(&[(inputs.path.as_str(), &model)]);
    drop(model);
    progress(ProgressStage::Timeline, &inputs.path, 1, 1);
    let header = pypto_replies::timeline::header(0, &[inputs.dataset_id], &t);
    let columns = js_sys::Object::new();
    set(&columns, "timeline", &timeline_columns);
    t.compact_for_queries();
    if let Err(message) = put_encoded(&columns, "index", &t) {
        return (FromJob::Failed { message }, js_sys::Object::new());
    }
    (FromJob::TimelineBuilt { header }, columns)
}

/// A timeline built where its dataset was loaded: header, query index, render columns.
pub(crate) type BuiltTimeline = (TimelineHeader, Timeline, JsValue);

/// A small runtime dataset loaded in the analysis worker itself, for `open`: what a
/// [`ToJob::LoadRuntime`] job hands back — the summary, the resident state (the model's
/// scheduler phases detached) and, when asked (`inputs.prebuild_timeline`), the dataset's
/// timeline — with the same progress messages. `should_stop`: the user cancelled (the caller
/// then forgets what this returns); checked after the reads, so nothing is said after the
/// `Cancelled`.
pub(crate) async fn load_runtime_here(
    inputs: &RuntimeInputs,
    sources: &[JsValue],
    should_stop: &dyn Fn() -> bool,
) -> (DatasetSummary, LoadedRuntime, Option<BuiltTimeline>) {
    let (summary, mut state) = read_dataset(inputs, sources, should_stop).await;
    if should_stop() {
        return (summary, state, None);
    }
    let built = state.model.as_ref().filter(|_| inputs.prebuild_timeline).map(|model| {
        progress(ProgressStage::Timeline, &inputs.path, 0, 1);
        let (mut t, timeline_columns) = render_columns::build_columns(&[(inputs.path.as_str(), model)]);
        progress(ProgressStage::Timeline, &inputs.path, 1, 1);
        let header = pypto_replies::timeline::header(0, &[inputs.dataset_id], &t);
        t.compact_for_queries();
        (header, t, JsValue::from(timeline_columns))
    });
    // What stays resident, as a job hands it back: the phases detached.
    if let Some(m) = state.model.as_mut() {
        m.detach_phases();
    }
    (summary, state, built)
}

/// The files of dataset `k` of a job's `datasets` (each dataset's files follow the previous
/// dataset's in the job's `files`).
fn sources_of<'a>(datasets: &[RuntimeInputs], sources: &'a [JsValue], k: usize) -> &'a [JsValue] {
    let first: usize = datasets.iter().take(k).map(|d| d.entries.len()).sum();
    let n = datasets.get(k).map_or(0, |d| d.entries.len());
    sources.get(first..first + n).unwrap_or_default()
}

/// The model of dataset `k` of a job, or why there is none.
async fn model_of(datasets: &[RuntimeInputs], sources: &[JsValue], k: usize) -> Result<RuntimeModel, String> {
    let inputs = datasets.get(k).ok_or("no such dataset")?;
    let (summary, state) = read_dataset(inputs, sources_of(datasets, sources, k), &|| false).await;
    state.model.ok_or_else(|| {
        let why = summary.errors.first().map_or_else(String::new, |e| format!(": {} {}", e.path, e.message));
        format!("{} has no readable swimlane records{why}", inputs.path)
    })
}

/// [`ToJob::Timeline`]: the timeline of `datasets` (read one after the other,
/// each model dropped once its tracks are laid out) placed by `alignment`, its render columns
/// in `columns.timeline` and its query index encoded in `columns.index`.
async fn build_timeline(
    datasets: &[RuntimeInputs],
    dataset_ids: &[u32],
    alignment: AlignmentPlan,
    sources: &[JsValue],
) -> (FromJob, js_sys::Object) {
    let mut sink = JsColumns::new(0);
    let mut builder = TimelineBuilder::new(&mut sink, datasets.len() > 1).aligned(alignment);
    for (k, inputs) in datasets.iter().enumerate() {
        match model_of(datasets, sources, k).await {
            Ok(model) => {
                progress(ProgressStage::Timeline, &inputs.path, k as u64, datasets.len() as u64);
                builder.add(&inputs.path, &model);
            }
            Err(message) => return (FromJob::Failed { message }, js_sys::Object::new()),
        }
    }
    let mut t = builder.finish();
    if let Some(last) = datasets.last() {
        progress(ProgressStage::Timeline, &last.path, datasets.len() as u64, datasets.len() as u64);
    }
    let header = pypto_replies::timeline::header(0, dataset_ids, &t);
    let columns = js_sys::Object::new();
    set(&columns, "timeline", &sink.into_columns(&t.track_offsets, &t.name_index).into_object());
    t.compact_for_queries();
    if let Err(message) = put_encoded(&columns, "index", &t) {
        return (FromJob::Failed { message }, js_sys::Object::new());
    }
    (FromJob::TimelineBuilt { header }, columns)
}

/// [`ToJob::ExportTrace`]: the timeline of `datasets`, placed by `alignment`, as Chrome Trace
/// Event JSON (`columns.json`, bytes).
async fn export_trace(
    datasets: &[RuntimeInputs],
    window_us: Option<(f64, f64)>,
    alignment: AlignmentPlan,
    sources: &[JsValue],
) -> (FromJob, js_sys::Object) {
    let mut models = Vec::with_capacity(datasets.len());
    for k in 0..datasets.len() {
        match model_of(datasets, sources, k).await {
            Ok(model) => models.push(model),
            Err(message) => return (FromJob::Failed { message }, js_sys::Object::new()),
        }
    }
    let labelled: Vec<(&str, &RuntimeModel)> = datasets.iter().map(|d| d.path.as_str()).zip(&models).collect();
    let t = timeline::build_aligned(&labelled, alignment);
    let bare: Vec<&RuntimeModel> = models.iter().collect();
    let mut json = Vec::new();
    match pypto_analysis::timeline_export::write_chrome_trace(&t, &bare, window_us, &mut json) {
        Ok(counts) => {
            let columns = js_sys::Object::new();
            set(&columns, "json", &js_sys::Uint8Array::from(json.as_slice()));
            (FromJob::TraceExported { slices: counts.slices as u64, flows: counts.flows as u64 }, columns)
        }
        Err(e) => (FromJob::Failed { message: format!("Perfetto export failed: {e}") }, js_sys::Object::new()),
    }
}

/// [`ToJob::PerfPaths`]: the Performance Analysis path tables of one dataset,
/// from its records, deps.json and CPM files read again.
async fn path_tables(inputs: &RuntimeInputs, sources: &[JsValue]) -> (FromJob, js_sys::Object) {
    let mut summary = DatasetSummary::default();
    let deps = match inputs.deps {
        Some(index) => match parse_deps(index, &inputs.entries, sources, &mut summary.errors).await {
            Some((_, Ok(d))) => Some(d),
            _ => None,
        },
        None => None,
    };
    let names = match inputs.name_map {
        Some(index) => read_entry(index, &inputs.entries, sources, &mut summary.errors)
            .await
            .and_then(|(path, bytes)| name_map::parse(&path, &bytes).ok()),
        None => None,
    };
    let cpm_inputs = read_cpm(inputs, sources, &mut summary.errors, &mut summary.warnings).await;
    let Some(index) = inputs.records else {
        return (FromJob::Failed { message: format!("{} has no swimlane records", inputs.path) }, js_sys::Object::new());
    };
    let records = match parse_records(index, &inputs.entries, sources, &mut summary.errors).await {
        Some((_, Ok(r))) => r,
        Some((_, Err(e))) => {
            return (FromJob::Failed { message: format!("could not read the swimlane records again: {e}") }, js_sys::Object::new())
        }
        None => {
            let why = summary.errors.first().map_or_else(String::new, |e| format!(": {}", e.message));
            return (FromJob::Failed { message: format!("could not read the swimlane records again{why}") }, js_sys::Object::new());
        }
    };
    let tables = pypto_replies::perf_paths::path_tables(&records, deps, names.as_ref(), &cpm_inputs);
    let gap_us = tables.gap_blocker.gap_us.clone();
    let data = pypto_replies::perf_paths::to_protocol(inputs.dataset_id, tables);
    let columns = js_sys::Object::new();
    if let Err(message) = put_encoded(&columns, "tables", &PathResult { data, gap_us }) {
        return (FromJob::Failed { message }, js_sys::Object::new());
    }
    (FromJob::PathTables, columns)
}

/// A failed job's answer.
fn failed(message: String) -> (FromJob, js_sys::Object) {
    (FromJob::Failed { message }, js_sys::Object::new())
}

/// `reply` with `value` encoded under `columns[key]` (or why it could not be encoded).
fn encoded_answer<T: Serialize>(reply: FromJob, key: &str, value: &T) -> (FromJob, js_sys::Object) {
    match jobs::encode(value) {
        Ok(chunks) => {
            let columns = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&columns, &JsValue::from_str(key), &chunks);
            (reply, columns)
        }
        Err(message) => failed(message),
    }
}

/// Lays out a big dependency graph's shown edges (the encoded `input`): node centres and edge
/// polylines as typed arrays, progress posted per phase, after the JIT warm-up (this instance
/// is new).
fn lay_out_graph(node_count: u32, left_right: bool, aspect: f64, quiet: bool, input: Option<js_sys::Array>) -> (FromJob, js_sys::Object) {
    let edges: Vec<(u32, u32)> = match input.ok_or_else(|| "the layout job got no edges".to_owned()).and_then(jobs::decode) {
        Ok(edges) => edges,
        Err(message) => return failed(message),
    };
    let node_count = node_count as usize;
    crate::layout_warm_up::warm_up();
    let warmup_ms = crate::layout_warm_up::take_ms();
    let started_ms = now_ms();
    let mut control = crate::layout_warm_up::progress_control(node_count, quiet);
    let placed = match pypto_replies::dep_graph::lay_out_edges(node_count, &edges, left_right, aspect, &mut control) {
        Ok(placed) => placed,
        Err(message) => return failed(message),
    };
    let layout_ms = now_ms() - started_ms;
    let mut columns = crate::transport::Columns::new();
    crate::graph::placed_columns(&mut columns, &placed);
    (FromJob::GraphLaidOut { summary: placed.summary, layout_ms, warmup_ms }, columns.into_object())
}

/// Diffs one big pass (a [`jobs::PassDiffInput`], the encoded `input`): the `PassDiffData`
/// without its texts encoded in `columns.diff`.
fn diff_pass(input: Option<js_sys::Array>) -> (FromJob, js_sys::Object) {
    let i: jobs::PassDiffInput<'static> = match input.ok_or_else(|| "the diff job got no snapshots".to_owned()).and_then(jobs::decode) {
        Ok(i) => i,
        Err(message) => return failed(message),
    };
    let diff_input = pypto_replies::pass_trace::DiffInput {
        entry: &i.entry,
        before_text: &i.before_text,
        after_text: &i.after_text,
        before_regions: i.before_regions.as_deref(),
        after_regions: i.after_regions.as_deref(),
        log: i.log.as_deref(),
    };
    let mut on_step = stepper(ProgressStage::Diff, &i.entry.file_name);
    let mut data = pypto_replies::pass_trace::build_diff_stepped(i.dataset_id, i.pass, &diff_input, i.function.as_deref(), &mut on_step);
    // The analysis worker has the texts: only the rows, folds and token changes go back.
    data.before_lines = SnapshotLines::default();
    data.after_lines = SnapshotLines::default();
    encoded_answer(FromJob::PassDiffed, jobs::DIFF_KEY, &data)
}

/// Lists a big pass dump (a [`jobs::PassListInput`], the encoded `input`): each pass diffed
/// against the one before, each snapshot checked; the `PassList` encoded in `columns.list`.
fn list_passes(input: Option<js_sys::Array>) -> (FromJob, js_sys::Object) {
    let started_ms = now_ms();
    let i: jobs::PassListInput<'static> = match input.ok_or_else(|| "the pass-list job got no snapshots".to_owned()).and_then(jobs::decode)
    {
        Ok(i) => i,
        Err(message) => return failed(message),
    };
    let decoded_ms = now_ms();
    let refs: Vec<&str> = i.names.iter().map(String::as_str).collect();
    let listing = pypto_formats::passes_dump::validate(&refs);
    let texts: std::collections::HashMap<&str, &jobs::ListText<'_>> = i.texts.iter().map(|t| (t.name.as_str(), t)).collect();
    let read = |name: &str| match texts.get(name) {
        Some(t) => t
            .text
            .as_ref()
            .map(|text| pypto_analysis::pass_trace::Decoded { text: &**text, undecodable: t.undecodable.clone() })
            .map_err(Clone::clone),
        None => Err(crate::passes::NOT_IN_FOLDER.to_owned()),
    };
    let built = pypto_analysis::pass_trace::pass_list_stepped(&listing, &refs, read, &mut stepper(ProgressStage::Diff, &i.path));
    let listed_ms = now_ms();
    let answer = encoded_answer(FromJob::PassListed, jobs::LIST_KEY, &built);
    crate::passes::diff_line(&format!(
        "pypto-diff job: snapshots decoded in {:.0} ms, every pass diffed and checked in {:.0} ms, the list encoded in {:.0} ms",
        decoded_ms - started_ms,
        listed_ms - decoded_ms,
        now_ms() - listed_ms
    ));
    answer
}
