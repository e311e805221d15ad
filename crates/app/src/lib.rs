//! The viewer's page: a Leptos (CSR) UI that opens a folder of PyPTO records, lists its
//! datasets, and shows the views. It never parses a file: the analysis worker does
//! (`worker_client`), and canvas views draw from columns the worker hands over.

pub mod folder;
mod sidebar;
mod state;
pub mod table;
mod toolbar;
mod url_hash;
mod views;
pub mod worker_client;

use leptos::prelude::*;
use wasm_bindgen::JsValue;

use state::{AppState, LoadState};

/// Registers the service worker that keeps the app usable offline.
fn register_service_worker() {
    let Some(window) = web_sys::window() else { return };
    let navigator = window.navigator();
    if js_sys::Reflect::get(&navigator, &JsValue::from_str("serviceWorker")).map_or(true, |v| v.is_undefined()) {
        return;
    }
    let registration = navigator.service_worker().register("./sw.js");
    // Refused in some embeddings (third-party iframes, private modes): the app works
    // without it, only not offline.
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(err) = wasm_bindgen_futures::JsFuture::from(registration).await {
            web_sys::console::info_2(&JsValue::from_str("offline cache unavailable:"), &err);
        }
    });
}

/// `?src=<url>`: a hosted dataset to open at start.
fn src_param() -> Option<String> {
    let window = web_sys::window()?;
    let href = window.location().href().ok()?;
    let url = web_sys::Url::new(&href).ok()?;
    let src = url.search_params().get("src")?;
    // Resolve relative to the page, so `?src=data/run1/` works under any sub-path.
    web_sys::Url::new_with_base(&src, &href).ok().map(|u| u.href())
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let state = AppState::new();
    provide_context(state);
    worker_client::start(state);
    worker_client::install_debug_hook();
    table::install_bench_hook();
    register_service_worker();
    if let Some(src) = src_param() {
        worker_client::open_url(state, src);
    }

    // Mirror the load state on <body> for scripts and tests.
    Effect::new(move |_| {
        let value = match state.load_state.get() {
            LoadState::Idle => "idle",
            LoadState::Loading => "loading",
            LoadState::Done => "done",
        };
        if let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) {
            let _ = body.set_attribute("data-load-state", value);
        }
    });

    view! {
        <div class="app" on:dragover=|ev| toolbar::on_drag_over(&ev) on:drop=move |ev| toolbar::on_drop(&state, &ev)>
            <toolbar::Toolbar/>
            <div class="main">
                <sidebar::Sidebar/>
                <main class="view-area">
                    <views::ViewArea/>
                </main>
            </div>
        </div>
    }
}
