//! Golden tests for task kinds, dependency arrows / `hb_violation`, idle reconstruction and
//! per-function statistics against the reference tools' outputs beside every runtime
//! fixture (`reference_converter_stdout.txt`, `merged_swimlane.json`,
//! `reference_sched_overhead_stdout.txt`).

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::too_many_lines, clippy::float_cmp, clippy::cast_possible_wrap)]

mod common;
use common::runtime_dirs;
use pypto_analysis::task_kinds::{AnchorRef, TaskKind, TaskKinds};
use pypto_analysis::{function_stats, hb_violation, idle, task_kinds, tasks};
use pypto_formats::{deps, name_map, records};
use std::collections::BTreeMap;
use std::path::Path;

struct Cap {
    records: records::ChipRecords,
    deps: Option<deps::Deps>,
    names: Option<name_map::NameMap>,
    joined: tasks::JoinedTasks,
    fids: Vec<i64>,
    kinds: TaskKinds,
}

fn load(dir: &Path) -> Cap {
    let p = dir.join("chip_swimlane_records.json");
    let records = records::parse("records", &std::fs::read(&p).expect("records")).unwrap_or_else(|e| panic!("{e}"));
    let deps = std::fs::read(dir.join("deps.json")).ok().map(|b| deps::parse("deps.json", &b).unwrap_or_else(|e| panic!("{e}")));
    // The converter takes the unique sibling name_map*.json.
    let maps = common::name_map_files(dir);
    let names = (maps.len() == 1).then(|| name_map::parse("nm", &std::fs::read(&maps[0]).expect("nm")).expect("name map"));
    let joined = tasks::join(&records);
    let fids = tasks::func_ids(&joined, deps.as_ref());
    let kinds = task_kinds::classify(&records, &joined, deps.as_ref());
    Cap { records, deps, names, joined, fids, kinds }
}

fn trace_events(dir: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("merged_swimlane.json")).expect("merged");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    v["traceEvents"].as_array().expect("events").clone()
}

/// The block of the converter's stdout from the `=`×140 line before "Task Statistics by
/// Function" to the closing `=`×110 line.
fn reference_stats_block(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let title = lines.iter().position(|l| *l == "Task Statistics by Function").expect("title");
    let end = (title..lines.len()).find(|&i| lines[i] == "=".repeat(110)).expect("closing line");
    let mut out = String::new();
    for l in &lines[title - 1..=end] {
        out.push_str(l);
        out.push('\n');
    }
    out
}

#[test]
fn converter_function_table_matches_reference_byte_for_byte() {
    let mut checked = 0;
    for dir in runtime_dirs() {
        let text = std::fs::read_to_string(dir.join("reference_converter_stdout.txt")).expect("reference stdout");
        let c = load(&dir);
        let stats = function_stats::converter_stats(&c.joined, &c.fids, c.names.as_ref());
        let ours = stats.render_text();
        let theirs = reference_stats_block(&text);
        assert_eq!(ours, theirs, "{}", dir.display());
        // The worker computes the table from its resident model (whose join bookkeeping
        // columns are freed): the same text.
        let m = common::runtime_model(&dir);
        let from_model = function_stats::converter_stats(&m.tasks, &m.func_ids, m.names.as_ref());
        assert_eq!(from_model.render_text(), theirs, "{} (from the resident model)", dir.display());
        checked += 1;
    }
    assert!(checked >= 18);
}

/// Independent numeric check: parse the reference rows and compare to the printed precision.
#[test]
fn rows_of_every_task_are_its_joined_rows_in_either_form() {
    // The model drops the row index when the joined rows are already in task order; both
    // forms must give every task exactly its rows, in joined order.
    let (mut in_order, mut indexed) = (0, 0);
    for dir in runtime_dirs() {
        let m = common::runtime_model(&dir);
        let k = &m.kinds;
        if k.row_index.is_empty() {
            in_order += 1;
        } else {
            indexed += 1;
        }
        for id in &k.task_id {
            let expected: Vec<u32> = (0..m.tasks.len() as u32).filter(|&r| m.tasks.task_id.get(r as usize) == Some(id)).collect();
            assert_eq!(k.rows_of(id).collect::<Vec<u32>>(), expected, "{}: task {id}", dir.display());
        }
    }
    eprintln!("{in_order} fixtures with rows in task order, {indexed} with a row index");
    assert!(in_order > 0);
}

