//! Synthetic tests of the `deps_viewer` edge modes, kinds, markers and text, transcribed from
//! the reference's unit tests (`tests/ut/py/test_deps_viewer.py`, runtime-formats.md §9.1),
//! plus cycle fallback and a scale check.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::too_many_lines, clippy::many_single_char_names, clippy::similar_names)]

use pypto_analysis::deps_graph::SidecarTask;
use pypto_analysis::deps_markers::{marker_text, DepsTaskKind};
use pypto_analysis::deps_viewer::DepsViewer;
use pypto_analysis::edge_modes::{EdgeMode, EdgeSelection};
use pypto_formats::deps::{self, Deps};
use serde_json::{json, Value};
use std::fmt::Write as _;

fn parse(v: &Value) -> Deps {
    deps::parse("deps.json", v.to_string().as_bytes()).unwrap()
}

/// deps.json with one row per edge, `source` per edge (default explicit), like the
/// reference's `_write_deps_edges`.
fn edges_only(edges: &[(u64, u64)], creator: &[(u64, u64)], tensormap: &[(u64, u64)]) -> Deps {
    let rows: Vec<Value> = edges
        .iter()
        .map(|&(p, s)| {
            let src = if creator.contains(&(p, s)) {
                "creator"
            } else if tensormap.contains(&(p, s)) {
                "tensormap"
            } else {
                "explicit"
            };
            if src == "explicit" {
                json!({"pred": p.to_string(), "succ": s.to_string(), "arg": -1, "source": src})
            } else {
                json!({"pred": p.to_string(), "succ": s.to_string(), "arg": 0, "source": src,
                       "tensor_id": "7"})
            }
        })
        .collect();
    parse(&json!({"tasks": [], "tensors": [], "edges": rows}))
}

fn pairs(v: &DepsViewer<'_>, sel: &EdgeSelection) -> Vec<(u64, u64)> {
    sel.shown_pairs(&v.graph)
}

fn removed(v: &DepsViewer<'_>, sel: &EdgeSelection) -> Vec<(u64, u64)> {
    sel.removed_pairs(&v.graph)
}

#[test]
fn diamond_keeps_every_edge() {
    let d = edges_only(&[(1, 2), (1, 3), (2, 4), (3, 4)], &[], &[]);
    let v = DepsViewer::new(&d, &[], None);
    for mode in [EdgeMode::Reduced, EdgeMode::ReducedDataflow] {
        let sel = v.select(mode);
        assert!(sel.reduction_applied);
        assert_eq!(removed(&v, &sel), vec![]);
        assert_eq!(pairs(&v, &sel), vec![(1, 2), (1, 3), (2, 4), (3, 4)]);
    }
    assert!(pairs(&v, &v.select(EdgeMode::Omitted)).is_empty());
}

#[test]
fn multi_hop_shortcut_is_dropped() {
    let d = edges_only(&[(1, 2), (2, 3), (3, 4), (1, 4)], &[], &[]);
    let v = DepsViewer::new(&d, &[], None);
    let sel = v.select(EdgeMode::Reduced);
    assert_eq!(removed(&v, &sel), vec![(1, 4)]);
    assert_eq!(pairs(&v, &sel), vec![(1, 2), (2, 3), (3, 4)]);
    let om = v.select(EdgeMode::Omitted);
    assert_eq!(pairs(&v, &om), vec![(1, 4)]);
    // No creator rows: the dataflow modes agree.
    assert_eq!(pairs(&v, &v.select(EdgeMode::ReducedDataflow)), vec![(1, 2), (2, 3), (3, 4)]);
    assert_eq!(pairs(&v, &v.select(EdgeMode::OmittedDataflow)), vec![(1, 4)]);
}

#[test]
fn tensormap_shortcut_is_dropped() {
    let d = edges_only(&[(1, 2), (2, 3), (1, 3)], &[], &[(1, 3)]);
    let v = DepsViewer::new(&d, &[], None);
    let sel = v.select(EdgeMode::Reduced);
    assert_eq!(removed(&v, &sel), vec![(1, 3)]);
    assert_eq!(pairs(&v, &sel), vec![(1, 2), (2, 3)]);
}

