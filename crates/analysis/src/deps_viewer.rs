//! `deps_viewer`'s text output (runtime-formats.md §5.5) and a facade that holds one loaded
//! dependency graph with its kinds, markers and dataflow evidence, for the CLI report, the
//! worker's dependency view and the golden tests.
//!
//! Text layout, per mode: `SUMMARY` (source path, node count, shown unique edges, their
//! annotation rows, distinct tensors, `perf_sidecar`, `func_name_map`), `TASK INDEX` (one
//! line per node in task id order: `TASK <id> kind=<k> func_id=[a,b,c]|none [SPMD block num =
//! N] fanin=<n> fanout=<n>`), then one block per node with its `FANIN`/`FANOUT` peers. Fan
//! counts are unique peers over the shown edges only; annotations of unshown edges are not
//! counted. `perf_sidecar: yes` means the reference's task metadata is non-empty (a sidecar
//! task, or any task with an active kernel slot); `func_name_map: yes` means some metadata
//! entry got a name (a non-empty name map and a task with an active kernel slot, or a
//! sidecar task whose func id is named).
//!
//! Cost: O(V + E) per rendering after the graph is built.

use crate::dataflow_regions::DataflowEvidence;
use crate::deps_graph::{DepsGraph, SidecarTask, NO_TASK};
use crate::deps_markers::{self, DepsTaskKind};
use crate::edge_modes::{self, EdgeMode, EdgeSelection};
use pypto_formats::deps::Deps;
use pypto_formats::name_map::NameMap;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// One deps.json loaded for the viewer: graph, kinds, markers and summary flags.
pub struct DepsViewer<'a> {
    pub deps: &'a Deps,
    pub graph: DepsGraph,
    pub kinds: Vec<DepsTaskKind>,
    /// `MARKER_*` bits per node (full edge set).
    pub markers: Vec<u8>,
    pub perf_sidecar: bool,
    pub func_name_map: bool,
    /// Built on the first dataflow selection.
    evidence: OnceLock<DataflowEvidence>,
}

impl<'a> DepsViewer<'a> {
    /// Loads the graph. `sidecar`: the perf sidecar's tasks (empty without records);
    /// `name_map`: the chosen `name_map*.json`, if any.
    pub fn new(deps: &'a Deps, sidecar: &[SidecarTask], name_map: Option<&NameMap>) -> Self {
        let names_nonempty = name_map.is_some_and(|m| !m.entries.is_empty());
        let is_named = |f: i64| name_map.is_some_and(|m| m.name(f).is_some());
        let graph = DepsGraph::build(deps, sidecar, &is_named);
        let kinds = deps_markers::task_kinds(&graph, deps);
        let markers = deps_markers::markers(&graph, deps, &kinds);
        let any_kernel_task = kinds.contains(&DepsTaskKind::Submit);
        let perf_sidecar = graph.has_sidecar_tasks || any_kernel_task;
        let func_name_map = (names_nonempty && any_kernel_task) || graph.sidecar_named_func;
        Self { deps, graph, kinds, markers, perf_sidecar, func_name_map, evidence: OnceLock::new() }
    }

    /// The edges of `mode` (dataflow evidence is built once, on first use).
    pub fn select(&self, mode: EdgeMode) -> EdgeSelection {
        let evidence = (mode.is_dataflow() && self.graph.topo_order.is_some())
            .then(|| self.evidence.get_or_init(|| DataflowEvidence::build(&self.graph, self.deps)));
        edge_modes::select_edges(&self.graph, self.deps, mode, evidence)
    }

    /// `deps_viewer`'s text file for `mode`; `source_path` is printed as `source_deps_json`.
    pub fn render_text(&self, mode: EdgeMode, source_path: &str) -> String {
        let sel = self.select(mode);
        self.render_selection(&sel, source_path)
    }

