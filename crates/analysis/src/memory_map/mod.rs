//! The memory reuse map of a pass snapshot taken at or after `AllocateMemoryAddr`, for the
//! Memory Reuse view and its "All Functions Buffer Usage Overview" (compiler-formats.md §3).
//!
//! Follows the rules of pypto's `python -m pypto.tools.memory_map` so the boxes, lifetimes
//! and high-water marks equal its JSON payload:
//! - compute functions = direct methods of a top-level class whose `@pl.function(type=…)` is
//!   `AIC`, `AIV` or `InCore`; other functions own no tile memory;
//! - tiles = parameters annotated `pl.Tile[…]` and annotated assignments `name: pl.Tile[…] = …`
//!   anywhere in the body, each needing a `pl.MemRef(base, offset, size)` with constant
//!   offset and size (`N`, `-N`, `pl.const(N, …)`) and a `pl.Mem.<Space>` other than `DDR`;
//! - lifetime = physical lines of the dump: the defining statement's first..last line (a
//!   rebinding of the name widens it), then every read of the name widens it to that line;
//!   the first binding met in the `ast.walk` order (shallower nesting first) defines the tile;
//! - boxes: tiles sharing a slot `(space, base, offset, size)` whose lifetimes touch merge
//!   into one box (first name + aliases); disjoint lifetimes stay apart (reuse). Boxes that
//!   overlap in bytes and lines are a *view* (same base: the narrower one) or a *conflict*
//!   (different bases: both);
//! - per space: high-water mark `max(offset + size)`, capacity of the chip (or the hwm when
//!   the chip has no such space), box count and distinct bases.
//!
//! The statement parsing is token based ([`pypto_formats::python_source`]), so raw and
//! ruff-formatted dumps give the same boxes (with their own line numbers).

mod reserved;
mod tiles;
mod usage;

pub use reserved::{collect_reserved, ReservedWindow, RingTile};

use tiles::function_type;
pub use tiles::{collect_tiles, collect_with_lines, TileLines};
pub use usage::peak_live_bytes;

use pypto_formats::python_source::{self, FunctionOutline, Tokens};
use pypto_formats::FormatError;
use std::collections::HashMap;

/// Function types that own tile memory.
pub const COMPUTE_FUNCTION_TYPES: [&str; 3] = ["AIC", "AIV", "InCore"];

/// Panel order of memory spaces; others follow in first-seen order.
pub const SPACE_ORDER: [&str; 8] = ["Vec", "Mat", "Left", "LeftScale", "Right", "RightScale", "Acc", "Bias"];

/// A chip whose on-chip capacities scale the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chip {
    /// `a2a3`.
    Ascend910B,
    /// `a5`.
    Ascend950,
}

impl Chip {
    /// Every chip, for a selector.
    pub const ALL: [Chip; 2] = [Chip::Ascend910B, Chip::Ascend950];

    /// The backend name pypto uses.
    pub fn name(self) -> &'static str {
        match self {
            Chip::Ascend910B => "Ascend910B",
            Chip::Ascend950 => "Ascend950",
        }
    }

    /// The PTO target arch (`pto.target_arch` in `.pto` files).
    pub fn arch(self) -> &'static str {
        match self {
            Chip::Ascend910B => "a2a3",
            Chip::Ascend950 => "a5",
        }
    }

    /// The chip of a backend name or a target arch.
    pub fn from_name_or_arch(s: &str) -> Option<Chip> {
        Chip::ALL.into_iter().find(|c| c.name() == s || c.arch() == s)
    }

    /// Capacity of a memory space in bytes (compiler-formats.md §3.2; `Vec` is the safe
    /// limit below the 8 KiB PTO-ISA reserve). `None` = the chip has no such space.
    pub fn capacity_bytes(self, space: &str) -> Option<u64> {
        const KIB: u64 = 1024;
        match (self, space) {
            (Chip::Ascend910B, "Vec") => Some(184 * KIB),
            (Chip::Ascend950, "Vec") => Some(240 * KIB),
            (_, "Mat") => Some(512 * KIB),
            (_, "Left" | "Right") => Some(64 * KIB),
            (Chip::Ascend910B, "Acc") => Some(128 * KIB),
            (Chip::Ascend950, "Acc") => Some(256 * KIB),
            (Chip::Ascend910B, "Bias") => Some(KIB),
            (Chip::Ascend950, "Bias" | "LeftScale" | "RightScale") => Some(4 * KIB),
            _ => None,
        }
    }
}