#[test]
fn creator_edge_is_protected() {
    // t0 -> t1 -> t3 -> t4 plus t0 -> t4 (creator): the lifetime edge survives `reduced`.
    let d = edges_only(&[(1, 2), (2, 3), (3, 4), (1, 4)], &[(1, 4)], &[]);
    let v = DepsViewer::new(&d, &[], None);
    let sel = v.select(EdgeMode::Reduced);
    assert_eq!(sel.removed_count, 0);
    assert_eq!(sel.shown.len(), 4);
    // Edges are sorted: (1,2), (1,4), (2,3), (3,4).
    assert!(v.graph.is_creator_protected(1));
    assert!(!v.graph.is_creator_protected(0));
    let lines = sel.stdout_lines(&v.graph, "graph.txt");
    assert_eq!(lines[0], "Transitive reduction: removed 0 redundant edge(s) of 4 (4 kept)");
    // Dataflow: the creator row has no task arg, so no proof: kept too.
    let df = v.select(EdgeMode::ReducedDataflow);
    assert_eq!(df.removed_count, 0);
}

#[test]
fn protected_edge_still_makes_others_redundant() {
    // 1 -> 2 (creator) -> 3, and 1 -> 3 explicit: redundant through the protected edge.
    let d = edges_only(&[(1, 2), (2, 3), (1, 3)], &[(1, 2), (2, 3)], &[]);
    let v = DepsViewer::new(&d, &[], None);
    assert_eq!(removed(&v, &v.select(EdgeMode::Reduced)), vec![(1, 3)]);
}

#[test]
fn cycle_falls_back_to_full() {
    for edges in [vec![(1u64, 2u64), (2, 1)], vec![(1, 2), (2, 3), (3, 3)]] {
        let d = edges_only(&edges, &[], &[]);
        let v = DepsViewer::new(&d, &[], None);
        assert!(v.graph.topo_order.is_none());
        for mode in EdgeMode::ALL {
            let sel = v.select(mode);
            assert!(!sel.reduction_applied);
            assert_eq!(sel.cycle_fallback, mode != EdgeMode::Full);
            assert_eq!(sel.shown.len(), edges.len());
            assert_eq!(sel.output_file_name(), "deps_viewer.txt");
            let lines = sel.stdout_lines(&v.graph, "deps_viewer.txt");
            assert_eq!(lines.len(), 1);
            assert!(lines[0].starts_with("Wrote deps_viewer.txt ("));
            if mode != EdgeMode::Full {
                assert_eq!(
                    sel.warning().unwrap(),
                    format!(
                        "warning: dependency graph has a cycle; transitive reduction skipped, \
                         emitting full graph (--edge-mode {} ignored)",
                        mode.as_str()
                    )
                );
            }
        }
    }
}

/// alloc(1) -> A(2) -> B(3) -> C(4) plus alloc -> B, alloc -> C; A is `OUTPUT_EXISTING`, B
/// and C `INOUT` views of alloc-owned storage (`_output_lifetime_graph`).
fn output_lifetime(regions: &[(u64, Vec<u32>, Vec<u32>); 3]) -> Value {
    let (alloc, ids) = (1u64, [2u64, 3, 4]);
    let mut tasks = Vec::new();
    let mut edges = Vec::new();
    for (i, &t) in ids.iter().enumerate() {
        let (off, shape, strides) = &regions[i];
        let ty = if i == 0 { "OUTPUT_EXISTING" } else { "INOUT" };
        tasks.push(json!({"task_id": t.to_string(), "kernel_ids": [-1, 1, -1], "args": [
            {"idx": 0, "type": ty, "tensor_id": "7", "dtype": "FLOAT32", "shape": shape,
             "start_offset": off.to_string(), "strides": strides}]}));
    }
    // Consumer-grouped rows in submit order.
    for (i, &t) in ids.iter().enumerate() {
        let (off, shape, strides) = &regions[i];
        edges.push(json!({"pred": alloc.to_string(), "succ": t.to_string(), "arg": 0,
            "source": "creator", "tensor_id": "7", "consumer_dtype": "FLOAT32",
            "consumer_shape": shape, "consumer_start_offset": off.to_string(),
            "consumer_strides": strides}));
        if i > 0 {
            let (poff, pshape, pstrides) = &regions[i - 1];
            edges.push(json!({"pred": ids[i - 1].to_string(), "succ": t.to_string(), "arg": 0,
                "source": "tensormap", "overlap": "covered", "tensor_id": "7",
                "consumer_dtype": "FLOAT32", "consumer_shape": shape,
                "consumer_start_offset": off.to_string(), "consumer_strides": strides,
                "producer_shape": pshape, "producer_start_offset": poff.to_string(),
                "producer_strides": pstrides}));
        }
    }
    json!({"tasks": tasks, "tensors": [{"tensor_id": "7", "buffer_addr": "4096", "version": 0,
        "dtype": "FLOAT32", "buffer_numel": "128"}], "edges": edges})
}

