//! `nav` ↔ the URL hash, the one place that knows the link format, so a copied link
//! reproduces the view. A hash is `#k=v&k=v…` (values URI-component encoded; keys may repeat):
//!
//! * `ds=<path>` (repeated for a multi-rank group): the shown datasets by their path in the
//!   folder (`DatasetInfo.path`, the stable key — not the discovery order; `ds=` alone is the
//!   opened folder itself); `view=<ViewKind key>`; `trace=<file>` (a Chrome trace shown as a
//!   swimlane);
//! * the swimlane: `t0`, `t1` (window, µs, 4 decimals), `sel=track:index` (selected bar),
//!   `mk=t_us:colour:label` (repeated, markers), `pin=3,5` (pinned lanes, in pin order),
//!   `fold=2,7` (folded Chrome-trace lanes), `labels=name|id|both`, `path=static|observed`,
//!   `depth=N` (dependency depth, −1 all), `setup=0` (setup regions hidden), `setupdur=1`
//!   (setup counted in durations), `align=first|none|task:<rXtY or ->,…` (how a timeline of
//!   several datasets is aligned: at first dispatch, not at all, at a task per dataset — `-`
//!   for none; left out for `auto`);
//! * `panel=<tab>`: the Performance Analysis panel open on that tab;
//! * the Task Dependency Graph: `gmode=<edge mode>`, `gdir=lr`, `gdepth=N`, `gsel=rXtY`,
//!   `gcam=x,y,scale` (the layout point at the canvas centre and the zoom);
//! * `sort=<table>:<column>:asc|desc` (repeated): the data tables' sort, by test id and
//!   column id;
//! * the IR Pass Trace: `pass=<snapshot file>`, `layout=stacked`, `fn=<function>`;
//! * the Memory Reuse view: `snap=<snapshot file>`, `mfn=<function>`, `chip=<chip>`,
//!   `tile=<box name>`;
//! * a comparison (two `ds=`, A then B): `cmp=1`, `cfn=<function>` (its task deltas shown),
//!   `cpass=<row>` (the pass row diffed A against B).
//!
//! Defaults are left out. [`parse`] ignores what it does not understand (unknown keys, bad
//! numbers, unknown tab or mode names: that field keeps its default) and [`encode`] writes the
//! shortest hash that parses back to the same [`Link`]; both are pure and tested natively.
//! [`current`], [`replace`] and [`push`] read and write the page's hash (`history.replaceState`
//! / `pushState`: no scroll, no `hashchange`).

use std::fmt::Write as _;

use pypto_protocol::timeline::{BarRef, TimelineAlign};
use pypto_protocol::{EdgeMode, TaskId, ViewKind};

use super::{
    CompareNav, GraphCamera, GraphNav, LabelMode, LanesNav, MemoryNav, PanelNav, PanelTab, PassTraceNav, PathMode, SwimlaneSettings,
    TableSort,
};

/// A marker in a link (its id is given again when the link is applied).
#[derive(Clone, Debug, PartialEq)]
pub struct LinkMarker {
    pub t_us: f64,
    pub color: usize,
    pub label: String,
}

/// What a hash says: the whole shown state of `nav`.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The shown datasets' paths (never empty in a parsed link).
    pub datasets: Vec<String>,
    pub view: Option<ViewKind>,
    /// The Chrome trace file shown as a swimlane.
    pub trace: Option<String>,
    pub window_us: Option<(f64, f64)>,
    pub selected: Option<BarRef>,
    pub markers: Vec<LinkMarker>,
    pub lanes: LanesNav,
    /// `None`: the link does not say (the user's remembered label mode stays).
    pub label_mode: Option<LabelMode>,
    pub path: PathMode,
    pub depth: i32,
    pub show_setup: bool,
    pub setup_in_duration: bool,
    pub align: TimelineAlign,
    pub panel: PanelNav,
    pub graph: GraphNav,
    pub sorts: Vec<TableSort>,
    pub pass_trace: PassTraceNav,
    /// The Memory Reuse view (`shown_snapshot` is not part of a link).
    pub memory: MemoryNav,
    /// A comparison of the two datasets.
    pub compare: CompareNav,
}

