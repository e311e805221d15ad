//! Two runtime captures side by side (issue 19): A the baseline, B this run. For the page's
//! comparison (the worker's `ToWorker::Compare` / `ToWorker::TaskMatch`) and
//! `pypto-viewer compare`, which print the same [`Comparison`].
//!
//! Every number comes from the code that shows it for one capture, run on each side:
//!
//! - **Functions**: each side's rows are the reference converter's "Task Statistics by
//!   Function" of that capture — [`PanelTables::compute`], the call behind the panel's
//!   kernel statistics and `pypto-viewer report`'s `functions` — paired by the converter's
//!   function name (name map entry, else `func_<id>_<letters>`, which is the func id when a
//!   side has no name map: [`Comparison::function_key`] says which). A name that appears more
//!   than once on a side (two func ids, one name) pairs its k-th func id with the other
//!   side's k-th. Sorted by |Δ total exec| (a missing side counts 0), then name.
//! - **Summary**: the panel's overview (makespan = first kernel start → last kernel end, AICore
//!   time, utilisation), the converter's totals (total test time, exec / latency), the path
//!   tables' critical path lengths and observed-path stall by kind (when the side's
//!   [`PerfPathsData`] is given and has them), the task kinds' counts.
//! - **Tasks**: `pypto_analysis::task_matching` (a task = one task id, all its AICore rows;
//!   exec = last end − first start; matched by function and id, then by k-th execution of the
//!   function), with per function a histogram of the per-task Δ exec (B − A) and the
//!   [`TOP_TASKS`] pairs of largest |Δ|.

use std::collections::{BTreeMap, HashMap};

use pypto_analysis::function_stats::{self, FunctionRow};
use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::task_kinds::TaskKind;
use pypto_analysis::task_matching::{self, MatchIndex, MatchRule, TaskSpans};
use pypto_analysis::tasks::FuncIdOf;
use pypto_protocol::compare::{
    Better, Comparison, FunctionDelta, FunctionTaskDeltas, SummaryRow, TaskDelta, TaskMatch, TaskMatchRequest, TaskMatching,
};
use pypto_protocol::perf::PerfPathsData;
use pypto_protocol::TaskId;
use pypto_vocab::{RunsNote, Side};

use crate::perf_panel::PanelTables;

/// Matched pairs listed in [`TaskMatching::top`].
pub const TOP_TASKS: usize = 50;
/// Bins of each function's Δ exec histogram.
pub const HISTOGRAM_BINS: usize = 20;

/// One run: its resident model and its path tables, or why there are none.
#[derive(Clone, Copy)]
pub struct Run<'a> {
    pub model: &'a RuntimeModel,
    pub paths: Result<&'a PerfPathsData, &'a str>,
}

/// A comparison, and its task matching kept for [`task_match`] lookups.
pub struct Compared {
    pub comparison: Comparison,
    pub index: MatchIndex,
}

/// Compares run `b` (dataset `current_id`) with the baseline `a` (dataset `baseline_id`).
pub fn compare(baseline_id: u32, current_id: u32, a: Run<'_>, b: Run<'_>) -> Compared {
    let tables = [side_tables(a.model), side_tables(b.model)];
    let mut notes = Vec::new();
    side_notes(a, b, &mut notes);
    let summary = summary_rows([a, b], &tables);
    let (function_key, functions) = functions([a, b], &tables, &mut notes);
    let spans = [spans_of(a.model), spans_of(b.model)];
    let matching = task_matching::match_tasks(&spans[0], &spans[1]);
    let tasks = task_rows(&spans, &matching);
    let index = MatchIndex::new(&spans[0], &spans[1], matching);
    Compared { comparison: Comparison { baseline_id, current_id, summary, function_key, functions, tasks, notes }, index }
}

/// The task matching of runs `a` and `b` alone (what [`compare`] keeps as [`Compared::index`]),
/// for a `TaskMatch` asked before the pair was compared (a link straight to its swimlanes).
pub fn match_index(a: &RuntimeModel, b: &RuntimeModel) -> MatchIndex {
    let spans = [spans_of(a), spans_of(b)];
    let matching = task_matching::match_tasks(&spans[0], &spans[1]);
    MatchIndex::new(&spans[0], &spans[1], matching)
}

