//! Golden tests against the reference tools' outputs stored beside every runtime fixture:
//! Worker View bars vs `merged_swimlane.json` (pid 4 AICore lanes) and the Performance Data
//! block of `reference_converter_stdout.txt`.

#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    clippy::naive_bytecount,
    clippy::decimal_literal_representation,
    clippy::too_many_lines,
    clippy::float_cmp,
    clippy::cast_possible_wrap
)]

mod common;
use common::runtime_dirs;
use pypto_analysis::runtime_model::{CpmInputs, RuntimeModel};
use pypto_analysis::{summary, tasks, worker_view};
use pypto_formats::{deps, records};
use pypto_vocab::TaskId;
use std::collections::BTreeMap;
use std::path::Path;

struct Loaded {
    records: records::ChipRecords,
    joined: tasks::JoinedTasks,
    view: worker_view::WorkerView,
}

fn load(dir: &Path) -> Loaded {
    let p = dir.join("chip_swimlane_records.json");
    let bytes = std::fs::read(&p).expect("records");
    let records = records::parse(&p.display().to_string(), &bytes).unwrap_or_else(|e| panic!("{e}"));
    let deps = std::fs::read(dir.join("deps.json")).ok().map(|b| deps::parse("deps.json", &b).unwrap_or_else(|e| panic!("{e}")));
    let joined = tasks::join(&records);
    let fids = tasks::func_ids(&joined, deps.as_ref());
    let view = worker_view::build(&joined, &fids);
    Loaded { records, joined, view }
}

#[test]
fn worker_view_matches_reference_merged_swimlane() {
    let mut checked = 0;
    for dir in runtime_dirs() {
        let merged = dir.join("merged_swimlane.json");
        let Ok(text) = std::fs::read_to_string(&merged) else {
            continue;
        };
        let trace: serde_json::Value = serde_json::from_str(&text).expect("merged json");
        let events = trace["traceEvents"].as_array().expect("traceEvents");
        let aicore_tid = |tid: i64| (10000..19000).contains(&tid);
        // Reference lanes: tid -> name, and bars per tid.
        let mut ref_lanes: BTreeMap<i64, String> = BTreeMap::new();
        let mut ref_bars: BTreeMap<i64, Vec<(f64, f64)>> = BTreeMap::new();
        for e in events {
            if e["pid"].as_i64() != Some(4) {
                continue;
            }
            let tid = e["tid"].as_i64().unwrap_or(-1);
            if !aicore_tid(tid) {
                continue;
            }
            match e["ph"].as_str() {
                Some("M") if e["name"] == "thread_name" => {
                    ref_lanes.insert(tid, e["args"]["name"].as_str().unwrap_or("").to_owned());
                }
                Some("X") => ref_bars.entry(tid).or_default().push((e["ts"].as_f64().expect("ts"), e["dur"].as_f64().expect("dur"))),
                _ => {}
            }
        }
        let ref_lanes: BTreeMap<i64, String> = ref_lanes.into_iter().filter(|(tid, _)| ref_bars.contains_key(tid)).collect();
        let l = load(&dir);
        let ours: BTreeMap<i64, String> =
            l.view.lanes.iter().map(|lane| (10000 + 10 * i64::from(lane.core_id), lane.label.clone())).collect();
        assert_eq!(ours, ref_lanes, "{}: lane set", dir.display());
        // Lane order equals the reference's thread order (by tid).
        let order: Vec<i64> = l.view.lanes.iter().map(|lane| 10000 + 10 * i64::from(lane.core_id)).collect();
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(order, sorted);
        for (li, lane) in l.view.lanes.iter().enumerate() {
            let tid = 10000 + 10 * i64::from(lane.core_id);
            let a = l.view.lane_offsets[li] as usize;
            let b = l.view.lane_offsets[li + 1] as usize;
            let mut ours: Vec<(f64, f64)> = (a..b).map(|k| (l.view.start_us[k], l.view.end_us[k] - l.view.start_us[k])).collect();
            let mut theirs = ref_bars[&tid].clone();
            ours.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.total_cmp(&y.1)));
            theirs.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.total_cmp(&y.1)));
            assert_eq!(ours.len(), theirs.len(), "{}: bar count on {}", dir.display(), lane.label);
            for (o, t) in ours.iter().zip(&theirs) {
                assert!(
                    (o.0 - t.0).abs() < 0.0005 && (o.1 - t.1).abs() < 0.0005,
                    "{}: {} bar ours {:?} reference {:?}",
                    dir.display(),
                    lane.label,
                    o,
                    t
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 18, "checked {checked} merged swimlanes");
}

fn parse_perf_block(text: &str) -> (usize, f64, f64, f64) {
    let count =
        text.lines().find_map(|l| l.trim().strip_prefix("Task Count: ")).and_then(|s| s.trim().parse().ok()).expect("Task Count line");
    let range = text.lines().find_map(|l| l.trim().strip_prefix("Time Range: ")).expect("Time Range line");
    // "271.460 us - 3046.640 us (span: 2775.180 us)"
    let nums: Vec<f64> = range
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter(|s| !s.is_empty() && *s != "-")
        .map(|s| s.parse().expect("number"))
        .collect();
    (count, nums[0], nums[1], nums[2])
}

