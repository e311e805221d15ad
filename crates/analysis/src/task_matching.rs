//! Task matching between two runs of the same workload (issue 19): which task of run B is
//! which task of run A, for the comparison of two captures (`pypto_replies::compare`, the
//! page's comparison and `pypto-viewer compare`).
//!
//! A **task** is one task id with AICore rows ([`TaskSpans`]): all its rows together (SPMD
//! blocks, MIX cluster cores). Its **exec** is last end − first start over those rows (kernel
//! time, setup excluded; for an SPMD task the span of its blocks, not their sum). Its
//! **function** is its rows' function name (the reference converter's name: name map entry,
//! else `func_<id>_<letters>`); a MIX task whose rows run different kernels gets their
//! distinct names in func-id order joined by ` + ` (as `deps_viewer` labels MIX nodes).
//!
//! Matching ([`match_tasks`]), two rules, the first that pairs a task decides:
//! 1. **id**: same function and same task id (ring id and local id).
//! 2. **order**: the tasks of a function left unmatched on each side, ordered by first start
//!    (then task id), are paired k-th with k-th (the k-th execution of the function in A with
//!    the k-th in B); the surplus of the longer side stays unmatched.
//!
//! O(n log n) in the tasks: the id rule is a merge of the two id-sorted lists, the order rule
//! one sort of the leftovers by (function, start, id).

use std::collections::HashMap;

use crate::tasks::{FuncIdOf, JoinedTasks};

/// "No partner" in [`Matching`].
pub const NO_PARTNER: u32 = u32::MAX;

/// The tasks of one run, one entry per task id with AICore rows, ascending by task id (see
/// the module doc).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TaskSpans {
    pub task_id: Vec<u64>,
    /// Index into [`TaskSpans::functions`].
    pub function: Vec<u32>,
    /// First kernel start and last kernel end over the task's rows, µs.
    pub start_us: Vec<f64>,
    pub end_us: Vec<f64>,
    /// Distinct function labels, in first-seen order.
    pub functions: Vec<String>,
}

impl TaskSpans {
    pub fn len(&self) -> usize {
        self.task_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.task_id.is_empty()
    }

    /// Task `i`'s exec: last end − first start (0 past the end).
    pub fn exec_us(&self, i: usize) -> f64 {
        match (self.start_us.get(i), self.end_us.get(i)) {
            (Some(s), Some(e)) => e - s,
            _ => 0.0,
        }
    }

    /// Task `i`'s function label (`""` past the end).
    pub fn function_of(&self, i: usize) -> &str {
        self.function.get(i).and_then(|&f| self.functions.get(f as usize)).map_or("", String::as_str)
    }

    /// Index of `task_id`.
    pub fn index_of(&self, task_id: u64) -> Option<usize> {
        self.task_id.binary_search(&task_id).ok()
    }

