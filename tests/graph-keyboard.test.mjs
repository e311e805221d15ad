// Keyboard through the task dependency graph (issue 20, item 5), on the demo capture
// (TestPagedAttention L4): the canvas is focusable and says its keys; `]` / `[` (n / p) step
// through the tasks in reading order, ↓ follows an edge to a successor and ↑ to a predecessor
// (top to bottom; → / ← left to right), the other arrows move within a layer; the selection is
// highlighted like a click's (its predecessors and successors), shown in the details, brought
// on screen when it was off it, and announced in the polite live region `dep-announce` (English
// and Chinese); the shortcut sheet lists the keys. Screenshot:
// tests/artifacts/graph-keyboard-selected.png.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TIMEOUT_MS, datasetSel, loadVia, openApp, screenshot, serveDistAndLaunch, summaryOf } from './helpers.mjs';

const env = serveDistAndLaunch();

async function openGraph(locale) {
  const context = await env.browser.newContext({ viewport: { width: 1500, height: 950 }, locale });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`pageerror: ${err.message}`));
  await openApp(page, `${env.server.url}/`);
  await loadVia(page, () => page.click('#open-demo'));
  const sel = datasetSel('runtime', 'paged_attention/dfx_outputs');
  await summaryOf(page, sel);
  await page.click(sel, { position: { x: 40, y: 14 } });
  await page.click('[data-testid="view-switch-dep-graph"]');
  await page.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.nodes) > 0, null, { timeout: TIMEOUT_MS });
  return { context, page };
}

const attr = (page, name) => page.$eval('#dep-graph', (el, n) => el.getAttribute(n), name);
const announced = (page) => page.textContent('[data-testid=dep-announce]');
const layoutOf = async (page) => (await attr(page, 'data-selected-layout')).split(',').map(Number);

/** Presses `key` on the focused graph; waits for the selection to leave `before`; returns it. */
async function press(page, key, before) {
  await page.keyboard.press(key);
  await page.waitForFunction((b) => {
    const s = document.querySelector('#dep-graph')?.dataset.selected;
    return s && s !== b;
  }, before, { timeout: TIMEOUT_MS });
  return attr(page, 'data-selected');
}

/** The highlighted predecessors and successors of the selection (depth 1: its neighbours). */
async function neighbours(page) {
  const hl = (await attr(page, 'data-highlight')).split(',').filter(Boolean);
  return { preds: hl.filter((h) => h.startsWith('<')).map((h) => h.slice(1)), succs: hl.filter((h) => h.startsWith('>')).map((h) => h.slice(1)) };
}

