//! `pypto-viewer bench <dir> [--iterations N] [--json]`: times each reader and each
//! analysis that the first runtime dataset under `<dir>` allows, for the performance notes
//! (issue 3 item 15) — min and median wall time per stage, input bytes and MB/s for the
//! stages that consume a file, and resident memory read from `/proc/self/status`
//! (`VmRSS` before/after each stage, `VmHWM` reset per stage through
//! `/proc/self/clear_refs` where the kernel allows it), plus the model's resident bytes per
//! task once the input buffers are dropped.
//!
//! Stages are rows of [`STAGES`]: a name and a `fn(&mut Ctx) -> StageResult`. A stage reads
//! what earlier stages left in [`Ctx`] and stores its own output there (so later stages can
//! use it); it returns `Ok(None)` when its inputs are absent (reported as skipped). To add
//! an analysis: add a field to [`Ctx`] if a later stage needs its output, write a small fn,
//! add one line to [`STAGES`].

use pypto_analysis::deps_graph::DepsGraph;
use pypto_analysis::edge_modes::{self, EdgeMode};
use pypto_analysis::tasks::{self, JoinedTasks};
use pypto_analysis::{critical_path, dataflow_regions, function_stats, summary, worker_view};
use pypto_formats::chrome_trace;
use pypto_formats::deps::{self, Deps};
use pypto_formats::discovery::{self, DatasetKind};
use pypto_formats::name_map::{self, NameMap};
use pypto_formats::records::{self, ChipRecords};
use pypto_vocab::TaskId;
use serde::Serialize;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// Usage line for the `bench` subcommand.
pub const USAGE: &str = "  pypto-viewer bench <dir> [--iterations N] [--json]";

/// A file of the dataset, read into memory by the `read files` stage.
#[derive(Default)]
pub struct InputFile {
    /// Path relative to the bench root.
    pub rel: String,
    pub bytes: Vec<u8>,
}

/// What the stages share: the dataset's files, then each reader's and analysis' output.
#[derive(Default)]
pub struct Ctx {
    pub root: std::path::PathBuf,
    /// Paths (relative to `root`) chosen by discovery.
    pub records_path: Option<String>,
    pub deps_path: Option<String>,
    pub name_map_path: Option<String>,
    /// Newest `merged_swimlane*.json` of the dataset, streamed by `chrome trace stream`.
    pub merged_path: Option<String>,
    pub records_file: Option<InputFile>,
    pub deps_file: Option<InputFile>,
    pub name_map_file: Option<InputFile>,
    pub records: Option<ChipRecords>,
    pub deps: Option<Deps>,
    /// deps.json read lean as the worker reads a large `File` (the model is built from it).
    pub deps_lean: Option<Deps>,
    pub names: Option<NameMap>,
    pub joined: Option<JoinedTasks>,
    pub func_ids: Option<Vec<i64>>,
    pub deps_graph: Option<DepsGraph>,
    pub model: Option<pypto_analysis::runtime_model::RuntimeModel>,
    pub timeline: Option<pypto_analysis::timeline::Timeline>,
    /// The steps of the last `runtime model` run (the worker's `model step …` lines), ms.
    pub model_steps: Vec<(String, f64)>,
}

/// What one run of a stage did: items produced and bytes of input consumed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Done {
    pub items: usize,
    pub input_bytes: u64,
}

/// `Ok(None)`: inputs absent, stage skipped.
pub type StageResult = Result<Option<Done>, String>;
/// A stage body.
pub type StageFn = fn(&mut Ctx) -> StageResult;

/// The stages, in order. One line per reader or analysis.
pub const STAGES: &[(&str, StageFn)] = &[
    ("read files", read_files),
    ("records parse", records_parse),
    ("deps parse", deps_parse),
    ("records stream parse", records_stream_parse),
    ("deps stream parse", deps_stream_parse),
    ("deps lean stream parse", deps_lean_stream_parse),
    ("name_map parse", name_map_parse),
    ("join", join),
    ("func_ids", func_ids),
    ("worker_view", worker_view_build),
    ("records summary", records_summary),
    ("function_stats", function_stats_stage),
    ("deps graph", deps_graph_stage),
    ("edges reduced", |c| edge_mode_stage(c, EdgeMode::Reduced)),
    ("edges reduced_dataflow", |c| edge_mode_stage(c, EdgeMode::ReducedDataflow)),
    ("critical_path", critical_path_stage),
    ("chrome trace stream", chrome_trace_stage),
    ("runtime model", runtime_model_stage),
    ("timeline", timeline_stage),
    ("timeline search", timeline_search_stage),
    ("timeline details", timeline_details_stage),
];

