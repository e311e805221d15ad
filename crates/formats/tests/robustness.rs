//! Malformed-input tests: truncated JSON, wrong types, unknown shapes, missing or zero clock,
//! older shapes (v1 object tasks, 5/7-column rows, newer scheduler keys, deps pairs) and a
//! truncation loop over a real file. Errors must carry positions; nothing may panic.

#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    clippy::naive_bytecount,
    clippy::decimal_literal_representation,
    clippy::too_many_lines,
    clippy::float_cmp,
    clippy::cast_possible_wrap
)]

use pypto_formats::records::{CoreType, SchedKind};
use pypto_formats::{deps, manifest, name_map, records};
use std::path::Path;

fn fixture(rel: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/runtime").join(rel)).expect("fixture")
}

#[test]
fn truncated_json_reports_end_position() {
    let bytes = fixture("a2a3sim-L4-TestChipSwimlane_default/chip_swimlane_records.json");
    let cut = &bytes[..bytes.len() / 2];
    let e = records::parse("r.json", cut).expect_err("truncated");
    let lines = cut.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    assert_eq!(e.line, lines);
    assert!(e.column > 0);
    assert!(e.to_string().starts_with(&format!("r.json:{lines}:")), "{e}");
    assert!(e.message.contains("truncated"), "{e}");
}

#[test]
fn truncation_loop_never_panics() {
    for rel in ["a2a3sim-L4-TestChipSwimlane_default/chip_swimlane_records.json", "a2a3sim-L4-TestChipSwimlane_default/deps.json"] {
        let bytes = fixture(rel);
        let step = (bytes.len() / 400).max(1);
        let mut cut = 0;
        while cut < bytes.len() - 2 {
            let part = &bytes[..cut];
            if rel.ends_with("deps.json") {
                assert!(deps::parse("d", part).is_err(), "deps cut at {cut}");
            } else {
                let e = records::parse("r", part).expect_err("cut");
                assert!(e.line > 0, "cut at {cut}: {e}");
            }
            let _ = name_map::parse("n", part);
            let _ = manifest::parse("m", part);
            cut += step;
        }
    }
}

#[test]
fn wrong_types_are_errors_with_position() {
    let text = b"{\"chip_swimlane_level\": 2,\n \"metadata\": {\"clock_freq_hz\": 50000000},\n \"aicore_tasks\": [[0, 1, 1, 10, 20, 0], [0, \"x\", 2, 30, 40, 0]],\n \"aicpu_tasks\": []}";
    let e = records::parse("t.json", text).expect_err("string in row");
    assert_eq!(e.line, 3);
    assert!(e.column > 0);
    assert!(e.message.contains("integer"), "{e}");

    let short = b"{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": 1}, \"aicore_tasks\": [[0, 1, 1]]}";
    let e = records::parse("t", short).expect_err("short row");
    assert!(e.message.contains("5, 6 or 7"), "{e}");

    let long = b"{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": 1}, \"aicore_tasks\": [[0,1,1,1,1,1,1,1]]}";
    assert!(records::parse("t", long).is_err());

    let not_obj = b"[1, 2, 3]";
    let e = records::parse("t", not_obj).expect_err("array");
    assert!(e.message.contains("records"), "{e}");

    let deps_bad = b"{\"tasks\": [{\"task_id\": [1]}]}";
    let e = deps::parse("d", deps_bad).expect_err("bad id");
    assert_eq!(e.line, 1);
    assert!(e.column > 0);
}

#[test]
fn unknown_shape_and_clock_errors() {
    let e = records::parse("t", b"{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 5}}").expect_err("shape");
    assert!(e.message.contains("aicore_tasks"), "{e}");
    assert_eq!((e.line, e.column), (1, 1));

    let zero = b"{\"chip_swimlane_level\": 1,\n\"metadata\": {\n  \"clock_freq_hz\": 0},\n\"aicore_tasks\": [[0,1,1,10,20,0]]}";
    let e = records::parse("t", zero).expect_err("zero clock");
    assert!(e.message.contains("clock_freq_hz"), "{e}");
    assert_eq!(e.line, 3);

    let missing = b"{\"chip_swimlane_level\": 1,\n\"metadata\": {\"num_cores\": 2},\n\"aicore_tasks\": [[0,1,1,10,20,0]]}";
    let e = records::parse("t", missing).expect_err("missing clock");
    assert!(e.message.contains("missing"), "{e}");
    assert_eq!(e.line, 2);

    let no_meta = b"{\"chip_swimlane_level\": 1, \"aicore_tasks\": []}";
    assert!(records::parse("t", no_meta).is_err());
}

