// Cancel of the work after the load (issue 20, item 4): a big graph layout and a big pass diff run
// in a job of the analysis worker, so the progress bar's Cancel stops them mid-way — the job is
// terminated (gone from the browser's worker targets, its memory given back), the view says
// "Layout cancelled" / "Diff cancelled" with a way to start it again, no problem is listed, and
// starting again draws the graph / shows the diff. A generated 150k-task DAG
// (`pypto-viewer gen --dag`) for the layout; a 400k-line snapshot pair for the pass list (each
// pass diffed against the one before) and the pass's diff, in Chinese and the dark theme.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from './server.mjs';
import { passPairLines } from './bench/pass-pair.mjs';
import { DIST, REPO, TIMEOUT_MS, datasetSel, launch, loadVia, openApp, screenshot, seedOpfs, stubDirectoryPicker, summaryOf } from './helpers.mjs';

const DAG_TASKS = 150_000;
const PAIR_LINES = 400_000;

let browser;
let server;
let root;

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cancel-work-'));
  fs.cpSync(DIST, root, { recursive: true });
  const dir = path.join(root, 'data', 'dag');
  const cli = (...args) => spawnSync('cargo', ['run', '--release', '-q', '-p', 'pypto-cli', '--bin', 'pypto-viewer', '--', ...args], { cwd: REPO, encoding: 'utf8' });
  const gen = cli('gen', dir, '--dag', '--tasks', String(DAG_TASKS), '--name-map');
  assert.equal(gen.status, 0, `gen --dag failed: ${gen.stderr}`);
  const man = cli('manifest', dir);
  assert.equal(man.status, 0, `manifest failed: ${man.stderr}`);
  server = await serve(root, 0);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** The page's pypto-worker targets (the analysis worker, and a job while one runs). */
async function workerCount(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    return (await cdp.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'worker' && /pypto-worker/.test(t.url)).length;
  } finally {
    await cdp.detach();
  }
}

async function waitWorkers(page, n, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  let seen = await workerCount(page);
  while (seen !== n && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    seen = await workerCount(page);
  }
  return seen;
}

/** Collects page errors and console errors. */
function errorsOf(page) {
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`);
  });
  return errors;
}

test('Cancel stops a big graph layout (its job terminated); "Lay out again" draws it', { timeout: 300_000 }, async () => {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await ctx.newPage();
  const errors = errorsOf(page);
  try {
    await openApp(page, `${server.url}/?src=${encodeURIComponent('data/dag/')}`);
    await page.waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: 120_000 });
    assert.equal(await waitWorkers(page, 1), 1, 'only the analysis worker once loaded');
    await page.click('#datasets li.dataset[data-kind="runtime"]', { position: { x: 40, y: 14 } });
    await page.click('[data-testid="view-switch-dep-graph"]');
    // The bar shows the layout (with its Cancel) as soon as its job starts.
    await page.waitForFunction(() => document.querySelector('[data-testid="load-progress"]')?.dataset.stage === 'layout', null, { timeout: 120_000, polling: 20 });
    const text = await page.locator('[data-testid="load-progress"]').textContent();
    assert.match(text, /Laying out the graph: (building the graph|starting|breaking cycles|layering|splitting long edges|reducing crossings|placing nodes|routing edges)/, `the layout's phase in words: ${text}`);
    // The graph is built first in the analysis worker (a step at a time), then laid out in a job.
    await page.waitForFunction(() => !/building the graph/.test(document.querySelector('[data-testid="load-progress"]')?.textContent ?? ''), null, { timeout: 120_000, polling: 20 });
    assert.equal(await waitWorkers(page, 2), 2, 'the analysis worker and the layout job');
    await screenshot(page, 'cancel-layout-progress');
    await page.click('[data-testid="cancel-load"]');
    await page.waitForSelector('[data-testid="dep-cancelled"]', { timeout: 30_000 });
    await page.waitForSelector('[data-testid="load-progress"]', { state: 'detached', timeout: 10_000 });
    assert.equal(await waitWorkers(page, 1), 1, 'the layout job is terminated; the analysis worker stays');
    assert.equal(await page.locator('[data-testid="dep-loading"]').count(), 0, 'no longer "laying out"');
    assert.ok(!(Number(await page.getAttribute('#dep-graph', 'data-nodes')) > 0), 'no graph drawn from the stopped layout');
    assert.equal(await page.locator('#errors li').count(), 0, 'a cancel is no problem to list');
    assert.match(await page.locator('[data-testid="dep-cancelled"]').textContent(), /Layout cancelled\./);
    await screenshot(page, 'cancel-layout-done');

    // Again: the graph is laid out (in a new job) and drawn.
    await page.click('[data-testid="dep-layout-again"]');
    await page.waitForFunction((n) => Number(document.querySelector('#dep-graph')?.dataset.nodes) >= n, DAG_TASKS, { timeout: 180_000, polling: 100 });
    await page.waitForSelector('[data-testid="dep-cancelled"]', { state: 'detached' });
    const layoutMs = Number(await page.getAttribute('#dep-graph', 'data-layout-ms'));
    const warmupMs = Number(await page.getAttribute('#dep-graph', 'data-warmup-ms'));
    console.log(`${DAG_TASKS / 1000}k DAG laid out again in a job: layout ${layoutMs.toFixed(0)} ms, warm-up ${warmupMs.toFixed(0)} ms`);
    assert.ok(layoutMs > 0, 'the job reports its layout time');
    assert.equal(await waitWorkers(page, 1), 1, 'the layout job ended with its answer');
    // Drawn: the first fit shows legible nodes and their edges.
    await page.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.visibleEdges) > 0, null, { timeout: 30_000, polling: 100 });
    await screenshot(page, 'cancel-layout-again');
    assert.deepEqual(errors, [], 'no page error, no console error');
  } finally {
    await ctx.close();
  }
});

