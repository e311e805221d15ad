// Several datasets on one time axis (issue 19 items 5 and 7): a multi-rank tree generated with
// `pypto-viewer gen --ranks 2 --clock-anchors --host-offsets-us 0,1500` opens from its sidebar
// heading aligned by clock anchors, rank1's bars sitting 1500 µs after where its own timeline
// draws them; the chooser re-aligns at first dispatch, at the selected task and not at all, the
// link keeps the choice, and a tree without anchors says it is aligned at first dispatch.
// Geometry and times from `window.__pyptoSwimlane` (`groups`, `barTimes`, `alignment`).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import {
  REPO,
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

const env = serveDistAndLaunch();
const RANKS = ['case/dfx_outputs/rank0/d0', 'case/dfx_outputs/rank1/d0'];
const OFFSETS_US = [0, 1500];
const GUTTER = 150; // layout::GUTTER_WIDTH_PX

const cli = (...args) => spawnSync('cargo', ['run', '--release', '-q', '-p', 'pypto-cli', '--bin', 'pypto-viewer', '--', ...args], { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20 });

/** A generated two-rank tree with clock anchors at the known host offsets (its root). */
function generatedTree() {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'pypto-e2e-multirank-'));
  const r = cli('gen', out, '--ranks', '2', '--clock-anchors', '--host-offsets-us', OFFSETS_US.join(','), '--tasks', '150', '--name-map');
  assert.equal(r.status, 0, r.stderr);
  return out;
}

const api = (page) => (name, ...args) => page.evaluate(({ name, args }) => window.__pyptoSwimlane[name](...args), { name, args });

/** Waits for a timeline other than `previousId` to be shown; returns its id. */
async function nextTimeline(page, previousId) {
  await page.waitForFunction((id) => {
    const st = window.__pyptoSwimlane?.state();
    return st && st.timelineId != null && st.timelineId !== id && window.__pyptoSwimlane.groups()?.groups.length > 0;
  }, previousId ?? null, { timeout: TIMEOUT_MS });
  return (await api(page)('state')).timelineId;
}

/** The first Worker View track of `dataset` (its index and label). */
function firstWorkerTrack(groups, dataset) {
  const g = groups.find((x) => x.dataset === dataset && x.view === 'Worker View' && x.tracks.some((t) => t.bars > 0));
  assert.ok(g, `a Worker View group of dataset ${dataset}: ${JSON.stringify(groups.map((x) => [x.dataset, x.view]))}`);
  return g.tracks.find((t) => t.bars > 0);
}

/** The track of `dataset`'s Worker View labelled `label`. */
function workerTrack(groups, dataset, label) {
  const g = groups.find((x) => x.dataset === dataset && x.view === 'Worker View');
  return g?.tracks.find((t) => t.label === label);
}

/** Pins `tracks` (gutter clicks on their rows), then scrolls to `scrollTo`: rank1's lanes above rank0's. */
async function pinTracks(page, tracks, scrollTo) {
  const call = api(page);
  const box = await page.locator('#swimlane').boundingBox();
  for (const t of tracks) {
    await call('scrollToTrack', t);
    const r = await call('barRect', t, 0);
    await page.mouse.click(box.x + GUTTER - 10, r.y + 2);
  }
  await page.waitForFunction((n) => window.__pyptoSwimlane.state().pinned.length === n, tracks.length, { timeout: 5000 });
  await call('scrollToTrack', scrollTo);
}

async function openTree(page, root) {
  await stubDirectoryPicker(page);
  await openApp(page, `${env.server.url}/`);
  await seedOpfs(page, filesOf(root, 'case', isViewerRuntimeFile));
  await loadVia(page, () => page.click('#open-folder'));
  for (const r of RANKS) await summaryOf(page, datasetSel('runtime', r));
}

const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

