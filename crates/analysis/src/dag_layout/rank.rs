//! Phase 2 of the layered layout: layer (rank) assignment on the oriented DAG.
//!
//! Longest path from the sources (Kahn's algorithm, FIFO queue seeded in index order, so the
//! order and the ranks are deterministic) puts every node on the highest layer its
//! predecessors allow, so every edge points down at least one layer. Optional tightening
//! (a cheap stand-in for network simplex's edge-length minimisation): in reverse
//! topological order, a node with at least as many out-edges as in-edges moves down to just
//! above its nearest successor; this changes its edges' total span by `(in - out) ×
//! distance` ≤ 0 and is what keeps an `alloc` task (one creator edge to each of 16 update
//! tasks) next to the first update instead of on layer 0. Neutral moves (in = out) matter
//! because they chain: in the paged-attention pattern `pv` (1 in, 1 out) moves down next to
//! its `update`, which lets `softmax` (1 in, 2 out) follow with a real gain, and `qk` after
//! it, exactly the staircase network simplex finds. Successors are final when a node is
//! visited, so one pass reaches the fixed point.
//! O(V + E).

/// Ranks for `n` nodes and the acyclic edges `from[k] → to[k]`; the smallest rank is 0 and
/// `rank[to[k]] > rank[from[k]]` for every edge.
pub(super) fn assign_ranks(n: usize, from: &[u32], to: &[u32], tighten: bool) -> Vec<u32> {
    let (out_off, out_adj) = csr(n, from, to);
    let mut indeg = vec![0u32; n];
    for &t in to {
        indeg[t as usize] += 1;
    }
    let in_count = indeg.clone();
    let mut order: Vec<u32> = (0..n as u32).filter(|&i| indeg[i as usize] == 0).collect();
    let mut head = 0;
    let mut rank = vec![0u32; n];
    while head < order.len() {
        let u = order[head] as usize;
        head += 1;
        for k in out_off[u]..out_off[u + 1] {
            let v = out_adj[k as usize] as usize;
            rank[v] = rank[v].max(rank[u] + 1);
            indeg[v] -= 1;
            if indeg[v] == 0 {
                order.push(v as u32);
            }
        }
    }
    // The caller guarantees acyclic input; a node left out (cannot happen) keeps rank 0.
    if tighten {
        for &u in order.iter().rev() {
            let u = u as usize;
            let outs = out_off[u + 1] - out_off[u];
            if outs == 0 || outs < in_count[u] {
                continue;
            }
            let nearest = (out_off[u]..out_off[u + 1]).map(|k| rank[out_adj[k as usize] as usize]).min().unwrap_or(0);
            if nearest > rank[u] + 1 {
                rank[u] = nearest - 1;
            }
        }
    }
    let min = rank.iter().copied().min().unwrap_or(0);
    if min > 0 {
        for r in &mut rank {
            *r -= min;
        }
    }
    rank
}

/// Out-neighbour CSR.
fn csr(n: usize, from: &[u32], to: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut off = vec![0u32; n + 1];
    for &u in from {
        off[u as usize + 1] += 1;
    }
    for i in 0..n {
        off[i + 1] += off[i];
    }
    let mut fill = off.clone();
    let mut adj = vec![0u32; from.len()];
    for (&u, &v) in from.iter().zip(to) {
        adj[fill[u as usize] as usize] = v;
        fill[u as usize] += 1;
    }
    (off, adj)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::many_single_char_names)]
mod tests {
    use super::*;

    fn check_edges(rank: &[u32], from: &[u32], to: &[u32]) {
        for (&u, &v) in from.iter().zip(to) {
            assert!(rank[v as usize] > rank[u as usize], "{u}->{v}: {rank:?}");
        }
    }

    #[test]
    fn longest_path() {
        // 0→1→2, 0→2, 3 isolated.
        let (from, to) = (vec![0, 1, 0], vec![1, 2, 2]);
        let r = assign_ranks(4, &from, &to, false);
        assert_eq!(r, vec![0, 1, 2, 0]);
        check_edges(&r, &from, &to);
    }

    #[test]
    fn tightening_pulls_fan_out_sources_down() {
        // Chain 0→1→2→3→4; alloc 5 feeds 3 and 4 (2 out, 0 in): longest path puts it on 0,
        // tightening just above 3.
        let (from, to) = (vec![0, 1, 2, 3, 5, 5], vec![1, 2, 3, 4, 3, 4]);
        let loose = assign_ranks(6, &from, &to, false);
        assert_eq!(loose[5], 0);
        let tight = assign_ranks(6, &from, &to, true);
        assert_eq!(tight[5], 2);
        check_edges(&tight, &from, &to);
        let len = |r: &[u32]| -> u32 { from.iter().zip(&to).map(|(&u, &v)| r[v as usize] - r[u as usize]).sum() };
        assert!(len(&tight) < len(&loose));
    }

    #[test]
    fn empty_and_single() {
        assert!(assign_ranks(0, &[], &[], true).is_empty());
        assert_eq!(assign_ranks(1, &[], &[], true), vec![0]);
    }
}
