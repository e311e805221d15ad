//! The five dependency edge modes of `deps_viewer` (runtime-formats.md §5.3) and the
//! statistics lines it prints for them (§5.5), for the dependency graph view, the CLI
//! report's `edges` object and the golden tests.
//!
//! - `full`: every unique `(pred, succ)` pair.
//! - `reduced`: transitive reduction that keeps creator-protected edges: `(u, v)` is
//!   redundant iff `v` is reachable from another successor of `u` (through any edges,
//!   protected or not) and no annotation row of the pair has `source == "creator"`.
//! - `omitted`: exactly the redundant edges of `reduced`.
//! - `reduced_dataflow`: structural reduction WITHOUT protection picks candidates; a
//!   candidate without creator rows is removed, one with creator rows only when the
//!   byte-exact proof of [`crate::dataflow_regions`] succeeds.
//! - `omitted_dataflow`: the removed set of `reduced_dataflow`.
//!
//! On a cyclic graph (a self edge counts) no reduction is defined: every mode falls back to
//! `full` (the reference warns, writes `deps_viewer.txt` and prints no reduction line).
//!
//! # Algorithm and cost
//!
//! The reference keeps one reachability set per node, O(V·E) time and O(V²) memory. Here
//! only *queried* edges are tested: an edge that is its pred's earliest successor in
//! topological order can never be redundant, and edges that would be kept anyway
//! (protected in `reduced`; failing the cheap creator pre-check in the dataflow modes) are
//! not asked. Two answering strategies, both exact:
//!
//! - **High-fanout preds** (≥ 8 queries, typically alloc/creator sources): one DFS from the
//!   pred's successors in topological order, marking everything reachable up to the last
//!   queried target; a successor already marked when its turn comes is redundant. Cost:
//!   the edges inside that window, once per such pred.
//! - **Everything else, bit-parallel**: distinct query targets sorted by topological
//!   position, 64 per block; one reverse-topological sweep over the block's position window
//!   `[lo, hi]` (lo = earliest successor of any querying pred, hi = last target) computes
//!   per node a u64 mask of the block targets it reaches in ≥ 1 step; `(u, v)` is redundant
//!   iff `v`'s bit is in the OR of the masks of `u`'s successors. Nodes after `hi` cannot
//!   reach a target and nodes before `lo` are never needed, so a block costs the edges in
//!   its window.
//!
//! Time O(V log V + E + Σ over blocks and high-fanout preds of the edges in their
//! window): near O(E) per block with the locality of real captures (submit order is a
//! topological order and most dependencies are short), O(E · T / 64) in the worst case
//! (T = distinct targets, e.g. a dense random DAG). Memory O(V + E). Measured (release, `tests/deps_edge_modes.rs`
//! `scale_100k_tasks_250k_edges`): 100k tasks / 230k–240k unique edges in 0.05–0.17 s per
//! mode, graph build ≈ 0.1 s.

use crate::dataflow_regions::DataflowEvidence;
use crate::deps_graph::DepsGraph;
use pypto_formats::deps::Deps;

pub use pypto_vocab::EdgeMode;

/// Which edges one mode selects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeSelection {
    pub mode: EdgeMode,
    /// False for `full` and when the graph has a cycle (reduction skipped, all edges shown).
    pub reduction_applied: bool,
    /// True when a reduction mode fell back to `full` because of a cycle.
    pub cycle_fallback: bool,
    /// Per unique edge: removed by this mode's reduction (all false without reduction).
    pub removed: Vec<bool>,
    /// Unique edge indices shown in this mode, ascending (= numeric `(pred, succ)` order).
    pub shown: Vec<u32>,
    pub total_edges: usize,
    pub removed_count: usize,
}

impl EdgeSelection {
    /// Kept edges of the reduction (`total - removed`).
    pub fn kept_count(&self) -> usize {
        self.total_edges - self.removed_count
    }

    /// Shown edges as `(pred, succ)` task ids.
    pub fn shown_pairs(&self, graph: &DepsGraph) -> Vec<(u64, u64)> {
        self.shown.iter().map(|&e| graph.edge_task_ids(e as usize)).collect()
    }

    /// Removed edges as `(pred, succ)` task ids, ascending.
    pub fn removed_pairs(&self, graph: &DepsGraph) -> Vec<(u64, u64)> {
        self.removed.iter().enumerate().filter(|(_, &r)| r).map(|(e, _)| graph.edge_task_ids(e)).collect()
    }

