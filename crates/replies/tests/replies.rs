//! The replies of each part of the page over the real fixtures, checked against what the
//! fixtures themselves say (the files on disk, the reference tools' outputs beside them):
//! dataset listings and summaries, the chip swimlane's header and bar details (including a
//! task's arguments read back from a lean deps.json), the STRACE swimlane, the Performance
//! Analysis tables, the pass trace and the memory map.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::too_many_lines,
    clippy::float_cmp,
    clippy::case_sensitive_file_extension_comparisons
)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use pypto_analysis::perf_panel::gap_blocker::GapBlockerTable;
use pypto_analysis::runtime_model::{CpmInputs, RuntimeModel};
use pypto_analysis::timeline;
use pypto_analysis::timeline_query::{DetailFile, NOT_READ};
use pypto_analysis::trace_timeline;
use pypto_formats::discovery::{self, DatasetKind};
use pypto_formats::{deps, records, strace};
use pypto_protocol::datasets::EntryMeta;
use pypto_protocol::timeline::{BarDetailsRequest, BarRef, RangeStatsRequest, SearchRequest};
use pypto_replies::{datasets, memory_map, pass_trace, perf_panel, perf_paths, timeline as chip, traces};

fn entries_of(listing: &[(String, u64)]) -> Vec<EntryMeta> {
    listing.iter().map(|(path, size_bytes)| EntryMeta { path: path.clone(), size_bytes: *size_bytes }).collect()
}

#[test]
fn dataset_infos_list_every_dataset_with_its_files_as_on_disk() {
    let root = common::fixtures();
    let listing = common::walk(&root);
    let found = discovery::discover(&listing);
    let infos = datasets::dataset_infos(&found, &entries_of(&listing));
    assert_eq!(infos.len(), found.datasets.len());
    assert!(infos.iter().any(|i| i.kind == DatasetKind::Runtime) && infos.iter().any(|i| i.kind == DatasetKind::PassDump));
    for (i, info) in infos.iter().enumerate() {
        assert_eq!(info.dataset_id as usize, i);
        assert!(!info.files.is_empty(), "{}: files", info.path);
        for f in &info.files {
            let on_disk = std::fs::metadata(root.join(&f.path)).unwrap_or_else(|e| panic!("{}: {e}", f.path));
            assert_eq!(f.size_bytes, on_disk.len(), "{}", f.path);
            assert!(f.path.starts_with(&info.path), "{} is under {}", f.path, info.path);
        }
    }
}

#[test]
fn pass_dump_summaries_count_the_snapshots_in_the_directory() {
    let root = common::fixtures().join("passes");
    let listing = common::walk(&root);
    let entries = entries_of(&listing);
    let found = discovery::discover(&listing);
    let mut valid = 0;
    for d in found.datasets.iter().filter(|d| d.kind == DatasetKind::PassDump) {
        let summary = datasets::pass_dump_summary(d, &entries).pass_dump.unwrap();
        let names: Vec<String> = std::fs::read_dir(root.join(&d.path))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !std::path::Path::new(&root.join(&d.path).join(n)).is_dir())
            .collect();
        let mut indices: Vec<u32> = names
            .iter()
            .filter_map(|n| n.split_once("_after_").filter(|(_, rest)| rest.ends_with(".py")).and_then(|(k, _)| k.parse().ok()))
            .collect();
        indices.sort_unstable();
        assert_eq!(summary.has_frontend, names.iter().any(|n| n == "00_frontend.py"), "{}", d.path);
        if d.path.starts_with("generated-") {
            assert_eq!(summary.pass_count as usize, indices.len(), "{}: snapshots", d.path);
            let consecutive = indices.iter().enumerate().all(|(i, &k)| k as usize == i + 1);
            assert_eq!(summary.problems.is_empty(), consecutive, "{}: {:?}", d.path, summary.problems);
            valid += usize::from(consecutive);
        } else if d.path.starts_with("bad-") {
            assert!(!summary.problems.is_empty(), "{}: a bad dump has problems", d.path);
        }
    }
    assert!(valid >= 3, "valid generated dumps: {valid}");
}

