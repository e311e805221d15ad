//! Per-function statistics, for the Function Performance panel, the report and golden tests:
//! (a) the reference converter's "Task Statistics by Function" (runtime-formats.md §6.2),
//! with [`ConverterStats::render_text`] reproducing its printed block line for line; and
//! (b) the extension's Function Performance / Kernel Statistics table (toolkit-features.md
//! M3–M4, I4).
//!
//! (a) Rows are the joined AICore rows (SPMD/MIX subtasks count individually; dummy, alloc
//! and predicated-skip tasks have no row and are not counted), grouped by resolved func id
//! (-1 = unresolved), ascending. Exec = `end - start`; at level ≥ 2 every row also gives
//! latency `finish - dispatch`, head OH `start - dispatch`, tail OH `finish - end` and
//! propagation `receive - dispatch`; local setup `start - receive` is known for every raw
//! row. Sums run in the reference's order (row order within a group; groups ascending for
//! the exec total, first-seen for the latency total) so the printed roundings agree. Level 1
//! hides the AICPU metrics (`None`, printed `-`) and reports the AICore observed span
//! instead of the total test time. A function's name is the name map entry, else
//! `func_<id>_<letters>` (`func_-1_` for -1, as the converter prints it).
//!
//! (b) Same grouping and rows; count, max/min/avg of `end - start` (setup excluded).

use crate::tasks::{self, FuncIdOf, JoinedTasks};
use pypto_formats::name_map::NameMap;
use std::fmt::Write as _;

/// One function row of the converter's table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FunctionRow {
    pub func_id: i64,
    pub name: String,
    pub count: usize,
    pub total_exec_us: f64,
    pub avg_exec_us: f64,
    pub max_exec_us: f64,
    pub min_exec_us: f64,
    /// Σ latency (level ≥ 2, else `None`).
    pub total_latency_us: Option<f64>,
    /// Σ latency / count.
    pub avg_latency_us: Option<f64>,
    /// Σ exec / Σ latency × 100 (0 when Σ latency ≤ 0).
    pub exec_pct: Option<f64>,
    pub avg_head_oh_us: Option<f64>,
    pub avg_tail_oh_us: Option<f64>,
    /// `None` at level 1 and for v1 (object format) rows.
    pub avg_prop_us: Option<f64>,
    /// `None` for v1 (object format) rows.
    pub avg_local_us: Option<f64>,
}

/// "Task execution vs Scheduler overhead" (level ≥ 2 with positive total latency).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ExecVsOverhead {
    pub avg_exec_us: f64,
    pub avg_latency_us: f64,
    pub exec_latency_pct: f64,
}

/// The converter's "Task Statistics by Function".
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ConverterStats {
    pub level: u32,
    /// Level ≥ 2: latency-derived columns exist.
    pub has_aicpu_timing: bool,
    pub rows: Vec<FunctionRow>,
    pub total_count: usize,
    pub total_exec_us: f64,
    /// `None` at level 1.
    pub total_latency_us: Option<f64>,
    /// `max(finish) - min(dispatch)` (level ≥ 2 with rows).
    pub total_test_time_us: Option<f64>,
    /// `max(end) - min(receive)` (level 1 with rows).
    pub aicore_observed_span_us: Option<f64>,
    pub exec_vs_overhead: Option<ExecVsOverhead>,
}

/// One row of the extension's Function Performance table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FunctionPerf {
    pub func_id: i64,
    pub name: String,
    pub count: usize,
    pub max_duration_us: f64,
    pub min_duration_us: f64,
    pub avg_duration_us: f64,
}

/// The converter's function name: the name map entry, else `func_<id>_<letters>`
/// (bijective base 26 of `id + 1`; negative ids get no letters: `func_-1_`).
pub fn converter_func_name(func_id: i64, names: Option<&NameMap>) -> String {
    if let Some(n) = names.and_then(|m| m.name(func_id)) {
        return n.to_owned();
    }
    if func_id >= 0 {
        tasks::default_func_name(func_id)
    } else {
        format!("func_{func_id}_")
    }
}

#[derive(Default)]
struct Acc {
    exec: Vec<f64>,
    head: Vec<f64>,
    tail: Vec<f64>,
    prop: Vec<f64>,
    local: Vec<f64>,
    total_exec: f64,
    total_latency: f64,
    first_seen: usize,
}

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// Groups rows by func id, ascending (`BTreeMap`) with first-seen order recorded.
fn group(tasks: &JoinedTasks, func_ids: &(impl FuncIdOf + ?Sized)) -> std::collections::BTreeMap<i64, Acc> {
    let mut g: std::collections::BTreeMap<i64, Acc> = std::collections::BTreeMap::new();
    for i in 0..tasks.len() {
        let f = func_ids.func_id(i);
        let next = g.len();
        g.entry(f).or_insert_with(|| Acc { first_seen: next, ..Acc::default() });
        if let Some(a) = g.get_mut(&f) {
            let s = tasks.start_us(i).unwrap_or(0.0);
            let e = tasks.end_us(i).unwrap_or(0.0);
            a.exec.push(e - s);
        }
    }
    g
}

