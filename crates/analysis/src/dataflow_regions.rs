//! Byte-exact dataflow evidence for the `reduced_dataflow` / `omitted_dataflow` edge modes
//! (runtime-formats.md §5.3 item 4; `deps_viewer._transitive_reduction_dataflow`).
//!
//! A structurally redundant edge with `creator` rows may only be dropped when every creator
//! row is an exactly-known `INOUT` region of the consumer and every byte of that region has
//! direct tensormap dataflow *into* the consumer from an earlier writer owned by the same
//! creator, and *out of* it to a later `INOUT` writer owned by the same creator.
//!
//! Regions: from the tensor's `buffer_addr`, `buffer_numel` and dtype, the view's
//! `start_offset`, `shape`, `strides` (row `consumer_*`/`producer_*` fields, consumer fields
//! falling back to the task arg); the slice dtype must equal the buffer dtype and be one of
//! the 12 sized dtypes. The largest contiguous suffix (strides equal to the running
//! products) collapses into one interval and the outer coordinates are enumerated, at most
//! 10,000 intervals; every interval must lie inside the buffer. Anything unresolvable yields
//! no region, which keeps the edge. Byte addresses are u128 with checked arithmetic: an
//! overflow can only come from a view far outside the buffer, which the reference rejects
//! too, so results are identical to its unbounded Python integers.
//!
//! Differences from the reference (malformed input only, because the column model cannot
//! tell "absent" from a default): an arg without `start_offset` reads as 0 (the reference
//! rejects it), a tensor without `buffer_addr` reads as address 0, an empty `shape`/`strides`
//! list reads as absent (falls back to the arg) and an `arg`/`idx` of -1 is "absent".
//!
//! Cost: O(R · I log I) to build (R = annotation rows, I = intervals per region, ≤ 10,000 and
//! 1 for contiguous views), hash lookups per proof.

use crate::deps_graph::DepsGraph;
use pypto_formats::deps::{ArgType, Deps, DimRange};
use std::collections::HashMap;

/// Half-open byte interval `[begin, end)`.
pub type ByteInterval = (u128, u128);

/// Most intervals one strided view may expand to before the proof gives up.
pub const MAX_STRIDED_REGION_INTERVALS: u128 = 10_000;

/// Element size of a dtype name (case-insensitive), for the 12 dtypes `deps_viewer` knows.
pub fn dtype_size_bytes(name: &str) -> Option<u128> {
    let up = name.to_ascii_uppercase();
    Some(match up.as_str() {
        "FLOAT32" | "INT32" | "UINT32" => 4,
        "FLOAT16" | "INT16" | "BFLOAT16" | "UINT16" => 2,
        "INT8" | "UINT8" | "BOOL" => 1,
        "INT64" | "UINT64" => 8,
        _ => return None,
    })
}

/// Sorted, disjoint, non-touching intervals (empty ones dropped, touching ones joined).
pub fn merge_intervals(mut v: Vec<ByteInterval>) -> Vec<ByteInterval> {
    v.sort_unstable();
    let mut out: Vec<ByteInterval> = Vec::with_capacity(v.len());
    for (b, e) in v {
        if b >= e {
            continue;
        }
        match out.last_mut() {
            Some(last) if b <= last.1 => last.1 = last.1.max(e),
            _ => out.push((b, e)),
        }
    }
    out
}

/// Whether the union of `covers` contains every byte of `target` (sorted, merged).
pub fn intervals_cover(target: &[ByteInterval], covers: Vec<ByteInterval>) -> bool {
    let cover = merge_intervals(covers);
    let mut ci = 0usize;
    for &(tb, te) in target {
        let mut cursor = tb;
        while cover.get(ci).is_some_and(|c| c.1 <= cursor) {
            ci += 1;
        }
        let mut i = ci;
        while cursor < te {
            match cover.get(i) {
                Some(&(cb, ce)) if cb <= cursor => {
                    cursor = cursor.max(ce);
                    i += 1;
                }
                _ => break,
            }
        }
        if cursor < te {
            return false;
        }
    }
    true
}

