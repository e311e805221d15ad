//! Cycle → µs conversion of a raw records file (runtime-formats.md §1.4, §1.16), for the
//! task join and every view that shows device time.
//!
//! Device mode: `base_cycles` = the smallest strictly positive value among every AICore
//! `start - receive_to_start` and `end`, every AICPU `dispatch` and `finish`, every scheduler
//! and orchestrator record `start`/`end`; `us(c) = 0.0` if `c == 0`, else
//! `(c - base) * 1e6 / clock_freq_hz` (signed, so `c < base` gives a negative value).
//!
//! Host-orchestrated captures (§1.16): when clock anchors calibrate
//! (`nominal_frequency_offset_interp_v1`), device cycles map to host ns and then to
//! `(host_ns - origin_ns) / 1000` µs; otherwise device time is placed after the host
//! orchestration window (`host_composite_end_us + (c - base) * 1e6 / f`, with
//! `host_composite_end_us` = the latest host record end; an approximation, warned).

use pypto_formats::columns::CyclesColumn;
use pypto_formats::packed::PackedU64;
use pypto_formats::records::ChipRecords;
use pypto_formats::{Warning, WarningKind};

/// How device cycles are placed on the µs axis.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Alignment {
    /// Plain device time: µs since `base_cycles`.
    Device,
    /// Host mode, clock anchors calibrated: cycles → host ns → µs since the host origin.
    HostCalibrated {
        origin_ns: i128,
        start_mid_ns: i128,
        start_cycles: i128,
        span_cycles: i128,
        /// `end.mid - (start.mid + span * 1e9 / f)`.
        drift_ns: i128,
    },
    /// Host mode without calibration: device µs shifted after the host window.
    HostComposite { offset_us: f64 },
}

/// The time base of one records file.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Timebase {
    pub base_cycles: u64,
    pub clock_freq_hz: u64,
    pub alignment: Alignment,
    /// Host origin (ns) in host mode.
    pub host_origin_ns: Option<u64>,
    pub warnings: Vec<Warning>,
}

impl Timebase {
    /// A plain device time base (used by tests and v1 files).
    pub fn device(base_cycles: u64, clock_freq_hz: u64) -> Self {
        Self { base_cycles, clock_freq_hz, alignment: Alignment::Device, host_origin_ns: None, warnings: Vec::new() }
    }

    /// Builds the time base of a records file.
    pub fn from_records(r: &ChipRecords) -> Self {
        let base = base_cycles(r);
        let mut tb = Self::device(base, r.metadata.clock_freq_hz);
        if r.is_host_mode() {
            host_alignment(r, &mut tb);
        }
        tb
    }

    /// Device cycles → µs (0 cycles = absent = 0.0).
    pub fn us(&self, c: u64) -> f64 {
        if c == 0 || self.clock_freq_hz == 0 {
            return 0.0;
        }
        let f = self.clock_freq_hz as f64;
        // `c - base` as f64 without an i128 conversion (a slow software routine): a u64
        // difference converts with the same rounding, and the rounding is sign-symmetric.
        let delta = |base: u64| if c >= base { (c - base) as f64 } else { -((base - c) as f64) };
        match &self.alignment {
            Alignment::Device => delta(self.base_cycles) * 1e6 / f,
            Alignment::HostComposite { offset_us } => offset_us + delta(self.base_cycles) * 1e6 / f,
            Alignment::HostCalibrated { origin_ns, start_mid_ns, start_cycles, span_cycles, drift_ns } => {
                let d = i128::from(c) - start_cycles;
                let f = i128::from(self.clock_freq_hz);
                let host_ns = start_mid_ns + d * 1_000_000_000 / f + drift_ns * d / span_cycles;
                (host_ns - origin_ns) as f64 / 1000.0
            }
        }
    }

    /// Host ns → µs since the host origin (host mode); 0.0 without an origin.
    pub fn host_us(&self, ns: u64) -> f64 {
        self.host_origin_ns.map_or(0.0, |o| (i128::from(ns) - i128::from(o)) as f64 / 1000.0)
    }
}

