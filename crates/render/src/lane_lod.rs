//! Level-of-detail pyramid of one timeline lane, so a zoomed-out frame costs O(pixels) per lane
//! whatever the number of bars (Perfetto's slice "mipmap", Tracy's zone folding).
//!
//! Level `k` cuts the lane's time span into buckets of `base_us · 2^k` µs, anchored at the
//! lane's first start (not at the camera, so panning never changes which bar stands for a
//! bucket). Each non-empty bucket keeps its *representative*: the longest bar starting in it
//! (the earliest of equal ones), plus the caller's 16-bit tag of that bar (the app packs its
//! colour slot and path flags there, so drawing a bucket touches nothing but the level), and
//! whether the bar is at least one bucket long. Level 0 holds about one bucket per
//! [`BARS_PER_FINEST_BUCKET`] (4) bars, so the whole pyramid is about `2 · n / 4` entries of 6
//! bytes: three bytes per bar.
//!
//! A frame picks the coarsest level whose bucket is at most one pixel ([`LanePyramid::level_for`])
//! and walks the visible buckets ([`LanePyramid::visit`]): a representative at least `min_px`
//! wide is reported as itself (labels, setup regions and picking work as for exact bars); the
//! others become 1-px columns, and neighbouring columns with the same tag are merged into one
//! rect. Bars that start left of the first visible bucket but reach into the view are reported
//! exactly through the lane's [`LaneIndex`]. When the view is zoomed in further than level 0
//! (fewer than ~4 bars per pixel), the caller draws exact bars instead.
//!
//! Faithfulness (checked against per-pixel rasterisation in the tests): every pixel column
//! holding a bar is drawn, within one pixel (a bucket is at most a pixel and need not line up
//! with a column); no column is drawn that is more than one pixel away from a bar; every bar at
//! least `min_px` wide that is the longest of its bucket is drawn exactly. A wide bar starting
//! in the same sub-pixel bucket as a longer one is covered by it (lanes whose bars nest tightly
//! lose the inner bar's colour there, as in Perfetto's per-depth mipmap).

use std::ops::Range;

use crate::camera::TimeCamera;
use crate::lanes::{LaneIndex, VisitedBar};

/// Average number of bars per level-0 bucket: sets the finest level (and the memory, about
/// `12 / BARS_PER_FINEST_BUCKET` bytes per bar).
pub const BARS_PER_FINEST_BUCKET: usize = 4;

/// Lanes with fewer bars get no pyramid: exact drawing is as cheap.
pub const MIN_BARS_FOR_LOD: usize = 1024;

/// Marks an entry whose representative is at least one bucket long.
const WIDE: u32 = 1 << 31;
/// An empty bucket.
const EMPTY: u32 = u32::MAX >> 1;

/// One bucket of a level: 6 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, packed(2))]
struct Entry {
    /// Index of the representative in the lane (low 31 bits) | [`WIDE`]; [`EMPTY`] if none.
    rep: u32,
    /// The caller's tag of the representative.
    tag: u16,
}

const EMPTY_ENTRY: Entry = Entry { rep: EMPTY, tag: 0 };

/// A bar reported by [`LanePyramid::visit`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LodBar {
    /// Position and kind, as [`crate::lanes::visit_bars`] reports them (`merged` runs may span
    /// several columns here when neighbouring columns share a tag).
    pub bar: VisitedBar,
    /// The build-time tag of `bar.index`; `None` for bars reported exactly (straddling the left
    /// edge), whose caller looks the colour up by index.
    pub tag: Option<u16>,
}

/// The LOD pyramid of one lane (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LanePyramid {
    /// Left edge of bucket 0 on every level, µs.
    origin_us: f64,
    /// Bucket width of level 0, µs.
    base_us: f64,
    /// `levels[k][j]`: bucket `j` of width `base_us · 2^k`.
    levels: Vec<Vec<Entry>>,
}

fn duration(start_us: &[f64], end_us: &[f64], i: usize) -> f64 {
    let s = start_us[i];
    let d = end_us[i].max(s) - s;
    if d.is_finite() {
        d
    } else {
        0.0
    }
}

