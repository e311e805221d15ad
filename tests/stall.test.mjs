// Nothing waits forever (issue 17): a hosted capture (`?src=`) whose server stalls in the middle
// of one file. The read fails after the stall timeout (`?stall_ms=` shortens the production 30 s)
// with a message naming the file and the wait, the sibling dataset still loads, the load ends,
// and "Retry" opens the source again. Opening the demo while a load is stalled, or crashing the
// worker during a load (`__pyptoDebugPanic()`, then "Reload the data"), ends cleanly: no page
// error, no unhandled rejection, no console error but the crash's own messages. A bar whose
// details are read back from a file (a `Range` request) that stalls says why in its details, and
// a second click reads them.
//
// The data server is the test's own route on the dist server (server.mjs `handle`): it serves
// two copies of a small runtime capture under /data/ plus their manifest, and for one file sends
// the headers and part of the body, then nothing.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve, mimeType } from './server.mjs';
import {
  DEMO_RUNTIME_FIXTURE,
  DIST,
  SCREENSHOTS,
  SMALL_RUNTIME_FIXTURE,
  TIMEOUT_MS,
  datasetSel,
  filesOf,
  isViewerRuntimeFile,
  launch,
  loadVia,
  runtimeFacts,
  summaryOf,
  waitLoadDone,
  withPage,
  zoomToBar,
} from './helpers.mjs';

/** The file whose body stops halfway. */
const STALLED = 'stalled/dfx_outputs/chip_swimlane_records.json';
const FILES = {
  ...filesOf(SMALL_RUNTIME_FIXTURE, 'good/dfx_outputs', isViewerRuntimeFile),
  ...filesOf(SMALL_RUNTIME_FIXTURE, 'stalled/dfx_outputs', isViewerRuntimeFile),
};
const MANIFEST = JSON.stringify({
  format: 'pypto-viewer-manifest',
  version: 1,
  files: Object.entries(FILES)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([rel, abs]) => ({ path: rel, size_bytes: fs.statSync(abs).size })),
});
const GOOD = datasetSel('runtime', 'good/dfx_outputs');
const DEMO = datasetSel('runtime', 'paged_attention/dfx_outputs');
/** Console errors the crash tests cause on purpose (the worker's panic hook and the page's report). */
const INTENDED = [/panicked/];
const STALL_MS = 2000;
/** The good capture's records file, whose `Range` reads (details read back) stall while `stallRanges` is set. */
const GOOD_RECORDS = 'good/dfx_outputs/chip_swimlane_records.json';
let stallRanges = false;

let server;
let browser;
/** Resolvers waiting for the next request of the stalled file. */
let onStalled = [];

