//! Golden tests of `critical_path` against simpler's `critical_path.py` outputs stored beside
//! every runtime fixture that has a name map: the static / observed task sets of
//! `CPM_static.json` / `CPM_observed.json` and the whole `critical_path_report.md`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::too_many_lines)]

use pypto_analysis::critical_path::{self, CriticalPath, StallKind, TaskGraph};
use pypto_formats::{deps, name_map, records};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn cpm_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/runtime");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures/runtime")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("critical_path_report.md").is_file())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 12, "expected 12 CPM fixtures, found {}", dirs.len());
    dirs
}

struct Loaded {
    records: records::ChipRecords,
    deps: deps::Deps,
    names: name_map::NameMap,
}

fn load(dir: &Path) -> Loaded {
    let p = dir.join("chip_swimlane_records.json");
    let records = records::parse(&p.display().to_string(), &std::fs::read(&p).unwrap()).unwrap_or_else(|e| panic!("{e}"));
    let deps = deps::parse("deps.json", &std::fs::read(dir.join("deps.json")).unwrap()).unwrap_or_else(|e| panic!("{e}"));
    let mut maps: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with("name_map") && n.ends_with(".json")
        })
        .collect();
    maps.sort();
    let nm = maps.last().expect("name map");
    let names = name_map::parse("name_map", &std::fs::read(nm).unwrap()).unwrap();
    Loaded { records, deps, names }
}

fn compute(dir: &Path) -> (TaskGraph, CriticalPath) {
    let l = load(dir);
    critical_path::compute(&l.records, Some(&l.deps), Some(&l.names)).unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
}

/// Task ids of Worker View X events (pid 4) with `args.taskId` whose name does not start with `·`.
fn cpm_task_set(path: &Path) -> BTreeSet<u64> {
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let events = match &v {
        serde_json::Value::Array(a) => a.clone(),
        _ => v["traceEvents"].as_array().unwrap().clone(),
    };
    let mut out = BTreeSet::new();
    for e in &events {
        if e["ph"] != "X" || e["pid"] != 4 {
            continue;
        }
        let Some(tid) = e.get("args").and_then(|a| a.get("taskId")) else {
            continue;
        };
        if tid.is_null() || e["name"].as_str().unwrap_or("").starts_with('\u{b7}') {
            continue;
        }
        let id = match tid {
            serde_json::Value::String(s) => s.parse().unwrap(),
            n => n.as_u64().unwrap(),
        };
        out.insert(id);
    }
    out
}

#[test]
fn path_sets_match_cpm_files() {
    for dir in cpm_dirs() {
        let (_, cp) = compute(&dir);
        let stat: BTreeSet<u64> = cp.static_path.iter().copied().collect();
        let obs: BTreeSet<u64> = cp.observed.task_id.iter().copied().collect();
        assert_eq!(stat, cpm_task_set(&dir.join("CPM_static.json")), "{}: static path", dir.display());
        assert_eq!(obs, cpm_task_set(&dir.join("CPM_observed.json")), "{}: observed path", dir.display());
    }
}

#[test]
fn report_markdown_equals_reference() {
    for dir in cpm_dirs() {
        let (_, cp) = compute(&dir);
        let want = std::fs::read_to_string(dir.join("critical_path_report.md")).unwrap();
        // The rank label is the rank directory relative to the tool's root; take it from the file.
        let label = want.lines().find_map(|l| l.strip_prefix("## Rank `")?.strip_suffix('`')).expect("rank line");
        let got = critical_path::render_report_md(&[(label, &cp)], critical_path::DEFAULT_TOP_FAMILIES);
        if got != want {
            for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
                assert!(g == w, "{}: line {}:\n got: {g}\nwant: {w}", dir.display(), i + 1);
            }
            panic!("{}: line counts differ ({} vs {})", dir.display(), got.lines().count(), want.lines().count());
        }
        assert!(cp.tiling_exact(), "{}", dir.display());
    }
}

#[test]
fn paged_attention_numbers() {
    let dir = cpm_dirs().into_iter().find(|d| d.to_string_lossy().contains("PagedAttention")).unwrap();
    let (g, cp) = compute(&dir);
    assert_eq!(cp.task_count, 512);
    assert_eq!(cp.kept_edges, 632);
    assert_eq!(cp.makespan_ticks, 5_134_077);
    assert_eq!(format!("{:.3}", cp.us(cp.makespan_ticks) / 1e3), "102.682");
    assert_eq!(cp.static_path.len(), 13);
    assert_eq!(cp.observed.len(), 32);
    assert_eq!(format!("{:.3}", cp.us(cp.stall_of(StallKind::CoreWait)) / 1e3), "68.213");
    assert_eq!(format!("{:.3}", cp.us(cp.stall_of(StallKind::DataWait)) / 1e3), "19.681");
    assert_eq!(format!("{:.3}", cp.us(cp.stall_of(StallKind::FrontGap)) / 1e3), "2.029");
    assert_eq!(cp.observed.kind.first(), Some(&StallKind::FrontGap));
    assert_eq!(cp.observed.blocker_task_id.first(), Some(&None));
    // Each blocker is the previous path task.
    for i in 1..cp.observed.len() {
        assert_eq!(cp.observed.blocker_task_id[i], Some(cp.observed.task_id[i - 1]));
    }
    assert_eq!(g.len(), 512);
}

#[test]
fn works_without_deps_or_names() {
    let dir = cpm_dirs().into_iter().find(|d| d.to_string_lossy().contains("PagedAttention")).unwrap();
    let l = load(&dir);
    let (_, cp) = critical_path::compute(&l.records, None, None).unwrap();
    assert_eq!(cp.kept_edges, 0);
    assert!(cp.tiling_exact());
    assert!(cp.observed.kind.iter().all(|k| *k != StallKind::DataWait));
    assert!(cp.warnings.iter().any(|w| w.message.contains("no deps.json")));
    let (_, cp) = critical_path::compute(&l.records, Some(&l.deps), None).unwrap();
    assert!(cp.observed.name.iter().all(|n| n.starts_with("cid")));
}

#[test]
fn empty_records_is_an_error() {
    let r = records::ChipRecords::default();
    assert_eq!(critical_path::compute(&r, None, None).unwrap_err(), critical_path::CriticalPathError::NoTasks);
}
