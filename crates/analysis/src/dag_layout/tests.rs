//! Whole-pipeline tests of the layered layout: invariants on hand-made, random and real
//! fixture graphs, both directions.

use super::*;
use crate::deps_graph::DepsGraph;
use crate::edge_modes::{select_edges, EdgeMode};

fn sizes(n: usize) -> Vec<NodeSize> {
    (0..n).map(|i| NodeSize { width: 60.0 + (i % 5) as f32 * 20.0, height: 24.0 + (i % 3) as f32 * 8.0 }).collect()
}

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// A random DAG with fan-out hubs and long edges (edges point from lower to higher index).
fn random_dag(seed: u64, n: usize) -> Vec<(u32, u32)> {
    let mut s = seed;
    let mut edges = Vec::new();
    for v in 1..n as u64 {
        for _ in 0..=xorshift(&mut s) % 3 {
            let back = 1 + xorshift(&mut s) % 40.min(v);
            edges.push(((v - back) as u32, v as u32));
        }
        if v % 50 == 0 {
            for k in 1..12u64 {
                if v + k * 3 < n as u64 {
                    edges.push((v as u32, (v + k * 3) as u32));
                }
            }
        }
    }
    edges
}

/// Checks every layout invariant the view relies on.
fn check(sz: &[NodeSize], edges: &[(u32, u32)], opts: &LayoutOptions, l: &Layout) {
    let n = sz.len();
    let lr = opts.direction == Direction::LeftRight;
    assert_eq!(l.x.len(), n);
    assert_eq!(l.edge_offsets.len(), edges.len() + 1);
    // Layers respect every edge (reversed ones the other way round).
    let mut reversed = vec![false; edges.len()];
    for &e in &l.reversed_edges {
        reversed[e as usize] = true;
    }
    for (e, &(u, v)) in edges.iter().enumerate() {
        let (lu, lv) = (l.layer[u as usize], l.layer[v as usize]);
        if u == v {
            assert!(l.self_loops.contains(&(e as u32)));
            assert!(l.polyline(e).is_empty());
        } else if reversed[e] {
            assert!(lu > lv, "reversed edge {e}");
        } else {
            assert!(lv > lu, "edge {e}: {u}@{lu} -> {v}@{lv}");
        }
        // Polylines run from the source to the target, one point per layer boundary/dummy.
        if u != v {
            let pl = l.polyline(e);
            let span = 2 * lu.abs_diff(lv);
            assert!((span..=span + 2).contains(&(pl.len() as u32)), "edge {e}: {} points", pl.len());
            // Monotone along the layer axis.
            let depth = |p: [f32; 2]| if lr { p[0] } else { p[1] };
            let sign = if lv > lu { 1.0 } else { -1.0 };
            assert!(pl.windows(2).all(|w| sign * (depth(w[1]) - depth(w[0])) >= 0.0), "edge {e} not monotone");
            let (a, b) = (pl[0], pl[pl.len() - 1]);
            let along = |p: [f32; 2]| if lr { p[1] } else { p[0] };
            assert!((along(a) - if lr { l.y[u as usize] } else { l.x[u as usize] }).abs() < 1e-3);
            assert!((along(b) - if lr { l.y[v as usize] } else { l.x[v as usize] }).abs() < 1e-3);
        }
    }
    // No overlaps within a layer, order consistent with coordinates.
    let mut by_layer: Vec<Vec<u32>> = vec![Vec::new(); l.layer_count as usize];
    for v in 0..n {
        by_layer[l.layer[v] as usize].push(v as u32);
    }
    for layer in &mut by_layer {
        layer.sort_by_key(|&v| l.order[v as usize]);
        for w in layer.windows(2) {
            let (a, b) = (w[0] as usize, w[1] as usize);
            let (pa, pb, sa, sb) =
                if lr { (l.y[a], l.y[b], sz[a].height, sz[b].height) } else { (l.x[a], l.x[b], sz[a].width, sz[b].width) };
            assert!(pb - pa >= f32::midpoint(sa, sb) + opts.node_sep as f32 - 1e-2, "overlap {a} {b}: {pa} {pb}");
        }
    }
    // Layers are separated along the other axis.
    for (v, s) in sz.iter().enumerate() {
        let inside = |x: f32, lo: f32, hi: f32| x >= lo - 1e-3 && x <= hi + 1e-3;
        assert!(inside(l.x[v] - s.width / 2.0, l.bbox.min_x, l.bbox.max_x));
        assert!(inside(l.y[v] + s.height / 2.0, l.bbox.min_y, l.bbox.max_y));
    }
    assert!(l.crossings <= l.initial_crossings);
    assert!(l.total_edge_length.is_finite());
}

