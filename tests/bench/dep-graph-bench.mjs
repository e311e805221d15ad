// Task Dependency Graph layout bench (issue 6 item 8), run by `cargo xtask bench-layout-browser`.
// Measures in headless Chromium (Debian's, through playwright-core) and *reports* — never asserts.
// Per generated DAG (`data/dag-N/` under --root, the graphs `pypto-viewer bench-layout` laid out
// natively and with Graphviz dot, whose rows --native holds), in a fresh page (fresh worker):
//   wasm_ms        the worker's own timing of the layout call (performance.now() around
//                  dag_layout::layout), #dep-graph[data-layout-ms], first layout of the page
//   warmup_ms      the one-off JIT warm-up layout the worker runs before reading a big deps.json
//   wasm_again_ms  a second layout of the same graph (TB → LR → TB: the TB one is reported)
//   click_to_graph_ms  view switch click → graph drawn (read + parse + build + layout + transfer)
//   frame_ms       #dep-graph[data-frame-ms] (CPU time of one frame: culling, instances, text)
//                  at fit and zoomed in, while panning and zooming
// then prints: nodes, edges, wasm ms, native ms, dot ms, dot/wasm, crossings ours/dot, edge length
// ours/dot, and writes --out (JSON).
//
//   node bench/dep-graph-bench.mjs --root <static root> --sizes 1000,10000 --native native.json --out f.json

import fs from 'node:fs';
import path from 'node:path';
import { serve } from '../server.mjs';
import { launch } from '../helpers.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const ROOT = path.resolve(opt('root', '.'));
const SIZES = opt('sizes', '1000,10000,100000').split(',').map(Number);
const NATIVE = opt('native', null);
const OUT = opt('out', null);
// The worker's `graph::PREBUILD_MAX_TASKS`.
const PREBUILD_MAX_TASKS = 120_000;
const LOAD_TIMEOUT_MS = Number(process.env.BENCH_LOAD_TIMEOUT_MS ?? 300_000);

const native = NATIVE && fs.existsSync(NATIVE) ? JSON.parse(fs.readFileSync(NATIVE, 'utf8')) : { rows: [] };
const server = await serve(ROOT, 0, { isolate: true });
const browser = await launch();
const result = { chromium: browser.version(), mode: native.mode ?? 'full', rows: [], errors: [] };
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : null; };
const attr = (page, name) => page.$eval('#dep-graph', (el, n) => el.getAttribute(n), name);

async function frames(page, count, action) {
  const out = [];
  for (let i = 0; i < count; i++) {
    await action(i);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const ms = Number(await attr(page, 'data-frame-ms'));
    if (Number.isFinite(ms)) out.push(ms);
  }
  return out;
}

async function benchOne(n) {
  const row = { tasks: n };
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(LOAD_TIMEOUT_MS);
  page.on('pageerror', (err) => result.errors.push(`${n}: pageerror: ${err.message}`));
  // A graph of up to 120k tasks is built when the load ends, before the click (the worker's
  // `graph::prebuild`): its console line says when and how long it took.
  let prebuilt = null;
  const prebuiltLine = new Promise((resolve) => page.on('console', (m) => {
    const hit = /built ahead of the click in (\d+) ms/.exec(m.text());
    if (hit) { prebuilt = Number(hit[1]); resolve(); }
  }));
  try {
    await page.goto(`${server.url}/?src=${encodeURIComponent(`data/dag-${n}/`)}`);
    await page.waitForSelector('body[data-load-state="done"]', { state: 'attached' });
    const ds = '#datasets li.dataset[data-kind="runtime"]';
    await page.waitForSelector(ds);
    await page.click(ds, { position: { x: 40, y: 14 } });
    await page.waitForSelector('[data-testid="view-switch-dep-graph"]');
    // The user looks at the swimlane first: the click comes after the prebuild (when there is
    // one; a bigger graph is built on the click, within click_to_graph_ms).
    if (n <= PREBUILD_MAX_TASKS) await Promise.race([prebuiltLine, new Promise((r) => setTimeout(r, 60_000))]);
    row.prebuilt_ms = prebuilt;
    const t0 = Date.now();
    await page.click('[data-testid="view-switch-dep-graph"]');
    await page.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.nodes) > 0, null, { polling: 50 });
    row.click_to_graph_ms = Date.now() - t0;
    row.nodes = Number(await attr(page, 'data-nodes'));
    row.edges = Number((await attr(page, 'data-mode-counts')).split(',')[0]);
    row.wasm_ms = Number(await attr(page, 'data-layout-ms'));
    row.warmup_ms = Number(await attr(page, 'data-warmup-ms'));
    // Warm layouts: LR then TB again (the worker keeps the graph, only the layout runs).
    for (const dir of ['LR', 'TB']) {
      await page.click('[data-testid="dep-direction"]');
      await page.waitForFunction((d) => document.querySelector('#dep-graph')?.dataset.direction === d && !document.querySelector('[data-testid="dep-loading"]'), dir, { polling: 50 });
    }
    row.wasm_again_ms = Number(await attr(page, 'data-layout-ms'));
    // Frames: at fit, then zoomed in around the centre, panning.
    const box = await page.locator('#dep-graph').boundingBox();
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    await page.click('[data-testid="dep-fit"]');
    await page.mouse.move(cx, cy);
    const fit = await frames(page, 6, async (i) => page.mouse.wheel(0, i % 2 ? 40 : -40));
    // Zoomed in on a task in the middle of the graph (search centres it at a legible scale).
    const task = `r2t${Math.floor(n / 2)}`;
    await page.fill('[data-testid="dep-search"]', task);
    await page.press('[data-testid="dep-search"]', 'Enter');
    await page.waitForFunction((t) => document.querySelector('#dep-graph')?.dataset.selected === t, task);
    const zoomIn = await frames(page, 12, async (i) => page.mouse.wheel(0, i % 2 ? 150 : -150));
    const pan = await frames(page, 10, async (i) => {
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      await page.mouse.move(cx + (i % 2 ? 120 : -120), cy + 40, { steps: 2 });
      await page.mouse.up();
    });
    row.frame_ms = { fit_p50: median(fit), zoomed_p50: median(zoomIn), pan_p50: median(pan), max: Math.max(...fit, ...zoomIn, ...pan) };
    row.visible_edges_zoomed = Number(await attr(page, 'data-visible-edges'));
  } catch (err) {
    row.error = err.message.split('\n')[0];
  }
  await context.close();
  return row;
}

