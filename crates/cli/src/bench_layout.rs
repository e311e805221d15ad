//! `pypto-viewer bench-layout`: times the dependency-graph layout
//! (`pypto_analysis::dag_layout`) on generated DAGs of realistic shape (`gen --dag`, the
//! paged-attention fan-out / fan-in pattern scaled to 1k / 10k / 100k tasks), read back
//! through the real `deps.json` parser and `DepsGraph`, and runs Graphviz `dot -Tplain` on
//! the same graphs (same node sizes and separations) with a timeout. Both drawings are
//! measured the same way (`dag_layout::metrics`: geometric edge crossings, total polyline
//! length; dot's B-splines are sampled at 8 points per cubic piece) and printed side by side
//! with the time ratio, so speed is not bought with an unreadable picture. `--json FILE`
//! also writes the rows as JSON (what `cargo xtask bench-layout-browser` merges with the
//! wasm timings measured in Chromium on the same generated graphs, `--dir DIR/dag-N/`).

// Short names (a = args, n = size, f = fields) in small scopes.
#![allow(clippy::many_single_char_names)]

use pypto_analysis::dag_layout::{self, metrics, Direction, LayoutOptions, NodeSize, Phase};
use pypto_analysis::deps_graph::{DepsGraph, NO_TASK};
use pypto_analysis::edge_modes::{select_edges, EdgeMode};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// Usage lines.
pub const USAGE: &str = "  pypto-viewer bench-layout [--sizes 1000,10000,100000] [--mode full|reduced|...]\n                  [--direction tb|lr] [--repeat N] [--dot-timeout SECONDS] [--no-dot] [--dir DIR] [--svg] [--json FILE]";

/// Node sizes used for both layouts (layout units = points).
const TASK_W: f32 = 140.0;
const SMALL_W: f32 = 72.0;
const NODE_H: f32 = 36.0;
/// Bound on segment-pair tests when counting geometric crossings.
const MAX_PAIR_TESTS: u64 = 2_000_000_000;

struct Args {
    sizes: Vec<usize>,
    mode: EdgeMode,
    direction: Direction,
    repeat: u32,
    dot_timeout: Option<Duration>,
    dir: PathBuf,
    svg: bool,
    json: Option<PathBuf>,
}

