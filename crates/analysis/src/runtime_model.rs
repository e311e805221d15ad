//! The resident model of one runtime dataset, for the chip swimlane timeline
//! ([`crate::timeline`]) and its queries ([`crate::timeline_query`]): the joined tasks,
//! resolved func ids, task kinds, scheduler phases and orchestrator submits in µs, host
//! uploads, deps.json (kept for fan-in/fan-out and tensor arguments) with a CSR adjacency over
//! the task kinds' ids, the name map, and the critical-path task sets (from `CPM_*.json`
//! when given, else computed). Built once per dataset by the worker; the raw records are
//! not kept.

use crate::critical_path;
use crate::host_phases::{self, HostPhasesUs};
use crate::summary::{self, RecordsFacts};
use crate::task_kinds::{self, OrchSubmitsUs, SchedPhasesUs, TaskKinds};
use crate::tasks::{self, JoinedTasks};
use crate::timebase::Timebase;
use pypto_formats::cpm::CpmPath;
use pypto_formats::deps::{Deps, DepsArgs, DimRange};
use pypto_formats::host_phase_records::HostPhaseRecords;
use pypto_formats::name_map::NameMap;
use pypto_formats::packed::{PackedI64, PackedU32, PackedU64};
use pypto_formats::records::ChipRecords;
use pypto_formats::{Warning, WarningKind};

/// Host → device uploads in µs (`H2D` lane).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct UploadsUs {
    /// Upload phase name per record.
    pub name: Vec<String>,
    pub start_us: Vec<f64>,
    pub end_us: Vec<f64>,
    pub bytes: Vec<u64>,
}

/// What the timeline details need of deps.json, kept after the build (per deps.json task,
/// index with [`RuntimeModel::deps_index`]); edges live only in the CSR adjacency, tensors
/// and the other task columns are dropped.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DepsDetails {
    /// First active kernel slot (-1 if none or `kernel_ids` missing): the func id of a
    /// row-less task.
    pub first_kernel: PackedI64,
    pub block_num: PackedU32,
    /// Args of task `i` are `arg_offsets[i]..arg_offsets[i + 1]` in `args`.
    pub arg_offsets: Vec<u32>,
    pub args: DepsArgs,
    pub dims: Vec<u32>,
    pub dtype_names: Vec<String>,
    /// From a lean read ([`pypto_formats::deps::DepsStream::lean`]): the byte offset in
    /// deps.json of tasks 0, [`DEPS_TASK_STRIDE`], 2 · that, …, and just past the last task.
    /// Then `args` is empty and the details re-read one task's arguments from the file on
    /// demand ([`DepsDetails::task_span`], [`pypto_formats::deps::parse_task_at`]).
    pub task_offsets: PackedU64,
    pub tasks_end: u64,
}

/// deps.json tasks per entry of [`DepsDetails::task_offsets`].
pub const DEPS_TASK_STRIDE: usize = 16;

impl DepsDetails {
    /// Keeps the detail columns of `d` (capacities trimmed).
    pub fn from_deps(d: Deps) -> Self {
        let t = d.tasks;
        let first_kernel = t
            .kernel_ids
            .iter()
            .zip(&t.has_kernel_ids)
            .map(|(k, &has)| if has { k.iter().copied().find(|&x| x >= 0).unwrap_or(-1) } else { -1 })
            .collect();
        let mut args = d.args;
        args.idx.shrink_to_fit();
        args.arg_type.shrink_to_fit();
        args.tensor_id.shrink_to_fit();
        args.dtype.shrink_to_fit();
        args.shape.shrink_to_fit();
        args.strides.shrink_to_fit();
        args.start_offset.shrink_to_fit();
        let block_num = PackedU32::from(t.block_num.as_slice());
        let mut arg_offsets = t.arg_offsets;
        arg_offsets.shrink_to_fit();
        let mut dims = d.dims;
        dims.shrink_to_fit();
        let task_offsets: PackedU64 = d.task_offsets.iter().step_by(DEPS_TASK_STRIDE).copied().collect();
        let tasks_end = d.task_offsets.last().zip(d.task_lens.last()).map_or(0, |(&o, &l)| o + u64::from(l));
        if !task_offsets.is_empty() {
            arg_offsets = Vec::new();
        }
        Self { first_kernel, block_num, arg_offsets, args, dims, dtype_names: d.dtype_names, task_offsets, tasks_end }
    }

