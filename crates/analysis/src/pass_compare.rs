//! Two pass dumps of one program side by side (A = a baseline compile, B = this one), for the
//! "Compiler runs" comparison (the page's compare view and `pypto-viewer compare-passes`):
//! the two pass lists aligned by pass name, whether each aligned pass changed the program the
//! same way in A and in B, and whether the two snapshots at each point are the same text.
//!
//! - **Alignment** ([`align`]): a minimal diff (imara-diff's `MyersMinimal`) of the two
//!   sequences of pass names, in pass order. Equal names are one row ([`Pairing::Same`]); in a
//!   changed run, A's and B's passes are paired in order ([`Pairing::Renamed`]: a pass renamed
//!   or replaced at that place), the surplus stays one-sided ([`Pairing::OnlyA`]: dropped in B,
//!   [`Pairing::OnlyB`]: added in B) — as the diff view pairs a changed block's lines.
//! - **Effect** ([`change_set`], [`effects_differ`]): a pass's effect is what its own diff
//!   (its pass-list hunks, against its side's previous snapshot) removed and added, taken per
//!   *statement*, so that the raw and the ruff-formatted layout of one program give the same
//!   effect: every statement (logical line, [`python_source::tokenize`]) with a physical line
//!   in a hunk, written as its indentation and its tokens joined by one space, with a `,` right
//!   before a closing bracket dropped (ruff's magic trailing comma) and a plain `'…'` string
//!   written `"…"` (ruff's quotes); a changed non-blank line in no statement (a comment) counts
//!   as its whitespace-collapsed text, and so does every changed line of a snapshot that does
//!   not tokenize. Statements found on both sides of the pass cancel (a statement only
//!   re-wrapped is no change). The effect is the multiset pair (removed, added) left;
//!   **two passes' effects differ when these multisets differ**. A pass present in one dump
//!   only differs in effect when it changed something (is not a no-op).
//! - **Output** ([`compare`]): at each row the snapshot of A and the snapshot of B (for a
//!   one-sided row, the other side's latest snapshot before that point, or its
//!   `00_frontend.py`) are diffed with the pass trace's differ ([`diff_hunks`]): the +/− line
//!   counts of B's snapshot against A's, and whether the texts differ (after `\r\n` → `\n`).
//!   A pair of texts already diffed (no-op passes repeat a text) is not diffed again.

use imara_diff::{Algorithm, Diff, InternedInput};
use pypto_formats::python_source;

use crate::pass_trace::{diff_hunks, same_text, split_lines, Hunk, PassList};

/// How a row of the aligned pass lists came about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Pairing {
    /// The same pass name at this place in both.
    Same,
    /// Different names paired in a changed run (a pass renamed or replaced).
    Renamed,
    /// Only in A (dropped in B).
    OnlyA,
    /// Only in B (added in B).
    OnlyB,
}

/// One row of the alignment: positions in A's and B's pass lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Aligned {
    pub a: Option<usize>,
    pub b: Option<usize>,
    pub pairing: Pairing,
}

/// Aligns two sequences of pass names (see the module doc).
pub fn align(a: &[&str], b: &[&str]) -> Vec<Aligned> {
    let mut input: InternedInput<&str> = InternedInput::default();
    input.update_before(a.iter().copied());
    input.update_after(b.iter().copied());
    let diff = Diff::compute(Algorithm::MyersMinimal, &input);
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let (mut i, mut j) = (0usize, 0usize);
    let same = |out: &mut Vec<Aligned>, i: &mut usize, j: &mut usize, until_a: usize| {
        while *i < until_a {
            out.push(Aligned { a: Some(*i), b: Some(*j), pairing: Pairing::Same });
            *i += 1;
            *j += 1;
        }
    };
    for h in diff.hunks() {
        same(&mut out, &mut i, &mut j, h.before.start as usize);
        let (a0, b0) = (h.before.start as usize, h.after.start as usize);
        let (na, nb) = (h.before.len(), h.after.len());
        let paired = na.min(nb);
        out.extend((0..paired).map(|k| Aligned { a: Some(a0 + k), b: Some(b0 + k), pairing: Pairing::Renamed }));
        out.extend((paired..na).map(|k| Aligned { a: Some(a0 + k), b: None, pairing: Pairing::OnlyA }));
        out.extend((paired..nb).map(|k| Aligned { a: None, b: Some(b0 + k), pairing: Pairing::OnlyB }));
        i = h.before.end as usize;
        j = h.after.end as usize;
    }
    same(&mut out, &mut i, &mut j, a.len());
    out
}