/// The worker's resident model (critical paths computed when no CPM file is read here).
#[allow(clippy::unnecessary_wraps, clippy::many_single_char_names)] // the StageFn signature
fn runtime_model_stage(c: &mut Ctx) -> StageResult {
    let Some(r) = &c.records else { return Ok(None) };
    c.model = None;
    c.timeline = None;
    let deps = c.deps_lean.clone().or_else(|| c.deps.clone());
    let mut steps = Vec::new();
    let mut last = Instant::now();
    let mut step = |name: &str| {
        steps.push((name.to_owned(), last.elapsed().as_secs_f64() * 1e3));
        last = Instant::now();
    };
    let (m, _) = pypto_analysis::runtime_model::RuntimeModel::build_owned_with(
        r.clone(),
        deps,
        c.names.clone(),
        pypto_analysis::runtime_model::CpmInputs::default(),
        &mut step,
    );
    let items = m.tasks.len();
    c.model = Some(m);
    c.model_steps = steps;
    Ok(Some(Done { items, input_bytes: 0 }))
}

/// Every track of every view (render columns included).
#[allow(clippy::unnecessary_wraps, clippy::many_single_char_names)] // the StageFn signature
fn timeline_stage(c: &mut Ctx) -> StageResult {
    let Some(m) = &c.model else { return Ok(None) };
    let t = pypto_analysis::timeline::build(&[("", m)]);
    let items = t.bar_count();
    c.timeline = Some(t);
    Ok(Some(Done { items, input_bytes: 0 }))
}

/// Fuzzy search by the first function name's first letters and by the whole name, then exact
/// search by `tY`, 500 hits each, on the index the analysis worker keeps (compacted here, in
/// the stage's time).
#[allow(clippy::unnecessary_wraps, clippy::many_single_char_names)] // the StageFn signature
fn timeline_search_stage(c: &mut Ctx) -> StageResult {
    let (Some(m), Some(t)) = (&c.model, &c.timeline) else { return Ok(None) };
    // As the page asks (500 hits) of what the analysis worker keeps.
    let mut t = t.clone();
    t.compact_for_queries();
    let name = m.function_name(m.func_ids.get(0).unwrap_or(-1));
    let fuzzy: String = name.chars().take(3).collect();
    let (total, _) = pypto_analysis::timeline_query::search(&t, &[m], &fuzzy, 500);
    let (whole, _) = pypto_analysis::timeline_query::search(&t, &[m], &name, 500);
    let tid = m.tasks.task_id.get(m.tasks.len() / 2).unwrap_or(0);
    let (exact, _) = pypto_analysis::timeline_query::search(&t, &[m], &TaskId(tid).to_string(), 500);
    Ok(Some(Done { items: (total + whole + exact) as usize, input_bytes: 0 }))
}

/// Details (with SPMD group) and depth-2 dependencies of the middle bar of the first track.
#[allow(clippy::unnecessary_wraps, clippy::many_single_char_names)] // the StageFn signature
fn timeline_details_stage(c: &mut Ctx) -> StageResult {
    let (Some(m), Some(t)) = (&c.model, &c.timeline) else { return Ok(None) };
    let bar = pypto_analysis::timeline_query::BarAt { track: 0, index: (t.track_range(0).len() / 2) as u32 };
    // A lean-read deps.json re-reads the task's arguments from the file, as the worker does.
    let file = c.deps_file.as_ref().map(|f| &f.bytes);
    let read_task = |_: usize, _: pypto_analysis::timeline_query::DetailFile, off: u64, len: u32| {
        file.and_then(|b| b.get(off as usize..(off as usize).saturating_add(len as usize))).map(<[u8]>::to_vec)
    };
    let d = pypto_analysis::timeline_query::bar_details_with(t, &[m], bar, &read_task).map_or(0, |x| x.1.len());
    let a = pypto_analysis::timeline_query::dependencies(t, &[m], bar, 2).len();
    Ok(Some(Done { items: d + a, input_bytes: 0 }))
}

