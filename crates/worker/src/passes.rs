//! The IR Pass Trace's requests, for the page's pass trace view: the pass list (+/− counts,
//! no-op, warnings, validation problems, what is wrong with each snapshot) and one pass's diff against the snapshot before it
//! (whole file or one function), with folding blocks, token-level changes and the `.log`
//! warnings — from the dump's texts (`pass_dumps`, read once), answered by
//! `pypto_replies::pass_trace`; a diff of big snapshots is made in a job (a Cancel stops it).

use std::borrow::Cow;
use std::collections::HashMap;
use std::rc::Rc;

use pypto_analysis::pass_trace::{Decoded, PassList};
use pypto_formats::passes_dump;
use pypto_protocol::datasets::{Progress, ProgressStage};
use pypto_protocol::pass_trace::{PassDiffColumns, PassDiffData, PassDiffRequest, PassListRequest, SnapshotLines};
use pypto_protocol::FromWorker;
use pypto_replies::pass_trace;

use crate::clock::now_ms;
use crate::transport::{Columns, Reply};
use crate::{jobs, pass_dumps};

/// Reads every snapshot and builds the pass list (kept for the diffs), which checks each
/// snapshot (with where its bytes were not UTF-8, found as it was read).
pub(crate) async fn list(id: u32) -> Result<PassList, String> {
    if let Some(l) = pass_dumps::list(id) {
        return Ok(l);
    }
    let all = pass_dumps::names(id);
    if all.is_empty() {
        return Err(format!("dataset {id} is not a pass dump"));
    }
    let started_ms = now_ms();
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let listing = passes_dump::validate(&refs);
    let mut texts: HashMap<String, Result<Decoded<Rc<str>>, String>> = HashMap::new();
    let wanted = std::iter::once(passes_dump::FRONTEND.to_owned()).chain(listing.snapshots.iter().map(|s| s.file_name.clone()));
    for name in wanted {
        if refs.contains(&name.as_str()) {
            let t = pass_dumps::text(id, &name).await.map(|text| Decoded { text, undecodable: pass_dumps::undecodable(id, &name) });
            texts.insert(name, t);
        }
    }
    let bytes: usize = texts.values().map(|t| t.as_ref().map_or(0, |d| d.text.len())).sum();
    let read_ms = now_ms();
    diff_line(&format!("pypto-diff worker: {} snapshots read ({bytes} bytes) in {:.0} ms", texts.len(), read_ms - started_ms));
    let built = if bytes >= BIG_LIST_BYTES {
        let path = pass_dumps::path(id);
        announce_big_diff(&path, bytes);
        let input = jobs::PassListInput {
            path,
            names: all.clone(),
            texts: texts
                .iter()
                .map(|(name, t)| jobs::ListText {
                    name: name.clone(),
                    text: t.as_ref().map(|d| Cow::Borrowed(&*d.text)).map_err(Clone::clone),
                    undecodable: t.as_ref().ok().and_then(|d| d.undecodable.clone()),
                })
                .collect(),
        };
        let (reply, columns) = jobs::ask_with_input(&jobs::ToJob::PassList, &jobs::encode(&input)?).await?;
        match reply {
            jobs::FromJob::PassListed => jobs::decode_at(&columns, jobs::LIST_KEY)?,
            _ => return Err("the pass-list job answered something else".to_owned()),
        }
    } else {
        pypto_analysis::pass_trace::pass_list(&listing, &refs, |name| {
            texts.get(name).cloned().unwrap_or_else(|| Err(NOT_IN_FOLDER.to_owned()))
        })
    };
    diff_line(&format!(
        "pypto-diff worker: pass list (every pass's line diff{}) in {:.0} ms",
        if bytes >= BIG_LIST_BYTES { ", in a job" } else { "" },
        now_ms() - read_ms
    ));
    pass_dumps::keep_list(id, &built);
    Ok(built)
}

/// Why a listed snapshot has no text.
pub(crate) const NOT_IN_FOLDER: &str = "the file is not in the opened folder";

/// Snapshots of more bytes than this together are listed (each pass diffed against the one
/// before) in a job, so a Cancel stops it.
const BIG_LIST_BYTES: usize = 8 << 20;

/// Answers `PassList`.
pub(crate) fn list_reply(dataset_id: u32, reply: Reply<PassListRequest>) {
    wasm_bindgen_futures::spawn_local(async move {
        reply.answer(list(dataset_id).await.map(|l| pass_trace::pass_list_data(dataset_id, &l)));
    });
}

/// Answers `PassDiff` (a diff that could not be made says why in its `error`).
pub(crate) fn diff_reply(request: PassDiffRequest, reply: Reply<PassDiffRequest>) {
    let PassDiffRequest { dataset_id, pass, function } = request;
    wasm_bindgen_futures::spawn_local(async move {
        let started_ms = now_ms();
        let mut data = diff(dataset_id, pass, function.clone()).await.unwrap_or_else(|e| PassDiffData {
            dataset_id,
            pass,
            function,
            error: Some(e),
            ..PassDiffData::default()
        });
        let built_ms = now_ms();
        let columns = diff_columns(&mut data);
        let pairs = data.changes.len();
        reply.send_with(Box::new(data), columns);
        diff_line(&format!(
            "pypto-diff worker: reply of pass {pass} ({pairs} changed-line pairs) as columns, posted in {:.0} ms; {:.0} ms from the ask",
            now_ms() - built_ms,
            now_ms() - started_ms
        ));
    });
}