/// What a pass removed and added, per normalised statement (see the module doc), each sorted,
/// statements on both sides cancelled.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ChangeSet {
    pub removed: Vec<String>,
    pub added: Vec<String>,
}

/// The [`ChangeSet`] of a pass whose diff of `before` (file `before_name`) against `after`
/// is `hunks` (0-based physical lines, as [`crate::pass_trace::PassEntry::hunks`]).
pub fn change_set(before_name: &str, before: &str, after_name: &str, after: &str, hunks: &[Hunk]) -> ChangeSet {
    if hunks.is_empty() {
        return ChangeSet::default();
    }
    let removed_lines: Vec<std::ops::Range<u32>> = hunks.iter().map(|h| h.before.clone()).collect();
    let added_lines: Vec<std::ops::Range<u32>> = hunks.iter().map(|h| h.after.clone()).collect();
    let mut removed = touched_statements(before_name, before, &removed_lines);
    let mut added = touched_statements(after_name, after, &added_lines);
    removed.sort_unstable();
    added.sort_unstable();
    let (removed, added) = cancel(removed, added);
    ChangeSet { removed, added }
}

/// Removes the elements the two sorted multisets share.
fn cancel(a: Vec<String>, b: Vec<String>) -> (Vec<String>, Vec<String>) {
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    let (mut ia, mut ib) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        match (ia.peek(), ib.peek()) {
            (Some(x), Some(y)) => match x.cmp(y) {
                std::cmp::Ordering::Less => only_a.extend(ia.next()),
                std::cmp::Ordering::Greater => only_b.extend(ib.next()),
                std::cmp::Ordering::Equal => {
                    ia.next();
                    ib.next();
                }
            },
            (Some(_), None) => only_a.extend(ia.next()),
            (None, Some(_)) => only_b.extend(ib.next()),
            (None, None) => break,
        }
    }
    (only_a, only_b)
}

/// The normalised statements of `text` with a physical line (0-based) in one of `ranges`.
fn touched_statements(name: &str, text: &str, ranges: &[std::ops::Range<u32>]) -> Vec<String> {
    if ranges.iter().all(std::ops::Range::is_empty) {
        return Vec::new();
    }
    let lines = split_lines(text);
    let mut hit = vec![false; lines.len()];
    for r in ranges {
        for l in r.clone() {
            if let Some(h) = hit.get_mut(l as usize) {
                *h = true;
            }
        }
    }
    let mut out = Vec::new();
    let mut covered = vec![false; lines.len()];
    if let Ok(toks) = python_source::tokenize(name, text) {
        for stmt in &toks.lines {
            // 1-based, inclusive → 0-based, half-open
            let span = (stmt.first_line.saturating_sub(1) as usize)..(stmt.last_line as usize);
            let mut touched = false;
            for l in span {
                if let Some(c) = covered.get_mut(l) {
                    *c = true;
                }
                touched |= hit.get(l).copied().unwrap_or(false);
            }
            if touched {
                out.push(statement_text(&toks, stmt));
            }
        }
    }
    for ((line, h), c) in lines.iter().zip(&hit).zip(&covered) {
        if *h && !*c {
            let collapsed = line.split_whitespace().collect::<Vec<_>>().join(" ");
            if !collapsed.is_empty() {
                out.push(collapsed);
            }
        }
    }
    out
}

/// A statement as the effect rule compares it: `<indent>|<tokens joined by one space>`, a `,`
/// before a closing bracket dropped, plain single-quoted strings double-quoted.
fn statement_text(toks: &python_source::Tokens<'_>, stmt: &python_source::LogicalLine) -> String {
    let tokens = toks.line_tokens(stmt);
    let wrapped = wrapping_parens(toks, tokens);
    let mut out = format!("{}|", stmt.indent);
    let mut first = true;
    for (k, t) in tokens.iter().enumerate() {
        let s = toks.text_of(t);
        let next = tokens.get(k + 1).map(|n| toks.text_of(n));
        if s == "," && matches!(next, Some(")" | "]" | "}")) || wrapped == Some(k) || (wrapped.is_some() && k + 1 == tokens.len()) {
            continue;
        }
        if !first {
            out.push(' ');
        }
        first = false;
        if t.kind == python_source::TokenKind::Str {
            push_string(&mut out, s);
        } else {
            out.push_str(s);
        }
    }
    out
}

