//! The timeline the worker sent (`FromWorker::Timeline` + its typed-array columns), copied once
//! into wasm memory, with the per-lane indexes the renderer needs: one "sub-lane" per
//! (track, row), each a start-sorted run of bars with its culling index and, for big lanes,
//! its level-of-detail pyramid (tagged with each representative's colour and path flags).
//! The chip timeline lays each track out row by row, so a sub-lane is a range of the columns
//! (no copy); a track whose rows interleave (the STRACE timeline's nested spans) gets gathered
//! copies.

use std::ops::Range;

use pypto_protocol::{BarRef, TimelineHeader, FLAG_MARKER, FLAG_OBSERVED_PATH, FLAG_STATIC_PATH, FLAG_TASK};
use pypto_render::lane_lod::LanePyramid;
use pypto_render::lanes::LaneIndex;
use pypto_render::palette::DISTINCT_COLORS;
use wasm_bindgen::{JsCast, JsValue};

/// "No task" in the `task_ring` / `task_local` columns.
pub const NO_TASK: u32 = u32::MAX;

/// One drawn row of a track: its bars, by start.
pub struct SubLane {
    pub row: u32,
    pub bars: LaneBars,
    pub index: LaneIndex,
    /// Positions (into the sub-lane) of the bars flagged [`FLAG_MARKER`], by start.
    pub markers: Vec<u32>,
    /// Level-of-detail pyramid for zoomed-out frames (`None`: small lane, draw exact bars);
    /// its tags are [`lod_tag`]s.
    pub lod: Option<LanePyramid>,
    /// Positions (into the sub-lane) of the bars on the static / observed critical path, by
    /// start: drawn over the lane while that path is shown, so they stay visible at any zoom.
    pub static_path: Vec<u32>,
    pub observed_path: Vec<u32>,
}

/// Where a sub-lane's bars are.
pub enum LaneBars {
    /// A range of the timeline's columns (global bar indices), sorted by start.
    Range(Range<usize>),
    /// Copies for a row whose bars interleave with other rows': their global indices and
    /// times, by start.
    Gathered { bars: Vec<u32>, start_us: Vec<f64>, end_us: Vec<f64> },
}

impl SubLane {
    /// Global bar index of the sub-lane's `k`-th bar.
    pub fn global(&self, k: usize) -> Option<usize> {
        match &self.bars {
            LaneBars::Range(r) => r.start.checked_add(k).filter(|&g| g < r.end),
            LaneBars::Gathered { bars, .. } => bars.get(k).map(|&g| g as usize),
        }
    }

    pub fn len(&self) -> usize {
        match &self.bars {
            LaneBars::Range(r) => r.len(),
            LaneBars::Gathered { bars, .. } => bars.len(),
        }
    }
}

/// Path flags kept in a [`lod_tag`].
const TAG_PATH_FLAGS: u32 = FLAG_STATIC_PATH | FLAG_OBSERVED_PATH;

/// What a LOD bucket remembers of its representative bar: the colour slot
/// (`color_key % DISTINCT_COLORS`, which is what the palette looks at) and the path flags.
/// Equal tags draw identically, so neighbouring columns with equal tags merge into one rect.
pub fn lod_tag(color_key: u32, flags: u32) -> u16 {
    // < 4 · DISTINCT_COLORS, so the cast keeps every bit.
    ((color_key % DISTINCT_COLORS) << 2 | (flags & TAG_PATH_FLAGS)) as u16
}

/// `(color_key, flags)` of a [`lod_tag`], for the drawing code's colour function.
pub fn lod_tag_parts(tag: u16) -> (u32, u32) {
    let tag = u32::from(tag);
    (tag >> 2, tag & TAG_PATH_FLAGS)
}

/// Columns of a timeline plus derived per-lane data.
pub struct Timeline {
    pub header: TimelineHeader,
    pub track_offsets: Vec<u32>,
    pub start_us: Vec<f64>,
    pub end_us: Vec<f64>,
    pub setup_start_us: Vec<f64>,
    pub color_key: Vec<u32>,
    pub name_index: Vec<u32>,
    pub row: Vec<u32>,
    pub flags: Vec<u32>,
    /// Ring / local id of each bar's task ([`NO_TASK`] = none); both empty when the worker
    /// did not send them (older worker, Worker View fallback).
    pub task_ring: Vec<u32>,
    pub task_local: Vec<u32>,
    /// Sub-lanes of each track, by row: `track_lanes[t]` = indices into `lanes`.
    pub track_lanes: Vec<Range<usize>>,
    pub lanes: Vec<SubLane>,
    /// Number of bars on the static / observed critical path (flags).
    pub static_path_bars: u64,
    pub observed_path_bars: u64,
}

