//! The analyses section of `pypto-viewer report` for one runtime dataset: per-function
//! statistics, task kinds, happens-before violations, scheduler idle, the five edge modes,
//! static and observed critical paths, and the Performance Analysis panel tables — each
//! computed when the dataset's files allow it, as JSON for scripts and as text for people.
//!
//! The tables the page shows too are computed by the same calls as the page's: the panel's
//! first tables by `pypto_replies::perf_panel::PanelTables::compute`, the path tabs'
//! analyses (critical paths, gap & blocker, early dispatch, single-dependency chains) by
//! `pypto_analysis::perf_panel::paths` as the worker's path job runs them, the edge modes by
//! `pypto_replies::dep_graph::DepGraph` (the graph the page draws). Only the JSON and text
//! around them are the report's own.
//!
//! JSON contract (issue 3): task ids are decimal strings (any key named `task_id`,
//! `*_task_id`, `task_ids` or `*_path`, and every edge endpoint), times are µs numbers.

use std::fmt::Write as _;

use pypto_analysis::critical_path::{self, CriticalPath, StallKind, TaskGraph};
use pypto_analysis::deps_graph;
use pypto_analysis::edge_modes::EdgeMode;
use pypto_analysis::perf_panel::paths;
use pypto_analysis::runtime_model::CpmInputs;
use pypto_analysis::task_kinds::{self, TaskKind};
use pypto_analysis::tasks::JoinedTasks;
use pypto_analysis::{hb_violation, idle};
use pypto_formats::deps::Deps;
use pypto_formats::name_map::NameMap;
use pypto_formats::records::ChipRecords;
use pypto_formats::{Warning, WarningKind};
use pypto_replies::dep_graph::DepGraph;
use pypto_replies::perf_panel::PanelTables;
use serde_json::{json, Map, Value};

/// How many rows of the leaderboards go into the report.
const TOP_ROWS: usize = 10;

/// The parsed inputs of one runtime dataset.
pub struct RuntimeInputs<'a> {
    pub records: Option<&'a ChipRecords>,
    pub joined: Option<&'a JoinedTasks>,
    pub func_ids: &'a [i64],
    pub deps: Option<&'a Deps>,
    pub names: Option<&'a NameMap>,
}

/// Converts task ids to decimal strings in a serialized analysis (see the module doc).
fn stringify_ids(value: &mut Value, id_key: bool) {
    match value {
        Value::Number(n) if id_key => {
            *value = Value::String(n.to_string());
        }
        Value::Array(items) => items.iter_mut().for_each(|v| stringify_ids(v, id_key)),
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                let is_id = key == "task_id" || key.ends_with("_task_id") || key == "task_ids" || key.ends_with("_task_ids");
                stringify_ids(v, is_id);
            }
        }
        _ => {}
    }
}

fn to_value<T: serde::Serialize>(value: &T) -> Value {
    let mut v = serde_json::to_value(value).unwrap_or(Value::Null);
    stringify_ids(&mut v, false);
    v
}

fn ids(list: &[u64]) -> Value {
    Value::Array(list.iter().map(|id| Value::String(id.to_string())).collect())
}

