//! The dense task graph of a `deps.json` as `deps_viewer` sees it (runtime-formats.md §5.1),
//! shared by the edge modes, the early-dispatch markers and the text view.
//!
//! Nodes are every edge endpoint, every `tasks[]` entry with an active kernel slot, and the
//! task ids of the perf sidecar (the joined tasks of `chip_swimlane_records.json`), exactly
//! the reference's `nodes ∪ meta.keys()`. A dummy task without edges and without a sidecar
//! row is therefore *not* a node, as in the reference. Node ids (u64) are sorted ascending
//! once and mapped to dense `u32` indices, so every later structure is an array indexed by
//! node, and dense order equals the reference's numeric task order.
//!
//! Edges are the unique `(pred, succ)` pairs, sorted numerically, each with its annotation
//! rows (indices into [`Deps::edges`], file order) and a mask of the row sources. Because
//! edges are sorted by pred, the out-edges of a node are one contiguous range of edge
//! indices; in-edges are a separate CSR sorted by pred.
//!
//! The topological order is Kahn's algorithm with a min-heap on the dense index (smallest
//! task id first among ready nodes), which keeps submit order and therefore locality for the
//! windowed reduction in [`crate::edge_modes`]. A self edge or any cycle leaves it `None`.
//!
//! Differences from the reference loader (all on malformed input only): `[pred, succ]` pair
//! rows of version-1 files are kept as edges without annotations (the reference drops every
//! non-object row and shows an empty graph); a `kernel_ids` list whose length is not 3 counts
//! as inactive (the reference pads/truncates it to 3 slots).
//!
//! Cost: O((V + E) log V) time (sorts, heap), O(V + E) memory, V = nodes, E = edge rows.

use crate::tasks::{FuncIdOf, JoinedTasks};
use pypto_formats::deps::Deps;
use pypto_formats::records::CoreType;
use rustc_hash::FxHashMap as HashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Annotation source bit: `explicit`.
pub const SOURCE_EXPLICIT: u8 = 1;
/// Annotation source bit: `creator` (tensor lifetime; protects the edge in `reduced`).
pub const SOURCE_CREATOR: u8 = 2;
/// Annotation source bit: `tensormap`.
pub const SOURCE_TENSORMAP: u8 = 4;
/// Annotation source bit: any other value, or no `source` key.
pub const SOURCE_OTHER: u8 = 8;

/// "No `tasks[]` entry" in [`DepsGraph::task_row`].
pub const NO_TASK: u32 = u32::MAX;

/// One task of the perf sidecar: its id and the func id of its primary row (the AIC row of a
/// MIX task, else the first row), if resolved. Only used for node membership and the
/// `func_name_map` summary flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SidecarTask {
    pub task_id: u64,
    pub func_id: Option<i64>,
}

/// The perf sidecar as `deps_viewer` reads it (runtime-formats.md §5.1) from the joined rows
/// of a records file and their resolved func ids: one entry per task id, in the order of its
/// first row; the func id of its AIC row when it ran on both core types (MIX), else of its
/// first row (`None` when that is unresolved, < 0).
pub fn sidecar_tasks(joined: &JoinedTasks, func_ids: &(impl FuncIdOf + ?Sized)) -> Vec<SidecarTask> {
    // Per task id: (first row, first AIC row, a non-AIC row seen).
    let mut rows: HashMap<u64, (usize, Option<usize>, bool)> = HashMap::default();
    let mut order: Vec<u64> = Vec::new();
    for (row, id) in joined.task_id.iter().enumerate() {
        let aic = joined.core_type(row) == Some(CoreType::Aic);
        let entry = rows.entry(id).or_insert_with(|| {
            order.push(id);
            (row, None, false)
        });
        if aic {
            entry.1 = entry.1.or(Some(row));
        } else {
            entry.2 = true;
        }
    }
    order
        .into_iter()
        .map(|task_id| {
            let (first, first_aic, non_aic) = rows.get(&task_id).copied().unwrap_or((0, None, false));
            let primary = match first_aic {
                Some(aic) if non_aic => aic,
                _ => first,
            };
            let func_id = func_ids.func_id(primary);
            SidecarTask { task_id, func_id: (func_id >= 0).then_some(func_id) }
        })
        .collect()
}

