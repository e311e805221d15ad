//! `cargo xtask test`: the one test command (CI runs it through `.ci/run`).
//!
//! Stages, in order, failing fast: setup, check-layers, the style gates (`cargo fmt --check`,
//! clippy with `-D warnings` natively over the workspace and for wasm32 over the wasm
//! crates), native tests, wasm tests in headless Chromium (wasm-bindgen-test via
//! chromedriver), the release build with wasm-opt (the e2e suite always tests the optimized
//! build), the Playwright e2e suite over `dist/`.
//! Output streams live; a summary line with per-stage timings closes the run.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::{build, layers, setup, util};

/// Excluded from the native `cargo test --workspace` (wasm-only binaries: they compile
/// natively, so the native clippy gate still lints them, but their tests need a browser).
const NATIVE_EXCLUDE: &[&str] = &["pypto-app", "pypto-worker"];
/// Of those, the ones whose library unit tests are plain Rust and run natively too (the page's
/// URL-hash codec and view registry); their browser tests run in the wasm stage.
const NATIVE_LIB_TESTS: &[&str] = &["pypto-app"];
/// Packages with `wasm_bindgen_test` tests, run in headless Chromium; also the packages the
/// `clippy wasm` gate lints for wasm32 (where their `cfg(target_arch = "wasm32")` code is).
const WASM_PACKAGES: &[&str] = &["pypto-render", "pypto-app", "pypto-worker"];
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// Flags for Chromium under chromedriver (toolchain.md §6a; the runner adds headless and no-sandbox).
const WEBDRIVER_JSON: &str = r#"{
  "goog:chromeOptions": {
    "binary": "/usr/bin/chromium",
    "args": ["--use-angle=swiftshader", "--enable-unsafe-swiftshader",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--no-first-run", "--disable-quic", "--disable-default-apps"]
  }
}
"#;

type Stage = (&'static str, fn() -> Result<(), String>);

pub fn run() -> Result<(), String> {
    let stages: &[Stage] = &[
        ("setup", setup::run),
        ("check-layers", layers::run),
        ("fmt", fmt_check),
        ("clippy", clippy_native),
        ("clippy wasm", clippy_wasm),
        ("native tests", native_tests),
        ("wasm tests", wasm_tests),
        ("release build", || build::run(&build::Options::default(), false)),
        ("e2e tests", e2e_tests),
    ];
    let started = Instant::now();
    let mut timings: Vec<(&str, Duration)> = Vec::new();
    for (name, stage) in stages {
        util::step(&format!("test: stage `{name}`"));
        let t = Instant::now();
        let result = stage();
        timings.push((name, t.elapsed()));
        if let Err(msg) = result {
            println!("xtask test: FAILED at stage `{name}` after {}", summary(&timings, started.elapsed()));
            return Err(format!("stage `{name}` failed: {msg}"));
        }
    }
    println!("xtask test: OK: {}", summary(&timings, started.elapsed()));
    Ok(())
}

fn summary(timings: &[(&str, Duration)], total: Duration) -> String {
    let parts: Vec<String> = timings.iter().map(|(name, d)| format!("{name} {:.1}s", d.as_secs_f64())).collect();
    format!("{} (total {:.1}s)", parts.join(", "), total.as_secs_f64())
}

/// Names of the workspace members (`cargo metadata --no-deps`).
fn workspace_packages() -> Result<Vec<String>, String> {
    let out = Command::new(util::cargo())
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(util::root())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!("`cargo metadata --no-deps` failed ({})", out.status));
    }
    let meta: Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    Ok(meta["packages"].as_array().map(|ps| ps.iter().filter_map(|p| p["name"].as_str().map(String::from)).collect()).unwrap_or_default())
}

/// The tree is formatted as `rustfmt.toml` says.
fn fmt_check() -> Result<(), String> {
    util::run(Command::new(util::cargo()).args(["fmt", "--all", "--check"]).current_dir(util::root()))
        .map_err(|e| format!("{e}; run `cargo fmt --all`"))
}

/// Clippy over every workspace member and target (tests, benches, examples), natively, with
/// the workspace lints of the root `Cargo.toml` as errors.
fn clippy_native() -> Result<(), String> {
    util::run(
        Command::new(util::cargo()).args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]).current_dir(util::root()),
    )
}

/// Clippy for wasm32 over the crates that run in the browser.
fn clippy_wasm() -> Result<(), String> {
    let present = wasm_packages()?;
    if present.is_empty() {
        return Ok(());
    }
    let mut cmd = Command::new(util::cargo());
    cmd.args(["clippy", "--target", "wasm32-unknown-unknown"]).current_dir(util::root());
    for name in present {
        cmd.args(["-p", name]);
    }
    util::run(cmd.args(["--all-targets", "--", "-D", "warnings"]))
}

/// The [`WASM_PACKAGES`] that are workspace members (says which are not).
fn wasm_packages() -> Result<Vec<&'static str>, String> {
    let members = workspace_packages()?;
    let (present, absent): (Vec<&str>, Vec<&str>) = WASM_PACKAGES.iter().partition(|n| members.iter().any(|m| m == *n));
    if !absent.is_empty() {
        println!("  --  not in the workspace, skipped: {}", absent.join(", "));
    }
    if present.is_empty() {
        println!("  --  no wasm packages");
    }
    Ok(present)
}

fn native_tests() -> Result<(), String> {
    let members = workspace_packages()?;
    let mut cmd = Command::new(util::cargo());
    cmd.args(["test", "--workspace"]).current_dir(util::root());
    for name in NATIVE_EXCLUDE.iter().filter(|n| members.iter().any(|m| m == *n)) {
        cmd.args(["--exclude", name]);
    }
    util::run(&mut cmd)?;
    for name in NATIVE_LIB_TESTS.iter().filter(|n| members.iter().any(|m| m == *n)) {
        util::run(Command::new(util::cargo()).args(["test", "--lib", "-p", name]).current_dir(util::root()))?;
    }
    Ok(())
}

fn wasm_tests() -> Result<(), String> {
    let present = wasm_packages()?;
    if present.is_empty() {
        return Ok(());
    }
    let webdriver_json = util::root().join("target").join("xtask").join("webdriver.json");
    if let Some(dir) = webdriver_json.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
    }
    std::fs::write(&webdriver_json, WEBDRIVER_JSON).map_err(|e| format!("write {}: {e}", webdriver_json.display()))?;
    let mut cmd = Command::new(util::cargo());
    cmd.args(["test", "--target", "wasm32-unknown-unknown"])
        .current_dir(util::root())
        .env("CHROMEDRIVER", CHROMEDRIVER)
        .env("WASM_BINDGEN_TEST_WEBDRIVER_JSON", &webdriver_json);
    for name in present {
        cmd.args(["-p", name]);
    }
    util::run(&mut cmd)
}

fn e2e_tests() -> Result<(), String> {
    let dist = build::dist_dir();
    let tests = util::tests_dir();
    let artifacts = tests.join("artifacts");
    std::fs::create_dir_all(&artifacts).map_err(|e| format!("create {}: {e}", artifacts.display()))?;
    util::run(
        Command::new("node").args(["--test", "--test-reporter=spec"]).current_dir(&tests).env("DIST", &dist).env("SCREENSHOTS", &artifacts),
    )
    .map_err(|e| format!("{e}; screenshots and logs in {}", artifacts.display()))
}
