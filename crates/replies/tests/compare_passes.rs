//! Golden tests of the "Compiler runs" comparison (`pypto_replies::compare_passes`) on real
//! pairs of pass dumps from `fixtures/passes/`:
//! - `ruff`: the raw 49-pass `generated-paged_attention` against the same compile
//!   ruff-formatted (`generated-paged_attention-ruff-partial`: 00, 34, 35 — index gaps);
//! - `softmax-moved`: `generated-tile_softmax` against a copy (built here, as
//!   `expected-cross-diffs.sh` builds it) whose snapshots from `35_after_AllocateMemoryAddr.py`
//!   on place `mem_vec_4` 8192 bytes higher.
//!
//! Cross-diff sizes against `expected-cross-diffs.tsv` (GNU `diff --minimal`), memory
//! high-water marks against `expected-memory-maps.json` (pypto's own `memory_map`).

#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    clippy::panic,
    clippy::many_single_char_names,
    clippy::naive_bytecount,
    clippy::cast_possible_wrap,
    clippy::type_complexity
)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use pypto_analysis::pass_compare;
use pypto_formats::passes_dump::FRONTEND;
use pypto_protocol::compare_passes::{PassComparison, PassPairing};
use pypto_replies::compare_passes::{comparison, cross_diff, memory_comparison, Dump};
use pypto_replies::memory_map::{map_dump, requested_chip};

const RAW: &str = "generated-paged_attention/passes_dump";
const RUFF: &str = "generated-paged_attention-ruff-partial/passes_dump";
const SOFTMAX: &str = "generated-tile_softmax/_jit_tile_softmax_20261129_165255/passes_dump";
const MOVED_FROM: &str = "pl.MemRef(mem_vec_4, pl.const(32768, pl.INT64), 256)";
const MOVED_TO: &str = "pl.MemRef(mem_vec_4, pl.const(40960, pl.INT64), 256)";

fn passes() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/passes")
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

fn read(dir: &Path) -> Dump {
    Dump::read(names(dir), |n| std::fs::read(dir.join(n)).map_err(|e| e.to_string()))
}

/// The `softmax-moved` copy (see `expected-cross-diffs.sh`).
fn moved_copy() -> PathBuf {
    let src = passes().join(SOFTMAX);
    let dir = std::env::temp_dir().join(format!("pypto-compare-passes-{}-moved", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for n in names(&src) {
        let text = std::fs::read_to_string(src.join(&n)).unwrap();
        let index: u32 = n.split('_').next().unwrap().parse().unwrap();
        let text = if index >= 35 { text.replace(MOVED_FROM, MOVED_TO) } else { text };
        std::fs::write(dir.join(&n), text).unwrap();
    }
    dir
}

/// `(pair, a file, b file)` → `(added, removed, identical)` from `expected-cross-diffs.tsv`.
fn expected_cross() -> HashMap<(String, String, String), (u32, u32, bool)> {
    let tsv = std::fs::read_to_string(passes().join("expected-cross-diffs.tsv")).unwrap();
    tsv.lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            ((c[0].to_owned(), c[1].to_owned(), c[2].to_owned()), (c[3].parse().unwrap(), c[4].parse().unwrap(), c[5] == "1"))
        })
        .collect()
}

/// Every row's cross-diff size and sameness equal GNU diff's for the two snapshots it compares.
fn assert_cross_sizes(pair: &str, c: &PassComparison, a: &Dump, b: &Dump) {
    let want = expected_cross();
    let file = |d: &Dump, p: Option<u32>| p.map_or(FRONTEND.to_owned(), |p| d.list.passes[p as usize].file_name.clone());
    for (k, r) in c.rows.iter().enumerate() {
        let key = (pair.to_owned(), file(a, r.a_snapshot), file(b, r.b_snapshot));
        let &(added, removed, identical) = want.get(&key).unwrap_or_else(|| panic!("row {k}: no {key:?} in the tsv"));
        assert_eq!((r.cross_added, r.cross_removed, r.snapshots_differ), (added, removed, !identical), "row {k}: {key:?}");
    }
}

