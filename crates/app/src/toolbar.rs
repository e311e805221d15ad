//! The top bar: Open folder (picker, or the webkitdirectory input where the picker is
//! missing), Compare with folder… (the same, opened beside the folder as the comparison
//! source: the runs to compare with), Open demo, drag-and-drop handling, Copy link (the page's address, whose hash is
//! the shown view: `nav::hash`), the theme switch (system / light / dark, a remembered setting),
//! worker status and load progress. An opened folder's name is remembered (`settings`).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::folder::{self, Walked};
use crate::i18n::{t, tr, tr_with, Arg};
use crate::nav::Nav;
use crate::owned::Delay;
use crate::session::Session;
use crate::settings::{Language, Settings, Theme};
use crate::worker_client::WorkerClient;

/// How long "Link copied" shows.
const COPIED_NOTE_MS: u32 = 2500;

/// Relative URL of the bundled demo dataset (a manifest directory, like `?src=`).
const DEMO_URL: &str = "./demo/";

/// The bundled demo dataset's address (the landing page opens it too).
pub fn demo_url() -> String {
    resolve(DEMO_URL)
}

fn resolve(relative: &str) -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .and_then(|href| web_sys::Url::new_with_base(relative, &href).ok())
        .map_or_else(|| relative.to_string(), |u| u.href())
}

fn click_input(id: &str) {
    if let Some(input) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        input.click();
    }
}

fn click_dir_input() {
    click_input("dir-input");
}

/// Asks for the comparison folder (the picker, else the comparison's webkitdirectory input)
/// and opens it beside the folder.
fn open_comparison_with_picker(client: WorkerClient) {
    if !folder::has_directory_picker() {
        click_input("compare-dir-input");
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        match folder::pick_and_walk().await {
            Ok(Some(walked)) => client.open_folder_as_comparison(walked.label, walked.entries, &walked.files),
            Ok(None) => {}
            Err(_) => click_input("compare-dir-input"),
        }
    });
}

/// Opens a walked folder and remembers its name.
fn open_walked(client: WorkerClient, prefs: Settings, walked: Walked) {
    prefs.remember_folder(&walked.label);
    client.open_folder(walked.label, walked.entries, &walked.files);
}

fn open_with_picker(client: WorkerClient, prefs: Settings) {
    if !folder::has_directory_picker() {
        click_dir_input();
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        match folder::pick_and_walk().await {
            Ok(Some(walked)) => open_walked(client, prefs, walked),
            Ok(None) => {}
            // E.g. a cross-origin iframe forbids the picker: fall back to the input.
            Err(_) => click_dir_input(),
        }
    });
}

pub fn on_drag_over(ev: &web_sys::DragEvent) {
    ev.prevent_default();
}

pub fn on_drop(client: WorkerClient, session: Session, prefs: Settings, ev: &web_sys::DragEvent) {
    ev.prevent_default();
    let Some(transfer) = ev.data_transfer() else { return };
    wasm_bindgen_futures::spawn_local(async move {
        match folder::walk_drop(&transfer).await {
            Ok(walked) if !walked.entries.is_empty() => open_walked(client, prefs, walked),
            Ok(_) => session.problem(tr("app-drop-no-files")),
            Err(message) => session.problem(tr_with("app-drop-unreadable", &[("message", Arg::from(message))])),
        }
    });
}

/// `navigator.clipboard.writeText(text)`'s promise, when the browser has it.
fn clipboard_write(text: &str) -> Option<js_sys::Promise> {
    let navigator = web_sys::window()?.navigator();
    let clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into()).ok().filter(|c| !c.is_undefined() && !c.is_null())?;
    let write = js_sys::Reflect::get(&clipboard, &"writeText".into()).ok()?.dyn_into::<js_sys::Function>().ok()?;
    write.call1(&clipboard, &text.into()).ok()?.dyn_into::<js_sys::Promise>().ok()
}

