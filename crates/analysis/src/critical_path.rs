//! Critical paths of one capture (runtime-formats.md §4, simpler's `critical_path.py`): the
//! per-task happens-before graph in device ticks, the static CPM path, the observed
//! (as-executed) path with its compute / stall tiling of the makespan, kernel families and the
//! `critical_path_report.md` text. For the CLI report, the Performance Analysis panel (critical
//! path highlight, gap & blocker) and the golden tests against `CPM_*.json`.
//!
//! Everything is computed from the records (+ `deps.json`, + a name map for names); no CPM file
//! is needed. Rules, exactly as the reference:
//!
//! - **Tasks** (§4.2): every `aicore_tasks` row (joined or not), grouped by `task_token_raw`;
//!   `start = min(start)`, `end = max(end)`, `dur = end - start`, `blocks` = row count. Task
//!   order = first appearance in the file (the reference's dict order; it decides ties).
//!   Receive/setup is ignored. Rows of 5 or 7 columns are read too (the reference crashes on
//!   them); 7-column rows of several run epochs merge by task id (warned).
//!   Object ("v1", µs) files have no cycles: ticks are rebuilt as `round(us * f / 1e6)` with
//!   `f = clock_freq_hz` (1 GHz if absent), warned.
//! - **Names**: the first non-negative `kernel_ids` entry of the task in `deps.json` (last
//!   entry wins for a duplicated id), looked up in the name map, else `cid<N>`, else `unknown`.
//!   (The reference reads only `callable_id_to_name`; a flat name map is read here too.)
//! - **Happens-before edges**: deps edges deduplicated in file order, self edges and edges
//!   with an untimed endpoint skipped; `p -> s` kept iff `end[p] <= start[s] + tol` and
//!   `start[p] < start[s]` (`tol` = [`DEFAULT_TOL_TICKS`]). Without `deps.json` there are no
//!   data edges (the path is then made of core-wait links only; warned).
//! - **Same-core predecessor**: per core (first-appearance order) slices sorted by
//!   `(start, end, decimal task id string)`; running `(best_end, best_task)` updated when
//!   `end > best_end`; a slice that is its task's first (`start == start[t]`) with another
//!   `best_task` and `best_end <= start + tol` records `core_prev[t] = (best_task, best_end)`,
//!   keeping the largest `best_end` over the task's cores (first core wins ties).
//! - **Kahn order** seeded in task order, successors in the reference's order; a cycle is
//!   [`CriticalPathError::Cyclic`].
//! - **Static CPM** (§4.3): `finish[v] = dur[v] + max(finish[p])` (a predecessor replaces the
//!   current best only when strictly larger than it, best starting at 0); sink = first task in
//!   Kahn order with the largest finish.
//! - **Observed path** (§4.4): from the first task with the largest end, candidates are the
//!   kept data predecessors (`data-wait`, scored by `end[p]`) and the same-core predecessor
//!   (`core-wait`, scored by the slice end); the largest `(end, decimal id string, kind)` wins;
//!   no candidate → `front-gap`, stop. Tiling from `frontier = t0`:
//!   `stall = max(0, start - frontier)`, `compute = max(0, end - max(start, frontier))`,
//!   `frontier = max(frontier, end)`; stall is attributed to the task's kind.
//! - **Kernel family**: the name without a trailing `(_<digits>)?(_(aic|aiv))?`.
//! - **µs** = `ticks / clock_freq_hz * 1e6` (the report's rule; durations only).

use crate::timebase::Timebase;
use pypto_formats::deps::Deps;
use pypto_formats::name_map::NameMap;
use pypto_formats::records::ChipRecords;
use pypto_formats::{Warning, WarningKind};
use pypto_vocab::TaskId;
use rustc_hash::FxHashMap as HashMap;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::VecDeque;
use std::fmt::{self, Write as _};

/// The reference's default tick tolerance (`--tol 2`).
pub const DEFAULT_TOL_TICKS: u64 = 2;
/// The reference's default number of kernel-family rows (`--top 25`).
pub const DEFAULT_TOP_FAMILIES: usize = 25;

/// Why no critical path could be computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CriticalPathError {
    /// The records hold no AICore rows (empty or failed profiling run).
    NoTasks,
    /// `metadata.clock_freq_hz` is 0 (µs cannot be computed).
    NoClock,
    /// The happens-before graph is cyclic: Kahn's order reached `ordered` of `total` tasks.
    Cyclic { ordered: usize, total: usize },
}

impl fmt::Display for CriticalPathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoTasks => f.write_str("critical path: no aicore_tasks records (empty or failed profiling run?)"),
            Self::NoClock => f.write_str("critical path: metadata.clock_freq_hz is 0"),
            Self::Cyclic { ordered, total } => write!(f, "critical path: happens-before graph is cyclic ({ordered}/{total})"),
        }
    }
}

impl std::error::Error for CriticalPathError {}

/// Blame class of the stall before an observed-path task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum StallKind {
    /// Waiting on an upstream producer (a kept data predecessor).
    DataWait,
    /// Waiting for the assigned core to be freed (same-core predecessor).
    CoreWait,
    /// The path head: launch/dispatch delay before the first task.
    FrontGap,
}

impl StallKind {
    /// `data-wait` | `core-wait` | `front-gap`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::DataWait => "data-wait",
            Self::CoreWait => "core-wait",
            Self::FrontGap => "front-gap",
        }
    }
}

/// Per-task graph in device ticks (columns indexed by task index = first-appearance order).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TaskGraph {
    pub clock_freq_hz: u64,
    pub task_id: Vec<u64>,
    pub start_ticks: Vec<u64>,
    pub end_ticks: Vec<u64>,
    /// `end - start` (0 if a row ends before it starts).
    pub dur_ticks: Vec<u64>,
    /// AICore rows of the task.
    pub blocks: Vec<u32>,
    /// Kernel name of each task (see the module doc): an index into `names`, the distinct
    /// names (one `String` per task would cost ~60 bytes a task at load).
    pub name_index: Vec<u32>,
    pub names: Vec<String>,
    /// Kept happens-before predecessors of task `i`: `hb_preds[hb_pred_offsets[i]..[i + 1]]`
    /// (task indices, deps edge order).
    pub hb_pred_offsets: Vec<u32>,
    pub hb_preds: Vec<u32>,
    /// Same-core predecessor `(task index, end ticks of its slice)`.
    pub core_prev: Vec<Option<(u32, u64)>>,
    /// Global min start / max end.
    pub t0_ticks: u64,
    pub t1_ticks: u64,
    /// Number of kept happens-before edges.
    pub kept_edges: usize,
    /// Tolerance used to build the graph.
    pub tol_ticks: u64,
    /// Absolute µs of raw device ticks (`None` for v1 files, whose ticks are rebuilt from µs).
    pub timebase: Option<Timebase>,
    pub warnings: Vec<Warning>,
    index: HashMap<u64, u32>,
    /// Rank of the first kept edge into each task (Kahn successor order).
    first_kept_rank: Vec<Option<u32>>,
}

