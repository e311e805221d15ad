//! `pypto-viewer bench-passes <dir> [--lines N] [--iterations N] [--seed S] [--no-python]
//! [--json]`: times the IR Pass Trace diff (issue 7 item 11) on the largest `passes_dump*`
//! under `<dir>` and on a generated pair of `N`-line snapshots (default 200 000), and the
//! same work in Python `difflib` the way pypto's `ir_trace` does it
//! (`crates/cli/bench/difflib_passes.py`, run with `python3`), then prints the ratios.
//!
//! Stages (minimum wall time over the iterations; files are read before timing):
//! - `counts`: every snapshot against the previous one — no-op check, Histogram line diff,
//!   +added/−removed — and the snapshot check of every distinct text (`python_check`): what the
//!   pass list does (difflib's side only counts);
//! - `full`: the same plus the diff rows, folding (3 context lines) and the token-level
//!   refinement of every replaced line pair (what showing every pass's diff needs);
//! - `regions`: the function filter's regions of every snapshot (dump only).
//!
//! `--pair BEFORE AFTER` times that pair of files instead of a generated one; `--write-pair DIR`
//! also writes the generated pair to `DIR/before.py` and `DIR/after.py` (for the browser bench,
//! `cargo xtask bench-passes-browser`, which times the same bytes in wasm).
//!
//! The generated pair is IR-like text (kernels of annotated tile statements); the after side
//! has ~2 % of lines rewritten (`MemRef` offsets), ~0.5 % inserted and ~0.5 % deleted. It is
//! written to a temporary directory so Python reads the same bytes. The counts of both tools
//! are compared and a mismatch is reported.

use pypto_analysis::{function_filter, pass_trace};
use pypto_formats::passes_dump;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Usage line for the `bench-passes` subcommand.
pub const USAGE: &str = "  pypto-viewer bench-passes <dir> [--lines N] [--iterations N] [--seed S] [--no-python] [--ir-trace DIR] [--pair BEFORE AFTER] [--write-pair DIR] [--json]";

#[derive(Debug, Clone, PartialEq)]
struct Args {
    dir: String,
    lines: usize,
    iterations: usize,
    seed: u64,
    python: bool,
    /// Directory holding pypto's `ir_trace` package, to time the real tool too.
    ir_trace: Option<String>,
    /// Files to time instead of the generated pair.
    pair: Option<(String, String)>,
    /// Directory to write the generated pair to.
    write_pair: Option<String>,
    json: bool,
}

fn parse_args(args: &[&str]) -> Result<Args, String> {
    let mut out = Args {
        dir: String::new(),
        lines: 200_000,
        iterations: 5,
        seed: 7,
        python: true,
        ir_trace: None,
        pair: None,
        write_pair: None,
        json: false,
    };
    let mut it = args.iter();
    while let Some(&a) = it.next() {
        let mut num = |name: &str| -> Result<u64, String> {
            it.next().and_then(|v| v.parse::<u64>().ok()).ok_or_else(|| format!("{name} needs a number"))
        };
        match a {
            "--lines" => out.lines = num("--lines")? as usize,
            "--iterations" => out.iterations = (num("--iterations")? as usize).max(1),
            "--seed" => out.seed = num("--seed")?,
            "--no-python" => out.python = false,
            "--ir-trace" => {
                out.ir_trace = Some(it.next().ok_or("--ir-trace needs a directory")?.to_string());
            }
            "--pair" => {
                let b = it.next().ok_or("--pair needs two files")?;
                let a = it.next().ok_or("--pair needs two files")?;
                out.pair = Some(((*b).to_owned(), (*a).to_owned()));
            }
            "--write-pair" => {
                out.write_pair = Some(it.next().ok_or("--write-pair needs a directory")?.to_string());
            }
            "--json" => out.json = true,
            s if !s.starts_with("--") && out.dir.is_empty() => s.clone_into(&mut out.dir),
            s => return Err(format!("unknown argument {s}")),
        }
    }
    if out.dir.is_empty() {
        return Err("missing <dir>".to_owned());
    }
    Ok(out)
}

