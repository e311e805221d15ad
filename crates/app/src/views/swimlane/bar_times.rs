//! The swimlane's bar times as the page keeps them: whole nanoseconds, bit-packed
//! (`pypto-columns`), turned into the worker's µs where a value is read. The worker sends
//! `start_us`, `end_us` and `setup_start_us` as `f64` columns (24 bytes a bar); a chip
//! capture's times are whole ns (device cycles at a clock whose period is whole ns, host
//! ns), so a track keeps its starts as packed ns (sorted runs: a few bits a bar), its
//! durations as packed ns and its setup leads only where a setup differs — about a third of
//! the `f64` columns' bytes — and every value read back is the worker's `f64` bit for bit:
//! a track is packed only when every one of its times round-trips exactly
//! ([`ns_of_us`] / [`us_of_ns`]), else it keeps `f64` copies. The culling index, LOD pyramids
//! and draw loop read a sub-lane's times through [`LaneClock`] (a
//! [`pypto_render::lanes::LaneTimes`]).
//!
//! Precision: a packed value is `ns / 1000` (correctly rounded, as is the worker's
//! `delta · 1e6 / f` of the same whole ns while `delta · 1e6` is exact, i.e. within 180 s of
//! the capture's base at 50 MHz), plus the track's dataset alignment offset when it is not
//! zero (added after, as the worker adds it). Whatever is packed reads back bit for bit (it
//! is checked); a track with a time that does not (a clock whose cycle is not whole ns, a
//! longer capture, sub-ns decimals of a trace) keeps its `f64`s.

use std::ops::Range;

use pypto_columns::PackedI64;
use pypto_render::lanes::LaneTimes;

/// Nanoseconds per µs: the packed times' tick.
const NS_PER_US: f64 = 1000.0;

/// Largest |ns| kept packed: every integer below it is an exact `f64`.
const MAX_EXACT_NS: f64 = 9_007_199_254_740_992.0; // 2^53

/// "This track has no setup starts" in [`BarTimes::setup_offsets`].
const NO_SETUP: u32 = u32::MAX;

/// Bars read from the worker's columns at a time while packing (bounds the page's memory
/// while it reads a big track).
pub const READ_CHUNK_BARS: usize = 1 << 16;

/// µs of `ns` whole nanoseconds on an axis shifted by `offset_us` (0: not shifted): what the
/// worker computes (`ns / 1000`, then `+ offset`).
pub fn us_of_ns(ns: i64, offset_us: f64) -> f64 {
    // |ns| < 2^53 (see `ns_of_us`): the conversion is exact.
    let own_us = ns as f64 / NS_PER_US;
    if offset_us == 0.0 {
        own_us
    } else {
        own_us + offset_us
    }
}

/// The whole ns that [`us_of_ns`] turns back into exactly `us` (bit for bit), if any.
pub fn ns_of_us(us: f64, offset_us: f64) -> Option<i64> {
    let own_us = if offset_us == 0.0 { us } else { us - offset_us };
    let guess = (own_us * NS_PER_US).round();
    if guess.is_nan() || guess.abs() >= MAX_EXACT_NS {
        return None;
    }
    // Within ±2^53: the conversion is exact.
    let guess = guess as i64;
    // The subtraction of the offset may round: the neighbours are tried too.
    [guess, guess - 1, guess + 1].into_iter().find(|&ns| us_of_ns(ns, offset_us).to_bits() == us.to_bits())
}

/// Times of a piece of the worker's columns: `setup_us` empty when the worker sent none.
#[derive(Clone, Debug, Default, PartialEq)]
#[allow(clippy::struct_field_names)] // the protocol's µs columns
pub struct TimesPiece {
    pub start_us: Vec<f64>,
    pub end_us: Vec<f64>,
    pub setup_us: Vec<f64>,
}

/// `read(bars)`, a short column read as bars at 0 / ending at their start, a short setup
/// column as none.
fn read_piece(read: &impl Fn(Range<usize>) -> TimesPiece, bars: Range<usize>) -> TimesPiece {
    let want = bars.len();
    let mut piece = read(bars);
    if piece.start_us.len() != want || piece.end_us.len() != want {
        piece.start_us.resize(want, 0.0);
        let ends = (0..want).map(|i| piece.end_us.get(i).or(piece.start_us.get(i)).copied().unwrap_or(0.0)).collect();
        piece.end_us = ends;
    }
    if piece.setup_us.len() != want {
        piece.setup_us = Vec::new();
    }
    piece
}

