//! Runs the built `pypto-viewer` binary on temporary copies of fixture directories.

#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    clippy::naive_bytecount,
    clippy::decimal_literal_representation,
    clippy::too_many_lines,
    clippy::float_cmp,
    clippy::cast_possible_wrap
)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pypto-viewer"))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read") {
        let e = e.expect("entry");
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

fn temp_fixture(name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/runtime").join(name);
    let dst = std::env::temp_dir().join(format!("pypto-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dst);
    copy_dir(&src, &dst.join("dfx_outputs"));
    dst
}

#[test]
fn manifest_and_report() {
    let dir = temp_fixture("a2a3sim-L4-TestChipSwimlane_default");
    std::fs::write(dir.join(".hidden.json"), "{}").expect("hidden");
    let out = bin().args(["manifest", dir.to_str().expect("utf8")]).output().expect("run");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let n_files = std::fs::read_dir(dir.join("dfx_outputs")).expect("dir").count();
    assert!(text.starts_with(&format!("{n_files} files")), "{text}");
    let m = std::fs::read(dir.join("pypto-viewer-manifest.json")).expect("manifest");
    let entries = pypto_formats::manifest::parse("m", &m).expect("parse");
    assert_eq!(entries.len(), n_files);
    assert!(entries.iter().all(|(p, _)| p.starts_with("dfx_outputs/")));
    // Running again does not list the manifest itself.
    let out = bin().args(["manifest", dir.to_str().expect("utf8")]).output().expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with(&format!("{n_files} files")));

    let out = bin().args(["report", dir.to_str().expect("utf8")]).output().expect("run");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[runtime] dfx_outputs"), "{text}");
    assert!(text.contains("level 4"), "{text}");
    assert!(text.contains("5 tasks"), "{text}");
    assert!(text.contains("time range: 271.460 us - 3046.640 us (span: 2775.180 us)"), "{text}");
    assert!(text.contains("deps: 5 tasks, 6 edges, 7 tensors"), "{text}");

    let out = bin().args(["report", dir.to_str().expect("utf8"), "--json"]).output().expect("run");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let ds = &v["datasets"][0];
    assert_eq!(ds["records"]["tasks"], 5);
    assert_eq!(ds["deps"]["edges"], 6);
    assert_eq!(ds["records"]["clock_hz"], 50_000_000);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn report_lists_file_errors_and_exits_zero() {
    let dir = temp_fixture("a2a3sim-L1-TestChipSwimlane_default");
    let rec = dir.join("dfx_outputs/chip_swimlane_records.json");
    let bytes = std::fs::read(&rec).expect("read");
    std::fs::write(&rec, &bytes[..bytes.len() / 2]).expect("truncate");
    let out = bin().args(["report", dir.to_str().expect("utf8")]).output().expect("run");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.contains("error: ")).expect("error line");
    assert!(line.contains("dfx_outputs/chip_swimlane_records.json:"), "{line}");
    let pos: Vec<&str> = line.split(':').collect();
    assert!(pos[2].trim().parse::<u64>().expect("line") > 0, "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(bin().output().expect("run").status.code(), Some(2));
    assert_eq!(bin().args(["frobnicate"]).output().expect("run").status.code(), Some(2));
    assert_eq!(bin().args(["report"]).output().expect("run").status.code(), Some(2));
    assert_eq!(bin().args(["report", "/nonexistent/dir/x"]).output().expect("run").status.code(), Some(2));
}

/// A copy of the real 49-pass dump with snapshot 10 cut right after the first `(` of its line
/// 20 and two bytes of snapshot 20's line 8 (column 11) replaced by `0xFF 0xFE`: `report` lists
/// both problems with file, line and column (JSON `snapshot_problems` and text), and still
/// counts every pass.
#[test]
fn report_lists_damaged_pass_snapshots() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/passes/generated-paged_attention/passes_dump");
    let dir = std::env::temp_dir().join(format!("pypto-cli-test-{}-damaged-passes", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dump = dir.join("case/passes_dump");
    copy_dir(&src, &dump);
    let (cut_file, bad_file) = ("10_after_OutlineClusterScopes.py", "20_after_ResolveBackendOpLayouts.py");
    let line_start = |b: &[u8], line: usize| b.split(|&c| c == b'\n').take(line - 1).map(|l| l.len() + 1).sum::<usize>();
    let b = std::fs::read(dump.join(cut_file)).expect("read");
    let open_col = b[line_start(&b, 20)..].iter().position(|&c| c == b'(').expect("a '(' on line 20") + 1;
    std::fs::write(dump.join(cut_file), &b[..line_start(&b, 20) + open_col]).expect("cut");
    let mut b = std::fs::read(dump.join(bad_file)).expect("read");
    let bad_at = line_start(&b, 8) + 10;
    b[bad_at..bad_at + 2].copy_from_slice(&[0xFF, 0xFE]);
    std::fs::write(dump.join(bad_file), &b).expect("write");

    let out = bin().args(["report", "--json"]).arg(&dir).output().expect("run");
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let ds = &v["datasets"][0];
    assert_eq!(ds["snapshots"], 49);
    let want = serde_json::json!([
        {"file": cut_file, "line": 20, "column": open_col, "message": "'(' was never closed"},
        {"file": bad_file, "line": 8, "column": 11,
         "message": format!("invalid UTF-8 at byte offset {bad_at} (0xFF; 2 undecodable bytes in the file, shown as U+FFFD)")},
    ]);
    assert_eq!(ds["snapshot_problems"], want);
    assert_eq!(ds["errors"], serde_json::json!([]));

    let out = bin().arg("report").arg(&dir).output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("  snapshot problem: {cut_file}:20:{open_col}: '(' was never closed\n")), "{text}");
    assert!(text.contains(&format!("  snapshot problem: {bad_file}:8:11: invalid UTF-8 at byte offset {bad_at}")), "{text}");
    // The undamaged dump has none.
    let out = bin().args(["report", "--json"]).arg(src.parent().expect("case")).output().expect("run");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let ds = v["datasets"].as_array().expect("datasets").iter().find(|d| d["kind"] == "PassDump").expect("the dump");
    assert_eq!((&ds["snapshots"], &ds["snapshot_problems"]), (&serde_json::json!(49), &serde_json::json!([])));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `compare-passes`: `generated-tile_softmax` (given as its case's parent) against a copy of
/// its `passes_dump` (given itself) whose snapshots from `35_after_AllocateMemoryAddr.py` on
/// place `mem_vec_4` at 40960 instead of 32768 (as `fixtures/passes/expected-cross-diffs.sh`
/// makes it): one pass differs in effect, 15 in output (+2 −2 lines each), the kernel's Vec
/// high-water mark grows by 8192 bytes; and the usage errors.
#[test]
fn compare_passes_of_a_moved_buffer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/passes");
    let case = root.join("generated-tile_softmax/_jit_tile_softmax_20261129_165255");
    let dir = std::env::temp_dir().join(format!("pypto-cli-test-{}-compare-passes", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let moved = dir.join("case/passes_dump");
    copy_dir(&case.join("passes_dump"), &moved);
    for e in std::fs::read_dir(&moved).expect("read") {
        let p = e.expect("entry").path();
        let index: u32 = p.file_name().unwrap().to_string_lossy().split('_').next().unwrap().parse().unwrap();
        if index >= 35 {
            let text = std::fs::read_to_string(&p).unwrap();
            let text = text
                .replace("pl.MemRef(mem_vec_4, pl.const(32768, pl.INT64), 256)", "pl.MemRef(mem_vec_4, pl.const(40960, pl.INT64), 256)");
            std::fs::write(&p, text).unwrap();
        }
    }
    let out = bin().arg("compare").arg(root.join("generated-tile_softmax")).arg(&moved).arg("--json").output().expect("run");
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["passes"].as_array().unwrap().len(), 49);
    assert_eq!((v["effect_differences"].as_u64(), v["output_differences"].as_u64()), (Some(1), Some(15)));
    assert_eq!((v["first_effect_difference"].as_u64(), v["first_output_difference"].as_u64()), (Some(34), Some(34)));
    let row = &v["passes"][34];
    assert_eq!((row["a"]["name"].as_str(), row["b"]["index"].as_u64()), (Some("AllocateMemoryAddr"), Some(35)));
    assert_eq!(
        (row["effect_differs"].as_bool(), row["cross_added"].as_u64(), row["cross_removed"].as_u64()),
        (Some(true), Some(2), Some(2))
    );
    let mem = &v["memory"][0];
    assert_eq!(v["memory"].as_array().unwrap().len(), 1);
    assert_eq!((mem["function"].as_str(), mem["space"].as_str()), (Some("tile_softmax_incore_0"), Some("Vec")));
    assert_eq!(
        (mem["a_hwm_bytes"].as_i64(), mem["b_hwm_bytes"].as_i64(), mem["delta_bytes"].as_i64()),
        (Some(33024), Some(41216), Some(8192))
    );
    assert!((mem["delta_percent"].as_f64().unwrap() - 8192.0 * 100.0 / 33024.0).abs() < 1e-9);
    // A's case names its chip (kernels/aiv/*.pto); the copy has no case files: assumed
    assert_eq!(v["memory_info"]["chip"], "Ascend910B");
    assert!(v["memory_info"]["a_chip_source"].as_str().unwrap().ends_with("tile_softmax_incore_0.pto"));
    assert_eq!(v["memory_info"]["notes"].as_array().unwrap().len(), 1);
    assert_eq!(v["problems"]["current"]["problems"], serde_json::json!([]));

    let out = bin().arg("compare").arg(case.join("passes_dump")).arg(&moved).output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("first pass whose output differs: row 34: A 35 AllocateMemoryAddr / B 35 AllocateMemoryAddr"), "{text}");
    assert!(text.contains("1 pass(es) differ in effect, 15 in output; 0 only in A, 0 only in B"), "{text}");
    assert!(text.contains("tile_softmax_incore_0  Vec              33024       41216       +8192    +24.8%      188416"), "{text}");

    // not a directory, nothing to compare: 2; several pass dumps: 1
    assert_eq!(bin().arg("compare").arg(dir.join("nothing")).arg(&moved).output().expect("run").status.code(), Some(2));
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    assert_eq!(bin().arg("compare").arg(dir.join("empty")).arg(&moved).output().expect("run").status.code(), Some(2));
    let out = bin().arg("compare").arg(&root).arg(&moved).output().expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds 4 pass dumps"), "{out:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