/// The `passes_dump*` directory under `root` with the most snapshots (or `root` itself).
fn find_dump(root: &Path) -> Option<PathBuf> {
    // total bytes of the snapshots: the largest dump is the interesting one
    let count = |d: &Path| -> u64 {
        std::fs::read_dir(d).map_or(0, |r| {
            r.filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().ends_with(".py"))
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
    };
    if root.join(passes_dump::FRONTEND).is_file() {
        return Some(root.to_path_buf());
    }
    let mut best: Option<(u64, PathBuf)> = None;
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.filter_map(Result::ok) {
            let p = e.path();
            if !p.is_dir() {
                continue;
            }
            if e.file_name().to_string_lossy().starts_with("passes_dump") && p.join(passes_dump::FRONTEND).is_file() {
                let n = count(&p);
                if best.as_ref().is_none_or(|b| n > b.0 || (n == b.0 && p < b.1)) {
                    best = Some((n, p.clone()));
                }
            }
            stack.push(p);
        }
    }
    best.map(|b| b.1)
}

/// A file name and its text.
type NamedText = (String, String);

/// The dump's files in memory: (file names, frontend + snapshot texts in order).
fn load_dump(dir: &Path) -> Result<(Vec<String>, Vec<NamedText>), String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let listing = passes_dump::validate(&refs);
    let mut texts = Vec::new();
    let order = std::iter::once(passes_dump::FRONTEND.to_owned())
        .chain(listing.snapshots.iter().filter(|s| s.index > 0).map(|s| s.file_name.clone()));
    for n in order {
        let t = std::fs::read_to_string(dir.join(&n)).map_err(|e| format!("{}: {e}", dir.join(&n).display()))?;
        texts.push((n, t));
    }
    Ok((names, texts))
}

/// Counts of every pass (the pass list's work, which also checks each snapshot).
fn trace_counts(names: &[String], texts: &[(String, String)]) -> Vec<(u32, u32)> {
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let listing = passes_dump::validate(&refs);
    let list = pass_trace::pass_list(&listing, &refs, |n| {
        texts.iter().find(|t| t.0 == n).map(|t| t.1.as_str()).ok_or_else(|| format!("{n} not loaded"))
    });
    list.passes.iter().map(|p| (p.added, p.removed)).collect()
}

/// One pair's full diff work: rows, folding, refinement of replaced pairs. Returns the
/// counts and the number of refined pairs.
fn full_pair(before: &str, after: &str) -> ((u32, u32), usize) {
    if before == after {
        return ((0, 0), 0);
    }
    let (b, a) = (pass_trace::split_lines(before), pass_trace::split_lines(after));
    let d = pass_trace::diff_lines(&b, &a);
    let blocks = pass_trace::fold(&d.rows, 3);
    std::hint::black_box(&blocks);
    let mut refined = 0;
    for r in &d.rows {
        if let (pass_trace::RowKind::Replace, Some(x), Some(y)) = (r.kind, r.before, r.after) {
            let c = pass_trace::refine_line(b.get(x as usize).copied().unwrap_or(""), a.get(y as usize).copied().unwrap_or(""));
            std::hint::black_box(&c);
            refined += 1;
        }
    }
    ((d.added, d.removed), refined)
}

fn best_ms<T>(iterations: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..iterations.max(1) {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64() * 1000.0);
        last = Some(r);
    }
    match last {
        Some(r) => (best, r),
        None => (best, f()),
    }
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// IR-like statement `i` of the generated snapshot, with a `MemRef` offset.
fn ir_line(i: usize, offset: u64) -> String {
    match i % 40 {
        0 => "    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)".to_owned(),
        1 => format!("    def kernel_{}(x__ssa_v0: pl.Tensor[[16, 128], pl.FP32, pl.MemRef(\"mem_ddr_0\", pl.const(0, pl.INT64), 8192)]) -> pl.Tensor[[16, 128], pl.FP32]:", i / 40),
        39 => format!("        return t{}__ssa_v0", i - 1),
        k => format!(
            "        t{i}__ssa_v0: pl.Tile[[16, 128], pl.FP32, pl.MemRef(mem_vec_{}, pl.const({offset}, pl.INT64), 8192), pl.Mem.Vec] = pl.tile.add(t{}__ssa_v0, x__ssa_v0)",
            k % 7,
            i.saturating_sub(1)
        ),
    }
}

