//! Posting messages to the page, for every module that answers or announces: the serde
//! message under `msg`, typed-array columns under `columns`, with their buffers moved
//! (transferred), never copied; a reply carries the id of the request it answers ([`Reply`]),
//! announcements none ([`post`]). Also reads the page's request envelopes
//! ([`decode_request`]).

use std::marker::PhantomData;

use pypto_protocol::{envelope, FromWorker, Request, RequestId, ToWorker};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Named typed arrays that travel beside a message.
#[derive(Default)]
pub struct Columns {
    object: Option<js_sys::Object>,
    transfer: Option<js_sys::Array>,
}

impl Columns {
    pub fn new() -> Self {
        Self { object: Some(js_sys::Object::new()), transfer: Some(js_sys::Array::new()) }
    }

    fn add(&mut self, name: &str, array: &JsValue, buffer: &JsValue) {
        if let (Some(object), Some(transfer)) = (&self.object, &self.transfer) {
            let _ = js_sys::Reflect::set(object, &JsValue::from_str(name), array);
            transfer.push(buffer);
        }
    }

    pub fn f64(&mut self, name: &str, values: &[f64]) {
        let array = js_sys::Float64Array::from(values);
        self.add(name, &array, &array.buffer());
    }

    pub fn u8(&mut self, name: &str, values: &[u8]) {
        let array = js_sys::Uint8Array::from(values);
        self.add(name, &array, &array.buffer());
    }

    /// A column already in a JS typed array (`array.buffer` is transferred).
    pub fn js(&mut self, name: &str, array: &js_sys::Object) {
        let buffer = js_sys::Reflect::get(array, &JsValue::from_str("buffer")).unwrap_or(JsValue::UNDEFINED);
        self.add(name, array, &buffer);
    }

    pub fn i32(&mut self, name: &str, values: &[i32]) {
        let array = js_sys::Int32Array::from(values);
        self.add(name, &array, &array.buffer());
    }

    pub fn u32(&mut self, name: &str, values: &[u32]) {
        let array = js_sys::Uint32Array::from(values);
        self.add(name, &array, &array.buffer());
    }

    /// A `u32` column from a packed column (one typed array of its length, filled piece by piece).
    pub fn u32_packed(&mut self, name: &str, column: &pypto_formats::packed::PackedU32) {
        let array = js_sys::Uint32Array::new_with_length(column.len() as u32);
        column.for_each_chunk(|first, values| {
            let first = first as u32;
            array.subarray(first, first + values.len() as u32).copy_from(values);
        });
        self.add(name, &array, &array.buffer());
    }
}

impl Columns {
    /// The columns as one JS object (`{ name: typedArray, … }`).
    pub fn into_object(self) -> js_sys::Object {
        self.object.unwrap_or_default()
    }
}

/// Where a request's answer goes: the page's request id, typed by the request so only its
/// reply type can be sent. Sent once ([`Reply::send`] and its siblings, [`Reply::fail`]);
/// partial replies of the same type may come first ([`Reply::partial`]).
#[must_use = "a request the worker does not answer leaves the page waiting"]
pub struct Reply<R: Request> {
    id: Option<RequestId>,
    request: PhantomData<fn(R)>,
}

impl<R: Request> Reply<R> {
    /// The reply to request `id` (`None`: the page did not number it).
    pub fn to(id: Option<RequestId>) -> Self {
        Self { id, request: PhantomData }
    }

    /// Answers with `reply`.
    pub fn send(self, reply: R::Reply) {
        post_with_id(self.id, &R::reply_message(reply), None, false);
    }

    /// Answers with `reply` and `columns` (transferred).
    pub fn send_with(self, reply: R::Reply, columns: Columns) {
        post_with_id(self.id, &R::reply_message(reply), Some(&columns.into_object().into()), false);
    }

    /// Answers with `reply` and `columns`, an object of typed arrays (possibly nested) whose
    /// buffers are all moved.
    pub fn send_object(self, reply: R::Reply, columns: &JsValue) {
        post_with_id(self.id, &R::reply_message(reply), Some(columns), false);
    }

    /// A first, incomplete answer; the final one follows with [`Reply::send`].
    pub fn partial(&self, reply: R::Reply) {
        post_with_id(self.id, &R::reply_message(reply), None, true);
    }

    /// The request failed: `message` says why (the page shows it).
    pub fn fail(self, message: String) {
        post_with_id(self.id, &FromWorker::Error { message }, None, false);
    }

