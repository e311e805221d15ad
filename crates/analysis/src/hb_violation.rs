//! Dependency arrows and happens-before violations (runtime-formats.md §6.3), as the
//! reference converter draws them, for the Worker/Scheduler View arrows and the report.
//!
//! Logical edges: deps.json `(pred, succ)` pairs, deduplicated, grouped by predecessor in
//! first-seen order (the converter's `pred -> [succ]` map). For each view and edge, every
//! pair of anchors ([`crate::task_kinds`]) gives one arrow:
//! - Worker View: both ends need an anchor (AICore row, or AICPU marker for tasks without
//!   rows; a missing successor is listed in [`HbReport::missing_successors`]). The arrow
//!   goes from the pred bar start to the succ bar start; `hb_violation` when the pred
//!   slice end > the succ slice start (receive, or start).
//! - Scheduler View (only when some row has AICPU timing): AICore rows only; pairs where
//!   either row lacks AICPU timing (`dispatch < 0 || finish <= 0`) are skipped; the arrow
//!   goes from pred dispatch to succ dispatch; `hb_violation` when pred finish > succ
//!   dispatch.

use crate::task_kinds::{AnchorRef, TaskKinds};
use crate::tasks::{FuncIdOf, JoinedTasks};
use pypto_formats::deps::Deps;
use std::collections::{HashMap, HashSet};

/// Arrows of one view, one entry per arrow (reference emission order).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Arrows {
    pub pred_task_id: Vec<u64>,
    pub succ_task_id: Vec<u64>,
    pub pred_anchor: Vec<AnchorRef>,
    pub succ_anchor: Vec<AnchorRef>,
    /// Arrow tail (pred bar start, or pred dispatch).
    pub from_us: Vec<f64>,
    /// Arrow head (succ bar start, or succ dispatch).
    pub to_us: Vec<f64>,
    /// True for `hb_violation`, false for `dependency`.
    pub violation: Vec<bool>,
}

impl Arrows {
    pub fn len(&self) -> usize {
        self.violation.len()
    }
    pub fn is_empty(&self) -> bool {
        self.violation.is_empty()
    }
    /// Number of `hb_violation` arrows.
    pub fn violations(&self) -> usize {
        self.violation.iter().filter(|&&v| v).count()
    }
    #[allow(clippy::too_many_arguments)] // one arrow's columns
    fn push(&mut self, p: u64, s: u64, pa: AnchorRef, sa: AnchorRef, from: f64, to: f64, v: bool) {
        self.pred_task_id.push(p);
        self.succ_task_id.push(s);
        self.pred_anchor.push(pa);
        self.succ_anchor.push(sa);
        self.from_us.push(from);
        self.to_us.push(to);
        self.violation.push(v);
    }
}

/// Dependency arrows of both views.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct HbReport {
    /// Unique `(pred, succ)` pairs in deps.json.
    pub logical_edges: usize,
    pub worker: Arrows,
    /// Empty when no row has AICPU timing (level 1).
    pub scheduler: Arrows,
    /// Edges whose predecessor has an anchor but whose successor has none (the reference
    /// warns "references non-existent successor").
    pub missing_successors: Vec<(u64, u64)>,
}

impl HbReport {
    /// Worker View `hb_violation` arrows (what the converter prints in verbose mode).
    pub fn worker_violations(&self) -> usize {
        self.worker.violations()
    }
    pub fn scheduler_violations(&self) -> usize {
        self.scheduler.violations()
    }
}

/// The converter's edge map: unique pairs grouped by predecessor, first-seen order.
pub fn edges_by_pred(deps: &Deps) -> Vec<(u64, Vec<u64>)> {
    let mut seen: HashSet<(u64, u64)> = HashSet::new();
    let mut slot: HashMap<u64, usize> = HashMap::new();
    let mut out: Vec<(u64, Vec<u64>)> = Vec::new();
    for (&p, &s) in deps.edges.pred.iter().zip(&deps.edges.succ) {
        if !seen.insert((p, s)) {
            continue;
        }
        let k = *slot.entry(p).or_insert_with(|| {
            out.push((p, Vec::new()));
            out.len() - 1
        });
        if let Some((_, v)) = out.get_mut(k) {
            v.push(s);
        }
    }
    out
}

/// Computes both views' arrows. `func_ids` per joined row ([`crate::tasks::func_ids`]).
pub fn compute(tasks: &JoinedTasks, func_ids: &(impl FuncIdOf + ?Sized), kinds: &TaskKinds, deps: &Deps) -> HbReport {
    compute_edges(tasks, func_ids, kinds, &edges_by_pred(deps))
}

/// Arrows of both views for the given logical edges (`pred -> [succ]`), e.g. a dependency
/// closure around one task (the timeline's dependency query).
pub fn compute_edges(tasks: &JoinedTasks, func_ids: &(impl FuncIdOf + ?Sized), kinds: &TaskKinds, edges: &[(u64, Vec<u64>)]) -> HbReport {
    let mut out = HbReport { logical_edges: edges.iter().map(|(_, v)| v.len()).sum(), ..HbReport::default() };
    let mut worker_cache: HashMap<u64, Vec<AnchorRef>> = HashMap::new();
    let mut worker =
        |id: u64| -> Vec<AnchorRef> { worker_cache.entry(id).or_insert_with(|| kinds.worker_anchors(tasks, func_ids, id)).clone() };
    for (p, succs) in edges {
        let pa = worker(*p);
        if pa.is_empty() {
            continue;
        }
        for &s in succs {
            let sa = worker(s);
            if sa.is_empty() {
                out.missing_successors.push((*p, s));
                continue;
            }
            for &a in &pa {
                let (a_start, a_end) = kinds.anchor_span_us(tasks, a);
                for &b in &sa {
                    let (b_start, _) = kinds.anchor_span_us(tasks, b);
                    out.worker.push(*p, s, a, b, a_start, b_start, a_end > b_start);
                }
            }
        }
    }
    let has_aicpu = (0..tasks.len()).any(|i| tasks.has_aicpu(i));
    if !has_aicpu {
        return out;
    }
    for (p, succs) in edges {
        let pa = kinds.scheduler_anchors(tasks, func_ids, *p);
        if pa.is_empty() {
            continue;
        }
        for &s in succs {
            let sa = kinds.scheduler_anchors(tasks, func_ids, s);
            for &a in &pa {
                let ai = a as usize;
                if !tasks.has_aicpu(ai) {
                    continue;
                }
                let a_disp = tasks.dispatch_us(ai).unwrap_or(0.0);
                let a_fin = tasks.finish_us(ai).unwrap_or(0.0);
                for &b in &sa {
                    let bi = b as usize;
                    if !tasks.has_aicpu(bi) {
                        continue;
                    }
                    let b_disp = tasks.dispatch_us(bi).unwrap_or(0.0);
                    out.scheduler.push(*p, s, AnchorRef::Row(a), AnchorRef::Row(b), a_disp, b_disp, a_fin > b_disp);
                }
            }
        }
    }
    out
}
