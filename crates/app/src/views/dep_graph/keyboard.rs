//! Keyboard navigation of the task dependency graph, for users who cannot or do not use a
//! pointer (issue 20, item 5): where a key moves the selection. `]` / `[` (or n / p) step
//! through the tasks in reading order — the largest component first, then layer by layer, each
//! layer along its cross axis ([`reading_order`]); the arrow keys are spatial: along the layers
//! (↓ / ↑ in a top-to-bottom layout, → / ← in a left-to-right one) they follow the shown
//! edges to the successor / predecessor nearest across, and across the layers they move to
//! the next task of the same layer ([`target`]). The view selects, reveals and announces the
//! result (`mod.rs`); a move that cannot be made says why ([`Miss`]).

use std::cmp::Ordering;

use super::GraphData;

/// A keyboard move of the selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Move {
    Next,
    Previous,
    Down,
    Up,
    Left,
    Right,
}

/// Why a move goes nowhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Miss {
    /// The graph has no node.
    Empty,
    /// No successor (in the shown edge mode) to follow.
    NoSuccessor,
    /// No predecessor to follow.
    NoPredecessor,
    /// No further node of the layer that way.
    LayerEnd,
}

/// The layer coordinate (along the edges) and the cross coordinate of node `i`.
fn axes(d: &GraphData, i: usize) -> (f32, f32) {
    let (x, y) = (d.x.get(i).copied().unwrap_or(0.0), d.y.get(i).copied().unwrap_or(0.0));
    if d.header.left_right {
        (x, y)
    } else {
        (y, x)
    }
}

/// The nodes in reading order: weakly-connected components over the shown edges, the one with
/// the most nodes first (ties: the one starting higher / further left), each by layer, then
/// across the layer.
pub(super) fn reading_order(d: &GraphData) -> Vec<u32> {
    let n = d.x.len();
    let mut component = vec![u32::MAX; n];
    let mut members: Vec<Vec<u32>> = Vec::new();
    for start in 0..n {
        if component[start] != u32::MAX {
            continue;
        }
        let c = u32::try_from(members.len()).unwrap_or(u32::MAX);
        let mut nodes = vec![start as u32];
        component[start] = c;
        let mut k = 0;
        while let Some(&u) = nodes.get(k) {
            k += 1;
            let u = u as usize;
            for &v in d.out_adj.get(u).into_iter().chain(d.in_adj.get(u)).flatten() {
                if let Some(slot) = component.get_mut(v as usize).filter(|s| **s == u32::MAX) {
                    *slot = c;
                    nodes.push(v);
                }
            }
        }
        members.push(nodes);
    }
    let by_position = |a: &u32, b: &u32| {
        let (la, ca) = axes(d, *a as usize);
        let (lb, cb) = axes(d, *b as usize);
        la.total_cmp(&lb).then(ca.total_cmp(&cb)).then(a.cmp(b))
    };
    for nodes in &mut members {
        nodes.sort_by(by_position);
    }
    members.sort_by(|a, b| {
        b.len().cmp(&a.len()).then_with(|| match (a.first(), b.first()) {
            (Some(x), Some(y)) => by_position(x, y),
            _ => Ordering::Equal,
        })
    });
    members.into_iter().flatten().collect()
}

/// The node `m` moves the selection to from `from` (`None`: nothing selected — any move
/// starts at the first node in reading order, Previous at the last). `order` is
/// [`reading_order`]'s, `rank` its inverse (position per node).
pub(super) fn target(d: &GraphData, order: &[u32], rank: &[u32], from: Option<u32>, m: Move) -> Result<u32, Miss> {
    let (Some(&first), Some(&last)) = (order.first(), order.last()) else { return Err(Miss::Empty) };
    let Some(from) = from.filter(|&f| (f as usize) < d.x.len()) else {
        return Ok(if m == Move::Previous { last } else { first });
    };
    let lr = d.header.left_right;
    // Along the layers: successors ahead, predecessors behind; across: within the layer.
    let (forward, backward) = if lr { (Move::Right, Move::Left) } else { (Move::Down, Move::Up) };
    let step = |ahead: bool| {
        let (at, len) = (rank.get(from as usize).map_or(0, |&r| r as usize), order.len());
        order.get(if ahead { (at + 1) % len } else { (at + len - 1) % len }).copied().unwrap_or(first)
    };
    let (layer0, cross0) = axes(d, from as usize);
    match m {
        Move::Next => Ok(step(true)),
        Move::Previous => Ok(step(false)),
        m if m == forward || m == backward => {
            let adj = if m == forward { &d.out_adj } else { &d.in_adj };
            let nearest = adj.get(from as usize).into_iter().flatten().copied().min_by(|&a, &b| {
                let (la, ca) = axes(d, a as usize);
                let (lb, cb) = axes(d, b as usize);
                (ca - cross0)
                    .abs()
                    .total_cmp(&(cb - cross0).abs())
                    .then((la - layer0).abs().total_cmp(&(lb - layer0).abs()))
                    .then(a.cmp(&b))
            });
            nearest.ok_or(if m == forward { Miss::NoSuccessor } else { Miss::NoPredecessor })
        }
        m => {
            // Across: the nearest node of the same layer (its centre within half a node).
            let ahead = matches!(m, Move::Down | Move::Right);
            let half = d.h.get(from as usize).copied().unwrap_or(0.0).min(d.w.get(from as usize).copied().unwrap_or(0.0)) / 2.0;
            (0..d.x.len())
                .filter(|&i| i != from as usize)
                .filter_map(|i| {
                    let (layer, cross) = axes(d, i);
                    let gap = if ahead { cross - cross0 } else { cross0 - cross };
                    ((layer - layer0).abs() <= half && gap > 0.0).then_some((gap, i as u32))
                })
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
                .map(|(_, i)| i)
                .ok_or(Miss::LayerEnd)
        }
    }
}

