//! `pypto-viewer compare <A> <B> [--json]`: two captures side by side, A the baseline, B this
//! run — for a kernel developer asking "what got slower, and where".
//!
//! A and B are folders. What they hold decides the comparison (`run`'s one `match`):
//! - one runtime dataset with swimlane records each (or the dataset's directory itself): the
//!   runtime comparison of `pypto_replies::compare`, the same [`Comparison`] the page shows —
//!   each side's per-function numbers are exactly what `pypto-viewer report` prints for that
//!   capture;
//! - pass dumps on both sides: the pass-dump comparison, another module's (`compare_passes`);
//!   until it is in this build, said so (exit 2);
//! - several runtime datasets in a folder (a multi-rank group): say so and exit 2 — pass the
//!   rank's directory.
//!
//! Text: the summary (A, B, Δ, Δ%), the function table by |Δ total exec|, the task matching
//! and the largest per-task changes. `--json` (the contract): `summary.<key>: [a, b]` for every
//! summary row; `functions: [{name, count: [a, b], total_exec_us: [a, b], avg_exec_us, …}]`
//! sorted by |Δ total exec| descending, `null` where a side lacks the function;
//! `tasks: {matched, only_a, only_b, matched_by_id, matched_by_order, per_function, top}`
//! with task ids as decimal strings; `notes`.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use pypto_protocol::compare::{Comparison, FunctionDelta, SummaryRow};
use pypto_protocol::TaskId;
use pypto_replies::compare::{self, Run};
use serde_json::{json, Map, Value};

use crate::runtime_load::{self, Found, Loaded};

/// Usage line of `compare`.
pub const USAGE: &str = "  pypto-viewer compare <A> <B> [--json]   (A = baseline, B = this run)";

/// Rows of the largest per-task changes in the text output (the JSON has all of
/// [`compare::TOP_TASKS`]).
const TEXT_TOP_TASKS: usize = 20;

/// `compare` entry point (arguments after the subcommand name).
pub fn run(args: &[&str]) -> ExitCode {
    let json_out = args.contains(&"--json");
    let dirs: Vec<&str> = args.iter().copied().filter(|a| *a != "--json").collect();
    let [a, b] = dirs.as_slice() else {
        eprintln!("usage:\n{USAGE}");
        return ExitCode::from(2);
    };
    for d in [a, b] {
        if !Path::new(d).is_dir() {
            eprintln!("pypto-viewer compare: {d} is not a directory");
            return ExitCode::from(2);
        }
    }
    match (runtime_load::find(Path::new(a)), runtime_load::find(Path::new(b))) {
        (Found::Runtime { entries: ea, dataset: da }, Found::Runtime { entries: eb, dataset: db }) => {
            let loaded =
                runtime_load::load(Path::new(a), &ea, &da).and_then(|x| runtime_load::load(Path::new(b), &eb, &db).map(|y| (x, y)));
            match loaded {
                Ok((x, y)) => runtime(&Pair { dirs: [a, b], loaded: [&x, &y] }, json_out),
                Err(e) => {
                    eprintln!("pypto-viewer compare: {e}");
                    ExitCode::from(1)
                }
            }
        }
        (Found::PassDumps, Found::PassDumps) => crate::compare_passes::run(Path::new(a), Path::new(b), json_out),
        (x, y) => {
            for (dir, found) in [(a, x), (b, y)] {
                match found {
                    Found::Runtime { .. } => {}
                    Found::PassDumps => eprintln!("pypto-viewer compare: {dir} holds pass dumps, the other side a runtime capture"),
                    Found::Several(paths) => eprintln!(
                        "pypto-viewer compare: {dir} holds {} runtime datasets ({}): pass one dataset's directory",
                        paths.len(),
                        paths.join(", ")
                    ),
                    Found::Nothing(why) => eprintln!("pypto-viewer compare: {why}"),
                }
            }
            ExitCode::from(2)
        }
    }
}