    fn task_labels(&self, node: usize) -> String {
        let row = self.graph.task_row.get(node).copied().unwrap_or(NO_TASK);
        let kind = self.kinds.get(node).copied().unwrap_or(DepsTaskKind::Alloc);
        let mut s = match kind {
            DepsTaskKind::Alloc | DepsTaskKind::Dummy => "func_id=none".to_owned(),
            DepsTaskKind::Submit => match self.deps.tasks.kernel_ids.get(row as usize) {
                Some(k) => format!("func_id=[{},{},{}]", k[0], k[1], k[2]),
                None => "func_id=unknown".to_owned(),
            },
        };
        let blocks = if row == NO_TASK { 1 } else { self.deps.tasks.block_num.get(row as usize).copied().unwrap_or(1) };
        if blocks > 1 {
            let _ = write!(s, " SPMD block num = {blocks}");
        }
        s
    }

    /// Renders a selection computed by [`Self::select`].
    pub fn render_selection(&self, sel: &EdgeSelection, source_path: &str) -> String {
        let g = &self.graph;
        let n = g.node_count();
        let mut shown = vec![false; g.edge_count()];
        for &e in &sel.shown {
            if let Some(s) = shown.get_mut(e as usize) {
                *s = true;
            }
        }
        let is_shown = |e: usize| shown.get(e).copied().unwrap_or(false);
        let fanin: Vec<usize> = (0..n as u32).map(|v| g.in_edges(v).iter().filter(|&&e| is_shown(e as usize)).count()).collect();
        let fanout: Vec<usize> = (0..n as u32).map(|u| g.out_edges(u).filter(|&e| is_shown(e)).count()).collect();
        let tensors: HashSet<u64> = self.deps.tensors.tensor_id.iter().copied().collect();
        let yes = |b: bool| if b { "yes" } else { "no" };

        let mut out = String::with_capacity(64 * (n + sel.shown.len()) + 256);
        let _ = writeln!(out, "SUMMARY");
        let _ = writeln!(out, "  source_deps_json: {source_path}");
        let _ = writeln!(out, "  tasks: {n}");
        let _ = writeln!(out, "  unique_task_edges: {}", sel.shown.len());
        let _ = writeln!(out, "  annotated_edges: {}", sel.shown_annotation_rows(g));
        let _ = writeln!(out, "  tensors: {}", tensors.len());
        let _ = writeln!(out, "  perf_sidecar: {}", yes(self.perf_sidecar));
        let _ = writeln!(out, "  func_name_map: {}", yes(self.func_name_map));
        let _ = writeln!(out);
        let _ = writeln!(out, "TASK INDEX");
        let ids: Vec<String> = g.node_ids.iter().map(|&id| g.display_id(id)).collect();
        let labels: Vec<String> = (0..n).map(|i| self.task_labels(i)).collect();
        let kind_of = |i: usize| self.kinds.get(i).copied().unwrap_or(DepsTaskKind::Alloc).as_str();
        let id_of = |i: usize| ids.get(i).map_or("", String::as_str);
        for i in 0..n {
            let _ = writeln!(
                out,
                "TASK {} kind={} {} fanin={} fanout={}",
                id_of(i),
                kind_of(i),
                labels.get(i).map_or("", String::as_str),
                fanin.get(i).copied().unwrap_or(0),
                fanout.get(i).copied().unwrap_or(0)
            );
        }
        for i in 0..n {
            let _ = writeln!(out);
            let _ = writeln!(out, "=== TASK {} kind={} {} ===", id_of(i), kind_of(i), labels.get(i).map_or("", String::as_str));
            let _ = writeln!(out, "FANIN {}", fanin.get(i).copied().unwrap_or(0));
            for &e in g.in_edges(i as u32) {
                if is_shown(e as usize) {
                    let p = g.edge_pred.get(e as usize).copied().unwrap_or(0);
                    let _ = writeln!(out, "  <- {}", id_of(p as usize));
                }
            }
            let _ = writeln!(out, "FANOUT {}", fanout.get(i).copied().unwrap_or(0));
            for e in g.out_edges(i as u32) {
                if is_shown(e) {
                    let s = g.edge_succ.get(e).copied().unwrap_or(0);
                    let _ = writeln!(out, "  -> {}", id_of(s as usize));
                }
            }
        }
        out
    }
}