test('the graph is driven by keyboard: reading order, edges, layers, reveal, live region', { timeout: 180_000 }, async () => {
  const { context, page } = await openGraph('en-US');
  try {
    const graph = page.locator('#dep-graph');
    assert.equal(await graph.getAttribute('tabindex'), '0');
    assert.equal(await graph.getAttribute('role'), 'application');
    const label = await graph.getAttribute('aria-label');
    assert.match(label, /\] and \[ next and previous task; ↓ to a successor, ↑ to a predecessor, ← → within a layer/);
    assert.equal(await attr(page, 'data-direction'), 'TB');
    const total = Number(await attr(page, 'data-nodes'));
    assert.equal(await page.getAttribute('[data-testid=dep-announce]', 'aria-live'), 'polite');

    // ] from nothing: the first task in reading order — the top layer, no predecessor.
    await page.focus('#dep-graph');
    const first = await press(page, ']', '');
    assert.match(await announced(page), new RegExp(`^Task ${first} · \\S.* · (AIC|AIV|MIX|ALLOC|DUMMY) · 0 predecessors, \\d+ successors? · 1 of ${total}$`));
    const details = await page.$$eval('[data-testid=dep-details] table.details tr', (rows) => Object.fromEntries(rows.map((r) => [r.querySelector('th').textContent, r.querySelector('td').textContent.trim()])));
    assert.equal(details.task, first, 'the details show the keyboard selection');
    assert.equal((await neighbours(page)).preds.length, 0);
    // ↑ at the top: nothing to follow, said so, the selection kept.
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction((t) => document.querySelector('[data-testid=dep-announce]').textContent === `${t} has no predecessor in this edge mode`, first, { timeout: TIMEOUT_MS });
    assert.equal(await attr(page, 'data-selected'), first);

    // ] and [ step through the reading order, by layer.
    const [, y1] = await layoutOf(page);
    const second = await press(page, ']', first);
    assert.match(await announced(page), new RegExp(`^Task ${second} · .* · 2 of ${total}$`));
    assert.ok((await layoutOf(page))[1] >= y1, 'reading order goes down the layers');
    assert.equal(await press(page, '[', second), first, '[ steps back');
    const last = await press(page, 'p', first);
    assert.match(await announced(page), new RegExp(` · ${total} of ${total}$`), 'p from the first task wraps to the last');
    assert.equal(await press(page, 'n', last), first, 'n wraps to the first');

    // ↓ follows an edge to a successor, ↑ back to a predecessor, several layers deep.
    let at = first;
    for (let step = 0; step < 3; step++) {
      const { succs } = await neighbours(page);
      if (!succs.length) break;
      const [, yBefore] = await layoutOf(page);
      const next = await press(page, 'ArrowDown', at);
      assert.ok(succs.includes(next), `↓ from ${at} reaches a successor (${next} of ${succs})`);
      assert.ok((await layoutOf(page))[1] > yBefore, 'a successor lies below');
      assert.ok((await neighbours(page)).preds.includes(at), `${at} is highlighted as ${next}'s predecessor`);
      at = next;
    }
    assert.notEqual(at, first, 'the first task has a successor');
    const { preds } = await neighbours(page);
    const back = await press(page, 'ArrowUp', at);
    assert.ok(preds.includes(back), `↑ from ${at} reaches a predecessor (${back} of ${preds})`);

    // → / ← within a layer: the same layer coordinate, further right / left.
    const [x0, y0] = await layoutOf(page);
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(200);
    const right = await attr(page, 'data-selected');
    if (right !== back) {
      const [x, y] = await layoutOf(page);
      assert.ok(Math.abs(y - y0) < 1 && x > x0, `→ stays in the layer: ${x0},${y0} → ${x},${y}`);
      assert.equal(await press(page, 'ArrowLeft', right), back, '← comes back');
    } else {
      assert.equal(await announced(page), 'No further task in this layer');
    }

    // Off screen (dragged away): the next move brings the selection on screen.
    const box = await graph.boundingBox();
    for (let k = 0; k < 2; k++) {
      // Along the top edge (the minimap sits at the bottom right), right to left.
      await page.mouse.move(box.x + box.width * 0.8, box.y + 20);
      await page.mouse.down();
      await page.mouse.move(box.x + 10, box.y + 20, { steps: 8 });
      await page.mouse.up();
    }
    await page.waitForFunction(() => Number(document.querySelector('#dep-graph').dataset.selectedScreen.split(',')[0]) < 0, null, { timeout: TIMEOUT_MS });
    await page.focus('#dep-graph');
    const revealed = await press(page, ']', await attr(page, 'data-selected'));
    const [sx, sy] = (await attr(page, 'data-selected-screen')).split(',').map(Number);
    assert.ok(sx > 0 && sx < box.width && sy > 0 && sy < box.height, `${revealed} is brought on screen: ${sx},${sy} in ${box.width}x${box.height}`);
    assert.ok(Number(await attr(page, 'data-node-px')) >= 4, 'big enough to see its outline');
    await page.waitForTimeout(300);
    await screenshot(page, 'graph-keyboard-selected');

    // Zoomed far out (sub-pixel nodes): the next move zooms in to see the selection, centred.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let k = 0; k < 20; k++) await page.mouse.wheel(0, 1000);
    await page.waitForFunction(() => Number(document.querySelector('#dep-graph').dataset.nodePx) < 1, null, { timeout: TIMEOUT_MS });
    await page.focus('#dep-graph');
    await press(page, ']', await attr(page, 'data-selected'));
    await page.waitForFunction(() => Number(document.querySelector('#dep-graph').dataset.nodePx) >= 20, null, { timeout: TIMEOUT_MS });
    const [cx, cy] = (await attr(page, 'data-selected-screen')).split(',').map(Number);
    assert.ok(Math.abs(cx - box.width / 2) < 2 && Math.abs(cy - box.height / 2) < 2, `zoomed in on the selection, centred: ${cx},${cy}`);

    // Left to right: → follows the edges.
    await page.click('[data-testid=dep-direction]');
    await page.waitForFunction(() => document.querySelector('#dep-graph')?.dataset.direction === 'LR', null, { timeout: TIMEOUT_MS });
    await page.waitForFunction(() => /→ to a successor, ← to a predecessor, ↑ ↓ within a layer/.test(document.querySelector('#dep-graph').getAttribute('aria-label')), null, { timeout: TIMEOUT_MS });
    await page.focus('#dep-graph');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('#dep-graph').dataset.selected, null, { timeout: TIMEOUT_MS });
    assert.equal(await announced(page), 'Selection cleared');
    const lrFirst = await press(page, ']', '');
    const { succs } = await neighbours(page);
    assert.ok(succs.length > 0, `${lrFirst} has a successor`);
    const [xa] = await layoutOf(page);
    const lrNext = await press(page, 'ArrowRight', lrFirst);
    assert.ok(succs.includes(lrNext), `→ from ${lrFirst} reaches a successor (${lrNext} of ${succs})`);
    assert.ok((await layoutOf(page))[0] > xa, 'a successor lies to the right');
    await screenshot(page, 'graph-keyboard-selected-lr');
    await page.click('[data-testid=dep-direction]');

    // The sheet lists the keys.
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid=shortcut-sheet]', { timeout: TIMEOUT_MS });
    const rows = await page.$$eval('[data-testid=shortcut-row]', (els) => els.map((e) => `${e.dataset.action}:${e.dataset.keys}`));
    for (const row of ['NextItem:] n', 'PreviousItem:[ p', 'MoveDown:ArrowDown', 'MoveUp:ArrowUp', 'MoveRight:ArrowRight', 'MoveLeft:ArrowLeft']) {
      assert.ok(rows.includes(row), `the sheet lists ${row}: ${rows}`);
    }
  } finally {
    await context.close();
  }
});

test('the live region speaks Chinese on a Chinese page', { timeout: 120_000 }, async () => {
  const { context, page } = await openGraph('zh-CN');
  try {
    assert.match(await page.getAttribute('#dep-graph', 'aria-label'), /^任务依赖图，共 \d+ 个任务。/);
    await page.focus('#dep-graph');
    const first = await press(page, ']', '');
    assert.match(await announced(page), new RegExp(`^任务 ${first} · .* · 0 个前驱，\\d+ 个后继 · 第 1 个，共 \\d+ 个$`));
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction((t) => document.querySelector('[data-testid=dep-announce]').textContent === `${t} 在当前边模式下没有前驱`, first, { timeout: TIMEOUT_MS });
  } finally {
    await context.close();
  }
});