/// `TaskMatch`: the partner of the asked task in the other run.
pub fn task_match(index: &MatchIndex, request: &TaskMatchRequest) -> TaskMatch {
    let found = index.other(request.side == 1, request.task.0);
    TaskMatch {
        side: request.side,
        task: request.task,
        other: found.map(|(id, _)| TaskId(id)),
        rule: found.map(|(_, rule)| rule.as_str().to_owned()),
    }
}

fn side_tables(model: &RuntimeModel) -> PanelTables {
    PanelTables::compute(&model.tasks, &model.func_ids, model.names.as_ref(), 0)
}

fn spans_of(model: &RuntimeModel) -> TaskSpans {
    let names = model.names.as_ref();
    TaskSpans::from_rows(&model.tasks, &model.func_ids, |f| function_stats::converter_func_name(f, names))
}

const SIDES: [Side; 2] = Side::BOTH;

fn side_notes(a: Run<'_>, b: Run<'_>, notes: &mut Vec<RunsNote>) {
    let clock = |r: Run<'_>| r.model.tasks.timebase.as_ref().map_or(0, |t| t.clock_freq_hz);
    if clock(a) != clock(b) {
        notes.push(RunsNote::ClocksDiffer { a_hz: clock(a), b_hz: clock(b) });
    }
    if a.model.level != b.model.level {
        notes.push(RunsNote::LevelsDiffer { a: a.model.level, b: b.model.level });
    }
    for (side, run) in SIDES.into_iter().zip([a, b]) {
        let m = run.model;
        if m.tasks.is_empty() {
            notes.push(RunsNote::NoAicoreRows { side });
            continue;
        }
        let unresolved = (0..m.tasks.len()).filter(|&i| m.func_ids.func_id(i) < 0).count();
        if unresolved > 0 {
            notes.push(RunsNote::UnresolvedFuncIds { side, unresolved, rows: m.tasks.len() });
        }
        match run.paths {
            Err(why) => notes.push(RunsNote::NoCriticalPaths { side, why: why.to_owned() }),
            Ok(p) => {
                if let Some(e) = &p.critical_path_error {
                    notes.push(RunsNote::CriticalPathNotComputed { side, why: e.clone() });
                }
            }
        }
    }
}

fn row(key: &str, label: &str, unit: &str, better: Better, values: [Option<f64>; 2]) -> SummaryRow {
    let [a, b] = values;
    SummaryRow { key: key.to_owned(), label: label.to_owned(), unit: unit.to_owned(), a, b, better }
}

