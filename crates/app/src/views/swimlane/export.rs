//! PNG export of the current view (the GL canvas and the text overlay composited at device
//! pixel ratio, downloaded), SVG export of the visible window (the frame's own rects, lines and
//! recorded text: text as `<text>`; `swimlane-<dataset>-<t0>-<t1>us.svg`), and `window.__pyptoSwimlane`, the geometry-only automation API the
//! e2e tests use: `barRect(track, index)`, `barTimes(track, index)` (`{setup, start, end}` µs
//! on the timeline's axis), `trackIndex(label)`, `state()`, `arrows()`, `isDimmed(track, index)`,
//! `groups()`, `alignment()` (`{label, datasets: [{dataset, offsetUs, alignedBy}]}`),
//! `scrollToTrack(track)`, and the benchmark hooks
//! `frameStats()` → `{count, p50_ms, p95_ms, max_ms, mean_ms}` (CPU time of the last
//! [`FRAME_RING`] `draw()` calls) plus the same split into `prepare_*` (Rust work building the
//! rect/line/label lists: culling, visiting bars, layout) and `submit_*` (GL uploads and draw
//! calls, `Canvas2D` text), `prepare_min_*` (per frame, the fastest of `setPrepareRepeats(k)`
//! repeated preparations: the CPU cost without preemption), and `resetFrameStats()`; in trace
//! mode also `folded()` and `trackRect(track)` (`trace`). Installed once; it asks whichever
//! swimlane is mounted (null when none is).

use leptos::prelude::*;
use pypto_protocol::timeline::BarRef;
use wasm_bindgen::prelude::*;

use super::{Lane, SwimlaneRenderer, SwimlaneUi};

/// `swimlane-<dataset>-<t0>-<t1>us.<ext>`: what is shown and its visible window.
fn export_name(r: &SwimlaneRenderer, dataset: &str, ext: &str) -> String {
    let (t0, t1) = r.camera.visible_range_us();
    crate::exports::file_name("swimlane", &[dataset, &crate::exports::range_part(t0, t1)], ext)
}

/// Downloads the view as drawn (both canvases, device pixels) as a PNG.
pub(super) fn export_png(r: &mut SwimlaneRenderer, dataset: &str) {
    // Draw now so the GL drawing buffer holds this frame while we copy it.
    r.draw();
    let name = export_name(r, dataset, "png");
    let [red, green, blue, _] = crate::settings::canvas_palette().background;
    crate::exports::download_canvas_png(&name, &[r.gl.canvas(), r.text.canvas()], &format!("rgb({red},{green},{blue})"));
}

/// Downloads the visible window as SVG: bars as `<rect>`s in their function colours, lane
/// labels, bar labels and the time axis's tick labels as `<text>`, selection, dependency
/// arrows, critical-path dimming and markers as drawn.
pub(super) fn export_svg(r: &mut SwimlaneRenderer, dataset: &str) {
    let (t0, t1) = r.camera.visible_range_us();
    let comment = format!("PyPTO viewer swimlane: {dataset}, {t0:.3}–{t1:.3} µs");
    let Some(svg) = r.frame_svg(&comment) else { return };
    let name = export_name(r, dataset, "svg");
    crate::browser::download_text(&name, "image/svg+xml;charset=utf-8", &svg);
}

/// How many recent frame durations `frameStats()` summarises.
pub(super) const FRAME_RING: usize = 4096;

/// Ring buffer of `draw()` CPU durations in ms (total, prepare, submit, `prepare_min`), plus the number of
/// frames since the last reset.
#[derive(Default)]
pub(super) struct FrameStats {
    /// Per frame: total, prepare, submit, fastest of the bench's repeated preparations.
    samples: Vec<[f64; 4]>,
    next: usize,
    count: u64,
    /// How many times each frame is prepared (`setPrepareRepeats`, bench only; 1 = normal).
    prepare_repeats: u32,
}

impl SwimlaneUi {
    /// How many times `draw()` prepares each frame (1 unless the bench asked for more).
    pub(super) fn prepare_repeats(self) -> u32 {
        self.frame_stats.read(|s| s.prepare_repeats.max(1)).unwrap_or(1)
    }

    /// Records one frame: its total CPU time, the part spent preparing (the rest is
    /// submission) and the fastest of the bench's repeated preparations (= `prepare_ms` when
    /// not repeating).
    pub(super) fn record_frame_ms(self, ms: f64, prepare_ms: f64, prepare_min_ms: f64) {
        let ms = [ms, prepare_ms, (ms - prepare_ms).max(0.0), prepare_min_ms];
        self.frame_stats.with(|s| {
            if s.samples.len() < FRAME_RING {
                s.samples.push(ms);
            } else if let Some(slot) = s.samples.get_mut(s.next) {
                *slot = ms;
            }
            s.next = (s.next + 1) % FRAME_RING;
            s.count += 1;
        });
    }
}

