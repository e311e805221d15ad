//! The dependency graph the worker sends (`pypto_replies::dep_graph`, built as the worker
//! builds it: deps.json, the perf sidecar from the resident model, the name map) against
//! `deps_viewer`'s own output on every runtime fixture that has it: the node set (`TASK
//! INDEX`, `tasks:`), each node's kind, SPMD block count and fan-in / fan-out, and per mode
//! the number of edges shown (`unique_task_edges` of `deps_viewer_<mode>.txt`). Then the laid
//! out reply: its header and columns describe the same graph.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::too_many_lines)]

mod common;

use std::collections::BTreeSet;

use pypto_analysis::edge_modes::EdgeMode;
use pypto_protocol::dep_graph::{DEP_KIND_ALLOC, DEP_KIND_DUMMY, DEP_KIND_NAMES};
use pypto_replies::dep_graph::{self, DepGraph};

fn mode_file(mode: EdgeMode) -> String {
    match mode {
        EdgeMode::Full => "deps_viewer.txt".to_owned(),
        m => format!("deps_viewer_{}.txt", m.as_str()),
    }
}

/// `deps_viewer`'s kind of a node the page draws with kind `k`.
fn deps_viewer_kind(k: u8) -> &'static str {
    match k {
        DEP_KIND_ALLOC => "alloc",
        DEP_KIND_DUMMY => "dummy",
        _ => "submit",
    }
}