    /// The tasks of joined rows `tasks` whose resolved func ids are `func_ids`, a func id's
    /// function name given by `name` (called once per distinct func id).
    pub fn from_rows(tasks: &JoinedTasks, func_ids: &(impl FuncIdOf + ?Sized), name: impl Fn(i64) -> String) -> Self {
        let ids: Vec<u64> = tasks.task_id.iter().collect();
        // Row indices by task id (the join leaves them sorted in a single-epoch capture).
        let mut order: Vec<u32> = (0..ids.len() as u32).collect();
        if !ids.is_sorted() {
            order.sort_by_key(|&r| (ids.get(r as usize).copied().unwrap_or(u64::MAX), r));
        }
        let mut names: HashMap<i64, String> = HashMap::new();
        let mut name_of = |f: i64| -> String { names.entry(f).or_insert_with(|| name(f)).clone() };
        let mut labels: HashMap<String, u32> = HashMap::new();
        let mut out = Self::default();
        let mut group_fids: Vec<i64> = Vec::new();
        let mut k = 0usize;
        while let Some(&first) = order.get(k) {
            let id = ids.get(first as usize).copied().unwrap_or(0);
            let (mut start, mut end) = (f64::INFINITY, f64::NEG_INFINITY);
            group_fids.clear();
            while let Some(&r) = order.get(k) {
                let r = r as usize;
                if ids.get(r) != Some(&id) {
                    break;
                }
                start = start.min(tasks.start_us(r).unwrap_or(f64::INFINITY));
                end = end.max(tasks.end_us(r).unwrap_or(f64::NEG_INFINITY));
                group_fids.push(func_ids.func_id(r));
                k += 1;
            }
            group_fids.sort_unstable();
            group_fids.dedup();
            let mut label = String::new();
            let mut seen: Vec<String> = Vec::new();
            for &f in &group_fids {
                let n = name_of(f);
                if !seen.contains(&n) {
                    if !label.is_empty() {
                        label.push_str(" + ");
                    }
                    label.push_str(&n);
                    seen.push(n);
                }
            }
            let next = out.functions.len() as u32;
            let f = *labels.entry(label.clone()).or_insert_with(|| {
                out.functions.push(label);
                next
            });
            out.task_id.push(id);
            out.function.push(f);
            out.start_us.push(if start.is_finite() { start } else { 0.0 });
            out.end_us.push(if end.is_finite() { end } else { 0.0 });
        }
        out
    }
}

/// How a pair was matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum MatchRule {
    /// Same function and task id.
    Id,
    /// k-th execution of the function.
    Order,
}

impl MatchRule {
    /// `"id"` | `"order"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Id => "id",
            Self::Order => "order",
        }
    }
}

/// The matching of A's tasks with B's (indices into their [`TaskSpans`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Matching {
    /// Per A task: its B partner, or [`NO_PARTNER`].
    pub partner_of_a: Vec<u32>,
    /// Per B task: its A partner, or [`NO_PARTNER`].
    pub partner_of_b: Vec<u32>,
    /// Per A task: matched by id (else by order, when it has a partner).
    pub by_id: Vec<bool>,
    pub matched_by_id: usize,
    pub matched_by_order: usize,
}

impl Matching {
    pub fn matched(&self) -> usize {
        self.matched_by_id + self.matched_by_order
    }

    pub fn only_a(&self) -> usize {
        self.partner_of_a.len() - self.matched()
    }

    pub fn only_b(&self) -> usize {
        self.partner_of_b.len() - self.matched()
    }

    /// Every pair `(a index, b index, rule)`, in A's order.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize, MatchRule)> + '_ {
        self.partner_of_a
            .iter()
            .zip(&self.by_id)
            .enumerate()
            .filter(|(_, (&p, _))| p != NO_PARTNER)
            .map(|(a, (&p, &by_id))| (a, p as usize, if by_id { MatchRule::Id } else { MatchRule::Order }))
    }

    /// The partner of task `index` of A (`side_b` false) or B, with the rule.
    pub fn partner(&self, side_b: bool, index: usize) -> Option<(usize, MatchRule)> {
        let partners = if side_b { &self.partner_of_b } else { &self.partner_of_a };
        let p = *partners.get(index).filter(|&&p| p != NO_PARTNER)?;
        let a = if side_b { p as usize } else { index };
        let rule = if self.by_id.get(a).copied().unwrap_or(false) { MatchRule::Id } else { MatchRule::Order };
        Some((p as usize, rule))
    }
}

