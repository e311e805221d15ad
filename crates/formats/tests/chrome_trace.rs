//! Chrome-trace readers against the fixtures: every `merged_swimlane.json` stream-read and
//! compared event by event with a `serde_json::Value` read (so the Worker View bars equal the
//! ones `crates/analysis/tests/golden.rs` checks against `worker_view`), the CPM path task
//! sets against `critical_path_report.md`, `host_phase_records.jsonl`, the synthetic serving
//! STRACE file, exact large ids, and malformed inputs (errors with positions, no panics).

#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    clippy::naive_bytecount,
    clippy::too_many_lines,
    clippy::float_cmp,
    clippy::cast_possible_wrap,
    clippy::similar_names
)]

use pypto_formats::chrome_trace::{self, ArgValue, TraceId};
use pypto_formats::{cpm, deps, host_phase_records, name_map, strace};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

fn runtime_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join("runtime"))
        .expect("fixtures/runtime")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 18, "found {} runtime fixtures", dirs.len());
    dirs
}

fn id_of(v: &Value) -> Option<TraceId> {
    match v {
        Value::Number(n) => n.as_i64().map(TraceId::Num),
        Value::String(s) => Some(TraceId::Text(s.clone())),
        _ => None,
    }
}

fn task_arg(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| v.as_i64().map(|i| i as u64))
}

/// (ph, name, cat, pid, tid, ts, dur, id, `bind_id`, `taskId`, `task_id`) of one event.
type Row =
    (u8, String, String, Option<TraceId>, Option<TraceId>, Option<f64>, Option<f64>, Option<u64>, Option<u64>, Option<u64>, Option<u64>);

fn value_rows(events: &[Value]) -> Vec<Row> {
    events
        .iter()
        .map(|e| {
            let args = &e["args"];
            (
                e["ph"].as_str().expect("ph").as_bytes()[0],
                e["name"].as_str().unwrap_or("").to_owned(),
                e["cat"].as_str().unwrap_or("").to_owned(),
                Some(id_of(&e["pid"]).unwrap_or(TraceId::Num(0))),
                id_of(&e["tid"]),
                e["ts"].as_f64(),
                e["dur"].as_f64(),
                e["id"].as_u64(),
                e["bind_id"].as_u64(),
                task_arg(&args["taskId"]),
                task_arg(&args["task_id"]),
            )
        })
        .collect()
}

fn stream_rows(t: &chrome_trace::ChromeTrace) -> Vec<Row> {
    let ev = &t.events;
    (0..ev.len())
        .map(|i| {
            let th = t.event_thread(i).expect("thread");
            let fl = ev.flags[i];
            (
                ev.ph[i],
                t.event_name(i).to_owned(),
                t.string(ev.cat[i]).to_owned(),
                Some(t.processes[th.process as usize].pid.clone()),
                th.tid.clone(),
                (fl & chrome_trace::flags::HAS_TS != 0).then_some(ev.ts_us[i]),
                (fl & chrome_trace::flags::HAS_DUR != 0).then_some(ev.dur_us[i]),
                ev.id_of(i),
                ev.bind_id_of(i),
                ev.task_id_of(i),
                // The stored column keeps task_id only when taskId is absent.
                ev.task_id_snake_of(i),
            )
        })
        .collect()
}

