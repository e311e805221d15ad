//! The Task Dependency Graph's replies (toolkit-features.md group L): one dataset's graph as
//! `deps_viewer` loads it (runtime-formats.md §5.1: nodes = deps.json tasks with a kernel ∪
//! edge endpoints ∪ the tasks of the perf sidecar, i.e. the records file's joined tasks),
//! with per node its kind, SPMD block count, function name, task id and 🔥/⭐ markers, and
//! the edge selections of the five modes; laid out per mode for the page ([`DepGraph::layout`]:
//! header and node / edge columns), one node's details, and the node search.
//!
//! Kinds (§5.2): a node without a `tasks[]` entry is `ALLOC` (named `alloc`), whether it is
//! only an edge endpoint or only in the records; a task whose kernel slots are all < 0 is
//! `DUMMY` (`dummy`); a task with an active slot is `deps_viewer`'s `submit`, split by its
//! slots into `AIC` (slot 0 only), `AIV` (slots 1/2 only) and `MIX` (both), named by its
//! active slots' names joined by ` + ` (`func_<id>` without a name map).
//!
//! Search: `rXtY` / `tY` exactly (the [`TaskId`] display), else the function names by the
//! swimlane's fuzzy matcher ([`fuzzy_score`]: exact > prefix > substring > subsequence),
//! nodes ranked by their name's score, then by index.
//!
//! Shared with `pypto-viewer report`, whose `edges` / `edge_stats` are this graph's
//! selections.

use std::collections::HashMap;

use pypto_analysis::dag_layout::{self, Direction, LayoutOptions, NodeSize};
use pypto_analysis::dataflow_regions::DataflowEvidence;
use pypto_analysis::deps_graph::{self, DepsGraph, SidecarTask, NO_TASK};
use pypto_analysis::deps_markers::{self, DepsTaskKind};
use pypto_analysis::edge_modes::{self, EdgeMode, EdgeSelection};
use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::timeline_query::fuzzy_score;
use pypto_formats::deps::{self, Deps};
use pypto_formats::name_map::NameMap;
use pypto_protocol::dep_graph::{
    DepGraphHeader, DepNodeDetails, DepSearchHits, DEP_KIND_AIC, DEP_KIND_AIV, DEP_KIND_ALLOC, DEP_KIND_DUMMY, DEP_KIND_MIX,
    DEP_NODE_HEIGHT,
};
use pypto_protocol::TaskId;

/// Layout width of a node (CSS px at zoom 1).
pub const NODE_WIDTH: f32 = 150.0;
/// Layout height of a node.
pub const NODE_HEIGHT: f32 = DEP_NODE_HEIGHT;

/// Gap between packed components, in layout units.
pub const COMPONENT_GAP: f32 = 60.0;

/// Most hits a `DepSearchHits` carries.
pub const MAX_SEARCH_HITS: usize = 10_000;

/// One dataset's graph with everything the page draws of its nodes (see the module doc).
#[derive(Debug, Clone, PartialEq)]
pub struct DepGraph {
    pub graph: DepsGraph,
    /// `DEP_KIND_*` per node.
    pub kind: Vec<u8>,
    pub block_num: Vec<u32>,
    /// Per node, its function name in [`Self::names`].
    pub name_index: Vec<u32>,
    pub names: Vec<String>,
    pub task_ids: Vec<TaskId>,
    /// `deps_markers::MARKER_FIRE` | `MARKER_STAR` per node (runtime-formats.md §5.4).
    pub markers: Vec<u8>,
    /// One per mode, in [`EdgeMode::ALL`] order.
    pub selections: Vec<EdgeSelection>,
    pub warnings: Vec<pypto_formats::Warning>,
}

/// The perf sidecar of a dataset: the joined tasks of its records' model (none without one).
pub fn sidecar(model: Option<&RuntimeModel>) -> Vec<SidecarTask> {
    model.map_or_else(Vec::new, |m| deps_graph::sidecar_tasks(&m.tasks, &m.func_ids))
}

