// IR Pass Trace benchmark (issue 7 item 11), run by `cargo xtask bench-passes-browser`.
// Reports — never asserts. Three cases, each timed in wasm (headless Chromium, inside the worker),
// natively (`pypto-viewer bench-passes`) and in Python difflib the way pypto's ir_trace uses it
// (crates/cli/bench/difflib_passes.py, run by the CLI on the same bytes):
//   dump   the real 49-pass dump (every pass against the previous one)
//   e2e    the 200k-line pair of tests/pass-trace.test.mjs (bench/pass-pair.mjs)
//   churn  the CLI's generated 200k-line pair (~2 % rewritten, ~0.5 % inserted / deleted lines)
// Stages: "pass list" = +/- counts of every pass (what the pass list shows); "whole trace" = the
// pass list plus every pass's diff (rows, folds, token-level changes of every replaced line
// pair): the work the Python reference does; "+ function outline, replies" adds the rest of each
// PassDiff reply the view gets (function regions of every snapshot, line texts, row columns);
// "+ encode" adds turning the replies into the objects postMessage sends. Wasm times come from the worker's automation hook
// `self.__pyptoPassTraceBench(files, iterations)` (performance.now() inside the worker, min of N).
//
//   node bench/pass-trace-bench.mjs --dist D --dump DIR --cli BIN --work DIR [--lines N]
//        [--iterations N] [--ir-trace DIR] [--out file.json]

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serve } from '../server.mjs';
import { launch } from '../helpers.mjs';
import { passPairTexts } from './pass-pair.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const need = (name) => opt(name) ?? (console.error(`missing --${name}`), process.exit(2));
const DIST = path.resolve(need('dist'));
const DUMP = path.resolve(need('dump'));
const CLI = path.resolve(need('cli'));
const WORK = path.resolve(need('work'));
const LINES = Number(opt('lines', '200000'));
const ITERATIONS = Number(opt('iterations', '5'));
const IR_TRACE = opt('ir-trace', null);
const OUT = opt('out', null);

fs.mkdirSync(WORK, { recursive: true });
const readDir = (dir) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => [e.name, fs.readFileSync(path.join(dir, e.name), 'utf8')])
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));

// --- the pairs on disk ---------------------------------------------------------------------------
const e2eDir = path.join(WORK, 'e2e');
fs.mkdirSync(e2eDir, { recursive: true });
const e2e = passPairTexts(LINES);
fs.writeFileSync(path.join(e2eDir, 'before.py'), e2e.before);
fs.writeFileSync(path.join(e2eDir, 'after.py'), e2e.after);
const churnDir = path.join(WORK, 'churn');

// --- native + Python (the CLI runs difflib_passes.py on the same bytes) ---------------------------
const cli = (args) => {
  console.log(`bench: ${path.basename(CLI)} ${args.join(' ')}`);
  const r = spawnSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${CLI} ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
};
const common = ['--json', '--iterations', String(ITERATIONS)];
const nativeE2e = cli(['bench-passes', DUMP, ...common, '--pair', path.join(e2eDir, 'before.py'), path.join(e2eDir, 'after.py'), ...(IR_TRACE ? ['--ir-trace', IR_TRACE] : [])]);
const nativeChurn = cli(['bench-passes', DUMP, ...common, '--lines', String(LINES), '--write-pair', churnDir]);

// --- wasm, in the worker -------------------------------------------------------------------------
const pairFiles = (b, a) => [['00_frontend.py', b], ['01_after_Big.py', a]];
const cases = {
  dump: readDir(DUMP),
  e2e: pairFiles(e2e.before, e2e.after),
  churn: pairFiles(fs.readFileSync(path.join(churnDir, 'before.py'), 'utf8'), fs.readFileSync(path.join(churnDir, 'after.py'), 'utf8')),
};
const result = { chromium: null, iterations: ITERATIONS, lines: LINES, wasm: {}, native: { e2e: nativeE2e, churn: nativeChurn }, rows: [], errors: [] };
const server = await serve(DIST, 0);
const browser = await launch();
result.chromium = browser.version();
try {
  const page = await (await browser.newContext()).newPage();
  page.on('pageerror', (err) => result.errors.push(`pageerror: ${err.message}`));
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#worker-status[data-state="ready"]', { state: 'attached', timeout: 60_000 });
  let worker = null;
  for (const w of page.workers()) {
    if (await w.evaluate(() => typeof self.__pyptoPassTraceBench === 'function').catch(() => false)) worker = w;
  }
  if (!worker) throw new Error('no worker with self.__pyptoPassTraceBench (is dist/ built from this tree?)');
  for (const [name, files] of Object.entries(cases)) {
    const iterations = name === 'dump' ? ITERATIONS * 4 : ITERATIONS;
    console.log(`bench: wasm ${name} (${files.length} files, ${iterations} iterations)`);
    result.wasm[name] = await worker.evaluate(([f, n]) => self.__pyptoPassTraceBench(f, n), [files, iterations]);
  }
} finally {
  await browser.close();
  await server.close();
}