#[test]
fn merged_swimlanes_stream_equal_value_reads() {
    let mut checked = 0;
    for dir in runtime_dirs() {
        for file in ["merged_swimlane.json", "CPM_static.json", "CPM_observed.json"] {
            let p = dir.join(file);
            let Ok(bytes) = std::fs::read(&p) else {
                continue;
            };
            let name = p.display().to_string();
            let t = chrome_trace::parse(&name, &bytes).unwrap_or_else(|e| panic!("{e}"));
            let doc: Value = serde_json::from_slice(&bytes).expect("json");
            let events = doc["traceEvents"].as_array().expect("traceEvents");
            assert_eq!(t.events.len(), events.len(), "{name}: event count");
            assert_eq!(t.document.event_count, events.len() as u64);
            assert!(!t.document.bare_array);
            assert_eq!(t.document.metadata.as_ref(), doc.get("metadata"), "{name}: metadata");
            // Counts by ph.
            let mut by_ph: BTreeMap<u8, usize> = BTreeMap::new();
            for e in events {
                *by_ph.entry(e["ph"].as_str().unwrap().as_bytes()[0]).or_default() += 1;
            }
            for (&ph, &n) in &by_ph {
                assert_eq!(t.count_phase(ph), n, "{name}: count of ph {}", ph as char);
            }
            // Event by event (args.task_id is only stored without args.taskId).
            let mut theirs = value_rows(events);
            for r in &mut theirs {
                if r.9.is_some() {
                    r.10 = None;
                }
            }
            let ours = stream_rows(&t);
            for (k, (o, v)) in ours.iter().zip(&theirs).enumerate() {
                assert_eq!(o, v, "{name}: event {k}");
            }
            // Process and thread names / sort indices from M events.
            let mut pnames = BTreeMap::new();
            let mut psort = BTreeMap::new();
            let mut tnames = BTreeMap::new();
            for e in events.iter().filter(|e| e["ph"] == "M") {
                let pid = e["pid"].as_i64().unwrap();
                match e["name"].as_str().unwrap() {
                    "process_name" => {
                        pnames.insert(pid, e["args"]["name"].as_str().unwrap().to_owned());
                    }
                    "process_sort_index" => {
                        psort.insert(pid, e["args"]["sort_index"].as_i64().unwrap());
                    }
                    "thread_name" => {
                        tnames.insert((pid, e["tid"].as_i64().unwrap()), e["args"]["name"].as_str().unwrap().to_owned());
                    }
                    _ => {}
                }
            }
            let our_pnames: BTreeMap<i64, String> = t.processes.iter().filter_map(|p| Some((p.pid.as_i64()?, p.name.clone()?))).collect();
            let our_psort: BTreeMap<i64, i64> = t.processes.iter().filter_map(|p| Some((p.pid.as_i64()?, p.sort_index?))).collect();
            let our_tnames: BTreeMap<(i64, i64), String> = t
                .threads
                .iter()
                .filter_map(|th| {
                    let pid = t.processes[th.process as usize].pid.as_i64()?;
                    Some(((pid, th.tid.as_ref()?.as_i64()?), th.name.clone()?))
                })
                .collect();
            assert_eq!(our_pnames, pnames, "{name}: process names");
            assert_eq!(our_psort, psort, "{name}: process sort indices");
            assert_eq!(our_tnames, tnames, "{name}: thread names");
            assert_eq!(
                t.processes.iter().find(|p| p.pid == TraceId::Num(4)).and_then(|p| p.name.as_deref()),
                Some("Worker View"),
                "{name}"
            );
            // The Worker View AICore bars (what golden.rs compares with worker_view) are
            // bit-identical to the Value read.
            let wv = |rows: &[Row]| -> Vec<(Option<TraceId>, f64, f64, Option<u64>)> {
                rows.iter()
                    .filter(|r| {
                        r.0 == b'X'
                            && r.3 == Some(TraceId::Num(4))
                            && r.4.as_ref().and_then(TraceId::as_i64).is_some_and(|t| (10000..19000).contains(&t))
                    })
                    .map(|r| (r.4.clone(), r.5.unwrap(), r.6.unwrap(), r.9))
                    .collect()
            };
            let ours_wv = wv(&ours);
            assert!(!ours_wv.is_empty(), "{name}: Worker View bars");
            assert_eq!(ours_wv, wv(&theirs), "{name}: Worker View bars");
            // Streaming without storing sees the same events.
            let mut n = 0u64;
            let doc2 = chrome_trace::for_each_event(&name, &bytes, false, |e| {
                assert_eq!(e.index, n);
                n += 1;
                Ok(())
            })
            .unwrap();
            assert_eq!(doc2.event_count, n);
            checked += 1;
        }
    }
    assert!(checked >= 18 + 2 * 12, "checked {checked} traces");
}

