//! The page's URL hash as view state (`#k=v&k=v`), shared by the views that keep their state
//! in it so a copied link reproduces the view: the chip swimlane (`ds`, `t0`, `t1`, `sel`;
//! `views::swimlane::url_state`) and the compiler views (`pd`, `view`, …;
//! `views::compiler_url`). Values are URI-component encoded; the hash is written with
//! `history.replaceState` (no history entry, no scroll, no `hashchange` reload), and
//! [`schedule`] writes at most every [`WRITE_DELAY_MS`] with the latest hash asked for.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Delay of a scheduled write, ms.
pub const WRITE_DELAY_MS: i32 = 250;

/// The page's hash (`#…`, or empty).
pub fn current() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

fn decode(s: &str) -> String {
    js_sys::decode_uri_component(s).ok().and_then(|v| v.as_string()).unwrap_or_else(|| s.to_owned())
}

fn encode(s: &str) -> String {
    String::from(js_sys::encode_uri_component(s))
}

/// `(key, decoded value)` pairs of a hash, in order; a key without `=` has an empty value.
pub fn pairs(hash: &str) -> Vec<(String, String)> {
    hash.trim_start_matches('#')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (k.to_owned(), decode(v))
        })
        .collect()
}

/// `#k=v&…` of the pairs with a value (values encoded).
pub fn build(pairs: &[(&str, Option<String>)]) -> String {
    let parts: Vec<String> = pairs.iter().filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={}", encode(v)))).collect();
    format!("#{}", parts.join("&"))
}

/// Replaces the hash now (no history entry) unless it is already `hash`.
pub fn replace(hash: &str) {
    if hash == current() {
        return;
    }
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(hash));
    }
}

thread_local! {
    /// The latest hash asked for while a write is pending.
    static LATEST: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Writes `hash` soon: at most one write per [`WRITE_DELAY_MS`], with the latest value.
pub fn schedule(hash: String) {
    let pending = LATEST.with_borrow_mut(|l| l.replace(hash).is_some());
    if pending {
        return;
    }
    let cb = Closure::once_into_js(|| {
        if let Some(h) = LATEST.with_borrow_mut(Option::take) {
            replace(&h);
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), WRITE_DELAY_MS);
    }
}
