//! Task-set highlighting of the chip swimlane, for the Performance Analysis panel's path
//! tabs (a continuous single-dependency chain, toolkit-features.md I7): the bars of the given
//! tasks keep their colour, every other bar is de-emphasised like the off-path bars of the
//! critical-path mode. While a highlight is set it takes precedence over the critical-path
//! mode; Esc (in the swimlane or the panel) clears both.
//!
//! The mask is one flag per bar of the timeline it was built for (matched by `(ring, local)`
//! task id columns), kept outside the reactive state (the renderer reads it per frame).

use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;

use pypto_protocol::TimelineView;

use super::draw::is_dimmed;
use super::{PathMode, DATA};

struct Highlight {
    timeline_id: u32,
    mask: Rc<Vec<bool>>,
}

thread_local! {
    static HIGHLIGHT: RefCell<Option<Highlight>> = const { RefCell::new(None) };
}

/// `(ring, local)` of a raw task id, as the timeline's task columns hold it.
pub fn ring_local(task_id: u64) -> (u32, u32) {
    (((task_id >> 32) & 0xFF) as u32, (task_id & 0xFFFF_FFFF) as u32)
}

/// Highlights the bars of `tasks` in the views of dataset `dataset_id` of the shown timeline
/// (all views when `view` is `None`). Returns the number of bars kept bright (0: nothing was
/// set — no timeline, or none of the tasks has a bar).
pub fn set(tasks: &[u64], dataset_id: u32, view: Option<TimelineView>) -> usize {
    let wanted: HashSet<(u32, u32)> = tasks.iter().map(|&t| ring_local(t)).collect();
    let built = DATA.with_borrow(|d| {
        let t = d.as_ref()?;
        let mut mask = vec![false; t.start_us.len()];
        let mut bright = 0usize;
        for g in t.header.groups.iter().filter(|g| g.dataset_id == dataset_id && view.is_none_or(|v| g.view == v)) {
            for &track in &g.tracks {
                for gi in t.track_range(track as usize) {
                    let Some(task) = t.task_of(gi) else { continue };
                    if wanted.contains(&task) {
                        if let Some(m) = mask.get_mut(gi) {
                            *m = true;
                            bright += 1;
                        }
                    }
                }
            }
        }
        Some((t.header.timeline_id, mask, bright))
    });
    match built {
        Some((timeline_id, mask, bright)) if bright > 0 => {
            HIGHLIGHT.with_borrow_mut(|h| *h = Some(Highlight { timeline_id, mask: Rc::new(mask) }));
            super::redraw();
            bright
        }
        _ => 0,
    }
}

/// Removes the highlight.
pub fn clear() {
    let had = HIGHLIGHT.with_borrow_mut(|h| h.take().is_some());
    if had {
        super::redraw();
    }
}

/// The mask of the shown timeline, if a highlight was set for it.
pub fn mask() -> Option<Rc<Vec<bool>>> {
    let shown = DATA.with_borrow(|d| d.as_ref().map(|t| t.header.timeline_id))?;
    HIGHLIGHT.with_borrow(|h| h.as_ref().filter(|h| h.timeline_id == shown).map(|h| Rc::clone(&h.mask)))
}

/// Whether bar `global` is de-emphasised: by the highlight when one is set, else by the
/// critical-path mode.
pub fn dimmed(path: PathMode, mask: Option<&[bool]>, flags: u32, global: usize) -> bool {
    match mask {
        Some(m) => !m.get(global).copied().unwrap_or(false),
        None => is_dimmed(path, flags),
    }
}
