//! The worker's clock for the times it reports (load and layout times, the bench's log
//! lines): `performance.now()` in ms, sub-millisecond, else `Date.now()`. For every module
//! that times something.

use wasm_bindgen::JsCast;

/// `performance.now()` of this worker instance (ms), else `Date.now()`.
pub(crate) fn now_ms() -> f64 {
    let global = js_sys::global();
    js_sys::Reflect::get(&global, &"performance".into())
        .ok()
        .and_then(|p| {
            let now = js_sys::Reflect::get(&p, &"now".into()).ok()?;
            let f: &js_sys::Function = now.dyn_ref()?;
            f.call0(&p).ok()?.as_f64()
        })
        .unwrap_or_else(js_sys::Date::now)
}
