// Runtime → compiler navigation (issue 18 items 1, 2): the swimlane's "IR Pass Trace" and
// "Memory Map" buttons open the pass dump of the capture's case — discovery links it (same
// directory, parent, beside dfx_outputs; the newest first, the others in a list) — and with a
// task selected, its kernel's IR function by pypto_vocab::kernel_function's rule (the demo's
// QK / SF abbreviate kernel_qk_matmul / kernel_softmax_prepare). A memory-map tile opens the
// pass trace at the line that defines it. On the demo and on a build_output/<case>_<ts>/ tree.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEMO_PASSES_FIXTURE,
  DEMO_RUNTIME_FIXTURE,
  FIXTURES,
  SMALL_RUNTIME_FIXTURE,
  TIMEOUT_MS,
  datasetSel,
  filesOf,
  isViewerRuntimeFile,
  loadVia,
  openApp,
  screenshot,
  seedOpfs,
  serveDistAndLaunch,
  stubDirectoryPicker,
  summaryOf,
  withPage,
} from './helpers.mjs';
import path from 'node:path';

const env = serveDistAndLaunch();

async function swimlaneReady(page) {
  await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0 && window.__pyptoSwimlane?.groups(), null, {
    timeout: TIMEOUT_MS,
  });
}

/** Selects the first bar the search finds for `name` and waits for the buttons to name its kernel. */
async function selectKernel(page, name) {
  await page.fill('#swimlane-search', name);
  await page.press('#swimlane-search', 'Enter');
  await page.waitForFunction((k) => document.querySelector('#swim-open-pass-trace')?.dataset.kernel === k, name, { timeout: TIMEOUT_MS });
}

const waitData = (page, testid, key, value) =>
  page.waitForFunction(([t, k, v]) => document.querySelector(`[data-testid=${t}]`)?.dataset[k] === v, [testid, key, value], {
    timeout: TIMEOUT_MS,
  });

test('demo: a selected QK task opens kernel_qk_matmul in the pass trace, SF its memory map; a tile opens its defining line', async () => {
  await withPage(env.browser, 'compiler-links-demo', async ({ page }) => {
    await openApp(page, `${env.server.url}/`);
    await loadVia(page, () => page.click('#open-demo'));
    await swimlaneReady(page);
    // discovery linked the case's dump, and the sidebar says so
    assert.equal(await page.getAttribute('#swim-open-pass-trace', 'data-dump'), 'paged_attention/passes_dump');
    assert.equal(await page.$eval('#swim-open-pass-trace', (b) => b.disabled), false);
    assert.equal(await page.$eval('#swim-open-memory-map', (b) => b.disabled), false);
    assert.match(await page.textContent(datasetSel('runtime', 'paged_attention/dfx_outputs')), /pass dump of this case: paged_attention\/passes_dump/);
    assert.equal(await page.$('#swim-pass-dump'), null, 'one dump: no list');

    await selectKernel(page, 'QK');
    assert.match(await page.getAttribute('#swim-open-pass-trace', 'title'), /kernel QK/);
    await screenshot(page, 'compiler-links-swimlane-buttons');
    await page.click('#swim-open-pass-trace');
    await waitData(page, 'pass-diff', 'function', 'PagedAttentionProgram.kernel_qk_matmul');
    const note = await page.$eval('[data-testid=compiler-note]', (e) => ({ ...e.dataset, text: e.textContent }));
    assert.equal(note.outcome, 'one');
    assert.equal(note.rule, 'words');
    assert.match(note.text, /kernel QK .*paged_attention\/dfx_outputs.*paged_attention\/passes_dump/);
    assert.equal(await page.$eval('[data-testid=pass-function]', (e) => e.value), 'PagedAttentionProgram.kernel_qk_matmul');
    await screenshot(page, 'compiler-links-pass-trace-of-kernel');

    // back to the run, SF → its memory map
    await page.click(datasetSel('runtime', 'paged_attention/dfx_outputs'), { position: { x: 40, y: 14 } });
    await swimlaneReady(page);
    await selectKernel(page, 'SF');
    await page.click('#swim-open-memory-map');
    await waitData(page, 'mm-map', 'function', 'kernel_softmax_prepare');
    const mmNote = await page.$eval('[data-testid=compiler-note]', (e) => ({ ...e.dataset }));
    assert.equal(mmNote.outcome, 'one');
    assert.equal(mmNote.rule, 'abbreviation');
    await screenshot(page, 'compiler-links-memory-map-of-kernel');

    // a tile → the pass trace at its defining line
    const h = await page.evaluate(() => window.__pyptoMemoryMap());
    const b = h.boxes[0];
    await page.mouse.click(b.x + b.w / 2, b.y + Math.min(b.h / 2, 10));
    const table = await page.waitForSelector('[data-testid=mm-details-table]', { timeout: TIMEOUT_MS });
    const tile = await table.getAttribute('data-name');
    const defined = await page.$eval('[data-testid=mm-detail-defined] button[data-line]', (e) => Number(e.dataset.line));
    await page.click('[data-testid=mm-show-in-trace]');
    await waitData(page, 'pass-diff', 'function', 'PagedAttentionProgram.kernel_softmax_prepare');
    await page.waitForFunction(() => document.querySelector('[data-testid=pass-diff]')?.dataset.pass !== undefined, null, { timeout: TIMEOUT_MS });
    assert.equal(await page.$eval('[data-testid=pass-item][data-selected=true]', (e) => e.dataset.name), 'AllocateMemoryAddr');
    const jumped = await page.waitForSelector('.diff-row.diff-jump', { timeout: TIMEOUT_MS });
    assert.equal(Number(await jumped.getAttribute('data-line')), defined);
    const code = await jumped.textContent();
    assert.ok(code.includes(tile.replace(/__.*$/, '')), `line ${defined} defines ${tile}: ${code}`);
    assert.equal(await page.getAttribute('[data-testid=compiler-note]', 'data-rule'), 'exact');
    await screenshot(page, 'compiler-links-tile-defining-line');
    // the pass trace's "▦ map" stays
    assert.ok(await page.$('[data-testid=pass-memory-map]'));
  });
});

