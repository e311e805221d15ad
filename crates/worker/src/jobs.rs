//! Jobs, the transport: the analysis worker's heavy one-off work — reading and analysing a
//! runtime dataset (its records, deps.json, name map and CPM files: parse, model build, the
//! chip timeline's render columns) — runs in a nested worker started for it (this same script,
//! told by its first message that it is a job) and terminated once it has answered. This
//! module starts jobs and reads their answers (for the open flow and the handlers), and
//! carries a job's own messages back ([`post`], [`post_part`], [`log`]); what a job does is
//! `job_work`'s. Whatever that work peaked at (parse buffers, the raw records, the
//! critical-path graph) goes back to the browser with the job: the analysis worker's wasm
//! memory, which never shrinks, holds only what the job hands back — the resident model and the timeline's query index, postcard-encoded in JS
//! byte chunks and decoded a chunk at a time (the encoding is never whole in its memory), and
//! the render columns, JS typed arrays it passes on to the page.
//!
//! A job is started from [`JOB_LOADER`], not the analysis worker's own loader: its first
//! message is the analysis worker's compiled `WebAssembly.Module` (`{ module }`), which it
//! instantiates — the wasm is fetched and compiled once per page, not once per job.
//!
//! Messages to a job: `{ module }`, then `{ job: ToJob, files, stall_timeout_ms }` (its reads'
//! stall timeout, the analysis worker's), posted once the job's wasm reports ready.
//! From a job: `{ msg: FromWorker }` (progress, forwarded to the page as they come; a panic
//! fails the job), `{ log: "pypto-worker …" }` (bench lines, printed by the analysis worker),
//! and last `{ job: FromJob, columns }`.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::rc::Rc;

use futures_channel::oneshot;

use pypto_analysis::alignment::AlignmentPlan;
use pypto_analysis::function_filter::FunctionRegion;
use pypto_analysis::pass_trace::PassEntry;
use pypto_analysis::runtime_model::{CpmInputs, RuntimeModel};
use pypto_formats::name_map::NameMap;
use pypto_protocol::datasets::{DatasetSummary, EntryMeta, FileError};
use pypto_protocol::timeline::TimelineHeader;
use pypto_protocol::FromWorker;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::{reading, transport};

/// What a job is asked to do.
#[derive(Serialize, Deserialize)]
pub(crate) enum ToJob {
    /// Read and analyse one runtime dataset ([`crate::job_work::load_runtime`]).
    LoadRuntime(RuntimeInputs),
    /// The timeline of one or more datasets, from their files, placed by `alignment`
    /// ([`crate::job_work::build_timeline`]).
    Timeline { datasets: Vec<RuntimeInputs>, dataset_ids: Vec<u32>, alignment: AlignmentPlan },
    /// The timeline of datasets as Chrome Trace Event JSON, placed by `alignment`
    /// ([`crate::job_work::export_trace`]).
    ExportTrace { datasets: Vec<RuntimeInputs>, window_us: Option<(f64, f64)>, alignment: AlignmentPlan },
    /// The Performance Analysis path tables of a dataset ([`crate::job_work::path_tables`]).
    PerfPaths(RuntimeInputs),
    /// A big dependency graph's layout ([`crate::job_work::lay_out_graph`]): its shown edges
    /// (`(pred, succ)` node pairs) are the encoded input.
    /// `quiet`: no progress (the load's prebuild of the graph, which nobody waits for yet).
    LayoutGraph { node_count: u32, left_right: bool, aspect: f64, quiet: bool },
    /// A big pass diff ([`crate::job_work::diff_pass`]): a [`PassDiffInput`] is the encoded
    /// input.
    PassDiff,
    /// A big dump's pass list ([`crate::job_work::list_passes`]): a [`PassListInput`] is the
    /// encoded input.
    PassList,
    /// A big deps.json of a dataset being loaded, parsed beside its records (which the load
    /// job parses at the same time, on another core: [`crate::job_work::parse_deps_job`]); its
    /// one file is the job's.
    ParseDeps { entry: EntryMeta },
}

/// What a deps.json job hands back (encoded under [`DEPS_KEY`]): the file's path and what its
/// parse gave, or nothing when it could not be read, and the read errors.
#[derive(Serialize, Deserialize)]
pub(crate) struct DepsParsed {
    pub(crate) read: Option<(String, Result<pypto_formats::deps::Deps, pypto_formats::FormatError>)>,
    pub(crate) errors: Vec<FileError>,
}

