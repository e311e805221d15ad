//! The comparison of two runtime captures for the page (`ToWorker::Compare`, A the baseline,
//! B this run) and its task highlighting (`ToWorker::TaskMatch`: a task's partner in the
//! other run). Both datasets' resident models are in `store`; each side's path tables come
//! from `perf_paths` (computed in a job on the first request, as for the panel's path tabs);
//! `pypto_replies::compare` computes the rest. The task matching of the last comparison of
//! each (A, B) pair (or, asked before one, of the models alone) is kept for `TaskMatch` until
//! the next folder opens (comparison sources' datasets never reuse an id: `open`).

use std::cell::RefCell;
use std::collections::HashMap;

use pypto_analysis::runtime_model::RuntimeModel;
use pypto_analysis::task_matching::MatchIndex;
use pypto_protocol::compare::{CompareRequest, TaskMatch, TaskMatchRequest};
use pypto_protocol::perf::PerfPathsData;
use pypto_replies::compare::{self, Run};

use crate::store::{self, SESSION};
use crate::transport::Reply;

#[derive(Default)]
struct Matchings {
    /// The session generation these matchings belong to.
    generation: u64,
    by_pair: HashMap<(u32, u32), MatchIndex>,
}

thread_local! {
    static MATCHINGS: RefCell<Matchings> = RefCell::new(Matchings::default());
}

/// `ToWorker::Compare`: waits for both sides' path tables (a side without them is compared
/// without its critical paths, the reason in the notes), then compares.
pub(crate) async fn compare(request: CompareRequest, reply: Reply<CompareRequest>) {
    let CompareRequest { baseline_id, current_id } = request;
    let generation = store::generation();
    let paths_a = crate::perf_paths::tables(baseline_id).await;
    let paths_b = crate::perf_paths::tables(current_id).await;
    if store::generation() != generation {
        return reply.fail("a new folder was opened".to_owned());
    }
    let compared = SESSION.with_borrow(|s| {
        let model = |id: u32| {
            s.runtime.get(&id).and_then(|d| d.model.as_ref()).ok_or_else(|| format!("dataset {id} has no readable swimlane records"))
        };
        let (a, b) = (model(baseline_id)?, model(current_id)?);
        Ok::<_, String>(compare::compare(baseline_id, current_id, run(a, &paths_a), run(b, &paths_b)))
    });
    let compared = match compared {
        Ok(c) => c,
        Err(e) => return reply.fail(e),
    };
    MATCHINGS.with_borrow_mut(|m| {
        if m.generation != generation {
            *m = Matchings { generation, ..Matchings::default() };
        }
        m.by_pair.insert((baseline_id, current_id), compared.index);
    });
    reply.send(Box::new(compared.comparison));
}

fn run<'a>(model: &'a RuntimeModel, paths: &'a Result<PerfPathsData, String>) -> Run<'a> {
    Run { model, paths: paths.as_ref().map_err(String::as_str) }
}

/// `ToWorker::TaskMatch`: the partner from the pair's last comparison (the pair's matching is
/// made now when it was not compared yet: a link straight to its swimlanes).
pub(crate) fn task_match(request: &TaskMatchRequest) -> Result<TaskMatch, String> {
    let generation = store::generation();
    let pair = (request.baseline_id, request.current_id);
    let known = MATCHINGS.with_borrow(|m| m.generation == generation && m.by_pair.contains_key(&pair));
    if !known {
        let index = SESSION.with_borrow(|s| {
            let model = |id: u32| {
                s.runtime.get(&id).and_then(|d| d.model.as_ref()).ok_or_else(|| format!("dataset {id} has no readable swimlane records"))
            };
            Ok::<_, String>(compare::match_index(model(pair.0)?, model(pair.1)?))
        })?;
        MATCHINGS.with_borrow_mut(|m| {
            if m.generation != generation {
                *m = Matchings { generation, ..Matchings::default() };
            }
            m.by_pair.insert(pair, index);
        });
    }
    MATCHINGS
        .with_borrow(|m| m.by_pair.get(&pair).map(|index| compare::task_match(index, request)))
        .ok_or_else(|| format!("datasets {} and {} could not be matched", pair.0, pair.1))
}
