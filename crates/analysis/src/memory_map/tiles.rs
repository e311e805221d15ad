//! Tile bindings of one compute function of a pass snapshot, read from its tokens the way
//! pypto's `memory_map` reads them from Python's `ast` (see the parent module): `pl.Tile[…]`
//! parameters and annotated assignments with a constant-offset `pl.MemRef` and an on-chip
//! `pl.Mem.<Space>`, their producer op, and the lines where the name is read (`Load`
//! context: not an attribute, keyword argument, assignment/`for`/`as` target or parameter).

use super::Tile;
use pypto_formats::python_source::{is_keyword, FunctionOutline, Token, TokenKind, Tokens};
use std::collections::HashMap;

// ---------------------------------------------------------------------------------------
// Token helpers
// ---------------------------------------------------------------------------------------

pub(super) fn txt<'a>(toks: &Tokens<'a>, t: &Token) -> &'a str {
    toks.text_of(t)
}

pub(super) fn is_op(toks: &Tokens<'_>, t: Option<&Token>, op: &str) -> bool {
    t.is_some_and(|t| t.kind == TokenKind::Op && toks.text_of(t) == op)
}

/// Index of the bracket closing the one opened at `open` (same depth), within `ts`.
pub(super) fn matching(ts: &[Token], toks: &Tokens<'_>, open: usize) -> Option<usize> {
    let d = ts.get(open)?.depth;
    (open + 1..ts.len()).find(|&j| ts.get(j).is_some_and(|t| t.depth == d && t.kind == TokenKind::Op && is_close(txt(toks, t))))
}

fn is_close(s: &str) -> bool {
    matches!(s, ")" | "]" | "}")
}

fn is_open(s: &str) -> bool {
    matches!(s, "(" | "[" | "{")
}

/// A dotted name `a.b.c` spanning all of `ts`.
pub(super) fn dotted(toks: &Tokens<'_>, ts: &[Token]) -> Option<String> {
    if ts.is_empty() || ts.len().is_multiple_of(2) {
        return None;
    }
    let mut out = String::new();
    for (k, t) in ts.iter().enumerate() {
        if k % 2 == 0 {
            if t.kind != TokenKind::Name || is_keyword(txt(toks, t)) {
                return None;
            }
            out.push_str(txt(toks, t));
        } else if !is_op(toks, Some(t), ".") {
            return None;
        } else {
            out.push('.');
        }
    }
    Some(out)
}

/// Splits `ts` (the inside of a bracket at `depth`) at commas of that depth; a trailing
/// comma does not make an empty element.
pub(super) fn split_commas<'t>(toks: &Tokens<'_>, ts: &'t [Token], depth: u32) -> Vec<&'t [Token]> {
    let mut out = Vec::new();
    let mut from = 0;
    for (k, t) in ts.iter().enumerate() {
        if t.depth == depth && is_op(toks, Some(t), ",") {
            out.push(ts.get(from..k).unwrap_or(&[]));
            from = k + 1;
        }
    }
    let last = ts.get(from..).unwrap_or(&[]);
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// Removes parentheses enclosing the whole expression.
fn strip_parens<'t>(toks: &Tokens<'_>, mut ts: &'t [Token]) -> &'t [Token] {
    while ts.len() >= 2 && is_op(toks, ts.first(), "(") && matching(ts, toks, 0) == Some(ts.len() - 1) {
        ts = ts.get(1..ts.len() - 1).unwrap_or(&[]);
    }
    ts
}

/// A call `dotted(args)` spanning all of `ts`: (callee, positional args).
pub(super) fn call<'t>(toks: &Tokens<'_>, ts: &'t [Token]) -> Option<(String, Vec<&'t [Token]>)> {
    let open = ts.iter().position(|t| is_op(toks, Some(t), "("))?;
    let callee = dotted(toks, ts.get(..open)?)?;
    if matching(ts, toks, open)? != ts.len() - 1 {
        return None;
    }
    let depth = ts.get(open)?.depth + 1;
    let inner = ts.get(open + 1..ts.len() - 1)?;
    let args = split_commas(toks, inner, depth)
        .into_iter()
        .filter(|a| !(a.len() >= 2 && is_op(toks, a.get(1), "=") && a.first().is_some_and(|t| t.kind == TokenKind::Name)))
        .filter(|a| !is_op(toks, a.first(), "*") && !is_op(toks, a.first(), "**"))
        .collect();
    Some((callee, args))
}

