//! The IR Pass Trace's worker side: remembers each pass-dump dataset's files (handles, read
//! on first use and kept as text), answers the pass list (+/− counts, no-op, warnings,
//! validation problems) and one pass's diff against the snapshot before it (whole file or
//! one function), with folding blocks, token-level changes and the `.log` warnings.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use pypto_analysis::function_filter::{diff_function, function_choices, function_regions, FunctionChoice, FunctionRegion};
use pypto_analysis::pass_trace::{self, RowKind};
use pypto_formats::{discovery, pass_log, passes_dump};
use pypto_protocol::datasets::EntryMeta;
use pypto_protocol::pass_trace::{LineChangeRow, PassDiffData, PassDiffRequest, PassListData, PassListRequest, PassRow, PassWarningRow};
use wasm_bindgen::JsValue;

use crate::reading;
use crate::transport::Reply;

/// Context rows kept beside each change when folding (as `ir_trace --context 3`).
const CONTEXT_ROWS: u32 = 3;

/// One pass-dump dataset: its directory's files (name → source) and the texts read so far.
#[derive(Default)]
struct DumpDir {
    files: Vec<(String, JsValue)>,
    texts: HashMap<String, Rc<str>>,
    list: Option<pass_trace::PassList>,
    /// Function regions of each snapshot (outlined once: a snapshot is the after side of one
    /// pass and the before side of the next).
    regions: HashMap<String, Option<Rc<[FunctionRegion]>>>,
}

thread_local! {
    static DIRS: RefCell<HashMap<u32, DumpDir>> = RefCell::new(HashMap::new());
}

/// A new folder: forget every dump.
pub(crate) fn reset() {
    DIRS.with_borrow_mut(HashMap::clear);
}

/// Remembers the files directly inside a pass-dump dataset's directory.
pub(crate) fn remember(dataset_id: u32, dataset: &discovery::Dataset, entries: &[EntryMeta], sources: &[JsValue]) {
    let prefix = if dataset.path.is_empty() { String::new() } else { format!("{}/", dataset.path) };
    let files = entries
        .iter()
        .zip(sources)
        .filter_map(|(e, src)| {
            let rest = e.path.strip_prefix(&prefix)?;
            (!rest.contains('/')).then(|| (rest.to_owned(), src.clone()))
        })
        .collect();
    DIRS.with_borrow_mut(|d| {
        d.insert(dataset_id, DumpDir { files, ..DumpDir::default() });
    });
}

/// The text of `name` in dataset `id` (read once).
pub(crate) async fn text(id: u32, name: &str) -> Result<Rc<str>, String> {
    let cached = DIRS.with_borrow(|d| {
        let dir = d.get(&id).ok_or_else(|| format!("dataset {id} is not a pass dump"))?;
        if let Some(t) = dir.texts.get(name) {
            return Ok(Ok(t.clone()));
        }
        let src = dir.files.iter().find(|(n, _)| n == name).map(|(_, s)| s.clone());
        src.map(Err).ok_or_else(|| "the file is not in the opened folder".to_owned())
    })?;
    let source = match cached {
        Ok(t) => return Ok(t),
        Err(source) => source,
    };
    let bytes = reading::read_bytes(&source, &mut |_, _| {}).await?;
    let t: Rc<str> = Rc::from(String::from_utf8_lossy(&bytes).as_ref());
    DIRS.with_borrow_mut(|d| {
        if let Some(dir) = d.get_mut(&id) {
            dir.texts.insert(name.to_owned(), t.clone());
        }
    });
    Ok(t)
}

pub(crate) fn names(id: u32) -> Vec<String> {
    DIRS.with_borrow(|d| d.get(&id).map(|dir| dir.files.iter().map(|(n, _)| n.clone()).collect()).unwrap_or_default())
}

/// Reads every snapshot and builds the pass list (kept for the diffs).
async fn list(id: u32) -> Result<pass_trace::PassList, String> {
    if let Some(l) = DIRS.with_borrow(|d| d.get(&id).and_then(|dir| dir.list.clone())) {
        return Ok(l);
    }
    let all = names(id);
    if all.is_empty() {
        return Err(format!("dataset {id} is not a pass dump"));
    }
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let listing = passes_dump::validate(&refs);
    let mut texts: HashMap<String, Result<Rc<str>, String>> = HashMap::new();
    let wanted = std::iter::once(passes_dump::FRONTEND.to_owned()).chain(listing.snapshots.iter().map(|s| s.file_name.clone()));
    for name in wanted {
        if refs.contains(&name.as_str()) {
            let t = text(id, &name).await;
            texts.insert(name, t);
        }
    }
    let built = pass_trace::pass_list(&listing, &refs, |name| {
        texts.get(name).cloned().unwrap_or_else(|| Err("the file is not in the opened folder".to_owned()))
    });
    DIRS.with_borrow_mut(|d| {
        if let Some(dir) = d.get_mut(&id) {
            dir.list = Some(built.clone());
        }
    });
    Ok(built)
}

