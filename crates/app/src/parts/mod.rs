//! Parts docked beside a view: the Performance Analysis panel beside the chip swimlane. A
//! part reads `session`, `nav` and the per-dataset analyses, and acts on views only through
//! `nav` commands; the registry's view specs say which parts dock beside them.

pub mod perf_panel;

/// Once, when the page starts: provides each part's state.
pub fn init_all() {
    perf_panel::init();
}