/// The `columns` key of a [`DepsParsed`].
pub(crate) const DEPS_KEY: &str = "deps";

/// What a pass-diff job diffs: one pass's snapshots and what the analysis worker knows of
/// them (`pypto_replies::pass_trace::DiffInput`): borrowed when encoded, owned when decoded.
#[derive(Serialize, Deserialize)]
pub(crate) struct PassDiffInput<'a> {
    pub(crate) dataset_id: u32,
    pub(crate) pass: u32,
    pub(crate) function: Option<String>,
    pub(crate) entry: Cow<'a, PassEntry>,
    pub(crate) before_text: Cow<'a, str>,
    pub(crate) after_text: Cow<'a, str>,
    pub(crate) before_regions: Option<Cow<'a, [FunctionRegion]>>,
    pub(crate) after_regions: Option<Cow<'a, [FunctionRegion]>>,
    pub(crate) log: Option<Cow<'a, str>>,
}

/// What a pass-list job lists: the dump's file names and the snapshots' texts as read
/// (borrowed when encoded, owned when decoded).
#[derive(Serialize, Deserialize)]
pub(crate) struct PassListInput<'a> {
    /// The dump's path (the progress bar's, as the analysis worker announced the list).
    pub(crate) path: String,
    pub(crate) names: Vec<String>,
    pub(crate) texts: Vec<ListText<'a>>,
}

/// One snapshot of a [`PassListInput`]: its text, or why it could not be read, and where its
/// bytes were not UTF-8.
#[derive(Serialize, Deserialize)]
pub(crate) struct ListText<'a> {
    pub(crate) name: String,
    pub(crate) text: Result<Cow<'a, str>, String>,
    pub(crate) undecodable: Option<pypto_formats::FormatError>,
}

/// The `columns` key of a pass-list job's encoded `PassList`.
pub(crate) const LIST_KEY: &str = "list";

/// The `columns` key of a pass-diff job's encoded `PassDiffData`.
pub(crate) const DIFF_KEY: &str = "diff";

/// The files of one runtime dataset: `entries` parallel to the job's `files`.
#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct RuntimeInputs {
    pub(crate) dataset_id: u32,
    pub(crate) path: String,
    pub(crate) entries: Vec<EntryMeta>,
    pub(crate) records: Option<usize>,
    pub(crate) deps: Option<usize>,
    pub(crate) name_map: Option<usize>,
    /// `host_phase_records.jsonl` (placed on the records' timeline).
    pub(crate) host_phases: Option<usize>,
    /// `(entry index, is static)` of each `CPM_*.json`.
    pub(crate) cpm: Vec<(usize, bool)>,
    /// Build the dataset's timeline in its load job (the page opens it first).
    pub(crate) prebuild_timeline: bool,
}

/// A job's answer.
#[derive(Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)] // one message per job
pub(crate) enum FromJob {
    /// The dataset's summary, and its timeline's header when it has a model; the
    /// [`LoadedRuntime`] state is encoded in `columns.state`, the render columns are
    /// `columns.timeline`.
    RuntimeLoaded {
        summary: DatasetSummary,
    },
    /// A timeline's header; its render columns are `columns.timeline`, its query index is
    /// encoded in `columns.index`.
    TimelineBuilt {
        header: TimelineHeader,
    },
    /// Chrome Trace Event JSON in `columns.json`.
    TraceExported {
        slices: u64,
        flows: u64,
    },
    /// Encoded [`PathResult`] in `columns.tables`.
    PathTables,
    /// A graph laid out: node centres in `columns.x` / `columns.y` (`Float64Array`), edge
    /// polylines in `columns.point_offsets` (`Uint32Array`) / `columns.points`.
    GraphLaidOut {
        summary: pypto_replies::dep_graph::LayoutSummary,
        layout_ms: f64,
        warmup_ms: f64,
    },
    /// An encoded `PassDiffData` in `columns.diff`.
    PassDiffed,
    /// An encoded `PassList` in `columns.list`.
    PassListed,
    /// An encoded [`DepsParsed`] in `columns.deps`.
    DepsParsed,
    /// Nothing more (a load job that built no timeline).
    Done,
    Failed {
        message: String,
    },
}

/// The path tables of a dataset and its gap column (for the threshold), as a path job returns
/// them (encoded in `columns.tables`).
#[derive(Serialize, Deserialize)]
pub(crate) struct PathResult {
    pub(crate) data: pypto_protocol::perf::PerfPathsData,
    pub(crate) gap_us: Vec<f64>,
}

