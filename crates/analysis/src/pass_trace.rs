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
//!
//! The pass list diffs the whole trace with one interner: every snapshot's lines are hashed
//! once (not once per side), a no-op pass costs one text comparison, and each pass keeps its
//! [`Hunk`]s, so showing a pass's whole-file diff ([`LineDiff::from_hunks`]) needs no second
//! line diff.
//!
//! Every snapshot read is checked ([`pypto_formats::python_check`]): what Python would reject
//! in a cut or damaged file, else a cut Python reads (an empty file, a last line without its
//! newline: [`check_snapshot`]), and bytes that were not UTF-8, as its reader reports them
//! ([`SnapshotText`]). A pass keeps its snapshot's problems ([`PassEntry::problems`]) and is
//! diffed all the same.

use imara_diff::{Algorithm, Diff, InternedInput};
use pypto_formats::passes_dump::{PassDumpListing, FRONTEND};
use pypto_formats::{python_check, FormatError};

/// Splits text into lines the way `ir_trace` does.
pub fn split_lines(text: &str) -> Vec<&str> {
    lines_of(text).collect()
}

/// The lines of [`split_lines`], lazily.
fn lines_of(text: &str) -> impl Iterator<Item = &str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut parts = (!text.is_empty()).then(|| body.split('\n'));
    std::iter::from_fn(move || parts.as_mut()?.next()).map(|l| l.strip_suffix('\r').unwrap_or(l))
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

/// A changed run of a line diff: `before` lines (0-based, half-open, indices of the whole
/// before list) replaced by `after` lines.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Hunk {
    pub before: std::ops::Range<u32>,
    pub after: std::ops::Range<u32>,
}

impl LineDiff {
    /// The rows of a diff of `before` lines `b` against `after` lines `a`, given its hunks
    /// (in order, inside the ranges): a changed block pairs its removed and added lines in
    /// order (`Replace`), the rest are `Delete` / `Insert`; lines between hunks are `Equal`.
    pub fn from_hunks(hunks: &[Hunk], b: std::ops::Range<u32>, a: std::ops::Range<u32>) -> Self {
        let mut out = LineDiff::default();
        out.rows.reserve(b.len().max(a.len()));
        let (mut bi, mut ai) = (b.start, a.start);
        let equal = |rows: &mut Vec<DiffRow>, bi: &mut u32, ai: &mut u32, until_b: u32| {
            while *bi < until_b {
                rows.push(DiffRow { kind: RowKind::Equal, before: Some(*bi), after: Some(*ai) });
                *bi += 1;
                *ai += 1;
            }
        };
        for h in hunks {
            equal(&mut out.rows, &mut bi, &mut ai, h.before.start);
            let (nb, na) = (h.before.len() as u32, h.after.len() as u32);
            out.removed += nb;
            out.added += na;
            let paired = nb.min(na);
            out.rows.extend((0..paired).map(|k| DiffRow {
                kind: RowKind::Replace,
                before: Some(h.before.start + k),
                after: Some(h.after.start + k),
            }));
            out.rows.extend((paired..nb).map(|k| DiffRow { kind: RowKind::Delete, before: Some(h.before.start + k), after: None }));
            out.rows.extend((paired..na).map(|k| DiffRow { kind: RowKind::Insert, before: None, after: Some(h.after.start + k) }));
            bi = h.before.end;
            ai = h.after.end;
        }
        equal(&mut out.rows, &mut bi, &mut ai, b.end);
        out
    }
}

/// Diffs two whole line lists.
pub fn diff_lines(before: &[&str], after: &[&str]) -> LineDiff {
    diff_ranges(before, 0..before.len(), after, 0..after.len())
}

/// Diffs `before[b]` against `after[a]`; row indices stay those of the whole lists. A range
/// outside its list counts as empty.
pub fn diff_ranges(before: &[&str], b: std::ops::Range<usize>, after: &[&str], a: std::ops::Range<usize>) -> LineDiff {
    let b = if before.get(b.clone()).is_some() { b } else { b.start..b.start };
    let a = if after.get(a.clone()).is_some() { a } else { a.start..a.start };
    let hunks = line_hunks(before, b.clone(), after, a.clone());
    LineDiff::from_hunks(&hunks, b.start as u32..b.end as u32, a.start as u32..a.end as u32)
}

/// The hunks of the whole `before` list against the whole `after` list, as [`diff_lines`]
/// finds them (for callers that keep hunks, like the pass list's [`PassEntry::hunks`]: the
/// pass comparison's cross diff of two dumps' snapshots).
pub fn diff_hunks(before: &[&str], after: &[&str]) -> Vec<Hunk> {
    line_hunks(before, 0..before.len(), after, 0..after.len())
}