fn both_directions() -> [LayoutOptions; 2] {
    [
        LayoutOptions::default(),
        LayoutOptions { direction: Direction::LeftRight, heuristic: OrderHeuristic::Median, ..LayoutOptions::default() },
    ]
}

#[test]
fn empty_one_node_and_disconnected() {
    for opts in both_directions() {
        let l = layout_all(&[], &[], &opts).unwrap();
        assert!(l.x.is_empty() && l.edge_offsets == vec![0] && l.layer_count == 0);
        let sz = sizes(1);
        let l = layout_all(&sz, &[], &opts).unwrap();
        assert_eq!(l.layer, vec![0]);
        check(&sz, &[], &opts, &l);
        // Two components and an isolated node.
        let sz = sizes(7);
        let edges = [(0, 1), (1, 2), (3, 4), (3, 5)];
        let l = layout_all(&sz, &edges, &opts).unwrap();
        check(&sz, &edges, &opts, &l);
        assert_eq!(l.crossings, 0);
    }
}

#[test]
fn chains_stay_straight() {
    // A chain 0→1→2→3 with a long edge 0→3 beside it, a fan-out 4→{5,6,7}, and a pure
    // chain 8→9→10→11 of different widths.
    let mut sz = vec![NodeSize { width: 80.0, height: 30.0 }; 12];
    sz[9].width = 200.0;
    sz[10].width = 30.0;
    let edges = [(0, 1), (1, 2), (2, 3), (0, 3), (4, 5), (4, 6), (4, 7), (8, 9), (9, 10), (10, 11)];
    let l = layout_all(&sz, &edges, &LayoutOptions::default()).unwrap();
    check(&sz, &edges, &LayoutOptions::default(), &l);
    assert_eq!(l.dummy_count, 2);
    assert!((l.x[1] - l.x[2]).abs() < 0.5, "{:?}", &l.x[..4]);
    let x: Vec<f32> = (8..12).map(|v| l.x[v]).collect();
    assert!(x.iter().all(|&xi| (xi - x[0]).abs() < 1e-3), "chain not straight: {x:?}");
    // The long edge's dummies are straight too (its inner points share one x).
    let pl = l.polyline(3);
    assert!(pl[1..5].iter().all(|p| (p[0] - pl[1][0]).abs() < 0.5), "{pl:?}");
    // The fan-out parent sits over its children's middle.
    assert!((l.x[4] - l.x[6]).abs() < 1e-3);
}

#[test]
fn cycles_are_broken_and_reported() {
    let sz = sizes(5);
    let edges = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 3), (3, 4), (4, 2)];
    for opts in both_directions() {
        let l = layout_all(&sz, &edges, &opts).unwrap();
        assert_eq!(l.reversed_edges, vec![2, 6]);
        assert_eq!(l.self_loops, vec![4]);
        check(&sz, &edges, &opts, &l);
        // A reversed edge's polyline still starts at its own source (node 2).
        let pl = l.polyline(2);
        let start = pl[0];
        let own = if opts.direction == Direction::LeftRight { l.y[2] } else { l.x[2] };
        let along = if opts.direction == Direction::LeftRight { start[1] } else { start[0] };
        assert!((along - own).abs() < 1e-3);
    }
}