    /// Annotation rows of the shown edges (the text view's `annotated_edges`).
    pub fn shown_annotation_rows(&self, graph: &DepsGraph) -> usize {
        self.shown.iter().map(|&e| graph.annotation_rows(e as usize).len()).sum()
    }

    /// The file `deps_viewer` writes for this selection: `deps_viewer.txt` for `full` and
    /// for a cycle fallback, else `deps_viewer_<mode>.txt`.
    pub fn output_file_name(&self) -> String {
        if self.reduction_applied {
            format!("deps_viewer_{}.txt", self.mode.as_str())
        } else {
            "deps_viewer.txt".to_owned()
        }
    }

    /// The stdout lines `deps_viewer` prints in text format: the reduction line, one
    /// `  - a -> b` per removed edge, and `Wrote <out_path> (...)`. `out_path` is the path
    /// as the reference would print it (directory of deps.json joined with
    /// [`Self::output_file_name`]).
    pub fn stdout_lines(&self, graph: &DepsGraph, out_path: &str) -> Vec<String> {
        let mut lines = Vec::new();
        if self.reduction_applied {
            let df = self.mode.is_dataflow();
            if self.mode.shows_kept() {
                let prefix = if df { "Dataflow-verified transitive reduction" } else { "Transitive reduction" };
                lines.push(format!(
                    "{prefix}: removed {} redundant edge(s) of {} ({} kept)",
                    self.removed_count,
                    self.total_edges,
                    self.kept_count()
                ));
            } else {
                let prefix = if df { "Dataflow-verified redundant edges only" } else { "Redundant edges only" };
                lines.push(format!("{prefix}: showing {} redundant edge(s) of {}", self.removed_count, self.total_edges));
            }
            for (p, s) in self.removed_pairs(graph) {
                lines.push(format!("  - {} -> {}", graph.display_id(p), graph.display_id(s)));
            }
        }
        lines.push(format!(
            "Wrote {out_path} ({} tasks, {} unique edges, {} annotated edges, format=text)",
            graph.node_count(),
            self.shown.len(),
            self.shown_annotation_rows(graph)
        ));
        lines
    }

    /// The stderr warning of a cycle fallback, if any.
    pub fn warning(&self) -> Option<String> {
        self.cycle_fallback.then(|| cycle_fallback_warning(self.mode))
    }
}

/// The reference's stderr warning when `mode` falls back to the full graph for a cycle.
pub fn cycle_fallback_warning(mode: EdgeMode) -> String {
    format!(
        "warning: dependency graph has a cycle; transitive reduction skipped, emitting full graph (--edge-mode {} ignored)",
        mode.as_str()
    )
}

/// Computes the selection of `mode`. `evidence` is needed for the dataflow modes (built on
/// demand when `None`); pass one built once to share it across modes.
pub fn select_edges(graph: &DepsGraph, deps: &Deps, mode: EdgeMode, evidence: Option<&DataflowEvidence>) -> EdgeSelection {
    let total = graph.edge_count();
    let all = |cycle_fallback: bool| EdgeSelection {
        mode,
        reduction_applied: false,
        cycle_fallback,
        removed: vec![false; total],
        shown: (0..total as u32).collect(),
        total_edges: total,
        removed_count: 0,
    };
    if mode == EdgeMode::Full {
        return all(false);
    }
    let Some(topo) = graph.topo_order.as_deref() else {
        return all(true);
    };
    let removed = if mode.is_dataflow() {
        let built;
        let ev = if let Some(ev) = evidence {
            ev
        } else {
            built = DataflowEvidence::build(graph, deps);
            &built
        };
        let query: Vec<bool> = (0..total).map(|e| ev.may_remove(e)).collect();
        let mut redundant = structural_redundant(graph, topo, &query);
        for (e, r) in redundant.iter_mut().enumerate() {
            if *r && graph.is_creator_protected(e) && !ev.proves_removable(e) {
                *r = false;
            }
        }
        redundant
    } else {
        let query: Vec<bool> = (0..total).map(|e| !graph.is_creator_protected(e)).collect();
        structural_redundant(graph, topo, &query)
    };
    let removed_count = removed.iter().filter(|&&r| r).count();
    let keep_removed = !mode.shows_kept();
    let shown = removed.iter().enumerate().filter(|(_, &r)| r == keep_removed).map(|(e, _)| e as u32).collect();
    EdgeSelection { mode, reduction_applied: true, cycle_fallback: false, removed, shown, total_edges: total, removed_count }
}

