//! The slice-by-slice readers ([`records::RecordsStream`], [`deps::DepsStream`], the worker's
//! path for large files) must give exactly what the whole-file readers give, whatever the
//! slice size (boundaries inside numbers, strings, keys and between elements), and must give
//! up (so the worker re-reads the whole file for the exact error position) on every file the
//! whole-file reader rejects.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::many_single_char_names)]

use pypto_formats::{deps, records};
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

fn files(kind: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut all = Vec::new();
    for d in ["fixtures/runtime", "fixtures/malformed", "../shared/fixtures/runtime"] {
        collect(&root.join(d), &mut all);
    }
    all.retain(|p| {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let parent = p.parent().unwrap().file_name().unwrap().to_string_lossy().to_string();
        match kind {
            "deps" => name == "deps.json" || parent == "deps",
            _ => name.contains("swimlane_records") || name.contains("perf_records") || parent == "records",
        }
    });
    all.sort();
    all
}

const SLICES: [usize; 7] = [1, 2, 3, 7, 61, 4096, usize::MAX];

#[test]
fn records_stream_equals_whole_parse() {
    let list = files("records");
    assert!(list.len() > 20, "too few records fixtures: {}", list.len());
    let (mut checked_ok, mut read_back_threads) = (0, 0);
    for p in list {
        let bytes = std::fs::read(&p).unwrap();
        let whole = records::parse("f", &bytes);
        for slice in SLICES.into_iter().filter(|&n| n > 2 || bytes.len() < 100_000) {
            let mut s = records::RecordsStream::new();
            for chunk in bytes.chunks(slice.min(bytes.len().max(1))) {
                s.feed(chunk);
            }
            let mut streamed = s.finish("f");
            if let Some(r) = streamed.as_mut() {
                // The stream also notes where each raw scheduler record of
                // `aicpu_scheduler_phases` is (newer `scheduler_records` streams are read whole):
                // every one reads back from its span of the file as the record the columns hold.
                for t in &mut r.sched_threads {
                    read_back_threads += usize::from(t.has_offsets() && !t.is_empty());
                    for i in (0..t.len()).filter(|_| t.has_offsets()) {
                        let (offset, len, k) = t.record_span(i).unwrap();
                        let piece = &bytes[offset as usize..(offset as usize + len as usize).min(bytes.len())];
                        let rec =
                            records::sched_records_at(piece, k).unwrap_or_else(|| panic!("{}: record {i} not read back", p.display()));
                        assert_eq!(
                            (Some(&rec.kind), Some(rec.start_cycles), Some(rec.end_cycles), Some(rec.tasks_processed), t.task_id.get(i)),
                            (t.kind.get(i), t.start_cycles.get(i), t.end_cycles.get(i), t.tasks_processed.get(i), rec.task_id),
                            "{}: record {i}",
                            p.display()
                        );
                        assert_eq!(
                            (rec.loop_iter, rec.pop_hit, rec.pop_miss),
                            (t.loop_iter.get(i).unwrap(), t.pop_hit.get(i).unwrap(), t.pop_miss.get(i).unwrap())
                        );
                    }
                    t.record_offsets.clear();
                    t.records_end = 0;
                }
            }
            match &whole {
                Ok(w) => assert_eq!(streamed.as_ref(), Some(w), "{} (slice {slice})", p.display()),
                Err(e) => assert!(streamed.is_none(), "{}: stream accepted a file the reader rejects ({e})", p.display()),
            }
        }
        checked_ok += usize::from(whole.is_ok());
    }
    assert!(checked_ok > 15);
    assert!(read_back_threads > 50, "{read_back_threads} threads read back");
}

#[test]
fn deps_stream_equals_whole_parse() {
    let list = files("deps");
    assert!(list.len() > 15, "too few deps fixtures: {}", list.len());
    for p in list {
        let bytes = std::fs::read(&p).unwrap();
        let whole = deps::parse("f", &bytes);
        for slice in SLICES.into_iter().filter(|&n| n > 2 || bytes.len() < 100_000) {
            let mut s = deps::DepsStream::new();
            for chunk in bytes.chunks(slice.min(bytes.len().max(1))) {
                s.feed(chunk);
            }
            let streamed = s.finish();
            match &whole {
                Ok(w) => assert_eq!(streamed.as_ref(), Some(w), "{} (slice {slice})", p.display()),
                Err(e) => assert!(streamed.is_none(), "{}: stream accepted a file the reader rejects ({e})", p.display()),
            }
        }
    }
}

/// The lean reader keeps the task heads and edge ends of the whole read, and each task's byte
/// span re-reads to exactly that task's arguments.
#[test]
fn deps_lean_stream_keeps_heads_and_spans() {
    let mut with_args = 0;
    for p in files("deps") {
        let bytes = std::fs::read(&p).unwrap();
        let Ok(whole) = deps::parse("f", &bytes) else { continue };
        for slice in [5, 61, usize::MAX] {
            let mut s = deps::DepsStream::lean();
            for chunk in bytes.chunks(slice.min(bytes.len().max(1))) {
                s.feed(chunk);
            }
            let lean = s.finish().unwrap_or_else(|| panic!("{}: lean stream gave up", p.display()));
            let (a, b) = (&lean.tasks, &whole.tasks);
            assert_eq!(a.task_id, b.task_id, "{}", p.display());
            assert_eq!(a.kernel_ids, b.kernel_ids);
            assert_eq!(a.has_kernel_ids, b.has_kernel_ids);
            assert_eq!(a.block_num, b.block_num);
            assert_eq!(a.early_dispatch, b.early_dispatch);
            assert_eq!(lean.edges.pred, whole.edges.pred);
            assert_eq!(lean.edges.succ, whole.edges.succ);
            assert_eq!(lean.missing_kernel_ids, whole.missing_kernel_ids);
            assert_eq!(lean.tensor_count(), whole.tensor_count());
            assert_eq!(lean.task_offsets.len(), b.task_id.len());
            for i in 0..b.task_id.len() {
                let start = lean.task_offsets[i] as usize;
                let one = deps::parse_task(&bytes[start..start + lean.task_lens[i] as usize]).unwrap();
                // The same task read from a piece starting a few tasks earlier.
                let from = i.saturating_sub(i % 5);
                let piece = &bytes[lean.task_offsets[from] as usize..(start + lean.task_lens[i] as usize + 1).min(bytes.len())];
                assert_eq!(deps::parse_task_at(piece, i - from).as_ref(), Some(&one), "{}: task {i} from task {from}", p.display());
                assert_eq!(one.tasks.task_id, vec![b.task_id[i]]);
                let (x, y) = (b.arg_offsets[i] as usize, b.arg_offsets[i + 1] as usize);
                assert_eq!(one.args.idx, whole.args.idx[x..y]);
                assert_eq!(one.args.arg_type, whole.args.arg_type[x..y]);
                assert_eq!(one.args.tensor_id, whole.args.tensor_id[x..y]);
                assert_eq!(one.args.start_offset, whole.args.start_offset[x..y]);
                for j in x..y {
                    let shape = |d: &deps::Deps, k: usize| d.dims_of(d.args.shape[k]).to_vec();
                    assert_eq!(shape(&one, j - x), shape(&whole, j));
                    with_args += 1;
                }
            }
        }
    }
    assert!(with_args > 100, "too few task arguments checked: {with_args}");
}
