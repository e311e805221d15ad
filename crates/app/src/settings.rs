//! The user's own settings — what outlives a folder and a reload, unlike `nav` (what is looked
//! at): the theme and the language of the page, the swimlane's key bindings and label mode, the
//! Performance Analysis panel's width and the last opened folder's name (the landing page says
//! it; a browser reopens a folder only when the user picks it again). `Settings` is provided by
//! `App`; the page's `<html>` carries the theme and language as `data-theme` and `lang`, so style
//! sheets and scripts follow. The theme is a choice — light, dark or system (the default: the
//! browser's `prefers-color-scheme`, followed live) — and `data-theme` always carries the
//! effective scheme (`light` or `dark`); the canvas views read it through [`canvas_palette`] at
//! each frame and redraw when [`Settings::scheme`] changes.
//!
//! They are kept in `localStorage` under one versioned key, [`STORAGE_KEY`], as JSON
//! (`{"theme":"dark","language":"zh-CN","label_mode":"id","keys":{"zoom_in":"w",…},
//! "panel_width_px":520,"last_folder":"run1"}`), written a moment after a change. What cannot be
//! read — not JSON, a field of the wrong type or an unknown value — is left at its default with a
//! console warning, never an error. "Reset settings" ([`Settings::reset`]) puts every one back.
//!
//! A link and a stored setting: the link wins for what it carries — the view and everything
//! shown (window, selection, sorts…), and the label mode when it names one, which is then shown
//! but not remembered (only choosing a label mode in the toolbar remembers it). The stored
//! settings are the personal ones no link carries (keys, theme, language, panel width) and the
//! label mode of a link that does not name one.

use leptos::prelude::*;

use crate::nav::{KeyMap, LabelMode, Nav, SwimlaneSettings};
use crate::owned::Delay;

use pypto_render::theme::{CanvasPalette, Scheme};

/// The page's colour theme as chosen: light, dark, or the system's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
    #[default]
    System,
}

impl Theme {
    pub const ALL: [Self; 3] = [Self::System, Self::Light, Self::Dark];

    pub fn key(self) -> &'static str {
        match self {
            Self::Light => "light",
            Self::Dark => "dark",
            Self::System => "system",
        }
    }

    pub fn parse(key: &str) -> Option<Self> {
        match key {
            "light" => Some(Self::Light),
            "dark" => Some(Self::Dark),
            "system" => Some(Self::System),
            _ => None,
        }
    }

    /// The scheme shown when the system prefers dark (`system_dark`) or not.
    pub fn resolve(self, system_dark: bool) -> Scheme {
        match self {
            Self::Dark => Scheme::Dark,
            Self::System if system_dark => Scheme::Dark,
            Self::Light | Self::System => Scheme::Light,
        }
    }
}

thread_local! {
    /// The effective scheme, for drawing code outside the reactive graph.
    static SCHEME: std::cell::Cell<Scheme> = const { std::cell::Cell::new(Scheme::Light) };
}

/// The canvas palette of the effective scheme (read at each frame by the canvas views).
pub fn canvas_palette() -> &'static CanvasPalette {
    SCHEME.with(std::cell::Cell::get).palette()
}

/// The media query of a dark system preference.
const DARK_QUERY: &str = "(prefers-color-scheme: dark)";

/// Whether the system prefers dark now; `on_change` is called with each later change (for the
/// page's lifetime).
fn watch_system_dark(on_change: impl Fn(bool) + 'static) -> bool {
    use wasm_bindgen::JsCast;
    let Some(query) = web_sys::window().and_then(|w| w.match_media(DARK_QUERY).ok().flatten()) else { return false };
    let closure = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::MediaQueryListEvent)>::new(move |e: web_sys::MediaQueryListEvent| {
        on_change(e.matches());
    });
    let _ = query.add_event_listener_with_callback("change", closure.as_ref().unchecked_ref());
    // The listener lives as long as the page.
    closure.forget();
    query.matches()
}

/// The page's language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Language {
    #[default]
    English,
    Chinese,
}

