//! Tests of the performance-panel analyses (`perf_panel`) on the runtime fixtures: early
//! dispatch on the `TestSyncStartEarlyLocalOwner_*` captures, single-dependency chains on
//! `TestDummyTask_LongDummyChain` and `TestPagedAttention_CaseMediumLocal`, gap & blocker on
//! the `PagedAttention` observed path, overview and setup leaderboards.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::float_cmp, clippy::many_single_char_names)]

use pypto_analysis::critical_path::{self, StallKind};
use pypto_analysis::perf_panel::gap_blocker::{self, GapCause};
use pypto_analysis::perf_panel::{early_dispatch, overview, setup_leaderboard, single_dep_chains};
use pypto_analysis::tasks;
use pypto_formats::{deps, name_map, records};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/runtime").join(name)
}

fn load(name: &str) -> (records::ChipRecords, deps::Deps, tasks::JoinedTasks) {
    let dir = fixture(name);
    let r = records::parse("chip_swimlane_records.json", &std::fs::read(dir.join("chip_swimlane_records.json")).unwrap()).unwrap();
    let d = deps::parse("deps.json", &std::fs::read(dir.join("deps.json")).unwrap()).unwrap();
    let j = tasks::join(&r);
    (r, d, j)
}

const PA: &str = "a2a3sim-L4-TestPagedAttention_CaseMediumLocal";

#[test]
fn early_dispatch_idle_scheduler() {
    let (r, d, j) = load("a2a3sim-L4-TestSyncStartEarlyLocalOwner_single_scheduler_idle");
    let a = early_dispatch::early_dispatch(&j, &d, &r);
    assert_eq!(a.flagged_producers, 1);
    assert_eq!((a.phase_records, a.phase_blocks), (1, 8));
    assert_eq!(a.rows.len(), 1);
    let row = &a.rows[0];
    assert_eq!(row.task_id, 4_294_967_297);
    assert!(row.flagged && row.staged_in_phase && row.dispatched_early);
    assert_eq!((row.preds, row.blocks, row.early_blocks), (1, 8, 8));
    assert_eq!(row.last_pred_task_id, Some(4_294_967_296));
    // FIN 100291298071 − dispatch 100290787396 = 510675 cycles at 50 MHz.
    assert!((row.max_lead_us - 10_213.5).abs() < 1e-6, "{}", row.max_lead_us);
    assert_eq!(row.lead_start_us, row.first_dispatch_us);
    assert_eq!(row.lead_end_us, row.last_pred_fin_us);
}

#[test]
fn early_dispatch_pending_only() {
    let (r, d, j) = load("a2a3sim-L4-TestSyncStartEarlyLocalOwner_single_scheduler_pending_only");
    let a = early_dispatch::early_dispatch(&j, &d, &r);
    assert_eq!((a.phase_records, a.phase_blocks), (1, 8));
    // Consumers of the two dummies are not early-dispatch targets (dummies are not flagged).
    assert_eq!(a.rows.len(), 1);
    let row = &a.rows[0];
    assert_eq!(row.task_id, 4_294_967_299);
    assert!(row.flagged && row.staged_in_phase && row.dispatched_early);
    assert_eq!((row.blocks, row.early_blocks), (8, 8));
    // Last FIN of the 16 producer blocks 100380719495 − dispatch 100378221990 = 2497505 cycles.
    assert!((row.max_lead_us - 49_950.1).abs() < 1e-6, "{}", row.max_lead_us);
}

#[test]
fn early_dispatch_absent_elsewhere() {
    let (r, d, j) = load(PA);
    let a = early_dispatch::early_dispatch(&j, &d, &r);
    assert!(a.rows.is_empty());
    assert_eq!((a.phase_records, a.flagged_producers), (0, 0));
}

#[test]
fn chains_skip_dummy_relays() {
    let (r, d, _) = load("a2a3sim-L4-TestDummyTask_LongDummyChain");
    // 0 → 1 → 2 → 3 → 4 → 5 with 1..4 dummies: no compute-to-compute link is left.
    let c = single_dep_chains::single_dep_chains(&d, Some(&r));
    assert!(c.is_empty());
    assert_eq!(c.excluded_tasks, 4);
    assert_eq!(c.compute_edges, 0);
}

