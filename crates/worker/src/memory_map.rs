//! The Memory Reuse view's request (`MemoryMap`), for the page's memory map view: the map
//! of one snapshot of a pass-dump dataset with the capacities of the chosen chip or of the
//! chip the case names — the rule and the map are `pypto_replies::memory_map`'s; this module
//! reads the snapshot (`pass_dumps`) and the case's `.pto` / `compiled_meta.json` files.

use pypto_protocol::memory_map::{MemoryMapData, MemoryMapRequest};
use pypto_replies::memory_map::{self as replies, ChipChoice};
use wasm_bindgen::JsValue;

use crate::transport::Reply;
use crate::{pass_dumps, reading};

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
    let files = pass_dumps::chip_files(dataset_id);
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

/// Answers `MemoryMap` (a snapshot without a map says why in its `error`; a damaged one
/// carries its problems, as the pass trace marks them).
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
pub(crate) async fn build(dataset_id: u32, file: Option<String>, chip: Option<&str>) -> Result<MemoryMapData, (MemoryMapData, String)> {
    let mut data = replies::empty_data(dataset_id);
    let name = match replies::choose_snapshot(&mut data, &pass_dumps::names(dataset_id), file) {
        Ok(name) => name,
        Err(e) => return Err((data, e)),
    };
    let choice = match choose_chip(dataset_id, chip).await {
        Ok(c) => c,
        Err(e) => return Err((data, e)),
    };
    replies::set_chip(&mut data, &choice);
    let text = match pass_dumps::text(dataset_id, &name).await {
        Ok(t) => t,
        Err(e) => return Err((data, format!("{name}: {e}"))),
    };
    replies::set_snapshot_problems(&mut data, &name, &text, pass_dumps::undecodable(dataset_id, &name).as_ref());
    match replies::fill_map(&mut data, &name, &text, &choice) {
        Ok(()) => Ok(data),
        Err(e) => Err((data, e)),
    }
}
