// The compiler views keep their state in the URL hash (like the swimlane's #ds=<path>&t0=…): the
// IR Pass Trace (pass dump, selected pass, layout, function filter) and the Memory Reuse view
// (snapshot, function, chip override, selected tile). A page opened on the copied URL (the demo
// seeded the way tests/swimlane.test.mjs reloads it: ?src=./demo/#…) shows the same view.
// Also both views at a narrow window (1000×700): no horizontal page overflow, panes usable.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { serve } from './server.mjs';
import { DIST, TIMEOUT_MS, datasetSel, launch, loadVia, openApp, screenshot, summaryOf } from './helpers.mjs';

const FN = 'kernel_online_update';
const TILE = 'oi_new_tile__ssa_v0';
const TRACE_FN = 'PagedAttentionProgram.kernel_online_update';

let server;
let browser;

before(async () => {
  server = await serve(DIST, 0);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function openDemoDump(p) {
  await openApp(p, `${server.url}/`);
  await loadVia(p, () => p.click('#open-demo'));
  const sel = datasetSel('pass_dump', 'paged_attention/passes_dump');
  await summaryOf(p, sel, 'data-passes');
  await p.click(sel, { position: { x: 40, y: 14 } });
  await p.waitForFunction(() => document.querySelectorAll('[data-testid=pass-item]').length > 0, null, { timeout: TIMEOUT_MS });
}

const waitHash = (p, re) => p.waitForFunction((s) => new RegExp(s).test(location.hash), re.source, { timeout: TIMEOUT_MS });

test('pass trace: pass, layout and function filter survive a reload of the URL', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 850 } });
  try {
    const p = await ctx.newPage();
    p.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
    await openDemoDump(p);
    const item = '[data-testid=pass-item][data-name=ConvertToSSA]';
    await p.click(`${item} .pass-name`);
    const pos = await p.getAttribute(item, 'data-pos');
    await p.click('[data-testid=pass-layout-stacked]');
    await p.selectOption('[data-testid=pass-function]', TRACE_FN);
    await p.waitForFunction((f) => document.querySelector('[data-testid=pass-diff]')?.dataset.function === f, TRACE_FN, { timeout: TIMEOUT_MS });
    await waitHash(p, /pass=04_after_ConvertToSSA\.py.*layout=stacked.*fn=PagedAttentionProgram\.kernel_online_update/);
    const hash = await p.evaluate(() => location.hash);
    assert.match(hash, /^#ds=[^&]*passes_dump&/, 'the pass dump by its path');
    // a fresh page on the copied link
    const q = await ctx.newPage();
    q.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
    await q.goto(`${server.url}/?src=./demo/${hash}`);
    await q.waitForFunction(
      ([ps, f]) => {
        const d = document.querySelector('[data-testid=pass-diff]')?.dataset;
        return d && d.pass === ps && d.function === f;
      },
      [pos, TRACE_FN],
      { timeout: TIMEOUT_MS },
    );
    assert.equal(await q.getAttribute(item, 'data-selected'), 'true');
    assert.equal(await q.$eval('[data-testid=pass-layout-stacked]', (e) => e.classList.contains('active')), true);
    assert.equal(await q.$eval('[data-testid=pass-function]', (e) => e.value), TRACE_FN);
    // the hash is kept as it was
    await q.waitForTimeout(400);
    assert.equal(await q.evaluate(() => location.hash), hash);
    await screenshot(q, 'compiler-url-pass-trace-restored');
  } finally {
    await ctx.close();
  }
});