/// §1.4 step 2: the smallest strictly positive timestamp (0 if none).
pub fn base_cycles(r: &ChipRecords) -> u64 {
    let mut m = u64::MAX;
    let mut see = |v: u64| {
        if v > 0 && v < m {
            m = v;
        }
    };
    let a = &r.aicore;
    for ((&s, &e), &r2s) in a.start_cycles.iter().zip(&a.end_cycles).zip(&a.receive_to_start_cycles) {
        see(s.saturating_sub(r2s));
        see(e);
    }
    for (&d, &f) in r.aicpu.dispatch_cycles.iter().zip(&r.aicpu.finish_cycles) {
        see(d);
        see(f);
    }
    for t in &r.sched_threads {
        t.start_cycles.iter().chain(t.end_cycles.iter()).for_each(&mut see);
    }
    for t in &r.orch_threads {
        t.start_cycles.iter().chain(t.end_cycles.iter()).for_each(&mut see);
    }
    if m == u64::MAX {
        0
    } else {
        m
    }
}

struct Anchor {
    mid_ns: i128,
    cycles: i128,
}

fn pick_anchor(r: &ChipRecords, position: &str) -> Option<Anchor> {
    let anchors = r.metadata.clock_anchors.as_ref()?;
    let best = anchors
        .samples
        .iter()
        .filter(|s| s.position == position && !s.has_error)
        .filter_map(|s| {
            let before = s.host_before_ns?;
            let after = s.host_after_ns?;
            let cycles = s.device_cycles?;
            let rtt = s.rtt_ns.unwrap_or(after.saturating_sub(before));
            Some((rtt, s.sample_idx, before, cycles))
        })
        .min_by_key(|&(rtt, idx, _, _)| (rtt, idx))?;
    let (rtt, _, before, cycles) = best;
    Some(Anchor { mid_ns: i128::from(before) + i128::from(rtt / 2), cycles: i128::from(cycles) })
}

fn host_alignment(r: &ChipRecords, tb: &mut Timebase) {
    let mut min_host = u64::MAX;
    let mut max_host = 0u64;
    for t in &r.host_orch_threads {
        for (&s, &e) in t.start_host_ns.iter().zip(&t.end_host_ns) {
            min_host = min_host.min(s);
            max_host = max_host.max(e);
        }
    }
    for (&s, &e) in r.host_uploads.start_host_ns.iter().zip(&r.host_uploads.end_host_ns) {
        min_host = min_host.min(s);
        max_host = max_host.max(e);
    }
    let start = pick_anchor(r, "pre_host_orchestration");
    let end = pick_anchor(r, "post_device_execution");
    let origin = r
        .metadata
        .host_orchestration_origin_ns
        .or((min_host != u64::MAX).then_some(min_host))
        .or_else(|| start.as_ref().and_then(|a| u64::try_from(a.mid_ns).ok()));
    tb.host_origin_ns = origin;
    let f = i128::from(r.metadata.clock_freq_hz);
    if let (Some(s), Some(e), Some(origin)) = (start, end, origin) {
        let span = e.cycles - s.cycles;
        if span > 0 && f > 0 {
            let drift = e.mid_ns - (s.mid_ns + span * 1_000_000_000 / f);
            tb.alignment = Alignment::HostCalibrated {
                origin_ns: i128::from(origin),
                start_mid_ns: s.mid_ns,
                start_cycles: s.cycles,
                span_cycles: span,
                drift_ns: drift,
            };
            return;
        }
    }
    let end_us = match origin {
        Some(o) if max_host > 0 => (i128::from(max_host) - i128::from(o)) as f64 / 1000.0,
        _ => 0.0,
    };
    tb.alignment = Alignment::HostComposite { offset_us: end_us };
    tb.warnings.push(Warning::analysis(
        WarningKind::ClockNotCalibrated,
        "host-orchestrated capture without usable clock anchors: device time placed after the host \
         orchestration window (approximate; cross-domain gaps unknown)",
    ));
}

/// Cycle counts [`UsColumn::from_cycles`] reads (twice: once for the base, once to convert).
pub trait CycleValues {
    fn values(&self) -> impl Iterator<Item = u64> + '_;
}

impl CycleValues for [u64] {
    fn values(&self) -> impl Iterator<Item = u64> + '_ {
        self.iter().copied()
    }
}

impl CycleValues for Vec<u64> {
    fn values(&self) -> impl Iterator<Item = u64> + '_ {
        self.iter().copied()
    }
}

impl<const N: usize> CycleValues for [u64; N] {
    fn values(&self) -> impl Iterator<Item = u64> + '_ {
        self.iter().copied()
    }
}

