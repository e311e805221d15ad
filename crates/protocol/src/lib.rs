//! Messages between the viewer page (`pypto-app`) and its analysis worker (`pypto-worker`).
//!
//! The page never parses a file: it walks a folder into [`datasets::EntryMeta`]s, posts them
//! with the matching `File`s (or URLs for `?src=`), and asks the worker questions. The worker
//! answers with small serde messages ([`FromWorker`]) and, for views, with typed-array columns
//! that travel beside the message as transferred `ArrayBuffer`s (see
//! [`timeline::TimelineHeader`]).
//!
//! One module per part of the page: [`datasets`] (opening a folder: what the `session`
//! hears), [`timeline`] (the swimlanes), [`perf`] (the Performance Analysis panel and the
//! Function Performance table), [`dep_graph`], [`pass_trace`], [`memory_map`], [`compare`]
//! (two runtime captures side by side), [`compare_passes`] (two pass dumps side by side). Each defines
//! its requests as structs implementing [`Request`], which names the reply type, so the page's
//! `ask(request)` returns that type and the worker's dispatch answers with it. The shared words
//! (task ids, file roles, view kinds, edge modes) are `pypto-vocab`'s, re-exported here.
//!
//! Transport (both directions): a JS object [`envelope`] `{ id?, msg, files?, columns?,
//! partial? }`. `msg` is the serde value of [`ToWorker`] / [`FromWorker`]; `id` is the page's
//! request id, which the worker copies onto the reply (messages nobody asked for — progress,
//! datasets, load finished, crash — carry none); a request has one reply, its type or
//! [`FromWorker::Error`], possibly preceded by partial replies of its type (`partial: true`;
//! a bar's details before its arguments are read back from the file); `files` (page → worker)
//! is an array of `File` or URL strings in the same order as the entries; `columns` (worker →
//! page) is an object of named typed arrays whose buffers are in the transfer list.

use serde::{Deserialize, Serialize};

pub use pypto_vocab::{DatasetKind, EdgeMode, Feature, FileRole, TaskId, TimelineView, ViewKind, Warning, WarningKind};

/// A request whose reply type is known: the page's `ask` returns [`Request::Reply`], the
/// worker's dispatch answers with it.
pub trait Request: Sized {
    /// What the worker answers.
    type Reply;
    /// The message on the wire.
    fn into_message(self) -> ToWorker;
    /// This request's reply out of a message, or the message back when it is another one.
    fn reply_of(msg: FromWorker) -> Result<Self::Reply, Box<FromWorker>>;
    /// The message carrying a reply.
    fn reply_message(reply: Self::Reply) -> FromWorker;
}

/// `request!(Req => Variant(Reply))` (the same variant name both ways) or
/// `request!(Req => ToVariant / FromVariant(Reply))`: implements [`Request`] for `Req`.
macro_rules! request {
    ($req:ty => $variant:ident($reply:ty)) => {
        $crate::request!($req => $variant / $variant($reply));
    };
    ($req:ty => $to:ident / $from:ident($reply:ty)) => {
        impl Request for $req {
            type Reply = $reply;
            fn into_message(self) -> $crate::ToWorker {
                $crate::ToWorker::$to(self)
            }
            fn reply_of(msg: $crate::FromWorker) -> Result<$reply, Box<$crate::FromWorker>> {
                match msg {
                    $crate::FromWorker::$from(reply) => Ok(reply),
                    other => Err(Box::new(other)),
                }
            }
            fn reply_message(reply: $reply) -> $crate::FromWorker {
                $crate::FromWorker::$from(reply)
            }
        }
    };
}
pub(crate) use request;

pub mod compare;
pub mod compare_passes;
pub mod datasets;
pub mod dep_graph;
pub mod memory_map;
pub mod pass_trace;
pub mod perf;
pub mod timeline;