impl Default for Link {
    fn default() -> Self {
        let s = SwimlaneSettings::default();
        Self {
            datasets: Vec::new(),
            view: None,
            trace: None,
            window_us: None,
            selected: None,
            markers: Vec::new(),
            lanes: LanesNav::default(),
            label_mode: None,
            path: s.path,
            depth: s.depth,
            show_setup: s.show_setup,
            setup_in_duration: s.setup_in_duration,
            align: s.align,
            panel: PanelNav::default(),
            graph: GraphNav::default(),
            sorts: Vec::new(),
            pass_trace: PassTraceNav::default(),
            memory: MemoryNav::default(),
            compare: CompareNav::default(),
        }
    }
}

/// Where a link is: its datasets, view, trace file and selections (see [`Link::place`]).
#[derive(Debug, PartialEq)]
pub struct Place<'a> {
    datasets: &'a [String],
    compare: bool,
    view: Option<ViewKind>,
    trace: Option<&'a str>,
    selected: Option<BarRef>,
    graph_selected: Option<TaskId>,
}

impl Link {
    /// What a history entry is per (a change of it is a new entry; anything else replaces the
    /// current one): the datasets, the view, the trace file and the selections.
    pub fn place(&self) -> Place<'_> {
        Place {
            datasets: &self.datasets,
            compare: self.compare.on,
            view: self.view,
            trace: self.trace.as_deref(),
            selected: self.selected,
            graph_selected: self.graph.selected,
        }
    }
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

fn finite(v: &str) -> Option<f64> {
    v.parse::<f64>().ok().filter(|t| t.is_finite())
}

/// `3,5,…` as numbers (bad items skipped).
fn numbers(v: &str) -> Vec<u32> {
    v.split(',').filter_map(|s| s.parse().ok()).collect()
}

fn parse_marker(v: &str) -> Option<LinkMarker> {
    let mut parts = v.splitn(3, ':');
    let t_us = finite(parts.next()?)?;
    let color = parts.next()?.parse().ok().filter(|&c| c < super::MARKER_COLOR_COUNT)?;
    Some(LinkMarker { t_us, color, label: parts.next().unwrap_or("").to_owned() })
}

fn parse_sort(v: &str) -> Option<TableSort> {
    let (rest, dir) = v.rsplit_once(':')?;
    let (table, column) = rest.rsplit_once(':')?;
    let descending = match dir {
        "asc" => false,
        "desc" => true,
        _ => return None,
    };
    (!table.is_empty() && !column.is_empty()).then(|| TableSort { table: table.to_owned(), column: column.to_owned(), descending })
}

/// `auto`, `first`, `none` or `task:r2t17,-,…` (`None` when malformed).
fn parse_align(v: &str) -> Option<TimelineAlign> {
    match v {
        "auto" => Some(TimelineAlign::Auto),
        "first" => Some(TimelineAlign::FirstDispatch),
        "none" => Some(TimelineAlign::None),
        _ => {
            let ids = v.strip_prefix("task:")?;
            let tasks: Option<Vec<Option<TaskId>>> =
                ids.split(',').map(|t| if t == "-" { Some(None) } else { t.parse().ok().map(Some) }).collect();
            tasks.map(TimelineAlign::Task)
        }
    }
}

/// The link value of an alignment (`None` for the default, `auto`).
fn encode_align(a: &TimelineAlign) -> Option<String> {
    match a {
        TimelineAlign::Auto => None,
        TimelineAlign::Task(ids) => {
            Some(format!("task:{}", ids.iter().map(|t| t.map_or_else(|| "-".to_owned(), |t| t.to_string())).collect::<Vec<_>>().join(",")))
        }
        other => Some(other.key().to_owned()),
    }
}

