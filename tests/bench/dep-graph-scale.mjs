// Task Dependency Graph at scale (issue 21 item 4), run by `cargo xtask bench-graph-scale`.
// Measures in headless Chromium and *reports* — never asserts. Opens `data/dag-N/` under --root
// (a `pypto-viewer gen --dag --tasks N` capture beside the built site) by URL, waits for the
// load, then clicks the graph's view switch and prints, each beside its issue-21 target:
//   click → drawn       the click until `#dep-graph[data-nodes]` is set (the first frame)
//   layout (wasm)       the worker's own timing of the layout call, `data-layout-ms` (≤ 10 s
//                       at 1M), with the progress texts the page showed meanwhile (polled
//                       every 250 ms, each with when it was first seen)
//   pan frames          wall-clock intervals between animation frames while the graph is
//                       dragged (p50 / p95 → fps, ≥ 30 fps), and each frame's CPU time
//                       (`data-frame-ms`), at the first fit and at Fit (the whole graph, nodes
//                       under a pixel: one rectangle per screen pixel, edges under a pixel
//                       skipped — the graph's level of detail)
// and where the click's time went: the worker's `pypto-worker graph reply: …` and the page's
// `pypto-graph page: …` console lines (see crates/worker/src/graph.rs and the graph view).
// Screenshots: tests/artifacts/bench-graph-<N>-first-fit.png, -fit.png.
//
//   node bench/dep-graph-scale.mjs --root <static root> --tasks 1000000 --out f.json
// BENCH_LOAD_TIMEOUT_MS (default 900000) bounds the load and the layout each.

import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { serve } from '../server.mjs';
import { launch, SCREENSHOTS } from '../helpers.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const ROOT = path.resolve(opt('root', '.'));
const TASKS = Number(opt('tasks', '1000000'));
const OUT = opt('out', null);
const TIMEOUT_MS = Number(process.env.BENCH_LOAD_TIMEOUT_MS ?? 900_000);
// Pan frames measured at the first fit and at Fit.
const FIRST_FIT_FRAMES = 60;
const FIT_FRAMES = 20;

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))] : null;
};
const loadavg = () => os.loadavg().map((v) => v.toFixed(2)).join(' ');

const server = await serve(ROOT, 0, { isolate: true });
const browser = await launch();
const result = { chromium: browser.version(), tasks: TASKS, loadavg_start: loadavg(), console: [], progress: [], errors: [] };
const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
const page = await context.newPage();
page.setDefaultTimeout(TIMEOUT_MS);
const t00 = Date.now();
page.on('pageerror', (err) => result.errors.push(`pageerror: ${err.message}`));
page.on('console', (m) => {
  const text = m.text();
  if (/^pypto-(worker|graph)/.test(text)) result.console.push(`+${((Date.now() - t00) / 1000).toFixed(1)} s ${text}`);
});
page.on('crash', () => result.errors.push('the page crashed'));
const attr = (name) => page.$eval('#dep-graph', (el, n) => el.getAttribute(n), name);

// Drags the graph by `steps` small moves (one per animation frame) and returns the intervals
// between frames (ms) and each frame's CPU time (`data-frame-ms`).
async function pan(steps) {
  return page.evaluate(async (n) => {
    const el = document.querySelector('#dep-graph canvas') ?? document.querySelector('#dep-graph');
    const box = el.getBoundingClientRect();
    const [cx, cy] = [box.width / 2, box.height / 2];
    const at = (type, dx) => el.dispatchEvent(new MouseEvent(type, {
      bubbles: true, clientX: box.left + cx + dx, clientY: box.top + cy, button: 0, buttons: type === 'mouseup' ? 0 : 1,
    }));
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    at('mousedown', 0);
    await frame();
    const intervals = [];
    const cpu = [];
    let last = await frame();
    for (let i = 1; i <= n; i++) {
      // Back and forth, 8 px a frame.
      at('mousemove', 8 * (i % 40 < 20 ? i % 40 : 40 - (i % 40)));
      const now = await frame();
      // The graph's frame runs in this animation frame's callbacks: its CPU time shows on the
      // next one.
      intervals.push(now - last);
      last = now;
      cpu.push(Number(document.querySelector('#dep-graph').dataset.frameMs));
    }
    at('mouseup', 0);
    return { intervals, cpu };
  }, steps);
}

function frameStats(f) {
  const p50 = quantile(f.intervals, 0.5);
  const p95 = quantile(f.intervals, 0.95);
  return {
    frames: f.intervals.length,
    interval_p50_ms: p50,
    interval_p95_ms: p95,
    fps_p50: p50 ? 1000 / p50 : null,
    fps_p95: p95 ? 1000 / p95 : null,
    cpu_p50_ms: quantile(f.cpu, 0.5),
    cpu_p95_ms: quantile(f.cpu, 0.95),
  };
}

