//! `pypto-viewer gen <out-dir> --strace`: writes a seeded synthetic
//! `serving-strace-swimlane.json` in the shape pypto-serving's `render_8lane.py` writes
//! (runtime-formats.md §7.3), for the serving STRACE swimlane's tests and benchmarks.
//!
//! # Workload model
//!
//! One serving run: an API process (`pypto-serving-api`: `MainThread` plus one asyncio-task
//! lane per request with `http.chat_completions` spans and `request.queued` /
//! `request.finished` instants), a generate process (`pypto-serving-generate`: the
//! scheduler's `MainThread` with `scheduler.schedule`, `scheduler.queue_worker_step`,
//! `scheduler.wait_worker_output`, `scheduler.process_step_output` per step and
//! `ReplicaEngineCore.add_request` instants), `--workers` serving worker processes
//! (`serving-worker-<device ids joined by ",">`, devices split evenly) whose `MainThread`
//! runs `WorkerProcess.init_device_and_model`, one `WorkerProcess.batch_prefill`, then per
//! decode step `WorkerProcess.execute_step` ⊃ `prepare_decode`, `dispatch_decode` ⊃
//! `PyptoExecutor.run_prepared_decode`, `reclaim_decode`, plus an `executor` thread with
//! `PyptoExecutor.reclaim_prepared_decode` and a `worker.step_done` instant per step; and
//! the synthetic `Simpler host STRACE (<n> NPU lanes)` process (pid = max serving pid + 1,
//! `process_sort_index` = number of serving processes) with one `device <id>` lane per
//! device (`thread_sort_index` = device order): per invocation a root bar
//! `"<P###|D##> <callable> | simpler_run"` holding `bind`, `runner_run`, `validate` bars, with
//! the §7.3 arguments (`device`, `invocation`, `callable`, `decode_step`, `hid`, `host_ms`,
//! `bind_ms`, `runner_run_ms`, `validate_ms`, `strace_name`, `clock`, `strace_depth`) and
//! `cname: "thread_state_running"`.
//!
//! Times are µs floats from 0 (the script shifts by the earliest serving/STRACE timestamp);
//! every worker step waits for the slowest of its devices; events are sorted metadata first,
//! then by pid, tid, ts, like the script. Everything derives from `--seed` (splitmix64).

use std::fs;
use std::path::Path;
use std::process::ExitCode;

use serde_json::{json, Value};

/// Usage line for the STRACE mode of `gen`.
pub const USAGE: &str = "  pypto-viewer gen <out-dir> --strace [--workers N] [--devices N] [--steps N] [--requests N] [--seed S]";

/// The file name written.
pub const FILE_NAME: &str = "serving-strace-swimlane.json";

/// Options of one STRACE `gen` run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StraceOptions {
    pub workers: u32,
    pub devices: u32,
    pub steps: u32,
    pub requests: u32,
    pub seed: u64,
}

