//! `pypto-viewer gen <dir> --warning-cases`: one small damaged dataset per warning kind the
//! readers and analyses can emit (`<dir>/<kind key>/…`), for the tests that walk every kind:
//! the CLI's `report` must list the kind for its dataset (native test below) and the page must
//! show it with the dataset (`tests/warnings.test.mjs`). The match over [`WarningKind`] is
//! exhaustive, so a new kind does not build until it has a case here.

use std::path::Path;
use std::process::ExitCode;

use pypto_formats::WarningKind;

/// A records file (level, metadata and body are spliced in as JSON text).
fn records(level_key: &str, body: &str) -> String {
    format!(
        "{{{level_key}\n \"metadata\": {{\"clock_freq_hz\": 50000000, \"num_cores\": 2, \"core_types\": [\"aic\", \"aiv\"]}},\n {body}}}\n"
    )
}

/// Level 2, two joined tasks on two cores, with `rows` as its `aicore_tasks`.
fn level2(rows: &str) -> String {
    records("\"chip_swimlane_level\": 2,", &format!("\"aicore_tasks\": [{rows}],\n \"aicpu_tasks\": [[0, 1, 90, 210], [1, 1, 95, 260]]"))
}

const GOOD_ROWS: &str = "[0, 1, 1, 100, 200, 3], [1, 2, 1, 150, 250, 2]";

/// A healthy level-2 records file.
fn good_records() -> (&'static str, String) {
    ("chip_swimlane_records.json", level2(GOOD_ROWS))
}

/// A deps.json over tasks 1 and 2 (edge 1 → 2) with `task_extra` spliced into task 2.
fn deps(task_extra: &str, edges: &str) -> (&'static str, String) {
    (
        "deps.json",
        format!(
            "{{\"tasks\": [{{\"task_id\": 1, \"kernel_ids\": [0, -1, -1], \"block_num\": 1}},\n\
             {{\"task_id\": 2, \"kernel_ids\": [1, -1, -1]{task_extra}}}],\n \"edges\": [{edges}]}}\n"
        ),
    )
}

/// A host-orchestrated level-2 records file (host origin 1,000,000 ns, no clock anchors).
fn host_records() -> (&'static str, String) {
    (
        "chip_swimlane_records.json",
        format!(
            "{{\"chip_swimlane_level\": 2,\n \"metadata\": {{\"clock_freq_hz\": 50000000, \"num_cores\": 2, \"core_types\": [\"aic\", \"aiv\"], \
             \"orchestrator_source\": \"host\", \"host_orchestration_origin_ns\": 1000000}},\n \
             \"aicore_tasks\": [{GOOD_ROWS}],\n \"aicpu_tasks\": [[0, 1, 90, 210], [1, 1, 95, 260]]}}\n"
        ),
    )
}

/// A `host_phase_records.jsonl` of one healthy pass, then `more` (further lines).
fn host_phases(more: &str) -> (&'static str, String) {
    (
        "host_phase_records.jsonl",
        format!(
            "{{\"pid\": 11, \"inv\": 1, \"clock\": \"host_monotonic_ns\", \"dropped\": 0, \"records\": [\
             {{\"phase\": \"args\", \"start_ns\": 990000, \"end_ns\": 995000, \"detail\": 0, \"tid\": 11}}]}}\n{more}"
        ),
    )
}

/// A serving STRACE file holding `events` after a process and thread name.
fn strace(events: &str) -> (&'static str, String) {
    (
        "serving-strace-swimlane.json",
        format!(
            "{{\"traceEvents\": [\n\
             {{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 200, \"tid\": 0, \"args\": {{\"name\": \"serving-worker-0\"}}}},\n\
             {{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 200, \"tid\": 7, \"args\": {{\"name\": \"MainThread\"}}}},\n\
             {events}]}}\n"
        ),
    )
}

/// A CPM file holding `events` (its Worker View bars are pid 4; off-path bars are renamed
/// with a leading `·`).
fn cpm(name: &'static str, events: &str) -> (&'static str, String) {
    (name, format!("{{\"traceEvents\": [{events}]}}\n"))
}

