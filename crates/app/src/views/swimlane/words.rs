//! The swimlane's words that come from the worker as data, in the page language: a bar's
//! details labels (the worker sends its English field names as stable keys; the page shows
//! them translated, the CSV export keeps the keys), a few known values, the lane view titles
//! and the canvas's group headings (built here from the group's view and track count).
//! Unknown keys show as sent.

use pypto_protocol::timeline::TrackGroupInfo;
use pypto_protocol::TimelineView;

use crate::i18n::{tr, tr_with, Arg};

/// A details field the worker (or the page's preview) names, and its message.
struct Field {
    key: &'static str,
    label_id: &'static str,
}

const FIELDS: &[Field] = &[
    Field { key: "Arguments", label_id: "swd-arguments" },
    Field { key: "Bytes", label_id: "swd-bytes" },
    Field { key: "Clock", label_id: "swd-clock" },
    Field { key: "Core", label_id: "swd-core" },
    Field { key: "Critical path", label_id: "swd-critical-path" },
    Field { key: "Detail", label_id: "swd-detail" },
    Field { key: "Dispatch", label_id: "swd-dispatch" },
    Field { key: "Dropped records (pass)", label_id: "swd-dropped-records" },
    Field { key: "Duration (end − start)", label_id: "swd-duration-end-start" },
    Field { key: "Duration", label_id: "swd-duration" },
    Field { key: "End", label_id: "swd-end" },
    Field { key: "Fan-in", label_id: "swd-fan-in" },
    Field { key: "Fan-out", label_id: "swd-fan-out" },
    Field { key: "Finish", label_id: "swd-finish" },
    Field { key: "Func ID", label_id: "swd-func-id" },
    Field { key: "Function", label_id: "swd-function" },
    Field { key: "Head overhead (start − dispatch)", label_id: "swd-head-overhead" },
    Field { key: "Invocation", label_id: "swd-invocation" },
    Field { key: "Kind", label_id: "swd-kind" },
    Field { key: "Lane", label_id: "swd-lane" },
    Field { key: "Latency (finish − dispatch)", label_id: "swd-latency" },
    Field { key: "Loop iteration", label_id: "swd-loop-iteration" },
    Field { key: "Phase", label_id: "swd-phase" },
    Field { key: "Pop hit / miss", label_id: "swd-pop-hit-miss" },
    Field { key: "Predicated pass", label_id: "swd-predicated-pass" },
    Field { key: "Process (pid)", label_id: "swd-process-pid" },
    Field { key: "Propagation (receive − dispatch)", label_id: "swd-propagation" },
    Field { key: "Receive", label_id: "swd-receive" },
    Field { key: "Record", label_id: "swd-record" },
    Field { key: "Ring ID", label_id: "swd-ring-id" },
    Field { key: "Setup (receive → start)", label_id: "swd-setup-receive-start" },
    Field { key: "Setup", label_id: "swd-setup" },
    Field { key: "Start", label_id: "swd-start" },
    Field { key: "Submit index", label_id: "swd-submit-index" },
    Field { key: "Tail overhead (finish − end)", label_id: "swd-tail-overhead" },
    Field { key: "Task ID (raw)", label_id: "swd-task-id-raw" },
    Field { key: "Task", label_id: "swd-task" },
    Field { key: "Tasks processed", label_id: "swd-tasks-processed" },
    Field { key: "Thread (tid)", label_id: "swd-thread-tid" },
    Field { key: "Thread", label_id: "swd-thread" },
    Field { key: "Timeline shift", label_id: "swd-timeline-shift" },
];

/// Values the worker writes in words.
const VALUES: &[Field] = &[
    Field { key: "unresolved", label_id: "swd-value-unresolved" },
    Field { key: "could not read it back from the file", label_id: "swd-value-not-read" },
    Field { key: "static", label_id: "swd-value-static" },
    Field { key: "observed", label_id: "swd-value-observed" },
];

fn lookup(table: &[Field], key: &str) -> Option<&'static str> {
    table.iter().find(|f| f.key == key).map(|f| f.label_id)
}

/// A details label in the page language (`Arg 3` → the tensor argument's label).
pub fn field_label(key: &str) -> String {
    if let Some(id) = lookup(FIELDS, key) {
        return tr(id);
    }
    if let Some(n) = key.strip_prefix("Arg ") {
        return tr_with("swd-arg-n", &[("index", Arg::from(n))]);
    }
    if let Some(meaning) = key.strip_prefix("Detail (").and_then(|r| r.strip_suffix(')')) {
        return tr_with("swd-detail-meaning", &[("meaning", Arg::from(meaning))]);
    }
    key.to_owned()
}

/// A details value in the page language: known words, lists of them, a lane's view title.
pub fn field_value(key: &str, value: &str) -> String {
    if let Some(id) = lookup(VALUES, value) {
        return tr(id);
    }
    match key {
        "Critical path" => value.split(", ").map(|v| lookup(VALUES, v).map_or_else(|| v.to_owned(), tr)).collect::<Vec<_>>().join("、"),
        "Lane" => TimelineView::ALL
            .iter()
            .find_map(|v| value.strip_prefix(v.title()).map(|rest| format!("{}{rest}", view_title(*v))))
            .unwrap_or_else(|| value.to_owned()),
        _ => value.to_owned(),
    }
}

pub use crate::i18n::timeline_view_title as view_title;

/// A group's name: the worker's label is `<prefix><view title>` (the prefix names the rank or
/// the compared run); the view title is shown translated.
pub fn group_name(group: &TrackGroupInfo) -> String {
    match group.label.strip_suffix(group.view.title()) {
        Some(prefix) => format!("{prefix}{}", view_title(group.view)),
        None => group.label.clone(),
    }
}

/// The canvas's heading of a group: fold arrow, name and track count.
pub fn group_heading(group: &TrackGroupInfo, collapsed: bool) -> String {
    let arrow = if collapsed { "▸" } else { "▾" };
    tr_with(
        "swd-group-heading",
        &[("arrow", Arg::from(arrow)), ("name", Arg::from(group_name(group))), ("count", Arg::from(group.tracks.len()))],
    )
}

/// Why a view is absent: the worker's reasons are fixed sentences (keys), some naming the
/// capture's level (`level 1 captures hold …`); shown in the page language when known.
pub fn absent_reason(reason: &str) -> String {
    let (level, rest) = match reason.strip_prefix("level ").and_then(|r| r.split_once(' ')) {
        Some((n, rest)) if n.parse::<u32>().is_ok() => (Some(n), rest),
        _ => (None, reason),
    };
    let id = match (level.is_some(), rest) {
        (true, "captures hold AICore timing only: no AICPU dispatch/finish (needs level ≥ 2)") => "swd-absent-level-no-dispatch",
        (true, "captures hold no scheduler phases (needs level ≥ 3)") => "swd-absent-level-no-phases",
        (true, "captures hold no orchestrator records (needs level 4)") => "swd-absent-level-no-orchestrator",
        (false, "the capture has no AICore task rows") => "swd-absent-no-aicore-rows",
        (false, "no task has AICPU dispatch/finish timing") => "swd-absent-no-dispatch",
        (false, "the capture holds no scheduler phase records") => "swd-absent-no-phases",
        (false, "the capture holds no orchestrator records") => "swd-absent-no-orchestrator",
        (false, "no host_phase_records.jsonl beside the records (a host_build_graph run writes it)") => "swd-absent-no-host-phases",
        _ => return reason.to_owned(),
    };
    tr_with(id, &[("level", Arg::from(level.unwrap_or_default()))])
}
