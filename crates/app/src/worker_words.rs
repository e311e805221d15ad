//! The worker's fixed English sentences in the page language, for the sidebar's problems list
//! (file errors and the worker's errors): a failed read ("could not read the file: …"), a
//! stalled one ("no bytes from … for 30 s"), work the user cancelled, what a dataset lacks for
//! a view. Each sentence the worker writes is a template here with its catalogue message
//! (`werr-…` in `app.ftl`); its parts (`{detail}`) are words of their own and are looked up
//! again. What no template matches — a parser's own words (`serde_json`'s "expected `,` or `}`",
//! a browser's network error) — is shown as the parser or browser wrote it: those texts name
//! the input's bytes and are not ours to translate.

use pypto_protocol::datasets::CANCELLED;

use crate::i18n::{tr, tr_with, Arg};

/// (the worker's English, with `{name}` for a part; the message id). A part named `detail`
/// is itself looked up; others (ids, file names, seconds) are shown as sent.
const TEMPLATES: &[(&str, &str)] = &[
    (CANCELLED, "werr-cancelled"),
    ("could not read the file: {detail}", "werr-read-file"),
    ("could not load the dataset manifest: {detail}", "werr-manifest"),
    ("bad dataset manifest: {detail}", "werr-bad-manifest"),
    ("no bytes from {what} for {seconds} s", "werr-stalled"),
    ("dataset {id} has no deps.json: the Task Dependency Graph needs one", "werr-graph-no-deps"),
    ("dataset {id} has no readable swimlane records", "werr-no-records"),
    ("dataset {id} has no chip swimlane records: no performance analysis", "werr-no-perf"),
    ("dataset {id} has no path analyses (no readable swimlane records)", "werr-no-paths"),
    ("dataset {id} is not a pass dump", "werr-not-pass-dump"),
    ("the file is not in the opened folder", "werr-not-in-folder"),
    ("a new folder was opened", "werr-new-folder"),
    ("the load job answered something else", "werr-job-answer"),
    ("the analysis job went away", "werr-job-gone"),
    ("could not start an analysis job: {detail}", "werr-job-start"),
    ("the analysis job panicked: {detail}", "werr-job-panicked"),
    ("the analysis job failed: {detail}", "werr-job-failed"),
    ("the timeline could not be built: {detail}", "werr-timeline-failed"),
    ("could not read the swimlane records again: {detail}", "werr-records-again"),
    ("dependency graph layout failed: {detail}", "werr-layout-failed"),
];

/// The parts of `text` that fill `template`'s `{name}`s, if `text` is that sentence: the
/// literal pieces in order, a part as short as it can be except the last, which takes the rest.
fn matches<'a>(template: &str, text: &'a str) -> Option<Vec<(String, &'a str)>> {
    let mut pieces = template.split('{');
    let head = pieces.next().unwrap_or_default();
    let mut rest = text.strip_prefix(head)?;
    let mut parts = Vec::new();
    let mut pieces = pieces.peekable();
    while let Some(piece) = pieces.next() {
        let (name, literal) = piece.split_once('}')?;
        let value = if pieces.peek().is_none() {
            // The last part: the literal must end the text.
            let value = rest.strip_suffix(literal)?;
            rest = "";
            value
        } else {
            let at = rest.find(literal).filter(|_| !literal.is_empty())?;
            let value = &rest[..at];
            rest = &rest[at + literal.len()..];
            value
        };
        if value.is_empty() {
            return None;
        }
        parts.push((name.to_owned(), value));
    }
    rest.is_empty().then_some(parts)
}

/// `message` (a file error's or the worker's error text) in the page language (tracked): a
/// sentence of the worker's translated, with its details looked up again; anything else
/// unchanged.
pub fn say(message: &str) -> String {
    for (template, id) in TEMPLATES {
        if let Some(parts) = matches(template, message) {
            if parts.is_empty() {
                return tr(id);
            }
            let args: Vec<(&str, Arg)> = parts
                .iter()
                .map(|(name, value)| (name.as_str(), Arg::from(if name == "detail" { say(value) } else { (*value).to_owned() })))
                .collect();
            return tr_with(id, &args);
        }
    }
    message.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::format_in;
    use crate::settings::Language;

    #[test]
    fn sentences_are_taken_apart_and_others_are_left_alone() {
        assert_eq!(
            matches("no bytes from {what} for {seconds} s", "no bytes from a.json for 30 s"),
            Some(vec![("what".into(), "a.json"), ("seconds".into(), "30")])
        );
        assert_eq!(matches("could not read the file: {detail}", "could not read the file: x: y"), Some(vec![("detail".into(), "x: y")]));
        assert_eq!(matches("a new folder was opened", "a new folder was opened"), Some(vec![]));
        assert_eq!(matches("a new folder was opened", "a new folder was opened!"), None);
        assert_eq!(matches("dataset {id} is not a pass dump", "dataset  is not a pass dump"), None);
        assert_eq!(matches("could not read the file: {detail}", "expected `,` or `}`"), None);
    }

    #[test]
    fn every_template_has_its_message_with_the_same_parts_in_both_languages() {
        for (template, id) in TEMPLATES {
            let names: Vec<&str> = template.split('{').skip(1).filter_map(|p| p.split_once('}')).map(|(n, _)| n).collect();
            let args: Vec<(&str, Arg)> = names.iter().map(|n| (*n, Arg::from("X1"))).collect();
            let (en, zh) = (format_in(Language::English, id, &args), format_in(Language::Chinese, id, &args));
            assert_ne!(&en, id, "{id} is in no catalogue");
            // The English message says the worker's sentence.
            let english = names.iter().fold((*template).to_owned(), |t, n| t.replace(&format!("{{{n}}}"), "X1"));
            assert_eq!(en, english, "{id}");
            assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{id}: {zh}");
            assert_eq!(zh.matches("X1").count(), names.len(), "{id}: zh-CN lacks a part: {zh}");
        }
        // A nested sentence is said whole; a parser's words are shown as written.
        let nested = "could not read the file: no bytes from a.json for 30 s";
        let zh = format_in(
            Language::Chinese,
            "werr-read-file",
            &[(
                "detail",
                Arg::from(format_in(Language::Chinese, "werr-stalled", &[("what", Arg::from("a.json")), ("seconds", Arg::from("30"))])),
            )],
        );
        assert!(zh.contains("a.json") && zh.contains("30"), "{zh}");
        assert_eq!(say("expected `,` or `}` at line 3 column 5"), "expected `,` or `}` at line 3 column 5");
        assert_eq!(say(nested), nested);
    }
}
