//! Compatibility with a worker that does not know `Timeline` yet: turns its Worker View
//! columns into a one-group timeline (no phases, flags, setup or paths).

use pypto_protocol::{LegendEntry, TimelineHeader, TimelineView, TrackGroupInfo, TrackInfo, WorkerViewColumns, FLAG_TASK};
use wasm_bindgen::{JsCast, JsValue};

use super::data::Timeline;

fn column<T: JsCast>(columns: &JsValue, name: &str) -> Option<T> {
    js_sys::Reflect::get(columns, &JsValue::from_str(name)).ok()?.dyn_into::<T>().ok()
}

pub fn from_worker_view(header: WorkerViewColumns, columns: &JsValue) -> Timeline {
    let offsets = column::<js_sys::Uint32Array>(columns, "lane_offsets").map(|a| a.to_vec()).unwrap_or_default();
    let start = column::<js_sys::Float64Array>(columns, "start_us").map(|a| a.to_vec()).unwrap_or_default();
    let end = column::<js_sys::Float64Array>(columns, "end_us").map(|a| a.to_vec()).unwrap_or_default();
    let color = column::<js_sys::Uint32Array>(columns, "color_index").map(|a| a.to_vec()).unwrap_or_default();
    let names = column::<js_sys::Uint32Array>(columns, "name_index").map(|a| a.to_vec()).unwrap_or_default();
    let n = start.len();
    let tracks: Vec<TrackInfo> = header
        .lanes
        .iter()
        .map(|l| TrackInfo { label: l.label.clone(), view: TimelineView::Worker, group: 0, rows: 1, core_type: Some(l.core_type.clone()) })
        .collect();
    let mut legend: Vec<LegendEntry> = Vec::new();
    for (&key, &name) in color.iter().zip(&names) {
        match legend.iter_mut().find(|e| e.color_key == key) {
            Some(e) => e.bars += 1,
            None => legend.push(LegendEntry { color_key: key, name: header.names.get(name as usize).cloned().unwrap_or_default(), bars: 1 }),
        }
    }
    let group = TrackGroupInfo { label: "Worker View".into(), view: TimelineView::Worker, dataset_id: header.dataset_id, tracks: (0..tracks.len() as u32).collect() };
    let th = TimelineHeader {
        timeline_id: 0,
        dataset_ids: vec![header.dataset_id],
        groups: vec![group],
        tracks,
        names: header.names,
        legend,
        absent: Vec::new(),
        bar_count: header.bar_count,
        first_start_us: header.first_start_us,
        last_end_us: header.last_end_us,
        has_static_path: false,
        has_observed_path: false,
        path_source: String::new(),
        warnings: Vec::new(),
    };
    let flags = vec![u8::try_from(FLAG_TASK).unwrap_or(0); n];
    let slots = color.iter().map(|&k| super::data::color_slot(k)).collect();
    Timeline::build(th, offsets, start, end, slots, super::data::NameIndex::Wide(names), flags, &|r| vec![0; r.len()])
}
