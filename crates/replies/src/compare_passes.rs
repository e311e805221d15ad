//! The "Compiler runs" comparison's replies, for the page's compare view (through the worker)
//! and `pypto-viewer compare-passes`: two pass dumps (A = the baseline, B = this run) — their
//! pass lists aligned with what differs per pass (`pypto_analysis::pass_compare`: the rules),
//! A's snapshot against B's in the IR Pass Trace's diff view (the same `pass_trace` diff
//! code, A as the before side), and the memory high-water marks of both dumps' memory maps
//! (`memory_map`, as the Memory Reuse view builds them) per function × space.
//!
//! The snapshots come through the callers' readers: [`Dump::read`] takes a file name → bytes
//! closure (the CLI reads files; tests read fixtures), [`DumpSide`] a lookup of texts already
//! read (the worker reads `File`s asynchronously and keeps the pass lists it built).

use std::collections::HashMap;

use pypto_analysis::function_filter::function_regions;
use pypto_analysis::memory_map::{Chip, SPACE_ORDER};
use pypto_analysis::pass_compare::{self, Pairing, Side};
use pypto_analysis::pass_trace::{self, diff_hunks, split_lines, Decoded, PassEntry, PassList};
use pypto_formats::passes_dump::{self, FRONTEND};
use pypto_protocol::compare_passes::{
    DumpProblems, MemoryCompareRow, MemoryComparison, PassComparison, PassPairRow, PassPairing, PassSideRow,
};
use pypto_protocol::memory_map::MemoryMapData;
use pypto_protocol::pass_trace::PassDiffData;
use pypto_vocab::MemoryNote;

use crate::pass_trace::{build_diff, snapshot_problem, DiffInput};

/// One compared dump: its dataset id (the CLI numbers A 0 and B 1), its pass list and a
/// lookup of its snapshot texts by file name.
pub struct DumpSide<'a, F> {
    pub dataset_id: u32,
    pub list: &'a PassList,
    pub text: F,
}

/// A pass dump read whole: its directory's file names, the snapshot texts (with where their
/// bytes were not UTF-8) and its pass list.
#[derive(Debug, Clone, Default)]
pub struct Dump {
    pub names: Vec<String>,
    texts: HashMap<String, Decoded<String>>,
    pub list: PassList,
}

impl Dump {
    /// Reads the dump whose directory holds `names`: `00_frontend.py` and every snapshot
    /// through `read` (file name → bytes, or why not), then builds its pass list
    /// (`pass_trace::pass_list`: a file that could not be read is listed as unreadable).
    pub fn read(names: Vec<String>, mut read: impl FnMut(&str) -> Result<Vec<u8>, String>) -> Dump {
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let listing = passes_dump::validate(&refs);
        let wanted = listing.has_frontend.then_some(FRONTEND).into_iter().chain(listing.snapshots.iter().map(|s| s.file_name.as_str()));
        let mut texts = HashMap::new();
        let mut failed: HashMap<&str, String> = HashMap::new();
        for name in wanted {
            match read(name) {
                Ok(bytes) => {
                    texts.insert(name.to_owned(), Decoded::from_bytes(name, &bytes));
                }
                Err(e) => {
                    failed.insert(name, e);
                }
            }
        }
        let list = pass_trace::pass_list(&listing, &refs, |n| match texts.get(n) {
            Some(d) => Ok(Decoded { text: d.text.as_str(), undecodable: d.undecodable.clone() }),
            None => Err(failed.get(n).cloned().unwrap_or_else(|| "not read".to_owned())),
        });
        Dump { names, texts, list }
    }

    /// The text of a snapshot read by [`Dump::read`].
    pub fn text(&self, name: &str) -> Option<&str> {
        self.texts.get(name).map(|d| d.text.as_str())
    }

    /// This dump as a [`DumpSide`] of dataset `dataset_id`.
    pub fn side<'s>(&'s self, dataset_id: u32) -> DumpSide<'s, impl Fn(&str) -> Option<&'s str> + 's> {
        DumpSide { dataset_id, list: &self.list, text: |n: &str| self.text(n) }
    }
}

fn side_row(list: &PassList, p: Option<usize>) -> Option<PassSideRow> {
    let p = p?;
    let e = list.passes.get(p)?;
    Some(PassSideRow {
        position: p as u32,
        index: e.index,
        name: e.pass_name.clone(),
        file_name: e.file_name.clone(),
        added: e.added,
        removed: e.removed,
        no_op: e.no_op,
    })
}

fn problems(list: &PassList) -> DumpProblems {
    DumpProblems {
        problems: list.problems.clone(),
        unreadable: list.unreadable.iter().map(|(f, r)| format!("{f}: {r}")).collect(),
        snapshot_problems: list.snapshot_problems().map(snapshot_problem).collect(),
    }
}