use compare::{CompareRequest, Comparison, TaskMatch, TaskMatchRequest};
use compare_passes::{MemoryCompareRequest, MemoryComparison, PassCompareRequest, PassComparison, PassCrossDiffRequest};
use datasets::{Cancel, DatasetLoaded, Datasets, LoadFinished, OpenFolder, OpenUrl, Progress};
use dep_graph::{DepGraphHeader, DepGraphRequest, DepNodeDetails, DepNodeDetailsRequest, DepSearchHits, DepSearchRequest};
use memory_map::{MemoryMapData, MemoryMapRequest};
use pass_trace::{PassDiffData, PassDiffRequest, PassListData, PassListRequest};
use perf::{GapThreshold, GapThresholdRequest, PerfPanelData, PerfPanelRequest, PerfPathsData, PerfPathsRequest};
use timeline::{
    BarDetails, BarDetailsRequest, Dependencies, DependenciesRequest, ExportTraceRequest, RangeStats, RangeStatsRequest, SearchRequest,
    SearchResults, TimelineHeader, TimelineRequest, TraceExport, TraceTimeline, TraceTimelineRequest,
};

/// The envelope's keys (see the module doc).
pub mod envelope {
    /// The page's request id (`u32`), copied onto the reply.
    pub const ID: &str = "id";
    /// The serde value of the message.
    pub const MSG: &str = "msg";
    /// Page → worker: the entries' `File`s or URL strings.
    pub const FILES: &str = "files";
    /// Worker → page: named typed arrays, transferred.
    pub const COLUMNS: &str = "columns";
    /// Worker → page: `true` on a partial reply (the final one with the same id follows).
    pub const PARTIAL: &str = "partial";
}

/// The page's id of a request, copied onto its reply.
pub type RequestId = u32;

/// Page → worker. Every variant but the opens, [`ToWorker::Cancel`] and [`ToWorker::DebugPanic`] is a [`Request`]
/// with one reply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToWorker {
    OpenFolder(OpenFolder),
    OpenUrl(OpenUrl),
    Timeline(TimelineRequest),
    TraceTimeline(TraceTimelineRequest),
    BarDetails(BarDetailsRequest),
    Dependencies(DependenciesRequest),
    Search(SearchRequest),
    RangeStats(RangeStatsRequest),
    ExportTrace(ExportTraceRequest),
    PerfPanel(PerfPanelRequest),
    PerfPaths(PerfPathsRequest),
    GapThreshold(GapThresholdRequest),
    PassList(PassListRequest),
    PassDiff(PassDiffRequest),
    MemoryMap(MemoryMapRequest),
    /// Two pass dumps' pass lists compared (reply [`FromWorker::PassComparison`]).
    PassCompare(PassCompareRequest),
    /// A's snapshot against B's (reply [`FromWorker::PassDiff`]).
    PassCrossDiff(PassCrossDiffRequest),
    /// Two pass dumps' memory high-water marks (reply [`FromWorker::MemoryComparison`]).
    MemoryCompare(MemoryCompareRequest),
    DepGraph(DepGraphRequest),
    DepNodeDetails(DepNodeDetailsRequest),
    DepSearch(DepSearchRequest),
    Compare(CompareRequest),
    TaskMatch(TaskMatchRequest),
    /// Stop the long work running (see [`Cancel`]; announcement, no reply).
    Cancel(Cancel),
    /// Test hook for the crash-recovery path: the worker panics on purpose.
    DebugPanic,
}