    /// Where deps.json task `i` is, in a lean read: `(offset, len, position)` of the piece of
    /// the file holding it and the tasks after it in its group, and its position there (read
    /// it with [`pypto_formats::deps::parse_task_at`]).
    pub fn task_span(&self, i: usize) -> Option<(u64, u32, usize)> {
        pypto_formats::packed::strided_piece(|g| self.task_offsets.get(g), self.tasks_end, DEPS_TASK_STRIDE, i)
    }

    /// The dims of a range (empty if out of bounds).
    pub fn dims_of(&self, r: DimRange) -> &[u32] {
        self.dims.get(r.offset as usize..(r.offset as usize).saturating_add(r.len as usize)).unwrap_or(&[])
    }

    /// Resident bytes (capacities).
    pub fn resident_bytes(&self) -> usize {
        use std::mem::size_of;
        let a = &self.args;
        self.first_kernel.resident_bytes()
            + self.block_num.resident_bytes()
            + (self.arg_offsets.capacity() + self.dims.capacity()) * 4
            + a.idx.capacity() * 4
            + a.arg_type.capacity() * size_of::<pypto_formats::deps::ArgType>()
            + a.tensor_id.capacity() * size_of::<Option<u64>>()
            + a.dtype.capacity() * 4
            + (a.shape.capacity() + a.strides.capacity()) * size_of::<DimRange>()
            + a.start_offset.capacity() * 8
            + self.task_offsets.resident_bytes()
    }

    /// Whether the arguments are re-read from the file on demand (lean read).
    pub fn args_on_demand(&self) -> bool {
        !self.task_offsets.is_empty()
    }
}

/// One runtime dataset, analysed (see the module doc).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct RuntimeModel {
    pub level: u32,
    pub host_mode: bool,
    pub tasks: JoinedTasks,
    /// Resolved func id per joined row ([`tasks::func_ids`]), bit-packed (read it through
    /// [`tasks::FuncIdOf`]).
    pub func_ids: PackedI64,
    pub kinds: TaskKinds,
    /// Scheduler phase lists (empty capacity slots included), µs.
    pub phases: Vec<SchedPhasesUs>,
    /// Orchestrator lanes (host threads in host mode), µs.
    pub orch: Vec<OrchSubmitsUs>,
    pub uploads: UploadsUs,
    /// Host prepare phases from `host_phase_records.jsonl` ([`RuntimeModel::attach_host_phases`];
    /// empty without the file).
    pub host_phases: HostPhasesUs,
    /// deps.json's detail columns (the rest is dropped once the model is built).
    pub deps: Option<DepsDetails>,
    pub names: Option<NameMap>,
    /// deps.json task index per [`TaskKinds::task_id`] (`u32::MAX` = not in deps.json).
    pub deps_index: PackedU32,
    /// Successors of kinds task `k`: `succ[succ_offsets[k]..succ_offsets[k+1]]` (kinds indices;
    /// read them with [`RuntimeModel::neighbours`]). Bit-packed: offsets rise steadily and
    /// neighbours are mostly near their task.
    pub succ_offsets: PackedU32,
    pub succ: PackedU32,
    pub pred_offsets: PackedU32,
    pub pred: PackedU32,
    /// Sorted task ids on the static / observed critical path (empty = unknown).
    pub static_path: Vec<u64>,
    pub observed_path: Vec<u64>,
    /// `"CPM_static.json"`-style file names, `"computed"`, or `""` when no path is known.
    pub path_source: String,
    pub warnings: Vec<Warning>,
}

/// Optional critical paths read from `CPM_*.json` (file name, parsed path).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct CpmInputs {
    pub static_path: Option<(String, CpmPath)>,
    pub observed_path: Option<(String, CpmPath)>,
}