#[test]
fn bare_event_array_is_accepted() {
    let p = root().join("runtime/a2a3sim-L4-TestChipSwimlane_default/merged_swimlane.json");
    let doc: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    let bare = serde_json::to_vec(&doc["traceEvents"]).unwrap();
    let full = chrome_trace::parse("obj", &std::fs::read(&p).unwrap()).unwrap();
    let t = chrome_trace::parse("bare", &bare).unwrap();
    assert!(t.document.bare_array);
    assert_eq!(t.events, full.events);
    assert_eq!(t.processes, full.processes);
    assert_eq!(t.threads, full.threads);
}

/// Reads the report: per rank (static count, observed count, observed kernel names in order).
fn parse_report(text: &str) -> Vec<(usize, usize, Vec<String>)> {
    let mut out = Vec::new();
    for section in text.split("\n## Rank ").skip(1) {
        let static_n = section
            .lines()
            .find(|l| l.contains("**static CPM path**"))
            .and_then(|l| l.rsplit_once(" over "))
            .and_then(|(_, r)| r.split_whitespace().next()?.parse().ok())
            .expect("static CPM line");
        let observed_n = section
            .lines()
            .find(|l| l.contains("**observed critical path**"))
            .and_then(|l| l.rsplit_once("**: "))
            .and_then(|(_, r)| r.split_whitespace().next()?.parse().ok())
            .expect("observed line");
        let listing = section.split("### Observed critical path").nth(1).expect("observed listing");
        let kernels: Vec<String> = listing
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| #"))
            .map(|l| l.split('|').nth(2).expect("kernel cell").trim().to_owned())
            .collect();
        out.push((static_n, observed_n, kernels));
    }
    out
}

#[test]
fn cpm_paths_match_critical_path_report() {
    let mut checked = 0;
    for dir in runtime_dirs() {
        let Ok(report) = std::fs::read_to_string(dir.join("critical_path_report.md")) else {
            continue;
        };
        let ranks = parse_report(&report);
        assert_eq!(ranks.len(), 1, "{}: one rank per fixture", dir.display());
        let (static_n, observed_n, kernels) = &ranks[0];
        assert_eq!(kernels.len(), *observed_n, "{}: listing", dir.display());
        let read = |f: &str| {
            let p = dir.join(f);
            cpm::read_path(&p.display().to_string(), &std::fs::read(&p).unwrap()).unwrap_or_else(|e| panic!("{e}"))
        };
        let st = read("CPM_static.json");
        let ob = read("CPM_observed.json");
        assert_eq!(st.task_ids.len(), *static_n, "{}: static", dir.display());
        assert_eq!(ob.task_ids.len(), *observed_n, "{}: observed", dir.display());
        assert!(st.warnings.is_empty() && ob.warnings.is_empty());
        // Kernel name of a task as critical_path.py names it: first non-negative kernel id
        // of the deps.json task, looked up in the name map.
        let d = deps::parse("deps.json", &std::fs::read(dir.join("deps.json")).unwrap()).unwrap();
        let nm_path = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("name_map")))
            .expect("name map");
        let nm = name_map::parse("nm", &std::fs::read(nm_path).unwrap()).unwrap();
        let kernel = |task: u64| -> String {
            let i = d.tasks.task_id.iter().position(|&t| t == task).expect("deps task");
            let k = d.tasks.kernel_ids[i].iter().copied().find(|&k| k >= 0);
            k.and_then(|k| nm.name(k).map(str::to_owned)).or_else(|| k.map(|k| format!("cid{k}"))).unwrap_or_else(|| "unknown".to_owned())
        };
        let ours: Vec<String> = ob.task_ids.iter().map(|&t| kernel(t)).collect();
        assert_eq!(&ours, kernels, "{}: observed path order", dir.display());
        // Every Worker View taskId bar of the merged trace is either on the path or renamed.
        let merged = chrome_trace::parse("merged", &std::fs::read(dir.join("merged_swimlane.json")).unwrap()).unwrap();
        let mut all: Vec<u64> = (0..merged.events.len())
            .filter(|&i| merged.events.ph[i] == b'X' && merged.event_pid(i) == Some(4))
            .filter_map(|i| merged.events.task_id_of(i))
            .collect();
        all.sort_unstable();
        all.dedup();
        for p in [&st, &ob] {
            assert_eq!(p.task_ids.len() as u64 + p.off_path_tasks, all.len() as u64);
            assert!(p.task_ids.iter().all(|t| all.binary_search(t).is_ok()));
            assert!(p.off_path_bars > 0 || p.task_ids.len() == all.len());
        }
        checked += 1;
    }
    assert!(checked >= 12, "checked {checked}");
}

