//! `cargo xtask setup`: installs what the build and the tests need, only when missing or at
//! the wrong version. Idempotent; on a machine that has everything it only prints `ok` lines.
//!
//! Versions: wasm-bindgen-cli must equal the `wasm-bindgen` crate in Cargo.lock (the CLI checks
//! the schema version); trunk is pinned to 0.21.14 (0.22 needs rustc 1.96.1); wasm-opt comes
//! from npm `binaryen` 132 in `tests/node_modules` (Debian's binaryen 108 corrupts the output).

use std::path::Path;
use std::process::Command;

use crate::util;

pub const TRUNK_VERSION: &str = "0.21.14";
const WASM_TARGET: &str = "wasm32-unknown-unknown";
const RUST_COMPONENTS: &[&str] = &["rustfmt", "clippy"];
const WASM_OPT_VERSION: &str = "version 132";

pub fn run() -> Result<(), String> {
    util::step("setup: checking tools");
    chromium()?;
    cjk_font()?;
    wasm_target()?;
    rust_components()?;
    wasm_bindgen()?;
    trunk()?;
    npm_packages()?;
    wasm_opt()?;
    println!("setup: all tools present");
    Ok(())
}

fn ok(what: &str, detail: &str) {
    println!("  ok  {what}: {detail}");
}

fn chromium() -> Result<(), String> {
    let browser = util::which("chromium");
    let driver = util::which("chromedriver");
    if let (Some(browser), Some(driver)) = (&browser, &driver) {
        ok("chromium", &browser.display().to_string());
        ok("chromedriver", &driver.display().to_string());
        return Ok(());
    }
    let missing: Vec<&str> =
        [("chromium", &browser), ("chromedriver", &driver)].iter().filter(|(_, found)| found.is_none()).map(|(name, _)| *name).collect();
    let install = "apt-get update && apt-get install -y chromium chromium-driver";
    if !util::is_root() {
        return Err(format!(
            "{} not found and this is not root, so I can't install them. Run:\n    sudo sh -c '{install}'\nthen re-run the command.",
            missing.join(" and ")
        ));
    }
    println!("  ..  {} missing: installing Debian's chromium and chromium-driver", missing.join(" and "));
    util::run(Command::new("apt-get").arg("update").env("DEBIAN_FRONTEND", "noninteractive"))?;
    util::run(Command::new("apt-get").args(["install", "-y", "chromium", "chromium-driver"]).env("DEBIAN_FRONTEND", "noninteractive"))?;
    for tool in ["chromium", "chromedriver"] {
        let found = util::which(tool).ok_or(format!("{tool} still not on PATH after apt-get install"))?;
        ok(tool, &found.display().to_string());
    }
    Ok(())
}

/// A font with Chinese glyphs, so the Chinese UI's screenshots show characters, not boxes.
const CJK_FONT_PACKAGE: &str = "fonts-wqy-microhei";

fn cjk_font() -> Result<(), String> {
    let has_cjk = || util::output("fc-list", &[":lang=zh", "family"]).is_some_and(|out| !out.trim().is_empty());
    if has_cjk() {
        ok("CJK font", "fc-list :lang=zh lists one");
        return Ok(());
    }
    let install = format!("apt-get install -y {CJK_FONT_PACKAGE}");
    if !util::is_root() {
        return Err(format!("no font with Chinese glyphs (fc-list :lang=zh is empty) and this is not root. Run:\n    sudo sh -c '{install}'\nthen re-run the command."));
    }
    println!("  ..  no CJK font: installing Debian's {CJK_FONT_PACKAGE}");
    util::run(Command::new("apt-get").args(["install", "-y", CJK_FONT_PACKAGE]).env("DEBIAN_FRONTEND", "noninteractive"))?;
    if !has_cjk() {
        return Err(format!("{CJK_FONT_PACKAGE} installed but fc-list :lang=zh is still empty"));
    }
    ok("CJK font", CJK_FONT_PACKAGE);
    Ok(())
}

fn wasm_target() -> Result<(), String> {
    let installed = util::output("rustup", &["target", "list", "--installed"])
        .ok_or("`rustup target list --installed` failed: is the Rust toolchain installed with rustup?")?;
    if installed.lines().any(|line| line.trim() == WASM_TARGET) {
        ok("rust target", WASM_TARGET);
        return Ok(());
    }
    println!("  ..  rust target {WASM_TARGET} missing: adding it");
    util::run(Command::new("rustup").args(["target", "add", WASM_TARGET]))
}

