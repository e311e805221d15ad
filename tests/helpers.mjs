// Shared helpers for the browser e2e tests: Chromium launch (Debian's, through playwright-core),
// app start-up, OPFS seeding, directory-picker stubs, screenshots, and facts read from fixtures.

import { after, before } from 'node:test';
import { serve } from './server.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const TESTS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(TESTS_DIR, '..');
export const DIST = path.resolve(process.env.DIST ?? path.join(REPO, 'dist'));
export const SCREENSHOTS = path.resolve(process.env.SCREENSHOTS ?? path.join(TESTS_DIR, 'artifacts'));
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export const FIXTURES = path.join(REPO, 'fixtures');
export const DEMO_RUNTIME_FIXTURE = path.join(FIXTURES, 'runtime', 'a2a3sim-L4-TestPagedAttention_CaseMediumLocal');
export const DEMO_PASSES_FIXTURE = path.join(FIXTURES, 'passes', 'generated-paged_attention');
/** A small runtime capture (5 tasks) used as a second dataset. */
export const SMALL_RUNTIME_FIXTURE = path.join(FIXTURES, 'runtime', 'a2a3sim-L4-TestChipSwimlane_default');

/** Chromium flags (toolchain.md §6b): no sandbox as root, SwiftShader WebGL2, no background traffic. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-default-apps',
];

export const TIMEOUT_MS = 60_000;

/**
 * Registers `before`/`after` hooks that serve DIST on a random port (`serveOptions` as for
 * server.mjs `serve`, e.g. a `handle` route of the test's own) and launch Chromium; returns an
 * object whose `server` and `browser` are set once the hooks ran.
 */
export function serveDistAndLaunch(serveOptions = {}) {
  const env = { server: undefined, browser: undefined };
  before(async () => {
    env.server = await serve(DIST, 0, serveOptions);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

export const TOUR_KEY = 'pypto-viewer.tour.v1';

/**
 * Chromium, headless. Its contexts start as a returning user's — the swimlane's first-visit
 * tour already dismissed — unless created with `newContext({ firstVisit: true, … })`.
 */
export async function launch() {
  // PYPTO_CHROMIUM_EXTRA_ARGS: more switches, space-separated (diagnostics, e.g. a feature off).
  const extra = (process.env.PYPTO_CHROMIUM_EXTRA_ARGS ?? '').split(' ').filter(Boolean);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...extra] });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options = {}) => {
    const { firstVisit = false, ...rest } = options;
    const context = await newContext(rest);
    if (!firstVisit) {
      await context.addInitScript((key) => {
        try { localStorage.setItem(key, 'dismissed'); } catch { /* opaque origins have no storage */ }
      }, TOUR_KEY);
    }
    return context;
  };
  return browser;
}

/**
 * A fresh context (own OPFS, own service workers) and page. Console errors and page errors are
 * echoed to stderr with the test's name so CI logs show what the app complained about.
 */
export async function newPage(browser, label = 'page') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') console.error(`[${label}] console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => console.error(`[${label}] pageerror: ${err.message}`));
  page.on('crash', () => console.error(`[${label}] page crashed`));
  return { context, page };
}

/**
 * Runs `fn({context, page})` in a fresh context; on failure saves `fail-<label>.png` in
 * SCREENSHOTS and rethrows; always closes the context.
 */
export async function withPage(browser, label, fn) {
  const { context, page } = await newPage(browser, label);
  try {
    return await fn({ context, page });
  } catch (err) {
    await screenshot(page, `fail-${label}`).catch(() => {});
    throw err;
  } finally {
    await context.close();
  }
}

/** Opens the app and waits until its worker reported ready. `url` may carry a query (`?src=`). */
export async function openApp(page, url) {
  await page.goto(url);
  await page.waitForSelector('#worker-status[data-state="ready"]', { state: 'attached', timeout: TIMEOUT_MS });
}

