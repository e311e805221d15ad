//! The worker's one `match` on the page's requests, on top of every other module: each
//! request goes to the module that answers it, with a typed [`Reply`] carrying its id (the
//! page's `ask` waits on that id). Opening a folder is not a request: its results are
//! announced (`open`).

use pypto_protocol::{Request, RequestId, ToWorker};

use crate::transport::{Incoming, Reply};

/// Dispatches one request from the page.
pub fn handle(incoming: Incoming) {
    let Incoming { id, msg, files } = incoming;
    match msg {
        ToWorker::OpenFolder(r) => {
            crate::reading::set_stall_timeout_ms(r.stall_timeout_ms);
            let sources = files.iter().collect();
            wasm_bindgen_futures::spawn_local(crate::open::open_entries(r.source_label, r.entries, sources, r.as_comparison));
        }
        ToWorker::OpenUrl(r) => {
            crate::reading::set_stall_timeout_ms(r.stall_timeout_ms);
            wasm_bindgen_futures::spawn_local(crate::open::open_url(r.url, r.as_comparison));
        }
        ToWorker::Timeline(r) => crate::timelines::timeline(r, Reply::to(id)),
        ToWorker::TraceTimeline(r) => crate::traces::timeline(r, Reply::to(id)),
        // Chrome-trace timelines answer their own queries (`traces`); the chip ones otherwise.
        ToWorker::BarDetails(r) if crate::traces::owns(r.timeline_id) => answer(id, &r, crate::traces::bar_details(&r)),
        ToWorker::BarDetails(r) => crate::timelines::bar_details(&r, Reply::to(id)),
        ToWorker::Dependencies(r) if crate::traces::owns(r.timeline_id) => answer(id, &r, crate::traces::dependencies(&r)),
        ToWorker::Dependencies(r) => answer(id, &r, crate::timelines::dependencies(&r)),
        ToWorker::Search(r) if crate::traces::owns(r.timeline_id) => answer(id, &r, crate::traces::search(&r)),
        ToWorker::Search(r) => answer(id, &r, crate::timelines::search(&r)),
        ToWorker::RangeStats(r) if crate::traces::owns(r.timeline_id) => answer(id, &r, crate::traces::range_stats(&r)),
        // The page computes a chip timeline's range statistics from its own columns.
        ToWorker::RangeStats(r) => {
            let why = format!("timeline {} is not a Chrome trace: its range statistics come from the page", r.timeline_id);
            answer(id, &r, Err(why));
        }
        ToWorker::ExportTrace(r) => crate::timelines::export_trace(&r, Reply::to(id)),
        ToWorker::PerfPanel(r) => answer(id, &r, crate::perf_panel::tables(r.dataset_id)),
        ToWorker::PerfPaths(r) => crate::perf_paths::paths(r.dataset_id, Reply::to(id)),
        ToWorker::GapThreshold(r) => crate::perf_paths::gap_threshold(r, Reply::to(id)),
        ToWorker::DepGraph(r) => wasm_bindgen_futures::spawn_local(crate::graph::graph(r, Reply::to(id))),
        ToWorker::DepNodeDetails(r) => answer(id, &r, crate::graph::node_details(&r)),
        ToWorker::DepSearch(r) => answer(id, &r, crate::graph::search(&r)),
        ToWorker::PassList(r) => crate::passes::list_reply(r.dataset_id, Reply::to(id)),
        ToWorker::PassDiff(r) => crate::passes::diff_reply(r, Reply::to(id)),
        ToWorker::MemoryMap(r) => crate::memory_map::map(r, Reply::to(id)),
        ToWorker::Compare(r) => wasm_bindgen_futures::spawn_local(crate::compare::compare(r, Reply::to(id))),
        ToWorker::TaskMatch(r) => answer(id, &r, crate::compare::task_match(&r)),
        ToWorker::PassCompare(r) => crate::compare_passes::compare(&r, Reply::to(id)),
        ToWorker::PassCrossDiff(r) => crate::compare_passes::cross_diff(r, Reply::to(id)),
        ToWorker::MemoryCompare(r) => crate::compare_passes::memory(r, Reply::to(id)),
        ToWorker::Cancel(_) => crate::open::cancel(),
        ToWorker::DebugPanic => debug_panic(),
    }
}

/// Answers request `r` (its type picks the reply type) with `result`.
fn answer<R: Request>(id: Option<RequestId>, _request: &R, result: Result<R::Reply, String>) {
    Reply::<R>::to(id).answer(result);
}

#[allow(clippy::panic)]
fn debug_panic() {
    panic!("debug panic requested by the page (crash-recovery test hook)");
}
