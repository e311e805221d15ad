//! The canvases' colours in the light and the dark theme: one [`CanvasPalette`] per
//! [`Scheme`], read by every canvas view (swimlane, dependency graph, memory map) at each frame
//! so that a theme switch is one redraw. Function / name colours are in [`crate::palette`].
//!
//! Roles, not views, name the fields where views share them (background, surfaces, rules, text);
//! the few colours only one view draws are grouped under that view's name. Tests check the WCAG
//! contrast of every text colour on the surface it is drawn on (≥ 4.5) in both schemes.

use crate::palette;

/// The effective colour scheme (a "system" choice is resolved before it gets here).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scheme {
    #[default]
    Light,
    Dark,
}

impl Scheme {
    pub fn key(self) -> &'static str {
        match self {
            Self::Light => "light",
            Self::Dark => "dark",
        }
    }

    /// The canvas palette of this scheme.
    pub fn palette(self) -> &'static CanvasPalette {
        match self {
            Self::Light => &LIGHT,
            Self::Dark => &DARK,
        }
    }
}

type Rgba = [u8; 4];

/// Colours of the canvas views in one scheme (RGBA, alpha 255 unless a field says it blends).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CanvasPalette {
    pub scheme: Scheme,
    /// The plot area behind bars, nodes and boxes.
    pub background: Rgba,
    /// Side and top strips drawn over the plot: gutter, margins.
    pub surface: Rgba,
    /// The time axis band.
    pub axis_band: Rgba,
    /// The overview strip and the axis corner.
    pub overview: Rgba,
    /// Separator lines between strips.
    pub rule: Rgba,
    /// Grid lines in a plot.
    pub grid: Rgba,
    /// Main text on the surfaces and the background.
    pub text: Rgba,
    /// Secondary text (ticks' labels of lesser weight, hints, line numbers).
    pub text_muted: Rgba,
    /// Tick marks.
    pub tick: Rgba,
    /// Outline of the selected item (highest contrast on the background).
    pub selection: Rgba,
    /// Blue highlight (selected box, picked line numbers, successors).
    pub accent: Rgba,
    /// Orange highlight (SPMD group members, predecessors, pinned).
    pub warm: Rgba,
    /// Red for errors: violations, conflicts, capacity.
    pub danger: Rgba,
    /// Text on the strong marker / measure colours.
    pub on_strong: Rgba,

    // Swimlane.
    /// Every other lane's tint (blends).
    pub lane_stripe: Rgba,
    /// A group's heading row in GL (blends) and its band in the gutter and its text.
    pub group_band: Rgba,
    pub group_heading: Rgba,
    pub group_text: Rgba,
    /// An absent view's note (italic, on the background).
    pub absent_text: Rgba,
    /// Pinned lanes: row tint, gutter, and the rule under them.
    pub pinned_row: Rgba,
    pub pinned_gutter: Rgba,
    pub pinned_rule: Rgba,
    /// The pin icon of a hovered lane.
    pub pin_hover: Rgba,
    /// Dependency arrows (blends).
    pub arrow: Rgba,
    /// Measure lines; its shade (blends) and its label's box (blends).
    pub measure: Rgba,
    pub measure_fill: Rgba,
    pub measure_label: Rgba,
    /// Area selection fill and edge (blend).
    pub area_fill: Rgba,
    pub area_edge: Rgba,
    /// The overview strip's visible window (blends).
    pub overview_window: Rgba,
    /// A de-emphasised bar is its colour mixed ¾ towards this; its label ink.
    pub dim_toward: Rgba,
    pub dim_text: Rgba,
    /// Lane labels by core type: AIC, AIV, other.
    pub lane_aic: Rgba,
    pub lane_aiv: Rgba,
    pub lane_other: Rgba,

    // Dependency graph.
    /// Node fills by kind (AIC, AIV, AICPU, host, alloc/dummy frame).
    pub node_kinds: [Rgba; 5],
    /// Label ink on a filled node.
    pub node_text: Rgba,
    /// Inside of a hollow (alloc / dummy) node and its label ink.
    pub node_hollow: Rgba,
    pub node_hollow_text: Rgba,
    /// A node not highlighted while others are: its colour mixed ⅔ towards this.
    pub node_dim_toward: Rgba,
    /// Edges, and edges dimmed while a highlight is on (blend).
    pub edge: Rgba,
    pub edge_dim: Rgba,
    /// In / out ports and their degree text.
    pub port: Rgba,
    pub port_text: Rgba,
    /// SPMD badge text ("×4") on a filled node.
    pub badge_text: Rgba,

    // Memory map.
    /// A memory space's band, and its part beyond capacity.
    pub band: Rgba,
    pub band_over: Rgba,
    /// The high-water mark line.
    pub hwm: Rgba,
    /// The picked line's shade (blends).
    pub line_pick: Rgba,
    /// Reserved windows: fill, hatch (blends), edge; their label's box (blends) and text.
    pub reserved_fill: Rgba,
    pub reserved_hatch: Rgba,
    pub reserved_edge: Rgba,
    pub reserved_label: Rgba,
    pub reserved_text: Rgba,
    /// A view box's frame; band headers at ≥ 80 % and ≥ 95 % of capacity.
    pub view_frame: Rgba,
    pub head_warn: Rgba,
    pub head_danger: Rgba,
}