/// Distinct `(a, b)` pairs as CSR lists by `a`, each list ascending.
fn csr(n: usize, mut pairs: Vec<(u32, u32)>) -> (PackedU32, PackedU32) {
    pairs.sort_unstable();
    pairs.dedup();
    let (offsets, list) = task_kinds::csr_by_id(n, &pairs);
    (PackedU32::from(offsets.as_slice()), PackedU32::from(list.as_slice()))
}

/// The critical paths of a capture: from its `CPM_*.json` files, else computed from the
/// records (and deps.json).
struct Paths {
    static_path: Vec<u64>,
    observed_path: Vec<u64>,
    /// File names and/or `"computed"`, joined by `" + "`.
    source: String,
    /// The computation's warnings, or why the paths could not be computed.
    warnings: Vec<Warning>,
}

impl Paths {
    fn of(records: &ChipRecords, deps: Option<&Deps>, names: Option<&NameMap>, cpm: CpmInputs) -> Self {
        let mut p = Self { static_path: Vec::new(), observed_path: Vec::new(), source: String::new(), warnings: Vec::new() };
        let mut sources: Vec<String> = Vec::new();
        if let Some((name, cpm_path)) = cpm.static_path {
            p.static_path = cpm_path.task_ids;
            sources.push(name);
        }
        if let Some((name, cpm_path)) = cpm.observed_path {
            p.observed_path = cpm_path.task_ids;
            sources.push(name);
        }
        let need_static = sources.is_empty() || p.static_path.is_empty();
        let need_observed = p.observed_path.is_empty();
        if need_static || need_observed {
            match critical_path::compute_paths(records, deps, names) {
                Ok(cp) => {
                    p.warnings = cp.warnings;
                    let mut used = false;
                    if need_static && !cp.static_path.is_empty() {
                        p.static_path = cp.static_path;
                        used = true;
                    }
                    if need_observed && !cp.observed.task_id.is_empty() {
                        p.observed_path = cp.observed.task_id;
                        used = true;
                    }
                    if used {
                        sources.push("computed".to_owned());
                    }
                }
                Err(e) => p
                    .warnings
                    .push(Warning::analysis(WarningKind::CriticalPathFailed, format!("critical path not computed: {e}")).text("error", e)),
            }
        }
        p.static_path.sort_unstable();
        p.static_path.dedup();
        p.observed_path.sort_unstable();
        p.observed_path.dedup();
        p.source = sources.join(" + ");
        p
    }
}

impl RuntimeModel {
    /// Analyses one dataset (a copy of `records`; see [`RuntimeModel::build_owned`]).
    pub fn build(records: &ChipRecords, deps: Option<Deps>, names: Option<NameMap>, cpm: CpmInputs) -> Self {
        Self::build_owned(records.clone(), deps, names, cpm).0
    }

    /// Analyses one dataset from records the caller no longer needs, and summarises them.
    /// Ordered for the worker's peak memory on a big capture: the raw scheduler and
    /// orchestrator records converted first (freed thread by thread), then the critical paths
    /// (a transient task graph), then the join, which takes the AICore and AICPU rows and frees
    /// each raw column as its joined column is built; the rest of the raw records dropped once
    /// the tasks are classified, before the adjacency and the deps.json details are built.
    pub fn build_owned(records: ChipRecords, deps: Option<Deps>, names: Option<NameMap>, cpm: CpmInputs) -> (Self, RecordsFacts) {
        Self::build_owned_with(records, deps, names, cpm, &mut |_| {})
    }

