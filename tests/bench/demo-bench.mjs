// Small-capture bench (issue 21, item 5), run by `cargo xtask bench-demo`: how fast the viewer
// starts on a cached visit and opens the bundled demo (512 tasks + the 49-pass dump), in headless
// Chromium. Reports — never asserts — for each of N runs (a fresh browser context each):
//   cold start   reload of the page (second visit: HTTP cache and service worker warm) →
//                #worker-status[data-state=ready] (page-relative performance.now(), i.e. from
//                the navigation's start); target ≤ 500 ms
//   open demo    the "Open demo" click (the event's own timestamp) → the first swimlane frame
//                drawn after #swimlane[data-bars] appears (`window.__pyptoSwimlane.frameStats()`
//                counts draw() calls); target ≤ 300 ms
// and where the time goes: the page's and the analysis worker's wasm (Resource Timing: fetched;
// worker created by boot.js; the worker's wasm started), the worker's messages as they reach the page
// (datasets announced, dataset loaded, load finished, the timeline's reply) and the worker's
// `pypto-worker …` lines (jobs started and answered, reads, model steps, encoding/decoding).
//
//   node bench/demo-bench.mjs [--runs 5] [--dist ../dist] [--out artifacts/bench-demo.json]

import fs from 'node:fs';
import path from 'node:path';
import { serve } from '../server.mjs';
import { launch, DIST } from '../helpers.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const RUNS = Number(opt('runs', '5'));
const OUT = opt('out', null);
const TIMEOUT_MS = 120_000;
/** Issue 21 item 5's targets. */
const TARGET = { cold_start_ms: 500, open_demo_ms: 300 };

// In the page, before its scripts: when the worker was created, every message it posted (type
// and arrival time), when #worker-status said ready, the click's time and the first drawn frame.
const instrument = () => {
  const b = { workerCreatedAt: null, msgs: [], readyAt: null, clickAt: null, barsAt: null, drawnAt: null };
  window.__bench = b;
  const Base = window.Worker;
  window.Worker = class extends Base {
    constructor(...args) {
      super(...args);
      b.workerCreatedAt ??= performance.now();
      this.addEventListener('message', (e) => {
        const m = e.data?.msg;
        if (m?.type) b.msgs.push({ t: performance.now(), type: m.type, stage: m.stage ?? null, id: e.data?.id ?? null });
      });
    }
  };
  addEventListener('click', (e) => {
    if (e.target?.closest?.('#open-demo')) b.clickAt = e.timeStamp;
  }, true);
  const watchDraw = () => {
    const api = window.__pyptoSwimlane;
    const before = api?.frameStats()?.count ?? 0;
    const step = () => {
      if ((window.__pyptoSwimlane?.frameStats()?.count ?? 0) > before) b.drawnAt = performance.now();
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  };
  const check = () => {
    if (b.readyAt === null && document.querySelector('#worker-status[data-state="ready"]')) b.readyAt = performance.now();
    if (b.clickAt !== null && b.barsAt === null && Number(document.querySelector('#swimlane')?.dataset.bars) > 0) {
      b.barsAt = performance.now();
      watchDraw();
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state', 'data-bars'] });
};

const server = await serve(path.resolve(opt('dist', DIST)), 0);
const browser = await launch();
const fmt = (x) => (x === null || x === undefined ? '—' : x.toFixed(0));
const runs = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT_MS);
    const errors = [];
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    let lines = [];
    page.on('console', (m) => {
      if (m.text().startsWith('pypto-worker ')) lines.push(m.text());
      if (m.type() === 'error') errors.push(m.text().slice(0, 300));
    });
    await page.addInitScript(instrument);
    // First visit: fills the HTTP cache and installs the service worker (not timed).
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => window.__bench.readyAt !== null);
    await page.evaluate(() => Promise.race([navigator.serviceWorker?.ready, new Promise((r) => setTimeout(r, 5000))]));
    // The cached visit.
    lines = [];
    await page.reload();
    await page.waitForFunction(() => window.__bench.readyAt !== null);
    const start = await page.evaluate(() => {
      const b = window.__bench;
      const wasm = (name) => performance.getEntriesByType('resource').find((e) => e.name.endsWith(name));
      const app = wasm('/pypto-app_bg.wasm');
      const readyMsg = b.msgs.find((m) => m.type === 'ready');
      return {
        ready_ms: b.readyAt,
        app_wasm_fetched_ms: app ? app.responseEnd : null,
        app_wasm_transfer_bytes: app ? app.transferSize : null,
        worker_created_ms: b.workerCreatedAt,
        worker_ready_msg_ms: readyMsg ? readyMsg.t : null,
        sw_controlled: navigator.serviceWorker?.controller !== null,
        page_time_origin: performance.timeOrigin,
      };
    });
    // The analysis worker's own view: when its wasm was fetched (its clock starts when it was created).
    for (const w of page.workers()) {
      const seen = await w.evaluate(() => {
        const e = performance.getEntriesByType('resource').find((r) => r.name.endsWith('/pypto-worker_bg.wasm'));
        return e ? { origin: performance.timeOrigin, fetched: e.responseEnd, bytes: e.transferSize } : null;
      }).catch(() => null);
      if (seen) {
        start.worker_wasm_fetched_ms = seen.origin - start.page_time_origin + seen.fetched;
        start.worker_wasm_transfer_bytes = seen.bytes;
        break;
      }
    }
    start.lines = lines.slice();
    // Open the demo.
    lines = [];
    await page.click('#open-demo');
    await page.waitForFunction(() => window.__bench.drawnAt !== null, null, { timeout: TIMEOUT_MS });
    const open = await page.evaluate(() => {
      const b = window.__bench;
      const after = b.msgs.filter((m) => m.t >= b.clickAt);
      const first = (type, pred = () => true) => {
        const m = after.find((x) => x.type === type && pred(x));
        return m ? m.t - b.clickAt : null;
      };
      return {
        open_ms: b.drawnAt - b.clickAt,
        datasets_ms: first('datasets'),
        first_progress_ms: first('progress'),
        dataset_loaded_ms: first('dataset_loaded'),
        load_finished_ms: first('load_finished'),
        timeline_reply_ms: first('timeline'),
        bars_ms: b.barsAt - b.clickAt,
        drawn_ms: b.drawnAt - b.clickAt,
        messages: after.map((m) => `${(m.t - b.clickAt).toFixed(0)} ${m.type}${m.stage ? `(${m.stage})` : ''}`),
      };
    });
    open.lines = lines.slice();
    runs.push({ run, start, open, errors });
    await context.close();
    console.log(`run ${run}: cold start ${fmt(start.ready_ms)} ms, open demo ${fmt(open.open_ms)} ms`);
  }
} finally {
  await browser.close();
  await server.close();
}

