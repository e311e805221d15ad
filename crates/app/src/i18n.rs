//! The page's words in the user's language: every UI string comes from a Project Fluent
//! catalogue, English (`crates/app/i18n/en/*.ftl`) and Simplified Chinese
//! (`crates/app/i18n/zh-CN/*.ftl`), one file per area of the page, so that the engineers
//! working on different views never edit the same catalogue file.
//!
//! Use [`tr`] for a message and [`tr_with`] for one with arguments (`{ $count }`); both read
//! the page language (a signal: a view that calls them inside a reactive closure follows a
//! language switch). A message id missing from the catalogue shows as the id itself with a
//! console warning, never a panic. `cargo xtask check-layers` (rule "UI strings") fails when an
//! id used in code is in neither catalogue, when the two catalogues differ in ids, and when a
//! `view!` literal bypasses the catalogue (beyond a shrinking allow-list).
//!
//! Readers' warnings and pass snapshots' problems carry their sentence's kind and arguments
//! beside the English message: [`warning_message`] and [`snapshot_problem_message`] say them
//! from `warnings.ftl` and `snapshot.ftl`.
//!
//! Numbers: [`fmt_count`] groups digits as the locale does (both languages group by thousands
//! with `,`; Chinese keeps ASCII digits, as the extension's Chinese docs do), and units (µs,
//! KiB, cycles) are the same symbols in both languages.

use std::cell::{Cell, RefCell};

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};
use leptos::prelude::*;
use unic_langid::LanguageIdentifier;

use crate::settings::Language;

/// One area's catalogue file in both languages.
struct Area {
    name: &'static str,
    en: &'static str,
    zh: &'static str,
}

macro_rules! areas {
    ($($name:literal),* $(,)?) => {
        &[$(Area {
            name: $name,
            en: include_str!(concat!("../i18n/en/", $name, ".ftl")),
            zh: include_str!(concat!("../i18n/zh-CN/", $name, ".ftl")),
        }),*]
    };
}

/// Every area of the page with its own catalogue file (file name without `.ftl`).
const AREAS: &[Area] =
    areas!["app", "views", "swimlane", "graph", "panel", "passes", "memory", "compare", "shortcuts", "warnings", "snapshot"];

/// Fluent's number formatter: an integer argument (a count) with its digits grouped by
/// thousands (`1,120`); other numbers as Fluent writes them. Line numbers and ids go in as text.
fn group_integers<M>(value: &FluentValue, _: &M) -> Option<String> {
    match value {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // checked: a non-negative integer below 2^53
        FluentValue::Number(n)
            if n.value.fract() == 0.0 && n.value >= 1000.0 && n.value < 9.0e15 && n.options.minimum_fraction_digits.is_none() =>
        {
            Some(fmt_count(n.value as u64))
        }
        _ => None,
    }
}

/// A language's messages.
struct Catalogue {
    bundle: FluentBundle<FluentResource>,
}

impl Catalogue {
    fn new(language: Language) -> Self {
        let tag: LanguageIdentifier = language.key().parse().unwrap_or_default();
        let mut bundle = FluentBundle::new(vec![tag]);
        // No Unicode isolation marks around arguments: they would show in canvases and titles.
        bundle.set_use_isolating(false);
        // Counts passed as numbers are grouped by thousands, as `fmt_count` writes them.
        bundle.set_formatter(Some(group_integers));
        for area in AREAS {
            let text = match language {
                Language::English => area.en,
                Language::Chinese => area.zh,
            };
            let resource = FluentResource::try_new(text.to_owned()).unwrap_or_else(|(partial, errors)| {
                warn(&format!("i18n/{}/{}.ftl: {errors:?}", language.key(), area.name));
                partial
            });
            if let Err(errors) = bundle.add_resource(resource) {
                warn(&format!("i18n/{}/{}.ftl: duplicate ids {errors:?}", language.key(), area.name));
            }
        }
        Self { bundle }
    }

    /// The message `id` formatted with `args`; `None` when the catalogue lacks it.
    fn format(&self, id: &str, args: Option<&FluentArgs>) -> Option<String> {
        let (text, errors) = self.format_with_errors(id, args)?;
        if !errors.is_empty() {
            warn(&format!("i18n: {id}: {errors:?}"));
        }
        Some(text)
    }

