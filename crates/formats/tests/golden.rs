//! Reader tests over the real fixtures: every records, deps and name map file parses; deps counts
//! equal the file and the reference `deps_viewer` SUMMARY; pass dumps validate; discovery finds
//! the fixture datasets.

#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    clippy::naive_bytecount,
    clippy::case_sensitive_file_extension_comparisons,
    clippy::decimal_literal_representation,
    clippy::too_many_lines,
    clippy::float_cmp,
    clippy::cast_possible_wrap
)]

use pypto_formats::discovery::{self, DatasetKind, Feature};
use pypto_formats::{deps, name_map, passes_dump, records};
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

fn runtime_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures().join("runtime"))
        .expect("fixtures/runtime")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

fn files_with_prefix(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(prefix) && n.ends_with(".json")))
        .collect();
    v.sort();
    v
}

#[test]
fn every_fixture_records_file_parses() {
    let mut n = 0;
    for dir in runtime_dirs() {
        let p = dir.join("chip_swimlane_records.json");
        let bytes = std::fs::read(&p).expect("records");
        let r = records::parse(&p.display().to_string(), &bytes).unwrap_or_else(|e| panic!("{e}"));
        let raw: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
        assert_eq!(r.aicore.len(), raw["aicore_tasks"].as_array().expect("aicore").len());
        assert_eq!(r.aicpu.len(), raw["aicpu_tasks"].as_array().expect("aicpu").len());
        assert_eq!(u64::from(r.level), raw["chip_swimlane_level"].as_u64().expect("level"));
        assert_eq!(r.metadata.clock_freq_hz, 50_000_000);
        assert_eq!(r.format, "chip_swimlane_level (raw, 6 columns)");
        assert!(r.v1_tasks.is_none());
        if let Some(phases) = raw["aicpu_scheduler_phases"].as_array() {
            assert_eq!(r.sched_threads.len(), phases.len());
            for (t, p) in r.sched_threads.iter().zip(phases) {
                assert_eq!(t.len(), p.as_array().expect("thread").len());
            }
        }
        // Exact u64 cycles.
        if let Some(row) = raw["aicore_tasks"].as_array().and_then(|a| a.first()) {
            assert_eq!(r.aicore.start_cycles[0], row[3].as_u64().expect("start"));
            assert_eq!(r.aicore.task_id[0], row[1].as_u64().expect("task"));
        }
        let host = dir.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.contains("HostBuildGraph"));
        assert_eq!(r.is_host_mode(), host, "{}", dir.display());
        n += 1;
    }
    assert_eq!(n, 18);
}

#[test]
fn every_fixture_deps_file_matches_counts() {
    let mut n = 0;
    for dir in runtime_dirs() {
        let p = dir.join("deps.json");
        let Ok(bytes) = std::fs::read(&p) else {
            continue;
        };
        let d = deps::parse("deps.json", &bytes).unwrap_or_else(|e| panic!("{e}"));
        let raw: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
        assert_eq!(d.task_count(), raw["tasks"].as_array().expect("tasks").len());
        assert_eq!(d.edge_count(), raw["edges"].as_array().expect("edges").len());
        assert_eq!(d.tensor_count(), raw["tensors"].as_array().expect("tensors").len());
        // ids exact (strings beyond 2^53)
        for (i, t) in raw["tensors"].as_array().expect("tensors").iter().enumerate() {
            let id: u64 = t["tensor_id"].as_str().expect("str").parse().expect("u64");
            assert_eq!(d.tensors.tensor_id[i], id);
        }
        for (i, t) in raw["tasks"].as_array().expect("tasks").iter().enumerate() {
            let k: Vec<i64> = t["kernel_ids"].as_array().expect("k").iter().map(|x| x.as_i64().expect("i")).collect();
            assert_eq!(d.tasks.kernel_ids[i].to_vec(), k);
            assert_eq!(u64::from(d.tasks.block_num[i]), t["block_num"].as_u64().unwrap_or(1));
            assert_eq!(d.tasks.early_dispatch[i], t["early_dispatch"].as_bool().unwrap_or(false));
            let nargs = t["args"].as_array().map_or(0, Vec::len) as u32;
            assert_eq!(d.tasks.arg_offsets[i + 1] - d.tasks.arg_offsets[i], nargs);
        }
        for (i, e) in raw["edges"].as_array().expect("edges").iter().enumerate() {
            assert_eq!(d.source_name(d.edges.source[i]), e["source"].as_str());
        }
        // The reference `deps_viewer` SUMMARY.
        if let Ok(txt) = std::fs::read_to_string(dir.join("deps_viewer.txt")) {
            let get = |k: &str| txt.lines().find_map(|l| l.trim().strip_prefix(k)).and_then(|s| s.trim().parse::<usize>().ok());
            // deps_viewer also counts ring-1 graph-node tasks it finds only in the perf
            // sidecar (GraphExecution captures: 4 deps tasks + 12 graph nodes = 16).
            // It also counts alloc tasks (creator-edge preds absent from `tasks`).
            let nodes: std::collections::HashSet<u64> = d.tasks.task_id.iter().chain(&d.edges.pred).chain(&d.edges.succ).copied().collect();
            if dir.display().to_string().contains("GraphExecution") {
                assert!(get("tasks:").is_some_and(|t| t > nodes.len()));
            } else {
                assert_eq!(get("tasks:"), Some(nodes.len()), "{}", dir.display());
            }
            assert_eq!(get("annotated_edges:"), Some(d.edge_count()), "{}", dir.display());
            assert_eq!(get("tensors:"), Some(d.tensor_count()), "{}", dir.display());
        }
        assert!(!d.missing_kernel_ids);
        n += 1;
    }
    assert_eq!(n, 16);
}

