//! Reading one entry of the opened folder for a load or path job: its bytes (with progress
//! messages to the page), or a deps.json / records file parsed while it streams in; a file
//! that cannot be read becomes a [`FileError`] naming it.

use pypto_formats::{deps, records, FormatError};
use pypto_protocol::datasets::{EntryMeta, FileError, Progress, ProgressStage};
use pypto_protocol::FromWorker;
use pypto_replies::datasets::read_error;
use wasm_bindgen::JsValue;

use crate::bench_log::bench_log;
use crate::clock::now_ms;
use crate::{reading, transport};

/// Reads the entry at `entry_index`, or records why it could not be read.
pub(crate) async fn read_entry(
    entry_index: usize,
    entries: &[EntryMeta],
    sources: &[JsValue],
    errors: &mut Vec<FileError>,
) -> Option<(String, Vec<u8>)> {
    let entry = entries.get(entry_index)?;
    let source = sources.get(entry_index)?;
    let path = entry.path.clone();
    let mut on_progress = |done_bytes, total_bytes| {
        transport::post(&FromWorker::Progress(Progress { path: path.clone(), done_bytes, total_bytes, stage: ProgressStage::Read }), None);
    };
    match reading::read_bytes(source, &mut on_progress).await {
        Ok(bytes) => Some((entry.path.clone(), bytes)),
        Err(message) => {
            errors.push(read_error(&entry.path, &message));
            None
        }
    }
}

/// Streams the entry at `entry_index` into `sink` (see [`reading::read_slices`]); `false` when
/// it could not be read (the reason is in `errors`).
async fn stream_entry(entry: &EntryMeta, source: &JsValue, sink: &mut dyn FnMut(&[u8]), errors: &mut Vec<FileError>) -> bool {
    let path = entry.path.clone();
    let mut on_progress = |done_bytes, total_bytes| {
        transport::post(&FromWorker::Progress(Progress { path: path.clone(), done_bytes, total_bytes, stage: ProgressStage::Read }), None);
    };
    let started_ms = now_ms();
    match reading::read_slices(source, sink, &mut on_progress).await {
        Ok(t) => {
            // For the bench (`tests/bench/swimlane-bench.mjs` collects these lines).
            let line = format!(
                "pypto-worker read {}: {:.1} MB in {:.0} ms ({:.0} ms waiting for bytes in {} reads, {:.0} ms parsing)",
                entry.path,
                entry.size_bytes as f64 / 1e6,
                now_ms() - started_ms,
                t.wait_ms,
                t.reads,
                t.sink_ms
            );
            bench_log(&line);
            true
        }
        Err(message) => {
            errors.push(read_error(&entry.path, &message));
            false
        }
    }
}

/// Reads a deps.json: a large file slice by slice ([`deps::DepsStream`], its text is never held
/// whole), a small one (or one the stream gave up on, for the exact error position) whole.
pub(crate) async fn parse_deps(
    index: usize,
    entries: &[EntryMeta],
    sources: &[JsValue],
    errors: &mut Vec<FileError>,
) -> Option<(String, Result<deps::Deps, FormatError>)> {
    let entry = entries.get(index)?;
    let source = sources.get(index)?;
    if entry.size_bytes > reading::SLICE_BYTES {
        // The file (or URL, by a `Range` request) is re-read for one task's arguments when the
        // details ask, so the arguments are not kept.
        let mut stream = deps::DepsStream::lean();
        if !stream_entry(entry, source, &mut |b| stream.feed(b), errors).await {
            return None;
        }
        if let Some(parsed) = stream.finish() {
            return Some((entry.path.clone(), Ok(parsed)));
        }
    }
    let (path, bytes) = read_entry(index, entries, sources, errors).await?;
    let parsed = deps::parse(&path, &bytes);
    Some((path, parsed))
}

/// Reads a records file slice by slice ([`records::RecordsStream`], which also notes where
/// each scheduler record is, so the resident model can read one back instead of keeping it),
/// or whole when the stream gave up (for the exact error position).
pub(crate) async fn parse_records(
    index: usize,
    entries: &[EntryMeta],
    sources: &[JsValue],
    errors: &mut Vec<FileError>,
) -> Option<(String, Result<records::ChipRecords, FormatError>)> {
    let entry = entries.get(index)?;
    let mut stream = records::RecordsStream::new();
    if !stream_entry(entry, sources.get(index)?, &mut |b| stream.feed(b), errors).await {
        return None;
    }
    if let Some(parsed) = stream.finish(&entry.path) {
        return Some((entry.path.clone(), Ok(parsed)));
    }
    let (path, bytes) = read_entry(index, entries, sources, errors).await?;
    let parsed = records::parse(&path, &bytes);
    Some((path, parsed))
}
