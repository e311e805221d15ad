//! Golden test of the chip swimlane timeline against the reference converter's
//! `merged_swimlane.json` of every runtime fixture: per view (pid), the lanes (name, plus the
//! sub-lane for `Sched_N` resolve lanes and Scheduler View overflow lanes), the bar count per
//! lane, and every bar's start / duration (within 0.0005 µs). Plus the timeline queries.

#![allow(clippy::unwrap_used, clippy::many_single_char_names, clippy::cast_possible_truncation)]

use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::timeline::{self, Timeline, TrackKind, View};
use pypto_analysis::timeline_query as q;
use pypto_vocab::TaskId;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod common;

fn fixtures() -> Vec<PathBuf> {
    common::converter_dirs()
}

fn load(dir: &Path) -> RuntimeModel {
    common::runtime_model(dir)
}

type Lanes = BTreeMap<(u64, String, u64), Vec<(f64, f64)>>;

fn reference(dir: &Path) -> Lanes {
    let v: Value = serde_json::from_slice(&std::fs::read(dir.join("merged_swimlane.json")).unwrap()).unwrap();
    let ev = v.get("traceEvents").and_then(Value::as_array).cloned().unwrap_or_default();
    let mut tname: BTreeMap<(u64, u64), String> = BTreeMap::new();
    for e in &ev {
        if e["ph"] == "M" && e["name"] == "thread_name" {
            tname.insert((e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap()), e["args"]["name"].as_str().unwrap().to_owned());
        }
    }
    let mut out: Lanes = BTreeMap::new();
    for e in &ev {
        if e["ph"] != "X" {
            continue;
        }
        let pid = e["pid"].as_u64().unwrap();
        let tid = e["tid"].as_u64().unwrap();
        let name = tname.get(&(pid, tid)).cloned().unwrap_or_default();
        let sub = if pid == 2 || pid == 3 { tid % 10 } else { 0 };
        let ts = e["ts"].as_f64().unwrap();
        let dur = e["dur"].as_f64().unwrap_or(0.0);
        out.entry((pid, name, sub)).or_default().push((ts, dur));
    }
    out
}

fn ours(t: &Timeline) -> Lanes {
    let mut out: Lanes = BTreeMap::new();
    for (k, tr) in t.tracks.iter().enumerate() {
        let pid = match (tr.view, tr.kind) {
            (_, TrackKind::Graph { .. }) => 5,
            (View::Worker, _) => 4,
            (View::Scheduler, _) => 3,
            (View::AicpuScheduler, _) => 2,
            (View::Orchestrator, _) => 1,
            // Not in the reference's trace (host_phase_records.jsonl is ours to show).
            (View::HostPrepare, _) => continue,
            (View::Trace, _) => unreachable!("a chip timeline has no Chrome-trace tracks"),
        };
        for i in t.track_range(k as u32) {
            let c = &t.columns;
            let row = c.row[i];
            let sub = match tr.view {
                View::Scheduler => u64::from(row),
                View::AicpuScheduler => u64::from(Some(row) == tr.resolve_row),
                _ => 0,
            };
            let start = c.setup_start_us[i];
            out.entry((pid, tr.label.clone(), sub)).or_default().push((start, c.end_us[i] - start));
        }
    }
    out
}

