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
use pypto_formats::packed::{PackedI64, PackedU32, PackedU64};
use pypto_formats::records::{AicoreRows, AicpuRows, ChipRecords, CoreType};
use pypto_formats::{Warning, WarningKind};
use pypto_vocab::TaskId;
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

impl FuncIdOf for PackedI64 {
    fn func_id(&self, row: usize) -> i64 {
        self.get(row).unwrap_or(-1)
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
/// several rows with the same `task_id`). Bit-packed: the ids of rows sorted by task id and
/// their cores take a few bits a row, and the times are kept as cycles ([`RowTimes`]); read
/// them through [`JoinedTasks::start_us`] and its siblings.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct JoinedTasks {
    pub task_id: PackedU64,
    pub core_id: PackedU32,
    /// Per row: 0 = AIC, 1 = AIV ([`JoinedTasks::core_type`]).
    core_type: PackedU32,
    times: RowTimes,
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
    pub warnings: Vec<Warning>,
}

/// The five times of the joined rows: as the cycles they come from, converted through the
/// time base on access (the same `Timebase::us` call the join made, so every value is the
/// same), with the end, receive, dispatch and finish kept as small offsets from the start or
/// end; or µs (v1 files).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[allow(clippy::large_enum_variant)] // one per model
enum RowTimes {
    Cycles {
        tb: Box<Timebase>,
        start: PackedU64,
        /// `end - start`.
        end: Relative,
        /// `start - receive`.
        receive: Relative,
        /// `start - dispatch`.
        dispatch: Relative,
        /// `finish - end`.
        finish: Relative,
    },
    Us {
        start: Vec<f64>,
        end: Vec<f64>,
        dispatch: Vec<f64>,
        finish: Vec<f64>,
        receive: Vec<f64>,
    },
}

impl Default for RowTimes {
    fn default() -> Self {
        Self::Us { start: Vec::new(), end: Vec::new(), dispatch: Vec::new(), finish: Vec::new(), receive: Vec::new() }
    }
}

/// A cycle column as signed offsets from another, or whole when every value is 0 (no AICPU
/// timing: whole takes no bits at all, offsets from the start would take the start's).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
enum Relative {
    Offsets(PackedI64),
    Zeros,
}

impl Relative {
    fn build(values: impl Iterator<Item = (u64, u64)>) -> Self {
        let mut offsets = PackedI64::new();
        let mut any = false;
        for (v, reference) in values {
            any |= v != 0;
            offsets.push(v.wrapping_sub(reference).cast_signed());
        }
        if any {
            offsets.shrink_to_fit();
            Self::Offsets(offsets)
        } else {
            Self::Zeros
        }
    }
    /// The value at `i` given its reference (`value = reference + offset · sign`).
    fn at(&self, i: usize, reference: u64, negate: bool) -> u64 {
        match self {
            Self::Zeros => 0,
            Self::Offsets(o) => {
                let d = o.get(i).unwrap_or(0).cast_unsigned();
                if negate {
                    reference.wrapping_sub(d)
                } else {
                    reference.wrapping_add(d)
                }
            }
        }
    }
    fn resident_bytes(&self) -> usize {
        match self {
            Self::Zeros => 0,
            Self::Offsets(o) => o.resident_bytes(),
        }
    }
}

/// Joined rows in cycles, for [`JoinedTasks::from_cycles`]: one entry per row.
#[derive(Debug, Clone, Copy, Default)]
pub struct RowCycles {
    pub task_id: u64,
    pub core_id: u32,
    pub core_type: CoreType,
    pub start: u64,
    pub end: u64,
    /// `start - receive_to_start` (saturating), the receive time.
    pub receive: u64,
    /// 0 when the row has no AICPU row.
    pub dispatch: u64,
    pub finish: u64,
}

fn core_code(ct: CoreType) -> u32 {
    match ct {
        CoreType::Aic => 0,
        CoreType::Aiv => 1,
    }
}

impl JoinedTasks {
    pub fn len(&self) -> usize {
        self.task_id.len()
    }
    pub fn is_empty(&self) -> bool {
        self.task_id.is_empty()
    }
    /// Rows from their cycles (`rows()` is called for each column, so the rows are never
    /// gathered whole), times through `tb`.
    pub fn from_cycles<I: Iterator<Item = RowCycles>>(rows: impl Fn() -> I, tb: Timebase) -> Self {
        let start: PackedU64 = rows().map(|r| r.start).collect();
        let times = RowTimes::Cycles {
            tb: Box::new(Timebase { warnings: Vec::new(), ..tb.clone() }),
            start,
            end: Relative::build(rows().map(|r| (r.end, r.start))),
            receive: Relative::build(rows().map(|r| (r.start, r.receive))),
            dispatch: Relative::build(rows().map(|r| (r.start, r.dispatch))),
            finish: Relative::build(rows().map(|r| (r.finish, r.end))),
        };
        Self {
            task_id: rows().map(|r| r.task_id).collect(),
            core_id: rows().map(|r| r.core_id).collect(),
            core_type: rows().map(|r| core_code(r.core_type)).collect(),
            times,
            timebase: Some(tb),
            from_raw_rows: true,
            ..Self::default()
        }
    }
    /// Appends a row in µs (v1 files, tests): `[start, end, dispatch, finish, receive]`.
    /// Ignored once the rows are in cycles.
    pub fn push_us(&mut self, task_id: u64, core_id: u32, core_type: CoreType, us: [f64; 5]) {
        let RowTimes::Us { start, end, dispatch, finish, receive } = &mut self.times else { return };
        self.task_id.push(task_id);
        self.core_id.push(core_id);
        self.core_type.push(core_code(core_type));
        for (column, v) in [start, end, dispatch, finish, receive].into_iter().zip(us) {
            column.push(v);
        }
    }
    /// Frees the file's func ids (v1 files) once [`func_ids`] has resolved the func ids.
    pub fn drop_join_columns(&mut self) {
        self.file_func_id = Vec::new();
    }
    /// Core type of row `i`.
    pub fn core_type(&self, i: usize) -> Option<CoreType> {
        self.core_type.get(i).map(|c| if c == 0 { CoreType::Aic } else { CoreType::Aiv })
    }
    fn cycles(&self, i: usize) -> Option<(&Timebase, u64)> {
        match &self.times {
            RowTimes::Cycles { tb, start, .. } => Some((tb, start.get(i)?)),
            RowTimes::Us { .. } => None,
        }
    }
    /// Kernel start, µs.
    pub fn start_us(&self, i: usize) -> Option<f64> {
        match &self.times {
            RowTimes::Cycles { tb, start, .. } => start.get(i).map(|c| tb.us(c)),
            RowTimes::Us { start, .. } => start.get(i).copied(),
        }
    }
    /// Kernel end, µs.
    pub fn end_us(&self, i: usize) -> Option<f64> {
        match &self.times {
            RowTimes::Cycles { tb, start, end, .. } => start.get(i).map(|s| tb.us(end.at(i, s, false))),
            RowTimes::Us { end, .. } => end.get(i).copied(),
        }
    }
    /// `us(start - receive_to_start)`; equals the start for 5-column rows and v1 files.
    pub fn receive_us(&self, i: usize) -> Option<f64> {
        match &self.times {
            RowTimes::Cycles { tb, start, receive, .. } => start.get(i).map(|s| tb.us(receive.at(i, s, true))),
            RowTimes::Us { receive, .. } => receive.get(i).copied(),
        }
    }
    /// AICPU dispatch, µs; 0.0 when there is no AICPU timing (level 1).
    pub fn dispatch_us(&self, i: usize) -> Option<f64> {
        match &self.times {
            RowTimes::Cycles { tb, start, dispatch, .. } => start.get(i).map(|s| tb.us(dispatch.at(i, s, true))),
            RowTimes::Us { dispatch, .. } => dispatch.get(i).copied(),
        }
    }
    /// AICPU finish, µs; 0.0 when there is no AICPU timing.
    pub fn finish_us(&self, i: usize) -> Option<f64> {
        match &self.times {
            RowTimes::Cycles { tb, start, end, finish, .. } => start.get(i).map(|s| tb.us(finish.at(i, end.at(i, s, false), false))),
            RowTimes::Us { finish, .. } => finish.get(i).copied(),
        }
    }
    /// Every row's start, µs.
    pub fn starts_us(&self) -> impl Iterator<Item = f64> + '_ {
        (0..self.len()).filter_map(|i| self.start_us(i))
    }
    /// Every row's end, µs.
    pub fn ends_us(&self) -> impl Iterator<Item = f64> + '_ {
        (0..self.len()).filter_map(|i| self.end_us(i))
    }
    /// Every row's core type.
    pub fn core_types(&self) -> impl Iterator<Item = CoreType> + '_ {
        (0..self.len()).filter_map(|i| self.core_type(i))
    }
    /// The start cycle of row `i` (raw rows only).
    pub fn start_cycles(&self, i: usize) -> Option<u64> {
        self.cycles(i).map(|(_, c)| c)
    }
    /// True when the row has AICPU timing (`dispatch >= 0 && finish > 0`).
    pub fn has_aicpu(&self, i: usize) -> bool {
        self.finish_us(i).is_some_and(|f| f > 0.0) && self.dispatch_us(i).is_some_and(|d| d >= 0.0)
    }
    /// Trims the capacities.
    pub fn shrink_to_fit(&mut self) {
        self.task_id.shrink_to_fit();
        self.core_id.shrink_to_fit();
        self.core_type.shrink_to_fit();
        self.file_func_id.shrink_to_fit();
        if let RowTimes::Us { start, end, dispatch, finish, receive } = &mut self.times {
            for c in [start, end, dispatch, finish, receive] {
                c.shrink_to_fit();
            }
        }
    }
    /// Heap bytes per column (capacities), for `bench`.
    pub fn resident_bytes_by_column(&self) -> Vec<(&'static str, usize)> {
        let mut out =
            vec![("task ids", self.task_id.resident_bytes()), ("cores", self.core_id.resident_bytes() + self.core_type.resident_bytes())];
        match &self.times {
            RowTimes::Cycles { start, end, receive, dispatch, finish, .. } => {
                out.push(("start", start.resident_bytes()));
                out.push(("end", end.resident_bytes()));
                out.push(("receive", receive.resident_bytes()));
                out.push(("dispatch", dispatch.resident_bytes()));
                out.push(("finish", finish.resident_bytes()));
            }
            RowTimes::Us { start, .. } => out.push(("times (µs)", start.capacity() * 40)),
        }
        out
    }
    /// Heap bytes of the columns (capacities).
    pub fn resident_bytes(&self) -> usize {
        let times = match &self.times {
            RowTimes::Cycles { start, end, receive, dispatch, finish, .. } => {
                start.resident_bytes()
                    + end.resident_bytes()
                    + receive.resident_bytes()
                    + dispatch.resident_bytes()
                    + finish.resident_bytes()
            }
            RowTimes::Us { start, end, dispatch, finish, receive } => {
                (start.capacity() + end.capacity() + dispatch.capacity() + finish.capacity() + receive.capacity()) * 8
            }
        };
        self.task_id.resident_bytes()
            + self.core_id.resident_bytes()
            + self.core_type.resident_bytes()
            + times
            + self.file_func_id.capacity() * 8
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
pub fn join_with_timebase(records: &ChipRecords, tb: Timebase) -> JoinedTasks {
    if let Some(v1) = &records.v1_tasks {
        return join_v1(records, v1);
    }
    join_raw(records.aicore.clone(), records.aicpu.clone(), records, tb)
}

/// [`join_with_timebase`], taking the AICore and AICPU rows out of `records`: each raw column
/// is freed as soon as the joined column made from it is built, so a big capture's raw rows
/// and joined rows never coexist whole (the model build's peak). `records` keeps its other
/// records, and no AICore or AICPU rows.
pub fn join_taking(records: &mut ChipRecords, tb: Timebase) -> JoinedTasks {
    if let Some(v1) = &records.v1_tasks {
        return join_v1(records, v1);
    }
    let aicore = std::mem::take(&mut records.aicore);
    let aicpu = std::mem::take(&mut records.aicpu);
    join_raw(aicore, aicpu, records, tb)
}

/// For each AICPU row, its AICore partner ([`NO_ROW`] when none) by `(core, reg_task_id,
/// run_epoch)`, the later AICore row winning a duplicate key; also the number of duplicate
/// keys and the unmatched AICPU rows per core. Matched one core at a time: a map of one
/// core's rows, where a map of every row took ~100 MB at 2M rows.
fn partners(core_rows: &AicoreRows, cpu_rows: &AicpuRows, with_epoch: bool) -> (Vec<u32>, usize, HashMap<u32, usize>) {
    // Row indices grouped by core (file order within a core), sized by a counting pass.
    let group = |cores: &[u32]| -> (Vec<u32>, Vec<Vec<u32>>) {
        let mut count: HashMap<u32, usize> = HashMap::default();
        for &c in cores {
            *count.entry(c).or_default() += 1;
        }
        let mut keys: Vec<u32> = count.keys().copied().collect();
        keys.sort_unstable();
        let mut lists: Vec<Vec<u32>> = keys.iter().map(|k| Vec::with_capacity(count.get(k).copied().unwrap_or(0))).collect();
        for (i, c) in cores.iter().enumerate() {
            if let Some(list) = keys.binary_search(c).ok().and_then(|k| lists.get_mut(k)) {
                list.push(i as u32);
            }
        }
        (keys, lists)
    };
    let (core_keys, core_lists) = group(&core_rows.core_id);
    let (cpu_keys, cpu_lists) = group(&cpu_rows.core_id);
    let epoch = |e: Option<&u32>| if with_epoch { e.copied().unwrap_or(0) } else { 0 };
    let mut partner = vec![NO_ROW; cpu_rows.len()];
    let (mut dup, mut unmatched) = (0usize, HashMap::<u32, usize>::default());
    let mut map: HashMap<(u64, u32), u32> = HashMap::default();
    for (c, rows) in core_keys.iter().zip(&core_lists) {
        map.clear();
        for &i in rows {
            let key = (core_rows.reg_task_id.get(i as usize).copied().unwrap_or(0), epoch(core_rows.run_epoch.get(i as usize)));
            dup += usize::from(map.insert(key, i).is_some());
        }
        let Some(cpu) = cpu_keys.binary_search(c).ok().and_then(|k| cpu_lists.get(k)) else { continue };
        for &j in cpu {
            let key = (cpu_rows.reg_task_id.get(j as usize).copied().unwrap_or(0), epoch(cpu_rows.run_epoch.get(j as usize)));
            match (map.get(&key), partner.get_mut(j as usize)) {
                (Some(&i), Some(slot)) => *slot = i,
                _ => *unmatched.entry(*c).or_default() += 1,
            }
        }
    }
    // AICPU rows on a core without AICore rows.
    for (c, cpu) in cpu_keys.iter().zip(&cpu_lists) {
        if core_keys.binary_search(c).is_err() {
            *unmatched.entry(*c).or_default() += cpu.len();
        }
    }
    (partner, dup, unmatched)
}

/// The join of raw rows (see the module doc); `records` gives the level and core types.
fn join_raw(mut core_rows: AicoreRows, mut cpu_rows: AicpuRows, records: &ChipRecords, tb: Timebase) -> JoinedTasks {
    let mut warnings = tb.warnings.clone();
    let with_epoch = core_rows.has_run_epoch() && cpu_rows.columns == 5;
    let mut rows: Vec<Row> = Vec::new();
    if !cpu_rows.is_empty() {
        let (partner, dup, unmatched) = partners(&core_rows, &cpu_rows, with_epoch);
        if dup > 0 {
            warnings.push(
                Warning::analysis(
                    WarningKind::JoinDuplicateKey,
                    format!("{dup} duplicate AICore join key(s) (core_id, reg_task_id); the later row wins"),
                )
                .count("count", dup),
            );
        }
        rows.reserve_exact(partner.iter().filter(|&&i| i != NO_ROW).count());
        rows.extend(partner.iter().enumerate().filter(|(_, &i)| i != NO_ROW).map(|(j, &i)| Row { aicore: i, aicpu: j as u32 }));
        if !unmatched.is_empty() {
            let total: usize = unmatched.values().sum();
            let mut top: Vec<(u32, usize)> = unmatched.into_iter().collect();
            top.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
            let list: Vec<String> = top.iter().take(3).map(|(c, n)| format!("core {c}: {n}")).collect();
            let list = list.join(", ");
            warnings.push(
                Warning::analysis(
                    WarningKind::JoinUnpartneredAicpuRows,
                    format!("{total} AICPU row(s) without an AICore partner dropped (AICore buffer lost?); top cores: {list}"),
                )
                .count("count", total)
                .text("cores", list),
            );
        }
    } else if records.level <= 1 {
        rows.extend((0..core_rows.len()).map(|i| Row { aicore: i as u32, aicpu: NO_ROW }));
    } else if !core_rows.is_empty() {
        warnings.push(
            Warning::analysis(
                WarningKind::JoinNoAicpuRows,
                format!("level {} but no AICPU rows: no tasks can be joined ({} AICore rows unused)", records.level, core_rows.len()),
            )
            .text("level", records.level)
            .count("rows", core_rows.len()),
        );
    }
    let task_of = |r: &Row| core_rows.task_id.get(r.aicore as usize).copied().unwrap_or(0);
    if core_rows.has_run_epoch() {
        rows.sort_by_key(|r| (core_rows.run_epoch.get(r.aicore as usize).copied().unwrap_or(0), task_of(r)));
    } else {
        rows.sort_by_key(task_of);
    }
    // Keys done: free them, then build the joined columns one at a time, each raw column
    // freed once its last joined column is built.
    for v in [&mut core_rows.reg_task_id, &mut cpu_rows.reg_task_id] {
        *v = Vec::new();
    }
    core_rows.run_epoch = Vec::new();
    cpu_rows.run_epoch = Vec::new();
    cpu_rows.core_id = Vec::new();
    let at = |col: &[u64], i: u32| col.get(i as usize).copied().unwrap_or(0);
    let row = |r: &Row| {
        let core_id = core_rows.core_id.get(r.aicore as usize).copied().unwrap_or(0);
        let start = at(&core_rows.start_cycles, r.aicore);
        let on_cpu = |col: &[u64]| if r.aicpu == NO_ROW { 0 } else { at(col, r.aicpu) };
        RowCycles {
            task_id: at(&core_rows.task_id, r.aicore),
            core_id,
            core_type: records.metadata.core_type(core_id),
            start,
            end: at(&core_rows.end_cycles, r.aicore),
            receive: start.saturating_sub(at(&core_rows.receive_to_start_cycles, r.aicore)),
            dispatch: on_cpu(&cpu_rows.dispatch_cycles),
            finish: on_cpu(&cpu_rows.finish_cycles),
        }
    };
    let mut t = JoinedTasks::from_cycles(|| rows.iter().map(row), tb);
    t.level = records.level;
    t.warnings = warnings;
    t
}

fn join_v1(records: &ChipRecords, v1: &pypto_formats::records::V1Tasks) -> JoinedTasks {
    let mut order: Vec<usize> = (0..v1.task_id.len()).collect();
    order.sort_by_key(|&i| v1.task_id.get(i).copied().unwrap_or(0));
    let mut t = JoinedTasks { level: records.level, ..JoinedTasks::default() };
    t.file_func_id.reserve(order.len());
    for i in order {
        let start = v1.start_us.get(i).copied().unwrap_or(0.0);
        let us = [
            start,
            v1.end_us.get(i).copied().unwrap_or(0.0),
            v1.dispatch_us.get(i).copied().unwrap_or(0.0),
            v1.finish_us.get(i).copied().unwrap_or(0.0),
            start,
        ];
        t.push_us(
            v1.task_id.get(i).copied().unwrap_or(0),
            v1.core_id.get(i).copied().unwrap_or(0),
            v1.core_type.get(i).copied().unwrap_or_default(),
            us,
        );
        t.file_func_id.push(v1.func_id.get(i).copied().unwrap_or(-1));
    }
    t.task_id.shrink_to_fit();
    t.core_id.shrink_to_fit();
    t.core_type.shrink_to_fit();
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
            let Some(k) = tasks.task_id.get(i).and_then(kernels_of) else {
                return -1;
            };
            match tasks.core_type(i).unwrap_or_default() {
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
    tasks.task_id.iter().map(|id| ids.contains(&id)).collect()
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
    for (id, ct) in tasks.task_id.iter().zip(tasks.core_types()) {
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
    format!("func_{func_id}_{}", letters(func_id.unsigned_abs().saturating_add(1)))
}

/// Task label (§1.13): `task(<tid>)` unresolved, `<name>(<tid>)`, or
/// `func_<id>_<letters>(<tid>)`; SPMD inserts `_spmd` unless the base already contains
/// `spmd` (case-insensitive).
pub fn task_label(task_id: u64, func_id: i64, name: Option<&str>, spmd: bool) -> String {
    let mut base = if func_id < 0 { "task".to_owned() } else { name.map_or_else(|| default_func_name(func_id), str::to_owned) };
    if spmd && !base.to_ascii_lowercase().contains("spmd") {
        base.push_str("_spmd");
    }
    format!("{base}({})", TaskId(task_id))
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
            t.push_us(id, 0, ct, [0.0; 5]);
        }
        // 7: the second valid entry (9) wins, the invalid third is skipped; 6 is not in deps.
        assert_eq!(func_ids(&t, Some(&d)), vec![9, 4, -1]);
        assert_eq!(func_ids(&t, None), vec![-1, -1, -1]);
    }
}

#[cfg(test)]
mod join_tests {
    use super::*;

    /// AICore rows `(core, task, reg, start)` and AICPU rows `(core, reg, dispatch)`.
    fn records(core: &[(u32, u64, u64, u64)], cpu: &[(u32, u64, u64)]) -> ChipRecords {
        let mut r = ChipRecords { level: 2, ..ChipRecords::default() };
        r.metadata.clock_freq_hz = 1_000_000;
        for &(c, task, reg, start) in core {
            r.aicore.core_id.push(c);
            r.aicore.task_id.push(task);
            r.aicore.reg_task_id.push(reg);
            r.aicore.start_cycles.push(start);
            r.aicore.end_cycles.push(start + 5);
            r.aicore.receive_to_start_cycles.push(1);
            r.aicore.run_epoch.push(0);
        }
        r.aicore.columns = 6;
        for &(c, reg, dispatch) in cpu {
            r.aicpu.core_id.push(c);
            r.aicpu.reg_task_id.push(reg);
            r.aicpu.dispatch_cycles.push(dispatch);
            r.aicpu.finish_cycles.push(dispatch + 9);
            r.aicpu.run_epoch.push(0);
        }
        r.aicpu.columns = 4;
        r
    }

    #[test]
    fn rows_pair_by_core_and_reg_id_later_duplicates_win_and_strays_are_counted() {
        let r = records(
            // Core 1 has reg 7 twice (the later row, task 30, wins); core 2's reg 7 is its own.
            &[(1, 10, 7, 100), (2, 20, 7, 200), (1, 30, 7, 300), (1, 40, 8, 400)],
            // Core 1 reg 9 and core 5 (no AICore rows at all) have no partner.
            &[(2, 7, 50), (1, 7, 60), (1, 9, 70), (5, 1, 80), (1, 8, 90)],
        );
        let tb = Timebase::from_records(&r);
        let t = join_with_timebase(&r, tb.clone());
        // Sorted by task id: the joined pairs are (core 2 reg 7) -> task 20, (core 1 reg 7)
        // -> task 30, (core 1 reg 8) -> task 40.
        assert_eq!(t.task_id.to_vec(), vec![20, 30, 40]);
        assert_eq!(t.core_id.to_vec(), vec![2, 1, 1]);
        let column = |f: fn(&JoinedTasks, usize) -> Option<f64>| (0..t.len()).filter_map(|i| f(&t, i)).collect::<Vec<f64>>();
        assert_eq!(column(JoinedTasks::dispatch_us), vec![tb.us(50), tb.us(60), tb.us(90)]);
        assert_eq!(column(JoinedTasks::receive_us), vec![tb.us(199), tb.us(299), tb.us(399)]);
        assert_eq!(column(JoinedTasks::finish_us), vec![tb.us(59), tb.us(69), tb.us(99)]);
        assert_eq!(column(JoinedTasks::end_us), vec![tb.us(205), tb.us(305), tb.us(405)]);
        assert!(t.warnings.iter().any(|w| w.message.starts_with("1 duplicate AICore join key")), "{:?}", t.warnings);
        assert!(
            t.warnings.iter().any(|w| w.message.starts_with("2 AICPU row(s) without an AICore partner dropped")
                && w.message.contains("core 1: 1")
                && w.message.contains("core 5: 1")),
            "{:?}",
            t.warnings
        );
        // Taking the rows out of the file joins the same, and leaves none behind.
        let mut taken = r.clone();
        let t2 = join_taking(&mut taken, tb);
        assert_eq!(t2, t);
        assert!(taken.aicore.is_empty() && taken.aicpu.is_empty());
        assert_eq!(taken.sched_threads, r.sched_threads);
    }
}