#[test]
fn raw_against_ruff_formatted_partial_dump() {
    let (a, b) = (read(&passes().join(RAW)), read(&passes().join(RUFF)));
    let c = comparison(&a.side(0), &b.side(1));
    assert_eq!((c.baseline_id, c.current_id), (0, 1));
    assert_eq!(c.rows.len(), 49);
    // B has MemoryReuse and AllocateMemoryAddr only: A's other 47 passes are one-sided
    assert_eq!((c.only_baseline, c.only_current), (47, 0));
    let same: Vec<(u32, u32, &str)> = c
        .rows
        .iter()
        .filter(|r| r.pairing == PassPairing::Same)
        .map(|r| (r.a.as_ref().unwrap().index, r.b.as_ref().unwrap().index, r.a.as_ref().unwrap().name.as_str()))
        .collect();
    assert_eq!(same, vec![(34, 34, "MemoryReuse"), (35, 35, "AllocateMemoryAddr")]);
    // one-sided rows compare with B's latest snapshot: the frontend before 34, 35 after it
    for r in c.rows.iter().filter(|r| r.pairing == PassPairing::OnlyBaseline) {
        let a_index = r.a.as_ref().unwrap().index;
        assert_eq!(r.b_snapshot, if a_index < 34 { None } else { Some(1) }, "{a_index}");
        // a one-sided pass differs in effect exactly when it changed something
        assert_eq!(r.effect_differs, !r.a.as_ref().unwrap().no_op, "{a_index}");
    }
    assert_cross_sizes("ruff", &c, &a, &b);
    // Same program, other layout: every snapshot differs in lines (and the frontends too) ...
    assert!(c.frontends_differ);
    assert_eq!((c.frontend_cross_added, c.frontend_cross_removed), (102, 27));
    assert_eq!((c.first_output_difference, c.output_differences), (Some(0), 49));
    // ... but AllocateMemoryAddr did the same to both (statements, not lines), while B's
    // MemoryReuse is diffed against its frontend (index gap) and so differs.
    let row = |name: &str| c.rows.iter().find(|r| r.b.as_ref().is_some_and(|s| s.name == name)).unwrap();
    assert!(row("MemoryReuse").effect_differs);
    assert!(!row("AllocateMemoryAddr").effect_differs);
    let b35 = row("AllocateMemoryAddr").b.as_ref().unwrap();
    let a35 = row("AllocateMemoryAddr").a.as_ref().unwrap();
    assert_ne!((a35.added, a35.removed), (b35.added, b35.removed), "the line counts differ, the effect does not");
    // B's listing has index gaps; both dumps are valid Python
    assert!(!c.current.problems.is_empty());
    assert!(c.baseline.problems.is_empty() && c.baseline.snapshot_problems.is_empty() && c.current.snapshot_problems.is_empty());
}

/// The statement rule of the effect comparison sees the same statements in the raw and the
/// ruff-formatted layout: every snapshot of the partial dump, taken whole as a "change"
/// against the raw one, cancels out.
#[test]
fn raw_and_ruff_snapshots_have_the_same_statements() {
    let (a, b) = (read(&passes().join(RAW)), read(&passes().join(RUFF)));
    for name in ["00_frontend.py", "34_after_MemoryReuse.py", "35_after_AllocateMemoryAddr.py"] {
        let (ta, tb) = (a.text(name).unwrap(), b.text(name).unwrap());
        let all = |t: &str| 0..pypto_analysis::pass_trace::split_lines(t).len() as u32;
        let whole = [pypto_analysis::pass_trace::Hunk { before: all(ta), after: all(tb) }];
        assert_eq!(pass_compare::change_set(name, ta, name, tb, &whole), pass_compare::ChangeSet::default(), "{name}");
        assert_ne!(ta, tb);
    }
}