impl CycleValues for CyclesColumn {
    fn values(&self) -> impl Iterator<Item = u64> + '_ {
        self.iter()
    }
}

/// A column of µs values kept as the cycles they come from, bit-packed
/// ([`PackedU64`]: steady runs of timestamps take a few bits each), converted through the time
/// base on access (the same `Timebase::us` call an eager conversion makes, so every value is
/// identical). A column that comes from µs (v1 files, host lanes) keeps `f64`s.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum UsColumn {
    Cycles { tb: Box<Timebase>, cycles: PackedU64 },
    Us(Vec<f64>),
}

impl Default for UsColumn {
    fn default() -> Self {
        Self::Us(Vec::new())
    }
}

impl UsColumn {
    /// The µs of `cycles` through `tb` (a slice, or a raw [`CyclesColumn`]).
    pub fn from_cycles(cycles: &(impl CycleValues + ?Sized), tb: &Timebase) -> Self {
        // The warnings are the file's, reported elsewhere; the column needs only the mapping.
        let tb = Box::new(Timebase { warnings: Vec::new(), ..tb.clone() });
        Self::Cycles { tb, cycles: cycles.values().collect() }
    }
    pub fn get(&self, i: usize) -> Option<f64> {
        match self {
            Self::Cycles { tb, cycles } => cycles.get(i).map(|c| tb.us(c)),
            Self::Us(v) => v.get(i).copied(),
        }
    }
    pub fn len(&self) -> usize {
        match self {
            Self::Cycles { cycles, .. } => cycles.len(),
            Self::Us(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn iter(&self) -> impl Iterator<Item = f64> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
    pub fn shrink_to_fit(&mut self) {
        match self {
            Self::Cycles { cycles, .. } => cycles.shrink_to_fit(),
            Self::Us(v) => v.shrink_to_fit(),
        }
    }
    /// Resident bytes (capacity).
    pub fn resident_bytes(&self) -> usize {
        match self {
            Self::Cycles { cycles, .. } => cycles.resident_bytes() + std::mem::size_of::<Timebase>(),
            Self::Us(v) => v.capacity() * 8,
        }
    }
}

impl From<Vec<f64>> for UsColumn {
    fn from(v: Vec<f64>) -> Self {
        Self::Us(v)
    }
}

#[cfg(test)]
mod us_column_tests {
    use super::*;

    #[test]
    fn device_conversion_equals_the_i128_formula() {
        let mut state = 11u64;
        let mut next = || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            state
        };
        for &(base, f) in &[(0u64, 50_000_000u64), (100_000_000_000, 50_000_000), (u64::MAX / 3, 1_000_000_000), (1, 7)] {
            let tb = Timebase::device(base, f);
            let reference = |c: u64| (i128::from(c) - i128::from(base)) as f64 * 1e6 / f as f64;
            let edges = [1, base.saturating_sub(1), base, base.saturating_add(1), u64::MAX, u64::MAX - 1, 1 << 53, (1 << 53) + 1];
            let random: Vec<u64> = (0..10_000).map(|_| next()).collect();
            let near: Vec<u64> = (0..10_000).map(|_| base.wrapping_add(next() >> 20)).collect();
            for c in edges.into_iter().chain(random).chain(near) {
                if c != 0 {
                    assert_eq!(tb.us(c).to_bits(), reference(c).to_bits(), "c {c} base {base}");
                }
            }
        }
    }

    #[test]
    fn cycles_read_back_exactly_as_the_eager_conversion() {
        let tb = Timebase::device(1_000, 50_000_000);
        let cycles = [0u64, 1_000, 1_001, 999, 4_000_000_123, 0, 7];
        let c = UsColumn::from_cycles(&cycles, &tb);
        assert!(matches!(c, UsColumn::Cycles { .. }));
        let eager: Vec<f64> = cycles.iter().map(|&x| tb.us(x)).collect();
        assert_eq!(c.iter().collect::<Vec<_>>(), eager);
        assert_eq!(c.get(cycles.len()), None);
        // A span past 32 bits, still the same values.
        let wide = [1u64, 1 + (1u64 << 33), 0, u64::MAX];
        let w = UsColumn::from_cycles(&wide, &tb);
        assert_eq!(w.iter().collect::<Vec<_>>(), wide.iter().map(|&x| tb.us(x)).collect::<Vec<_>>());
        assert!(UsColumn::from_cycles(&[], &tb).is_empty());
    }
}