/// `DEP_KIND_AIC` / `AIV` / `MIX` of a task with an active kernel slot.
fn submit_kind(kernels: [i64; 3]) -> u8 {
    let aic = kernels[0] >= 0;
    let aiv = kernels[1] >= 0 || kernels[2] >= 0;
    match (aic, aiv) {
        (true, true) => DEP_KIND_MIX,
        (false, true) => DEP_KIND_AIV,
        _ => DEP_KIND_AIC,
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

/// Node and edge columns of a laid-out graph (keys: `pypto_protocol::dep_graph::columns`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GraphColumns {
    /// Per node: centre and size in layout px.
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    pub w: Vec<f64>,
    pub h: Vec<f64>,
    pub kind: Vec<u8>,
    pub block_num: Vec<u32>,
    pub name_index: Vec<u32>,
    pub markers: Vec<u8>,
    /// Per shown edge: node indices, and offsets (edges + 1) into `points` (flat x, y).
    pub pred: Vec<u32>,
    pub succ: Vec<u32>,
    pub point_offsets: Vec<u32>,
    pub points: Vec<f64>,
    /// Every unique edge of the full graph.
    pub full_pred: Vec<u32>,
    pub full_succ: Vec<u32>,
}

/// A `DepGraph` reply: its header and the columns beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct LaidOutGraph {
    pub header: DepGraphHeader,
    pub columns: GraphColumns,
}

/// What the header says of a layout (see [`DepGraph::assemble`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LayoutSummary {
    pub crossings: u64,
    pub component_count: u64,
    /// The largest component's box: min x, min y, max x, max y.
    pub largest_component: [f64; 4],
    /// Edges drawn reversed to break cycles.
    pub reversed_edges: u64,
}

/// Where [`lay_out_edges`] placed the nodes and edges.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlacedGraph {
    pub summary: LayoutSummary,
    /// Per node: its centre.
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    /// Per edge, offsets (edges + 1) into `points` (flat x, y pairs).
    pub edge_offsets: Vec<u32>,
    pub points: Vec<f64>,
}

/// Lays out `node_count` nodes of [`NODE_WIDTH`] × [`NODE_HEIGHT`] joined by `edges`,
/// top→bottom (or left→right), the disconnected components packed to `aspect` (width /
/// height; ≤ 0: the plain layout). `control` gets the progress (`false` stops it). The part of
/// [`DepGraph::layout`] that needs nothing but the edges, so it can run in another worker.
pub fn lay_out_edges(
    node_count: usize,
    edges: &[(u32, u32)],
    left_right: bool,
    aspect: f64,
    control: &mut dyn FnMut(dag_layout::Progress) -> bool,
) -> Result<PlacedGraph, String> {
    let sizes = vec![NodeSize { width: NODE_WIDTH, height: NODE_HEIGHT }; node_count];
    let direction = if left_right { Direction::LeftRight } else { Direction::TopBottom };
    let opts = LayoutOptions { direction, ..LayoutOptions::default() };
    let failed = |e: dag_layout::LayoutError| format!("dependency graph layout failed: {e}");
    let (layout, component_count, largest) = if aspect > 0.0 && aspect.is_finite() {
        let packed = dag_layout::layout_packed(&sizes, edges, &opts, aspect, f64::from(COMPONENT_GAP), control).map_err(failed)?;
        let largest = packed.components.first().map_or(dag_layout::BBox::default(), |c| c.1);
        (packed.layout, packed.components.len() as u64, largest)
    } else {
        let layout = dag_layout::layout(&sizes, edges, &opts, control).map_err(failed)?;
        let count = dag_layout::pack::components(node_count, edges).1.len() as u64;
        let bbox = layout.bbox;
        (layout, count, bbox)
    };
    let summary = LayoutSummary {
        crossings: layout.crossings,
        component_count,
        largest_component: [largest.min_x, largest.min_y, largest.max_x, largest.max_y].map(f64::from),
        reversed_edges: layout.reversed_edges.len() as u64,
    };
    let points = layout.points.iter().flat_map(|p| [f64::from(p[0]), f64::from(p[1])]).collect();
    Ok(PlacedGraph { summary, x: layout.x, y: layout.y, edge_offsets: layout.edge_offsets, points })
}

