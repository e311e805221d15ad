// Issue 20, items 1, 3 and 8: the page in English and Simplified Chinese (the browser's language
// decides, the switch persists), the `?` shortcut sheet generated from the binding table (a
// remapped key shows remapped and works), the landing page's demo link, and the swimlane's
// first-visit tour (dismissed once, never again). Screenshots of every view in Chinese:
// i18n-zh-*.png (looked at: CJK glyphs render).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TIMEOUT_MS, datasetSel, screenshot, serveDistAndLaunch, waitLoadDone, withPage } from './helpers.mjs';

const env = serveDistAndLaunch();
const HAN = /[\u4e00-\u9fff]/;

async function waitSwimlane(page) {
  await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0, null, { timeout: TIMEOUT_MS });
}

async function openView(page, key) {
  await page.click(`[data-testid=view-switch-${key}]`);
  await page.waitForSelector(`[data-testid=view-switch-${key}].active`, { timeout: TIMEOUT_MS });
}

test('a Chinese browser gets the Chinese page; every view speaks Chinese; the switch persists', { timeout: 240_000 }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'zh-CN' });
  try {
    const page = await context.newPage();
    page.on('pageerror', (err) => console.error(`[zh] pageerror: ${err.message}`));
    await page.goto(`${env.server.url}/`);
    await page.waitForSelector('[data-testid=welcome-files]', { timeout: TIMEOUT_MS });
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    assert.equal(await page.inputValue('[data-testid=language-switch]'), 'zh-CN');
    assert.equal((await page.textContent('#open-demo')).trim(), '打开示例');
    assert.match(await page.textContent('.welcome'), /不会上传/);
    await screenshot(page, 'i18n-zh-landing');

    // The landing page's own demo link opens the demo.
    await page.click('[data-testid=welcome-demo]');
    await waitLoadDone(page);
    await waitSwimlane(page);
    assert.match(await page.textContent('.swimlane-toolbar'), /关键路径/);
    assert.match(await page.textContent('.sidebar h2'), /数据集/);
    await screenshot(page, 'i18n-zh-swimlane');

    for (const key of ['dep-graph', 'function-perf']) {
      await openView(page, key);
      await page.waitForTimeout(500);
      await screenshot(page, `i18n-zh-${key}`);
    }
    assert.match(await page.textContent('.function-perf-page'), /函数性能/);
    const switcher = await page.textContent('.view-switcher');
    assert.match(switcher, /芯片泳道图/);
    assert.match(switcher, /任务依赖图/);

    await page.click(datasetSel('pass_dump', 'passes_dump'));
    await page.waitForSelector('[data-testid=view-switch-pass-trace].active', { timeout: TIMEOUT_MS });
    await page.waitForTimeout(500);
    assert.ok(HAN.test(await page.textContent('.view-area')), 'the pass trace shows Chinese text');
    await screenshot(page, 'i18n-zh-pass-trace');
    await openView(page, 'memory-map');
    await page.waitForTimeout(800);
    await screenshot(page, 'i18n-zh-memory-map');

    // English by the switch: the page follows at once, and keeps it after a reload.
    await page.selectOption('[data-testid=language-switch]', 'en');
    await page.waitForFunction(() => document.documentElement.lang === 'en', null, { timeout: TIMEOUT_MS });
    assert.equal((await page.textContent('#open-demo')).trim(), 'Open demo');
    assert.match(await page.textContent('.view-switcher'), /IR Pass Trace/);
    // Stored a moment after the change: wait for it, then reload.
    await page.waitForFunction(() => (localStorage.getItem('pypto-viewer.settings.v1') ?? '').includes('"language":"en"'), null, { timeout: TIMEOUT_MS });
    await page.reload();
    await page.waitForSelector('#open-demo', { timeout: TIMEOUT_MS });
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal((await page.textContent('#open-demo')).trim(), 'Open demo');
  } finally {
    await context.close();
  }
});