#[test]
fn out_of_range_edge_is_an_error() {
    let err = layout_all(&sizes(2), &[(0, 5)], &LayoutOptions::default()).unwrap_err();
    assert_eq!(err, LayoutError::EdgeOutOfRange { edge: 0, node: 5, node_count: 2 });
    assert!(err.to_string().contains("node 5"));
}

#[test]
fn random_graphs_keep_every_invariant_and_are_deterministic() {
    for seed in [1, 7, 42] {
        let n = 1500;
        let edges = random_dag(seed, n);
        let sz = sizes(n);
        for opts in both_directions() {
            let a = layout_all(&sz, &edges, &opts).unwrap();
            check(&sz, &edges, &opts, &a);
            assert!(a.crossings < a.initial_crossings, "no improvement: {}", a.crossings);
            let b = layout_all(&sz, &edges, &opts).unwrap();
            assert_eq!(a, b);
        }
    }
}

#[test]
fn cancel_and_progress() {
    let edges = random_dag(3, 500);
    let sz = sizes(500);
    let mut phases = Vec::new();
    let l = layout(&sz, &edges, &LayoutOptions::default(), &mut |p| {
        phases.push(p.phase);
        true
    });
    assert!(l.is_ok());
    for p in [Phase::Acyclic, Phase::Rank, Phase::Normalize, Phase::Order, Phase::Position, Phase::Route] {
        assert!(phases.contains(&p), "{p:?} not reported");
    }
    for stop in [Phase::Acyclic, Phase::Order, Phase::Route] {
        let mut seen_order = 0;
        let r = layout(&sz, &edges, &LayoutOptions::default(), &mut |p| {
            if p.phase == Phase::Order {
                seen_order += 1;
            }
            // Stop at the phase, for Order at its second sweep.
            !(p.phase == stop && (stop != Phase::Order || seen_order > 2))
        });
        assert_eq!(r.unwrap_err(), LayoutError::Cancelled(stop));
    }
}

#[test]
fn deep_chain_without_recursion() {
    let n = 100_000;
    let edges: Vec<(u32, u32)> = (0..n as u32 - 1).map(|i| (i, i + 1)).collect();
    let sz = vec![NodeSize { width: 40.0, height: 20.0 }; n];
    let l = layout_all(&sz, &edges, &LayoutOptions::default()).unwrap();
    assert_eq!(l.layer_count as usize, n);
    assert!(l.x.iter().all(|&x| (x - l.x[0]).abs() < 1e-3));
}

/// Every real fixture DAG, every edge mode's edge set, both directions.
#[test]
fn fixture_dags() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/runtime");
    let mut laid = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    for dir in dirs {
        let path = dir.join("deps.json");
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let deps = pypto_formats::deps::parse(&path.display().to_string(), &bytes).unwrap();
        let g = DepsGraph::build(&deps, &[], &|_| false);
        let sz: Vec<NodeSize> = (0..g.node_count()).map(|_| NodeSize { width: 140.0, height: 36.0 }).collect();
        for mode in [EdgeMode::Full, EdgeMode::Reduced, EdgeMode::OmittedDataflow] {
            let sel = select_edges(&g, &deps, mode, None);
            let edges: Vec<(u32, u32)> = sel.shown.iter().map(|&e| (g.edge_pred[e as usize], g.edge_succ[e as usize])).collect();
            for opts in both_directions() {
                let l = layout_all(&sz, &edges, &opts).unwrap();
                check(&sz, &edges, &opts, &l);
                assert!(l.reversed_edges.is_empty(), "{}: fixture DAG has a cycle", path.display());
                laid += 1;
            }
        }
        if dir.ends_with("a2a3sim-L4-TestPagedAttention_CaseMediumLocal") {
            let edges: Vec<(u32, u32)> = g.edge_pred.iter().copied().zip(g.edge_succ.iter().copied()).collect();
            let l = layout_all(&sz, &edges, &LayoutOptions::default()).unwrap();
            // 520 nodes, 760 edges; the update chains are 16 long.
            assert_eq!((g.node_count(), edges.len()), (520, 760));
            assert!(l.layer_count >= 17);
            assert!(l.crossings * 2 <= l.initial_crossings.max(1), "{} vs {}", l.crossings, l.initial_crossings);
        }
    }
    assert!(laid >= 30, "only {laid} layouts");
}

