// Task Dependency Graph view (issue 6) on the demo capture (TestPagedAttention L4): node count
// and per-mode edge counts equal `pypto-viewer report --json` (edge_stats) and deps_viewer's
// nodes (deps.json tasks, edge endpoints, the records' tasks); selecting a task highlights
// exactly its deps.json predecessors and successors (depth 1, Full mode); search by rXtY selects
// and centres it, search by function name is fuzzy (subsequence) and steps through its matches;
// a capture whose records add tasks (record_then_replay_1d) shows deps_viewer's node set;
// screenshots of the DAG top→bottom, left→right and in Reduced DF mode
// (tests/artifacts/dep-graph-*.png); a generated 100k-task DAG (`pypto-viewer gen --dag`)
// opens, lays out in the worker and pans / zooms (frame times logged).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from './server.mjs';
import { DEMO_RUNTIME_FIXTURE, DIST, FIXTURES, REPO, TIMEOUT_MS, datasetSel, launch, loadVia, openApp, screenshot, seedOpfs, stubDirectoryPicker, summaryOf } from './helpers.mjs';

const MODES = ['full', 'reduced', 'omitted', 'reduced_dataflow', 'omitted_dataflow'];

function cliReport() {
  const run = spawnSync('cargo', ['run', '--release', '-q', '-p', 'pypto-cli', '--bin', 'pypto-viewer', '--', 'report', '--json', DEMO_RUNTIME_FIXTURE], {
    cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 30,
  });
  assert.equal(run.status, 0, `pypto-viewer report failed: ${run.stderr}`);
  return JSON.parse(run.stdout).datasets[0];
}

/** The display of a decimal task id string, by the reference's rule (runtime-formats.md §1.10):
 *  ring 0 → `t{local}`, else `r{ring}t{local}`. */
const rt = (id) => {
  const v = BigInt(id);
  const ring = (v >> 32n) & 0xffn;
  const local = v & 0xffffffffn;
  return ring === 0n ? `t${local}` : `r${ring}t${local}`;
};

/** deps_viewer's nodes (runtime-formats.md §5.1: deps.json tasks with a kernel ∪ edge
 *  endpoints ∪ the tasks of the records, its perf sidecar), checked against the count in the
 *  fixture's deps_viewer.txt, and unique neighbours, from the files themselves. */
function depsFacts(dir = DEMO_RUNTIME_FIXTURE) {
  const deps = JSON.parse(fs.readFileSync(path.join(dir, 'deps.json'), 'utf8'));
  const records = JSON.parse(fs.readFileSync(path.join(dir, 'chip_swimlane_records.json'), 'utf8'));
  const hasKernel = (t) => (t.kernel_ids ?? []).some((k) => Number(k) >= 0);
  const nodes = new Set(deps.tasks.filter(hasKernel).map((t) => String(t.task_id)));
  for (const row of records.aicore_tasks) nodes.add(String(row[1]));
  const preds = new Map();
  const succs = new Map();
  for (const e of deps.edges) {
    const [p, s] = [String(e.pred), String(e.succ)];
    nodes.add(p);
    nodes.add(s);
    if (!succs.has(p)) succs.set(p, new Set());
    if (!preds.has(s)) preds.set(s, new Set());
    succs.get(p).add(s);
    preds.get(s).add(p);
  }
  const viewer = fs.readFileSync(path.join(dir, 'deps_viewer.txt'), 'utf8');
  assert.equal(nodes.size, Number(viewer.match(/^ {2}tasks: (\d+)$/m)?.[1]), 'the node set computed here is deps_viewer\'s');
  return { deps, nodes, preds, succs };
}

let server;
let browser;
let context;
let page;
let cli;
let facts;

const graphAttr = (name) => page.$eval('#dep-graph', (el, n) => el.getAttribute(n), name);

async function setMode(mode) {
  await page.click(`[data-testid="dep-mode-${mode}"]`);
  await page.waitForFunction((m) => document.querySelector('#dep-graph')?.dataset.mode === m, mode, { timeout: TIMEOUT_MS });
}

async function search(query) {
  await page.fill('[data-testid="dep-search"]', query);
  await page.press('[data-testid="dep-search"]', 'Enter');
  await page.waitForFunction((q) => document.querySelector('#dep-graph')?.dataset.selected === q, query, { timeout: TIMEOUT_MS });
}

