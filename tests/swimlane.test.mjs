// Chip Swimlane e2e tests (issue 4 item 13) on the demo capture (TestPagedAttention L4).
// Expected numbers come from the fixture: merged_swimlane.json (the reference converter's
// lanes and bars), deps.json (predecessors), CPM_observed.json (critical path). Geometry comes
// from the app's automation API `window.__pyptoSwimlane` (barRect, trackIndex, state, arrows,
// isDimmed, groups).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from './server.mjs';
import { DEMO_RUNTIME_FIXTURE, DIST, TIMEOUT_MS, datasetSel, launch, loadVia, openApp, screenshot, summaryOf } from './helpers.mjs';

const FIX = DEMO_RUNTIME_FIXTURE;
const readTrace = (name) => {
  const t = JSON.parse(fs.readFileSync(path.join(FIX, name), 'utf8'));
  return Array.isArray(t) ? t : t.traceEvents;
};
const merged = readTrace('merged_swimlane.json');
const procName = new Map(merged.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => [e.pid, e.args.name]));
const threadName = new Map(merged.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
const workerPid = [...procName].find(([, n]) => n === 'Worker View')[0];
const workerBars = merged.filter((e) => e.ph === 'X' && e.pid === workerPid);
const taskText = (e) => /Task:([^,]+)/.exec(e.args['event-hint'])[1];
const deps = JSON.parse(fs.readFileSync(path.join(FIX, 'deps.json'), 'utf8'));
const rxty = (id) => {
  const big = BigInt(id);
  return `r${(big >> 32n) & 0xffn}t${big & 0xffffffffn}`;
};

let server;
let browser;
let context;
let page;
let box; // #swimlane bounding box

const api = (fn, ...args) => page.evaluate(([fn, args]) => window.__pyptoSwimlane[fn](...args), [fn, args]);

async function search(query) {
  await page.fill('#swimlane-search', query);
  await page.press('#swimlane-search', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('#search-results .search-hit').length > 0, null, { timeout: TIMEOUT_MS });
  return page.$$eval('#search-results .search-hit', (els) => els.map((e) => ({ track: Number(e.dataset.track), index: Number(e.dataset.index), text: e.textContent })));
}

async function workerGroup() {
  const { groups } = await api('groups');
  return groups.find((g) => g.view === 'Worker View');
}

before(async () => {
  server = await serve(DIST, 0);
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 2, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
  await openApp(page, `${server.url}/`);
  await loadVia(page, () => page.click('#open-demo'));
  const sel = datasetSel('runtime', 'paged_attention/dfx_outputs');
  await summaryOf(page, sel);
  await page.click(sel);
  await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0 && window.__pyptoSwimlane?.groups(), null, { timeout: TIMEOUT_MS });
  box = await page.locator('#swimlane').boundingBox();
});

