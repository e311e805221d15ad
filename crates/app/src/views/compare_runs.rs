//! WIP: replaced by the comparison view.

use leptos::prelude::*;
use pypto_protocol::{DatasetKind, ViewKind};

use crate::session::DatasetRow;
use crate::view_spec::{no_init, nothing_docked, ViewSpec};

/// The registry's entry (a comparison's view: available for no single dataset).
pub const SPEC: ViewSpec = ViewSpec {
    kind: ViewKind::CompareRuns,
    title: "Comparison",
    tooltip: "",
    dataset_kind: DatasetKind::Runtime,
    default: false,
    switchable: false,
    available: |_: &DatasetRow| false,
    init: no_init,
    component: || view! { <p>"WIP"</p> }.into_any(),
    docked: nothing_docked,
};
