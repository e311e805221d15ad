//! Live-byte totals of a memory map for the buffer usage overview: the most bytes of one
//! memory space live on any single line of the function, next to its high-water mark (the
//! gap between the two is address space lost to placement, not to live data).

use super::MemBox;

/// Most bytes of `space` live on one dump line: Σ size of the boxes whose live range
/// holds the line, views left out (they lie inside another box of the same base).
pub fn peak_live_bytes(boxes: &[MemBox], space: &str) -> i64 {
    // (line, +size at start / −size after end); ends sort before starts on one line
    let mut events: Vec<(u32, i64)> = Vec::new();
    for b in boxes.iter().filter(|b| b.tile.space == space && !b.view) {
        events.push((b.tile.start_line, b.tile.size_bytes));
        events.push((b.tile.end_line.saturating_add(1), -b.tile.size_bytes));
    }
    events.sort_unstable_by_key(|&(line, delta)| (line, delta));
    let (mut live, mut peak) = (0i64, 0i64);
    for (_, delta) in events {
        live = live.saturating_add(delta);
        peak = peak.max(live);
    }
    peak
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory_map::build_boxes;
    use crate::memory_map::tests::tile;

    #[test]
    fn overlapping_live_ranges_add_views_do_not() {
        let boxes = build_boxes(vec![
            tile("a", "m0", 0, 64, 1, 5),
            tile("b", "m1", 64, 128, 5, 9),   // meets a on line 5 → 192
            tile("c", "m0", 0, 64, 10, 12),   // reuses a's slot later
            tile("v", "m1", 64, 32, 6, 7),    // view inside b: not counted
            tile("d", "m2", 192, 16, 11, 11), // with c → 80
        ]);
        assert_eq!(peak_live_bytes(&boxes, "Vec"), 192);
        assert_eq!(peak_live_bytes(&boxes, "Mat"), 0);
    }
}
