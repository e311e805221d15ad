//! Fixture helpers of the replies' tests: the runtime captures in `fixtures/runtime`, loaded
//! the way the worker loads them (discovery picks the records, deps.json, name map and CPM
//! files; the load job builds the resident model; the graph re-reads deps.json whole), and
//! the reference tools' outputs beside them.

#![allow(dead_code, clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use pypto_analysis::runtime_model::{CpmInputs, RuntimeModel};
use pypto_analysis::summary::RecordsFacts;
use pypto_formats::discovery::{self, Dataset, DatasetKind, FileRole};
use pypto_formats::{cpm, deps, name_map, records};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// Every capture directory under `fixtures/runtime`, sorted.
pub fn runtime_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(fixtures().join("runtime")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    assert!(dirs.len() >= 18, "expected the 18 runtime fixtures, found {}", dirs.len());
    dirs
}

pub fn name_of(dir: &Path) -> String {
    dir.file_name().unwrap().to_string_lossy().into_owned()
}

/// The files under `root`, relative, `/`-separated, with their sizes (what the page walks).
pub fn walk(root: &Path) -> Vec<(String, u64)> {
    fn go(root: &Path, dir: &Path, out: &mut Vec<(String, u64)>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                go(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                out.push((rel, p.metadata().unwrap().len()));
            }
        }
    }
    let mut out = Vec::new();
    go(root, root, &mut out);
    out
}

/// A runtime capture as the worker holds it.
pub struct Capture {
    pub dir: PathBuf,
    pub name: String,
    pub dataset: Dataset,
    pub entries: Vec<(String, u64)>,
    pub model: Option<RuntimeModel>,
    pub facts: Option<RecordsFacts>,
    /// deps.json, parsed whole (as the graph reads it).
    pub deps: Option<deps::Deps>,
    /// The name map when there is no model (the model holds it otherwise).
    pub names: Option<name_map::NameMap>,
    pub records: Option<records::ChipRecords>,
    pub cpm: CpmInputs,
}

impl Capture {
    pub fn path_of(&self, index: Option<usize>) -> Option<PathBuf> {
        index.and_then(|i| self.entries.get(i)).map(|e| self.dir.join(&e.0))
    }

    /// The name map the graph uses: the model's, else the one read beside deps.json.
    pub fn name_map(&self) -> Option<&name_map::NameMap> {
        self.model.as_ref().and_then(|m| m.names.as_ref()).or(self.names.as_ref())
    }

    /// A reference file beside the capture, if present.
    pub fn reference(&self, file: &str) -> Option<String> {
        std::fs::read_to_string(self.dir.join(file)).ok()
    }
}

/// Loads the runtime dataset of capture `dir` (the folder's only dataset, at its root).
pub fn load(dir: &Path) -> Capture {
    let entries = walk(dir);
    let found = discovery::discover(&entries);
    let dataset = found.datasets.into_iter().find(|d| d.kind == DatasetKind::Runtime).expect("a runtime dataset");
    load_dataset(dir, entries, dataset)
}

/// Loads `dataset`, one of the datasets discovered in the folder `dir` (its `entries`).
pub fn load_dataset(dir: &Path, entries: Vec<(String, u64)>, dataset: Dataset) -> Capture {
    let read = |i: usize| std::fs::read(dir.join(&entries[i].0)).unwrap();
    let deps = dataset.deps.map(|i| deps::parse(&entries[i].0, &read(i)).unwrap());
    let names = dataset.name_map.map(|i| name_map::parse(&entries[i].0, &read(i)).unwrap());
    let mut cpm_inputs = CpmInputs::default();
    for f in &dataset.files {
        let slot = match f.role {
            FileRole::CpmStatic => &mut cpm_inputs.static_path,
            FileRole::CpmObserved => &mut cpm_inputs.observed_path,
            _ => continue,
        };
        let path = &entries[f.entry_index].0;
        let parsed = cpm::read_path(path, &read(f.entry_index)).unwrap();
        if slot.is_none() {
            *slot = Some((path.rsplit('/').next().unwrap().to_owned(), parsed));
        }
    }
    let records = dataset.records.map(|i| records::parse(&entries[i].0, &read(i)).unwrap());
    let (model, facts, names) = match &records {
        Some(r) => {
            let (m, f) = RuntimeModel::build_owned(r.clone(), deps.clone(), names, cpm_inputs.clone());
            (Some(m), Some(f), None)
        }
        None => (None, None, names),
    };
    Capture { dir: dir.to_path_buf(), name: name_of(dir), dataset, entries, model, facts, deps, names, records, cpm: cpm_inputs }
}