/// The light scheme (the viewer's original colours).
pub const LIGHT: CanvasPalette = CanvasPalette {
    scheme: Scheme::Light,
    background: [251, 251, 252, 255],
    surface: [246, 246, 249, 255],
    axis_band: [236, 237, 242, 255],
    overview: [222, 225, 235, 255],
    rule: [190, 190, 200, 255],
    grid: [214, 219, 228, 255],
    text: [40, 40, 50, 255],
    text_muted: [90, 96, 108, 255],
    tick: [90, 90, 100, 255],
    selection: [20, 20, 20, 255],
    accent: [20, 90, 230, 255],
    warm: [230, 120, 0, 255],
    danger: [210, 30, 35, 255],
    on_strong: [255, 255, 255, 255],
    lane_stripe: [0, 0, 40, 9],
    group_band: [40, 50, 90, 22],
    group_heading: [228, 231, 242, 235],
    group_text: [30, 40, 80, 255],
    absent_text: [110, 100, 90, 255],
    pinned_row: [255, 251, 235, 255],
    pinned_gutter: [255, 246, 214, 255],
    pinned_rule: [200, 160, 60, 255],
    pin_hover: [150, 150, 160, 255],
    arrow: [40, 60, 140, 220],
    measure: [200, 0, 120, 255],
    measure_fill: [200, 0, 120, 18],
    measure_label: [200, 0, 120, 235],
    area_fill: [30, 110, 220, 40],
    area_edge: [30, 110, 220, 200],
    overview_window: [90, 120, 220, 150],
    dim_toward: [225, 225, 225, 255],
    dim_text: [75, 75, 75, 255],
    lane_aic: [30, 70, 160, 255],
    lane_aiv: [20, 120, 80, 255],
    lane_other: [70, 60, 90, 255],
    node_kinds: [[46, 110, 220, 255], [30, 130, 65, 255], [142, 68, 173, 255], [180, 95, 10, 255], [150, 154, 162, 255]],
    node_text: [255, 255, 255, 255],
    node_hollow: [250, 248, 240, 255],
    node_hollow_text: [40, 40, 40, 255],
    node_dim_toward: [240, 240, 240, 255],
    edge: [120, 128, 140, 200],
    edge_dim: [205, 210, 218, 160],
    port: [55, 65, 81, 255],
    port_text: [255, 255, 255, 255],
    badge_text: [255, 235, 235, 255],
    band: [234, 238, 245, 255],
    band_over: [252, 225, 225, 255],
    hwm: [60, 64, 72, 255],
    line_pick: [20, 90, 230, 60],
    reserved_fill: [205, 208, 214, 255],
    reserved_hatch: [120, 124, 132, 200],
    reserved_edge: [96, 100, 108, 255],
    reserved_label: [235, 236, 240, 230],
    reserved_text: [50, 54, 62, 255],
    view_frame: [40, 40, 40, 255],
    head_warn: [160, 90, 0, 255],
    head_danger: [190, 20, 30, 255],
};