/// Computes the converter's table. `func_ids` = [`crate::tasks::func_ids`].
pub fn converter_stats(tasks: &JoinedTasks, func_ids: &(impl FuncIdOf + ?Sized), names: Option<&NameMap>) -> ConverterStats {
    let level = tasks.level;
    let aicpu = level >= 2;
    let mut groups = group(tasks, func_ids);
    let mut min_dispatch = f64::INFINITY;
    let mut max_finish = f64::NEG_INFINITY;
    let mut min_aicore = f64::INFINITY;
    let mut max_aicore = f64::NEG_INFINITY;
    for i in 0..tasks.len() {
        let fid = func_ids.func_id(i);
        let Some(acc) = groups.get_mut(&fid) else {
            continue;
        };
        let start = tasks.start_us(i).unwrap_or(0.0);
        let end = tasks.end_us(i).unwrap_or(0.0);
        let raw_row = tasks.from_raw_rows;
        let recv = tasks.receive_us(i).unwrap_or(start);
        min_aicore = min_aicore.min(if raw_row { recv } else { start });
        max_aicore = max_aicore.max(end);
        if raw_row {
            acc.local.push(start - recv);
        }
        if aicpu {
            let dispatch = tasks.dispatch_us(i).unwrap_or(0.0);
            let finish = tasks.finish_us(i).unwrap_or(0.0);
            acc.head.push(start - dispatch);
            acc.tail.push(finish - end);
            if raw_row {
                acc.prop.push(recv - dispatch);
            }
            acc.total_exec += end - start;
            acc.total_latency += finish - dispatch;
            min_dispatch = min_dispatch.min(dispatch);
            max_finish = max_finish.max(finish);
        }
    }
    let mut rows = Vec::with_capacity(groups.len());
    let mut total_count = 0usize;
    let mut total_exec = 0.0f64;
    for (&func_id, a) in &groups {
        let count = a.exec.len();
        let sum: f64 = a.exec.iter().sum();
        total_count += count;
        total_exec += sum;
        let exec_pct = if a.total_latency > 0.0 { a.total_exec / a.total_latency * 100.0 } else { 0.0 };
        rows.push(FunctionRow {
            func_id,
            name: converter_func_name(func_id, names),
            count,
            total_exec_us: sum,
            avg_exec_us: sum / count.max(1) as f64,
            max_exec_us: a.exec.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            min_exec_us: a.exec.iter().copied().fold(f64::INFINITY, f64::min),
            total_latency_us: aicpu.then_some(a.total_latency),
            avg_latency_us: aicpu.then(|| a.total_latency / count.max(1) as f64),
            exec_pct: aicpu.then_some(exec_pct),
            avg_head_oh_us: aicpu.then(|| mean(&a.head).unwrap_or(0.0)),
            avg_tail_oh_us: aicpu.then(|| mean(&a.tail).unwrap_or(0.0)),
            avg_prop_us: mean(&a.prop),
            avg_local_us: mean(&a.local),
        });
    }
    // The reference sums group latencies in first-seen order.
    let mut by_seen: Vec<&Acc> = groups.values().collect();
    by_seen.sort_by_key(|a| a.first_seen);
    let total_latency: f64 = by_seen.iter().map(|a| a.total_latency).sum();
    let total_test_time_us = (aicpu && min_dispatch.is_finite() && max_finish.is_finite()).then_some(max_finish - min_dispatch);
    let aicore_observed_span_us = (level == 1 && min_aicore.is_finite() && max_aicore.is_finite()).then_some(max_aicore - min_aicore);
    let exec_vs_overhead = (aicpu && total_count > 0 && total_latency > 0.0).then(|| ExecVsOverhead {
        avg_exec_us: total_exec / total_count as f64,
        avg_latency_us: total_latency / total_count as f64,
        exec_latency_pct: total_exec / total_latency * 100.0,
    });
    ConverterStats {
        level,
        has_aicpu_timing: aicpu,
        rows,
        total_count,
        total_exec_us: total_exec,
        total_latency_us: aicpu.then_some(total_latency),
        total_test_time_us,
        aicore_observed_span_us,
        exec_vs_overhead,
    }
}

fn level_description(level: u32) -> &'static str {
    match level {
        1 => "AICore timing only",
        2 => "AICore + AICPU timing",
        3 => "AICore + AICPU timing + scheduler phases",
        4 => "full collection with orchestrator phases",
        _ => "unknown",
    }
}

