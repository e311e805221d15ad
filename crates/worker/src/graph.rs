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
//! Search (`ToWorker::DepSearch`): `rXtY` exactly, else the function names by the swimlane's
//! fuzzy matcher ([`pypto_analysis::timeline_query::fuzzy_score`]: exact > prefix > substring
//! > subsequence), nodes ranked by their name's score, then by index.

use std::cell::{Cell, RefCell};

use pypto_analysis::dag_layout::{self, Direction, LayoutOptions, NodeSize};
use pypto_analysis::dataflow_regions::DataflowEvidence;
use pypto_analysis::deps_graph::{DepsGraph, NO_TASK};
use pypto_analysis::edge_modes::{self, EdgeMode, EdgeSelection};
use pypto_analysis::timeline_query::fuzzy_score;
use pypto_formats::{deps, name_map::NameMap};
use pypto_protocol::datasets::Progress;
use pypto_protocol::dep_graph::{
    columns as col, DepGraphHeader, DepGraphRequest, DepNodeDetails, DepNodeDetailsRequest, DepSearchHits, DepSearchRequest,
};
use pypto_protocol::{FromWorker, TaskId};
use wasm_bindgen::JsCast;

use crate::session::SESSION;
use crate::transport::{self, Columns, Reply};

use pypto_protocol::dep_graph::{
    DEP_KIND_AIC as KIND_AIC, DEP_KIND_AIV as KIND_AIV, DEP_KIND_ALLOC as KIND_ALLOC, DEP_KIND_DUMMY as KIND_DUMMY,
    DEP_KIND_MIX as KIND_MIX,
};

/// 🔥: the task is `alloc` or its deps.json entry has `early_dispatch: true`.
const MARK_FIRE: u8 = 1;
/// ⭐: at least one predecessor, all of them 🔥, at least one not `alloc`.
const MARK_STAR: u8 = 2;

/// The static early-dispatch markers of `deps_viewer` (§5.4) over all unique edges.
fn markers(graph: &DepsGraph, d: &deps::Deps, kind: &[u8]) -> Vec<u8> {
    let n = graph.node_count();
    let fire: Vec<bool> = (0..n)
        .map(|i| {
            let row = graph.task_row.get(i).copied().unwrap_or(NO_TASK);
            kind.get(i) == Some(&KIND_ALLOC) || (row != NO_TASK && d.tasks.early_dispatch.get(row as usize).copied().unwrap_or(false))
        })
        .collect();
    (0..n)
        .map(|i| {
            let preds: Vec<usize> =
                graph.in_edges(i as u32).iter().filter_map(|&e| graph.edge_pred.get(e as usize).map(|&p| p as usize)).collect();
            let star = !preds.is_empty()
                && preds.iter().all(|&p| fire.get(p).copied().unwrap_or(false))
                && preds.iter().any(|&p| kind.get(p) != Some(&KIND_ALLOC));
            u8::from(fire.get(i).copied().unwrap_or(false)) * MARK_FIRE + u8::from(star) * MARK_STAR
        })
        .collect()
}

/// Layout size of a node (CSS px at zoom 1).
const NODE_W: f32 = 150.0;
const NODE_H: f32 = pypto_protocol::dep_graph::DEP_NODE_HEIGHT;

/// One dataset's graph, kept while the same folder stays open.
struct Built {
    generation: u64,
    dataset_id: u32,
    graph: DepsGraph,
    kind: Vec<u8>,
    block_num: Vec<u32>,
    name_index: Vec<u32>,
    names: Vec<String>,
    task_ids: Vec<TaskId>,
    /// `MARK_FIRE` | `MARK_STAR` per node (runtime-formats.md §5.4).
    markers: Vec<u8>,
    /// The parsed deps.json (tensor arguments and edge annotations for the details).
    deps: deps::Deps,
    selections: Vec<EdgeSelection>,
    warnings: Vec<String>,
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
    let sizes = vec![NodeSize { width: NODE_W, height: NODE_H }; n];
    for direction in [Direction::TopBottom, Direction::LeftRight] {
        let opts = LayoutOptions { direction, ..LayoutOptions::default() };
        let _ = dag_layout::layout_all(&sizes, &edges, &opts);
    }
    WARM_UP_MS.set(now_ms() - started);
}