after(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

test('every view is present with the reference lanes and bar counts', async () => {
  const { groups, absent } = await api('groups');
  const titles = { 'Worker View': 'Worker View', 'Scheduler View': 'Scheduler View', 'AICPU Scheduler': 'AICPU Scheduler', 'AICPU Orchestrator': 'Orchestrator' };
  for (const [pid, name] of procName) {
    const bars = merged.filter((e) => e.ph === 'X' && e.pid === pid);
    const lanes = new Set(bars.map((e) => threadName.get(`${pid}:${e.tid}`)));
    const group = groups.find((g) => g.view === titles[name]);
    assert.ok(group, `group for ${name}: ${JSON.stringify(groups.map((g) => g.view))} absent ${JSON.stringify(absent)}`);
    const total = group.tracks.reduce((a, t) => a + t.bars, 0);
    assert.equal(total, bars.length, `${name}: bar count`);
    if (name === 'Worker View' || name === 'Scheduler View') {
      assert.deepEqual(new Set(group.tracks.filter((t) => t.bars > 0).map((t) => t.label)), lanes, `${name}: lanes`);
    }
  }
  // Screenshot of every view: scroll each group into view.
  for (const g of groups) {
    await api('scrollToTrack', g.tracks[0].index);
    await page.waitForTimeout(150);
    await screenshot(page, `swimlane-view-${g.view.replace(/\W+/g, '-').toLowerCase()}`);
  }
  await api('scrollToTrack', groups[0].tracks[0].index);
});

test('label mode "both" names every Worker View bar with its function and rXtY (task_ring / task_local columns)', async () => {
  // Runs before any search or details request, so the ids can only come from the timeline's
  // task_ring / task_local columns. Display rule: ring 0 → `t<local>`, else `r<ring>t<local>`.
  const idText = (id) => {
    const big = BigInt(id);
    const ring = (big >> 32n) & 0xffn;
    const local = big & 0xffffffffn;
    return ring === 0n ? `t${local}` : `r${ring}t${local}`;
  };
  await page.selectOption('#label-mode', 'both');
  const wg = await workerGroup();
  const labels = await page.evaluate(
    (tracks) => tracks.flatMap((t) => Array.from({ length: t.bars }, (_, i) => window.__pyptoSwimlane.barLabel(t.index, i))),
    wg.tracks,
  );
  const expected = workerBars.map((e) => `${e.name.slice(0, e.name.indexOf('('))} ${idText(e.args.taskId ?? e.args.task_id)}`);
  assert.deepEqual([...labels].sort(), [...expected].sort());
  // Zoom in at the start of the capture so the labels are drawn, then restore the full view.
  await api('scrollToTrack', wg.tracks[0].index);
  await page.mouse.move(box.x + 160, box.y + box.height / 2);
  await page.keyboard.down('Control');
  for (let k = 0; k < 4; k += 1) await page.mouse.wheel(0, -400);
  await page.keyboard.up('Control');
  await page.waitForTimeout(150);
  await screenshot(page, 'swimlane-labels-both');
  await page.selectOption('#label-mode', 'name');
  await page.evaluate(() => document.querySelector('#swimlane').focus());
  await page.keyboard.press('0');
  await api('scrollToTrack', (await api('groups')).groups[0].tracks[0].index);
});

test('clicking a known task shows its known numbers', async () => {
  const longest = workerBars.reduce((a, b) => (b.dur > a.dur ? b : a));
  const task = taskText(longest);
  const hits = await search(task);
  const wg = await workerGroup();
  const hit = hits.find((h) => wg.tracks.some((t) => t.index === h.track));
  assert.ok(hit, `a Worker View hit for ${task}: ${JSON.stringify(hits)}`);
  await page.keyboard.press('Escape');
  await page.click('#swimlane', { position: { x: 5, y: 5 } }).catch(() => {});
  await page.keyboard.press('Escape');
  const r = await api('barRect', hit.track, hit.index);
  assert.ok(r, 'bar is laid out');
  // The page's preview shows at once (data-complete=false); the worker's full details replace it.
  await page.evaluate(() => {
    const det = document.querySelector('#task-details');
    window.__firstDetails = null;
    const obs = new MutationObserver(() => {
      const d = det.querySelector('[data-complete]');
      if (d && !window.__firstDetails) {
        window.__firstDetails = { complete: d.dataset.complete, rows: Object.fromEntries([...d.querySelectorAll('tr')].map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('td')?.textContent])) };
        obs.disconnect();
      }
    });
    obs.observe(det, { childList: true, subtree: true });
  });
  await page.mouse.click(r.x + Math.min(r.w / 2, 40), r.y + r.h / 2);
  await page.waitForFunction((task) => document.querySelector('#task-details [data-complete="true"]')?.textContent.includes(task), task, { timeout: TIMEOUT_MS });
  const rows = Object.fromEntries(await page.$$eval('#task-details tr', (trs) => trs.map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('td')?.textContent])));
  assert.equal(rows.Task, task, JSON.stringify(rows));
  assert.equal(rows.Function, longest.name.slice(0, longest.name.indexOf('(')));
  assert.equal(rows['Task ID (raw)'], String(longest.args.taskId));
  const dur = Number(String(rows['Duration (end − start)']).replace(/[^0-9.]/g, ''));
  assert.ok(Math.abs(dur - longest.args['kernel-duration-us']) < 0.01, `duration ${dur} vs ${longest.args['kernel-duration-us']}`);
  const first = await page.evaluate(() => window.__firstDetails);
  assert.equal(first?.complete, 'false', `the page's preview came first: ${JSON.stringify(first)}`);
  assert.equal(first.rows.Task, task);
  assert.equal(first.rows.Start, rows.Start, 'preview and worker agree on the start');
  assert.equal(first.rows.End, rows.End);
  await screenshot(page, 'swimlane-details-known-task');
});