/** Answers /data/…: the manifest, the files, and the stalled one cut off after half its bytes. */
function dataRoute(req, res) {
  const urlPath = decodeURIComponent(req.url.split(/[?#]/)[0]);
  if (urlPath === '/stalled-manifest/pypto-viewer-manifest.json') {
    // A manifest whose body stops halfway.
    res.writeHead(200, { 'cache-control': 'no-cache', 'content-type': 'application/json' });
    res.write(MANIFEST.slice(0, MANIFEST.length >> 1));
    return true;
  }
  if (!urlPath.startsWith('/data/')) return false;
  const rel = urlPath.slice('/data/'.length);
  const headers = { 'cache-control': 'no-cache' };
  if (rel === 'pypto-viewer-manifest.json') {
    res.writeHead(200, { ...headers, 'content-type': 'application/json' });
    res.end(MANIFEST);
    return true;
  }
  const abs = FILES[rel];
  if (!abs) {
    res.writeHead(404, headers);
    res.end();
    return true;
  }
  const bytes = fs.readFileSync(abs);
  if (stallRanges && rel === GOOD_RECORDS && req.headers.range) {
    // The range's headers, then nothing.
    res.writeHead(206, { ...headers, 'content-type': mimeType(abs), 'content-range': `${req.headers.range.replace('=', ' ')}/${bytes.length}` });
    res.write('');
    return true;
  }
  res.writeHead(200, { ...headers, 'content-type': mimeType(abs), 'content-length': bytes.length });
  if (rel !== STALLED) {
    res.end(bytes);
    return true;
  }
  // Headers and half the body, then nothing: the connection stays open until the server closes.
  res.write(bytes.subarray(0, bytes.length >> 1));
  for (const resolve of onStalled.splice(0)) resolve();
  return true;
}

/** Resolves when the stalled file is next requested (its first half sent). */
function nextStall() {
  return new Promise((resolve) => onStalled.push(resolve));
}

before(async () => {
  assert.ok(fs.existsSync(`${DIST}/index.html`), `${DIST}/index.html is missing: build first (cargo xtask build), or set DIST`);
  server = await serve(DIST, 0, { handle: dataRoute });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Collects page errors and unintended console errors of `page`. */
function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !INTENDED.some((re) => re.test(msg.text()))) errors.push(`console.error: ${msg.text()}`);
  });
  return errors;
}

/** Opens the demo and checks its runtime dataset's summary. */
async function openDemo(page) {
  await loadVia(page, () => page.click('#open-demo'));
  const summary = await summaryOf(page, DEMO);
  assert.equal(summary.tasks, String(runtimeFacts(DEMO_RUNTIME_FIXTURE).tasks), 'the demo loaded');
}

/** Waits for the stalled file's error and returns its text. */
async function stalledError(page) {
  const li = await page.waitForSelector(`#errors li.file-error[data-path="${STALLED}"]`, { state: 'attached', timeout: TIMEOUT_MS });
  return li.textContent();
}

test('a file that stalls mid-body fails with "no bytes … for 2 s", the rest loads, Retry reads it again, then the demo opens cleanly', { timeout: 120_000 }, async () => {
  await withPage(browser, 'stall', async ({ page }) => {
    const errors = watchErrors(page);
    const stalled = nextStall();
    await page.goto(`${server.url}/?src=data/&stall_ms=${STALL_MS}`);
    await stalled;
    await waitLoadDone(page);

    const text = await stalledError(page);
    assert.match(text, /no bytes from \S*stalled\/dfx_outputs\/chip_swimlane_records\.json for 2 s/, `names the file and the wait: ${text}`);
    const good = await summaryOf(page, GOOD);
    assert.equal(good.tasks, String(runtimeFacts(SMALL_RUNTIME_FIXTURE).tasks), 'the sibling dataset loaded');
    await page.locator('aside.sidebar').screenshot({ path: screenshotPath('stall-sidebar-error') });

    // Retry: the source is opened again, and fails again the same way (the server still stalls).
    const again = nextStall();
    await loadVia(page, async () => {
      await page.click(`#errors li.file-error[data-path="${STALLED}"] button.retry`);
      await again;
    });
    assert.match(await stalledError(page), /no bytes from/);
    await summaryOf(page, GOOD);

    await openDemo(page);
    assert.deepEqual(errors, [], 'no page error, no console error');
  });
});

test('opening the demo while a file stalls cancels the load cleanly', { timeout: 120_000 }, async () => {
  await withPage(browser, 'stall-then-demo', async ({ page }) => {
    const errors = watchErrors(page);
    const stalled = nextStall();
    // The production timeout: the load is still waiting when the demo is opened.
    await page.goto(`${server.url}/?src=data/`);
    await stalled;
    await page.waitForSelector('#worker-status[data-state="ready"]', { state: 'attached', timeout: TIMEOUT_MS });
    assert.equal(await page.getAttribute('body', 'data-load-state'), 'loading', 'the load waits for the stalled file');
    await openDemo(page);
    await page.waitForTimeout(500); // a late rejection of the cancelled load would land here
    assert.equal(await page.$(`#errors li.file-error`), null, 'the cancelled load leaves no error behind');
    assert.deepEqual(errors, [], 'no page error, no console error');
  });
});

test('a worker crash during a load recovers without a page error, and the demo opens cleanly', { timeout: 120_000 }, async () => {
  await withPage(browser, 'crash-during-load', async ({ page }) => {
    const errors = watchErrors(page);
    const stalled = nextStall();
    await page.goto(`${server.url}/?src=data/&stall_ms=${STALL_MS * 5}`);
    await stalled;
    await page.evaluate(() => window.__pyptoDebugPanic());
    await page.waitForSelector('#worker-status[data-state="restarted"]', { state: 'attached', timeout: TIMEOUT_MS });
    await page.waitForSelector('.worker-crash', { state: 'visible' });

    // "Reload the data" opens the stalled source again; its load ends with the stall error.
    const again = nextStall();
    await loadVia(page, async () => {
      await page.click('.worker-crash button.reload');
      await again;
    });
    await stalledError(page);
    await summaryOf(page, GOOD);

    await openDemo(page);
    await page.waitForTimeout(500);
    assert.deepEqual(errors, [], 'no page error, no console error but the crash report');
  });
});

test('a manifest that stalls is a file error with a Retry, and the demo opens after', { timeout: 120_000 }, async () => {
  await withPage(browser, 'stall-manifest', async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto(`${server.url}/?src=stalled-manifest/&stall_ms=${STALL_MS}`);
    await waitLoadDone(page);
    const li = page.locator('#errors li.file-error', { hasText: 'pypto-viewer-manifest.json' });
    assert.match(await li.textContent(), /could not load the dataset manifest: no bytes from \S*stalled-manifest\/pypto-viewer-manifest\.json for 2 s/);
    await loadVia(page, () => li.locator('button.retry').click());
    assert.match(await page.locator('#errors li.file-error').first().textContent(), /no bytes from/, 'Retry asked again, and says so again');
    await openDemo(page);
    assert.deepEqual(errors, [], 'no page error, no console error');
  });
});