impl TaskGraph {
    pub fn len(&self) -> usize {
        self.task_id.len()
    }
    pub fn is_empty(&self) -> bool {
        self.task_id.is_empty()
    }
    /// Kernel name of task `i` (empty out of range).
    pub fn name(&self, i: usize) -> &str {
        self.name_index.get(i).and_then(|&n| self.names.get(n as usize)).map_or("", String::as_str)
    }
    /// Task index of a task id.
    pub fn index_of(&self, task_id: u64) -> Option<usize> {
        self.index.get(&task_id).map(|&i| i as usize)
    }
    /// Kept data predecessors of task index `i`.
    pub fn preds(&self, i: usize) -> &[u32] {
        let lo = self.hb_pred_offsets.get(i).copied().unwrap_or(0) as usize;
        let hi = self.hb_pred_offsets.get(i + 1).copied().unwrap_or(0) as usize;
        self.hb_preds.get(lo..hi).unwrap_or(&[])
    }
    /// Tick duration → µs (`ticks / f * 1e6`).
    pub fn us(&self, ticks: u64) -> f64 {
        ticks_to_us(ticks, self.clock_freq_hz)
    }
    /// Absolute tick → µs on the capture's time axis (the Worker View's µs).
    pub fn abs_us(&self, ticks: u64) -> f64 {
        match &self.timebase {
            Some(tb) => tb.us(ticks),
            None => ticks_to_us(ticks, self.clock_freq_hz),
        }
    }
    fn start(&self, i: usize) -> u64 {
        self.start_ticks.get(i).copied().unwrap_or(0)
    }
    fn end(&self, i: usize) -> u64 {
        self.end_ticks.get(i).copied().unwrap_or(0)
    }
    fn id(&self, i: usize) -> u64 {
        self.task_id.get(i).copied().unwrap_or(0)
    }
}

/// `ticks / freq * 1e6` (0.0 without a clock).
pub fn ticks_to_us(ticks: u64, clock_freq_hz: u64) -> f64 {
    if clock_freq_hz == 0 {
        return 0.0;
    }
    ticks as f64 / clock_freq_hz as f64 * 1e6
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64 * 100.0
    }
}

/// Compares two ids by their decimal strings (the reference keys tasks by `str(task_id)`).
fn cmp_id_str(a: u64, b: u64) -> Ordering {
    fn digits(mut v: u64, buf: &mut [u8; 20]) -> usize {
        let mut n = 20;
        loop {
            n -= 1;
            if let Some(slot) = buf.get_mut(n) {
                *slot = b'0' + (v % 10) as u8;
            }
            v /= 10;
            if v == 0 || n == 0 {
                return n;
            }
        }
    }
    let (mut ba, mut bb) = ([0u8; 20], [0u8; 20]);
    let (na, nb) = (digits(a, &mut ba), digits(b, &mut bb));
    ba.get(na..).cmp(&bb.get(nb..))
}

/// Each of `task_ids`' kernel: the first active slot (`>= 0`) of its *last* deps.json entry
/// (`dep_ids[i]`, `dep_kernels[i]`), `None` when it has no entry or the entry has none.
///
/// A merge of both lists walked in id order (4 bytes of index per task and per entry), where a
/// binary search per task through an index of the entries missed the cache about forty times
/// a task (~2 s of a 1M-task load).
fn kernels_by_task(task_ids: &[u64], dep_ids: &[u64], dep_kernels: &[[i64; 3]]) -> Vec<Option<i64>> {
    let mut out = vec![None; task_ids.len()];
    let entries = dep_ids.len().min(dep_kernels.len());
    if entries == 0 {
        return out;
    }
    // Stable sorts: among entries of one id, the last in the file stays last.
    let by_id = |ids: &[u64], n: usize| -> Vec<u32> {
        let mut order: Vec<u32> = (0..n as u32).collect();
        if !ids.get(..n).unwrap_or_default().is_sorted() {
            order.sort_by_key(|&i| ids.get(i as usize).copied().unwrap_or(0));
        }
        order
    };
    let entries_by_id = by_id(dep_ids, entries);
    let tasks_by_id = by_id(task_ids, task_ids.len());
    let id_of_entry = |k: usize| entries_by_id.get(k).and_then(|&e| dep_ids.get(e as usize)).copied();
    let mut k = 0;
    for &t in &tasks_by_id {
        let Some(&id) = task_ids.get(t as usize) else { continue };
        while id_of_entry(k).is_some_and(|x| x < id) {
            k += 1;
        }
        // The last entry of this id, if any (`k` stays at the first: a task of the same id
        // would find it again).
        let mut last = None;
        let mut j = k;
        while id_of_entry(j) == Some(id) {
            last = entries_by_id.get(j).copied();
            j += 1;
        }
        if let Some(e) = last {
            if let Some(slot) = out.get_mut(t as usize) {
                *slot = dep_kernels.get(e as usize).and_then(|slots| slots.iter().copied().find(|&x| x >= 0));
            }
        }
    }
    out
}

/// The AICore slices `(core, task, start, end)` in row order: borrowed from the raw records
/// (a big capture's copy would be tens of MB), rebuilt from µs for v1 files.
struct Slices<'r> {
    core: Cow<'r, [u32]>,
    task: Cow<'r, [u64]>,
    start: Cow<'r, [u64]>,
    end: Cow<'r, [u64]>,
}

