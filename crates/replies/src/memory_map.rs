//! The Memory Reuse view's replies: the memory map of one snapshot of a pass dump
//! (`pypto_analysis::memory_map`: boxes, lifetimes, high-water marks, conflicts, views) with
//! each function's source lines and the defining / reading lines of every box for the source
//! pane, its reserved windows (`reserve_buffer`) and the `MemRef`-less tiles popped into them;
//! and the rule that picks the chip whose capacities apply: the chip asked for, else the first
//! `.pto` file naming a known `pto.target_arch` (`<case>/ptoas/*.pto`, then
//! `<case>/kernels/*/*.pto`), else `compiled_meta.json`'s `backend_type`, else `Ascend910B`
//! assumed. The worker reads the files.

use pypto_analysis::memory_map::{self, BackendChoice, Chip};
use pypto_analysis::pass_trace::check_snapshot;
use pypto_formats::{passes_dump, FormatError};
use pypto_protocol::memory_map::{MemBoxRow, MemFunctionMap, MemReservedRow, MemRingTileRow, MemSpaceRow, MemoryMapData};
use pypto_vocab::ChipSource;

/// Files of a pass dump's case directory (the dump's parent) that can name its chip, as
/// indices into the folder's entries, in the order they are tried.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChipFiles {
    /// `.pto` files: `<case>/ptoas/*.pto` first (`memory_map`'s rule), then `<case>/kernels/*/*.pto`, each by path.
    pub pto: Vec<usize>,
    pub compiled_meta: Option<usize>,
}

fn is_pto(name: &str) -> bool {
    std::path::Path::new(name).extension().is_some_and(|e| e.eq_ignore_ascii_case("pto"))
}

/// The [`ChipFiles`] among `paths` (the folder's entries) of the pass dump at `dump_path`.
pub fn chip_files<'a>(dump_path: &str, paths: impl IntoIterator<Item = &'a str>) -> ChipFiles {
    let case = dump_path.rsplit_once('/').map_or("", |(parent, _)| parent);
    let prefix = if case.is_empty() { String::new() } else { format!("{case}/") };
    let mut ptoas: Vec<(&str, usize)> = Vec::new();
    let mut kernels: Vec<(&str, usize)> = Vec::new();
    let mut files = ChipFiles::default();
    for (i, path) in paths.into_iter().enumerate() {
        let Some(rest) = path.strip_prefix(&prefix) else { continue };
        let parts: Vec<&str> = rest.split('/').collect();
        match parts.as_slice() {
            ["compiled_meta.json"] => files.compiled_meta = Some(i),
            ["ptoas", name] if is_pto(name) => ptoas.push((path, i)),
            ["kernels", _, name] if is_pto(name) => kernels.push((path, i)),
            _ => {}
        }
    }
    ptoas.sort_by(|a, b| a.0.cmp(b.0));
    kernels.sort_by(|a, b| a.0.cmp(b.0));
    files.pto = ptoas.into_iter().chain(kernels).map(|(_, i)| i).collect();
    files
}

/// The chip whose capacities apply, and what named it.
#[derive(Debug, Clone, PartialEq)]
pub struct ChipChoice {
    pub chip: Chip,
    pub backend: BackendChoice,
    /// Chosen, the file that named it, or assumed.
    pub source: ChipSource,
}

/// The chip the user chose (a name or an arch).
pub fn requested_chip(name: &str) -> Result<ChipChoice, String> {
    let chip = Chip::from_name_or_arch(name).ok_or_else(|| format!("unknown chip {name:?} (known: Ascend910B, Ascend950)"))?;
    let (chip, backend) = BackendChoice::resolve(Some(chip), None, None);
    Ok(ChipChoice { chip, backend, source: ChipSource::Chosen })
}

/// The chip a `.pto` file at `path` names (`pto.target_arch`), if it names a known one.
pub fn chip_of_pto(path: &str, text: &str) -> Option<ChipChoice> {
    let (chip, backend) = BackendChoice::resolve(None, Some(text), None);
    backend.detected.then(|| ChipChoice { chip, backend, source: ChipSource::File { path: path.to_owned() } })
}

/// The chip a `compiled_meta.json` at `path` names (`backend_type`), if it names a known one.
pub fn chip_of_compiled_meta(path: &str, text: &str) -> Option<ChipChoice> {
    let (chip, backend) = BackendChoice::resolve(None, None, Some(text));
    backend.detected.then(|| ChipChoice { chip, backend, source: ChipSource::File { path: path.to_owned() } })
}

/// `Ascend910B`, assumed: no file names the chip.
pub fn assumed_chip() -> ChipChoice {
    let (chip, backend) = BackendChoice::resolve(None, None, None);
    ChipChoice { chip, backend, source: ChipSource::Assumed }
}

/// A reply of dataset `dataset_id` with the known chips and nothing else yet.
pub fn empty_data(dataset_id: u32) -> MemoryMapData {
    MemoryMapData { dataset_id, chips: Chip::ALL.iter().map(|c| c.name().to_owned()).collect(), ..MemoryMapData::default() }
}

