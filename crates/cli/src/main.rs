//! `pypto-viewer`: the native command line over the readers and analyses.
//!
//! - `pypto-viewer manifest <dir>`: walks `<dir>` (skipping hidden entries and the manifest
//!   itself), writes `<dir>/pypto-viewer-manifest.json` for static hosting (`?src=`), prints
//!   the number of files listed.
//! - `pypto-viewer report <dir> [--json]`: runs discovery and prints, per dataset, the
//!   summary facts (records level/clock/cores/tasks/span, deps tasks/edges/tensors, pass dump
//!   snapshot count and problems) and per-file errors as `path:line:col: message`. File
//!   errors are reported, not fatal (exit 0); usage errors exit 2.
//! - `pypto-viewer compare <A> <B> [--json]`: two runtime captures side by side, A the
//!   baseline (summary, per-function table, task matching; see `compare.rs`), or two pass
//!   dumps (pass lists with what differs per pass, memory high-water marks; see
//!   `compare_passes.rs`).
//! - `pypto-viewer gen <out-dir> [options]`: writes a seeded synthetic capture (records,
//!   deps.json, name map) for benchmarks and tests (see `gen.rs`).
//! - `pypto-viewer bench <dir> [--iterations N] [--json]`: times every reader and analysis
//!   the directory allows, with resident memory (see `bench.rs`).
//! - `pypto-viewer bench-passes <dir>`: times the IR pass-trace diff of the largest pass dump
//!   under `<dir>` and of a generated 200k-line pair against Python difflib (see
//!   `bench_passes.rs`).
//! - `pypto-viewer gen <out-dir> --ranks N [--clock-anchors] [--host-offsets-us A,B,…]`: a
//!   multi-rank tree `dfx_outputs/rank<i>/d0/` of such captures (distinct seeds; with clock
//!   anchors that calibrate at known host offsets), see `gen_ranks.rs`.
//! - `pypto-viewer gen <out-dir> --dag [--tasks N]`: a synthetic task DAG (`deps.json`) of
//!   real fan-out / fan-in shapes at any scale (see `gen_dag.rs`).
//! - `pypto-viewer bench-layout [...]`: times the dependency-graph layout on generated DAGs
//!   against Graphviz `dot` (see `bench_layout.rs`).

mod analyses;
mod bench;
mod bench_layout;
mod bench_passes;
mod compare;
mod compare_passes;
mod gen;
mod gen_dag;
mod gen_ranks;
mod gen_strace;
mod gen_warnings;
mod report;
mod runtime_load;
mod snapshot_words;
mod walk;

use std::process::ExitCode;

const USAGE: &str = "usage:\n  pypto-viewer manifest <dir>\n  pypto-viewer report <dir> [--json]";

fn usage() -> String {
    format!(
        "{USAGE}
{}
{}
{}
{}
{}",
        compare::USAGE,
        gen::USAGE,
        gen_ranks::USAGE,
        gen_strace::USAGE,
        bench::USAGE
    ) + &format!("\n{}\n{}", gen_dag::USAGE, bench_layout::USAGE)
        + "\n"
        + bench_passes::USAGE
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    match refs.as_slice() {
        ["compare", rest @ ..] => compare::run(rest),
        ["gen", rest @ ..] => gen::run(rest),
        ["bench", rest @ ..] => bench::run(rest),
        ["bench-passes", rest @ ..] => bench_passes::run(rest),
        ["bench-layout", rest @ ..] => bench_layout::run(rest),
        ["manifest", dir] => manifest(dir),
        ["report", dir] => report::run(dir, false),
        ["report", dir, "--json"] | ["report", "--json", dir] => report::run(dir, true),
        ["-h" | "--help" | "help"] => {
            println!("{}", usage());
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{}", usage());
            ExitCode::from(2)
        }
    }
}

fn manifest(dir: &str) -> ExitCode {
    let root = std::path::Path::new(dir);
    if !root.is_dir() {
        eprintln!("pypto-viewer: {dir} is not a directory");
        return ExitCode::from(2);
    }
    let entries = match walk::walk(root) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("pypto-viewer: cannot read {dir}: {e}");
            return ExitCode::from(1);
        }
    };
    let entries: Vec<(String, u64)> = entries.into_iter().filter(|(p, _)| p != pypto_formats::manifest::FILE_NAME).collect();
    let json = pypto_formats::manifest::to_json(&entries);
    let out = root.join(pypto_formats::manifest::FILE_NAME);
    if let Err(e) = std::fs::write(&out, json) {
        eprintln!("pypto-viewer: cannot write {}: {e}", out.display());
        return ExitCode::from(1);
    }
    println!("{} files listed in {}", entries.len(), out.display());
    ExitCode::SUCCESS
}
