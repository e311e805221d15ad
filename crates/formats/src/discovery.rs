//! Dataset discovery (toolkit-features.md §2): groups the files of an opened folder into
//! datasets the viewer can show, for the page's sidebar and the CLI report.
//!
//! Rules:
//! - Hidden files/directories (a path segment starting with '.'), `node_modules` and the
//!   manifest file are skipped (counted in `ignored_files`).
//! - Each `*strace-swimlane*.json` file is its own `ServingStrace` dataset (path = the file).
//! - Each directory whose name starts with `passes_dump` is a `PassDump` dataset holding its
//!   direct `.py` snapshots and `.log` files (validated with [`crate::passes_dump`]).
//! - Every other directory holding any runtime artifact is one `Runtime` dataset. Artifacts:
//!   records (`chip_swimlane_records*.json`, `l2_swimlane_records*.json`,
//!   `l2_perf_records*.json`, `perf_swimlane_*.json`), `deps*.json` (not `deps_viewer*`),
//!   `name_map*.json`, `CPM_static*.json`, `CPM_observed*.json`, `merged_swimlane*.json`,
//!   `host_phase_records.jsonl`.
//! - When several candidates exist, the chosen one is recorded (`records`, `deps`,
//!   `name_map`): an exact canonical name (`chip_swimlane_records.json`, `deps.json`) wins,
//!   otherwise the lexicographically greatest name, which is the newest for timestamped
//!   names (`name_map_<YYYYMMDD_HHMMSS>.json`). Modification times are not available.
//! - Multi-rank trees `.../rank<N>/d<K>/` (or `.../rank<N>/`) get `group` = the directory
//!   above `rank<N>` ("" = root).
//! - A runtime dataset's pass dumps (`pass_dumps`, the compile of the same case, for the
//!   swimlane's "IR Pass Trace" / "Memory Map"): the `passes_dump*` datasets in its own
//!   directory, else in its parent (`build_output/<case>/{dfx_outputs,passes_dump_<ts>}`), else
//!   beside the `dfx_outputs` directory it is under (multi-rank `dfx_outputs/rank0/d0`) — the
//!   nearest level that has any. Several: the newest first, by the timestamp in the dump's
//!   directory name (its digits, compared as a number; a name without digits last), then by
//!   name, greatest first; a note names the one used and the others.
//! - Datasets are sorted by path (then kind).

// Tool-written names are exact lowercase extensions; a case-insensitive match would accept
// files the producers never write.
#![allow(clippy::case_sensitive_file_extension_comparisons)]

use crate::passes_dump;

pub use pypto_vocab::{DatasetKind, Feature, FileRole};
use pypto_vocab::{DiscoveryNote, NoteFiles};

/// One file of a dataset: its role and its index in the `entries` given to [`discover`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct DatasetFile {
    pub role: FileRole,
    pub entry_index: usize,
}

/// One dataset.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Dataset {
    pub kind: DatasetKind,
    /// Directory ("" = root) for `Runtime`/`PassDump`; the file path for `ServingStrace`.
    pub path: String,
    /// Multi-rank group: the directory above `rank<N>`.
    pub group: Option<String>,
    /// Files sorted by path.
    pub files: Vec<DatasetFile>,
    /// Views the files make possible.
    pub views: Vec<Feature>,
    /// One sentence per missing sibling and what it costs.
    pub missing: Vec<String>,
    /// Entry index of the records file to load (Runtime).
    pub records: Option<usize>,
    /// Entry index of the deps file to load (Runtime).
    pub deps: Option<usize>,
    /// Entry index of the name map to use (Runtime): see the module rule.
    pub name_map: Option<usize>,
    /// Informational notes (which of several candidates was chosen, ...).
    pub notes: Vec<pypto_vocab::DiscoveryNote>,
    /// Listing problems (`PassDump` validation).
    pub problems: Vec<String>,
    /// Runtime: the paths of the pass dumps of the same case, the one to use first (see the
    /// module rule).
    pub pass_dumps: Vec<String>,
}

/// The result of [`discover`].
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Discovery {
    pub datasets: Vec<Dataset>,
    /// Files that belong to no dataset (including hidden ones).
    pub ignored_files: u64,
}

