//! The embedding API, for a docs portal that shows the viewer in an iframe.
//!
//! - `?embed=1`: one view, without the top bar and the sidebar; a slim [`EmbedBar`] with the
//!   load state and an "open full viewer" link (this URL without `embed`, in a new tab).
//! - `?view=<ViewKind key>&dataset=<dataset path>&task=<task id>`: what to show once the
//!   folder (`?src=`) has loaded; `?theme=dark` (or `light`, `system`), `?lang=zh`: the settings to start with.
//! - `?allowOrigin=<origin>` (several: comma-separated or repeated): the pages that may drive
//!   the viewer through `postMessage` ([`protocol`]: `open`, `navigate`, `setTheme`,
//!   `setLanguage`) and that receive its events (`ready`, `loaded`, `selection`, `error`). None
//!   declared: no message is taken and no event posted; events never go to `"*"`, only to the
//!   embedding page's origin when it is declared (`location.ancestorOrigins`, else the
//!   referrer; when neither says, to every declared origin, which the browser filters).
//!   Anything else — another origin, a malformed or unknown message — is ignored with a
//!   console warning (and, for a declared origin, an `error` event of kind `message`).
//!
//! Part of the page's core: it drives the page only through `nav` commands, `session` and
//! `settings`, and knows the view registry through the [`Registry`] `App` hands it.

pub mod protocol;

use crate::i18n::t;
use leptos::prelude::*;
use pypto_protocol::{TimelineView, ViewKind};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

use crate::nav::{Focus, Nav};
use crate::session::{DatasetRow, LoadState, Session};
use crate::settings::{Language, Settings, Theme};
use crate::worker_client::WorkerClient;
use protocol::{ErrorKind, ErrorPlace, HostMessage, LoadedDataset, Navigate, Rejected};

/// What the embedding API needs of the view registry (which the core may not import).
#[derive(Clone, Copy)]
pub struct Registry {
    /// The views that can show a dataset.
    pub available: fn(&DatasetRow) -> Vec<ViewKind>,
    /// The view that shows a dataset when `asked` is asked for.
    pub resolve: fn(&DatasetRow, Option<ViewKind>) -> Option<ViewKind>,
}

#[derive(Default)]
struct State {
    /// The declared origins (`?allowOrigin=`), normalised.
    allowed: Vec<String>,
    /// Where events go (see the module doc).
    targets: Vec<String>,
    listener: Option<gloo::events::EventListener>,
    /// A navigation to carry out once the folder has loaded (the start parameters, or a
    /// `navigate` that came while loading).
    pending: Option<Navigate>,
    /// A URL the host opened (the full viewer's `src`).
    opened: Option<String>,
    /// How many of the session's file errors and problems were posted.
    posted_file_errors: usize,
    posted_problems: usize,
    /// The last `selection` posted.
    last_selection: Option<Value>,
}

/// The embedding API: a `Copy` handle (provided by `App`).
#[derive(Clone, Copy)]
pub struct Embed {
    /// `?embed=1`: no top bar, no sidebar.
    pub embedded: bool,
    state: StoredValue<State, LocalStorage>,
    session: Session,
    nav: Nav,
    client: WorkerClient,
    settings: Settings,
    registry: Registry,
}

fn warn(message: &str) {
    web_sys::console::warn_1(&JsValue::from_str(&format!("pypto-viewer embedding: {message}")));
}

fn location_href() -> Option<String> {
    web_sys::window()?.location().href().ok()
}

fn params() -> Option<web_sys::UrlSearchParams> {
    Some(web_sys::Url::new(&location_href()?).ok()?.search_params())
}

/// Every value of the query parameter `name`.
fn param_all(name: &str) -> Vec<String> {
    params().map(|p| p.get_all(name).iter().filter_map(|v| v.as_string()).collect()).unwrap_or_default()
}

fn param(name: &str) -> Option<String> {
    params()?.get(name)
}

/// The window that embeds this page (`None`: not in a frame).
fn parent_window() -> Option<web_sys::Window> {
    let window = web_sys::window()?;
    let parent = window.parent().ok()??;
    (!js_sys::Object::is(&parent, &window)).then_some(parent)
}

/// The embedding page's origin when the browser says it: `location.ancestorOrigins[0]`
/// (Chromium, Safari), else the referrer's origin.
fn parent_origin() -> Option<String> {
    let window = web_sys::window()?;
    let ancestors = js_sys::Reflect::get(&window.location(), &JsValue::from_str("ancestorOrigins")).ok()?;
    if !ancestors.is_undefined() && !ancestors.is_null() {
        if let Some(first) = js_sys::Reflect::get(&ancestors, &JsValue::from_f64(0.0)).ok().and_then(|v| v.as_string()) {
            return Some(first);
        }
    }
    let referrer = window.document()?.referrer();
    (!referrer.is_empty()).then(|| web_sys::Url::new(&referrer).ok().map(|u| u.origin())).flatten()
}

