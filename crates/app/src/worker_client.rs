//! The page's side of the worker protocol: starts the analysis worker, sends requests
//! (with `File`s beside them, never their bytes), turns replies into state updates, and
//! restarts the worker when it crashes.

use std::cell::RefCell;

use leptos::prelude::*;
use pypto_protocol::{DatasetKind, EntryMeta, FromWorker, ToWorker};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::state::{AppState, DatasetRow, LoadState, WorkerState};
use crate::views::swimlane;

/// Module-worker entry written by Trunk's loader shim (relative: works under any sub-path).
const WORKER_URL: &str = "./pypto-worker_loader.js";

/// What was opened last, so a crashed worker can be given the folder again.
#[derive(Clone)]
enum LastOpen {
    Folder { label: String, entries: Vec<EntryMeta>, files: js_sys::Array },
    Url(String),
}

struct Client {
    worker: web_sys::Worker,
    ready: bool,
    /// The worker crashed and is being replaced.
    crashed: bool,
    /// Requests posted before the worker said `ready` (its wasm was still loading).
    queued: Vec<(ToWorker, Option<js_sys::Array>)>,
    last_open: Option<LastOpen>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

thread_local! {
    static CLIENT: RefCell<Option<Client>> = const { RefCell::new(None) };
}

fn to_js<T: Serialize>(value: &T) -> JsValue {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap_or(JsValue::NULL)
}

/// Builds the envelope `{ msg, files? }` of a request (files are `File`s or URL strings).
pub fn encode_request(msg: &ToWorker, files: Option<&js_sys::Array>) -> js_sys::Object {
    let envelope = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str("msg"), &to_js(msg));
    if let Some(files) = files {
        let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str("files"), files);
    }
    envelope
}

/// Reads a reply envelope `{ msg, columns? }` from the worker.
pub fn decode_reply(data: &JsValue) -> Result<FromWorker, String> {
    let msg_value = js_sys::Reflect::get(data, &JsValue::from_str("msg")).unwrap_or(JsValue::UNDEFINED);
    serde_wasm_bindgen::from_value(msg_value).map_err(|e| format!("unreadable worker reply: {e}"))
}

fn post_now(worker: &web_sys::Worker, msg: &ToWorker, files: Option<&js_sys::Array>) {
    let envelope = encode_request(msg, files);
    if let Err(err) = worker.post_message(&envelope) {
        web_sys::console::error_2(&JsValue::from_str("postMessage to worker failed"), &err);
    }
}

/// Starts (or restarts) the worker.
pub fn start(state: AppState) {
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = match web_sys::Worker::new_with_options(WORKER_URL, &options) {
        Ok(worker) => worker,
        Err(err) => {
            state.general_errors.update(|e| e.push(format!("could not start the analysis worker: {err:?}")));
            return;
        }
    };
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
        on_message(&state, &event.data());
    });
    let on_error = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |event: web_sys::ErrorEvent| {
        event.prevent_default();
        let message = event.message();
        crashed(&state, if message.is_empty() { "the analysis worker stopped unexpectedly".to_string() } else { message });
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    let last_open = CLIENT.with_borrow_mut(|c| {
        c.take().and_then(|old| {
            old.worker.terminate();
            old.last_open
        })
    });
    CLIENT.with_borrow_mut(|c| {
        *c = Some(Client {
            worker,
            ready: false,
            crashed: false,
            queued: Vec::new(),
            last_open,
            _on_message: on_message,
            _on_error: on_error,
        });
    });
}

/// Sends a request (queued until the worker is ready).
pub fn send(msg: ToWorker, files: Option<js_sys::Array>) {
    CLIENT.with_borrow_mut(|c| {
        if let Some(client) = c.as_mut() {
            match &msg {
                ToWorker::OpenFolder { source_label, entries } => {
                    client.last_open = Some(LastOpen::Folder {
                        label: source_label.clone(),
                        entries: entries.clone(),
                        files: files.clone().unwrap_or_default(),
                    });
                }
                ToWorker::OpenUrl { url } => client.last_open = Some(LastOpen::Url(url.clone())),
                _ => {}
            }
            if client.ready {
                post_now(&client.worker, &msg, files.as_ref());
            } else {
                client.queued.push((msg, files));
            }
        }
    });
}