/// The index of a `(` that wraps the whole value after a statement's top-level `=` or its
/// `return` (ruff parenthesises a long right-hand side), its `)` being the last token.
fn wrapping_parens(toks: &python_source::Tokens<'_>, tokens: &[python_source::Token]) -> Option<usize> {
    let text = |k: usize| tokens.get(k).map_or("", |t| toks.text_of(t));
    let start = if text(0) == "return" { 0 } else { tokens.iter().position(|t| t.depth == 0 && toks.text_of(t) == "=")? };
    let open = start + 1;
    let depth = tokens.get(open)?.depth;
    let last = tokens.len().checked_sub(1)?;
    let inside = tokens.get(open + 1..last)?;
    (text(open) == "(" && text(last) == ")" && last > open && inside.iter().all(|t| t.depth > depth)).then_some(open)
}

/// `'abc'` → `"abc"` when the body holds no quote or backslash; other strings as written.
fn push_string(out: &mut String, s: &str) {
    let prefix_len = s.bytes().take_while(u8::is_ascii_alphabetic).count();
    let (prefix, rest) = s.split_at_checked(prefix_len).unwrap_or(("", s));
    let body = rest.strip_prefix('\'').and_then(|r| r.strip_suffix('\''));
    match body {
        Some(b) if !rest.starts_with("'''") && !b.contains(['"', '\'', '\\']) => {
            out.push_str(prefix);
            out.push('"');
            out.push_str(b);
            out.push('"');
        }
        _ => out.push_str(s),
    }
}

/// One row of a comparison: the alignment and what differs there.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PairRow {
    /// Positions of the row's passes in A's and B's pass lists.
    pub a: Option<usize>,
    pub b: Option<usize>,
    pub pairing: Pairing,
    /// The passes changed the program differently (see the module doc).
    pub effect_differs: bool,
    /// The snapshots compared at this row: positions in each pass list, `None` =
    /// `00_frontend.py` (for a one-sided row, the other side's latest snapshot before it).
    pub a_snapshot: Option<usize>,
    pub b_snapshot: Option<usize>,
    /// The two snapshots' texts differ (after `\r\n` → `\n`).
    pub snapshots_differ: bool,
    /// Lines of B's snapshot not in A's, and of A's not in B's.
    pub cross_added: u32,
    pub cross_removed: u32,
}

/// The comparison of two dumps' pass lists.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Comparison {
    pub rows: Vec<PairRow>,
    /// The two `00_frontend.py` texts differ (the programs differ before any pass).
    pub frontends_differ: bool,
    pub frontend_cross_added: u32,
    pub frontend_cross_removed: u32,
}

impl Comparison {
    /// Position of the first row whose snapshots differ.
    pub fn first_output_difference(&self) -> Option<usize> {
        self.rows.iter().position(|r| r.snapshots_differ)
    }

    /// Position of the first row whose passes' effects differ.
    pub fn first_effect_difference(&self) -> Option<usize> {
        self.rows.iter().position(|r| r.effect_differs)
    }
}

/// One side of a comparison: its pass list and a lookup of its snapshot texts by file name
/// (`None`: not read — compared as an empty text).
pub struct Side<'a, F> {
    pub list: &'a PassList,
    pub text: F,
}

impl<'t, F: Fn(&str) -> Option<&'t str>> Side<'_, F> {
    fn text_of(&self, file: &str) -> &'t str {
        if file.is_empty() {
            return "";
        }
        (self.text)(file).unwrap_or("")
    }

    /// The text at `snapshot` (a position; `None` = the frontend) and its file name.
    fn snapshot(&self, snapshot: Option<usize>) -> (&str, &'t str) {
        match snapshot.and_then(|p| self.list.passes.get(p)) {
            Some(p) => (p.file_name.as_str(), self.text_of(&p.file_name)),
            None => (pypto_formats::passes_dump::FRONTEND, self.text_of(pypto_formats::passes_dump::FRONTEND)),
        }
    }

    /// Which distinct text a snapshot holds: a no-op pass repeats the one before it.
    fn text_ids(&self) -> Vec<usize> {
        let mut ids = Vec::with_capacity(self.list.passes.len());
        let mut current = 0usize;
        for (k, p) in self.list.passes.iter().enumerate() {
            if !p.no_op {
                current = k + 1;
            }
            ids.push(current);
        }
        ids
    }

    /// The [`ChangeSet`] of the pass at position `p`.
    fn change_set(&self, p: usize) -> ChangeSet {
        let Some(entry) = self.list.passes.get(p) else { return ChangeSet::default() };
        if entry.no_op {
            return ChangeSet::default();
        }
        let before = self.text_of(&entry.previous_file);
        let after = self.text_of(&entry.file_name);
        change_set(&entry.previous_file, before, &entry.file_name, after, &entry.hunks)
    }

    fn is_no_op(&self, p: usize) -> bool {
        self.list.passes.get(p).is_none_or(|e| e.no_op)
    }
}

