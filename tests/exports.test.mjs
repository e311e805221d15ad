// Exports of every view (issue 20) in headless Chromium, on the demo: the swimlane's PNG and
// its SVG of the visible window (parsed: lane labels and axis tick labels are <text>, bars are
// <rect>s in function colours, the file name names the dataset and the window), the selected
// task's details as CSV (header, one row per shown field, quoting), the Memory Reuse map as
// PNG and a tile's details as CSV, the IR Pass Trace's diff as PNG (side by side and stacked).
// Every PNG is decoded by the browser: its size follows the view, and it is not blank. The
// exported images are copied to tests/artifacts/ (exports-*.png, exports-swimlane.svg and a
// screenshot of that SVG loaded in a page) to be looked at.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from './server.mjs';
import { DIST, SCREENSHOTS, TIMEOUT_MS, datasetSel, launch, loadVia, openApp, screenshot, summaryOf, zoomToBar } from './helpers.mjs';

let server;
let browser;
let context;
let page;

const api = (fn, ...args) => page.evaluate(([fn, args]) => window.__pyptoSwimlane[fn](...args), [fn, args]);

/** Clicks `selector`, returns the download's suggested name and bytes; keeps a copy as `keep` in artifacts. */
async function download(selector, keep) {
  const [d] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT_MS }), page.click(selector)]);
  const bytes = fs.readFileSync(await d.path());
  if (keep) {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    fs.writeFileSync(path.join(SCREENSHOTS, keep), bytes);
  }
  return { name: d.suggestedFilename(), bytes };
}

/** RFC 4180 parse (quoted fields with commas, quotes, line breaks); the BOM dropped. */
function parseCsv(text) {
  const s = text.replace(/^\uFEFF/, '');
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && s[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Decodes a PNG in the page: its size and how many distinct colours a 40 × 40 sample grid holds. */
async function decodePng(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    for (let gy = 0; gy < 40; gy += 1) {
      for (let gx = 0; gx < 40; gx += 1) {
        const x = Math.floor(((gx + 0.5) * c.width) / 40);
        const y = Math.floor(((gy + 0.5) * c.height) / 40);
        const k = (y * c.width + x) * 4;
        colours.add(`${data[k]},${data[k + 1]},${data[k + 2]},${data[k + 3]}`);
      }
    }
    return { w: c.width, h: c.height, colours: colours.size };
  }, bytes.toString('base64'));
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
});