/// The summary's rows (see the module doc).
fn summary_rows(runs: [Run<'_>; 2], tables: &[PanelTables; 2]) -> Vec<SummaryRow> {
    let per = |f: &dyn Fn(Run<'_>, &PanelTables) -> Option<f64>| -> [Option<f64>; 2] { [f(runs[0], &tables[0]), f(runs[1], &tables[1])] };
    let has_rows = |t: &PanelTables| t.overview.rows > 0;
    let path_len = |r: Run<'_>, observed: bool| {
        let p = r.paths.ok()?;
        let info = if observed { &p.observed_path } else { &p.static_path };
        (!info.source.is_empty()).then_some(info.length_us)
    };
    let stall = |r: Run<'_>, kind: &str| {
        let p = r.paths.ok().filter(|p| p.critical_path_error.is_none())?;
        Some(p.stall_by_kind.iter().filter(|s| s.kind == kind).fold(0.0, |sum, s| sum + s.stall_us))
    };
    let count = |r: Run<'_>, kind: TaskKind| Some(r.model.kinds.count(kind) as f64);
    let mut rows = vec![
        row(
            "makespan_us",
            "Makespan (first kernel start → last kernel end)",
            "us",
            Better::Lower,
            per(&|_, t| has_rows(t).then_some(t.overview.task_time_us)),
        ),
        row(
            "total_test_time_us",
            "Total test time (first dispatch → last finish)",
            "us",
            Better::Lower,
            per(&|_, t| t.stats.total_test_time_us),
        ),
        row(
            "aicore_time_us",
            "AICore time (Σ kernel time)",
            "us",
            Better::Lower,
            per(&|_, t| has_rows(t).then_some(t.overview.aicore_time_us)),
        ),
        row("utilisation_pct", "AICore utilisation", "%", Better::Higher, per(&|_, t| has_rows(t).then_some(t.overview.utilisation_pct))),
        row("exec_latency_pct", "Exec / latency", "%", Better::Higher, per(&|_, t| t.stats.exec_vs_overhead.map(|x| x.exec_latency_pct))),
        row("static_path_us", "Static critical path length", "us", Better::Lower, per(&|r, _| path_len(r, false))),
        row("observed_path_us", "Observed critical path length", "us", Better::Lower, per(&|r, _| path_len(r, true))),
        row("stall_data_wait_us", "Observed-path stall: data-wait", "us", Better::Lower, per(&|r, _| stall(r, "data-wait"))),
        row("stall_core_wait_us", "Observed-path stall: core-wait", "us", Better::Lower, per(&|r, _| stall(r, "core-wait"))),
        row("stall_front_gap_us", "Observed-path stall: front-gap", "us", Better::Lower, per(&|r, _| stall(r, "front-gap"))),
    ];
    for kind in TaskKind::ALL {
        let key = format!("tasks_{}", kind.as_str());
        let label = format!("Tasks: {}", kind.as_str().replace('_', " "));
        rows.push(row(&key, &label, "count", Better::Neither, per(&|r, _| count(r, kind))));
    }
    rows.push(row("tasks_total", "Tasks (all kinds)", "count", Better::Neither, per(&|r, _| Some(r.model.kinds.task_id.len() as f64))));
    rows.push(row("aicore_rows", "AICore rows", "count", Better::Neither, per(&|_, t| Some(t.overview.rows as f64))));
    rows
}