/**
 * Runs `action` (e.g. a click that opens a folder) and waits until the app finished loading:
 * `body[data-load-state="done"]`. The attribute is cleared first so a previous "done" doesn't count.
 */
export async function loadVia(page, action) {
  await page.evaluate(() => document.body.removeAttribute('data-load-state'));
  await action();
  await waitLoadDone(page);
}

export async function waitLoadDone(page) {
  await page.waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: TIMEOUT_MS });
}

/**
 * Makes `showDirectoryPicker()` return the OPFS folder `picked/` (seed files under it with
 * `seedOpfs`). Call before `page.goto`.
 */
export async function stubDirectoryPicker(page) {
  await page.addInitScript(() => {
    window.showDirectoryPicker = async () =>
      (await navigator.storage.getDirectory()).getDirectoryHandle('picked', { create: true });
  });
}

/** Removes `showDirectoryPicker` (as in Firefox/Safari) so the app uses `input#dir-input`. Call before `page.goto`. */
export async function removeDirectoryPicker(page) {
  await page.addInitScript(() => {
    delete window.showDirectoryPicker;
    delete Window.prototype.showDirectoryPicker;
  });
}

/**
 * Writes local files into the page origin's OPFS under `root/` (default `picked`, where the
 * stubbed picker points). `files` maps a relative path (`case/dfx_outputs/deps.json`) to an
 * absolute local path (a string) or to the bytes themselves (Buffer/Uint8Array). Big files go in
 * base64 chunks of `chunkBytes`, one `page.evaluate` per chunk. The page must be on the app's
 * origin already. Returns the OPFS paths written.
 */
export async function seedOpfs(page, files, { root = 'picked', chunkBytes = 1 << 20 } = {}) {
  const written = [];
  for (const [rel, source] of Object.entries(files)) {
    const bytes = typeof source === 'string' ? fs.readFileSync(source) : Buffer.from(source);
    const parts = [root, ...rel.split('/')].filter(Boolean);
    for (let offset = 0; offset === 0 || offset < bytes.length; offset += chunkBytes) {
      const b64 = bytes.subarray(offset, offset + chunkBytes).toString('base64');
      await page.evaluate(
        async ({ parts, b64, offset }) => {
          let dir = await navigator.storage.getDirectory();
          for (const name of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(name, { create: true });
          const handle = await dir.getFileHandle(parts[parts.length - 1], { create: true });
          const writable = await handle.createWritable({ keepExistingData: offset > 0 });
          if (offset > 0) await writable.seek(offset);
          const bin = atob(b64);
          const chunk = new Uint8Array(bin.length);
          for (let i = 0; i < bin.length; i++) chunk[i] = bin.charCodeAt(i);
          await writable.write(chunk);
          await writable.close();
        },
        { parts, b64, offset },
      );
    }
    written.push(parts.join('/'));
  }
  return written;
}

/** Lists the OPFS tree below `root` as { 'a/b.json': size } (for harness checks). */
export async function listOpfs(page, root = 'picked') {
  return page.evaluate(async (root) => {
    const out = {};
    const top = await (await navigator.storage.getDirectory()).getDirectoryHandle(root);
    const stack = [[top, '']];
    while (stack.length) {
      const [dir, prefix] = stack.pop();
      for await (const [name, handle] of dir.entries()) {
        if (handle.kind === 'directory') stack.push([handle, `${prefix}${name}/`]);
        else out[`${prefix}${name}`] = (await handle.getFile()).size;
      }
    }
    return out;
  }, root);
}

/** Saves `<SCREENSHOTS>/<name>.png` and returns its path. */
export async function screenshot(page, name, options = {}) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, ...options });
  return file;
}

/** Runtime files the viewer reads (same rule as the demo bundling in xtask). */
export function isViewerRuntimeFile(name) {
  return (
    ['chip_swimlane_records.json', 'deps.json', 'merged_swimlane.json', 'critical_path_report.md', 'host_phase_records.jsonl'].includes(name) ||
    (name.endsWith('.json') && (name.startsWith('name_map') || name.startsWith('CPM_')))
  );
}

