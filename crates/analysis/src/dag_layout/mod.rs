//! Layered (Sugiyama-style) layout of a directed graph, for the task dependency graph view
//! (`deps.json`, toolkit-features.md group L): the web worker lays out whichever edge set
//! the selected edge mode shows, the CLI benchmarks it against Graphviz `dot`.
//!
//! Input: node sizes (the node count is their number) and an edge list of `(source,
//! target)` node indices. Output: node centres, one polyline per input edge, the bounding
//! box, the crossing count and total edge length, and the edges turned around to break
//! cycles. Pure Rust, no recursion (100k-node chains are fine), deterministic (same input,
//! same output), cancellable (a control callback is asked at every phase and sweep and may
//! stop the run).
//!
//! Phases, one submodule each:
//! 1. [`acyclic`]: DFS back edges reversed (cycles are malformed input: reported, not fatal);
//!    self loops dropped and reported.
//! 2. [`rank`]: longest-path layering, optionally tightened (fan-out sources move down).
//! 3. [`layered`]: dummy nodes for edges spanning more than one layer.
//! 4. [`order`]: crossing reduction by barycenter or median sweeps, bounded, best kept.
//! 5. [`position`]: Brandes–Köpf coordinates (straight chains, no overlaps in a layer) and
//!    layer depths from the node sizes.
//! 6. Routing (here): each edge's polyline leaves its source's side facing the next layer,
//!    passes through its dummies' centres and enters its target's facing side.
//!
//! [`pack`] lays out a graph of several weakly-connected components one component at a time
//! and packs the components' boxes in shelves to a canvas's aspect ratio.
//!
//! [`metrics`] measures polylines (length, geometric crossings) for the benchmark.
//!
//! Cost: O((V + E + D) log) per sweep, D = dummy nodes (the sum over edges of the layers
//! they skip); everything else is linear.

mod acyclic;
mod layered;
pub mod metrics;
mod order;
pub mod pack;
mod position;
mod rank;

pub use order::OrderHeuristic;
pub use pack::{layout_packed, Packed};

/// Which way layers advance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Direction {
    /// Layers are rows, edges point down (`rankdir=TB`).
    TopBottom,
    /// Layers are columns, edges point right (`rankdir=LR`).
    LeftRight,
}

/// Size of a node in layout units (the view uses CSS pixels at zoom 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodeSize {
    pub width: f32,
    pub height: f32,
}

/// Tuning of [`layout`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayoutOptions {
    pub direction: Direction,
    /// Gap between neighbouring nodes in a layer.
    pub node_sep: f64,
    /// Width of a dummy (an edge passing a layer) and its gap to neighbours.
    pub edge_sep: f64,
    /// Gap between layers.
    pub rank_sep: f64,
    /// Move fan-out sources next to their successors (see [`rank`]).
    pub tighten_ranks: bool,
    pub heuristic: OrderHeuristic,
    /// Crossing-reduction sweeps at most (each is one down or one up pass).
    pub max_sweeps: u32,
    /// Stop after this many sweeps without fewer crossings.
    pub patience: u32,
    /// Passes of the edge-straightening refinement after Brandes–Köpf at most (0 = off).
    pub straighten_passes: u32,
    /// Work budget of that refinement in node + segment visits: big graphs get fewer
    /// passes (at least 4), so the phase stays linear.
    pub straighten_budget: u64,
}

impl Default for LayoutOptions {
    fn default() -> Self {
        Self {
            direction: Direction::TopBottom,
            node_sep: 20.0,
            edge_sep: 8.0,
            rank_sep: 48.0,
            tighten_ranks: true,
            heuristic: OrderHeuristic::Barycenter,
            max_sweeps: 16,
            patience: 4,
            straighten_passes: 32,
            straighten_budget: 4_000_000,
        }
    }
}

/// Phases reported to the control callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Phase {
    Acyclic,
    Rank,
    Normalize,
    Order,
    Position,
    Route,
}

impl Phase {
    /// Lower-case name for progress messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Acyclic => "cycles",
            Self::Rank => "layers",
            Self::Normalize => "dummies",
            Self::Order => "crossings",
            Self::Position => "coordinates",
            Self::Route => "edges",
        }
    }
}