/// The dense graph (see the module doc).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DepsGraph {
    /// Task id per node, ascending; a node's dense index is its position.
    pub node_ids: Vec<u64>,
    /// Row in `deps.tasks` per node (the last entry with that id, like the reference's
    /// dict), or [`NO_TASK`].
    pub task_row: Vec<u32>,
    /// Unique edges, sorted by `(pred, succ)`.
    pub edge_pred: Vec<u32>,
    pub edge_succ: Vec<u32>,
    /// Annotation rows of edge `e`: `ann_rows[ann_offsets[e]..ann_offsets[e + 1]]`
    /// (indices into `deps.edges`, file order).
    pub ann_offsets: Vec<u32>,
    pub ann_rows: Vec<u32>,
    /// `SOURCE_*` bits of the edge's annotation rows.
    pub edge_sources: Vec<u8>,
    /// Out-edges of node `n` are the edge indices `out_offsets[n]..out_offsets[n + 1]`.
    pub out_offsets: Vec<u32>,
    /// In-edges of node `n`: `in_edges[in_offsets[n]..in_offsets[n + 1]]`, sorted by pred.
    pub in_offsets: Vec<u32>,
    pub in_edges: Vec<u32>,
    /// A topological order of all nodes, `None` when the graph has a cycle.
    pub topo_order: Option<Vec<u32>>,
    /// True when some node is outside ring 0: ids then display as `(ring, local)`.
    pub multi_ring: bool,
    /// The perf sidecar had at least one task.
    pub has_sidecar_tasks: bool,
    /// A sidecar task's func id has a name in the name map.
    pub sidecar_named_func: bool,
}

/// True when some kernel slot of `tasks` row `row` is active (>= 0).
pub fn has_active_kernel(deps: &Deps, row: usize) -> bool {
    deps.tasks.kernel_ids.get(row).is_some_and(|k| k.iter().any(|&x| x >= 0))
}

fn source_bit(name: Option<&str>) -> u8 {
    match name {
        Some("explicit") => SOURCE_EXPLICIT,
        Some("creator") => SOURCE_CREATOR,
        Some("tensormap") => SOURCE_TENSORMAP,
        _ => SOURCE_OTHER,
    }
}

