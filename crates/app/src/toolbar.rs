//! The top bar: Open folder (picker, or the webkitdirectory input where the picker is
//! missing), Open demo, drag-and-drop handling, worker status and load progress.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::folder;
use crate::session::Session;
use crate::worker_client::WorkerClient;

/// Relative URL of the bundled demo dataset (a manifest directory, like `?src=`).
const DEMO_URL: &str = "./demo/";

fn resolve(relative: &str) -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .and_then(|href| web_sys::Url::new_with_base(relative, &href).ok())
        .map_or_else(|| relative.to_string(), |u| u.href())
}

fn click_dir_input() {
    if let Some(input) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("dir-input"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        input.click();
    }
}

fn open_with_picker(client: WorkerClient) {
    if !folder::has_directory_picker() {
        click_dir_input();
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        match folder::pick_and_walk().await {
            Ok(Some(walked)) => client.open_folder(walked.label, walked.entries, &walked.files),
            Ok(None) => {}
            // E.g. a cross-origin iframe forbids the picker: fall back to the input.
            Err(_) => click_dir_input(),
        }
    });
}

pub fn on_drag_over(ev: &web_sys::DragEvent) {
    ev.prevent_default();
}

pub fn on_drop(client: WorkerClient, session: Session, ev: &web_sys::DragEvent) {
    ev.prevent_default();
    let Some(transfer) = ev.data_transfer() else { return };
    wasm_bindgen_futures::spawn_local(async move {
        match folder::walk_drop(&transfer).await {
            Ok(walked) if !walked.entries.is_empty() => {
                client.open_folder(walked.label, walked.entries, &walked.files);
            }
            Ok(_) => session.problem("the dropped items hold no files".to_string()),
            Err(message) => session.problem(format!("could not read the dropped folder: {message}")),
        }
    });
}

#[component]
pub fn Toolbar() -> impl IntoView {
    let (session, client) = (Session::get(), WorkerClient::get());
    let on_input_change = move |ev: web_sys::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        if let Some(list) = input.files() {
            let walked = folder::walk_file_list(&list);
            if !walked.entries.is_empty() {
                client.open_folder(walked.label, walked.entries, &walked.files);
            }
        }
        input.set_value("");
    };
    view! {
        <header class="toolbar">
            <span class="brand">"PyPTO Trace Viewer"</span>
            <button id="open-folder" title="Open a folder of runtime records or pass dumps (read-only)"
                on:click=move |_| open_with_picker(client)>"Open folder…"</button>
            <input id="dir-input" type="file" class="hidden-input" prop:webkitdirectory=true multiple
                on:change=on_input_change/>
            <button id="open-demo" on:click=move |_| client.open_url(resolve(DEMO_URL))>"Open demo"</button>
            <span class="hint">"or drop a folder anywhere"</span>
            <span class="spacer"></span>
            <span class="progress">{move || session.progress.get().unwrap_or_default()}</span>
            <span class="source">{move || session.source_label.get()}</span>
            <span id="worker-status" data-state=move || session.worker.get().as_str()
                title="analysis worker">{move || format!("worker: {}", session.worker.get().as_str())}</span>
        </header>
    }
}