fn slices_of<'r>(records: &'r ChipRecords, warnings: &mut Vec<Warning>) -> (Slices<'r>, u64) {
    let f = records.metadata.clock_freq_hz;
    if let Some(v1) = &records.v1_tasks {
        let freq = if f > 0 { f } else { 1_000_000_000 };
        warnings.push(
            Warning::analysis(
                WarningKind::CriticalPathFromMicroseconds,
                format!("object-format records carry µs, not cycles: ticks rebuilt as round(µs × {freq} / 1e6)"),
            )
            .text("freq", freq),
        );
        let to_ticks = |us: f64| -> u64 {
            let t = (us * freq as f64 / 1e6).round();
            if t.is_finite() && t > 0.0 {
                t as u64
            } else {
                0
            }
        };
        let n = v1.task_id.len();
        let s = Slices {
            core: (0..n).map(|i| v1.core_id.get(i).copied().unwrap_or(0)).collect(),
            task: Cow::Borrowed(&v1.task_id),
            start: (0..n).map(|i| to_ticks(v1.start_us.get(i).copied().unwrap_or(0.0))).collect(),
            end: (0..n).map(|i| to_ticks(v1.end_us.get(i).copied().unwrap_or(0.0))).collect(),
        };
        return (s, freq);
    }
    let a = &records.aicore;
    if a.has_run_epoch() && a.run_epoch.iter().any(|&e| e != a.run_epoch.first().copied().unwrap_or(0)) {
        warnings.push(Warning::analysis(
            WarningKind::CriticalPathSeveralEpochs,
            "records hold several run epochs: rows of one task id across epochs are merged",
        ));
    }
    let s = Slices {
        core: Cow::Borrowed(&a.core_id),
        task: Cow::Borrowed(&a.task_id),
        start: Cow::Borrowed(&a.start_cycles),
        end: Cow::Borrowed(&a.end_cycles),
    };
    (s, f)
}

/// Drops every `(succ, pred)` pair of `edges` that appeared earlier, keeping the order of the
/// rest: edges grouped by succ (a counting sort over the `n` tasks), then repeats found within
/// each succ's list.
fn drop_repeated_pairs(edges: &mut Vec<(u32, u32)>, n: usize) {
    // Edge ranks grouped by succ, in file order within a succ.
    let (offsets, by_succ) = crate::task_kinds::csr_of(n, edges.iter().enumerate().map(|(rank, &(s, _))| (s, rank as u32)));
    let mut repeat = vec![false; edges.len()];
    let pred_of = |rank: u32| edges.get(rank as usize).map_or(0, |e| e.1);
    let mut scratch: Vec<(u32, u32)> = Vec::new();
    for w in offsets.windows(2) {
        let Some(group) = by_succ.get(w[0] as usize..w[1] as usize) else { continue };
        if group.len() <= 16 {
            for (k, &rank) in group.iter().enumerate() {
                let p = pred_of(rank);
                if group.get(..k).unwrap_or_default().iter().any(|&r| pred_of(r) == p) {
                    if let Some(f) = repeat.get_mut(rank as usize) {
                        *f = true;
                    }
                }
            }
        } else {
            scratch.clear();
            scratch.extend(group.iter().map(|&rank| (pred_of(rank), rank)));
            scratch.sort_unstable();
            for pair in scratch.windows(2) {
                if pair[0].0 == pair[1].0 {
                    if let Some(f) = repeat.get_mut(pair[1].1 as usize) {
                        *f = true;
                    }
                }
            }
        }
    }
    drop(by_succ);
    let mut flags = repeat.iter();
    edges.retain(|_| !flags.next().copied().unwrap_or(false));
}

