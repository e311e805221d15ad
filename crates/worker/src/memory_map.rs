//! The Memory Reuse view's worker side: builds the memory map of one snapshot of a pass-dump
//! dataset (`pypto_analysis::memory_map`: boxes, lifetimes, high-water marks, conflicts,
//! views), with the capacities of the chosen chip or of the chip the case names (a `.pto`
//! file's `pto.target_arch` under `ptoas/` or `kernels/*/`, else `compiled_meta.json`'s
//! `backend_type`, else `Ascend910B` assumed), and answers it with each function's source
//! lines and the defining / reading lines of every box for the source pane, plus its
//! reserved windows (`reserve_buffer`) and the `MemRef`-less tiles popped into them.

use std::cell::RefCell;
use std::collections::HashMap;

use pypto_analysis::memory_map::{self, BackendChoice, Chip};
use pypto_formats::{discovery, passes_dump};
use pypto_protocol::datasets::EntryMeta;
use pypto_protocol::memory_map::{MemBoxRow, MemFunctionMap, MemReservedRow, MemRingTileRow, MemSpaceRow, MemoryMapData, MemoryMapRequest};
use wasm_bindgen::JsValue;

use crate::transport::Reply;
use crate::{passes, reading};

/// Files beside a pass dump that can name its chip, in the order they are tried.
#[derive(Default, Clone)]
struct ChipFiles {
    /// `.pto` files: `<case>/ptoas/*.pto` first (`memory_map`'s rule), then `<case>/kernels/*/*.pto`.
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
    let case = dataset.path.rsplit_once('/').map_or("", |(parent, _)| parent);
    let prefix = if case.is_empty() { String::new() } else { format!("{case}/") };
    let mut ptoas = Vec::new();
    let mut kernels = Vec::new();
    let mut files = ChipFiles::default();
    for (e, src) in entries.iter().zip(sources) {
        let Some(rest) = e.path.strip_prefix(&prefix) else { continue };
        let parts: Vec<&str> = rest.split('/').collect();
        match parts.as_slice() {
            ["compiled_meta.json"] => files.compiled_meta = Some((e.path.clone(), src.clone())),
            ["ptoas", name] if is_pto(name) => ptoas.push((e.path.clone(), src.clone())),
            ["kernels", _, name] if is_pto(name) => kernels.push((e.path.clone(), src.clone())),
            _ => {}
        }
    }
    ptoas.sort_by(|a, b| a.0.cmp(&b.0));
    kernels.sort_by(|a, b| a.0.cmp(&b.0));
    files.pto = ptoas.into_iter().chain(kernels).collect();
    CHIP_FILES.with_borrow_mut(|m| {
        m.insert(dataset_id, files);
    });
}

fn is_pto(name: &str) -> bool {
    std::path::Path::new(name).extension().is_some_and(|e| e.eq_ignore_ascii_case("pto"))
}