#[test]
fn converter_function_rows_match_reference_numbers() {
    for dir in runtime_dirs() {
        let text = std::fs::read_to_string(dir.join("reference_converter_stdout.txt")).expect("reference stdout");
        let block = reference_stats_block(&text);
        let c = load(&dir);
        let stats = function_stats::converter_stats(&c.joined, &c.fids, c.names.as_ref());
        let rows: Vec<Vec<&str>> = block
            .lines()
            .skip_while(|l| !l.starts_with("Func_ID"))
            .skip(2)
            .take_while(|l| !l.starts_with("---"))
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(rows.len(), stats.rows.len(), "{}", dir.display());
        let num = |s: &str| -> Option<f64> { s.trim_end_matches('%').parse().ok() };
        let close = |ours: Option<f64>, theirs: &str, prec: f64| match (ours, num(theirs)) {
            (Some(a), Some(b)) => (a - b).abs() <= prec / 2.0 + 1e-9,
            (None, None) => theirs == "-",
            (Some(a), None) => theirs == "-" && a.is_finite(),
            (None, Some(_)) => false,
        };
        for (r, t) in stats.rows.iter().zip(&rows) {
            let name = dir.display();
            assert_eq!(r.func_id.to_string(), t[0], "{name}");
            assert_eq!(r.name, t[1], "{name}");
            assert_eq!(r.count.to_string(), t[2], "{name}");
            assert!(close(Some(r.avg_exec_us), t[3], 0.01), "{name} exec");
            if stats.has_aicpu_timing {
                assert!(close(r.avg_latency_us, t[4], 0.01), "{name} latency");
                assert!(close(r.exec_pct, t[5], 0.1), "{name} exec%");
                assert!(close(r.avg_head_oh_us, t[6], 0.01), "{name} head");
                assert!(close(r.avg_tail_oh_us, t[7], 0.01), "{name} tail");
                assert!(close(r.avg_prop_us, t[8], 0.01), "{name} prop");
            }
            assert!(close(r.avg_local_us, t[9], 0.01), "{name} local");
        }
        let total: Vec<&str> = block.lines().find(|l| l.starts_with("TOTAL")).expect("TOTAL").split_whitespace().collect();
        assert_eq!(stats.total_count.to_string(), total[1]);
        assert!(close(Some(stats.total_exec_us), total[2], 0.01));
        assert!(close(stats.total_latency_us, total[3], 0.01));
    }
}

#[test]
fn function_perf_table_is_min_max_avg_of_exec() {
    for dir in runtime_dirs() {
        let c = load(&dir);
        let perf = function_stats::function_perf(&c.joined, &c.fids, c.names.as_ref());
        let conv = function_stats::converter_stats(&c.joined, &c.fids, c.names.as_ref());
        assert_eq!(perf.len(), conv.rows.len());
        for (p, r) in perf.iter().zip(&conv.rows) {
            assert_eq!((p.func_id, &p.name, p.count), (r.func_id, &r.name, r.count));
            assert!((p.avg_duration_us - r.avg_exec_us).abs() < 1e-9);
            assert!(p.min_duration_us <= p.avg_duration_us + 1e-9);
            assert!(p.avg_duration_us <= p.max_duration_us + 1e-9);
            let (mut mn, mut mx) = (f64::INFINITY, f64::NEG_INFINITY);
            for i in 0..c.joined.len() {
                if c.fids[i] == p.func_id {
                    let d = c.joined.end_us(i).unwrap() - c.joined.start_us(i).unwrap();
                    mn = mn.min(d);
                    mx = mx.max(d);
                }
            }
            assert_eq!((p.min_duration_us, p.max_duration_us), (mn, mx));
        }
    }
    // PagedAttention: four functions of 128 rows each, names from the name map.
    let dir = runtime_dirs().into_iter().find(|d| d.ends_with("a2a3sim-L4-TestPagedAttention_CaseMediumLocal")).expect("paged");
    let c = load(&dir);
    let perf = function_stats::function_perf(&c.joined, &c.fids, c.names.as_ref());
    let got: Vec<(i64, &str, usize)> = perf.iter().map(|p| (p.func_id, p.name.as_str(), p.count)).collect();
    assert_eq!(got, vec![(0, "QK", 128), (1, "SF", 128), (2, "PV", 128), (3, "UP", 128)]);
}

