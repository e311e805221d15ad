//! The joined task table (runtime-formats.md §1.5) and func-id resolution and labels
//! (§1.10–1.13), for the Worker/Scheduler views, statistics and the CLI report.
//!
//! Join: map `(core_id, reg_task_id[, run_epoch])` → AICore row; each AICPU row with a
//! partner gives one task (unmatched AICPU rows are dropped and counted per core in a
//! warning); without AICPU rows, level 1 gives one task per AICore row and level ≥ 2 gives no
//! tasks (the reference HEAD behaviour, warned). Tasks are sorted stably by task id
//! (by `(run_epoch, task_id)` for 7-column rows). v1 (object) files map directly.

use crate::timebase::Timebase;
use pypto_formats::deps::Deps;
use pypto_formats::records::{ChipRecords, CoreType};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// The resolved func id of each joined row ([`func_ids`]), however it is stored: a slice, or
/// the model's narrow column. -1 = unresolved (also past the end).
pub trait FuncIdOf {
    fn func_id(&self, row: usize) -> i64;
}

impl FuncIdOf for [i64] {
    fn func_id(&self, row: usize) -> i64 {
        self.get(row).copied().unwrap_or(-1)
    }
}

impl FuncIdOf for Vec<i64> {
    fn func_id(&self, row: usize) -> i64 {
        self.as_slice().func_id(row)
    }
}

impl FuncIdOf for pypto_formats::columns::NarrowI64Column {
    fn func_id(&self, row: usize) -> i64 {
        self.get(row).unwrap_or(-1)
    }
}

/// "No AICPU row" in the join's pairs.
pub const NO_ROW: u32 = u32::MAX;

/// Joined task rows as columns (one entry per AICore execution; SPMD/MIX tasks have
/// several rows with the same `task_id`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JoinedTasks {
    pub task_id: Vec<u64>,
    pub core_id: Vec<u32>,
    pub core_type: Vec<CoreType>,
    pub start_us: Vec<f64>,
    pub end_us: Vec<f64>,
    /// 0.0 when there is no AICPU timing (level 1).
    pub dispatch_us: Vec<f64>,
    pub finish_us: Vec<f64>,
    /// `us(start - receive_to_start)`; equals `start_us` for 5-column rows and v1 files.
    pub receive_us: Vec<f64>,
    /// func id stored in the file, per row (v1 files only; empty for raw files, whose rows
    /// have none: resolve with [`func_ids`]). Empty in a built `RuntimeModel`
    /// ([`JoinedTasks::drop_join_columns`]).
    pub file_func_id: Vec<i64>,
    /// True when the rows were joined from raw AICore rows (which carry
    /// `receive_to_start`), false for v1 object files.
    pub from_raw_rows: bool,
    pub level: u32,
    /// The time base used (µs = f(cycles)).
    pub timebase: Option<Timebase>,
    pub warnings: Vec<String>,
}

impl JoinedTasks {
    pub fn len(&self) -> usize {
        self.task_id.len()
    }
    pub fn is_empty(&self) -> bool {
        self.task_id.is_empty()
    }
    /// Frees the file's func ids (v1 files) once [`func_ids`] has resolved the func ids.
    pub fn drop_join_columns(&mut self) {
        self.file_func_id = Vec::new();
    }
    /// True when the row has AICPU timing (`dispatch >= 0 && finish > 0`).
    pub fn has_aicpu(&self, i: usize) -> bool {
        self.finish_us.get(i).is_some_and(|&f| f > 0.0)
            && self.dispatch_us.get(i).is_some_and(|&d| d >= 0.0)
    }
}

/// A joined pair: its AICore row and its AICPU row ([`NO_ROW`] when none). The task id,
/// core and epoch are the AICore row's (8 bytes a row, where copying them took 24).
struct Row {
    aicore: u32,
    aicpu: u32,
}

/// Joins AICore and AICPU rows of a records file (see the module doc).
pub fn join(records: &ChipRecords) -> JoinedTasks {
    join_with_timebase(records, Timebase::from_records(records))
}