    /// The message `id` formatted with `args` and Fluent's complaints (a missing argument).
    fn format_with_errors(&self, id: &str, args: Option<&FluentArgs>) -> Option<(String, Vec<String>)> {
        let pattern = self.bundle.get_message(id)?.value()?;
        let mut errors = Vec::new();
        let text = self.bundle.format_pattern(pattern, args, &mut errors).into_owned();
        Some((text, errors.iter().map(|e| format!("{e:?}")).collect()))
    }
}

thread_local! {
    static CATALOGUES: RefCell<[Option<Catalogue>; 2]> = const { RefCell::new([None, None]) };
    static LANGUAGE: Cell<Option<RwSignal<Language>>> = const { Cell::new(None) };
}

/// Makes `language` the page language every [`tr`] reads (called once, by `App`).
pub fn provide(language: RwSignal<Language>) {
    LANGUAGE.with(|l| l.set(Some(language)));
}

/// The page language, tracked (English until `App` provides the settings).
pub fn language() -> Language {
    LANGUAGE.with(Cell::get).map_or(Language::English, |l| l.get())
}

/// A value passed to a message (`{ $name }`).
#[derive(Clone, Debug)]
pub enum Arg {
    Text(String),
    Number(f64),
}

impl From<&str> for Arg {
    fn from(s: &str) -> Self {
        Self::Text(s.to_owned())
    }
}
impl From<String> for Arg {
    fn from(s: String) -> Self {
        Self::Text(s)
    }
}
impl From<&String> for Arg {
    fn from(s: &String) -> Self {
        Self::Text(s.clone())
    }
}
macro_rules! number_arg {
    ($($t:ty),*) => {$(impl From<$t> for Arg {
        #[allow(clippy::cast_lossless)] // one body for every integer width
        fn from(n: $t) -> Self { Self::Number(n as f64) }
    })*};
}
number_arg!(usize, u32, u64, i32, i64, f64);

/// The message `id` in `language`, with `args`; the id itself (and a warning) when neither
/// catalogue has it, the English text when only the other language lacks it.
pub fn format_in(language: Language, id: &str, args: &[(&str, Arg)]) -> String {
    let fluent_args = (!args.is_empty()).then(|| {
        let mut a = FluentArgs::new();
        for (name, value) in args {
            match value {
                Arg::Text(s) => a.set(*name, FluentValue::from(s.clone())),
                Arg::Number(n) => a.set(*name, FluentValue::from(*n)),
            }
        }
        a
    });
    let lookup = |lang: Language| {
        CATALOGUES.with(|c| {
            let mut c = c.borrow_mut();
            let slot = &mut c[usize::from(lang == Language::Chinese)];
            slot.get_or_insert_with(|| Catalogue::new(lang)).format(id, fluent_args.as_ref())
        })
    };
    lookup(language).or_else(|| (language != Language::English).then(|| lookup(Language::English)).flatten()).unwrap_or_else(|| {
        warn(&format!("i18n: no message {id:?}"));
        id.to_owned()
    })
}

/// The message `id` in the page language (tracked).
pub fn tr(id: &str) -> String {
    format_in(language(), id, &[])
}

/// The message `id` with arguments, in the page language (tracked).
pub fn tr_with(id: &str, args: &[(&str, Arg)]) -> String {
    format_in(language(), id, args)
}