// --- comparison ----------------------------------------------------------------------------------
const stage = (native, name) => native.stages.find((s) => s.name.startsWith(name));
const py = (native, name) => stage(native, name)?.python_ms ?? null;
const rs = (native, name) => stage(native, name)?.rust_ms ?? null;
const add = (...xs) => (xs.some((x) => x == null) ? null : xs.reduce((a, b) => a + b, 0));
const row = (kase, what, wasm, native, python) =>
  result.rows.push({ case: kase, stage: what, wasm_ms: wasm, native_ms: native, python_ms: python, python_over_wasm: wasm && python ? python / wasm : null });
const w = result.wasm;
const diffWork = (x) => x.list_ms + x.diffs_ms;
const fullReply = (x) => diffWork(x) + x.outline_ms + x.reply_ms;
row('dump', 'pass list (+/- of every pass)', w.dump.list_ms, rs(nativeE2e, 'dump: pass list'), py(nativeE2e, 'dump: pass list'));
row('dump', 'whole trace: list + every diff, refined', diffWork(w.dump), add(rs(nativeE2e, 'dump: pass list'), rs(nativeE2e, 'dump: every diff')), py(nativeE2e, 'dump: every diff'));
row('dump', '  + function outline, replies', fullReply(w.dump), null, py(nativeE2e, 'dump: every diff'));
row('dump', '  + encode for postMessage', fullReply(w.dump) + w.dump.encode_ms, null, py(nativeE2e, 'dump: every diff'));
if (nativeE2e.stages.some((s) => s.name.includes('ir_trace') && s.python_ms != null)) {
  row('dump', 'full replies vs pypto ir_trace build_trace', fullReply(w.dump), rs(nativeE2e, 'dump: vs pypto'), py(nativeE2e, 'dump: vs pypto'));
}
for (const [kase, native] of [['e2e', nativeE2e], ['churn', nativeChurn]]) {
  const x = w[kase];
  row(kase, 'pair: +/- counts', x.list_ms, rs(native, 'pair: +/- counts'), py(native, 'pair: +/- counts'));
  row(kase, 'pair: counts + diff, refined', diffWork(x), add(rs(native, 'pair: +/- counts'), rs(native, 'pair: rows')), py(native, 'pair: rows'));
  row(kase, '  + function outline, reply', fullReply(x), null, py(native, 'pair: rows'));
  row(kase, '  + encode for postMessage', fullReply(x) + x.encode_ms, null, py(native, 'pair: rows'));
}
// Counts must agree between wasm, native and difflib.
const nativeCounts = (n) => n.pair_added_removed;
for (const [kase, native] of [['e2e', nativeE2e], ['churn', nativeChurn]]) {
  const c = w[kase].counts[0];
  if (!c || c[0] !== nativeCounts(native)[0] || c[1] !== nativeCounts(native)[1]) result.errors.push(`${kase}: wasm counts ${JSON.stringify(c)} vs native ${JSON.stringify(nativeCounts(native))}`);
  for (const n of native.notes) result.errors.push(`${kase}: ${n}`);
}
result.facts = Object.fromEntries(Object.entries(w).map(([k, v]) => [k, { files: v.files, lines: v.lines, passes: v.passes, changed_passes: v.changed_passes, rows: v.rows, refined_pairs: v.refined_pairs, added_removed: v.counts.reduce((a, c) => [a[0] + c[0], a[1] + c[1]], [0, 0]) }]));

const f = (x, d = 2) => (x == null ? '-' : x.toFixed(d));
console.log(`\nIR Pass Trace bench (${result.chromium}; min of ${ITERATIONS}+ runs; Python: one run of the 200k pairs)`);
for (const [k, v] of Object.entries(result.facts)) console.log(`  ${k}: ${v.files} files, ${v.lines} lines, ${v.changed_passes}/${v.passes} passes changed, +${v.added_removed[0]} -${v.added_removed[1]}, ${v.rows} rows, ${v.refined_pairs} refined pairs`);
// Issue 7 item 11's target for every row: the wasm path faster than Python difflib doing the
// same work (the time is printed next to it, met or not).
const target = (r) => (r.python_ms == null ? '-' : `≤ ${f(r.python_ms, 1)} ms (difflib) ${r.wasm_ms != null && r.wasm_ms <= r.python_ms ? 'met' : 'MISSED'}`);
console.log(`${'case'.padEnd(6)} ${'stage'.padEnd(44)} ${'wasm ms'.padStart(9)} ${'native ms'.padStart(10)} ${'python ms'.padStart(10)} ${'py/wasm'.padStart(8)}  target (wasm)`);
for (const r of result.rows) {
  console.log(`${r.case.padEnd(6)} ${r.stage.padEnd(44)} ${f(r.wasm_ms).padStart(9)} ${f(r.native_ms).padStart(10)} ${f(r.python_ms, 1).padStart(10)} ${(r.python_over_wasm == null ? '-' : `${r.python_over_wasm.toFixed(1)}x`).padStart(8)}  ${target(r)}`);
}
for (const e of result.errors) console.log(`note: ${e}`);
if (OUT) {
  fs.mkdirSync(path.dirname(path.resolve(OUT)), { recursive: true });
  fs.writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${OUT}`);
}
