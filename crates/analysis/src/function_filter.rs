//! "Filter by function" for the IR Pass Trace (compiler-formats.md §2.3): the functions of a
//! snapshot (`Class.method` for methods of a top-level class, `name` for top-level
//! functions) with their line ranges, and the diff of one function's range in the previous
//! snapshot against its range in the current one.
//!
//! Ranges follow pypto's `ir_trace`: from the first decorator line to the last line of the
//! last body statement. As there, a snapshot whose regions cannot be trusted (it does not
//! tokenize, keys repeat, ranges overlap or leave the file) has no function list, and the
//! view falls back to the whole-file diff. Statements are tokenized, not matched per
//! physical line, so ruff-formatted multi-line signatures and statements stay whole.

use crate::pass_trace::{diff_ranges, split_lines, LineDiff};
use pypto_formats::python_source;

/// One function's lines in a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FunctionRegion {
    pub key: String,
    pub name: String,
    /// 1-based first line (first decorator) and last line, inclusive.
    pub start_line: u32,
    pub end_line: u32,
}

impl FunctionRegion {
    /// 0-based half-open line range.
    pub fn range(&self) -> std::ops::Range<usize> {
        (self.start_line as usize).saturating_sub(1)..self.end_line as usize
    }
}

/// The function regions of a snapshot, in file order; `None` when they cannot be trusted.
pub fn function_regions(path: &str, text: &str) -> Option<Vec<FunctionRegion>> {
    let toks = python_source::tokenize(path, text).ok()?;
    let n_lines = split_lines(text).len() as u32;
    let mut out: Vec<FunctionRegion> = python_source::outline(&toks)
        .into_iter()
        .map(|f| FunctionRegion { key: f.key, name: f.name, start_line: f.start_line, end_line: f.end_line })
        .collect();
    out.sort_by_key(|r| r.start_line);
    let mut keys: Vec<&str> = out.iter().map(|r| r.key.as_str()).collect();
    keys.sort_unstable();
    if keys.windows(2).any(|w| w.first() == w.get(1)) {
        return None;
    }
    let mut cursor = 0u32;
    for r in &out {
        if r.start_line == 0 || r.start_line <= cursor || r.end_line < r.start_line || r.end_line > n_lines {
            return None;
        }
        cursor = r.end_line;
    }
    Some(out)
}

/// A function of the filter list and where it is on each side.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FunctionChoice {
    pub key: String,
    pub before: Option<FunctionRegion>,
    pub after: Option<FunctionRegion>,
}

/// The function list of a pass: keys of the after snapshot in order, then keys only in the
/// before snapshot (deleted functions). `None` when either side has no trustworthy regions.
pub fn function_choices(before: Option<&[FunctionRegion]>, after: Option<&[FunctionRegion]>) -> Option<Vec<FunctionChoice>> {
    let (before, after) = (before?, after?);
    let find = |v: &[FunctionRegion], k: &str| v.iter().find(|r| r.key == k).cloned();
    let mut out: Vec<FunctionChoice> =
        after.iter().map(|a| FunctionChoice { key: a.key.clone(), before: find(before, &a.key), after: Some(a.clone()) }).collect();
    for b in before {
        if !after.iter().any(|a| a.key == b.key) {
            out.push(FunctionChoice { key: b.key.clone(), before: Some(b.clone()), after: None });
        }
    }
    Some(out)
}

/// The diff restricted to one function: its range in `before` against its range in
/// `after` (an empty range on the side where it does not exist). Row line indices are
/// those of the whole files.
pub fn diff_function(before: &[&str], after: &[&str], choice: &FunctionChoice) -> LineDiff {
    let b = choice.before.as_ref().map_or(0..0, FunctionRegion::range);
    let a = choice.after.as_ref().map_or(0..0, FunctionRegion::range);
    diff_ranges(before, b, after, a)
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn restricted_diff_and_added_function() {
        let before = "class P:\n    @f\n    def a(self):\n        x = 1\n    def b(self):\n        return 2\n";
        let after = "class P:\n    @f\n    def a(self):\n        x = 2\n        y = 3\n    def c(self):\n        return 2\n";
        let rb = function_regions("b.py", before).expect("regions");
        let ra = function_regions("a.py", after).expect("regions");
        let ch = function_choices(Some(&rb), Some(&ra)).expect("choices");
        let keys: Vec<&str> = ch.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["P.a", "P.c", "P.b"]);
        let (bl, al) = (split_lines(before), split_lines(after));
        let d = diff_function(&bl, &al, &ch[0]);
        assert_eq!((d.added, d.removed), (2, 1));
        assert!(d.rows.iter().all(|r| r.before.is_none_or(|x| (1..4).contains(&x))));
        let added = diff_function(&bl, &al, &ch[1]);
        assert_eq!((added.added, added.removed), (2, 0));
        let deleted = diff_function(&bl, &al, &ch[2]);
        assert_eq!((deleted.added, deleted.removed), (0, 2));
    }

    #[test]
    fn untrusted_regions() {
        assert!(function_regions("x.py", "def a():\n    pass\ndef a():\n    pass\n").is_none());
        assert!(function_regions("x.py", "def a(:\n").is_none());
        assert_eq!(function_regions("x.py", "x = 1\n"), Some(vec![]));
    }
}