#[test]
fn summary_matches_reference_converter_stdout() {
    let mut checked = 0;
    for dir in runtime_dirs() {
        let Ok(text) = std::fs::read_to_string(dir.join("reference_converter_stdout.txt")) else {
            continue;
        };
        let (count, first, last, span) = parse_perf_block(&text);
        let l = load(&dir);
        let f = summary::records_summary(&l.records, &l.joined);
        let name = dir.display();
        // The worker's summary comes from the model build, which takes the scheduler and
        // orchestrator records out before the join: the same facts, the same time base.
        let (_, built) = RuntimeModel::build_owned(l.records.clone(), None, None, CpmInputs::default());
        assert_eq!(built, f, "{name}: the model build's facts");
        assert_eq!(f.task_count, count, "{name}: task count");
        let close = |a: f64, b: f64| (a - b).abs() <= 0.0005 + 1e-9;
        assert!(close(f.first_start_us, first), "{name}: first {} vs {first}", f.first_start_us);
        assert!(close(f.last_end_us, last), "{name}: last {} vs {last}", f.last_end_us);
        assert!((f.span_us - span).abs() <= 0.001 + 1e-9, "{name}: span {} vs {span}", f.span_us);
        if let Some(lvl) = text.lines().find_map(|l| l.trim().strip_prefix("L2 perf level: ")) {
            assert_eq!(f.level.to_string(), lvl.trim(), "{name}: level");
        }
        if let Some(n) = text.lines().find_map(|l| l.trim().strip_prefix("Scheduler threads: ")) {
            assert_eq!(f.scheduler_threads.to_string(), n.trim(), "{name}: scheduler threads");
        }
        if let Some(n) = text.lines().find_map(|l| l.trim().strip_prefix("Total phase records: ")) {
            assert_eq!(f.scheduler_records.to_string(), n.trim(), "{name}: phase records");
        }
        assert_eq!(f.clock_freq_hz, 50_000_000);
        checked += 1;
    }
    assert!(checked >= 18);
}

#[test]
fn labels_follow_reference_rules() {
    assert_eq!(TaskId(0).to_string(), "t0");
    assert_eq!(TaskId(4_294_967_298).to_string(), "r1t2");
    assert_eq!(tasks::task_label(0, 0, None, false), "func_0_a(t0)");
    assert_eq!(tasks::task_label(5, 25, None, false), "func_25_z(t5)");
    assert_eq!(tasks::task_label(5, 26, None, false), "func_26_aa(t5)");
    assert_eq!(tasks::task_label(5, -1, None, false), "task(t5)");
    assert_eq!(tasks::task_label(0x2_0000_0012, -1, None, true), "task_spmd(r2t18)");
    assert_eq!(tasks::task_label(0x2_0000_000A, 3, Some("v_proj"), true), "v_proj_spmd(r2t10)");
    assert_eq!(tasks::task_label(0, 3, Some("SPMD_WRITE_AIV"), true), "SPMD_WRITE_AIV(t0)");
}

#[test]
fn labels_match_reference_bar_names() {
    // Every Worker View bar name in the reference equals our label for the same row.
    for dir in runtime_dirs() {
        let Ok(text) = std::fs::read_to_string(dir.join("merged_swimlane.json")) else {
            continue;
        };
        let trace: serde_json::Value = serde_json::from_str(&text).expect("json");
        let Some(name_map_path) = std::fs::read_dir(&dir)
            .expect("dir")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("name_map")))
        else {
            continue;
        };
        let nm = pypto_formats::name_map::parse("nm", &std::fs::read(name_map_path).expect("nm")).expect("nm");
        let deps = deps::parse("deps", &std::fs::read(dir.join("deps.json")).expect("deps")).expect("deps");
        let l = load(&dir);
        let fids = tasks::func_ids(&l.joined, Some(&deps));
        let spmd = tasks::spmd_flags(&l.joined, Some(&deps));
        let mut ours: Vec<(u64, String)> = (0..l.joined.len())
            .map(|i| {
                let fid = fids[i];
                let id = l.joined.task_id.get(i).unwrap();
                (id, tasks::task_label(id, fid, nm.name(fid), spmd[i]))
            })
            .collect();
        let mut theirs: Vec<(u64, String)> = trace["traceEvents"]
            .as_array()
            .expect("events")
            .iter()
            .filter(|e| e["pid"] == 4 && e["ph"] == "X" && (10000..19000).contains(&e["tid"].as_i64().unwrap_or(0)))
            .map(|e| (e["args"]["taskId"].as_u64().expect("taskId"), e["name"].as_str().expect("name").to_owned()))
            .collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{}", dir.display());
    }
}

#[test]
fn timebase_does_not_underflow() {
    let tb = pypto_analysis::timebase::Timebase::device(1000, 50_000_000);
    assert_eq!(tb.us(0), 0.0);
    assert!((tb.us(1050) - 1.0).abs() < 1e-12);
    assert!((tb.us(950) + 1.0).abs() < 1e-12);
}
