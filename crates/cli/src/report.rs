//! `pypto-viewer report`: discovery plus per-dataset summary facts, as text or JSON. The
//! thing golden tests and users' scripts compare.

use std::fmt::Write as _;

use crate::analyses;
use pypto_analysis::{pass_trace, summary, tasks};
use pypto_formats::discovery::{self, Dataset, DatasetKind, FileRole};
use pypto_formats::{deps, name_map, passes_dump, FormatError};
use pypto_replies::datasets::{self, WarningSources};
use serde_json::{json, Value};
use std::path::Path;
use std::process::ExitCode;

fn read(root: &Path, rel: &str) -> Result<Vec<u8>, FormatError> {
    std::fs::read(root.join(rel)).map_err(|e| FormatError::new(rel, format!("cannot read: {e}")))
}

fn entry_path(entries: &[(String, u64)], i: Option<usize>) -> Option<&str> {
    i.and_then(|i| entries.get(i)).map(|e| e.0.as_str())
}

fn runtime(root: &Path, entries: &[(String, u64)], ds: &Dataset, errors: &mut Vec<String>) -> Value {
    let mut out = serde_json::Map::new();
    let deps = entry_path(entries, ds.deps).and_then(|p| match read(root, p).and_then(|b| deps::parse(p, &b)) {
        Ok(d) => {
            out.insert(
                "deps".into(),
                json!({"file": p, "tasks": d.task_count(), "edges": d.edge_count(),
                           "tensors": d.tensor_count(), "warnings": d.warnings.iter().map(|w| w.message.clone()).collect::<Vec<_>>()}),
            );
            Some(d)
        }
        Err(e) => {
            errors.push(e.to_string());
            None
        }
    });
    let names = entry_path(entries, ds.name_map).and_then(|p| match read(root, p).and_then(|b| name_map::parse(p, &b)) {
        Ok(m) => {
            out.insert("name_map".into(), json!({"file": p, "entries": m.entries.len(), "orchestrator_name": m.orchestrator_name}));
            Some(m)
        }
        Err(e) => {
            errors.push(e.to_string());
            None
        }
    });
    let mut parsed_records = None;
    let mut records_warnings = Vec::new();
    if let Some(p) = entry_path(entries, ds.records) {
        match read(root, p).and_then(|b| pypto_formats::records::parse(p, &b)) {
            Ok(r) => {
                let joined = tasks::join(&r);
                let facts = summary::records_summary(&r, &joined);
                let fids = tasks::func_ids(&joined, deps.as_ref());
                let resolved = fids.iter().filter(|&&f| f >= 0).count();
                let named_rows = fids.iter().filter(|&&f| names.as_ref().is_some_and(|map| map.name(f).is_some())).count();
                records_warnings.clone_from(&facts.warnings);
                let mut v = serde_json::to_value(&facts).unwrap_or(Value::Null);
                if let Value::Object(m) = &mut v {
                    m.insert("file".into(), json!(p));
                    m.insert("clock_hz".into(), json!(facts.clock_freq_hz));
                    m.insert("cores".into(), json!(facts.num_cores));
                    m.insert("tasks".into(), json!(facts.task_count));
                    m.insert("resolved_func_ids".into(), json!(resolved));
                    m.insert("named_tasks".into(), json!(named_rows));
                }
                out.insert("records".into(), v);
                parsed_records = Some((r, joined, fids));
            }
            Err(e) => errors.push(e.to_string()),
        }
    }
    let inputs = analyses::RuntimeInputs {
        records: parsed_records.as_ref().map(|(r, _, _)| r),
        joined: parsed_records.as_ref().map(|(_, j, _)| j),
        func_ids: parsed_records.as_ref().map_or(&[], |(_, _, f)| f.as_slice()),
        deps: deps.as_ref(),
        names: names.as_ref(),
    };
    let host_warnings = host_phases(root, entries, ds, parsed_records.as_ref().map(|(_, j, _)| j), &mut out, errors);
    let (analysis, text, mut analysis_warnings) = analyses::run(&inputs);
    out.extend(analysis);
    analysis_warnings.extend(cpm_warnings(root, entries, ds, errors));
    let warnings = datasets::runtime_warnings(&WarningSources {
        deps: deps.as_ref().zip(entry_path(entries, ds.deps)).map(|(d, p)| (p, d.warnings.as_slice())),
        name_map: names.as_ref().zip(entry_path(entries, ds.name_map)).map(|(m, p)| (p, m.warnings.as_slice())),
        records: entry_path(entries, ds.records).filter(|_| parsed_records.is_some()).map(|p| (p, records_warnings.as_slice())),
        host_phases: host_warnings.as_ref().map(|(p, w)| (p.as_str(), w.as_slice())),
        analyses: &analysis_warnings,
    });
    out.insert("warning_kinds".into(), json!(warnings.iter().map(|w| w.kind.key()).collect::<Vec<_>>()));
    // Each warning whole: kind, file, position, message and the arguments the page words it with.
    out.insert("warning_details".into(), json!(warnings));
    let warnings: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    out.insert("analysis_text".into(), json!(text));
    out.insert("warnings".into(), json!(warnings));
    Value::Object(out)
}

