//! Regression tests for what `cargo fuzz` (fuzz/, issue 3 item 16) found: every crash input,
//! minimised, with the property the fuzz target checks. The targets assert more than "no
//! panic": an error must name the file and a real 1-based line and column.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use pypto_formats::{deps, host_phase_records, manifest, name_map, records, FormatError};

fn assert_positioned(e: &FormatError, path: &str) {
    assert_eq!(e.path, path);
    assert!(e.line >= 1 && e.column >= 1, "error without a position: {e}");
}

/// fuzz target `records` (first input): an empty file gave `1:0` (`serde_json`'s column 0 =
/// "before the first byte of the line"), which reads as "column unknown".
#[test]
fn fuzz_empty_input_errors_have_line_and_column() {
    for input in [&b""[..], b"\n", b"  \n\n", b"{\"chip_swimlane_level\": 2,\n"] {
        let e = records::parse("r.json", input).expect_err("records");
        assert_positioned(&e, "r.json");
        assert!(e.message.contains("truncated"), "{e}");
        let e = deps::parse("d.json", input).expect_err("deps");
        assert_positioned(&e, "d.json");
        let e = name_map::parse("n.json", input).expect_err("name_map");
        assert_positioned(&e, "n.json");
        let e = manifest::parse("m.json", input).expect_err("manifest");
        assert_positioned(&e, "m.json");
    }
    let e = records::parse("r.json", b"").expect_err("empty");
    assert_eq!((e.line, e.column), (1, 1));
    let e = deps::parse("d.json", b"{\"tasks\": [\n").expect_err("cut after newline");
    assert_eq!((e.line, e.column), (2, 1), "{e}");
}

/// fuzz target `manifest` (crash-38ca6056…): an unsafe path written with JSON escapes
/// (`\/`) was not found again in the bytes, so the error said `0:0`. It now points at the
/// `files` key when the literal cannot be found.
#[test]
fn fuzz_manifest_escaped_unsafe_path_has_a_position() {
    let input = b"{\"format\":\"pypto-viewer-manifest\",\"version\":1,\"files\":[\n\
{\"path\":\"chip_swimlane_records.json\",\"size_bytes\":604},\n\
{\"path\":\"merged_swimlan/\\/\\/e/.json\",\"size_bytes\":3060},\n\
{\"path\":\"referenc*_cot.txt\",\"size_bytes\":2240}\n]}\n";
    let e = manifest::parse("m.json", input).expect_err("unsafe path");
    assert_positioned(&e, "m.json");
    assert!(e.message.contains("empty path segment"), "{e}");
    assert_eq!((e.line, e.column), (1, 47), "{e}");
    // Same with `\u002e\u002e` for `..`.
    let input = b"{\"format\":\"pypto-viewer-manifest\",\"version\":1,\"files\":[{\"path\":\"\\u002e\\u002e/x\",\"size_bytes\":1}]}";
    let e = manifest::parse("m.json", input).expect_err("dotdot");
    assert_positioned(&e, "m.json");
    assert!(e.message.contains("'..' segment"), "{e}");
}

/// Host phase record warnings carry positions too (checked by the `host_phase_records`
/// target on every input).
#[test]
fn fuzz_host_phase_record_warnings_have_positions() {
    for input in [&b""[..], b"\n", b"{", b"[1]\n{\"records\": 5}\n", b"{\"records\": [1, {}]}"] {
        let h = host_phase_records::parse("h.jsonl", input).expect("lenient reader");
        for w in &h.warnings {
            assert_eq!(w.path, "h.jsonl");
            assert!(w.line >= 1 && w.column >= 1, "warning without a position: {w}");
        }
    }
}