/// Opens a folder's entries (their `File`s in the same order).
pub fn open_folder(state: AppState, label: String, entries: Vec<EntryMeta>, files: js_sys::Array) {
    state.reset_for_open(&label);
    send(ToWorker::OpenFolder { source_label: label, entries }, Some(files));
}

/// Opens a hosted dataset by its manifest or directory URL.
pub fn open_url(state: AppState, url: String) {
    state.reset_for_open(&url);
    send(ToWorker::OpenUrl { url }, None);
}

/// Gives the restarted worker the last folder again.
pub fn reopen_last(state: AppState) {
    let last = CLIENT.with_borrow(|c| c.as_ref().and_then(|c| c.last_open.clone()));
    match last {
        Some(LastOpen::Folder { label, entries, files }) => open_folder(state, label, entries, files),
        Some(LastOpen::Url(url)) => open_url(state, url),
        None => {}
    }
}

fn crashed(state: &AppState, message: String) {
    let state = *state;
    // A trapped wasm instance is unusable: replace the worker, keep the files for a reload.
    // Ignore the second report of the same crash (the panic message, then the error event).
    let already = CLIENT.with_borrow(|c| c.as_ref().is_some_and(|client| client.crashed));
    if already {
        return;
    }
    CLIENT.with_borrow_mut(|c| {
        if let Some(client) = c.as_mut() {
            client.crashed = true;
        }
    });
    state.crash_message.set(Some(message));
    state.load_state.set(LoadState::Idle);
    // We are inside one of the old worker's callbacks: replace it after this callback returns,
    // so its closures are not dropped while they run.
    wasm_bindgen_futures::spawn_local(async move {
        start(state);
        state.worker_state.set(WorkerState::Restarted);
    });
}

/// The worker is up: flush the queued requests.
fn on_ready(state: &AppState) {
    let queued = CLIENT.with_borrow_mut(|c| {
        c.as_mut().map(|client| {
            client.ready = true;
            std::mem::take(&mut client.queued)
        })
    });
    CLIENT.with_borrow(|c| {
        if let (Some(client), Some(queued)) = (c.as_ref(), queued) {
            for (msg, files) in &queued {
                post_now(&client.worker, msg, files.as_ref());
            }
        }
    });
    if state.worker_state.get_untracked() == WorkerState::Starting {
        state.worker_state.set(WorkerState::Ready);
    }
}

/// The folder is loaded: open the timeline named by the URL, or the first runtime dataset.
fn on_load_finished(state: &AppState, elapsed_ms: f64) {
    let state = *state;
    state.progress.set(None);
    state.load_elapsed_ms.set(Some(elapsed_ms));
    state.load_state.set(LoadState::Done);
    // a link to a compiler view (pass trace / memory reuse) of a pass dump
    if state.selected.get_untracked().is_none() && crate::views::memory_map::url_state::restore_on_load(&state) {
        return;
    }
    let from_url = swimlane::url_state::initial_datasets();
    let url_ok = !from_url.is_empty()
        && state.datasets.with_untracked(|rows| {
            from_url
                .iter()
                .all(|id| rows.iter().any(|r| r.info.dataset_id == *id && r.summary.as_ref().is_some_and(|s| s.records.is_some())))
        });
    if state.selected.get_untracked().is_none() && url_ok {
        open_timeline(state, from_url);
    } else if state.selected.get_untracked().is_none() {
        let first = state.datasets.with_untracked(|rows| {
            rows.iter()
                .find(|r| r.info.kind == DatasetKind::Runtime && r.summary.as_ref().is_some_and(|s| s.records.is_some()))
                .or_else(|| {
                    rows.iter().find(|r| r.info.kind == DatasetKind::ServingStrace && r.summary.as_ref().is_some_and(|s| s.trace.is_some()))
                })
                .map(|r| r.info.dataset_id)
        });
        if let Some(id) = first {
            select_dataset(state, id);
        }
    }
}