/// Which chip supplied the capacities and whether it was determined or assumed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BackendChoice {
    pub name: String,
    pub arch: String,
    /// False when nothing identified the chip and `Ascend910B` was assumed.
    pub detected: bool,
}

impl BackendChoice {
    /// The chip from, in order: an explicit choice, a `.pto` file's `pto.target_arch`, a
    /// `compiled_meta.json` `backend_type`; else `Ascend910B`, assumed.
    pub fn resolve(requested: Option<Chip>, pto_text: Option<&str>, compiled_meta: Option<&str>) -> (Chip, BackendChoice) {
        let found = requested
            .or_else(|| pto_text.and_then(target_arch).and_then(Chip::from_name_or_arch))
            .or_else(|| compiled_meta.and_then(meta_backend).and_then(Chip::from_name_or_arch));
        let chip = found.unwrap_or(Chip::Ascend910B);
        (chip, BackendChoice { name: chip.name().to_owned(), arch: chip.arch().to_owned(), detected: found.is_some() })
    }
}

/// `pto.target_arch = "a2a3"` in a `.pto` file.
pub fn target_arch(pto_text: &str) -> Option<&str> {
    let at = pto_text.find("pto.target_arch")?;
    let rest = pto_text.get(at + "pto.target_arch".len()..)?.trim_start();
    let rest = rest.strip_prefix('=')?.trim_start().strip_prefix('"')?;
    rest.get(..rest.find('"')?)
}

fn meta_backend(meta: &str) -> Option<&str> {
    let at = meta.find("\"backend_type\"")?;
    let rest = meta.get(at + "\"backend_type\"".len()..)?.trim_start();
    let rest = rest.strip_prefix(':')?.trim_start().strip_prefix('"')?;
    rest.get(..rest.find('"')?)
}

/// One tile binding with its slot and live lines.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Tile {
    pub name: String,
    pub space: String,
    pub base: String,
    #[serde(rename = "offset")]
    pub offset_bytes: i64,
    #[serde(rename = "size")]
    pub size_bytes: i64,
    pub shape: Vec<i64>,
    pub dtype: String,
    /// Producer op without the `pl.` prefix (`tile.load`), `param` for a parameter.
    pub op: String,
    /// First dump line (1-based) defining or reading the name.
    #[serde(rename = "start")]
    pub start_line: u32,
    /// Last dump line (1-based) defining or reading the name.
    #[serde(rename = "end")]
    pub end_line: u32,
}

/// A drawn rectangle: alias tiles sharing one slot and touching lifetimes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MemBox {
    #[serde(flatten)]
    pub tile: Tile,
    /// Names of the other tiles merged into this box.
    pub aliases: Vec<String>,
    /// A narrower box on the same base overlapping another in bytes and lines.
    pub view: bool,
    /// Overlaps a box of a different base in bytes while both are live.
    pub conflict: bool,
}

/// Per-space totals of one function.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SpaceUsage {
    pub space: String,
    /// High-water mark: `max(offset + size)` over the space's boxes.
    #[serde(rename = "hwm")]
    pub hwm_bytes: i64,
    /// Chip capacity of the space, or the hwm when the chip has none.
    #[serde(rename = "limit")]
    pub limit_bytes: i64,
    /// Number of boxes.
    pub tiles: u32,
    /// Number of distinct bases.
    pub bases: u32,
}