fn kind_of(kernels: [i64; 3]) -> u8 {
    let aic = kernels[0] >= 0;
    let aiv = kernels[1] >= 0 || kernels[2] >= 0;
    match (aic, aiv) {
        (true, true) => KIND_MIX,
        (true, false) => KIND_AIC,
        (false, true) => KIND_AIV,
        (false, false) => KIND_DUMMY,
    }
}

/// Function display name of a task row: active slots' names joined by ` + ` (deduplicated).
fn func_name(kernels: [i64; 3], names: Option<&NameMap>) -> String {
    let mut parts: Vec<String> = Vec::new();
    for k in kernels.into_iter().filter(|&k| k >= 0) {
        let name = names.and_then(|n| n.name(k)).map_or_else(|| format!("func_{k}"), str::to_string);
        if !parts.contains(&name) {
            parts.push(name);
        }
    }
    parts.join(" + ")
}

fn build(generation: u64, dataset_id: u32, deps_parsed: deps::Deps, names: Option<&NameMap>) -> Built {
    let d = &deps_parsed;
    let graph = DepsGraph::build(d, &[], &|id| names.is_some_and(|n| n.name(id).is_some()));
    let evidence = DataflowEvidence::build(&graph, d);
    let selections: Vec<EdgeSelection> =
        EdgeMode::ALL.iter().map(|&m| edge_modes::select_edges(&graph, d, m, m.is_dataflow().then_some(&evidence))).collect();
    let n = graph.node_count();
    let (mut kind, mut block_num, mut name_index) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
    let mut names_out: Vec<String> = Vec::new();
    let mut lookup: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    let mut task_ids = Vec::with_capacity(n);
    for node in 0..n {
        let row = graph.task_row.get(node).copied().unwrap_or(NO_TASK);
        let (k, blocks, name) = if row == NO_TASK {
            (KIND_ALLOC, 1, "alloc".to_string())
        } else {
            let kernels = d.tasks.kernel_ids.get(row as usize).copied().unwrap_or([-1; 3]);
            let k = kind_of(kernels);
            let name = if k == KIND_DUMMY { "dummy".to_string() } else { func_name(kernels, names) };
            (k, d.tasks.block_num.get(row as usize).copied().unwrap_or(1), name)
        };
        let next = names_out.len() as u32;
        let idx = *lookup.entry(name.clone()).or_insert_with(|| {
            names_out.push(name);
            next
        });
        kind.push(k);
        block_num.push(blocks);
        name_index.push(idx);
        task_ids.push(TaskId(graph.node_ids.get(node).copied().unwrap_or(0)));
    }
    let markers = markers(&graph, d, &kind);
    let warnings = selections.iter().filter_map(EdgeSelection::warning).take(1).chain(d.warnings.iter().take(5).cloned()).collect();
    Built {
        generation,
        dataset_id,
        graph,
        kind,
        block_num,
        name_index,
        names: names_out,
        task_ids,
        markers,
        deps: deps_parsed,
        selections,
        warnings,
    }
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
            build(generation, dataset_id, parsed, names)
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
    let sel = b.selections.get(mode.index()).ok_or_else(|| format!("no edge selection for mode {}", mode.as_str()))?;
    let g = &b.graph;
    let edges: Vec<(u32, u32)> =
        sel.shown.iter().filter_map(|&e| Some((*g.edge_pred.get(e as usize)?, *g.edge_succ.get(e as usize)?))).collect();
    let sizes = vec![NodeSize { width: NODE_W, height: NODE_H }; g.node_count()];
    let opts =
        LayoutOptions { direction: if left_right { Direction::LeftRight } else { Direction::TopBottom }, ..LayoutOptions::default() };
    let big = g.node_count() > 2000;
    let started = now_ms();
    let mut control = |p: dag_layout::Progress| {
        if big {
            let label = format!("laying out the graph: {}", p.phase.as_str());
            let progress = Progress { path: label, done_bytes: u64::from(p.step), total_bytes: u64::from(p.steps.max(1)) };
            transport::post(&FromWorker::Progress(progress), None);
        }
        true
    };
    let layout = dag_layout::layout(&sizes, &edges, &opts, &mut control).map_err(|e| format!("dependency graph layout failed: {e}"))?;
    let layout_ms = now_ms() - started;
    let mut warnings = b.warnings.clone();
    if !layout.reversed_edges.is_empty() {
        warnings.push(format!("the graph has a cycle: {} edge(s) drawn reversed to lay it out", layout.reversed_edges.len()));
    }
    let header = DepGraphHeader {
        dataset_id: b.dataset_id,
        mode,
        left_right,
        task_ids: b.task_ids.clone(),
        names: b.names.clone(),
        mode_counts: b.selections.iter().map(|s| s.shown.len() as u64).collect(),
        node_count: g.node_count() as u64,
        crossings: layout.crossings,
        layout_ms,
        warmup_ms: WARM_UP_MS.take(),
        warnings,
    };
    let n = g.node_count();
    let mut columns = Columns::new();
    columns.f64(col::X, &layout.x.iter().map(|&v| f64::from(v)).collect::<Vec<_>>());
    columns.f64(col::Y, &layout.y.iter().map(|&v| f64::from(v)).collect::<Vec<_>>());
    columns.f64(col::W, &vec![f64::from(NODE_W); n]);
    columns.f64(col::H, &vec![f64::from(NODE_H); n]);
    columns.u8(col::KIND, &b.kind);
    columns.u32(col::BLOCK_NUM, &b.block_num);
    columns.u32(col::NAME_INDEX, &b.name_index);
    columns.u8(col::MARKERS, &b.markers);
    columns.u32(col::PRED, &edges.iter().map(|e| e.0).collect::<Vec<_>>());
    columns.u32(col::SUCC, &edges.iter().map(|e| e.1).collect::<Vec<_>>());
    columns.u32(col::POINT_OFFSETS, &layout.edge_offsets);
    columns.f64(col::POINTS, &layout.points.iter().flat_map(|p| [f64::from(p[0]), f64::from(p[1])]).collect::<Vec<_>>());
    columns.u32(col::FULL_PRED, &g.edge_pred);
    columns.u32(col::FULL_SUCC, &g.edge_succ);
    Ok((header, columns))
}

