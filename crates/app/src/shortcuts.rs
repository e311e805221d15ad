//! Keyboard shortcuts, for users who drive the viewer from the keyboard: one table
//! ([`TABLE`]) says which keys do what in which view; the views ask it which action a key
//! press means ([`action`]), and the shortcut sheet (`?`, [`ShortcutSheet`]) lists it — so the
//! sheet can never drift from the bindings. The swimlane's zoom and pan keys can be remapped
//! (⚙ Keys, stored in the settings): the sheet shows the remapped key.
//!
//! Mouse gestures (wheel, drag) are rows of the table too, marked as gestures: the sheet lists
//! them, [`action`] never matches them.

use leptos::prelude::*;
use pypto_protocol::ViewKind;

use crate::i18n::{t, tr};
use crate::nav::{KeyMap, Nav};

/// Where a binding applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every view.
    Global,
    Swimlane,
    Graph,
    PassTrace,
    MemoryMap,
}

impl Scope {
    /// The scope of a view (`None`: the view has no shortcuts of its own).
    pub fn of(view: ViewKind) -> Option<Self> {
        match view {
            ViewKind::ChipSwimlane | ViewKind::TraceSwimlane => Some(Self::Swimlane),
            ViewKind::TaskGraph => Some(Self::Graph),
            ViewKind::PassTrace | ViewKind::ComparePasses => Some(Self::PassTrace),
            ViewKind::MemoryReuse => Some(Self::MemoryMap),
            _ => None,
        }
    }

    fn heading_id(self) -> &'static str {
        match self {
            Self::Global => "keys-scope-global",
            Self::Swimlane => "keys-scope-swimlane",
            Self::Graph => "keys-scope-graph",
            Self::PassTrace => "keys-scope-pass-trace",
            Self::MemoryMap => "keys-scope-memory-map",
        }
    }
}

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    ShowShortcuts,
    ZoomIn,
    ZoomOut,
    PanLeft,
    PanRight,
    Fit,
    ArmAreaSelect,
    Clear,
    NextItem,
    PreviousItem,
    /// The next / previous lane (the bar nearest in time on it).
    NextLane,
    PreviousLane,
    /// The graph's edge modes, by their number.
    EdgeMode,
    /// The graph's arrow keys: along the layers they follow the edges (successor ahead,
    /// predecessor behind), across them they move within the layer — which is which depends
    /// on the layout's direction (top to bottom, left to right).
    MoveDown,
    MoveUp,
    MoveLeft,
    MoveRight,
    /// A mouse gesture: listed, never matched.
    Gesture,
}

/// A remappable binding: which of the swimlane's [`KeyMap`] keys it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Remap {
    ZoomIn,
    ZoomOut,
    PanLeft,
    PanRight,
}

impl Remap {
    fn key(self, map: &KeyMap) -> &str {
        match self {
            Self::ZoomIn => &map.zoom_in,
            Self::ZoomOut => &map.zoom_out,
            Self::PanLeft => &map.pan_left,
            Self::PanRight => &map.pan_right,
        }
    }
}

/// One row of the table.
pub struct Binding {
    pub scope: Scope,
    pub action: Action,
    /// The keys (`KeyboardEvent.key` values, compared case-insensitively), or the gesture's
    /// name. A remappable binding's first key is its default, replaced by the remapped one.
    pub keys: &'static [&'static str],
    pub remap: Option<Remap>,
    /// The sheet's description (a message id).
    pub description_id: &'static str,
}

const fn key(scope: Scope, action: Action, keys: &'static [&'static str], description_id: &'static str) -> Binding {
    Binding { scope, action, keys, remap: None, description_id }
}

const fn remap(scope: Scope, action: Action, keys: &'static [&'static str], remap: Remap, description_id: &'static str) -> Binding {
    Binding { scope, action, keys, remap: Some(remap), description_id }
}