/// What the control callback is told: the phase starting, and for [`Phase::Order`] the
/// sweep about to run (`step` of at most `steps`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub phase: Phase,
    pub step: u32,
    pub steps: u32,
}

/// Why [`layout`] produced nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayoutError {
    /// The control callback said stop at this phase.
    Cancelled(Phase),
    /// An edge names a node that does not exist.
    EdgeOutOfRange { edge: usize, node: u32, node_count: usize },
    /// More than `u32::MAX` nodes including dummies.
    TooLarge,
}

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Cancelled(p) => write!(f, "layout cancelled during {}", p.as_str()),
            Self::EdgeOutOfRange { edge, node, node_count } => {
                write!(f, "edge {edge} names node {node}, but the graph has {node_count} nodes")
            }
            Self::TooLarge => f.write_str("graph too large to lay out (over 2^32 nodes with dummies)"),
        }
    }
}

impl std::error::Error for LayoutError {}

/// Axis-aligned bounds of the drawing.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct BBox {
    pub min_x: f32,
    pub min_y: f32,
    pub max_x: f32,
    pub max_y: f32,
}

/// A finished layout.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layout {
    /// Node centres.
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    /// Layer of each node (0 = first) and its position inside the layer.
    pub layer: Vec<u32>,
    pub order: Vec<u32>,
    pub layer_count: u32,
    /// Polyline of input edge `e`: `points[edge_offsets[e]..edge_offsets[e + 1]]`, from the
    /// edge's source to its target (also for reversed edges): the source port, two points
    /// per skipped layer, the target port; an end node thinner than its layer adds a stub
    /// point at the layer's edge. Self loops have no points.
    pub edge_offsets: Vec<u32>,
    pub points: Vec<[f32; 2]>,
    pub bbox: BBox,
    /// Crossings between segments of adjacent layers after reduction, and before it (the
    /// initial order).
    pub crossings: u64,
    pub initial_crossings: u64,
    /// Sum of the polyline lengths.
    pub total_edge_length: f64,
    /// Input edges turned around to break cycles, ascending (empty for a DAG).
    pub reversed_edges: Vec<u32>,
    /// Input edges with source == target, ascending.
    pub self_loops: Vec<u32>,
    pub dummy_count: u32,
    pub sweeps: u32,
}

impl Layout {
    /// Points of input edge `e`.
    pub fn polyline(&self, e: usize) -> &[[f32; 2]] {
        let a = self.edge_offsets.get(e).copied().unwrap_or(0) as usize;
        let b = self.edge_offsets.get(e + 1).copied().unwrap_or(0) as usize;
        self.points.get(a..b).unwrap_or(&[])
    }
}

/// [`layout`] without progress or cancellation.
pub fn layout_all(sizes: &[NodeSize], edges: &[(u32, u32)], opts: &LayoutOptions) -> Result<Layout, LayoutError> {
    layout(sizes, edges, opts, &mut |_| true)
}