/// Worker → page: replies (with the request's id) and announcements (without).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromWorker {
    /// The worker's wasm is initialised and listening.
    Ready,
    Progress(Progress),
    Datasets(Datasets),
    DatasetLoaded(DatasetLoaded),
    LoadFinished(LoadFinished),
    /// Timeline columns (typed arrays beside the message).
    Timeline(TimelineHeader),
    TraceTimeline(TraceTimeline),
    BarDetails(BarDetails),
    Dependencies(Dependencies),
    SearchResults(SearchResults),
    RangeStats(RangeStats),
    TraceExport(TraceExport),
    PerfPanel(PerfPanelData),
    PerfPaths(PerfPathsData),
    GapThreshold(GapThreshold),
    PassList(PassListData),
    PassDiff(Box<PassDiffData>),
    MemoryMap(Box<MemoryMapData>),
    PassComparison(PassComparison),
    MemoryComparison(Box<MemoryComparison>),
    /// A laid-out task dependency graph (typed arrays beside the message).
    DepGraph(DepGraphHeader),
    DepNodeDetails(DepNodeDetails),
    DepSearchHits(DepSearchHits),
    Compare(Box<Comparison>),
    TaskMatch(TaskMatch),
    /// The opened source itself could not be read (a `?src=` manifest that stalled or failed):
    /// shown with the file errors, with a Retry.
    SourceFailed(datasets::FileError),
    /// A request could not be answered (with its id), or something failed outside one.
    Error {
        message: String,
    },
    /// A [`ToWorker::Cancel`] was carried out: `stopped_jobs` jobs were terminated. Every
    /// message about the stopped work came before it.
    Cancelled {
        stopped_jobs: u32,
    },
    /// The worker panicked; the page must restart it.
    Panic {
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_tagged_by_type() {
        let json = serde_json::to_string(&ToWorker::PerfPanel(PerfPanelRequest { dataset_id: 3 })).unwrap_or_default();
        assert_eq!(json, r#"{"type":"perf_panel","dataset_id":3}"#);
        let back: FromWorker = serde_json::from_str(r#"{"type":"ready"}"#).unwrap_or(FromWorker::Error { message: String::new() });
        assert_eq!(back, FromWorker::Ready);
    }

    #[test]
    fn a_request_names_its_message_and_reply() {
        let req = BarDetailsRequest { timeline_id: 2, bar: timeline::BarRef { track: 1, index: 7 } };
        let json = serde_json::to_string(&req.clone().into_message()).unwrap_or_default();
        assert_eq!(json, r#"{"type":"bar_details","timeline_id":2,"bar":{"track":1,"index":7}}"#);
        let reply = BarDetails { timeline_id: 2, bar: req.bar, title: "t".into(), fields: vec![], group: vec![], task: Some(TaskId(5)) };
        let msg = BarDetailsRequest::reply_message(reply.clone());
        assert_eq!(BarDetailsRequest::reply_of(msg), Ok(reply));
        let other = FromWorker::LoadFinished(LoadFinished { elapsed_ms: 1.0, comparison: false });
        assert_eq!(BarDetailsRequest::reply_of(other.clone()), Err(Box::new(other)));
        // requests whose reply variant has another name
        let search = SearchRequest { timeline_id: 1, query: "q".into(), limit: 5 }.into_message();
        assert!(serde_json::to_string(&search).unwrap_or_default().starts_with(r#"{"type":"search""#));
        let hits = SearchResults { timeline_id: 1, query: "q".into(), total: 0, hits: vec![] };
        assert!(SearchRequest::reply_of(SearchRequest::reply_message(hits)).is_ok());
    }

    #[test]
    fn task_ids_travel_as_decimal_strings() {
        let header = DepGraphHeader {
            dataset_id: 0,
            mode: EdgeMode::Reduced,
            left_right: false,
            task_ids: vec![TaskId(5), TaskId(u64::MAX)],
            names: vec![],
            mode_counts: vec![],
            node_count: 2,
            crossings: 0,
            component_count: 2,
            largest_component: [0.0, 0.0, 150.0, 36.0],
            layout_ms: 0.0,
            warmup_ms: 0.0,
            warnings: vec![],
            reversed_edges: 0,
        };
        let json = serde_json::to_string(&FromWorker::DepGraph(header.clone())).unwrap_or_default();
        assert!(json.contains(r#""mode":"reduced""#), "{json}");
        assert!(json.contains(r#""task_ids":["5","18446744073709551615"]"#), "{json}");
        let back: Option<FromWorker> = serde_json::from_str(&json).ok();
        assert_eq!(back, Some(FromWorker::DepGraph(header)));
    }
}