/// The dataset's `host_phase_records.jsonl`, placed on the records' time base as the page
/// places it (read only when the records were: it is drawn on their timeline): `host_phases`
/// in `out` (passes, records, lanes, per-phase statistics) and the file's warnings.
fn host_phases(
    root: &Path,
    entries: &[(String, u64)],
    ds: &Dataset,
    joined: Option<&tasks::JoinedTasks>,
    out: &mut serde_json::Map<String, Value>,
    errors: &mut Vec<String>,
) -> Option<(String, Vec<pypto_formats::Warning>)> {
    let tb = joined?.timebase.as_ref()?;
    let p = ds.files.iter().find(|f| f.role == FileRole::HostPhaseRecords).and_then(|f| entry_path(entries, Some(f.entry_index)))?;
    let h = match read(root, p).and_then(|b| pypto_formats::host_phase_records::parse(p, &b)) {
        Ok(h) => h,
        Err(e) => {
            errors.push(e.to_string());
            return None;
        }
    };
    let (placed, placing) = pypto_analysis::host_phases::place(p, &h, tb);
    out.insert(
        "host_phases".into(),
        json!({"file": p, "passes": h.pass_count(), "records": h.record_count(), "placed": placed.len(),
               "lanes": placed.lanes.iter().map(|l| placed.lane_label(l)).collect::<Vec<_>>(),
               "phases": placed.phase_stats()}),
    );
    let mut warnings = h.warnings;
    warnings.extend(placing);
    Some((p.to_owned(), warnings))
}

/// The warnings of the dataset's first `CPM_static*` and first `CPM_observed*` file (the ones
/// the page reads); a file that cannot be read is an error.
fn cpm_warnings(root: &Path, entries: &[(String, u64)], ds: &Dataset, errors: &mut Vec<String>) -> Vec<pypto_formats::Warning> {
    let mut out = Vec::new();
    for role in [FileRole::CpmStatic, FileRole::CpmObserved] {
        let Some(p) = ds.files.iter().find(|f| f.role == role).and_then(|f| entry_path(entries, Some(f.entry_index))) else {
            continue;
        };
        match read(root, p).and_then(|b| pypto_formats::cpm::read_path(p, &b)) {
            Ok(path) => out.extend(path.warnings),
            Err(e) => errors.push(e.to_string()),
        }
    }
    out
}

/// A serving STRACE swimlane: its statistics (per `WorkerProcess`, per span name, per
/// `device N` lane).
fn serving_strace(root: &Path, entries: &[(String, u64)], ds: &Dataset, errors: &mut Vec<String>) -> Value {
    let Some(p) = ds.files.first().and_then(|f| entry_path(entries, Some(f.entry_index))) else {
        return Value::Null;
    };
    match read(root, p).and_then(|b| pypto_formats::strace::parse(p, &b)) {
        Ok(trace) => {
            let stats = pypto_analysis::strace_stats::compute(&trace);
            let mut text = format!(
                "serving STRACE: {:.3} us total, {} spans, {} instants, {} worker process(es), {} device lane(s)\n",
                stats.total_duration_us,
                stats.span_count,
                stats.instant_count,
                stats.worker_processes.len(),
                stats.device_lanes.len()
            );
            for named in &stats.worker_span_names {
                let d = &named.stats;
                let _ = writeln!(
                    text,
                    "  {:<40} count {:>6}  avg {:>12.3} us  max {:>12.3} us  min {:>12.3} us",
                    named.name, d.count, d.avg_us, d.max_us, d.min_us
                );
            }
            let found = pypto_analysis::trace_timeline::build(&trace).warnings;
            let kinds: Vec<&str> = found.iter().map(|w| w.kind.key()).collect();
            let details: Vec<pypto_formats::Warning> = found.iter().map(|w| w.clone().in_file(p)).collect();
            let warnings: Vec<String> = details.iter().map(ToString::to_string).collect();
            json!({"file": p, "strace": stats, "analysis_text": text, "warnings": warnings, "warning_kinds": kinds, "warning_details": details})
        }
        Err(e) => {
            errors.push(e.to_string());
            json!({"file": p})
        }
    }
}