impl Language {
    /// The BCP 47 tag (`<html lang>`).
    pub fn key(self) -> &'static str {
        match self {
            Self::English => "en",
            Self::Chinese => "zh-CN",
        }
    }

    /// `en`, `zh`, `zh-CN`, … (case-insensitive).
    pub fn parse(key: &str) -> Option<Self> {
        let lower = key.to_ascii_lowercase();
        if lower == "en" || lower.starts_with("en-") {
            Some(Self::English)
        } else if lower == "zh" || lower.starts_with("zh-") {
            Some(Self::Chinese)
        } else {
            None
        }
    }
}

/// The `localStorage` key of the settings (the version is part of it: another layout is
/// another key).
pub const STORAGE_KEY: &str = "pypto-viewer.settings.v1";
/// How long after a change the settings are written.
const SAVE_DELAY_MS: u32 = 300;
/// The Performance Analysis panel's default width, and the range it can be dragged to.
pub const PANEL_WIDTH_PX: f64 = 520.0;
pub const PANEL_WIDTH_RANGE_PX: (f64, f64) = (280.0, 1600.0);
/// Longest key binding kept (the inputs' `maxlength`).
const KEY_MAX_CHARS: usize = 12;

/// What is stored: every setting, as plain values.
#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    pub theme: Theme,
    pub language: Language,
    pub label_mode: LabelMode,
    pub keys: KeyMap,
    pub panel_width_px: f64,
    pub last_folder: Option<String>,
}

impl Default for Stored {
    fn default() -> Self {
        Self {
            theme: Theme::default(),
            language: Language::default(),
            label_mode: SwimlaneSettings::default().label_mode,
            keys: KeyMap::default(),
            panel_width_px: PANEL_WIDTH_PX,
            last_folder: None,
        }
    }
}

/// Reads stored settings: what is missing or unreadable stays default, and each such problem
/// is one warning.
pub fn parse_stored(text: &str) -> (Stored, Vec<String>) {
    let mut out = Stored::default();
    let mut warnings = Vec::new();
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return (out, vec![format!("not JSON ({e})")]),
    };
    let Some(obj) = value.as_object() else { return (out, vec!["not a JSON object".to_owned()]) };
    let mut text_of = |key: &str| -> Option<String> {
        let v = obj.get(key)?;
        let s = v.as_str().map(str::to_owned);
        if s.is_none() {
            warnings.push(format!("{key}: not a string ({v})"));
        }
        s
    };
    let mut bad = Vec::new();
    if let Some(t) = text_of("theme") {
        out.theme = Theme::parse(&t).unwrap_or_else(|| {
            bad.push(format!("theme: unknown {t:?}"));
            out.theme
        });
    }
    if let Some(l) = text_of("language") {
        out.language = Language::parse(&l).unwrap_or_else(|| {
            bad.push(format!("language: unknown {l:?}"));
            out.language
        });
    }
    if let Some(m) = text_of("label_mode") {
        out.label_mode = LabelMode::parse(&m).unwrap_or_else(|| {
            bad.push(format!("label_mode: unknown {m:?}"));
            out.label_mode
        });
    }
    out.last_folder = text_of("last_folder").filter(|f| !f.is_empty());
    warnings.append(&mut bad);
    if let Some(w) = obj.get("panel_width_px") {
        match w.as_f64().filter(|w| (PANEL_WIDTH_RANGE_PX.0..=PANEL_WIDTH_RANGE_PX.1).contains(w)) {
            Some(w) => out.panel_width_px = w,
            None => warnings.push(format!("panel_width_px: not a width ({w})")),
        }
    }
    if let Some(keys) = obj.get("keys") {
        match keys.as_object() {
            Some(k) => {
                let slots: [(&str, &mut String); 4] = [
                    ("zoom_in", &mut out.keys.zoom_in),
                    ("zoom_out", &mut out.keys.zoom_out),
                    ("pan_left", &mut out.keys.pan_left),
                    ("pan_right", &mut out.keys.pan_right),
                ];
                for (name, slot) in slots {
                    let Some(v) = k.get(name) else { continue };
                    match v.as_str().filter(|s| !s.is_empty() && s.chars().count() <= KEY_MAX_CHARS) {
                        Some(s) => s.clone_into(slot),
                        None => warnings.push(format!("keys.{name}: not a key ({v})")),
                    }
                }
            }
            None => warnings.push(format!("keys: not an object ({keys})")),
        }
    }
    (out, warnings)
}

