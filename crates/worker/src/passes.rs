//! The IR Pass Trace's worker side: remembers each pass-dump dataset's files (handles, read
//! on first use and kept as text), answers the pass list (+/− counts, no-op, warnings,
//! validation problems) and one pass's diff against the snapshot before it (whole file or
//! one function), with folding blocks, token-level changes and the `.log` warnings.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use pypto_analysis::function_filter::{function_regions, FunctionRegion};
use pypto_analysis::pass_trace::PassList;
use pypto_formats::{discovery, passes_dump};
use pypto_protocol::datasets::EntryMeta;
use pypto_protocol::pass_trace::{PassDiffData, PassDiffRequest, PassListRequest};
use pypto_replies::pass_trace;
use wasm_bindgen::JsValue;

use crate::reading;
use crate::transport::Reply;

/// One pass-dump dataset: its directory's files (name → source) and the texts read so far.
#[derive(Default)]
struct DumpDir {
    files: Vec<(String, JsValue)>,
    texts: HashMap<String, Rc<str>>,
    list: Option<PassList>,
    /// Function regions of each snapshot (outlined once: a snapshot is the after side of one
    /// pass and the before side of the next).
    regions: HashMap<String, Option<Rc<[FunctionRegion]>>>,
}

thread_local! {
    static DIRS: RefCell<HashMap<u32, DumpDir>> = RefCell::new(HashMap::new());
}

/// A new folder: forget every dump.
pub(crate) fn reset() {
    DIRS.with_borrow_mut(HashMap::clear);
}

/// Remembers the files directly inside a pass-dump dataset's directory.
pub(crate) fn remember(dataset_id: u32, dataset: &discovery::Dataset, entries: &[EntryMeta], sources: &[JsValue]) {
    let prefix = if dataset.path.is_empty() { String::new() } else { format!("{}/", dataset.path) };
    let files = entries
        .iter()
        .zip(sources)
        .filter_map(|(e, src)| {
            let rest = e.path.strip_prefix(&prefix)?;
            (!rest.contains('/')).then(|| (rest.to_owned(), src.clone()))
        })
        .collect();
    DIRS.with_borrow_mut(|d| {
        d.insert(dataset_id, DumpDir { files, ..DumpDir::default() });
    });
}

/// The text of `name` in dataset `id` (read once).
pub(crate) async fn text(id: u32, name: &str) -> Result<Rc<str>, String> {
    let cached = DIRS.with_borrow(|d| {
        let dir = d.get(&id).ok_or_else(|| format!("dataset {id} is not a pass dump"))?;
        if let Some(t) = dir.texts.get(name) {
            return Ok(Ok(t.clone()));
        }
        let src = dir.files.iter().find(|(n, _)| n == name).map(|(_, s)| s.clone());
        src.map(Err).ok_or_else(|| "the file is not in the opened folder".to_owned())
    })?;
    let source = match cached {
        Ok(t) => return Ok(t),
        Err(source) => source,
    };
    let bytes = reading::read_bytes(&source, &mut |_, _| {}).await?;
    let t: Rc<str> = Rc::from(String::from_utf8_lossy(&bytes).as_ref());
    DIRS.with_borrow_mut(|d| {
        if let Some(dir) = d.get_mut(&id) {
            dir.texts.insert(name.to_owned(), t.clone());
        }
    });
    Ok(t)
}

pub(crate) fn names(id: u32) -> Vec<String> {
    DIRS.with_borrow(|d| d.get(&id).map(|dir| dir.files.iter().map(|(n, _)| n.clone()).collect()).unwrap_or_default())
}

/// Reads every snapshot and builds the pass list (kept for the diffs).
async fn list(id: u32) -> Result<PassList, String> {
    if let Some(l) = DIRS.with_borrow(|d| d.get(&id).and_then(|dir| dir.list.clone())) {
        return Ok(l);
    }
    let all = names(id);
    if all.is_empty() {
        return Err(format!("dataset {id} is not a pass dump"));
    }
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let listing = passes_dump::validate(&refs);
    let mut texts: HashMap<String, Result<Rc<str>, String>> = HashMap::new();
    let wanted = std::iter::once(passes_dump::FRONTEND.to_owned()).chain(listing.snapshots.iter().map(|s| s.file_name.clone()));
    for name in wanted {
        if refs.contains(&name.as_str()) {
            let t = text(id, &name).await;
            texts.insert(name, t);
        }
    }
    let built = pypto_analysis::pass_trace::pass_list(&listing, &refs, |name| {
        texts.get(name).cloned().unwrap_or_else(|| Err("the file is not in the opened folder".to_owned()))
    });
    DIRS.with_borrow_mut(|d| {
        if let Some(dir) = d.get_mut(&id) {
            dir.list = Some(built.clone());
        }
    });
    Ok(built)
}

/// Answers `PassList`.
pub(crate) fn list_reply(dataset_id: u32, reply: Reply<PassListRequest>) {
    wasm_bindgen_futures::spawn_local(async move {
        reply.answer(list(dataset_id).await.map(|l| pass_trace::pass_list_data(dataset_id, &l)));
    });
}

/// Answers `PassDiff` (a diff that could not be made says why in its `error`).
pub(crate) fn diff_reply(request: PassDiffRequest, reply: Reply<PassDiffRequest>) {
    let PassDiffRequest { dataset_id, pass, function } = request;
    wasm_bindgen_futures::spawn_local(async move {
        let data = diff(dataset_id, pass, function.clone()).await.unwrap_or_else(|e| PassDiffData {
            dataset_id,
            pass,
            function,
            error: Some(e),
            ..PassDiffData::default()
        });
        reply.send(Box::new(data));
    });
}

async fn diff(dataset_id: u32, pass: u32, function: Option<String>) -> Result<PassDiffData, String> {
    let listed = list(dataset_id).await?;
    let entry = listed.passes.get(pass as usize).ok_or_else(|| format!("no pass {pass}"))?;
    let after_text = text(dataset_id, &entry.file_name).await?;
    let before_text = if entry.previous_file.is_empty() { Rc::from("") } else { text(dataset_id, &entry.previous_file).await? };
    let log = match &entry.log_file {
        Some(f) => Some(text(dataset_id, f).await?),
        None => None,
    };
    let before_regions = regions(dataset_id, &entry.previous_file, &before_text);
    let after_regions = regions(dataset_id, &entry.file_name, &after_text);
    let input = pass_trace::DiffInput {
        entry,
        before_text: &before_text,
        after_text: &after_text,
        before_regions: before_regions.as_deref(),
        after_regions: after_regions.as_deref(),
        log: log.as_deref(),
    };
    Ok(pass_trace::build_diff(dataset_id, pass, &input, function.as_deref()))
}

/// The function regions of snapshot `name` (outlined once per dataset).
fn regions(id: u32, name: &str, text: &str) -> Option<Rc<[FunctionRegion]>> {
    if let Some(r) = DIRS.with_borrow(|d| d.get(&id).and_then(|dir| dir.regions.get(name).cloned())) {
        return r;
    }
    let r: Option<Rc<[FunctionRegion]>> = function_regions(name, text).map(Rc::from);
    DIRS.with_borrow_mut(|d| {
        if let Some(dir) = d.get_mut(&id) {
            dir.regions.insert(name.to_owned(), r.clone());
        }
    });
    r
}