fn read_one(root: &Path, rel: Option<&String>) -> Result<Option<InputFile>, String> {
    let Some(rel) = rel else { return Ok(None) };
    let bytes = std::fs::read(root.join(rel)).map_err(|e| format!("cannot read {rel}: {e}"))?;
    Ok(Some(InputFile { rel: rel.clone(), bytes }))
}

fn read_files(c: &mut Ctx) -> StageResult {
    c.records_file = None;
    c.deps_file = None;
    c.name_map_file = None;
    c.records_file = read_one(&c.root, c.records_path.as_ref())?;
    c.deps_file = read_one(&c.root, c.deps_path.as_ref())?;
    c.name_map_file = read_one(&c.root, c.name_map_path.as_ref())?;
    let files = [&c.records_file, &c.deps_file, &c.name_map_file];
    let bytes: u64 = files.iter().filter_map(|f| f.as_ref()).map(|f| f.bytes.len() as u64).sum();
    let n = files.iter().filter(|f| f.is_some()).count();
    Ok(Some(Done { items: n, input_bytes: bytes }))
}

fn records_parse(c: &mut Ctx) -> StageResult {
    let Some(f) = &c.records_file else {
        return Ok(None);
    };
    c.records = None;
    let r = records::parse(&f.rel, &f.bytes).map_err(|e| e.to_string())?;
    let done = Done { items: r.aicore_row_count(), input_bytes: f.bytes.len() as u64 };
    c.records = Some(r);
    Ok(Some(done))
}

fn deps_parse(c: &mut Ctx) -> StageResult {
    let Some(f) = &c.deps_file else {
        return Ok(None);
    };
    c.deps = None;
    let d = deps::parse(&f.rel, &f.bytes).map_err(|e| e.to_string())?;
    let done = Done { items: d.task_count(), input_bytes: f.bytes.len() as u64 };
    c.deps = Some(d);
    Ok(Some(done))
}

/// The worker's slice size for large files.
const STREAM_SLICE_BYTES: usize = 8 * 1024 * 1024;

/// The worker's path: the records file fed in 8 MiB slices. Its result (the parse's, plus
/// where each scheduler record is) replaces the parse's, so the model is built as the
/// worker builds it.
fn records_stream_parse(c: &mut Ctx) -> StageResult {
    let Some(f) = &c.records_file else {
        return Ok(None);
    };
    let mut s = records::RecordsStream::new();
    for chunk in f.bytes.chunks(STREAM_SLICE_BYTES) {
        s.feed(chunk);
    }
    let r = s.finish(&f.rel).ok_or("the slice-by-slice reader gave up (malformed file?)")?;
    let done = Done { items: r.aicore_row_count(), input_bytes: f.bytes.len() as u64 };
    c.records = Some(r);
    Ok(Some(done))
}

/// The worker's path for deps.json: fed in 8 MiB slices.
fn deps_stream_parse(c: &mut Ctx) -> StageResult {
    let Some(f) = &c.deps_file else {
        return Ok(None);
    };
    let mut s = deps::DepsStream::new();
    for chunk in f.bytes.chunks(STREAM_SLICE_BYTES) {
        s.feed(chunk);
    }
    let d = s.finish().ok_or("the slice-by-slice reader gave up (malformed file?)")?;
    Ok(Some(Done { items: d.task_count(), input_bytes: f.bytes.len() as u64 }))
}

