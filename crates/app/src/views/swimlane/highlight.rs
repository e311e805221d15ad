//! Task-set highlighting of the chip swimlane (a continuous single-dependency chain,
//! toolkit-features.md I7, asked through `nav`'s highlight): the bars of the given tasks keep
//! their colour, every other bar is de-emphasised like the off-path bars of the critical-path
//! mode. While a highlight is set it takes precedence over the critical-path mode; Esc clears
//! both.
//!
//! In a comparison (two runs on one axis) a selected task and its match in the other run are
//! highlighted the same way ([`crate::nav::Highlight::matched`]).
//!
//! The mask is one flag per bar of the timeline it was built for (matched by `(ring, local)`
//! task id columns), kept in the view's state (the renderer reads it per frame).

use std::collections::HashSet;
use std::rc::Rc;

use super::data::Timeline;
use super::draw::is_dimmed;
use crate::nav::{Highlight, PathMode};

/// A highlight's mask over one timeline's bars.
pub struct Mask {
    timeline_id: u32,
    bright: Rc<Vec<bool>>,
}

/// The mask of `highlight` over timeline `t` and how many bars it keeps bright (0: none of its
/// tasks has a bar in `t`).
pub fn build(t: &Timeline, highlight: &Highlight) -> (Mask, usize) {
    let wanted: HashSet<(u32, u32)> = highlight.tasks.iter().map(|task| task.ring_local()).collect();
    let matched = highlight.matched.map(|(dataset, task)| (dataset, task.ring_local()));
    let mut bright = vec![false; t.start_us.len()];
    let mut count = 0usize;
    for g in &t.header.groups {
        let own = g.dataset_id == highlight.dataset_id;
        let other = matched.filter(|(dataset, _)| *dataset == g.dataset_id).map(|(_, task)| task);
        if !own && other.is_none() {
            continue;
        }
        for &track in &g.tracks {
            for gi in t.track_range(track as usize) {
                let Some(task) = t.task_of(gi) else { continue };
                if (own && wanted.contains(&task)) || other == Some(task) {
                    if let Some(m) = bright.get_mut(gi) {
                        *m = true;
                        count += 1;
                    }
                }
            }
        }
    }
    (Mask { timeline_id: t.header.timeline_id, bright: Rc::new(bright) }, count)
}

impl Mask {
    /// The mask when it is timeline `timeline_id`'s.
    pub fn of(&self, timeline_id: u32) -> Option<Rc<Vec<bool>>> {
        (self.timeline_id == timeline_id).then(|| Rc::clone(&self.bright))
    }
}

/// Whether bar `global` is de-emphasised: by the highlight when one is set, else by the
/// critical-path mode.
pub fn dimmed(path: PathMode, mask: Option<&[bool]>, flags: u32, global: usize) -> bool {
    match mask {
        Some(m) => !m.get(global).copied().unwrap_or(false),
        None => is_dimmed(path, flags),
    }
}
