//! `nav` ↔ the URL hash, the one place that knows the link format, so a copied link
//! reproduces the view:
//!
//! * a runtime dataset (or a multi-rank group) and any view of it: `#ds=1,2&t0=…&t1=…&sel=track:index`
//!   (the swimlane's window in µs, 4 decimals, and its selected bar);
//! * a pass dump's IR Pass Trace: `#pd=<dataset>&view=trace&pass=<snapshot file>&layout=side|stacked&fn=<function>`;
//! * its Memory Reuse view: `#pd=<dataset>&view=memory&snap=<snapshot file>&fn=<function>&chip=<chip>&tile=<box name>`.
//!
//! Values are URI-component encoded. [`parse`] and [`encode`] are pure (tested natively);
//! [`current`] and [`replace`] read and write the page's hash (`history.replaceState`: no
//! history entry, no scroll, no `hashchange`).

use std::fmt::Write as _;

use pypto_protocol::timeline::BarRef;

/// What a hash says.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Link {
    /// No (recognised) state.
    #[default]
    None,
    /// Runtime datasets: the swimlane's window and selection.
    Runtime { datasets: Vec<u32>, window_us: Option<(f64, f64)>, selected: Option<BarRef> },
    /// A pass dump's views.
    PassDump(PassDumpLink),
}

/// A pass dump's views in a hash.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassDumpLink {
    pub dataset_id: u32,
    /// `view=memory` (else the pass trace).
    pub memory: bool,
    /// Pass trace: the selected pass's snapshot file.
    pub pass: Option<String>,
    /// Pass trace: `layout=stacked`.
    pub stacked: bool,
    /// Pass trace function filter, or the Memory Reuse function.
    pub function: Option<String>,
    pub snapshot: Option<String>,
    pub chip: Option<String>,
    pub tile: Option<String>,
}

fn decode(s: &str) -> String {
    percent_decode(s).unwrap_or_else(|| s.to_owned())
}

/// `%XX` sequences decoded as UTF-8 (`None` when malformed), like `decodeURIComponent`.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Percent-encodes like `encodeURIComponent`.
fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
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
fn build(pairs: &[(&str, Option<String>)]) -> String {
    let parts: Vec<String> = pairs.iter().filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={}", encode_component(v)))).collect();
    format!("#{}", parts.join("&"))
}

/// Reads a hash.
pub fn parse(hash: &str) -> Link {
    let pairs = pairs(hash);
    let get = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    let non_empty = |key: &str| get(key).filter(|v| !v.is_empty()).map(str::to_owned);
    if let Some(pd) = get("pd") {
        let Ok(dataset_id) = pd.parse() else { return Link::None };
        return Link::PassDump(PassDumpLink {
            dataset_id,
            memory: get("view") == Some("memory"),
            pass: non_empty("pass"),
            stacked: get("layout") == Some("stacked"),
            function: non_empty("fn"),
            snapshot: non_empty("snap"),
            chip: non_empty("chip"),
            tile: non_empty("tile"),
        });
    }
    let Some(ds) = get("ds") else { return Link::None };
    let datasets: Vec<u32> = ds.split(',').filter_map(|s| s.parse().ok()).collect();
    if datasets.is_empty() {
        return Link::None;
    }
    let time = |key: &str| get(key).and_then(|v| v.parse::<f64>().ok()).filter(|t| t.is_finite());
    let window_us = time("t0").zip(time("t1"));
    let selected =
        get("sel").and_then(|v| v.split_once(':')).and_then(|(t, i)| Some(BarRef { track: t.parse().ok()?, index: i.parse().ok()? }));
    Link::Runtime { datasets, window_us, selected }
}