before(async () => {
  cli = cliReport();
  facts = depsFacts();
  server = await serve(DIST, 0);
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
  page = await context.newPage();
  page.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
  await openApp(page, `${server.url}/`);
  await loadVia(page, () => page.click('#open-demo'));
  const sel = datasetSel('runtime', 'paged_attention/dfx_outputs');
  await summaryOf(page, sel);
  await page.click(sel, { position: { x: 40, y: 14 } });
  await page.click('[data-testid="view-switch-dep-graph"]');
  await page.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.nodes) > 0, null, { timeout: TIMEOUT_MS });
});

after(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

test('node and per-mode edge counts equal the CLI report', async () => {
  assert.equal(Number(await graphAttr('data-nodes')), facts.nodes.size, 'nodes = deps.json tasks ∪ edge endpoints ∪ record tasks');
  const counts = (await graphAttr('data-mode-counts')).split(',').map(Number);
  assert.deepEqual(counts, MODES.map((m) => cli.edge_stats[m].shown), 'edges shown per mode = report edge_stats');
  const hud = await page.textContent('[data-testid="dep-hud"]');
  assert.match(hud, new RegExp(`${facts.nodes.size} nodes`));
  assert.match(hud, new RegExp(`Reduced DF ${cli.edge_stats.reduced_dataflow.shown}`));
  // Number keys switch modes; every mode lays out and draws its own edge set.
  for (const [i, mode] of MODES.entries()) {
    await page.focus('#dep-graph');
    await page.keyboard.press(String(i + 1));
    await page.waitForFunction((m) => document.querySelector('#dep-graph')?.dataset.mode === m, mode, { timeout: TIMEOUT_MS });
    await page.click('[data-testid="dep-fit"]');
    const visible = Number(await graphAttr('data-visible-edges'));
    assert.equal(visible, cli.edge_stats[mode].shown, `${mode}: after Fit every edge is on screen`);
  }
  await setMode('full');
});

test('selecting a task highlights its deps.json neighbours; search by rXtY centres it', async () => {
  // The task with the most distinct neighbours.
  let best = null;
  for (const id of facts.nodes) {
    const n = (facts.preds.get(id)?.size ?? 0) + (facts.succs.get(id)?.size ?? 0);
    if (facts.preds.get(id)?.size && facts.succs.get(id)?.size && (!best || n > best.n)) best = { id, n };
  }
  const label = rt(best.id);
  await search(label);
  const [sx, sy] = (await graphAttr('data-selected-screen')).split(',').map(Number);
  const box = await page.$eval('#dep-graph', (el) => { const r = el.getBoundingClientRect(); return { w: r.width, h: r.height }; });
  assert.ok(Math.abs(sx - box.w / 2) < 2 && Math.abs(sy - box.h / 2) < 2, `search centres ${label}: at ${sx},${sy} of ${box.w}x${box.h}`);
  const hl = (await graphAttr('data-highlight')).split(',').filter(Boolean).sort();
  const expected = [...[...facts.preds.get(best.id)].map((p) => `<${rt(p)}`), ...[...facts.succs.get(best.id)].map((s) => `>${rt(s)}`)].sort();
  assert.deepEqual(hl, expected, `highlight of ${label} = its deps.json predecessors and successors`);
  const details = await page.textContent('[data-testid="dep-details"]');
  assert.match(details, new RegExp(`fan-in \\(${facts.preds.get(best.id).size}\\)`));
  assert.match(details, new RegExp(`fan-out \\(${facts.succs.get(best.id).size}\\)`));
  // Tensor arguments and per-edge annotations come from deps.json (every row of the task).
  const task = facts.deps.tasks.find((t) => String(t.task_id) === best.id);
  const annRows = facts.deps.edges.filter((e) => String(e.pred) === best.id || String(e.succ) === best.id).length;
  await page.waitForSelector('[data-testid="dep-edges"]', { timeout: TIMEOUT_MS });
  // The details' tables are DataTables: `data-rows` counts their rows.
  const argRows = Number(await page.$eval('[data-testid="dep-args"]', (el) => el.dataset.rows));
  const edgeRows = Number(await page.$eval('[data-testid="dep-edges"]', (el) => el.dataset.rows));
  assert.equal(argRows, task?.args?.length ?? 0, 'one row per tensor argument');
  assert.equal(edgeRows, annRows, 'one row per deps.json edge annotation of the task');
  const creatorRows = facts.deps.edges.filter((e) => (String(e.pred) === best.id || String(e.succ) === best.id) && e.source === 'creator').length;
  const shownCreator = await page.$$eval('[data-testid="dep-edges-row"] [data-col="source"]', (c) => c.filter((x) => x.textContent === 'creator').length);
  assert.equal(shownCreator, creatorRows, 'edge sources');
  await screenshot(page, 'dep-graph-selected');
  // Clicking the centred node keeps it selected (hit testing); clicking empty space clears.
  const g = await page.$('#dep-graph');
  await g.click({ position: { x: sx, y: sy } });
  assert.equal(await graphAttr('data-selected'), label);
  // Hover highlights the same neighbours while nothing is selected.
  await page.focus('#dep-graph');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('#dep-graph')?.dataset.selected);
  await page.mouse.move(0, 0);
  const gbox = await g.boundingBox();
  await page.mouse.move(gbox.x + sx, gbox.y + sy);
  await page.waitForFunction((l) => document.querySelector('#dep-graph')?.dataset.hover === l, label, { timeout: TIMEOUT_MS });
  assert.deepEqual((await graphAttr('data-highlight')).split(',').filter(Boolean).sort(), expected, 'hover highlight');
  // An unknown id says so.
  await page.fill('[data-testid="dep-search"]', 'r9t99999');
  await page.press('[data-testid="dep-search"]', 'Enter');
  await page.waitForFunction(() => /no task matches/.test(document.querySelector('[data-testid="dep-search-msg"]')?.textContent ?? ''));
});