#[test]
fn a_moved_buffer_differs_at_allocate_memory_addr_and_after() {
    let moved = moved_copy();
    let (a, b) = (read(&passes().join(SOFTMAX)), read(&moved));
    let c = comparison(&a.side(3), &b.side(4));
    assert_eq!(c.rows.len(), 49);
    assert!(c.rows.iter().all(|r| r.pairing == PassPairing::Same && r.a.as_ref().unwrap().index == r.b.as_ref().unwrap().index));
    assert_cross_sizes("softmax-moved", &c, &a, &b);
    let effect: Vec<u32> = c.rows.iter().filter(|r| r.effect_differs).map(|r| r.a.as_ref().unwrap().index).collect();
    assert_eq!(effect, vec![35]);
    let output: Vec<u32> = c.rows.iter().filter(|r| r.snapshots_differ).map(|r| r.a.as_ref().unwrap().index).collect();
    assert_eq!(output, (35..=49).collect::<Vec<_>>());
    assert_eq!((c.first_output_difference, c.first_effect_difference), (Some(34), Some(34)));
    assert_eq!((c.output_differences, c.effect_differences, c.frontends_differ), (15, 1, false));
    // the per-side counts are each dump's own pass list
    let r = &c.rows[34];
    assert_eq!((r.a.as_ref().unwrap().added, r.b.as_ref().unwrap().added), (4, 4));

    // the cross diff at AllocateMemoryAddr: the diff view's reply, A before, B after
    let d = cross_diff(&a.side(3), &b.side(4), Some(34), Some(34), None);
    assert_eq!(d.error, None);
    assert_eq!((d.added, d.removed, d.dataset_id, d.pass), (2, 2, 4, 34));
    assert_eq!((d.before_file.as_str(), d.after_file.as_str()), ("A: 35_after_AllocateMemoryAddr.py", "B: 35_after_AllocateMemoryAddr.py"));
    assert_eq!(d.kinds.iter().filter(|&&k| k == 3).count(), 2, "two replaced lines");
    assert_eq!(d.changes.len(), 2);
    for &(row, ref before, ref after) in &d.changes {
        let (bl, al) =
            (d.before_lines.get(d.before[row as usize] as usize).unwrap(), d.after_lines.get(d.after[row as usize] as usize).unwrap());
        let changed = |l: &str, r: &[(u32, u32)]| r.iter().map(|&(s, e)| l[s as usize..e as usize].to_owned()).collect::<Vec<_>>();
        assert_eq!((changed(bl, before), changed(al, after)), (vec!["32768".to_owned()], vec!["40960".to_owned()]));
    }
    // per function: the kernel holds both changes, the orchestration none
    assert!(d.functions.contains(&"_jit_tile_softmax.tile_softmax_incore_0".to_owned()), "{:?}", d.functions);
    let f = cross_diff(&a.side(3), &b.side(4), Some(34), Some(34), Some("_jit_tile_softmax.tile_softmax_incore_0"));
    assert_eq!((f.added, f.removed, f.function.as_deref()), (2, 2, Some("_jit_tile_softmax.tile_softmax_incore_0")));
    let f = cross_diff(&a.side(3), &b.side(4), Some(34), Some(34), Some("_jit_tile_softmax.tile_softmax"));
    assert_eq!((f.added, f.removed), (0, 0));
    // before AllocateMemoryAddr the snapshots are equal; a position that does not exist says so
    let d = cross_diff(&a.side(3), &b.side(4), Some(33), Some(33), None);
    assert_eq!((d.added, d.removed, d.error), (0, 0, None));
    let d = cross_diff(&a.side(3), &b.side(4), Some(33), Some(49), None);
    assert_eq!(d.error.as_deref(), Some("B has no pass 49"));
    let _ = std::fs::remove_dir_all(moved);
}

#[test]
fn identical_dumps_differ_nowhere() {
    for rel in [RAW, RUFF, SOFTMAX] {
        let (a, b) = (read(&passes().join(rel)), read(&passes().join(rel)));
        let c = comparison(&a.side(0), &b.side(1));
        assert_eq!(c.rows.len(), a.list.passes.len(), "{rel}");
        assert!(c.rows.iter().all(|r| r.pairing == PassPairing::Same && !r.effect_differs && !r.snapshots_differ), "{rel}");
        assert_eq!((c.output_differences, c.effect_differences, c.first_output_difference, c.frontends_differ), (0, 0, None, false));
        let d = cross_diff(&a.side(0), &b.side(1), Some(0), Some(0), None);
        assert_eq!((d.added, d.removed), (0, 0));
    }
}