    /// [`RuntimeModel::build_owned`], calling `step(name)` after each step (the worker logs
    /// its memory there, for the bench).
    pub fn build_owned_with(
        mut records: ChipRecords,
        deps: Option<Deps>,
        names: Option<NameMap>,
        cpm: CpmInputs,
        step: &mut dyn FnMut(&str),
    ) -> (Self, RecordsFacts) {
        // The scheduler and orchestrator records first: converted, they take half the memory
        // (4-byte cycle offsets for 16 bytes of cycles), before the critical path and the
        // join build beside them. Neither reads those records; the join takes the file's time
        // base from before (its base is the smallest timestamp of every record).
        let tb = Timebase::from_records(&records);
        let counts = summary::record_counts(&records);
        let phases = task_kinds::take_sched_phases_us(&mut records, &tb);
        step("scheduler phases");
        let orch = task_kinds::orch_submits_us(&records, &tb);
        records.orch_threads = Vec::new();
        records.host_orch_threads = Vec::new();
        step("orchestrator");
        let paths = Paths::of(&records, deps.as_ref(), names.as_ref(), cpm);
        step("critical paths");
        let mut tasks = tasks::join_taking(&mut records, tb.clone());
        step("join");
        let facts = summary::records_summary_with(&records, &tasks, counts);
        let func_ids: PackedI64 = tasks::func_ids(&tasks, deps.as_ref()).into_iter().collect();
        step("func ids");
        let kinds = task_kinds::classify_with(&records, &tasks, deps.as_ref(), &phases, &orch);
        step("task kinds");
        tasks.drop_join_columns();
        let up = &records.host_uploads;
        let uploads = UploadsUs {
            name: up.phase.iter().map(|&p| up.phase_names.get(p as usize).cloned().unwrap_or_default()).collect(),
            start_us: up.start_host_ns.iter().map(|&n| tb.host_us(n)).collect(),
            end_us: up.end_host_ns.iter().map(|&n| tb.host_us(n)).collect(),
            bytes: up.detail_bytes.clone(),
        };
        let (level, host_mode) = (records.level, records.is_host_mode());
        drop(records);
        let n = kinds.task_id.len();
        let mut deps_index = vec![u32::MAX; n];
        let mut succ_pairs: Vec<(u32, u32)> = Vec::new();
        if let Some(d) = &deps {
            // The kinds' ids decoded once for these lookups (a search of the packed column per
            // task and edge end was most of this step).
            let ids = kinds.task_id.to_vec();
            let index_of = |id: u64| ids.binary_search(&id).ok();
            for (i, &id) in d.tasks.task_id.iter().enumerate() {
                if let Some(slot) = index_of(id).and_then(|k| deps_index.get_mut(k)) {
                    *slot = i as u32;
                }
            }
            succ_pairs.reserve(d.edges.pred.len());
            for (&p, &s) in d.edges.pred.iter().zip(&d.edges.succ) {
                if let (Some(a), Some(b)) = (index_of(p), index_of(s)) {
                    if a != b {
                        succ_pairs.push((a as u32, b as u32));
                    }
                }
            }
        }
        let pred_pairs: Vec<(u32, u32)> = succ_pairs.iter().map(|&(a, b)| (b, a)).collect();
        let (succ_offsets, succ) = csr(n, succ_pairs);
        let (pred_offsets, pred) = csr(n, pred_pairs);
        step("records dropped, adjacency");

        let mut warnings = tasks.warnings.clone();
        warnings.extend(kinds.warnings.iter().cloned());
        // As before the paths moved first: no tasks, no paths (nor a warning about them).
        // No tasks, no paths; why not is said (as `report` says it).
        warnings.extend(paths.warnings);
        let (static_path, observed_path, path_source) =
            if tasks.is_empty() { (Vec::new(), Vec::new(), String::new()) } else { (paths.static_path, paths.observed_path, paths.source) };
        let mut model = Self {
            level,
            host_mode,
            tasks,
            func_ids,
            kinds,
            phases,
            orch,
            uploads,
            host_phases: HostPhasesUs::default(),
            deps: deps.map(DepsDetails::from_deps),
            names,
            deps_index: PackedU32::from(deps_index.as_slice()),
            succ_offsets,
            succ,
            pred_offsets,
            pred,
            static_path,
            observed_path,
            path_source,
            warnings,
        };
        model.shrink();
        (model, facts)
    }