/// [`join`] on the time base `tb` (the file's, computed before some of its records were taken).
#[allow(clippy::too_many_lines)] // the join reads best as one sequence of steps
pub fn join_with_timebase(records: &ChipRecords, tb: Timebase) -> JoinedTasks {
    if let Some(v1) = &records.v1_tasks {
        return join_v1(records, v1);
    }
    let core_rows = &records.aicore;
    let cpu_rows = &records.aicpu;
    let mut warnings = tb.warnings.clone();
    let with_epoch = core_rows.has_run_epoch() && cpu_rows.columns == 5;
    let mut rows: Vec<Row> = Vec::new();
    if !cpu_rows.is_empty() {
        let mut map: HashMap<(u32, u64, u32), u32> = HashMap::with_capacity_and_hasher(core_rows.len(), rustc_hash::FxBuildHasher);
        let mut dup = 0usize;
        for i in 0..core_rows.len() {
            let (Some(&c), Some(&r), Some(&e)) = (
                core_rows.core_id.get(i),
                core_rows.reg_task_id.get(i),
                core_rows.run_epoch.get(i),
            ) else {
                continue;
            };
            let key = (c, r, if with_epoch { e } else { 0 });
            if map.insert(key, i as u32).is_some() {
                dup += 1;
            }
        }
        if dup > 0 {
            warnings.push(format!(
                "{dup} duplicate AICore join key(s) (core_id, reg_task_id); the later row wins"
            ));
        }
        let mut unmatched: HashMap<u32, usize> = HashMap::default();
        for j in 0..cpu_rows.len() {
            let (Some(&c), Some(&r), Some(&e)) = (
                cpu_rows.core_id.get(j),
                cpu_rows.reg_task_id.get(j),
                cpu_rows.run_epoch.get(j),
            ) else {
                continue;
            };
            match map.get(&(c, r, if with_epoch { e } else { 0 })) {
                Some(&i) => rows.push(Row { aicore: i, aicpu: j as u32 }),
                None => *unmatched.entry(c).or_default() += 1,
            }
        }
        if !unmatched.is_empty() {
            let total: usize = unmatched.values().sum();
            let mut top: Vec<(u32, usize)> = unmatched.into_iter().collect();
            top.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
            let list: Vec<String> = top
                .iter()
                .take(3)
                .map(|(c, n)| format!("core {c}: {n}"))
                .collect();
            warnings.push(format!(
                "{total} AICPU row(s) without an AICore partner dropped (AICore buffer lost?); top cores: {}",
                list.join(", ")
            ));
        }
    } else if records.level <= 1 {
        for i in 0..core_rows.len() {
            rows.push(Row { aicore: i as u32, aicpu: NO_ROW });
        }
    } else if !core_rows.is_empty() {
        warnings.push(format!(
            "level {} but no AICPU rows: no tasks can be joined ({} AICore rows unused)",
            records.level,
            core_rows.len()
        ));
    }
    let task_of = |r: &Row| core_rows.task_id.get(r.aicore as usize).copied().unwrap_or(0);
    if core_rows.has_run_epoch() {
        rows.sort_by_key(|r| (core_rows.run_epoch.get(r.aicore as usize).copied().unwrap_or(0), task_of(r)));
    } else {
        rows.sort_by_key(task_of);
    }

    let n = rows.len();
    let mut t = JoinedTasks {
        level: records.level,
        ..JoinedTasks::default()
    };
    reserve(&mut t, n);
    for r in &rows {
        let i = r.aicore as usize;
        let start = core_rows.start_cycles.get(i).copied().unwrap_or(0);
        let end = core_rows.end_cycles.get(i).copied().unwrap_or(0);
        let r2s = core_rows
            .receive_to_start_cycles
            .get(i)
            .copied()
            .unwrap_or(0);
        let (dispatch, finish) = if r.aicpu == NO_ROW {
            (0, 0)
        } else {
            let j = r.aicpu as usize;
            (
                cpu_rows.dispatch_cycles.get(j).copied().unwrap_or(0),
                cpu_rows.finish_cycles.get(j).copied().unwrap_or(0),
            )
        };
        let core = core_rows.core_id.get(i).copied().unwrap_or(0);
        t.task_id.push(core_rows.task_id.get(i).copied().unwrap_or(0));
        t.core_id.push(core);
        t.core_type.push(records.metadata.core_type(core));
        t.start_us.push(tb.us(start));
        t.end_us.push(tb.us(end));
        t.dispatch_us.push(tb.us(dispatch));
        t.finish_us.push(tb.us(finish));
        t.receive_us.push(tb.us(start.saturating_sub(r2s)));
    }
    t.timebase = Some(tb);
    t.warnings = warnings;
    t.from_raw_rows = true;
    t
}