/// A [`DepGraph`] built a step at a time, so the worker can hear a Cancel between steps of a
/// big graph and post how far it is: the node set, the dataflow evidence, each mode's edge
/// selection, then ([`Self::finish`]) the nodes' kinds, names and markers.
pub struct DepGraphBuild<'a> {
    deps: &'a Deps,
    sidecar: &'a [SidecarTask],
    names: Option<&'a NameMap>,
    graph: Option<DepsGraph>,
    evidence: Option<DataflowEvidence>,
    selections: Vec<EdgeSelection>,
}

impl<'a> DepGraphBuild<'a> {
    /// Every step: the node set, the evidence, one per mode, the nodes' columns.
    pub const STEPS: u64 = 3 + EdgeMode::ALL.len() as u64;

    /// A build of `deps` with the perf sidecar `sidecar` ([`sidecar`]) and the name map `names`.
    pub fn new(deps: &'a Deps, sidecar: &'a [SidecarTask], names: Option<&'a NameMap>) -> Self {
        Self { deps, sidecar, names, graph: None, evidence: None, selections: Vec::with_capacity(EdgeMode::ALL.len()) }
    }

    /// How many steps are done.
    pub fn done(&self) -> u64 {
        u64::from(self.graph.is_some()) + u64::from(self.evidence.is_some()) + self.selections.len() as u64
    }

    /// Whether only [`Self::finish`]'s step is left.
    pub fn ready(&self) -> bool {
        self.done() + 1 >= Self::STEPS
    }

    /// Does the next step (none once [`Self::ready`]).
    pub fn step(&mut self) {
        let deps = self.deps;
        let Some(graph) = &self.graph else {
            self.graph = Some(self.node_set());
            return;
        };
        let Some(evidence) = &self.evidence else {
            self.evidence = Some(DataflowEvidence::build(graph, deps));
            return;
        };
        if let Some(&mode) = EdgeMode::ALL.get(self.selections.len()) {
            self.selections.push(edge_modes::select_edges(graph, deps, mode, mode.is_dataflow().then_some(evidence)));
        }
    }

    /// The graph: the steps left, then the nodes' kinds, names and markers.
    pub fn finish(mut self) -> DepGraph {
        while !self.ready() {
            self.step();
        }
        // `ready()` means the node set is built; `node_set` only keeps this total.
        let graph = self.graph.take().unwrap_or_else(|| self.node_set());
        DepGraph::assemble_nodes(graph, self.deps, self.names, self.selections)
    }

    /// `deps_viewer`'s node set: deps.json's tasks and edge endpoints, and the sidecar's tasks.
    fn node_set(&self) -> DepsGraph {
        let names = self.names;
        DepsGraph::build(self.deps, self.sidecar, &|id| names.is_some_and(|n| n.name(id).is_some()))
    }
}

impl DepGraph {
    /// Loads `deps` with the perf sidecar `sidecar` ([`sidecar`]) and the name map `names`
    /// (every [`DepGraphBuild`] step in one call).
    pub fn build(deps: &Deps, sidecar: &[SidecarTask], names: Option<&NameMap>) -> Self {
        DepGraphBuild::new(deps, sidecar, names).finish()
    }