impl Default for StraceOptions {
    fn default() -> Self {
        Self { workers: 4, devices: 8, steps: 24, requests: 6, seed: 1 }
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[lo, hi)`, rounded to 0.001 µs (the script writes ns / 1000).
    fn us(&mut self, lo: f64, hi: f64) -> f64 {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((lo + u * (hi - lo)) * 1000.0).round() / 1000.0
    }
}

fn parse_args(args: &[&str]) -> Result<(String, StraceOptions), String> {
    let mut o = StraceOptions::default();
    let mut dir = None;
    let mut it = args.iter().copied();
    let num = |flag: &str, v: Option<&str>| -> Result<u64, String> {
        let v = v.ok_or_else(|| format!("{flag} needs a value"))?;
        v.parse().map_err(|_| format!("{flag}: cannot parse {v:?}"))
    };
    let small =
        |flag: &str, v: Option<&str>| -> Result<u32, String> { u32::try_from(num(flag, v)?).map_err(|_| format!("{flag} is too large")) };
    while let Some(a) = it.next() {
        match a {
            "--strace" => {}
            "--workers" => o.workers = small(a, it.next())?,
            "--devices" => o.devices = small(a, it.next())?,
            "--steps" => o.steps = small(a, it.next())?,
            "--requests" => o.requests = small(a, it.next())?,
            "--seed" => o.seed = num(a, it.next())?,
            _ if a.starts_with("--") => return Err(format!("unknown option {a} (STRACE mode)")),
            _ if dir.is_none() => dir = Some(a.to_owned()),
            _ => return Err(format!("unexpected argument {a:?}")),
        }
    }
    if o.workers == 0 || o.devices < o.workers || o.devices > 64 {
        return Err("--devices must be at least --workers (≥ 1) and at most 64".into());
    }
    if o.steps == 0 || o.steps > 100_000 || o.requests == 0 || o.requests > 10_000 {
        return Err("--steps must be 1..100000 and --requests 1..10000".into());
    }
    Ok((dir.ok_or("gen needs an output directory")?, o))
}

/// `gen … --strace` entry point.
pub fn run(args: &[&str]) -> ExitCode {
    let (dir, o) = match parse_args(args) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("pypto-viewer gen: {e}\nusage:\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let doc = generate(&o);
    let events = doc.get("traceEvents").and_then(Value::as_array).map_or(0, Vec::len);
    let text = to_text(&doc);
    let path = Path::new(&dir).join(FILE_NAME);
    if let Err(e) = fs::create_dir_all(&dir).and_then(|()| fs::write(&path, text.as_bytes())) {
        eprintln!("pypto-viewer gen: {}: {e}", path.display());
        return ExitCode::from(1);
    }
    println!(
        "wrote {}: {events} events, {} workers, {} device lanes, {} decode steps, {} requests, seed {} ({} bytes)",
        path.display(),
        o.workers,
        o.devices,
        o.steps,
        o.requests,
        o.seed,
        text.len()
    );
    ExitCode::SUCCESS
}

/// The document as the script writes it, one event per line.
pub fn to_text(doc: &Value) -> String {
    let mut out = String::from("{\"displayTimeUnit\": \"ms\",\n\"traceEvents\": [\n");
    let events = doc.get("traceEvents").and_then(Value::as_array).cloned().unwrap_or_default();
    for (i, e) in events.iter().enumerate() {
        out.push_str(&e.to_string());
        out.push_str(if i + 1 < events.len() { ",\n" } else { "\n" });
    }
    out.push_str("],\n\"metadata\": ");
    out.push_str(&doc.get("metadata").map_or_else(|| "{}".to_owned(), Value::to_string));
    out.push_str("}\n");
    out
}

fn with_args(mut e: Value, args: Value) -> Value {
    if let Some(map) = e.as_object_mut() {
        map.insert("args".into(), args);
    }
    e
}

fn meta(name: &str, pid: u64, tid: Option<u64>, args: Value) -> Value {
    let mut e = json!({"name": name, "ph": "M", "pid": pid});
    if let (Some(tid), Some(map)) = (tid, e.as_object_mut()) {
        map.insert("tid".into(), json!(tid));
    }
    with_args(e, args)
}

fn span(name: &str, cat: &str, pid: u64, tid: u64, ts: f64, dur: f64, args: Value) -> Value {
    with_args(json!({"name": name, "cat": cat, "ph": "X", "ts": ts, "dur": dur, "pid": pid, "tid": tid}), args)
}

fn instant(name: &str, cat: &str, pid: u64, tid: u64, ts: f64, args: Value) -> Value {
    with_args(json!({"name": name, "cat": cat, "ph": "i", "s": "t", "ts": ts, "pid": pid, "tid": tid}), args)
}

/// Builds the trace.
#[allow(clippy::too_many_lines)] // one serving run, process by process, in time order
pub fn generate(o: &StraceOptions) -> Value {
    let mut rng = Rng(o.seed ^ 0x5354_5241_4345);
    let mut metas: Vec<Value> = Vec::new();
    let mut events: Vec<Value> = Vec::new();
    let api_pid = 2_531_400u64;
    let gen_pid = 2_531_410u64;
    let worker_pid = |w: u32| 2_531_562 + u64::from(w) * 7;
    let main_tid = |pid: u64| 139_870_000_000_000 + pid * 16;
    // Devices split evenly over the workers.
    let per = o.devices / o.workers;
    let extra = o.devices % o.workers;
    let mut worker_devices: Vec<Vec<u32>> = Vec::new();
    let mut next = 0;
    for w in 0..o.workers {
        let n = per + u32::from(w < extra);
        worker_devices.push((next..next + n).collect());
        next += n;
    }
    // Processes and threads.
    metas.push(meta("process_name", api_pid, Some(0), json!({"name": "pypto-serving-api"})));
    metas.push(meta("thread_name", api_pid, Some(main_tid(api_pid)), json!({"name": "MainThread"})));
    metas.push(meta("process_name", gen_pid, Some(0), json!({"name": "pypto-serving-generate"})));
    metas.push(meta("thread_name", gen_pid, Some(main_tid(gen_pid)), json!({"name": "MainThread"})));
    for (w, devs) in worker_devices.iter().enumerate() {
        let pid = worker_pid(w as u32);
        let ids: Vec<String> = devs.iter().map(u32::to_string).collect();
        metas.push(meta("process_name", pid, Some(0), json!({"name": format!("serving-worker-{}", ids.join(","))})));
        metas.push(meta("thread_name", pid, Some(main_tid(pid)), json!({"name": "MainThread"})));
        metas.push(meta("thread_name", pid, Some(main_tid(pid) + 1), json!({"name": "executor"})));
    }
    // Requests arrive on the API; each is an asyncio task lane.
    let mut t_req = 0.0;
    let mut request_tids = Vec::new();
    for r in 0..o.requests {
        let tid = 9_000 + u64::from(r);
        request_tids.push((tid, t_req));
        metas.push(meta("thread_name", api_pid, Some(tid), json!({"name": format!("Task-{}", r + 1)})));
        events.push(instant(
            "request.queued",
            "request",
            api_pid,
            tid,
            t_req,
            json!({"request_id": format!("chatcmpl-{r:04}"), "prompt_tokens": 512 + r * 64}),
        ));
        events.push(instant(
            "ReplicaEngineCore.add_request",
            "serving",
            gen_pid,
            main_tid(gen_pid),
            t_req + 40.0,
            json!({"request_id": format!("chatcmpl-{r:04}")}),
        ));
        t_req += rng.us(300.0, 1500.0);
    }
    // Worker start-up and prefill.
    let mut t0 = t_req + 200.0;
    for w in 0..o.workers {
        let pid = worker_pid(w);
        let d = rng.us(8_000.0, 12_000.0);
        events.push(span(
            "WorkerProcess.init_device_and_model",
            "worker",
            pid,
            main_tid(pid),
            rng.us(0.0, 50.0),
            d,
            json!({"devices": worker_devices.get(w as usize).cloned().unwrap_or_default()}),
        ));
        t0 = f64::max(t0, d + 100.0);
    }
    let strace_pid = worker_pid(o.workers.saturating_sub(1)) + 1;
    for (lane, dev) in (0..o.devices).enumerate() {
        metas.push(meta("thread_name", strace_pid, Some(u64::from(dev)), json!({"name": format!("device {dev}")})));
        metas.push(meta("thread_sort_index", strace_pid, Some(u64::from(dev)), json!({"sort_index": lane})));
    }
    metas.push(meta("process_name", strace_pid, None, json!({"name": format!("Simpler host STRACE ({} NPU lanes)", o.devices)})));
    metas.push(meta("process_sort_index", strace_pid, None, json!({"sort_index": 2 + o.workers})));
    let mut invocation = 0u64;
    // One chip invocation on a device: root bar with bind / runner_run / validate inside.
    let mut chip_run = |events: &mut Vec<Value>,
                        rng: &mut Rng,
                        dev: u32,
                        start: f64,
                        tag: &str,
                        callable: &str,
                        step: Option<u32>,
                        runner_us: f64|
     -> f64 {
        invocation += 1;
        let bind = rng.us(40.0, 120.0);
        let validate = rng.us(15.0, 60.0);
        let host = bind + runner_us + validate + 6.0;
        let hid = format!("{:016x}", (u64::from(dev) << 40) ^ (callable.len() as u64 * 0x9E37_79B9));
        let args = |stage: &str, depth: u32| {
            json!({"device": dev, "invocation": invocation, "callable": callable, "decode_step": step, "hid": hid,
                   "host_ms": host / 1000.0, "bind_ms": bind / 1000.0, "runner_run_ms": runner_us / 1000.0, "validate_ms": validate / 1000.0,
                   "strace_name": if stage == "simpler_run" { "simpler_run".to_owned() } else { format!("simpler_run.{stage}") },
                   "clock": "host CLOCK_MONOTONIC", "strace_depth": depth})
        };
        let bar = |stage: &str, ts: f64, dur: f64, depth: u32| {
            let mut e =
                span(&format!("{tag} {callable} | {stage}"), "strace.host", strace_pid, u64::from(dev), ts, dur, args(stage, depth));
            if let Some(m) = e.as_object_mut() {
                m.insert("cname".into(), json!("thread_state_running"));
            }
            e
        };
        events.push(bar("simpler_run", start, host, 0));
        events.push(bar("bind", start + 2.0, bind, 1));
        events.push(bar("runner_run", start + 3.0 + bind, runner_us, 1));
        events.push(bar("validate", start + 4.0 + bind + runner_us, validate, 1));
        host
    };
    // Prefill: one batch on every worker.
    let mut prefill_end: f64 = t0;
    for w in 0..o.workers {
        let pid = worker_pid(w);
        let start = t0 + rng.us(0.0, 30.0);
        let mut end = start;
        for &dev in worker_devices.get(w as usize).map_or(&[][..], Vec::as_slice) {
            let runner = rng.us(6_000.0, 9_000.0);
            end = end.max(start + 20.0 + chip_run(&mut events, &mut rng, dev, start + 20.0, "P000", "prefill.main", None, runner));
        }
        events.push(span(
            "WorkerProcess.batch_prefill",
            "worker",
            pid,
            main_tid(pid),
            start,
            end - start + 15.0,
            json!({"batch": o.requests}),
        ));
        prefill_end = prefill_end.max(end + 15.0);
    }
    for &(tid, at) in &request_tids {
        events.push(instant(
            "request.prefilled",
            "request",
            api_pid,
            tid,
            prefill_end + rng.us(1.0, 20.0),
            json!({"queue_us": prefill_end - at}),
        ));
    }
    // Decode steps.
    let mut t = prefill_end + 50.0;
    let sched = main_tid(gen_pid);
    for step in 0..o.steps {
        let schedule = rng.us(60.0, 180.0);
        events.push(span("scheduler.schedule", "scheduler", gen_pid, sched, t, schedule, json!({"step_id": step, "running": o.requests})));
        let queue = rng.us(20.0, 60.0);
        events.push(span("scheduler.queue_worker_step", "scheduler", gen_pid, sched, t + schedule, queue, json!({"step_id": step})));
        let step_start = t + schedule + queue;
        let mut step_end = step_start;
        for w in 0..o.workers {
            let pid = worker_pid(w);
            let main = main_tid(pid);
            let ws = step_start + rng.us(5.0, 40.0);
            let prepare = rng.us(150.0, 400.0);
            events.push(span(
                "WorkerProcess.prepare_decode",
                "worker",
                pid,
                main,
                ws + 5.0,
                prepare,
                json!({"step_id": step, "buffer_slot": step % 2}),
            ));
            let dispatch_start = ws + 10.0 + prepare;
            let mut devices_end = dispatch_start;
            let slow = rng.us(0.0, 1.0) < 0.1;
            for &dev in worker_devices.get(w as usize).map_or(&[][..], Vec::as_slice) {
                let runner = rng.us(2_500.0, 3_500.0) * if slow { 1.6 } else { 1.0 };
                let tag = format!("D{:02}", step % 100);
                let host = chip_run(&mut events, &mut rng, dev, dispatch_start + 30.0, &tag, "decode.main+verify+mtp", Some(step), runner);
                devices_end = devices_end.max(dispatch_start + 30.0 + host);
            }
            events.push(span(
                "PyptoExecutor.run_prepared_decode",
                "executor",
                pid,
                main,
                dispatch_start + 10.0,
                devices_end - dispatch_start,
                json!({"step_id": step}),
            ));
            events.push(span(
                "WorkerProcess.dispatch_decode",
                "worker",
                pid,
                main,
                dispatch_start,
                devices_end - dispatch_start + 20.0,
                json!({"step_id": step}),
            ));
            let reclaim = rng.us(80.0, 200.0);
            let reclaim_start = devices_end + 30.0;
            events.push(span(
                "WorkerProcess.reclaim_decode",
                "worker",
                pid,
                main,
                reclaim_start,
                reclaim,
                json!({"step_id": step, "buffer_slot": step % 2}),
            ));
            events.push(span(
                "PyptoExecutor.reclaim_prepared_decode",
                "executor",
                pid,
                main + 1,
                reclaim_start + 5.0,
                reclaim - 10.0,
                json!({"step_id": step}),
            ));
            let end = reclaim_start + reclaim + 10.0;
            events.push(span("WorkerProcess.execute_step", "worker", pid, main, ws, end - ws, json!({"step_id": step})));
            events.push(instant("worker.step_done", "worker", pid, main + 1, end, json!({"step_id": step, "tokens": o.requests})));
            step_end = step_end.max(end);
        }
        events.push(span(
            "scheduler.wait_worker_output",
            "scheduler",
            gen_pid,
            sched,
            step_start,
            step_end - step_start + 15.0,
            json!({"step_id": step}),
        ));
        let process = rng.us(40.0, 120.0);
        events.push(span("scheduler.process_step_output", "scheduler", gen_pid, sched, step_end + 20.0, process, json!({"step_id": step})));
        t = step_end + 20.0 + process + rng.us(10.0, 50.0);
    }
    // Requests complete at the end of the run.
    for (r, &(tid, at)) in request_tids.iter().enumerate() {
        let end = t + (r as f64) * 25.0;
        events.push(span(
            "http.chat_completions",
            "request",
            api_pid,
            tid,
            at + 5.0,
            end - at,
            json!({"request_id": format!("chatcmpl-{r:04}"), "output_tokens": o.steps}),
        ));
        events.push(instant(
            "request.finished",
            "request",
            api_pid,
            tid,
            end + 5.0,
            json!({"request_id": format!("chatcmpl-{r:04}"), "finish_reason": "length"}),
        ));
    }
    // Metadata first, then by pid, tid, ts (the script's order).
    let key = |e: &Value| {
        (
            e.get("pid").and_then(Value::as_u64).unwrap_or(0),
            e.get("tid").and_then(Value::as_u64).unwrap_or(0),
            e.get("ts").and_then(Value::as_f64).unwrap_or(0.0),
        )
    };
    events.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        ka.0.cmp(&kb.0).then(ka.1.cmp(&kb.1)).then(ka.2.total_cmp(&kb.2))
    });
    metas.extend(events);
    json!({
        "displayTimeUnit": "ms",
        "traceEvents": metas,
        "metadata": {"description": "synthetic serving STRACE swimlane (pypto-viewer gen --strace)",
                      "sources": ["serving-trace/trace.json", "simpler-swimlane.json"],
                      "workload": format!("{} workers, {} devices, {} decode steps, {} requests, seed {}", o.workers, o.devices, o.steps, o.requests, o.seed)}
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_a_trace_the_strace_reader_classifies() {
        let o = StraceOptions::default();
        let text = to_text(&generate(&o));
        let s = pypto_formats::strace::parse(FILE_NAME, text.as_bytes()).unwrap_or_default();
        assert_eq!(s.device_lanes.len(), 8);
        let stats = pypto_analysis::strace_stats::compute(&s);
        assert_eq!(stats.worker_processes.len(), 4);
        for w in &stats.worker_processes {
            let exec = w.spans.iter().find(|n| n.name == "WorkerProcess.execute_step").map(|n| n.stats.count);
            assert_eq!(exec, Some(u64::from(o.steps)), "{}", w.label);
        }
        assert_eq!(stats.device_roots.count, u64::from(o.steps * 8 + 8), "decode steps on 8 devices + 1 prefill each");
        assert!(stats.instant_count > 0);
        // The STRACE process sorts after the serving processes (its sort index is their count).
        let t = pypto_analysis::trace_timeline::build(&s);
        let labels: Vec<&str> = t.groups.iter().map(|g| g.label.as_str()).collect();
        assert!(labels.first().is_some_and(|l| l.starts_with("pypto-serving-api")), "{labels:?}");
        assert!(labels.last().is_some_and(|l| l.starts_with("Simpler host STRACE")), "{labels:?}");
        assert_eq!(text, to_text(&generate(&o)), "deterministic");
    }

    #[test]
    fn rejects_bad_options() {
        assert!(parse_args(&["out", "--strace", "--workers", "3", "--devices", "2"]).is_err());
        assert!(parse_args(&["out", "--strace", "--bogus"]).is_err());
        assert_eq!(parse_args(&["out", "--strace", "--steps", "3"]).map(|(_, o)| o.steps), Ok(3));
    }
}
