//! Continuous single-dependency chains (toolkit-features.md I7): runs of compute tasks where
//! each link `p → s` has `s` with exactly one predecessor and `p` with exactly one successor —
//! merge candidates that would save a scheduling round trip per link. Built from `deps.json`.
//!
//! Rules used here:
//!
//! - Edges: the unique `(pred, succ)` pairs of `deps.json` (annotation rows of one pair count
//!   once), self edges dropped.
//! - Non-compute tasks are removed first, with all their edges: **alloc** (an edge endpoint not
//!   in `tasks[]`), **dummy** (a task whose `kernel_ids` are all −1 — only when the file has
//!   kernel ids), and, when records are given, every task that ran on the scheduler
//!   (`dummy_task` / `predicated_skip` records: the Worker View `AICPU_N` lanes).
//!   Degrees are counted on the remaining compute-only graph, so an alloc `creator` edge does
//!   not make a task "multi-dependency", and a dummy relay breaks a chain (the dummy is
//!   scheduler work between the two kernels, not a merge candidate).
//! - A chain is a maximal path of such links (each task has at most one incoming and one
//!   outgoing link, so chains are disjoint simple paths) with at least 2 tasks.
//! - Order: longest first, then by the head's position in `deps.json` `tasks[]`.

use pypto_formats::deps::Deps;
use pypto_formats::records::{ChipRecords, SchedKind};
use std::collections::{HashMap, HashSet};

/// The chains as a flat list: chain `c` is `task_id[offsets[c]..offsets[c + 1]]`, head first.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Chains {
    pub offsets: Vec<u32>,
    pub task_id: Vec<u64>,
    /// Tasks left out as non-compute (alloc, dummy, scheduler-run).
    pub excluded_tasks: usize,
    /// Unique edges among compute tasks.
    pub compute_edges: usize,
}

impl Chains {
    /// Number of chains.
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Task ids of chain `c` (empty if out of range).
    pub fn chain(&self, c: usize) -> &[u64] {
        let lo = self.offsets.get(c).copied().unwrap_or(0) as usize;
        let hi = self.offsets.get(c + 1).copied().unwrap_or(0) as usize;
        self.task_id.get(lo..hi).unwrap_or(&[])
    }
}

/// Finds the chains (see the module doc).
pub fn single_dep_chains(deps: &Deps, records: Option<&ChipRecords>) -> Chains {
    let mut position: HashMap<u64, usize> = HashMap::with_capacity(deps.tasks.len());
    let mut excluded: HashSet<u64> = HashSet::new();
    for (i, &id) in deps.tasks.task_id.iter().enumerate() {
        position.entry(id).or_insert(i);
        let has_k = deps.tasks.has_kernel_ids.get(i).copied().unwrap_or(false);
        if has_k && deps.tasks.is_dummy(i) {
            excluded.insert(id);
        } else {
            excluded.remove(&id);
        }
    }
    if let Some(r) = records {
        for th in &r.sched_threads {
            for (k, id) in th.kind.iter().zip(th.task_id.iter()) {
                if matches!(k, SchedKind::DummyTask | SchedKind::PredicatedSkip) {
                    if let Some(id) = id {
                        excluded.insert(id);
                    }
                }
            }
        }
    }
    let mut seen: HashSet<(u64, u64)> = HashSet::new();
    let mut edges: Vec<(u64, u64)> = Vec::new();
    for (&p, &s) in deps.edges.pred.iter().zip(&deps.edges.succ) {
        for id in [p, s] {
            if !position.contains_key(&id) {
                excluded.insert(id); // alloc
            }
        }
        if p == s || excluded.contains(&p) || excluded.contains(&s) || !seen.insert((p, s)) {
            continue;
        }
        edges.push((p, s));
    }
    let mut indeg: HashMap<u64, u32> = HashMap::new();
    let mut outdeg: HashMap<u64, u32> = HashMap::new();
    for &(p, s) in &edges {
        *outdeg.entry(p).or_default() += 1;
        *indeg.entry(s).or_default() += 1;
    }
    let mut next: HashMap<u64, u64> = HashMap::new();
    let mut has_prev: HashSet<u64> = HashSet::new();
    for &(p, s) in &edges {
        if indeg.get(&s) == Some(&1) && outdeg.get(&p) == Some(&1) {
            next.insert(p, s);
            has_prev.insert(s);
        }
    }
    let mut chains: Vec<Vec<u64>> = Vec::new();
    for (&head, _) in next.iter().filter(|(h, _)| !has_prev.contains(h)) {
        let mut c = vec![head];
        let mut cur = head;
        while let Some(&n) = next.get(&cur) {
            if c.len() > next.len() {
                break; // unreachable on a DAG; guards a cyclic file
            }
            c.push(n);
            cur = n;
        }
        chains.push(c);
    }
    let pos = |id: u64| position.get(&id).copied().unwrap_or(usize::MAX);
    chains.sort_by(|a, b| {
        b.len()
            .cmp(&a.len())
            .then_with(|| pos(a.first().copied().unwrap_or(0)).cmp(&pos(b.first().copied().unwrap_or(0))))
            .then_with(|| a.first().cmp(&b.first()))
    });
    let mut out = Chains { offsets: vec![0], excluded_tasks: excluded.len(), compute_edges: edges.len(), ..Chains::default() };
    for c in chains {
        out.task_id.extend_from_slice(&c);
        out.offsets.push(out.task_id.len() as u32);
    }
    out
}
