//! Replays the `cargo fuzz` corpus kept in the repository (`fuzz/corpus/<target>/`, see
//! fuzz/README.md) through the reader each fuzz target calls, in the ordinary `cargo test`:
//! no input may make a reader panic, every error must name the file and a 1-based line and
//! column (fuzz/src/lib.rs `check_error`), and the cheap invariants of the targets hold (host
//! phase warnings carry positions, an accepted manifest holds no unsafe path and reads back
//! from its own output, discovery places every listed file once or counts it as ignored).
//! Every target's corpus directory must exist and hold files, so a deleted corpus fails here.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use pypto_formats::chrome_trace::{self, ParseOptions};
use pypto_formats::{cpm, deps, discovery, host_phase_records, manifest, name_map, passes_dump, records, strace, FormatError};
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// Every fuzz target (`fuzz/fuzz_targets/*.rs`) whose corpus is replayed here.
const TARGETS: [&str; 10] =
    ["records", "deps_json", "name_map", "manifest", "passes_dump", "discovery", "chrome_trace", "cpm", "strace", "host_phase_records"];

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus").join(target)
}

/// What `check_error` in fuzz/src/lib.rs asserts.
fn check_error(e: &FormatError, path: &str) -> Result<(), String> {
    if e.path != path {
        return Err(format!("error names another file: {e}"));
    }
    if e.message.is_empty() {
        return Err(format!("empty error message: {e:?}"));
    }
    if e.line < 1 || e.column < 1 {
        return Err(format!("error without a position (0 = unknown): {e}"));
    }
    Ok(())
}

/// Lines of (lossy) UTF-8 text, as `lines` in fuzz/src/lib.rs splits them.
fn lines(data: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(data).split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l).to_owned()).collect()
}

/// Feeds one corpus input to the target's reader; `Err` describes a broken property.
fn replay(target: &str, path: &str, data: &[u8]) -> Result<(), String> {
    match target {
        "records" => records::parse(path, data).map(drop).or_else(|e| check_error(&e, path)),
        "deps_json" => deps::parse(path, data).map(drop).or_else(|e| check_error(&e, path)),
        "name_map" => name_map::parse(path, data).map(drop).or_else(|e| check_error(&e, path)),
        "manifest" => match manifest::parse(path, data) {
            Err(e) => check_error(&e, path),
            Ok(entries) => {
                if let Some((p, _)) = entries.iter().find(|(p, _)| manifest::check_path(p).is_some()) {
                    return Err(format!("unsafe path accepted: {p:?}"));
                }
                let json = manifest::to_json(&entries);
                manifest::parse(path, json.as_bytes()).map(drop).map_err(|e| format!("own output does not read back: {e}"))
            }
        },
        "chrome_trace" => {
            // The target's first byte picks `keep_args`.
            let keep_args = data.first().is_some_and(|b| b & 1 == 1);
            chrome_trace::parse_with(path, data, ParseOptions { keep_args }).map(drop).or_else(|e| check_error(&e, path))
        }
        "cpm" => cpm::read_path(path, data).map(drop).or_else(|e| check_error(&e, path)),
        "strace" => strace::parse(path, data).map(drop).or_else(|e| check_error(&e, path)),
        "host_phase_records" => match host_phase_records::parse(path, data) {
            Err(e) => check_error(&e, path),
            Ok(h) => match h.warnings.iter().find(|w| w.path != path || w.line < 1 || w.column < 1) {
                Some(w) => Err(format!("warning without this file and a position: {w}")),
                None => Ok(()),
            },
        },
        "passes_dump" => {
            let owned = lines(data);
            let names: Vec<&str> = owned.iter().map(String::as_str).collect();
            let l = passes_dump::validate(&names);
            if l.has_frontend != names.contains(&passes_dump::FRONTEND) {
                return Err("has_frontend disagrees with the listing".to_owned());
            }
            match l.snapshots.iter().find(|s| !names.contains(&s.file_name.as_str())) {
                Some(s) => Err(format!("snapshot {:?} is not in the listing", s.file_name)),
                None => Ok(()),
            }
        }
        "discovery" => {
            let entries: Vec<(String, u64)> = lines(data)
                .into_iter()
                .map(|l| match l.split_once('\t') {
                    Some((p, s)) => (p.to_owned(), s.trim().parse().unwrap_or(0)),
                    None => (l, 0),
                })
                .collect();
            let d = discovery::discover(&entries);
            let mut seen = vec![false; entries.len()];
            for f in d.datasets.iter().flat_map(|ds| &ds.files) {
                match seen.get_mut(f.entry_index) {
                    None => return Err(format!("entry index {} outside the listing", f.entry_index)),
                    Some(true) => return Err(format!("entry {} in two datasets", f.entry_index)),
                    Some(s) => *s = true,
                }
            }
            let placed = seen.iter().filter(|&&s| s).count() as u64;
            if placed + d.ignored_files == entries.len() as u64 {
                Ok(())
            } else {
                Err(format!("{placed} placed + {} ignored != {} listed", d.ignored_files, entries.len()))
            }
        }
        other => panic!("no replay for fuzz target {other:?}"),
    }
}

#[test]
fn fuzz_corpus_replays_without_panics_and_with_positioned_errors() {
    let mut failures = String::new();
    let mut total = 0usize;
    for target in TARGETS {
        let dir = corpus_dir(target);
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("fuzz/corpus/{target}: {e} (the corpus is kept in git)"));
        let mut files: Vec<PathBuf> = entries.map(|e| e.expect("entry").path()).filter(|p| p.is_file()).collect();
        files.sort();
        assert!(!files.is_empty(), "fuzz/corpus/{target} is empty (the corpus is kept in git)");
        total += files.len();
        for file in &files {
            let data = std::fs::read(file).expect("corpus file");
            let name = file.file_name().expect("file name").to_string_lossy();
            let path = format!("fuzz/corpus/{target}/{name}");
            let outcome = catch_unwind(AssertUnwindSafe(|| replay(target, &path, &data)));
            match outcome {
                Ok(Ok(())) => {}
                Ok(Err(why)) => {
                    let _ = writeln!(failures, "{path}: {why}");
                }
                Err(panic) => {
                    let msg = panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()));
                    let _ = writeln!(failures, "{path}: reader panicked: {}", msg.unwrap_or_default());
                }
            }
        }
    }
    assert!(failures.is_empty(), "fuzz corpus failures ({total} inputs):\n{failures}");
}