#[test]
fn records_and_deps_summaries_are_the_files_facts() {
    for dir in common::runtime_dirs() {
        let c = common::load(&dir);
        let facts = c.facts.as_ref().unwrap();
        let path = c.entries[c.dataset.records.unwrap()].0.clone();
        let r = datasets::records_summary(path.clone(), facts);
        assert_eq!(r.path, path);
        assert_eq!((r.level, r.task_count as usize, r.aicore_rows as usize), (facts.level, facts.task_count, facts.aicore_rows));
        assert!((r.span_us - (r.last_end_us - r.first_start_us)).abs() < 1e-6, "{}: span", c.name);
        if let Some(d) = &c.deps {
            let json: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("deps.json")).unwrap()).unwrap();
            let s = datasets::deps_summary("deps.json".into(), d);
            assert_eq!(s.tasks as usize, json["tasks"].as_array().unwrap().len(), "{}: tasks", c.name);
            assert_eq!(s.edges as usize, json["edges"].as_array().unwrap().len(), "{}: edge rows", c.name);
        }
    }
}

#[test]
fn a_timeline_header_describes_its_tracks_and_bars() {
    for dir in common::runtime_dirs() {
        let c = common::load(&dir);
        let model = c.model.as_ref().unwrap();
        let t = timeline::build(&[("", model)]);
        let h = chip::header(3, &[5], &t);
        assert_eq!((h.timeline_id, h.dataset_ids.as_slice()), (3, &[5][..]));
        assert_eq!(h.tracks.len(), t.tracks.len());
        assert_eq!(h.bar_count, u64::from(*t.track_offsets.last().unwrap()), "{}", c.name);
        let mut in_groups: Vec<u32> = h.groups.iter().flat_map(|g| g.tracks.iter().copied()).collect();
        in_groups.sort_unstable();
        assert_eq!(in_groups, (0..h.tracks.len() as u32).collect::<Vec<_>>(), "{}: every track in one group", c.name);
        for (k, track) in h.tracks.iter().enumerate() {
            let g = &h.groups[track.group as usize];
            assert!(g.tracks.contains(&(k as u32)) && g.dataset_id == 5 && g.view == track.view, "{}: track {k}", c.name);
        }
        assert!(h.absent.iter().all(|a| a.dataset_id == 5));
        assert!(h.first_start_us <= h.last_end_us);
    }
}

#[test]
fn arguments_not_read_yet_are_marked_then_read_back_from_deps_json() {
    let dir = common::fixtures().join("runtime/a2a3sim-L4-TestPagedAttention_CaseMediumLocal");
    let rec = records::parse("r", &std::fs::read(dir.join("chip_swimlane_records.json")).unwrap()).unwrap();
    let bytes = std::fs::read(dir.join("deps.json")).unwrap();
    let mut stream = deps::DepsStream::lean();
    stream.feed(&bytes);
    let whole = RuntimeModel::build(&rec, Some(deps::parse("d", &bytes).unwrap()), None, CpmInputs::default());
    let lean = RuntimeModel::build(&rec, stream.finish(), None, CpmInputs::default());
    let t = timeline::build(&[("", &lean)]);
    let read = |_: usize, f: DetailFile, off: u64, len: u32| {
        assert_eq!(f, DetailFile::Deps);
        bytes.get(off as usize..off as usize + len as usize).map(<[u8]>::to_vec)
    };
    let mut marked = 0;
    for track in 0..t.tracks.len() as u32 {
        for index in 0..t.track_range(track).len() as u32 {
            let bar = BarRef { track, index };
            let mut first = chip::bar_details(1, bar, &t, &[&lean], &|_, _, _, _| None).unwrap();
            let full = chip::bar_details(1, bar, &t, &[&lean], &read).unwrap();
            assert_eq!(full, chip::bar_details(1, bar, &t, &[&whole], &|_, _, _, _| None).unwrap());
            if first.fields.iter().any(|f| f.1 == NOT_READ) {
                chip::mark_arguments_being_read(&mut first);
                let args = first.fields.iter().find(|f| f.0 == "Arguments").unwrap();
                assert_eq!(args.1, chip::ARGUMENTS_BEING_READ);
                assert!(full.fields.iter().any(|f| f.0.starts_with("Arg ")), "the full reply has the arguments");
                marked += 1;
            }
        }
    }
    assert!(marked > 100, "{marked} task bars read their arguments back");
    assert_eq!(
        chip::bar_details(1, BarRef { track: 0, index: u32::MAX }, &t, &[&lean], &read),
        Err(chip::no_bar(BarRef { track: 0, index: u32::MAX }))
    );
}