/// The dark scheme: surfaces match the page's dark chrome (`www/style.css`).
pub const DARK: CanvasPalette = CanvasPalette {
    scheme: Scheme::Dark,
    background: [22, 24, 29, 255],
    surface: [31, 34, 41, 255],
    axis_band: [38, 42, 51, 255],
    overview: [46, 51, 62, 255],
    rule: [72, 78, 92, 255],
    grid: [48, 53, 64, 255],
    text: [227, 230, 238, 255],
    text_muted: [160, 167, 184, 255],
    tick: [150, 156, 172, 255],
    selection: [250, 250, 250, 255],
    accent: [110, 160, 255, 255],
    warm: [255, 166, 60, 255],
    danger: [255, 95, 95, 255],
    on_strong: [255, 255, 255, 255],
    lane_stripe: [255, 255, 255, 7],
    group_band: [120, 140, 220, 30],
    group_heading: [44, 52, 80, 240],
    group_text: [200, 212, 250, 255],
    absent_text: [190, 180, 165, 255],
    pinned_row: [44, 38, 22, 255],
    pinned_gutter: [58, 48, 22, 255],
    pinned_rule: [200, 160, 60, 255],
    pin_hover: [130, 134, 146, 255],
    arrow: [150, 175, 255, 220],
    measure: [255, 90, 190, 255],
    measure_fill: [255, 90, 190, 22],
    measure_label: [190, 0, 115, 240],
    area_fill: [80, 150, 255, 45],
    area_edge: [110, 170, 255, 220],
    overview_window: [110, 140, 240, 130],
    dim_toward: [42, 45, 52, 255],
    dim_text: [185, 185, 190, 255],
    lane_aic: [140, 175, 255, 255],
    lane_aiv: [110, 210, 155, 255],
    lane_other: [195, 185, 220, 255],
    node_kinds: [[40, 100, 200, 255], [28, 115, 58, 255], [125, 60, 160, 255], [160, 85, 10, 255], [120, 126, 138, 255]],
    node_text: [255, 255, 255, 255],
    node_hollow: [36, 39, 47, 255],
    node_hollow_text: [225, 228, 236, 255],
    node_dim_toward: [40, 42, 48, 255],
    edge: [140, 148, 165, 200],
    edge_dim: [70, 75, 88, 160],
    port: [200, 205, 215, 255],
    port_text: [20, 22, 28, 255],
    badge_text: [255, 235, 235, 255],
    band: [34, 39, 50, 255],
    band_over: [70, 30, 34, 255],
    hwm: [200, 205, 215, 255],
    line_pick: [110, 160, 255, 70],
    reserved_fill: [62, 66, 76, 255],
    reserved_hatch: [140, 145, 158, 200],
    reserved_edge: [150, 155, 168, 255],
    reserved_label: [40, 43, 52, 235],
    reserved_text: [215, 219, 228, 255],
    view_frame: [225, 228, 236, 255],
    head_warn: [240, 170, 70, 255],
    head_danger: [255, 120, 120, 255],
};

/// A bar's colour mixed ¾ towards the palette's dim colour (a de-emphasised bar).
pub fn dim(p: &CanvasPalette, c: Rgba) -> Rgba {
    let m = |v: u8, t: u8| ((u16::from(v) + 3 * u16::from(t)) / 4) as u8;
    [m(c[0], p.dim_toward[0]), m(c[1], p.dim_toward[1]), m(c[2], p.dim_toward[2]), 255]
}

/// A colour halfway to the background (setup regions: lighter in light, darker in dark).
pub fn toward_background(p: &CanvasPalette, c: Rgba) -> Rgba {
    let m = |v: u8, t: u8| u16::midpoint(u16::from(v), u16::from(t)) as u8;
    [m(c[0], p.background[0]), m(c[1], p.background[1]), m(c[2], p.background[2]), 255]
}

/// A node colour mixed ⅔ towards the palette's node dim colour.
pub fn dim_node(p: &CanvasPalette, c: Rgba) -> Rgba {
    let m = |v: u8, t: u8| ((u16::from(v) + 2 * u16::from(t)) / 3) as u8;
    [m(c[0], p.node_dim_toward[0]), m(c[1], p.node_dim_toward[1]), m(c[2], p.node_dim_toward[2]), 255]
}

/// The background as a GL clear colour (0..1).
pub fn clear_color(p: &CanvasPalette) -> [f32; 4] {
    let f = |v: u8| f32::from(v) / 255.0;
    [f(p.background[0]), f(p.background[1]), f(p.background[2]), 1.0]
}

