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
//! `DepNodeDetails` and `DepSearch`. A graph of up to [`PREBUILD_MAX_TASKS`] tasks is built
//! and laid out (default mode and direction) when the load ends, quietly, before anyone asks
//! ([`prebuild`]); a small graph's layouts are kept per mode and direction, so the click (or a
//! switch back) only assembles the reply. The graph, its columns, node details and search are
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
    /// The last layout of each mode and direction asked for (a graph of at most
    /// [`KEEP_LAYOUT_MAX_NODES`] nodes): asked again, it is answered without laying out.
    laid_out: Vec<LaidOut>,
}

/// A layout kept ([`Built::laid_out`]): what it was laid out for, and its columns.
struct LaidOut {
    mode: EdgeMode,
    left_right: bool,
    aspect: f64,
    summary: dep_graph::LayoutSummary,
    layout_ms: f64,
    warmup_ms: f64,
    columns: PlacedColumns,
}

/// Where a layout put the nodes and edges: centres and polylines.
enum PlacedColumns {
    /// Copied here, kept for the next ask (a small graph's).
    Kept { x: Vec<f64>, y: Vec<f64>, point_offsets: Vec<u32>, points: Vec<f64> },
    /// A big graph's layout job's typed arrays (`x`, `y`, `point_offsets`, `points`), passed
    /// on to the page as they came (moved: answered once, then dropped).
    Passing(js_sys::Object),
}

impl LaidOut {
    /// Whether this layout is the one `mode`, `left_right` and `aspect` would give: the aspect
    /// only places disconnected components, so one component fits any.
    fn fits(&self, mode: EdgeMode, left_right: bool, aspect: f64) -> bool {
        self.mode == mode
            && self.left_right == left_right
            && (self.summary.component_count <= 1 || self.aspect.to_bits() == aspect.to_bits())
    }
}

/// Layouts of graphs of at most this many nodes are kept for the next ask (their columns
/// are a few MB; a bigger graph's would hold tens).
const KEEP_LAYOUT_MAX_NODES: usize = 200_000;

thread_local! {
    static BUILT: RefCell<Option<Built>> = const { RefCell::new(None) };
}

/// `ToWorker::DepGraph`: (re)build the dataset's graph if needed, lay out `mode`'s edges, answer.
pub(crate) async fn graph(request: DepGraphRequest, reply: Reply<DepGraphRequest>) {
    let DepGraphRequest { dataset_id, mode, left_right, aspect } = request;
    let generation = SESSION.with_borrow(|s| s.generation);
    let asked_ms = now_ms();
    // The load's prebuild of this graph, if under way, is waited for rather than repeated.
    if let Some(done) = PREBUILDING
        .with_borrow_mut(|p| p.as_mut().filter(|p| p.generation == generation && p.dataset_id == dataset_id).map(Prebuilding::wait))
    {
        let _ = done.await;
    }
    let prebuild_waited_ms = now_ms();
    if let Err(message) = ensure_built(generation, dataset_id, Noise::Loud).await {
        return reply.fail(message);
    }
    let built_ms = now_ms();
    match layout(generation, dataset_id, mode, left_right, aspect).await {
        Ok((header, columns, laid_out_ms)) => {
            let nodes = header.node_count;
            let assembled_ms = now_ms();
            reply.send_with(header, columns);
            crate::bench_log::bench_log(&format!(
                "pypto-worker graph reply: {nodes} nodes; prebuild waited {:.0} ms, built {:.0} ms, laid out {:.0} ms, assembled {:.0} ms, posted {:.0} ms ({:.0} ms in the worker)",
                prebuild_waited_ms - asked_ms,
                built_ms - prebuild_waited_ms,
                laid_out_ms - built_ms,
                assembled_ms - laid_out_ms,
                now_ms() - assembled_ms,
                now_ms() - asked_ms,
            ));
        }
        Err(message) => reply.fail(message),
    }
}

/// The mode and direction the graph view opens on (`GraphNav::default` on the page): full
/// edges, top to bottom (`left_right` false).
const PREBUILD_MODE: EdgeMode = EdgeMode::Full;
const PREBUILD_LEFT_RIGHT: bool = false;

