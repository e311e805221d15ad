//! Analyses over the PyPTO model read by `pypto-formats`: the cycle→µs time base, the
//! AICore/AICPU task join, func-id resolution and labels, Worker View lanes and the records
//! summary. Used by the CLI (reports, golden tests) and the web worker (render columns).

pub mod alignment;
pub mod critical_path;
pub mod dag_layout;
pub mod dataflow_regions;
pub mod deps_graph;
pub mod deps_markers;
pub mod deps_viewer;
pub mod edge_modes;
pub mod function_filter;
pub mod function_stats;
pub mod hb_violation;
pub mod host_phases;
pub mod idle;
pub mod memory_map;
pub mod pass_compare;
pub mod pass_trace;
pub mod perf_panel;
pub mod runtime_model;
pub mod strace_stats;
pub mod summary;
pub mod task_kinds;
pub mod task_matching;
pub mod tasks;
pub mod timebase;
pub mod timeline;
pub mod timeline_export;
pub mod timeline_query;
pub mod trace_timeline;
pub mod worker_view;