impl SpaceUsage {
    /// `hwm / limit` in percent.
    pub fn usage_percent(&self) -> f64 {
        if self.limit_bytes <= 0 {
            0.0
        } else {
            self.hwm_bytes as f64 * 100.0 / self.limit_bytes as f64
        }
    }
}

/// One compute function's map.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FunctionMap {
    pub name: String,
    pub ftype: String,
    /// First line (decorator) and last line of the function in the dump, 1-based.
    pub src_start: u32,
    pub src_end: u32,
    pub spaces: Vec<SpaceUsage>,
    pub boxes: Vec<MemBox>,
    /// `pl.system.reserve_buffer` windows (not boxes: they change neither boxes nor hwm;
    /// not serialized, so the map's JSON stays `memory_map`'s payload).
    #[serde(skip)]
    pub reserved: Vec<ReservedWindow>,
    /// Tiles popped from the other core without a `MemRef` (they live in a reserved ring).
    #[serde(skip)]
    pub ring_tiles: Vec<RingTile>,
}

/// The map of one dump.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MemoryMap {
    /// Dump file name.
    pub dump: String,
    /// Pass name (`NN_after_` and `.py` removed).
    pub pass_name: String,
    pub backend: BackendChoice,
    pub functions: Vec<FunctionMap>,
}

/// One row of the buffer usage overview.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct OverviewRow {
    pub function: String,
    pub ftype: String,
    /// One cell per space in [`Overview::spaces`]; `None` = the function does not use it.
    pub cells: Vec<Option<SpaceUsage>>,
    /// Highest usage percentage over the function's spaces.
    pub max_usage_percent: f64,
}

/// "All Functions Buffer Usage Overview": functions × memory spaces.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Overview {
    /// Spaces present anywhere, in panel order.
    pub spaces: Vec<String>,
    pub rows: Vec<OverviewRow>,
    /// Cells at ≥ 80 % and < 95 % usage.
    pub warning_cells: u32,
    /// Cells at ≥ 95 % usage.
    pub danger_cells: u32,
    pub highest_usage_percent: f64,
}

fn space_rank(space: &str) -> usize {
    SPACE_ORDER.iter().position(|s| *s == space).unwrap_or(SPACE_ORDER.len())
}

/// Builds the map of a dump. `file_name` is the dump's name (`35_after_AllocateMemoryAddr.py`).
/// Errors when no compute function binds a tile `MemRef`, or when the `MemRef`s have no
/// addresses yet (two or more bases of one space all at offset 0).
pub fn build(file_name: &str, text: &str, chip: Chip, backend: BackendChoice) -> Result<MemoryMap, FormatError> {
    let toks = python_source::tokenize(file_name, text)?;
    let mut functions = Vec::new();
    for f in python_source::outline(&toks) {
        if f.class.is_none() || is_async(&toks, &f) {
            continue;
        }
        let ftype = function_type(&toks, &f).unwrap_or_default();
        if !COMPUTE_FUNCTION_TYPES.contains(&ftype.as_str()) {
            continue;
        }
        let tiles = collect_tiles(&toks, &f);
        if tiles.is_empty() {
            continue;
        }
        let (reserved, ring_tiles) = collect_reserved(&toks, &f, &ftype, &tiles);
        let boxes = build_boxes(tiles);
        let spaces = summarize_spaces(&boxes, chip);
        functions.push(FunctionMap {
            name: f.name.clone(),
            ftype,
            src_start: f.start_line,
            src_end: f.end_line,
            spaces,
            boxes,
            reserved,
            ring_tiles,
        });
    }
    if functions.is_empty() {
        return Err(FormatError::new(
            file_name,
            "no AIC/AIV/InCore function binds a tile MemRef: use a dump at or after \
             AllocateMemoryAddr (earlier passes have no MemRef addresses)",
        ));
    }
    let unallocated: Vec<&str> = functions.iter().filter(|f| is_unallocated(f)).map(|f| f.name.as_str()).collect();
    if !unallocated.is_empty() {
        return Err(FormatError::new(
            file_name,
            format!(
                "every MemRef in {} still sits at offset 0, so addresses have not been \
                 assigned yet: use a dump at or after AllocateMemoryAddr",
                unallocated.join(", ")
            ),
        ));
    }
    Ok(MemoryMap { dump: file_name.to_owned(), pass_name: pass_name_of(file_name), backend, functions })
}