/// Builds the per-task happens-before graph (§4.2). `deps` absent → no data edges (warned);
/// `names` absent → `cid<N>` names.
#[allow(clippy::too_many_lines)] // one sequence of reference steps
pub fn build_graph(
    records: &ChipRecords,
    deps: Option<&Deps>,
    names: Option<&NameMap>,
    tol_ticks: u64,
) -> Result<TaskGraph, CriticalPathError> {
    let mut warnings = Vec::new();
    let (sl, freq) = slices_of(records, &mut warnings);
    if sl.task.is_empty() {
        return Err(CriticalPathError::NoTasks);
    }
    if freq == 0 {
        return Err(CriticalPathError::NoClock);
    }
    let mut g = TaskGraph {
        clock_freq_hz: freq,
        tol_ticks,
        timebase: records.v1_tasks.is_none().then(|| Timebase::from_records(records)),
        ..TaskGraph::default()
    };
    // Tasks in first-appearance order; cores in first-appearance order.
    let mut core_order: Vec<u32> = Vec::new();
    // Per core, its slices as row indices into `sl`; and each row's task index.
    let mut core_slices: HashMap<u32, Vec<u32>> = HashMap::default();
    let mut row_task: Vec<u32> = Vec::with_capacity(sl.task.len());
    let rows = sl.core.iter().zip(sl.task.iter()).zip(sl.start.iter()).zip(sl.end.iter());
    for (row, (((&core, &tid), &st), &en)) in rows.enumerate() {
        let i = if let Some(&i) = g.index.get(&tid) {
            i as usize
        } else {
            let i = g.task_id.len();
            g.index.insert(tid, i as u32);
            g.task_id.push(tid);
            g.start_ticks.push(st);
            g.end_ticks.push(en);
            g.blocks.push(0);
            i
        };
        if let Some(s) = g.start_ticks.get_mut(i) {
            *s = (*s).min(st);
        }
        if let Some(e) = g.end_ticks.get_mut(i) {
            *e = (*e).max(en);
        }
        if let Some(b) = g.blocks.get_mut(i) {
            *b += 1;
        }
        row_task.push(i as u32);
        core_slices
            .entry(core)
            .or_insert_with(|| {
                core_order.push(core);
                Vec::new()
            })
            .push(row as u32);
    }
    let n = g.task_id.len();
    g.dur_ticks = g.end_ticks.iter().zip(&g.start_ticks).map(|(&e, &s)| e.saturating_sub(s)).collect();
    g.t0_ticks = g.start_ticks.iter().copied().min().unwrap_or(0);
    g.t1_ticks = g.end_ticks.iter().copied().max().unwrap_or(0);

    // Names (in a block: the kernel lookup is freed before the edges are read). A task's
    // kernel is the first active slot of its last deps.json entry (none when that entry has
    // none), found through the entries' indices sorted by id: 4 bytes an entry, where a map
    // of the kernels took ~36 MB at 1M tasks.
    {
        let (dep_ids, dep_kernels): (&[u64], &[[i64; 3]]) = deps.map_or((&[], &[]), |d| (&d.tasks.task_id, &d.tasks.kernel_ids));
        let kernels = kernels_by_task(&g.task_id, dep_ids, dep_kernels);
        let mut name_of_kernel: HashMap<Option<i64>, u32> = HashMap::default();
        g.name_index = kernels
            .into_iter()
            .map(|cid| {
                *name_of_kernel.entry(cid).or_insert_with(|| {
                    g.names.push(match cid {
                        None => "unknown".to_owned(),
                        Some(cid) => names.and_then(|m| m.name(cid)).map_or_else(|| format!("cid{cid}"), str::to_owned),
                    });
                    g.names.len() as u32 - 1
                })
            })
            .collect();
    }

    // Happens-before edges: (succ, pred) in file order after dedup. Whether an edge is kept
    // depends only on its pair, so the repeats of a pair are dropped from the kept edges
    // afterwards (a set of every pair seen took ~38 MB at 2.4M edges).
    let mut kept: Vec<(u32, u32)> = Vec::new();
    match deps {
        Some(d) => {
            for (&p, &s) in d.edges.pred.iter().zip(&d.edges.succ) {
                if p == s {
                    continue;
                }
                let (Some(&pi), Some(&si)) = (g.index.get(&p), g.index.get(&s)) else {
                    continue;
                };
                let (pi, si) = (pi as usize, si as usize);
                if g.end(pi) <= g.start(si).saturating_add(tol_ticks) && g.start(pi) < g.start(si) {
                    kept.push((si as u32, pi as u32));
                }
            }
            drop_repeated_pairs(&mut kept, n);
        }
        None => warnings.push(Warning::analysis(
            WarningKind::CriticalPathWithoutDeps,
            "no deps.json: the critical paths use same-core links only (no data edges)",
        )),
    }
    g.kept_edges = kept.len();
    g.first_kept_rank = vec![None; n];
    for (r, &(s, _)) in kept.iter().enumerate() {
        if let Some(slot) = g.first_kept_rank.get_mut(s as usize) {
            if slot.is_none() {
                *slot = Some(r as u32);
            }
        }
    }
    // CSR by succ, keeping edge order within a succ.
    let mut counts = vec![0u32; n + 1];
    for &(s, _) in &kept {
        if let Some(c) = counts.get_mut(s as usize + 1) {
            *c += 1;
        }
    }
    for i in 0..n {
        let prev = counts.get(i).copied().unwrap_or(0);
        if let Some(c) = counts.get_mut(i + 1) {
            *c += prev;
        }
    }
    let mut fill = counts.clone();
    g.hb_preds = vec![0; kept.len()];
    for &(s, p) in &kept {
        if let Some(pos) = fill.get_mut(s as usize) {
            if let Some(slot) = g.hb_preds.get_mut(*pos as usize) {
                *slot = p;
            }
            *pos += 1;
        }
    }
    g.hb_pred_offsets = counts;

    // Same-core predecessor.
    g.core_prev = vec![None; n];
    for core in &core_order {
        let Some(list) = core_slices.get_mut(core) else {
            continue;
        };
        let at = |r: u32| {
            let r = r as usize;
            (sl.start.get(r).copied().unwrap_or(0), sl.end.get(r).copied().unwrap_or(0), sl.task.get(r).copied().unwrap_or(0))
        };
        list.sort_by(|&a, &b| {
            let ((sa, ea, ta), (sb, eb, tb)) = (at(a), at(b));
            sa.cmp(&sb).then(ea.cmp(&eb)).then_with(|| cmp_id_str(ta, tb))
        });
        let mut best: Option<(u64, u32)> = None;
        for &r in list.iter() {
            let (st, en, _) = at(r);
            let t = row_task.get(r as usize).copied().unwrap_or(0);
            if let Some((best_end, best_task)) = best {
                if best_task != t && best_end <= st.saturating_add(tol_ticks) && st == g.start(t as usize) {
                    if let Some(slot) = g.core_prev.get_mut(t as usize) {
                        if slot.is_none_or(|(_, e)| best_end > e) {
                            *slot = Some((best_task, best_end));
                        }
                    }
                }
            }
            if best.is_none_or(|(be, _)| en > be) {
                best = Some((en, t));
            }
        }
    }
    g.warnings = warnings;
    Ok(g)
}

/// Kahn's topological order over the kept edges (seeded in task order, successors in the
/// reference's order: by each successor's first kept edge).
pub fn topo_order(g: &TaskGraph) -> Result<Vec<u32>, CriticalPathError> {
    let n = g.len();
    // The reference iterates its `hb_pred` dict, keyed by each succ's first kept edge.
    let mut indeg = vec![0u32; n];
    let mut succ_lists: Vec<Vec<u32>> = vec![Vec::new(); n];
    for s in succ_key_order(g) {
        for &p in g.preds(s as usize) {
            if let Some(l) = succ_lists.get_mut(p as usize) {
                l.push(s);
            }
            if let Some(d) = indeg.get_mut(s as usize) {
                *d += 1;
            }
        }
    }
    let mut q: VecDeque<u32> = (0..n as u32).filter(|&t| indeg.get(t as usize) == Some(&0)).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(u) = q.pop_front() {
        order.push(u);
        for &v in succ_lists.get(u as usize).map_or(&[][..], Vec::as_slice) {
            if let Some(d) = indeg.get_mut(v as usize) {
                *d -= 1;
                if *d == 0 {
                    q.push_back(v);
                }
            }
        }
    }
    if order.len() != n {
        return Err(CriticalPathError::Cyclic { ordered: order.len(), total: n });
    }
    Ok(order)
}

/// Successor task indices in the order their first kept edge appears in `deps.json`.
fn succ_key_order(g: &TaskGraph) -> Vec<u32> {
    if g.first_kept_rank.len() != g.len() {
        // A graph assembled by hand (no edge ranks): task order.
        return (0..g.len() as u32).collect();
    }
    let mut first: Vec<(u32, u32)> = Vec::new();
    for (s, r) in g.first_kept_rank.iter().enumerate() {
        if let Some(r) = r {
            first.push((*r, s as u32));
        }
    }
    first.sort_unstable();
    first.into_iter().map(|(_, s)| s).collect()
}