#[test]
fn every_fixture_name_map_parses() {
    let mut n = 0;
    for dir in runtime_dirs() {
        for p in files_with_prefix(&dir, "name_map") {
            let bytes = std::fs::read(&p).expect("nm");
            let m = name_map::parse("nm", &bytes).unwrap_or_else(|e| panic!("{e}"));
            let raw: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
            let obj = raw["callable_id_to_name"].as_object().expect("map");
            assert_eq!(m.entries.len(), obj.len());
            for (k, v) in obj {
                assert_eq!(m.name(k.parse().expect("id")), v.as_str());
            }
            n += 1;
        }
    }
    assert!(n >= 11);
}

#[test]
fn name_map_shapes() {
    let flat = name_map::parse("f", br#"{"7": "kernel_add", "x": "skip"}"#).expect("flat");
    assert_eq!(flat.name(7), Some("kernel_add"));
    assert_eq!(flat.entries.len(), 1);
    assert_eq!(flat.warnings.len(), 1);
    let only_orch = name_map::parse("o", br#"{"level": 3, "orchestrator_name": "PA"}"#).expect("orch");
    assert!(only_orch.entries.is_empty());
    assert_eq!(only_orch.orchestrator_name.as_deref(), Some("PA"));
    let null_orch = name_map::parse("n", br#"{"level": 2, "orchestrator_name": null, "callable_id_to_name": {"0": "QK"}}"#).expect("n");
    assert_eq!(null_orch.name(0), Some("QK"));
    assert!(name_map::parse("bad", b"[1,2]").is_err());
}

#[test]
fn fixture_pass_dumps_are_valid() {
    let mut dirs = Vec::new();
    let mut stack = vec![fixtures().join("passes")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                if p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("passes_dump")) {
                    dirs.push(p.clone());
                }
                stack.push(p);
            }
        }
    }
    dirs.sort();
    assert_eq!(dirs.len(), 4);
    for d in dirs {
        let names: Vec<String> =
            std::fs::read_dir(&d).expect("dir").map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let l = passes_dump::validate(&refs);
        assert!(l.has_frontend, "{}", d.display());
        let partial = d.display().to_string().contains("ruff-partial");
        if partial {
            // index gaps on purpose (see fixtures/passes/README.md)
            assert_eq!(l.snapshots.len(), 2);
            assert_eq!(l.problems, vec!["missing snapshot indices 01..33".to_owned()]);
        } else {
            assert!(l.is_valid(), "{}: {:?}", d.display(), l.problems);
            let idx: Vec<u32> = l.snapshots.iter().map(|s| s.index).collect();
            let expect: Vec<u32> = (1..=idx.len() as u32).collect();
            assert_eq!(idx, expect);
            assert_eq!(l.snapshots[0].pass_name, "InlineFunctions");
        }
        assert!(l.memory_snapshot().is_some());
    }
}