impl DepsGraph {
    /// Builds the graph. `sidecar` are the perf sidecar's tasks (empty without a records
    /// file); `is_named(func_id)` says whether the name map names a func id.
    pub fn build(deps: &Deps, sidecar: &[SidecarTask], is_named: &dyn Fn(i64) -> bool) -> Self {
        let e = &deps.edges;
        let mut ids: Vec<u64> = Vec::with_capacity(e.pred.len() * 2 + deps.tasks.len());
        ids.extend_from_slice(&e.pred);
        ids.extend_from_slice(&e.succ);
        for (row, &id) in deps.tasks.task_id.iter().enumerate() {
            if has_active_kernel(deps, row) {
                ids.push(id);
            }
        }
        ids.extend(sidecar.iter().map(|t| t.task_id));
        ids.sort_unstable();
        ids.dedup();
        let n = ids.len();
        let index = |id: u64| ids.binary_search(&id).ok().map(|i| i as u32);

        let mut task_row = vec![NO_TASK; n];
        for (row, &id) in deps.tasks.task_id.iter().enumerate() {
            if let Some(i) = index(id) {
                if let Some(slot) = task_row.get_mut(i as usize) {
                    *slot = row as u32;
                }
            }
        }

        // (pred, succ, row) sorted: pairs numeric, rows in file order within a pair.
        let mut triples: Vec<(u32, u32, u32)> =
            e.pred.iter().zip(&e.succ).enumerate().filter_map(|(row, (&p, &s))| Some((index(p)?, index(s)?, row as u32))).collect();
        triples.sort_unstable();

        let source_bits: Vec<u8> = deps.source_names.iter().map(|s| source_bit(Some(s))).collect();
        let mut g = DepsGraph { task_row, ann_offsets: vec![0], ann_rows: Vec::with_capacity(triples.len()), ..Self::default() };
        for &(p, s, row) in &triples {
            let new_pair = g.edge_pred.last() != Some(&p) || g.edge_succ.last() != Some(&s);
            if new_pair {
                if !g.edge_pred.is_empty() {
                    g.ann_offsets.push(g.ann_rows.len() as u32);
                }
                g.edge_pred.push(p);
                g.edge_succ.push(s);
                g.edge_sources.push(0);
            }
            g.ann_rows.push(row);
            let src = e.source.get(row as usize).copied().unwrap_or(u32::MAX);
            let bit = source_bits.get(src as usize).copied().unwrap_or(SOURCE_OTHER);
            if let Some(m) = g.edge_sources.last_mut() {
                *m |= bit;
            }
        }
        if !g.edge_pred.is_empty() {
            g.ann_offsets.push(g.ann_rows.len() as u32);
        }

        g.build_adjacency(n);
        g.multi_ring = ids.iter().any(|&id| (id >> 32) & 0xFF != 0);
        g.has_sidecar_tasks = !sidecar.is_empty();
        g.sidecar_named_func = sidecar.iter().any(|t| t.func_id.is_some_and(is_named));
        g.node_ids = ids;
        g.topo_order = g.kahn_order();
        g
    }

    /// Out-edge ranges and the in-edge CSR.
    fn build_adjacency(&mut self, n: usize) {
        // Out-edges: contiguous ranges (edges sorted by pred).
        self.out_offsets = vec![0; n + 1];
        for &p in &self.edge_pred {
            if let Some(c) = self.out_offsets.get_mut(p as usize + 1) {
                *c += 1;
            }
        }
        for i in 0..n {
            let prev = self.out_offsets.get(i).copied().unwrap_or(0);
            if let Some(c) = self.out_offsets.get_mut(i + 1) {
                *c += prev;
            }
        }
        // In-edges CSR by counting sort; edges are visited in (pred, succ) order, so each
        // node's in-edges come out sorted by pred.
        self.in_offsets = vec![0; n + 1];
        for &s in &self.edge_succ {
            if let Some(c) = self.in_offsets.get_mut(s as usize + 1) {
                *c += 1;
            }
        }
        for i in 0..n {
            let prev = self.in_offsets.get(i).copied().unwrap_or(0);
            if let Some(c) = self.in_offsets.get_mut(i + 1) {
                *c += prev;
            }
        }
        let mut fill: Vec<u32> = self.in_offsets.clone();
        self.in_edges = vec![0; self.edge_succ.len()];
        for (edge, &s) in self.edge_succ.iter().enumerate() {
            if let Some(f) = fill.get_mut(s as usize) {
                if let Some(slot) = self.in_edges.get_mut(*f as usize) {
                    *slot = edge as u32;
                }
                *f += 1;
            }
        }
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.node_ids.len()
    }

    /// Number of unique edges.
    pub fn edge_count(&self) -> usize {
        self.edge_pred.len()
    }

    /// Dense index of a task id.
    pub fn node_index(&self, task_id: u64) -> Option<u32> {
        self.node_ids.binary_search(&task_id).ok().map(|i| i as u32)
    }

    /// Task id of a node (0 when out of range).
    pub fn task_id(&self, node: u32) -> u64 {
        self.node_ids.get(node as usize).copied().unwrap_or(0)
    }

    /// Edge index range of `node`'s out-edges.
    pub fn out_edges(&self, node: u32) -> std::ops::Range<usize> {
        let a = self.out_offsets.get(node as usize).copied().unwrap_or(0) as usize;
        let b = self.out_offsets.get(node as usize + 1).copied().unwrap_or(0) as usize;
        a..b.max(a)
    }

