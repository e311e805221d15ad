//! Drawing-quality measures over finished polylines, the same for our layout and for
//! Graphviz `dot`'s (the layout benchmark compares the two): total edge length and the
//! number of geometric crossings between edges.
//!
//! Crossings are counted with a uniform grid: every segment is entered in the cells its
//! bounding box covers, pairs sharing a cell are tested with exact orientation signs, and a
//! crossing is counted only in the cell that contains the intersection point, so each pair
//! counts once. Only proper crossings count: segments that merely touch or share an end
//! (edges meeting at a node) do not, nor do two segments of the same edge.

// Geometry notation (x, y, w, h).
#![allow(clippy::many_single_char_names)]

/// Length of a polyline.
pub fn polyline_length(points: &[[f64; 2]]) -> f64 {
    points.windows(2).map(|w| (w[1][0] - w[0][0]).hypot(w[1][1] - w[0][1])).sum()
}

/// Proper crossings between segments of different polylines. `polylines` yields each
/// edge's points. `max_pair_tests` bounds the work (then `None`).
pub fn geometric_crossings<'a>(polylines: impl Iterator<Item = &'a [[f64; 2]]>, max_pair_tests: u64) -> Option<u64> {
    // (x1, y1, x2, y2, edge)
    let mut segs: Vec<([f64; 4], u32)> = Vec::new();
    for (e, pl) in polylines.enumerate() {
        for w in pl.windows(2) {
            if w[0][0].to_bits() != w[1][0].to_bits() || w[0][1].to_bits() != w[1][1].to_bits() {
                segs.push(([w[0][0], w[0][1], w[1][0], w[1][1]], e as u32));
            }
        }
    }
    if segs.len() < 2 {
        return Some(0);
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (s, _) in &segs {
        x0 = x0.min(s[0].min(s[2]));
        x1 = x1.max(s[0].max(s[2]));
        y0 = y0.min(s[1].min(s[3]));
        y1 = y1.max(s[1].max(s[3]));
    }
    let (w, h) = ((x1 - x0).max(1.0), (y1 - y0).max(1.0));
    // About one cell per segment, square cells.
    let cell = (w * h / segs.len() as f64).sqrt().max(1e-9);
    let gx = ((w / cell).ceil() as usize).clamp(1, 1 << 14);
    let gy = ((h / cell).ceil() as usize).clamp(1, 1 << 14);
    let (cw, ch) = (w / gx as f64, h / gy as f64);
    let cx = |x: f64| (((x - x0) / cw) as usize).min(gx - 1);
    let cy = |y: f64| (((y - y0) / ch) as usize).min(gy - 1);
    let cover = |s: &[f64; 4]| (cx(s[0].min(s[2])), cx(s[0].max(s[2])), cy(s[1].min(s[3])), cy(s[1].max(s[3])));
    let mut off = vec![0u32; gx * gy + 1];
    for (s, _) in &segs {
        let (a, b, c, d) = cover(s);
        for y in c..=d {
            for x in a..=b {
                off[y * gx + x + 1] += 1;
            }
        }
    }
    for i in 0..gx * gy {
        off[i + 1] += off[i];
    }
    let mut fill = off.clone();
    let mut cells = vec![0u32; off[gx * gy] as usize];
    for (k, (s, _)) in segs.iter().enumerate() {
        let (a, b, c, d) = cover(s);
        for y in c..=d {
            for x in a..=b {
                cells[fill[y * gx + x] as usize] = k as u32;
                fill[y * gx + x] += 1;
            }
        }
    }
    let mut tests = 0u64;
    let mut count = 0u64;
    for c in 0..gx * gy {
        let list = &cells[off[c] as usize..off[c + 1] as usize];
        let (ix, iy) = (c % gx, c / gx);
        for (i, &a) in list.iter().enumerate() {
            for &b in &list[i + 1..] {
                let (sa, ea) = segs[a as usize];
                let (sb, eb) = segs[b as usize];
                if ea == eb {
                    continue;
                }
                tests += 1;
                if tests > max_pair_tests {
                    return None;
                }
                if let Some((px, py)) = proper_intersection(&sa, &sb) {
                    if cx(px) == ix && cy(py) == iy {
                        count += 1;
                    }
                }
            }
        }
    }
    Some(count)
}

fn orient(ax: f64, ay: f64, bx: f64, by: f64, cx: f64, cy: f64) -> f64 {
    (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
}

/// The crossing point when the segments cross properly (each strictly separates the
/// other's ends).
fn proper_intersection(a: &[f64; 4], b: &[f64; 4]) -> Option<(f64, f64)> {
    let d1 = orient(a[0], a[1], a[2], a[3], b[0], b[1]);
    let d2 = orient(a[0], a[1], a[2], a[3], b[2], b[3]);
    let d3 = orient(b[0], b[1], b[2], b[3], a[0], a[1]);
    let d4 = orient(b[0], b[1], b[2], b[3], a[2], a[3]);
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        let t = d3 / (d3 - d4);
        Some((a[0] + t * (a[2] - a[0]), a[1] + t * (a[3] - a[1])))
    } else {
        None
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::many_single_char_names)]
mod tests {
    use super::*;

    #[test]
    fn counts_proper_crossings_once() {
        let x1 = [[0.0, 0.0], [10.0, 10.0]];
        let x2 = [[0.0, 10.0], [10.0, 0.0]];
        let touching = [[10.0, 10.0], [20.0, 0.0]];
        let far = [[100.0, 0.0], [100.0, 50.0], [0.0, 50.0]];
        let lines: Vec<&[[f64; 2]]> = vec![&x1, &x2, &touching, &far];
        // x1×x2 cross; touching shares an end with x1; far's horizontal leg crosses nothing.
        assert_eq!(geometric_crossings(lines.iter().copied(), u64::MAX), Some(1));
        assert!((polyline_length(&far) - 150.0).abs() < 1e-9);
        // A long segment crossing many short ones (spread over many cells).
        let long = [[0.0, 5.0], [1000.0, 5.0]];
        let shorts: Vec<[[f64; 2]; 2]> = (0..100).map(|i| [[f64::from(i) * 10.0 + 1.0, 0.0], [f64::from(i) * 10.0 + 2.0, 10.0]]).collect();
        let mut lines: Vec<&[[f64; 2]]> = vec![&long];
        lines.extend(shorts.iter().map(|s| &s[..]));
        assert_eq!(geometric_crossings(lines.iter().copied(), u64::MAX), Some(100));
        assert_eq!(geometric_crossings(lines.iter().copied(), 3), None);
    }
}
