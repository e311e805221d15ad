//! `cargo xtask bench-demo [--runs N] [--dist D]`: the small-capture numbers of issue 21 item 5,
//! measured in headless Chromium and printed beside their targets (never asserted).
//!
//! Uses the release `dist/` (or `--dist D`, e.g. a private copy while others rebuild `dist/`),
//! building it when missing, and runs `tests/bench/demo-bench.mjs` (playwright-core, Debian
//! Chromium), which serves it and, in a fresh context per run, measures the cached cold start
//! (reload → the analysis worker ready) and the bundled demo's open ("Open demo" click → the
//! swimlane's first frame), with where the time went. Writes `tests/artifacts/bench-demo.json`.

use std::path::PathBuf;
use std::process::Command;

use crate::{build, util};

#[derive(Debug, PartialEq)]
pub struct Options {
    pub runs: u32,
    pub dist: Option<PathBuf>,
}

pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut opts = Options { runs: 5, dist: None };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--dist" => opts.dist = Some(PathBuf::from(it.next().ok_or("--dist needs a directory")?)),
            "--runs" => {
                let v = it.next().ok_or("--runs needs a number")?;
                opts.runs = v.parse().map_err(|_| format!("bad run count `{v}`"))?;
                if opts.runs == 0 {
                    return Err("--runs must be at least 1".into());
                }
            }
            other => return Err(format!("unknown bench-demo option `{other}`")),
        }
    }
    Ok(opts)
}

pub fn run(opts: &Options) -> Result<(), String> {
    let dist = build::built_dist(opts.dist.as_ref())?;
    util::step("bench: running tests/bench/demo-bench.mjs in headless Chromium");
    let out = util::tests_dir().join("artifacts").join("bench-demo.json");
    util::run(
        Command::new("node")
            .arg("bench/demo-bench.mjs")
            .arg("--dist")
            .arg(&dist)
            .arg("--runs")
            .arg(opts.runs.to_string())
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
        assert_eq!(parse_args(&[])?, Options { runs: 5, dist: None });
        let o = parse_args(&util::strings(&["--runs", "3", "--dist", "/tmp/d"]))?;
        assert_eq!(o, Options { runs: 3, dist: Some(PathBuf::from("/tmp/d")) });
        assert!(parse_args(&util::strings(&["--runs"])).is_err());
        assert!(parse_args(&util::strings(&["--runs", "0"])).is_err());
        assert!(parse_args(&util::strings(&["--bogus"])).is_err());
        Ok(())
    }
}