/// The hunks of `before[b]` against `after[a]` (Histogram, lines post-processed).
fn line_hunks(before: &[&str], b: std::ops::Range<usize>, after: &[&str], a: std::ops::Range<usize>) -> Vec<Hunk> {
    let bl = before.get(b.clone()).unwrap_or(&[]);
    let al = after.get(a.clone()).unwrap_or(&[]);
    // Common head and tail lines compare cheaper than they hash: keep them out of the diff.
    let same = |(x, y): &(&&str, &&str)| bytes_eq(x.as_bytes(), y.as_bytes());
    let head = bl.iter().zip(al).take_while(same).count();
    let (bl, al) = (bl.get(head..).unwrap_or(&[]), al.get(head..).unwrap_or(&[]));
    let tail = bl.iter().rev().zip(al.iter().rev()).take_while(same).count();
    let bl = bl.get(..bl.len() - tail).unwrap_or(&[]);
    let al = al.get(..al.len() - tail).unwrap_or(&[]);
    let (b0, a0) = ((b.start + head) as u32, (a.start + head) as u32);
    if bl.is_empty() || al.is_empty() {
        let h = Hunk { before: b0..b0 + bl.len() as u32, after: a0..a0 + al.len() as u32 };
        return if h.before.is_empty() && h.after.is_empty() { Vec::new() } else { vec![h] };
    }
    if bl.len() + al.len() >= ANCHORED_MIN_LINES {
        let mut hunks = anchored_hunks(bl, al);
        for h in &mut hunks {
            h.before = b0 + h.before.start..b0 + h.before.end;
            h.after = a0 + h.after.start..a0 + h.after.end;
        }
        return hunks;
    }
    let mut input: InternedInput<Line<'_>> = InternedInput::default();
    input.reserve(bl.len() as u32, al.len() as u32);
    input.update_before(bl.iter().copied().map(Line));
    input.update_after(al.iter().copied().map(Line));
    let mut diff = Diff::compute(Algorithm::Histogram, &input);
    diff.postprocess_lines(&input);
    diff.hunks().map(|h| Hunk { before: b0 + h.before.start..b0 + h.before.end, after: a0 + h.after.start..a0 + h.after.end }).collect()
}

/// From this many lines (both sides together) on, a line diff is [`anchored_hunks`]. Below
/// it the diff is plain Histogram over interned lines, as the golden tests check against
/// pypto's `ir_trace`; above it the result can differ from plain Histogram only in how
/// a change between two anchors is matched (the bench's and the e2e tests' 1M-line pairs
/// keep their +/− counts).
pub const ANCHORED_MIN_LINES: usize = 50_000;

/// The hunks of `before` against `after` for big inputs (indices into the two lists).
///
/// Histogram takes the longest common run and loops on what is right of it, so `k` changes
/// spread over `n` lines cost O(n·k) (a 1M-line pair with 200 changes: seconds), and
/// interning a million lines is a few cache misses a line. Here every line is hashed once,
/// in order; the lines whose hash occurs once on each side, kept in increasing order on
/// both (the longest increasing subsequence, as patience diff does) and checked equal, are
/// anchors; only the runs between anchors go through Histogram with its line
/// post-processing, each with its own small interner. An anchor is an unchanged line no hunk
/// can slide across (it is unique on both sides), so the pieces' hunks make the whole diff.
fn anchored_hunks(before: &[&str], after: &[&str]) -> Vec<Hunk> {
    let anchors = unique_line_anchors(before, after);
    let mut out = Vec::new();
    let mut diff = Diff::default();
    let (mut b_start, mut a_start) = (0usize, 0usize);
    let end = (before.len() as u32, after.len() as u32);
    for &(b_at, a_at) in anchors.iter().chain(std::iter::once(&end)) {
        let (b_at, a_at) = (b_at as usize, a_at as usize);
        hunks_between(before, b_start..b_at, after, a_start..a_at, &mut diff, &mut out);
        (b_start, a_start) = (b_at + 1, a_at + 1);
    }
    out
}

