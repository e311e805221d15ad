//! Reading bytes inside the worker, for every module that reads a file: from a `File`
//! (picked folder, input, drag and drop) in slices with progress callbacks, or from a URL
//! (`?src=`, demo) by fetch; a byte range of either (details read back on demand).
//!
//! Nothing waits forever: every wait for bytes (a `File` slice, a response's headers, each
//! piece of its body) fails when no bytes come for the stall timeout ([`STALL_TIMEOUT_MS`],
//! or what the page's open request set, [`set_stall_timeout_ms`]) with "no bytes from <file or
//! url> for 30 s"; a stalled request is aborted. The caller reports it as that file's error.
//!
//! The user can stop what is being read ([`cancel_reads`], the page's Cancel): every read under
//! way fails at its next slice or network piece with [`CANCELLED`] (its request aborted).

use std::cell::Cell;
use std::future::Future;

use futures_util::future::{select, Either};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::clock::now_ms;

/// Files larger than this are read in slices of this size, with a progress message each.
pub const SLICE_BYTES: u64 = 8 * 1024 * 1024;

/// How long a read may go without a byte before it fails, in production.
pub const STALL_TIMEOUT_MS: u32 = 30_000;

thread_local! {
    /// This instance's stall timeout (the page may shorten it for tests: `?stall_ms=`).
    static STALL_TIMEOUT: Cell<u32> = const { Cell::new(STALL_TIMEOUT_MS) };
    /// Bumped by every [`cancel_reads`]: a read begun before fails.
    static CANCEL_EPOCH: Cell<u64> = const { Cell::new(0) };
}

/// Why a read (or a job) stopped when the user cancelled it.
pub use pypto_protocol::datasets::CANCELLED;

/// Makes every read under way fail with [`CANCELLED`] at its next slice.
pub fn cancel_reads() {
    CANCEL_EPOCH.set(CANCEL_EPOCH.get().wrapping_add(1));
}

/// The current cancel epoch: work begun at it was cancelled when [`cancelled_since`] says so.
pub fn cancel_epoch() -> u64 {
    CANCEL_EPOCH.get()
}

/// Whether the user cancelled since `epoch` ([`cancel_epoch`]).
pub fn cancelled_since(epoch: u64) -> bool {
    CANCEL_EPOCH.get() != epoch
}

/// `Err(CANCELLED)` when the user cancelled since `epoch`.
fn unless_cancelled(epoch: u64) -> Result<(), String> {
    if cancelled_since(epoch) {
        Err(CANCELLED.to_owned())
    } else {
        Ok(())
    }
}

/// Sets this instance's stall timeout: `None` (or 0) is [`STALL_TIMEOUT_MS`].
pub fn set_stall_timeout_ms(timeout_ms: Option<u32>) {
    STALL_TIMEOUT.set(timeout_ms.filter(|&ms| ms > 0).unwrap_or(STALL_TIMEOUT_MS));
}

/// This instance's stall timeout (load jobs are given it with their work).
pub fn stall_timeout_ms() -> u32 {
    STALL_TIMEOUT.get()
}

/// "no bytes from <what> for 30 s".
pub fn stalled_message(what: &str, timeout_ms: u32) -> String {
    format!("no bytes from {what} for {} s", f64::from(timeout_ms) / 1000.0)
}

/// `step`'s output, or the stall message naming `what` when it takes longer than the stall
/// timeout (`step` is dropped; a JS promise under it may still settle, unobserved).
async fn unless_stalled<T>(what: &str, step: impl Future<Output = T>) -> Result<T, String> {
    let timeout_ms = stall_timeout_ms();
    let timer = gloo::timers::future::TimeoutFuture::new(timeout_ms);
    match select(std::pin::pin!(step), timer).await {
        Either::Left((output, _)) => Ok(output),
        Either::Right(((), _)) => Err(stalled_message(what, timeout_ms)),
    }
}

fn js_error_text(err: &JsValue) -> String {
    err.as_string()
        .or_else(|| js_sys::Reflect::get(err, &JsValue::from_str("message")).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| format!("{err:?}"))
}

