//! Semantic checks of a records file's times, for everyone who reads the swimlane's numbers:
//! a cycle value that was negative in the file (read into `u64` as ≥ 2^63), a row that ends
//! before it starts, or a time more than a day (at the file's clock) away from the capture's
//! median start is never drawn — the row is skipped and a warning names the table and the rows
//! (first few by index, then a count). One wild row would otherwise stretch the timeline over
//! years and squash every other bar at 0. The same checks run for the page and the CLI (they
//! are part of [`crate::records::parse`] and [`crate::records::RecordsStream`]).

use crate::columns::{CyclesColumn, KindColumn, NarrowU32Column, OptIdColumn, QueueDepthsColumn};
use crate::records::{AicoreRows, AicpuRows, ChipRecords, OrchThread, SchedThread};
use pypto_vocab::{Warning, WarningKind};

/// Rows named in one warning; the rest are counted.
const ROWS_NAMED: usize = 5;

/// Seconds in a day: the plausible bound of one capture.
const DAY_S: u64 = 86_400;

/// A cycle value read from a negative integer (the reader keeps the two's complement bits).
fn is_negative(v: u64) -> bool {
    v >= 1 << 63
}

/// `name = -7`; a value written as a huge positive number reads the same, so both are said.
fn negative(name: &str, v: u64) -> String {
    let signed = v.cast_signed();
    if v == u64::MAX {
        format!("{name} = -1, or 2^64-1 as written")
    } else if signed > -(1 << 62) {
        format!("{name} = {signed}")
    } else {
        format!("{name} = {v}, at or above 2^63 (or {signed})")
    }
}

/// What is wrong with one row, if anything: the kind and a short description.
fn problem(fields: &[(&str, u64)], span: Option<(u64, u64)>, median: u64, day_cycles: u64) -> Option<(WarningKind, String)> {
    if let Some((name, v)) = fields.iter().find(|(_, v)| is_negative(*v)) {
        return Some((WarningKind::RecordsNegativeTime, negative(name, *v)));
    }
    if let Some((start, end)) = span {
        if end != 0 && end < start {
            return Some((WarningKind::RecordsEndBeforeStart, format!("ends at {end} before it starts at {start}")));
        }
    }
    // 0 is "absent" in these columns; a far-away non-zero time is implausible.
    if day_cycles > 0 {
        if let Some((name, v)) = fields.iter().find(|(_, v)| *v != 0 && v.abs_diff(median) > day_cycles) {
            return Some((
                WarningKind::RecordsImplausibleTime,
                format!("{name} = {v}, more than a day from the capture's median start {median}"),
            ));
        }
    }
    None
}

/// The problems found in one table: per kind, the rows (index, description).
#[derive(Default)]
struct Findings {
    rows: Vec<(WarningKind, usize, String)>,
}

impl Findings {
    /// One warning per kind, naming the first rows.
    fn warn(self, path: &str, table: &str, warnings: &mut Vec<Warning>) {
        for kind in [WarningKind::RecordsNegativeTime, WarningKind::RecordsEndBeforeStart, WarningKind::RecordsImplausibleTime] {
            let rows: Vec<&(WarningKind, usize, String)> = self.rows.iter().filter(|r| r.0 == kind).collect();
            if rows.is_empty() {
                continue;
            }
            let what = match kind {
                WarningKind::RecordsNegativeTime => "a negative time",
                WarningKind::RecordsEndBeforeStart => "an end before the start",
                _ => "an implausible time",
            };
            let named: Vec<String> = rows.iter().take(ROWS_NAMED).map(|(_, i, d)| format!("{table}[{i}] ({d})")).collect();
            let more_rows = rows.len().saturating_sub(ROWS_NAMED);
            let more = if more_rows > 0 { format!(", and {more_rows} more") } else { String::new() };
            let list = named.join(", ");
            warnings.push(
                Warning::new(kind, path, format!("{} row(s) with {what} skipped: {list}{more}", rows.len()))
                    .count("count", rows.len())
                    .text("rows", list)
                    .count("more", more_rows),
            );
        }
    }

    fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Whether row `i` was found bad (rows are pushed in order).
    fn keep_mask(&self, n: usize) -> Vec<bool> {
        let mut keep = vec![true; n];
        for &(_, i, _) in &self.rows {
            if let Some(k) = keep.get_mut(i) {
                *k = false;
            }
        }
        keep
    }
}

/// Keeps the entries of `v` whose `keep` is true (a column shorter than the mask, e.g. an
/// absent optional one, keeps what it has).
fn retain<T>(v: &mut Vec<T>, keep: &[bool]) {
    if v.len() != keep.len() {
        return;
    }
    let mut k = keep.iter();
    v.retain(|_| k.next().copied().unwrap_or(true));
}

