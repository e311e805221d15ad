//! The timeline the worker sent (`FromWorker::Timeline` + its typed-array columns), copied once
//! into wasm memory, with the per-lane indexes the renderer needs: one "sub-lane" per
//! (track, row), each a start-sorted run of bars with its culling index and, for big lanes,
//! its level-of-detail pyramid (tagged with each representative's colour and path flags).
//! The chip timeline lays each track out row by row, so a sub-lane is a range of the columns
//! (no copy); a track whose rows interleave (the STRACE timeline's nested spans) gets gathered
//! copies.

use std::ops::Range;

use pypto_columns::PackedU32;
use pypto_protocol::timeline::{
    columns as col, BarRef, DatasetAlignment, RangeStatsRow, TimelineHeader, FLAG_MARKER, FLAG_OBSERVED_PATH, FLAG_STATIC_PATH, FLAG_TASK,
};
use pypto_protocol::{TaskId, TimelineView};
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

    /// Whether global bar `global` is in this sub-lane.
    pub fn contains(&self, global: usize) -> bool {
        match &self.bars {
            LaneBars::Range(r) => r.contains(&global),
            LaneBars::Gathered { bars, .. } => u32::try_from(global).is_ok_and(|g| bars.binary_search(&g).is_ok()),
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

/// Columns of a timeline plus derived per-lane data. Kept narrow, since a big capture has
/// millions of bars: colour slots, names, flags and tasks bit-packed, the setup start only for
/// tracks that have one, and no row column (a row is a sub-lane).
pub struct Timeline {
    pub header: TimelineHeader,
    pub track_offsets: Vec<u32>,
    pub start_us: Vec<f64>,
    pub end_us: Vec<f64>,
    /// Setup starts (the AICore receive time) of the tracks listed in `setup_offsets`, one
    /// run of the track's bars each; a bar of another track has none (setup = start).
    setup_start_us: Vec<f64>,
    /// Per track: where its bars' setup starts begin in `setup_start_us` ([`NO_SETUP`]: none
    /// differs from its start).
    setup_offsets: Vec<u32>,
    /// Each bar's colour key modulo [`DISTINCT_COLORS`]: all the palette looks at. This and
    /// the columns below are bit-packed (runs of one function or one flag take a few bits).
    color_slot: PackedU32,
    /// Each bar's index into the header's names.
    name_index: PackedU32,
    /// The protocol's `FLAG_*` bits.
    flags: PackedU32,
    /// Ring (low byte) / local id of each bar's task (`task_local` [`NO_TASK`] = none); both
    /// empty when the worker did not send them.
    task_ring: PackedU32,
    task_local: PackedU32,
    /// Sub-lanes of each track, by row: `track_lanes[t]` = indices into `lanes`.
    pub track_lanes: Vec<Range<usize>>,
    pub lanes: Vec<SubLane>,
    /// Number of bars on the static / observed critical path (flags).
    pub static_path_bars: u64,
    pub observed_path_bars: u64,
}

/// A colour key's palette slot (what [`pypto_render::palette::color_for_key`] looks at).
pub fn color_slot(color_key: u32) -> u8 {
    u8::try_from(color_key % DISTINCT_COLORS).unwrap_or(0)
}

/// "This track has no setup starts" in `Timeline::setup_offsets`.
const NO_SETUP: u32 = u32::MAX;

/// Entries copied out of a typed array at a time when a column is narrowed on its way in.
const COPY_CHUNK: usize = 1 << 16;

fn js_column<T: JsCast>(columns: &JsValue, name: &str) -> Option<T> {
    js_sys::Reflect::get(columns, &JsValue::from_str(name)).ok()?.dyn_into::<T>().ok()
}

fn typed_f64(columns: &JsValue, name: &str) -> Vec<f64> {
    js_column::<js_sys::Float64Array>(columns, name).map(|a| a.to_vec()).unwrap_or_default()
}

fn typed_len(columns: &JsValue, name: &str) -> usize {
    js_column::<js_sys::Object>(columns, name)
        .and_then(|a| js_sys::Reflect::get(&a, &JsValue::from_str("length")).ok())
        .and_then(|l| l.as_f64())
        .map_or(0, |l| l as usize)
}

fn typed_u32(columns: &JsValue, name: &str) -> Vec<u32> {
    js_column::<js_sys::Uint32Array>(columns, name).map(|a| a.to_vec()).unwrap_or_default()
}

/// A `Uint32Array` column mapped by `map` and bit-packed as it is copied in, a chunk at a
/// time (the full-width column never sits in wasm memory).
fn packed_u32(columns: &JsValue, name: &str, map: impl Fn(u32) -> u32) -> PackedU32 {
    let mut out = PackedU32::new();
    let Some(a) = js_column::<js_sys::Uint32Array>(columns, name) else { return out };
    let n = a.length() as usize;
    let mut buf = vec![0u32; COPY_CHUNK.min(n)];
    let mut at = 0;
    while at < n {
        let k = COPY_CHUNK.min(n - at);
        let Some(chunk) = buf.get_mut(..k) else { break };
        a.subarray(at as u32, (at + k) as u32).copy_to(chunk);
        for &v in chunk.iter() {
            out.push(map(v));
        }
        at += k;
    }
    out.shrink_to_fit();
    out
}

/// `range` of a typed array column, copied (empty when the column is absent or short).
fn js_range<A: JsCast, T: Default + Clone>(columns: &JsValue, name: &str, range: Range<usize>, copy: impl Fn(&A, &mut [T])) -> Vec<T> {
    let Some(a) = js_column::<A>(columns, name) else { return Vec::new() };
    let mut out = vec![T::default(); range.len()];
    copy(&a, &mut out);
    out
}

impl Timeline {
    /// Where the dataset of `track` sits on this timeline's axis (`None`: not shifted or not
    /// said).
    pub fn alignment_of_track(&self, track: u32) -> Option<&DatasetAlignment> {
        let group = self.header.tracks.get(track as usize)?.group;
        let dataset = self.header.groups.get(group as usize)?.dataset_id;
        self.header.alignment.iter().find(|a| a.dataset_id == dataset)
    }

    /// Reads the columns beside a `Timeline` reply.
    pub fn from_js(header: TimelineHeader, columns: &JsValue) -> Timeline {
        let n = typed_len(columns, col::START_US);
        let rows = |r: Range<usize>| -> Vec<u32> {
            if r.end > typed_len(columns, col::ROW) {
                return vec![0; r.len()];
            }
            js_range(columns, col::ROW, r.clone(), |a: &js_sys::Uint32Array, out| a.subarray(r.start as u32, r.end as u32).copy_to(out))
        };
        let mut t = Timeline::build(
            header,
            typed_u32(columns, col::TRACK_OFFSETS),
            typed_f64(columns, col::START_US),
            typed_f64(columns, col::END_US),
            packed_u32(columns, col::COLOR_KEY, |k| u32::from(color_slot(k))),
            packed_u32(columns, col::NAME_INDEX, |n| n),
            packed_u32(columns, col::FLAGS, |v| v & 0xFF),
            &rows,
        );
        if typed_len(columns, col::SETUP_START_US) == n {
            t.set_setup_starts(|r| {
                js_range(columns, col::SETUP_START_US, r.clone(), |a: &js_sys::Float64Array, out| {
                    a.subarray(r.start as u32, r.end as u32).copy_to(out);
                })
            });
        }
        if typed_len(columns, col::TASK_RING) == n && typed_len(columns, col::TASK_LOCAL) == n && n > 0 {
            t.task_ring = packed_u32(columns, col::TASK_RING, |v| v & 0xFF);
            t.task_local = packed_u32(columns, col::TASK_LOCAL, |v| v);
        }
        t
    }

    /// Keeps the setup starts (`setup_of(track range)` gives a track's) of the tracks where
    /// one differs from its bar's start.
    pub fn set_setup_starts(&mut self, setup_of: impl Fn(Range<usize>) -> Vec<f64>) {
        self.setup_start_us.clear();
        self.setup_offsets.clear();
        for track in 0..self.header.tracks.len() {
            let range = self.track_range(track);
            let setup = setup_of(range.clone());
            let starts = self.start_us.get(range).unwrap_or_default();
            if setup.len() == starts.len() && setup.iter().zip(starts).any(|(s, b)| s < b) {
                self.setup_offsets.push(self.setup_start_us.len() as u32);
                self.setup_start_us.extend_from_slice(&setup);
            } else {
                self.setup_offsets.push(NO_SETUP);
            }
        }
        self.setup_start_us.shrink_to_fit();
    }

    /// Whether the worker sent the task-id columns.
    pub fn has_task_ids(&self) -> bool {
        !self.task_local.is_empty()
    }

    /// `(ring, local)` of a bar's task (the ring's low byte, as labels show it); `None` when
    /// the bar has no task or the columns are absent.
    pub fn task_of(&self, global: usize) -> Option<(u32, u32)> {
        let ring = self.task_ring.get(global)?;
        let local = self.task_local.get(global).filter(|&l| l != NO_TASK)?;
        Some((ring, local))
    }

    /// The task id of a bar as shown in labels: `t{local}` on ring 0, else `r{ring}t{local}`;
    /// `None` when the bar has no task or the columns are absent.
    /// The Worker View bar of `task` in the groups of dataset `dataset_id`, on core `core_id`
    /// when given (an SPMD task has one bar per block), else its first bar.
    pub fn find_task_bar(&self, dataset_id: u32, task: TaskId, core_id: Option<u32>) -> Option<BarRef> {
        let key = task.ring_local();
        let mut fallback = None;
        for g in self.header.groups.iter().filter(|g| g.view == TimelineView::Worker && g.dataset_id == dataset_id) {
            for &track in &g.tracks {
                let Some(info) = self.header.tracks.get(track as usize) else { continue };
                let on_core =
                    core_id.is_none_or(|c| info.core_type.is_some() && info.label.rsplit('_').next() == Some(c.to_string().as_str()));
                for gi in self.track_range(track as usize) {
                    if self.task_of(gi) == Some(key) {
                        let Some(bar) = self.bar_ref(gi) else { continue };
                        if on_core {
                            return Some(bar);
                        }
                        fallback.get_or_insert(bar);
                    }
                }
            }
        }
        fallback
    }

    /// The first bar (earliest start) of `task` in `view` of dataset `dataset_id`.
    pub fn find_bar(&self, dataset_id: u32, task: TaskId, view: TimelineView) -> Option<BarRef> {
        let key = task.ring_local();
        let mut best: Option<(f64, usize)> = None;
        for g in self.header.groups.iter().filter(|g| g.view == view && g.dataset_id == dataset_id) {
            let lanes = g.tracks.iter().filter_map(|&track| self.track_lanes.get(track as usize)).flat_map(Clone::clone);
            for sub in lanes.filter_map(|l| self.lanes.get(l)) {
                let hit = (0..sub.len()).filter_map(|k| sub.global(k)).find(|&gi| self.task_of(gi) == Some(key));
                // A sub-lane is sorted by start: its first hit is its earliest.
                if let Some(gi) = hit {
                    let s = self.start_us.get(gi).copied().unwrap_or(f64::INFINITY);
                    if best.is_none_or(|(b, _)| s < b) {
                        best = Some((s, gi));
                    }
                }
            }
        }
        self.bar_ref(best?.1)
    }

    /// The timeline of these columns, its sub-lanes built: `rows(track range)` gives the
    /// drawn row of each bar of a track (read a track at a time, never kept).
    #[allow(clippy::too_many_arguments)] // one argument per column
    pub fn build(
        header: TimelineHeader,
        track_offsets: Vec<u32>,
        start_us: Vec<f64>,
        end_us: Vec<f64>,
        color_slot: PackedU32,
        name_index: PackedU32,
        flags: PackedU32,
        rows_of: &dyn Fn(Range<usize>) -> Vec<u32>,
    ) -> Timeline {
        let mut t = Timeline {
            header,
            track_offsets,
            start_us,
            end_us,
            setup_start_us: Vec::new(),
            setup_offsets: Vec::new(),
            color_slot,
            name_index,
            flags,
            task_ring: PackedU32::new(),
            task_local: PackedU32::new(),
            track_lanes: Vec::new(),
            lanes: Vec::new(),
            static_path_bars: 0,
            observed_path_bars: 0,
        };
        for f in t.flags.iter() {
            t.static_path_bars += u64::from(f & FLAG_STATIC_PATH != 0);
            t.observed_path_bars += u64::from(f & FLAG_OBSERVED_PATH != 0);
        }
        for track in 0..t.header.tracks.len() {
            let rows = t.header.tracks.get(track).map_or(1, |i| i.rows.max(1));
            let range = t.track_range(track);
            let track_rows: Vec<u32> = rows_of(range.clone()).into_iter().map(|x| x.min(rows - 1)).collect();
            let laid_out_by_row = track_rows.is_sorted();
            let first = t.lanes.len();
            for r in 0..rows {
                let bars = if laid_out_by_row {
                    let lo = range.start + track_rows.partition_point(|&x| x < r);
                    let hi = range.start + track_rows.partition_point(|&x| x <= r);
                    LaneBars::Range(lo..hi)
                } else {
                    let bars: Vec<u32> = range.clone().zip(&track_rows).filter(|&(_, &x)| x == r).map(|(i, _)| i as u32).collect();
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
            (0..lane.len()).filter(|&k| lane.global(k).is_some_and(|g| self.flags_of(g) & flag != 0)).map(|k| k as u32).collect()
        };
        let (markers, static_path, observed_path) = (flagged(FLAG_MARKER), flagged(FLAG_STATIC_PATH), flagged(FLAG_OBSERVED_PATH));
        let lod = LanePyramid::build(start, end, |k| {
            let g = lane.global(k).unwrap_or(0);
            lod_tag(self.color_key_of(g), self.flags_of(g))
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
        self.name_index.get(global).and_then(|n| self.header.names.get(n as usize)).map_or("", String::as_str)
    }

    /// A bar's colour key for [`pypto_render::palette::color_for_key`] (its palette slot).
    pub fn color_key_of(&self, global: usize) -> u32 {
        self.color_slot.get(global).unwrap_or(0)
    }

    pub fn flags_of(&self, global: usize) -> u32 {
        self.flags.get(global).unwrap_or(0)
    }

    /// The drawn row of a bar (the row of its sub-lane).
    pub fn row_of(&self, global: usize) -> Option<u32> {
        let bar = self.bar_ref(global)?;
        let lanes = self.track_lanes.get(bar.track as usize)?.clone();
        self.lanes.get(lanes)?.iter().find(|l| l.contains(global)).map(|l| l.row)
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

    /// Per-name statistics of the bars of `tracks` overlapping `[start_us, end_us]` (count,
    /// total/avg/max of `end − start`), sorted by total descending then name: the area
    /// selection's table, from the page's own columns (the analysis worker keeps no times of
    /// most bars).
    pub fn range_stats(&self, tracks: &[u32], start_us: f64, end_us: f64) -> Vec<RangeStatsRow> {
        let mut acc: std::collections::HashMap<u32, (u64, f64, f64)> = std::collections::HashMap::new();
        for &track in tracks {
            let lanes = self.track_lanes.get(track as usize).cloned().unwrap_or_default();
            for lane in self.lanes.get(lanes).unwrap_or_default() {
                let (starts, ends) = self.lane_times(lane);
                // The sub-lane's bars overlapping the range, found through its culling index
                // (not a scan from its first bar).
                lane.index.overlapping(starts, ends, start_us, end_us, |k| {
                    let (Some(&s), Some(&e)) = (starts.get(k), ends.get(k)) else { return };
                    let Some(name) = lane.global(k).and_then(|g| self.name_index.get(g)) else { return };
                    if e < start_us {
                        return;
                    }
                    let a = acc.entry(name).or_insert((0, 0.0, 0.0));
                    a.0 += 1;
                    a.1 += e - s;
                    a.2 = a.2.max(e - s);
                });
            }
        }
        let mut rows: Vec<RangeStatsRow> = acc
            .into_iter()
            .map(|(n, (count, total_us, max_us))| RangeStatsRow {
                name: self.header.names.get(n as usize).cloned().unwrap_or_default(),
                count,
                total_us,
                avg_us: if count > 0 { total_us / count as f64 } else { 0.0 },
                max_us,
            })
            .collect();
        rows.sort_by(|a, b| b.total_us.total_cmp(&a.total_us).then(a.name.cmp(&b.name)));
        rows
    }

    /// `(setup_start, start, end)` of a bar.
    pub fn times(&self, global: usize) -> Option<(f64, f64, f64)> {
        let s = self.start_us.get(global).copied()?;
        let e = self.end_us.get(global).copied()?;
        let track = self.track_offsets.partition_point(|&o| o as usize <= global).checked_sub(1)?;
        let setup = match self.setup_offsets.get(track).copied().filter(|&o| o != NO_SETUP) {
            Some(offset) => {
                let first = self.track_offsets.get(track).copied()? as usize;
                self.setup_start_us.get(offset as usize + global - first).copied().unwrap_or(s)
            }
            None => s,
        };
        Some((setup.min(s), s, e))
    }
}
