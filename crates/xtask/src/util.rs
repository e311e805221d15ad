//! Small process and path helpers shared by the xtask commands.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The repository root (two levels above this crate's manifest). The manifest directory is
/// read at run time first (`cargo run` sets it), so an `xtask` binary shared through a common
/// `CARGO_TARGET_DIR` by two checkouts still works on the checkout it was run from.
/// Owned copies of `list` (the tests' argument lists).
#[cfg(test)]
pub fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_string()).collect()
}

pub fn root() -> PathBuf {
    let runtime = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    let manifest = runtime.as_deref().unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")));
    manifest.parent().and_then(Path::parent).map_or_else(|| manifest.to_path_buf(), Path::to_path_buf)
}

/// `tests/` — the e2e suite and the npm packages (playwright-core, binaryen).
pub fn tests_dir() -> PathBuf {
    root().join("tests")
}

/// Puts `tests/node_modules/.bin` (npm wasm-opt 132) and `$CARGO_HOME/bin` first on this
/// process's `PATH`, so every child (trunk, cargo, node) sees the same tools.
pub fn prepare_path() {
    let mut dirs: Vec<PathBuf> = vec![tests_dir().join("node_modules").join(".bin")];
    if let Some(cargo_bin) = cargo_home().map(|h| h.join("bin")) {
        dirs.push(cargo_bin);
    }
    let old = std::env::var_os("PATH").unwrap_or_default();
    let rest: Vec<PathBuf> = std::env::split_paths(&old).filter(|p| !dirs.contains(p)).collect();
    dirs.extend(rest);
    if let Ok(joined) = std::env::join_paths(dirs) {
        // Single-threaded at this point (called first thing in main).
        std::env::set_var("PATH", joined);
    }
}

fn cargo_home() -> Option<PathBuf> {
    std::env::var_os("CARGO_HOME").map(PathBuf::from).or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
}

/// The cargo binary that runs us (respects rustup's choice), else `cargo` on PATH.
pub fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// Finds an executable on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Prints a step header.
pub fn step(msg: &str) {
    println!("==> {msg}");
}

/// Describes a command for messages: `program arg arg`.
pub fn describe(cmd: &Command) -> String {
    let mut out = String::new();
    for (key, value) in cmd.get_envs() {
        if let Some(value) = value {
            out.push_str(&key.to_string_lossy());
            out.push('=');
            out.push_str(&value.to_string_lossy());
            out.push(' ');
        }
    }
    out.push_str(&cmd.get_program().to_string_lossy());
    for arg in cmd.get_args() {
        out.push(' ');
        out.push_str(&arg.to_string_lossy());
    }
    out
}

/// Runs a command with inherited stdio (output streams live); fails on a non-zero exit.
pub fn run(cmd: &mut Command) -> Result<(), String> {
    let text = describe(cmd);
    println!("+ {text}");
    let status = cmd.status().map_err(|e| format!("could not start `{text}`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{text}` failed ({status})"))
    }
}

/// Runs the project CLI (`pypto-viewer`, built in release) with `args`, from the repository
/// root: the benches generate their captures and manifests with it.
pub fn project_cli(args: &[&str]) -> Result<(), String> {
    run(Command::new(cargo())
        .args(["run", "--release", "-q", "-p", "pypto-cli", "--bin", "pypto-viewer", "--"])
        .args(args)
        .current_dir(root()))
}

/// Runs the browser bench `tests/<script>` (node: playwright-core and Debian Chromium,
/// installed by `setup`) on the static root `serve_root` (`--root`), with `args`, writing
/// `tests/artifacts/<out_name>` (`--out`); the root is removed after unless `keep`.
pub fn bench_on_root(script: &str, serve_root: &Path, args: &[String], out_name: &str, keep: bool) -> Result<(), String> {
    let out = tests_dir().join("artifacts").join(out_name);
    let result =
        run(Command::new("node").arg(script).arg("--root").arg(serve_root).args(args).arg("--out").arg(&out).current_dir(tests_dir()));
    if !keep {
        let _ = std::fs::remove_dir_all(serve_root);
    }
    result
}

/// Runs a command quietly and returns its trimmed stdout, or `None` if it can't run or fails.
pub fn output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).stdin(Stdio::null()).stderr(Stdio::null()).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Whether we run as root (apt-get allowed).
pub fn is_root() -> bool {
    output("id", &["-u"]).is_some_and(|uid| uid == "0")
}

/// Copies a directory tree (regular files and directories; symlinks are followed).
pub fn copy_dir(from: &Path, to: &Path) -> Result<u64, String> {
    let mut copied = 0;
    std::fs::create_dir_all(to).map_err(|e| format!("create {}: {e}", to.display()))?;
    let entries = std::fs::read_dir(from).map_err(|e| format!("read {}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("read {}: {e}", from.display()))?;
        let src = entry.path();
        let dst = to.join(entry.file_name());
        if src.is_dir() {
            copied += copy_dir(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst).map_err(|e| format!("copy {} -> {}: {e}", src.display(), dst.display()))?;
            copied += 1;
        }
    }
    Ok(copied)
}

/// `to/` mirrors `from/` by hard links (copies across file systems), for the bench roots.
pub fn link_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("create {}: {e}", to.display()))?;
    let entries = std::fs::read_dir(from).map_err(|e| format!("read {}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("read {}: {e}", from.display()))?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            link_dir(&src, &dst)?;
        } else if std::fs::hard_link(&src, &dst).is_err() {
            std::fs::copy(&src, &dst).map_err(|e| format!("copy {} -> {}: {e}", src.display(), dst.display()))?;
        }
    }
    Ok(())
}