/// Whether the passes at `a` (in A) and `b` (in B) changed the program differently.
pub fn effects_differ<'t, FA, FB>(a: &Side<'_, FA>, pa: usize, b: &Side<'_, FB>, pb: usize) -> bool
where
    FA: Fn(&str) -> Option<&'t str>,
    FB: Fn(&str) -> Option<&'t str>,
{
    if a.is_no_op(pa) && b.is_no_op(pb) {
        return false;
    }
    a.change_set(pa) != b.change_set(pb)
}

/// `(added, removed, differ)` of B's text against A's.
fn cross_counts(a_text: &str, b_text: &str) -> (u32, u32, bool) {
    let (al, bl) = (split_lines(a_text), split_lines(b_text));
    let hunks = diff_hunks(&al, &bl);
    let added = hunks.iter().map(|h| h.after.len() as u32).sum();
    let removed = hunks.iter().map(|h| h.before.len() as u32).sum();
    let differ = !hunks.is_empty() || !same_text(a_text, b_text);
    (added, removed, differ)
}

/// Compares two dumps (see the module doc).
pub fn compare<'t, FA, FB>(a: &Side<'_, FA>, b: &Side<'_, FB>) -> Comparison
where
    FA: Fn(&str) -> Option<&'t str>,
    FB: Fn(&str) -> Option<&'t str>,
{
    let a_names: Vec<&str> = a.list.passes.iter().map(|p| p.pass_name.as_str()).collect();
    let b_names: Vec<&str> = b.list.passes.iter().map(|p| p.pass_name.as_str()).collect();
    let (a_ids, b_ids) = (a.text_ids(), b.text_ids());
    let (fa, fb) = (a.snapshot(None).1, b.snapshot(None).1);
    let (frontend_cross_added, frontend_cross_removed, frontends_differ) = cross_counts(fa, fb);
    let mut out = Comparison { rows: Vec::new(), frontends_differ, frontend_cross_added, frontend_cross_removed };
    // The last pair of distinct texts diffed (text ids, 0 = frontend) and its counts.
    let mut last: ((usize, usize), (u32, u32, bool)) = ((0, 0), (frontend_cross_added, frontend_cross_removed, frontends_differ));
    let (mut a_at, mut b_at): (Option<usize>, Option<usize>) = (None, None);
    for al in align(&a_names, &b_names) {
        if al.a.is_some() {
            a_at = al.a;
        }
        if al.b.is_some() {
            b_at = al.b;
        }
        let effect_differs = match (al.a, al.b) {
            (Some(pa), Some(pb)) => effects_differ(a, pa, b, pb),
            (Some(p), None) => !a.is_no_op(p),
            (None, Some(p)) => !b.is_no_op(p),
            (None, None) => false,
        };
        let key = (a_at.and_then(|p| a_ids.get(p)).copied().unwrap_or(0), b_at.and_then(|p| b_ids.get(p)).copied().unwrap_or(0));
        if key != last.0 {
            last = (key, cross_counts(a.snapshot(a_at).1, b.snapshot(b_at).1));
        }
        let (cross_added, cross_removed, snapshots_differ) = last.1;
        out.rows.push(PairRow {
            a: al.a,
            b: al.b,
            pairing: al.pairing,
            effect_differs,
            a_snapshot: a_at,
            b_snapshot: b_at,
            snapshots_differ,
            cross_added,
            cross_removed,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Pairing::{OnlyA, OnlyB, Renamed, Same};
    use super::*;
    use crate::pass_trace::pass_list;

    fn pairs(a: &[&str], b: &[&str]) -> Vec<(Option<usize>, Option<usize>, Pairing)> {
        align(a, b).into_iter().map(|r| (r.a, r.b, r.pairing)).collect()
    }

    #[test]
    fn alignment_of_added_dropped_and_renamed_passes() {
        let a = ["Inline", "Simplify", "SSA", "Simplify"];
        assert_eq!(pairs(&a, &a), (0..4).map(|i| (Some(i), Some(i), Same)).collect::<Vec<_>>());
        // added in B
        let b = ["Inline", "Simplify", "New", "SSA", "Simplify"];
        assert_eq!(
            pairs(&a, &b),
            vec![
                (Some(0), Some(0), Same),
                (Some(1), Some(1), Same),
                (None, Some(2), OnlyB),
                (Some(2), Some(3), Same),
                (Some(3), Some(4), Same)
            ]
        );
        // dropped in B
        let b = ["Inline", "SSA", "Simplify"];
        assert_eq!(
            pairs(&a, &b),
            vec![(Some(0), Some(0), Same), (Some(1), None, OnlyA), (Some(2), Some(1), Same), (Some(3), Some(2), Same)]
        );
        // renamed in B
        let b = ["Inline", "Simplify", "ConvertToSSA", "Simplify"];
        assert_eq!(
            pairs(&a, &b),
            vec![(Some(0), Some(0), Same), (Some(1), Some(1), Same), (Some(2), Some(2), Renamed), (Some(3), Some(3), Same)]
        );
        // empty sides
        assert_eq!(pairs(&[], &["X"]), vec![(None, Some(0), OnlyB)]);
        assert_eq!(pairs(&["X"], &[]), vec![(Some(0), None, OnlyA)]);
        assert!(pairs(&[], &[]).is_empty());
    }

    #[test]
    fn statements_ignore_layout_and_cancel() {
        let raw = "class P:\n    def f(self):\n        x: pl.Tile[[1, 2], pl.FP32] = pl.tile.cast(a, mode='round')\n";
        let ruff = "class P:\n    def f(self):\n        x: pl.Tile[\n            [1, 2],\n            pl.FP32,\n        ] = pl.tile.cast(a, mode=\"round\")\n";
        let all = |t: &str| touched_statements("f.py", t, std::slice::from_ref(&(0..split_lines(t).len() as u32)));
        assert_eq!(all(raw), all(ruff));
        // ruff's parentheses around a long right-hand side or return value
        assert_eq!(all("x = f(a)\nreturn a, b\n"), all("x = (\n    f(a)\n)\nreturn (\n    a,\n    b,\n)\n"));
        assert_eq!(all("x = (a) + (b)\n"), vec!["0|x = ( a ) + ( b )".to_owned()]);
        assert_eq!(all(raw)[2], "8|x : pl . Tile [ [ 1 , 2 ] , pl . FP32 ] = pl . tile . cast ( a , mode = \"round\" )");
        // a re-wrap only is no change; a touched comment counts; an untokenizable file by lines
        let hunks = [Hunk { before: 2..3, after: 2..6 }];
        assert_eq!(change_set("a.py", raw, "b.py", ruff, &hunks), ChangeSet::default());
        let c = change_set("a.py", "x = 1\n# old\n", "b.py", "x = 1\n#  new   note\n", &[Hunk { before: 1..2, after: 1..2 }]);
        assert_eq!(c, ChangeSet { removed: vec!["# old".into()], added: vec!["# new note".into()] });
        let c = change_set("a.py", "x = (\n", "b.py", "x = (  1\n", &[Hunk { before: 0..1, after: 0..1 }]);
        assert_eq!(c, ChangeSet { removed: vec!["x = (".into()], added: vec!["x = ( 1".into()] });
        // indentation is part of a statement
        let c = change_set("a.py", "y = 2\n", "b.py", "if c:\n    y = 2\n", &[Hunk { before: 0..1, after: 0..2 }]);
        assert_eq!(c, ChangeSet { removed: vec!["0|y = 2".into()], added: vec!["0|if c :".into(), "4|y = 2".into()] });
        // strings that keep their quotes
        let mut s = String::new();
        push_string(&mut s, "'it\"s'");
        push_string(&mut s, "r'a'");
        push_string(&mut s, "'''x'''");
        assert_eq!(s, "'it\"s'r\"a\"'''x'''");
    }

    fn list_of(texts: &[(&str, &str)]) -> PassList {
        let names: Vec<&str> = texts.iter().map(|t| t.0).collect();
        let listing = pypto_formats::passes_dump::validate(&names);
        pass_list(&listing, &names, |n| texts.iter().find(|t| t.0 == n).map(|t| t.1).ok_or_else(|| n.to_owned()))
    }

    fn lookup<'t>(texts: &'t [(&'t str, &'t str)]) -> impl Fn(&str) -> Option<&'t str> {
        move |n| texts.iter().find(|t| t.0 == n).map(|t| t.1)
    }

    type Row = (Option<usize>, Option<usize>, bool, bool, u32, u32);

    fn rows(a: &[(&str, &str)], b: &[(&str, &str)]) -> (Comparison, Vec<Row>) {
        let (la, lb) = (list_of(a), list_of(b));
        let c = compare(&Side { list: &la, text: lookup(a) }, &Side { list: &lb, text: lookup(b) });
        let r = c.rows.iter().map(|r| (r.a, r.b, r.effect_differs, r.snapshots_differ, r.cross_added, r.cross_removed)).collect();
        (c, r)
    }

    const A: [(&str, &str); 4] = [
        ("00_frontend.py", "x = 1\ny = 2\n"),
        ("01_after_Inline.py", "x = 1\ny = 2\n"),
        ("02_after_SSA.py", "x_v0 = 1\ny = 2\n"),
        ("03_after_Alloc.py", "x_v0 = 1\ny = 2\nz = 3\n"),
    ];

    #[test]
    fn identical_dumps_differ_nowhere() {
        let (c, r) = rows(&A, &A);
        assert!(!c.frontends_differ);
        assert_eq!(
            r,
            vec![(Some(0), Some(0), false, false, 0, 0), (Some(1), Some(1), false, false, 0, 0), (Some(2), Some(2), false, false, 0, 0)]
        );
        assert_eq!((c.first_output_difference(), c.first_effect_difference()), (None, None));
    }

    #[test]
    fn a_changed_pass_output_differs_from_there_on() {
        // B's SSA names the variable differently; Alloc then does the same in both.
        let b = [A[0], A[1], ("02_after_SSA.py", "x_v1 = 1\ny = 2\n"), ("03_after_Alloc.py", "x_v1 = 1\ny = 2\nz = 3\n")];
        let (c, r) = rows(&A, &b);
        assert_eq!(
            r,
            vec![(Some(0), Some(0), false, false, 0, 0), (Some(1), Some(1), true, true, 1, 1), (Some(2), Some(2), false, true, 1, 1)]
        );
        assert_eq!((c.first_output_difference(), c.first_effect_difference()), (Some(1), Some(1)));
    }

    #[test]
    fn added_and_dropped_passes_compare_with_the_latest_snapshot() {
        // B drops the no-op Inline and adds a Fold pass that changes nothing, then one that does.
        let b = [
            ("00_frontend.py", "x = 1\ny = 2\n"),
            ("01_after_SSA.py", "x_v0 = 1\ny = 2\n"),
            ("02_after_Fold.py", "x_v0 = 1\ny = 2\n"),
            ("03_after_Alloc.py", "x_v0 = 1\ny = 2\nz = 3\n"),
            ("04_after_Extra.py", "x_v0 = 1\nz = 3\n"),
        ];
        let (c, r) = rows(&A, &b);
        assert_eq!(
            r,
            vec![
                (Some(0), None, false, false, 0, 0),    // dropped no-op: vs B's frontend
                (Some(1), Some(0), false, false, 0, 0), // SSA
                (None, Some(1), false, false, 0, 0),    // added no-op Fold: vs A's SSA
                (Some(2), Some(2), false, false, 0, 0), // Alloc
                (None, Some(3), true, true, 0, 1),      // added Extra removes y
            ]
        );
        assert_eq!(c.rows[0].b_snapshot, None);
        assert_eq!(c.rows[2].a_snapshot, Some(1));
        assert_eq!(c.rows[4].pairing, OnlyB);
        assert_eq!(c.first_output_difference(), Some(4));
    }

    #[test]
    fn a_renamed_pass_with_the_same_effect_does_not_differ() {
        let b = [A[0], A[1], ("02_after_ConvertToSSA.py", A[2].1), ("03_after_Alloc.py", A[3].1)];
        let (c, r) = rows(&A, &b);
        assert_eq!(c.rows[1].pairing, Renamed);
        assert!(r.iter().all(|r| !r.2 && !r.3), "{r:?}");
        // frontends that differ are said as such
        let b = [("00_frontend.py", "x = 5\ny = 2\n"), A[1], A[2], A[3]];
        let (c, _) = rows(&A, &b);
        assert!(c.frontends_differ);
        assert_eq!((c.frontend_cross_added, c.frontend_cross_removed), (1, 1));
        // B's Inline turned x = 5 into x = 1 (A's did nothing): the outputs meet again
        assert!(c.rows[0].effect_differs && !c.rows[0].snapshots_differ);
        assert!(!c.rows[1].effect_differs && !c.rows[1].snapshots_differ);
    }
}