test('a bar whose details read back from a file that stalls says so, and a second click reads them', { timeout: 120_000 }, async () => {
  await withPage(browser, 'stall-details', async ({ page }) => {
    const errors = watchErrors(page);
    const stalled = nextStall();
    await page.goto(`${server.url}/?src=data/&stall_ms=${STALL_MS}`);
    await stalled;
    await waitLoadDone(page);
    await page.click(GOOD);
    await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0 && window.__pyptoSwimlane?.groups(), null, { timeout: TIMEOUT_MS });
    const api = (fn, ...args) => page.evaluate(([fn, args]) => window.__pyptoSwimlane[fn](...args), [fn, args]);
    // A scheduler phase bar: the worker reads its record back from the records file.
    const { groups } = await api('groups');
    const sched = groups.find((g) => g.view === 'AICPU Scheduler').tracks.reduce((a, b) => (b.bars > a.bars ? b : a));
    await zoomToBar(page, sched.index, 0);
    const click = async () => {
      await api('scrollToTrack', sched.index);
      const r = await api('barRect', sched.index, 0);
      await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
    };
    stallRanges = true;
    await click();
    await page.waitForFunction(() => document.querySelector('#task-details [data-complete="true"]')?.textContent.includes('Read back'), null, { timeout: TIMEOUT_MS });
    const rows = Object.fromEntries(await page.$$eval('#task-details tr', (trs) => trs.map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('td')?.textContent])));
    assert.match(rows['Read back'], /no bytes from \S*good\/dfx_outputs\/chip_swimlane_records\.json for 2 s \(click the bar again to retry\)/, JSON.stringify(rows));
    assert.equal(rows.Record, 'could not read it back from the file');
    stallRanges = false;
    await page.keyboard.press('Escape');
    await click();
    await page.waitForFunction(() => document.querySelector('#task-details [data-complete="true"]')?.textContent.includes('Loop iteration'), null, { timeout: TIMEOUT_MS });
    assert.deepEqual(errors, [], 'no page error, no console error');
  });
});

/** `<SCREENSHOTS>/<name>.png`, its directory made. */
function screenshotPath(name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return path.join(SCREENSHOTS, `${name}.png`);
}
