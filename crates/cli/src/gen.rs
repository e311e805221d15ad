//! `pypto-viewer gen`: writes a large, seeded, format-faithful synthetic capture for
//! benchmarks and tests — `chip_swimlane_records.json` (raw 6-column rows at HEAD, written
//! with the runtime writer's key order and whitespace, runtime-formats.md §1.2),
//! `deps.json` (the compact `dep_gen` writer format, §2.1) and, with `--name-map`,
//! `name_map_<case>.json` (§3).
//!
//! # Workload model
//!
//! Tasks are submitted in "groups" of 16–128 tasks (think one attention head of one
//! request). Inside a group each task reads 1–3 outputs of earlier group tasks (a `creator`
//! edge per producer), often a strided slice of a shared weight tensor (no edge), sometimes
//! an `INOUT` slot or the whole of an accumulator buffer created by an alloc task of its
//! group (a `creator` edge from the alloc plus `tensormap` edges, `covered` / `other`, from
//! the earlier writers found by a small per-buffer tensor map that drops covered entries on
//! INOUT like the runtime's), and writes 1–2 `OUTPUT`s. Dummy tasks (`kernel_ids` all -1)
//! sit inside groups with `explicit` edges in and out; alloc tasks (ring 1) own the
//! accumulators and are absent from `tasks[]`. Every predecessor precedes its successor in
//! submit order, so the DAG is acyclic by construction, and keeping edges inside a group
//! bounds the reachability sets the reference's transitive reduction builds.
//! Ids: tasks are ring 2 (`2 << 32 | submit index`), allocs ring 1.
//!
//! # Timing model
//!
//! The orchestrator submits every node in order (40–160 cycles each); a task is ready once
//! submitted and every timed predecessor has finished (plus a resolve delay); a list
//! scheduler takes ready tasks in ready-time order and sends each block (SPMD `block_num`,
//! MIX clusters of 1 AIC + 1–2 AIV) to a core of its type (best fit: the core free latest
//! by the ready time, else the earliest free):
//! `dispatch < receive <= start < end < finish`, a core is busy from dispatch to
//! finish, so tasks on one core never overlap and a successor starts after every
//! predecessor's end. Dummies resolve on the scheduler thread of their last-finishing
//! predecessor. Scheduler phases (level ≥ 3) are built per thread from the dispatch and
//! FIN events of its cores: consecutive events of one kind become one `dispatch` /
//! `complete` record that contains them (with a `resolve` inside each `complete` and a
//! `release` in the gap after a `dispatch`), outer records never overlap, and
//! `shared_at_*` are the real ready-queue depths of the simulation. Durations are cycles at
//! 50 MHz scaled to `--clock-hz`.
//!
//! `--slow-function F:X` makes every AICore row whose resolved func id is `F` (a MIX task's
//! AIC row by `kernel_ids[0]`, its AIV rows by `kernel_ids[1]`, else `[2]`, as the readers
//! resolve them) run exactly `X` µs longer (rounded to whole cycles): the extra is added to the
//! row's end after its times are drawn, so everything after it shifts and the scheduler may
//! take tasks in another order. Each task draws its timing from its own random stream
//! `(seed, task)`, so every task draws the same numbers with or without the slowdown: the
//! kernel time of every other row is the same, and `pypto-viewer compare` of the two runs
//! shows function `F` with Δ total exec = rows × X and every other function with Δ 0.
//!
//! # Host-orchestrated output
//!
//! With [`GenOptions::host_clock`] (`gen --clock-anchors`, [`crate::gen_ranks`]) the capture is a
//! host-orchestrated one that calibrates (runtime-formats.md §1.16): the host-mode metadata,
//! `metadata.clock_anchors` (three samples per position; the smallest RTT is exact) mapping
//! device cycle `c` to host ns `origin + (c − c0) · 1e9 / clock_hz` (`c0` = the capture's
//! earliest device event, so `host_orchestration_origin_ns` = `origin` is its host time, and
//! the anchors drift by 0), and, at level 4, the orchestrator's submits as
//! `host_orchestrator_phases` in host ns instead of `aicpu_orchestrator_phases`. The viewer
//! then places device cycle `c` at `(c − c0) / clock_hz` s after the origin.
//!
//! Everything derives from `--seed` through an in-module splitmix64, so a seed gives
//! byte-identical files. Output is streamed through `BufWriter`s; memory is a few dozen
//! bytes per task, row and edge.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// Usage lines for the `gen` subcommand.
pub const USAGE: &str = "  pypto-viewer gen <out-dir> [--tasks N] [--cores AIC:AIV] [--level 1..4] [--seed S]\n                  [--spmd-fraction F] [--mix-fraction F] [--dummy N] [--alloc N]\n                  [--clock-hz HZ] [--name-map] [--slow-function FUNC_ID:EXTRA_US]";

/// Ring id of submitted (kernel and dummy) tasks.
pub const TASK_RING: u64 = 2;
/// Ring id of alloc tasks.
pub const ALLOC_RING: u64 = 1;
/// Cycle value of the first orchestrator record (a realistic device uptime).
const BASE_CYCLES: u64 = 100_000_000_000;
/// The durations below are cycles at this clock.
const REFERENCE_CLOCK_HZ: f64 = 50_000_000.0;
/// Random stream of task `i`'s timing: `TASK_STREAM_BASE + i` (streams 1–3 are the DAG, the
/// orchestrator and the scheduler phases).
const TASK_STREAM_BASE: u64 = 16;
/// SPMD block counts drawn for SPMD tasks.
const SPMD_BLOCKS: [u32; 6] = [2, 4, 8, 16, 24, 48];
/// Accumulator buffers: `ACC_ROWS` × `TILE` FLOAT32, written in `ACC_SLOTS` row slots.
const ACC_ROWS: u32 = 64;
const ACC_SLOTS: u32 = 4;
const TILE: u32 = 16;
/// Shared weight tensors: `TILE` × `WEIGHT_COLS` BFLOAT16, read as strided 16×16 tiles.
const WEIGHTS: u32 = 16;
const WEIGHT_COLS: u32 = 4096;
const ACC_BUFFERS_PER_ALLOC: usize = 2;
const NONE: u32 = u32::MAX;

/// Options of one `gen` run.
#[derive(Debug, Clone, PartialEq)]
pub struct GenOptions {
    /// Entries of `deps.json` `tasks[]` (kernel tasks plus dummies).
    pub tasks: usize,
    pub aic_cores: u32,
    pub aiv_cores: u32,
    pub level: u32,
    pub seed: u64,
    pub spmd_fraction: f64,
    pub mix_fraction: f64,
    /// Dummy tasks (default: tasks / 200).
    pub dummy: Option<usize>,
    /// Alloc tasks (default: tasks / 64).
    pub alloc: Option<usize>,
    pub clock_hz: u64,
    pub name_map: bool,
    /// `(func id, extra µs)`: every AICore row of that function runs this much longer.
    pub slow_function: Option<(u32, f64)>,
    /// Write a host-orchestrated capture whose clock anchors calibrate, with this host origin
    /// (see the module doc); `None`: a device-orchestrated one (the default).
    pub host_clock: Option<HostClock>,
}

/// The host clock of a host-orchestrated capture: its host origin (`CLOCK_MONOTONIC` ns), which
/// is the host time of its earliest device event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostClock {
    pub origin_ns: u64,
}

impl Default for GenOptions {
    fn default() -> Self {
        Self {
            tasks: 1000,
            aic_cores: 24,
            aiv_cores: 48,
            level: 4,
            seed: 1,
            spmd_fraction: 0.05,
            mix_fraction: 0.1,
            dummy: None,
            alloc: None,
            clock_hz: 50_000_000,
            name_map: false,
            slow_function: None,
            host_clock: None,
        }
    }
}

fn parse_num<T: std::str::FromStr>(flag: &str, v: Option<&str>) -> Result<T, String> {
    let v = v.ok_or_else(|| format!("{flag} needs a value"))?;
    v.parse().map_err(|_| format!("{flag}: cannot parse {v:?}"))
}

/// Parses `gen` arguments (after the subcommand name): `(out_dir, options)`.
pub fn parse_args(args: &[&str]) -> Result<(String, GenOptions), String> {
    let mut o = GenOptions::default();
    let mut dir = None;
    let mut it = args.iter().copied();
    while let Some(a) = it.next() {
        match a {
            "--tasks" => o.tasks = parse_num(a, it.next())?,
            "--cores" => {
                let v: String = parse_num(a, it.next())?;
                let (c, v2) = v.split_once(':').ok_or_else(|| format!("--cores expects AIC:AIV, got {v:?}"))?;
                o.aic_cores = parse_num("--cores AIC", Some(c))?;
                o.aiv_cores = parse_num("--cores AIV", Some(v2))?;
            }
            "--level" => o.level = parse_num(a, it.next())?,
            "--seed" => o.seed = parse_num(a, it.next())?,
            "--spmd-fraction" => o.spmd_fraction = parse_num(a, it.next())?,
            "--mix-fraction" => o.mix_fraction = parse_num(a, it.next())?,
            "--dummy" => o.dummy = Some(parse_num(a, it.next())?),
            "--alloc" => o.alloc = Some(parse_num(a, it.next())?),
            "--clock-hz" => o.clock_hz = parse_num(a, it.next())?,
            "--name-map" => o.name_map = true,
            "--slow-function" => {
                let v: String = parse_num(a, it.next())?;
                let (f, x) = v.split_once(':').ok_or_else(|| format!("--slow-function expects FUNC_ID:EXTRA_US, got {v:?}"))?;
                o.slow_function = Some((parse_num("--slow-function FUNC_ID", Some(f))?, parse_num("--slow-function EXTRA_US", Some(x))?));
            }
            _ if a.starts_with("--") => return Err(format!("unknown option {a}")),
            _ if dir.is_none() => dir = Some(a.to_owned()),
            _ => return Err(format!("unexpected argument {a:?}")),
        }
    }
    let dir = dir.ok_or("gen needs an output directory")?;
    validate(&o)?;
    Ok((dir, o))
}

pub(crate) fn validate(o: &GenOptions) -> Result<(), String> {
    if o.tasks == 0 || o.tasks >= (1 << 31) {
        return Err("--tasks must be in 1..2^31".into());
    }
    if o.aic_cores == 0 || o.aiv_cores == 0 || o.aic_cores + o.aiv_cores > 4096 {
        return Err("--cores needs at least one AIC and one AIV core (4096 in all at most)".into());
    }
    if !(1..=4).contains(&o.level) {
        return Err("--level must be 1..4".into());
    }
    for (name, f) in [("--spmd-fraction", o.spmd_fraction), ("--mix-fraction", o.mix_fraction)] {
        if !(0.0..=1.0).contains(&f) {
            return Err(format!("{name} must be within 0..1"));
        }
    }
    if o.clock_hz == 0 {
        return Err("--clock-hz must be > 0".into());
    }
    if let Some((f, x)) = o.slow_function {
        if f as usize >= FUNCS.len() || !x.is_finite() || x < 0.0 {
            return Err(format!("--slow-function: func id must be 0..{} and the extra a number of µs >= 0", FUNCS.len() - 1));
        }
    }
    if o.host_clock.is_some() && 1_000_000_000 % o.clock_hz != 0 {
        return Err("--clock-anchors needs a --clock-hz that divides 1 GHz (whole ns per cycle)".into());
    }
    Ok(())
}

