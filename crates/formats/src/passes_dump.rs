//! Validation of a compiler pass-dump directory listing (compiler-formats.md §1.1–1.2), for
//! discovery and the IR Pass Trace view: which files are snapshots, in which order, and
//! what is wrong with the listing.
//!
//! Rules (`ir_trace`'s validation, plus the Toolkit's `NN_<Pass>.py` naming):
//! - `00_frontend.py` must exist (it is snapshot 0, the base of the first diff).
//! - A file `^(\d+)_(?:after_)?(<Pass>)\.py$` with `<Pass>` = `[A-Za-z0-9_]+` is a snapshot;
//!   the displayed pass name has the `after_` prefix stripped. The real compiler writes
//!   `NN_after_<Pass>.py`; the Toolkit docs describe `NN_<Pass>.py`; both are accepted.
//! - Index 0 among snapshots is an error (0 is reserved for `00_frontend.py`); a duplicate
//!   index is an error; any gap in `1..=max` is an error.
//! - Any other file matching `^\d+_.*\.py$` (e.g. `01_after_.py`, `3_a.b.py`) is an error
//!   "malformed snapshot name". Everything else (`.log`, `.json`, `.html`, `foo.py`) is ignored.
//! - Snapshots sort numerically by index (then by file name), never lexicographically.
//! - A directory with `00_frontend.py` but no snapshot is reported ("no pass snapshots").
//! - A snapshot's warnings are in `<stem>.log` beside it ([`log_file_name`]).

/// One pass snapshot.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Snapshot {
    pub index: u32,
    /// Pass name without the `after_` prefix (e.g. `InlineFunctions`).
    pub pass_name: String,
    pub file_name: String,
}

/// The validated listing of one `passes_dump*` directory.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct PassDumpListing {
    /// Snapshots sorted by `(index, file_name)`; duplicates are kept (and reported).
    pub snapshots: Vec<Snapshot>,
    /// `00_frontend.py` exists.
    pub has_frontend: bool,
    /// One sentence per problem; empty = valid.
    pub problems: Vec<String>,
}

impl PassDumpListing {
    /// True when there are no problems.
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty()
    }

    /// The last `AllocateMemoryAddr` snapshot (input of the memory reuse view).
    pub fn memory_snapshot(&self) -> Option<&Snapshot> {
        self.snapshots.iter().rev().find(|s| s.pass_name == "AllocateMemoryAddr")
    }
}

/// The `.log` warnings file that belongs to a snapshot: same stem, `.log` suffix.
pub fn log_file_name(snapshot_file: &str) -> String {
    let stem = snapshot_file.strip_suffix(".py").unwrap_or(snapshot_file);
    format!("{stem}.log")
}

/// File name of the frontend snapshot.
pub const FRONTEND: &str = "00_frontend.py";

enum Kind {
    Frontend,
    Snapshot(u32, String),
    Malformed,
    Ignored,
}

fn classify(name: &str) -> Kind {
    if name == FRONTEND {
        return Kind::Frontend;
    }
    let Some(stem) = name.strip_suffix(".py") else {
        return Kind::Ignored;
    };
    let digits = stem.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Kind::Ignored;
    }
    let (num, rest) = stem.split_at(digits);
    let Some(rest) = rest.strip_prefix('_') else {
        return Kind::Ignored; // not `^\d+_`
    };
    let Ok(index) = num.parse::<u32>() else {
        return Kind::Malformed;
    };
    let pass = rest.strip_prefix("after_").unwrap_or(rest);
    if pass.is_empty() || !pass.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Kind::Malformed;
    }
    Kind::Snapshot(index, pass.to_owned())
}

/// Validates the names of the files directly inside a `passes_dump*` directory.
pub fn validate(file_names: &[&str]) -> PassDumpListing {
    let mut out = PassDumpListing::default();
    let mut malformed = Vec::new();
    for &name in file_names {
        match classify(name) {
            Kind::Frontend => out.has_frontend = true,
            Kind::Snapshot(index, pass_name) => {
                out.snapshots.push(Snapshot { index, pass_name, file_name: name.to_owned() });
            }
            Kind::Malformed => malformed.push(name),
            Kind::Ignored => {}
        }
    }
    out.snapshots.sort_by(|a, b| a.index.cmp(&b.index).then_with(|| a.file_name.cmp(&b.file_name)));
    if !out.has_frontend {
        out.problems.push(format!("missing {FRONTEND}: the first pass has nothing to be compared with"));
    }
    if out.snapshots.iter().all(|s| s.index == 0) {
        out.problems.push("no pass snapshots (NN_after_<Pass>.py) found".to_owned());
    }
    malformed.sort_unstable();
    for m in malformed {
        out.problems.push(format!("malformed snapshot name: {m} (expected NN_after_<Pass>.py)"));
    }
    for s in out.snapshots.iter().filter(|s| s.index == 0) {
        out.problems.push(format!("snapshot index 0 is reserved for {FRONTEND}: {}", s.file_name));
    }
    let mut i = 0;
    while i < out.snapshots.len() {
        let idx = out.snapshots.get(i).map_or(0, |s| s.index);
        let same: Vec<&str> = out.snapshots.iter().skip(i).take_while(|s| s.index == idx).map(|s| s.file_name.as_str()).collect();
        if same.len() > 1 {
            out.problems.push(format!("duplicate snapshot index {idx}: {}", same.join(", ")));
        }
        i += same.len().max(1);
    }
    // Gaps in 1..=max, reported as runs.
    let mut expected = 1u32;
    let mut seen: Vec<u32> = out.snapshots.iter().map(|s| s.index).filter(|&x| x > 0).collect();
    seen.dedup();
    for &idx in &seen {
        if idx > expected {
            let last = idx - 1;
            if last == expected {
                out.problems.push(format!("missing snapshot index {expected:02}"));
            } else {
                out.problems.push(format!("missing snapshot indices {expected:02}..{last:02}"));
            }
        }
        expected = idx.saturating_add(1);
    }
    out
}