test('search by rXtY selects the right task', async () => {
  const e = workerBars[Math.floor(workerBars.length / 3)];
  const task = taskText(e);
  await search(task);
  await page.waitForFunction((task) => document.querySelector('#task-details .details-title')?.textContent.includes(`(${task})`), task, { timeout: TIMEOUT_MS });
  const st = await api('state');
  assert.ok(st.selected, 'a bar is selected');
  const { t0, t1 } = st;
  const r = await api('barRect', st.selected.track, st.selected.index);
  assert.ok(r.x + r.w >= box.x + 150 && r.x <= box.x + box.width, `selected bar is in view ${JSON.stringify({ r, t0, t1 })}`);
});

test('dependency lines at depth 1 connect the known predecessors', async () => {
  // A task with two or more predecessors.
  const preds = new Map();
  for (const ed of deps.edges) preds.set(ed.succ, [...(preds.get(ed.succ) ?? []), ed.pred]);
  const [succ, predIds] = [...preds].find(([, p]) => new Set(p).size >= 2);
  const wg = await workerGroup();
  const inWorker = (h) => wg.tracks.some((t) => t.index === h.track);
  const expected = new Set();
  for (const p of new Set(predIds)) {
    for (const h of (await search(rxty(p))).filter(inWorker)) expected.add(`${h.track}:${h.index}`);
  }
  const target = (await search(rxty(succ))).find(inWorker);
  await page.evaluate(() => document.querySelector('#swimlane').focus());
  await page.waitForFunction(() => window.__pyptoSwimlane.arrows().length > 0, null, { timeout: TIMEOUT_MS });
  const st = await api('state');
  assert.deepEqual(st.selected, { track: target.track, index: target.index });
  const arrows = await api('arrows');
  const into = arrows.filter((a) => a.to.track === target.track && a.to.index === target.index);
  const from = new Set(into.map((a) => `${a.from.track}:${a.from.index}`));
  assert.ok(from.size > 0, `arrows into the task: ${JSON.stringify(arrows)}`);
  for (const f of from) assert.ok(expected.has(f), `arrow from ${f} is a predecessor block of ${rxty(succ)} (${[...expected]})`);
  await screenshot(page, 'swimlane-dependencies');
});

test('markers and measure show the right Δt', async () => {
  const st = await api('state');
  const plotW = box.width - 150;
  const xOf = (t) => box.x + 150 + ((t - st.t0) / (st.t1 - st.t0)) * plotW;
  const ta = st.t0 + (st.t1 - st.t0) * 0.25;
  const tb = st.t0 + (st.t1 - st.t0) * 0.6;
  const before = (await api('state')).markers.length;
  await page.mouse.click(xOf(ta), box.y + 30); // the detailed axis
  await page.mouse.click(xOf(tb), box.y + 30);
  const markers = (await api('state')).markers.slice(before);
  const usPerPx = (st.t1 - st.t0) / plotW;
  assert.equal(markers.length, 2);
  assert.ok(Math.abs(markers[0].t - ta) <= usPerPx && Math.abs(markers[1].t - tb) <= usPerPx, JSON.stringify({ markers, ta, tb }));
  assert.equal(await page.locator('#markers li.marker').count(), before + 2);
  // Alt+click twice measures.
  await page.keyboard.down('Alt');
  await page.mouse.click(xOf(ta), box.y + box.height - 20);
  await page.mouse.click(xOf(tb), box.y + box.height - 20);
  await page.keyboard.up('Alt');
  await page.waitForSelector('#swimlane-measure[data-delta-us]', { state: 'attached' });
  const delta = Number(await page.getAttribute('#swimlane-measure', 'data-delta-us'));
  assert.ok(Math.abs(delta - (tb - ta)) <= 2 * usPerPx, `Δt ${delta} vs ${tb - ta}`);
  // Right-click a task → markers at its start and end: Δt = its duration.
  const sel = (await api('state')).selected;
  const r = await api('barRect', sel.track, sel.index);
  await page.mouse.click(r.x + Math.min(r.w / 2, 20), r.y + r.h / 2, { button: 'right' });
  await page.click('#menu-task-markers');
  const all = (await api('state')).markers;
  const [ms, me] = all.slice(-2);
  await page.waitForSelector('#task-details [data-complete="true"]', { timeout: TIMEOUT_MS });
  const details = Object.fromEntries(await page.$$eval('#task-details tr', (trs) => trs.map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('td')?.textContent])));
  const dur = Number(String(details['Duration (end − start)'] ?? '').replace(/[^0-9.]/g, ''));
  assert.ok(Math.abs(me.t - ms.t - dur) < 0.01, `markers ${JSON.stringify([ms, me])} vs duration ${dur}`);
  await screenshot(page, 'swimlane-markers-measure');
  await page.keyboard.press('Escape');
});

