// Progress and Cancel (issue 20, item 4): a hosted source (`?src=`) holding a small capture and a
// large generated one (`pypto-viewer gen --tasks 100000`: 240 MB of deps.json and records). The
// test's own data route sends the large files at a bounded rate, so the load is surely in the
// middle of a file when the test acts, on any machine. While the large capture loads, the top
// bar shows the progress bar: what is read, bytes of all, percent, time left. Cancel stops it:
// the load job is terminated — gone from the browser's worker targets, and the server sees its
// download dropped before the end —, the large
// capture is marked "Loading cancelled" with "Load again", no problem is listed, the load ends,
// and the small capture that loaded before it still opens in the swimlane. Then the demo opens
// and draws.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve, mimeType } from './server.mjs';
import { DIST, REPO, SMALL_RUNTIME_FIXTURE, TIMEOUT_MS, datasetSel, filesOf, isViewerRuntimeFile, launch, loadVia, openApp, screenshot, summaryOf, withPage } from './helpers.mjs';

/** Bytes per tick and the tick of the large files' bodies (~20 MB/s: a 118 MB file takes ~6 s). */
const THROTTLE_BYTES = 2 << 20;
const THROTTLE_MS = 100;
const BIG_TASKS = 100_000;

let server;
let browser;
let genDir;
/** Relative path → absolute path of every served file. */
let files;
let manifest;
/** Per large file: requests started, and those whose connection closed before the body ended. */
const big = { started: 0, droppedEarly: 0, finished: 0 };