/// How one track's times are kept.
#[derive(Clone, Copy, Debug, PartialEq)]
enum TrackClock {
    /// Packed ns, µs = [`us_of_ns`] with this offset.
    Ns { offset_us: f64 },
    /// `f64` copies from `first` in the `float_*` columns (a time is not whole ns).
    Float { first: usize },
}

/// Every bar's start, end and setup start (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct BarTimes {
    /// Tracks + 1 offsets into the bars.
    track_offsets: Vec<u32>,
    clocks: Vec<TrackClock>,
    /// Each bar's start, ns (0 for a bar of a `Float` track).
    start_ns: PackedI64,
    /// Each bar's `end − start`, ns.
    duration_ns: PackedI64,
    /// Per track: where its bars' setups begin in `setup_lead_ns` (`Ns` track) or
    /// `float_setup_us` (`Float` track); [`NO_SETUP`] when none differs from its start.
    setup_offsets: Vec<u32>,
    /// `start − setup`, ns, of the bars of the tracks with a setup.
    setup_lead_ns: PackedI64,
    float_start_us: Vec<f64>,
    float_end_us: Vec<f64>,
    float_setup_us: Vec<f64>,
}

impl BarTimes {
    /// Reads the times of every track (`track_offsets`: tracks + 1 offsets) a piece at a time
    /// (`read(range)`, at most [`READ_CHUNK_BARS`] bars), on the axis shifted by
    /// `offset_of(track)` µs, and keeps them packed where they round-trip.
    pub fn read(track_offsets: &[u32], offset_of: impl Fn(usize) -> f64, read: impl Fn(Range<usize>) -> TimesPiece) -> BarTimes {
        let mut t = BarTimes { track_offsets: track_offsets.to_vec(), ..BarTimes::default() };
        let tracks = track_offsets.len().saturating_sub(1);
        for track in 0..tracks {
            let range = t.track_range(track);
            let offset_us = offset_of(track);
            // Offsets ascend from 0 (the protocol's rule); bars outside every track read as 0.
            while t.start_ns.len() < range.start {
                t.start_ns.push(0);
                t.duration_ns.push(0);
            }
            // Pass 1: does every time of the track round-trip, and does a setup differ?
            let (mut exact, mut exact_setup, mut has_setup, mut setup_complete) = (true, true, false, true);
            let round_trips = |v: &[f64]| v.iter().all(|&us| ns_of_us(us, offset_us).is_some());
            let mut single = None;
            for at in (range.start..range.end).step_by(READ_CHUNK_BARS) {
                let piece = read_piece(&read, at..(at + READ_CHUNK_BARS).min(range.end));
                setup_complete &= !piece.setup_us.is_empty() || piece.start_us.is_empty();
                has_setup |= piece.setup_us.iter().zip(&piece.start_us).any(|(s, b)| s < b);
                exact &= round_trips(&piece.start_us) && round_trips(&piece.end_us);
                exact_setup &= round_trips(&piece.setup_us);
                if range.len() <= READ_CHUNK_BARS {
                    single = Some(piece);
                }
            }
            let has_setup = has_setup && setup_complete;
            let exact = exact && (exact_setup || !has_setup);
            let clock = if exact { TrackClock::Ns { offset_us } } else { TrackClock::Float { first: t.float_start_us.len() } };
            t.clocks.push(clock);
            t.setup_offsets.push(match (has_setup, clock) {
                (false, _) => NO_SETUP,
                (true, TrackClock::Ns { .. }) => t.setup_lead_ns.len() as u32,
                (true, TrackClock::Float { .. }) => t.float_setup_us.len() as u32,
            });
            // Pass 2: keep them (the piece of a one-piece track is not read again).
            let mut keep = |piece: TimesPiece| {
                for (k, (&s, &e)) in piece.start_us.iter().zip(&piece.end_us).enumerate() {
                    let setup = piece.setup_us.get(k).copied().unwrap_or(s);
                    match clock {
                        TrackClock::Ns { offset_us } => {
                            let start_ns = ns_of_us(s, offset_us).unwrap_or(0);
                            t.start_ns.push(start_ns);
                            t.duration_ns.push(ns_of_us(e, offset_us).unwrap_or(0).wrapping_sub(start_ns));
                            if has_setup {
                                t.setup_lead_ns.push(start_ns.wrapping_sub(ns_of_us(setup, offset_us).unwrap_or(start_ns)));
                            }
                        }
                        TrackClock::Float { .. } => {
                            t.start_ns.push(0);
                            t.duration_ns.push(0);
                            t.float_start_us.push(s);
                            t.float_end_us.push(e);
                            if has_setup {
                                t.float_setup_us.push(setup);
                            }
                        }
                    }
                }
            };
            match single {
                Some(piece) => keep(piece),
                None => {
                    for at in (range.start..range.end).step_by(READ_CHUNK_BARS) {
                        keep(read_piece(&read, at..(at + READ_CHUNK_BARS).min(range.end)));
                    }
                }
            }
        }
        for v in [&mut t.float_start_us, &mut t.float_end_us, &mut t.float_setup_us] {
            v.shrink_to_fit();
        }
        for c in [&mut t.start_ns, &mut t.duration_ns, &mut t.setup_lead_ns] {
            c.shrink_to_fit();
        }
        t
    }