/// Exact intersection of two sorted interval lists.
pub fn intersect_intervals(left: &[ByteInterval], right: &[ByteInterval]) -> Vec<ByteInterval> {
    let (mut li, mut ri) = (0usize, 0usize);
    let mut out = Vec::new();
    while let (Some(&(lb, le)), Some(&(rb, re))) = (left.get(li), right.get(ri)) {
        let b = lb.max(rb);
        let e = le.min(re);
        if b < e {
            out.push((b, e));
        }
        if le <= re {
            li += 1;
        } else {
            ri += 1;
        }
    }
    out
}

/// The merged byte intervals of a strided view of a buffer, or `None` when the view is
/// malformed, expands to more than [`MAX_STRIDED_REGION_INTERVALS`] intervals or leaves
/// the buffer. Offsets and strides are in elements.
pub fn strided_byte_region(
    buffer_addr_bytes: u64,
    buffer_numel: u64,
    elem_bytes: u128,
    start_offset_elems: u64,
    shape: &[u32],
    strides: &[u32],
) -> Option<Vec<ByteInterval>> {
    if shape.is_empty() || shape.len() != strides.len() {
        return None;
    }
    if shape.iter().chain(strides).any(|&x| x == 0) {
        return None;
    }
    // Largest canonically contiguous suffix.
    let mut suffix_start = shape.len();
    let mut contiguous_elems: u128 = 1;
    for dim in (0..shape.len()).rev() {
        let (&sz, &st) = (shape.get(dim)?, strides.get(dim)?);
        if u128::from(st) != contiguous_elems {
            break;
        }
        contiguous_elems = contiguous_elems.checked_mul(u128::from(sz))?;
        suffix_start = dim;
    }
    let outer = shape.get(..suffix_start)?;
    let outer_strides = strides.get(..suffix_start)?;
    let mut count: u128 = 1;
    for &sz in outer {
        count *= u128::from(sz);
        if count > MAX_STRIDED_REGION_INTERVALS {
            return None;
        }
    }
    let mut offsets: Vec<u128> = vec![u128::from(start_offset_elems)];
    for (&sz, &st) in outer.iter().zip(outer_strides) {
        let mut next = Vec::with_capacity(offsets.len() * sz as usize);
        for &base in &offsets {
            for idx in 0..u128::from(sz) {
                next.push(base.checked_add(idx.checked_mul(u128::from(st))?)?);
            }
        }
        offsets = next;
    }
    let addr = u128::from(buffer_addr_bytes);
    let mut raw = Vec::with_capacity(offsets.len());
    for off in offsets {
        let b = addr.checked_add(off.checked_mul(elem_bytes)?)?;
        let e = addr.checked_add(off.checked_add(contiguous_elems)?.checked_mul(elem_bytes)?)?;
        raw.push((b, e));
    }
    let intervals = merge_intervals(raw);
    let end = addr.checked_add(u128::from(buffer_numel).checked_mul(elem_bytes)?)?;
    if intervals.is_empty() || intervals.iter().any(|&(b, e)| b < addr || e > end) {
        return None;
    }
    Some(intervals)
}

/// Which side of an edge row a region describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Consumer,
    Producer,
}

/// Resolved inputs of the model needed for regions.
pub struct RegionContext<'a> {
    deps: &'a Deps,
    /// tensor id → row in `deps.tensors` (last wins, like the reference dict).
    tensors: HashMap<u64, u32>,
}

impl<'a> RegionContext<'a> {
    pub fn new(deps: &'a Deps) -> Self {
        let tensors = deps.tensors.tensor_id.iter().enumerate().map(|(i, &id)| (id, i as u32)).collect();
        Self { deps, tensors }
    }