    /// Edge indices of `node`'s in-edges, sorted by pred.
    pub fn in_edges(&self, node: u32) -> &[u32] {
        let a = self.in_offsets.get(node as usize).copied().unwrap_or(0) as usize;
        let b = self.in_offsets.get(node as usize + 1).copied().unwrap_or(0) as usize;
        self.in_edges.get(a..b).unwrap_or(&[])
    }

    /// Annotation rows (indices into `deps.edges`) of edge `edge`.
    pub fn annotation_rows(&self, edge: usize) -> &[u32] {
        let a = self.ann_offsets.get(edge).copied().unwrap_or(0) as usize;
        let b = self.ann_offsets.get(edge + 1).copied().unwrap_or(0) as usize;
        self.ann_rows.get(a..b).unwrap_or(&[])
    }

    /// True when some annotation row of the edge has `source == "creator"`.
    pub fn is_creator_protected(&self, edge: usize) -> bool {
        self.edge_sources.get(edge).is_some_and(|&m| m & SOURCE_CREATOR != 0)
    }

    /// `(pred, succ)` task ids of an edge.
    pub fn edge_task_ids(&self, edge: usize) -> (u64, u64) {
        let p = self.edge_pred.get(edge).copied().unwrap_or(0);
        let s = self.edge_succ.get(edge).copied().unwrap_or(0);
        (self.task_id(p), self.task_id(s))
    }

    /// `deps_viewer`'s text id: `local` when every node is in ring 0, else `(ring, local)`.
    pub fn display_id(&self, task_id: u64) -> String {
        let ring = (task_id >> 32) & 0xFF;
        let local = task_id & 0xFFFF_FFFF;
        if self.multi_ring {
            format!("({ring}, {local})")
        } else {
            local.to_string()
        }
    }

    /// Kahn's algorithm, smallest dense index first; `None` on a cycle.
    fn kahn_order(&self) -> Option<Vec<u32>> {
        let n = self.node_count();
        let mut indeg: Vec<u32> = (0..n)
            .map(|i| {
                let a = self.in_offsets.get(i).copied().unwrap_or(0);
                let b = self.in_offsets.get(i + 1).copied().unwrap_or(0);
                b.saturating_sub(a)
            })
            .collect();
        let mut heap: BinaryHeap<Reverse<u32>> =
            indeg.iter().enumerate().filter(|(_, &d)| d == 0).map(|(i, _)| Reverse(i as u32)).collect();
        let mut order = Vec::with_capacity(n);
        while let Some(Reverse(u)) = heap.pop() {
            order.push(u);
            for edge in self.out_edges(u) {
                let Some(&v) = self.edge_succ.get(edge) else {
                    continue;
                };
                if let Some(d) = indeg.get_mut(v as usize) {
                    *d -= 1;
                    if *d == 0 {
                        heap.push(Reverse(v));
                    }
                }
            }
        }
        (order.len() == n).then_some(order)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sidecar_has_one_task_per_id_with_the_aic_func_id_of_a_mix_task() {
        let mut joined = JoinedTasks::default();
        // task 7: AIV row first, then its AIC row (MIX); task 3: two AIV blocks; task 9: one AIC row, func unresolved.
        let rows = [(7u64, CoreType::Aiv), (3, CoreType::Aiv), (7, CoreType::Aic), (3, CoreType::Aiv), (9, CoreType::Aic)];
        for (core, (id, ct)) in rows.into_iter().enumerate() {
            joined.push_us(id, core as u32, ct, [0.0; 5]);
        }
        let func_ids: Vec<i64> = vec![11, 4, 12, 5, -1];
        let side = sidecar_tasks(&joined, &func_ids);
        assert_eq!(
            side,
            vec![
                SidecarTask { task_id: 7, func_id: Some(12) },
                SidecarTask { task_id: 3, func_id: Some(4) },
                SidecarTask { task_id: 9, func_id: None },
            ]
        );
    }
}