fn dims(d: &deps::Deps, r: deps::DimRange) -> String {
    let v: Vec<String> = d.dims_of(r).iter().map(u32::to_string).collect();
    format!("[{}]", v.join(", "))
}

fn dtype(d: &deps::Deps, i: u32) -> String {
    d.dtype_names.get(i as usize).cloned().unwrap_or_default()
}

/// `ToWorker::DepNodeDetails`: the node's tensor arguments (from deps.json `tasks[].args`) and
/// the annotation rows of its in- and out-edges.
pub(crate) fn node_details(r: &DepNodeDetailsRequest) -> Result<DepNodeDetails, String> {
    let (dataset_id, node) = (r.dataset_id, r.node);
    let reply = BUILT.with_borrow(|b| {
        let built = b.as_ref().filter(|b| b.dataset_id == dataset_id)?;
        let (g, d) = (&built.graph, &built.deps);
        let mut args = Vec::new();
        let row = g.task_row.get(node as usize).copied().unwrap_or(NO_TASK);
        if row != NO_TASK {
            let a0 = d.tasks.arg_offsets.get(row as usize).copied().unwrap_or(0) as usize;
            let a1 = d.tasks.arg_offsets.get(row as usize + 1).copied().unwrap_or(0) as usize;
            let a = &d.args;
            for k in a0..a1.min(a.idx.len()) {
                args.push(vec![
                    a.idx[k].to_string(),
                    format!("{:?}", a.arg_type.get(k).copied().unwrap_or_default()).to_ascii_uppercase(),
                    a.tensor_id.get(k).copied().flatten().map_or_else(|| "(output)".to_string(), |t| t.to_string()),
                    dtype(d, a.dtype.get(k).copied().unwrap_or(u32::MAX)),
                    a.shape.get(k).map_or_else(String::new, |&r| dims(d, r)),
                    a.strides.get(k).map_or_else(String::new, |&r| dims(d, r)),
                    a.start_offset.get(k).map_or_else(String::new, u64::to_string),
                ]);
            }
        }
        let mut edges = Vec::new();
        let ann = &d.edges;
        let mut push = |dir: &str, edge: usize, peer: u32| {
            for &row in g.annotation_rows(edge) {
                let r = row as usize;
                let flags = ann.flags.get(r).copied().unwrap_or(0);
                let mut f = Vec::new();
                if flags & deps::FLAG_WAIT != 0 {
                    f.push("wait");
                }
                if flags & deps::FLAG_RETAIN != 0 {
                    f.push("retain");
                }
                edges.push(vec![
                    dir.to_string(),
                    built.task_ids.get(peer as usize).map(ToString::to_string).unwrap_or_default(),
                    ann.source.get(r).and_then(|&s| d.source_names.get(s as usize)).cloned().unwrap_or_else(|| "-".to_string()),
                    f.join(","),
                    ann.arg.get(r).copied().unwrap_or(-1).to_string(),
                    ann.tensor_id.get(r).copied().flatten().map_or_else(String::new, |t| t.to_string()),
                    format!("{:?}", ann.overlap.get(r).copied().unwrap_or_default()),
                ]);
            }
        };
        for &edge in g.in_edges(node) {
            push("in ←", edge as usize, g.edge_pred.get(edge as usize).copied().unwrap_or(0));
        }
        for edge in g.out_edges(node) {
            push("out →", edge, g.edge_succ.get(edge).copied().unwrap_or(0));
        }
        Some(DepNodeDetails { dataset_id, node, args, edges })
    });
    reply.ok_or_else(|| format!("dependency graph of dataset {dataset_id} is not built"))
}