after(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

test('swimlane PNG: the canvas at device pixels, named by dataset and window, not blank', async () => {
  const { t0, t1 } = await api('state');
  const { name, bytes } = await download('[data-testid=swimlane-export-png]', 'exports-swimlane.png');
  assert.match(name, /^swimlane-dfx_outputs--?[\d.]+--?[\d.]+us\.png$/);
  const [, a, b] = /-(-?[\d.]+)-(-?[\d.]+)us\.png$/.exec(name);
  assert.ok(Math.abs(Number(a) - t0) < 0.001 && Math.abs(Number(b) - t1) < 0.001, `${name} vs ${t0}–${t1}`);
  const png = await decodePng(bytes);
  const canvas = await page.$eval('#swimlane-gl', (c) => ({ w: c.width, h: c.height }));
  assert.deepEqual({ w: png.w, h: png.h }, canvas);
  assert.ok(png.colours > 8, `not blank: ${png.colours} colours`);
});

test('task details CSV: header, one row per shown field, the title first', async () => {
  const { groups } = await api('groups');
  const worker = groups.find((g) => g.view === 'Worker View');
  const track = worker.tracks.find((t) => t.bars > 2);
  const rect = await zoomToBar(page, track.index, 1, 12);
  await page.mouse.click(rect.x + rect.w / 2, rect.y + rect.h / 2);
  await page.waitForSelector('#task-details [data-complete="true"] .details-title', { timeout: TIMEOUT_MS });
  const shown = await page.$$eval('#task-details table.details tr', (trs) => trs.map((tr) => [tr.querySelector('th').textContent, tr.querySelector('td').textContent]));
  const title = await page.textContent('#task-details .details-title');
  const { name, bytes } = await download('[data-testid=task-details-csv]', 'exports-task-details.csv');
  assert.match(name, /^task-details-dfx_outputs-.+\.csv$/);
  const text = bytes.toString('utf8');
  assert.ok(text.startsWith('\uFEFF'), 'UTF-8 byte-order mark');
  const rows = parseCsv(text);
  assert.deepEqual(rows[0], ['field', 'value']);
  assert.deepEqual(rows[1], ['title', title]);
  assert.equal(rows.length, shown.length + 2, 'header, title, one row per field');
  assert.deepEqual(rows.slice(2), shown);
  assert.ok(rows.every((r) => r.length === 2));
  assert.ok(shown.some(([k]) => /^Arg \d+$/.test(k)), `tensor arguments shown: ${shown.map((r) => r[0])}`);
  // A field with a comma (argument shapes, fan-in lists) survives the quoting.
  assert.ok(rows.some(([, v]) => v.includes(',')), 'a quoted field');
});

test('swimlane SVG of the visible window: lanes, bars, axis; text as text', async () => {
  // (The previous test selected a task: its bar is outlined.)
  const { groups } = await api('groups');
  const { t0, t1, selected } = await api('state');
  assert.ok(selected, 'a task is selected');
  const { name, bytes } = await download('[data-testid=swimlane-export-svg]', 'exports-swimlane.svg');
  assert.match(name, /^swimlane-dfx_outputs--?[\d.]+--?[\d.]+us\.svg$/);
  const [, a, b] = /-(-?[\d.]+)-(-?[\d.]+)us\.svg$/.exec(name);
  assert.ok(Math.abs(Number(a) - t0) < 0.001 && Math.abs(Number(b) - t1) < 0.001, `${name} vs ${t0}–${t1}`);
  const svgText = bytes.toString('utf8');
  const facts = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const root = doc.documentElement;
    const texts = [...doc.querySelectorAll('text')].map((t) => ({ text: t.textContent, x: Number(t.getAttribute('x')), y: Number(t.getAttribute('y')) }));
    const fills = new Set([...doc.querySelectorAll('rect')].map((r) => r.getAttribute('fill')));
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      root: root.nodeName,
      width: Number(root.getAttribute('width')),
      height: Number(root.getAttribute('height')),
      texts,
      rects: doc.querySelectorAll('rect').length,
      fills: fills.size,
    };
  }, svgText);
  assert.equal(facts.error, null);
  assert.equal(facts.root, 'svg');
  const css = await page.$eval('#swimlane-gl', (c) => ({ w: c.clientWidth, h: c.clientHeight }));
  assert.ok(Math.abs(facts.width - css.w) <= 1 && Math.abs(facts.height - css.h) <= 1, `SVG ${facts.width}×${facts.height} vs ${css.w}×${css.h}`);
  const labels = new Set(facts.texts.map((t) => t.text));
  const laneLabels = groups.flatMap((g) => g.tracks.map((t) => t.label)).filter((l) => labels.has(l) || [...labels].some((x) => x.endsWith('…') && l.startsWith(x.slice(0, -1))));
  assert.ok(laneLabels.length >= 3, `lane labels as text: ${laneLabels.slice(0, 5)}`);
  // The axis's tick labels: text in the axis band (16–42 px), right of the 150 px gutter, with a time unit.
  const ticks = facts.texts.filter((t) => t.y > 16 && t.y < 42 && t.x > 150 && /\d\s*(ns|µs|us|ms|s)\b/.test(t.text));
  assert.ok(ticks.length >= 3, `tick labels: ${JSON.stringify(ticks.slice(0, 4))}`);
  // Every rect the frame drew (bars, stripes, overlays) is a <rect>, plus the text layer's.
  const drawn = Number(await page.$eval('#swimlane', (e) => e.dataset.drawnRects));
  assert.ok(drawn > 10 && facts.rects >= drawn, `bars as rects: ${facts.rects} (frame: ${drawn})`);
  assert.ok(facts.fills >= 6, `function colours: ${facts.fills}`);
  // Look at it: the SVG loaded in a page of its own.
  const view = await context.newPage();
  await view.setViewportSize({ width: Math.ceil(facts.width), height: Math.ceil(facts.height) });
  await view.setContent(svgText.replace(/^<\?xml[^>]*>\s*/, ''));
  await screenshot(view, 'exports-swimlane-svg');
  await view.close();
});