/// The stored form of `s`.
pub fn encode_stored(s: &Stored) -> String {
    serde_json::json!({
        "theme": s.theme.key(),
        "language": s.language.key(),
        "label_mode": s.label_mode.key(),
        "keys": { "zoom_in": s.keys.zoom_in, "zoom_out": s.keys.zoom_out, "pan_left": s.keys.pan_left, "pan_right": s.keys.pan_right },
        "panel_width_px": s.panel_width_px,
        "last_folder": s.last_folder,
    })
    .to_string()
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The first of the browser's preferred languages the page speaks (`navigator.languages`).
fn browser_language() -> Option<Language> {
    let navigator = web_sys::window()?.navigator();
    let languages = navigator.languages();
    languages.iter().filter_map(|l| l.as_string()).find_map(|l| Language::parse(&l))
}

fn warn(message: &str) {
    web_sys::console::warn_1(&wasm_bindgen::JsValue::from_str(&format!("{STORAGE_KEY}: {message} (ignored)")));
}

/// The settings: `Copy` handles to signals (provided by `App`).
#[derive(Clone, Copy)]
pub struct Settings {
    /// The chosen theme.
    pub theme: RwSignal<Theme>,
    /// Whether the system prefers a dark scheme (followed live).
    pub system_dark: RwSignal<bool>,
    /// The effective scheme: the chosen theme, the system's resolved.
    pub scheme: Memo<Scheme>,
    pub language: RwSignal<Language>,
    /// The remembered label mode (`nav`'s is the shown one; a link may show another).
    pub label_mode: RwSignal<LabelMode>,
    /// The Performance Analysis panel's width.
    pub panel_width_px: RwSignal<f64>,
    /// The name of the last folder opened.
    pub last_folder: RwSignal<Option<String>>,
}

impl Settings {
    /// Default settings, mirrored onto `<html data-theme lang>` as they change.
    pub fn new() -> Self {
        let d = Stored::default();
        let theme = RwSignal::new(d.theme);
        let system_dark = RwSignal::new(false);
        system_dark.set(watch_system_dark(move |dark| system_dark.set(dark)));
        let settings = Self {
            theme,
            system_dark,
            scheme: Memo::new(move |_| theme.get().resolve(system_dark.get())),
            language: RwSignal::new(browser_language().unwrap_or(d.language)),
            label_mode: RwSignal::new(d.label_mode),
            panel_width_px: RwSignal::new(d.panel_width_px),
            last_folder: RwSignal::new(None),
        };
        Effect::new(move |_| {
            let (scheme, language) = (settings.scheme.get(), settings.language.get());
            SCHEME.with(|s| s.set(scheme));
            if let Some(html) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
                let _ = html.set_attribute("data-theme", scheme.key());
                let _ = html.set_attribute("data-theme-setting", settings.theme.get().key());
                let _ = html.set_attribute("lang", language.key());
            }
        });
        settings
    }

    /// The page's settings (provided by `App`).
    pub fn get() -> Self {
        expect_context::<Self>()
    }

    /// Loads the stored settings (into these signals and `nav`'s swimlane settings) and keeps
    /// them stored as they change. Called once, in `App`, before a link is read.
    pub fn keep(self, nav: Nav) {
        if let Some(text) = storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten()) {
            let (mut stored, warnings) = parse_stored(&text);
            // A stored file without a language keeps the browser's.
            if !serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|v| v.get("language").is_some()) {
                stored.language = self.language.get_untracked();
            }
            for w in &warnings {
                warn(w);
            }
            self.set(nav, stored);
        }
        let stored = Memo::new(move |_| Stored {
            theme: self.theme.get(),
            language: self.language.get(),
            label_mode: self.label_mode.get(),
            keys: nav.swimlane.with(|s| s.keys.clone()),
            panel_width_px: self.panel_width_px.get(),
            last_folder: self.last_folder.get(),
        });
        let save = Delay::new(SAVE_DELAY_MS);
        // Written after a change (not at start: nothing changed yet).
        Effect::new(move |first: Option<()>| {
            // Read, not only tracked: a memo never read computes nothing and so never changes.
            stored.with(|_| ());
            if first.is_some() {
                save.schedule(move || {
                    let Some(text) = stored.try_with_untracked(encode_stored) else { return };
                    if let Some(s) = storage() {
                        if s.set_item(STORAGE_KEY, &text).is_err() {
                            warn("could not be written");
                        }
                    }
                });
            }
        });
    }

    fn set(self, nav: Nav, s: Stored) {
        self.theme.set(s.theme);
        self.language.set(s.language);
        self.label_mode.set(s.label_mode);
        self.panel_width_px.set(s.panel_width_px);
        self.last_folder.set(s.last_folder);
        nav.swimlane.update(|n| {
            n.label_mode = s.label_mode;
            n.keys = s.keys;
        });
    }

    /// Every setting back to its default (and so stored).
    pub fn reset(self, nav: Nav) {
        self.set(nav, Stored::default());
    }

    /// Remembers the name of a folder just opened.
    pub fn remember_folder(self, name: &str) {
        self.last_folder.set((!name.is_empty()).then(|| name.to_owned()));
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip() {
        for t in Theme::ALL {
            assert_eq!(Theme::parse(t.key()), Some(t));
        }
        assert_eq!(Theme::default(), Theme::System);
        for l in [Language::English, Language::Chinese] {
            assert_eq!(Language::parse(l.key()), Some(l));
        }
        assert_eq!(Language::parse("zh"), Some(Language::Chinese));
        assert_eq!(Theme::parse("blue"), None);
    }

    #[test]
    fn system_follows_the_preference_and_the_others_do_not() {
        for dark in [false, true] {
            assert_eq!(Theme::Light.resolve(dark), Scheme::Light);
            assert_eq!(Theme::Dark.resolve(dark), Scheme::Dark);
        }
        assert_eq!(Theme::System.resolve(false), Scheme::Light);
        assert_eq!(Theme::System.resolve(true), Scheme::Dark);
    }

    #[test]
    fn stored_settings_round_trip() {
        let s = Stored {
            theme: Theme::Dark,
            language: Language::Chinese,
            label_mode: LabelMode::Both,
            keys: KeyMap { zoom_in: "i".into(), zoom_out: "o".into(), pan_left: "ArrowLeft".into(), pan_right: "l".into() },
            panel_width_px: 700.0,
            last_folder: Some("run \"1\"".into()),
        };
        assert_eq!(parse_stored(&encode_stored(&s)), (s, Vec::new()));
        assert_eq!(parse_stored("{}"), (Stored::default(), Vec::new()));
    }

    #[test]
    fn malformed_settings_are_ignored_with_a_warning_each() {
        let (s, w) = parse_stored("not json");
        assert_eq!((s, w.len()), (Stored::default(), 1));
        let (s, w) = parse_stored("[1]");
        assert_eq!((s, w.len()), (Stored::default(), 1));
        let (s, w) = parse_stored(
            r#"{"theme":"blue","language":7,"label_mode":"id","panel_width_px":"wide","keys":{"zoom_in":"","pan_left":"q","zoom_out":"much too long a key"},"last_folder":3}"#,
        );
        assert_eq!(s.label_mode, LabelMode::TaskId);
        assert_eq!(s.keys, KeyMap { pan_left: "q".into(), ..KeyMap::default() });
        assert_eq!((s.theme, s.language, s.panel_width_px, s.last_folder), (Theme::System, Language::English, PANEL_WIDTH_PX, None));
        assert_eq!(w.len(), 6, "{w:?}");
        let (s, w) = parse_stored(r#"{"keys":5,"panel_width_px":1e9}"#);
        assert_eq!((s, w.len()), (Stored::default(), 2));
    }
}