/// The worker's path for a large deps.json `File`: lean (no args, tensors or edge
/// annotations; task spans kept for on-demand re-reads). The model is built from this.
fn deps_lean_stream_parse(c: &mut Ctx) -> StageResult {
    let Some(f) = &c.deps_file else {
        return Ok(None);
    };
    c.deps_lean = None;
    let mut s = deps::DepsStream::lean();
    for chunk in f.bytes.chunks(STREAM_SLICE_BYTES) {
        s.feed(chunk);
    }
    let d = s.finish().ok_or("the slice-by-slice reader gave up (malformed file?)")?;
    let done = Done { items: d.task_count(), input_bytes: f.bytes.len() as u64 };
    c.deps_lean = Some(d);
    Ok(Some(done))
}

fn name_map_parse(c: &mut Ctx) -> StageResult {
    let Some(f) = &c.name_map_file else {
        return Ok(None);
    };
    let m = name_map::parse(&f.rel, &f.bytes).map_err(|e| e.to_string())?;
    let done = Done { items: m.entries.len(), input_bytes: f.bytes.len() as u64 };
    c.names = Some(m);
    Ok(Some(done))
}

#[allow(clippy::unnecessary_wraps)] // the StageFn signature
fn join(c: &mut Ctx) -> StageResult {
    let Some(r) = &c.records else { return Ok(None) };
    c.joined = None;
    let j = tasks::join(r);
    let done = Done { items: j.len(), input_bytes: 0 };
    c.joined = Some(j);
    Ok(Some(done))
}

#[allow(clippy::unnecessary_wraps)] // the StageFn signature
fn func_ids(c: &mut Ctx) -> StageResult {
    let Some(j) = &c.joined else { return Ok(None) };
    let f = tasks::func_ids(j, c.deps.as_ref());
    let done = Done { items: f.iter().filter(|&&id| id >= 0).count(), input_bytes: 0 };
    c.func_ids = Some(f);
    Ok(Some(done))
}

#[allow(clippy::unnecessary_wraps)] // the StageFn signature
fn worker_view_build(c: &mut Ctx) -> StageResult {
    let (Some(j), Some(f)) = (&c.joined, &c.func_ids) else {
        return Ok(None);
    };
    let v = worker_view::build(j, f);
    Ok(Some(Done { items: v.start_us.len(), input_bytes: 0 }))
}

#[allow(clippy::unnecessary_wraps)] // the StageFn signature
fn records_summary(c: &mut Ctx) -> StageResult {
    let (Some(r), Some(j)) = (&c.records, &c.joined) else {
        return Ok(None);
    };
    let s = summary::records_summary(r, j);
    Ok(Some(Done { items: s.task_count, input_bytes: 0 }))
}

#[allow(clippy::unnecessary_wraps)] // the StageFn signature
fn function_stats_stage(c: &mut Ctx) -> StageResult {
    let (Some(j), Some(f)) = (&c.joined, &c.func_ids) else {
        return Ok(None);
    };
    let stats = function_stats::converter_stats(j, f, c.names.as_ref());
    let perf = function_stats::function_perf(j, f, c.names.as_ref());
    Ok(Some(Done { items: stats.rows.len().max(perf.len()), input_bytes: 0 }))
}

#[allow(clippy::unnecessary_wraps)] // the StageFn signature
fn deps_graph_stage(c: &mut Ctx) -> StageResult {
    let Some(d) = &c.deps else { return Ok(None) };
    c.deps_graph = None;
    let g = DepsGraph::build(d, &[], &|_| false);
    let done = Done { items: g.edge_count(), input_bytes: 0 };
    c.deps_graph = Some(g);
    Ok(Some(done))
}

#[allow(clippy::unnecessary_wraps)] // the StageFn signature
fn edge_mode_stage(c: &mut Ctx, mode: EdgeMode) -> StageResult {
    let (Some(g), Some(d)) = (&c.deps_graph, &c.deps) else {
        return Ok(None);
    };
    let evidence = mode.is_dataflow().then(|| dataflow_regions::DataflowEvidence::build(g, d));
    let sel = edge_modes::select_edges(g, d, mode, evidence.as_ref());
    Ok(Some(Done { items: sel.kept_count(), input_bytes: 0 }))
}

fn critical_path_stage(c: &mut Ctx) -> StageResult {
    let Some(r) = &c.records else { return Ok(None) };
    let (_, cp) = critical_path::compute(r, c.deps.as_ref(), c.names.as_ref()).map_err(|e| e.to_string())?;
    Ok(Some(Done { items: cp.observed.len(), input_bytes: 0 }))
}

