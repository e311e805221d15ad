// Browser end-to-end tests of the viewer, run against the optimized build in DIST (default
// ../dist; `cargo xtask test` builds it and sets DIST and SCREENSHOTS).
//
// The tests talk to the app only through its DOM contract (see README "DOM contract for tests"):
// #worker-status[data-state], body[data-load-state], #open-folder, #open-demo, input#dir-input,
// #datasets li.dataset[data-kind][data-path] > .summary[data-*] / .missing li / .views li,
// #errors li.file-error[data-path], #swimlane[data-lanes][data-bars][data-view-start-us]
// [data-view-end-us] > canvas#swimlane-gl, window.__pyptoDebugPanic(), ./sw.js, ?src=<url>.
// Expected numbers are read from the fixtures, not written here.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from './server.mjs';
import {
  DEMO_PASSES_FIXTURE,
  DEMO_RUNTIME_FIXTURE,
  DIST,
  SMALL_RUNTIME_FIXTURE,
  TIMEOUT_MS,
  datasetSel,
  datasets,
  filesOf,
  holdKey,
  isViewerRuntimeFile,
  launch,
  loadVia,
  openApp,
  passCount,
  removeDirectoryPicker,
  runtimeFacts,
  screenshot,
  seedOpfs,
  stubDirectoryPicker,
  summaryOf,
  tempTree,
  viewChangedFrom,
  viewWindow,
  waitLoadDone,
  withPage,
} from './helpers.mjs';

const DEMO = {
  runtime: datasetSel('runtime', 'paged_attention/dfx_outputs'),
  passes: datasetSel('pass_dump', 'paged_attention/passes_dump'),
};
const demoFacts = runtimeFacts(DEMO_RUNTIME_FIXTURE);
const demoPasses = passCount(path.join(DEMO_PASSES_FIXTURE, 'passes_dump'));

let server;
let browser;
let appUrl; // with trailing slash