/// Every shortcut of the page.
pub const TABLE: &[Binding] = &[
    key(Scope::Global, Action::ShowShortcuts, &["?"], "keys-show-shortcuts"),
    remap(Scope::Swimlane, Action::ZoomIn, &["w"], Remap::ZoomIn, "keys-zoom-in"),
    remap(Scope::Swimlane, Action::ZoomOut, &["s"], Remap::ZoomOut, "keys-zoom-out"),
    remap(Scope::Swimlane, Action::PanLeft, &["a", "ArrowLeft"], Remap::PanLeft, "keys-pan-left"),
    remap(Scope::Swimlane, Action::PanRight, &["d", "ArrowRight"], Remap::PanRight, "keys-pan-right"),
    key(Scope::Swimlane, Action::Fit, &["f", "0"], "keys-fit"),
    key(Scope::Swimlane, Action::ArmAreaSelect, &["r"], "keys-area-select"),
    key(Scope::Swimlane, Action::Clear, &["Escape"], "keys-clear-swimlane"),
    key(Scope::Swimlane, Action::NextItem, &["]", "n"], "keys-next-bar"),
    key(Scope::Swimlane, Action::PreviousItem, &["[", "p"], "keys-previous-bar"),
    key(Scope::Swimlane, Action::NextLane, &["ArrowDown"], "keys-next-lane"),
    key(Scope::Swimlane, Action::PreviousLane, &["ArrowUp"], "keys-previous-lane"),
    key(Scope::Swimlane, Action::Gesture, &["Ctrl+Wheel"], "keys-wheel-zoom"),
    key(Scope::Swimlane, Action::Gesture, &["Shift+Drag"], "keys-drag-area"),
    key(Scope::Swimlane, Action::Gesture, &["Alt+Click"], "keys-measure"),
    key(Scope::Graph, Action::Fit, &["f"], "keys-fit-graph"),
    key(Scope::Graph, Action::EdgeMode, &["1", "2", "3", "4", "5"], "keys-edge-mode"),
    key(Scope::Graph, Action::Clear, &["Escape"], "keys-clear-graph"),
    key(Scope::Graph, Action::NextItem, &["]", "n"], "keys-graph-next"),
    key(Scope::Graph, Action::PreviousItem, &["[", "p"], "keys-graph-previous"),
    key(Scope::Graph, Action::MoveDown, &["ArrowDown"], "keys-graph-down"),
    key(Scope::Graph, Action::MoveUp, &["ArrowUp"], "keys-graph-up"),
    key(Scope::Graph, Action::MoveRight, &["ArrowRight"], "keys-graph-right"),
    key(Scope::Graph, Action::MoveLeft, &["ArrowLeft"], "keys-graph-left"),
    key(Scope::Graph, Action::Gesture, &["Wheel"], "keys-wheel-zoom-graph"),
    key(Scope::PassTrace, Action::NextItem, &["j", "ArrowDown"], "keys-next-pass"),
    key(Scope::PassTrace, Action::PreviousItem, &["k", "ArrowUp"], "keys-previous-pass"),
    key(Scope::MemoryMap, Action::Fit, &["f"], "keys-fit-map"),
    key(Scope::MemoryMap, Action::ZoomIn, &["+", "="], "keys-zoom-in"),
    key(Scope::MemoryMap, Action::ZoomOut, &["-"], "keys-zoom-out"),
    key(Scope::MemoryMap, Action::Clear, &["Escape"], "keys-clear-map"),
];

/// The keys a binding answers to, with the remapped key in place of its default.
pub fn keys_of(binding: &Binding, map: &KeyMap) -> Vec<String> {
    let mut keys: Vec<String> = binding.keys.iter().map(|k| (*k).to_owned()).collect();
    if let Some(r) = binding.remap {
        let bound = r.key(map).trim();
        if !bound.is_empty() {
            bound.clone_into(&mut keys[0]);
        }
    }
    keys
}

/// The action a key press (`KeyboardEvent.key` and `.code`) means in `scope`.
pub fn action(scope: Scope, key: &str, code: &str, map: &KeyMap) -> Option<Action> {
    TABLE.iter().filter(|b| b.scope == scope && b.action != Action::Gesture).find_map(|b| {
        keys_of(b, map)
            .iter()
            .any(|k| {
                k.eq_ignore_ascii_case(key)
                    || (k.len() == 1 && (code.eq_ignore_ascii_case(&format!("Key{k}")) || code.eq_ignore_ascii_case(&format!("Digit{k}"))))
            })
            .then_some(b.action)
    })
}

/// The bindings the sheet shows for `scope` (its own, then the global ones).
pub fn bindings(scope: Option<Scope>) -> impl Iterator<Item = &'static Binding> {
    TABLE.iter().filter(move |b| Some(b.scope) == scope).chain(TABLE.iter().filter(|b| b.scope == Scope::Global))
}

/// Whether a key event comes from a text field (where keys are typing, not shortcuts).
pub fn typing(ev: &web_sys::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return false };
    matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA") || el.has_attribute("contenteditable")
}

