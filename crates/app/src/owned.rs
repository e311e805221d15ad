//! [`Owned`]: plain Rust state a component owns — a canvas view's renderer, what it drew, its
//! pending animation frame — behind a `Copy` handle its event handlers, effects and animation
//! frames capture. Disposed with the component (the handle then finds nothing). A call made
//! while the state is already borrowed (an event handler calling back into the view) finds
//! nothing instead of panicking: the outer call is the one that redraws.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;

/// A component-owned `T` (see the module doc).
pub struct Owned<T: 'static> {
    cell: StoredValue<Rc<RefCell<T>>, LocalStorage>,
}

impl<T: 'static> Clone for Owned<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: 'static> Copy for Owned<T> {}

impl<T: 'static> Owned<T> {
    /// Owned by the current reactive owner (the calling component).
    pub fn new(value: T) -> Self {
        Self { cell: StoredValue::new_local(Rc::new(RefCell::new(value))) }
    }

    fn rc(self) -> Option<Rc<RefCell<T>>> {
        self.cell.try_with_value(Rc::clone)
    }

    /// Runs `f` on the state; `None` when it is disposed or already borrowed.
    pub fn with<R>(self, f: impl FnOnce(&mut T) -> R) -> Option<R> {
        let rc = self.rc()?;
        let mut guard = rc.try_borrow_mut().ok()?;
        Some(f(&mut guard))
    }

    /// Runs `f` on the state for reading; `None` when it is disposed or mutably borrowed.
    pub fn read<R>(self, f: impl FnOnce(&T) -> R) -> Option<R> {
        let rc = self.rc()?;
        let guard = rc.try_borrow().ok()?;
        Some(f(&guard))
    }
}

impl<T: 'static> Owned<Option<T>> {
    /// Runs `f` on the value when there is one (see [`Owned::with`]).
    pub fn with_some<R>(self, f: impl FnOnce(&mut T) -> R) -> Option<R> {
        self.with(|v| v.as_mut().map(f)).flatten()
    }

    /// Whether there is a value (false while borrowed).
    pub fn is_some(self) -> bool {
        self.read(Option::is_some).unwrap_or(false)
    }
}

/// At most one pending animation frame: [`FrameRequest::request`] asks for one unless one is
/// pending, and calls `draw` in it.
#[derive(Clone, Copy)]
pub struct FrameRequest {
    frame: Owned<(Option<gloo::render::AnimationFrame>, bool)>,
}

impl FrameRequest {
    pub fn new() -> Self {
        Self { frame: Owned::new((None, false)) }
    }

    /// Calls `draw` at the next animation frame, once however often this is called before it.
    pub fn request(self, draw: impl FnOnce(f64) + 'static) {
        let pending = self.frame.with(|f| std::mem::replace(&mut f.1, true)).unwrap_or(true);
        if pending {
            return;
        }
        let frame = gloo::render::request_animation_frame(move |time| {
            self.frame.with(|f| f.1 = false);
            draw(time);
        });
        // The previous (fired) frame is dropped here, never inside its own callback.
        self.frame.with(|f| f.0 = Some(frame));
    }
}

impl Default for FrameRequest {
    fn default() -> Self {
        Self::new()
    }
}

/// At most one pending delayed call: [`Delay::schedule`] calls `f` after `ms` unless a call
/// is already pending (then that one runs, and `f` is dropped).
#[derive(Clone, Copy)]
pub struct Delay {
    ms: u32,
    timeout: Owned<(Option<gloo::timers::callback::Timeout>, bool)>,
}

impl Delay {
    pub fn new(ms: u32) -> Self {
        Self { ms, timeout: Owned::new((None, false)) }
    }

    /// Calls `f` in `ms` milliseconds, unless a call is pending.
    pub fn schedule(self, f: impl FnOnce() + 'static) {
        let pending = self.timeout.with(|t| std::mem::replace(&mut t.1, true)).unwrap_or(true);
        if pending {
            return;
        }
        let timeout = gloo::timers::callback::Timeout::new(self.ms, move || {
            self.timeout.with(|t| t.1 = false);
            f();
        });
        // The previous (fired) timeout is dropped here, never inside its own callback.
        self.timeout.with(|t| t.0 = Some(timeout));
    }
}