/// What a stall message calls a `Blob`: its file name.
fn blob_label(blob: &web_sys::Blob) -> String {
    blob.dyn_ref::<web_sys::File>().map_or_else(|| "the file".to_owned(), web_sys::File::name)
}

/// The bytes of `promise` (a `Blob`'s `arrayBuffer()`), unless they stall.
async fn buffer_of(label: &str, promise: js_sys::Promise) -> Result<js_sys::Uint8Array, String> {
    let buffer = unless_stalled(label, JsFuture::from(promise)).await?.map_err(|e| js_error_text(&e))?;
    Ok(js_sys::Uint8Array::new(&buffer))
}

async fn blob_bytes(label: &str, blob: &web_sys::Blob) -> Result<Vec<u8>, String> {
    Ok(buffer_of(label, blob.array_buffer()).await?.to_vec())
}

/// Reads all bytes of `source` (a `File`/`Blob` or a URL string). Files above one slice are
/// read slice by slice and `on_progress(done_bytes, total_bytes)` is called after each slice.
pub async fn read_bytes(source: &JsValue, on_progress: &mut dyn FnMut(u64, u64)) -> Result<Vec<u8>, String> {
    if let Some(url) = source.as_string() {
        return Download::start(&url, None).await?.body_bytes_with(on_progress).await;
    }
    let epoch = cancel_epoch();
    let blob: web_sys::Blob = source.clone().dyn_into().map_err(|_| "entry has neither a File nor a URL".to_string())?;
    let total = blob.size() as u64;
    let label = blob_label(&blob);
    if total <= SLICE_BYTES {
        return blob_bytes(&label, &blob).await;
    }
    let mut bytes = Vec::with_capacity(total as usize);
    let mut done = 0u64;
    while done < total {
        unless_cancelled(epoch)?;
        let end = (done + SLICE_BYTES).min(total);
        let slice = blob.slice_with_f64_and_f64(done as f64, end as f64).map_err(|e| js_error_text(&e))?;
        bytes.extend_from_slice(&blob_bytes(&label, &slice).await?);
        done = end;
        on_progress(done, total);
    }
    Ok(bytes)
}

/// Where the time of a sliced read went, ms: waiting for bytes, and in the sink (parsing).
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadTiming {
    pub wait_ms: f64,
    pub sink_ms: f64,
    /// Reads that delivered bytes (slices of a `File`, network pieces of a URL).
    pub reads: u32,
}

/// Reads `source` slice by slice without keeping it: each slice of a `File`/`Blob` is handed
/// to `sink` and dropped, and `on_progress(done_bytes, total_bytes)` follows each slice (a URL
/// body is read as it arrives, in pieces of at least one slice). [`READS_IN_FLIGHT`] slices of
/// a `File` are being read while `sink` parses the current one.
pub async fn read_slices(
    source: &JsValue,
    sink: &mut dyn FnMut(&[u8]),
    on_progress: &mut dyn FnMut(u64, u64),
) -> Result<ReadTiming, String> {
    if let Some(url) = source.as_string() {
        return fetch_slices(&url, sink, on_progress).await;
    }
    let blob: web_sys::Blob = source.clone().dyn_into().map_err(|_| "entry has neither a File nor a URL".to_string())?;
    let total = blob.size() as u64;
    let label = blob_label(&blob);
    let mut next_from = 0u64;
    // Asks for the next slice, when there is one: (its end, its bytes to come).
    let mut read_next = || -> Result<Option<(u64, js_sys::Promise)>, String> {
        if next_from >= total {
            return Ok(None);
        }
        let end = (next_from + SLICE_BYTES).min(total);
        let slice = blob.slice_with_f64_and_f64(next_from as f64, end as f64).map_err(|e| js_error_text(&e))?;
        next_from = end;
        Ok(Some((end, slice.array_buffer())))
    };
    let mut timing = ReadTiming::default();
    let mut buf: Vec<u8> = Vec::new();
    let epoch = cancel_epoch();
    let mut pending = std::collections::VecDeque::with_capacity(READS_IN_FLIGHT);
    while pending.len() < READS_IN_FLIGHT {
        let Some(read) = read_next()? else { break };
        pending.push_back(read);
    }
    while let Some((end, promise)) = pending.pop_front() {
        let waited_from = now_ms();
        let array = buffer_of(&label, promise).await?;
        unless_cancelled(epoch)?;
        if let Some(read) = read_next()? {
            pending.push_back(read);
        }
        buf.resize(array.length() as usize, 0);
        array.copy_to(&mut buf);
        drop(array);
        let parsed_from = now_ms();
        timing.wait_ms += parsed_from - waited_from;
        timing.reads += 1;
        sink(&buf);
        timing.sink_ms += now_ms() - parsed_from;
        on_progress(end, total);
    }
    Ok(timing)
}