impl LanePyramid {
    /// Builds the pyramid of a lane whose `start_us` is ascending (`end_us` parallel); `tag(i)`
    /// is stored for each bucket's representative. `None` for lanes under
    /// [`MIN_BARS_FOR_LOD`] bars, with 2^31 bars or more, or with non-finite start times at
    /// either end. O(n).
    pub fn build(start_us: &[f64], end_us: &[f64], tag: impl Fn(usize) -> u16) -> Option<LanePyramid> {
        let n = start_us.len().min(end_us.len());
        if n < MIN_BARS_FOR_LOD || n >= EMPTY as usize {
            return None;
        }
        let (start_us, end_us) = (&start_us[..n], &end_us[..n]);
        let origin_us = start_us[0];
        let span_us = start_us[n - 1] - origin_us;
        if !(origin_us.is_finite() && span_us.is_finite() && span_us >= 0.0) {
            return None;
        }
        let target = (n / BARS_PER_FINEST_BUCKET).max(1);
        let base_us = if span_us > 0.0 { span_us / target as f64 } else { 1.0 };
        let buckets = target + 1;
        let mut level = vec![EMPTY_ENTRY; buckets];
        let (mut current, mut best) = (usize::MAX, 0.0_f64);
        for i in 0..n {
            let s = start_us[i];
            if !s.is_finite() {
                continue;
            }
            // Truncation intended: the bucket number, clamped to the level.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let j = (((s - origin_us) / base_us) as usize).min(buckets - 1);
            let d = duration(start_us, end_us, i);
            // Starts ascend, so buckets fill one after the other.
            if j != current || d > best {
                level[j] = Entry { rep: i as u32, tag: tag(i) };
                (current, best) = (j, d);
            }
        }
        let mark = |level: &mut Vec<Entry>, bucket_us: f64| {
            for e in level.iter_mut().filter(|e| e.rep != EMPTY) {
                if duration(start_us, end_us, e.rep as usize) >= bucket_us {
                    e.rep |= WIDE;
                }
            }
        };
        mark(&mut level, base_us);
        let mut levels = vec![level];
        let mut bucket_us = base_us;
        while let Some(prev) = levels.last().filter(|l| l.len() > 1) {
            bucket_us *= 2.0;
            let mut next: Vec<Entry> = prev
                .chunks(2)
                .map(|pair| {
                    let mut pick = EMPTY_ENTRY;
                    for e in pair.iter().filter(|e| e.rep != EMPTY) {
                        let longer = || {
                            duration(start_us, end_us, (e.rep & !WIDE) as usize) > duration(start_us, end_us, (pick.rep & !WIDE) as usize)
                        };
                        if pick.rep == EMPTY || longer() {
                            pick = Entry { rep: e.rep & !WIDE, tag: e.tag };
                        }
                    }
                    pick
                })
                .collect();
            mark(&mut next, bucket_us);
            levels.push(next);
        }
        Some(LanePyramid { origin_us, base_us, levels })
    }

    /// Number of levels (the last one is a single bucket).
    pub fn level_count(&self) -> usize {
        self.levels.len()
    }

    /// Bucket width of level `k`, µs.
    pub fn bucket_us(&self, k: usize) -> f64 {
        self.base_us * 2.0_f64.powi(i32::try_from(k).unwrap_or(i32::MAX))
    }

    /// Heap bytes held by the pyramid.
    pub fn heap_bytes(&self) -> usize {
        self.levels.iter().map(|l| l.capacity() * std::mem::size_of::<Entry>()).sum::<usize>()
            + self.levels.capacity() * std::mem::size_of::<Vec<Entry>>()
    }

    /// The coarsest level whose bucket is at most `us_per_px` (the top level when even that is
    /// finer); `None` when level 0's bucket is wider than a pixel (draw exact bars).
    pub fn level_for(&self, us_per_px: f64) -> Option<usize> {
        // (A NaN pixel width fails the comparison: no level.)
        if us_per_px.partial_cmp(&self.base_us).is_none_or(std::cmp::Ordering::is_lt) || self.levels.is_empty() {
            return None;
        }
        let mut k = 0;
        while k + 1 < self.levels.len() && self.bucket_us(k + 1) <= us_per_px {
            k += 1;
        }
        Some(k)
    }