fn typed_f64(columns: &JsValue, name: &str) -> Vec<f64> {
    js_sys::Reflect::get(columns, &JsValue::from_str(name))
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::Float64Array>().ok())
        .map(|a| a.to_vec())
        .unwrap_or_default()
}

fn typed_u32(columns: &JsValue, name: &str) -> Vec<u32> {
    js_sys::Reflect::get(columns, &JsValue::from_str(name))
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::Uint32Array>().ok())
        .map(|a| a.to_vec())
        .unwrap_or_default()
}

impl Timeline {
    /// Reads the columns beside a `Timeline` reply.
    pub fn from_js(header: TimelineHeader, columns: &JsValue) -> Timeline {
        let start_us = typed_f64(columns, "start_us");
        let mut setup_start_us = typed_f64(columns, "setup_start_us");
        if setup_start_us.len() != start_us.len() {
            setup_start_us.clone_from(&start_us);
        }
        let mut t = Timeline::build(
            header,
            typed_u32(columns, "track_offsets"),
            start_us,
            typed_f64(columns, "end_us"),
            setup_start_us,
            typed_u32(columns, "color_key"),
            typed_u32(columns, "name_index"),
            typed_u32(columns, "row"),
            typed_u32(columns, "flags"),
        );
        t.set_task_ids(typed_u32(columns, "task_ring"), typed_u32(columns, "task_local"));
        t
    }

    /// Sets the task-id columns; ignored (left empty) unless both have one entry per bar.
    pub fn set_task_ids(&mut self, task_ring: Vec<u32>, task_local: Vec<u32>) {
        let n = self.start_us.len();
        if task_ring.len() == n && task_local.len() == n && n > 0 {
            self.task_ring = task_ring;
            self.task_local = task_local;
        }
    }

    /// Whether the worker sent the task-id columns.
    pub fn has_task_ids(&self) -> bool {
        !self.task_local.is_empty()
    }

    /// The task id of a bar as shown in labels: `t{local}` on ring 0, else `r{ring}t{local}`;
    /// `None` when the bar has no task or the columns are absent.
    pub fn task_id_label(&self, global: usize) -> Option<String> {
        let ring = self.task_ring.get(global).copied()?;
        let local = self.task_local.get(global).copied()?;
        if ring == NO_TASK || local == NO_TASK {
            return None;
        }
        Some(if ring == 0 { format!("t{local}") } else { format!("r{ring}t{local}") })
    }

    #[allow(clippy::too_many_arguments)] // one argument per column
    pub fn build(
        header: TimelineHeader,
        track_offsets: Vec<u32>,
        start_us: Vec<f64>,
        end_us: Vec<f64>,
        setup_start_us: Vec<f64>,
        color_key: Vec<u32>,
        name_index: Vec<u32>,
        row: Vec<u32>,
        flags: Vec<u32>,
    ) -> Timeline {
        let mut t = Timeline {
            header,
            track_offsets,
            start_us,
            end_us,
            setup_start_us,
            color_key,
            name_index,
            row,
            flags,
            task_ring: Vec::new(),
            task_local: Vec::new(),
            track_lanes: Vec::new(),
            lanes: Vec::new(),
            static_path_bars: 0,
            observed_path_bars: 0,
        };
        for &f in &t.flags {
            t.static_path_bars += u64::from(f & FLAG_STATIC_PATH != 0);
            t.observed_path_bars += u64::from(f & FLAG_OBSERVED_PATH != 0);
        }
        for track in 0..t.header.tracks.len() {
            let rows = t.header.tracks.get(track).map_or(1, |i| i.rows.max(1));
            let range = t.track_range(track);
            let row_of = |i: usize| t.row.get(i).copied().unwrap_or(0).min(rows - 1);
            let laid_out_by_row = range.clone().skip(1).all(|i| row_of(i - 1) <= row_of(i));
            let first = t.lanes.len();
            for r in 0..rows {
                let bars = if laid_out_by_row {
                    let track_rows = t.row.get(range.clone()).unwrap_or_default();
                    let lo = range.start + track_rows.partition_point(|&x| x.min(rows - 1) < r);
                    let hi = range.start + track_rows.partition_point(|&x| x.min(rows - 1) <= r);
                    LaneBars::Range(lo..hi)
                } else {
                    let bars: Vec<u32> = range.clone().filter(|&i| row_of(i) == r).map(|i| i as u32).collect();
                    let start_us = bars.iter().map(|&i| t.start_us.get(i as usize).copied().unwrap_or(0.0)).collect();
                    let end_us = bars.iter().map(|&i| t.end_us.get(i as usize).copied().unwrap_or(0.0)).collect();
                    LaneBars::Gathered { bars, start_us, end_us }
                };
                let lane = t.sub_lane(r, bars);
                t.lanes.push(lane);
            }
            t.track_lanes.push(first..t.lanes.len());
        }
        t
    }

