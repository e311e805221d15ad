//! The per-dataset analysis tables several parts of the page show — the performance tables
//! (the Performance Analysis panel's first tabs, the Function Performance view) and the path
//! tables (the panel's path tabs) — asked from the worker once per dataset and kept until
//! another folder opens; and the per-function table both the panel and the Function
//! Performance view show.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use leptos::prelude::*;
use pypto_protocol::perf::{FunctionPerfRow, PerfPanelData, PerfPanelRequest, PerfPathsData, PerfPathsRequest};

use crate::session::Session;
use crate::table::{Cell, Column, TableData};
use crate::worker_client::WorkerClient;

/// The tables, `Copy` handles (provided by `App`).
#[derive(Clone, Copy)]
pub struct Analyses {
    perf: RwSignal<HashMap<u32, Arc<PerfPanelData>>>,
    paths: RwSignal<HashMap<u32, Arc<PerfPathsData>>>,
    /// Datasets whose tables were asked for (not asked twice).
    asked: StoredValue<HashSet<(u32, bool)>>,
    client: WorkerClient,
}

impl Analyses {
    /// Empty tables, forgotten whenever `session` opens another folder.
    pub fn new(session: Session, client: WorkerClient) -> Self {
        let out = Self {
            perf: RwSignal::new(HashMap::new()),
            paths: RwSignal::new(HashMap::new()),
            asked: StoredValue::new(HashSet::new()),
            client,
        };
        Effect::watch(
            move || session.generation.get(),
            move |_, _, _| {
                out.perf.set(HashMap::new());
                out.paths.set(HashMap::new());
                out.asked.set_value(HashSet::new());
            },
            false,
        );
        out
    }

    /// The analyses of the page (provided by `App`).
    pub fn get() -> Self {
        expect_context::<Self>()
    }

    /// Whether to ask for `dataset`'s tables (`paths`: the path tables) now: the first time.
    fn first_ask(self, dataset: u32, paths: bool) -> bool {
        self.asked.try_update_value(|a| a.insert((dataset, paths))).unwrap_or(false)
    }

    /// The performance tables of `dataset` (tracked), asked for when missing; `None` while
    /// they travel.
    pub fn perf(self, dataset: u32) -> Option<Arc<PerfPanelData>> {
        let found = self.perf.with(|m| m.get(&dataset).cloned());
        if found.is_none() && self.first_ask(dataset, false) {
            let (client, perf) = (self.client, self.perf);
            let reply = client.ask(PerfPanelRequest { dataset_id: dataset });
            leptos::task::spawn_local(async move {
                if let Ok(data) = reply.await {
                    perf.update(|m| {
                        m.insert(dataset, Arc::new(data));
                    });
                }
            });
        }
        found
    }

    /// The path tables of `dataset` (tracked), asked for when missing; `None` while they travel.
    pub fn paths(self, dataset: u32) -> Option<Arc<PerfPathsData>> {
        let found = self.paths.with(|m| m.get(&dataset).cloned());
        if found.is_none() && self.first_ask(dataset, true) {
            let (client, paths) = (self.client, self.paths);
            let reply = client.ask(PerfPathsRequest { dataset_id: dataset });
            leptos::task::spawn_local(async move {
                if let Ok(data) = reply.await {
                    paths.update(|m| {
                        m.insert(dataset, Arc::new(data));
                    });
                }
            });
        }
        found
    }
}

/// The extension's per-function table (the Function Performance view's and the panel's
/// Kernel statistics tab's).
pub fn function_perf_table(rows: &[FunctionPerfRow]) -> TableData {
    TableData {
        columns: vec![
            Column::num("func_id", "col-func-id", 76.0),
            Column::text("name", "col-function-name", 180.0),
            Column::num("count", "col-count", 70.0),
            Column::num("max_us", "col-max-duration-us", 150.0).tip("coltip-longest-start-end-setup-excluded"),
            Column::num("min_us", "col-min-duration-us", 150.0).tip("coltip-shortest-start-end-setup-excluded"),
            Column::num("avg_us", "col-avg-duration-us", 150.0).tip("coltip-mean-start-end-setup-excluded"),
        ],
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    Cell::int(r.func_id),
                    Cell::text(r.name.clone()),
                    Cell::count(r.count),
                    Cell::num(r.max_duration_us, 3),
                    Cell::num(r.min_duration_us, 3),
                    Cell::num(r.avg_duration_us, 3),
                ]
            })
            .collect(),
    }
}