#[test]
fn pass_dump_problems() {
    let ok = passes_dump::validate(&["00_frontend.py", "01_after_A.py", "02_after_B.py", "02_after_B.log", "foo.py", "x.html"]);
    assert!(ok.is_valid(), "{:?}", ok.problems);
    assert_eq!(ok.snapshots.len(), 2);

    let gap = passes_dump::validate(&["00_frontend.py", "01_after_A.py", "03_after_C.py"]);
    assert_eq!(gap.problems, vec!["missing snapshot index 02".to_owned()]);

    let dup = passes_dump::validate(&["00_frontend.py", "01_after_A.py", "01_after_B.py"]);
    assert_eq!(dup.problems, vec!["duplicate snapshot index 1: 01_after_A.py, 01_after_B.py".to_owned()]);

    let zero = passes_dump::validate(&["00_frontend.py", "00_after_A.py", "01_after_B.py"]);
    assert_eq!(zero.problems.len(), 1);
    assert!(zero.problems[0].contains("index 0"), "{:?}", zero.problems);

    let bad = passes_dump::validate(&["00_frontend.py", "01_after_A.py", "02_after_.py", "03_a.b.py"]);
    assert_eq!(bad.problems.len(), 2, "{:?}", bad.problems);
    assert!(bad.problems.iter().all(|p| p.starts_with("malformed snapshot name")));

    let nofront = passes_dump::validate(&["01_after_A.py"]);
    assert!(!nofront.has_frontend);
    assert!(nofront.problems[0].starts_with("missing 00_frontend.py"));

    // numeric sort; toolkit naming NN_<Pass>.py accepted
    let big = passes_dump::validate(&[
        "00_frontend.py",
        "10_J.py",
        "2_after_B.py",
        "1_after_A.py",
        "3_C.py",
        "4_D.py",
        "5_E.py",
        "6_F.py",
        "7_G.py",
        "8_H.py",
        "9_I.py",
        "100_after_Z.py",
    ]);
    let idx: Vec<u32> = big.snapshots.iter().map(|s| s.index).collect();
    assert_eq!(idx, vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100]);
    assert_eq!(big.snapshots[2].pass_name, "C");
    assert_eq!(big.problems, vec!["missing snapshot indices 11..99".to_owned()]);
}