fn parse_camera(v: &str) -> Option<GraphCamera> {
    let n: Vec<f32> = v.split(',').filter_map(|s| s.parse::<f32>().ok().filter(|x| x.is_finite())).collect();
    match n.as_slice() {
        [cx, cy, scale] if *scale > 0.0 => Some(GraphCamera { cx: *cx, cy: *cy, scale: *scale }),
        _ => None,
    }
}

/// Reads a hash (`None`: it names no dataset).
pub fn parse(hash: &str) -> Option<Link> {
    let pairs = pairs(hash);
    let datasets: Vec<String> = pairs.iter().filter(|(k, _)| k == "ds").map(|(_, v)| v.clone()).collect();
    if datasets.is_empty() {
        return None;
    }
    let mut link = Link { datasets, ..Link::default() };
    let (mut t0, mut t1) = (None, None);
    for (k, v) in &pairs {
        let text = (!v.is_empty()).then(|| v.clone());
        match k.as_str() {
            "view" => link.view = ViewKind::from_key(v),
            "trace" => link.trace = text,
            "t0" => t0 = finite(v),
            "t1" => t1 = finite(v),
            "sel" => {
                link.selected = v.split_once(':').and_then(|(t, i)| Some(BarRef { track: t.parse().ok()?, index: i.parse().ok()? }));
            }
            "mk" => link.markers.extend(parse_marker(v)),
            "pin" => link.lanes.pinned = numbers(v),
            "fold" => link.lanes.folded = numbers(v),
            "labels" => link.label_mode = LabelMode::parse(v),
            "path" => link.path = PathMode::parse(v).unwrap_or(link.path),
            "depth" => link.depth = v.parse().ok().filter(|d| *d >= -1).unwrap_or(link.depth),
            "setup" => link.show_setup = v != "0",
            "setupdur" => link.setup_in_duration = v == "1",
            "align" => link.align = parse_align(v).unwrap_or(TimelineAlign::Auto),
            "panel" => link.panel = PanelTab::parse(v).map_or(link.panel, |tab| PanelNav { open: true, tab }),
            "gmode" => link.graph.mode = EdgeMode::from_name(v).unwrap_or(link.graph.mode),
            "gdir" => link.graph.left_right = v == "lr",
            "gdepth" => link.graph.depth = v.parse().ok().filter(|d| *d >= -1).unwrap_or(link.graph.depth),
            "gsel" => link.graph.selected = v.parse().ok(),
            "gcam" => link.graph.camera = parse_camera(v),
            "sort" => link.sorts.extend(parse_sort(v)),
            "pass" => link.pass_trace.pass = text,
            "layout" => link.pass_trace.stacked = v == "stacked",
            "fn" => link.pass_trace.function = text,
            "snap" => link.memory.snapshot = text,
            "mfn" => link.memory.function = text,
            "chip" => link.memory.chip = text,
            "tile" => link.memory.tile = text,
            "cmp" => link.compare.on = v == "1",
            "cfn" => link.compare.function = text,
            "cpass" => link.compare.pass = v.parse().ok(),
            _ => {}
        }
    }
    link.window_us = t0.zip(t1).filter(|(a, b)| b > a);
    Some(link)
}