/// The static CPM path (§4.3): task indices head → sink and its length in ticks.
pub fn static_cpm(g: &TaskGraph, order: &[u32]) -> (Vec<u32>, u64) {
    let n = g.len();
    let mut finish = vec![0u64; n];
    let mut choice: Vec<Option<u32>> = vec![None; n];
    let mut sink: Option<(u32, u64)> = None;
    for &v in order {
        let mut best: (Option<u32>, u64) = (None, 0);
        for &p in g.preds(v as usize) {
            let fp = finish.get(p as usize).copied().unwrap_or(0);
            if fp > best.1 {
                best = (Some(p), fp);
            }
        }
        let f = best.1.saturating_add(g.dur_ticks.get(v as usize).copied().unwrap_or(0));
        if let Some(slot) = finish.get_mut(v as usize) {
            *slot = f;
        }
        if let Some(slot) = choice.get_mut(v as usize) {
            *slot = best.0;
        }
        if sink.is_none_or(|(_, sf)| f > sf) {
            sink = Some((v, f));
        }
    }
    let Some((sink, len)) = sink else {
        return (Vec::new(), 0);
    };
    let mut path = vec![sink];
    let mut v = choice.get(sink as usize).copied().flatten();
    while let Some(p) = v {
        if path.len() > n {
            break; // unreachable on a DAG; guards a corrupted choice table
        }
        path.push(p);
        v = choice.get(p as usize).copied().flatten();
    }
    path.reverse();
    (path, len)
}

/// One step of the observed walk: the task, its stall kind and the chosen blocker
/// (`None` for the front-gap head) with the blocker's scored end tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkStep {
    pub task: u32,
    pub kind: StallKind,
    pub blocker: Option<(u32, u64)>,
}

/// The backward blame walk (§4.4), head first.
pub fn observed_walk(g: &TaskGraph) -> Vec<WalkStep> {
    let tol = g.tol_ticks;
    // First task with the largest end (dict order).
    let mut sink: Option<(usize, u64)> = None;
    for (i, &e) in g.end_ticks.iter().enumerate() {
        if sink.is_none_or(|(_, be)| e > be) {
            sink = Some((i, e));
        }
    }
    let mut walk = Vec::new();
    let mut seen = vec![false; g.len()];
    let mut v = sink.map(|(i, _)| i);
    while let Some(vi) = v {
        match seen.get_mut(vi) {
            Some(s) if !*s => *s = true,
            _ => break,
        }
        let sv = g.start(vi);
        // Largest (end, id string, kind string): "data-wait" > "core-wait".
        let mut best: Option<(u64, u32, StallKind)> = None;
        let better = |cand: (u64, u32, StallKind), cur: Option<(u64, u32, StallKind)>| match cur {
            None => true,
            Some(c) => {
                cand.0
                    .cmp(&c.0)
                    .then_with(|| cmp_id_str(g.id(cand.1 as usize), g.id(c.1 as usize)))
                    .then_with(|| cand.2.as_str().cmp(c.2.as_str()))
                    == Ordering::Greater
            }
        };
        for &p in g.preds(vi) {
            let ep = g.end(p as usize);
            if ep <= sv.saturating_add(tol) && g.start(p as usize) < sv {
                let c = (ep, p, StallKind::DataWait);
                if better(c, best) {
                    best = Some(c);
                }
            }
        }
        if let Some(Some((cp, ce))) = g.core_prev.get(vi) {
            if *ce <= sv.saturating_add(tol) && g.start(*cp as usize) < sv {
                let c = (*ce, *cp, StallKind::CoreWait);
                if better(c, best) {
                    best = Some(c);
                }
            }
        }
        match best {
            None => {
                walk.push(WalkStep { task: vi as u32, kind: StallKind::FrontGap, blocker: None });
                break;
            }
            Some((e, p, kind)) => {
                walk.push(WalkStep { task: vi as u32, kind, blocker: Some((p, e)) });
                v = Some(p as usize);
            }
        }
    }
    walk.reverse();
    walk
}

/// The observed critical path as columns, head first.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ObservedPath {
    pub task_id: Vec<u64>,
    /// Task index in the [`TaskGraph`].
    pub task_index: Vec<u32>,
    pub name: Vec<String>,
    /// Task wall-clock span (`end - start`).
    pub dur_ticks: Vec<u64>,
    /// Non-overlapped compute contributed on the path.
    pub compute_ticks: Vec<u64>,
    /// Stall (gap) before the task on the path.
    pub stall_ticks: Vec<u64>,
    pub kind: Vec<StallKind>,
    /// The blocker chosen by the walk (the previous path task), `None` for the head.
    pub blocker_task_id: Vec<Option<u64>>,
    /// The blocker's scored end: the data predecessor's end or the same-core slice end.
    pub blocker_end_ticks: Vec<Option<u64>>,
}

impl ObservedPath {
    pub fn len(&self) -> usize {
        self.task_id.len()
    }
    pub fn is_empty(&self) -> bool {
        self.task_id.is_empty()
    }
}

/// One row of the kernel-family table.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct KernelFamily {
    pub family: String,
    pub compute_ticks: u64,
    pub stall_ticks: u64,
    /// Tasks of the family on the observed path.
    pub on_path: usize,
}

/// Everything `critical_path.py` computes for one rank.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct CriticalPath {
    pub clock_freq_hz: u64,
    pub task_count: usize,
    /// Kept happens-before edges.
    pub kept_edges: usize,
    pub t0_ticks: u64,
    pub t1_ticks: u64,
    /// `t1 - t0`.
    pub makespan_ticks: u64,
    /// Static CPM path task ids, head → sink.
    pub static_path: Vec<u64>,
    /// Static CPM path names (the reference keeps the first 10 as `cpm_head`).
    pub static_names: Vec<String>,
    /// Duration-weighted length of the static path.
    pub static_len_ticks: u64,
    pub observed: ObservedPath,
    pub compute_total_ticks: u64,
    pub stall_total_ticks: u64,
    /// Stall per kind in first-appearance order on the path (kinds with 0 stall included).
    pub stall_by_kind: Vec<(StallKind, u64)>,
    /// Families by compute, largest first (ties: first appearance on the path).
    pub families: Vec<KernelFamily>,
    pub warnings: Vec<Warning>,
}