test('Cancel stops a big pass list and a big pass diff (their jobs terminated); starting again shows them — in Chinese, dark', { timeout: 300_000 }, async () => {
  const { before: b, after: a } = passPairLines(PAIR_LINES);
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 800 }, locale: 'zh-CN', colorScheme: 'dark' });
  const page = await ctx.newPage();
  const errors = errorsOf(page);
  try {
    await stubDirectoryPicker(page);
    await openApp(page, `${server.url}/`);
    await seedOpfs(page, {
      'big/passes_dump/00_frontend.py': Buffer.from(`${b.join('\n')}\n`),
      'big/passes_dump/01_after_Big.py': Buffer.from(`${a.join('\n')}\n`),
    }, { chunkBytes: 4 << 20 });
    await loadVia(page, () => page.click('#open-folder'));
    const sel = datasetSel('pass_dump', 'big/passes_dump');
    await summaryOf(page, sel, 'data-passes');
    const stageOf = (stage, what) =>
      page.waitForFunction(([s, w]) => {
        const el = document.querySelector('[data-testid="load-progress"]');
        return el?.dataset.stage === s && el.textContent.includes(w);
      }, [stage, what], { timeout: 120_000, polling: 20 });
    await page.click(sel, { position: { x: 40, y: 14 } });
    // First the pass list: every pass diffed against the one before, in a job (the dump is big).
    await stageOf('diff', 'big/passes_dump');
    assert.match(await page.locator('[data-testid="load-progress"]').textContent(), /正在比较 big\/passes_dump/);
    assert.equal(await waitWorkers(page, 2), 2, 'the analysis worker and the pass-list job');
    await page.click('[data-testid="cancel-load"]');
    await page.waitForSelector('[data-testid="list-cancelled"]', { timeout: 30_000 });
    await page.waitForSelector('[data-testid="load-progress"]', { state: 'detached', timeout: 10_000 });
    assert.equal(await waitWorkers(page, 1), 1, 'the pass-list job is terminated');
    assert.match(await page.locator('[data-testid="list-cancelled"]').textContent(), /已取消列出 Pass/);
    assert.equal(await page.locator('[data-testid="pass-item"]').count(), 0, 'no pass listed from the stopped work');
    assert.equal(await page.locator('#errors li').count(), 0, 'a cancel is no problem to list');
    await screenshot(page, 'cancel-list-zh-dark');
    await page.click('[data-testid="list-again"]');
    // Then the first pass's diff, in a job too.
    await stageOf('diff', '01_after_Big.py');
    const text = await page.locator('[data-testid="load-progress"]').textContent();
    assert.match(text, /正在比较 01_after_Big\.py/, `the diff being computed, in Chinese: ${text}`);
    assert.equal(await page.locator('[data-testid="pass-item"]').count(), 1, 'listed again');
    assert.equal(await waitWorkers(page, 2), 2, 'the analysis worker and the diff job');
    await page.click('[data-testid="cancel-load"]');
    await page.waitForSelector('[data-testid="diff-cancelled"]', { timeout: 30_000 });
    await page.waitForSelector('[data-testid="load-progress"]', { state: 'detached', timeout: 10_000 });
    assert.equal(await waitWorkers(page, 1), 1, 'the diff job is terminated; the analysis worker stays');
    assert.match(await page.locator('[data-testid="diff-cancelled"]').textContent(), /已取消计算差异/);
    assert.equal(await page.locator('.diff-row').count(), 0, 'no diff shown from the stopped work');
    assert.equal(await page.locator('#errors li').count(), 0, 'a cancel is no problem to list');
    await screenshot(page, 'cancel-diff-zh-dark');

    await page.click('[data-testid="diff-again"]');
    await page.waitForFunction(() => document.querySelector('[data-testid=pass-diff]')?.dataset.pass === '0' && document.querySelector('.diff-row'), null, { timeout: TIMEOUT_MS * 2 });
    const d = await page.$eval('[data-testid=pass-diff]', (e) => ({ ...e.dataset }));
    assert.equal(Number(d.added), PAIR_LINES / 5000, 'every changed line found');
    assert.equal(Number(d.removed), PAIR_LINES / 5000);
    assert.equal(await page.locator('[data-testid="diff-cancelled"]').count(), 0);
    assert.equal(await waitWorkers(page, 1), 1, 'the diff job ended with its answer');
    await screenshot(page, 'cancel-diff-again-zh-dark');
    assert.deepEqual(errors, [], 'no page error, no console error');
  } finally {
    await ctx.close();
  }
});