/// The files of the dataset that makes `kind` appear.
#[allow(clippy::too_many_lines)] // one arm per kind
pub fn case(kind: WarningKind) -> Vec<(&'static str, String)> {
    use WarningKind as K;
    let rec = |s: String| ("chip_swimlane_records.json", s);
    match kind {
        K::RecordsNegativeTime => vec![rec(level2("[0, 1, 1, 100, 200, 3], [1, 2, 1, -7, 250, 2]"))],
        K::RecordsEndBeforeStart => vec![rec(level2("[0, 1, 1, 100, 200, 3], [1, 2, 1, 300, 250, 2]"))],
        K::RecordsImplausibleTime => vec![rec(level2("[0, 1, 1, 100, 200, 3], [1, 2, 1, 150, 9000000000000000, 2]"))],
        K::RecordsTwoTaskShapes => vec![rec(records(
            "\"version\": 2,",
            "\"tasks\": [{\"task_id\": 1, \"func_id\": 0, \"core_id\": 0, \"core_type\": \"aic\", \"start_time_us\": 1.0, \"end_time_us\": 2.0}],\n \"aicore_tasks\": []",
        ))],
        K::RecordsTwoSchedulerShapes => vec![rec(records(
            "\"chip_swimlane_level\": 2,",
            &format!("\"aicore_tasks\": [{GOOD_ROWS}],\n \"scheduler_tasks\": {{\"records\": [[0, 1, 90, 210, 0], [1, 1, 95, 260, 0]]}},\n \"aicpu_tasks\": []"),
        ))],
        K::RecordsMixedWidths => vec![rec(level2("[0, 1, 1, 100, 200, 3], [1, 2, 1, 150, 250]"))],
        K::RecordsLevelInferred => {
            vec![rec(records("", &format!("\"aicore_tasks\": [{GOOD_ROWS}],\n \"aicpu_tasks\": [[0, 1, 90, 210], [1, 1, 95, 260]]")))]
        }
        K::RecordsLevelAbove4 => vec![rec(records(
            "\"chip_swimlane_level\": 5,",
            &format!("\"aicore_tasks\": [{GOOD_ROWS}],\n \"aicpu_tasks\": [[0, 1, 90, 210], [1, 1, 95, 260]]"),
        ))],
        K::RecordsStreamIdTooLarge => vec![rec(records(
            "\"chip_swimlane_level\": 3,",
            &format!(
                "\"aicore_tasks\": [{GOOD_ROWS}],\n \"aicpu_tasks\": [[0, 1, 90, 210], [1, 1, 95, 260]],\n \
                 \"scheduler_records\": {{\"streams\": [{{\"scheduler_id\": 1000000, \"records\": []}}]}}"
            ),
        ))],
        K::RecordsMetricOutOfRange => vec![rec(records(
            "\"chip_swimlane_level\": 3,",
            &format!(
                "\"aicore_tasks\": [{GOOD_ROWS}],\n \"aicpu_tasks\": [[0, 1, 90, 210], [1, 1, 95, 260]],\n \
                 \"scheduler_records\": {{\"streams\": [{{\"scheduler_id\": 0, \"records\": [{{\"kind\": \"dispatch\", \"start_cycles\": 80, \"end_cycles\": 90}}],\n \
                 \"metrics\": [{{\"record_index\": 5, \"pop_hit\": 1}}]}}]}}"
            ),
        ))],
        K::RecordsStreamIdRepeated => vec![rec(records(
            "\"chip_swimlane_level\": 3,",
            &format!(
                "\"aicore_tasks\": [{GOOD_ROWS}],\n \"aicpu_tasks\": [[0, 1, 90, 210], [1, 1, 95, 260]],\n \
                 \"scheduler_records\": {{\"streams\": [\n  \
                 {{\"scheduler_id\": 0, \"records\": [{{\"kind\": \"dispatch\", \"start_cycles\": 80, \"end_cycles\": 90}}]}},\n  \
                 {{\"scheduler_id\": 0, \"records\": [{{\"kind\": \"dispatch\", \"start_cycles\": 85, \"end_cycles\": 95}}]}}]}}"
            ),
        ))],
        K::RecordsUnknownPhaseKind => vec![rec(records(
            "\"chip_swimlane_level\": 3,",
            &format!(
                "\"aicore_tasks\": [{GOOD_ROWS}],\n \"aicpu_tasks\": [[0, 1, 90, 210], [1, 1, 95, 260]],\n \
                 \"aicpu_scheduler_phases\": [[{{\"kind\": \"dispatch\", \"start_cycles\": 80, \"end_cycles\": 90}},\n  \
                 {{\"kind\": \"quantum_teleport\", \"start_cycles\": 91, \"end_cycles\": 95}}]]"
            ),
        ))],
        K::RecordsHostAndDeviceOrchestrator | K::ClockNotCalibrated => vec![rec(
            "{\"chip_swimlane_level\": 4,\n \"metadata\": {\"clock_freq_hz\": 50000000, \"orchestrator_source\": \"host\"},\n \
             \"aicore_tasks\": [[0, 1, 1, 100, 200, 3]],\n \
             \"host_orchestrator_phases\": [[{\"submit_idx\": 0, \"task_id\": 1, \"start_host_ns\": 10, \"end_host_ns\": 20}]],\n \
             \"aicpu_orchestrator_phases\": [[{\"phase\": \"orch_submit\", \"submit_idx\": 0, \"task_id\": 1, \"start_cycles\": 50, \"end_cycles\": 60}]]}\n"
                .to_owned(),
        )],
        K::DepsEmpty => vec![good_records(), ("deps.json", "{}\n".to_owned())],
        K::DepsNoKernelIds => vec![
            good_records(),
            ("deps.json", "{\"tasks\": [{\"task_id\": 1}, {\"task_id\": 2}],\n \"edges\": [{\"pred\": 1, \"succ\": 2}]}\n".to_owned()),
        ],
        K::DepsKernelIdBelowMinusOne => vec![
            good_records(),
            (
                "deps.json",
                "{\"tasks\": [{\"task_id\": 1, \"kernel_ids\": [0, -1, -1]},\n {\"task_id\": 2, \"kernel_ids\": [-5, -1, -1]}],\n \
                 \"edges\": [{\"pred\": 1, \"succ\": 2}]}\n"
                    .to_owned(),
            ),
        ],
        K::DepsBlockNumBelowOne => vec![good_records(), deps(", \"block_num\": -1", "{\"pred\": 1, \"succ\": 2}")],
        K::DepsEdgeToUnlistedTask => vec![good_records(), deps("", "{\"pred\": 1, \"succ\": 2}, {\"pred\": 2, \"succ\": 99}")],
        K::NameMapEntrySkipped => vec![
            good_records(),
            ("name_map.json", "{\"callable_id_to_name\": {\"0\": \"kernel_a\",\n \"99999999999999999999\": \"kernel_b\"}}\n".to_owned()),
        ],
        K::NameMapNull => vec![good_records(), ("name_map.json", "{\"level\": 2, \"callable_id_to_name\": null}\n".to_owned())],
        K::CpmTaskOnAndOffPath => vec![
            good_records(),
            cpm(
                "CPM_static.json",
                "{\"name\": \"k\", \"ph\": \"X\", \"pid\": 4, \"tid\": 0, \"ts\": 1, \"dur\": 1, \"args\": {\"taskId\": 1}},\n \
                 {\"name\": \"\\u00b7k\", \"ph\": \"X\", \"pid\": 4, \"tid\": 0, \"ts\": 3, \"dur\": 1, \"args\": {\"taskId\": 1}}",
            ),
        ],
        K::CpmNoTaskBars => vec![good_records(), cpm("CPM_static.json", "{\"name\": \"k\", \"ph\": \"X\", \"pid\": 9, \"tid\": 0, \"ts\": 1, \"dur\": 1}")],
        K::TraceBadTaskIds => vec![strace(
            "{\"name\": \"step\", \"ph\": \"X\", \"pid\": 200, \"tid\": 7, \"ts\": 1, \"dur\": 5, \"args\": {\"taskId\": \"abc\"}}",
        )],
        K::TraceUnmatchedBegin => vec![strace(
            "{\"name\": \"step\", \"ph\": \"B\", \"pid\": 200, \"tid\": 7, \"ts\": 1},\n \
             {\"name\": \"other\", \"ph\": \"X\", \"pid\": 200, \"tid\": 7, \"ts\": 2, \"dur\": 5}",
        )],
        K::TraceUnmatchedEnd => vec![strace(
            "{\"name\": \"step\", \"ph\": \"E\", \"pid\": 200, \"tid\": 7, \"ts\": 1},\n \
             {\"name\": \"other\", \"ph\": \"X\", \"pid\": 200, \"tid\": 7, \"ts\": 2, \"dur\": 5}",
        )],
        K::TraceNegativeDuration => vec![strace("{\"name\": \"step\", \"ph\": \"X\", \"pid\": 200, \"tid\": 7, \"ts\": 10, \"dur\": -5}")],
        K::TraceTimeOutOfRange => vec![strace(
            "{\"name\": \"step\", \"ph\": \"X\", \"pid\": 200, \"tid\": 7, \"ts\": 1, \"dur\": 5},\n \
             {\"name\": \"far\", \"ph\": \"X\", \"pid\": 200, \"tid\": 7, \"ts\": 1e30, \"dur\": 5}",
        )],
        K::HostPhaseSkipped => vec![host_records(), host_phases("{\"pid\": 11, \"inv\": 2, \"records\": [{\"phase\": \"args\", \"start_ns\"\n")],
        K::HostPhaseImplausibleTime => vec![
            host_records(),
            host_phases("{\"pid\": 11, \"inv\": 2, \"records\": [{\"phase\": \"args\", \"start_ns\": 1200000, \"end_ns\": 1100000}]}\n"),
        ],
        K::HostPhaseRecordsDropped => vec![
            host_records(),
            host_phases("{\"pid\": 11, \"inv\": 2, \"dropped\": 3, \"records\": [{\"phase\": \"args\", \"start_ns\": 1200000, \"end_ns\": 1300000}]}\n"),
        ],
        K::HostPhaseNoHostClock => vec![good_records(), host_phases("")],
        K::JoinDuplicateKey => vec![rec(level2("[0, 1, 1, 100, 200, 3], [0, 2, 1, 150, 250, 2]"))],
        K::JoinUnpartneredAicpuRows => vec![rec(records(
            "\"chip_swimlane_level\": 2,",
            &format!("\"aicore_tasks\": [{GOOD_ROWS}],\n \"aicpu_tasks\": [[0, 1, 90, 210], [1, 1, 95, 260], [1, 7, 300, 400]]"),
        ))],
        K::JoinNoAicpuRows => vec![rec(records("\"chip_swimlane_level\": 2,", &format!("\"aicore_tasks\": [{GOOD_ROWS}]")))],
        K::DummyTaskWithoutRecord => vec![
            rec(records(
                "\"chip_swimlane_level\": 3,",
                &format!(
                    "\"aicore_tasks\": [{GOOD_ROWS}],\n \"aicpu_tasks\": [[0, 1, 90, 210], [1, 1, 95, 260]],\n \
                     \"aicpu_scheduler_phases\": [[{{\"kind\": \"dispatch\", \"start_cycles\": 80, \"end_cycles\": 90}}]]"
                ),
            )),
            (
                "deps.json",
                "{\"tasks\": [{\"task_id\": 1, \"kernel_ids\": [0, -1, -1]},\n {\"task_id\": 2, \"kernel_ids\": [1, -1, -1]},\n \
                 {\"task_id\": 3, \"kernel_ids\": [-1, -1, -1]}],\n \"edges\": [{\"pred\": 1, \"succ\": 3}, {\"pred\": 3, \"succ\": 2}]}\n"
                    .to_owned(),
            ),
        ],
        K::CriticalPathFromMicroseconds => vec![rec(
            "{\"version\": 2, \"tasks\": [\n  {\"task_id\": 1, \"func_id\": 0, \"core_id\": 0, \"core_type\": \"aic\", \"start_time_us\": 1.0, \"end_time_us\": 2.0}]}\n"
                .to_owned(),
        )],
        K::CriticalPathSeveralEpochs => vec![rec(records(
            "\"chip_swimlane_level\": 2,",
            "\"aicore_tasks\": [[0, 1, 1, 100, 200, 3, 0], [1, 2, 1, 150, 250, 2, 1]],\n \
             \"scheduler_tasks\": {\"records\": [[0, 1, 90, 210, 0], [1, 1, 95, 260, 1]]}",
        ))],
        K::CriticalPathWithoutDeps => vec![good_records()],
        K::CriticalPathFailed => vec![rec(records("\"chip_swimlane_level\": 1,", "\"aicore_tasks\": []"))],
        K::EdgeModeFallback => vec![good_records(), deps("", "{\"pred\": 1, \"succ\": 2}, {\"pred\": 2, \"succ\": 1}")],
    }
}