const p50 = (xs) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  return s.length ? s[Math.ceil(0.5 * s.length) - 1] : null;
};
const row = (label, values, target) =>
  console.log(`${label.padEnd(46)} ${values.map((v) => fmt(v).padStart(6)).join(' ')}   p50 ${fmt(p50(values)).padStart(5)}${target ? `   target ≤ ${target}` : ''}`);

console.log(`\n${RUNS} runs (ms)${' '.repeat(34)}${runs.map((r) => `run ${r.run}`.padStart(6)).join(' ')}`);
console.log('cached cold start: navigation → worker ready');
row('  page wasm fetched', runs.map((r) => r.start.app_wasm_fetched_ms));
row('  worker created (boot.js)', runs.map((r) => r.start.worker_created_ms));
row('  worker wasm fetched', runs.map((r) => r.start.worker_wasm_fetched_ms ?? null));
row('  worker says ready (message)', runs.map((r) => r.start.worker_ready_msg_ms));
row('COLD START (#worker-status ready)', runs.map((r) => r.start.ready_ms), TARGET.cold_start_ms);
console.log('"Open demo" click → swimlane drawn');
row('  datasets announced', runs.map((r) => r.open.datasets_ms));
row('  runtime dataset loaded', runs.map((r) => r.open.dataset_loaded_ms));
row('  load finished', runs.map((r) => r.open.load_finished_ms));
row('  timeline reply', runs.map((r) => r.open.timeline_reply_ms));
row('  #swimlane[data-bars]', runs.map((r) => r.open.bars_ms));
row('OPEN DEMO (first frame drawn)', runs.map((r) => r.open.open_ms), TARGET.open_demo_ms);
const last = runs[runs.length - 1];
if (last) {
  console.log(`\nrun ${last.run}, the worker's lines at start:`);
  for (const l of last.start.lines) console.log(`  ${l}`);
  console.log(`run ${last.run}, messages after the click (ms after it):\n  ${last.open.messages.join(', ')}`);
  console.log(`run ${last.run}, the worker's lines after the click:`);
  for (const l of last.open.lines) console.log(`  ${l}`);
}
const errors = runs.flatMap((r) => r.errors);
if (errors.length) console.log(`\nerrors:\n  ${errors.join('\n  ')}`);
if (OUT) {
  fs.mkdirSync(path.dirname(path.resolve(OUT)), { recursive: true });
  const summary = {
    cold_start_ms: { runs: runs.map((r) => r.start.ready_ms), p50: p50(runs.map((r) => r.start.ready_ms)), target: TARGET.cold_start_ms },
    open_demo_ms: { runs: runs.map((r) => r.open.open_ms), p50: p50(runs.map((r) => r.open.open_ms)), target: TARGET.open_demo_ms },
  };
  fs.writeFileSync(OUT, JSON.stringify({ summary, runs }, null, 2));
  console.log(`\nwrote ${OUT}`);
}
