// More Chip Swimlane e2e tests: area selection (range statistics), a multi-rank timeline (one
// group per rank and view), and collapsing a group. Expected numbers come from the fixtures'
// merged_swimlane.json; geometry from `window.__pyptoSwimlane`.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  DEMO_RUNTIME_FIXTURE,
  SMALL_RUNTIME_FIXTURE,
  TIMEOUT_MS,
  datasetSel,
  filesOf,
  isViewerRuntimeFile,
  serveDistAndLaunch,
  loadVia,
  openApp,
  screenshot,
  seedOpfs,
  stubDirectoryPicker,
  summaryOf,
  withPage,
} from './helpers.mjs';

const GUTTER = 150; // layout::GUTTER_WIDTH_PX
const HEADER = 42; // layout::HEADER_HEIGHT_PX (overview + axis)
const GROUP_H = 22; // layout::GROUP_HEIGHT_PX
const BAR_TOP_PAD = 3; // layout::BAR_TOP_PAD_PX

function readTrace(dir) {
  const t = JSON.parse(fs.readFileSync(path.join(dir, 'merged_swimlane.json'), 'utf8'));
  return Array.isArray(t) ? t : t.traceEvents;
}

/** Worker View X events of a capture as { lane, name, start, end } (start = kernel start, without setup). */
function workerEvents(dir) {
  const merged = readTrace(dir);
  const procName = new Map(merged.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => [e.pid, e.args.name]));
  const threadName = new Map(merged.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
  const pid = [...procName].find(([, n]) => n === 'Worker View')[0];
  return merged
    .filter((e) => e.ph === 'X' && e.pid === pid)
    .map((e) => {
      const end = e.ts + e.dur;
      const kernel = e.args?.['kernel-duration-us'];
      return {
        lane: threadName.get(`${e.pid}:${e.tid}`),
        name: e.name.includes('(') ? e.name.slice(0, e.name.indexOf('(')) : e.name,
        setup: e.ts,
        start: kernel !== undefined ? end - kernel : e.ts,
        end,
      };
    });
}

const env = serveDistAndLaunch();

async function openDemoSwimlane(page) {
  await openApp(page, `${env.server.url}/`);
  await loadVia(page, () => page.click('#open-demo'));
  const sel = datasetSel('runtime', 'paged_attention/dfx_outputs');
  await summaryOf(page, sel);
  await page.click(sel);
  await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0 && window.__pyptoSwimlane?.groups(), null, { timeout: TIMEOUT_MS });
}

const apiOf = (page) => (fn, ...args) => page.evaluate(([fn, args]) => window.__pyptoSwimlane[fn](...args), [fn, args]);

