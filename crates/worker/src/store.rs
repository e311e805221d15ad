//! The analysis worker's state for the opened folder, shared by the open flow (which fills
//! it) and the request handlers (which read it): the folder's generation, each loaded runtime
//! dataset (resident model, file sources, the records' level and warnings), the built chip
//! timelines' query indices, and the timelines load jobs built ahead of the page's request.

use std::cell::RefCell;
use std::collections::HashMap;

use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::timeline::Timeline;
use pypto_formats::name_map;
use pypto_protocol::datasets::EntryMeta;
use pypto_protocol::timeline::{TimelineHeader, TimelineRequest};
use wasm_bindgen::JsValue;

use crate::jobs::RuntimeInputs;
use crate::transport::Reply;

/// A runtime dataset: its path (group label prefix in multi-rank timelines) and its model
/// (absent when the records file is missing or unreadable).
pub(crate) struct RuntimeDataset {
    pub(crate) model: Option<RuntimeModel>,
    /// The records' collection level and warnings (the Performance Analysis overview), when
    /// the records were read.
    pub(crate) records_facts: Option<(u32, Vec<pypto_formats::Warning>)>,
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
    pub(crate) inputs: RuntimeInputs,
    pub(crate) files: js_sys::Array,
}

/// A built timeline: the datasets it covers (in model order) and its resident index.
pub(crate) struct StoredTimeline {
    pub(crate) dataset_ids: Vec<u32>,
    pub(crate) timeline: Timeline,
}

/// A single-dataset timeline a load job builds after its first answer: pending (the requests
/// the page made meanwhile, answered when it comes), or its header, query index and render
/// columns (JS typed arrays), kept until the page asks.
#[allow(clippy::large_enum_variant)] // one per loaded dataset
pub(crate) enum Prebuilt {
    Pending(Vec<(u32, Reply<TimelineRequest>)>),
    Ready { header: TimelineHeader, timeline: Timeline, columns: JsValue },
}

#[derive(Default)]
pub(crate) struct Session {
    /// Bumped by every open; a load whose generation is stale stops.
    pub(crate) generation: u64,
    /// Bumped by every comparison source opened (`open`); its load stops when stale.
    pub(crate) comparison_generation: u64,
    pub(crate) runtime: HashMap<u32, RuntimeDataset>,
    /// Built timelines by `timeline_id` (render columns already handed to the page).
    pub(crate) timelines: HashMap<u32, StoredTimeline>,
    /// Single-dataset timelines the load jobs built, by dataset, until the page asks.
    pub(crate) prebuilt: HashMap<u32, Prebuilt>,
}

thread_local! {
    pub(crate) static SESSION: RefCell<Session> = RefCell::new(Session::default());
}

/// The current generation (bumped by every open).
pub(crate) fn generation() -> u64 {
    SESSION.with_borrow(|s| s.generation)
}

/// The files of runtime datasets `ids` for a job: their inputs (in `ids` order) and every file,
/// one dataset's after the other's; `Err` names a dataset that is not a loaded runtime dataset.
pub(crate) fn job_inputs(ids: &[u32]) -> Result<(Vec<RuntimeInputs>, js_sys::Array), String> {
    SESSION.with_borrow(|s| {
        let files = js_sys::Array::new();
        let mut inputs = Vec::with_capacity(ids.len());
        for id in ids {
            let d = s.runtime.get(id).ok_or_else(|| format!("dataset {id} is not a loaded runtime dataset"))?;
            if d.model.is_none() {
                return Err(format!("dataset {id} has no readable swimlane records"));
            }
            inputs.push(RuntimeInputs { prebuild_timeline: false, ..d.inputs.clone() });
            for f in d.files.iter() {
                files.push(&f);
            }
        }
        Ok((inputs, files))
    })
}
