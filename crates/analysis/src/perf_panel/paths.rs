//! The path tabs of the Performance Analysis panel (toolkit-features.md H, I7–I10), as compact
//! result tables the worker computes once per dataset while the raw records and `deps.json`
//! are still in memory, and keeps after they are dropped:
//!
//! - **Critical path** (I8/H): the static and the observed path, each read from its
//!   `CPM_*.json` when the capture has one (the set of on-path tasks) or computed
//!   ([`crate::critical_path`]) otherwise — [`PathInfo::source`] says which. Length = Σ task
//!   durations on the path (a static path is a dependency chain, so this is the reference's
//!   duration-weighted length; for the observed path it counts overlaps once per task) and its
//!   share of the makespan; the observed path's compute/stall tiling, stall by kind and kernel
//!   families (always from the computed walk — a CPM file holds only the task set; when the
//!   file's set differs from the computed one, [`PathInfo::note`] says so).
//! - **Gap and blocker** (I9): [`super::gap_blocker`] over the computed observed path.
//! - **Early dispatch** (I10): [`super::early_dispatch`].
//! - **Continuous single-dependency chains** (I7): [`super::single_dep_chains`], plus each
//!   chain's time: Σ task durations and the span first start → last end (task = all its
//!   AICore blocks, as in the critical-path graph).
//!
//! Usage (the worker's load path): [`prepare`] with the records, deps and names (before the
//! model takes `deps.json`); [`Prepared::fill_cpm_inputs`] hands the computed paths to the
//! model so it does not compute them a second time; [`Prepared::finish`] with the model's
//! joined tasks runs the early-dispatch analysis and returns the [`PathTables`].

use super::early_dispatch::{self, EarlyDispatchAnalysis};
use super::gap_blocker::{self, GapBlockerTable};
use super::single_dep_chains::{self, Chains};
use crate::critical_path::{self, CriticalPath, TaskGraph};
use crate::runtime_model::CpmInputs;
use crate::tasks::JoinedTasks;
use pypto_formats::cpm::CpmPath;
use pypto_formats::deps::{Deps, DepsEdges, DepsTasks};
use pypto_formats::name_map::NameMap;
use pypto_formats::records::ChipRecords;
use pypto_formats::Warning;
use std::collections::HashSet;

/// The source label of a computed path.
pub const COMPUTED: &str = "computed";

/// One task of a path, in path order (static: head → sink; observed: head first; a CPM set
/// that differs from the computed walk: by start).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PathTask {
    pub task_id: u64,
    pub name: String,
    /// Capture µs axis (the swimlane's).
    pub start_us: f64,
    pub end_us: f64,
    pub dur_us: f64,
    /// Observed path only (from the computed walk): non-overlapped compute, stall before
    /// the task and its kind (`data-wait` / `core-wait` / `front-gap`).
    pub compute_us: Option<f64>,
    pub stall_us: Option<f64>,
    pub stall_kind: Option<&'static str>,
}

/// One critical path (static or observed).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct PathInfo {
    /// `CPM_static.json`-style file name, or [`COMPUTED`]; empty when no path is known.
    pub source: String,
    pub tasks: Vec<PathTask>,
    /// Σ task durations on the path, µs.
    pub length_us: f64,
    /// `length / makespan × 100`.
    pub makespan_pct: f64,
    /// Set when a CPM file's task set differs from the computed path.
    pub note: Option<String>,
}

/// Stall of one kind on the observed path.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct StallShare {
    pub kind: &'static str,
    pub stall_us: f64,
    pub makespan_pct: f64,
}

/// One kernel family on the observed path.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FamilyShare {
    pub family: String,
    pub compute_us: f64,
    pub makespan_pct: f64,
    pub stall_us: f64,
    pub on_path: usize,
}

/// A chain with its timing (µs; `None` when a task of it has no AICore rows).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ChainTiming {
    pub exec_us: Option<f64>,
    pub start_us: Option<f64>,
    pub end_us: Option<f64>,
}

