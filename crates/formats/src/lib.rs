//! Readers for PyPTO runtime and compiler records: bytes in, typed column model out.
//!
//! Used by the analysis crate, the native CLI and the web worker. Every reader detects the
//! file variant by content (not by name), keeps raw integers exact (`u64` cycles and ids),
//! stores columns instead of vectors of structs, and reports malformed input as a
//! [`FormatError`] naming the file and the position instead of panicking.

pub mod chrome_trace;
pub mod columns;
pub mod cpm;
pub mod deps;
pub mod discovery;
mod error;
pub mod host_phase_records;
mod json_fast;
mod json_stream;
mod json_util;
pub mod manifest;
pub mod name_map;
pub mod packed;
pub mod pass_log;
pub mod passes_dump;
pub mod python_check;
pub mod python_source;
pub mod records;
mod records_checks;
pub mod strace;

pub use error::FormatError;
pub use pypto_vocab::{SnapshotProblemKind, Warning, WarningArg, WarningKind};
