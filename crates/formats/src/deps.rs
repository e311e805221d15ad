//! Reader for `deps.json` (runtime-formats.md §2): the task DAG with tensor annotations,
//! for the dependency graph, func-id resolution (`kernel_ids`) and later deps analyses.
//!
//! Ids (`task_id`, `tensor_id`, `pred`, `succ`, `buffer_addr`, offsets) arrive as decimal
//! strings that may exceed 2^53; older files use numbers; both are read exactly as u64.
//! Tasks, args, tensors and edges are stored as columns; dtype/source names are interned;
//! shapes and strides live in one shared `dims` pool addressed by `(offset, len)` ranges.
//! Older shapes (edges as `[pred, succ]` pairs, missing `tasks`/`tensors`/optional keys)
//! are accepted.

use crate::json_stream;
use crate::json_util::{json_error, IdNum, Interner};
use crate::FormatError;
use pypto_vocab::TaskId;
use pypto_vocab::{Warning, WarningKind as K};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;

/// Task scope (`"auto"` | `"manual"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Scope {
    #[default]
    Auto,
    Manual,
    /// Missing or another value.
    Other,
}

/// `args[].type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum ArgType {
    Input,
    Output,
    Inout,
    OutputExisting,
    #[default]
    Unknown,
}

impl ArgType {
    fn from_name(s: &str) -> Self {
        match s {
            "INPUT" => Self::Input,
            "OUTPUT" => Self::Output,
            "INOUT" => Self::Inout,
            "OUTPUT_EXISTING" => Self::OutputExisting,
            _ => Self::Unknown,
        }
    }
}

/// A `(offset, len)` range into [`Deps::dims`] (shape or strides). `len == 0` = absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct DimRange {
    pub offset: u32,
    pub len: u32,
}

/// Edge `flags` bits.
pub const FLAG_WAIT: u8 = 1;
/// Edge `flags` bits.
pub const FLAG_RETAIN: u8 = 2;

/// Tensormap `overlap` (0 = absent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Overlap {
    #[default]
    None,
    Covered,
    Other,
    NoOverlap,
}

/// `tasks[]` columns, submit order.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DepsTasks {
    pub task_id: Vec<u64>,
    /// `[aic, aiv0, aiv1]`, -1 = inactive; `[-1, -1, -1]` when missing or malformed.
    pub kernel_ids: Vec<[i64; 3]>,
    /// False when `kernel_ids` was missing or not of length 3 (skipped for func-id resolution).
    pub has_kernel_ids: Vec<bool>,
    /// SPMD block count, default 1, at least 1.
    pub block_num: Vec<u32>,
    pub early_dispatch: Vec<bool>,
    pub scope: Vec<Scope>,
    /// Args of task `i` are `arg_offsets[i]..arg_offsets[i + 1]` in [`DepsArgs`].
    pub arg_offsets: Vec<u32>,
}

impl DepsTasks {
    pub fn len(&self) -> usize {
        self.task_id.len()
    }
    pub fn is_empty(&self) -> bool {
        self.task_id.is_empty()
    }
    /// True when every kernel slot is -1 (dummy task or graph boundary).
    pub fn is_dummy(&self, i: usize) -> bool {
        self.kernel_ids.get(i).is_some_and(|k| k.iter().all(|&x| x < 0))
    }
}

/// `tasks[].args[]` columns, all tasks concatenated.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DepsArgs {
    pub idx: Vec<i32>,
    pub arg_type: Vec<ArgType>,
    /// `None` for OUTPUT slots (not materialised at submit).
    pub tensor_id: Vec<Option<u64>>,
    /// Index into [`Deps::dtype_names`]; `u32::MAX` = absent.
    pub dtype: Vec<u32>,
    pub shape: Vec<DimRange>,
    pub strides: Vec<DimRange>,
    pub start_offset: Vec<u64>,
}

/// `tensors[]` columns.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DepsTensors {
    pub tensor_id: Vec<u64>,
    pub buffer_addr: Vec<u64>,
    pub version: Vec<i32>,
    /// Index into [`Deps::dtype_names`]; `u32::MAX` = absent.
    pub dtype: Vec<u32>,
    pub buffer_numel: Vec<u64>,
}

/// `edges[]` columns, file order (grouped by consumer).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DepsEdges {
    pub pred: Vec<u64>,
    pub succ: Vec<u64>,
    /// Consumer arg slot, -1 for explicit edges and pair-format edges.
    pub arg: Vec<i32>,
    /// Index into [`Deps::source_names`] (`explicit`, `creator`, `tensormap`, ...);
    /// `u32::MAX` = absent (pair-format edges).
    pub source: Vec<u32>,
    /// [`FLAG_WAIT`] | [`FLAG_RETAIN`].
    pub flags: Vec<u8>,
    pub overlap: Vec<Overlap>,
    pub tensor_id: Vec<Option<u64>>,
    /// Index into [`Deps::dtype_names`]; `u32::MAX` = absent.
    pub consumer_dtype: Vec<u32>,
    pub consumer_shape: Vec<DimRange>,
    pub consumer_strides: Vec<DimRange>,
    pub consumer_start_offset: Vec<Option<u64>>,
    pub producer_shape: Vec<DimRange>,
    pub producer_strides: Vec<DimRange>,
    pub producer_start_offset: Vec<Option<u64>>,
}