    /// Number of bars.
    pub fn bar_count(&self) -> usize {
        self.start_ns.len()
    }

    /// Global bar indices of a track.
    fn track_range(&self, track: usize) -> Range<usize> {
        let start = self.track_offsets.get(track).copied().unwrap_or(0) as usize;
        let end = self.track_offsets.get(track + 1).copied().unwrap_or(0) as usize;
        start..end.max(start)
    }

    /// The track of a global bar.
    fn track_of(&self, global: usize) -> Option<usize> {
        self.track_offsets.partition_point(|&o| o as usize <= global).checked_sub(1).filter(|&t| t < self.clocks.len())
    }

    /// The times of the bars of `track` at `bars` (global indices, within the track), by
    /// start, for the culling index, the LOD pyramid and the draw loop.
    pub fn lane<'a>(&'a self, track: usize, bars: LaneBarsRef<'a>) -> LaneClock<'a> {
        let clock = self.clocks.get(track).copied().unwrap_or(TrackClock::Ns { offset_us: 0.0 });
        let track_first = self.track_range(track).start;
        LaneClock { times: self, bars, clock, track_first }
    }

    fn start_at(&self, global: usize, clock: TrackClock, track_first: usize) -> f64 {
        match clock {
            TrackClock::Ns { offset_us } => us_of_ns(self.start_ns.get(global).unwrap_or(0), offset_us),
            TrackClock::Float { first } => self.float_start_us.get(first + global - track_first).copied().unwrap_or(0.0),
        }
    }

    fn end_at(&self, global: usize, clock: TrackClock, track_first: usize) -> f64 {
        match clock {
            TrackClock::Ns { offset_us } => {
                let start_ns = self.start_ns.get(global).unwrap_or(0);
                us_of_ns(start_ns.wrapping_add(self.duration_ns.get(global).unwrap_or(0)), offset_us)
            }
            TrackClock::Float { first } => self.float_end_us.get(first + global - track_first).copied().unwrap_or(0.0),
        }
    }

    /// A bar's start, µs.
    pub fn start_us(&self, global: usize) -> Option<f64> {
        let track = self.track_of(global)?;
        let clock = *self.clocks.get(track)?;
        Some(self.start_at(global, clock, self.track_range(track).start))
    }

    /// `(setup_start, start, end)` of a bar, µs: the setup start is the worker's, capped at the
    /// start (a bar of a track without setups has setup = start).
    pub fn times(&self, global: usize) -> Option<(f64, f64, f64)> {
        if global >= self.bar_count() {
            return None;
        }
        let track = self.track_of(global)?;
        let clock = *self.clocks.get(track)?;
        let first = self.track_range(track).start;
        let (s, e) = (self.start_at(global, clock, first), self.end_at(global, clock, first));
        let setup = match self.setup_offsets.get(track).copied().filter(|&o| o != NO_SETUP) {
            None => s,
            Some(offset) => {
                let at = offset as usize + global - first;
                match clock {
                    TrackClock::Ns { offset_us } => {
                        let lead = self.setup_lead_ns.get(at).unwrap_or(0);
                        us_of_ns(self.start_ns.get(global).unwrap_or(0).wrapping_sub(lead), offset_us)
                    }
                    TrackClock::Float { .. } => self.float_setup_us.get(at).copied().unwrap_or(s),
                }
            }
        };
        Some((setup.min(s), s, e))
    }

    /// Bars kept as `f64` copies (their track has a time that is not whole ns).
    pub fn float_bars(&self) -> usize {
        self.float_start_us.len()
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.start_ns.resident_bytes()
            + self.duration_ns.resident_bytes()
            + self.setup_lead_ns.resident_bytes()
            + (self.float_start_us.capacity() + self.float_end_us.capacity() + self.float_setup_us.capacity()) * 8
            + self.track_offsets.capacity() * 4
            + self.setup_offsets.capacity() * 4
            + self.clocks.capacity() * std::mem::size_of::<TrackClock>()
    }
}