/// Computes every analysis the inputs allow. Returns the JSON keys to merge into the
/// dataset, the text block for people, and warnings.
pub fn run(inputs: &RuntimeInputs<'_>) -> (Map<String, Value>, String, Vec<Warning>) {
    let mut out = Map::new();
    let mut text = String::new();
    let mut warnings = Vec::new();

    if let (Some(records), Some(joined)) = (inputs.records, inputs.joined) {
        // The panel's first tables, as the page gets them (`pypto_replies::perf_panel`).
        let PanelTables { overview: ov, stats, function_perf, setup: mut boards } =
            PanelTables::compute(joined, inputs.func_ids, inputs.names, TOP_ROWS);
        let functions: Vec<Value> = stats
            .rows
            .iter()
            .map(|r| {
                json!({"func_id": r.func_id, "name": r.name, "count": r.count,
                       "avg_exec_us": r.avg_exec_us, "max_exec_us": r.max_exec_us, "min_exec_us": r.min_exec_us,
                       "total_exec_us": r.total_exec_us,
                       "avg_latency_us": r.avg_latency_us, "exec_pct": r.exec_pct,
                       "avg_head_oh_us": r.avg_head_oh_us, "avg_tail_oh_us": r.avg_tail_oh_us,
                       "avg_prop_us": r.avg_prop_us, "avg_local_us": r.avg_local_us})
            })
            .collect();
        out.insert("functions".into(), Value::Array(functions));
        out.insert(
            "function_totals".into(),
            json!({"count": stats.total_count, "total_exec_us": stats.total_exec_us,
                   "total_latency_us": stats.total_latency_us, "total_test_time_us": stats.total_test_time_us,
                   "aicore_observed_span_us": stats.aicore_observed_span_us,
                   "exec_vs_overhead": stats.exec_vs_overhead}),
        );
        out.insert("function_performance".into(), to_value(&function_perf));
        let _ = writeln!(text, "{}", stats.render_text());

        let kinds = task_kinds::classify(records, joined, inputs.deps);
        let counts: Map<String, Value> =
            [TaskKind::Regular, TaskKind::Dummy, TaskKind::Alloc, TaskKind::PredicatedSkip, TaskKind::GraphOuter, TaskKind::GraphNode]
                .into_iter()
                .map(|k| (k.as_str().to_string(), json!(kinds.count(k))))
                .collect();
        let _ = writeln!(text, "task kinds: {}", Value::Object(counts.clone()));
        out.insert("task_kinds".into(), Value::Object(counts));
        warnings.extend(kinds.warnings.iter().cloned());

        if let Some(deps) = inputs.deps {
            let hb = hb_violation::compute(joined, inputs.func_ids, &kinds, deps);
            let _ = writeln!(
                text,
                "happens-before: {} logical edges, {} Worker View arrows ({} violations), {} Scheduler View arrows ({} violations)",
                hb.logical_edges,
                hb.worker.len(),
                hb.worker_violations(),
                hb.scheduler.len(),
                hb.scheduler_violations()
            );
            out.insert(
                "hb_violations".into(),
                json!({"logical_edges": hb.logical_edges, "worker_arrows": hb.worker.len(),
                       "worker_violations": hb.worker_violations(), "scheduler_arrows": hb.scheduler.len(),
                       "scheduler_violations": hb.scheduler_violations()}),
            );
        }

        let idle_report = idle::compute(records, joined);
        if !idle_report.threads.is_empty() {
            out.insert("scheduler_idle".into(), to_value(&idle_report));
        }

        let mut panel = Map::new();
        let _ = writeln!(
            text,
            "overview: task time {:.3} us, AICore time {:.3} us, {} active cores, utilisation {:.2}%",
            ov.task_time_us, ov.aicore_time_us, ov.active_cores, ov.utilisation_pct
        );
        panel.insert("overview".into(), to_value(&ov));
        boards.longest_setup.truncate(TOP_ROWS);
        boards.largest_ratio.truncate(TOP_ROWS);
        panel.insert("setup_leaderboards".into(), to_value(&boards));

        path_tabs_section(records, joined, inputs, &mut out, &mut panel, &mut text, &mut warnings);
        out.insert("performance_analysis".into(), Value::Object(panel));
    }

    if let Some(deps) = inputs.deps {
        // The graph's nodes include the records' tasks (deps_viewer's perf sidecar); they add
        // no edges, so the selections are deps.json's.
        let sidecar = inputs.joined.map_or_else(Vec::new, |joined| deps_graph::sidecar_tasks(joined, inputs.func_ids));
        edge_modes_section(&DepGraph::build(deps, &sidecar, inputs.names), &mut out, &mut text, &mut warnings);
    }
    (out, text, warnings)
}

