//! `RuntimeModel::build_owned` (the worker's load: raw scheduler records freed as they are
//! converted) gives the same model and summary as `RuntimeModel::build` on every capture.

#![allow(clippy::expect_used)]

mod common;

use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::{summary, timeline};

#[test]
fn build_owned_equals_build_on_every_capture() {
    for dir in common::runtime_dirs() {
        let name = dir.display().to_string();
        let (recs, d, names, c) = common::runtime_inputs(&dir);
        let borrowed = RuntimeModel::build(&recs, d.clone(), names.clone(), c.clone());
        let facts = summary::records_summary(&recs, &borrowed.tasks);
        let (owned, owned_facts) = RuntimeModel::build_owned(recs, d, names, c);
        assert_eq!(owned_facts, facts, "{name}: summary");
        assert_eq!(owned.phases, borrowed.phases, "{name}: scheduler phases");
        assert_eq!(owned.orch, borrowed.orch, "{name}: orchestrator lanes");
        assert_eq!(owned.kinds, borrowed.kinds, "{name}: task kinds");
        assert_eq!(owned.tasks.task_id, borrowed.tasks.task_id, "{name}: joined tasks");
        assert_eq!((&owned.succ_offsets, &owned.succ), (&borrowed.succ_offsets, &borrowed.succ), "{name}: successors");
        assert_eq!((&owned.static_path, &owned.observed_path), (&borrowed.static_path, &borrowed.observed_path), "{name}: critical paths");
        assert_eq!(timeline::build(&[("", &owned)]), timeline::build(&[("", &borrowed)]), "{name}: timeline");
    }
}
