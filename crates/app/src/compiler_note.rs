//! The note a compiler view (IR Pass Trace, Memory Reuse) shows when another view opened it
//! on something (`nav`'s [`CompilerTarget`]: the swimlane's selected kernel, a memory-map
//! tile): which function it found by `pypto_vocab::kernel_function`'s rule and how, or that
//! several or none match. Test id `compiler-note` (`data-outcome` = `one` | `several` | `none`
//! | `dump`, `data-function`, `data-rule`).

use crate::i18n::t;
use leptos::prelude::*;
use pypto_vocab::kernel_function::{match_kernel, KernelMatch, MatchRule};

use crate::nav::CompilerTarget;

/// What the note above the diff says about a [`CompilerTarget`].
#[derive(Clone, Debug, PartialEq)]
pub struct TargetNote {
    pub text: String,
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

/// The function `t` asks for among `functions` (the pass trace's `Class.method` keys) and the
/// note saying what was found.
pub fn target_note(t: &CompilerTarget, functions: &[String]) -> (Option<String>, TargetNote) {
    let plain = |text: String| TargetNote { text, miss: false, outcome: "dump", function: None, rule: "" };
    let (name, from) = match t {
        CompilerTarget::Dump { from } => return (None, plain(format!("Opened from {from}."))),
        CompilerTarget::Kernel { kernel, from } => (kernel.as_str(), format!("kernel {kernel} ({from})")),
        CompilerTarget::Line { function, line, tile, snapshot } => {
            (function.as_str(), format!("tile {tile}, defined at {snapshot}:{line}"))
        }
    };
    match match_kernel(name, functions) {
        KernelMatch::One { function, rule } => {
            let text = format!("Showing {function} for {from}: {}.", rule.describe());
            (Some(function.clone()), TargetNote { text, miss: false, outcome: "one", function: Some(function), rule: rule_key(rule) })
        }
        KernelMatch::Several { functions: hits, rule } => {
            let text = format!("Several functions match {from} ({}): {}. Pick one in the function list.", rule.describe(), hits.join(", "));
            (None, TargetNote { text, miss: true, outcome: "several", function: None, rule: rule_key(rule) })
        }
        KernelMatch::None => {
            let text = format!(
                "No IR function of this pass dump matches {from}: showing all {} functions. (A kernel matches a function by name, its words, a word's start or an abbreviation of one.)",
                functions.len()
            );
            (None, TargetNote { text, miss: true, outcome: "none", function: None, rule: "" })
        }
    }
}

/// The note, dismissable.
#[component]
pub fn CompilerNote(note: RwSignal<Option<TargetNote>>) -> impl IntoView {
    move || {
        note.get().map(|n| {
            view! {
                <div class="compiler-note" class:compiler-note-miss=n.miss data-testid="compiler-note" role="status"
                    data-outcome=n.outcome data-function=n.function.clone().unwrap_or_default() data-rule=n.rule>
                    <span>{n.text}</span>
                    <button class="compiler-note-close" title=t("app-dismiss") aria-label=t("app-dismiss") on:click=move |_| note.set(None)>"×"</button>
                </div>
            }
        })
    }
}