    /// Visits what to draw of the lane in the camera's view from the level chosen by
    /// [`LanePyramid::level_for`], in start order, doing O(visible pixel columns) work (plus
    /// the [`LaneIndex`] walk over bars straddling the left edge). `range` is the lane's
    /// [`LaneIndex::visible_range`] of the view. Returns `false`, visiting nothing, when no level
    /// is coarse enough (the caller then draws exact bars).
    #[allow(clippy::too_many_arguments, clippy::many_single_char_names)] // the lane's columns, its index, the view and the visitor; i/j/k/n/e: indices
    pub fn visit(
        &self,
        camera: &TimeCamera,
        start_us: &[f64],
        end_us: &[f64],
        index: &LaneIndex,
        range: Range<usize>,
        min_px: f64,
        mut visit: impl FnMut(LodBar),
    ) -> bool {
        let Some(k) = self.level_for(camera.us_per_px()) else { return false };
        let Some(level) = self.levels.get(k) else { return false };
        let n = start_us.len().min(end_us.len());
        let (start_us, end_us) = (&start_us[..n], &end_us[..n]);
        let bucket_us = self.bucket_us(k);
        let min_px = min_px.max(f64::MIN_POSITIVE);
        let width = camera.width_px;
        let (t0, t1) = camera.visible_range_us();
        let bucket_of = |t: f64| -> usize {
            let j = ((t - self.origin_us) / bucket_us).floor();
            // Truncation intended: a bucket number, clamped to the level.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            if j.is_nan() || j <= 0.0 {
                0
            } else {
                (j as usize).min(level.len())
            }
        };
        let first = bucket_of(t0);

        // 1. Bars starting left of the view that still reach into it, exactly.
        let range = range.start.min(n)..range.end.min(n);
        let mut i = range.start;
        while i < range.end && start_us[i] < t0 {
            i = index.next_reaching(start_us, end_us, i, range.end, |e| e >= t0);
            if i >= range.end || start_us[i] >= t0 {
                break;
            }
            let (x0, x1) = (camera.us_to_px(start_us[i]), camera.us_to_px(end_us[i].max(start_us[i])));
            if x0.is_finite() && x1.is_finite() && x1 >= 0.0 && x0 <= width {
                let bar = if x1 - x0 >= min_px {
                    VisitedBar { index: i, x0, x1, merged: false }
                } else {
                    VisitedBar { index: i, x0: x0.floor(), x1: x0.floor() + 1.0, merged: true }
                };
                visit(LodBar { bar, tag: None });
            }
            i += 1;
        }
        // The first bar starting in the view, for the first bucket when its representative
        // started left of the view (reported above if it reaches in).
        let first_in_view = range.start + start_us[range.clone()].partition_point(|&s| s < t0);

        // 2. The visible buckets: wide representatives as themselves, the rest as 1-px columns
        // merged with neighbouring columns of the same tag.
        let last = bucket_of(t1).min(level.len().saturating_sub(1));
        let mut pending: Option<(f64, f64, usize, Option<u16>)> = None; // (x0, x1, rep, tag)
        let flush = |pending: &mut Option<(f64, f64, usize, Option<u16>)>, visit: &mut dyn FnMut(LodBar)| {
            if let Some((x0, x1, index, tag)) = pending.take() {
                visit(LodBar { bar: VisitedBar { index, x0, x1, merged: true }, tag });
            }
        };
        for j in first..=last {
            let Some(&e) = level.get(j) else { break };
            if e.rep == EMPTY {
                continue;
            }
            let rep = (e.rep & !WIDE) as usize;
            let bucket_start_us = self.origin_us + j as f64 * bucket_us;
            // A bucket's bars start in its first pixel column or the next; the left-edge bucket's
            // drawn ones start in the view.
            let mut column = camera.us_to_px(bucket_start_us).floor().max(0.0);
            let (mut rep, mut tag) = (rep, Some(e.tag));
            if bucket_start_us < t0 && start_us.get(rep).is_some_and(|&s| s < t0) {
                // Left-edge bucket: its bars starting in the view, as one exact column.
                match start_us.get(first_in_view) {
                    Some(&s) if s < bucket_start_us + bucket_us => {
                        (rep, tag, column) = (first_in_view, None, camera.us_to_px(s).floor());
                    }
                    _ => continue,
                }
            } else if e.rep & WIDE != 0 {
                let (Some(&s), Some(&en)) = (start_us.get(rep), end_us.get(rep)) else { continue };
                let (x0, x1) = (camera.us_to_px(s), camera.us_to_px(en.max(s)));
                if !(x0.is_finite() && x1.is_finite()) || x1 < 0.0 || x0 > width {
                    continue;
                }
                if x1 - x0 >= min_px {
                    flush(&mut pending, &mut visit);
                    visit(LodBar { bar: VisitedBar { index: rep, x0, x1, merged: false }, tag });
                    continue;
                }
                column = x0.floor();
            }
            if column > width {
                break;
            }
            match &mut pending {
                Some((_, x1, _, t)) if *t == tag && column <= *x1 => *x1 = x1.max(column + 1.0),
                Some((_, x1, _, _)) if column < *x1 => {} // the column already has a colour
                _ => {
                    flush(&mut pending, &mut visit);
                    pending = Some((column, column + 1.0, rep, tag));
                }
            }
        }
        flush(&mut pending, &mut visit);
        true
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp, clippy::cast_precision_loss, clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::lanes::visit_bars;