/// The cross diff of the raw and the ruff-formatted `AllocateMemoryAddr` snapshot reproduces both
/// files (before = A's lines, after = B's, each in order) with GNU diff's counts.
#[test]
fn cross_diff_rows_reproduce_both_snapshots() {
    let (a, b) = (read(&passes().join(RAW)), read(&passes().join(RUFF)));
    let d = cross_diff(&a.side(0), &b.side(1), Some(34), Some(1), None);
    let want =
        expected_cross()[&("ruff".to_owned(), "35_after_AllocateMemoryAddr.py".to_owned(), "35_after_AllocateMemoryAddr.py".to_owned())];
    assert_eq!((d.added, d.removed), (want.0, want.1));
    let before: Vec<i32> = d.before.iter().copied().filter(|&i| i >= 0).collect();
    let after: Vec<i32> = d.after.iter().copied().filter(|&i| i >= 0).collect();
    assert_eq!(before, (0..d.before_lines.len() as i32).collect::<Vec<_>>());
    assert_eq!(after, (0..d.after_lines.len() as i32).collect::<Vec<_>>());
    assert_eq!(d.before_lines.iter().collect::<Vec<_>>().join("\n") + "\n", a.text("35_after_AllocateMemoryAddr.py").unwrap());
    assert_eq!(d.after_lines.iter().collect::<Vec<_>>().join("\n") + "\n", b.text("35_after_AllocateMemoryAddr.py").unwrap());
    // the frontends (None)
    let d = cross_diff(&a.side(0), &b.side(1), None, None, None);
    assert_eq!((d.added, d.removed, d.pass), (102, 27, u32::MAX));
}

/// High-water marks per function × space of pypto's `memory_map` for a snapshot.
fn tool_hwm(rel: &str) -> Vec<(String, String, i64)> {
    let all: serde_json::Value = serde_json::from_slice(&std::fs::read(passes().join("expected-memory-maps.json")).unwrap()).unwrap();
    let mut out = Vec::new();
    for f in all[rel]["functions"].as_array().unwrap() {
        for s in f["spaces"].as_array().unwrap() {
            out.push((f["name"].as_str().unwrap().to_owned(), s["space"].as_str().unwrap().to_owned(), s["hwm"].as_i64().unwrap()));
        }
    }
    out.sort();
    out
}

fn memory_of(dir: &Path, id: u32) -> pypto_protocol::memory_map::MemoryMapData {
    let chip = requested_chip("Ascend910B").unwrap();
    map_dump(id, &names(dir), None, &chip, |n| std::fs::read(dir.join(n)).map_err(|e| e.to_string()))
}

