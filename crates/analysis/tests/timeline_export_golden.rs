//! Golden test of the Perfetto export (`timeline_export`) on every runtime fixture: the JSON
//! parses; it has one `X` slice per timeline bar; per Worker / Scheduler View lane name the
//! slice count equals the reference converter's `merged_swimlane.json`; and the Worker View
//! dependency flows (`dependency` / `hb_violation`) equal the reference's in number and kind.
//! A window export keeps exactly the bars that start inside it.

#![allow(clippy::unwrap_used, clippy::cast_possible_truncation, clippy::many_single_char_names)]

use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::timeline::{self, View};
use pypto_analysis::timeline_export::write_chrome_trace;
use pypto_analysis::timeline_query as q;
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

/// `(process name, thread name) → X count` and `(flow name, process name of its start) → count`.
type Counts = (BTreeMap<(String, String), usize>, BTreeMap<(String, String), usize>);

fn counts(v: &Value) -> Counts {
    let ev = v.get("traceEvents").and_then(Value::as_array).unwrap();
    let mut pname: BTreeMap<u64, String> = BTreeMap::new();
    let mut tname: BTreeMap<(u64, u64), String> = BTreeMap::new();
    for e in ev {
        let pid = e.get("pid").and_then(Value::as_u64).unwrap_or(0);
        let tid = e.get("tid").and_then(Value::as_u64).unwrap_or(0);
        let name = e.pointer("/args/name").and_then(Value::as_str).unwrap_or("").to_owned();
        match (e.get("ph").and_then(Value::as_str), e.get("name").and_then(Value::as_str)) {
            (Some("M"), Some("process_name")) => {
                pname.insert(pid, name);
            }
            (Some("M"), Some("thread_name")) => {
                tname.insert((pid, tid), name);
            }
            _ => {}
        }
    }
    let mut slices = BTreeMap::new();
    let mut flows = BTreeMap::new();
    for e in ev {
        let pid = e.get("pid").and_then(Value::as_u64).unwrap_or(0);
        let tid = e.get("tid").and_then(Value::as_u64).unwrap_or(0);
        let p = pname.get(&pid).cloned().unwrap_or_default();
        match e.get("ph").and_then(Value::as_str) {
            Some("X") => *slices.entry((p, tname.get(&(pid, tid)).cloned().unwrap_or_default())).or_insert(0) += 1,
            Some("s") => {
                let n = e.get("name").and_then(Value::as_str).unwrap_or("").to_owned();
                *flows.entry((n, p)).or_insert(0) += 1;
            }
            _ => {}
        }
    }
    (slices, flows)
}

#[test]
fn export_matches_the_reference_lanes_and_flows() {
    let dirs = fixtures();
    assert!(dirs.len() >= 10, "fixtures not found");
    let mut checked_flows = 0;
    for dir in dirs {
        let m = load(&dir);
        let t = timeline::build(&[("", &m)]);
        let models = [&m];
        let mut out = Vec::new();
        let written = write_chrome_trace(&t, &models, None, &mut out).unwrap();
        let ours: Value = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{}: export is not JSON: {e}", dir.display()));
        assert_eq!(written.slices, t.bar_count(), "{}", dir.display());
        let (our_slices, our_flows) = counts(&ours);
        assert_eq!(our_slices.values().sum::<usize>(), t.bar_count(), "{}", dir.display());
        let reference: Value = serde_json::from_slice(&std::fs::read(dir.join("merged_swimlane.json")).unwrap()).unwrap();
        let (ref_slices, ref_flows) = counts(&reference);
        for view in [View::Worker, View::Scheduler] {
            let pick = |m: &BTreeMap<(String, String), usize>, process: &str| -> BTreeMap<String, usize> {
                let mut by_lane = BTreeMap::new();
                for ((p, lane), n) in m {
                    if p.ends_with(process) {
                        *by_lane.entry(lane.clone()).or_insert(0) += n;
                    }
                }
                by_lane
            };
            assert_eq!(pick(&our_slices, view.title()), pick(&ref_slices, view.title()), "{}: {} lanes", dir.display(), view.title());
        }
        for kind in ["dependency", "hb_violation"] {
            let ours = our_flows.get(&(kind.to_owned(), View::Worker.title().to_owned())).copied().unwrap_or(0);
            let theirs = ref_flows.get(&(kind.to_owned(), View::Worker.title().to_owned())).copied().unwrap_or(0);
            assert_eq!(ours, theirs, "{}: Worker View {kind} flows", dir.display());
            checked_flows += ours;
        }
    }
    assert!(checked_flows > 100, "too few flows compared: {checked_flows}");
}

#[test]
fn window_export_keeps_the_bars_starting_inside() {
    let dir = fixtures().into_iter().find(|d| d.to_string_lossy().contains("PagedAttention")).unwrap();
    let m = load(&dir);
    let t = timeline::build(&[("", &m)]);
    let models = [&m];
    let (a, b) = (t.first_start_us, t.last_end_us);
    let window = (a + (b - a) * 0.25, a + (b - a) * 0.5);
    let expected = (0..t.bar_count())
        .filter_map(|g| q::bar_at(&t, g))
        .filter(|&bar| q::bar_times(&t, &models, bar).is_some_and(|(s, _, _)| s >= window.0 && s <= window.1))
        .count();
    assert!(expected > 10 && expected < t.bar_count());
    let mut out = Vec::new();
    let written = write_chrome_trace(&t, &models, Some(window), &mut out).unwrap();
    assert_eq!(written.slices, expected);
    let v: Value = serde_json::from_slice(&out).unwrap();
    let (slices, _) = counts(&v);
    assert_eq!(slices.values().sum::<usize>(), expected);
}
