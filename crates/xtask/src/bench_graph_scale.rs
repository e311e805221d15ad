//! `cargo xtask bench-graph-scale [--tasks N] [--dist DIR] [--keep]`: the issue-21 item-4
//! numbers of the Task Dependency Graph at scale (default 1 000 000 tasks), measured in one
//! run and printed beside their targets (never asserted).
//!
//! 1. `pypto-viewer gen <dir> --dag --tasks N --name-map` (the paged-attention fan-out / fan-in
//!    shape, scaled; a second or two) into `target/bench-dag/dag-N/` unless it is there, and
//!    its manifest, so the page can open it by URL.
//! 2. A static root `target/bench-graph-root/` = a copy of the built site (`--dist`, default
//!    `dist/`, built when missing) + `data/dag-N/` (hard links).
//! 3. `tests/bench/dep-graph-scale.mjs` opens it in headless Chromium, clicks the graph's view
//!    switch and prints click → drawn, the worker's layout time with the progress the page
//!    showed, and pan frame times (p50 / p95 → fps) at the first fit and at Fit, with where
//!    the click's time went; it writes `tests/artifacts/bench-graph-scale.json` and
//!    screenshots `tests/artifacts/bench-graph-N-{first-fit,fit}.png`.

use std::path::PathBuf;

use crate::{build, util};

#[derive(Debug)]
pub struct Options {
    pub tasks: u64,
    pub dist: Option<PathBuf>,
    pub keep: bool,
}

pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut opts = Options { tasks: 1_000_000, dist: None, keep: false };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--tasks" => {
                let v = value()?;
                opts.tasks = v.replace('_', "").parse().map_err(|_| format!("bad --tasks `{v}`"))?;
                if opts.tasks == 0 {
                    return Err("--tasks needs a positive task count".into());
                }
            }
            "--dist" => opts.dist = Some(PathBuf::from(value()?)),
            "--keep" => opts.keep = true,
            other => return Err(format!("unknown bench-graph-scale option `{other}`")),
        }
    }
    Ok(opts)
}

pub fn run(opts: &Options) -> Result<(), String> {
    let root = util::root();
    let dist = build::built_dist(opts.dist.as_ref())?;
    let name = format!("dag-{}", opts.tasks);
    let dir = root.join("target").join("bench-dag").join(&name);
    let dir_s = dir.to_string_lossy().into_owned();
    if !dir.join("deps.json").exists() {
        util::step(&format!("bench-graph-scale: generating {} tasks (pypto-viewer gen --dag)", opts.tasks));
        let tasks = opts.tasks.to_string();
        util::project_cli(&["gen", &dir_s, "--dag", "--tasks", &tasks, "--name-map"])?;
    }
    util::project_cli(&["manifest", &dir_s])?;

    let serve_root = root.join("target").join("bench-graph-root");
    util::step(&format!("bench-graph-scale: assembling the static root {}", serve_root.display()));
    if serve_root.exists() {
        std::fs::remove_dir_all(&serve_root).map_err(|e| format!("remove {}: {e}", serve_root.display()))?;
    }
    util::copy_dir(&dist, &serve_root)?;
    util::link_dir(&dir, &serve_root.join("data").join(&name))?;

    util::step("bench-graph-scale: running tests/bench/dep-graph-scale.mjs in headless Chromium");
    let args = vec!["--tasks".to_owned(), opts.tasks.to_string()];
    util::bench_on_root("bench/dep-graph-scale.mjs", &serve_root, &args, "bench-graph-scale.json", opts.keep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_options() -> Result<(), String> {
        let o = parse_args(&[])?;
        assert_eq!((o.tasks, o.dist, o.keep), (1_000_000, None, false));
        let o = parse_args(&util::strings(&["--tasks", "200_000", "--dist", "/tmp/d", "--keep"]))?;
        assert_eq!((o.tasks, o.keep), (200_000, true));
        assert_eq!(o.dist, Some(PathBuf::from("/tmp/d")));
        assert!(parse_args(&util::strings(&["--tasks", "0"])).is_err());
        assert!(parse_args(&util::strings(&["--tasks"])).is_err());
        assert!(parse_args(&util::strings(&["--bogus"])).is_err());
        Ok(())
    }
}
