//! Packing of disconnected components, for the task dependency graph view: a graph of several
//! weakly-connected components is laid out one component at a time ([`super::layout`]) and the
//! component boxes are arranged in shelves (rows, left to right, tallest first) whose width is
//! chosen so that the whole drawing's aspect ratio comes closest to the canvas's, as Graphviz's
//! `pack` does. A graph of one component is laid out exactly as [`super::layout`] lays it out.
//!
//! Cost: the components' layouts (together no more than the whole graph's), plus
//! O(k log k + k · [`WIDTH_CANDIDATES`]) for the shelves of k components. A component of one
//! node without edges is placed without a layout call (graphs of many isolated tasks).

use super::{layout, BBox, Layout, LayoutError, LayoutOptions, NodeSize, Progress};

/// Shelf widths tried between the widest component and all components in one row.
const WIDTH_CANDIDATES: usize = 96;

/// A packed layout: the layout of the whole graph, and where its components went.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Packed {
    pub layout: Layout,
    /// Per node: its component (0 = the component with the most nodes; ties by first node).
    pub component: Vec<u32>,
    /// Per component: its node count and its box in the packed drawing.
    pub components: Vec<(u32, BBox)>,
}

/// Union-find root of `v`, halving the path.
fn find(parent: &mut [u32], mut v: u32) -> u32 {
    while parent[v as usize] != v {
        let up = parent[parent[v as usize] as usize];
        parent[v as usize] = up;
        v = up;
    }
    v
}

/// Weakly-connected components: per node its component, numbered by decreasing node count
/// (ties: by the smallest node index in it), and the node count of each.
pub fn components(n: usize, edges: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    let mut parent: Vec<u32> = (0..n as u32).collect();
    for &(u, v) in edges {
        if (u as usize) < n && (v as usize) < n {
            let (a, b) = (find(&mut parent, u), find(&mut parent, v));
            if a != b {
                // The smaller root wins, so a root is its component's smallest node.
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                parent[hi as usize] = lo;
            }
        }
    }
    let mut root_index = vec![u32::MAX; n];
    let mut sizes: Vec<(u32, u32)> = Vec::new(); // (count, root), roots ascending
    let mut comp = vec![0u32; n];
    for v in 0..n as u32 {
        let r = find(&mut parent, v);
        if root_index[r as usize] == u32::MAX {
            root_index[r as usize] = sizes.len() as u32;
            sizes.push((0, r));
        }
        let i = root_index[r as usize];
        sizes[i as usize].0 += 1;
        comp[v as usize] = i;
    }
    // Renumber by decreasing size, ties by root (stable sort keeps roots ascending).
    let mut by_size: Vec<u32> = (0..sizes.len() as u32).collect();
    by_size.sort_by(|&a, &b| sizes[b as usize].0.cmp(&sizes[a as usize].0));
    let mut rank = vec![0u32; sizes.len()];
    for (new, &old) in by_size.iter().enumerate() {
        rank[old as usize] = new as u32;
    }
    for c in &mut comp {
        *c = rank[*c as usize];
    }
    let counts = by_size.iter().map(|&old| sizes[old as usize].0).collect();
    (comp, counts)
}