/// `a.b.<last>`: the dotted name ends with `.<last>` (Python's `endswith(".<last>")`).
pub(super) fn is_dotted_suffix(name: &str, last: &str) -> bool {
    name.strip_suffix(last).is_some_and(|p| p.ends_with('.'))
}

fn parse_int_literal(s: &str) -> Option<i64> {
    let s: String = s.chars().filter(|&c| c != '_').collect();
    let lower = s.to_ascii_lowercase();
    if let Some(h) = lower.strip_prefix("0x") {
        i64::from_str_radix(h, 16).ok()
    } else if let Some(o) = lower.strip_prefix("0o") {
        i64::from_str_radix(o, 8).ok()
    } else if let Some(b) = lower.strip_prefix("0b") {
        i64::from_str_radix(b, 2).ok()
    } else {
        lower.parse::<i64>().ok()
    }
}

/// Folds `4096`, `-1` and `pl.const(4096, pl.INT64)` to an integer.
pub(super) fn int_value(toks: &Tokens<'_>, ts: &[Token]) -> Option<i64> {
    let ts = strip_parens(toks, ts);
    match ts {
        [t] if t.kind == TokenKind::Number => parse_int_literal(txt(toks, t)),
        [m, rest @ ..] if is_op(toks, Some(m), "-") && !rest.is_empty() => int_value(toks, rest).and_then(i64::checked_neg),
        _ => {
            let (callee, args) = call(toks, ts)?;
            if !is_dotted_suffix(&callee, "const") {
                return None;
            }
            int_value(toks, args.first()?)
        }
    }
}

pub(super) fn string_value(s: &str) -> String {
    let q = s.find(['"', '\'']).unwrap_or(0);
    let body = s.get(q..).unwrap_or("");
    let triple = body.starts_with("\"\"\"") || body.starts_with("'''");
    let n = if triple { 3 } else { 1 };
    body.get(n..body.len().saturating_sub(n)).unwrap_or("").to_owned()
}

/// `pl.Tile[...]` annotation: the subscript elements.
pub(super) fn tile_elements<'t>(toks: &Tokens<'_>, ann: &'t [Token]) -> Option<Vec<&'t [Token]>> {
    let ann = strip_parens(toks, ann);
    let open = ann.iter().position(|t| is_op(toks, Some(t), "["))?;
    let name = dotted(toks, ann.get(..open)?)?;
    if !is_dotted_suffix(&name, "Tile") || matching(ann, toks, open)? != ann.len() - 1 {
        return None;
    }
    let depth = ann.get(open)?.depth + 1;
    let inner = ann.get(open + 1..ann.len() - 1)?;
    let parts = split_commas(toks, inner, depth);
    // `pl.Tile[(a, b)]` is one tuple too
    if parts.len() == 1 {
        let one = strip_parens(toks, parts.first().copied().unwrap_or(&[]));
        if one.len() != parts.first().map_or(0, |p| p.len()) {
            let d = one.first().map_or(depth, |t| t.depth);
            let split = split_commas(toks, one, d);
            if split.len() > 1 {
                return Some(split);
            }
        }
    }
    Some(parts)
}

