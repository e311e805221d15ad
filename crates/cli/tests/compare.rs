//! `pypto-viewer compare` (issue 19) on real capture pairs from `fixtures/runtime/` and on a
//! generated pair with a seeded slowdown (`gen --slow-function`):
//!
//! - each side's per-function numbers are exactly that capture's `report --json` `functions`
//!   and agree with the reference converter's printed table (`reference_converter_stdout.txt`);
//! - the summary's numbers are the report's (overview, task kinds);
//! - the task matching's counts equal a count derived here from the reference converter's
//!   own output (`merged_swimlane.json`: its Worker View bars name each task's function);
//! - a generated slowdown of one function ranks it first with Δ total exec = rows × extra and
//!   leaves every other function unchanged.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::too_many_lines, clippy::float_cmp, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/runtime").join(name)
}

fn cli(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pypto-viewer")).args(args).output().expect("run pypto-viewer")
}

fn json_of(args: &[&str]) -> Value {
    let out = cli(args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn compare(a: &Path, b: &Path) -> Value {
    json_of(&["compare", a.to_str().unwrap(), b.to_str().unwrap(), "--json"])
}

/// `report --json` of one capture directory: its (only) dataset.
fn report(dir: &Path) -> Value {
    let doc = json_of(&["report", "--json", dir.to_str().unwrap()]);
    let datasets = doc["datasets"].as_array().unwrap();
    assert_eq!(datasets.len(), 1, "{}", dir.display());
    datasets[0].clone()
}

/// The converter's printed function rows: name → whitespace-split columns.
fn reference_rows(dir: &Path) -> BTreeMap<String, Vec<String>> {
    let text = std::fs::read_to_string(dir.join("reference_converter_stdout.txt")).unwrap();
    let mut rows = BTreeMap::new();
    let mut in_table = false;
    for line in text.lines() {
        if line.starts_with("Func_ID") {
            in_table = true;
            continue;
        }
        if !in_table || line.starts_with("---") && rows.is_empty() {
            continue;
        }
        if line.starts_with("---") {
            break;
        }
        let cols: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        rows.insert(cols[1].clone(), cols);
    }
    assert!(!rows.is_empty(), "{}", dir.display());
    rows
}

/// Tasks with AICore rows in the converter's `merged_swimlane.json`: task id → the set of
/// function names on its Worker View bars (`NAME(tX)`).
fn converter_tasks(dir: &Path) -> BTreeMap<u64, BTreeSet<String>> {
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("merged_swimlane.json")).unwrap()).unwrap();
    let events = doc.get("traceEvents").unwrap_or(&doc).as_array().unwrap();
    let mut out: BTreeMap<u64, BTreeSet<String>> = BTreeMap::new();
    for e in events {
        if e["ph"] != "X" || e["pid"] != 4 {
            continue;
        }
        let Some(id) = e["args"].get("taskId") else { continue };
        let id = id.as_u64().or_else(|| id.as_str().and_then(|s| s.parse().ok())).unwrap();
        let name = e["name"].as_str().unwrap();
        out.entry(id).or_default().insert(name.rsplit_once('(').unwrap().0.to_owned());
    }
    out
}

/// (matched by id, matched by order, only A, only B) by the matching's rules, derived here.
fn expected_matching(a: &BTreeMap<u64, BTreeSet<String>>, b: &BTreeMap<u64, BTreeSet<String>>) -> (u64, u64, u64, u64) {
    let by_id: BTreeSet<u64> = a.iter().filter(|(id, f)| b.get(id) == Some(f)).map(|(id, _)| *id).collect();
    let mut left: BTreeMap<&BTreeSet<String>, [u64; 2]> = BTreeMap::new();
    for (side, tasks) in [a, b].into_iter().enumerate() {
        for (id, f) in tasks {
            if !by_id.contains(id) {
                left.entry(f).or_default()[side] += 1;
            }
        }
    }
    let by_order: u64 = left.values().map(|[x, y]| (*x).min(*y)).sum();
    let n = by_id.len() as u64;
    (n, by_order, a.len() as u64 - n - by_order, b.len() as u64 - n - by_order)
}

const FUNCTION_FIELDS: [&str; 12] = [
    "func_id",
    "count",
    "total_exec_us",
    "avg_exec_us",
    "max_exec_us",
    "min_exec_us",
    "avg_latency_us",
    "exec_pct",
    "avg_head_oh_us",
    "avg_tail_oh_us",
    "avg_prop_us",
    "avg_local_us",
];