test('memory map PNG and tile details CSV', async () => {
  const sel = datasetSel('pass_dump', 'paged_attention/passes_dump');
  await page.click(sel, { position: { x: 40, y: 14 } });
  await page.click('[data-testid=view-switch-memory-map]');
  await page.waitForSelector('[data-testid=mm-summary]', { timeout: TIMEOUT_MS });
  const FN = 'kernel_online_update';
  await page.locator('[data-testid=mm-overview-row]', { has: page.locator(`[data-col=function]:text-is("${FN}")`) }).first().click();
  await page.waitForFunction((fn) => document.querySelector('[data-testid=mm-map]')?.dataset.function === fn, FN, { timeout: TIMEOUT_MS });
  const h = await page.evaluate(() => window.__pyptoMemoryMap());
  const box = h.boxes.find((b) => b.visible && b.w >= 4 && b.h >= 4);
  await page.mouse.click(box.x + box.w / 2, box.y + Math.min(box.h / 2, 10));
  await page.waitForSelector(`[data-testid=mm-details-table][data-name="${box.name}"]`, { timeout: TIMEOUT_MS });

  const png = await download('[data-testid=mm-export-png]', 'exports-memory-map.png');
  assert.match(png.name, /^memory-map-.*AllocateMemoryAddr.*-kernel_online_update\.png$/);
  const img = await decodePng(png.bytes);
  const canvas = await page.$eval('[data-testid=mm-map] canvas.gl-layer', (c) => ({ w: c.width, h: c.height }));
  assert.deepEqual({ w: img.w, h: img.h }, canvas);
  assert.ok(img.w > 400 && img.h > 200, `${img.w}×${img.h}`);
  assert.ok(img.colours > 6, `not blank: ${img.colours} colours`);

  const shown = await page.$$eval('[data-testid=mm-details-table] tr', (trs) => trs.map((tr) => tr.querySelector('th').textContent));
  const csv = await download('[data-testid=mm-details-csv]', 'exports-tile-details.csv');
  assert.equal(csv.name, `${png.name.replace(/^memory-map-/, 'tile-details-').replace(/\.png$/, '')}-${box.name}.csv`);
  const rows = parseCsv(csv.bytes.toString('utf8'));
  assert.deepEqual(rows[0], ['field', 'value']);
  assert.equal(rows.length, 14, 'header and 13 fields');
  const fields = Object.fromEntries(rows.slice(1));
  assert.equal(fields.tile, box.name);
  assert.equal(fields.address, await page.textContent('[data-testid=mm-detail-address]'));
  assert.equal(fields.size, await page.textContent('[data-testid=mm-detail-size]'));
  // every row the table shows is in the CSV (the CSV also has the empty conflict / reuse rows)
  for (const k of shown) assert.ok(k in fields, `${k} in the CSV`);
  const usedKey = Object.keys(fields).find((k) => k.startsWith('used at ('));
  assert.equal(fields[usedKey].split(', ').filter(Boolean).length, Number(/\((\d+)\)/.exec(usedKey)[1]), 'every use line');
  await screenshot(page, 'exports-memory-map-page');
});

test('IR Pass Trace diff PNG: side by side and stacked, legible and not blank', async () => {
  await page.click('[data-testid=view-switch-pass-trace]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=pass-diff]')?.dataset.rows) > 0, null, { timeout: TIMEOUT_MS });
  const diff = await page.$eval('[data-testid=pass-diff]', (e) => ({ w: e.getBoundingClientRect().width, ...e.dataset }));
  const side = await download('[data-testid=pass-diff-png]', 'exports-pass-diff.png');
  assert.match(side.name, /^pass-trace-.+-vs-.+\.png$/);
  const img = await decodePng(side.bytes);
  assert.ok(Math.abs(img.w - 2 * diff.w) <= 4, `twice the panes' width: ${img.w} vs ${diff.w}`);
  assert.ok(img.h > 200, `${img.h}`);
  assert.ok(img.colours > 6, `not blank: ${img.colours} colours`);
  await page.click('[data-testid=pass-layout-stacked]');
  const stacked = await download('[data-testid=pass-diff-png]', 'exports-pass-diff-stacked.png');
  const img2 = await decodePng(stacked.bytes);
  assert.ok(img2.colours > 6, `not blank: ${img2.colours} colours`);
  await page.click('[data-testid=pass-layout-side]');
  await screenshot(page, 'exports-pass-trace-page');
});