/// Matches the tasks of B with those of A (see the module doc).
pub fn match_tasks(a: &TaskSpans, b: &TaskSpans) -> Matching {
    // Functions of both sides as one numbering, by label.
    fn number<'a>(common: &mut HashMap<&'a str, u32>, labels: &'a [String]) -> Vec<u32> {
        labels
            .iter()
            .map(|l| {
                let next = common.len() as u32;
                *common.entry(l.as_str()).or_insert(next)
            })
            .collect()
    }
    let mut common: HashMap<&str, u32> = HashMap::new();
    let (fa, fb) = (number(&mut common, &a.functions), number(&mut common, &b.functions));
    let func = |map: &[u32], spans: &TaskSpans, i: usize| -> u32 {
        spans.function.get(i).and_then(|&f| map.get(f as usize)).copied().unwrap_or(u32::MAX)
    };
    let mut matching = Matching {
        partner_of_a: vec![NO_PARTNER; a.len()],
        partner_of_b: vec![NO_PARTNER; b.len()],
        by_id: vec![false; a.len()],
        ..Matching::default()
    };
    // 1. id: both lists ascend by task id.
    let (mut i, mut j) = (0usize, 0usize);
    while let (Some(&x), Some(&y)) = (a.task_id.get(i), b.task_id.get(j)) {
        match x.cmp(&y) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                if func(&fa, a, i) == func(&fb, b, j) {
                    pair(&mut matching, i, j, true);
                }
                i += 1;
                j += 1;
            }
        }
    }
    // 2. order: the leftovers of each function by (start, id), k-th with k-th.
    let leftovers = |spans: &TaskSpans, map: &[u32], partners: &[u32]| -> Vec<(u32, f64, u64, u32)> {
        let mut left: Vec<(u32, f64, u64, u32)> = partners
            .iter()
            .enumerate()
            .filter(|(_, &p)| p == NO_PARTNER)
            .map(|(k, _)| {
                (func(map, spans, k), spans.start_us.get(k).copied().unwrap_or(0.0), spans.task_id.get(k).copied().unwrap_or(0), k as u32)
            })
            .collect();
        left.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)).then(x.2.cmp(&y.2)));
        left
    };
    let (la, lb) = (leftovers(a, &fa, &matching.partner_of_a), leftovers(b, &fb, &matching.partner_of_b));
    let (mut i, mut j) = (0usize, 0usize);
    while let (Some(x), Some(y)) = (la.get(i), lb.get(j)) {
        match x.0.cmp(&y.0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                pair(&mut matching, x.3 as usize, y.3 as usize, false);
                i += 1;
                j += 1;
            }
        }
    }
    matching
}

fn pair(m: &mut Matching, a: usize, b: usize, by_id: bool) {
    if let (Some(pa), Some(pb), Some(id)) = (m.partner_of_a.get_mut(a), m.partner_of_b.get_mut(b), m.by_id.get_mut(a)) {
        *pa = b as u32;
        *pb = a as u32;
        *id = by_id;
        if by_id {
            m.matched_by_id += 1;
        } else {
            m.matched_by_order += 1;
        }
    }
}

/// A matching kept for lookups by task id (the page's "highlight the match in the other
/// run"): both runs' task ids and the partners.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MatchIndex {
    a_ids: Vec<u64>,
    b_ids: Vec<u64>,
    matching: Matching,
}

impl MatchIndex {
    pub fn new(a: &TaskSpans, b: &TaskSpans, matching: Matching) -> Self {
        Self { a_ids: a.task_id.clone(), b_ids: b.task_id.clone(), matching }
    }

    /// The partner of task `task_id` of A (`side_b` false) or B: its task id and the rule;
    /// `None` when it is unmatched or no task with AICore rows of that side.
    pub fn other(&self, side_b: bool, task_id: u64) -> Option<(u64, MatchRule)> {
        let (mine, theirs) = if side_b { (&self.b_ids, &self.a_ids) } else { (&self.a_ids, &self.b_ids) };
        let index = mine.binary_search(&task_id).ok()?;
        let (p, rule) = self.matching.partner(side_b, index)?;
        Some((*theirs.get(p)?, rule))
    }

    pub fn matching(&self) -> &Matching {
        &self.matching
    }
}

/// Mean, median and a histogram of per-task Δs.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct DeltaStats {
    pub mean: f64,
    pub median: f64,
    /// `bins + 1` edges from the smallest Δ to the largest (one bin `[x, x]` when all equal).
    pub edges: Vec<f64>,
    /// `counts[i]` Δs in `[edges[i], edges[i + 1])`, the last bin closed.
    pub counts: Vec<u64>,
}