try {
  await page.goto(`${server.url}/?src=${encodeURIComponent(`data/dag-${TASKS}/`)}`);
  const loadStarted = Date.now();
  await page.waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: TIMEOUT_MS });
  result.load_ms = Date.now() - loadStarted;
  console.log(`bench: dag-${TASKS} loaded in ${(result.load_ms / 1000).toFixed(1)} s (load average ${loadavg()})`);
  const ds = '#datasets li.dataset[data-kind="runtime"]';
  await page.click(ds, { position: { x: 40, y: 14 } });
  await page.waitForSelector('[data-testid="view-switch-dep-graph"]');
  result.loadavg_click = loadavg();
  const t0 = Date.now();
  await page.click('[data-testid="view-switch-dep-graph"]');
  // The progress the page shows while the worker reads, builds and lays out.
  let lastText = null;
  const poll = setInterval(async () => {
    const text = await page.evaluate(() => {
      const bar = document.querySelector('.load-progress');
      return bar ? bar.innerText.replace(/\s+/g, ' ').trim() : null;
    }).catch(() => null);
    // One entry per phase (the text without its numbers), when it was first seen.
    const phase = text && text.replace(/[\d.,]+/g, '#').replace(/ · .*/, '');
    if (phase && phase !== lastText) {
      lastText = phase;
      result.progress.push({ at_ms: Date.now() - t0, text });
    }
  }, 250);
  try {
    await page.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.nodes) > 0 || document.querySelector('[data-testid="dep-cancelled"]'), null, { timeout: TIMEOUT_MS, polling: 50 });
  } finally {
    clearInterval(poll);
  }
  result.click_to_drawn_ms = Date.now() - t0;
  result.nodes = Number(await attr('data-nodes'));
  result.edges = Number((await attr('data-mode-counts') ?? '').split(',')[0]);
  result.layout_ms = Number(await attr('data-layout-ms'));
  result.warmup_ms = Number(await attr('data-warmup-ms'));
  result.components = Number(await attr('data-components'));
  console.log(`bench: click → drawn ${result.click_to_drawn_ms} ms; ${result.nodes} nodes, ${result.edges} edges; layout ${result.layout_ms.toFixed(0)} ms (wasm)`);
  console.log(`bench: progress shown: ${result.progress.map((p) => `+${(p.at_ms / 1000).toFixed(1)} s ${p.text}`).join(' | ') || 'none'}`);
  console.log(`bench: so far:\n  ${result.console.join('\n  ')}`);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `bench-graph-${TASKS}-first-fit.png`) });
  result.first_fit = { node_px: Number(await attr('data-node-px')), fit: await attr('data-fit'), ...frameStats(await pan(FIRST_FIT_FRAMES)) };
  await page.click('[data-testid="dep-fit"]');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: path.join(SCREENSHOTS, `bench-graph-${TASKS}-fit.png`) });
  // Fewer frames here: before the segments were drawn once per pixel pair, one took seconds.
  result.fit = { node_px: Number(await attr('data-node-px')), ...frameStats(await pan(FIT_FRAMES)) };
} catch (err) {
  result.errors.push(err.message.split('\n')[0]);
}
result.loadavg_end = loadavg();
await context.close();
await browser.close();
await server.close();

const f = (v, d = 0) => (v == null || Number.isNaN(v) ? '–' : Number(v).toFixed(d));
console.log(`\nTask Dependency Graph, ${TASKS} tasks, Chromium ${result.chromium}; load average ${result.loadavg_start} (start), ${result.loadavg_click ?? '–'} (click), ${result.loadavg_end} (end)`);
console.log('| figure | this run | target |');
console.log('|---|---|---|');
console.log(`| load (?src=) → done | ${f(result.load_ms / 1000, 1)} s | |`);
console.log(`| click → graph drawn | ${f(result.click_to_drawn_ms)} ms | ≤ 300 ms (100k); the layout ≤ 10 s (1M) |`);
console.log(`| layout in wasm (the worker's layout call) | ${f(result.layout_ms)} ms (JIT warm-up ${f(result.warmup_ms)} ms) | ≤ 10 000 ms |`);
for (const [name, s] of [['first fit', result.first_fit], ['Fit (whole graph, the LOD)', result.fit]]) {
  if (!s) continue;
  console.log(`| pan at ${name}, ${f(s.node_px, 2)} px nodes: frame interval p50 / p95 | ${f(s.interval_p50_ms, 1)} / ${f(s.interval_p95_ms, 1)} ms = ${f(s.fps_p50, 1)} / ${f(s.fps_p95, 1)} fps (frame CPU p50 / p95 ${f(s.cpu_p50_ms, 1)} / ${f(s.cpu_p95_ms, 1)} ms) | ≥ 30 fps |`);
}
console.log(`progress shown: ${result.progress.map((p) => `+${(p.at_ms / 1000).toFixed(1)} s ${p.text}`).join(' | ') || 'none'}`);
console.log(`where the time went:\n  ${result.console.join('\n  ')}`);
if (result.errors.length) console.log(`errors: ${result.errors.join('; ')}`);
if (OUT) {
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${OUT}`);
}