fn close(ours: &Value, printed: &str, precision: f64) -> bool {
    match (ours.as_f64(), printed.trim_end_matches('%').parse::<f64>()) {
        (Some(x), Ok(y)) => (x - y).abs() <= precision / 2.0 + 1e-9,
        (None, Err(_)) => printed == "-",
        _ => false,
    }
}

#[test]
fn real_pairs_equal_each_sides_report_and_reference_converter() {
    let pairs = [
        ("a2a3sim-L4-TestChipSwimlaneMixed_default", "a2a3sim-L4-TestChipSwimlaneMixed_default-run2"),
        ("a2a3sim-L4-TestChipSwimlane_default", "a2a3sim-L4-TestChipSwimlane_aicpu_threads_2"),
        ("a2a3sim-L1-TestChipSwimlane_default", "a2a3sim-L1-TestChipSwimlane_aicpu_threads_2"),
        // Same functions under other task ids: the k-th-execution rule, and tasks only one
        // side has.
        ("a2a3sim-L4-TestDummyTask_DummyExplicitDepBarrier", "a2a3sim-L4-TestDummyTask_LongDummyChain"),
        ("a2a3sim-L4-TestDummyTask_LongDummyChain", "a2a3sim-L4-TestDummyTask_SingleDummyAutoDep"),
        // MIX tasks (one task, two kernels) compared with themselves.
        ("a2a3sim-L4-TestSpmdMultiblockMix_Case1", "a2a3sim-L4-TestSpmdMultiblockMix_Case1"),
    ];
    let mut by_order_seen = 0;
    for (a, b) in pairs {
        let (da, db) = (fixture(a), fixture(b));
        let c = compare(&da, &db);
        let functions = c["functions"].as_array().unwrap();
        for (side, dir) in [&da, &db].into_iter().enumerate() {
            let name = format!("{a} vs {b}, side {side}");
            let rep = report(dir);
            let rep_functions = rep["functions"].as_array().unwrap();
            // Exactly the report's functions, every field equal.
            let present: Vec<&Value> = functions.iter().filter(|f| !f["count"][side].is_null()).collect();
            assert_eq!(present.len(), rep_functions.len(), "{name}");
            for r in rep_functions {
                let f = present.iter().find(|f| f["name"] == r["name"]).unwrap_or_else(|| panic!("{name}: {} missing", r["name"]));
                for field in FUNCTION_FIELDS {
                    assert_eq!(f[field][side], r[field], "{name}: {} {field}", r["name"]);
                }
            }
            // And the reference converter's printed table.
            let printed = reference_rows(dir);
            assert_eq!(printed.len(), present.len(), "{name}");
            for f in &present {
                let cols = &printed[f["name"].as_str().unwrap()];
                assert_eq!(f["func_id"][side].to_string(), cols[0], "{name}");
                assert_eq!(f["count"][side].to_string(), cols[2], "{name}");
                for (field, col, precision) in [
                    ("avg_exec_us", 3, 0.01),
                    ("avg_latency_us", 4, 0.01),
                    ("exec_pct", 5, 0.1),
                    ("avg_head_oh_us", 6, 0.01),
                    ("avg_tail_oh_us", 7, 0.01),
                    ("avg_prop_us", 8, 0.01),
                    ("avg_local_us", 9, 0.01),
                ] {
                    assert!(
                        close(&f[field][side], &cols[col], precision),
                        "{name}: {} {field} {} vs {}",
                        f["name"],
                        f[field][side],
                        cols[col]
                    );
                }
            }
            // The summary is the report's overview and task kinds.
            let ov = &rep["performance_analysis"]["overview"];
            assert_eq!(c["summary"]["makespan_us"][side], ov["task_time_us"], "{name}");
            assert_eq!(c["summary"]["aicore_time_us"][side], ov["aicore_time_us"], "{name}");
            assert_eq!(c["summary"]["utilisation_pct"][side], ov["utilisation_pct"], "{name}");
            assert_eq!(c["summary"]["aicore_rows"][side].as_f64(), ov["rows"].as_f64(), "{name}");
            assert_eq!(c["summary"]["total_test_time_us"][side], rep["function_totals"]["total_test_time_us"], "{name}");
            for (kind, n) in rep["task_kinds"].as_object().unwrap() {
                assert_eq!(c["summary"][format!("tasks_{kind}")][side].as_f64(), n.as_f64(), "{name}: {kind}");
            }
        }
        // Every summary row is an [a, b] pair under its key.
        let rows = c["summary_rows"].as_array().unwrap();
        assert_eq!(rows.len(), 18, "10 timing rows, 6 task kinds, all tasks, AICore rows");
        for r in rows {
            assert_eq!(c["summary"][r["key"].as_str().unwrap()], Value::Array(vec![r["a"].clone(), r["b"].clone()]));
        }
        // Sorted by |Δ total exec|, largest first.
        let deltas: Vec<f64> = functions.iter().map(|f| f["total_exec_delta_us"].as_f64().unwrap().abs()).collect();
        assert!(deltas.windows(2).all(|w| w[0] >= w[1]), "{a} vs {b}: {deltas:?}");
        // The matching's counts, derived from the converter's output.
        let (ta, tb) = (converter_tasks(&da), converter_tasks(&db));
        let t = &c["tasks"];
        let (by_id, by_order, only_a, only_b) = expected_matching(&ta, &tb);
        let got = |k: &str| t[k].as_u64().unwrap();
        assert_eq!(t["tasks"], serde_json::json!([ta.len(), tb.len()]), "{a} vs {b}");
        assert_eq!(
            (got("matched_by_id"), got("matched_by_order"), got("only_a"), got("only_b")),
            (by_id, by_order, only_a, only_b),
            "{a} vs {b}"
        );
        assert_eq!(got("matched"), by_id + by_order);
        by_order_seen += by_order;
        for d in t["top"].as_array().unwrap() {
            assert!(d["a_task"].is_string() && d["b_task"].is_string(), "task ids are decimal strings");
        }
    }
    assert!(by_order_seen >= 2, "the pairs exercise the k-th-execution rule");
}