/// The first `X.MemRef(base, offset, size, …)` (shallowest first) with a usable base and
/// constant offset and size.
pub(super) fn find_memref(toks: &Tokens<'_>, ann: &[Token]) -> Option<(String, i64, i64)> {
    let mut cands: Vec<(u32, usize)> = Vec::new();
    for (k, t) in ann.iter().enumerate() {
        if t.kind == TokenKind::Name
            && txt(toks, t) == "MemRef"
            && is_op(toks, ann.get(k + 1), "(")
            && is_op(toks, k.checked_sub(1).and_then(|p| ann.get(p)), ".")
        {
            // walk back over the dotted prefix
            let mut s = k;
            while s >= 2 && is_op(toks, ann.get(s - 1), ".") && ann.get(s - 2).is_some_and(|p| p.kind == TokenKind::Name) {
                s -= 2;
            }
            cands.push((t.depth, s));
        }
    }
    cands.sort_by_key(|c| c.0);
    for (_, s) in cands {
        let Some(rest) = ann.get(s..) else { continue };
        let Some(open) = rest.iter().position(|t| is_op(toks, Some(t), "(")) else {
            continue;
        };
        let Some(close) = matching(rest, toks, open) else {
            continue;
        };
        let Some((_, args)) = call(toks, rest.get(..=close).unwrap_or(&[])) else {
            continue;
        };
        if args.len() < 3 {
            continue;
        }
        let base = match strip_parens(toks, args.first().copied().unwrap_or(&[])) {
            [t] if t.kind == TokenKind::Name => txt(toks, t).to_owned(),
            [t] if t.kind == TokenKind::Str => string_value(txt(toks, t)),
            [t] if t.kind == TokenKind::Number => txt(toks, t).to_owned(),
            _ => continue,
        };
        let (Some(off), Some(size)) = (args.get(1).and_then(|a| int_value(toks, a)), args.get(2).and_then(|a| int_value(toks, a))) else {
            continue;
        };
        return Some((base, off, size));
    }
    None
}

/// The `<Space>` of the first (shallowest) `….Mem.<Space>` attribute.
pub(super) fn find_space(toks: &Tokens<'_>, ann: &[Token]) -> Option<String> {
    let mut best: Option<(u32, String)> = None;
    for (k, t) in ann.iter().enumerate() {
        if t.kind == TokenKind::Name
            && txt(toks, t) == "Mem"
            && is_op(toks, ann.get(k + 1), ".")
            && is_op(toks, k.checked_sub(1).and_then(|p| ann.get(p)), ".")
            && k >= 2
            && ann.get(k - 2).is_some_and(|p| p.kind == TokenKind::Name)
        {
            if let Some(sp) = ann.get(k + 2).filter(|s| s.kind == TokenKind::Name) {
                if best.as_ref().is_none_or(|b| t.depth < b.0) {
                    best = Some((t.depth, txt(toks, sp).to_owned()));
                }
            }
        }
    }
    best.map(|b| b.1)
}

pub(super) fn shape_of(toks: &Tokens<'_>, elems: &[&[Token]]) -> Vec<i64> {
    let Some(first) = elems.first() else {
        return Vec::new();
    };
    if !is_op(toks, first.first(), "[") || matching(first, toks, 0) != Some(first.len() - 1) {
        return Vec::new();
    }
    let depth = first.first().map_or(0, |t| t.depth) + 1;
    let inner = first.get(1..first.len() - 1).unwrap_or(&[]);
    let mut dims = Vec::new();
    for d in split_commas(toks, inner, depth) {
        match int_value(toks, d) {
            Some(v) => dims.push(v),
            None => return Vec::new(),
        }
    }
    dims
}

fn is_python_upper(s: &str) -> bool {
    s.chars().any(char::is_alphabetic) && !s.chars().any(char::is_lowercase)
}

pub(super) fn dtype_of(toks: &Tokens<'_>, elems: &[&[Token]]) -> String {
    for e in elems.iter().skip(1).take(2) {
        if let Some(name) = dotted(toks, e) {
            let mut parts = name.split('.');
            if let (Some(_), Some(second), None) = (parts.next(), parts.next(), parts.next()) {
                if is_python_upper(second) {
                    return second.to_owned();
                }
            }
        }
    }
    String::new()
}