/// The canvas aspect the prebuild lays out for (a graph of one component fits any canvas; a
/// page whose canvas differs lays out again on the click).
const PREBUILD_ASPECT: f64 = 16.0 / 9.0;

/// Whether building the graph tells the page how far it is (a click does; the load's
/// prebuild, which nobody waits for yet, does not).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Noise {
    Loud,
    Quiet,
}

/// A prebuild under way ([`prebuild`]) and who waits for it.
struct Prebuilding {
    generation: u64,
    dataset_id: u32,
    waiting: Vec<futures_channel::oneshot::Sender<()>>,
}

impl Prebuilding {
    fn wait(&mut self) -> futures_channel::oneshot::Receiver<()> {
        let (sender, receiver) = futures_channel::oneshot::channel();
        self.waiting.push(sender);
        receiver
    }
}

thread_local! {
    static PREBUILDING: RefCell<Option<Prebuilding>> = const { RefCell::new(None) };
}

/// Graphs of at most this many deps.json tasks are built when the load ends, before anyone
/// asks ([`prebuild`]): the click on the graph then only lays it out. A bigger one is read
/// when asked for (its build takes seconds and holds its memory for a view maybe never opened).
pub(crate) const PREBUILD_MAX_TASKS: u64 = 120_000;

/// Builds dataset `dataset_id`'s graph ahead of the click (quietly: no progress), as
/// [`graph`] would; a request that comes meanwhile waits for it. A failure is not reported
/// here: the click builds again and says why.
pub(crate) async fn prebuild(dataset_id: u32) {
    let generation = SESSION.with_borrow(|s| s.generation);
    PREBUILDING.with_borrow_mut(|p| *p = Some(Prebuilding { generation, dataset_id, waiting: Vec::new() }));
    let started_ms = now_ms();
    let mut built = ensure_built(generation, dataset_id, Noise::Quiet).await;
    if built.is_ok() {
        built = lay_out(generation, dataset_id, PREBUILD_MODE, PREBUILD_LEFT_RIGHT, PREBUILD_ASPECT, Noise::Quiet).await.map(|_| ());
    }
    crate::bench_log::bench_log(&format!(
        "pypto-worker graph of dataset {dataset_id}: built ahead of the click in {:.0} ms{}",
        now_ms() - started_ms,
        built.err().map(|e| format!(" (failed: {e})")).unwrap_or_default()
    ));
    let finished = PREBUILDING.with_borrow_mut(|p| p.take_if(|p| p.generation == generation && p.dataset_id == dataset_id));
    for waiter in finished.into_iter().flat_map(|p| p.waiting) {
        let _ = waiter.send(());
    }
}

/// Reads deps.json again (with the tasks' arguments) and builds the dataset's graph unless it
/// is built for this folder already.
async fn ensure_built(generation: u64, dataset_id: u32, noise: Noise) -> Result<(), String> {
    let fresh = BUILT.with_borrow(|b| b.as_ref().is_some_and(|b| b.generation == generation && b.dataset_id == dataset_id));
    if fresh {
        return Ok(());
    }
    let file = SESSION.with_borrow(|s| s.runtime.get(&dataset_id).and_then(|d| d.deps_file.clone()));
    let Some((entry, source)) = file else {
        return Err(format!("dataset {dataset_id} has no deps.json: the Task Dependency Graph needs one"));
    };
    layout_warm_up::warm_up_for(entry.size_bytes);
    let path = entry.path.clone();
    let mut on_progress = |done_bytes, total_bytes| {
        if noise == Noise::Loud {
            let progress = Progress { path: path.clone(), done_bytes, total_bytes, stage: ProgressStage::Read };
            transport::post(&FromWorker::Progress(progress), None);
        }
    };
    // A big file is parsed as its slices arrive (between them a Cancel is heard, and the
    // text is never whole); a small one, or one the stream gave up on (for the exact error
    // position), whole.
    let mut streamed = None;
    if entry.size_bytes > reading::SLICE_BYTES {
        let mut stream = deps::DepsStream::new();
        reading::read_slices(&source, &mut |b| stream.feed(b), &mut on_progress).await.map_err(|m| format!("{}: {m}", entry.path))?;
        streamed = stream.finish();
    }
    let parsed = if let Some(parsed) = streamed {
        parsed
    } else {
        let bytes = reading::read_bytes(&source, &mut on_progress).await.map_err(|m| format!("{}: {m}", entry.path))?;
        deps::parse(&entry.path, &bytes).map_err(|e| e.to_string())?
    };
    let (sidecar, names) = SESSION.with_borrow(|s| {
        let dataset = s.runtime.get(&dataset_id);
        let model = dataset.and_then(|d| d.model.as_ref());
        let names = model.and_then(|m| m.names.as_ref()).or(dataset.and_then(|d| d.names.as_ref()));
        (dep_graph::sidecar(model), names.cloned())
    });
    // deps_viewer's nodes: deps.json's tasks and edge endpoints, and the records' tasks.
    let graph = build_in_steps(&parsed, &sidecar, names.as_ref(), noise).await?;
    if SESSION.with_borrow(|s| s.generation) != generation {
        return Err("another folder was opened while the graph was built".to_owned());
    }
    // A click on another dataset's graph built that one meanwhile: it stays.
    if noise == Noise::Quiet && BUILT.with_borrow(|b| b.as_ref().is_some_and(|b| b.generation == generation)) {
        return Ok(());
    }
    BUILT.with_borrow_mut(|b| *b = Some(Built { generation, dataset_id, graph, deps: parsed, laid_out: Vec::new() }));
    Ok(())
}