#[test]
fn aicpu_markers_match_reference_worker_view() {
    for dir in runtime_dirs() {
        let c = load(&dir);
        let mut theirs: Vec<(i64, String, i64, i64)> = trace_events(&dir)
            .iter()
            .filter(|e| e["pid"] == 4 && e["ph"] == "X" && e["tid"].as_i64().unwrap_or(0) >= 19000)
            .map(|e| {
                (
                    e["tid"].as_i64().unwrap(),
                    e["name"].as_str().unwrap().to_owned(),
                    (e["ts"].as_f64().unwrap() * 1000.0).round() as i64,
                    (e["dur"].as_f64().unwrap() * 1000.0).round() as i64,
                )
            })
            .collect();
        let mut ours: Vec<(i64, String, i64, i64)> = (0..c.kinds.markers.len())
            .map(|m| {
                let mk = &c.kinds.markers;
                (
                    19000 + i64::from(mk.lane[m]),
                    c.kinds.marker_label(m, c.deps.as_ref(), c.names.as_ref()),
                    (mk.start_us[m] * 1000.0).round() as i64,
                    ((mk.end_us[m] - mk.start_us[m]) * 1000.0).round() as i64,
                )
            })
            .collect();
        theirs.sort();
        ours.sort();
        assert_eq!(ours, theirs, "{}", dir.display());
        // AICPU lanes the reference names.
        let lanes =
            trace_events(&dir).iter().filter(|e| e["pid"] == 4 && e["ph"] == "M" && e["tid"].as_i64().unwrap_or(0) >= 19000).count();
        if c.records.level >= 3 {
            assert_eq!(c.kinds.aicpu_lane_count as usize, lanes, "{}", dir.display());
        }
    }
}

fn find(name: &str) -> Cap {
    let dir = runtime_dirs().into_iter().find(|d| d.ends_with(name)).expect("fixture");
    load(&dir)
}

fn disp(ids: &[u64]) -> Vec<String> {
    ids.iter().map(|&i| tasks::task_id_display(i)).collect()
}

#[test]
fn task_kinds_on_special_fixtures() {
    let c = find("a2a3sim-L4-TestPagedAttention_CaseMediumLocal");
    let allocs = c.kinds.ids_of_kind(TaskKind::Alloc);
    assert_eq!(disp(&allocs), (0..8).map(|i| format!("r1t{i}")).collect::<Vec<_>>());
    assert_eq!(c.kinds.count(TaskKind::Regular), 512);
    assert_eq!(c.kinds.task_id.len(), 520);
    assert!(c.kinds.markers.lane.iter().all(|&l| l == 3));

    let c = find("a2a3sim-L4-TestDummyTask_LongDummyChain");
    assert_eq!(disp(&c.kinds.ids_of_kind(TaskKind::Dummy)), ["t1", "t2", "t3", "t4"]);
    assert_eq!(c.kinds.count(TaskKind::Regular), 2);
    assert!(c.kinds.dummy_without_record.is_empty());

    let c = find("a2a3sim-L4-TestDummyTask_DummyExplicitDepBarrier");
    assert_eq!(disp(&c.kinds.ids_of_kind(TaskKind::Dummy)), ["t2"]);
    let c = find("a2a3sim-L4-TestDummyTask_SingleDummyAutoDep");
    assert_eq!(disp(&c.kinds.ids_of_kind(TaskKind::Dummy)), ["t1"]);

    let c = find("a2a3sim-L4-TestPredicatedDispatch_PredicateFalseSkips");
    assert_eq!(disp(&c.kinds.ids_of_kind(TaskKind::PredicatedSkip)), ["t2"]);
    assert_eq!(c.kinds.count(TaskKind::Regular), 3);

    let c = find("a2a3sim-L4-TestSyncStartEarlyLocalOwner_single_scheduler_pending_only");
    assert_eq!(disp(&c.kinds.ids_of_kind(TaskKind::Dummy)), ["r1t1", "r1t2", "r1t4", "r1t5"]);

    let c = find("a2a3sim-L4-TestGraphExecutionHostBuildGraph_record_then_replay_1d");
    assert_eq!(disp(&c.kinds.ids_of_kind(TaskKind::GraphOuter)), ["t1", "t2", "t3"]);
    assert_eq!(c.kinds.count(TaskKind::GraphNode), 12);
    assert_eq!(c.kinds.count(TaskKind::Regular), 1);
    assert!(c.kinds.markers.is_empty());

    // SPMD / MIX flags.
    let c = find("a2a3sim-L4-TestSpmdMultiblockMix_Case1");
    assert!(c.kinds.spmd.iter().any(|s| s));
    assert!(c.kinds.mix.iter().any(|m| m));
    let c = find("a2a3sim-L4-TestChipSwimlaneMixed_default");
    assert!(c.kinds.mix.iter().any(|m| m));
    assert!(c.kinds.spmd.iter().all(|s| !s));
}