/// Block width of the bit-parallel reachability sweep.
const BLOCK_TARGETS: usize = 64;
/// A pred with at least this many queries is answered by its own bounded DFS.
const DFS_MIN_QUERIES: u32 = 8;

/// For every edge with `query[e]`, whether it is implied by a path of length ≥ 2 (see the
/// module doc). Non-queried edges are reported as not redundant. `topo` must be a
/// topological order of all nodes (else nothing is redundant).
pub fn structural_redundant(graph: &DepsGraph, topo: &[u32], query: &[bool]) -> Vec<bool> {
    let n = graph.node_count();
    let mut redundant = vec![false; graph.edge_count()];
    if topo.len() != n {
        return redundant;
    }
    let r = Reach::new(graph, topo, query);
    let mut queries = r.queries();
    if queries.is_empty() {
        return redundant;
    }
    let mut per_pred = vec![0u32; n];
    for &(_, e) in &queries {
        if let Some(c) = per_pred.get_mut(r.pred_of(e as usize) as usize) {
            *c += 1;
        }
    }
    let is_wide = |e: u32| per_pred.get(r.pred_of(e as usize) as usize).copied().unwrap_or(0) >= DFS_MIN_QUERIES;
    let mut wide_preds: Vec<u32> = queries.iter().filter(|&&(_, e)| is_wide(e)).map(|&(_, e)| r.pred_of(e as usize)).collect();
    wide_preds.sort_unstable();
    wide_preds.dedup();
    r.answer_wide_preds(&wide_preds, &mut redundant);
    queries.retain(|&(_, e)| !is_wide(e));
    queries.sort_unstable();
    r.answer_blocks(&queries, &mut redundant);
    redundant
}

/// Shared state of one structural reduction.
struct Reach<'g> {
    graph: &'g DepsGraph,
    topo: &'g [u32],
    query: &'g [bool],
    /// Topological position per node.
    pos: Vec<u32>,
    /// Position of each node's earliest successor (`u32::MAX` without successors).
    first_pos: Vec<u32>,
}

impl<'g> Reach<'g> {
    fn new(graph: &'g DepsGraph, topo: &'g [u32], query: &'g [bool]) -> Self {
        let n = graph.node_count();
        let mut pos = vec![0u32; n];
        for (p, &u) in topo.iter().enumerate() {
            if let Some(slot) = pos.get_mut(u as usize) {
                *slot = p as u32;
            }
        }
        let mut r = Self { graph, topo, query, pos, first_pos: Vec::new() };
        r.first_pos = (0..n as u32).map(|u| graph.out_edges(u).map(|e| r.pos_of(r.succ_of(e))).min().unwrap_or(u32::MAX)).collect();
        r
    }

    fn pos_of(&self, node: u32) -> u32 {
        self.pos.get(node as usize).copied().unwrap_or(0)
    }

    fn succ_of(&self, edge: usize) -> u32 {
        self.graph.edge_succ.get(edge).copied().unwrap_or(0)
    }

    fn pred_of(&self, edge: usize) -> u32 {
        self.graph.edge_pred.get(edge).copied().unwrap_or(0)
    }

    fn first_pos_of(&self, node: u32) -> u32 {
        self.first_pos.get(node as usize).copied().unwrap_or(u32::MAX)
    }

    fn is_query(&self, edge: usize) -> bool {
        self.query.get(edge) == Some(&true)
    }

    /// `(target position, edge)` of every query that is not its pred's earliest successor.
    fn queries(&self) -> Vec<(u32, u32)> {
        (0..self.graph.edge_count())
            .filter(|&e| self.is_query(e))
            .filter_map(|e| {
                let tp = self.pos_of(self.succ_of(e));
                (tp != self.first_pos_of(self.pred_of(e))).then_some((tp, e as u32))
            })
            .collect()
    }

