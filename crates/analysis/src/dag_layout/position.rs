//! Phase 5 of the layered layout: coordinates along the layers (x in top→bottom), by
//! Brandes–Köpf ("Fast and Simple Horizontal Coordinate Assignment", 2001, as dagre's
//! `position/bk`), written without recursion.
//!
//! 1. Type-1 conflicts: a segment between two dummies (an inner segment of a long edge)
//!    wins over a crossing segment with a real end, so long edges stay straight.
//! 2. For each of the four directions (align with the upper or lower neighbours, scanning
//!    layers from the left or the right) every node is aligned with its median neighbour
//!    if that keeps the alignments order-preserving and conflict-free: aligned nodes form
//!    vertical *blocks* that will share one coordinate (straight chains).
//! 3. Compaction: the blocks form a constraint DAG (left neighbour in a layer → right
//!    neighbour, weight = half widths + separation); a longest-path pass in topological
//!    order packs them left, a second pass in reverse order pulls each block right up to
//!    its nearest right neighbour's limit, closing gaps.
//! 4. The four results are aligned to the narrowest one and every node takes the mean of
//!    its two median candidates. A last left-to-right pass restores the separations the
//!    averaging may have shrunk, so nodes of a layer never overlap.
//!
//! O((V + S) log) for the neighbour sorts, O(V + S) otherwise (S = segments).

// Graph-algorithm notation (g, u, v, w, x) as in the paper.
#![allow(clippy::many_single_char_names)]

use super::layered::Layered;
use super::order::Layers;

/// Separations along the layer.
#[derive(Debug, Clone, Copy)]
pub(super) struct Spacing {
    /// Between two real nodes.
    pub node_sep: f64,
    /// When a dummy is involved.
    pub edge_sep: f64,
}

/// Breadth coordinate (centre) per node. `breadth[v]` is the node's extent along the layer
/// (0 allowed for dummies).
pub(super) fn assign(g: &Layered, layers: &Layers, breadth: &[f64], sp: Spacing, passes: u32) -> Vec<f64> {
    let n = g.node_count();
    if n == 0 {
        return Vec::new();
    }
    let mut pos = vec![0u32; n];
    for layer in layers {
        for (i, &v) in layer.iter().enumerate() {
            pos[v as usize] = i as u32;
        }
    }
    let layer_len: Vec<u32> = g.rank.iter().map(|&r| layers[r as usize].len() as u32).collect();
    let sep = |u: u32, v: u32| -> f64 {
        let gap = if g.is_dummy(u) || g.is_dummy(v) { sp.edge_sep } else { sp.node_sep };
        f64::midpoint(breadth[u as usize], breadth[v as usize]) + gap
    };
    // Neighbours sorted by position: (node, segment).
    let sorted = |up: bool| -> (Vec<u32>, Vec<(u32, u32)>) {
        let mut off = Vec::with_capacity(n + 1);
        let mut adj = Vec::with_capacity(g.seg_up.len());
        off.push(0u32);
        for v in 0..n as u32 {
            push_sorted_neighbours(g, &pos, v, up, &mut adj);
            off.push(adj.len() as u32);
        }
        (off, adj)
    };
    let ups = sorted(true);
    let downs = sorted(false);
    let conflict = type1_conflicts(g, layers, &pos);

    let mut results: Vec<Vec<f64>> = Vec::with_capacity(4);
    for (vert_up, left) in [(true, true), (true, false), (false, true), (false, false)] {
        let (off, adj) = if vert_up { &ups } else { &downs };
        let (root, _align) = align(g, layers, &pos, &layer_len, off, adj, &conflict, vert_up, left);
        let mut xs = compact(g, layers, &root, left, &sep);
        if !left {
            for x in &mut xs {
                *x = -*x;
            }
        }
        results.push(xs);
    }
    // Align to the narrowest layout.
    let extent = |xs: &[f64]| -> (f64, f64) {
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for (v, &x) in xs.iter().enumerate() {
            lo = lo.min(x - breadth[v] / 2.0);
            hi = hi.max(x + breadth[v] / 2.0);
        }
        (lo, hi)
    };
    let extents: Vec<(f64, f64)> = results.iter().map(|xs| extent(xs)).collect();
    let narrowest = (0..4)
        .min_by(|&a, &b| {
            let wa = extents[a].1 - extents[a].0;
            let wb = extents[b].1 - extents[b].0;
            wa.total_cmp(&wb).then(a.cmp(&b))
        })
        .unwrap_or(0);
    let (to_lo, to_hi) = extents[narrowest];
    for (k, xs) in results.iter_mut().enumerate() {
        let left = k % 2 == 0;
        let delta = if left { to_lo - extents[k].0 } else { to_hi - extents[k].1 };
        for x in xs.iter_mut() {
            *x += delta;
        }
    }
    let mut x: Vec<f64> = (0..n)
        .map(|v| {
            let mut c = [results[0][v], results[1][v], results[2][v], results[3][v]];
            c.sort_by(f64::total_cmp);
            f64::midpoint(c[1], c[2])
        })
        .collect();
    for layer in layers {
        for w in layer.windows(2) {
            let min = x[w[0] as usize] + sep(w[0], w[1]);
            if x[w[1] as usize] < min {
                x[w[1] as usize] = min;
            }
        }
    }
    refine(g, layers, &mut x, &sep, passes);
    x
}