/// Pairs `(before index, after index)` of equal lines occurring once in `before` and once
/// in `after` (by their hash), the longest chain of them increasing on both sides.
fn unique_line_anchors(before: &[&str], after: &[&str]) -> Vec<(u32, u32)> {
    use std::hash::BuildHasher;
    /// Per line hash: occurrences in before and in after (0, 1 or 2 = more), and where in
    /// after.
    #[derive(Default)]
    struct Seen {
        before: u8,
        after: u8,
        after_at: u32,
    }
    let hash = |line: &str| rustc_hash::FxBuildHasher.hash_one(line.as_bytes());
    let before_hashes: Vec<u64> = before.iter().map(|l| hash(l)).collect();
    let mut seen: rustc_hash::FxHashMap<u64, Seen> = rustc_hash::FxHashMap::default();
    seen.reserve(before.len().max(after.len()));
    for &h in &before_hashes {
        let s = seen.entry(h).or_default();
        s.before = (s.before + 1).min(2);
    }
    for (j, l) in (0u32..).zip(after) {
        // A line not in before can't be an anchor: no need to remember it.
        if let Some(s) = seen.get_mut(&hash(l)) {
            s.after = (s.after + 1).min(2);
            s.after_at = j;
        }
    }
    let candidates: Vec<(u32, u32)> = (0u32..)
        .zip(&before_hashes)
        .filter_map(|(i, h)| seen.get(h).filter(|s| s.before == 1 && s.after == 1).map(|s| (i, s.after_at)))
        .collect();
    drop(seen);
    // Patience sorting: `tails[k]` is the candidate ending the best chain of length k + 1
    // (the smallest after index), `previous[c]` the candidate before `c` in its chain.
    let mut tails: Vec<u32> = Vec::new();
    let mut previous = vec![u32::MAX; candidates.len()];
    for (c, &(_, a)) in (0u32..).zip(&candidates) {
        // Mostly in order: extending the longest chain needs no search.
        let k = match tails.last() {
            Some(&t) if candidates[t as usize].1 < a => tails.len(),
            _ => tails.partition_point(|&t| candidates[t as usize].1 < a),
        };
        if k > 0 {
            previous[c as usize] = tails[k - 1];
        }
        if k == tails.len() {
            tails.push(c);
        } else {
            tails[k] = c;
        }
    }
    let mut chain = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied().unwrap_or(u32::MAX);
    while at != u32::MAX {
        let (i, j) = candidates[at as usize];
        // Equal hashes of different lines: not an anchor (the chain stays increasing).
        if bytes_eq(before[i as usize].as_bytes(), after[j as usize].as_bytes()) {
            chain.push((i, j));
        }
        at = previous[at as usize];
    }
    chain.reverse();
    chain
}

/// Appends the hunks of `before[b]` against `after[a]` (a run between anchors) to `out`, in
/// whole-list indices: Histogram with its line post-processing (`diff` is scratch space).
fn hunks_between(
    before: &[&str],
    b: std::ops::Range<usize>,
    after: &[&str],
    a: std::ops::Range<usize>,
    diff: &mut Diff,
    out: &mut Vec<Hunk>,
) {
    let (mut bl, mut al) = (&before[b.clone()], &after[a.clone()]);
    let same = |(x, y): &(&&str, &&str)| bytes_eq(x.as_bytes(), y.as_bytes());
    let head = bl.iter().zip(al).take_while(same).count();
    (bl, al) = (&bl[head..], &al[head..]);
    let tail = bl.iter().rev().zip(al.iter().rev()).take_while(same).count();
    (bl, al) = (&bl[..bl.len() - tail], &al[..al.len() - tail]);
    let (b0, a0) = ((b.start + head) as u32, (a.start + head) as u32);
    if bl.is_empty() || al.is_empty() {
        if !(bl.is_empty() && al.is_empty()) {
            out.push(Hunk { before: b0..b0 + bl.len() as u32, after: a0..a0 + al.len() as u32 });
        }
        return;
    }
    let mut piece: InternedInput<Line<'_>> = InternedInput::default();
    piece.reserve(bl.len() as u32, al.len() as u32);
    piece.update_before(bl.iter().copied().map(Line));
    piece.update_after(al.iter().copied().map(Line));
    diff.compute_with(Algorithm::Histogram, &piece.before, &piece.after, piece.interner.num_tokens());
    diff.postprocess_lines(&piece);
    out.extend(diff.hunks().map(|h| Hunk { before: b0 + h.before.start..b0 + h.before.end, after: a0 + h.after.start..a0 + h.after.end }));
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
        let is_eq = |k: u32| rows.get(k as usize).is_some_and(|r| r.kind == RowKind::Equal);
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
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// The whole-file line diff against `previous_file` (rows: [`LineDiff::from_hunks`]).
    pub hunks: Vec<Hunk>,
    /// What is wrong with the snapshot file (undecodable bytes, then what Python would reject
    /// in it); empty when it is valid Python. The pass is diffed all the same.
    pub problems: Vec<FormatError>,
}

/// The pass list of a dump directory.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PassList {
    pub passes: Vec<PassEntry>,
    /// Validation problems of the listing (the valid part is still listed).
    pub problems: Vec<String>,
    /// Files that could not be read (name, reason).
    pub unreadable: Vec<(String, String)>,
    /// What is wrong with `00_frontend.py` (as [`PassEntry::problems`]).
    pub frontend_problems: Vec<FormatError>,
}

