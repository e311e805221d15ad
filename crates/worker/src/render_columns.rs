//! A timeline's render columns as the page draws them (chip swimlane and Chrome traces
//! alike): JS typed arrays beside the header, for the timeline handlers and the jobs that
//! build timelines. A chip timeline's columns are filled piece by piece as it is built
//! ([`JsColumns`]), so they never all sit in the worker's wasm memory.

use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::timeline::{self, RenderColumns, Timeline};
use pypto_formats::packed::PackedU32;

use crate::bench_log::bench_log;
use crate::clock::now_ms;
use crate::transport::Columns;

/// The typed arrays the page draws a timeline from (chip swimlane and Chrome traces alike):
/// the track offsets and per-bar name indices beside the render columns `c`.
pub(crate) fn render_columns(track_offsets: &[u32], name_index: &[u32], c: &RenderColumns) -> Columns {
    let mut columns = Columns::new();
    columns.u32("track_offsets", track_offsets);
    columns.f64("start_us", &c.start_us);
    columns.f64("end_us", &c.end_us);
    columns.f64("setup_start_us", &c.setup_start_us);
    columns.u32("color_key", &c.color_key);
    columns.u32("name_index", name_index);
    columns.u32("row", &c.row);
    columns.u32("flags", &c.flags);
    columns.u32("task_ring", &c.task_ring);
    columns.u32("task_local", &c.task_local);
    columns
}

/// The render columns in JS typed arrays, filled piece by piece as the timeline is built
/// (so they never all sit in the worker's wasm memory), sized for `capacity` bars.
pub(crate) struct JsColumns {
    f64s: [js_sys::Float64Array; 3],
    u32s: [js_sys::Uint32Array; 5],
    bars: u32,
    capacity: u32,
}

impl JsColumns {
    const F64_NAMES: [&'static str; 3] = ["start_us", "end_us", "setup_start_us"];
    const U32_NAMES: [&'static str; 5] = ["color_key", "row", "flags", "task_ring", "task_local"];

    pub(crate) fn new(capacity: usize) -> Self {
        let n = capacity as u32;
        let f = || js_sys::Float64Array::new_with_length(n);
        let u = || js_sys::Uint32Array::new_with_length(n);
        Self { f64s: [f(), f(), f()], u32s: [u(), u(), u(), u(), u()], bars: 0, capacity: n }
    }

    /// Room for `more` bars (the capacity is an upper bound of the bars built; should it
    /// ever fall short, the arrays grow rather than a write failing).
    fn reserve(&mut self, more: u32) {
        let need = self.bars + more;
        if need <= self.capacity {
            return;
        }
        let n = need.max(self.capacity.saturating_mul(2));
        for a in &mut self.f64s {
            let bigger = js_sys::Float64Array::new_with_length(n);
            bigger.set(a, 0);
            *a = bigger;
        }
        for a in &mut self.u32s {
            let bigger = js_sys::Uint32Array::new_with_length(n);
            bigger.set(a, 0);
            *a = bigger;
        }
        self.capacity = n;
    }

    /// The columns cut to the bars written, beside the track offsets and name indices.
    pub(crate) fn into_columns(self, track_offsets: &[u32], name_index: &PackedU32) -> Columns {
        let mut columns = Columns::new();
        columns.u32("track_offsets", track_offsets);
        for (name, a) in Self::F64_NAMES.iter().zip(&self.f64s) {
            columns.js(name, &a.slice(0, self.bars));
        }
        columns.u32_packed("name_index", name_index);
        for (name, a) in Self::U32_NAMES.iter().zip(&self.u32s) {
            columns.js(name, &a.slice(0, self.bars));
        }
        columns
    }
}

impl timeline::ColumnSink for JsColumns {
    fn bars(&mut self, c: &RenderColumns) {
        let (at, n) = (self.bars, c.start_us.len() as u32);
        self.reserve(n);
        for (a, v) in self.f64s.iter().zip([&c.start_us, &c.end_us, &c.setup_start_us]) {
            a.subarray(at, at + n).copy_from(v);
        }
        for (a, v) in self.u32s.iter().zip([&c.color_key, &c.row, &c.flags, &c.task_ring, &c.task_local]) {
            a.subarray(at, at + n).copy_from(v);
        }
        self.bars += n;
    }
}

/// Builds the timeline of `models` with its render columns in JS typed arrays (filled piece by
/// piece, so they never all sit in wasm memory).
pub(crate) fn build_columns(models: &[(&str, &RuntimeModel)]) -> (Timeline, js_sys::Object) {
    let started_ms = now_ms();
    let mut sink = JsColumns::new(timeline::bar_capacity(models));
    let t = timeline::build_into(models, &mut sink);
    bench_log(&format!("pypto-worker timeline built: {} bars in {:.0} ms", t.source.len(), now_ms() - started_ms));
    let columns = sink.into_columns(&t.track_offsets, &t.name_index).into_object();
    (t, columns)
}