fn reserve(t: &mut JoinedTasks, n: usize) {
    t.task_id.reserve(n);
    t.core_id.reserve(n);
    t.core_type.reserve(n);
    t.start_us.reserve(n);
    t.end_us.reserve(n);
    t.dispatch_us.reserve(n);
    t.finish_us.reserve(n);
    t.receive_us.reserve(n);
}

fn join_v1(records: &ChipRecords, v1: &pypto_formats::records::V1Tasks) -> JoinedTasks {
    let mut order: Vec<usize> = (0..v1.task_id.len()).collect();
    order.sort_by_key(|&i| v1.task_id.get(i).copied().unwrap_or(0));
    let mut t = JoinedTasks {
        level: records.level,
        ..JoinedTasks::default()
    };
    reserve(&mut t, order.len());
    t.file_func_id.reserve(order.len());
    for i in order {
        let start = v1.start_us.get(i).copied().unwrap_or(0.0);
        t.task_id.push(v1.task_id.get(i).copied().unwrap_or(0));
        t.core_id.push(v1.core_id.get(i).copied().unwrap_or(0));
        t.core_type
            .push(v1.core_type.get(i).copied().unwrap_or_default());
        t.start_us.push(start);
        t.end_us.push(v1.end_us.get(i).copied().unwrap_or(0.0));
        t.dispatch_us
            .push(v1.dispatch_us.get(i).copied().unwrap_or(0.0));
        t.finish_us
            .push(v1.finish_us.get(i).copied().unwrap_or(0.0));
        t.receive_us.push(start);
        t.file_func_id
            .push(v1.func_id.get(i).copied().unwrap_or(-1));
    }
    t
}

/// Resolved func id per joined row (§1.12): a file func id ≥ 0 is kept; otherwise from
/// `deps.tasks[task_id].kernel_ids` — AIC → slot 0, AIV → slot 1 else slot 2; -1 = unresolved.
pub fn func_ids(tasks: &JoinedTasks, deps: Option<&Deps>) -> Vec<i64> {
    // deps.json tasks with kernel ids, by task id (stable: for an id listed twice, the later
    // one wins, as it would in a map). 4 bytes a task where a hash map of the kernel ids took
    // ~70, at the model build's peak.
    let (dep_ids, dep_kernels): (&[u64], &[[i64; 3]]) = deps.map_or((&[], &[]), |d| (&d.tasks.task_id, &d.tasks.kernel_ids));
    let mut by_id: Vec<u32> = deps.map_or_else(Vec::new, |d| {
        (0..d.tasks.len()).filter(|&i| d.tasks.has_kernel_ids.get(i).copied().unwrap_or(false)).map(|i| i as u32).collect()
    });
    by_id.sort_by_key(|&i| dep_ids.get(i as usize).copied().unwrap_or(0));
    let kernels_of = |id: u64| -> Option<&[i64; 3]> {
        let p = by_id.partition_point(|&i| dep_ids.get(i as usize).is_some_and(|&x| x <= id));
        let i = *by_id.get(p.checked_sub(1)?)? as usize;
        (dep_ids.get(i) == Some(&id)).then(|| dep_kernels.get(i)).flatten()
    };
    (0..tasks.len())
        .map(|i| {
            let file = tasks.file_func_id.get(i).copied().unwrap_or(-1);
            if file >= 0 {
                return file;
            }
            let Some(k) = tasks.task_id.get(i).and_then(|&id| kernels_of(id)) else {
                return -1;
            };
            match tasks.core_type.get(i).copied().unwrap_or_default() {
                CoreType::Aic => {
                    if k[0] >= 0 {
                        k[0]
                    } else {
                        -1
                    }
                }
                CoreType::Aiv => {
                    if k[1] >= 0 {
                        k[1]
                    } else if k[2] >= 0 {
                        k[2]
                    } else {
                        -1
                    }
                }
            }
        })
        .collect()
}