/// Every (name, text, background) pair a canvas draws, blended backgrounds composited over
/// what is under them, for the contrast tests (and anyone auditing a palette).
pub fn text_pairs(p: &CanvasPalette) -> Vec<(&'static str, Rgba, Rgba)> {
    let bg = p.background;
    let group = palette::over(p.group_heading, bg);
    let mut pairs = vec![
        ("axis text on the axis band", p.text, p.axis_band),
        ("axis text on the overview", p.text, p.overview),
        ("text on the surface", p.text, p.surface),
        ("text on the background", p.text, bg),
        ("muted text on the surface", p.text_muted, p.surface),
        ("muted text on the background", p.text_muted, bg),
        ("group text on its heading", p.group_text, group),
        ("absent note on the background", p.absent_text, bg),
        ("AIC lane label", p.lane_aic, p.surface),
        ("AIV lane label", p.lane_aiv, p.surface),
        ("other lane label", p.lane_other, p.surface),
        ("AIC lane label, pinned", p.lane_aic, p.pinned_gutter),
        ("AIV lane label, pinned", p.lane_aiv, p.pinned_gutter),
        ("other lane label, pinned", p.lane_other, p.pinned_gutter),
        ("measure label", p.on_strong, palette::over(p.measure_label, bg)),
        ("hollow node label", p.node_hollow_text, p.node_hollow),
        ("port degree", p.port_text, p.port),
        ("reserved label", p.reserved_text, palette::over(p.reserved_label, p.reserved_fill)),
        ("band header", p.text, p.surface),
        ("band header ≥ 80 %", p.head_warn, p.surface),
        ("band header ≥ 95 %", p.head_danger, p.surface),
        ("picked line number", p.accent, p.surface),
    ];
    for (k, fill) in p.node_kinds.iter().enumerate().take(4) {
        pairs.push((["AIC node", "AIV node", "AICPU node", "host node"][k], p.node_text, *fill));
    }
    // Dimmed bars: every function colour dimmed, with the dimmed label ink.
    for key in 0..palette::DISTINCT_COLORS {
        pairs.push(("dimmed bar label", p.dim_text, dim(p, palette::color_for_key(p.scheme, key))));
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::palette::{contrast_ratio, delta_e_2000};

    #[test]
    fn text_contrast_is_at_least_4_5_in_both_schemes() {
        let mut low = Vec::new();
        for p in [&LIGHT, &DARK] {
            for (name, fg, bg) in text_pairs(p) {
                let r = contrast_ratio(fg, bg);
                if r < 4.5 {
                    low.push(format!("{:?}: {name}: {fg:?} on {bg:?} has contrast {r:.2}", p.scheme));
                }
            }
        }
        assert!(low.is_empty(), "{low:#?}");
    }

    #[test]
    fn schemes_are_what_they_say() {
        use crate::palette::relative_luminance;
        assert!(relative_luminance(LIGHT.background) > 0.9);
        assert!(relative_luminance(DARK.background) < 0.05);
        assert_eq!(Scheme::Dark.palette().scheme, Scheme::Dark);
        assert_eq!(Scheme::Light.palette().scheme, Scheme::Light);
        // the selection outline stands out from the background
        for p in [&LIGHT, &DARK] {
            assert!(contrast_ratio(p.selection, p.background) >= 7.0, "{:?}", p.scheme);
        }
    }

    /// Node kinds (the graph's colours) tell apart in both schemes.
    #[test]
    fn node_kinds_are_distinguishable() {
        for p in [&LIGHT, &DARK] {
            for i in 0..5 {
                for j in i + 1..5 {
                    let d = delta_e_2000(p.node_kinds[i], p.node_kinds[j]);
                    assert!(d >= 15.0, "{:?}: kinds {i} and {j}: ΔE {d:.1}", p.scheme);
                }
            }
        }
    }

    #[test]
    fn dimming_moves_towards_the_target() {
        assert_eq!(dim(&LIGHT, [225, 225, 225, 255]), [225, 225, 225, 255]);
        assert_eq!(toward_background(&DARK, DARK.background), DARK.background);
        assert!((clear_color(&LIGHT)[0] - 251.0 / 255.0).abs() < 1e-6);
    }
}