/// A parsed `deps.json`.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Deps {
    pub tasks: DepsTasks,
    pub args: DepsArgs,
    pub tensors: DepsTensors,
    pub edges: DepsEdges,
    /// Shape/stride pool for every [`DimRange`].
    pub dims: Vec<u32>,
    pub dtype_names: Vec<String>,
    pub source_names: Vec<String>,
    /// Top-level `version` of old files (1..3), if present.
    pub version: Option<i64>,
    /// Newer upstream top-level `runtime`.
    pub runtime: Option<String>,
    /// True when some task lacked a valid `kernel_ids` (pre-Jun-2026 files).
    pub missing_kernel_ids: bool,
    /// Lean reading only ([`DepsStream::lean`]): each task's byte offset and length in the
    /// file, to re-read its arguments with [`parse_task`]. Empty otherwise.
    pub task_offsets: Vec<u64>,
    pub task_lens: Vec<u32>,
    /// Lean reading only: `tensors[]` records counted but not kept.
    pub skipped_tensors: usize,
    pub warnings: Vec<Warning>,
}

impl Deps {
    /// Trims every column's capacity to its length (the columns grow by doubling while a
    /// file is read; a million-task file left ~25% of its column bytes unused).
    pub fn shrink_to_fit(&mut self) {
        let t = &mut self.tasks;
        t.task_id.shrink_to_fit();
        t.kernel_ids.shrink_to_fit();
        t.has_kernel_ids.shrink_to_fit();
        t.block_num.shrink_to_fit();
        t.early_dispatch.shrink_to_fit();
        t.scope.shrink_to_fit();
        t.arg_offsets.shrink_to_fit();
        let a = &mut self.args;
        a.idx.shrink_to_fit();
        a.arg_type.shrink_to_fit();
        a.tensor_id.shrink_to_fit();
        a.dtype.shrink_to_fit();
        a.shape.shrink_to_fit();
        a.strides.shrink_to_fit();
        a.start_offset.shrink_to_fit();
        let x = &mut self.tensors;
        x.tensor_id.shrink_to_fit();
        x.buffer_addr.shrink_to_fit();
        x.version.shrink_to_fit();
        x.dtype.shrink_to_fit();
        x.buffer_numel.shrink_to_fit();
        let e = &mut self.edges;
        e.pred.shrink_to_fit();
        e.succ.shrink_to_fit();
        e.arg.shrink_to_fit();
        e.source.shrink_to_fit();
        e.flags.shrink_to_fit();
        e.overlap.shrink_to_fit();
        e.tensor_id.shrink_to_fit();
        e.consumer_dtype.shrink_to_fit();
        e.consumer_shape.shrink_to_fit();
        e.consumer_strides.shrink_to_fit();
        e.consumer_start_offset.shrink_to_fit();
        e.producer_shape.shrink_to_fit();
        e.producer_strides.shrink_to_fit();
        e.producer_start_offset.shrink_to_fit();
        self.dims.shrink_to_fit();
        self.task_offsets.shrink_to_fit();
        self.task_lens.shrink_to_fit();
    }

    pub fn task_count(&self) -> usize {
        self.tasks.len()
    }
    /// Number of edge rows (annotated edges; duplicates of one `(pred, succ)` count).
    pub fn edge_count(&self) -> usize {
        self.edges.pred.len()
    }
    pub fn tensor_count(&self) -> usize {
        self.tensors.tensor_id.len() + self.skipped_tensors
    }
    /// The dims of a range (empty if out of bounds).
    pub fn dims_of(&self, r: DimRange) -> &[u32] {
        self.dims.get(r.offset as usize..(r.offset as usize).saturating_add(r.len as usize)).unwrap_or(&[])
    }
    /// Name of an interned source index.
    pub fn source_name(&self, i: u32) -> Option<&str> {
        self.source_names.get(i as usize).map(String::as_str)
    }
}

// ------------------------------------------------------------------------------------------

#[derive(Default)]
struct Builder {
    deps: Deps,
    dtypes: Interner,
    sources: Interner,
    /// [`DepsStream::lean`]: keep task heads and spans, edge ends only.
    lean: bool,
    /// Tasks with a `block_num` below 1: (task index, task id, value), the first few.
    low_block_num: Vec<(usize, u64, i64)>,
    low_block_num_count: usize,
    /// Tasks with a `kernel_ids` entry below −1: (task index, task id, value), the first few.
    low_kernel_id: Vec<(usize, u64, i64)>,
    low_kernel_id_count: usize,
}

/// Odd values named per warning; the rest are counted.
const ODD_TASKS_NAMED: usize = 5;