/// Streams the merged Perfetto trace (not held: read inside the stage, like the worker).
fn chrome_trace_stage(c: &mut Ctx) -> StageResult {
    let Some(rel) = &c.merged_path else {
        return Ok(None);
    };
    let bytes = std::fs::read(c.root.join(rel)).map_err(|e| format!("cannot read {rel}: {e}"))?;
    let mut events = 0usize;
    chrome_trace::for_each_event(rel, &bytes, true, |_| {
        events += 1;
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    Ok(Some(Done { items: events, input_bytes: bytes.len() as u64 }))
}

// ---------------------------------------------------------------------------------------
// Memory

/// `VmRSS` and `VmHWM` of this process in bytes (0 where `/proc` is unavailable).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Mem {
    pub rss_bytes: u64,
    pub hwm_bytes: u64,
}

/// Reads `/proc/self/status`.
pub fn mem() -> Mem {
    let Ok(s) = std::fs::read_to_string("/proc/self/status") else {
        return Mem::default();
    };
    let kb = |key: &str| -> u64 {
        s.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |v| v * 1024)
    };
    Mem { rss_bytes: kb("VmRSS:"), hwm_bytes: kb("VmHWM:") }
}

/// Resets `VmHWM` to the current RSS (Linux ≥ 4.0); returns whether it worked.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

// ---------------------------------------------------------------------------------------
// Measurement

/// One stage's measurements.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct StageReport {
    pub name: String,
    /// `ok`, `skipped` or `error`.
    pub status: String,
    pub error: Option<String>,
    pub iterations: usize,
    pub min_ms: f64,
    pub median_ms: f64,
    pub input_bytes: u64,
    /// Input MB (10^6 bytes) per second at the median time; 0 when the stage reads no file.
    pub mb_per_s: f64,
    pub items: usize,
    pub rss_before_bytes: u64,
    pub rss_after_bytes: u64,
    /// Peak RSS during the stage (or since the start when the peak cannot be reset).
    pub peak_bytes: u64,
}

/// The whole bench.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BenchReport {
    pub dir: String,
    pub dataset: String,
    pub records: Option<String>,
    pub deps: Option<String>,
    pub name_map: Option<String>,
    pub iterations: usize,
    /// Logical tasks: deps.json tasks when present, else joined rows.
    pub tasks: usize,
    pub aicore_rows: usize,
    pub stages: Vec<StageReport>,
    pub rss_start_bytes: u64,
    /// RSS with every input buffer and every stage output held.
    pub rss_all_bytes: u64,
    /// RSS after dropping the input buffers (the parsed model and analyses remain).
    pub rss_model_bytes: u64,
    pub input_bytes: u64,
    /// `(rss_model - rss_start) / tasks`.
    pub model_bytes_per_task: f64,
    /// `(max stage peak - rss_start) / tasks`.
    pub peak_bytes_per_task: f64,
    pub peak_bytes: u64,
    pub peak_reset_supported: bool,
    /// The worker's resident `RuntimeModel` per component (exact column capacities), then
    /// the timeline's query columns kept after the render columns are handed to the page.
    pub worker_components: Vec<(String, u64)>,
    /// Where the last `runtime model` run's time went: its steps in order, ms.
    pub model_steps_ms: Vec<(String, f64)>,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => f64::midpoint(v[n / 2 - 1], v[n / 2]),
    }
}

