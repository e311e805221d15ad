//! Reading bytes inside the worker, for every module that reads a file: from a `File`
//! (picked folder, input, drag and drop) in slices with progress callbacks, or from a URL
//! (`?src=`, demo) by fetch; a byte range of either (details read back on demand).

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::clock::now_ms;

/// Files larger than this are read in slices of this size, with a progress message each.
pub const SLICE_BYTES: u64 = 8 * 1024 * 1024;

fn js_error_text(err: &JsValue) -> String {
    err.as_string()
        .or_else(|| js_sys::Reflect::get(err, &JsValue::from_str("message")).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| format!("{err:?}"))
}

async fn blob_bytes(blob: &web_sys::Blob) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(blob.array_buffer()).await.map_err(|e| js_error_text(&e))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Reads all bytes of `source` (a `File`/`Blob` or a URL string). Files above one slice are
/// read slice by slice and `on_progress(done_bytes, total_bytes)` is called after each slice.
pub async fn read_bytes(source: &JsValue, on_progress: &mut dyn FnMut(u64, u64)) -> Result<Vec<u8>, String> {
    if let Some(url) = source.as_string() {
        return fetch_bytes(&url).await;
    }
    let blob: web_sys::Blob = source.clone().dyn_into().map_err(|_| "entry has neither a File nor a URL".to_string())?;
    let total = blob.size() as u64;
    if total <= SLICE_BYTES {
        return blob_bytes(&blob).await;
    }
    let mut bytes = Vec::with_capacity(total as usize);
    let mut done = 0u64;
    while done < total {
        let end = (done + SLICE_BYTES).min(total);
        let slice = blob.slice_with_f64_and_f64(done as f64, end as f64).map_err(|e| js_error_text(&e))?;
        bytes.extend_from_slice(&blob_bytes(&slice).await?);
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
/// body is read as it arrives, in pieces of at least one slice). The next slice of a `File` is
/// already being read while `sink` parses the current one.
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
    let read = |from: u64| -> Result<(u64, js_sys::Promise), String> {
        let end = (from + SLICE_BYTES).min(total);
        let slice = blob.slice_with_f64_and_f64(from as f64, end as f64).map_err(|e| js_error_text(&e))?;
        Ok((end, slice.array_buffer()))
    };
    let mut timing = ReadTiming::default();
    let mut buf: Vec<u8> = Vec::new();
    let mut pending = if total > 0 { Some(read(0)?) } else { None };
    while let Some((end, promise)) = pending.take() {
        let waited_from = now_ms();
        let buffer = JsFuture::from(promise).await.map_err(|e| js_error_text(&e))?;
        let array = js_sys::Uint8Array::new(&buffer);
        buf.resize(array.length() as usize, 0);
        array.copy_to(&mut buf);
        drop(array);
        if end < total {
            pending = Some(read(end)?);
        }
        let parsed_from = now_ms();
        timing.wait_ms += parsed_from - waited_from;
        timing.reads += 1;
        sink(&buf);
        timing.sink_ms += now_ms() - parsed_from;
        on_progress(end, total);
    }
    Ok(timing)
}

async fn fetch_response(url: &str) -> Result<web_sys::Response, String> {
    let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
    let response = JsFuture::from(scope.fetch_with_str(url)).await.map_err(|e| format!("fetch {url}: {}", js_error_text(&e)))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| format!("fetch {url}: not a response"))?;
    if !response.ok() {
        return Err(format!("fetch {url}: HTTP {}", response.status()));
    }
    Ok(response)
}

/// Fetches `url` and hands its body to `sink` as it arrives (network pieces gathered into
/// slices of [`SLICE_BYTES`]), with a progress call per slice.
async fn fetch_slices(url: &str, sink: &mut dyn FnMut(&[u8]), on_progress: &mut dyn FnMut(u64, u64)) -> Result<ReadTiming, String> {
    let response = fetch_response(url).await?;
    let total = response.headers().get("content-length").ok().flatten().and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    let Some(body) = response.body() else {
        let promise = response.array_buffer().map_err(|e| js_error_text(&e))?;
        let buffer = JsFuture::from(promise).await.map_err(|e| js_error_text(&e))?;
        sink(&js_sys::Uint8Array::new(&buffer).to_vec());
        return Ok(ReadTiming::default());
    };
    let mut timing = ReadTiming::default();
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let slice = SLICE_BYTES as usize;
    let mut buf: Vec<u8> = Vec::with_capacity(slice);
    let mut done = 0u64;
    loop {
        let waited_from = now_ms();
        let step = JsFuture::from(reader.read()).await.map_err(|e| format!("fetch {url}: {}", js_error_text(&e)))?;
        timing.wait_ms += now_ms() - waited_from;
        timing.reads += 1;
        let finished = js_sys::Reflect::get(&step, &JsValue::from_str("done")).ok().and_then(|v| v.as_bool()).unwrap_or(true);
        if !finished {
            let value = js_sys::Reflect::get(&step, &JsValue::from_str("value")).map_err(|e| js_error_text(&e))?;
            let piece: js_sys::Uint8Array = value.unchecked_into();
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
    let response = fetch_response(url).await?;
    let promise = response.array_buffer().map_err(|e| js_error_text(&e))?;
    let buffer = JsFuture::from(promise).await.map_err(|e| js_error_text(&e))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Bytes `offset .. offset + len` of `source` (a `File`/`Blob`, or a URL by a `Range`
/// request; a server that ignores the range sends the whole file, which is then cut), read
/// without blocking the worker.
pub async fn read_range(source: &JsValue, offset: u64, len: u32) -> Option<Vec<u8>> {
    let end = offset + u64::from(len);
    if let Some(url) = source.as_string() {
        let init = web_sys::RequestInit::new();
        let headers = web_sys::Headers::new().ok()?;
        headers.set("Range", &format!("bytes={offset}-{}", end.saturating_sub(1))).ok()?;
        init.set_headers(&headers);
        let request = web_sys::Request::new_with_str_and_init(&url, &init).ok()?;
        let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
        let response: web_sys::Response = JsFuture::from(scope.fetch_with_request(&request)).await.ok()?.dyn_into().ok()?;
        let status = response.status();
        let buffer = JsFuture::from(response.array_buffer().ok()?).await.ok()?;
        let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
        return match status {
            206 => Some(bytes),
            200 => bytes.get(offset as usize..end as usize).map(<[u8]>::to_vec),
            _ => None,
        };
    }
    let blob: &web_sys::Blob = source.dyn_ref()?;
    let slice = blob.slice_with_f64_and_f64(offset as f64, end as f64).ok()?;
    blob_bytes(&slice).await.ok()
}