#[test]
fn chains_paged_attention() {
    let (r, d, _) = load(PA);
    let c = single_dep_chains::single_dep_chains(&d, Some(&r));
    assert_eq!(c.len(), 128);
    assert_eq!(c.excluded_tasks, 8, "the 8 alloc tasks");
    let kernel = |id: u64| {
        let i = d.tasks.task_id.iter().position(|&t| t == id).unwrap();
        d.tasks.kernel_ids[i].iter().copied().find(|&k| k >= 0).unwrap()
    };
    let mut last_head_pos = 0;
    for i in 0..c.len() {
        let ch = c.chain(i);
        assert_eq!(ch.len(), 2);
        assert_eq!((kernel(ch[0]), kernel(ch[1])), (0, 1), "QK → SF");
        let pos = d.tasks.task_id.iter().position(|&t| t == ch[0]).unwrap();
        assert!(pos >= last_head_pos, "ordered by head position");
        last_head_pos = pos;
    }
    assert!(c.chain(128).is_empty());
}

#[test]
fn chains_synthetic_rules() {
    // a → b → c → d, c → e (c has two successors), alloc 99 → a (creator), x → y → z.
    let json = br#"{"tasks":[
        {"task_id":"1","kernel_ids":[0,-1,-1]},{"task_id":"2","kernel_ids":[0,-1,-1]},
        {"task_id":"3","kernel_ids":[0,-1,-1]},{"task_id":"4","kernel_ids":[0,-1,-1]},
        {"task_id":"5","kernel_ids":[0,-1,-1]},{"task_id":"6","kernel_ids":[0,-1,-1]},
        {"task_id":"7","kernel_ids":[0,-1,-1]},{"task_id":"8","kernel_ids":[0,-1,-1]}],
      "edges":[
        {"pred":"99","succ":"1","source":"creator"},
        {"pred":"1","succ":"2","source":"tensormap"},{"pred":"1","succ":"2","source":"tensormap"},
        {"pred":"2","succ":"3"},{"pred":"3","succ":"4"},{"pred":"3","succ":"5"},
        {"pred":"6","succ":"7"},{"pred":"7","succ":"8"},{"pred":"8","succ":"8"}]}"#;
    let d = deps::parse("deps.json", json).unwrap();
    let c = single_dep_chains::single_dep_chains(&d, None);
    assert_eq!(c.len(), 2);
    assert_eq!(c.chain(0), &[1, 2, 3]);
    assert_eq!(c.chain(1), &[6, 7, 8]);
    assert_eq!(c.excluded_tasks, 1);
}

