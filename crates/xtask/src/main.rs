//! Build, serve and test automation for the trace viewer, so the `README` needs two commands.
//!
//! ```text
//! cargo xtask setup                 install missing tools (Chromium, wasm target, rustfmt/clippy, wasm-bindgen-cli, trunk, npm deps)
//! cargo xtask build [--public-url P] trunk release build into dist/ plus the bundled demo in dist/demo/
//! cargo xtask serve [--port N] [--no-build]   build, then serve dist/ on http://127.0.0.1:N/
//! cargo xtask check-layers          formats/analysis must not depend on wasm-bindgen, web-sys, js-sys, gloo*, leptos*;
//!                                   module rules of the page and worker crates (views apart, one request dispatch,
//!                                   no import cycle among the worker's modules)
//! cargo xtask test                  everything CI runs: setup, layers, fmt, clippy, native, wasm and browser tests
//! cargo xtask plumbing              lines of hand-written browser plumbing (closures, listeners, timers) per file
//! cargo xtask bench-browser [--tasks N] [--keep]   issue-4 performance numbers in headless Chromium
//! cargo xtask bench-layout-browser [--sizes …]      issue-6 layout times: wasm (Chromium), native, dot
//! cargo xtask bench-passes-browser [--dist D] [--lines N] [--iterations N] [--ir-trace DIR] [--scale-lines N]
//!                                   IR Pass Trace diff: wasm vs native vs Python difflib
//! cargo xtask bench-demo [--runs N] [--dist D]     issue-21 small captures: cached cold start, demo open
//! cargo xtask bench-graph-scale [--tasks N] [--dist D] [--keep]   issue-21 item 4: the task graph at 1M tasks
//! ```
//!
//! Every child process gets `tests/node_modules/.bin` first on `PATH` (the npm `binaryen`
//! package's `wasm-opt` 132, never Debian's broken 108) and `$CARGO_HOME/bin`.

mod bench_browser;
mod bench_demo;
mod bench_graph_scale;
mod bench_layout;
mod bench_passes;
mod build;
mod layers;
mod module_rules;
mod plumbing;
mod rust_source;
mod serve;
mod setup;
mod test_cmd;
mod ui_strings;
mod util;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command> [options]

commands:
  setup                      install whatever is missing (idempotent, a no-op when all is present)
  build [--public-url P]     setup, `trunk build --release`, bundle the demo dataset into dist/demo/
  serve [--port N] [--no-build] [--dir D]
                             build, then serve dist/ on http://127.0.0.1:N/ (default 8080)
  check-layers               fail if a pure crate (vocab, columns, formats, analysis, protocol,
                             replies) depends on web crates, if a module rule of the page /
                             worker crate is broken beyond its allow-list, or if the worker's
                             modules import each other in a cycle (crates/xtask/src/module_rules.rs)
  test                       setup, check-layers, fmt, clippy, clippy wasm, native tests, wasm
                             tests, release build, e2e tests
  plumbing                   per file of the app, worker and render crates, the lines of
                             hand-written browser plumbing (Closure::new, add_event_listener,
                             set_timeout, .forget(), …), and the total
  bench-browser [--tasks N] [--keep]
                             generate an N-task level-4 capture (default 1000000), load it in
                             headless Chromium, print load/memory/frame/hover/select/search numbers
                             and write tests/artifacts/bench-swimlane.json
  bench-layout-browser [--sizes 1000,10000,100000] [--dot-timeout S] [--no-dot] [--repeat N]
                       [--dist DIR] [--keep]
                             generate DAGs (`gen --dag`), time the dependency-graph layout in
                             wasm in headless Chromium, natively and Graphviz dot (installed when
                             missing), print the table, write tests/artifacts/bench-layout.json
  bench-passes-browser [--dist D] [--lines N] [--iterations N] [--ir-trace DIR] [--scale-lines N]
                             time the IR Pass Trace diff of the 49-pass dump and two N-line pairs
                             (default 200000) in wasm (headless Chromium), natively and in Python
                             difflib (and pypto's ir_trace from DIR); writes
                             tests/artifacts/bench-passes.json; then a --scale-lines pair
                             (default 1000000, 0 skips) opened in the page: click → diff shown
                             (target <= 2 s), where the time went, row elements in the DOM
  bench-demo [--runs N] [--dist D]
                             in headless Chromium, N runs (default 5): the cached cold start
                             (reload → worker ready) and \"Open demo\" → swimlane drawn, each
                             beside its target, with where the time goes; writes
                             tests/artifacts/bench-demo.json
  bench-graph-scale [--tasks N] [--dist D] [--keep]
                             generate an N-task DAG (`gen --dag`, default 1000000), open its
                             Task Dependency Graph in headless Chromium: click -> drawn, the
                             layout in wasm with the progress shown, pan frame times (fps), each
                             beside its target; writes tests/artifacts/bench-graph-scale.json
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((cmd, rest)) = args.split_first() else {
        eprint!("{USAGE}");
        return ExitCode::FAILURE;
    };
    util::prepare_path();
    let result = match cmd.as_str() {
        "setup" => no_args(rest).and_then(|()| setup::run()),
        "build" => build::parse_args(rest).and_then(|opts| build::run(&opts, true)),
        "serve" => serve::parse_args(rest).and_then(|opts| serve::run(&opts)),
        "check-layers" => no_args(rest).and_then(|()| layers::run()),
        "test" => no_args(rest).and_then(|()| test_cmd::run()),
        "plumbing" => no_args(rest).and_then(|()| plumbing::run()),
        "bench-browser" => bench_browser::parse_args(rest).and_then(|opts| bench_browser::run(&opts)),
        "bench-layout-browser" => bench_layout::parse_args(rest).and_then(|opts| bench_layout::run(&opts)),
        "bench-passes-browser" => bench_passes::parse_args(rest).and_then(|opts| bench_passes::run(&opts)),
        "bench-demo" => bench_demo::parse_args(rest).and_then(|opts| bench_demo::run(&opts)),
        "bench-graph-scale" => bench_graph_scale::parse_args(rest).and_then(|opts| bench_graph_scale::run(&opts)),
        "help" | "-h" | "--help" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("xtask {cmd}: error: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn no_args(rest: &[String]) -> Result<(), String> {
    match rest.first() {
        None => Ok(()),
        Some(arg) => Err(format!("unexpected argument `{arg}`\n\n{USAGE}")),
    }
}