fn tile_from_annotation(toks: &Tokens<'_>, name: &str, ann: &[Token], start_line: u32, end_line: u32, op: &str) -> Option<Tile> {
    let elems = tile_elements(toks, ann)?;
    let (base, offset, size) = find_memref(toks, ann)?;
    let space = find_space(toks, ann)?;
    if space == "DDR" {
        return None;
    }
    Some(Tile {
        name: name.to_owned(),
        space,
        base,
        offset_bytes: offset,
        size_bytes: size,
        shape: shape_of(toks, &elems),
        dtype: dtype_of(toks, &elems),
        op: op.to_owned(),
        start_line,
        end_line,
    })
}

/// `@X.function(type=…)` keywords of a function's decorators: the `type` value's last
/// dotted part.
pub(super) fn function_type(toks: &Tokens<'_>, f: &FunctionOutline) -> Option<String> {
    let mut out = None;
    for d in f.decorators.clone() {
        let line = toks.lines.get(d)?;
        let ts = toks.line_tokens(line).get(1..)?; // after '@'
        let Some((callee, _)) = call(toks, ts) else {
            continue;
        };
        if !is_dotted_suffix(&callee, "function") {
            continue;
        }
        let open = ts.iter().position(|t| is_op(toks, Some(t), "("))?;
        let depth = ts.get(open)?.depth + 1;
        let inner = ts.get(open + 1..ts.len() - 1)?;
        for arg in split_commas(toks, inner, depth) {
            if arg.len() >= 3 && arg.first().is_some_and(|t| txt(toks, t) == "type") && is_op(toks, arg.get(1), "=") {
                let value = arg.get(2..)?;
                out = Some(dotted(toks, value).map_or_else(
                    || value.iter().map(|t| txt(toks, t)).collect::<String>(),
                    |d| d.rsplit('.').next().unwrap_or("").to_owned(),
                ));
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Name reads ("Load" contexts)
// ---------------------------------------------------------------------------------------

/// Pushes `(token index)` of every Name token in `ts` read as a variable, the way Python's
/// `ast` gives them `Load` context: not an attribute, keyword argument, assignment / `for` /
/// `as` / walrus target, parameter, `def`/`class` name, nor a keyword.
#[allow(clippy::too_many_lines)] // one pass per Python target form, kept together
fn loads_in_statement(toks: &Tokens<'_>, ts: &[Token], out: &mut Vec<usize>) {
    let first = ts.first().map_or("", |t| txt(toks, t));
    if matches!(first, "import" | "from" | "global" | "nonlocal" | "del") {
        return;
    }
    let mut store = vec![false; ts.len()];
    let mut skip = vec![false; ts.len()];
    let base_depth = ts.first().map_or(0, |t| t.depth);
    // def / class heads
    let head = usize::from(first == "async");
    if ts.get(head).is_some_and(|t| txt(toks, t) == "def") {
        mark_def(toks, ts, head, &mut skip);
    } else if first == "class" {
        if let Some(s) = skip.get_mut(1) {
            *s = true;
        }
    }
    // statement-level targets: AnnAssign target, Assign / AugAssign targets
    if ts.len() >= 2
        && ts.first().is_some_and(|t| t.kind == TokenKind::Name)
        && is_op(toks, ts.get(1), ":")
        && !matches!(first, "else" | "try" | "finally" | "lambda")
    {
        if let Some(s) = store.get_mut(0) {
            *s = true;
        }
    } else {
        let eqs: Vec<usize> = ts
            .iter()
            .enumerate()
            .filter(|(_, t)| {
                t.depth == base_depth
                    && t.kind == TokenKind::Op
                    && (txt(toks, t) == "="
                        || (txt(toks, t).len() >= 2
                            && txt(toks, t).ends_with('=')
                            && !matches!(txt(toks, t), "==" | "!=" | "<=" | ">=" | ":=")))
            })
            .map(|(k, _)| k)
            .collect();
        if let Some(&last) = eqs.last() {
            mark_targets(toks, ts, 0, last, &mut store);
        }
    }
    // for-targets (statements and comprehensions), `as` targets, walrus, lambda params
    for k in 0..ts.len() {
        let Some(t) = ts.get(k) else { break };
        if t.kind != TokenKind::Name {
            continue;
        }
        match txt(toks, t) {
            "for" => {
                let d = t.depth;
                if let Some(end) = (k + 1..ts.len())
                    .find(|&j| ts.get(j).is_some_and(|x| x.depth == d && x.kind == TokenKind::Name && txt(toks, x) == "in"))
                {
                    mark_targets(toks, ts, k + 1, end, &mut store);
                }
            }
            "as" => {
                if let Some(s) = store.get_mut(k + 1) {
                    *s = true;
                }
            }
            "lambda" => {
                let d = t.depth;
                let mut j = k + 1;
                while let Some(x) = ts.get(j) {
                    if x.depth == d && is_op(toks, Some(x), ":") {
                        break;
                    }
                    if x.kind == TokenKind::Name {
                        if let Some(s) = skip.get_mut(j) {
                            *s = true;
                        }
                    }
                    j += 1;
                }
            }
            _ => {
                if is_op(toks, ts.get(k + 1), ":=") {
                    if let Some(s) = store.get_mut(k) {
                        *s = true;
                    }
                }
            }
        }
    }
    for (k, t) in ts.iter().enumerate() {
        if t.kind != TokenKind::Name
            || store.get(k).copied().unwrap_or(false)
            || skip.get(k).copied().unwrap_or(false)
            || is_keyword(txt(toks, t))
        {
            continue;
        }
        if k > 0 && is_op(toks, ts.get(k - 1), ".") {
            continue; // attribute
        }
        if t.depth > base_depth && is_op(toks, ts.get(k + 1), "=") {
            continue; // keyword argument name
        }
        out.push(k);
    }
}

/// Marks the bare names of a target list `ts[from..to]` as stores; names used inside
/// subscripts, or as the object of an attribute / subscript / call, stay reads.
fn mark_targets(toks: &Tokens<'_>, ts: &[Token], from: usize, to: usize, store: &mut [bool]) {
    // depth of subscripts we are inside (everything in them is a read)
    let mut sub_depths: Vec<u32> = Vec::new();
    for k in from..to {
        let Some(t) = ts.get(k) else { break };
        let s = txt(toks, t);
        if t.kind == TokenKind::Op && is_close(s) {
            if sub_depths.last() == Some(&t.depth) {
                sub_depths.pop();
            }
            continue;
        }
        if t.kind == TokenKind::Op && is_open(s) {
            let prev = k.checked_sub(1).and_then(|p| ts.get(p));
            let is_subscript_or_call = k > from
                && prev.is_some_and(|p| {
                    (p.kind == TokenKind::Name && !is_keyword(txt(toks, p)))
                        || p.kind == TokenKind::Str
                        || (p.kind == TokenKind::Op && is_close(txt(toks, p)))
                });
            if is_subscript_or_call || !sub_depths.is_empty() {
                sub_depths.push(t.depth);
            }
            continue;
        }
        if t.kind == TokenKind::Name && sub_depths.is_empty() {
            let next = ts.get(k + 1);
            let used_as_object = is_op(toks, next, ".") || is_op(toks, next, "[") || is_op(toks, next, "(");
            let is_attr = k > 0 && is_op(toks, ts.get(k - 1), ".");
            if !used_as_object && !is_attr {
                if let Some(x) = store.get_mut(k) {
                    *x = true;
                }
            }
        }
    }
}

/// On a `def` statement: skips the function name and parameter names (annotations and
/// defaults stay reads).
fn mark_def(toks: &Tokens<'_>, ts: &[Token], def_at: usize, skip: &mut [bool]) {
    if let Some(s) = skip.get_mut(def_at + 1) {
        *s = true;
    }
    for p in params(toks, ts, def_at) {
        if let Some(s) = skip.get_mut(p.name_at) {
            *s = true;
        }
    }
}

struct Param {
    /// Token index of the parameter name.
    name_at: usize,
    /// Token range of the annotation (empty if none).
    annotation: std::ops::Range<usize>,
}

/// Parameters of the `def` at token `def_at`.
fn params(toks: &Tokens<'_>, ts: &[Token], def_at: usize) -> Vec<Param> {
    let mut out = Vec::new();
    let Some(open) = (def_at..ts.len()).find(|&k| is_op(toks, ts.get(k), "(")) else {
        return out;
    };
    let Some(close) = matching(ts, toks, open) else {
        return out;
    };
    let depth = ts.get(open).map_or(0, |t| t.depth) + 1;
    let mut seg_start = open + 1;
    for k in open + 1..=close {
        let at_end = k == close || ts.get(k).is_some_and(|t| t.depth == depth && is_op(toks, Some(t), ","));
        if !at_end {
            continue;
        }
        let mut s = seg_start;
        while is_op(toks, ts.get(s), "*") || is_op(toks, ts.get(s), "**") {
            s += 1;
        }
        if s < k && ts.get(s).is_some_and(|t| t.kind == TokenKind::Name) {
            let mut annotation = s + 1..s + 1;
            if is_op(toks, ts.get(s + 1), ":") {
                let ann_end = (s + 2..k).find(|&j| ts.get(j).is_some_and(|t| t.depth == depth && is_op(toks, Some(t), "="))).unwrap_or(k);
                annotation = s + 2..ann_end;
            }
            out.push(Param { name_at: s, annotation });
        }
        seg_start = k + 1;
    }
    out
}

// ---------------------------------------------------------------------------------------
// Tiles and boxes
// ---------------------------------------------------------------------------------------

/// Statement indices of a function body with their `ast` nesting depth (1 = direct body
/// statement; `elif` blocks sit one level deeper per preceding `elif`, as in the AST).
fn body_depths(toks: &Tokens<'_>, f: &FunctionOutline) -> Vec<(usize, u32)> {
    // stack of (indent, depth of statements at that indent, elif count of the chain at it)
    let mut stack: Vec<(u32, u32, u32)> = Vec::new();
    let mut out = Vec::new();
    for i in f.body.clone() {
        let Some(line) = toks.lines.get(i) else { break };
        while stack.last().is_some_and(|s| s.0 > line.indent) {
            stack.pop();
        }
        let first = toks.line_tokens(line).first().map_or("", |t| toks.text_of(t));
        let depth = match stack.last_mut() {
            Some(top) if top.0 == line.indent => {
                if first == "elif" {
                    top.2 += 1;
                } else if first != "else" {
                    top.2 = 0;
                }
                top.1 + if first == "elif" { top.2 - 1 } else { 0 }
            }
            _ => {
                // first statement of a new block: one deeper than its header
                let parent = stack.last().map_or(0, |s| s.1 + s.2);
                stack.push((line.indent, parent + 1, 0));
                parent + 1
            }
        };
        out.push((i, depth));
    }
    out
}

/// Every tile binding of a function keyed by name, in `ast.walk` discovery order.
pub fn collect_tiles(toks: &Tokens<'_>, f: &FunctionOutline) -> Vec<Tile> {
    collect_with_lines(toks, f).0
}

/// Where a tile's name appears in the dump: for the source pane beside the map (click a
/// tile → its lines; click a line → its tiles).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct TileLines {
    pub name: String,
    /// Defining statements (parameter or annotated assignment), first..=last physical line.
    pub defined: Vec<(u32, u32)>,
    /// Physical lines reading the name, ascending, no repeats.
    pub read: Vec<u32>,
}

/// Tiles bound by `pl.Tile[…]`-annotated parameters (live from the parameter's line), with
/// their defining lines.
fn param_tiles(toks: &Tokens<'_>, f: &FunctionOutline) -> (Vec<Tile>, Vec<TileLines>) {
    let mut lines: Vec<TileLines> = Vec::new();
    let mut tiles: Vec<Tile> = Vec::new();
    if let Some(def) = toks.lines.get(f.def_stmt) {
        let ts = toks.line_tokens(def);
        let head = usize::from(ts.first().is_some_and(|t| toks.text_of(t) == "async"));
        for p in params(toks, ts, head) {
            let Some(ann) = ts.get(p.annotation.clone()).filter(|a| !a.is_empty()) else {
                continue;
            };
            let Some(name_tok) = ts.get(p.name_at) else {
                continue;
            };
            let end = ann.last().map_or(name_tok.line, |t| t.line);
            let name = toks.text_of(name_tok);
            if let Some(t) = tile_from_annotation(toks, name, ann, name_tok.line, end, "param") {
                tiles.push(t);
                lines.push(TileLines { name: name.to_owned(), defined: vec![(name_tok.line, end)], read: Vec::new() });
            }
        }
    }
    (tiles, lines)
}

/// [`collect_tiles`] plus, per tile (same order), the lines defining and reading it.
pub fn collect_with_lines(toks: &Tokens<'_>, f: &FunctionOutline) -> (Vec<Tile>, Vec<TileLines>) {
    let (mut tiles, mut lines) = param_tiles(toks, f);
    let mut index: HashMap<String, usize> = tiles.iter().enumerate().map(|(i, t)| (t.name.clone(), i)).collect();
    // annotated assignments, shallower nesting first (ast.walk is breadth-first)
    let mut stmts = body_depths(toks, f);
    stmts.sort_by_key(|&(i, d)| (d, i));
    for (i, _) in stmts {
        let Some(line) = toks.lines.get(i) else {
            continue;
        };
        let ts = toks.line_tokens(line);
        let (Some(target), true) = (ts.first(), is_op(toks, ts.get(1), ":")) else {
            continue;
        };
        if target.kind != TokenKind::Name || is_keyword(toks.text_of(target)) {
            continue;
        }
        let name = toks.text_of(target);
        if let Some(&k) = index.get(name) {
            if let Some(t) = tiles.get_mut(k) {
                t.start_line = t.start_line.min(line.first_line);
                t.end_line = t.end_line.max(line.last_line);
            }
            if let Some(l) = lines.get_mut(k) {
                l.defined.push((line.first_line, line.last_line));
            }
            continue;
        }
        let eq = (2..ts.len()).find(|&k| ts.get(k).is_some_and(|t| t.depth == target.depth && is_op(toks, Some(t), "=")));
        let ann = ts.get(2..eq.unwrap_or(ts.len())).unwrap_or(&[]);
        let value = eq.and_then(|e| ts.get(e + 1..)).unwrap_or(&[]);
        let op = call(toks, value).map(|(callee, _)| callee.strip_prefix("pl.").map_or(callee.clone(), str::to_owned)).unwrap_or_default();
        if let Some(t) = tile_from_annotation(toks, name, ann, line.first_line, line.last_line, &op) {
            index.insert(name.to_owned(), tiles.len());
            tiles.push(t);
            lines.push(TileLines { name: name.to_owned(), defined: vec![(line.first_line, line.last_line)], read: Vec::new() });
        }
    }
    // reads widen the live range
    let mut loads = Vec::new();
    let stmt_range = f.decorators.start..f.body.end;
    for i in stmt_range {
        let Some(line) = toks.lines.get(i) else {
            continue;
        };
        let ts = toks.line_tokens(line);
        loads.clear();
        loads_in_statement(toks, ts, &mut loads);
        for &k in &loads {
            let Some(t) = ts.get(k) else { continue };
            if let Some(&ti) = index.get(toks.text_of(t)) {
                if let Some(tile) = tiles.get_mut(ti) {
                    tile.start_line = tile.start_line.min(t.line);
                    tile.end_line = tile.end_line.max(t.line);
                }
                if let Some(l) = lines.get_mut(ti) {
                    l.read.push(t.line);
                }
            }
        }
    }
    for l in &mut lines {
        l.defined.sort_unstable();
        l.read.sort_unstable();
        l.read.dedup();
    }
    (tiles, lines)
}