#[test]
fn timeline_matches_merged_swimlane_for_every_fixture() {
    let dirs = fixtures();
    assert!(dirs.len() >= 10);
    let mut failures = Vec::new();
    for dir in &dirs {
        let m = load(dir);
        let t = timeline::build(&[("d", &m)]);
        let mut r = reference(dir);
        let mut o = ours(&t);
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        // The worker sizes its column arrays from this bound.
        assert!(timeline::bar_capacity(&[("d", &m)]) >= t.bar_count(), "{name}: bar capacity below the bars built");
        let rk: Vec<_> = r.keys().cloned().collect();
        let ok: Vec<_> = o.keys().cloned().collect();
        if rk != ok {
            failures.push(format!("{name}: lanes differ\n  ref  {rk:?}\n  ours {ok:?}"));
            continue;
        }
        for (k, rv) in &mut r {
            let ov = o.get_mut(k).unwrap();
            if rv.len() != ov.len() {
                failures.push(format!("{name}: {k:?} ref {} bars, ours {}", rv.len(), ov.len()));
                continue;
            }
            rv.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            ov.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            for (a, b) in rv.iter().zip(ov.iter()) {
                if (a.0 - b.0).abs() > 0.0005 || (a.1 - b.1).abs() > 0.0005 {
                    failures.push(format!("{name}: {k:?} ref {a:?} ours {b:?}"));
                    break;
                }
            }
        }
        // Invariants: a track is laid out row by row (its rows tile its range in order, one
        // per row), each row sorted by start and holding only that row's bars.
        for k in 0..t.tracks.len() {
            let rg = t.track_range(k as u32);
            let rows: Vec<_> = t.track_rows(k as u32).collect();
            assert_eq!(rows.len(), t.tracks[k].rows as usize, "{name}: track {k} rows");
            assert_eq!((rows[0].start, rows.last().unwrap().end), (rg.start, rg.end), "{name}: track {k} rows cover it");
            for (r, row) in rows.iter().enumerate() {
                assert!(r == 0 || rows[r - 1].end == row.start, "{name}: track {k} rows in order");
                assert!(t.columns.row[row.clone()].iter().all(|&x| x == r as u32), "{name}: track {k} row {r} holds another row's bar");
                let s = &t.columns.start_us[row.clone()];
                assert!(s.windows(2).all(|w| w[0] <= w[1]), "{name}: track {k} row {r} not sorted");
            }
        }
        assert_eq!(*t.track_offsets.last().unwrap() as usize, t.bar_count());
        // Absent views come with reasons.
        let present: Vec<View> = t.groups.iter().map(|g| g.view).collect();
        for v in View::CHIP {
            assert!(present.contains(&v) ^ t.absent.iter().any(|a| a.view == v), "{name}: {v:?}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn level1_says_why_views_are_absent() {
    let dir = fixtures().into_iter().find(|d| d.to_string_lossy().contains("L1-")).unwrap();
    let m = load(&dir);
    let t = timeline::build(&[("d", &m)]);
    assert_eq!(t.groups.len(), 1);
    assert_eq!(t.absent.len(), 3);
    assert!(t.absent.iter().all(|a| a.reason.contains("level 1")));
}

#[test]
fn multi_rank_gives_one_group_per_rank_and_view() {
    let dirs = fixtures();
    let a = load(&dirs[3]);
    let b = load(&dirs[4]);
    let t = timeline::build(&[("rank0", &a), ("rank1", &b)]);
    let ta = timeline::build(&[("x", &a)]);
    let tb = timeline::build(&[("x", &b)]);
    assert_eq!(t.groups.len(), ta.groups.len() + tb.groups.len());
    assert_eq!(t.bar_count(), ta.bar_count() + tb.bar_count());
    assert!(t.groups[0].label.starts_with("rank0 · "));
    assert!(t.groups.last().unwrap().label.starts_with("rank1 · "));
    let _ = q::search(&t, &[&a, &b], "t1", 10);
}

fn fixture(part: &str) -> PathBuf {
    fixtures().into_iter().find(|d| d.to_string_lossy().ends_with(part)).unwrap()
}

#[test]
fn search_details_and_dependencies() {
    let m = load(&fixture("TestPagedAttention_CaseMediumLocal"));
    let t = timeline::build(&[("d", &m)]);
    let models = [&m];
    // Exact search by rXtY / tY / raw id finds the task's Worker View bars.
    let id = m.tasks.task_id.get(10).unwrap();
    let disp = TaskId(id).to_string();
    let (total, hits) = q::search(&t, &models, &disp, 50);
    assert!(total >= 1, "{disp}");
    for h in &hits {
        assert_eq!(q::bar_task(&t, &models, h.bar), Some(id));
        assert!(h.label.contains(&disp), "{} {disp}", h.label);
    }
    let (total_raw, _) = q::search(&t, &models, &id.to_string(), 50);
    assert_eq!(total_raw, total);
    // Fuzzy search by function name: every hit's name matches.
    let fname = m.function_name(m.func_ids.get(10).unwrap());
    let sub: String = fname.chars().step_by(2).collect();
    let (n, hits) = q::search(&t, &models, &sub, 5);
    assert!(n >= 1 && !hits.is_empty() && hits.len() <= 5);
    // The fuzzy ranking equals a brute-force one: every Worker View bar whose name matches,
    // by score desc, execution start asc, bar — for several limits and queries.
    for query in [sub.as_str(), "a", "qk", "zzzz"] {
        let lower = query.to_lowercase();
        let mut all: Vec<(i64, f64, q::BarAt)> = Vec::new();
        for k in 0..t.tracks.len() as u32 {
            if t.tracks[k as usize].view != pypto_analysis::timeline::View::Worker {
                continue;
            }
            let r = t.track_range(k);
            for g in r.clone() {
                if let Some(s) = q::fuzzy_score(&t.names[t.name_index.get(g).unwrap() as usize], &lower) {
                    let b = q::BarAt { track: k, index: (g - r.start) as u32 };
                    all.push((s, q::bar_times(&t, &models, b).unwrap().1, b));
                }
            }
        }
        all.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
        for limit in [1, 3, 50, 100_000] {
            let (n, hits) = q::search(&t, &models, query, limit);
            assert_eq!(n, all.len() as u64, "{query}");
            let want: Vec<q::BarAt> = all.iter().take(limit).map(|x| x.2).collect();
            let got: Vec<q::BarAt> = hits.iter().map(|h| h.bar).collect();
            assert_eq!(got, want, "{query} limit {limit}");
        }
    }
    // Details of a task bar.
    let bar = hits[0].bar;
    let (title, fields, group) = q::bar_details(&t, &models, bar).unwrap();
    assert!(!title.is_empty());
    for k in ["Function", "Func ID", "Task", "Core", "Start", "Dispatch", "Latency (finish − dispatch)", "Fan-in", "Fan-out", "block_num"]
    {
        assert!(fields.iter().any(|f| f.0 == k), "missing {k}: {fields:?}");
    }
    assert!(fields.iter().any(|f| f.0.starts_with("Arg ")), "{fields:?}");
    assert!(group.contains(&bar));
    // Dependencies: depth 0 none; depth 1 arrows touch the bar's task; -1 ⊇ 1.
    let mut with_deps = None;
    for (k, tr) in t.tracks.iter().enumerate() {
        if tr.view != View::Worker {
            continue;
        }
        for i in 0..t.track_range(k as u32).len() as u32 {
            let b = q::BarAt { track: k as u32, index: i };
            if !q::dependencies(&t, &models, b, 1).is_empty() {
                with_deps = Some(b);
                break;
            }
        }
        if with_deps.is_some() {
            break;
        }
    }
    let b = with_deps.unwrap();
    assert!(q::dependencies(&t, &models, b, 0).is_empty());
    let d1 = q::dependencies(&t, &models, b, 1);
    let tid = q::bar_task(&t, &models, b);
    assert!(d1.iter().all(|a| q::bar_task(&t, &models, a.from) == tid || q::bar_task(&t, &models, a.to) == tid));
    let dall = q::dependencies(&t, &models, b, -1);
    assert!(dall.len() >= d1.len());
}

#[test]
fn flags_and_critical_paths() {
    let m = load(&fixture("TestChipSwimlaneMixed_default"));
    let t = timeline::build(&[("d", &m)]);
    assert!(t.has_static_path && t.has_observed_path);
    assert!(t.path_source.contains("CPM_static.json"));
    let c = &t.columns;
    let tasks = c.flags.iter().filter(|&&f| f & timeline::FLAG_TASK != 0).count();
    assert!(tasks > 0);
    assert!(c.flags.iter().any(|&f| f & timeline::FLAG_STATIC_PATH != 0));
    // Markers of the dummy fixture.
    let m = load(&fixture("TestDummyTask_LongDummyChain"));
    let t = timeline::build(&[("d", &m)]);
    assert_eq!(t.columns.flags.iter().filter(|&&f| f & timeline::FLAG_MARKER != 0).count(), 4);
    // SPMD flags.
    let m = load(&fixture("TestSpmdMultiblockMix_Case1"));
    let t = timeline::build(&[("d", &m)]);
    assert!(t.columns.flags.iter().any(|&f| f & timeline::FLAG_SPMD != 0));
    assert!(!t.legend.is_empty());
}

/// The fuzzy search against brute force: every Worker View bar scored by its name, ordered by
/// score (descending), execution start, bar; from the full index and the compacted one.
#[test]
fn fuzzy_search_equals_brute_force() {
    let mut checked = 0;
    for dir in fixtures() {
        let m = load(&dir);
        let full = timeline::build(&[("d", &m)]);
        let mut kept = full.clone();
        kept.compact_for_queries();
        let mut queries: Vec<String> = full.names.iter().take(6).flat_map(|n| [n.clone(), n.chars().take(2).collect()]).collect();
        queries.extend(["a".to_owned(), "zzzz".to_owned(), "f_".to_owned()]);
        for q in &queries {
            let ql = q.trim().to_lowercase();
            let mut all: Vec<(i64, f64, q::BarAt)> = Vec::new();
            for (k, tr) in full.tracks.iter().enumerate() {
                if tr.view != View::Worker {
                    continue;
                }
                let first = full.track_range(k as u32).start;
                for g in full.track_range(k as u32) {
                    let name = &full.names[full.name_index.get(g).unwrap() as usize];
                    if let Some(s) = q::fuzzy_score(name, &ql) {
                        let bar = q::BarAt { track: k as u32, index: (g - first) as u32 };
                        all.push((s, q::bar_times(&full, &[&m], bar).unwrap().1, bar));
                    }
                }
            }
            if q::parse_task_query(q).is_some() || all.is_empty() {
                continue;
            }
            all.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
            for limit in [1, 5, 50, 500] {
                let want: Vec<q::BarAt> = all.iter().take(limit).map(|x| x.2).collect();
                for t in [&full, &kept] {
                    let (total, hits) = q::search(t, &[&m], q, limit);
                    assert_eq!(total as usize, all.len(), "{}: {q}", dir.display());
                    assert_eq!(hits.iter().map(|h| h.bar).collect::<Vec<_>>(), want, "{}: {q} limit {limit}", dir.display());
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

/// The Host Prepare lanes of every fixture with a `host_phase_records.jsonl` hold each of its
/// records once, at `(ns - host origin) / 1000` µs (computed here from the raw JSON), nested
/// phases one row below the phase holding them; a bar's details name the record.
#[test]
fn host_prepare_lanes_hold_every_host_phase_record() {
    let dirs: Vec<PathBuf> = common::runtime_dirs().into_iter().filter(|d| d.join("host_phase_records.jsonl").is_file()).collect();
    assert!(dirs.len() >= 3, "the host_build_graph fixtures");
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let m = load(dir);
        let t = timeline::build(&[("d", &m)]);
        let records: Value = serde_json::from_slice(&std::fs::read(dir.join("chip_swimlane_records.json")).unwrap()).unwrap();
        let origin = records["metadata"]["host_orchestration_origin_ns"].as_i64().unwrap();
        let mut expected: Vec<(String, i64, i64)> = Vec::new();
        for line in std::fs::read_to_string(dir.join("host_phase_records.jsonl")).unwrap().lines().filter(|l| !l.trim().is_empty()) {
            let pass: Value = serde_json::from_str(line).unwrap();
            for r in pass["records"].as_array().unwrap() {
                expected.push((r["phase"].as_str().unwrap().to_owned(), r["start_ns"].as_i64().unwrap(), r["end_ns"].as_i64().unwrap()));
            }
        }
        let group = t.groups.iter().find(|g| g.view == View::HostPrepare).unwrap_or_else(|| panic!("{name}: no Host Prepare group"));
        assert!(group.label.ends_with("Host Prepare"), "{name}: {}", group.label);
        let mut ours: Vec<(String, i64, i64)> = Vec::new();
        for &k in &group.tracks {
            let tr = &t.tracks[k as usize];
            assert!(matches!(tr.kind, TrackKind::HostPhase { .. }), "{name}: {tr:?}");
            assert!(tr.label.starts_with("inv "), "{name}: {}", tr.label);
            for g in t.track_range(k) {
                let c = &t.columns;
                let n = &t.names[t.name_index.get(g).unwrap() as usize];
                ours.push((n.clone(), (c.start_us[g] * 1000.0).round() as i64 + origin, (c.end_us[g] * 1000.0).round() as i64 + origin));
                // A bar on row r > 0 lies inside a bar of row r - 1 of its lane.
                let row = c.row[g];
                if row > 0 {
                    let inside =
                        t.track_range(k).any(|o| c.row[o] == row - 1 && c.start_us[o] <= c.start_us[g] && c.end_us[o] >= c.end_us[g]);
                    assert!(inside, "{name}: {n} on row {row} is inside no bar of row {}", row - 1);
                }
            }
        }
        expected.sort();
        ours.sort();
        assert_eq!(ours, expected, "{name}: the Host Prepare bars are the file's records");
        // Nesting: `host_orch` holds the `submit_task`s, one row deeper.
        let k = group.tracks[0];
        let at = |phase: &str| t.track_range(k).find(|&g| t.names[t.name_index.get(g).unwrap() as usize] == phase).unwrap();
        assert_eq!((t.columns.row[at("host_orch")], t.columns.row[at("submit_task")]), (0, 1), "{name}");
        // Details of the arena upload: what `detail` means, and where the record is.
        let g = at("arena_h2d");
        let bar = q::BarAt { track: k, index: (g - t.track_range(k).start) as u32 };
        let (title, fields, _) = q::bar_details(&t, &[&m], bar).unwrap();
        assert_eq!(title, "arena_h2d", "{name}");
        let field =
            |key: &str| fields.iter().find(|f| f.0 == key).map_or_else(|| panic!("{name}: no {key} in {fields:?}"), |f| f.1.clone());
        assert!(field("Lane").starts_with("Host Prepare · inv "), "{name}");
        assert!(field("Detail (Bytes)").parse::<u64>().unwrap() > 0, "{name}");
        assert!(field("Record").starts_with("host_phase_records.jsonl line 1 records["), "{name}: {}", field("Record"));
        assert_eq!(field("Clock"), "host_monotonic_ns");
        assert!(q::bar_task(&t, &[&m], bar).is_none());
    }
    // A device-orchestrated capture has no Host Prepare group and no absent entry for it.
    let device = common::runtime_dirs().into_iter().find(|d| d.to_string_lossy().contains("PagedAttention")).unwrap();
    let t = timeline::build(&[("d", &load(&device))]);
    assert!(!t.groups.iter().any(|g| g.view == View::HostPrepare) && !t.absent.iter().any(|a| a.view == View::HostPrepare));
}