/// `(ring, local)` or `local` as `deps_viewer` writes a task id, to the raw id.
pub fn parse_deps_viewer_id(text: &str) -> u64 {
    let t = text.trim();
    if let Some(inner) = t.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
        let (ring, local) = inner.split_once(',').unwrap();
        (ring.trim().parse::<u64>().unwrap() << 32) | local.trim().parse::<u64>().unwrap()
    } else {
        t.parse().unwrap()
    }
}

/// One `TASK INDEX` line of `deps_viewer`'s text: id, kind, SPMD block count, fan-in, fan-out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexLine {
    pub task_id: u64,
    pub kind: String,
    pub block_num: u32,
    pub fanin: usize,
    pub fanout: usize,
}

/// The `SUMMARY` counts (`tasks`, `unique_task_edges`) and the `TASK INDEX` lines of a
/// `deps_viewer` text file.
pub fn deps_viewer_index(text: &str) -> (usize, usize, Vec<IndexLine>) {
    let count = |key: &str| {
        text.lines().find_map(|l| l.strip_prefix(&format!("  {key}: "))).unwrap_or_else(|| panic!("no {key}")).trim().parse().unwrap()
    };
    let mut lines = Vec::new();
    let mut in_index = false;
    for line in text.lines() {
        if line == "TASK INDEX" {
            in_index = true;
            continue;
        }
        if !in_index {
            continue;
        }
        let Some(rest) = line.strip_prefix("TASK ") else { break };
        let (id, rest) = if rest.starts_with('(') {
            let end = rest.find(')').unwrap() + 1;
            (&rest[..end], &rest[end..])
        } else {
            rest.split_once(' ').unwrap()
        };
        let field = |key: &str| rest.split_whitespace().find_map(|w| w.strip_prefix(key)).unwrap().to_owned();
        let block_num = rest.split_once("SPMD block num = ").map_or(1, |(_, b)| b.split_whitespace().next().unwrap().parse().unwrap());
        lines.push(IndexLine {
            task_id: parse_deps_viewer_id(id),
            kind: field("kind="),
            block_num,
            fanin: field("fanin=").parse().unwrap(),
            fanout: field("fanout=").parse().unwrap(),
        });
    }
    (count("tasks"), count("unique_task_edges"), lines)
}

/// The task ids the reference converter names in `merged_swimlane.json`: every `(…)` of an
/// event name that reads as a task id (`t5`, `r1t1024`), as written.
pub fn converter_task_ids(merged_swimlane: &str) -> BTreeSet<String> {
    converter_names(merged_swimlane).iter().filter_map(|n| task_id_of_label(n).map(str::to_owned)).collect()
}

/// Every event name of `merged_swimlane.json`.
pub fn converter_names(merged_swimlane: &str) -> BTreeSet<String> {
    let doc: serde_json::Value = serde_json::from_str(merged_swimlane).unwrap();
    let events = doc.get("traceEvents").unwrap_or(&doc).as_array().unwrap().clone();
    events.iter().filter_map(|e| e.get("name").and_then(|n| n.as_str()).map(str::to_owned)).collect()
}

/// The task id in parentheses at the end of a label (`func_1_b(t0)` → `t0`), when it reads
/// as one: `t<digits>` or `r<digits>t<digits>`.
pub fn task_id_of_label(label: &str) -> Option<&str> {
    let inner = label.strip_suffix(')')?.rsplit_once('(')?.1;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let ok = match inner.strip_prefix('r') {
        Some(rest) => rest.split_once('t').is_some_and(|(r, l)| digits(r) && digits(l)),
        None => inner.strip_prefix('t').is_some_and(digits),
    };
    ok.then_some(inner)
}
