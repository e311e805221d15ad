//! The viewer's page: a Leptos (CSR) UI that opens a folder of PyPTO records, lists its
//! datasets, and shows the views. It never parses a file: the analysis worker does
//! (`worker_client`), and canvas views draw from columns the worker hands over.
//!
//! The core: [`session`] (what the worker announced), [`nav`] (what the user looks at, the
//! URL hash), [`worker_client`] (typed requests and replies), [`analyses`] (per-dataset
//! tables several parts show), [`embed`] (`?embed=1` and the host page's `postMessage` API).
//! Around it: the chrome
//! ([`toolbar`], [`sidebar`]), the view registry and views ([`views`]), the parts docked beside
//! a view ([`parts`]), and leaf helpers ([`folder`], [`table`], [`browser`]). See
//! ARCHITECTURE.md.

// `Session`, `Nav`, the view states and handles are `Copy` bundles of signal handles, passed by
// value the Leptos way; their size is mostly debug-build bookkeeping of each signal.
#![allow(clippy::large_types_passed_by_value)]

pub mod analyses;
pub mod browser;
mod compiler_note;
pub mod diff_view;
pub mod embed;
pub mod exports;
pub mod folder;
pub mod i18n;
pub mod nav;
mod note_words;
pub mod owned;
mod parts;
pub mod progress;
pub mod session;
pub mod settings;
pub mod shortcuts;
mod sidebar;
pub mod table;
mod toolbar;
pub mod tour;
mod view_spec;
mod views;
pub mod worker_client;
pub mod worker_words;

use leptos::prelude::*;
use wasm_bindgen::JsValue;

use nav::Nav;
use session::Session;
use worker_client::WorkerClient;

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

/// The page URL's query parameter `name`, and the page's address.
fn query_param(name: &str) -> Option<(String, String)> {
    let href = web_sys::window()?.location().href().ok()?;
    let value = web_sys::Url::new(&href).ok()?.search_params().get(name)?;
    Some((value, href))
}

/// `?<name>=<url>`: a hosted dataset's URL, resolved relative to the page (so
/// `?src=data/run1/` works under any sub-path).
fn url_param(name: &str) -> Option<String> {
    let (src, href) = query_param(name)?;
    web_sys::Url::new_with_base(&src, &href).ok().map(|u| u.href())
}

/// `?stall_ms=<ms>`: how long the worker's reads may go without a byte before they fail
/// (default 30 s; tests shorten it).
fn stall_ms_param() -> Option<u32> {
    query_param("stall_ms")?.0.parse().ok()
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let session = Session::new();
    provide_context(session);
    let client = WorkerClient::start(session);
    client.set_stall_timeout_ms(stall_ms_param());
    provide_context(client);
    let nav = Nav::new(session);
    provide_context(nav);
    let settings = settings::Settings::new();
    settings.keep(nav);
    i18n::provide(settings.language);
    provide_context(settings);
    provide_context(analyses::Analyses::new(session, client));
    views::init_all();
    parts::init_all();
    client.install_debug_hook();
    table::install_bench_hook();
    register_service_worker();
    let registry = embed::Registry { available: views::available, resolve: views::resolve };
    let embedded = embed::Embed::start(session, nav, client, settings, registry);
    provide_context(embedded);
    let embedded = embedded.embedded;
    // `?src=<url>`: a hosted dataset to open at start; `&compare=<url>`: the one to compare it
    // with (its runs are the baselines, A).
    if let Some(src) = url_param("src") {
        client.open_url(src);
        if let Some(baseline) = url_param("compare") {
            client.open_url_as_comparison(baseline);
        }
    }

    // Mirror the load state on <body> for scripts and tests.
    Effect::new(move |_| {
        let value = session.load.get().as_str();
        if let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) {
            let _ = body.set_attribute("data-load-state", value);
        }
    });

    view! {
        <div class="app" class:embedded=embedded on:dragover=|ev| toolbar::on_drag_over(&ev)
            on:drop=move |ev| toolbar::on_drop(client, session, settings, &ev)>
            // Embedded (`?embed=1`): one view, no top bar or sidebar.
            {(!embedded).then(|| view! { <toolbar::Toolbar/> })}
            <div class="main">
                {(!embedded).then(|| view! { <sidebar::Sidebar/> })}
                <main class="view-area">
                    {embedded.then(|| view! { <embed::EmbedBar/> })}
                    <views::ViewArea/>
                </main>
            </div>
        </div>
    }
}