test('ranks with clock anchors share the host clock; the chooser re-aligns; the link keeps it', { timeout: 300_000 }, async () => {
  const root = generatedTree();
  await withPage(env.browser, 'multirank-anchors', async ({ page }) => {
    await openTree(page, root);
    const call = api(page);

    // Each rank alone: its own axis, not shifted, no label.
    const own = [];
    let id = null;
    for (const r of RANKS) {
      await page.click(datasetSel('runtime', r));
      id = await nextTimeline(page, id);
      const { groups } = await call('groups');
      const dataset = groups[0].dataset;
      const track = firstWorkerTrack(groups, dataset);
      own.push({ dataset, label: track.label, times: await call('barTimes', track.index, 0) });
      assert.equal(await page.getAttribute('#swimlane', 'data-alignment'), '', 'one dataset: no alignment label');
      assert.equal(await page.locator('#align-mode').count(), 0, 'no chooser for one dataset');
    }

    // Both ranks from the heading: aligned by clock anchors, rank i shifted by its host offset.
    await page.click('#datasets .group-heading');
    id = await nextTimeline(page, id);
    assert.match(await page.getAttribute('#swimlane', 'data-alignment'), /^aligned by clock anchors \(host CLOCK_MONOTONIC\)$/);
    assert.equal(await page.getAttribute('#swimlane', 'data-alignment-offsets-us'), OFFSETS_US.map((o) => o.toFixed(3)).join(','));
    assert.equal(await page.inputValue('#align-mode'), 'auto');
    assert.match(await page.textContent('#alignment-label'), /clock anchors/);
    const alignment = await call('alignment');
    assert.deepEqual(alignment.datasets.map((d) => [d.dataset, d.offsetUs, d.alignedBy]), own.map((o, i) => [o.dataset, OFFSETS_US[i], 'anchors']));
    let { groups } = await call('groups');
    for (const [i, o] of own.entries()) {
      const track = workerTrack(groups, o.dataset, o.label);
      const t = await call('barTimes', track.index, 0);
      near(t.start, o.times.start + OFFSETS_US[i], `rank${i} ${o.label} start`);
      near(t.end, o.times.end + OFFSETS_US[i], `rank${i} ${o.label} end`);
    }
    // A picture of both: rank1's first Worker View lanes pinned above rank0's.
    const rank1Worker = groups.find((g) => g.dataset === own[1].dataset && g.view === 'Worker View').tracks.filter((t) => t.bars > 0);
    await pinTracks(page, rank1Worker.slice(0, 6).map((t) => t.index), workerTrack(groups, own[0].dataset, own[0].label).index);
    await screenshot(page, 'multirank-anchors');

    // At first dispatch: every rank's offset is minus its first dispatch; the link says so.
    await page.selectOption('#align-mode', 'first');
    id = await nextTimeline(page, id);
    assert.match(await page.getAttribute('#swimlane', 'data-alignment'), /^aligned at first dispatch$/);
    const first = await call('alignment');
    assert.ok(first.datasets.every((d) => d.alignedBy === 'first' && d.offsetUs < 0), JSON.stringify(first));
    ({ groups } = await call('groups'));
    for (const [i, o] of own.entries()) {
      const track = workerTrack(groups, o.dataset, o.label);
      const t = await call('barTimes', track.index, 0);
      near(t.start, o.times.start + first.datasets[i].offsetUs, `rank${i} at first dispatch`);
    }
    await page.waitForFunction(() => location.hash.includes('align=first'), null, { timeout: 5000 });
    await screenshot(page, 'multirank-first-dispatch');

    // At the selected task: search rank1's first bar's task, select it, align at it.
    await page.selectOption('#label-mode', 'id');
    const label = await call('barLabel', workerTrack(groups, own[1].dataset, own[1].label).index, 0);
    const task = label.match(/(r\d+t\d+)/)?.[1];
    assert.ok(task, `a task id in ${label}`);
    await page.fill('#swimlane-search', task);
    await page.press('#swimlane-search', 'Enter');
    await page.waitForSelector('#task-details [data-complete="true"]', { timeout: TIMEOUT_MS });
    assert.match(await page.textContent('#task-details'), /Timeline shift/, 'a shifted dataset\'s bar says so');
    await page.selectOption('#align-mode', 'task');
    id = await nextTimeline(page, id);
    assert.match(await page.getAttribute('#swimlane', 'data-alignment'), new RegExp(`^aligned at task ${task}`));
    await page.waitForFunction(() => location.hash.includes('align=task'), null, { timeout: 5000 });
    // The task's earliest Worker View start in rank1 is at 0.
    await page.fill('#swimlane-search', task);
    await page.press('#swimlane-search', 'Enter');
    await page.waitForSelector('.search-hit', { timeout: TIMEOUT_MS });
    ({ groups } = await call('groups'));
    const rank1Tracks = new Set(groups.filter((g) => g.dataset === own[1].dataset).flatMap((g) => g.tracks.map((t) => t.index)));
    const hits = await page.$$eval('.search-hit', (els) => els.map((e) => [Number(e.dataset.track), Number(e.dataset.index)]));
    const starts = [];
    for (const [track, index] of hits.filter(([track]) => rank1Tracks.has(track))) starts.push((await call('barTimes', track, index)).start);
    assert.ok(starts.length > 0, `hits of ${task} in rank1`);
    near(Math.min(...starts), 0, `${task}'s first start in rank1`);
    await screenshot(page, 'multirank-task');

    // Not aligned, and the link reproduces it after a reload.
    await page.selectOption('#align-mode', 'none');
    id = await nextTimeline(page, id);
    assert.match(await page.getAttribute('#swimlane', 'data-alignment'), /^not aligned/);
    assert.equal(await page.getAttribute('#swimlane', 'data-alignment-offsets-us'), '0.000,0.000');
    await page.waitForFunction(() => location.hash.includes('align=none'), null, { timeout: 5000 });
    const link = page.url();
    await openApp(page, link);
    await loadVia(page, () => page.click('#open-folder'));
    await nextTimeline(page, null);
    await page.waitForFunction(() => /^not aligned/.test(document.querySelector('#swimlane')?.dataset.alignment ?? ''), null, { timeout: TIMEOUT_MS });
    assert.equal(await page.inputValue('#align-mode'), 'none');

    // The heading opens Auto again.
    await page.click('#datasets .group-heading');
    await page.waitForFunction(() => /clock anchors/.test(document.querySelector('#swimlane')?.dataset.alignment ?? ''), null, { timeout: TIMEOUT_MS });
    assert.equal(await page.inputValue('#align-mode'), 'auto');
  });
  fs.rmSync(root, { recursive: true, force: true });
});

test('ranks without clock anchors are aligned at first dispatch, and the label says why', { timeout: 120_000 }, async () => {
  await withPage(env.browser, 'multirank-first', async ({ page }) => {
    await stubDirectoryPicker(page);
    await openApp(page, `${env.server.url}/`);
    const mixed = path.join(path.dirname(SMALL_RUNTIME_FIXTURE), 'a2a3sim-L4-TestChipSwimlaneMixed_default');
    await seedOpfs(page, { ...filesOf(SMALL_RUNTIME_FIXTURE, RANKS[0], isViewerRuntimeFile), ...filesOf(mixed, RANKS[1], isViewerRuntimeFile) });
    await loadVia(page, () => page.click('#open-folder'));
    for (const r of RANKS) await summaryOf(page, datasetSel('runtime', r));
    await page.click('#datasets .group-heading');
    await nextTimeline(page, null);
    assert.equal(await page.getAttribute('#swimlane', 'data-alignment'), 'aligned at first dispatch: no dataset has calibrated clock anchors');
    const { datasets } = await api(page)('alignment');
    assert.ok(datasets.length === 2 && datasets.every((d) => d.alignedBy === 'first'), JSON.stringify(datasets));
    await screenshot(page, 'multirank-no-anchors');
  });
});
