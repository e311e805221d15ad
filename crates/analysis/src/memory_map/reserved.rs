//! Cross-core pipe rings of a compute function (compiler-formats.md §3.1 "Reserved windows"),
//! for the Memory Reuse view: `pl.system.reserve_buffer(name=…, size=…, base=…)` windows,
//! drawn as hatched "reserved" bands, and the tiles received with
//! `pl.tile.tpop_from_aic` / `tpop_from_aiv` that print without a `MemRef` because they live
//! in such a ring (listed, not drawn). pypto's `memory_map` ignores both, so neither changes
//! the boxes or the high-water marks.

use super::tiles::{
    call, dotted, dtype_of, find_memref, find_space, int_value, is_dotted_suffix, is_op, matching, shape_of, split_commas, string_value,
    tile_elements, txt,
};
use super::Tile;
use pypto_formats::python_source::{is_keyword, FunctionOutline, Token, TokenKind, Tokens};

/// One `reserve_buffer` window.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ReservedWindow {
    /// The `name=` argument (else the assigned variable).
    pub name: String,
    /// Memory space of the consuming core (see [`ReservedWindow::space_from`]).
    pub space: String,
    /// How the space was decided: `tpop tiles` (the space of the tiles popped in the
    /// function), `name (c2v)` / `name (v2c)`, or `function type AIV` / `AIC`.
    pub space_from: String,
    /// `base=`; `None` before `AllocateMemoryAddr` assigns it (or when not a constant).
    #[serde(rename = "base")]
    pub base_bytes: Option<i64>,
    #[serde(rename = "size")]
    pub size_bytes: i64,
    /// First dump line (1-based) of the statement.
    pub line: u32,
}

/// A tile received from the other core without a `MemRef` (it lives in the ring).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RingTile {
    pub name: String,
    /// `pl.Mem.<Space>` of its annotation (empty when none).
    pub space: String,
    pub shape: Vec<i64>,
    pub dtype: String,
    /// `tile.tpop_from_aic` / `tile.tpop_from_aiv`.
    pub op: String,
    /// First dump line (1-based) of the statement.
    pub line: u32,
}

/// A `reserve_buffer` call before its space is known.
struct RawWindow {
    /// The assigned variable (empty for a bare call).
    var: String,
    name: Option<String>,
    size: Option<i64>,
    base: Option<i64>,
    line: u32,
}

/// `name=value` keyword arguments of the call whose `(` is `ts[open]`.
fn keywords<'t>(toks: &Tokens<'_>, ts: &'t [Token], open: usize) -> Vec<(String, &'t [Token])> {
    let Some(close) = matching(ts, toks, open) else {
        return Vec::new();
    };
    let depth = ts.get(open).map_or(0, |t| t.depth) + 1;
    let inner = ts.get(open + 1..close).unwrap_or(&[]);
    split_commas(toks, inner, depth)
        .into_iter()
        .filter_map(|a| {
            let key = a.first().filter(|t| t.kind == TokenKind::Name)?;
            is_op(toks, a.get(1), "=").then(|| (txt(toks, key).to_owned(), a.get(2..).unwrap_or(&[])))
        })
        .collect()
}

/// The space of a window: the popped tiles' space, else the `c2v` / `v2c` in its name, else
/// the function type (AIV consumes cube→vector rings in Vec, AIC vector→cube rings in Mat).
fn window_space(name: &str, ftype: &str, popped_space: Option<&str>) -> (String, String) {
    if let Some(s) = popped_space.filter(|s| !s.is_empty()) {
        return (s.to_owned(), "tpop tiles".to_owned());
    }
    let lower = name.to_ascii_lowercase();
    if lower.contains("c2v") {
        return ("Vec".to_owned(), "name (c2v)".to_owned());
    }
    if lower.contains("v2c") {
        return ("Mat".to_owned(), "name (v2c)".to_owned());
    }
    let space = if ftype == "AIC" { "Mat" } else { "Vec" };
    (space.to_owned(), format!("function type {ftype}"))
}

