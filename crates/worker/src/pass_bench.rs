//! Automation hook for the IR Pass Trace benchmark (`cargo xtask bench-passes-browser`,
//! issue 7 item 11): `self.__pyptoPassTraceBench(files, iterations)` in the worker times the
//! worker's own code path on in-memory snapshots, with `performance.now()` taken inside the
//! worker, and returns the numbers (never used by the page itself).
//!
//! `files` is an array of `[name, text]` (a pass-dump directory: `00_frontend.py`,
//! `NN_after_<Pass>.py`, …). Stages, each the minimum over `iterations` runs:
//! - `list_ms`: validation and the pass list (+/− of every pass against the previous one),
//!   what `PassList` answers;
//! - `diffs_ms`: every pass's diff work (`pypto_replies::pass_trace::diff_part`: rows from
//!   the pass list's hunks, folding, token changes of every replaced line pair) — with
//!   `list_ms`, the work pypto's `ir_trace` does with difflib;
//! - `outline_ms`: the function regions of every snapshot (the function filter's list; the
//!   worker outlines each snapshot once);
//! - `reply_ms`: the rest of each `PassDiff` reply (`pypto_replies::pass_trace::diff_data`:
//!   line texts, row columns, function list, warnings);
//! - `encode_ms`: those replies turned into the JS objects `postMessage` sends.

use std::collections::HashMap;

use pypto_analysis::function_filter::{function_choices, function_regions, FunctionRegion};
use pypto_analysis::pass_trace;
use pypto_formats::passes_dump;
use pypto_protocol::FromWorker;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use pypto_replies::pass_trace as passes;

use crate::clock::now_ms;
use crate::transport;

/// What one call measured.
#[derive(Debug, Default, Serialize)]
struct BenchResult {
    files: usize,
    lines: usize,
    passes: usize,
    changed_passes: usize,
    /// `(added, removed)` of every pass, to compare with the other tools.
    counts: Vec<(u32, u32)>,
    /// Diff rows of all replies together.
    rows: usize,
    /// Replaced line pairs refined at token level.
    refined_pairs: usize,
    list_ms: f64,
    diffs_ms: f64,
    outline_ms: f64,
    reply_ms: f64,
    encode_ms: f64,
    iterations: u32,
}

/// `[name, text]` pairs of `files`.
fn read_files(files: &JsValue) -> Result<Vec<(String, String)>, String> {
    let array: &js_sys::Array = files.dyn_ref().ok_or("files must be an array of [name, text]")?;
    array
        .iter()
        .map(|pair| {
            let pair: js_sys::Array = pair.dyn_into().map_err(|_| "each file must be [name, text]".to_owned())?;
            let name = pair.get(0).as_string().ok_or("a file name is not a string")?;
            let text = pair.get(1).as_string().ok_or_else(|| format!("{name}: text is not a string"))?;
            Ok((name, text))
        })
        .collect()
}