/// The position of each node in `order`.
pub(super) fn ranks(order: &[u32]) -> Vec<u32> {
    let mut rank = vec![0; order.len()];
    for (k, &node) in order.iter().enumerate() {
        if let Some(r) = rank.get_mut(node as usize) {
            *r = u32::try_from(k).unwrap_or(u32::MAX);
        }
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample_graph;
    use super::*;

    // The sample (top to bottom): node 0 (x 75, y 18) and node 2 (x 245, y 18) on the first
    // layer, both → node 1 (x 75, y 102).

    #[test]
    fn reading_order_is_by_layer_then_across() {
        let d = sample_graph();
        let order = reading_order(&d);
        assert_eq!(order, vec![0, 2, 1]);
        assert_eq!(ranks(&order), vec![0, 2, 1]);
    }

    #[test]
    fn largest_component_first_then_by_position() {
        let mut d = sample_graph();
        // Drop the edge 2 → 1: node 2 is a component of its own, after {0, 1}.
        d.out_adj[2].clear();
        d.in_adj[1].retain(|&u| u != 2);
        assert_eq!(reading_order(&d), vec![0, 1, 2]);
    }

    #[test]
    fn next_and_previous_wrap_and_start_from_nothing() {
        let d = sample_graph();
        let order = reading_order(&d);
        let rank = ranks(&order);
        let go = |from, m| target(&d, &order, &rank, from, m);
        assert_eq!(go(None, Move::Next), Ok(0));
        assert_eq!(go(None, Move::Previous), Ok(1));
        assert_eq!(go(Some(0), Move::Next), Ok(2));
        assert_eq!(go(Some(1), Move::Next), Ok(0), "wraps");
        assert_eq!(go(Some(0), Move::Previous), Ok(1), "wraps back");
    }

    #[test]
    fn arrows_follow_edges_along_the_layers_and_move_within_a_layer() {
        let d = sample_graph();
        let order = reading_order(&d);
        let rank = ranks(&order);
        let go = |from, m| target(&d, &order, &rank, from, m);
        assert_eq!(go(Some(0), Move::Down), Ok(1), "the successor");
        assert_eq!(go(Some(1), Move::Down), Err(Miss::NoSuccessor));
        // Two predecessors: the one nearest across (node 0 is right above node 1).
        assert_eq!(go(Some(1), Move::Up), Ok(0));
        assert_eq!(go(Some(0), Move::Up), Err(Miss::NoPredecessor));
        assert_eq!(go(Some(0), Move::Right), Ok(2), "the next task of the layer");
        assert_eq!(go(Some(2), Move::Left), Ok(0));
        assert_eq!(go(Some(2), Move::Right), Err(Miss::LayerEnd));
        assert_eq!(go(Some(1), Move::Left), Err(Miss::LayerEnd), "alone in its layer");
    }

    #[test]
    fn left_to_right_turns_the_arrows() {
        let mut d = sample_graph();
        // The same graph left to right: swap the axes.
        std::mem::swap(&mut d.x, &mut d.y);
        std::mem::swap(&mut d.w, &mut d.h);
        d.header.left_right = true;
        let order = reading_order(&d);
        assert_eq!(order, vec![0, 2, 1]);
        let rank = ranks(&order);
        let go = |from, m| target(&d, &order, &rank, from, m);
        assert_eq!(go(Some(0), Move::Right), Ok(1), "→ follows the edge");
        assert_eq!(go(Some(1), Move::Left), Ok(0));
        assert_eq!(go(Some(0), Move::Down), Ok(2), "↓ stays in the layer");
        assert_eq!(go(Some(0), Move::Up), Err(Miss::LayerEnd));
    }
}