/// Most hits a `DepSearchHits` carries.
const MAX_SEARCH_HITS: usize = 10_000;

/// `ToWorker::DepSearch` (see the module doc).
pub(crate) fn search(r: &DepSearchRequest) -> Result<DepSearchHits, String> {
    let (dataset_id, query) = (r.dataset_id, r.query.as_str());
    let reply = BUILT.with_borrow(|b| {
        let built = b.as_ref().filter(|b| b.dataset_id == dataset_id)?;
        let q = query.trim().to_lowercase();
        let mut hits: Vec<u32> = Vec::new();
        // `rXtY` / `tY`: that task exactly (a decimal is a name to match, not an id).
        let exact = q.starts_with(['r', 't']).then(|| q.parse::<TaskId>().ok()).flatten();
        if let Some(task) = exact {
            hits.extend(built.task_ids.iter().position(|t| *t == task).map(|i| i as u32));
        } else if !q.is_empty() {
            let scores: Vec<Option<i64>> = built.names.iter().map(|n| fuzzy_score(n, &q)).collect();
            let mut ranked: Vec<(i64, u32)> = built
                .name_index
                .iter()
                .enumerate()
                .filter_map(|(node, &name)| Some((scores.get(name as usize).copied().flatten()?, node as u32)))
                .collect();
            ranked.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            hits = ranked.into_iter().map(|(_, node)| node).collect();
        }
        let total = hits.len() as u64;
        hits.truncate(MAX_SEARCH_HITS);
        Some(DepSearchHits { dataset_id, query: query.to_string(), nodes: hits, total })
    });
    reply.ok_or_else(|| format!("dependency graph of dataset {dataset_id} is not built"))
}
