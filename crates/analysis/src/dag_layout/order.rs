//! Phase 4 of the layered layout: the order of the nodes inside each layer (crossing
//! reduction).
//!
//! - Initial order: an iterative depth-first walk over downward segments from the real nodes
//!   in (layer, index) order; each node is appended to its layer when first reached, so a
//!   fan-out's children and a chain's dummies start next to each other (dagre's `initOrder`).
//! - Sweeps alternate down (each layer sorted by the barycenter or median position of its
//!   neighbours in the layer above) and up (neighbours below). Nodes without neighbours on
//!   that side keep their position, the others fill around them in key order, ties by
//!   current position (dagre's `sort`), so a sweep is deterministic.
//! - After every sweep the crossings are counted exactly (Barth–Mutzel–Jünger accumulator
//!   tree, O(S log V) for S segments); the best order seen is kept, so the result is never
//!   worse than the initial order. Sweeping stops after `max_sweeps`, after `patience`
//!   sweeps without improvement, or at zero crossings.

use super::layered::Layered;

/// Which neighbour statistic orders a layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum OrderHeuristic {
    /// Mean position of the neighbours.
    Barycenter,
    /// Median position of the neighbours (mean of the two middle ones for an even count).
    Median,
}

/// Layers as node lists, in order.
pub(super) type Layers = Vec<Vec<u32>>;

/// The initial order (see the module doc).
pub(super) fn initial_order(g: &Layered) -> Layers {
    let mut layers: Layers = vec![Vec::new(); g.layer_count];
    let mut by_rank: Vec<u32> = (0..g.real as u32).collect();
    by_rank.sort_by_key(|&v| (g.rank[v as usize], v));
    let mut seen = vec![false; g.node_count()];
    let mut stack: Vec<u32> = Vec::new();
    for &start in &by_rank {
        if seen[start as usize] {
            continue;
        }
        stack.push(start);
        while let Some(v) = stack.pop() {
            if std::mem::replace(&mut seen[v as usize], true) {
                continue;
            }
            layers[g.rank[v as usize] as usize].push(v);
            for &s in g.downs(v).iter().rev() {
                let w = g.seg_down[s as usize];
                if !seen[w as usize] {
                    stack.push(w);
                }
            }
        }
    }
    layers
}

/// Position of every node inside its layer.
pub(super) fn positions(g: &Layered, layers: &Layers) -> Vec<u32> {
    let mut pos = vec![0u32; g.node_count()];
    for layer in layers {
        for (i, &v) in layer.iter().enumerate() {
            pos[v as usize] = i as u32;
        }
    }
    pos
}

/// Exact number of segment crossings of the order (`pos` from [`positions`]).
pub(super) fn count_crossings(g: &Layered, layers: &Layers, pos: &[u32]) -> u64 {
    let mut total = 0u64;
    let mut seq: Vec<u32> = Vec::new();
    let mut tree: Vec<u32> = Vec::new();
    for l in 0..layers.len().saturating_sub(1) {
        total += gap_crossings(g, &layers[l], layers[l + 1].len(), pos, &mut seq, &mut tree);
    }
    total
}

/// Crossings between the segments leaving `upper` (one layer, in order) and a lower layer of
/// `lower_len` nodes.
///
/// Not inlined (nor the other per-layer steps here and in `position`): a web worker runs a
/// function's first call in V8's baseline tier and switches to optimised code only at a
/// later call, so the hot loops live in functions called once per layer, not once per
/// layout.
#[inline(never)]
fn gap_crossings(g: &Layered, upper: &[u32], lower_len: usize, pos: &[u32], seq: &mut Vec<u32>, tree: &mut Vec<u32>) -> u64 {
    seq.clear();
    for &u in upper {
        let start = seq.len();
        seq.extend(g.downs(u).iter().map(|&s| pos[g.seg_down[s as usize] as usize]));
        seq[start..].sort_unstable();
    }
    inversions(seq, lower_len, tree)
}