fn split(path: &str) -> (&str, &str) {
    match path.rfind('/') {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => ("", path),
    }
}

fn is_records(name: &str) -> bool {
    name.ends_with(".json")
        && (name.starts_with("chip_swimlane_records")
            || name.starts_with("l2_swimlane_records")
            || name.starts_with("l2_perf_records")
            || name.starts_with("perf_swimlane_"))
}

/// The runtime role of a file name, if it is a runtime artifact.
pub fn runtime_role(name: &str) -> Option<FileRole> {
    if is_records(name) {
        Some(FileRole::Records)
    } else if name.starts_with("deps") && !name.starts_with("deps_viewer") && name.ends_with(".json") {
        Some(FileRole::Deps)
    } else if name.starts_with("name_map") && name.ends_with(".json") {
        Some(FileRole::NameMap)
    } else if name.starts_with("CPM_static") && name.ends_with(".json") {
        Some(FileRole::CpmStatic)
    } else if name.starts_with("CPM_observed") && name.ends_with(".json") {
        Some(FileRole::CpmObserved)
    } else if name.starts_with("merged_swimlane") && name.ends_with(".json") {
        Some(FileRole::MergedSwimlane)
    } else if name == "host_phase_records.jsonl" {
        Some(FileRole::HostPhaseRecords)
    } else {
        None
    }
}

fn is_strace(name: &str) -> bool {
    name.contains("strace-swimlane") && name.ends_with(".json")
}

fn is_hidden(path: &str) -> bool {
    path.split('/').any(|s| s.starts_with('.') || s == "node_modules")
}

