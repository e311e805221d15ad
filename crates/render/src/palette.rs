//! Categorical colours for bars: stable per key, distinguishable, readable, in both themes.
//!
//! Sixteen mid-light hues in the spirit of Perfetto's and Chrome tracing's slice colours
//! (Material 300/400 tones), in an order that puts far-apart hues on consecutive keys, each in
//! three shades (base, lighter, darker): keys 0..48 all get different colours, which suits
//! interned name ids that count up from 0. Larger keys cycle. The dark theme's colours are the
//! same hues at about half the CIE L* (chroma kept), so bars stay apart from each other and
//! from a dark background and take white labels. [`color_for_name`] hashes a string (FNV-1a)
//! for callers without an id; [`text_color_on`] picks the label ink (black or white, whichever
//! has the higher WCAG contrast). [`contrast_ratio`] and [`delta_e_2000`] are the measures the
//! palettes are tested with (WCAG 2 contrast; CIEDE2000 colour difference).

use std::sync::OnceLock;

use crate::theme::Scheme;

/// Base hues (RGB), ordered by hue around the wheel.
const BASE: [[u8; 3]; 16] = [
    [229, 115, 115], // red
    [240, 98, 146],  // pink
    [186, 104, 200], // purple
    [149, 117, 205], // deep purple
    [121, 134, 203], // indigo
    [100, 181, 246], // blue
    [79, 195, 247],  // light blue
    [77, 208, 225],  // cyan
    [77, 182, 172],  // teal
    [129, 199, 132], // green
    [174, 213, 129], // light green
    [220, 231, 117], // lime
    [255, 213, 79],  // amber
    [255, 183, 77],  // orange
    [255, 138, 101], // deep orange
    [161, 136, 127], // brown
];

/// Visiting order of [`BASE`]: steps of 5 around the 16 hues, so neighbours differ strongly.
const ORDER: [usize; 16] = [0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11];

/// Number of distinct colours before the palette repeats.
pub const DISTINCT_COLORS: u32 = 48;

/// The light theme's colour of palette slot `slot` (integer mixing, exact everywhere).
fn light_slot(slot: u32) -> [u8; 4] {
    let [red, green, blue] = BASE[ORDER[(slot % 16) as usize]];
    let shade = slot / 16;
    let mix = |c: u8| -> u8 {
        let c = u32::from(c);
        let v = match shade {
            0 => c,
            // 30 % towards white
            1 => c + (255 - c) * 3 / 10,
            // 25 % towards black
            _ => c * 3 / 4,
        };
        v.min(255) as u8
    };
    [mix(red), mix(green), mix(blue), 255]
}

#[allow(clippy::many_single_char_names)] // Lab and RGB channels
/// The dark theme's colour of a light one: CIE L* halved plus 4, a* and b* kept.
fn dark_of(light: [u8; 4]) -> [u8; 4] {
    let [l, a, b] = to_lab(light);
    let [r, g, bl] = from_lab([l * 0.5 + 4.0, a, b]);
    [r, g, bl, 255]
}

fn table(scheme: Scheme) -> &'static [[u8; 4]; DISTINCT_COLORS as usize] {
    static LIGHT: OnceLock<[[u8; 4]; DISTINCT_COLORS as usize]> = OnceLock::new();
    static DARK: OnceLock<[[u8; 4]; DISTINCT_COLORS as usize]> = OnceLock::new();
    match scheme {
        Scheme::Light => LIGHT.get_or_init(|| core::array::from_fn(|i| light_slot(i as u32))),
        Scheme::Dark => DARK.get_or_init(|| core::array::from_fn(|i| dark_of(light_slot(i as u32)))),
    }
}

/// Opaque RGBA colour for a category key in `scheme`, the same on every call and machine.
pub fn color_for_key(scheme: Scheme, key: u32) -> [u8; 4] {
    table(scheme)[(key % DISTINCT_COLORS) as usize]
}