/// [`DeltaStats`] of `deltas` (reordered) in `bins` equal-width bins; `None` when empty.
pub fn delta_stats(deltas: &mut [f64], bins: usize) -> Option<DeltaStats> {
    if deltas.is_empty() {
        return None;
    }
    deltas.sort_by(f64::total_cmp);
    let n = deltas.len();
    let mean = deltas.iter().sum::<f64>() / n as f64;
    let mid = |k: usize| deltas.get(k).copied().unwrap_or(0.0);
    let median = if n % 2 == 1 { mid(n / 2) } else { f64::midpoint(mid(n / 2 - 1), mid(n / 2)) };
    let (lo, hi) = (mid(0), mid(n - 1));
    let bins = if hi > lo { bins.max(1) } else { 1 };
    let width = (hi - lo) / bins as f64;
    let edges: Vec<f64> = (0..=bins).map(|k| if k == bins { hi } else { lo + width * k as f64 }).collect();
    let mut counts = vec![0u64; bins];
    for &d in deltas.iter() {
        let k = if width > 0.0 { (((d - lo) / width) as usize).min(bins - 1) } else { 0 };
        if let Some(c) = counts.get_mut(k) {
            *c += 1;
        }
    }
    Some(DeltaStats { mean, median, edges, counts })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::float_cmp)]
mod tests {
    use super::*;
    use pypto_formats::records::CoreType;

    /// Rows `(task id, func id, start, end)` as joined tasks (µs) and their func ids.
    fn rows(list: &[(u64, i64, f64, f64)]) -> (JoinedTasks, Vec<i64>) {
        let mut t = JoinedTasks::default();
        for &(id, _, s, e) in list {
            t.push_us(id, 0, CoreType::Aiv, [s, e, 0.0, 0.0, s]);
        }
        (t, list.iter().map(|r| r.1).collect())
    }

    fn spans(list: &[(u64, i64, f64, f64)]) -> TaskSpans {
        let (t, f) = rows(list);
        TaskSpans::from_rows(&t, &f, |f| ["QK", "SF", "PV"].get(f as usize).map_or_else(|| format!("f{f}"), |s| (*s).to_owned()))
    }

    #[test]
    fn a_task_is_all_its_rows_spmd_and_mix_together() {
        // Task 7: an SPMD task of three blocks (rows out of id order); task 9: MIX (QK + SF).
        let s = spans(&[(9, 1, 50.0, 60.0), (7, 0, 10.0, 12.0), (9, 0, 48.0, 55.0), (7, 0, 11.0, 20.0), (7, 0, 9.0, 11.0)]);
        assert_eq!(s.task_id, vec![7, 9]);
        assert_eq!((s.start_us[0], s.end_us[0], s.exec_us(0)), (9.0, 20.0, 11.0));
        assert_eq!(s.function_of(0), "QK");
        assert_eq!(s.function_of(1), "QK + SF");
        assert_eq!(s.exec_us(1), 12.0);
    }

    #[test]
    fn same_function_and_id_match_by_id() {
        let a = spans(&[(1, 0, 0.0, 5.0), (2, 1, 5.0, 7.0), (3, 2, 7.0, 9.0)]);
        let b = spans(&[(1, 0, 0.0, 6.0), (2, 1, 6.0, 9.0), (3, 2, 9.0, 10.0)]);
        let m = match_tasks(&a, &b);
        assert_eq!((m.matched_by_id, m.matched_by_order, m.only_a(), m.only_b()), (3, 0, 0, 0));
        assert_eq!(m.pairs().collect::<Vec<_>>(), vec![(0, 0, MatchRule::Id), (1, 1, MatchRule::Id), (2, 2, MatchRule::Id)]);
    }