/// Nearest-rank percentile of sorted samples (`q` in 0..=1).
fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    // Truncation intended: the rank is a small non-negative index.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn frame_stats_js(ui: SwimlaneUi) -> JsValue {
    ui.frame_stats
        .read(|s| {
            let o = js_sys::Object::new();
            #[allow(clippy::cast_precision_loss)]
            let count = s.count as f64;
            set(&o, "count", &JsValue::from_f64(count));
            for (k, prefix) in ["", "prepare_", "submit_", "prepare_min_"].into_iter().enumerate() {
                let mut sorted: Vec<f64> = s.samples.iter().map(|m| m[k]).collect();
                sorted.sort_by(f64::total_cmp);
                #[allow(clippy::cast_precision_loss)]
                let mean = if sorted.is_empty() { 0.0 } else { sorted.iter().sum::<f64>() / sorted.len() as f64 };
                set(&o, &format!("{prefix}p50_ms"), &JsValue::from_f64(percentile(&sorted, 0.5)));
                set(&o, &format!("{prefix}p95_ms"), &JsValue::from_f64(percentile(&sorted, 0.95)));
                set(&o, &format!("{prefix}max_ms"), &JsValue::from_f64(sorted.last().copied().unwrap_or(0.0)));
                set(&o, &format!("{prefix}mean_ms"), &JsValue::from_f64(mean));
            }
            JsValue::from(o)
        })
        .unwrap_or(JsValue::NULL)
}

fn reset_frame_stats(ui: SwimlaneUi) {
    ui.frame_stats.with(|s| *s = FrameStats { prepare_repeats: s.prepare_repeats, ..FrameStats::default() });
}

/// Runs `f` on the mounted swimlane's renderer.
fn with_view_ret<T>(ui: SwimlaneUi, f: impl FnOnce(&mut SwimlaneRenderer) -> T) -> Option<T> {
    ui.lane()?.with(f)
}

fn rect_js(x: f64, y: f64, width: f64, height: f64) -> JsValue {
    let obj = js_sys::Object::new();
    for (key, value) in [("x", x), ("y", y), ("w", width), ("h", height)] {
        let _ = js_sys::Reflect::set(&obj, &JsValue::from_str(key), &JsValue::from_f64(value));
    }
    obj.into()
}

fn set(o: &js_sys::Object, k: &str, v: &JsValue) {
    let _ = js_sys::Reflect::set(o, &JsValue::from_str(k), v);
}

fn bar_js(b: BarRef) -> JsValue {
    let o = js_sys::Object::new();
    set(&o, "track", &JsValue::from(b.track));
    set(&o, "index", &JsValue::from(b.index));
    o.into()
}

fn container_origin(r: &SwimlaneRenderer) -> (f64, f64) {
    let rect = r.container.get_bounding_client_rect();
    (rect.left(), rect.top())
}

fn bar_rect(ui: SwimlaneUi, track: u32, index: u32) -> JsValue {
    with_view_ret(ui, |r| {
        let (x0, y, x1, h) = r.bar_rect(BarRef { track, index })?;
        let (ox, oy) = container_origin(r);
        Some(rect_js(ox + x0, oy + y, x1 - x0, h))
    })
    .flatten()
    .unwrap_or(JsValue::NULL)
}

/// The label a bar gets in the current label mode (whatever its width), or null.
fn bar_label_js(ui: SwimlaneUi, track: u32, index: u32) -> JsValue {
    with_view_ret(ui, |r| {
        let data = r.data.as_ref()?;
        let global = data.global(BarRef { track, index })?;
        let mode = r.nav.swimlane.with_untracked(|s| s.label_mode);
        Some(JsValue::from_str(&r.bar_label(data, mode, global)))
    })
    .flatten()
    .unwrap_or(JsValue::NULL)
}

/// A bar's `{setup, start, end}` on the timeline's axis (µs, as drawn), or null.
fn bar_times_js(ui: SwimlaneUi, track: u32, index: u32) -> JsValue {
    with_view_ret(ui, |r| {
        let data = r.data.as_ref()?;
        let (setup, start, end) = data.times(data.global(BarRef { track, index })?)?;
        let o = js_sys::Object::new();
        for (k, v) in [("setup", setup), ("start", start), ("end", end)] {
            set(&o, k, &JsValue::from_f64(v));
        }
        Some(JsValue::from(o))
    })
    .flatten()
    .unwrap_or(JsValue::NULL)
}

