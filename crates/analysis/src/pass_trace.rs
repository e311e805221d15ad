//! The IR Pass Trace: each compiler pass snapshot diffed against the previous one, for the
//! pass list (+added / −removed lines, no-op and warning badges) and the diff view (rows of
//! both files, foldable unchanged runs, character-level changes inside changed lines).
//!
//! Lines are split like pypto's `ir_trace` (`\n`, a trailing `\r` dropped, no empty last
//! line). The line diff is `imara-diff`'s Histogram algorithm with its line post-processing
//! (sliders moved to readable positions); a changed block pairs its removed and added lines
//! in order (`Replace` rows, refined at token level: identifier/number runs, whitespace
//! runs and single punctuation), the rest are `Delete`/`Insert` rows. A pass is a no-op
//! when its text equals the previous snapshot's (after `\r\n` → `\n`).

use imara_diff::{Algorithm, Diff, InternedInput};
use pypto_formats::passes_dump::{PassDumpListing, FRONTEND};

/// Splits text into lines the way `ir_trace` does.
pub fn split_lines(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    let mut lines: Vec<&str> = text.split('\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    for l in &mut lines {
        *l = l.strip_suffix('\r').unwrap_or(l);
    }
    lines
}

/// What a diff row shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum RowKind {
    Equal,
    Delete,
    Insert,
    /// A removed line paired with an added line (refined by [`refine_line`]).
    Replace,
}

/// One row of a diff: 0-based line indices into the before / after line lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct DiffRow {
    pub kind: RowKind,
    pub before: Option<u32>,
    pub after: Option<u32>,
}

/// A line diff of two line lists (or of two line ranges, see [`diff_ranges`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct LineDiff {
    pub rows: Vec<DiffRow>,
    /// Lines only in the after side.
    pub added: u32,
    /// Lines only in the before side.
    pub removed: u32,
}

/// Diffs two whole line lists.
pub fn diff_lines(before: &[&str], after: &[&str]) -> LineDiff {
    diff_ranges(before, 0..before.len(), after, 0..after.len())
}

