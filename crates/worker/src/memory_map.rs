//! The Memory Reuse view's worker side: builds the memory map of one snapshot of a pass-dump
//! dataset (`pypto_analysis::memory_map`: boxes, lifetimes, high-water marks, conflicts,
//! views), with the capacities of the chosen chip or of the chip the case names (a `.pto`
//! file's `pto.target_arch` under `ptoas/` or `kernels/*/`, else `compiled_meta.json`'s
//! `backend_type`, else `Ascend910B` assumed), and answers it with each function's source
//! lines and the defining / reading lines of every box for the source pane, plus its
//! reserved windows (`reserve_buffer`) and the `MemRef`-less tiles popped into them.

use std::cell::RefCell;
use std::collections::HashMap;

use pypto_formats::discovery;
use pypto_protocol::datasets::EntryMeta;
use pypto_protocol::memory_map::{MemoryMapData, MemoryMapRequest};
use pypto_replies::memory_map::{self as replies, ChipChoice};
use wasm_bindgen::JsValue;

use crate::transport::Reply;
use crate::{passes, reading};

/// Files beside a pass dump that can name its chip, in the order they are tried.
#[derive(Default, Clone)]
struct ChipFiles {
    pto: Vec<(String, JsValue)>,
    compiled_meta: Option<(String, JsValue)>,
}

thread_local! {
    static CHIP_FILES: RefCell<HashMap<u32, ChipFiles>> = RefCell::new(HashMap::new());
}

/// A new folder: forget every dump's chip files.
pub(crate) fn reset() {
    CHIP_FILES.with_borrow_mut(HashMap::clear);
}

/// Remembers the files of the dump's case directory (its parent) that can name the chip.
pub(crate) fn remember(dataset_id: u32, dataset: &discovery::Dataset, entries: &[EntryMeta], sources: &[JsValue]) {
    let found = replies::chip_files(&dataset.path, entries.iter().map(|e| e.path.as_str()));
    let file = |i: usize| Some((entries.get(i)?.path.clone(), sources.get(i)?.clone()));
    let files = ChipFiles { pto: found.pto.into_iter().filter_map(file).collect(), compiled_meta: found.compiled_meta.and_then(file) };
    CHIP_FILES.with_borrow_mut(|m| {
        m.insert(dataset_id, files);
    });
}

async fn read_text(source: &JsValue) -> Option<String> {
    let bytes = reading::read_bytes(source, &mut |_, _| {}).await.ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The chip: the one asked for, else the first `.pto` naming a known arch, else
/// `compiled_meta.json`, else `Ascend910B` assumed; with where it came from.
async fn choose_chip(dataset_id: u32, requested: Option<&str>) -> Result<ChipChoice, String> {
    if let Some(name) = requested {
        return replies::requested_chip(name);
    }
    let files = CHIP_FILES.with_borrow(|m| m.get(&dataset_id).cloned()).unwrap_or_default();
    for (path, src) in &files.pto {
        if let Some(choice) = read_text(src).await.and_then(|text| replies::chip_of_pto(path, &text)) {
            return Ok(choice);
        }
    }
    if let Some((path, src)) = &files.compiled_meta {
        if let Some(choice) = read_text(src).await.and_then(|text| replies::chip_of_compiled_meta(path, &text)) {
            return Ok(choice);
        }
    }
    Ok(replies::assumed_chip())
}

/// Answers `MemoryMap` (a snapshot without a map says why in its `error`).
pub(crate) fn map(request: MemoryMapRequest, reply: Reply<MemoryMapRequest>) {
    let MemoryMapRequest { dataset_id, file, chip } = request;
    wasm_bindgen_futures::spawn_local(async move {
        let data = build(dataset_id, file.clone(), chip.as_deref()).await.unwrap_or_else(|(data, e)| MemoryMapData {
            dataset_id,
            error: Some(e),
            ..data
        });
        reply.send(Box::new(data));
    });
}

/// The map, or the reply so far (snapshot list, chip) and why there is no map.
async fn build(dataset_id: u32, file: Option<String>, chip: Option<&str>) -> Result<MemoryMapData, (MemoryMapData, String)> {
    let mut data = replies::empty_data(dataset_id);
    let name = match replies::choose_snapshot(&mut data, &passes::names(dataset_id), file) {
        Ok(name) => name,
        Err(e) => return Err((data, e)),
    };
    let choice = match choose_chip(dataset_id, chip).await {
        Ok(c) => c,
        Err(e) => return Err((data, e)),
    };
    replies::set_chip(&mut data, &choice);
    let text = match passes::text(dataset_id, &name).await {
        Ok(t) => t,
        Err(e) => return Err((data, format!("{name}: {e}"))),
    };
    match replies::fill_map(&mut data, &name, &text, &choice) {
        Ok(()) => Ok(data),
        Err(e) => Err((data, e)),
    }
}