/// A generated snapshot pair of about `n` lines each.
fn generate_pair(n: usize, seed: u64) -> (String, String) {
    let mut rng = XorShift(seed.max(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut before = String::with_capacity(n * 150);
    let mut after = String::with_capacity(n * 150);
    before.push_str("# pypto.program: Generated\nimport pypto.language as pl\n\n@pl.program\nclass Generated:\n");
    after.push_str(&before);
    for i in 0..n.saturating_sub(5) {
        let line = ir_line(i, (i as u64 % 23) * 256);
        before.push_str(&line);
        before.push('\n');
        match rng.below(1000) {
            0..=19 => {
                after.push_str(&ir_line(i, 65_536 + rng.below(64) * 128));
                after.push('\n');
            }
            20..=24 => {} // deleted
            25..=29 => {
                after.push_str(&line);
                after.push('\n');
                let _ = writeln!(after, "        pl.system.sync(pipe=pl.Pipe.V, event={})", rng.below(8));
            }
            _ => {
                after.push_str(&line);
                after.push('\n');
            }
        }
    }
    (before, after)
}

#[derive(Debug, Serialize)]
struct Stage {
    name: String,
    rust_ms: f64,
    python_ms: Option<f64>,
    /// python / rust
    speedup: Option<f64>,
}

#[derive(Debug, Serialize)]
struct Report {
    dump: String,
    passes: usize,
    changed_passes: usize,
    dump_lines: usize,
    pair_lines: (usize, usize),
    pair_added_removed: (u32, u32),
    refined_pairs_dump: usize,
    refined_pairs_pair: usize,
    stages: Vec<Stage>,
    /// Problems found while comparing with Python (count mismatches, python failures).
    notes: Vec<String>,
}

fn run_python(
    script: &Path,
    dump: &Path,
    before: &Path,
    after: &Path,
    iterations: usize,
    ir_trace: Option<&str>,
) -> Result<serde_json::Value, String> {
    let mut cmd = std::process::Command::new("python3");
    if let Some(d) = ir_trace {
        cmd.arg(script).arg("--ir-trace").arg(d);
    } else {
        cmd.arg(script);
    }
    let out = cmd
        .arg("--dump")
        .arg(dump)
        .arg("--pair")
        .arg(before)
        .arg(after)
        .arg("--iterations")
        .arg(iterations.to_string())
        .output()
        .map_err(|e| format!("python3: {e}"))?;
    if !out.status.success() {
        return Err(format!("python3 {} failed: {}", script.display(), String::from_utf8_lossy(&out.stderr)));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("python3 output: {e}"))
}

/// Writes the pair to a temporary directory and runs the difflib script on the same inputs.
fn python_side(a: &Args, dump: &Path, before: &str, after: &str, notes: &mut Vec<String>) -> Result<Option<serde_json::Value>, String> {
    let tmp = std::env::temp_dir().join(format!("pypto-bench-passes-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let (bp, ap) = (tmp.join("before.py"), tmp.join("after.py"));
    std::fs::write(&bp, before).map_err(|e| format!("{}: {e}", bp.display()))?;
    std::fs::write(&ap, after).map_err(|e| format!("{}: {e}", ap.display()))?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/difflib_passes.py");
    let out = match run_python(&script, dump, &bp, &ap, a.iterations.min(3), a.ir_trace.as_deref()) {
        Ok(v) => Some(v),
        Err(e) => {
            notes.push(e);
            None
        }
    };
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(out)
}

/// Notes a difference between the +/- counts of both tools.
fn check_counts(p: &serde_json::Value, counts: &[(u32, u32)], pair_counts: (u32, u32), notes: &mut Vec<String>) {
    let pair = |c: &serde_json::Value| (c[0].as_u64().unwrap_or(0) as u32, c[1].as_u64().unwrap_or(0) as u32);
    let py_counts: Vec<(u32, u32)> = p["dump_pass_counts"].as_array().map(|v| v.iter().map(pair).collect()).unwrap_or_default();
    if py_counts != counts {
        notes.push(format!("dump +/- counts differ from difflib: {counts:?} vs {py_counts:?}"));
    }
    if let Some(v) = p["ir_trace_counts"].as_array() {
        let ir: Vec<(u32, u32)> = v.iter().map(pair).collect();
        if ir != counts {
            notes.push(format!("dump +/- counts differ from ir_trace: {counts:?} vs {ir:?}"));
        }
    }
    let py_pair = pair(&p["pair_counts_added_removed"]);
    if py_pair != pair_counts {
        notes.push(format!("pair +/- counts: rust {pair_counts:?}, difflib {py_pair:?}"));
    }
}

#[allow(clippy::too_many_lines)] // one linear script: every case measured in turn, natively then in Python
fn measure(a: &Args) -> Result<Report, String> {
    let root = Path::new(&a.dir);
    let dump = find_dump(root).ok_or_else(|| format!("no passes_dump* under {}", a.dir))?;
    let (names, texts) = load_dump(&dump)?;
    let dump_lines: usize = texts.iter().map(|t| t.1.lines().count()).sum();

    let (counts_ms, counts) = best_ms(a.iterations, || trace_counts(&names, &texts));
    let (full_ms, refined_dump) = best_ms(a.iterations, || {
        texts
            .windows(2)
            .map(|w| match w {
                [x, y] => full_pair(&x.1, &y.1).1,
                _ => 0,
            })
            .sum::<usize>()
    });
    let (regions_ms, regions) =
        best_ms(a.iterations, || texts.iter().filter(|t| function_filter::function_regions(&t.0, &t.1).is_some()).count());

    let (before, after) = match &a.pair {
        Some((b, x)) => {
            (std::fs::read_to_string(b).map_err(|e| format!("{b}: {e}"))?, std::fs::read_to_string(x).map_err(|e| format!("{x}: {e}"))?)
        }
        None => generate_pair(a.lines, a.seed),
    };
    if let Some(dir) = &a.write_pair {
        let dir = Path::new(dir);
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (name, text) in [("before.py", &before), ("after.py", &after)] {
            std::fs::write(dir.join(name), text).map_err(|e| format!("{}: {e}", dir.join(name).display()))?;
        }
    }
    let pair_iterations = a.iterations.min(3);
    let (pair_counts_ms, pair_counts) = best_ms(pair_iterations, || {
        let d = pass_trace::diff_lines(&pass_trace::split_lines(&before), &pass_trace::split_lines(&after));
        (d.added, d.removed)
    });
    let (pair_full_ms, (_, refined_pair)) = best_ms(pair_iterations, || full_pair(&before, &after));

    let mut notes = Vec::new();
    if regions != texts.len() {
        notes.push(format!("function regions unavailable for {} snapshots", texts.len() - regions));
    }
    let python = if a.python { python_side(a, &dump, &before, &after, &mut notes)? } else { None };
    if let Some(p) = &python {
        check_counts(p, &counts, pair_counts, &mut notes);
    }
    let stage = |name: &str, rust_ms: f64, key: &str| {
        let python_ms = python.as_ref().and_then(|p| p[key].as_f64());
        Stage { name: name.to_owned(), rust_ms, python_ms, speedup: python_ms.map(|p| p / rust_ms.max(1e-9)) }
    };
    Ok(Report {
        dump: dump.display().to_string(),
        passes: counts.len(),
        changed_passes: counts.iter().filter(|c| **c != (0, 0)).count(),
        dump_lines,
        pair_lines: (pass_trace::split_lines(&before).len(), pass_trace::split_lines(&after).len()),
        pair_added_removed: pair_counts,
        refined_pairs_dump: refined_dump,
        refined_pairs_pair: refined_pair,
        stages: vec![
            stage("dump: pass list (+/- and check of every pass)", counts_ms, "dump_counts"),
            stage("dump: every diff with rows, folds, refinement", full_ms, "dump_full"),
            stage("dump: vs pypto ir_trace build_trace (if given)", full_ms + regions_ms, "ir_trace_build"),
            stage("dump: function regions of every snapshot", regions_ms, ""),
            stage("pair: +/- counts", pair_counts_ms, "pair_counts"),
            stage("pair: rows, folds, refinement", pair_full_ms, "pair_full"),
        ],
        notes,
    })
}

fn render(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "dump {}: {} passes ({} changed), {} lines in all; pair {}/{} lines (+{} -{}); refined pairs {} / {}",
        r.dump,
        r.passes,
        r.changed_passes,
        r.dump_lines,
        r.pair_lines.0,
        r.pair_lines.1,
        r.pair_added_removed.0,
        r.pair_added_removed.1,
        r.refined_pairs_dump,
        r.refined_pairs_pair
    );
    let _ = writeln!(s, "{:<50} {:>11} {:>13} {:>9}", "stage", "rust ms", "difflib ms", "ratio");
    for st in &r.stages {
        let _ = writeln!(
            s,
            "{:<50} {:>11.2} {:>13} {:>9}",
            st.name,
            st.rust_ms,
            st.python_ms.map_or("-".to_owned(), |p| format!("{p:.1}")),
            st.speedup.map_or("-".to_owned(), |x| format!("{x:.1}x")),
        );
    }
    for n in &r.notes {
        let _ = writeln!(s, "note: {n}");
    }
    s
}

/// Entry point of `bench-passes`.
pub fn run(args: &[&str]) -> ExitCode {
    let a = match parse_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}\nusage:\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match measure(&a) {
        Ok(r) => {
            if a.json {
                match serde_json::to_string_pretty(&r) {
                    Ok(j) => println!("{j}"),
                    Err(e) => {
                        eprintln!("{e}");
                        return ExitCode::FAILURE;
                    }
                }
            } else {
                print!("{}", render(&r));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        let a = parse_args(&["d", "--lines", "1000", "--no-python", "--json"]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((a.lines, a.python, a.json, a.dir.as_str()), (1000, false, true, "d"));
        assert!(parse_args(&[]).is_err());
        assert!(parse_args(&["d", "--lines"]).is_err());
        let p = parse_args(&["d", "--pair", "b.py", "a.py", "--write-pair", "w"]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.pair, Some(("b.py".to_owned(), "a.py".to_owned())));
        assert_eq!(p.write_pair.as_deref(), Some("w"));
        assert!(parse_args(&["d", "--pair", "b.py"]).is_err());
    }

    #[test]
    fn small_run_on_the_fixtures() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/passes");
        let a = Args {
            dir: root.display().to_string(),
            lines: 2000,
            iterations: 1,
            seed: 3,
            python: false,
            ir_trace: None,
            pair: None,
            write_pair: None,
            json: false,
        };
        let r = measure(&a).unwrap_or_else(|e| panic!("{e}"));
        assert!(r.dump.ends_with("generated-paged_attention/passes_dump"), "{}", r.dump);
        assert_eq!(r.passes, 49);
        assert_eq!(r.changed_passes, 13);
        assert!(r.pair_added_removed.0 > 0 && r.pair_added_removed.1 > 0);
        assert!(r.notes.is_empty(), "{:?}", r.notes);
        let (b, x) = generate_pair(2000, 3);
        assert_eq!(generate_pair(2000, 3), (b, x), "seeded");
    }
}
