//! One task-id display everywhere: on every runtime fixture with the reference converter's
//! `merged_swimlane.json`, every task the replies name — the swimlane's bar titles, its
//! details' `Task` field and search hits, the dependency graph's nodes, search and node
//! details, the setup leaderboards and the path tables — is written by [`TaskId`]'s
//! `Display` and agrees with the converter's names (`submit(t0)`, `task(r1t1024)`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::too_many_lines)]

mod common;

use std::collections::BTreeSet;

use pypto_analysis::timeline::{self, View};
use pypto_protocol::timeline::{BarRef, SearchRequest};
use pypto_protocol::TaskId;
use pypto_replies::dep_graph::{self, DepGraph};
use pypto_replies::{perf_panel, perf_paths, timeline as replies};

/// `text` is a task id written the reference's way: it reads back as one, and that one's
/// `Display` is `text`.
fn canonical(text: &str) -> TaskId {
    let id: TaskId = text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert_eq!(id.to_string(), text, "{text:?} is not TaskId's display of {id:?}");
    id
}

#[test]
fn every_task_label_is_task_id_display_and_the_converters() {
    let mut fixtures = 0;
    let (mut details_checked, mut graph_nodes, mut path_rows) = (0, 0, 0);
    for dir in common::runtime_dirs() {
        let Some(merged) = std::fs::read_to_string(dir.join("merged_swimlane.json")).ok() else { continue };
        let c = common::load(&dir);
        let name = c.name.clone();
        let reference_names = common::converter_names(&merged);
        let reference_ids = common::converter_task_ids(&merged);
        assert!(!reference_ids.is_empty(), "{name}: the converter names tasks");
        let known = |id: TaskId, what: &str| {
            assert!(reference_ids.contains(&id.to_string()), "{name}: {what} {id} is not a task the converter names");
        };
        let model = c.model.as_ref().expect("records");
        let models = [model];
        let t = timeline::build(&[("", model)]);

        // The swimlane: every bar's details (title, `Task`), then a search for each task of
        // the Worker View (what the search looks through).
        let mut tasks: BTreeSet<TaskId> = BTreeSet::new();
        for track in 0..t.tracks.len() as u32 {
            let worker_view = t.tracks[track as usize].view == View::Worker;
            let bars = t.track_offsets[track as usize + 1] - t.track_offsets[track as usize];
            for index in 0..bars {
                let bar = BarRef { track, index };
                let d = replies::bar_details(0, bar, &t, &models, &|_, _, _, _| None).unwrap();
                let Some((_, task)) = d.fields.iter().find(|f| f.0 == "Task") else { continue };
                let id = canonical(task);
                known(id, "the details' Task of bar");
                if let Some(in_title) = common::task_id_of_label(&d.title) {
                    assert_eq!(in_title, task, "{name}: title {} names the details' task", d.title);
                    assert!(reference_names.contains(&d.title), "{name}: title {} is not a converter name", d.title);
                }
                if worker_view {
                    tasks.insert(id);
                }
                details_checked += 1;
            }
        }
        assert!(!tasks.is_empty(), "{name}: bars with tasks");
        for &id in &tasks {
            let r = SearchRequest { timeline_id: 0, query: id.to_string(), limit: 10_000 };
            let hits = replies::search(&r, &t, &models);
            assert!(!hits.hits.is_empty(), "{name}: search {id} finds its bars");
            for h in &hits.hits {
                assert_eq!(common::task_id_of_label(&h.label), Some(id.to_string().as_str()), "{name}: hit {} of {id}", h.label);
                assert!(reference_names.contains(&h.label), "{name}: hit label {} is not a converter name", h.label);
            }
        }

        // The dependency graph: node ids, their search (`tY` / `rXtY` exactly), node details' peers.
        if let Some(deps) = &c.deps {
            let graph = DepGraph::build(deps, &dep_graph::sidecar(Some(model)), c.name_map());
            let recorded: BTreeSet<u64> = model.tasks.task_id.iter().collect();
            let labels: BTreeSet<String> = graph.task_ids.iter().map(ToString::to_string).collect();
            for (node, &id) in graph.task_ids.iter().enumerate() {
                let label = id.to_string();
                assert_eq!(canonical(&label), id);
                if recorded.contains(&id.raw()) {
                    known(id, "graph node");
                }
                for query in [label.clone(), format!("r{}t{}", id.ring(), id.local())] {
                    let hits = graph.search(0, &query);
                    assert_eq!(hits.nodes, vec![node as u32], "{name}: graph search {query}");
                }
                for row in graph.node_details(deps, 0, node as u32).edges {
                    assert!(labels.contains(&row[1]), "{name}: node {label}'s peer {} is a node's display", row[1]);
                }
                graph_nodes += 1;
            }
        }

        // Setup leaderboards and the path tables.
        let facts = c.facts.as_ref().unwrap();
        let panel = perf_panel::panel_data(0, model, facts.level, &facts.warnings);
        for row in panel.longest_setup.iter().chain(&panel.largest_setup_ratio) {
            known(row.task_id, "setup row");
        }
        let records = c.records.as_ref().unwrap();
        let paths = perf_paths::to_protocol(0, perf_paths::path_tables(records, c.deps.clone(), model.names.as_ref(), &c.cpm));
        let mut ids: Vec<TaskId> = Vec::new();
        ids.extend(paths.static_path.tasks.iter().chain(&paths.observed_path.tasks).map(|r| r.task_id));
        ids.extend(paths.gap_rows.iter().flat_map(|r| std::iter::once(r.task_id).chain(r.blocker_task_id)));
        ids.extend(paths.early_dispatch.iter().flatten().flat_map(|r| std::iter::once(r.task_id).chain(r.last_pred_task_id)));
        ids.extend(paths.chains.iter().flatten().flat_map(|r| r.task_ids.iter().copied()));
        for id in ids {
            known(id, "path table row");
            path_rows += 1;
        }
        fixtures += 1;
    }
    assert_eq!(fixtures, 18, "the runtime fixtures with merged_swimlane.json");
    eprintln!("{fixtures} fixtures: {details_checked} bars with a task, {graph_nodes} graph nodes, {path_rows} path-table ids");
    assert!(details_checked > 0 && graph_nodes > 0 && path_rows > 0, "{details_checked} details, {graph_nodes} nodes, {path_rows} rows");
}
