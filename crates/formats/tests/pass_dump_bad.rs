//! Validation of the crafted bad pass dumps in `fixtures/passes/bad-*/` (missing
//! `00_frontend.py`, a gap, a duplicate index, malformed names, index 0, no snapshots): each
//! problem is reported with the file names, and the valid snapshots are still listed. Also
//! reads the `.log` beside a snapshot in `bad-gap/`.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use pypto_formats::{pass_log, passes_dump};
use std::path::{Path, PathBuf};

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/passes").join(name)
}

fn listing(name: &str) -> (passes_dump::PassDumpListing, Vec<u32>) {
    let mut files: Vec<String> =
        std::fs::read_dir(dir(name)).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    files.sort();
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    let l = passes_dump::validate(&refs);
    let idx = l.snapshots.iter().map(|s| s.index).collect();
    (l, idx)
}

#[test]
fn crafted_bad_dumps() {
    let (l, idx) = listing("bad-missing-frontend");
    assert_eq!(l.problems, ["missing 00_frontend.py: the first pass has nothing to be compared with"]);
    assert_eq!(idx, [1, 2]);

    let (l, idx) = listing("bad-gap");
    assert_eq!(l.problems, ["missing snapshot indices 03..04"]);
    assert_eq!(idx, [1, 2, 5]); // helper.py, notes.txt and the .log are ignored

    let (l, idx) = listing("bad-duplicate");
    assert_eq!(l.problems, ["duplicate snapshot index 2: 02_after_Simplify.py, 02_after_UnrollLoops.py"]);
    assert_eq!(idx, [1, 2, 2]);

    let (l, idx) = listing("bad-malformed-name");
    assert_eq!(
        l.problems,
        [
            "malformed snapshot name: 02_after_.py (expected NN_after_<Pass>.py)",
            "malformed snapshot name: 03_after_Un-roll.py (expected NN_after_<Pass>.py)",
            "missing snapshot indices 02..03",
        ]
    );
    assert_eq!(idx, [1, 4]); // `04_Simplify.py` is the Toolkit's NN_<Pass>.py naming
    assert_eq!(l.snapshots[1].pass_name, "Simplify");

    let (l, idx) = listing("bad-index-zero");
    assert_eq!(l.problems, ["snapshot index 0 is reserved for 00_frontend.py: 00_after_InlineFunctions.py"]);
    assert_eq!(idx, [0, 1]);

    let (l, idx) = listing("bad-no-snapshots");
    assert_eq!(l.problems, ["no pass snapshots (NN_after_<Pass>.py) found"]);
    assert!(idx.is_empty());
}

#[test]
fn warning_log_beside_a_snapshot() {
    let name = passes_dump::log_file_name("02_after_UnrollLoops.py");
    assert_eq!(name, "02_after_UnrollLoops.log");
    let text = std::fs::read_to_string(dir("bad-gap").join(name)).unwrap();
    let w = pass_log::parse(&text);
    assert_eq!(w.len(), 2);
    assert_eq!((w[0].line, w[0].column), (Some(8), Some(16)));
    assert_eq!(w[0].file, "bad-gap/02_after_UnrollLoops.py");
    assert_eq!(w[1].line, None);
    assert_eq!(w[1].rule.as_deref(), Some("OutParamWriteDropped"));
}
