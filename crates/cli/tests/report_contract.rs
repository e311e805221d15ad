//! The `report --json` contract of issue 3, checked on every real capture in
//! `fixtures/runtime/` against the reference tools' outputs stored beside it: per-function
//! counts (`reference_converter_stdout.txt`), the five edge modes (`deps_viewer_<mode>.txt`)
//! and the static / observed critical paths (`CPM_static.json`, `CPM_observed.json`).

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::too_many_lines)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/runtime")
}

fn report_json() -> Value {
    let out =
        Command::new(env!("CARGO_BIN_EXE_pypto-viewer")).args(["report", "--json"]).arg(fixtures()).output().expect("run pypto-viewer");
    assert!(out.status.success(), "report failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("report --json is JSON")
}

/// `(ring, local)` or `local` as written by `deps_viewer`, to the raw u64 task id.
fn parse_task(text: &str) -> u64 {
    let t = text.trim();
    if let Some(inner) = t.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
        let (ring, local) = inner.split_once(',').expect("ring, local");
        (ring.trim().parse::<u64>().unwrap() << 32) | local.trim().parse::<u64>().unwrap()
    } else {
        t.parse().unwrap()
    }
}

/// The edges listed in a `deps_viewer` text file (`=== TASK x ===` then `  -> y` lines).
fn deps_viewer_edges(file: &Path) -> BTreeSet<(u64, u64)> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut edges = BTreeSet::new();
    let mut current = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("=== TASK ") {
            let id = rest.split(" kind=").next().unwrap();
            current = Some(parse_task(id));
        } else if let Some(succ) = line.strip_prefix("  -> ") {
            edges.insert((current.unwrap(), parse_task(succ.split_whitespace().collect::<Vec<_>>().join(" ").split(" [").next().unwrap())));
        }
    }
    edges
}

fn id_list(v: &Value) -> BTreeSet<u64> {
    v.as_array().unwrap().iter().map(|x| x.as_str().expect("task ids are decimal strings").parse().unwrap()).collect()
}

#[test]
fn report_json_matches_every_reference_output() {
    let doc = report_json();
    let datasets = doc["datasets"].as_array().unwrap();
    assert_eq!(datasets.len(), 18, "one dataset per fixture capture");
    let mut checked_edges = 0;
    let mut checked_paths = 0;
    for ds in datasets {
        let dir = fixtures().join(ds["path"].as_str().unwrap());
        let name = dir.file_name().unwrap().to_string_lossy().to_string();

        // records: the contract's keys.
        let records = &ds["records"];
        for key in ["file", "level", "clock_hz", "cores", "tasks"] {
            assert!(!records[key].is_null(), "{name}: records.{key}");
        }
        assert!(ds["warnings"].is_array(), "{name}: warnings");

        // functions: counts per func_id equal the reference table.
        let stdout = std::fs::read_to_string(dir.join("reference_converter_stdout.txt")).unwrap();
        let mut reference_counts = BTreeMap::new();
        let mut in_table = false;
        for line in stdout.lines() {
            if line.starts_with("Func_ID") {
                in_table = true;
                continue;
            }
            if in_table && line.starts_with("TOTAL") {
                break;
            }
            let cols: Vec<&str> = line.split_whitespace().collect();
            if in_table && cols.len() >= 3 && !line.starts_with("---") {
                reference_counts.insert(cols[0].to_string(), cols[2].parse::<u64>().unwrap());
            }
        }
        let ours: BTreeMap<String, u64> = ds["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                for key in [
                    "func_id",
                    "name",
                    "count",
                    "avg_exec_us",
                    "max_exec_us",
                    "min_exec_us",
                    "avg_latency_us",
                    "avg_head_oh_us",
                    "avg_tail_oh_us",
                    "avg_prop_us",
                    "avg_local_us",
                ] {
                    assert!(f.get(key).is_some(), "{name}: functions[].{key}");
                }
                (f["func_id"].to_string(), f["count"].as_u64().unwrap())
            })
            .collect();
        assert_eq!(ours, reference_counts, "{name}: per-function counts");

        // edges: every mode equals deps_viewer's listing.
        if dir.join("deps.json").exists() {
            for mode in pypto_vocab::EdgeMode::ALL.map(pypto_vocab::EdgeMode::as_str) {
                let file = if mode == pypto_vocab::EdgeMode::Full.as_str() {
                    dir.join("deps_viewer.txt")
                } else {
                    dir.join(format!("deps_viewer_{mode}.txt"))
                };
                let want = deps_viewer_edges(&file);
                let got: BTreeSet<(u64, u64)> = ds["edges"][mode]
                    .as_array()
                    .unwrap_or_else(|| panic!("{name}: edges.{mode}"))
                    .iter()
                    .map(|pair| (pair[0].as_str().unwrap().parse().unwrap(), pair[1].as_str().unwrap().parse().unwrap()))
                    .collect();
                assert_eq!(got, want, "{name}: edges.{mode}");
                checked_edges += 1;
            }
        }

        // critical paths: equal the task sets in the CPM files.
        for (key, file) in [("static", "CPM_static.json"), ("observed", "CPM_observed.json")] {
            let path = dir.join(file);
            if !path.exists() {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let cpm = pypto_formats::cpm::read_path(file, &bytes).unwrap();
            let want: BTreeSet<u64> = cpm.task_ids.iter().copied().collect();
            assert_eq!(id_list(&ds["critical_path"][key]), want, "{name}: critical_path.{key}");
            checked_paths += 1;
        }
        if dir.join("CPM_observed.json").exists() {
            let stall = &ds["critical_path"]["observed_stall_us"];
            for kind in ["data-wait", "core-wait", "front-gap"] {
                assert!(stall[kind].is_f64(), "{name}: observed_stall_us.{kind}");
            }
            assert!(ds["critical_path"]["makespan_us"].as_f64().unwrap() > 0.0);
        }
    }
    assert_eq!(checked_edges, 16 * 5, "16 captures have deps.json, 5 modes each");
    assert_eq!(checked_paths, 24, "12 captures have both CPM files");
}

#[test]
fn report_json_has_serving_strace_statistics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/strace");
    let out = Command::new(env!("CARGO_BIN_EXE_pypto-viewer")).args(["report", "--json"]).arg(&dir).output().expect("run");
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).expect("json");
    let ds = &doc["datasets"][0];
    assert_eq!(ds["kind"], "ServingStrace");
    let stats = &ds["strace"];
    assert!(stats["total_duration_us"].as_f64().unwrap() > 0.0);
    let names: Vec<&str> = stats["worker_span_names"].as_array().unwrap().iter().map(|n| n["name"].as_str().unwrap()).collect();
    assert!(names.iter().all(|n| n.starts_with("WorkerProcess.")), "{names:?}");
    for lane in stats["device_lanes"].as_array().unwrap() {
        assert!(lane.to_string().contains("count"), "device lane statistics: {lane}");
    }
}
