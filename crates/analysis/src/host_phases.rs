//! The host prepare phases of a `host_build_graph` run (`host_phase_records.jsonl`, read by
//! [`pypto_formats::host_phase_records`]) placed on the chip swimlane's µs axis, for its
//! "Host Prepare" lane group (beside the Orchestrator), the bar details and `report`.
//!
//! Host records are on the host `CLOCK_MONOTONIC` axis in ns, the same axis as the records
//! file's host orchestrator phases, so they convert the same way: `(ns - origin) / 1000` µs
//! with the records' host origin ([`Timebase::host_us`]). Without a host origin (a
//! device-orchestrated capture) there is no common clock and nothing is placed (a warning
//! says so). A record that ends before it starts, or lies more than a day from the origin, is
//! not drawn (a warning names its line and record, as the records file's checks do).
//!
//! Lanes: one per prepare pass (`pid`, `inv`) and producer thread (`tid`, the pass's `pid`
//! when absent), in file order of their first record. Within a lane, a phase that lies inside
//! an earlier one (`host_orch` ⊃ `submit_task`) goes one row deeper, as a call stack is drawn.

use crate::timebase::Timebase;
use pypto_formats::host_phase_records::HostPhaseRecords;
use pypto_vocab::{Warning, WarningKind};
use std::collections::HashMap;

/// Nanoseconds in a day: the plausible distance of a host record from the capture's origin.
const DAY_NS: f64 = 86_400.0 * 1e9;

/// One prepare pass (a line of the file).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HostPass {
    pub pid: Option<u64>,
    pub inv: Option<u64>,
    pub clock: Option<String>,
    pub dropped: u64,
    /// 1-based line in the file.
    pub line: u64,
}

/// One lane: the records of one pass and thread.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HostLane {
    /// Index into [`HostPhasesUs::passes`].
    pub pass: u32,
    /// The producer thread (the pass's pid when the records name none).
    pub tid: Option<u64>,
    /// Nesting depth + 1.
    pub rows: u32,
    /// Its records are `lane_offsets[l]..lane_offsets[l + 1]` of the record columns, sorted by
    /// row and then start.
    pub first: u32,
    pub end: u32,
}

/// The placed phases (see the module doc). Record columns are in lane order, each lane's
/// records by row and then start.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HostPhasesUs {
    /// The file's path (the details name it).
    pub path: String,
    pub passes: Vec<HostPass>,
    pub lanes: Vec<HostLane>,
    /// Per record: index into `phase_names`.
    pub phase: Vec<u32>,
    pub start_us: Vec<f64>,
    pub end_us: Vec<f64>,
    pub detail: Vec<u64>,
    pub row: Vec<u32>,
    /// Per record: its index in its pass's `records` array (the details name it).
    pub record: Vec<u32>,
    pub phase_names: Vec<String>,
}

impl HostPhasesUs {
    pub fn is_empty(&self) -> bool {
        self.phase.is_empty()
    }

    pub fn len(&self) -> usize {
        self.phase.len()
    }

    /// Phase name of record `r`.
    pub fn phase_name(&self, r: usize) -> &str {
        self.phase.get(r).and_then(|&p| self.phase_names.get(p as usize)).map_or("", String::as_str)
    }

    /// The lane holding record `r`.
    pub fn lane_of(&self, r: usize) -> Option<&HostLane> {
        let r = u32::try_from(r).ok()?;
        self.lanes.iter().find(|l| (l.first..l.end).contains(&r))
    }

    /// The lane's label: `inv 1 · pid 31083` for the process's own thread, `inv 1 · tid 1242`
    /// for another (short enough for the swimlane's gutter; the details name both).
    pub fn lane_label(&self, lane: &HostLane) -> String {
        let pass = self.passes.get(lane.pass as usize);
        let num = |v: Option<u64>| v.map_or_else(|| "?".to_owned(), |v| v.to_string());
        let pid = pass.and_then(|p| p.pid);
        let inv = num(pass.and_then(|p| p.inv));
        match lane.tid.filter(|&t| Some(t) != pid) {
            Some(tid) => format!("inv {inv} · tid {tid}"),
            None => format!("inv {inv} · pid {}", num(pid)),
        }
    }

