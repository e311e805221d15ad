// Host prepare phases in the Chip Swimlane (issue 17, item 5): a host_build_graph capture's
// `host_phase_records.jsonl` opens as a "Host Prepare" lane group beside the Orchestrator — one
// lane per process, invocation and thread, nested phases one row deeper — with each bar's
// `detail` in its details. Expected counts and times come from the fixture's own JSON (records'
// host origin, the jsonl's records). Screenshots: tests/artifacts/swimlane-host-prepare*.png.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  FIXTURES,
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
  zoomToBar,
} from './helpers.mjs';

const CASE = path.join(FIXTURES, 'runtime', 'a2a3sim-L4-TestGraphExecutionHostBuildGraph_record_then_replay_1d');

/** The jsonl's passes and records, and the records file's host origin (ns). */
function hostFacts() {
  const passes = fs
    .readFileSync(path.join(CASE, 'host_phase_records.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const records = JSON.parse(fs.readFileSync(path.join(CASE, 'chip_swimlane_records.json'), 'utf8'));
  const origin = records.metadata.host_orchestration_origin_ns;
  const all = passes.flatMap((p) => p.records.map((r) => ({ ...r, pid: p.pid, inv: p.inv })));
  const lanes = new Set(all.map((r) => `${r.pid}/${r.inv}/${r.tid ?? r.pid}`));
  return { passes, all, lanes, origin };
}

const env = serveDistAndLaunch();
const apiOf = (page) => (fn, ...args) => page.evaluate(([fn, args]) => window.__pyptoSwimlane[fn](...args), [fn, args]);

test('host phase records open as Host Prepare lanes with their details', { timeout: 120_000 }, async () => {
  const facts = hostFacts();
  await withPage(env.browser, 'host-prepare', async ({ page }) => {
    const pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await stubDirectoryPicker(page);
    await openApp(page, `${env.server.url}/`);
    await seedOpfs(page, filesOf(CASE, 'replay/dfx_outputs', isViewerRuntimeFile));
    await loadVia(page, () => page.click('#open-folder'));
    const sel = datasetSel('runtime', 'replay/dfx_outputs');
    // The sidebar says what the file held: the records drawn, and it lists the lanes as a view.
    assert.equal((await summaryOf(page, sel)).hostPhases, String(facts.all.length));
    const views = await page.$$eval(`${sel} .views li`, (lis) => lis.map((li) => li.textContent));
    assert.ok(views.some((v) => v.includes('Host Prepare lanes')), JSON.stringify(views));
    await page.click(sel);
    await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0 && window.__pyptoSwimlane?.groups(), null, { timeout: TIMEOUT_MS });
    const api = apiOf(page);
    const { groups, absent } = await api('groups');
    const order = groups.map((g) => g.view);
    const host = groups.find((g) => g.view === 'Host Prepare');
    assert.ok(host, `a Host Prepare group: ${JSON.stringify(order)} (absent: ${JSON.stringify(absent)})`);
    assert.equal(order.indexOf('Host Prepare'), order.indexOf('Orchestrator') + 1, `beside the Orchestrator: ${JSON.stringify(order)}`);
    assert.equal(host.tracks.length, facts.lanes.size, JSON.stringify(host.tracks));
    assert.equal(host.tracks.reduce((n, t) => n + t.bars, 0), facts.all.length);
    const pass = facts.passes[0];
    assert.equal(host.tracks[0].label, `inv ${pass.inv} · pid ${pass.pid}`);
    assert.ok(host.tracks.slice(1).every((t) => /^inv \d+ · tid \d+$/.test(t.label)), JSON.stringify(host.tracks.map((t) => t.label)));
    // Find the arena upload's bar and click it.
    const want = facts.all.find((r) => r.phase === 'arena_h2d');
    const main = host.tracks[0];
    await api('scrollToTrack', main.index);
    let hit = null;
    for (let i = 0; i < main.bars && !hit; i += 1) if ((await api('barLabel', main.index, i)) === 'arena_h2d') hit = i;
    assert.ok(hit !== null, 'an arena_h2d bar');
    // Zoomed in at the bar until it is wide enough to click (the capture spans ~70 ms; the
    // upload lasts ~1.6 µs).
    const r = await zoomToBar(page, main.index, hit, 12);
    assert.ok(r && r.w > 0, `the bar is laid out: ${JSON.stringify(r)}`);
    await page.mouse.click(r.x + Math.max(1, Math.min(r.w / 2, 40)), r.y + r.h / 2);
    await page.waitForFunction(() => document.querySelector('#task-details [data-complete="true"]')?.textContent.includes('Detail'), null, { timeout: TIMEOUT_MS });
    const rows = Object.fromEntries(await page.$$eval('#task-details tr', (trs) => trs.map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('td')?.textContent])));
    assert.equal(rows.Phase, 'arena_h2d', JSON.stringify(rows));
    assert.equal(rows['Detail (Bytes)'], String(want.detail));
    assert.equal(rows['Process (pid)'], String(pass.pid));
    assert.equal(rows.Invocation, String(pass.inv));
    assert.equal(rows.Clock, pass.clock);
    assert.match(rows.Record, /host_phase_records\.jsonl line 1 records\[\d+\]/);
    const dur = Number(String(rows.Duration).replace(/[^0-9.]/g, ''));
    assert.ok(Math.abs(dur - (want.end_ns - want.start_ns) / 1000) < 0.002, `duration ${dur}`);
    // On the records' host axis: µs since the host orchestration origin.
    const start = Number(String(rows.Start).replace(/[^0-9.-]/g, ''));
    assert.ok(Math.abs(start - (want.start_ns - facts.origin) / 1000) < 0.002, `start ${rows.Start}`);
    await screenshot(page, 'swimlane-host-prepare-details');
    // The whole host window: deselect and fit, then zoom in at the first host phase until the window is
    // under a millisecond.
    await page.keyboard.press('Escape');
    await page.click('#fit-view');
    const span = () => page.$eval('#swimlane', (el) => Number(el.dataset.viewEndUs) - Number(el.dataset.viewStartUs));
    for (let k = 0; k < 40 && (await span()) > 900; k += 1) {
      await api('scrollToTrack', main.index);
      const b = await api('barRect', main.index, 0);
      await page.mouse.move(Math.max(b.x, 460), b.y + b.h / 2);
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -200);
      await page.keyboard.up('Control');
      await page.waitForTimeout(30);
    }
    await page.mouse.move(5, 5);
    await api('scrollToTrack', main.index);
    await screenshot(page, 'swimlane-host-prepare');
    assert.deepEqual(pageErrors, []);
  });
});
