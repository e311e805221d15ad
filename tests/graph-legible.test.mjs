// A graph you can read when it opens (issue 20), in headless Chromium. A generated DAG of 24
// disconnected components (`pypto-viewer gen --dag --components 24`): the worker packs the
// components to the canvas's aspect ratio; the first fit keeps nodes at least 14 px tall, so it
// shows the largest component and a minimap of the whole graph, whose press and drag move the
// view; a wheel event of any size zooms by at most ×1.25. The demo capture: the 🔥/⭐ markers
// are drawn shapes (canvas, legend, details; no emoji in the canvas text), and the PNG, SVG
// and CSV exports download with their content. Screenshots: tests/artifacts/graph-legible-*.png.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from './server.mjs';
import { DIST, REPO, SCREENSHOTS, TIMEOUT_MS, datasetSel, launch, loadVia, openApp, screenshot, summaryOf } from './helpers.mjs';

const MIN_NODE_PX = 14;
const WHEEL_STEP_MAX = 1.25;
const COMPONENTS = 24;

let root;
let server;
let browser;

function cli(args) {
  const run = spawnSync('cargo', ['run', '--release', '-q', '-p', 'pypto-cli', '--bin', 'pypto-viewer', '--', ...args], { cwd: REPO, encoding: 'utf8' });
  assert.equal(run.status, 0, `pypto-viewer ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
}

const attr = (p, name) => p.$eval('#dep-graph', (el, n) => el.getAttribute(n), name);
const frames = (p) => p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

before(async () => {
  // A static root: the built site and the generated graph (the server serves only below it).
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'graph-legible-'));
  fs.cpSync(DIST, root, { recursive: true });
  const dir = path.join(root, 'data', 'dag-components');
  cli(['gen', dir, '--dag', '--tasks', '6000', '--components', String(COMPONENTS), '--name-map']);
  cli(['manifest', dir]);
  server = await serve(root, 0);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

async function openGenerated() {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const p = await ctx.newPage();
  p.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
  await p.goto(`${server.url}/?src=${encodeURIComponent('data/dag-components/')}`);
  await p.waitForSelector('body[data-load-state="done"]', { state: 'attached', timeout: 120_000 });
  await p.click('#datasets li.dataset[data-kind="runtime"]', { position: { x: 40, y: 14 } });
  await p.click('[data-testid="view-switch-dep-graph"]');
  await p.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.nodes) > 0, null, { timeout: 120_000 });
  await frames(p);
  return { ctx, p };
}

async function openDemo() {
  const ctx = await browser.newContext({ viewport: { width: 1500, height: 950 }, acceptDownloads: true });
  const p = await ctx.newPage();
  p.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
  await openApp(p, `${server.url}/`);
  await loadVia(p, () => p.click('#open-demo'));
  const sel = datasetSel('runtime', 'paged_attention/dfx_outputs');
  await summaryOf(p, sel);
  await p.click(sel, { position: { x: 40, y: 14 } });
  await p.click('[data-testid="view-switch-dep-graph"]');
  await p.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.nodes) > 0, null, { timeout: TIMEOUT_MS });
  await frames(p);
  return { ctx, p };
}

/** The minimap's viewport rectangle, page px. */
const viewRect = (p) => p.$eval('[data-testid="dep-minimap-view"]', (el) => { const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height, cx: r.x + r.width / 2, cy: r.y + r.height / 2 }; });

test('many components: packed, a legible first fit of the largest one, a minimap that moves the view', { timeout: 300_000 }, async () => {
  const { ctx, p } = await openGenerated();
  try {
    assert.equal(Number(await attr(p, 'data-components')), COMPONENTS, 'one component per generated stream');
    const nodePx = Number(await attr(p, 'data-node-px'));
    assert.ok(nodePx >= MIN_NODE_PX, `first fit: nodes ${nodePx} px tall (>= ${MIN_NODE_PX})`);
    assert.equal(await attr(p, 'data-fit'), 'largest', 'everything cannot be legible: the largest component is shown');
    assert.equal(await attr(p, 'data-minimap'), '1', 'the minimap shows');
    const mm = await p.locator('[data-testid="dep-minimap"]').boundingBox();
    const g = await p.locator('#dep-graph').boundingBox();
    assert.ok(mm && mm.width > 40 && mm.height > 20, `minimap box ${JSON.stringify(mm)}`);
    assert.ok(mm.x + mm.width <= g.x + g.width && mm.y + mm.height <= g.y + g.height && mm.x > g.x + g.width / 2, 'in the canvas\'s bottom-right corner');
    await screenshot(p, 'graph-legible-many-open');
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await p.screenshot({ path: path.join(SCREENSHOTS, 'graph-legible-minimap.png'), clip: { x: mm.x - 10, y: mm.y - 10, width: mm.width + 20, height: mm.height + 20 } });
    // The packed drawing approaches the canvas's shape: Fit shows it all, nodes tiny but the
    // width used and the height used are both most of the canvas.
    await p.click('[data-testid="dep-fit"]');
    await frames(p);
    assert.equal(await attr(p, 'data-minimap'), '0', 'everything on screen: no minimap');
    await screenshot(p, 'graph-legible-many-fit');
    const fitScale = Number(await attr(p, 'data-scale'));
    const cam = await p.evaluate(() => new URLSearchParams(location.hash.slice(1)).toString());
    console.log(`24 components: first fit ${nodePx} px nodes; Fit scale ${fitScale}; ${cam.slice(0, 120)}`);
    await p.focus('#dep-graph');
    // Back to a legible zoom (wheel in at the centre), the minimap again.
    await p.mouse.move(g.x + g.width / 2, g.y + g.height / 2);
    for (let i = 0; i < 30 && Number(await attr(p, 'data-node-px')) < 20; i++) {
      await p.mouse.wheel(0, -400);
      await frames(p);
    }
    assert.equal(await attr(p, 'data-minimap'), '1');
    // A press in the minimap centres the view there; a drag follows the pointer.
    const target = { x: mm.x + mm.width * 0.3, y: mm.y + mm.height * 0.6 };
    await p.mouse.click(target.x, target.y);
    await frames(p);
    let r = await viewRect(p);
    assert.ok(Math.abs(r.cx - target.x) < 3 && Math.abs(r.cy - target.y) < 3, `view centred on the press: ${JSON.stringify(r)} vs ${JSON.stringify(target)}`);
    assert.equal(await attr(p, 'data-selected'), null, 'a press in the minimap selects no node');
    const to = { x: mm.x + mm.width * 0.7, y: mm.y + mm.height * 0.4 };
    await p.mouse.move(target.x, target.y);
    await p.mouse.down();
    await p.mouse.move(to.x, to.y, { steps: 5 });
    await p.mouse.up();
    await frames(p);
    r = await viewRect(p);
    assert.ok(Math.abs(r.cx - to.x) < 3 && Math.abs(r.cy - to.y) < 3, `view follows the drag: ${JSON.stringify(r)} vs ${JSON.stringify(to)}`);
    await screenshot(p, 'graph-legible-minimap-moved');
  } finally {
    await ctx.close();
  }
});

test('a wheel event zooms by at most one bounded step, whatever its delta', { timeout: 120_000 }, async () => {
  const { ctx, p } = await openGenerated();
  try {
    const g = await p.locator('#dep-graph').boundingBox();
    await p.mouse.move(g.x + g.width / 2, g.y + g.height / 2);
    const wheel = async (deltaY, deltaMode) => {
      const before = Number(await attr(p, 'data-scale'));
      await p.$eval('#dep-graph', (el, [dy, dm, x, y]) => {
        el.dispatchEvent(new WheelEvent('wheel', { deltaY: dy, deltaMode: dm, clientX: x, clientY: y, bubbles: true, cancelable: true }));
      }, [deltaY, deltaMode, g.x + g.width / 2, g.y + g.height / 2]);
      await frames(p);
      return Number(await attr(p, 'data-scale')) / before;
    };
    for (const [dy, mode] of [[-100000, 0], [-5, 1], [-3, 2]]) {
      const k = await wheel(dy, mode);
      assert.ok(k > 1 && k <= WHEEL_STEP_MAX + 1e-3, `zoom in by deltaY ${dy} (mode ${mode}): ×${k}`);
    }
    for (const [dy, mode] of [[100000, 0], [5, 1], [3, 2]]) {
      const k = await wheel(dy, mode);
      assert.ok(k < 1 && k >= 1 / WHEEL_STEP_MAX - 1e-3, `zoom out by deltaY ${dy} (mode ${mode}): ×${k}`);
    }
    // The real wheel (Chromium's own event) too.
    const before = Number(await attr(p, 'data-scale'));
    await p.mouse.wheel(0, -5000);
    await frames(p);
    const k = Number(await attr(p, 'data-scale')) / before;
    assert.ok(k > 1 && k <= WHEEL_STEP_MAX + 1e-3, `mouse wheel -5000: ×${k}`);
  } finally {
    await ctx.close();
  }
});

test('demo: markers are drawn shapes; PNG, SVG and CSV exports', { timeout: 180_000 }, async () => {
  const { ctx, p } = await openDemo();
  try {
    assert.ok(Number(await attr(p, 'data-node-px')) >= MIN_NODE_PX, `demo first fit: ${await attr(p, 'data-node-px')} px`);
    await screenshot(p, 'graph-legible-demo-open');
    const [fires, stars] = (await attr(p, 'data-marker-counts')).split(',').map(Number);
    assert.ok(fires > 0, `the demo has flames (${fires}; stars ${stars})`);
    // The legend shows the same drawn shapes, no emoji anywhere in the view's text.
    assert.equal(await p.locator('[data-testid="dep-legend-markers"] svg.dep-marker-icon[data-marker="fire"] path').count(), 2);
    assert.equal(await p.locator('[data-testid="dep-legend-markers"] svg.dep-marker-icon[data-marker="star"] path').count(), 1);
    const pageText = await p.textContent('.dep-graph-page');
    assert.ok(!/[\u{1F525}\u{2B50}]/u.test(pageText), 'no 🔥/⭐ characters in the graph view');
    // Zoomed in on an alloc task (flame): the canvas draws marker shapes and no emoji text.
    await p.fill('[data-testid="dep-search"]', 'aloc');
    await p.press('[data-testid="dep-search"]', 'Enter');
    await p.waitForFunction(() => /^1 of \d+/.test(document.querySelector('[data-testid="dep-search-msg"]')?.textContent ?? ''), null, { timeout: TIMEOUT_MS });
    await frames(p);
    const [drawnFire, drawnStar] = (await attr(p, 'data-markers-drawn')).split(',').map(Number);
    assert.ok(drawnFire > 0, `flames drawn: ${drawnFire} (stars ${drawnStar})`);
    assert.equal(await attr(p, 'data-text-emoji'), '0', 'no canvas string holds an emoji');
    // The details show the same shape.
    await p.waitForSelector('[data-testid="dep-details-markers"] svg[data-marker="fire"]', { timeout: TIMEOUT_MS });
    await screenshot(p, 'graph-legible-markers');
    // A node with the star, zoomed in, for the screenshot.
    const g = await p.locator('#dep-graph').boundingBox();
    await p.mouse.move(g.x + g.width / 2, g.y + g.height / 2);
    await p.mouse.wheel(0, -300);
    await frames(p);
    await screenshot(p, 'graph-legible-markers-zoomed');

    // PNG: the canvas as drawn.
    const [png] = await Promise.all([p.waitForEvent('download'), p.click('[data-testid="dep-export-png"]')]);
    assert.match(png.suggestedFilename(), /\.png$/);
    const pngBytes = fs.readFileSync(await png.path());
    assert.deepEqual([...pngBytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG');
    const dpr = await p.evaluate(() => devicePixelRatio);
    assert.equal(pngBytes.readUInt32BE(16), Math.round(g.width * dpr), 'as wide as the canvas');
    assert.ok(pngBytes.length > 10_000, `PNG of ${pngBytes.length} bytes`);
    // SVG: every node a rect with its label as text, every shown edge a path.
    const selected = await attr(p, 'data-selected');
    const [svg] = await Promise.all([p.waitForEvent('download'), p.click('[data-testid="dep-export-svg"]')]);
    assert.match(svg.suggestedFilename(), /\.svg$/);
    const svgText = fs.readFileSync(await svg.path(), 'utf8');
    assert.ok(svgText.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'), svgText.slice(0, 80));
    const nodes = Number(await attr(p, 'data-nodes'));
    assert.equal(svgText.match(/<g class="node"/g)?.length, nodes, 'a group per node');
    assert.ok(svgText.includes(`>${selected}</text>`), `the label ${selected} is a <text>`);
    assert.ok(/<text [^>]*>alloc<\/text>/.test(svgText), 'function names are <text>');
    const shown = Number((await attr(p, 'data-mode-counts')).split(',')[0]);
    assert.equal(svgText.match(/marker-end="url\(#arrow\)"/g)?.length, shown, 'a path per shown edge');
    assert.equal(svgText.match(/<path class="marker-fire"/g)?.length, 2 * fires, 'flames as drawn paths (outline, core)');
    assert.equal(svgText.match(/<path class="marker-star"/g)?.length ?? 0, stars, 'stars as drawn paths');
    assert.ok(!/[\u{1F525}\u{2B50}]/u.test(svgText), 'no emoji in the SVG');
    fs.writeFileSync(path.join(SCREENSHOTS, 'graph-legible-export.svg'), svgText);
    // CSV: the nodes, and the selected node's two tables.
    const [csv] = await Promise.all([p.waitForEvent('download'), p.click('[data-testid="dep-export-csv"]')]);
    const csvLines = fs.readFileSync(await csv.path(), 'utf8').replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
    assert.equal(csvLines[0], 'task,function,kind,block_num,markers,in-degree,out-degree,x,y', 'header row');
    assert.equal(csvLines.length, nodes + 1, 'a row per node');
    assert.ok(csvLines.some((l) => l.startsWith(`${selected},alloc,ALLOC,`)), `the row of ${selected}`);
    for (const [table, header] of [['dep-args', 'index,type,tensor,dtype,shape,strides,offset'], ['dep-edges', 'edge,peer,source,flags,arg,tensor,overlap']]) {
      await p.waitForSelector(`[data-testid="${table}-csv"]`, { timeout: TIMEOUT_MS });
      const [d] = await Promise.all([p.waitForEvent('download'), p.click(`[data-testid="${table}-csv"]`)]);
      const lines = fs.readFileSync(await d.path(), 'utf8').replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
      assert.equal(lines[0], header, `${table}: header row`);
      assert.equal(lines.length - 1, Number(await p.$eval(`[data-testid="${table}"]`, (el) => el.dataset.rows)), `${table}: a row per table row`);
      assert.match(d.suggestedFilename(), new RegExp(`^${selected}-`), `${table}: named after the task`);
    }
  } finally {
    await ctx.close();
  }
});