impl PassList {
    /// Index in `passes` of the first pass that changed something (the one selected on open).
    pub fn first_changed(&self) -> Option<usize> {
        self.passes.iter().position(|p| !p.no_op)
    }

    /// Every snapshot problem, `00_frontend.py`'s first, then the passes' in order.
    pub fn snapshot_problems(&self) -> impl Iterator<Item = &FormatError> {
        self.frontend_problems.iter().chain(self.passes.iter().flat_map(|p| &p.problems))
    }
}

/// A snapshot file as [`pass_list`]'s reader gives it: its text and, when its bytes were not
/// all UTF-8, where ([`python_check::decode`]; the text holds U+FFFD in their place). Any
/// string is a snapshot whose bytes decoded; [`Decoded`] carries the problem.
pub trait SnapshotText {
    fn text(&self) -> &str;
    fn undecodable(&self) -> Option<&FormatError> {
        None
    }
}

impl<T: AsRef<str>> SnapshotText for T {
    fn text(&self) -> &str {
        self.as_ref()
    }
}

/// A snapshot's text decoded from bytes that were not all UTF-8 (or were: `undecodable` None).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<T> {
    pub text: T,
    pub undecodable: Option<FormatError>,
}

impl Decoded<String> {
    /// [`python_check::decode`] of a file's bytes.
    pub fn from_bytes(file_name: &str, bytes: &[u8]) -> Self {
        let (text, undecodable) = python_check::decode(file_name, bytes);
        Self { text: text.into_owned(), undecodable }
    }
}

impl<T: AsRef<str>> SnapshotText for Decoded<T> {
    fn text(&self) -> &str {
        self.text.as_ref()
    }
    fn undecodable(&self) -> Option<&FormatError> {
        self.undecodable.as_ref()
    }
}

/// The problems of one snapshot: its reader's decoding problem, then `checked` — the
/// [`check_snapshot`] of its text, or of an identical text (then renamed to this file:
/// most passes change nothing, and the check costs about what the diff does).
fn snapshot_problems(file_name: &str, snapshot: &impl SnapshotText, checked: &[FormatError]) -> Vec<FormatError> {
    let renamed = checked.iter().map(|e| FormatError { path: file_name.to_owned(), ..e.clone() });
    snapshot.undecodable().cloned().into_iter().chain(renamed).collect()
}

/// The checks of one snapshot's text: [`python_check::check`] (what Python would reject), and
/// when it finds nothing, [`python_check::cut_short`] (an empty file, a last line without its
/// newline: Python reads them, the compiler never writes them).
pub fn check_snapshot(file_name: &str, text: &str) -> Vec<FormatError> {
    let mut out = python_check::check(file_name, text);
    if out.is_empty() {
        out.extend(python_check::cut_short(file_name, text));
    }
    out
}

/// A line as a diff token: hashed as its text, compared eight bytes at a time (wasm's
/// `memcmp` goes byte by byte, and the interner compares equal lines on every hit).
#[derive(Debug, Clone, Copy, Default)]
struct Line<'a>(&'a str);

impl PartialEq for Line<'_> {
    fn eq(&self, other: &Self) -> bool {
        bytes_eq(self.0.as_bytes(), other.0.as_bytes())
    }
}

impl Eq for Line<'_> {}

impl std::hash::Hash for Line<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl AsRef<[u8]> for Line<'_> {
    fn as_ref(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

/// `a == b`, a `u64` at a time.
fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut wa, mut wb) = (a.chunks_exact(8), b.chunks_exact(8));
    let word = |c: &[u8]| c.try_into().map_or(0, u64::from_ne_bytes);
    (&mut wa).zip(&mut wb).all(|(x, y)| word(x) == word(y)) && wa.remainder() == wb.remainder()
}

/// `\r\n` → `\n` for the no-op comparison of two texts whose lines are equal (texts that
/// differ in a line cannot be equal after it, so the pass list asks only then).
pub fn same_text(a: &str, b: &str) -> bool {
    bytes_eq(a.as_bytes(), b.as_bytes()) || ((a.contains('\r') || b.contains('\r')) && a.replace("\r\n", "\n") == b.replace("\r\n", "\n"))
}

/// Makes `input.after` the `lines` of a snapshot (interned with the trace's earlier ones).
fn intern<'a>(input: &mut InternedInput<Line<'a>>, lines: Vec<&'a str>) {
    if input.interner.num_tokens() == 0 {
        // Later snapshots mostly repeat earlier lines: their new lines grow the table.
        input.interner.reserve(lines.len());
    }
    input.after.reserve(lines.len());
    input.update_after(lines.into_iter().map(Line));
}