#[test]
fn gap_blocker_paged_attention() {
    let (r, d, _) = load(PA);
    let nm =
        name_map::parse("name_map", &std::fs::read(fixture(PA).join("name_map_TestPagedAttention_CaseMediumLocal.json")).unwrap()).unwrap();
    let (g, cp) = critical_path::compute(&r, Some(&d), Some(&nm)).unwrap();
    let t = gap_blocker::gap_blocker(&g, &cp);
    assert_eq!(t.len(), 32);
    assert_eq!(t.cause[0], GapCause::Launch);
    assert_eq!(t.blocker_task_id[0], None);
    assert_eq!(format!("{:.1}", t.gap_us[0]), "2029.1");
    let mut same_core = 0;
    for i in 0..t.len() {
        let want = match cp.observed.kind[i] {
            StallKind::CoreWait => GapCause::SameCore,
            StallKind::DataWait => GapCause::Predecessor,
            StallKind::FrontGap => GapCause::Launch,
        };
        assert_eq!(t.cause[i], want);
        assert!(t.gap_us[i] + 1e-9 >= t.stall_us[i], "row {i}: gap ≥ stall");
        assert_eq!(t.gap_end_us[i], t.start_us[i]);
        assert!(t.gap_start_us[i] <= t.gap_end_us[i]);
        assert!((t.gap_end_us[i] - t.gap_start_us[i] - t.gap_us[i]).abs() < 1e-6);
        if i > 0 {
            assert_eq!(t.blocker_task_id[i], Some(t.task_id[i - 1]));
        }
        if t.cause[i] == GapCause::SameCore {
            same_core += 1;
        }
    }
    // Report: rows 1..15 core-wait, 16..31 data-wait.
    assert_eq!(same_core, 15);
    // Row 13 (PV, core-wait 13571.5 µs stall) is above a 10 ms threshold; so are 14, 15, 17.
    let above = t.above(10_000.0);
    assert!(above.contains(&13) && above.contains(&17), "{above:?}");
    // Worker View µs axis: the head's start is the first task start of the capture.
    let j = tasks::join(&r);
    let first = j.starts_us().fold(f64::INFINITY, f64::min);
    assert!(t.gap_start_us[0] <= first + 1e-9);
    assert_eq!(gap_blocker::parse_threshold_us(" 2.5 "), Ok(2.5));
    assert!(gap_blocker::parse_threshold_us("-1").is_err());
    assert!(gap_blocker::parse_threshold_us("abc").is_err());
    assert!(gap_blocker::parse_threshold_us("inf").is_err());
}

#[test]
fn overview_paged_attention() {
    let (_, _, j) = load(PA);
    let o = overview::overview(&j);
    assert_eq!((o.rows, o.tasks), (512, 512));
    let busy: f64 = j.starts_us().zip(j.ends_us()).map(|(s, e)| e - s).sum();
    assert!((o.aicore_time_us - busy).abs() < 1e-6);
    assert!(o.active_cores > 0 && o.active_cores == o.active_aic_cores + o.active_aiv_cores);
    let want = busy / (o.task_time_us * o.active_cores as f64) * 100.0;
    assert!((o.utilisation_pct - want).abs() < 1e-9);
    assert!(o.utilisation_pct > 0.0 && o.utilisation_pct <= 100.0);
    // Task Time = the converter's time range span (first start → last end).
    assert!((o.task_time_us - (o.last_end_us - o.first_start_us)).abs() < 1e-9);
    assert_eq!(overview::overview(&tasks::JoinedTasks::default()), overview::Overview::default());
}

#[test]
fn setup_leaderboards_paged_attention() {
    let (_, _, j) = load(PA);
    let b = setup_leaderboard::setup_leaderboards(&j, 10);
    assert!(b.rows_with_setup > 0);
    assert_eq!(b.longest_setup.len(), 10);
    assert_eq!(b.largest_ratio.len(), 10);
    for w in b.longest_setup.windows(2) {
        assert!(w[0].setup_us >= w[1].setup_us);
    }
    for w in b.largest_ratio.windows(2) {
        assert!(w[0].setup_ratio >= w[1].setup_ratio);
    }
    let max_setup = (0..j.len()).map(|i| j.start_us(i).unwrap() - j.receive_us(i).unwrap()).fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(b.longest_setup[0].setup_us, max_setup);
    for e in &b.largest_ratio {
        assert!(e.setup_ratio > 0.0 && e.setup_ratio <= 1.0);
        let i = e.row as usize;
        let want = (j.start_us(i).unwrap() - j.receive_us(i).unwrap()) / (j.end_us(i).unwrap() - j.receive_us(i).unwrap());
        assert_eq!(e.setup_ratio, want);
    }
    // No receive data → empty boards.
    let p1 = fixture("a2a3sim-L1-TestChipSwimlane_default").join("chip_swimlane_records.json");
    let j1 = tasks::join(&records::parse("l1", &std::fs::read(p1).unwrap()).unwrap());
    let has = (0..j1.len()).any(|i| j1.start_us(i).unwrap() > j1.receive_us(i).unwrap());
    assert_eq!(setup_leaderboard::setup_leaderboards(&j1, 5).rows_with_setup > 0, has);
}
