//! Posting messages to the page: the serde message under `msg`, typed-array columns under
//! `columns`, with their buffers moved (transferred), never copied.

use pypto_protocol::{FromWorker, ToWorker};
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

/// Posts `msg` with `columns` (an object of typed arrays, possibly nested), their buffers moved.
pub fn post_object(msg: &FromWorker, columns: &JsValue) {
    let (envelope, _) = encode_reply(msg, None);
    let transfer = js_sys::Array::new();
    crate::jobs::collect_buffers(columns, &transfer);
    let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str("columns"), columns);
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
    let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str("msg"), &msg_value);
    let transfer = match columns {
        Some(Columns { object: Some(object), transfer: Some(transfer) }) => {
            let _ = js_sys::Reflect::set(&envelope, &JsValue::from_str("columns"), &object);
            transfer
        }
        _ => js_sys::Array::new(),
    };
    (envelope, transfer)
}

/// Reads a request envelope `{ msg, files? }` posted by the page.
pub fn decode_request(data: &JsValue) -> Result<(ToWorker, js_sys::Array), String> {
    let msg_value = js_sys::Reflect::get(data, &JsValue::from_str("msg")).unwrap_or(JsValue::UNDEFINED);
    let files =
        js_sys::Reflect::get(data, &JsValue::from_str("files")).ok().and_then(|v| v.dyn_into::<js_sys::Array>().ok()).unwrap_or_default();
    let msg = serde_wasm_bindgen::from_value::<ToWorker>(msg_value).map_err(|e| format!("unreadable request: {e}"))?;
    Ok((msg, files))
}

/// Posts `msg` (and columns, transferred) to the page.
pub fn post(msg: &FromWorker, columns: Option<Columns>) {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let (envelope, transfer) = encode_reply(msg, columns);
    if let Err(err) = scope.post_message_with_transfer(&envelope, &transfer) {
        web_sys::console::error_2(&JsValue::from_str("pypto-worker: postMessage failed"), &err);
    }
}
