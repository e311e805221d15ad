//! The Performance Analysis panel's first tables (overview, kernel statistics, setup
//! leaderboards) and the Function Performance table of one runtime dataset, for the page's
//! panel and function performance view (`ToWorker::PerfPanel`).
//!
//! Built on the first request (the app asks when the panel opens) from the dataset's model
//! and the records' level and warnings kept at load (`store`), by `pypto_replies::perf_panel`
//! (the same tables as `pypto-viewer report`); the small result tables are kept until the
//! next folder opens.

use std::cell::RefCell;
use std::collections::HashMap;

use pypto_protocol::perf::PerfPanelData;

use crate::store::{self, SESSION};

#[derive(Default)]
struct Built {
    /// The session generation these tables belong to.
    generation: u64,
    tables: HashMap<u32, PerfPanelData>,
}

thread_local! {
    static BUILT: RefCell<Built> = RefCell::new(Built::default());
}

/// `ToWorker::PerfPanel`: the tables of `dataset_id`, built on the first call.
pub(crate) fn tables(dataset_id: u32) -> Result<PerfPanelData, String> {
    tables_of(dataset_id).ok_or_else(|| format!("dataset {dataset_id} has no chip swimlane records: no performance analysis"))
}

fn tables_of(dataset_id: u32) -> Option<PerfPanelData> {
    let generation = store::generation();
    let cached = BUILT.with_borrow(|b| if b.generation == generation { b.tables.get(&dataset_id).cloned() } else { None });
    if cached.is_some() {
        return cached;
    }
    let data = SESSION.with_borrow(|s| {
        let d = s.runtime.get(&dataset_id)?;
        let (level, warnings) = d.records_facts.as_ref()?;
        Some(pypto_replies::perf_panel::panel_data(dataset_id, d.model.as_ref()?, *level, warnings))
    })?;
    BUILT.with_borrow_mut(|b| {
        if b.generation != generation {
            *b = Built { generation, ..Built::default() };
        }
        b.tables.insert(dataset_id, data.clone());
    });
    Some(data)
}