/**
 * `{ '<prefix>/<name>': absPath }` for the files of `dir` (recursively) passing `filter(name)`.
 */
export function filesOf(dir, prefix, filter = () => true) {
  const out = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(out, filesOf(abs, `${prefix}/${entry.name}`, filter));
    else if (filter(entry.name)) out[`${prefix}/${entry.name}`] = abs;
  }
  return out;
}

/** Copies `files` ({rel: absPath}) into a fresh temp directory; returns its path. */
export function tempTree(files, name = 'pypto-e2e-') {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), name));
  for (const [rel, abs] of Object.entries(files)) {
    const dst = path.join(top, rel);
    fs.mkdirSync(path.dirname(dst), { recursive: true });
    fs.copyFileSync(abs, dst);
  }
  return top;
}

/**
 * What the viewer must show for a runtime capture, read from the fixture itself:
 * chip_swimlane_records.json metadata, deps.json array lengths, and the reference converter's
 * "Task Count:" and "span:" lines.
 */
export function runtimeFacts(dir) {
  const records = JSON.parse(fs.readFileSync(path.join(dir, 'chip_swimlane_records.json'), 'utf8'));
  const facts = {
    level: records.chip_swimlane_level,
    clockHz: records.metadata.clock_freq_hz,
    cores: records.metadata.num_cores,
  };
  const stdoutFile = path.join(dir, 'reference_converter_stdout.txt');
  if (fs.existsSync(stdoutFile)) {
    const text = fs.readFileSync(stdoutFile, 'utf8');
    facts.tasks = Number(/Task Count:\s*(\d+)/.exec(text)?.[1]);
    facts.spanUs = /\(span:\s*([0-9.]+)\s*us\)/.exec(text)?.[1]; // string with 3 decimals
  }
  const depsFile = path.join(dir, 'deps.json');
  if (fs.existsSync(depsFile)) {
    const deps = JSON.parse(fs.readFileSync(depsFile, 'utf8'));
    facts.deps = { tasks: deps.tasks.length, edges: deps.edges.length, tensors: deps.tensors.length };
  }
  return facts;
}

/** Number of compiler passes in a passes_dump directory: the `NN_after_<Pass>.py` files. */
export function passCount(passesDumpDir) {
  return fs.readdirSync(passesDumpDir).filter((n) => /^\d+_after_.+\.py$/.test(n)).length;
}

/** CSS selector for the sidebar entry of a dataset whose data-path contains `pathPart`. */
export function datasetSel(kind, pathPart) {
  return `#datasets li.dataset[data-kind="${kind}"][data-path*="${pathPart}"]`;
}

/** All sidebar entries as plain objects (for assertion messages). */
export async function datasets(page) {
  return page.$$eval('#datasets li.dataset', (els) =>
    els.map((el) => ({
      kind: el.dataset.kind,
      path: el.dataset.path,
      summary: el.querySelector('.summary') ? { ...el.querySelector('.summary').dataset } : null,
      missing: [...el.querySelectorAll('.missing li')].map((li) => li.textContent.trim()),
      views: [...el.querySelectorAll('.views li')].map((li) => li.textContent.trim()),
    })),
  );
}

/** Waits for the `.summary` of a dataset entry (with attribute `attr`) and returns its data-* as an object. */
export async function summaryOf(page, sel, attr = 'data-tasks') {
  const summary = await page.waitForSelector(`${sel} .summary[${attr}]`, { state: 'attached', timeout: TIMEOUT_MS });
  return summary.evaluate((el) => ({ ...el.dataset }));
}

/** `#swimlane`'s visible time window in µs. */
export async function viewWindow(page) {
  return page.$eval('#swimlane', (el) => ({
    start: Number(el.dataset.viewStartUs),
    end: Number(el.dataset.viewEndUs),
  }));
}

