//! `pypto-viewer gen <dir> --dag [--tasks N] [--seed S] [--name-map] [--components K]`: writes a seeded
//! synthetic `deps.json` (and optionally a name map) whose task DAG has the shapes of real
//! captures at any scale, for the dependency-graph layout benchmark (`bench-layout`) and the
//! graph view's big-graph tests. No records file: only the graph matters here.
//!
//! # Shape
//!
//! A stack of transformer layers, each scaled from the paged-attention fixture
//! (`a2a3sim-L4-TestPagedAttention_CaseMediumLocal`: 8 chains × 16 blocks):
//!
//! - attention: `C` (batch × head) chains of `B` blocks (`C` ∈ {4, 8, 16}, `B` ∈ 4..=16 per
//!   layer, seeded). Block `b` of a chain: `qk` (AIC) ← layer input; `softmax` (AIV) ← `qk`;
//!   `pv` (AIC) ← `softmax`; `update` (AIV, INOUT accumulator) ← `pv`, ← `softmax`, ← the
//!   previous block's `update` (`tensormap`, covered) and ← the chain's alloc task
//!   (`creator`; the alloc owns the accumulator, is in ring 1 and absent from `tasks[]`).
//!   So the layer input fans out to `C × B` tasks and each alloc to `B` updates, exactly the
//!   fixture's out-degree-16 allocs and in-degree-4 updates.
//! - `out_proj` (MIX, SPMD `block_num` 24) fans in the last update of every chain;
//!   `residual` (AIV, SPMD 8) ← `out_proj` and ← the layer input (a long skip edge).
//! - feed-forward: `ffn_up` (AIC, SPMD 16) ← residual; `gelu` (AIV, SPMD 16) ← `ffn_up`;
//!   `ffn_down` (AIC, SPMD 16) ← `gelu`; `ffn_residual` (AIV, SPMD 8) ← `ffn_down` and
//!   ← `residual` (skip); its output is the next layer's input.
//! - every 4th layer a dummy barrier task (`kernel_ids` all −1) sits between `ffn_residual`
//!   and the next layer's first `qk` (`explicit` edges).
//!
//! `--components K` (default 1): K independent streams of such layers, each from its own model
//! input task, layer `l` in stream `l mod K`: a graph of K weakly-connected components of
//! different sizes (the graph view's packing and minimap tests). K = 1 is the graph above.
//!
//! Generation stops once `--tasks` `tasks[]` entries exist (the last layer may be partial).
//! Ids: tasks `2 << 32 | submit index`, allocs `1 << 32 | alloc index`. Predecessors
//! always precede successors in submit order, so the DAG is acyclic. Edge rows are grouped by
//! consumer in submit order, in the runtime writer's compact format (runtime-formats.md §2.1).
//! A seed gives byte-identical files.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// Usage line for the DAG generator.
pub const USAGE: &str = "  pypto-viewer gen <out-dir> --dag [--tasks N] [--seed S] [--name-map] [--components K]   (deps.json only)";

const TASK_RING: u64 = 2;
const ALLOC_RING: u64 = 1;

/// Kernel functions of the generated tasks (callable ids = index).
const FUNC_NAMES: [&str; 10] = [
    "qk_matmul",
    "softmax_prepare",
    "pv_matmul",
    "online_update",
    "out_proj_cube",
    "out_proj_vec",
    "residual_add",
    "ffn_up",
    "gelu",
    "ffn_down",
];

/// How a consumer depends on its predecessor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Creator,
    Tensormap,
    Explicit,
}

/// One predecessor row of a task.
#[derive(Debug, Clone, Copy)]
struct Dep {
    /// Node: `< tasks` is a task, else alloc `node - ALLOC_BASE`.
    pred: u64,
    source: Source,
    /// Buffer index the edge's tensor lives in.
    buffer: u32,
}

/// A generated task.
#[derive(Debug, Clone)]
struct Task {
    kernel_ids: [i32; 3],
    block_num: u32,
    deps: Vec<Dep>,
    /// Buffer written (OUTPUT), if any; INOUT accumulator (`update`) otherwise.
    output: Option<u32>,
    inout: Option<u32>,
}

/// The whole DAG.
#[derive(Debug, Default)]
pub struct DagModel {
    tasks: Vec<Task>,
    allocs: u32,
    buffers: u32,
}

/// What [`generate`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DagSummary {
    pub tasks: usize,
    pub allocs: usize,
    pub edge_rows: usize,
    pub layers: usize,
    pub files: Vec<(String, u64)>,
}

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