test('screenshots: top→bottom, left→right, Reduced DF', async () => {
  await page.focus('#dep-graph');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('#dep-graph')?.dataset.selected);
  await page.click('[data-testid="dep-fit"]');
  assert.match(await page.textContent('[data-testid="dep-hud"]'), /760 edges on screen/);
  await screenshot(page, 'dep-graph-tb');
  await page.click('[data-testid="dep-direction"]');
  await page.waitForFunction(() => document.querySelector('#dep-graph')?.dataset.direction === 'LR', null, { timeout: TIMEOUT_MS });
  await page.click('[data-testid="dep-fit"]');
  await screenshot(page, 'dep-graph-lr');
  await page.click('[data-testid="dep-direction"]');
  await page.waitForFunction(() => document.querySelector('#dep-graph')?.dataset.direction === 'TB', null, { timeout: TIMEOUT_MS });
  await setMode('reduced_dataflow');
  await page.click('[data-testid="dep-fit"]');
  await screenshot(page, 'dep-graph-reduced-df');
  // Zoomed in: labels are drawn (func name + rXtY).
  await search('r2t1');
  const box = await page.$eval('#dep-graph', (el) => { const r = el.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; });
  await page.mouse.move(box.x, box.y);
  await page.mouse.wheel(0, -300);
  await screenshot(page, 'dep-graph-zoomed');
  assert.ok(Number(await graphAttr('data-scale')) > 0.8);
});

test('🔥/⭐ markers equal the §5.4 rule over deps.json', async () => {
  const { deps, nodes, preds } = facts;
  const byId = new Map(deps.tasks.map((t) => [String(t.task_id), t]));
  const isAlloc = (id) => !byId.has(id);
  const fire = (id) => isAlloc(id) || byId.get(id)?.early_dispatch === true;
  let fires = 0;
  let stars = 0;
  for (const id of nodes) {
    if (fire(id)) fires += 1;
    const p = [...(preds.get(id) ?? [])];
    if (p.length && p.every(fire) && p.some((x) => !isAlloc(x))) stars += 1;
  }
  assert.equal(await graphAttr('data-marker-counts'), `${fires},${stars}`);
});

test('show in swimlane selects the task there', async () => {
  await setMode('full');
  await search('r2t1');
  await page.click('[data-testid="dep-show-swimlane"]');
  await page.waitForFunction(() => document.querySelector('#swimlane-search')?.value === 'r2t1', null, { timeout: TIMEOUT_MS });
  await page.waitForFunction(() => window.__pyptoSwimlane?.state()?.selected != null, null, { timeout: TIMEOUT_MS });
  const label = await page.evaluate(() => { const s = window.__pyptoSwimlane.state().selected; return window.__pyptoSwimlane.barLabel(s.track, s.index); });
  console.log(`swimlane selected bar: ${label}`);
  await screenshot(page, 'dep-graph-show-in-swimlane');
  // And back: the swimlane details' "Show in graph" selects the task in the graph.
  await page.click('[data-testid="swim-show-in-graph"]');
  await page.waitForFunction(() => document.querySelector('#dep-graph')?.dataset.selected === 'r2t1', null, { timeout: TIMEOUT_MS });
  await screenshot(page, 'dep-graph-back-from-swimlane');
});