impl Builder {
    fn dims(&mut self, v: Option<&[u32]>) -> DimRange {
        match v {
            Some(v) if !v.is_empty() => {
                let r = DimRange { offset: self.deps.dims.len() as u32, len: v.len() as u32 };
                self.deps.dims.extend_from_slice(v);
                r
            }
            _ => DimRange::default(),
        }
    }
    fn dtype(&mut self, s: Option<&str>) -> u32 {
        s.map_or(u32::MAX, |s| self.dtypes.intern(s))
    }
    /// Notes a task's `block_num` below 1 (read as 1) or a kernel id below −1.
    fn note_odd_values(&mut self, task_id: u64, block_num: Option<i64>, kernel_ids: &[i64; 3]) {
        let index = self.deps.tasks.task_id.len();
        if let Some(n) = block_num.filter(|&n| n < 1) {
            self.low_block_num_count += 1;
            if self.low_block_num.len() < ODD_TASKS_NAMED {
                self.low_block_num.push((index, task_id, n));
            }
        }
        if let Some(&k) = kernel_ids.iter().find(|&&k| k < -1) {
            self.low_kernel_id_count += 1;
            if self.low_kernel_id.len() < ODD_TASKS_NAMED {
                self.low_kernel_id.push((index, task_id, k));
            }
        }
    }
}

/// `kernel_ids`: valid only with exactly 3 integers.
struct KernelIds {
    ids: [i64; 3],
    ok: bool,
}

impl Default for KernelIds {
    fn default() -> Self {
        Self { ids: [-1; 3], ok: false }
    }
}

impl<'de> Deserialize<'de> for KernelIds {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = KernelIds;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a `kernel_ids` array of integers")
            }
            fn visit_unit<E: de::Error>(self) -> Result<KernelIds, E> {
                Ok(KernelIds::default())
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<KernelIds, A::Error> {
                let mut ids = [-1i64; 3];
                let mut n = 0usize;
                while let Some(x) = seq.next_element::<i64>()? {
                    if let Some(slot) = ids.get_mut(n) {
                        *slot = x;
                    }
                    n += 1;
                }
                if n == 3 {
                    Ok(KernelIds { ids, ok: true })
                } else {
                    Ok(KernelIds { ids: [-1; 3], ok: false })
                }
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize)]
#[serde(expecting = "a task argument object")]
struct ArgRec<'a> {
    #[serde(default)]
    idx: Option<i32>,
    #[serde(borrow, default, rename = "type")]
    arg_type: Option<Cow<'a, str>>,
    #[serde(default)]
    tensor_id: Option<IdNum>,
    #[serde(borrow, default)]
    dtype: Option<Cow<'a, str>>,
    #[serde(default)]
    shape: Option<Vec<u32>>,
    #[serde(default)]
    strides: Option<Vec<u32>>,
    #[serde(default)]
    start_offset: Option<IdNum>,
}

#[derive(Deserialize)]
#[serde(expecting = "a deps.json task object with `task_id`")]
struct TaskRec<'a> {
    task_id: IdNum,
    #[serde(borrow, default)]
    scope: Option<Cow<'a, str>>,
    #[serde(default)]
    early_dispatch: Option<bool>,
    #[serde(default)]
    kernel_ids: Option<KernelIds>,
    #[serde(default)]
    block_num: Option<i64>,
    #[serde(borrow, default)]
    args: Vec<ArgRec<'a>>,
}

#[derive(Deserialize)]
#[serde(expecting = "a deps.json tensor object with `tensor_id`")]
struct TensorRec<'a> {
    tensor_id: IdNum,
    #[serde(default)]
    buffer_addr: Option<IdNum>,
    #[serde(default)]
    version: Option<i32>,
    #[serde(borrow, default)]
    dtype: Option<Cow<'a, str>>,
    #[serde(default)]
    buffer_numel: Option<IdNum>,
}

#[derive(Deserialize)]
#[serde(expecting = "a deps.json edge object with `pred` and `succ`")]
struct EdgeObj<'a> {
    pred: IdNum,
    succ: IdNum,
    #[serde(default)]
    arg: Option<i32>,
    #[serde(borrow, default)]
    source: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    flags: Option<Vec<Cow<'a, str>>>,
    #[serde(borrow, default)]
    overlap: Option<Cow<'a, str>>,
    #[serde(default)]
    tensor_id: Option<IdNum>,
    #[serde(borrow, default)]
    consumer_dtype: Option<Cow<'a, str>>,
    #[serde(default)]
    consumer_shape: Option<Vec<u32>>,
    #[serde(default)]
    consumer_strides: Option<Vec<u32>>,
    #[serde(default)]
    consumer_start_offset: Option<IdNum>,
    #[serde(default)]
    producer_shape: Option<Vec<u32>>,
    #[serde(default)]
    producer_strides: Option<Vec<u32>>,
    #[serde(default)]
    producer_start_offset: Option<IdNum>,
}

/// An edge: an object (current) or a `[pred, succ]` pair (version 1).
enum EdgeRec<'a> {
    Obj(Box<EdgeObj<'a>>),
    Pair(u64, u64),
}

impl<'de> Deserialize<'de> for EdgeRec<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = EdgeRec<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an edge object or a [pred, succ] pair")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<EdgeRec<'de>, A::Error> {
                let pred: IdNum = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let succ: IdNum = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
                while seq.next_element::<de::IgnoredAny>()?.is_some() {}
                Ok(EdgeRec::Pair(pred.0, succ.0))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<EdgeRec<'de>, A::Error> {
                let obj = EdgeObj::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(EdgeRec::Obj(Box::new(obj)))
            }
        }
        d.deserialize_any(V)
    }
}

