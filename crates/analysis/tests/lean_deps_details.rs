//! A model built from a lean deps.json read (the worker's path for a large `File`: task args
//! not kept, re-read per task on demand) answers every timeline query exactly like a model
//! built from the whole read: same details (tensor arguments included), same dependencies.

#![allow(clippy::unwrap_used)]

use pypto_analysis::runtime_model::{CpmInputs, RuntimeModel};
use pypto_analysis::timeline;
use pypto_analysis::timeline_query as q;
use pypto_formats::{deps, records};
use std::path::Path;

#[test]
fn lean_deps_model_gives_the_same_details_and_dependencies() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/runtime");
    let mut checked_args = 0;
    for dir in
        ["a2a3sim-L4-TestPagedAttention_CaseMediumLocal", "a2a3sim-L4-TestSpmdMultiblockMix_Case1", "a2a3sim-L4-TestChipSwimlane_default"]
    {
        let dir = root.join(dir);
        let rec = records::parse("r", &std::fs::read(dir.join("chip_swimlane_records.json")).unwrap()).unwrap();
        let dep_bytes = std::fs::read(dir.join("deps.json")).unwrap();
        let whole = deps::parse("d", &dep_bytes).unwrap();
        let mut lean = deps::DepsStream::lean();
        for chunk in dep_bytes.chunks(4096) {
            lean.feed(chunk);
        }
        let lean = lean.finish().unwrap();
        let a = RuntimeModel::build(&rec, Some(whole), None, CpmInputs::default());
        let b = RuntimeModel::build(&rec, Some(lean), None, CpmInputs::default());
        assert!(b.deps.as_ref().unwrap().args_on_demand());
        let ta = timeline::build(&[("", &a)]);
        let tb = timeline::build(&[("", &b)]);
        assert_eq!(ta.bar_count(), tb.bar_count());
        let read =
            |_: usize, _: q::DetailFile, off: u64, len: u32| dep_bytes.get(off as usize..off as usize + len as usize).map(<[u8]>::to_vec);
        for track in 0..ta.tracks.len() as u32 {
            for index in 0..ta.track_range(track).len() as u32 {
                let bar = q::BarAt { track, index };
                let x = q::bar_details(&ta, &[&a], bar);
                let y = q::bar_details_with(&tb, &[&b], bar, &read);
                assert_eq!(x, y, "{} track {track} bar {index}", dir.display());
                checked_args += x.map_or(0, |d| d.1.iter().filter(|f| f.0.starts_with("Arg ")).count());
                assert_eq!(q::dependencies(&ta, &[&a], bar, 1), q::dependencies(&tb, &[&b], bar, 1));
            }
        }
    }
    assert!(checked_args > 100, "too few argument rows compared: {checked_args}");
}