for (const n of SIZES) {
  console.log(`bench: dag-${n} …`);
  const row = await benchOne(n);
  const nat = native.rows.find((r) => r.tasks === n) ?? {};
  Object.assign(row, {
    native_ms: nat.native_ms ?? null,
    native_cpu_ms: nat.native_cpu_ms ?? null,
    dot_ms: nat.dot_ms ?? null,
    dot_error: nat.dot_error ?? null,
    crossings_ours: nat.crossings_ours ?? null,
    crossings_dot: nat.crossings_dot ?? null,
    edge_length_ours: nat.edge_length_ours ?? null,
    edge_length_dot: nat.edge_length_dot ?? null,
  });
  if (nat.nodes != null && row.nodes != null && nat.nodes !== row.nodes) result.errors.push(`${n}: native ${nat.nodes} nodes, browser ${row.nodes}`);
  result.rows.push(row);
  console.log(JSON.stringify(row));
}
await browser.close();
await server.close();

const f = (v, d = 1) => (v == null || Number.isNaN(v) ? '–' : Number(v).toFixed(d));
const ratio = (a, b) => (a != null && b ? `${(a / b).toFixed(a / b >= 10 ? 0 : 2)}×` : '–');
// dot killed at its timeout: the ratio is at least timeout / ours.
const dotRatio = (r) => {
  if (r.dot_ms != null) return ratio(r.dot_ms, r.wasm_ms);
  const s = /timeout > (\d+(?:\.\d+)?) s/.exec(r.dot_error ?? '');
  return s && r.wasm_ms ? `> ${((Number(s[1]) * 1000) / r.wasm_ms).toFixed(0)}×` : '–';
};
const exp = (v) => (v == null ? '–' : Number(v).toExponential(3));
console.log(`\nTask Dependency Graph layout, ${result.mode} mode, Chromium ${result.chromium}`);
console.log('| tasks | nodes | edges | wasm ms (first) | wasm ms (again) | warm-up ms | native ms (thread CPU) | dot ms | dot/wasm | wasm/native | crossings ours / dot | edge length ours / dot | built ahead ms | click→graph ms (target ≤ 300) | frame ms fit / zoomed / pan |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of result.rows) {
  const dot = r.dot_ms != null ? f(r.dot_ms, 0) : (r.dot_error ?? '–');
  console.log(`| ${r.tasks} | ${r.nodes ?? '–'} | ${r.edges ?? '–'} | ${f(r.wasm_ms)} | ${f(r.wasm_again_ms)} | ${f(r.warmup_ms)} | ${f(r.native_ms)} (${f(r.native_cpu_ms)}) | ${dot} | ${dotRatio(r)} | ${ratio(r.wasm_ms, r.native_ms)} | ${r.crossings_ours ?? '–'} / ${r.crossings_dot ?? '–'} | ${exp(r.edge_length_ours)} / ${exp(r.edge_length_dot)} | ${r.prebuilt_ms ?? '–'} | ${r.click_to_graph_ms ?? '–'} | ${f(r.frame_ms?.fit_p50)} / ${f(r.frame_ms?.zoomed_p50)} / ${f(r.frame_ms?.pan_p50)} |${r.error ? ` error: ${r.error}` : ''}`);
}
if (result.errors.length) console.log(`errors: ${result.errors.join('; ')}`);
if (OUT) {
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${OUT}`);
}
