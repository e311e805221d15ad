//! `cargo xtask bench-passes-browser [--dist D] [--lines N] [--iterations N] [--ir-trace DIR]
//! [--scale-lines N]`: the IR Pass Trace numbers of issue 7 item 11 and issue 21 item 6,
//! printed beside their targets (never asserted).
//!
//! 1. uses the release `dist/` (or `--dist D`, e.g. a private copy while others rebuild
//!    `dist/`), building it when missing;
//! 2. builds the project CLI (`cargo build --release -p pypto-cli`);
//! 3. runs `tests/bench/pass-trace-bench.mjs` (playwright-core, Debian Chromium) on the real
//!    49-pass dump (`fixtures/passes/generated-paged_attention/passes_dump`) and two `N`-line
//!    pairs (the e2e's, and the CLI's generated one): wasm times from the worker's automation
//!    hook, native times and Python difflib times (the way pypto's `ir_trace` uses difflib)
//!    from `pypto-viewer bench-passes --json` on the same bytes; with `--ir-trace DIR` (a
//!    directory holding pypto's `ir_trace` package, e.g. `<pypto>/python/pypto/tools`) also
//!    pypto's own `build_trace` on the dump. Prints a table (each wasm time beside its target:
//!    faster than difflib) and writes `tests/artifacts/bench-passes.json`;
//! 4. runs `tests/bench/pass-diff-scale.mjs`: the e2e's pair at `--scale-lines` lines (default
//!    1 000 000; 0 skips it) opened in the page, click → diff shown (target ≤ 2 s) with where
//!    the time went, and the row elements in the DOM while scrolling it (virtualised); writes
//!    `tests/artifacts/bench-pass-diff-scale.json`.

use std::path::PathBuf;
use std::process::Command;

use crate::{build, util};

#[derive(Debug, PartialEq)]
pub struct Options {
    pub dist: Option<PathBuf>,
    pub lines: u64,
    pub iterations: u32,
    pub ir_trace: Option<PathBuf>,
    /// Lines a side of the diff-at-scale pair (0: not run).
    pub scale_lines: u64,
}

pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut opts = Options { dist: None, lines: 200_000, iterations: 5, ir_trace: None, scale_lines: 1_000_000 };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--dist" => opts.dist = Some(PathBuf::from(value("--dist")?)),
            "--ir-trace" => opts.ir_trace = Some(PathBuf::from(value("--ir-trace")?)),
            "--lines" => {
                let v = value("--lines")?;
                opts.lines = v.replace('_', "").parse().map_err(|_| format!("bad line count `{v}`"))?;
                if opts.lines < 10 {
                    return Err("--lines must be at least 10".into());
                }
            }
            "--scale-lines" => {
                let v = value("--scale-lines")?;
                opts.scale_lines = v.replace('_', "").parse().map_err(|_| format!("bad line count `{v}`"))?;
                if opts.scale_lines != 0 && opts.scale_lines < 5000 {
                    return Err("--scale-lines must be 0 (skip) or at least 5000".into());
                }
            }
            "--iterations" => {
                let v = value("--iterations")?;
                opts.iterations = v.parse().map_err(|_| format!("bad iteration count `{v}`"))?;
                if opts.iterations == 0 {
                    return Err("--iterations must be at least 1".into());
                }
            }
            other => return Err(format!("unknown bench-passes-browser option `{other}`")),
        }
    }
    Ok(opts)
}

pub fn run(opts: &Options) -> Result<(), String> {
    let root = util::root();
    let dist = build::built_dist(opts.dist.as_ref())?;
    util::step("bench: building the project CLI (release)");
    util::run(Command::new(util::cargo()).args(["build", "--release", "-p", "pypto-cli", "--bin", "pypto-viewer"]).current_dir(&root))?;
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let cli = target.join("release").join("pypto-viewer");
    let dump = root.join("fixtures/passes/generated-paged_attention/passes_dump");
    if !dump.join("00_frontend.py").is_file() {
        return Err(format!("the 49-pass dump is missing: {}", dump.display()));
    }
    let work = target.join("bench-passes");
    let out = util::tests_dir().join("artifacts").join("bench-passes.json");
    let mut cmd = Command::new("node");
    cmd.arg("bench/pass-trace-bench.mjs")
        .arg("--dist")
        .arg(&dist)
        .arg("--dump")
        .arg(&dump)
        .arg("--cli")
        .arg(&cli)
        .arg("--work")
        .arg(&work)
        .arg("--lines")
        .arg(opts.lines.to_string())
        .arg("--iterations")
        .arg(opts.iterations.to_string())
        .arg("--out")
        .arg(&out)
        .current_dir(util::tests_dir());
    if let Some(d) = &opts.ir_trace {
        cmd.arg("--ir-trace").arg(d);
    }
    util::run(&mut cmd)?;
    if opts.scale_lines == 0 {
        return Ok(());
    }
    util::step(&format!("bench: diff at scale, a {}-line pair in the page", opts.scale_lines));
    let out = util::tests_dir().join("artifacts").join("bench-pass-diff-scale.json");
    util::run(
        Command::new("node")
            .arg("bench/pass-diff-scale.mjs")
            .arg("--dist")
            .arg(&dist)
            .arg("--lines")
            .arg(opts.scale_lines.to_string())
            .arg("--out")
            .arg(&out)
            .current_dir(util::tests_dir()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_options() -> Result<(), String> {
        let o = parse_args(&[])?;
        assert_eq!((o.lines, o.iterations, o.dist, o.ir_trace, o.scale_lines), (200_000, 5, None, None, 1_000_000));
        assert_eq!(parse_args(&util::strings(&["--scale-lines", "0"]))?.scale_lines, 0);
        assert!(parse_args(&util::strings(&["--scale-lines", "10"])).is_err());
        let o = parse_args(&util::strings(&["--lines", "1_000", "--iterations", "2", "--dist", "/tmp/d", "--ir-trace", "t"]))?;
        assert_eq!((o.lines, o.iterations), (1000, 2));
        assert_eq!(o.dist, Some(PathBuf::from("/tmp/d")));
        assert_eq!(o.ir_trace, Some(PathBuf::from("t")));
        assert!(parse_args(&util::strings(&["--lines"])).is_err());
        assert!(parse_args(&util::strings(&["--iterations", "0"])).is_err());
        assert!(parse_args(&util::strings(&["--bogus"])).is_err());
        Ok(())
    }
}