async fn read_text(source: &JsValue) -> Option<String> {
    let bytes = reading::read_bytes(source, &mut |_, _| {}).await.ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The chip: the one asked for, else the first `.pto` naming a known arch, else
/// `compiled_meta.json`, else `Ascend910B` assumed; with where it came from.
async fn choose_chip(dataset_id: u32, requested: Option<&str>) -> Result<(Chip, BackendChoice, String), String> {
    if let Some(name) = requested {
        let chip = Chip::from_name_or_arch(name).ok_or_else(|| format!("unknown chip {name:?} (known: Ascend910B, Ascend950)"))?;
        let (chip, backend) = BackendChoice::resolve(Some(chip), None, None);
        return Ok((chip, backend, "chosen".to_owned()));
    }
    let files = CHIP_FILES.with_borrow(|m| m.get(&dataset_id).cloned()).unwrap_or_default();
    for (path, src) in &files.pto {
        if let Some(text) = read_text(src).await {
            let (chip, backend) = BackendChoice::resolve(None, Some(&text), None);
            if backend.detected {
                return Ok((chip, backend, path.clone()));
            }
        }
    }
    if let Some((path, src)) = &files.compiled_meta {
        if let Some(text) = read_text(src).await {
            let (chip, backend) = BackendChoice::resolve(None, None, Some(&text));
            if backend.detected {
                return Ok((chip, backend, path.clone()));
            }
        }
    }
    let (chip, backend) = BackendChoice::resolve(None, None, None);
    Ok((chip, backend, "assumed: no ptoas/*.pto, kernels/*/*.pto or compiled_meta.json names the chip".to_owned()))
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
    let mut data = MemoryMapData { dataset_id, chips: Chip::ALL.iter().map(|c| c.name().to_owned()).collect(), ..MemoryMapData::default() };
    let all = passes::names(dataset_id);
    if all.is_empty() {
        return Err((data, format!("dataset {dataset_id} is not a pass dump")));
    }
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let listing = passes_dump::validate(&refs);
    data.snapshots = listing.snapshots.iter().map(|s| s.file_name.clone()).collect();
    let name =
        match file {
            Some(f) => f,
            None => match listing.memory_snapshot() {
                Some(s) => s.file_name.clone(),
                None => return Err((
                    data,
                    "this pass dump has no *after_AllocateMemoryAddr.py snapshot: choose a snapshot taken at or after AllocateMemoryAddr"
                        .to_owned(),
                )),
            },
        };
    data.file.clone_from(&name);
    data.pass_name = memory_map::pass_name_of(&name);
    let (chip, backend, source) = match choose_chip(dataset_id, chip).await {
        Ok(c) => c,
        Err(e) => return Err((data, e)),
    };
    data.chip.clone_from(&backend.name);
    data.arch.clone_from(&backend.arch);
    data.chip_detected = backend.detected;
    data.chip_source = source;
    let text = match passes::text(dataset_id, &name).await {
        Ok(t) => t,
        Err(e) => return Err((data, format!("{name}: {e}"))),
    };
    let map = match memory_map::build(&name, &text, chip, backend) {
        Ok(m) => m,
        Err(e) => return Err((data, describe(&e))),
    };
    let lines = memory_map::tile_lines(&name, &text).map_err(|e| (data.clone(), describe(&e)))?;
    data.spaces = memory_map::overview(&map).spaces;
    data.functions = map
        .functions
        .iter()
        .map(|f| {
            let tile_lines = lines.iter().find(|(n, _)| *n == f.name).map_or(&[][..], |(_, l)| l.as_slice());
            function_row(f, tile_lines, chip, &text)
        })
        .collect();
    Ok(data)
}

/// `file:line:column: message`, or `file: message` when the problem has no position.
fn describe(e: &pypto_formats::FormatError) -> String {
    if e.line > 0 {
        e.to_string()
    } else {
        format!("{}: {}", e.path, e.message)
    }
}

fn function_row(f: &memory_map::FunctionMap, tile_lines: &[memory_map::TileLines], chip: Chip, text: &str) -> MemFunctionMap {
    let boxes = f
        .boxes
        .iter()
        .map(|b| {
            let mut defined: Vec<(u32, u32)> = Vec::new();
            let mut used: Vec<u32> = Vec::new();
            for n in std::iter::once(&b.tile.name).chain(&b.aliases) {
                if let Some(tl) = tile_lines.iter().find(|t| &t.name == n) {
                    defined.extend(&tl.defined);
                    used.extend(&tl.read);
                }
            }
            defined.sort_unstable();
            defined.dedup();
            used.sort_unstable();
            used.dedup();
            MemBoxRow {
                name: b.tile.name.clone(),
                aliases: b.aliases.clone(),
                space: b.tile.space.clone(),
                base: b.tile.base.clone(),
                offset_bytes: b.tile.offset_bytes,
                size_bytes: b.tile.size_bytes,
                shape: b.tile.shape.clone(),
                dtype: b.tile.dtype.clone(),
                op: b.tile.op.clone(),
                start_line: b.tile.start_line,
                end_line: b.tile.end_line,
                view: b.view,
                conflict: b.conflict,
                defined,
                used,
            }
        })
        .collect();
    MemFunctionMap {
        name: f.name.clone(),
        ftype: f.ftype.clone(),
        src_start: f.src_start,
        src_end: f.src_end,
        source: memory_map::source_lines(text, f),
        spaces: f
            .spaces
            .iter()
            .map(|s| MemSpaceRow {
                space: s.space.clone(),
                hwm_bytes: s.hwm_bytes,
                limit_bytes: s.limit_bytes,
                has_capacity: chip.capacity_bytes(&s.space).is_some(),
                peak_live_bytes: memory_map::peak_live_bytes(&f.boxes, &s.space),
                boxes: s.tiles,
                bases: s.bases,
            })
            .collect(),
        boxes,
        reserved: f
            .reserved
            .iter()
            .map(|w| MemReservedRow {
                name: w.name.clone(),
                space: w.space.clone(),
                space_from: w.space_from.clone(),
                base_bytes: w.base_bytes,
                size_bytes: w.size_bytes,
                line: w.line,
            })
            .collect(),
        ring_tiles: f
            .ring_tiles
            .iter()
            .map(|t| MemRingTileRow {
                name: t.name.clone(),
                space: t.space.clone(),
                shape: t.shape.clone(),
                dtype: t.dtype.clone(),
                op: t.op.clone(),
                line: t.line,
            })
            .collect(),
    }
}
