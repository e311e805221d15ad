//! The page's side of the worker protocol, for every part of the page: starts the analysis
//! worker (and restarts it when it crashes), opens folders and hosted datasets, and answers
//! [`WorkerClient::ask`] — a typed request (`pypto_protocol::Request`) sent with a request id,
//! its future resolved with that request's reply type when the reply with the same id comes.
//!
//! A part asks through a [`Slot`] when only its newest question matters (a bar's details, a
//! search, a layout): a newer ask in the same slot drops the older one's answer, here, in one
//! place. Opening a folder or a crash drops every pending answer. Messages nobody asked for
//! (progress, datasets, load finished, crash) go to the `session`. The client knows nothing of
//! views.
//!
//! An ask posts its request when it is called, not when its future is first polled: call it
//! in the handler and move the future into `spawn_local`, so the request does not wait behind
//! the effects the handler's signal changes queued (a click's details are on their way while
//! the page renders its preview).

use std::collections::HashMap;
use std::future::Future;
use std::rc::Rc;

use futures_channel::oneshot;
use leptos::prelude::*;
use pypto_protocol::datasets::{Cancel, EntryMeta, OpenFolder, OpenUrl, CANCELLED};
use pypto_protocol::{envelope, FromWorker, Request, RequestId, ToWorker};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::session::{Session, WorkerState};

/// Module-worker entry written by Trunk's loader shim (relative: works under any sub-path).
const WORKER_URL: &str = "./pypto-worker_loader.js";

/// Why an ask has no reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorkerError {
    /// The worker answered with an error (also shown in the sidebar's problems).
    Failed(String),
    /// The user cancelled the work (the progress bar's Cancel): no problem to list.
    Cancelled,
    /// A newer ask in the same slot, another folder, or the asking part went away.
    Superseded,
    /// The worker crashed (it is being restarted).
    Crashed,
    /// The worker answered with a message of another type.
    Unexpected(String),
}

/// A part's slot for one kind of question: a newer ask in it supersedes the older one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot(u32);

/// A reply's message and the columns (named typed arrays) beside it.
type Answer = Result<(FromWorker, JsValue), WorkerError>;

/// Called with each partial reply of an ask.
type OnPartial = Rc<dyn Fn(FromWorker)>;

struct Pending {
    slot: Option<Slot>,
    done: oneshot::Sender<Answer>,
    partial: Option<OnPartial>,
}

/// What was opened last, so a crashed worker can be given the folder again.
#[derive(Clone)]
enum LastOpen {
    Folder { label: String, entries: Vec<EntryMeta>, files: js_sys::Array },
    Url(String),
}

#[derive(Default)]
struct Inner {
    worker: Option<web_sys::Worker>,
    /// The worker's `message` and `error` listeners (dropped with it).
    listeners: Vec<gloo::events::EventListener>,
    /// The replaced (crashed) worker's quiet `error` listener: errors it raised before it was
    /// terminated may still arrive, and are the crash already reported, not page errors.
    retired: Option<gloo::events::EventListener>,
    ready: bool,
    /// The worker crashed and is being replaced.
    crashed: bool,
    /// Envelopes posted before the worker said `ready` (its wasm was still loading).
    queued: Vec<js_sys::Object>,
    last_open: Option<LastOpen>,
    /// The comparison source opened beside it, if any.
    last_comparison: Option<LastOpen>,
    /// The worker's read stall timeout, sent with every open (`None`: the worker's 30 s).
    stall_timeout_ms: Option<u32>,
    next_id: RequestId,
    next_slot: u32,
    pending: HashMap<RequestId, Pending>,
}

/// The page's worker client: a `Copy` handle (provided by `App` as a context).
#[derive(Clone, Copy)]
pub struct WorkerClient {
    inner: StoredValue<Inner, LocalStorage>,
    session: Session,
}

fn to_js<T: Serialize>(value: &T) -> JsValue {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap_or(JsValue::NULL)
}

fn set(object: &js_sys::Object, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(object, &JsValue::from_str(key), value);
}