    /// A sub-lane over `bars`, with its index, flagged positions and LOD pyramid.
    fn sub_lane(&self, row: u32, bars: LaneBars) -> SubLane {
        let mut lane = SubLane {
            row,
            bars,
            index: LaneIndex::new(&[], &[]),
            markers: Vec::new(),
            lod: None,
            static_path: Vec::new(),
            observed_path: Vec::new(),
        };
        let (start, end) = self.lane_times(&lane);
        let index = LaneIndex::new(start, end);
        let flagged = |flag: u32| -> Vec<u32> {
            (0..lane.len())
                .filter(|&k| lane.global(k).is_some_and(|g| self.flags.get(g).is_some_and(|f| f & flag != 0)))
                .map(|k| k as u32)
                .collect()
        };
        let (markers, static_path, observed_path) = (flagged(FLAG_MARKER), flagged(FLAG_STATIC_PATH), flagged(FLAG_OBSERVED_PATH));
        let lod = LanePyramid::build(start, end, |k| {
            let g = lane.global(k).unwrap_or(0);
            lod_tag(self.color_key.get(g).copied().unwrap_or(0), self.flags.get(g).copied().unwrap_or(0))
        });
        lane.index = index;
        lane.markers = markers;
        lane.static_path = static_path;
        lane.observed_path = observed_path;
        lane.lod = lod;
        lane
    }

    /// The start and end columns of a sub-lane's bars, by start.
    pub fn lane_times<'a>(&'a self, lane: &'a SubLane) -> (&'a [f64], &'a [f64]) {
        match &lane.bars {
            LaneBars::Range(r) => (self.start_us.get(r.clone()).unwrap_or_default(), self.end_us.get(r.clone()).unwrap_or_default()),
            LaneBars::Gathered { start_us, end_us, .. } => (start_us, end_us),
        }
    }

    /// Global bar indices of a track.
    pub fn track_range(&self, track: usize) -> Range<usize> {
        let n = self.start_us.len().min(self.end_us.len());
        let start = self.track_offsets.get(track).copied().unwrap_or(0) as usize;
        let end = self.track_offsets.get(track + 1).copied().unwrap_or(0) as usize;
        start.min(n)..end.min(n).max(start.min(n))
    }

    /// Global index of a bar reference, if it exists.
    pub fn global(&self, bar: BarRef) -> Option<usize> {
        let range = self.track_range(bar.track as usize);
        let i = range.start + bar.index as usize;
        (i < range.end).then_some(i)
    }

    /// The bar reference of a global index.
    pub fn bar_ref(&self, global: usize) -> Option<BarRef> {
        let track = self.track_offsets.partition_point(|&o| o as usize <= global).checked_sub(1)?;
        let start = self.track_offsets.get(track).copied()? as usize;
        (track < self.header.tracks.len()).then_some(BarRef { track: track as u32, index: (global - start) as u32 })
    }

    pub fn name_of(&self, global: usize) -> &str {
        self.name_index.get(global).and_then(|&n| self.header.names.get(n as usize)).map_or("", String::as_str)
    }

    pub fn flags_of(&self, global: usize) -> u32 {
        self.flags.get(global).copied().unwrap_or(0)
    }

    pub fn is_marker(&self, global: usize) -> bool {
        self.flags_of(global) & FLAG_MARKER != 0
    }

    pub fn is_task(&self, global: usize) -> bool {
        self.flags_of(global) & FLAG_TASK != 0
    }

    /// Heap bytes of the lanes' LOD pyramids (lives in the page, next to the columns).
    pub fn lod_bytes(&self) -> usize {
        self.lanes.iter().filter_map(|l| l.lod.as_ref()).map(LanePyramid::heap_bytes).sum()
    }

    /// `(setup_start, start, end)` of a bar.
    pub fn times(&self, global: usize) -> Option<(f64, f64, f64)> {
        let s = self.start_us.get(global).copied()?;
        let e = self.end_us.get(global).copied()?;
        let setup = self.setup_start_us.get(global).copied().unwrap_or(s).min(s);
        Some((setup, s, e))
    }
}