    #[test]
    fn other_ids_fall_back_to_the_kth_execution_of_the_function() {
        // A: QK as ids 1, 2 (1 starts later); B: QK as ids 10, 11, SF as id 2 (same id as A's
        // QK 2, another function: no id match).
        let a = spans(&[(1, 0, 30.0, 35.0), (2, 0, 0.0, 5.0)]);
        let b = spans(&[(2, 1, 0.0, 1.0), (10, 0, 1.0, 8.0), (11, 0, 20.0, 22.0)]);
        let m = match_tasks(&a, &b);
        assert_eq!((m.matched_by_id, m.matched_by_order, m.only_a(), m.only_b()), (0, 2, 0, 1));
        // First-starting A QK (id 2) ↔ first-starting B QK (id 10).
        let idx = MatchIndex::new(&a, &b, m);
        assert_eq!(idx.other(false, 2), Some((10, MatchRule::Order)));
        assert_eq!(idx.other(false, 1), Some((11, MatchRule::Order)));
        assert_eq!(idx.other(true, 11), Some((1, MatchRule::Order)));
        assert_eq!(idx.other(true, 2), None, "B's SF has no partner");
        assert_eq!(idx.other(false, 99), None, "no such task");
    }

    #[test]
    fn id_first_then_order_with_only_a_and_only_b() {
        // QK: A {1, 2, 3}, B {1, 5}: 1 by id, then A's 2 (start 10) ↔ B's 5, A's 3 only A.
        // SF: A {}, B {8}: only B. PV: A {4}, B {}: only A.
        let a = spans(&[(1, 0, 0.0, 1.0), (2, 0, 10.0, 11.0), (3, 0, 20.0, 21.0), (4, 2, 3.0, 4.0)]);
        let b = spans(&[(1, 0, 0.0, 2.0), (5, 0, 30.0, 31.0), (8, 1, 2.0, 3.0)]);
        let m = match_tasks(&a, &b);
        assert_eq!((m.matched(), m.matched_by_id, m.matched_by_order, m.only_a(), m.only_b()), (2, 1, 1, 2, 1));
        let idx = MatchIndex::new(&a, &b, m);
        assert_eq!(idx.other(false, 1), Some((1, MatchRule::Id)));
        assert_eq!(idx.other(false, 2), Some((5, MatchRule::Order)));
        assert_eq!(idx.other(false, 3), None);
        assert_eq!(idx.other(false, 4), None);
        assert_eq!(idx.other(true, 8), None);
    }

    #[test]
    fn spmd_tasks_match_as_one_task_each() {
        // One SPMD task of 4 blocks each side, ids differ: one order match, exec = span.
        let a = spans(&[(3, 0, 0.0, 4.0), (3, 0, 1.0, 6.0), (3, 0, 0.5, 2.0), (3, 0, 2.0, 3.0)]);
        let b = spans(&[(4, 0, 10.0, 12.0), (4, 0, 10.0, 19.0), (4, 0, 11.0, 13.0), (4, 0, 12.0, 14.0)]);
        let m = match_tasks(&a, &b);
        assert_eq!((a.len(), b.len(), m.matched_by_order, m.only_a(), m.only_b()), (1, 1, 1, 0, 0));
        assert_eq!(b.exec_us(0) - a.exec_us(0), 9.0 - 6.0);
    }

    #[test]
    fn delta_statistics() {
        let mut d = vec![3.0, -1.0, 1.0, 5.0];
        let s = delta_stats(&mut d, 3).unwrap();
        assert_eq!((s.mean, s.median), (2.0, 2.0));
        assert_eq!(s.edges, vec![-1.0, 1.0, 3.0, 5.0]);
        assert_eq!(s.counts, vec![1, 1, 2], "the last bin holds its upper edge");
        let same = delta_stats(&mut [0.5, 0.5], 10).unwrap();
        assert_eq!((same.edges, same.counts), (vec![0.5, 0.5], vec![2]));
        assert!(delta_stats(&mut [], 4).is_none());
    }
}