/// Everything the four path tabs show for one dataset.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct PathTables {
    /// Why the critical path (and gap table) could not be computed.
    pub critical_path_error: Option<String>,
    pub makespan_us: f64,
    pub static_path: PathInfo,
    pub observed_path: PathInfo,
    /// Observed-path tiling of the makespan (computed walk).
    pub compute_us: f64,
    pub stall_us: f64,
    pub tiling_exact: bool,
    /// Kinds with stall > 0, largest first (the report's order).
    pub stall_by_kind: Vec<StallShare>,
    /// Largest compute first.
    pub families: Vec<FamilyShare>,
    pub gap_blocker: GapBlockerTable,
    /// `None` without `deps.json`.
    pub early_dispatch: Option<EarlyDispatchAnalysis>,
    pub chains: Option<Chains>,
    /// Parallel to the chains.
    pub chain_timing: Vec<ChainTiming>,
    pub warnings: Vec<Warning>,
}

/// What [`prepare`] computed; see the module doc.
pub struct Prepared {
    graph: Option<TaskGraph>,
    cp: Option<CriticalPath>,
    error: Option<String>,
    chains: Option<Chains>,
    /// The parts of `deps.json` the early-dispatch analysis reads (task ids, `early_dispatch`
    /// flags, edges), kept until [`Prepared::finish`].
    deps_slim: Option<Deps>,
    early_phases: Option<EarlyDispatchAnalysis>,
    cpm_static: Option<(String, Vec<u64>)>,
    cpm_observed: Option<(String, Vec<u64>)>,
}

fn slim(d: &Deps) -> Deps {
    Deps {
        tasks: DepsTasks { task_id: d.tasks.task_id.clone(), early_dispatch: d.tasks.early_dispatch.clone(), ..DepsTasks::default() },
        edges: DepsEdges { pred: d.edges.pred.clone(), succ: d.edges.succ.clone(), ..DepsEdges::default() },
        ..Deps::default()
    }
}

/// Step 1 (records and deps in memory): critical paths, gap table input, chains. `cpm` is
/// what the capture's `CPM_*.json` files hold (read before the model is built).
pub fn prepare(records: &ChipRecords, deps: Option<&Deps>, names: Option<&NameMap>, cpm: &CpmInputs) -> Prepared {
    let (graph, cp, error) = match critical_path::build_graph(records, deps, names, critical_path::DEFAULT_TOL_TICKS)
        .and_then(|g| critical_path::analyze(&g).map(|cp| (g, cp)))
    {
        Ok((g, cp)) => (Some(g), Some(cp), None),
        Err(e) => (None, None, Some(e.to_string())),
    };
    let set = |p: &Option<(String, CpmPath)>| p.as_ref().map(|(n, p)| (n.clone(), p.task_ids.clone()));
    Prepared {
        graph,
        cp,
        error,
        chains: deps.map(|d| single_dep_chains::single_dep_chains(d, Some(records))),
        deps_slim: deps.map(slim),
        early_phases: None,
        cpm_static: set(&cpm.static_path),
        cpm_observed: set(&cpm.observed_path),
    }
}

impl Prepared {
    /// The computed critical path and the task graph it was computed on, or why there is
    /// none (the CLI report prints them beside the tables).
    pub fn critical_path(&self) -> Result<(&TaskGraph, &CriticalPath), &str> {
        match (&self.graph, &self.cp) {
            (Some(g), Some(cp)) => Ok((g, cp)),
            _ => Err(self.error.as_deref().unwrap_or("not computed")),
        }
    }

    /// Gives the model the computed paths where the capture has no CPM file, so the model
    /// does not run the same analysis again.
    pub fn fill_cpm_inputs(&self, cpm: &mut CpmInputs) {
        let Some(cp) = &self.cp else { return };
        if cpm.static_path.is_none() && !cp.static_path.is_empty() {
            cpm.static_path = Some((COMPUTED.to_owned(), CpmPath { task_ids: cp.static_path.clone(), ..CpmPath::default() }));
        }
        if cpm.observed_path.is_none() && !cp.observed.task_id.is_empty() {
            cpm.observed_path = Some((COMPUTED.to_owned(), CpmPath { task_ids: cp.observed.task_id.clone(), ..CpmPath::default() }));
        }
    }

