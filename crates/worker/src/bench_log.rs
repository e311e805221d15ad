//! Progress lines for the browser bench (`tests/bench/swimlane-bench.mjs` collects the
//! `pypto-worker …` console lines): each with the wasm memory size so far, printed by the
//! analysis worker (a load job hands its lines to it, a nested worker's console may not reach
//! the page's).

use wasm_bindgen::JsCast;

use crate::jobs;

/// Size of this instance's wasm linear memory in MiB (it only grows: after a step, the peak
/// so far).
fn wasm_memory_mib() -> f64 {
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .map_or(0.0, |m| f64::from(m.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length()) / f64::from(1u32 << 20))
}

/// Prints `line` with the wasm memory size (in a job: through the analysis worker).
pub(crate) fn bench_log(line: &str) {
    let who = if jobs::is_job() { " in the load job" } else { "" };
    let line = format!("{line} (wasm memory{who} {:.0} MiB)", wasm_memory_mib());
    jobs::say(&line);
}
