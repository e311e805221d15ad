// Serving STRACE swimlane and generic Chrome-trace swimlane e2e tests (issue 5 items 3, 4).
// The STRACE file is fixtures/strace/generated-8lanes/serving-strace-swimlane.json, written by
// `pypto-viewer gen <dir> --strace --steps 12` (4 serving workers, 8 device lanes, instants).
// Every expected number is computed here from the trace file itself: lanes and bars per
// (pid, tid), per-worker WorkerProcess.* statistics, device-lane root bars, event arguments.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  DEMO_RUNTIME_FIXTURE,
  FIXTURES,
  TIMEOUT_MS,
  datasetSel,
  loadVia,
  openApp,
  screenshot,
  seedOpfs,
  serveDistAndLaunch,
  stubDirectoryPicker,
  withPage,
} from './helpers.mjs';

const STRACE = path.join(FIXTURES, 'strace', 'generated-8lanes', 'serving-strace-swimlane.json');
const MERGED = path.join(DEMO_RUNTIME_FIXTURE, 'merged_swimlane.json');

const events = (file) => {
  const t = JSON.parse(fs.readFileSync(file, 'utf8'));
  return Array.isArray(t) ? t : t.traceEvents;
};
const drawn = (e) => ['X', 'i', 'I', 'B'].includes(e.ph);
const laneKey = (e) => `${e.pid}:${e.tid ?? ''}`;

/** Lanes (pid:tid → drawn events) and process / thread names of a trace. */
function lanesOf(evs) {
  const lanes = new Map();
  for (const e of evs.filter(drawn)) lanes.set(laneKey(e), (lanes.get(laneKey(e)) ?? 0) + 1);
  const proc = new Map(evs.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => [e.pid, e.args.name]));
  const thread = new Map(evs.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [laneKey(e), e.args.name]));
  return { lanes, proc, thread };
}

function durationStats(durs) {
  return { count: durs.length, avg: durs.reduce((a, b) => a + b, 0) / durs.length, max: Math.max(...durs), min: Math.min(...durs) };
}

const env = serveDistAndLaunch();
const api = (page, fn, ...args) => page.evaluate(([fn, args]) => window.__pyptoSwimlane[fn](...args), [fn, args]);

async function openFolder(page, files) {
  await stubDirectoryPicker(page);
  await openApp(page, `${env.server.url}/`);
  await seedOpfs(page, files);
  await loadVia(page, () => page.click('#open-folder'));
}

async function waitTimeline(page) {
  await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0 && window.__pyptoSwimlane?.groups(), null, { timeout: TIMEOUT_MS });
}

/** Clicks the centre of a bar (scrolling its lane into view first); returns its rect. */
async function clickBar(page, track, index) {
  await api(page, 'scrollToTrack', track);
  const r = await api(page, 'barRect', track, index);
  assert.ok(r, `bar ${track}/${index} is laid out`);
  await page.mouse.click(r.x + Math.min(r.w / 2, 200), r.y + r.h / 2);
  return r;
}

async function details(page) {
  return page.$$eval('#task-details table.details tr', (rows) => Object.fromEntries(rows.map((r) => [r.querySelector('th').textContent, r.querySelector('td').textContent])));
}

