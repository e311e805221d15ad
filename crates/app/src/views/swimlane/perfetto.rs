//! Perfetto export button of the chip swimlane: asks the worker for the timeline as Chrome
//! Trace Event JSON (every bar, or with Shift held only the bars starting in the visible
//! window) and downloads the bytes it sends back, for users who continue in Perfetto.

use leptos::prelude::*;
use pypto_protocol::ToWorker;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::worker_client;

thread_local! {
    /// The status line of the mounted button (what the last export wrote).
    static STATUS: std::cell::RefCell<Option<RwSignal<Option<String>>>> = const { std::cell::RefCell::new(None) };
}

fn set_status(text: String) {
    STATUS.with_borrow(|s| {
        if let Some(s) = s {
            s.set(Some(text));
        }
    });
}

/// The toolbar button.
#[component]
pub fn PerfettoExportButton() -> impl IntoView {
    let status = RwSignal::new(None::<String>);
    STATUS.with_borrow_mut(|s| *s = Some(status));
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(timeline_id) = super::current_timeline_id() else { return };
        let window_us = if ev.shift_key() { super::with_view_ret(|r| r.camera.visible_range_us()) } else { None };
        status.set(Some("exporting…".to_owned()));
        worker_client::send(ToWorker::ExportTrace(pypto_protocol::timeline::ExportTraceRequest { timeline_id, window_us }), None);
    };
    view! {
        <button id="export-perfetto" title="Export as Chrome trace JSON for Perfetto (Shift+click: only the visible window)"
            on:click=on_click>"Perfetto"</button>
        <span id="export-status" class="note">{move || status.get().unwrap_or_default()}</span>
    }
}

/// `FromWorker::TraceExport`: downloads the `json` column.
pub fn on_trace_export(file_name: &str, slices: u64, flows: u64, columns: &JsValue) {
    let bytes = js_sys::Reflect::get(columns, &JsValue::from_str("json")).ok().and_then(|v| v.dyn_into::<js_sys::Uint8Array>().ok());
    let Some(bytes) = bytes else {
        set_status("export failed: no data".to_owned());
        return;
    };
    let size_bytes = bytes.length();
    download_bytes(file_name, &bytes);
    set_status(format!("{file_name}: {slices} slices, {flows} flows, {:.1} MB", f64::from(size_bytes) / 1e6));
}

fn download_bytes(file_name: &str, bytes: &js_sys::Uint8Array) {
    let parts = js_sys::Array::of1(bytes);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    if let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options) {
        crate::table::download_blob(file_name, &blob);
    }
}
