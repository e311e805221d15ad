//! The note a compiler view (IR Pass Trace, Memory Reuse) shows when another view opened it
//! on something (`nav`'s [`CompilerTarget`]: the swimlane's selected kernel, a memory-map
//! tile): which function it found by `pypto_vocab::kernel_function`'s rule and how, or that
//! several or none match. The note keeps what was found (names, the rule, counts) and words it
//! in the page language when shown. Test id `compiler-note` (`data-outcome` = `one` |
//! `several` | `none` | `dump`, `data-function`, `data-rule`).

use crate::i18n::{t, tr, tr_with, Arg};
use leptos::prelude::*;
use pypto_vocab::kernel_function::{match_kernel, KernelMatch, MatchRule};

use crate::nav::{CompilerTarget, OpenedFrom};

/// What was asked for: a runtime kernel (opened from a capture) or a memory-map tile.
#[derive(Clone, Debug, PartialEq)]
pub enum Subject {
    Kernel { kernel: String, from: OpenedFrom },
    Tile { tile: String, snapshot: String, line: u32 },
}

/// What the note says, as data.
#[derive(Clone, Debug, PartialEq)]
pub enum NoteWords {
    /// The whole dump, opened from a capture.
    Dump { from: OpenedFrom },
    /// One function matched by `rule`.
    One { function: String, subject: Subject, rule: MatchRule },
    /// Several functions matched by `rule`.
    Several { functions: Vec<String>, subject: Subject, rule: MatchRule },
    /// None of the dump's `count` functions matched.
    NoMatch { subject: Subject, count: usize },
}

/// What the note above the diff says about a [`CompilerTarget`].
#[derive(Clone, Debug, PartialEq)]
pub struct TargetNote {
    pub words: NoteWords,
    /// Nothing (or not one thing) matched.
    pub miss: bool,
    pub outcome: &'static str,
    pub function: Option<String>,
    pub rule: &'static str,
}

fn rule_key(rule: MatchRule) -> &'static str {
    match rule {
        MatchRule::Exact => "exact",
        MatchRule::SameName => "same-name",
        MatchRule::Words => "words",
        MatchRule::WordPrefix => "word-prefix",
        MatchRule::Abbreviation => "abbreviation",
    }
}

/// How `rule` matched, in the page language.
fn rule_text(rule: MatchRule) -> String {
    match rule {
        MatchRule::Exact => tr("cn-rule-exact"),
        MatchRule::SameName => tr("cn-rule-same-name"),
        MatchRule::Words => tr("cn-rule-words"),
        MatchRule::WordPrefix => tr("cn-rule-word-prefix"),
        MatchRule::Abbreviation => tr("cn-rule-abbreviation"),
    }
}

/// "run R, pass dump D, the newest of N", in the page language.
fn from_text(from: &OpenedFrom) -> String {
    let runtime = if from.runtime.is_empty() { tr("cn-the-folder") } else { from.runtime.clone() };
    let args = [("runtime", Arg::from(runtime)), ("dump", Arg::from(&from.dump)), ("count", Arg::from(from.count))];
    match (from.count, from.chosen) {
        (0 | 1, _) => tr_with("cn-from-run", &args),
        (_, 0) => tr_with("cn-from-run-newest", &args),
        _ => tr_with("cn-from-run-chosen", &args),
    }
}

fn subject_text(subject: &Subject) -> String {
    match subject {
        Subject::Kernel { kernel, from } => {
            tr_with("cn-subject-kernel", &[("kernel", Arg::from(kernel)), ("from", Arg::from(from_text(from)))])
        }
        Subject::Tile { tile, snapshot, line } => tr_with(
            "cn-subject-tile",
            &[("tile", Arg::from(tile)), ("snapshot", Arg::from(snapshot)), ("line", Arg::from(line.to_string()))],
        ),
    }
}

impl NoteWords {
    /// The note in the page language (tracked: a view that calls it in a reactive closure
    /// follows a language switch).
    pub fn text(&self) -> String {
        match self {
            Self::Dump { from } => tr_with("cn-opened-from", &[("from", Arg::from(from_text(from)))]),
            Self::One { function, subject, rule } => tr_with(
                "cn-showing-function",
                &[("function", Arg::from(function)), ("subject", Arg::from(subject_text(subject))), ("rule", Arg::from(rule_text(*rule)))],
            ),
            Self::Several { functions, subject, rule } => tr_with(
                "cn-several-functions",
                &[
                    ("subject", Arg::from(subject_text(subject))),
                    ("rule", Arg::from(rule_text(*rule))),
                    ("functions", Arg::from(functions.join(", "))),
                ],
            ),
            Self::NoMatch { subject, count } => {
                tr_with("cn-no-function", &[("subject", Arg::from(subject_text(subject))), ("count", Arg::from(*count))])
            }
        }
    }
}

