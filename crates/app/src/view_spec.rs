//! [`ViewSpec`]: what the view registry (`views::VIEWS`) knows of a view — its kind, title,
//! which datasets it serves and when it is available, whether it is the dataset's default, its
//! state and component, the parts docked beside it. Each view module exports its spec; this
//! module is what views and the registry share, so a view never names the registry.

use leptos::prelude::*;
use pypto_protocol::{DatasetKind, ViewKind};

use crate::session::DatasetRow;

/// One view of the registry.
pub struct ViewSpec {
    pub kind: ViewKind,
    /// The switcher's label (a message id of `crates/app/i18n`).
    pub title_id: &'static str,
    /// The switcher's tooltip (a message id; empty for none).
    pub tooltip_id: &'static str,
    /// The kind of dataset it shows.
    pub dataset_kind: DatasetKind,
    /// Shown when a dataset of its kind is opened (if available).
    pub default: bool,
    /// Listed in the view switcher.
    pub switchable: bool,
    /// Whether it can show this dataset.
    pub available: fn(&DatasetRow) -> bool,
    /// Once, when the page starts: provides the view's state that outlives its component
    /// (what it loaded, what its chrome shows), as contexts.
    pub init: fn(),
    /// The view.
    pub component: fn() -> AnyView,
    /// Parts docked beside it (the Performance Analysis panel beside the chip swimlane).
    pub docked: fn() -> AnyView,
}

/// For specs without state of their own.
pub fn no_init() {}

/// For specs without docked parts.
pub fn nothing_docked() -> AnyView {
    ().into_any()
}
