//! The opened folder's Chrome traces, for the open flow (a serving STRACE dataset's summary)
//! and the trace swimlane handler: the folder's file handles by path (so a trace is read
//! lazily), the traces parsed so far by path, and the trace timelines built by id. Forgotten
//! when another folder opens ([`reset`]); a comparison source's files sit beside them
//! ([`add`]) until the next one ([`forget_comparison`]).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use pypto_analysis::trace_timeline::TraceTimeline;
use pypto_formats::chrome_trace::{self, ParseOptions};
use pypto_formats::strace::{self, ServingStrace};
use pypto_protocol::datasets::{EntryMeta, FileError, Progress, ProgressStage};
use pypto_protocol::FromWorker;
use pypto_replies::datasets::{file_error, read_error};
use wasm_bindgen::JsValue;

use crate::{reading, transport};

#[derive(Default)]
struct Store {
    /// The folder's files by path.
    files: HashMap<String, JsValue>,
    /// Parsed traces by path.
    parsed: HashMap<String, Rc<ServingStrace>>,
    /// Built timelines by id: the trace and its layout.
    timelines: HashMap<u32, (Rc<ServingStrace>, TraceTimeline)>,
    /// The paths in `files` that are the comparison source's.
    from_comparison: Vec<String>,
}

thread_local! {
    static STORE: RefCell<Store> = RefCell::new(Store::default());
}

/// A new folder: forget the old one, remember the new one's files (handles, not bytes).
pub(crate) fn reset(entries: &[EntryMeta], sources: &[JsValue]) {
    STORE.with_borrow_mut(|s| {
        // A comparison source's files (listed before the folder's) stay.
        let kept: Vec<(String, JsValue)> = s.from_comparison.iter().filter_map(|p| Some((p.clone(), s.files.get(p)?.clone()))).collect();
        let from_comparison = std::mem::take(&mut s.from_comparison);
        *s = Store::default();
        s.files.extend(kept);
        s.from_comparison = from_comparison;
        for (e, src) in entries.iter().zip(sources) {
            s.files.insert(e.path.clone(), src.clone());
        }
    });
}

/// Reads and parses `path` (once per folder).
/// Adds a comparison source's (prefixed) entries beside the folder's.
pub(crate) fn add(entries: &[EntryMeta], sources: &[JsValue]) {
    STORE.with_borrow_mut(|s| {
        for (e, src) in entries.iter().zip(sources) {
            s.files.insert(e.path.clone(), src.clone());
            s.from_comparison.push(e.path.clone());
        }
    });
}

/// Forgets the comparison source's files (and what was parsed of them).
pub(crate) fn forget_comparison() {
    STORE.with_borrow_mut(|s| {
        for path in std::mem::take(&mut s.from_comparison) {
            s.files.remove(&path);
            s.parsed.remove(&path);
        }
    });
}

/// The first path segment of every file of the opened folder (a comparison source's prefix
/// must be none of them).
pub(crate) fn top_level_names() -> Vec<String> {
    STORE.with_borrow(|s| {
        let mut names: Vec<String> = s.files.keys().map(|p| p.split('/').next().unwrap_or_default().to_owned()).collect();
        names.sort_unstable();
        names.dedup();
        names
    })
}

pub(crate) async fn load(path: &str) -> Result<Rc<ServingStrace>, FileError> {
    if let Some(t) = STORE.with_borrow(|s| s.parsed.get(path).cloned()) {
        return Ok(t);
    }
    let Some(source) = STORE.with_borrow(|s| s.files.get(path).cloned()) else {
        return Err(FileError {
            path: path.to_owned(),
            line: 0,
            column: 0,
            message: "the file is not in the opened folder".to_owned(),
            read_failed: false,
        });
    };
    let owned = path.to_owned();
    let mut on_progress = |done_bytes, total_bytes| {
        transport::post(&FromWorker::Progress(Progress { path: owned.clone(), done_bytes, total_bytes, stage: ProgressStage::Read }), None);
    };
    let bytes = reading::read_bytes(&source, &mut on_progress).await.map_err(|m| read_error(path, &m))?;
    let trace = chrome_trace::parse_with(path, &bytes, ParseOptions { keep_args: true }).map_err(file_error)?;
    drop(bytes);
    let parsed = Rc::new(strace::from_trace(trace));
    STORE.with_borrow_mut(|s| s.parsed.insert(path.to_owned(), parsed.clone()));
    Ok(parsed)
}

/// Keeps trace timeline `timeline_id`: the trace and its layout (its queries' index).
pub(crate) fn keep_timeline(timeline_id: u32, trace: Rc<ServingStrace>, t: TraceTimeline) {
    STORE.with_borrow_mut(|st| st.timelines.insert(timeline_id, (trace, t)));
}

/// Whether `timeline_id` is a trace timeline of this folder.
pub(crate) fn has_timeline(timeline_id: u32) -> bool {
    STORE.with_borrow(|st| st.timelines.contains_key(&timeline_id))
}

/// Runs `f` on trace timeline `timeline_id`, `None` when it is not one.
pub(crate) fn with_timeline<R>(timeline_id: u32, f: impl FnOnce(&ServingStrace, &TraceTimeline) -> R) -> Option<R> {
    STORE.with_borrow(|st| st.timelines.get(&timeline_id).map(|(s, t)| f(s, t)))
}
