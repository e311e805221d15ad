//! Vertical layout of the swimlane: group headers (collapsible), tracks with their sub-rows,
//! absent-view notes, and the pinned area at the top. Rebuilt when the timeline, a collapse
//! or a pin changes — never per frame; a frame finds its visible rows by binary search.

use pypto_protocol::TimelineView;

use super::data::Timeline;

/// Height of the overview strip (whole capture, visible window highlighted), CSS px.
pub const OVERVIEW_HEIGHT_PX: f64 = 16.0;
/// Height of the detailed time axis below the overview, CSS px.
pub const AXIS_HEIGHT_PX: f64 = 26.0;
/// Everything above the lanes.
pub const HEADER_HEIGHT_PX: f64 = OVERVIEW_HEIGHT_PX + AXIS_HEIGHT_PX;
pub const GUTTER_WIDTH_PX: f64 = 150.0;
/// Height of one sub-row of a track and of its bars.
pub const ROW_PITCH_PX: f64 = 22.0;
pub const BAR_HEIGHT_PX: f64 = 16.0;
pub const BAR_TOP_PAD_PX: f64 = 3.0;
/// Minimum drawn width of a marker bar (dummy task, predicated skip), CSS px.
pub const MARKER_MIN_PX: f64 = 2.0;

/// The drawn span of a marker bar from `x0..x1`: widened to [`MARKER_MIN_PX`] around its centre.
pub fn marker_span(x0: f64, x1: f64) -> (f64, f64) {
    if x1 - x0 >= MARKER_MIN_PX {
        (x0, x1)
    } else {
        let mid = f64::midpoint(x0, x1);
        (mid - MARKER_MIN_PX / 2.0, mid + MARKER_MIN_PX / 2.0)
    }
}
pub const GROUP_HEIGHT_PX: f64 = 22.0;
pub const ABSENT_HEIGHT_PX: f64 = 20.0;

/// What a layout row shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    Group(usize),
    /// A track (all its sub-rows).
    Track(usize),
    /// `header.absent[i]`.
    Absent(usize),
}

/// One row of the layout at `y` (content coordinates: 0 = first row below the header and the
/// pinned area), `h` high.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayoutRow {
    pub kind: RowKind,
    pub y: f64,
    pub h: f64,
}

/// The layout of all rows plus the pinned tracks.
#[derive(Default)]
pub struct Layout {
    pub rows: Vec<LayoutRow>,
    /// Pinned tracks, in pin order, drawn at the top (`y` relative to the pinned area).
    pub pinned: Vec<LayoutRow>,
    pub pinned_height: f64,
    pub content_height: f64,
    /// Per track: `Some((pinned, y))` when the track is laid out (not in a collapsed group).
    pub track_pos: Vec<Option<(bool, f64)>>,
}

/// Height of a track: its rows, or one row when `folded[track]`.
pub fn track_height(tl: &Timeline, track: usize, folded: &[bool]) -> f64 {
    let rows = if folded.get(track).copied().unwrap_or(false) { 1 } else { tl.header.tracks.get(track).map_or(1, |t| t.rows.max(1)) };
    f64::from(rows) * ROW_PITCH_PX
}

impl Layout {
    pub fn build(tl: &Timeline, collapsed: &[bool], pinned: &[usize], folded: &[bool]) -> Layout {
        let mut layout = Layout { track_pos: vec![None; tl.header.tracks.len()], ..Layout::default() };
        let mut y = 0.0;
        for &track in pinned {
            let h = track_height(tl, track, folded);
            if let Some(p) = layout.track_pos.get_mut(track) {
                *p = Some((true, y));
            }
            layout.pinned.push(LayoutRow { kind: RowKind::Track(track), y, h });
            y += h;
        }
        layout.pinned_height = if pinned.is_empty() { 0.0 } else { y + 4.0 };
        y = 0.0;
        // Groups in header order; absent views of a dataset after that dataset's groups.
        let mut datasets: Vec<u32> = Vec::new();
        for g in &tl.header.groups {
            if !datasets.contains(&g.dataset_id) {
                datasets.push(g.dataset_id);
            }
        }
        for a in &tl.header.absent {
            if !datasets.contains(&a.dataset_id) {
                datasets.push(a.dataset_id);
            }
        }
        for dataset in datasets {
            for view in TimelineView::ALL {
                for (gi, group) in tl.header.groups.iter().enumerate().filter(|(_, g)| g.dataset_id == dataset && g.view == view) {
                    layout.rows.push(LayoutRow { kind: RowKind::Group(gi), y, h: GROUP_HEIGHT_PX });
                    y += GROUP_HEIGHT_PX;
                    if collapsed.get(gi).copied().unwrap_or(false) {
                        continue;
                    }
                    for &track in &group.tracks {
                        let track = track as usize;
                        if pinned.contains(&track) {
                            continue;
                        }
                        let h = track_height(tl, track, folded);
                        if let Some(p) = layout.track_pos.get_mut(track) {
                            *p = Some((false, y));
                        }
                        layout.rows.push(LayoutRow { kind: RowKind::Track(track), y, h });
                        y += h;
                    }
                }
                for (ai, _) in tl.header.absent.iter().enumerate().filter(|(_, a)| a.dataset_id == dataset && a.view == view) {
                    layout.rows.push(LayoutRow { kind: RowKind::Absent(ai), y, h: ABSENT_HEIGHT_PX });
                    y += ABSENT_HEIGHT_PX;
                }
            }
        }
        layout.content_height = y + 8.0;
        layout
    }

    /// Index range of the rows overlapping content `[y0, y1)`.
    pub fn visible(&self, y0: f64, y1: f64) -> std::ops::Range<usize> {
        let lo = self.rows.partition_point(|r| r.y + r.h <= y0);
        let hi = self.rows.partition_point(|r| r.y < y1);
        lo..hi.max(lo)
    }

    /// The row at content `y`.
    pub fn row_at(&self, y: f64) -> Option<LayoutRow> {
        let i = self.rows.partition_point(|r| r.y + r.h <= y);
        self.rows.get(i).copied().filter(|r| r.y <= y)
    }
}