/// Lays out `sizes` / `edges` (as [`super::layout`]) with its components packed to the aspect
/// ratio `aspect` (width / height of the canvas; not finite or ≤ 0: 1). `gap` separates
/// neighbouring components. One component: [`super::layout`]'s output unchanged.
#[allow(clippy::too_many_lines)] // components, their layouts, shelves, the merge: in sequence
pub fn layout_packed(
    sizes: &[NodeSize],
    edges: &[(u32, u32)],
    opts: &LayoutOptions,
    aspect: f64,
    gap: f64,
    control: &mut dyn FnMut(Progress) -> bool,
) -> Result<Packed, LayoutError> {
    let n = sizes.len();
    for (edge, &(u, v)) in edges.iter().enumerate() {
        for node in [u, v] {
            if node as usize >= n {
                return Err(LayoutError::EdgeOutOfRange { edge, node, node_count: n });
            }
        }
    }
    let (component, counts) = components(n, edges);
    if counts.len() <= 1 {
        let layout = layout(sizes, edges, opts, control)?;
        let components = counts.first().map(|&c| vec![(c, layout.bbox)]).unwrap_or_default();
        return Ok(Packed { layout, component, components });
    }
    let k = counts.len();
    // Nodes and edges of each component, in input order.
    let mut nodes_of: Vec<Vec<u32>> = counts.iter().map(|&c| Vec::with_capacity(c as usize)).collect();
    let mut local = vec![0u32; n];
    for (v, &c) in component.iter().enumerate() {
        local[v] = nodes_of[c as usize].len() as u32;
        nodes_of[c as usize].push(v as u32);
    }
    let mut edges_of: Vec<Vec<u32>> = vec![Vec::new(); k];
    for (e, &(u, _)) in edges.iter().enumerate() {
        edges_of[component[u as usize] as usize].push(e as u32);
    }
    // Lay out every component at its own origin.
    let mut parts: Vec<Layout> = Vec::with_capacity(k);
    for c in 0..k {
        let nodes = &nodes_of[c];
        let part = if nodes.len() == 1 && edges_of[c].is_empty() {
            lone_node(sizes[nodes[0] as usize])
        } else {
            let sub_sizes: Vec<NodeSize> = nodes.iter().map(|&v| sizes[v as usize]).collect();
            let sub_edges: Vec<(u32, u32)> =
                edges_of[c].iter().map(|&e| edges[e as usize]).map(|(u, v)| (local[u as usize], local[v as usize])).collect();
            layout(&sub_sizes, &sub_edges, opts, control)?
        };
        parts.push(part);
    }
    let boxes: Vec<(f64, f64)> =
        parts.iter().map(|p| (f64::from(p.bbox.max_x - p.bbox.min_x), f64::from(p.bbox.max_y - p.bbox.min_y))).collect();
    let origins = shelves(&boxes, aspect, gap);
    // Merge, each component moved to its origin.
    let mut out = Layout {
        x: vec![0.0; n],
        y: vec![0.0; n],
        layer: vec![0; n],
        order: vec![0; n],
        edge_offsets: Vec::with_capacity(edges.len() + 1),
        ..Layout::default()
    };
    let mut shift = Vec::with_capacity(k);
    let mut comp_boxes = Vec::with_capacity(k);
    for (c, part) in parts.iter().enumerate() {
        let (ox, oy) = origins[c];
        let (dx, dy) = ((ox - f64::from(part.bbox.min_x)) as f32, (oy - f64::from(part.bbox.min_y)) as f32);
        shift.push((dx, dy));
        for (i, &v) in nodes_of[c].iter().enumerate() {
            let v = v as usize;
            out.x[v] = part.x[i] + dx;
            out.y[v] = part.y[i] + dy;
            out.layer[v] = part.layer[i];
            out.order[v] = part.order[i];
        }
        for (i, &e) in edges_of[c].iter().enumerate() {
            if part.reversed_edges.binary_search(&(i as u32)).is_ok() {
                out.reversed_edges.push(e);
            }
            if part.self_loops.binary_search(&(i as u32)).is_ok() {
                out.self_loops.push(e);
            }
        }
        let b = part.bbox;
        comp_boxes.push((counts[c], BBox { min_x: b.min_x + dx, min_y: b.min_y + dy, max_x: b.max_x + dx, max_y: b.max_y + dy }));
        out.layer_count = out.layer_count.max(part.layer_count);
        out.crossings += part.crossings;
        out.initial_crossings += part.initial_crossings;
        out.total_edge_length += part.total_edge_length;
        out.dummy_count += part.dummy_count;
        out.sweeps = out.sweeps.max(part.sweeps);
    }
    out.reversed_edges.sort_unstable();
    out.self_loops.sort_unstable();
    // Edge polylines in input order.
    let mut local_edge = vec![0u32; edges.len()];
    for list in &edges_of {
        for (i, &e) in list.iter().enumerate() {
            local_edge[e as usize] = i as u32;
        }
    }
    out.edge_offsets.push(0);
    for (e, &(u, _)) in edges.iter().enumerate() {
        let c = component[u as usize] as usize;
        let (dx, dy) = shift[c];
        out.points.extend(parts[c].polyline(local_edge[e] as usize).iter().map(|p| [p[0] + dx, p[1] + dy]));
        out.edge_offsets.push(out.points.len() as u32);
    }
    out.bbox = comp_boxes.iter().fold(
        BBox { min_x: f32::INFINITY, min_y: f32::INFINITY, max_x: f32::NEG_INFINITY, max_y: f32::NEG_INFINITY },
        |a, (_, b)| BBox {
            min_x: a.min_x.min(b.min_x),
            min_y: a.min_y.min(b.min_y),
            max_x: a.max_x.max(b.max_x),
            max_y: a.max_y.max(b.max_y),
        },
    );
    Ok(Packed { layout: out, component, components: comp_boxes })
}

