//! `pypto_replies::compare` as the worker calls it: two fixtures' resident models (loaded as
//! the worker loads them), the `TaskMatch` lookups the page makes after a comparison, and a
//! side whose path tables are missing.

#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

use pypto_protocol::compare::{Better, TaskMatchRequest};
use pypto_protocol::TaskId;
use pypto_replies::compare::{self, Run};

#[test]
fn task_match_finds_the_partner_both_ways_and_says_the_rule() {
    let fixtures = common::fixtures().join("runtime");
    let a = common::load(&fixtures.join("a2a3sim-L4-TestDummyTask_LongDummyChain"));
    let b = common::load(&fixtures.join("a2a3sim-L4-TestDummyTask_SingleDummyAutoDep"));
    let (ma, mb) = (a.model.as_ref().unwrap(), b.model.as_ref().unwrap());
    let compared = compare::compare(3, 4, Run { model: ma, paths: Err("not asked") }, Run { model: mb, paths: Err("not asked") });
    let c = &compared.comparison;
    assert_eq!((c.baseline_id, c.current_id), (3, 4));
    assert_eq!((c.tasks.matched_by_id, c.tasks.matched_by_order), (1, 1));
    let ask = |side: u8, task: u64| {
        compare::task_match(&compared.index, &TaskMatchRequest { baseline_id: 3, current_id: 4, side, task: TaskId(task) })
    };
    // WRITE_CONST t0 is t0 in both; COPY_FIRST is t5 in A and t2 in B.
    let m = ask(0, 0);
    assert_eq!((m.other, m.rule.as_deref()), (Some(TaskId(0)), Some("id")));
    let m = ask(0, 5);
    assert_eq!((m.other, m.rule.as_deref()), (Some(TaskId(2)), Some("order")));
    let m = ask(1, 2);
    assert_eq!((m.side, m.task, m.other, m.rule.as_deref()), (1, TaskId(2), Some(TaskId(5)), Some("order")));
    assert_eq!(ask(0, 77).other, None, "not a task of A");
    // Without path tables: the path rows are empty and the notes say why.
    let row = |key: &str| c.summary.iter().find(|r| r.key == key).unwrap();
    assert_eq!((row("static_path_us").a, row("stall_data_wait_us").b), (None, None));
    assert_eq!(row("makespan_us").better, Better::Lower);
    assert!(c.notes.iter().any(|n| n.to_string() == "A: no critical paths: not asked"), "{:?}", c.notes);
}