test('search by function name is fuzzy and steps through its matches', async () => {
  await setMode('full');
  // "aloc" is no substring of any name but a subsequence of "alloc": every alloc task matches.
  const allocs = [...facts.nodes].filter((id) => !facts.deps.tasks.some((t) => String(t.task_id) === id));
  assert.ok(allocs.length > 1, 'the fixture has alloc tasks');
  await page.fill('[data-testid="dep-search"]', 'aloc');
  await page.press('[data-testid="dep-search"]', 'Enter');
  await page.waitForFunction(() => /^1 of \d+/.test(document.querySelector('[data-testid="dep-search-msg"]')?.textContent ?? ''), null, { timeout: TIMEOUT_MS });
  assert.equal(Number(await graphAttr('data-search-total')), allocs.length, 'fuzzy matches = the alloc tasks');
  const first = await graphAttr('data-selected');
  assert.ok(allocs.map(rt).includes(first), `${first} is an alloc task`);
  const [sx, sy] = (await graphAttr('data-selected-screen')).split(',').map(Number);
  const box = await page.$eval('#dep-graph', (el) => { const r = el.getBoundingClientRect(); return { w: r.width, h: r.height }; });
  assert.ok(Math.abs(sx - box.w / 2) < 2 && Math.abs(sy - box.h / 2) < 2, 'the match is centred');
  // Enter again: the next match.
  await page.press('[data-testid="dep-search"]', 'Enter');
  await page.waitForFunction(() => /^2 of /.test(document.querySelector('[data-testid="dep-search-msg"]')?.textContent ?? ''), null, { timeout: TIMEOUT_MS });
  const second = await graphAttr('data-selected');
  assert.ok(second !== first && allocs.map(rt).includes(second), `then ${second}`);
  // Exact names rank first: "UP" before anything that merely contains the letters.
  await page.fill('[data-testid="dep-search"]', 'UP');
  await page.press('[data-testid="dep-search"]', 'Enter');
  await page.waitForFunction(() => /^1 of /.test(document.querySelector('[data-testid="dep-search-msg"]')?.textContent ?? ''), null, { timeout: TIMEOUT_MS });
  const up = await graphAttr('data-selected');
  const upTask = facts.deps.tasks.find((t) => rt(String(t.task_id)) === up);
  assert.ok(upTask, `${up} is a kernel task`);
  await page.click('[data-testid="dep-fit"]');
  await screenshot(page, 'dep-graph-fuzzy-search');
});

test('a folder with deps.json and a name map but no records names the graph\'s functions', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1300, height: 800 } });
  try {
    const p = await ctx.newPage();
    p.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
    await stubDirectoryPicker(p);
    await openApp(p, `${server.url}/`);
    const nameMap = fs.readdirSync(DEMO_RUNTIME_FIXTURE).find((f) => /^name_map.*\.json$/.test(f));
    await seedOpfs(p, {
      'graph_only/deps.json': path.join(DEMO_RUNTIME_FIXTURE, 'deps.json'),
      [`graph_only/${nameMap}`]: path.join(DEMO_RUNTIME_FIXTURE, nameMap),
    });
    await loadVia(p, () => p.click('#open-folder'));
    const sel = datasetSel('runtime', 'graph_only');
    await summaryOf(p, sel, 'data-deps-tasks');
    await p.click(sel, { position: { x: 40, y: 14 } });
    await p.click('[data-testid="view-switch-dep-graph"]');
    await p.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.nodes) > 0, null, { timeout: TIMEOUT_MS });
    // "UP" is a name-map name; without the map the nodes would be called func_N (no match).
    await p.fill('[data-testid="dep-search"]', 'UP');
    await p.press('[data-testid="dep-search"]', 'Enter');
    await p.waitForFunction(() => /^1 of \d+/.test(document.querySelector('[data-testid="dep-search-msg"]')?.textContent ?? ''), null, { timeout: TIMEOUT_MS });
    const up = await p.$eval('#dep-graph', (el) => el.dataset.selected);
    assert.ok(facts.deps.tasks.some((t) => rt(String(t.task_id)) === up), `${up} is a kernel task`);
  } finally {
    await ctx.close();
  }
});

