//! The Task Dependency Graph's requests, for the page's graph view (`ToWorker::DepGraph`,
//! toolkit-features.md group L): reads the dataset's deps.json again with the tasks'
//! arguments (the load keeps it lean; a big file parsed as it streams in), builds the graph —
//! `deps_viewer`'s nodes: deps.json's tasks and edge endpoints and the tasks of the records
//! (the perf sidecar, from the resident model) — and the edge selections of the five
//! `deps_viewer` modes once per dataset (a big graph a step at a time, progress posted and a
//! Cancel heard between steps), lays out the selected mode's edges
//! ([`pypto_analysis::dag_layout`], disconnected components packed to the canvas's aspect
//! ratio the request carries, progress posted per phase; after the JIT warm-up,
//! `layout_warm_up`) — here for small graphs, in a job for big ones so a Cancel stops it —
//! and hands the page node columns and edge polylines as transferred typed arrays; answers
//! `DepNodeDetails` and `DepSearch`. The graph, its columns, node details and search are
//! `pypto_replies::dep_graph`'s; this module reads the file, keeps the built graph and posts.

use std::cell::RefCell;

use pypto_analysis::deps_graph::SidecarTask;
use pypto_analysis::edge_modes::EdgeMode;
use pypto_formats::deps;
use pypto_formats::name_map::NameMap;
use pypto_protocol::datasets::{Progress, ProgressStage};
use pypto_protocol::dep_graph::{
    columns as col, DepGraphHeader, DepGraphRequest, DepNodeDetails, DepNodeDetailsRequest, DepSearchHits, DepSearchRequest,
};
use pypto_protocol::FromWorker;
use pypto_replies::dep_graph::{self, DepGraph, DepGraphBuild};
use wasm_bindgen::{JsCast, JsValue};

use crate::clock::now_ms;
use crate::jobs::{self, FromJob, ToJob};
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
        // A big file is parsed as its slices arrive (between them a Cancel is heard, and the
        // text is never whole); a small one, or one the stream gave up on (for the exact error
        // position), whole.
        let mut streamed = None;
        if entry.size_bytes > reading::SLICE_BYTES {
            let mut stream = deps::DepsStream::new();
            if let Err(message) = reading::read_slices(&source, &mut |b| stream.feed(b), &mut on_progress).await {
                return reply.fail(format!("{}: {message}", entry.path));
            }
            streamed = stream.finish();
        }
        let parsed = if let Some(parsed) = streamed {
            parsed
        } else {
            let bytes = match reading::read_bytes(&source, &mut on_progress).await {
                Ok(b) => b,
                Err(message) => return reply.fail(format!("{}: {message}", entry.path)),
            };
            match deps::parse(&entry.path, &bytes) {
                Ok(p) => p,
                Err(e) => return reply.fail(e.to_string()),
            }
        };
        let (sidecar, names) = SESSION.with_borrow(|s| {
            let dataset = s.runtime.get(&dataset_id);
            let model = dataset.and_then(|d| d.model.as_ref());
            let names = model.and_then(|m| m.names.as_ref()).or(dataset.and_then(|d| d.names.as_ref()));
            (dep_graph::sidecar(model), names.cloned())
        });
        // deps_viewer's nodes: deps.json's tasks and edge endpoints, and the records' tasks.
        let graph = match build_in_steps(&parsed, &sidecar, names.as_ref()).await {
            Ok(graph) => graph,
            Err(message) => return reply.fail(message),
        };
        BUILT.with_borrow_mut(|b| *b = Some(Built { generation, dataset_id, graph, deps: parsed }));
    }
    match layout(generation, dataset_id, mode, left_right, aspect).await {
        Ok((header, columns)) => reply.send_with(header, columns),
        Err(message) => reply.fail(message),
    }
}

/// Builds the graph a [`DepGraphBuild`] step at a time: a big graph's steps take a few
/// hundred ms together, so between them the page hears how far it is (the `layout` stage's
/// `build` phase) and a Cancel is heard (the build stops with [`reading::CANCELLED`]).
async fn build_in_steps(parsed: &deps::Deps, sidecar: &[SidecarTask], names: Option<&NameMap>) -> Result<DepGraph, String> {
    let mut build = DepGraphBuild::new(parsed, sidecar, names);
    if parsed.tasks.task_id.len() + parsed.edges.pred.len() < STEPPED_BUILD_MIN {
        return Ok(build.finish());
    }
    let epoch = reading::cancel_epoch();
    loop {
        let step = Progress {
            path: BUILD_PHASE.to_owned(),
            done_bytes: build.done(),
            total_bytes: DepGraphBuild::STEPS,
            stage: ProgressStage::Layout,
        };
        transport::post(&FromWorker::Progress(step), None);
        // A macrotask turn: the Cancel message, if one came, runs before the next step.
        gloo::timers::future::TimeoutFuture::new(0).await;
        if reading::cancelled_since(epoch) {
            return Err(reading::CANCELLED.to_owned());
        }
        if build.ready() {
            return Ok(build.finish());
        }
        build.step();
    }
}