impl CriticalPath {
    /// Tick duration → µs.
    pub fn us(&self, ticks: u64) -> f64 {
        ticks_to_us(ticks, self.clock_freq_hz)
    }
    /// `compute + stall == makespan`.
    pub fn tiling_exact(&self) -> bool {
        self.compute_total_ticks.saturating_add(self.stall_total_ticks) == self.makespan_ticks
    }
    /// Stall of one kind (0 if absent).
    pub fn stall_of(&self, kind: StallKind) -> u64 {
        self.stall_by_kind.iter().find(|(k, _)| *k == kind).map_or(0, |(_, v)| *v)
    }
}

/// The kernel family of a name: drops a trailing `(_<digits>)?(_(aic|aiv))?`.
pub fn kernel_family(name: &str) -> &str {
    let mut s = name;
    for suf in ["_aic", "_aiv"] {
        if let Some(rest) = s.strip_suffix(suf) {
            s = rest;
            break;
        }
    }
    let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 {
        if let Some(rest) = s.get(..s.len() - digits).and_then(|h| h.strip_suffix('_')) {
            return rest;
        }
    }
    if s.len() == name.len() {
        return name;
    }
    s
}

/// Runs the analyses of §4.3–4.5 on a graph.
pub fn analyze(g: &TaskGraph) -> Result<CriticalPath, CriticalPathError> {
    let order = topo_order(g)?;
    let (cpm, cpm_len) = static_cpm(g, &order);
    let walk = observed_walk(g);

    let mut obs = ObservedPath::default();
    let mut stall_by_kind: Vec<(StallKind, u64)> = Vec::new();
    let (mut compute_total, mut stall_total) = (0u64, 0u64);
    let mut frontier = g.t0_ticks;
    for step in &walk {
        let t = step.task as usize;
        let (st, en) = (g.start(t), g.end(t));
        let gap = st.saturating_sub(frontier);
        let eff = en.saturating_sub(st.max(frontier));
        obs.task_id.push(g.id(t));
        obs.task_index.push(step.task);
        obs.name.push(g.name(t).to_owned());
        obs.dur_ticks.push(g.dur_ticks.get(t).copied().unwrap_or(0));
        obs.compute_ticks.push(eff);
        obs.stall_ticks.push(gap);
        obs.kind.push(step.kind);
        obs.blocker_task_id.push(step.blocker.map(|(b, _)| g.id(b as usize)));
        obs.blocker_end_ticks.push(step.blocker.map(|(_, e)| e));
        match stall_by_kind.iter_mut().find(|(k, _)| *k == step.kind) {
            Some((_, total)) => *total += gap,
            None => stall_by_kind.push((step.kind, gap)),
        }
        compute_total += eff;
        stall_total += gap;
        frontier = frontier.max(en);
    }

    let mut families: Vec<KernelFamily> = Vec::new();
    for i in 0..obs.len() {
        let fam = kernel_family(obs.name.get(i).map_or("", String::as_str));
        let (c, st) = (obs.compute_ticks.get(i).copied().unwrap_or(0), obs.stall_ticks.get(i).copied().unwrap_or(0));
        match families.iter_mut().find(|f| f.family == fam) {
            Some(f) => {
                f.compute_ticks += c;
                f.stall_ticks += st;
                f.on_path += 1;
            }
            None => families.push(KernelFamily { family: fam.to_owned(), compute_ticks: c, stall_ticks: st, on_path: 1 }),
        }
    }
    // Stable: ties keep first appearance (Counter.most_common).
    families.sort_by_key(|f| std::cmp::Reverse(f.compute_ticks));

    Ok(CriticalPath {
        clock_freq_hz: g.clock_freq_hz,
        task_count: g.len(),
        kept_edges: g.kept_edges,
        t0_ticks: g.t0_ticks,
        t1_ticks: g.t1_ticks,
        makespan_ticks: g.t1_ticks.saturating_sub(g.t0_ticks),
        static_path: cpm.iter().map(|&i| g.id(i as usize)).collect(),
        static_names: cpm.iter().map(|&i| g.name(i as usize).to_owned()).collect(),
        static_len_ticks: cpm_len,
        observed: obs,
        compute_total_ticks: compute_total,
        stall_total_ticks: stall_total,
        stall_by_kind,
        families,
        warnings: g.warnings.clone(),
    })
}

/// Records (+ deps, + names) → critical paths, reading no CPM file (the default tolerance).
pub fn compute(
    records: &ChipRecords,
    deps: Option<&Deps>,
    names: Option<&NameMap>,
) -> Result<(TaskGraph, CriticalPath), CriticalPathError> {
    let g = build_graph(records, deps, names, DEFAULT_TOL_TICKS)?;
    let cp = analyze(&g)?;
    Ok((g, cp))
}

/// [`compute`] for a caller that keeps only the paths (the model build): the graph's task-id
/// lookup is freed before the analyses run, and the graph after them.
pub fn compute_paths(records: &ChipRecords, deps: Option<&Deps>, names: Option<&NameMap>) -> Result<CriticalPath, CriticalPathError> {
    let mut g = build_graph(records, deps, names, DEFAULT_TOL_TICKS)?;
    g.index = HashMap::default();
    analyze(&g)
}

const REPORT_HEAD: &str = "# Critical-path report (chip swimlane)\n\n\
Generated by `python -m simpler_setup.tools.critical_path`. Times are device wall-clock; \
percentages are of each rank's makespan.\n\n\
- **Static CPM path**: dependency-limited latency floor (unlimited cores).\n\
- **Observed path**: the as-executed critical path; its per-task compute + the \
runtime-scheduling stall before each task tile the makespan exactly.\n\
- **stall kinds**: `data-wait` = waiting on an upstream producer; `core-wait` = waiting for \
the assigned core to be freed (resource serialization); `front-gap` = launch/dispatch delay \
before the first task.\n\n";