fn walk(root: &Path) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("dir") {
            let e = e.expect("entry");
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(root).expect("rel").to_string_lossy().replace('\\', "/");
                out.push((rel, e.metadata().expect("meta").len()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn discovery_over_fixture_trees() {
    let entries = walk(&fixtures().join("runtime"));
    let d = discovery::discover(&entries);
    let runtime: Vec<_> = d.datasets.iter().filter(|x| x.kind == DatasetKind::Runtime).collect();
    assert_eq!(runtime.len(), 18);
    assert_eq!(d.datasets.len(), 18);
    assert!(d.ignored_files > 0); // README.md, deps_viewer*.txt, ...
    let default = runtime.iter().find(|x| x.path == "a2a3sim-L4-TestChipSwimlane_default").expect("ds");
    assert!(default.records.is_some() && default.deps.is_some() && default.name_map.is_none());
    assert!(default.views.contains(&Feature::TaskDependencyGraph));
    assert_eq!(default.missing, vec!["no name_map*.json: functions shown by id (func_N)".to_owned()]);
    let l1 = runtime.iter().find(|x| x.path == "a2a3sim-L1-TestChipSwimlane_default").expect("l1");
    assert!(l1.missing.iter().any(|m| m.starts_with("no deps.json")));
    let mixed = runtime.iter().find(|x| x.path == "a2a3sim-L4-TestChipSwimlaneMixed_default").expect("mixed");
    assert!(mixed.views.contains(&Feature::FunctionPerformance));
    assert!(mixed.views.contains(&Feature::CriticalPathHighlight));
    assert!(mixed.missing.is_empty());
    // Sorted by path.
    let paths: Vec<&str> = d.datasets.iter().map(|x| x.path.as_str()).collect();
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert_eq!(paths, sorted);

    let all = discovery::discover(&walk(&fixtures()));
    let dumps: Vec<_> = all.datasets.iter().filter(|x| x.kind == DatasetKind::PassDump).collect();
    assert_eq!(dumps.len(), 4);
    assert!(dumps.iter().all(|x| x.views.contains(&Feature::MemoryReuse)));
    assert_eq!(all.datasets.iter().filter(|x| x.kind == DatasetKind::Runtime).count(), 18);
}

#[test]
fn discovery_multi_rank_and_rules() {
    let e = |p: &str| (p.to_owned(), 10u64);
    let entries = vec![
        e("build/case_20260101_000000/dfx_outputs/rank0/d0/chip_swimlane_records.json"),
        e("build/case_20260101_000000/dfx_outputs/rank0/d0/deps.json"),
        e("build/case_20260101_000000/dfx_outputs/rank0/d0/name_map.json"),
        e("build/case_20260101_000000/dfx_outputs/rank1/d0/chip_swimlane_records.json"),
        e("build/case_20260101_000000/dfx_outputs/rank1/d0/dispatch_program.json"),
        e("build/case_20260101_000000/passes_dump/00_frontend.py"),
        e("build/case_20260101_000000/passes_dump/01_after_A.py"),
        e("build/case_20260101_000000/passes_dump/02_after_AllocateMemoryAddr.py"),
        e("dfx/deps.json"),
        e("dfx/deps_viewer.txt"),
        e("dfx/name_map_20260101_000000.json"),
        e("dfx/name_map_20260102_000000.json"),
        e("serving/serving-strace-swimlane.json"),
        e("serving/x-strace-swimlane-2.json"),
        e(".git/deps.json"),
        e("node_modules/a/deps.json"),
        e("pypto-viewer-manifest.json"),
    ];
    let d = discovery::discover(&entries);
    let kinds: Vec<(DatasetKind, &str)> = d.datasets.iter().map(|x| (x.kind, x.path.as_str())).collect();
    assert_eq!(
        kinds,
        vec![
            (DatasetKind::Runtime, "build/case_20260101_000000/dfx_outputs/rank0/d0"),
            (DatasetKind::Runtime, "build/case_20260101_000000/dfx_outputs/rank1/d0"),
            (DatasetKind::PassDump, "build/case_20260101_000000/passes_dump"),
            (DatasetKind::Runtime, "dfx"),
            (DatasetKind::ServingStrace, "serving/serving-strace-swimlane.json"),
            (DatasetKind::ServingStrace, "serving/x-strace-swimlane-2.json"),
        ]
    );
    let g = Some("build/case_20260101_000000/dfx_outputs".to_owned());
    assert_eq!(d.datasets[0].group, g);
    assert_eq!(d.datasets[1].group, g);
    assert_eq!(d.datasets[3].group, None);
    assert!(d.datasets[1].missing.iter().any(|m| m.starts_with("no deps.json")));
    assert_eq!(d.datasets[2].views.iter().map(|v| v.title()).collect::<Vec<_>>(), vec!["IR Pass Trace", "Memory Reuse"]);
    let dfx = &d.datasets[3];
    assert_eq!(dfx.name_map, Some(11));
    assert_eq!(dfx.missing, vec!["no chip_swimlane_records.json: no swimlane (deps.json alone gives the dependency graph)".to_owned()]);
    assert_eq!(dfx.views.iter().map(|v| v.title()).collect::<Vec<_>>(), vec!["Task Dependency Graph"]);
    // dispatch_program.json, deps_viewer.txt, .git, node_modules, manifest
    assert_eq!(d.ignored_files, 5);
}

#[test]
fn runtime_datasets_find_the_pass_dump_of_their_case() {
    let e = |p: &str| (p.to_owned(), 10u64);
    let snapshot = |dir: &str| [e(&format!("{dir}/00_frontend.py")), e(&format!("{dir}/01_after_Simplify.py"))];
    let mut entries = vec![
        // build_output/<case>_<ts>/{dfx_outputs,passes_dump}: the sibling of dfx_outputs
        e("build_output/attn_20260101_101010/dfx_outputs/chip_swimlane_records.json"),
        // several dumps beside it: the newest timestamp first
        e("build_output/mlp/dfx_outputs/chip_swimlane_records.json"),
        // a multi-rank tree: beside the dfx_outputs it is under
        e("build_output/moe/dfx_outputs/rank0/d0/chip_swimlane_records.json"),
        // its own dump in the same directory wins over the parent's
        e("flat/chip_swimlane_records.json"),
        // no dump anywhere near
        e("alone/run/chip_swimlane_records.json"),
    ];
    for dir in [
        "build_output/attn_20260101_101010/passes_dump",
        "build_output/mlp/passes_dump_20260102_090000",
        "build_output/mlp/passes_dump_20260103_080000",
        "build_output/mlp/passes_dump",
        "build_output/moe/passes_dump_1",
        "flat/passes_dump_7",
        "passes_dump_9",
    ] {
        entries.extend(snapshot(dir));
    }
    let d = discovery::discover(&entries);
    let dumps_of =
        |path: &str| -> Vec<String> { d.datasets.iter().find(|x| x.path == path).map(|x| x.pass_dumps.clone()).unwrap_or_default() };
    assert_eq!(dumps_of("build_output/attn_20260101_101010/dfx_outputs"), vec!["build_output/attn_20260101_101010/passes_dump"]);
    assert_eq!(
        dumps_of("build_output/mlp/dfx_outputs"),
        vec![
            "build_output/mlp/passes_dump_20260103_080000",
            "build_output/mlp/passes_dump_20260102_090000",
            "build_output/mlp/passes_dump"
        ]
    );
    let mlp = d.datasets.iter().find(|x| x.path == "build_output/mlp/dfx_outputs").expect("mlp");
    assert!(
        mlp.notes.iter().any(|n| n
            .to_string()
            .starts_with("3 pass dumps of this case; using the newest, build_output/mlp/passes_dump_20260103_080000")),
        "{:?}",
        mlp.notes
    );
    assert_eq!(dumps_of("build_output/moe/dfx_outputs/rank0/d0"), vec!["build_output/moe/passes_dump_1"]);
    assert_eq!(dumps_of("flat"), vec!["flat/passes_dump_7"]);
    assert_eq!(dumps_of("alone/run"), Vec::<String>::new());
    // pass dumps link to nothing themselves
    assert!(d.datasets.iter().filter(|x| x.kind == DatasetKind::PassDump).all(|x| x.pass_dumps.is_empty()));
}
