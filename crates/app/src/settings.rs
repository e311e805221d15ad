//! The user's own settings — what outlives a folder and a reload, unlike `nav` (what is looked
//! at): the theme and the language of the page. `Settings` is provided by `App`; the page's
//! `<html>` carries them as `data-theme` and `lang`, so style sheets and scripts follow.

use leptos::prelude::*;

/// The page's colour theme.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    #[default]
    Light,
    Dark,
}

impl Theme {
    pub fn key(self) -> &'static str {
        match self {
            Self::Light => "light",
            Self::Dark => "dark",
        }
    }

    pub fn parse(key: &str) -> Option<Self> {
        match key {
            "light" => Some(Self::Light),
            "dark" => Some(Self::Dark),
            _ => None,
        }
    }
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

/// The settings: `Copy` handles to signals (provided by `App`).
#[derive(Clone, Copy)]
pub struct Settings {
    pub theme: RwSignal<Theme>,
    pub language: RwSignal<Language>,
}

impl Settings {
    /// Default settings, mirrored onto `<html data-theme lang>` as they change.
    pub fn new() -> Self {
        let settings = Self { theme: RwSignal::new(Theme::default()), language: RwSignal::new(Language::default()) };
        Effect::new(move |_| {
            let (theme, language) = (settings.theme.get(), settings.language.get());
            if let Some(html) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
                let _ = html.set_attribute("data-theme", theme.key());
                let _ = html.set_attribute("lang", language.key());
            }
        });
        settings
    }

    /// The page's settings (provided by `App`).
    pub fn get() -> Self {
        expect_context::<Self>()
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
        for t in [Theme::Light, Theme::Dark] {
            assert_eq!(Theme::parse(t.key()), Some(t));
        }
        for l in [Language::English, Language::Chinese] {
            assert_eq!(Language::parse(l.key()), Some(l));
        }
        assert_eq!(Language::parse("zh"), Some(Language::Chinese));
        assert_eq!(Theme::parse("blue"), None);
    }
}