/// `PassCompare`: A's and B's pass lists aligned, with what differs per pass.
pub fn comparison<'t, FA, FB>(a: &DumpSide<'_, FA>, b: &DumpSide<'_, FB>) -> PassComparison
where
    FA: Fn(&str) -> Option<&'t str>,
    FB: Fn(&str) -> Option<&'t str>,
{
    let c = pass_compare::compare(&Side { list: a.list, text: &a.text }, &Side { list: b.list, text: &b.text });
    let count = |f: &dyn Fn(&pass_compare::PairRow) -> bool| c.rows.iter().filter(|r| f(r)).count() as u32;
    PassComparison {
        baseline_id: a.dataset_id,
        current_id: b.dataset_id,
        rows: c
            .rows
            .iter()
            .map(|r| PassPairRow {
                a: side_row(a.list, r.a),
                b: side_row(b.list, r.b),
                pairing: match r.pairing {
                    Pairing::Same => PassPairing::Same,
                    Pairing::Renamed => PassPairing::Renamed,
                    Pairing::OnlyA => PassPairing::OnlyBaseline,
                    Pairing::OnlyB => PassPairing::OnlyCurrent,
                },
                effect_differs: r.effect_differs,
                a_snapshot: r.a_snapshot.map(|p| p as u32),
                b_snapshot: r.b_snapshot.map(|p| p as u32),
                snapshots_differ: r.snapshots_differ,
                cross_added: r.cross_added,
                cross_removed: r.cross_removed,
            })
            .collect(),
        frontends_differ: c.frontends_differ,
        frontend_cross_added: c.frontend_cross_added,
        frontend_cross_removed: c.frontend_cross_removed,
        first_output_difference: c.first_output_difference().map(|p| p as u32),
        first_effect_difference: c.first_effect_difference().map(|p| p as u32),
        output_differences: count(&|r| r.snapshots_differ),
        effect_differences: count(&|r| r.effect_differs),
        only_baseline: count(&|r| r.pairing == Pairing::OnlyA),
        only_current: count(&|r| r.pairing == Pairing::OnlyB),
        baseline: problems(a.list),
        current: problems(b.list),
    }
}

/// The file name and text of `side`'s snapshot at position `pass` (`None` = the frontend).
fn snapshot<'t, F: Fn(&str) -> Option<&'t str>>(
    label: &str,
    side: &DumpSide<'_, F>,
    pass: Option<u32>,
) -> Result<(String, &'t str), String> {
    let file = match pass {
        Some(p) => side.list.passes.get(p as usize).map(|e| e.file_name.clone()).ok_or_else(|| format!("{label} has no pass {p}"))?,
        None => FRONTEND.to_owned(),
    };
    let text = (side.text)(&file).ok_or_else(|| format!("{label}: {file} was not read"))?;
    Ok((file, text))
}

/// `PassCrossDiff`: A's snapshot at `a_pass` (before) against B's at `b_pass` (after), whole
/// file or `function`, as the diff view shows a pass — `pass_trace::build_diff` over the
/// line diff of the two texts. A position that does not exist or a snapshot that was not read
/// is said in `error`.
pub fn cross_diff<'t, FA, FB>(
    a: &DumpSide<'_, FA>,
    b: &DumpSide<'_, FB>,
    a_pass: Option<u32>,
    b_pass: Option<u32>,
    function: Option<&str>,
) -> PassDiffData
where
    FA: Fn(&str) -> Option<&'t str>,
    FB: Fn(&str) -> Option<&'t str>,
{
    let pass = b_pass.unwrap_or(u32::MAX);
    let sides = snapshot("A", a, a_pass).and_then(|sa| Ok((sa, snapshot("B", b, b_pass)?)));
    let ((a_file, a_text), (b_file, b_text)) = match sides {
        Ok(s) => s,
        Err(e) => {
            return PassDiffData {
                dataset_id: b.dataset_id,
                pass,
                function: function.map(str::to_owned),
                error: Some(e),
                ..PassDiffData::default()
            }
        }
    };
    let hunks = diff_hunks(&split_lines(a_text), &split_lines(b_text));
    let entry = PassEntry {
        index: b_pass.and_then(|p| b.list.passes.get(p as usize)).map_or(0, |e| e.index),
        pass_name: String::new(),
        file_name: format!("B: {b_file}"),
        previous_file: format!("A: {a_file}"),
        added: 0,
        removed: 0,
        no_op: false,
        log_file: None,
        hunks,
        problems: Vec::new(),
    };
    let (before_regions, after_regions) = (function_regions(&a_file, a_text), function_regions(&b_file, b_text));
    let input = DiffInput {
        entry: &entry,
        before_text: a_text,
        after_text: b_text,
        before_regions: before_regions.as_deref(),
        after_regions: after_regions.as_deref(),
        log: None,
    };
    build_diff(b.dataset_id, pass, &input, function)
}