/// The defining and reading lines of every tile of every compute function of a dump, keyed
/// by function name (the functions [`build`] maps), for linking the map and the source.
pub fn tile_lines(file_name: &str, text: &str) -> Result<Vec<(String, Vec<TileLines>)>, FormatError> {
    let toks = python_source::tokenize(file_name, text)?;
    let mut out = Vec::new();
    for f in python_source::outline(&toks) {
        if f.class.is_none() || is_async(&toks, &f) {
            continue;
        }
        let ftype = function_type(&toks, &f).unwrap_or_default();
        if !COMPUTE_FUNCTION_TYPES.contains(&ftype.as_str()) {
            continue;
        }
        let (tiles, lines) = collect_with_lines(&toks, &f);
        if !tiles.is_empty() {
            out.push((f.name.clone(), lines));
        }
    }
    Ok(out)
}

/// `32_after_AllocateMemoryAddr.py` → `AllocateMemoryAddr` (`memory_map`'s rule: remove a
/// leading `NN_after_` and a trailing `.py`).
pub fn pass_name_of(file_name: &str) -> String {
    let digits = file_name.bytes().take_while(u8::is_ascii_digit).count();
    let mut s = file_name;
    if digits > 0 {
        if let Some(rest) = file_name.get(digits..).and_then(|r| r.strip_prefix("_after_")) {
            s = rest;
        }
    }
    s.strip_suffix(".py").unwrap_or(s).to_owned()
}

fn is_unallocated(f: &FunctionMap) -> bool {
    let mut bases: HashMap<&str, Vec<&str>> = HashMap::new();
    for b in &f.boxes {
        if b.tile.offset_bytes != 0 {
            return false;
        }
        let v = bases.entry(b.tile.space.as_str()).or_default();
        if !v.contains(&b.tile.base.as_str()) {
            v.push(b.tile.base.as_str());
        }
    }
    bases.values().any(|v| v.len() > 1)
}

fn is_async(toks: &Tokens<'_>, f: &FunctionOutline) -> bool {
    toks.lines.get(f.def_stmt).and_then(|l| toks.line_tokens(l).first()).is_some_and(|t| toks.text_of(t) == "async")
}

/// Builds the buffer usage overview of a map.
pub fn overview(map: &MemoryMap) -> Overview {
    let mut spaces: Vec<String> = Vec::new();
    for f in &map.functions {
        for s in &f.spaces {
            if !spaces.contains(&s.space) {
                spaces.push(s.space.clone());
            }
        }
    }
    // stable: unknown spaces keep their first-seen order after the known ones
    spaces.sort_by_key(|s| space_rank(s));
    let mut out = Overview { spaces: spaces.clone(), rows: Vec::new(), warning_cells: 0, danger_cells: 0, highest_usage_percent: 0.0 };
    for f in &map.functions {
        let cells: Vec<Option<SpaceUsage>> = spaces.iter().map(|s| f.spaces.iter().find(|u| &u.space == s).cloned()).collect();
        let mut max_usage = 0.0f64;
        for c in cells.iter().flatten() {
            let u = c.usage_percent();
            max_usage = max_usage.max(u);
            if u >= 95.0 {
                out.danger_cells += 1;
            } else if u >= 80.0 {
                out.warning_cells += 1;
            }
        }
        out.highest_usage_percent = out.highest_usage_percent.max(max_usage);
        out.rows.push(OverviewRow { function: f.name.clone(), ftype: f.ftype.clone(), cells, max_usage_percent: max_usage });
    }
    out
}