/// rustfmt and clippy, for the `fmt` and `clippy` stages of `cargo xtask test` (rustup's
/// default profile has them; the minimal one does not).
fn rust_components() -> Result<(), String> {
    let installed = util::output("rustup", &["component", "list", "--installed"])
        .ok_or("`rustup component list --installed` failed: is the Rust toolchain installed with rustup?")?;
    let missing = missing_components(&installed);
    if missing.is_empty() {
        ok("rust components", &RUST_COMPONENTS.join(", "));
        return Ok(());
    }
    println!("  ..  rust component(s) {} missing: adding them", missing.join(", "));
    util::run(Command::new("rustup").args(["component", "add"]).args(&missing))
}

/// The [`RUST_COMPONENTS`] absent from `rustup component list --installed`'s output (lines
/// `<component>-<host triple>`).
fn missing_components(installed: &str) -> Vec<&'static str> {
    RUST_COMPONENTS.iter().copied().filter(|c| !installed.lines().any(|line| line.trim().starts_with(&format!("{c}-")))).collect()
}

/// The `wasm-bindgen` version(s) pinned in a Cargo.lock text.
pub fn locked_versions(lock: &str, crate_name: &str) -> Vec<String> {
    let mut versions = Vec::new();
    let mut name: Option<&str> = None;
    for line in lock.lines().map(str::trim) {
        if line == "[[package]]" {
            name = None;
        } else if let Some(value) = toml_string(line, "name") {
            name = Some(value);
        } else if let Some(value) = toml_string(line, "version") {
            if name == Some(crate_name) && !versions.iter().any(|v| v == value) {
                versions.push(value.to_string());
            }
        }
    }
    versions
}

fn toml_string<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(key)?.trim_start().strip_prefix('=')?.trim();
    rest.strip_prefix('"')?.strip_suffix('"')
}

fn wasm_bindgen() -> Result<(), String> {
    let lock_path = util::root().join("Cargo.lock");
    if !lock_path.exists() {
        // `cargo metadata` writes a missing lock file without touching an existing one.
        println!("  ..  Cargo.lock missing: resolving the workspace to create it");
        let status = Command::new(util::cargo())
            .args(["metadata", "--format-version", "1"])
            .current_dir(util::root())
            .stdout(std::process::Stdio::null())
            .status()
            .map_err(|e| format!("cargo metadata: {e}"))?;
        if !status.success() {
            return Err("`cargo metadata` failed; fix the workspace manifests first".into());
        }
    }
    let lock = std::fs::read_to_string(&lock_path).map_err(|e| format!("read {}: {e}", lock_path.display()))?;
    let versions = locked_versions(&lock, "wasm-bindgen");
    let wanted = match versions.as_slice() {
        [] => {
            println!("  --  wasm-bindgen-cli: no `wasm-bindgen` crate in Cargo.lock yet, skipped");
            return Ok(());
        }
        [one] => one.clone(),
        many => return Err(format!("Cargo.lock has several wasm-bindgen versions ({}); the CLI can match only one", many.join(", "))),
    };
    let expected = format!("wasm-bindgen {wanted}");
    let found = util::output("wasm-bindgen", &["--version"]);
    if found.as_deref() == Some(expected.as_str()) {
        ok("wasm-bindgen-cli", &format!("{wanted} (= Cargo.lock)"));
        return Ok(());
    }
    println!(
        "  ..  wasm-bindgen-cli {wanted} needed (Cargo.lock), found {}: installing (about 10 minutes)",
        found.as_deref().unwrap_or("none")
    );
    // No --locked: the CLI's own lock pins a webpki-roots the registry mirror lacks.
    util::run(Command::new(util::cargo()).args(["install", "wasm-bindgen-cli", "--version", &format!("={wanted}"), "--force"]))?;
    check_version("wasm-bindgen", &expected)
}

fn trunk() -> Result<(), String> {
    let expected = format!("trunk {TRUNK_VERSION}");
    let found = util::output("trunk", &["--version"]);
    if found.as_deref() == Some(expected.as_str()) {
        ok("trunk", TRUNK_VERSION);
        return Ok(());
    }
    println!("  ..  trunk {TRUNK_VERSION} needed, found {}: installing without LTO (about 8 minutes)", found.as_deref().unwrap_or("none"));
    util::run(
        Command::new(util::cargo())
            .args(["install", "trunk", "--version", &format!("={TRUNK_VERSION}"), "--locked", "--force"])
            .env("CARGO_PROFILE_RELEASE_LTO", "false")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16"),
    )?;
    check_version("trunk", &expected)
}