/// Writes a link as a hash (`None` for [`Link::None`]).
pub fn encode(link: &Link) -> Option<String> {
    match link {
        Link::None => None,
        Link::Runtime { datasets, window_us, selected } => {
            let ds: Vec<String> = datasets.iter().map(u32::to_string).collect();
            let mut s = format!("#ds={}", ds.join(","));
            if let Some((t0, t1)) = window_us {
                let _ = write!(s, "&t0={t0:.4}&t1={t1:.4}");
            }
            if let Some(b) = selected {
                let _ = write!(s, "&sel={}:{}", b.track, b.index);
            }
            Some(s)
        }
        Link::PassDump(p) if p.memory => Some(build(&[
            ("pd", Some(p.dataset_id.to_string())),
            ("view", Some("memory".to_owned())),
            ("snap", p.snapshot.clone()),
            ("fn", p.function.clone()),
            ("chip", p.chip.clone()),
            ("tile", p.tile.clone()),
        ])),
        Link::PassDump(p) => Some(build(&[
            ("pd", Some(p.dataset_id.to_string())),
            ("view", Some("trace".to_owned())),
            ("pass", p.pass.clone()),
            ("layout", Some(if p.stacked { "stacked" } else { "side" }.to_owned())),
            ("fn", p.function.clone()),
        ])),
    }
}

/// The page's hash (`#…`, or empty).
pub fn current() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// Replaces the hash now (no history entry) unless it is already `hash`.
pub fn replace(hash: &str) {
    if hash == current() {
        return;
    }
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_links_round_trip() {
        let link = Link::Runtime { datasets: vec![1, 2], window_us: Some((10.5, 99.25)), selected: Some(BarRef { track: 3, index: 17 }) };
        let hash = encode(&link).unwrap_or_default();
        assert_eq!(hash, "#ds=1,2&t0=10.5000&t1=99.2500&sel=3:17");
        assert_eq!(parse(&hash), link);
        assert_eq!(parse("#ds=0"), Link::Runtime { datasets: vec![0], window_us: None, selected: None });
        assert_eq!(parse("#ds=&t0=1"), Link::None);
        assert_eq!(parse("#ds=4&t0=inf&t1=2&sel=x:1"), Link::Runtime { datasets: vec![4], window_us: None, selected: None });
    }

    #[test]
    fn pass_dump_links_round_trip_with_encoded_values() {
        let trace = PassDumpLink {
            dataset_id: 2,
            pass: Some("04_after_ConvertToSSA.py".into()),
            stacked: true,
            function: Some("Prog.kernel a&b=c".into()),
            ..PassDumpLink::default()
        };
        let hash = encode(&Link::PassDump(trace.clone())).unwrap_or_default();
        assert_eq!(hash, "#pd=2&view=trace&pass=04_after_ConvertToSSA.py&layout=stacked&fn=Prog.kernel%20a%26b%3Dc");
        assert_eq!(parse(&hash), Link::PassDump(trace));
        let memory = PassDumpLink {
            dataset_id: 0,
            memory: true,
            snapshot: Some("35_after_AllocateMemoryAddr.py".into()),
            function: Some("kernel_online_update".into()),
            chip: Some("Ascend950".into()),
            tile: Some("oi_new_tile__ssa_v0".into()),
            ..PassDumpLink::default()
        };
        let hash = encode(&Link::PassDump(memory.clone())).unwrap_or_default();
        assert_eq!(
            hash,
            "#pd=0&view=memory&snap=35_after_AllocateMemoryAddr.py&fn=kernel_online_update&chip=Ascend950&tile=oi_new_tile__ssa_v0"
        );
        assert_eq!(parse(&hash), Link::PassDump(memory));
        assert_eq!(parse("#pd=x&view=memory"), Link::None);
        assert_eq!(parse(""), Link::None);
    }

    #[test]
    fn percent_coding_matches_the_uri_component_rules() {
        assert_eq!(encode_component("a b/ü"), "a%20b%2F%C3%BC");
        assert_eq!(decode("a%20b%2F%C3%BC"), "a b/ü");
        assert_eq!(decode("bad%zz"), "bad%zz");
    }
}