/// `gen` entry point (arguments after the subcommand name).
pub fn run(args: &[&str]) -> ExitCode {
    if args.contains(&"--dag") {
        return crate::gen_dag::run(args);
    }
    if args.contains(&"--strace") {
        return crate::gen_strace::run(args);
    }
    if args.contains(&"--warning-cases") {
        return crate::gen_warnings::run(args);
    }
    if crate::gen_ranks::wanted(args) {
        return crate::gen_ranks::run(args);
    }
    let (dir, opts) = match parse_args(args) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("pypto-viewer gen: {e}\nusage:\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let t0 = Instant::now();
    match generate(Path::new(&dir), &opts) {
        Ok(s) => {
            println!(
                "wrote {dir}: {} tasks ({} dummy, {} SPMD, {} MIX), {} alloc, {} AICore rows, {} edge rows, {} tensors, level {}, {} cores, seed {} in {:.2} s",
                s.tasks,
                s.dummy_tasks,
                s.spmd_tasks,
                s.mix_tasks,
                s.alloc_tasks,
                s.aicore_rows,
                s.edge_rows,
                s.tensors,
                opts.level,
                opts.aic_cores + opts.aiv_cores,
                opts.seed,
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

/// What [`generate`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GenSummary {
    pub tasks: usize,
    pub dummy_tasks: usize,
    pub spmd_tasks: usize,
    pub mix_tasks: usize,
    pub alloc_tasks: usize,
    pub aicore_rows: usize,
    pub edge_rows: usize,
    pub tensors: usize,
    /// `(file name, size_bytes)`.
    pub files: Vec<(String, u64)>,
}

/// The name map's case name (`name_map_<case>.json`).
pub fn case_name(o: &GenOptions) -> String {
    format!("TestGenCapture_seed{}", o.seed)
}

/// Writes the capture into `dir` (created if needed).
pub fn generate(dir: &Path, o: &GenOptions) -> Result<GenSummary, String> {
    validate(o)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let model = Model::build(o);
    let sim = Sim::run(&model, o);
    let mut files = Vec::new();
    let mut write = |name: &str, f: &dyn Fn(&mut dyn Write) -> io::Result<()>| -> Result<(), String> {
        let path = dir.join(name);
        let ctx = |e: io::Error| format!("cannot write {}: {e}", path.display());
        let file = File::create(&path).map_err(ctx)?;
        let mut w = BufWriter::with_capacity(1 << 20, file);
        f(&mut w).map_err(ctx)?;
        w.flush().map_err(ctx)?;
        let len = std::fs::metadata(&path).map_err(ctx)?.len();
        files.push((name.to_owned(), len));
        Ok(())
    };
    write("chip_swimlane_records.json", &|w| write_records(w, &model, &sim, o))?;
    let mut tensors = 0;
    write("deps.json", &|w| write_deps(w, &model).map(|_| ()))?;
    if o.name_map {
        write(&format!("name_map_{}.json", case_name(o)), &|w| write_name_map(w))?;
    }
    // The tensor count is cheap to recompute (first-reference order over args).
    let mut seen = vec![false; model.tensors.len()];
    for a in &model.args {
        if a.tensor != NONE && !std::mem::replace(&mut seen[a.tensor as usize], true) {
            tensors += 1;
        }
    }
    Ok(GenSummary {
        tasks: model.tasks.len(),
        dummy_tasks: model.tasks.iter().filter(|t| t.is_dummy()).count(),
        spmd_tasks: model.tasks.iter().filter(|t| t.block_num > 1).count(),
        mix_tasks: model.tasks.iter().filter(|t| t.is_mix()).count(),
        alloc_tasks: model.allocs,
        aicore_rows: sim.rows.len(),
        edge_rows: model.edges.len(),
        tensors,
        files,
    })
}

// ---------------------------------------------------------------------------------------
// Random numbers

/// splitmix64: tiny, fast, and good enough for a workload generator.
struct Rng(u64);

impl Rng {
    fn new(seed: u64, stream: u64) -> Self {
        let mut r = Self(seed ^ stream.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        r.next();
        r
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (0 when `n == 0`).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

// ---------------------------------------------------------------------------------------
// The DAG and its tensors

#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Aic,
    Aiv,
}

struct Func {
    name: &'static str,
    slot: Slot,
    mean_cycles: u64,
}

/// The kernels (func id = index); MIX tasks use `FusedAttn_aic` + `FusedAttn_aiv`.
const FUNCS: [Func; 9] = [
    Func { name: "QK", slot: Slot::Aic, mean_cycles: 4200 },
    Func { name: "SF", slot: Slot::Aiv, mean_cycles: 2600 },
    Func { name: "PV", slot: Slot::Aic, mean_cycles: 3900 },
    Func { name: "UP", slot: Slot::Aiv, mean_cycles: 1800 },
    Func { name: "RmsNorm", slot: Slot::Aiv, mean_cycles: 1200 },
    Func { name: "MatMul", slot: Slot::Aic, mean_cycles: 6400 },
    Func { name: "FusedAttn_aic", slot: Slot::Aic, mean_cycles: 5200 },
    Func { name: "FusedAttn_aiv", slot: Slot::Aiv, mean_cycles: 5200 },
    Func { name: "Rope", slot: Slot::Aiv, mean_cycles: 900 },
];
const PLAIN_FUNCS: [i32; 7] = [0, 1, 2, 3, 4, 5, 8];
const MIX_AIC_FUNC: i32 = 6;
const MIX_AIV_FUNC: i32 = 7;

#[derive(Clone, Copy)]
enum Dtype {
    Float32,
    Bfloat16,
}

impl Dtype {
    fn name(self) -> &'static str {
        match self {
            Self::Float32 => "FLOAT32",
            Self::Bfloat16 => "BFLOAT16",
        }
    }
    fn size_bytes(self) -> u64 {
        match self {
            Self::Float32 => 4,
            Self::Bfloat16 => 2,
        }
    }
}

/// Slice geometries (dims, strides in elements) used by args and edges.
const SHAPES: [(&[u32], &[u32]); 5] = [
    (&[TILE, TILE], &[TILE, 1]),
    (&[TILE], &[1]),
    (&[TILE, TILE], &[TILE, 1]),
    (&[ACC_ROWS, TILE], &[TILE, 1]),
    (&[TILE, TILE], &[WEIGHT_COLS, 1]),
];
const SHAPE_TILE: u8 = 0;
const SHAPE_VEC: u8 = 1;
const SHAPE_ACC_SLOT: u8 = 2;
const SHAPE_ACC_WHOLE: u8 = 3;
const SHAPE_WEIGHT_TILE: u8 = 4;

struct Tensor {
    addr: u64,
    numel: u64,
    dtype: Dtype,
}

impl Tensor {
    /// FNV-1a 64 over the address (8 bytes LE) then the version (4 bytes LE, always 0).
    fn id(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self.addr.to_le_bytes().into_iter().chain(0u32.to_le_bytes()) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ArgKind {
    Input,
    Output,
    Inout,
}

#[derive(Clone, Copy)]
struct Arg {
    kind: ArgKind,
    /// Tensor index, [`NONE`] for OUTPUT (not materialised at submit).
    tensor: u32,
    shape: u8,
    offset_elems: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Explicit,
    Creator,
    Tensormap,
}

#[derive(Clone, Copy)]
struct Edge {
    /// Node index: `< tasks` a task, else alloc `pred - tasks`.
    pred: u32,
    arg: i16,
    source: Source,
    covered: bool,
    tensor: u32,
    consumer_shape: u8,
    consumer_offset_elems: u32,
    producer_shape: u8,
    producer_offset_elems: u32,
}

#[derive(Clone, Copy)]
struct TaskRec {
    kernel_ids: [i32; 3],
    block_num: u32,
    early_dispatch: bool,
    /// End of this task's args in [`Model::args`] (start = previous task's end).
    args_end: u32,
    /// End of this task's edges (as consumer) in [`Model::edges`].
    edges_end: u32,
}

impl TaskRec {
    fn is_dummy(&self) -> bool {
        self.kernel_ids.iter().all(|&k| k < 0)
    }
    fn is_mix(&self) -> bool {
        self.kernel_ids[0] >= 0 && (self.kernel_ids[1] >= 0 || self.kernel_ids[2] >= 0)
    }
    /// Ready-queue slot: 0 AIC, 1 AIV, 2 MIX.
    fn queue_slot(&self) -> usize {
        if self.is_mix() {
            2
        } else {
            usize::from(self.kernel_ids[0] < 0)
        }
    }
    fn exec_func(&self) -> usize {
        self.kernel_ids.iter().find(|&&k| k >= 0).map_or(0, |&k| k as usize)
    }
}

struct AccBuf {
    alloc_node: u32,
    tensor: u32,
    used: bool,
    /// Tensor-map entries `(producer task, row lo, row hi)`.
    entries: Vec<(u32, u32, u32)>,
}

/// The generated DAG in submit order.
struct Model {
    tasks: Vec<TaskRec>,
    args: Vec<Arg>,
    edges: Vec<Edge>,
    tensors: Vec<Tensor>,
    allocs: usize,
    /// Node indices in orchestrator submit order (allocs before their group).
    submit_order: Vec<u32>,
}

struct Heap {
    next_addr: u64,
    align: u64,
}

impl Heap {
    fn take(&mut self, bytes: u64) -> u64 {
        let a = self.next_addr;
        self.next_addr += bytes.div_ceil(self.align) * self.align;
        a
    }
}

impl Model {
    #[allow(clippy::too_many_lines, clippy::many_single_char_names)] // one generator pass; n/m/o/i/j as in the docs
    fn build(o: &GenOptions) -> Self {
        let n = o.tasks;
        let mut rng = Rng::new(o.seed, 1);
        // Group sizes first, so dummy/alloc counts can be spread exactly.
        let mut groups = Vec::new();
        let mut left = n;
        while left > 0 {
            let g = (rng.range(16, 128) as usize).min(left);
            groups.push(g);
            left -= g;
        }
        let eligible: usize = groups.iter().map(|&g| g.saturating_sub(2)).sum();
        let dummies = o.dummy.unwrap_or(n / 200).min(eligible);
        let allocs = o.alloc.unwrap_or(n / 64);
        let spread = |k: usize, total: usize, of: usize| -> usize {
            // How many of `total` items fall on position k of `of` (Bresenham).
            if of == 0 {
                return 0;
            }
            let at = |x: usize| (x as u128 * total as u128 / of as u128) as usize;
            at(k + 1) - at(k)
        };

        let mut tensors = Vec::new();
        let mut weight_heap = Heap { next_addr: 0x5596_0000_0000, align: 4096 };
        for _ in 0..WEIGHTS {
            let numel = u64::from(TILE * WEIGHT_COLS);
            let addr = weight_heap.take(numel * 2);
            tensors.push(Tensor { addr, numel, dtype: Dtype::Bfloat16 });
        }
        let mut acc_heap = Heap { next_addr: 0x5610_0000_0000, align: 4096 };
        let mut out_heap = Heap { next_addr: 0x7fcd_4000_0000, align: 512 };

        let mut m = Model {
            tasks: Vec::with_capacity(n),
            args: Vec::with_capacity(n * 4),
            edges: Vec::with_capacity(n * 3),
            tensors,
            allocs,
            submit_order: Vec::with_capacity(n + allocs),
        };
        let mut dummy_pos = 0usize;
        let mut next_alloc = 0usize;
        let mut task = 0usize;
        // Per-group state, reused.
        let mut outputs: Vec<(u32, u32, u32)> = Vec::new(); // (task, out0, out1 or NONE)
        let mut members: Vec<u32> = Vec::new();
        let mut acc: Vec<AccBuf> = Vec::new();
        let mut pending: Vec<(u32, u32)> = Vec::new(); // (dummy task, successors still to link)
        let mut preds_seen: Vec<u32> = Vec::new();
        for (gi, &gsize) in groups.iter().enumerate() {
            outputs.clear();
            members.clear();
            acc.clear();
            pending.clear();
            for _ in 0..spread(gi, allocs, groups.len()) {
                let node = (n + next_alloc) as u32;
                next_alloc += 1;
                m.submit_order.push(node);
                for _ in 0..ACC_BUFFERS_PER_ALLOC {
                    let numel = u64::from(ACC_ROWS * TILE);
                    let addr = acc_heap.take(numel * 4);
                    m.tensors.push(Tensor { addr, numel, dtype: Dtype::Float32 });
                    acc.push(AccBuf { alloc_node: node, tensor: (m.tensors.len() - 1) as u32, used: false, entries: Vec::new() });
                }
            }
            for j in 0..gsize {
                let i = task as u32;
                task += 1;
                m.submit_order.push(i);
                preds_seen.clear();
                let is_dummy = j >= 2 && {
                    let d = spread(dummy_pos, dummies, eligible) > 0;
                    dummy_pos += 1;
                    d
                };
                // Explicit edges first: from pending dummies, then (dummies) from earlier tasks.
                let mut take_pending = |m: &mut Model, preds_seen: &mut Vec<u32>| {
                    for p in &mut pending {
                        if p.1 > 0 {
                            p.1 -= 1;
                            push_edge(m, preds_seen, Edge::explicit(p.0));
                        }
                    }
                    pending.retain(|p| p.1 > 0);
                };
                if is_dummy {
                    take_pending(&mut m, &mut preds_seen);
                    let k = rng.range(1, 3) as usize;
                    for _ in 0..k {
                        let back = rng.below(members.len().min(6) as u64) as usize;
                        let p = members[members.len() - 1 - back];
                        push_edge(&mut m, &mut preds_seen, Edge::explicit(p));
                    }
                    pending.push((i, rng.range(1, 2) as u32));
                    members.push(i);
                    m.tasks.push(TaskRec {
                        kernel_ids: [-1, -1, -1],
                        block_num: 1,
                        early_dispatch: false,
                        args_end: m.args.len() as u32,
                        edges_end: m.edges.len() as u32,
                    });
                    continue;
                }
                let kernel_ids = if rng.chance(o.mix_fraction) {
                    if rng.chance(0.5) {
                        [MIX_AIC_FUNC, MIX_AIV_FUNC, MIX_AIV_FUNC]
                    } else {
                        [MIX_AIC_FUNC, MIX_AIV_FUNC, -1]
                    }
                } else {
                    let f = PLAIN_FUNCS[rng.below(PLAIN_FUNCS.len() as u64) as usize];
                    if FUNCS[f as usize].slot == Slot::Aic {
                        [f, -1, -1]
                    } else {
                        [-1, f, -1]
                    }
                };
                let block_num = if rng.chance(o.spmd_fraction) { SPMD_BLOCKS[rng.below(SPMD_BLOCKS.len() as u64) as usize] } else { 1 };
                let early_dispatch = rng.below(32) == 0;
                take_pending(&mut m, &mut preds_seen);
                if j > 0 && rng.below(50) == 0 {
                    let p = members[rng.below(members.len() as u64) as usize];
                    push_edge(&mut m, &mut preds_seen, Edge::explicit(p));
                }
                let args_start = m.args.len();
                let mut creators: Vec<u32> = Vec::new();
                let mut idx: i16 = 0;
                // Data inputs: outputs of 1..3 earlier group tasks.
                if !outputs.is_empty() {
                    let want = match rng.below(10) {
                        0..=5 => 1,
                        6..=8 => 2,
                        _ => 3,
                    }
                    .min(outputs.len());
                    let mut chosen: Vec<usize> = Vec::with_capacity(want);
                    for _ in 0..want * 3 {
                        if chosen.len() == want {
                            break;
                        }
                        let back = if rng.below(4) == 0 { rng.below(outputs.len() as u64) } else { rng.below(outputs.len().min(6) as u64) }
                            as usize;
                        let pick = outputs.len() - 1 - back;
                        if !chosen.contains(&pick) {
                            chosen.push(pick);
                        }
                    }
                    for pick in chosen {
                        let (producer, o0, o1) = outputs[pick];
                        let tensor = if o1 != NONE && rng.chance(0.3) { o1 } else { o0 };
                        let shape = if tensor == o0 { SHAPE_TILE } else { SHAPE_VEC };
                        m.args.push(Arg { kind: ArgKind::Input, tensor, shape, offset_elems: 0 });
                        if !creators.contains(&producer) {
                            creators.push(producer);
                            push_edge(&mut m, &mut preds_seen, Edge::creator(producer, idx, tensor, shape, 0));
                        }
                        idx += 1;
                    }
                }
                // A strided tile of a shared weight (no owner, no edge).
                if rng.chance(0.5) {
                    let w = rng.below(u64::from(WEIGHTS)) as u32;
                    let col = rng.below(u64::from(WEIGHT_COLS / TILE)) as u32;
                    m.args.push(Arg { kind: ArgKind::Input, tensor: w, shape: SHAPE_WEIGHT_TILE, offset_elems: col * TILE });
                    idx += 1;
                }
                // Accumulator: INOUT a slot (or the whole buffer), or INPUT a slot.
                if !acc.is_empty() {
                    let unused = acc.iter().position(|b| !b.used);
                    let inout = unused.is_some() || rng.chance(0.35);
                    let read = !inout && rng.below(10) == 0;
                    if inout || read {
                        let bi = unused.unwrap_or_else(|| rng.below(acc.len() as u64) as usize);
                        let whole = inout && rng.below(5) == 0;
                        let (lo, hi) = if whole {
                            (0, ACC_ROWS)
                        } else {
                            let s = rng.below(u64::from(ACC_SLOTS)) as u32;
                            let rows = ACC_ROWS / ACC_SLOTS;
                            (s * rows, s * rows + rows)
                        };
                        let shape = if whole { SHAPE_ACC_WHOLE } else { SHAPE_ACC_SLOT };
                        let buf = &mut acc[bi];
                        buf.used = true;
                        let tensor = buf.tensor;
                        let alloc_node = buf.alloc_node;
                        let kind = if inout { ArgKind::Inout } else { ArgKind::Input };
                        m.args.push(Arg { kind, tensor, shape, offset_elems: lo * TILE });
                        if !creators.contains(&alloc_node) {
                            creators.push(alloc_node);
                            push_edge(&mut m, &mut preds_seen, Edge::creator(alloc_node, idx, tensor, shape, lo * TILE));
                        }
                        let mut kept = Vec::with_capacity(buf.entries.len() + 1);
                        for &(producer, plo, phi) in &buf.entries {
                            if phi <= lo || plo >= hi {
                                kept.push((producer, plo, phi));
                                continue;
                            }
                            let covered = plo <= lo && phi >= hi;
                            let pshape = if phi - plo == ACC_ROWS { SHAPE_ACC_WHOLE } else { SHAPE_ACC_SLOT };
                            push_edge(
                                &mut m,
                                &mut preds_seen,
                                Edge {
                                    pred: producer,
                                    arg: idx,
                                    source: Source::Tensormap,
                                    covered,
                                    tensor,
                                    consumer_shape: shape,
                                    consumer_offset_elems: lo * TILE,
                                    producer_shape: pshape,
                                    producer_offset_elems: plo * TILE,
                                },
                            );
                            if !(inout && covered) {
                                kept.push((producer, plo, phi));
                            }
                        }
                        if inout {
                            kept.push((i, lo, hi));
                        }
                        buf.entries = kept;
                    }
                }
                // Outputs (no tensor info at submit); the runtime creates them owned by `i`.
                let tile_dtype = if rng.chance(0.5) { Dtype::Bfloat16 } else { Dtype::Float32 };
                let numel = u64::from(TILE * TILE);
                let addr = out_heap.take(numel * tile_dtype.size_bytes());
                m.tensors.push(Tensor { addr, numel, dtype: tile_dtype });
                let o0 = (m.tensors.len() - 1) as u32;
                m.args.push(Arg { kind: ArgKind::Output, tensor: NONE, shape: SHAPE_TILE, offset_elems: 0 });
                let o1 = if rng.chance(0.4) {
                    let numel = u64::from(TILE);
                    let addr = out_heap.take(numel * 4);
                    m.tensors.push(Tensor { addr, numel, dtype: Dtype::Float32 });
                    m.args.push(Arg { kind: ArgKind::Output, tensor: NONE, shape: SHAPE_VEC, offset_elems: 0 });
                    (m.tensors.len() - 1) as u32
                } else {
                    NONE
                };
                debug_assert!(m.args.len() > args_start);
                outputs.push((i, o0, o1));
                members.push(i);
                m.tasks.push(TaskRec {
                    kernel_ids,
                    block_num,
                    early_dispatch,
                    args_end: m.args.len() as u32,
                    edges_end: m.edges.len() as u32,
                });
            }
        }
        m
    }

    fn task_args(&self, i: usize) -> &[Arg] {
        let start = if i == 0 { 0 } else { self.tasks[i - 1].args_end as usize };
        &self.args[start..self.tasks[i].args_end as usize]
    }

    fn task_edges(&self, i: usize) -> &[Edge] {
        let start = if i == 0 { 0 } else { self.tasks[i - 1].edges_end as usize };
        &self.edges[start..self.tasks[i].edges_end as usize]
    }

    fn node_id(&self, node: u32) -> u64 {
        let n = self.tasks.len() as u32;
        if node < n {
            (TASK_RING << 32) | u64::from(node)
        } else {
            (ALLOC_RING << 32) | u64::from(node - n)
        }
    }
}

impl Edge {
    fn explicit(pred: u32) -> Self {
        Self {
            pred,
            arg: -1,
            source: Source::Explicit,
            covered: false,
            tensor: NONE,
            consumer_shape: 0,
            consumer_offset_elems: 0,
            producer_shape: 0,
            producer_offset_elems: 0,
        }
    }
    fn creator(pred: u32, arg: i16, tensor: u32, shape: u8, offset_elems: u32) -> Self {
        Self {
            pred,
            arg,
            source: Source::Creator,
            covered: false,
            tensor,
            consumer_shape: shape,
            consumer_offset_elems: offset_elems,
            producer_shape: 0,
            producer_offset_elems: 0,
        }
    }
}

/// Appends an edge row; explicit rows are deduplicated per producer (the writer keeps
/// the first), creator dedup is done by the caller, tensormap rows are all kept.
fn push_edge(m: &mut Model, explicit_seen: &mut Vec<u32>, e: Edge) {
    if e.source == Source::Explicit {
        if explicit_seen.contains(&e.pred) {
            return;
        }
        explicit_seen.push(e.pred);
    }
    m.edges.push(e);
}

// ---------------------------------------------------------------------------------------
// Timing simulation

/// One AICore execution (one block / one core of a MIX cluster), in simulation order.
struct Row {
    task: u32,
    core: u32,
    reg_task_id: u32,
    dispatch_cycles: u64,
    start_cycles: u64,
    end_cycles: u64,
    receive_to_start_cycles: u64,
    finish_cycles: u64,
}

struct Sim {
    rows: Vec<Row>,
    /// Per node in submit order: `(node, start_cycles, end_cycles)`.
    orch: Vec<(u32, u64, u64)>,
    /// Per task: ready (all fanin satisfied) and first dispatch; 0 for dummies.
    ready_cycles: Vec<u64>,
    first_dispatch_cycles: Vec<u64>,
    /// Per task: the time its successors may use (max block finish / dummy resolve).
    fin_cycles: Vec<u64>,
    /// Per dummy task: `(task, cycles, scheduler thread)`.
    dummies: Vec<(u32, u64, u32)>,
    /// Distinct successors per task (for `resolve.tasks_processed`).
    fanout: Vec<u32>,
    core_to_thread: Vec<u32>,
    sched_threads: u32,
    /// Duration scale (clock / 50 MHz).
    scale: f64,
}

impl Sim {
    #[allow(clippy::too_many_lines, clippy::many_single_char_names)] // one simulation pass
    fn run(m: &Model, o: &GenOptions) -> Self {
        let n = m.tasks.len();
        let mut rng = Rng::new(o.seed, 2);
        let scale = o.clock_hz as f64 / REFERENCE_CLOCK_HZ;
        let cyc = |x: u64| -> u64 { ((x as f64 * scale).round() as u64).max(1) };
        let cores = o.aic_cores + o.aiv_cores;
        // Per task: its own stream (see the module doc), and the slow function's extra cycles.
        let mut task_rng: Vec<Rng> = (0..n as u64).map(|i| Rng::new(o.seed, TASK_STREAM_BASE + i)).collect();
        let (slow_func, extra_cycles) =
            o.slow_function.map_or((-1, 0), |(f, x)| (i32::try_from(f).unwrap_or(-1), (x * o.clock_hz as f64 / 1e6).round() as u64));
        let sched_threads = cores.min(3);
        let core_to_thread: Vec<u32> =
            (0..cores).map(|c| if c < o.aic_cores { c % sched_threads } else { ((c - o.aic_cores) / 2) % sched_threads }).collect();
        // Free AIC (cube) and AIV (vector) cores as (free_cycles, core): best fit = the latest core free by
        // the ready time, else the earliest free one.
        let mut cube_cores: BTreeSet<(u64, u32)> = (0..o.aic_cores).map(|c| (0, c)).collect();
        let mut vector_cores: BTreeSet<(u64, u32)> = (o.aic_cores..cores).map(|c| (0, c)).collect();
        let mut reg = vec![0u32; cores as usize];
        let mut warm = vec![false; cores as usize];
        let mut s = Sim {
            rows: Vec::with_capacity(n * 3 / 2),
            orch: Vec::with_capacity(m.submit_order.len()),
            ready_cycles: vec![0; n],
            first_dispatch_cycles: vec![0; n],
            fin_cycles: vec![0; n],
            dummies: Vec::new(),
            fanout: vec![0; n + m.allocs],
            core_to_thread,
            sched_threads,
            scale,
        };
        // Orchestrator: every node in submit order.
        let mut submit_end = vec![0u64; n];
        let mut t_orch = BASE_CYCLES + rng.below(1_000_000_000);
        for &node in &m.submit_order {
            let start = t_orch + cyc(rng.range(2, 20));
            let end = start + cyc(rng.range(40, 160));
            s.orch.push((node, start, end));
            t_orch = end;
            if let Some(e) = submit_end.get_mut(node as usize) {
                *e = end;
            }
        }
        // Successors (CSR over unique timed predecessors) and fan-in counts.
        let mut succ_off = vec![0u32; n + 1];
        let mut indegree = vec![0u32; n];
        let mut seen_pred: Vec<u32> = Vec::new();
        let unique_preds = |i: usize, seen: &mut Vec<u32>| {
            seen.clear();
            for e in m.task_edges(i) {
                if !seen.contains(&e.pred) {
                    seen.push(e.pred);
                }
            }
        };
        for (i, fan_in) in indegree.iter_mut().enumerate() {
            unique_preds(i, &mut seen_pred);
            for &p in &seen_pred {
                s.fanout[p as usize] += 1;
                if (p as usize) < n {
                    succ_off[p as usize + 1] += 1;
                    *fan_in += 1;
                }
            }
        }
        for i in 0..n {
            succ_off[i + 1] += succ_off[i];
        }
        let mut succ = vec![0u32; succ_off[n] as usize];
        let mut fill = succ_off.clone();
        for i in 0..n {
            unique_preds(i, &mut seen_pred);
            for &p in &seen_pred {
                if (p as usize) < n {
                    succ[fill[p as usize] as usize] = i as u32;
                    fill[p as usize] += 1;
                }
            }
        }
        drop(fill);
        // List scheduling in ready order: a task becomes ready when submitted and its last
        // predecessor finished (plus a resolve delay); ready tasks take cores in ready order.
        let mut ready_at = submit_end; // running max(submit end, predecessor fins)
        let mut owner_thread = vec![0u32; n]; // scheduler thread that saw the task finish
        let mut last_pred_thread = vec![0u32; n];
        let mut heap: BinaryHeap<Reverse<(u64, u32)>> = BinaryHeap::new();
        for (i, (&fan_in, &at)) in indegree.iter().zip(&ready_at).enumerate() {
            if fan_in == 0 {
                let r = at + cyc(task_rng[i].range(20, 150));
                heap.push(Reverse((r, i as u32)));
            }
        }
        let mut cluster: Vec<(u64, u32)> = Vec::with_capacity(3);
        while let Some(Reverse((ready, i32_))) = heap.pop() {
            let i = i32_ as usize;
            let t = &m.tasks[i];
            let rng = &mut task_rng[i];
            s.ready_cycles[i] = ready;
            let fin = if t.is_dummy() {
                let thread = last_pred_thread[i];
                owner_thread[i] = thread;
                s.dummies.push((i32_, ready, thread));
                ready + cyc(rng.range(10, 40))
            } else {
                let func = &FUNCS[t.exec_func()];
                let mut fin = 0u64;
                let mut first_dispatch = u64::MAX;
                let mut last_core = 0u32;
                let mix_aiv = if !t.is_mix() {
                    0
                } else if t.kernel_ids[2] >= 0 {
                    2
                } else {
                    1
                };
                for _ in 0..t.block_num {
                    cluster.clear();
                    if t.is_mix() {
                        cluster.extend(best_fit(&mut cube_cores, ready));
                        for _ in 0..mix_aiv {
                            cluster.extend(best_fit(&mut vector_cores, ready));
                        }
                    } else if func.slot == Slot::Aic {
                        cluster.extend(best_fit(&mut cube_cores, ready));
                    } else {
                        cluster.extend(best_fit(&mut vector_cores, ready));
                    }
                    let free = cluster.iter().map(|c| c.0).max().unwrap_or(0);
                    let dispatch = ready.max(free) + cyc(rng.range(20, 120));
                    let exec = cyc(func.mean_cycles * rng.range(70, 130) / 100);
                    for &(_, core) in &cluster {
                        let prop = cyc(rng.range(5, 40));
                        let c = core as usize;
                        let r2s = if warm[c] { cyc(rng.range(2, 12)) } else { cyc(rng.range(20, 60)) };
                        warm[c] = true;
                        reg[c] += 1;
                        let start = dispatch + prop + r2s;
                        let end = start + (exec * rng.range(95, 105) / 100).max(1);
                        // The row's func id as the readers resolve it (runtime-formats.md §1.12).
                        let k = t.kernel_ids;
                        let row_func = if core < o.aic_cores {
                            k[0]
                        } else if k[1] >= 0 {
                            k[1]
                        } else {
                            k[2]
                        };
                        let end = if row_func == slow_func { end + extra_cycles } else { end };
                        let finish = end + cyc(rng.range(60, 400));
                        s.rows.push(Row {
                            task: i32_,
                            core,
                            reg_task_id: reg[c],
                            dispatch_cycles: dispatch,
                            start_cycles: start,
                            end_cycles: end,
                            receive_to_start_cycles: r2s,
                            finish_cycles: finish,
                        });
                        if finish > fin {
                            fin = finish;
                            last_core = core;
                        }
                        first_dispatch = first_dispatch.min(dispatch);
                        if core < o.aic_cores {
                            cube_cores.insert((finish, core));
                        } else {
                            vector_cores.insert((finish, core));
                        }
                    }
                }
                s.first_dispatch_cycles[i] = first_dispatch;
                owner_thread[i] = s.core_to_thread[last_core as usize];
                fin
            };
            s.fin_cycles[i] = fin;
            for &j in &succ[succ_off[i] as usize..succ_off[i + 1] as usize] {
                let j = j as usize;
                if fin >= ready_at[j] {
                    ready_at[j] = fin;
                    last_pred_thread[j] = owner_thread[i];
                }
                indegree[j] -= 1;
                if indegree[j] == 0 {
                    let r = ready_at[j] + cyc(task_rng[j].range(20, 150));
                    heap.push(Reverse((r, j as u32)));
                }
            }
        }
        s
    }

    fn cyc(&self, x: u64) -> u64 {
        ((x as f64 * self.scale).round() as u64).max(1)
    }
}

/// Takes the core free latest at or before `ready` (least idle time wasted), else the one
/// free earliest.
fn best_fit(free: &mut BTreeSet<(u64, u32)>, ready: u64) -> Option<(u64, u32)> {
    let pick = free.range(..=(ready, u32::MAX)).next_back().or_else(|| free.iter().next()).copied()?;
    free.remove(&pick);
    Some(pick)
}

// ---------------------------------------------------------------------------------------
// Writers

fn put_u64(w: &mut dyn Write, mut v: u64) -> io::Result<()> {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    w.write_all(&buf[i..])
}

fn put_i64(w: &mut dyn Write, v: i64) -> io::Result<()> {
    if v < 0 {
        w.write_all(b"-")?;
    }
    put_u64(w, v.unsigned_abs())
}

/// Ready-queue depth per slot (AIC, AIV, MIX) at a time, from sorted ready and dispatch
/// times.
struct QueueDepth {
    ready: [Vec<u64>; 3],
    dispatched: [Vec<u64>; 3],
}

impl QueueDepth {
    fn new(m: &Model, s: &Sim) -> Self {
        let mut q = Self { ready: Default::default(), dispatched: Default::default() };
        for (i, t) in m.tasks.iter().enumerate() {
            if t.is_dummy() {
                continue;
            }
            let slot = t.queue_slot();
            q.ready[slot].push(s.ready_cycles[i]);
            q.dispatched[slot].push(s.first_dispatch_cycles[i]);
        }
        for v in q.ready.iter_mut().chain(q.dispatched.iter_mut()) {
            v.sort_unstable();
        }
        q
    }
    fn at(&self, t: u64) -> [i64; 3] {
        let mut d = [0i64; 3];
        for (slot, out) in d.iter_mut().enumerate() {
            let r = self.ready[slot].partition_point(|&x| x <= t);
            let k = self.dispatched[slot].partition_point(|&x| x <= t);
            *out = i64::try_from(r.saturating_sub(k)).map_or(i64::from(i16::MAX), |d| d.min(i64::from(i16::MAX)));
        }
        d
    }
}

fn put_depth(w: &mut dyn Write, key: &str, d: [i64; 3]) -> io::Result<()> {
    write!(w, ", \"{key}\": [")?;
    put_i64(w, d[0])?;
    w.write_all(b",")?;
    put_i64(w, d[1])?;
    w.write_all(b",")?;
    put_i64(w, d[2])?;
    w.write_all(b"]")
}

/// One scheduler phase record, written in the HEAD writer's key order.
struct Phase<'a> {
    kind: &'a str,
    start: u64,
    end: u64,
    loop_iter: u32,
    tasks_processed: u64,
    pop: Option<(u64, u64)>,
    task_id: Option<u64>,
    shared_at_start: [i64; 3],
    shared_at_end: [i64; 3],
}

fn put_phase(w: &mut dyn Write, first: &mut bool, p: &Phase) -> io::Result<()> {
    if !*first {
        w.write_all(b",")?;
    }
    *first = false;
    write!(w, "\n      {{\"kind\": \"{}\", \"start_cycles\": ", p.kind)?;
    put_u64(w, p.start)?;
    w.write_all(b", \"end_cycles\": ")?;
    put_u64(w, p.end)?;
    w.write_all(b", \"loop_iter\": ")?;
    put_u64(w, u64::from(p.loop_iter))?;
    w.write_all(b", \"tasks_processed\": ")?;
    put_u64(w, p.tasks_processed)?;
    if let Some((hit, miss)) = p.pop {
        w.write_all(b", \"pop_hit\": ")?;
        put_u64(w, hit)?;
        w.write_all(b", \"pop_miss\": ")?;
        put_u64(w, miss)?;
    }
    if let Some(id) = p.task_id {
        w.write_all(b", \"task_id\": ")?;
        put_u64(w, id)?;
    }
    put_depth(w, "shared_at_start", p.shared_at_start)?;
    put_depth(w, "shared_at_end", p.shared_at_end)?;
    w.write_all(b"}")
}

const EV_COMPLETE: u8 = 0;
const EV_DUMMY: u8 = 1;
const EV_DISPATCH: u8 = 2;

/// Writes one scheduler thread's records (see the module doc for the rules).
#[allow(clippy::too_many_lines, clippy::many_single_char_names)] // one pass over the events
fn write_sched_thread(w: &mut dyn Write, m: &Model, s: &Sim, q: &QueueDepth, thread: u32, rng: &mut Rng) -> io::Result<()> {
    // (time, kind, payload: row index or task index)
    let mut ev: Vec<(u64, u8, u32)> = Vec::new();
    for (ri, r) in s.rows.iter().enumerate() {
        if s.core_to_thread[r.core as usize] == thread {
            ev.push((r.finish_cycles, EV_COMPLETE, ri as u32));
            ev.push((r.dispatch_cycles, EV_DISPATCH, ri as u32));
        }
    }
    for &(task, t, th) in &s.dummies {
        if th == thread {
            ev.push((t, EV_DUMMY, task));
        }
    }
    ev.sort_unstable();
    let window = s.cyc(400);
    let zero = [0i64; 3];
    let mut first = true;
    let mut prev_end = 0u64;
    let mut loop_iter = 1u32;
    let mut completes_since_release = 0u64;
    let mut k = 0usize;
    w.write_all(b"    [")?;
    while k < ev.len() {
        let (t0, kind, payload) = ev[k];
        let next_t = ev.get(k + 1).map(|e| e.0);
        if kind == EV_DUMMY {
            let start = prev_end.max(t0.saturating_sub(s.cyc(rng.range(10, 30))));
            let mut end = t0 + s.cyc(rng.range(10, 40));
            if let Some(nt) = next_t {
                end = end.min(nt).max(t0);
            }
            put_phase(
                w,
                &mut first,
                &Phase {
                    kind: "dummy_task",
                    start: t0,
                    end: t0,
                    loop_iter,
                    tasks_processed: 1,
                    pop: None,
                    task_id: Some(m.node_id(payload)),
                    shared_at_start: zero,
                    shared_at_end: zero,
                },
            )?;
            put_phase(
                w,
                &mut first,
                &Phase {
                    kind: "dummy",
                    start,
                    end,
                    loop_iter,
                    tasks_processed: 1,
                    pop: None,
                    task_id: None,
                    shared_at_start: q.at(start),
                    shared_at_end: q.at(end),
                },
            )?;
            prev_end = end;
            k += 1;
            continue;
        }
        let mut last = k;
        while last + 1 < ev.len() && ev[last + 1].1 == kind && ev[last + 1].0 <= ev[last].0 + window {
            last += 1;
        }
        let count = (last - k + 1) as u64;
        let t_last = ev[last].0;
        let after = ev.get(last + 1).map(|e| e.0);
        let start = prev_end.max(t0.saturating_sub(s.cyc(rng.range(5, 40))));
        let mut end = t_last + s.cyc(rng.range(20, 60) + 15 * count);
        if let Some(nt) = after {
            end = end.min(nt);
        }
        end = end.max(t_last);
        if kind == EV_COMPLETE {
            loop_iter += 1;
            completes_since_release += count;
            let mut visited = 0u64;
            for e in &ev[k..=last] {
                let r = &s.rows[e.2 as usize];
                if r.finish_cycles == s.fin_cycles[r.task as usize] {
                    visited += u64::from(s.fanout[r.task as usize]);
                }
            }
            put_phase(
                w,
                &mut first,
                &Phase {
                    kind: "complete",
                    start,
                    end,
                    loop_iter,
                    tasks_processed: count,
                    pop: None,
                    task_id: None,
                    shared_at_start: q.at(start),
                    shared_at_end: q.at(end),
                },
            )?;
            if visited > 0 && end > start + 1 {
                put_phase(
                    w,
                    &mut first,
                    &Phase {
                        kind: "resolve",
                        start: start + (end - start) / 4,
                        end: end - 1,
                        loop_iter,
                        tasks_processed: visited,
                        pop: None,
                        task_id: None,
                        shared_at_start: zero,
                        shared_at_end: zero,
                    },
                )?;
            }
            prev_end = end;
        } else {
            if k > 0 && ev[k - 1].1 == EV_DISPATCH {
                loop_iter += 1;
            }
            put_phase(
                w,
                &mut first,
                &Phase {
                    kind: "dispatch",
                    start,
                    end,
                    loop_iter,
                    tasks_processed: count,
                    pop: Some((count, rng.below(2 * count + 6))),
                    task_id: None,
                    shared_at_start: q.at(start),
                    shared_at_end: q.at(end),
                },
            )?;
            prev_end = end;
            let gap = after.map_or(u64::MAX, |nt| nt - end);
            if completes_since_release > 0 && gap > s.cyc(60) {
                let rs = end + s.cyc(rng.range(5, 15)).min(gap / 3);
                let re = rs + s.cyc(rng.range(10, 40)).min(gap / 3);
                put_phase(
                    w,
                    &mut first,
                    &Phase {
                        kind: "release",
                        start: rs,
                        end: re,
                        loop_iter: loop_iter + 1,
                        tasks_processed: completes_since_release,
                        pop: None,
                        task_id: None,
                        shared_at_start: zero,
                        shared_at_end: zero,
                    },
                )?;
                completes_since_release = 0;
                prev_end = re;
            }
        }
        k = last + 1;
    }
    if !first {
        w.write_all(b"\n    ")?;
    }
    w.write_all(b"]")
}

#[allow(clippy::too_many_lines, clippy::many_single_char_names)] // the file, key by key
fn write_records(w: &mut dyn Write, m: &Model, s: &Sim, o: &GenOptions) -> io::Result<()> {
    let cores = o.aic_cores + o.aiv_cores;
    write!(w, "{{\n  \"chip_swimlane_level\": {},\n  \"metadata\": {{\n", o.level)?;
    write!(w, "    \"clock_freq_hz\": {},\n    \"num_cores\": {cores},\n    \"core_types\": [", o.clock_hz)?;
    for c in 0..cores {
        if c > 0 {
            w.write_all(b", ")?;
        }
        w.write_all(if c < o.aic_cores { b"\"aic\"" } else { b"\"aiv\"" })?;
    }
    w.write_all(b"]")?;
    let host = o.host_clock.map(|h| HostMap::new(h, s, o));
    if let Some(h) = &host {
        write_host_metadata(w, h, s, o)?;
    }
    if o.level >= 3 {
        w.write_all(b",\n    \"core_to_thread\": [")?;
        for (c, t) in s.core_to_thread.iter().enumerate() {
            if c > 0 {
                w.write_all(b", ")?;
            }
            put_u64(w, u64::from(*t))?;
        }
        w.write_all(b"]")?;
    }
    w.write_all(b"\n  },\n")?;

    // Rows grouped by core, in collection (time) order within a core: a stable counting sort.
    let mut offsets = vec![0u32; cores as usize + 1];
    for r in &s.rows {
        offsets[r.core as usize + 1] += 1;
    }
    for c in 0..cores as usize {
        offsets[c + 1] += offsets[c];
    }
    let mut order = vec![0u32; s.rows.len()];
    let mut fill = offsets.clone();
    for (ri, r) in s.rows.iter().enumerate() {
        let slot = &mut fill[r.core as usize];
        order[*slot as usize] = ri as u32;
        *slot += 1;
    }

    w.write_all(b"  \"aicore_tasks\": [")?;
    let mut first = true;
    for &ri in &order {
        let r = &s.rows[ri as usize];
        w.write_all(if first { b"\n    [" } else { b",\n    [" })?;
        first = false;
        put_u64(w, u64::from(r.core))?;
        w.write_all(b", ")?;
        put_u64(w, m.node_id(r.task))?;
        w.write_all(b", ")?;
        put_u64(w, u64::from(r.reg_task_id))?;
        w.write_all(b", ")?;
        put_u64(w, r.start_cycles)?;
        w.write_all(b", ")?;
        put_u64(w, r.end_cycles)?;
        w.write_all(b", ")?;
        put_u64(w, r.receive_to_start_cycles)?;
        w.write_all(b"]")?;
    }
    if !first {
        w.write_all(b"\n  ")?;
    }
    w.write_all(b"]")?;

    w.write_all(b",\n  \"aicpu_tasks\": [")?;
    let mut first = true;
    if o.level >= 2 {
        for &ri in &order {
            let r = &s.rows[ri as usize];
            w.write_all(if first { b"\n    [" } else { b",\n    [" })?;
            first = false;
            put_u64(w, u64::from(r.core))?;
            w.write_all(b", ")?;
            put_u64(w, u64::from(r.reg_task_id))?;
            w.write_all(b", ")?;
            put_u64(w, r.dispatch_cycles)?;
            w.write_all(b", ")?;
            put_u64(w, r.finish_cycles)?;
            w.write_all(b"]")?;
        }
    }
    if !first {
        w.write_all(b"\n  ")?;
    }
    w.write_all(b"]")?;
    drop(order);

    if o.level >= 3 {
        let q = QueueDepth::new(m, s);
        let mut rng = Rng::new(o.seed, 3);
        w.write_all(b",\n  \"aicpu_scheduler_phases\": [\n")?;
        // One list per AICPU thread; the last (orchestrator) thread has no records.
        for t in 0..=s.sched_threads {
            if t < s.sched_threads {
                write_sched_thread(w, m, s, &q, t, &mut rng)?;
            } else {
                w.write_all(b"    []")?;
            }
            w.write_all(if t < s.sched_threads { b",\n" } else { b"\n" })?;
        }
        w.write_all(b"  ]")?;
    }
    if let (true, Some(h)) = (o.level >= 4, &host) {
        write_host_orchestrator(w, m, s, h)?;
    } else if o.level >= 4 {
        w.write_all(b",\n  \"aicpu_orchestrator_phases\": [\n    [")?;
        write_submits(w, m, s, ("start_cycles", "end_cycles"), |c| c)?;
        w.write_all(b"]\n  ]")?;
    }
    w.write_all(b"\n}\n")
}

/// Device cycles → host ns of a host-orchestrated capture (see the module doc).
struct HostMap {
    origin_ns: u64,
    /// The earliest device event (host time = the origin).
    c0: u64,
    /// The latest device event.
    c_last: u64,
    ns_per_cycle: u64,
}

/// Cycles between the clock anchors and the first / last device event.
const ANCHOR_MARGIN_CYCLES: u64 = 500;

impl HostMap {
    fn new(h: HostClock, s: &Sim, o: &GenOptions) -> Self {
        let (mut c0, mut c_last) = (u64::MAX, 0u64);
        for r in &s.rows {
            for c in [r.start_cycles.saturating_sub(r.receive_to_start_cycles), r.dispatch_cycles, r.start_cycles] {
                c0 = c0.min(c);
            }
            c_last = c_last.max(r.end_cycles).max(r.finish_cycles);
        }
        for &(_, start, end) in &s.orch {
            c0 = c0.min(start);
            c_last = c_last.max(end);
        }
        for &(_, at, _) in &s.dummies {
            c_last = c_last.max(at);
        }
        let c0 = if c0 == u64::MAX { BASE_CYCLES } else { c0 };
        Self { origin_ns: h.origin_ns, c0, c_last: c_last.max(c0), ns_per_cycle: 1_000_000_000 / o.clock_hz.max(1) }
    }

    fn ns(&self, c: u64) -> u64 {
        let v = i128::from(self.origin_ns) + (i128::from(c) - i128::from(self.c0)) * i128::from(self.ns_per_cycle);
        u64::try_from(v).unwrap_or(0)
    }
}

/// The host-mode metadata and clock anchors (after `core_types`, as the runtime writes them).
fn write_host_metadata(w: &mut dyn Write, h: &HostMap, s: &Sim, o: &GenOptions) -> io::Result<()> {
    let submits = if o.level >= 4 { s.orch.len() } else { 0 };
    write!(
        w,
        ",\n    \"orchestrator_source\": \"host\",\n    \"orchestrator_clock_domain\": \"host_monotonic_ns\",\n    \
         \"device_clock_domain\": \"device_syscnt_cycles\",\n    \"host_timestamp_resolution_ns\": 1,\n    \
         \"host_timestamp_quantization_ns\": 0,\n    \"host_orchestration_origin_ns\": {},\n    \
         \"timeline_relation\": \"host_orchestration_precedes_device\",\n    \
         \"host_capture\": {{\"status\": \"complete\", \"expected_records\": {submits}, \"recorded_records\": {submits}, \
         \"pool_records\": {submits}, \"dropped_records\": 0, \"error\": null}},\n    \
         \"clock_anchors\": {{\n      \"schema_version\": 1,\n      \"provider\": \"sim_syscnt\",\n      \
         \"device_timestamp_unit\": \"syscnt_cycles\",\n      \"raw_device_timestamp_unit\": \"syscnt_cycles\",\n      \
         \"samples_per_position\": 3,\n      \"samples\": [",
        h.origin_ns
    )?;
    let anchors =
        [("pre_host_orchestration", h.c0.saturating_sub(ANCHOR_MARGIN_CYCLES)), ("post_device_execution", h.c_last + ANCHOR_MARGIN_CYCLES)];
    let mut first = true;
    for (position, at) in anchors {
        // Sample 1 has the smallest round trip: it is the anchor, exactly on the mapping.
        for (idx, (rtt_ns, cycles)) in [(500u64, at.saturating_sub(3)), (64, at), (90, at + 3)].into_iter().enumerate() {
            let before = h.ns(cycles) - rtt_ns / 2;
            w.write_all(if first { b"\n        " } else { b",\n        " })?;
            first = false;
            write!(
                w,
                "{{\"position\": \"{position}\", \"sample_idx\": {idx}, \"host_before_ns\": {before}, \"raw_device_timestamp\": {cycles}, \
                 \"device_cycles\": {cycles}, \"host_after_ns\": {}, \"rtt_ns\": {rtt_ns}, \"uncertainty_ns\": {}, \"error\": null}}",
                before + rtt_ns,
                rtt_ns.div_ceil(2)
            )?;
        }
    }
    w.write_all(b"\n      ]\n    }")
}

/// The orchestrator's submits as host records (`host_orchestrator_phases`, host ns).
fn write_host_orchestrator(w: &mut dyn Write, m: &Model, s: &Sim, h: &HostMap) -> io::Result<()> {
    w.write_all(b",\n  \"host_orchestrator_phases\": [[")?;
    write_submits(w, m, s, ("start_host_ns", "end_host_ns"), |c| h.ns(c))?;
    w.write_all(b"]]")
}

/// The orchestrator's submit records (`submit_idx`, `task_id`, then start and end under `keys`,
/// device cycles through `time`), one per line, closed by a line break when there are any.
fn write_submits(w: &mut dyn Write, m: &Model, s: &Sim, keys: (&str, &str), time: impl Fn(u64) -> u64) -> io::Result<()> {
    let mut first = true;
    for (idx, &(node, start, end)) in s.orch.iter().enumerate() {
        w.write_all(if first { b"\n      {\"submit_idx\": " } else { b",\n      {\"submit_idx\": " })?;
        first = false;
        put_u64(w, idx as u64)?;
        w.write_all(b", \"task_id\": ")?;
        put_u64(w, m.node_id(node))?;
        write!(w, ", \"{}\": ", keys.0)?;
        put_u64(w, time(start))?;
        write!(w, ", \"{}\": ", keys.1)?;
        put_u64(w, time(end))?;
        w.write_all(b"}")?;
    }
    if !first {
        w.write_all(b"\n    ")?;
    }
    Ok(())
}

fn put_dims(w: &mut dyn Write, dims: &[u32]) -> io::Result<()> {
    w.write_all(b"[")?;
    for (k, d) in dims.iter().enumerate() {
        if k > 0 {
            w.write_all(b",")?;
        }
        put_u64(w, u64::from(*d))?;
    }
    w.write_all(b"]")
}

fn put_quoted_u64(w: &mut dyn Write, v: u64) -> io::Result<()> {
    w.write_all(b"\"")?;
    put_u64(w, v)?;
    w.write_all(b"\"")
}

/// Writes `deps.json` exactly as the `dep_gen` replay writer does; returns the tensor count.
#[allow(clippy::too_many_lines)] // one writer, in the runtime writer's order
fn write_deps(w: &mut dyn Write, m: &Model) -> io::Result<usize> {
    let mut tensor_order: Vec<u32> = Vec::new();
    let mut seen = vec![false; m.tensors.len()];
    w.write_all(b"{\"tasks\":[")?;
    for (i, t) in m.tasks.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        w.write_all(b"{\"task_id\":")?;
        put_quoted_u64(w, m.node_id(i as u32))?;
        w.write_all(b",\"scope\":\"auto\",\"early_dispatch\":")?;
        w.write_all(if t.early_dispatch { b"true" } else { b"false" })?;
        w.write_all(b",\"kernel_ids\":[")?;
        put_i64(w, i64::from(t.kernel_ids[0]))?;
        w.write_all(b",")?;
        put_i64(w, i64::from(t.kernel_ids[1]))?;
        w.write_all(b",")?;
        put_i64(w, i64::from(t.kernel_ids[2]))?;
        w.write_all(b"],\"block_num\":")?;
        put_u64(w, u64::from(t.block_num))?;
        w.write_all(b",\"args\":[")?;
        for (k, a) in m.task_args(i).iter().enumerate() {
            if k > 0 {
                w.write_all(b",")?;
            }
            w.write_all(b"{\"idx\":")?;
            put_u64(w, k as u64)?;
            w.write_all(match a.kind {
                ArgKind::Input => b",\"type\":\"INPUT\"",
                ArgKind::Output => b",\"type\":\"OUTPUT\"",
                ArgKind::Inout => b",\"type\":\"INOUT\"",
            })?;
            if a.tensor != NONE {
                let tensor = &m.tensors[a.tensor as usize];
                if !std::mem::replace(&mut seen[a.tensor as usize], true) {
                    tensor_order.push(a.tensor);
                }
                let (dims, strides) = SHAPES[a.shape as usize];
                w.write_all(b",\"tensor_id\":")?;
                put_quoted_u64(w, tensor.id())?;
                write!(w, ",\"dtype\":\"{}\",\"shape\":", tensor.dtype.name())?;
                put_dims(w, dims)?;
                w.write_all(b",\"start_offset\":")?;
                put_quoted_u64(w, u64::from(a.offset_elems))?;
                w.write_all(b",\"strides\":")?;
                put_dims(w, strides)?;
            }
            w.write_all(b"}")?;
        }
        w.write_all(b"]}")?;
    }
    w.write_all(b"],\"tensors\":[")?;
    for (k, &ti) in tensor_order.iter().enumerate() {
        if k > 0 {
            w.write_all(b",")?;
        }
        let t = &m.tensors[ti as usize];
        w.write_all(b"{\"tensor_id\":")?;
        put_quoted_u64(w, t.id())?;
        w.write_all(b",\"buffer_addr\":")?;
        put_quoted_u64(w, t.addr)?;
        write!(w, ",\"version\":0,\"dtype\":\"{}\",\"buffer_numel\":", t.dtype.name())?;
        put_quoted_u64(w, t.numel)?;
        w.write_all(b"}")?;
    }
    w.write_all(b"],\"edges\":[")?;
    let mut first = true;
    for i in 0..m.tasks.len() {
        let succ = m.node_id(i as u32);
        for e in m.task_edges(i) {
            if !first {
                w.write_all(b",")?;
            }
            first = false;
            w.write_all(b"{\"pred\":")?;
            put_quoted_u64(w, m.node_id(e.pred))?;
            w.write_all(b",\"succ\":")?;
            put_quoted_u64(w, succ)?;
            w.write_all(b",\"arg\":")?;
            put_i64(w, i64::from(e.arg))?;
            w.write_all(match e.source {
                Source::Explicit => b",\"source\":\"explicit\",\"flags\":[\"wait\",\"retain\"]" as &[u8],
                Source::Creator => b",\"source\":\"creator\",\"flags\":[\"wait\",\"retain\"]",
                Source::Tensormap => b",\"source\":\"tensormap\",\"flags\":[\"wait\"]",
            })?;
            if e.source == Source::Tensormap {
                w.write_all(if e.covered { b",\"overlap\":\"covered\"" as &[u8] } else { b",\"overlap\":\"other\"" })?;
            }
            if e.source != Source::Explicit {
                let t = &m.tensors[e.tensor as usize];
                let (dims, strides) = SHAPES[e.consumer_shape as usize];
                w.write_all(b",\"tensor_id\":")?;
                put_quoted_u64(w, t.id())?;
                write!(w, ",\"consumer_dtype\":\"{}\",\"consumer_shape\":", t.dtype.name())?;
                put_dims(w, dims)?;
                w.write_all(b",\"consumer_start_offset\":")?;
                put_quoted_u64(w, u64::from(e.consumer_offset_elems))?;
                w.write_all(b",\"consumer_strides\":")?;
                put_dims(w, strides)?;
            }
            if e.source == Source::Tensormap {
                let (dims, strides) = SHAPES[e.producer_shape as usize];
                w.write_all(b",\"producer_shape\":")?;
                put_dims(w, dims)?;
                w.write_all(b",\"producer_start_offset\":")?;
                put_quoted_u64(w, u64::from(e.producer_offset_elems))?;
                w.write_all(b",\"producer_strides\":")?;
                put_dims(w, strides)?;
            }
            w.write_all(b"}")?;
        }
    }
    w.write_all(b"]}\n")?;
    Ok(tensor_order.len())
}

/// Writes the `SceneTest` name map (Python `json.dump(indent=2)`, no trailing newline).
fn write_name_map(w: &mut dyn Write) -> io::Result<()> {
    w.write_all(b"{\n  \"level\": 2,\n  \"orchestrator_name\": null,\n  \"callable_id_to_name\": {")?;
    for (id, f) in FUNCS.iter().enumerate() {
        if id > 0 {
            w.write_all(b",")?;
        }
        write!(w, "\n    \"{id}\": \"{}\"", f.name)?;
    }
    w.write_all(b"\n  }\n}")
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::many_single_char_names)]
mod tests {
    use super::*;
    use pypto_analysis::tasks;
    use pypto_formats::records::SchedKind;
    use pypto_formats::{deps, name_map, records};
    use std::collections::{HashMap, HashSet};
    use std::path::PathBuf;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("pypto-gen-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn opts(level: u32) -> GenOptions {
        GenOptions {
            tasks: 200,
            level,
            seed: 7,
            spmd_fraction: 0.2,
            mix_fraction: 0.2,
            dummy: Some(10),
            alloc: Some(5),
            name_map: true,
            ..GenOptions::default()
        }
    }

    fn read(dir: &Path, name: &str) -> Vec<u8> {
        std::fs::read(dir.join(name)).unwrap()
    }

    #[test]
    #[allow(clippy::too_many_lines)]
    fn every_level_parses_back_consistent() {
        for level in 1..=4 {
            let dir = tmp(&format!("level{level}"));
            let o = opts(level);
            let s = generate(&dir, &o).unwrap();
            assert_eq!((s.tasks, s.dummy_tasks, s.alloc_tasks), (200, 10, 5));
            assert!(s.spmd_tasks > 10 && s.mix_tasks > 10, "{s:?}");
            let r = records::parse("r", &read(&dir, "chip_swimlane_records.json")).unwrap();
            let d = deps::parse("d", &read(&dir, "deps.json")).unwrap();
            let nm_name = format!("name_map_{}.json", case_name(&o));
            let nm = name_map::parse("n", &read(&dir, &nm_name)).unwrap();
            assert_eq!(nm.entries.len(), FUNCS.len());
            assert_eq!(r.level, level);
            assert_eq!(r.aicore.columns, 6);
            assert_eq!(r.metadata.num_cores, 72);
            assert_eq!(r.metadata.clock_freq_hz, 50_000_000);
            assert_eq!(r.aicore.len(), s.aicore_rows);
            assert_eq!(d.task_count(), 200);
            assert_eq!(d.edge_count(), s.edge_rows);
            assert_eq!(d.tensor_count(), s.tensors);
            assert!(d.warnings.is_empty(), "{:?}", d.warnings);

            let task_ids: HashSet<u64> = d.tasks.task_id.iter().copied().collect();
            let dummies: HashSet<u64> = (0..d.task_count()).filter(|&i| d.tasks.is_dummy(i)).map(|i| d.tasks.task_id[i]).collect();
            assert_eq!(dummies.len(), 10);
            let alloc_preds: HashSet<u64> = d.edges.pred.iter().copied().filter(|p| !task_ids.contains(p)).collect();
            assert_eq!(alloc_preds.len(), 5);
            assert!(alloc_preds.iter().all(|p| p >> 32 == ALLOC_RING));
            // Acyclic: every predecessor is an alloc or submitted earlier.
            for (&p, &q) in d.edges.pred.iter().zip(&d.edges.succ) {
                assert!(p >> 32 == ALLOC_RING || p < q, "{p} -> {q}");
            }

            // Rows: per-core order, ids, timing invariants.
            let a = &r.aicore;
            let mut last_core_end: HashMap<u32, (u64, u64)> = HashMap::new();
            let mut span: HashMap<u64, (u64, u64)> = HashMap::new();
            let mut rows_per_task: HashMap<u64, u32> = HashMap::new();
            for k in 0..a.len() {
                let (core, start, end, r2s) = (a.core_id[k], a.start_cycles[k], a.end_cycles[k], a.receive_to_start_cycles[k]);
                assert!(r2s < start && start < end);
                if let Some(&(prev_reg, prev_end)) = last_core_end.get(&core) {
                    assert_eq!(a.reg_task_id[k], prev_reg + 1, "reg ids per core");
                    assert!(start > prev_end, "core {core} overlaps");
                } else {
                    assert_eq!(a.reg_task_id[k], 1);
                }
                if k > 0 {
                    assert!(a.core_id[k - 1] <= core, "rows grouped by core");
                }
                last_core_end.insert(core, (a.reg_task_id[k], end));
                let e = span.entry(a.task_id[k]).or_insert((u64::MAX, 0));
                e.0 = e.0.min(start);
                e.1 = e.1.max(end);
                *rows_per_task.entry(a.task_id[k]).or_default() += 1;
            }
            for i in 0..d.task_count() {
                let id = d.tasks.task_id[i];
                let k = d.tasks.kernel_ids[i];
                let per_block = if k[0] >= 0 { 1 + u32::from(k[1] >= 0) + u32::from(k[2] >= 0) } else { 1 };
                let want = if d.tasks.is_dummy(i) { 0 } else { d.tasks.block_num[i] * per_block };
                assert_eq!(rows_per_task.get(&id).copied().unwrap_or(0), want, "rows of {id}");
            }
            for (&p, &q) in d.edges.pred.iter().zip(&d.edges.succ) {
                if let (Some(pe), Some(qs)) = (span.get(&p), span.get(&q)) {
                    assert!(pe.1 < qs.0, "{p} ends after {q} starts");
                }
            }

            let j = tasks::join(&r);
            assert_eq!(j.len(), a.len(), "every row joins");
            let fids = tasks::func_ids(&j, Some(&d));
            assert!(fids.iter().all(|&f| f >= 0), "every func id resolves");
            if level == 1 {
                assert!(r.aicpu.is_empty());
            } else {
                assert_eq!(r.aicpu.len(), a.len());
                for k in 0..r.aicpu.len() {
                    assert_eq!((r.aicpu.core_id[k], r.aicpu.reg_task_id[k]), (a.core_id[k], a.reg_task_id[k]));
                    let (disp, fin) = (r.aicpu.dispatch_cycles[k], r.aicpu.finish_cycles[k]);
                    let receive = a.start_cycles[k] - a.receive_to_start_cycles[k];
                    assert!(disp < receive && a.end_cycles[k] < fin);
                    if k > 0 && a.core_id[k - 1] == a.core_id[k] {
                        assert!(disp >= r.aicpu.finish_cycles[k - 1], "core busy dispatch..finish");
                    }
                }
            }
            if level >= 3 {
                assert_eq!(r.sched_threads.len(), 4);
                assert!(r.sched_threads[3].is_empty());
                assert_eq!(r.metadata.core_to_thread.len(), 72);
                let mut dummy_records = HashSet::new();
                for th in &r.sched_threads {
                    let mut prev_end = 0;
                    let mut last_complete = (0, 0);
                    for (k, kind) in th.kind.iter().enumerate() {
                        let (st, en) = (th.start_cycles.get(k).unwrap(), th.end_cycles.get(k).unwrap());
                        assert!(st <= en);
                        match kind {
                            SchedKind::DummyTask => {
                                assert_eq!(st, en);
                                dummy_records.insert(th.task_id.get(k).unwrap());
                            }
                            SchedKind::Resolve => {
                                assert!(last_complete.0 <= st && en <= last_complete.1, "resolve inside complete");
                            }
                            kind => {
                                assert!(st >= prev_end, "outer phases overlap");
                                prev_end = en;
                                if *kind == SchedKind::Complete {
                                    last_complete = (st, en);
                                }
                            }
                        }
                    }
                }
                assert_eq!(dummy_records, dummies);
            } else {
                assert!(r.sched_threads.is_empty() && r.metadata.core_to_thread.is_empty());
            }
            if level == 4 {
                assert_eq!(r.orch_threads.len(), 1);
                let o = &r.orch_threads[0];
                assert_eq!(o.task_id.len(), 205);
                assert!(o.submit_idx.iter().enumerate().all(|(k, &s)| s as usize == k));
            } else {
                assert!(r.orch_threads.is_empty());
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }

    #[test]
    fn seeded_and_deterministic() {
        let (a, b, c) = (tmp("det-a"), tmp("det-b"), tmp("det-c"));
        let o = opts(4);
        generate(&a, &o).unwrap();
        generate(&b, &o).unwrap();
        generate(&c, &GenOptions { seed: 8, ..o.clone() }).unwrap();
        let nm = format!("name_map_{}.json", case_name(&o));
        for f in ["chip_swimlane_records.json", "deps.json", nm.as_str()] {
            assert_eq!(read(&a, f), read(&b, f), "{f}");
        }
        assert_ne!(read(&a, "deps.json"), read(&c, "deps.json"));
        assert_ne!(read(&a, "chip_swimlane_records.json"), read(&c, "chip_swimlane_records.json"));
        for d in [a, b, c] {
            let _ = std::fs::remove_dir_all(d);
        }
    }

    #[test]
    fn writer_layout_matches_runtime() {
        let dir = tmp("layout");
        let o = GenOptions { tasks: 20, aic_cores: 1, aiv_cores: 2, level: 1, dummy: Some(0), alloc: Some(1), ..opts(1) };
        generate(&dir, &o).unwrap();
        let rec = String::from_utf8(read(&dir, "chip_swimlane_records.json")).unwrap();
        assert!(rec.starts_with(
            "{\n  \"chip_swimlane_level\": 1,\n  \"metadata\": {\n    \"clock_freq_hz\": 50000000,\n    \"num_cores\": 3,\n    \"core_types\": [\"aic\", \"aiv\", \"aiv\"]\n  },\n  \"aicore_tasks\": [\n    [0, 8589934"
        ), "{rec:.300}");
        assert!(rec.ends_with("]\n  ],\n  \"aicpu_tasks\": []\n}\n"));
        let deps_text = String::from_utf8(read(&dir, "deps.json")).unwrap();
        assert!(deps_text.starts_with("{\"tasks\":[{\"task_id\":\"8589934592\",\"scope\":\"auto\",\"early_dispatch\":"));
        assert!(deps_text.ends_with("]}\n") && !deps_text.contains(' '));
        // Tensor ids are FNV-1a of (addr, version) and every referenced id is in the table.
        let v: serde_json::Value = serde_json::from_str(&deps_text).unwrap();
        let mut table = HashSet::new();
        for t in v["tensors"].as_array().unwrap() {
            let addr: u64 = t["buffer_addr"].as_str().unwrap().parse().unwrap();
            let id = Tensor { addr, numel: 0, dtype: Dtype::Float32 }.id();
            assert_eq!(t["tensor_id"].as_str().unwrap(), id.to_string());
            table.insert(t["tensor_id"].as_str().unwrap().to_owned());
        }
        for e in v["edges"].as_array().unwrap() {
            if let Some(t) = e["tensor_id"].as_str() {
                assert!(table.contains(t));
            }
            let src = e["source"].as_str().unwrap();
            assert_eq!(e.get("producer_shape").is_some(), src == "tensormap");
            assert_eq!(e.get("consumer_shape").is_some(), src != "explicit");
        }
        let nm = String::from_utf8(read(&dir, &format!("name_map_{}.json", case_name(&o)))).unwrap();
        assert!(nm.starts_with("{\n  \"level\": 2,\n  \"orchestrator_name\": null,\n  \"callable_id_to_name\": {\n    \"0\": \"QK\","));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn clock_scales_durations() {
        let (a, b) = (tmp("clk-a"), tmp("clk-b"));
        let o = GenOptions { tasks: 50, level: 1, ..opts(1) };
        generate(&a, &o).unwrap();
        generate(&b, &GenOptions { clock_hz: 1_000_000_000, ..o.clone() }).unwrap();
        let dur = |dir: &Path| {
            let r = records::parse("r", &read(dir, "chip_swimlane_records.json")).unwrap();
            (0..r.aicore.len()).map(|k| r.aicore.end_cycles[k] - r.aicore.start_cycles[k]).sum::<u64>()
        };
        let ratio = dur(&b) as f64 / dur(&a) as f64;
        assert!((ratio - 20.0).abs() < 0.5, "{ratio}");
        for d in [a, b] {
            let _ = std::fs::remove_dir_all(d);
        }
    }

    /// Per resolved func id: (rows, Σ kernel cycles), and every row's start cycle.
    fn exec_by_func(dir: &Path, aic_cores: u32) -> (std::collections::BTreeMap<i32, (u64, u64)>, Vec<u64>) {
        let r = records::parse("r", &read(dir, "chip_swimlane_records.json")).unwrap();
        let d = deps::parse("d", &read(dir, "deps.json")).unwrap();
        let kernels: HashMap<u64, [i32; 3]> =
            (0..d.task_count()).map(|i| (d.tasks.task_id[i], d.tasks.kernel_ids[i].map(|k| k as i32))).collect();
        let a = &r.aicore;
        let mut out = std::collections::BTreeMap::new();
        for k in 0..a.len() {
            let ids = kernels[&a.task_id[k]];
            let f = if a.core_id[k] < aic_cores {
                ids[0]
            } else if ids[1] >= 0 {
                ids[1]
            } else {
                ids[2]
            };
            let e: &mut (u64, u64) = out.entry(f).or_default();
            e.0 += 1;
            e.1 += a.end_cycles[k] - a.start_cycles[k];
        }
        let mut starts = a.start_cycles.clone();
        starts.sort_unstable();
        (out, starts)
    }

    #[test]
    fn slow_function_adds_exactly_the_extra_to_its_rows_only() {
        // Func 7 (FusedAttn_aiv) runs on the AIV rows of MIX tasks: the AIC rows of the same
        // tasks (func 6) must not change.
        let (a, b) = (tmp("slow-a"), tmp("slow-b"));
        let o = GenOptions { tasks: 400, seed: 11, mix_fraction: 0.3, ..opts(4) };
        generate(&a, &o).unwrap();
        generate(&b, &GenOptions { slow_function: Some((7, 3.0)), ..o.clone() }).unwrap();
        let ((base, base_starts), (slow, slow_starts)) = (exec_by_func(&a, o.aic_cores), exec_by_func(&b, o.aic_cores));
        assert_eq!(base.keys().collect::<Vec<_>>(), slow.keys().collect::<Vec<_>>());
        for (f, &(rows, cycles)) in &base {
            let (slow_rows, slow_cycles) = slow[f];
            assert_eq!(slow_rows, rows, "func {f}");
            let extra = if *f == 7 { rows * 150 } else { 0 }; // 3 µs at 50 MHz
            assert_eq!(slow_cycles - cycles, extra, "func {f}");
        }
        assert!(base[&7].0 > 20, "{base:?}");
        assert_ne!(base_starts, slow_starts, "the slowdown moves the schedule");
        assert_eq!(read(&a, "deps.json"), read(&b, "deps.json"), "same DAG");
        for d in [a, b] {
            let _ = std::fs::remove_dir_all(d);
        }
    }

    #[test]
    fn parses_arguments() {
        let (dir, o) = parse_args(&[
            "out",
            "--tasks",
            "300",
            "--cores",
            "8:16",
            "--level",
            "3",
            "--seed",
            "9",
            "--spmd-fraction",
            "0.5",
            "--mix-fraction",
            "0",
            "--dummy",
            "3",
            "--alloc",
            "2",
            "--clock-hz",
            "1000000000",
            "--name-map",
        ])
        .unwrap();
        assert_eq!(dir, "out");
        assert_eq!(
            o,
            GenOptions {
                tasks: 300,
                aic_cores: 8,
                aiv_cores: 16,
                level: 3,
                seed: 9,
                spmd_fraction: 0.5,
                mix_fraction: 0.0,
                dummy: Some(3),
                alloc: Some(2),
                clock_hz: 1_000_000_000,
                name_map: true,
                slow_function: None,
                host_clock: None,
            }
        );
        let (_, slow) = parse_args(&["out", "--slow-function", "3:12.5"]).unwrap();
        assert_eq!(slow.slow_function, Some((3, 12.5)));
        assert!(parse_args(&["out", "--slow-function", "9:1"]).is_err(), "no func id 9");
        assert!(parse_args(&["out", "--slow-function", "3"]).is_err());
        assert!(parse_args(&["out", "--slow-function", "3:-1"]).is_err());
        assert!(parse_args(&["out", "--level", "5"]).is_err());
        assert!(parse_args(&["out", "--cores", "24"]).is_err());
        assert!(parse_args(&["--tasks", "5"]).is_err());
        assert!(parse_args(&["out", "--bogus"]).is_err());
    }
}
