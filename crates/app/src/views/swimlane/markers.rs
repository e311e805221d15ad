//! Time markers (added by clicking the time axis or from a bar's context menu; label and
//! colour editable, deletable) — each shows its timestamp.

use crate::state::AppState;
use leptos::prelude::*;

/// Colours a marker can take.
pub const MARKER_COLORS: [(&str, [u8; 4]); 5] = [
    ("red", [214, 40, 40, 255]),
    ("blue", [30, 90, 200, 255]),
    ("green", [30, 140, 60, 255]),
    ("orange", [230, 120, 0, 255]),
    ("purple", [130, 50, 170, 255]),
];

/// A vertical marker line.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub id: u32,
    pub t_us: f64,
    pub label: String,
    /// Index into [`MARKER_COLORS`].
    pub color: usize,
}

impl Marker {
    pub fn rgba(&self) -> [u8; 4] {
        MARKER_COLORS.get(self.color).map_or([214, 40, 40, 255], |c| c.1)
    }
}

/// Adds a marker at `t_us`; an empty label becomes `M<n>`.
pub fn add(state: &AppState, t_us: f64, label: &str) {
    state.swim.markers.update(|markers| {
        let id = markers.iter().map(|m| m.id).max().map_or(1, |m| m + 1);
        let label = if label.is_empty() { format!("M{id}") } else { label.to_string() };
        markers.push(Marker { id, t_us, label, color: (id as usize - 1) % MARKER_COLORS.len() });
    });
    super::redraw();
}

pub fn remove(state: &AppState, id: u32) {
    state.swim.markers.update(|m| m.retain(|m| m.id != id));
    super::redraw();
}

pub fn edit(state: &AppState, id: u32, label: Option<String>, color: Option<usize>) {
    state.swim.markers.update(|markers| {
        if let Some(m) = markers.iter_mut().find(|m| m.id == id) {
            if let Some(l) = label {
                m.label = l;
            }
            if let Some(c) = color {
                m.color = c;
            }
        }
    });
    super::redraw();
}