#[test]
fn dataflow_drops_only_full_range_middle_output() {
    let d = parse(&output_lifetime(&[(0, vec![2, 4], vec![4, 1]), (0, vec![8], vec![1]), (0, vec![4, 2], vec![2, 1])]));
    let v = DepsViewer::new(&d, &[], None);
    let sel = v.select(EdgeMode::ReducedDataflow);
    assert!(sel.reduction_applied);
    assert_eq!(removed(&v, &sel), vec![(1, 3)]);
    assert_eq!(pairs(&v, &sel), vec![(1, 2), (1, 4), (2, 3), (3, 4)]);
    assert_eq!(pairs(&v, &v.select(EdgeMode::OmittedDataflow)), vec![(1, 3)]);
    // All alloc edges are creator-protected: plain `reduced` removes nothing.
    assert_eq!(v.select(EdgeMode::Reduced).removed_count, 0);
}

#[test]
fn dataflow_keeps_partial_coverage() {
    // C covers only half of B's bytes: B's later coverage fails, so alloc -> B stays.
    let d = parse(&output_lifetime(&[(0, vec![8], vec![1]), (0, vec![8], vec![1]), (0, vec![4], vec![1])]));
    let v = DepsViewer::new(&d, &[], None);
    assert_eq!(v.select(EdgeMode::ReducedDataflow).removed_count, 0);
    // A strided INOUT view of B with stride 2 over 8 elements is covered by A's 16.
    let d = parse(&output_lifetime(&[(0, vec![16], vec![1]), (0, vec![8], vec![2]), (0, vec![16], vec![1])]));
    let v = DepsViewer::new(&d, &[], None);
    let sel = v.select(EdgeMode::ReducedDataflow);
    assert_eq!(removed(&v, &sel), vec![(1, 3)]);
}

#[test]
fn dataflow_text_keeps_lifetime_boundaries_and_omits_middle() {
    let r = || (0u64, vec![8u32], vec![1u32]);
    let d = parse(&output_lifetime(&[r(), r(), r()]));
    let v = DepsViewer::new(&d, &[], None);
    let reduced = v.render_text(EdgeMode::ReducedDataflow, "deps.json");
    let omitted = v.render_text(EdgeMode::OmittedDataflow, "deps.json");
    assert!(reduced.contains("unique_task_edges: 4"));
    assert!(omitted.contains("unique_task_edges: 1"));
    assert!(omitted.contains("=== TASK 1"));
    assert!(omitted.contains("  -> 3"));
}