    /// The model's `path_source` for these inputs: the CPM file names used, then
    /// [`COMPUTED`] once if any path was computed.
    pub fn path_source(&self) -> String {
        let mut sources: Vec<String> = Vec::new();
        for p in [&self.cpm_static, &self.cpm_observed].into_iter().flatten() {
            sources.push(p.0.clone());
        }
        let computed_static = self.cpm_static.is_none() && self.cp.as_ref().is_some_and(|c| !c.static_path.is_empty());
        let computed_observed = self.cpm_observed.is_none() && self.cp.as_ref().is_some_and(|c| !c.observed.task_id.is_empty());
        if computed_static || computed_observed {
            sources.push(COMPUTED.to_owned());
        }
        sources.join(" + ")
    }

    /// Step 2 (after the model is built; the records are still alive): early dispatch, and
    /// the tables.
    pub fn finish(mut self, joined: &JoinedTasks, records: &ChipRecords) -> PathTables {
        if let Some(d) = self.deps_slim.take() {
            self.early_phases = Some(early_dispatch::early_dispatch(joined, &d, records));
        }
        self.tables()
    }

    fn tables(self) -> PathTables {
        let mut out = PathTables { critical_path_error: self.error.clone(), early_dispatch: self.early_phases, ..PathTables::default() };
        if let (Some(g), Some(cp)) = (&self.graph, &self.cp) {
            let ms = cp.makespan_ticks;
            let pct = |t: u64| {
                if ms == 0 {
                    0.0
                } else {
                    t as f64 / ms as f64 * 100.0
                }
            };
            out.makespan_us = cp.us(ms);
            out.compute_us = cp.us(cp.compute_total_ticks);
            out.stall_us = cp.us(cp.stall_total_ticks);
            out.tiling_exact = cp.tiling_exact();
            let mut kinds = cp.stall_by_kind.clone();
            kinds.sort_by_key(|k| std::cmp::Reverse(k.1));
            out.stall_by_kind = kinds
                .into_iter()
                .filter(|(_, v)| *v > 0)
                .map(|(k, v)| StallShare { kind: k.as_str(), stall_us: cp.us(v), makespan_pct: pct(v) })
                .collect();
            out.families = cp
                .families
                .iter()
                .map(|f| FamilyShare {
                    family: f.family.clone(),
                    compute_us: cp.us(f.compute_ticks),
                    makespan_pct: pct(f.compute_ticks),
                    stall_us: cp.us(f.stall_ticks),
                    on_path: f.on_path,
                })
                .collect();
            out.static_path = path_info(g, cp, self.cpm_static.as_ref(), &cp.static_path, None);
            out.observed_path = path_info(g, cp, self.cpm_observed.as_ref(), &cp.observed.task_id, Some(cp));
            out.gap_blocker = gap_blocker::gap_blocker(g, cp);
            out.warnings.clone_from(&cp.warnings);
        } else {
            // No computed path: the CPM sets alone, without timing.
            for (slot, cpm) in [(&mut out.static_path, &self.cpm_static), (&mut out.observed_path, &self.cpm_observed)] {
                if let Some((name, ids)) = cpm {
                    slot.source.clone_from(name);
                    slot.note = Some(format!("{} tasks listed; no timing (the critical path could not be computed)", ids.len()));
                }
            }
        }
        if let Some(chains) = &self.chains {
            out.chain_timing = (0..chains.len()).map(|c| chain_timing(self.graph.as_ref(), chains.chain(c))).collect();
        }
        out.chains = self.chains;
        out
    }
}

fn task_row(g: &TaskGraph, id: u64) -> Option<PathTask> {
    let i = g.index_of(id)?;
    let s = g.start_ticks.get(i).copied()?;
    let e = g.end_ticks.get(i).copied()?;
    Some(PathTask {
        task_id: id,
        name: g.name(i).to_owned(),
        start_us: g.abs_us(s),
        end_us: g.abs_us(e),
        dur_us: g.us(g.dur_ticks.get(i).copied().unwrap_or(0)),
        compute_us: None,
        stall_us: None,
        stall_kind: None,
    })
}