/// Appends `v`'s neighbours above (`up`) or below as `(node, segment)`, by position.
/// Not inlined, like every per-layer or per-node step of this phase (see
/// `order::gap_crossings` for why).
#[inline(never)]
fn push_sorted_neighbours(g: &Layered, pos: &[u32], v: u32, up: bool, adj: &mut Vec<(u32, u32)>) {
    let start = adj.len();
    let segs = if up { g.ups(v) } else { g.downs(v) };
    adj.extend(segs.iter().map(|&s| {
        let w = if up { g.seg_up[s as usize] } else { g.seg_down[s as usize] };
        (w, s)
    }));
    adj[start..].sort_unstable_by_key(|&(w, s)| (pos[w as usize], s));
}

/// Weight of a segment in the straightening objective (dot's ω: long-edge segments pull
/// hardest, so long edges stay straight).
fn seg_weight(g: &Layered, u: u32, v: u32) -> f64 {
    match (g.is_dummy(u), g.is_dummy(v)) {
        (true, true) => 8.0,
        (false, false) => 1.0,
        _ => 2.0,
    }
}

/// Movement (layout units) below which a refinement pass counts as converged: a node that
/// moves less than this in a whole pass is sub-pixel at any zoom that shows labels.
const CONVERGED: f64 = 0.05;

/// Weight that keeps a node without neighbours where it is.
const ANCHOR: f64 = 1e-3;

/// Layer-by-layer minimisation of `Σ ω(u, v) (x_u − x_v)²` over the segments with the
/// order and separations of each layer fixed: each layer in turn is solved exactly given
/// its neighbours' current coordinates (weighted isotonic regression by pool-adjacent-
/// violators over `x_i − offset_i`, `offset_i` = the cumulative separations), sweeping down
/// and up at most `passes` times and stopping once a pass moves no node by
/// [`CONVERGED`]. Convex block-coordinate descent, so the objective never grows.
///
/// Everything a pass reads is laid out once in layer order (slot = position in the
/// concatenated layers): the neighbours' slots and weights, each slot's weight sum and
/// offset, so a pass walks memory sequentially. O(passes × (V + S)).
fn refine(g: &Layered, layers: &Layers, x: &mut [f64], sep: &dyn Fn(u32, u32) -> f64, passes: u32) {
    if passes == 0 {
        return;
    }
    let total: usize = layers.iter().map(Vec::len).sum();
    let mut slot_of = vec![0u32; g.node_count()];
    let mut layer_start = Vec::with_capacity(layers.len() + 1);
    let mut offset = Vec::with_capacity(total);
    let mut k = 0u32;
    for layer in layers {
        layer_start.push(k as usize);
        let mut off = 0.0;
        for (i, &v) in layer.iter().enumerate() {
            if i > 0 {
                off += sep(layer[i - 1], v);
            }
            offset.push(off);
            slot_of[v as usize] = k;
            k += 1;
        }
    }
    layer_start.push(total);
    // Neighbour CSR by slot; weight sum per slot (anchor included).
    let mut nb_off = Vec::with_capacity(total + 1);
    let mut nb_slot: Vec<u32> = Vec::with_capacity(2 * g.seg_up.len());
    let mut nb_w: Vec<f64> = Vec::with_capacity(2 * g.seg_up.len());
    let mut w_sum = Vec::with_capacity(total);
    let mut xs = Vec::with_capacity(total);
    nb_off.push(0u32);
    for layer in layers {
        for &v in layer {
            let mut sum = ANCHOR;
            let ups = g.ups(v).iter().map(|&s| g.seg_up[s as usize]);
            let downs = g.downs(v).iter().map(|&s| g.seg_down[s as usize]);
            for u in ups.chain(downs) {
                let w = seg_weight(g, u, v);
                sum += w;
                nb_slot.push(slot_of[u as usize]);
                nb_w.push(w);
            }
            nb_off.push(nb_slot.len() as u32);
            w_sum.push(sum);
            xs.push(x[v as usize]);
        }
    }
    drop(slot_of);
    let count = layers.len();
    let nb = Neighbours { off: &nb_off, slot: &nb_slot, w: &nb_w, w_sum: &w_sum, offset: &offset };
    // Pool: (weight sum, weighted mean, first slot).
    let mut pools: Vec<(f64, f64, usize)> = Vec::new();
    for pass in 0..passes {
        let mut moved = 0f64;
        for step in 0..count {
            let l = if pass % 2 == 0 { step } else { count - 1 - step };
            moved = moved.max(solve_layer(&nb, layer_start[l]..layer_start[l + 1], &mut xs, &mut pools));
        }
        if moved < CONVERGED {
            break;
        }
    }
    for (layer, &a) in layers.iter().zip(&layer_start) {
        for (i, &v) in layer.iter().enumerate() {
            x[v as usize] = xs[a + i];
        }
    }
}

