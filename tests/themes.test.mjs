// Light, dark and system themes (issue 20): the theme switch in the top bar, `prefers-color-scheme`
// followed live under "system", the choice remembered over a reload, the canvases drawn in the
// effective theme (pixels read from a screenshot), and screenshots of every view in both themes
// (tests/artifacts/theme-<view>-<light|dark>.png).

import assert from 'node:assert/strict';
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
  summaryOf,
  waitLoadDone,
  withPage,
} from './helpers.mjs';

const env = serveDistAndLaunch();
const STORAGE_KEY = 'pypto-viewer.settings.v1';

/** Mean relative luminance (0..1) of a page region, from a real screenshot decoded in the page. */
async function meanLuminance(page, clip) {
  const png = (await page.screenshot({ clip })).toString('base64');
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    [c.width, c.height] = [img.width, img.height];
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const lin = (v) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    let sum = 0;
    for (let i = 0; i < d.length; i += 4) sum += 0.2126 * lin(d[i]) + 0.7152 * lin(d[i + 1]) + 0.0722 * lin(d[i + 2]);
    return sum / (d.length / 4);
  }, png);
}

/** A strip of the swimlane's plot: right of the gutter, below the axis, a few lanes high. */
async function swimlanePlot(page) {
  const box = await page.locator('#swimlane').boundingBox();
  return { x: box.x + 260, y: box.y + 80, width: Math.min(400, box.width - 280), height: 120 };
}

const theme = (page) => page.getAttribute('html', 'data-theme');
const stored = (page) => page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? '{}').theme, STORAGE_KEY);

async function openDemoSwimlane(page) {
  await page.goto(`${env.server.url}/?src=./demo/`);
  await waitLoadDone(page);
  await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0, null, { timeout: TIMEOUT_MS });
}

/** Waits until the swimlane's last frame was drawn in `scheme`. */
const swimlaneDrawnIn = (page, scheme) =>
  page.waitForFunction((s) => document.querySelector('#swimlane')?.dataset.scheme === s, scheme, { timeout: TIMEOUT_MS });

test('system follows prefers-color-scheme live; the switch overrides it and is remembered over a reload', async () => {
  await withPage(env.browser, 'themes-switch', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await openDemoSwimlane(page);
    // default: system → dark
    assert.equal(await page.inputValue('[data-testid=theme-switch]'), 'system');
    assert.equal(await theme(page), 'dark');
    await swimlaneDrawnIn(page, 'dark');
    await page.waitForTimeout(200);
    const darkPlot = await meanLuminance(page, await swimlanePlot(page));
    assert.ok(darkPlot < 0.15, `the swimlane's canvas is dark: mean luminance ${darkPlot.toFixed(3)}`);
    const toolbarDark = await page.evaluate(() => getComputedStyle(document.querySelector('.toolbar')).backgroundColor);

    // the system turns light: the page follows without a reload
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { timeout: TIMEOUT_MS });
    await swimlaneDrawnIn(page, 'light');
    await page.waitForTimeout(200);
    const lightPlot = await meanLuminance(page, await swimlanePlot(page));
    assert.ok(lightPlot > 0.5, `the swimlane's canvas is light: mean luminance ${lightPlot.toFixed(3)}`);
    assert.notEqual(await page.evaluate(() => getComputedStyle(document.querySelector('.toolbar')).backgroundColor), toolbarDark);

    // the switch: dark although the system is light
    await page.selectOption('[data-testid=theme-switch]', 'dark');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: TIMEOUT_MS });
    await swimlaneDrawnIn(page, 'dark');
    await page.waitForFunction((k) => JSON.parse(localStorage.getItem(k) ?? '{}').theme === 'dark', STORAGE_KEY, { timeout: TIMEOUT_MS });

    // then light while the system is dark; remembered over a reload
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.selectOption('[data-testid=theme-switch]', 'light');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { timeout: TIMEOUT_MS });
    await page.waitForFunction((k) => JSON.parse(localStorage.getItem(k) ?? '{}').theme === 'light', STORAGE_KEY, { timeout: TIMEOUT_MS });
    await openDemoSwimlane(page);
    assert.equal(await page.inputValue('[data-testid=theme-switch]'), 'light');
    assert.equal(await theme(page), 'light', 'the remembered light wins over the dark system');
    await swimlaneDrawnIn(page, 'light');
    await page.waitForTimeout(200);
    assert.ok((await meanLuminance(page, await swimlanePlot(page))) > 0.5, 'light canvas after the reload');

    // back to system: dark again (the system is dark), stored as "system"
    await page.selectOption('[data-testid=theme-switch]', 'system');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: TIMEOUT_MS });
    await page.waitForFunction((k) => JSON.parse(localStorage.getItem(k) ?? '{}').theme === 'system', STORAGE_KEY, { timeout: TIMEOUT_MS });
    assert.equal(await stored(page), 'system');
  });
});

