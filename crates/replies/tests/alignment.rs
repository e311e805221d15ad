//! Multi-rank timelines on one axis: trees `dfx_outputs/rank<N>/d0/` assembled in a temp
//! directory from copies of real captures, discovered and loaded as the worker does, aligned
//! `Auto` — by clock anchors when every rank's records calibrate to host time (the
//! `host_build_graph` captures), else at first dispatch — and the timeline, its header, search
//! hits, details and Perfetto export checked against the dataset's own times + its offset.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::float_cmp)]

mod common;

use std::path::{Path, PathBuf};

use pypto_analysis::alignment::{self, AlignmentPlan};
use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::timeline::{self, Timeline, TrackKind};
use pypto_analysis::timeline_query::{self as query, BarAt};
use pypto_formats::discovery::{self, DatasetKind};
use pypto_protocol::timeline::{AlignedBy, TimelineAlign};

const HOST_A: &str = "a2a3sim-L4-TestDepGenHostBuildGraph_default";
const HOST_B: &str = "a2a3sim-L4-TestDepGenHostBuildGraphEdgeSources_gate_open";
const HOST_C: &str = "a2a3sim-L4-TestGraphExecutionHostBuildGraph_record_then_replay_1d";
const DEVICE_A: &str = "a2a3sim-L4-TestChipSwimlane_default";
const DEVICE_B: &str = "a2a3sim-L4-TestChipSwimlaneMixed_default";