/// Runs one stage `iterations` times and measures it.
fn run_stage(ctx: &mut Ctx, name: &str, f: StageFn, iterations: usize) -> StageReport {
    reset_peak();
    let before = mem();
    let mut times = Vec::with_capacity(iterations);
    let mut sr = StageReport { name: name.to_owned(), status: "ok".into(), ..StageReport::default() };
    for _ in 0..iterations {
        let t = Instant::now();
        let r = f(ctx);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        match r {
            Ok(Some(d)) => {
                times.push(ms);
                sr.items = d.items;
                sr.input_bytes = d.input_bytes;
            }
            Ok(None) => {
                sr.status = "skipped".into();
                break;
            }
            Err(e) => {
                sr.status = "error".into();
                sr.error = Some(e);
                break;
            }
        }
    }
    let after = mem();
    sr.iterations = times.len();
    sr.min_ms = times.iter().copied().fold(f64::INFINITY, f64::min);
    if !sr.min_ms.is_finite() {
        sr.min_ms = 0.0;
    }
    sr.median_ms = median(&mut times);
    if sr.input_bytes > 0 && sr.median_ms > 0.0 {
        sr.mb_per_s = sr.input_bytes as f64 / 1e6 / (sr.median_ms / 1e3);
    }
    sr.rss_before_bytes = before.rss_bytes;
    sr.rss_after_bytes = after.rss_bytes;
    sr.peak_bytes = after.hwm_bytes;
    sr
}