/// The `?` sheet: every shortcut of the shown view (`view`) and the global ones.
#[component]
pub fn ShortcutSheet(#[prop(into)] view: Signal<Option<ViewKind>>) -> impl IntoView {
    let nav = Nav::get();
    let open = RwSignal::new(false);
    let listener = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || typing(&ev) {
            return;
        }
        if ev.key() == "?" {
            ev.prevent_default();
            open.update(|o| *o = !*o);
        } else if ev.key() == "Escape" && open.get_untracked() {
            ev.stop_immediate_propagation();
            open.set(false);
        }
    });
    on_cleanup(move || listener.remove());
    let scope = move || view.get().and_then(Scope::of);
    let rows = move || {
        let map = nav.swimlane.with(|s| s.keys.clone());
        let scope = scope();
        let mut last = None;
        bindings(scope)
            .map(|b| {
                let heading = (last != Some(b.scope)).then(|| view! { <tr class="shortcut-scope"><th colspan="2">{tr(b.scope.heading_id())}</th></tr> });
                last = Some(b.scope);
                let keys = keys_of(b, &map);
                let remapped = b.remap.is_some_and(|r| !r.key(&map).trim().eq_ignore_ascii_case(b.keys[0]));
                let shown: Vec<_> = keys.iter().map(|k| view! { <kbd>{k.clone()}</kbd> }).collect();
                view! {
                    {heading}
                    <tr class="shortcut-row" data-testid="shortcut-row" data-action=format!("{:?}", b.action) data-keys=keys.join(" ")
                        data-remapped=remapped.to_string()>
                        <td class="shortcut-keys">{shown}{remapped.then(|| view! { <span class="shortcut-remapped">{t("keys-remapped")}</span> })}</td>
                        <td>{tr(b.description_id)}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <Show when=move || open.get()>
            <div class="shortcut-backdrop" on:click=move |_| open.set(false)>
                <div class="shortcut-sheet" data-testid="shortcut-sheet" role="dialog" aria-modal="true" aria-labelledby="shortcut-title"
                    on:click=|ev| ev.stop_propagation()>
                    <header>
                        <h2 id="shortcut-title">{t("keys-title")}</h2>
                        <button class="shortcut-close" data-testid="shortcut-close" aria-label=t("keys-close") title=t("keys-close")
                            on:click=move |_| open.set(false)>"✕"</button>
                    </header>
                    <table class="shortcut-table">{rows}</table>
                    <p class="hint">{t("keys-remap-hint")}</p>
                </div>
            </div>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_resolve_to_their_action_per_scope_and_follow_a_remap() {
        let mut map = KeyMap::default();
        assert_eq!(action(Scope::Swimlane, "w", "KeyW", &map), Some(Action::ZoomIn));
        assert_eq!(action(Scope::Swimlane, "W", "KeyW", &map), Some(Action::ZoomIn));
        assert_eq!(action(Scope::Swimlane, "ArrowLeft", "ArrowLeft", &map), Some(Action::PanLeft));
        assert_eq!(action(Scope::Swimlane, "0", "Digit0", &map), Some(Action::Fit));
        assert_eq!(action(Scope::Graph, "w", "KeyW", &map), None);
        assert_eq!(action(Scope::PassTrace, "j", "KeyJ", &map), Some(Action::NextItem));
        assert_eq!(action(Scope::Graph, "]", "BracketRight", &map), Some(Action::NextItem));
        assert_eq!(action(Scope::Graph, "p", "KeyP", &map), Some(Action::PreviousItem));
        assert_eq!(action(Scope::Graph, "ArrowDown", "ArrowDown", &map), Some(Action::MoveDown));
        assert_eq!(action(Scope::Graph, "ArrowLeft", "ArrowLeft", &map), Some(Action::MoveLeft));
        map.zoom_in = "i".into();
        assert_eq!(action(Scope::Swimlane, "w", "KeyW", &map), None);
        assert_eq!(action(Scope::Swimlane, "i", "KeyI", &map), Some(Action::ZoomIn));
        // A non-Latin layout: the key is another character, the physical key is still `KeyI`.
        assert_eq!(action(Scope::Swimlane, "ш", "KeyI", &map), Some(Action::ZoomIn));
        let zoom = TABLE.iter().find(|b| b.remap == Some(Remap::ZoomIn)).map(|b| keys_of(b, &map));
        assert_eq!(zoom, Some(vec!["i".to_owned()]));
    }

    #[test]
    fn gestures_are_listed_never_matched_and_every_view_scope_lists_the_global_keys() {
        let map = KeyMap::default();
        assert_eq!(action(Scope::Swimlane, "Ctrl+Wheel", "", &map), None);
        for scope in [None, Some(Scope::Swimlane), Some(Scope::Graph), Some(Scope::PassTrace), Some(Scope::MemoryMap)] {
            assert!(bindings(scope).any(|b| b.action == Action::ShowShortcuts), "{scope:?}");
        }
        // No key means two things in one scope.
        for a in TABLE.iter().filter(|b| b.action != Action::Gesture) {
            for b in TABLE.iter().filter(|b| b.action != Action::Gesture && b.scope == a.scope && !std::ptr::eq(*b, a)) {
                for k in a.keys {
                    assert!(!b.keys.iter().any(|x| x.eq_ignore_ascii_case(k)), "{k} in {:?} twice", a.scope);
                }
            }
        }
    }
}
