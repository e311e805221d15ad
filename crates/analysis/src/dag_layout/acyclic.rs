//! Phase 1 of the layered layout: cycle breaking. `deps.json` is a DAG by construction, so a
//! cycle means malformed input; it is reported (the input edges turned around, the self
//! loops dropped) and the layout goes on.
//!
//! An iterative depth-first search from every unvisited node in index order, out-edges in
//! input order, reverses each back edge (an edge into a node still on the DFS stack). The
//! result is acyclic, and the same input always reverses the same edges. O(V + E).

/// The edge set the later phases see: every non-self-loop input edge, oriented so that the
/// graph is acyclic.
#[derive(Debug, Clone, Default)]
pub(super) struct Oriented {
    /// Upper end (source after orientation) per oriented edge.
    pub from: Vec<u32>,
    /// Lower end per oriented edge.
    pub to: Vec<u32>,
    /// Input edge index per oriented edge.
    pub input: Vec<u32>,
    /// Input edge indices turned around to break cycles, ascending.
    pub reversed: Vec<u32>,
    /// Input edge indices with `source == target`, ascending (not laid out).
    pub self_loops: Vec<u32>,
}

/// Out-edge CSR over `edges` (input edge ids), skipping self loops.
fn out_csr(n: usize, edges: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    let mut off = vec![0u32; n + 1];
    for &(u, v) in edges {
        if u != v {
            off[u as usize + 1] += 1;
        }
    }
    for i in 0..n {
        off[i + 1] += off[i];
    }
    let mut fill = off.clone();
    let mut adj = vec![0u32; off[n] as usize];
    for (e, &(u, v)) in edges.iter().enumerate() {
        if u != v {
            adj[fill[u as usize] as usize] = e as u32;
            fill[u as usize] += 1;
        }
    }
    (off, adj)
}

/// The depth-first search from one unvisited root, marking back edges. Not inlined: a web
/// worker runs a function's first call in V8's baseline tier, so hot loops live in
/// functions called many times (see `order::gap_crossings`).
#[inline(never)]
fn dfs_from(
    root: usize,
    edges: &[(u32, u32)],
    off: &[u32],
    adj: &[u32],
    state: &mut [u8],
    is_back: &mut [bool],
    stack: &mut Vec<(u32, u32)>,
) {
    state[root] = 1;
    stack.push((root as u32, off[root]));
    while let Some(top) = stack.last_mut() {
        let u = top.0 as usize;
        if top.1 < off[u + 1] {
            let e = adj[top.1 as usize] as usize;
            top.1 += 1;
            let v = edges[e].1 as usize;
            match state[v] {
                0 => {
                    state[v] = 1;
                    stack.push((v as u32, off[v]));
                }
                1 => is_back[e] = true,
                _ => {}
            }
        } else {
            state[u] = 2;
            stack.pop();
        }
    }
}

/// Orients `edges` (endpoints already checked to be `< n`) into a DAG.
pub(super) fn break_cycles(n: usize, edges: &[(u32, u32)]) -> Oriented {
    let (off, adj) = out_csr(n, edges);
    // 0 = unvisited, 1 = on the DFS stack, 2 = finished.
    let mut state = vec![0u8; n];
    let mut is_back = vec![false; edges.len()];
    let mut stack: Vec<(u32, u32)> = Vec::new();
    for root in 0..n {
        if state[root] == 0 {
            dfs_from(root, edges, &off, &adj, &mut state, &mut is_back, &mut stack);
        }
    }
    let mut out = Oriented::default();
    for (e, &(u, v)) in edges.iter().enumerate() {
        if u == v {
            out.self_loops.push(e as u32);
        } else if is_back[e] {
            out.reversed.push(e as u32);
            out.from.push(v);
            out.to.push(u);
            out.input.push(e as u32);
        } else {
            out.from.push(u);
            out.to.push(v);
            out.input.push(e as u32);
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::many_single_char_names)]
mod tests {
    use super::*;

    /// True when the oriented edges admit a topological order.
    fn is_acyclic(n: usize, o: &Oriented) -> bool {
        let pairs: Vec<(u32, u32)> = o.from.iter().copied().zip(o.to.iter().copied()).collect();
        let (off, adj) = out_csr(n, &pairs);
        let mut indeg = vec![0u32; n];
        for &t in &o.to {
            indeg[t as usize] += 1;
        }
        let mut ready: Vec<usize> = (0..n).filter(|&i| indeg[i] == 0).collect();
        let mut seen = 0;
        while let Some(u) = ready.pop() {
            seen += 1;
            for k in off[u]..off[u + 1] {
                let t = pairs[adj[k as usize] as usize].1 as usize;
                indeg[t] -= 1;
                if indeg[t] == 0 {
                    ready.push(t);
                }
            }
        }
        seen == n
    }

    #[test]
    fn dag_is_untouched() {
        let edges = [(0, 1), (1, 2), (0, 2), (3, 2)];
        let o = break_cycles(4, &edges);
        assert!(o.reversed.is_empty() && o.self_loops.is_empty());
        assert_eq!(o.from, vec![0, 1, 0, 3]);
        assert_eq!(o.to, vec![1, 2, 2, 2]);
    }

    #[test]
    fn cycles_are_broken_and_reported() {
        // 0→1→2→0 and 2→3→2, plus a self loop on 3.
        let edges = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 2), (3, 3)];
        let o = break_cycles(4, &edges);
        assert_eq!(o.reversed, vec![2, 4]);
        assert_eq!(o.self_loops, vec![5]);
        assert_eq!(o.from.len(), 5);
        assert!(is_acyclic(4, &o));
        // Deterministic.
        let o2 = break_cycles(4, &edges);
        assert_eq!((o.from, o.to, o.reversed), (o2.from, o2.to, o2.reversed));
    }

    #[test]
    fn long_cycle_without_recursion() {
        let n = 200_000;
        let mut edges: Vec<(u32, u32)> = (0..n - 1).map(|i| (i, i + 1)).collect();
        edges.push((n - 1, 0));
        let o = break_cycles(n as usize, &edges);
        assert_eq!(o.reversed, vec![n - 1]);
        assert!(is_acyclic(n as usize, &o));
    }
}