/// Builds the graph a [`DepGraphBuild`] step at a time: a big graph's steps take a few
/// hundred ms together, so between them the page hears how far it is (the `layout` stage's
/// `build` phase) and a Cancel is heard (the build stops with [`reading::CANCELLED`]).
async fn build_in_steps(parsed: &deps::Deps, sidecar: &[SidecarTask], names: Option<&NameMap>, noise: Noise) -> Result<DepGraph, String> {
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
        if noise == Noise::Loud {
            transport::post(&FromWorker::Progress(step), None);
        }
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

/// Lays out `mode`'s edges of the built graph (in a job when it is big; a kept layout is not
/// laid out again) and answers the header and columns (and when the layout was there: `now_ms`).
async fn layout(
    generation: u64,
    dataset_id: u32,
    mode: EdgeMode,
    left_right: bool,
    aspect: f64,
) -> Result<(DepGraphHeader, Columns, f64), String> {
    let (edges, index) = lay_out(generation, dataset_id, mode, left_right, aspect, Noise::Loud).await?;
    let laid_out_ms = now_ms();
    let answer = BUILT.with_borrow(|b| {
        let b = b.as_ref().filter(|b| b.generation == generation && b.dataset_id == dataset_id);
        let b = b.ok_or_else(|| "another graph was opened while this one was laid out".to_owned())?;
        let placed = b.laid_out.get(index).ok_or_else(|| "the graph's layout went missing".to_owned())?;
        let (mut header, c) = b.graph.assemble(dataset_id, mode, left_right, &edges, &placed.summary, placed.layout_ms);
        header.warmup_ms = placed.warmup_ms;
        let mut columns = Columns::new();
        // The task ids travel as columns (`col::TASK_ID_LO`), not in the serialised header.
        let task_ids = std::mem::take(&mut header.task_ids);
        let lo: Vec<u32> = task_ids.iter().map(|t| t.0 as u32).collect();
        let hi: Vec<u32> = task_ids.iter().map(|t| (t.0 >> 32) as u32).collect();
        columns.u32(col::TASK_ID_LO, &lo);
        columns.u32(col::TASK_ID_HI, &hi);
        match &placed.columns {
            PlacedColumns::Kept { x, y, point_offsets, points } => {
                columns.f64(col::X, x);
                columns.f64(col::Y, y);
                columns.u32(col::POINT_OFFSETS, point_offsets);
                columns.f64(col::POINTS, points);
            }
            PlacedColumns::Passing(arrays) => {
                for key in [col::X, col::Y, col::POINT_OFFSETS, col::POINTS] {
                    let array = js_sys::Reflect::get(arrays, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
                    columns.js(key, array.unchecked_ref());
                }
            }
        }
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
        Ok((header, columns, laid_out_ms))
    });
    // A big graph's arrays go to the page (moved): its layout is not kept.
    BUILT.with_borrow_mut(|b| {
        if let Some(b) = b.as_mut() {
            b.laid_out.retain(|l| matches!(l.columns, PlacedColumns::Kept { .. }));
        }
    });
    answer
}

/// Makes sure `mode`'s edges of the built graph are laid out for `left_right` and `aspect`
/// (kept in [`Built::laid_out`]): laid out here for a small graph, in a job for a big one (a
/// Cancel stops it). Returns the shown edges and where the layout is kept.
async fn lay_out(
    generation: u64,
    dataset_id: u32,
    mode: EdgeMode,
    left_right: bool,
    aspect: f64,
    noise: Noise,
) -> Result<(Vec<(u32, u32)>, usize), String> {
    let (node_count, edges, kept) = BUILT.with_borrow(|b| match b.as_ref() {
        Some(b) => {
            let kept = b.laid_out.iter().position(|l| l.fits(mode, left_right, aspect));
            Ok((b.graph.graph.node_count(), b.graph.shown_edges(mode)?, kept))
        }
        None => Err("the dependency graph was not built".to_owned()),
    })?;
    if let Some(index) = kept {
        return Ok((edges, index));
    }
    let placed = if node_count > JOB_MIN_NODES {
        if noise == Noise::Loud {
            // The bar (and its Cancel) shows while the job starts, before its first phase.
            let start = Progress { path: "start".to_owned(), done_bytes: 0, total_bytes: 1, stage: ProgressStage::Layout };
            transport::post(&FromWorker::Progress(start), None);
        }
        let request = ToJob::LayoutGraph { node_count: node_count as u32, left_right, aspect, quiet: noise == Noise::Quiet };
        let (reply, placed) = jobs::ask_with_input(&request, &jobs::encode(&edges)?).await?;
        let FromJob::GraphLaidOut { summary, layout_ms, warmup_ms } = reply else {
            return Err("the layout job answered something else".to_owned());
        };
        let column = |key: &str| -> Result<JsValue, String> {
            let array = js_sys::Reflect::get(&placed, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
            if array.is_undefined() {
                Err(format!("the layout job sent no {key}"))
            } else {
                Ok(array)
            }
        };
        let f64s = |key: &str| column(key).map(|a| a.unchecked_into::<js_sys::Float64Array>().to_vec());
        let columns = if node_count <= KEEP_LAYOUT_MAX_NODES {
            PlacedColumns::Kept {
                x: f64s(col::X)?,
                y: f64s(col::Y)?,
                point_offsets: column(col::POINT_OFFSETS)?.unchecked_into::<js_sys::Uint32Array>().to_vec(),
                points: f64s(col::POINTS)?,
            }
        } else {
            for key in [col::X, col::Y, col::POINT_OFFSETS, col::POINTS] {
                column(key)?;
            }
            PlacedColumns::Passing(placed.unchecked_into())
        };
        LaidOut { mode, left_right, aspect, summary, layout_ms, warmup_ms, columns }
    } else {
        let started_ms = now_ms();
        let mut control = layout_warm_up::progress_control(node_count, noise == Noise::Quiet);
        let placed = dep_graph::lay_out_edges(node_count, &edges, left_right, aspect, &mut control)?;
        let layout_ms = now_ms() - started_ms;
        LaidOut {
            mode,
            left_right,
            aspect,
            summary: placed.summary,
            layout_ms,
            warmup_ms: layout_warm_up::take_ms(),
            columns: PlacedColumns::Kept {
                x: placed.x.iter().map(|&v| f64::from(v)).collect(),
                y: placed.y.iter().map(|&v| f64::from(v)).collect(),
                point_offsets: placed.edge_offsets,
                points: placed.points,
            },
        }
    };
    BUILT.with_borrow_mut(|b| {
        let b = b.as_mut().filter(|b| b.generation == generation && b.dataset_id == dataset_id);
        let b = b.ok_or_else(|| "another graph was opened while this one was laid out".to_owned())?;
        // One layout per mode and direction.
        b.laid_out.retain(|l| !(l.mode == mode && l.left_right == left_right));
        b.laid_out.push(placed);
        Ok((edges, b.laid_out.len() - 1))
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