/// Appends one `tasks[]` record.
fn push_task(b: &mut Builder, t: TaskRec<'_>) {
    let tasks = &mut b.deps.tasks;
    if tasks.arg_offsets.is_empty() {
        tasks.arg_offsets.push(0);
    }
    let k = t.kernel_ids.unwrap_or_default();
    if !k.ok {
        b.deps.missing_kernel_ids = true;
    }
    b.note_odd_values(t.task_id.0, t.block_num, &k.ids);
    let tasks = &mut b.deps.tasks;
    tasks.task_id.push(t.task_id.0);
    tasks.kernel_ids.push(k.ids);
    tasks.has_kernel_ids.push(k.ok);
    tasks.block_num.push(t.block_num.map_or(1, |n| n.clamp(1, i64::from(u32::MAX)) as u32));
    tasks.early_dispatch.push(t.early_dispatch.unwrap_or(false));
    tasks.scope.push(match t.scope.as_deref() {
        Some("auto") => Scope::Auto,
        Some("manual") => Scope::Manual,
        _ => Scope::Other,
    });
    for a in t.args {
        let shape = b.dims(a.shape.as_deref());
        let strides = b.dims(a.strides.as_deref());
        let dtype = b.dtype(a.dtype.as_deref());
        let args = &mut b.deps.args;
        args.idx.push(a.idx.unwrap_or(-1));
        args.arg_type.push(a.arg_type.as_deref().map_or(ArgType::Unknown, ArgType::from_name));
        args.tensor_id.push(a.tensor_id.map(|x| x.0));
        args.dtype.push(dtype);
        args.shape.push(shape);
        args.strides.push(strides);
        args.start_offset.push(a.start_offset.map_or(0, |x| x.0));
    }
    let n = b.deps.args.idx.len() as u32;
    b.deps.tasks.arg_offsets.push(n);
}

/// Appends one `tensors[]` record.
fn push_tensor(b: &mut Builder, t: &TensorRec<'_>) {
    let dtype = b.dtype(t.dtype.as_deref());
    let ts = &mut b.deps.tensors;
    ts.tensor_id.push(t.tensor_id.0);
    ts.buffer_addr.push(t.buffer_addr.map_or(0, |x| x.0));
    ts.version.push(t.version.unwrap_or(0));
    ts.dtype.push(dtype);
    ts.buffer_numel.push(t.buffer_numel.map_or(0, |x| x.0));
}

/// Appends one `edges[]` record.
fn push_edge_rec(b: &mut Builder, e: EdgeRec<'_>) {
    match e {
        EdgeRec::Pair(p, s) => push_edge(b, p, s, None),
        EdgeRec::Obj(o) => push_edge(b, o.pred.0, o.succ.0, Some(&o)),
    }
}

/// A task without its `args` (lean reading; unknown keys, `args` included, are skipped).
#[derive(Deserialize)]
#[serde(expecting = "a deps.json task object with `task_id`")]
struct TaskHead<'a> {
    task_id: IdNum,
    #[serde(borrow, default)]
    scope: Option<Cow<'a, str>>,
    #[serde(default)]
    early_dispatch: Option<bool>,
    #[serde(default)]
    kernel_ids: Option<KernelIds>,
    #[serde(default)]
    block_num: Option<i64>,
}

/// [`TaskHead`] read by [`crate::json_fast`] (the common shape: id as a decimal string or
/// number, `kernel_ids` of three integers, integer `block_num`, boolean `early_dispatch`,
/// `scope` without escapes; every other key skipped and validated), with the element's length;
/// `None` for anything else, which serde then reads.
fn fast_task_head(b: &[u8]) -> Option<(TaskHead<'_>, usize)> {
    use crate::json_fast::{plain_string, skip_value, skip_ws, small_int};
    let mut j = skip_ws(b, 0);
    if *b.get(j)? != b'{' {
        return None;
    }
    let mut head = TaskHead { task_id: IdNum(0), scope: None, early_dispatch: None, kernel_ids: None, block_num: None };
    let mut seen = [false; 5];
    j = skip_ws(b, j + 1);
    if *b.get(j)? == b'}' {
        return None; // no task_id: serde says so
    }
    loop {
        let (key, after) = plain_string(b, j)?;
        j = skip_ws(b, after);
        if *b.get(j)? != b':' {
            return None;
        }
        j = skip_ws(b, j + 1);
        let field = match key {
            b"task_id" => 0,
            b"scope" => 1,
            b"early_dispatch" => 2,
            b"kernel_ids" => 3,
            b"block_num" => 4,
            _ => usize::MAX,
        };
        if let Some(slot) = seen.get_mut(field) {
            if std::mem::replace(slot, true) {
                return None; // a repeated field: serde reports it
            }
        }
        j = match field {
            0 => {
                let (id, end) = fast_id(b, j)?;
                head.task_id = IdNum(id);
                end
            }
            1 => {
                let (text, end) = plain_string(b, j)?;
                head.scope = Some(Cow::Borrowed(std::str::from_utf8(text).ok()?));
                end
            }
            2 => {
                let (v, end) = match *b.get(j)? {
                    b't' if b.get(j..j + 4)? == b"true" => (true, j + 4),
                    b'f' if b.get(j..j + 5)? == b"false" => (false, j + 5),
                    _ => return None,
                };
                head.early_dispatch = Some(v);
                end
            }
            3 => {
                if *b.get(j)? != b'[' {
                    return None;
                }
                let mut ids = [-1i64; 3];
                let mut k = skip_ws(b, j + 1);
                for (n, slot) in ids.iter_mut().enumerate() {
                    let (v, end) = small_int(b, k)?;
                    *slot = v;
                    k = skip_ws(b, end);
                    match (*b.get(k)?, n) {
                        (b',', 0 | 1) | (b']', 2) => k = skip_ws(b, k + 1),
                        _ => return None,
                    }
                }
                head.kernel_ids = Some(KernelIds { ids, ok: true });
                k
            }
            4 => {
                let (v, end) = small_int(b, j)?;
                head.block_num = Some(v);
                end
            }
            _ => skip_value(b, j)?,
        };
        j = skip_ws(b, j);
        match *b.get(j)? {
            b',' => j = skip_ws(b, j + 1),
            b'}' => break,
            _ => return None,
        }
    }
    if !seen[0] {
        return None;
    }
    let n = j + 1;
    // As `json_stream::de_one`: a value reaching the end of the bytes may be cut.
    (n < b.len()).then_some((head, n))
}