#[allow(clippy::too_many_lines)] // the phases in sequence, each a call
/// Lays out the graph. `control` is called when each phase starts and before every
/// crossing-reduction sweep; returning `false` cancels with [`LayoutError::Cancelled`].
pub fn layout(
    sizes: &[NodeSize],
    edges: &[(u32, u32)],
    opts: &LayoutOptions,
    control: &mut dyn FnMut(Progress) -> bool,
) -> Result<Layout, LayoutError> {
    let n = sizes.len();
    if n >= u32::MAX as usize {
        return Err(LayoutError::TooLarge);
    }
    for (edge, &(u, v)) in edges.iter().enumerate() {
        for node in [u, v] {
            if node as usize >= n {
                return Err(LayoutError::EdgeOutOfRange { edge, node, node_count: n });
            }
        }
    }
    ask(control, Phase::Acyclic, 0, 1)?;
    let oriented = acyclic::break_cycles(n, edges);
    ask(control, Phase::Rank, 0, 1)?;
    let ranks = rank::assign_ranks(n, &oriented.from, &oriented.to, opts.tighten_ranks);
    ask(control, Phase::Normalize, 0, 1)?;
    let dummies: u64 = oriented.from.iter().zip(&oriented.to).map(|(&u, &v)| u64::from(ranks[v as usize] - ranks[u as usize] - 1)).sum();
    if n as u64 + dummies >= u64::from(u32::MAX) {
        return Err(LayoutError::TooLarge);
    }
    let g = layered::Layered::build(n, &ranks, &oriented.from, &oriented.to);
    let max_sweeps = opts.max_sweeps;
    ask(control, Phase::Order, 0, max_sweeps)?;
    let ordered = order::reduce(&g, opts.heuristic, max_sweeps, opts.patience.max(1), &mut |s| {
        control(Progress { phase: Phase::Order, step: s, steps: max_sweeps })
    })
    .ok_or(LayoutError::Cancelled(Phase::Order))?;
    ask(control, Phase::Position, 0, 1)?;

    // Sizes along the layer (breadth) and across it (depth).
    let lr = opts.direction == Direction::LeftRight;
    let breadth_of = |s: &NodeSize| f64::from(if lr { s.height } else { s.width });
    let depth_of = |s: &NodeSize| f64::from(if lr { s.width } else { s.height });
    let mut breadth: Vec<f64> = sizes.iter().map(breadth_of).collect();
    breadth.resize(g.node_count(), opts.edge_sep.max(0.0));
    let along = position::assign(
        &g,
        &ordered.layers,
        &breadth,
        position::Spacing { node_sep: opts.node_sep, edge_sep: opts.edge_sep },
        straighten_passes(opts, g.node_count() + g.seg_up.len()),
    );
    let mut thickness = vec![0f64; g.layer_count];
    for (v, s) in sizes.iter().enumerate() {
        let t = &mut thickness[ranks[v] as usize];
        *t = t.max(depth_of(s));
    }
    let mut centre = Vec::with_capacity(g.layer_count);
    let mut at = 0f64;
    for &t in &thickness {
        centre.push(at + t / 2.0);
        at += t + opts.rank_sep;
    }
    let depth = |v: u32| centre[g.rank[v as usize] as usize];
    let point = |b: f64, d: f64| -> [f32; 2] {
        if lr {
            [d as f32, b as f32]
        } else {
            [b as f32, d as f32]
        }
    };

    ask(control, Phase::Route, 0, 1)?;
    let mut out = Layout {
        layer: ranks[..n].to_vec(),
        layer_count: g.layer_count as u32,
        crossings: ordered.crossings,
        initial_crossings: ordered.initial_crossings,
        dummy_count: (g.node_count() - n) as u32,
        sweeps: ordered.sweeps,
        reversed_edges: oriented.reversed.clone(),
        self_loops: oriented.self_loops.clone(),
        ..Layout::default()
    };
    out.order = vec![0; n];
    for layer in &ordered.layers {
        for (i, &v) in layer.iter().enumerate() {
            if (v as usize) < n {
                out.order[v as usize] = i as u32;
            }
        }
    }
    out.x.reserve(n);
    out.y.reserve(n);
    for (v, &b) in along.iter().take(n).enumerate() {
        let [x, y] = point(b, depth(v as u32));
        out.x.push(x);
        out.y.push(y);
    }
    // Oriented edge per input edge.
    let mut oriented_of = vec![u32::MAX; edges.len()];
    for (k, &e) in oriented.input.iter().enumerate() {
        oriented_of[e as usize] = k as u32;
    }
    let mut reversed = vec![false; edges.len()];
    for &e in &oriented.reversed {
        reversed[e as usize] = true;
    }
    out.edge_offsets.reserve(edges.len() + 1);
    out.edge_offsets.push(0);
    out.points.reserve(edges.len() * 2 + g.node_count() - n);
    let router = Router { g: &g, sizes, along: &along, centre: &centre, thickness: &thickness, lr };
    let mut total = 0f64;
    for e in 0..edges.len() {
        let k = oriented_of[e];
        if k != u32::MAX {
            total += router.route(k as usize, reversed[e], &mut out.points);
        }
        out.edge_offsets.push(out.points.len() as u32);
    }
    out.total_edge_length = total;
    out.bbox = bounds(&out, sizes);
    Ok(out)
}

/// Phase 6: what routing an edge reads.
struct Router<'a> {
    g: &'a layered::Layered,
    sizes: &'a [NodeSize],
    /// Breadth coordinate per layered node.
    along: &'a [f64],
    /// Depth of each layer's centre line, and its thickness.
    centre: &'a [f64],
    thickness: &'a [f64],
    lr: bool,
}