/// What [`solve_layer`] reads per slot (see [`refine`]).
struct Neighbours<'a> {
    off: &'a [u32],
    slot: &'a [u32],
    w: &'a [f64],
    w_sum: &'a [f64],
    offset: &'a [f64],
}

/// Solves the layer of `slots` exactly given its neighbours (pool-adjacent-violators);
/// returns the largest move. Not inlined (see [`push_sorted_neighbours`]).
#[inline(never)]
fn solve_layer(nb: &Neighbours, slots: std::ops::Range<usize>, xs: &mut [f64], pools: &mut Vec<(f64, f64, usize)>) -> f64 {
    pools.clear();
    for k in slots.clone() {
        let mut wx = ANCHOR * xs[k];
        for j in nb.off[k] as usize..nb.off[k + 1] as usize {
            wx += nb.w[j] * xs[nb.slot[j] as usize];
        }
        let w = nb.w_sum[k];
        let mut pool = (w, wx / w - nb.offset[k], k);
        while let Some(&(w1, m1, k1)) = pools.last() {
            if m1 > pool.1 {
                pools.pop();
                let ws = w1 + pool.0;
                pool = (ws, (w1 * m1 + pool.0 * pool.1) / ws, k1);
            } else {
                break;
            }
        }
        pools.push(pool);
    }
    let mut moved = 0f64;
    for (i, &(_, m, first)) in pools.iter().enumerate() {
        let end = pools.get(i + 1).map_or(slots.end, |p| p.2);
        for (x, &off) in xs[first..end].iter_mut().zip(&nb.offset[first..end]) {
            let nx = m + off;
            moved = moved.max((nx - *x).abs());
            *x = nx;
        }
    }
    moved
}

/// Marks segments that cross an inner (dummy–dummy) segment and have a real end.
fn type1_conflicts(g: &Layered, layers: &Layers, pos: &[u32]) -> Vec<bool> {
    let mut conflict = vec![false; g.seg_up.len()];
    for l in 1..layers.len() {
        let layer = &layers[l];
        let prev_len = layers[l - 1].len() as u32;
        let mut k0 = 0u32;
        let mut scan = 0usize;
        for (i, &v) in layer.iter().enumerate() {
            let inner = if g.is_dummy(v) { g.ups(v).iter().map(|&s| g.seg_up[s as usize]).find(|&u| g.is_dummy(u)) } else { None };
            let k1 = inner.map_or(prev_len, |u| pos[u as usize]);
            if inner.is_some() || i + 1 == layer.len() {
                for &scan_node in &layer[scan..=i] {
                    for &s in g.ups(scan_node) {
                        let u = g.seg_up[s as usize];
                        let up = pos[u as usize];
                        if (up < k0 || k1 < up) && !(g.is_dummy(u) && g.is_dummy(scan_node)) {
                            conflict[s as usize] = true;
                        }
                    }
                }
                scan = i + 1;
                k0 = k1;
            }
        }
    }
    conflict
}