test('pin moves the lane to the top', async () => {
  const wg = await workerGroup();
  const track = wg.tracks[wg.tracks.length - 1];
  await api('scrollToTrack', track.index);
  await page.keyboard.press('f');
  const r0 = await api('barRect', track.index, 0);
  await page.mouse.move(box.x + 60, r0.y + 4);
  await page.mouse.click(box.x + 150 - 14, r0.y + 4);
  const st = await api('state');
  assert.deepEqual(st.pinned, [track.index]);
  const r1 = await api('barRect', track.index, 0);
  assert.ok(r1.y < box.y + 42 + 22, `pinned lane at the top: ${r1.y} (box ${box.y})`);
  await screenshot(page, 'swimlane-pinned');
  await page.mouse.click(box.x + 150 - 14, r1.y + 4); // unpin
  assert.deepEqual((await api('state')).pinned, []);
});

test('PNG export downloads an image of the canvas size × devicePixelRatio', async () => {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
  const file = await download.path();
  const png = fs.readFileSync(file);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  const canvas = await page.$eval('#swimlane-gl', (c) => ({ w: c.width, h: c.height, cssW: c.clientWidth, dpr: devicePixelRatio }));
  assert.equal(canvas.dpr, 2);
  assert.deepEqual({ w, h }, { w: canvas.w, h: canvas.h });
  assert.ok(Math.abs(w - canvas.cssW * 2) <= 2);
  fs.mkdirSync(path.join(path.dirname(new URL(import.meta.url).pathname), 'artifacts'), { recursive: true });
  fs.copyFileSync(file, path.join(path.dirname(new URL(import.meta.url).pathname), 'artifacts', 'swimlane-export.png'));
});

test('the observed critical path dims exactly the off-path tasks', async () => {
  const cpm = readTrace('CPM_observed.json');
  const cpmWorker = cpm.filter((e) => e.ph === 'X' && e.pid === workerPid);
  // §4.1: the path = taskId of task bars the tool left un-dimmed. Dummy/alloc bars carry
  // `task_id` and are never renamed by the tool, but they are off-path tasks unless their id is
  // on the path, so the viewer dims them too.
  const barTask = (e) => String(e.args?.taskId ?? e.args?.task_id);
  const pathIds = new Set(cpmWorker.filter((e) => e.args?.taskId !== undefined && !e.name.startsWith('·')).map(barTask));
  const onPath = cpmWorker.filter((e) => pathIds.has(barTask(e))).length;
  await page.selectOption('#path-mode', 'observed');
  const wg = await workerGroup();
  let dimmed = 0;
  let kept = 0;
  for (const t of wg.tracks) {
    const flags = await page.evaluate(([track, n]) => Array.from({ length: n }, (_, i) => window.__pyptoSwimlane.isDimmed(track, i)), [t.index, t.bars]);
    dimmed += flags.filter(Boolean).length;
    kept += flags.filter((f) => !f).length;
  }
  assert.equal(kept, onPath, `on-path bars (CPM_observed has ${onPath} of ${cpmWorker.length})`);
  assert.equal(dimmed, cpmWorker.length - onPath);
  await page.keyboard.press('f');
  await screenshot(page, 'swimlane-critical-path');
  await page.selectOption('#path-mode', 'none');
});