/// Node id of an alloc in [`Dep::pred`].
const ALLOC_BASE: u64 = 1 << 40;

impl DagModel {
    /// Builds the DAG of `tasks` tasks.
    #[cfg(test)]
    pub fn build(tasks: usize, seed: u64) -> (Self, usize) {
        Self::build_streams(tasks, seed, 1)
    }

    /// Builds `tasks` tasks in `streams` (≥ 1) independent streams of layers.
    pub fn build_streams(tasks: usize, seed: u64, streams: usize) -> (Self, usize) {
        let mut rng = Rng(seed ^ 0xDA6_0000);
        let mut m = DagModel::default();
        // The model inputs: one task per stream producing its first layer input.
        let mut inputs: Vec<u64> = (0..streams.max(1)).map(|_| m.push([7, -1, -1], 16, Vec::new())).collect();
        let mut layers = 0;
        while m.tasks.len() < tasks {
            let stream = layers % inputs.len();
            let mut input = inputs[stream];
            layers += 1;
            let chains = rng.pick(&[4u32, 8, 8, 16]);
            let blocks = 4 + (rng.next() % 13) as u32;
            let mut lasts = Vec::new();
            for _ in 0..chains {
                let alloc = m.allocs;
                m.allocs += 1;
                let acc = m.new_buffer();
                let mut prev_update: Option<u64> = None;
                for _ in 0..blocks {
                    let qk = m.push([0, -1, -1], 1, vec![m.creator(input)]);
                    let sf = m.push([-1, 1, -1], 1, vec![m.creator(qk)]);
                    let pv = m.push([2, -1, -1], 1, vec![m.creator(sf)]);
                    let mut deps = vec![m.creator(pv), m.creator(sf)];
                    if let Some(p) = prev_update {
                        deps.push(Dep { pred: p, source: Source::Tensormap, buffer: acc });
                    }
                    deps.push(Dep { pred: ALLOC_BASE + u64::from(alloc), source: Source::Creator, buffer: acc });
                    let up = m.push_inout([-1, 3, -1], deps, acc);
                    prev_update = Some(up);
                }
                lasts.extend(prev_update.map(|u| (u, acc)));
            }
            let deps = lasts.iter().map(|&(t, acc)| Dep { pred: t, source: Source::Tensormap, buffer: acc }).collect();
            let proj = m.push([4, 5, -1], 24, deps);
            let resid = m.push([-1, 6, -1], 8, vec![m.creator(proj), m.creator(input)]);
            let up = m.push([7, -1, -1], 16, vec![m.creator(resid)]);
            let gelu = m.push([-1, 8, -1], 16, vec![m.creator(up)]);
            let down = m.push([9, -1, -1], 16, vec![m.creator(gelu)]);
            input = m.push([-1, 6, -1], 8, vec![m.creator(down), m.creator(resid)]);
            if layers % 4 == 0 {
                let barrier = Dep { pred: input, source: Source::Explicit, buffer: u32::MAX };
                input = m.push([-1, -1, -1], 1, vec![barrier]);
            }
            inputs[stream] = input;
        }
        // Predecessors come first, so truncation leaves no dangling edge; allocs are
        // referenced in order, so the last referenced one bounds the count.
        m.tasks.truncate(tasks);
        m.allocs = m
            .tasks
            .iter()
            .flat_map(|t| &t.deps)
            .filter(|d| d.pred >= ALLOC_BASE)
            .map(|d| (d.pred - ALLOC_BASE) as u32 + 1)
            .max()
            .unwrap_or(0);
        (m, layers)
    }

    fn new_buffer(&mut self) -> u32 {
        self.buffers += 1;
        self.buffers - 1
    }

    /// A `creator` dependency on task `t`'s output.
    fn creator(&self, t: u64) -> Dep {
        let buffer = self.tasks.get(t as usize).and_then(|x| x.output).unwrap_or(u32::MAX);
        Dep { pred: t, source: Source::Creator, buffer }
    }

    /// Appends a task with a fresh OUTPUT buffer.
    fn push(&mut self, kernel_ids: [i32; 3], block_num: u32, deps: Vec<Dep>) -> u64 {
        let out = self.new_buffer();
        self.tasks.push(Task { kernel_ids, block_num, deps, output: Some(out), inout: None });
        self.tasks.len() as u64 - 1
    }

