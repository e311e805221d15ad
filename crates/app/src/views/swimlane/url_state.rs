//! The view in the URL hash — `#ds=1,2&t0=…&t1=…&sel=track:index` — so a link reproduces it.
//! Restored when the timeline of those datasets arrives; written with `history.replaceState`,
//! at most every 250 ms. Hash parsing and writing are `crate::url_hash`'s (shared with the
//! compiler views).

use pypto_protocol::timeline::BarRef;
use std::fmt::Write as _;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::data::Timeline;
use super::{with_view, SwimlaneRenderer};

/// What the hash says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UrlState {
    pub datasets: Vec<u32>,
    pub t0: Option<f64>,
    pub t1: Option<f64>,
    pub sel: Option<BarRef>,
}

pub fn parse(hash: &str) -> UrlState {
    let mut out = UrlState::default();
    for (k, v) in crate::url_hash::pairs(hash) {
        let v = v.as_str();
        match k.as_str() {
            "ds" => out.datasets = v.split(',').filter_map(|s| s.parse().ok()).collect(),
            "t0" => out.t0 = v.parse().ok().filter(|t: &f64| t.is_finite()),
            "t1" => out.t1 = v.parse().ok().filter(|t: &f64| t.is_finite()),
            "sel" => {
                out.sel = v.split_once(':').and_then(|(t, i)| Some(BarRef { track: t.parse().ok()?, index: i.parse().ok()? }));
            }
            _ => {}
        }
    }
    out
}

fn current_hash() -> String {
    crate::url_hash::current()
}

/// The datasets named in the page's hash at start-up.
pub fn initial_datasets() -> Vec<u32> {
    parse(&current_hash()).datasets
}

/// Restores window and selection when the hash names this timeline's datasets.
pub(super) fn restore(r: &mut SwimlaneRenderer, data: &Timeline) {
    let url = parse(&current_hash());
    if url.datasets.is_empty() || url.datasets != data.header.dataset_ids {
        return;
    }
    if let (Some(t0), Some(t1)) = (url.t0, url.t1) {
        r.set_window(t0, t1);
    }
    if let Some(bar) = url.sel.filter(|b| data.global(*b).is_some()) {
        r.select(Some(bar));
    }
}

fn encode(r: &SwimlaneRenderer) -> Option<String> {
    let d = r.data.as_ref()?;
    let (t0, t1) = r.camera.visible_range_us();
    let ds: Vec<String> = d.header.dataset_ids.iter().map(u32::to_string).collect();
    let mut s = format!("#ds={}&t0={t0:.4}&t1={t1:.4}", ds.join(","));
    if let Some(b) = r.selected {
        let _ = write!(s, "&sel={}:{}", b.track, b.index);
    }
    Some(s)
}

/// Writes the hash soon (throttled).
pub(super) fn schedule_write(r: &mut SwimlaneRenderer) {
    if r.url_pending || r.data.is_none() {
        return;
    }
    r.url_pending = true;
    let cb = Closure::once_into_js(|| {
        with_view(|r| {
            r.url_pending = false;
            let Some(hash) = encode(r) else { return };
            crate::url_hash::replace(&hash);
        });
    });
    if let Some(w) = web_sys::window() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), 250);
    }
}