    fn dtype_name(&self, idx: u32) -> Option<&'a str> {
        if idx == u32::MAX {
            return None;
        }
        self.deps.dtype_names.get(idx as usize).map(String::as_str)
    }

    fn dims(&self, r: DimRange) -> Option<&'a [u32]> {
        (r.len > 0).then(|| self.deps.dims_of(r))
    }

    /// The consumer arg (row in `deps.args`) of task row `task_row` with index `arg_idx`
    /// (the last one with that index), if any.
    pub fn arg_of(&self, task_row: u32, arg_idx: i32) -> Option<usize> {
        if arg_idx == -1 || task_row == u32::MAX {
            return None;
        }
        let t = &self.deps.tasks;
        let a = *t.arg_offsets.get(task_row as usize)? as usize;
        let b = *t.arg_offsets.get(task_row as usize + 1)? as usize;
        (a..b).rev().find(|&i| self.deps.args.idx.get(i) == Some(&arg_idx))
    }

    /// Region of edge row `row` in `role`; `arg` is the consumer's arg row (consumer
    /// fields fall back to it). Returns `(buffer_addr, intervals)`.
    pub fn row_region(&self, row: usize, arg: Option<usize>, role: Role) -> Option<(u64, Vec<ByteInterval>)> {
        let d = self.deps;
        let e = &d.edges;
        let args = &d.args;
        let arg_tensor = || arg.and_then(|a| args.tensor_id.get(a).copied().flatten());
        let tensor_id = match role {
            Role::Consumer => e.tensor_id.get(row).copied().flatten().or_else(arg_tensor),
            Role::Producer => e.tensor_id.get(row).copied().flatten(),
        }?;
        let t = *self.tensors.get(&tensor_id)? as usize;
        let buffer_addr = *d.tensors.buffer_addr.get(t)?;
        let buffer_numel = *d.tensors.buffer_numel.get(t)?;
        let tensor_dtype = self.dtype_name(*d.tensors.dtype.get(t)?);
        let (start, shape, strides, dtype) = match role {
            Role::Consumer => {
                let start =
                    e.consumer_start_offset.get(row).copied().flatten().or_else(|| arg.and_then(|a| args.start_offset.get(a).copied()))?;
                let shape = e
                    .consumer_shape
                    .get(row)
                    .and_then(|&r| self.dims(r))
                    .or_else(|| arg.and_then(|a| args.shape.get(a)).and_then(|&r| self.dims(r)))?;
                let strides = e
                    .consumer_strides
                    .get(row)
                    .and_then(|&r| self.dims(r))
                    .or_else(|| arg.and_then(|a| args.strides.get(a)).and_then(|&r| self.dims(r)))?;
                let dtype = e
                    .consumer_dtype
                    .get(row)
                    .and_then(|&x| self.dtype_name(x))
                    .or_else(|| arg.and_then(|a| args.dtype.get(a)).and_then(|&x| self.dtype_name(x)))
                    .or(tensor_dtype);
                (start, shape, strides, dtype)
            }
            Role::Producer => {
                let start = e.producer_start_offset.get(row).copied().flatten()?;
                let shape = e.producer_shape.get(row).and_then(|&r| self.dims(r))?;
                let strides = e.producer_strides.get(row).and_then(|&r| self.dims(r))?;
                (start, shape, strides, tensor_dtype)
            }
        };
        let dtype = dtype?;
        let buffer_dtype = tensor_dtype.unwrap_or(dtype);
        let elem = dtype_size_bytes(dtype)?;
        dtype_size_bytes(buffer_dtype)?;
        if !dtype.eq_ignore_ascii_case(buffer_dtype) {
            return None;
        }
        let iv = strided_byte_region(buffer_addr, buffer_numel, elem, start, shape, strides)?;
        Some((buffer_addr, iv))
    }
}

/// A creator row whose consumer arg is `INOUT` or `OUTPUT_EXISTING` with an exact region.
#[derive(Debug, Clone)]
struct CreatorRecord {
    /// Creator (pred) node.
    owner: u32,
    /// Consumer (succ) node.
    task: u32,
    arg: i32,
    inout: bool,
    buffer_addr: u64,
    intervals: Vec<ByteInterval>,
}

/// A tensormap row into an `INOUT` arg whose consumer and producer regions overlap.
#[derive(Debug, Clone)]
struct Modifier {
    pred: u32,
    succ: u32,
    arg: i32,
    overlap: Vec<ByteInterval>,
}

/// All creator records and tensormap modifiers of a deps file, indexed for the proof.
pub struct DataflowEvidence {
    records: Vec<CreatorRecord>,
    /// Records of edge `e`: `record_offsets[e]..record_offsets[e + 1]`.
    record_offsets: Vec<u32>,
    /// Creator rows per edge.
    creator_rows: Vec<u32>,
    by_owner_task_buffer: HashMap<(u32, u32, u64), Vec<u32>>,
    modifiers: Vec<Modifier>,
    incoming: HashMap<(u32, i32, u64), Vec<u32>>,
    outgoing: HashMap<(u32, u64), Vec<u32>>,
}

