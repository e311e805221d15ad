//! Golden test of the memory reuse map: for every `*.memory_map.json` payload that pypto's
//! `python -m pypto.tools.memory_map` produced in `fixtures/passes/`, the map built from the
//! dump beside it must equal it — functions, source ranges and lines, every box (slot,
//! shape, dtype, op, lifetime, aliases, view/conflict) and every space's hwm/limit/counts;
//! and every snapshot of every dump against `expected-memory-maps.json` (the same tool run
//! on each snapshot).

#![allow(clippy::expect_used, clippy::unwrap_used)]

use pypto_analysis::memory_map::{self, BackendChoice, Chip};
use std::path::{Path, PathBuf};

fn passes_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/passes")
}

/// (reference JSON, dump it was made from)
fn references() -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    let mut stack = vec![passes_root()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(".memory_map.json") else {
                continue;
            };
            let dir = p.parent().unwrap();
            let beside = dir.join(format!("{stem}.py"));
            let dump = if beside.is_file() { beside } else { dir.parent().unwrap().join("passes_dump").join(format!("{stem}.py")) };
            assert!(dump.is_file(), "no dump for {}", p.display());
            out.push((p, dump));
        }
    }
    out.sort();
    out
}

#[test]
fn every_reference_memory_map_is_reproduced() {
    let refs = references();
    assert_eq!(refs.len(), 3, "{refs:?}");
    for (json_path, dump_path) in refs {
        let reference: serde_json::Value = serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
        let text = std::fs::read_to_string(&dump_path).unwrap();
        let name = dump_path.file_name().unwrap().to_string_lossy().into_owned();
        // memory_map found no ptoas/*.pto for these dumps and assumed the chip.
        let (chip, backend) = BackendChoice::resolve(None, None, None);
        assert_eq!(chip, Chip::Ascend910B);
        let map = memory_map::build(&name, &text, chip, backend).expect("map");
        let mut ours = serde_json::to_value(&map).unwrap();
        // add the per-function source lines the reference embeds
        for (f, v) in map.functions.iter().zip(ours["functions"].as_array_mut().unwrap()) {
            v["source"] = serde_json::to_value(memory_map::source_lines(&text, f)).unwrap();
        }
        let rf = reference["functions"].as_array().unwrap();
        let of = ours["functions"].as_array().unwrap();
        assert_eq!(
            rf.iter().map(|f| f["name"].clone()).collect::<Vec<_>>(),
            of.iter().map(|f| f["name"].clone()).collect::<Vec<_>>(),
            "{}: function list",
            json_path.display()
        );
        for (r, o) in rf.iter().zip(of) {
            let n = &r["name"];
            for key in ["ftype", "src_start", "src_end", "spaces", "source"] {
                assert_eq!(r[key], o[key], "{}: {n} {key}", json_path.display());
            }
            let rb = r["boxes"].as_array().unwrap();
            let ob = o["boxes"].as_array().unwrap();
            for (i, (x, y)) in rb.iter().zip(ob).enumerate() {
                assert_eq!(x, y, "{}: {n} box {i}", json_path.display());
            }
            assert_eq!(rb.len(), ob.len(), "{}: {n} box count", json_path.display());
        }
        assert_eq!(reference, ours, "{}", json_path.display());
    }
}

#[test]
fn overview_of_the_real_dump() {
    let dump = passes_root().join("yuanfeng219-arch_PyPTO3/32_after_AllocateMemoryAddr.py");
    let text = std::fs::read_to_string(dump).unwrap();
    let (chip, backend) = BackendChoice::resolve(None, None, None);
    let map = memory_map::build("32_after_AllocateMemoryAddr.py", &text, chip, backend).unwrap();
    let o = memory_map::overview(&map);
    assert_eq!(o.spaces, ["Vec", "Mat", "Left", "Right", "Acc"]);
    assert_eq!(o.rows.len(), 38);
    // every cell is a function's own space summary, "—" (None) where it has none
    for (row, f) in o.rows.iter().zip(&map.functions) {
        for (space, cell) in o.spaces.iter().zip(&row.cells) {
            assert_eq!(cell.as_ref(), f.spaces.iter().find(|s| &s.space == space));
        }
    }
    let max = map.functions.iter().flat_map(|f| &f.spaces).map(|s| s.hwm_bytes as f64 * 100.0 / s.limit_bytes as f64).fold(0.0, f64::max);
    assert!((o.highest_usage_percent - max).abs() < 1e-9);
}