/// The function table and how its functions were paired.
fn functions(runs: [Run<'_>; 2], tables: &[PanelTables; 2], notes: &mut Vec<RunsNote>) -> (String, Vec<FunctionDelta>) {
    let named = |r: Run<'_>| r.model.names.as_ref().is_some_and(|n| !n.entries.is_empty());
    let key = if named(runs[0]) && named(runs[1]) { "name" } else { "func_id" };
    for (side, run) in SIDES.into_iter().zip(runs) {
        if !named(run) && !run.model.tasks.is_empty() {
            notes.push(RunsNote::NoNameMap { side });
        }
    }
    if named(runs[0]) != named(runs[1]) {
        notes.push(RunsNote::NameMapOnOneSide);
    }
    // (name, k-th func id with that name) → each side's row.
    let mut paired: BTreeMap<(String, usize), [Option<&FunctionRow>; 2]> = BTreeMap::new();
    let mut duplicated = false;
    for (s, t) in tables.iter().enumerate() {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for r in &t.stats.rows {
            let k = seen.entry(r.name.as_str()).or_insert(0);
            duplicated |= *k > 0;
            if let Some(slot) = paired.entry((r.name.clone(), *k)).or_default().get_mut(s) {
                *slot = Some(r);
            }
            *k += 1;
        }
    }
    if duplicated {
        notes.push(RunsNote::SharedFunctionNames);
    }
    let mut out: Vec<FunctionDelta> = paired
        .into_iter()
        .map(|((name, _), [a, b])| {
            let both = |f: &dyn Fn(&FunctionRow) -> Option<f64>| [a.and_then(f), b.and_then(f)];
            FunctionDelta {
                name,
                func_id: [a.map(|r| r.func_id), b.map(|r| r.func_id)],
                count: [a.map(|r| r.count as u64), b.map(|r| r.count as u64)],
                total_exec_us: both(&|r| Some(r.total_exec_us)),
                avg_exec_us: both(&|r| Some(r.avg_exec_us)),
                max_exec_us: both(&|r| Some(r.max_exec_us)),
                min_exec_us: both(&|r| Some(r.min_exec_us)),
                avg_latency_us: both(&|r| r.avg_latency_us),
                exec_pct: both(&|r| r.exec_pct),
                avg_head_oh_us: both(&|r| r.avg_head_oh_us),
                avg_tail_oh_us: both(&|r| r.avg_tail_oh_us),
                avg_prop_us: both(&|r| r.avg_prop_us),
                avg_local_us: both(&|r| r.avg_local_us),
            }
        })
        .collect();
    out.sort_by(|x, y| total_delta(y).abs().total_cmp(&total_delta(x).abs()).then_with(|| x.name.cmp(&y.name)));
    (key.to_owned(), out)
}

/// B's total exec − A's (a missing side counts 0).
pub fn total_delta(f: &FunctionDelta) -> f64 {
    f.total_exec_us[1].unwrap_or(0.0) - f.total_exec_us[0].unwrap_or(0.0)
}

/// The matching's counts, per-function Δ statistics and the largest |Δ| pairs.
fn task_rows(spans: &[TaskSpans; 2], m: &task_matching::Matching) -> TaskMatching {
    #[derive(Default)]
    struct Acc {
        deltas: Vec<f64>,
        only: [u64; 2],
    }
    let [a, b] = spans;
    let mut per: BTreeMap<&str, Acc> = BTreeMap::new();
    let mut pairs: Vec<(usize, usize, MatchRule, f64)> = Vec::with_capacity(m.matched());
    for (i, j, rule) in m.pairs() {
        let delta = b.exec_us(j) - a.exec_us(i);
        per.entry(a.function_of(i)).or_default().deltas.push(delta);
        pairs.push((i, j, rule, delta));
    }
    for (side, (spans, partners)) in [(a, &m.partner_of_a), (b, &m.partner_of_b)].into_iter().enumerate() {
        for (k, _) in partners.iter().enumerate().filter(|(_, &p)| p == task_matching::NO_PARTNER) {
            if let Some(o) = per.entry(spans.function_of(k)).or_default().only.get_mut(side) {
                *o += 1;
            }
        }
    }
    let per_function = per
        .into_iter()
        .map(|(function, mut acc)| {
            let matched = acc.deltas.len() as u64;
            let stats = task_matching::delta_stats(&mut acc.deltas, HISTOGRAM_BINS);
            FunctionTaskDeltas {
                function: function.to_owned(),
                matched,
                only_a: acc.only[0],
                only_b: acc.only[1],
                mean_delta_us: stats.as_ref().map(|s| s.mean),
                median_delta_us: stats.as_ref().map(|s| s.median),
                bin_edges_us: stats.as_ref().map(|s| s.edges.clone()).unwrap_or_default(),
                counts: stats.map(|s| s.counts).unwrap_or_default(),
            }
        })
        .collect();
    let by_size = |x: &(usize, usize, MatchRule, f64), y: &(usize, usize, MatchRule, f64)| {
        y.3.abs().total_cmp(&x.3.abs()).then_with(|| a.task_id.get(x.0).cmp(&a.task_id.get(y.0)))
    };
    if pairs.len() > TOP_TASKS {
        pairs.select_nth_unstable_by(TOP_TASKS, by_size);
        pairs.truncate(TOP_TASKS);
    }
    pairs.sort_by(by_size);
    let id = |s: &TaskSpans, k: usize| TaskId(s.task_id.get(k).copied().unwrap_or(0));
    let top = pairs
        .into_iter()
        .map(|(i, j, rule, delta)| TaskDelta {
            function: a.function_of(i).to_owned(),
            a_task: id(a, i),
            b_task: id(b, j),
            a_exec_us: a.exec_us(i),
            b_exec_us: b.exec_us(j),
            delta_us: delta,
            rule: rule.as_str().to_owned(),
            a_start_us: a.start_us.get(i).copied().unwrap_or(0.0),
            b_start_us: b.start_us.get(j).copied().unwrap_or(0.0),
        })
        .collect();
    TaskMatching {
        tasks: [a.len() as u64, b.len() as u64],
        matched: m.matched() as u64,
        only_a: m.only_a() as u64,
        only_b: m.only_b() as u64,
        matched_by_id: m.matched_by_id as u64,
        matched_by_order: m.matched_by_order as u64,
        per_function,
        top,
    }
}
