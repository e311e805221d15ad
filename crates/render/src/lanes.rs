//! Per-lane culling and bar emission for timeline views.
//!
//! A lane is two columns, `start_us` (sorted ascending) and `end_us`, as the worker hands them
//! over. Each frame the app asks which bars can touch the visible window
//! ([`visible_range`], or [`LaneIndex::visible_range`] when bars may nest) and turns them into
//! [`RectInstance`]s with [`emit_bars`], which merges runs of sub-pixel bars that land in the
//! same pixel column into one 1-px rect, jumping over each such run with a binary search
//! ([`visit_bars`]). Work per lane per frame is O(visible pixel columns × log n), and
//! the number of rects per lane stays below about twice the viewport width however many bars
//! the lane holds. No allocation: rects are appended to a caller-owned `Vec` reused across
//! frames.

use std::ops::Range;

use crate::camera::TimeCamera;
use crate::RectInstance;

/// Indices of the bars of a lane that can overlap `[t0, t1]`, for lanes whose bars do not nest
/// (each bar ends no earlier than the bars before it ended, as in a sequential lane with light
/// overlaps). Bars starting before `t0` but ending at or after it are included.
///
/// `sorted_start` must be ascending; `end` is parallel to it (a shorter `end` is treated as
/// ending the lane there). O(log n) plus the number of bars that straddle `t0`. For lanes where
/// a long bar may contain shorter ones, use [`LaneIndex`], which is correct for any input.
pub fn visible_range(sorted_start: &[f64], end: &[f64], t0: f64, t1: f64) -> Range<usize> {
    let n = sorted_start.len().min(end.len());
    let starts = &sorted_start[..n];
    let ends = &end[..n];
    // Bars starting after t1 are invisible; a bar starting exactly at t1 touches the window.
    let hi = starts.partition_point(|&s| s <= t1);
    // Bars starting at or after t0 (and before hi) are visible.
    let mut lo = starts.partition_point(|&s| s < t0).min(hi);
    // Walk back over the bars that started earlier and still run at t0.
    while lo > 0 && ends[lo - 1] >= t0 {
        lo -= 1;
    }
    lo..hi
}

/// Bars per block of [`LaneIndex`]'s block-max-end summary.
const BLOCK: usize = 64;

/// Per-lane culling index that is correct for any bars, nested or overlapping: it remembers the
/// longest bar of the lane, so every bar that starts less than that before `t0` is a candidate,
/// and the latest end of each block of [`BLOCK`] consecutive bars (by start), so runs of bars
/// that ended before `t0` are jumped over a block at a time instead of bar by bar (a lane with
/// one long bar nesting many short ones stays O(n / 64) instead of O(n) per query, and
/// [`LaneIndex::visit_bars`] skips them while drawing). 1/8 byte per bar.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaneIndex {
    /// Longest `end - start` of the lane, µs.
    pub max_duration_us: f64,
    /// `block_max_end[b]` = latest `max(start, end)` of bars `b * BLOCK .. (b + 1) * BLOCK`.
    block_max_end: Vec<f64>,
}

impl LaneIndex {
    /// Scans the lane once (O(n)); build it when the lane's columns arrive, not per frame.
    pub fn new(start_us: &[f64], end_us: &[f64]) -> LaneIndex {
        let max_duration_us = start_us.iter().zip(end_us).map(|(s, e)| e - s).filter(|d| d.is_finite()).fold(0.0_f64, f64::max);
        let n = start_us.len().min(end_us.len());
        let block_max_end = start_us[..n]
            .chunks(BLOCK)
            .zip(end_us[..n].chunks(BLOCK))
            .map(|(s, e)| s.iter().zip(e).map(|(s, e)| e.max(*s)).fold(f64::NEG_INFINITY, f64::max))
            .collect();
        LaneIndex { max_duration_us, block_max_end }
    }