/// Which declared origins events go to.
fn event_targets(allowed: &[String]) -> Vec<String> {
    if allowed.is_empty() || parent_window().is_none() {
        return Vec::new();
    }
    match parent_origin().and_then(|o| protocol::normalize_origin(&o)) {
        Some(parent) if allowed.contains(&parent) => vec![parent],
        Some(parent) => {
            warn(&format!(
                "the embedding page's origin {parent} is not among ?allowOrigin= ({}): no events are posted",
                allowed.join(", ")
            ));
            Vec::new()
        }
        None => allowed.to_vec(),
    }
}

fn to_js(value: &Value) -> JsValue {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap_or(JsValue::NULL)
}

impl Embed {
    /// Reads the page's parameters, listens for the host's messages and posts `ready`.
    pub fn start(session: Session, nav: Nav, client: WorkerClient, settings: Settings, registry: Registry) -> Self {
        let embedded = param("embed").is_some_and(|v| matches!(v.as_str(), "1" | "true" | "yes"));
        let (allowed, refused) = protocol::allowed_origins(&param_all("allowOrigin"));
        for value in &refused {
            warn(&format!("?allowOrigin={value} is not an origin (https://host[:port]); ignored"));
        }
        let targets = event_targets(&allowed);
        let embed = Self {
            embedded,
            state: StoredValue::new_local(State { allowed, targets, ..State::default() }),
            session,
            nav,
            client,
            settings,
            registry,
        };
        embed.read_start_parameters();
        if let Some(window) = web_sys::window() {
            let listener = gloo::events::EventListener::new(&window, "message", move |event| {
                if let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() {
                    embed.on_message(event);
                }
            });
            embed.state.update_value(|s| s.listener = Some(listener));
        }
        embed.watch();
        embed.post(&protocol::ready(env!("CARGO_PKG_VERSION"), embedded));
        embed
    }

    /// The page's embedding API (provided by `App`).
    pub fn get() -> Self {
        expect_context::<Self>()
    }

    /// `?theme=`, `?lang=` and the navigation of `?view=&dataset=&task=`.
    fn read_start_parameters(self) {
        if let Some(theme) = param("theme") {
            match Theme::parse(&theme) {
                Some(t) => self.settings.theme.set(t),
                None => warn(&format!("?theme={theme} is not light, dark or system; ignored")),
            }
        }
        if let Some(lang) = param("lang") {
            match Language::parse(&lang) {
                Some(l) => self.settings.language.set(l),
                None => warn(&format!("?lang={lang} is not en or zh; ignored")),
            }
        }
        let (view, dataset, task) = (param("view"), param("dataset"), param("task"));
        match protocol::navigate_from_query(view.as_deref(), dataset.as_deref(), task.as_deref()) {
            Ok(pending) => self.state.update_value(|s| s.pending = pending),
            Err(why) => warn(&format!("the start parameters are ignored: {why}")),
        }
    }

    /// Events follow the session and nav.
    fn watch(self) {
        let (session, nav) = (self.session, self.nav);
        Effect::watch(
            move || session.load.get(),
            move |load, before, _| {
                if *load == LoadState::Done && before != Some(&LoadState::Done) {
                    self.on_loaded();
                }
            },
            false,
        );
        Effect::watch(move || session.file_errors.with(Vec::len), move |_, _, _| self.post_new_errors(), false);
        Effect::watch(move || session.errors.with(Vec::len), move |_, _, _| self.post_new_errors(), false);
        Effect::watch(
            move || session.crash.get(),
            move |crash, _, _| {
                if let Some(message) = crash {
                    self.post(&protocol::error(ErrorKind::Crash, message, None));
                }
            },
            false,
        );
        Effect::watch(
            move || nav.selected.get(),
            move |selected, _, _| {
                let first = nav.datasets.with_untracked(|d| d.first().copied());
                let shown = first
                    .and_then(|id| session.with_row(id, |r| (r.info.path.clone(), (self.registry.resolve)(r, nav.view.get_untracked()))));
                let (path, view) = shown.map_or((None, None), |(p, v)| (Some(p), v));
                let event = protocol::selection(path.as_deref(), view, selected.as_ref());
                // Once per change (a view may report the same selection again); a cleared
                // selection only after a selection.
                let fresh = self.state.try_update_value(|s| {
                    let was_selected = s.last_selection.as_ref().is_some_and(|e| e["selected"] == Value::Bool(true));
                    let changed = s.last_selection.as_ref() != Some(&event) && (selected.is_some() || was_selected);
                    if changed {
                        s.last_selection = Some(event.clone());
                    }
                    changed
                });
                if fresh == Some(true) {
                    self.post(&event);
                }
            },
            false,
        );
    }