#[test]
fn the_graph_has_deps_viewers_nodes_kinds_and_edges_on_every_fixture() {
    let mut checked = 0;
    let mut record_only_nodes = 0;
    for dir in common::runtime_dirs() {
        let Some(full) = std::fs::read_to_string(dir.join("deps_viewer.txt")).ok() else { continue };
        let c = common::load(&dir);
        let name = &c.name;
        let deps = c.deps.as_ref().expect("deps.json beside deps_viewer.txt");
        let sidecar = dep_graph::sidecar(c.model.as_ref());
        let graph = DepGraph::build(deps, &sidecar, c.name_map());
        // The worker's stepped build: one step at a time, counted, to the same graph.
        let mut build = dep_graph::DepGraphBuild::new(deps, &sidecar, c.name_map());
        let mut counted = vec![build.done()];
        while !build.ready() {
            build.step();
            counted.push(build.done());
        }
        assert_eq!(counted, (0..dep_graph::DepGraphBuild::STEPS).collect::<Vec<_>>(), "{name}: the build's steps");
        assert!(build.finish() == graph, "{name}: the stepped build is the one-call build");

        // Nodes: exactly the reference's, in its (numeric) order.
        let (tasks, _, index) = common::deps_viewer_index(&full);
        assert_eq!(index.len(), tasks, "{name}: TASK INDEX lines = tasks");
        let ours: Vec<u64> = graph.task_ids.iter().map(|t| t.raw()).collect();
        let theirs: Vec<u64> = index.iter().map(|l| l.task_id).collect();
        assert_eq!(ours, theirs, "{name}: node set");
        let in_deps: BTreeSet<u64> = deps.tasks.task_id.iter().chain(&deps.edges.pred).chain(&deps.edges.succ).copied().collect();
        record_only_nodes += ours.iter().filter(|id| !in_deps.contains(id)).count();

        // Per node: kind, SPMD block count, fan-in and fan-out over the full edge set.
        let (mut fanin, mut fanout) = (vec![0usize; ours.len()], vec![0usize; ours.len()]);
        for (&p, &s) in graph.graph.edge_pred.iter().zip(&graph.graph.edge_succ) {
            fanout[p as usize] += 1;
            fanin[s as usize] += 1;
        }
        for (i, line) in index.iter().enumerate() {
            let id = pypto_protocol::TaskId(line.task_id);
            assert_eq!(deps_viewer_kind(graph.kind[i]), line.kind, "{name} {id}: kind");
            assert_eq!(graph.block_num[i], line.block_num, "{name} {id}: block num");
            assert_eq!((fanin[i], fanout[i]), (line.fanin, line.fanout), "{name} {id}: fan-in, fan-out");
            let label = &graph.names[graph.name_index[i] as usize];
            match line.kind.as_str() {
                "alloc" | "dummy" => assert_eq!(label, &line.kind, "{name} {id}: name"),
                _ => assert!(!label.is_empty() && label != "alloc" && label != "dummy", "{name} {id}: a function name, not {label}"),
            }
        }

        // Per mode: the edges shown.
        for mode in EdgeMode::ALL {
            let text = std::fs::read_to_string(dir.join(mode_file(mode))).unwrap_or_else(|e| panic!("{name} {}: {e}", mode.as_str()));
            let (mode_tasks, shown, _) = common::deps_viewer_index(&text);
            assert_eq!(mode_tasks, tasks, "{name} {}: the same nodes in every mode", mode.as_str());
            assert_eq!(graph.selection(mode).unwrap().shown.len(), shown, "{name} {}: edges shown", mode.as_str());
        }

        // The reply the page gets: header and columns of that graph, per mode.
        for mode in EdgeMode::ALL {
            let laid = graph.layout(7, mode, mode == EdgeMode::Reduced, 0.0, &|| 0.0, &mut |_| true).unwrap();
            let (h, col) = (&laid.header, &laid.columns);
            assert_eq!((h.dataset_id, h.mode, h.left_right), (7, mode, mode == EdgeMode::Reduced));
            assert_eq!(h.node_count as usize, tasks, "{name}: header node count");
            assert_eq!(h.task_ids, graph.task_ids, "{name}: header task ids");
            let counts: Vec<u64> = EdgeMode::ALL.iter().map(|&m| graph.selection(m).unwrap().shown.len() as u64).collect();
            assert_eq!(h.mode_counts, counts, "{name}: mode counts");
            for per_node in [col.x.len(), col.y.len(), col.w.len(), col.h.len(), col.kind.len(), col.markers.len(), col.block_num.len()] {
                assert_eq!(per_node, tasks, "{name}: a column value per node");
            }
            assert!(col.name_index.iter().all(|&n| (n as usize) < h.names.len()), "{name}: name indices");
            assert!(col.kind.iter().all(|&k| (k as usize) < DEP_KIND_NAMES.len()), "{name}: kinds");
            let shown = counts[mode.index()] as usize;
            assert_eq!((col.pred.len(), col.succ.len(), col.point_offsets.len()), (shown, shown, shown + 1), "{name}: edge columns");
            assert_eq!(col.points.len() as u32, 2 * col.point_offsets.last().copied().unwrap_or(0), "{name}: polyline points");
            let full: BTreeSet<(u32, u32)> = col.full_pred.iter().copied().zip(col.full_succ.iter().copied()).collect();
            assert!(col.pred.iter().zip(&col.succ).all(|(&p, &s)| full.contains(&(p, s))), "{name}: shown edges are graph edges");
            // Packed to a 16:9 canvas: one component is laid out as before; several are
            // packed wider than tall, none overlapping another's nodes.
            let packed = graph.layout(7, mode, mode == EdgeMode::Reduced, 16.0 / 9.0, &|| 0.0, &mut |_| true).unwrap();
            assert_eq!(packed.header.component_count, h.component_count, "{name}: components");
            if h.component_count == 1 {
                assert_eq!(packed.columns, laid.columns, "{name}: one component is laid out as before");
            } else {
                let c = &packed.columns;
                let (x0, x1) = c.x.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
                let (y0, y1) = c.y.iter().fold((f64::MAX, f64::MIN), |(a, b), &y| (a.min(y), b.max(y)));
                let (w, hgt) = (x1 - x0 + 150.0, y1 - y0 + 36.0);
                let unpacked = laid.columns.x.iter().fold(0f64, |a, &x| a.max(x)) / laid.columns.y.iter().fold(1f64, |a, &y| a.max(y));
                assert!(
                    w / hgt < unpacked.max(16.0 / 9.0 * 1.6),
                    "{name} {}: packed aspect {:.2} (unpacked {unpacked:.2})",
                    mode.as_str(),
                    w / hgt
                );
                let [bx0, by0, bx1, by1] = packed.header.largest_component;
                assert!(bx1 > bx0 && by1 > by0, "{name}: the largest component's box");
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 16, "the runtime fixtures with deps_viewer.txt");
    // TestGraphExecutionHostBuildGraph_record_then_replay_1d: 12 of its 16 nodes are record-only.
    assert!(record_only_nodes >= 12, "record-only nodes: {record_only_nodes}");
}

/// Without records (deps.json and a name map only) the graph is deps.json's tasks and edge
/// endpoints: the perf sidecar is empty.
#[test]
fn without_records_the_graph_has_no_sidecar_tasks() {
    let dir = common::fixtures().join("runtime/a2a3sim-L4-TestGraphExecutionHostBuildGraph_record_then_replay_1d");
    let c = common::load(&dir);
    let deps = c.deps.as_ref().unwrap();
    let without = DepGraph::build(deps, &dep_graph::sidecar(None), None);
    let with = DepGraph::build(deps, &dep_graph::sidecar(c.model.as_ref()), None);
    let endpoints: BTreeSet<u64> = deps.edges.pred.iter().chain(&deps.edges.succ).copied().collect();
    let kernel_tasks =
        (0..deps.tasks.len()).filter(|&i| pypto_analysis::deps_graph::has_active_kernel(deps, i)).map(|i| deps.tasks.task_id[i]);
    let expected: BTreeSet<u64> = endpoints.into_iter().chain(kernel_tasks).collect();
    assert_eq!(without.task_ids.iter().map(|t| t.raw()).collect::<BTreeSet<u64>>(), expected);
    assert!(with.task_ids.len() > without.task_ids.len(), "the records add tasks");
}
