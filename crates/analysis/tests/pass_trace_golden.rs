//! Golden tests of the IR Pass Trace on every `passes_dump/` in `fixtures/passes/`:
//! - the pass list (order, names, no-op flags, added/removed counts) equals
//!   `expected-line-counts.tsv`, written by `expected-line-counts.sh` from GNU `diff --minimal`;
//! - the diff rows reproduce both files exactly (equal/delete/insert/replace in order);
//! - function regions equal `expected-function-regions.tsv`, written by
//!   `expected-function-regions.py` with Python's `ast` (`ir_trace`'s rule), for every snapshot,
//!   raw and ruff-formatted.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::type_complexity)]

use pypto_analysis::function_filter::{self, FunctionChoice};
use pypto_analysis::pass_trace::{self, RowKind};
use pypto_formats::passes_dump;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn passes_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/passes")
}

fn dump_dirs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![passes_root()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if p.file_name().unwrap() == "passes_dump" {
                    out.push(p.clone());
                }
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

#[test]
fn pass_lists_equal_a_plain_line_diff() {
    let expected = std::fs::read_to_string(passes_root().join("expected-line-counts.tsv")).unwrap();
    let mut want: BTreeMap<String, Vec<(String, String, u32, u32, bool)>> = BTreeMap::new();
    for line in expected.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        want.entry(c[0].to_owned()).or_default().push((
            c[1].to_owned(),
            c[2].to_owned(),
            c[3].parse().unwrap(),
            c[4].parse().unwrap(),
            c[5] == "1",
        ));
    }
    let dirs = dump_dirs();
    assert_eq!(dirs.len(), want.len());
    let mut total = 0;
    for dir in dirs {
        let rel = dir.strip_prefix(passes_root()).unwrap().to_string_lossy().into_owned();
        let files = names(&dir);
        let refs: Vec<&str> = files.iter().map(String::as_str).collect();
        let listing = passes_dump::validate(&refs);
        let list = pass_trace::pass_list(&listing, &refs, |n| std::fs::read_to_string(dir.join(n)).map_err(|e| e.to_string()));
        assert!(list.unreadable.is_empty());
        let got: Vec<(String, String, u32, u32, bool)> =
            list.passes.iter().map(|p| (p.file_name.clone(), p.previous_file.clone(), p.added, p.removed, p.no_op)).collect();
        assert_eq!(&got, want.get(&rel).unwrap(), "{rel}");
        total += got.len();
        for p in &list.passes {
            assert!(!p.pass_name.starts_with("after_"));
            assert!(p.log_file.is_none(), "no fixture has a .log");
        }
        // Every fixture snapshot, raw or ruff-formatted, is valid Python: none is flagged.
        assert_eq!(list.snapshot_problems().collect::<Vec<_>>(), Vec::<&pypto_formats::FormatError>::new(), "{rel}");
        if rel == "generated-paged_attention/passes_dump" {
            // the real 49-pass dump: two Simplify passes kept apart by index
            assert_eq!(list.passes.len(), 49);
            let simplify: Vec<u32> = list.passes.iter().filter(|p| p.pass_name == "Simplify").map(|p| p.index).collect();
            assert_eq!(simplify, [5, 45]);
            assert_eq!(list.first_changed().map(|i| list.passes[i].index), Some(4));
            // ConvertToSSA, per expected-line-counts.tsv
        }
    }
    assert_eq!(total, 149);
}