/// Every snapshot of every `passes_dump/` against what pypto's `memory_map` computed from it
/// (`fixtures/passes/expected-memory-maps.json`, written by `expected-memory-maps.py` from a
/// pypto checkout): the maps of every snapshot at or after `AllocateMemoryAddr`, and the
/// refusals (no compute function with tiles; `MemRef`s not yet allocated) before it.
#[test]
fn every_snapshot_matches_the_tool() {
    let expected: serde_json::Value =
        serde_json::from_slice(&std::fs::read(passes_root().join("expected-memory-maps.json")).unwrap()).unwrap();
    let expected = expected.as_object().unwrap();
    assert!(expected.len() >= 150, "{}", expected.len());
    let (mut maps, mut refused) = (0, 0);
    for (rel, want) in expected {
        let text = std::fs::read_to_string(passes_root().join(rel)).unwrap();
        let name = Path::new(rel).file_name().unwrap().to_string_lossy().into_owned();
        let (chip, backend) = BackendChoice::resolve(None, None, None);
        let got = memory_map::build(&name, &text, chip, backend);
        if let Some(kind) = want["error"].as_str() {
            let e = got.expect_err(rel);
            let needle = match kind {
                "no_functions" => "no AIC/AIV/InCore",
                _ => "still sits at offset 0",
            };
            assert!(e.message.contains(needle), "{rel}: {e}");
            refused += 1;
        } else {
            let map = got.unwrap_or_else(|e| panic!("{rel}: {e}"));
            let ours = serde_json::to_value(&map.functions).unwrap();
            assert_eq!(ours, want["functions"], "{rel}");
            maps += 1;
        }
    }
    assert!(maps >= 40 && refused >= 100, "{maps} maps, {refused} refusals");
}

/// The defining and reading lines of each box's tiles span exactly the box's lifetime, on the
/// real dump and the ruff-formatted one.
#[test]
fn tile_lines_span_each_box() {
    for rel in [
        "yuanfeng219-arch_PyPTO3/32_after_AllocateMemoryAddr.py",
        "generated-paged_attention-ruff-partial/passes_dump/35_after_AllocateMemoryAddr.py",
    ] {
        let text = std::fs::read_to_string(passes_root().join(rel)).unwrap();
        let (chip, backend) = BackendChoice::resolve(None, None, None);
        let map = memory_map::build("35_after_AllocateMemoryAddr.py", &text, chip, backend).unwrap();
        let lines = memory_map::tile_lines(rel, &text).unwrap();
        assert_eq!(lines.len(), map.functions.len());
        for (f, (name, tl)) in map.functions.iter().zip(&lines) {
            assert_eq!(&f.name, name);
            for b in &f.boxes {
                let names: Vec<&str> = std::iter::once(b.tile.name.as_str()).chain(b.aliases.iter().map(String::as_str)).collect();
                let all: Vec<u32> = tl
                    .iter()
                    .filter(|t| names.contains(&t.name.as_str()))
                    .flat_map(|t| t.defined.iter().flat_map(|d| [d.0, d.1]).chain(t.read.iter().copied()))
                    .collect();
                assert_eq!(all.iter().min(), Some(&b.tile.start_line), "{rel} {}", b.tile.name);
                assert_eq!(all.iter().max(), Some(&b.tile.end_line), "{rel} {}", b.tile.name);
            }
        }
    }
}