/// `critical_path_report.md` for ranks `(label, result)`, `top` kernel-family rows
/// (the reference writes one file per rank with the rank directory relative to its root as the
/// label). Byte-identical to the reference for the same inputs.
#[allow(clippy::too_many_lines)] // the report, section by section, as the reference prints it
pub fn render_report_md(ranks: &[(&str, &CriticalPath)], top: usize) -> String {
    let mut o = String::from(REPORT_HEAD);
    for (label, r) in ranks {
        let ms = r.makespan_ticks;
        let msf = |t: u64| r.us(t) / 1e3;
        let _ = writeln!(o, "\n## Rank `{label}`\n");
        let _ = writeln!(o, "- tasks: {} | happens-before edges: {}", r.task_count, r.kept_edges);
        let _ = writeln!(o, "- **makespan**: {:.3} ms", msf(ms));
        let _ = writeln!(
            o,
            "- **static CPM path**: {:.3} ms ({:.1}% of makespan) over {} tasks",
            msf(r.static_len_ticks),
            pct(r.static_len_ticks, ms),
            r.static_path.len()
        );
        let _ = writeln!(o, "- **observed critical path**: {} tasks", r.observed.len());
        let _ = writeln!(o, "  - compute: {:.3} ms ({:.1}%)", msf(r.compute_total_ticks), pct(r.compute_total_ticks, ms));
        let _ = writeln!(o, "  - stall (runtime scheduling): {:.3} ms ({:.1}%)", msf(r.stall_total_ticks), pct(r.stall_total_ticks, ms));
        let mut kinds = r.stall_by_kind.clone();
        kinds.sort_by_key(|k| std::cmp::Reverse(k.1));
        for (k, v) in kinds {
            if v > 0 {
                let _ = writeln!(o, "    - {}: {:.3} ms ({:.1}%)", k.as_str(), msf(v), pct(v, ms));
            }
        }
        let check = r.compute_total_ticks.saturating_add(r.stall_total_ticks);
        let verdict = if check == ms { "exact".to_owned() } else { format!("diff {}", i128::from(check) - i128::from(ms)) };
        let _ = writeln!(o, "  - tiling check: compute+stall = {check} ticks vs makespan {ms} ticks ({verdict})");
        o.push_str("\n### Time on the observed critical path, by kernel family\n\n");
        o.push_str("| kernel family | compute ms | % makespan | stall ms | # on path |\n");
        o.push_str("|---|---:|---:|---:|---:|\n");
        for f in r.families.iter().take(top) {
            let _ = writeln!(
                o,
                "| {} | {:.3} | {:.1}% | {:.3} | {} |",
                f.family,
                msf(f.compute_ticks),
                pct(f.compute_ticks, ms),
                msf(f.stall_ticks),
                f.on_path
            );
        }
        let p = &r.observed;
        let _ = writeln!(o, "\n### Observed critical path — all {} tasks\n", p.len());
        o.push_str("| # | kernel | task µs | compute µs (%mk) | stall µs (%mk) | stall kind |\n");
        o.push_str("|---:|---|---:|---:|---:|---|\n");
        for i in 0..p.len() {
            let dur = p.dur_ticks.get(i).copied().unwrap_or(0);
            let c = p.compute_ticks.get(i).copied().unwrap_or(0);
            let s = p.stall_ticks.get(i).copied().unwrap_or(0);
            let kind = if s > 0 { p.kind.get(i).map_or("", |k| k.as_str()) } else { "" };
            let _ = writeln!(
                o,
                "| {i} | {} | {:.1} | {:.1} ({:.2}%) | {:.1} ({:.2}%) | {kind} |",
                p.name.get(i).map_or("", String::as_str),
                r.us(dur),
                r.us(c),
                pct(c, ms),
                r.us(s),
                pct(s, ms)
            );
        }
    }
    o
}

/// The reference's one-line `--stdout` summary of a rank.
pub fn render_summary_line(label: &str, r: &CriticalPath) -> String {
    let ms = r.makespan_ticks;
    let mut kinds = r.stall_by_kind.clone();
    kinds.sort_by_key(|k| std::cmp::Reverse(k.1));
    let detail: Vec<String> = kinds.iter().filter(|(_, v)| *v > 0).map(|(k, v)| format!("{} {:.1}%", k.as_str(), pct(*v, ms))).collect();
    format!(
        "[{label}] makespan={:.3}ms  CPM={:.2}ms({:.0}%)  compute={:.1}%  stall={:.1}% ({})",
        r.us(ms) / 1e3,
        r.us(r.static_len_ticks) / 1e3,
        pct(r.static_len_ticks, ms),
        pct(r.compute_total_ticks, ms),
        pct(r.stall_total_ticks, ms),
        detail.join(", ")
    )
}

