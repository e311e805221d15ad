//! `pypto-viewer compare <A> <B> [--json]` on pass dumps (`compare.rs` routes them here): two compiles of one program side by side,
//! for a user (or a script) asking what changed between a baseline compile (A) and this one
//! (B). A and B are each a `passes_dump*` directory or a directory holding exactly one pass
//! dump (found by discovery, as the page finds it).
//!
//! Prints the aligned pass lists (A's and B's +/− lines and no-op per pass, whether the pass's
//! effect differs, whether the snapshots differ and by how many lines), the first pass whose
//! output differs, both dumps' problems, and the memory high-water marks per function × space
//! (A, B, Δ, Δ%) of each dump's `*after_AllocateMemoryAddr.py` with its case's chip. With
//! `--json`: `{baseline, current, baseline_dump, current_dump, baseline_passes, current_passes,
//! passes: [row…], frontends_differ,
//! frontend_cross_added, frontend_cross_removed, first_output_difference,
//! first_effect_difference, output_differences, effect_differences, only_baseline,
//! only_current, problems: {baseline, current}, memory: [row… with delta_percent],
//! memory_info: {a_file, b_file, chip, a_chip, b_chip, a_chip_source, b_chip_source, errors,
//! notes, snapshot_problems}}` — the rows are the page's (`pypto_replies::compare_passes`).
//! Exit 0 when compared (differences are not failures), 2 when A or B is not a directory, 1
//! when it holds no pass dump or several.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use pypto_formats::discovery::{self, DatasetKind};
use pypto_protocol::compare_passes::{MemoryComparison, PassComparison, PassSideRow};
use pypto_replies::compare_passes::{comparison, memory_comparison, Dump};
use pypto_replies::memory_map::{chip_files, choose_chip, map_dump, ChipChoice};
use serde_json::{json, Value};

/// The pass-dump directory `path` names: itself when it is named `passes_dump*`, else the one
/// pass dump discovery finds under it.
fn locate(path: &Path) -> Result<PathBuf, String> {
    let own = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if own.starts_with("passes_dump") {
        return Ok(path.to_path_buf());
    }
    let entries = crate::walk::walk(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let dumps: Vec<String> =
        discovery::discover(&entries).datasets.into_iter().filter(|d| d.kind == DatasetKind::PassDump).map(|d| d.path).collect();
    match dumps.as_slice() {
        [one] => Ok(if one.is_empty() { path.to_path_buf() } else { path.join(one) }),
        [] => Err(format!("{} holds no pass dump (a passes_dump* directory)", path.display())),
        many => Err(format!("{} holds {} pass dumps ({}): name one", path.display(), many.len(), many.join(", "))),
    }
}

/// The files directly inside `dir`, sorted.
fn file_names(dir: &Path) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))? {
        let e = e.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        if e.path().is_file() {
            out.push(e.file_name().to_string_lossy().into_owned());
        }
    }
    out.sort();
    Ok(out)
}

/// The chip of the dump at `dir` by the Memory Reuse view's rule: its case's (the parent's)
/// `ptoas/*.pto`, `kernels/*/*.pto`, `compiled_meta.json`, else assumed.
fn chip_of(dir: &Path) -> Result<ChipChoice, String> {
    let case = dir.parent().unwrap_or(dir);
    let mut paths: Vec<String> = Vec::new();
    let mut add = |p: PathBuf| paths.push(p.to_string_lossy().into_owned());
    add(case.join("compiled_meta.json"));
    for sub in [case.join("ptoas"), case.join("kernels")] {
        for e in std::fs::read_dir(&sub).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                std::fs::read_dir(&p).into_iter().flatten().flatten().for_each(|f| add(f.path()));
            } else {
                add(p);
            }
        }
    }
    paths.retain(|p| Path::new(p).is_file());
    let found = chip_files(&dir.to_string_lossy(), paths.iter().map(String::as_str));
    let pto: Vec<&str> = found.pto.iter().filter_map(|&i| paths.get(i)).map(String::as_str).collect();
    let meta = found.compiled_meta.and_then(|i| paths.get(i)).map(String::as_str);
    choose_chip(None, &pto, meta, |p| std::fs::read_to_string(p).ok())
}

/// Reads a file of `dir` by name.
fn reader(dir: &Path) -> impl Fn(&str) -> Result<Vec<u8>, String> + '_ {
    move |n: &str| std::fs::read(dir.join(n)).map_err(|e| e.to_string())
}