/// Joins numbers with commas.
fn joined(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// The `(key, raw value)` pairs of a link, in the documented order (values not yet encoded).
fn fields(link: &Link) -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = link.datasets.iter().map(|d| ("ds", d.clone())).collect();
    let d = Link::default();
    let mut put = |k: &'static str, v: Option<String>| {
        if let Some(v) = v {
            out.push((k, v));
        }
    };
    put("view", link.view.map(|v| v.key().to_owned()));
    put("trace", link.trace.clone());
    if let Some((t0, t1)) = link.window_us {
        put("t0", Some(format!("{t0:.4}")));
        put("t1", Some(format!("{t1:.4}")));
    }
    put("sel", link.selected.map(|b| format!("{}:{}", b.track, b.index)));
    for m in &link.markers {
        put("mk", Some(format!("{:.4}:{}:{}", m.t_us, m.color, m.label)));
    }
    put("pin", (!link.lanes.pinned.is_empty()).then(|| joined(&link.lanes.pinned)));
    put("fold", (!link.lanes.folded.is_empty()).then(|| joined(&link.lanes.folded)));
    put("labels", link.label_mode.map(|m| m.key().to_owned()));
    put("path", (link.path != d.path).then(|| link.path.key().to_owned()));
    put("depth", (link.depth != d.depth).then(|| link.depth.to_string()));
    put("setup", (!link.show_setup).then(|| "0".to_owned()));
    put("setupdur", link.setup_in_duration.then(|| "1".to_owned()));
    put("align", encode_align(&link.align));
    put("panel", link.panel.open.then(|| link.panel.tab.key().to_owned()));
    let g = &link.graph;
    put("gmode", (g.mode != d.graph.mode).then(|| g.mode.as_str().to_owned()));
    put("gdir", g.left_right.then(|| "lr".to_owned()));
    put("gdepth", (g.depth != d.graph.depth).then(|| g.depth.to_string()));
    put("gsel", g.selected.map(|t| t.to_string()));
    put("gcam", g.camera.map(|c| format!("{:.2},{:.2},{}", c.cx, c.cy, c.scale)));
    for s in &link.sorts {
        put("sort", Some(format!("{}:{}:{}", s.table, s.column, if s.descending { "desc" } else { "asc" })));
    }
    let p = &link.pass_trace;
    put("pass", p.pass.clone());
    put("layout", p.stacked.then(|| "stacked".to_owned()));
    put("fn", p.function.clone());
    let m = &link.memory;
    put("snap", m.snapshot.clone());
    put("mfn", m.function.clone());
    put("chip", m.chip.clone());
    put("tile", m.tile.clone());
    put("cmp", link.compare.on.then(|| "1".to_owned()));
    put("cfn", link.compare.function.clone());
    put("cpass", link.compare.pass.map(|row| row.to_string()));
    out
}

