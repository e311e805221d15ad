//! `cargo xtask bench-browser [--tasks N] [--keep]`: the issue-4 performance numbers, measured
//! in headless Chromium and printed (never asserted).
//!
//! 1. builds the release `dist/` when it is missing (the `build` stage);
//! 2. generates a level-4 capture with the project CLI (`pypto-viewer gen <dir> --tasks N
//!    --level 4 --name-map`) into `target/bench-capture-N/` (reused when its manifest exists)
//!    and writes its manifest (`pypto-viewer manifest`);
//! 3. assembles one static root `target/bench-root-N/` holding a copy of `dist/` and the capture
//!    under `data/capture/` (hard links, falling back to copies), because the e2e server
//!    refuses paths that resolve outside its root; the root's `pypto-worker_loader.js` is
//!    replaced by one that also keeps the worker's wasm exports on `self.__pyptoWasm` so the
//!    script can read the worker's linear-memory size, and its `boot.js` by one that keeps the
//!    page's wasm exports on `globalThis.__pyptoPageWasm` (the page's linear-memory size);
//! 4. runs `tests/bench/swimlane-bench.mjs` (playwright-core, Debian Chromium), which serves the
//!    root, opens `?src=data/capture/`, measures load, memory, frame CPU time, hover, select and
//!    search, prints a table and writes `tests/artifacts/bench-swimlane.json`.
//!
//! `--keep` keeps `target/bench-root-N/` afterwards (the capture itself is always kept).

use std::path::Path;

use crate::{build, util};

pub const DEFAULT_TASKS: u64 = 1_000_000;

/// The worker loader the bench serves: trunk's shim (`import init …; await init();`) plus a
/// handle on the wasm exports, so `worker.evaluate` can read `memory.buffer.byteLength`.
const BENCH_WORKER_LOADER: &str = "import init from './pypto-worker.js';self.__pyptoWasm = await init();\n";

/// The page's boot script the bench serves: `www/boot.js` plus a handle on the page's wasm
/// exports (`globalThis.__pyptoPageWasm`), so the script can read the page's linear memory too.
const BENCH_PAGE_BOOT: &str = "import init from './pypto-app.js';\n\
     globalThis.__pyptoPageWasm = await init({ module_or_path: new URL('./pypto-app_bg.wasm', import.meta.url) });\n";

#[derive(Debug)]
pub struct Options {
    pub tasks: u64,
    pub keep: bool,
}

pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut opts = Options { tasks: DEFAULT_TASKS, keep: false };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--tasks" => {
                let value = it.next().ok_or("--tasks needs a number")?;
                opts.tasks = value.replace('_', "").parse().map_err(|_| format!("bad task count `{value}`"))?;
                if opts.tasks == 0 {
                    return Err("--tasks must be at least 1".into());
                }
            }
            "--keep" => opts.keep = true,
            other => return Err(format!("unknown bench-browser option `{other}`")),
        }
    }
    Ok(opts)
}

pub fn run(opts: &Options) -> Result<(), String> {
    let root = util::root();
    let dist = build::built_dist(None)?;

    let capture = root.join("target").join(format!("bench-capture-{}", opts.tasks));
    ensure_capture(&capture, opts.tasks)?;

    let serve_root = root.join("target").join(format!("bench-root-{}", opts.tasks));
    assemble_root(&dist, &capture, &serve_root)?;

    util::step("bench: running tests/bench/swimlane-bench.mjs in headless Chromium");
    let args = vec!["--src".to_owned(), "data/capture/".to_owned(), "--tasks".to_owned(), opts.tasks.to_string()];
    util::bench_on_root("bench/swimlane-bench.mjs", &serve_root, &args, "bench-swimlane.json", opts.keep)
}

/// Generates the capture and its manifest unless a manifest is already there.
fn ensure_capture(capture: &Path, tasks: u64) -> Result<(), String> {
    if capture.join(build::MANIFEST_NAME).is_file() {
        util::step(&format!("bench: reusing {}", capture.display()));
        return Ok(());
    }
    util::step(&format!("bench: generating a {tasks}-task level-4 capture with the project CLI"));
    let dir = capture.to_string_lossy().into_owned();
    let n = tasks.to_string();
    util::project_cli(&["gen", &dir, "--tasks", &n, "--level", "4", "--name-map"])?;
    util::step("bench: writing the capture manifest with the project CLI");
    util::project_cli(&["manifest", &dir])?;
    if capture.join(build::MANIFEST_NAME).is_file() {
        Ok(())
    } else {
        Err(format!("the CLI did not write {}", capture.join(build::MANIFEST_NAME).display()))
    }
}

/// `serve_root/` = a copy of `dist/` + `data/capture/` (hard links to the capture's files).
fn assemble_root(dist: &Path, capture: &Path, serve_root: &Path) -> Result<(), String> {
    util::step(&format!("bench: assembling the static root {}", serve_root.display()));
    if serve_root.exists() {
        std::fs::remove_dir_all(serve_root).map_err(|e| format!("remove {}: {e}", serve_root.display()))?;
    }
    util::copy_dir(dist, serve_root)?;
    std::fs::write(serve_root.join("pypto-worker_loader.js"), BENCH_WORKER_LOADER)
        .map_err(|e| format!("write the bench worker loader: {e}"))?;
    std::fs::write(serve_root.join("boot.js"), BENCH_PAGE_BOOT).map_err(|e| format!("write the bench page boot script: {e}"))?;
    let data = serve_root.join("data").join("capture");
    util::link_dir(capture, &data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_options() -> Result<(), String> {
        let o = parse_args(&[])?;
        assert_eq!((o.tasks, o.keep), (DEFAULT_TASKS, false));
        let o = parse_args(&util::strings(&["--tasks", "100_000", "--keep"]))?;
        assert_eq!((o.tasks, o.keep), (100_000, true));
        assert!(parse_args(&util::strings(&["--tasks"])).is_err());
        assert!(parse_args(&util::strings(&["--tasks", "0"])).is_err());
        assert!(parse_args(&util::strings(&["--bogus"])).is_err());
        Ok(())
    }
}
