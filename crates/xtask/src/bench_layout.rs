//! `cargo xtask bench-layout-browser [--sizes 1000,10000,100000] [--dot-timeout S] [--no-dot]
//! [--repeat N] [--dist DIR] [--keep]`: the issue-6 layout numbers (item 8), measured in one
//! run and printed (never asserted).
//!
//! 1. Graphviz: when `dot` is not on PATH and this is root with apt-get, installs Debian's
//!    `graphviz` (idempotent: nothing happens when `dot` exists); without it the run goes on
//!    and says that dot was skipped.
//! 2. Native + dot: `pypto-viewer bench-layout --sizes … --dir target/bench-dag --json …`
//!    generates the DAGs (`gen --dag`: the paged-attention SPMD fan-out / fan-in shape,
//!    scaled) into `target/bench-dag/dag-N/`, times our layout natively and `dot -Tplain` on
//!    the same graphs, and measures both drawings (geometric crossings, edge length).
//! 3. Manifests: `pypto-viewer manifest` per DAG folder, so the page can open it by URL.
//! 4. Browser: a static root `target/bench-dag-root/` = a copy of the built site (`--dist`,
//!    default `dist/`, built when missing) + `data/dag-N/` (hard links);
//!    `tests/bench/dep-graph-bench.mjs` opens each DAG in a fresh headless Chromium page,
//!    switches to the Task Dependency Graph and reads the worker's own timing of the layout
//!    call (`performance.now()` around `dag_layout::layout`, `#dep-graph[data-layout-ms]`),
//!    the JIT warm-up time, a second (warm) layout, the time from the click to the drawn
//!    graph and frame times while panning / zooming; it prints the table (nodes, edges, wasm
//!    ms, native ms, dot ms, ratios, crossings and edge length ours / dot) and writes
//!    `tests/artifacts/bench-layout.json`.

use std::path::PathBuf;
use std::process::Command;

use crate::{build, util};

#[derive(Debug)]
pub struct Options {
    pub sizes: Vec<u64>,
    /// `None` = skip dot.
    pub dot_timeout_s: Option<f64>,
    pub repeat: u32,
    pub dist: Option<PathBuf>,
    pub keep: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self { sizes: vec![1000, 10_000, 100_000], dot_timeout_s: Some(60.0), repeat: 3, dist: None, keep: false }
    }
}

pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut opts = Options::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--sizes" => {
                let v = value()?;
                opts.sizes = v
                    .split(',')
                    .map(|s| s.trim().replace('_', "").parse::<u64>().map_err(|_| format!("bad size `{s}` in --sizes")))
                    .collect::<Result<_, _>>()?;
                if opts.sizes.is_empty() || opts.sizes.contains(&0) {
                    return Err("--sizes needs positive task counts".into());
                }
            }
            "--dot-timeout" => {
                let v = value()?;
                let s: f64 = v.parse().map_err(|_| format!("bad --dot-timeout `{v}`"))?;
                opts.dot_timeout_s = Some(s.max(0.0));
            }
            "--no-dot" => opts.dot_timeout_s = None,
            "--repeat" => {
                let v = value()?;
                opts.repeat = v.parse().map_err(|_| format!("bad --repeat `{v}`"))?;
            }
            "--dist" => opts.dist = Some(PathBuf::from(value()?)),
            "--keep" => opts.keep = true,
            other => return Err(format!("unknown bench-layout-browser option `{other}`")),
        }
    }
    Ok(opts)
}

pub fn run(opts: &Options) -> Result<(), String> {
    let root = util::root();
    let dist = build::built_dist(opts.dist.as_ref())?;
    let dot = opts.dot_timeout_s.filter(|_| ensure_dot());

    let work = root.join("target").join("bench-dag");
    std::fs::create_dir_all(&work).map_err(|e| format!("create {}: {e}", work.display()))?;
    let native_json = work.join("native.json");
    let sizes = opts.sizes.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    util::step("bench-layout: native layout and Graphviz dot on generated DAGs (pypto-viewer bench-layout)");
    let work_s = work.to_string_lossy().into_owned();
    let json_s = native_json.to_string_lossy().into_owned();
    let repeat = opts.repeat.max(1).to_string();
    let mut args = vec!["bench-layout", "--sizes", &sizes, "--dir", &work_s, "--json", &json_s, "--repeat", &repeat];
    let timeout;
    match dot {
        Some(s) => {
            timeout = format!("{s}");
            args.extend(["--dot-timeout", &timeout]);
        }
        None => args.push("--no-dot"),
    }
    util::project_cli(&args)?;
    for n in &opts.sizes {
        let dir = work.join(format!("dag-{n}"));
        util::project_cli(&["manifest", &dir.to_string_lossy()])?;
    }

    let serve_root = root.join("target").join("bench-dag-root");
    util::step(&format!("bench-layout: assembling the static root {}", serve_root.display()));
    if serve_root.exists() {
        std::fs::remove_dir_all(&serve_root).map_err(|e| format!("remove {}: {e}", serve_root.display()))?;
    }
    util::copy_dir(&dist, &serve_root)?;
    for n in &opts.sizes {
        let name = format!("dag-{n}");
        util::link_dir(&work.join(&name), &serve_root.join("data").join(&name))?;
    }

    util::step("bench-layout: running tests/bench/dep-graph-bench.mjs in headless Chromium");
    let args = vec!["--sizes".to_owned(), sizes, "--native".to_owned(), json_s];
    util::bench_on_root("bench/dep-graph-bench.mjs", &serve_root, &args, "bench-layout.json", opts.keep)
}

/// `dot` on PATH, installing Debian's graphviz first when it is missing and this is root with
/// apt-get; false (with a message) when it stays missing.
fn ensure_dot() -> bool {
    if let Some(dot) = util::which("dot") {
        println!("  ok  dot: {}", dot.display());
        return true;
    }
    if util::is_root() && util::which("apt-get").is_some() {
        println!("  ..  dot missing: installing Debian's graphviz");
        let installed = util::run(Command::new("apt-get").arg("update").env("DEBIAN_FRONTEND", "noninteractive"))
            .and_then(|()| util::run(Command::new("apt-get").args(["install", "-y", "graphviz"]).env("DEBIAN_FRONTEND", "noninteractive")));
        if let Err(e) = installed {
            println!("  ..  apt-get install graphviz failed: {e}");
        }
        if util::which("dot").is_some() {
            return true;
        }
    }
    println!("  ..  Graphviz `dot` not found (apt-get install graphviz): the dot columns are skipped");
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_options() -> Result<(), String> {
        let o = parse_args(&[])?;
        assert_eq!(o.sizes, vec![1000, 10_000, 100_000]);
        assert_eq!(o.dot_timeout_s, Some(60.0));
        let o = parse_args(&util::strings(&["--sizes", "500,2_000", "--no-dot", "--repeat", "1", "--dist", "/tmp/d", "--keep"]))?;
        assert_eq!(o.sizes, vec![500, 2000]);
        assert_eq!((o.dot_timeout_s, o.repeat, o.keep), (None, 1, true));
        assert_eq!(o.dist, Some(PathBuf::from("/tmp/d")));
        assert!(parse_args(&util::strings(&["--sizes", "0"])).is_err());
        assert!(parse_args(&util::strings(&["--sizes", "x"])).is_err());
        assert!(parse_args(&util::strings(&["--dot-timeout"])).is_err());
        assert!(parse_args(&util::strings(&["--bogus"])).is_err());
        Ok(())
    }
}