/// The path as shown: the CPM set when given (in the computed order when the sets agree,
/// else by start), else the computed path; with the observed walk's columns when `walk`.
fn path_info(
    g: &TaskGraph,
    cp: &CriticalPath,
    cpm: Option<&(String, Vec<u64>)>,
    computed: &[u64],
    walk: Option<&CriticalPath>,
) -> PathInfo {
    let mut info = PathInfo { source: COMPUTED.to_owned(), ..PathInfo::default() };
    let mut ids: Vec<u64> = computed.to_vec();
    let mut use_walk = walk.is_some();
    if let Some((name, set)) = cpm {
        info.source.clone_from(name);
        let a: HashSet<u64> = set.iter().copied().collect();
        let b: HashSet<u64> = computed.iter().copied().collect();
        if a != b {
            let common = a.intersection(&b).count();
            info.note = Some(format!(
                "{name} lists {} tasks; the computed path has {} ({common} in common): the rows are the file's tasks, by start",
                a.len(),
                b.len()
            ));
            let mut rows: Vec<PathTask> = set.iter().filter_map(|&id| task_row(g, id)).collect();
            rows.sort_by(|x, y| x.start_us.total_cmp(&y.start_us).then(x.task_id.cmp(&y.task_id)));
            ids = rows.iter().map(|r| r.task_id).collect();
            use_walk = false;
        }
    }
    let walk_cols = if use_walk { walk } else { None };
    for (k, &id) in ids.iter().enumerate() {
        let Some(mut row) = task_row(g, id) else {
            continue;
        };
        if let Some(w) = walk_cols {
            let p = &w.observed;
            row.compute_us = p.compute_ticks.get(k).map(|&t| cp.us(t));
            row.stall_us = p.stall_ticks.get(k).map(|&t| cp.us(t));
            row.stall_kind = p.kind.get(k).map(|k| k.as_str());
        }
        info.length_us += row.dur_us;
        info.tasks.push(row);
    }
    let ms = cp.us(cp.makespan_ticks);
    info.makespan_pct = if ms > 0.0 { info.length_us / ms * 100.0 } else { 0.0 };
    info
}

fn chain_timing(g: Option<&TaskGraph>, ids: &[u64]) -> ChainTiming {
    let none = ChainTiming { exec_us: None, start_us: None, end_us: None };
    let Some(g) = g else { return none };
    let (mut exec, mut lo, mut hi) = (0u64, u64::MAX, 0u64);
    for &id in ids {
        let Some(i) = g.index_of(id) else { return none };
        exec += g.dur_ticks.get(i).copied().unwrap_or(0);
        lo = lo.min(g.start_ticks.get(i).copied().unwrap_or(u64::MAX));
        hi = hi.max(g.end_ticks.get(i).copied().unwrap_or(0));
    }
    if ids.is_empty() {
        return none;
    }
    ChainTiming { exec_us: Some(g.us(exec)), start_us: Some(g.abs_us(lo)), end_us: Some(g.abs_us(hi)) }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::float_cmp)]
mod tests {
    use super::*;

    fn records(rows: &[(u32, u64, u64, u64)]) -> ChipRecords {
        let mut r = ChipRecords::default();
        r.metadata.clock_freq_hz = 1_000_000;
        for (i, &(core, task, st, en)) in rows.iter().enumerate() {
            r.aicore.core_id.push(core);
            r.aicore.task_id.push(task);
            r.aicore.reg_task_id.push(i as u64);
            r.aicore.start_cycles.push(st);
            r.aicore.end_cycles.push(en);
            r.aicore.receive_to_start_cycles.push(0);
            r.aicore.run_epoch.push(0);
        }
        r.aicore.columns = 6;
        r
    }

    fn deps(tasks: &[u64], edges: &[(u64, u64)]) -> Deps {
        let mut d = Deps::default();
        for &t in tasks {
            d.tasks.task_id.push(t);
            d.tasks.kernel_ids.push([0, -1, -1]);
            d.tasks.has_kernel_ids.push(true);
            d.tasks.block_num.push(1);
            d.tasks.early_dispatch.push(false);
        }
        for &(p, s) in edges {
            d.edges.pred.push(p);
            d.edges.succ.push(s);
        }
        d
    }

