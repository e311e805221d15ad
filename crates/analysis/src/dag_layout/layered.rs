//! Phase 3 of the layered layout: the proper layered graph. Every oriented edge spanning
//! `k > 1` layers becomes a chain of `k - 1` dummy nodes, one per crossed layer, so every
//! *segment* joins two adjacent layers. Real nodes keep their indices `0..n`; dummies follow,
//! the dummies of one edge contiguous and top-down. The segments of oriented edge `k` are
//! `chain_off[k]..chain_off[k + 1]`, top-down; edge routing walks them. O(V + E + dummies).

/// The layered graph (see the module doc).
#[derive(Debug, Clone, Default)]
pub(super) struct Layered {
    /// Real nodes (`0..real`); the rest are dummies.
    pub real: usize,
    /// Layer per node (real and dummy).
    pub rank: Vec<u32>,
    /// Number of layers.
    pub layer_count: usize,
    /// Upper and lower node per segment.
    pub seg_up: Vec<u32>,
    pub seg_down: Vec<u32>,
    /// Segments of oriented edge `k`: `chain_off[k]..chain_off[k + 1]`.
    pub chain_off: Vec<u32>,
    /// Segments whose upper node is `v`: `down_adj[down_off[v]..down_off[v + 1]]`.
    pub down_off: Vec<u32>,
    pub down_adj: Vec<u32>,
    /// Segments whose lower node is `v`: `up_adj[up_off[v]..up_off[v + 1]]`.
    pub up_off: Vec<u32>,
    pub up_adj: Vec<u32>,
}

impl Layered {
    /// Builds the layered graph for `real` nodes with `rank`s and the oriented edges.
    pub fn build(real: usize, rank: &[u32], from: &[u32], to: &[u32]) -> Self {
        let mut g = Layered { real, rank: rank.to_vec(), layer_count: rank.iter().max().map_or(0, |&m| m as usize + 1), ..Self::default() };
        g.chain_off.reserve(from.len() + 1);
        g.chain_off.push(0);
        for (&u, &v) in from.iter().zip(to) {
            g.push_chain(u, v, rank[u as usize], rank[v as usize]);
        }
        let n = g.rank.len();
        (g.down_off, g.down_adj) = csr(n, &g.seg_up);
        (g.up_off, g.up_adj) = csr(n, &g.seg_down);
        g
    }

    /// The segments (and dummies) of edge `u → v` spanning ranks `ru..rv`. Not inlined (a
    /// web worker's first call of a function runs in V8's baseline tier, see
    /// `order::gap_crossings`).
    #[inline(never)]
    fn push_chain(&mut self, u: u32, v: u32, ru: u32, rv: u32) {
        let mut prev = u;
        for r in ru + 1..rv {
            let d = self.rank.len() as u32;
            self.rank.push(r);
            self.seg_up.push(prev);
            self.seg_down.push(d);
            prev = d;
        }
        self.seg_up.push(prev);
        self.seg_down.push(v);
        self.chain_off.push(self.seg_up.len() as u32);
    }

    /// Total nodes (real + dummy).
    pub fn node_count(&self) -> usize {
        self.rank.len()
    }

    pub fn is_dummy(&self, v: u32) -> bool {
        v as usize >= self.real
    }

    /// Segments entering `v` from the layer above.
    pub fn ups(&self, v: u32) -> &[u32] {
        &self.up_adj[self.up_off[v as usize] as usize..self.up_off[v as usize + 1] as usize]
    }

    /// Segments leaving `v` to the layer below.
    pub fn downs(&self, v: u32) -> &[u32] {
        &self.down_adj[self.down_off[v as usize] as usize..self.down_off[v as usize + 1] as usize]
    }
}

/// CSR of segment ids grouped by `key[segment]`, segment ids ascending within a group.
fn csr(n: usize, key: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut off = vec![0u32; n + 1];
    for &k in key {
        off[k as usize + 1] += 1;
    }
    for i in 0..n {
        off[i + 1] += off[i];
    }
    let mut fill = off.clone();
    let mut adj = vec![0u32; key.len()];
    for (s, &k) in key.iter().enumerate() {
        adj[fill[k as usize] as usize] = s as u32;
        fill[k as usize] += 1;
    }
    (off, adj)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::many_single_char_names)]
mod tests {
    use super::*;

    #[test]
    fn long_edges_get_one_dummy_per_crossed_layer() {
        // 0 (rank 0) → 1 (rank 3), 0 → 2 (rank 1).
        let g = Layered::build(3, &[0, 3, 1], &[0, 0], &[1, 2]);
        assert_eq!(g.node_count(), 5);
        assert_eq!(g.layer_count, 4);
        assert_eq!(g.rank[3..], [1, 2]);
        assert_eq!(g.chain_off, vec![0, 3, 4]);
        for s in 0..g.seg_up.len() {
            assert_eq!(g.rank[g.seg_down[s] as usize], g.rank[g.seg_up[s] as usize] + 1);
        }
        assert_eq!(g.downs(0).len(), 2);
        assert_eq!(g.ups(1).len(), 1);
        assert!(g.is_dummy(3) && !g.is_dummy(2));
    }
}