#[test]
fn the_strace_swimlane_and_its_statistics() {
    let path = "serving-strace-swimlane.json";
    let bytes = std::fs::read(common::fixtures().join("strace").join(path)).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let events = json["traceEvents"].as_array().unwrap();
    let count = |ph: &str| events.iter().filter(|e| e["ph"] == ph).count() as u64;
    let s = strace::parse(path, &bytes).unwrap();
    let t = trace_timeline::build(&s);
    let summary = traces::summary(path, &s, &t);
    assert_eq!((summary.spans, summary.instants), (count("X"), count("i") + count("I")));
    assert_eq!(summary.lanes as usize, t.tracks.len());
    let info = traces::info(2, 9, &format!("case/{path}"), &s, &t);
    let stats = info.stats.as_ref().expect("a serving STRACE file has statistics");
    assert_eq!((stats.span_count, stats.instant_count), (summary.spans, summary.instants));
    assert_eq!(stats.total_duration_us, summary.span_us);
    assert!(!traces::info(2, 9, "case/merged_swimlane.json", &s, &t).serving_strace);
    let h = traces::header(2, 9, &t);
    assert_eq!((h.tracks.len(), h.bar_count), (t.tracks.len(), t.bar_count() as u64));
    // A span name found by search, its details titled by it, and the range statistics of
    // every lane over the whole trace count every span.
    let name = events.iter().find(|e| e["ph"] == "X").and_then(|e| e["name"].as_str()).unwrap();
    let hits = traces::search(&SearchRequest { timeline_id: 2, query: name.to_owned(), limit: 50 }, &t);
    assert!(hits.hits.iter().any(|x| x.label == name), "search {name}");
    let hit = hits.hits.iter().find(|x| x.label == name).unwrap();
    let details = traces::bar_details(&BarDetailsRequest { timeline_id: 2, bar: hit.bar }, &s, &t).unwrap();
    assert!(details.title.contains(name), "{} names {name}", details.title);
    let all = RangeStatsRequest {
        timeline_id: 2,
        tracks: (0..t.tracks.len() as u32).collect(),
        start_us: h.first_start_us - 1.0,
        end_us: h.last_end_us + 1.0,
    };
    let rows = traces::range_stats(&all, &t).rows;
    assert_eq!(rows.iter().map(|r| r.count).sum::<u64>(), summary.spans, "range statistics count every span");
}

/// The reference converter's "Task Statistics by Function" counts (`Func_ID` → count).
fn reference_counts(stdout: &str) -> BTreeMap<i64, u64> {
    let mut out = BTreeMap::new();
    let mut in_table = false;
    for line in stdout.lines() {
        if line.starts_with("Func_ID") {
            in_table = true;
            continue;
        }
        if in_table && line.starts_with("TOTAL") {
            break;
        }
        let cols: Vec<&str> = line.split_whitespace().collect();
        if in_table && cols.len() >= 3 && !line.starts_with("---") {
            out.insert(cols[0].parse().unwrap(), cols[2].parse().unwrap());
        }
    }
    out
}

#[test]
fn the_panel_tables_count_what_the_converter_counts() {
    let mut checked = 0;
    for dir in common::runtime_dirs() {
        let c = common::load(&dir);
        let Some(stdout) = c.reference("reference_converter_stdout.txt") else { continue };
        let model = c.model.as_ref().unwrap();
        let facts = c.facts.as_ref().unwrap();
        let data = perf_panel::panel_data(4, model, facts.level, &facts.warnings);
        let ours: BTreeMap<i64, u64> = data.kernel_stats.iter().map(|r| (r.func_id, r.count)).collect();
        assert_eq!(ours, reference_counts(&stdout), "{}: per-function counts", c.name);
        assert_eq!(data.kernel_total_count, ours.values().sum::<u64>(), "{}: total", c.name);
        assert_eq!(data.overview.level, facts.level);
        assert_eq!(data.overview.level_allows, perf_panel::level_allows(facts.level));
        assert!(
            facts.warnings.iter().all(|w| data.overview.warnings.iter().any(|o| o.message == w.message)),
            "{}: the records' warnings",
            c.name
        );
        let unique: BTreeSet<&String> = data.overview.warnings.iter().map(|w| &w.message).collect();
        assert_eq!(unique.len(), data.overview.warnings.len(), "{}: each warning once", c.name);
        assert!(data.longest_setup.len() <= perf_panel::SETUP_TOP_ROWS);
        assert!(data.longest_setup.windows(2).all(|w| w[0].setup_us >= w[1].setup_us), "{}: longest first", c.name);
        checked += 1;
    }
    assert!(checked >= 16, "fixtures with the converter's table: {checked}");
}