fn get(object: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// The analysis worker `boot.js` started beside the page's wasm, so that its wasm's fetch and
/// compile overlap the page's (`globalThis.__pyptoEarlyWorker`: `{ worker, take() }`, `take`
/// returning the `message` and `error` events it kept until now, and keeping no more); taken
/// once — a restarted worker is the page's own.
fn take_early_worker() -> Option<(web_sys::Worker, Vec<web_sys::Event>)> {
    let key = JsValue::from_str("__pyptoEarlyWorker");
    let early = js_sys::Reflect::get(&js_sys::global(), &key).ok().filter(JsValue::is_object)?;
    let _ = js_sys::Reflect::set(&js_sys::global(), &key, &JsValue::NULL);
    let worker = get(&early, "worker").dyn_into::<web_sys::Worker>().ok()?;
    let take = get(&early, "take").dyn_into::<js_sys::Function>().ok()?;
    let said = take.call0(&early).ok()?.dyn_into::<js_sys::Array>().ok()?;
    Some((worker, said.iter().filter_map(|e| e.dyn_into::<web_sys::Event>().ok()).collect()))
}

/// Builds the envelope `{ id?, msg, files? }` of a request (files are `File`s or URL strings).
pub fn encode_request(msg: &ToWorker, id: Option<RequestId>, files: Option<&js_sys::Array>) -> js_sys::Object {
    let out = js_sys::Object::new();
    set(&out, envelope::MSG, &to_js(msg));
    if let Some(id) = id {
        set(&out, envelope::ID, &JsValue::from(id));
    }
    if let Some(files) = files {
        set(&out, envelope::FILES, files);
    }
    out
}

/// Reads a reply envelope `{ id?, msg, columns?, partial? }`: its id, message, columns and
/// whether it is partial.
pub fn decode_reply(data: &JsValue) -> Result<(Option<RequestId>, FromWorker, JsValue, bool), String> {
    let msg = serde_wasm_bindgen::from_value(get(data, envelope::MSG)).map_err(|e| format!("unreadable worker reply: {e}"))?;
    let id = get(data, envelope::ID).as_f64().map(|v| v as RequestId);
    let partial = get(data, envelope::PARTIAL).as_bool().unwrap_or(false);
    Ok((id, msg, get(data, envelope::COLUMNS), partial))
}

impl WorkerClient {
    /// Starts the worker; its announcements go to `session`.
    pub fn start(session: Session) -> Self {
        let client = Self { inner: StoredValue::new_local(Inner::default()), session };
        client.spawn_worker();
        client
    }

    /// Sets the stall timeout the worker's reads use from the next open on (the page's
    /// `?stall_ms=`, for tests; `None`: the worker's default, 30 s).
    pub fn set_stall_timeout_ms(self, stall_timeout_ms: Option<u32>) {
        self.inner.update_value(|c| c.stall_timeout_ms = stall_timeout_ms);
    }

    fn stall_timeout_ms(self) -> Option<u32> {
        self.inner.try_with_value(|c| c.stall_timeout_ms).flatten()
    }

    /// The client of the page (provided by `App`).
    pub fn get() -> Self {
        expect_context::<Self>()
    }

    /// Starts (or restarts) the worker: the first time, adopts the one `boot.js` started
    /// beside the page's wasm ([`take_early_worker`]) and handles what it said meanwhile.
    fn spawn_worker(self) {
        let early = take_early_worker();
        let (worker, said) = if let Some(early) = early {
            early
        } else {
            let options = web_sys::WorkerOptions::new();
            options.set_type(web_sys::WorkerType::Module);
            match web_sys::Worker::new_with_options(WORKER_URL, &options) {
                Ok(worker) => (worker, Vec::new()),
                Err(err) => {
                    return self
                        .session
                        .problem(crate::i18n::tr_with("app-worker-start-failed", &[("error", crate::i18n::Arg::from(format!("{err:?}")))]))
                }
            }
        };
        let on_message = gloo::events::EventListener::new(&worker, "message", move |event| {
            if let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() {
                self.on_message(&event.data());
            }
        });
        let options = gloo::events::EventListenerOptions::enable_prevent_default();
        let on_error = gloo::events::EventListener::new_with_options(&worker, "error", options, move |event| {
            event.prevent_default();
            let message = event.dyn_ref::<web_sys::ErrorEvent>().map(web_sys::ErrorEvent::message).unwrap_or_default();
            self.crashed(if message.is_empty() { "the analysis worker stopped unexpectedly".to_owned() } else { message });
        });
        let old = self.inner.try_update_value(|c| {
            let old = c.worker.replace(worker);
            c.listeners = vec![on_message, on_error];
            c.ready = false;
            c.crashed = false;
            c.queued.clear();
            old
        });
        if let Some(Some(old)) = old {
            old.terminate();
            let options = gloo::events::EventListenerOptions::enable_prevent_default();
            let quiet = gloo::events::EventListener::new_with_options(&old, "error", options, web_sys::Event::prevent_default);
            self.inner.update_value(|c| c.retired = Some(quiet));
        }
        if !said.is_empty() {
            // Handled as they came, before anything the worker says from now on (a microtask
            // runs before the next message's task), once the page's start has returned.
            wasm_bindgen_futures::spawn_local(async move {
                for event in said {
                    if let Some(message) = event.dyn_ref::<web_sys::MessageEvent>() {
                        self.on_message(&message.data());
                    } else {
                        let text = event.dyn_ref::<web_sys::ErrorEvent>().map(web_sys::ErrorEvent::message).unwrap_or_default();
                        self.crashed(if text.is_empty() { "the analysis worker stopped unexpectedly".to_owned() } else { text });
                    }
                }
            });
        }
    }

    /// Posts `msg` (queued until the worker is ready) as request `id`.
    fn post(self, msg: &ToWorker, id: Option<RequestId>, files: Option<&js_sys::Array>) {
        let envelope = encode_request(msg, id, files);
        let now = self.inner.try_update_value(|c| {
            if c.ready {
                c.worker.clone()
            } else {
                c.queued.push(envelope.clone());
                None
            }
        });
        if let Some(Some(worker)) = now {
            if let Err(err) = worker.post_message(&envelope) {
                web_sys::console::error_2(&JsValue::from_str("postMessage to worker failed"), &err);
            }
        }
    }

    /// A fresh slot for a part's questions; its pending answer is dropped when the calling
    /// component goes away.
    pub fn slot(self) -> Slot {
        let slot = Slot(
            self.inner
                .try_update_value(|c| {
                    c.next_slot += 1;
                    c.next_slot
                })
                .unwrap_or(0),
        );
        on_cleanup(move || self.drop_slot(slot));
        slot
    }

    /// Drops the pending answer of `slot` (its asker gets [`WorkerError::Superseded`]).
    pub fn drop_slot(self, slot: Slot) {
        self.inner.try_update_value(|c| c.pending.retain(|_, p| p.slot != Some(slot)));
    }

    /// Sends `msg` as a numbered request and returns its answer's receiver; an earlier ask in
    /// `slot` is dropped.
    fn send(self, msg: &ToWorker, slot: Option<Slot>, partial: Option<OnPartial>) -> oneshot::Receiver<Answer> {
        let (done, answer) = oneshot::channel();
        let id = self.inner.try_update_value(|c| {
            if let Some(slot) = slot {
                c.pending.retain(|_, p| p.slot != Some(slot));
            }
            c.next_id = c.next_id.wrapping_add(1);
            c.pending.insert(c.next_id, Pending { slot, done, partial });
            c.next_id
        });
        self.post(msg, id, None);
        answer
    }

    /// Asks `request`; resolves with its reply.
    pub fn ask<R: Request>(self, request: R) -> impl Future<Output = Result<R::Reply, WorkerError>> {
        let answer = self.send(&request.into_message(), None, None);
        async move { typed::<R>(answer.await).map(|(reply, _)| reply) }
    }

    /// Asks `request` in `slot` (a newer ask there drops this one's answer).
    pub fn ask_in<R: Request>(self, slot: Slot, request: R) -> impl Future<Output = Result<R::Reply, WorkerError>> {
        let answer = self.send(&request.into_message(), Some(slot), None);
        async move { typed::<R>(answer.await).map(|(reply, _)| reply) }
    }

    /// Asks `request` in `slot`; resolves with its reply and the columns beside it.
    pub fn ask_columns<R: Request>(self, slot: Slot, request: R) -> impl Future<Output = Result<(R::Reply, JsValue), WorkerError>> {
        let answer = self.send(&request.into_message(), Some(slot), None);
        async move { typed::<R>(answer.await) }
    }

    /// Asks `request` in `slot`; `on_partial` gets each partial reply before the final one.
    pub fn ask_progressive<R: Request + 'static>(
        self,
        slot: Slot,
        request: R,
        on_partial: impl Fn(R::Reply) + 'static,
    ) -> impl Future<Output = Result<R::Reply, WorkerError>> {
        let partial: OnPartial = Rc::new(move |msg| {
            if let Ok(reply) = R::reply_of(msg) {
                on_partial(reply);
            }
        });
        let answer = self.send(&request.into_message(), Some(slot), Some(partial));
        async move { typed::<R>(answer.await).map(|(reply, _)| reply) }
    }

    /// Opens a folder's entries (their `File`s in the same order).
    pub fn open_folder(self, label: String, entries: Vec<EntryMeta>, files: &js_sys::Array) {
        self.begin_open(&label, LastOpen::Folder { label: label.clone(), entries: entries.clone(), files: files.clone() });
        let stall_timeout_ms = self.stall_timeout_ms();
        let open = OpenFolder { source_label: label, entries, stall_timeout_ms, as_comparison: false };
        self.post(&ToWorker::OpenFolder(open), None, Some(files));
    }

    /// Opens a hosted dataset by its manifest or directory URL.
    pub fn open_url(self, url: String) {
        self.begin_open(&url, LastOpen::Url(url.clone()));
        let stall_timeout_ms = self.stall_timeout_ms();
        self.post(&ToWorker::OpenUrl(OpenUrl { url, stall_timeout_ms, as_comparison: false }), None, None);
    }

    /// Opens a folder's entries beside the opened folder as the comparison source (the runs to
    /// compare with), replacing the previous one.
    pub fn open_folder_as_comparison(self, label: String, entries: Vec<EntryMeta>, files: &js_sys::Array) {
        self.begin_comparison(&label, LastOpen::Folder { label: label.clone(), entries: entries.clone(), files: files.clone() });
        let stall_timeout_ms = self.stall_timeout_ms();
        let open = OpenFolder { source_label: label, entries, stall_timeout_ms, as_comparison: true };
        self.post(&ToWorker::OpenFolder(open), None, Some(files));
    }

    /// Opens a hosted dataset beside the opened folder as the comparison source.
    pub fn open_url_as_comparison(self, url: String) {
        self.begin_comparison(&url, LastOpen::Url(url.clone()));
        let stall_timeout_ms = self.stall_timeout_ms();
        self.post(&ToWorker::OpenUrl(OpenUrl { url, stall_timeout_ms, as_comparison: true }), None, None);
    }

    fn begin_open(self, label: &str, last: LastOpen) {
        self.inner.try_update_value(|c| {
            c.last_open = Some(last);
            c.last_comparison = None;
            c.pending.clear();
        });
        self.session.begin_open(label);
    }

    fn begin_comparison(self, label: &str, last: LastOpen) {
        self.inner.try_update_value(|c| c.last_comparison = Some(last));
        self.session.begin_comparison(label);
    }

    /// Opens the last folder again: after a crash (the restarted worker), or to retry reads
    /// that failed.
    pub fn reopen_last(self) {
        let Some((last, comparison)) = self.inner.try_with_value(|c| (c.last_open.clone(), c.last_comparison.clone())) else { return };
        match last {
            Some(LastOpen::Folder { label, entries, files }) => self.open_folder(label, entries, &files),
            Some(LastOpen::Url(url)) => self.open_url(url),
            None => return,
        }
        match comparison {
            Some(LastOpen::Folder { label, entries, files }) => self.open_folder_as_comparison(label, entries, &files),
            Some(LastOpen::Url(url)) => self.open_url_as_comparison(url),
            None => {}
        }
    }

    /// The worker crashed: drop every pending answer, replace the worker, keep the files.
    fn crashed(self, message: String) {
        // The panic message and the error event report the same crash: once.
        let first = self.inner.try_update_value(|c| !std::mem::replace(&mut c.crashed, true)).unwrap_or(false);
        if !first {
            return;
        }
        let pending: Vec<Pending> = self.inner.try_update_value(|c| c.pending.drain().map(|(_, p)| p).collect()).unwrap_or_default();
        for p in pending {
            let _ = p.done.send(Err(WorkerError::Crashed));
        }
        self.session.crash.set(Some(message));
        self.session.stop_loads();
        // We are inside one of the old worker's callbacks: replace it once it has returned.
        wasm_bindgen_futures::spawn_local(async move {
            self.spawn_worker();
            self.session.worker.set(WorkerState::Restarted);
        });
    }

    /// The worker is up: flush the queued requests.
    fn on_ready(self) {
        let flush = self.inner.try_update_value(|c| {
            c.ready = true;
            (c.worker.clone(), std::mem::take(&mut c.queued))
        });
        if let Some((Some(worker), queued)) = flush {
            for envelope in queued {
                if let Err(err) = worker.post_message(&envelope) {
                    web_sys::console::error_2(&JsValue::from_str("postMessage to worker failed"), &err);
                }
            }
        }
        if self.session.worker.get_untracked() == WorkerState::Starting {
            self.session.worker.set(WorkerState::Ready);
        }
    }

    fn on_message(self, data: &JsValue) {
        let (id, msg, columns, partial) = match decode_reply(data) {
            Ok(reply) => reply,
            Err(message) => return self.session.problem(message),
        };
        match (id, msg) {
            (_, FromWorker::Ready) => self.on_ready(),
            (_, FromWorker::Panic { message }) => {
                web_sys::console::error_1(&JsValue::from_str(&format!("analysis worker panicked: {message}")));
                self.crashed(crate::i18n::tr_with("app-worker-crashed", &[("message", crate::i18n::Arg::from(&message))]));
            }
            (Some(id), msg) => self.answer(id, msg, columns, partial),
            (None, msg) => {
                if let Some(other) = self.session.announce(msg) {
                    web_sys::console::warn_1(&JsValue::from_str(&format!("unasked worker reply dropped: {other:?}")));
                }
            }
        }
    }

    /// Settles the ask `id` (nothing when it was dropped meanwhile).
    fn answer(self, id: RequestId, msg: FromWorker, columns: JsValue, partial: bool) {
        if partial {
            let on_partial = self.inner.try_with_value(|c| c.pending.get(&id).and_then(|p| p.partial.clone())).flatten();
            if let Some(on_partial) = on_partial {
                on_partial(msg);
            }
            return;
        }
        let Some(pending) = self.inner.try_update_value(|c| c.pending.remove(&id)).flatten() else { return };
        // The work whose progress was shown (files read again, a layout) is done.
        self.session.progress.set(None);
        let answer = match msg {
            // Work the user cancelled is no problem to list.
            FromWorker::Error { message } if message.ends_with(CANCELLED) => Err(WorkerError::Cancelled),
            FromWorker::Error { message } => {
                self.session.problem(message.clone());
                Err(WorkerError::Failed(message))
            }
            msg => Ok((msg, columns)),
        };
        let _ = pending.done.send(answer);
    }

    /// Stops the worker's long work (the progress bar's Cancel): its load jobs are terminated,
    /// its reads fail; the session ignores the stopped work's progress until the worker says
    /// it stopped (`FromWorker::Cancelled`).
    pub fn cancel(self) {
        self.session.cancelling.set(true);
        self.post(&ToWorker::Cancel(Cancel {}), None, None);
    }

    /// Test hook: `window.__pyptoDebugPanic()` makes the worker panic.
    pub fn install_debug_hook(self) {
        let hook = Closure::<dyn Fn()>::new(move || self.post(&ToWorker::DebugPanic, None, None));
        if let Some(window) = web_sys::window() {
            set(&window, "__pyptoDebugPanic", hook.as_ref());
        }
        hook.forget();
    }
}

/// The typed reply of an answer.
fn typed<R: Request>(answer: Result<Answer, oneshot::Canceled>) -> Result<(R::Reply, JsValue), WorkerError> {
    let (msg, columns) = answer.map_err(|_| WorkerError::Superseded)??;
    let reply = R::reply_of(msg).map_err(|other| WorkerError::Unexpected(format!("{other:?}")))?;
    Ok((reply, columns))
}