/// What a load job hands back beside its summary.
#[derive(Default, Serialize, Deserialize)]
pub(crate) struct LoadedRuntime {
    pub(crate) model: Option<RuntimeModel>,
    /// The name map when no model holds it (deps.json and a name map, no records).
    pub(crate) names: Option<NameMap>,
    /// deps.json was read lean (task arguments re-read from the file on demand).
    pub(crate) deps_lean: bool,
    /// The capture's `CPM_*.json` paths, for the path tables.
    pub(crate) cpm: CpmInputs,
}

thread_local! {
    /// This instance runs a job (set by its first `{ job }` message).
    static IS_JOB: Cell<bool> = const { Cell::new(false) };
    static RUNNING: RefCell<HashMap<u32, Running>> = RefCell::new(HashMap::new());
    static NEXT_ID: Cell<u32> = const { Cell::new(0) };
}

/// Whether this worker instance is a job.
pub(crate) fn is_job() -> bool {
    IS_JOB.get()
}

/// A job's answer as it settles: its envelope, or why the job failed.
pub(crate) type Settled = Result<JsValue, String>;

/// Where a job's answer goes: settled once (later settlements are ignored).
#[derive(Clone)]
struct Settle(Rc<RefCell<Option<oneshot::Sender<Settled>>>>);

impl Settle {
    fn new() -> (Self, oneshot::Receiver<Settled>) {
        let (sender, receiver) = oneshot::channel();
        (Self(Rc::new(RefCell::new(Some(sender)))), receiver)
    }

    fn settle(&self, value: Settled) {
        if let Some(sender) = self.0.borrow_mut().take() {
            // Its receiver may be gone (the caller stopped waiting): nothing to tell.
            let _ = sender.send(value);
        }
    }
}

/// A started job: its worker, where its answers go, its listeners (removed with it).
struct Running {
    worker: web_sys::Worker,
    /// Its first (part) and final answers.
    settle: [Settle; 2],
    _listeners: [gloo::events::EventListener; 2],
}

fn finish(id: u32) {
    if let Some(job) = RUNNING.with_borrow_mut(|r| r.remove(&id)) {
        job.worker.terminate();
    }
}

/// Stops every running job (a new folder was opened); whoever waits for one gets an error.
/// Nobody waiting is no error: the answers are channels, not promises, so a cancelled job's
/// answer that no one reads leaves no unhandled rejection.
pub(crate) fn cancel_all() {
    cancel_all_because("cancelled: another folder was opened");
}

/// Stops every running job (terminated: its memory goes back to the browser); whoever waits
/// for one gets `why` as its error. Returns how many were stopped.
pub(crate) fn cancel_all_because(why: &str) -> usize {
    let all: Vec<Running> = RUNNING.with_borrow_mut(|r| r.drain().map(|(_, j)| j).collect());
    for job in &all {
        job.worker.terminate();
        for settle in &job.settle {
            settle.settle(Err(why.to_owned()));
        }
    }
    all.len()
}

fn text_of(v: &JsValue) -> String {
    v.as_string()
        .or_else(|| js_sys::Reflect::get(v, &JsValue::from_str("message")).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| format!("{v:?}"))
}

/// A job's entry script, beside the analysis worker's loader (`www/pypto-worker_job_loader.js`,
/// copied into `dist/` by Trunk): it waits for `{ module }` and instantiates it.
pub(crate) const JOB_LOADER: &str = "pypto-worker_job_loader.js";

/// The URL of [`JOB_LOADER`]: in the directory of this worker's own script.
fn job_loader_url() -> String {
    let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
    let own = scope.location().href();
    let own = own.split(['?', '#']).next().unwrap_or_default();
    let dir = own.rsplit_once('/').map_or("", |(dir, _)| dir);
    format!("{dir}/{JOB_LOADER}")
}

/// Prints a job's bench line (`pypto-worker job …`, with how long since it was started).
fn job_line(id: u32, what: &str, started_ms: f64) {
    say(&format!("pypto-worker job {id}: {what} {:.0} ms after it was started", crate::clock::now_ms() - started_ms));
}

/// A started job: `part` settles with its first `{ part }` envelope (or its final one, when
/// it sends none), `done` with its final `{ job }` envelope; both with why the job failed
/// when it did.
pub(crate) struct Started {
    pub(crate) part: Answer,
    pub(crate) done: Answer,
}

/// One answer of a [`Started`] job, to wait for ([`answer`]).
pub(crate) type Answer = oneshot::Receiver<Settled>;