/// How many slices of a `File` [`read_slices`] has asked for ahead of the one being parsed.
/// Measured on a 1.26 GB file in OPFS, headless Chromium on 2 cores (`arrayBuffer()` of 8 MiB
/// slices, nothing parsed): 1 in flight 294 and 352 MB/s, 2 in flight 467 and 432 MB/s,
/// 4 in flight 263 and 438 MB/s.
pub const READS_IN_FLIGHT: usize = 2;

/// A fetch under way: its response, the reader of its body, and what aborts it (on a stall,
/// and when it is dropped unfinished).
struct Download {
    url: String,
    response: web_sys::Response,
    /// `None` for a response without a body.
    reader: Option<web_sys::ReadableStreamDefaultReader>,
    abort: web_sys::AbortController,
}

impl Download {
    /// Starts fetching `url` (bytes `range` of it, when given) and waits for the response's
    /// headers; an HTTP error status fails it.
    async fn start(url: &str, range: Option<(u64, u64)>) -> Result<Self, String> {
        let fail = |e: &JsValue| format!("fetch {url}: {}", js_error_text(e));
        let abort = web_sys::AbortController::new().map_err(|e| fail(&e))?;
        let init = web_sys::RequestInit::new();
        init.set_signal(Some(&abort.signal()));
        if let Some((first, last)) = range {
            let headers = web_sys::Headers::new().map_err(|e| fail(&e))?;
            headers.set("Range", &format!("bytes={first}-{last}")).map_err(|e| fail(&e))?;
            init.set_headers(&headers);
        }
        let request = web_sys::Request::new_with_str_and_init(url, &init).map_err(|e| fail(&e))?;
        let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
        let response = match unless_stalled(url, JsFuture::from(scope.fetch_with_request(&request))).await {
            Ok(response) => response.map_err(|e| fail(&e))?,
            Err(stalled) => {
                abort.abort();
                return Err(stalled);
            }
        };
        let response: web_sys::Response = response.dyn_into().map_err(|_| format!("fetch {url}: not a response"))?;
        let reader = response.body().map(|body| body.get_reader().unchecked_into());
        let download = Self { url: url.to_owned(), response, reader, abort };
        if !download.response.ok() {
            return Err(format!("fetch {url}: HTTP {}", download.response.status()));
        }
        Ok(download)
    }

    /// The body's length from `Content-Length` (0 when unknown).
    fn content_length_bytes(&self) -> u64 {
        self.response.headers().get("content-length").ok().flatten().and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
    }

    /// The body's next piece, `None` at its end; fails (and aborts the request) when no bytes
    /// come for the stall timeout.
    async fn next_piece(&self) -> Result<Option<js_sys::Uint8Array>, String> {
        let Some(reader) = &self.reader else { return Ok(None) };
        let step = match unless_stalled(&self.url, JsFuture::from(reader.read())).await {
            Ok(step) => step.map_err(|e| format!("fetch {}: {}", self.url, js_error_text(&e)))?,
            Err(stalled) => {
                self.abort.abort();
                return Err(stalled);
            }
        };
        let finished = js_sys::Reflect::get(&step, &JsValue::from_str("done")).ok().and_then(|v| v.as_bool()).unwrap_or(true);
        if finished {
            return Ok(None);
        }
        let value = js_sys::Reflect::get(&step, &JsValue::from_str("value")).map_err(|e| js_error_text(&e))?;
        Ok(Some(value.unchecked_into()))
    }

