//! The viewer's analysis web worker.
//!
//! The page posts folder entries (with their `File`s or URLs); this worker reads the bytes
//! itself, runs the `pypto-formats` readers and `pypto-analysis` passes (heavy ones in load
//! jobs), keeps the model, and answers queries with the replies of `pypto-replies` — small
//! messages plus transferred typed-array columns. A panic is
//! reported to the page (`FromWorker::Panic`) before the instance traps, and the instance
//! closes (it handles nothing more); the page then restarts the worker.

// Module layers (no module imports one above it; `cargo xtask check-layers` rule (d) checks
// that the imports form no cycle):
// - leaves: clock, transport, reading, jobs (job transport), bench_log, store (the opened
//   folder's state), entries, render_columns, layout_warm_up, prebuilt, trace_store,
//   pass_dumps;
// - the job's side: job_work; the open flow: open; the request handlers: timelines, traces,
//   perf_panel, perf_paths, graph, passes, memory_map, compare (over perf_paths); the
//   pass-trace bench hook: pass_bench;
// - compare_passes (two pass dumps compared: uses passes' lists and memory_map's maps);
// - on top: dispatch (the one match on requests) and this root.
mod bench_log;
mod clock;
mod compare;
mod compare_passes;
mod dispatch;
mod entries;
mod graph;
mod job_work;
mod jobs;
mod layout_warm_up;
mod memory_map;
mod open;
mod pass_bench;
mod pass_dumps;
mod passes;
mod perf_panel;
mod perf_paths;
mod prebuilt;
pub mod reading;
mod render_columns;
mod store;
mod timelines;
mod trace_store;
mod traces;
pub mod transport;

use pypto_protocol::FromWorker;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Installs the panic hook and the message handler, then tells the page it is ready.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        web_sys::console::error_1(&JsValue::from_str(&format!("pypto-worker panicked: {message}")));
        transport::post(&FromWorker::Panic { message }, None);
        // The instance traps next and its state is not to be trusted: it handles no further
        // event (a request, a job's message); whoever started it replaces it.
        let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        scope.close();
    }));
    let scope: web_sys::EventTarget = js_sys::global().unchecked_into();
    let on_message = gloo::events::EventListener::new(&scope, "message", |event| {
        let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() else { return };
        let data = event.data();
        if js_sys::Reflect::has(&data, &JsValue::from_str("job")).unwrap_or(false) {
            let files = js_sys::Reflect::get(&data, &JsValue::from_str("files"))
                .ok()
                .and_then(|v| v.dyn_into::<js_sys::Array>().ok())
                .unwrap_or_default();
            job_work::handle(&data, files);
            return;
        }
        match transport::decode_request(&data) {
            Ok(incoming) => dispatch::handle(incoming),
            Err((id, message)) => transport::fail(id, message),
        }
    });
    // Listens for the worker's whole life.
    on_message.forget();
    pass_bench::install();
    transport::post(&FromWorker::Ready, None);
}