#[test]
fn raw_variants_and_newer_keys() {
    // 5 columns, l2_swimlane_level, negative task id normalised.
    let v2 = br#"{"l2_swimlane_level": 2, "metadata": {"clock_freq_hz": 1000000000, "num_cores": 2, "core_types": ["aic"]},
        "aicore_tasks": [[0, -1, 1, 100, 200], [1, 4294967296, 1, 150, 250]],
        "aicpu_tasks": [[0, 1, 90, 210], [1, 1, 95, 260]],
        "aicpu_scheduler_phases": [[{"kind": "dispatch", "start_cycles": 80, "end_cycles": 90, "loop_iter": 1, "tasks_processed": 2, "pop_hit": 2, "pop_miss": 0},
                                    {"kind": "fanout", "start_cycles": 91, "end_cycles": 92, "loop_iter": 1, "tasks_processed": 1},
                                    {"kind": "brand_new", "start_cycles": 93, "end_cycles": 94, "loop_iter": 1, "tasks_processed": 0}]]}"#;
    let r = records::parse("v2", v2).expect("v2");
    assert_eq!(r.format, "l2_swimlane_level (raw, 5 columns)");
    assert_eq!(r.aicore.task_id[0], u64::MAX);
    assert_eq!(r.aicore.receive_to_start_cycles, vec![0, 0]);
    assert_eq!(r.metadata.core_type(0), CoreType::Aic);
    assert_eq!(r.metadata.core_type(1), CoreType::Aiv);
    assert_eq!(r.metadata.core_type(99), CoreType::Aiv);
    assert_eq!(r.sched_threads[0].kind.to_vec(), vec![SchedKind::Dispatch, SchedKind::Resolve, SchedKind::Unknown("brand_new".into())]);
    assert!(r.warnings.iter().any(|w| w.message.contains("unknown kind")));

    // 7 columns + scheduler_tasks + scheduler_records.streams with metrics.
    let v4 = br#"{"chip_swimlane_level": 3, "metadata": {"runtime": "tensormap_and_ringbuffer", "clock_freq_hz": 50000000, "num_cores": 2, "core_types": ["aic","aiv"], "core_to_thread": [0, 1]},
        "aicore_tasks": [[0, 5, 1, 100, 200, 3, 0], [1, 6, 1, 150, 250, 2, 1]],
        "scheduler_tasks": {"schema_version": 1, "producer": "aicpu", "records": [[0, 1, 90, 210, 0], [1, 1, 95, 260, 1]]},
        "scheduler_records": {"streams": [
            {"scheduler_id": 1, "records": [{"start_cycles": 80, "end_cycles": 90, "run_epoch": 0, "loop_iter": 1, "kind": "dispatch", "tasks_processed": 1, "task_id": null}],
             "metrics": [{"record_index": 0, "pop_hit": 7, "pop_miss": 1, "shared_at_start": [1,2,3], "shared_at_end": [0,0,0]}]}]}}"#;
    let r = records::parse("v4", v4).expect("v4");
    assert_eq!(r.format, "chip_swimlane_level (raw, 7 columns)");
    assert_eq!(r.aicpu.columns, 5);
    assert_eq!(r.aicpu.run_epoch, vec![0, 1]);
    assert_eq!(r.sched_threads.len(), 2);
    assert!(r.sched_threads[0].is_empty());
    assert_eq!(r.sched_threads[1].pop_hit.iter().collect::<Vec<_>>(), vec![7]);
    assert_eq!(r.sched_threads[1].shared_at_start.to_vec(), vec![[1, 2, 3]]);
    assert_eq!(r.metadata.runtime.as_deref(), Some("tensormap_and_ringbuffer"));
}