/// The `PassDiff` reply's big parts (both texts, their line starts, the row columns) moved
/// out of `data` into typed-array columns: the message keeps no million-element lists (the
/// page puts them back, `diff_view::with_columns`).
pub(crate) fn diff_columns(data: &mut PassDiffData) -> Columns {
    let columns = data.take_columns();
    let names = PassDiffColumns::NAMES;
    let mut c = Columns::new();
    c.u8(names[0], &columns.before_text);
    c.u32(names[1], &columns.before_starts);
    c.u8(names[2], &columns.after_text);
    c.u32(names[3], &columns.after_starts);
    c.u8(names[4], &columns.kinds);
    c.i32(names[5], &columns.before);
    c.i32(names[6], &columns.after);
    c
}

/// A `pypto-diff …` timing line (the diff-at-scale bench, `tests/bench/pass-diff-scale.mjs`,
/// prints them as where the time went).
pub(crate) fn diff_line(line: &str) {
    jobs::say(line);
}

async fn diff(dataset_id: u32, pass: u32, function: Option<String>) -> Result<PassDiffData, String> {
    let listed = list(dataset_id).await?;
    let entry = listed.passes.get(pass as usize).ok_or_else(|| format!("no pass {pass}"))?;
    let started_ms = now_ms();
    let after_text = pass_dumps::text(dataset_id, &entry.file_name).await?;
    let before_text =
        if entry.previous_file.is_empty() { Rc::from("") } else { pass_dumps::text(dataset_id, &entry.previous_file).await? };
    let log = match &entry.log_file {
        Some(f) => Some(pass_dumps::text(dataset_id, f).await?),
        None => None,
    };
    let texts_ms = now_ms();
    let before_regions = pass_dumps::regions(dataset_id, &entry.previous_file, &before_text);
    let after_regions = pass_dumps::regions(dataset_id, &entry.file_name, &after_text);
    let regions_ms = now_ms();
    diff_line(&format!(
        "pypto-diff worker: pass {pass}'s texts in {:.0} ms, their function outlines in {:.0} ms",
        texts_ms - started_ms,
        regions_ms - texts_ms
    ));
    if before_text.len() + after_text.len() >= BIG_DIFF_BYTES {
        announce_big_diff(&entry.file_name, before_text.len() + after_text.len());
        let mut data = diff_in_job(&jobs::PassDiffInput {
            dataset_id,
            pass,
            function,
            entry: Cow::Borrowed(entry),
            before_text: Cow::Borrowed(&before_text),
            after_text: Cow::Borrowed(&after_text),
            before_regions: before_regions.as_deref().map(Cow::Borrowed),
            after_regions: after_regions.as_deref().map(Cow::Borrowed),
            log: log.as_deref().map(Cow::Borrowed),
        })
        .await?;
        let job_ms = now_ms();
        // The job sends back no texts: they are here already.
        data.before_lines = SnapshotLines::new(&before_text);
        data.after_lines = SnapshotLines::new(&after_text);
        diff_line(&format!(
            "pypto-diff worker: the diff job answered in {:.0} ms; both texts' line starts in {:.0} ms",
            job_ms - regions_ms,
            now_ms() - job_ms
        ));
        return Ok(data);
    }
    let input = pass_trace::DiffInput {
        entry,
        before_text: &before_text,
        after_text: &after_text,
        before_regions: before_regions.as_deref(),
        after_regions: after_regions.as_deref(),
        log: log.as_deref(),
    };
    let mut step_ms = now_ms();
    let mut on_step = |done: u64, _total: u64| {
        let what = match done {
            1 => "lines split",
            2 => "rows, folds and token changes",
            3 => "reply (texts with line starts, row columns)",
            _ => return,
        };
        diff_line(&format!("pypto-diff worker: {what} in {:.0} ms", now_ms() - step_ms));
        step_ms = now_ms();
    };
    Ok(pass_trace::build_diff_stepped(dataset_id, pass, &input, function.as_deref(), &mut on_step))
}

/// A big diff, made in a job (a Cancel terminates it; what the diff peaks at goes back to
/// the browser with it); its reply holds no texts (`before_lines`, `after_lines` empty).
async fn diff_in_job(input: &jobs::PassDiffInput<'_>) -> Result<PassDiffData, String> {
    let (reply, columns) = jobs::ask_with_input(&jobs::ToJob::PassDiff, &jobs::encode(input)?).await?;
    match reply {
        jobs::FromJob::PassDiffed => jobs::decode_at(&columns, jobs::DIFF_KEY),
        _ => Err("the diff job answered something else".to_owned()),
    }
}

/// Snapshots of more bytes than this together show the progress bar while they are diffed.
const BIG_DIFF_BYTES: usize = 4 << 20;

/// Tells the page a big diff of `name` is being computed, before the job starts (the bar,
/// with its Cancel, shows while it does; the job then posts its steps under the same name).
pub(crate) fn announce_big_diff(name: &str, bytes: usize) {
    if bytes >= BIG_DIFF_BYTES {
        let progress = Progress { path: name.to_owned(), done_bytes: 0, total_bytes: 0, stage: ProgressStage::Diff };
        crate::transport::post(&FromWorker::Progress(progress), None);
    }
}