    /// Trims every column's capacity to its length (also after decoding a model: serde's
    /// vectors grow by doubling).
    pub fn shrink(&mut self) {
        self.tasks.shrink_to_fit();
        self.func_ids.shrink_to_fit();
        let k = &mut self.kinds;
        k.task_id.shrink_to_fit();
        k.kind.shrink_to_fit();
        k.spmd.shrink_to_fit();
        k.mix.shrink_to_fit();
        k.row_offsets.shrink_to_fit();
        k.row_index.shrink_to_fit();
        k.marker_offsets.shrink_to_fit();
        k.marker_index.shrink_to_fit();
        for p in &mut self.phases {
            p.kind.shrink_to_fit();
            p.start_us.shrink_to_fit();
            p.end_us.shrink_to_fit();
            p.task_id.shrink_to_fit();
        }
        for o in &mut self.orch {
            o.task_id.shrink_to_fit();
            o.submit_idx.shrink_to_fit();
            o.start_us.shrink_to_fit();
            o.end_us.shrink_to_fit();
        }
        self.deps_index.shrink_to_fit();
        self.succ.shrink_to_fit();
        self.pred.shrink_to_fit();
        self.static_path.shrink_to_fit();
        self.observed_path.shrink_to_fit();
    }

    /// Drops the scheduler phases' columns where their records' places in the file are known
    /// ([`SchedPhasesUs::detach`]): the analysis worker's resident copy reads a phase record
    /// back for its details; the timeline and the analyses that walk phases run in a job on a
    /// model built from the file.
    pub fn detach_phases(&mut self) {
        let Some(tb) = self.tasks.timebase.clone() else { return };
        for p in &mut self.phases {
            p.detach(&tb);
        }
    }

    /// The scheduler phases as [`RuntimeModel::detach_phases`] leaves them, the model untouched
    /// (a thread that cannot be detached is copied whole).
    pub fn detached_phases(&self) -> Vec<SchedPhasesUs> {
        let tb = self.tasks.timebase.clone();
        self.phases.iter().map(|p| tb.as_ref().and_then(|tb| p.detached_copy(tb)).unwrap_or_else(|| p.clone())).collect()
    }

    /// Whether some scheduler phases are detached (their columns dropped).
    pub fn phases_detached(&self) -> bool {
        self.phases.iter().any(SchedPhasesUs::is_detached)
    }

    /// Places the host prepare phases of `records` (read from `path`, the dataset's
    /// `host_phase_records.jsonl`) on this model's axis ([`host_phases::place`]); returns the
    /// warnings about what could not be placed.
    pub fn attach_host_phases(&mut self, path: &str, records: &HostPhaseRecords) -> Vec<Warning> {
        let tb = self.tasks.timebase.clone().unwrap_or_else(|| Timebase::device(0, 0));
        let (placed, warnings) = host_phases::place(path, records, &tb);
        self.host_phases = placed;
        warnings
    }

    /// Whether `task_id` is on the static / observed path.
    pub fn on_paths(&self, task_id: u64) -> (bool, bool) {
        (self.static_path.binary_search(&task_id).is_ok(), self.observed_path.binary_search(&task_id).is_ok())
    }

    /// Display name of a function: name map, else `func_<id>_<letters>`, else `task`.
    pub fn function_name(&self, func_id: i64) -> String {
        if func_id < 0 {
            return "task".to_owned();
        }
        self.names.as_ref().and_then(|n| n.name(func_id)).map_or_else(|| tasks::default_func_name(func_id), str::to_owned)
    }

    /// Kinds indices of the successors (or predecessors) of kinds task `k`.
    /// Whether deps.json's edges (between distinct tasks) form a cycle (Kahn's order does not
    /// reach every task): the graph's reduction modes then fall back to the full graph.
    pub fn has_dependency_cycle(&self) -> bool {
        // Decoded once: every edge is visited twice below.
        let offsets: Vec<u32> = self.succ_offsets.to_vec();
        let succ: Vec<u32> = self.succ.to_vec();
        let n = offsets.len().saturating_sub(1);
        let successors = |k: usize| -> &[u32] {
            let (a, b) = (offsets.get(k).copied().unwrap_or(0), offsets.get(k + 1).copied().unwrap_or(0));
            succ.get(a as usize..b as usize).unwrap_or(&[])
        };
        let mut indegree = vec![0u32; n];
        for &s in &succ {
            if let Some(d) = indegree.get_mut(s as usize) {
                *d += 1;
            }
        }
        let mut ready: Vec<usize> = (0..n).filter(|&k| indegree.get(k) == Some(&0)).collect();
        let mut ordered = 0usize;
        while let Some(k) = ready.pop() {
            ordered += 1;
            for &s in successors(k) {
                if let Some(d) = indegree.get_mut(s as usize) {
                    *d -= 1;
                    if *d == 0 {
                        ready.push(s as usize);
                    }
                }
            }
        }
        ordered < n
    }

