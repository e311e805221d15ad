//! Small browser helpers every part of the page uses, on `gloo`: the time of
//! `performance.now()`, and downloads (a text, a `Blob`, bytes or a data URL saved as a file
//! through a temporary object URL, revoked once the download has started).

use wasm_bindgen::JsCast;

/// `performance.now()` in ms (`Date.now()` where there is no `performance`).
pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or_else(js_sys::Date::now, |p| p.now())
}

/// Saves `url` as `file_name` (a click on a temporary `<a download>`).
pub fn download_url(file_name: &str, url: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(a) = document.create_element("a").ok().and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok()) else { return };
    a.set_href(url);
    a.set_download(file_name);
    if let Some(body) = document.body() {
        let _ = body.append_child(&a);
        a.click();
        let _ = body.remove_child(&a);
    }
}

/// Saves `blob` as `file_name`; its object URL is revoked after the download has started.
pub fn download_blob(file_name: &str, blob: &gloo::file::Blob) {
    let url = gloo::file::ObjectUrl::from(blob.clone());
    download_url(file_name, &url);
    // Dropping the object URL revokes it: keep it for a while first.
    wasm_bindgen_futures::spawn_local(async move {
        gloo::timers::future::TimeoutFuture::new(10_000).await;
        drop(url);
    });
}

/// Saves `text` (of MIME type `mime`) as `file_name`.
pub fn download_text(file_name: &str, mime: &str, text: &str) {
    download_blob(file_name, &gloo::file::Blob::new_with_options(text, Some(mime)));
}

/// Saves `bytes` (of MIME type `mime`) as `file_name`.
pub fn download_bytes(file_name: &str, mime: &str, bytes: &js_sys::Uint8Array) {
    let parts = js_sys::Array::of1(bytes);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    if let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options) {
        download_blob(file_name, &gloo::file::Blob::from(blob));
    }
}