#[allow(clippy::too_many_lines)] // one arm per reply
fn on_message(state: &AppState, data: &JsValue) {
    let state = *state;
    let msg = match decode_reply(data) {
        Ok(msg) => msg,
        Err(message) => {
            state.general_errors.update(|e| e.push(message));
            return;
        }
    };
    match msg {
        FromWorker::Ready => on_ready(&state),
        FromWorker::Progress { path, done_bytes, total_bytes } => {
            let percent = if total_bytes == 0 { 100.0 } else { done_bytes as f64 * 100.0 / total_bytes as f64 };
            if path.starts_with("laying out") {
                state.progress.set(Some(format!("{path} ({done_bytes}/{total_bytes})")));
            } else {
                state.progress.set(Some(format!("reading {path}: {percent:.0}%")));
            }
        }
        FromWorker::Datasets { source_label, datasets, ignored_files } => {
            state.source_label.set(source_label);
            state.ignored_files.set(ignored_files);
            state.datasets.set(datasets.into_iter().map(|info| DatasetRow { info, summary: None }).collect());
        }
        FromWorker::DatasetLoaded { dataset_id, summary } => {
            state.file_errors.update(|errors| errors.extend(summary.errors.iter().cloned()));
            state.datasets.update(|rows| {
                if let Some(row) = rows.iter_mut().find(|r| r.info.dataset_id == dataset_id) {
                    row.summary = Some(summary);
                }
            });
        }
        FromWorker::LoadFinished { elapsed_ms } => on_load_finished(&state, elapsed_ms),
        FromWorker::Timeline(header) => {
            // A timeline of files read again (a multi-rank group, a dataset opened later).
            state.progress.set(None);
            let columns = js_sys::Reflect::get(data, &JsValue::from_str("columns")).unwrap_or(JsValue::UNDEFINED);
            if header.dataset_ids == state.swim.timeline_ids.get_untracked() && state.swim.trace_path.get_untracked().is_none() {
                swimlane::set_timeline(&state, header, &columns);
                state.swimlane_version.update(|v| *v += 1);
            }
        }
        FromWorker::TraceTimeline { header, info } => {
            let columns = js_sys::Reflect::get(data, &JsValue::from_str("columns")).unwrap_or(JsValue::UNDEFINED);
            swimlane::trace::on_trace_timeline(&state, header, info, &columns);
        }
        FromWorker::BarDetails { timeline_id, bar, title, fields, group } => {
            if swimlane::current_timeline_id() == Some(timeline_id) {
                swimlane::on_bar_details(&state, swimlane::BarDetailsView { bar, title, fields, group, complete: true });
            }
        }
        FromWorker::Dependencies { timeline_id, bar, arrows, .. } => {
            if swimlane::current_timeline_id() == Some(timeline_id) {
                swimlane::on_dependencies(bar, arrows);
            }
        }
        FromWorker::SearchResults { timeline_id, query, total, hits } => {
            if swimlane::current_timeline_id() == Some(timeline_id) && state.swim.search.with_untracked(|s| s.query == query) {
                swimlane::learn_labels(&hits);
                let first = hits.first().map(|h| h.bar);
                state.swim.search.set(swimlane::SearchState { query, total, current: first.map(|_| 0), hits });
                if let Some(bar) = first {
                    swimlane::jump_to(bar);
                }
            }
        }
        FromWorker::RangeStats { timeline_id, start_us, end_us, rows } => {
            if swimlane::current_timeline_id() == Some(timeline_id) {
                state.swim.range_stats.set(Some(swimlane::RangeStatsView { start_us, end_us, rows }));
            }
        }
        FromWorker::TraceExport { timeline_id, file_name, slices, flows } => {
            state.progress.set(None); // the export job read the files again
            if swimlane::current_timeline_id() == Some(timeline_id) {
                let columns = js_sys::Reflect::get(data, &JsValue::from_str("columns")).unwrap_or(JsValue::UNDEFINED);
                swimlane::perfetto::on_trace_export(&file_name, slices, flows, &columns);
            }
        }
        FromWorker::DepGraph(header) => {
            let columns = js_sys::Reflect::get(data, &JsValue::from_str("columns")).unwrap_or(JsValue::UNDEFINED);
            state.progress.set(None);
            crate::views::dep_graph::on_graph(header, &columns);
        }
        FromWorker::DepNodeDetails { dataset_id, node, args, edges } => {
            crate::views::dep_graph::on_node_details(dataset_id, node, args, edges);
        }
        FromWorker::DepSearchHits { dataset_id, query, nodes, total } => {
            crate::views::dep_graph::on_search_hits(dataset_id, &query, nodes, total);
        }
        FromWorker::PerfPanel(data) => swimlane::panel::on_data(&state, data),
        FromWorker::PerfPaths(data) => {
            state.progress.set(None); // the worker read the files again for them
            swimlane::panel::paths::on_data(&state, data);
        }
        FromWorker::GapThreshold { dataset_id, text, error, above } => {
            swimlane::panel::paths::on_threshold(&state, dataset_id, text, error, above);
        }
        FromWorker::PassList(data) => crate::views::pass_trace::on_list(data),
        FromWorker::PassDiff(data) => crate::views::pass_trace::on_diff(*data),
        FromWorker::MemoryMap(data) => crate::views::memory_map::on_data(&state, *data),
        FromWorker::Error { message } => {
            state.progress.set(None);
            state.general_errors.update(|e| e.push(message));
        }
        FromWorker::Panic { message } => {
            web_sys::console::error_1(&JsValue::from_str(&format!("analysis worker panicked: {message}")));
            crashed(&state, format!("The analysis worker crashed: {message}"));
        }
    }
}

