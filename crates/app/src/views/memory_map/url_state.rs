//! The compiler views' state in the URL hash, so a copied link reproduces the view (the
//! swimlane's convention, `crate::url_hash` helpers):
//!
//! * IR Pass Trace: `#pd=<dataset>&view=trace&pass=<snapshot file>&layout=side|stacked&fn=<function>`
//! * Memory Reuse: `#pd=<dataset>&view=memory&snap=<snapshot file>&fn=<function>&chip=<chip>&tile=<box name>`
//!
//! Written (debounced, `replaceState`) by the views as their state changes; read once: when
//! the folder has loaded, a `pd` naming a pass dump selects it (and opens its Memory Reuse
//! tab for `view=memory`), and each view takes the rest when its data arrives.

use std::cell::RefCell;

use leptos::prelude::*;
use pypto_protocol::DatasetKind;

use crate::state::AppState;
use crate::url_hash;

/// What a pass-dump hash says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassDumpUrl {
    pub dataset_id: u32,
    /// `view=memory` (else the pass trace).
    pub memory: bool,
    /// Pass trace: the selected pass's snapshot file.
    pub pass: Option<String>,
    /// Pass trace: `layout=stacked`.
    pub stacked: bool,
    /// Pass trace function filter, or the Memory Reuse function.
    pub function: Option<String>,
    pub snapshot: Option<String>,
    pub chip: Option<String>,
    pub tile: Option<String>,
}

/// Parses a hash; `None` without a numeric `pd`.
pub fn parse(hash: &str) -> Option<PassDumpUrl> {
    let mut out = PassDumpUrl::default();
    let mut has_pd = false;
    let non_empty = |v: String| (!v.is_empty()).then_some(v);
    for (k, v) in url_hash::pairs(hash) {
        match k.as_str() {
            "pd" => {
                out.dataset_id = v.parse().ok()?;
                has_pd = true;
            }
            "view" => out.memory = v == "memory",
            "pass" => out.pass = non_empty(v),
            "layout" => out.stacked = v == "stacked",
            "fn" => out.function = non_empty(v),
            "snap" => out.snapshot = non_empty(v),
            "chip" => out.chip = non_empty(v),
            "tile" => out.tile = non_empty(v),
            _ => {}
        }
    }
    has_pd.then_some(out)
}

/// The pass trace's hash.
pub fn trace_hash(dataset_id: u32, pass: Option<String>, stacked: bool, function: Option<String>) -> String {
    url_hash::build(&[
        ("pd", Some(dataset_id.to_string())),
        ("view", Some("trace".to_owned())),
        ("pass", pass),
        ("layout", Some(if stacked { "stacked" } else { "side" }.to_owned())),
        ("fn", function),
    ])
}

/// The Memory Reuse view's hash.
pub fn memory_hash(
    dataset_id: u32,
    snapshot: Option<String>,
    function: Option<String>,
    chip: Option<String>,
    tile: Option<String>,
) -> String {
    url_hash::build(&[
        ("pd", Some(dataset_id.to_string())),
        ("view", Some("memory".to_owned())),
        ("snap", snapshot),
        ("fn", function),
        ("chip", chip),
        ("tile", tile),
    ])
}

thread_local! {
    /// The hash the page was opened with, until a view has taken it.
    static INITIAL: RefCell<Option<PassDumpUrl>> = const { RefCell::new(None) };
}

/// The folder has loaded: selects the pass dump the page's hash names (opening its Memory
/// Reuse tab for `view=memory`). False when the hash names none of this folder's pass dumps.
pub fn restore_on_load(state: &AppState) -> bool {
    let Some(url) = parse(&url_hash::current()) else { return false };
    let is_dump = state
        .datasets
        .with_untracked(|rows| rows.iter().any(|r| r.info.dataset_id == url.dataset_id && r.info.kind == DatasetKind::PassDump));
    if !is_dump {
        return false;
    }
    INITIAL.with_borrow_mut(|i| *i = Some(url.clone()));
    if url.memory {
        super::open(state, url.dataset_id, url.snapshot.clone());
        state.memory_map.chip.set(url.chip.clone());
    }
    crate::worker_client::select_dataset(*state, url.dataset_id);
    true
}

/// The restored state for the pass trace (`memory == false`) or the Memory Reuse view of
/// `dataset_id`, once.
pub fn take(dataset_id: u32, memory: bool) -> Option<PassDumpUrl> {
    INITIAL.with_borrow_mut(|i| if i.as_ref().is_some_and(|u| u.dataset_id == dataset_id && u.memory == memory) { i.take() } else { None })
}

/// Writes the hash soon (debounced).
pub fn write(hash: String) {
    url_hash::schedule(hash);
}