#[test]
fn graph_execution_envelopes_match_reference() {
    for dir in runtime_dirs() {
        let c = load(&dir);
        let mut theirs: Vec<(i64, String, i64, i64)> = trace_events(&dir)
            .iter()
            .filter(|e| e["pid"] == 5 && e["ph"] == "X")
            .map(|e| {
                (
                    e["tid"].as_i64().unwrap(),
                    e["name"].as_str().unwrap().to_owned(),
                    (e["ts"].as_f64().unwrap() * 1000.0).round() as i64,
                    (e["dur"].as_f64().unwrap() * 1000.0).round() as i64,
                )
            })
            .collect();
        let mut ours: Vec<(i64, String, i64, i64)> = c
            .kinds
            .graphs
            .iter()
            .map(|g| {
                (
                    5000 + i64::from(g.lane),
                    format!("GraphExecution({}, {} visible nodes)", tasks::task_id_display(g.outer_task_id), g.visible_nodes),
                    (g.prepare_start_us * 1000.0).round() as i64,
                    ((g.execution_end_us - g.prepare_start_us) * 1000.0).round() as i64,
                )
            })
            .collect();
        theirs.sort();
        ours.sort();
        assert_eq!(ours, theirs, "{}", dir.display());
    }
}

type Arrow = (String, i64, i64, i64, i64);

fn tid_of(c: &Cap, a: AnchorRef) -> i64 {
    match a {
        AnchorRef::Row(r) => 10000 + 10 * i64::from(c.joined.core_id.get(r as usize).unwrap()),
        AnchorRef::Marker(m) => 19000 + i64::from(c.kinds.markers.lane[m as usize]),
    }
}

#[test]
fn dependency_arrows_and_hb_violations_match_reference() {
    let mut with_deps = 0;
    for dir in runtime_dirs() {
        let c = load(&dir);
        let Some(d) = c.deps.as_ref() else { continue };
        with_deps += 1;
        let hb = hb_violation::compute(&c.joined, &c.fids, &c.kinds, d);
        let text = std::fs::read_to_string(dir.join("reference_converter_stdout.txt")).unwrap();
        let printed = |prefix: &str| -> Option<usize> {
            text.lines().find_map(|l| l.trim().strip_prefix(prefix)).and_then(|s| s.split_whitespace().next()).and_then(|s| s.parse().ok())
        };
        let name = dir.display();
        assert_eq!(Some(hb.worker.len()), printed("Dependency flow events: "), "{name}");
        assert_eq!(hb.worker_violations(), printed("Happens-before violations: ").unwrap_or(0), "{name}");
        // Full arrow sets against merged_swimlane.json flow pairs.
        let events = trace_events(&dir);
        let mut starts: BTreeMap<(i64, i64), &serde_json::Value> = BTreeMap::new();
        let mut ends: BTreeMap<(i64, i64), &serde_json::Value> = BTreeMap::new();
        for e in &events {
            if e["cat"] != "flow" || !(e["name"] == "dependency" || e["name"] == "hb_violation") {
                continue;
            }
            let key = (e["pid"].as_i64().unwrap(), e["id"].as_i64().unwrap());
            match e["ph"].as_str() {
                Some("s") => starts.insert(key, e),
                Some("f") => ends.insert(key, e),
                _ => None,
            };
        }
        let us = |v: &serde_json::Value| (v.as_f64().unwrap() * 1000.0).round() as i64;
        let mut ref_worker: Vec<Arrow> = Vec::new();
        let mut ref_sched: Vec<(String, i64, i64)> = Vec::new();
        for (key, s) in &starts {
            let f = ends[key];
            let n = s["name"].as_str().unwrap().to_owned();
            if key.0 == 4 {
                ref_worker.push((n, s["tid"].as_i64().unwrap(), us(&s["ts"]), f["tid"].as_i64().unwrap(), us(&f["ts"])));
            } else {
                ref_sched.push((n, us(&s["ts"]), us(&f["ts"])));
            }
        }
        let label = |v: bool| if v { "hb_violation" } else { "dependency" }.to_owned();
        let w = &hb.worker;
        let mut our_worker: Vec<Arrow> = (0..w.len())
            .map(|k| {
                (
                    label(w.violation[k]),
                    tid_of(&c, w.pred_anchor[k]),
                    (w.from_us[k] * 1000.0).round() as i64,
                    tid_of(&c, w.succ_anchor[k]),
                    (w.to_us[k] * 1000.0).round() as i64,
                )
            })
            .collect();
        let s = &hb.scheduler;
        let mut our_sched: Vec<(String, i64, i64)> = (0..s.len())
            .map(|k| (label(s.violation[k]), (s.from_us[k] * 1000.0).round() as i64, (s.to_us[k] * 1000.0).round() as i64))
            .collect();
        ref_worker.sort();
        our_worker.sort();
        ref_sched.sort();
        our_sched.sort();
        assert_eq!(our_worker, ref_worker, "{name}: worker arrows");
        assert_eq!(our_sched, ref_sched, "{name}: scheduler arrows");
        if name.to_string().contains("GraphExecution") {
            assert_eq!(hb.missing_successors.len(), 3);
        }
    }
    assert!(with_deps >= 16);
}