test('the URL hash keeps the window and selection; a reload restores them', async () => {
  const hits = await search(taskText(workerBars[5]));
  await page.waitForTimeout(600);
  const st = await api('state');
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /t0=.*t1=.*sel=/);
  await page.goto(`${server.url}/?src=./demo/${hash}`);
  await page.waitForFunction(() => window.__pyptoSwimlane?.state()?.selected, null, { timeout: TIMEOUT_MS });
  const st2 = await api('state');
  assert.deepEqual(st2.selected, st.selected);
  assert.ok(Math.abs(st2.t0 - st.t0) < 0.01 && Math.abs(st2.t1 - st.t1) < 0.01, JSON.stringify({ st, st2, hits: hits.length }));
});

test('a scheduler phase bar shows its record, read back from the records file', async () => {
  // The worker keeps no scheduler phase columns: a phase bar's details read its record back.
  const records = JSON.parse(fs.readFileSync(path.join(FIX, 'chip_swimlane_records.json'), 'utf8'));
  const inner = new Set(['resolve', 'drain_prepare', 'drain_publish', 'dummy_task', 'predicated_skip', 'idle', 'scan']);
  const outer = records.aicpu_scheduler_phases[0].filter((r) => !inner.has(r.kind)).map((r, i) => ({ r, i }));
  outer.sort((a, b) => a.r.start_cycles - b.r.start_cycles || a.i - b.i);
  const index = outer.reduce((best, o, k) => (o.r.end_cycles - o.r.start_cycles > outer[best].r.end_cycles - outer[best].r.start_cycles ? k : best), 0);
  const rec = outer[index].r;
  const durUs = ((rec.end_cycles - rec.start_cycles) * 1e6) / records.metadata.clock_freq_hz;
  const track = await api('trackIndex', 'Sched_0');
  assert.ok(track !== null, 'a Sched_0 lane');
  assert.equal(await api('barLabel', track, index), `${rec.kind}(${rec.tasks_processed})`);
  await api('scrollToTrack', track);
  // Zoom at the bar until it is wide enough to click.
  for (let k = 0; k < 30; k += 1) {
    const r = await api('barRect', track, index);
    assert.ok(r, 'the phase bar is laid out');
    if (r.w >= 30) break;
    await page.mouse.move(r.x + r.w / 2, r.y + r.h / 2);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -400);
    await page.keyboard.up('Control');
    await page.waitForTimeout(50);
  }
  const r = await api('barRect', track, index);
  await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
  await page.waitForFunction(() => document.querySelector('#task-details [data-complete="true"]')?.textContent.includes('Loop iteration'), null, { timeout: TIMEOUT_MS });
  const rows = Object.fromEntries(await page.$$eval('#task-details tr', (trs) => trs.map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('td')?.textContent])));
  assert.equal(rows.Phase, rec.kind, JSON.stringify(rows));
  assert.equal(rows.Thread, 'Sched_0');
  assert.equal(rows['Loop iteration'], String(rec.loop_iter));
  assert.equal(rows['Tasks processed'], String(rec.tasks_processed));
  if (rec.pop_hit !== undefined && rec.pop_hit + rec.pop_miss > 0) assert.equal(rows['Pop hit / miss'], `${rec.pop_hit} / ${rec.pop_miss}`);
  const dur = Number(String(rows.Duration).replace(/[^0-9.]/g, ''));
  assert.ok(Math.abs(dur - durUs) < 0.002, `duration ${dur} vs ${durUs}`);
  const title = await page.$eval('#task-details .details-title', (e) => e.textContent);
  assert.ok(title.includes(`${rec.kind}(${rec.tasks_processed})`), title);
  await screenshot(page, 'swimlane-details-scheduler-phase');
});