impl DataflowEvidence {
    /// Collects the evidence over every annotation row (never a filtered view).
    pub fn build(graph: &DepsGraph, deps: &Deps) -> Self {
        let ctx = RegionContext::new(deps);
        let creator_idx = deps.source_names.iter().position(|s| s == "creator");
        let tensormap_idx = deps.source_names.iter().position(|s| s == "tensormap");
        let mut ev = DataflowEvidence {
            records: Vec::new(),
            record_offsets: vec![0],
            creator_rows: Vec::with_capacity(graph.edge_count()),
            by_owner_task_buffer: HashMap::new(),
            modifiers: Vec::new(),
            incoming: HashMap::new(),
            outgoing: HashMap::new(),
        };
        for edge in 0..graph.edge_count() {
            let pred = graph.edge_pred.get(edge).copied().unwrap_or(0);
            let succ = graph.edge_succ.get(edge).copied().unwrap_or(0);
            let succ_row = graph.task_row.get(succ as usize).copied().unwrap_or(u32::MAX);
            let mut creators = 0u32;
            for &row in graph.annotation_rows(edge) {
                let row = row as usize;
                let src = deps.edges.source.get(row).map(|&s| s as usize);
                let is_creator = src.is_some() && src == creator_idx;
                let is_tensormap = src.is_some() && src == tensormap_idx;
                if !is_creator && !is_tensormap {
                    continue;
                }
                if is_creator {
                    creators += 1;
                }
                let arg_idx = deps.edges.arg.get(row).copied().unwrap_or(-1);
                let Some(arg) = ctx.arg_of(succ_row, arg_idx) else {
                    continue;
                };
                let arg_type = deps.args.arg_type.get(arg).copied().unwrap_or_default();
                if is_creator {
                    if !matches!(arg_type, ArgType::Inout | ArgType::OutputExisting) {
                        continue;
                    }
                    let Some((addr, intervals)) = ctx.row_region(row, Some(arg), Role::Consumer) else {
                        continue;
                    };
                    let id = ev.records.len() as u32;
                    ev.by_owner_task_buffer.entry((pred, succ, addr)).or_default().push(id);
                    ev.records.push(CreatorRecord {
                        owner: pred,
                        task: succ,
                        arg: arg_idx,
                        inout: arg_type == ArgType::Inout,
                        buffer_addr: addr,
                        intervals,
                    });
                } else {
                    if arg_type != ArgType::Inout {
                        continue;
                    }
                    let Some((caddr, civ)) = ctx.row_region(row, Some(arg), Role::Consumer) else {
                        continue;
                    };
                    let Some((paddr, piv)) = ctx.row_region(row, None, Role::Producer) else {
                        continue;
                    };
                    if caddr != paddr {
                        continue;
                    }
                    let overlap = intersect_intervals(&civ, &piv);
                    if overlap.is_empty() {
                        continue;
                    }
                    let id = ev.modifiers.len() as u32;
                    ev.incoming.entry((succ, arg_idx, caddr)).or_default().push(id);
                    ev.outgoing.entry((pred, caddr)).or_default().push(id);
                    ev.modifiers.push(Modifier { pred, succ, arg: arg_idx, overlap });
                }
            }
            ev.creator_rows.push(creators);
            ev.record_offsets.push(ev.records.len() as u32);
        }
        ev
    }

    fn edge_records(&self, edge: usize) -> &[CreatorRecord] {
        let a = self.record_offsets.get(edge).copied().unwrap_or(0) as usize;
        let b = self.record_offsets.get(edge + 1).copied().unwrap_or(0) as usize;
        self.records.get(a..b).unwrap_or(&[])
    }

    /// Cheap pre-check: false when the edge is kept whatever the structure (it has creator
    /// rows that are not all exactly-known `INOUT` records). Such edges need no
    /// reachability query.
    pub fn may_remove(&self, edge: usize) -> bool {
        let creators = self.creator_rows.get(edge).copied().unwrap_or(0);
        if creators == 0 {
            return true;
        }
        let recs = self.edge_records(edge);
        recs.len() == creators as usize && recs.iter().all(|r| r.inout)
    }