test('memory reuse: snapshot, function, chip and tile survive a reload of the URL', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 850 } });
  try {
    const p = await ctx.newPage();
    p.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
    await openDemoDump(p);
    await p.click('[data-testid=view-switch-memory-map]');
    await p.waitForSelector('[data-testid=mm-summary]', { timeout: TIMEOUT_MS });
    await p.selectOption('[data-testid=mm-chip]', 'Ascend950');
    await p.waitForFunction(() => document.querySelector('[data-testid=mm-page]')?.dataset.chip === 'Ascend950', null, { timeout: TIMEOUT_MS });
    await p.selectOption('[data-testid=mm-function]', FN);
    await p.waitForFunction((fn) => document.querySelector('[data-testid=mm-map]')?.dataset.function === fn, FN, { timeout: TIMEOUT_MS });
    const h = await p.evaluate(() => window.__pyptoMemoryMap());
    const b = h.boxes.find((x) => x.name === TILE);
    await p.mouse.click(b.x + b.w / 2, b.y + Math.min(b.h / 2, 10));
    await p.waitForSelector(`[data-testid=mm-details-table][data-name="${TILE}"]`, { timeout: TIMEOUT_MS });
    await waitHash(p, new RegExp(`view=memory-map.*snap=35_after_AllocateMemoryAddr\\.py&mfn=${FN}&chip=Ascend950&tile=${TILE}`));
    const hash = await p.evaluate(() => location.hash);
    const q = await ctx.newPage();
    q.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
    await q.goto(`${server.url}/?src=./demo/${hash}`);
    await q.waitForFunction(
      ([fn, tile]) => {
        const m = document.querySelector('[data-testid=mm-map]')?.dataset;
        return m && m.function === fn && m.selected === tile;
      },
      [FN, TILE],
      { timeout: TIMEOUT_MS },
    );
    assert.equal(await q.getAttribute('[data-testid=mm-page]', 'data-chip'), 'Ascend950');
    assert.equal(await q.getAttribute('[data-testid=mm-page]', 'data-file'), '35_after_AllocateMemoryAddr.py');
    assert.equal(await q.$eval('[data-testid=mm-chip]', (e) => e.value), 'Ascend950');
    await q.waitForSelector(`[data-testid=mm-details-table][data-name="${TILE}"]`, { timeout: TIMEOUT_MS });
    await q.waitForTimeout(400);
    assert.equal(await q.evaluate(() => location.hash), hash);
    await screenshot(q, 'compiler-url-memory-restored');
    // back to the pass trace: the hash follows the view
    await q.click('[data-testid=view-switch-pass-trace]');
    await waitHash(q, /view=pass-trace/);
  } finally {
    await ctx.close();
  }
});

/** No horizontal page overflow; the element's box lies inside the viewport. */
async function assertFits(p, selector) {
  const r = await p.evaluate((s) => {
    const e = document.querySelector(s).getBoundingClientRect();
    return { left: e.left, right: e.right, width: e.width, height: e.height, vw: innerWidth, sw: document.documentElement.scrollWidth };
  }, selector);
  assert.ok(r.sw <= r.vw + 1, `${selector}: page scrolls sideways (${r.sw} > ${r.vw})`);
  assert.ok(r.right <= r.vw + 1 && r.width > 0 && r.height > 0, `${selector}: ${JSON.stringify(r)}`);
  return r;
}

test('both views at 1000×700', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  try {
    const p = await ctx.newPage();
    p.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
    await openDemoDump(p);
    await p.click('[data-testid=pass-item][data-name=ConvertToSSA] .pass-name');
    await p.waitForSelector('[data-testid=pass-diff] .diff-row', { timeout: TIMEOUT_MS });
    const diff = await assertFits(p, '[data-testid=pass-diff]');
    assert.ok(diff.width > 300, `diff width ${diff.width}`);
    await screenshot(p, 'narrow-pass-trace');
    await p.click('[data-testid=pass-layout-stacked]');
    await screenshot(p, 'narrow-pass-trace-stacked');
    await p.click('[data-testid=view-switch-memory-map]');
    await p.waitForSelector('[data-testid=mm-summary]', { timeout: TIMEOUT_MS });
    await assertFits(p, '[data-testid=mm-page]');
    await screenshot(p, 'narrow-memory-overview');
    await p.selectOption('[data-testid=mm-function]', FN);
    await p.waitForFunction((fn) => document.querySelector('[data-testid=mm-map]')?.dataset.function === fn, FN, { timeout: TIMEOUT_MS });
    const map = await assertFits(p, '[data-testid=mm-map]');
    assert.ok(map.width > 300 && map.height > 250, `map ${JSON.stringify(map)}`);
    await assertFits(p, '[data-testid=mm-source]');
    const h = await p.evaluate(() => window.__pyptoMemoryMap());
    const b = h.boxes.find((x) => x.name === TILE);
    assert.ok(b.visible, 'tile visible');
    await p.mouse.click(b.x + b.w / 2, b.y + Math.min(b.h / 2, 10));
    await p.waitForSelector(`[data-testid=mm-details-table][data-name="${TILE}"]`, { timeout: TIMEOUT_MS });
    await screenshot(p, 'narrow-memory-function');
  } finally {
    await ctx.close();
  }
});
