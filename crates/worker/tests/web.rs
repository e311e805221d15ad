//! Browser tests of the worker's file reading, run in headless Chromium by wasm-bindgen-test:
//! a large `Blob` is read slice by slice with progress, byte for byte.
#![allow(clippy::unwrap_used, clippy::panic)]

use pypto_worker::reading::{read_bytes, SLICE_BYTES};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn large_files_are_read_in_slices_with_progress() {
    let total = 2 * SLICE_BYTES as usize + 12_345;
    let bytes: Vec<u8> = (0..total).map(|i| (i * 31 % 251) as u8).collect();
    let array = js_sys::Uint8Array::from(bytes.as_slice());
    let parts = js_sys::Array::of1(&array);
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).unwrap();
    let mut progress: Vec<(u64, u64)> = Vec::new();
    let read = read_bytes(&JsValue::from(blob), &mut |done, of| progress.push((done, of))).await.unwrap();
    assert_eq!(read.len(), total);
    assert!(read == bytes, "bytes read back equal the bytes written");
    let total = total as u64;
    assert_eq!(progress, vec![(SLICE_BYTES, total), (2 * SLICE_BYTES, total), (total, total)]);
}

#[wasm_bindgen_test]
async fn small_files_are_read_whole_without_progress() {
    let parts = js_sys::Array::of1(&JsValue::from_str("{\"tasks\":[]}"));
    let blob = web_sys::Blob::new_with_str_sequence(&parts).unwrap();
    let mut calls = 0;
    let read = read_bytes(&JsValue::from(blob), &mut |_, _| calls += 1).await.unwrap();
    assert_eq!(read, b"{\"tasks\":[]}");
    assert_eq!(calls, 0);
}

#[wasm_bindgen_test]
async fn a_source_that_is_neither_file_nor_url_is_an_error() {
    let err = read_bytes(&JsValue::from_f64(3.0), &mut |_, _| {}).await.unwrap_err();
    assert!(err.contains("neither a File nor a URL"), "{err}");
}
