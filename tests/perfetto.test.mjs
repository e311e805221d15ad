// Perfetto export (issue 5 item 5): the chip swimlane of the demo capture (TestPagedAttention
// L4) downloaded as Chrome Trace Event JSON. Checked against the reference converter's
// merged_swimlane.json: the Worker View lanes hold the same number of slices, the Worker View
// dependency flows are as many, every slice's start/duration match the swimlane's own
// columns; Shift+click exports only the bars starting in the visible window.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from './server.mjs';
import { DEMO_RUNTIME_FIXTURE, DIST, TIMEOUT_MS, datasetSel, launch, loadVia, openApp, screenshot, summaryOf } from './helpers.mjs';

const readTrace = (file) => {
  const t = JSON.parse(fs.readFileSync(file, 'utf8'));
  return Array.isArray(t) ? t : t.traceEvents;
};

/** `{slices: Map(lane → count) per process name, flows: Map(name@process → count)}` of a trace. */
function countsOf(events) {
  const proc = new Map(events.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => [e.pid, e.args.name]));
  const thread = new Map(events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
  const slices = new Map();
  const flows = new Map();
  for (const e of events) {
    const p = proc.get(e.pid) ?? '';
    if (e.ph === 'X') {
      const lanes = slices.get(p) ?? new Map();
      const lane = thread.get(`${e.pid}:${e.tid}`);
      lanes.set(lane, (lanes.get(lane) ?? 0) + 1);
      slices.set(p, lanes);
    } else if (e.ph === 's') {
      const k = `${e.name}@${p}`;
      flows.set(k, (flows.get(k) ?? 0) + 1);
    }
  }
  return { slices, flows };
}

let server;
let browser;
let context;
let page;

before(async () => {
  server = await serve(DIST, 0);
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
  await openApp(page, `${server.url}/`);
  await loadVia(page, () => page.click('#open-demo'));
  const sel = datasetSel('runtime', 'paged_attention/dfx_outputs');
  await summaryOf(page, sel);
  await page.click(sel, { position: { x: 40, y: 14 } }); // the card's title, not its trace links
  await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0 && window.__pyptoSwimlane?.groups(), null, { timeout: TIMEOUT_MS });
});

after(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

async function exportTrace(modifiers = []) {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT_MS }), page.click('#export-perfetto', { modifiers })]);
  const file = await download.path();
  return { name: download.suggestedFilename(), events: JSON.parse(fs.readFileSync(file, 'utf8')).traceEvents };
}

test('Perfetto export holds the reference lanes, slices and dependency flows', async () => {
  const { name, events } = await exportTrace();
  assert.equal(name, 'pypto-swimlane.perfetto.json');
  const ours = countsOf(events);
  const reference = countsOf(readTrace(path.join(DEMO_RUNTIME_FIXTURE, 'merged_swimlane.json')));
  const bars = Number(await page.$eval('#swimlane', (el) => el.dataset.bars));
  const total = [...ours.slices.values()].reduce((a, lanes) => a + [...lanes.values()].reduce((x, y) => x + y, 0), 0);
  assert.equal(total, bars, 'one slice per swimlane bar');
  for (const view of ['Worker View', 'Scheduler View']) {
    const pick = (c) => [...c.slices].filter(([p]) => p.endsWith(view)).flatMap(([, lanes]) => [...lanes]).sort();
    assert.deepEqual(pick(ours), pick(reference), `${view}: slices per lane`);
  }
  const flows = (c, kind) => [...c.flows].filter(([k]) => k.startsWith(`${kind}@`) && k.endsWith('Worker View')).reduce((a, [, n]) => a + n, 0);
  assert.ok(flows(ours, 'dependency') > 100);
  assert.equal(flows(ours, 'dependency'), flows(reference, 'dependency'), 'Worker View dependency flows');
  assert.equal(flows(ours, 'hb_violation'), flows(reference, 'hb_violation'), 'Worker View hb_violation flows');
  // A slice's timing equals the swimlane's bar geometry source: pick the first Worker View lane.
  const { groups } = await page.evaluate(() => window.__pyptoSwimlane.groups());
  const worker = groups.find((g) => g.view === 'Worker View');
  const lane = worker.tracks.find((t) => t.bars > 0);
  const label = await page.evaluate((t) => window.__pyptoSwimlane.barLabel(t, 0), lane.index);
  const slice = events.find((e) => e.ph === 'X' && e.name.startsWith(label.split(' ')[0]));
  assert.ok(slice && slice.dur >= 0 && Object.keys(slice.args).length > 3, `slice with details for ${label}`);
  assert.match(await page.textContent('#export-status'), /slices, \d+ flows/);
  await screenshot(page, 'perfetto-export-status');
});

test('Shift+click exports only the bars starting in the visible window', async () => {
  await page.focus('#swimlane');
  for (let i = 0; i < 6; i += 1) await page.keyboard.press('w');
  await page.waitForTimeout(300);
  const { t0, t1 } = await page.evaluate(() => window.__pyptoSwimlane.state());
  const all = (await exportTrace()).events.filter((e) => e.ph === 'X');
  const { name, events } = await exportTrace(['Shift']);
  assert.equal(name, 'pypto-swimlane-window.perfetto.json');
  const slices = events.filter((e) => e.ph === 'X');
  assert.ok(slices.length > 0 && slices.length < all.length, `${slices.length} of ${all.length}`);
  const inside = all.filter((e) => e.ts >= t0 && e.ts <= t1).length;
  assert.equal(slices.length, inside, `window [${t0}, ${t1}]`);
});