/// Writes a link as a hash (`None` when it names no dataset).
pub fn encode(link: &Link) -> Option<String> {
    if link.datasets.is_empty() {
        return None;
    }
    let parts: Vec<String> = fields(link).into_iter().map(|(k, v)| format!("{k}={}", encode_component(&v))).collect();
    Some(format!("#{}", parts.join("&")))
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

/// Sets the hash as a new history entry (back returns to the one before) unless it is already
/// `hash`.
pub fn push(hash: &str) {
    if hash == current() {
        return;
    }
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(link: &Link) -> String {
        let hash = encode(link).unwrap_or_default();
        assert_eq!(parse(&hash).as_ref(), Some(link), "{hash}");
        hash
    }

    #[test]
    fn a_runtime_link_round_trips_every_field() {
        let link = Link {
            datasets: vec!["run/rank0".into(), "run/rank1".into()],
            view: Some(ViewKind::ChipSwimlane),
            window_us: Some((10.5, 99.25)),
            selected: Some(BarRef { track: 3, index: 17 }),
            markers: vec![
                LinkMarker { t_us: 12.0, color: 0, label: "M1".into() },
                LinkMarker { t_us: 20.5, color: 4, label: "a:b & c".into() },
            ],
            lanes: LanesNav { pinned: vec![5, 2], folded: vec![] },
            label_mode: Some(LabelMode::Both),
            path: PathMode::Observed,
            depth: -1,
            show_setup: false,
            setup_in_duration: true,
            align: TimelineAlign::FirstDispatch,
            panel: PanelNav { open: true, tab: PanelTab::CriticalPath },
            sorts: vec![TableSort { table: "kernel-perf".into(), column: "avg_us".into(), descending: true }],
            ..Link::default()
        };
        let hash = round_trip(&link);
        assert_eq!(
            hash,
            "#ds=run%2Frank0&ds=run%2Frank1&view=swimlane&t0=10.5000&t1=99.2500&sel=3%3A17&mk=12.0000%3A0%3AM1\
             &mk=20.5000%3A4%3Aa%3Ab%20%26%20c&pin=5%2C2&labels=both&path=observed&depth=-1&setup=0&setupdur=1\
             &align=first&panel=critical-path&sort=kernel-perf%3Aavg_us%3Adesc"
        );
    }

    #[test]
    fn every_alignment_round_trips_and_auto_is_left_out() {
        let ranks = Link { datasets: vec!["run/rank0/d0".into(), "run/rank1/d0".into()], ..Link::default() };
        assert_eq!(round_trip(&ranks), "#ds=run%2Frank0%2Fd0&ds=run%2Frank1%2Fd0");
        let none = Link { align: TimelineAlign::None, ..ranks.clone() };
        assert!(round_trip(&none).ends_with("&align=none"));
        let task = Link { align: TimelineAlign::Task(vec![Some(TaskId::from_parts(2, 17)), None]), ..ranks.clone() };
        assert!(round_trip(&task).ends_with("&align=task%3Ar2t17%2C-"));
        // a bad alignment is the default
        for bad in ["align=sideways", "align=task:", "align=task:r2t17,x"] {
            assert_eq!(parse(&format!("#ds=d&{bad}")).map(|l| l.align), Some(TimelineAlign::Auto), "{bad}");
        }
        assert_eq!(parse("#ds=d&align=auto").map(|l| l.align), Some(TimelineAlign::Auto));
    }

    #[test]
    fn graph_trace_and_folder_links_round_trip() {
        let graph = Link {
            datasets: vec![String::new()],
            view: Some(ViewKind::TaskGraph),
            graph: GraphNav {
                mode: EdgeMode::ReducedDataflow,
                left_right: true,
                depth: 3,
                selected: Some(TaskId::from_parts(1, 7)),
                camera: Some(GraphCamera { cx: 120.5, cy: -3.25, scale: 0.5 }),
            },
            ..Link::default()
        };
        let hash = round_trip(&graph);
        assert_eq!(hash, "#ds=&view=dep-graph&gmode=reduced_dataflow&gdir=lr&gdepth=3&gsel=r1t7&gcam=120.50%2C-3.25%2C0.5");
        let trace = Link {
            datasets: vec!["serving".into()],
            view: Some(ViewKind::TraceSwimlane),
            trace: Some("serving/x_strace-swimlane.json".into()),
            lanes: LanesNav { pinned: vec![], folded: vec![0, 4] },
            ..Link::default()
        };
        round_trip(&trace);
        // defaults are left out
        assert_eq!(encode(&Link { datasets: vec!["d".into()], ..Link::default() }).as_deref(), Some("#ds=d"));
        assert_eq!(encode(&Link::default()), None);
    }

    #[test]
    fn pass_dump_links_round_trip_with_encoded_values() {
        let trace = Link {
            datasets: vec!["case/passes_dump".into()],
            view: Some(ViewKind::PassTrace),
            pass_trace: PassTraceNav {
                pass: Some("04_after_ConvertToSSA.py".into()),
                stacked: true,
                function: Some("Prog.kernel a&b=c".into()),
            },
            ..Link::default()
        };
        let hash = round_trip(&trace);
        assert_eq!(hash, "#ds=case%2Fpasses_dump&view=pass-trace&pass=04_after_ConvertToSSA.py&layout=stacked&fn=Prog.kernel%20a%26b%3Dc");
        let memory = Link {
            datasets: vec!["case/passes_dump".into()],
            view: Some(ViewKind::MemoryReuse),
            memory: MemoryNav {
                snapshot: Some("35_after_AllocateMemoryAddr.py".into()),
                shown_snapshot: None,
                function: Some("kernel_online_update".into()),
                chip: Some("Ascend950".into()),
                tile: Some("oi_new_tile__ssa_v0".into()),
            },
            ..Link::default()
        };
        let hash = round_trip(&memory);
        assert_eq!(
            hash,
            "#ds=case%2Fpasses_dump&view=memory-map&snap=35_after_AllocateMemoryAddr.py&mfn=kernel_online_update&chip=Ascend950\
             &tile=oi_new_tile__ssa_v0"
        );
    }

    #[test]
    fn comparison_links_round_trip() {
        let runs = Link {
            datasets: vec!["base/dfx_outputs".into(), "dfx_outputs".into()],
            view: Some(ViewKind::CompareRuns),
            compare: CompareNav { on: true, function: Some("QK".into()), pass: None },
            ..Link::default()
        };
        assert_eq!(round_trip(&runs), "#ds=base%2Fdfx_outputs&ds=dfx_outputs&view=compare&cmp=1&cfn=QK");
        let dumps = Link {
            datasets: vec!["a/passes_dump".into(), "b/passes_dump".into()],
            view: Some(ViewKind::ComparePasses),
            compare: CompareNav { on: true, function: None, pass: Some(12) },
            ..Link::default()
        };
        assert_eq!(round_trip(&dumps), "#ds=a%2Fpasses_dump&ds=b%2Fpasses_dump&view=compare-passes&cmp=1&cpass=12");
        // comparing and not comparing the same two datasets are two places
        let group = Link { compare: CompareNav::default(), view: Some(ViewKind::ChipSwimlane), ..runs.clone() };
        let swimlanes = Link { view: Some(ViewKind::ChipSwimlane), ..runs.clone() };
        assert_ne!(group.place(), swimlanes.place());
        assert_eq!(parse("#ds=a&ds=b&cmp=yes&cpass=x").map(|l| l.compare), Some(CompareNav::default()));
    }

    #[test]
    fn bad_values_are_ignored() {
        assert_eq!(parse(""), None);
        assert_eq!(parse("#view=swimlane&t0=1"), None);
        let link = parse(
            "#ds=d&view=nope&t0=inf&t1=2&sel=x:1&mk=1:9:x&mk=zz&pin=1,a,3&labels=huge&path=odd&depth=-7&panel=bogus\
             &gmode=weird&gsel=q&gcam=1,2&sort=t:c:up&sort=nocolon&zzz=1",
        );
        let expected = Link { datasets: vec!["d".into()], lanes: LanesNav { pinned: vec![1, 3], folded: vec![] }, ..Link::default() };
        assert_eq!(link, Some(expected));
        // a backwards window is no window
        assert_eq!(parse("#ds=d&t0=5&t1=4").and_then(|l| l.window_us), None);
        // old numeric links name a dataset path "0" (found in no folder: the default view)
        assert_eq!(parse("#ds=0").map(|l| l.datasets), Some(vec!["0".to_owned()]));
    }

    #[test]
    fn a_new_place_is_a_new_history_entry() {
        let a = Link { datasets: vec!["d".into()], window_us: Some((1.0, 2.0)), ..Link::default() };
        let panned = Link { window_us: Some((1.5, 2.5)), ..a.clone() };
        assert_eq!(a.place(), panned.place());
        let selected = Link { selected: Some(BarRef { track: 0, index: 1 }), ..a.clone() };
        assert_ne!(a.place(), selected.place());
        let graph = Link { view: Some(ViewKind::TaskGraph), ..a.clone() };
        assert_ne!(a.place(), graph.place());
    }

    #[test]
    fn percent_coding_matches_the_uri_component_rules() {
        assert_eq!(encode_component("a b/ü"), "a%20b%2F%C3%BC");
        assert_eq!(decode("a%20b%2F%C3%BC"), "a b/ü");
        assert_eq!(decode("bad%zz"), "bad%zz");
    }
}