test('serving STRACE swimlane: lanes, bars, statistics, details, folding', { timeout: 180_000 }, async () => {
  const evs = events(STRACE);
  const { lanes, proc, thread } = lanesOf(evs);
  await withPage(env.browser, 'strace', async ({ page }) => {
    await page.setViewportSize({ width: 1600, height: 1000 });
    await openFolder(page, { 'run/serving-strace-swimlane.json': STRACE });
    const sel = datasetSel('serving_strace', 'serving-strace-swimlane.json');
    const summary = await (await page.waitForSelector(`${sel} .summary[data-trace-spans]`, { state: 'attached', timeout: TIMEOUT_MS })).evaluate((el) => ({ ...el.dataset }));
    assert.equal(Number(summary.traceSpans), evs.filter((e) => e.ph === 'X').length);
    assert.equal(Number(summary.traceInstants), evs.filter((e) => e.ph === 'i').length);
    // The only dataset: it opens by itself in the STRACE mode.
    await waitTimeline(page);
    await page.waitForSelector('#trace-stats');

    // Lanes and bars against the file.
    const bars = Number(await page.$eval('#swimlane', (el) => el.dataset.bars));
    assert.equal(bars, evs.filter(drawn).length, 'one bar per X span and instant');
    assert.equal(Number(await page.$eval('#swimlane', (el) => el.dataset.lanes)), lanes.size);
    const { groups } = await api(page, 'groups');
    assert.equal(groups.length, proc.size, 'one group per process');
    for (const g of groups) {
      const pid = Number(/pid (\d+)/.exec(g.label)[1]);
      assert.ok(g.label.startsWith(proc.get(pid)), `group label ${g.label} names process ${proc.get(pid)}`);
      for (const t of g.tracks) {
        const key = [...lanes.keys()].find((k) => k.startsWith(`${pid}:`) && thread.get(k) === t.label);
        assert.ok(key, `lane ${t.label} of ${g.label} is a thread of the file`);
        assert.equal(t.bars, lanes.get(key), `bars on ${g.label} / ${t.label}`);
      }
    }
    const strace = groups.find((g) => g.label.startsWith('Simpler host STRACE'));
    assert.deepEqual(strace.tracks.map((t) => t.label), [0, 1, 2, 3, 4, 5, 6, 7].map((d) => `device ${d}`));
    // Chip-only controls are hidden.
    for (const id of ['#dep-depth', '#path-mode', '#label-mode', '#show-setup']) assert.equal(await page.locator(id).count(), 0, `${id} hidden`);
    await screenshot(page, 'strace-swimlane');

    // Per-worker statistics against the file.
    const workers = [...proc].filter(([, n]) => n.startsWith('serving-worker'));
    assert.equal(workers.length, 4);
    for (const [pid, name] of workers) {
      const spans = evs.filter((e) => e.ph === 'X' && e.pid === pid && e.name.startsWith('WorkerProcess.'));
      for (const span of new Set(spans.map((e) => e.name))) {
        const want = durationStats(spans.filter((e) => e.name === span).map((e) => e.dur));
        const row = await page.$eval(`#trace-stats table.workers tr.stat-row[data-scope="${name}"][data-name="${span}"]`, (r) => ({ ...r.dataset }));
        assert.equal(Number(row.count), want.count, `${name} ${span} count`);
        for (const k of ['avg', 'max', 'min']) assert.ok(Math.abs(Number(row[`${k}Us`]) - want[k]) < 1e-3, `${name} ${span} ${k}: ${row[`${k}Us`]} vs ${want[k]}`);
      }
    }
    const first = Math.min(...evs.filter((e) => e.ph !== 'M').map((e) => e.ts));
    const last = Math.max(...evs.filter((e) => e.ph !== 'M').map((e) => e.ts + (e.dur ?? 0)));
    assert.ok(Math.abs(Number(await page.$eval('#trace-stats', (el) => el.dataset.totalUs)) - (last - first)) < 1e-3, 'total duration');
    const stracePid = [...proc].find(([, n]) => n.startsWith('Simpler host STRACE'))[0];
    for (let d = 0; d < 8; d++) {
      const roots = evs.filter((e) => e.ph === 'X' && e.pid === stracePid && e.tid === d && e.name.endsWith('| simpler_run'));
      const row = await page.$eval(`#trace-stats table.devices tr.stat-row[data-scope="device ${d}"][data-name="invocations (root bars)"]`, (r) => ({ ...r.dataset }));
      assert.equal(Number(row.count), roots.length, `device ${d} invocations`);
      assert.ok(Math.abs(Number(row.maxUs) - Math.max(...roots.map((e) => e.dur))) < 1e-3, `device ${d} max`);
    }
    await page.locator('#trace-stats').screenshot({ path: path.join(process.env.SCREENSHOTS ?? path.join(import.meta.dirname, 'artifacts'), 'strace-stats.png') });

    // CSV export of the per-worker table: header, then one line per table row with full names.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#trace-stats button.trace-stats-csv[data-table="workers"]')]);
    assert.equal(download.suggestedFilename(), 'strace-workers.csv');
    const csv = fs.readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    assert.equal(csv[0], 'worker process,span,count,avg_us,max_us,min_us,total_us');
    const tableRows = await page.$$eval('#trace-stats table.workers tr.stat-row', (rs) => rs.map((r) => [r.dataset.scope, r.dataset.name, r.dataset.count, r.dataset.avgUs]));
    assert.equal(csv.length - 1, tableRows.length);
    // RFC 4180 fields: quoted when they hold a comma or quote (quotes doubled).
    const fields = (line) => [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) => (m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]));
    tableRows.forEach((row, i) => assert.deepEqual(fields(csv[i + 1]).slice(0, 4), row, `CSV line ${i + 1}`));

    // Click a device span: its name and its arguments in the details panel.
    const dev3 = strace.tracks.find((t) => t.label === 'device 3').index;
    const runner = evs.filter((e) => e.ph === 'X' && e.pid === stracePid && e.tid === 3 && e.name.endsWith('| runner_run'))[4];
    // Bars of a track are sorted by start: find the index of `runner` among device 3's bars.
    const dev3Bars = evs.filter((e) => drawn(e) && e.pid === stracePid && e.tid === 3).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    const idx = dev3Bars.indexOf(runner);
    await clickBar(page, dev3, idx);
    await page.waitForFunction((name) => document.querySelector('#task-details .details-title')?.textContent === name, runner.name, { timeout: TIMEOUT_MS });
    const f = await details(page);
    assert.equal(f['args.invocation'], String(runner.args.invocation));
    assert.equal(f['args.callable'], runner.args.callable);
    assert.equal(f.Stage, 'runner_run');
    assert.equal(f.Thread, 'device 3');
    assert.ok(Math.abs(parseFloat(f.Duration) - runner.dur) < 1e-3, `duration ${f.Duration} vs ${runner.dur}`);
    await screenshot(page, 'strace-span-details');

    // Click an instant (a thin tick): its arguments too.
    const w0 = workers[0][0];
    const execKey = [...thread].find(([k, n]) => k.startsWith(`${w0}:`) && n === 'executor')[0];
    const execGroup = groups.find((g) => g.label.includes(`pid ${w0}`));
    const execTrack = execGroup.tracks.find((t) => t.label === 'executor').index;
    const execBars = evs.filter((e) => drawn(e) && laneKey(e) === execKey).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    const tick = execBars.find((e) => e.ph === 'i');
    await clickBar(page, execTrack, execBars.indexOf(tick));
    await page.waitForFunction(() => document.querySelector('#task-details .details-title')?.textContent === 'worker.step_done', null, { timeout: TIMEOUT_MS });
    const fi = await details(page);
    assert.equal(fi['args.step_id'], String(tick.args.step_id));
    assert.match(fi.Phase, /instant/);

    // Fold a serving worker's MainThread: one row; its executor lane (child lane) stays.
    await page.keyboard.press('Escape'); // no selection: Fit shows the whole trace
    await page.click('#fit-view');
    const mainTrack = execGroup.tracks.find((t) => t.label === 'MainThread').index;
    await api(page, 'scrollToTrack', mainTrack);
    const before = await api(page, 'trackRect', mainTrack);
    assert.ok(before.h > 22, `MainThread has nested rows (${before.h}px)`);
    const box = await page.locator('#swimlane').boundingBox();
    await page.mouse.click(box.x + 5, before.y + 11);
    await page.waitForFunction((t) => window.__pyptoSwimlane.folded().includes(t), mainTrack, { timeout: TIMEOUT_MS });
    const after = await api(page, 'trackRect', mainTrack);
    assert.equal(after.h, 22, 'folded to one row');
    const child = await api(page, 'trackRect', execTrack);
    assert.ok(child && child.h >= 22, 'the executor lane stays laid out');
    assert.ok(await api(page, 'barRect', execTrack, 0), 'its bars are still drawn');
    await screenshot(page, 'strace-folded-worker');
    // Unfold, then fold every main thread with the toolbar button: no reload (same timeline).
    const timelineId = (await api(page, 'state')).timelineId;
    await page.mouse.click(box.x + 5, after.y + 11);
    await page.waitForFunction(() => window.__pyptoSwimlane.folded().length === 0, null, { timeout: TIMEOUT_MS });
    await page.click('#fold-controllers');
    const mains = groups.flatMap((g) => g.tracks.filter((t) => t.label === 'MainThread' && !g.label.startsWith('Simpler')));
    await page.waitForFunction(() => window.__pyptoSwimlane.folded().length > 0, null, { timeout: TIMEOUT_MS });
    const folded = await api(page, 'folded');
    assert.deepEqual([...folded].sort((a, b) => a - b), mains.map((t) => t.index).sort((a, b) => a - b), 'every MainThread lane folded');
    assert.equal((await api(page, 'state')).timelineId, timelineId, 'folding re-lays out, it does not reload');
    assert.equal(Number(await page.$eval('#swimlane', (el) => el.dataset.lanes)), lanes.size, 'every lane is still there');
    await screenshot(page, 'strace-folded-main-threads');
  });
});