    /// The graph around its node set and edge selections: each node's kind, SPMD block
    /// count, function name and markers.
    fn assemble_nodes(graph: DepsGraph, deps: &Deps, names: Option<&NameMap>, selections: Vec<EdgeSelection>) -> Self {
        let kinds = deps_markers::task_kinds(&graph, deps);
        let markers = deps_markers::markers(&graph, deps, &kinds);
        let n = graph.node_count();
        let (mut kind, mut block_num, mut name_index) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let mut names_out: Vec<String> = Vec::new();
        let mut lookup: HashMap<String, u32> = HashMap::new();
        for (node, deps_kind) in kinds.iter().enumerate() {
            let row = graph.task_row.get(node).copied().unwrap_or(NO_TASK);
            let kernels = || deps.tasks.kernel_ids.get(row as usize).copied().unwrap_or([-1; 3]);
            let blocks = if row == NO_TASK { 1 } else { deps.tasks.block_num.get(row as usize).copied().unwrap_or(1) };
            let (k, name) = match deps_kind {
                DepsTaskKind::Alloc => (DEP_KIND_ALLOC, "alloc".to_string()),
                DepsTaskKind::Dummy => (DEP_KIND_DUMMY, "dummy".to_string()),
                DepsTaskKind::Submit => (submit_kind(kernels()), func_name(kernels(), names)),
            };
            let next = names_out.len() as u32;
            let idx = *lookup.entry(name.clone()).or_insert_with(|| {
                names_out.push(name);
                next
            });
            kind.push(k);
            block_num.push(blocks);
            name_index.push(idx);
        }
        let task_ids = graph.node_ids.iter().map(|&id| TaskId(id)).collect();
        let warnings = selections
            .iter()
            .filter_map(|s| {
                s.warning().map(|message| {
                    pypto_formats::Warning::analysis(pypto_formats::WarningKind::EdgeModeFallback, message).text("mode", s.mode.as_str())
                })
            })
            .take(1)
            .chain(deps.warnings.iter().take(5).cloned())
            .collect();
        Self { graph, kind, block_num, name_index, names: names_out, task_ids, markers, selections, warnings }
    }

    /// The selection of `mode`.
    pub fn selection(&self, mode: EdgeMode) -> Option<&EdgeSelection> {
        self.selections.get(mode.index())
    }

    /// `DepGraph`: lays out `mode`'s edges top→bottom (or left→right), its disconnected
    /// components packed to the canvas's `aspect` (width / height; ≤ 0: the plain layout, see
    /// `dag_layout::pack`), and answers the header (`layout_ms`: the layout call timed by
    /// `now_ms`; `warmup_ms` 0, the worker's to fill) and the columns. `control` gets the
    /// layout's progress (`false` stops it). [`Self::shown_edges`], [`lay_out_edges`] and
    /// [`Self::assemble`] in one call; the worker runs the middle one in a job for big graphs.
    pub fn layout(
        &self,
        dataset_id: u32,
        mode: EdgeMode,
        left_right: bool,
        aspect: f64,
        now_ms: &dyn Fn() -> f64,
        control: &mut dyn FnMut(dag_layout::Progress) -> bool,
    ) -> Result<LaidOutGraph, String> {
        let edges = self.shown_edges(mode)?;
        let started_ms = now_ms();
        let placed = lay_out_edges(self.graph.node_count(), &edges, left_right, aspect, control)?;
        let layout_ms = now_ms() - started_ms;
        let (header, mut columns) = self.assemble(dataset_id, mode, left_right, &edges, &placed.summary, layout_ms);
        columns.x = placed.x.iter().map(|&v| f64::from(v)).collect();
        columns.y = placed.y.iter().map(|&v| f64::from(v)).collect();
        columns.point_offsets = placed.edge_offsets;
        columns.points = placed.points;
        Ok(LaidOutGraph { header, columns })
    }

    /// The shown edges of `mode` as `(pred node, succ node)`: what [`lay_out_edges`] lays out.
    pub fn shown_edges(&self, mode: EdgeMode) -> Result<Vec<(u32, u32)>, String> {
        let sel = self.selection(mode).ok_or_else(|| format!("no edge selection for mode {}", mode.as_str()))?;
        let g = &self.graph;
        Ok(sel.shown.iter().filter_map(|&e| Some((*g.edge_pred.get(e as usize)?, *g.edge_succ.get(e as usize)?))).collect())
    }