/// The function `t` asks for among `functions` (the pass trace's `Class.method` keys) and the
/// note saying what was found.
pub fn target_note(t: &CompilerTarget, functions: &[String]) -> (Option<String>, TargetNote) {
    let (name, subject) = match t {
        CompilerTarget::Dump { from } => {
            let words = NoteWords::Dump { from: from.clone() };
            return (None, TargetNote { words, miss: false, outcome: "dump", function: None, rule: "" });
        }
        CompilerTarget::Kernel { kernel, from } => (kernel.as_str(), Subject::Kernel { kernel: kernel.clone(), from: from.clone() }),
        CompilerTarget::Line { function, line, tile, snapshot } => {
            (function.as_str(), Subject::Tile { tile: tile.clone(), snapshot: snapshot.clone(), line: *line })
        }
    };
    match match_kernel(name, functions) {
        KernelMatch::One { function, rule } => {
            let words = NoteWords::One { function: function.clone(), subject, rule };
            (Some(function.clone()), TargetNote { words, miss: false, outcome: "one", function: Some(function), rule: rule_key(rule) })
        }
        KernelMatch::Several { functions: hits, rule } => {
            let words = NoteWords::Several { functions: hits, subject, rule };
            (None, TargetNote { words, miss: true, outcome: "several", function: None, rule: rule_key(rule) })
        }
        KernelMatch::None => {
            let words = NoteWords::NoMatch { subject, count: functions.len() };
            (None, TargetNote { words, miss: true, outcome: "none", function: None, rule: "" })
        }
    }
}

/// The note, dismissable.
#[component]
pub fn CompilerNote(note: RwSignal<Option<TargetNote>>) -> impl IntoView {
    move || {
        note.get().map(|n| {
            // Worded here, in the reactive closure: a language switch rewords it.
            let text = n.words.text();
            view! {
                <div class="compiler-note" class:compiler-note-miss=n.miss data-testid="compiler-note" role="status"
                    data-outcome=n.outcome data-function=n.function.clone().unwrap_or_default() data-rule=n.rule>
                    <span>{text}</span>
                    <button class="compiler-note-close" title=t("app-dismiss") aria-label=t("app-dismiss") on:click=move |_| note.set(None)>"×"</button>
                </div>
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(count: usize, chosen: usize) -> OpenedFrom {
        OpenedFrom { runtime: "case/dfx_outputs".into(), dump: "case/passes_dump".into(), count, chosen }
    }

    #[test]
    fn the_note_keeps_what_matched_and_words_it() {
        let functions = vec!["P.kernel_qk_matmul".to_owned(), "P.kernel_pv_matmul".to_owned(), "P.kernel_softmax_prepare".to_owned()];
        let kernel = |k: &str, f: OpenedFrom| CompilerTarget::Kernel { kernel: k.into(), from: f };
        let (chosen, note) = target_note(&kernel("QK", from(2, 0)), &functions);
        assert_eq!(chosen.as_deref(), Some("P.kernel_qk_matmul"));
        assert_eq!((note.outcome, note.rule, note.miss), ("one", "words", false));
        assert_eq!(
            note.words.text(),
            "Showing P.kernel_qk_matmul for kernel QK (run case/dfx_outputs, pass dump case/passes_dump, the newest of 2): the kernel's name is a word of the function's."
        );
        let (_, note) = target_note(&kernel("matmul", from(2, 1)), &functions);
        assert_eq!(note.outcome, "several");
        assert!(note.words.text().contains("chosen of 2") && note.words.text().contains("P.kernel_qk_matmul, P.kernel_pv_matmul"));
        let (chosen, note) = target_note(&kernel("XYZ", from(1, 0)), &functions);
        assert_eq!((chosen, note.outcome), (None, "none"));
        assert!(note.words.text().starts_with("No IR function of this pass dump matches kernel XYZ (run case/dfx_outputs, pass dump case/passes_dump): showing all 3 functions."));
        let (_, note) = target_note(&CompilerTarget::Dump { from: OpenedFrom { runtime: String::new(), ..from(1, 0) } }, &functions);
        assert_eq!(note.words.text(), "Opened from run the folder, pass dump case/passes_dump.");
        let tile = CompilerTarget::Line {
            snapshot: "35_after_X.py".into(),
            function: "P.kernel_softmax_prepare".into(),
            line: 1200,
            tile: "t0".into(),
        };
        let (chosen, note) = target_note(&tile, &functions);
        assert_eq!(chosen.as_deref(), Some("P.kernel_softmax_prepare"));
        assert!(note.words.text().contains("tile t0, defined at 35_after_X.py:1200"), "{}", note.words.text());
    }
}