#[test]
fn dataflow_does_not_cross_output_existing_reuse_boundary() {
    let (alloc, a1, b1, a2, b2) = (1u64, 2u64, 3u64, 4u64, 5u64);
    let view = json!({"consumer_dtype": "FLOAT32", "consumer_shape": [8],
        "consumer_start_offset": "0", "consumer_strides": [1]});
    let mut tasks = Vec::new();
    let mut edges = Vec::new();
    for (t, ty) in [(a1, "OUTPUT_EXISTING"), (b1, "INOUT"), (a2, "OUTPUT_EXISTING"), (b2, "INOUT")] {
        tasks.push(json!({"task_id": t.to_string(), "kernel_ids": [-1, 1, -1], "args": [
            {"idx": 0, "type": ty, "tensor_id": "7", "dtype": "FLOAT32", "shape": [8],
             "start_offset": "0", "strides": [1]}]}));
        let mut row = json!({"pred": alloc.to_string(), "succ": t.to_string(), "arg": 0,
            "source": "creator", "tensor_id": "7"});
        for (k, val) in view.as_object().unwrap() {
            row[k] = val.clone();
        }
        edges.push(row);
    }
    for (p, s) in [(a1, b1), (a2, b2)] {
        let mut row = json!({"pred": p.to_string(), "succ": s.to_string(), "arg": 0,
            "source": "tensormap", "overlap": "covered", "tensor_id": "7",
            "producer_shape": [8], "producer_start_offset": "0", "producer_strides": [1]});
        for (k, val) in view.as_object().unwrap() {
            row[k] = val.clone();
        }
        edges.push(row);
    }
    edges.push(json!({"pred": b1.to_string(), "succ": a2.to_string(), "arg": -1,
        "source": "explicit"}));
    let d = parse(&json!({"tasks": tasks, "tensors": [{"tensor_id": "7", "buffer_addr": "4096",
        "version": 0, "dtype": "FLOAT32", "buffer_numel": "128"}], "edges": edges}));
    let v = DepsViewer::new(&d, &[], None);
    let sel = v.select(EdgeMode::ReducedDataflow);
    assert_eq!(sel.removed_count, 0);
    assert_eq!(sel.shown.len(), 7);
}

#[test]
fn ring_ids_display_as_tuples_in_stats_and_text() {
    let ring = 1u64 << 32;
    let (a, b, c) = (ring + 1, ring + 2, ring + 3);
    let d = edges_only(&[(a, b), (b, c), (a, c)], &[], &[]);
    let v = DepsViewer::new(&d, &[], None);
    let sel = v.select(EdgeMode::Reduced);
    let out = sel.stdout_lines(&v.graph, &sel.output_file_name());
    assert_eq!(
        out,
        vec![
            "Transitive reduction: removed 1 redundant edge(s) of 3 (2 kept)".to_owned(),
            "  - (1, 1) -> (1, 3)".to_owned(),
            "Wrote deps_viewer_reduced.txt (3 tasks, 2 unique edges, 2 annotated edges, format=text)".to_owned(),
        ]
    );
    let text = v.render_selection(&sel, "deps.json");
    assert!(text.contains("unique_task_edges: 2\n  annotated_edges: 2\n"));
    let om = v.select(EdgeMode::Omitted);
    assert_eq!(om.stdout_lines(&v.graph, "x.txt")[0], "Redundant edges only: showing 1 redundant edge(s) of 3");
    let text = v.render_selection(&om, "deps.json");
    assert!(text.contains("=== TASK (1, 1) kind=alloc func_id=none ===\nFANIN 0\nFANOUT 1\n  -> (1, 3)\n"));
    assert!(!text.contains("  -> (1, 2)"));
    assert!(text.contains("annotated_edges: 1\n"));
    // Full mode prints no reduction line.
    let full = v.select(EdgeMode::Full);
    let lines = full.stdout_lines(&v.graph, "deps_viewer.txt");
    assert_eq!(lines.len(), 1);
    assert!(full.warning().is_none());
}

#[test]
fn kinds_and_labels_in_text() {
    let d = parse(&json!({"tasks": [
        {"task_id": "2", "kernel_ids": [-1, -1, -1]},
        {"task_id": "3", "kernel_ids": [-1, 2, -1], "block_num": 4},
        {"task_id": "4", "kernel_ids": [-1, -1, -1], "block_num": 2},
        {"task_id": "9", "kernel_ids": [-1, -1, -1]}],
        "tensors": [], "edges": [{"pred": "2", "succ": "3", "arg": -1, "source": "explicit"}]}));
    // Node 1 only in the perf sidecar (alloc); 4 and 9 are dummies without edges: not nodes.
    let side = [SidecarTask { task_id: 1, func_id: None }];
    let v = DepsViewer::new(&d, &side, None);
    assert_eq!(v.graph.node_ids, vec![1, 2, 3]);
    assert_eq!(v.kinds, vec![DepsTaskKind::Alloc, DepsTaskKind::Dummy, DepsTaskKind::Submit]);
    let text = v.render_text(EdgeMode::Full, "deps.json");
    let expected = "SUMMARY
  source_deps_json: deps.json
  tasks: 3
  unique_task_edges: 1
  annotated_edges: 1
  tensors: 0
  perf_sidecar: yes
  func_name_map: no

TASK INDEX
TASK 1 kind=alloc func_id=none fanin=0 fanout=0
TASK 2 kind=dummy func_id=none fanin=0 fanout=1
TASK 3 kind=submit func_id=[-1,2,-1] SPMD block num = 4 fanin=1 fanout=0

=== TASK 1 kind=alloc func_id=none ===
FANIN 0
FANOUT 0

=== TASK 2 kind=dummy func_id=none ===
FANIN 0
FANOUT 1
  -> 3

=== TASK 3 kind=submit func_id=[-1,2,-1] SPMD block num = 4 ===
FANIN 1
  <- 2
FANOUT 0
";
    assert_eq!(text, expected);
}

