//! Reads one runtime dataset of a folder the way the page's worker does, for the CLI commands
//! that need the worker's model (`compare`): discovery's records, deps.json, name map and the
//! first `CPM_static*` / `CPM_observed*` file; the resident model
//! (`RuntimeModel::build_owned`, as the load job builds it) and the Performance Analysis
//! path tables (`pypto_replies::perf_paths`, as the path job computes them).

use std::path::Path;

use pypto_analysis::runtime_model::{CpmInputs, RuntimeModel};
use pypto_formats::discovery::{self, Dataset, DatasetKind, FileRole};
use pypto_formats::{cpm, deps, name_map, records};
use pypto_protocol::perf::PerfPathsData;

/// What a folder holds, for a command that wants one runtime dataset.
pub enum Found {
    /// Exactly one runtime dataset with swimlane records.
    Runtime { entries: Vec<(String, u64)>, dataset: Box<Dataset> },
    /// No runtime dataset with records, but pass dumps.
    PassDumps,
    /// Several runtime datasets with records: their directories.
    Several(Vec<String>),
    /// Nothing to compare (why).
    Nothing(String),
}

/// Discovers what `root` holds.
pub fn find(root: &Path) -> Found {
    // A pass dump's own directory (discovery names a dump by its directory, which is the root here).
    if root.file_name().is_some_and(|n| n.to_string_lossy().starts_with("passes_dump")) {
        return Found::PassDumps;
    }
    let entries = match crate::walk::walk(root) {
        Ok(e) => e,
        Err(e) => return Found::Nothing(format!("cannot read {}: {e}", root.display())),
    };
    let found = discovery::discover(&entries);
    let mut runtime: Vec<Dataset> =
        found.datasets.iter().filter(|d| d.kind == DatasetKind::Runtime && d.records.is_some()).cloned().collect();
    match runtime.len() {
        1 => Found::Runtime { entries, dataset: Box::new(runtime.remove(0)) },
        0 if found.datasets.iter().any(|d| d.kind == DatasetKind::PassDump) => Found::PassDumps,
        0 => Found::Nothing(format!("{} holds no runtime dataset with swimlane records", root.display())),
        _ => Found::Several(runtime.into_iter().map(|d| if d.path.is_empty() { ".".to_owned() } else { d.path }).collect()),
    }
}

/// One runtime dataset, read and analysed.
pub struct Loaded {
    /// The dataset's directory (`""` = the folder itself).
    pub path: String,
    pub model: RuntimeModel,
    /// The path tables (`dataset_id` 0).
    pub paths: PerfPathsData,
    /// Files read beside the records, by role.
    pub files: Vec<String>,
}

/// Reads and analyses `dataset` of the folder `root` (`entries` from [`find`]). A records
/// file that cannot be read is an error; an unreadable deps.json, name map or CPM file is
/// left out with a warning on stderr (as `report` lists it).
pub fn load(root: &Path, entries: &[(String, u64)], dataset: &Dataset) -> Result<Loaded, String> {
    let path_of = |i: usize| entries.get(i).map(|e| e.0.as_str()).ok_or_else(|| format!("entry {i} is not in the folder"));
    let read = |i: usize| -> Result<(String, Vec<u8>), String> {
        let rel = path_of(i)?;
        let bytes = std::fs::read(root.join(rel)).map_err(|e| format!("cannot read {}: {e}", root.join(rel).display()))?;
        Ok((rel.to_owned(), bytes))
    };
    let warn = |e: String| eprintln!("pypto-viewer: {e} (left out)");
    let mut files = Vec::new();
    let deps = dataset.deps.and_then(|i| match read(i).and_then(|(p, b)| deps::parse(&p, &b).map_err(|e| e.to_string()).map(|d| (p, d))) {
        Ok((p, d)) => {
            files.push(p);
            Some(d)
        }
        Err(e) => {
            warn(e);
            None
        }
    });
    let names = dataset.name_map.and_then(|i| {
        match read(i).and_then(|(p, b)| name_map::parse(&p, &b).map_err(|e| e.to_string()).map(|n| (p, n))) {
            Ok((p, n)) => {
                files.push(p);
                Some(n)
            }
            Err(e) => {
                warn(e);
                None
            }
        }
    });
    let mut cpm_inputs = CpmInputs::default();
    for f in &dataset.files {
        let slot = match f.role {
            FileRole::CpmStatic => &mut cpm_inputs.static_path,
            FileRole::CpmObserved => &mut cpm_inputs.observed_path,
            _ => continue,
        };
        if slot.is_some() {
            continue;
        }
        match read(f.entry_index).and_then(|(p, b)| cpm::read_path(&p, &b).map_err(|e| e.to_string()).map(|c| (p, c))) {
            Ok((p, parsed)) => {
                *slot = Some((p.rsplit('/').next().unwrap_or(&p).to_owned(), parsed));
                files.push(p);
            }
            Err(e) => warn(e),
        }
    }
    let index = dataset.records.ok_or_else(|| format!("{} has no swimlane records", dataset.path))?;
    let (p, bytes) = read(index)?;
    let parsed = records::parse(&p, &bytes).map_err(|e| e.to_string())?;
    drop(bytes);
    files.insert(0, p);
    let tables = pypto_replies::perf_paths::path_tables(&parsed, deps.clone(), names.as_ref(), &cpm_inputs);
    let paths = pypto_replies::perf_paths::to_protocol(0, tables);
    let (model, _) = RuntimeModel::build_owned(parsed, deps, names, cpm_inputs);
    Ok(Loaded { path: dataset.path.clone(), model, paths, files })
}