/// A `name: pl.Tile[…] = ….tpop_from_aic/aiv(…)` statement: the tile's space and, when it
/// has no `MemRef` (and is not one of `tiles`), the tile living in the ring.
fn popped_tile(toks: &Tokens<'_>, ts: &[Token], line: u32, tiles: &[Tile]) -> Option<(String, Option<RingTile>)> {
    let target = ts.first().filter(|t| t.kind == TokenKind::Name)?;
    if !is_op(toks, ts.get(1), ":") {
        return None;
    }
    let eq = (2..ts.len()).find(|&k| ts.get(k).is_some_and(|t| t.depth == target.depth && is_op(toks, Some(t), "=")))?;
    let value = ts.get(eq + 1..).unwrap_or(&[]);
    let callee = call(toks, value).map(|c| c.0).or_else(|| {
        let open = value.iter().position(|t| is_op(toks, Some(t), "("))?;
        dotted(toks, value.get(..open)?)
    })?;
    if !(is_dotted_suffix(&callee, "tpop_from_aic") || is_dotted_suffix(&callee, "tpop_from_aiv")) {
        return None;
    }
    let ann = ts.get(2..eq).unwrap_or(&[]);
    let elems = tile_elements(toks, ann)?;
    let space = find_space(toks, ann).unwrap_or_default();
    let name = txt(toks, target);
    if find_memref(toks, ann).is_some() || tiles.iter().any(|t| t.name == name) {
        return Some((space, None)); // has its own address: an ordinary box
    }
    let tile = RingTile {
        name: name.to_owned(),
        space: space.clone(),
        shape: shape_of(toks, &elems),
        dtype: dtype_of(toks, &elems),
        op: callee.strip_prefix("pl.").unwrap_or(&callee).to_owned(),
        line,
    };
    Some((space, Some(tile)))
}

/// The reserved windows and the `MemRef`-less popped tiles of function `f` (of type
/// `ftype`). `tiles` are its `MemRef` tiles: a popped tile with a `MemRef` is one of them
/// and tells the ring's space.
pub fn collect_reserved(toks: &Tokens<'_>, f: &FunctionOutline, ftype: &str, tiles: &[Tile]) -> (Vec<ReservedWindow>, Vec<RingTile>) {
    let mut raw: Vec<RawWindow> = Vec::new();
    let mut ring: Vec<RingTile> = Vec::new();
    let mut popped_space: Option<String> = None;
    for i in f.body.clone() {
        let Some(line) = toks.lines.get(i) else {
            continue;
        };
        let ts = toks.line_tokens(line);
        // `reserve_buffer(` anywhere in the statement
        for k in 0..ts.len() {
            let Some(t) = ts.get(k) else { break };
            if t.kind != TokenKind::Name
                || txt(toks, t) != "reserve_buffer"
                || !is_op(toks, ts.get(k + 1), "(")
                || !k.checked_sub(1).is_some_and(|p| is_op(toks, ts.get(p), "."))
            {
                continue;
            }
            let kw = keywords(toks, ts, k + 1);
            let get = |key: &str| kw.iter().find(|(n, _)| n == key).map(|(_, v)| *v);
            let name = get("name").and_then(|v| match v {
                [s] if s.kind == TokenKind::Str => Some(string_value(txt(toks, s))),
                _ => None,
            });
            let var = ts
                .first()
                .filter(|t| t.kind == TokenKind::Name && !is_keyword(txt(toks, t)))
                .filter(|_| is_op(toks, ts.get(1), ":") || is_op(toks, ts.get(1), "="))
                .map(|t| txt(toks, t).to_owned())
                .unwrap_or_default();
            let size = get("size").and_then(|v| int_value(toks, v));
            let base = get("base").and_then(|v| int_value(toks, v));
            raw.push(RawWindow { var, name, size, base, line: line.first_line });
        }
        // `name: pl.Tile[…] = pl.tile.tpop_from_aic(…)`
        if let Some((space, tile)) = popped_tile(toks, ts, line.first_line, tiles) {
            if popped_space.is_none() && !space.is_empty() {
                popped_space = Some(space);
            }
            ring.extend(tile);
        }
    }
    let windows = raw
        .into_iter()
        .map(|RawWindow { var, name, size, base, line }| {
            let name = name.unwrap_or(var);
            let (space, space_from) = window_space(&name, ftype, popped_space.as_deref());
            ReservedWindow { name, space, space_from, base_bytes: base, size_bytes: size.unwrap_or(0), line }
        })
        .collect();
    (windows, ring)
}