/// The two sides: the folders as given and their loaded datasets (A, B).
pub struct Pair<'a> {
    pub dirs: [&'a str; 2],
    pub loaded: [&'a Loaded; 2],
}

impl Pair<'_> {
    /// Side `s`'s dataset as a path (its folder, and the dataset's directory in it).
    fn label(&self, s: usize) -> String {
        let (dir, l) = (self.dirs.get(s).copied().unwrap_or(""), self.loaded.get(s));
        match l.map(|l| l.path.as_str()) {
            None | Some("") => dir.to_owned(),
            Some(p) => format!("{}/{p}", dir.trim_end_matches('/')),
        }
    }
}

/// The runtime comparison of the pair, printed.
fn runtime(pair: &Pair<'_>, json_out: bool) -> ExitCode {
    let [x, y] = pair.loaded;
    let compared = compare::compare(0, 1, Run { model: &x.model, paths: Ok(&x.paths) }, Run { model: &y.model, paths: Ok(&y.paths) });
    if json_out {
        let doc = to_json(pair, &compared.comparison);
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        print!("{}", text(pair, &compared.comparison));
    }
    ExitCode::SUCCESS
}

/// The JSON document (see the module doc).
pub fn to_json(pair: &Pair<'_>, c: &Comparison) -> Value {
    let [x, y] = pair.loaded;
    let summary: Map<String, Value> = c.summary.iter().map(|r| (r.key.clone(), json!([r.a, r.b]))).collect();
    let functions: Vec<Value> = c
        .functions
        .iter()
        .map(|f| {
            let mut row = serde_json::to_value(f).unwrap_or(Value::Null);
            if let Value::Object(m) = &mut row {
                m.insert("total_exec_delta_us".into(), json!(compare::total_delta(f)));
            }
            row
        })
        .collect();
    json!({
        "a": {"dir": pair.dirs[0], "dataset": pair.label(0), "files": x.files},
        "b": {"dir": pair.dirs[1], "dataset": pair.label(1), "files": y.files},
        "summary": summary,
        "summary_rows": c.summary,
        "function_key": c.function_key,
        "functions": functions,
        "tasks": c.tasks,
        // The notes in English, as the text report prints them.
        "notes": c.notes.iter().map(ToString::to_string).collect::<Vec<_>>(),
    })
}

fn num(v: Option<f64>, unit: &str) -> String {
    match (v, unit) {
        (None, _) => "-".to_owned(),
        (Some(x), "count") => format!("{x:.0}"),
        (Some(x), "%") => format!("{x:.2}%"),
        (Some(x), _) => format!("{x:.3}"),
    }
}

fn delta(a: Option<f64>, b: Option<f64>, unit: &str) -> (String, String) {
    match (a, b) {
        (Some(a), Some(b)) => {
            // Float noise below the printed precision is no change (not "-0.000").
            let d = if (b - a).abs() < 5e-4 { 0.0 } else { b - a };
            let d_text = match unit {
                "count" => format!("{d:+.0}"),
                "%" => format!("{d:+.2} pt"),
                _ => format!("{d:+.3}"),
            };
            let pct = if a != 0.0 && unit != "%" { format!("{:+.1}%", d / a * 100.0) } else { String::new() };
            (d_text, pct)
        }
        _ => ("-".to_owned(), String::new()),
    }
}

fn summary_line(o: &mut String, r: &SummaryRow) {
    let (d, pct) = delta(r.a, r.b, &r.unit);
    let unit = if r.unit == "us" { " us" } else { "" };
    let label = format!("{}{unit}", r.label);
    let _ = writeln!(o, "  {label:<52} {:>14} {:>14} {d:>14} {pct:>9}", num(r.a, &r.unit), num(r.b, &r.unit));
}

fn opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |x| format!("{x:.2}"))
}

fn function_line(o: &mut String, f: &FunctionDelta) {
    let [ta, tb] = f.total_exec_us;
    let (d, pct) = delta(ta.or(Some(0.0)), tb.or(Some(0.0)), "us");
    let pct = if ta.is_some() && tb.is_some() { pct } else { String::new() };
    let count = |c: Option<u64>| c.map_or_else(|| "-".to_owned(), |c| c.to_string());
    let name: String = f.name.chars().take(30).collect();
    let _ = writeln!(
        o,
        "  {name:<30} {:>6} {:>6} {:>13} {:>13} {:>13} {pct:>8}  {:>10} {:>10}  {:>10} {:>10}  {:>10} {:>10}",
        count(f.count[0]),
        count(f.count[1]),
        opt(ta),
        opt(tb),
        d,
        opt(f.avg_exec_us[0]),
        opt(f.avg_exec_us[1]),
        opt(f.max_exec_us[0]),
        opt(f.max_exec_us[1]),
        opt(f.avg_latency_us[0]),
        opt(f.avg_latency_us[1]),
    );
}

