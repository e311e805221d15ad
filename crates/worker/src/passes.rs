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
use pypto_protocol::pass_trace::{PassDiffData, PassDiffRequest, PassListRequest};
use pypto_protocol::FromWorker;
use pypto_replies::pass_trace;

use crate::transport::Reply;
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
    let after_text = pass_dumps::text(dataset_id, &entry.file_name).await?;
    let before_text =
        if entry.previous_file.is_empty() { Rc::from("") } else { pass_dumps::text(dataset_id, &entry.previous_file).await? };
    let log = match &entry.log_file {
        Some(f) => Some(pass_dumps::text(dataset_id, f).await?),
        None => None,
    };
    let before_regions = pass_dumps::regions(dataset_id, &entry.previous_file, &before_text);
    let after_regions = pass_dumps::regions(dataset_id, &entry.file_name, &after_text);
    if before_text.len() + after_text.len() >= BIG_DIFF_BYTES {
        announce_big_diff(&entry.file_name, before_text.len() + after_text.len());
        return diff_in_job(&jobs::PassDiffInput {
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
        .await;
    }
    let input = pass_trace::DiffInput {
        entry,
        before_text: &before_text,
        after_text: &after_text,
        before_regions: before_regions.as_deref(),
        after_regions: after_regions.as_deref(),
        log: log.as_deref(),
    };
    Ok(pass_trace::build_diff(dataset_id, pass, &input, function.as_deref()))
}

/// A big diff, made in a job (a Cancel terminates it; what the diff peaks at goes back to
/// the browser with it).
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
