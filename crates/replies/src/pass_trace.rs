//! The IR Pass Trace's replies: the pass list (+/− counts, no-op, warnings, validation
//! problems, each snapshot's problems) and one pass's diff against the snapshot before it (whole file or one
//! function), with folding blocks, token-level changes and the `.log` warnings — from the
//! snapshots' texts, which the worker reads.

use pypto_analysis::function_filter::{diff_function, function_choices, FunctionChoice, FunctionRegion};
use pypto_analysis::pass_trace::{self, RowKind};
use pypto_formats::{pass_log, FormatError};
use pypto_protocol::pass_trace::{LineChangeRow, PassDiffData, PassListData, PassRow, PassWarningRow, SnapshotLines, SnapshotProblem};

/// Context rows kept beside each change when folding (as `ir_trace --context 3`).
pub const CONTEXT_ROWS: u32 = 3;

/// `PassList`: the passes of `list` as the page lists them.
pub fn pass_list_data(dataset_id: u32, l: &pass_trace::PassList) -> PassListData {
    PassListData {
        dataset_id,
        first_changed: l.first_changed().map(|i| i as u32),
        passes: l
            .passes
            .iter()
            .map(|p| PassRow {
                index: p.index,
                name: p.pass_name.clone(),
                file_name: p.file_name.clone(),
                previous_file: p.previous_file.clone(),
                added: p.added,
                removed: p.removed,
                no_op: p.no_op,
                has_warning: p.log_file.is_some(),
                problems: p.problems.iter().map(snapshot_problem).collect(),
            })
            .collect(),
        problems: l.problems.clone(),
        unreadable: l.unreadable.iter().map(|(f, r)| format!("{f}: {r}")).collect(),
        frontend_problems: l.frontend_problems.iter().map(snapshot_problem).collect(),
    }
}

/// A snapshot problem as the page shows it: the English message with its kind and arguments,
/// which the page words in its language.
pub fn snapshot_problem(e: &FormatError) -> SnapshotProblem {
    let n = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
    SnapshotProblem {
        file: e.path.clone(),
        line: n(e.line),
        column: n(e.column),
        message: e.message.clone(),
        kind: e.kind,
        args: e.args.clone(),
    }
}

/// What one pass's diff is made from.
pub struct DiffInput<'a> {
    pub entry: &'a pass_trace::PassEntry,
    pub before_text: &'a str,
    pub after_text: &'a str,
    /// `function_regions` of each side (`None`: not trustworthy, no function list).
    pub before_regions: Option<&'a [FunctionRegion]>,
    pub after_regions: Option<&'a [FunctionRegion]>,
    /// The `.log` text beside the snapshot.
    pub log: Option<&'a str>,
}

/// `PassDiff`: one pass's diff, [`diff_part`] of the whole file or of `function`, then
/// [`diff_data`] around it.
pub fn build_diff(dataset_id: u32, pass: u32, input: &DiffInput<'_>, function: Option<&str>) -> PassDiffData {
    build_diff_stepped(dataset_id, pass, input, function, &mut |_, _| {})
}

/// How many steps [`build_diff_stepped`] reports: the lines split, the rows diffed (with
/// their token changes and folding), the reply's columns made.
pub const DIFF_STEPS: u64 = 3;

/// [`build_diff`], telling `on_step(done, DIFF_STEPS)` as each of its parts ends (`(0, …)`
/// first): a big diff's progress bar.
pub fn build_diff_stepped(
    dataset_id: u32,
    pass: u32,
    input: &DiffInput<'_>,
    function: Option<&str>,
    on_step: &mut dyn FnMut(u64, u64),
) -> PassDiffData {
    on_step(0, DIFF_STEPS);
    let bl = pass_trace::split_lines(input.before_text);
    let al = pass_trace::split_lines(input.after_text);
    let choices = function_choices(input.before_regions, input.after_regions).unwrap_or_default();
    let chosen = function.and_then(|k| choices.iter().find(|c| c.key == k));
    on_step(1, DIFF_STEPS);
    let part = diff_part(input.entry, &bl, &al, chosen);
    on_step(2, DIFF_STEPS);
    let data = diff_data(dataset_id, pass, input, &choices, chosen, part);
    on_step(DIFF_STEPS, DIFF_STEPS);
    data
}

/// The diff work of one pass: rows of the whole file (from the pass list's hunks, no second
/// line diff) or of one function, folding blocks, token changes of every `Replace` row.
pub struct DiffPart {
    pub diffed: pass_trace::LineDiff,
    pub blocks: Vec<(u32, u32, bool)>,
    pub changes: Vec<LineChangeRow>,
}

/// The diff rows, folding blocks and token changes of one pass (the diff work `ir_trace`
/// does with difflib).
pub fn diff_part(entry: &pass_trace::PassEntry, bl: &[&str], al: &[&str], chosen: Option<&FunctionChoice>) -> DiffPart {
    let diffed = match chosen {
        Some(c) => diff_function(bl, al, c),
        None => pass_trace::LineDiff::from_hunks(&entry.hunks, 0..bl.len() as u32, 0..al.len() as u32),
    };
    let mut changes = Vec::new();
    for (i, r) in diffed.rows.iter().enumerate() {
        if r.kind == RowKind::Replace {
            let b = r.before.and_then(|x| bl.get(x as usize)).copied().unwrap_or("");
            let a = r.after.and_then(|x| al.get(x as usize)).copied().unwrap_or("");
            let c = pass_trace::refine_line(b, a);
            changes.push((i as u32, c.before, c.after));
        }
    }
    let blocks = pass_trace::fold(&diffed.rows, CONTEXT_ROWS).into_iter().map(|b| (b.rows.start, b.rows.end, b.folded)).collect();
    DiffPart { diffed, blocks, changes }
}

/// The `PassDiff` reply around a [`DiffPart`]: both sides' texts with their line starts
/// ([`SnapshotLines`]), row columns, the function list, the `.log` warnings.
pub fn diff_data(
    dataset_id: u32,
    pass: u32,
    input: &DiffInput<'_>,
    choices: &[FunctionChoice],
    chosen: Option<&FunctionChoice>,
    part: DiffPart,
) -> PassDiffData {
    let DiffPart { diffed, blocks, changes } = part;
    let idx = |v: Option<u32>| v.map_or(-1, u32::cast_signed);
    let warnings = input
        .log
        .map(pass_log::parse)
        .unwrap_or_default()
        .into_iter()
        .map(|w| PassWarningRow { log_line: w.log_line, line: w.line, column: w.column, message: w.message })
        .collect();
    PassDiffData {
        dataset_id,
        pass,
        function: chosen.map(|c| c.key.clone()),
        functions: choices.iter().map(|c| c.key.clone()).collect(),
        before_file: input.entry.previous_file.clone(),
        after_file: input.entry.file_name.clone(),
        before_lines: SnapshotLines::new(input.before_text),
        after_lines: SnapshotLines::new(input.after_text),
        kinds: diffed
            .rows
            .iter()
            .map(|r| match r.kind {
                RowKind::Equal => 0,
                RowKind::Delete => 1,
                RowKind::Insert => 2,
                RowKind::Replace => 3,
            })
            .collect(),
        before: diffed.rows.iter().map(|r| idx(r.before)).collect(),
        after: diffed.rows.iter().map(|r| idx(r.after)).collect(),
        added: diffed.added,
        removed: diffed.removed,
        blocks,
        changes,
        log: input.log.map(str::to_owned),
        warnings,
        error: None,
    }
}