/// The envelope key of the stall timeout a job's reads use ([`reading::stall_timeout_ms`]).
pub(crate) const STALL_TIMEOUT_KEY: &str = "stall_timeout_ms";

/// The envelope key of a job's encoded input ([`encode`]; the requests that need more than
/// a few fields).
pub(crate) const INPUT_KEY: &str = "input";

/// Starts `request` in a new job with `files`.
pub(crate) fn start(request: &ToJob, files: &js_sys::Array) -> Result<Started, String> {
    start_with_input(request, files, None)
}

/// Starts `request` in a new job with `files` and the encoded `input` ([`encode`]).
pub(crate) fn start_with_input(request: &ToJob, files: &js_sys::Array, input: Option<&js_sys::Array>) -> Result<Started, String> {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    let job_value = request.serialize(&serializer).map_err(|e| format!("job request: {e}"))?;
    let envelope = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str("job"), &job_value);
    let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str("files"), files);
    let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str(STALL_TIMEOUT_KEY), &JsValue::from(reading::stall_timeout_ms()));
    if let Some(input) = input {
        let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str(INPUT_KEY), input);
    }
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let started_ms = crate::clock::now_ms();
    let worker = web_sys::Worker::new_with_options(&job_loader_url(), &options)
        .map_err(|e| format!("could not start an analysis job: {}", text_of(&e)))?;
    // The compiled module, shared (not copied) with the job, which instantiates it.
    let module = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&module, &JsValue::from_str("module"), &wasm_bindgen::module());
    if let Err(e) = worker.post_message(&module) {
        worker.terminate();
        return Err(format!("could not start an analysis job: {}", text_of(&e)));
    }
    let id = NEXT_ID.get();
    NEXT_ID.set(id.wrapping_add(1));
    let (part_settle, part) = Settle::new();
    let (done_settle, done) = Settle::new();
    // Fails both answers (a settled one ignores it).
    let fail = {
        let (a, b) = (part_settle.clone(), done_settle.clone());
        move |why: String| {
            a.settle(Err(why.clone()));
            b.settle(Err(why));
        }
    };
    let fail_message = fail.clone();
    let for_message = worker.clone();
    let (part_message, done_message) = (part_settle.clone(), done_settle.clone());
    // A job's listeners may finish it (and so drop themselves): they do it after returning.
    let finish_later = move || wasm_bindgen_futures::spawn_local(async move { finish(id) });
    let on_message = gloo::events::EventListener::new(&worker, "message", move |event| {
        let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() else { return };
        let data = event.data();
        let get = |key: &str| js_sys::Reflect::get(&data, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
        if !get("job").is_undefined() {
            job_line(id, "answered", started_ms);
            part_message.settle(Ok(data.clone()));
            done_message.settle(Ok(data.clone()));
            finish_later();
        } else if !get("part").is_undefined() {
            job_line(id, "answered a part", started_ms);
            part_message.settle(Ok(data.clone()));
        } else if let Some(line) = get("log").as_string() {
            // A job's own job (a load job's deps.json job): its lines go up the same way.
            say(&line);
        } else {
            match serde_wasm_bindgen::from_value::<FromWorker>(get("msg")) {
                Ok(FromWorker::Ready) => {
                    job_line(id, "wasm ready", started_ms);
                    if let Err(e) = for_message.post_message(&envelope) {
                        fail_message(format!("could not start an analysis job: {}", text_of(&e)));
                        finish_later();
                    }
                }
                Ok(FromWorker::Panic { message }) => {
                    fail_message(format!("the analysis job panicked: {message}"));
                    finish_later();
                }
                // Progress and the like: the page's, as they are.
                Ok(_) => {
                    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
                    let _ = scope.post_message(&data);
                }
                Err(e) => web_sys::console::error_1(&JsValue::from_str(&format!("pypto-worker: unreadable job message: {e}"))),
            }
        }
    });
    let fail_error = fail;
    let options = gloo::events::EventListenerOptions::enable_prevent_default();
    let on_error = gloo::events::EventListener::new_with_options(&worker, "error", options, move |event| {
        event.prevent_default();
        let message = event.dyn_ref::<web_sys::ErrorEvent>().map(web_sys::ErrorEvent::message).unwrap_or_default();
        let why = if message.is_empty() {
            "the analysis job stopped unexpectedly (out of memory?)".to_owned()
        } else {
            format!("the analysis job failed: {message}")
        };
        fail_error(why);
        finish_later();
    });
    let settle = [part_settle, done_settle];
    RUNNING.with_borrow_mut(|r| r.insert(id, Running { worker, settle, _listeners: [on_message, on_error] }));
    Ok(Started { part, done })
}