/// Which bars a sub-lane holds (see `data::LaneBars`), borrowed.
#[derive(Clone, Copy, Debug)]
pub enum LaneBarsRef<'a> {
    /// Global bars `first .. first + len`.
    Range { first: usize, len: usize },
    /// These global bars.
    Gathered(&'a [u32]),
}

/// One sub-lane's times, read from the packed columns (a [`LaneTimes`]): bar `i` of the lane
/// is its `i`-th by start.
#[derive(Clone, Copy, Debug)]
pub struct LaneClock<'a> {
    times: &'a BarTimes,
    bars: LaneBarsRef<'a>,
    clock: TrackClock,
    track_first: usize,
}

impl LaneClock<'_> {
    fn global(&self, i: usize) -> usize {
        match self.bars {
            LaneBarsRef::Range { first, .. } => first + i,
            LaneBarsRef::Gathered(bars) => bars.get(i).map_or(0, |&g| g as usize),
        }
    }
}

impl LaneTimes for LaneClock<'_> {
    fn len(&self) -> usize {
        match self.bars {
            LaneBarsRef::Range { len, .. } => len,
            LaneBarsRef::Gathered(bars) => bars.len(),
        }
    }
    fn start_us(&self, i: usize) -> f64 {
        self.times.start_at(self.global(i), self.clock, self.track_first)
    }
    fn end_us(&self, i: usize) -> f64 {
        self.times.end_at(self.global(i), self.clock, self.track_first)
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp, clippy::unwrap_used, clippy::expect_used, clippy::needless_range_loop)] // exact values are the point
mod tests {
    use super::*;

    /// The worker's µs of device cycles (`timebase::Timebase::us`, device mode).
    fn device_us(cycles: u64, base: u64, freq_hz: u64) -> f64 {
        let delta = if cycles >= base { (cycles - base) as f64 } else { -((base - cycles) as f64) };
        delta * 1e6 / freq_hz as f64
    }