    /// One bounded DFS per pred over its successors in topological order.
    fn answer_wide_preds(&self, preds: &[u32], redundant: &mut [bool]) {
        if preds.is_empty() {
            return;
        }
        let mut visited = vec![u32::MAX; self.graph.node_count()];
        let mut succs: Vec<(u32, usize)> = Vec::new();
        let mut stack: Vec<u32> = Vec::new();
        for (epoch, &u) in preds.iter().enumerate() {
            let epoch = epoch as u32;
            succs.clear();
            succs.extend(self.graph.out_edges(u).map(|e| (self.pos_of(self.succ_of(e)), e)));
            succs.sort_unstable();
            let hi = succs.iter().filter(|&&(_, e)| self.is_query(e)).map(|&(p, _)| p).max().unwrap_or(0);
            for &(p, e) in &succs {
                if p > hi {
                    break;
                }
                let v = self.succ_of(e);
                if visited.get(v as usize) == Some(&epoch) {
                    if self.is_query(e) {
                        if let Some(r) = redundant.get_mut(e) {
                            *r = true;
                        }
                    }
                    continue;
                }
                if let Some(slot) = visited.get_mut(v as usize) {
                    *slot = epoch;
                }
                stack.push(v);
                while let Some(x) = stack.pop() {
                    for e2 in self.graph.out_edges(x) {
                        let y = self.succ_of(e2);
                        if self.pos_of(y) > hi {
                            continue;
                        }
                        if let Some(slot) = visited.get_mut(y as usize) {
                            if *slot != epoch {
                                *slot = epoch;
                                stack.push(y);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Bit-parallel blocks of 64 targets; `queries` sorted by target position.
    fn answer_blocks(&self, queries: &[(u32, u32)], redundant: &mut [bool]) {
        let n = self.graph.node_count();
        let mut bit_of: Vec<u8> = vec![u8::MAX; n];
        let mut masks: Vec<u64> = vec![0; n];
        let mut block: Vec<(u32, u32)> = Vec::new(); // (pred, edge)
        let mut targets: Vec<u32> = Vec::with_capacity(BLOCK_TARGETS);
        let bit = |node: u32, bit_of: &[u8]| -> u64 {
            match bit_of.get(node as usize) {
                Some(&b) if b != u8::MAX => 1u64 << b,
                _ => 0,
            }
        };
        let mut qi = 0usize;
        while qi < queries.len() {
            // Up to 64 distinct targets (same target = same position = adjacent).
            targets.clear();
            block.clear();
            let (mut lo, mut hi) = (u32::MAX, 0u32);
            while let Some(&(tp, e)) = queries.get(qi) {
                let v = self.succ_of(e as usize);
                if targets.last() != Some(&v) {
                    if targets.len() == BLOCK_TARGETS {
                        break;
                    }
                    targets.push(v);
                    if let Some(b) = bit_of.get_mut(v as usize) {
                        *b = (targets.len() - 1) as u8;
                    }
                }
                let u = self.pred_of(e as usize);
                lo = lo.min(self.first_pos_of(u));
                hi = hi.max(tp);
                block.push((u, e));
                qi += 1;
            }
            // Reverse-topological sweep over [lo, hi]; masks indexed by position.
            if lo <= hi {
                for p in (lo..=hi).rev() {
                    let x = self.topo.get(p as usize).copied().unwrap_or(0);
                    let mut acc = 0u64;
                    for e in self.graph.out_edges(x) {
                        let s = self.succ_of(e);
                        let ps = self.pos_of(s);
                        if ps <= hi {
                            acc |= masks.get(ps as usize).copied().unwrap_or(0) | bit(s, &bit_of);
                        }
                    }
                    if let Some(slot) = masks.get_mut(p as usize) {
                        *slot = acc;
                    }
                }
            }
            // One OR of successor masks per distinct pred.
            block.sort_unstable();
            for group in block.chunk_by(|a, b| a.0 == b.0) {
                let Some(&(u, _)) = group.first() else {
                    continue;
                };
                let mut indirect = 0u64;
                for e in self.graph.out_edges(u) {
                    let ps = self.pos_of(self.succ_of(e));
                    if ps >= lo && ps <= hi {
                        indirect |= masks.get(ps as usize).copied().unwrap_or(0);
                    }
                }
                for &(_, e) in group {
                    if indirect & bit(self.succ_of(e as usize), &bit_of) != 0 {
                        if let Some(r) = redundant.get_mut(e as usize) {
                            *r = true;
                        }
                    }
                }
            }
            for &v in &targets {
                if let Some(b) = bit_of.get_mut(v as usize) {
                    *b = u8::MAX;
                }
            }
        }
    }
}