/// `root/case/dfx_outputs/rank<i>/d0/` holding the records, deps.json, name map and host phase
/// records of each capture (in rank order); the root.
fn tree(name: &str, captures: &[&str]) -> PathBuf {
    let root = std::env::temp_dir().join(format!("pypto-replies-align-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for (rank, capture) in captures.iter().enumerate() {
        let src = common::fixtures().join("runtime").join(capture);
        let dst = root.join(format!("case/dfx_outputs/rank{rank}/d0"));
        std::fs::create_dir_all(&dst).unwrap();
        for entry in std::fs::read_dir(&src).unwrap() {
            let path = entry.unwrap().path();
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            let keep = file == "chip_swimlane_records.json"
                || file == "deps.json"
                || file == "host_phase_records.jsonl"
                || (file.starts_with("name_map") && path.extension().is_some_and(|e| e == "json"));
            if keep {
                std::fs::copy(&path, dst.join(&file)).unwrap();
            }
        }
    }
    root
}

/// The tree's runtime datasets (one multi-rank group, rank order) loaded: `(path, model)`.
fn load_group(root: &Path) -> Vec<(String, RuntimeModel)> {
    let entries = common::walk(root);
    let found = discovery::discover(&entries);
    let mut runtime: Vec<_> = found.datasets.into_iter().filter(|d| d.kind == DatasetKind::Runtime).collect();
    runtime.sort_by(|a, b| a.path.cmp(&b.path));
    assert!(runtime.len() >= 2, "a multi-rank tree: {runtime:?}");
    assert!(runtime.iter().all(|d| d.group.as_deref() == Some("case/dfx_outputs")), "one group: {runtime:?}");
    runtime
        .into_iter()
        .map(|d| {
            let path = d.path.clone();
            (path, common::load_dataset(root, entries.clone(), d).model.expect("records"))
        })
        .collect()
}

fn labelled(group: &[(String, RuntimeModel)]) -> Vec<(&str, &RuntimeModel)> {
    group.iter().map(|(p, m)| (p.as_str(), m)).collect()
}

/// The host origin a capture's metadata states.
fn stated_origin_ns(capture: &str) -> u64 {
    let text = std::fs::read_to_string(common::fixtures().join("runtime").join(capture).join("chip_swimlane_records.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["metadata"]["host_orchestration_origin_ns"].as_u64().unwrap()
}

/// Every bar of the aligned timeline is the unaligned one's shifted by its dataset's offset
/// (same layout, same order).
fn assert_shifted(aligned: &Timeline, unaligned: &Timeline, plan: &AlignmentPlan) {
    assert_eq!(aligned.track_offsets, unaligned.track_offsets);
    assert_eq!(aligned.tracks, unaligned.tracks);
    for (k, tr) in aligned.tracks.iter().enumerate() {
        let o = plan.offset_us(tr.dataset);
        for g in aligned.track_range(k as u32) {
            let (a, u) = (&aligned.columns, &unaligned.columns);
            assert_eq!(a.start_us[g], u.start_us[g] + o, "track {} bar {g}", tr.label);
            assert_eq!(a.end_us[g], u.end_us[g] + o, "track {} bar {g}", tr.label);
            assert_eq!(a.setup_start_us[g], u.setup_start_us[g] + o, "track {} bar {g}", tr.label);
        }
    }
}

/// The queries name places on the shared axis: search hits start where the columns draw them,
/// details give the dataset's own times with a `Timeline shift` row, the export's slices sit
/// where the columns draw them.
fn assert_queries_on_axis(t: &Timeline, models: &[&RuntimeModel]) {
    let (_, hits) = query::search(t, models, "t1", 100);
    assert!(!hits.is_empty(), "t1 is in every capture");
    for h in &hits {
        let g = t.bar_index(h.bar.track, h.bar.index).unwrap();
        assert_eq!(h.start_us, t.columns.setup_start_us[g], "hit {h:?}");
    }
    // Hits are ordered on the shared axis.
    assert!(hits.windows(2).all(|w| w[0].start_us <= w[1].start_us || w[0].label != w[1].label));
    for (k, tr) in t.tracks.iter().enumerate() {
        if !matches!(tr.kind, TrackKind::Core { .. }) || t.track_range(k as u32).is_empty() {
            continue;
        }
        let bar = BarAt { track: k as u32, index: 0 };
        let (_, fields, _) = query::bar_details(t, models, bar).unwrap();
        let (_, own_start, _) = query::bar_times(t, models, bar).unwrap();
        let start = fields.iter().find(|f| f.0 == "Start").unwrap();
        assert_eq!(start.1, format!("{own_start:.3} µs"), "details give the dataset's own start");
        let shift = fields.iter().find(|f| f.0 == "Timeline shift");
        assert_eq!(shift.is_some(), t.alignment.offset_us(tr.dataset) != 0.0, "{fields:?}");
    }
    let mut json = Vec::new();
    pypto_analysis::timeline_export::write_chrome_trace(t, models, None, &mut json).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let slices: Vec<f64> =
        doc["traceEvents"].as_array().unwrap().iter().filter(|e| e["ph"] == "X").map(|e| e["ts"].as_f64().unwrap()).collect();
    assert_eq!(slices.len(), t.bar_count());
    for (g, ts) in slices.iter().enumerate() {
        // (serde_json's float parsing may miss by an ulp)
        let drawn = t.columns.setup_start_us[g];
        assert!((ts - drawn).abs() <= 1e-9 * drawn.abs().max(1.0), "slice {g}: {ts} vs {drawn}");
    }
}

#[test]
fn ranks_with_calibrated_clock_anchors_align_by_the_host_clock() {
    let captures = [HOST_A, HOST_B, HOST_C];
    let root = tree("anchors", &captures);
    let group = load_group(&root);
    let models = labelled(&group);
    for ((_, m), capture) in group.iter().zip(captures) {
        assert_eq!(alignment::calibrated_host_origin_ns(m), Some(stated_origin_ns(capture)), "{capture} calibrates");
    }
    let plan = alignment::plan(&models, &TimelineAlign::Auto);
    let earliest = captures.iter().map(|c| stated_origin_ns(c)).min().unwrap();
    let expected: Vec<f64> = captures.iter().map(|c| (stated_origin_ns(c) - earliest) as f64 / 1000.0).collect();
    assert_eq!(plan.placements.iter().map(|p| p.offset_us).collect::<Vec<_>>(), expected);
    assert!(plan.placements.iter().all(|p| p.by == AlignedBy::ClockAnchors));
    assert_eq!(plan.label, "aligned by clock anchors (host CLOCK_MONOTONIC)");

    let aligned = timeline::build_aligned(&models, plan.clone());
    assert_shifted(&aligned, &timeline::build(&models), &plan);
    let ids = [7, 8, 9];
    let header = pypto_replies::timeline::header(3, &ids, &aligned);
    assert_eq!(header.alignment_label, plan.label);
    assert_eq!(header.alignment.iter().map(|a| (a.dataset_id, a.offset_us, a.aligned_by)).collect::<Vec<_>>(), {
        ids.iter().zip(&expected).map(|(&d, &o)| (d, o, AlignedBy::ClockAnchors)).collect::<Vec<_>>()
    });
    let bare: Vec<&RuntimeModel> = group.iter().map(|(_, m)| m).collect();
    assert_queries_on_axis(&aligned, &bare);
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn ranks_without_clock_anchors_align_at_first_dispatch() {
    let root = tree("first", &[DEVICE_A, DEVICE_B]);
    let group = load_group(&root);
    let models = labelled(&group);
    let plan = alignment::plan(&models, &TimelineAlign::Auto);
    assert!(plan.placements.iter().all(|p| p.by == AlignedBy::FirstDispatch && p.offset_us < 0.0), "{plan:?}");
    assert_eq!(plan.label, "aligned at first dispatch: no dataset has calibrated clock anchors");
    let aligned = timeline::build_aligned(&models, plan.clone());
    assert_shifted(&aligned, &timeline::build(&models), &plan);
    // Each rank's earliest Scheduler View bar (its first dispatch) is at 0.
    for d in 0..group.len() as u32 {
        let first = aligned
            .tracks
            .iter()
            .enumerate()
            .filter(|(_, tr)| tr.dataset == d && matches!(tr.kind, TrackKind::SchedCore { .. }))
            .flat_map(|(k, _)| aligned.track_range(k as u32))
            .map(|g| aligned.columns.start_us[g])
            .fold(f64::INFINITY, f64::min);
        assert_eq!(first, 0.0, "dataset {d}");
    }
    let bare: Vec<&RuntimeModel> = group.iter().map(|(_, m)| m).collect();
    assert_queries_on_axis(&aligned, &bare);
    // First dispatch asked for, and no alignment: the same placements / none, other labels.
    assert_eq!(alignment::plan(&models, &TimelineAlign::FirstDispatch).placements, plan.placements);
    let none = alignment::plan(&models, &TimelineAlign::None);
    assert_eq!(timeline::build_aligned(&models, none).columns, timeline::build(&models).columns);
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn one_rank_without_anchors_puts_the_group_at_first_dispatch_and_says_which() {
    let root = tree("mixed", &[HOST_A, DEVICE_A]);
    let group = load_group(&root);
    let plan = alignment::plan(&labelled(&group), &TimelineAlign::Auto);
    assert_eq!(plan.label, "aligned at first dispatch: rank1/d0 has no calibrated clock anchors");
    assert!(plan.placements.iter().all(|p| p.by == AlignedBy::FirstDispatch));
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn a_single_dataset_timeline_is_not_shifted() {
    let c = common::load(&common::fixtures().join("runtime").join(HOST_A));
    let m = c.model.unwrap();
    let models = [("x", &m)];
    for mode in [TimelineAlign::Auto, TimelineAlign::FirstDispatch, TimelineAlign::None] {
        let plan = alignment::plan(&models, &mode);
        assert_eq!(plan, AlignmentPlan::unshifted(1));
        let t = timeline::build_aligned(&models, plan);
        assert_eq!(t.columns, timeline::build(&models).columns);
        let header = pypto_replies::timeline::header(1, &[4], &t);
        assert_eq!(header.alignment_label, "");
        assert_eq!(header.alignment.iter().map(|a| a.offset_us).collect::<Vec<_>>(), [0.0]);
    }
}
