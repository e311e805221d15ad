//! Time-axis ticks and labels for timeline rulers.
//!
//! [`time_ticks`] picks a "nice" step (1, 2 or 5 × 10^k µs) so labelled ticks are at least
//! `min_label_spacing_px` apart *and* wide enough for their own text, adds unlabelled minor
//! ticks between them when there is room, and formats labels the way a profiler user reads
//! them: one unit for the whole axis (µs, ms or s, chosen from the step and the magnitude),
//! thousands separators, and exactly as many decimals as the step needs to tell neighbours
//! apart ("1,250 µs", "1,250.5 µs", "12.25 ms", "1,000.0001 s"). Pure computation: the app
//! draws the result with [`crate::text::TextOverlay`] or as [`crate::LineInstance`]s.

/// One tick of the time axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    /// Time of the tick, µs.
    pub us: f64,
    /// Horizontal position in CSS pixels from the left of the axis.
    pub px: f64,
    /// Text to draw next to a major tick; empty for minor ticks.
    pub label: String,
    /// Major (labelled, long) tick or minor (unlabelled, short) tick.
    pub major: bool,
}

/// Approximate width of one label character in CSS px (digits of a 11–12 px UI font).
const APPROX_CHAR_PX: f64 = 7.0;
/// Free space wanted between two labels, CSS px.
const LABEL_GAP_PX: f64 = 12.0;
/// Minor ticks are drawn only when they are at least this far apart, CSS px.
const MIN_MINOR_SPACING_PX: f64 = 5.0;
/// Hard cap on the number of ticks, whatever the inputs.
const MAX_TICKS: usize = 4096;

/// A 1-2-5 step: `mantissa × 10^exp` µs, kept symbolic so tick times are computed exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
struct NiceStep {
    mantissa: u8,
    exp: i32,
}

impl NiceStep {
    /// Smallest 1-2-5 step ≥ `raw` (raw > 0, finite).
    fn at_least(raw: f64) -> NiceStep {
        let mut exp = raw.log10().floor() as i32;
        // log10 can be off by one ulp around powers of ten.
        if pow10(exp) > raw {
            exp -= 1;
        }
        let mut step = NiceStep { mantissa: 1, exp };
        while step.value() < raw * (1.0 - 1e-12) {
            step = step.next();
        }
        step
    }

    fn next(self) -> NiceStep {
        match self.mantissa {
            1 => NiceStep { mantissa: 2, exp: self.exp },
            2 => NiceStep { mantissa: 5, exp: self.exp },
            _ => NiceStep { mantissa: 1, exp: self.exp + 1 },
        }
    }

    fn value(self) -> f64 {
        f64::from(self.mantissa) * pow10(self.exp)
    }

    /// `k × self`, dividing by a power of ten for negative exponents (exact for small k).
    fn times(self, k: f64) -> f64 {
        let m = k * f64::from(self.mantissa);
        if self.exp < 0 {
            m / pow10(-self.exp)
        } else {
            m * pow10(self.exp)
        }
    }

    /// Minor subdivisions of this step: 1 → 5 × 0.2, 2 → 4 × 0.5, 5 → 5 × 1.
    fn subdivisions(self) -> u8 {
        if self.mantissa == 2 {
            4
        } else {
            5
        }
    }
}

fn pow10(exp: i32) -> f64 {
    10f64.powi(exp)
}

/// Display unit of an axis.
#[derive(Clone, Copy, Debug, PartialEq)]
struct LabelFormat {
    /// log10 of the unit in µs: 0 = µs, 3 = ms, 6 = s.
    unit_exp: i32,
    decimals: usize,
}

impl LabelFormat {
    /// Largest unit in which the step needs at most 3 decimals and the axis' biggest value is
    /// at least 10 units; µs otherwise.
    fn choose(step: NiceStep, max_abs_us: f64) -> LabelFormat {
        let unit_exp = [6, 3].into_iter().find(|&u| step.exp >= u - 3 && max_abs_us >= 10.0 * pow10(u)).unwrap_or(0);
        let decimals = usize::try_from(unit_exp - step.exp).unwrap_or(0);
        LabelFormat { unit_exp, decimals }
    }