/// Diffs `before[b]` against `after[a]`; row indices stay those of the whole lists.
pub fn diff_ranges(
    before: &[&str],
    b: std::ops::Range<usize>,
    after: &[&str],
    a: std::ops::Range<usize>,
) -> LineDiff {
    let bl = before.get(b.clone()).unwrap_or(&[]);
    let al = after.get(a.clone()).unwrap_or(&[]);
    let (b0, a0) = (b.start as u32, a.start as u32);
    let mut out = LineDiff::default();
    if bl == al {
        out.rows = (0..bl.len() as u32)
            .map(|i| DiffRow {
                kind: RowKind::Equal,
                before: Some(b0 + i),
                after: Some(a0 + i),
            })
            .collect();
        return out;
    }
    // Common head and tail lines compare cheaper than they hash: keep them out of the diff.
    let head = bl.iter().zip(al).take_while(|(x, y)| x == y).count();
    let tail = bl[head..]
        .iter()
        .rev()
        .zip(al[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    if head > 0 || tail > 0 {
        let mid = diff_ranges(
            before,
            b.start + head..b.end - tail,
            after,
            a.start + head..a.end - tail,
        );
        let equal = |i: u32, j: u32| DiffRow {
            kind: RowKind::Equal,
            before: Some(i),
            after: Some(j),
        };
        out.added = mid.added;
        out.removed = mid.removed;
        out.rows.reserve(head + mid.rows.len() + tail);
        out.rows
            .extend((0..head as u32).map(|k| equal(b0 + k, a0 + k)));
        out.rows.extend(mid.rows);
        let (bt, at) = ((b.end - tail) as u32, (a.end - tail) as u32);
        out.rows
            .extend((0..tail as u32).map(|k| equal(bt + k, at + k)));
        return out;
    }
    let mut input: InternedInput<&str> = InternedInput::default();
    input.reserve(bl.len() as u32, al.len() as u32);
    input.update_before(bl.iter().copied());
    input.update_after(al.iter().copied());
    let mut diff = Diff::compute(Algorithm::Histogram, &input);
    diff.postprocess_lines(&input);
    out.added = diff.count_additions();
    out.removed = diff.count_removals();
    out.rows.reserve(bl.len().max(al.len()));
    let (mut bi, mut ai) = (0u32, 0u32);
    let push_equal = |rows: &mut Vec<DiffRow>, bi: &mut u32, ai: &mut u32, until_b: u32| {
        while *bi < until_b {
            rows.push(DiffRow {
                kind: RowKind::Equal,
                before: Some(b0 + *bi),
                after: Some(a0 + *ai),
            });
            *bi += 1;
            *ai += 1;
        }
    };
    for h in diff.hunks() {
        push_equal(&mut out.rows, &mut bi, &mut ai, h.before.start);
        let nb = h.before.end - h.before.start;
        let na = h.after.end - h.after.start;
        let paired = nb.min(na);
        for k in 0..paired {
            out.rows.push(DiffRow {
                kind: RowKind::Replace,
                before: Some(b0 + h.before.start + k),
                after: Some(a0 + h.after.start + k),
            });
        }
        for k in paired..nb {
            out.rows.push(DiffRow {
                kind: RowKind::Delete,
                before: Some(b0 + h.before.start + k),
                after: None,
            });
        }
        for k in paired..na {
            out.rows.push(DiffRow {
                kind: RowKind::Insert,
                before: None,
                after: Some(a0 + h.after.start + k),
            });
        }
        bi = h.before.end;
        ai = h.after.end;
    }
    push_equal(&mut out.rows, &mut bi, &mut ai, bl.len() as u32);
    out
}

/// A run of diff rows: shown, or an unchanged run folded away (expandable).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Block {
    /// Row index range in [`LineDiff::rows`].
    pub rows: std::ops::Range<u32>,
    pub folded: bool,
}

/// Folds unchanged runs, keeping `context` rows next to each change (as `ir_trace`'s
/// `--context`): a run between changes folds when longer than `2·context`, a leading or
/// trailing run when longer than `context`; a diff without changes is one shown block.
pub fn fold(rows: &[DiffRow], context: u32) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut push = |r: std::ops::Range<u32>, folded: bool| {
        if r.is_empty() {
            return;
        }
        match out.last_mut() {
            Some(last) if !folded && !last.folded && last.rows.end == r.start => {
                last.rows.end = r.end;
            }
            _ => out.push(Block { rows: r, folded }),
        }
    };
    let n = rows.len() as u32;
    let mut i = 0u32;
    while i < n {
        let is_eq = |k: u32| {
            rows.get(k as usize)
                .is_some_and(|r| r.kind == RowKind::Equal)
        };
        if !is_eq(i) {
            push(i..i + 1, false);
            i += 1;
            continue;
        }
        let mut j = i;
        while j < n && is_eq(j) {
            j += 1;
        }
        let len = j - i;
        let before = i > 0;
        let after = j < n;
        match (before, after) {
            (true, true) if len > 2 * context => {
                push(i..i + context, false);
                push(i + context..j - context, true);
                push(j - context..j, false);
            }
            (true, false) if len > context => {
                push(i..i + context, false);
                push(i + context..j, true);
            }
            (false, true) if len > context => {
                push(i..j - context, true);
                push(j - context..j, false);
            }
            _ => push(i..j, false),
        }
        i = j;
    }
    out
}

/// Changed byte ranges inside a replaced line pair.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct LineChanges {
    /// Byte ranges of the before line that were removed.
    pub before: Vec<(u32, u32)>,
    /// Byte ranges of the after line that were added.
    pub after: Vec<(u32, u32)>,
}