/// Runs the comparison of the dumps at `a` (baseline) and `b` (this run).
pub fn run(a: &Path, b: &Path, as_json: bool) -> ExitCode {
    for p in [a, b] {
        if !p.is_dir() {
            eprintln!("pypto-viewer: {} is not a directory", p.display());
            return ExitCode::from(2);
        }
    }
    let (dir_a, dir_b) = match (locate(a), locate(b)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("pypto-viewer: {e}");
            return ExitCode::from(1);
        }
    };
    let (names_a, names_b) = match (file_names(&dir_a), file_names(&dir_b)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("pypto-viewer: {e}");
            return ExitCode::from(1);
        }
    };
    let (dump_a, dump_b) = (Dump::read(names_a.clone(), reader(&dir_a)), Dump::read(names_b.clone(), reader(&dir_b)));
    let passes = comparison(&dump_a.side(0), &dump_b.side(1));
    let memory = match (chip_of(&dir_a), chip_of(&dir_b)) {
        (Ok(ca), Ok(cb)) => {
            let (ma, mb) = (map_dump(0, &names_a, None, &ca, reader(&dir_a)), map_dump(1, &names_b, None, &cb, reader(&dir_b)));
            memory_comparison(0, 1, &ma, &mb, None)
        }
        (Err(e), _) | (_, Err(e)) => MemoryComparison { errors: vec![e], ..MemoryComparison::default() },
    };
    let labels = [a, b, &dir_a, &dir_b].map(|p| p.display().to_string());
    if as_json {
        println!("{}", serde_json::to_string_pretty(&to_json(&labels, &passes, &memory, &dump_a, &dump_b)).unwrap_or_default());
    } else {
        print!("{}", text(&labels, &passes, &memory, &dump_a, &dump_b));
    }
    ExitCode::SUCCESS
}

/// `(B − A) / A` in percent, when A is a positive number.
fn delta_percent(a: Option<i64>, b: Option<i64>) -> Option<f64> {
    let a = a.filter(|&a| a > 0)?;
    Some((b.unwrap_or(0) - a) as f64 * 100.0 / a as f64)
}

fn to_json(labels: &[String; 4], passes: &PassComparison, memory: &MemoryComparison, dump_a: &Dump, dump_b: &Dump) -> Value {
    let mut out = json!({"baseline": labels[0], "current": labels[1], "baseline_dump": labels[2], "current_dump": labels[3],
                         "baseline_passes": dump_a.list.passes.len(), "current_passes": dump_b.list.passes.len()});
    let mut pv = serde_json::to_value(passes).unwrap_or(Value::Null);
    let mut mv = serde_json::to_value(memory).unwrap_or(Value::Null);
    if let (Value::Object(out), Value::Object(pass_obj), Value::Object(mem_obj)) = (&mut out, &mut pv, &mut mv) {
        out.insert("passes".into(), pass_obj.remove("rows").unwrap_or(Value::Null));
        let problems = json!({"baseline": pass_obj.remove("baseline"), "current": pass_obj.remove("current")});
        pass_obj.remove("baseline_id");
        pass_obj.remove("current_id");
        out.extend(std::mem::take(pass_obj));
        out.insert("problems".into(), problems);
        let rows: Vec<Value> = memory
            .rows
            .iter()
            .map(|r| {
                let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
                if let Value::Object(v) = &mut v {
                    v.insert("delta_percent".into(), json!(delta_percent(r.a_hwm_bytes, r.b_hwm_bytes)));
                }
                v
            })
            .collect();
        out.insert("memory".into(), Value::Array(rows));
        mem_obj.remove("rows");
        mem_obj.remove("baseline_id");
        mem_obj.remove("current_id");
        // The notes and what named each chip in English, as the text report prints them.
        mem_obj.insert("notes".into(), json!(memory.notes.iter().map(ToString::to_string).collect::<Vec<_>>()));
        mem_obj.insert("a_chip_source".into(), json!(memory.a_chip_source.to_string()));
        mem_obj.insert("b_chip_source".into(), json!(memory.b_chip_source.to_string()));
        out.insert("memory_info".into(), Value::Object(std::mem::take(mem_obj)));
    }
    out
}

fn pass_cell(s: Option<&PassSideRow>) -> (String, String) {
    match s {
        Some(s) => {
            (format!("{:02} {}", s.index, s.name), if s.no_op { "no-op".to_owned() } else { format!("+{} −{}", s.added, s.removed) })
        }
        None => ("—".to_owned(), String::new()),
    }
}