    fn suffix(self) -> &'static str {
        match self.unit_exp {
            6 => " s",
            3 => " ms",
            _ => " µs",
        }
    }

    /// The label of `us`: fixed decimals, then trailing zeros trimmed ("10 ms", "10.2 ms").
    fn format(self, us: f64) -> String {
        let mut number = format!("{:.*}", self.decimals, us / pow10(self.unit_exp));
        trim_fraction(&mut number);
        let mut out = group_thousands(&number);
        out.push_str(self.suffix());
        out
    }

    /// Character count of the widest label in `[a, b]`: the ends bound the integer part, the
    /// untrimmed decimals bound the fraction.
    fn max_chars(self, a: f64, b: f64) -> usize {
        let chars = |us: f64| group_thousands(&format!("{:.*}", self.decimals, us / pow10(self.unit_exp))).chars().count();
        chars(a).max(chars(b)) + self.suffix().chars().count()
    }
}

/// Removes trailing zeros of a fraction, and the '.' if nothing is left after it.
fn trim_fraction(number: &mut String) {
    if number.contains('.') {
        while number.ends_with('0') {
            number.pop();
        }
        if number.ends_with('.') {
            number.pop();
        }
    }
}

/// Inserts ',' every three digits of the integer part of a formatted number; drops "-" from
/// a value that printed as zero.
fn group_thousands(number: &str) -> String {
    let (sign, rest) = match number.strip_prefix('-') {
        Some(r) if r.bytes().any(|c| c.is_ascii_digit() && c != b'0') => ("-", r),
        Some(r) => ("", r),
        None => ("", number),
    };
    let (int, frac) = match rest.find('.') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let mut out = String::with_capacity(number.len() + int.len() / 3 + 1);
    out.push_str(sign);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out.push_str(frac);
    out
}

/// Ticks for the time range `[start_us, end_us]` drawn across `width_px` CSS pixels.
///
/// Major ticks carry labels and are at least `min_label_spacing_px` apart (more if the labels
/// are long); minor ticks subdivide them when they would be at least 5 px apart. Ticks are in
/// increasing time order, `px` measured from the left edge (`start_us`). Degenerate input
/// (non-finite, empty range, zero width) yields no ticks.
pub fn time_ticks(start_us: f64, end_us: f64, width_px: f64, min_label_spacing_px: f64) -> Vec<Tick> {
    if !(start_us.is_finite() && end_us.is_finite() && width_px.is_finite()) || end_us <= start_us || width_px < 1.0 {
        return Vec::new();
    }
    let us_per_px = (end_us - start_us) / width_px;
    let min_spacing = if min_label_spacing_px.is_finite() { min_label_spacing_px.max(1.0) } else { 1.0 };
    let max_abs = start_us.abs().max(end_us.abs());

    let mut step = NiceStep::at_least(min_spacing * us_per_px);
    let mut format = LabelFormat::choose(step, max_abs);
    // Widen the step until the labels fit (a few rounds at most: text grows slower than steps).
    for _ in 0..8 {
        let needed_px = format.max_chars(start_us, end_us) as f64 * APPROX_CHAR_PX + LABEL_GAP_PX;
        if step.value() / us_per_px >= needed_px {
            break;
        }
        step = step.next();
        format = LabelFormat::choose(step, max_abs);
    }

    let mut sub = step.subdivisions();
    if step.value() / f64::from(sub) / us_per_px < MIN_MINOR_SPACING_PX {
        sub = 1;
    }
    // Minor grid: step / sub, i.e. (mantissa / sub) × 10^exp; multiply k by mantissa and divide
    // by sub so times stay exact multiples.
    let minor = step.value() / f64::from(sub);
    // A little slack so ticks exactly on the ends survive rounding of the division.
    let slack = |k: f64| 1e-6_f64.max(k.abs() * 1e-14);
    let k0 = start_us / minor;
    let k0 = (k0 - slack(k0)).ceil();
    let k1 = end_us / minor;
    let k1 = (k1 + slack(k1)).floor();
    if !(k0.is_finite() && k1.is_finite()) || k1 < k0 || k1 - k0 > MAX_TICKS as f64 {
        return Vec::new();
    }
    let count = (k1 - k0) as usize + 1;
    let mut ticks = Vec::with_capacity(count);
    for i in 0..count {
        let k = k0 + i as f64;
        let us = step.times(k) / f64::from(sub);
        let major = (k as i64).rem_euclid(i64::from(sub)) == 0;
        ticks.push(Tick { us, px: (us - start_us) / us_per_px, label: if major { format.format(us) } else { String::new() }, major });
    }
    ticks
}