#[test]
fn generated_slowdown_ranks_the_function_first_with_count_times_extra() {
    let root = std::env::temp_dir().join(format!("pypto-compare-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (a, b) = (root.join("a"), root.join("b"));
    let common = ["--tasks", "2000", "--seed", "5", "--name-map"];
    for (dir, extra) in [(&a, None), (&b, Some("5:4"))] {
        let mut args = vec!["gen", dir.to_str().unwrap()];
        args.extend(common);
        if let Some(x) = extra {
            args.extend(["--slow-function", x]);
        }
        let out = cli(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let c = compare(&a, &b);
    let functions = c["functions"].as_array().unwrap();
    let first = &functions[0];
    assert_eq!(first["name"], "MatMul", "func 5 is MatMul");
    let rows = first["count"][1].as_f64().unwrap();
    assert_eq!(first["count"][0], first["count"][1]);
    assert!(rows > 100.0);
    let delta = first["total_exec_delta_us"].as_f64().unwrap();
    assert!((delta - rows * 4.0).abs() < 1e-6, "Δ {delta} for {rows} rows");
    for f in &functions[1..] {
        assert!(f["total_exec_delta_us"].as_f64().unwrap().abs() < 1e-6, "{f}");
        assert_eq!(f["count"][0], f["count"][1]);
    }
    let t = &c["tasks"];
    assert_eq!(t["tasks"][0], t["tasks"][1]);
    assert_eq!(t["matched"], t["tasks"][0]);
    assert_eq!(t["matched_by_id"], t["matched"]);
    assert_eq!((t["only_a"].as_u64(), t["only_b"].as_u64(), t["matched_by_order"].as_u64()), (Some(0), Some(0), Some(0)));
    let matmul = t["per_function"].as_array().unwrap().iter().find(|f| f["function"] == "MatMul").unwrap();
    assert!((matmul["median_delta_us"].as_f64().unwrap() - 4.0).abs() < 1e-6, "{matmul}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn text_output_reads_and_wrong_folders_exit_2() {
    let (a, b) = (fixture("a2a3sim-L4-TestChipSwimlaneMixed_default"), fixture("a2a3sim-L4-TestChipSwimlaneMixed_default-run2"));
    let out = cli(&["compare", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in
        ["A (baseline):", "Makespan", "Functions by |Δ total exec|", "MATMUL", "matched 3 (by function + id 3", "Largest per-task changes"]
    {
        assert!(text.contains(needle), "{needle} in\n{text}");
    }
    // MATMUL changed most, so it is listed before ADD.
    assert!(text.find("\n  MATMUL ").unwrap() < text.find("\n  ADD ").unwrap(), "{text}");
    // A folder of several runtime datasets: said, exit 2.
    let all = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/runtime");
    let out = cli(&["compare", all.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("runtime datasets"));
    assert_eq!(cli(&["compare", a.to_str().unwrap()]).status.code(), Some(2));
}