#[test]
fn func_name_map_flag() {
    let d = parse(&json!({"tasks": [{"task_id": "1", "kernel_ids": [7, -1, -1]}], "edges": []}));
    let nm = pypto_formats::name_map::parse("name_map.json", br#"{"callable_id_to_name": {"7": "kernel_add"}}"#).unwrap();
    let v = DepsViewer::new(&d, &[], None);
    assert!(v.perf_sidecar && !v.func_name_map);
    let v = DepsViewer::new(&d, &[], Some(&nm));
    assert!(v.func_name_map);
    // Only a sidecar task with a named func.
    let d = parse(&json!({"tasks": [], "edges": []}));
    let side = [SidecarTask { task_id: 5, func_id: Some(7) }];
    let v = DepsViewer::new(&d, &side, Some(&nm));
    assert!(v.perf_sidecar && v.func_name_map);
    let v = DepsViewer::new(&d, &[], Some(&nm));
    assert!(!v.perf_sidecar && !v.func_name_map);
}

fn marker_of(v: &DepsViewer<'_>, id: u64) -> &'static str {
    marker_text(v.markers[v.graph.node_index(id).unwrap() as usize])
}

#[test]
fn markers_alloc_only_predecessors_give_no_star() {
    let mut d = edges_only(&[(1, 3), (2, 3)], &[], &[]);
    let t = parse(&json!({"tasks": [{"task_id": "3", "kernel_ids": [-1, 7, -1]}]}));
    d.tasks = t.tasks;
    d.args = t.args;
    let v = DepsViewer::new(&d, &[], None);
    assert_eq!(marker_of(&v, 1), "🔥");
    assert_eq!(marker_of(&v, 2), "🔥");
    assert_eq!(marker_of(&v, 3), "");
}

#[test]
fn markers_star_with_alloc_and_early_dispatch_predecessors() {
    let mut d = edges_only(&[(1, 3), (2, 3)], &[], &[]);
    let t = parse(&json!({"tasks": [
        {"task_id": "2", "kernel_ids": [-1, 6, -1], "early_dispatch": true},
        {"task_id": "3", "kernel_ids": [-1, 7, -1]}]}));
    d.tasks = t.tasks;
    d.args = t.args;
    let v = DepsViewer::new(&d, &[], None);
    assert_eq!(marker_of(&v, 1), "🔥");
    assert_eq!(marker_of(&v, 2), "🔥");
    assert_eq!(marker_of(&v, 3), "⭐");
}

#[test]
fn markers_no_star_when_a_predecessor_lacks_fire_and_both_markers() {
    let mut d = edges_only(&[(1, 4), (2, 4), (3, 4), (2, 5)], &[], &[]);
    let t = parse(&json!({"tasks": [
        {"task_id": "2", "kernel_ids": [-1, 6, -1], "early_dispatch": true},
        {"task_id": "3", "kernel_ids": [-1, 7, -1]},
        {"task_id": "4", "kernel_ids": [-1, 8, -1]},
        {"task_id": "5", "kernel_ids": [-1, 8, -1], "early_dispatch": true}]}));
    d.tasks = t.tasks;
    d.args = t.args;
    let v = DepsViewer::new(&d, &[], None);
    assert_eq!(marker_of(&v, 4), "");
    assert_eq!(marker_of(&v, 5), "🔥⭐");
    // Markers use the full edge set whatever the mode.
    assert_eq!(marker_of(&v, 3), "");
}

/// Deterministic xorshift for the scale test.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// 100k tasks, 250k edges with locality (each task depends on 2–3 recent tasks, some long
/// shortcuts, alloc creators with wide fanout); correctness against a brute-force check on a
/// sample, time printed (not asserted; run with `--release --nocapture`).
#[test]
fn scale_100k_tasks_250k_edges() {
    scale_case("creator allocs", "creator", 20);
    // Worst realistic shape: wide-fanout alloc edges that are reduction candidates, so
    // every target block's window reaches back to the graph start.
    scale_case("tensormap allocs", "tensormap", 20);
    // Every 4th task also carries a long shortcut: many targets with wide windows.
    scale_case("long shortcuts", "tensormap", 4);
}

fn scale_case(label: &str, alloc_source: &'static str, long_every: u64) {
    // Full size in release (`cargo test --release ... scale -- --nocapture` prints times);
    // a fifth in debug builds to keep the default test run quick.
    let n: u64 = if cfg!(debug_assertions) { 20_000 } else { 100_000 };
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut rows = Vec::new();
    let ring = 1u64 << 32;
    for t in 1..n {
        let k = 2 + rng.next() % 2;
        for _ in 0..k {
            let back = if rng.next().is_multiple_of(long_every) { 1 + rng.next() % 2000 } else { 1 + rng.next() % 8 };
            let p = t.saturating_sub(back);
            rows.push((p, t, "tensormap"));
        }
        if rng.next().is_multiple_of(40) {
            rows.push((ring + rng.next() % 16, t, alloc_source));
        }
    }
    rows.sort_by_key(|r| r.1);
    let mut json_rows = String::from("{\"edges\":[");
    for (i, (p, s, src)) in rows.iter().enumerate() {
        if i > 0 {
            json_rows.push(',');
        }
        let _ = write!(json_rows, "{{\"pred\":\"{p}\",\"succ\":\"{s}\",\"arg\":0,\"source\":\"{src}\",\"tensor_id\":\"7\"}}");
    }
    json_rows.push_str("]}");
    let d = deps::parse("deps.json", json_rows.as_bytes()).unwrap();
    let t0 = std::time::Instant::now();
    let v = DepsViewer::new(&d, &[], None);
    let t_build = t0.elapsed();
    let t1 = std::time::Instant::now();
    let sel = v.select(EdgeMode::Reduced);
    let t_reduce = t1.elapsed();
    let t2 = std::time::Instant::now();
    let df = v.select(EdgeMode::ReducedDataflow);
    let t_df = t2.elapsed();
    eprintln!(
        "scale ({label}): {} nodes, {} unique edges; build {t_build:?}, reduced {t_reduce:?} ({} removed), \
         reduced_dataflow {t_df:?} ({} removed)",
        v.graph.node_count(),
        v.graph.edge_count(),
        sel.removed_count,
        df.removed_count
    );
    assert!(sel.removed_count > 0);
    // Brute-force check on a sample of edges: redundant iff the succ is reachable from
    // another successor of the pred.
    let g = &v.graph;
    for e in (0..g.edge_count()).step_by(997) {
        let (u, w) = (g.edge_pred[e], g.edge_succ[e]);
        let mut seen = vec![false; g.node_count()];
        let mut stack: Vec<u32> = g.out_edges(u).map(|x| g.edge_succ[x]).filter(|&x| x != w).collect();
        let mut reach = false;
        while let Some(x) = stack.pop() {
            if x == w {
                reach = true;
                break;
            }
            if std::mem::replace(&mut seen[x as usize], true) {
                continue;
            }
            stack.extend(g.out_edges(x).map(|y| g.edge_succ[y]));
        }
        let expect = reach && !g.is_creator_protected(e);
        assert_eq!(sel.removed[e], expect, "edge {e}");
        // No task args: creator rows veto the dataflow proof.
        assert_eq!(df.removed[e], expect, "dataflow edge {e}");
    }
}