/// The critical-path task set of a `CPM_*.json`, read independently: the `args.taskId` of the
/// Worker View's (pid 4) `X` bars whose names do not start with `·`.
fn cpm_set(text: &str) -> BTreeSet<u64> {
    let json: serde_json::Value = serde_json::from_str(text).unwrap();
    json["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X" && e["pid"] == 4 && !e["name"].as_str().unwrap_or("").starts_with('\u{b7}'))
        .filter_map(|e| e["args"]["taskId"].as_u64())
        .collect()
}

#[test]
fn the_path_tables_show_the_captures_critical_paths() {
    let mut checked = 0;
    for dir in common::runtime_dirs() {
        let c = common::load(&dir);
        let records = c.records.as_ref().unwrap();
        let names = c.model.as_ref().and_then(|m| m.names.as_ref());
        let tables = perf_paths::path_tables(records, c.deps.clone(), names, &c.cpm);
        let gaps = tables.gap_blocker.gap_us.clone();
        let data = perf_paths::to_protocol(6, tables);
        assert_eq!(data.dataset_id, 6);
        assert_eq!(data.gap_rows.len(), gaps.len());
        for (file, path) in [("CPM_static.json", &data.static_path), ("CPM_observed.json", &data.observed_path)] {
            let Some(text) = c.reference(file) else { continue };
            assert_eq!(path.source, file, "{}: the path comes from {file}", c.name);
            let ours: BTreeSet<u64> = path.tasks.iter().map(|r| r.task_id.raw()).collect();
            assert_eq!(ours, cpm_set(&text), "{}: {file}'s tasks", c.name);
            checked += 1;
        }
        // The threshold check: 0 µs keeps every row with a gap, a bad number says why.
        let zero = perf_paths::gap_threshold(
            6,
            "0".into(),
            &pypto_analysis::perf_panel::gap_blocker::GapBlockerTable { gap_us: gaps.clone(), ..Default::default() },
        );
        assert_eq!(zero.above.len(), gaps.iter().filter(|&&g| g > 0.0).count());
        let bad = perf_paths::gap_threshold(6, "-1".into(), &GapBlockerTable::default());
        assert!(bad.error.is_some() && bad.above.is_empty());
    }
    assert!(checked >= 20, "paths compared with CPM files: {checked}");
}

/// A pass's expected line counts: previous file, added, removed, no-op.
type Counts<'a> = (&'a str, u32, u32, bool);