/// Runs every stage `iterations` times over the first runtime dataset under `dir`.
pub fn measure(dir: &Path, iterations: usize) -> Result<BenchReport, String> {
    let iterations = iterations.max(1);
    let entries = crate::walk::walk(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let disc = discovery::discover(&entries);
    let ds = disc
        .datasets
        .iter()
        .find(|d| d.kind == DatasetKind::Runtime && d.records.is_some())
        .or_else(|| disc.datasets.iter().find(|d| d.kind == DatasetKind::Runtime))
        .ok_or_else(|| format!("no runtime dataset under {}", dir.display()))?;
    let path_of = |i: Option<usize>| i.and_then(|i| entries.get(i)).map(|e| e.0.clone());
    // Newest by (mtime, name), like the reference tools; `files` keeps discovery order.
    let merged_path = ds
        .files
        .iter()
        .filter(|f| f.role == discovery::FileRole::MergedSwimlane)
        .filter_map(|f| entries.get(f.entry_index))
        .map(|e| {
            let mtime = std::fs::metadata(dir.join(&e.0)).and_then(|m| m.modified()).ok();
            (mtime, e.0.clone())
        })
        .max()
        .map(|(_, p)| p);
    let mut ctx = Ctx {
        root: dir.to_path_buf(),
        records_path: path_of(ds.records),
        deps_path: path_of(ds.deps),
        name_map_path: path_of(ds.name_map),
        merged_path,
        ..Ctx::default()
    };
    let mut rep = BenchReport {
        dir: dir.display().to_string(),
        dataset: if ds.path.is_empty() { ".".into() } else { ds.path.clone() },
        records: ctx.records_path.clone(),
        deps: ctx.deps_path.clone(),
        name_map: ctx.name_map_path.clone(),
        iterations,
        ..BenchReport::default()
    };
    rep.peak_reset_supported = reset_peak();
    rep.rss_start_bytes = mem().rss_bytes;
    for &(name, f) in STAGES {
        rep.stages.push(run_stage(&mut ctx, name, f, iterations));
    }
    rep.model_steps_ms = std::mem::take(&mut ctx.model_steps);
    rep.rss_all_bytes = mem().rss_bytes;
    rep.input_bytes =
        [&ctx.records_file, &ctx.deps_file, &ctx.name_map_file].iter().filter_map(|f| f.as_ref()).map(|f| f.bytes.len() as u64).sum();
    ctx.records_file = None;
    ctx.deps_file = None;
    ctx.name_map_file = None;
    rep.rss_model_bytes = mem().rss_bytes;
    rep.aicore_rows = ctx.records.as_ref().map_or(0, ChipRecords::aicore_row_count);
    rep.tasks = ctx.deps.as_ref().map(Deps::task_count).or_else(|| ctx.joined.as_ref().map(JoinedTasks::len)).unwrap_or(0);
    rep.peak_bytes = rep.stages.iter().map(|s| s.peak_bytes).max().unwrap_or(0);
    if let Some(m) = &ctx.model {
        // What the analysis worker keeps: the model with its scheduler phases detached.
        let mut m = m.clone();
        m.detach_phases();
        rep.worker_components = m.resident_bytes_by_component().into_iter().map(|(n, b)| (format!("model: {n}"), b as u64)).collect();
        for (n, b) in m.tasks.resident_bytes_by_column() {
            rep.worker_components.push((format!("  of the joined tasks: {n}"), b as u64));
        }
    }
    if let Some(t) = &ctx.timeline {
        // The index as the analysis worker keeps it.
        let mut t = t.clone();
        t.compact_for_queries();
        let q = t.source.resident_bytes()
            + t.name_index.resident_bytes()
            + t.track_offsets.capacity() * 4
            + t.names.iter().map(|n| n.capacity() + 24).sum::<usize>();
        rep.worker_components.push(("timeline: query columns".to_owned(), q as u64));
    }
    if rep.tasks > 0 {
        let per = |b: u64| b.saturating_sub(rep.rss_start_bytes) as f64 / rep.tasks as f64;
        rep.model_bytes_per_task = per(rep.rss_model_bytes);
        rep.peak_bytes_per_task = per(rep.peak_bytes);
    }
    Ok(rep)
}

fn mb(b: u64) -> f64 {
    b as f64 / 1e6
}

/// Renders the report as a text table.
pub fn render_text(r: &BenchReport) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "bench {} (dataset {}): {} tasks, {} AICore rows, {} iteration(s)",
        r.dir, r.dataset, r.tasks, r.aicore_rows, r.iterations
    );
    for (what, p) in [("records", &r.records), ("deps", &r.deps), ("name map", &r.name_map)] {
        let _ = writeln!(s, "  {what}: {}", p.as_deref().unwrap_or("-"));
    }
    let _ = writeln!(
        s,
        "{:<22} {:>10} {:>10} {:>10} {:>9} {:>10} {:>10} {:>10}",
        "stage", "min ms", "median ms", "input MB", "MB/s", "items", "RSS Δ MB", "peak MB"
    );
    for st in &r.stages {
        if st.status == "ok" {
            let delta = st.rss_after_bytes as f64 - st.rss_before_bytes as f64;
            let input = if st.input_bytes > 0 { format!("{:.1}", mb(st.input_bytes)) } else { "-".into() };
            let rate = if st.mb_per_s > 0.0 { format!("{:.0}", st.mb_per_s) } else { "-".into() };
            let _ = writeln!(
                s,
                "{:<22} {:>10.2} {:>10.2} {:>10} {:>9} {:>10} {:>10.1} {:>10.1}",
                st.name,
                st.min_ms,
                st.median_ms,
                input,
                rate,
                st.items,
                delta / 1e6,
                mb(st.peak_bytes)
            );
        } else {
            let why = st.error.as_deref().unwrap_or("inputs absent");
            let _ = writeln!(s, "{:<22} {}: {why}", st.name, st.status);
        }
    }
    if !r.model_steps_ms.is_empty() {
        let steps: Vec<String> = r.model_steps_ms.iter().map(|(n, ms)| format!("{n} {ms:.0}")).collect();
        let _ = writeln!(s, "runtime model steps (last run, ms): {}", steps.join(", "));
    }
    let _ = writeln!(
        s,
        "resident: start {:.1} MB, all held {:.1} MB (inputs {:.1} MB), model after dropping inputs {:.1} MB, peak {:.1} MB{}",
        mb(r.rss_start_bytes),
        mb(r.rss_all_bytes),
        mb(r.input_bytes),
        mb(r.rss_model_bytes),
        mb(r.peak_bytes),
        if r.peak_reset_supported { "" } else { " (peak not resettable: cumulative)" }
    );
    let _ = writeln!(s, "bytes per task: model {:.0}, peak {:.0}", r.model_bytes_per_task, r.peak_bytes_per_task);
    if !r.worker_components.is_empty() {
        // Indented rows break the row above down; they are not added again.
        let total: u64 = r.worker_components.iter().filter(|c| !c.0.starts_with(' ')).map(|c| c.1).sum();
        let per = |b: u64| if r.tasks > 0 { b as f64 / r.tasks as f64 } else { 0.0 };
        let _ = writeln!(s, "worker resident (exact capacities): {:.1} MB, {:.1} bytes/task", mb(total), per(total));
        for (name, b) in &r.worker_components {
            let _ = writeln!(s, "  {name:<40} {:>9.1} MB {:>8.1} B/task", mb(*b), per(*b));
        }
    }
    s
}

