//! Fixture helpers shared by the golden tests: the runtime capture directories, their
//! name-map files, and a capture's [`RuntimeModel`] built the way the worker builds it.

#![allow(dead_code, clippy::expect_used)]

use pypto_analysis::runtime_model::{CpmInputs, RuntimeModel};
use pypto_formats::{cpm, deps, host_phase_records, name_map, records};

use std::path::{Path, PathBuf};

/// Every capture directory under `fixtures/runtime`, sorted.
pub fn runtime_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/runtime");
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(&root).expect("fixtures/runtime").map(|e| e.expect("entry").path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    assert!(dirs.len() >= 18, "expected the 18 runtime fixtures, found {}", dirs.len());
    dirs
}

/// The `name_map*.json` files beside a capture, sorted by name.
pub fn name_map_files(dir: &Path) -> Vec<PathBuf> {
    let mut maps: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("capture dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("name_map"))
                && p.extension().is_some_and(|x| x.eq_ignore_ascii_case("json"))
        })
        .collect();
    maps.sort();
    maps
}

/// The capture directories that hold the reference converter's `merged_swimlane.json`.
pub fn converter_dirs() -> Vec<PathBuf> {
    runtime_dirs().into_iter().filter(|p| p.join("merged_swimlane.json").is_file()).collect()
}

/// The first (by name) `<prefix>*.json` beside a capture.
pub fn file_with_prefix(dir: &Path, prefix: &str) -> Option<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("capture dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(prefix)))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("json")))
        .collect();
    v.sort();
    v.into_iter().next()
}

/// A capture's inputs: records, deps.json (when present), the first name map and the
/// `CPM_static` / `CPM_observed` paths.
pub fn runtime_inputs(dir: &Path) -> (records::ChipRecords, Option<deps::Deps>, Option<name_map::NameMap>, CpmInputs) {
    let read = |p: &Path| std::fs::read(p).expect("fixture file");
    let recs = records::parse("chip_swimlane_records.json", &read(&dir.join("chip_swimlane_records.json"))).expect("records");
    let d = std::fs::read(dir.join("deps.json")).ok().map(|b| deps::parse("deps.json", &b).expect("deps.json"));
    let names = file_with_prefix(dir, "name_map").map(|p| name_map::parse("name_map.json", &read(&p)).expect("name map"));
    let mut c = CpmInputs::default();
    if let Some(p) = file_with_prefix(dir, "CPM_static") {
        c.static_path = Some(("CPM_static.json".into(), cpm::read_path("s", &read(&p)).expect("CPM_static")));
    }
    if let Some(p) = file_with_prefix(dir, "CPM_observed") {
        c.observed_path = Some(("CPM_observed.json".into(), cpm::read_path("o", &read(&p)).expect("CPM_observed")));
    }
    (recs, d, names, c)
}

/// The model of a capture ([`runtime_inputs`]), built the way the worker builds it (with its
/// `host_phase_records.jsonl` placed, when it has one).
pub fn runtime_model(dir: &Path) -> RuntimeModel {
    let (recs, d, names, c) = runtime_inputs(dir);
    let mut m = RuntimeModel::build_owned(recs, d, names, c).0;
    if let Ok(bytes) = std::fs::read(dir.join("host_phase_records.jsonl")) {
        let h = host_phase_records::parse("host_phase_records.jsonl", &bytes).expect("host phase records");
        let warnings = m.attach_host_phases("host_phase_records.jsonl", &h);
        assert!(warnings.is_empty() && h.warnings.is_empty(), "{}: {warnings:?} {:?}", dir.display(), h.warnings);
    }
    m
}
