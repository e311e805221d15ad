//! What the analysis worker answers the page, as ordinary Rust: the mapping from the
//! `pypto-analysis` results (and the `pypto-formats` models) to the `pypto-protocol` replies —
//! dataset summaries, timeline headers and queries, Chrome-trace swimlanes and their STRACE
//! statistics, the Performance Analysis tables, the task dependency graph, the IR pass trace,
//! the memory map, the comparison of two runtime captures.
//!
//! Pure: no web stack, so the mapping builds and is tested natively over the real fixtures
//! (`tests/`), and the CLI (`pypto-viewer report`) computes what it shares with the page
//! through the same functions (the panel's tables, the dependency graph's edge selections).
//! The worker (`pypto-worker`) keeps only the browser plumbing around it: reading files,
//! jobs, posting, state.
//!
//! One module per part of the page, like the protocol's: [`datasets`], [`timeline`],
//! [`traces`], [`perf_panel`], [`perf_paths`], [`dep_graph`], [`pass_trace`], [`memory_map`],
//! [`compare`] (two runtime captures side by side), [`compare_passes`] (two pass dumps side by
//! side).

pub mod compare;
pub mod compare_passes;
pub mod datasets;
pub mod dep_graph;
pub mod memory_map;
pub mod pass_trace;
pub mod perf_panel;
pub mod perf_paths;
pub mod timeline;
pub mod traces;