test('a capture whose records hold tasks deps.json does not name shows deps_viewer\'s nodes', async () => {
  const dir = path.join(FIXTURES, 'runtime', 'a2a3sim-L4-TestGraphExecutionHostBuildGraph_record_then_replay_1d');
  const replay = depsFacts(dir);
  const named = new Set([...replay.deps.tasks.map((t) => String(t.task_id)), ...replay.deps.edges.flatMap((e) => [String(e.pred), String(e.succ)])]);
  const recordOnly = [...replay.nodes].filter((id) => !named.has(id));
  assert.ok(recordOnly.length > 0, 'the fixture has record-only tasks');
  const ctx = await browser.newContext({ viewport: { width: 1300, height: 800 } });
  try {
    const p = await ctx.newPage();
    p.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
    await stubDirectoryPicker(p);
    await openApp(p, `${server.url}/`);
    const files = Object.fromEntries(
      fs.readdirSync(dir).filter((f) => /^(chip_swimlane_records|deps)\.json$|\.jsonl$/.test(f)).map((f) => [`replay/${f}`, path.join(dir, f)]),
    );
    await seedOpfs(p, files);
    await loadVia(p, () => p.click('#open-folder'));
    const sel = datasetSel('runtime', 'replay');
    await summaryOf(p, sel);
    await p.click(sel, { position: { x: 40, y: 14 } });
    await p.click('[data-testid="view-switch-dep-graph"]');
    await p.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.nodes) > 0, null, { timeout: TIMEOUT_MS });
    const nodes = Number(await p.$eval('#dep-graph', (el) => el.dataset.nodes));
    assert.equal(nodes, replay.nodes.size, `nodes = deps_viewer's ${replay.nodes.size} (${recordOnly.length} only in the records)`);
    // A record-only task is a node the search finds by its id.
    const label = rt(recordOnly[0]);
    await p.fill('[data-testid="dep-search"]', label);
    await p.press('[data-testid="dep-search"]', 'Enter');
    await p.waitForFunction((l) => document.querySelector('#dep-graph')?.dataset.selected === l, label, { timeout: TIMEOUT_MS });
    await p.click('[data-testid="dep-fit"]');
    await screenshot(p, 'dep-graph-record-tasks');
  } finally {
    await ctx.close();
  }
});