/// Colour for a name: FNV-1a hash of the UTF-8 bytes, then [`color_for_key`].
pub fn color_for_name(scheme: Scheme, name: &str) -> [u8; 4] {
    let mut h: u32 = 0x811c_9dc5;
    for &b in name.as_bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    color_for_key(scheme, h)
}

/// Label ink on a bar: black or white, whichever has the higher WCAG contrast on `background`.
pub fn text_color_on(background: [u8; 4]) -> [u8; 4] {
    const BLACK: [u8; 4] = [0, 0, 0, 255];
    const WHITE: [u8; 4] = [255, 255, 255, 255];
    if contrast_ratio(background, BLACK) >= contrast_ratio(background, WHITE) {
        BLACK
    } else {
        WHITE
    }
}

fn linear(c: u8) -> f64 {
    let c = f64::from(c) / 255.0;
    if c <= 0.040_45 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn encoded(v: f64) -> u8 {
    let v = v.clamp(0.0, 1.0);
    let c = if v <= 0.003_130_8 { 12.92 * v } else { 1.055 * v.powf(1.0 / 2.4) - 0.055 };
    (c * 255.0).round() as u8
}

/// WCAG 2 relative luminance of an sRGB colour (alpha ignored), 0 (black) ..= 1 (white).
pub fn relative_luminance([r, g, b, _]: [u8; 4]) -> f64 {
    0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/// WCAG 2 contrast ratio of two opaque colours, 1 ..= 21 (AA body text needs 4.5).
pub fn contrast_ratio(a: [u8; 4], b: [u8; 4]) -> f64 {
    let (la, lb) = (relative_luminance(a), relative_luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// `over` (its alpha) composited on the opaque `under`: what the eye sees.
pub fn over(over: [u8; 4], under: [u8; 4]) -> [u8; 4] {
    let a = u32::from(over[3]);
    let mix = |o: u8, u: u8| ((u32::from(o) * a + u32::from(u) * (255 - a) + 127) / 255) as u8;
    [mix(over[0], under[0]), mix(over[1], under[1]), mix(over[2], under[2]), 255]
}

/// D65 white point (XYZ).
const WHITE_XYZ: [f64; 3] = [0.950_47, 1.0, 1.088_83];
const LAB_EPSILON: f64 = 216.0 / 24389.0;
const LAB_KAPPA: f64 = 24389.0 / 27.0;

/// CIE L*a*b* (D65) of an sRGB colour.
pub fn to_lab([r, g, b, _]: [u8; 4]) -> [f64; 3] {
    let (r, g, b) = (linear(r), linear(g), linear(b));
    let xyz = [
        0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b,
        0.212_672_9 * r + 0.715_152_2 * g + 0.072_175_0 * b,
        0.019_333_9 * r + 0.119_192_0 * g + 0.950_304_1 * b,
    ];
    let f = |t: f64| if t > LAB_EPSILON { t.cbrt() } else { (LAB_KAPPA * t + 16.0) / 116.0 };
    let [fx, fy, fz] = [f(xyz[0] / WHITE_XYZ[0]), f(xyz[1] / WHITE_XYZ[1]), f(xyz[2] / WHITE_XYZ[2])];
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

#[allow(clippy::many_single_char_names)] // the formula's own names
/// The sRGB colour of CIE L*a*b* (D65), clipped into the gamut channel by channel.
pub fn from_lab([l, a, b]: [f64; 3]) -> [u8; 3] {
    let fy = (l + 16.0) / 116.0;
    let (fx, fz) = (fy + a / 500.0, fy - b / 200.0);
    let inv = |t: f64| if t * t * t > LAB_EPSILON { t * t * t } else { (116.0 * t - 16.0) / LAB_KAPPA };
    let (x, y, z) = (inv(fx) * WHITE_XYZ[0], inv(fy) * WHITE_XYZ[1], inv(fz) * WHITE_XYZ[2]);
    [
        encoded(3.240_454_2 * x - 1.537_138_5 * y - 0.498_531_4 * z),
        encoded(-0.969_266_0 * x + 1.876_010_8 * y + 0.041_556_0 * z),
        encoded(0.055_643_4 * x - 0.204_025_9 * y + 1.057_225_2 * z),
    ]
}

/// CIEDE2000 colour difference of two sRGB colours (about 2.3 is just noticeable; side by side,
/// 10 and more reads as different colours).
pub fn delta_e_2000(c1: [u8; 4], c2: [u8; 4]) -> f64 {
    delta_e_2000_lab(to_lab(c1), to_lab(c2))
}

/// CIEDE2000 colour difference of two CIE L*a*b* colours (Sharma, Wu & Dalal 2005).
#[allow(clippy::many_single_char_names)] // the formula's own names
pub fn delta_e_2000_lab([l1, a1, b1]: [f64; 3], [l2, a2, b2]: [f64; 3]) -> f64 {
    let pow7 = |v: f64| v.powi(7);
    let c_bar = f64::midpoint(a1.hypot(b1), a2.hypot(b2));
    let g = 0.5 * (1.0 - (pow7(c_bar) / (pow7(c_bar) + pow7(25.0))).sqrt());
    let (a1p, a2p) = ((1.0 + g) * a1, (1.0 + g) * a2);
    let (c1p, c2p) = (a1p.hypot(b1), a2p.hypot(b2));
    let hue = |b: f64, a: f64| if a == 0.0 && b == 0.0 { 0.0 } else { b.atan2(a).to_degrees().rem_euclid(360.0) };
    let (h1, h2) = (hue(b1, a1p), hue(b2, a2p));
    let dl = l2 - l1;
    let dc = c2p - c1p;
    let chromatic = c1p * c2p != 0.0;
    let dh = if chromatic {
        let d = h2 - h1;
        if d > 180.0 {
            d - 360.0
        } else if d < -180.0 {
            d + 360.0
        } else {
            d
        }
    } else {
        0.0
    };
    let dh_big = 2.0 * (c1p * c2p).sqrt() * (dh.to_radians() / 2.0).sin();
    let l_bar = f64::midpoint(l1, l2);
    let c_bar_p = f64::midpoint(c1p, c2p);
    let h_bar = if !chromatic {
        h1 + h2
    } else if (h1 - h2).abs() <= 180.0 {
        f64::midpoint(h1, h2)
    } else if h1 + h2 < 360.0 {
        (h1 + h2 + 360.0) / 2.0
    } else {
        (h1 + h2 - 360.0) / 2.0
    };
    let cos = |deg: f64| deg.to_radians().cos();
    let t = 1.0 - 0.17 * cos(h_bar - 30.0) + 0.24 * cos(2.0 * h_bar) + 0.32 * cos(3.0 * h_bar + 6.0) - 0.20 * cos(4.0 * h_bar - 63.0);
    let d_theta = 30.0 * (-((h_bar - 275.0) / 25.0).powi(2)).exp();
    let r_c = 2.0 * (pow7(c_bar_p) / (pow7(c_bar_p) + pow7(25.0))).sqrt();
    let s_l = 1.0 + 0.015 * (l_bar - 50.0).powi(2) / (20.0 + (l_bar - 50.0).powi(2)).sqrt();
    let s_c = 1.0 + 0.045 * c_bar_p;
    let s_h = 1.0 + 0.015 * c_bar_p * t;
    let r_t = -(2.0 * d_theta).to_radians().sin() * r_c;
    let (tl, tc, th) = (dl / s_l, dc / s_c, dh_big / s_h);
    (tl * tl + tc * tc + th * th + r_t * tc * th).sqrt()
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact values are the point of these checks
mod tests {
    use super::*;

    const BOTH: [Scheme; 2] = [Scheme::Light, Scheme::Dark];

    #[test]
    fn stable_and_opaque() {
        for s in BOTH {
            assert_eq!(color_for_key(s, 7), color_for_key(s, 7));
            assert_eq!(color_for_key(s, 3), color_for_key(s, 3 + DISTINCT_COLORS));
            for k in 0..1000 {
                assert_eq!(color_for_key(s, k)[3], 255);
            }
            assert_eq!(color_for_name(s, "matmul"), color_for_name(s, "matmul"));
        }
        assert_eq!(color_for_key(Scheme::Light, 0), [229, 115, 115, 255]);
        assert_ne!(color_for_key(Scheme::Dark, 0), color_for_key(Scheme::Light, 0));
    }

    #[test]
    fn first_48_keys_are_distinct() {
        for s in BOTH {
            let mut seen: Vec<[u8; 4]> = (0..DISTINCT_COLORS).map(|k| color_for_key(s, k)).collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), DISTINCT_COLORS as usize, "{s:?}");
        }
    }

    /// Keys next to each other in assignment order (interned function ids count up) differ by
    /// CIEDE2000 ≥ 15 (clearly different colours), the 16 base hues pairwise by ≥ 3.5, in both
    /// themes.
    #[test]
    fn function_colours_are_distinguishable_in_both_themes() {
        for s in BOTH {
            for k in 0..DISTINCT_COLORS {
                let d = delta_e_2000(color_for_key(s, k), color_for_key(s, k + 1));
                assert!(d >= 15.0, "{s:?}: keys {k} and {} too close: ΔE {d:.1}", k + 1);
            }
            for i in 0..16 {
                for j in i + 1..16 {
                    let d = delta_e_2000(color_for_key(s, i), color_for_key(s, j));
                    assert!(d >= 3.5, "{s:?}: keys {i} and {j} too close: ΔE {d:.1}");
                }
            }
        }
    }

    /// Every bar colour takes a label ink with WCAG contrast ≥ 4.5, in both themes; the dark
    /// theme's bars take white, and stand off the dark background.
    #[test]
    fn label_contrast_in_both_themes() {
        for s in BOTH {
            for k in 0..DISTINCT_COLORS {
                let c = color_for_key(s, k);
                let r = contrast_ratio(c, text_color_on(c));
                assert!(r >= 4.5, "{s:?}: key {k} {c:?}: label contrast {r:.2}");
            }
        }
        for k in 0..16 {
            assert_eq!(text_color_on(color_for_key(Scheme::Light, k)), [0, 0, 0, 255], "light key {k}");
            assert_eq!(text_color_on(color_for_key(Scheme::Dark, k)), [255, 255, 255, 255], "dark key {k}");
        }
    }

    #[test]
    fn measures_match_known_values() {
        assert!((contrast_ratio([0, 0, 0, 255], [255, 255, 255, 255]) - 21.0).abs() < 1e-9);
        assert!((contrast_ratio([118, 118, 118, 255], [255, 255, 255, 255]) - 4.54).abs() < 0.01);
        // Sharma, Wu & Dalal's CIEDE2000 test data, pairs 1 and 17.
        assert!((delta_e_2000_lab([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485]) - 2.0425).abs() < 1e-4);
        assert!((delta_e_2000_lab([50.0, 2.5, 0.0], [73.0, 25.0, -18.0]) - 27.1492).abs() < 1e-4);
        let lab = to_lab([255, 0, 0, 255]);
        assert!((lab[0] - 53.24).abs() < 0.01 && (lab[1] - 80.09).abs() < 0.01 && (lab[2] - 67.20).abs() < 0.01, "{lab:?}");
        assert_eq!(from_lab(to_lab([12, 200, 90, 255])), [12, 200, 90]);
        assert_eq!(delta_e_2000([10, 20, 30, 255], [10, 20, 30, 255]), 0.0);
        // a known pair: sRGB red vs orange-red
        let d = delta_e_2000([255, 0, 0, 255], [255, 64, 0, 255]);
        assert!(d > 3.0 && d < 10.0, "{d}");
        assert_eq!(over([0, 0, 0, 0], [9, 8, 7, 255]), [9, 8, 7, 255]);
        assert_eq!(over([0, 0, 0, 255], [9, 8, 7, 255]), [0, 0, 0, 255]);
    }

    #[test]
    fn order_is_a_permutation() {
        let mut o = ORDER;
        o.sort_unstable();
        assert_eq!(o, core::array::from_fn::<usize, 16, _>(|i| i));
    }
}