/// Pairs `i < j` with `seq[i] > seq[j]`, values `< size` (Fenwick tree).
fn inversions(seq: &[u32], size: usize, tree: &mut Vec<u32>) -> u64 {
    tree.clear();
    tree.resize(size + 1, 0);
    let mut count = 0u64;
    for (inserted, &x) in seq.iter().enumerate() {
        // Inserted values <= x.
        let mut le = 0u64;
        let mut i = x as usize + 1;
        while i > 0 {
            le += u64::from(tree[i]);
            i &= i - 1;
        }
        count += inserted as u64 - le;
        let mut i = x as usize + 1;
        while i <= size {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
    count
}

/// One sweep; `down` orders layers 1.. by their upper neighbours, else layers ..L-1 by
/// their lower neighbours. `pos` is kept current.
pub(super) fn sweep(g: &Layered, layers: &mut Layers, pos: &mut [u32], down: bool, heuristic: OrderHeuristic) {
    let count = layers.len();
    let mut scratch = SweepScratch::default();
    for step in 1..count {
        let l = if down { step } else { count - 1 - step };
        order_layer(g, &mut layers[l], pos, down, heuristic, &mut scratch);
    }
}

/// Buffers reused by every [`order_layer`] call of a sweep.
#[derive(Default)]
struct SweepScratch {
    keyed: Vec<(f64, u32, u32)>,
    free: Vec<(u32, u32)>,
    neighbours: Vec<u32>,
}

/// Reorders one layer by its neighbours' positions (see the module doc); not inlined (see
/// [`gap_crossings`]).
#[inline(never)]
fn order_layer(g: &Layered, layer: &mut Vec<u32>, pos: &mut [u32], down: bool, heuristic: OrderHeuristic, sc: &mut SweepScratch) {
    let SweepScratch { keyed, free, neighbours: scratch } = sc;
    keyed.clear();
    free.clear();
    for &v in layer.iter() {
        let segs = if down { g.ups(v) } else { g.downs(v) };
        let here = pos[v as usize];
        if segs.is_empty() {
            free.push((here, v));
            continue;
        }
        scratch.clear();
        scratch.extend(segs.iter().map(|&s| {
            let w = if down { g.seg_up[s as usize] } else { g.seg_down[s as usize] };
            pos[w as usize]
        }));
        let key = match heuristic {
            OrderHeuristic::Barycenter => scratch.iter().map(|&p| f64::from(p)).sum::<f64>() / scratch.len() as f64,
            OrderHeuristic::Median => {
                scratch.sort_unstable();
                let m = scratch.len();
                f64::midpoint(f64::from(scratch[(m - 1) / 2]), f64::from(scratch[m / 2]))
            }
        };
        keyed.push((key, here, v));
    }
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    // Free nodes are already in position order; they keep their slots.
    layer.clear();
    let mut fi = 0;
    let place_free = |layer: &mut Vec<u32>, fi: &mut usize| {
        while *fi < free.len() && free[*fi].0 as usize <= layer.len() {
            layer.push(free[*fi].1);
            *fi += 1;
        }
    };
    place_free(layer, &mut fi);
    for &(_, _, v) in keyed.iter() {
        layer.push(v);
        place_free(layer, &mut fi);
    }
    while fi < free.len() {
        layer.push(free[fi].1);
        fi += 1;
    }
    for (i, &v) in layer.iter().enumerate() {
        pos[v as usize] = i as u32;
    }
}

/// Result of [`reduce`].
pub(super) struct Ordered {
    pub layers: Layers,
    pub initial_crossings: u64,
    pub crossings: u64,
    pub sweeps: u32,
}

/// Sweeps from the initial order, keeping the best; `keep_going(sweep)` is asked before
/// every sweep and stops the phase early (returning `None`) when it says no.
pub(super) fn reduce(
    g: &Layered,
    heuristic: OrderHeuristic,
    max_sweeps: u32,
    patience: u32,
    keep_going: &mut dyn FnMut(u32) -> bool,
) -> Option<Ordered> {
    let mut layers = initial_order(g);
    let mut pos = positions(g, &layers);
    let initial = count_crossings(g, &layers, &pos);
    let mut best = initial;
    let mut best_layers = layers.clone();
    let mut since_best = 0;
    let mut sweeps = 0;
    while sweeps < max_sweeps && best > 0 && since_best < patience {
        if !keep_going(sweeps) {
            return None;
        }
        sweep(g, &mut layers, &mut pos, sweeps % 2 == 0, heuristic);
        sweeps += 1;
        let c = count_crossings(g, &layers, &pos);
        if c < best {
            best = c;
            best_layers.clone_from(&layers);
            since_best = 0;
        } else {
            since_best += 1;
        }
    }
    Some(Ordered { layers: best_layers, initial_crossings: initial, crossings: best, sweeps })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::many_single_char_names)]
mod tests {
    use super::*;

    /// Crossings by brute force over segment pairs between the same layers.
    fn brute_crossings(g: &Layered, pos: &[u32]) -> u64 {
        let mut c = 0;
        for a in 0..g.seg_up.len() {
            for b in a + 1..g.seg_up.len() {
                let (ua, da, ub, db) = (g.seg_up[a], g.seg_down[a], g.seg_up[b], g.seg_down[b]);
                if g.rank[ua as usize] != g.rank[ub as usize] {
                    continue;
                }
                let (pu, pd) =
                    (i64::from(pos[ua as usize]) - i64::from(pos[ub as usize]), i64::from(pos[da as usize]) - i64::from(pos[db as usize]));
                if pu * pd < 0 {
                    c += 1;
                }
            }
        }
        c
    }

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    fn random_layered(seed: u64, n: usize) -> Layered {
        let mut s = seed;
        let rank: Vec<u32> = (0..n).map(|i| (i / 6) as u32).collect();
        let (mut from, mut to) = (Vec::new(), Vec::new());
        for v in 6..n {
            for _ in 0..=xorshift(&mut s) % 3 {
                let u = (xorshift(&mut s) % (v as u64 / 6 * 6)) as u32;
                from.push(u);
                to.push(v as u32);
            }
        }
        Layered::build(n, &rank, &from, &to)
    }

    #[test]
    fn counting_matches_brute_force() {
        for seed in 1..20 {
            let g = random_layered(seed, 60);
            let layers = initial_order(&g);
            let pos = positions(&g, &layers);
            assert_eq!(count_crossings(&g, &layers, &pos), brute_crossings(&g, &pos));
        }
    }

    #[test]
    fn sweeps_never_worse_and_layers_stay_permutations() {
        for heuristic in [OrderHeuristic::Barycenter, OrderHeuristic::Median] {
            for seed in 1..30 {
                let g = random_layered(seed, 120);
                let init = initial_order(&g);
                let r = reduce(&g, heuristic, 24, 4, &mut |_| true).unwrap();
                assert!(r.crossings <= r.initial_crossings);
                let pos = positions(&g, &r.layers);
                assert_eq!(count_crossings(&g, &r.layers, &pos), r.crossings);
                for (a, b) in init.iter().zip(&r.layers) {
                    let (mut a, mut b) = (a.clone(), b.clone());
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b);
                }
            }
        }
    }

    #[test]
    fn untangles_a_crossed_pair() {
        // 0,1 on layer 0; 2,3 on layer 1; 0→3, 1→2, and 0→... initial DFS order puts 3 first
        // under 0, so the order is already crossing-free.
        let g = Layered::build(4, &[0, 0, 1, 1], &[0, 1], &[3, 2]);
        let r = reduce(&g, OrderHeuristic::Barycenter, 8, 4, &mut |_| true).unwrap();
        assert_eq!(r.crossings, 0);
        // A forced crossing: K2,2 has one crossing in any order... it has none: 0→2,0→3,1→2,1→3
        // crosses once whatever the order.
        let g = Layered::build(4, &[0, 0, 1, 1], &[0, 0, 1, 1], &[2, 3, 2, 3]);
        let r = reduce(&g, OrderHeuristic::Median, 8, 4, &mut |_| true).unwrap();
        assert_eq!(r.crossings, 1);
    }

    #[test]
    fn cancel_stops_the_phase() {
        let g = random_layered(3, 120);
        assert!(reduce(&g, OrderHeuristic::Barycenter, 8, 4, &mut |_| false).is_none());
    }
}