fn numbered(seg: &str, prefix: &str) -> bool {
    seg.strip_prefix(prefix).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The multi-rank group of a directory, if it is `.../rank<N>[/d<K>]`.
fn group_of(dir: &str) -> Option<String> {
    let segs: Vec<&str> = if dir.is_empty() { Vec::new() } else { dir.split('/').collect() };
    let n = segs.len();
    let rank_at = match segs.as_slice() {
        [.., r, d] if numbered(r, "rank") && numbered(d, "d") => n - 2,
        [.., r] if numbered(r, "rank") => n - 1,
        _ => return None,
    };
    Some(segs.get(..rank_at).map(|s| s.join("/")).unwrap_or_default())
}

/// Picks the canonical name if present, else the lexicographically greatest.
fn choose(entries: &[(String, u64)], idxs: &[usize], canonical: &str) -> Option<usize> {
    let name = |i: usize| entries.get(i).map_or("", |e| split(&e.0).1);
    idxs.iter().copied().find(|&i| name(i) == canonical).or_else(|| idxs.iter().copied().max_by(|&a, &b| name(a).cmp(name(b))))
}

/// Groups folder entries `(relative path with '/', size_bytes)` into datasets.
#[allow(clippy::too_many_lines)] // one linear pass per dataset kind; splitting hides the rules
pub fn discover(entries: &[(String, u64)]) -> Discovery {
    use std::collections::BTreeMap;
    let mut out = Discovery::default();
    // dir -> (files, is passes_dump)
    let mut runtime: BTreeMap<&str, Vec<(FileRole, usize)>> = BTreeMap::new();
    let mut dumps: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, (path, _)) in entries.iter().enumerate() {
        let path = path.trim_start_matches("./");
        let (dir, name) = split(path);
        if is_hidden(path) || name == crate::manifest::FILE_NAME || name.is_empty() {
            out.ignored_files += 1;
            continue;
        }
        let dir_name = split(dir).1;
        if dir_name.starts_with("passes_dump") {
            dumps.entry(dir).or_default().push(i);
            continue;
        }
        if is_strace(name) {
            out.datasets.push(Dataset {
                kind: DatasetKind::ServingStrace,
                path: path.to_owned(),
                group: group_of(dir),
                files: vec![DatasetFile { role: FileRole::StraceTrace, entry_index: i }],
                views: vec![Feature::ServingStraceSwimlane],
                missing: Vec::new(),
                records: None,
                deps: None,
                name_map: None,
                notes: Vec::new(),
                problems: Vec::new(),
                pass_dumps: Vec::new(),
            });
            continue;
        }
        match runtime_role(name) {
            Some(role) => runtime.entry(dir).or_default().push((role, i)),
            None => out.ignored_files += 1,
        }
    }

    for (dir, files) in dumps {
        let names: Vec<&str> = files.iter().filter_map(|&i| entries.get(i)).map(|e| split(&e.0).1).collect();
        let listing = passes_dump::validate(&names);
        let mut ds_files = Vec::new();
        for &i in &files {
            let name = entries.get(i).map_or("", |e| split(&e.0).1);
            let role = if name == passes_dump::FRONTEND {
                Some(FileRole::PassFrontend)
            } else if listing.snapshots.iter().any(|s| s.file_name == name) {
                Some(FileRole::PassSnapshot)
            } else if name.ends_with(".log") {
                Some(FileRole::PassLog)
            } else {
                None
            };
            match role {
                Some(role) => ds_files.push(DatasetFile { role, entry_index: i }),
                None => out.ignored_files += 1,
            }
        }
        sort_files(entries, &mut ds_files);
        let mut views = Vec::new();
        let mut missing = Vec::new();
        if !listing.snapshots.is_empty() || listing.has_frontend {
            views.push(Feature::IrPassTrace);
        }
        if listing.snapshots.iter().any(|s| s.file_name.ends_with("after_AllocateMemoryAddr.py")) {
            views.push(Feature::MemoryReuse);
        } else {
            missing.push("no *after_AllocateMemoryAddr.py: no memory reuse map".to_owned());
        }
        if !listing.has_frontend {
            missing.push(format!("no {}: the first pass cannot be compared", passes_dump::FRONTEND));
        }
        out.datasets.push(Dataset {
            kind: DatasetKind::PassDump,
            path: dir.to_owned(),
            group: None,
            files: ds_files,
            views,
            missing,
            records: None,
            deps: None,
            name_map: None,
            notes: vec![pypto_vocab::DiscoveryNote::PassSnapshots { count: listing.snapshots.len() }],
            problems: listing.problems,
            pass_dumps: Vec::new(),
        });
    }

    for (dir, files) in runtime {
        let of = |role: FileRole| -> Vec<usize> { files.iter().filter(|f| f.0 == role).map(|f| f.1).collect() };
        let recs = of(FileRole::Records);
        let deps = of(FileRole::Deps);
        let maps = of(FileRole::NameMap);
        let cpm = !of(FileRole::CpmStatic).is_empty() || !of(FileRole::CpmObserved).is_empty();
        let records = choose(entries, &recs, "chip_swimlane_records.json");
        let deps_i = choose(entries, &deps, "deps.json");
        let name_map = choose(entries, &maps, "");
        let name = |i: Option<usize>| i.and_then(|i| entries.get(i)).map_or(String::new(), |e| split(&e.0).1.to_owned());
        let mut notes = Vec::new();
        if recs.len() > 1 {
            notes.push(DiscoveryNote::SeveralFiles { files: NoteFiles::Records, count: recs.len(), using: name(records) });
        }
        if deps.len() > 1 {
            notes.push(DiscoveryNote::SeveralFiles { files: NoteFiles::Deps, count: deps.len(), using: name(deps_i) });
        }
        if maps.len() > 1 {
            notes.push(DiscoveryNote::SeveralFiles { files: NoteFiles::NameMap, count: maps.len(), using: name(name_map) });
        }
        let mut views = Vec::new();
        let mut missing = Vec::new();
        let (has_r, has_d, has_n) = (records.is_some(), deps_i.is_some(), name_map.is_some());
        if has_r {
            views.extend([Feature::ChipSwimlane, Feature::WorkerView, Feature::SchedulerView]);
        }
        if has_d {
            views.push(Feature::TaskDependencyGraph);
        }
        if has_r && has_n {
            views.push(Feature::FunctionPerformance);
        }
        if has_r && has_d {
            views.push(Feature::PerformanceAnalysis);
        }
        if has_r && cpm {
            views.push(Feature::CriticalPathHighlight);
        }
        if has_r && !of(FileRole::HostPhaseRecords).is_empty() {
            views.push(Feature::HostPrepareLanes);
        }
        if !has_r {
            missing.push(if has_d {
                "no chip_swimlane_records.json: no swimlane (deps.json alone gives the dependency graph)".to_owned()
            } else {
                "no chip_swimlane_records.json: no swimlane".to_owned()
            });
        }
        if has_r && !has_d {
            missing.push("no deps.json: function names and dependency lines unavailable".to_owned());
        }
        if (has_r || has_d) && !has_n {
            missing.push("no name_map*.json: functions shown by id (func_N)".to_owned());
        }
        let mut ds_files: Vec<DatasetFile> = files.iter().map(|&(role, entry_index)| DatasetFile { role, entry_index }).collect();
        sort_files(entries, &mut ds_files);
        out.datasets.push(Dataset {
            kind: DatasetKind::Runtime,
            path: dir.to_owned(),
            group: group_of(dir),
            files: ds_files,
            views,
            missing,
            records,
            deps: deps_i,
            name_map,
            notes,
            problems: Vec::new(),
            pass_dumps: Vec::new(),
        });
    }
    link_pass_dumps(&mut out.datasets);
    out.datasets.sort_by(|a, b| a.path.cmp(&b.path).then(a.kind.cmp(&b.kind)));
    out
}