    /// Deterministic uniform numbers in [0, 1).
    fn xorshift(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// A random lane: back-to-back, gappy, clustered or lightly overlapping bars, sorted.
    fn random_lane(rnd: &mut impl FnMut() -> f64, n: usize) -> (Vec<f64>, Vec<f64>) {
        let kind = (rnd() * 4.0) as u32;
        let mut start = Vec::with_capacity(n);
        let mut end = Vec::with_capacity(n);
        let mut t = rnd() * 100.0;
        for _ in 0..n {
            let (gap, dur) = match kind {
                0 => (0.0, 0.5 + rnd()),                                                      // back to back
                1 => (rnd() * rnd() * 40.0, rnd() * 2.0),                                     // gappy
                2 => (if rnd() < 0.002 { 5000.0 * rnd() } else { rnd() * 0.2 }, rnd() * 0.3), // bursts
                _ => (rnd() * 1.5, if rnd() < 0.01 { rnd() * 400.0 } else { rnd() }),         // overlaps
            };
            t += gap;
            start.push(t);
            end.push(t + dur);
            if kind == 0 {
                t += dur;
            }
        }
        (start, end)
    }

    /// Per-pixel exact rasterisation: for each column of the view and one beyond each edge
    /// (`cols[c + 1]` is column `c`), the bars overlapping it.
    fn raster(cam: &TimeCamera, start: &[f64], end: &[f64]) -> Vec<Vec<usize>> {
        let w = cam.width_px as usize + 2;
        let mut cols = vec![Vec::new(); w];
        for i in 0..start.len() {
            let (x0, x1) = (cam.us_to_px(start[i]) + 1.0, cam.us_to_px(end[i].max(start[i])) + 1.0);
            if x1 < 0.0 || x0 >= w as f64 {
                continue;
            }
            let a = x0.floor().max(0.0) as usize;
            let b = (x1.ceil().max(x0.floor() + 1.0) as usize).min(w);
            for col in cols.iter_mut().take(b).skip(a) {
                col.push(i);
            }
        }
        cols
    }

    /// Columns covered by visited bars (rects `[x0, x1)` rounded out to whole pixels).
    fn covered(w: usize, bars: &[LodBar]) -> Vec<bool> {
        let mut cov = vec![false; w];
        for b in bars {
            let a = b.bar.x0.floor().max(0.0) as usize;
            let e = (b.bar.x1.ceil().max(b.bar.x0.floor() + 1.0).max(0.0) as usize).min(w);
            for c in cov.iter_mut().take(e).skip(a) {
                *c = true;
            }
        }
        cov
    }

    fn near(cov: &[bool], c: usize, r: usize) -> bool {
        cov[c.saturating_sub(r)..(c + r + 1).min(cov.len())].iter().any(|&v| v)
    }

    fn visit_all(p: &LanePyramid, idx: &LaneIndex, cam: &TimeCamera, start: &[f64], end: &[f64]) -> Option<Vec<LodBar>> {
        let (t0, t1) = cam.visible_range_us();
        let range = idx.visible_range(start, end, t0, t1);
        let mut got = Vec::new();
        p.visit(cam, start, end, idx, range, 1.0, |b| got.push(b)).then_some(got)
    }

    #[test]
    fn matches_exact_rasterisation_on_random_lanes() {
        let mut rnd = xorshift(0x5eed_1234_abcd_0001);
        let mut checked_views = 0;
        for lane in 0..60 {
            let n = MIN_BARS_FOR_LOD + (rnd() * 60_000.0) as usize;
            let (start, end) = random_lane(&mut rnd, n);
            let tags: Vec<u16> = (0..n).map(|i| ((i as u32).wrapping_mul(2_654_435_761) >> 29) as u16).collect();
            let p = LanePyramid::build(&start, &end, |i| tags[i]).expect("pyramid");
            let idx = LaneIndex::new(&start, &end);
            let (lo, hi) = (start[0], end.iter().copied().fold(f64::MIN, f64::max));
            for view in 0..16 {
                let width = [97.0, 400.0, 1200.0][view % 3];
                // From the whole lane down to ~level 0, at random offsets.
                let zoom = 2.0_f64.powf(rnd() * 6.0);
                let span = (hi - lo) * 1.04 / zoom;
                let cam = TimeCamera {
                    start_us: lo - (hi - lo) * 0.02 + rnd() * (hi - lo - span).max(0.0),
                    px_per_us: width / span,
                    width_px: width,
                    extent_us: None,
                };
                let Some(got) = visit_all(&p, &idx, &cam, &start, &end) else { continue };
                checked_views += 1;
                let exact = raster(&cam, &start, &end);
                let cov = covered(width as usize, &got);
                let has_bar = |c: usize| !exact[c + 1].is_empty();
                for c in 0..cov.len() {
                    // Every column with a bar is drawn (within one pixel) ...
                    assert!(!has_bar(c) || near(&cov, c, 1), "lane {lane} view {view}: column {c} lost");
                    // ... and nothing is drawn more than a pixel away from a bar.
                    if cov[c] {
                        assert!(
                            !exact[c].is_empty() || has_bar(c) || !exact[c + 2].is_empty(),
                            "lane {lane} view {view}: column {c} drawn empty"
                        );
                    }
                }
                // Colours come from a bar in (or within a pixel of) the column, with its tag.
                for b in &got {
                    if let Some(tag) = b.tag {
                        assert_eq!(tag, tags[b.bar.index]);
                    }
                    let i = b.bar.index;
                    let (x0, x1) = (cam.us_to_px(start[i]), cam.us_to_px(end[i].max(start[i])));
                    assert!(x0 <= b.bar.x1 + 1.0 && x1 >= b.bar.x0 - 1.0, "lane {lane}: bar {i} at {x0}..{x1} reported at {:?}", b.bar);
                    if !b.bar.merged {
                        assert_eq!((b.bar.x0, b.bar.x1), (x0, x1), "wide bars are exact");
                        assert!(x1 - x0 >= 1.0);
                    }
                }
                // Start order, and O(width) output.
                assert!(got.len() <= 2 * width as usize + 8, "{} reports for {width} px", got.len());
            }
        }
        assert!(checked_views > 250, "{checked_views}");
    }

    #[test]
    fn wide_bars_longest_in_their_bucket_are_exact() {
        // Sequential lanes (no nesting): every bar at least a pixel wide is reported as itself,
        // exactly like visit_bars reports it.
        let mut rnd = xorshift(0x0dd_ba11);
        for _ in 0..20 {
            let n = 10_000 + (rnd() * 20_000.0) as usize;
            let mut start = Vec::with_capacity(n);
            let mut end = Vec::with_capacity(n);
            let mut t = 0.0;
            for _ in 0..n {
                let d = if rnd() < 0.005 { 50.0 + rnd() * 500.0 } else { rnd() * 0.5 };
                start.push(t);
                end.push(t + d);
                t += d + rnd() * 0.1;
            }
            let p = LanePyramid::build(&start, &end, |_| 0).expect("pyramid");
            let idx = LaneIndex::new(&start, &end);
            let width = 200.0;
            let cam = TimeCamera { start_us: -10.0, px_per_us: width / (t + 20.0), width_px: width, extent_us: None };
            let got = visit_all(&p, &idx, &cam, &start, &end).expect("zoomed out enough");
            let wide: Vec<usize> = got.iter().filter(|b| !b.bar.merged).map(|b| b.bar.index).collect();
            let mut exact = Vec::new();
            visit_bars(&cam, &start, &end, 0..n, 1.0, |b| {
                if !b.merged {
                    exact.push(b.index);
                }
            });
            assert_eq!(wide, exact);
        }
    }

    #[test]
    fn representative_is_longest_and_tags_merge() {
        // 4096 bars, 0.1 µs apart, all 0.01 µs long except bar 100 (0.05) and bar 3000 (20);
        // tags: bars < 2048 are 1, the rest 2.
        let n = 4096_usize;
        let start: Vec<f64> = (0..n).map(|i| i as f64 * 0.1).collect();
        let mut end: Vec<f64> = start.iter().map(|s| s + 0.01).collect();
        end[100] = start[100] + 0.05;
        end[3000] = start[3000] + 20.0;
        let p = LanePyramid::build(&start, &end, |i| if i < 2048 { 1 } else { 2 }).expect("pyramid");
        assert_eq!(p.level_count(), 12); // 1025 buckets at level 0 → 513 → … → 2 → 1
        assert_eq!(p.levels[0].len(), n / BARS_PER_FINEST_BUCKET + 1);
        let bucket_of_100 = p.levels[0][(start[100] / p.base_us) as usize];
        assert_eq!(bucket_of_100.rep & !WIDE, 100);
        assert_eq!(p.levels.last().map(|l| l[0].rep & !WIDE), Some(3000));
        // Whole lane in 100 px: every column is covered, two merged runs (tags 1, 2) plus bar 3000.
        let idx = LaneIndex::new(&start, &end);
        let cam = TimeCamera { start_us: 0.0, px_per_us: 100.0 / 409.6, width_px: 100.0, extent_us: None };
        let got = visit_all(&p, &idx, &cam, &start, &end).expect("lod");
        let kinds: Vec<(bool, Option<u16>)> = got.iter().map(|b| (b.bar.merged, b.tag)).collect();
        assert_eq!(kinds, vec![(true, Some(1)), (true, Some(2)), (false, Some(2)), (true, Some(2))], "{got:?}");
        assert_eq!((got[0].bar.x0, got[0].bar.x1), (0.0, 50.0));
        // Zoomed in past level 0: no LOD.
        let deep = TimeCamera { start_us: 0.0, px_per_us: 1000.0, width_px: 100.0, extent_us: None };
        assert!(visit_all(&p, &idx, &deep, &start, &end).is_none());
    }

    #[test]
    fn straddling_bars_come_from_the_index() {
        // A long bar starting far left of the view reaches into it; short bars fill the lane.
        let n = 20_000;
        let mut start: Vec<f64> = (0..n).map(|i| f64::from(i) * 0.01).collect();
        let mut end: Vec<f64> = start.iter().map(|s| s + 0.001).collect();
        start[10] = 0.1;
        end[10] = 150.0;
        let p = LanePyramid::build(&start, &end, |i| i as u16).expect("pyramid");
        let idx = LaneIndex::new(&start, &end);
        let cam = TimeCamera { start_us: 100.0, px_per_us: 1.0, width_px: 100.0, extent_us: None };
        let got = visit_all(&p, &idx, &cam, &start, &end).expect("lod");
        assert_eq!(got[0], LodBar { bar: VisitedBar { index: 10, x0: -99.9, x1: 50.0, merged: false }, tag: None });
        assert!(got[1..].iter().all(|b| b.bar.merged && b.bar.x0 >= -1.0));
    }

    #[test]
    fn small_or_odd_lanes_have_no_pyramid() {
        let s: Vec<f64> = (0..100).map(f64::from).collect();
        assert!(LanePyramid::build(&s, &s, |_| 0).is_none());
        let mut s: Vec<f64> = (0..5000).map(f64::from).collect();
        s[0] = f64::NEG_INFINITY;
        assert!(LanePyramid::build(&s, &s, |_| 0).is_none());
        // All bars at one instant: one bucket per level.
        let s = vec![3.0; 5000];
        let p = LanePyramid::build(&s, &s, |_| 7).expect("pyramid");
        assert!(p.level_count() >= 1);
    }

    #[test]
    fn memory_is_about_three_bytes_per_bar() {
        let mut rnd = xorshift(42);
        let n = 1_000_000;
        let (start, end) = random_lane(&mut rnd, n);
        let p = LanePyramid::build(&start, &end, |_| 0).expect("pyramid");
        let per_bar = p.heap_bytes() as f64 / n as f64;
        assert!(per_bar <= 3.1, "{per_bar} bytes per bar");
    }
}