    fn push_inout(&mut self, kernel_ids: [i32; 3], deps: Vec<Dep>, acc: u32) -> u64 {
        self.tasks.push(Task { kernel_ids, block_num: 1, deps, output: None, inout: Some(acc) });
        self.tasks.len() as u64 - 1
    }

    fn node_id(pred: u64) -> u64 {
        if pred >= ALLOC_BASE {
            ALLOC_RING << 32 | (pred - ALLOC_BASE)
        } else {
            TASK_RING << 32 | pred
        }
    }

    /// Edge rows, for tests.
    #[cfg(test)]
    fn edge_count(&self) -> usize {
        self.tasks.iter().map(|t| t.deps.len()).sum()
    }
}

/// Arg slot of every dep of `t` (−1 for explicit) and the INOUT slot: one INPUT slot per
/// dep with its own buffer, in dep order, then the accumulator (INOUT) or the OUTPUT.
fn arg_slots(t: &Task) -> (Vec<i64>, i64) {
    let own = |d: &Dep| d.buffer != u32::MAX && Some(d.buffer) != t.inout;
    let inputs = i64::try_from(t.deps.iter().filter(|d| own(d)).count()).unwrap_or(i64::MAX);
    let mut next = 0;
    let slots = t
        .deps
        .iter()
        .map(|d| {
            if own(d) {
                next += 1;
                next - 1
            } else if d.buffer == u32::MAX {
                -1
            } else {
                inputs
            }
        })
        .collect();
    (slots, inputs)
}

fn buffer_addr(buffer: u32) -> u64 {
    0x1_0000_0000 + u64::from(buffer) * 0x2_0000
}

/// `tensor_id` = FNV-1a 64 over the address's 8 LE bytes then the version's 4 (§2.1).
fn tensor_id(buffer: u32) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let addr = buffer_addr(buffer).to_le_bytes();
    for b in addr.iter().chain(&0u32.to_le_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

const SLICE: &str = "\"dtype\":\"FLOAT32\",\"shape\":[16,128],\"start_offset\":\"0\",\"strides\":[128,1]";
const CONSUMER: &str =
    "\"consumer_dtype\":\"FLOAT32\",\"consumer_shape\":[16,128],\"consumer_start_offset\":\"0\",\"consumer_strides\":[128,1]";
const PRODUCER: &str = "\"producer_shape\":[16,128],\"producer_start_offset\":\"0\",\"producer_strides\":[128,1]";

/// Writes the compact `deps.json`; returns the edge row count.
#[allow(clippy::many_single_char_names)] // w = writer, m = model, t = task, d = dep
fn write_deps(w: &mut dyn Write, m: &DagModel) -> io::Result<usize> {
    w.write_all(b"{\"tasks\":[")?;
    let mut used = vec![false; m.buffers as usize];
    for (i, t) in m.tasks.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        let [a, b, c] = t.kernel_ids;
        write!(
            w,
            "{{\"task_id\":\"{}\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[{a},{b},{c}],\"block_num\":{},\"args\":[",
            DagModel::node_id(i as u64),
            t.block_num
        )?;
        let (slots, inout_slot) = arg_slots(t);
        for (d, &slot) in t.deps.iter().zip(&slots) {
            if slot < 0 || slot == inout_slot {
                continue;
            }
            if slot > 0 {
                w.write_all(b",")?;
            }
            write!(w, "{{\"idx\":{slot},\"type\":\"INPUT\",\"tensor_id\":\"{}\",{SLICE}}}", tensor_id(d.buffer))?;
            used[d.buffer as usize] = true;
        }
        if inout_slot > 0 {
            w.write_all(b",")?;
        }
        if let Some(acc) = t.inout {
            write!(w, "{{\"idx\":{inout_slot},\"type\":\"INOUT\",\"tensor_id\":\"{}\",{SLICE}}}", tensor_id(acc))?;
            used[acc as usize] = true;
        } else {
            write!(w, "{{\"idx\":{inout_slot},\"type\":\"OUTPUT\"}}")?;
        }
        w.write_all(b"]}")?;
    }
    w.write_all(b"],\"tensors\":[")?;
    let mut first = true;
    for (buffer, _) in used.iter().enumerate().filter(|(_, &u)| u) {
        if !first {
            w.write_all(b",")?;
        }
        first = false;
        let buffer = buffer as u32;
        write!(
            w,
            "{{\"tensor_id\":\"{}\",\"buffer_addr\":\"{}\",\"version\":0,\"dtype\":\"FLOAT32\",\"buffer_numel\":\"2048\"}}",
            tensor_id(buffer),
            buffer_addr(buffer)
        )?;
    }
    w.write_all(b"],\"edges\":[")?;
    let mut rows = 0;
    for (i, t) in m.tasks.iter().enumerate() {
        let succ = DagModel::node_id(i as u64);
        let (slots, _) = arg_slots(t);
        for (d, &arg) in t.deps.iter().zip(&slots) {
            if rows > 0 {
                w.write_all(b",")?;
            }
            rows += 1;
            let pred = DagModel::node_id(d.pred);
            match d.source {
                Source::Explicit => write!(
                    w,
                    "{{\"pred\":\"{pred}\",\"succ\":\"{succ}\",\"arg\":-1,\"source\":\"explicit\",\"flags\":[\"wait\",\"retain\"]}}"
                )?,
                Source::Creator => write!(
                    w,
                    "{{\"pred\":\"{pred}\",\"succ\":\"{succ}\",\"arg\":{arg},\"source\":\"creator\",\"flags\":[\"wait\",\"retain\"],\"tensor_id\":\"{}\",{CONSUMER}}}",
                    tensor_id(d.buffer)
                )?,
                Source::Tensormap => write!(
                    w,
                    "{{\"pred\":\"{pred}\",\"succ\":\"{succ}\",\"arg\":{arg},\"source\":\"tensormap\",\"flags\":[\"wait\"],\"overlap\":\"covered\",\"tensor_id\":\"{}\",{CONSUMER},{PRODUCER}}}",
                    tensor_id(d.buffer)
                )?,
            }
        }
    }
    w.write_all(b"]}\n")?;
    Ok(rows)
}

