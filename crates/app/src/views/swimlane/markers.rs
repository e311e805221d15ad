//! Time markers of the swimlane (added by clicking the time axis or from a bar's context menu;
//! label and colour editable, deletable; each shows its timestamp): kept in `nav` (the markers
//! are part of what the user looks at), coloured here.

use leptos::prelude::*;

use crate::nav::{Marker, Nav, MARKER_COLOR_COUNT};

/// Colours a marker can take.
pub const MARKER_COLORS: [(&str, [u8; 4]); MARKER_COLOR_COUNT] = [
    ("red", [214, 40, 40, 255]),
    ("blue", [30, 90, 200, 255]),
    ("green", [30, 140, 60, 255]),
    ("orange", [230, 120, 0, 255]),
    ("purple", [130, 50, 170, 255]),
];

/// A marker's colour.
pub fn rgba(m: &Marker) -> [u8; 4] {
    MARKER_COLORS.get(m.color).map_or([214, 40, 40, 255], |c| c.1)
}

/// Adds a marker at `t_us`; an empty label becomes `M<n>`.
pub fn add(nav: Nav, t_us: f64, label: &str) {
    nav.add_marker(t_us, label);
}

pub fn remove(nav: Nav, id: u32) {
    nav.markers.update(|m| m.retain(|m| m.id != id));
}

pub fn edit(nav: Nav, id: u32, label: Option<String>, color: Option<usize>) {
    nav.markers.update(|markers| {
        if let Some(m) = markers.iter_mut().find(|m| m.id == id) {
            if let Some(l) = label {
                m.label = l;
            }
            if let Some(c) = color {
                m.color = c;
            }
        }
    });
}
