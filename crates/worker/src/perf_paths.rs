//! The path tabs of the Performance Analysis panel (critical path, gap & blocker, early
//! dispatch, continuous single-dependency chains) for the page: computed by
//! `pypto_analysis::perf_panel::paths` on the first `ToWorker::PerfPaths` of a runtime dataset
//! (the app asks when a path tab opens), not at load — the analyses need the raw records and
//! `deps.json`, which the worker drops once the model is built, so a job reads them again then
//! (`job_work::path_tables`) — and kept as small result tables until the next folder opens.
//! Answers `ToWorker::PerfPaths` and `ToWorker::GapThreshold`, for the page's panel, and
//! hands the tables to the comparison of two captures (`tables`).

use std::cell::RefCell;
use std::collections::HashMap;

use futures_channel::oneshot;
use pypto_analysis::perf_panel::gap_blocker::GapBlockerTable;
use pypto_protocol::perf::{GapThreshold, GapThresholdRequest, PerfPathsData, PerfPathsRequest};

use crate::jobs::{self, FromJob, PathResult, ToJob};
use crate::store;
use crate::transport::Reply;

/// One dataset's tables: what the page gets, and the gap column the threshold check reads.
struct Stored {
    data: PerfPathsData,
    gaps: GapBlockerTable,
}

#[derive(Default)]
struct Store {
    /// The session generation these tables belong to.
    generation: u64,
    /// Datasets whose tables a job is computing, with the requests waiting for them: the
    /// tables' and the gap-threshold checks'.
    pending: HashMap<u32, Waiting>,
    datasets: HashMap<u32, Stored>,
}

/// Requests that wait for a dataset's tables.
#[derive(Default)]
struct Waiting {
    tables: Vec<Reply<PerfPathsRequest>>,
    /// [`tables`]' callers.
    channels: Vec<oneshot::Sender<Result<PerfPathsData, String>>>,
    thresholds: Vec<(String, Reply<GapThresholdRequest>)>,
}

thread_local! {
    static STORE: RefCell<Store> = RefCell::new(Store::default());
}

/// Computes the tables in a job (`job_work::path_tables`: the records, deps.json and
/// CPM files read again) and keeps them.
async fn compute(generation: u64, dataset_id: u32) -> Result<PerfPathsData, String> {
    let (mut datasets, files) = store::job_inputs(&[dataset_id])?;
    let inputs = datasets.pop().ok_or("no dataset")?;
    let (reply, columns) = jobs::ask(&ToJob::PerfPaths(inputs), &files).await?;
    if !matches!(reply, FromJob::PathTables) {
        return Err("the path job answered something else".to_owned());
    }
    let result: PathResult = jobs::decode_at(&columns, "tables")?;
    if store::generation() != generation {
        return Err("a new folder was opened".to_string());
    }
    let gaps = GapBlockerTable { gap_us: result.gap_us, ..GapBlockerTable::default() };
    STORE.with_borrow_mut(|s| {
        if s.generation != generation {
            *s = Store { generation, ..Store::default() };
        }
        s.datasets.insert(dataset_id, Stored { data: result.data.clone(), gaps });
    });
    Ok(result.data)
}

fn with_stored<R>(dataset_id: u32, f: impl FnOnce(&Stored) -> R) -> Option<R> {
    let generation = store::generation();
    STORE.with_borrow(|s| if s.generation == generation { s.datasets.get(&dataset_id).map(f) } else { None })
}

fn has_model(dataset_id: u32) -> bool {
    store::SESSION.with_borrow(|s| s.runtime.get(&dataset_id).is_some_and(|d| d.model.is_some()))
}

fn no_paths(dataset_id: u32) -> String {
    format!("dataset {dataset_id} has no path analyses (no readable swimlane records)")
}

/// Adds a waiter for the tables of `dataset_id` (`add`), and starts their job unless one runs.
fn queue(dataset_id: u32, add: impl FnOnce(&mut Waiting)) {
    let generation = store::generation();
    let start = STORE.with_borrow_mut(|s| {
        if s.generation != generation {
            *s = Store { generation, ..Store::default() };
        }
        let start = !s.pending.contains_key(&dataset_id);
        add(s.pending.entry(dataset_id).or_default());
        start
    });
    if !start {
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let result = compute(generation, dataset_id).await;
        let waiting = STORE.with_borrow_mut(|s| s.pending.remove(&dataset_id)).unwrap_or_default();
        if store::generation() != generation {
            return;
        }
        for reply in waiting.tables {
            reply.answer(result.clone());
        }
        for sender in waiting.channels {
            let _ = sender.send(result.clone());
        }
        for (text, reply) in waiting.thresholds {
            reply.answer(threshold(dataset_id, text));
        }
    });
}

/// `ToWorker::PerfPaths`: the stored tables, or computes them (once; a request while they are
/// computed is answered when they are done).
pub(crate) fn paths(dataset_id: u32, reply: Reply<PerfPathsRequest>) {
    if let Some(data) = with_stored(dataset_id, |s| s.data.clone()) {
        return reply.send(data);
    }
    if !has_model(dataset_id) {
        return reply.fail(no_paths(dataset_id));
    }
    queue(dataset_id, |w| w.tables.push(reply));
}

/// The tables of `dataset_id` for another handler (the comparison): stored, or computed as
/// for `ToWorker::PerfPaths` (one job however many ask).
pub(crate) async fn tables(dataset_id: u32) -> Result<PerfPathsData, String> {
    if let Some(data) = with_stored(dataset_id, |s| s.data.clone()) {
        return Ok(data);
    }
    if !has_model(dataset_id) {
        return Err(no_paths(dataset_id));
    }
    let (sender, receiver) = oneshot::channel();
    queue(dataset_id, |w| w.channels.push(sender));
    receiver.await.map_err(|_| "a new folder was opened".to_owned())?
}

/// `ToWorker::GapThreshold`: the analysis' own validation and row filter (answered once the
/// tables are computed when they are being computed).
pub(crate) fn gap_threshold(request: GapThresholdRequest, reply: Reply<GapThresholdRequest>) {
    let GapThresholdRequest { dataset_id, text } = request;
    let waiting = STORE.with_borrow_mut(|s| match s.pending.get_mut(&dataset_id) {
        Some(w) => {
            w.thresholds.push((text.clone(), reply));
            None
        }
        None => Some(reply),
    });
    if let Some(reply) = waiting {
        reply.answer(threshold(dataset_id, text));
    }
}

fn threshold(dataset_id: u32, text: String) -> Result<GapThreshold, String> {
    with_stored(dataset_id, |s| pypto_replies::perf_paths::gap_threshold(dataset_id, text, &s.gaps))
        .ok_or_else(|| format!("dataset {dataset_id} has no gap table"))
}