    /// First `j` in `from..to` whose bar can reach `x >= 0` for `reach(max(start, end))`, i.e.
    /// that does not end before the threshold `reach` tests; `to` when none does. Whole blocks
    /// whose latest end fails are skipped. `reach` must be monotone in its argument.
    pub(crate) fn next_reaching(&self, start: &[f64], end: &[f64], from: usize, to: usize, reach: impl Fn(f64) -> bool) -> usize {
        let mut j = from;
        while j < to {
            if j.is_multiple_of(BLOCK) {
                if let Some(&m) = self.block_max_end.get(j / BLOCK) {
                    if !reach(m) {
                        j += BLOCK;
                        continue;
                    }
                }
            }
            let (s, e) = (start[j], end[j]);
            if reach(e.max(s)) || reach(s) || e.is_nan() || s.is_nan() {
                return j;
            }
            j += 1;
        }
        to
    }

    /// Indices of bars that can overlap `[t0, t1]`: all visible bars are inside the range;
    /// it may also hold a few invisible ones that started within `max_duration_us` before `t0`
    /// ([`emit_bars`] skips those). Leading invisible bars are trimmed (a block at a time).
    pub fn visible_range(&self, sorted_start: &[f64], end: &[f64], t0: f64, t1: f64) -> Range<usize> {
        let n = sorted_start.len().min(end.len());
        let starts = &sorted_start[..n];
        let hi = starts.partition_point(|&s| s <= t1);
        let earliest = t0 - self.max_duration_us;
        let lo = starts.partition_point(|&s| s < earliest).min(hi);
        let lo = self.next_reaching(starts, &end[..n], lo, hi, |e| e >= t0);
        lo..hi
    }

    /// The bars of `range` overlapping `[t0, t1]`, in start order, visiting only them (plus
    /// O(log n + candidates / 64) work): for picking under a cursor window.
    pub fn overlapping(&self, sorted_start: &[f64], end: &[f64], t0: f64, t1: f64, mut visit: impl FnMut(usize)) {
        let n = sorted_start.len().min(end.len());
        let (starts, ends) = (&sorted_start[..n], &end[..n]);
        let range = self.visible_range(starts, ends, t0, t1);
        let mut j = range.start;
        while j < range.end {
            j = self.next_reaching(starts, ends, j, range.end, |e| e >= t0);
            if j < range.end {
                visit(j);
                j += 1;
            }
        }
    }

    /// [`visit_bars`] that jumps over runs of bars that ended left of the view with this
    /// index (nested lanes), instead of looking at them one by one.
    pub fn visit_bars(
        &self,
        camera: &TimeCamera,
        start_us: &[f64],
        end_us: &[f64],
        range: Range<usize>,
        min_px: f64,
        visit: impl FnMut(VisitedBar),
    ) {
        visit_bars_with(Some(self), camera, start_us, end_us, range, min_px, visit);
    }

    /// [`emit_bars`] with this index (see [`LaneIndex::visit_bars`]).
    #[allow(clippy::too_many_arguments)] // emit_bars' arguments plus the index
    pub fn emit_bars(
        &self,
        camera: &TimeCamera,
        start_us: &[f64],
        end_us: &[f64],
        range: Range<usize>,
        geometry: LaneGeometry,
        color: impl FnMut(usize) -> [u8; 4],
        out: &mut Vec<RectInstance>,
    ) -> usize {
        emit_bars_with(Some(self), camera, start_us, end_us, range, geometry, color, out)
    }
}

/// Vertical placement and colour of the bars of one lane for [`emit_bars`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LaneGeometry {
    /// Top of the bars, CSS px.
    pub y: f32,
    /// Height of the bars, CSS px.
    pub h: f32,
}

/// How [`visit_bars`] reports a bar (or a run of bars) to its caller.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VisitedBar {
    /// Index of the bar (the first of a merged run).
    pub index: usize,
    /// Left and right edge in CSS px (unclipped; `x1 >= x0`).
    pub x0: f64,
    pub x1: f64,
    /// The bar stands for a run of bars narrower than `min_px` starting in one pixel column
    /// (`x0` is the column, `x1 = x0 + 1`).
    pub merged: bool,
}

/// Visits the bars `range` of a lane that touch the view, in start order, doing
/// O(visible pixel columns × log n) work however many bars the range holds.
///
/// Bars at least `min_px` wide are reported one by one. A bar narrower than that is reported
/// as a 1-px run at its pixel column, and every further bar starting in the same column is
/// skipped with one galloping search (jump to the first bar starting at the next column). When
/// the last bar of a skipped run reaches past the column (a bar starting late in the column),
/// it is reported on its own, so a wide bar is never lost on lanes whose bars do not nest.
/// Bars entirely outside the view are skipped.
pub fn visit_bars(camera: &TimeCamera, start_us: &[f64], end_us: &[f64], range: Range<usize>, min_px: f64, visit: impl FnMut(VisitedBar)) {
    visit_bars_with(None, camera, start_us, end_us, range, min_px, visit);
}

