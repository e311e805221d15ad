//! The analysis worker keeps the scheduler phases detached ([`RuntimeModel::detach_phases`]):
//! only their task ids and the records' places in the file, a bar's details reading its
//! record back. On every runtime fixture, read slice by slice as the worker reads it, every
//! bar's details and dependencies from the detached model and the compacted timeline index
//! ([`pypto_analysis::timeline::Timeline::compact_for_queries`]; bytes read back from the file)
//! equal those of the whole model and timeline, and without the bytes a phase bar says its
//! record was not read.

#![allow(clippy::unwrap_used)]

use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::timeline::{self, TrackKind};
use pypto_analysis::timeline_query::{self as q, DetailFile};
use pypto_formats::records;

mod common;

#[test]
fn detached_phase_details_read_back_from_the_file_equal_the_whole_models() {
    let (mut detached_threads, mut phase_bars, mut aliased) = (0, 0, 0);
    for dir in common::runtime_dirs() {
        let path = dir.join("chip_swimlane_records.json");
        let bytes = std::fs::read(&path).unwrap();
        let mut stream = records::RecordsStream::new();
        for chunk in bytes.chunks(4096) {
            stream.feed(chunk);
        }
        let recs = stream.finish("chip_swimlane_records.json").unwrap();
        let (_, deps, names, cpm) = common::runtime_inputs(&dir);
        let (model, _) = RuntimeModel::build_owned(recs, deps, names, cpm);
        let t = timeline::build(&[("", &model)]);
        // What the analysis worker keeps: the phases detached, the timeline's index compacted.
        let mut detached = model.clone();
        detached.detach_phases();
        let mut kept = t.clone();
        kept.compact_for_queries();
        aliased += kept.source_alias.iter().filter(|a| a.is_some()).count();
        let label = dir.display().to_string();
        detached_threads += detached.phases.iter().filter(|p| p.is_detached()).count();
        if model.phases.iter().any(|p| !p.is_empty()) {
            assert!(detached.phases_detached(), "{label}: phases read slice by slice stay whole");
        }
        let read = |_: usize, file: DetailFile, offset: u64, len: u32| {
            assert_eq!(file, DetailFile::Records, "{label}: deps.json was read whole");
            let from = offset as usize;
            bytes.get(from..(from + len as usize).min(bytes.len())).map(<[u8]>::to_vec)
        };
        for track in 0..t.tracks.len() as u32 {
            let is_phase = matches!(t.tracks[track as usize].kind, TrackKind::SchedThread { .. });
            for index in 0..t.track_range(track).len() as u32 {
                let bar = q::BarAt { track, index };
                let whole = q::bar_details(&t, &[&model], bar);
                assert_eq!(q::bar_details_with(&kept, &[&detached], bar, &read), whole, "{label}: {bar:?}");
                assert_eq!(q::dependencies(&kept, &[&detached], bar, 1), q::dependencies(&t, &[&model], bar, 1), "{label}: {bar:?}");
                assert_eq!(q::bar_task(&kept, &[&detached], bar), q::bar_task(&t, &[&model], bar), "{label}: {bar:?}");
                if is_phase {
                    phase_bars += 1;
                    let (_, fields, _) = q::bar_details(&kept, &[&detached], bar).unwrap();
                    assert!(fields.iter().any(|(k, v)| k == "Record" && v == q::NOT_READ), "{label}: {bar:?} {fields:?}");
                }
            }
        }
    }
    assert!(detached_threads > 20 && phase_bars > 500, "{detached_threads} threads, {phase_bars} phase bars");
    assert!(aliased > 20, "{aliased} Scheduler View lanes share their Worker View lane's sources");
    // Searches answer the same from the kept index.
    for dir in common::runtime_dirs().into_iter().take(6) {
        let model = common::runtime_model(&dir);
        let t = timeline::build(&[("", &model)]);
        let mut kept = t.clone();
        kept.compact_for_queries();
        for query in ["t5", "r1t3", "func", "QK", "dummy", "alloc"] {
            assert_eq!(q::search(&kept, &[&model], query, 50), q::search(&t, &[&model], query, 50), "{}: {query}", dir.display());
        }
    }
}
