//! The one warning type of every reader and analysis: what kind of oddity, in which file, at
//! which position (1-based line and column, 0 = unknown) and a message naming the record. The
//! page lists them with their dataset and the CLI's `report` prints the same list; the kinds
//! are enumerated ([`WarningKind::ALL`]) so a test can walk every one.
//!
//! The message is English (the CLI and the tests print it). Beside it a warning carries its
//! arguments ([`Warning::args`]: the counts, names and values the sentence holds), so that the
//! page words it in the user's language: the catalogue's message `warning-<kind key>` with
//! these arguments, whose English text is the `message` (a test in the CLI checks it on one
//! damaged dataset per kind). Whoever creates a warning adds its arguments with
//! [`Warning::count`] and [`Warning::text`].

use std::fmt;

/// What a warning is about. One variant per thing a reader or an analysis can warn about;
/// [`WarningKind::key`] is the stable name the page shows as `data-kind` and tests use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum WarningKind {
    // chip_swimlane_records.json
    /// A time (cycles) is negative: the row is skipped, never wrapped.
    RecordsNegativeTime,
    /// A row ends before it starts: skipped.
    RecordsEndBeforeStart,
    /// A time lies more than a day (at the file's clock) from the capture's median start: skipped.
    RecordsImplausibleTime,
    /// Both `tasks` and `aicore_tasks`: the object format was read.
    RecordsTwoTaskShapes,
    /// Both `scheduler_tasks` and `aicpu_tasks`: `scheduler_tasks` was read.
    RecordsTwoSchedulerShapes,
    /// Rows of one table have different widths.
    RecordsMixedWidths,
    /// No level key: the level was inferred from the content.
    RecordsLevelInferred,
    /// A level above 4, read as 4.
    RecordsLevelAbove4,
    /// A scheduler stream id too large to be a thread index: the stream is skipped.
    RecordsStreamIdTooLarge,
    /// A scheduler stream's metric names a record that does not exist.
    RecordsMetricOutOfRange,
    /// Two scheduler streams share an id: the later one is kept.
    RecordsStreamIdRepeated,
    /// Scheduler phase records of a kind this viewer does not know (kept, not drawn).
    RecordsUnknownPhaseKind,
    /// A host-orchestrated capture that also has AICPU orchestrator records.
    RecordsHostAndDeviceOrchestrator,
    // deps.json
    /// deps.json has no tasks, tensors or edges.
    DepsEmpty,
    /// Tasks without a valid `kernel_ids` (older files): their functions cannot be resolved.
    DepsNoKernelIds,
    /// A `kernel_ids` entry below −1 (only −1 means "no kernel").
    DepsKernelIdBelowMinusOne,
    /// `block_num` below 1: read as 1.
    DepsBlockNumBelowOne,
    /// Edges name tasks the task list does not hold.
    DepsEdgeToUnlistedTask,
    // name map
    /// Entries whose key is not an integer or whose value is not a string: skipped.
    NameMapEntrySkipped,
    /// `callable_id_to_name` is null: no names.
    NameMapNull,
    // CPM / Chrome traces
    /// A CPM task with bars both on and off the path: counted on the path.
    CpmTaskOnAndOffPath,
    /// A CPM file without Worker View task bars: an empty path.
    CpmNoTaskBars,
    /// `args.taskId` values that are not integers: ignored.
    TraceBadTaskIds,
    /// `B` events without an `E`: drawn up to the thread's last timestamp.
    TraceUnmatchedBegin,
    /// `E` events without a `B`: not drawn.
    TraceUnmatchedEnd,
    /// `X` events with a negative `dur`: drawn with zero length.
    TraceNegativeDuration,
    /// Events whose time lies beyond ±2^63 ns (Perfetto's range): not drawn.
    TraceTimeOutOfRange,
    // host_phase_records.jsonl
    /// A line or record of the host phase file that could not be read: skipped.
    HostPhaseSkipped,
    /// A host phase record that ends before it starts, or lies more than a day from the
    /// capture's host origin: not drawn.
    HostPhaseImplausibleTime,
    /// A prepare pass says its recorder dropped records: the pass is incomplete.
    HostPhaseRecordsDropped,
    /// The records file has no host clock (not host-orchestrated): the host phases cannot be
    /// placed on the timeline.
    HostPhaseNoHostClock,
    // analyses
    /// `AICore` rows sharing one join key (core, `reg_task_id`): the later row wins.
    JoinDuplicateKey,
    /// AICPU rows without an `AICore` partner: dropped.
    JoinUnpartneredAicpuRows,
    /// A level ≥ 2 capture without AICPU rows: no task could be joined.
    JoinNoAicpuRows,
    /// A host-orchestrated capture without clock anchors: device time placed approximately.
    ClockNotCalibrated,
    /// deps.json dummy tasks without a `dummy_task` scheduler record: not drawn.
    DummyTaskWithoutRecord,
    /// Object-format records carry µs: the critical path rebuilt ticks from them.
    CriticalPathFromMicroseconds,
    /// Several run epochs: rows of one task id across epochs are merged.
    CriticalPathSeveralEpochs,
    /// No deps.json: the critical paths use same-core links only.
    CriticalPathWithoutDeps,
    /// The critical path could not be computed.
    CriticalPathFailed,
    /// The graph's edge mode fell back to another one.
    EdgeModeFallback,
}