/// The old way: a selected off-screen text area and `document.execCommand("copy")`.
fn copy_with_text_area(text: &str) -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return false };
    let Some(area) = document.create_element("textarea").ok().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) else {
        return false;
    };
    area.set_text_content(Some(text));
    let _ = area.set_attribute("style", "position:fixed;left:-9999px;top:0");
    let Some(body) = document.body() else { return false };
    if body.append_child(&area).is_err() {
        return false;
    }
    let select = js_sys::Reflect::get(&area, &"select".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let _ = select.map(|f| f.call0(&area));
    let exec = js_sys::Reflect::get(&document, &"execCommand".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let copied = exec.and_then(|f| f.call1(&document, &"copy".into()).ok()).is_some_and(|v| v.as_bool() == Some(true));
    area.remove();
    copied
}

/// Copies the page's address (the link to what is shown) and says how it went in `note`.
fn copy_link(note: RwSignal<Option<&'static str>>, clear: Delay) {
    let Some(href) = web_sys::window().and_then(|w| w.location().href().ok()) else { return };
    let done = move |ok: bool| {
        note.set(Some(if ok { "app-link-copied" } else { "app-link-copy-failed" }));
        clear.schedule(move || note.set(None));
    };
    match clipboard_write(&href) {
        Some(promise) => wasm_bindgen_futures::spawn_local(async move {
            let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok() || copy_with_text_area(&href);
            done(ok);
        }),
        None => done(copy_with_text_area(&href)),
    }
}

/// The theme switch's words for a choice.
fn theme_label(t: Theme) -> String {
    tr(match t {
        Theme::System => "app-theme-system",
        Theme::Light => "app-theme-light",
        Theme::Dark => "app-theme-dark",
    })
}

#[component]
pub fn Toolbar() -> impl IntoView {
    let (session, client, nav, prefs) = (Session::get(), WorkerClient::get(), Nav::get(), Settings::get());
    let copied = RwSignal::new(None::<&'static str>);
    let clear_copied = Delay::new(COPIED_NOTE_MS);
    let on_input_change = move |ev: web_sys::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        if let Some(list) = input.files() {
            let walked = folder::walk_file_list(&list);
            if !walked.entries.is_empty() {
                open_walked(client, prefs, walked);
            }
        }
        input.set_value("");
    };
    let on_compare_input_change = move |ev: web_sys::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        if let Some(list) = input.files() {
            let walked = folder::walk_file_list(&list);
            if !walked.entries.is_empty() {
                client.open_folder_as_comparison(walked.label, walked.entries, &walked.files);
            }
        }
        input.set_value("");
    };
    // A comparison source sits beside an opened folder, once that has loaded.
    let can_compare = move || !session.source_label.with(String::is_empty) && session.load.get() != crate::session::LoadState::Loading;
    view! {
        <header class="toolbar">
            <h1 class="brand">{t("app-brand")}</h1>
            <button id="open-folder" title=t("app-open-folder-title")
                on:click=move |_| open_with_picker(client, prefs)>{t("app-open-folder")}</button>
            <input id="dir-input" type="file" class="hidden-input" prop:webkitdirectory=true multiple
                on:change=on_input_change/>
            <button id="open-compare-folder" data-testid="open-compare-folder" disabled=move || !can_compare()
                title=t("app-compare-folder-title")
                on:click=move |_| open_comparison_with_picker(client)>{t("app-compare-folder")}</button>
            <input id="compare-dir-input" type="file" class="hidden-input" prop:webkitdirectory=true multiple
                on:change=on_compare_input_change/>
            <button id="open-demo" on:click=move |_| client.open_url(resolve(DEMO_URL))>{t("app-open-demo")}</button>
            <span class="hint">{t("app-drop-hint")}</span>
            <span class="spacer"></span>
            <Show when=move || nav.datasets.with(|d| !d.is_empty())>
                <button id="copy-link" data-testid="copy-link" title=t("app-copy-link-title")
                    on:click=move |_| copy_link(copied, clear_copied)>{t("app-copy-link")}</button>
            </Show>
            {move || copied.get().map(|note| view! { <span class="copy-note" data-testid="copy-link-status" role="status">{t(note)}</span> })}
            <crate::progress::LoadProgressBar/>
            <span class="source">{move || session.source_label.get()}</span>
            {move || session.comparison_label.get().map(|label| view! {
                <span class="source comparison-source" data-testid="comparison-source" title={let l = label.clone(); move || tr_with("app-compared-with", &[("label", Arg::from(&l))])}>
                    {format!("⇄ {}", crate::session::short_label(&label))}</span>
            })}
            <label class="theme-switch" title=t("app-theme-title")>
                <span class="theme-switch-label">{t("app-theme")}</span>
                <select id="theme-switch" data-testid="theme-switch"
                    on:change=move |ev| {
                        if let Some(t) = Theme::parse(&event_target_value(&ev)) {
                            prefs.theme.set(t);
                        }
                    }
                    prop:value=move || prefs.theme.get().key()>
                    {Theme::ALL.map(|t| view! {
                        <option value=t.key() selected=move || prefs.theme.get() == t>{move || theme_label(t)}</option>
                    })}
                </select>
            </label>
            <span id="worker-status" data-state=move || session.worker.get().as_str()
                title=t("app-worker-title")>{move || tr_with("app-worker-state", &[("state", Arg::from(session.worker.get().as_str()))])}</span>
            <select id="language" data-testid="language-switch" aria-label=t("app-language")
                on:change=move |ev| if let Some(l) = Language::parse(&event_target_value(&ev)) { prefs.language.set(l) }>
                <option value="en" selected=move || prefs.language.get() == Language::English>{t("app-language-english")}</option>
                <option value="zh-CN" selected=move || prefs.language.get() == Language::Chinese>{t("app-language-chinese")}</option>
            </select>
        </header>
    }
}
