//! The snapshot check against `CPython` on real snapshots cut short
//! (`fixtures/passes/expected-truncations.tsv`, written by `expected-truncations.py`): a cut
//! Python compiles is never flagged; a cut inside a bracket or a string is reported as Python
//! reports it (message, line, column); of the other cuts Python rejects, the check misses only
//! those that end in a way its statement rules do not judge.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use pypto_formats::python_check;
use std::path::Path;

#[test]
fn truncated_snapshots_are_judged_like_cpython() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/passes");
    let table = std::fs::read_to_string(root.join("expected-truncations.tsv")).expect("expected-truncations.tsv");
    let (mut rejected, mut caught, mut exact) = (0, 0, 0);
    let mut missed = Vec::new();
    for row in table.lines().skip(1) {
        let c: Vec<&str> = row.split('\t').collect();
        let [file, cut, verdict, line, column, message] = c.as_slice() else { panic!("bad row {row:?}") };
        let bytes = std::fs::read(root.join(file)).expect("snapshot");
        let cut: usize = cut.parse().unwrap();
        let problems = python_check::check_bytes(file, &bytes[..cut]);
        if *verdict == "ok" {
            assert_eq!(problems, Vec::new(), "{file} cut at {cut}: Python accepts it");
            continue;
        }
        rejected += 1;
        let Some(p) = problems.first() else {
            missed.push(format!("{file}@{cut}: {message} at {line}:{column}"));
            continue;
        };
        caught += 1;
        assert_eq!(problems.len(), 1, "{file}@{cut}: {problems:?}");
        if message.contains("never closed") || message.contains("unterminated") {
            let want = (line.parse::<u64>().unwrap(), column.parse::<u64>().unwrap(), *message);
            assert_eq!((p.line, p.column, p.message.as_str()), want, "{file}@{cut}");
            exact += 1;
        } else {
            println!("{file}@{cut}: Python: {message} at {line}:{column}; check: {p}");
        }
    }
    println!("{rejected} cuts Python rejects: {caught} caught ({exact} exactly as Python), missed: {missed:#?}");
    assert!(rejected > 350 && exact > 280, "{rejected} {exact}");
    assert!(missed.len() * 50 <= rejected, "missed {} of {rejected}: {missed:#?}", missed.len());
}