/// A pass dump: its listing's validation and what is wrong with its snapshots
/// (`snapshot_problems`: file, line, column, message; `snapshot_problem_details`: the same with
/// each problem's kind and arguments, as the page gets them), from the pass list the page builds
/// (`pass_trace::pass_list`, which checks every snapshot it reads).
fn pass_dump(root: &Path, entries: &[(String, u64)], ds: &Dataset, errors: &mut Vec<String>) -> Value {
    let paths: Vec<&str> = ds.files.iter().filter_map(|f| entries.get(f.entry_index)).map(|e| e.0.as_str()).collect();
    let names: Vec<&str> = paths.iter().map(|p| p.rsplit('/').next().unwrap_or("")).collect();
    let l = passes_dump::validate(&names);
    let list = pass_trace::pass_list(&l, &names, |name| {
        let rel = names.iter().position(|n| *n == name).and_then(|i| paths.get(i)).ok_or("not in the dump")?;
        let bytes = read(root, rel).map_err(|e| e.message)?;
        Ok::<_, String>(pass_trace::Decoded::from_bytes(name, &bytes))
    });
    errors.extend(list.unreadable.iter().map(|(f, r)| format!("{f}: {r}")));
    // The rows the page shows (`PassRow::problems`): file, position and English message, and
    // each whole (with the kind and the arguments the page words it with).
    let details: Vec<_> = list.snapshot_problems().map(pypto_replies::pass_trace::snapshot_problem).collect();
    let snapshot_problems: Vec<Value> =
        details.iter().map(|p| json!({"file": p.file, "line": p.line, "column": p.column, "message": p.message})).collect();
    json!({"snapshots": l.snapshots.len(), "has_frontend": l.has_frontend, "problems": l.problems,
           "memory_snapshot": l.memory_snapshot().map(|s| s.file_name.clone()),
           "snapshot_problems": snapshot_problems, "snapshot_problem_details": details})
}

fn kind_name(k: DatasetKind) -> &'static str {
    match k {
        DatasetKind::Runtime => "runtime",
        DatasetKind::PassDump => "pass_dump",
        DatasetKind::ServingStrace => "serving_strace",
    }
}

fn print_text(ds: &Dataset, facts: &Value, errors: &[String]) {
    let path = if ds.path.is_empty() { "." } else { ds.path.as_str() };
    println!("[{}] {path}", kind_name(ds.kind));
    if let Some(g) = &ds.group {
        println!("  group: {}", if g.is_empty() { "." } else { g });
    }
    println!("  views: {}", ds.views.iter().map(|v| v.title()).collect::<Vec<_>>().join(", "));
    if let Some(r) = facts.get("records") {
        println!(
            "  records: {} level {} ({}), clock {} Hz, {} cores, {} tasks ({} AICore rows)",
            r["file"].as_str().unwrap_or(""),
            r["level"],
            r["format"].as_str().unwrap_or(""),
            r["clock_freq_hz"],
            r["num_cores"],
            r["task_count"],
            r["aicore_rows"]
        );
        println!(
            "  time range: {:.3} us - {:.3} us (span: {:.3} us)",
            r["first_start_us"].as_f64().unwrap_or(0.0),
            r["last_end_us"].as_f64().unwrap_or(0.0),
            r["span_us"].as_f64().unwrap_or(0.0)
        );
        println!("  scheduler threads: {}, orchestrator threads: {}", r["scheduler_threads"], r["orchestrator_threads"]);
    }
    for w in facts.get("warnings").and_then(Value::as_array).into_iter().flatten() {
        println!("  warning: {}", w.as_str().unwrap_or(""));
    }
    if let Some(d) = facts.get("deps") {
        println!("  deps: {} tasks, {} edges, {} tensors ({})", d["tasks"], d["edges"], d["tensors"], d["file"].as_str().unwrap_or(""));
    }
    if let Some(m) = facts.get("name_map") {
        println!("  name map: {} entries ({})", m["entries"], m["file"].as_str().unwrap_or(""));
    }
    if let Some(h) = facts.get("host_phases") {
        let lanes = h["lanes"].as_array().map_or(0, Vec::len);
        println!(
            "  host prepare: {} pass(es), {} record(s), {} drawn in {lanes} lane(s) ({})",
            h["passes"],
            h["records"],
            h["placed"],
            h["file"].as_str().unwrap_or("")
        );
        for s in h["phases"].as_array().into_iter().flatten() {
            println!(
                "    {:<20} count {:>4}  total {:>10.3} us  avg {:>10.3} us  max {:>10.3} us",
                s["phase"].as_str().unwrap_or(""),
                s["count"],
                s["total_us"].as_f64().unwrap_or(0.0),
                s["avg_us"].as_f64().unwrap_or(0.0),
                s["max_us"].as_f64().unwrap_or(0.0)
            );
        }
    }
    if ds.kind == DatasetKind::PassDump {
        println!("  pass snapshots: {}", facts["snapshots"]);
        for p in facts["problems"].as_array().into_iter().flatten() {
            println!("  problem: {}", p.as_str().unwrap_or(""));
        }
        for p in facts["snapshot_problems"].as_array().into_iter().flatten() {
            let (file, message) = (p["file"].as_str().unwrap_or(""), p["message"].as_str().unwrap_or(""));
            println!("  snapshot problem: {file}:{}:{}: {message}", p["line"], p["column"]);
        }
    }
    if let Some(text) = facts.get("analysis_text").and_then(Value::as_str) {
        for line in text.lines() {
            println!("  {line}");
        }
    }
    for n in &ds.notes {
        println!("  note: {n}");
    }
    for m in &ds.missing {
        println!("  missing: {m}");
    }
    for e in errors {
        println!("  error: {e}");
    }
}

