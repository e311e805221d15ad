//! Kinds shared by discovery, the protocol, the page and the CLI: what a dataset is, what a
//! file is for inside it, the page's views, what discovery says a dataset enables, and the
//! views of the chip swimlane.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What a dataset is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum DatasetKind {
    /// A directory of runtime DFX records (swimlane records, deps.json, name maps, traces).
    Runtime,
    /// A `passes_dump*` directory of compiler snapshots.
    PassDump,
    /// A serving STRACE swimlane (Chrome trace JSON).
    ServingStrace,
}

impl DatasetKind {
    /// The `data-kind` value of the sidebar's dataset entries (the page's DOM contract).
    pub fn attr(self) -> &'static str {
        match self {
            Self::Runtime => "runtime",
            Self::PassDump => "pass_dump",
            Self::ServingStrace => "serving_strace",
        }
    }
}

/// What a file is for inside its dataset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum FileRole {
    Records,
    Deps,
    NameMap,
    CpmStatic,
    CpmObserved,
    MergedSwimlane,
    HostPhaseRecords,
    StraceTrace,
    PassFrontend,
    PassSnapshot,
    PassLog,
}

impl FileRole {
    /// The role's name (`Records`, `NameMap`, …), as the sidebar's file tooltips show it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Records => "Records",
            Self::Deps => "Deps",
            Self::NameMap => "NameMap",
            Self::CpmStatic => "CpmStatic",
            Self::CpmObserved => "CpmObserved",
            Self::MergedSwimlane => "MergedSwimlane",
            Self::HostPhaseRecords => "HostPhaseRecords",
            Self::StraceTrace => "StraceTrace",
            Self::PassFrontend => "PassFrontend",
            Self::PassSnapshot => "PassSnapshot",
            Self::PassLog => "PassLog",
        }
    }

    /// A Chrome trace a runtime dataset holds beside its records (opened as a generic swimlane).
    pub fn is_chrome_trace(self) -> bool {
        matches!(self, Self::MergedSwimlane | Self::CpmStatic | Self::CpmObserved)
    }
}

impl fmt::Display for FileRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The page's views: the keys of its view registry, of links and of the embedding API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViewKind {
    /// The chip swimlane of a runtime dataset (one or several ranks).
    ChipSwimlane,
    /// A Chrome trace drawn as a swimlane: a serving STRACE file, or a `merged_swimlane*.json`
    /// / `CPM_*.json` beside a capture.
    TraceSwimlane,
    /// Per-function statistics of a runtime dataset with a name map.
    FunctionPerformance,
    /// The task dependency graph of a runtime dataset with a deps.json.
    TaskGraph,
    /// The IR pass trace of a pass dump.
    PassTrace,
    /// The memory reuse map of a pass dump.
    MemoryReuse,
    /// Two runtime captures compared (A = baseline, B = this run): summary, functions, tasks.
    CompareRuns,
    /// Two pass dumps compared: pass lists side by side, snapshot against snapshot, memory.
    ComparePasses,
}

impl ViewKind {
    /// Every view, in the order the view switcher shows them.
    pub const ALL: [ViewKind; 8] = [
        Self::ChipSwimlane,
        Self::TraceSwimlane,
        Self::FunctionPerformance,
        Self::TaskGraph,
        Self::PassTrace,
        Self::MemoryReuse,
        Self::CompareRuns,
        Self::ComparePasses,
    ];

    /// A short stable key (test ids `view-switch-{key}`, links).
    pub fn key(self) -> &'static str {
        match self {
            Self::ChipSwimlane => "swimlane",
            Self::TraceSwimlane => "trace",
            Self::FunctionPerformance => "function-perf",
            Self::TaskGraph => "dep-graph",
            Self::PassTrace => "pass-trace",
            Self::MemoryReuse => "memory-map",
            Self::CompareRuns => "compare",
            Self::ComparePasses => "compare-passes",
        }
    }

    /// The view of a key, if any.
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.key() == key)
    }
}

/// What discovery says a dataset's files make possible (the sidebar lists their titles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Feature {
    ChipSwimlane,
    WorkerView,
    SchedulerView,
    TaskDependencyGraph,
    FunctionPerformance,
    PerformanceAnalysis,
    CriticalPathHighlight,
    /// The swimlane's Host Prepare lanes (records + `host_phase_records.jsonl`).
    HostPrepareLanes,
    IrPassTrace,
    MemoryReuse,
    ServingStraceSwimlane,
}