#[test]
fn v1_object_format() {
    let v1 = br#"{"version": 2, "tasks": [
        {"task_id": 4294967297, "func_id": 3, "core_id": 5, "core_type": "aic", "ring_id": 1, "start_time_us": 1.5, "end_time_us": 2.5, "duration_us": 1.0, "dispatch_time_us": 1.0, "finish_time_us": 3.0, "fanout": [1], "fanout_count": 1},
        {"task_id": 0, "func_id": 0, "core_id": 6, "core_type": "aiv", "ring_id": 0, "start_time_us": 0.0, "end_time_us": 1.0, "duration_us": 1.0, "dispatch_time_us": 0.0, "finish_time_us": 1.2}],
      "aicpu_scheduler_phases": [[{"start_time_us": 0.1, "end_time_us": 0.2, "phase": "idle", "loop_iter": 1, "tasks_processed": 0}]],
      "aicpu_orchestrator_phases": [[{"phase": "orch_fanin", "start_time_us": 0.0, "end_time_us": 0.1, "submit_idx": 0, "task_id": 0}]],
      "core_to_thread": [0, 0, 0, 0, 0, 0, 0]}"#;
    let r = records::parse("v1", v1).expect("v1");
    assert_eq!(r.format, "version (object tasks, µs)");
    assert_eq!(r.level, 4);
    let t = r.v1_tasks.as_ref().expect("v1 tasks");
    assert_eq!(t.task_id, vec![4_294_967_297, 0]);
    assert_eq!(t.core_type, vec![CoreType::Aic, CoreType::Aiv]);
    assert_eq!(t.sched_threads[0].kind, vec![SchedKind::Idle]);
    assert_eq!(t.orch_threads[0].phase_names, vec!["orch_fanin".to_owned()]);
    assert_eq!(r.metadata.core_to_thread.len(), 7);
    assert_eq!(r.aicore_row_count(), 2);
}

#[test]
fn deps_older_shapes_and_numbers() {
    let v1 = br#"{"version": 1, "edges": [[0, 1], [1, 2]]}"#;
    let d = deps::parse("d", v1).expect("v1 deps");
    assert_eq!(d.edge_count(), 2);
    assert_eq!(d.task_count(), 0);
    assert_eq!(d.edges.succ, vec![1, 2]);
    assert_eq!(d.version, Some(1));

    let big = br#"{"tasks": [{"task_id": "18446744073709551615", "scope": "manual"}, {"task_id": 7, "kernel_ids": [1, 2], "block_num": 0}],
                  "edges": [{"pred": "18446744073709551615", "succ": 7, "arg": 0, "source": "explicit", "flags": ["wait", "retain"]}]}"#;
    let d = deps::parse("d", big).expect("deps");
    assert_eq!(d.tasks.task_id, vec![u64::MAX, 7]);
    assert_eq!(d.tasks.kernel_ids, vec![[-1, -1, -1], [-1, -1, -1]]);
    assert_eq!(d.tasks.has_kernel_ids, vec![false, false]);
    assert_eq!(d.tasks.block_num, vec![1, 1]);
    assert!(d.missing_kernel_ids);
    assert_eq!(d.edges.pred, vec![u64::MAX]);
    assert_eq!(d.edges.flags, vec![deps::FLAG_WAIT | deps::FLAG_RETAIN]);
    assert_eq!(d.source_name(d.edges.source[0]), Some("explicit"));
    assert_eq!(d.tensor_count(), 0);
}

#[test]
fn manifest_round_trip_and_rejections() {
    let entries = vec![("b/c.json".to_owned(), 3u64), ("a.json".to_owned(), 12u64), ("q\"uote.json".to_owned(), 1)];
    let json = manifest::to_json(&entries);
    let back = manifest::parse("m", json.as_bytes()).expect("round trip");
    assert_eq!(back, vec![("a.json".to_owned(), 12), ("b/c.json".to_owned(), 3), ("q\"uote.json".to_owned(), 1)]);
    for bad in ["/etc/passwd", "a/../b", "a\\\\b", "C:/x", "a//b", "./a", ""] {
        let text = format!(
            "{{\"format\":\"pypto-viewer-manifest\",\"version\":1,\"files\":[\n{{\"path\":\"ok.json\",\"size_bytes\":1}},\n{{\"path\":\"{bad}\",\"size_bytes\":1}}]}}"
        );
        let e = manifest::parse("m", text.as_bytes()).expect_err(bad);
        assert!(e.message.contains("unsafe manifest path"), "{bad}: {e}");
        if !bad.is_empty() {
            assert_eq!(e.line, 3, "{bad}: {e}");
        }
    }
    assert!(manifest::parse("m", br#"{"format":"other","version":1,"files":[]}"#).is_err());
    assert!(manifest::parse("m", br#"{"format":"pypto-viewer-manifest","version":2,"files":[]}"#).is_err());
}