/// Rebuilds both files from the rows: every line appears once, in order, on its side.
#[test]
fn diff_rows_cover_both_files() {
    for dir in dump_dirs() {
        let files = names(&dir);
        let refs: Vec<&str> = files.iter().map(String::as_str).collect();
        let listing = passes_dump::validate(&refs);
        let mut prev = std::fs::read_to_string(dir.join(passes_dump::FRONTEND)).unwrap();
        for s in &listing.snapshots {
            let text = std::fs::read_to_string(dir.join(&s.file_name)).unwrap();
            let (b, a) = (pass_trace::split_lines(&prev), pass_trace::split_lines(&text));
            let d = pass_trace::diff_lines(&b, &a);
            let (mut nb, mut na) = (0u32, 0u32);
            for r in &d.rows {
                if let Some(x) = r.before {
                    assert_eq!(x, nb);
                    nb += 1;
                }
                if let Some(x) = r.after {
                    assert_eq!(x, na);
                    na += 1;
                }
                if r.kind == RowKind::Equal {
                    assert_eq!(b[r.before.unwrap() as usize], a[r.after.unwrap() as usize]);
                }
                if r.kind == RowKind::Replace {
                    let (bl, al) = (b[r.before.unwrap() as usize], a[r.after.unwrap() as usize]);
                    let c = pass_trace::refine_line(bl, al);
                    assert!(!c.before.is_empty() || !c.after.is_empty(), "{bl} vs {al}");
                    for &(s, e) in &c.before {
                        assert!(s < e && e as usize <= bl.len());
                    }
                }
            }
            assert_eq!((nb as usize, na as usize), (b.len(), a.len()));
            let blocks = pass_trace::fold(&d.rows, 3);
            assert_eq!(blocks.first().map_or(0, |x| x.rows.start), 0);
            assert_eq!(blocks.last().map_or(0, |x| x.rows.end) as usize, d.rows.len());
            prev = text;
        }
    }
}

#[test]
fn function_regions_equal_python_ast() {
    let expected = std::fs::read_to_string(passes_root().join("expected-function-regions.tsv")).unwrap();
    let mut want: BTreeMap<String, Vec<(String, u32, u32)>> = BTreeMap::new();
    for line in expected.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        want.entry(c[0].to_owned()).or_default().push((c[1].to_owned(), c[2].parse().unwrap(), c[3].parse().unwrap()));
    }
    // every .py under fixtures/passes, including ones without functions
    let mut checked = 0;
    let mut stack = vec![passes_root()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let rel = p.strip_prefix(passes_root()).unwrap().to_string_lossy().into_owned();
            if std::path::Path::new(&rel).extension().is_none_or(|x| x != "py") || rel.starts_with("expected-") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let got: Vec<(String, u32, u32)> = function_filter::function_regions(&rel, &text)
                .expect(&rel)
                .into_iter()
                .map(|r| (r.key, r.start_line, r.end_line))
                .collect();
            assert_eq!(&got, want.get(&rel).unwrap_or(&Vec::new()), "{rel}");
            checked += 1;
        }
    }
    assert!(checked >= 150, "{checked}");
}

#[test]
fn function_filter_on_the_ruff_dump() {
    let dir = passes_root().join("generated-paged_attention-ruff-partial/passes_dump");
    let before = std::fs::read_to_string(dir.join("34_after_MemoryReuse.py")).unwrap();
    let after = std::fs::read_to_string(dir.join("35_after_AllocateMemoryAddr.py")).unwrap();
    let rb = function_filter::function_regions("34", &before).unwrap();
    let ra = function_filter::function_regions("35", &after).unwrap();
    let choices = function_filter::function_choices(Some(&rb), Some(&ra)).unwrap();
    let (bl, al) = (pass_trace::split_lines(&before), pass_trace::split_lines(&after));
    let whole = pass_trace::diff_lines(&bl, &al);
    let mut sum = (0, 0);
    for c in &choices {
        let d = function_filter::diff_function(&bl, &al, c);
        let (b, a) = (c.before.as_ref().unwrap().range(), c.after.as_ref().unwrap().range());
        for r in &d.rows {
            assert!(r.before.is_none_or(|x| b.contains(&(x as usize))));
            assert!(r.after.is_none_or(|x| a.contains(&(x as usize))));
        }
        sum.0 += d.added;
        sum.1 += d.removed;
    }
    // AllocateMemoryAddr only rewrites offsets inside functions
    assert_eq!(sum, (whole.added, whole.removed));
    let key = |c: &FunctionChoice| c.key.clone();
    assert!(choices.iter().map(key).any(|k| k == "PagedAttentionProgram.kernel_qk_matmul"));
}