impl Feature {
    pub const ALL: [Feature; 11] = [
        Self::ChipSwimlane,
        Self::WorkerView,
        Self::SchedulerView,
        Self::TaskDependencyGraph,
        Self::FunctionPerformance,
        Self::PerformanceAnalysis,
        Self::CriticalPathHighlight,
        Self::HostPrepareLanes,
        Self::IrPassTrace,
        Self::MemoryReuse,
        Self::ServingStraceSwimlane,
    ];

    /// The title discovery lists (serialised as this too).
    pub fn title(self) -> &'static str {
        match self {
            Self::ChipSwimlane => "Chip Swimlane",
            Self::WorkerView => "Worker View",
            Self::SchedulerView => "Scheduler View",
            Self::TaskDependencyGraph => "Task Dependency Graph",
            Self::FunctionPerformance => "Function Performance",
            Self::PerformanceAnalysis => "Performance Analysis",
            Self::CriticalPathHighlight => "Critical path highlight",
            Self::HostPrepareLanes => "Host Prepare lanes",
            Self::IrPassTrace => "IR Pass Trace",
            Self::MemoryReuse => "Memory Reuse",
            Self::ServingStraceSwimlane => "Serving STRACE swimlane",
        }
    }

    /// The feature of a title.
    pub fn from_title(title: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.title() == title)
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

impl Serialize for Feature {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.title())
    }
}

impl<'de> Deserialize<'de> for Feature {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let title = String::deserialize(deserializer)?;
        Self::from_title(&title).ok_or_else(|| serde::de::Error::custom(format!("unknown feature {title:?}")))
    }
}

/// The views of the chip swimlane (runtime-formats.md §6.4), plus the Chrome-trace lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimelineView {
    /// `AICore` lanes (AIC/AIV) plus `AICPU_N` lanes with dummy / predicated-skip / alloc bars.
    Worker,
    /// Dispatch → finish per task, per core.
    Scheduler,
    /// Scheduler phases per `Sched_N` thread (outer phases, `resolve` sub-lane, drain nesting).
    AicpuScheduler,
    /// Orchestrator submits (AICPU or host) and host → device uploads.
    Orchestrator,
    /// Host prepare phases of a `host_build_graph` run (`host_phase_records.jsonl`), one lane
    /// per process, invocation and thread, nested phases on sub-rows.
    HostPrepare,
    /// A process of a Chrome trace (serving STRACE, `merged_swimlane*.json`, any trace).
    Trace,
}

impl TimelineView {
    pub const ALL: [TimelineView; 6] =
        [Self::Worker, Self::Scheduler, Self::AicpuScheduler, Self::Orchestrator, Self::HostPrepare, Self::Trace];
    /// The views of a chip capture the reference converter draws, in display order (every
    /// capture shows each or says why not); [`TimelineView::HostPrepare`] follows them when the
    /// folder has host phase records.
    pub const CHIP: [TimelineView; 4] = [Self::Worker, Self::Scheduler, Self::AicpuScheduler, Self::Orchestrator];

    pub fn title(self) -> &'static str {
        match self {
            Self::Worker => "Worker View",
            Self::Scheduler => "Scheduler View",
            Self::AicpuScheduler => "AICPU Scheduler",
            Self::Orchestrator => "Orchestrator",
            Self::HostPrepare => "Host Prepare",
            Self::Trace => "Trace",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_round_trip_through_their_titles() {
        for f in Feature::ALL {
            let json = serde_json::to_string(&f).unwrap_or_default();
            assert_eq!(json, format!("{:?}", f.title()));
            assert_eq!(serde_json::from_str::<Feature>(&json).ok(), Some(f));
        }
        assert!(serde_json::from_str::<Feature>("\"Nope\"").is_err());
    }

    #[test]
    fn view_keys_are_unique_and_round_trip() {
        for v in ViewKind::ALL {
            assert_eq!(ViewKind::from_key(v.key()), Some(v));
        }
        let mut keys: Vec<&str> = ViewKind::ALL.iter().map(|v| v.key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), ViewKind::ALL.len());
    }

    #[test]
    fn wire_names() {
        assert_eq!(serde_json::to_string(&DatasetKind::ServingStrace).unwrap_or_default(), "\"ServingStrace\"");
        assert_eq!(serde_json::to_string(&FileRole::NameMap).unwrap_or_default(), "\"NameMap\"");
        assert_eq!(serde_json::to_string(&TimelineView::AicpuScheduler).unwrap_or_default(), "\"aicpu_scheduler\"");
        assert_eq!(serde_json::to_string(&ViewKind::TaskGraph).unwrap_or_default(), "\"task_graph\"");
        for r in [FileRole::Records, FileRole::PassLog, FileRole::HostPhaseRecords] {
            assert_eq!(serde_json::to_string(&r).unwrap_or_default(), format!("\"{}\"", r.name()));
        }
    }
}
