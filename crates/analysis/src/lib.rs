//! Analyses over the PyPTO model read by `pypto-formats`: the cycle→µs time base, the
//! AICore/AICPU task join, func-id resolution and labels, Worker View lanes and the records
//! summary. Used by the CLI (reports, golden tests) and the web worker (render columns).

pub mod summary;
pub mod tasks;
pub mod timebase;
pub mod worker_view;