fn write_name_map(w: &mut dyn Write) -> io::Result<()> {
    w.write_all(b"{\n  \"level\": 2,\n  \"orchestrator_name\": null,\n  \"callable_id_to_name\": {")?;
    for (id, name) in FUNC_NAMES.iter().enumerate() {
        if id > 0 {
            w.write_all(b",")?;
        }
        write!(w, "\n    \"{id}\": \"{name}\"")?;
    }
    w.write_all(b"\n  }\n}")
}

/// Writes `deps.json` (and `name_map_TestGenDag_seed<S>.json`) into `dir`.
pub fn generate(dir: &Path, tasks: usize, seed: u64, name_map: bool) -> Result<DagSummary, String> {
    generate_streams(dir, tasks, seed, name_map, 1)
}

/// [`generate`] with `components` independent streams (see the module doc).
pub fn generate_streams(dir: &Path, tasks: usize, seed: u64, name_map: bool, components: usize) -> Result<DagSummary, String> {
    if components == 0 || components > tasks {
        return Err("--components must be in 1..=--tasks".into());
    }
    if tasks == 0 || tasks >= 1 << 31 {
        return Err("--tasks must be in 1..2^31".into());
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let (m, layers) = DagModel::build_streams(tasks, seed, components);
    let mut s = DagSummary { tasks: m.tasks.len(), allocs: m.allocs as usize, layers, ..DagSummary::default() };
    let mut write = |name: &str, f: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>| -> Result<(), String> {
        let path = dir.join(name);
        let ctx = |e: io::Error| format!("cannot write {}: {e}", path.display());
        let mut w = BufWriter::with_capacity(1 << 20, File::create(&path).map_err(ctx)?);
        f(&mut w).map_err(ctx)?;
        w.flush().map_err(ctx)?;
        let len = std::fs::metadata(&path).map_err(ctx)?.len();
        s.files.push((name.to_owned(), len));
        Ok(())
    };
    let mut rows = 0;
    write("deps.json", &mut |w| {
        rows = write_deps(w, &m)?;
        Ok(())
    })?;
    if name_map {
        write(&format!("name_map_TestGenDag_seed{seed}.json"), &mut |w| write_name_map(w))?;
    }
    s.edge_rows = rows;
    Ok(s)
}

/// `gen --dag` entry point (all `gen` arguments).
pub fn run(args: &[&str]) -> ExitCode {
    let mut dir = None;
    let (mut tasks, mut seed, mut name_map, mut components) = (10_000usize, 1u64, false, 1usize);
    let mut it = args.iter().copied();
    let mut bad = None;
    while let Some(a) = it.next() {
        match a {
            "--dag" => {}
            "--name-map" => name_map = true,
            "--tasks" | "--seed" | "--components" => {
                let v = it.next().unwrap_or("");
                let ok = match a {
                    "--tasks" => v.parse().map(|x| tasks = x).is_ok(),
                    "--seed" => v.parse().map(|x| seed = x).is_ok(),
                    _ => v.parse().map(|x| components = x).is_ok(),
                };
                if !ok {
                    bad = Some(format!("{a}: cannot parse {v:?}"));
                }
            }
            _ if a.starts_with("--") => bad = Some(format!("{a} is not an option of gen --dag")),
            _ if dir.is_none() => dir = Some(a),
            _ => bad = Some(format!("unexpected argument {a:?}")),
        }
    }
    let Some(dir) = dir.filter(|_| bad.is_none()) else {
        eprintln!("pypto-viewer gen: {}\nusage:\n{USAGE}", bad.unwrap_or_else(|| "gen needs an output directory".into()));
        return ExitCode::from(2);
    };
    let t0 = Instant::now();
    match generate_streams(Path::new(dir), tasks, seed, name_map, components) {
        Ok(s) => {
            println!(
                "wrote {dir}: {} tasks, {} alloc, {} edge rows, {} transformer layers, seed {seed} in {:.2} s",
                s.tasks,
                s.allocs,
                s.edge_rows,
                s.layers,
                t0.elapsed().as_secs_f64()
            );
            for (f, bytes) in &s.files {
                println!("  {f}: {bytes} bytes");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pypto-viewer gen: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use pypto_analysis::deps_graph::DepsGraph;

    #[test]
    fn parses_back_with_the_fixture_shapes() {
        let dir = std::env::temp_dir().join(format!("pypto-gen-dag-{}", std::process::id()));
        let s = generate(&dir, 3000, 5, true).unwrap();
        assert_eq!(s.tasks, 3000);
        let bytes = std::fs::read(dir.join("deps.json")).unwrap();
        let deps = pypto_formats::deps::parse("deps.json", &bytes).unwrap();
        assert_eq!(deps.task_count(), 3000);
        assert_eq!(deps.edge_count(), s.edge_rows);
        let g = DepsGraph::build(&deps, &[], &|_| false);
        assert!(g.topo_order.is_some(), "generated DAG has a cycle");
        assert_eq!(g.node_count(), 3000 + s.allocs);
        // Fan-out of the layer inputs, allocs feeding whole chains, fan-in of out_proj.
        let max_out = (0..g.node_count() as u32).map(|v| g.out_edges(v).len()).max().unwrap();
        let max_in = (0..g.node_count() as u32).map(|v| g.in_edges(v).len()).max().unwrap();
        assert!(max_out >= 16 && max_in >= 4, "{max_out} {max_in}");
        // Deterministic per seed.
        let again = std::env::temp_dir().join(format!("pypto-gen-dag-{}-b", std::process::id()));
        generate(&again, 3000, 5, false).unwrap();
        assert_eq!(bytes, std::fs::read(again.join("deps.json")).unwrap());
        let (m, _) = DagModel::build(3000, 5);
        assert_eq!(m.edge_count(), s.edge_rows);
        std::fs::remove_dir_all(&dir).ok();
        std::fs::remove_dir_all(&again).ok();
    }

    #[test]
    fn components_are_independent_streams() {
        let dir = std::env::temp_dir().join(format!("pypto-gen-dag-k-{}", std::process::id()));
        generate_streams(&dir, 3000, 5, false, 12).unwrap();
        let deps = pypto_formats::deps::parse("deps.json", &std::fs::read(dir.join("deps.json")).unwrap()).unwrap();
        let g = DepsGraph::build(&deps, &[], &|_| false);
        let edges: Vec<(u32, u32)> = g.edge_pred.iter().copied().zip(g.edge_succ.iter().copied()).collect();
        let (_, counts) = pypto_analysis::dag_layout::pack::components(g.node_count(), &edges);
        assert_eq!(counts.len(), 12, "one component per stream: {counts:?}");
        assert!(counts[0] > counts[11], "of different sizes: {counts:?}");
        // One stream is the plain generator.
        let one = std::env::temp_dir().join(format!("pypto-gen-dag-k1-{}", std::process::id()));
        let plain = std::env::temp_dir().join(format!("pypto-gen-dag-k1p-{}", std::process::id()));
        generate_streams(&one, 2000, 3, false, 1).unwrap();
        generate(&plain, 2000, 3, false).unwrap();
        assert_eq!(std::fs::read(one.join("deps.json")).unwrap(), std::fs::read(plain.join("deps.json")).unwrap());
        for d in [dir, one, plain] {
            std::fs::remove_dir_all(d).ok();
        }
    }
}
