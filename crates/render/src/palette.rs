//! Categorical colours for bars: stable per key, distinguishable, readable under dark text.
//!
//! Sixteen mid-light hues in the spirit of Perfetto's and Chrome tracing's slice colours
//! (Material 300/400 tones), in an order that puts far-apart hues on consecutive keys, each in
//! three shades (base, lighter, darker): keys 0..48 all get different colours, which suits
//! interned name ids that count up from 0. Larger keys cycle. [`color_for_name`] hashes a
//! string (FNV-1a) for callers without an id; [`text_color_on`] picks black or white text for a
//! background.

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

/// Opaque RGBA colour for a category key, the same on every call and every machine.
pub fn color_for_key(key: u32) -> [u8; 4] {
    let slot = key % DISTINCT_COLORS;
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

/// Colour for a name: FNV-1a hash of the UTF-8 bytes, then [`color_for_key`].
pub fn color_for_name(name: &str) -> [u8; 4] {
    let mut h: u32 = 0x811c_9dc5;
    for &b in name.as_bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    color_for_key(h)
}

/// Black or white, whichever reads better on `background` (relative luminance threshold).
pub fn text_color_on(background: [u8; 4]) -> [u8; 4] {
    let [r, g, b, _] = background;
    // Rec. 709 luma on gamma-encoded values is good enough for a black/white choice; 118 is
    // about where both have the same WCAG contrast.
    let luma = 0.2126 * f32::from(r) + 0.7152 * f32::from(g) + 0.0722 * f32::from(b);
    if luma >= 118.0 {
        [20, 20, 20, 255]
    } else {
        [255, 255, 255, 255]
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact values are the point of these checks
mod tests {
    use super::*;

    #[test]
    fn stable_and_opaque() {
        assert_eq!(color_for_key(7), color_for_key(7));
        assert_eq!(color_for_key(3), color_for_key(3 + DISTINCT_COLORS));
        assert_eq!(color_for_key(0), [229, 115, 115, 255]);
        for k in 0..1000 {
            assert_eq!(color_for_key(k)[3], 255);
        }
        assert_eq!(color_for_name("matmul"), color_for_name("matmul"));
    }

    #[test]
    fn first_48_keys_are_distinct() {
        let mut seen: Vec<[u8; 4]> = (0..DISTINCT_COLORS).map(color_for_key).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), DISTINCT_COLORS as usize);
    }

    #[test]
    fn neighbours_differ_clearly() {
        let dist = |a: [u8; 4], b: [u8; 4]| -> i32 { (0..3).map(|i| (i32::from(a[i]) - i32::from(b[i])).abs()).sum() };
        for k in 0..DISTINCT_COLORS {
            let d = dist(color_for_key(k), color_for_key(k + 1));
            assert!(d >= 60, "keys {k} and {} too close: {d}", k + 1);
        }
    }

    #[test]
    fn order_is_a_permutation() {
        let mut o = ORDER;
        o.sort_unstable();
        assert_eq!(o, core::array::from_fn::<usize, 16, _>(|i| i));
    }

    #[test]
    fn text_contrast() {
        assert_eq!(text_color_on([255, 255, 255, 255])[0], 20);
        assert_eq!(text_color_on([0, 0, 0, 255])[0], 255);
        for k in 0..16 {
            // the base shades are light enough for dark text
            assert_eq!(text_color_on(color_for_key(k))[0], 20, "key {k}");
        }
    }
}