test('any Chrome trace (merged_swimlane.json) opens as a generic swimlane', { timeout: 180_000 }, async () => {
  const evs = events(MERGED);
  const { lanes, proc } = lanesOf(evs);
  await withPage(env.browser, 'chrome-trace', async ({ page }) => {
    await page.setViewportSize({ width: 1500, height: 950 });
    await openFolder(page, {
      'case/dfx_outputs/merged_swimlane.json': MERGED,
      'case/dfx_outputs/chip_swimlane_records.json': path.join(DEMO_RUNTIME_FIXTURE, 'chip_swimlane_records.json'),
    });
    const sel = datasetSel('runtime', 'case/dfx_outputs');
    await page.waitForSelector(`${sel} .summary[data-tasks]`, { state: 'attached', timeout: TIMEOUT_MS });
    await waitTimeline(page); // the chip swimlane of the records opens first
    const chipId = (await api(page, 'state')).timelineId;
    await page.click(`${sel} + li.dataset-traces button.open-trace[data-path$="merged_swimlane.json"]`);
    await page.waitForFunction((id) => window.__pyptoSwimlane.state()?.timelineId !== id && Number(document.querySelector('#swimlane')?.dataset.bars) > 0, chipId, { timeout: TIMEOUT_MS });
    assert.equal(Number(await page.$eval('#swimlane', (el) => el.dataset.bars)), evs.filter(drawn).length);
    assert.equal(Number(await page.$eval('#swimlane', (el) => el.dataset.lanes)), lanes.size);
    const { groups } = await api(page, 'groups');
    assert.deepEqual(
      groups.map((g) => g.label.replace(/ · pid \d+$/, '')).sort(),
      [...new Set(evs.filter(drawn).map((e) => e.pid))].map((p) => proc.get(p)).sort(),
    );
    assert.equal(await page.locator('#trace-stats').count(), 0, 'no STRACE statistics for a generic trace');
    assert.equal(await page.locator('#dep-depth').count(), 0);
    const facts = await page.$eval('.trace-facts', (el) => el.textContent);
    assert.match(facts, /merged_swimlane\.json/);
    assert.match(facts, /other events not drawn/, 'flows and counters are counted, not drawn');
    // Search by name and details of the hit.
    const someBar = evs.find((e) => e.ph === 'X' && e.dur > 0);
    await page.fill('#swimlane-search', someBar.name);
    await page.press('#swimlane-search', 'Enter');
    await page.waitForFunction(() => document.querySelector('#task-details .details-title'), null, { timeout: TIMEOUT_MS });
    assert.equal(await page.$eval('#task-details .details-title', (el) => el.textContent), someBar.name);
    await screenshot(page, 'chrome-trace-swimlane');
    // Back to the chip swimlane: the chip controls return.
    await page.click(`${sel} .dataset-name`);
    await page.waitForSelector('#dep-depth', { timeout: TIMEOUT_MS });
  });
});