fn check_version(tool: &str, expected: &str) -> Result<(), String> {
    let found = util::output(tool, &["--version"]);
    if found.as_deref() == Some(expected) {
        ok(tool, expected);
        Ok(())
    } else {
        Err(format!("after installing, `{tool} --version` says {found:?}, expected `{expected}` (is $CARGO_HOME/bin on PATH?)"))
    }
}

/// `npm ci` in `tests/` when `node_modules` is missing or was installed from another
/// `package-lock.json`. What it was installed from is kept as a copy in `node_modules`
/// (`.pypto-package-lock.json`) and compared by content, so a fresh checkout of the same lock
/// (a git worktree whose `node_modules` links to the main one) is not "newer" by its mtime.
fn npm_packages() -> Result<(), String> {
    let tests = util::tests_dir();
    let lock = tests.join("package-lock.json");
    let installed_marker = tests.join("node_modules").join(".package-lock.json");
    let installed_from = tests.join("node_modules").join(".pypto-package-lock.json");
    if util::which("npm").is_none() || util::which("node").is_none() {
        return Err("node/npm not found on PATH: install Node.js 20 with npm".into());
    }
    let Ok(wanted) = std::fs::read(&lock) else {
        return Err(format!("{} is missing (generate it with `npm install` in tests/)", lock.display()));
    };
    let remember = || std::fs::write(&installed_from, &wanted).map_err(|e| format!("writing {}: {e}", installed_from.display()));
    if installed_marker.exists() && std::fs::read(&installed_from).is_ok_and(|had| had == wanted) {
        ok("npm packages", "tests/node_modules installed from this package-lock.json");
        return Ok(());
    }
    if installed_marker.exists() && !installed_from.exists() && !newer(&lock, &installed_marker) {
        // Installed before the copy was kept: the mtimes say it is current.
        ok("npm packages", "tests/node_modules up to date");
        return remember();
    }
    println!("  ..  tests/node_modules missing or installed from another package-lock.json: npm ci");
    util::run(Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(&tests))?;
    remember()
}

fn newer(a: &Path, b: &Path) -> bool {
    let mtime = |p: &Path| p.metadata().and_then(|m| m.modified()).ok();
    match (mtime(a), mtime(b)) {
        (Some(a), Some(b)) => a > b,
        _ => true,
    }
}

fn wasm_opt() -> Result<(), String> {
    let want = util::tests_dir().join("node_modules").join(".bin").join("wasm-opt");
    let found = util::which("wasm-opt");
    if found.as_deref() != Some(want.as_path()) {
        return Err(format!(
            "wasm-opt on PATH is {found:?}, expected {} (npm binaryen; Debian's binaryen 108 breaks the output)",
            want.display()
        ));
    }
    let version = util::output("wasm-opt", &["--version"]).unwrap_or_default();
    if !version.contains(WASM_OPT_VERSION) {
        return Err(format!("`wasm-opt --version` says `{version}`, expected {WASM_OPT_VERSION}"));
    }
    ok("wasm-opt", &format!("{version} (tests/node_modules/.bin)"));
    Ok(())
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::{locked_versions, missing_components};

    #[test]
    fn finds_missing_rust_components() {
        let all = "cargo-x86_64-unknown-linux-gnu\nclippy-x86_64-unknown-linux-gnu\nrust-std-wasm32-unknown-unknown\nrustfmt-x86_64-unknown-linux-gnu\n";
        assert!(missing_components(all).is_empty());
        let minimal = "cargo-x86_64-unknown-linux-gnu\nrustc-x86_64-unknown-linux-gnu\nrust-std-x86_64-unknown-linux-gnu\n";
        assert_eq!(missing_components(minimal), vec!["rustfmt", "clippy"]);
    }

    #[test]
    fn reads_the_locked_wasm_bindgen_version() {
        let lock = r#"
version = 4

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"
dependencies = [
 "wasm-bindgen-macro",
]

[[package]]
name = "wasm-bindgen-macro"
version = "0.2.130"

[[package]]
name = "web-sys"
version = "0.3.107"
"#;
        assert_eq!(locked_versions(lock, "wasm-bindgen"), vec!["0.2.130".to_string()]);
        assert_eq!(locked_versions(lock, "web-sys"), vec!["0.3.107".to_string()]);
        assert!(locked_versions(lock, "leptos").is_empty());
    }
}