impl WarningKind {
    /// Every kind, in declaration order.
    pub const ALL: &'static [Self] = &[
        Self::RecordsNegativeTime,
        Self::RecordsEndBeforeStart,
        Self::RecordsImplausibleTime,
        Self::RecordsTwoTaskShapes,
        Self::RecordsTwoSchedulerShapes,
        Self::RecordsMixedWidths,
        Self::RecordsLevelInferred,
        Self::RecordsLevelAbove4,
        Self::RecordsStreamIdTooLarge,
        Self::RecordsMetricOutOfRange,
        Self::RecordsStreamIdRepeated,
        Self::RecordsUnknownPhaseKind,
        Self::RecordsHostAndDeviceOrchestrator,
        Self::DepsEmpty,
        Self::DepsNoKernelIds,
        Self::DepsKernelIdBelowMinusOne,
        Self::DepsBlockNumBelowOne,
        Self::DepsEdgeToUnlistedTask,
        Self::NameMapEntrySkipped,
        Self::NameMapNull,
        Self::CpmTaskOnAndOffPath,
        Self::CpmNoTaskBars,
        Self::TraceBadTaskIds,
        Self::TraceUnmatchedBegin,
        Self::TraceUnmatchedEnd,
        Self::TraceNegativeDuration,
        Self::TraceTimeOutOfRange,
        Self::HostPhaseSkipped,
        Self::HostPhaseImplausibleTime,
        Self::HostPhaseRecordsDropped,
        Self::HostPhaseNoHostClock,
        Self::JoinDuplicateKey,
        Self::JoinUnpartneredAicpuRows,
        Self::JoinNoAicpuRows,
        Self::ClockNotCalibrated,
        Self::DummyTaskWithoutRecord,
        Self::CriticalPathFromMicroseconds,
        Self::CriticalPathSeveralEpochs,
        Self::CriticalPathWithoutDeps,
        Self::CriticalPathFailed,
        Self::EdgeModeFallback,
    ];

    /// Stable kebab-case name (`records-negative-time`).
    pub fn key(self) -> &'static str {
        match self {
            Self::RecordsNegativeTime => "records-negative-time",
            Self::RecordsEndBeforeStart => "records-end-before-start",
            Self::RecordsImplausibleTime => "records-implausible-time",
            Self::RecordsTwoTaskShapes => "records-two-task-shapes",
            Self::RecordsTwoSchedulerShapes => "records-two-scheduler-shapes",
            Self::RecordsMixedWidths => "records-mixed-widths",
            Self::RecordsLevelInferred => "records-level-inferred",
            Self::RecordsLevelAbove4 => "records-level-above-4",
            Self::RecordsStreamIdTooLarge => "records-stream-id-too-large",
            Self::RecordsMetricOutOfRange => "records-metric-out-of-range",
            Self::RecordsStreamIdRepeated => "records-stream-id-repeated",
            Self::RecordsUnknownPhaseKind => "records-unknown-phase-kind",
            Self::RecordsHostAndDeviceOrchestrator => "records-host-and-device-orchestrator",
            Self::DepsEmpty => "deps-empty",
            Self::DepsNoKernelIds => "deps-no-kernel-ids",
            Self::DepsKernelIdBelowMinusOne => "deps-kernel-id-below-minus-one",
            Self::DepsBlockNumBelowOne => "deps-block-num-below-one",
            Self::DepsEdgeToUnlistedTask => "deps-edge-to-unlisted-task",
            Self::NameMapEntrySkipped => "name-map-entry-skipped",
            Self::NameMapNull => "name-map-null",
            Self::CpmTaskOnAndOffPath => "cpm-task-on-and-off-path",
            Self::CpmNoTaskBars => "cpm-no-task-bars",
            Self::TraceBadTaskIds => "trace-bad-task-ids",
            Self::TraceUnmatchedBegin => "trace-unmatched-begin",
            Self::TraceUnmatchedEnd => "trace-unmatched-end",
            Self::TraceNegativeDuration => "trace-negative-duration",
            Self::TraceTimeOutOfRange => "trace-time-out-of-range",
            Self::HostPhaseSkipped => "host-phase-skipped",
            Self::HostPhaseImplausibleTime => "host-phase-implausible-time",
            Self::HostPhaseRecordsDropped => "host-phase-records-dropped",
            Self::HostPhaseNoHostClock => "host-phase-no-host-clock",
            Self::JoinDuplicateKey => "join-duplicate-key",
            Self::JoinUnpartneredAicpuRows => "join-unpartnered-aicpu-rows",
            Self::JoinNoAicpuRows => "join-no-aicpu-rows",
            Self::ClockNotCalibrated => "clock-not-calibrated",
            Self::DummyTaskWithoutRecord => "dummy-task-without-record",
            Self::CriticalPathFromMicroseconds => "critical-path-from-microseconds",
            Self::CriticalPathSeveralEpochs => "critical-path-several-epochs",
            Self::CriticalPathWithoutDeps => "critical-path-without-deps",
            Self::CriticalPathFailed => "critical-path-failed",
            Self::EdgeModeFallback => "edge-mode-fallback",
        }
    }
}