/// A duration for tooltips and tables, profiler style: µs below 1 ms, then ms, then s, with up to three
/// decimals (trailing zeros dropped), e.g. "0.125 µs", "12.5 µs", "1.234 ms", "2.5 s".
pub fn format_duration_us(us: f64) -> String {
    if !us.is_finite() {
        return "–".to_owned();
    }
    let a = us.abs();
    let (value, suffix) = if a >= 1e6 {
        (us / 1e6, " s")
    } else if a >= 1e3 {
        (us / 1e3, " ms")
    } else {
        (us, " µs")
    };
    let mut s = format!("{value:.3}");
    trim_fraction(&mut s);
    let mut out = group_thousands(&s);
    out.push_str(suffix);
    out
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact values are the point of these checks
mod tests {
    use super::*;

    fn majors(ticks: &[Tick]) -> Vec<&str> {
        ticks.iter().filter(|t| t.major).map(|t| t.label.as_str()).collect()
    }

    #[test]
    fn nice_steps() {
        assert_eq!(NiceStep::at_least(0.7).value(), 1.0);
        assert_eq!(NiceStep::at_least(1.0).value(), 1.0);
        assert_eq!(NiceStep::at_least(1.01).value(), 2.0);
        assert_eq!(NiceStep::at_least(3.0).value(), 5.0);
        assert_eq!(NiceStep::at_least(6.0).value(), 10.0);
        assert_eq!(NiceStep::at_least(1000.0).value(), 1000.0);
        assert!((NiceStep::at_least(0.00013).value() - 0.0002).abs() < 1e-15);
    }

    #[test]
    fn simple_microseconds() {
        let t = time_ticks(0.0, 1000.0, 1000.0, 80.0);
        assert_eq!(
            majors(&t),
            ["0 µs", "100 µs", "200 µs", "300 µs", "400 µs", "500 µs", "600 µs", "700 µs", "800 µs", "900 µs", "1,000 µs"]
        );
        // minor ticks every 20 µs in between
        assert_eq!(t.len(), 51);
        assert!(!t[1].major && t[1].label.is_empty());
        assert!((t[1].px - 20.0).abs() < 1e-9);
        assert!((t.last().map_or(0.0, |x| x.px) - 1000.0).abs() < 1e-9);
        for w in t.windows(2) {
            assert!(w[0].us < w[1].us);
        }
    }

    #[test]
    fn spacing_is_respected() {
        for &(a, b, w, s) in
            &[(0.0, 1.0, 1234.0, 60.0), (-50.0, 3e7, 800.0, 90.0), (1e9, 1e9 + 0.05, 1500.0, 80.0), (17.3, 17.31, 300.0, 50.0)]
        {
            let t = time_ticks(a, b, w, s);
            let m: Vec<_> = t.iter().filter(|x| x.major).collect();
            assert!(m.len() >= 2, "{a} {b}: {t:?}");
            for p in m.windows(2) {
                assert!(p[1].px - p[0].px >= s - 1e-6, "{p:?}");
                assert_ne!(p[0].label, p[1].label, "neighbours must differ: {p:?}");
            }
            for x in &t {
                assert!(x.px >= -1e-6 && x.px <= w + 1e-6, "{x:?}");
                assert!(x.us >= a - 1e-9 * a.abs().max(1.0) && x.us <= b + 1e-9 * b.abs().max(1.0));
            }
        }
    }

    #[test]
    fn decimals_follow_step() {
        let t = time_ticks(1250.0, 1251.0, 1000.0, 80.0);
        assert_eq!(majors(&t)[..3], ["1,250 µs", "1,250.1 µs", "1,250.2 µs"]);
        let t = time_ticks(0.0, 0.01, 1000.0, 100.0);
        assert_eq!(majors(&t)[..3], ["0 µs", "0.001 µs", "0.002 µs"]);
    }

    #[test]
    fn switches_to_ms_and_s() {
        let t = time_ticks(0.0, 50_000.0, 1000.0, 80.0);
        assert_eq!(majors(&t)[..3], ["0 ms", "5 ms", "10 ms"]);
        let t = time_ticks(10_000.0, 12_000.0, 1000.0, 80.0);
        assert_eq!(majors(&t)[..3], ["10 ms", "10.2 ms", "10.4 ms"]);
        let t = time_ticks(0.0, 60e6, 1200.0, 80.0);
        assert_eq!(majors(&t)[..3], ["0 s", "5 s", "10 s"]);
        // small values stay in µs even with big steps
        let t = time_ticks(0.0, 5000.0, 1000.0, 150.0);
        assert_eq!(majors(&t)[..2], ["0 µs", "1,000 µs"]);
    }

    #[test]
    fn deep_zoom_far_from_zero() {
        // 1e9 µs into a trace, 0.1 µs across 1000 px (1e-4 µs per px).
        let t = time_ticks(1e9, 1e9 + 0.1, 1000.0, 80.0);
        let m: Vec<_> = t.iter().filter(|x| x.major).collect();
        assert!(m.len() >= 2);
        for p in m.windows(2) {
            assert_ne!(p[0].label, p[1].label);
            // labels are long here, so spacing grows to fit them
            assert!(p[1].px - p[0].px >= p[0].label.chars().count() as f64 * APPROX_CHAR_PX);
        }
        assert!(m[0].label.starts_with("1,000,000,000"), "{}", m[0].label);
    }

    #[test]
    fn negative_and_degenerate() {
        let t = time_ticks(-300.0, 300.0, 600.0, 100.0);
        assert_eq!(majors(&t), ["-300 µs", "-200 µs", "-100 µs", "0 µs", "100 µs", "200 µs", "300 µs"]);
        assert!(time_ticks(5.0, 5.0, 100.0, 50.0).is_empty());
        assert!(time_ticks(0.0, 1.0, 0.0, 50.0).is_empty());
        assert!(time_ticks(f64::NAN, 1.0, 100.0, 50.0).is_empty());
        assert!(time_ticks(0.0, 1.0, 100.0, 0.0).len() <= MAX_TICKS + 1);
    }

    #[test]
    fn grouping() {
        assert_eq!(group_thousands("1234567.25"), "1,234,567.25");
        assert_eq!(group_thousands("-1234"), "-1,234");
        assert_eq!(group_thousands("-0.00"), "0.00");
        assert_eq!(group_thousands("999"), "999");
    }

    #[test]
    fn durations() {
        assert_eq!(format_duration_us(12.5), "12.5 µs");
        assert_eq!(format_duration_us(0.125), "0.125 µs");
        assert_eq!(format_duration_us(1234.0), "1.234 ms");
        assert_eq!(format_duration_us(2.5e6), "2.5 s");
        assert_eq!(format_duration_us(3e9), "3,000 s");
        assert_eq!(format_duration_us(0.0), "0 µs");
    }
}