/// Waits for one of a job's answers ([`Started`]).
async fn settled(answer: Answer) -> Settled {
    answer.await.unwrap_or_else(|_| Err("the analysis job went away".to_owned()))
}

/// Runs `request` in a new job with `files` and waits for its answer: the final envelope
/// (`{ job, columns }`), or why the job failed.
pub(crate) async fn run(request: &ToJob, files: &js_sys::Array) -> Result<JsValue, String> {
    let started = start(request, files)?;
    settled(started.done).await
}

/// Waits for an answer of [`Started`] and reads its envelope: the job's message and `columns`
/// (a failed job's message as `Err`).
pub(crate) async fn answer(answer: Answer) -> Result<(FromJob, JsValue), String> {
    read_envelope(&settled(answer).await?)
}

fn read_envelope(envelope: &JsValue) -> Result<(FromJob, JsValue), String> {
    let get = |key: &str| js_sys::Reflect::get(envelope, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
    let message = if get("part").is_undefined() { get("job") } else { get("part") };
    match serde_wasm_bindgen::from_value::<FromJob>(message).map_err(|e| format!("unreadable job reply: {e}"))? {
        FromJob::Failed { message } => Err(message),
        reply => Ok((reply, get("columns"))),
    }
}

/// [`run`], its answer read: the job's reply and `columns` (a failed job's message as `Err`).
pub(crate) async fn ask(request: &ToJob, files: &js_sys::Array) -> Result<(FromJob, JsValue), String> {
    read_envelope(&run(request, files).await?)
}

/// [`ask`] with an encoded `input` ([`encode`]) and no files. A Cancel ([`cancel_all_because`])
/// terminates the job and answers its reason.
pub(crate) async fn ask_with_input(request: &ToJob, input: &js_sys::Array) -> Result<(FromJob, JsValue), String> {
    let started = start_with_input(request, &js_sys::Array::new(), Some(input))?;
    read_envelope(&settled(started.done).await?)
}

/// Decodes the chunks under `columns[key]` ([`encode`]).
pub(crate) fn decode_at<T: for<'de> Deserialize<'de>>(columns: &JsValue, key: &str) -> Result<T, String> {
    let chunks = js_sys::Reflect::get(columns, &JsValue::from_str(key))
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::Array>().ok())
        .ok_or_else(|| format!("the job sent no {key}"))?;
    decode(chunks)
}

/// Marks this instance as a job (its first message was a `{ job }`): bench lines go to the
/// analysis worker, and the bench skips its memory.
pub(crate) fn become_job() {
    IS_JOB.set(true);
    // For the bench, which reads the analysis worker's memory and must skip this one.
    let _ = js_sys::Reflect::set(&js_sys::global(), &JsValue::from_str("__pyptoJob"), &JsValue::TRUE);
}

/// Posts a job's answer to the analysis worker, the buffers of `columns` (typed arrays, or
/// arrays / objects of them) moved; the job is then ended.
pub(crate) fn post(reply: &FromJob, columns: &js_sys::Object) {
    post_as("job", reply, columns);
}

/// Posts a job's interim answer (`{ part, columns }`), the buffers of `columns` moved; the
/// job goes on.
pub(crate) fn post_part(reply: &FromJob, columns: &js_sys::Object) {
    post_as("part", reply, columns);
}

fn post_as(key: &str, reply: &FromJob, columns: &js_sys::Object) {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    let envelope = js_sys::Object::new();
    let value = reply.serialize(&serializer).unwrap_or_else(|e| JsValue::from_str(&format!("serialization failed: {e}")));
    let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str(key), &value);
    let transfer = js_sys::Array::new();
    transport::collect_buffers(columns, &transfer);
    let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str("columns"), columns);
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    if let Err(err) = scope.post_message_with_transfer(&envelope, &transfer) {
        web_sys::console::error_2(&JsValue::from_str("pypto-worker: job postMessage failed"), &err);
    }
}

/// Prints a `pypto-worker …` line where the bench reads it: the analysis worker's console (a
/// job's lines go up to the analysis worker, through its starter when it is a job's job).
pub(crate) fn say(line: &str) {
    if is_job() {
        log(line);
    } else {
        web_sys::console::info_1(&JsValue::from_str(line));
    }
}