    fn peers(&self, owner: u32, task: u32, addr: u64) -> impl Iterator<Item = &CreatorRecord> {
        self.by_owner_task_buffer.get(&(owner, task, addr)).into_iter().flatten().filter_map(|&i| self.records.get(i as usize))
    }

    /// The full proof for a structurally redundant edge: true when it may be dropped.
    pub fn proves_removable(&self, edge: usize) -> bool {
        if !self.may_remove(edge) {
            return false;
        }
        for rec in self.edge_records(edge) {
            let addr = rec.buffer_addr;
            let mut earlier = Vec::new();
            for m in self.incoming.get(&(rec.task, rec.arg, addr)).into_iter().flatten().filter_map(|&i| self.modifiers.get(i as usize)) {
                for peer in self.peers(rec.owner, m.pred, addr) {
                    earlier.extend(intersect_intervals(&m.overlap, &peer.intervals));
                }
            }
            let mut later = Vec::new();
            for m in self.outgoing.get(&(rec.task, addr)).into_iter().flatten().filter_map(|&i| self.modifiers.get(i as usize)) {
                for peer in self.peers(rec.owner, m.succ, addr) {
                    if peer.arg == m.arg && peer.inout {
                        later.extend(intersect_intervals(&m.overlap, &peer.intervals));
                    }
                }
            }
            if !intervals_cover(&rec.intervals, earlier) || !intervals_cover(&rec.intervals, later) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contiguous_view_is_one_interval() {
        let iv = strided_byte_region(4096, 128, 4, 0, &[8], &[1]);
        assert_eq!(iv, Some(vec![(4096, 4128)]));
    }

    #[test]
    fn strided_view_enumerates_outer_dims() {
        // 2 rows of 4 elements, row stride 8: [0,4) and [8,12) elements.
        let iv = strided_byte_region(0, 64, 4, 0, &[2, 4], &[8, 1]);
        assert_eq!(iv, Some(vec![(0, 16), (32, 48)]));
        // Fully strided last dim: one element per interval; touching ones merge.
        let iv = strided_byte_region(0, 64, 4, 1, &[3], &[2]);
        assert_eq!(iv, Some(vec![(4, 8), (12, 16), (20, 24)]));
        // Row-major contiguous 2-D collapses into one interval.
        let iv = strided_byte_region(100, 8, 4, 0, &[2, 4], &[4, 1]);
        assert_eq!(iv, Some(vec![(100, 132)]));
    }

    #[test]
    fn bad_views_have_no_region() {
        assert_eq!(strided_byte_region(0, 8, 4, 0, &[], &[]), None);
        assert_eq!(strided_byte_region(0, 8, 4, 0, &[2], &[1, 1]), None);
        assert_eq!(strided_byte_region(0, 8, 4, 0, &[0], &[1]), None);
        assert_eq!(strided_byte_region(0, 8, 4, 0, &[2], &[0]), None);
        // Leaves the buffer.
        assert_eq!(strided_byte_region(0, 8, 4, 4, &[8], &[1]), None);
        // Too many intervals.
        assert_eq!(strided_byte_region(0, u64::MAX, 1, 0, &[10_001, 1], &[2, 1]), None);
        // Overflowing arithmetic is out of the buffer.
        assert_eq!(
            strided_byte_region(
                u64::MAX,
                u64::MAX,
                8,
                u64::MAX,
                &[u32::MAX, u32::MAX, u32::MAX, u32::MAX, u32::MAX],
                &[u32::MAX, 1, 1, 1, 1]
            ),
            None
        );
    }

    #[test]
    fn cover_and_intersect() {
        let target = vec![(0, 10), (20, 30)];
        assert!(intervals_cover(&target, vec![(0, 5), (5, 10), (20, 30)]));
        assert!(!intervals_cover(&target, vec![(0, 10), (20, 29)]));
        assert!(intervals_cover(&[], vec![]));
        assert!(!intervals_cover(&target, vec![]));
        assert_eq!(intersect_intervals(&[(0, 10), (20, 30)], &[(5, 25)]), vec![(5, 10), (20, 25)]);
        assert_eq!(dtype_size_bytes("bfloat16"), Some(2));
        assert_eq!(dtype_size_bytes("FP8E4M3FN"), None);
    }
}