fn retain_cycles(c: &CyclesColumn, keep: &[bool]) -> CyclesColumn {
    c.iter().zip(keep).filter(|(_, &k)| k).map(|(v, _)| v).collect()
}

/// The median of the non-zero starts (0 when none).
fn median_start(starts: impl Iterator<Item = u64>) -> u64 {
    let mut v: Vec<u64> = starts.filter(|&s| s != 0 && !is_negative(s)).collect();
    if v.is_empty() {
        return 0;
    }
    let mid = v.len() / 2;
    *v.select_nth_unstable(mid).1
}

fn check_aicore(a: &AicoreRows, median: u64, day: u64) -> Findings {
    let mut f = Findings::default();
    for i in 0..a.len() {
        let start = a.start_cycles.get(i).copied().unwrap_or(0);
        let end = a.end_cycles.get(i).copied().unwrap_or(0);
        let receive = a.receive_to_start_cycles.get(i).copied().unwrap_or(0);
        let fields = [("start_cycles", start), ("end_cycles", end)];
        let p = if is_negative(receive) {
            Some((WarningKind::RecordsNegativeTime, negative("receive_to_start_cycles", receive)))
        } else {
            problem(&fields, Some((start, end)), median, day)
        };
        if let Some((kind, d)) = p {
            f.rows.push((kind, i, d));
        }
    }
    f
}

fn drop_aicore(a: &mut AicoreRows, keep: &[bool]) {
    retain(&mut a.core_id, keep);
    retain(&mut a.task_id, keep);
    retain(&mut a.reg_task_id, keep);
    retain(&mut a.start_cycles, keep);
    retain(&mut a.end_cycles, keep);
    retain(&mut a.receive_to_start_cycles, keep);
    retain(&mut a.run_epoch, keep);
}

fn check_aicpu(c: &AicpuRows, median: u64, day: u64) -> Findings {
    let mut f = Findings::default();
    for i in 0..c.len() {
        let dispatch = c.dispatch_cycles.get(i).copied().unwrap_or(0);
        let finish = c.finish_cycles.get(i).copied().unwrap_or(0);
        // A dispatch after the finish is the reference's own (it draws what it gets); only
        // impossible values are skipped here.
        if let Some((kind, d)) = problem(&[("dispatch_cycles", dispatch), ("finish_cycles", finish)], None, median, day) {
            f.rows.push((kind, i, d));
        }
    }
    f
}

fn drop_aicpu(c: &mut AicpuRows, keep: &[bool]) {
    retain(&mut c.core_id, keep);
    retain(&mut c.reg_task_id, keep);
    retain(&mut c.dispatch_cycles, keep);
    retain(&mut c.finish_cycles, keep);
    retain(&mut c.run_epoch, keep);
}

fn check_span(start: &CyclesColumn, end: &CyclesColumn, median: u64, day: u64) -> Findings {
    let mut f = Findings::default();
    for i in 0..start.len() {
        let (s, e) = (start.get(i).unwrap_or(0), end.get(i).unwrap_or(0));
        if let Some((kind, d)) = problem(&[("start_cycles", s), ("end_cycles", e)], Some((s, e)), median, day) {
            f.rows.push((kind, i, d));
        }
    }
    f
}

/// The thread without the bad records. Its file offsets no longer match the records, so
/// they are dropped (a record's raw text is then not re-read for its details).
fn drop_sched(t: &SchedThread, keep: &[bool]) -> SchedThread {
    let kept = || (0..t.len()).filter(|&i| keep.get(i).copied().unwrap_or(true));
    let mut out = SchedThread {
        kind: kept().filter_map(|i| t.kind.get(i)).collect::<KindColumn>(),
        start_cycles: retain_cycles(&t.start_cycles, keep),
        end_cycles: retain_cycles(&t.end_cycles, keep),
        task_id: kept().map(|i| t.task_id.get(i)).collect::<OptIdColumn>(),
        ..SchedThread::default()
    };
    let narrow = |c: &NarrowU32Column| -> NarrowU32Column {
        let mut n = NarrowU32Column::default();
        for i in kept() {
            n.push(c.get(i).unwrap_or(0));
        }
        n
    };
    out.loop_iter = narrow(&t.loop_iter);
    out.tasks_processed = narrow(&t.tasks_processed);
    out.pop_hit = narrow(&t.pop_hit);
    out.pop_miss = narrow(&t.pop_miss);
    out.run_epoch = narrow(&t.run_epoch);
    let depths = |c: &QueueDepthsColumn| -> QueueDepthsColumn {
        let mut q = QueueDepthsColumn::default();
        for i in kept() {
            q.push(c.get(i).unwrap_or_default());
        }
        q
    };
    out.shared_at_start = depths(&t.shared_at_start);
    out.shared_at_end = depths(&t.shared_at_end);
    out
}

