//! The dependency-graph layout's JIT warm-up, for the open flow (a big deps.json loads) and
//! the graph handler (before its first layout). V8 runs a wasm function's first calls in its
//! baseline tier and compiles the optimised code in the background, so the first layout of a
//! big graph would run 3–6× slower than the next. When a dataset with a big deps.json (≥
//! [`WARM_UP_MIN_BYTES`]) loads (else at the latest before the graph view reads it) the
//! worker lays out a small synthetic DAG of the same shape twice, once per worker; the
//! optimising compiler then works while the files are parsed, and the real layout runs
//! optimised code. The first graph's header reports that warm-up's time ([`take_ms`]) beside
//! the layout's. Also the layout's progress to the page ([`progress_control`]), for the
//! analysis worker and a layout job alike.

use std::cell::Cell;

use pypto_analysis::dag_layout::{self, Direction, LayoutOptions, NodeSize};
use pypto_protocol::datasets::{Progress, ProgressStage};
use pypto_protocol::FromWorker;
use pypto_replies::dep_graph::{NODE_HEIGHT, NODE_WIDTH};

use crate::clock::now_ms;

thread_local! {
    /// Whether this worker ran the JIT warm-up, and its time (ms) not yet reported.
    static WARMED: Cell<bool> = const { Cell::new(false) };
    static WARM_UP_MS: Cell<f64> = const { Cell::new(0.0) };
}

/// deps.json size from which a first layout is preceded by the JIT warm-up.
const WARM_UP_MIN_BYTES: u64 = 2 << 20;

/// The warm-up DAG: `chains` chains of `blocks` four-task blocks (qk → softmax → pv →
/// update, update ← previous update and ← the chain's alloc), fanned out from one source
/// and into one sink, the shape of the paged-attention captures. `(node count, edges)`.
fn warm_up_graph(chains: u32, blocks: u32) -> (usize, Vec<(u32, u32)>) {
    let mut edges = Vec::new();
    let source = 0u32;
    let mut next = 1u32;
    let mut lasts = Vec::new();
    for _ in 0..chains {
        let alloc = next;
        next += 1;
        let mut prev_update: Option<u32> = None;
        for _ in 0..blocks {
            let (qk, sm, pv, up) = (next, next + 1, next + 2, next + 3);
            next += 4;
            edges.extend([(source, qk), (qk, sm), (sm, pv), (pv, up), (sm, up), (alloc, up)]);
            if let Some(p) = prev_update {
                edges.push((p, up));
            }
            prev_update = Some(up);
        }
        lasts.extend(prev_update);
    }
    let sink = next;
    edges.extend(lasts.into_iter().map(|u| (u, sink)));
    (sink as usize + 1, edges)
}

/// The JIT warm-up when a deps.json of `deps_bytes` is big enough to need it.
pub(crate) fn warm_up_for(deps_bytes: u64) {
    if deps_bytes >= WARM_UP_MIN_BYTES {
        warm_up();
    }
}

/// Runs the JIT warm-up once per worker (see the module doc); its time is kept for the next
/// header.
pub(crate) fn warm_up() {
    if WARMED.replace(true) {
        return;
    }
    let started = now_ms();
    let (n, edges) = warm_up_graph(16, 16);
    let sizes = vec![NodeSize { width: NODE_WIDTH, height: NODE_HEIGHT }; n];
    for direction in [Direction::TopBottom, Direction::LeftRight] {
        let opts = LayoutOptions { direction, ..LayoutOptions::default() };
        let _ = dag_layout::layout_all(&sizes, &edges, &opts);
    }
    WARM_UP_MS.set(now_ms() - started);
}

/// The warm-up's time (ms) not reported yet (0 once reported, or when none ran).
pub(crate) fn take_ms() -> f64 {
    WARM_UP_MS.take()
}

/// Graphs of more nodes than this post their layout's progress.
const PROGRESS_MIN_NODES: usize = 2000;

/// The layout's `control`: posts its phase and step to the page (at most every 50 ms; packed
/// components lay out one by one) when the graph has more than [`PROGRESS_MIN_NODES`] nodes,
/// and never stops it (a Cancel terminates the job a big layout runs in).
/// `quiet`: posts nothing (a layout nobody waits for yet, the load's prebuild of the graph).
pub(crate) fn progress_control(node_count: usize, quiet: bool) -> impl FnMut(dag_layout::Progress) -> bool {
    let big = !quiet && node_count > PROGRESS_MIN_NODES;
    let mut last_post_ms = f64::NEG_INFINITY;
    move |p: dag_layout::Progress| {
        if big && now_ms() - last_post_ms >= 50.0 {
            last_post_ms = now_ms();
            let progress = Progress {
                path: p.phase.as_str().to_owned(),
                done_bytes: u64::from(p.step),
                total_bytes: u64::from(p.steps.max(1)),
                stage: ProgressStage::Layout,
            };
            crate::transport::post(&FromWorker::Progress(progress), None);
        }
        true
    }
}
