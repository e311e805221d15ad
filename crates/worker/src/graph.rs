//! The Task Dependency Graph requests (`ToWorker::DepGraph`, toolkit-features.md group L):
//! reads the dataset's deps.json whole (the load keeps it lean), builds the graph and the
//! edge selections of the five `deps_viewer` modes once per dataset, lays out the selected
//! mode's edges in the worker ([`pypto_analysis::dag_layout`], progress posted per phase) and
//! hands the page node columns and edge polylines as transferred typed arrays.
//!
//! JIT warm-up: V8 runs a wasm function's first calls in its baseline tier and compiles the
//! optimised code in the background, so the first layout of a big graph would run 3–6× slower
//! than the next. When a dataset with a big deps.json (≥ [`WARM_UP_MIN_BYTES`]) loads (else at
//! the latest before the graph view reads it) the worker lays out a small synthetic DAG of the
//! same shape twice, once per worker; the optimising compiler then works while the files are
//! parsed, and the real layout runs optimised code. The first graph's header reports that
//! warm-up's time beside the layout's.
//!
//! The graph, its columns, node details and search are `pypto_replies::dep_graph`'s; this
//! module reads the file, keeps the built graph and posts.

use std::cell::{Cell, RefCell};

use pypto_analysis::dag_layout::{self, Direction, LayoutOptions, NodeSize};
use pypto_analysis::edge_modes::EdgeMode;
use pypto_formats::deps;
use pypto_protocol::datasets::Progress;
use pypto_protocol::dep_graph::{
    columns as col, DepGraphHeader, DepGraphRequest, DepNodeDetails, DepNodeDetailsRequest, DepSearchHits, DepSearchRequest,
};
use pypto_protocol::FromWorker;
use pypto_replies::dep_graph::{DepGraph, LaidOutGraph, NODE_HEIGHT, NODE_WIDTH};
use wasm_bindgen::JsCast;

use crate::session::SESSION;
use crate::transport::{self, Columns, Reply};

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
    /// Whether this worker ran the JIT warm-up, and its time (ms) not yet reported.
    static WARMED: Cell<bool> = const { Cell::new(false) };
    static WARM_UP_MS: Cell<f64> = const { Cell::new(0.0) };
}

/// deps.json size from which a first layout is preceded by the JIT warm-up.
const WARM_UP_MIN_BYTES: u64 = 2 << 20;

/// `performance.now()` of the worker (ms, sub-millisecond), else `Date.now()`.
pub(crate) fn now_ms() -> f64 {
    let global = js_sys::global();
    js_sys::Reflect::get(&global, &"performance".into())
        .ok()
        .and_then(|p| {
            let now = js_sys::Reflect::get(&p, &"now".into()).ok()?;
            let f: &js_sys::Function = now.dyn_ref()?;
            f.call0(&p).ok()?.as_f64()
        })
        .unwrap_or_else(js_sys::Date::now)
}

/// Size of the worker's wasm linear memory in MiB (it only grows: after a step, the peak so
/// far), for the bench's log lines.
pub(crate) fn wasm_memory_mib() -> f64 {
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .map_or(0.0, |m| f64::from(m.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length()) / f64::from(1u32 << 20))
}

/// The warm-up DAG: `chains` chains of `blocks` four-task blocks (qk → softmax → pv →
/// update, update ← previous update and ← the chain's alloc), fanned out from one source
/// and into one sink, the shape of the paged-attention captures. `(node count, edges)`.
fn warm_up_graph(chains: u32, blocks: u32) -> (usize, Vec<(u32, u32)>) {
    let mut edges = Vec::new();
    let source = 0u32;
    let mut next = 1u32;
    let mut lasts = Vec::new();
    for _ in 0..chains {
        let alloc = next;
        next += 1;
        let mut prev_update: Option<u32> = None;
        for _ in 0..blocks {
            let (qk, sm, pv, up) = (next, next + 1, next + 2, next + 3);
            next += 4;
            edges.extend([(source, qk), (qk, sm), (sm, pv), (pv, up), (sm, up), (alloc, up)]);
            if let Some(p) = prev_update {
                edges.push((p, up));
            }
            prev_update = Some(up);
        }
        lasts.extend(prev_update);
    }
    let sink = next;
    edges.extend(lasts.into_iter().map(|u| (u, sink)));
    (sink as usize + 1, edges)
}