/// One run of the worker's path over every pass, as `PassList` then `PassDiff` of each pass
/// do it (`pypto_replies::pass_trace::build_diff` is these steps in this order), timed per step.
fn run_once(files: &[(String, String)], out: &mut BenchResult) {
    let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
    let read = |name: &str| files.iter().find(|f| f.0 == name).map(|f| f.1.as_str()).ok_or_else(|| format!("{name} is not in the set"));
    let text_of = |name: &str| if name.is_empty() { "" } else { read(name).unwrap_or("") };
    let t0 = now_ms();
    let listing = passes_dump::validate(&names);
    let list = pass_trace::pass_list(&listing, &names, read);
    let t1 = now_ms();
    let parts: Vec<passes::DiffPart> = list
        .passes
        .iter()
        .map(|entry| {
            let bl = pass_trace::split_lines(text_of(&entry.previous_file));
            let al = pass_trace::split_lines(text_of(&entry.file_name));
            passes::diff_part(entry, &bl, &al, None)
        })
        .collect();
    let t2 = now_ms();
    // Function regions once per snapshot, as the worker caches them.
    let regions: HashMap<&str, Option<Vec<FunctionRegion>>> = files.iter().map(|f| (f.0.as_str(), function_regions(&f.0, &f.1))).collect();
    let t3 = now_ms();
    let regions_of = |name: &str| regions.get(name).and_then(Option::as_deref);
    let replies: Vec<FromWorker> = list
        .passes
        .iter()
        .zip(parts)
        .enumerate()
        .map(|(i, (entry, part))| {
            let input = passes::DiffInput {
                entry,
                before_text: text_of(&entry.previous_file),
                after_text: text_of(&entry.file_name),
                before_regions: regions_of(&entry.previous_file),
                after_regions: regions_of(&entry.file_name),
                log: entry.log_file.as_deref().and_then(|f| read(f).ok()),
            };
            let choices = function_choices(input.before_regions, input.after_regions).unwrap_or_default();
            FromWorker::PassDiff(Box::new(passes::diff_data(0, i as u32, &input, &choices, None, part)))
        })
        .collect();
    let (mut rows, mut refined_pairs) = (0, 0);
    for r in &replies {
        if let FromWorker::PassDiff(d) = r {
            rows += d.kinds.len();
            refined_pairs += d.changes.len();
        }
    }
    let t4 = now_ms();
    // As the reply goes: the texts and row columns as typed arrays beside a small message.
    let encoded: Vec<js_sys::Object> = replies
        .into_iter()
        .map(|r| match r {
            FromWorker::PassDiff(mut d) => {
                let columns = crate::passes::diff_columns(&mut d);
                transport::encode_reply(&FromWorker::PassDiff(d), Some(columns)).0
            }
            r => transport::encode_reply(&r, None).0,
        })
        .collect();
    let t5 = now_ms();
    std::hint::black_box(&encoded);
    out.list_ms = out.list_ms.min(t1 - t0);
    out.diffs_ms = out.diffs_ms.min(t2 - t1);
    out.outline_ms = out.outline_ms.min(t3 - t2);
    out.reply_ms = out.reply_ms.min(t4 - t3);
    out.encode_ms = out.encode_ms.min(t5 - t4);
    out.passes = list.passes.len();
    out.changed_passes = list.passes.iter().filter(|p| !p.no_op).count();
    out.counts = list.passes.iter().map(|p| (p.added, p.removed)).collect();
    out.rows = rows;
    out.refined_pairs = refined_pairs;
}

fn measure(files: &[(String, String)], iterations: u32) -> BenchResult {
    let mut out = BenchResult {
        files: files.len(),
        lines: files.iter().map(|f| pass_trace::split_lines(&f.1).len()).sum(),
        list_ms: f64::INFINITY,
        diffs_ms: f64::INFINITY,
        outline_ms: f64::INFINITY,
        reply_ms: f64::INFINITY,
        encode_ms: f64::INFINITY,
        iterations,
        ..BenchResult::default()
    };
    for _ in 0..iterations.max(1) {
        run_once(files, &mut out);
    }
    out
}

/// Installs `self.__pyptoPassTraceBench(files, iterations)` on the worker's global scope.
pub(crate) fn install() {
    let hook = Closure::<dyn Fn(JsValue, JsValue) -> Result<JsValue, JsValue>>::new(|files: JsValue, iterations: JsValue| {
        let files = read_files(&files).map_err(|e| JsValue::from_str(&e))?;
        let iterations = iterations.as_f64().map_or(1, |n| n.clamp(1.0, 1000.0) as u32);
        let result = measure(&files, iterations);
        result.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsValue::from_str(&e.to_string()))
    });
    let _ = js_sys::Reflect::set(&js_sys::global(), &JsValue::from_str("__pyptoPassTraceBench"), hook.as_ref());
    hook.forget();
}