/// Folds alias tiles into boxes and flags views and conflicts. Boxes come sorted by
/// (space order, offset, first line).
pub fn build_boxes(tiles: Vec<Tile>) -> Vec<MemBox> {
    let mut slot_order: Vec<(String, String, i64, i64)> = Vec::new();
    let mut slots: HashMap<(String, String, i64, i64), Vec<Tile>> = HashMap::new();
    for t in tiles {
        let key = (t.space.clone(), t.base.clone(), t.offset_bytes, t.size_bytes);
        if !slots.contains_key(&key) {
            slot_order.push(key.clone());
        }
        slots.entry(key).or_default().push(t);
    }
    let mut boxes: Vec<MemBox> = Vec::new();
    for key in slot_order {
        let Some(mut members) = slots.remove(&key) else {
            continue;
        };
        members.sort_by_key(|t| t.start_line); // stable, like Python's sort
        let mut run_end = 0u32;
        let mut current: Option<MemBox> = None;
        for t in members {
            match current.as_mut() {
                Some(b) if t.start_line <= run_end => {
                    run_end = run_end.max(t.end_line);
                    b.tile.end_line = b.tile.end_line.max(t.end_line);
                    b.aliases.push(t.name);
                }
                _ => {
                    if let Some(b) = current.take() {
                        boxes.push(b);
                    }
                    run_end = t.end_line;
                    current = Some(MemBox { tile: t, aliases: Vec::new(), view: false, conflict: false });
                }
            }
        }
        if let Some(b) = current {
            boxes.push(b);
        }
    }
    boxes.sort_by_key(|b| (space_rank(&b.tile.space), b.tile.offset_bytes, b.tile.start_line));
    classify_overlaps(&mut boxes);
    boxes
}

fn classify_overlaps(boxes: &mut [MemBox]) {
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, b) in boxes.iter().enumerate() {
        match groups.iter_mut().find(|g| g.0 == b.tile.space) {
            Some(g) => g.1.push(i),
            None => groups.push((b.tile.space.clone(), vec![i])),
        }
    }
    for (_, group) in groups {
        for (gi, &l) in group.iter().enumerate() {
            for &r in group.iter().skip(gi + 1) {
                let (Some(lhs), Some(rhs)) = (boxes.get(l), boxes.get(r)) else {
                    continue;
                };
                let (lt, rt) = (&lhs.tile, &rhs.tile);
                if rt.offset_bytes >= lt.offset_bytes.saturating_add(lt.size_bytes) {
                    break;
                }
                if lt.start_line > rt.end_line || rt.start_line > lt.end_line {
                    continue;
                }
                if lt.base == rt.base {
                    let narrower = if rt.size_bytes <= lt.size_bytes { r } else { l };
                    if let Some(b) = boxes.get_mut(narrower) {
                        b.view = true;
                    }
                } else {
                    for k in [l, r] {
                        if let Some(b) = boxes.get_mut(k) {
                            b.conflict = true;
                        }
                    }
                }
            }
        }
    }
}

fn summarize_spaces(boxes: &[MemBox], chip: Chip) -> Vec<SpaceUsage> {
    let mut order: Vec<&str> = Vec::new();
    for b in boxes {
        if !order.contains(&b.tile.space.as_str()) {
            order.push(&b.tile.space);
        }
    }
    order.sort_by_key(|s| space_rank(s));
    order
        .into_iter()
        .map(|space| {
            let group: Vec<&MemBox> = boxes.iter().filter(|b| b.tile.space == space).collect();
            let hwm = group.iter().map(|b| b.tile.offset_bytes.saturating_add(b.tile.size_bytes)).max().unwrap_or(0);
            let mut bases: Vec<&str> = group.iter().map(|b| b.tile.base.as_str()).collect();
            bases.sort_unstable();
            bases.dedup();
            let limit = chip.capacity_bytes(space).and_then(|c| i64::try_from(c).ok()).filter(|&c| c != 0).unwrap_or(hwm);
            SpaceUsage { space: space.to_owned(), hwm_bytes: hwm, limit_bytes: limit, tiles: group.len() as u32, bases: bases.len() as u32 }
        })
        .collect()
}