#[test]
fn cpm_kind_from_file_name() {
    use cpm::CpmKind;
    assert_eq!(CpmKind::from_file_name("CPM_static.json"), Some(CpmKind::Static));
    assert_eq!(CpmKind::from_file_name("a/b/CPM_observed_rank0.json"), Some(CpmKind::Observed));
    assert_eq!(CpmKind::from_file_name("merged_swimlane.json"), None);
    assert_eq!(CpmKind::from_file_name("CPM_static.md"), None);
}

#[test]
fn cpm_reads_escaped_middle_dot_and_large_ids() {
    // ensure_ascii=True writes U+00B7 as \u00b7; ids beyond 2^53 stay exact.
    let text = r#"[
      {"ph":"X","pid":4,"tid":10000,"ts":1,"dur":2,"name":"\u00b7(t1)","args":{"taskId":1}},
      {"ph":"X","pid":4,"tid":10000,"ts":3,"dur":2,"name":"QK(r2t5)","args":{"taskId":18446744073709551615}},
      {"ph":"X","pid":4,"tid":10010,"ts":0.5,"dur":2,"name":"QK(x)","args":{"taskId":9007199254740993}},
      {"ph":"X","pid":4,"tid":19000,"ts":0,"dur":0.02,"name":"dummy(t7)","args":{"task_id":7}},
      {"ph":"X","pid":3,"tid":10000,"ts":0,"dur":2,"name":"QK(t8)","args":{"taskId":8}}
    ]"#;
    let p = cpm::read_path("CPM_static.json", text.as_bytes()).unwrap();
    assert_eq!(p.task_ids, vec![9_007_199_254_740_993, u64::MAX]);
    assert_eq!(p.first_ts_us, vec![0.5, 3.0]);
    assert_eq!(p.last_end_us, vec![2.5, 5.0]);
    assert_eq!((p.task_bars, p.off_path_bars, p.off_path_tasks), (3, 1, 1));
    assert_eq!(p.event_count, 5);
}

