//! Golden tests of the `deps_viewer` edge modes against every runtime fixture with a deps.json:
//! per mode, the edge set parsed from `deps_viewer[_<mode>].txt`, the whole rendered text,
//! and the stdout lines in `reference_deps_viewer_<mode>.stdout.txt`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::too_many_lines)]

mod common;
use pypto_analysis::deps_graph::{sidecar_tasks, SidecarTask};
use pypto_analysis::deps_viewer::DepsViewer;
use pypto_analysis::edge_modes::EdgeMode;
use pypto_analysis::tasks;
use pypto_formats::{deps, name_map, records};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

fn deps_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/runtime");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures/runtime")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("deps.json").is_file())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 16, "expected 16 fixtures with deps.json, found {}", dirs.len());
    dirs
}

/// The perf sidecar as `deps_viewer` reads it ([`sidecar_tasks`] of the joined records).
fn sidecar(dir: &Path, deps: &deps::Deps) -> Vec<SidecarTask> {
    let p = dir.join("chip_swimlane_records.json");
    let Ok(bytes) = std::fs::read(&p) else {
        return Vec::new();
    };
    let recs = records::parse("chip_swimlane_records.json", &bytes).unwrap();
    let joined = tasks::join(&recs);
    sidecar_tasks(&joined, &tasks::func_ids(&joined, Some(deps)))
}

fn name_map_of(dir: &Path) -> Option<name_map::NameMap> {
    let mut maps = common::name_map_files(dir);
    let p = maps.pop()?;
    Some(name_map::parse("name_map.json", &std::fs::read(p).unwrap()).unwrap())
}

/// `(pred, succ)` display pairs from the `=== TASK` / `  -> ` blocks of a text file.
fn parse_text_edges(text: &str) -> BTreeSet<(String, String)> {
    let mut cur = String::new();
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("=== TASK ") {
            let id_end = if rest.starts_with('(') { rest.find(')').unwrap() + 1 } else { rest.find(' ').unwrap() };
            rest[..id_end].clone_into(&mut cur);
        } else if let Some(succ) = line.strip_prefix("  -> ") {
            out.insert((cur.clone(), succ.to_owned()));
        }
    }
    out
}

fn expected_file(mode: EdgeMode) -> String {
    match mode {
        EdgeMode::Full => "deps_viewer.txt".to_owned(),
        m => format!("deps_viewer_{}.txt", m.as_str()),
    }
}

#[test]
fn every_fixture_every_mode_matches_deps_viewer() {
    let mut checked = 0usize;
    let mut removed_total = 0usize;
    for dir in deps_dirs() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let deps = deps::parse("deps.json", &std::fs::read(dir.join("deps.json")).unwrap()).unwrap();
        let side = sidecar(&dir, &deps);
        let nm = name_map_of(&dir);
        let viewer = DepsViewer::new(&deps, &side, nm.as_ref());
        for mode in EdgeMode::ALL {
            let file = expected_file(mode);
            let expected = std::fs::read_to_string(dir.join(&file)).unwrap_or_else(|e| panic!("{name}/{file}: {e}"));
            let source = expected.lines().nth(1).and_then(|l| l.strip_prefix("  source_deps_json: ")).expect("source line");
            let sel = viewer.select(mode);
            // Edge set.
            let ours: BTreeSet<(String, String)> =
                sel.shown_pairs(&viewer.graph).into_iter().map(|(p, s)| (viewer.graph.display_id(p), viewer.graph.display_id(s))).collect();
            assert_eq!(ours, parse_text_edges(&expected), "{name} {}: edge set", mode.as_str());
            // Whole text.
            let text = viewer.render_selection(&sel, source);
            if text != expected {
                for (i, (a, b)) in text.lines().zip(expected.lines()).enumerate() {
                    assert_eq!(a, b, "{name}/{file} line {}", i + 1);
                }
                assert_eq!(text.lines().count(), expected.lines().count(), "{name}/{file}");
                panic!("{name}/{file}: trailing newline differs");
            }
            // Statistics.
            if mode != EdgeMode::Full {
                let stdout = std::fs::read_to_string(dir.join(format!("reference_deps_viewer_{}.stdout.txt", mode.as_str()))).unwrap();
                let lines = sel.stdout_lines(&viewer.graph, &sel.output_file_name());
                let exp: Vec<&str> = stdout.lines().collect();
                assert_eq!(lines, exp, "{name} {} stdout", mode.as_str());
                removed_total += sel.removed_count;
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 16 * 5);
    // The fixtures do exercise a removal (DummyExplicitDepBarrier).
    assert!(removed_total > 0);
}

/// Differential check against the reference on generated cases: `DEPS_VIEWER_DIFF_DIR` holds
/// `case*/deps.json` with the reference's `out_<mode>.txt` / `stdout_<mode>.txt` (written by
/// `deps_viewer.py deps.json --edge-mode <mode> -o out_<mode>.txt` in the case directory).
/// Cases come from `tests/tools/deps_viewer_diff_gen.py` (see its docstring). Run:
/// `DEPS_VIEWER_DIFF_DIR=... cargo test -p pypto-analysis --test golden_deps_viewer -- --ignored`.
#[test]
#[ignore = "needs DEPS_VIEWER_DIFF_DIR with reference outputs"]
fn differential_against_reference_outputs() {
    let root = PathBuf::from(std::env::var("DEPS_VIEWER_DIFF_DIR").expect("DEPS_VIEWER_DIFF_DIR"));
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.join("deps.json").is_file()).collect();
    dirs.sort();
    let (mut cases, mut dataflow_proofs) = (0usize, 0usize);
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let deps = deps::parse("deps.json", &std::fs::read(dir.join("deps.json")).unwrap()).unwrap();
        let viewer = DepsViewer::new(&deps, &[], None);
        let mut removed = HashMap::new();
        for mode in EdgeMode::ALL {
            let m = mode.as_str();
            let expected = std::fs::read_to_string(dir.join(format!("out_{m}.txt"))).unwrap();
            let stdout = std::fs::read_to_string(dir.join(format!("stdout_{m}.txt"))).unwrap();
            let sel = viewer.select(mode);
            let text = viewer.render_selection(&sel, "deps.json");
            assert_eq!(text, expected, "{name} {m} text");
            let lines = sel.stdout_lines(&viewer.graph, &format!("out_{m}.txt"));
            let exp: Vec<&str> = stdout.lines().collect();
            assert_eq!(lines, exp, "{name} {m} stdout");
            let stderr = std::fs::read_to_string(dir.join(format!("stderr_{m}.txt"))).unwrap_or_default();
            assert_eq!(sel.warning(), stderr.lines().next().map(str::to_owned), "{name} {m} stderr");
            removed.insert(mode, sel.removed_count);
        }
        if removed[&EdgeMode::ReducedDataflow] > removed[&EdgeMode::Reduced] {
            dataflow_proofs += 1;
        }
        cases += 1;
    }
    eprintln!("{cases} cases identical; {dataflow_proofs} with creator edges removed by a dataflow proof");
    assert!(cases > 0);
}