/// Lists the snapshots of the pass dump whose files are `names` into `data` and picks the
/// one to map: `file`, else the dump's `*after_AllocateMemoryAddr.py`; `Err` says why there
/// is none.
pub fn choose_snapshot(data: &mut MemoryMapData, names: &[String], file: Option<String>) -> Result<String, String> {
    if names.is_empty() {
        return Err(format!("dataset {} is not a pass dump", data.dataset_id));
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let listing = passes_dump::validate(&refs);
    data.snapshots = listing.snapshots.iter().map(|s| s.file_name.clone()).collect();
    let name =
        match file {
            Some(f) => f,
            None => match listing.memory_snapshot() {
                Some(s) => s.file_name.clone(),
                None => return Err(
                    "this pass dump has no *after_AllocateMemoryAddr.py snapshot: choose a snapshot taken at or after AllocateMemoryAddr"
                        .to_owned(),
                ),
            },
        };
    data.file.clone_from(&name);
    data.pass_name = memory_map::pass_name_of(&name);
    Ok(name)
}

/// The chip by the module doc's rule, for a caller that reads files synchronously (the CLI;
/// the worker reads them asynchronously in the same order): `requested`, else the first of
/// the `pto` paths naming a known arch, else `compiled_meta`, else assumed. `read` gives a
/// file's text by path (`None`: unreadable, skipped).
pub fn choose_chip(
    requested: Option<&str>,
    pto: &[&str],
    compiled_meta: Option<&str>,
    mut read: impl FnMut(&str) -> Option<String>,
) -> Result<ChipChoice, String> {
    if let Some(name) = requested {
        return requested_chip(name);
    }
    for path in pto {
        if let Some(choice) = read(path).and_then(|text| chip_of_pto(path, &text)) {
            return Ok(choice);
        }
    }
    if let Some(choice) = compiled_meta.and_then(|path| read(path).and_then(|text| chip_of_compiled_meta(path, &text))) {
        return Ok(choice);
    }
    Ok(assumed_chip())
}

/// The memory map of a pass dump whose directory holds `names`, its snapshot read through
/// `read` (file name → bytes): the worker's `MemoryMap` steps, synchronously (the CLI) —
/// [`choose_snapshot`] (`file`, else the `*after_AllocateMemoryAddr.py`), [`set_chip`],
/// [`set_snapshot_problems`], [`fill_map`]. `error` says why there is no map.
pub fn map_dump(
    dataset_id: u32,
    names: &[String],
    file: Option<String>,
    choice: &ChipChoice,
    read: impl FnOnce(&str) -> Result<Vec<u8>, String>,
) -> MemoryMapData {
    let mut data = empty_data(dataset_id);
    let name = match choose_snapshot(&mut data, names, file) {
        Ok(name) => name,
        Err(e) => return MemoryMapData { error: Some(e), ..data },
    };
    set_chip(&mut data, choice);
    let bytes = match read(&name) {
        Ok(b) => b,
        Err(e) => return MemoryMapData { error: Some(format!("{name}: {e}")), ..data },
    };
    let (text, undecodable) = pypto_formats::python_check::decode(&name, &bytes);
    set_snapshot_problems(&mut data, &name, &text, undecodable.as_ref());
    match fill_map(&mut data, &name, &text, choice) {
        Ok(()) => data,
        Err(e) => MemoryMapData { error: Some(e), ..data },
    }
}

/// Records the chip in `data`.
pub fn set_chip(data: &mut MemoryMapData, choice: &ChipChoice) {
    data.chip.clone_from(&choice.backend.name);
    data.arch.clone_from(&choice.backend.arch);
    data.chip_detected = choice.backend.detected;
    data.chip_source.clone_from(&choice.source);
}

/// Maps snapshot `name` (its `text`) with `chip`'s capacities into `data` (spaces and
/// functions); `Err` says why it has no map.
pub fn fill_map(data: &mut MemoryMapData, name: &str, text: &str, choice: &ChipChoice) -> Result<(), String> {
    let map = memory_map::build(name, text, choice.chip, choice.backend.clone()).map_err(|e| describe(&e))?;
    let lines = memory_map::tile_lines(name, text).map_err(|e| describe(&e))?;
    data.spaces = memory_map::overview(&map).spaces;
    data.functions = map
        .functions
        .iter()
        .map(|f| {
            let tile_lines = lines.iter().find(|(n, _)| *n == f.name).map_or(&[][..], |(_, l)| l.as_slice());
            function_row(f, tile_lines, choice.chip, text)
        })
        .collect();
    Ok(())
}

/// Records what is wrong with the snapshot `name` (its reader's `undecodable` bytes, then
/// [`check_snapshot`] of its `text`), as the IR Pass Trace marks it.
pub fn set_snapshot_problems(data: &mut MemoryMapData, name: &str, text: &str, undecodable: Option<&FormatError>) {
    let problems = undecodable.cloned().into_iter().chain(check_snapshot(name, text));
    data.snapshot_problems = problems.map(|e| crate::pass_trace::snapshot_problem(&e)).collect();
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