function dataRoute(req, res) {
  const urlPath = decodeURIComponent(req.url.split(/[?#]/)[0]);
  if (!urlPath.startsWith('/data/')) return false;
  const rel = urlPath.slice('/data/'.length);
  const headers = { 'cache-control': 'no-cache' };
  if (rel === 'pypto-viewer-manifest.json') {
    res.writeHead(200, { ...headers, 'content-type': 'application/json' });
    res.end(manifest);
    return true;
  }
  const abs = files[rel];
  if (!abs) {
    res.writeHead(404, headers);
    res.end();
    return true;
  }
  const bytes = fs.readFileSync(abs);
  res.writeHead(200, { ...headers, 'content-type': mimeType(abs), 'content-length': bytes.length });
  if (!rel.startsWith('b-large/')) {
    res.end(bytes);
    return true;
  }
  big.started += 1;
  let at = 0;
  let ended = false;
  // Written no faster than the page reads (backpressure), so what was sent is what was read.
  let draining = false;
  res.on('drain', () => {
    draining = false;
  });
  const timer = setInterval(() => {
    if (ended || draining) return;
    const next = Math.min(bytes.length, at + THROTTLE_BYTES);
    draining = !res.write(bytes.subarray(at, next));
    at = next;
    if (at >= bytes.length) {
      ended = true;
      clearInterval(timer);
      big.finished += 1;
      res.end();
    }
  }, THROTTLE_MS);
  res.on('close', () => {
    clearInterval(timer);
    if (!ended) {
      ended = true;
      big.droppedEarly += 1;
    }
  });
  return true;
}

/** The progress detail (bytes · percent · time left) is shown whole at the 1280 px window: the
 *  detail element does not overflow, and no part of it is cut by the progress group or the top bar. */
async function assertDetailWhole(page) {
  const fit = await page.$eval('[data-testid="load-progress-detail"]', (el) => {
    const r = el.getBoundingClientRect();
    const group = el.closest('[data-testid="load-progress"]').getBoundingClientRect();
    const bar = el.closest('.toolbar').getBoundingClientRect();
    return { scroll: el.scrollWidth, client: el.clientWidth, right: r.right, groupRight: group.right, barRight: bar.right, text: el.textContent, width: window.innerWidth };
  });
  assert.equal(fit.width, 1280, 'the window is 1280 px wide');
  assert.ok(fit.client > 0 && fit.scroll <= fit.client, `the detail does not overflow: ${JSON.stringify(fit)}`);
  assert.ok(fit.right <= fit.groupRight + 0.5 && fit.right <= fit.barRight + 0.5, `the detail is not cut: ${JSON.stringify(fit)}`);
}

before(async () => {
  assert.ok(fs.existsSync(`${DIST}/index.html`), `${DIST}/index.html is missing: build first (cargo xtask build), or set DIST`);
  genDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pypto-e2e-cancel-'));
  const large = path.join(genDir, 'b-large', 'dfx_outputs');
  const gen = spawnSync('cargo', ['run', '--release', '-q', '-p', 'pypto-cli', '--bin', 'pypto-viewer', '--', 'gen', large, '--tasks', String(BIG_TASKS), '--name-map'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  assert.equal(gen.status, 0, `gen failed: ${gen.stderr}`);
  files = {
    ...filesOf(SMALL_RUNTIME_FIXTURE, 'a-small/dfx_outputs', isViewerRuntimeFile),
    ...Object.fromEntries(fs.readdirSync(large).map((n) => [`b-large/dfx_outputs/${n}`, path.join(large, n)])),
  };
  manifest = JSON.stringify({
    format: 'pypto-viewer-manifest',
    version: 1,
    files: Object.entries(files)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([rel, abs]) => ({ path: rel, size_bytes: fs.statSync(abs).size })),
  });
  server = await serve(DIST, 0, { handle: dataRoute });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (genDir) fs.rmSync(genDir, { recursive: true, force: true });
});

test('a large capture shows its progress; Cancel terminates its load, the rest stays usable, the demo opens', { timeout: 240_000 }, async () => {
  await withPage(browser, 'cancel', async ({ page }) => {
    const errors = [];
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`);
    });
    await openApp(page, `${server.url}/?src=${encodeURIComponent('data/')}`);
    const SMALL = datasetSel('runtime', 'a-small/dfx_outputs');
    const LARGE = datasetSel('runtime', 'b-large/dfx_outputs');

    // The small capture loads first; then the large one's files stream in, with the bar.
    await page.waitForSelector(`${SMALL} .summary[data-tasks]`, { state: 'attached', timeout: TIMEOUT_MS });
    const bar = page.locator('[data-testid="load-progress"]');
    await page.waitForFunction(
      () => {
        const el = document.querySelector('[data-testid="load-progress"]');
        return el?.dataset.stage === 'read' && Number(el.dataset.percent) >= 5 && /left/.test(el.textContent);
      },
      null,
      { timeout: 60_000, polling: 100 },
    );
    const shown = await bar.evaluate((el) => ({
      percent: Number(el.dataset.percent),
      text: el.textContent,
      now: Number(el.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')),
    }));
    assert.match(shown.text, /Reading b-large\/dfx_outputs\/(deps|chip_swimlane_records)\.json/, `what is read: ${shown.text}`);
    assert.match(shown.text, /\d+(\.\d+)? MB \/ \d+(\.\d+)? MB · \d+% · (\d+ s|\d+ min \d+ s|< 1 s) left/, `bytes, percent, time left: ${shown.text}`);
    assert.ok(shown.percent > 0 && shown.percent < 100, `mid-load: ${shown.percent}%`);
    assert.equal(shown.now, shown.percent, 'the progressbar role carries the percent');
    // deps.json and the records are read at once: one bar for both, naming both, their bytes summed.
    await page.waitForFunction(
      () => {
        const text = document.querySelector('[data-testid="load-progress"]')?.textContent ?? '';
        return /Reading b-large\/dfx_outputs\/(deps\.json, chip_swimlane_records\.json|chip_swimlane_records\.json, deps\.json)/.test(text) && /\/ 2\d\d\.\d MB/.test(text);
      },
      null,
      { timeout: 30_000, polling: 100 },
    );
    assert.equal(await page.getAttribute('body', 'data-load-state'), 'loading');
    assert.equal(big.droppedEarly, 0, 'nothing dropped before Cancel');
    await assertDetailWhole(page);
    await screenshot(page, 'cancel-progress');
    // The load job is a nested worker of the analysis worker, and the large deps.json (118 MB,
    // over the 64 MiB at which it gets a core of its own) is parsed in the load job's own
    // nested job: three worker targets while both files are read.
    const cdp = await page.context().newCDPSession(page);
    const workers = async () => (await cdp.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'worker' && /pypto-worker/.test(t.url)).length;
    assert.equal(await workers(), 3, 'the analysis worker, its load job and the deps.json job');

    // Cancel: the job is terminated (its download dropped), the large capture is cancelled.
    await page.click('[data-testid="cancel-load"]');
    await page.waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: 30_000 });
    await page.waitForSelector('[data-testid="load-progress"]', { state: 'detached', timeout: 10_000 });
    await page.waitForSelector(`${LARGE} [data-testid="dataset-cancelled"]`, { timeout: 10_000 });
    const deadline = Date.now() + 10_000;
    while (big.droppedEarly === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok(big.droppedEarly >= 1, `the terminated job's download was dropped (started ${big.started}, dropped ${big.droppedEarly}, finished ${big.finished})`);
    assert.equal(big.finished, 0, 'no large file was read to its end');
    assert.equal(await workers(), 1, 'the load job and its deps.json job are terminated (their memory goes back to the browser); the analysis worker stays');
    const startedAtCancel = big.started;
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(big.started, startedAtCancel, 'nothing of the large capture is read after Cancel');
    assert.equal(await page.locator(`${LARGE} [data-testid="load-again"]`).count(), 1, 'a way to load it again');
    assert.equal(await page.locator('#errors li').count(), 0, 'a cancel is no problem to list');
    await screenshot(page, 'cancel-done');

    // The rest of the source stays usable: the small capture opens in the swimlane.
    await page.click(SMALL, { position: { x: 40, y: 14 } });
    await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0, null, { timeout: TIMEOUT_MS });

    // Then the demo opens and draws.
    await loadVia(page, () => page.click('#open-demo'));
    const DEMO = datasetSel('runtime', 'paged_attention/dfx_outputs');
    assert.equal((await summaryOf(page, DEMO)).tasks, '512', 'the demo loaded');
    await page.click(DEMO, { position: { x: 40, y: 14 } });
    await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0, null, { timeout: TIMEOUT_MS });
    await screenshot(page, 'cancel-then-demo');
    assert.deepEqual(errors, [], 'no page error, no console error');
  });
});

test('the progress bar and Cancel speak Chinese, in the dark theme too', { timeout: 240_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN', colorScheme: 'dark' });
  const page = await context.newPage();
  try {
    const droppedBefore = big.droppedEarly;
    await openApp(page, `${server.url}/?src=${encodeURIComponent('data/')}`);
    await page.waitForFunction(
      () => {
        const el = document.querySelector('[data-testid="load-progress"]');
        return el?.dataset.stage === 'read' && Number(el.dataset.percent) >= 5 && /剩余/.test(el.textContent);
      },
      null,
      { timeout: 60_000, polling: 100 },
    );
    const text = await page.locator('[data-testid="load-progress"]').textContent();
    assert.match(text, /正在读取 b-large\/dfx_outputs\//, `stage in Chinese: ${text}`);
    assert.match(text, /取消/, 'Cancel in Chinese');
    assert.match(text, /\d+% · 剩余 (\d+ 秒|\d+ 分 \d+ 秒|不到 1 秒)/, `percent, time left in Chinese: ${text}`);
    await assertDetailWhole(page);
    await screenshot(page, 'cancel-progress-zh-dark');
    await page.click('[data-testid="cancel-load"]');
    await page.waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: 30_000 });
    const cancelled = await page.locator('[data-testid="dataset-cancelled"]').textContent();
    assert.match(cancelled, /已取消加载/, `cancelled in Chinese: ${cancelled}`);
    const deadline = Date.now() + 10_000;
    while (big.droppedEarly === droppedBefore && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok(big.droppedEarly > droppedBefore, 'the download was dropped');
    await screenshot(page, 'cancel-done-zh-dark');
  } finally {
    await context.close();
  }
});