struct RefPart5 {
    threads: Vec<(u32, u64, u64, String, String)>,
    sum: (u64, u64, String, String),
    fins: u64,
    phases: Vec<(String, String, String)>,
    pop: (u64, u64, String),
}

fn parse_part5(text: &str) -> RefPart5 {
    let lines: Vec<&str> = text.lines().collect();
    let p5 = lines.iter().position(|l| l.starts_with("Part 5")).expect("Part 5");
    let mut threads = Vec::new();
    let mut sum = None;
    let mut fins = 0;
    let mut phases = Vec::new();
    let mut pop = None;
    for l in &lines[p5..] {
        let t = l.trim();
        let w: Vec<&str> = t.split_whitespace().collect();
        if w.len() == 5 && w[0].starts_with('T') && w[0][1..].parse::<u32>().is_ok() {
            threads.push((w[0][1..].parse().unwrap(), w[1].parse().unwrap(), w[2].parse().unwrap(), w[3].to_owned(), w[4].to_owned()));
        } else if w.len() == 5 && w[0] == "SUM" {
            sum = Some((w[1].parse().unwrap(), w[2].parse().unwrap(), w[3].to_owned(), w[4].to_owned()));
        } else if let Some(r) = t.strip_prefix("FINs observed (Complete phase): ") {
            fins = r.parse().unwrap();
        } else if ["Complete (", "AsyncPoll (", "Dispatch (", "Idle ("].iter().any(|p| t.starts_with(p)) {
            let n = w.len();
            phases.push((w[n - 3].to_owned(), w[n - 2].to_owned(), w[n - 1].to_owned()));
        } else if let Some(r) = t.strip_prefix("Pop: ") {
            let parts: Vec<&str> = r.split(", ").collect();
            pop = Some((
                parts[0].trim_start_matches("hit=").parse().unwrap(),
                parts[1].trim_start_matches("miss=").parse().unwrap(),
                parts[2].trim_start_matches("hit_rate=").to_owned(),
            ));
        } else if t.starts_with("Part 6") {
            break;
        }
    }
    RefPart5 { threads, sum: sum.expect("SUM"), fins, phases, pop: pop.expect("Pop") }
}