/// The path tabs' analyses (single-dependency chains, early dispatch, the critical paths and
/// their gap & blocker table), as the page's path job runs them
/// (`pypto_analysis::perf_panel::paths`; the report computes its paths, no CPM file).
fn path_tabs_section(
    records: &ChipRecords,
    joined: &JoinedTasks,
    inputs: &RuntimeInputs<'_>,
    out: &mut Map<String, Value>,
    panel: &mut Map<String, Value>,
    text: &mut String,
    warnings: &mut Vec<Warning>,
) {
    let prepared = paths::prepare(records, inputs.deps, inputs.names, &CpmInputs::default());
    let critical = critical_path_summary(prepared.critical_path());
    let tables = prepared.finish(joined, records);
    if let Some(chains) = &tables.chains {
        let listed: Vec<Value> = (0..chains.len()).map(|c| ids(chains.chain(c))).collect();
        let _ = writeln!(text, "continuous single-dependency chains: {}", chains.len());
        panel.insert(
            "single_dependency_chains".into(),
            json!({"count": chains.len(), "excluded_tasks": chains.excluded_tasks,
                   "compute_edges": chains.compute_edges, "chains": listed}),
        );
    }
    if let Some(early) = &tables.early_dispatch {
        let _ = writeln!(text, "early dispatch: {} target task(s)", early.rows.len());
        panel.insert("early_dispatch".into(), to_value(early));
    }
    match critical {
        Ok(CriticalPathSummary { json, line, warnings: cp_warnings }) => {
            out.insert("critical_path".into(), json);
            let _ = writeln!(text, "{line}");
            warnings.extend(cp_warnings);
            panel.insert("gap_blocker".into(), to_value(&tables.gap_blocker));
        }
        Err(err) => {
            warnings
                .push(Warning::analysis(WarningKind::CriticalPathFailed, format!("critical path not computed: {err}")).text("error", err));
        }
    }
}

/// The five edge modes of `deps_viewer`, as `[pred, succ]` decimal-string pairs per mode: the
/// selections of the graph the page draws (`pypto_replies::dep_graph`).
fn edge_modes_section(graph: &DepGraph, out: &mut Map<String, Value>, text: &mut String, warnings: &mut Vec<Warning>) {
    let mut edges = Map::new();
    let mut edge_stats = Map::new();
    for (mode, selection) in EdgeMode::ALL.into_iter().zip(&graph.selections) {
        let pairs: Vec<Value> =
            selection.shown_pairs(&graph.graph).into_iter().map(|(p, s)| json!([p.to_string(), s.to_string()])).collect();
        let _ = writeln!(
            text,
            "edges {:<17} shown {:>7}  (total {}, removed {}{})",
            mode.as_str(),
            pairs.len(),
            selection.total_edges,
            selection.removed_count,
            if selection.cycle_fallback { ", cycle: full graph shown" } else { "" }
        );
        edge_stats.insert(
            mode.as_str().into(),
            json!({"shown": pairs.len(), "total": selection.total_edges, "removed": selection.removed_count,
                   "reduction_applied": selection.reduction_applied, "cycle_fallback": selection.cycle_fallback}),
        );
        edges.insert(mode.as_str().into(), Value::Array(pairs));
    }
    warnings.extend(pypto_replies::datasets::edge_mode_warnings(graph.selections.iter().any(|s| s.cycle_fallback)));
    out.insert("edges".into(), Value::Object(edges));
    out.insert("edge_stats".into(), Value::Object(edge_stats));
}

/// The report's `critical_path` section, its text line and the path's warnings.
struct CriticalPathSummary {
    json: Value,
    line: String,
    warnings: Vec<Warning>,
}

/// Static and observed critical paths (computed, no CPM file needed), or why there are none.
fn critical_path_summary(computed: Result<(&TaskGraph, &CriticalPath), &str>) -> Result<CriticalPathSummary, String> {
    let (_, cp) = computed.map_err(str::to_owned)?;
    let stall = |k: StallKind| cp.us(cp.stall_of(k));
    let json = json!({"makespan_us": cp.us(cp.makespan_ticks),
           "static": ids(&cp.static_path),
           "static_length_us": cp.us(cp.static_len_ticks),
           "observed": ids(&cp.observed.task_id),
           "observed_stall_us": {"data-wait": stall(StallKind::DataWait),
                                 "core-wait": stall(StallKind::CoreWait),
                                 "front-gap": stall(StallKind::FrontGap)},
           "compute_us": cp.us(cp.compute_total_ticks),
           "tiling_exact": cp.tiling_exact(),
           "kept_edges": cp.kept_edges});
    let line = critical_path::render_summary_line("critical path", cp);
    Ok(CriticalPathSummary { json, line, warnings: cp.warnings.clone() })
}