test('?theme= picks the theme for the page (light, dark, system)', async () => {
  await withPage(env.browser, 'themes-param', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${env.server.url}/?embed=1&theme=light`);
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { timeout: TIMEOUT_MS });
    await page.goto(`${env.server.url}/?embed=1&theme=system`);
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: TIMEOUT_MS });
  });
});

/** Sets the theme through the switch and waits for the page (and a canvas view, if any) to take it. */
async function useTheme(page, scheme) {
  await page.selectOption('[data-testid=theme-switch]', scheme);
  await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme, { timeout: TIMEOUT_MS });
  await page.waitForTimeout(400);
}

/** Screenshots of the current view in both themes; checks the page background follows. */
async function bothThemes(page, name) {
  for (const scheme of ['light', 'dark']) {
    await useTheme(page, scheme);
    const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g).map(Number);
    assert.ok(scheme === 'dark' ? r + g + b < 150 : r + g + b > 600, `${name} ${scheme}: page background ${bg}`);
    await screenshot(page, `theme-${name}-${scheme}`);
  }
}

test('screenshots of every view in both themes', async () => {
  await withPage(env.browser, 'themes-views', async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 850 });
    await openApp(page, `${env.server.url}/`);
    await loadVia(page, () => page.click('#open-demo'));
    const runtime = datasetSel('runtime', 'paged_attention/dfx_outputs');
    await summaryOf(page, runtime);
    await page.click(runtime, { position: { x: 40, y: 14 } });
    await page.waitForFunction(() => Number(document.querySelector('#swimlane')?.dataset.bars) > 0, null, { timeout: TIMEOUT_MS });
    // a selected bar (the first wide enough one on screen): its outline and the details panel
    const bar = await page.evaluate(() => {
      for (let t = 0; t < 40; t++) {
        const r = window.__pyptoSwimlane.barRect(t, 0);
        if (r && r.w > 6 && r.y > 90 && r.y < 500 && r.x > 250) return r;
      }
      return null;
    });
    if (bar) await page.click('#swimlane', { position: { x: bar.x + Math.min(bar.w / 2, 20), y: bar.y + bar.h / 2 } });
    await bothThemes(page, 'swimlane');
    await swimlaneDrawnIn(page, 'dark');

    await page.click('#perf-panel-toggle');
    await page.waitForSelector('.perf-panel', { timeout: TIMEOUT_MS });
    await page.waitForTimeout(500);
    await bothThemes(page, 'perf-analysis');
    await page.click('#perf-panel-toggle');

    await page.click('[data-testid="view-switch-dep-graph"]');
    await page.waitForFunction(() => Number(document.querySelector('#dep-graph')?.dataset.nodes) > 0, null, { timeout: TIMEOUT_MS });
    await bothThemes(page, 'graph');

    await page.click('[data-testid="view-switch-function-perf"]');
    await page.waitForSelector('.function-perf-page', { timeout: TIMEOUT_MS });
    await bothThemes(page, 'function-perf');

    const passes = datasetSel('pass_dump', 'paged_attention/passes_dump');
    await summaryOf(page, passes, 'data-passes');
    await page.click(passes, { position: { x: 40, y: 14 } });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=pass-item]').length > 0, null, { timeout: TIMEOUT_MS });
    await page.waitForSelector('.diff-row', { timeout: TIMEOUT_MS });
    await bothThemes(page, 'pass-trace');

    await page.click('[data-testid=view-switch-memory-map]');
    await page.waitForSelector('[data-testid=mm-map], .mm-overview-page', { timeout: TIMEOUT_MS });
    await page.waitForTimeout(500);
    await bothThemes(page, 'memory-overview');
    const row = page.locator('.mm-overview-page [data-testid] .dt-row, .mm-matrix tbody tr').first();
    if (await row.count()) {
      await row.click();
      await page.waitForSelector('[data-testid=mm-map][data-function]', { timeout: TIMEOUT_MS });
      await bothThemes(page, 'memory-map');
    }
  });
});

test('comparison views in both themes', async () => {
  const MIXED = path.join(FIXTURES, 'runtime', 'a2a3sim-L4-TestChipSwimlaneMixed_default');
  const MIXED2 = path.join(FIXTURES, 'runtime', 'a2a3sim-L4-TestChipSwimlaneMixed_default-run2');
  await withPage(env.browser, 'themes-compare', async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 1000 });
    await page.addInitScript(() => {
      window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle('picked', { create: true });
    });
    await openApp(page, `${env.server.url}/`);
    await seedOpfs(page, { ...filesOf(MIXED, 'runs/mixed', isViewerRuntimeFile), ...filesOf(MIXED2, 'runs/mixed-run2', isViewerRuntimeFile) });
    await loadVia(page, () => page.click('#open-folder'));
    const b = datasetSel('runtime', 'runs/mixed-run2');
    await summaryOf(page, b);
    await summaryOf(page, datasetSel('runtime', 'runs/mixed'));
    const aId = await page.evaluate(
      () => [...document.querySelectorAll('[data-testid=compare-with] option')].find((o) => o.textContent === 'runs/mixed').value,
    );
    await page.selectOption(`${b} [data-testid=compare-with]`, aId);
    await page.waitForSelector('[data-testid=compare-histogram] rect', { timeout: TIMEOUT_MS });
    await bothThemes(page, 'compare-runs');
  });
});
