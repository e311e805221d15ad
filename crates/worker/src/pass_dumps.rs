//! The opened folder's pass dumps, for the open flow (which remembers them) and the pass
//! trace and memory map handlers: each dump's directory files (handles, read on first use
//! and kept as text, with where their bytes were not UTF-8), its pass list and function
//! regions once built, and its case's files that can name the chip. Forgotten when another
//! folder opens ([`reset`]).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use pypto_analysis::function_filter::{function_regions, FunctionRegion};
use pypto_analysis::pass_trace::PassList;
use pypto_formats::{discovery, python_check, FormatError};
use pypto_protocol::datasets::EntryMeta;
use pypto_replies::memory_map;
use wasm_bindgen::JsValue;

use crate::reading;

/// One pass-dump dataset: its directory's files (name → source) and the texts read so far.
#[derive(Default)]
struct DumpDir {
    /// The dump directory's path in the opened folder.
    path: String,
    files: Vec<(String, JsValue)>,
    texts: HashMap<String, Rc<str>>,
    /// Where a text's bytes were not UTF-8 (the text holds U+FFFD there), by file name.
    undecodable: HashMap<String, FormatError>,
    list: Option<PassList>,
    /// Function regions of each snapshot (outlined once: a snapshot is the after side of one
    /// pass and the before side of the next).
    regions: HashMap<String, Option<Rc<[FunctionRegion]>>>,
    /// The case's files that can name the chip (memory map).
    chip_files: ChipFiles,
}

/// Files beside a pass dump that can name its chip (`pypto_replies::memory_map::chip_files`),
/// with their sources, in the order they are tried.
#[derive(Default, Clone)]
pub(crate) struct ChipFiles {
    pub(crate) pto: Vec<(String, JsValue)>,
    pub(crate) compiled_meta: Option<(String, JsValue)>,
}

thread_local! {
    static DIRS: RefCell<HashMap<u32, DumpDir>> = RefCell::new(HashMap::new());
}

/// Remembers the files directly inside a pass-dump dataset's directory, and those of its case
/// directory (its parent) that can name the chip.
/// Forgets the dumps whose dataset ids `gone` names (an earlier comparison source's).
pub(crate) fn forget(gone: impl Fn(&u32) -> bool) {
    DIRS.with_borrow_mut(|d| d.retain(|id, _| !gone(id)));
}

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
    let found = memory_map::chip_files(&dataset.path, entries.iter().map(|e| e.path.as_str()));
    let file = |i: usize| Some((entries.get(i)?.path.clone(), sources.get(i)?.clone()));
    let chip_files = ChipFiles { pto: found.pto.into_iter().filter_map(file).collect(), compiled_meta: found.compiled_meta.and_then(file) };
    DIRS.with_borrow_mut(|d| {
        d.insert(dataset_id, DumpDir { path: dataset.path.clone(), files, chip_files, ..DumpDir::default() });
    });
}

/// The dump directory's path of dataset `id` (empty when unknown).
pub(crate) fn path(id: u32) -> String {
    DIRS.with_borrow(|d| d.get(&id).map(|dir| dir.path.clone()).unwrap_or_default())
}

/// The text of `name` in dataset `id` (read once; bytes that are not UTF-8 become U+FFFD,
/// and [`undecodable`] says where the first was).
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
    let (text, undecodable) = python_check::decode(name, &bytes);
    let t: Rc<str> = Rc::from(text.as_ref());
    DIRS.with_borrow_mut(|d| {
        if let Some(dir) = d.get_mut(&id) {
            dir.texts.insert(name.to_owned(), t.clone());
            if let Some(e) = undecodable {
                dir.undecodable.insert(name.to_owned(), e);
            }
        }
    });
    Ok(t)
}

/// Where the bytes of `name` (read by [`text`]) were first not UTF-8, if they were not.
pub(crate) fn undecodable(id: u32, name: &str) -> Option<FormatError> {
    DIRS.with_borrow(|d| d.get(&id).and_then(|dir| dir.undecodable.get(name).cloned()))
}

/// The names of the files in dataset `id`'s directory.
pub(crate) fn names(id: u32) -> Vec<String> {
    DIRS.with_borrow(|d| d.get(&id).map(|dir| dir.files.iter().map(|(n, _)| n.clone()).collect()).unwrap_or_default())
}

/// Dataset `id`'s pass list, when it was built.
pub(crate) fn list(id: u32) -> Option<PassList> {
    DIRS.with_borrow(|d| d.get(&id).and_then(|dir| dir.list.clone()))
}

/// Keeps dataset `id`'s pass list (for the diffs).
pub(crate) fn keep_list(id: u32, list: &PassList) {
    DIRS.with_borrow_mut(|d| {
        if let Some(dir) = d.get_mut(&id) {
            dir.list = Some(list.clone());
        }
    });
}

/// The files of dataset `id`'s case that can name the chip.
pub(crate) fn chip_files(id: u32) -> ChipFiles {
    DIRS.with_borrow(|d| d.get(&id).map(|dir| dir.chip_files.clone())).unwrap_or_default()
}

/// The function regions of snapshot `name` (outlined once per dataset).
pub(crate) fn regions(id: u32, name: &str, text: &str) -> Option<Rc<[FunctionRegion]>> {
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