fn opt2(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |x| format!("{x:.2}"))
}

impl ConverterStats {
    /// The converter's printed block, from the first `=`×140 line to the closing `=`×110
    /// line, one `\n`-terminated line each (the leading blank line is not included).
    pub fn render_text(&self) -> String {
        let mut o = String::new();
        let eq140 = "=".repeat(140);
        let dash140 = "-".repeat(140);
        let _ = writeln!(o, "{eq140}");
        let _ = writeln!(o, "Task Statistics by Function");
        let _ = writeln!(
            o,
            "  Source chip_swimlane_level: {} ({}; recorded in chip_swimlane_records.json)",
            self.level,
            level_description(self.level)
        );
        let _ = writeln!(o, "  Exec = kernel time on AICore; Latency = dispatch->finish (incl. head OH + Exec + tail OH)");
        let _ = writeln!(o, "  Head OH split (v3): Prop = NoC propagation (dispatch_ts→AICore receive); Local = dcci+ack (receive→start)");
        let _ = writeln!(o, "{eq140}");
        let _ = writeln!(
            o,
            "{:<8} {:<12} {:>5}   {:>12}  {:>15}  {:>6}   {:>15}  {:>15}  {:>12}  {:>13}",
            "Func_ID",
            "Func_Name",
            "Count",
            "Avg Exec(us)",
            "Avg Latency(us)",
            "Exec%",
            "Avg Head OH(us)",
            "Avg Tail OH(us)",
            "Avg Prop(us)",
            "Avg Local(us)"
        );
        let _ = writeln!(o, "{dash140}");
        for r in &self.rows {
            let (lat, pct, head, tail) = if self.has_aicpu_timing {
                (
                    opt2(r.avg_latency_us.or(Some(0.0))),
                    format!("{:.1}%", r.exec_pct.unwrap_or(0.0)),
                    opt2(r.avg_head_oh_us.or(Some(0.0))),
                    opt2(r.avg_tail_oh_us.or(Some(0.0))),
                )
            } else {
                ("-".to_owned(), "-".to_owned(), "-".to_owned(), "-".to_owned())
            };
            let _ = writeln!(
                o,
                "{:<8} {:<12} {:>5}   {:>12.2}  {:>15}  {:>6}   {:>15}  {:>15}  {:>12}  {:>13}",
                r.func_id,
                r.name,
                r.count,
                r.avg_exec_us,
                lat,
                pct,
                head,
                tail,
                opt2(r.avg_prop_us),
                opt2(r.avg_local_us)
            );
        }
        let _ = writeln!(o, "{dash140}");
        let _ = writeln!(o, "{:<21} {:>5}   {:>12.2}  {:>15}", "TOTAL", self.total_count, self.total_exec_us, opt2(self.total_latency_us));
        self.render_footer(&mut o);
        let _ = writeln!(o, "{}", "=".repeat(110));
        o
    }

    /// Total test time / observed span and the exec-vs-overhead lines.
    fn render_footer(&self, o: &mut String) {
        if let Some(t) = self.total_test_time_us {
            let _ = writeln!(o);
            let _ = writeln!(o, "Total Test Time: {t:.2} us (from earliest dispatch to latest finish)");
        } else if let Some(t) = self.aicore_observed_span_us {
            let _ = writeln!(o);
            let _ = writeln!(o, "AICore Observed Span: {t:.2} us (from earliest AICore receive to latest AICore end)");
        }
        if let Some(x) = self.exec_vs_overhead {
            let _ = writeln!(o);
            let _ = writeln!(o, "--- Task execution vs Scheduler overhead ---");
            let _ = writeln!(
                o,
                "  Per-task (all):  Avg Exec = {:.2} us,  Avg Latency (dispatch->finish) = {:.2} us,  Exec/Latency = {:.2}%",
                x.avg_exec_us, x.avg_latency_us, x.exec_latency_pct
            );
            let _ = writeln!(o, "  (Latency = dispatch→finish; Exec = AICore kernel time per task)");
        }
    }
}

/// The extension's Function Performance table (count, max/min/avg `end - start` µs), by
/// func id ascending. `func_ids` = [`crate::tasks::func_ids`].
pub fn function_perf(tasks: &JoinedTasks, func_ids: &(impl FuncIdOf + ?Sized), names: Option<&NameMap>) -> Vec<FunctionPerf> {
    group(tasks, func_ids)
        .into_iter()
        .map(|(func_id, a)| {
            let count = a.exec.len();
            FunctionPerf {
                func_id,
                name: converter_func_name(func_id, names),
                count,
                max_duration_us: a.exec.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                min_duration_us: a.exec.iter().copied().fold(f64::INFINITY, f64::min),
                avg_duration_us: a.exec.iter().sum::<f64>() / count.max(1) as f64,
            }
        })
        .collect()
}
