//! Perfetto export button of the chip swimlane: asks the worker for the timeline as Chrome
//! Trace Event JSON (every bar, or with Shift held only the bars starting in the visible
//! window) and downloads the bytes it sends back, for users who continue in Perfetto.

use crate::i18n::t;
use leptos::prelude::*;
use pypto_protocol::timeline::{columns, ExportTraceRequest};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{Lane, SwimlaneUi};

/// The toolbar button.
#[component]
pub fn PerfettoExportButton(lane: Lane) -> impl IntoView {
    let ui = SwimlaneUi::get();
    let status = ui.export_status;
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(timeline_id) = ui.timeline_id() else { return };
        let window_us = if ev.shift_key() { lane.with(|r| r.camera.visible_range_us()) } else { None };
        status.set(Some("exporting…".to_owned()));
        let (client, slot) = (ui.client, ui.export_slot);
        let reply = client.ask_columns(slot, ExportTraceRequest { timeline_id, window_us });
        leptos::task::spawn_local(async move {
            match reply.await {
                Ok((export, bytes)) => {
                    let json = js_sys::Reflect::get(&bytes, &JsValue::from_str(columns::JSON))
                        .ok()
                        .and_then(|v| v.dyn_into::<js_sys::Uint8Array>().ok());
                    let text = match json {
                        Some(json) => {
                            crate::browser::download_bytes(&export.file_name, "application/json", &json);
                            format!(
                                "{}: {} slices, {} flows, {:.1} MB",
                                export.file_name,
                                export.slices,
                                export.flows,
                                f64::from(json.length()) / 1e6
                            )
                        }
                        None => "export failed: no data".to_owned(),
                    };
                    status.try_set(Some(text));
                }
                Err(_) => {
                    status.try_set(None);
                }
            }
        });
    };
    view! {
        <button id="export-perfetto" title=t("sw-export-as-chrome-trace-json")
            on:click=on_click>{t("sw-perfetto")}</button>
        <span id="export-status" class="note">{move || status.get().unwrap_or_default()}</span>
    }
}