/// The message `id` as a reactive text: `{t("app-open-demo")}` in a `view!`, or an attribute
/// (`title=t("…")`) that follows a language switch.
pub fn t(id: &'static str) -> impl Fn() -> String + Copy + Send + Sync + 'static {
    move || tr(id)
}

/// A reader's or analysis's warning in `language`: the catalogue's `warning-<kind key>` with the
/// warning's arguments (counts grouped as the locale groups them). The English text is the
/// warning's own `message`; a warning whose arguments do not fill the message (none there, or
/// one missing) shows its English `message` rather than a sentence with a hole.
pub fn warning_message_in(language: Language, w: &pypto_vocab::Warning) -> String {
    sentence_in(language, &format!("warning-{}", w.kind.key()), &w.args, &w.message)
}

/// [`warning_message_in`] in the page language (tracked).
pub fn warning_message(w: &pypto_vocab::Warning) -> String {
    warning_message_in(language(), w)
}

/// What is wrong with a pass snapshot, in `language`: the catalogue's `snapshot-<kind key>`
/// with the problem's arguments, whose English is the problem's own `message`; a problem
/// without a kind (or whose arguments do not fill the sentence) says its English `message`.
pub fn snapshot_problem_message_in(language: Language, p: &pypto_protocol::pass_trace::SnapshotProblem) -> String {
    match p.kind {
        Some(kind) => sentence_in(language, &format!("snapshot-{}", kind.key()), &p.args, &p.message),
        None => p.message.clone(),
    }
}

/// [`snapshot_problem_message_in`] in the page language (tracked).
pub fn snapshot_problem_message(p: &pypto_protocol::pass_trace::SnapshotProblem) -> String {
    snapshot_problem_message_in(language(), p)
}

/// `file:line:column: message` (the message in the page language, tracked), as the CLI's
/// `report` prints a snapshot problem in English.
pub fn snapshot_problem_text(p: &pypto_protocol::pass_trace::SnapshotProblem) -> String {
    format!("{}:{}:{}: {}", p.file, p.line, p.column, snapshot_problem_message(p))
}

/// The catalogue's sentence `id` in `language` with `args` (a reader's or check's typed
/// arguments); `english` (the sentence as its maker wrote it) when the catalogue lacks `id` or
/// the arguments do not fill it, rather than a sentence with a hole.
fn sentence_in(language: Language, id: &str, args: &[(String, pypto_vocab::WarningArg)], english: &str) -> String {
    let args = fluent_args(args);
    let formatted = CATALOGUES.with(|c| {
        let mut c = c.borrow_mut();
        let slot = &mut c[usize::from(language == Language::Chinese)];
        slot.get_or_insert_with(|| Catalogue::new(language)).format_with_errors(id, Some(&args))
    });
    match formatted {
        Some((text, errors)) if errors.is_empty() => text,
        Some((_, errors)) => {
            warn(&format!("i18n: {id}: {errors:?}"));
            english.to_owned()
        }
        None => {
            warn(&format!("i18n: no message {id:?}"));
            english.to_owned()
        }
    }
}

/// A warning's or snapshot problem's arguments as Fluent's: counts as numbers, the rest as text.
fn fluent_args(args: &[(String, pypto_vocab::WarningArg)]) -> FluentArgs<'static> {
    let mut a = FluentArgs::new();
    for (name, value) in args {
        match value {
            #[allow(clippy::cast_precision_loss)] // a count of records: far below 2^53
            pypto_vocab::WarningArg::Count(n) => a.set(name.clone(), FluentValue::from(*n as f64)),
            pypto_vocab::WarningArg::Text(t) => a.set(name.clone(), FluentValue::from(t.clone())),
        }
    }
    a
}

/// A timeline view's title (`Worker View`, …) in the page language (the worker and the
/// vocabulary spell it in English).
pub fn timeline_view_title(view: pypto_vocab::TimelineView) -> String {
    use pypto_vocab::TimelineView as V;
    tr(match view {
        V::Worker => "swd-view-worker",
        V::Scheduler => "swd-view-scheduler",
        V::AicpuScheduler => "swd-view-aicpu-scheduler",
        V::Orchestrator => "swd-view-orchestrator",
        V::HostPrepare => "swd-view-host-prepare",
        V::Trace => "swd-view-trace",
    })
}

/// `n` with its digits grouped by thousands, as both languages write counts.
pub fn fmt_count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

fn warn(message: &str) {
    #[cfg(target_arch = "wasm32")]
    web_sys::console::warn_1(&wasm_bindgen::JsValue::from_str(message));
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("{message}");
}