/// The drawn polylines cross exactly as often as the counted layer-gap crossings (all bends
/// happen between layers), in both directions, with mixed node sizes.
#[test]
fn drawn_crossings_equal_counted_crossings() {
    for seed in [2, 9] {
        let n = 800;
        let edges = random_dag(seed, n);
        let sz = sizes(n);
        for opts in both_directions() {
            let l = layout_all(&sz, &edges, &opts).unwrap();
            let lines: Vec<Vec<[f64; 2]>> =
                (0..edges.len()).map(|e| l.polyline(e).iter().map(|p| [f64::from(p[0]), f64::from(p[1])]).collect()).collect();
            let drawn = metrics::geometric_crossings(lines.iter().map(Vec::as_slice), u64::MAX).unwrap();
            assert_eq!(drawn, l.crossings, "{:?}", opts.direction);
            let len: f64 = lines.iter().map(|p| metrics::polyline_length(p)).sum();
            assert!((len - l.total_edge_length).abs() <= 1e-6 * len.max(1.0));
        }
    }
}

/// `k` random DAGs of varied sizes side by side (node indices interleaved across components).
fn many_components(k: usize, seed: u64) -> (Vec<NodeSize>, Vec<(u32, u32)>, usize) {
    let mut s = seed;
    let mut parts: Vec<Vec<(u32, u32)>> = Vec::new();
    let mut counts = Vec::new();
    for c in 0..k {
        let n = 1 + (xorshift(&mut s) % 60) as usize + if c == 0 { 120 } else { 0 };
        counts.push(n);
        parts.push(random_dag(seed + c as u64, n));
    }
    // Global index of component c's i-th node: components' nodes are numbered in blocks.
    let mut base = vec![0u32; k];
    for c in 1..k {
        base[c] = base[c - 1] + counts[c - 1] as u32;
    }
    let total: usize = counts.iter().sum();
    let edges = parts
        .iter()
        .enumerate()
        .flat_map(|(c, es)| {
            let b = base[c];
            es.iter().map(move |&(u, v)| (u + b, v + b))
        })
        .collect();
    (sizes(total), edges, total)
}

/// What the view relies on in a packed layout (layers and orders are per component): no two
/// nodes overlap, polylines run from their source to their target, the box holds everything.
fn check_packed(sz: &[NodeSize], edges: &[(u32, u32)], opts: &LayoutOptions, l: &Layout) {
    let n = sz.len();
    assert_eq!((l.x.len(), l.y.len(), l.edge_offsets.len()), (n, n, edges.len() + 1));
    let rect =
        |v: usize| (l.x[v] - sz[v].width / 2.0, l.y[v] - sz[v].height / 2.0, l.x[v] + sz[v].width / 2.0, l.y[v] + sz[v].height / 2.0);
    for a in 0..n {
        let ra = rect(a);
        assert!(ra.0 >= l.bbox.min_x - 1e-3 && ra.2 <= l.bbox.max_x + 1e-3 && ra.1 >= l.bbox.min_y - 1e-3 && ra.3 <= l.bbox.max_y + 1e-3);
        for b in a + 1..n {
            let rb = rect(b);
            let apart = ra.2 <= rb.0 + 1e-3 || rb.2 <= ra.0 + 1e-3 || ra.3 <= rb.1 + 1e-3 || rb.3 <= ra.1 + 1e-3;
            assert!(apart, "nodes {a} and {b} overlap");
        }
    }
    let lr = opts.direction == Direction::LeftRight;
    for (e, &(u, v)) in edges.iter().enumerate() {
        let pl = l.polyline(e);
        if u == v {
            assert!(pl.is_empty());
            continue;
        }
        let along = |p: [f32; 2]| if lr { p[1] } else { p[0] };
        let at = |v: u32| if lr { l.y[v as usize] } else { l.x[v as usize] };
        assert!((along(pl[0]) - at(u)).abs() < 1e-2 && (along(pl[pl.len() - 1]) - at(v)).abs() < 1e-2, "edge {e} ends");
    }
}