/// A bench line from a job: printed by the analysis worker (a nested worker's console may not
/// reach the page's).
pub(crate) fn log(line: &str) {
    let envelope = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str("log"), &JsValue::from_str(line));
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let _ = scope.post_message(&envelope);
}

/// Bytes of an encoding written into JS `Uint8Array`s of about [`CHUNK_BYTES`] each, so the
/// whole encoding never sits in wasm memory.
pub(crate) struct ChunkWriter {
    buf: Vec<u8>,
    chunks: js_sys::Array,
}

/// Size of the chunks of a [`ChunkWriter`].
const CHUNK_BYTES: usize = 1 << 20;

impl ChunkWriter {
    pub(crate) fn new() -> Self {
        Self { buf: Vec::with_capacity(CHUNK_BYTES), chunks: js_sys::Array::new() }
    }

    fn flush_chunk(&mut self) {
        if !self.buf.is_empty() {
            self.chunks.push(&js_sys::Uint8Array::from(self.buf.as_slice()));
            self.buf.clear();
        }
    }

    /// The chunks written.
    pub(crate) fn into_chunks(mut self) -> js_sys::Array {
        self.flush_chunk();
        self.chunks
    }
}

impl Write for ChunkWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= CHUNK_BYTES {
            self.flush_chunk();
        }
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Reads the chunks of a [`ChunkWriter`] back, one chunk in wasm memory at a time.
pub(crate) struct ChunkReader {
    chunks: js_sys::Array,
    next: u32,
    buf: Vec<u8>,
    at: usize,
}

impl ChunkReader {
    pub(crate) fn new(chunks: js_sys::Array) -> Self {
        Self { chunks, next: 0, buf: Vec::new(), at: 0 }
    }
}

impl Read for ChunkReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.buf.len() {
            if self.next >= self.chunks.length() {
                return Ok(0);
            }
            let chunk: js_sys::Uint8Array = self.chunks.get(self.next).unchecked_into();
            self.next += 1;
            self.buf.resize(chunk.length() as usize, 0);
            chunk.copy_to(&mut self.buf);
            self.at = 0;
        }
        let n = out.len().min(self.buf.len() - self.at);
        out.get_mut(..n).unwrap_or_default().copy_from_slice(self.buf.get(self.at..self.at + n).unwrap_or_default());
        self.at += n;
        Ok(n)
    }
}

/// Encodes `value` (postcard) into JS byte chunks.
pub(crate) fn encode<T: Serialize>(value: &T) -> Result<js_sys::Array, String> {
    let writer = postcard::to_io(value, ChunkWriter::new()).map_err(|e| format!("encoding failed: {e}"))?;
    Ok(writer.into_chunks())
}

/// A postcard flavor over a [`ChunkReader`]: strings (the model borrows none) go through one
/// reused buffer.
struct ChunkFlavor {
    reader: ChunkReader,
    temp: Vec<u8>,
}

impl<'de> postcard::de_flavors::Flavor<'de> for ChunkFlavor {
    type Remainder = ();
    type Source = ();

    fn pop(&mut self) -> postcard::Result<u8> {
        let mut byte = [0u8; 1];
        self.reader.read_exact(&mut byte).map_err(|_| postcard::Error::DeserializeUnexpectedEnd)?;
        Ok(byte[0])
    }

    fn try_take_n(&mut self, _ct: usize) -> postcard::Result<&'de [u8]> {
        // Only borrowed `&str` / `&[u8]` fields need this, and the encoded types have none.
        Err(postcard::Error::DeserializeUnexpectedEnd)
    }

    fn try_take_n_temp<'a>(&'a mut self, ct: usize) -> postcard::Result<&'a [u8]>
    where
        'de: 'a,
    {
        self.temp.resize(ct, 0);
        self.reader.read_exact(&mut self.temp).map_err(|_| postcard::Error::DeserializeUnexpectedEnd)?;
        Ok(&self.temp)
    }

    fn finalize(self) -> postcard::Result<()> {
        Ok(())
    }
}

/// Decodes a value from JS byte chunks written by [`encode`].
pub(crate) fn decode<T: for<'de> Deserialize<'de>>(chunks: js_sys::Array) -> Result<T, String> {
    let flavor = ChunkFlavor { reader: ChunkReader::new(chunks), temp: Vec::new() };
    let mut deserializer = postcard::Deserializer::from_flavor(flavor);
    T::deserialize(&mut deserializer).map_err(|e| format!("decoding failed: {e}"))
}