#[test]
fn memory_high_water_marks_are_the_tools() {
    // raw against ruff: the same hwm on both sides, pypto's for each snapshot
    let (a, b) = (memory_of(&passes().join(RAW), 0), memory_of(&passes().join(RUFF), 1));
    let m = memory_comparison(0, 1, &a, &b, None);
    assert_eq!(
        (m.a_file.as_str(), m.b_file.as_str(), m.chip.as_str()),
        ("35_after_AllocateMemoryAddr.py", "35_after_AllocateMemoryAddr.py", "Ascend910B")
    );
    assert!(m.errors.is_empty(), "{:?}", m.errors);
    let side = |f: fn(&pypto_protocol::compare_passes::MemoryCompareRow) -> Option<i64>| {
        let mut v: Vec<(String, String, i64)> = m.rows.iter().map(|r| (r.function.clone(), r.space.clone(), f(r).unwrap())).collect();
        v.sort();
        v
    };
    assert_eq!(side(|r| r.a_hwm_bytes), tool_hwm(&format!("{RAW}/35_after_AllocateMemoryAddr.py")));
    assert_eq!(side(|r| r.b_hwm_bytes), tool_hwm(&format!("{RUFF}/35_after_AllocateMemoryAddr.py")));
    assert!(m.rows.len() >= 5 && m.rows.iter().all(|r| r.delta_bytes == 0));
    assert!(m.rows.iter().all(|r| r.limit_bytes.is_some()));

    // the moved buffer: Vec of the kernel 8192 bytes higher in B
    let moved = moved_copy();
    let (a, b) = (memory_of(&passes().join(SOFTMAX), 0), memory_of(&moved, 1));
    let m = memory_comparison(0, 1, &a, &b, Some("a5"));
    let want_a = tool_hwm(&format!("{SOFTMAX}/35_after_AllocateMemoryAddr.py"));
    assert_eq!(want_a, vec![("tile_softmax_incore_0".to_owned(), "Vec".to_owned(), 33024)]);
    let rows: Vec<(&str, &str, Option<i64>, Option<i64>, i64, Option<i64>)> = m
        .rows
        .iter()
        .map(|r| (r.function.as_str(), r.space.as_str(), r.a_hwm_bytes, r.b_hwm_bytes, r.delta_bytes, r.limit_bytes))
        .collect();
    // 40960 + 256; the limit is the chosen chip's (Ascend950: 240 KiB)
    assert_eq!(rows, vec![("tile_softmax_incore_0", "Vec", Some(33024), Some(41216), 8192, Some(245_760))]);
    assert_eq!(m.chip, "Ascend950");
    let _ = std::fs::remove_dir_all(moved);
}

#[test]
fn memory_rows_sort_by_change_and_keep_one_sided_functions() {
    use pypto_protocol::memory_map::{MemFunctionMap, MemSpaceRow, MemoryMapData};
    let f = |name: &str, spaces: &[(&str, i64)]| MemFunctionMap {
        name: name.to_owned(),
        spaces: spaces.iter().map(|&(s, h)| MemSpaceRow { space: s.to_owned(), hwm_bytes: h, ..MemSpaceRow::default() }).collect(),
        ..MemFunctionMap::default()
    };
    let a = MemoryMapData {
        chip: "Ascend910B".into(),
        chip_detected: true,
        functions: vec![f("k1", &[("Vec", 100), ("Mat", 10)]), f("gone", &[("Vec", 50)])],
        ..MemoryMapData::default()
    };
    let b = MemoryMapData {
        chip: "Ascend950".into(),
        chip_detected: true,
        functions: vec![f("k1", &[("Vec", 100), ("Mat", 400), ("Acc", 64)]), f("new", &[("Left", 70)])],
        error: None,
        ..MemoryMapData::default()
    };
    let m = memory_comparison(0, 1, &a, &b, None);
    let rows: Vec<(&str, &str, Option<i64>, Option<i64>, i64)> =
        m.rows.iter().map(|r| (r.function.as_str(), r.space.as_str(), r.a_hwm_bytes, r.b_hwm_bytes, r.delta_bytes)).collect();
    assert_eq!(
        rows,
        vec![
            ("k1", "Mat", Some(10), Some(400), 390),
            ("new", "Left", None, Some(70), 70),
            ("k1", "Acc", None, Some(64), 64),
            ("gone", "Vec", Some(50), None, -50),
            ("k1", "Vec", Some(100), Some(100), 0),
        ]
    );
    // the limits are B's chip's; the differing chips are said
    assert_eq!(m.chip, "Ascend950");
    assert_eq!(m.rows[0].limit_bytes, Some(524_288));
    assert_eq!(m.notes.len(), 1, "{:?}", m.notes);
    // a dump without a map is an error, not a panic
    let none = MemoryMapData { error: Some("no AllocateMemoryAddr".into()), ..MemoryMapData::default() };
    let m = memory_comparison(0, 1, &none, &b, None);
    assert_eq!(m.errors, vec!["A: no AllocateMemoryAddr".to_owned()]);
    assert!(m.rows.iter().all(|r| r.a_hwm_bytes.is_none()));
}