fn drop_orch(t: &mut OrchThread, keep: &[bool]) {
    retain(&mut t.submit_idx, keep);
    retain(&mut t.task_id, keep);
    retain(&mut t.run_epoch, keep);
    t.start_cycles = retain_cycles(&t.start_cycles, keep);
    t.end_cycles = retain_cycles(&t.end_cycles, keep);
}

/// Runs the checks over the cycle-domain tables of `r`, skipping bad rows and adding one
/// warning per table and kind.
pub(crate) fn check_times(path: &str, r: &mut ChipRecords) {
    if r.v1_tasks.is_some() {
        return;
    }
    let day = r.metadata.clock_freq_hz.saturating_mul(DAY_S);
    let median = median_start(r.aicore.start_cycles.iter().copied().chain(r.aicpu.dispatch_cycles.iter().copied()));
    let mut warnings = Vec::new();
    let f = check_aicore(&r.aicore, median, day);
    if !f.is_empty() {
        let keep = f.keep_mask(r.aicore.len());
        drop_aicore(&mut r.aicore, &keep);
        f.warn(path, "aicore_tasks", &mut warnings);
    }
    let f = check_aicpu(&r.aicpu, median, day);
    if !f.is_empty() {
        let keep = f.keep_mask(r.aicpu.len());
        drop_aicpu(&mut r.aicpu, &keep);
        f.warn(path, "scheduler task rows", &mut warnings);
    }
    for (n, t) in r.sched_threads.iter_mut().enumerate() {
        let f = check_span(&t.start_cycles, &t.end_cycles, median, day);
        if !f.is_empty() {
            *t = drop_sched(t, &f.keep_mask(t.len()));
            f.warn(path, &format!("scheduler thread {n} phases"), &mut warnings);
        }
    }
    for (n, t) in r.orch_threads.iter_mut().enumerate() {
        let f = check_span(&t.start_cycles, &t.end_cycles, median, day);
        if !f.is_empty() {
            let keep = f.keep_mask(t.start_cycles.len());
            drop_orch(t, &keep);
            f.warn(path, &format!("orchestrator thread {n} phases"), &mut warnings);
        }
    }
    r.warnings.append(&mut warnings);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(times: &[(i64, i64)]) -> ChipRecords {
        let mut r = ChipRecords::default();
        r.metadata.clock_freq_hz = 50_000_000;
        for (i, &(s, e)) in times.iter().enumerate() {
            r.aicore.core_id.push(0);
            r.aicore.task_id.push(i as u64);
            r.aicore.reg_task_id.push(i as u64);
            r.aicore.start_cycles.push(s as u64);
            r.aicore.end_cycles.push(e as u64);
            r.aicore.receive_to_start_cycles.push(0);
        }
        r
    }

    #[test]
    fn negative_backwards_and_far_rows_are_skipped_and_named() {
        let day = 50_000_000 * DAY_S.cast_signed();
        let mut r = rows(&[(1000, 2000), (-5, 3000), (4000, 3500), (5000, 6000), (7000, 2 * day)]);
        check_times("r.json", &mut r);
        assert_eq!(r.aicore.start_cycles, vec![1000, 5000]);
        assert_eq!(r.aicore.task_id, vec![0, 3]);
        let kinds: Vec<WarningKind> = r.warnings.iter().map(|w| w.kind).collect();
        assert_eq!(kinds, [WarningKind::RecordsNegativeTime, WarningKind::RecordsEndBeforeStart, WarningKind::RecordsImplausibleTime]);
        assert_eq!(r.warnings[0].message, "1 row(s) with a negative time skipped: aicore_tasks[1] (start_cycles = -5)");
        assert!(r.warnings[1].message.contains("aicore_tasks[2] (ends at 3500 before it starts at 4000)"), "{}", r.warnings[1].message);
        assert!(r.warnings.iter().all(|w| w.path == "r.json"));
    }

    #[test]
    fn healthy_rows_and_absent_zeros_pass() {
        // A counter far from 0 (days of uptime) with an absent (0) end: nothing to say.
        let base = 50_000_000 * DAY_S.cast_signed() * 3;
        let mut r = rows(&[(base, base + 10), (base + 20, 0), (base + 30, base + 40)]);
        check_times("r.json", &mut r);
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        assert_eq!(r.aicore.len(), 3);
    }

    #[test]
    fn many_rows_are_counted_after_the_first_few() {
        let mut r = rows(&[(10, 20); 8]);
        r.aicore.start_cycles.iter_mut().for_each(|s| *s = (-1i64) as u64);
        check_times("r.json", &mut r);
        assert_eq!(r.aicore.len(), 0);
        assert!(r.warnings[0].message.starts_with("8 row(s) with a negative time skipped"));
        assert!(r.warnings[0].message.ends_with(", and 3 more"));
    }
}