test('build_output/<case>_<ts>/{dfx_outputs,passes_dump*}: the newest dump first, the others offered; no dump: the buttons say why', async () => {
  const files = {};
  const caseDir = 'build_output/paged_attention_20260101_120000';
  Object.assign(files, filesOf(DEMO_RUNTIME_FIXTURE, `${caseDir}/dfx_outputs`, isViewerRuntimeFile));
  Object.assign(files, filesOf(path.join(DEMO_PASSES_FIXTURE, 'passes_dump'), `${caseDir}/passes_dump`));
  // a newer dump of another program beside it: chosen first, its functions match nothing
  const softmax = path.join(FIXTURES, 'passes', 'generated-tile_softmax', '_jit_tile_softmax_20261129_165255', 'passes_dump');
  Object.assign(files, filesOf(softmax, `${caseDir}/passes_dump_20990101_000000`));
  // a case without a dump
  Object.assign(files, filesOf(SMALL_RUNTIME_FIXTURE, 'build_output/other_20260102_000000/dfx_outputs', isViewerRuntimeFile));
  await withPage(env.browser, 'compiler-links-tree', async ({ page }) => {
    await stubDirectoryPicker(page);
    await openApp(page, `${env.server.url}/`);
    await seedOpfs(page, files);
    await loadVia(page, () => page.click('#open-folder'));
    const run = datasetSel('runtime', `${caseDir}/dfx_outputs`);
    await summaryOf(page, run);
    await page.click(run, { position: { x: 40, y: 14 } });
    await swimlaneReady(page);
    assert.equal(await page.getAttribute('#swim-open-pass-trace', 'data-dump'), `${caseDir}/passes_dump_20990101_000000`);
    const options = await page.$$eval('#swim-pass-dump option', (os) => os.map((o) => o.textContent));
    assert.deepEqual(options, [`${caseDir}/passes_dump_20990101_000000 (newest)`, `${caseDir}/passes_dump`]);
    assert.match(await page.textContent(run), /2 pass dumps of this case; using the newest/);
    await selectKernel(page, 'QK');
    await page.click('#swim-open-pass-trace');
    await waitData(page, 'compiler-note', 'outcome', 'none');
    assert.match(await page.textContent('[data-testid=compiler-note]'), /No IR function of this pass dump matches kernel QK/);
    assert.equal(await page.getAttribute('[data-testid=pass-diff]', 'data-function'), '');
    await screenshot(page, 'compiler-links-no-match');
    // the other dump, chosen in the list
    await page.click(run, { position: { x: 40, y: 14 } });
    await swimlaneReady(page);
    await page.selectOption('#swim-pass-dump', '1');
    assert.equal(await page.getAttribute('#swim-open-pass-trace', 'data-dump'), `${caseDir}/passes_dump`);
    await selectKernel(page, 'PV');
    await page.click('#swim-open-pass-trace');
    await waitData(page, 'pass-diff', 'function', 'PagedAttentionProgram.kernel_pv_matmul');
    assert.match(await page.textContent('[data-testid=compiler-note]'), /chosen of 2/);
    // the case without a dump
    const other = datasetSel('runtime', 'build_output/other_20260102_000000/dfx_outputs');
    await page.click(other, { position: { x: 40, y: 14 } });
    await swimlaneReady(page);
    assert.equal(await page.$eval('#swim-open-pass-trace', (b) => b.disabled), true);
    assert.equal(await page.$eval('#swim-open-memory-map', (b) => b.disabled), true);
    assert.match(await page.getAttribute('#swim-open-pass-trace', 'title'), /No pass dump found for build_output\/other_20260102_000000\/dfx_outputs/);
  });
});

test('the landing page says what each file enables', async () => {
  await withPage(env.browser, 'welcome-files', async ({ page }) => {
    await openApp(page, `${env.server.url}/`);
    const rows = await page.$$eval('[data-testid=welcome-files] tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    const enables = (file) => rows.find(([f]) => f.startsWith(file))?.[1] ?? '';
    assert.match(enables('chip_swimlane_records.json'), /Chip Swimlane/);
    assert.match(enables('deps.json'), /Task Dependency Graph on its own/);
    assert.match(enables('name_map'), /Function Performance/);
    assert.match(enables('CPM_static'), /critical-path/);
    assert.match(enables('*strace-swimlane*'), /Serving STRACE swimlane/);
    assert.match(enables('passes_dump*/ '), /IR Pass Trace/);
    assert.match(enables('passes_dump*/*after_AllocateMemoryAddr.py'), /Memory Reuse map/);
    await screenshot(page, 'welcome-files');
  });
});