    /// Answers with `result`'s reply, or fails with its error.
    pub fn answer(self, result: Result<R::Reply, String>) {
        match result {
            Ok(reply) => self.send(reply),
            Err(message) => self.fail(message),
        }
    }
}

fn post_with_id(id: Option<RequestId>, msg: &FromWorker, columns: Option<&JsValue>, partial: bool) {
    let (envelope, _) = encode_reply(msg, None);
    if let Some(id) = id {
        let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str(envelope::ID), &JsValue::from(id));
    }
    if partial {
        let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str(envelope::PARTIAL), &JsValue::TRUE);
    }
    let transfer = js_sys::Array::new();
    if let Some(columns) = columns {
        collect_buffers(columns, &transfer);
        let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str(envelope::COLUMNS), columns);
    }
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    if let Err(err) = scope.post_message_with_transfer(&envelope, &transfer) {
        web_sys::console::error_2(&JsValue::from_str("pypto-worker: postMessage failed"), &err);
    }
}

/// Builds the envelope `{ msg, columns? }` of a reply and its transfer list.
pub fn encode_reply(msg: &FromWorker, columns: Option<Columns>) -> (js_sys::Object, js_sys::Array) {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    let msg_value = match msg.serialize(&serializer) {
        Ok(value) => value,
        Err(err) => JsValue::from_str(&format!("serialization failed: {err}")),
    };
    let envelope = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str(envelope::MSG), &msg_value);
    let transfer = match columns {
        Some(Columns { object: Some(object), transfer: Some(transfer) }) => {
            let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str(envelope::COLUMNS), &object);
            transfer
        }
        _ => js_sys::Array::new(),
    };
    (envelope, transfer)
}

/// A request as the page posted it: its id (when numbered), the message and the files.
pub struct Incoming {
    pub id: Option<RequestId>,
    pub msg: ToWorker,
    pub files: js_sys::Array,
}

/// Reads a request envelope `{ id?, msg, files? }` posted by the page; the error keeps the id
/// so the failure can answer it.
pub fn decode_request(data: &JsValue) -> Result<Incoming, (Option<RequestId>, String)> {
    let get = |key: &str| js_sys::Reflect::get(data, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
    let id = get(envelope::ID).as_f64().map(|v| v as RequestId);
    let files = get(envelope::FILES).dyn_into::<js_sys::Array>().unwrap_or_default();
    let msg = serde_wasm_bindgen::from_value::<ToWorker>(get(envelope::MSG)).map_err(|e| (id, format!("unreadable request: {e}")))?;
    Ok(Incoming { id, msg, files })
}

/// Fails request `id` (a request that could not even be read).
pub fn fail(id: Option<RequestId>, message: String) {
    post_with_id(id, &FromWorker::Error { message }, None, false);
}

/// Posts an announcement `msg` (no request asked for it: progress, datasets, crash), with
/// columns transferred.
pub fn post(msg: &FromWorker, columns: Option<Columns>) {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let (envelope, transfer) = encode_reply(msg, columns);
    if let Err(err) = scope.post_message_with_transfer(&envelope, &transfer) {
        web_sys::console::error_2(&JsValue::from_str("pypto-worker: postMessage failed"), &err);
    }
}

/// Appends the `ArrayBuffer`s under `value` (typed arrays, arrays and plain objects of them)
/// to `transfer`, each once.
pub(crate) fn collect_buffers(value: &JsValue, transfer: &js_sys::Array) {
    if let Some(view) = value.dyn_ref::<js_sys::Uint8Array>() {
        push_buffer(&view.buffer(), transfer);
    } else if js_sys::ArrayBuffer::is_view(value) {
        if let Ok(buffer) = js_sys::Reflect::get(value, &JsValue::from_str("buffer")) {
            push_buffer(&buffer, transfer);
        }
    } else if let Some(array) = value.dyn_ref::<js_sys::Array>() {
        for item in array.iter() {
            collect_buffers(&item, transfer);
        }
    } else if value.is_object() {
        for item in js_sys::Object::values(value.unchecked_ref()).iter() {
            collect_buffers(&item, transfer);
        }
    }
}

fn push_buffer(buffer: &JsValue, transfer: &js_sys::Array) {
    if !transfer.includes(buffer, 0) {
        transfer.push(buffer);
    }
}