#[test]
fn the_pass_list_and_diffs_count_the_reference_line_changes() {
    let root = common::fixtures().join("passes");
    let tsv = std::fs::read_to_string(root.join("expected-line-counts.tsv")).unwrap();
    // dir → file → (previous, added, removed, no_op)
    let mut expected: BTreeMap<&str, BTreeMap<&str, Counts<'_>>> = BTreeMap::new();
    for line in tsv.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        expected.entry(c[0]).or_default().insert(c[1], (c[2], c[3].parse().unwrap(), c[4].parse().unwrap(), c[5] == "1"));
    }
    assert!(!expected.is_empty());
    for (dir, files) in &expected {
        let d = root.join(dir);
        let mut names: Vec<String> =
            std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let text = |n: &str| std::fs::read_to_string(d.join(n)).map_err(|e| e.to_string());
        let list = pypto_analysis::pass_trace::pass_list(&pypto_formats::passes_dump::validate(&refs), &refs, text);
        let data = pass_trace::pass_list_data(3, &list);
        assert_eq!(data.passes.len(), files.len(), "{dir}");
        for (i, p) in data.passes.iter().enumerate() {
            let (previous, added, removed, no_op) = files[p.file_name.as_str()];
            assert_eq!((p.previous_file.as_str(), p.added, p.removed, p.no_op), (previous, added, removed, no_op), "{dir}/{}", p.file_name);
            let after = text(&p.file_name).unwrap();
            let before = if p.previous_file.is_empty() { String::new() } else { text(&p.previous_file).unwrap() };
            let entry = &list.passes[i];
            let input = pass_trace::DiffInput {
                entry,
                before_text: &before,
                after_text: &after,
                before_regions: None,
                after_regions: None,
                log: None,
            };
            let mut steps = Vec::new();
            let diff = pass_trace::build_diff_stepped(3, i as u32, &input, None, &mut |done, total| steps.push((done, total)));
            let all = pass_trace::DIFF_STEPS;
            assert_eq!(steps, (0..=all).map(|k| (k, all)).collect::<Vec<_>>(), "{dir}/{}: every step told once, in order", p.file_name);
            assert_eq!(diff, pass_trace::build_diff(3, i as u32, &input, None), "{dir}/{}: the steps change nothing", p.file_name);
            assert_eq!((diff.added, diff.removed), (added, removed), "{dir}/{}: the diff's counts", p.file_name);
            assert_eq!(diff.kinds.len(), diff.before.len());
            let inserted = diff.kinds.iter().filter(|&&k| k == 2 || k == 3).count();
            assert!(inserted <= added as usize + removed as usize, "{dir}/{}", p.file_name);
            assert_eq!(diff.after_lines.len(), pypto_analysis::pass_trace::split_lines(&after).len());
            assert_eq!(p.problems, Vec::new(), "{dir}/{}: a valid snapshot", p.file_name);
        }
        assert_eq!(data.frontend_problems, Vec::new(), "{dir}");
    }
}

/// The pass list reply carries each snapshot's problems (the frontend's apart) as the page
/// shows them: file, 1-based line and character column, message.
#[test]
fn pass_rows_carry_their_snapshots_problems() {
    use pypto_analysis::pass_trace::Decoded;
    use pypto_protocol::pass_trace::SnapshotProblem;
    use pypto_vocab::{SnapshotProblemKind as K, WarningArg};
    let files: [(&str, &[u8]); 4] = [
        ("00_frontend.py", b"x = [1,\n"),
        ("01_after_A.py", b"x = [1]\n"),
        ("02_after_B.py", b"x = '\xff'\ny = (\n"),
        ("03_after_C.py", b"x = [1]\n"),
    ];
    let names: Vec<&str> = files.iter().map(|f| f.0).collect();
    let read = |n: &str| files.iter().find(|f| f.0 == n).map(|f| Decoded::from_bytes(n, f.1)).ok_or_else(|| n.to_owned());
    let list = pypto_analysis::pass_trace::pass_list(&pypto_formats::passes_dump::validate(&names), &names, read);
    let data = pass_trace::pass_list_data(5, &list);
    let text = |name: &str, v: &str| (name.to_owned(), WarningArg::Text(v.to_owned()));
    let problem = |file: &str, line, column, message: &str, kind, args: Vec<(String, WarningArg)>| SnapshotProblem {
        file: file.to_owned(),
        line,
        column,
        message: message.to_owned(),
        kind: Some(kind),
        args,
    };
    let never_closed = |file, open: &str| {
        problem(
            file,
            if open == "[" { 1 } else { 2 },
            5,
            &format!("'{open}' was never closed"),
            K::NeverClosed,
            vec![text("bracket", open)],
        )
    };
    assert_eq!(data.frontend_problems, vec![never_closed("00_frontend.py", "[")]);
    let rows: Vec<&[SnapshotProblem]> = data.passes.iter().map(|p| p.problems.as_slice()).collect();
    let invalid = "invalid UTF-8 at byte offset 5 (0xFF; 1 undecodable byte in the file, shown as U+FFFD)";
    let invalid_args = vec![text("offset", "5"), text("byte", "0xFF"), ("count".to_owned(), WarningArg::Count(1))];
    assert_eq!(
        rows,
        vec![
            &[][..],
            &[problem("02_after_B.py", 1, 6, invalid, K::InvalidUtf8, invalid_args), never_closed("02_after_B.py", "(")][..],
            &[][..]
        ]
    );
    // diffed all the same
    assert_eq!(data.passes.iter().map(|p| (p.added, p.removed)).collect::<Vec<_>>(), vec![(1, 1), (2, 1), (1, 2)]);
}