fn visit_bars_with(
    index: Option<&LaneIndex>,
    camera: &TimeCamera,
    start_us: &[f64],
    end_us: &[f64],
    range: Range<usize>,
    min_px: f64,
    mut visit: impl FnMut(VisitedBar),
) {
    let len = start_us.len().min(end_us.len());
    let range = range.start.min(len)..range.end.min(len);
    let width = camera.width_px;
    let min_px = min_px.max(f64::MIN_POSITIVE);
    let mut i = range.start;
    while i < range.end {
        let bar_start = start_us[i];
        let x0 = camera.us_to_px(bar_start);
        let x1 = camera.us_to_px(end_us[i].max(bar_start));
        if !(x0.is_finite() && x1.is_finite()) || x1 < 0.0 || x0 > width {
            i += 1;
            if x1 < 0.0 {
                if let Some(index) = index {
                    // Nested lanes: jump over the bars (a block at a time) that end left of the view.
                    i = index.next_reaching(start_us, end_us, i, range.end, |e| camera.us_to_px(e) >= 0.0);
                }
            }
            continue;
        }
        if x1 - x0 >= min_px {
            visit(VisitedBar { index: i, x0, x1, merged: false });
            i += 1;
            continue;
        }
        let column = x0.floor();
        visit(VisitedBar { index: i, x0: column, x1: column + 1.0, merged: true });
        // Jump over every bar starting before the next pixel column: a galloping search from
        // here (O(log run length), touching memory near `i`) rather than a binary search of
        // the whole rest of the lane (O(log n), cache misses all over it).
        let tail = &start_us[i + 1..range.end];
        let in_column = |s: &f64| camera.us_to_px(*s) < column + 1.0;
        let (mut lo, mut step) = (0, 1);
        while step <= tail.len() && in_column(&tail[step - 1]) {
            lo = step;
            step *= 2;
        }
        let hi = step.min(tail.len());
        let skip = lo + tail[lo..hi].partition_point(in_column);
        let next = i + 1 + skip;
        // The last skipped bar may reach out of the column: report it if it is wide.
        if skip > 0 {
            let last = next - 1;
            let (ls, le) = (start_us[last], end_us[last].max(start_us[last]));
            let (lx0, lx1) = (camera.us_to_px(ls), camera.us_to_px(le));
            if lx1 >= column + 1.0 && lx1 - lx0 >= min_px {
                visit(VisitedBar { index: last, x0: lx0, x1: lx1, merged: false });
            }
        }
        i = next;
    }
}

/// Appends rects for bars `range` of a lane to `out` and returns how many it appended.
///
/// Bars at least one pixel wide become one rect each (clipped to a little beyond the view so
/// coordinates stay small). Narrower bars are snapped to their pixel column, and the run of
/// bars starting in the same column becomes a single 1-px rect coloured like the first of them
/// (skipped with a galloping search: see [`visit_bars`]). Bars entirely outside the view are
/// skipped. `color(i)` gives the colour of bar `i`.
pub fn emit_bars(
    camera: &TimeCamera,
    start_us: &[f64],
    end_us: &[f64],
    range: Range<usize>,
    geometry: LaneGeometry,
    color: impl FnMut(usize) -> [u8; 4],
    out: &mut Vec<RectInstance>,
) -> usize {
    emit_bars_with(None, camera, start_us, end_us, range, geometry, color, out)
}