    pub fn neighbours(&self, k: usize, successors: bool) -> impl Iterator<Item = u32> + '_ {
        let (off, list) = if successors { (&self.succ_offsets, &self.succ) } else { (&self.pred_offsets, &self.pred) };
        let range = match (off.get(k), off.get(k + 1)) {
            (Some(a), Some(b)) => a as usize..b as usize,
            _ => 0..0,
        };
        range.filter_map(move |j| list.get(j))
    }

    /// The deps.json task index of kinds task `k` (`None`: not in deps.json).
    pub fn deps_task(&self, k: usize) -> Option<usize> {
        self.deps_index.get(k).filter(|&i| i != u32::MAX).map(|i| i as usize)
    }

    /// Resident bytes of the model's columns (capacity, not counting small headers).
    pub fn resident_bytes(&self) -> usize {
        self.resident_bytes_by_component().iter().map(|c| c.1).sum()
    }

    /// Resident bytes per component (capacities, not counting small headers), for `bench`.
    pub fn resident_bytes_by_component(&self) -> Vec<(&'static str, usize)> {
        use std::mem::size_of;
        let tasks = self.tasks.resident_bytes();
        let k = &self.kinds;
        let mk = &k.markers;
        let kinds = k.task_id.resident_bytes()
            + k.kind.resident_bytes()
            + k.spmd.resident_bytes()
            + k.mix.resident_bytes()
            + k.row_offsets.resident_bytes()
            + k.row_index.resident_bytes()
            + k.marker_offsets.resident_bytes()
            + k.marker_index.resident_bytes()
            + mk.task_id.capacity() * 8
            + mk.kind.capacity() * size_of::<task_kinds::TaskKind>()
            + mk.lane.capacity() * 4
            + (mk.start_us.capacity() + mk.end_us.capacity() + mk.record_end_us.capacity()) * 8
            + k.graphs.capacity() * size_of::<task_kinds::GraphExecution>();
        let phases: usize = self
            .phases
            .iter()
            .map(|p| {
                p.kind.resident_bytes()
                    + p.start_us.resident_bytes()
                    + p.end_us.resident_bytes()
                    + p.loop_iter.resident_bytes()
                    + p.tasks_processed.resident_bytes()
                    + p.pop_hit.resident_bytes()
                    + p.pop_miss.resident_bytes()
                    + p.task_id.resident_bytes()
            })
            .sum();
        let orch: usize = self
            .orch
            .iter()
            .map(|o| o.task_id.resident_bytes() + o.submit_idx.resident_bytes() + o.start_us.resident_bytes() + o.end_us.resident_bytes())
            .sum();
        let adjacency = self.deps_index.resident_bytes()
            + self.succ_offsets.resident_bytes()
            + self.succ.resident_bytes()
            + self.pred_offsets.resident_bytes()
            + self.pred.resident_bytes();
        vec![
            ("joined tasks", tasks),
            ("func_ids", self.func_ids.resident_bytes()),
            ("task kinds + markers", kinds),
            ("scheduler phases", phases),
            ("orchestrator submits", orch),
            ("deps index + pred/succ CSR", adjacency),
            ("deps details", self.deps.as_ref().map_or(0, DepsDetails::resident_bytes)),
            ("critical paths", (self.static_path.capacity() + self.observed_path.capacity()) * 8),
            ("uploads", self.uploads.start_us.capacity() * 24 + self.uploads.name.iter().map(|n| n.capacity() + 24).sum::<usize>()),
        ]
    }
}