/// The name a CPM file gives an off-path Worker View bar: `·(<display id>)`.
pub fn dimmed_bar_name(task_id: u64) -> String {
    format!("\u{b7}({})", TaskId(task_id))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The merge gives what a binary search per task through the entries sorted by id gives:
    /// the first active slot of a task's last entry.
    #[test]
    fn kernels_come_from_each_tasks_last_entry() {
        let dep_ids = [7, 3, 9, 3, 12, 5];
        let dep_kernels = [[1, -1, -1], [-1, 4, -1], [-1, -1, -1], [-1, -1, 6], [8, 2, -1], [0, -1, -1]];
        let tasks = [3, 9, 11, 12, 5, 7, 1];
        let expect = |id: u64| -> Option<i64> {
            let last = dep_ids.iter().rposition(|&x| x == id)?;
            dep_kernels[last].iter().copied().find(|&x| x >= 0)
        };
        let want: Vec<Option<i64>> = tasks.iter().map(|&t| expect(t)).collect();
        assert_eq!(want, vec![Some(6), None, None, Some(8), Some(0), Some(1), None]);
        assert_eq!(kernels_by_task(&tasks, &dep_ids, &dep_kernels), want);
        // Sorted inputs (no index sort) and a repeated task id.
        let sorted_ids = [3, 5, 7, 12];
        let sorted_kernels = [[-1, 4, -1], [0, -1, -1], [1, -1, -1], [8, 2, -1]];
        assert_eq!(kernels_by_task(&[3, 3, 13, 12], &sorted_ids, &sorted_kernels), vec![Some(4), Some(4), None, Some(8)]);
        assert_eq!(kernels_by_task(&[1, 2], &[], &[]), vec![None, None]);
    }

    #[test]
    fn family_rule() {
        assert_eq!(kernel_family("gate_0_aic"), "gate");
        assert_eq!(kernel_family("hc_pre_fused_3_aic"), "hc_pre_fused");
        assert_eq!(kernel_family("exp_up_mm_2"), "exp_up_mm");
        assert_eq!(kernel_family("QK"), "QK");
        assert_eq!(kernel_family("x_aiv"), "x");
        assert_eq!(kernel_family("k12"), "k12");
        assert_eq!(kernel_family("a__aic"), "a_");
        assert_eq!(kernel_family("_7"), "");
        assert_eq!(kernel_family("SPIN_BLOCKER_AIV"), "SPIN_BLOCKER_AIV");
    }

    fn records(rows: &[(u32, u64, u64, u64)]) -> ChipRecords {
        let mut r = ChipRecords::default();
        r.metadata.clock_freq_hz = 50_000_000;
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

    #[test]
    fn a_task_listed_twice_in_deps_takes_its_last_entrys_kernel() {
        let r = records(&[(0, 100, 10, 20), (0, 200, 30, 40), (1, 300, 10, 50)]);
        let mut d = Deps::default();
        for (id, k) in [(100u64, [3i64, -1, -1]), (200, [4, -1, -1]), (100, [-1, -1, -1]), (200, [-1, 5, -1]), (300, [7, -1, -1])] {
            d.tasks.task_id.push(id);
            d.tasks.kernel_ids.push(k);
        }
        let g = build_graph(&r, Some(&d), None, DEFAULT_TOL_TICKS).unwrap();
        let name = |id: u64| g.name(g.index_of(id).unwrap()).to_owned();
        assert_eq!((name(100), name(200), name(300)), ("unknown".to_owned(), "cid5".to_owned(), "cid7".to_owned()));
    }

    #[test]
    fn repeated_edge_pairs_drop_after_their_first_in_order() {
        // Succ 1 has a short list, succ 2 a list past the small-group scan (20 preds, each
        // listed twice, interleaved with succ 1's edges).
        let mut edges = vec![(1u32, 0u32), (1, 3), (1, 0), (0, 1), (1, 3), (1, 4)];
        for p in (0..20).chain(0..20) {
            edges.push((2, p + 10));
            edges.push((1, 4));
        }
        let mut expected: Vec<(u32, u32)> = Vec::new();
        for &e in &edges {
            if !expected.contains(&e) {
                expected.push(e);
            }
        }
        drop_repeated_pairs(&mut edges, 40);
        assert_eq!(edges, expected);
        let mut none: Vec<(u32, u32)> = Vec::new();
        drop_repeated_pairs(&mut none, 0);
        assert!(none.is_empty());
    }

    fn deps_of(edges: &[(u64, u64)]) -> Deps {
        let mut d = Deps::default();
        for &(p, s) in edges {
            d.edges.pred.push(p);
            d.edges.succ.push(s);
        }
        d
    }

    #[test]
    fn tolerance_and_tie_break() {
        // Task 1 on core 0 [100, 200]; task 2 on core 0 starts at 198 (ends 2 ticks later
        // than it starts: inside tol) and depends on 1; task 3 on core 1 depends on 2 but
        // starts 3 ticks before 2 ends (outside tol: edge dropped).
        let r = records(&[(0, 1, 100, 200), (0, 2, 198, 300), (1, 3, 297, 400)]);
        let d = deps_of(&[(1, 2), (1, 2), (2, 3), (3, 3)]);
        let (g, cp) = compute(&r, Some(&d), None).unwrap();
        assert_eq!(g.kept_edges, 1);
        assert_eq!(g.core_prev.get(1), Some(&Some((0, 200))));
        // Sink is task 3 (largest end); no candidate → front-gap head.
        assert_eq!(cp.observed.task_id, vec![3]);
        assert_eq!(cp.observed.kind, vec![StallKind::FrontGap]);
        assert!(cp.tiling_exact());
        assert_eq!(cp.stall_of(StallKind::FrontGap), 197);
        // Static: 1 → 2 (100 + 102) beats 3 (103).
        assert_eq!(cp.static_path, vec![1, 2]);
        assert_eq!(cp.static_len_ticks, 202);
        // Same end, same task as data pred and core prev: data-wait wins.
        let r = records(&[(0, 1, 100, 200), (0, 2, 200, 300)]);
        let (_, cp) = compute(&r, Some(&deps_of(&[(1, 2)])), None).unwrap();
        assert_eq!(cp.observed.kind, vec![StallKind::FrontGap, StallKind::DataWait]);
        let (_, cp) = compute(&r, None, None).unwrap();
        assert_eq!(cp.observed.kind, vec![StallKind::FrontGap, StallKind::CoreWait]);
        let md = render_report_md(&[("x", &cp)], 25);
        assert!(md.contains("tiling check: compute+stall = 200 ticks vs makespan 200 ticks (exact)"));
        assert!(render_summary_line("x", &cp).starts_with("[x] makespan=0.004ms"));
    }

    #[test]
    fn cycle_is_an_error() {
        let mut g = TaskGraph {
            task_id: vec![1, 2],
            start_ticks: vec![0, 0],
            end_ticks: vec![1, 1],
            dur_ticks: vec![1, 1],
            hb_pred_offsets: vec![0, 1, 2],
            hb_preds: vec![1, 0],
            clock_freq_hz: 1,
            ..TaskGraph::default()
        };
        g.core_prev = vec![None, None];
        assert_eq!(analyze(&g).unwrap_err(), CriticalPathError::Cyclic { ordered: 0, total: 2 });
        assert_eq!(dimmed_bar_name(4_294_967_301), "\u{b7}(r1t5)");
    }

    #[test]
    fn id_string_order() {
        assert_eq!(cmp_id_str(10, 9), Ordering::Less);
        assert_eq!(cmp_id_str(9, 9), Ordering::Equal);
        assert_eq!(cmp_id_str(4_294_967_296, 5), Ordering::Less);
        assert_eq!(cmp_id_str(u64::MAX, 0), Ordering::Greater);
    }
}