test('Shift+drag over the Worker View shows range statistics matching the fixture', { timeout: 120_000 }, async () => {
  await withPage(env.browser, 'swimlane-area', async ({ page }) => {
    await openDemoSwimlane(page);
    const api = apiOf(page);
    const box = await page.locator('#swimlane').boundingBox();
    const { groups } = await api('groups');
    const wg = groups.find((g) => g.view === 'Worker View');
    assert.ok(wg, JSON.stringify(groups.map((g) => g.view)));
    await api('scrollToTrack', wg.tracks[0].index);
    // Laid-out Worker View tracks with bars, in layout order, with their screen tops.
    const laid = [];
    for (const t of wg.tracks.filter((t) => t.bars > 0)) {
      const r = await api('barRect', t.index, 0);
      if (r && r.y - BAR_TOP_PAD >= box.y + HEADER && r.y + 20 < box.y + box.height) laid.push({ ...t, top: r.y - BAR_TOP_PAD });
    }
    laid.sort((a, b) => a.top - b.top);
    assert.ok(laid.length >= 4, `enough Worker View lanes on screen: ${JSON.stringify(laid)}`);
    const [ta, tb] = [laid[1], laid[Math.min(4, laid.length - 1)]];
    const [ya, yb] = [ta.top + 11, tb.top + 11];
    // The app takes every laid-out track whose rows overlap [ya, yb]: here lanes ta..tb.
    const selectedLanes = new Set(laid.filter((t) => t.top >= ta.top && t.top <= tb.top).map((t) => t.label));

    // Time of a pixel; choose x's where no bar edge is within 3 px so ±1 px doesn't matter.
    const st = await api('state');
    const plotW = box.width - GUTTER;
    const usPerPx = (st.t1 - st.t0) / plotW;
    const tOf = (x) => st.t0 + ((x - box.x - GUTTER) / plotW) * (st.t1 - st.t0);
    const events = workerEvents(DEMO_RUNTIME_FIXTURE);
    const edges = events.flatMap((e) => [e.setup, e.start, e.end]);
    const clear = (x) => edges.every((t) => Math.abs(t - tOf(x)) > 3 * usPerPx);
    const pick = (frac) => {
      for (let d = 0; d < 200; d += 1) {
        for (const x of [box.x + GUTTER + plotW * frac + d, box.x + GUTTER + plotW * frac - d]) if (clear(x)) return Math.round(x);
      }
      throw new Error(`no clear x near ${frac}`);
    };
    const [xa, xb] = [pick(0.3), pick(0.55)];
    const [t0, t1] = [tOf(xa), tOf(xb)];
    const expected = {};
    for (const e of events) {
      if (selectedLanes.has(e.lane) && e.start <= t1 && e.end >= t0) expected[e.name] = (expected[e.name] ?? 0) + 1;
    }
    assert.ok(Object.keys(expected).length > 0, 'the range holds Worker View bars');

    await page.keyboard.down('Shift');
    await page.mouse.move(xa, ya);
    await page.mouse.down();
    await page.mouse.move((xa + xb) / 2, (ya + yb) / 2, { steps: 4 });
    await page.mouse.move(xb, yb, { steps: 4 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    await page.waitForSelector('#range-stats tr.range-row', { timeout: TIMEOUT_MS });
    const rows = await page.$$eval('#range-stats tr.range-row', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    const got = Object.fromEntries(rows.map(([name, count]) => [name, Number(count)]));
    assert.deepEqual(got, expected, JSON.stringify({ lanes: [...selectedLanes], t0, t1 }));
    // Each row's total / avg / max agree with its count.
    for (const [, count, total, avg, max] of rows) {
      assert.ok(Math.abs(Number(total) / Number(count) - Number(avg)) < 0.01 && Number(max) <= Number(total) + 0.001, JSON.stringify(rows));
    }
    // The statistics download as CSV: the range, then the same rows.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#range-stats-csv')]);
    assert.equal(download.suggestedFilename(), 'range_statistics.csv');
    const csv = fs.readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    assert.equal(csv[2], 'function,count,total_us,avg_us,max_us');
    assert.deepEqual(csv.slice(3).map((l) => l.split(',').slice(0, 2)), rows.map(([name, count]) => [name, count]));
    await screenshot(page, 'swimlane-area-stats');
  });
});

test('a multi-rank heading opens one timeline with one group per rank and view', { timeout: 120_000 }, async () => {
  await withPage(env.browser, 'swimlane-multi-rank', async ({ page }) => {
    await stubDirectoryPicker(page);
    await openApp(page, `${env.server.url}/`);
    const ranks = ['case/dfx_outputs/rank0/d0', 'case/dfx_outputs/rank1/d0'];
    await seedOpfs(page, Object.assign({}, ...ranks.map((r) => filesOf(SMALL_RUNTIME_FIXTURE, r, isViewerRuntimeFile))));
    await loadVia(page, () => page.click('#open-folder'));
    for (const r of ranks) await summaryOf(page, datasetSel('runtime', r));
    const api = apiOf(page);

    // One capture alone.
    await page.click(datasetSel('runtime', ranks[0]));
    await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0 && window.__pyptoSwimlane?.groups(), null, { timeout: TIMEOUT_MS });
    const singleBars = Number(await page.getAttribute('#swimlane', 'data-bars'));
    const single = await api('groups');
    const singleTimeline = (await api('state')).timelineId;
    const mergedX = readTrace(SMALL_RUNTIME_FIXTURE).filter((e) => e.ph === 'X').length;
    assert.equal(singleBars, mergedX, 'single capture: one bar per reference event');

    // Both ranks in one timeline.
    await page.click('#datasets .group-heading');
    await page.waitForFunction((id) => {
      const st = window.__pyptoSwimlane?.state();
      return st && st.timelineId !== id && window.__pyptoSwimlane.groups()?.groups.length > 0;
    }, singleTimeline, { timeout: TIMEOUT_MS });
    const { groups } = await api('groups');
    assert.equal(groups.length, 2 * single.groups.length, JSON.stringify(groups.map((g) => g.label)));
    assert.equal(new Set(groups.map((g) => g.dataset)).size, 2, 'two datasets');
    for (const r of ranks) {
      const mine = groups.filter((g) => g.label.includes(r));
      assert.deepEqual(new Set(mine.map((g) => g.view)), new Set(single.groups.map((g) => g.view)), `${r}: one group per view (${JSON.stringify(groups.map((g) => g.label))})`);
      assert.equal(mine.length, single.groups.length);
    }
    const bars = Number(await page.getAttribute('#swimlane', 'data-bars'));
    assert.equal(bars, 2 * singleBars);
    assert.equal(groups.reduce((a, g) => a + g.tracks.reduce((b, t) => b + t.bars, 0), 0), 2 * singleBars);
    assert.equal(await page.locator('#datasets .group-heading.selected').count(), 1, 'the heading is marked as open');
    assert.equal(await page.locator('#datasets li.dataset.selected').count(), 0, 'no single dataset card is marked while the group timeline is open');
    await screenshot(page, 'swimlane-multi-rank');
  });
});

test('clicking a group header collapses its tracks; clicking again restores them', { timeout: 120_000 }, async () => {
  await withPage(env.browser, 'swimlane-collapse', async ({ page }) => {
    await openDemoSwimlane(page);
    const api = apiOf(page);
    const box = await page.locator('#swimlane').boundingBox();
    const { groups } = await api('groups');
    const [first, second] = groups;
    await api('scrollToTrack', first.tracks[0].index); // scroll 0: the first group's header is at the top
    const withBars = (g) => g.tracks.filter((t) => t.bars > 0);
    const rectsOf = (g) => Promise.all(withBars(g).map((t) => api('barRect', t.index, 0)));
    const before = await rectsOf(first);
    assert.ok(before.every(Boolean), 'the first group is laid out');
    const top = Math.min(...before.map((r) => r.y - BAR_TOP_PAD));
    assert.ok(Math.abs(top - (box.y + HEADER + GROUP_H)) < 1, `first track right under the group header (${top} vs ${box.y + HEADER + GROUP_H})`);
    const nextBefore = await api('barRect', withBars(second)[0].index, 0);

    const header = { x: box.x + 40, y: box.y + HEADER + GROUP_H / 2 };
    await page.mouse.click(header.x, header.y);
    const collapsed = await rectsOf(first);
    assert.ok(collapsed.every((r) => r === null), `collapsed tracks have no rectangle: ${JSON.stringify(collapsed)}`);
    const nextCollapsed = await api('barRect', withBars(second)[0].index, 0);
    assert.ok(nextCollapsed && nextCollapsed.y < nextBefore.y, `the next group moved up: ${nextBefore.y} → ${nextCollapsed?.y}`);
    assert.equal((await api('groups')).groups.length, groups.length, 'the group itself stays');
    await screenshot(page, 'swimlane-collapsed');

    await page.mouse.click(header.x, header.y);
    const restored = await rectsOf(first);
    assert.deepEqual(restored, before);
    assert.deepEqual(await api('barRect', withBars(second)[0].index, 0), nextBefore);
  });
});