/// The source lines of a function (`src_start..=src_end`), split like Python's
/// `str.splitlines` on `\n`, `\r\n` and `\r`.
pub fn source_lines(text: &str, f: &FunctionMap) -> Vec<String> {
    let lines: Vec<&str> = split_lines(text);
    let from = (f.src_start as usize).saturating_sub(1);
    let to = (f.src_end as usize).min(lines.len());
    lines.get(from..to).unwrap_or(&[]).iter().map(|s| (*s).to_owned()).collect()
}

fn split_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b.get(i) {
            Some(b'\n') => {
                out.push(text.get(start..i).unwrap_or(""));
                start = i + 1;
            }
            Some(b'\r') => {
                out.push(text.get(start..i).unwrap_or(""));
                if b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < b.len() {
        out.push(text.get(start..).unwrap_or(""));
    }
    out
}

#[cfg(test)]
#[allow(clippy::expect_used, clippy::type_complexity)]
mod tests {
    use super::*;

    /// A Vec tile for the unit tests of this module and its children.
    pub(super) fn tile(name: &str, base: &str, off: i64, size: i64, s: u32, e: u32) -> Tile {
        Tile {
            name: name.into(),
            space: "Vec".into(),
            base: base.into(),
            offset_bytes: off,
            size_bytes: size,
            shape: vec![],
            dtype: String::new(),
            op: String::new(),
            start_line: s,
            end_line: e,
        }
    }

    #[test]
    fn aliases_reuse_views_conflicts() {
        let boxes = build_boxes(vec![
            tile("a", "m0", 0, 64, 1, 5),
            tile("b", "m0", 0, 64, 5, 8),    // touches a → alias
            tile("c", "m0", 0, 64, 10, 12),  // disjoint → reuse, separate box
            tile("v", "m0", 0, 32, 6, 7),    // same base, narrower, overlapping → view
            tile("x", "m1", 32, 64, 11, 11), // other base overlapping c → conflict
        ]);
        let got: Vec<(&str, Vec<String>, bool, bool)> =
            boxes.iter().map(|b| (b.tile.name.as_str(), b.aliases.clone(), b.view, b.conflict)).collect();
        assert_eq!(
            got,
            vec![
                ("a", vec!["b".to_owned()], false, false),
                ("v", vec![], true, false),
                ("c", vec![], false, true),
                ("x", vec![], false, true),
            ]
        );
        let s = summarize_spaces(&boxes, Chip::Ascend910B);
        assert_eq!(s[0].hwm_bytes, 96);
        assert_eq!(s[0].limit_bytes, 188_416);
        assert_eq!((s[0].tiles, s[0].bases), (4, 2));
    }

    #[test]
    fn example_from_the_notes() {
        let src = "# pypto.program: P\nimport pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)\n    def scale_rows(x__ssa_v0: pl.Tensor[[32, 512], pl.FP32, pl.MemRef(\"mem_ddr_0\", pl.const(0, pl.INT64), 65536)]) -> pl.Tensor[[32, 512], pl.BF16]:\n        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 65536)\n        mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 128)\n        a__tile: pl.Tile[[32, 512], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 65536), pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [32, 512], [32, 512], target_memory=pl.Mem.Vec)\n        m__tile: pl.Tile[[32, 1], pl.FP32, pl.MemRef(mem_vec_3, pl.const(65536, pl.INT64), 128), pl.Mem.Vec] = pl.tile.row_max(a__tile)\n        b__tile: pl.Tile[[32, 512], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 65536), pl.Mem.Vec] = pl.tile.row_expand_div(a__tile, m__tile)\n        for i in pl.range(2):\n            a__tile: pl.Tile[[1], pl.FP32] = pl.tile.x(b__tile)\n        return b__tile\n";
        let (chip, backend) = BackendChoice::resolve(None, None, None);
        let m = build("35_after_AllocateMemoryAddr.py", src, chip, backend).expect("map");
        assert_eq!(m.pass_name, "AllocateMemoryAddr");
        assert!(!m.backend.detected);
        let f = &m.functions[0];
        assert_eq!((f.name.as_str(), f.ftype.as_str(), f.src_start, f.src_end), ("scale_rows", "AIV", 6, 15));
        let b: Vec<(&str, i64, u32, u32, &str, &[String])> = f
            .boxes
            .iter()
            .map(|b| {
                (b.tile.name.as_str(), b.tile.offset_bytes, b.tile.start_line, b.tile.end_line, b.tile.op.as_str(), b.aliases.as_slice())
            })
            .collect();
        assert_eq!(b[0].0, "a__tile");
        assert_eq!((b[0].1, b[0].2, b[0].3, b[0].4), (0, 10, 15, "tile.load"));
        assert_eq!(b[0].5, ["b__tile".to_owned()]);
        assert_eq!((b[1].0, b[1].1, b[1].2, b[1].3), ("m__tile", 65536, 11, 12));
        assert_eq!(f.spaces[0].hwm_bytes, 65664);
        assert_eq!(f.boxes[0].tile.shape, vec![32, 512]);
        assert_eq!(f.boxes[0].tile.dtype, "FP32");
    }

    #[test]
    #[allow(clippy::many_single_char_names)]
    fn reserved_windows_and_ring_tiles_leave_boxes_alone() {
        let body = "# pypto.program: P\nimport pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.AIV)\n    def consume(x: pl.Tensor[[8, 256], pl.FP32]):\n        RESERVE\n        r: pl.Tile[[8, 256], pl.FP32, pl.Mem.Vec, pl.TileView(pad=pl.PadValue.min)] = pl.tile.tpop_from_aic(split=1)\n        a: pl.Tile[[8, 256], pl.FP32, pl.MemRef(mem_vec_1, pl.const(32768, pl.INT64), 8192), pl.Mem.Vec] = pl.tile.muls(r, 2.0)\n        b: pl.Tile[[8, 256], pl.FP32, pl.MemRef(mem_vec_2, pl.const(40960, pl.INT64), 8192), pl.Mem.Vec] = pl.tile.exp(a)\n        return b\n    @pl.function(type=pl.FunctionType.AIC)\n    def produce(x: pl.Tensor[[8, 256], pl.FP32]):\n        buf = pl.system.reserve_buffer(name='p_buffer', size=pl.const(4096, pl.INT64))\n        m: pl.Tile[[8, 256], pl.FP32, pl.MemRef(mem_mat_1, 0, 8192), pl.Mem.Mat] = pl.tile.load(x)\n        n: pl.Tile[[8, 256], pl.FP32, pl.MemRef(mem_mat_2, 8192, 8192), pl.Mem.Mat] = pl.tile.load(m)\n        return n\n";
        let with = body.replace(
            "RESERVE",
            "x_c2v_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='x_c2v_slot_buffer', size=32768, base=0)",
        );
        let without = body.replace("RESERVE", "pass");
        let (chip, backend) = BackendChoice::resolve(None, None, None);
        let m = build("35_after_AllocateMemoryAddr.py", &with, chip, backend.clone()).expect("map");
        let plain = build("35_after_AllocateMemoryAddr.py", &without, chip, backend).expect("map");
        // the window changes neither the boxes nor the high-water marks
        for (f, g) in m.functions.iter().zip(&plain.functions) {
            assert_eq!((&f.boxes, &f.spaces), (&g.boxes, &g.spaces));
        }
        let c = &m.functions[0];
        assert_eq!(c.name, "consume");
        assert_eq!(c.spaces[0].hwm_bytes, 49152);
        assert_eq!(
            c.reserved,
            vec![ReservedWindow {
                name: "x_c2v_slot_buffer".into(),
                space: "Vec".into(),
                space_from: "tpop tiles".into(),
                base_bytes: Some(0),
                size_bytes: 32768,
                line: 8,
            }]
        );
        assert_eq!(c.ring_tiles.len(), 1);
        let r = &c.ring_tiles[0];
        assert_eq!((r.name.as_str(), r.space.as_str(), r.op.as_str(), r.line), ("r", "Vec", "tile.tpop_from_aic", 9));
        assert_eq!((r.shape.as_slice(), r.dtype.as_str()), (&[8, 256][..], "FP32"));
        assert!(plain.functions[0].reserved.is_empty());
        // no name keyword's `c2v`/`v2c`, no popped tile: the function type decides; no base
        let p = &m.functions[1];
        assert_eq!(p.reserved.len(), 1);
        let w = &p.reserved[0];
        assert_eq!((w.name.as_str(), w.space.as_str(), w.base_bytes, w.size_bytes), ("p_buffer", "Mat", None, 4096));
        assert_eq!(w.space_from, "function type AIC");
        assert!(p.ring_tiles.is_empty());
        // not part of the JSON payload
        let json = serde_json::to_string(&m).expect("json");
        assert!(!json.contains("x_c2v_slot_buffer"), "{json}");
    }

    #[test]
    fn qwen_dump_reserved_windows() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/passes/yuanfeng219-arch_PyPTO3/32_after_AllocateMemoryAddr.py");
        let text = std::fs::read_to_string(path).expect("fixture");
        let (chip, backend) = BackendChoice::resolve(None, None, None);
        let m = build("32_after_AllocateMemoryAddr.py", &text, chip, backend).expect("map");
        let got: Vec<(&str, &str, &str, Option<i64>, i64, u32)> = m
            .functions
            .iter()
            .flat_map(|f| {
                f.reserved.iter().map(move |w| (f.name.as_str(), w.name.as_str(), w.space.as_str(), w.base_bytes, w.size_bytes, w.line))
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("fa_fused_aic", "fa_fused_v2c_slot_buffer", "Mat", Some(0), 32768, 142),
                ("fa_fused_aiv", "fa_fused_c2v_slot_buffer", "Vec", Some(0), 32768, 217),
            ]
        );
        // the popped tiles of this dump carry MemRefs: boxes, no ring tiles
        assert!(m.functions.iter().all(|f| f.ring_tiles.is_empty()));
    }

    #[test]
    fn unallocated_and_empty_dumps_are_errors() {
        let (chip, backend) = BackendChoice::resolve(Some(Chip::Ascend950), None, None);
        assert!(backend.detected);
        let src = "class P:\n    @pl.function(type=pl.FunctionType.AIV)\n    def k():\n        a: pl.Tile[[1], pl.FP32, pl.MemRef(m0, 0, 64), pl.Mem.Vec] = pl.tile.f()\n        b: pl.Tile[[1], pl.FP32, pl.MemRef(m1, 0, 64), pl.Mem.Vec] = pl.tile.f()\n";
        let e = build("32_after_InitMemRef.py", src, chip, backend.clone()).expect_err("unallocated");
        assert!(e.message.contains("offset 0"), "{e}");
        let e = build("x.py", "x = 1\n", chip, backend).expect_err("empty");
        assert!(e.message.contains("no AIC/AIV/InCore"), "{e}");
    }

    #[test]
    fn chip_detection() {
        let (c, b) = BackendChoice::resolve(None, Some("module attributes {pto.target_arch = \"a5\"} {"), None);
        assert_eq!((c, b.detected), (Chip::Ascend950, true));
        let (c, _) = BackendChoice::resolve(None, None, Some("{\"schema\":1, \"backend_type\": \"Ascend950\"}"));
        assert_eq!(c, Chip::Ascend950);
        assert_eq!(Chip::Ascend950.capacity_bytes("LeftScale"), Some(4096));
        assert_eq!(Chip::Ascend910B.capacity_bytes("LeftScale"), None);
    }
}