/// Token boundaries of a line: identifier/number runs, whitespace runs, single other chars.
fn line_tokens(line: &str) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut it = line.char_indices().peekable();
    while let Some((s, c)) = it.next() {
        let class = |c: char| {
            if c.is_alphanumeric() || c == '_' {
                1
            } else if c.is_whitespace() {
                2
            } else {
                0
            }
        };
        let k = class(c);
        let mut e = s + c.len_utf8();
        if k != 0 {
            while let Some(&(p, d)) = it.peek() {
                if class(d) != k {
                    break;
                }
                e = p + d.len_utf8();
                it.next();
            }
        }
        out.push((s as u32, e as u32));
    }
    out
}

/// Token-level refinement of a changed line pair: which parts of each side changed.
pub fn refine_line(before: &str, after: &str) -> LineChanges {
    fn text(line: &str, r: (u32, u32)) -> &str {
        line.get(r.0 as usize..r.1 as usize).unwrap_or("")
    }
    let bt = line_tokens(before);
    let at = line_tokens(after);
    let mut input: InternedInput<&str> = InternedInput::default();
    input.update_before(bt.iter().map(|&r| text(before, r)));
    input.update_after(at.iter().map(|&r| text(after, r)));
    // Few distinct tokens: Myers is the better fit (imara-diff's advice).
    let diff = Diff::compute(Algorithm::Myers, &input);
    let mut out = LineChanges::default();
    let merge = |v: &mut Vec<(u32, u32)>, r: (u32, u32)| match v.last_mut() {
        Some(last) if last.1 == r.0 => last.1 = r.1,
        _ => v.push(r),
    };
    for h in diff.hunks() {
        for k in h.before.clone() {
            if let Some(&r) = bt.get(k as usize) {
                merge(&mut out.before, r);
            }
        }
        for k in h.after.clone() {
            if let Some(&r) = at.get(k as usize) {
                merge(&mut out.after, r);
            }
        }
    }
    out
}

/// One pass of the pass list.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PassEntry {
    /// The snapshot's index (`NN`).
    pub index: u32,
    /// Pass name with `after_` stripped (repeated names stay apart by `index`).
    pub pass_name: String,
    pub file_name: String,
    /// File the pass is compared with (`00_frontend.py` for the first).
    pub previous_file: String,
    pub added: u32,
    pub removed: u32,
    /// The snapshot equals the previous one.
    pub no_op: bool,
    /// A `<stem>.log` warning file sits beside the snapshot.
    pub log_file: Option<String>,
}

/// The pass list of a dump directory.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct PassList {
    pub passes: Vec<PassEntry>,
    /// Validation problems of the listing (the valid part is still listed).
    pub problems: Vec<String>,
    /// Files that could not be read (name, reason).
    pub unreadable: Vec<(String, String)>,
}

impl PassList {
    /// Index in `passes` of the first pass that changed something (the one selected on open).
    pub fn first_changed(&self) -> Option<usize> {
        self.passes.iter().position(|p| !p.no_op)
    }
}

/// `\r\n` → `\n` for the no-op comparison.
fn same_text(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    (a.contains('\r') || b.contains('\r')) && a.replace("\r\n", "\n") == b.replace("\r\n", "\n")
}