/// Vertical alignment for one direction: `(root, align)`.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn align(
    g: &Layered,
    layers: &Layers,
    pos: &[u32],
    layer_len: &[u32],
    off: &[u32],
    adj: &[(u32, u32)],
    conflict: &[bool],
    vert_up: bool,
    left: bool,
) -> (Vec<u32>, Vec<u32>) {
    let n = g.node_count();
    let mut root: Vec<u32> = (0..n as u32).collect();
    let mut align: Vec<u32> = root.clone();
    let adj_pos = |v: u32| -> i64 {
        let p = i64::from(pos[v as usize]);
        if left {
            p
        } else {
            i64::from(layer_len[v as usize]) - 1 - p
        }
    };
    let count = layers.len();
    for step in 0..count {
        let l = if vert_up { step } else { count - 1 - step };
        align_layer(&layers[l], off, adj, conflict, left, &adj_pos, &mut root, &mut align);
    }
    (root, align)
}

/// One layer of [`align`] (not inlined, see [`push_sorted_neighbours`]).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn align_layer(
    layer: &[u32],
    off: &[u32],
    adj: &[(u32, u32)],
    conflict: &[bool],
    left: bool,
    adj_pos: &dyn Fn(u32) -> i64,
    root: &mut [u32],
    align: &mut [u32],
) {
    let mut prev = -1i64;
    for k in 0..layer.len() {
        let v = if left { layer[k] } else { layer[layer.len() - 1 - k] };
        let ns = &adj[off[v as usize] as usize..off[v as usize + 1] as usize];
        let m = ns.len();
        if m == 0 {
            continue;
        }
        for i in (m - 1) / 2..=m / 2 {
            let (w, s) = if left { ns[i] } else { ns[m - 1 - i] };
            if align[v as usize] == v && prev < adj_pos(w) && !conflict[s as usize] {
                align[w as usize] = v;
                root[v as usize] = root[w as usize];
                align[v as usize] = root[v as usize];
                prev = adj_pos(w);
            }
        }
    }
}

/// Horizontal compaction of the blocks of `root` (scanning from the left or the right).
#[inline(never)]
fn compact(g: &Layered, layers: &Layers, root: &[u32], left: bool, sep: &dyn Fn(u32, u32) -> f64) -> Vec<f64> {
    let n = g.node_count();
    // Constraint edges root[u] → root[v] for neighbours u, v (u first in scan order).
    let mut edges: Vec<(u32, u32, f64)> = Vec::with_capacity(n);
    for layer in layers {
        for w in layer.windows(2) {
            let (u, v) = if left { (w[0], w[1]) } else { (w[1], w[0]) };
            edges.push((root[u as usize], root[v as usize], sep(u, v)));
        }
    }
    let mut out_off = vec![0u32; n + 1];
    let mut in_off = vec![0u32; n + 1];
    for &(a, b, _) in &edges {
        out_off[a as usize + 1] += 1;
        in_off[b as usize + 1] += 1;
    }
    for i in 0..n {
        out_off[i + 1] += out_off[i];
        in_off[i + 1] += in_off[i];
    }
    let mut out_fill = out_off.clone();
    let mut in_fill = in_off.clone();
    let mut out_adj = vec![0u32; edges.len()];
    let mut in_adj = vec![0u32; edges.len()];
    for (k, &(a, b, _)) in edges.iter().enumerate() {
        out_adj[out_fill[a as usize] as usize] = k as u32;
        out_fill[a as usize] += 1;
        in_adj[in_fill[b as usize] as usize] = k as u32;
        in_fill[b as usize] += 1;
    }
    // Kahn over the blocks (roots).
    let mut indeg: Vec<u32> = (0..n).map(|i| in_off[i + 1] - in_off[i]).collect();
    let mut order: Vec<u32> = (0..n as u32).filter(|&v| root[v as usize] == v && indeg[v as usize] == 0).collect();
    let mut head = 0;
    while head < order.len() {
        let b = order[head] as usize;
        head += 1;
        for k in out_off[b]..out_off[b + 1] {
            let t = edges[out_adj[k as usize] as usize].1 as usize;
            indeg[t] -= 1;
            if indeg[t] == 0 {
                order.push(t as u32);
            }
        }
    }
    let mut xs = vec![0f64; n];
    for &b in &order {
        let b = b as usize;
        let mut x = 0f64;
        for k in in_off[b]..in_off[b + 1] {
            let (a, _, w) = edges[in_adj[k as usize] as usize];
            x = x.max(xs[a as usize] + w);
        }
        xs[b] = x;
    }
    for &b in order.iter().rev() {
        let b = b as usize;
        let mut lim = f64::INFINITY;
        for k in out_off[b]..out_off[b + 1] {
            let (_, t, w) = edges[out_adj[k as usize] as usize];
            lim = lim.min(xs[t as usize] - w);
        }
        if lim.is_finite() {
            xs[b] = xs[b].max(lim);
        }
    }
    (0..n).map(|v| xs[root[v] as usize]).collect()
}