/// An id value (decimal string or non-negative integer, as [`IdNum`] reads the common case)
/// at `b[j]` and its end.
fn fast_id(b: &[u8], j: usize) -> Option<(u64, usize)> {
    use crate::json_fast::{plain_string, small_int, small_uint};
    if *b.get(j)? == b'"' {
        let (digits, end) = plain_string(b, j)?;
        return Some((small_uint(digits)?, end));
    }
    let (v, end) = small_int(b, j)?;
    (v >= 0).then_some((v as u64, end))
}

/// [`EdgeEnds`] of an edge object read by [`crate::json_fast`] (ids as in [`fast_id`], every
/// other key skipped and validated), with the element's length; `None` for anything else.
fn fast_edge_ends(b: &[u8]) -> Option<(EdgeEnds, usize)> {
    use crate::json_fast::{plain_string, skip_value, skip_ws};
    let mut j = skip_ws(b, 0);
    if *b.get(j)? != b'{' {
        return None;
    }
    let (mut pred, mut succ) = (None, None);
    j = skip_ws(b, j + 1);
    loop {
        let (key, after) = plain_string(b, j)?;
        j = skip_ws(b, after);
        if *b.get(j)? != b':' {
            return None;
        }
        j = skip_ws(b, j + 1);
        let slot = match key {
            b"pred" => Some(&mut pred),
            b"succ" => Some(&mut succ),
            _ => None,
        };
        j = match slot {
            Some(slot) => {
                if slot.is_some() {
                    return None; // a repeated field: serde reports it
                }
                let (v, end) = fast_id(b, j)?;
                *slot = Some(v);
                end
            }
            None => skip_value(b, j)?,
        };
        j = skip_ws(b, j);
        match *b.get(j)? {
            b',' => j = skip_ws(b, j + 1),
            b'}' => break,
            _ => return None,
        }
    }
    let n = j + 1;
    (n < b.len()).then_some((EdgeEnds(pred?, succ?), n))
}

/// Appends a task head and its byte span (lean reading).
fn push_task_head(b: &mut Builder, t: &TaskHead<'_>, offset: u64, len: usize) {
    let tasks = &mut b.deps.tasks;
    if tasks.arg_offsets.is_empty() {
        tasks.arg_offsets.push(0);
    }
    let k = t.kernel_ids.as_ref().map_or(([-1; 3], false), |k| (k.ids, k.ok));
    if !k.1 {
        b.deps.missing_kernel_ids = true;
    }
    b.note_odd_values(t.task_id.0, t.block_num, &k.0);
    let tasks = &mut b.deps.tasks;
    tasks.task_id.push(t.task_id.0);
    tasks.kernel_ids.push(k.0);
    tasks.has_kernel_ids.push(k.1);
    tasks.block_num.push(t.block_num.map_or(1, |n| n.clamp(1, i64::from(u32::MAX)) as u32));
    tasks.early_dispatch.push(t.early_dispatch.unwrap_or(false));
    tasks.scope.push(match t.scope.as_deref() {
        Some("auto") => Scope::Auto,
        Some("manual") => Scope::Manual,
        _ => Scope::Other,
    });
    tasks.arg_offsets.push(0);
    b.deps.task_offsets.push(offset);
    b.deps.task_lens.push(u32::try_from(len).unwrap_or(u32::MAX));
}

/// An edge's `(pred, succ)` only (lean reading), from an object or a pair.
struct EdgeEnds(u64, u64);

impl<'de> Deserialize<'de> for EdgeEnds {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Obj {
            pred: IdNum,
            succ: IdNum,
        }
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = EdgeEnds;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an edge object or a [pred, succ] pair")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<EdgeEnds, A::Error> {
                let pred: IdNum = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let succ: IdNum = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
                while seq.next_element::<de::IgnoredAny>()?.is_some() {}
                Ok(EdgeEnds(pred.0, succ.0))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<EdgeEnds, A::Error> {
                let o = Obj::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(EdgeEnds(o.pred.0, o.succ.0))
            }
        }
        d.deserialize_any(V)
    }
}

/// Re-reads one task element (the bytes of a [`Deps::task_offsets`]/[`Deps::task_lens`] span
/// of a lean read): a one-task [`Deps`] with its arguments, or `None` if the bytes are not
/// a task object.
pub fn parse_task(bytes: &[u8]) -> Option<Deps> {
    let mut b = Builder::default();
    let t: TaskRec<'_> = serde_json::from_slice(bytes).ok()?;
    push_task(&mut b, t);
    Some(finish(b))
}

