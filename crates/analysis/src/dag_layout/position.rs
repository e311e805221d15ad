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
pub(super) fn assign(
    g: &Layered,
    layers: &Layers,
    breadth: &[f64],
    sp: Spacing,
    passes: u32,
) -> Vec<f64> {
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
            let start = adj.len();
            let segs = if up { g.ups(v) } else { g.downs(v) };
            adj.extend(segs.iter().map(|&s| {
                let w = if up { g.seg_up[s as usize] } else { g.seg_down[s as usize] };
                (w, s)
            }));
            adj[start..].sort_by_key(|&(w, s)| (pos[w as usize], s));
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

/// Weight of a segment in the straightening objective (dot's ω: long-edge segments pull
/// hardest, so long edges stay straight).
fn seg_weight(g: &Layered, u: u32, v: u32) -> f64 {
    match (g.is_dummy(u), g.is_dummy(v)) {
        (true, true) => 8.0,
        (false, false) => 1.0,
        _ => 2.0,
    }
}

/// Layer-by-layer minimisation of `Σ ω(u, v) (x_u − x_v)²` over the segments with the
/// order and separations of each layer fixed: each layer in turn is solved exactly given
/// its neighbours' current coordinates (weighted isotonic regression by pool-adjacent-
/// violators over `x_i − offset_i`, `offset_i` = the cumulative separations), sweeping down
/// and up `passes` times. Convex block-coordinate descent, so the objective never grows.
/// O(passes × (V + S)).
fn refine(g: &Layered, layers: &Layers, x: &mut [f64], sep: &dyn Fn(u32, u32) -> f64, passes: u32) {
    let count = layers.len();
    // Pool: (weight sum, weighted target sum, first index).
    let mut pools: Vec<(f64, f64, usize)> = Vec::new();
    let mut target: Vec<(f64, f64)> = Vec::new();
    let mut offset: Vec<f64> = Vec::new();
    for pass in 0..passes {
        for step in 0..count {
            let l = if pass % 2 == 0 { step } else { count - 1 - step };
            let layer = &layers[l];
            target.clear();
            offset.clear();
            let mut off = 0.0;
            for (i, &v) in layer.iter().enumerate() {
                if i > 0 {
                    off += sep(layer[i - 1], v);
                }
                offset.push(off);
                let (mut w_sum, mut wx) = (0.0, 0.0);
                for &s in g.ups(v) {
                    let u = g.seg_up[s as usize];
                    let w = seg_weight(g, u, v);
                    w_sum += w;
                    wx += w * x[u as usize];
                }
                for &s in g.downs(v) {
                    let u = g.seg_down[s as usize];
                    let w = seg_weight(g, u, v);
                    w_sum += w;
                    wx += w * x[u as usize];
                }
                // A node without neighbours stays put (weak anchor).
                let anchor = 1e-3;
                w_sum += anchor;
                wx += anchor * x[v as usize];
                target.push((w_sum, wx / w_sum - off));
            }
            pools.clear();
            for (i, &(w, t)) in target.iter().enumerate() {
                pools.push((w, w * t, i));
                while pools.len() > 1 {
                    let (w2, s2, _) = pools[pools.len() - 1];
                    let (w1, s1, i1) = pools[pools.len() - 2];
                    if s1 / w1 > s2 / w2 {
                        pools.pop();
                        let last = pools.len() - 1;
                        pools[last] = (w1 + w2, s1 + s2, i1);
                    } else {
                        break;
                    }
                }
            }
            for (k, &(w, s, first)) in pools.iter().enumerate() {
                let end = pools.get(k + 1).map_or(layer.len(), |p| p.2);
                let y = s / w;
                for i in first..end {
                    x[layer[i] as usize] = y + offset[i];
                }
            }
        }
    }
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
            let inner = if g.is_dummy(v) {
                g.ups(v).iter().map(|&s| g.seg_up[s as usize]).find(|&u| g.is_dummy(u))
            } else {
                None
            };
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
        let layer = &layers[l];
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
    (root, align)
}

/// Horizontal compaction of the blocks of `root` (scanning from the left or the right).
fn compact(
    g: &Layered,
    layers: &Layers,
    root: &[u32],
    left: bool,
    sep: &dyn Fn(u32, u32) -> f64,
) -> Vec<f64> {
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
    let mut order: Vec<u32> = (0..n as u32)
        .filter(|&v| root[v as usize] == v && indeg[v as usize] == 0)
        .collect();
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
