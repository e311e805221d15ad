//! The panel's path tables (`perf_panel::paths`, what the worker keeps per dataset) on every
//! runtime fixture: equal to the analyses the CLI report runs (critical path, gap & blocker,
//! early dispatch, chains) and, where the capture has `CPM_*.json`, the file's task set equals
//! the computed path (no "differs" note), with the model fed the computed paths agreeing with a
//! model that computes them itself.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::float_cmp)]

mod common;

use pypto_analysis::critical_path::{self, StallKind};
use pypto_analysis::perf_panel::paths::{self, COMPUTED};
use pypto_analysis::perf_panel::{early_dispatch, gap_blocker, single_dep_chains};
use pypto_analysis::runtime_model::{CpmInputs, RuntimeModel};
use pypto_analysis::tasks;
use pypto_formats::{cpm, deps, name_map, records};
use std::path::Path;

fn cpm_inputs(dir: &Path) -> CpmInputs {
    let mut c = CpmInputs::default();
    for (file, is_static) in [("CPM_static.json", true), ("CPM_observed.json", false)] {
        let p = dir.join(file);
        if let Ok(bytes) = std::fs::read(&p) {
            let parsed = cpm::read_path(file, &bytes).unwrap();
            let slot = if is_static { &mut c.static_path } else { &mut c.observed_path };
            *slot = Some((file.to_owned(), parsed));
        }
    }
    c
}

#[test]
fn path_tables_equal_the_report_analyses_on_every_fixture() {
    let mut with_cpm = 0;
    for dir in common::runtime_dirs() {
        let label = dir.display().to_string();
        let r = records::parse("r", &std::fs::read(dir.join("chip_swimlane_records.json")).unwrap()).unwrap();
        let d = std::fs::read(dir.join("deps.json")).ok().map(|b| deps::parse("deps.json", &b).unwrap());
        let names = common::name_map_files(&dir).first().map(|p| name_map::parse("n", &std::fs::read(p).unwrap()).unwrap());
        let cpm = cpm_inputs(&dir);
        let has_cpm = cpm.static_path.is_some();
        with_cpm += usize::from(has_cpm);

        let prep = paths::prepare(&r, d.as_ref(), names.as_ref(), &cpm);
        let mut fed = cpm_inputs(&dir);
        prep.fill_cpm_inputs(&mut fed);
        let expected_source = prep.path_source();
        let model = RuntimeModel::build(&r, d.clone(), names.clone(), fed);
        let reference = RuntimeModel::build(&r, d.clone(), names.clone(), cpm_inputs(&dir));
        assert_eq!(model.static_path, reference.static_path, "{label}");
        assert_eq!(model.observed_path, reference.observed_path, "{label}");
        assert_eq!(reference.path_source, expected_source, "{label}");
        let t = prep.finish(&model.tasks, &r);

        // What `pypto-viewer report` computes.
        let (g, cp) = critical_path::compute(&r, d.as_ref(), names.as_ref()).unwrap();
        assert_eq!(t.critical_path_error, None, "{label}");
        assert_eq!(t.makespan_us, cp.us(cp.makespan_ticks), "{label}");
        assert_eq!(t.compute_us, cp.us(cp.compute_total_ticks), "{label}");
        assert!(t.tiling_exact, "{label}");
        for k in [StallKind::DataWait, StallKind::CoreWait, StallKind::FrontGap] {
            let want = cp.us(cp.stall_of(k));
            let got = t.stall_by_kind.iter().find(|s| s.kind == k.as_str()).map_or(0.0, |s| s.stall_us);
            assert_eq!(got, want, "{label} {}", k.as_str());
        }
        assert_eq!(t.gap_blocker, gap_blocker::gap_blocker(&g, &cp), "{label}");
        let static_ids: Vec<u64> = t.static_path.tasks.iter().map(|p| p.task_id).collect();
        let observed_ids: Vec<u64> = t.observed_path.tasks.iter().map(|p| p.task_id).collect();
        assert_eq!(static_ids, cp.static_path, "{label}");
        assert_eq!(observed_ids, cp.observed.task_id, "{label}");
        assert!((t.static_path.length_us - cp.us(cp.static_len_ticks)).abs() < 1e-6, "{label}");
        let expect_src = |f: &str| {
            if has_cpm {
                f.to_owned()
            } else {
                COMPUTED.to_owned()
            }
        };
        assert_eq!(t.static_path.source, expect_src("CPM_static.json"), "{label}");
        assert_eq!(t.observed_path.source, expect_src("CPM_observed.json"), "{label}");
        assert_eq!(t.static_path.note, None, "{label}: CPM set differs");
        assert_eq!(t.observed_path.note, None, "{label}: CPM set differs");
        match &d {
            Some(d) => {
                let joined = tasks::join(&r);
                assert_eq!(t.early_dispatch.as_ref(), Some(&early_dispatch::early_dispatch(&joined, d, &r)), "{label}");
                let chains = single_dep_chains::single_dep_chains(d, Some(&r));
                assert_eq!(t.chains.as_ref(), Some(&chains), "{label}");
                assert_eq!(t.chain_timing.len(), chains.len(), "{label}");
            }
            None => assert!(t.chains.is_none() && t.early_dispatch.is_none(), "{label}"),
        }
    }
    assert!(with_cpm >= 5, "fixtures with CPM files: {with_cpm}");
}

#[test]
fn paged_attention_known_values() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/runtime/a2a3sim-L4-TestPagedAttention_CaseMediumLocal");
    let r = records::parse("r", &std::fs::read(dir.join("chip_swimlane_records.json")).unwrap()).unwrap();
    let d = deps::parse("deps.json", &std::fs::read(dir.join("deps.json")).unwrap()).unwrap();
    let t = paths::prepare(&r, Some(&d), None, &cpm_inputs(&dir)).finish(&tasks::join(&r), &r);
    assert_eq!(t.observed_path.tasks.len(), 32);
    assert_eq!(t.gap_blocker.len(), 32);
    assert_eq!(t.chains.as_ref().unwrap().len(), 128);
    // The head's gap is the launch delay, from the capture's first start.
    assert_eq!(t.gap_blocker.cause.first().map(|c| c.as_str()), Some("launch"));
    assert!((t.gap_blocker.gap_us.first().copied().unwrap() - 2029.06).abs() < 1e-6);
    // Every chain of this capture is two tasks.
    let c = t.chains.as_ref().unwrap();
    assert!((0..c.len()).all(|i| c.chain(i).len() == 2));
    assert!(t.chain_timing.iter().all(|c| c.exec_us.is_some_and(|x| x > 0.0)));
}