/// The facts of one dataset as `report --json` prints them, and its errors.
fn facts_of(root: &Path, entries: &[(String, u64)], ds: &Dataset) -> (Value, Vec<String>) {
    let mut errors = Vec::new();
    let facts = match ds.kind {
        DatasetKind::Runtime => runtime(root, entries, ds, &mut errors),
        DatasetKind::PassDump => pass_dump(root, entries, ds, &mut errors),
        DatasetKind::ServingStrace => serving_strace(root, entries, ds, &mut errors),
    };
    (facts, errors)
}

/// One dataset's JSON object: discovery's fields, then the facts at the dataset level
/// (`records`, `functions`, `edges`, `critical_path`, `warnings`, ... — the JSON contract of
/// issue 3), its errors and files.
fn dataset_json(entries: &[(String, u64)], ds: &Dataset, facts: Value, errors: &[String]) -> Value {
    let mut v = serde_json::to_value(ds).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        if let Value::Object(facts) = facts {
            m.extend(facts.into_iter().filter(|(k, _)| k != "analysis_text"));
        }
        m.insert("errors".into(), json!(errors));
        let files: Vec<Value> =
            ds.files.iter().map(|f| json!({"role": f.role, "path": entry_path(entries, Some(f.entry_index))})).collect();
        m.insert("files".into(), json!(files));
    }
    v
}

/// `report --json`'s document for the folder `root` (`label` is its `root` field).
pub fn report_json(root: &Path, label: &str) -> Result<Value, String> {
    let entries = crate::walk::walk(root).map_err(|e| format!("cannot read {label}: {e}"))?;
    let disc = discovery::discover(&entries);
    let all: Vec<Value> = disc
        .datasets
        .iter()
        .map(|ds| {
            let (facts, errors) = facts_of(root, &entries, ds);
            dataset_json(&entries, ds, facts, &errors)
        })
        .collect();
    Ok(json!({"root": label, "datasets": all, "ignored_files": disc.ignored_files}))
}

/// Runs the report over `dir`.
pub fn run(dir: &str, as_json: bool) -> ExitCode {
    let root = Path::new(dir);
    if !root.is_dir() {
        eprintln!("pypto-viewer: {dir} is not a directory");
        return ExitCode::from(2);
    }
    if as_json {
        return match report_json(root, dir) {
            Ok(doc) => {
                println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("pypto-viewer: {e}");
                ExitCode::from(1)
            }
        };
    }
    let entries = match crate::walk::walk(root) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("pypto-viewer: cannot read {dir}: {e}");
            return ExitCode::from(1);
        }
    };
    let disc = discovery::discover(&entries);
    for ds in &disc.datasets {
        let (facts, errors) = facts_of(root, &entries, ds);
        print_text(ds, &facts, &errors);
    }
    println!("{} dataset(s), {} file(s) ignored", disc.datasets.len(), disc.ignored_files);
    ExitCode::SUCCESS
}
