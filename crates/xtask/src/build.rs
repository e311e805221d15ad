//! `cargo xtask build`: setup, `trunk build --release` (wasm-opt from npm binaryen 132 on
//! PATH), then the bundled demo dataset in `dist/demo/` and its manifest written by the
//! project CLI (`pypto-viewer manifest dist/demo`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{setup, util};

/// Where the demo's files come from, relative to the repo root.
const DEMO_RUNTIME_FIXTURE: &str = "fixtures/runtime/a2a3sim-L4-TestPagedAttention_CaseMediumLocal";
const DEMO_PASSES_FIXTURE: &str = "fixtures/passes/generated-paged_attention";
/// `dist/demo/<DEMO_CASE>/{dfx_outputs,passes_dump,report}`.
const DEMO_CASE: &str = "paged_attention";
pub const MANIFEST_NAME: &str = "pypto-viewer-manifest.json";

#[derive(Debug, Default)]
pub struct Options {
    /// Passed to `trunk build --public-url` (hosting under a sub-path).
    pub public_url: Option<String>,
}

pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut opts = Options::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--public-url" => {
                opts.public_url = Some(it.next().ok_or("--public-url needs a value")?.clone());
            }
            other => return Err(format!("unknown build option `{other}`")),
        }
    }
    Ok(opts)
}

pub fn dist_dir() -> PathBuf {
    util::root().join("dist")
}

/// The built site the benches serve: `given` (which must hold an index.html), else `dist/`,
/// built first (with setup) when it holds none.
pub fn built_dist(given: Option<&PathBuf>) -> Result<PathBuf, String> {
    if let Some(dir) = given {
        return if dir.join("index.html").is_file() {
            Ok(dir.clone())
        } else {
            Err(format!("{} has no built site (index.html)", dir.display()))
        };
    }
    let dist = dist_dir();
    if dist.join("index.html").is_file() {
        util::step(&format!("reusing {} (delete it or run `cargo xtask build` to rebuild)", dist.display()));
    } else {
        run(&Options::default(), true)?;
    }
    Ok(dist)
}

pub fn run(opts: &Options, with_setup: bool) -> Result<(), String> {
    if with_setup {
        setup::run()?;
    }
    let root = util::root();
    let dist = dist_dir();
    trunk_build(&root, opts)?;
    util::step("build: bundling the demo dataset into dist/demo/");
    let demo = dist.join("demo");
    let count = assemble_demo(&root, &demo)?;
    println!("  copied {count} files into {}", demo.display());
    util::step("build: writing the demo manifest with the project CLI");
    util::run(
        Command::new(util::cargo())
            .args(["run", "--release", "-p", "pypto-cli", "--bin", "pypto-viewer", "--", "manifest", "dist/demo"])
            .current_dir(&root),
    )?;
    let manifest = demo.join(MANIFEST_NAME);
    if !manifest.is_file() {
        return Err(format!("the CLI did not write {}", manifest.display()));
    }
    println!("build: done, output in {}", dist.display());
    Ok(())
}

fn trunk_build(root: &Path, opts: &Options) -> Result<(), String> {
    if !root.join("Trunk.toml").is_file() {
        return Err(format!("{} is missing (the app's trunk config)", root.join("Trunk.toml").display()));
    }
    util::step("build: trunk build --release");
    let mut cmd = Command::new("trunk");
    cmd.args(["build", "--release"]).current_dir(root);
    if let Some(url) = &opts.public_url {
        cmd.args(["--public-url", url]);
    }
    util::run(&mut cmd)?;
    let index = dist_dir().join("index.html");
    if !index.is_file() {
        return Err(format!("trunk finished but {} is missing", index.display()));
    }
    Ok(())
}

/// Runtime files the viewer reads (the reference tools' text outputs stay out of the demo).
pub fn is_viewer_runtime_file(name: &str) -> bool {
    let json = Path::new(name).extension().is_some_and(|e| e == "json");
    matches!(
        name,
        "chip_swimlane_records.json" | "deps.json" | "merged_swimlane.json" | "critical_path_report.md" | "host_phase_records.jsonl"
    ) || (json && (name.starts_with("name_map") || name.starts_with("CPM_")))
}

/// Copies the demo case into `demo` (recreated): runtime files, the pass dump and its report.
/// Returns the number of files copied.
pub fn assemble_demo(root: &Path, demo: &Path) -> Result<u64, String> {
    if demo.exists() {
        std::fs::remove_dir_all(demo).map_err(|e| format!("remove {}: {e}", demo.display()))?;
    }
    let case = demo.join(DEMO_CASE);
    let runtime_src = root.join(DEMO_RUNTIME_FIXTURE);
    let runtime_dst = case.join("dfx_outputs");
    std::fs::create_dir_all(&runtime_dst).map_err(|e| format!("create {}: {e}", runtime_dst.display()))?;
    let mut copied = 0;
    let entries = std::fs::read_dir(&runtime_src).map_err(|e| format!("read {}: {e}", runtime_src.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("read {}: {e}", runtime_src.display()))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if entry.path().is_file() && is_viewer_runtime_file(&name) {
            let dst = runtime_dst.join(&*name);
            std::fs::copy(entry.path(), &dst).map_err(|e| format!("copy to {}: {e}", dst.display()))?;
            copied += 1;
        }
    }
    let passes = root.join(DEMO_PASSES_FIXTURE);
    copied += util::copy_dir(&passes.join("passes_dump"), &case.join("passes_dump"))?;
    copied += util::copy_dir(&passes.join("report"), &case.join("report"))?;
    Ok(copied)
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn runtime_file_filter() {
        for keep in [
            "chip_swimlane_records.json",
            "deps.json",
            "name_map_TestPagedAttention_CaseMediumLocal.json",
            "name_map.json",
            "CPM_static.json",
            "CPM_observed.json",
            "merged_swimlane.json",
            "critical_path_report.md",
            "host_phase_records.jsonl",
        ] {
            assert!(is_viewer_runtime_file(keep), "{keep}");
        }
        for drop in ["reference_converter_stdout.txt", "deps_viewer.txt", "deps_viewer_reduced.txt", "name_map.txt"] {
            assert!(!is_viewer_runtime_file(drop), "{drop}");
        }
    }

    #[test]
    fn assembles_the_demo_from_the_fixtures() {
        let root = util::root();
        if !root.join(DEMO_RUNTIME_FIXTURE).is_dir() {
            return; // fixtures not checked out
        }
        let tmp = std::env::temp_dir().join(format!("xtask-demo-test-{}", std::process::id()));
        let demo = tmp.join("demo");
        let copied = assemble_demo(&root, &demo).expect("assemble");
        let case = demo.join(DEMO_CASE);
        assert!(case.join("dfx_outputs/chip_swimlane_records.json").is_file());
        assert!(case.join("dfx_outputs/deps.json").is_file());
        assert!(!case.join("dfx_outputs/reference_converter_stdout.txt").exists());
        assert!(case.join("passes_dump/00_frontend.py").is_file());
        assert!(case.join("report/perf_hints.log").is_file());
        assert!(copied > 50);
        // Idempotent: a second run replaces the first.
        assert_eq!(assemble_demo(&root, &demo).expect("again"), copied);
        std::fs::remove_dir_all(&tmp).expect("cleanup");
    }
}
