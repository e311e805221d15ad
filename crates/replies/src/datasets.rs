//! Opening a folder, as the page's `session` hears it: the datasets discovery found (one
//! [`DatasetInfo`] each) and each dataset's parsed summary (records, deps.json, pass dump,
//! file errors with their position, and its warnings — the same list the CLI's `report`
//! prints).

use pypto_analysis::edge_modes::cycle_fallback_warning;
use pypto_analysis::summary::RecordsFacts;
use pypto_formats::discovery::{Dataset, Discovery};
use pypto_formats::{deps, passes_dump, FormatError, Warning, WarningKind};
use pypto_protocol::datasets::{
    DatasetFile, DatasetInfo, DatasetSummary, DepsSummary, EntryMeta, FileError, PassDumpSummary, RecordsSummary,
};
use pypto_protocol::EdgeMode;

/// A reader's error as the sidebar shows it (path, line, column, message).
pub fn file_error(err: FormatError) -> FileError {
    FileError { path: err.path, line: err.line, column: err.column, message: err.message, read_failed: false }
}

/// A file whose bytes could not be read (`message` says why).
pub fn read_error(path: &str, message: &str) -> FileError {
    FileError { path: path.to_string(), line: 0, column: 0, message: format!("could not read the file: {message}"), read_failed: true }
}

/// One [`DatasetInfo`] per dataset discovery found among `entries` (ids in discovery order).
pub fn dataset_infos(found: &Discovery, entries: &[EntryMeta]) -> Vec<DatasetInfo> {
    found
        .datasets
        .iter()
        .enumerate()
        .map(|(i, d)| DatasetInfo {
            dataset_id: i as u32,
            kind: d.kind,
            path: d.path.clone(),
            group: d.group.clone(),
            files: d
                .files
                .iter()
                .filter_map(|f| {
                    entries.get(f.entry_index).map(|e| DatasetFile { role: f.role, path: e.path.clone(), size_bytes: e.size_bytes })
                })
                .collect(),
            views: d.views.clone(),
            missing: d.missing.clone(),
            notes: d.notes.clone(),
            pass_dumps: d.pass_dumps.clone(),
            comparison: false,
        })
        .collect()
}

/// A pass dump's summary: its snapshots (the files directly in its directory) validated.
pub fn pass_dump_summary(dataset: &Dataset, entries: &[EntryMeta]) -> DatasetSummary {
    let prefix = if dataset.path.is_empty() { String::new() } else { format!("{}/", dataset.path) };
    let names: Vec<&str> = entries.iter().filter_map(|e| e.path.strip_prefix(&prefix)).filter(|rest| !rest.contains('/')).collect();
    let listing = passes_dump::validate(&names);
    DatasetSummary {
        pass_dump: Some(PassDumpSummary {
            pass_count: listing.snapshots.len() as u32,
            has_frontend: listing.has_frontend,
            problems: listing.problems,
        }),
        ..DatasetSummary::default()
    }
}

/// The facts of a parsed records file at `path`.
pub fn records_summary(path: String, facts: &RecordsFacts) -> RecordsSummary {
    RecordsSummary {
        path,
        level: facts.level,
        format: facts.format.clone(),
        clock_freq_hz: facts.clock_freq_hz,
        num_cores: facts.num_cores,
        task_count: facts.task_count as u64,
        aicore_rows: facts.aicore_rows as u64,
        first_start_us: facts.first_start_us,
        last_end_us: facts.last_end_us,
        span_us: facts.span_us,
        scheduler_threads: facts.scheduler_threads as u32,
    }
}

/// Where a runtime dataset's warnings come from: each file's path and its reader's warnings,
/// and the analyses' (the join, task kinds, critical paths, the graph's edge modes).
#[derive(Default)]
pub struct WarningSources<'a> {
    pub deps: Option<(&'a str, &'a [Warning])>,
    pub name_map: Option<(&'a str, &'a [Warning])>,
    pub records: Option<(&'a str, &'a [Warning])>,
    /// `host_phase_records.jsonl`: its reader's warnings, then what could not be placed
    /// ([`pypto_analysis::host_phases::place`]).
    pub host_phases: Option<(&'a str, &'a [Warning])>,
    pub analyses: &'a [Warning],
}

/// The graph's warnings when deps.json's edges form a cycle: each reduction mode falls back to
/// the full graph (the reference's stderr line per mode).
pub fn edge_mode_warnings(has_cycle: bool) -> Vec<Warning> {
    if !has_cycle {
        return Vec::new();
    }
    EdgeMode::ALL
        .into_iter()
        .filter(|&m| m != EdgeMode::Full)
        .map(|m| Warning::analysis(WarningKind::EdgeModeFallback, cycle_fallback_warning(m)).text("mode", m.as_str()))
        .collect()
}

/// One runtime dataset's warnings, as the page lists them with the dataset and
/// `pypto-viewer report` prints them: deps.json's, the name map's, the records' (reader, then
/// join), the host phase file's, then the analyses'. Each names its file — an analysis's warning the records file (or
/// deps.json without records) — and each appears once.
pub fn runtime_warnings(sources: &WarningSources<'_>) -> Vec<Warning> {
    let analysis_file = sources.records.or(sources.deps).map_or("", |(path, _)| path);
    let mut out: Vec<Warning> = Vec::new();
    let files = [sources.deps, sources.name_map, sources.records, sources.host_phases];
    let listed = files.iter().flatten().flat_map(|(path, ws)| ws.iter().map(move |w| w.clone().in_file(path)));
    for w in listed.chain(sources.analyses.iter().map(|w| w.clone().in_file(analysis_file))) {
        if !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// The counts of a parsed deps.json at `path`.
pub fn deps_summary(path: String, parsed: &deps::Deps) -> DepsSummary {
    DepsSummary { path, tasks: parsed.task_count() as u64, edges: parsed.edge_count() as u64, tensors: parsed.tensor_count() as u64 }
}
