//! The malformed-input corpus (issue 3, item 16): every file in `fixtures/malformed/<reader>/` is read
//! by the reader named in `fixtures/malformed/expected.tsv`, and the outcome must be exactly
//! the one in the table: `ok` (with no warning, or a warning containing the given text, at the
//! given position for readers whose warnings carry one) or `error` with the message substring
//! at exactly `line:column`. Every file must have a row; nothing may panic.
//!
//! `MALFORMED_PRINT=1 cargo test -p pypto-formats --test malformed_corpus -- --nocapture`
//! prints the actual outcomes as table rows (to review a reader change, not to paste blindly).

#![allow(clippy::expect_used, clippy::unwrap_used)]

use pypto_formats::{deps, host_phase_records, manifest, name_map, records, FormatError, Warning};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/malformed")
}

/// A reader's outcome: its warnings as `(position, text)` or its error.
enum Outcome {
    Ok(Vec<(Option<(u64, u64)>, String)>),
    Err(FormatError),
}

fn run(reader: &str, path: &str, bytes: &[u8]) -> Outcome {
    // Warnings with a position are checked at it; every warning names this file or none.
    let plain = |w: Vec<Warning>| {
        Outcome::Ok(
            w.into_iter()
                .map(|w| {
                    assert!(w.path.is_empty() || w.path == path, "warning names another file: {w}");
                    ((w.line > 0).then_some((w.line, w.column)), w.message)
                })
                .collect(),
        )
    };
    let result = match reader {
        "records" => records::parse(path, bytes).map(|r| plain(r.warnings)),
        "deps" => deps::parse(path, bytes).map(|d| plain(d.warnings)),
        "name_map" => name_map::parse(path, bytes).map(|m| plain(m.warnings)),
        "manifest" => manifest::parse(path, bytes).map(|_| plain(Vec::new())),
        "host_phase_records" => host_phase_records::parse(path, bytes).map(|h| {
            assert!(h.warnings.iter().all(|w| w.path == path), "a warning names another file");
            plain(h.warnings)
        }),
        other => panic!("expected.tsv names an unknown reader {other:?}"),
    };
    result.unwrap_or_else(Outcome::Err)
}

fn parse_pos(s: &str) -> Option<(u64, u64)> {
    let (l, c) = s.split_once(':')?;
    Some((l.parse().ok()?, c.parse().ok()?))
}

fn show_pos(p: Option<(u64, u64)>) -> String {
    p.map_or("-".to_owned(), |(l, c)| format!("{l}:{c}"))
}

#[test]
fn malformed_corpus_outcomes_are_exact() {
    let table = std::fs::read_to_string(dir().join("expected.tsv")).expect("expected.tsv");
    let print = std::env::var_os("MALFORMED_PRINT").is_some();
    let mut failures = String::new();
    let mut rows = 0usize;
    let mut covered = std::collections::BTreeSet::new();
    for (n, line) in table.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let [file, reader, outcome, pos, message] = cols.as_slice() else {
            panic!("expected.tsv:{}: want 5 tab-separated columns: {line:?}", n + 1);
        };
        rows += 1;
        covered.insert((*file).to_owned());
        let bytes = std::fs::read(dir().join(file)).expect(file);
        let path = format!("malformed/{file}");
        let got = run(reader, &path, &bytes);
        if print {
            match &got {
                Outcome::Err(e) => println!("{file}\t{reader}\terror\t{}:{}\t{}", e.line, e.column, e.message),
                Outcome::Ok(w) if w.is_empty() => println!("{file}\t{reader}\tok\t-\t-"),
                Outcome::Ok(w) => {
                    for (p, m) in w {
                        println!("{file}\t{reader}\tok\t{}\t{m}", show_pos(*p));
                    }
                }
            }
        }
        match (*outcome, got) {
            ("error", Outcome::Err(e)) => {
                let want = parse_pos(pos).unwrap_or_else(|| panic!("expected.tsv:{}: bad position {pos:?}", n + 1));
                if e.path != path || (e.line, e.column) != want || !e.message.contains(message) {
                    let _ = writeln!(failures, "{file}: want error at {pos} containing {message:?}, got {e}");
                }
            }
            ("ok", Outcome::Ok(warnings)) => {
                let want_pos = parse_pos(pos);
                let found = if *message == "-" {
                    warnings.is_empty()
                } else {
                    warnings.iter().any(|(p, w)| w.contains(message) && (want_pos.is_none() || *p == want_pos))
                };
                if !found {
                    let shown: Vec<String> = warnings.iter().map(|(p, w)| format!("{} {w}", show_pos(*p))).collect();
                    let _ = writeln!(failures, "{file}: want ok with warning {message:?} at {pos}, got warnings {shown:?}");
                }
            }
            (want, Outcome::Err(e)) => {
                let _ = writeln!(failures, "{file}: want {want}, got error {e}");
            }
            (want, Outcome::Ok(w)) => {
                let _ = writeln!(failures, "{file}: want {want}, got ok ({} warnings)", w.len());
            }
        }
    }
    // Every corpus file (one directory per reader) has a row.
    for sub in std::fs::read_dir(dir()).expect("fixtures/malformed") {
        let sub = sub.expect("entry").path();
        if !sub.is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(&sub).expect("reader directory") {
            let p = entry.expect("entry").path();
            let rel = p.strip_prefix(dir()).expect("inside the corpus").to_string_lossy().replace('\\', "/");
            if !covered.contains(&rel) {
                let _ = writeln!(failures, "{rel}: no row in expected.tsv");
            }
        }
    }
    assert!(rows >= 30, "the corpus needs at least 30 files, has {rows}");
    assert!(failures.is_empty(), "malformed corpus mismatches:\n{failures}");
}