/// The directories whose `passes_dump*` children belong to a runtime directory, nearest first:
/// itself, its parent, and the parent of the `dfx_outputs` directory it is under.
fn dump_levels(dir: &str) -> Vec<String> {
    let mut levels = vec![dir.to_owned(), split(dir).0.to_owned()];
    if !dir.is_empty() {
        let segs: Vec<&str> = dir.split('/').collect();
        if let Some(i) = segs.iter().rposition(|s| *s == "dfx_outputs") {
            levels.push(segs.get(..i).map(|s| s.join("/")).unwrap_or_default());
        }
    }
    levels.dedup();
    levels
}

/// The timestamp of a dump directory's name: its digits (`None` without any).
fn dump_timestamp(path: &str) -> Option<String> {
    let digits: String = split(path).1.chars().filter(char::is_ascii_digit).collect();
    let trimmed = digits.trim_start_matches('0');
    (!digits.is_empty()).then(|| trimmed.to_owned())
}

/// Newest first: the longer (greater) timestamp, then the greater name.
fn newest_first(a: &str, b: &str) -> std::cmp::Ordering {
    let key = |p: &str| dump_timestamp(p).map(|t| (t.len(), t));
    key(b).cmp(&key(a)).then_with(|| split(b).1.cmp(split(a).1))
}

/// Fills each runtime dataset's `pass_dumps` (the module rule) and notes the choice.
fn link_pass_dumps(datasets: &mut [Dataset]) {
    let dumps: Vec<String> = datasets.iter().filter(|d| d.kind == DatasetKind::PassDump).map(|d| d.path.clone()).collect();
    if dumps.is_empty() {
        return;
    }
    for d in datasets.iter_mut().filter(|d| d.kind == DatasetKind::Runtime) {
        let found = dump_levels(&d.path).into_iter().find_map(|level| {
            let mut here: Vec<String> = dumps.iter().filter(|p| split(p).0 == level).cloned().collect();
            (!here.is_empty()).then(|| {
                here.sort_by(|a, b| newest_first(a, b));
                here
            })
        });
        let Some(found) = found else { continue };
        if let Some((first, others)) = found.split_first() {
            d.notes.push(if others.is_empty() {
                DiscoveryNote::PassDump { path: first.clone() }
            } else {
                DiscoveryNote::PassDumps { count: found.len(), using: first.clone(), others: others.to_vec() }
            });
        }
        d.pass_dumps = found;
    }
}

fn sort_files(entries: &[(String, u64)], files: &mut [DatasetFile]) {
    files.sort_by(|a, b| {
        let pa = entries.get(a.entry_index).map_or("", |e| e.0.as_str());
        let pb = entries.get(b.entry_index).map_or("", |e| e.0.as_str());
        pa.cmp(pb)
    });
}