/// Builds the pass list: every snapshot of `listing` diffed against the one before it
/// (`00_frontend.py` first) and checked. `read` returns a file's text by name (with where its
/// bytes were not UTF-8, see [`SnapshotText`]), or why it can't. `file_names` are the
/// directory's files (for the `.log` lookup). An unreadable snapshot is listed in
/// `unreadable` and skipped (the next one is compared with the last readable one).
pub fn pass_list<T: SnapshotText>(listing: &PassDumpListing, file_names: &[&str], read: impl FnMut(&str) -> Result<T, String>) -> PassList {
    pass_list_stepped(listing, file_names, read, &mut |_, _| {})
}

/// [`pass_list`], telling `on_step(done, total)` how many of the readable snapshots are
/// diffed and checked: `(0, total)` before the first, then after each one (a big dump's
/// progress bar; the step of one snapshot costs about its size).
pub fn pass_list_stepped<T: SnapshotText>(
    listing: &PassDumpListing,
    file_names: &[&str],
    mut read: impl FnMut(&str) -> Result<T, String>,
    on_step: &mut dyn FnMut(u64, u64),
) -> PassList {
    let mut out = PassList { problems: listing.problems.clone(), ..PassList::default() };
    // `check_snapshot` of the last text read (the frontend's, then the previous snapshot's).
    let mut checked: Vec<FormatError> = Vec::new();
    // Every text first: the interner below borrows them all.
    let frontend: Option<(&str, T)> = if listing.has_frontend {
        match read(FRONTEND) {
            Ok(t) => {
                checked = check_snapshot(FRONTEND, t.text());
                out.frontend_problems = snapshot_problems(FRONTEND, &t, &checked);
                Some((FRONTEND, t))
            }
            Err(e) => {
                out.unreadable.push((FRONTEND.to_owned(), e));
                None
            }
        }
    } else {
        None
    };
    let mut snapshots = Vec::new();
    for s in listing.snapshots.iter().filter(|s| s.index > 0) {
        match read(&s.file_name) {
            Ok(t) => snapshots.push((s, t)),
            Err(e) => out.unreadable.push((s.file_name.clone(), e)),
        }
    }
    // `input.after` holds the tokens of `previous` once `interned` (a no-op pass keeps them:
    // equal texts split into equal lines); else `previous_lines` may hold its lines (a big
    // snapshot's, diffed without the interner).
    let mut previous_lines: Option<Vec<&str>> = None;
    let mut input: InternedInput<Line<'_>> = InternedInput::default();
    let mut diff = Diff::default();
    let mut previous: Option<(&str, &str)> = frontend.as_ref().map(|(n, t)| (*n, t.text()));
    let mut interned = false;
    let total = snapshots.len() as u64;
    on_step(0, total);
    for (done, (s, t)) in (1..).zip(&snapshots) {
        let text = t.text();
        let identical = previous.is_some_and(|(_, ptext)| bytes_eq(ptext.as_bytes(), text.as_bytes()));
        if !identical {
            checked = check_snapshot(&s.file_name, text);
        }
        let (previous_file, added, removed, no_op, hunks) = match previous {
            Some((pname, _)) if identical => (pname, 0, 0, true, Vec::new()),
            Some((pname, ptext)) => {
                let lines = split_lines(text);
                let before_len = if interned { input.after.len() } else { previous_lines.get_or_insert_with(|| split_lines(ptext)).len() };
                let hunks = if before_len + lines.len() >= ANCHORED_MIN_LINES {
                    // Big snapshots are diffed on their own ([`anchored_hunks`]), not interned.
                    let before = match previous_lines.take() {
                        Some(l) => l,
                        None => input.after.iter().map(|&t| input.interner[t].0).collect(),
                    };
                    interned = false;
                    let hunks = diff_hunks(&before, &lines);
                    previous_lines = Some(lines);
                    hunks
                } else {
                    if !interned {
                        intern(&mut input, previous_lines.take().unwrap_or_else(|| split_lines(ptext)));
                    }
                    input.before = std::mem::take(&mut input.after);
                    intern(&mut input, lines);
                    interned = true;
                    diff.compute_with(Algorithm::Histogram, &input.before, &input.after, input.interner.num_tokens());
                    diff.postprocess_lines(&input);
                    diff.hunks().map(|h| Hunk { before: h.before, after: h.after }).collect()
                };
                let no_op = hunks.is_empty() && same_text(ptext, text);
                let added = hunks.iter().map(|h| h.after.len() as u32).sum();
                let removed = hunks.iter().map(|h| h.before.len() as u32).sum();
                (pname, added, removed, no_op, hunks)
            }
            None => {
                interned = false;
                previous_lines = None;
                let n = lines_of(text).count() as u32;
                let hunks = if n == 0 { Vec::new() } else { vec![Hunk { before: 0..0, after: 0..n }] };
                ("", n, 0, false, hunks)
            }
        };
        let stem = s.file_name.strip_suffix(".py").unwrap_or(&s.file_name);
        let log = format!("{stem}.log");
        out.passes.push(PassEntry {
            index: s.index,
            pass_name: s.pass_name.clone(),
            file_name: s.file_name.clone(),
            previous_file: previous_file.to_owned(),
            added,
            removed,
            no_op,
            log_file: file_names.contains(&log.as_str()).then_some(log),
            hunks,
            problems: snapshot_problems(&s.file_name, t, &checked),
        });
        previous = Some((s.file_name.as_str(), text));
        on_step(done, total);
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
        assert_eq!(kinds, vec![Equal, Replace, Equal, Delete, Equal, Insert, Insert]);
        assert_eq!(d.rows[1].before, Some(1));
        assert_eq!(d.rows[1].after, Some(1));
        // ranges keep whole-file indices
        let r = diff_ranges(&b, 2..4, &a, 2..3);
        assert_eq!(r.rows[0].before, Some(2));
        assert_eq!((r.added, r.removed), (0, 1));
    }

    #[test]
    fn folding_keeps_context() {
        let eq = |i| DiffRow { kind: RowKind::Equal, before: Some(i), after: Some(i) };
        let ch = DiffRow { kind: RowKind::Insert, before: None, after: Some(0) };
        let mut rows: Vec<DiffRow> = (0..10).map(eq).collect();
        rows.push(ch);
        rows.extend((0..10).map(eq));
        rows.push(ch);
        rows.extend((0..3).map(eq));
        let f = fold(&rows, 3);
        let got: Vec<(u32, u32, bool)> = f.iter().map(|b| (b.rows.start, b.rows.end, b.folded)).collect();
        assert_eq!(got, vec![(0, 7, true), (7, 14, false), (14, 18, true), (18, 25, false)]);
        assert_eq!(fold(&rows[..5], 3), vec![Block { rows: 0..5, folded: false }]);
    }

    #[test]
    fn refinement_marks_changed_tokens() {
        let c = refine_line("x: pl.Tile[[16, 1], pl.FP32] = f(a)", "x: pl.Tile[[16, 8], pl.FP32] = g(a)");
        assert_eq!(c.before, vec![(16, 17), (31, 32)]);
        assert_eq!(c.after, vec![(16, 17), (31, 32)]);
        let c = refine_line("", "new");
        assert_eq!(c.after, vec![(0, 3)]);
    }

    #[test]
    fn trace_hunks_give_the_rows_of_a_pair_diff() {
        let texts = [
            ("00_frontend.py", "a\nb\nc\nd\n"),
            ("01_after_X.py", "a\nB\nc\nd\ne\n"),
            ("02_after_Y.py", "a\nB\nc\nd\ne\n"),
            ("03_after_Z.py", "x\na\nB\nd\ne\n"),
        ];
        let names: Vec<&str> = texts.iter().map(|t| t.0).collect();
        let listing = pypto_formats::passes_dump::validate(&names);
        let list = pass_list(&listing, &names, |n| texts.iter().find(|t| t.0 == n).map(|t| t.1).ok_or_else(|| n.to_owned()));
        let counts: Vec<(u32, u32, bool)> = list.passes.iter().map(|p| (p.added, p.removed, p.no_op)).collect();
        assert_eq!(counts, vec![(2, 1, false), (0, 0, true), (1, 1, false)]);
        for (p, w) in list.passes.iter().zip(texts.windows(2)) {
            let (b, a) = (split_lines(w[0].1), split_lines(w[1].1));
            let rows = LineDiff::from_hunks(&p.hunks, 0..b.len() as u32, 0..a.len() as u32);
            assert_eq!(rows, diff_lines(&b, &a), "{}", p.file_name);
        }
    }

    /// Applies `hunks` to `before`: the after side they claim.
    fn apply<'a>(before: &[&'a str], after: &[&'a str], hunks: &[Hunk]) -> Vec<&'a str> {
        let mut out = Vec::new();
        let mut at = 0usize;
        for h in hunks {
            assert!(h.before.start as usize >= at, "hunks in order");
            out.extend_from_slice(&before[at..h.before.start as usize]);
            out.extend_from_slice(&after[h.after.start as usize..h.after.end as usize]);
            at = h.before.end as usize;
        }
        out.extend_from_slice(&before[at..]);
        out
    }

    #[test]
    fn big_inputs_are_cut_at_anchors_into_a_minimal_diff() {
        // Unique lines with changes spread evenly, repeated lines (no anchors among them)
        // and an insertion of a repeated line: above the threshold.
        let n = ANCHORED_MIN_LINES / 2 + 1000;
        let before_text: Vec<String> =
            (0..n).map(|i| if i % 97 == 5 { "    pass".to_owned() } else { format!("x{i} = pl.add(a, b)") }).collect();
        let mut after_text = before_text.clone();
        for i in (0..n).step_by(5000) {
            after_text[i] = format!("x{i} = pl.sub(a, b)");
        }
        after_text.insert(3001, "    pass".to_owned());
        after_text.push("tail".to_owned());
        let hunks_of = |before_text: &[String], after_text: &[String]| {
            let before: Vec<&str> = before_text.iter().map(String::as_str).collect();
            let after: Vec<&str> = after_text.iter().map(String::as_str).collect();
            assert!(before.len() + after.len() >= ANCHORED_MIN_LINES);
            let hunks = diff_hunks(&before, &after);
            assert_eq!(apply(&before, &after, &hunks), after, "the hunks turn before into after");
            hunks
        };
        let hunks = hunks_of(&before_text, &after_text);
        let (before_joined, after_joined) = (before_text.join("\n"), after_text.join("\n"));
        let input = InternedInput::new(before_joined.as_str(), after_joined.as_str());
        let mut plain = Diff::compute(Algorithm::Histogram, &input);
        plain.postprocess_lines(&input);
        let added: u32 = hunks.iter().map(|h| h.after.len() as u32).sum();
        let removed: u32 = hunks.iter().map(|h| h.before.len() as u32).sum();
        // Six lines replaced, two added: the anchored diff is minimal here; plain Histogram,
        // which is not always, finds +9 −7 on this input.
        assert_eq!((added, removed), (8, 6));
        assert!(plain.count_additions() >= added && plain.count_removals() >= removed);
        // The pass list takes the same path for big snapshots.
        let texts = [("00_frontend.py", before_joined + "\n"), ("01_after_X.py", after_joined + "\n")];
        let names: Vec<&str> = texts.iter().map(|t| t.0).collect();
        let listing = pypto_formats::passes_dump::validate(&names);
        let list = pass_list(&listing, &names, |f| texts.iter().find(|t| t.0 == f).map(|t| t.1.as_str()).ok_or_else(|| f.to_owned()));
        assert_eq!(list.passes[0].hunks, hunks);
        // A moved block (anchors out of order on one side): still a diff that turns before
        // into after.
        let moved: Vec<String> = after_text.drain(20_000..20_010).collect();
        after_text.splice(10_000..10_000, moved);
        let hunks = hunks_of(&before_text, &after_text);
        assert!(hunks.iter().any(|h| h.before.is_empty() && h.after.len() == 10), "the moved block is one insertion: {hunks:?}");
    }

    #[test]
    fn pass_list_steps_count_the_readable_snapshots() {
        let texts = [("00_frontend.py", "a\n"), ("01_after_X.py", "a\nb\n"), ("03_after_Z.py", "b\n")];
        let names = ["00_frontend.py", "01_after_X.py", "02_after_Y.py", "03_after_Z.py"];
        let listing = pypto_formats::passes_dump::validate(&names);
        let mut steps = Vec::new();
        let list = pass_list_stepped(
            &listing,
            &names,
            |n| texts.iter().find(|t| t.0 == n).map(|t| t.1).ok_or_else(|| format!("{n} missing")),
            &mut |done, total| steps.push((done, total)),
        );
        // 02 cannot be read: two snapshots are diffed, each a step after the opening (0, 2).
        assert_eq!(list.unreadable.len(), 1);
        assert_eq!(steps, vec![(0, 2), (1, 2), (2, 2)]);
        assert_eq!(
            list,
            pass_list(&listing, &names, |n| texts.iter().find(|t| t.0 == n).map(|t| t.1).ok_or_else(|| format!("{n} missing")))
        );
    }

    #[test]
    fn word_equality_and_crlf_no_op() {
        for (a, b) in [("", ""), ("abcdefgh", "abcdefgh"), ("abcdefghi", "abcdefghj"), ("abcdefgh", "abcdefgi"), ("abc", "abcd")] {
            assert_eq!(bytes_eq(a.as_bytes(), b.as_bytes()), a == b, "{a} {b}");
        }
        assert!(same_text("a\r\nb\r\n", "a\nb\n"));
        assert!(!same_text("a\nb", "a\nb\n"));
        let texts = [("00_frontend.py", "a\nb\n"), ("01_after_X.py", "a\r\nb\r\n"), ("02_after_Y.py", "a\nb")];
        let names: Vec<&str> = texts.iter().map(|t| t.0).collect();
        let listing = pypto_formats::passes_dump::validate(&names);
        let list = pass_list(&listing, &names, |n| texts.iter().find(|t| t.0 == n).map(|t| t.1).ok_or_else(|| n.to_owned()));
        let got: Vec<(u32, u32, bool)> = list.passes.iter().map(|p| (p.added, p.removed, p.no_op)).collect();
        assert_eq!(got, vec![(0, 0, true), (0, 0, false)]);
    }

    #[test]
    fn damaged_snapshots_carry_their_problems_and_are_diffed() {
        let bytes: [(&str, &[u8]); 7] = [
            ("00_frontend.py", b"def f(x):\n    return x\n"),
            ("01_after_A.py", b"def f(x):\n    y = g(x,\n"),
            ("02_after_B.py", b"def f(x):\n    return 'caf\xc3\xa9\xff'\n"),
            ("03_after_C.py", b"def f(x):\n    return x\n"),
            ("04_after_D.py", b"def f(x):\n    return x\n"),
            ("05_after_E.py", b"def f(x):\n    return x +"),
            ("06_after_F.py", b"def f(x):\n    return x +"),
        ];
        let names: Vec<&str> = bytes.iter().map(|t| t.0).collect();
        let listing = pypto_formats::passes_dump::validate(&names);
        let read = |n: &str| bytes.iter().find(|t| t.0 == n).map(|t| Decoded::from_bytes(n, t.1)).ok_or_else(|| n.to_owned());
        let list = pass_list(&listing, &names, read);
        let got: Vec<Vec<(String, u64, u64, String)>> = list
            .passes
            .iter()
            .map(|p| p.problems.iter().map(|e| (e.path.clone(), e.line, e.column, e.message.clone())).collect())
            .collect();
        let invalid = "invalid UTF-8 at byte offset 27 (0xFF; 1 undecodable byte in the file, shown as U+FFFD)";
        assert_eq!(
            got,
            vec![
                vec![("01_after_A.py".to_owned(), 2, 10, "'(' was never closed".to_owned())],
                vec![("02_after_B.py".to_owned(), 2, 17, invalid.to_owned())],
                vec![],
                vec![],
                vec![("05_after_E.py".to_owned(), 2, 15, format!("{}: nothing follows '+'", python_check::CUT))],
                // a no-op pass: the previous snapshot's check, named after this one
                vec![("06_after_F.py".to_owned(), 2, 15, format!("{}: nothing follows '+'", python_check::CUT))],
            ]
        );
        assert!(list.frontend_problems.is_empty());
        // diffed all the same: the cut pass removed a line and added one, the next restores it
        let counts: Vec<(u32, u32, bool)> = list.passes.iter().map(|p| (p.added, p.removed, p.no_op)).collect();
        assert_eq!(counts, vec![(1, 1, false), (1, 1, false), (1, 1, false), (0, 0, true), (1, 1, false), (0, 0, true)]);
        let files: Vec<&str> = list.snapshot_problems().map(|e| e.path.as_str()).collect();
        assert_eq!(files, vec!["01_after_A.py", "02_after_B.py", "05_after_E.py", "06_after_F.py"]);
        // a damaged frontend is reported too
        let list = pass_list(&listing, &names, |n| if n == FRONTEND { Ok("x = (\n") } else { Ok("x = 1\n") });
        assert_eq!(list.frontend_problems.len(), 1);
        assert_eq!(list.snapshot_problems().next().map(|e| (e.path.as_str(), e.line, e.column)), Some((FRONTEND, 1, 5)));
    }

    #[test]
    fn cuts_python_reads_are_flagged_too() {
        let texts = [
            ("00_frontend.py", "x = pl.tile.load(a)\ny = 2\n"),
            ("01_after_A.py", "x = pl.tile.lo"),
            ("02_after_B.py", ""),
            ("03_after_C.py", "x = pl.tile.load(a)\ny = 2\n"),
        ];
        let names: Vec<&str> = texts.iter().map(|t| t.0).collect();
        let listing = pypto_formats::passes_dump::validate(&names);
        let list = pass_list(&listing, &names, |n| texts.iter().find(|t| t.0 == n).map(|t| t.1).ok_or_else(|| n.to_owned()));
        let got: Vec<Vec<(u64, u64)>> = list.passes.iter().map(|p| p.problems.iter().map(|e| (e.line, e.column)).collect()).collect();
        assert_eq!(got, vec![vec![(1, 15)], vec![(1, 1)], vec![]]);
        assert!(list.passes[1].problems[0].message.starts_with("the file is empty"));
        assert_eq!((list.passes[1].added, list.passes[1].removed), (0, 1), "diffed all the same");
    }

    #[test]
    fn split_like_ir_trace() {
        assert_eq!(split_lines("a\r\nb\n"), vec!["a", "b"]);
        assert_eq!(split_lines("a\n\nb"), vec!["a", "", "b"]);
        assert!(split_lines("").is_empty());
        assert_eq!(split_lines("\n"), vec![""]);
        assert_eq!(split_lines("a\r"), vec!["a"]);
        assert_eq!(split_lines("a\n\n"), vec!["a", ""]);
    }
}