    /// What `detail` means for a phase: a byte count for the upload and arena phases, an index
    /// for the submit and record phases (`None`: not known, shown as is).
    pub fn detail_meaning(phase: &str) -> Option<&'static str> {
        match phase {
            "graph_upload" | "shared_mem" | "arena_h2d" => Some("Bytes"),
            "submit_task" | "graph_submit" => Some("Submit index"),
            "record_node" | "build_definition" => Some("Node"),
            _ => None,
        }
    }

    /// Resident bytes (capacities), for the bench's table.
    pub fn resident_bytes(&self) -> usize {
        self.phase.capacity() * 4
            + (self.start_us.capacity() + self.end_us.capacity()) * 8
            + self.detail.capacity() * 8
            + (self.row.capacity() + self.record.capacity()) * 4
            + self.lanes.capacity() * std::mem::size_of::<HostLane>()
            + self.passes.capacity() * std::mem::size_of::<HostPass>()
            + self.phase_names.iter().map(String::capacity).sum::<usize>()
    }
}

/// One phase name's records: how many, and their total, mean and longest duration.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PhaseStats {
    pub phase: String,
    pub count: u64,
    pub total_us: f64,
    pub avg_us: f64,
    pub max_us: f64,
}

impl HostPhasesUs {
    /// Per phase name, in the order the names first appear in the file.
    pub fn phase_stats(&self) -> Vec<PhaseStats> {
        let mut out: Vec<PhaseStats> =
            self.phase_names.iter().map(|p| PhaseStats { phase: p.clone(), count: 0, total_us: 0.0, avg_us: 0.0, max_us: 0.0 }).collect();
        for r in 0..self.len() {
            let Some(s) = self.phase.get(r).and_then(|&p| out.get_mut(p as usize)) else { continue };
            let d = self.end_us.get(r).copied().unwrap_or(0.0) - self.start_us.get(r).copied().unwrap_or(0.0);
            s.count += 1;
            s.total_us += d;
            s.max_us = s.max_us.max(d);
        }
        out.retain(|s| s.count > 0);
        for s in &mut out {
            s.avg_us = s.total_us / s.count as f64;
        }
        out
    }
}

/// The warning of a host phase file beside records without a host clock.
fn no_host_clock(path: &str, count: usize) -> Warning {
    Warning::new(
        WarningKind::HostPhaseNoHostClock,
        path,
        format!(
            "{count} host prepare record(s) not shown: the swimlane records are not host-orchestrated, so there is no host \
             clock to place them on"
        ),
    )
    .count("count", count)
}

