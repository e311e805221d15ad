//! Task kinds (runtime-formats.md §5.2) and the static early-dispatch markers 🔥/⭐ (§5.4)
//! of `deps_viewer`, for the dependency graph view's node labels and the text view.
//!
//! Kinds: a node with a `tasks[]` entry is `submit` when some kernel slot is >= 0, else
//! `dummy`; a node without one (only referenced by edges, or only in the perf sidecar) is
//! `alloc`.
//!
//! Markers are computed on the FULL edge set whatever the edge mode (the reference lays out
//! and labels every edge, and only colours unselected ones as background):
//! - 🔥 fire: the node is `alloc`, or its `tasks[]` entry has `early_dispatch: true`;
//! - ⭐ star: the node has a predecessor, every predecessor is fire-marked, and at least one
//!   predecessor is not `alloc`. A node can carry both (fire first).
//!
//! They are static properties of the graph, not evidence that a task was dispatched early
//! at run time. Cost: O(V + E).

use crate::deps_graph::{DepsGraph, NO_TASK};
use pypto_formats::deps::Deps;

/// `deps_viewer`'s task kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum DepsTaskKind {
    Submit,
    Dummy,
    Alloc,
}

impl DepsTaskKind {
    /// The reference's name (`submit`, `dummy`, `alloc`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Submit => "submit",
            Self::Dummy => "dummy",
            Self::Alloc => "alloc",
        }
    }
}

/// Marker bit: 🔥.
pub const MARKER_FIRE: u8 = 1;
/// Marker bit: ⭐.
pub const MARKER_STAR: u8 = 2;

/// Kind of every node of `graph`.
pub fn task_kinds(graph: &DepsGraph, deps: &Deps) -> Vec<DepsTaskKind> {
    graph
        .task_row
        .iter()
        .map(|&row| {
            if row == NO_TASK {
                DepsTaskKind::Alloc
            } else if crate::deps_graph::has_active_kernel(deps, row as usize) {
                DepsTaskKind::Submit
            } else {
                DepsTaskKind::Dummy
            }
        })
        .collect()
}

/// `MARKER_*` bits of every node (see the module doc).
pub fn markers(graph: &DepsGraph, deps: &Deps, kinds: &[DepsTaskKind]) -> Vec<u8> {
    let fire: Vec<bool> = (0..graph.node_count())
        .map(|n| {
            let alloc = kinds.get(n) == Some(&DepsTaskKind::Alloc);
            let early = graph.task_row.get(n).and_then(|&row| deps.tasks.early_dispatch.get(row as usize)).copied().unwrap_or(false);
            alloc || early
        })
        .collect();
    (0..graph.node_count())
        .map(|n| {
            let mut m = 0u8;
            if fire.get(n) == Some(&true) {
                m |= MARKER_FIRE;
            }
            let preds = graph.in_edges(n as u32);
            if !preds.is_empty() {
                let pred_of = |&e: &u32| graph.edge_pred.get(e as usize).copied().unwrap_or(0);
                let all_fire = preds.iter().map(pred_of).all(|p| fire.get(p as usize) == Some(&true));
                let some_non_alloc = preds.iter().map(pred_of).any(|p| kinds.get(p as usize) != Some(&DepsTaskKind::Alloc));
                if all_fire && some_non_alloc {
                    m |= MARKER_STAR;
                }
            }
            m
        })
        .collect()
}

/// The label prefix of a marker set: `""`, `"🔥"`, `"⭐"` or `"🔥⭐"`.
pub fn marker_text(bits: u8) -> &'static str {
    match (bits & MARKER_FIRE != 0, bits & MARKER_STAR != 0) {
        (false, false) => "",
        (true, false) => "🔥",
        (false, true) => "⭐",
        (true, true) => "🔥⭐",
    }
}