/// Re-reads the `k`-th task element of `bytes`, a piece of deps.json's `tasks` array that
/// starts at a task (elements separated by commas), as [`parse_task`] reads one: `None` when
/// the piece does not hold that many tasks.
pub fn parse_task_at(bytes: &[u8], k: usize) -> Option<Deps> {
    use crate::json_fast::{skip_value, skip_ws};
    let mut at = skip_ws(bytes, 0);
    for _ in 0..k {
        at = skip_ws(bytes, skip_value(bytes, at)?);
        if bytes.get(at) != Some(&b',') {
            return None;
        }
        at = skip_ws(bytes, at + 1);
    }
    let t: TaskRec<'_> = serde_json::Deserializer::from_slice(bytes.get(at..)?).into_iter::<TaskRec<'_>>().next()?.ok()?;
    let mut b = Builder::default();
    push_task(&mut b, t);
    Some(finish(b))
}

/// Streams tasks into the builder.
struct TasksField<'b>(&'b mut Builder);
/// Streams tensors into the builder.
struct TensorsField<'b>(&'b mut Builder);
/// Streams edges into the builder.
struct EdgesField<'b>(&'b mut Builder);

impl<'de> de::DeserializeSeed<'de> for TasksField<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        struct V<'b>(&'b mut Builder);
        impl<'de> Visitor<'de> for V<'_> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a `tasks` array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
                let b = self.0;
                while let Some(t) = seq.next_element::<TaskRec<'de>>()? {
                    push_task(b, t);
                }
                Ok(())
            }
        }
        d.deserialize_seq(V(self.0))
    }
}

impl<'de> de::DeserializeSeed<'de> for TensorsField<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        struct V<'b>(&'b mut Builder);
        impl<'de> Visitor<'de> for V<'_> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a `tensors` array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
                let b = self.0;
                while let Some(t) = seq.next_element::<TensorRec<'de>>()? {
                    push_tensor(b, &t);
                }
                Ok(())
            }
        }
        d.deserialize_seq(V(self.0))
    }
}

impl<'de> de::DeserializeSeed<'de> for EdgesField<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        struct V<'b>(&'b mut Builder);
        impl<'de> Visitor<'de> for V<'_> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an `edges` array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
                let b = self.0;
                while let Some(e) = seq.next_element::<EdgeRec<'de>>()? {
                    push_edge_rec(b, e);
                }
                Ok(())
            }
        }
        d.deserialize_seq(V(self.0))
    }
}

fn push_edge(b: &mut Builder, pred: u64, succ: u64, o: Option<&EdgeObj<'_>>) {
    let source = o.and_then(|o| o.source.as_deref()).map_or(u32::MAX, |s| b.sources.intern(s));
    let flags = o.and_then(|o| o.flags.as_ref()).map_or(0u8, |f| {
        f.iter().fold(0u8, |acc, x| match x.as_ref() {
            "wait" => acc | FLAG_WAIT,
            "retain" => acc | FLAG_RETAIN,
            _ => acc,
        })
    });
    let overlap = match o.and_then(|o| o.overlap.as_deref()) {
        None => Overlap::None,
        Some("covered") => Overlap::Covered,
        Some("no_overlap") => Overlap::NoOverlap,
        Some(_) => Overlap::Other,
    };
    let consumer_dtype = b.dtype(o.and_then(|o| o.consumer_dtype.as_deref()));
    let cs = b.dims(o.and_then(|o| o.consumer_shape.as_deref()));
    let cst = b.dims(o.and_then(|o| o.consumer_strides.as_deref()));
    let ps = b.dims(o.and_then(|o| o.producer_shape.as_deref()));
    let pst = b.dims(o.and_then(|o| o.producer_strides.as_deref()));
    let e = &mut b.deps.edges;
    e.pred.push(pred);
    e.succ.push(succ);
    e.arg.push(o.and_then(|o| o.arg).unwrap_or(-1));
    e.source.push(source);
    e.flags.push(flags);
    e.overlap.push(overlap);
    e.tensor_id.push(o.and_then(|o| o.tensor_id).map(|x| x.0));
    e.consumer_dtype.push(consumer_dtype);
    e.consumer_shape.push(cs);
    e.consumer_strides.push(cst);
    e.consumer_start_offset.push(o.and_then(|o| o.consumer_start_offset).map(|x| x.0));
    e.producer_shape.push(ps);
    e.producer_strides.push(pst);
    e.producer_start_offset.push(o.and_then(|o| o.producer_start_offset).map(|x| x.0));
}

/// Top level: a map visited key by key so the big arrays stream into the builder.
struct Top<'b>(&'b mut Builder);

