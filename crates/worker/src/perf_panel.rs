//! The Performance Analysis panel's first tables (overview, kernel statistics, setup
//! leaderboards) and the Function Performance table of one runtime dataset, for the page.
//!
//! Built on the first request (the app asks when the panel opens) from the dataset's model
//! and the records' level and warnings kept at load ([`remember`]), by
//! `pypto_replies::perf_panel` (the same tables as `pypto-viewer report`); the small result
//! tables are kept beside the dataset until the next folder opens.

use std::cell::RefCell;
use std::collections::HashMap;

use pypto_protocol::perf::PerfPanelData;

use crate::session::SESSION;

/// What the tables need of the records (the rest of the facts is in the model).
struct Facts {
    level: u32,
    warnings: Vec<String>,
}

#[derive(Default)]
struct Store {
    /// The session generation these entries belong to.
    generation: u64,
    facts: HashMap<u32, Facts>,
    built: HashMap<u32, PerfPanelData>,
}

thread_local! {
    static STORE: RefCell<Store> = RefCell::new(Store::default());
}

/// Keeps the records' level and warnings of a loaded dataset for a later [`post`].
pub(crate) fn remember(generation: u64, dataset_id: u32, level: u32, warnings: Vec<String>) {
    STORE.with_borrow_mut(|s| {
        if s.generation != generation {
            s.facts.clear();
            s.built.clear();
            s.generation = generation;
        }
        s.facts.insert(dataset_id, Facts { level, warnings });
    });
}

/// `ToWorker::PerfPanel`: the tables of `dataset_id`, built on the first call.
pub(crate) fn tables(dataset_id: u32) -> Result<PerfPanelData, String> {
    tables_of(dataset_id).ok_or_else(|| format!("dataset {dataset_id} has no chip swimlane records: no performance analysis"))
}

fn tables_of(dataset_id: u32) -> Option<PerfPanelData> {
    let generation = SESSION.with_borrow(|s| s.generation);
    let cached = STORE.with_borrow(|s| if s.generation == generation { s.built.get(&dataset_id).cloned() } else { None });
    if cached.is_some() {
        return cached;
    }
    let data = SESSION.with_borrow(|s| {
        let model = s.runtime.get(&dataset_id)?.model.as_ref()?;
        STORE.with_borrow(|st| {
            let facts = st.facts.get(&dataset_id).filter(|_| st.generation == generation)?;
            Some(pypto_replies::perf_panel::panel_data(dataset_id, model, facts.level, &facts.warnings))
        })
    })?;
    STORE.with_borrow_mut(|s| {
        if s.generation == generation {
            s.built.insert(dataset_id, data.clone());
        }
    });
    Some(data)
}