/// Writes every case under `dir/<kind key>/`.
pub fn write_all(dir: &Path) -> std::io::Result<usize> {
    let mut written = 0;
    for &kind in WarningKind::ALL {
        let files = case(kind);
        let sub = dir.join(kind.key());
        std::fs::create_dir_all(&sub)?;
        for (name, text) in files {
            std::fs::write(sub.join(name), text)?;
        }
        written += 1;
    }
    Ok(written)
}

/// `gen <dir> --warning-cases`.
pub fn run(args: &[&str]) -> ExitCode {
    let Some(dir) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("pypto-viewer gen: usage: gen <dir> --warning-cases");
        return ExitCode::from(2);
    };
    match write_all(Path::new(dir)) {
        Ok(n) => {
            println!("wrote {dir}: {n} datasets, one per warning kind");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pypto-viewer gen: {dir}: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
#[allow(clippy::expect_used)] // a test fails loudly on a setup error
mod tests {
    use super::*;
    use serde_json::Value;

    /// `report --json` on the cases: each dataset lists its kind.
    #[test]
    fn report_lists_every_kind_on_its_case() {
        let dir = std::env::temp_dir().join(format!("pypto-warning-cases-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        write_all(&dir).expect("write the cases");
        let report = crate::report::report_json(&dir, "cases").expect("report");
        let datasets = report.get("datasets").and_then(Value::as_array).expect("datasets");
        let mut missing = Vec::new();
        for &kind in WarningKind::ALL {
            let in_case = |p: &str| p == kind.key() || p.strip_prefix(kind.key()).is_some_and(|rest| rest.starts_with('/'));
            let ds = datasets.iter().find(|d| d.get("path").and_then(Value::as_str).is_some_and(in_case));
            let kinds: Vec<&str> = ds
                .and_then(|d| d.get("warning_kinds").or_else(|| d.get("summary").and_then(|s| s.get("warning_kinds"))))
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if !kinds.contains(&kind.key()) {
                missing.push(format!("{}: got {kinds:?}", kind.key()));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        assert!(missing.is_empty(), "kinds the report does not list on their case:\n{}", missing.join("\n"));
    }

    /// A catalogue of the page (`crates/app/i18n/<lang>/warnings.ftl`) as the page sets it up.
    fn catalogue(lang: &str, text: &str) -> fluent_bundle::FluentBundle<fluent_bundle::FluentResource> {
        let tag: unic_langid::LanguageIdentifier = lang.parse().expect("language tag");
        let mut bundle = fluent_bundle::FluentBundle::new(vec![tag]);
        bundle.set_use_isolating(false);
        let resource = fluent_bundle::FluentResource::try_new(text.to_owned()).expect("the catalogue parses");
        bundle.add_resource(resource).expect("no duplicate ids");
        bundle
    }

    /// The page words a warning with the catalogue's `warning-<kind>` and the warning's
    /// arguments: on one damaged dataset per kind, the English catalogue says every warning
    /// the readers and analyses produce exactly as its `message` (what `report` prints), and
    /// the Chinese one says it in Chinese without a missing argument.
    #[test]
    fn the_page_catalogue_says_every_real_warning_as_its_message() {
        use fluent_bundle::{FluentArgs, FluentValue};
        use pypto_formats::Warning;
        let en = catalogue("en", include_str!("../../app/i18n/en/warnings.ftl"));
        let zh = catalogue("zh-CN", include_str!("../../app/i18n/zh-CN/warnings.ftl"));
        let dir = std::env::temp_dir().join(format!("pypto-warning-words-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        write_all(&dir).expect("write the cases");
        let report = crate::report::report_json(&dir, "cases").expect("report");
        let _ = std::fs::remove_dir_all(&dir);
        let datasets = report.get("datasets").and_then(Value::as_array).expect("datasets");
        let mut seen = std::collections::BTreeSet::new();
        let mut problems = Vec::new();
        for ds in datasets {
            let details = ds.get("warning_details").or_else(|| ds.get("summary").and_then(|s| s.get("warning_details")));
            for value in details.and_then(Value::as_array).into_iter().flatten() {
                let w: Warning = serde_json::from_value(value.clone()).expect("a warning");
                seen.insert(w.kind);
                let mut args = FluentArgs::new();
                for (name, arg) in &w.args {
                    match arg {
                        #[allow(clippy::cast_precision_loss)] // small counts
                        pypto_formats::WarningArg::Count(n) => args.set(name.clone(), FluentValue::from(*n as f64)),
                        pypto_formats::WarningArg::Text(t) => args.set(name.clone(), FluentValue::from(t.clone())),
                    }
                }
                let id = format!("warning-{}", w.kind.key());
                for (lang, bundle) in [("en", &en), ("zh-CN", &zh)] {
                    let Some(pattern) = bundle.get_message(&id).and_then(|m| m.value()) else {
                        problems.push(format!("{lang}: no message {id}"));
                        continue;
                    };
                    let mut errors = Vec::new();
                    let text = bundle.format_pattern(pattern, Some(&args), &mut errors);
                    if !errors.is_empty() {
                        problems.push(format!("{lang}: {id}: {errors:?} (args {:?})", w.args));
                    }
                    if lang == "en" && text != w.message {
                        problems.push(format!("{id}: the catalogue says\n  {text}\nthe reader says\n  {}", w.message));
                    }
                    if lang == "zh-CN" && !text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) {
                        problems.push(format!("{id}: not Chinese: {text}"));
                    }
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        let missing: Vec<&str> = WarningKind::ALL.iter().filter(|k| !seen.contains(k)).map(|k| k.key()).collect();
        assert!(missing.is_empty(), "kinds no case produced: {missing:?}");
    }
}