/// Builds the pass list: every snapshot of `listing` diffed against the one before it
/// (`00_frontend.py` first). `read` returns a file's text by name, or why it can't.
/// `file_names` are the directory's files (for the `.log` lookup).
pub fn pass_list<T: AsRef<str>>(
    listing: &PassDumpListing,
    file_names: &[&str],
    mut read: impl FnMut(&str) -> Result<T, String>,
) -> PassList {
    let mut out = PassList {
        problems: listing.problems.clone(),
        ..PassList::default()
    };
    let mut previous: Option<(String, T)> = if listing.has_frontend {
        match read(FRONTEND) {
            Ok(t) => Some((FRONTEND.to_owned(), t)),
            Err(e) => {
                out.unreadable.push((FRONTEND.to_owned(), e));
                None
            }
        }
    } else {
        None
    };
    for s in listing.snapshots.iter().filter(|s| s.index > 0) {
        let text = match read(&s.file_name) {
            Ok(t) => t,
            Err(e) => {
                out.unreadable.push((s.file_name.clone(), e));
                continue;
            }
        };
        let (previous_file, added, removed, no_op) = if let Some((pname, ptext)) = &previous {
            let (ptext, text) = (ptext.as_ref(), text.as_ref());
            let no_op = same_text(ptext, text);
            let (added, removed) = if no_op {
                (0, 0)
            } else {
                let d = diff_lines(&split_lines(ptext), &split_lines(text));
                (d.added, d.removed)
            };
            (pname.clone(), added, removed, no_op)
        } else {
            let n = split_lines(text.as_ref()).len() as u32;
            (String::new(), n, 0, false)
        };
        let stem = s.file_name.strip_suffix(".py").unwrap_or(&s.file_name);
        let log = format!("{stem}.log");
        out.passes.push(PassEntry {
            index: s.index,
            pass_name: s.pass_name.clone(),
            file_name: s.file_name.clone(),
            previous_file,
            added,
            removed,
            no_op,
            log_file: file_names.contains(&log.as_str()).then_some(log),
        });
        previous = Some((s.file_name.clone(), text));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::RowKind::{Delete, Equal, Insert, Replace};
    use super::*;

    #[test]
    fn rows_counts_and_pairs() {
        let b = ["a", "b", "c", "d", "e"];
        let a = ["a", "B", "c", "e", "f", "g"];
        let d = diff_lines(&b, &a);
        assert_eq!((d.added, d.removed), (3, 2));
        let kinds: Vec<RowKind> = d.rows.iter().map(|r| r.kind).collect();
        assert_eq!(
            kinds,
            vec![Equal, Replace, Equal, Delete, Equal, Insert, Insert]
        );
        assert_eq!(d.rows[1].before, Some(1));
        assert_eq!(d.rows[1].after, Some(1));
        // ranges keep whole-file indices
        let r = diff_ranges(&b, 2..4, &a, 2..3);
        assert_eq!(r.rows[0].before, Some(2));
        assert_eq!((r.added, r.removed), (0, 1));
    }

    #[test]
    fn folding_keeps_context() {
        let eq = |i| DiffRow {
            kind: RowKind::Equal,
            before: Some(i),
            after: Some(i),
        };
        let ch = DiffRow {
            kind: RowKind::Insert,
            before: None,
            after: Some(0),
        };
        let mut rows: Vec<DiffRow> = (0..10).map(eq).collect();
        rows.push(ch);
        rows.extend((0..10).map(eq));
        rows.push(ch);
        rows.extend((0..3).map(eq));
        let f = fold(&rows, 3);
        let got: Vec<(u32, u32, bool)> = f
            .iter()
            .map(|b| (b.rows.start, b.rows.end, b.folded))
            .collect();
        assert_eq!(
            got,
            vec![
                (0, 7, true),
                (7, 14, false),
                (14, 18, true),
                (18, 25, false)
            ]
        );
        assert_eq!(
            fold(&rows[..5], 3),
            vec![Block {
                rows: 0..5,
                folded: false
            }]
        );
    }

    #[test]
    fn refinement_marks_changed_tokens() {
        let c = refine_line(
            "x: pl.Tile[[16, 1], pl.FP32] = f(a)",
            "x: pl.Tile[[16, 8], pl.FP32] = g(a)",
        );
        assert_eq!(c.before, vec![(16, 17), (31, 32)]);
        assert_eq!(c.after, vec![(16, 17), (31, 32)]);
        let c = refine_line("", "new");
        assert_eq!(c.after, vec![(0, 3)]);
    }

    #[test]
    fn split_like_ir_trace() {
        assert_eq!(split_lines("a\r\nb\n"), vec!["a", "b"]);
        assert_eq!(split_lines("a\n\nb"), vec!["a", "", "b"]);
        assert!(split_lines("").is_empty());
    }
}