/// The message ids a catalogue file defines, in order: every line that starts a message
/// (`id = …` at the line's start; terms `-x` and comments are not messages).
pub fn message_ids(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|line| {
            let (id, _) = line.split_once('=')?;
            let id = id.trim_end();
            let first = id.chars().next()?;
            (first.is_ascii_alphabetic() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')).then_some(id)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_message_in_both_languages_has_a_value_and_formats_without_errors() {
        let mut all = BTreeSet::new();
        for area in AREAS {
            let (en, zh) = (message_ids(area.en), message_ids(area.zh));
            let (en_set, zh_set): (BTreeSet<_>, BTreeSet<_>) = (en.iter().copied().collect(), zh.iter().copied().collect());
            assert_eq!(en.len(), en_set.len(), "{}.ftl (en) defines an id twice", area.name);
            assert_eq!(en_set, zh_set, "{}.ftl: en and zh-CN differ in ids", area.name);
            for id in en {
                assert!(all.insert(id), "{id} is defined in two areas");
            }
        }
        for lang in [Language::English, Language::Chinese] {
            let catalogue = Catalogue::new(lang);
            for id in &all {
                let message = catalogue.bundle.get_message(id).unwrap_or_else(|| panic!("{id} missing in {lang:?}"));
                assert!(message.value().is_some(), "{id} has no value in {lang:?}");
            }
        }
        assert!(all.len() > 50, "only {} messages", all.len());
    }

    #[test]
    fn arguments_are_filled_in_and_a_missing_id_shows_as_itself() {
        assert_eq!(format_in(Language::English, "no-such-message-id", &[]), "no-such-message-id");
        let en = format_in(Language::English, "app-datasets-count", &[("count", Arg::from(3usize))]);
        let zh = format_in(Language::Chinese, "app-datasets-count", &[("count", Arg::from(3usize))]);
        assert!(en.contains('3') && zh.contains('3'), "{en} / {zh}");
        assert_ne!(en, zh);
    }

    #[test]
    fn count_arguments_are_grouped_like_fmt_count() {
        let en = format_in(Language::English, "app-datasets-count", &[("count", Arg::from(1120usize))]);
        let zh = format_in(Language::Chinese, "app-datasets-count", &[("count", Arg::from(1_234_567usize))]);
        assert!(en.contains("1,120"), "{en}");
        assert!(zh.contains("1,234,567"), "{zh}");
        let small = format_in(Language::English, "app-datasets-count", &[("count", Arg::from(999usize))]);
        assert!(small.contains("999") && !small.contains(','), "{small}");
    }

    /// The `$name`s a catalogue message's text names.
    fn variables(text: &str, id: &str) -> BTreeSet<String> {
        let start = text.find(&format!("\n{id} =")).map_or_else(|| panic!("{id} not in the file"), |i| i + 1);
        let body: String = text[start..].lines().enumerate().take_while(|(i, l)| *i == 0 || l.starts_with(' ')).map(|(_, l)| l).collect();
        body.split('$').skip(1).map(|v| v.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()).collect()
    }

    #[test]
    fn every_warning_kind_says_itself_in_both_languages_with_its_arguments() {
        use pypto_vocab::{Warning, WarningKind};
        let area = AREAS.iter().find(|a| a.name == "warnings").unwrap_or_else(|| panic!("no warnings area"));
        for &kind in WarningKind::ALL {
            let id = format!("warning-{}", kind.key());
            let (en_vars, zh_vars) = (variables(area.en, &id), variables(area.zh, &id));
            assert_eq!(en_vars, zh_vars, "{id}: en and zh-CN name different arguments");
            // Every argument filled: counts as numbers, the rest (and the selectors) as text.
            let mut w = Warning::new(kind, "d/f.json", "the English message");
            for name in &en_vars {
                w = match name.as_str() {
                    "count" | "more" | "on" | "off" | "listed" | "rows" | "columns" => w.count(name, 1234usize),
                    _ => w.text(name, "aicore_tasks[1]"),
                };
            }
            let (en, zh) = (warning_message_in(Language::English, &w), warning_message_in(Language::Chinese, &w));
            for (lang, text) in [("en", &en), ("zh-CN", &zh)] {
                assert_ne!(text, "the English message", "{id} ({lang}) did not format: a missing argument or message");
                assert!(!text.contains('{') || id.ends_with("host-phase-skipped"), "{id} ({lang}): {text}");
                if en_vars.contains("count") {
                    assert!(text.contains("1,234"), "{id} ({lang}): the count is not grouped: {text}");
                }
            }
            assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{id}: no Chinese in {zh}");
            assert!(!en.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{id}: Chinese in English: {en}");
        }
        // A warning without the arguments its sentence needs says its English message.
        let bare = Warning::new(WarningKind::TraceUnmatchedEnd, "t.json", "3 E event(s) without a B: not drawn");
        assert_eq!(warning_message_in(Language::Chinese, &bare), bare.message);
        let full = bare.clone().count("count", 3usize);
        assert_eq!(warning_message_in(Language::English, &full), full.message);
        assert_eq!(warning_message_in(Language::Chinese, &full), "3 个 E 事件没有对应的 B：未绘制");
    }

    /// Every snapshot problem kind has its sentence in both languages, naming the same
    /// arguments, and formats with them (no hole); the English sentence equal to each check's
    /// own message is the CLI's test (`crates/cli/tests/snapshot_words.rs`).
    #[test]
    fn every_snapshot_problem_kind_says_itself_in_both_languages_with_its_arguments() {
        use pypto_protocol::pass_trace::SnapshotProblem;
        use pypto_vocab::{SnapshotProblemKind, WarningArg};
        let area = AREAS.iter().find(|a| a.name == "snapshot").unwrap_or_else(|| panic!("no snapshot area"));
        for &kind in SnapshotProblemKind::ALL {
            let id = format!("snapshot-{}", kind.key());
            let (en_vars, zh_vars) = (variables(area.en, &id), variables(area.zh, &id));
            assert_eq!(en_vars, zh_vars, "{id}: en and zh-CN name different arguments");
            let args = en_vars
                .iter()
                .map(|name| (name.clone(), if name == "count" { WarningArg::Count(2) } else { WarningArg::Text("Q".to_owned()) }))
                .collect();
            let p =
                SnapshotProblem { file: "f.py".into(), line: 3, column: 4, message: "the English message".into(), kind: Some(kind), args };
            let (en, zh) = (snapshot_problem_message_in(Language::English, &p), snapshot_problem_message_in(Language::Chinese, &p));
            for (lang, text) in [("en", &en), ("zh-CN", &zh)] {
                assert_ne!(text, "the English message", "{id} ({lang}) did not format: a missing argument or message");
                assert!(!text.contains('{') && !text.contains('$'), "{id} ({lang}): {text}");
                for name in &en_vars {
                    let value = if name == "count" { "2" } else { "Q" };
                    assert!(text.contains(value), "{id} ({lang}): ${name} not said: {text}");
                }
            }
            assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{id}: no Chinese in {zh}");
            assert!(!en.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{id}: Chinese in English: {en}");
            if kind.key().starts_with("cut-") {
                assert!(en.starts_with("the file ends inside a statement (cut?): "), "{id}: {en}");
                assert!(zh.starts_with("文件在语句中间结束（被截断？）："), "{id}: {zh}");
            }
        }
        // Without a kind, or without the arguments its sentence needs: the English message.
        let bare = SnapshotProblem {
            file: "f.py".into(),
            line: 1,
            column: 5,
            message: "'(' was never closed".into(),
            kind: Some(SnapshotProblemKind::NeverClosed),
            args: Vec::new(),
        };
        assert_eq!(snapshot_problem_message_in(Language::Chinese, &bare), bare.message);
        assert_eq!(snapshot_problem_message_in(Language::Chinese, &SnapshotProblem { kind: None, ..bare.clone() }), bare.message);
        let full = SnapshotProblem { args: vec![("bracket".into(), WarningArg::Text("(".into()))], ..bare.clone() };
        assert_eq!(snapshot_problem_message_in(Language::English, &full), bare.message);
        assert_eq!(snapshot_problem_message_in(Language::Chinese, &full), "'(' 始终没有闭合");
    }

    #[test]
    fn the_list_tail_says_how_many_more_only_when_there_are_more() {
        use pypto_vocab::{Warning, WarningKind};
        let w = |more: usize| {
            Warning::new(WarningKind::RecordsNegativeTime, "r.json", "")
                .count("count", 6 + more)
                .text("rows", "aicore_tasks[1] (start_cycles = -7)")
                .count("more", more)
        };
        assert_eq!(
            warning_message_in(Language::English, &w(0)),
            "6 row(s) with a negative time skipped: aicore_tasks[1] (start_cycles = -7)"
        );
        assert_eq!(
            warning_message_in(Language::English, &w(2)),
            "8 row(s) with a negative time skipped: aicore_tasks[1] (start_cycles = -7), and 2 more"
        );
        assert!(warning_message_in(Language::Chinese, &w(2)).ends_with("，另有 2 行"));
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(fmt_count(0), "0");
        assert_eq!(fmt_count(999), "999");
        assert_eq!(fmt_count(1000), "1,000");
        assert_eq!(fmt_count(1_234_567), "1,234,567");
    }

    #[test]
    fn both_catalogues_parse_and_have_the_same_ids() {
        for area in AREAS {
            for (lang, text) in [("en", area.en), ("zh-CN", area.zh)] {
                if let Err((_, errors)) = FluentResource::try_new(text.to_owned()) {
                    panic!("i18n/{lang}/{}.ftl does not parse: {errors:?}", area.name);
                }
            }
        }
    }
}