/// The text report (see the module doc).
pub fn text(pair: &Pair<'_>, c: &Comparison) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "A (baseline): {}", pair.label(0));
    let _ = writeln!(o, "B (this run): {}", pair.label(1));
    let _ = writeln!(o);
    let _ = writeln!(o, "Summary{:<47} {:>14} {:>14} {:>14} {:>9}", "", "A", "B", "Δ (B − A)", "Δ%");
    // Task kinds neither run has are left out of the text.
    for r in c.summary.iter().filter(|r| !(r.key.starts_with("tasks_") && r.a == Some(0.0) && r.b == Some(0.0))) {
        summary_line(&mut o, r);
    }
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "Functions by |Δ total exec| (paired by {}; each side = that capture's \"Task Statistics by Function\", µs)",
        if c.function_key == "name" { "name" } else { "func id / derived name" }
    );
    let _ = writeln!(
        o,
        "  {:<30} {:>6} {:>6} {:>13} {:>13} {:>13} {:>8}  {:>10} {:>10}  {:>10} {:>10}  {:>10} {:>10}",
        "Function",
        "Cnt A",
        "Cnt B",
        "Total exec A",
        "Total exec B",
        "Δ total",
        "Δ%",
        "Avg A",
        "Avg B",
        "Max A",
        "Max B",
        "Avg lat A",
        "Avg lat B"
    );
    for f in &c.functions {
        function_line(&mut o, f);
    }
    let t = &c.tasks;
    let _ = writeln!(o);
    let _ =
        writeln!(o, "Tasks (a task = one task id, all its AICore rows; exec = last end − first start): A {}, B {}", t.tasks[0], t.tasks[1]);
    let _ = writeln!(
        o,
        "  matched {} (by function + id {}, by k-th execution {}), only in A {}, only in B {}",
        t.matched, t.matched_by_id, t.matched_by_order, t.only_a, t.only_b
    );
    let _ = writeln!(o, "  {:<30} {:>8} {:>7} {:>7} {:>13} {:>13}", "Function", "matched", "only A", "only B", "mean Δ us", "median Δ us");
    for f in &t.per_function {
        let name: String = f.function.chars().take(30).collect();
        let signed = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |x| format!("{x:+.3}"));
        let _ = writeln!(
            o,
            "  {name:<30} {:>8} {:>7} {:>7} {:>13} {:>13}",
            f.matched,
            f.only_a,
            f.only_b,
            signed(f.mean_delta_us),
            signed(f.median_delta_us)
        );
    }
    if !t.top.is_empty() {
        let shown = t.top.len().min(TEXT_TOP_TASKS);
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "Largest per-task changes ({shown} of {} matched, by |Δ exec|; start = first kernel start on each run's axis)",
            t.matched
        );
        let _ = writeln!(
            o,
            "  {:<30} {:>10} {:>10} {:>12} {:>12} {:>12} {:>6} {:>13} {:>13}",
            "Function", "A task", "B task", "A exec us", "B exec us", "Δ us", "rule", "A start us", "B start us"
        );
        for d in t.top.iter().take(TEXT_TOP_TASKS) {
            let name: String = d.function.chars().take(30).collect();
            let _ = writeln!(
                o,
                "  {name:<30} {:>10} {:>10} {:>12.3} {:>12.3} {:>+12.3} {:>6} {:>13.3} {:>13.3}",
                TaskId(d.a_task.0).to_string(),
                TaskId(d.b_task.0).to_string(),
                d.a_exec_us,
                d.b_exec_us,
                d.delta_us,
                d.rule,
                d.a_start_us,
                d.b_start_us
            );
        }
    }
    if !c.notes.is_empty() {
        let _ = writeln!(o);
        let _ = writeln!(o, "Notes");
        for n in &c.notes {
            let _ = writeln!(o, "  - {n}");
        }
    }
    o
}