/// SPMD flag per joined row (§1.11), the converter's `_identify_spmd_task_ids`: a task id is
/// SPMD when deps.json gives it `block_num > 1`; a task id with several rows that deps.json
/// does not list (or without deps.json) is SPMD when all its rows have the same core type.
/// A deps.json `block_num == 1` is authoritative (MIX stays non-SPMD).
pub fn spmd_flags(tasks: &JoinedTasks, deps: Option<&Deps>) -> Vec<bool> {
    let ids = spmd_task_ids(tasks, deps);
    tasks.task_id.iter().map(|id| ids.contains(id)).collect()
}

/// The set of SPMD task ids (see [`spmd_flags`]); also covers ids with no AICore row
/// (e.g. a predicated skip of an SPMD task) through deps.json `block_num`.
pub fn spmd_task_ids(tasks: &JoinedTasks, deps: Option<&Deps>) -> HashSet<u64> {
    let mut ids = HashSet::default();
    let mut listed: HashSet<u64> = HashSet::default();
    if let Some(d) = deps {
        for (&id, &b) in d.tasks.task_id.iter().zip(&d.tasks.block_num) {
            listed.insert(id);
            if b > 1 {
                ids.insert(id);
            }
        }
    }
    // (rows, first core type, all same type)
    let mut groups: HashMap<u64, (u32, CoreType, bool)> = HashMap::default();
    for (&id, &ct) in tasks.task_id.iter().zip(&tasks.core_type) {
        let g = groups.entry(id).or_insert((0, ct, true));
        g.0 += 1;
        if g.1 != ct {
            g.2 = false;
        }
    }
    for (id, (rows, _, same)) in groups {
        if rows > 1 && same && !listed.contains(&id) {
            ids.insert(id);
        }
    }
    ids
}

/// Bijective base-26 letters of `n` (1 → a, 26 → z, 27 → aa).
fn letters(mut n: u64) -> String {
    let mut out = Vec::new();
    while n > 0 {
        n -= 1;
        out.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// `func_<id>_<letters>` for a resolved func id without a name (0 → `func_0_a`).
pub fn default_func_name(func_id: i64) -> String {
    format!(
        "func_{func_id}_{}",
        letters(func_id.unsigned_abs().saturating_add(1))
    )
}

/// `t<local>` for ring 0, else `r<ring>t<local>` (ring = bits 39:32).
pub fn task_id_display(task_id: u64) -> String {
    let ring = (task_id >> 32) & 0xFF;
    let local = task_id & 0xFFFF_FFFF;
    if ring == 0 {
        format!("t{local}")
    } else {
        format!("r{ring}t{local}")
    }
}

/// Task label (§1.13): `task(<tid>)` unresolved, `<name>(<tid>)`, or
/// `func_<id>_<letters>(<tid>)`; SPMD inserts `_spmd` unless the base already contains
/// `spmd` (case-insensitive).
pub fn task_label(task_id: u64, func_id: i64, name: Option<&str>, spmd: bool) -> String {
    let mut base = if func_id < 0 {
        "task".to_owned()
    } else {
        name.map_or_else(|| default_func_name(func_id), str::to_owned)
    };
    if spmd && !base.to_ascii_lowercase().contains("spmd") {
        base.push_str("_spmd");
    }
    format!("{base}({})", task_id_display(task_id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pypto_formats::deps::Deps;

    #[test]
    fn func_ids_take_the_later_kernel_ids_of_a_task_listed_twice() {
        let mut d = Deps::default();
        for (id, k, ok) in [(7u64, [3, -1, -1], true), (5, [-1, 4, -1], true), (7, [9, -1, -1], true), (7, [1, 1, 1], false)] {
            d.tasks.task_id.push(id);
            d.tasks.kernel_ids.push(k);
            d.tasks.has_kernel_ids.push(ok);
        }
        let mut t = JoinedTasks::default();
        for (id, ct) in [(7u64, CoreType::Aic), (5, CoreType::Aiv), (6, CoreType::Aic)] {
            t.task_id.push(id);
            t.core_type.push(ct);
        }
        // 7: the second valid entry (9) wins, the invalid third is skipped; 6 is not in deps.
        assert_eq!(func_ids(&t, Some(&d)), vec![9, 4, -1]);
        assert_eq!(func_ids(&t, None), vec![-1, -1, -1]);
    }
}