/// How the shown timeline's datasets share its axis: its label and, per dataset, its offset
/// (µs) and how it was aligned (`none`, `anchors`, `first`, `task`).
fn alignment_js(ui: SwimlaneUi) -> JsValue {
    with_view_ret(ui, |r| {
        let d = r.data.as_ref()?;
        let o = js_sys::Object::new();
        set(&o, "label", &JsValue::from_str(&d.header.alignment_label));
        let datasets = js_sys::Array::new();
        for a in &d.header.alignment {
            let x = js_sys::Object::new();
            set(&x, "dataset", &JsValue::from(a.dataset_id));
            set(&x, "offsetUs", &JsValue::from_f64(a.offset_us));
            set(&x, "alignedBy", &JsValue::from_str(a.aligned_by.key()));
            datasets.push(&x);
        }
        set(&o, "datasets", &datasets);
        Some(JsValue::from(o))
    })
    .flatten()
    .unwrap_or(JsValue::NULL)
}

fn track_index(ui: SwimlaneUi, label: &str) -> JsValue {
    with_view_ret(ui, |r| r.data.as_ref()?.header.tracks.iter().position(|t| t.label == label))
        .flatten()
        .map_or(JsValue::NULL, |i| JsValue::from(i as u32))
}

fn state_js(ui: SwimlaneUi) -> JsValue {
    with_view_ret(ui, |r| {
        let o = js_sys::Object::new();
        let (t0, t1) = r.camera.visible_range_us();
        set(&o, "t0", &JsValue::from_f64(t0));
        set(&o, "t1", &JsValue::from_f64(t1));
        set(&o, "selected", &r.selected.map_or(JsValue::NULL, bar_js));
        let group = js_sys::Array::new();
        for b in &r.group {
            group.push(&bar_js(*b));
        }
        set(&o, "group", &group);
        let markers = js_sys::Array::new();
        for m in r.nav.markers.get_untracked() {
            let mo = js_sys::Object::new();
            set(&mo, "t", &JsValue::from_f64(m.t_us));
            set(&mo, "label", &JsValue::from_str(&m.label));
            markers.push(&mo);
        }
        set(&o, "markers", &markers);
        let pinned = js_sys::Array::new();
        for t in &r.pinned {
            pinned.push(&JsValue::from(*t as u32));
        }
        set(&o, "pinned", &pinned);
        if let Some((a, b)) = r.ui.measure.get_untracked() {
            set(&o, "measure", &js_sys::Array::of2(&JsValue::from_f64(a), &JsValue::from_f64(b)));
        }
        set(&o, "timelineId", &r.data.as_ref().map_or(JsValue::NULL, |d| JsValue::from(d.header.timeline_id)));
        o.into()
    })
    .unwrap_or(JsValue::NULL)
}

fn arrows_js(ui: SwimlaneUi) -> JsValue {
    with_view_ret(ui, |r| {
        let out = js_sys::Array::new();
        let (ox, oy) = container_origin(r);
        for a in &r.arrows {
            let o = js_sys::Object::new();
            set(&o, "from", &bar_js(a.from));
            set(&o, "to", &bar_js(a.to));
            set(&o, "violation", &JsValue::from_bool(a.violation));
            if let Some((x0, y0, x1, y1)) = r.arrow_geometry(a) {
                for (k, v) in [("x0", ox + x0), ("y0", oy + y0), ("x1", ox + x1), ("y1", oy + y1)] {
                    set(&o, k, &JsValue::from_f64(v));
                }
            }
            out.push(&o);
        }
        JsValue::from(out)
    })
    .unwrap_or(JsValue::NULL)
}

fn is_dimmed_js(ui: SwimlaneUi, track: u32, index: u32) -> JsValue {
    with_view_ret(ui, |r| {
        let d = r.data.as_ref()?;
        let g = d.global(BarRef { track, index })?;
        let path = r.nav.swimlane.with_untracked(|s| s.path);
        let hl = r.ui.highlight_mask(d.header.timeline_id);
        Some(JsValue::from_bool(super::highlight::dimmed(path, hl.as_deref().map(Vec::as_slice), d.flags_of(g), g)))
    })
    .flatten()
    .unwrap_or(JsValue::NULL)
}

