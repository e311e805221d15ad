//! The Task Dependency Graph's requests, for the page's graph view (`ToWorker::DepGraph`,
//! toolkit-features.md group L): reads the dataset's deps.json whole (the load keeps it
//! lean), builds the graph — `deps_viewer`'s nodes: deps.json's tasks and edge endpoints and
//! the tasks of the records (the perf sidecar, from the resident model) — and the edge
//! selections of the five `deps_viewer` modes once per dataset, lays out the selected mode's
//! edges in the worker ([`pypto_analysis::dag_layout`], disconnected components packed to the
//! canvas's aspect ratio the request carries, progress posted per phase; after the
//! JIT warm-up, `layout_warm_up`) and hands the page node columns and edge polylines as
//! transferred typed arrays; answers `DepNodeDetails` and `DepSearch`. The graph, its
//! columns, node details and search are `pypto_replies::dep_graph`'s; this module reads the
//! file, keeps the built graph and posts.

use std::cell::RefCell;

use pypto_analysis::dag_layout;
use pypto_analysis::edge_modes::EdgeMode;
use pypto_formats::deps;
use pypto_protocol::datasets::{Progress, ProgressStage};
use pypto_protocol::dep_graph::{
    columns as col, DepGraphHeader, DepGraphRequest, DepNodeDetails, DepNodeDetailsRequest, DepSearchHits, DepSearchRequest,
};
use pypto_protocol::FromWorker;
use pypto_replies::dep_graph::{self, DepGraph, LaidOutGraph};

use crate::clock::now_ms;
use crate::store::SESSION;
use crate::transport::{self, Columns, Reply};
use crate::{layout_warm_up, reading};

/// One dataset's graph, kept while the same folder stays open.
struct Built {
    generation: u64,
    dataset_id: u32,
    graph: DepGraph,
    /// The parsed deps.json (tensor arguments and edge annotations for the details).
    deps: deps::Deps,
}

thread_local! {
    static BUILT: RefCell<Option<Built>> = const { RefCell::new(None) };
}

/// `ToWorker::DepGraph`: (re)build the dataset's graph if needed, lay out `mode`'s edges, answer.
pub(crate) async fn graph(request: DepGraphRequest, reply: Reply<DepGraphRequest>) {
    let DepGraphRequest { dataset_id, mode, left_right, aspect } = request;
    let (generation, file) = SESSION.with_borrow(|s| (s.generation, s.runtime.get(&dataset_id).and_then(|d| d.deps_file.clone())));
    let fresh = BUILT.with_borrow(|b| b.as_ref().is_some_and(|b| b.generation == generation && b.dataset_id == dataset_id));
    if !fresh {
        let Some((entry, source)) = file else {
            return reply.fail(format!("dataset {dataset_id} has no deps.json: the Task Dependency Graph needs one"));
        };
        layout_warm_up::warm_up_for(entry.size_bytes);
        let path = entry.path.clone();
        let mut on_progress = |done_bytes, total_bytes| {
            transport::post(
                &FromWorker::Progress(Progress { path: path.clone(), done_bytes, total_bytes, stage: ProgressStage::Read }),
                None,
            );
        };
        let bytes = match reading::read_bytes(&source, &mut on_progress).await {
            Ok(b) => b,
            Err(message) => return reply.fail(format!("{}: {message}", entry.path)),
        };
        let parsed = match deps::parse(&entry.path, &bytes) {
            Ok(p) => p,
            Err(e) => return reply.fail(e.to_string()),
        };
        drop(bytes);
        let built = SESSION.with_borrow(|s| {
            let dataset = s.runtime.get(&dataset_id);
            let model = dataset.and_then(|d| d.model.as_ref());
            let names = model.and_then(|m| m.names.as_ref()).or(dataset.and_then(|d| d.names.as_ref()));
            // deps_viewer's nodes: deps.json's tasks and edge endpoints, and the records' tasks.
            let graph = DepGraph::build(&parsed, &dep_graph::sidecar(model), names);
            Built { generation, dataset_id, graph, deps: parsed }
        });
        BUILT.with_borrow_mut(|b| *b = Some(built));
    }
    let laid_out = BUILT.with_borrow(|b| match b.as_ref() {
        Some(b) => layout(b, mode, left_right, aspect),
        None => Err("the dependency graph was not built".to_owned()),
    });
    match laid_out {
        Ok((header, columns)) => reply.send_with(header, columns),
        Err(message) => reply.fail(message),
    }
}

fn layout(b: &Built, mode: EdgeMode, left_right: bool, aspect: f64) -> Result<(DepGraphHeader, Columns), String> {
    let big = b.graph.graph.node_count() > 2000;
    // Packed components lay out one by one: progress at most every 50 ms.
    let mut last_post_ms = f64::NEG_INFINITY;
    let mut control = |p: dag_layout::Progress| {
        if big && now_ms() - last_post_ms >= 50.0 {
            last_post_ms = now_ms();
            let progress = Progress {
                path: p.phase.as_str().to_owned(),
                done_bytes: u64::from(p.step),
                total_bytes: u64::from(p.steps.max(1)),
                stage: ProgressStage::Layout,
            };
            transport::post(&FromWorker::Progress(progress), None);
        }
        true
    };
    let LaidOutGraph { mut header, columns: c } = b.graph.layout(b.dataset_id, mode, left_right, aspect, &now_ms, &mut control)?;
    header.warmup_ms = layout_warm_up::take_ms();
    let mut columns = Columns::new();
    columns.f64(col::X, &c.x);
    columns.f64(col::Y, &c.y);
    columns.f64(col::W, &c.w);
    columns.f64(col::H, &c.h);
    columns.u8(col::KIND, &c.kind);
    columns.u32(col::BLOCK_NUM, &c.block_num);
    columns.u32(col::NAME_INDEX, &c.name_index);
    columns.u8(col::MARKERS, &c.markers);
    columns.u32(col::PRED, &c.pred);
    columns.u32(col::SUCC, &c.succ);
    columns.u32(col::POINT_OFFSETS, &c.point_offsets);
    columns.f64(col::POINTS, &c.points);
    columns.u32(col::FULL_PRED, &c.full_pred);
    columns.u32(col::FULL_SUCC, &c.full_succ);
    Ok((header, columns))
}

/// `ToWorker::DepNodeDetails`: the node's tensor arguments and edge annotations.
pub(crate) fn node_details(r: &DepNodeDetailsRequest) -> Result<DepNodeDetails, String> {
    let dataset_id = r.dataset_id;
    BUILT
        .with_borrow(|b| b.as_ref().filter(|b| b.dataset_id == dataset_id).map(|b| b.graph.node_details(&b.deps, dataset_id, r.node)))
        .ok_or_else(|| format!("dependency graph of dataset {dataset_id} is not built"))
}

/// `ToWorker::DepSearch`: `rXtY` / `tY` exactly, else function names fuzzily.
pub(crate) fn search(r: &DepSearchRequest) -> Result<DepSearchHits, String> {
    let dataset_id = r.dataset_id;
    BUILT
        .with_borrow(|b| b.as_ref().filter(|b| b.dataset_id == dataset_id).map(|b| b.graph.search(dataset_id, &r.query)))
        .ok_or_else(|| format!("dependency graph of dataset {dataset_id} is not built"))
}