#[test]
fn idle_breakdown_matches_reference_sched_overhead() {
    let mut checked = 0;
    for dir in runtime_dirs() {
        let Ok(text) = std::fs::read_to_string(dir.join("reference_sched_overhead_stdout.txt")) else {
            continue;
        };
        let r = parse_part5(&text);
        let c = load(&dir);
        let rep = idle::compute(&c.records, &c.joined);
        let name = dir.display();
        let ours: Vec<(u32, u64, u64, String, String)> = rep
            .threads
            .iter()
            .map(|t| (t.thread, u64::from(t.loops), t.logical_tasks, format!("{:.0}", t.ns_per_loop), format!("{:.1}", t.total_us)))
            .collect();
        assert_eq!(ours, r.threads, "{name}: threads");
        let s = &rep.totals;
        assert_eq!((s.loops, s.logical_tasks, format!("{:.0}", s.ns_per_loop), format!("{:.1}", s.total_us)), r.sum, "{name}: SUM");
        assert_eq!(s.fins, r.fins, "{name}: FINs");
        let phases = [
            (s.complete_us, s.complete_pct, s.complete_per_task_us),
            (s.async_poll_us, s.async_poll_pct, s.async_poll_per_task_us),
            (s.dispatch_us, s.dispatch_pct, s.dispatch_per_task_us),
            (s.idle_us, s.idle_pct, s.idle_per_task_us),
        ];
        let ours: Vec<(String, String, String)> =
            phases.iter().map(|(us, pct, avg)| (format!("{us:.1}"), format!("{pct:.1}%"), format!("{avg:.2}"))).collect();
        assert_eq!(ours, r.phases, "{name}: phases");
        assert_eq!((s.pop_hit, s.pop_miss, format!("{:.1}%", s.pop_hit_rate_pct)), r.pop, "{name}: pops");
        // Gap bookkeeping is consistent with the idle total.
        for t in &rep.threads {
            let gaps: f64 = t.gap_start_us.iter().zip(&t.gap_end_us).map(|(a, b)| b - a).sum();
            assert!((gaps - t.idle_us).abs() < 1e-6);
        }
        checked += 1;
    }
    assert_eq!(checked, 3);
}

#[test]
fn idle_on_every_level3_capture_is_sane() {
    for dir in runtime_dirs() {
        let c = load(&dir);
        let rep = idle::compute(&c.records, &c.joined);
        if c.records.level < 3 {
            assert!(rep.threads.is_empty());
            continue;
        }
        assert!(!rep.threads.is_empty(), "{}", dir.display());
        for t in &rep.threads {
            assert!(t.idle_us >= 0.0 && t.total_us >= t.idle_us);
            let p = t.complete_pct + t.async_poll_pct + t.dispatch_pct + t.idle_pct;
            assert!(t.total_us == 0.0 || (p - 100.0).abs() < 1e-6);
        }
    }
}

#[test]
fn empty_and_degenerate_inputs_do_not_panic() {
    let mut empty = tasks::JoinedTasks::default();
    empty.level = 4;
    let stats = function_stats::converter_stats(&empty, &[] as &[i64], None);
    assert_eq!(stats.total_count, 0);
    assert!(stats.total_test_time_us.is_none() && stats.exec_vs_overhead.is_none());
    assert!(stats.render_text().starts_with(&"=".repeat(140)));
    assert!(function_stats::function_perf(&empty, &[] as &[i64], None).is_empty());
    assert_eq!(function_stats::converter_func_name(-1, None), "func_-1_");
    assert_eq!(function_stats::converter_func_name(26, None), "func_26_aa");
    let records = records::ChipRecords::default();
    let kinds = task_kinds::classify(&records, &empty, None);
    assert!(kinds.task_id.is_empty() && kinds.markers.is_empty());
    assert_eq!(kinds.kind_of(7), None);
    assert!(kinds.worker_anchors(&empty, &[] as &[i64], 7).is_empty());
    let rep = idle::compute(&records, &empty);
    assert!(rep.threads.is_empty() && rep.totals.total_us == 0.0);
    let hb = hb_violation::compute(&empty, &[] as &[i64], &kinds, &deps::Deps::default());
    assert!(hb.worker.is_empty() && hb.scheduler.is_empty());
    // func_ids shorter than the rows count as unresolved.
    let c = find("a2a3sim-L4-TestChipSwimlane_default");
    let s = function_stats::converter_stats(&c.joined, &c.fids[..1], None);
    assert_eq!(s.total_count, c.joined.len());
    assert_eq!(s.rows.first().map(|r| r.func_id), Some(-1));
}