/// Selects a dataset and asks for its timeline.
pub fn select_dataset(state: AppState, dataset_id: u32) {
    let has_records = state.datasets.with_untracked(|rows| {
        rows.iter().any(|r| r.info.dataset_id == dataset_id && r.summary.as_ref().is_some_and(|s| s.records.is_some()))
    });
    let strace = state.datasets.with_untracked(|rows| {
        rows.iter().find(|r| r.info.dataset_id == dataset_id && r.info.kind == DatasetKind::ServingStrace).map(|r| r.info.path.clone())
    });
    if let Some(path) = strace {
        swimlane::trace::open_trace(state, dataset_id, path);
    } else if has_records {
        open_timeline(state, vec![dataset_id]);
    } else {
        swimlane::trace::leave_trace(&state);
        state.selected.set(Some(dataset_id));
    }
}

/// Shows one timeline of several datasets (a multi-rank group: one track group per rank).
pub fn open_timeline(state: AppState, dataset_ids: Vec<u32>) {
    let Some(&first) = dataset_ids.first() else { return };
    if state.swim.timeline_ids.get_untracked() == dataset_ids
        && state.selected.get_untracked() == Some(first)
        && state.swim.trace_path.get_untracked().is_none()
    {
        return;
    }
    swimlane::trace::leave_trace(&state);
    state.swim.reset();
    state.swim.loading.set(true);
    state.swim.timeline_ids.set(dataset_ids.clone());
    state.selected.set(Some(first));
    let timeline_id = swimlane::next_timeline_id();
    send(ToWorker::Timeline { timeline_id, dataset_ids }, None);
}

/// Test hook: `window.__pyptoDebugPanic()` makes the worker panic.
pub fn install_debug_hook() {
    let hook = Closure::<dyn Fn()>::new(|| send(ToWorker::DebugPanic, None));
    if let Some(window) = web_sys::window() {
        let _ = js_sys::Reflect::set(&window, &JsValue::from_str("__pyptoDebugPanic"), hook.as_ref());
    }
    hook.forget();
}