/// The layout of a single node without edges: centred on its half size.
fn lone_node(s: NodeSize) -> Layout {
    Layout {
        x: vec![s.width / 2.0],
        y: vec![s.height / 2.0],
        layer: vec![0],
        order: vec![0],
        layer_count: 1,
        edge_offsets: vec![0],
        bbox: BBox { min_x: 0.0, min_y: 0.0, max_x: s.width, max_y: s.height },
        ..Layout::default()
    }
}

/// Top-left corners of `boxes` (width, height) packed in shelves: boxes by decreasing height
/// (ties: input order) left to right, a new shelf when the next box passes the shelf width,
/// `gap` between boxes and shelves. The shelf width is the candidate whose drawing's aspect
/// ratio is nearest `aspect` (on a log scale; ties: the smaller area).
pub fn shelves(boxes: &[(f64, f64)], aspect: f64, gap: f64) -> Vec<(f64, f64)> {
    let aspect = if aspect.is_finite() && aspect > 0.0 { aspect } else { 1.0 };
    let gap = gap.max(0.0);
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by(|&a, &b| boxes[b].1.total_cmp(&boxes[a].1));
    let widest = boxes.iter().map(|b| b.0).fold(0.0, f64::max);
    let all_in_a_row = boxes.iter().map(|b| b.0 + gap).sum::<f64>();
    let mut best: Option<(f64, f64, f64)> = None; // (score, area, width)
    for i in 0..=WIDTH_CANDIDATES {
        let t = i as f64 / WIDTH_CANDIDATES as f64;
        let limit = widest * (all_in_a_row.max(widest) / widest.max(1e-9)).powf(t);
        let (w, h) = extent(boxes, &order, limit, gap);
        let score = ((w / h.max(1e-9)) / aspect).ln().abs();
        let better = best.is_none_or(|(s, a, _)| score < s - 1e-9 || (score <= s + 1e-9 && w * h < a));
        if better {
            best = Some((score, w * h, limit));
        }
    }
    let limit = best.map_or(widest, |b| b.2);
    place(boxes, &order, limit, gap)
}

/// Width and height of the shelves of `boxes` in `order` at shelf width `limit`.
fn extent(boxes: &[(f64, f64)], order: &[usize], limit: f64, gap: f64) -> (f64, f64) {
    let at = place(boxes, order, limit, gap);
    let w = at.iter().zip(boxes).map(|(p, b)| p.0 + b.0).fold(0.0, f64::max);
    let h = at.iter().zip(boxes).map(|(p, b)| p.1 + b.1).fold(0.0, f64::max);
    (w, h)
}

fn place(boxes: &[(f64, f64)], order: &[usize], limit: f64, gap: f64) -> Vec<(f64, f64)> {
    let mut at = vec![(0.0, 0.0); boxes.len()];
    let (mut x, mut y, mut shelf_h) = (0.0f64, 0.0f64, 0.0f64);
    for &i in order {
        let (w, h) = boxes[i];
        if x > 0.0 && x + w > limit + 1e-6 {
            y += shelf_h + gap;
            x = 0.0;
            shelf_h = 0.0;
        }
        at[i] = (x, y);
        x += w + gap;
        shelf_h = shelf_h.max(h);
    }
    at
}