fn groups_js(ui: SwimlaneUi) -> JsValue {
    with_view_ret(ui, |r| {
        let d = r.data.as_ref()?;
        let out = js_sys::Array::new();
        for g in &d.header.groups {
            let o = js_sys::Object::new();
            set(&o, "label", &JsValue::from_str(&g.label));
            set(&o, "view", &JsValue::from_str(g.view.title()));
            set(&o, "dataset", &JsValue::from(g.dataset_id));
            let tracks = js_sys::Array::new();
            for &t in &g.tracks {
                let to = js_sys::Object::new();
                set(&to, "index", &JsValue::from(t));
                set(&to, "label", &JsValue::from_str(d.header.tracks.get(t as usize).map_or("", |i| i.label.as_str())));
                set(&to, "bars", &JsValue::from(d.track_range(t as usize).len() as u32));
                tracks.push(&to);
            }
            set(&o, "tracks", &tracks);
            out.push(&o);
        }
        let absent = js_sys::Array::new();
        for a in &d.header.absent {
            absent.push(&JsValue::from_str(&format!("{}: {}", a.view.title(), a.reason)));
        }
        let res = js_sys::Object::new();
        set(&res, "groups", &out);
        set(&res, "absent", &absent);
        Some(JsValue::from(res))
    })
    .flatten()
    .unwrap_or(JsValue::NULL)
}

fn scroll_to_track(ui: SwimlaneUi, track: u32) {
    let Some(lane) = ui.lane() else { return };
    lane.with(|r| {
        if let Some((false, y)) = r.layout.track_pos.get(track as usize).copied().flatten() {
            r.scroll_y_px = y - 40.0;
            r.clamp_scroll();
        }
        r.draw();
    });
    lane.redraw();
}

/// Sets `api[name]` to `f` (kept for the page's life: the API is installed once).
fn expose(api: &js_sys::Object, name: &str, f: &JsValue) {
    set(api, name, f);
}

/// Installs `window.__pyptoSwimlane`, asking whichever swimlane is mounted.
pub(super) fn install_automation_api(ui: SwimlaneUi) {
    let Some(window) = web_sys::window() else { return };
    let api = js_sys::Object::new();
    let f = Closure::<dyn Fn(u32, u32) -> JsValue>::new(move |t, i| bar_rect(ui, t, i));
    expose(&api, "barRect", &f.into_js_value());
    let f = Closure::<dyn Fn(u32, u32) -> JsValue>::new(move |t, i| bar_label_js(ui, t, i));
    expose(&api, "barLabel", &f.into_js_value());
    let f = Closure::<dyn Fn(u32, u32) -> JsValue>::new(move |t, i| bar_times_js(ui, t, i));
    expose(&api, "barTimes", &f.into_js_value());
    let f = Closure::<dyn Fn() -> JsValue>::new(move || alignment_js(ui));
    expose(&api, "alignment", &f.into_js_value());
    let f = Closure::<dyn Fn(String) -> JsValue>::new(move |label: String| track_index(ui, &label));
    expose(&api, "trackIndex", &f.into_js_value());
    let f = Closure::<dyn Fn() -> JsValue>::new(move || state_js(ui));
    expose(&api, "state", &f.into_js_value());
    let f = Closure::<dyn Fn() -> JsValue>::new(move || arrows_js(ui));
    expose(&api, "arrows", &f.into_js_value());
    let f = Closure::<dyn Fn(u32, u32) -> JsValue>::new(move |t, i| is_dimmed_js(ui, t, i));
    expose(&api, "isDimmed", &f.into_js_value());
    let f = Closure::<dyn Fn() -> JsValue>::new(move || groups_js(ui));
    expose(&api, "groups", &f.into_js_value());
    let f = Closure::<dyn Fn(u32)>::new(move |t| scroll_to_track(ui, t));
    expose(&api, "scrollToTrack", &f.into_js_value());
    let f = Closure::<dyn Fn() -> JsValue>::new(move || frame_stats_js(ui));
    expose(&api, "frameStats", &f.into_js_value());
    let f = Closure::<dyn Fn()>::new(move || reset_frame_stats(ui));
    expose(&api, "resetFrameStats", &f.into_js_value());
    let f = Closure::<dyn Fn(u32)>::new(move |k: u32| {
        ui.frame_stats.with(|s| s.prepare_repeats = k.clamp(1, 64));
    });
    expose(&api, "setPrepareRepeats", &f.into_js_value());
    super::trace::install_api(ui, &api);
    set(&window, "__pyptoSwimlane", &api);
}

/// The mounted lane (for the trace mode's API).
pub(super) fn mounted(ui: SwimlaneUi) -> Option<Lane> {
    ui.lane()
}