#[test]
fn large_and_negative_task_ids_are_exact() {
    let text = r#"{"traceEvents":[
      {"ph":"X","pid":4,"tid":1,"ts":0,"dur":1,"name":"a","args":{"taskId":18446744073709551615}},
      {"ph":"X","pid":4,"tid":1,"ts":0,"dur":1,"name":"b","args":{"taskId":9007199254740993}},
      {"ph":"X","pid":4,"tid":1,"ts":0,"dur":1,"name":"c","args":{"taskId":-1}},
      {"ph":"X","pid":4,"tid":1,"ts":0,"dur":1,"name":"d","args":{"taskId":"9007199254740995"}},
      {"ph":"X","pid":4,"tid":1,"ts":0,"dur":1,"name":"e","args":{"taskId":1.5}},
      {"ph":"X","pid":18446744073709551615,"tid":"core0","ts":0,"dur":1,"name":"f","args":{"task_id":12}},
      {"ph":"s","pid":2,"tid":3,"ts":0,"id":"0x1f","name":"flow","cat":"flow","bind_id":99},
      {"ph":"f","pid":2,"tid":3,"ts":1,"id":-2,"bp":"e","name":"flow","cat":"flow"},
      {"ph":"i","pid":2,"tid":3,"ts":1,"s":"g","name":"mark"}
    ]}"#;
    let t = chrome_trace::parse("ids", text.as_bytes()).unwrap();
    let ev = &t.events;
    assert_eq!(ev.task_id_of(0), Some(u64::MAX));
    assert_eq!(ev.task_id_of(1), Some(9_007_199_254_740_993));
    assert_eq!(ev.task_id_of(2), Some(u64::MAX));
    assert_eq!(ev.task_id_of(3), Some(9_007_199_254_740_995));
    assert_eq!(ev.task_id_of(4), None);
    assert_eq!(ev.task_id_of(5), None);
    assert_eq!(ev.task_id_snake_of(5), Some(12));
    assert_eq!(t.warnings.len(), 1, "{:?}", t.warnings);
    let p5 = t.event_process(5).unwrap();
    assert_eq!(p5.pid, TraceId::Text("18446744073709551615".to_owned()));
    assert_eq!(t.event_thread(5).unwrap().tid, Some(TraceId::Text("core0".to_owned())));
    assert_eq!(ev.id_of(6), Some(0x1f));
    assert_eq!(ev.bind_id_of(6), Some(99));
    assert_eq!(ev.id_of(7), Some(u64::MAX - 1));
    assert!(ev.flags[7] & chrome_trace::flags::BP_ENCLOSING != 0);
    assert_eq!(ev.flags[8] & chrome_trace::flags::SCOPE_MASK, chrome_trace::flags::SCOPE_GLOBAL);
    assert_eq!(t.event_tid(8), Some(3));
}

#[test]
fn keep_args_keeps_every_argument() {
    let text = r#"{"traceEvents":[{"ph":"i","s":"t","pid":1,"tid":2,"ts":5,"name":"request.queued",
      "args":{"request_id":"req-\u0031","n":3,"neg":-4,"x":0.5,"ok":true,"none":null,"list":[1,2],"obj":{"a":1}}}]}"#;
    let t = chrome_trace::parse_with("a", text.as_bytes(), chrome_trace::ParseOptions { keep_args: true }).unwrap();
    let args: Vec<(&str, &ArgValue)> = t.event_args(0).collect();
    assert_eq!(args.len(), 8);
    assert_eq!(t.event_arg(0, "request_id"), Some(&ArgValue::Str(t.strings.iter().position(|s| s == "req-1").unwrap() as u32)));
    assert_eq!(t.event_arg(0, "n"), Some(&ArgValue::U64(3)));
    assert_eq!(t.event_arg(0, "neg"), Some(&ArgValue::I64(-4)));
    assert_eq!(t.event_arg(0, "x"), Some(&ArgValue::F64(0.5)));
    assert_eq!(t.event_arg(0, "ok"), Some(&ArgValue::Bool(true)));
    assert_eq!(t.event_arg(0, "none"), Some(&ArgValue::Null));
    assert_eq!(t.event_arg(0, "list"), Some(&ArgValue::Json("[1,2]".to_owned())));
    assert_eq!(t.event_arg(0, "obj"), Some(&ArgValue::Json("{\"a\":1}".to_owned())));
    // Without keep_args nothing is stored.
    let t = chrome_trace::parse("a", text.as_bytes()).unwrap();
    assert!(t.args.is_none());
    assert_eq!(t.event_args(0).count(), 0);
}

fn err(text: &str) -> pypto_formats::FormatError {
    chrome_trace::parse("bad.json", text.as_bytes()).expect_err(text)
}

