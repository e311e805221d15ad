//! Browser tests of the page's web-facing code, run in headless Chromium by
//! wasm-bindgen-test: folder walking over a real OPFS directory, and the page ⇄ worker
//! envelopes through a real `MessageChannel` with transferred column buffers.
#![allow(clippy::unwrap_used, clippy::panic)]

use pypto_app::{folder, worker_client};
use pypto_protocol::datasets::{EntryMeta, OpenFolder};
use pypto_protocol::timeline::TraceExport;
use pypto_protocol::{FromWorker, ToWorker};
use pypto_worker::transport::{self, Columns};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

async fn opfs_root() -> web_sys::FileSystemDirectoryHandle {
    let storage = web_sys::window().unwrap().navigator().storage();
    JsFuture::from(storage.get_directory()).await.unwrap().unchecked_into()
}

async fn subdir(parent: &web_sys::FileSystemDirectoryHandle, name: &str) -> web_sys::FileSystemDirectoryHandle {
    let options = web_sys::FileSystemGetDirectoryOptions::new();
    options.set_create(true);
    JsFuture::from(parent.get_directory_handle_with_options(name, &options)).await.unwrap().unchecked_into()
}

async fn write_file(dir: &web_sys::FileSystemDirectoryHandle, name: &str, text: &str) {
    let options = web_sys::FileSystemGetFileOptions::new();
    options.set_create(true);
    let handle: web_sys::FileSystemFileHandle =
        JsFuture::from(dir.get_file_handle_with_options(name, &options)).await.unwrap().unchecked_into();
    let stream: web_sys::FileSystemWritableFileStream = JsFuture::from(handle.create_writable()).await.unwrap().unchecked_into();
    JsFuture::from(stream.write_with_str(text).unwrap()).await.unwrap();
    JsFuture::from(stream.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn walks_an_opfs_folder_recursively() {
    let root = opfs_root().await;
    let top = subdir(&root, "walk-test").await;
    write_file(&top, "chip_swimlane_records.json", "{}").await;
    let sub = subdir(&top, "passes_dump").await;
    write_file(&sub, "00_frontend.py", "# frontend\n").await;
    let deep = subdir(&sub, "deep").await;
    write_file(&deep, "notes.log", "hello").await;

    let walked = folder::walk_handle(top).await.unwrap();
    assert_eq!(walked.label, "walk-test");
    let mut entries: Vec<(String, u64)> = walked.entries.iter().map(|e| (e.path.clone(), e.size_bytes)).collect();
    entries.sort();
    assert_eq!(
        entries,
        vec![
            ("chip_swimlane_records.json".to_string(), 2),
            ("passes_dump/00_frontend.py".to_string(), 11),
            ("passes_dump/deep/notes.log".to_string(), 5),
        ]
    );
    assert_eq!(walked.files.length(), 3);
    for (i, entry) in walked.entries.iter().enumerate() {
        let file: web_sys::File = walked.files.get(i as u32).unchecked_into();
        assert_eq!(file.size() as u64, entry.size_bytes, "file {i} matches its entry");
    }
}

/// Posts `value` through a real `MessageChannel` (with `transfer`) and returns what arrived.
async fn through_channel(value: &JsValue, transfer: &js_sys::Array) -> JsValue {
    let channel = web_sys::MessageChannel::new().unwrap();
    let receiver = channel.port2();
    let arrived = js_sys::Promise::new(&mut |resolve, _reject| {
        let on_message = Closure::once_into_js(move |event: web_sys::MessageEvent| {
            resolve.call1(&JsValue::NULL, &event.data()).unwrap();
        });
        receiver.set_onmessage(Some(on_message.unchecked_ref()));
    });
    channel.port1().post_message_with_transferable(value, transfer).unwrap();
    JsFuture::from(arrived).await.unwrap()
}

#[wasm_bindgen_test]
async fn request_envelope_round_trips_with_files() {
    let files = js_sys::Array::new();
    let parts = js_sys::Array::of1(&JsValue::from_str("{\"tasks\":[]}"));
    files.push(&web_sys::File::new_with_str_sequence(&parts, "deps.json").unwrap());
    let msg = ToWorker::OpenFolder(OpenFolder {
        source_label: "run".to_string(),
        entries: vec![EntryMeta { path: "dfx_outputs/deps.json".to_string(), size_bytes: 12 }],
        stall_timeout_ms: Some(2000),
        as_comparison: true,
    });
    let envelope = worker_client::encode_request(&msg, Some(7), Some(&files));
    let arrived = through_channel(&envelope, &js_sys::Array::new()).await;
    let incoming = transport::decode_request(&arrived).map_err(|e| e.1).unwrap();
    assert_eq!(incoming.msg, msg);
    assert_eq!(incoming.id, Some(7), "the request id travels beside the message");
    let file: web_sys::File = incoming.files.get(0).dyn_into().unwrap();
    assert_eq!(file.name(), "deps.json");
    assert_eq!(file.size() as u64, 12);
}

#[wasm_bindgen_test]
async fn reply_columns_are_transferred_not_copied() {
    let reply = FromWorker::TraceExport(TraceExport { timeline_id: 4, file_name: "x.perfetto.json".to_string(), slices: 2, flows: 0 });
    let mut columns = Columns::new();
    columns.f64("start_us", &[271.46, 1000.25]);
    columns.u32("lane_offsets", &[0, 2]);
    let (envelope, transfer) = transport::encode_reply(&reply, Some(columns));
    assert_eq!(transfer.length(), 2, "both column buffers are in the transfer list");
    let sent_buffer: js_sys::ArrayBuffer = transfer.get(0).unchecked_into();
    let arrived = through_channel(&envelope, &transfer).await;
    assert_eq!(sent_buffer.byte_length(), 0, "the sender's buffer was moved (detached), not copied");
    match worker_client::decode_reply(&arrived).unwrap() {
        (id, got @ FromWorker::TraceExport(_), _, partial) => {
            assert_eq!(got, reply);
            assert_eq!(id, None, "an announcement carries no request id");
            assert!(!partial);
        }
        other => panic!("unexpected reply {other:?}"),
    }
    let columns = js_sys::Reflect::get(&arrived, &JsValue::from_str("columns")).unwrap();
    let start: js_sys::Float64Array = js_sys::Reflect::get(&columns, &JsValue::from_str("start_us")).unwrap().unchecked_into();
    assert_eq!(start.to_vec(), vec![271.46, 1000.25]);
}