/// The JIT warm-up when a deps.json of `deps_bytes` is big enough to need it.
pub(crate) fn warm_up_for(deps_bytes: u64) {
    if deps_bytes >= WARM_UP_MIN_BYTES {
        warm_up();
    }
}

/// Runs the JIT warm-up once per worker (see the module doc); its time is kept for the next
/// header.
fn warm_up() {
    if WARMED.replace(true) {
        return;
    }
    let started = now_ms();
    let (n, edges) = warm_up_graph(16, 16);
    let sizes = vec![NodeSize { width: NODE_WIDTH, height: NODE_HEIGHT }; n];
    for direction in [Direction::TopBottom, Direction::LeftRight] {
        let opts = LayoutOptions { direction, ..LayoutOptions::default() };
        let _ = dag_layout::layout_all(&sizes, &edges, &opts);
    }
    WARM_UP_MS.set(now_ms() - started);
}

/// `ToWorker::DepGraph`: (re)build the dataset's graph if needed, lay out `mode`'s edges, answer.
pub(crate) async fn graph(request: DepGraphRequest, reply: Reply<DepGraphRequest>) {
    let DepGraphRequest { dataset_id, mode, left_right } = request;
    let (generation, file) = SESSION.with_borrow(|s| (s.generation, s.runtime.get(&dataset_id).and_then(|d| d.deps_file.clone())));
    let fresh = BUILT.with_borrow(|b| b.as_ref().is_some_and(|b| b.generation == generation && b.dataset_id == dataset_id));
    if !fresh {
        let Some((entry, source)) = file else {
            return reply.fail(format!("dataset {dataset_id} has no deps.json: the Task Dependency Graph needs one"));
        };
        warm_up_for(entry.size_bytes);
        let path = entry.path.clone();
        let mut on_progress = |done_bytes, total_bytes| {
            transport::post(&FromWorker::Progress(Progress { path: path.clone(), done_bytes, total_bytes }), None);
        };
        let bytes = match crate::reading::read_bytes(&source, &mut on_progress).await {
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
            let names = dataset.and_then(|d| d.model.as_ref().and_then(|m| m.names.as_ref()).or(d.names.as_ref()));
            let graph = DepGraph::build(&parsed, &[], names);
            Built { generation, dataset_id, graph, deps: parsed }
        });
        BUILT.with_borrow_mut(|b| *b = Some(built));
    }
    let laid_out = BUILT.with_borrow(|b| match b.as_ref() {
        Some(b) => layout(b, mode, left_right),
        None => Err("the dependency graph was not built".to_owned()),
    });
    match laid_out {
        Ok((header, columns)) => reply.send_with(header, columns),
        Err(message) => reply.fail(message),
    }
}

fn layout(b: &Built, mode: EdgeMode, left_right: bool) -> Result<(DepGraphHeader, Columns), String> {
    let big = b.graph.graph.node_count() > 2000;
    let mut control = |p: dag_layout::Progress| {
        if big {
            let label = format!("laying out the graph: {}", p.phase.as_str());
            let progress = Progress { path: label, done_bytes: u64::from(p.step), total_bytes: u64::from(p.steps.max(1)) };
            transport::post(&FromWorker::Progress(progress), None);
        }
        true
    };
    let LaidOutGraph { mut header, columns: c } = b.graph.layout(b.dataset_id, mode, left_right, &now_ms, &mut control)?;
    header.warmup_ms = WARM_UP_MS.take();
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