impl<'de> de::DeserializeSeed<'de> for Top<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        struct V<'b>(&'b mut Builder);
        impl<'de> Visitor<'de> for V<'_> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a deps.json object with `tasks`, `tensors` and `edges`")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
                let b = self.0;
                // A repeated key is an error, as for the derived readers (records, manifest):
                // merging two `tasks` arrays would silently double the graph.
                let mut seen = [false; 5];
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    let slot = ["tasks", "tensors", "edges", "version", "runtime"].iter().position(|k| *k == key.as_ref());
                    if let Some(i) = slot {
                        if seen.get(i).copied().unwrap_or(false) {
                            return Err(de::Error::custom(format_args!("duplicate key `{key}` (each top-level key may appear once)")));
                        }
                        if let Some(s) = seen.get_mut(i) {
                            *s = true;
                        }
                    }
                    match key.as_ref() {
                        "tasks" => map.next_value_seed(TasksField(b))?,
                        "tensors" => map.next_value_seed(TensorsField(b))?,
                        "edges" => map.next_value_seed(EdgesField(b))?,
                        "version" => b.deps.version = map.next_value::<Option<i64>>()?,
                        "runtime" => b.deps.runtime = map.next_value::<Option<String>>()?,
                        _ => {
                            map.next_value::<de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(())
            }
        }
        d.deserialize_map(V(self.0))
    }
}

/// Parses a `deps.json`. `path` is only used in errors.
pub fn parse(path: &str, bytes: &[u8]) -> Result<Deps, FormatError> {
    use de::DeserializeSeed;
    let mut b = Builder::default();
    let mut json = serde_json::Deserializer::from_slice(bytes);
    Top(&mut b).deserialize(&mut json).map_err(|e| json_error(path, bytes, &e))?;
    json.end().map_err(|e| json_error(path, bytes, &e))?;
    Ok(finish(b))
}

/// The checks after all keys were read.
fn finish(b: Builder) -> Deps {
    let mut deps = b.deps;
    deps.shrink_to_fit();
    if deps.tasks.arg_offsets.is_empty() {
        deps.tasks.arg_offsets.push(0);
    }
    deps.dtype_names = b.dtypes.names;
    deps.source_names = b.sources.names;
    if deps.tasks.is_empty() && deps.edges.pred.is_empty() && deps.tensors.tensor_id.is_empty() {
        deps.warnings.push(Warning::analysis(K::DepsEmpty, "deps.json has no tasks, tensors or edges"));
    }
    if deps.missing_kernel_ids {
        deps.warnings.push(Warning::analysis(
            K::DepsNoKernelIds,
            "some tasks have no valid `kernel_ids` (older deps.json): their functions cannot be resolved",
        ));
    }
    // (the tasks named, joined; how many more), and the English list.
    let named = |odd: &[(usize, u64, i64)], count: usize, what: &str| {
        let list: Vec<String> = odd.iter().map(|&(i, id, v)| format!("tasks[{i}] ({}: {what} {v})", TaskId(id))).collect();
        let more = count.saturating_sub(odd.len());
        let tail = if more > 0 { format!(", and {more} more") } else { String::new() };
        (list.join(", "), more, tail)
    };
    if b.low_block_num_count > 0 {
        let (list, more, tail) = named(&b.low_block_num, b.low_block_num_count, "block_num");
        deps.warnings.push(
            Warning::analysis(
                K::DepsBlockNumBelowOne,
                format!("{} task(s) with a block_num below 1, read as 1: {list}{tail}", b.low_block_num_count),
            )
            .count("count", b.low_block_num_count)
            .text("tasks", list)
            .count("more", more),
        );
    }
    if b.low_kernel_id_count > 0 {
        let (list, more, tail) = named(&b.low_kernel_id, b.low_kernel_id_count, "kernel id");
        deps.warnings.push(
            Warning::analysis(
                K::DepsKernelIdBelowMinusOne,
                format!("{} task(s) with a kernel id below -1 (only -1 means none), not resolved: {list}{tail}", b.low_kernel_id_count),
            )
            .count("count", b.low_kernel_id_count)
            .text("tasks", list)
            .count("more", more),
        );
    }
    deps
}

// ------------------------------------------------------------------------------------------
// Slice-by-slice reading (the worker's path for large files).

impl json_stream::Target for Builder {
    fn layout(&self, key: &[u8]) -> Option<(usize, json_stream::Layout)> {
        let slot = match key {
            b"tasks" => 0,
            b"tensors" => 1,
            b"edges" => 2,
            _ => return None,
        };
        Some((slot, json_stream::Layout::Flat))
    }
    fn open(&mut self, _slot: usize) {}
    fn group(&mut self, _slot: usize) {}
    fn element(&mut self, slot: usize, bytes: &[u8], offset: u64) -> json_stream::Elem {
        if self.lean {
            return match slot {
                0 => match fast_task_head(bytes) {
                    Some((t, n)) => {
                        push_task_head(self, &t, offset, n);
                        json_stream::Elem::Done(n)
                    }
                    None => json_stream::de_one(bytes, |t, n| push_task_head(self, &t, offset, n)),
                },
                1 => json_stream::de_one(bytes, |_: de::IgnoredAny, _| self.deps.skipped_tensors += 1),
                _ => match fast_edge_ends(bytes) {
                    Some((e, n)) => {
                        self.deps.edges.pred.push(e.0);
                        self.deps.edges.succ.push(e.1);
                        json_stream::Elem::Done(n)
                    }
                    None => json_stream::de_one(bytes, |e: EdgeEnds, _| {
                        self.deps.edges.pred.push(e.0);
                        self.deps.edges.succ.push(e.1);
                    }),
                },
            };
        }
        match slot {
            0 => json_stream::de_one(bytes, |t, _| push_task(self, t)),
            1 => json_stream::de_one(bytes, |t, _| push_tensor(self, &t)),
            _ => json_stream::de_one(bytes, |e, _| push_edge_rec(self, e)),
        }
    }
}