/** Waits until the window differs from `prev`, then until it stops moving (animations); returns it. */
export async function viewChangedFrom(page, prev, timeout = 10_000) {
  await page.waitForFunction(
    ({ start, end }) => {
      const el = document.querySelector('#swimlane');
      return el && (Number(el.dataset.viewStartUs) !== start || Number(el.dataset.viewEndUs) !== end);
    },
    prev,
    { timeout },
  );
  let last = await viewWindow(page);
  for (let i = 0; i < 30; i++) {
    await page.waitForTimeout(100);
    const now = await viewWindow(page);
    if (now.start === last.start && now.end === last.end) return now;
    last = now;
  }
  return last;
}

/** Holds a key for a moment (works for apps that step on keydown and for ones that move while held). */
export async function holdKey(page, key, ms = 250) {
  await page.keyboard.down(key);
  await page.waitForTimeout(ms);
  await page.keyboard.up(key);
}

/**
 * Ctrl+wheel zooms the swimlane in at bar `index` of `track` (scrolled into view each step)
 * until it is at least `minWidthPx` wide; returns its rect (`window.__pyptoSwimlane.barRect`).
 */
export async function zoomToBar(page, track, index, minWidthPx = 20, steps = 60) {
  const api = (fn, ...args) => page.evaluate(([fn, args]) => window.__pyptoSwimlane[fn](...args), [fn, args]);
  for (let k = 0; k < steps; k += 1) {
    await api('scrollToTrack', track);
    const r = await api('barRect', track, index);
    if (!r) throw new Error(`bar ${track}:${index} is not laid out`);
    if (r.w >= minWidthPx) return r;
    await page.mouse.move(r.x + r.w / 2, r.y + r.h / 2);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -400);
    await page.keyboard.up('Control');
    await page.waitForTimeout(30);
  }
  await api('scrollToTrack', track);
  return api('barRect', track, index);
}

/** Two pass dumps of one compile (`generated-tile_softmax`) as `{ path: absolute file }` under
 *  `dumps/a/` and `dumps/b/`, the second with one buffer moved from pass 35 on (so the pass
 *  comparison and the memory comparison have something to say). */
export function movedBufferPassDumps(tempPrefix) {
  const source = path.join(FIXTURES, 'passes', 'generated-tile_softmax');
  const dump = fs.readdirSync(source).map((n) => path.join(source, n, 'passes_dump')).find((p) => fs.existsSync(p));
  const b = tempTree(filesOf(dump, 'passes_dump'), tempPrefix);
  for (const name of fs.readdirSync(path.join(b, 'passes_dump'))) {
    if (!(Number(name.split('_')[0]) >= 35) || !name.endsWith('.py')) continue;
    const file = path.join(b, 'passes_dump', name);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('pl.MemRef(mem_vec_4, pl.const(32768, pl.INT64), 256)', 'pl.MemRef(mem_vec_4, pl.const(40960, pl.INT64), 256)'));
  }
  return { ...filesOf(dump, 'dumps/a/passes_dump'), ...filesOf(path.join(b, 'passes_dump'), 'dumps/b/passes_dump') };
}

/** Chooses `baselinePath`'s dataset in the "compare with…" list of the row `rowSel`. */
export async function compareWith(page, rowSel, baselinePath) {
  await page.waitForSelector(`${rowSel} [data-testid=compare-with]`, { timeout: TIMEOUT_MS });
  const value = await page.$eval(`${rowSel} [data-testid=compare-with]`, (el, p) => {
    const options = [...el.options];
    return (options.find((o) => o.textContent === p) ?? options.find((o) => o.value && o.textContent.includes(p)))?.value;
  }, baselinePath);
  if (!value) throw new Error(`${baselinePath} is not offered to compare with`);
  await page.selectOption(`${rowSel} [data-testid=compare-with]`, value);
}