    /// Posts `event` to the embedding page (when its origin is declared).
    fn post(self, event: &Value) {
        let targets = self.state.with_value(|s| s.targets.clone());
        let Some(parent) = parent_window().filter(|_| !targets.is_empty()) else { return };
        let message = to_js(event);
        for origin in &targets {
            if let Err(err) = parent.post_message(&message, origin) {
                web_sys::console::warn_2(&JsValue::from_str("pypto-viewer embedding: postMessage failed"), &err);
            }
        }
    }

    fn on_message(self, event: &web_sys::MessageEvent) {
        let origin = event.origin();
        let allowed = self.state.with_value(|s| s.allowed.clone());
        if !allowed.contains(&origin) {
            let declared = if allowed.is_empty() { "none declared".to_owned() } else { allowed.join(", ") };
            return warn(&format!("ignored a message from {origin}: not an origin ?allowOrigin= declares ({declared})"));
        }
        let value = serde_wasm_bindgen::from_value::<Value>(event.data()).map_err(|_| Rejected::NotAnObject);
        match value.and_then(|v| protocol::parse(&v)) {
            Ok(message) => self.handle(message),
            Err(why) => {
                warn(&format!("ignored a message from {origin}: {why}"));
                self.post(&protocol::error(ErrorKind::Message, &format!("message ignored: {why}"), None));
            }
        }
    }

    fn handle(self, message: HostMessage) {
        match message {
            HostMessage::Open { url } => {
                let resolved = location_href().and_then(|href| web_sys::Url::new_with_base(&url, &href).ok()).map(|u| u.href());
                let Some(url) = resolved else {
                    return self.refuse(ErrorKind::Message, &format!("open: {url:?} is not a URL"));
                };
                self.state.update_value(|s| {
                    s.pending = None;
                    s.opened = Some(url.clone());
                });
                self.client.open_url(url);
            }
            HostMessage::Navigate(navigate) => {
                if self.session.load.get_untracked() == LoadState::Done {
                    self.navigate(&navigate);
                } else {
                    self.state.update_value(|s| s.pending = Some(navigate));
                }
            }
            HostMessage::SetTheme(theme) => self.settings.theme.set(theme),
            HostMessage::SetLanguage(language) => self.settings.language.set(language),
        }
    }

    fn refuse(self, kind: ErrorKind, message: &str) {
        warn(message);
        self.post(&protocol::error(kind, message, None));
    }

    /// The folder has loaded: `loaded`, then the pending navigation.
    fn on_loaded(self) {
        let (session, available) = (self.session, self.registry.available);
        let datasets: Vec<LoadedDataset> = session.datasets.with_untracked(|rows| {
            rows.iter()
                .map(|r| LoadedDataset {
                    path: r.info.path.clone(),
                    kind: r.kind().attr(),
                    views: available(r),
                    tasks: r.summary.as_ref().and_then(|s| s.records.as_ref()).map(|rec| rec.task_count),
                    file_errors: r.summary.as_ref().map_or(0, |s| s.errors.len()),
                })
                .collect()
        });
        let file_errors = session.file_errors.with_untracked(Vec::len);
        let problems = session.errors.with_untracked(Vec::len);
        self.post(&protocol::loaded(&session.source_label.get_untracked(), &datasets, file_errors, problems));
        if let Some(navigate) = self.state.try_update_value(|s| s.pending.take()).flatten() {
            // What the page's link names first (nav does the same when it sees the load end),
            // so that a navigation to the same dataset keeps its window and selection.
            self.nav.restore_or_default(session);
            self.navigate(&navigate);
        }
    }

    /// File errors and problems not posted yet (a new open starts the count again).
    fn post_new_errors(self) {
        let session = self.session;
        let errors = session.file_errors.get_untracked();
        let problems = session.errors.get_untracked();
        let (from_errors, from_problems) = self.state.with_value(|s| {
            let e = if s.posted_file_errors > errors.len() { 0 } else { s.posted_file_errors };
            let p = if s.posted_problems > problems.len() { 0 } else { s.posted_problems };
            (e, p)
        });
        for e in errors.iter().skip(from_errors) {
            let place = ErrorPlace { path: e.path.clone(), line: e.line, column: e.column };
            self.post(&protocol::error(ErrorKind::File, &e.message, Some(&place)));
        }
        for message in problems.iter().skip(from_problems) {
            self.post(&protocol::error(ErrorKind::Problem, message, None));
        }
        self.state.update_value(|s| {
            s.posted_file_errors = errors.len();
            s.posted_problems = problems.len();
        });
    }

