//! The load job hands the analysis worker its resident model and timeline index postcard-encoded
//! (worker `jobs.rs`): on every runtime fixture, both decode to values equal to what was
//! encoded, and the decoded model builds the same timeline and answers the same queries.

#![allow(clippy::unwrap_used)]

use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::timeline::{self, Timeline};
use pypto_analysis::timeline_query as q;

mod common;

fn round_trip<T: serde::Serialize + for<'de> serde::Deserialize<'de>>(value: &T) -> T {
    let bytes = postcard::to_stdvec(value).unwrap();
    postcard::from_bytes(&bytes).unwrap()
}

#[test]
fn model_and_timeline_index_survive_the_encoding() {
    for dir in common::runtime_dirs() {
        let model = common::runtime_model(&dir);
        let label = dir.display().to_string();
        let back: RuntimeModel = round_trip(&model);
        let t = timeline::build(&[("", &model)]);
        let t_back = timeline::build(&[("", &back)]);
        assert_eq!(t_back, t, "{label}: the decoded model builds another timeline");
        let mut index = t.clone();
        index.columns = timeline::RenderColumns::default();
        let index_back: Timeline = round_trip(&index);
        assert_eq!(index_back, index, "{label}: timeline index");
        // Every bar's details and depth-1 arrows from the decoded pair, as from the originals.
        for track in 0..t.tracks.len() as u32 {
            for index in 0..t.track_range(track).len() as u32 {
                let bar = q::BarAt { track, index };
                assert_eq!(q::bar_details(&index_back, &[&back], bar), q::bar_details(&t, &[&model], bar), "{label}: {bar:?}");
                assert_eq!(q::dependencies(&index_back, &[&back], bar, 1), q::dependencies(&t, &[&model], bar, 1), "{label}: {bar:?}");
            }
        }
    }
}