test('a generated 100k-task DAG opens, lays out in the worker and pans / zooms', { timeout: 300_000 }, async () => {
  // A static root: the built site + the generated DAG (the server refuses paths outside it).
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dag100k-'));
  fs.cpSync(DIST, root, { recursive: true });
  const dir = path.join(root, 'data', 'dag-100k');
  const gen = spawnSync('cargo', ['run', '--release', '-q', '-p', 'pypto-cli', '--bin', 'pypto-viewer', '--', 'gen', dir, '--dag', '--tasks', '100000', '--name-map'], { cwd: REPO, encoding: 'utf8' });
  assert.equal(gen.status, 0, `gen --dag failed: ${gen.stderr}`);
  const man = spawnSync('cargo', ['run', '--release', '-q', '-p', 'pypto-cli', '--bin', 'pypto-viewer', '--', 'manifest', dir], { cwd: REPO, encoding: 'utf8' });
  assert.equal(man.status, 0, `manifest failed: ${man.stderr}`);
  const big = await serve(root, 0);
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const p = await ctx.newPage();
  p.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
  try {
    const progress = new Set();
    // The graph (100k tasks ≤ the worker's PREBUILD_MAX_TASKS) is built and laid out when the
    // load ends, before the click, and says so on the console.
    const prebuilt = new Promise((resolve) => p.on('console', (m) => { if (/graph of dataset \d+: built ahead of the click in \d+ ms(?! \(failed)/.test(m.text())) resolve(m.text()); }));
    // Where the click's time goes: the worker's reply and the page's decode and first frame.
    const clickLines = [];
    p.on('console', (m) => { if (/^pypto-(graph page|worker graph reply)/.test(m.text())) clickLines.push(m.text()); });
    await p.goto(`${big.url}/?src=${encodeURIComponent('data/dag-100k/')}`);
    await p.waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: 120_000 });
    await p.click('#datasets li.dataset[data-kind="runtime"]', { position: { x: 40, y: 14 } });
    const prebuiltLine = await Promise.race([prebuilt, new Promise((r) => setTimeout(() => r(null), 120_000))]);
    assert.ok(prebuiltLine, 'the worker built the graph ahead of the click');
    const t0 = Date.now();
    await p.click('[data-testid="view-switch-dep-graph"]');
    // Progress of the layout phases is shown while the worker works.
    const poll = setInterval(async () => {
      const t = await p.evaluate(() => document.body.innerText.match(/Laying out the graph: \w+/)?.[0]).catch(() => null);
      if (t) progress.add(t);
    }, 100);
    await p.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.nodes) > 100_000, null, { timeout: 180_000, polling: 100 });
    clearInterval(poll);
    const clickToGraph = Date.now() - t0;
    const attr = (n) => p.$eval('#dep-graph', (el, k) => el.getAttribute(k), n);
    const nodes = Number(await attr('data-nodes'));
    const layoutMs = Number(await attr('data-layout-ms'));
    const warmupMs = Number(await attr('data-warmup-ms'));
    console.log(`100k DAG (${prebuiltLine.replace(/^pypto-worker /, '')}): ${nodes} nodes, ${(await attr('data-mode-counts')).split(',')[0]} edges; click→graph ${clickToGraph} ms, layout ${layoutMs.toFixed(0)} ms (wasm, worker), warm-up ${warmupMs.toFixed(0)} ms; progress seen: ${[...progress].join(' | ') || 'none'}`);
    console.log(`100k DAG click, where the time went:\n  ${clickLines.join('\n  ')}`);
    assert.ok(layoutMs > 0 && layoutMs < 10_000, `layout time reported: ${layoutMs}`);
    // Pan and zoom: frames are drawn and stay cheap (culled to the viewport once zoomed in).
    const g = await p.locator('#dep-graph').boundingBox();
    const [cx, cy] = [g.x + g.width / 2, g.y + g.height / 2];
    const frameMs = [];
    const frame = async () => {
      await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      frameMs.push(Number(await attr('data-frame-ms')));
    };
    await p.mouse.move(cx, cy);
    await frame();
    // The first fit keeps nodes legible (issue 20): a part of the graph and the minimap.
    assert.ok(Number(await attr('data-node-px')) >= 14, `first fit: nodes ${await attr('data-node-px')} px tall`);
    assert.equal(await attr('data-minimap'), '1', 'the minimap shows the whole graph');
    await screenshot(p, 'dep-graph-100k-first-fit');
    // Fit shows everything.
    await p.click('[data-testid="dep-fit"]');
    await p.mouse.move(cx, cy);
    await frame();
    const fitEdges = Number(await attr('data-visible-edges'));
    await screenshot(p, 'dep-graph-100k-fit');
    // Zoom towards a task in the middle of the graph: search centres it at a legible scale.
    await p.fill('[data-testid="dep-search"]', 'r2t50000');
    await p.press('[data-testid="dep-search"]', 'Enter');
    await p.waitForFunction(() => document.querySelector('#dep-graph')?.dataset.selected === 'r2t50000', null, { timeout: TIMEOUT_MS });
    await frame();
    for (let i = 0; i < 6; i++) {
      await p.mouse.wheel(0, i < 3 ? 300 : -300);
      await frame();
    }
    for (let i = 0; i < 6; i++) {
      await p.mouse.down();
      await p.mouse.move(cx + (i % 2 ? 150 : -150), cy, { steps: 2 });
      await p.mouse.up();
      await frame();
    }
    const zoomedEdges = Number(await attr('data-visible-edges'));
    await screenshot(p, 'dep-graph-100k-zoomed');
    const sorted = [...frameMs].sort((a, b) => a - b);
    console.log(`100k DAG frames: fit ${frameMs[0].toFixed(1)} ms (${fitEdges} edges on screen); zoomed/panning p50 ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms (${zoomedEdges} edges on screen)`);
    assert.ok(zoomedEdges > 0 && zoomedEdges < fitEdges, `edges are culled to the viewport when zoomed in (${zoomedEdges} < ${fitEdges})`);
    assert.ok(Number(await attr('data-scale')) > 0.05, 'zoomed in');
  } finally {
    await ctx.close();
    await big.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