impl Router<'_> {
    fn point(&self, b: f64, d: f64) -> [f32; 2] {
        if self.lr {
            [d as f32, b as f32]
        } else {
            [b as f32, d as f32]
        }
    }

    fn depth(&self, v: u32) -> f64 {
        self.centre[self.g.rank[v as usize] as usize]
    }

    fn half_band(&self, v: u32) -> f64 {
        self.thickness[self.g.rank[v as usize] as usize] / 2.0
    }

    fn half(&self, v: u32) -> f64 {
        let s = &self.sizes[v as usize];
        f64::from(if self.lr { s.width } else { s.height }) / 2.0
    }

    /// Appends oriented edge `k`'s polyline (source to target of the input edge, so
    /// `reversed` turns it around) and returns its length. Not inlined (a web worker's first
    /// call of a function runs in V8's baseline tier, see `order::gap_crossings`).
    #[inline(never)]
    fn route(&self, k: usize, reversed: bool, points: &mut Vec<[f32; 2]>) -> f64 {
        let g = self.g;
        let start = points.len();
        let segs = g.chain_off[k]..g.chain_off[k + 1];
        let top = g.seg_up[segs.start as usize];
        let bottom = g.seg_down[segs.end as usize - 1];
        let along = |v: u32| self.along[v as usize];
        points.push(self.point(along(top), self.depth(top) + self.half(top)));
        // A node thinner than its layer gets a straight stub to the band's edge, so all
        // bends happen between layers.
        if self.half(top) < self.half_band(top) {
            points.push(self.point(along(top), self.depth(top) + self.half_band(top)));
        }
        for s in segs.start..segs.end - 1 {
            // A dummy crosses its layer's band vertically (top and bottom point), so the
            // drawing's crossings are the counted layer-gap crossings.
            let d = g.seg_down[s as usize];
            let half_band = self.half_band(d);
            points.push(self.point(along(d), self.depth(d) - half_band));
            if half_band > 0.0 {
                points.push(self.point(along(d), self.depth(d) + half_band));
            }
        }
        if self.half(bottom) < self.half_band(bottom) {
            points.push(self.point(along(bottom), self.depth(bottom) - self.half_band(bottom)));
        }
        points.push(self.point(along(bottom), self.depth(bottom) - self.half(bottom)));
        if reversed {
            points[start..].reverse();
        }
        points[start..].windows(2).map(|w| f64::from(w[1][0] - w[0][0]).hypot(f64::from(w[1][1] - w[0][1]))).sum::<f64>()
    }
}

/// Refinement passes for a layered graph of `work` nodes + segments.
fn straighten_passes(opts: &LayoutOptions, work: usize) -> u32 {
    let affordable = opts.straighten_budget / (work as u64).max(1);
    opts.straighten_passes.min(affordable.max(4) as u32)
}

/// Asks `control` whether to go on with `phase`.
fn ask(control: &mut dyn FnMut(Progress) -> bool, phase: Phase, step: u32, steps: u32) -> Result<(), LayoutError> {
    if control(Progress { phase, step, steps }) {
        Ok(())
    } else {
        Err(LayoutError::Cancelled(phase))
    }
}

fn bounds(l: &Layout, sizes: &[NodeSize]) -> BBox {
    if sizes.is_empty() {
        return BBox::default();
    }
    let mut b = BBox { min_x: f32::INFINITY, min_y: f32::INFINITY, max_x: f32::NEG_INFINITY, max_y: f32::NEG_INFINITY };
    for (v, s) in sizes.iter().enumerate() {
        b.min_x = b.min_x.min(l.x[v] - s.width / 2.0);
        b.max_x = b.max_x.max(l.x[v] + s.width / 2.0);
        b.min_y = b.min_y.min(l.y[v] - s.height / 2.0);
        b.max_y = b.max_y.max(l.y[v] + s.height / 2.0);
    }
    for p in &l.points {
        b.min_x = b.min_x.min(p[0]);
        b.max_x = b.max_x.max(p[0]);
        b.min_y = b.min_y.min(p[1]);
        b.max_y = b.max_y.max(p[1]);
    }
    b
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::many_single_char_names)]
mod tests;