before(async () => {
  assert.ok(
    fs.existsSync(path.join(DIST, 'index.html')),
    `${DIST}/index.html is missing: build first (cargo xtask build), or set DIST`,
  );
  server = await serve(DIST, 0);
  appUrl = `${server.url}/`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Asserts a runtime summary against facts read from the fixture. */
function assertRuntimeSummary(summary, facts, label) {
  const msg = (what) => `${label}: ${what} (summary ${JSON.stringify(summary)})`;
  assert.equal(Number(summary.level), facts.level, msg('data-level'));
  assert.equal(Number(summary.clockHz), facts.clockHz, msg('data-clock-hz'));
  assert.equal(Number(summary.cores), facts.cores, msg('data-cores'));
  if (facts.tasks !== undefined) assert.equal(Number(summary.tasks), facts.tasks, msg('data-tasks'));
  if (facts.spanUs !== undefined) assert.equal(summary.spanUs, facts.spanUs, msg('data-span-us'));
  if (facts.deps) {
    assert.equal(Number(summary.depsTasks), facts.deps.tasks, msg('data-deps-tasks'));
    assert.equal(Number(summary.depsEdges), facts.deps.edges, msg('data-deps-edges'));
    assert.equal(Number(summary.depsTensors), facts.deps.tensors, msg('data-deps-tensors'));
  }
}

async function assertDemoLoaded(page) {
  const runtime = await summaryOf(page, DEMO.runtime, 'data-tasks');
  assertRuntimeSummary(runtime, demoFacts, 'demo runtime');
  const passes = await summaryOf(page, DEMO.passes, 'data-passes');
  assert.equal(Number(passes.passes), demoPasses, `data-passes ${JSON.stringify(passes)}`);
  assert.equal(passes.valid, 'true', `data-valid ${JSON.stringify(passes)}`);
}

test('Open demo lists the bundled runtime and pass-dump datasets with the reference numbers', { timeout: 120_000 }, async () => {
  await withPage(browser, 'open-demo', async ({ page }) => {
    await openApp(page, appUrl);
    await loadVia(page, () => page.click('#open-demo'));
    await assertDemoLoaded(page);
    const all = await datasets(page);
    const runtime = all.find((d) => d.kind === 'runtime' && d.path.includes('paged_attention/dfx_outputs'));
    assert.ok(runtime.views.length > 0, `runtime dataset lists its views: ${JSON.stringify(runtime)}`);
    assert.equal(await page.locator('#errors li.file-error').count(), 0, 'no file errors for the demo');
    await screenshot(page, 'demo-sidebar');
  });
});

test('Open folder through showDirectoryPicker (OPFS-backed stub) finds every dataset', { timeout: 120_000 }, async () => {
  await withPage(browser, 'open-folder-picker', async ({ page }) => {
    await stubDirectoryPicker(page);
    await openApp(page, appUrl);
    await seedOpfs(page, {
      ...filesOf(DEMO_RUNTIME_FIXTURE, 'caseA/dfx_outputs', isViewerRuntimeFile),
      ...filesOf(path.join(DEMO_PASSES_FIXTURE, 'passes_dump'), 'caseA/passes_dump'),
      // A second capture without deps.json: loads, with a missing-sibling note.
      'caseB/dfx_outputs/chip_swimlane_records.json': path.join(SMALL_RUNTIME_FIXTURE, 'chip_swimlane_records.json'),
    });
    await loadVia(page, () => page.click('#open-folder'));

    const a = await summaryOf(page, datasetSel('runtime', 'caseA/dfx_outputs'));
    assertRuntimeSummary(a, demoFacts, 'caseA');
    const passes = await summaryOf(page, datasetSel('pass_dump', 'caseA/passes_dump'), 'data-passes');
    assert.equal(Number(passes.passes), demoPasses);

    const smallFacts = runtimeFacts(SMALL_RUNTIME_FIXTURE);
    delete smallFacts.deps; // not seeded
    const bSel = datasetSel('runtime', 'caseB/dfx_outputs');
    const b = await summaryOf(page, bSel);
    assertRuntimeSummary(b, smallFacts, 'caseB');
    assert.equal(b.depsTasks, undefined, 'no data-deps-* without deps.json');
    const missing = await page.$$eval(`${bSel} .missing li`, (els) => els.map((e) => e.textContent));
    assert.ok(missing.some((t) => t.includes('deps.json')), `caseB notes the missing deps.json: ${JSON.stringify(missing)}`);
  });
});

test('Without showDirectoryPicker the webkitdirectory input opens a folder', { timeout: 120_000 }, async () => {
  const dir = tempTree(filesOf(DEMO_RUNTIME_FIXTURE, 'run1/dfx_outputs', isViewerRuntimeFile));
  try {
    await withPage(browser, 'open-folder-input', async ({ page }) => {
      await removeDirectoryPicker(page);
      await openApp(page, appUrl);
      assert.equal(await page.evaluate(() => 'showDirectoryPicker' in window), false);
      await loadVia(page, () => page.setInputFiles('#dir-input', dir));
      const summary = await summaryOf(page, datasetSel('runtime', 'run1/dfx_outputs'));
      assertRuntimeSummary(summary, demoFacts, 'input[webkitdirectory]');
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('?src= loads a hosted dataset from its manifest (directory URL with/without slash, .json URL)', { timeout: 120_000 }, async () => {
  const manifest = path.join(DIST, 'demo', 'pypto-viewer-manifest.json');
  assert.ok(fs.existsSync(manifest), `${manifest} missing (written by pypto-viewer manifest during the build)`);
  for (const src of [`${appUrl}demo`, `${appUrl}demo/`, `${appUrl}demo/pypto-viewer-manifest.json`]) {
    await withPage(browser, 'src-param', async ({ page }) => {
      await openApp(page, `${appUrl}?src=${encodeURIComponent(src)}`);
      await waitLoadDone(page);
      await assertDemoLoaded(page);
    });
  }
});

test('after the first visit the app loads offline from its service worker', { timeout: 120_000 }, async () => {
  await withPage(browser, 'offline', async ({ context, page }) => {
    await openApp(page, appUrl);
    const active = await page.evaluate(() =>
      Promise.race([
        navigator.serviceWorker.ready.then(() => true),
        new Promise((resolve) => setTimeout(() => resolve(false), 20_000)),
      ]),
    );
    assert.ok(active, 'a service worker (./sw.js) became active within 20 s');
    await context.setOffline(true);
    await page.reload();
    await page.waitForSelector('#worker-status[data-state="ready"]', { state: 'attached', timeout: TIMEOUT_MS });
    assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null), 'page controlled by sw.js');
    assert.ok(await page.locator('#open-demo').isVisible(), 'UI rendered offline');
  });
});

test('a malformed file is reported with its path and position; the good dataset still loads', { timeout: 120_000 }, async () => {
  const good = path.join(DEMO_RUNTIME_FIXTURE, 'chip_swimlane_records.json');
  const text = fs.readFileSync(good);
  // Cut in the middle of a line well inside the file: an unexpected EOF there.
  let cut = Math.floor(text.length / 2);
  while (text[cut - 1] === 0x0a || text[cut] === 0x0a) cut++;
  const truncated = text.subarray(0, cut);
  const expectedLine = truncated.toString('latin1').split('\n').length;
  const expectedColumn = cut - (truncated.lastIndexOf(0x0a) + 1);

  await withPage(browser, 'malformed', async ({ page }) => {
    await stubDirectoryPicker(page);
    await openApp(page, appUrl);
    await seedOpfs(page, {
      'bad/dfx_outputs/chip_swimlane_records.json': truncated,
      ...filesOf(SMALL_RUNTIME_FIXTURE, 'good/dfx_outputs', isViewerRuntimeFile),
    });
    await loadVia(page, () => page.click('#open-folder'));

    const summary = await summaryOf(page, datasetSel('runtime', 'good/dfx_outputs'));
    assertRuntimeSummary(summary, runtimeFacts(SMALL_RUNTIME_FIXTURE), 'good');

    const err = await page.waitForSelector('#errors li.file-error[data-path*="bad/dfx_outputs/chip_swimlane_records.json"]', {
      state: 'attached',
    });
    const errText = await err.textContent();
    assert.ok(errText.includes('bad/dfx_outputs/chip_swimlane_records.json'), `error names the file: ${errText}`);
    const pos = /line (\d+), column (\d+)/.exec(errText);
    assert.ok(pos, `error has "line L, column C": ${errText}`);
    assert.equal(Number(pos[1]), expectedLine, `line of the cut: ${errText}`);
    // Column conventions differ by one (0- or 1-based end position); the line is exact.
    assert.ok(Math.abs(Number(pos[2]) - expectedColumn) <= 1, `column near ${expectedColumn}: ${errText}`);
    await screenshot(page, 'malformed-file-error');
  });
});

test('a worker panic is shown, the worker restarts, and datasets can be reopened', { timeout: 120_000 }, async () => {
  await withPage(browser, 'worker-panic', async ({ page }) => {
    await openApp(page, appUrl);
    await loadVia(page, () => page.click('#open-demo'));
    await summaryOf(page, DEMO.runtime);

    await page.evaluate(() => window.__pyptoDebugPanic());
    await page.waitForSelector('#worker-status[data-state="restarted"]', { state: 'attached', timeout: TIMEOUT_MS });
    await page.waitForSelector('.worker-crash', { state: 'visible' });
    await screenshot(page, 'worker-restarted');

    await loadVia(page, () => page.click('#open-demo'));
    await assertDemoLoaded(page);
    // The new worker serves views too.
    await page.click(DEMO.runtime);
    await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0, null, { timeout: TIMEOUT_MS });
  });
});

test('the Worker View swimlane draws, and keys / ctrl+wheel pan and zoom', { timeout: 120_000 }, async () => {
  await withPage(browser, 'swimlane', async ({ page }) => {
    await openApp(page, appUrl);
    await loadVia(page, () => page.click('#open-demo'));
    await summaryOf(page, DEMO.runtime);
    await page.click(DEMO.runtime);

    await page.waitForFunction(
      () => {
        const el = document.querySelector('#swimlane');
        return (
          el &&
          Number(el.dataset.lanes) > 0 &&
          Number(el.dataset.bars) > 0 &&
          el.dataset.viewStartUs !== undefined &&
          el.dataset.viewEndUs !== undefined
        );
      },
      null,
      { timeout: TIMEOUT_MS },
    );
    const canvas = page.locator('#swimlane canvas#swimlane-gl');
    assert.ok(await canvas.isVisible(), 'canvas#swimlane-gl visible');
    const box = await canvas.boundingBox();
    assert.ok(box.width > 100 && box.height > 50, `canvas has a size: ${JSON.stringify(box)}`);
    await page.waitForTimeout(300); // let a frame or two be composited
    await screenshot(page, 'swimlane-initial');

    const v0 = await viewWindow(page);
    assert.ok(Number.isFinite(v0.start) && Number.isFinite(v0.end) && v0.end > v0.start, `window ${JSON.stringify(v0)}`);
    const span = (v) => v.end - v.start;

    // Keys go to the focused swimlane (or bubble to the document).
    await page.evaluate(() => {
      const c = document.querySelector('#swimlane-gl');
      const s = document.querySelector('#swimlane');
      (c.tabIndex >= 0 ? c : s.tabIndex >= 0 ? s : c).focus();
    });
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);

    await holdKey(page, 'w');
    const v1 = await viewChangedFrom(page, v0);
    assert.ok(span(v1) < span(v0), `w zooms in: ${JSON.stringify({ v0, v1 })}`);
    await screenshot(page, 'swimlane-zoomed');

    await holdKey(page, 'd');
    const v2 = await viewChangedFrom(page, v1);
    assert.ok(v2.start > v1.start, `d pans right: ${JSON.stringify({ v1, v2 })}`);

    await holdKey(page, 'a');
    const v3 = await viewChangedFrom(page, v2);
    assert.ok(v3.start < v2.start, `a pans left: ${JSON.stringify({ v2, v3 })}`);

    await holdKey(page, 's');
    const v4 = await viewChangedFrom(page, v3);
    assert.ok(span(v4) > span(v3), `s zooms out: ${JSON.stringify({ v3, v4 })}`);

    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -400); // wheel up = zoom in
    await page.keyboard.up('Control');
    const v5 = await viewChangedFrom(page, v4);
    assert.ok(span(v5) < span(v4), `ctrl+wheel up zooms in: ${JSON.stringify({ v4, v5 })}`);
    await screenshot(page, 'swimlane-after-wheel');
  });
});

test('clicking a bar shows that task in the details panel (task, function, deps.json neighbours)', { timeout: 120_000 }, async () => {
  // The longest Worker View bar of the reference trace, and where the viewer must draw it.
  const trace = JSON.parse(fs.readFileSync(path.join(DEMO_RUNTIME_FIXTURE, 'merged_swimlane.json'), 'utf8'));
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const workerPid = events.find((e) => e.ph === 'M' && e.name === 'process_name' && e.args?.name === 'Worker View').pid;
  const laneName = new Map(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === workerPid).map((e) => [e.tid, e.args.name]));
  const bars = events.filter((e) => e.ph === 'X' && e.pid === workerPid && /^AI[CV]_/.test(laneName.get(e.tid) ?? ''));
  const longest = bars.reduce((a, b) => (b.dur > a.dur ? b : a));
  const [, taskText] = /Task:([^,]+)/.exec(longest.args['event-hint']);
  const functionName = longest.name.slice(0, longest.name.indexOf('('));
  const successors = longest.args['fanout-hint'];

  await withPage(browser, 'details', async ({ page }) => {
    await openApp(page, appUrl);
    await loadVia(page, () => page.click('#open-demo'));
    await page.click(DEMO.runtime);
    await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0, null, { timeout: TIMEOUT_MS });
    const labels = (await page.getAttribute('#swimlane', 'data-lane-labels')).split(',');
    assert.ok(labels.includes(laneName.get(longest.tid)), `lane ${laneName.get(longest.tid)} is drawn: ${labels}`);
    // Find the bar through the search box, then click where the automation API says it is.
    await page.fill('#swimlane-search', taskText);
    await page.press('#swimlane-search', 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('#search-results .search-hit').length > 0, null, { timeout: TIMEOUT_MS });
    const track = await page.evaluate((l) => window.__pyptoSwimlane.trackIndex(l), laneName.get(longest.tid));
    const hit = await page.$eval(`#search-results .search-hit[data-track="${track}"]`, (e) => Number(e.dataset.index));
    await page.keyboard.press('Escape');
    const r = await page.evaluate(([t, i]) => window.__pyptoSwimlane.barRect(t, i), [track, hit]);
    await page.mouse.click(r.x + Math.min(r.w / 2, 40), r.y + r.h / 2);
    await page.waitForFunction((t) => document.querySelector('#task-details .details-title')?.textContent.includes(t), taskText, { timeout: TIMEOUT_MS });
    await page.waitForSelector('#task-details table.details', { timeout: TIMEOUT_MS });
    const rows = Object.fromEntries(
      await page.$$eval('#task-details tr', (trs) => trs.map((tr) => [tr.querySelector('th').textContent, tr.querySelector('td').textContent])),
    );
    assert.equal(rows.Task, taskText, JSON.stringify(rows));
    assert.equal(rows.Function, functionName, JSON.stringify(rows));
    assert.equal(rows['Task ID (raw)'], String(longest.args.taskId));
    void successors; // fan-out is checked by the dependency-arrow test in swimlane.test.mjs
    const exec = Number(rows['Duration (end − start)'].replace(/[^0-9.]/g, ''));
    assert.ok(Math.abs(exec - longest.args['kernel-duration-us']) < 0.001, `exec ${exec} vs reference ${longest.args['kernel-duration-us']}`);
    await screenshot(page, 'swimlane-details');
  });
});