#[test]
fn malformed_traces_give_positioned_errors() {
    let cases: &[(&str, &str)] = &[
        ("", "EOF"),
        ("{\"traceEvents\": [", "truncated"),
        ("{\"displayTimeUnit\": \"ms\"}", "missing `traceEvents`"),
        ("{\"traceEvents\": {}}", "`traceEvents` array"),
        ("{\"traceEvents\": null}", "`traceEvents` array"),
        ("42", "Chrome trace"),
        ("{\"traceEvents\": [5]}", "traceEvents[0]: invalid type: integer `5`, expected a trace event object"),
        ("{\"traceEvents\": [{\"ph\":\"M\",\"pid\":1},\n {\"ph\":\"Q\",\"pid\":1,\"ts\":0}]}", "traceEvents[1]: unknown ph \"Q\""),
        ("[{\"ph\":\"XX\",\"ts\":0,\"dur\":1}]", "unknown ph \"XX\""),
        ("[{\"ph\":\"\",\"ts\":0}]", "unknown ph \"\""),
        ("[{\"ph\":5}]", "`ph` as a string"),
        ("[{\"pid\":1,\"ts\":0}]", "traceEvents[0]: event without `ph`"),
        ("[{\"ph\":\"X\",\"ts\":0}]", "`X` event without `dur`"),
        ("[{\"ph\":\"i\",\"pid\":1}]", "`i` event without `ts`"),
        ("[{\"ph\":\"X\",\"ts\":\"12\",\"dur\":1}]", "`ts` as a number"),
        ("[{\"ph\":\"X\",\"ts\":1,\"dur\":[1]}]", "`dur` as a number"),
        ("[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":true}]", "`pid` as an integer or a string"),
        ("[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"tid\":1.5}]", "`tid` as an integer or a string"),
        ("[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"name\":7}]", "`name` as a string"),
        ("[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":[1]}]", "`args` as an object"),
        ("[{\"ph\":\"s\",\"ts\":1,\"id\":{}}]", "`id` as an integer or a string"),
        ("[{\"ph\":\"X\",\"ts\":1,\"dur\":1}] x", "trailing characters"),
        ("{\"traceEvents\": [], \"traceEvents\": []}", "duplicate `traceEvents`"),
        ("[{\"ph\":\"X\",\"ts\":1e999,\"dur\":1}]", "number out of range"),
    ];
    for (text, want) in cases {
        let e = err(text);
        assert!(e.message.contains(want), "{text:?}: got {e}, want it to contain {want:?}");
        assert!(e.line >= 1 && e.column >= 1, "{text:?}: no position in {e}");
        assert_eq!(e.path, "bad.json");
    }
    // The unknown ph is reported on the line of its event.
    let e = err("{\"traceEvents\": [{\"ph\":\"M\",\"pid\":1},\n {\"ph\":\"Q\",\"pid\":1,\"ts\":0}]}");
    assert_eq!(e.line, 2);
    // The CPM reader and the STRACE reader report the same errors.
    let e = cpm::read_path("CPM_static.json", b"{\"metadata\": {}}").expect_err("no events");
    assert!(e.message.contains("missing `traceEvents`"), "{e}");
    let e = strace::parse("s.json", b"[{\"ph\":\"Z\",\"ts\":0}]").expect_err("bad ph");
    assert!(e.to_string().starts_with("s.json:1:"), "{e}");
}

#[test]
fn truncated_real_trace_never_panics_and_reports_the_end() {
    let p = root().join("runtime/a2a3sim-L4-TestDummyTask_LongDummyChain/merged_swimlane.json");
    let bytes = std::fs::read(p).unwrap();
    let trimmed_len = bytes.trim_ascii_end().len();
    let mut step = 1usize;
    let mut cut = 0usize;
    while cut < trimmed_len {
        let part = &bytes[..cut];
        let e = chrome_trace::parse("m.json", part).expect_err("truncated");
        let lines = part.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        assert!(e.line >= 1 && e.line <= lines, "cut {cut}: {e}");
        assert!(cpm::read_path("m.json", part).is_err());
        cut += step;
        step = (step * 2).min(97);
    }
    let half = &bytes[..bytes.len() / 2];
    let e = chrome_trace::parse("m.json", half).expect_err("half");
    let lines = half.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    assert_eq!(e.line, lines);
    assert!(e.message.contains("truncated"), "{e}");
    assert!(e.message.starts_with("traceEvents["), "{e}");
}