fn parse(args: &[&str]) -> Result<Args, String> {
    let mut a = Args {
        sizes: vec![1000, 10_000, 100_000],
        mode: EdgeMode::Full,
        direction: Direction::TopBottom,
        repeat: 3,
        dot_timeout: Some(Duration::from_mins(2)),
        dir: std::env::temp_dir().join("pypto-bench-layout"),
        svg: false,
        json: None,
    };
    let mut it = args.iter().copied();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag {
            "--sizes" => {
                a.sizes = value()?
                    .split(',')
                    .map(|s| s.trim().parse().map_err(|_| format!("--sizes: cannot parse {s:?}")))
                    .collect::<Result<_, _>>()?;
            }
            "--mode" => {
                let v = value()?;
                a.mode = EdgeMode::from_name(v).ok_or_else(|| format!("--mode: unknown mode {v:?}"))?;
            }
            "--direction" => {
                a.direction = match value()? {
                    "tb" | "TB" => Direction::TopBottom,
                    "lr" | "LR" => Direction::LeftRight,
                    v => return Err(format!("--direction: expected tb or lr, got {v:?}")),
                };
            }
            "--repeat" => a.repeat = value()?.parse().map_err(|_| "--repeat: not a number".to_owned())?,
            "--dot-timeout" => {
                let s: f64 = value()?.parse().map_err(|_| "--dot-timeout: not a number".to_owned())?;
                a.dot_timeout = Some(Duration::from_secs_f64(s.max(0.0)));
            }
            "--no-dot" => a.dot_timeout = None,
            "--dir" => a.dir = PathBuf::from(value()?),
            "--svg" => a.svg = true,
            "--json" => a.json = Some(PathBuf::from(value()?)),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    a.repeat = a.repeat.max(1);
    Ok(a)
}

/// Entry point (arguments after `bench-layout`).
pub fn run(args: &[&str]) -> ExitCode {
    let a = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("pypto-viewer bench-layout: {e}\nusage:\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let opts = LayoutOptions { direction: a.direction, ..LayoutOptions::default() };
    println!(
        "layout benchmark: mode {}, {:?}, node {TASK_W}×{NODE_H} (alloc/dummy {SMALL_W}), node_sep {}, rank_sep {}, best of {}",
        a.mode.as_str(),
        a.direction,
        opts.node_sep,
        opts.rank_sep,
        a.repeat
    );
    let mut rows = Vec::new();
    for &n in &a.sizes {
        match bench_one(&a, n, &opts) {
            Ok(r) => rows.push(r),
            Err(e) => {
                eprintln!("pypto-viewer bench-layout: {n} tasks: {e}");
                return ExitCode::from(1);
            }
        }
    }
    println!();
    println!("| tasks | nodes | edges | ours ms | dot ms | dot/ours | crossings ours | crossings dot | length ours | length dot |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for r in &rows {
        println!("{r}");
    }
    if let Some(path) = &a.json {
        let json = serde_json::json!({
            "mode": a.mode.as_str(),
            "direction": if a.direction == Direction::LeftRight { "LR" } else { "TB" },
            "rows": rows.iter().map(Row::to_json).collect::<Vec<_>>(),
        });
        let text = serde_json::to_string_pretty(&json).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text + "\n") {
            eprintln!("pypto-viewer bench-layout: cannot write {}: {e}", path.display());
            return ExitCode::from(1);
        }
        println!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}

/// One size's results, printed as a Markdown row.
struct Row {
    tasks: usize,
    nodes: usize,
    edges: usize,
    ours_ms: f64,
    /// Layout thread CPU time (Linux), to see through a busy machine.
    ours_cpu_ms: Option<f64>,
    ours_cross: Option<u64>,
    ours_len: f64,
    dot: Result<(f64, Option<u64>, f64), String>,
}

impl Row {
    /// The row as JSON (`null` where unmeasured; `dot_error` says why dot has no numbers).
    fn to_json(&self) -> serde_json::Value {
        let (dot_ms, dot_cross, dot_len, dot_error) = match &self.dot {
            Ok((ms, c, l)) => (Some(*ms), *c, Some(*l), None),
            Err(why) => (None, None, None, Some(why.clone())),
        };
        serde_json::json!({
            "tasks": self.tasks,
            "nodes": self.nodes,
            "edges": self.edges,
            "native_ms": self.ours_ms,
            "native_cpu_ms": self.ours_cpu_ms,
            "crossings_ours": self.ours_cross,
            "edge_length_ours": self.ours_len,
            "dot_ms": dot_ms,
            "crossings_dot": dot_cross,
            "edge_length_dot": dot_len,
            "dot_error": dot_error,
            "dir": format!("dag-{}", self.tasks),
        })
    }
}

impl std::fmt::Display for Row {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let opt = |c: Option<u64>| c.map_or("n/a".to_owned(), |c| c.to_string());
        match &self.dot {
            Ok((ms, cross, len)) => write!(
                f,
                "| {} | {} | {} | {:.1} | {:.0} | {:.0}× | {} | {} | {:.3e} | {:.3e} |",
                self.tasks,
                self.nodes,
                self.edges,
                self.ours_ms,
                ms,
                ms / self.ours_ms.max(1e-3),
                opt(self.ours_cross),
                opt(*cross),
                self.ours_len,
                len
            ),
            Err(why) => write!(
                f,
                "| {} | {} | {} | {:.1} | {why} | – | {} | – | {:.3e} | – |",
                self.tasks,
                self.nodes,
                self.edges,
                self.ours_ms,
                opt(self.ours_cross),
                self.ours_len
            ),
        }
    }
}

/// A layout run: total ms, ms per phase, the layout.
type Timed = (f64, Vec<(Phase, f64)>, dag_layout::Layout);

/// CPU time of this thread in ms (Linux `/proc/thread-self/schedstat`), to see through a
/// busy machine; `None` elsewhere.
fn thread_cpu_ms() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_ascii_whitespace().next()?.parse().ok()?;
    Some(ns / 1e6)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[allow(clippy::too_many_lines)] // one size: read, lay out, measure, run dot, print
fn bench_one(a: &Args, n: usize, opts: &LayoutOptions) -> Result<Row, String> {
    let dir = a.dir.join(format!("dag-{n}"));
    let t = Instant::now();
    crate::gen_dag::generate(&dir, n, 1, true)?;
    let gen_ms = ms(t.elapsed());
    let path = dir.join("deps.json");
    let t = Instant::now();
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let deps = pypto_formats::deps::parse(&path.display().to_string(), &bytes).map_err(|e| e.to_string())?;
    let parse_ms = ms(t.elapsed());
    let t = Instant::now();
    let g = DepsGraph::build(&deps, &[], &|_| false);
    let sel = select_edges(&g, &deps, a.mode, None);
    let graph_ms = ms(t.elapsed());
    let edges: Vec<(u32, u32)> = sel.shown.iter().map(|&e| (g.edge_pred[e as usize], g.edge_succ[e as usize])).collect();
    let sizes: Vec<NodeSize> = (0..g.node_count())
        .map(|v| {
            let row = g.task_row[v];
            let kernel = row != NO_TASK && !deps.tasks.is_dummy(row as usize);
            NodeSize { width: if kernel { TASK_W } else { SMALL_W }, height: NODE_H }
        })
        .collect();
    println!(
        "\n{n} tasks: {} nodes, {} edges ({} mode); gen {gen_ms:.0} ms, parse {parse_ms:.0} ms, graph + edge mode {graph_ms:.0} ms",
        g.node_count(),
        edges.len(),
        a.mode.as_str()
    );

    let mut best: Option<Timed> = None;
    let mut best_cpu = f64::INFINITY;
    for _ in 0..a.repeat {
        let cpu0 = thread_cpu_ms();
        let mut marks: Vec<(Phase, Instant)> = Vec::new();
        let t0 = Instant::now();
        let layout = dag_layout::layout(&sizes, &edges, opts, &mut |p| {
            if marks.last().is_none_or(|m| m.0 != p.phase) {
                marks.push((p.phase, Instant::now()));
            }
            true
        })
        .map_err(|e| e.to_string())?;
        let end = Instant::now();
        let total = ms(end - t0);
        if let (Some(a0), Some(a1)) = (cpu0, thread_cpu_ms()) {
            best_cpu = best_cpu.min(a1 - a0);
        }
        let phases: Vec<(Phase, f64)> =
            marks.iter().enumerate().map(|(i, (p, at))| (*p, ms(marks.get(i + 1).map_or(end, |m| m.1) - *at))).collect();
        if best.as_ref().is_none_or(|b| total < b.0) {
            best = Some((total, phases, layout));
        }
    }
    let Some((total, phases, layout)) = best else {
        return Err("no run".into());
    };
    let mut line = String::new();
    for (p, t) in &phases {
        let _ = write!(line, " {} {t:.1}", p.as_str());
    }
    println!(
        "  ours: {total:.1} ms wall, {best_cpu:.1} ms thread CPU ({}); {} layers, {} dummies, {} sweeps, layered crossings {} → {}, bbox {:.0}×{:.0}",
        line.trim(),
        layout.layer_count,
        layout.dummy_count,
        layout.sweeps,
        layout.initial_crossings,
        layout.crossings,
        layout.bbox.max_x - layout.bbox.min_x,
        layout.bbox.max_y - layout.bbox.min_y
    );
    if a.svg {
        let svg = dir.join("layout.svg");
        std::fs::write(&svg, to_svg(&layout, &sizes)).map_err(|e| format!("cannot write {}: {e}", svg.display()))?;
        println!("  wrote {}", svg.display());
    }
    let ours_lines: Vec<Vec<[f64; 2]>> =
        (0..edges.len()).map(|e| layout.polyline(e).iter().map(|p| [f64::from(p[0]), f64::from(p[1])]).collect()).collect();
    let t = Instant::now();
    let ours_cross = metrics::geometric_crossings(ours_lines.iter().map(Vec::as_slice), MAX_PAIR_TESTS);
    let ours_len: f64 = ours_lines.iter().map(|l| metrics::polyline_length(l)).sum();
    println!(
        "  ours: geometric crossings {}, edge length {ours_len:.4e} (measured in {:.0} ms)",
        ours_cross.map_or("n/a (too many)".to_owned(), |c| c.to_string()),
        ms(t.elapsed())
    );

    let dot = match a.dot_timeout {
        None => Err("skipped".to_owned()),
        Some(limit) => run_dot(&dir, &sizes, &edges, opts, limit),
    };
    match &dot {
        Ok((t, c, l)) => println!(
            "  dot:  {t:.0} ms ({:.0}× ours); geometric crossings {}, edge length {l:.4e}",
            t / total.max(1e-3),
            c.map_or("n/a".to_owned(), |c| c.to_string())
        ),
        Err(e) => println!("  dot:  {e}"),
    }
    Ok(Row {
        tasks: n,
        nodes: g.node_count(),
        edges: edges.len(),
        ours_ms: total,
        ours_cpu_ms: best_cpu.is_finite().then_some(best_cpu),
        ours_cross,
        ours_len,
        dot,
    })
}

/// Our drawing as SVG (boxes and polylines), to look at.
fn to_svg(l: &dag_layout::Layout, sizes: &[NodeSize]) -> String {
    let b = l.bbox;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{} {} {} {}\" width=\"{}\" height=\"{}\">\n<rect x=\"{}\" y=\"{}\" width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        b.min_x - 10.0,
        b.min_y - 10.0,
        b.max_x - b.min_x + 20.0,
        b.max_y - b.min_y + 20.0,
        ((b.max_x - b.min_x) / 4.0).max(100.0),
        ((b.max_y - b.min_y) / 4.0).max(100.0),
        b.min_x - 10.0,
        b.min_y - 10.0
    );
    for e in 0..l.edge_offsets.len().saturating_sub(1) {
        let pts: Vec<String> = l.polyline(e).iter().map(|p| format!("{:.1},{:.1}", p[0], p[1])).collect();
        let _ = writeln!(s, "<polyline points=\"{}\" fill=\"none\" stroke=\"#555\" stroke-width=\"2\"/>", pts.join(" "));
    }
    for (v, sz) in sizes.iter().enumerate() {
        let _ = writeln!(
            s,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{}\" height=\"{}\" fill=\"#9cf\" stroke=\"#036\"/>",
            l.x[v] - sz.width / 2.0,
            l.y[v] - sz.height / 2.0,
            sz.width,
            sz.height
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Writes `graph.dot`, times `dot -Tplain`, reads the drawing back and measures it.
fn run_dot(
    dir: &Path,
    sizes: &[NodeSize],
    edges: &[(u32, u32)],
    opts: &LayoutOptions,
    limit: Duration,
) -> Result<(f64, Option<u64>, f64), String> {
    let dot_path = dir.join("graph.dot");
    let plain_path = dir.join("graph.plain");
    let mut text = String::with_capacity(sizes.len() * 40 + edges.len() * 16);
    let _ = writeln!(
        text,
        "digraph G {{\n  graph [rankdir={}, nodesep={:.4}, ranksep={:.4}];\n  node [shape=box, fixedsize=true, label=\"\"];",
        if opts.direction == Direction::LeftRight { "LR" } else { "TB" },
        opts.node_sep / 72.0,
        opts.rank_sep / 72.0
    );
    for (v, s) in sizes.iter().enumerate() {
        let _ = writeln!(text, "  n{v} [width={:.4}, height={:.4}];", s.width / 72.0, s.height / 72.0);
    }
    for &(u, v) in edges {
        let _ = writeln!(text, "  n{u} -> n{v};");
    }
    text.push_str("}\n");
    std::fs::write(&dot_path, &text).map_err(|e| format!("cannot write {}: {e}", dot_path.display()))?;
    let out = std::fs::File::create(&plain_path).map_err(|e| format!("cannot write {}: {e}", plain_path.display()))?;
    let t0 = Instant::now();
    let mut child = match Command::new("dot").arg("-Tplain").arg(&dot_path).stdout(out).stderr(Stdio::null()).spawn() {
        Ok(c) => c,
        Err(e) => return Err(format!("cannot run dot ({e}); install Graphviz (apt-get install graphviz)")),
    };
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            if !status.success() {
                return Err(format!("dot failed: {status}"));
            }
            break;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("timeout > {:.0} s", limit.as_secs_f64()));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let dot_ms = ms(t0.elapsed());
    let _ = std::io::stdout().flush();
    let plain = std::fs::read_to_string(&plain_path).map_err(|e| format!("cannot read {}: {e}", plain_path.display()))?;
    let lines = parse_plain_edges(&plain)?;
    let cross = metrics::geometric_crossings(lines.iter().map(Vec::as_slice), MAX_PAIR_TESTS);
    let len: f64 = lines.iter().map(|l| metrics::polyline_length(l)).sum();
    Ok((dot_ms, cross, len))
}

/// Edge polylines (points) of a `-Tplain` drawing: each B-spline's cubic pieces sampled at
/// 8 points.
fn parse_plain_edges(plain: &str) -> Result<Vec<Vec<[f64; 2]>>, String> {
    const STEPS: u32 = 8;
    let mut out = Vec::new();
    for (k, line) in plain.lines().enumerate() {
        let mut f = line.split_ascii_whitespace();
        if f.next() != Some("edge") {
            continue;
        }
        let bad = || format!("graph.plain:{}: malformed edge line", k + 1);
        f.next();
        f.next();
        let count: usize = f.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
        let mut ctrl = Vec::with_capacity(count);
        for _ in 0..count {
            let x: f64 = f.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
            let y: f64 = f.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
            ctrl.push([x * 72.0, y * 72.0]);
        }
        let mut pts: Vec<[f64; 2]> = Vec::new();
        if let Some(&first) = ctrl.first() {
            pts.push(first);
        }
        let mut i = 0;
        while i + 3 < ctrl.len() {
            let [p0, p1, p2, p3] = [ctrl[i], ctrl[i + 1], ctrl[i + 2], ctrl[i + 3]];
            for s in 1..=STEPS {
                let t = f64::from(s) / f64::from(STEPS);
                let u = 1.0 - t;
                let b = [u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t];
                pts.push([
                    b[0] * p0[0] + b[1] * p1[0] + b[2] * p2[0] + b[3] * p3[0],
                    b[0] * p0[1] + b[1] * p1[1] + b[2] * p2[1] + b[3] * p3[1],
                ]);
            }
            i += 3;
        }
        out.push(pts);
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn reads_plain_splines() {
        let plain = "graph 1 2 2\nnode n0 1 1 1 0.5 \"\" solid box black lightgrey\nedge n0 n1 4 0 0 0 1 0 2 0 3 solid black\nstop\n";
        let e = parse_plain_edges(plain).unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].len(), 9);
        assert!((metrics::polyline_length(&e[0]) - 216.0).abs() < 1e-6);
        assert!(parse_plain_edges("edge a b 2 0 0\n").is_err());
    }

    #[test]
    fn parses_options() {
        let a = parse(&["--sizes", "10,20", "--mode", "reduced", "--direction", "lr", "--no-dot"]).unwrap();
        assert_eq!(a.sizes, vec![10, 20]);
        assert_eq!(a.mode, EdgeMode::Reduced);
        assert_eq!(a.direction, Direction::LeftRight);
        assert!(a.dot_timeout.is_none());
        assert!(parse(&["--mode", "nope"]).is_err());
    }
}