#[allow(clippy::too_many_arguments)] // emit_bars' arguments plus the index
fn emit_bars_with(
    index: Option<&LaneIndex>,
    camera: &TimeCamera,
    start_us: &[f64],
    end_us: &[f64],
    range: Range<usize>,
    geometry: LaneGeometry,
    mut color: impl FnMut(usize) -> [u8; 4],
    out: &mut Vec<RectInstance>,
) -> usize {
    let before = out.len();
    let width = camera.width_px;
    visit_bars_with(index, camera, start_us, end_us, range, 1.0, |bar| {
        let a = bar.x0.max(-1.0);
        let b = bar.x1.min(width + 1.0);
        out.push(RectInstance { x: a as f32, y: geometry.y, w: (b - a) as f32, h: geometry.h, rgba: color(bar.index) });
    });
    out.len() - before
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact values are the point of these checks
mod tests {
    use super::*;

    /// Deterministic uniform numbers in [0, 1) for the brute-force comparisons.
    fn xorshift(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    fn brute(start: &[f64], end: &[f64], t0: f64, t1: f64) -> Vec<usize> {
        (0..start.len()).filter(|&i| start[i] <= t1 && end[i] >= t0).collect()
    }

    fn covers(range: &Range<usize>, want: &[usize]) -> bool {
        want.iter().all(|i| range.contains(i))
    }

    #[test]
    fn sequential_lane() {
        let start = [0.0, 10.0, 20.0, 30.0, 40.0];
        let end = [5.0, 18.0, 29.0, 35.0, 50.0];
        assert_eq!(visible_range(&start, &end, 12.0, 22.0), 1..3);
        assert_eq!(visible_range(&start, &end, 6.0, 9.0), 1..1);
        assert_eq!(visible_range(&start, &end, -10.0, -1.0), 0..0);
        assert_eq!(visible_range(&start, &end, 100.0, 200.0), 5..5);
        assert_eq!(visible_range(&start, &end, 36.0, 100.0), 4..5);
        assert_eq!(visible_range(&start, &end, 0.0, 100.0), 0..5);
        // touching ends count
        assert_eq!(visible_range(&start, &end, 5.0, 10.0), 0..2);
    }

    #[test]
    fn light_overlap_includes_straddlers() {
        // bar 1 starts before t0 and still runs; bar 0 overlaps it and also runs.
        let start = [0.0, 5.0, 12.0];
        let end = [11.0, 15.0, 20.0];
        assert_eq!(visible_range(&start, &end, 10.0, 11.0), 0..2);
    }

    #[test]
    fn lane_index_handles_nesting() {
        // A long bar containing short ones: the free function's precondition does not hold.
        let start = [0.0, 10.0, 20.0, 30.0, 95.0];
        let end = [100.0, 12.0, 22.0, 32.0, 99.0];
        let idx = LaneIndex::new(&start, &end);
        assert_eq!(idx.max_duration_us, 100.0);
        let r = idx.visible_range(&start, &end, 50.0, 60.0);
        assert!(covers(&r, &brute(&start, &end, 50.0, 60.0)), "{r:?}");
        assert_eq!(r, 0..4);
    }

    #[test]
    fn lane_index_matches_brute_force() {
        // Deterministic pseudo-random lanes with overlaps and nesting.
        let mut rnd = xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..200 {
            let n = (rnd() * 60.0) as usize;
            let mut start: Vec<f64> = (0..n).map(|_| rnd() * 1000.0).collect();
            start.sort_by(f64::total_cmp);
            let end: Vec<f64> = start.iter().map(|s| s + rnd() * rnd() * 200.0).collect();
            let idx = LaneIndex::new(&start, &end);
            for _ in 0..20 {
                let a = rnd() * 1200.0 - 100.0;
                let b = a + rnd() * 300.0;
                let r = idx.visible_range(&start, &end, a, b);
                let want = brute(&start, &end, a, b);
                assert!(covers(&r, &want), "{r:?} {want:?}");
                if let Some(&first) = want.first() {
                    assert_eq!(r.start, first, "leading invisible bars are trimmed");
                }
            }
        }
    }

    #[test]
    fn nested_lane_skips_ended_bars_by_block() {
        // One long bar over 100k short ones: visiting a window at the end must not look at the
        // short bars that ended before it one by one, and overlapping() finds only the bars
        // under the window.
        let n = 100_000;
        let mut start: Vec<f64> = vec![0.0];
        start.extend((0..n).map(|i| f64::from(i) + 0.5));
        let mut end: Vec<f64> = vec![1e6];
        end.extend(start[1..].iter().map(|s| s + 0.25));
        let idx = LaneIndex::new(&start, &end);
        let (t0, t1) = (90_000.0, 90_010.0);
        let r = idx.visible_range(&start, &end, t0, t1);
        assert_eq!(r.start, 0);
        let mut hits = Vec::new();
        idx.overlapping(&start, &end, t0, t1, |i| hits.push(i));
        assert_eq!(hits, brute(&start, &end, t0, t1));
        let cam = TimeCamera { start_us: t0, px_per_us: 100.0, width_px: 1000.0, extent_us: None };
        let mut with_index = Vec::new();
        idx.visit_bars(&cam, &start, &end, r.clone(), 1.0, |b| with_index.push(b.index));
        let mut plain = Vec::new();
        visit_bars(&cam, &start, &end, r, 1.0, |b| plain.push(b.index));
        assert_eq!(with_index, plain);
        assert_eq!(with_index.len(), 11);
    }

    #[test]
    #[allow(clippy::many_single_char_names)]
    fn overlapping_matches_brute_force() {
        let mut rnd = xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..100 {
            let n = (rnd() * 600.0) as usize;
            let mut start: Vec<f64> = (0..n).map(|_| rnd() * 1000.0).collect();
            start.sort_by(f64::total_cmp);
            let end: Vec<f64> = start.iter().map(|s| s + if rnd() < 0.02 { rnd() * 800.0 } else { rnd() * 3.0 }).collect();
            let idx = LaneIndex::new(&start, &end);
            for _ in 0..20 {
                let a = rnd() * 1200.0 - 100.0;
                let b = a + rnd() * 30.0;
                let mut got = Vec::new();
                idx.overlapping(&start, &end, a, b, |i| got.push(i));
                assert_eq!(got, brute(&start, &end, a, b));
                let cam = TimeCamera { start_us: a, px_per_us: 1000.0 / (b - a).max(1e-9), width_px: 1000.0, extent_us: None };
                let r = idx.visible_range(&start, &end, a, b);
                let (mut x, mut y) = (Vec::new(), Vec::new());
                idx.visit_bars(&cam, &start, &end, r.clone(), 1.0, |v| x.push(v));
                visit_bars(&cam, &start, &end, r, 1.0, |v| y.push(v));
                assert_eq!(x, y);
            }
        }
    }

    #[test]
    #[allow(clippy::many_single_char_names)]
    fn indexed_visit_matches_plain_on_dense_runs() {
        // Zoomed out over dense lanes: long sub-pixel runs take the block-start search.
        let mut rnd = xorshift(0x1234_5678_9abc_def1);
        for _ in 0..30 {
            let n = 1000 + (rnd() * 20_000.0) as usize;
            let mut start: Vec<f64> = (0..n).map(|_| rnd() * 1000.0).collect();
            start.sort_by(f64::total_cmp);
            let end: Vec<f64> = start.iter().map(|s| s + if rnd() < 0.01 { rnd() * 50.0 } else { rnd() * 0.05 }).collect();
            let idx = LaneIndex::new(&start, &end);
            for width in [37.0, 300.0, 1250.0] {
                let a = rnd() * 200.0 - 50.0;
                let cam = TimeCamera { start_us: a, px_per_us: width / (1000.0 - a).max(1.0), width_px: width, extent_us: None };
                let r = idx.visible_range(&start, &end, a, cam.px_to_us(width));
                let (mut x, mut y) = (Vec::new(), Vec::new());
                idx.visit_bars(&cam, &start, &end, r.clone(), 1.0, |v| x.push(v));
                visit_bars(&cam, &start, &end, r, 1.0, |v| y.push(v));
                assert_eq!(x, y);
            }
        }
    }

    #[test]
    fn emit_merges_subpixel_bars() {
        let cam = TimeCamera { start_us: 0.0, px_per_us: 1.0, width_px: 100.0, extent_us: None };
        // 1000 bars of 0.05 µs packed into 10 px: at most 10 rects (one per column).
        let start: Vec<f64> = (0..1000).map(|i| f64::from(i) * 0.01).collect();
        let end: Vec<f64> = start.iter().map(|s| s + 0.005).collect();
        let mut out = Vec::new();
        let geo = LaneGeometry { y: 4.0, h: 16.0 };
        let n = emit_bars(&cam, &start, &end, 0..start.len(), geo, |_| [1, 2, 3, 255], &mut out);
        assert_eq!(n, 10);
        assert_eq!(out.len(), 10);
        for (k, r) in out.iter().enumerate() {
            assert_eq!(r.x, k as f32);
            assert_eq!(r.w, 1.0);
            assert_eq!((r.y, r.h), (4.0, 16.0));
        }
    }

    #[test]
    fn emit_keeps_wide_bars_and_clips() {
        let cam = TimeCamera { start_us: 100.0, px_per_us: 2.0, width_px: 200.0, extent_us: None };
        let start = [0.0, 110.0, 150.0, 150.2, 150.3, 160.0, 1e9];
        let end = [1e6, 120.0, 150.1, 150.25, 150.35, 170.0, 2e9];
        let mut out = vec![RectInstance { x: 0.0, y: 0.0, w: 0.0, h: 0.0, rgba: [0; 4] }];
        let n = emit_bars(&cam, &start, &end, 0..7, LaneGeometry { y: 0.0, h: 10.0 }, |i| [i as u8, 0, 0, 255], &mut out);
        let got: Vec<(f32, f32, u8)> = out[1..].iter().map(|r| (r.x, r.w, r.rgba[0])).collect();
        // bar 0 clipped to [-1, 201]; 1 wide; 2 narrow at column 100; 3 and 4 merged into column 100?
        // bar 2 at px 100..100.2, bar 3 at 100.4..100.5, bar 4 at 100.6..100.7 -> one rect, colour of bar 2
        assert_eq!(got, vec![(-1.0, 202.0, 0), (20.0, 20.0, 1), (100.0, 1.0, 2), (120.0, 20.0, 5)]);
        assert_eq!(n, 4);
    }

    #[test]
    fn rect_count_bounded_by_width() {
        let cam = TimeCamera { start_us: 0.0, px_per_us: 0.001, width_px: 800.0, extent_us: None };
        // 1e5 back-to-back bars of 3 µs each over 3e5 µs = 300 px.
        let start: Vec<f64> = (0..100_000).map(|i| f64::from(i) * 3.0).collect();
        let end: Vec<f64> = start.iter().map(|s| s + 3.0).collect();
        let r = visible_range(&start, &end, 0.0, cam.px_to_us(800.0));
        let mut out = Vec::with_capacity(1024);
        let n = emit_bars(&cam, &start, &end, r, LaneGeometry { y: 0.0, h: 1.0 }, |_| [0; 4], &mut out);
        assert!(n <= 301, "{n}");
    }

    #[test]
    fn subpixel_runs_are_skipped_not_scanned() {
        let cam = TimeCamera { start_us: 0.0, px_per_us: 1.0, width_px: 100.0, extent_us: None };
        // One million bars of 0.5 ns in 10 px: one visit per column, not per bar.
        let start: Vec<f64> = (0..1_000_000).map(|i| f64::from(i) * 1e-5).collect();
        let end: Vec<f64> = start.iter().map(|s| s + 5e-7).collect();
        let mut visits = 0;
        visit_bars(&cam, &start, &end, 0..start.len(), 1.0, |_| visits += 1);
        assert_eq!(visits, 10);
        // Proof of the jump: a wide bar hidden in the middle of a run (nested, not the last
        // bar of its column) is not looked at; a linear scan would have reported it. The last
        // bar of a run that reaches out of the column is still reported.
        let start = [10.1, 10.2, 10.3, 10.4, 10.5, 30.0];
        let end = [10.15, 50.0, 10.35, 10.45, 20.0, 31.0];
        let mut seen = Vec::new();
        visit_bars(&cam, &start, &end, 0..6, 1.0, |b| seen.push((b.index, b.merged)));
        assert_eq!(seen, vec![(0, true), (4, false), (5, false)]);
    }

    #[test]
    fn mismatched_columns_do_not_panic() {
        let start = [0.0, 1.0, 2.0];
        let end = [0.5];
        assert_eq!(visible_range(&start, &end, 0.0, 10.0), 0..1);
        let cam = TimeCamera::new(100.0);
        let mut out = Vec::new();
        emit_bars(&cam, &start, &end, 0..10, LaneGeometry { y: 0.0, h: 1.0 }, |_| [0; 4], &mut out);
        assert_eq!(out.len(), 1);
    }
}