test('? opens the shortcut sheet of the view; a remapped zoom key shows remapped and zooms', { timeout: 180_000 }, async () => {
  await withPage(env.browser, 'shortcuts', async ({ page }) => {
    await page.goto(`${env.server.url}/?src=./demo/`);
    await waitLoadDone(page);
    await waitSwimlane(page);
    await page.click('#swimlane');
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid=shortcut-sheet]', { timeout: TIMEOUT_MS });
    const rows = await page.$$eval('[data-testid=shortcut-row]', (rs) => rs.map((r) => ({ action: r.dataset.action, keys: r.dataset.keys, remapped: r.dataset.remapped })));
    const zoom = rows.find((r) => r.action === 'ZoomIn');
    assert.deepEqual(zoom, { action: 'ZoomIn', keys: 'w', remapped: 'false' });
    assert.ok(rows.some((r) => r.action === 'Fit' && r.keys === 'f 0'), JSON.stringify(rows));
    assert.ok(rows.some((r) => r.action === 'ShowShortcuts'), 'the global keys are listed too');
    await screenshot(page, 'shortcuts-swimlane');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=shortcut-sheet]', { state: 'detached', timeout: TIMEOUT_MS });

    // Remap zoom in to "i" (⚙ Keys): the sheet says so, and "i" zooms while "w" no longer does.
    await page.click('#swimlane-settings-toggle');
    await page.fill('#key-zoom-in', 'i');
    await page.press('#key-zoom-in', 'Tab');
    await page.click('#swimlane');
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid=shortcut-sheet]', { timeout: TIMEOUT_MS });
    const remapped = await page.$eval('[data-testid=shortcut-row][data-action=ZoomIn]', (r) => ({ keys: r.dataset.keys, remapped: r.dataset.remapped }));
    assert.deepEqual(remapped, { keys: 'i', remapped: 'true' });
    await page.click('[data-testid=shortcut-close]');
    await page.waitForSelector('[data-testid=shortcut-sheet]', { state: 'detached', timeout: TIMEOUT_MS });
    const span = () => page.$eval('#swimlane', (el) => Number(el.dataset.viewEndUs) - Number(el.dataset.viewStartUs));
    await page.click('#swimlane');
    const before = await span();
    await page.keyboard.press('w');
    await page.waitForTimeout(300);
    assert.equal(await span(), before, '"w" no longer zooms');
    await page.keyboard.press('i');
    await page.waitForFunction((b) => { const el = document.querySelector('#swimlane'); return Number(el.dataset.viewEndUs) - Number(el.dataset.viewStartUs) < b * 0.95; }, before, { timeout: TIMEOUT_MS });

    // Through the canvas by keyboard: ] selects a lane's first task, ] again the next one on the
    // same lane, ↓ a task on another lane; each selection is announced in the live region.
    await page.keyboard.press('Escape');
    const selected = () => page.evaluate(() => window.__pyptoSwimlane.state()?.selected ?? null);
    await page.keyboard.press(']');
    await page.waitForFunction(() => window.__pyptoSwimlane.state()?.selected, null, { timeout: TIMEOUT_MS });
    const first = await selected();
    await page.keyboard.press(']');
    await page.waitForFunction((f) => JSON.stringify(window.__pyptoSwimlane.state()?.selected) !== f, JSON.stringify(first), { timeout: TIMEOUT_MS });
    const second = await selected();
    assert.equal(second.track, first.track, 'the same lane');
    assert.equal(second.index, first.index + 1, 'the next task on it');
    await page.waitForFunction(() => /Selected/.test(document.querySelector('[data-testid=swimlane-announce]')?.textContent ?? ''), null, { timeout: TIMEOUT_MS });
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((t) => (window.__pyptoSwimlane.state()?.selected?.track ?? t) !== t, second.track, { timeout: TIMEOUT_MS });

    // The graph's sheet lists the graph's keys, not the swimlane's.
    await openView(page, 'dep-graph');
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid=shortcut-sheet]', { timeout: TIMEOUT_MS });
    const graphRows = await page.$$eval('[data-testid=shortcut-row]', (rs) => rs.map((r) => r.dataset.action));
    assert.ok(graphRows.includes('EdgeMode') && !graphRows.includes('PanLeft'), graphRows.join());
  });
});

test('first visit: the swimlane tour shows once, is dismissed, and stays dismissed after a reload', { timeout: 120_000 }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1300, height: 850 }, firstVisit: true });
  try {
    const page = await context.newPage();
    await page.goto(`${env.server.url}/?src=./demo/`);
    await waitLoadDone(page);
    await waitSwimlane(page);
    await page.waitForSelector('[data-testid=swimlane-tour]', { timeout: TIMEOUT_MS });
    assert.match(await page.textContent('[data-testid=swimlane-tour]'), /Critical path/);
    await screenshot(page, 'tour-swimlane');
    await page.click('[data-testid=tour-done]');
    await page.waitForSelector('[data-testid=swimlane-tour]', { state: 'detached', timeout: TIMEOUT_MS });
    await page.reload();
    await waitLoadDone(page);
    await waitSwimlane(page);
    await page.waitForTimeout(500);
    assert.equal(await page.$('[data-testid=swimlane-tour]'), null, 'the tour stays dismissed');
  } finally {
    await context.close();
  }
});