    /// The header and the columns of a layout of `edges` ([`Self::shown_edges`]) summed up by
    /// `summary`; the placed columns (`x`, `y`, `point_offsets`, `points`) are left empty for
    /// the caller, who has them from [`lay_out_edges`].
    pub fn assemble(
        &self,
        dataset_id: u32,
        mode: EdgeMode,
        left_right: bool,
        edges: &[(u32, u32)],
        summary: &LayoutSummary,
        layout_ms: f64,
    ) -> (DepGraphHeader, GraphColumns) {
        let g = &self.graph;
        let n = g.node_count();
        let header = DepGraphHeader {
            dataset_id,
            mode,
            left_right,
            task_ids: self.task_ids.clone(),
            names: self.names.clone(),
            mode_counts: self.selections.iter().map(|s| s.shown.len() as u64).collect(),
            node_count: n as u64,
            crossings: summary.crossings,
            component_count: summary.component_count,
            largest_component: summary.largest_component,
            layout_ms,
            warmup_ms: 0.0,
            warnings: self.warnings.clone(),
            reversed_edges: summary.reversed_edges,
        };
        let columns = GraphColumns {
            w: vec![f64::from(NODE_WIDTH); n],
            h: vec![f64::from(NODE_HEIGHT); n],
            kind: self.kind.clone(),
            block_num: self.block_num.clone(),
            name_index: self.name_index.clone(),
            markers: self.markers.clone(),
            pred: edges.iter().map(|e| e.0).collect(),
            succ: edges.iter().map(|e| e.1).collect(),
            full_pred: g.edge_pred.clone(),
            full_succ: g.edge_succ.clone(),
            ..GraphColumns::default()
        };
        (header, columns)
    }

    /// `DepNodeDetails`: the node's tensor arguments (from `deps` — the deps.json the graph
    /// was built from — `tasks[].args`) and the annotation rows of its in- and out-edges.
    pub fn node_details(&self, deps: &Deps, dataset_id: u32, node: u32) -> DepNodeDetails {
        let (g, d) = (&self.graph, deps);
        let mut args = Vec::new();
        let row = g.task_row.get(node as usize).copied().unwrap_or(NO_TASK);
        if row != NO_TASK {
            let a0 = d.tasks.arg_offsets.get(row as usize).copied().unwrap_or(0) as usize;
            let a1 = d.tasks.arg_offsets.get(row as usize + 1).copied().unwrap_or(0) as usize;
            let a = &d.args;
            for k in a0..a1.min(a.idx.len()) {
                args.push(vec![
                    a.idx.get(k).map_or_else(String::new, i32::to_string),
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
                    self.task_ids.get(peer as usize).map(ToString::to_string).unwrap_or_default(),
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
        DepNodeDetails { dataset_id, node, args, edges }
    }

    /// `DepSearch` (see the module doc): the first [`MAX_SEARCH_HITS`] nodes and the total.
    pub fn search(&self, dataset_id: u32, query: &str) -> DepSearchHits {
        let q = query.trim().to_lowercase();
        let mut hits: Vec<u32> = Vec::new();
        // `rXtY` / `tY`: that task exactly (a decimal is a name to match, not an id).
        let exact = q.starts_with(['r', 't']).then(|| q.parse::<TaskId>().ok()).flatten();
        if let Some(task) = exact {
            hits.extend(self.task_ids.iter().position(|t| *t == task).map(|i| i as u32));
        } else if !q.is_empty() {
            let scores: Vec<Option<i64>> = self.names.iter().map(|n| fuzzy_score(n, &q)).collect();
            let mut ranked: Vec<(i64, u32)> = self
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
        DepSearchHits { dataset_id, query: query.to_string(), nodes: hits, total }
    }
}

fn dims(d: &Deps, r: deps::DimRange) -> String {
    let v: Vec<String> = d.dims_of(r).iter().map(u32::to_string).collect();
    format!("[{}]", v.join(", "))
}

fn dtype(d: &Deps, i: u32) -> String {
    d.dtype_names.get(i as usize).cloned().unwrap_or_default()
}