/// A value named in a warning's sentence: a count (formatted with the page language's digit
/// grouping) or a text (a record's name, an id, a value as the file wrote it).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum WarningArg {
    Count(u64),
    Text(String),
}

impl fmt::Display for WarningArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Count(n) => write!(f, "{n}"),
            Self::Text(s) => f.write_str(s),
        }
    }
}

/// One warning: its kind, the file (empty when an analysis does not know it; the dataset's
/// collector fills it in), the position of the record (0 = unknown) and the message.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Warning {
    pub kind: WarningKind,
    pub path: String,
    /// 1-based line, 0 when unknown.
    pub line: u64,
    /// 1-based column, 0 when unknown.
    pub column: u64,
    pub message: String,
    /// The sentence's arguments by name (the catalogue message's `{ $name }`s), in the order
    /// they were added.
    #[serde(default)]
    pub args: Vec<(String, WarningArg)>,
}

impl Warning {
    /// A warning about the whole of `path` (no position).
    pub fn new(kind: WarningKind, path: &str, message: impl Into<String>) -> Self {
        Self { kind, path: path.to_owned(), line: 0, column: 0, message: message.into(), args: Vec::new() }
    }

    /// A warning at a known position of `path`.
    pub fn at(kind: WarningKind, path: &str, line: u64, column: u64, message: impl Into<String>) -> Self {
        Self { kind, path: path.to_owned(), line, column, message: message.into(), args: Vec::new() }
    }

    /// A warning of an analysis, which knows no file.
    pub fn analysis(kind: WarningKind, message: impl Into<String>) -> Self {
        Self::new(kind, "", message)
    }

    /// This warning with the count `name` (a number of rows, tasks, events).
    #[must_use]
    pub fn count<N: TryInto<u64>>(mut self, name: &str, n: N) -> Self {
        self.args.push((name.to_owned(), WarningArg::Count(n.try_into().unwrap_or(u64::MAX))));
        self
    }

    /// This warning with the text `name` (a name, an id, a list of records as the message
    /// writes them, a selector such as the table's name).
    #[must_use]
    pub fn text(mut self, name: &str, value: impl fmt::Display) -> Self {
        self.args.push((name.to_owned(), WarningArg::Text(value.to_string())));
        self
    }

    /// The argument `name`, if the warning has it.
    pub fn arg(&self, name: &str) -> Option<&WarningArg> {
        self.args.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// This warning with `path` when it has none.
    #[must_use]
    pub fn in_file(mut self, path: &str) -> Self {
        if self.path.is_empty() {
            path.clone_into(&mut self.path);
        }
        self
    }
}

/// `path:line:column: message` when the position is known, `path: message` else (and just
/// the message without a path) — the CLI's and the page's wording.
impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.path.is_empty(), self.line > 0) {
            (false, true) => write!(f, "{}:{}:{}: {}", self.path, self.line, self.column, self.message),
            (false, false) => write!(f, "{}: {}", self.path, self.message),
            (true, _) => f.write_str(&self.message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_listed_once_with_a_unique_key() {
        let mut keys: Vec<&str> = WarningKind::ALL.iter().map(|k| k.key()).collect();
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n, "duplicate keys");
        // `key` is an exhaustive match; ALL must hold every variant: the last one is last.
        assert_eq!(WarningKind::ALL.last(), Some(&WarningKind::EdgeModeFallback));
        assert!(keys.iter().all(|k| k.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')));
    }

    #[test]
    fn displays_with_and_without_a_position() {
        let w = Warning::at(WarningKind::RecordsNegativeTime, "a.json", 3, 7, "row 2: negative");
        assert_eq!(w.to_string(), "a.json:3:7: row 2: negative");
        assert_eq!(Warning::new(WarningKind::DepsEmpty, "d.json", "empty").to_string(), "d.json: empty");
        assert_eq!(Warning::analysis(WarningKind::JoinNoAicpuRows, "none").in_file("r.json").to_string(), "r.json: none");
    }

    #[test]
    fn arguments_are_kept_by_name_in_order_and_travel() {
        let w = Warning::new(WarningKind::TraceUnmatchedEnd, "t.json", "3 E event(s) without a B: not drawn")
            .count("count", 3usize)
            .text("first", "x");
        assert_eq!(w.arg("count"), Some(&WarningArg::Count(3)));
        assert_eq!(w.arg("first").map(ToString::to_string).as_deref(), Some("x"));
        assert_eq!(w.arg("none"), None);
        let json = serde_json::to_string(&w).unwrap_or_default();
        let back: Warning = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
        assert_eq!(back, w);
    }
}
