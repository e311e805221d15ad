//! The words every layer of the viewer shares, each with one type: task ids ([`TaskId`],
//! displayed `rXtY` by the reference's rule), what a file is for ([`FileRole`]), what a
//! dataset is ([`DatasetKind`]), the page's views ([`ViewKind`]) and what discovery says a
//! dataset enables ([`Feature`]), the chip swimlane's views ([`TimelineView`]) and the task
//! graph's edge modes ([`EdgeMode`]), how a timeline of several datasets is aligned
//! ([`TimelineAlign`], [`AlignedBy`]), and the readers' and analyses' warnings ([`Warning`],
//! one [`WarningKind`] per thing they can warn about), and what can be wrong with a pass
//! snapshot ([`SnapshotProblemKind`], one per sentence of the snapshot checks).
//!
//! Pure Rust (serde only): `pypto-formats`, `pypto-analysis`, the protocol between page and
//! worker, the worker, the page and the CLI all use these types, so a word means the same on
//! every side and nothing compares names as strings.
//!
//! What a comparison notes ([`RunsNote`], [`MemoryNote`]) and what named a memory map's chip
//! ([`ChipSource`]) travel as data too: the page words them in its language.

mod align;
mod compare_note;
mod edge_mode;
pub mod kernel_function;
mod kinds;
mod note;
mod snapshot_problem;
mod task_id;
mod warning;

pub use align::{AlignedBy, TimelineAlign};
pub use compare_note::{ChipSource, MemoryNote, RunsNote, Side};
pub use edge_mode::EdgeMode;
pub use kinds::{DatasetKind, Feature, FileRole, TimelineView, ViewKind};
pub use note::{DiscoveryNote, NoteFiles};
pub use snapshot_problem::SnapshotProblemKind;
pub use task_id::{ParseTaskIdError, TaskId};
pub use warning::{Warning, WarningArg, WarningKind};