    /// Carries out a navigation, or refuses it whole (an `error` of kind `navigate`) when it
    /// names a dataset or view that is not there.
    fn navigate(self, navigate: &Navigate) {
        let (session, nav) = (self.session, self.nav);
        let id = match &navigate.dataset {
            Some(path) => session.dataset_by_path(path),
            None => nav.datasets.with_untracked(|d| d.first().copied()),
        };
        let Some(id) = id else {
            let message = match &navigate.dataset {
                Some(path) => {
                    let known: Vec<String> =
                        session.datasets.with_untracked(|rows| rows.iter().map(|r| format!("{:?}", r.info.path)).collect());
                    format!("navigate: no dataset at path {path:?} (there are {})", known.join(", "))
                }
                None => "navigate: no dataset is shown; name one by its path".to_owned(),
            };
            return self.refuse(ErrorKind::Navigate, &message);
        };
        if let Some(view) = navigate.view {
            if session.with_row(id, |r| (self.registry.available)(r).contains(&view)) != Some(true) {
                let path = session.with_row(id, |r| r.info.path.clone()).unwrap_or_default();
                return self.refuse(ErrorKind::Navigate, &format!("navigate: dataset {path:?} has no {:?} view", view.key()));
            }
        }
        if navigate.dataset.is_some() {
            nav.show_dataset(session, id);
        }
        if let Some((t0, t1)) = navigate.window_us {
            nav.show_window(t0, t1);
        }
        let focus = navigate.task.map(|task| Focus::Task { task, view: TimelineView::Worker, core: None, search_if_missing: true });
        match (navigate.view, focus) {
            (Some(view), Some(focus)) => nav.show_with(view, focus),
            (Some(view), None) => nav.show(view),
            (None, Some(focus)) => nav.focus(focus),
            (None, None) => {}
        }
    }

    /// This page's URL for the full viewer: without `embed` and `allowOrigin`, with the URL the
    /// host opened as `src` and the shown dataset and view as `dataset` and `view` (the hash,
    /// which holds the rest of the view, is kept).
    fn full_viewer_url(self) -> Option<String> {
        let url = web_sys::Url::new(&location_href()?).ok()?;
        let params = url.search_params();
        for name in ["embed", "allowOrigin", "task"] {
            params.delete(name);
        }
        if let Some(src) = self.state.with_value(|s| s.opened.clone()) {
            params.set("src", &src);
        }
        let nav = self.nav;
        if let Some(id) = nav.dataset() {
            let shown = self.session.with_row(id, |r| (r.info.path.clone(), (self.registry.resolve)(r, nav.view.get())));
            if let Some((path, view)) = shown {
                params.set("dataset", &path);
                match view {
                    Some(view) => params.set("view", view.key()),
                    None => params.delete("view"),
                }
            }
        }
        Some(url.href())
    }
}

/// The slim bar of the embedded viewer: what is loading or wrong, and the full viewer's link.
#[component]
pub fn EmbedBar() -> impl IntoView {
    let (session, embed) = (Session::get(), Embed::get());
    let href = move || {
        // Follows what is shown; the hash (not a signal) is read again on click.
        session.source_label.track();
        embed.nav.datasets.track();
        embed.nav.view.track();
        embed.full_viewer_url().unwrap_or_default()
    };
    let status = move || {
        let problems = session.file_errors.with(Vec::len) + session.errors.with(Vec::len);
        match (session.progress.get(), session.load.get()) {
            (Some(progress), _) => progress.text(),
            (None, LoadState::Loading) => "loading…".to_owned(),
            _ if session.crash.with(Option::is_some) => "the analysis worker crashed".to_owned(),
            _ if problems > 0 => format!("⚠ {problems} problem{}", if problems == 1 { "" } else { "s" }),
            _ => String::new(),
        }
    };
    let problems_title = move || {
        let mut lines: Vec<String> = session.file_errors.with(|e| e.iter().map(|e| format!("{}: {}", e.path, e.message)).collect());
        lines.extend(session.errors.get());
        lines.join("\n")
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        let anchor = ev.current_target().and_then(|t| t.dyn_into::<web_sys::HtmlAnchorElement>().ok());
        if let (Some(anchor), Some(url)) = (anchor, embed.full_viewer_url()) {
            anchor.set_href(&url);
        }
    };
    view! {
        <div class="embed-bar" data-testid="embed-bar">
            <span class="embed-status" title=problems_title>{status}</span>
            <span class="spacer"></span>
            <a class="open-full-viewer" data-testid="open-full-viewer" href=href target="_blank" rel="noopener" on:click=on_click
                title=t("app-open-this-view-in-the")>{t("app-open-full-viewer")}</a>
        </div>
    }
}