#[test]
fn the_memory_map_reply_has_the_reference_boxes() {
    let root = common::fixtures().join("passes");
    let expected: serde_json::Value = serde_json::from_slice(&std::fs::read(root.join("expected-memory-maps.json")).unwrap()).unwrap();
    let mut checked = 0;
    for (file, want) in expected.as_object().unwrap() {
        let path = root.join(file);
        let (dump_dir, name) = file.rsplit_once('/').unwrap();
        let names: Vec<String> =
            std::fs::read_dir(root.join(dump_dir)).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        let mut data = memory_map::empty_data(1);
        assert_eq!(memory_map::choose_snapshot(&mut data, &names, Some(name.to_owned())), Ok(name.to_owned()));
        // The reference assumed the chip (no ptoas/*.pto beside these dumps).
        let chip = memory_map::assumed_chip();
        memory_map::set_chip(&mut data, &chip);
        let result = memory_map::fill_map(&mut data, name, &std::fs::read_to_string(&path).unwrap(), &chip);
        if want.get("error").is_some() {
            assert!(result.is_err() || data.functions.iter().all(|f| f.boxes.is_empty()), "{file}: no map");
            continue;
        }
        result.unwrap_or_else(|e| panic!("{file}: {e}"));
        let want_functions = want["functions"].as_array().unwrap();
        assert_eq!(data.functions.len(), want_functions.len(), "{file}");
        for (f, w) in data.functions.iter().zip(want_functions) {
            assert_eq!(f.name, w["name"].as_str().unwrap());
            let ours: Vec<(String, i64, i64)> = f.boxes.iter().map(|b| (b.name.clone(), b.offset_bytes, b.size_bytes)).collect();
            let theirs: Vec<(String, i64, i64)> = w["boxes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| (b["name"].as_str().unwrap().to_owned(), b["offset"].as_i64().unwrap(), b["size"].as_i64().unwrap()))
                .collect();
            assert_eq!(ours, theirs, "{file} {}: boxes", f.name);
            for s in &f.spaces {
                let ws = w["spaces"].as_array().unwrap().iter().find(|x| x["space"] == s.space.as_str()).unwrap();
                assert_eq!(
                    (s.hwm_bytes, s.limit_bytes),
                    (ws["hwm"].as_i64().unwrap(), ws["limit"].as_i64().unwrap()),
                    "{file} {}",
                    s.space
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 3, "maps compared: {checked}");
    // Without a file, the dump's AllocateMemoryAddr snapshot; a dump without one says so.
    let mut data = memory_map::empty_data(1);
    let names = vec!["00_frontend.py".to_owned(), "01_after_X.py".to_owned()];
    assert!(memory_map::choose_snapshot(&mut data, &names, None).unwrap_err().contains("AllocateMemoryAddr"));
    assert_eq!(data.snapshots, vec!["01_after_X.py".to_owned()]);
    assert!(memory_map::choose_snapshot(&mut data, &[], None).unwrap_err().contains("not a pass dump"));
}

/// A damaged snapshot's memory map reply carries its problems (as the pass trace marks them),
/// and the map of the text as read; an intact one has none.
#[test]
fn the_memory_map_reply_names_a_damaged_snapshot() {
    use pypto_analysis::pass_trace::Decoded;
    let name = "35_after_AllocateMemoryAddr.py";
    let path = common::fixtures().join("passes/generated-paged_attention/passes_dump").join(name);
    let mut bytes = std::fs::read(&path).unwrap();
    let chip = memory_map::assumed_chip();
    let mut data = memory_map::empty_data(1);
    let intact = Decoded::from_bytes(name, &bytes);
    memory_map::set_snapshot_problems(&mut data, name, &intact.text, intact.undecodable.as_ref());
    assert_eq!(data.snapshot_problems, Vec::new());
    // Two undecodable bytes in a comment: the map is built all the same, the problem is named.
    let at = bytes.windows(2).position(|w| w == b"# ").unwrap() + 2;
    bytes[at..at + 2].copy_from_slice(&[0xFF, 0xFE]);
    let damaged = Decoded::from_bytes(name, &bytes);
    memory_map::set_snapshot_problems(&mut data, name, &damaged.text, damaged.undecodable.as_ref());
    memory_map::fill_map(&mut data, name, &damaged.text, &chip).unwrap();
    assert!(!data.functions.is_empty());
    let problems: Vec<(&str, bool)> = data.snapshot_problems.iter().map(|p| (p.file.as_str(), p.line > 0 && p.column > 0)).collect();
    assert_eq!(problems, vec![(name, true)]);
    assert!(data.snapshot_problems[0].message.starts_with("invalid UTF-8"), "{:?}", data.snapshot_problems);
    // Cut mid-line where Python reads it: named as a cut.
    let cut = &intact.text[..intact.text.len() - 2];
    memory_map::set_snapshot_problems(&mut data, name, cut, None);
    assert!(data.snapshot_problems.iter().any(|p| p.message.contains("final newline")), "{:?}", data.snapshot_problems);
}

#[test]
fn the_chip_comes_from_the_cases_pto_files_then_compiled_meta() {
    let root = common::fixtures().join("passes");
    let listing = common::walk(&root);
    let paths: Vec<&str> = listing.iter().map(|e| e.0.as_str()).collect();
    let dump = "generated-paged_attention/passes_dump";
    let files = memory_map::chip_files(dump, paths.iter().copied());
    let pto: Vec<&str> = files.pto.iter().map(|&i| paths[i]).collect();
    let mut expected: Vec<&str> =
        paths.iter().copied().filter(|p| p.starts_with("generated-paged_attention/kernels/") && p.ends_with(".pto")).collect();
    expected.sort_unstable();
    assert_eq!(pto, expected);
    assert_eq!(files.compiled_meta.map(|i| paths[i]), Some("generated-paged_attention/compiled_meta.json"));
    let first = std::fs::read_to_string(root.join(pto[0])).unwrap();
    let meta = std::fs::read_to_string(root.join("generated-paged_attention/compiled_meta.json")).unwrap();
    let from_pto = memory_map::chip_of_pto(pto[0], &first);
    let from_meta = memory_map::chip_of_compiled_meta("compiled_meta.json", &meta);
    assert!(from_pto.is_some() || from_meta.is_some(), "the case names its chip");
    assert_eq!(memory_map::requested_chip("a5").map(|c| c.backend.name), Ok("Ascend950".to_owned()));
    assert!(memory_map::requested_chip("nope").is_err());
    assert!(!memory_map::assumed_chip().backend.detected);
}

/// The page's cycle check (the model's adjacency) agrees with the graph's edge-mode fallback
/// (`report`'s) on every fixture and on a deps.json with a cycle, so both list the same
/// edge-mode warnings.
#[test]
fn the_models_cycle_check_agrees_with_the_graphs_fallback() {
    let mut checked = 0;
    for dir in common::runtime_dirs() {
        let c = common::load(&dir);
        let (Some(model), Some(deps)) = (c.model.as_ref(), c.deps.as_ref()) else { continue };
        let graph = pypto_replies::dep_graph::DepGraph::build(deps, &[], model.names.as_ref());
        let fallback = graph.selections.iter().any(|s| s.cycle_fallback);
        assert_eq!(model.has_dependency_cycle(), fallback, "{}", c.name);
        checked += 1;
    }
    assert!(checked > 5, "{checked} fixtures with deps.json");
    let records = records::parse(
        "r.json",
        b"{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 50000000, \"num_cores\": 2},\n\
          \"aicore_tasks\": [[0, 1, 1, 100, 200, 3], [1, 2, 1, 150, 250, 2]], \"aicpu_tasks\": [[0, 1, 90, 210], [1, 1, 95, 260]]}",
    )
    .expect("records");
    let cyclic = deps::parse("d.json", b"{\"tasks\": [{\"task_id\": 1}, {\"task_id\": 2}], \"edges\": [[1, 2], [2, 1]]}").expect("deps");
    let model = RuntimeModel::build(&records, Some(cyclic), None, CpmInputs::default());
    assert!(model.has_dependency_cycle());
}