/// Graphs of fewer tasks and edges than this together are built in one piece (no progress:
/// it takes a few ms).
const STEPPED_BUILD_MIN: usize = 20_000;

/// The `layout` progress phase of the graph's build (`session::layout_phase_message_id`).
const BUILD_PHASE: &str = "build";

/// Graphs of more nodes than this are laid out in a job (`jobs::ToJob::LayoutGraph`): a
/// Cancel terminates it, and what the layout peaks at goes back to the browser with it.
/// Smaller ones take well under a second here, where a job would only add its start.
const JOB_MIN_NODES: usize = 20_000;

/// Lays out `mode`'s edges of the built graph (in a job when it is big) and answers the
/// header and columns.
async fn layout(
    generation: u64,
    dataset_id: u32,
    mode: EdgeMode,
    left_right: bool,
    aspect: f64,
) -> Result<(DepGraphHeader, Columns), String> {
    let (node_count, edges) = BUILT.with_borrow(|b| match b.as_ref() {
        Some(b) => Ok((b.graph.graph.node_count(), b.graph.shown_edges(mode)?)),
        None => Err("the dependency graph was not built".to_owned()),
    })?;
    let mut columns = Columns::new();
    let (summary, layout_ms, warmup_ms) = if node_count > JOB_MIN_NODES {
        // The bar (and its Cancel) shows while the job starts, before its first phase.
        let start = Progress { path: "start".to_owned(), done_bytes: 0, total_bytes: 1, stage: ProgressStage::Layout };
        transport::post(&FromWorker::Progress(start), None);
        let request = ToJob::LayoutGraph { node_count: node_count as u32, left_right, aspect };
        let (reply, placed) = jobs::ask_with_input(&request, &jobs::encode(&edges)?).await?;
        let FromJob::GraphLaidOut { summary, layout_ms, warmup_ms } = reply else {
            return Err("the layout job answered something else".to_owned());
        };
        for key in [col::X, col::Y, col::POINT_OFFSETS, col::POINTS] {
            let array = js_sys::Reflect::get(&placed, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
            if array.is_undefined() {
                return Err(format!("the layout job sent no {key}"));
            }
            columns.js(key, array.unchecked_ref());
        }
        (summary, layout_ms, warmup_ms)
    } else {
        let started_ms = now_ms();
        let placed = dep_graph::lay_out_edges(node_count, &edges, left_right, aspect, &mut layout_warm_up::progress_control(node_count))?;
        let layout_ms = now_ms() - started_ms;
        placed_columns(&mut columns, &placed);
        (placed.summary, layout_ms, layout_warm_up::take_ms())
    };
    BUILT.with_borrow(|b| {
        let b = b.as_ref().filter(|b| b.generation == generation && b.dataset_id == dataset_id);
        let b = b.ok_or_else(|| "another graph was opened while this one was laid out".to_owned())?;
        let (mut header, c) = b.graph.assemble(dataset_id, mode, left_right, &edges, &summary, layout_ms);
        header.warmup_ms = warmup_ms;
        columns.f64(col::W, &c.w);
        columns.f64(col::H, &c.h);
        columns.u8(col::KIND, &c.kind);
        columns.u32(col::BLOCK_NUM, &c.block_num);
        columns.u32(col::NAME_INDEX, &c.name_index);
        columns.u8(col::MARKERS, &c.markers);
        columns.u32(col::PRED, &c.pred);
        columns.u32(col::SUCC, &c.succ);
        columns.u32(col::FULL_PRED, &c.full_pred);
        columns.u32(col::FULL_SUCC, &c.full_succ);
        Ok((header, columns))
    })
}

/// The columns of where `placed` put the nodes and edges: centres and polylines.
pub(crate) fn placed_columns(columns: &mut Columns, placed: &dep_graph::PlacedGraph) {
    let x: Vec<f64> = placed.x.iter().map(|&v| f64::from(v)).collect();
    let y: Vec<f64> = placed.y.iter().map(|&v| f64::from(v)).collect();
    columns.f64(col::X, &x);
    columns.f64(col::Y, &y);
    columns.u32(col::POINT_OFFSETS, &placed.edge_offsets);
    columns.f64(col::POINTS, &placed.points);
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