#[test]
fn packed_components_do_not_overlap_and_approach_the_aspect() {
    let (sz, edges, n) = many_components(40, 9);
    for opts in both_directions() {
        for aspect in [16.0 / 9.0, 1.0, 0.5, 3.0] {
            let p = layout_packed(&sz, &edges, &opts, aspect, 40.0, &mut |_| true).unwrap();
            let l = &p.layout;
            assert_eq!(p.components.len(), 40);
            check_packed(&sz, &edges, &opts, l);
            // Component boxes are disjoint and hold their nodes and polylines.
            for (i, (_, a)) in p.components.iter().enumerate() {
                for (_, b) in &p.components[i + 1..] {
                    let apart = a.max_x <= b.min_x || b.max_x <= a.min_x || a.max_y <= b.min_y || b.max_y <= a.min_y;
                    assert!(apart, "components overlap: {a:?} {b:?}");
                }
            }
            for v in 0..n {
                let b = p.components[p.component[v] as usize].1;
                assert!(l.x[v] >= b.min_x && l.x[v] <= b.max_x && l.y[v] >= b.min_y && l.y[v] <= b.max_y);
            }
            for (e, &(u, _)) in edges.iter().enumerate() {
                let b = p.components[p.component[u as usize] as usize].1;
                for q in l.polyline(e) {
                    assert!(q[0] >= b.min_x - 0.01 && q[0] <= b.max_x + 0.01 && q[1] >= b.min_y - 0.01 && q[1] <= b.max_y + 0.01);
                }
            }
            let got = f64::from(l.bbox.max_x - l.bbox.min_x) / f64::from(l.bbox.max_y - l.bbox.min_y);
            assert!((got / aspect).ln().abs() < 0.15_f64, "aspect {got:.2} for target {aspect:.2} ({:?})", opts.direction);
            // Numbered by size: component 0 is the biggest.
            assert!(p.components.windows(2).all(|w| w[0].0 >= w[1].0));
        }
    }
}

#[test]
fn packing_one_component_is_the_plain_layout() {
    let edges = random_dag(3, 300);
    let sz = sizes(300);
    for opts in both_directions() {
        let plain = layout_all(&sz, &edges, &opts).unwrap();
        let p = layout_packed(&sz, &edges, &opts, 16.0 / 9.0, 40.0, &mut |_| true).unwrap();
        assert_eq!(p.layout, plain);
        assert_eq!(p.components, vec![(300, plain.bbox)]);
    }
}

#[test]
fn packing_isolated_nodes_and_is_deterministic() {
    // 500 lone nodes and one small chain.
    let sz = sizes(503);
    let edges = vec![(500, 501), (501, 502)];
    let opts = LayoutOptions::default();
    let a = layout_packed(&sz, &edges, &opts, 2.0, 20.0, &mut |_| true).unwrap();
    let b = layout_packed(&sz, &edges, &opts, 2.0, 20.0, &mut |_| true).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.components.len(), 501);
    assert_eq!(a.components[0].0, 3, "the chain is component 0");
    let l = &a.layout;
    let got = f64::from(l.bbox.max_x - l.bbox.min_x) / f64::from(l.bbox.max_y - l.bbox.min_y);
    assert!((got / 2.0).ln().abs() < 0.35, "aspect {got}");
    check_packed(&sz, &edges, &opts, l);
}

#[test]
fn components_are_weakly_connected_sets() {
    let (comp, counts) = pack::components(7, &[(0, 1), (3, 2), (2, 1), (5, 6)]);
    assert_eq!(counts, vec![4, 2, 1]);
    assert_eq!(comp, vec![0, 0, 0, 0, 2, 1, 1]);
}