#[test]
fn host_phase_records_fixtures() {
    let mut checked = 0;
    for dir in runtime_dirs() {
        let p = dir.join("host_phase_records.jsonl");
        let Ok(bytes) = std::fs::read(&p) else {
            continue;
        };
        let r = host_phase_records::parse("h.jsonl", &bytes).unwrap();
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        let lines: Vec<Value> =
            bytes.split(|&b| b == b'\n').filter(|l| !l.trim_ascii().is_empty()).map(|l| serde_json::from_slice(l).unwrap()).collect();
        assert_eq!(r.pass_count(), lines.len());
        let mut k = 0;
        for (pi, pass) in lines.iter().enumerate() {
            assert_eq!(r.pass_pid[pi], pass["pid"].as_u64());
            assert_eq!(r.pass_inv[pi], pass["inv"].as_u64());
            assert_eq!(r.pass_clock[pi].as_deref(), pass["clock"].as_str());
            let recs = pass["records"].as_array().unwrap();
            assert_eq!(r.records_of(pi).len(), recs.len());
            for rec in recs {
                assert_eq!(r.phase_name(k), rec["phase"].as_str().unwrap());
                assert_eq!(r.start_ns[k], rec["start_ns"].as_u64().unwrap());
                assert_eq!(r.end_ns[k], rec["end_ns"].as_u64().unwrap());
                assert_eq!(r.detail[k], rec["detail"].as_u64().unwrap_or(0));
                assert_eq!(r.tid[k], rec["tid"].as_u64());
                k += 1;
            }
        }
        assert_eq!(r.record_count(), k);
        checked += 1;
    }
    assert_eq!(checked, 3);
}

#[test]
fn host_phase_records_skip_malformed_lines_like_the_reference() {
    // The reference loader's own test: only inv 1 and 4 survive.
    let text = concat!(
        "{\"pid\": 7, \"inv\": 1, \"records\": [{\"phase\": \"args\", \"start_ns\": 10, \"end_ns\": 20}]}\n",
        "null\n",
        "[1, 2, 3]\n",
        "42\n",
        "\"a string\"\n",
        "{\"pid\": 7, \"inv\": 2, \"records\": \"not-a-list\"}\n",
        "{\"pid\": 7, \"inv\": 3, \"records\": [\n",
        "\n",
        "{\"pid\": 7, \"inv\": 4, \"records\": []}\n",
        "{\"pid\": 7, \"inv\": 5, \"records\": [{\"phase\": \"x\", \"start_ns\": \"30\", \"end_ns\": 25, \"tid\": 0}, 5, {\"phase\": \"y\", \"start_ns\": 1}, {\"start_ns\": 1, \"end_ns\": 2}]}\n",
        "{\"pid\": 7, \"inv\": 6, \"records\": [{\"phase\": \"z\", \"start_ns\": 18446744073709551615, \"end_ns\": 18446744073709551615, \"detail\": 3072}]}",
    );
    let r = host_phase_records::parse("h.jsonl", text.as_bytes()).unwrap();
    let invs: Vec<Option<u64>> = r.pass_inv.clone();
    assert_eq!(invs, vec![Some(1), Some(4), Some(5), Some(6)]);
    assert_eq!(r.pass_line, vec![1, 9, 10, 11]);
    let warn_lines: Vec<u64> = r.warnings.iter().map(|w| w.line).collect();
    assert_eq!(warn_lines, vec![2, 3, 4, 5, 6, 7, 10, 10, 10]);
    assert!(r.warnings[5].message.contains("truncated"), "{}", r.warnings[5]);
    assert!(r.warnings.iter().all(|w| w.column >= 1 && w.path == "h.jsonl"));
    assert_eq!(r.record_count(), 3);
    assert_eq!(r.phase_name(1), "x");
    assert_eq!((r.start_ns[1], r.end_ns[1], r.tid[1]), (30, 25, None));
    assert_eq!(r.duration_ns(1), 0);
    assert_eq!(r.start_ns[2], u64::MAX);
    assert_eq!(r.detail[2], 3072);
    assert_eq!(r.records_of(1), 1..1);
}