fn bytes(v: Option<i64>) -> String {
    v.map_or_else(|| "—".to_owned(), |v| v.to_string())
}

/// The text report.
fn text(labels: &[String; 4], passes: &PassComparison, memory: &MemoryComparison, a: &Dump, b: &Dump) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "A (baseline): {} — {} passes", labels[2], a.list.passes.len());
    let _ = writeln!(out, "B (this run): {} — {} passes", labels[3], b.list.passes.len());
    let fe = if passes.frontends_differ {
        format!("differ (+{} −{})", passes.frontend_cross_added, passes.frontend_cross_removed)
    } else {
        "same".to_owned()
    };
    let _ = writeln!(out, "00_frontend.py: {fe}\n");
    let w = passes.rows.iter().flat_map(|r| [&r.a, &r.b]).flatten().map(|s| s.name.len() + 3).max().unwrap_or(4).max(6);
    let _ = writeln!(out, "{:<w$}  {:>12}  {:<w$}  {:>12}  {:<8}  output", "A pass", "A +/−", "B pass", "B +/−", "effect");
    for r in &passes.rows {
        let (an, ac) = pass_cell(r.a.as_ref());
        let (bn, bc) = pass_cell(r.b.as_ref());
        let effect = if r.effect_differs { "DIFFERS" } else { "same" };
        let output = if r.snapshots_differ { format!("differs +{} −{}", r.cross_added, r.cross_removed) } else { "same".to_owned() };
        let _ = writeln!(out, "{an:<w$}  {ac:>12}  {bn:<w$}  {bc:>12}  {effect:<8}  {output}");
    }
    let _ = writeln!(
        out,
        "\n{} pass(es) differ in effect, {} in output; {} only in A, {} only in B",
        passes.effect_differences, passes.output_differences, passes.only_baseline, passes.only_current
    );
    let describe = |row: Option<u32>| {
        row.and_then(|k| passes.rows.get(k as usize)).map_or_else(
            || "none".to_owned(),
            |r| {
                let side = |s: Option<&PassSideRow>| s.map_or_else(|| "—".to_owned(), |s| format!("{:02} {}", s.index, s.name));
                format!("row {}: A {} / B {}", row.unwrap_or(0), side(r.a.as_ref()), side(r.b.as_ref()))
            },
        )
    };
    let _ = writeln!(out, "first pass whose output differs: {}", describe(passes.first_output_difference));
    let _ = writeln!(out, "first pass whose effect differs: {}", describe(passes.first_effect_difference));
    for (label, p) in [("A", &passes.baseline), ("B", &passes.current)] {
        for s in p.problems.iter().chain(&p.unreadable) {
            let _ = writeln!(out, "{label} problem: {s}");
        }
        for s in &p.snapshot_problems {
            let _ = writeln!(out, "{label} snapshot problem: {}:{}:{}: {}", s.file, s.line, s.column, s.message);
        }
    }
    let _ = writeln!(
        out,
        "\nmemory high-water marks (A: {}, B: {}; limits: {})",
        if memory.a_file.is_empty() { "—" } else { &memory.a_file },
        if memory.b_file.is_empty() { "—" } else { &memory.b_file },
        if memory.chip.is_empty() { "—" } else { &memory.chip }
    );
    let fw = memory.rows.iter().map(|r| r.function.len()).max().unwrap_or(8).max(8);
    let _ = writeln!(
        out,
        "{:<fw$}  {:<10}  {:>10}  {:>10}  {:>10}  {:>8}  {:>10}",
        "function", "space", "A bytes", "B bytes", "Δ bytes", "Δ%", "limit"
    );
    for r in &memory.rows {
        let pct = delta_percent(r.a_hwm_bytes, r.b_hwm_bytes).map_or_else(|| "—".to_owned(), |p| format!("{p:+.1}%"));
        let _ = writeln!(
            out,
            "{:<fw$}  {:<10}  {:>10}  {:>10}  {:>+10}  {:>8}  {:>10}",
            r.function,
            r.space,
            bytes(r.a_hwm_bytes),
            bytes(r.b_hwm_bytes),
            r.delta_bytes,
            pct,
            bytes(r.limit_bytes)
        );
    }
    for e in &memory.errors {
        let _ = writeln!(out, "memory error: {e}");
    }
    for n in &memory.notes {
        let _ = writeln!(out, "memory note: {n}");
    }
    out
}