    /// The whole (rest of the) body.
    async fn body_bytes(&self) -> Result<Vec<u8>, String> {
        self.body_bytes_with(&mut |_, _| {}).await
    }

    /// The whole (rest of the) body, `on_progress(done_bytes, total_bytes)` called after each
    /// slice's worth of pieces; stops when the user cancels.
    async fn body_bytes_with(&self, on_progress: &mut dyn FnMut(u64, u64)) -> Result<Vec<u8>, String> {
        let epoch = cancel_epoch();
        let total = self.content_length_bytes();
        let mut bytes = Vec::with_capacity(usize::try_from(total).unwrap_or(0));
        let mut reported = 0usize;
        while let Some(piece) = self.next_piece().await? {
            unless_cancelled(epoch)?;
            let at = bytes.len();
            bytes.resize(at + piece.length() as usize, 0);
            piece.copy_to(bytes.get_mut(at..).unwrap_or_default());
            if bytes.len() - reported >= SLICE_BYTES as usize {
                reported = bytes.len();
                on_progress(reported as u64, total.max(reported as u64));
            }
        }
        Ok(bytes)
    }
}

impl Drop for Download {
    fn drop(&mut self) {
        // Nothing when the body was read to its end; else the request stops.
        self.abort.abort();
    }
}

/// Fetches `url` and hands its body to `sink` as it arrives (network pieces gathered into
/// slices of [`SLICE_BYTES`]), with a progress call per slice.
async fn fetch_slices(url: &str, sink: &mut dyn FnMut(&[u8]), on_progress: &mut dyn FnMut(u64, u64)) -> Result<ReadTiming, String> {
    let download = Download::start(url, None).await?;
    let total = download.content_length_bytes();
    let mut timing = ReadTiming::default();
    let slice = SLICE_BYTES as usize;
    let mut buf: Vec<u8> = Vec::with_capacity(slice);
    let mut done = 0u64;
    let epoch = cancel_epoch();
    loop {
        let waited_from = now_ms();
        let piece = download.next_piece().await?;
        unless_cancelled(epoch)?;
        timing.wait_ms += now_ms() - waited_from;
        timing.reads += 1;
        let finished = piece.is_none();
        if let Some(piece) = piece {
            let at = buf.len();
            buf.resize(at + piece.length() as usize, 0);
            piece.copy_to(buf.get_mut(at..).unwrap_or_default());
        }
        if buf.len() >= slice || (finished && !buf.is_empty()) {
            let parsed_from = now_ms();
            sink(&buf);
            timing.sink_ms += now_ms() - parsed_from;
            done += buf.len() as u64;
            buf.clear();
            on_progress(done, total.max(done));
        }
        if finished {
            return Ok(timing);
        }
    }
}

/// Fetches `url` (same origin or an explicit `?src=` origin) and returns its body.
pub async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    Download::start(url, None).await?.body_bytes().await
}

/// Bytes `offset .. offset + len` of `source` (a `File`/`Blob`, or a URL by a `Range`
/// request; a server that ignores the range sends the whole file, which is then cut), read
/// without blocking the worker; `Err` says why they could not be read (a stall names the file
/// and the seconds waited).
pub async fn read_range(source: &JsValue, offset: u64, len: u32) -> Result<Vec<u8>, String> {
    let end = offset + u64::from(len);
    if let Some(url) = source.as_string() {
        let download = Download::start(&url, Some((offset, end.saturating_sub(1)))).await?;
        let status = download.response.status();
        let bytes = download.body_bytes().await?;
        return match status {
            206 => Ok(bytes),
            200 => bytes.get(offset as usize..end as usize).map(<[u8]>::to_vec).ok_or_else(|| format!("{url}: shorter than byte {end}")),
            other => Err(format!("{url}: HTTP {other} for bytes {offset}-{end}")),
        };
    }
    let blob: &web_sys::Blob = source.dyn_ref().ok_or("not a file")?;
    let slice = blob.slice_with_f64_and_f64(offset as f64, end as f64).map_err(|e| js_error_text(&e))?;
    blob_bytes(&blob_label(blob), &slice).await
}