#[test]
fn serving_strace_model_of_the_synthetic_fixture() {
    let p = root().join("strace/serving-strace-swimlane.json");
    let s = strace::parse("s.json", &std::fs::read(p).unwrap()).unwrap();
    assert_eq!(s.trace.document.display_time_unit.as_deref(), Some("ms"));
    assert!(s.trace.document.metadata.is_some());
    assert_eq!(s.spans.len(), 21);
    assert_eq!(s.instants.len(), 1);
    assert_eq!(s.metadata_events, 13);
    assert_eq!(s.other_events, 0);
    let kinds: Vec<(String, strace::ProcessKind, Vec<u32>)> =
        s.processes.iter().map(|p| (p.label.clone(), p.kind, p.worker_devices.clone())).collect();
    assert_eq!(
        kinds,
        vec![
            ("pypto-serving-api".to_owned(), strace::ProcessKind::Serving, vec![]),
            ("serving-worker-0,1".to_owned(), strace::ProcessKind::ServingWorker, vec![0, 1]),
            ("serving-worker-2,3".to_owned(), strace::ProcessKind::ServingWorker, vec![2, 3]),
            ("Simpler host STRACE (2 NPU lanes)".to_owned(), strace::ProcessKind::HostStrace, vec![]),
        ]
    );
    assert_eq!(s.trace.processes[3].sort_index, Some(3));
    let lanes: Vec<(u32, &str, Option<i64>)> = s.device_lanes.iter().map(|l| (l.device_id, l.label.as_str(), l.sort_index)).collect();
    assert_eq!(lanes, vec![(0, "device 0", Some(0)), (2, "device 2", Some(1))]);
    assert_eq!((s.first_ts_us, s.last_end_us, s.total_duration_us()), (0.0, 400.0, 400.0));
    // Instant arguments are available for the detail panel.
    let i = s.instants[0] as usize;
    assert_eq!(s.trace.event_name(i), "request.queued");
    assert_eq!(s.trace.events.flags[i] & chrome_trace::flags::SCOPE_MASK, chrome_trace::flags::SCOPE_THREAD);
    match s.trace.event_arg(i, "request_id") {
        Some(ArgValue::Str(k)) => assert_eq!(s.trace.string(*k), "req-1"),
        other => panic!("{other:?}"),
    }
    // A device bar: lane, name split, args.
    let bar = s.spans.iter().map(|&e| e as usize).find(|&e| s.trace.event_name(e) == "D01 decode.main+verify+mtp | runner_run").unwrap();
    assert_eq!(s.event_device_lane(bar).map(|l| l.device_id), Some(0));
    assert_eq!(s.event_process_kind(bar), Some(strace::ProcessKind::HostStrace));
    assert_eq!(s.trace.event_arg(bar, "device"), Some(&ArgValue::U64(0)));
    assert_eq!(s.trace.string(s.trace.events.cname[bar]), "thread_state_running");
    let b = strace::split_bar_name(s.trace.event_name(bar)).unwrap();
    assert_eq!((b.tag, b.callable, b.stage, b.is_root()), (Some("D01"), "decode.main+verify+mtp", "runner_run", false));
    let b = strace::split_bar_name("prefill.main | simpler_run").unwrap();
    assert_eq!((b.tag, b.callable, b.is_root()), (None, "prefill.main", true));
    let b = strace::split_bar_name("P001 prefill.main | chip.run").unwrap();
    assert_eq!((b.tag, b.is_root()), (Some("P001"), true));
    assert!(strace::split_bar_name("WorkerProcess.execute_step").is_none());
    assert_eq!(strace::worker_devices("serving-worker-0,1,x,15"), vec![0, 1, 15]);
    assert_eq!(strace::lane_device("device 12"), Some(12));
    assert_eq!(strace::lane_device("devices 12"), None);
}
