//! Fixture helpers shared by the golden tests: the runtime capture directories and their
//! name-map files.

#![allow(dead_code, clippy::expect_used)]

use std::path::{Path, PathBuf};

/// Every capture directory under `fixtures/runtime`, sorted.
pub fn runtime_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/runtime");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures/runtime")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
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
