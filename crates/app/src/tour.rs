//! The first-visit tour of the chip swimlane, for users opening the viewer for the first
//! time: one screen naming the controls (search, labels, critical path, dependencies, fit,
//! export, Performance Analysis, the keys), shown over the swimlane the first time it opens,
//! closed with "Got it", ✕ or Esc, and remembered in `localStorage` ([`TOUR_KEY`]) so it never
//! shows again in that browser. An embedded viewer (`?embed=1`) never shows it; a link may
//! ask for it again with `?tour=1`.

use leptos::prelude::*;

use crate::i18n::t;

/// The `localStorage` key remembering that the tour was dismissed.
pub const TOUR_KEY: &str = "pypto-viewer.tour.v1";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Whether the tour is due: never dismissed here, or asked for by `?tour=1`.
fn due() -> bool {
    let asked = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|s| s.trim_start_matches('?').split('&').any(|p| p == "tour=1"));
    asked || storage().is_some_and(|s| s.get_item(TOUR_KEY).ok().flatten().is_none())
}

/// The controls the tour names: (message id of the control, message id of what it does).
const STEPS: &[(&str, &str)] = &[
    ("tour-search", "tour-search-what"),
    ("tour-labels", "tour-labels-what"),
    ("tour-path", "tour-path-what"),
    ("tour-deps", "tour-deps-what"),
    ("tour-fit", "tour-fit-what"),
    ("tour-export", "tour-export-what"),
    ("tour-panel", "tour-panel-what"),
    ("tour-keys", "tour-keys-what"),
    ("tour-click", "tour-click-what"),
    ("tour-sheet", "tour-sheet-what"),
];

/// The tour over the swimlane (`embedded`: never shown).
#[component]
pub fn SwimlaneTour(embedded: bool) -> impl IntoView {
    let open = RwSignal::new(!embedded && due());
    let dismiss = move || {
        open.set(false);
        if let Some(s) = storage() {
            let _ = s.set_item(TOUR_KEY, "dismissed");
        }
    };
    let listener = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.key() == "Escape" && open.get_untracked() {
            dismiss();
        }
    });
    on_cleanup(move || listener.remove());
    view! {
        <Show when=move || open.get()>
            <div class="tour" data-testid="swimlane-tour" role="dialog" aria-labelledby="tour-title">
                <header>
                    <h2 id="tour-title">{t("tour-title")}</h2>
                    <button class="tour-close" aria-label=t("tour-close") title=t("tour-close") on:click=move |_| dismiss()>"✕"</button>
                </header>
                <dl class="tour-steps">
                    {STEPS.iter().map(|(what, does)| view! { <dt>{t(what)}</dt><dd>{t(does)}</dd> }).collect_view()}
                </dl>
                <button class="tour-done" data-testid="tour-done" on:click=move |_| dismiss()>{t("tour-got-it")}</button>
            </div>
        </Show>
    }
}