/// Places the phases of `records` (read from `path`) with the records file's time base `tb`;
/// the warnings say what could not be placed.
pub fn place(path: &str, records: &HostPhaseRecords, tb: &Timebase) -> (HostPhasesUs, Vec<Warning>) {
    let mut out = HostPhasesUs { path: path.to_owned(), phase_names: records.phase_names.clone(), ..HostPhasesUs::default() };
    let mut warnings = Vec::new();
    if records.record_count() == 0 {
        return (out, warnings);
    }
    let Some(origin_ns) = tb.host_origin_ns else {
        warnings.push(no_host_clock(path, records.record_count()));
        return (out, warnings);
    };
    let mut bad: Vec<String> = Vec::new();
    let mut bad_count = 0usize;
    let mut first_bad_line = 0u64;
    // The lanes in order of their first record, and each lane's records in file order (a file
    // appended to by a long-running process holds thousands of passes).
    let mut lane_keys: Vec<(u32, Option<u64>)> = Vec::new();
    let mut lane_index: HashMap<(u32, Option<u64>), usize> = HashMap::new();
    let mut by_lane: Vec<Vec<usize>> = Vec::new();
    for p in 0..records.pass_count() {
        let line = records.pass_line.get(p).copied().unwrap_or(0);
        let pid = records.pass_pid.get(p).copied().flatten();
        out.passes.push(HostPass {
            pid,
            inv: records.pass_inv.get(p).copied().flatten(),
            clock: records.pass_clock.get(p).cloned().flatten(),
            dropped: records.pass_dropped.get(p).copied().unwrap_or(0),
            line,
        });
        for (k, r) in records.records_of(p).enumerate() {
            let (s, e) = (records.start_ns.get(r).copied().unwrap_or(0), records.end_ns.get(r).copied().unwrap_or(0));
            let from_origin = |ns: u64| (i128::from(ns) - i128::from(origin_ns)).unsigned_abs() as f64;
            let why = if e < s {
                Some(format!("ends before it starts (start_ns {s}, end_ns {e})"))
            } else if from_origin(s) > DAY_NS || from_origin(e) > DAY_NS {
                Some(format!("more than a day from the capture's host origin {origin_ns} ns (start_ns {s}, end_ns {e})"))
            } else {
                None
            };
            if let Some(why) = why {
                bad_count += 1;
                if first_bad_line == 0 {
                    first_bad_line = line;
                }
                if bad.len() < 5 {
                    bad.push(format!("line {line} records[{k}] ({}: {why})", records.phase_name(r)));
                }
                continue;
            }
            let tid = records.tid.get(r).copied().flatten().or(pid);
            let key = (p as u32, tid);
            let slot = *lane_index.entry(key).or_insert_with(|| {
                lane_keys.push(key);
                by_lane.push(Vec::new());
                lane_keys.len() - 1
            });
            if let Some(mine) = by_lane.get_mut(slot) {
                mine.push(r);
            }
        }
    }
    if bad_count > 0 {
        let more_records = bad_count.saturating_sub(bad.len());
        let more = if more_records > 0 { format!(", and {more_records} more") } else { String::new() };
        let list = bad.join("; ");
        warnings.push(
            Warning::at(
                WarningKind::HostPhaseImplausibleTime,
                path,
                first_bad_line,
                1,
                format!("{bad_count} host prepare record(s) not drawn: {list}{more}"),
            )
            .count("count", bad_count)
            .text("records", list)
            .count("more", more_records),
        );
    }
    let start = |r: usize| records.start_ns.get(r).copied().unwrap_or(0);
    let end = |r: usize| records.end_ns.get(r).copied().unwrap_or(0);
    for (&(pass, tid), mine) in lane_keys.iter().zip(by_lane) {
        let rows = nest(mine, start, end);
        let first = out.phase.len() as u32;
        let depth = rows.iter().map(|x| x.0).max().unwrap_or(0);
        let pass_first = records.record_offsets.get(pass as usize).copied().unwrap_or(0);
        for (row, r) in rows {
            out.phase.push(records.phase.get(r).copied().unwrap_or(0));
            out.start_us.push(tb.host_us(start(r)));
            out.end_us.push(tb.host_us(end(r)));
            out.detail.push(records.detail.get(r).copied().unwrap_or(0));
            out.row.push(row);
            out.record.push((r as u32).saturating_sub(pass_first));
        }
        out.lanes.push(HostLane { pass, tid, rows: depth + 1, first, end: out.phase.len() as u32 });
    }
    (out, warnings)
}