/// A `deps.json` read slice by slice: [`DepsStream::feed`] each slice in order, then
/// [`DepsStream::finish`]. Tasks, tensors and edges go into columns as their elements
/// complete, so the file's text is never held whole. The result equals [`parse`]'s; when the
/// file is malformed in any way `finish` returns `None` and the caller parses the whole file
/// with [`parse`] for the exact error position.
#[derive(Default)]
pub struct DepsStream {
    split: json_stream::Splitter,
    builder: Builder,
}

impl DepsStream {
    pub fn new() -> Self {
        Self::default()
    }

    /// A lean reader for a resident model that re-reads a task's arguments on demand: tasks
    /// keep their ids, `kernel_ids`, `block_num`, scope and early-dispatch flag, plus their
    /// byte span in the file ([`Deps::task_offsets`], [`Deps::task_lens`]; re-read one with
    /// [`parse_task`]); `args` are not kept, `tensors` are skipped, and edges keep only
    /// `pred`/`succ` (the other edge columns stay empty).
    pub fn lean() -> Self {
        let mut s = Self::default();
        s.builder.lean = true;
        s
    }

    /// Feeds the next slice.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.split.feed(bytes, &mut self.builder);
    }

    /// The parsed deps.json, or `None` if the file must be parsed whole for its error.
    pub fn finish(self) -> Option<Deps> {
        use de::DeserializeSeed;
        let side = self.split.finish()?;
        let mut b = self.builder;
        let mut json = serde_json::Deserializer::from_slice(&side);
        Top(&mut b).deserialize(&mut json).ok()?;
        json.end().ok()?;
        Some(finish(b))
    }
}

#[cfg(test)]
mod fast_head_tests {
    use super::*;

    type Head = (u64, Option<String>, Option<bool>, Option<([i64; 3], bool)>, Option<i64>, usize);

    fn serde_head(b: &[u8]) -> Option<Head> {
        let mut out = None;
        if let json_stream::Elem::Done(_) = json_stream::de_one(b, |t: TaskHead<'_>, n| {
            out = Some((t.task_id.0, t.scope.map(Cow::into_owned), t.early_dispatch, t.kernel_ids.map(|k| (k.ids, k.ok)), t.block_num, n));
        }) {
            return out;
        }
        None
    }

    /// Where the fast path answers, it answers what serde answers; the odd shapes go to serde.
    #[test]
    fn fast_task_head_equals_serde() {
        let cases: [&[u8]; 9] = [
            br#"{"task_id":"8589934592","scope":"auto","early_dispatch":false,"kernel_ids":[-1,3,-1],"block_num":1,"args":[{"idx":0,"type":"INOUT","tensor_id":"1","shape":[16,16],"x":-1.5e3,"n":null,"t":true}]},"#,
            br#"{ "task_id" : 7 , "kernel_ids" : [ 1 , 2 , 3 ] , "block_num" : -4 } ,"#,
            br#"{"task_id":"007"},"#,
            br#"{"task_id":" 7 "},"#,
            br#"{"task_id":"7","task_id":"8"},"#,
            br#"{"task_id":"7","kernel_ids":[1,2]},"#,
            br#"{"task_id":"7","args":[1,]},"#,
            br#"{"task_id":"7","scope":"a\"b"},"#,
            br#"{"task_id":"7","early_dispatch":null,"block_num":2.0},"#,
        ];
        for (i, c) in cases.iter().enumerate() {
            let fast = fast_task_head(c).map(|(t, n)| {
                (t.task_id.0, t.scope.map(Cow::into_owned), t.early_dispatch, t.kernel_ids.map(|k| (k.ids, k.ok)), t.block_num, n)
            });
            if let Some(f) = &fast {
                assert_eq!(Some(f.clone()), serde_head(c), "case {i}");
            }
            assert_eq!(fast.is_some(), i < 2, "case {i}: fast path taken = {}", fast.is_some());
        }
        let edges: [&[u8]; 5] = [
            br#"{"pred":"4294967296","succ":"8589934592","arg":0,"flags":["wait"],"consumer_shape":[16,16]},"#,
            br#"{ "succ" : 5 , "pred" : 4 } ]"#,
            br#"{"pred":"1","succ":"2","pred":"3"},"#,
            br#"{"pred":"1"},"#,
            br"[1, 2],",
        ];
        for (i, c) in edges.iter().enumerate() {
            let fast = fast_edge_ends(c).map(|(e, n)| (e.0, e.1, n));
            let mut slow = None;
            if let json_stream::Elem::Done(_) = json_stream::de_one(c, |e: EdgeEnds, n| slow = Some((e.0, e.1, n))) {}
            if fast.is_some() {
                assert_eq!(fast, slow, "edge {i}");
            }
            assert_eq!(fast.is_some(), i < 2, "edge {i}");
        }
        // Cut by the end of the bytes received: not taken.
        assert!(fast_task_head(br#"{"task_id":"7","args":[1,2"#).is_none());
        assert!(fast_task_head(br#"{"task_id":"7"}"#).is_none());
    }
}