/// Answers `PassList`.
pub(crate) fn list_reply(dataset_id: u32, reply: Reply<PassListRequest>) {
    wasm_bindgen_futures::spawn_local(async move {
        match list(dataset_id).await {
            Ok(l) => {
                let data = PassListData {
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
                        })
                        .collect(),
                    problems: l.problems.clone(),
                    unreadable: l.unreadable.iter().map(|(f, r)| format!("{f}: {r}")).collect(),
                };
                reply.send(data);
            }
            Err(e) => reply.fail(e),
        }
    });
}

/// Answers `PassDiff` (a diff that could not be made says why in its `error`).
pub(crate) fn diff_reply(request: PassDiffRequest, reply: Reply<PassDiffRequest>) {
    let PassDiffRequest { dataset_id, pass, function } = request;
    wasm_bindgen_futures::spawn_local(async move {
        let data = diff(dataset_id, pass, function.clone()).await.unwrap_or_else(|e| PassDiffData {
            dataset_id,
            pass,
            function,
            error: Some(e),
            ..PassDiffData::default()
        });
        reply.send(Box::new(data));
    });
}

async fn diff(dataset_id: u32, pass: u32, function: Option<String>) -> Result<PassDiffData, String> {
    let listed = list(dataset_id).await?;
    let entry = listed.passes.get(pass as usize).ok_or_else(|| format!("no pass {pass}"))?;
    let after_text = text(dataset_id, &entry.file_name).await?;
    let before_text = if entry.previous_file.is_empty() { Rc::from("") } else { text(dataset_id, &entry.previous_file).await? };
    let log = match &entry.log_file {
        Some(f) => Some(text(dataset_id, f).await?),
        None => None,
    };
    let before_regions = regions(dataset_id, &entry.previous_file, &before_text);
    let after_regions = regions(dataset_id, &entry.file_name, &after_text);
    let input = DiffInput {
        entry,
        before_text: &before_text,
        after_text: &after_text,
        before_regions: before_regions.as_deref(),
        after_regions: after_regions.as_deref(),
        log: log.as_deref(),
    };
    Ok(build_diff(dataset_id, pass, &input, function.as_deref()))
}

/// The function regions of snapshot `name` (outlined once per dataset).
fn regions(id: u32, name: &str, text: &str) -> Option<Rc<[FunctionRegion]>> {
    if let Some(r) = DIRS.with_borrow(|d| d.get(&id).and_then(|dir| dir.regions.get(name).cloned())) {
        return r;
    }
    let r: Option<Rc<[FunctionRegion]>> = function_regions(name, text).map(Rc::from);
    DIRS.with_borrow_mut(|d| {
        if let Some(dir) = d.get_mut(&id) {
            dir.regions.insert(name.to_owned(), r.clone());
        }
    });
    r
}

/// What one pass's diff is made from.
pub(crate) struct DiffInput<'a> {
    pub entry: &'a pass_trace::PassEntry,
    pub before_text: &'a str,
    pub after_text: &'a str,
    /// `function_regions` of each side (`None`: not trustworthy, no function list).
    pub before_regions: Option<&'a [FunctionRegion]>,
    pub after_regions: Option<&'a [FunctionRegion]>,
    /// The `.log` text beside the snapshot.
    pub log: Option<&'a str>,
}

/// One pass's diff reply (the synchronous part of `PassDiff`): [`diff_part`] of the whole
/// file or of `function`, then [`reply`] around it.
pub(crate) fn build_diff(dataset_id: u32, pass: u32, input: &DiffInput<'_>, function: Option<&str>) -> PassDiffData {
    let bl = pass_trace::split_lines(input.before_text);
    let al = pass_trace::split_lines(input.after_text);
    let choices = function_choices(input.before_regions, input.after_regions).unwrap_or_default();
    let chosen = function.and_then(|k| choices.iter().find(|c| c.key == k));
    let part = diff_part(input.entry, &bl, &al, chosen);
    reply(dataset_id, pass, input, (&bl, &al), &choices, chosen, part)
}

/// The diff work of one pass: rows of the whole file (from the pass list's hunks, no second
/// line diff) or of one function, folding blocks, token changes of every `Replace` row.
pub(crate) struct DiffPart {
    pub diffed: pass_trace::LineDiff,
    pub blocks: Vec<(u32, u32, bool)>,
    pub changes: Vec<LineChangeRow>,
}

pub(crate) fn diff_part(entry: &pass_trace::PassEntry, bl: &[&str], al: &[&str], chosen: Option<&FunctionChoice>) -> DiffPart {
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

/// The `PassDiff` reply around a [`DiffPart`]: line texts of both sides, row columns, the
/// function list, the `.log` warnings.
pub(crate) fn reply(
    dataset_id: u32,
    pass: u32,
    input: &DiffInput<'_>,
    (bl, al): (&[&str], &[&str]),
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
        before_lines: bl.iter().map(|s| (*s).to_owned()).collect(),
        after_lines: al.iter().map(|s| (*s).to_owned()).collect(),
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
