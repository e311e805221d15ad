//! Serving STRACE statistics on the synthetic `fixtures/strace/serving-strace-swimlane.json`
//! (built by hand from runtime-formats.md §7.3); every expected number below was computed by
//! hand from the durations in that file.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::float_cmp)]

use pypto_analysis::strace_stats::{self, DurationStats, NamedStats};
use pypto_formats::strace;
use std::path::Path;

fn stats(count: u64, total: f64, min: f64, max: f64) -> DurationStats {
    DurationStats { count, total_us: total, avg_us: total / count as f64, min_us: min, max_us: max }
}

fn named(list: &[NamedStats]) -> Vec<(&str, DurationStats)> {
    list.iter().map(|n| (n.name.as_str(), n.stats)).collect()
}

fn load() -> strace_stats::StraceStats {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/strace/serving-strace-swimlane.json");
    let s = strace::parse("serving-strace-swimlane.json", &std::fs::read(p).expect("fixture")).unwrap_or_else(|e| panic!("{e}"));
    strace_stats::compute(&s)
}

#[test]
fn totals_and_wait_worker_output() {
    let st = load();
    assert_eq!(st.total_duration_us, 400.0);
    assert_eq!((st.first_ts_us, st.last_end_us), (0.0, 400.0));
    assert_eq!((st.span_count, st.instant_count), (21, 1));
    // 100 + 50 + 30 µs.
    assert_eq!(st.wait_worker_output, stats(3, 180.0, 30.0, 100.0));
    assert_eq!(st.wait_worker_output.avg_us, 60.0);
}

#[test]
fn per_worker_process_and_span_name() {
    let st = load();
    let workers: Vec<(&str, &[u32])> = st.worker_processes.iter().map(|w| (w.label.as_str(), w.devices.as_slice())).collect();
    assert_eq!(workers, vec![("serving-worker-0,1", &[0u32, 1][..]), ("serving-worker-2,3", &[2u32, 3][..])]);
    let w0 = &st.worker_processes[0];
    // prepare_decode 40 + 20; execute_step 45 + 15 + 25.5; PyptoExecutor.* is not counted.
    assert_eq!(w0.all, stats(5, 145.5, 15.0, 45.0));
    assert_eq!(
        named(&w0.spans),
        vec![("WorkerProcess.execute_step", stats(3, 85.5, 15.0, 45.0)), ("WorkerProcess.prepare_decode", stats(2, 60.0, 20.0, 40.0)),]
    );
    assert_eq!(w0.spans[0].stats.avg_us, 28.5);
    let w1 = &st.worker_processes[1];
    assert_eq!(named(&w1.spans), vec![("WorkerProcess.execute_step", stats(2, 60.0, 16.0, 44.0))]);
    // Over both workers.
    assert_eq!(
        named(&st.worker_span_names),
        vec![("WorkerProcess.execute_step", stats(5, 145.5, 15.0, 45.0)), ("WorkerProcess.prepare_decode", stats(2, 60.0, 20.0, 40.0)),]
    );
    assert!((st.worker_span_names[0].stats.avg_us - 29.1).abs() < 1e-12);
    // Every serving span name (device lanes excluded), byte order.
    assert_eq!(
        named(&st.span_names),
        vec![
            ("PyptoExecutor.run_decode", stats(1, 40.0, 40.0, 40.0)),
            ("WorkerProcess.execute_step", stats(5, 145.5, 15.0, 45.0)),
            ("WorkerProcess.prepare_decode", stats(2, 60.0, 20.0, 40.0)),
            ("http.completions", stats(1, 400.0, 400.0, 400.0)),
            ("scheduler.schedule", stats(1, 10.0, 10.0, 10.0)),
            ("scheduler.wait_worker_output", stats(3, 180.0, 30.0, 100.0)),
        ]
    );
}

#[test]
fn per_device_lane() {
    let st = load();
    let lanes: Vec<(u32, &str)> = st.device_lanes.iter().map(|l| (l.device_id, l.label.as_str())).collect();
    assert_eq!(lanes, vec![(0, "device 0"), (2, "device 2")]);
    let d0 = &st.device_lanes[0];
    // Roots: prefill 20, D01 30. All bars: 20 + 5 + 12 + 30 + 20.
    assert_eq!(d0.root, stats(2, 50.0, 20.0, 30.0));
    assert_eq!(d0.all_bars, stats(5, 87.0, 5.0, 30.0));
    assert_eq!(
        named(&d0.stages),
        vec![("bind", stats(1, 5.0, 5.0, 5.0)), ("runner_run", stats(2, 32.0, 12.0, 20.0)), ("simpler_run", stats(2, 50.0, 20.0, 30.0)),]
    );
    let d2 = &st.device_lanes[1];
    // Roots: prefill 22, D01 26; plus validate 1.5.
    assert_eq!(d2.root, stats(2, 48.0, 22.0, 26.0));
    assert_eq!(d2.all_bars, stats(3, 49.5, 1.5, 26.0));
    assert_eq!(named(&d2.stages), vec![("simpler_run", stats(2, 48.0, 22.0, 26.0)), ("validate", stats(1, 1.5, 1.5, 1.5)),]);
    assert_eq!(st.device_roots, stats(4, 98.0, 20.0, 30.0));
    assert_eq!(st.device_roots.avg_us, 24.5);
}

#[test]
fn empty_and_worker_without_spans() {
    let text = br#"{"traceEvents":[
      {"ph":"M","name":"process_name","pid":5,"tid":0,"args":{"name":"serving-worker-3"}},
      {"ph":"M","name":"process_name","pid":6,"args":{"name":"Simpler host STRACE (8 NPU lanes)"}},
      {"ph":"X","name":"WorkerProcess.batch_prefill","pid":9,"tid":1,"ts":2,"dur":3}
    ]}"#;
    let s = strace::parse("t.json", text).unwrap();
    let st = strace_stats::compute(&s);
    assert_eq!(st.total_duration_us, 3.0);
    assert!(st.device_lanes.is_empty());
    assert_eq!(st.device_roots, DurationStats::default());
    let w: Vec<(&str, u64)> = st.worker_processes.iter().map(|w| (w.label.as_str(), w.all.count)).collect();
    // The named worker has no spans; the unnamed process with WorkerProcess.* spans counts.
    assert_eq!(w, vec![("serving-worker-3", 0), ("pid 9", 1)]);
    let empty = strace::parse("e.json", b"[]").unwrap();
    let st = strace_stats::compute(&empty);
    assert_eq!(st, strace_stats::StraceStats::default());
}