/// One lane's records as `(row, record)` in drawing order (row, then start): a record inside an
/// earlier one (start ascending, longer first) goes one row deeper than it.
fn nest(mut records: Vec<usize>, start: impl Fn(usize) -> u64, end: impl Fn(usize) -> u64) -> Vec<(u32, usize)> {
    records.sort_by(|&a, &b| start(a).cmp(&start(b)).then(end(b).cmp(&end(a))).then(a.cmp(&b)));
    let mut open: Vec<u64> = Vec::new();
    let mut rows: Vec<(u32, usize)> = Vec::with_capacity(records.len());
    for r in records {
        while open.last().is_some_and(|&e| e <= start(r)) {
            open.pop();
        }
        rows.push((open.len() as u32, r));
        open.push(end(r));
    }
    rows.sort_by(|a, b| a.0.cmp(&b.0).then(start(a.1).cmp(&start(b.1))));
    rows
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use pypto_formats::host_phase_records;

    fn host_tb(origin_ns: u64) -> Timebase {
        Timebase { host_origin_ns: Some(origin_ns), ..Timebase::device(1, 50_000_000) }
    }

    #[test]
    fn nested_phases_go_one_row_deeper_and_threads_get_lanes() {
        let text = r#"{"pid": 7, "inv": 2, "records": [
            {"phase": "args", "start_ns": 1000, "end_ns": 2000, "tid": 7},
            {"phase": "host_orch", "start_ns": 3000, "end_ns": 9000, "tid": 7},
            {"phase": "submit_task", "start_ns": 3000, "end_ns": 4000, "detail": 0, "tid": 7},
            {"phase": "submit_task", "start_ns": 4000, "end_ns": 5000, "detail": 1, "tid": 7},
            {"phase": "record_node", "start_ns": 3500, "end_ns": 3600, "detail": 5, "tid": 9},
            {"phase": "arena_h2d", "start_ns": 9000, "end_ns": 9500, "detail": 4096}]}"#
            .replace('\n', " ");
        let r = host_phase_records::parse("h.jsonl", text.as_bytes()).unwrap();
        let (h, w) = place("h.jsonl", &r, &host_tb(3000));
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(h.lanes.len(), 2);
        let main = &h.lanes[0];
        assert_eq!((main.tid, main.rows, main.first, main.end), (Some(7), 2, 0, 5));
        let names: Vec<(&str, u32)> = (0..5).map(|r| (h.phase_name(r), h.row[r])).collect();
        assert_eq!(
            names,
            [("args", 0), ("host_orch", 0), ("arena_h2d", 0), ("submit_task", 1), ("submit_task", 1)],
            "row 0 by start, then row 1"
        );
        assert_eq!((h.start_us[0], h.end_us[0]), (-2.0, -1.0), "µs from the host origin");
        assert_eq!(h.record[2], 5, "the record's index in its pass");
        assert_eq!(h.lane_label(main), "inv 2 · pid 7");
        assert_eq!(h.lane_label(&h.lanes[1]), "inv 2 · tid 9");
        assert_eq!(h.detail[2], 4096);
        let stats = h.phase_stats();
        let submit = stats.iter().find(|s| s.phase == "submit_task").unwrap();
        assert_eq!((submit.count, submit.total_us, submit.avg_us, submit.max_us), (2, 2.0, 1.0, 1.0));
        assert_eq!(stats.first().map(|s| s.phase.as_str()), Some("args"), "file order");
    }

    #[test]
    fn implausible_records_are_named_and_not_drawn() {
        let text = "{\"pid\": 1, \"inv\": 1, \"records\": [\
            {\"phase\": \"a\", \"start_ns\": 5000, \"end_ns\": 4000},\
            {\"phase\": \"b\", \"start_ns\": 5000, \"end_ns\": 6000},\
            {\"phase\": \"c\", \"start_ns\": 5000, \"end_ns\": 100000000000000000}]}";
        let r = host_phase_records::parse("h.jsonl", text.as_bytes()).unwrap();
        let (h, w) = place("h.jsonl", &r, &host_tb(5000));
        assert_eq!(h.len(), 1);
        assert_eq!(h.phase_name(0), "b");
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].kind, WarningKind::HostPhaseImplausibleTime);
        assert_eq!((w[0].line, w[0].column), (1, 1));
        assert!(w[0].message.contains("2 host prepare record(s) not drawn"), "{}", w[0].message);
        assert!(w[0].message.contains("records[0] (a: ends before it starts"), "{}", w[0].message);
        assert!(w[0].message.contains("records[2] (c: more than a day"), "{}", w[0].message);
    }

    #[test]
    fn without_a_host_clock_nothing_is_placed_and_a_warning_says_why() {
        let text = r#"{"pid": 1, "inv": 1, "records": [{"phase": "a", "start_ns": 1, "end_ns": 2}]}"#;
        let r = host_phase_records::parse("h.jsonl", text.as_bytes()).unwrap();
        let (h, w) = place("h.jsonl", &r, &Timebase::device(1, 50_000_000));
        assert!(h.is_empty() && h.lanes.is_empty());
        assert_eq!(w.iter().map(|w| w.kind).collect::<Vec<_>>(), [WarningKind::HostPhaseNoHostClock]);
    }
}