    fn columns(t: &[Vec<f64>; 3]) -> impl Fn(Range<usize>) -> TimesPiece + '_ {
        move |r: Range<usize>| TimesPiece {
            start_us: t[0].get(r.start..r.end.min(t[0].len())).map(<[f64]>::to_vec).unwrap_or_default(),
            end_us: t[1].get(r.start..r.end.min(t[1].len())).map(<[f64]>::to_vec).unwrap_or_default(),
            setup_us: t[2].get(r).map(<[f64]>::to_vec).unwrap_or_default(),
        }
    }

    fn assert_same(a: f64, b: f64) {
        assert_eq!(a.to_bits(), b.to_bits(), "{a} vs {b}");
    }

    #[test]
    fn device_cycles_at_50_mhz_round_trip_exactly() {
        // Every cycle count of a 50 MHz clock (20 ns a cycle), near the base and up to 180 s
        // from it (where `delta · 1e6` stops being exact), before it (negative µs) and shifted
        // by an alignment offset.
        for offset_us in [0.0, 1_234.567_891_234, -0.1, 1e9 / 7.0] {
            for cycles in (0..20_000u64).chain(9_007_000_000..9_007_005_000).chain([9_007_199_254]) {
                let own = device_us(cycles, 10_000, 50_000_000);
                let us = if offset_us == 0.0 { own } else { own + offset_us };
                let ns = ns_of_us(us, offset_us).unwrap_or_else(|| panic!("{cycles} cycles at {offset_us}: {us} µs"));
                assert_same(us_of_ns(ns, offset_us), us);
            }
        }
        // Host ns (host phases, calibrated clocks): `(ns - origin) / 1000`.
        for ns in [0i64, 1, 999, 1001, -7, 123_456_789_012_345, -(1 << 52)] {
            let us = ns as f64 / 1000.0;
            assert_eq!(ns_of_us(us, 0.0), Some(ns));
        }
    }

    #[test]
    fn times_that_are_not_whole_ns_are_refused() {
        // A clock whose cycle is not whole ns (1.85 GHz), and sub-ns decimals.
        assert!((1..200u64).map(|c| device_us(c, 0, 1_850_000_000)).any(|us| ns_of_us(us, 0.0).is_none()));
        assert_eq!(ns_of_us(0.0004, 0.0), None);
        assert_eq!(ns_of_us(f64::NAN, 0.0), None);
        assert_eq!(ns_of_us(f64::INFINITY, 0.0), None);
        assert_eq!(ns_of_us(1e14, 0.0), None); // 2^53 ns and beyond
                                               // More than 180 s of 50 MHz cycles from the base: the worker's `delta · 1e6` rounds
                                               // before the division, and some µs are then no whole ns (such a track keeps f64s).
        assert_eq!(ns_of_us(device_us((1 << 40) + 1, 10_000, 50_000_000), 0.0), None);
    }

    #[test]
    fn packed_tracks_read_back_bit_for_bit() {
        // Track 0: AICore bars with setups (50 MHz); track 1: no setup; track 2: a 1.85 GHz
        // clock (kept as f64); track 3: empty; track 4: more bars than a read piece.
        let mut cols: [Vec<f64>; 3] = Default::default();
        let mut offsets = vec![0u32];
        let push = |cols: &mut [Vec<f64>; 3], s: f64, e: f64, setup: f64| {
            cols[0].push(s);
            cols[1].push(e);
            cols[2].push(setup);
        };
        for i in 0..500u64 {
            let c = 1000 + i * 37;
            push(
                &mut cols,
                device_us(c, 1000, 50_000_000),
                device_us(c + 20 + i % 7, 1000, 50_000_000),
                device_us(c - i % 3, 1000, 50_000_000),
            );
        }
        offsets.push(cols[0].len() as u32);
        for i in 0..300u64 {
            let s = device_us(5000 + i * 11, 1000, 50_000_000);
            push(&mut cols, s, device_us(5000 + i * 11 + 5, 1000, 50_000_000), s);
        }
        offsets.push(cols[0].len() as u32);
        for i in 0..200u64 {
            push(
                &mut cols,
                device_us(i * 3, 0, 1_850_000_000),
                device_us(i * 3 + 2, 0, 1_850_000_000),
                device_us(i * 3, 0, 1_850_000_000) - 0.5,
            );
        }
        offsets.push(cols[0].len() as u32);
        offsets.push(cols[0].len() as u32);
        for i in 0..(READ_CHUNK_BARS as u64 * 2 + 17) {
            let s = device_us(i * 50, 0, 50_000_000);
            push(&mut cols, s, s + 0.5, s);
        }
        offsets.push(cols[0].len() as u32);
        let offset_of = |track: usize| if track == 4 { 17.25 } else { 0.0 };
        // Track 4 is shifted: the worker added the offset to each value.
        let first4 = offsets[4] as usize;
        for c in &mut cols {
            for v in &mut c[first4..] {
                *v += 17.25;
            }
        }
        let times = BarTimes::read(&offsets, offset_of, columns(&cols));
        assert_eq!(times.bar_count(), cols[0].len());
        assert_eq!(times.float_bars(), 200);
        for g in 0..cols[0].len() {
            let (setup, s, e) = times.times(g).expect("bar");
            assert_same(s, cols[0][g]);
            assert_same(e, cols[1][g]);
            assert_same(setup, cols[2][g].min(cols[0][g]));
            assert_same(times.start_us(g).expect("bar"), cols[0][g]);
        }
        assert!(times.times(cols[0].len()).is_none());
        // The lane accessor reads the same values, for a range and for gathered bars.
        let lane = times.lane(1, LaneBarsRef::Range { first: 500, len: 300 });
        assert_eq!(lane.len(), 300);
        for i in 0..300 {
            assert_same(lane.start_us(i), cols[0][500 + i]);
            assert_same(lane.end_us(i), cols[1][500 + i]);
        }
        let picked = [801u32, 850, 999];
        let lane = times.lane(2, LaneBarsRef::Gathered(&picked));
        for (i, &g) in picked.iter().enumerate() {
            assert_same(lane.start_us(i), cols[0][g as usize]);
            assert_same(lane.end_us(i), cols[1][g as usize]);
        }
        // Packed, the 50 MHz bars take well under the f64 columns' 24 bytes each.
        let packed_bars = cols[0].len() - 200;
        let bytes = times.heap_bytes() - 200 * 24;
        assert!(bytes * 4 < packed_bars * 24, "{bytes} bytes for {packed_bars} bars");
    }

    #[test]
    fn short_or_missing_columns_read_as_before() {
        // No setup column: setup = start; an end column cut short: zero-length bars.
        let cols: [Vec<f64>; 3] = [vec![1.0, 2.0, 3.0], vec![1.5], Vec::new()];
        let times = BarTimes::read(&[0, 3], |_| 0.0, columns(&cols));
        assert_eq!(times.times(0), Some((1.0, 1.0, 1.5)));
        assert_eq!(times.times(2), Some((3.0, 3.0, 3.0)));
    }
}