fn space_rank(space: &str) -> usize {
    SPACE_ORDER.iter().position(|s| *s == space).unwrap_or(SPACE_ORDER.len())
}

/// `MemoryCompare`: the high-water marks of A's map `a` and B's map `b` (each as the Memory
/// Reuse view builds it, `error` set when a dump has none) per function (matched by name) ×
/// space, sorted by |Δ| descending (ties: A's function order, then B's new functions, then
/// space order). The limits are the capacities of `requested` (a chip name or arch), else of
/// the chip B's map used, else of A's, else `Ascend910B`.
pub fn memory_comparison(
    baseline_id: u32,
    current_id: u32,
    a: &MemoryMapData,
    b: &MemoryMapData,
    requested: Option<&str>,
) -> MemoryComparison {
    let mut out = MemoryComparison {
        baseline_id,
        current_id,
        a_file: a.file.clone(),
        b_file: b.file.clone(),
        a_chip: a.chip.clone(),
        b_chip: b.chip.clone(),
        a_chip_source: a.chip_source.clone(),
        b_chip_source: b.chip_source.clone(),
        ..MemoryComparison::default()
    };
    out.errors.extend(a.error.iter().map(|e| format!("A: {e}")));
    out.errors.extend(b.error.iter().map(|e| format!("B: {e}")));
    out.snapshot_problems = a.snapshot_problems.iter().chain(&b.snapshot_problems).cloned().collect();
    let chip = requested
        .and_then(Chip::from_name_or_arch)
        .or_else(|| Chip::from_name_or_arch(&b.chip))
        .or_else(|| Chip::from_name_or_arch(&a.chip))
        .unwrap_or(Chip::Ascend910B);
    chip.name().clone_into(&mut out.chip);
    if let Some(r) = requested.filter(|r| Chip::from_name_or_arch(r).is_none()) {
        out.notes.push(MemoryNote::UnknownChip { requested: r.to_owned(), chip: chip.name().to_owned() });
    }
    if !a.chip.is_empty() && !b.chip.is_empty() && a.chip != b.chip {
        out.notes.push(MemoryNote::ChipsDiffer {
            a_chip: a.chip.clone(),
            a_source: a.chip_source.clone(),
            b_chip: b.chip.clone(),
            b_source: b.chip_source.clone(),
            chip: chip.name().to_owned(),
        });
    }
    for (side, d) in pypto_vocab::Side::BOTH.into_iter().zip([a, b]) {
        if !d.chip.is_empty() && !d.chip_detected {
            out.notes.push(MemoryNote::ChipAssumed { side, source: d.chip_source.clone() });
        }
    }
    let mut functions: Vec<&str> = Vec::new();
    for f in a.functions.iter().chain(&b.functions) {
        if !functions.contains(&f.name.as_str()) {
            functions.push(&f.name);
        }
    }
    let hwm = |d: &MemoryMapData, function: &str, space: &str| {
        d.functions.iter().find(|f| f.name == function).and_then(|f| f.spaces.iter().find(|s| s.space == space)).map(|s| s.hwm_bytes)
    };
    let mut rows: Vec<(usize, usize, MemoryCompareRow)> = Vec::new();
    for (fi, function) in functions.iter().enumerate() {
        let mut spaces: Vec<&str> = Vec::new();
        for d in [a, b] {
            for f in d.functions.iter().filter(|f| f.name == *function) {
                for s in &f.spaces {
                    if !spaces.contains(&s.space.as_str()) {
                        spaces.push(&s.space);
                    }
                }
            }
        }
        for space in spaces {
            let (ah, bh) = (hwm(a, function, space), hwm(b, function, space));
            let row = MemoryCompareRow {
                function: (*function).to_owned(),
                space: space.to_owned(),
                a_hwm_bytes: ah,
                b_hwm_bytes: bh,
                delta_bytes: bh.unwrap_or(0).saturating_sub(ah.unwrap_or(0)),
                limit_bytes: chip.capacity_bytes(space).map(u64::cast_signed),
            };
            rows.push((fi, space_rank(space), row));
        }
    }
    rows.sort_by(|x, y| y.2.delta_bytes.unsigned_abs().cmp(&x.2.delta_bytes.unsigned_abs()).then((x.0, x.1).cmp(&(y.0, y.1))));
    out.rows = rows.into_iter().map(|(_, _, r)| r).collect();
    out
}
