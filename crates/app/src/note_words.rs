//! The comparisons' notes and a memory map's chip source in the page language: the worker
//! sends them as data (`pypto_vocab::{RunsNote, MemoryNote, ChipSource}`: kinds, sides,
//! numbers, names) and the views that show them (two runs compared, two pass dumps' memory
//! compared, the Memory Reuse map) word them here. Tracked: called in a reactive closure, the
//! text follows a language switch.

use pypto_vocab::{ChipSource, MemoryNote, RunsNote, Side};

use crate::i18n::{tr, tr_with, Arg};

fn side(s: Side) -> Arg {
    Arg::from(s.letter())
}

/// What named a chip: the file, "chosen", or why it is assumed.
pub fn chip_source(source: &ChipSource) -> String {
    match source {
        ChipSource::Assumed => tr("nw-chip-assumed"),
        ChipSource::Chosen => tr("nw-chip-chosen"),
        ChipSource::File { path } => path.clone(),
    }
}

/// A note of the comparison of two runtime captures.
pub fn runs_note(note: &RunsNote) -> String {
    match note {
        RunsNote::ClocksDiffer { a_hz, b_hz } => tr_with("nw-clocks-differ", &[("a", Arg::from(*a_hz)), ("b", Arg::from(*b_hz))]),
        RunsNote::LevelsDiffer { a, b } => tr_with("nw-levels-differ", &[("a", Arg::from(*a)), ("b", Arg::from(*b))]),
        RunsNote::NoAicoreRows { side: s } => tr_with("nw-no-aicore-rows", &[("side", side(*s))]),
        RunsNote::UnresolvedFuncIds { side: s, unresolved, rows } => {
            tr_with("nw-unresolved-func-ids", &[("side", side(*s)), ("unresolved", Arg::from(*unresolved)), ("rows", Arg::from(*rows))])
        }
        RunsNote::NoCriticalPaths { side: s, why } => tr_with("nw-no-critical-paths", &[("side", side(*s)), ("why", Arg::from(why))]),
        RunsNote::CriticalPathNotComputed { side: s, why } => {
            tr_with("nw-critical-path-not-computed", &[("side", side(*s)), ("why", Arg::from(why))])
        }
        RunsNote::NoNameMap { side: s } => tr_with("nw-no-name-map", &[("side", side(*s))]),
        RunsNote::NameMapOnOneSide => tr("nw-name-map-on-one-side"),
        RunsNote::SharedFunctionNames => tr("nw-shared-function-names"),
    }
}

/// A note of the memory comparison of two pass dumps.
pub fn memory_note(note: &MemoryNote) -> String {
    match note {
        MemoryNote::UnknownChip { requested, chip } => {
            tr_with("nw-unknown-chip", &[("requested", Arg::from(requested)), ("chip", Arg::from(chip))])
        }
        MemoryNote::ChipsDiffer { a_chip, a_source, b_chip, b_source, chip } => tr_with(
            "nw-chips-differ",
            &[
                ("a_chip", Arg::from(a_chip)),
                ("a_source", Arg::from(chip_source(a_source))),
                ("b_chip", Arg::from(b_chip)),
                ("b_source", Arg::from(chip_source(b_source))),
                ("chip", Arg::from(chip)),
            ],
        ),
        MemoryNote::ChipAssumed { side: s, source } => {
            tr_with("nw-chip-assumed-side", &[("side", side(*s)), ("source", Arg::from(chip_source(source)))])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::format_in;
    use crate::settings::Language;

    fn chips() -> (ChipSource, ChipSource) {
        (ChipSource::File { path: "kernels/aiv/k.pto".into() }, ChipSource::Chosen)
    }

    /// The page's English words each note as the CLI's `Display` does (numbers below 1000: the
    /// page groups larger ones by thousands); the Chinese differs and keeps the data.
    #[test]
    fn the_english_page_says_what_the_cli_prints_and_chinese_keeps_the_data() {
        let (a_source, b_source) = chips();
        let runs = [
            RunsNote::ClocksDiffer { a_hz: 50, b_hz: 100 },
            RunsNote::LevelsDiffer { a: 1, b: 4 },
            RunsNote::NoAicoreRows { side: Side::A },
            RunsNote::UnresolvedFuncIds { side: Side::B, unresolved: 3, rows: 10 },
            RunsNote::NoCriticalPaths { side: Side::A, why: "not asked".into() },
            RunsNote::CriticalPathNotComputed { side: Side::B, why: "a cycle".into() },
            RunsNote::NoNameMap { side: Side::A },
            RunsNote::NameMapOnOneSide,
            RunsNote::SharedFunctionNames,
        ];
        for n in &runs {
            assert_eq!(runs_note(n), n.to_string());
        }
        let memory = [
            MemoryNote::UnknownChip { requested: "Ascend9".into(), chip: "Ascend910B".into() },
            MemoryNote::ChipsDiffer {
                a_chip: "Ascend910B".into(),
                a_source,
                b_chip: "Ascend950".into(),
                b_source,
                chip: "Ascend950".into(),
            },
            MemoryNote::ChipAssumed { side: Side::B, source: ChipSource::Assumed },
        ];
        for n in &memory {
            assert_eq!(memory_note(n), n.to_string());
        }
        let zh = format_in(
            Language::Chinese,
            "nw-unresolved-func-ids",
            &[("side", side(Side::B)), ("unresolved", Arg::from(3usize)), ("rows", Arg::from(10usize))],
        );
        assert!(zh.starts_with("B：10 个") && zh.contains("有 3 个"), "{zh}");
        assert_ne!(zh, runs[3].to_string());
    }
}
