// Folder shapes and ways in: a multi-rank tree grouped under its parent, and files dropped on
// the page.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import {
  DEMO_RUNTIME_FIXTURE,
  SMALL_RUNTIME_FIXTURE,
  datasetSel,
  datasets,
  filesOf,
  isViewerRuntimeFile,
  serveDistAndLaunch,
  loadVia,
  openApp,
  runtimeFacts,
  screenshot,
  seedOpfs,
  stubDirectoryPicker,
  summaryOf,
  withPage,
} from './helpers.mjs';

const env = serveDistAndLaunch();

test('a multi-rank tree (dfx_outputs/rank<N>/d<K>/) lists one dataset per device, grouped under dfx_outputs', { timeout: 120_000 }, async () => {
  await withPage(env.browser, 'multi-rank', async ({ page }) => {
    await stubDirectoryPicker(page);
    await openApp(page, `${env.server.url}/`);
    await seedOpfs(page, {
      ...filesOf(SMALL_RUNTIME_FIXTURE, 'case/dfx_outputs/rank0/d0', isViewerRuntimeFile),
      ...filesOf(SMALL_RUNTIME_FIXTURE, 'case/dfx_outputs/rank1/d0', isViewerRuntimeFile),
    });
    await loadVia(page, () => page.click('#open-folder'));
    const facts = runtimeFacts(SMALL_RUNTIME_FIXTURE);
    for (const rank of ['rank0', 'rank1']) {
      const summary = await summaryOf(page, datasetSel('runtime', `case/dfx_outputs/${rank}/d0`));
      assert.equal(Number(summary.tasks), facts.tasks, `${rank} task count`);
    }
    const headings = await page.$$eval('#datasets .group-heading', (els) => els.map((e) => e.textContent));
    assert.deepEqual(headings, ['case/dfx_outputs'], 'both ranks sit under one group heading');
    await screenshot(page, 'multi-rank');
  });
});

test('files dropped on the page are opened (no entry API: the plain file list)', { timeout: 120_000 }, async () => {
  await withPage(env.browser, 'drop', async ({ page }) => {
    await openApp(page, `${env.server.url}/`);
    await loadVia(page, () =>
      page.evaluate(async () => {
        const transfer = new DataTransfer();
        for (const name of ['chip_swimlane_records.json', 'deps.json']) {
          const blob = await (await fetch(`./demo/paged_attention/dfx_outputs/${name}`)).blob();
          transfer.items.add(new File([blob], name));
        }
        const target = document.querySelector('.app');
        target.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
        target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }),
    );
    const all = await datasets(page);
    assert.equal(all.length, 1, `one dataset from the dropped files: ${JSON.stringify(all)}`);
    const summary = await summaryOf(page, 'li.dataset[data-kind="runtime"]');
    const facts = runtimeFacts(DEMO_RUNTIME_FIXTURE);
    assert.equal(Number(summary.tasks), facts.tasks);
    assert.equal(Number(summary.depsEdges), facts.deps.edges);
  });
});