/// Parses `bench` arguments: `(dir, iterations, json)`.
pub fn parse_args(args: &[&str]) -> Result<(String, usize, bool), String> {
    let mut dir = None;
    let mut iterations = 5usize;
    let mut json = false;
    let mut it = args.iter().copied();
    while let Some(a) = it.next() {
        match a {
            "--iterations" => {
                let v = it.next().ok_or("--iterations needs a value")?;
                iterations = v.parse().map_err(|_| format!("--iterations: cannot parse {v:?}"))?;
                if iterations == 0 {
                    return Err("--iterations must be >= 1".into());
                }
            }
            "--json" => json = true,
            _ if a.starts_with("--") => return Err(format!("unknown option {a}")),
            _ if dir.is_none() => dir = Some(a.to_owned()),
            _ => return Err(format!("unexpected argument {a:?}")),
        }
    }
    Ok((dir.ok_or("bench needs a directory")?, iterations, json))
}

/// `bench` entry point (arguments after the subcommand name).
pub fn run(args: &[&str]) -> ExitCode {
    let (dir, iterations, json) = match parse_args(args) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("pypto-viewer bench: {e}\nusage:\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let root = Path::new(&dir);
    if !root.is_dir() {
        eprintln!("pypto-viewer bench: {dir} is not a directory");
        return ExitCode::from(2);
    }
    match measure(root, iterations) {
        Ok(r) => {
            if json {
                match serde_json::to_string_pretty(&r) {
                    Ok(s) => println!("{s}"),
                    Err(e) => {
                        eprintln!("pypto-viewer bench: cannot serialise the report: {e}");
                        return ExitCode::from(1);
                    }
                }
            } else {
                print!("{}", render_text(&r));
            }
            if r.stages.iter().any(|s| s.status == "error") {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("pypto-viewer bench: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/runtime").join(name)
    }

    #[test]
    fn benches_a_real_capture_with_every_stage() {
        let dir = fixture("a2a3sim-L4-TestPagedAttention_CaseMediumLocal");
        let r = measure(&dir, 2).unwrap();
        let text = render_text(&r);
        print!("{text}");
        for &(name, _) in STAGES {
            let st = r.stages.iter().find(|s| s.name == name).unwrap();
            assert_eq!(st.status, "ok", "{name}: {:?}", st.error);
            assert_eq!(st.iterations, 2);
            assert!(text.contains(name));
        }
        assert_eq!(r.tasks, 512);
        assert_eq!(r.aicore_rows, 512);
        let parse = r.stages.iter().find(|s| s.name == "records parse").unwrap();
        assert!(parse.input_bytes > 100_000 && parse.mb_per_s > 0.0);
        assert!(r.rss_all_bytes > 0 && r.peak_bytes >= r.rss_start_bytes);
        let json = serde_json::to_value(&r).unwrap();
        assert!(json["stages"].as_array().unwrap().len() == STAGES.len());
    }

    #[test]
    fn benches_a_generated_capture_and_skips_absent_inputs() {
        let dir = std::env::temp_dir().join(format!("pypto-bench-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let o = crate::gen::GenOptions { tasks: 300, level: 2, ..crate::gen::GenOptions::default() };
        crate::gen::generate(&dir, &o).unwrap();
        let r = measure(&dir, 1).unwrap();
        print!("{}", render_text(&r));
        assert_eq!(r.tasks, 300);
        for st in &r.stages {
            let absent = ["name_map parse", "chrome trace stream"].contains(&st.name.as_str());
            let want = if absent { "skipped" } else { "ok" };
            assert_eq!(st.status, want, "{}: {:?}", st.name, st.error);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn parses_arguments() {
        assert_eq!(parse_args(&["d"]).unwrap(), ("d".into(), 5, false));
        assert_eq!(parse_args(&["--json", "d", "--iterations", "3"]).unwrap(), ("d".into(), 3, true));
        assert!(parse_args(&["d", "--iterations", "0"]).is_err());
        assert!(parse_args(&[]).is_err());
    }
}