    #[test]
    fn computed_paths_fill_the_model_and_chain_timing() {
        // 1 → 2 → 3 on one core, one tick = 1 µs.
        let r = records(&[(0, 1, 10, 20), (0, 2, 25, 40), (0, 3, 40, 45)]);
        let d = deps(&[1, 2, 3], &[(1, 2), (2, 3)]);
        let prep = prepare(&r, Some(&d), None, &CpmInputs::default());
        let (_, cp) = prep.critical_path().unwrap();
        assert_eq!(cp.static_path, vec![1, 2, 3]);
        let mut inputs = CpmInputs::default();
        prep.fill_cpm_inputs(&mut inputs);
        assert_eq!(inputs.static_path.as_ref().unwrap().0, COMPUTED);
        assert_eq!(prep.path_source(), COMPUTED);
        let t = prep.finish(&crate::tasks::join(&r), &r);
        assert_eq!(t.makespan_us, 35.0);
        assert_eq!(t.static_path.source, COMPUTED);
        assert_eq!(t.static_path.length_us, 30.0);
        assert!((t.static_path.makespan_pct - 30.0 / 35.0 * 100.0).abs() < 1e-9);
        let obs: Vec<u64> = t.observed_path.tasks.iter().map(|p| p.task_id).collect();
        assert_eq!(obs, vec![1, 2, 3]);
        assert_eq!(t.observed_path.tasks.get(1).and_then(|p| p.stall_us), Some(5.0));
        assert_eq!(t.gap_blocker.gap_us, vec![0.0, 5.0, 0.0]);
        let chains = t.chains.as_ref().unwrap();
        assert_eq!(chains.chain(0), &[1, 2, 3]);
        assert_eq!(t.chain_timing.first().unwrap().exec_us, Some(30.0));
        // Capture µs axis: the same as the path rows and the gap table.
        let head = t.observed_path.tasks.first().unwrap();
        assert_eq!(t.chain_timing.first().unwrap().start_us, Some(head.start_us));
        assert_eq!(t.gap_blocker.start_us.first().copied(), Some(head.start_us));
        let tail = t.observed_path.tasks.last().unwrap();
        assert_eq!(t.chain_timing.first().unwrap().end_us, Some(tail.end_us));
        assert!((tail.end_us - head.start_us - 35.0).abs() < 1e-9);
        assert!(t.early_dispatch.is_some());
    }

    #[test]
    fn a_differing_cpm_set_is_shown_by_start_with_a_note() {
        let r = records(&[(0, 1, 10, 20), (0, 2, 25, 40), (1, 3, 12, 30)]);
        let d = deps(&[1, 2, 3], &[(1, 2)]);
        let cpm = CpmInputs {
            static_path: Some(("CPM_static.json".into(), CpmPath { task_ids: vec![3, 1], ..CpmPath::default() })),
            observed_path: None,
        };
        let prep = prepare(&r, Some(&d), None, &cpm);
        assert_eq!(prep.path_source(), "CPM_static.json + computed");
        let t = prep.finish(&crate::tasks::join(&r), &r);
        assert_eq!(t.static_path.source, "CPM_static.json");
        let ids: Vec<u64> = t.static_path.tasks.iter().map(|p| p.task_id).collect();
        assert_eq!(ids, vec![1, 3]);
        assert!(t.static_path.note.as_deref().unwrap().contains("CPM_static.json lists 2 tasks"));
        assert_eq!(t.static_path.length_us, 28.0);
    }

    #[test]
    fn no_tasks_is_an_error_not_a_panic() {
        let r = ChipRecords::default();
        let prep = prepare(&r, None, None, &CpmInputs::default());
        let why = prep.critical_path().err().map(str::to_owned);
        let t = prep.finish(&crate::tasks::join(&r), &r);
        assert!(why.is_some());
        assert_eq!(t.critical_path_error, why);
        assert!(t.gap_blocker.is_empty());
        assert!(t.chains.is_none());
    }
}
